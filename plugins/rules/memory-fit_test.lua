local function option(t)
    local o = { gpu_name = "GeForce RTX 3090", memory_gb = 24, count = 1, fits = true,
                split = false, vram_needed_gb = 10, per_card_gb = 10 }
    for k, v in pairs(t) do o[k] = v end
    return o
end

return {
    test_fits_gives_nothing = function(rule)
        assert(#rule.evaluate(option({}), { parallelism = "data" }) == 0)
    end,
    test_too_big_is_excluded = function(rule)
        local v = rule.evaluate(option({ fits = false, vram_needed_gb = 40, per_card_gb = 40, count = 4 }),
            { parallelism = "data" })
        assert(#v == 1 and v[1].effect == "exclude")
        assert(v[1].because:find("needs 40.0 GB per replica; GeForce RTX 3090 has 24 GB", 1, true), v[1].because)
        assert(v[1].because:find("does not add up", 1, true))
    end,
    test_no_data_parallel_note_without_data_parallelism = function(rule)
        -- parallelism = "none": one card does the work, nothing is copied to the others.
        local v = rule.evaluate(option({ fits = false, vram_needed_gb = 40, per_card_gb = 40, count = 4 }),
            { parallelism = "none" })
        assert(not v[1].because:find("data parallelism", 1, true), v[1].because)
    end,
    test_split_names_the_share = function(rule)
        local v = rule.evaluate(option({ fits = false, split = true, count = 2, vram_needed_gb = 80,
                                         per_card_gb = 40.5 }), { parallelism = "model" })
        assert(v[1].because:find("40.5 GB per card even split over 2 cards", 1, true), v[1].because)
    end,
}
