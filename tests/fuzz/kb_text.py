#!/usr/bin/env python3
"""kb_text.py — the KB's text form against generated inputs (issue 18), two harnesses:

  diff       hostile CSV files (stray and doubled quotes, CR/LF/CRLF mixes, a byte order mark,
             NUL and other bytes that are not text, empty and very long fields, '#' at a line
             start inside a quoted field) imported by `gpuwise kb import` and by `kb import --with
             gpuwise-csv`: every file either is refused with exit 65 and a "file:line" message,
             or stores exactly the records Python's csv module (another RFC 4180 reader) reads.
  roundtrip  random KB contents (any UTF-8 text with quotes, commas, newlines, '#' at line starts,
             values equal to column names) imported, exported, imported into an empty KB and
             exported again: the two exports must be the same bytes.

usage: kb_text.py diff|roundtrip GPUWISE SHIPPED_KB WORKDIR [--seed N] [--cases N]
Prints one "ok - ..." or "not ok - ..." line per check (tests/run.sh counts them); exits 1 when
any failed.  The seed makes a run repeatable; a failing case's files stay in WORKDIR.
"""
import csv
import io
import os
import random
import sqlite3
import subprocess
import sys

FAILED = 0


def report(ok, name, detail=""):
    global FAILED
    if ok:
        print("ok - " + name)
    else:
        FAILED += 1
        print("not ok - " + name + (": " + detail if detail else ""))


