#!/bin/sh
# tests/cli/decide.sh — `gpuwise decide` on the shipped examples and on bad workload files.
. "$ROOT/tests/cli/lib.sh"
EX="$ROOT/examples"
FX="$FIX/decide"
# Today is pinned to 2026-12-01: which prices are older than a workload's price_max_age_days, so
# stale and held back (issue 26), is then fixed, and the figures below stay those worked out.
export SOURCE_DATE_EPOCH=1796083200

# The vision team (tight budget, data parallel, small model) as shipped: every purchase price the
# KB has for it is older than the workload's 180 days on 2026-12-01 (the used RTX 3090s' articles
# are of 2026-01, 334 days), so stale: shown, ranked after every current option, never
# recommended (issue 26).  The cheapest current option per image is RunPod's RTX 4090 on its
# Community Cloud, USD 0.34/h (2026-09-25) x 6.8322 CNY per USD (the ECB's rate of 2026-04-13) =
# CNY 2.322948/h at the 4090's measured 1,301 images/s: 2.322948 / (1,301 x 3,600) x 1e6 =
# CNY 0.49597 per 1M images.
run "$GW" decide "$EX/vision-team.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '.options[0].cost.per_unit' \
    _j3 '.options[0].rate_as_of' \
    _j4 '.options[] | select(.id == "buy-used:4x rtx-3090") | "\(.price_kind) \(.price_stale) \(.held_back)"' \
    _j5 '.options[] | select(.id == "buy-used:4x rtx-3090") | .held_back_because' \
    _j6 '[.options[] | select(.feasible and (.held_back | not)) | select(.acquisition != "rent")] | length' \
    _j7 '.price_age.requote[0] | "\(.label) \(.price_kind) \(.as_of) \(.age_days)"'
check_eq "decide vision-team: no stale price is recommended: RunPod's RTX 4090" \
    "$_j1" "rent:RunPod:RTX 4090 (Community Cloud):1x rtx-4090"
check_num "decide vision-team: CNY 0.49597 per 1M images by hand" "$_j2" 0.49597 0.00001
check_eq "decide vision-team: the conversion is dated by the yuan's rate, not the USD row" \
    "$_j3" "2026-04-13"
check_eq "decide vision-team: the used 3090s' article price is stale, held back" \
    "$_j4" "anecdote true true"
check_eq "decide vision-team: why" "$_j5" \
    "its price is of 2026-01, 334 days old, older than the workload's price_max_age_days (180): re-quote it (stale_ok = true only ranks it at this price)"
check_eq "decide vision-team: no purchase may be recommended" "$_j6" "0"
check_eq "decide vision-team: the first price to re-quote is the used 3090s'" \
    "$_j7" "used GeForce RTX 3090 anecdote 2026-01 334"

# With stale_ok = true the stale prices may be recommended, and four used RTX 3090 win on cost
# per image; the checks below follow them.  By hand, from the shipped KB: cards 4 x CNY 5,999.5
# (median of the two used prices, per card) = 23,998 + host = CNY 32,975.51 up front, the host
# being the KB's four-card workstation (issue 27: hosts sized to their cards; it was the one-card
# PC's CNY 8,000), USD 1,314 x 6.8322 = CNY 8,977.51; power 4 x 350 + the workstation's own
# 400 W = 1,800 W, 1.8 kW x 8 h x 30 days x CNY 1 = CNY 432 a month (was 384 with 200 W).
# Consumer cards carry no support contract by default, so no support line is added.
VT="$T/vision-team-stale-ok.lua"
sed 's/^return {/return { stale_ok = true,/' "$EX/vision-team.lua" >"$VT"
run "$GW" decide "$VT" --json
jq_all _j1 '.recommendation.option' \
    _j2 '.options[0].cost.upfront' \
    _j3 '.options[0].cost.electricity_per_month' \
    _j4 '.options[0].throughput.value' \
    _j5 '.options[0].throughput | "\(.low * 100 | round) \(.high * 100 | round) \(.basis)"' \
    _j6 '.options[0].rank' \
    _j7 '.options[0] | [has("id","gpu","count","acquisition","provider","feasible","vram_needed_gb","throughput","time_to_finish_hours","power_w","cost","verdicts","rank")] | all' \
    _j8 '.options[0].cost | [has("upfront","electricity_per_month","total","per_hour","per_unit","currency")] | all' \
    _j9 '[.options[] | select(.id == "buy-new:1x a100-pcie-80gb") | .feasible][0]' \
    _j10 '[.options[] | select(.id == "buy-new:1x a100-pcie-80gb") | .verdicts[] | select(.rule == "budget") | .because][0]' \
    _j11 '[.options[0].verdicts[] | select(.checklist == "used-card")] | length' \
    _j12 '.break_even.buy_option' \
    _j13 '.sensitivity.moves_most | test("^(electricity_price|hours_per_day|purchase_price|rental_price)$")' \
    _j14 '.recommendation.because | length' \
    _j15 '.break_even.hours_per_day' \
    _j16 '.sensitivity.parameters[] | select(.parameter == "hours_per_day") | .flip_value' \
    _j17 '.break_even.hours_per_day' \
    _j18 '[.options[] | select(.id == "rent:Unnamed CN platform:A100-SXM4 (40GB) single card:1x a100-sxm4-40gb") | .throughput.how][0]' \
    _j19 '[.options[] | select(.id == "rent:Unnamed CN platform:A100-80GB (MIG enabled):1x a100-sxm4-80gb") | "\(.throughput.value) \(.throughput.how)"][0]' \
    _j20 '.options[0].throughput.how' \
    _j21 '.break_even.rent_option'
