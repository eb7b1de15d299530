-- mlperf.lua — imports an MLPerf Inference results summary.csv (one submitter's closed/ or
-- open/ folder of github.com/mlcommons/inference_results_v*), or MLPerf Training's results
-- table (a round's summary, saved as CSV: a row per system, one column per benchmark holding
-- its time to train in minutes).
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

-- MLPerf Training's benchmarks, as the results table names its columns.  A time to train is the
-- whole system's, to the benchmark's quality target: stored as measured (metric
-- "train_time_to_train", in minutes, for the system's accelerators), not as a throughput.
local TRAINING_BENCHMARKS = { "bert", "dlrm_dcnv2", "gnn", "gpt3", "llama2_70b_lora",
                              "llama31_8b", "llama31_405b", "resnet", "retinanet", "rgat", "ssd",
                              "stable_diffusion", "unet3d" }

local function first_of(row, names)
  for _, name in ipairs(names) do
    local v = row[name]
    if v and v ~= "" then return v end
  end
end

-- The training table's rows: each benchmark a system has a time for becomes one record.
local function import_training(ctx, rows, records, unknown)
  for i, row in ipairs(rows) do
    local line = i + 1
    local accel = first_of(row, { "Accelerator Model Name", "Accelerator" }) or ""
    local count = tonumber(first_of(row, { "Total Accelerators", "# of Accelerators" }) or "")
    local gpu = accel ~= "" and gw.gpu.resolve(accel)
    if not gpu then
      unknown[accel] = true
    elseif not (count and count >= 1 and count == math.floor(count)) then
      gw.log(string.format("line %d: no whole accelerator count; skipped", line))
    else
      for _, benchmark in ipairs(TRAINING_BENCHMARKS) do
        local minutes = tonumber(row[benchmark] or "")
        if minutes and minutes > 0 then
          records[#records + 1] = {
            kind = "benchmark", gpu = gpu, gpu_count = count,
            workload = benchmark, metric = "train_time_to_train",
            value = minutes, unit = "minutes",
            note = string.format("MLPerf Training %s, %s (%s): %s minutes to train %s to its "
                                 .. "quality target on %d accelerators (%s line %d).",
                                 row.Round or row.version or "", row.System or row.SystemName or "?",
                                 row.Organization or "?", row[benchmark], benchmark, count,
                                 ctx.input_name or "file", line),
          }
        end
      end
    end
  end
end

return {
  name = "mlperf",
  kind = "importer",
  version = "1.0",
  description = "MLPerf Inference results summary (per-accelerator throughput), or MLPerf Training's results table (time to train)",

  import = function(ctx, text)
    local records, seen, unknown = {}, {}, {}
    if text == "" then return records end
    local rows = gw.csv.rows(text)
    -- Training's table is told by its "Public ID" column; Inference's summary has none.
    local training = rows[1] and rows[1]["Public ID"] ~= nil
    if training then import_training(ctx, rows, records, unknown) end
    for i, row in ipairs(training and {} or rows) do
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
