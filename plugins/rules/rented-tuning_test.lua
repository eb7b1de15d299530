local base = { acquisition = "rent", consumer = false, count = 1, vendor = "NVIDIA" }
local function rental(t) return gw.test.with(base, t) end

return {
  test_rented_a100_gets_tf32_advice_and_the_checklist = function(rule)
    local fp32 = { model = { precision = "fp32" } }
    local v = rule.evaluate(rental({ gpu = "a100-sxm4-40gb", gpu_name = "NVIDIA A100 SXM4 40GB",
                                     architecture = "Ampere", tf32 = true }), fp32)
    assert(#v == 1 and v[1].checklist == "a100-rental" and v[1].weight == 0)
    -- One card in fp32: TF32 and the data loader, no NCCL (nothing to all-reduce with).
    assert(v[1].because == "a rented data-centre card reaches the assumed speed only once "
        .. "TF32 and the data loader are set up: check them in the first hour", v[1].because)
    -- Mixed precision already uses the tensor cores: no TF32 advice.
    local amp = rule.evaluate(rental({ gpu = "a100-sxm4-40gb", gpu_name = "NVIDIA A100 SXM4 40GB",
                                       architecture = "Ampere", tf32 = true }),
        { model = { precision = "amp" } })
    assert(not amp[1].because:find("TF32", 1, true), amp[1].because)
  end,
  test_t4_and_v100_have_no_tf32 = function(rule)
    -- Turing (T4) and Volta (V100) have no TF32: the old sentence told them to enable it.
    local t4 = rule.evaluate(rental({ gpu = "t4", gpu_name = "NVIDIA T4", architecture = "Turing",
                                      tf32 = false }), {})
    assert(not t4[1].because:find("TF32", 1, true), t4[1].because)
    assert(not t4[1].because:find("NCCL", 1, true), t4[1].because)
    assert(t4[1].because == "a rented data-centre card reaches the assumed speed only once the data "
        .. "loader is set up: check it in the first hour", t4[1].because)
    assert(t4[1].checklist == nil)
    local v100 = rule.evaluate(rental({ gpu = "v100-sxm2-16gb", gpu_name = "Tesla V100 SXM2 16GB",
                                        architecture = "Volta", tf32 = false, count = 8 }), {})
    assert(v100[1].because == "a rented data-centre card reaches the assumed speed only once "
        .. "the data loader and NCCL are set up: check them in the first hour", v100[1].because)
  end,
  test_nccl_only_with_several_cards = function(rule)
    local one = rule.evaluate(rental({ gpu = "h100-sxm5", gpu_name = "NVIDIA H100 SXM5 80GB",
                                       architecture = "Hopper", tf32 = true }), {})
    assert(not one[1].because:find("NCCL", 1, true), one[1].because)
    local eight = rule.evaluate(rental({ gpu = "h100-sxm5", gpu_name = "NVIDIA H100 SXM5 80GB",
                                         architecture = "Hopper", tf32 = true, count = 8 }),
        { model = { precision = "tf32" } })
    assert(eight[1].because:find("once TF32, the data loader and NCCL are set up", 1, true),
        eight[1].because)
    local amd = rule.evaluate(rental({ gpu = "mi300x", gpu_name = "AMD Instinct MI300X",
                                       vendor = "AMD", architecture = "CDNA 3", tf32 = true,
                                       count = 8 }), {})
    assert(amd[1].because:find("and RCCL are set up", 1, true), amd[1].because)
  end,
  test_owned_or_consumer_cards_do_not = function(rule)
    assert(#rule.evaluate({ acquisition = "buy-new", consumer = false }, {}) == 0)
    assert(#rule.evaluate({ acquisition = "rent", consumer = true }, {}) == 0)
  end,
  -- Serving: the inference engine, not a data loader; NCCL only for a replica split over GPUs.
  test_serving_names_the_inference_engine = function(rule)
    local v = rule.evaluate({ acquisition = "rent", consumer = false, gpu = "h200-sxm", count = 2,
                              tensor_parallel = 1, vendor = "NVIDIA" },
        { task = "inference", model = { precision = "fp8" } })
    assert(v[1].because == "a rented data-centre card reaches the assumed speed only once the "
        .. "inference engine (its kernels and batching) is set up: check it in the first hour",
        v[1].because)
    v = rule.evaluate({ acquisition = "rent", consumer = false, gpu = "h100-sxm5", count = 8,
                        tensor_parallel = 2, vendor = "NVIDIA" },
        { task = "inference", model = { precision = "fp8" } })
    assert(v[1].because:find("inference engine (its kernels and batching) and NCCL are set up", 1, true),
        v[1].because)
  end,
  -- A superchip (GH200, GB200) runs on an Arm host.
  test_a_superchip_needs_aarch64_builds = function(rule)
    local v = rule.evaluate({ acquisition = "rent", consumer = false, gpu = "gh200", count = 1,
                              vendor = "NVIDIA", form_factor = "superchip" },
        { model = { precision = "amp" } })
    assert(v[1].because == "a rented data-centre card reaches the assumed speed only once the "
        .. "data loader and aarch64 builds of the software (the host CPU is an Arm Grace) are "
        .. "set up: check them in the first hour", v[1].because)
  end,
}
