#!/bin/sh
# tests/cli/llm_data_parallel.sh — a measured training row's data-parallel exchange is divided
# out of the utilisation it implies, and an option's own is charged, through the one path both
# take (decide_llm_train_tokens): the calibrated utilisation is the GPUs' own, and each row's
# leave-one-out prediction pays its own exchange as an option does, so the loss is counted once.
# The fixture (tests/fixtures/llm_data_parallel/rows.csv): two Llama 3 8B pre-training rows at
# bf16, 8,192 tokens, on 8 H100 of one machine (NVLink, 900 / 2 = 450 GB/s each way), TP1, no
# recomputation, fully sharded (zero3), whose GPUs compute at 40%:
#   FLOPs a token 6 x 8.030e9 + 12 x 32 x 8,192 x 4,096 = 61.0649e9; a GPU at 40%:
#   0.40 x 989.5e12 / 61.0649e9 = 6,481.63 tokens/s
#   exchanged a step: 8.030e9 x 2 B (bf16) x 1.5 (zero3 gathers the weights again) = 24.09 GB,
#   2 x 7/8 x 24.09 / 450 = 0.093683 s
#   data-parallel efficiency = compute / (compute x 1.03 + exchange) (model.h's 3% sync)
#   R1, global batch 16: a replica's step 16 x 8,192 / 8 = 16,384 tokens, compute 16,384 /
#       6,481.63 = 2.52776 s, efficiency 2.52776 / (2.60359 + 0.093683) = 93.715%:
#       8 x 6,481.63 x 0.93715 = 48,594.2 tokens/s
#   R2, global batch 32: 32,768 tokens, 5.05552 s, 5.05552 / (5.20719 + 0.093683) = 95.372%:
#       49,453.0 tokens/s
# Read end to end (tokens/s x FLOPs / (GPUs x rate)) they are 37.49% and 38.15%, the figures a
# calibration took before: their median, 37.82%, then lost the option's exchange a second time.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

wl pre 'task = "train", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, sequence_length = 8192, batch_per_gpu = 1, activation_checkpointing = false, sharding = "zero3", work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
KB=$(assumed_shares_kb dp)
run "$GW" --kb "$KB" kb import "$FIX/llm/offers.csv" "$FIX/llm_data_parallel/rows.csv"
check_rc "dp: the fixture imports" 0

run "$GW" --kb "$KB" decide "$T/pre.lua" --json
check_rc "dp: decides" 0
rows='.llm.accuracy.predictions | sort_by(.value)'
check_eq "dp: each row's data-parallel efficiency at its own step, by hand (%)" \
    "$(jqr "[$rows[] | .data_parallel_efficiency * 1e5 | round / 1e3] | map(tostring) | join(\" \")")" \
    "93.715 95.372"
# Divided out, both imply what their GPUs computed, 40% (x 1.0000: the same FLOPs a token as
# the values were made with)
check_eq "dp: each row implies its GPUs' own 40%" \
    "$(jqr "[$rows[] | .implied * 1e4 | round / 1e4] | map(tostring) | join(\" \")")" "0.4 0.4"
check_eq "dp: the calibration is their median, 40%, not the end-to-end 37.82%" \
    "$(jqr '.llm.calibrations[0].utilisation * 1e4 | round / 1e4')" "0.4"
# Each row predicted from the other at 40% through the same path, its own exchange included:
# exact (R1 from R2's 40%: 8 x 6,481.63 x 0.93715 = 48,594.2, its measured value).
check_num "dp: the leave-one-out error is 0 (max %)" "$(jqr '.llm.accuracy.max_error_pct')" 0 0.001
# The option of 8 H100 (one machine, 69.4 GB a GPU: tensor parallel 1) pays its own exchange
# once: a replica's step of 1 x 8,192 tokens, compute 8,192 / 6,481.63 = 1.26388 s, efficiency
# 1.26388 / (1.30180 + 0.093683) = 90.570%: 8 x 6,481.63 x 0.90570 = 46,963.1 tokens/s (at the
# old 37.82% it was 44,404, its exchange counted twice).
opt='.options[] | select(.id == "rent:TestCloud:h100x8:8x h100-sxm5")'
check_num "dp: the 8-GPU option at 46,963 tokens/s" "$(jqr "$opt | .throughput.value")" 46963.1 0.5
check_eq "dp: ... its words say its one exchange" \
    "$(jqr "$opt | .throughput.how | test(\"40% utilisation .* = 6482 tokens/s a GPU; x8 replicas at 90.6% data-parallel efficiency, 24.1 GB exchanged a step of 8192 tokens\")")" true
check_num "dp: one GPU exchanges nothing: 6,481.6 tokens/s" \
    "$(jqr '.options[] | select(.id == "rent:TestCloud:h100x1:1x h100-sxm5") | .throughput.value')" 6481.63 0.05

# A row that states no global batch says nothing of what its replicas exchange against: it is
# taken whole, its end-to-end share (R1's 37.49%, R2's 38.15%: 48,594.2 x 61.0649e9 / (8 x
# 989.5e12)).
sqlite3 "$KB" "UPDATE benchmark SET global_batch = NULL WHERE source = 'dp-fixture'"
run "$GW" --kb "$KB" decide "$T/pre.lua" --json
check_eq "dp: without a global batch, the row's end-to-end share" \
    "$(jqr "[$rows[] | .implied * 1e4 | round / 1e4] | map(tostring) | join(\" \")")" "0.3749 0.3815"
check_eq "dp: ... and no data-parallel efficiency of its own" \
    "$(jqr "[$rows[] | .data_parallel_efficiency] | map(tostring) | join(\" \")")" "1 1"
