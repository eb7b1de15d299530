-- gpuwise-csv.lua — imports your own measurements from a CSV with the columns of the KB's
-- benchmarks.csv (kb/data/README.md):
--   gpu,gpu_count,workload,metric,value,unit,precision,batch,framework,interconnect,power_w,source,note
-- gpu is written the way people write it ("RTX 3090", "A100-80GB"); gpu, workload, metric,
-- value and unit are required; empty cells are unknown.  source may name a source id of the
-- KB; by default the rows cite the imported file.
-- Use:  gpuwise kb import --with gpuwise-csv my-measurements.csv

local numeric = { gpu_count = true, value = true, batch = true, power_w = true }
local fields = { "gpu", "gpu_count", "workload", "metric", "value", "unit", "precision", "batch",
                 "framework", "interconnect", "power_w", "source", "note" }

return {
  name = "gpuwise-csv",
  kind = "importer",
  version = "1.0",
  description = "Your own measured results, in the KB's benchmarks.csv columns",
  -- each row is one record, so the core may hand a big file over in slices (plugins/README.md)
  batch_rows = 2000,

  import = function(ctx, text)
    local records = {}
    if text == "" then return records end
    -- the file line of each row, counting the newlines inside its quoted cells
    local line = ctx.first_line or 2
    for _, row in ipairs(gw.csv.rows(text)) do
      local rec = { kind = "benchmark", line = line }
      for _, v in pairs(row) do
        local _, newlines = v:gsub("\n", "")
        line = line + newlines
      end
      line = line + 1
      for _, f in ipairs(fields) do
        local v = row[f]
        if v and v ~= "" then
          if numeric[f] then
            local n = tonumber(v)
            -- a cell that is not a number is handed on as text: the core names the row
            rec[f] = n or v
          else
            rec[f] = v
          end
        end
      end
      if not rec.note then rec.note = "line " .. rec.line .. " of " .. (ctx.input_name or "the file") end
      records[#records + 1] = rec
    end
    return records
  end,
}
