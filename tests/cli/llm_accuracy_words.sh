#!/bin/sh
# tests/cli/llm_accuracy_words.sh — the model's leave-one-out accuracy against its targets (15%
# at the median, 40% at most): the one-line words of decide and the report say whether each
# figure is within its target and name the worst row where the maximum is above it;
# llm.accuracy.targets and meets_targets say it in --json (for all rows and for each kind).
# Each fixture (tests/fixtures/llm_accuracy_words/) holds Llama 3 8B pre-training rows on H100s
# at chosen utilisations, value = utilisation x GPUs x 989.5e12 / 4.818e10 (6 x 8.030e9 FLOPs a
# token; the model adds attention's, the same factor for every row, so the ratios below hold).
# Each row is predicted at the median of the others' utilisations: error = median / own - 1.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

wl pre8 'task = "train", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, sequence_length = 256, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
wl lora8 'task = "finetune", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, finetune = { method = "lora", rank = 16 }, activation_checkpointing = false, sequence_length = 256, batch_per_gpu = 1, candidates = { "rent:h100-sxm5" }'
acc='.llm.accuracy | [.targets.median_pct, .targets.max_pct, .meets_targets, (.kinds[] | .meets_targets)] | map(tostring) | join(" ")'

# fixture_kb NAME: a KB without the shipped measured rows, with the fixture NAME's alone.
fixture_kb() {
    _kb=$(assumed_shares_kb "words-$1") &&
        "$GW" --kb "$_kb" kb import "$FIX/llm/offers.csv" "$FIX/llm_accuracy_words/$1.csv" >/dev/null &&
        echo "$_kb"
}

# ---- within both targets ----
# 32%, 34%, 36%: 32 -> median(34, 36) = 35, +9.375% (faster than measured); 34 -> 34, 0;
# 36 -> 33, -8.33%.  Median 8.33% (8%), most 9.375% (9%): within 15% and 40%; the workload's
# kind's worst row named all the same (the 1-GPU row at 32%, faster), the overall one not.
KB=$(fixture_kb within)
run "$GW" --kb "$KB" decide "$T/pre8.lua"
check_rc "within: decides" 0
check_out "within: both figures within their targets, only the kind's worst row named" \
    "Model accuracy: predicting each of the KB's 3 measured pre-training results from the others, the speed model is 8% off at the median and 9% at most (faster than measured, on 1x h100-sxm5, llama-3-8b), within its 15% and 40% targets; over all 3 LLM results, 8% and 9%, within its 15% and 40% targets."
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "within: median 8.33% (|33/36 - 1|)" "$(jqr '.llm.accuracy.median_error_pct')" 8.3333 0.001
check_num "within: max 9.375% (35/32 - 1)" "$(jqr '.llm.accuracy.max_error_pct')" 9.375 0.001
check_eq "within: targets 15 and 40, met overall and by pre-training" "$(jqr "$acc")" "15 40 true true"

# ---- the maximum above its target ----
# 30%, 32%, 34%, 60%: 30 -> median(32, 34, 60) = 34, +13.33%; 32 -> 34, +6.25%; 34 -> 32,
# -5.88%; 60 -> median(30, 32, 34) = 32, -46.67%.  Median (6.25 + 13.33) / 2 = 9.79% (10%), most
# 46.67% (47%): the median within 15%, the worst case above 40%, on the 8-GPU row, slower.
KB=$(fixture_kb worst)
run "$GW" --kb "$KB" decide "$T/pre8.lua"
check_out "worst: the maximum above its target, the worst row named" \
    "Model accuracy: predicting each of the KB's 4 measured pre-training results from the others, the speed model is 10% off at the median and 47% at most (slower than measured, on 8x h100-sxm5, llama-3-8b), the worst case above its 40% target; over all 4 LLM results, 10% and 47%, the worst case above its 40% target."
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "worst: median 9.79% ((6.25 + 13.33) / 2)" "$(jqr '.llm.accuracy.median_error_pct')" 9.7917 0.001
check_num "worst: max 46.67% (|32/60 - 1|)" "$(jqr '.llm.accuracy.max_error_pct')" 46.667 0.001
check_eq "worst: targets not met" "$(jqr "$acc")" "15 40 false false"
check_eq "worst: the worst row in JSON" "$(jqr '.llm.accuracy.worst')" \
    "8x h100-sxm5, llama-3-8b train_throughput, words-worst"
