#!/bin/sh
# long_billing.sh — a rental's second billing step (kb/schema.sql version 19): an AWS Capacity
# Block is reserved in 1-day steps up to 14 days, then in 7-day steps, so a job is billed
# after + ceil((hours - after) / long) x long beyond 336 h, whole days of 24 h up to it.  The
# price rows that state it are checked on import, and a KB of schema 18 keeps its rows through
# `kb upgrade`.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "long billing" "kb/gpuwise.db not built (run make)"
    exit 0
fi
KB=$(fresh_kb blocks)
HEADER="gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,\
quality,gpu_fraction,min_billing_hours,system,network_gbps,long_billing_after_hours,\
long_billing_hours"
printf '%s\n%s\n' "id,title,publisher,url,retrieved,kind,note" \
    "fixture-blocks,Block Cloud price list (a test's),Block Cloud,,2026-12-01,user," \
    >"$T/sources.csv"
# One A100 at USD 2.00 an hour, reserved as a Capacity Block is: 24 h, then 168 h after 336 h.
printf '%s\n%s\n' "$HEADER" \
    "a100-sxm4-80gb,cloud,2,USD,hour,1,,Block Cloud,blk-1,0,2026-12,fixture-blocks,,list,,24,,,336,168" \
    >"$T/prices.csv"
run "$GW" --kb "$KB" kb import "$T/sources.csv" "$T/prices.csv"
check_rc "a Capacity-Block-like offer imported" 0

# billed JOB_HOURS: the Block Cloud option's bill for a job of that many hours on its A100
billed() {
    cat >"$T/job.lua" <<EOS
return { name = "job", vram_gb = 30, work = { hours_on = "a100-sxm4-80gb", hours = $1 },
  hours_per_day = 24, horizon_months = 8, currency = "USD", electricity = { price = 0.1 },
  candidates = { "rent:a100-sxm4-80gb" } }
EOS
    run "$GW" --kb "$KB" --json decide "$T/job.lua"
    jqr '.options[] | select(.provider == "Block Cloud") | .cost.total'
}
# 32.5 days = 780 h: 336 + ceil(444 / 168) = 3 steps x 168 = 840 h (35 days) x 2.00 = 1,680
check_eq "32.5 days: 35 days billed, USD 1,680" "$(billed 780)" "1680"
# 10.2 days = 244.8 h: whole days, ceil(10.2) = 11 x 24 = 264 h x 2.00 = 528
check_eq "10.2 days: 11 days billed, USD 528" "$(billed 244.8)" "528"
# exactly 14 days = 336 h: the first step's 14 days, 336 x 2.00 = 672
check_eq "14 days: 14 days billed, USD 672" "$(billed 336)" "672"
# 14.1 days = 338.4 h: 336 + 1 x 168 = 504 h (21 days) x 2.00 = 1,008
check_eq "14.1 days: 21 days billed, USD 1,008" "$(billed 338.4)" "1008"
# the option carries both terms (hidden fields of --json)
run "$GW" --kb "$KB" --json decide "$T/job.lua"
check_eq "the option's terms: 24, 336, 168" \
    "$(jqr '.options[] | select(.provider == "Block Cloud") |
        "\(.min_billing_hours) \(.long_billing_after_hours) \(.long_billing_hours)"')" "24 336 168"

# the method and the assumptions say the second step where an offer has one
check_out "the method says the weeks beyond 14 days" \
    "whole days of 24 h, then whole weeks beyond 14 days: a 32.5-day job holds 14 + 3 x 7 = 35 days"
check_eq "the assumptions say so once" \
    "$(jqr '[.assumptions[] | .text? // . | strings | select(test("then whole weeks"))] | length')" "1"
run "$GW" --kb "$SHIPPED_KB" --json decide "$ROOT/tests/fixtures/decide/job-300h.lua"
check_rc "a 300 h job on the shipped KB's A100 80GB offers (no Capacity Block)" 0
check_out_not "a decision without such an offer does not" "whole weeks"

# --- the shipped Capacity Blocks state the steps ------------------------------------------------
check_eq "the three AWS Capacity Block rows: 24, 336, 168" \
    "$(sqlite3 "$SHIPPED_KB" "SELECT count(*) FROM price WHERE source =
        'aws-ec2-capacity-blocks-pricing' AND min_billing_hours = 24 AND
        long_billing_after_hours = 336 AND long_billing_hours = 168")" "3"

