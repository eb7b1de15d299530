return {
  test_a_fallback_is_warned = function(rule)
    local v = rule.evaluate({ gpu_name = "NVIDIA A100 SXM4 80GB", runs_at = "bf16" },
        { model = { precision = "fp8" } })
    assert(#v == 1 and v[1].effect == "warn")
    assert(v[1].because:find("NVIDIA A100 SXM4 80GB has no fp8 tensor cores: it runs the "
        .. "workload at bf16", 1, true), v[1].because)
  end,
  test_native_precision_and_other_models_are_left_alone = function(rule)
    assert(#rule.evaluate({ gpu_name = "H100", runs_at = "fp8" }, { model = { precision = "fp8" } }) == 0)
    -- Not a language model: the option has no runs_at.
    assert(#rule.evaluate({ gpu_name = "RTX 3090" }, { model = { precision = "amp" } }) == 0)
  end,
}
