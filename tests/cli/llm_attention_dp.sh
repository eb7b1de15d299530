#!/bin/sh
# tests/cli/llm_attention_dp.sh — serving a mixture of experts as engines do at high load:
# tensor parallelism holds whole KV heads (a latent cache whole on every GPU), so DeepSeek-R1's
# 3,072 sequences on 8 B200s fit only attention data-parallel 8 x experts 8 (each GPU its own
# sequences and the non-expert weights, an eighth of the experts, all-to-alls a layer); at 64 in
# flight tensor parallel 8 fits and is faster.  At the KB's assumed shares (40% of the tensor
# rate, 70% of the bandwidth) and a fixture price (TestCloud), so that only the model moves them.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

KB=$(assumed_shares_kb attention-dp)
run "$GW" --kb "$KB" kb import "$FIX/llm/offers.csv"
check_rc "attention-dp: fixture offers imported" 0
cat >"$T/b200.csv" <<'EOF'
# gpuwise knowledge base export (schema 7)

# prices.csv
gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note
b200,cloud,40,USD,hour,8,,TestCloud,b200x8,0,2026-11,testcloud-prices,
EOF
run "$GW" --kb "$KB" kb import "$T/b200.csv"
check_rc "attention-dp: an 8-GPU B200 offer imported" 0
ds() {
    cat >"$T/$1.lua" <<EOF
return { task = "inference", model = { name = "deepseek-r1", precision = "fp4" },
  inference = { context = 1000, output_tokens = 2000, concurrency = $2 },
  candidates = { "rent:b200" },
  hours_per_day = 24, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
EIGHT='rent:TestCloud:b200x8:8x b200'
opt() { jqr ".options[] | select(.id == \"$EIGHT\") | $1"; }

# DeepSeek-R1 in NVFP4: its routed experts, (671 - 37)e9 / (1 - 8 / 256) = 654.45e9, at 0.5625
# bytes a weight, the rest at FP8's 1 (fp4's moe_rest: the FP4 checkpoint quantizes the experts
# only) but the two 129,280 x 7,168 tables at 2: (671e9 - 1.853358e9) x 1 + 3.706716e9 -
# 654.45e9 x (1 - 0.5625) = 386.5308e9 bytes; 1,000 tokens in and 2,000 out, 3,072 in flight
# (the published B200 max-throughput run's concurrency).  Its latent cache, 576 values x 61
# layers x 1 byte (FP8) = 35,136 B a token, x 3,000 tokens x 3,072 = 323.81 GB.
# - Tensor parallel 8: 386.5308 / 8 = 48.32 GB of weights and the whole cache on every GPU
#   (one latent "head" is not split): (48.32 + 323.81) x 1.1 + 1 = 410.34 GB: does not fit.
# - Attention data-parallel 8: a GPU holds the rest whole, 386.5308e9 - 654.45e9 x 0.5625 =
#   18.40 GB, an eighth of the experts, 46.02 GB, and its own 384 sequences' cache, 40.48 GB:
#   (64.42 + 40.48) x 1.1 + 1 = 116.38 GB.
# Its decode step (tests/unit/test_model_llm.c's attention_data_parallel_step): 716.39 GB over
# the 8 GPUs at 70% of 7,700 GB/s = 16.614 ms (bandwidth bound: 331.7 TFLOP at 40% of 8 x 9,000
# FP4 TFLOPS is 11.52 ms), + 61 layers x 95 us = 5.795 ms, + the all-to-alls 61 x (a dispatch's
# 18.9 us + a combine's 31.0 + 2 x 7 / 8 x 384 tokens x 8 experts x 7,168 x 2 bytes / 900 GB/s,
# 42.817 us each) = 8.268 ms: 30.676 ms; a prompt on its own GPU 21.944 ms + 5.795 + 61 x
# (49.9 + 2 x 7 / 8 x 1,000 x 8 x 7,168 x 2 / 900e3 us) = 44.386 ms, 384 of them on each in
# 2,000 steps: tpot = 30.676 + 384 x 44.386 / 2,000 = 39.199 ms; 3,072 / 39.199 ms = 78,370
# tokens/s.
ds load 3072
run "$GW" --kb "$KB" decide "$T/load.lua" --json
check_rc "attention-dp: DeepSeek-R1 at 3,072 in flight decides" 0
check_eq "attention-dp: 8 B200 serve it attention data-parallel 8 x experts 8" \
    "$(opt '[.layout.text, .layout.attention_data_parallel, .tensor_parallel, .replicas, .sequences_per_replica, .fits] | map(tostring) | join("|")')" \
    "8 GPUs: 1 replica × attention data-parallel 8 × experts 8|true|8|1|3072|true"
check_num "attention-dp: ... 116.38 GB a GPU" "$(opt .per_card_gb)" 116.38 0.01
check_num "attention-dp: ... its KV cache 40.48 GB, its own 384 sequences'" "$(opt .kv_cache_gb)" 40.48 0.01
check_num "attention-dp: ... a 30.676 ms decode step" "$(opt .decode_step_ms)" 30.676 0.001
check_num "attention-dp: ... 39.199 ms a token" "$(opt .tpot_ms)" 39.199 0.001
check_num "attention-dp: ... 78,370 tokens/s" "$(opt .throughput.value)" 78370 1
check_eq "attention-dp: ... its speed says the all-to-alls" \
    "$(opt '.throughput.how | contains("8.27 ms all-to-alls (each token to its 8 experts'"'"' GPUs and back, 18.9 us and 31.0 us, 900 GB/s)")')" \
    "true"
check_eq "attention-dp: ... and the method says how a GPU holds KV heads and experts" \
    "$(jqr '[.. | strings | select(contains("ceil(1 / tp)") and contains("attention data-parallel over the same GPUs"))] | length > 0')" \
    "true"
check_eq "attention-dp: ... and cites the all-to-all's measured fixed cost" \
    "$(jqr '[.. | strings | select(contains("18.9 us and 31.0 us over the board'"'"'s link (trtllm-moe-alltoall-nvlink)"))] | length > 0')" \
    "true"

