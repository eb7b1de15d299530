return {
  test_a_fallback_is_warned_in_the_decision_s_words = function(rule)
    local note = "Tesla V100 SXM2 16GB has no BF16 tensor cores: runs at FP16 (125 TFLOPS)"
    local v = rule.evaluate({ gpu_name = "Tesla V100 SXM2 16GB", runs_at = "fp16",
                              precision_note = note }, { model = { precision = "bf16" } })
    assert(#v == 1 and v[1].effect == "warn")
    assert(v[1].because == note .. " (costed so)", v[1].because)
  end,
  test_native_precision_and_other_models_are_left_alone = function(rule)
    assert(#rule.evaluate({ gpu_name = "H100", runs_at = "fp8" }, { model = { precision = "fp8" } }) == 0)
    -- An image model on a GPU that has its format: no note.
    assert(#rule.evaluate({ gpu_name = "RTX 3090" }, { model = { precision = "amp" } }) == 0)
  end,
}
