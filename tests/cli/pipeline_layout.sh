#!/bin/sh
# tests/cli/pipeline_layout.sh — a training row's stated pipeline stage layout (benchmark
# pipeline_layout, schema 16, Megatron's notation): a row's implied utilisation moves by the
# heaviest stage's work over the mean and by its MTP layers' FLOPs, each computed by hand; a
# malformed layout is refused at import with one line naming the file, line and problem (exit
# 65, the KB unchanged); a stated one survives export and import.
# The rows are tests/fixtures/llm_accuracy_words/within.csv's: Llama 3 8B pre-training on H100s
# at 32%, 34% and 36% (tests/cli/llm_accuracy_words.sh), 256 tokens a sequence, each implying
# its utilisation x 1.008357 (attention's FLOPs, the same for every row).
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

wl pre8 'task = "train", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, sequence_length = 256, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
four='.llm.accuracy.predictions[] | select(.gpu_count == 4)'

within_kb() {
    _kb=$(assumed_shares_kb "layout-$1") &&
        "$GW" --kb "$_kb" kb import "$FIX/llm/offers.csv" "$FIX/llm_accuracy_words/within.csv" >/dev/null &&
        echo "$_kb"
}

# ---- the heaviest stage sets the pace ----
# The 4-GPU row (36%) states 2 pipeline stages, "Et*16|t*16L" (no micro-batches stated, so no
# bubble).  In model_llm_train_flops_per_token's units at 256 tokens:
#   a layer = (6 x (8.030e9 - 2 x 128,256 x 4,096) + 3 x 4 x 32 x 256 x 32 x 128) / 32
#           = (41,875,961,088 + 402,653,184) / 32 = 1,321,206,696 FLOPs a token (the
#           catalog's 8.030e9 parameters);
#   the output head = 6 x 128,256 x 4,096 = 3,152,019,456; the embedding nothing.
# Stage 1: 16 layers = 21,139,307,136; stage 2: 16 layers + the head = 24,291,326,592; mean
# 22,715,316,864: imbalance 24,291,326,592 / 22,715,316,864 = 1.0693809.  The row's GPUs did
# that much more than its tokens need: it implies 36% x 1.008357 x 1.0693809, and predicted at
# the others' 33% (median of 32% and 34%): 33 / (36 x 1.0693809) - 1 = -14.28%.
KB=$(within_kb even)
sqlite3 "$KB" "UPDATE benchmark SET pipeline_parallel = 2, pipeline_layout = 'Et*16|t*16L' WHERE gpu_count = 4 AND source = 'words-within'"
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_rc "imbalance: decides" 0
check_num "imbalance: the row implies 36% x 1.0693809" \
    "$(jqr "$four | .implied / (0.36 * 1.008357)")" 1.0693809 0.0005
check_num "imbalance: stage_imbalance 24.291 / 22.715 GFLOP" "$(jqr "$four | .stage_imbalance")" 1.0693809 0.000001
check_num "imbalance: its layout share 1 / 1.0693809" "$(jqr "$four | .layout_share")" 0.9351205 0.000001
check_num "imbalance: predicted at the others' 33%, -14.28%" "$(jqr "$four | .error_pct")" -14.28 0.05
check_num "imbalance: a row without a layout is as before (32% x 1.008357)" \
    "$(jqr '.llm.accuracy.predictions[] | select(.gpu_count == 1) | .implied / 0.32')" 1.008357 0.0005

# ---- an MTP layer: more work on the last stage, and FLOPs the model does not count ----
# "Et*16|t*16mL": the MTP layer is a layer, its projection 6 x 2 x 4,096^2 = 201,326,592 and
# its own head: 4,674,552,744.  Stage 2: 17 layers + 2 heads + the projection =
# 22,460,513,832 + 6,304,038,912 + 201,326,592 = 28,965,879,336; mean (21,139,307,136 +
# 28,965,879,336) / 2 = 25,052,593,236: imbalance 1.1562028.  The MTP layer's work over the
# model's FLOPs a token (6 x 8.030e9 + 3 x 4 x 32 x 256 x 32 x 128 = 48,582,653,184):
# 0.0962186.  Together x 1.1562028 x 1.0962186 = 1.2674510; predicted at 33%:
# 33 / (36 x 1.2674510) - 1 = -27.68%.
sqlite3 "$KB" "UPDATE benchmark SET pipeline_layout = 'Et*16|t*16mL' WHERE gpu_count = 4 AND source = 'words-within'"
run "$GW" --kb "$KB" decide "$T/pre8.lua" --json
check_num "mtp: the row implies 36% x 1.2674510" \
    "$(jqr "$four | .implied / (0.36 * 1.008357)")" 1.2674510 0.0005
