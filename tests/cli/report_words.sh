#!/bin/sh
# tests/cli/report_words.sh — the report's statements that readers checked against its own figures:
# price dates after the report's date, the old-prices count, the break-even hours against the
# plan's use, the re-quote list, one status per offer, and the wording of money and serving.
. "$ROOT/tests/cli/lib.sh"
EX="$ROOT/examples"
# 2025-11-30: earlier than many of the KB's prices (RunPod's of 2026-09-25, TensorDock's L40S of
# 2026-06-15), so those are dated after the report's date.
export SOURCE_DATE_EPOCH=1764460800

run "$GW" report "$EX/grant-lab.lua" -o "$T/grant.md"
check_rc "words: grant-lab report, exit 0" 0
G=$(cat "$T/grant.md" 2>/dev/null)
# A price dated after the report's date is said so, never a negative age.
check_eq "words: no negative price age" "$(grep -c 'days old' "$T/grant.md" | xargs) $(grep -c '(-[0-9]* days old)' "$T/grant.md" | xargs)" "0 0"
case "$G" in *"- rent NVIDIA L40S (TensorDock, L40S): from price dated after this report's date (2026-06-15): not current"*) pass "words: a later-dated price is named as such" ;; *) fail "words: a later-dated price is named as such" "missing" ;; esac
# No old price at all: no "0 of the 17 ... (the oldest: , )" sentence.
check_eq "words: no empty oldest-price sentence" "$(grep -c 'the oldest: ,' "$T/grant.md")" 0
check_eq "words: no count of zero old prices" "$(grep -c '\*\*Old prices.\*\* 0 of' "$T/grant.md")" 0
# The count counts what it claims: the feasible options whose price is dated after 2025-11-30,
# as decide --json holds them (price_age_days < 0).
SOURCE_DATE_EPOCH=1764460800 "$GW" decide "$EX/grant-lab.lua" --json >"$T/grant.json" 2>/dev/null
_after=$(jq '[.options[] | select(.feasible and .cost.price_age_days < 0)] | length' "$T/grant.json")
_feasible=$(jq '[.options[] | select(.feasible)] | length' "$T/grant.json")
case "$G" in *"**Old prices.** $_after of the $_feasible feasible options' prices are dated after this report's date (2025-11-30): not current"*) pass "words: the later-dated count is the options' own ($_after of $_feasible)" ;; *) fail "words: the later-dated count" "not $_after of $_feasible" ;; esac

# Break-even against the plan's use: 200 card-hours a month on one card is 200 / 30 = 6.7 h a
# day, not the 8 h cap; the sensitivity's hours-per-day flip is in the same hours: the break-even
# 7.7 h/day (6.67 h x 1.16 = 7.7, the table's +16%).
case "$G" in *"would need 7.7 h of use a day to rank above renting (7.7 h/day on cost alone); the plan uses it 6.7 h a day (200 card-hours a month)."*) pass "words: break-even against the plan's use" ;; *) fail "words: break-even against the plan's use" "missing" ;; esac
case "$G" in *"| hours per day | 0.0% | +16% (7.7 h/day): new 1x NVIDIA RTX 6000 Ada Generation wins |"*) pass "words: the sensitivity's hours flip equals the break-even" ;; *) fail "words: the sensitivity's hours flip equals the break-even" "missing" ;; esac
check_eq "words: break-even and sensitivity in one figure" \
    "$(jq -r '.break_even.hours_per_day * 10 | round' "$T/grant.json")" \
    "$(jq -r '.sensitivity.parameters[] | select(.parameter == "hours_per_day") | .flip_value * 10 | round' "$T/grant.json")"

# Every option the summary sends to the re-quote list is in it (big-model: an article's price).
run "$GW" report "$EX/big-model.lua" -o "$T/big.md"
check_rc "words: big-model report, exit 0" 0
_held=$(sed -n 's/^\*\*Held back, yet cheaper at its price:\*\* rent 1x \(.*\) (\(.*\); anecdotal price) would.*/rent \1 (\2)/p' "$T/big.md")
check_eq "words: the held-back option is named" "$_held" "rent NVIDIA A100 SXM4 40GB (Unnamed CN platform, A100-SXM4 (40GB) single card)"
check_eq "words: the held-back option is in the re-quote list" "$(grep -c "^- $_held: anecdote price" "$T/big.md")" 1

# One status per offer: Spheron's spot H100 SXM is named as the spot offer where it is not
# considered, apart from its on-demand offer of the same name that is.
run "$GW" report "$EX/lora-finetune.lua" -o "$T/lora.md"
case "$(cat "$T/lora.md")" in *"NVIDIA H100 SXM5 80GB (1x, Spheron, H100 SXM, spot)"*) pass "words: the spot offer says it is the spot one" ;; *) fail "words: the spot offer says it is the spot one" "missing" ;; esac
