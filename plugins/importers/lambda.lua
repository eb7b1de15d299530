-- lambda.lua — imports Lambda's deeplearning-benchmark PyTorch training throughput tables
-- (github.com/lambdal/deeplearning-benchmark, pytorch/pytorch-train-throughput-*.csv).
-- Use:  gpuwise kb import --with lambda pytorch-train-throughput-fp16.csv
--   v1 layout: name_gpu,num_gpu,watt,price,<one column per model>; name_gpu is a free-text label
--              ("Dell 2x H100 80GB SXM5", "LambdaCloud 4xV100 16GB").
--   v2 layout: an unnamed first column holding a system id ("ASUS_8xH200_140GB_SXM_..."), then
--              one column per model.  Rows whose id ends in "_bk" repeat another run: skipped.
-- Precision comes from the file name (fp16: PyTorch automatic mixed precision; fp32: on Ampere
-- and newer PyTorch may use TF32).  Values are the whole system's throughput for gpu_count GPUs.
-- The batch-size table (pytorch-train-bs-*.csv) holds no throughput: nothing is imported from it.
-- `watt` is the board's rated power, not a measurement, and `price` a hardware price Lambda
-- assumed: neither is stored.

-- Units as the models report them (NVIDIA DeepLearningExamples, which the benchmark runs).
-- tacotron2 and waveglow are left out: their unit is not stated in the file.
local units = {
  resnet50 = "images/s", ssd = "images/s",
  bert_base_squad = "sequences/s", bert_large_squad = "sequences/s",
  gnmt = "tokens/s", transformerxlbase = "tokens/s", transformerxllarge = "tokens/s",
  ncf = "samples/s",
}

-- Finds the GPU in a label: the count ("8x", "8x ") is taken out, then the longest run of
-- words the KB knows wins ("Dell H100 80GB SXM5" -> "H100 80GB SXM5").
local function parse_label(label)
  local text = label:gsub("_", " ")
  local count = tonumber(text:match("%f[%w](%d+)x%s*%a")) or 1
  text = text:gsub("%f[%w]%d+x%s*(%a)", "%1")
  local words = {}
  for w in text:gmatch("%S+") do words[#words + 1] = w end
  for len = #words, 1, -1 do
    for first = 1, #words - len + 1 do
      local name = table.concat(words, " ", first, first + len - 1)
      local id = gw.gpu.resolve(name)
      if id then return id, count, name end
    end
  end
  return nil, count
end

return {
  name = "lambda",
  kind = "importer",
  version = "1.0",
  description = "Lambda deeplearning-benchmark PyTorch training throughput tables",

  import = function(ctx, text)
    local records = {}
    if text == "" then return records end
    local name = (ctx.input_name or ""):lower()
    if name:find("%-bs%-") then
      gw.log("a batch-size table: no throughput to import")
      return records
    end
    local precision = name:find("fp16") and "fp16" or name:find("fp32") and "fp32" or nil
    if not precision then
      error("cannot tell the precision from the file name '" .. tostring(ctx.input_name) ..
            "' (it should contain fp16 or fp32)")
    end
    local rows = gw.csv.parse(text)
    local header = rows[1] or {}
    local v1 = header[1] == "name_gpu"
    local first_model = v1 and 5 or 2
    local unknown = {}
    for r = 2, #rows do
      local row = rows[r]
      local label = row[1] or ""
      if not v1 and label:match("_bk$") then
        gw.log("line " .. r .. ": " .. label .. " repeats another run; skipped")
      else
        local gpu, count = parse_label(label)
        if v1 then count = tonumber(row[2]) or count end
        if not gpu then
          unknown[#unknown + 1] = label
        else
          for c = first_model, #header do
            local model, value = header[c], tonumber(row[c])
            if units[model] and value and value > 0 then
              records[#records + 1] = {
                kind = "benchmark", gpu = gpu, gpu_count = count, workload = model,
                metric = "train_throughput", value = value, unit = units[model],
                precision = precision, framework = "pytorch",
                interconnect = count > 1 and (label:find("SXM") and "nvlink" or nil) or nil,
                note = string.format("Lambda label '%s' (%s line %d).", label,
                                     ctx.input_name or "file", r),
              }
            end
          end
        end
      end
    end
    if #unknown > 0 then
      gw.log("labels naming no GPU in the KB, skipped: " .. table.concat(unknown, ", "))
    end
    return records
  end,
}