def gw(binary, kb, *args):
    p = subprocess.run([binary, "--kb", kb] + list(args), capture_output=True,
                       env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# ---- diff ---------------------------------------------------------------------------------

BENCH_HEADER = ["gpu", "gpu_count", "workload", "metric", "value", "unit", "precision", "batch",
                "framework", "interconnect", "power_w", "source", "note"]

# Pieces a hostile note is made of: text CSV must quote, text that looks like CSV syntax, and
# the bytes a KB refuses.
NOTE_PIECES = ['plain', 'a,b', 'say "hi"', '""', '"', 'line\nbreak', '\n#not a comment', '# hash',
               'é', '日本語', '😀', ' lead', 'trail ', '\t', '', "'", '8x RTX 4090, 999,999 images/s',
               '\n', '\n\n']


def quote(v):
    return '"' + v.replace('"', '""') + '"'


def hostile_file(rng, case):
    """One generated CSV as bytes, and what makes it special ('' when it is well-formed)."""
    ends = ['\n', '\r\n', '\r']
    end_mode = rng.choice(['lf', 'crlf', 'cr', 'mixed'])
    rows = []
    for i in range(rng.randint(1, 12)):
        # "n3 ..." : never empty (the importer writes its own note for an empty one)
        note = 'n%d ' % i + ''.join(rng.choice(NOTE_PIECES) for _ in range(rng.randint(0, 5)))
        if rng.random() < 0.05:
            note += 'x' * rng.randint(20000, 90000)   # a very long field
        rows.append(["rtx-3090", "1", "diff-%d" % case, "m", str(i + 1), "u", "", "", "", "", "",
                     "diff-src", note])
    special = 'CR in a value' if any('\r' in r[12] for r in rows) else ''
    text = ''
    for r in [BENCH_HEADER] + rows:
        fields = []
        for v in r:
            must = any(c in v for c in ',"\r\n') or v[:1] == '#' or v != v.strip(' ')
            fields.append(quote(v) if must or (v and rng.random() < 0.2) else v)
        end = {'lf': '\n', 'crlf': '\r\n', 'cr': '\r', 'mixed': rng.choice(ends)}[end_mode]
        text += ','.join(fields) + end
    data = text.encode('utf-8')
    tag = ('diff-%d' % case).encode()
    kind = rng.random()
    if kind < 0.1:   # a quote inside an unquoted field
        data = data.replace(tag, b'dif"f' + tag[4:], 1)
        special = 'stray quote'
    elif kind < 0.2:   # text after a closing quote: '"b"c' (readers disagree)
        data = data.replace(tag, b'"di"ff' + tag[4:], 1)
        special = 'text after a closing quote'
    elif kind < 0.3:   # a byte a KB never holds: NUL, a control character, not UTF-8
        bad = rng.choice([b'\x00', b'\x01', b'\x1b[31m', b'\x7f', b'\xff', b'\xc2\x85',
                          b'\xed\xa0\x80', b'\xc0\xaf'])
        data = data.replace(tag, b'di' + bad + tag[2:], 1)
        special = 'not text'
    elif kind < 0.35:   # a quoted field never closed
        data += b'"rtx-3090,1,open'
        special = 'unclosed quote'
    elif kind < 0.4:   # a CR inside a quoted value: a control character there
        data = data.replace(b'"n0 ', b'"n0 \r', 1) if b'"n0 ' in data else \
            data.replace(b',n0 ', b',"n0 \r"', 1)
        special = 'CR in a value'
    if rng.random() < 0.3:
        data = b'\xef\xbb\xbf' + data
    return data, special


def python_records(data):
    """The records Python's csv module reads (a byte order mark is not data), or None when it
    is not text or Python refuses it."""
    try:
        text = data.decode('utf-8-sig')
        rows = list(csv.reader(io.StringIO(text, newline=''), strict=True))
    except (UnicodeDecodeError, csv.Error):
        return None
    return [r for r in rows if r]


def stored_notes(kb, workload):
    db = sqlite3.connect(kb)
    try:
        return [r[0] or '' for r in db.execute(
            "SELECT note FROM benchmark WHERE workload = ? ORDER BY id", (workload,))]
    finally:
        db.close()


def run_diff(binary, shipped, work, seed, cases):
    rng = random.Random(seed)
    base = os.path.join(work, "diff-base.db")
    src = os.path.join(work, "diff-src.csv")
    with open(src, "w") as f:
        f.write("id,title,kind\ndiff-src,Differential test,user\n")
    with open(shipped, "rb") as f, open(base, "wb") as g:
        g.write(f.read())
    rc, _, err = gw(binary, base, "kb", "import", src)
    report(rc == 0, "diff: the test's source imports", err.strip())
    counts = {"same": 0, "refused": 0}
    for case in range(cases):
        data, special = hostile_file(rng, case)
        path = os.path.join(work, "hostile-%d.csv" % case)
        with open(path, "wb") as f:
            f.write(data)
        expected = python_records(data)
        for mode in ("table", "gpuwise-csv"):
            kb = os.path.join(work, "diff.db")
            with open(base, "rb") as f, open(kb, "wb") as g:
                g.write(f.read())
            args = ["kb", "import", path] if mode == "table" else \
                ["kb", "import", "--with", "gpuwise-csv", path]
            rc, _, err = gw(binary, kb, *args)
            name = "diff %d (%s, %s)" % (case, mode, special or "well-formed")
            if rc == 0:
                got = stored_notes(kb, "diff-%d" % case)
                want = None if expected is None else [r[12] for r in expected[1:]]
                report(want is not None and got == want, name + ": stores what Python reads",
                       "python %r, gpuwise %r" % (want and [w[:40] for w in want],
                                                  [g[:40] for g in got]))
                counts["same"] += 1
            else:
                # Refused: only what is not a well-formed text CSV, with file:line in the message.
                # the core names file:line; the importer's records name their line
                ok = rc == 65 and special != '' and (
                    os.path.basename(path) + ":" in err or (mode != "table" and "(line " in err))
                report(ok, name + ": refused with file:line",
                       "exit %d: %s" % (rc, err.strip()[:200]))
                counts["refused"] += 1
            os.unlink(kb)
            for ext in ("-wal", "-shm"):
                if os.path.exists(kb + ext):
                    os.unlink(kb + ext)
    # Whether the generator makes mostly well-formed files is judged over enough of them: a
    # short run (make fuzz's few seconds) can draw more hostile ones than not by chance.
    if cases >= 10:
        report(counts["same"] > cases, "diff: most files were read (%d read, %d refused)"
               % (counts["same"], counts["refused"]))


# ---- roundtrip ----------------------------------------------------------------------------

TEXT_PIECES = ['a', 'gpu', 'alias', 'id', 'name', 'note', ',', '"', '""', '\n', '\n#', '#', ' ',
               '\t', 'é', 'ß', '日本', '😀', "'", '\\', ';', 'x' * 40, '0', '1.5', '=1+1']


def random_text(rng, lo=1):
    while True:
        t = ''.join(rng.choice(TEXT_PIECES) for _ in range(rng.randint(lo, 8)))
        if t.strip() or lo == 0:   # a value of spaces alone is no value
            return t


def csv_line(values):
    out = []
    for v in values:
        out.append('"' + v.replace('"', '""') + '"' if v else '')
    return ','.join(out) + '\n'


def card_name(rng, marker):
    """A random name of one card: a name belongs to one card (kb_names_own.c), so each ends in
    its card's own word (letters and digits, no 'x': never a count) and none holds the word
    'alias', which the row ('gpu', 'alias') gives the card 'gpu'."""
    return random_text(rng).replace('alias', 'alais') + ' ' + marker


def random_kb(rng, case):
    """Table CSV texts for one random KB: sources, GPUs, aliases, benchmarks, prices, claims."""
    srcs = ['s%d-%d' % (case, i) for i in range(rng.randint(1, 4))]
    text = csv_line(['id', 'title', 'publisher', 'note'])
    for s in srcs:
        text += csv_line([s, random_text(rng), random_text(rng, 0), random_text(rng, 0)])
    gpus = ['gpu'] + ['g%d-%d' % (case, i) for i in range(rng.randint(0, 3))]
    gtext = csv_line(['id', 'name', 'vendor', 'note', 'source'])
    marker = {g: 'k%dq%d' % (case, i) for i, g in enumerate(gpus)}
    for g in gpus:
        gtext += csv_line([g, card_name(rng, marker[g]), random_text(rng), random_text(rng, 0),
                           rng.choice(srcs)])
    atext = csv_line(['gpu', 'alias'])
    aliases = {('gpu', 'alias')}   # a row whose values are the column names
    for _ in range(rng.randint(0, 4)):
        g = rng.choice(gpus)
        aliases.add((g, card_name(rng, marker[g])))
    for a in sorted(aliases):
        atext += csv_line(list(a))
    btext = csv_line(['gpu', 'gpu_count', 'workload', 'metric', 'value', 'unit', 'note', 'source'])
    for _ in range(rng.randint(0, 6)):
        btext += csv_line([rng.choice(gpus), str(rng.choice([1, 2, 8])), random_text(rng),
                           random_text(rng), repr(round(rng.uniform(0.001, 1e6), rng.randint(0, 6))),
                           random_text(rng), random_text(rng, 0), rng.choice(srcs)])
    ptext = csv_line(['gpu', 'kind', 'amount', 'currency', 'unit', 'as_of', 'note', 'source'])
    for _ in range(rng.randint(0, 4)):
        ptext += csv_line([rng.choice(gpus), 'new', repr(round(rng.uniform(1, 1e5), 2)), 'USD',
                           'card', '2026-0%d' % rng.randint(1, 9), random_text(rng, 0),
                           rng.choice(srcs)])
    ctext = csv_line(['subject', 'claim', 'status', 'source'])
    for _ in range(rng.randint(0, 3)):
        ctext += csv_line([random_text(rng), random_text(rng), 'disputed', rng.choice(srcs)])
    return {'sources.csv': text, 'gpus.csv': gtext, 'aliases.csv': atext,
            'benchmarks.csv': btext, 'prices.csv': ptext, 'claims.csv': ctext}


def run_roundtrip(binary, shipped, work, seed, cases):
    rng = random.Random(seed)
    for case in range(cases):
        d = os.path.join(work, "rt-%d" % case)
        os.makedirs(d, exist_ok=True)
        files = random_kb(rng, case)
        paths = []
        for name, text in files.items():
            p = os.path.join(d, name)
            with open(p, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            paths.append(p)
        a, b = os.path.join(d, "a.db"), os.path.join(d, "b.db")
        rc, _, err = gw(binary, a, "kb", "import", *paths)
        if rc != 0:
            report(False, "roundtrip %d: the generated KB imports" % case, err.strip()[:300])
            continue
        rc1, e1, err1 = gw(binary, a, "kb", "export")
        exp1 = os.path.join(d, "export1.csv")
        with open(exp1, "w", encoding="utf-8", newline="") as f:
            f.write(e1)
        rc2, _, err2 = gw(binary, b, "kb", "import", exp1)
        rc3, e2, _ = gw(binary, b, "kb", "export")
        same = rc1 == 0 and rc2 == 0 and rc3 == 0 and e1 == e2
        detail = err2.strip()[:300] if rc2 else "the exports differ (%s)" % d
        report(same, "roundtrip %d: export, import into an empty KB, export: same bytes" % case,
               detail)
        # every generated value is in the export: nothing was read as a comment or a header
        n_aliases = files['aliases.csv'].count('\n')   # header + rows, no newline in a value?
        db = sqlite3.connect(b)
        got_aliases = db.execute("SELECT count(*) FROM gpu_alias").fetchone()[0]
        want_aliases = len(list(csv.reader(io.StringIO(files['aliases.csv'], newline='')))) - 1
        db.close()
        report(got_aliases == want_aliases, "roundtrip %d: every alias row kept (%d)"
               % (case, want_aliases), "got %d (%d lines)" % (got_aliases, n_aliases))
        if same:
            for f in os.listdir(d):
                os.unlink(os.path.join(d, f))
            os.rmdir(d)


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[0] not in ("diff", "roundtrip"):
        print(__doc__, file=sys.stderr)
        return 64
    mode, binary, shipped, work = args[:4]
    seed, cases = 18, 30
    rest = args[4:]
    while rest:
        if rest[0] == "--seed":
            seed = int(rest[1])
        elif rest[0] == "--cases":
            cases = int(rest[1])
        rest = rest[2:]
    if mode == "diff":
        run_diff(binary, shipped, work, seed, cases)
    else:
        run_roundtrip(binary, shipped, work, seed, cases)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
