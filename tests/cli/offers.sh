#!/bin/sh
# tests/cli/offers.sh — `gpuwise offers`: --where in the language of `kb list`, --sort by any
# field, offers that differ only in region folded, slices of a card shown as their fraction, the
# formats; on tests/fixtures/offers/offers.csv, then on the real SkyPilot catalogues in
# ../shared/testdata when they are there.
. "$ROOT/tests/cli/lib.sh"

KB=$(fresh_kb offers)
run "$GW" --kb "$KB" kb import "$FIX/offers/offers.csv"
check_rc "offers: the fixture imports" 0
# Every query below keeps to the fixture's offers (the shipped KB has its own).
MINE="source = offers-fixture"

# ---- the example: the cheapest 2x 24 GB+ offers in the EU -----------------------------------
run "$GW" --kb "$KB" --json offers --where "$MINE and memory_gb >= 24 and count >= 2 and region ~ eu" \
    --sort price_per_gpu
check_rc "example query: exit 0" 0
# per GPU-hour: EuroCloud spot 0.80/2 = 0.40 USD; EuroLira EUR 0.90/2 = 0.45 EUR, which is
# 0.45 / 0.877 (EUR per USD, kb/data/rates.csv) = 0.513 USD, so it sorts between 0.40 and 0.60;
# EuroCloud on demand 1.20/2 = 0.60 in two regions (one row); 4x A100 8.00/4 = 2.00.  Left out:
# the US offer (region), the 2x T4 (16 GB), the 1x L40S (count) and the A10 slices (count 1).
check_eq "example query: the EU offers of 2+ GPUs of 24 GB+, cheapest per GPU-hour first" \
    "$(jqr '.offers[] | [.instance, .spot, .price_per_gpu_hour, .currency, .region_count] | map(tostring) | join(" ")')" \
    "eu-2x4090 true 0.4 USD 1
it-2x4090 false 0.45 EUR 1
eu-2x4090 false 0.6 USD 2
eu-4xa100 false 2 USD 1"
check_eq "example query: the folded row lists its regions in JSON" \
    "$(jqr '.offers[2].regions | join(",")')" "eu-west-1,eu-north-1"
check_eq "example query: the JSON says what was asked" "$(jqr '[.where, .sort] | join(" | ")')" \
    "$MINE and memory_gb >= 24 and count >= 2 and region ~ eu | price_per_gpu"
run "$GW" --kb "$KB" offers --where "$MINE and memory_gb >= 24 and count >= 2 and region ~ eu" \
    --sort price_per_gpu
check_out "text: the folded row names its first region and how many more" "eu-west-1 +1"
check_out "text: the key says what +N means" "REGION +N: the same offer in N more regions"
check_eq "text: a header, 4 offers and the count" "$(printf '%s\n' "$OUT" | wc -l | tr -d ' ')" 6
check_eq "text: no two lines alike" "$(printf '%s\n' "$OUT" | sort | uniq -d)" ""

# ---- --sort: any field, highest first with a leading - --------------------------------------
run "$GW" --kb "$KB" --json offers --where "$MINE" --sort -price
# per hour: 8.00 (A100), 1.20 (EuroCloud, folded), 1.00 (US) first; the EUR 0.90 is 1.03 USD,
# so it comes before the US 1.00
check_eq "--sort -price: the dearest instances first, currencies compared in USD" \
    "$(jqr '[.offers[:4][] | .instance] | join(" ")')" "eu-4xa100 eu-2x4090 it-2x4090 us-2x4090"
run "$GW" --kb "$KB" --json offers --where "$MINE" --sort memory_gb
check_eq "--sort memory_gb: the slices' 4 and 8 GB first, the A100's 80 GB last" \
    "$(jqr '[.offers[] | .memory_gb] | map(tostring) | join(" ")')" "4 8 16 24 24 24 24 48 80"
run "$GW" --kb "$KB" --json offers --where "$MINE" --sort region
# the folded EuroCloud row comes at its first region in that order, eu-north-1 (then eu-west-1)
check_eq "--sort region: by region name" "$(jqr '[.offers[] | .region] | join(" ")')" \
    "eastus eastus eu-central-1 eu-north-1 eu-south-1 eu-west-1 eu-west-1 eu-west-1 us-east-1"
