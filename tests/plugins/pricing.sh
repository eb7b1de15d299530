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
# (gpu_fraction 1), no minimum billing, no system, no network stated (the last five columns of
# kb export's prices.csv).
check_eq "cn-market: its 10 offers are stored as anecdotes" \
    "$("$GW" --kb "$KB" kb export | grep -E 'Unnamed CN platform|quoted range' | grep -c ',anecdote,1,,,$')" "10"

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
# rows: h100x8 on-demand + spot, h100x1 on-demand; "$1,45 / hr" is ambiguous and the
# "Contact sales" row has no price: 3 offers
check_out "html-table: 3 offers" "html-table: 3 offers stored"
run "$GW" --kb "$KB" --json offers --gpu h100-sxm5
check_eq "html-table: acme.h100x8, 8 GPUs at USD 22.40/h, as of 2026-10-01" \
    "$(offer '.instance == "acme.h100x8" and .spot == false' | jq -r '[.provider, .gpu_count, .price_per_hour, .currency, .as_of] | join("|")')" \
    "Acme GPU Cloud|8|22.4|USD|2026-10-01"
check_num "html-table: its price per GPU-hour (22.40 / 8 = 2.80)" \
    "$(offer '.instance == "acme.h100x8" and .spot == false' | jq -r .price_per_gpu_hour)" 2.8 0.0001

if ! have_testdata; then
    skip "pricing on real files" "../shared/testdata not found"
    exit 0
fi
CP="$TESTDATA/cloud_prices"

# -- FSDL cloud-gpus.csv
KB=$(fresh_kb fsdl)
run "$GW" --kb "$KB" prices refresh fsdl --input "$CP/fsdl-cloud-gpus.csv"
check_rc "fsdl: exit 0" 0
check_err "fsdl: names the GPU types it could not place" "RTX4000 (8 GB) (3 rows)"
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