check_rc "decide vision-team: exit 0" 0
check_eq "decide vision-team: four used RTX 3090 win" "$_j1" "buy-used:4x rtx-3090"
check_num "decide vision-team: up front CNY 32,975.51" "$_j2" 32975.51 0.5
check_num "decide vision-team: electricity CNY 432/month" "$_j3" 432 0.001
# Four cards are measured at their own count (issue 26): the article's 3,100 images/s on four
# RTX 3090 (its only result at that count, so the most trusted kind present there) is used as
# measured, no longer the 3,457.6 scaled from Lambda's one card (905 x 4 x 0.955138); one result,
# an article's, so its band is the KB's reproducibility (decide_speed.sh: one GPU and count
# measured twice, 1,582 and 2,350, the 80th percentile of their errors 48.546%): 3,100 / 1.48546
# = 2,086.89 up to, not 3,100 x 1.48546 = 4,604.93, but linear scaling of the one card's measured
# 905: 4 x 905 = 3,620.
check_num "decide vision-team: 4x 3090 measured on four cards" \
    "$_j4" 3100 0.05
check_eq "decide vision-team: one measured result, the KB's reproducibility as its band" \
    "$_j5" "208689 362000 measured"
check_eq "decide vision-team: rank 1" "$_j6" "1"
# The trace --json prints: every step, the rules among them (14 shipped rules, 100 options: 1, 2,
# 4, 8 and 16 cards of each of the six candidates to buy (the A100 80GB, 3090 and 4090, each new
# and used): 30, and 70 of the KB's on-demand cloud offers kept, the ones tests/cli/rent_rule.py
# lists when it applies the rule to every offer of kb/data/prices.csv (checked below); 58 before
# the KB's rental shapes, issue 27: + Lambda's 2x and 4x H100 SXM, 2x and 4x B200 and 4x A6000,
# CoreWeave's 8-GPU H200 and A100, RunPod's pods of 2, 4 and 8 H100 SXM and H200 (13), - CoreWeave's
# HGX H100, no longer among the three cheapest providers of 8 H100 (RunPod's pod, Lambda, AWS's
# Capacity Block, current with stale_ok) = 70).  The rules judge 98 of them: AWS's two 8-GPU
# Capacity Blocks (CNY 10.80 and 10.06 per 1M images) are set aside, their lowest possible cost
# (their favourable corner x 0.40, the shipped rules' least factor: CNY 4.32 and 4.02) being above
# the best's highest, CNY 3.09 (tests/cli/reach.sh checks the tables are those of judging all).
check_eq "decide vision-team: the trace names the rules' step" \
    "$(jqr '.trace[] | select(test("rules gave"))' | sed 's/gave [0-9]* verdicts/gave N verdicts/')" \
    "14 rules gave N verdicts over 98 options"
check_eq "decide vision-team: the issue's option fields" \
    "$_j7" "true"
check_eq "decide vision-team: cost fields" \
    "$_j8" "true"
# One A100 80GB bought alone is the PCIe card (CNY 100,000 in the article) and a CNY 8,000 host.
check_eq "decide vision-team: the A100 purchase is over budget" \
    "$_j9" "false"
check_eq "decide vision-team: the budget rule says why" \
    "$_j10" \
    "costs CNY 108,000 up front; the budget is CNY 40,000"
check_eq "decide vision-team: used cards carry the inspection checklist" \
    "$_j11" "1"
check_eq "decide vision-team: break-even against a rental" "$_j12" "buy-used:4x rtx-3090"
check_eq "decide vision-team: sensitivity names what moves most" \
    "$_j13" "true"
check_eq "decide vision-team: three reasons" "$_j14" "3"
# One comparison for the break-even and the sensitivity (issue 13, item 5): both compare cost per
# unit x the rules' adjustment.  By hand (shipped KB): the used 3090s' fixed cost 32,975.51 -
# 7,199.4 resale = 25,776.11; their electricity 1.8 kW x CNY 1 = 1.80 an hour.  The best rental per image
# is RunPod's RTX 4090 on its Community Cloud, USD 0.34/h (2026-09-25) x 6.8322 = CNY 2.322948/h,
# at the 4090's measured 1,301 images/s (Lambda): the rent for the 3090s' hour of work is
# 2.322948 x 3,100 / 1,301 = 5.53515, over the rules' 0.97 (the rental's 1.00) = 5.70634;
# h = 25,776.11 / (1,080 x (5.70634 - 1.80)) = 6.1099 h/day, the hours a day at which the
# sensitivity table says the rental wins.  (Issue 26 moved it from 4.496: the 3090s' speed is
# the article's measured 3,100 on four cards, not the 3,457.6 scaled from one, and the yuan's
# rate is the ECB's of 2026-04-13; issue 27 from 5.5917: the workstation's price and draw.)
check_num "decide vision-team: break-even hours = the sensitivity's flip point" \
    "$_j15" \
    "$_j16" 0.001
