-- skypilot.lua — reads a SkyPilot catalog vms.csv (catalogs/v7/<cloud>/vms.csv) of one cloud.
-- Use:  gpuwise prices refresh skypilot --input runpod/vms.csv
-- The cloud is read from the file name (ctx.input_name: "gcp", "lambda", "runpod", "aws",
-- "azure", ...), e.g. save it as runpod-vms.csv.  Columns are found by header name, since
-- their order differs per cloud.  What the catalog does that this plugin handles:
--   * Price and SpotPrice per instance-hour in USD; an empty SpotPrice means no spot offer.
--   * GCP A100/H100 host VMs (a2-*, a3-*) carry no GPU: their Price is the VM alone, and the
--     GPUs are priced in rows with an empty InstanceType.  Such a VM is joined with the GPU row
--     of the same zone and count; without one it is skipped (a price without its GPUs would
--     mislead).
--   * GCP's placeholder price 700.0 (unavailable regions) and exact duplicate rows are dropped.
--   * Lambda's GpuInfo is a Python-literal dict: the per-GPU memory in it names the card
--     ("A100" with 40960 MiB is the A100 40GB).
--   * RunPod calls the PCIe A100 80GB "A100-80GB" and the SXM one "A100-80GB-SXM".

local PLACEHOLDER = 700.0

-- GCP machine families and the GPU each carries (GPUs per VM from the name: a2-highgpu-4g).
local gcp_families = {
  ["a2-highgpu"] = { accel = "A100", gpu = "A100 40GB SXM4" },
  ["a2-megagpu"] = { accel = "A100", gpu = "A100 40GB SXM4" },
  ["a2-ultragpu"] = { accel = "A100-80GB", gpu = "A100 80GB SXM4" },
  ["a3-highgpu"] = { accel = "H100", gpu = "H100 SXM" },
  ["a3-edgegpu"] = { accel = "H100", gpu = "H100 SXM" },
  ["a3-megagpu"] = { accel = "H100-MEGA", gpu = "H100 SXM" },
}

-- Accelerator names that need a more exact name before the KB can tell the card.
local names = {
  runpod = { ["A100-80GB"] = "A100 80GB PCIe", ["A100-80GB-SXM"] = "A100 80GB SXM4" },
}

local providers = {
  aws = "AWS", azure = "Azure", gcp = "GCP", lambda = "Lambda", runpod = "RunPod",
  oci = "Oracle Cloud", paperspace = "Paperspace", fluidstack = "FluidStack",
  cudo = "Cudo Compute", vast = "Vast.ai", ibm = "IBM Cloud", scp = "Samsung Cloud",
}

local function cloud_of(input_name)
  local lower = (input_name or ""):lower()
  for key in pairs(providers) do
    if lower:find(key, 1, true) then return key end
  end
end

local function num(s)
  local n = tonumber(s or "")
  if n and n == n and n > 0 then return n end
end

-- The card's name: the catalog name, made exact where needed.
local function gpu_name(cloud, accel, gpu_info)
  local by_cloud = names[cloud] or {}
  if by_cloud[accel] then return by_cloud[accel] end
  local mib = gpu_info and tonumber(gpu_info:match("'SizeInMiB':%s*(%d+)"))
  if mib and not accel:find("%d+GB") then
    return string.format("%s %dGB", accel, math.floor(mib / 1024 + 0.5))
  end
  return accel
end

return {
  name = "skypilot",
  kind = "pricing",
  version = "1.0",
  description = "SkyPilot catalog vms.csv (one cloud per file)",
  needs_input = true,

  offers = function(ctx)
    if not ctx.input then
      error("skypilot reads a saved vms.csv: give --input FILE")
    end
    local cloud = cloud_of(ctx.input_name)
    if not cloud then
      error("cannot tell the cloud from the file name '" .. tostring(ctx.input_name) ..
            "': name it after the cloud, e.g. runpod-vms.csv")
    end
    local provider = providers[cloud]
    local rows = gw.csv.rows(ctx.input)

    -- GCP GPU rows, by zone .. accelerator .. count
    local gpu_rows = {}
    for _, row in ipairs(rows) do
      if (row.InstanceType or "") == "" and (row.AcceleratorName or "") ~= "" then
        local key = (row.AvailabilityZone or "") .. "|" .. row.AcceleratorName .. "|" ..
                    math.floor(tonumber(row.AcceleratorCount) or 0)
        gpu_rows[key] = row
      end
    end

    local offers, seen, skipped = {}, {}, {}
    local function skip(why) skipped[why] = (skipped[why] or 0) + 1 end
    local function add(gpu, count, price, spot, instance, region, line)
      local key = table.concat({ gpu, count, price, tostring(spot), instance, region }, "|")
      if seen[key] then skip("duplicate rows"); return end
      seen[key] = true
      offers[#offers + 1] = {
        provider = provider, gpu = gpu, gpu_count = count, price_per_hour = price,
        currency = "USD", spot = spot, instance = instance, region = region,
        quality = "list",   -- SkyPilot's catalogs are fetched from each cloud's own pricing API
        note = "SkyPilot catalog " .. tostring(ctx.input_name) .. " line " .. line,
      }
    end

    for i, row in ipairs(rows) do
      local line = i + 1
      local instance = row.InstanceType or ""
      local accel = row.AcceleratorName or ""
      local count = num(row.AcceleratorCount)
      local price, spot = num(row.Price), num(row.SpotPrice)
      local family = instance:match("^(a%d%-%a+gpu)%-")
      if instance == "" then
        -- a GPU or TPU row of GCP: priced together with its host VM below
      elseif family and gcp_families[family] then
        local fam = gcp_families[family]
        local n = tonumber(instance:match("%-(%d+)g$"))
        local g = n and gpu_rows[(row.AvailabilityZone or "") .. "|" .. fam.accel .. "|" .. n]
        if not g then
          skip("GCP host VMs without a GPU price row to join")
        elseif price and num(g.Price) and price ~= PLACEHOLDER and num(g.Price) ~= PLACEHOLDER then
          add(fam.gpu, n, price + num(g.Price), false, instance, row.Region, line)
          if spot and num(g.SpotPrice) then
            add(fam.gpu, n, spot + num(g.SpotPrice), true, instance, row.Region, line)
          end
        end
      elseif accel == "" or not count then
        skip("rows without a GPU")
      elseif price == PLACEHOLDER then
        skip("placeholder prices (700.0)")
      else
        local name = gpu_name(cloud, accel, row.GpuInfo)
        if not gw.gpu.resolve(name) then
          skip("accelerators not in the KB (" .. accel .. ")")
        else
          if price then add(name, count, price, false, instance, row.Region, line) end
          if spot and spot ~= PLACEHOLDER then
            add(name, count, spot, true, instance, row.Region, line)
          end
        end
      end
    end
    -- TPU rows of GCP are accelerators without a host: not GPUs, so not offers.
    for key, row in pairs(gpu_rows) do
      if not gw.gpu.resolve(row.AcceleratorName) then skip("accelerators not in the KB (" .. row.AcceleratorName .. ")") end
    end
    local why = {}
    for w, n in pairs(skipped) do why[#why + 1] = string.format("%d %s", n, w) end
    table.sort(why)
    if #why > 0 then gw.log("skipped: " .. table.concat(why, "; ")) end
    return offers
  end,
}
