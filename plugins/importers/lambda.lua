-- lambda.lua — imports Lambda's deeplearning-benchmark PyTorch training throughput tables
-- (github.com/lambdal/deeplearning-benchmark, pytorch/pytorch-train-throughput-*.csv).
-- Use:  gpuwise kb import --with lambda pytorch-train-throughput-fp16.csv
--   v1 layout: name_gpu,num_gpu,watt,price,<one column per model>; name_gpu is a free-text label
--              ("Dell 2x H100 80GB SXM5", "LambdaCloud 4xV100 16GB").
--   v2 layout: an unnamed first column holding a system id ("ASUS_8xH200_140GB_SXM_..."), then
--              one column per model.  Rows whose id ends in "_bk" repeat another run: skipped.
-- The GPU count is num_gpu (v1) or the "<M>x" glued to the GPU in the system id (v2), never the
-- instance's size: "LambdaOD_8x_Texas_1xH100..." ran on 1 GPU of an 8-GPU instance.  A laptop
-- GPU (Max-Q, Laptop, Mobile) goes to its own card or is refused, never to the desktop card; so
-- is a label whose memory no card of its name has ("1xGH200_80GB": the KB's GH200 has 96 GB).
-- Every row left out is logged on its own line, naming the file line, the label and why.
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

-- The words that mark a laptop part.  Such a result belongs to the laptop card, never to the
-- desktop card of the same number: it is stored only where the KB has a card whose name
-- carries the same mark, and refused otherwise.
local MOBILE_MARKS = { ["max-q"] = "Max-Q", maxq = "Max-Q", laptop = "Laptop", mobile = "Mobile",
                       notebook = "Notebook" }

-- "Max-Q Workstation" -> "maxqworkstation": names compared without case or punctuation.
local function squeezed(name)
  return (tostring(name or ""):lower():gsub("[^%w]", ""))
end

local function mobile_mark_of(word)
  return MOBILE_MARKS[word:lower()]
end

-- Whether a KB card is the one a run of label words names with a laptop mark: every word of the
-- run is in the card's name ("RTX 2080 Max-Q" is not the RTX PRO 6000 Blackwell Max-Q, which
-- the resolver may offer for it), and one of them is a model number.
local function names_card(card, words, first, last)
  local card_name, numbered = squeezed(card and card.name), false
  for w = first, last do
    if not card_name:find(squeezed(words[w]), 1, true) then return false end
    numbered = numbered or words[w]:find("%d") ~= nil
  end
  return numbered
end