check_eq "--sort region: the folded row's regions in that order" \
    "$(jqr '.offers[3].regions | join(",")')" "eu-north-1,eu-west-1"
run "$GW" --kb "$KB" --json offers --where "$MINE" --sort gpu_count
check_rc "--sort takes a field's JSON name too (gpu_count is count)" 0
run "$GW" --kb "$KB" offers --sort cheapest
check_rc "--sort with an unknown field: exit 64" 64
check_err "--sort: the fields are named" \
    "--sort: unknown field 'cheapest' (fields: gpu, memory_gb, count, gpu_fraction, provider"

# ---- --where: the language of kb list, its errors ----------------------------------------------
run "$GW" --kb "$KB" --json offers --where "$MINE and (provider = eurocloud or provider = uscloud) and spot = 0 and price_per_gpu <= 0.6"
# on demand at most 0.60 per GPU-hour: T4 0.20, US 0.50, EuroCloud 4090 0.60 (folded); the spot
# 0.40 is out, the L40S 0.90 and the A100 2.00 too; provider compares without case
check_eq "--where: or, parentheses, text without case, spot, a price" \
    "$(jqr '[.offers[] | .instance] | join(" ")')" "eu-2xt4 us-2x4090 eu-2x4090"
run "$GW" --kb "$KB" --json offers --where "$MINE and gpu_fraction < 1"
check_eq "--where gpu_fraction < 1: the two slices" "$(jqr '[.offers[] | .label] | join(",")')" \
    "1/6 a10,1/3 a10"
run "$GW" --kb "$KB" offers --where "vram >= 24"
check_rc "--where with an unknown field: exit 64" 64
check_err "--where: the offer fields are named" "--where: unknown field 'vram' (fields: gpu, memory_gb, count"
# the fields are described once (core/kb/kb_offers.c); the help names each of them
FIELDS=$(printf '%s' "$ERR" | sed -n 's/.*(fields: \(.*\))$/\1/p' | tr -d ',')
HELP=$("$GW" help offers)
missing=
for f in $FIELDS; do case "$HELP" in *"$f"*) ;; *) missing="$missing $f" ;; esac; done
check_eq "help offers names every field --where knows ($(echo $FIELDS | wc -w | tr -d ' '))" "$missing" ""
run "$GW" --kb "$KB" offers --where "memory_gb >= lots"
check_rc "--where with a word for a number: exit 64" 64
check_err "--where: says what is wrong" "--where: memory_gb: 'lots' is not a number"
run "$GW" --kb "$KB" offers --where "(count >= 2"
check_err "--where: an unclosed parenthesis is named with its position" "'(' at position 1 is not closed"
run "$GW" --kb "$KB" offers memory_gb '>=' 24
check_rc "an unquoted expression: exit 64" 64
check_err "... and the command says it takes none" "takes no operands ('memory_gb')"
run "$GW" --kb "$KB" kb list --where "count >= 2"
check_rc "kb list keeps its own fields: count is no GPU field" 64
check_err "kb list names the GPU fields" "--where: unknown field 'count' (fields: id, name"

# ---- slices of a card -------------------------------------------------------------------------
run "$GW" --kb "$KB" --json offers --where "$MINE and provider = SliceCloud" --sort price
# a sixth of an A10 (24 GB) at 0.08 an hour: 24 / 6 = 4 GB, 0.08 x 6 = 0.48 per whole GPU-hour;
# a third at 0.16: 8 GB, 0.16 x 3 = 0.48
check_eq "slices: fraction, label, memory, instance price and price per whole GPU-hour" \
    "$(jqr '.offers[] | [.fraction, .label, .memory_gb, .price_per_hour, .price_per_gpu_hour] | map(tostring) | join("|")')" \
    "1/6|1/6 a10|4|0.08|0.48
