-- skypilot.lua — reads a SkyPilot catalog vms.csv (catalogs/v7/<cloud>/vms.csv), one cloud per
-- file, the whole file: AWS, Azure, GCP, Lambda, RunPod and any other cloud in the same columns.
-- Use:  gpuwise prices fetch skypilot            (downloads every cloud's file below)
--       gpuwise prices refresh skypilot --input vms.csv --provider AWS
-- Which cloud a file is: the source it was downloaded as (ctx.source), else --provider, else a
-- cloud's name in the file name ("aws-vms.csv"), else the file itself (GCP's column order,
-- Azure's Generation column, the shape of the instance names: p4d.24xlarge, Standard_NC24ads_
-- A100_v4, gpu_8x_a100, 8x_A100-80GB_SECURE).
-- What the catalogs do that this plugin handles:
--   * Columns in a different order per cloud: read by header name.
--   * Price and SpotPrice per instance-hour in USD; an empty SpotPrice is no spot offer, and so
--     is a SpotPrice not below the Price (AWS repeats the on-demand price where it has none).
--   * One row per availability zone: one offer per instance, region and kind, at the lowest
--     price of its zones (the note says how many zones).
--   * GpuInfo as a Python-literal dict ({'Gpus': [{'Name': 'V100', ... 'SizeInMiB': 16384}]})
--     on AWS, Lambda and GCP, a plain name on Azure and RunPod: its per-GPU memory names the
--     card where the accelerator name alone does not.  The memory is a card's GiB on HBM parts
--     (A100 40GB: 40960 MiB) and its GB, less a reserve, on GDDR ones (L4: 22888 MiB); Vast
--     gives all the instance's GPUs together, and RunPod's newer files give GB in SizeInMiB.
--     A name with the memory is tried both ways, then the name alone when the KB's card of that
--     name has about that memory (gw.gpu.resolve).
--   * The form is in the instance name (Cudo's a100-pcie, Vast's 2x-H100_NVL-32-65536) or in
--     GpuInfo's own name ('NVIDIA H100 PCIe'); smaller clouds write names their own way
--     (H100_PCIE_BAREMETAL, A100-80G-PCIe, RTX5090_PCIE) and GpuInfo as JSON.
--   * A row with only a spot price (AWS, where on-demand is not sold) is a spot offer.
--   * A catalog GPU count that contradicts the size's own (Azure's ND96isr H100 v5 at 12) is
--     corrected, and the note says so.
--   * GCP prices A100/H100/H200/B200/L4 host VMs (a2-*, a3-*, a4-*, g2-*) without their GPUs,
--     which have rows of their own (empty InstanceType) per zone and count: each host VM is
--     joined with the GPU row of its zone.  GPUs attached to N1 VMs (T4, V100, P100, P4) are
--     joined with an n1-standard-8 host (the note says so).
--   * Placeholders: GCP's 700.0 (both prices) where a region does not sell the part, Azure's
--     0 (H100 sizes without a price), empty prices; exact duplicate rows.
--   * Azure's fractional A10 sizes (AcceleratorCount 0.167: a sixth of a card) become one GPU
--     with gpu_fraction.
--   * Accelerators that are not GPUs (TPUs, Inferentia, Trainium) are skipped; a GPU name the
--     KB does not know is passed on, and gpuwise reports it with the lines that name it.

local BASE = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v7/"

