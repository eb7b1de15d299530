-- azure-retail.lua — Azure's own price API, the Retail Prices API (prices.azure.com/api/retail/
-- prices, no account needed): the pay-as-you-go and spot prices of Azure's GPU VM sizes.
-- Use:  gpuwise prices fetch azure-retail           (one request per GPU size below)
--       gpuwise prices refresh azure-retail --input saved-response.json
-- A response is {"BillingCurrency", "Items": [...], "NextPageLink", "Count"}; each item a price
-- of one SKU (armSkuName) in one region (armRegionName): retailPrice in currencyCode per
-- unitOfMeasure "1 Hour".  Read: type "Consumption" items of Linux VMs (skuName "... Spot" is a
-- spot offer).  Left out: reservations and savings plans, Windows (productName "... Windows"),
-- the retired "Low Priority" prices, zero prices, and sizes whose GPUs this plugin cannot name
-- (the table below; logged).  A page with a NextPageLink is read as far as it goes (logged).

-- armSkuName (after "Standard_"): the card, and how many (a fraction of one for NVadsA10 v5).
local sizes = {
  { "^NC(%d+)ads_A100_v4$", "A100 80GB PCIe", function(v) return v / 24 end },
  { "^ND96asr_v4$", "A100 40GB SXM4", 8 },
  { "^ND96amsr_A100_v4$", "A100 80GB SXM4", 8 },
  { "^NC(%d+)ads_H100_v5$", "H100 NVL", function(v) return v / 40 end },
  { "^NC(%d+)adis_H100_v5$", "H100 NVL", function(v) return v / 40 end },
  { "^NCC(%d+)ads_H100_v5$", "H100 NVL", function(v) return v / 40 end },
  { "^ND96i?s?r?_H100_v5$", "H100 SXM", 8 },
  { "^ND96i?s?r?_H200_v5$", "H200 SXM", 8 },
  { "^ND96is_MI300X_v5$", "MI300X", 8 },
  { "^NC(%d+)as_T4_v3$", "T4", function(v) return v == 64 and 4 or 1 end },
  { "^NC(%d+)r?s_v3$", "V100 PCIe 16GB", function(v) return v / 6 end },
  { "^ND40rs_v2$", "V100 SXM2 32GB", 8 },
  { "^NV(%d+)ads_A10_v5$", "A10", function(v) return v / 36 end },
}
local SIZES = { "Standard_NC24ads_A100_v4", "Standard_NC96ads_A100_v4", "Standard_ND96asr_v4",
                "Standard_ND96amsr_A100_v4", "Standard_NC40ads_H100_v5", "Standard_ND96isr_H100_v5",
                "Standard_ND96isr_H200_v5", "Standard_NC4as_T4_v3", "Standard_NV36ads_A10_v5" }

-- One request per size: its consumption prices in every region fit in one page.
local function url_of(sku)
  return "https://prices.azure.com/api/retail/prices?$filter=armSkuName%20eq%20%27" .. sku ..
         "%27%20and%20priceType%20eq%20%27Consumption%27"
end
local urls = {}
for _, sku in ipairs(SIZES) do urls[sku:gsub("^Standard_", ""):lower()] = url_of(sku) end

-- The card and GPU count of an armSkuName, or nil.
local function gpus_of(sku)
  local name = (sku or ""):gsub("^Standard_", "")
  for _, s in ipairs(sizes) do
    local captured = name:match(s[1])
    if captured then
      local count = s[3]
      if type(count) == "function" then count = count(tonumber(captured) or 0) end
      return s[2], count
    end
  end
end

return {
  name = "azure-retail",
  kind = "pricing",
  version = "1.0",
  description = "Azure Retail Prices API: GPU VM sizes, pay-as-you-go and spot",
  needs_input = true,
  urls = urls,

  offers = function(ctx)
    if not ctx.input then
      error("azure-retail reads a Retail Prices API response: run gpuwise prices fetch azure-retail, or give --input FILE")
    end
    local page, msg = gw.json.decode(ctx.input)
    if not page then error((ctx.input_name or "input") .. ": " .. msg) end
    if type(page) ~= "table" or type(page.Items) ~= "table" then
      error((ctx.input_name or "input") .. ": not a Retail Prices API response (no Items list)")
    end
    local offers, skipped = {}, {}
    local function skip(why) skipped[why] = (skipped[why] or 0) + 1 end
    for i, item in ipairs(page.Items) do
      local sku_name, product = item.skuName or "", item.productName or ""
      local gpu, count = gpus_of(item.armSkuName)
      local price = tonumber(item.retailPrice)
      if item.type ~= "Consumption" then
        skip("reservations and other price types")
      elseif product:find("Windows", 1, true) or product:find(" Win$") then
        skip("Windows prices")
      elseif sku_name:find("Low Priority", 1, true) then
        skip("Low Priority prices")
      elseif item.unitOfMeasure ~= "1 Hour" or not price or price <= 0 then
        skip("prices that are not per hour, or zero")
      elseif not gpu then
        skip("sizes this plugin cannot name the GPUs of")
      else
        local fraction
        if count < 1 then count, fraction = 1, math.floor(count * 1000 + 0.5) / 1000 end
        offers[#offers + 1] = {
          provider = "Azure", gpu = gpu, gpu_count = count, gpu_fraction = fraction,
          price_per_hour = price, currency = item.currencyCode or "USD",
          spot = sku_name:find(" Spot$") ~= nil, instance = item.armSkuName,
          region = item.armRegionName, quality = "list",
          note = string.format("Azure Retail Prices API, %s item %d (%s; effective %s)",
                               ctx.input_name or "response", i, sku_name,
                               tostring(item.effectiveStartDate):sub(1, 10)),
        }
      end
    end
    if type(page.NextPageLink) == "string" and page.NextPageLink ~= "" then
      gw.log("the response has more pages (NextPageLink): only this one was read")
    end
    local why = {}
    for w, n in pairs(skipped) do why[#why + 1] = string.format("%d %s", n, w) end
    table.sort(why)
    if #why > 0 then gw.log("skipped: " .. table.concat(why, "; ")) end
    return offers
  end,
}
