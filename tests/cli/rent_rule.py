#!/usr/bin/env python3
"""rent_rule.py PRICES.csv [--anecdotal-ok] [CUR=PER_USD...] — the rent options a decision
keeps from the hourly cloud prices of a gpuwise prices.csv, by the rule written out plainly
over every offer, for the tests to compare with the walk cheapest first (core/decide/decide_rent.c).
The workload takes no spot price, and an anecdotal one only with --anecdotal-ok.

An offer is the rows of one GPU, count, source, provider and instance; its price is the median
of its latest date's rows, its terms that date's first row (by currency, amount, row), and its
price per card that price over its terms' GPU fraction.  It is held back when its terms are
anecdotal.  It is set aside when its seller (provider, else source) prices the same GPU, count
and fraction at a later date in a row that is not anecdotal.  Per GPU and count, offers go
cheapest per card first (held back last); the first of each seller and fraction is kept until 3
are.  Prints one option id per kept offer."""
import collections
import csv
import sys

rate = {"USD": 1.0}
anecdotal_ok = "--anecdotal-ok" in sys.argv[2:]
for arg in sys.argv[2:]:
    if "=" in arg:
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

configs = collections.defaultdict(list)
for key, rs in offers.items():
    latest = max(r["as_of"] for r in rs)
    month = sorted((r for r in rs if r["as_of"] == latest),
                   key=lambda r: (r["currency"], float(r["amount"]), r["i"]))
    terms = month[0]
    values = sorted(r["usd"] for r in month)
    n = len(values)
    price = values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
    configs[key[:2]].append({"key": key, "terms": terms, "price": price / terms["fraction"],
                             "held": terms["anecdote"] and not anecdotal_ok,
                             "first": kb_order(min(rs, key=kb_order))})


def newer(f):
    t = f["terms"]
    return any(r["gpu"] == t["gpu"] and r["gpu_count"] == t["gpu_count"] and r["spot"] == "0"
               and r["provider"] == t["provider"] and (t["provider"] or r["source"] == t["source"])
               and r["fraction"] == t["fraction"] and r["as_of"] > t["as_of"]
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
