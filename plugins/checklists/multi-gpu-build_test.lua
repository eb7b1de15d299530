-- Tests for multi-gpu-build.lua.
return {
  test_items_are_complete_and_unique = function(p)
    gw.test.checklist_items(p, 12)
  end,

  test_covers_power_lanes_spacing_cooling_nccl = function(p)
    local ids = {}
    for _, item in ipairs(p.items) do ids[item.id] = item end
    for _, id in ipairs({ "psu-headroom", "pcie-lanes", "slot-spacing", "cooling", "nccl", "driver" }) do
      assert(ids[id], "no item " .. id)
    end
  end,

  test_states_nvlink_right = function(p)
    local bridge
    for _, item in ipairs(p.items) do
      if item.id == "nvlink-bridge" then bridge = item.how_to_check end
    end
    -- the 3090 has NVLink, the 4090 does not
    assert(bridge:find("RTX 3090 supports a 2-way NVLink bridge", 1, true), bridge)
    assert(bridge:find("RTX 4090 has no NVLink", 1, true), bridge)
  end,
}
