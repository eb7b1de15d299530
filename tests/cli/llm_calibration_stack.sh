#!/bin/sh
# tests/cli/llm_calibration_stack.sh — a pre-training calibration narrowed by training stack: a
# workload that shards its parameters over its data-parallel GPUs (sharding zero3, FSDP) is
# calibrated on the rows that state zero3, one that does not (Megatron-style: sharding none,
# zero1 or zero2) on the others, each row predicted the same way; fewer than 2 rows of the
# workload's stack fall back to every row, said so.  A row's own recomputation is read from it
# (benchmark recompute), so a workload's full checkpointing is charged once.
# The fixture (tests/fixtures/llm_calibration/stack.csv): Llama 3 8B pre-trained at bf16, 256
# tokens, 8 H100 each, TP1 PP1 CP1 (no layout charge), no global batch stated (no data-parallel
# exchange charged: a row that states none says nothing of what its replicas exchange against;
# tests/cli/llm_data_parallel.sh charges one that does); value = a chosen utilisation x 8 x
# 989.5e12 / the FLOPs of a token its own recomputation costs.  Attention at 256 tokens is
# 4 x 32 layers x 256 x 32 heads x 128 = 134,217,728 FLOPs a pass, so a token is
#   full recomputation: 8 x 8.030e9 + 4 x 134,217,728 = 64.7769e9 FLOPs
#   none:               6 x 8.030e9 + 3 x 134,217,728 = 48.5827e9 FLOPs (exactly 3/4 of it)
#   F1-F3: sharding zero3, recompute full, 30%, 32%, 34% (0.30 x 7.916e15 / 64.7769e9 =
#          36,661.2; 39,105.3; 41,549.4)
#   M1-M3: recompute none, sharding unstated, none and zero1 (all three not zero3), 50%, 54%, 58%
#          (0.50 x 7.916e15 / 48.5827e9 = 81,469.4; 87,987.0; 94,504.5)
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

PRE='task = "train", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, sequence_length = 256, batch_per_gpu = 1, candidates = { "rent:h100-sxm5" }'
wl fsdp "$PRE, sharding = \"zero3\", activation_checkpointing = true"
wl megatron "$PRE, sharding = \"none\", activation_checkpointing = false"
cal='.llm.calibrations[0] | "\(.utilisation * 1e4 | round / 1e4) / \(.used | map(.value) | join(" "))"'
# the one-GPU figure of the 8-GPU offer's speed: "... = 4888 tokens/s a GPU"
per_gpu='.options[] | select(.id == "rent:TestCloud:h100x8:8x h100-sxm5") | .throughput.how | capture("= (?<n>[0-9]+) tokens/s a GPU").n'

KB=$(assumed_shares_kb stack)
run "$GW" --kb "$KB" kb import "$FIX/llm/offers.csv" "$FIX/llm_calibration/stack.csv"
check_rc "stack: the fixture imports (6 pre-training rows, 3 of them zero3)" 0

# ---- a zero3 workload with full checkpointing: the FSDP rows ----
# F1-F3's median, 32%; a GPU at 0.32 x 989.5e12 / 64.7769e9 = 4,888.2 tokens/s, F2's own
# 39,105.3 / 8: its recomputation counted once, as the row ran it.  Unnarrowed, the six rows'
# median would be (34 + 50) / 2 = 42%.
run "$GW" --kb "$KB" decide "$T/fsdp.lua" --json
check_rc "stack: a zero3 workload decides" 0
check_eq "stack: zero3 calibrated on F1-F3, 32%" "$(jqr "$cal")" "0.32 / 36661.2 39105.3 41549.4"
check_eq "stack: ... a GPU at 4,888 tokens/s" "$(jqr "$per_gpu")" "4888"
check_eq "stack: ... its words say the rows' sharding" "$(jqr '.llm.calibrations[0].basis')" \
    "calibrated on 3 measured pre-training rows of llama-3-8b; all fully sharded (zero3) runs, as the workload's training"
check_eq "stack: ... the Megatron-style rows left out, saying why" \
    "$(jqr '.llm.calibrations[0].left_out | map("\(.value) \(.why)") | join("|")')" \
    "81469.4 narrowed to the workload's sharding's rows (fully sharded, zero3, or not)|87987 narrowed to the workload's sharding's rows (fully sharded, zero3, or not)|94504.5 narrowed to the workload's sharding's rows (fully sharded, zero3, or not)"

