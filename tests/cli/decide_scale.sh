#!/bin/sh
# tests/cli/decide_scale.sh — `gpuwise decide` on a KB holding a cloud catalogue of 20,000
# offers: it finishes quickly and compares only the cheapest providers per GPU and count.
. "$ROOT/tests/cli/lib.sh"
# Today is pinned to 2026-05-01: the catalogues' prices (2026-01 to 2026-04) are then current, not
# older than the 180 days after which a price is stale and held back (issue 26); what is checked
# here is the walk, not the age.
export SOURCE_DATE_EPOCH=1777593600

KB=$(fresh_kb scale)
# 20,000 offers: 3 GPUs x 2 counts, providers P1..P500, one instance name per row (so every
# row is its own offer), USD 0.10 to 20.10 per GPU-hour; the count multiplies the price.
awk 'BEGIN {
    srand(7)
    split("rtx-4090 a100-sxm4-80gb h100-sxm5", gpu, " ")
    print "# gpuwise knowledge base export (schema 2)"
    print ""
    print "# prices.csv"
    print "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note"
    for (i = 1; i <= 20000; i++) {
        n = (rand() < 0.5) ? 1 : 8
        printf "%s,cloud,%.6f,USD,hour,%d,US,P%d,i%d,0,2026-01,aws-ec2-on-demand-pricing,\n",
            gpu[1 + int(rand() * 3)], n * (0.1 + rand() * 20), n, 1 + int(rand() * 500), i
    }
}' >"$T/catalogue.csv"
run "$GW" --kb "$KB" kb import "$T/catalogue.csv"
check_rc "decide scale: 20,000 offers imported" 0

# The expected winner of each GPU and count: the cheapest row of the catalogue.  Its lowest
# price per GPU is about USD 0.11 (0.1 + 20 / ~3,300 draws), below every shipped offer for
# these GPUs (the cheapest, CNY 4.80 = USD 0.67 for one A100 80GB), so it must win overall.
awk -F, '$2 == "cloud" {
    k = $1 " " $6
    if (!(k in min) || $3 + 0 < min[k]) { min[k] = $3 + 0; id[k] = "rent:" $8 ":" $9 ":" $6 "x " $1 }
} END { for (k in id) print id[k] }' "$T/catalogue.csv" | sort >"$T/expected"

start=$(date +%s)
run timeout 20 "$GW" --kb "$KB" decide "$ROOT/examples/vision-team.lua" --json
end=$(date +%s)
check_rc "decide scale: finishes within 20 s, exit 0" 0
echo "# decide on 20,000 offers: $((end - start)) s"
# At most 3 providers for each of 3 GPUs x 2 counts: 3 x 2 x 3 = 18 options.
check_eq "decide scale: at most 18 rent options for the catalogue's GPUs" \
    "$(jqr '[.options[] | select(.acquisition == "rent" and (.gpu == "rtx-4090" or .gpu == "a100-sxm4-80gb" or .gpu == "h100-sxm5") and (.count == 1 or .count == 8))] | length <= 18')" "true"
check_eq "decide scale: the cheapest offer of each GPU and count is compared" \
    "$(jqr '[.options[] | select(.acquisition == "rent" and (.gpu == "rtx-4090" or .gpu == "a100-sxm4-80gb" or .gpu == "h100-sxm5") and (.count == 1 or .count == 8))] | group_by([.gpu, .count]) | map(min_by(.cost.unit_price).id) | sort | .[]')" \
    "$(cat "$T/expected")"
check_eq "decide scale: six configurations" "$(wc -l <"$T/expected" | tr -d ' ')" "6"
# The catalogue is read cheapest first and only as far as the cheapest offer of 3 providers per
# GPU and count.  The 3 kept of a configuration are usually its 3 cheapest rows (500 providers:
# two of the 3 cheapest rows share a provider with odds of about 3 in 500), so the catalogue's
# 6 configurations need about 18 of its 20,000 offers; the shipped KB's configurations need at
# most all of their own offers (S, counted below).  So fewer than S + 60 are read, where every
# one of the S + 20,000 offers was compared before; the shipped KB alone needs at least 18.
shipped=$(sqlite3 "$SHIPPED_KB" "SELECT count(*) FROM (SELECT DISTINCT gpu, gpu_count, source,
    provider, instance, spot FROM price WHERE kind = 'cloud' AND unit = 'hour')")
