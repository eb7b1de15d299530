-- serving-bandwidth: generating a token reads every weight and each sequence's KV cache, so when
-- a decode step is bound by memory bandwidth the time per output token falls only with more
-- bandwidth (a faster GPU, or the replica split over more GPUs), not with more compute.  For a
-- serving target on the time per output token, an option that misses it while bandwidth-bound is
-- excluded with the bandwidth the target needs (the step scales inversely with bandwidth:
-- needed = the GPU's bandwidth x its time per token / the target); one that meets it with less
-- than 20% to spare is warned about.
local HEADROOM = 0.8

return {
    name = "serving-bandwidth",
    kind = "rule",
    version = "1.0.0",
    description = "Serving with a time-per-token target: excludes bandwidth-bound options that miss it (saying the bandwidth it needs); warns when little headroom is left.",

    evaluate = function(option, workload)
        local target = (workload.inference or {}).tpot_ms
        local tpot = option.tpot_ms
        if workload.task ~= "inference" or not target or not tpot or not option.bandwidth_bound then
            return {}
        end
        local bw = option.memory_bandwidth_gbs or 0
        if tpot > target then
            return { { effect = "exclude",
                       because = string.format("decode is bound by memory bandwidth: %.1f ms per "
                           .. "output token at %d sequences a replica; the %g ms target needs about "
                           .. "%.0f GB/s per GPU and this GPU has %.0f", tpot,
                           option.sequences_per_replica or 1, target, bw * tpot / target, bw) } }
        end
        if tpot > HEADROOM * target then
            return { { effect = "warn", weight = 0.05,
                       because = string.format("%.1f ms per output token against a %g ms target: "
                           .. "less than 20%% to spare for longer prompts or a busier hour",
                           tpot, target) } }
        end
        return {}
    end,
}