# ---- leave-one-out: each row from the others of its own stack ----
#   F1 {32, 34} -> 33%: +10%; F2 {30, 34}: 0; F3 {30, 32} -> 31: 31/34 - 1 = -8.82%
#   M1 {54, 58} -> 56%: +12%; M2 0; M3 {50, 54} -> 52: 52/58 - 1 = -10.34%
# Without the stack step F1 would be predicted from {32, 34, 50, 54, 58}: 50%, +66.7%.
check_eq "stack: each row's error by hand (%), by value: F1-F3, M1-M3" \
    "$(jqr '.llm.accuracy.predictions | sort_by(.value) | map("\(.value) \(.error_pct * 100 | round / 100 + 0)") | join("|")')" \
    "36661.2 10|39105.3 0|41549.4 -8.82|81469.4 12|87987 0|94504.5 -10.34"
check_eq "stack: each row names its stack among the rows it came from" \
    "$(jqr '[.llm.accuracy.predictions[] | .calibrated_from] | unique | join("|")')" \
    "not zero3, dense, llama-3-8b|zero3, dense, llama-3-8b"

# ---- a Megatron-style workload (sharding none, no checkpointing): the others ----
# M1-M3's median, 54%; a GPU at 0.54 x 989.5e12 / 48.5827e9 = 10,998.4 tokens/s.
run "$GW" --kb "$KB" decide "$T/megatron.lua" --json
check_rc "stack: a Megatron-style workload decides" 0
check_eq "stack: not zero3 calibrated on M1-M3, 54%" "$(jqr "$cal")" "0.54 / 81469.4 87987 94504.5"
check_eq "stack: ... a GPU at 10,998 tokens/s" "$(jqr "$per_gpu")" "10998"
check_eq "stack: ... its words say the rows' sharding" "$(jqr '.llm.calibrations[0].basis')" \
    "calibrated on 3 measured pre-training rows of llama-3-8b; none fully sharded (zero3), as the workload's training is not"

# ---- a row's recomputation is its own ----
# The same FSDP rows with their recomputation unstated are read at 48.5827e9 FLOPs a token, 3/4
# of what they ran: F2 implies 0.32 x 3/4 = 24%, and the workload, charged its own full
# checkpointing, gets 0.24 x 989.5e12 / 64.7769e9 = 3,666 tokens/s a GPU, a quarter under what
# the rows measured.
sed 's/,1,,full,,,zero3$/,1,,,,,zero3/' "$FIX/llm_calibration/stack.csv" >"$T/unstated.csv"
KB2=$(assumed_shares_kb stack-unstated)
run "$GW" --kb "$KB2" kb import "$FIX/llm/offers.csv" "$T/unstated.csv"
run "$GW" --kb "$KB2" decide "$T/fsdp.lua" --json
check_eq "stack: rows that state no recomputation imply 3/4 of it, 24%" \
    "$(jqr '.llm.calibrations[0].utilisation * 1e4 | round / 1e4')" "0.24"
check_eq "stack: ... a GPU at 3,666 tokens/s" "$(jqr "$per_gpu")" "3666"

# ---- too few rows of the workload's stack: every row, said so ----
# With F2 and F3 gone, F1 is the one zero3 row, under 2: the zero3 workload takes every row,
# {30, 50, 54, 58}: (50 + 54) / 2 = 52%; a GPU at 0.52 x 989.5e12 / 64.7769e9 = 7,943.3.
sqlite3 "$KB" "DELETE FROM benchmark WHERE note LIKE 'F2:%' OR note LIKE 'F3:%'"
run "$GW" --kb "$KB" decide "$T/fsdp.lua" --json
check_eq "stack: one zero3 row: every row calibrates, 52%" "$(jqr "$cal")" \
    "0.52 / 36661.2 81469.4 87987 94504.5"
check_eq "stack: ... a GPU at 7,943 tokens/s" "$(jqr "$per_gpu")" "7943"
check_eq "stack: ... its words say it fell back" "$(jqr '.llm.calibrations[0].basis')" \
    "calibrated on 4 measured pre-training rows of llama-3-8b; 1 of them fully sharded (zero3) as the workload's training: fewer than 2 such rows are usable, so rows of every sharding calibrate it"
