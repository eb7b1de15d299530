#!/usr/bin/env python3
"""tests/cli/chromium.py — one headless Chromium for every page browser.sh checks.

Chromium is started once and driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL, read on fd 3, written on fd 4); each page
gets what one `chromium --headless --screenshot --dump-dom` or `--print-to-pdf` run gave it.
Starting Chromium costs about two CPU-seconds; browser.sh used to start it eight times.

Usage: chromium.py BROWSER JOBS
JOBS holds one job a line, fields separated by tabs:
    page URL PNG DOM STATUS    a 1200 x 2000 screenshot into PNG, the DOM Chromium built into DOM
    print URL PDF STATUS       the page printed to PDF (its CSS page size, no header or footer)
    screen URL PDF STATUS      the same, but laid out for the screen (print CSS off): what a
                               reader sees on screen, as text pdftotext can read
Each job writes STATUS: "ok", or what went wrong.  The exit status is 0 when Chromium started
and answered, whatever the pages did, so that browser.sh reports each page on its own.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

# A page that is neither loaded nor printed by then counts as failed (the runs this replaces
# had 60 s and 120 s).
PAGE_SECONDS = 60
# --dump-dom prints the doctype and the serialised document element (headless_command_handler).
DUMP_DOM = ("(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n'"
            " : '') + document.documentElement.outerHTML")


class Browser:
    """A Chromium child and the two pipes that speak to it; close() ends it."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="chrome.")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def pipes_on_3_and_4():
            # Through copies above 4: a pipe may already be fd 3 or 4, and dup2 onto itself
            # would leave it close-on-exec.
            read_end = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 5)
            write_end = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 5)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--user-data-dir=" + self.profile, "--window-size=1200,2000",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=pipes_on_3_and_4)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, seconds=PAGE_SECONDS):
        """The result of one command; raises RuntimeError on an error or after SECONDS."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + seconds
        while True:
            reply = self.receive(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method, session, seconds=PAGE_SECONDS):
        """Waits for the event METHOD of SESSION (one already received counts)."""
        deadline = time.monotonic() + seconds
        while True:
            for i, event in enumerate(self.events):
                if event["method"] == method and event.get("sessionId") == session:
                    del self.events[i]
                    return event
            self.events.append(self.receive(deadline))

    def receive(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                raise RuntimeError("no answer from Chromium in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                try:
                    status = self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    status = "none yet"
                raise RuntimeError("Chromium closed its pipe (exit status %s)" % status)
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        try:
            self.send("Browser.close", seconds=10)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)


def open_tab(browser, url):
    """A new tab attached in flat mode, URL loaded; returns (target id, session id)."""
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget",
                           {"targetId": target, "flatten": True})["sessionId"]
    browser.send("Page.enable", session=session)
    navigated = browser.send("Page.navigate", {"url": url}, session=session)
    if navigated.get("errorText"):
        raise RuntimeError("%s: %s" % (url, navigated["errorText"]))
    browser.wait_event("Page.loadEventFired", session)
    return target, session


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def run_job(browser, fields):
    kind, url = fields[0], fields[1]
    target, session = open_tab(browser, url)
    try:
        if kind == "page":
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
            write(fields[2], base64.b64decode(shot["data"]))
            dom = browser.send("Runtime.evaluate", {"expression": DUMP_DOM, "returnByValue": True},
                               session=session)
            write(fields[3], (dom["result"]["value"] + "\n").encode())
        elif kind in ("print", "screen"):
            if kind == "screen":
                browser.send("Emulation.setEmulatedMedia", {"media": "screen"}, session=session)
            # What --print-to-pdf --no-pdf-header-footer asks for.
            pdf = browser.send("Page.printToPDF",
                               {"printBackground": True, "preferCSSPageSize": True,
                                "displayHeaderFooter": False}, session=session)
            write(fields[2], base64.b64decode(pdf["data"]))
        else:
            raise RuntimeError("unknown job '%s'" % kind)
    finally:
        browser.send("Target.closeTarget", {"targetId": target})


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: chromium.py BROWSER JOBS")
    with open(sys.argv[2]) as f:
        jobs = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    browser = Browser(sys.argv[1])
    status = 0
    try:
        browser.send("Browser.getVersion")
        for fields in jobs:
            try:
                run_job(browser, fields)
                outcome = "ok"
            except (RuntimeError, OSError, KeyError, ValueError) as e:
                outcome = str(e)
            write(fields[-1], (outcome + "\n").encode())
    except (RuntimeError, OSError) as e:
        print("chromium.py: %s" % e, file=sys.stderr)
        status = 1
    finally:
        browser.close()
    sys.exit(status)


if __name__ == "__main__":
    main()