# A LoRA workload has no row of its kind: the line is over all rows, still naming the worst,
# its kind said, and stays short (43 words with the report's label).
run "$GW" --kb "$KB" decide "$T/lora8.lua"
check_out "worst: a workload of another kind reads all rows, the worst named" \
    "Model accuracy: predicting each of the KB's 4 measured LLM results from the others, the speed model is 10% off at the median and 47% at most (8x h100-sxm5, llama-3-8b, pre-training), the worst case above its 40% target; none is of this kind."
run "$GW" --kb "$KB" report "$T/pre8.lua" --format md
check_out "worst: the report says it" \
    "**Model accuracy:** predicting each of the KB's 4 measured pre-training results from the others, the speed model is 10% off at the median and 47% at most (slower than measured, on 8x h100-sxm5, llama-3-8b), the worst case above its 40% target;"

# ---- a maximum just above its target: judged exactly, printed with one decimal ----
# 20%, 28.06%, 28.06%: 20 -> median(28.06, 28.06) = 28.06, +40.3%; each 28.06 -> median(20,
# 28.06) = 24.03, -14.36%.  Median 14.36% (14%), most 40.3%: above 40% though the whole percent
# would print "40%", so it prints "40.3%" and says the target is missed.
KB=$(fixture_kb edge)
run "$GW" --kb "$KB" decide "$T/pre8.lua"
check_out "edge: a maximum of 40.3% is above its 40% target, printed with its decimal" \
    "the speed model is 14% off at the median and 40.3% at most (faster than measured, on 1x h100-sxm5, llama-3-8b), the worst case above its 40% target"
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "edge: max 40.3% (28.06/20 - 1)" "$(jqr '.llm.accuracy.max_error_pct')" 40.3 0.01
check_eq "edge: targets not met" "$(jqr "$acc")" "15 40 false false"

# ---- the median above its target ----
# 30%, 36%, 42%: 30 -> median(36, 42) = 39, +30%; 36 -> 36, 0; 42 -> 33, -21.43%.  Median
# 21.43% (21%), most 30%: the median above 15%, the worst case within 40% (the kind's worst row,
# the 1-GPU row at 30%, named all the same).
KB=$(fixture_kb median)
run "$GW" --kb "$KB" decide "$T/pre8.lua"
check_out "median: the median above its target" \
    "Model accuracy: predicting each of the KB's 3 measured pre-training results from the others, the speed model is 21% off at the median and 30% at most (faster than measured, on 1x h100-sxm5, llama-3-8b), the median above its 15% target; over all 3 LLM results, 21% and 30%, the median above its 15% target."
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "median: median 21.43% (|33/42 - 1|)" "$(jqr '.llm.accuracy.median_error_pct')" 21.4286 0.001
check_num "median: max 30% (39/30 - 1)" "$(jqr '.llm.accuracy.max_error_pct')" 30 0.001
check_eq "median: targets not met" "$(jqr "$acc")" "15 40 false false"

# ---- recomputation a row states is charged ----
# The 'within' rows with the 36% row (4 GPUs) stating full recomputation over 8 of Llama 3 8B's
# 32 layers: its FLOPs a token grow by a quarter of what recomputing every layer adds, one more
# forward pass (2 x 8.030e9 and one of attention's 3 passes), so from 6N + 3A to 6.5N + 3.25A:
# x 13/12 = 1.0833 exactly; it implies 36% x 1.0833 = 39% (each figure x 1.008357, attention's
# factor, as every row's).  Predicted from 32% and 34% (median 33%) at its larger FLOPs:
# 33 / 39 - 1 = -15.38%.
KB=$(fixture_kb within)
sqlite3 "$KB" "UPDATE benchmark SET recompute = 'full', recompute_layers = 8 WHERE gpu_count = 4 AND source = 'words-within'"
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "recompute: the row implies 36% x 13/12 of work done" \
    "$(jqr '.llm.accuracy.predictions[] | select(.gpu_count == 4) | .implied / (0.36 * 1.008357)')" 1.08333 0.0005
check_num "recompute: predicted at the others' 33%, -15.4%" \
    "$(jqr '.llm.accuracy.predictions[] | select(.gpu_count == 4) | .error_pct')" -15.38 0.1
# selective recomputes what FlashAttention recomputes anyway: no FLOPs added, 36% as before.
sqlite3 "$KB" "UPDATE benchmark SET recompute = 'selective', recompute_layers = NULL WHERE gpu_count = 4 AND source = 'words-within'"
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "recompute: selective adds nothing" \
    "$(jqr '.llm.accuracy.predictions[] | select(.gpu_count == 4) | .implied / 0.36')" 1.008357 0.0005
