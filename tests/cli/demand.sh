#!/bin/sh
# tests/cli/demand.sh — serving demand end to end: requests_per_s (x output_tokens) and
# utilisation set what an option serves and the cost per 1M tokens at that demand, an unstated
# demand is said to be costed at full use, and redundancy's spare replicas serve nothing and
# leave out options with too few.  Rentals come from a fixture price list (SlaCloud, HostMarket
# and ChainCloud, tests/fixtures/demand/offers.csv) so that the shipped prices do not move them.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200   # today 2026-12-01: which prices are stale is fixed

KB=$(assumed_shares_kb demand)   # the model's arithmetic at the KB's assumed shares
run "$GW" --kb "$KB" kb import "$FIX/demand/offers.csv"
check_rc "demand: fixture providers and offers imported" 0

# wl NAME INFERENCE [MORE]: Llama 2 7B in fp16 served from rented H100s, prompts of 1,024 tokens
# and 256 output tokens; INFERENCE the rest of the inference table, MORE other fields.
wl() {
    cat >"$T/$1.lua" <<EOF
return { task = "inference", model = { name = "llama-2-7b", precision = "fp16" },
  inference = { context = 1024, output_tokens = 256, $2 }, $3
  candidates = { "rent:h100-sxm5" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
ONE='rent:SlaCloud:sla-h100x1:1x h100-sxm5'
TWO='rent:SlaCloud:sla-h100x1:2x h100-sxm5'
EIGHT='rent:SlaCloud:sla-h100x8:8x h100-sxm5'
opt() { jqr ".options[] | select(.id == \"$1\") | $2"; }

# One H100 generates 145.25 tokens/s for one request of 1,024 + 256 tokens (tests/cli/llm.sh
# derives it: 6.885 ms per output token, the layers' latency and the prompt's attention
# counted; 162.85 before).  SlaCloud rents one for USD 0.90 an hour.

# ---- requests_per_s ----
# 0.25 requests/s x 256 output tokens = 64 tokens/s demanded; costed for them:
# 0.90 / (64 x 3,600 / 1e6) = 0.90 / 0.2304 = USD 3.90625 per 1M tokens.
# An arrival rate: concurrency = 1 is the most admitted in flight, and the capacity what one
# request in flight completes (Little's law), 256 tokens / (36.99 ms + 256 x 6.885 ms = 1.7995 s)
# = 142.26 tokens/s, not the 1 / 6.885 ms = 145.25 it streams (which counted no prompt time).
wl rps 'concurrency = 1, requests_per_s = 0.25'
run "$GW" --kb "$KB" decide "$T/rps.lua" --json
check_rc "demand: requests_per_s is a workload field" 0
check_eq "demand: requests_per_s x output_tokens is the demand served" \
    "$(opt "$ONE" '[.throughput.value, (.capacity_tokens_per_s * 100 | round / 100)] | join(" ")')" "64 142.26"
check_num "demand: cost per 1M tokens at 64 tokens/s" "$(opt "$ONE" .cost.per_unit)" 3.90625 0.00001
check_eq "demand: the basis and the tokens/s are in the JSON" \
    "$(jqr '[.constraints.demand_basis, .constraints.demand_tokens_per_s, .constraints.requests_per_s] | join(" ")')" \
    "requests_per_s 64 0.25"
check_out "demand: the report's sentence gives the arithmetic" "0.25 requests/s x 256 output tokens = 64 tokens/s"
# Little's law on the recommendation: 0.25 requests/s x (36.99 ms + 256 x 6.885 ms = 1.80 s) =
# 0.45, about 0.4 in flight: the stated one request is the right load.
check_out "demand: Little's law gives the requests in flight" "about 0.4 requests are in flight"
check_out_not "demand: ... and asks for no other concurrency when it is the stated one" "concurrency = "

# The same demand as tokens_per_s = 64 costs the same; 100 tokens/s costs less per token:
# 0.90 / (100 x 3,600 / 1e6) = 0.90 / 0.36 = USD 2.50 per 1M tokens.
wl tps 'concurrency = 1, tokens_per_s = 100'
run "$GW" --kb "$KB" decide "$T/tps.lua" --json
check_num "demand: cost per 1M tokens at 100 tokens/s" "$(opt "$ONE" .cost.per_unit)" 2.5 0.00001

# ---- no demand: full use, said plainly ----
# 0.90 / (145.2486 x 3,600 / 1e6) = 0.90 / 0.522895 = USD 1.72119 per 1M tokens.
wl full 'concurrency = 1'
run "$GW" --kb "$KB" decide "$T/full.lua" --json
check_num "demand: without a demand the capacity is costed (full use)" "$(opt "$ONE" .cost.per_unit)" 1.72119 0.00002
check_eq "demand: ... and the JSON says full_use" "$(jqr .constraints.demand_basis)" "full_use"
check_out "demand: ... and the report says so" "every option is costed at full use"
run "$GW" --kb "$KB" report "$T/full.lua"
check_out "demand: the report's workload section says full use" "every option is costed at full use, its whole capacity generating tokens 8 h a day for 12 months"

# ---- utilisation ----
# Busy half the time: 0.5 x 145.2486 = 72.62 tokens/s served;
# 0.90 / (72.6243 x 3,600 / 1e6) = 0.90 / 0.261448 = USD 3.44237 per 1M tokens.
wl util 'concurrency = 1, utilisation = 0.5'
run "$GW" --kb "$KB" decide "$T/util.lua" --json
check_num "demand: utilisation 0.5 serves half the capacity" "$(opt "$ONE" .throughput.value)" 72.624 0.001
check_num "demand: ... and doubles the cost per 1M tokens" "$(opt "$ONE" .cost.per_unit)" 3.44237 0.00002

# ---- redundancy ----
# 100 tokens/s from one H100 with one spare: nothing is left to serve, and one H100 is left out.
# Two instances serve (USD 1.80 an hour: 1.80 / (100 x 3,600 / 1e6) = USD 5.00 per 1M tokens),
# and so does the 8-GPU instance: its layout needs 2 replicas at least (1 spare + 1), so the
# fastest is 2 replicas x tensor-parallel 4 (8-way is 1 replica); USD 7.20 / 0.36 = 20.00.
wl red 'concurrency = 1, tokens_per_s = 100' 'redundancy = 1,'
run "$GW" --kb "$KB" decide "$T/red.lua" --json
check_eq "demand: redundancy leaves out one replica" "$(opt "$ONE" .excluded_because)" \
    "1 replica, 1 spare (redundancy = 1): none left to serve"
check_num "demand: redundancy: two instances serve, at twice the price" "$(opt "$TWO" .cost.per_unit)" 5 0.00001
check_num "demand: redundancy: the 8-GPU instance serves" "$(opt "$EIGHT" .cost.per_unit)" 20 0.00001
check_eq "demand: ... as 2 replicas of 4 GPUs, one a spare" "$(opt "$EIGHT" '[.replicas, .tensor_parallel] | join(" ")')" "2 4"
check_eq "demand: redundancy is in the JSON" "$(jqr .constraints.redundancy)" "1"

# 4 spares of the 8-GPU instance: a layout needs 5 replicas at least, so only 8 replicas of one
# GPU are searched (tensor-parallel 2 gives 4).  The other 4 carry the 8 requests in flight, 2
# each.  A step reads the weights, 6.738e9 x 2 B = 13.476 GB, and 2 KV caches at the mean
# context of 1,024 + 256 / 2 = 1,152 tokens x 2 x 32 layers x 4,096 x 2 B = 0.60398 GB each:
# 14.684 GB at 0.7 x 3,350 GB/s = 6.2618 ms (bandwidth-bound: 28.5 GFLOP, attention included,
# at 0.4 x 989.5 TFLOPS = 0.071 ms), + the layers' latency 32 x 23 us = 0.736 ms: 6.9978 ms; + 2
# prompts of 36.990 ms over 256 tokens = 7.2868 ms per output token; 4 x 2 / 7.2868 ms =
# 1,097.9 tokens/s (the spares generate nothing; 1,224.3 before the floor and the prompt's
# attention, when 1,200 and 1,250 were the demands tried).  1,050 demanded: it serves, for USD
# 7.20 / (1,050 x 3,600 / 1e6) = USD 1.90476 per 1M tokens; 1,100: it cannot, though all eight
# replicas serving one request each would (8 / 6.8847 ms = 1,162.0).
wl red4 'concurrency = 8, tokens_per_s = 1050' 'redundancy = 4,'
run "$GW" --kb "$KB" decide "$T/red4.lua" --json
check_num "demand: four spares of eight still serve 1,050 tokens/s" "$(opt "$EIGHT" .cost.per_unit)" 1.90476 0.00001
check_eq "demand: ... as 8 replicas of one GPU" "$(opt "$EIGHT" '[.replicas, .tensor_parallel, .sequences_per_replica] | join(" ")')" "8 1 2"
check_eq "demand: the option's speed names the spares" \
    "$(opt "$EIGHT" '.throughput.how | contains("8 GPUs: 8 replicas, 4 spare (redundancy), up to 2 sequences a replica")')" "true"
run "$GW" --kb "$KB" report "$T/red4.lua"
check_out "demand: the report says the serving replicas carry 2 requests each" \
    "with 4 of its 8 replicas spare the other 4 carry the requests in flight, 2 each."
check_out "demand: ... and its serving figures are theirs (7.2868 ms; 1,097.9 tokens/s)" \
    "7.3 ms per output token on average"
check_out "demand: ... up to 1,098 tokens/s" "up to 1,098 tokens/s in all"
wl red5 'concurrency = 8, tokens_per_s = 1100' 'redundancy = 4,'
run "$GW" --kb "$KB" decide "$T/red5.lua" --json
# The miss names its layout's memory per GPU (the layout's own sequences): 6.738e9 parameters x
# 2 bytes = 13.476 GB of weights, 2 sequences x 2 x 32 layers x 32 KV heads x 128 x 2 bytes x
# 1,280 tokens = 1.342 GB of KV cache: (13.476 + 1.342) x 1.1 + 1 = 17.3 GB of the H100's 85.5.
check_eq "demand: ... not 1,100: the replicas left carry the requests" "$(opt "$EIGHT" .excluded_because)" \
    "1098 tokens/s in all; the target is 1100 (its best layout: 8 GPUs: 8 replicas, 4 spare; 2 sequences a replica, 17.3 GB per GPU of 85.5)"
check_num "demand: ... its capacity is the serving replicas' 1,097.9, not all eight's 1,162.0" "$(opt "$EIGHT" .capacity_tokens_per_s)" 1097.9 0.1

# ---- bad input ----
wl both 'concurrency = 1, tokens_per_s = 100, requests_per_s = 1'
run "$GW" --kb "$KB" decide "$T/both.lua"
check_rc "demand: two demands are refused" 65
check_err "demand: ... naming the file and the fields" \
    "both.lua:2: inference: tokens_per_s, requests_per_s and utilisation each state the demand; give one"
wl over 'concurrency = 1, utilisation = 1.5'
run "$GW" --kb "$KB" decide "$T/over.lua"
check_rc "demand: a utilisation above 1 is refused" 65
check_err "demand: ... with its range" "inference.utilisation: 1.5 is above 1"
