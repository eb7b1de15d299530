#!/bin/sh
# tests/cli/production.sh — a service's constraints end to end: the KB's providers (kind, SLA,
# regions, each sourced), production = true leaving out rentals from providers without a
# published SLA and with fewer than two replicas (and naming them), a workload's region with only
# offers from elsewhere saying where the data goes, and consumer cards bought for a server room
# carrying the GeForce licence's data-centre clause with its source.  Rentals come from a fixture
# (tests/fixtures/demand/offers.csv: SlaCloud with an SLA in the US, HostMarket a marketplace,
# ChainCloud a decentralised network).
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200   # today 2026-12-01: which prices are stale is fixed

# ---- the shipped providers ----
# Every cloud provider the shipped prices name has a row in providers.csv (by its name; no
# field of either file before the provider holds a comma).
missing=$(awk -F, 'NR == FNR { if (FNR > 1) known[$2] = 1; next }
                   FNR > 1 && $2 == "cloud" && $8 != "" && !($8 in known) { print $8 }' \
          "$ROOT/kb/data/providers.csv" "$ROOT/kb/data/prices.csv" | sort -u)
check_eq "production: every cloud provider of the shipped prices is described" "$missing" ""
run "$GW" kb check
check_out "production: the shipped KB holds 30 providers, each citing a source" "providers 30"
run "$GW" kb export -o "$T/export.csv"
grep -q '^vast-ai,Vast.ai,marketplace,0,' "$T/export.csv" 2>/dev/null \
    && pass "production: the providers are exported (Vast.ai a marketplace without an SLA)" \
    || fail "production: the providers are exported (Vast.ai a marketplace without an SLA)"
grep -q '^aws,AWS,hyperscaler,1,https://aws.amazon.com/compute/sla/,' "$T/export.csv" 2>/dev/null \
    && pass "production: AWS publishes its SLA, cited by URL" \
    || fail "production: AWS publishes its SLA, cited by URL"

KB=$(fresh_kb production)
run "$GW" --kb "$KB" kb import "$FIX/demand/offers.csv"
check_rc "production: fixture providers and offers imported" 0
printf 'id,name,kind,sla,sla_url,regions,source,note\nodd,OddCloud,cheap,1,,,demand-fixture,\n' >"$T/providers.csv"
run "$GW" --kb "$KB" kb import "$T/providers.csv"
check_rc "production: a provider of an unknown kind is refused" 65
check_err "production: ... naming the kinds" "hyperscaler"

# wl NAME MORE: Llama 2 7B in fp16 served at 100 tokens/s from rented H100s; MORE other fields.
wl() {
    cat >"$T/$1.lua" <<EOF
return { task = "inference", model = { name = "llama-2-7b", precision = "fp16" },
  inference = { context = 1024, output_tokens = 256, concurrency = 1, tokens_per_s = 100 }, $2
  candidates = { "rent:h100-sxm5" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
opt() { jqr ".options[] | select(.id == \"$1\") | $2"; }
residency() { opt "$1" '[.verdicts[] | select(.rule == "residency") | .because] | join("")'; }

# ---- production = true ----
# HostMarket (USD 0.50 an hour) and ChainCloud (0.40) are cheaper than SlaCloud (0.90) but
# publish no SLA: left out.  One SlaCloud H100 is one replica: left out.  Two serve 100 tokens/s
# (one 162.85 tokens/s replica would do) for USD 1.80 an hour: 1.80 / (100 x 3,600 / 1e6) = USD
# 5.00 per 1M tokens.
wl prod 'production = true,'
run "$GW" --kb "$KB" decide "$T/prod.lua" --json
check_rc "production: decided" 0
check_eq "production: a marketplace offer is left out for want of an SLA" \
    "$(opt 'rent:HostMarket:hm-h100x1:1x h100-sxm5' .excluded_because)" \
    "production = true: HostMarket publishes no SLA (a marketplace of hosts' machines)"
check_eq "production: a decentralised one too" \
    "$(opt 'rent:ChainCloud:cc-h100x1:2x h100-sxm5' .excluded_because)" \
    "production = true: ChainCloud publishes no SLA (a decentralised network of providers)"
check_eq "production: one replica is not enough" \
    "$(opt 'rent:SlaCloud:sla-h100x1:1x h100-sxm5' .excluded_because)" \
    "1 replica; production = true keeps to 2 at least, so that one can fail"
check_eq "production: two instances of the provider with an SLA are recommended" \
    "$(jqr .recommendation.option)" "rent:SlaCloud:sla-h100x1:2x h100-sxm5"
check_num "production: ... at USD 5.00 per 1M tokens" \
    "$(opt 'rent:SlaCloud:sla-h100x1:2x h100-sxm5' .cost.per_unit)" 5 0.00001
check_eq "production: what it left out is listed in the JSON" \
    "$(jqr '[.constraints.production_left_out[] | select(.provider == "HostMarket" or .provider == "ChainCloud") | .option] | sort | join("; ")')" \
    "rent:ChainCloud:cc-h100x1:1x h100-sxm5; rent:ChainCloud:cc-h100x1:2x h100-sxm5; rent:HostMarket:hm-h100x1:1x h100-sxm5; rent:HostMarket:hm-h100x1:2x h100-sxm5"
check_out "production: ... and in the trace" \
    "production: exclude rent:HostMarket:hm-h100x1:1x h100-sxm5: production = true: HostMarket publishes no SLA"
run "$GW" --kb "$KB" report "$T/prod.lua"
check_out "production: the report names what it left out" \
    "ChainCloud (a decentralised network of providers); HostMarket (a marketplace of hosts' machines)"
# Without production the cheapest offer wins: ChainCloud at 0.40 / 0.36 = USD 1.1111 per 1M.
wl open ''
run "$GW" --kb "$KB" decide "$T/open.lua" --json
check_eq "production: without it the decentralised offer is recommended" \
    "$(jqr .recommendation.option)" "rent:ChainCloud:cc-h100x1:1x h100-sxm5"
check_num "production: ... at USD 1.1111 per 1M tokens" \
    "$(opt 'rent:ChainCloud:cc-h100x1:1x h100-sxm5' .cost.per_unit)" 1.1111 0.0001

# ---- region ----
# A lab in China: SlaCloud's GPUs are in the US only (the fixture), and it is recommended.
wl cn 'production = true, region = "CN",'
run "$GW" --kb "$KB" decide "$T/cn.lua" --json
# the offer's own region (US) is read before the provider's list (US too): "this offer"
check_eq "region: a rental outside the region says where the data goes" \
    "$(residency 'rent:SlaCloud:sla-h100x1:2x h100-sxm5')" \
    "the data leaves CN: this offer of SlaCloud is in US"
check_eq "region: ... and a provider the KB places nowhere may take it anywhere" \
    "$(residency 'rent:HostMarket:hm-h100x1:1x h100-sxm5')" \
    "the data may leave CN: where HostMarket's GPUs are is unknown"
run "$GW" --kb "$KB" report "$T/cn.lua"
check_out "region: the report says it among the recommendation's risks" \
    "- The data leaves CN: this offer of SlaCloud is in US."
wl us 'production = true, region = "US",'
run "$GW" --kb "$KB" decide "$T/us.lua" --json
check_eq "region: a provider serving the region says nothing" \
    "$(residency 'rent:SlaCloud:sla-h100x1:2x h100-sxm5')" ""

# ---- the GeForce licence ----
gf() {
    cat >"$T/$1.lua" <<EOF
return { model = { params = 25.6e6 }, benchmark = "resnet50", $2
  anecdotal_ok = true, stale_ok = true, candidates = { "rtx-4090" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
gf room 'server_room = true,'
run "$GW" --kb "$KB" decide "$T/room.lua" --json
check_out "licence: GeForce cards in a server room carry the clause" \
    "No Datacenter Deployment. The SOFTWARE is not licensed for datacenter deployment"
LICENCE_CITE=$(jqr .constraints.licence_cite)
check_eq "licence: ... with NVIDIA's licence as its source" \
    "$(jqr ".citations[] | select(.n == ${LICENCE_CITE:-0}) | .url")" \
    "https://www.nvidia.com/en-us/drivers/geforce-license/"
run "$GW" --kb "$KB" report "$T/room.lua"
check_out "licence: the report's workload section cites it" \
    "check it with whoever approves the server room, or choose a data-centre card. [^"
gf desk ''
run "$GW" --kb "$KB" decide "$T/desk.lua" --json
check_out_not "licence: on a desk nothing is said" "No Datacenter Deployment"
gf prodcards 'production = true,'
run "$GW" --kb "$KB" decide "$T/prodcards.lua" --json
check_out "licence: bought for production the clause is said too" "No Datacenter Deployment"
# Rented for production: SlaCloud's RTX 4090 (the fixture; the shipped RTX 4090 offers are on
# marketplaces without an SLA, left out) carries the clause too.
cat >"$T/rent4090.lua" <<EOF2
return { model = { params = 25.6e6 }, benchmark = "resnet50", production = true,
  candidates = { "rent:rtx-4090" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF2
run "$GW" --kb "$KB" decide "$T/rent4090.lua" --json
check_eq "licence: a GeForce rented for production is recommended only from a provider with an SLA" \
    "$(jqr .recommendation.option)" "rent:SlaCloud:sla-4090:1x rtx-4090"
check_out "licence: ... and carries the clause" "a production service on rented GeForce cards relies on the provider's reading of it"