check_num "decide vision-team: break-even 6.11 h/day by hand" "$_j17" 6.1099 0.001
# ... and says its band (issue 26): 1,582 x sqrt(312/312 x 1555/2039) = 1,381.54, within the
# specification scaling's leave-one-out mean error e either way (the band checks below).
check_eq "decide vision-team: an SXM4 A100 40GB is scaled from the SXM4 A100 80GB" \
    "${_j18%%; band *}" \
    "scaled from NVIDIA A100 SXM4 80GB (measured 1582) by sqrt(tensor 312/312 TFLOPS x bandwidth 1555/2039 GB/s)"
# Evidence is weighed (issue 13, item 7): the A100 80GB's one-card figure is Lambda's benchmark
# (1,582), not the median with the blog's 2,350 ((1,582 + 2,350) / 2 = 1,966); the four 3090s'
# only result at that count is the article's, used as measured and said to be an article's.
# (Each how ends with its band since one result gets the KB's reproducibility: cut there.)
check_eq "decide vision-team: a benchmark outranks an article at one count" \
    "${_j19%%; band *}" \
    "1582 measured on one NVIDIA A100 SXM4 80GB (1582); 1 result from a less trusted source set aside"
check_eq "decide vision-team: the four cards' own result is used, its kind said" \
    "${_j20%%; band *}" "measured on 4x GeForce RTX 3090 (3100, from an article)"
check_eq "decide vision-team: the break-even's rental is the cheapest per image" \
    "$_j21" "rent:RunPod:RTX 4090 (Community Cloud):1x rtx-4090"
# rent:* keeps, per GPU and count, the cheapest offer of each of the 3 cheapest providers: the
# same options as the rule applied plainly to every offer of the KB's prices (rent_rule.py).
jqr '[.options[] | select(.acquisition == "rent") | .id] | sort | .[]' >"$T/vt-rent.got"
# (rates.csv lists each currency's rates oldest first: the last one given, the latest, is used)
python3 "$ROOT/tests/cli/rent_rule.py" "$ROOT/kb/data/prices.csv" --anecdotal-ok --stale-ok \
    --today=2026-12-01 $(awk -F, 'NR > 1 { printf "%s=%s ", $1, $2 }' "$ROOT/kb/data/rates.csv") |
    sort >"$T/vt-rent.want"
check_eq "decide vision-team: the rent options are the rule's over kb/data/prices.csv" \
    "$(cat "$T/vt-rent.got")" "$(cat "$T/vt-rent.want")"
check_eq "decide vision-team: 70 rent options" "$(wc -l <"$T/vt-rent.want" | tr -d ' ')" "70"
check_eq "decide vision-team: the break-even says what it compares" \
    "$(jqr '.break_even.compares')" "cost per unit of work x each option's rule adjustment, the figure the options are ranked by"
# The ranked figure and the rules' adjustment of each option: the used 3090s' verdicts sum to
# x0.97 (the table's first row), so they rank on 0.359 x 0.97 = CNY 0.348 per 1M images.
check_eq "decide vision-team: the rules' adjustment is shown" "$(jqr '.options[0].rule_adjustment_text')" "0.97"
check_num "decide vision-team: ranked by cost per unit x adjustment" \
    "$(jqr '.options[0].score / .options[0].cost.per_unit')" 0.97 1e-9
# ... among the options that may be recommended; anecdotal prices rank after all of them.
check_eq "decide vision-team: ranks follow the ranked figure" \
    "$(jqr '[.options[] | select(.feasible and (.held_back | not)) | .score] | . == sort')" "true"
check_eq "decide vision-team: anecdotal prices rank last" \
    "$(jqr '[.options[] | select(.feasible) | .held_back] | . == sort')" "true"
# Nothing silent (issue 13, item 9): with "rent:*" every GPU of the KB is a candidate to rent,
# and each is an option or listed as not considered with its reason (a GPU named only through
# "rent:*" that has no cloud offer: "no cloud offer", not "no price").
check_eq "decide vision-team: every KB GPU is an option or not considered" \
    "$(jqr '([.options[].gpu] + [.not_considered[].gpu]) | unique | length')" \
    "$(jqr '.trace[] | select(startswith("KB: ")) | capture("KB: (?<n>[0-9]+) GPUs").n')"
check_eq "decide vision-team: not considered, grouped with a count" \
    "$(jqr '[.not_considered_groups[] | select(.reason == "no cloud offer (a candidate to rent only)") | .count][0] == ([.not_considered[] | select(.reason == "no cloud offer (a candidate to rent only)")] | length) and (.not_considered | length) > 40')" "true"