1/3|1/3 a10|8|0.16|0.48"
run "$GW" --kb "$KB" offers --where "$MINE and provider = SliceCloud" --sort price
check_out "slices: the text names the fraction" "1/6 a10"
check_out "slices: the key says which price is the instance's" \
    "1/6 a10: 1/6 of one card; MEMORY is the slice's, PER HOUR the instance's price, PER GPU-H a whole card's hour at that rate"
case "$OUT" in
    *"1/6 a10"*"4 GB"*"\$0.08"*"\$0.48"*) pass "slices: 4 GB, \$0.08 the hour, \$0.48 per GPU-hour on one line" ;;
    *) fail "slices: 4 GB, \$0.08 the hour, \$0.48 per GPU-hour on one line" "$OUT" ;;
esac
run "$GW" --kb "$KB" --json offers --where "$MINE and provider = SliceCloud" --max-price 0.3
check_eq "--max-price is per whole GPU-hour: 0.48 is over 0.3" "$(jqr '.offers | length')" 0

# ---- the formats ------------------------------------------------------------------------------
run "$GW" --kb "$KB" --format csv offers --where "$MINE and instance = eu-2x4090 and spot = 0"
# the area and the areas come last, after the columns scripts already read by position
check_eq "csv: one row, the regions then its area in the last columns" "$(printf '%s\n' "$OUT" | tr -d '\r')" \
    "gpu,gpu_count,provider,instance,region,spot,price_per_hour,price_per_gpu_hour,currency,as_of,source,fraction,memory_gb,region_count,regions,area,areas
rtx-4090,2,EuroCloud,eu-2x4090,eu-west-1,false,1.2,0.6,USD,2026-11,offers-fixture,,24,2,eu-west-1 eu-north-1,EU,EU"
run "$GW" --kb "$KB" --format md offers --where "$MINE and instance = a10-sixth"
check_out "md: the slice's row" "| a10 | 1 | SliceCloud | a10-sixth | eastus | false | 0.08 | 0.48 | USD | 2026-11 | offers-fixture | 1/6 | 4 | 1 | eastus | US | US |"
run "$GW" --kb "$KB" offers --where "$MINE and count > 100"
check_out "nothing matches: said so" "no cloud offers match"

