-- mlperf.lua — imports an MLPerf Inference results summary.csv (one submitter's closed/ or
-- open/ folder of github.com/mlcommons/inference_results_v*), or MLPerf Training's results
-- table (a round's summary, saved as CSV: a row per system, one column per benchmark holding
-- its time to train in minutes).
-- Use:  gpuwise kb import --with mlperf summary.csv
-- A row is one system x model x scenario; Result is the whole system's throughput (Offline,
-- Server, Interactive) or a latency (SingleStream, MultiStream: left out).  Stored per
-- accelerator: the throughput divided by accelerators_per_node x number_of_nodes, with
-- gpu_count 1 and the total in the note.  Language models are stored in tokens/s by the
-- benchmark's own rules, whatever the Units column says (LLM_BENCHMARKS below).
-- The same result submitted for two accuracy targets (model-99 and model-99.9) is stored once.
-- Every row left out is logged on its own line, naming the file line and why.

-- What a row's Result counts, by its Units column (the submission checker writes it from the
-- scenario alone until v5.0: "Samples/s" for Offline, "Queries/s" for Server, "Latency (ms)"
-- for SingleStream and MultiStream; from v5.0 the language models' rows say "Tokens/s").
local THROUGHPUT_UNITS = { ["queries/s"] = "queries/s", ["samples/s"] = "samples/s",
                           ["tokens/s"] = "tokens/s" }
local LATENCY_SCENARIOS = { singlestream = true, multistream = true }

-- The language-model benchmarks.  MLPerf's rules make their Result a count of output tokens per
-- second, in each scenario from the round named here (the submission checker's
-- RESULT_FIELD_BENCHMARK_OVERWRITE of that round, source mlperf-inference-submission-checker):
-- llama2-70b's Offline from v4.0, its Server from v4.1 (v4.0's Server Result is completed
-- queries/s: 72.44 for 8 H100, about 21,300 tokens/s), GPT-J's from v4.1 (tokens inferred at
-- 69 a sample), the later models from their first round.  Whatever the Units column says.
-- A Result from before that round counts queries (samples), and becomes tokens/s at the
-- benchmark's own tokens per query: tokens_per_query and the source row that states it.
local LLM_BENCHMARKS = {
  ["llama2-70b"] = { offline = "v4.0", server = "v4.1", tokens_per_query = 294.45,
                     per_query_source = "mlperf-inference-llama2-70b-tokens-per-sample",
                     per_query_what = "the OpenOrca reference's mean output tokens per sample" },
  ["gptj"] = { offline = "v4.1", server = "v4.1", tokens_per_query = 69,
               per_query_source = "mlperf-inference-gptj-token-scaling",
               per_query_what = "the tokens per sample MLPerf infers GPT-J's token rate with" },
  ["mixtral-8x7b"] = { offline = "v4.1", server = "v4.1" },
  ["llama3.1-405b"] = { offline = "v5.0", server = "v5.0" },
  ["llama3.1-8b"] = { offline = "v5.1", server = "v5.1" },
  ["deepseek-r1"] = { offline = "v5.1", server = "v5.1" },
  ["gpt-oss-120b"] = { offline = "v6.0", server = "v6.0" },
}

-- "v4.1" -> 401, for comparing rounds; nil for anything else.
local function round_number(version)
  local major, minor = tostring(version or ""):match("^v?(%d+)%.(%d+)")
  return major and tonumber(major) * 100 + tonumber(minor) or nil
end

-- The benchmark a Model names: the accuracy target (-99, -99.9) dropped, and v5.0's
-- "llama2-70b-interactive" read as llama2-70b in the interactive scenario (v5.1 names that a
-- scenario of its own).
local function benchmark_of(model, scenario)
  local name = (model or ""):gsub("%-99%.9$", ""):gsub("%-99$", "")
  local base = name:match("^(.-)%-interactive$")
  if base then return base, "interactive" end
  return name, scenario
end

