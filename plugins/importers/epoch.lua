-- epoch.lua — imports Epoch AI's "Data on Machine Learning Hardware" (ml_hardware.csv, CC BY 4.0,
-- epoch.ai/data/machine-learning-hardware).  Use:  gpuwise kb import --with epoch ml_hardware.csv
-- Only rows of Type GPU/GPGPU.  Epoch writes FLOP/s, bytes and bytes/s: they become TFLOPS, GB
-- (10^9 bytes) and GB/s.  Its figures are without sparsity ("Listed performance figures are
-- without sparsity"), which is what the KB stores.  For GeForce cards Epoch's Tensor-FP16 figure
-- is the FP16-accumulate rate (RTX 4090: 330), not the FP32-accumulate rate the KB uses for
-- training (165), so it is left out for them.
-- A GPU the KB already has keeps its curated row (the core never overwrites); its Epoch release
-- price is still added as a "new" price at the release date, citing this file.  A name the KB
-- could read as several cards is settled by the row's memory; one no card of its memory fits is
-- a GPU of its own.

local function num(s)
  local n = tonumber(s or "")
  if n and n == n and n > 0 and n < math.huge then return n end
end

local function scaled(s, by)
  local n = num(s)
  return n and n / by
end

local function slug(name)
  local s = name:gsub("^NVIDIA%s+", ""):gsub("^AMD%s+", ""):gsub("^Intel%s+", ""):lower()
  s = s:gsub("[^%w]+", "-"):gsub("^%-+", ""):gsub("%-+$", "")
  return s
end

-- Epoch's names as the resolver reads them: "PCle" (a lower-case L for the I, line 48's
-- "NVIDIA L20 PCle") is PCIe.
local function readable(name)
  return (name:gsub("%f[%w]PCle%f[%W]", "PCIe"))
end

-- Whether a KB card's memory is the row's (within 10%; a row without a memory fits any card).
local function memory_fits(id, memory)
  local card = gw.kb.gpu(id)
  local card_gb = card and tonumber(card.memory_gb)
  return not (memory and card_gb) or math.abs(card_gb - memory) <= 0.1 * memory
end

-- The KB card a row names: id, or nil and the resolver's message.  Where the name alone could be
-- several cards, the row's memory picks among them ("Tesla V100 SXM2" with 16 GB is
-- v100-sxm2-16gb, not the 32 GB card); where none of them has that memory the row is a card the
-- KB lacks (nil, nil: "Quadro RTX 4000", 8 GB, is neither 20 GB RTX 4000 Ada).
local function resolve_card(name, memory)
  local id, second = gw.gpu.resolve(readable(name))
  if id then return id end
  local listed = tostring(second or ""):match("is ambiguous: (.+)$")
  if not listed then return nil, second end
  local fits = {}
  for candidate in listed:gmatch("[^,%s]+") do
    if memory_fits(candidate, memory) then fits[#fits + 1] = candidate end
  end
  if #fits == 1 then return fits[1] end
  if #fits == 0 then return nil, nil end
  return nil, "ambiguous: " .. table.concat(fits, ", ")
end

return {
  name = "epoch",
  kind = "importer",
  version = "1.0",
  description = "Epoch AI machine learning hardware dataset (GPUs)",

  import = function(ctx, text)
    local records = {}
    if text == "" then return records end
    local added, known, skipped = 0, 0, 0
    for i, row in ipairs(gw.csv.rows(text)) do
      local line = i + 1
      local name, kind = row["Hardware name"] or "", row["Type"] or ""
      if name ~= "" and (kind == "GPU" or kind == "GPGPU") then
        local memory = scaled(row["Memory size per board (Byte)"], 1e9)
        local id, why = resolve_card(name, memory)
        -- A name match is trusted only when the memory agrees too (within 10%): loose name
        -- matching can take "M40" for an A100 40GB.
        if id and not memory_fits(id, memory) then
          gw.log(string.format("line %d: '%s' looks like %s but its memory differs; kept apart",
                               line, name, id))
          id = nil
        end
        local geforce = name:find("GeForce") ~= nil
        local date = (row["Release date"] or ""):match("^(%d%d%d%d%-%d%d%-%d%d)")
        local price = num(row["Release price (USD)"])
        if not id and why and why:find("ambiguous") then
          gw.log(string.format("line %d: '%s' could be several GPUs of the KB (%s%s); skipped",
                               line, name, why:match(": (.+)$"),
                               memory and string.format(", each with %g GB", memory) or
                               "; the row gives no memory"))
          skipped = skipped + 1
        elseif id then
          known = known + 1
        else
          id = slug(name)
          added = added + 1
          local tensor16 = not geforce and scaled(row["Tensor-FP16/BF16 performance (FLOP/s)"], 1e12) or nil
          records[#records + 1] = {
            kind = "gpu", id = id, name = name, vendor = row["Manufacturer"],
            memory_gb = memory,
            memory_bandwidth_gbs = scaled(row["Memory bandwidth (byte/s)"], 1e9),
            tdp_w = num(row["TDP (W)"]),
            fp32_tflops = scaled(row["FP32 (single precision) performance (FLOP/s)"], 1e12),
            tf32_tflops = scaled(row["TF32 (TensorFloat-32) performance (FLOP/s)"], 1e12),
            fp16_tflops = tensor16, bf16_tflops = tensor16,
            fp8_tflops = scaled(row["FP8 performance (FLOP/s)"], 1e12),
            int8_tops = scaled(row["INT8 performance (OP/s)"], 1e12),
            release_date = date, launch_price_usd = price,
            note = "Epoch AI ML hardware data (CC BY 4.0), line " .. line ..
                   (geforce and "; Tensor-FP16 left out (FP16-accumulate rate)" or ""),
          }
        end
        if price and date and not (why and why:find("ambiguous") and not id) then
          records[#records + 1] = {
            kind = "price", gpu = id, price_kind = "new", amount = price, currency = "USD",
            unit = "card", gpu_count = 1, as_of = date,
            note = "Release price in Epoch AI ML hardware data, line " .. line,
          }
        end
      end
    end
    gw.log(string.format("%d GPUs new to the KB, %d already in it, %d ambiguous", added, known,
                         skipped))
    return records
  end,
}
