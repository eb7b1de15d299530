#!/usr/bin/env python3
"""fetch_server.py — a local HTTP server for tests/plugins/fetch.sh and hostile_fetch.sh: serves
files of DOCROOT and misbehaves on purpose on a few paths.  Listens on 127.0.0.1 on a free port,
writes the port to PORTFILE once it listens, and stops by itself after LIFETIME seconds (or when
killed).  With REQUESTLOG, appends the target of every request it gets to that file, one a line
(so a test can tell that a refused download never reached it).

    python3 fetch_server.py DOCROOT PORTFILE [LIFETIME [REQUESTLOG]]

Paths:  /slow (headers, then nothing for 30 s), /truncated (Content-Length 1000, 100 bytes sent),
/big (2 MiB with its Content-Length), /big-chunked (2 MiB, chunked, no length), /missing (404),
/error (500), /redirect-http (302 to plain HTTP on another host), /moved (302 to /good.csv on this
server), /loop (302 to itself), /no-location (301 without a Location), /empty (200, no body),
/not-http (a reply without an HTTP status line), /redirect?to=URL (302 to URL), anything else a
file of DOCROOT.
"""
import http.server
import os
import sys
import threading
import time

DOCROOT, PORTFILE = sys.argv[1], sys.argv[2]
LIFETIME = float(sys.argv[3]) if len(sys.argv) > 3 else 120.0
REQUESTLOG = sys.argv[4] if len(sys.argv) > 4 else None
BIG = 2 * 1024 * 1024


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the test reads gpuwise's output, not ours
        pass

    def send_head(self, status, length=None, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        if length is not None:
            self.send_header("Content-Length", str(length))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()

    def do_GET(self):
        if REQUESTLOG:
            with open(REQUESTLOG, "a") as log:
                log.write(self.path + "\n")
        path, _, query = self.path.partition("?")
        if path == "/redirect" and query.startswith("to="):
            self.send_head(302, 0, [("Location", query[3:])])
            return
        if path == "/slow":
            self.send_head(200, 10)
            self.wfile.flush()
            time.sleep(30)
            return
        if path == "/truncated":
            self.send_head(200, 1000)
            self.wfile.write(b"x" * 100)
            self.wfile.flush()
            self.close_connection = True
            return
        if path == "/big":
            self.send_head(200, BIG)
            self.wfile.write(b"y" * BIG)
            return
        if path == "/big-chunked":
            self.send_head(200, None, [("Transfer-Encoding", "chunked")])
            chunk = b"z" * 65536
            for _ in range(BIG // len(chunk)):
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                except OSError:
                    return
            self.wfile.write(b"0\r\n\r\n")
            return
        if path == "/missing":
            self.send_head(404, 9)
            self.wfile.write(b"not found")
            return
        if path == "/error":
            self.send_head(500, 5)
            self.wfile.write(b"oops!")
            return
        if path == "/redirect-http":
            self.send_head(302, 0, [("Location", "http://example.invalid/vms.csv")])
            return
        if path == "/redirect-escape":   # a Location with terminal escapes and U+202E in it
            self.send_head(302, 0, [("Location", "http://example.invalid/\x1b]0;owned\x07"
                                                 "\x1b[2J\xe2\x80\xaecsv.exe")])
            return
        if path == "/moved":
            self.send_head(302, 0, [("Location", "/good.csv")])
            return
        if path == "/loop":
            self.send_head(302, 0, [("Location", "/loop")])
            return
        if path == "/no-location":
            self.send_head(301, 9)
            self.wfile.write(b"moved?..\n")
            return
        if path == "/empty":
            self.send_head(200, 0)
            return
        if path == "/not-http":
            self.wfile.write(b"gpu,count,price\nL4,1,0.01\n")
            self.close_connection = True
            return
        file = os.path.realpath(os.path.join(DOCROOT, path.lstrip("/")))
        if not file.startswith(os.path.realpath(DOCROOT) + os.sep) or not os.path.isfile(file):
            self.send_head(404, 0)
            return
        with open(file, "rb") as f:
            data = f.read()
        self.send_head(200, len(data))
        self.wfile.write(data)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Timer(LIFETIME, server.shutdown).start()
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
