-- vast.lua — Vast.ai's own marketplace API (console.vast.ai/api/v0/bundles/): the machines hosts
-- offer for rent, each with its GPU, count and price.
-- Use:  gpuwise prices fetch vast
--       gpuwise prices refresh vast --input saved-response.json
-- A response is {"offers": [...]}; each offer a machine: gpu_name ("RTX 4090", "A100 SXM4"),
-- num_gpus, gpu_ram (MB per GPU), dph_total (USD per hour for the whole machine, on demand),
-- min_bid (the lowest interruptible bid, USD per hour), rentable, verification, geolocation.
-- A marketplace lists many machines of one kind at different prices: they become one offer per
-- GPU and count, at the median on-demand price (the note gives the range and how many machines),
-- and one spot offer at the median min_bid.  Machines that are not rentable are left out.

local function median(values)
  table.sort(values)
  local n = #values
  if n == 0 then return nil end
  if n % 2 == 1 then return values[(n + 1) // 2] end
  return (values[n // 2] + values[n // 2 + 1]) / 2
end

-- 2 decimals of a dollar are what the marketplace shows
local function cents(x) return math.floor(x * 100 + 0.5) / 100 end

return {
  name = "vast",
  kind = "pricing",
  version = "1.0",
  description = "Vast.ai marketplace offers (bundles API), median per GPU and count",
  needs_input = true,
  urls = { bundles = "https://console.vast.ai/api/v0/bundles/" },

  offers = function(ctx)
    if not ctx.input then
      error("vast reads a bundles API response: run gpuwise prices fetch vast, or give --input FILE")
    end
    local doc, msg = gw.json.decode(ctx.input)
    if not doc then error((ctx.input_name or "input") .. ": " .. msg) end
    if type(doc) ~= "table" or type(doc.offers) ~= "table" then
      error((ctx.input_name or "input") .. ": not a Vast.ai bundles response (no offers list)")
    end
    local groups, order, left_out = {}, {}, 0
    for i, o in ipairs(doc.offers) do
      local name, count, price = o.gpu_name, tonumber(o.num_gpus), tonumber(o.dph_total)
      if o.rentable == false or type(name) ~= "string" or not count or count < 1
         or not price or price <= 0 then
        left_out = left_out + 1
      else
        local mib = tonumber(o.gpu_ram)
        -- the memory names the card where the name does not ("A100 SXM4" 81920 MB: the 80GB)
        local gpu = name
        if mib and not name:find("%d+ ?GB") then
          gpu = string.format("%s %dGB", name, math.floor(mib / 1024 + 0.5))
        end
        local key = gpu .. "|" .. count
        local g = groups[key]
        if not g then
          g = { gpu = gpu, count = count, prices = {}, bids = {}, line = i }
          groups[key] = g
          order[#order + 1] = g
        end
        g.prices[#g.prices + 1] = price
        local bid = tonumber(o.min_bid)
        if bid and bid > 0 and bid < price then g.bids[#g.bids + 1] = bid end
      end
    end
    local offers = {}
    for _, g in ipairs(order) do
      local base = {
        provider = "Vast.ai", gpu = g.gpu, gpu_count = g.count, currency = "USD",
        -- the median of what hosts ask: an observed market price, not a provider's price list
        quality = "market", instance = string.format("%dx %s (marketplace)", g.count, g.gpu),
      }
      local lo, hi, n = math.huge, 0, #g.prices
      for _, p in ipairs(g.prices) do lo, hi = math.min(lo, p), math.max(hi, p) end
      local od = {}
      for k, v in pairs(base) do od[k] = v end
      od.price_per_hour, od.spot = cents(median(g.prices)), false
      od.note = string.format("median of %d machine%s on the Vast.ai marketplace (USD %.2f to %.2f per hour)",
                              n, n == 1 and "" or "s", lo, hi)
      offers[#offers + 1] = od
      if #g.bids > 0 then
        local spot = {}
        for k, v in pairs(base) do spot[k] = v end
        spot.price_per_hour, spot.spot = cents(median(g.bids)), true
        spot.note = string.format("median lowest interruptible bid of %d machine%s on the Vast.ai marketplace",
                                  #g.bids, #g.bids == 1 and "" or "s")
        offers[#offers + 1] = spot
      end
    end
    if left_out > 0 then gw.log(left_out .. " machines not rentable or without a price: left out") end
    return offers
  end,
}