# ---- area: where an offer's region is, in the providers table's codes ------------------------
# tests/fixtures/offers/areas.csv: one 2x RTX 4090 (24 GB) offer per region naming style, priced
# 1.01, 1.02, ... in row order (area-01, area-02, ...), so price_per_gpu sorts them in that order.
run "$GW" --kb "$KB" kb import "$FIX/offers/areas.csv"
check_rc "area: the fixture of every naming style imports" 0
AREAS="source = offers-areas"
run "$GW" --kb "$KB" --json offers --where "$AREAS" --sort instance
# by kb_area.c's rules: cloud prefixes (europe-, eu-, eur-, us-, ca-, sa-, me-, il-, af-, ap-,
# asia-, cn-, northamerica-northeast), Azure's names, ISO 3166 codes (whole, or Vast's "City, CC");
# EU counts the EEA (IS, NO), Switzerland and the UK; a bare SA (Saudi Arabia or South America),
# Mexico, Turkey and Paperspace's "West Coast (CA1)" (California, not Canada) have none
check_eq "area: every naming style read, unknown ones empty" \
    "$(jqr '[.offers[] | "\(.region)=\(.area // "-")"] | join("|")')" \
    "europe-west4=EU|eu-west-1=EU|westeurope=EU|northeurope=EU|swedencentral=EU|uksouth=EU|europe-central-1=EU|CZ=EU|IS=EU|NO=EU|SE=EU|EU-CZ-1=EU|EUR-IS-1=EU|EU-SE-1=EU|Sweden, SE=EU|CH=EU|switzerlandnorth=EU|US=US|US-TX-1=US|us-central1=US|eastus=US|Texas, US=US|CA=CA|CA-MTL-1=CA|Ontario, CA=CA|canadacentral=CA|northamerica-northeast1=CA|sa-east-1=SA|southamerica-east1=SA|brazilsouth=SA|Riyadh, SA=ME|me-west1=ME|il-central-1=ME|af-south-1=AF|southafricanorth=AF|asia-northeast1=APAC|ap-southeast-1=APAC|eastasia=APAC|cn-north-1=CN|chinanorth=CN|SA=-|mexicocentral=-|northamerica-south1=-|TR=-|West Coast (CA1)=-"
run "$GW" --kb "$KB" --json offers --where "$AREAS and memory_gb >= 24 and count >= 2 and region ~ eu" \
    --sort price_per_gpu
# the issue's example, literally: region ~ eu finds the 17 EU offers (area-01..17) whatever the
# region's name, cheapest per GPU-hour first (1.01 / 2 = 0.505 ... 1.17 / 2 = 0.585)
check_eq "area: the literal example finds the EU offers of every naming style" \
    "$(jqr '[.offers[] | .instance] | join(" ")')" \
    "area-01 area-02 area-03 area-04 area-05 area-06 area-07 area-08 area-09 area-10 area-11 area-12 area-13 area-14 area-15 area-16 area-17"
check_eq "area: ... each of them in EU, cheapest first" \
    "$(jqr '[.offers[0], .offers[16] | [.area, .price_per_gpu_hour] | map(tostring) | join(" ")] | join(", ")')" \
    "EU 0.505, EU 0.585"
run "$GW" --kb "$KB" --json offers --where "$AREAS and area = eu"
check_eq "area = EU: the same 17" "$(jqr '.offers | length')" 17
run "$GW" --kb "$KB" --json offers --where "$AREAS and region ~ us"
# region ~ us: the US area (US, US-TX-1, us-central1, eastus, "Texas, US") and no other: no other
# region here has "us" in its name
check_eq "region ~ us: the US area" "$(jqr '[.offers[] | .instance] | sort | join(" ")')" \
    "area-18 area-19 area-20 area-21 area-22"
run "$GW" --kb "$KB" --json offers --where "$AREAS and region ~ tx"
check_eq "region ~ still matches part of a region's name" "$(jqr '[.offers[] | .region] | join(" ")')" "US-TX-1"
run "$GW" --kb "$KB" --json offers --where "$AREAS" --sort area
# areas by code (AF, APAC, CA, CN, EU, ME, SA, US), then the five without one
check_eq "--sort area: by code, unknown last" \
    "$(jqr '[.offers[] | .area // "-"] | [.[0], .[2], .[-6], .[-5], .[-1]] | join(" ")')" "AF APAC US - -"
run "$GW" --kb "$KB" offers --where "$AREAS and (region = CZ or region = SA)" --sort region
check_out "text: an AREA column" "AREA"
# the REGION and AREA cells of each line (the 6th and 7th words: GPU, COUNT, MEMORY's two
# words, PROVIDER, INSTANCE come first)
check_eq "text: CZ is in EU, a bare SA in none" \
    "$(printf '%s\n' "$OUT" | awk 'NR > 1 && NF > 8 { print $7, $8 }' | tr '\n' ' ')" "CZ EU SA - "
HELP=$("$GW" help offers | tr -s ' \n' '  ')   # one line: the help is wrapped to the terminal
# the areas are written from kb_area.c's table ("CODE, what it covers"), not a second copy
for w in "APAC, Asia and the Pacific" "CN, mainland China" "Switzerland and the United Kingdom" "GDPR" "region ~ eu"; do
    case "$HELP" in *"$w"*) pass "help offers says: $w" ;; *) fail "help offers says: $w" "$HELP" ;; esac
done

# ---- completion: the offer fields, from kb_offers.c's description --------------------------------
check_eq "completion: offers --sort gives the offer fields" \
    "$("$GW" complete 3 gpuwise offers --sort price | tr '\n' ' ')" "price price_per_gpu "
check_eq "completion: ... highest first with a leading -" \
    "$("$GW" complete 3 gpuwise offers --sort -ar | tr '\n' ' ')" "-area "
check_eq "completion: offers --where starts with a field" \
    "$("$GW" complete 3 gpuwise offers --where mem | tr '\n' ' ')" "memory_gb "

