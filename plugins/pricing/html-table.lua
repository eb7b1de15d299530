-- html-table.lua — reads the price tables of a saved HTML price page (File > Save Page As).
-- Use:  gpuwise prices refresh html-table --input acme-pricing.html [--provider "Acme"]
-- It reads every <table> whose header names a GPU column and a price column, matching header
-- text loosely: GPU ("GPU", "GPU type", "Accelerator"), count ("GPUs", "# GPUs", "Count"),
-- prices ("Price", "On-demand", "$/hr", "per hour", "Hourly", "Cost"), and optionally "Spot",
-- "Instance"/"Plan"/"Name" and "Region"/"Location".  A price column whose header says it is per
-- GPU ("Price per GPU/h", "$/GPU/hr", "GPU-hour") is multiplied by the instance's GPUs; when a
-- table has both, the per-instance column is read.
-- Prices: "$2.49/hr", "EUR 0,59", "0,59 €", "1.299,00 €", "CHF 1.20": the currency from a
-- symbol ($ USD, € EUR, £ GBP, ¥/￥/元 CNY, ₹ INR, ₩ KRW) or a three-letter code; a decimal
-- comma is read as one (a comma followed by one or two digits is never a thousands separator,
-- and a page that writes its decimals with commas has its dots read as thousands separators).
-- The provider is --provider (ctx.provider), else PROVIDER below (set it in a copy of this
-- plugin made for one provider's page), else <meta name="provider">, og:site_name or
-- application-name; never the page title, which names the page rather than the provider.
-- The date of the prices is <meta name="prices-as-of"> or the first <time datetime=...>.

local PROVIDER = nil

local function trim(s) return ((s or ""):gsub("%s+", " "):match("^%s*(.-)%s*$")) end

-- What each header cell is.  Prices are tested first ("Price per GPU/h" names no GPU column).
local price_words = { "price", "on-demand", "on demand", "$/", "€/", "£/", "/hr", "/h", "per hour",
                      "hourly", "cost", "rate" }
local per_gpu_words = { "per gpu", "/gpu", "gpu/h", "gpu-h", "gpu h", "per card", "/card" }
local spot_words = { "spot", "preemptible", "interruptible" }
local columns = {
  { key = "count", words = { "# gpus", "gpus", "gpu count", "number of gpus", "count", "qty" } },
  { key = "gpu", words = { "gpu type", "gpu model", "accelerator", "graphics card", "gpu" } },
  { key = "instance", words = { "instance", "plan", "name", "type", "configuration", "sku" } },
  { key = "region", words = { "region", "location", "datacenter", "data center" } },
}

local function has_any(text, words)
  for _, w in ipairs(words) do
    if text:find(w, 1, true) then return true end
  end
  return false
end

-- map.gpu, map.count, ...: column numbers; map.price/map.spot: {col, per_gpu}, the per-instance
-- column preferred.
local function header_map(cells)
  local map = {}
  for i, cell in ipairs(cells) do
    local text = trim(cell:text()):lower()
    if has_any(text, price_words) or has_any(text, spot_words) then
      local key = has_any(text, spot_words) and "spot" or "price"
      local per_gpu = has_any(text, per_gpu_words)
      if not map[key] or (map[key].per_gpu and not per_gpu) then
        map[key] = { col = i, per_gpu = per_gpu }
      end
    else
      for _, col in ipairs(columns) do
        if not map[col.key] then
          local hit = false
          for _, w in ipairs(col.words) do
            if text == w or (w ~= "gpu" and w ~= "count" and text:find(w, 1, true)) then hit = true end
          end
          if hit then map[col.key] = i; break end
        end
      end
    end
  end
  return map
end

local symbols = {   -- longest first: "US$" before "$"
  { "US$", "USD" }, { "AU$", "AUD" }, { "A$", "AUD" }, { "CA$", "CAD" }, { "C$", "CAD" },
  { "CN¥", "CNY" }, { "JP¥", "JPY" }, { "RMB", "CNY" }, { "￥", "CNY" }, { "¥", "CNY" },
  { "元", "CNY" }, { "$", "USD" }, { "€", "EUR" }, { "£", "GBP" }, { "₹", "INR" }, { "₩", "KRW" },
}

local function currency_of(text)
  local code = text:match("%f[%a](%u%u%u)%f[%A]")
  if code and code ~= "GPU" and code ~= "CPU" and code ~= "RAM" then return code end
  for _, s in ipairs(symbols) do
    if text:find(s[1], 1, true) then return s[2] end
  end
end

-- The number in a price cell as written ("1.299,00"), or nil.
local function number_text(text)
  return text:match("%d[%d%.,]*%d") or text:match("%d")
end

-- Does the page write decimals with a comma?  Yes when a price has a comma followed by one or
-- two digits at its end ("0,59", "1.299,00").
local function decimal_comma_page(texts)
  for _, t in ipairs(texts) do
    local n = number_text(t)
    if n and n:find(",%d%d?$") then return true end
  end
  return false
end

-- "1.299,00" -> 1299 on a decimal-comma page; "1,299.00" -> 1299; "0,59" -> 0.59.
local function parse_number(n, decimal_comma)
  local last_dot, last_comma = n:match(".*()%."), n:match(".*(),")
  local decimal
  if last_dot and last_comma then
    decimal = last_dot > last_comma and "." or ","
  elseif last_comma then
    -- a comma followed by 1-2 digits is a decimal comma; ",ddd" groups are thousands unless the
    -- page writes decimal commas
    decimal = (decimal_comma or not n:match("^%d%d?%d?,%d%d%d[,%d]*$")) and "," or nil
  elseif last_dot then
    decimal = (decimal_comma and n:match("^%d%d?%d?%.%d%d%d[%.%d]*$")) and nil or "."
  end
  local sep = decimal == "," and "." or ","
  local clean = n:gsub("%" .. sep, "")
  if decimal == "," then clean = clean:gsub(",", ".") end
  if not decimal then clean = clean:gsub("[,%.]", "") end
  return tonumber(clean)
end

local function first_attr(doc, xpath, attr)
  local nodes = doc:xpath(xpath)
  if nodes[1] then
    local v = trim(nodes[1]:attr(attr))
    if v ~= "" then return v end
  end
end

return {
  name = "html-table",
  kind = "pricing",
  version = "2.0",
  description = "GPU price tables of a saved HTML price page",
  needs_input = true,

  offers = function(ctx)
    if not ctx.input then
      error("html-table reads a saved price page: give --input FILE")
    end
    local doc, msg = gw.html.parse(ctx.input, ctx.input_name)
    if not doc then error(msg) end
    local provider = ctx.provider or PROVIDER
      or first_attr(doc, "//meta[@name='provider']", "content")
      or first_attr(doc, "//meta[@property='og:site_name']", "content")
      or first_attr(doc, "//meta[@name='application-name']", "content")
    if not provider then
      error((ctx.input_name or "page") .. ": the page names no provider (no <meta name=\"provider\">, " ..
            "og:site_name or application-name): give --provider NAME")
    end
    local as_of = first_attr(doc, "//meta[@name='prices-as-of']", "content")
      or first_attr(doc, "//time[@datetime]", "datetime")
    if as_of then as_of = as_of:match("^(%d%d%d%d%-%d%d%-%d%d)") or as_of:match("^(%d%d%d%d%-%d%d)") end

    -- the tables with their columns, and every price cell (for the page's decimal mark)
    local tables, price_texts = {}, {}
    for t, tbl in ipairs(doc:xpath("//table")) do
      local rows = tbl:xpath(".//tr")
      local map = header_map(rows[1] and rows[1]:xpath("th|td") or {})
      if map.gpu and map.price then
        tables[#tables + 1] = { index = t, rows = rows, map = map }
        for r = 2, #rows do
          local cells = rows[r]:xpath("td|th")
          for _, key in ipairs({ "price", "spot" }) do
            local c = map[key] and cells[map[key].col]
            if c then price_texts[#price_texts + 1] = trim(c:text()) end
          end
        end
      end
    end
    local decimal_comma = decimal_comma_page(price_texts)
    local page_currency
    for _, t in ipairs(price_texts) do page_currency = page_currency or currency_of(t) end

    local offers = {}
    for _, tbl in ipairs(tables) do
      local map = tbl.map
      for r = 2, #tbl.rows do
        local cells = tbl.rows[r]:xpath("td|th")
        local function cell(col) return col and cells[col] and trim(cells[col]:text()) end
        local where = string.format("table %d row %d", tbl.index, r)
        local gpu = cell(map.gpu)
        local count = tonumber((cell(map.count) or ""):match("%d+"))
        if gpu and gpu ~= "" and not count then
          local _, n = gw.gpu.resolve(gpu)   -- "8x H100" names its count
          count = n
        end
        -- a price column's value for the whole instance, with its currency
        local function price_of(spec)
          local text = spec and cell(spec.col)
          local n = text and number_text(text)
          local value = n and parse_number(n, decimal_comma)
          if not value or value <= 0 then return nil end
          if spec.per_gpu then value = value * (count or 1) end
          return value, currency_of(text) or page_currency
        end
        local price, currency = price_of(map.price)
        if not gpu or gpu == "" or not price then
          gw.log(where .. ": no GPU or price, skipped")
        elseif not currency then
          gw.log(where .. ": no currency on the page, skipped")
        else
          local note = string.format("%s, %s", ctx.input_name or "page", where)
          if map.price.per_gpu then note = note .. " (price per GPU-hour x " .. (count or 1) .. ")" end
          local base = {
            provider = provider, gpu = gpu, gpu_count = count, price_per_hour = price,
            currency = currency, spot = false, instance = cell(map.instance),
            region = cell(map.region), as_of = as_of, note = note,
          }
          offers[#offers + 1] = base
          local spot_price, spot_currency = price_of(map.spot)
          if spot_price then
            local s = {}
            for k, v in pairs(base) do s[k] = v end
            s.price_per_hour, s.spot = spot_price, true
            s.currency = spot_currency or base.currency
            offers[#offers + 1] = s
          end
        end
      end
    end
    return offers
  end,
}