-- The clouds: provider name, and the exact card behind an accelerator name where the name
-- alone (with the GpuInfo memory) does not tell it.  A function gets the row's instance type.
local clouds = {
  aws = { provider = "AWS", names = {
    ["A100"] = "A100 40GB SXM4", ["A100-80GB"] = "A100 80GB SXM4", ["H100"] = "H100 SXM",
    ["H200"] = "H200 SXM", ["V100"] = "V100 SXM2 16GB", ["V100-32GB"] = "V100 SXM2 32GB" } },
  azure = { provider = "Azure", counts = {
    -- sizes whose GPUs the catalog miscounts: Microsoft Learn's ND H100 v5 and ND H200 v5
    -- series are 8 GPUs a VM
    Standard_ND96isr_H100_v5 = 8, Standard_ND96isr_H200_v5 = 8 }, names = {
    ["A100"] = "A100 40GB SXM4",
    ["A100-80GB"] = function(instance)
      return instance:find("ND96amsr", 1, true) and "A100 80GB SXM4" or "A100 80GB PCIe"
    end,
    ["H100"] = function(instance)
      return instance:find("^Standard_ND") and "H100 SXM" or "H100 NVL"
    end,
    ["H200"] = "H200 SXM", ["V100"] = "V100 PCIe 16GB", ["V100-32GB"] = "V100 SXM2 32GB",
    ["P100"] = "P100 PCIe 16GB" } },
  gcp = { provider = "GCP", names = {
    ["A100"] = "A100 40GB SXM4", ["A100-80GB"] = "A100 80GB SXM4", ["H100"] = "H100 SXM",
    ["H100-MEGA"] = "H100 SXM", ["H200"] = "H200 SXM", ["V100"] = "V100 SXM2 16GB",
    ["P100"] = "P100 PCIe 16GB" } },
  lambda = { provider = "Lambda", names = {
    ["A100"] = function(instance, count)
      return (instance:find("sxm") or count == 8) and "A100 40GB SXM4" or "A100 40GB PCIe"
    end,
    ["A100-80GB"] = function(instance, count)
      return (instance:find("sxm") or count == 8) and "A100 80GB SXM4" or "A100 80GB PCIe"
    end,
    ["H100"] = function(instance)
      return instance:find("pcie") and "H100 PCIe" or "H100 SXM"
    end,
    ["A6000"] = "RTX A6000", ["RTX6000"] = "Quadro RTX 6000", ["V100"] = "V100 SXM2 16GB" } },
  runpod = { provider = "RunPod", names = {
    ["A100-80GB"] = "A100 80GB PCIe", ["A100-80GB-SXM"] = "A100 80GB SXM4" } },
  cudo = { provider = "Cudo Compute", names = {} },
  fluidstack = { provider = "FluidStack", names = {} },
  paperspace = { provider = "Paperspace", names = {} },
  vast = { provider = "Vast.ai", names = {}, marketplace = true },   -- hosts set the prices
  nebius = { provider = "Nebius", names = {} },
  hyperbolic = { provider = "Hyperbolic", names = {} },
  oci = { provider = "Oracle Cloud", names = {} },
  ibm = { provider = "IBM Cloud", names = {} },
  scp = { provider = "Samsung Cloud", names = {} },
  ["do"] = { provider = "DigitalOcean", names = {} },
  primeintellect = { provider = "Prime Intellect", names = {} },
  shadeform = { provider = "Shadeform", names = {} },
  seeweb = { provider = "Seeweb", names = {} },
}

-- GCP host VMs that carry GPUs priced in rows of their own: accelerator and count.
local gcp_hosts = {
  { "^a2%-highgpu%-(%d+)g$", "A100" }, { "^a2%-megagpu%-(%d+)g$", "A100" },
  { "^a2%-ultragpu%-(%d+)g$", "A100-80GB" }, { "^a3%-highgpu%-(%d+)g$", "H100" },
  { "^a3%-edgegpu%-(%d+)g", "H100" }, { "^a3%-megagpu%-(%d+)g$", "H100-MEGA" },
  { "^a3%-ultragpu%-(%d+)g$", "H200" }, { "^a4%-highgpu%-(%d+)g$", "B200" },
}
local g2_l4 = { [4] = 1, [8] = 1, [12] = 1, [16] = 1, [32] = 1, [24] = 2, [48] = 4, [96] = 8 }
local GCP_N1_HOST = "n1-standard-8"   -- the host of GPUs an N1 VM carries (T4, V100, P100, P4)
local GCP_PLACEHOLDER = 700.0

-- Accelerators that are not GPUs.
local function not_a_gpu(accel)
  local a = accel:lower()
  return a:find("^tpu") or a:find("inferentia") or a:find("trainium")
end

local function num(s)
  local n = tonumber(s or "")
  if n and n == n and n > 0 and n < math.huge then return n end
