#!/bin/sh
# tests/cli/llm_calibration_layout.sh — a language model's calibration narrowed by layout and by
# GPU vendor: a row that splits each sequence over GPUs (context parallel) is predicted from rows
# of that layout, a decision (whose layouts never split one) calibrated on rows without it; and a
# decision calibrates each option at its GPU vendor's rows, as the leave-one-out accuracy does,
# one calibration a vendor (llm.calibrations), said in the speed's, the method's and the
# assumptions' words.
# The fixture (tests/fixtures/llm_calibration/vendors.csv; no row states its global batch, so no
# data-parallel exchange is charged: tests/cli/llm_data_parallel.sh): LoRA rows of Llama 3 8B at
# bf16, 256 tokens, 8 GPUs each; value = a chosen utilisation x its layout's share x 8 x the GPU's dense
# BF16 rate / (4 x 8.030e9 = 3.212e10 FLOPs a token): a GPU at 100% is 989.5e12 / 3.212e10 =
# 30,806.35 tokens/s on an H100, 1,307.4e12 / 3.212e10 = 40,703.61 on an MI300X.  The model adds
# attention's FLOPs (x 1.012536 at 256 tokens, the same for every row), so each row implies its
# chosen utilisation x 1.012536 and a speed computed at that implied figure is the chosen one's:
#   N1-N3: H100, no context parallelism, 30%, 34%, 38% (73,935.2  83,793.3  93,651.3)
#   A1-A3: MI300X, 20%, 22%, 24% (0.20 x 8 x 40,703.61 = 65,125.8; 71,638.4; 78,150.9)
#   C1-C3: H100, context parallel 2 over NVLink, its group charged 0.85 (as a tensor-parallel
#          one): 20%, 22%, 24% (0.20 x 0.85 x 8 x 30,806.35 = 41,896.6; 46,086.3; 50,276.0)
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

LORA='task = "finetune", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, finetune = { method = "lora", rank = 16 }, activation_checkpointing = false, sequence_length = 256, batch_per_gpu = 1'
wl both "$LORA, candidates = { \"rent:h100-sxm5\", \"rent:mi300x\" }"
wl nvidia "$LORA, candidates = { \"rent:h100-sxm5\" }"
h100='.options[] | select(.id == "rent:TestCloud:h100x1:1x h100-sxm5")'
mi300x='.options[] | select(.id == "rent:TestCloud:mi300x1:1x mi300x")'
cals='.llm.calibrations | map([.vendor, (.gpu_vendors | join(",")), (.utilisation * 1e4 | round / 1e4), (.used | map(.value) | join(" "))] | map(tostring) | join(" / ")) | join(" | ")'

KB=$(assumed_shares_kb vendors)
run "$GW" --kb "$KB" kb import "$FIX/llm/offers.csv" "$FIX/llm_calibration/vendors.csv"
check_rc "vendors: the fixture imports (an MI300X offer, 9 LoRA rows)" 0

# ---- leave-one-out: each row from the others of its vendor, architecture, model and layout ----
# Each row is predicted at the median of the others that pass every narrowing leaving 2:
#   N1: NVIDIA, llama-3-8b, no context parallelism {34, 38} -> 36%: +20%; N2 {30, 38} 34: 0;
#       N3 {30, 34} 32: 32/38 - 1 = -15.79%
#   C1: NVIDIA, llama-3-8b, context parallel {22, 24} -> 23%: +15%; C2 0; C3 21/24 - 1 = -12.5%
#   A1: AMD {22, 24} -> 23%: +15%; A2 0; A3 -12.5% (every AMD row splits no sequence: the
#       layout step takes none away and is not named)
# Sorted |errors|: 0 0 0 12.5 12.5 15 15 15.79 20: median 12.5% (the 5th of 9), max 20% (N1).
# Without the layout step N1 would be predicted from {20, 22, 24, 34, 38}: 24%, -20%; C1 from
# {22, 24, 30, 34, 38}: 30%, +50%.
run "$GW" --kb "$KB" decide "$T/both.lua" --json
check_rc "vendors: a decision over H100 and MI300X options" 0
check_eq "layout: each row's error by hand (%), by value: C1-C3, A1, A2, N1, A3, N2, N3" \
    "$(jqr '.llm.accuracy.predictions | sort_by(.value) | map("\(.value) \(.error_pct * 100 | round / 100 | fabs)") | join("|")')" \
    "41896.6 15|46086.3 0|50276 12.5|65125.8 15|71638.4 0|73935.2 20|78150.9 12.5|83793.3 0|93651.3 15.79"
check_eq "layout: each row names the rows it came from, its layout among them" \
    "$(jqr '[.llm.accuracy.predictions[] | .calibrated_from] | unique | join("|")')" \
    "AMD, dense, llama-3-8b|NVIDIA, dense, llama-3-8b, context parallel|NVIDIA, dense, llama-3-8b, no context parallel"
