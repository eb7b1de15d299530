#!/bin/sh
# tests/cli/compare.sh — `gpuwise kb compare` in the terminal fits 100 columns whatever the number
# of cards, and has rows for the lowest new, used and on-demand cloud price of each card, with
# their kind and date (tests/fixtures/offers/compare-prices.csv).
. "$ROOT/tests/cli/lib.sh"

# longest LINES: the most characters on one line of stdin (UTF-8 characters, not bytes)
longest() { LC_ALL=C.UTF-8 awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }'; }

# ---- the width -------------------------------------------------------------------------------
SIX="rtx-4090 a100-sxm4-80gb h100-sxm5 rtx-3090 l40s mi300x"
# shellcheck disable=SC2086   # six names, split on purpose
run "$GW" kb compare $SIX
check_rc "six cards: exit 0" 0
check_eq "six cards: no line over 100 columns" "$([ "$(printf '%s\n' "$OUT" | longest)" -le 100 ] && echo yes)" yes
# side by side they were 549 columns (the export rules run to 230 characters a card): now three
# cards to a block, so two blocks, each with the row labels again
check_eq "six cards: in two blocks" "$(printf '%s\n' "$OUT" | grep -c '^Vendor ')" 2
for name in "GeForce RTX 4090" "NVIDIA A100 SXM4 80GB" "NVIDIA H100 SXM5 80GB" "GeForce RTX 3090" \
    "NVIDIA L40S" "AMD Instinct MI300X"; do
    check_out "six cards: $name has its column" "$name"
done
case "$OUT" in
    *"NVIDIA H100 SXM5 80GB"*"GeForce RTX 3090"*) pass "six cards: the blocks keep the order given" ;;
    *) fail "six cards: the blocks keep the order given" "$(printf '%s\n' "$OUT" | head -2)" ;;
esac
check_out "six cards: a long cell wraps at a space" "BIS update of"
run "$GW" kb compare rtx-3090 rtx-4090
check_eq "two cards: no line over 100 columns" "$([ "$(printf '%s\n' "$OUT" | longest)" -le 100 ] && echo yes)" yes
check_eq "two cards: one block" "$(printf '%s\n' "$OUT" | grep -c '^Vendor ')" 1
run "$GW" kb compare h100
check_eq "a family of three: one block under 100 columns" \
    "$(printf '%s\n' "$OUT" | grep -c '^Vendor ') $([ "$(printf '%s\n' "$OUT" | longest)" -le 100 ] && echo yes)" "1 yes"

# ---- the price rows ----------------------------------------------------------------------------
KB=$(fresh_kb compare)
sqlite3 "$KB" "DELETE FROM price" || fail "compare: a KB without prices" "sqlite3 failed"
run "$GW" --kb "$KB" kb import "$FIX/offers/compare-prices.csv"
check_rc "compare: the fixture's prices import" 0
run "$GW" --kb "$KB" --json kb compare rtx-3090 rtx-4090
row() { jqr ".rows[] | select(.field == \"$1\") | [.values, .texts, .marks, .kinds, .as_of] | map(map(tostring) | join(\"|\")) | join(\" / \")"; }
# new: the 3090's 1,100 quote of 2026-11 is below its 1,200 market price; its 500 launch price
# is the launch row's business, not this one's; the 4090 has none, so nothing is marked
check_eq "new price: the lowest, its kind and date; a launch price left out" "$(row new_price)" \
    "1100|null / \$1,100 (quote, 2026-11)|null / false|false / quote|null / 2026-11|null"
# used: CNY 4,000 / 6.8322 (CNY per USD, kb/data/rates.csv) = USD 585.46, below the 4090's 1,300
check_eq "used price: converted to USD, the lower marked" "$(row used_price)" \
    "585.462954831533|1300 / \$585 (anecdote, 2026-11)|\$1,300 (market, 2026-11) / true|false / anecdote|market / 2026-11|2026-11"
# cloud: on demand 0.40 an hour; the 0.20 spot price is left out, and an eighth of a card at
# 0.06 is 0.06 / 0.125 = 0.48 a whole GPU-hour, above 0.40
check_eq "cloud: on demand, per whole GPU-hour" "$(row cloud_price_per_gpu_hour)" \
    "null|0.4 / null|\$0.40/h (list, 2026-11) / false|false / null|list / null|2026-11"
check_eq "price rows cite their source" \
    "$(jqr '[.sources[] | .id] | index("compare-fixture") != null')" true
run "$GW" --kb "$KB" kb compare rtx-3090 rtx-4090
check_out "text: the new price row" "New price           \$1,100 (quote, 2026-11)"
check_out "text: the cloud row" "Cloud per GPU-hour  -                         \$0.40/h (list, 2026-11)"
check_out "text: the best mark stays with its figure" "2026-11) *"
run "$GW" --kb "$KB" kb compare rtx-3090 rtx-4090 --format md
check_out "md: the price rows, the lower marked" "| Used price | **\$585 (anecdote, 2026-11)** ✓ | \$1,300 (market, 2026-11) |"

# A counted name compares one card and says the count was ignored (never another card, never
# silently): "4090x2" is 2 x rtx-4090, "3090 x4" 4 x rtx-3090.
run "$GW" --kb "$KB" kb compare 4090x2 "3090 x4"
check_rc "counted names: exit 0" 0
check_out "counted names: the two cards, as columns" "GeForce RTX 4090"
check_err "counted names: 4090x2's count is named as ignored" \
    "'4090x2' is 2 x rtx-4090; comparing one rtx-4090 (the count is ignored)"
check_err "counted names: 3090 x4's too" "'3090 x4' is 4 x rtx-3090; comparing one rtx-3090"
