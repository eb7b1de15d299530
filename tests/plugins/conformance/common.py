"""common.py — what every conformance checker shares: the KB read directly (sqlite3), the KB
cards a file's GPU name fits (found in the gpu table by model, memory, form and Laptop/Max-Q/
Mobile, not through the name resolver the plugins use), the import's log read into reasons, and
one compare/report helper that pairs stored rows with the rows a file should give and prints the
verdict."""

import re
import sqlite3

# A figure the checker computed and one the KB holds agree within this share (the KB stores
# doubles; a division such as 59334.8 / 8 must not fail on its last digit).
REL_TOLERANCE = 1e-6

# record number -> the file line it starts on, for the report (check.py's read_csv fills it).
FILE_LINES = {}


def where(record):
    line = FILE_LINES.get(record, record)
    return "line %d" % line if line == record else "line %d (record %d)" % (line, record)


# Words that make a card a different product from the desktop one of the same name.
VARIANT_WORDS = ("laptop", "maxq", "mobile")


def words(text):
    """Lower-case alphanumeric words ("Max-Q" is one word, "maxq")."""
    return re.findall(r"[a-z0-9]+", (text or "").lower().replace("max-q", "maxq"))


def ends_with(model_words, want):
    """The KB card's model words end with the file's model, written with or without spaces:
    "geforce rtx 3080 ti" ends with "3080Ti" and "RTX 3080 Ti"; "a100" does not end with "a10",
    nor "geforce rtx 4090 d" with "RTX 4090"."""
    return any("".join(model_words[i:]) == want for i in range(len(model_words)))


