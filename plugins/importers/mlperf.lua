-- mlperf.lua — imports an MLPerf Inference results summary.csv (one submitter's closed/ or
-- open/ folder of github.com/mlcommons/inference_results_v*).
-- Use:  gpuwise kb import --with mlperf summary.csv
-- A row is one system x model x scenario; Result is the whole system's throughput in Units
-- (Queries/s for Server, Samples/s for Offline).  Stored per accelerator: Result divided by
-- accelerators_per_node (and number_of_nodes), with gpu_count 1 and the total in the note.
-- The same result submitted for two accuracy targets (model-99 and model-99.9) is stored once.
-- Rows whose accelerator the KB does not know are skipped and listed in the log.

local function per_second(units)
  local u = (units or ""):lower()
  if u == "queries/s" or u == "samples/s" or u == "tokens/s" then return u end
end

-- The language-model benchmarks whose throughput MLPerf Inference's rules define in tokens per
-- second, in both scenarios: some rounds' summaries still label their Result "Queries/s" or
-- "Samples/s" (v4.1's llama2-70b Offline row of 8 H200 reads 31,263.8 "Samples/s", which is the
-- tokens/s NVIDIA published for it).  Their rows are stored in tokens/s, and the note says so.
local TOKEN_MODELS = { ["llama2-70b"] = true, ["mixtral-8x7b"] = true, ["llama3.1-405b"] = true,
                       ["llama3.1-8b"] = true }

return {
  name = "mlperf",
  kind = "importer",
  version = "1.0",
  description = "MLPerf Inference results summary (per-accelerator throughput)",

  import = function(ctx, text)
    local records, seen, unknown = {}, {}, {}
    if text == "" then return records end
    for i, row in ipairs(gw.csv.rows(text)) do
      local line = i + 1
      local accel = row.accelerator_model_name or ""
      local per_node = tonumber(row.accelerators_per_node or "")
      local nodes = tonumber(row.number_of_nodes or "") or 1
      local result = tonumber(row.Result or "")
      local unit = per_second(row.Units)
      local model = (row.Model or ""):gsub("%-99%.9$", ""):gsub("%-99$", "")
      local relabelled = unit and unit ~= "tokens/s" and TOKEN_MODELS[model]
      if relabelled then unit = "tokens/s" end
      local scenario = (row.Scenario or ""):lower()
      local gpu = accel ~= "" and gw.gpu.resolve(accel)
      if not gpu then
        unknown[accel] = true
      elseif not (per_node and per_node > 0 and result and result > 0 and unit and model ~= ""
                  and scenario ~= "") then
        gw.log(string.format("line %d: no model, scenario, result, unit or accelerator count; skipped", line))
      else
        local key = table.concat({ gpu, model, scenario, row.Result, row.SystemName or "" }, "|")
        if seen[key] then
          gw.log(string.format("line %d: %s repeats the result of line %d; stored once", line,
                               row.Model, seen[key]))
        else
          seen[key] = line
          local accelerators = per_node * nodes
          records[#records + 1] = {
            kind = "benchmark", gpu = gpu, gpu_count = 1,
            workload = model, metric = "inference_" .. scenario,
            value = result / accelerators, unit = unit,
            framework = row.framework ~= "" and row.framework or nil,
            note = string.format("MLPerf %s %s, %s (%s): %s %s for %d accelerators, divided "
                                 .. "per accelerator (%s line %d).%s", row.version or "",
                                 row.Division or "", row.SystemName or "?",
                                 row.Organization or "?", row.Result, row.Units,
                                 accelerators, ctx.input_name or "file", line,
                                 relabelled and " A language-model benchmark: MLPerf measures "
                                   .. "its throughput in tokens/s, whatever the summary's "
                                   .. "Units column says." or ""),
          }
        end
      end
    end
    local names = {}
    for name in pairs(unknown) do names[#names + 1] = name == "" and "(none)" or name end
    table.sort(names)
    if #names > 0 then gw.log("accelerators not in the KB, skipped: " .. table.concat(names, ", ")) end
    return records
  end,
}