read_count=$(jqr '.method.rent' | sed -n 's/.*read cheapest first: \([0-9]*\) offers\{0,1\} read.*/\1/p')
echo "# offers read: $read_count (shipped KB: $shipped offers, catalogue: 20,000)"
check_eq "decide scale: the method says how many offers were read, and fewer than S + 60 were" \
    "$( [ -n "$read_count" ] && [ "$read_count" -ge 18 ] &&
        [ "$read_count" -lt $((shipped + 60)) ] && echo yes)" "yes"

run timeout 20 "$GW" --kb "$KB" report "$ROOT/examples/vision-team.lua" -o "$T/report.html"
check_rc "report scale: finishes within 20 s, exit 0" 0

# ---- the walk cheapest first against the rule written out plainly -------------------------
# A catalogue made to trip a walk that stops early: 12 providers (so a provider's offers crowd
# the cheapest rows), offers of several rows over four months in USD and EUR (an offer's price is
# the median of its latest month's rows, so its cheapest row is not its price), anecdotal rows
# (held back, after every other), spot rows (left out), rows without a provider (the source is
# the seller), and a provider's later month setting its earlier offers aside.  The expected
# options come from tests/cli/rent_rule.py, which applies the rule to every offer in turn.
awk 'BEGIN {
    srand(11)
    split("rtx-3090 rtx-a5000 rtx-a4000", gpu, " ")
    split("USD EUR", cur, " ")
    print "# gpuwise knowledge base export (schema 2)"
    print ""
    print "# prices.csv"
    print "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality"
    for (i = 1; i <= 3000; i++) {
        n = 2 ^ int(rand() * 3)
        provider = rand() < 0.05 ? "" : "Q" (1 + int(rand() * 12))
        source = rand() < 0.5 ? "aws-ec2-on-demand-pricing" : "lambda-gpu-benchmarks"
        if (provider != "") source = "aws-ec2-on-demand-pricing"
        printf "%s,cloud,%.4f,%s,hour,%d,US,%s,k%d,%d,2026-0%d,%s,,%s\n",
            gpu[1 + int(rand() * 3)], n * (0.3 + rand() * 3), cur[1 + int(rand() * 2)], n,
            provider, 1 + int(rand() * 4), rand() < 0.2, 1 + int(rand() * 4), source,
            rand() < 0.1 ? "anecdote" : "list"
    }
}' >"$T/walk.csv"
KB2=$(fresh_kb walk)
run "$GW" --kb "$KB2" kb import "$T/walk.csv"
check_rc "decide walk: the catalogue of 3,000 rows is imported" 0
cat >"$T/walk.lua" <<'LUA'
return {
    name = "walk", benchmark = "resnet50", hours_per_day = 8, horizon_months = 12,
    model = { params = 25.6e6, precision = "amp", optimizer = "adam", activations_gb = 8 },
    currency = "CNY", electricity = { price = 1.0 }, anecdotal_ok = false, spot_ok = false,
    candidates = { "rent:rtx-3090", "rent:rtx-a5000", "rent:rtx-a4000" },
}
LUA
run "$GW" --kb "$KB2" decide "$T/walk.lua" --json
check_rc "decide walk: exit 0" 0
jqr '[.options[] | select(.acquisition == "rent") | .id] | sort | .[]' >"$T/walk.got"
# EUR at the shipped KB's rate (kb/data/rates.csv)
EUR_PER_USD=$(awk -F, '$1 == "EUR" { print $2 }' "$ROOT/kb/data/rates.csv")
python3 "$ROOT/tests/cli/rent_rule.py" "$T/walk.csv" --today=2026-05-01 "EUR=$EUR_PER_USD" |
    sort >"$T/walk.expected"
check_eq "decide walk: the kept offers are the rule's, offer by offer" \
    "$(cat "$T/walk.got")" "$(cat "$T/walk.expected")"