check_num "mtp: stage_imbalance 28.966 / 25.053 GFLOP" "$(jqr "$four | .stage_imbalance")" 1.1562028 0.000001
check_num "mtp: extra_work 4.675 / 48.583 GFLOP" "$(jqr "$four | .extra_work")" 0.0962186 0.000001
check_num "mtp: predicted at the others' 33%, -27.68%" "$(jqr "$four | .error_pct")" -27.68 0.05

# ---- import: a malformed layout is one line naming the file, line and problem ----
HEADER=$(head -1 "$ROOT/kb/data/benchmarks.csv")
# row LAYOUT PP VP: a Megatron Bridge DeepSeek-V3 row with that layout and widths.
row() {
    printf '%s\n%s\n' "$HEADER" "b200,256,deepseek-v3,train_throughput,547584,tokens/s,fp8,8,megatron-bridge,,,megatron-bridge-perf-25-11,a layout test,,4096,,1,$2,1,8,$3,1,2048,selective,,$1,"   # its sharding (schema 17) unstated
}
KB=$(fresh_kb import)
before=$("$GW" --kb "$KB" kb export | cksum)
refused() {   # NAME LAYOUT PP VP MESSAGE
    row "$2" "$3" "$4" >"$T/bad.csv"
    run "$GW" --kb "$KB" kb import "$T/bad.csv"
    check_rc "$1: exit 65" 65
    check_eq "$1: one line naming the file, line and problem" "$ERR" \
        "gpuwise kb import: $T/bad.csv:2: pipeline_layout: $5"
    check_eq "$1: the KB unchanged" "$("$GW" --kb "$KB" kb export | cksum)" "$before"
}
refused "a symbol" 'Et*4|(t*4|)*14tmX' 16 '' \
    "'Et*4|(t*4|)*14tmX' is not a pipeline stage layout: 'X' is not a stage symbol (E embedding, t transformer layer, m MTP layer, L loss and output head, '|' between stages) at character 17"
refused "a group never closed" 'Et*4|(t*4|' 16 '' \
    "'Et*4|(t*4|' is not a pipeline stage layout: a '(' never closed at character 6"
refused "the loss early" 'Et*4|(t*4|)*14tL|m' 16 '' \
    "'Et*4|(t*4|)*14tL|m' is not a pipeline stage layout: L (the loss) before the last stage (stage 16)"
# 15 stages where PP16 x VP1 run 16
refused "stages against PP x VP" 'Et*4|(t*4|)*13tmL' 16 '' \
    "'Et*4|(t*4|)*13tmL' names 15 stages; pipeline_parallel 16 x virtual_pipeline 1 run 16"
# 16 stages where PP4 x VP2 run 8
refused "virtual stages counted" 'Et*4|(t*4|)*14tmL' 4 2 \
    "'Et*4|(t*4|)*14tmL' names 16 stages; pipeline_parallel 4 x virtual_pipeline 2 run 8"
refused "no pipeline_parallel" 'Et*4|(t*4|)*14tmL' '' '' \
    "a layout needs the row's pipeline_parallel"

# ---- a stated layout round-trips ----
row 'Et*4|(t*4|)*14tmL' 16 '' >"$T/good.csv"
run "$GW" --kb "$KB" kb import "$T/good.csv"
check_rc "a well-formed layout imports" 0
run "$GW" --kb "$KB" kb export
check_out "export writes it as stated" ",selective,,Et*4|(t*4|)*14tmL"
printf '%s\n' "$OUT" >"$T/export.txt"
KB2=$(fresh_kb import2)
sqlite3 "$KB2" "DELETE FROM benchmark WHERE pipeline_layout IS NOT NULL"
run "$GW" --kb "$KB2" kb import "$T/export.txt"
check_rc "the export imports" 0
check_eq "the export imports to the same KB" "$("$GW" --kb "$KB2" kb export | cksum)" \
    "$(cksum <"$T/export.txt")"
