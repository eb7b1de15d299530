local base = { gpu_name = "GeForce RTX 3090", memory_gb = 24, count = 1, fits = true,
              split = false, vram_needed_gb = 10, per_card_gb = 10 }
local function option(t) return gw.test.with(base, t) end

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
  -- A language model: split over the 4 GPUs of one replica (of an 8-card, 2-machine option),
  -- or per GPU under ZeRO sharding: never "copies the model to every card".
  test_language_model_names_the_replica_split = function(rule)
    local v = rule.evaluate(option({ fits = false, split = true, count = 8, tensor_parallel = 4,
                                     per_card_gb = 24.1 }), { parallelism = "data" })
    assert(v[1].because:find("24.1 GB per card even split over 4 cards", 1, true), v[1].because)
    v = rule.evaluate(option({ fits = false, count = 1, tensor_parallel = 1, per_card_gb = 153.5,
                               memory_gb = 80 }), { parallelism = "data", sharding = "zero3" })
    assert(v[1].because == "needs 153.5 GB per GPU; GeForce RTX 3090 has 80 GB", v[1].because)
  end,
  -- The decision gives what the card holds as its driver reports it (an H200's 143,771 MiB =
  -- 150.75e9 bytes): the need is compared with that, and the nominal 141 is said beside it.
  test_usable_memory_is_what_is_said = function(rule)
    local v = rule.evaluate(option({ fits = false, count = 1, tensor_parallel = 1,
                                     per_card_gb = 155.0, memory_gb = 141,
                                     usable_memory_gb = 150.754820096 }),
        { parallelism = "data" })
    assert(v[1].because == "needs 155.0 GB per GPU; GeForce RTX 3090 holds 150.8 GB (141 GB nominal)",
        v[1].because)
  end,
  -- A slice (1/6 of an A10: 23,028 MiB / 6 = 3,838 MiB = 4.02e9 bytes, 24 / 6 = 4 GB nominal)
  -- holds its share, and says so: never the whole card's 24 GB.
  test_slice_says_its_share = function(rule)
    local v = rule.evaluate(option({ fits = false, gpu_name = "NVIDIA A10", memory_gb = 4,
                                     usable_memory_gb = 4.0244, gpu_fraction = 1 / 6,
                                     gpu_fraction_text = "1/6", vram_needed_gb = 10.25056 }),
        { parallelism = "data" })
    assert(v[1].because == "needs 10.3 GB per replica; 1/6 of one NVIDIA A10 holds 4.0 GB (4 GB nominal)",
        v[1].because)
  end,
}
