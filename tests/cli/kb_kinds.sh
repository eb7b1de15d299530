#!/bin/sh
# The shipped KB's evidence (schema version 10): every price row has a kind and says why, every
# converted currency has a rate of 2026, GPUs carry their peer-to-peer flag and, where a source
# says so, when they were discontinued; `kb import` refuses a price kind the KB does not have.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "kb kinds: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
KB=$(fresh_kb kinds)
DATA="$ROOT/kb/data"

# --- a bad kind: one line naming the file, line, column and the six kinds; nothing written ----
printf '%s\n' 'gpu,kind,amount,currency,unit,as_of,source,quality' \
    'rtx-3090,new,1499,USD,card,2020-09,nvidia-newsroom,launch' \
    'rtx-3090,new,1,USD,card,2020-09,nvidia-newsroom,msrp' >"$T/bad-kind.csv"
"$GW" --kb "$KB" kb export >"$T/before.csv"
run "$GW" --kb "$KB" kb import "$T/bad-kind.csv"
check_rc "a price kind the KB does not have: exit 65" 65
check_eq "the refusal is one line naming the file, line, column and the KB's six kinds" "$ERR" \
    "gpuwise kb import: $T/bad-kind.csv:3: quality: 'msrp' is not one of: list, quote, market, from, anecdote, launch"
"$GW" --kb "$KB" kb export >"$T/after.csv"
if cmp -s "$T/before.csv" "$T/after.csv"; then pass "a refused kind leaves the KB as it was"
else fail "a refused kind leaves the KB as it was" "the export changed"; fi

# --- each of the six kinds is taken ---------------------------------------------------------
printf '%s\n' 'gpu,kind,amount,currency,unit,provider,as_of,source,quality' \
    'rtx-3090,new,1001,USD,card,,2026-12-01,nvidia-newsroom,list' \
    'rtx-3090,new,1002,USD,card,,2026-12-01,nvidia-newsroom,quote' \
    'rtx-3090,new,1003,USD,card,,2026-12-01,nvidia-newsroom,market' \
    'rtx-3090,cloud,0.11,USD,hour,Kinds,2026-12-01,nvidia-newsroom,from' \
    'rtx-3090,new,1005,USD,card,,2026-12-01,nvidia-newsroom,anecdote' \
    'rtx-3090,new,1006,USD,card,,2026-12-01,nvidia-newsroom,launch' >"$T/kinds.csv"
run "$GW" --kb "$KB" kb import "$T/kinds.csv"
check_rc "a price of each of the six kinds is imported" 0
check_out "all six rows are added" "prices     6 added"

# --- the shipped rows ---------------------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
    # Every price row names one of the six kinds, and its note ends with that kind's reason.
    run python3 - "$DATA/prices.csv" <<'EOF'
import csv, re, sys
kinds = {"list", "quote", "market", "from", "anecdote", "launch"}
for n, r in enumerate(csv.DictReader(open(sys.argv[1], encoding="utf-8")), 2):
    if r["quality"] not in kinds:
        print(f"line {n}: kind '{r['quality']}'")
    elif not re.search(r"Kind: %s — [^.]+.*\.$" % re.escape(r["quality"]), r["note"]):
        print(f"line {n}: the note does not end with 'Kind: {r['quality']} — reason.'")
EOF
    check_eq "every shipped price row has a kind and says why in its note" "$OUT" ""
    # Every currency a price or an assumed figure is in, and every rate's, has a row of 2026
    # (USD is the unit rates are written in: 1 at any date, so it needs none).
    run python3 - "$DATA" <<'EOF'
import csv, sys
d = sys.argv[1]
rows = lambda f: list(csv.DictReader(open(f"{d}/{f}", encoding="utf-8")))
rates = rows("rates.csv")
used = {r["currency"] for r in rows("prices.csv")} | {r["currency"] for r in rates}
used |= {r["unit"] for r in rows("assumptions.csv") if len(r["unit"]) == 3 and r["unit"].isupper()}
for c in sorted(used - {"USD"}):
    if not any(r["currency"] == c and r["as_of"].startswith("2026") for r in rates):
        print(f"{c}: no rate of 2026")
EOF
    check_eq "every converted currency has an exchange rate of 2026" "$OUT" ""
else
    skip "kb kinds: shipped rows" "no python3"
fi

# ECB cross rates of 2026-04-13: 7.9827 CNY and 1.1684 USD to the euro, 7.9827 / 1.1684 = 6.8322
# CNY per USD, the latest CNY row and so the one a conversion uses.  The RTX 5090's latest new
# price, USD 5,258 (2026-09), is 5,258 x 6.8322 = CNY 35,923.71.
run "$GW" --kb "$KB" --json kb list --where 'id = rtx-5090' --currency CNY --columns id,new_price
check_num "USD converts to CNY at the ECB's rate of 2026-04-13" "$(jqr '.gpus[0].new_price')" \
    35923.71 0.01

# --- peer-to-peer and discontinued, read back through kb show ---------------------------------
run "$GW" --kb "$KB" --json kb show rtx-3090
check_eq "the RTX 3090 has no peer-to-peer over PCIe (GeForce: the driver disables it)" "$(jqr '.p2p')" "false"
run "$GW" --kb "$KB" --json kb show a100-pcie-80gb
check_eq "the A100 PCIe has peer-to-peer (a data-centre card)" "$(jqr '.p2p')" "true"
run "$GW" --kb "$KB" --json kb show mi300x
check_eq "the MI300X's peer-to-peer is unknown (no source read says)" "$(jqr '.p2p')" "null"
run "$GW" --kb "$KB" --json kb show rtx-4090
check_eq "the RTX 4090 was discontinued in 2024-10 (its note cites the report)" "$(jqr '.discontinued')" "2024-10"
run "$GW" --kb "$KB" --json kb show rtx-5090
check_eq "the RTX 5090 has no discontinued date" "$(jqr '.discontinued')" "null"
run "$GW" --kb "$KB" kb list --where 'p2p = 0' --columns id
check_out "the filter reads p2p: the RTX 4090 D is a GeForce card" "rtx-4090-d"
check_out_not "the filter reads p2p: the L40S is not one" "l40s"
