#!/bin/sh
# tests/plugins/pricing.sh — the shipped pricing plugins on real files ($TESTDATA) and on the
# project's own fixture page; every expected figure below was read off the row named beside it.
. "$ROOT/tests/cli/lib.sh"

# offer JQ-FILTER: the first offer of $OUT matching the filter, compact.
offer() { printf '%s' "$OUT" | jq -c "[.offers[] | select($1)][0]"; }

# -- the static plugins: no input file
KB=$(fresh_kb static)
run "$GW" --kb "$KB" prices refresh
check_rc "prices refresh (no names): exit 0" 0
check_out "prices refresh runs cn-market" "cn-market: 10 offers stored"
check_out_not "prices refresh skips the example" "example-cloud"
check_out_not "prices refresh skips plugins that need a file" "fsdl"
run "$GW" --kb "$KB" --json offers --gpu "A100 40GB SXM4"
# article-rented-a100-vs-3090: "A100-SXM4 (40GB) single card", CNY 3.2/h
check_eq "cn-market: A100 40GB at CNY 3.2/h" \
    "$(offer '.provider == "Unnamed CN platform"' | jq -r '[.price_per_hour, .currency, .source] | join(" ")')" \
    "3.2 CNY article-rented-a100-vs-3090"
# Every cn-market price comes from a blog article: stored with quality anecdote, a whole card
# (gpu_fraction 1), no minimum billing, no system, no network, no second billing step stated
# (the last seven columns of kb export's prices.csv).
check_eq "cn-market: its 10 offers are stored as anecdotes" \
    "$("$GW" --kb "$KB" kb export | grep -E 'Unnamed CN platform|quoted range' | grep -c ',anecdote,1,,,,,$')" "10"

run "$GW" --kb "$KB" prices refresh example-cloud
check_rc "prices refresh example-cloud (named): exit 0" 0
check_out "example-cloud: 6 offers" "example-cloud: 6 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "RTX 4090" --spot
check_eq "example-cloud: the one spot offer, USD 0.30" \
    "$(offer '.provider == "Example Cloud"' | jq -r '[.price_per_hour, .spot] | join(" ")')" "0.3 true"
run "$GW" --kb "$KB" prices refresh fsdl
check_rc "fsdl without --input: usage error" 64
check_err "fsdl without --input: says so" "give --input FILE"

# -- html-table on the fixture page tests/fixtures/plugins/acme-prices.html
run "$GW" --kb "$KB" prices refresh html-table --input "$FIX/plugins/acme-prices.html"
check_rc "html-table: exit 0" 0
# rows: h100x8 on-demand + spot, h100x1 on-demand, a100x1 "$1,45 / hr" (a comma before two
# digits is a decimal comma: USD 1.45); the "Contact sales" row has no price: 4 offers
check_out "html-table: 4 offers" "html-table: 4 offers stored"
run "$GW" --kb "$KB" --json offers --gpu h100-sxm5
check_eq "html-table: acme.h100x8, 8 GPUs at USD 22.40/h, as of 2026-10-01" \
    "$(offer '.instance == "acme.h100x8" and .spot == false' | jq -r '[.provider, .gpu_count, .price_per_hour, .currency, .as_of] | join("|")')" \
    "Acme GPU Cloud|8|22.4|USD|2026-10-01"
check_num "html-table: its price per GPU-hour (22.40 / 8 = 2.80)" \
    "$(offer '.instance == "acme.h100x8" and .spot == false' | jq -r .price_per_gpu_hour)" 2.8 0.0001
run "$GW" --kb "$KB" --json offers --gpu "A100 80GB SXM4"
check_eq "html-table: \$1,45 / hr is USD 1.45" \
    "$(offer '.instance == "acme.a100x1"' | jq -r .price_per_hour)" "1.45"

