#!/bin/sh
# tests/cli/mixed.sh — mixed work: one file, several workloads on the same hardware
# (workloads = { {...}, {...} }); the plan meets the largest memory and the sum of the hours,
# is ranked on its whole cost and shares it by hours.  Fixtures in tests/fixtures/budgets.
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/budgets"
RUNPOD='rent:RunPod:L40S (Community Cloud):1x l40s'

run "$GW" decide "$FX/mixed.lua" --json
check_rc "mixed: exit 0" 0
jq_all _name '.workload.name' \
    _largest '.mixed.largest' \
    _count '.mixed.count' \
    _rec '.recommendation.option' \
    _hours "[.options[] | select(.id == \"$RUNPOD\") | .hours_needed][0]" \
    _total "[.options[] | select(.id == \"$RUNPOD\") | .cost.total][0]" \
    _h1 '.mixed.workloads[0].hours' \
    _h2 '.mixed.workloads[1].hours' \
    _s1 '.mixed.workloads[0].share' \
    _c2 '.mixed.workloads[1].cost' \
    _sum '[.mixed.workloads[].share] | add' \
    _mem '.mixed.workloads[1].memory_gb' \
    _why '[.options[] | select(.id == "rent:RunPod:RTX 4090 (Community Cloud):1x rtx-4090") | .excluded_because][0]' \
    _buy '[.options[] | select(.id == "buy-new:1x rtx-6000-ada") | .hours_needed, .cost.total] | join(" ")' \
    _opt_sum '[.options[] | select(.workloads | length > 0) | ([.workloads[].share] | add)] | map(. * 1000 | round) | unique'
check_eq "mixed: the plan's name is the file's" "$_name" "Two kinds of work on one box"
check_eq "mixed: two workloads" "$_count" 2
# The larger memory is the second part's: vram_gb 30 x 1.10 + 1 GB = 34 GB; the first's is
# (25.6e6 x 16 B + 8 GB) x 1.10 + 1 = 10.25 GB.
check_eq "mixed: the plan meets the largest memory (the second part's)" "$_largest" "big model"
check_num "mixed: the largest memory, 30 x 1.10 + 1 = 34 GB" "$_mem" 34 0.01
# (an RTX 4090 holds 24,564 MiB x 1,048,576 = 25.76e9 bytes as its driver reports it)
check_eq "mixed: a 24 GB card fits the first part but not the second: out" "$_why" \
    'needs 34.0 GB per replica; GeForce RTX 4090 holds 25.8 GB (24 GB nominal)'
check_eq "mixed: renting one L40S is recommended" "$_rec" "$RUNPOD"
# Hours on the L40S: the daily part is capacity, 4 h x 30 x 36 = 4,320 h; the big model is
# 600 h on an RTX 6000 Ada, which does 1,146 images/s to the L40S's 1,084.0 (scaled):
# 600 x 1,146 / 1,084.0 = 634.33 h.  The sum, 4,954.33 h, is within 8 x 30 x 36 = 8,640.
check_num "mixed: the first part's hours, 4 x 30 x 36 = 4,320" "$_h1" 4320 0.01
check_num "mixed: the second part's hours, 600 x 1146 / 1084.0 = 634.33" "$_h2" 634.33 0.05
check_num "mixed: the option runs the sum, 4,954.33 h" "$_hours" 4954.33 0.05
# RunPod's L40S at USD 0.79/h x 4,954.33 h = USD 3,913.92, shared by hours: 4,320 / 4,954.33 =
# 87.20% and 634.33 / 4,954.33 = 12.80% (USD 501.12).
check_num "mixed: the whole plan's cost, 0.79 x 4,954.33 = 3,913.92" "$_total" 3913.92 0.05
check_num "mixed: the first part's share, 4,320 / 4,954.33 = 87.20%" "$_s1" 87.20 0.01
check_num "mixed: the second part's cost, 3,913.92 x 12.80% = 501.12" "$_c2" 501.12 0.05
check_num "mixed: the shares sum to 100%" "$_sum" 100 1e-9
check_eq "mixed: every option's shares sum to 100%" "$_opt_sum" '[100000]'
# One RTX 6000 Ada bought: 4,320 + 600 h (it is the reference card) = 4,920 h; 6,886.96 +
# 2,000 host + (300 + 200 W) x 4,920 h x 0.15 / 1000 = 369 of power - 0.3 x 6,886.96 resale
# = 7,189.87, + support (the KB's support_fraction, issue 27: 10% a year of the hardware, a
# professional card and its host) 0.10 x (6,886.96 + 2,000) x 3 years = 2,666.09: 9,855.96.
check_eq "mixed: a bought card runs 4,920 h and costs 9,855.96" "$_buy" "4920 9855.96"

run "$GW" report "$FX/mixed.lua" --format md
check_rc "mixed report: exit 0" 0
check_out "mixed report: each workload's share" \
    '  - daily ResNet-50: 10.3 GB a replica, 4,320 h of running, 87.2% of the cost ($3,413).'
check_out "mixed report: the largest memory is named" 'every option must hold the largest memory (big model)'

# ---- bad shapes: one line naming file, line and field; exit 65 ----
run "$GW" decide "$FX/bad-mixed-shared.lua"
check_rc "mixed shared field: exit 65" 65
check_eq "mixed shared field: set once, at the top" "$ERR" \
    "gpuwise decide: $FX/bad-mixed-shared.lua:25: workloads[2].currency: shared by every workload: set it once, at the top level"
run "$GW" decide "$FX/bad-mixed-list.lua"
check_rc "mixed not a list: exit 65" 65
check_eq "mixed not a list: a list of workload tables" "$ERR" \
    "gpuwise decide: $FX/bad-mixed-list.lua:6: workloads: expected a list of workload tables { { model = ..., ... }, { ... } }"
