#!/bin/sh
# tests/cli/llm_inflight.sh — serving under an arrival rate: the requests in flight on each
# replica are Little's law's fixed point (decide_llm_layout.c), not inference.concurrency, which
# becomes the most admitted in flight; a load no admitted count carries cannot be kept up with;
# without an arrival rate, concurrency keeps its meaning.  The demand fixture's prices
# (tests/fixtures/demand/offers.csv) and the KB's assumed shares keep the figures fixed.
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

KB=$(assumed_shares_kb inflight)
run "$GW" --kb "$KB" kb import "$FIX/demand/offers.csv"
check_rc "inflight: fixture providers and offers imported" 0
wl() {
    cat >"$T/$1.lua" <<EOF
return { task = "inference", model = { name = "llama-2-7b", precision = "fp16" },
  inference = { context = 1024, output_tokens = 256, $2 },
  candidates = { "rent:h100-sxm5" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
ONE='rent:SlaCloud:sla-h100x1:1x h100-sxm5'
opt() { jqr ".options[] | select(.id == \"$1\") | $2"; }

# One H100 serves Llama 2 7B in fp16 (tests/cli/demand.sh): a decode step reads the 6.738e9 x 2 =
# 13.476 GB of weights and each sequence's KV cache, 2 x 32 layers x 32 KV heads x 128 x 2 bytes
# x (1,024 + 256 / 2) tokens = 0.60398 GB, at 70% of 3,350 = 2,345 GB/s, + 32 layers x 23 us:
#     step(n) = 13.476 / 2,345 + 0.736 ms + n x 0.60398 / 2,345 = 6.4827 + 0.25756 n ms,
# a prompt 36.99 ms, and a token streams at tpot(n) = step(n) + n x 36.99 / 256 = 6.4827 +
# 0.40205 n ms.  A request is in flight its prompt + 256 tokens:
#     T(n) = 36.99 + 256 x tpot(n) = 1,696.56 + 102.925 n ms.
# At 2 requests/s on one replica, n = 2 x T(n) / 1,000 = 3.39312 + 0.20585 n, so
#     n = 3.39312 / (1 - 0.20585) = 4.2726;
# iterating from none in flight: 3.3931, 3.3931 + 0.20585 x 3.3931 = 4.0916, 3.3931 + 0.20585 x
# 4.0916 = 4.2354, 4.2650, ... toward 4.2726.  There tpot = 6.4827 + 0.40205 x 4.2726 = 8.2005 ms.
wl rate 'requests_per_s = 2'
run "$GW" --kb "$KB" decide "$T/rate.lua" --json
check_rc "inflight: requests_per_s without a concurrency" 0
check_num "inflight: the requests in flight are Little's law's fixed point" \
    "$(opt "$ONE" .sequences_per_replica)" 4.2726 0.001
check_num "inflight: the time per token is at that fixed point" "$(opt "$ONE" .tpot_ms)" 8.2005 0.001
check_eq "inflight: it serves the demand, 2 x 256 = 512 tokens/s" \
    "$(opt "$ONE" '[.feasible, .throughput.value] | @tsv')" "true	512"
# A request's T(4.2726) = 1,696.56 + 102.925 x 4.2726 = 2,136.3 ms: 2 x 2.136 = 4.27 in flight.
check_out "inflight: the speed says how many are in flight" \
    "2 requests/s x 2.14 s a request = 4.27 in flight (Little's law), 4.27 a replica"
# With no time-per-token target its capacity is what the most its memory holds complete, n x
# 256 / T(n) at that n (the JSON's sequences are the fixed point's, so the check is the relation
# at the most in flight a target-free load could reach: above the demand).
check_num "inflight: no target: the capacity is above the demand" \
    "$(opt "$ONE" '.capacity_tokens_per_s > 512 | if . then 1 else 0 end')" 1 0

# tokens_per_s without a concurrency is the same load: 512 / 256 output tokens = 2 requests/s.
wl tokens 'tokens_per_s = 512'
run "$GW" --kb "$KB" decide "$T/tokens.lua" --json
check_num "inflight: tokens_per_s / output_tokens is an arrival rate" \
    "$(opt "$ONE" .sequences_per_replica)" 4.2726 0.001

# A target of 20 ms a token bounds the capacity: the most in flight within it, (20 - 6.4827) /
# 0.40205 = 33.621, complete 33.621 x 256 / T(33.621) = 8,607.0 / (1,696.56 + 102.925 x 33.621
# = 5,156.99 ms) = 1,669.0 tokens/s: the room over the 512 demanded.
wl target 'requests_per_s = 2, tpot_ms = 20'
run "$GW" --kb "$KB" decide "$T/target.lua" --json
check_num "inflight: the capacity is the most load within the time-per-token target" \
    "$(opt "$ONE" .capacity_tokens_per_s)" 1669.0 1
check_num "inflight: ... while the time per token is at the load's own in flight" \
    "$(opt "$ONE" .tpot_ms)" 8.2005 0.001

# ---- concurrency, under an arrival rate, caps what is admitted in flight ----
# concurrency = 4 admits fewer than the 4.2726 the load needs: 4 in flight complete 4 x 256 /
# T(4) = 1,024 / (1,696.56 + 411.70 = 2,108.26 ms) = 485.7 tokens/s of the 512: it cannot keep up.
wl capped 'requests_per_s = 2, concurrency = 4'
run "$GW" --kb "$KB" decide "$T/capped.lua" --json
check_eq "inflight: a load above the concurrency cap is not kept up with" \
    "$(opt "$ONE" '[.feasible, .sequences_per_replica] | @tsv')" "false	4"
check_num "inflight: ... at the cap it completes Little's law's tokens/s" \
    "$(opt "$ONE" .capacity_tokens_per_s)" 485.7 0.1
check_out "inflight: ... said in words" \
    "it cannot keep up with 2 requests/s: at the most a replica admits in flight (4, its memory's KV cache or inference.concurrency) it completes 486 tokens/s in all, short of the 512"
# concurrency = 5 admits the 4.2726: the same fixed point, kept up with.
wl roomy 'requests_per_s = 2, concurrency = 5'
run "$GW" --kb "$KB" decide "$T/roomy.lua" --json
check_eq "inflight: a cap above the fixed point leaves it" \
    "$(opt "$ONE" '[.feasible, (.sequences_per_replica * 1000 | round)] | @tsv')" "true	4273"

# ---- a load no count in flight carries ----
# At 10 requests/s each request added in flight adds 10 x 0.102925 = 1.029 s x requests/s more:
# n = 10 x T(n) / 1,000 has no solution (T(n) / n stays above 0.1 s), so even the most the
# memory holds falls behind, and the layout cannot keep up.
wl flood 'requests_per_s = 10'
run "$GW" --kb "$KB" decide "$T/flood.lua" --json
check_eq "inflight: a load beyond the replica is not kept up with" "$(opt "$ONE" .feasible)" false
check_out "inflight: ... said in words" "it cannot keep up with 10 requests/s"
check_num "inflight: ... it completes less than the demand at the most its memory holds" \
    "$(opt "$ONE" '.capacity_tokens_per_s < 2560 | if . then 1 else 0 end')" 1 0

# ---- without an arrival rate, concurrency is the requests in flight, as before ----
# 4 in flight: tpot = 6.4827 + 0.40205 x 4 = 8.0909 ms, capacity 4 / 8.0909 ms = 494.38 tokens/s
# (the replica's streams; no prompt time in it).  tokens_per_s with a concurrency is a closed
# load (clients keeping 4 in flight): the same figures, short of 512.
for spec in 'concurrency = 4' 'concurrency = 4, tokens_per_s = 512'; do
    wl closed "$spec"
    run "$GW" --kb "$KB" decide "$T/closed.lua" --json
    check_eq "inflight: $spec: the stated requests in flight" "$(opt "$ONE" .sequences_per_replica)" 4
    check_num "inflight: $spec: the capacity at them" "$(opt "$ONE" .capacity_tokens_per_s)" 494.38 0.01
done
check_eq "inflight: a closed load's tokens_per_s target is missed, not a load" \
    "$(opt "$ONE" .feasible)" false
check_out_not "inflight: no in-flight words without an arrival rate" "Little's law), "

# The report's method says how the requests in flight are found, only under an arrival rate.
run "$GW" --kb "$KB" report "$T/rate.lua" --format md
check_out "inflight: the method's sentence" \
    "requests in flight, under an arrival rate: each serving replica holds the n = arrival rate"
run "$GW" --kb "$KB" report "$T/closed.lua" --format md
check_out_not "inflight: no such sentence without one" "under an arrival rate: each serving"

# llm-serving states 32 in flight and a tokens_per_s target, no arrival rate: each option's
# replicas hold ceil(32 / replicas), as before (its figures are unchanged by the arrival rate's
# fixed point: the same decide --json before and after it).
run "$GW" decide "$ROOT/examples/llm-serving.lua" --json
check_eq "inflight: llm-serving's options hold ceil(32 / replicas) each" \
    "$(jqr '[.options[] | select(.sequences_per_replica != null and .replicas > 0) | select(.sequences_per_replica != ((32 / .replicas) | ceil))] | length')" 0
check_out_not "inflight: llm-serving says nothing of an arrival rate" "in flight (Little's law)"