class Kb:
    """The KB file after an import, read directly."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.row_factory = sqlite3.Row
        self._gpus = {}

    def rows(self, sql, *args):
        return [dict(r) for r in self.db.execute(sql, args)]

    def gpu(self, gpu_id):
        """The GPU row with its aliases, or None."""
        if gpu_id not in self._gpus:
            self._gpus[gpu_id] = self._gpu(gpu_id)
        return self._gpus[gpu_id]

    def _gpu(self, gpu_id):
        found = self.rows("SELECT * FROM gpu WHERE id = ?", gpu_id)
        if not found:
            return None
        g = found[0]
        aliases = self.rows("SELECT alias FROM gpu_alias WHERE gpu = ?", gpu_id)
        g["aliases"] = [r["alias"] for r in aliases]
        return g

    def card_disagrees(self, gpu_id, model, memory_gb=None, form=None, variants=()):
        """Why the KB card gpu_id is not the card a file describes as `model` (its words, e.g.
        "H100" or "RTX 6000 Ada"), with `memory_gb` per card and `form` ("sxm", "pcie") where
        the file states them and `variants` (Laptop, Max-Q, Mobile) as the file's label has
        them; None when it is that card."""
        g = self.gpu(gpu_id) if gpu_id else None
        if not g:
            return "no KB card"
        names = [g["name"], g["id"]] + g["aliases"]
        want = "".join(words(model))
        if not any(ends_with(words(parse_card(n)[0]), want) for n in names):
            return "%s is %s, not a %s" % (gpu_id, g["name"], model)
        has = {v for v in VARIANT_WORDS if any(v in words(n) for n in names)}
        if set(variants) != has:
            return "%s is %s (%s), the file's card is %s" % (
                gpu_id, g["name"], "/".join(sorted(has)) or "desktop",
                "/".join(sorted(variants)) or "desktop")
        if memory_gb and g["memory_gb"] and abs(g["memory_gb"] - memory_gb) > 0.1 * memory_gb:
            return "%s has %g GB, the file says %g GB" % (gpu_id, g["memory_gb"], memory_gb)
        kb_form = (g["form_factor"] or "").lower()
        if form and form.startswith("sxm") and not (
                kb_form.startswith(form) or (form == "sxm" and kb_form.startswith("sxm"))):
            return "%s is %s, the file says %s" % (gpu_id, kb_form or "of unknown form", form)
        if form == "pcie" and kb_form != "pcie":
            return "%s is %s, the file says PCIe" % (gpu_id, kb_form or "of unknown form")
        return None

    def cards(self, model, memory_gb=None, form=None, variants=(), exclude_source=None):
        """Every KB card (those not added by the import under test, whose source starts with
        `exclude_source`) that the file's description fits: one is the card, several mean the
        file does not tell which, none that the KB lacks it.  Read from the gpu table itself,
        not through the name resolver the plugins use."""
        if not set(words(model)) - set(VARIANT_WORDS):   # "Max-Q" alone names no card
            return frozenset()
        ids = [r["id"] for r in self.rows("SELECT id, source FROM gpu")
               if not (exclude_source and r["source"].startswith(exclude_source))]
        return frozenset(i for i in ids
                         if not self.card_disagrees(i, model, memory_gb, form, variants))


FORM_WORDS = {"sxm", "sxm2", "sxm3", "sxm4", "sxm5", "pcie", "pcle", "hgx", "gen4", "gen5"}
BRAND_WORDS = {"nvidia", "amd", "intel", "tesla", "radeon"}


def parse_card(text):
    """(model, memory_gb, form, variants) of a card as a file writes it: "A100 (80 GB)",
    the form "pcie", "sxm" or the SXM generation the name gives ("sxm3"),
    "NVIDIA H200-SXM-141GB", "H100 HGX (80GB)", "RTX 2080 Max-Q".  The model is what is left
    once the vendor, memory and form words are taken out."""
    memory = re.search(r"(\d+(?:\.\d+)?)\s*GB", text or "", re.I)
    rest = re.sub(r"\d+(?:\.\d+)?\s*GB", " ", text or "", flags=re.I)
    w = words(rest)
    sxm = [x for x in w if x.startswith("sxm") or x == "hgx"]
    form = (sxm[0] if sxm[0].startswith("sxm") else "sxm") if sxm else \
        "pcie" if any(x in ("pcie", "pcle") for x in w) else None
    model = " ".join(x for x in w if x not in FORM_WORDS and x not in BRAND_WORDS)
    variants = tuple(v for v in VARIANT_WORDS if v in w)
    return model, float(memory.group(1)) if memory else None, form, variants


class Log:
    """The import's stderr: the plugin's `NAME: log:` lines and the core's messages about
    offers whose GPU the KB does not know."""

    def __init__(self, text):
        self.text = text
        self.by_line = {}          # file line -> the log's sentence about it
        self.unknown_gpus = {}     # name -> (offers naming it, lines listed)
        for entry in text.splitlines():
            m = re.search(r": log: line (\d+): (.*)$", entry)
            if m:
                self.by_line.setdefault(int(m.group(1)), m.group(2))
            m = re.search(r"no GPU named '(.*?)';", entry)
            if m:
                many = re.search(r"(\d+) offers name it \(lines ([\d, .]*)\)", entry)
                one = re.search(r"\(line (\d+)\)", entry)
                if many:
                    lines = {int(n) for n in re.findall(r"\d+", many.group(2))}
                    self.unknown_gpus[m.group(1)] = (int(many.group(1)), lines)
                elif one:
                    self.unknown_gpus[m.group(1)] = (1, {int(one.group(1))})



def same(expected, stored):
    if isinstance(expected, frozenset):   # the cards a file's name fits: any of them
        return stored in expected
    if isinstance(expected, float) or isinstance(stored, float):
        try:
            e, s = float(expected), float(stored)
        except (TypeError, ValueError):
            return False
        return abs(e - s) <= REL_TOLERANCE * max(abs(e), abs(s), 1e-12)
    return expected == stored


def shown(value):
    if isinstance(value, frozenset):
        return "one of " + ", ".join(sorted(value)) if value else "(no KB card fits the file)"
    if isinstance(value, float) and value == int(value):
        return "%d" % value
    return repr(value) if isinstance(value, str) else str(value)


class Report:
    """One file's verdict.  A file row is stored (every record it should give is in the KB, field
    by field), wrong (a record missing, extra or with a field that differs), left out with a
    right reason, left out unexplained (no reason, or a reason the checker finds untrue), or out
    of the plugin's documented scope (counted, not judged)."""

    def __init__(self, title):
        self.title = title
        self.stored = self.correct = self.left_out_ok = self.wrong_records = 0
        self.wrong, self.unexplained, self.out_of_scope = [], [], {}

    def scope(self, why):
        self.out_of_scope[why] = self.out_of_scope.get(why, 0) + 1

    def compare(self, record, expected, stored, key, what=""):
        """Pairs one file row's expected records with its stored ones by `key` (a function of a
        record) and compares every field `expected` names.  Returns True when all agree."""
        problems = {}   # (field, expected, stored) -> keys of the records it is true of
        by_key = {}
        for s in stored:
            by_key.setdefault(key(s), []).append(s)
        bad = set()
        for e in expected:
            found = by_key.get(key(e))
            if not found:
                problems.setdefault(("record", "stored", "missing"), []).append(key(e))
                bad.add(key(e))
                continue
            s = found.pop(0)
            for field, want in e.items():
                if not same(want, s.get(field)):
                    problem = (field, shown(want), shown(s.get(field)))
                    problems.setdefault(problem, []).append(key(e))
                    bad.add(key(e))
        for k, rest in by_key.items():
            for s in rest:
                problem = ("record", "none", "stored: " + (s.get("note") or ""))
                problems.setdefault(problem, []).append(k)
                bad.add(k)
        self.stored += 1
        if not problems:
            self.correct += 1
            return True
        self.wrong_records += len(bad)
        lines = ["%s%s:" % (where(record), " " + what if what else "")]
        for (field, want, got), keys in problems.items():
            lines.append("    %s: expected %s, stored %s [%s]" % (
                field, want, got, ", ".join(map(str, keys))))
        self.wrong.append("\n".join(lines))
        return False

    def left_out(self, record, explained, why):
        """A file row the KB holds nothing of: `explained` when the log gives a reason the checker
        finds true of the row; `why` says what the checker found."""
        if explained:
            self.left_out_ok += 1
        else:
            self.unexplained.append("%s: %s" % (where(record), why))

    def print(self):
        print("%s: %d rows stored, %d correct, %d wrong (%d records); %d left out with the right "
              "reason, %d left out unexplained" % (self.title, self.stored, self.correct,
                                                   len(self.wrong), self.wrong_records,
                                                   self.left_out_ok, len(self.unexplained)))
        for why, n in sorted(self.out_of_scope.items()):
            print("  out of scope (documented): %d rows, %s" % (n, why))
        for w in self.wrong:
            print("  wrong: " + w)
        for u in self.unexplained:
            print("  unexplained: " + u)
        return not self.wrong and not self.unexplained


def note_line(note):
    """The file line a stored record's note names ("... line 12 ..."), or None."""
    found = re.findall(r"line (\d+)", note or "")
    return int(found[-1]) if found else None


def by_note_line(records):
    out = {}
    for r in records:
        out.setdefault(note_line(r.get("note")), []).append(r)
    return out