check_eq "layout: median 12.5%, max 20%" \
    "$(jqr '.llm.accuracy | [.median_error_pct, .max_error_pct] | map(. * 100 | round / 100 | tostring) | join(" ")')" "12.5 20"

# ---- a decision: one calibration a vendor ----
# The H100 options: NVIDIA's rows (N1-N3, C1-C3), those of Llama 3 8B (all), those without
# context parallelism (N1-N3): median 34% (x 1.012536 = 34.4262%); one H100 at 0.34 x 989.5e12 /
# 3.212e10 = 10,474.2 tokens/s.  The MI300X option: AMD's rows, A1-A3: 22% (22.2758%); 0.22 x
# 1,307.4e12 / 3.212e10 = 8,954.8.  Unnarrowed by vendor (as before), both would be calibrated
# on N1-N3 and A1-A3: (24 + 30) / 2 = 27%.
check_eq "vendors: two calibrations, NVIDIA's (N1-N3) and AMD's (A1-A3)" \
    "$(jqr "$cals")" \
    "NVIDIA / NVIDIA / 0.3443 / 73935.2 83793.3 93651.3 | AMD / AMD / 0.2228 / 65125.8 71638.4 78150.9"
check_num "vendors: one H100 at 34%: 10,474.2 tokens/s" "$(jqr "$h100 | .throughput.value")" 10474.2 0.5
check_num "vendors: one MI300X at 22%: 8,954.8 tokens/s" "$(jqr "$mi300x | .throughput.value")" 8954.8 0.5
# Each band is its own calibration's leave-one-out error, the used rows predicted from each other
# (the 80th percentile by nearest rank, the 3rd of 3): NVIDIA's 20, 0, 15.79 -> x 1.20; AMD's
# 15, 0, 12.5 -> x 1.15.
check_num "vendors: the H100's band, x 1.20" "$(jqr "$h100 | .throughput.high / .throughput.value")" 1.20 0.0001
check_num "vendors: the MI300X's band, x 1.15" "$(jqr "$mi300x | .throughput.high / .throughput.value")" 1.15 0.0001
utilisation_words='.throughput.how | capture("x (?<u>[0-9]+% utilisation [(][^)]*[)])").u'
# NVIDIA's words count the rows their layout left out (C1-C3, context parallel: 3); AMD's rows
# have none.
check_eq "vendors: each speed names its vendor's rows" \
    "$(jqr "[(($h100), ($mi300x)) | $utilisation_words] | join(\"|\")")" \
    "34% utilisation (calibrated on 3 measured NVIDIA LoRA fine-tune rows of llama-3-8b; 3 context-parallel rows left out)|22% utilisation (calibrated on 3 measured AMD LoRA fine-tune rows of llama-3-8b)"
check_eq "vendors: the rows left out say why (another vendor's, or context parallel)" \
    "$(jqr '.llm.calibrations[0].left_out | map("\(.value) \(.why)") | join("|")')" \
    "41896.6 narrowed to rows that split no sequence over GPUs (context parallel), as the workload's layouts|46086.3 narrowed to rows that split no sequence over GPUs (context parallel), as the workload's layouts|50276 narrowed to rows that split no sequence over GPUs (context parallel), as the workload's layouts|65125.8 narrowed to the options' GPU vendor's rows|71638.4 narrowed to the options' GPU vendor's rows|78150.9 narrowed to the options' GPU vendor's rows"
check_eq "vendors: the trace says the context-parallel rows are left out" \
    "$(jqr '[.trace[] | select(startswith("LLM calibration (LoRA fine-tune): calibrated on 3 measured NVIDIA") and endswith("; rows that split a sequence over GPUs (context parallel) left out: no layout here does"))] | length')" "1"
check_eq "vendors: the method states each vendor's utilisation" \
    "$(jqr '.method.scaling | contains("the utilisation is 34% (calibrated on 3 measured NVIDIA LoRA fine-tune rows of llama-3-8b; 3 context-parallel rows left out) on NVIDIA GPUs, 22% (calibrated on 3 measured AMD LoRA fine-tune rows of llama-3-8b) on AMD GPUs, of every FLOP")')" "true"
check_eq "vendors: ... and each one's band" \
    "$(jqr '[.method.scaling | scan("band [(]throughput.low and throughput.high[)] on [A-Z]+ GPUs is the utilisation.s leave-one-out error on the 3 measured rows, [0-9.]+%")] | join("|")')" \
    "band (throughput.low and throughput.high) on NVIDIA GPUs is the utilisation's leave-one-out error on the 3 measured rows, 20.0%|band (throughput.low and throughput.high) on AMD GPUs is the utilisation's leave-one-out error on the 3 measured rows, 15.0%"