# -- html-table on tests/fixtures/prices/eu-cloud-prices.html: prices per GPU-hour with decimal
# commas, and no provider in the page (its title names the page, not the provider)
KB=$(fresh_kb eu)
run "$GW" --kb "$KB" prices refresh html-table --input "$FIX/prices/eu-cloud-prices.html"
check_rc "html-table, no provider on the page: exit 70" 70
check_err "html-table, no provider on the page: asks for --provider" "give --provider NAME"
run "$GW" --kb "$KB" prices refresh html-table --input "$FIX/prices/eu-cloud-prices.html" \
    --provider "Beispiel RZ"
check_rc "html-table --provider: exit 0" 0
# table 1: h100x8 (+ spot), h100x1, 4090 (+ spot), a100x4; table 2: l40sx2 = 7 offers
check_out "html-table --provider: 7 offers" "html-table: 7 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
check_eq "per GPU-hour: eu.h100x8 = 8 x EUR 2,19 = EUR 17.52 per instance-hour, by the flag's provider" \
    "$(offer '.instance == "eu.h100x8" and .spot == false' | jq -r '[.provider, .price_per_hour, .currency, .as_of] | join("|")')" \
    "Beispiel RZ|17.52|EUR|2026-11-02"
check_eq "per GPU-hour spot: 8 x EUR 0,99 = EUR 7.92" \
    "$(offer '.instance == "eu.h100x8" and .spot == true' | jq -r .price_per_hour)" "7.92"
run "$GW" --kb "$KB" --json offers --gpu "RTX 4090"
check_eq "decimal comma and a trailing €: 0,59 € is EUR 0.59" \
    "$(offer '.instance == "eu.4090" and .spot == false' | jq -r '[.price_per_hour, .currency] | join(" ")')" "0.59 EUR"
run "$GW" --kb "$KB" --json offers --gpu L40S
check_eq "a table with both columns: the per-instance one (EUR 2,40 for 2 GPUs)" \
    "$(offer '.instance == "eu.l40sx2"' | jq -r '[.price_per_hour, .gpu_count, .region] | join("|")')" "2.4|2|Amsterdam"

# -- skypilot on a catalog of each cloud's layout (tests/fixtures/prices, written here)
KB=$(fresh_kb layouts)
cp "$FIX/prices/skypilot-aws-vms.csv" "$T/vms.csv"
run "$GW" --kb "$KB" prices refresh skypilot --input "$T/vms.csv"
check_rc "skypilot aws (a file named vms.csv, the cloud found from its rows): exit 0" 0
# p4d us-east-1 + spot, p4d us-west-2, p5, g5 + spot, p3 + spot = 8; the Radeon Pro V520 is no
# KB card: its 4 offers (2 regions, on demand and spot) left out and reported once
check_out "skypilot aws: 8 stored, 4 left out" "skypilot: 8 offers stored; 4 left out: GPU not in the KB"
check_err "skypilot aws: the unknown name once, with its file, lines and nearest cards" \
    "$T/vms.csv: skypilot: offers[1].gpu: no GPU named 'Radeon Pro V520 8GB'; did you mean:"
check_err "skypilot aws: ... and where it is" "(line 3); 4 offers name it (lines 3, 4)"
check_err "skypilot aws: Inferentia is no GPU" "1 accelerators that are not GPUs (Inferentia2)"
run "$GW" --kb "$KB" --json offers --gpu "A100 40GB SXM4"
# rows 9-11: p4d us-east-1 in zones az1 (spot 8.1042) and az2 (7.9011, twice): one spot offer,
# the lower; row 12: us-west-2's SpotPrice 21.957600 repeats the on-demand price: no spot
check_eq "skypilot aws: p4d spot is the lower zone's" \
    "$(offer '.instance == "p4d.24xlarge" and .spot and .region == "us-east-1"' | jq -r .price_per_hour)" "7.9011"
check_eq "skypilot aws: no spot offer where the spot price repeats the on-demand one" \
    "$(printf '%s' "$OUT" | jq '[.offers[] | select(.instance == "p4d.24xlarge" and .spot and .region == "us-west-2")] | length')" "0"