# At 64 in flight tensor parallel 8 fits: 48.32 GB of weights + the whole cache of 64
# sequences, 64 x 35,136 x 3,000 = 6.746 GB (1 / 8 of it, 0.843, were the latent split):
# (48.32 + 6.746) x 1.1 + 1 = 61.57 GB; and it is the faster: each attention data-parallel GPU
# would read its 18.40 GB of replicated weights and an eighth of the experts (every one touched:
# 64 x 8 > 256) against tensor parallel's eighth of everything.
ds few 64
run "$GW" --kb "$KB" decide "$T/few.lua" --json
check_eq "attention-dp: at 64 in flight, tensor parallel 8" \
    "$(opt '[.layout.text, .layout.attention_data_parallel] | map(tostring) | join("|")')" \
    "8 GPUs: 1 replica × tensor-parallel 8|false"
check_num "attention-dp: ... 61.57 GB a GPU, the latent cache whole on each" "$(opt .per_card_gb)" 61.57 0.01
check_num "attention-dp: ... its KV cache 6.746 GB" "$(opt .kv_cache_gb)" 6.746 0.001

# Fewer in flight than a replica's GPUs would leave attention data-parallel GPUs without a
# sequence: 4 in flight on 8 B200 are tensor parallel only (neither attention data-parallel 8
# nor 4, which would need 8 and 4 a replica, is tried).  One replica of 8 reads the 16.55e9
# weights outside the routed experts once and what 4 sequences reach of them, 4 x 20.45e9, a
# GPU (16.55 + 81.80) / 8 = 12.29e9 of them; 2 replicas of 4 read (16.55 + 2 x 20.45) / 4 =
# 14.36e9 a GPU each: the single replica of 8 is the faster.
ds four 4
run "$GW" --kb "$KB" decide "$T/four.lua" --json
check_eq "attention-dp: 4 in flight on 8 GPUs are not attention data-parallel" \
    "$(opt .layout.text)" "8 GPUs: 1 replica × tensor-parallel 8"

# A dense model has no experts to split: Llama 3.1 70B is only ever tensor parallel.
cat >"$T/dense.lua" <<'EOF'
return { task = "inference", model = { name = "llama-3.1-70b", precision = "fp8" },
  inference = { context = 1000, output_tokens = 1000, concurrency = 512 },
  candidates = { "rent:b200" },
  hours_per_day = 24, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
run "$GW" --kb "$KB" decide "$T/dense.lua" --json
check_eq "attention-dp: a dense model is never attention data-parallel" \
    "$(jqr '[.options[] | select(.layout.text != null) | .layout.text | contains("attention")] | any')" "false"
