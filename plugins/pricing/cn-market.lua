-- cn-market.lua — cloud GPU hourly prices quoted for the Chinese market, as offers.
-- The figures are those of two 2026 Chinese articles the KB cites (kb/data/sources.csv:
-- article-rented-a100-vs-3090 and article-4090-a100-h100); each offer cites its article, so
-- `gpuwise offers` shows where a price comes from.  A quoted range ("CNY 12-18/h") becomes two
-- offers, its low and its high end.  Prices are in CNY, stored as given.

local function quoted(gpu, low, high, what)
  return {
    { gpu = gpu, price = low,  note = "Low end of the article's quoted range for " .. what },
    { gpu = gpu, price = high, note = "High end of the article's quoted range for " .. what },
  }
end

-- article-4090-a100-h100: "about CNY 3-5/h" (RTX 4090), "12-18/h" (A100 40G), "18-25/h"
-- (A100 80G), "50-80/h" (H100).  The article does not give the A100/H100 form factors; the KB
-- files them under the SXM ids (see the notes in kb/data/prices.csv).
local ranges = {
  quoted("rtx-4090", 3, 5, "a cloud RTX 4090"),
  quoted("a100-sxm4-40gb", 12, 18, "a cloud A100 40G (form factor not stated)"),
  quoted("a100-sxm4-80gb", 18, 25, "a cloud A100 80G (form factor not stated)"),
  quoted("h100-sxm5", 50, 80, "a cloud H100 (form factor not stated)"),
}

return {
  name = "cn-market",
  kind = "pricing",
  version = "1.0",
  description = "Chinese-market cloud GPU hourly prices quoted in 2026 articles",

  offers = function(ctx)
    local offers = {}
    -- article-rented-a100-vs-3090: one unnamed platform ("以某平台为例"), CNY per hour.
    offers[#offers + 1] = {
      provider = "Unnamed CN platform", gpu = "a100-sxm4-40gb", gpu_count = 1,
      price_per_hour = 3.2, currency = "CNY", region = "CN", spot = false,
      instance = "A100-SXM4 (40GB) single card", as_of = "2026-01",
      source = "article-rented-a100-vs-3090", quality = "anecdote",
      note = "Extra charges on that platform: storage IO, public bandwidth, image acceleration CNY 0.5/h.",
    }
    offers[#offers + 1] = {
      provider = "Unnamed CN platform", gpu = "a100-sxm4-80gb", gpu_count = 1,
      price_per_hour = 4.8, currency = "CNY", region = "CN", spot = false,
      instance = "A100-80GB (MIG enabled)", as_of = "2026-01",
      source = "article-rented-a100-vs-3090", quality = "anecdote",
      note = "Same unnamed platform; the article does not state the form factor.",
    }
    for _, pair in ipairs(ranges) do
      for _, q in ipairs(pair) do
        offers[#offers + 1] = {
          provider = "CN cloud (quoted range)", gpu = q.gpu, gpu_count = 1,
          price_per_hour = q.price, currency = "CNY", region = "CN", spot = false,
          as_of = "2026-01", source = "article-4090-a100-h100", note = q.note,
          quality = "anecdote",   -- prices quoted in a blog article
        }
      end
    end
    return offers
  end,
}
