local serving = { task = "inference", inference = { tpot_ms = 50 } }
return {
  test_missing_the_target_names_the_bandwidth_needed = function(rule)
    -- 80 ms a token, of which 60 ms of decode step and 20 ms of other prompts, on 2,000 GB/s
    -- against a 50 ms target: the step must fall to 50 - 20 = 30 ms: 2,000 x 60 / 30 = 4,000; the
    -- reason says which part is bandwidth-bound (the step) and which compute-bound (the prefill).
    local v = rule.evaluate({ tpot_ms = 80, decode_step_ms = 60, bandwidth_bound = true,
                              memory_bandwidth_gbs = 2000, sequences_per_replica = 16,
                              tensor_parallel = 2 }, serving)
    assert(#v == 1 and v[1].effect == "exclude")
    assert(v[1].because:find("80.0 ms per output token at 16 requests a 2-GPU replica (60.0 ms of "
        .. "decode step, 20.0 ms of other prompts); the decode step is bound by memory bandwidth, "
        .. "the other prompts' prefill by compute: with that prefill, the 50 ms target needs about "
        .. "4000 GB/s per GPU and this GPU has 2000", 1, true), v[1].because)
  end,
  test_the_step_floor_is_not_shortened_by_bandwidth = function(rule)
    -- The same with 10 ms of the step its fixed latency: the other 50 ms must fall to 50 - 20
    -- - 10 = 20 ms: 2,000 x 50 / 20 = 5,000 GB/s.
    local v = rule.evaluate({ tpot_ms = 80, decode_step_ms = 60, decode_floor_ms = 10,
                              bandwidth_bound = true, memory_bandwidth_gbs = 2000 }, serving)
    assert(v[1].because:find("the 50 ms target needs about 5000 GB/s per GPU", 1, true),
        v[1].because)
    -- 35 ms of floor and 20 ms of prompts already pass 50 ms: bandwidth cannot reach it.
    v = rule.evaluate({ tpot_ms = 80, decode_step_ms = 60, decode_floor_ms = 35,
                        bandwidth_bound = true, memory_bandwidth_gbs = 2000 }, serving)
    assert(v[1].effect == "exclude" and v[1].because:find("35.0 ms of fixed latency", 1, true)
        and v[1].because:find("more bandwidth would not help", 1, true), v[1].because)
  end,
  test_prompts_alone_over_the_target = function(rule)
    -- 70 ms a token of which 55 ms are other prompts: more bandwidth cannot reach 50 ms.
    local v = rule.evaluate({ tpot_ms = 70, decode_step_ms = 15, bandwidth_bound = true,
                              memory_bandwidth_gbs = 3350, sequences_per_replica = 64 }, serving)
    assert(v[1].effect == "exclude")
    assert(v[1].because:find("the prompts alone take more than the 50 ms target", 1, true),
        v[1].because)
  end,
  test_little_headroom_is_warned = function(rule)
    -- 45 ms is more than 0.8 x 50 = 40 ms.
    local v = rule.evaluate({ tpot_ms = 45, decode_step_ms = 40, bandwidth_bound = true,
                              memory_bandwidth_gbs = 3350 }, serving)
    assert(v[1].effect == "warn", v[1].effect)
    -- A demand of 800 tokens/s on a capacity of 869: 92% busy.
    v = rule.evaluate({ tpot_ms = 30, capacity_tokens_per_s = 869 },
        { task = "inference", inference = { tokens_per_s = 800 } })
    assert(v[1].effect == "warn" and v[1].because:find("(92% busy)", 1, true), v[1].because)
  end,
  test_room_to_spare_and_compute_bound_are_left_alone = function(rule)
    assert(#rule.evaluate({ tpot_ms = 30, decode_step_ms = 25, bandwidth_bound = true,
                            memory_bandwidth_gbs = 3350 }, serving) == 0)
    assert(#rule.evaluate({ tpot_ms = 80, decode_step_ms = 70, bandwidth_bound = false,
                            memory_bandwidth_gbs = 3350 }, serving) == 0)
    assert(#rule.evaluate({ tpot_ms = 80, bandwidth_bound = true }, { task = "train" }) == 0)
  end,
}