# Break-even past 24 h a day is "never" (issue 13: "from 24.8 h/day"): the short project bought
# anywhere (its region line removed) and with stale_ok (every purchase price it may use is older
# than 180 days), whose best purchase is new 1x RTX 3090 at its market price of 2025-08-06 (an
# Amazon listing, which stands before the 2020-09 launch MSRP), USD 1,499.99 x 6.8322 =
# 10,248.23, against RunPod's RTX 4090 at USD 0.34 x 6.8322 = CNY 2.322948/h: fixed 10,248.23 +
# 8,000 host - 0.8 x 10,248.23 resale = 10,049.65; electricity 0.55 kW x 0.60 = 0.33 an hour;
# the rent for the 3090's hour of work 2.322948 x 905 / 1,301 = 1.6159 (both x1.00); h =
# 10,049.65 / (30 x 2 x (1.6159 - 0.33)) = 130.3 h/day: never.
sed '/region = "CN"/d; s/^return {/return { stale_ok = true,/' "$EX/short-project.lua" >"$T/short-anywhere.lua"
run "$GW" decide "$T/short-anywhere.lua" --json
jq_all _j1 '[.break_even.buy_option, .break_even.hours_per_day, .break_even.hours_per_day_text, .break_even.buying_pays_within_a_day] | map(tostring) | join(" ")' \
    _j2 '.break_even.rent_equivalent_per_hour'
check_eq "decide short-project anywhere: break-even past a day is never" \
    "$_j1" \
    "buy-new:1x rtx-3090 null never false"
check_num "decide short-project anywhere: the rent for the 3090's hour of work" \
    "$_j2" 1.6159 0.0001
# Bought in CN, no purchase may be recommended: the KB's CN prices of the cards are articles'
# (anecdotal_ok is off) and stale, and the rest are another market's; so there is no break-even.
run "$GW" decide "$EX/short-project.lua" --json
check_eq "decide short-project: every purchase held back in CN, so no break-even" \
    "$(jqr '[([.options[] | select(.acquisition != "rent") | .held_back] | all), .break_even.buy_option] | map(tostring) | join(" ")')" \
    "true null"

run "$GW" decide "$EX/vision-team.lua"
check_rc "decide vision-team (table): exit 0" 0
check_out "decide vision-team (table): recommendation line" \
    "Recommendation: rent 1x GeForce RTX 4090 (RunPod, RTX 4090 (Community Cloud))"
check_out "decide vision-team (table): header" "rank option"
# Issue 14 item 3: the text table dates every price (an asterisk: older than the 180 days of
# price_max_age_days; the used 3090s' article is of 2026-01, 334 days before 2026-12-01) and shows
# the cash committed, the budget's figure.  Rank 32: the 'from' rentals that lose at the high end
# of their range are held back too, and those dearer per image than the 3090s (0.389 ranked)
# now rank after them; since the KB's rental shapes (issue 27) ten more shapes rank before them
# (RunPod's pods of 2, 4 and 8 H100 and of 2 and 4 H200, Lambda's 2x and 4x H100, 2x B200 and
# 4x A6000, CoreWeave's 8x A100): 22 + 10.  (0.389 was before hosts were sized to their cards:
# 4 x 5,999.5 + the KB's workstation, USD 1,314 x 6.8322 = CNY 8,977.51, commits 32,975.51.)  Its
# fit is 10 GB needed of the 26 an RTX 3090 holds as its driver reports it: 24,576 MiB x 1,048,576
# = 25.77e9 bytes (24, its nominal figure, before issue 28).
check_out "decide vision-team (table): price dates and the cash committed" "price of       committed"
check_out "decide vision-team (table): the used 3090s' price is dated and old, their rank bracketed" \
    "(32) used 4x rtx-3090                             10/26          3100 measured 2026-01*          32,976"

# The big model needs 40.6 GB per replica: (1.5e9 x 16 B + 12 GB) x 1.1 + 1 GB.
run "$GW" decide "$EX/big-model.lua" --json
jq_all _j1 '.options[0].vram_needed_gb' \
    _j2 '[.options[] | select(.memory_gb <= 24 and .feasible)] | length' \
    _j3 '[.options[] | select(.id == "buy-used:1x rtx-3090") | .excluded_because][0]' \
    _j4 '.recommendation.details.memory_gb' \
    _j5 '.recommendation.option' \
    _j6 '.recommendation.details.cost.total_text' \
    _j7 '[.options[] | select(.gpu == "mi300x")][0] | "\(.feasible) \(.excluded_because)"' \
    _j8 '[.options[] | select(.id == "rent:Unnamed CN platform:A100-80GB (MIG enabled):1x a100-sxm4-80gb") | "\(.label)|\(.offer_quality)|\(.held_back)|\(.offer_note | test("whole card"))"][0]'
check_rc "decide big-model: exit 0" 0
check_num "decide big-model: 40.6 GB per replica" "$_j1" 40.6 0.001
check_eq "decide big-model: no 24 GB card is feasible" \
    "$_j2" "0"
# ... of the 24,576 MiB x 1,048,576 = 25.77e9 bytes an RTX 3090's driver reports (nominally 24 GB)
check_eq "decide big-model: 24 GB cards fall out for memory" \
    "$_j3" \
    "needs 40.6 GB per replica; GeForce RTX 3090 holds 25.8 GB (24 GB nominal)"
