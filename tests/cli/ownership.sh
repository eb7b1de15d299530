#!/bin/sh
# tests/cli/ownership.sh — ownership costs as stated lines (issue 27): support and warranty a
# year, colocation for the draw above site_power_kw, staff time, and discount_rate taking later
# payments and resale at present value; each a cost line in --json and the report, or said not
# to be counted.  Over the fixture KB of tests/cli/hosts.sh, on a pinned today.
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/hosts"
export SOURCE_DATE_EPOCH=1796083200   # 2026-12-01T00:00:00Z

K="$T/own.db"
run "$GW" --kb "$K" kb import "$FX/sources.csv" "$FX/gpus.csv" "$FX/benchmarks.csv" \
    "$FX/rates.csv" "$FX/prices.csv" "$FX/assumptions.csv" "$FX/hosts.csv"
check_rc "ownership: the fixture KB imports" 0

with() {   # FIELDS NAME: own.lua with FIELDS added, as $T/NAME.lua
    sed "s/^return {/return { $1,/" "$FX/own.lua" >"$T/$2.lua"
}
one='[.options[] | select(.id == "buy-new:1x dc-card")][0]'
eight='[.options[] | select(.id == "buy-new:8x dc-card")][0]'

# Nothing stated: support at the KB's 10%, and site power, staff time and discounting each said
# not to be counted (no silent zeros).  1 card: support 0.1 x (10,000 + 1,000) = 1,100 a year.
run "$GW" --kb "$K" decide "$FX/own.lua" --json
jq_all _j1 "$one.cost.support_per_year" \
    _j2 "$one | \"\(.cost.colocation_per_month) \(.cost.staff_per_month)\"" \
    _j3 '[.assumptions[].text | select(test("not counted: .*site power and colocation [(]site_power_kw[)]"))] | length' \
    _j4 '[.assumptions[].text | select(test("not counted: .*staff [(]upkeep_hours_per_month, upkeep_rate[)]"))] | length' \
    _j5 '[.assumptions[].text | select(test("not counted: .*discounting [(]discount_rate[)]"))] | length' \
    _j6 '[.assumptions[] | select(.text | test("^Support, assumed [(]support_fraction[)]: 10% of the hardware.s price a year")) | .cites | length] | .[0]'
check_num "ownership: support 1,100 a year (10% of 11,000)" "$_j1" 1100 0.001
check_eq "ownership: colocation and staff null when unstated" "$_j2" "null null"
check_eq "ownership: site power said not checked" "$_j3" "1"
check_eq "ownership: staff time said not counted" "$_j4" "1"
check_eq "ownership: discounting said not applied" "$_j5" "1"
check_eq "ownership: the support share cites its source" "$_j6" "1"

# site_power_kw = 2: the 8-card server draws 3,900 W, 1.9 kW above the site, placed in
# colocation at the fixture's USD 200 per kW a month = 380 a month; total 87,404 (hosts.sh) +
# 380 x 12 = 91,964.  The 1-card desktop (450 W) fits: no colocation, total 9,262.
with "site_power_kw = 2" site
run "$GW" --kb "$K" decide "$T/site.lua" --json
jq_all _j1 "$eight.cost.colocation_per_month" \
    _j2 "$eight.cost.total" \
    _j3 "$one | \"\(.cost.colocation_per_month) \(.cost.total)\"" \
    _j4 '[.assumptions[].text | select(test("The site takes 2 kW .site_power_kw.; a purchase.s draw above it is in colocation at [$]200 per kW a month"))] | length'
check_num "ownership: 1.9 kW above the site x 200 = 380 a month" "$_j1" 380 0.001
check_num "ownership: the server's total with colocation, 91,964 by hand" "$_j2" 91964 0.01
check_eq "ownership: the desktop fits the site" "$_j3" "0 9262"
check_eq "ownership: the assumptions state the site's power and its colocation" "$_j4" "1"
# The report's cost table: the server's support 833.33 + colocation 380 = 1,213.33 a month.
run "$GW" --kb "$K" report "$T/site.lua" -o "$T/site.md"
OUT=$(cat "$T/site.md")
check_out "ownership: the report's cost table adds the colocation to the support" \
    "| \$100,000 | \$117 | \$1,213 | \$91,964 |"

# support_fraction = 0.05: 1 card, support 550 a year = 45.83 a month;
#   11,000 + (13.50 + 45.83) x 12 - 3,000 = 8,712.  support_fraction = 0: 11,000 + 162 - 3,000
#   = 8,162.
with "support_fraction = 0.05" half
run "$GW" --kb "$K" decide "$T/half.lua" --json
jq_all _j1 "$one.cost.support_per_year" _j2 "$one.cost.total"
check_num "ownership: support_fraction 0.05, 550 a year" "$_j1" 550 0.001
check_num "ownership: support_fraction 0.05, total 8,712 by hand" "$_j2" 8712 0.01
with "support_fraction = 0" none
run "$GW" --kb "$K" decide "$T/none.lua" --json
check_num "ownership: support_fraction 0, total 8,162 by hand" "$(jqr "$one.cost.total")" 8162 0.01

# Staff: 2 hours a month at USD 50 = 100 a month: 9,262 + 1,200 = 10,462.
with "upkeep_hours_per_month = 2, upkeep_rate = 50" staff
run "$GW" --kb "$K" decide "$T/staff.lua" --json
jq_all _j1 "$one.cost.staff_per_month" _j2 "$one.cost.total" \
    _j3 '[.assumptions[].text | select(test("Staff time: 2 hours a month"))] | length'
check_num "ownership: staff 100 a month" "$_j1" 100 0.001
check_num "ownership: staff, total 10,462 by hand" "$_j2" 10462 0.01
check_eq "ownership: the assumptions state the staff time" "$_j3" "1"

# discount_rate = 0.08: i = 1.08^(1/12) - 1 = 0.0064340; 12 monthly payments of 105.1667
# (13.50 + 91.67) count (1 - 1.08^-1) / i = 11.51286 of them = 1,210.78; the resale of 3,000 a
# year on counts 3,000 / 1.08 = 2,777.78: 11,000 + 1,210.78 - 2,777.78 = 9,432.99, where at face
# value it is 9,262 (the resale discounted by more than the running costs).
with "discount_rate = 0.08" pv
run "$GW" --kb "$K" decide "$T/pv.lua" --json
jq_all _j1 "$one.cost.total" _j2 "$one.cost.total_undiscounted" \
    _j3 '[.assumptions[].text | select(test("present value, 8% a year .discount_rate.: over 12 months, 1 a month counts 11.51 and a resale 0.9259"))] | length'
check_num "ownership: discount_rate 0.08, total 9,432.99 by hand" "$_j1" 9432.99 0.01
check_num "ownership: the face value stays 9,262" "$_j2" 9262 0.01
check_eq "ownership: the assumptions state the rate" "$_j3" "1"

# Out of range is refused with file, line and field.
with "discount_rate = 2" bad
run "$GW" --kb "$K" decide "$T/bad.lua"
check_rc "ownership: discount_rate 2 is refused (65)" 65
check_err "ownership: the refusal names the field" "discount_rate"