end

-- The cloud a file is, from the context or the file.
local function cloud_of(ctx, header, first_rows)
  local function known(name)
    if not name then return nil end
    local lower = name:lower()
    for key, c in pairs(clouds) do
      if lower == key or lower == c.provider:lower() then return key end
    end
  end
  local c = known(ctx.source) or known(ctx.provider)
  if c then return c end
  if ctx.provider then return nil end   -- a provider this plugin does not know: generic rows
  local file = (ctx.input_name or ""):lower()
  local keys = {}
  for key in pairs(clouds) do keys[#keys + 1] = key end
  table.sort(keys, function(a, b) return #a > #b end)   -- "runpod" before "do"
  for _, key in ipairs(keys) do
    if #key > 2 and file:find(key, 1, true) then return key end
  end
  if header:find("^InstanceType,vCPUs,MemoryGiB,AcceleratorName") then return "gcp" end
  if header:find(",Generation") then return "azure" end
  for _, instance in ipairs(first_rows) do
    if instance:find("^Standard_") then return "azure" end
    if (instance:find("^gpu_%d+x_") or instance:find("^cpu_%d+x_")) and not instance:find("_%d+$") then
      return "lambda"   -- gpu_8x_h100_sxm5, not another cloud's gpu_1x_rtx3060_18
    end
    if instance:find("^%d+x_.+_SECURE$") or instance:find("^%d+x_.+_COMMUNITY$") then
      return "runpod"
    end
    if instance:find("^[a-z][a-z0-9%-]*%.%d*x?large$") or instance:find("^[a-z][a-z0-9%-]*%.metal") then
      return "aws"
    end
    -- a2-highgpu-1g, g2-standard-4, n1-standard-8: GCP's machine words, not another cloud's
    -- n3-A100x1 or t1-le-45
    local word = instance:match("^[acegmnt]%d%l?%-(%l+)%-")
    if word and (word == "standard" or word == "highmem" or word == "highcpu" or
                 word:find("gpu$")) then
      return "gcp"
    end
  end
end

-- Calls fn(row, line) for every record, parsing a few thousand lines at a time so that a whole
-- catalog (AWS: 8 MB) never sits in memory as tables.  Catalog rows hold no line breaks.
local function each_row(text, fn)
  local nl = text:find("\n", 1, true)
  if not nl then return end
  local header = text:sub(1, nl)
  local pos, line = nl + 1, 2
  while pos <= #text do
    local stop, lines = pos, 0
    while lines < 4000 and stop <= #text do
      local e = text:find("\n", stop, true)
      stop = e and e + 1 or #text + 1
      lines = lines + 1
    end
    local rows = gw.csv.rows(header .. text:sub(pos, stop - 1))
    for i, row in ipairs(rows) do fn(row, line + i - 1) end
    pos, line = stop, line + lines
  end
end

-- GPU names as the KB resolves them (gw.gpu.resolve asks gpuwise), each asked once.
local resolved = {}
local function kb_card(name)
  if resolved[name] == nil then
    local id = gw.gpu.resolve(name)
    local card = id and gw.kb.gpu(id)
    resolved[name] = id and { id = id, memory_gb = card and card.memory_gb } or false
  end
  return resolved[name] or nil
end

-- A GpuInfo field, written as a Python literal ('Name': 'A100') or as JSON ("Name": "A100").
local function info_field(info, key)
  return (info or ""):match("['\"]" .. key .. "['\"]:%s*['\"]?([^'\",}]+)")
end

-- The names a row's card may go by, the most exact first: the instance's word for the form
-- (a100-pcie, gpu-h100-sxm; Vast's 2x-H100_NVL-32-65536), GpuInfo's own name ('NVIDIA H100
-- PCIe'), the accelerator name tidied (H100_PCIE_BAREMETAL, A100-80G-PCIe), and as it is.
local function names_of(cloud, accel, gpu_info, instance)
  local out, seen = {}, {}
  local function add(name)
    name = name and name:gsub("^%s+", ""):gsub("%s+$", "")
    if name and name ~= "" and not seen[name] then seen[name] = true; out[#out + 1] = name end
  end
  local lower = instance:lower()
  if cloud == "vast" then
    local card = instance:match("^%d+x%-(.-)%-%d+%-%d+$")
    if card then add((card:gsub("_", " "))) end
  end
  if not accel:lower():find("pci") and not accel:lower():find("sxm") then
    if lower:find("pcie") or lower:find("%-pci[_%-]") or lower:find("%-pci$") then
      add(accel .. " PCIe")
    elseif lower:find("sxm") then
      add(accel .. " SXM")
    end
  end
  local named = info_field(gpu_info, "Name")
  if named and named ~= accel then add(named) end
  local tidy = accel:gsub("[_%-]", " "):gsub("(%d+)G%f[%A]", "%1GB"):gsub("%s+BAREMETAL", "")
                   :gsub("%s+NVLink", ""):gsub("%s+WK$", "")
  add(tidy)
  add(accel)
  add((tidy:gsub("%s+[Pp][Cc][Ii][Ee]$", "")))   -- RTX5090_PCIE: a card that has no other form
  return out
end

-- The card's name: the cloud's exact name, else the first of the row's names the KB knows
-- with its memory from GpuInfo ("V100" with 16384 MiB is "V100 16GB"), read as GiB and as
-- GB, or alone where the KB's card of that name has about that memory (within 10%) or the row
-- gives none.  A name the KB does not know is passed on with its memory, for gpuwise to report.
local function gpu_name(cloud, accel, gpu_info, instance, count)
  local exact = cloud and clouds[cloud].names[accel]
  if type(exact) == "function" then exact = exact(instance, count) end
  if exact then return exact end
  local names = names_of(cloud, accel, gpu_info, instance)
  local mib = tonumber(info_field(gpu_info, "SizeInMiB") or "")
  if mib and mib <= 0 then mib = nil end
  if mib and mib < 1024 then mib = mib * 1024 end   -- RunPod's and Shadeform's newer files: GB
  -- a card's memory, or all the instance's GPUs' (Vast's always, Prime Intellect's at times)
  local sizes = {}
  if mib then
    local each = count and count > 1 and mib / count or nil
    if cloud == "vast" then sizes = { each or mib }
    else sizes = { mib, each } end   -- { mib } where each is nil
  end
  local function near(m, size)
    local gib, gb = size / 1024, size * 1.048576 / 1000
    return math.abs(m - gib) <= 0.1 * m or math.abs(m - gb) <= 0.1 * m
  end
  local first
  for _, base in ipairs(names) do
    local tries = {}
    if not base:find("%d+ ?GB") then
      for _, size in ipairs(sizes) do
        tries[#tries + 1] = string.format("%s %dGB", base, math.floor(size / 1024 + 0.5))   -- GiB (HBM)
        tries[#tries + 1] = string.format("%s %dGB", base,
                                          math.floor(size * 1.048576 / 1000 + 0.5))         -- GB (GDDR)
      end
    end
    first = first or tries[1] or base
    for _, name in ipairs(tries) do
      if kb_card(name) then return name end
    end
    local alone = kb_card(base)
    local ok = alone and (#sizes == 0 or not alone.memory_gb)
    for _, size in ipairs(sizes) do ok = ok or (alone and near(alone.memory_gb, size)) end
    if ok then return base end
  end
  return first
end

return {
  name = "skypilot",
  kind = "pricing",
  version = "2.1",
  description = "SkyPilot catalog vms.csv (one cloud per file)",
  needs_input = true,
  urls = {
    aws = BASE .. "aws/vms.csv", azure = BASE .. "azure/vms.csv", gcp = BASE .. "gcp/vms.csv",
    lambda = BASE .. "lambda/vms.csv", runpod = BASE .. "runpod/vms.csv",
    cudo = BASE .. "cudo/vms.csv",
    nebius = BASE:gsub("/v7/$", "/v8/") .. "nebius/vms.csv",   -- v7's GpuInfo gives host memory
  },

  offers = function(ctx)
    if not ctx.input then
      error("skypilot reads a saved vms.csv: give --input FILE (or run gpuwise prices fetch skypilot)", 0)
    end
    local text = ctx.input
    local nl = text:find("\n", 1, true) or #text
    local header = text:sub(1, nl):gsub("^\239\187\191", ""):gsub("\r?\n$", "")
    for _, col in ipairs({ "InstanceType", "AcceleratorName", "AcceleratorCount", "Price" }) do
      if not header:find(col, 1, true) then
        error(string.format("%s: line 1: no %s column: not a SkyPilot vms.csv",
                            ctx.input_name or "input", col), 0)
      end
    end
    local first = {}
    each_row(text:sub(1, 20000):gsub("[^\n]*$", ""), function(row)
      if (row.InstanceType or "") ~= "" and #first < 20 then first[#first + 1] = row.InstanceType end
    end)
    local cloud = cloud_of(ctx, header, first)
    local provider = cloud and clouds[cloud].provider or ctx.provider
    if not provider then
      error("cannot tell the cloud of '" .. tostring(ctx.input_name) ..
            "': give --provider NAME (AWS, Azure, GCP, Lambda, RunPod, ...)", 0)
    end
    local source = ctx.input_name or "vms.csv"

    local skipped = {}
    local function skip(why) skipped[why] = (skipped[why] or 0) + 1 end
    -- offers by instance|region|spot: the lowest price of their zones
    local by_key, order = {}, {}
    local function add(gpu, count, price, spot, instance, region, zone, line, extra)
      local key = table.concat({ instance, region or "", tostring(spot), gpu, count }, "|")
      local o = by_key[key]
      if not o then
        o = { gpu = gpu, count = count, price = price, spot = spot, instance = instance,
              region = region, zones = {}, n_zones = 0, line = line, extra = extra }
        by_key[key] = o
        order[#order + 1] = o
      end
      local zkey = (zone or "") .. "|" .. price
      if o.zones[zkey] then return false end
      o.zones[zkey] = true
      o.n_zones = o.n_zones + 1
      if price < o.price then o.price, o.line = price, line end
      return true
    end
    -- on-demand and spot offers of one row (or joined pair) at these prices; a row with only a
    -- spot price is a spot offer
    local function add_both(gpu, count, price, spot, instance, region, zone, line, extra)
      if not price and not spot then skip("rows without a price"); return end
      if not price then
        if add(gpu, count, spot, true, instance, region, zone, line, extra) then
          skip("rows with a spot price only (stored as spot offers)")
        else
          skip("duplicate rows")
        end
        return
      end
      if not add(gpu, count, price, false, instance, region, zone, line, extra) then
        skip("duplicate rows")
        return
      end
      if spot and spot < price then
        add(gpu, count, spot, true, instance, region, zone, line, extra)
      end
    end

    local gpu_rows, hosts = {}, {}   -- GCP: GPU rows by zone|accel|count; host VM rows
    each_row(text, function(row, line)
      local instance = row.InstanceType or ""
      local accel = row.AcceleratorName or ""
      local count = num(row.AcceleratorCount)
      local price, spot = num(row.Price), num(row.SpotPrice)
      if price == GCP_PLACEHOLDER and (spot == GCP_PLACEHOLDER or not spot) then
        skip("placeholder prices (700.0)")
        return
      end
      if cloud == "gcp" then
        local zone = row.AvailabilityZone or row.Region or ""
        if instance == "" and accel ~= "" then
          gpu_rows[zone .. "|" .. accel .. "|" .. math.floor(count or 0)] =
            { price = price, spot = spot, line = line }
          return
        end
        for _, h in ipairs(gcp_hosts) do
          local n = tonumber(instance:match(h[1]))
          if n then
            hosts[#hosts + 1] = { row = row, accel = h[2], count = n, line = line }
            return
          end
        end
        local vcpus = tonumber(instance:match("^g2%-standard%-(%d+)$"))
        if vcpus and g2_l4[vcpus] then
          hosts[#hosts + 1] = { row = row, accel = "L4", count = g2_l4[vcpus], line = line }
          return
        end
        if instance == GCP_N1_HOST then
          hosts[#hosts + 1] = { row = row, n1 = true, line = line }
          return
        end
      end
      if accel == "" or not count then
        skip("rows without a GPU")
      elseif not_a_gpu(accel) then
        skip("accelerators that are not GPUs (" .. accel .. ")")
      else
        local fraction, extra
        if count < 1 then count, fraction = 1, count end   -- Azure's NVadsA10 v5: part of a card
        local name = gpu_name(cloud, accel, row.GpuInfo, instance, count)
        local fixed = cloud and clouds[cloud].counts and clouds[cloud].counts[instance]
        if fixed and fixed ~= count then
          extra = { note = string.format("the catalog says %g GPUs; the size has %d", count, fixed) }
          count = fixed
        end
        if fraction then extra = extra or {}; extra.gpu_fraction = fraction end
        add_both(name, count, price, spot, instance, row.Region, row.AvailabilityZone, line, extra)
      end
    end)

    -- GCP: every host VM with the GPUs of its zone; GPUs for N1 VMs with the N1 host
    local joined = {}
    for _, h in ipairs(hosts) do
      local zone = h.row.AvailabilityZone or h.row.Region or ""
      if h.n1 then
        for key, g in pairs(gpu_rows) do
          local z, accel, n = key:match("^(.*)|(.*)|(%d+)$")
          local fixed = false
          for _, fam in ipairs(gcp_hosts) do fixed = fixed or fam[2] == accel end
          if z == zone and not fixed and accel ~= "L4" and not not_a_gpu(accel) then
            joined[key] = true
            local p, s = num(h.row.Price), num(h.row.SpotPrice)
            add_both(gpu_name(cloud, accel, nil, "", tonumber(n)), tonumber(n),
                     p and g.price and p + g.price, s and g.spot and s + g.spot,
                     GCP_N1_HOST .. " + " .. n .. "x " .. accel, h.row.Region, zone, g.line,
                     { note = "GPU price plus an " .. GCP_N1_HOST .. " host VM" })
          end
        end
      else
        local key = zone .. "|" .. h.accel .. "|" .. h.count
        local g = gpu_rows[key]
        if not g then
          skip("GCP host VMs without a GPU price row to join")
        else
          joined[key] = true
          local p, s = num(h.row.Price), num(h.row.SpotPrice)
          add_both(gpu_name(cloud, h.accel, nil, h.row.InstanceType, h.count), h.count,
                   p and g.price and p + g.price, s and g.spot and s + g.spot,
                   h.row.InstanceType, h.row.Region, zone, h.line,
                   { note = "host VM and GPU rows joined" })
        end
      end
    end
    for key, g in pairs(gpu_rows) do
      local accel = key:match("^.*|(.*)|%d+$")
      if not joined[key] then
        skip(not_a_gpu(accel) and "accelerators that are not GPUs (" .. accel:gsub("%-%d+$", "") .. ")"
             or "GCP GPU rows without a host VM in their zone")
      end
    end

    local offers = {}
    for _, o in ipairs(order) do
      local note = string.format("SkyPilot catalog %s line %d", source, o.line)
      if o.n_zones > 1 then
        note = note .. string.format("; the lowest of %d zones", o.n_zones)
      end
      if o.extra and o.extra.note then note = note .. "; " .. o.extra.note end
      offers[#offers + 1] = {
        provider = provider, gpu = o.gpu, gpu_count = o.count, price_per_hour = o.price,
        currency = "USD", spot = o.spot, instance = o.instance ~= "" and o.instance or nil,
        region = o.region ~= "" and o.region or nil,
        -- SkyPilot's catalogs are fetched from each cloud's own pricing API: the provider's list,
        -- except on a marketplace, where they are the prices hosts ask that day (market)
        quality = cloud and clouds[cloud].marketplace and "market" or "list",
        gpu_fraction = o.extra and o.extra.gpu_fraction or nil,
        note = note, line = o.line,
      }
    end
    local why = {}
    for w, n in pairs(skipped) do why[#why + 1] = string.format("%d %s", n, w) end
    table.sort(why)
    if #why > 0 then gw.log("skipped: " .. table.concat(why, "; ")) end
    return offers
  end,
}