check_eq "decide big-model: the winner has 96 GB a GPU" "$_j4" "96"
# The blog's CNY 4.80/h A100 80GB (quality anecdote) does not win: it is an option, labelled,
# ranked after every other feasible one.  Nor does Spheron's GB200 Superchip, a 'from' price of
# 2026-03-17, 259 days old on 2026-12-01: stale; nor TensorDock's L40S, a 'from' figure (the
# lowest rate of one listing, kb/data/prices.csv) whose high end loses.  The winner is Lambda's
# GH200, a list price of CNY 15.645738/h (USD 2.29 x 6.8322); one GH200 does the work of 2.49495
# A100s (scaled), so 900 A100-hours take 360.73 h: 15.645738 x 360.73 = CNY 5,644.  An AMD MI300X
# is cheaper per hour but no speed of an AMD part can be derived from hours on an NVIDIA A100.
check_eq "decide big-model: Lambda's GH200 wins, not the blog's price or a 'from' one" \
    "$_j5" "rent:Lambda:1x GH200:1x gh200"
check_eq "decide big-model: the winner's total" "$_j6" "CNY 5,644"
check_eq "decide big-model: an AMD part is not scaled from an NVIDIA card's hours" \
    "$_j7" \
    "false no measured or comparable speed result for AMD Instinct MI300X: the work is given in hours on NVIDIA A100 SXM4 80GB, and the speed of a GPU by AMD cannot be scaled from it"
check_eq "decide big-model: the blog's offer is labelled, held back, with its caveat" \
    "$_j8" \
    "rent 1x NVIDIA A100 SXM4 80GB (Unnamed CN platform, A100-80GB (MIG enabled); anecdotal price)|anecdote|true|true"
# With anecdotal_ok = true the blog's offer is accepted as an article's price, but it is of
# 2026-01, 334 days old: still held back, now for its age alone (at 4.80 x 900 = CNY 4,320 it
# would lose to the L40S's 4,209 anyway).
sed 's/^return {/return { anecdotal_ok = true,/' "$EX/big-model.lua" >"$T/big-anecdotal.lua"
run "$GW" decide "$T/big-anecdotal.lua" --json
jq_all _j1 '[.options[] | select(.id == "rent:Unnamed CN platform:A100-80GB (MIG enabled):1x a100-sxm4-80gb")][0] | "\(.held_back) \(.cost.total_text) \(.held_back_because)"' \
    _j2 '.options[0].throughput.basis'
check_eq "decide big-model with anecdotal_ok: the blog's offer is held back as stale" \
    "$_j1" \
    "true CNY 4,320 its price is of 2026-01, 334 days old, older than the workload's price_max_age_days (180): re-quote it (stale_ok = true only ranks it at this price)"
check_eq "decide big-model: speeds are scaled estimates" "$_j2" "scaled"

# The short project: renting wins.
run "$GW" decide "$EX/short-project.lua" --json
jq_all _j1 '.recommendation.details.acquisition' \
    _j2 '[.recommendation.details.verdicts[] | select(.rule == "short-work")] | length' \
    _j3 '.workload.kind' \
    _j4 '.options[0] | "\(.hours_needed_text) of \(.hours_available_text)"' \
    _j5 '.options[0].cost.total_text'
check_rc "decide short-project: exit 0" 0
check_eq "decide short-project: renting wins" "$_j1" "rent"
# A job now (5 runs): its costs already bill a rental only for the hours the runs take, so the
# short-work rule, which prefers renting capacity, no longer fires (it did when the project was
# costed as 6 h a day for two months).
check_eq "decide short-project: the short-work rule leaves a job alone" \
    "$_j2" "0"
check_eq "decide short-project: a job" "$_j3" "job"
# The winner is one RTX 4090 on RunPod's Community Cloud (RunPod's list as checked 2026-09-25;
# the blog's CNY 3.20/h A100 40GB is an anecdotal price, held back): USD 0.34 x 6.8322 = CNY
# 2.322948/h; measured 1,301 images/s.  5 runs 5 x 3.84e7 / 1,301 / 3,600 = 40.99 h; available
# 6 x 30 x 2 = 360 h; 2.322948 x 40.994 = CNY 95.23.
check_eq "decide short-project: hours needed and available" \
    "$_j4" "41 h of 360 h"
check_eq "decide short-project: the rental costs the hours the runs take" \
    "$_j5" "CNY 95.23"

# A job of one 300 h run, rented at CNY 4.80/h: 4.80 x 300 = CNY 1,440 (not 4.80 x 12 h x 30 x
# 24 = 41,472 over the whole horizon).
run "$GW" decide "$FX/job-300h.lua" --json
check_rc "decide job-300h: exit 0" 0
check_eq "decide job-300h: the rental costs 300 h" \
    "$(jqr '[.options[] | select(.cost.unit_price == 4.8)][0] | "\(.hours_needed) \(.cost.total_text)"')" \
    "300 CNY 1,440"

# A workload's region (issue 14): vision-team buys in CN, so a card is priced from the KB's CN
# prices: the new RTX 4090 at the blog's CNY 16,000 (2026-01) + a CNY 8,000 host = 24,000, not
# the US street price of 2026-05; the used RTX 4090 has no CN price, so the latest of any region
# is shown, the median of USD 1,400 and 1,700 = 1,550 x 6.8322 = 10,589.91 + 8,000 = 18,589.91,
# held back (not a price this buyer can pay, and stale) and its note says so.  short-project (CN
# too) does not accept articles' prices: the KB's CN price of the new 4090 is a blog's, and no
# other region has one it may be recommended either (a street price is an article's too, and
# the US launch MSRP is history), so the CN price is shown, CNY 16,000 + 8,000 = 24,000, held
# back for what it is: an article's, and stale.
run "$GW" decide "$EX/vision-team.lua" --json
check_eq "decide region: the new RTX 4090 at its CN price" \
    "$(jqr '.options[] | select(.id == "buy-new:1x rtx-4090") | .cost.upfront')" "24000"