-- Why a card is not the one a label means by its memory ("GH200_80GB": the KB's GH200 has 96 GB),
-- or nil.  A label's memory and the card's agree within 10% (H200 "140GB" is the 141 GB card):
-- the resolver matches names, and a memory no card of that name has is a part the KB lacks.
local function memory_disagrees(id, label_gb)
  local card = label_gb and gw.kb.gpu(id)
  local card_gb = card and tonumber(card.memory_gb)
  if card_gb and math.abs(card_gb - label_gb) > 0.1 * label_gb then
    return string.format("the label gives %g GB; the KB's %s has %g GB, and no card of that name "
                         .. "has %g GB", label_gb, id, card_gb, label_gb)
  end
end

-- The KB GPU a list of words names: the longest run of them the KB knows wins ("Dell H100 80GB
-- SXM5" -> "H100 80GB SXM5").  With a laptop mark among the words, only runs that hold it are
-- tried, and the card found must be named by the whole run, mark included.  The card found
-- must have the memory the label gives, or the label is refused: nil and why.
local function resolve_words(words, mark, label_gb)
  for len = #words, 1, -1 do
    for first = 1, #words - len + 1 do
      local last, holds_mark = first + len - 1, false
      for w = first, last do
        if mobile_mark_of(words[w]) then holds_mark = true end
      end
      if holds_mark or not mark then
        local id = gw.gpu.resolve(table.concat(words, " ", first, last))
        if id and (not mark or names_card(gw.kb.gpu(id), words, first, last)) then
          local why = memory_disagrees(id, label_gb)
          if why then return nil, why end
          return id
        end
      end
    end
  end
end

-- A label's GPU and count, or nil and why not.
--   v1 ("Dell 2x H100 80GB SXM5", "LambdaCloud 4xV100 16GB"): the count is the num_gpu column
--     (the label's "2x" must agree with it).
--   v2 ("LambdaOD_8x_Texas_1xH100_80GB_SXM5_192-222-52-149_v2"): the count is the "<M>x" glued
--     to the GPU's name ("1xH100"); an "<N>x_" on its own is the size of the instance the run
--     was made on (8 GPUs, one of them used), returned third.
local function parse_label(label, v1_count)
  local count, instance
  if v1_count then
    count = v1_count
    local said = tonumber(label:match("%f[%w](%d+)x%s*%a"))
    if said and said ~= count then
      return nil, string.format("the label says %d GPUs, num_gpu %d", said, count)
    end
  else
    count = tonumber(label:match("%f[%w](%d+)x%a"))
    instance = tonumber(label:match("%f[%w](%d+)x_"))
    if not count then return nil, "no <M>x<GPU> count in the system id" end
  end
  local text = label:gsub("_", " "):gsub("%f[%w]%d+x%s*(%a)", "%1")
  local words, mark, label_gb = {}, nil, nil
  for w in text:gmatch("%S+") do
    words[#words + 1] = w
    mark = mark or mobile_mark_of(w)
    label_gb = label_gb or tonumber(w:match("^(%d+%.?%d*)[Gg][Bb]$"))
  end
  local gpu, why = resolve_words(words, mark, label_gb)
  if why then return nil, why end
  if not gpu then
    if mark then
      return nil, "names a " .. mark .. " GPU the KB has no card for (never stored on a "
                  .. "desktop card)"
    end
    return nil, "names no GPU in the KB"
  end
  return gpu, count, instance
end

return {
  name = "lambda",
  kind = "importer",
  version = "1.1",
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
    local no_unit = {}
    for c = first_model, #header do
      if not units[header[c]] then no_unit[#no_unit + 1] = header[c] end
    end
    if #no_unit > 0 then
      gw.log("columns " .. table.concat(no_unit, ", ") .. ": the file states no unit for "
             .. "them; not imported")
    end
    for r = 2, #rows do
      local row = rows[r]
      local label = row[1] or ""
      local gpu, count, instance
      if not v1 and label:match("_bk$") then
        gw.log(string.format("line %d: '%s': repeats another run (the _bk suffix); skipped", r,
                             label))
      else
        local v1_count = v1 and tonumber(row[2]) or nil
        if v1 and not (v1_count and v1_count >= 1 and v1_count == math.floor(v1_count)) then
          gw.log(string.format("line %d: '%s': no whole num_gpu ('%s'); skipped", r, label,
                               tostring(row[2])))
        else
          gpu, count, instance = parse_label(label, v1_count)
          if not gpu then gw.log(string.format("line %d: '%s': %s; skipped", r, label, count)) end
        end
      end
      if gpu then
        local on = instance and instance ~= count and
          string.format(" Run on %d of its instance's %d GPUs.", count, instance) or ""
        local no_result = {}
        for c = first_model, #header do
          local model, value = header[c], tonumber(row[c])
          if units[model] and not (value and value > 0) then
            no_result[#no_result + 1] = string.format("%s ('%s')", model, tostring(row[c] or ""))
          end
          if units[model] and value and value > 0 then
            records[#records + 1] = {
              kind = "benchmark", gpu = gpu, gpu_count = count, workload = model, line = r,
              metric = "train_throughput", value = value, unit = units[model],
              precision = precision, framework = "pytorch",
              interconnect = count > 1 and (label:find("SXM") and "nvlink" or nil) or nil,
              note = string.format("Lambda %s '%s' (%s line %d).%s", v1 and "label" or "system id",
                                   label, ctx.input_name or "file", r, on),
            }
          end
        end
        if #no_result > 0 then
          gw.log(string.format("line %d: '%s': no result for %s; not stored", r, label,
                               table.concat(no_result, ", ")))
        end
      end
    end
    return records
  end,
}
