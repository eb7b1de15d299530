local qlora70 = { task = "finetune", finetune = { method = "qlora", rank = 16 },
                  model = { params = 70.55e9 } }
return {
  test_one_48gb_gpu_is_preferred = function(rule)
    local v = rule.evaluate({ memory_gb = 48, tensor_parallel = 1 }, qlora70)
    assert(#v == 1 and v[1].effect == "prefer", #v)
    assert(v[1].because:find("QLoRA of a 71B model fits one 48 GB GPU", 1, true), v[1].because)
  end,
  test_split_over_small_cards_is_warned = function(rule)
    local v = rule.evaluate({ memory_gb = 24, tensor_parallel = 2 }, qlora70)
    assert(v[1].effect == "warn")
    assert(v[1].because:find("split over 2 cards of 24 GB", 1, true), v[1].because)
  end,
  test_small_models_and_other_methods_are_left_alone = function(rule)
    assert(#rule.evaluate({ memory_gb = 48, tensor_parallel = 1 },
        { task = "finetune", finetune = { method = "qlora" }, model = { params = 8e9 } }) == 0)
    assert(#rule.evaluate({ memory_gb = 48, tensor_parallel = 1 },
        { task = "finetune", finetune = { method = "lora" }, model = { params = 70e9 } }) == 0)
    assert(#rule.evaluate({ memory_gb = 80 }, { task = "inference", model = { params = 70e9 } }) == 0)
  end,
}
