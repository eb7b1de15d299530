local serving = { task = "inference", inference = { tpot_ms = 50 } }
return {
    test_missing_the_target_names_the_bandwidth_needed = function(rule)
        -- 80 ms a token on 2,000 GB/s against a 50 ms target: 2,000 x 80 / 50 = 3,200 GB/s.
        local v = rule.evaluate({ tpot_ms = 80, bandwidth_bound = true, memory_bandwidth_gbs = 2000,
                                  sequences_per_replica = 16 }, serving)
        assert(#v == 1 and v[1].effect == "exclude")
        assert(v[1].because:find("80.0 ms per output token at 16 sequences a replica; the 50 ms "
            .. "target needs about 3200 GB/s per GPU and this GPU has 2000", 1, true), v[1].because)
    end,
    test_little_headroom_is_warned = function(rule)
        -- 45 ms is more than 0.8 x 50 = 40 ms.
        local v = rule.evaluate({ tpot_ms = 45, bandwidth_bound = true, memory_bandwidth_gbs = 3350 },
            serving)
        assert(v[1].effect == "warn", v[1].effect)
    end,
    test_room_to_spare_and_compute_bound_are_left_alone = function(rule)
        assert(#rule.evaluate({ tpot_ms = 30, bandwidth_bound = true, memory_bandwidth_gbs = 3350 },
            serving) == 0)
        assert(#rule.evaluate({ tpot_ms = 80, bandwidth_bound = false, memory_bandwidth_gbs = 3350 },
            serving) == 0)
        assert(#rule.evaluate({ tpot_ms = 80, bandwidth_bound = true }, { task = "train" }) == 0)
    end,
}
