#!/bin/sh
# tests/cli/layouts.sh — how a served language model's GPUs are laid out (decide_llm_layout.c):
# one stream on an 8-GPU server takes one 8-way replica, a per-token target is met by widening
# tensor parallelism, and a model no machine holds is served as pipeline stages over the network
# between two machines, where one is stated.  Rentals come from a fixture price list
# (tests/fixtures/layouts/offers.csv: LayoutCloud states 3,200 Gb/s between its 8-GPU instances,
# PlainCloud no network) so that the shipped prices do not move the checks.  Every figure is the
# engine's constants: H100 SXM5 3,350 GB/s at 70% (18,760 GB/s over 8), 989.5 fp16/bf16 TFLOPS
# at 40%, NVLink 450 GB/s each way, 10 us an all-reduce over it, 54 us a hop between machines,
# 23 us of latency every layer of a forward pass (the decode floor), and a prompt's attention.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200   # today pinned: which prices are stale is fixed

KB=$(assumed_shares_kb layouts)   # the model's arithmetic at the KB's assumed shares
run "$GW" --kb "$KB" kb import "$FIX/layouts/offers.csv"
check_rc "layouts: fixture offers imported" 0

# wl NAME BODY: a serving workload $T/NAME.lua of Llama 2 70B or another, 1,024-token prompts,
# 256 output tokens.
wl() {
    cat >"$T/$1.lua" <<EOF
return { task = "inference", $2,
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
opt() { jqr ".options[] | select(.id == \"$1\") | $2"; }
IB='rent:LayoutCloud:h100x8-ib:8x h100-sxm5'

# ---- one stream on 8 H100s: one 8-way replica, not 4 replicas of 2 of which one works ----
# Llama 2 70B fp16 at one stream (tests/unit/test_model_llm.c derives it): a step reads 137.954
# GB of weights + 327,680 B x 1,152 tokens = 0.3775 GB of cache = 138.331 GB / 18,760 GB/s =
# 7.374 ms, + 2 x 80 x (10 us + 2 x 7/8 x 8192 x 2 B / 450e9) = 1.610 ms of all-reduces + 80 x
# 23 us = 1.84 ms of the layers' latency: 10.824 ms; the prompt (2 x 68.977e9 x 1,024 + its
# attention 1,024 x 4 x 80 x 1,024 x 8192 = 2.749 TFLOP) / (8 x 0.4 x 989.5e12) = 45.48 ms +
# 1.84 ms + 2 x 80 x (10 + 65.25) us = 12.04 ms: 59.36 ms; (256 x 10.824 + 59.36) / 256 =
# 11.056 ms a token: 90.45 tokens/s (108.6 before the floor and the prompt's attention).
# Four replicas of 2, one busy: 29.495 + 1.606 + 1.84 = 32.94 ms a step, 29.7 tokens/s.
wl one 'model = { name = "llama-2-70b", precision = "fp16" }, inference = { context = 1024, output_tokens = 256, concurrency = 1 }, candidates = { "rent:h100-sxm5" }'
run "$GW" --kb "$KB" decide "$T/one.lua" --json
check_rc "layouts: one stream decides" 0
check_eq "layouts: one stream on 8 H100s is one 8-way replica" \
    "$(opt "$IB" '[.layout.replicas, .layout.tensor_parallel, .layout.pipeline_stages, .layout.text] | join("|")')" \
    "1|8|1|8 GPUs: 1 replica × tensor-parallel 8"
check_num "layouts: ... 90.45 tokens/s (not 29.7 from 4 replicas of 2)" "$(opt "$IB" .throughput.value)" 90.45 0.01
check_num "layouts: ... 11.056 ms per output token" "$(opt "$IB" .tpot_ms)" 11.056 0.001
check_num "layouts: ... 59.36 ms to the first token" "$(opt "$IB" .ttft_ms)" 59.36 0.01
# Memory: (137.954 / 8 = 17.244 GB + 327,680 x 1,280 / 8 = 0.052 GB) x 1.10 + 1 = 20.03 GB.
check_num "layouts: ... weights / 8 + the cache's share: 20.03 GB per GPU" "$(opt "$IB" .per_card_gb)" 20.03 0.01
check_eq "layouts: the how says the all-reduces it pays" \
    "$(opt "$IB" '.throughput.how | contains("1.61 ms all-reduces (10 us each, 450 GB/s over the board'"'"'s link)")')" "true"
check_eq "layouts: the all-reduce latency is cited" \
    "$(jqr '[.citations[]? | select(.id == "sglang-allreduce-h100")] | length > 0')" "true"
run "$GW" --kb "$KB" decide "$T/one.lua"
check_out "layouts: the text names the recommendation's layout" \
    "Layout: 8 GPUs: 1 replica × tensor-parallel 8"

# ---- a 25 ms per-token target on 8 H100s is met by widening, not declared infeasible ----
# Eight requests.  The fewest GPUs that hold a replica, 4 replicas of 2 with 2 requests each:
# (137.954 + 0.755) GB / 4,690 GB/s = 29.576 ms + 1.612 ms of all-reduces + 1.84 ms of the
# layers' latency = 33.03 ms a step, + 2 x 191.33 ms of prompts / 256 = 34.5 ms per output
# token, over the target.  One 8-way replica with all 8: (137.954 + 327,680 x 1,152 x 8 = 3.020)
# = 140.974 GB / 18,760 = 7.515 ms + 2 x 80 x (10 + 1.75 x 8 x 8192 x 2 / 450e9 = 0.51) us =
# 1.682 ms + 1.84 ms: 11.036 ms; + 8 x 59.36 / 256 = 1.855: 12.891 ms per output token; 8 /
# 12.891 ms = 620.6 tokens/s (10.97 ms and 729.5 before).  (4-way also meets it, 2 replicas of
# 4 requests, with fewer tokens/s: the 8-way layout is taken for its throughput.)
wl target 'model = { name = "llama-2-70b", precision = "fp16" }, inference = { context = 1024, output_tokens = 256, concurrency = 8, tpot_ms = 25 }, candidates = { "rent:h100-sxm5" }'
run "$GW" --kb "$KB" decide "$T/target.lua" --json
check_eq "layouts: a 25 ms target on 8 H100s is met" "$(opt "$IB" '[.feasible, .layout.text] | join("|")')" \
    "true|8 GPUs: 1 replica × tensor-parallel 8"
check_num "layouts: ... at 12.89 ms per output token" "$(opt "$IB" .tpot_ms)" 12.891 0.002
check_num "layouts: ... 620.6 tokens/s" "$(opt "$IB" .throughput.value)" 620.58 0.02

# A target no layout meets: the option is excluded with the layout that misses it least.  A
# 20 ms first token: 8-way's prompt takes 59.36 ms (3.0 times the target), 4-way's 144.01
# TFLOP (attention included) / (4 x 0.4 x 989.5e12) = 90.96 ms + 1.84 ms + 2 x 80 x (10 + 1.5 x
# 1024 x 8192 x 2 / 450e9 = 55.92) us = 10.55 ms: 103.35 ms (5.2 times).
wl ttft 'model = { name = "llama-2-70b", precision = "fp16" }, inference = { context = 1024, output_tokens = 256, concurrency = 1, ttft_ms = 20 }, candidates = { "rent:h100-sxm5" }'
run "$GW" --kb "$KB" decide "$T/ttft.lua" --json
# With its memory per GPU at that layout: 68.98e9 parameters x 2 bytes / 8 = 17.244 GB, one
# sequence's KV cache 2 x 80 layers x 8 KV heads x 128 x 2 bytes x 1,280 tokens / 8 = 0.052
# GB: (17.244 + 0.052) x 1.1 + 1 = 20.0 GB of the H100's 85.5.
check_eq "layouts: a missed target names the layout that misses it least" "$(opt "$IB" .excluded_because)" \
    "59 ms to the first token; the target is 20 ms (its best layout: 8 GPUs: 1 replica × tensor-parallel 8; 1 sequence a replica, 20.0 GB per GPU of 85.5)"

# ---- over PCIe without peer-to-peer: four RTX 4090s (the KB's p2p 0) ----
# Llama 3 8B fp16, one stream.  The link: PCIe 4.0 x16, 32 GB/s each way, halved through host
# memory: 16 GB/s; 20 us an all-reduce over PCIe.  4-way: a step reads 16.0605 GB of weights +
# 131,072 B x 1,152 = 0.151 GB = 16.2115 GB / (1,008 x 0.7 x 4 = 2,822.4 GB/s) = 5.744 ms, +
# 2 x 32 x (20 us + 2 x 3/4 x 4096 x 2 B / 16e9 = 0.77 us) = 1.329 ms + 32 x 23 us = 0.736 ms:
# 7.809 ms; the prompt (2 x 8.030e9 x 1,024 + its attention 1,024 x 4 x 32 x 1,024 x 4,096 =
# 16.995 TFLOP) / (4 x 0.4 x 165.2e12) = 64.30 ms + 0.736 ms + 2 x 32 x (20 + 1.5 x 1,024 x
# 4,096 x 2 / 16e9 = 786.4) us = 51.61 ms: 116.65 ms; 7.809 + 116.65 / 256 = 8.265 ms: 121.0
# tokens/s (113.83 ms and 133.0 before).  One card alone: 16.2115 / 705.6 = 22.98 ms + 0.736 ms
# a step, about 41 tokens/s: 4-way is taken.
wl pcie 'model = { name = "llama-3-8b", precision = "fp16" }, inference = { context = 1024, output_tokens = 256, concurrency = 1 }, candidates = { "4x rtx-4090" }'
run "$GW" --kb "$KB" decide "$T/pcie.lua" --json
check_eq "layouts: four RTX 4090s serve one stream 4-way over PCIe without peer-to-peer" \
    "$(opt 'buy-new:4x rtx-4090' '[.layout.text, (.throughput.how | contains("1.33 ms all-reduces (20 us each, 16 GB/s over PCIe without peer-to-peer)"))] | map(tostring) | join("|")')" \
    "4 GPUs: 1 replica × tensor-parallel 4|true"
check_num "layouts: ... 116.6 ms to the first token" "$(opt 'buy-new:4x rtx-4090' .ttft_ms)" 116.65 0.01
check_num "layouts: ... 121.0 tokens/s" "$(opt 'buy-new:4x rtx-4090' .throughput.value)" 121.00 0.01

# ---- Llama 3.1 405B in BF16: pipeline 2 x tensor-parallel 8 over two machines ----
# 811.706 GB of weights: 101.5 GB per GPU of one 8-GPU machine, which no H100 holds.  Two
# machines over 3,200 Gb/s (400 GB/s): each GPU holds 811.706 / 16 = 50.73 GB + 516,096 B x
# 1,280 / 16 = 0.041 GB of cache, x 1.10 + 1 = 56.85 GB.  Speed (test_model_llm.c): a step 2 x
# (406.15 / 18,760 = 21.650 ms + 63 layers' latency 1.449 ms + their all-reduces 1.276 ms + a
# hop 54.08 us) = 48.86 ms, the prompt 303.68 ms, (256 x 48.86 + 303.68) / 256 = 50.04 ms:
# 19.98 tokens/s (47.12 ms and 21.22 before the floor and the prompt's attention).
wl big 'model = { name = "llama-3.1-405b", precision = "bf16" }, inference = { context = 1024, output_tokens = 256, concurrency = 1 }, candidates = { "rent:h100-sxm5", "h100-sxm5" }'
run "$GW" --kb "$KB" decide "$T/big.lua" --json
check_rc "layouts: 405B decides" 0
check_eq "layouts: 405B does not fit one 8-GPU machine" "$(opt "$IB" .fits)" "false"
IB2='rent:LayoutCloud:h100x8-ib:16x h100-sxm5'
check_eq "layouts: 405B on two rented machines over their network: pipeline 2 x tensor-parallel 8" \
    "$(opt "$IB2" '[.feasible, .layout.replicas, .layout.pipeline_stages, .layout.tensor_parallel, .layout.text] | join("|")')" \
    "true|1|2|8|16 GPUs: 1 replica × pipeline 2 × tensor-parallel 8"
check_num "layouts: ... 56.85 GB per GPU" "$(opt "$IB2" .per_card_gb)" 56.85 0.01
check_num "layouts: ... 50.04 ms per output token" "$(opt "$IB2" .tpot_ms)" 50.044 0.002
check_num "layouts: ... 303.7 ms to the first token" "$(opt "$IB2" .ttft_ms)" 303.68 0.01
check_num "layouts: ... 19.98 tokens/s" "$(opt "$IB2" .throughput.value)" 19.98 0.01
check_eq "layouts: two DGX H100s (their 3,200 Gb/s ports) serve it the same way" \
    "$(opt 'buy-new:16x h100-sxm5 in dgx-h100' '[.fits, .layout.text] | join("|")')" \
    "true|16 GPUs: 1 replica × pipeline 2 × tensor-parallel 8"
check_eq "layouts: four DGX H100s: two such replicas" \
    "$(opt 'buy-new:32x h100-sxm5 in dgx-h100' .layout.text)" \
    "32 GPUs: 2 replicas × pipeline 2 × tensor-parallel 8"
# Without a stated network, a replica stays in one machine, where 405B does not fit.
check_eq "layouts: instances without a stated network cannot hold a 405B replica" \
    "$(opt 'rent:PlainCloud:h100x8-plain:16x h100-sxm5' '[.fits, .layout.pipeline_stages] | join("|")')" \
    "false|1"
check_eq "layouts: the method states the pipeline's cost and its source" \
    "$(jqr '.method.model_parallel | [contains("a decode step = pp x (a stage"), contains("vllm-roce-allreduce")] | map(tostring) | join(" ")')" \
    "true true"

