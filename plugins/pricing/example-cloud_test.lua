-- Tests for example-cloud.lua (gpuwise plugin test plugins/pricing/example-cloud.lua).
return {
  test_offers_are_complete = function(plugin)
    local offers = plugin.offers({})
    -- 5 catalog rows + 1 spot variant of the RTX 4090 row = 6 offers
    assert(#offers == 6, "expected 6 offers, got " .. #offers)
    for i, o in ipairs(offers) do
      assert(o.provider == "Example Cloud", "offer " .. i .. " provider")
      assert(o.currency == "USD" and o.price_per_hour > 0, "offer " .. i .. " price")
    end
  end,
  test_every_gpu_resolves = function(plugin)
    for _, o in ipairs(plugin.offers({})) do
      local id = gw.gpu.resolve(o.gpu)
      assert(id, "GPU not in the KB: " .. o.gpu)
    end
  end,
  test_spot_variant = function(plugin)
    local spot = 0
    for _, o in ipairs(plugin.offers({})) do
      if o.spot then spot = spot + 1; assert(o.price_per_hour == 0.30) end
    end
    assert(spot == 1, "one spot offer")
  end,
}
