-- fsdl.lua — reads the Full Stack Deep Learning cloud GPU tables (fullstackdeeplearning.com/
-- cloud-gpus, "All prices are in $/hr."), either of its two files, told apart by the header:
--   cloud-gpus.csv: Cloud, GPU Type, GPU Arch, GPUs, GPU RAM, vCPUs, RAM, On-demand, Per-GPU,
--     Spot, Name; prices in USD per instance-hour.  Each row gives an on-demand offer, and a spot
--     offer when the Spot column has a price.
--   serverless-gpus.csv: Vendor, GPU Type, GPU Arch, GPUs, GPU RAM, vCPUs, RAM, Per-Hour,
--     Per-GPU; USD per hour for the configuration ("$0.4" in some rows).  Serverless GPUs scale
--     to zero without traffic (the page's definition): each row is an on-demand offer whose
--     instance says "serverless" with its vCPUs and RAM (two Replicate A40 rows differ only in
--     those), and whose note says the billing step is not stated.  The file names no instance
--     and no billing granularity, so neither is invented.
-- Use:  gpuwise prices refresh fsdl --input cloud-gpus.csv   (or serverless-gpus.csv)
-- A refresh replaces the offers this plugin stored earlier for the providers it reads, from
-- either file: RunPod and OVHcloud, in both, keep only the offers of the file read last.
-- GPU types are passed on as written, with their line, and with the memory per GPU the GPU RAM
-- column gives where the type names none ("A40" in 48 GB -> "A40 (48 GB)"): one the KB cannot
-- name exactly (e.g. "RTX4000 (8 GB)", which could be two cards) is reported by gpuwise with its
-- lines and the closest cards, and left out, rather than guessed.

local function trim(s) return (s or ""):match("^%s*(.-)%s*$") end

-- A USD figure as the tables write it: "2.21", or "$0.4" in a few serverless rows.
local function dollars(s)
  local n = tonumber((trim(s):gsub("^%$", ""):gsub(",", "")))
  if n and n > 0 and n < math.huge then return n end
end

-- The GPU type with the memory per GPU added where it names none: GPU RAM is the instance's
-- ("640", "40GB"), so divided by the count.
local function gpu_name(gpu_type, gpu_ram, count)
  if gpu_type:find("%d%s*[Gg][Bb]") then return gpu_type end
  local instance_gb = tonumber((trim(gpu_ram):gsub("%s*[Gg][Bb]$", "")))
  if not (instance_gb and instance_gb > 0) then return gpu_type end
  return string.format("%s (%g GB)", gpu_type, instance_gb / count)
end

-- The layout a header names: the columns of the provider, the price and the spot price.
local LAYOUTS = {
  cloud = { provider = "Cloud", price = "On-demand", spot = "Spot", file = "cloud-gpus.csv" },
  serverless = { provider = "Vendor", price = "Per-Hour", file = "serverless-gpus.csv" },
}

-- A serverless row's instance: "serverless", with the vCPUs and RAM where the row gives them
-- (Mystic AI's rows give 0 and 0).
local function serverless_instance(row)
  local vcpus, ram = tonumber(row["vCPUs"]), tonumber(row["RAM"])
  if vcpus and vcpus > 0 and ram and ram > 0 then
    return string.format("serverless, %g vCPU, %g GB RAM", vcpus, ram)
  end
  return "serverless"
end

-- The offers of one row (on-demand, then spot), or nil and why the row gives none.
local function row_offers(row, line, layout)
  local provider, gpu_type = trim(row[layout.provider]), trim(row["GPU Type"])
  local count = tonumber(row["GPUs"])
  if provider == "" then return nil, "no " .. layout.provider end
  if gpu_type == "" then return nil, "no GPU Type" end
  if not (count and count >= 1 and count == math.floor(count)) then
    return nil, string.format("no whole GPU count ('%s')", trim(row["GPUs"]))
  end
  local price = dollars(row[layout.price])
  if not price then
    -- Some cloud rows fill only Per-GPU, and there it does not always match GPUs x price;
    -- rather than guess the instance price, the row is left out.
    local written = trim(row[layout.price])
    return nil, string.format("no %s price%s", layout.price,
                              written ~= "" and " ('" .. written .. "')" or "")
  end
  local serverless = layout == LAYOUTS.serverless
  local base = {
    provider = provider, gpu = gpu_name(gpu_type, row["GPU RAM"], count), gpu_count = count,
    currency = "USD", line = line,
    instance = serverless and serverless_instance(row) or
               (trim(row["Name"]) ~= "" and trim(row["Name"]) or nil),
    note = "FSDL " .. layout.file .. " line " .. line ..
           (serverless and ": a serverless GPU (scales to zero without traffic), the Per-Hour "
                           .. "column in USD per hour as the file gives it; billed for the time "
                           .. "it runs, in steps the file does not state" or ""),
  }
  local offers = {}
  local function add(amount, spot)
    local o = {}
    for k, v in pairs(base) do o[k] = v end
    o.price_per_hour, o.spot = amount, spot
    offers[#offers + 1] = o
  end
  add(price, false)
  local spot = layout.spot and dollars(row[layout.spot])
  if spot then add(spot, true) end
  return offers
end

return {
  name = "fsdl",
  kind = "pricing",
  version = "1.2",
  description = "Full Stack Deep Learning cloud and serverless GPU price tables",
  needs_input = true,

  offers = function(ctx)
    if not ctx.input then
      error("fsdl reads a saved cloud-gpus.csv or serverless-gpus.csv: give --input FILE")
    end
    local rows = gw.csv.rows(ctx.input)
    local first = rows[1] or {}
    local layout = first["Vendor"] and first["Per-Hour"] and LAYOUTS.serverless or
                   first["Cloud"] and first["On-demand"] and LAYOUTS.cloud
    if #rows > 0 and not layout then
      error("fsdl: the header has neither Cloud and On-demand (cloud-gpus.csv) nor Vendor and "
            .. "Per-Hour (serverless-gpus.csv)")
    end
    local offers = {}
    for i, row in ipairs(rows) do
      local line = i + 1   -- the header is line 1
      local got, why = row_offers(row, line, layout)
      if not got then
        gw.log(string.format("line %d: %s; skipped", line, why))
      else
        for _, o in ipairs(got) do offers[#offers + 1] = o end
      end
    end
    return offers
  end,
}