# --- a bad combination is refused: one line naming file:line, exit 65 --------------------------
bad() {   # NAME ROW MESSAGE
    printf '%s\n%s\n' "$HEADER" "$2" >"$T/bad.csv"
    run "$GW" --kb "$KB" kb import "$T/bad.csv"
    check_rc "$1: exit 65" 65
    check_err "$1: says why, at its line" "bad.csv:2"
    check_err "$1: says why" "$3"
    check_eq "$1: one line" "$(printf '%s\n' "$ERR" | wc -l)" "1"
}
bad "the second step without its start" \
    "a100-sxm4-80gb,cloud,2,USD,hour,1,,Block Cloud,blk-2,0,2026-12,fixture-blocks,,list,,24,,,,168" \
    "both or neither (long_billing_after_hours is missing)"
bad "a second step shorter than the first" \
    "a100-sxm4-80gb,cloud,2,USD,hour,1,,Block Cloud,blk-3,0,2026-12,fixture-blocks,,list,,24,,,336,12" \
    "long_billing_hours: at least min_billing_hours (24), not 12"
bad "a second step starting within the first" \
    "a100-sxm4-80gb,cloud,2,USD,hour,1,,Block Cloud,blk-4,0,2026-12,fixture-blocks,,list,,24,,,12,168" \
    "long_billing_after_hours: at least min_billing_hours (24), not 12"
bad "a second step on a purchase" \
    "a100-sxm4-80gb,new,9000,USD,card,1,,Block Cloud,,0,2026-12,fixture-blocks,,list,,,,,336,168" \
    "long_billing_hours: only for a cloud offer"
check_eq "nothing of the refused rows stored" \
    "$(sqlite3 "$KB" "SELECT count(*) FROM price WHERE provider = 'Block Cloud'")" "1"

# --- a KB of schema 18 keeps its rows through kb upgrade ----------------------------------------
# Version 18's price table: no long_billing columns, its identity index without them.
OLD=$(fresh_kb v18)
sqlite3 "$OLD" "DROP INDEX price_identity;
    ALTER TABLE price DROP COLUMN long_billing_hours;
    ALTER TABLE price DROP COLUMN long_billing_after_hours;
    CREATE INDEX price_identity ON price(gpu, provider, as_of, kind, gpu_count, gpu_fraction,
        region, instance, spot, source, amount, currency, unit, note, quality, min_billing_hours,
        system, network_gbps);
    PRAGMA user_version = 18"
ROWS=$(sqlite3 "$OLD" "SELECT count(*) || ' ' || total(amount) FROM price")
run "$GW" --kb "$OLD" kb show h100
check_rc "schema 18: a reader is refused (exit 65)" 65
check_err "schema 18: and told to upgrade" "kb upgrade"
run "$GW" --kb "$OLD" kb upgrade
check_rc "schema 18: kb upgrade" 0
check_eq "upgraded: schema 19" "$(sqlite3 "$OLD" 'PRAGMA user_version')" "19"
check_eq "upgraded: every price row kept (count and sum of amounts)" \
    "$(sqlite3 "$OLD" "SELECT count(*) || ' ' || total(amount) FROM price")" "$ROWS"
# until the prices are imported again the Capacity Blocks state no second step
check_eq "upgraded: no row states a second step yet" \
    "$(sqlite3 "$OLD" "SELECT count(*) FROM price WHERE long_billing_hours IS NOT NULL")" "0"
run "$GW" --kb "$OLD" kb import "$ROOT/kb/data/prices.csv"
check_rc "upgraded: kb/data/prices.csv imported again" 0
check_eq "then the three Capacity Blocks state 336 and 168" \
    "$(sqlite3 "$OLD" "SELECT count(*) FROM price WHERE long_billing_after_hours = 336 AND
        long_billing_hours = 168")" "3"
check_eq "and no row was added: each updated in place" \
    "$(sqlite3 "$OLD" "SELECT count(*) || ' ' || total(amount) FROM price")" "$ROWS"
run "$GW" --kb "$OLD" kb check
check_rc "upgraded: kb check passes" 0