-- What a throughput row of a language model counts: "tokens", "queries" (convert at the
-- benchmark's tokens per query), or nil and why not.
local function llm_counts(bench, scenario, unit, version)
  if unit == "tokens/s" then return "tokens" end
  local round = round_number(version)
  if not round then
    return nil, "no round in its version column ('" .. tostring(version or "") .. "'), so "
             .. "whether its " .. unit .. " count queries or tokens is unknown"
  end
  local from = round_number(bench[scenario] or bench.server)
  return round >= from and "tokens" or "queries"
end

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
local function import_training(ctx, rows, records)
  for i, row in ipairs(rows) do
    local line = i + 1
    local accel = first_of(row, { "Accelerator Model Name", "Accelerator" }) or ""
    local count = tonumber(first_of(row, { "Total Accelerators", "# of Accelerators" }) or "")
    local gpu = accel ~= "" and gw.gpu.resolve(accel)
    if not gpu then
      gw.log(string.format("line %d: %s; skipped", line, accel == "" and "no accelerator named"
                           or "accelerator '" .. accel .. "' is not in the KB"))
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

-- The value a throughput row stores, in its unit, and the sentence the note adds: a language
-- model's Result in tokens/s (converted from queries where its round counted them); another
-- benchmark's as it is.  nil and why not when it cannot be told.
local function throughput_of(row, bench_name, scenario, unit, accelerators)
  local result = tonumber(row.Result)
  local bench = LLM_BENCHMARKS[bench_name]
  if not bench then return result, unit, "" end
  local counts, why = llm_counts(bench, scenario, unit, row.version)
  if not counts then return nil, why end
  if counts == "tokens" then
    return result, "tokens/s", unit == "tokens/s" and "" or
      string.format(" MLPerf's rules count %s's %s Result in tokens/s from %s on, whatever "
                    .. "the Units column says (source mlperf-inference-submission-checker).",
                    bench_name, row.Scenario, bench[scenario] or bench.server)
  end
  if not bench.tokens_per_query then
    return nil, string.format("%s %s %s counts queries, and no tokens per query is known "
                              .. "for %s", row.version, bench_name, row.Scenario, bench_name)
  end
  local tokens = result * bench.tokens_per_query
  local said = string.format(" In %s MLPerf counted %s's %s Result in queries (samples) a "
                             .. "second: %s queries/s x %s tokens per query (%s, source %s) = "
                             .. "%.2f tokens/s for the %d, %.2f per accelerator.", row.version,
                             bench_name,
                             row.Scenario, row.Result, bench.tokens_per_query,
                             bench.per_query_what, bench.per_query_source, tokens, accelerators,
                             tokens / accelerators)
  return tokens, "tokens/s", said
end

-- One summary row: a per-accelerator record, or nil and the reason it is left out.  seen maps
-- a result already stored to its line, so the same result submitted for the -99 and -99.9
-- accuracy targets is stored once.
local function inference_record(ctx, row, line, seen)
  local scenario = (row.Scenario or ""):lower()
  local units = row.Units or ""
  if LATENCY_SCENARIOS[scenario] or units:lower():find("latency") then
    return nil, string.format("%s %s is a latency (%s %s), not a throughput", row.Model or "?",
                              row.Scenario or "?", row.Result or "?",
                              units:match("%((.-)%)") or units)
  end
  -- A summary without a Units column (before v3.0) is read as the checker writes it since:
  -- Offline counts samples/s, Server queries/s.
  if units == "" then
    units = ({ offline = "Samples/s", server = "Queries/s" })[scenario] or ""
  end
  local unit = THROUGHPUT_UNITS[units:lower()]
  if not unit then
    return nil, string.format("%s %s is in '%s', not a throughput per second", row.Model or "?",
                              row.Scenario or "?", units)
  end
  local accel = row.accelerator_model_name or ""
  local gpu = accel ~= "" and gw.gpu.resolve(accel)
  if not gpu then
    return nil, accel == "" and "no accelerator_model_name"
                or "accelerator '" .. accel .. "' is not in the KB"
  end
  local per_node = tonumber(row.accelerators_per_node or "")
  local nodes = tonumber(row.number_of_nodes or "") or 1
  local result = tonumber(row.Result or "")
  if not (per_node and per_node >= 1 and nodes >= 1) then
    return nil, "no accelerators_per_node (number_of_nodes) to divide its Result by"
  end
  if not (result and result > 0) then
    return nil, "no Result ('" .. tostring(row.Result or "") .. "')"
  end
  local bench_name, bench_scenario = benchmark_of(row.Model, scenario)
  if bench_name == "" or bench_scenario == "" then return nil, "no Model or Scenario" end
  local accelerators = per_node * nodes
  local value, value_unit, said = throughput_of(row, bench_name, bench_scenario, unit,
                                                accelerators)
  if not value then return nil, value_unit end
  local key = table.concat({ gpu, bench_name, bench_scenario, row.Result, row.SystemName or "" },
                           "|")
  if seen[key] then
    return nil, string.format("%s repeats line %d's result (%s %s: one run submitted for "
                              .. "two accuracy targets), which is stored", row.Model,
                              seen[key], row.Result, units)
  end
  seen[key] = line
  return {
    kind = "benchmark", gpu = gpu, gpu_count = 1, line = line,
    workload = bench_name, metric = "inference_" .. bench_scenario,
    value = value / accelerators, unit = value_unit,
    framework = row.framework ~= "" and row.framework or nil,
    note = string.format("MLPerf %s %s, %s (%s): %s %s for %d accelerators, divided per "
                         .. "accelerator (%s line %d).%s", row.version or "", row.Division or "",
                         row.SystemName or "?", row.Organization or "?", row.Result, units,
                         accelerators, ctx.input_name or "file", line, said),
  }
end

return {
  name = "mlperf",
  kind = "importer",
  version = "1.1",
  description = "MLPerf Inference results summary (per-accelerator throughput), or MLPerf Training's results table (time to train)",

  import = function(ctx, text)
    local records, seen = {}, {}
    if text == "" then return records end
    local rows = gw.csv.rows(text)
    -- Training's table is told by its "Public ID" column; Inference's summary has none.
    if rows[1] and rows[1]["Public ID"] ~= nil then
      import_training(ctx, rows, records)
      return records
    end
    for i, row in ipairs(rows) do
      local line = i + 1
      local record, why = inference_record(ctx, row, line, seen)
      if record then
        records[#records + 1] = record
      else
        gw.log(string.format("line %d: %s; skipped", line, why))
      end
    end
    return records
  end,
}
