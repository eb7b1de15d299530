-- Tests for cn-market.lua.
local function find(offers, gpu, price)
  for _, o in ipairs(offers) do
    if o.gpu == gpu and o.price_per_hour == price then return o end
  end
end

return {
  test_count_and_currency = function(plugin)
    local offers = plugin.offers({})
    -- 2 platform offers + 4 quoted ranges x 2 ends = 10
    assert(#offers == 10, "expected 10 offers, got " .. #offers)
    for _, o in ipairs(offers) do assert(o.currency == "CNY") end
  end,
  test_every_offer_is_anecdotal = function(plugin)
    -- every price comes from a blog article: never recommended unless a workload allows it
    for _, o in ipairs(plugin.offers({})) do assert(o.quality == "anecdote", o.gpu) end
  end,
  test_platform_price_cites_its_article = function(plugin)
    local o = find(plugin.offers({}), "a100-sxm4-40gb", 3.2)
    assert(o, "the CNY 3.2/h A100 offer")
    assert(o.source == "article-rented-a100-vs-3090")
  end,
  test_h100_range = function(plugin)
    local offers = plugin.offers({})
    assert(find(offers, "h100-sxm5", 50) and find(offers, "h100-sxm5", 80), "CNY 50-80/h")
  end,
}