run "$GW" --kb "$KB" prices refresh skypilot --input "$FIX/prices/skypilot-aws-vms.csv" --strict
check_rc "skypilot --strict: exit 65" 65
check_err "skypilot --strict: nothing stored" "nothing stored: the knowledge base is as it was"
check_err "skypilot --strict: says why" "skypilot: 4 offers name a GPU the KB does not know"
run "$GW" --kb "$KB" prices refresh skypilot --input "$FIX/prices/skypilot-azure-vms.csv"
# NC24ads A100 (+ spot; its duplicate row dropped), ND96amsr A100 (+ spot), ND96isr H100
# (+ spot), NC40ads H100 in southcentralus (+ spot; eastus's 0.0 is a placeholder), NV6ads A10
# (+ spot) = 10; the M60's 4 offers reported
check_out "skypilot azure: 10 stored, 4 left out" "skypilot: 10 offers stored; 4 left out"
run "$GW" --kb "$KB" --json offers --gpu A10
check_eq "skypilot azure: NV6ads A10 v5 is a sixth of an A10 (gpu_fraction 0.167)" \
    "$(sqlite3 "$KB" "SELECT gpu_count || '|' || gpu_fraction || '|' || amount FROM price WHERE instance = 'Standard_NV6ads_A10_v5' AND spot = 0")" \
    "1.0|0.167|0.454"
run "$GW" --kb "$KB" --json offers --gpu "H100 NVL"
check_eq "skypilot azure: NC40ads H100 v5 is the H100 NVL" \
    "$(offer '.instance == "Standard_NC40ads_H100_v5" and .spot == false' | jq -r '[.region, .price_per_hour] | join(" ")')" "southcentralus 6.98"
run "$GW" --kb "$KB" prices refresh skypilot --input "$FIX/prices/skypilot-gcp-vms.csv"
check_out "skypilot gcp: 8 offers" "skypilot: 8 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
# a3-highgpu-8g: VM 9.46 + 8x H100 79.03 = 88.49; spot 2.17 + 20.0 = 22.17
check_eq "skypilot gcp: a3-highgpu-8g = host VM + GPU row" \
    "$(offer '.instance == "a3-highgpu-8g" and .spot == false' | jq -r .price_per_hour)" "88.49"
run "$GW" --kb "$KB" --json offers --gpu T4
# n1-standard-8 0.38 + T4 0.35 = 0.73
check_eq "skypilot gcp: a T4 priced with its N1 host" \
    "$(offer '.provider == "GCP" and .spot == false' | jq -r '[.instance, .price_per_hour] | join("|")')" \
    "n1-standard-8 + 1x T4|0.73"
run "$GW" --kb "$KB" prices refresh skypilot --input "$FIX/prices/skypilot-lambda-vms.csv"
check_out "skypilot lambda: 5 offers" "skypilot: 5 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "H100 PCIe"
check_eq "skypilot lambda: gpu_1x_h100_pcie is the PCIe card" \
    "$(offer '.instance == "gpu_1x_h100_pcie" and (.source | startswith("plugin-skypilot"))' | jq -r '[.gpu, .price_per_hour] | join("|")')" \
    "h100-pcie|2.49"
run "$GW" --kb "$KB" prices refresh skypilot --input "$FIX/prices/skypilot-runpod-vms.csv"
# RTX 4090 US (two zones: spot 0.34 and 0.29, the lower kept) + spot, L40S + spot, A100 SXM x2
check_out "skypilot runpod: 5 offers" "skypilot: 5 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "RTX 4090" --spot
check_eq "skypilot runpod: the 4090's spot price is the lower zone's, 0.29" \
    "$(offer '.provider == "RunPod"' | jq -r .price_per_hour)" "0.29"

# -- prices list and remove on those offers
run "$GW" --kb "$KB" --json prices list
check_rc "prices list: exit 0" 0
check_eq "prices list: Azure's 10 offers, 5 of them spot, 5 GPUs (A100 PCIe and SXM, H100 SXM and NVL, A10), one source" \
    "$(jqr '.providers[] | select(.provider == "Azure") | [.offers, .spot, .gpus, .sources] | join(" ")')" "10 5 5 1"
