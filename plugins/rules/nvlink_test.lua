return {
  test_single_card_is_left_alone = function(rule)
    assert(#rule.evaluate({ count = 1, nvlink = false }, { parallelism = "model" }) == 0)
  end,
  test_model_parallel_prefers_nvlink = function(rule)
    local v = rule.evaluate({ count = 8, nvlink = true, link_gbs = 600, comm_fraction = 0.01 },
        { parallelism = "model" })
    assert(v[1].effect == "prefer" and v[1].weight > 0)
    assert(v[1].because:find("600 GB/s", 1, true), v[1].because)
  end,
  test_heavy_gradients_warn_on_pcie = function(rule)
    local v = rule.evaluate({ count = 4, nvlink = false, link_gbs = 8, comm_fraction = 0.25 },
        { parallelism = "data" })
    assert(v[1].effect == "warn")
    assert(v[1].because:find("25%", 1, true), v[1].because)
  end,
  test_several_machines_name_their_network = function(rule)
    -- Two machines over 10 Gb/s Ethernet: the step's exchange is mostly the network's
    -- (1.25 GB/s), not PCIe's; the share is of the whole step, not of its compute.
    local v = rule.evaluate({ count = 8, hosts = 2, network_gbps = 10, nvlink = false,
                              link_gbs = 16, comm_fraction = 0.31 }, { parallelism = "data" })
    assert(v[1].effect == "warn")
    assert(v[1].because:find("takes 31% of each step; most of it crosses the 10 Gb/s network "
        .. "between the 2 machines (1.25 GB/s)", 1, true), v[1].because)
  end,
  -- An AMD board's link is Infinity Fabric, not NVLink (the KB's link_kind, when a KB with
  -- the MI300X is open; without one the rule cannot know and says NVLink as before).
  test_amd_board_names_infinity_fabric = function(rule)
    local v = rule.evaluate({ gpu = "mi300x", count = 8, nvlink = true, link_gbs = 448,
                              comm_fraction = 0.01 }, { parallelism = "model" })
    assert(v[1].effect == "prefer", v[1].effect)
    local g = gw.kb.gpu("mi300x")
    if g and g.link_kind == "infinity-fabric" then
      assert(v[1].because:find("Infinity Fabric (448 GB/s)", 1, true), v[1].because)
      assert(not v[1].because:find("NVLink", 1, true), v[1].because)
    end
  end,
  test_light_gradients_are_fine_on_pcie = function(rule)
    assert(#rule.evaluate({ count = 4, nvlink = false, link_gbs = 8, comm_fraction = 0.07 },
        { parallelism = "data" }) == 0)
  end,
}
