#!/usr/bin/env python3
"""rent_rule.py PRICES.csv [--anecdotal-ok] [--stale-ok] [--today=YYYY-MM-DD] [CUR=PER_USD...]
— the rent options a decision keeps from the hourly cloud prices of a gpuwise prices.csv, by the
rule written out plainly over every offer, for the tests to compare with the walk cheapest first
(core/decide/decide_rent.c).  The workload takes no spot price, an anecdotal one only with
--anecdotal-ok, and no price older than 180 days (price_max_age_days; its age is counted from
--today, default the system's today) unless --stale-ok (stale_ok).

An offer is the rows of one GPU, count, source, provider and instance.  The row that stands for
it is the best by: its standing (a current price; a stale one with --stale-ok; then an anecdote
the workload does not accept or a stale price, held back; then a launch MSRP), its kind's rank
(kb/schema.sql's price_kind), its date, latest first; its price is the median of the rows of
that kind and date, its terms the first of them (by currency, amount, row), and its price per
card that price over its terms' GPU fraction.  It is held back when its standing is.  It is set
aside when its seller (provider, else source) prices the same GPU, count and fraction later than
the offer's latest row, in a row that is not anecdotal.  Per GPU and count, offers go cheapest
per card first (held back last); the first of each seller and fraction is kept until 3 are.
Prints one option id per kept offer."""
import collections
import csv
import datetime
import sys

rate = {"USD": 1.0}
anecdotal_ok = "--anecdotal-ok" in sys.argv[2:]
stale_ok = "--stale-ok" in sys.argv[2:]
today = datetime.date.today()
MAX_AGE_DAYS = 180
# kb/schema.sql's price_kind: rank 1 is the best evidence; a row of no kind ranks after all.
RANK = {"list": 1, "quote": 2, "market": 3, "from": 4, "anecdote": 5, "launch": 6}
for arg in sys.argv[2:]:
    if arg.startswith("--today="):
        today = datetime.date.fromisoformat(arg.split("=", 1)[1])
    elif "=" in arg:
        cur, per_usd = arg.split("=")
        rate[cur] = float(per_usd)
lines = (l for l in open(sys.argv[1]) if not l.startswith("#") and l.strip())
rows = [r for r in csv.DictReader(lines) if r["kind"] == "cloud" and r["unit"] == "hour"]
for i, r in enumerate(rows):
    r["i"] = i
    r["usd"] = float(r["amount"]) / rate[r["currency"]]
    fraction = float(r.get("gpu_fraction") or 1)
    r["fraction"] = fraction if 0 < fraction <= 1 else 1.0
    r["anecdote"] = r.get("quality") == "anecdote"


def seller(r):
    return r["provider"] or r["source"]


def kb_order(r):
    return (r["as_of"], r["currency"], float(r["amount"]), r["i"])


offers = collections.defaultdict(list)
for r in rows:
    if r["spot"] == "0":
        offers[(r["gpu"], int(r["gpu_count"]), r["source"], r["provider"], r["instance"])].append(r)

def age_days(as_of):
    parts = [int(x) for x in as_of.split("-")] + [1]
    return (today - datetime.date(parts[0], parts[1], parts[2])).days


def standing(r):   # 0 current, 1 stale and stale_ok, 2 held back, 3 a launch MSRP
    if r.get("quality") == "launch":
        return 3
    if r["anecdote"] and not anecdotal_ok:
        return 2
    if age_days(r["as_of"]) > MAX_AGE_DAYS:
        return 1 if stale_ok else 2
    return 0


def stands_first(rs):   # best first: standing, rank, latest date; ties in KB order
    rs = sorted(rs, key=lambda r: (r["currency"], float(r["amount"]), r["i"]))
    rs = sorted(rs, key=lambda r: r["as_of"], reverse=True)
    return sorted(rs, key=lambda r: (standing(r), RANK.get(r.get("quality"), 7)))


configs = collections.defaultdict(list)
for key, rs in offers.items():
    best = stands_first(rs)[0]
    pooled = sorted((r for r in rs if r["as_of"] == best["as_of"]
                     and r.get("quality") == best.get("quality")),
                    key=lambda r: (r["currency"], float(r["amount"]), r["i"]))
    terms = pooled[0]
    values = sorted(r["usd"] for r in pooled)
    n = len(values)
    price = values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
    configs[key[:2]].append({"key": key, "terms": terms, "price": price / terms["fraction"],
                             "held": standing(terms) >= 2,
                             "latest": max(r["as_of"] for r in rs),
                             "first": kb_order(min(rs, key=kb_order))})


def newer(f):
    t = f["terms"]
    return any(r["gpu"] == t["gpu"] and r["gpu_count"] == t["gpu_count"] and r["spot"] == "0"
               and r["provider"] == t["provider"] and (t["provider"] or r["source"] == t["source"])
               and r["fraction"] == t["fraction"] and r["as_of"] > f["latest"]
               and (anecdotal_ok or not r["anecdote"]) for r in rows)


for (gpu, count), fs in sorted(configs.items()):
    kept = []
    for f in sorted(fs, key=lambda f: (f["held"], f["price"], f["first"])):
        if len(kept) == 3:
            break
        if any(seller(k["terms"]) == seller(f["terms"]) and
               k["terms"]["fraction"] == f["terms"]["fraction"] for k in kept) or newer(f):
            continue
        kept.append(f)
    for f in kept:
        print("rent:%s:%s:%dx %s" % (seller(f["terms"]), f["terms"]["instance"] or "-", count, gpu))
