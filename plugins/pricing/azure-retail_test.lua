-- Tests for azure-retail.lua on a response written in the Retail Prices API's shape.
local function item(fields)
  local t = { currencyCode = "USD", unitOfMeasure = "1 Hour", type = "Consumption",
              armRegionName = "eastus", productName = "Virtual Machines NDsr H100 v5 Series",
              effectiveStartDate = "2025-06-01T00:00:00Z" }
  for k, v in pairs(fields) do t[k] = v end
  return t
end
local response = gw.json.encode({
  Items = {
    item({ armSkuName = "Standard_ND96isr_H100_v5", skuName = "ND96isr H100 v5", retailPrice = 98.32 }),
    item({ armSkuName = "Standard_ND96isr_H100_v5", skuName = "ND96isr H100 v5 Spot", retailPrice = 29.5 }),
    item({ armSkuName = "Standard_ND96isr_H100_v5", skuName = "ND96isr H100 v5", retailPrice = 112.5,
           productName = "Virtual Machines NDsr H100 v5 Series Windows" }),
    item({ armSkuName = "Standard_ND96isr_H100_v5", skuName = "ND96isr H100 v5", retailPrice = 500000,
           type = "Reservation" }),
    item({ armSkuName = "Standard_NV18ads_A10_v5", skuName = "NV18ads A10 v5", retailPrice = 1.6 }),
    item({ armSkuName = "Standard_D2s_v5", skuName = "D2s v5", retailPrice = 0.096 }),
  },
  NextPageLink = "https://prices.azure.com/api/retail/prices?$skip=100",
})

return {
  test_consumption_linux_and_spot = function(plugin)
    local offers = plugin.offers({ input = response, input_name = "azure.json" })
    -- ND96isr H100 v5: 98.32 on demand and 29.5 spot (Windows and the reservation left out);
    -- NV18ads A10 v5: half an A10 (18 / 36 vCPUs); D2s v5 has no GPU.  3 offers.
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(offers[1].gpu == "H100 SXM" and offers[1].gpu_count == 8 and offers[1].price_per_hour == 98.32)
    assert(offers[2].spot == true and offers[2].price_per_hour == 29.5)
    assert(offers[3].gpu == "A10" and offers[3].gpu_count == 1 and offers[3].gpu_fraction == 0.5)
    assert(offers[1].region == "eastus" and offers[1].provider == "Azure")
  end,
  test_declares_https_urls = function(plugin)
    local n = 0
    for _, url in pairs(plugin.urls) do
      n = n + 1
      assert(url:find("^https://prices%.azure%.com/api/retail/prices%?%$filter=armSkuName"), url)
    end
    assert(n == 9, "expected 9 sizes, got " .. n)
  end,
  test_not_a_response = function(plugin)
    local ok, msg = pcall(plugin.offers, { input = "{\"x\": 1}", input_name = "x.json" })
    assert(not ok and msg:find("no Items list"), msg)
  end,
}