check_eq "prices list: AWS's oldest as-of date is the curated 2024-01, the newest today's" \
    "$(jqr '.providers[] | select(.provider == "AWS") | [.oldest, .newest] | join(" ")')" \
    "2024-01 $(date -u +%Y-%m-%d)"
run "$GW" --kb "$KB" prices list --format csv
check_out "prices list: CSV header" "provider,offers,spot,gpus,oldest,newest,sources"
run "$GW" --kb "$KB" prices remove azure
check_rc "prices remove (any case): exit 0" 0
check_out "prices remove: says how many" "Azure: 10 offers removed"
run "$GW" --kb "$KB" --json prices list
check_eq "prices remove: Azure gone from the list" \
    "$(jqr '[.providers[] | select(.provider == "Azure")] | length')" "0"
run "$GW" --kb "$KB" prices remove Runpd
check_rc "prices remove of an unknown provider: exit 67" 67
check_err "prices remove: suggests the closest" "did you mean RunPod?"

# -- the providers' own JSON price APIs, as saved responses (tests/fixtures/prices)
KB=$(fresh_kb json)
run "$GW" --kb "$KB" prices refresh azure-retail --input "$FIX/prices/azure-retail-prices.json"
# items: ND96isr H100 v5 eastus, its Spot, westeurope; NV12ads A10 v5 (a third of an A10); the
# Windows, Reservation and Low Priority items and the NV12s v3 (no GPU this plugin names) out
check_out "azure-retail: 4 offers" "azure-retail: 4 offers stored"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM" --spot
check_eq "azure-retail: the Spot item is a spot offer, USD 29.496" \
    "$(offer '.provider == "Azure"' | jq -r '[.instance, .region, .price_per_hour] | join("|")')" \
    "Standard_ND96isr_H100_v5|eastus|29.496"
run "$GW" --kb "$KB" prices refresh vast --input "$FIX/prices/vast-bundles.json"
check_out "vast: 4 offers, the K80's 2 left out" "vast: 4 offers stored; 2 left out"
run "$GW" --kb "$KB" --json offers --gpu "RTX 4090"
# rentable 4090s at 0.35, 0.41, 0.50 (the unrentable 0.25 out): median 0.41; bids 0.20, 0.22,
# 0.30: median 0.22 (beside them the shipped KB's Vast.ai RTX 4090 of 2026-06: the range seen,
# 0.682 to 0.875, as two rows)
check_eq "vast: the median machine's price, and the median bid as spot" \
    "$(printf '%s' "$OUT" | jq -r '[.offers[] | select(.provider == "Vast.ai") | .price_per_hour] | sort | join(" ")')" "0.22 0.41 0.682 0.875"
run "$GW" --kb "$KB" prices refresh lambda-cloud --input "$FIX/prices/lambda-instance-types.json"
check_out "lambda-cloud: 3 offers, 1 unknown" "lambda-cloud: 3 offers stored; 1 left out"
check_err "lambda-cloud: the unknown card named" "no GPU named 'Zeta X9000 288GB SXM6'"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
check_eq "lambda-cloud: 2392 cents = USD 23.92 for 8x H100 SXM5" \
    "$(offer '.instance == "gpu_8x_h100_sxm5" and (.source | startswith("plugin-lambda-cloud"))' | jq -r '[.gpu_count, .price_per_hour] | join("|")')" \
    "8|23.92"

if ! have_testdata; then
    skip "pricing on real files" "../shared/testdata not found"
    exit 0
fi
CP="$TESTDATA/cloud_prices"

# -- FSDL cloud-gpus.csv
KB=$(fresh_kb fsdl)
run "$GW" --kb "$KB" prices refresh fsdl --input "$CP/fsdl-cloud-gpus.csv"
check_rc "fsdl: exit 0" 0
check_err "fsdl: names each GPU type it could not place, with its lines" \
    "fsdl: offers[291].gpu: no GPU named 'RTX4000 (8 GB)'; did you mean: "