check_eq "vendors: the assumptions name both" \
    "$(jqr '[.assumptions[].text | select(startswith("A GPU computes the model"))] | join("|")')" \
    "A GPU computes the model at a share of its dense tensor rate calibrated apart for its vendor: NVIDIA GPUs 34% (calibrated on 3 measured NVIDIA LoRA fine-tune rows of llama-3-8b; 3 context-parallel rows left out); AMD GPUs 22% (calibrated on 3 measured AMD LoRA fine-tune rows of llama-3-8b) (llm.calibrations in --json names them)."
# The utilisation's what-if is of the recommendation's own (an H100's, 34.4262%): scanned up to
# all of the rate, 1 / 0.344262 = 2.905, +190%.
check_eq "vendors: the utilisation's what-if scans the recommendation's vendor's figure" \
    "$(jqr '.sensitivity.parameters[] | select(.parameter == "llm_mfu") | .flip_text')" \
    "does not change the answer from -95% to +190%"

# Options of one vendor: one calibration, the words as they were with no vendor list (C1-C3 left
# out for their layout, counted).
run "$GW" --kb "$KB" decide "$T/nvidia.lua" --json
check_eq "vendors: NVIDIA options alone compute NVIDIA's calibration alone" \
    "$(jqr "$cals")" "NVIDIA / NVIDIA / 0.3443 / 73935.2 83793.3 93651.3"
check_eq "vendors: ... its assumption in one sentence" \
    "$(jqr '[.assumptions[].text | select(startswith("A GPU computes the model"))] | join("|")')" \
    "A GPU computes the model at 34% of its dense tensor rate: calibrated on 3 measured NVIDIA LoRA fine-tune rows of llama-3-8b; 3 context-parallel rows left out (llm.calibrations in --json names them)."

# A vendor with too few rows of its own takes the rows of every vendor: with A2 and A3 gone,
# AMD's one row is under 2, so the MI300X is calibrated on Llama 3 8B's rows without context
# parallelism, N1-N3 and A1: (30 + 34) / 2 = 32% (x 1.012536 = 32.4012%), named by no vendor;
# one MI300X at 0.32 x 1,307.4e12 / 3.212e10 = 13,025.2 tokens/s.  The H100s keep NVIDIA's 34%.
sqlite3 "$KB" "DELETE FROM benchmark WHERE note LIKE 'A2:%' OR note LIKE 'A3:%'"
run "$GW" --kb "$KB" decide "$T/both.lua" --json
check_eq "vendors: too few AMD rows: the MI300X on every vendor's rows" \
    "$(jqr "$cals")" \
    "NVIDIA / NVIDIA / 0.3443 / 73935.2 83793.3 93651.3 | null / AMD / 0.324 / 73935.2 83793.3 93651.3 65125.8"
check_num "vendors: ... one MI300X at 32%: 13,025.2 tokens/s" "$(jqr "$mi300x | .throughput.value")" 13025.2 0.5
# (C1-C3, NVIDIA's context-parallel rows, are left out of it too: its layout step still narrows)
check_eq "vendors: ... its words name no vendor" \
    "$(jqr '.llm.calibrations[1].basis')" "calibrated on 4 measured LoRA fine-tune rows of llama-3-8b; 3 context-parallel rows left out"

# ---- serving: the shipped KB's rows, NVIDIA's and AMD's ----
# llm-serving with an MI300X offer among its candidates: the NVIDIA options and the MI300X each
# take their vendor's serving rows (the shipped KB holds 4 AMD dense rows at fp8), and the
# assumption says each vendor's shares in a sentence of their own.
sed 's/"rent:a100-sxm4-80gb" },/"rent:a100-sxm4-80gb", "rent:mi300x" },/' "$ROOT/examples/llm-serving.lua" >"$T/serving.lua"
run "$GW" decide "$T/serving.lua" --json
check_eq "vendors (serving): one calibration a vendor" \
    "$(jqr '.llm.calibrations | map("\(.vendor) \(.gpu_vendors | join(","))") | join("|")')" "NVIDIA NVIDIA|AMD AMD"
check_eq "vendors (serving): the assumptions, a sentence a vendor" \
    "$(jqr '[.assumptions[].text | scan("([A-Z]+) GPUs compute the model at") | .[0]] | join("|")')" "NVIDIA|AMD"
check_eq "vendors (serving): the method, each vendor's shares" \
    "$(jqr '[.method.scaling | scan("(NVIDIA|AMD) GPUs, [0-9]+% of the bandwidth and [0-9]+% utilisation: those shares are calibrated on [0-9]+ measured (NVIDIA|AMD) serving rows") | .[0] + .[1]] | join("|")')" \
    "NVIDIANVIDIA|AMDAMD"

