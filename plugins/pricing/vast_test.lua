-- Tests for vast.lua on a response written in the bundles API's shape.
local response = gw.json.encode({ offers = {
  { gpu_name = "RTX 4090", num_gpus = 1, gpu_ram = 24564, dph_total = 0.30, min_bid = 0.10, rentable = true },
  { gpu_name = "RTX 4090", num_gpus = 1, gpu_ram = 24564, dph_total = 0.50, min_bid = 0.20, rentable = true },
  { gpu_name = "RTX 4090", num_gpus = 1, gpu_ram = 24564, dph_total = 0.10, min_bid = 0.05, rentable = false },
  { gpu_name = "A100 SXM4", num_gpus = 8, gpu_ram = 81920, dph_total = 10.0, min_bid = 12.0, rentable = true },
} })

return {
  test_median_per_gpu_and_count = function(plugin)
    local offers = plugin.offers({ input = response, input_name = "vast.json" })
    -- RTX 4090 x1: median of 0.30 and 0.50 = 0.40 (the unrentable machine left out), spot the
    -- median bid (0.10 + 0.20) / 2 = 0.15; A100 x8: 10.0, its bid above the price is no spot
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(offers[1].gpu == "RTX 4090 24GB" and offers[1].price_per_hour == 0.4 and not offers[1].spot)
    assert(offers[2].spot and offers[2].price_per_hour == 0.15)
    assert(offers[3].gpu == "A100 SXM4 80GB" and offers[3].gpu_count == 8 and offers[3].price_per_hour == 10)
    assert(gw.gpu.resolve(offers[3].gpu) == "a100-sxm4-80gb")
    -- the median of what hosts ask: a market price
    for _, o in ipairs(offers) do assert(o.quality == "market", o.quality) end
  end,
}
