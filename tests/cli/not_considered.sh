#!/bin/sh
# tests/cli/not_considered.sh — with "rent:*" every GPU of the KB is a candidate to rent, and one
# without an option is listed as not considered once, under the first reason found: a GPU with
# only spot offers (and no spot_ok) under its spot prices, never also under "no cloud offer"; a
# GPU with no offer at all under "no cloud offer" (decide_options.c,
# omit_candidates_without_options, which reads the list in one pass).
. "$ROOT/tests/cli/lib.sh"
# Today is pinned to 2026-12-01 (as in decide.sh): the offers of 2026-11 are current.
export SOURCE_DATE_EPOCH=1796083200

KB=$(fresh_kb omitted)
# a30 has no cloud offer in the shipped KB; two spot offers of it (two providers), nothing else.
cat >"$T/spot.csv" <<'EOF'
# gpuwise knowledge base export (schema 2)

# prices.csv
gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note
a30,cloud,0.50,USD,hour,1,US,SpotOne,s1,1,2026-11,aws-ec2-on-demand-pricing,
a30,cloud,0.60,USD,hour,1,US,SpotTwo,s2,1,2026-11,aws-ec2-on-demand-pricing,
EOF
run "$GW" --kb "$KB" kb import "$T/spot.csv"
check_rc "not considered: two spot offers of a30 imported" 0

run "$GW" --kb "$KB" decide "$ROOT/examples/vision-team.lua" --json
check_rc "not considered: decide vision-team (rent:*, no spot_ok)" 0
# a30: its two spot offers, each named (SPOT_NAMED_PER_GPU is 3), and nothing else.
check_eq "not considered: a GPU with only spot offers is listed under them alone" \
    "$(jqr '[.not_considered[] | select(.gpu == "a30") | "\(.offer)|\(.reason)"] | join(";")')" \
    "1x, SpotOne, s1|spot price (set spot_ok);1x, SpotTwo, s2|spot price (set spot_ok)"
# a40 has no cloud offer at all: once, under "no cloud offer".
check_eq "not considered: a GPU without any offer is listed once, without an offer" \
    "$(jqr '[.not_considered[] | select(.gpu == "a40") | "\(.offer)|\(.reason)"] | join(";")')" \
    "null|no cloud offer (a candidate to rent only)"
# No GPU is listed twice with one reason.
check_eq "not considered: no entry twice" \
    "$(jqr '[.not_considered[] | "\(.gpu)|\(.offer)|\(.reason)"] | length - (unique | length)')" "0"
