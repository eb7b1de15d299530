-- html-table.lua — reads the price table of a saved HTML price page (File > Save Page As).
-- Use:  gpuwise prices refresh html-table --input acme-pricing.html
-- It reads every <table> whose header names a GPU column and a price column, matching header
-- text loosely: GPU ("GPU", "GPU type", "Accelerator"), count ("GPUs", "# GPUs", "Count"),
-- price ("Price", "On-demand", "$/hr", "per hour"), and optionally "Spot", "Instance"/"Plan"/
-- "Name" and "Region"/"Location".  The provider is <meta name="provider" content="...">, else
-- og:site_name, else the page <title>; the date of the prices is <meta name="prices-as-of">
-- or the first <time datetime="YYYY-MM-DD">.  Currency from the price cell: $ USD, € EUR,
-- £ GBP, or a three-letter code (1.20 CHF).

local function trim(s) return (s or ""):gsub("%s+", " "):match("^%s*(.-)%s*$") end

local columns = {
  { key = "gpu", words = { "gpu type", "gpu model", "accelerator", "gpu" } },
  { key = "count", words = { "# gpus", "gpus", "gpu count", "count" } },
  { key = "spot", words = { "spot", "preemptible", "interruptible" } },
  { key = "price", words = { "on-demand", "on demand", "$/hr", "per hour", "hourly", "price" } },
  { key = "instance", words = { "instance", "plan", "name", "type" } },
  { key = "region", words = { "region", "location" } },
}

-- Which column each header cell is (first match wins; "gpus" is tested before "gpu").
local function header_map(cells)
  local map = {}
  for i, cell in ipairs(cells) do
    local text = trim(cell:text()):lower()
    for _, col in ipairs(columns) do
      if not map[col.key] then
        for _, w in ipairs(col.words) do
          if text == w or (w ~= "gpu" and text:find(w, 1, true)) then
            map[col.key] = i
            break
          end
        end
        if map[col.key] == i then break end
      end
    end
  end
  return map
end

local symbols = { ["$"] = "USD", ["€"] = "EUR", ["£"] = "GBP" }

-- "$2.49/hr" -> 2.49, "USD"; "1,20 €" is not read (ambiguous decimal comma).
local function money(text)
  text = trim(text)
  local number = text:match("(%d[%d,]*%.?%d*)")
  if not number then return nil end
  -- a comma is a thousands separator only before groups of three digits ("1,299.00");
  -- "1,45" could be 1.45 or 145, so it is not read at all
  if number:find(",") and not number:match("^%d%d?%d?,%d%d%d[,%d]*%.?%d*$") then return nil end
  local value = tonumber((number:gsub(",", "")))
  local currency
  for sym, code in pairs(symbols) do
    if text:find(sym, 1, true) then currency = code end
  end
  currency = currency or text:match("%f[%a](%u%u%u)%f[%A]")
  return value, currency
end

local function first_attr(doc, xpath, attr)
  local nodes = doc:xpath(xpath)
  if nodes[1] then return trim(nodes[1]:attr(attr)) end
end

return {
  name = "html-table",
  kind = "pricing",
  version = "1.0",
  description = "GPU price tables of a saved HTML price page",
  needs_input = true,

  offers = function(ctx)
    if not ctx.input then
      error("html-table reads a saved price page: give --input FILE")
    end
    local doc, msg = gw.html.parse(ctx.input, ctx.input_name)
    if not doc then error(msg) end
    local provider = first_attr(doc, "//meta[@name='provider']", "content")
      or first_attr(doc, "//meta[@property='og:site_name']", "content")
    if not provider then
      local title = doc:xpath("//title")[1]
      provider = title and trim(title:text())
    end
    if not provider or provider == "" then
      error("the page names no provider: add <meta name=\"provider\" content=\"...\">")
    end
    local as_of = first_attr(doc, "//meta[@name='prices-as-of']", "content")
      or first_attr(doc, "//time[@datetime]", "datetime")
    if as_of then as_of = as_of:match("^(%d%d%d%d%-%d%d%-%d%d)") or as_of:match("^(%d%d%d%d%-%d%d)") end

    local offers = {}
    for t, tbl in ipairs(doc:xpath("//table")) do
      local rows = tbl:xpath(".//tr")
      local header = rows[1] and rows[1]:xpath("th|td") or {}
      local map = header_map(header)
      if map.gpu and map.price then
        for r = 2, #rows do
          local cells = rows[r]:xpath("td|th")
          local function cell(key) return map[key] and cells[map[key]] and trim(cells[map[key]]:text()) end
          local gpu = cell("gpu")
          local price, currency = money(cell("price") or "")
          local count = tonumber((cell("count") or ""):match("%d+")) or 1
          if gpu and gpu ~= "" and price then
            local base = {
              provider = provider, gpu = gpu, gpu_count = count, price_per_hour = price,
              currency = currency or "USD", spot = false, instance = cell("instance"),
              region = cell("region"), as_of = as_of,
              note = string.format("%s, table %d row %d", ctx.input_name or "page", t, r),
            }
            offers[#offers + 1] = base
            local spot_price, spot_currency = money(cell("spot") or "")
            if spot_price then
              local s = {}
              for k, v in pairs(base) do s[k] = v end
              s.price_per_hour, s.spot = spot_price, true
              s.currency = spot_currency or base.currency
              offers[#offers + 1] = s
            end
          else
            gw.log(string.format("table %d row %d: no GPU or price, skipped", t, r))
          end
        end
      end
    end
    return offers
  end,
}
