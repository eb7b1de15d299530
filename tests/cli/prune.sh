#!/bin/sh
# tests/cli/prune.sh — the robustness analysis draws only the options its lower bound leaves
# able to win a draw (decide_robust.c: mark_drawn), and the sensitivity costs again only the
# options its lower bound leaves able to win under a scaled input (decide_whatif.c:
# winner_with): the report's Markdown, `decide`'s table and its charts, `decide --json` (all but
# the trace, which counts the options drawn and costed) are byte for byte those of drawing and
# costing every option (GPUWISE_DECIDE_FULL=1), on every example, on the shipped and a grown KB.
. "$ROOT/tests/cli/lib.sh"
# Today is pinned to 2026-12-01, as in decide.sh: the prices' ages, and so what is held back,
# stay fixed.
export SOURCE_DATE_EPOCH=1796083200

# same_both NAME KB WORKLOAD: the three outputs with the bounds and without them are identical;
# sets DRAWN and COMPARED from the bounded run's trace ("robustness: N of M options drawn"), and
# COSTED and COSTINGS from its "sensitivity: N of M option costings".
same_both() {
    name=$1 kb=$2 wl=$3
    for full in 0 1; do
        GPUWISE_DECIDE_FULL=$full "$GW" --kb "$kb" decide "$wl" --json >"$T/d$full.json" 2>/dev/null
        jq 'del(.trace)' "$T/d$full.json" >"$T/t$full.json"
        GPUWISE_DECIDE_FULL=$full "$GW" --kb "$kb" decide "$wl" >"$T/x$full.txt" 2>/dev/null
        mkdir -p "$T/m$full"   # one name in both: the Markdown names its chart's file
        GPUWISE_DECIDE_FULL=$full "$GW" --kb "$kb" report "$wl" --format md \
            -o "$T/m$full/r.md" >/dev/null 2>&1
    done
    if [ -s "$T/t0.json" ] && cmp -s "$T/t0.json" "$T/t1.json" && [ -s "$T/x0.txt" ] &&
        cmp -s "$T/x0.txt" "$T/x1.txt" && [ -s "$T/m0/r.md" ] && diff -r "$T/m0" "$T/m1" >/dev/null; then
        pass "prune $name: JSON, table and report as with every option drawn and costed"
    else
        fail "prune $name: the outputs differ from drawing every option"
    fi
    line=$(jq -r '.trace[] | select(startswith("robustness: ") and contains("options drawn"))' \
        "$T/d0.json")
    DRAWN=$(echo "$line" | sed -n 's/^robustness: \([0-9]*\) of .*/\1/p')
    COMPARED=$(echo "$line" | sed -n 's/^robustness: [0-9]* of \([0-9]*\) .*/\1/p')
    full_line=$(jq -r '.trace[] | select(startswith("robustness: ") and contains("options drawn"))' \
        "$T/d1.json")
    check_eq "prune $name: GPUWISE_DECIDE_FULL=1 draws all $COMPARED" \
        "$(echo "$full_line" | sed -n 's/^robustness: \([0-9]*\) of .*/\1/p')" "$COMPARED"
    COSTED=$(jq -r '.trace[] | select(startswith("sensitivity: "))' "$T/d0.json" |
        sed -n 's/^sensitivity: \([0-9]*\) of \([0-9]*\) option costings.*/\1/p')
    COSTINGS=$(jq -r '.trace[] | select(startswith("sensitivity: "))' "$T/d0.json" |
        sed -n 's/^sensitivity: \([0-9]*\) of \([0-9]*\) option costings.*/\2/p')
    full_costed=$(jq -r '.trace[] | select(startswith("sensitivity: "))' "$T/d1.json" |
        sed -n 's/^sensitivity: \([0-9]*\) of \([0-9]*\) option costings.*/\1 \2/p')
    if [ -z "$COSTINGS" ]; then   # nothing recommended (llm-pretrain): no what-if in either
        check_eq "prune $name: nothing recommended, no option costings in either run" \
            "$full_costed" ""
    else
        check_eq "prune $name: GPUWISE_DECIDE_FULL=1 costs every option at every scaled input" \
            "$full_costed" "$COSTINGS $COSTINGS"
    fi
}

KB=$(fresh_kb prune)
for wl in "$ROOT"/examples/*.lua; do
    same_both "$(basename "$wl" .lua)" "$KB" "$wl"
done

# A grown KB: 3,000 seeded offers (tests/bench/gen_offers.awk, as make bench grows its KB) of
# the KB's first 40 GPUs, 40 providers, 1 to 8 cards, dated 2026-01 to 2026-09.
GPUS=$(sqlite3 "$KB" "SELECT group_concat(id) FROM (SELECT id FROM gpu ORDER BY id LIMIT 40)")
awk -v n=3000 -v seed=42 -v gpus="$GPUS" -f "$ROOT/tests/bench/gen_offers.awk" >"$T/offers.csv"
run "$GW" --kb "$KB" kb import "$T/offers.csv"
check_rc "prune: 3,000 offers imported" 0
for wl in "$ROOT"/examples/*.lua; do   # vision-team last: DRAWN and COSTED below are its
    [ "$(basename "$wl")" = vision-team.lua ] || same_both "$(basename "$wl" .lua), grown KB" "$KB" "$wl"
done
same_both "vision-team, grown KB" "$KB" "$ROOT/examples/vision-team.lua"
# Bench offers cost 0.2 to 4.2 per card-hour, a spread of 21x, while one GPU's speed band is
# far narrower: most options' cheapest corner is above the dearest corner of the best, so far
# fewer are drawn than compared (the count itself follows the seeded data; what is asserted is
# that the bound left some out, and that the answers above did not move).
if [ -n "$DRAWN" ] && [ -n "$COMPARED" ] && [ "$DRAWN" -lt "$COMPARED" ] && [ "$DRAWN" -ge 1 ]; then
    pass "prune grown KB: $DRAWN of $COMPARED options drawn"
else
    fail "prune grown KB: drawn '$DRAWN' of '$COMPARED'"
fi
# The sensitivity's bound (decide_whatif.c): vision-team rents from every offer (rent:*).  At
# each scaled input only the options the input moves are costed again, the rentals under the
# rental price only while their cost at the plan's figures times the factor is not above the
# best found so far; the others (the purchases under the rental price, every rental under the
# electricity, purchase and host prices and under the recommendation's own price and speed) keep
# their cost at the plan's figures, costed once.  With 3,000 offers most rentals are far dearer
# than the best (the spread above), so far fewer costings are made than without the bound.
if [ -n "$COSTED" ] && [ -n "$COSTINGS" ] && [ "$COSTED" -lt "$COSTINGS" ] && [ "$COSTED" -ge 1 ]; then
    pass "prune grown KB: $COSTED of $COSTINGS option costings in the sensitivity"
else
    fail "prune grown KB: costed '$COSTED' of '$COSTINGS'"
fi
