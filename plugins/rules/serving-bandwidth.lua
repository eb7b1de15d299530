-- serving-bandwidth: generating a token reads every weight and each request's KV cache, so when
-- a decode step is bound by memory bandwidth it shortens only with more bandwidth (a faster GPU,
-- or the replica split over more GPUs), not with more compute.  A request's time per output
-- token is its decode steps plus the prompts of the requests that follow it, processed between
-- them (option.tpot_ms - option.decode_step_ms a token).  For a serving target on the time per
-- output token, an option that misses it while bandwidth-bound is excluded with the bandwidth the
-- target needs: the step less its floor (option.decode_floor_ms: every layer's fixed latency,
-- the all-reduces and the pipeline hops, which no bandwidth shortens) scales inversely with
-- bandwidth, so
--     needed = the GPU's bandwidth x (step - floor) / (target - the prompts' share - floor);
-- where the prompts and the floor take the whole target, more bandwidth cannot help and it says
-- so.  An
-- option that meets the target with less than 20% to spare, or the stated demand with less than
-- 20% of capacity to spare, is warned about.
local HEADROOM = 0.8

-- "a replica" or "a 2-GPU replica" (tensor parallel).
local function replica(option)
  local tp = option.tensor_parallel or 1
  if tp > 1 then return string.format("a %d-GPU replica", tp) end
  return "a replica"
end

return {
  name = "serving-bandwidth",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.2.0",
  description = "Serving with a time-per-token target: excludes bandwidth-bound options that miss it (saying the bandwidth it needs); warns when little headroom is left.",

  evaluate = function(option, workload)
    local inference = workload.inference or {}
    local target, tpot, step = inference.tpot_ms, option.tpot_ms, option.decode_step_ms
    if workload.task ~= "inference" or not tpot then
      return {}
    end
    if target and tpot > target and option.bandwidth_bound and step then
      local prompts = tpot - step
      local floor = option.decode_floor_ms or 0
      local bw = option.memory_bandwidth_gbs or 0
      local at = string.format("%.1f ms per output token at %.4g requests %s (%.1f ms of decode "
          .. "step, %.1f ms of other prompts)", tpot, option.sequences_per_replica or 1,
          replica(option), step, prompts)
      if prompts >= target then
        return { { effect = "exclude",
                   because = at .. string.format("; the prompts alone take more than the %g ms "
                       .. "target: more replicas or more compute, not bandwidth, would help",
                       target) } }
      end
      if prompts + floor >= target then
        return { { effect = "exclude",
                   because = at .. string.format("; the prompts and the step's %.1f ms of fixed "
                       .. "latency (its layers and exchanges) take more than the %g ms target: "
                       .. "more bandwidth would not help", floor, target) } }
      end
      return { { effect = "exclude",
                 because = at .. "; the decode step is bound by memory bandwidth, the other "
                     .. "prompts' prefill by compute: with that prefill, "
                     .. string.format("the %g ms target needs about %.0f GB/s per GPU and "
                     .. "this GPU has %.0f", target,
                     bw * (step - floor) / (target - prompts - floor), bw) } }
    end
    if target and tpot <= target and tpot > HEADROOM * target then
      return { { effect = "warn", weight = 0.05,
                 because = string.format("%.1f ms per output token against a %g ms target: "
                     .. "less than 20%% to spare for longer prompts or a busier hour",
                     tpot, target) } }
    end
    local demand, capacity = inference.tokens_per_s, option.capacity_tokens_per_s
    if demand and capacity and capacity >= demand and demand > HEADROOM * capacity then
      return { { effect = "warn", weight = 0.05,
                 because = string.format("it can generate %.0f tokens/s against the %.0f "
                     .. "demanded (%.0f%% busy): less than 20%% to spare for a busier hour",
                     capacity, demand, demand / capacity * 100) } }
    end
    return {}
  end,
}