check_eq "decide region: the used RTX 4090 from another region, said" \
    "$(jqr '.options[] | select(.id == "buy-used:1x rtx-4090") | "\(.cost.upfront) \(.held_back) \(.offer_note | startswith("The KB has no CN used price of this card: this is another market'"'"'s (region not stated by its source), shown but not recommended; a CN quote would settle it."))"')" \
    "18589.91 true true"
run "$GW" decide "$EX/short-project.lua" --json
check_eq "decide region: no region's price may be recommended: the CN article's stays, held back" \
    "$(jqr '.options[] | select(.id == "buy-new:1x rtx-4090") | "\(.cost.upfront) \(.held_back) \(.other_market) \(.held_back_because)"')" \
    "24000 true false only an article gives its price (set anecdotal_ok = true to accept such prices); its price is of 2026-01, 334 days old, older than the workload's price_max_age_days (180): re-quote it (stale_ok = true only ranks it at this price)"
check_eq "decide region: the assumptions say where cards are bought" \
    "$(jqr '[.assumptions[] | select(.text | startswith("Cards are bought in CN"))] | length')" "1"

# A job that needs more hours than exist: 2,000 runs x 18.275 h = 36,550 h on one RTX 3090; 20 h
# x 30 x 36 = 21,600 h available: out, both figures in the reason.  Four cards finish in
# 36,550 / (4 x 0.971) = 9,412 h and stay.  A purchase for a job pays electricity for the hours
# needed: used 1x 3090 at the median of its latest used prices (the workload names no region),
# USD 700 and 1,000 (2026-05): 850 x 6.8322 = 5,807.37 + host 8,000 + 0.55 kW x 36,550 h x CNY 1
# = 20,102.5, less resale 0.3 x 5,807.37 = 1,742.21: CNY 32,167.66.
run "$GW" decide "$FX/job-too-long.lua" --json
jq_all _j1 '.options[] | select(.id == "buy-used:1x rtx-3090") | .excluded_because' \
    _j2 '.options[] | select(.id == "buy-used:1x rtx-3090") | .cost.total * 100 | round' \
    _j3 '.options[] | select(.id == "buy-used:4x rtx-3090") | .feasible'
check_rc "decide job-too-long: exit 0" 0
check_eq "decide job-too-long: one card cannot finish" \
    "$_j1" \
    "needs 36,550 h of running; 21,600 h are available (20 h a day for 36 months)"
check_eq "decide job-too-long: electricity for the hours needed" \
    "$_j2" \
    "3216766"
check_eq "decide job-too-long: four cards finish" \
    "$_j3" "true"

# Bad workload files: one line naming the file, the line, the field and what was expected; exit
# 65 (the line was added when budgets took tables: hours_per_day is written on line 4).
run "$GW" decide "$FX/bad-hours.lua"
check_rc "decide bad-hours: exit 65" 65
check_err "decide bad-hours: names file, line, field, expectation" \
    'bad-hours.lua:4: hours_per_day: expected a number more than 0 and at most 24 hours/day, got "eight"'
run "$GW" decide "$FX/typo.lua"
check_rc "decide typo: exit 65" 65
check_err "decide typo: did you mean" "horizon_mnths: unknown field (did you mean horizon_months?)"
run "$GW" decide "$FX/syntax.lua"
check_rc "decide syntax error: exit 65" 65
check_err "decide syntax error: names the file and line" "syntax.lua:3:"
run "$GW" decide "$FX/unknown-gpu.lua"
check_rc "decide unknown candidate: exit 65 (the file is wrong)" 65
check_err "decide unknown candidate: names the entry" "candidates[1]"
run "$GW" decide "$T/missing.lua"
check_rc "decide missing file: exit 66" 66
run "$GW" decide
check_rc "decide without a file: exit 64" 64


# Poor cooling: the 4-card consumer build throttles (its measured 3,100 x 0.8 = 2,480 images/s;
# 3,457.6 x 0.8 = 2,766.1 before issue 26 used the four cards' own result) and is warned.
run "$GW" decide "$FX/hot-room.lua" --json
jq_all _j1 '[.options[] | select(.id == "buy-used:4x rtx-3090") | .throughput.value][0]' \
    _j2 '[.options[] | select(.id == "buy-used:4x rtx-3090") | .verdicts[] | select(.rule == "cooling-power") | .effect][0]'
check_rc "decide hot-room: exit 0" 0
check_num "decide hot-room: 4x 3090 throttled to 80%" \
    "$_j1" 2480 0.05
check_eq "decide hot-room: cooling rule warns on the consumer build" \
    "$_j2" "warn"

# Model parallelism: two RTX 3090 may hold a 40.6 GB model split in two, (40.6 - 1) / 2 + 1 =
# 20.8 GB each; one RTX 3090 may not.  The NVLink rule warns on PCIe and prefers NVLink.
run "$GW" decide "$FX/model-parallel.lua" --json
jq_all _j1 '[.options[] | select(.id == "buy-used:2x rtx-3090") | .feasible][0]' \
    _j2 '[.options[] | select(.id == "buy-used:2x rtx-3090") | .per_card_gb][0]' \
    _j3 '[.options[] | select(.id == "buy-used:1x rtx-3090") | .feasible][0]' \
    _j4 '[.options[] | select(.id == "buy-used:2x rtx-3090") | .verdicts[] | select(.rule == "nvlink") | .effect][0]' \
    _j5 '[.options[] | select(.id == "buy-new:8x a100-sxm4-40gb in dgx-a100-320gb") | .verdicts[] | select(.rule == "nvlink") | .effect][0]' \
    _j6 '[.options[] | select(.id == "buy-new:8x a100-sxm4-40gb in dgx-a100-320gb") | "\(.cost.host) \(.power_w) \(.system_name)"][0]' \
    _j7 '[.not_considered[] | select(.gpu == "a100-sxm4-80gb") | "\(.offer): \(.reason)"][0]'
check_rc "decide model-parallel: exit 0" 0
check_eq "decide model-parallel: 2x 3090 split is feasible" \
    "$_j1" "true"
check_num "decide model-parallel: 20.8 GB per card" \
    "$_j2" 20.8 0.001
check_eq "decide model-parallel: one 3090 is not" \
    "$_j3" "false"
check_eq "decide model-parallel: PCIe is warned" \
    "$_j4" "warn"
# An SXM part is bought as a whole server: eight A100 40GB in one DGX A100 (NVLink) ...
check_eq "decide model-parallel: NVLink is preferred" \
    "$_j5" "prefer"
check_eq "decide model-parallel: the server's price includes its host, its power is the server's" \
    "$_j6" "0 6500 NVIDIA DGX A100 320GB"
# ... and the KB's price of a bare A100 80GB module (an article's) buys nothing anyone sells:
# listed as not considered, with why.
check_eq "decide model-parallel: two SXM modules are not an option" \
    "$_j7" \
    "new module: a bare module's price (SXM and OAM modules are bought in 4- or 8-GPU servers)"

# No candidates: every GPU with a purchase price and every cloud offer; amounts in USD.  The
# default host (CNY 8,000) converts at the KB's latest 6.8322 CNY per USD (the ECB's of
# 2026-04-13): 8000 / 6.8322 = USD 1,170.93.
run "$GW" decide "$FX/usd-all.lua" --json
jq_all _j1 '.options[0].cost.currency' \
    _j2 '(.options | length) > 40' \
    _j3 '[.options[] | select(.acquisition == "buy-used")] | length' \
    _j4 '[.options[] | select(.id == "buy-new:1x rtx-4090") | .cost.host][0]'
check_rc "decide usd-all: exit 0" 0
check_eq "decide usd-all: amounts in USD" "$_j1" "USD"
check_eq "decide usd-all: many options" "$_j2" "true"
check_eq "decide usd-all: no used cards without used_ok" \
    "$_j3" "0"
check_num "decide usd-all: host USD 1,170.93" \
    "$_j4" 1170.93 0.01

# The hosts the decision prices are the KB's rows (kb/data/hosts.csv).  A KB whose one-card
# desktop says CNY 9,000 instead: 9000 / 6.8322 = USD 1,317.29 a host, so one new 4090 in its
# one host costs 1,317.29 - 1,170.93 = USD 146.37 more up front.
AKB=$(fresh_kb assumed)
run "$GW" --kb "$AKB" decide "$FX/usd-all.lua" --json
before=$(jqr '[.options[] | select(.id == "buy-new:1x rtx-4090") | .cost.upfront][0]')
{ head -1 "$ROOT/kb/data/hosts.csv"; grep '^desktop-1,' "$ROOT/kb/data/hosts.csv" | sed 's/,8000,CNY,/,9000,CNY,/'; } >"$T/host.csv"
run "$GW" --kb "$AKB" kb import "$T/host.csv"
check_out "kb import replaces the desktop host row" "hosts      0 added, 1 updated"
run "$GW" --kb "$AKB" decide "$FX/usd-all.lua" --json
check_rc "decide usd-all, host_cost CNY 9,000: exit 0" 0
check_num "decide usd-all, host_cost CNY 9,000: host USD 1,317.29" \
    "$(jqr '[.options[] | select(.id == "buy-new:1x rtx-4090") | .cost.host][0]')" 1317.29 0.01
check_num "decide usd-all, host_cost CNY 9,000: USD 146.37 more up front" \
    "$(jqr "[.options[] | select(.id == \"buy-new:1x rtx-4090\") | .cost.upfront - $before][0]")" 146.37 0.01
# A KB without the rows is refused, naming the first it lacks.
"$GW" --kb "$AKB" kb export | sed '/^# assumptions.csv$/,$d' >"$T/no-assumed.csv"
run "$GW" --kb "$T/no-assumed.db" kb import "$T/no-assumed.csv"
check_rc "a KB without assumed figures: imported" 0
run "$GW" --kb "$T/no-assumed.db" decide "$EX/vision-team.lua"
check_rc "decide on a KB without assumed figures: exit 65" 65
check_err "decide on a KB without assumed figures: names the row" \
    "the knowledge base has no assumed figure 'host_cost'"

# ---- the command line: help, options, formats ----------------------------------------------
run "$GW" decide --help
check_rc "decide --help: exit 0" 0
check_out "decide --help: the synopsis" "usage: gpuwise decide [OPTIONS] WORKLOAD"
check_out "decide --help: where the example workloads are (this source tree)" "$ROOT/examples"
check_out "decide --help: the json fields" "time_to_finish_hours"
run "$GW" help decide
check_out "help decide: the same text" "usage: gpuwise decide [OPTIONS] WORKLOAD"
run "$GW" decide "$EX/vision-team.lua" --jsn
check_rc "decide --jsn: exit 64" 64
check_err "decide --jsn: did you mean" "unknown option '--jsn' (did you mean --json?)"
run "$GW" decide "$EX/vision-team.lua" --format md
check_rc "decide --format md: exit 64 (text and json only)" 64
check_err "decide --format md: names what it writes" "decide cannot write md (it writes text or json)"
run "$GW" decide "$EX/vision-team.lua" -o "$T/d.md"
check_rc "decide -o d.md: exit 64" 64
[ -e "$T/d.md" ] && fail "decide -o d.md: no file" "file written" || pass "decide -o d.md: no file"
run "$GW" decide "$EX/vision-team.lua" "$EX/big-model.lua"
check_rc "decide with two workloads: exit 64" 64
check_err "decide with two workloads: one prefix, no usage text" "gpuwise decide: too many operands"
check_eq "decide errors: the command is named once" "$(printf '%s' "$ERR" | grep -c 'decide: decide')" 0
run "$GW" decide "$EX/vision-team.lua" -o "$T/d.json"
check_rc "decide -o d.json: exit 0" 0
check_eq "decide -o d.json: JSON by the extension, with the trace" \
    "$(jq -r '[.recommendation.option, (.trace | length > 0)] | join(" ")' "$T/d.json")" \
    "rent:RunPod:RTX 4090 (Community Cloud):1x rtx-4090 true"
check_eq "decide -o d.json: nothing on stdout" "$OUT" ""
run "$GW" decide "$EX/vision-team.lua" -o "$T/d.txt"
check_rc "decide -o d.txt: exit 0" 0
grep -q "^Recommendation: rent 1x GeForce RTX 4090" "$T/d.txt" && pass "decide -o d.txt: the table" ||
    fail "decide -o d.txt: the table" "$(head -3 "$T/d.txt")"

# A flip point not found names the range searched: vision-team uses 8 h a day, so hours a day go
# up to 24 / 8 = 3x (+200%) and every input down to 0.05x (-95%); other inputs up to 10x (+900%).
run "$GW" decide "$EX/vision-team.lua" --json
check_eq "decide vision-team: the hours' unflipped range is stated" \
    "$(jqr '.sensitivity.parameters[] | select(.parameter == "hours_per_day") | .flip_text')" \
    "does not change the answer from -95% to +200%"
# big-model's GH200 needs 360.73 h over 24 months, 360.73 / 720 = 0.50 h a day: even at -95% of
# its 12 h (0.6 h a day) it still finishes, and as every option is billed by its hours of work,
# hours a day move no cost: the answer holds over the whole range searched.
run "$GW" decide "$EX/big-model.lua" --json
check_eq "decide big-model: the hours' range holds while the GH200 still finishes" \
    "$(jqr '.sensitivity.parameters[] | select(.parameter == "hours_per_day") | .flip_text')" \
    "does not change the answer from -95% to +100%"

# A break-even sentence dates a purchase priced long ago: lora-finetune with stale_ok (its only
# purchase prices are older than 180 days); its RTX 6000 Ada is priced by the Amazon listing of
# 2025-07-22, a market price, which stands before NVIDIA's launch MSRP of 2022-12; its rentals'
# prices are not named.
sed 's/^return {/return { stale_ok = true,/' "$EX/lora-finetune.lua" >"$T/lora-stale-ok.lua"
run "$GW" decide "$T/lora-stale-ok.lua" --json
jq_all _j1 '.recommendation.because[1] | startswith("Buying (new 4x NVIDIA RTX 6000 Ada Generation, priced as of 2025-07-22) would need")' \
    _j2 '.break_even.buy_price_old_as_of'
check_eq "decide lora-finetune: the break-even names the purchase's old price date" \
    "$_j1" "true"
check_eq "decide lora-finetune: the break-even's view carries that date" \
    "$_j2" "2025-07-22"

# A purchase priced by several rows of one date says it is their median and gives each row's
# caveats: vision-team's used RTX 3090s are CNY 5,999 (one card, an article that does not say
# used) and CNY 24,000 for four (6,000 each), median 5,999.5.
run "$GW" decide "$EX/vision-team.lua" --json
jq_all _j1 '.options[] | select(.id == "buy-used:4x rtx-3090") | .offer_note | startswith("The median of 2 prices, CNY 5,999 to CNY 6,000 a card: ")' \
    _j2 '.options[] | select(.id == "buy-used:4x rtx-3090") | .offer_note | (contains("does not say new or used") and contains("four used RTX 3090 cards together"))'
check_eq "decide vision-team: the used 3090s' price is said to be a median of two" \
    "$_j1" "true"
check_eq "decide vision-team: both rows' caveats are given" \
    "$_j2" "true"
