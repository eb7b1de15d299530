-- fsdl.lua — reads the Full Stack Deep Learning cloud GPU table (cloud-gpus.csv: Cloud, GPU
-- Type, GPU Arch, GPUs, GPU RAM, vCPUs, RAM, On-demand, Per-GPU, Spot, Name), prices in USD
-- per instance-hour.  Use:  gpuwise prices refresh fsdl --input cloud-gpus.csv
-- Each row gives an on-demand offer, and a spot offer when the Spot column has a price.
-- GPU types are passed on as written, with their line: one the KB cannot name exactly (e.g.
-- "RTX4000 (8 GB)", which could be two cards) is reported by gpuwise with its lines and the
-- closest cards, and left out, rather than guessed.

local function trim(s) return (s or ""):match("^%s*(.-)%s*$") end

return {
  name = "fsdl",
  kind = "pricing",
  version = "1.1",
  description = "Full Stack Deep Learning cloud GPU price table (cloud-gpus.csv)",
  needs_input = true,

  offers = function(ctx)
    if not ctx.input then
      error("fsdl reads a saved cloud-gpus.csv: give --input FILE")
    end
    local offers = {}
    for i, row in ipairs(gw.csv.rows(ctx.input)) do
      local line = i + 1   -- the header is line 1
      local cloud, gpu_type = trim(row["Cloud"]), trim(row["GPU Type"])
      local count = tonumber(row["GPUs"])
      local price = tonumber(row["On-demand"])
      local spot = tonumber(row["Spot"] or "")
      if cloud == "" or gpu_type == "" or not count then
        gw.log(string.format("line %d: no cloud, GPU type or count; skipped", line))
      elseif not price then
        -- Some rows fill only Per-GPU, and there it does not always match GPUs x price;
        -- rather than guess the instance price, the row is left out.
        gw.log(string.format("line %d: no On-demand price; skipped", line))
      else
        local base = {
          provider = cloud, gpu = gpu_type, gpu_count = count, currency = "USD",
          instance = trim(row["Name"]) ~= "" and trim(row["Name"]) or nil,
          note = "FSDL cloud-gpus.csv line " .. line, line = line,
        }
        local on_demand = {}
        for k, v in pairs(base) do on_demand[k] = v end
        on_demand.price_per_hour, on_demand.spot = price, false
        offers[#offers + 1] = on_demand
        if spot and spot > 0 then
          local s = {}
          for k, v in pairs(base) do s[k] = v end
          s.price_per_hour, s.spot = spot, true
          offers[#offers + 1] = s
        end
      end
    end
    return offers
  end,
}