check_eq "decide walk: 3 GPUs x 3 counts x 3 providers" "$(wc -l <"$T/walk.expected" | tr -d ' ')" "27"

# ---- held-back rows read only while they can be shown ---------------------------------------
# 500 offers of one RTX 3090 each, S1..S500 at USD 0.102 to 1.100 an hour, dated 2025-06 (334
# days before today, 2026-05-01: older than 180 days, so stale and held back), under 20 current
# ones, C1..C20 at USD 2.05 to 3.00 (2026-04).  The rule: the 3 cheapest current providers are
# kept (C1, C2, C3) and, of the held-back offers cheaper than the dearest of those (2.15), the 3
# cheapest are shown (S1, S2, S3).  The walk reads those 6 offers and passes over the other 497
# stale rows unread (it read all 503 before held-back rows were told apart in SQL).
awk 'BEGIN {
    print "# gpuwise knowledge base export (schema 2)"
    print ""
    print "# prices.csv"
    print "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality"
    for (i = 1; i <= 500; i++)
        printf "rtx-3090,cloud,%.3f,USD,hour,1,US,S%d,s%d,0,2025-06,aws-ec2-on-demand-pricing,,list\n",
            0.1 + i * 0.002, i, i
    for (j = 1; j <= 20; j++)
        printf "rtx-3090,cloud,%.2f,USD,hour,1,US,C%d,c%d,0,2026-04,aws-ec2-on-demand-pricing,,list\n",
            2 + j * 0.05, j, j
}' >"$T/stale.csv"
cat >"$T/stale.lua" <<'LUA'
return {
    name = "stale", benchmark = "resnet50", hours_per_day = 8, horizon_months = 12,
    model = { params = 25.6e6, precision = "amp", optimizer = "adam", activations_gb = 8 },
    currency = "USD", electricity = { price = 1.0 }, spot_ok = false,
    candidates = { "rent:rtx-3090" },
}
LUA
rent_ids() {
    jqr '[.options[] | select(.acquisition == "rent") | .id] | sort | join(" ")'
}
offers_read() {
    jqr '.method.rent' | sed -n 's/.*read cheapest first: \([0-9]*\) offers\{0,1\} read.*/\1/p'
}
KB3=$(fresh_kb stale)
run "$GW" --kb "$KB3" kb import "$T/stale.csv"
check_rc "decide stale: the catalogue of 520 offers is imported" 0
run "$GW" --kb "$KB3" decide "$T/stale.lua" --json
check_rc "decide stale: exit 0" 0
check_eq "decide stale: 3 current providers kept, the 3 cheapest stale offers shown" "$(rent_ids)" \
    "rent:C1:c1:1x rtx-3090 rent:C2:c2:1x rtx-3090 rent:C3:c3:1x rtx-3090 rent:S1:s1:1x rtx-3090 rent:S2:s2:1x rtx-3090 rent:S3:s3:1x rtx-3090"
check_eq "decide stale: 6 offers read (3 stale + 3 current), not 503" "$(offers_read)" "6"

# With only C1 and C2 current, too few are kept when every current row is read: the held-back
# offers are then judged as any other, cheapest first (S1 kept, the third provider), and the 3
# cheapest after it under 2.10 shown (S2, S3, S4).  That needs every held-back offer, so the
# walk reads the rows again for the 497 it passed over: all 502 offers.
grep -v ',C\([3-9]\|1[0-9]\|20\),' "$T/stale.csv" >"$T/few.csv"
KB4=$(fresh_kb few)
run "$GW" --kb "$KB4" kb import "$T/few.csv"
check_rc "decide few: the catalogue of 502 offers is imported" 0
run "$GW" --kb "$KB4" decide "$T/stale.lua" --json
check_rc "decide few: exit 0" 0
check_eq "decide few: C1, C2 and S1 kept, S2 to S4 shown" "$(rent_ids)" \
    "rent:C1:c1:1x rtx-3090 rent:C2:c2:1x rtx-3090 rent:S1:s1:1x rtx-3090 rent:S2:s2:1x rtx-3090 rent:S3:s3:1x rtx-3090 rent:S4:s4:1x rtx-3090"
check_eq "decide few: every one of the 502 offers read" "$(offers_read)" "502"
