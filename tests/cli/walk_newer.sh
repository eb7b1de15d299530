#!/bin/sh
# tests/cli/walk_newer.sh — the walk of rent offers cheapest first (decide_rent.c) sets a
# provider's offer aside where the provider prices the same GPU, count, spot flag and share of
# a card at a later date, in a row of another offer too: an offer of one row is asked that
# before the rest of its row is read (kb_cursor_offer), an offer of several rows when judged
# (kb_cloud_newer), and both answer alike.  Over a copy of the shipped KB with the shapes
# fixture's GPUs (tests/fixtures/shapes) and the nine offers below, on a pinned today,
# 2026-12-01 (every offer is within the workload's 180 days).
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/shapes"
export SOURCE_DATE_EPOCH=1796083200   # 2026-12-01T00:00:00Z

if [ ! -f "$SHIPPED_KB" ]; then
    skip "walk newer" "kb/gpuwise.db not built (run make)"
    exit 0
fi
K=$(fresh_kb walk-newer)
# One GPU a row, USD an hour, on demand; per whole card-hour (amount / gpu_fraction), cheapest
# first: AneCo e 1.90 | OldCo a 2.00 | SliceCo h 1.00 / 0.5 = 2.00 | TwoRow c 2.10 and 2.20 (one
# offer, two dates) | SliceCo g 2.30 | TwoRow d 2.40 | OldCo b 2.50 | AneCo f 2.60 (an article).
cat >"$T/prices.csv" <<'EOF'
gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality,gpu_fraction,min_billing_hours,system,network_gbps
shape-h100,cloud,1.90,USD,hour,1,US,AneCo,e,0,2026-10-01,fx-shapes,,list,1,,,
shape-h100,cloud,2.00,USD,hour,1,US,OldCo,a,0,2026-10-01,fx-shapes,,list,1,,,
shape-h100,cloud,1.00,USD,hour,1,US,SliceCo,h,0,2026-11-20,fx-shapes,,list,0.5,,,
shape-h100,cloud,2.10,USD,hour,1,US,TwoRow,c,0,2026-10-01,fx-shapes,,list,1,,,
shape-h100,cloud,2.20,USD,hour,1,US,TwoRow,c,0,2026-11-15,fx-shapes,,list,1,,,
shape-h100,cloud,2.30,USD,hour,1,US,SliceCo,g,0,2026-10-01,fx-shapes,,list,1,,,
shape-h100,cloud,2.40,USD,hour,1,US,TwoRow,d,0,2026-11-01,fx-shapes,,list,1,,,
shape-h100,cloud,2.50,USD,hour,1,US,OldCo,b,0,2026-11-01,fx-shapes,,list,1,,,
shape-h100,cloud,2.60,USD,hour,1,US,AneCo,f,0,2026-11-20,fx-shapes,,anecdote,1,,,
EOF
run "$GW" --kb "$K" kb import "$FX/sources.csv" "$FX/gpus.csv" "$T/prices.csv"
check_rc "walk newer: the shapes GPUs and nine offers import" 0

# The walk by hand (3 providers' offers of one share of a card are kept):
#   e 1.90: AneCo's later row f is an article, which a workload without anecdotal_ok does not
#     count: e is AneCo's latest, kept.
#   a 2.00: OldCo prices the same terms later (b, 2026-11-01, another instance): set aside,
#     read (counted) but not kept.
#   h 2.00 per card: SliceCo's half card, no later half card: kept (its own share).
#   c: two rows (2.10 of 2026-10-01, 2.20 of 2026-11-15): the offer stands at its latest,
#     2.20; TwoRow's d (2026-11-01) is not later: kept.
#   g 2.30: SliceCo's later row h is of another share of a card: kept.  AneCo, TwoRow and
#     SliceCo make 3 providers of whole cards: the walk stops; d, b and f are not read.
# Read: e, a, h, c, g = 5 offers; kept 4.
sed 's/candidates = .*/candidates = { "rent:shape-h100" },/' "$FX/lora-job.lua" >"$T/job.lua"
run "$GW" --kb "$K" decide "$T/job.lua" --json
check_rc "walk newer: decide over the nine offers" 0
jq_all _j1 '[.options[] | select(.id | startswith("rent:")) | "\(.id)=\(.cost.unit_price)"] | sort | join(",")' \
    _j2 '.trace[] | select(test("cloud offers read"))'