check_err "fsdl: ... and how many offers name it" "3 offers name it (lines 219, 220, 221)"
STORED=$(printf '%s' "$OUT" | sed -n 's/^fsdl: \([0-9]*\) offers stored.*/\1/p')
# a renamed copy of the same file replaces the offers, never duplicates them
cp "$CP/fsdl-cloud-gpus.csv" "$T/cloud-gpus-2026-11.csv"
run "$GW" --kb "$KB" prices refresh fsdl --input "$T/cloud-gpus-2026-11.csv"
# the source is named after the file, so each offer is another price: all added, all the
# earlier ones removed
check_out "fsdl from a renamed file: every earlier offer replaced" \
    "prices     $STORED added, 0 updated, $STORED removed (0 unchanged)"
check_eq "fsdl from a renamed file: as many FSDL offers as before" \
    "$(sqlite3 "$KB" "SELECT count(*) FROM price WHERE source LIKE 'plugin-fsdl%'")" "$STORED"
run "$GW" --kb "$KB" --json offers --gpu "A100 80GB SXM4"
# line 2: AWS,A100 (80 GB),Ampere,8,640,96,1152,40.97,5.12,,p4de.24xlarge
check_eq "fsdl: AWS p4de.24xlarge = 8x A100 80GB at USD 40.97/h" \
    "$(offer '.instance == "p4de.24xlarge" and (.source | startswith("plugin-fsdl"))' | jq -r '[.provider, .gpu, .gpu_count, .price_per_hour, .currency, .spot] | join("|")')" \
    "AWS|a100-sxm4-80gb|8|40.97|USD|false"
run "$GW" --kb "$KB" --json offers --gpu "A100 40GB SXM4" --spot
# line 3: AWS,A100 (40 GB),Ampere,8,320,96,1152,32.77,4.10,9.83,p4d.24xlarge -> spot 9.83
check_eq "fsdl: p4d.24xlarge spot at USD 9.83/h" \
    "$(offer '.instance == "p4d.24xlarge"' | jq -r '.price_per_hour')" "9.83"
run "$GW" --kb "$KB" --json offers --gpu "H100 PCIe"
# FSDL "H100 PCIe (80GB)" rows are the PCIe card, not the SXM one
check_eq "fsdl: H100 PCIe rows stay PCIe" \
    "$(offer '(.source | startswith("plugin-fsdl"))' | jq -r .gpu)" "h100-pcie"
run "$GW" --kb "$KB" --json offers --gpu "A100 40GB SXM4"
check_eq "fsdl: the curated AWS offers stay beside the plugin's" \
    "$(offer '.source == "aws-ec2-on-demand-pricing"' | jq -r .instance)" "p4d.24xlarge"

# -- FSDL serverless-gpus.csv (Vendor, ..., Per-Hour, Per-GPU; every row was logged "no cloud, GPU
# type or count" and nothing stored before: the plugin read only the cloud layout)
KB=$(fresh_kb fsdl-serverless)
run "$GW" --kb "$KB" prices refresh fsdl --input "$CP/fsdl-serverless-gpus.csv"
check_rc "fsdl serverless: exit 0" 0
# 72 rows, one offer each; Modal's "A100 (20 GB)" (line 50) is no KB card: 71 stored
check_out "fsdl serverless: 71 offers stored, 1 GPU not in the KB" \
    "fsdl: 71 offers stored; 1 left out: GPU not in the KB"
check_err "fsdl serverless: the A100 (20 GB) named with its line" \
    "no GPU named 'A100 (20 GB)'; did you mean: "