# ---- decide: residency from the offer's own region ---------------------------------------------
# tests/fixtures/offers/residency.csv: TwoCloud serves the US and the EU (its providers row); its
# H100 offers: tc-us in us-east-1 at 0.20 an hour, tc-any (no region) at 0.22, tc-eu in eu-west-1
# at 0.25.  Its offers in and out of the workload's region are each an option; the one outside
# says where the data goes, which the provider's list alone (US;EU) never said.
RKB=$(fresh_kb residency)
run "$GW" --kb "$RKB" kb import "$FIX/offers/residency.csv"
check_rc "residency: the fixture imports" 0
res_wl() {
    cat >"$T/res-$1.lua" <<EOF
return { task = "inference", model = { name = "llama-2-7b", precision = "fp16" },
  inference = { context = 1024, output_tokens = 256, concurrency = 1, tokens_per_s = 100 },
  $2 candidates = { "rent:h100-sxm5" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
# TwoCloud's options: "instance residency-verdict", cheapest first
two() {
    jqr '[.options[] | select(.provider == "TwoCloud") | "\(.id | split(":")[2]) \([.verdicts[] | select(.rule == "residency") | .because] | join(""))"] | join("|")'
}
export SOURCE_DATE_EPOCH=1796083200   # today 2026-12-01: the fixture's 2026-11 prices are current
res_wl EU 'region = "EU",'
run "$GW" --kb "$RKB" decide "$T/res-EU.lua" --json
check_rc "residency: decided" 0
check_eq "residency (region = EU): the EU and the US offer both compared; the US one says where the data goes" \
    "$(two)" "tc-us the data leaves EU: this offer of TwoCloud is in US (us-east-1)|tc-any |tc-eu "
# one H100 serves 100 tokens/s: tc-eu 0.25 / (100 x 3,600 / 1e6) = USD 0.6944 per 1M tokens
check_num "residency: ... tc-eu at USD 0.6944 per 1M tokens" \
    "$(jqr '.options[] | select(.id == "rent:TwoCloud:tc-eu:1x h100-sxm5") | .cost.per_unit')" 0.6944 0.0001
check_eq "residency: the JSON says the offer's regions were read" \
    "$(jqr '.constraints.residency[] | select(.provider == "TwoCloud") | [.option, .regions, .regions_of] | join(" ")')" \
    "rent:TwoCloud:tc-us:1x h100-sxm5 us-east-1 offer"
res_wl DE 'region = "DE",'
run "$GW" --kb "$RKB" decide "$T/res-DE.lua" --json
check_eq "residency (region = DE): a country reads as its area, EU" \
    "$(two)" "tc-us the data leaves DE: this offer of TwoCloud is in US (us-east-1)|tc-any |tc-eu "
res_wl US 'region = "US",'
run "$GW" --kb "$RKB" decide "$T/res-US.lua" --json
check_eq "residency (region = US): the EU offer is the one that leaves" \
    "$(two)" "tc-us |tc-any |tc-eu the data leaves US: this offer of TwoCloud is in EU (eu-west-1)"
res_wl none ''
run "$GW" --kb "$RKB" decide "$T/res-none.lua" --json
check_eq "residency: without a region, the provider's cheapest offer alone, as before" "$(two)" "tc-us "
unset SOURCE_DATE_EPOCH

# ---- the real SkyPilot catalogues --------------------------------------------------------------
if ! have_testdata; then
    skip "offers on the real SkyPilot catalogues" "../shared/testdata not found"
    exit 0
fi
CP="$TESTDATA/cloud_prices"
KB=$(fresh_kb sky)
for f in "$CP"/skypilot-*.slice.csv; do
    run "$GW" --kb "$KB" prices refresh skypilot --input "$f"
    check_rc "real: $(basename "$f") imports" 0
done
SKY="source ~ skypilot"
run "$GW" --kb "$KB" offers --where "$SKY"
check_eq "real: no two lines alike" "$(printf '%s\n' "$OUT" | sort | uniq -d)" ""
run "$GW" --kb "$KB" --json offers --where "$SKY"
# skypilot-v7-runpod-vms.slice.csv: 1x_A100-80GB_SECURE at 1.64 (spot 1.19) in CA, CZ, IS, NO,
# SE and US: one row each for on demand and spot, six regions
check_eq "real: RunPod's 1x A100 80GB on demand is one row of six regions" \
    "$(jqr '.offers[] | select(.instance == "1x_A100-80GB_SECURE" and .spot == false) | [.price_per_hour, .region_count, (.regions | join(","))] | map(tostring) | join(" ")')" \
    "1.64 6 CA,CZ,IS,NO,SE,US"
check_eq "real: rows that differ only in region: none left" \
    "$(jqr '[.offers[] | del(.region, .regions, .region_count)] | (length - (unique | length))')" 0
run "$GW" --kb "$KB" --json offers --where "$SKY and memory_gb >= 24 and count >= 2" --sort price_per_gpu
# the cheapest per GPU-hour (skypilot-v7-lambda-vms.slice.csv): gpu_4x_a6000 at 3.20 / 4 and
# gpu_2x_a6000 at 1.60 / 2, both 0.80 in us-east-1 (48 GB each); then RunPod's A100 80GB spot at
# 1.19 (2x 2.38, 4x 4.76, 8x 9.52; skypilot-v7-runpod-vms.slice.csv)
check_eq "real: the cheapest 2x 24 GB+ offers" \
    "$(jqr '[.offers[:2][] | [.provider, .instance, .spot, .memory_gb, .price_per_gpu_hour, .region] | map(tostring) | join(" ")] | sort | join(", ")')" \
    "Lambda gpu_2x_a6000 false 48 0.8 us-east-1, Lambda gpu_4x_a6000 false 48 0.8 us-east-1"
check_eq "real: ... then RunPod's A100 80GB spot" \
    "$(jqr '.offers[2] | [.provider, .spot, .price_per_gpu_hour] | map(tostring) | join(" ")')" \
    "RunPod true 1.19"
run "$GW" --kb "$KB" --json offers --where "$SKY and memory_gb >= 24 and region ~ eu" --sort price_per_gpu
# Lambda's europe-central-1 (gpu_1x_a6000 at 0.80) and RunPod's countries CZ, IS, NO and SE
# (1x_A100-80GB_SECURE, spot 1.19 and on demand 1.64, each one row of four regions), which have
# no "eu" in their names but are in the EU area (skypilot-v7-runpod-vms.slice.csv)
check_eq "real: the EU offers of 24 GB+, RunPod's countries among them" \
    "$(jqr '.offers[] | [.provider, .instance, .spot, (.regions | join(",")), .area, .price_per_hour] | map(tostring) | join(" ")')" \
    "Lambda gpu_1x_a6000 false europe-central-1 EU 0.8
RunPod 1x_A100-80GB_SECURE true CZ,IS,NO,SE EU 1.19
RunPod 1x_A100-80GB_SECURE false CZ,IS,NO,SE EU 1.64"
run "$GW" --kb "$KB" --json offers --where "$SKY and instance = 1x_A100-80GB_SECURE and spot = 0"
# the row folded over six regions: CA (CA), CZ IS NO SE (EU), US (US)
check_eq "real: a row folded over areas lists each once" \
    "$(jqr '.offers[] | [.area, (.areas | join(","))] | join(" ")')" "CA CA,EU,US"
run "$GW" --kb "$KB" --json offers --where "$SKY"
# every region of the three slices has an area: GCP's us-*, asia-* and europe-west4, Lambda's
# us-* and europe-central-1, RunPod's six countries
check_eq "real: every offer of the slices has an area" \
    "$(jqr '[.offers[] | select(.area == null)] | length')" 0
run "$GW" --kb "$KB" offers --where "$SKY and memory_gb >= 24 and count >= 2 and region ~ eu" --sort price_per_gpu
check_rc "real: the example query runs" 0
# the slices have no EU offer of 2 or more GPUs: RunPod's 2x-8x are in CA and US only, Lambda's
# europe-central-1 rents one A6000
check_out "real: the example query finds none in these slices" "no cloud offers match"