check_eq "walk newer: the latest offer of each of 3 providers, an older one set aside" "$_j1" \
    "rent:AneCo:e:1x shape-h100=1.9,rent:SliceCo:g:1x shape-h100=2.3,rent:SliceCo:h:1x shape-h100=1,rent:TwoRow:c:1x shape-h100=2.2"
check_eq "walk newer: the offer set aside unread is counted read" "$_j2" \
    "5 cloud offers read, cheapest first; 4 kept (per GPU, count and share of a card, the cheapest of each of the 3 cheapest providers)"

# With anecdotal_ok the article f (2026-11-20) is AneCo's latest: e is set aside, and the walk
# reads on to OldCo's b (2.50), its latest, for a third provider of whole cards (a is again set
# aside, d is TwoRow's older offer, set aside too).  Read: e, a, h, c, g, d, b = 7; kept 4.
sed 's/candidates = .*/candidates = { "rent:shape-h100" }, anecdotal_ok = true,/' \
    "$FX/lora-job.lua" >"$T/job-articles.lua"
run "$GW" --kb "$K" decide "$T/job-articles.lua" --json
check_rc "walk newer: decide with anecdotal_ok" 0
jq_all _j1 '[.options[] | select(.id | startswith("rent:")) | "\(.id)=\(.cost.unit_price)"] | sort | join(",")' \
    _j2 '.trace[] | select(test("cloud offers read"))'
check_eq "walk newer: an article counts as later with anecdotal_ok" "$_j1" \
    "rent:OldCo:b:1x shape-h100=2.5,rent:SliceCo:g:1x shape-h100=2.3,rent:SliceCo:h:1x shape-h100=1,rent:TwoRow:c:1x shape-h100=2.2"
check_eq "walk newer: ... and the walk reads on to a third provider's latest" "$_j2" \
    "7 cloud offers read, cheapest first; 4 kept (per GPU, count and share of a card, the cheapest of each of the 3 cheapest providers)"

# A KB made outside gpuwise may hold a provider that is not UTF-8: gpuwise shows it repaired
# (U+FFFD for the bad byte), and compares it as stored.  OldCo and TwoRow with a byte 0x80 after
# their names: the walk is the one above without anecdotal_ok.  OldCo's a is set aside by its
# later b (the bytes are one provider's), and TwoRow's c is read with both its rows (looked up
# by the terms of the row read, as stored: the repaired name would find no row).
cp "$K" "$T/bytes.db"
sqlite3 "$T/bytes.db" "UPDATE price SET provider = CAST(X'4F6C64436F80' AS TEXT) WHERE provider = 'OldCo';
    UPDATE price SET provider = CAST(X'54776F526F7780' AS TEXT) WHERE provider = 'TwoRow';" \
    >"$T/bytes.err" 2>&1
check_eq "walk newer: two providers' names made invalid UTF-8 in a copy" "$(cat "$T/bytes.err")" ""
run "$GW" --kb "$T/bytes.db" decide "$T/job.lua" --json
check_rc "walk newer: decide over names that are not UTF-8" 0
jq_all _j1 '[.options[] | select(.id | startswith("rent:")) | "\(.id | sub("\ufffd"; "?"))=\(.cost.unit_price)"] | sort | join(",")' \
    _j2 '.trace[] | select(test("cloud offers read"))'
check_eq "walk newer: the same offers kept, each provider's bytes compared as stored" "$_j1" \
    "rent:AneCo:e:1x shape-h100=1.9,rent:SliceCo:g:1x shape-h100=2.3,rent:SliceCo:h:1x shape-h100=1,rent:TwoRow?:c:1x shape-h100=2.2"
check_eq "walk newer: ... after reading the same 5 offers" "$_j2" \
    "5 cloud offers read, cheapest first; 4 kept (per GPU, count and share of a card, the cheapest of each of the 3 cheapest providers)"