run "$GW" --kb "$KB" --json offers --gpu A40
# lines 58 and 59: Replicate,A40,Ampere,1,48,4,16,2.07,2.07 and ...,1,48,10,72,2.61,2.61: one
# A40 (GPU RAM 48 / 1 GPU = 48 GB) in two configurations, told apart by their vCPUs and RAM
check_eq "fsdl serverless: Replicate's A40 at USD 2.07/h, 4 vCPU and 16 GB RAM" \
    "$(offer '.price_per_hour == 2.07' | jq -r '[.provider, .gpu, .gpu_count, .instance, .spot] | join("|")')" \
    "Replicate|a40|1|serverless, 4 vCPU, 16 GB RAM|false"
check_eq "fsdl serverless: ... and at USD 2.61/h with 10 vCPU and 72 GB RAM" \
    "$(offer '.price_per_hour == 2.61' | jq -r .instance)" "serverless, 10 vCPU, 72 GB RAM"
run "$GW" --kb "$KB" --json offers --gpu T4
# line 70: Mystic AI,Nvidia T4,Turing,1,16GB,0,0,$0.4,$0.4: "$0.4" is USD 0.40 an hour
check_eq "fsdl serverless: Mystic AI's T4 at \$0.4 an hour" \
    "$(offer '.provider == "Mystic AI"' | jq -r '[.price_per_hour, .instance] | join("|")')" \
    "0.4|serverless"

# -- SkyPilot vms.csv slices (file names say the cloud)
KB=$(fresh_kb sky)
run "$GW" --kb "$KB" prices refresh skypilot --input "$CP/skypilot-v7-runpod-vms.slice.csv"
check_rc "skypilot runpod: exit 0" 0
run "$GW" --kb "$KB" --json offers --gpu "A100 80GB PCIe"
# row: 1x_A100-80GB_SECURE,A100-80GB,1.0,8.0,80.0,A100-80GB,CA,1.19,1.64,CA-MTL-1
# RunPod's "A100-80GB" is the PCIe card (its SXM one is "A100-80GB-SXM")
check_eq "skypilot runpod: 1x A100 80GB PCIe in CA at USD 1.64/h" \
    "$(offer '.provider == "RunPod" and .region == "CA" and .spot == false and .instance == "1x_A100-80GB_SECURE"' | jq -r '[.gpu, .gpu_count, .price_per_hour] | join("|")')" \
    "a100-pcie-80gb|1|1.64"
check_eq "skypilot runpod: its spot price USD 1.19/h" \
    "$(offer '.provider == "RunPod" and .region == "CA" and .spot == true and .instance == "1x_A100-80GB_SECURE"' | jq -r .price_per_hour)" "1.19"
run "$GW" --kb "$KB" prices refresh skypilot --input "$CP/skypilot-v7-lambda-vms.slice.csv"
check_rc "skypilot lambda: exit 0" 0
run "$GW" --kb "$KB" --json offers --gpu "V100 SXM2 16GB"
# row: gpu_8x_v100,V100,8.0,92.0,448.0,4.4,us-east-1,"{... 'SizeInMiB': 16384 ...}",
check_eq "skypilot lambda: gpu_8x_v100 = 8x V100 16GB at USD 4.40/h" \
    "$(offer '.instance == "gpu_8x_v100" and .region == "us-east-1" and (.source | startswith("plugin-skypilot"))' | jq -r '[.provider, .gpu_count, .price_per_hour] | join("|")')" \
    "Lambda|8|4.4"
run "$GW" --kb "$KB" prices refresh skypilot --input "$CP/skypilot-v7-gcp-vms.slice.csv"
check_rc "skypilot gcp: exit 0" 0
# the slice has the a2/a3 host VMs but none of the GPU rows they must be joined with, and only
# TPU accelerator rows: nothing can be priced honestly
check_out "skypilot gcp: no offer from host VMs alone" "skypilot: 0 offers stored"
check_err "skypilot gcp: says why" "GCP host VMs without a GPU price row to join"
check_err "skypilot gcp: zero offers from a whole file are pointed out" \
    "skypilot-v7-gcp-vms.slice.csv: no offers found by skypilot in its"
