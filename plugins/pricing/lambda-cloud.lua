-- lambda-cloud.lua — Lambda's own cloud API, GET /api/v1/instance-types (cloud.lambdalabs.com):
-- every instance type with its price.  The API wants your API key, which gpuwise never holds,
-- so save the response yourself and hand it in:
--   curl -u "$LAMBDA_API_KEY:" https://cloud.lambdalabs.com/api/v1/instance-types > lambda.json
--   gpuwise prices refresh lambda-cloud --input lambda.json
-- A response is {"data": {"gpu_1x_a100": {"instance_type": {"name", "description",
-- "gpu_description": "A100 (40 GB PCIe)", "price_cents_per_hour": 129, "specs": {"vcpus",
-- "memory_gib", "storage_gib", "gpus"}}, "regions_with_capacity_available": [{"name",
-- "description"}]}, ...}}: one on-demand offer per GPU instance type (Lambda prices them the same
-- in every region; the note names the regions with capacity when the response was saved).

-- "A100 (40 GB PCIe)" -> "A100 40GB PCIe": the way the KB's names are written
local function card_name(description)
  local s = description:gsub("[()]", " "):gsub("(%d+)%s*GB", "%1GB")
  return (s:gsub("%s+", " "):match("^%s*(.-)%s*$"))
end

return {
  name = "lambda-cloud",
  kind = "pricing",
  version = "1.0",
  description = "Lambda Cloud API instance-types response (saved with your API key)",
  needs_input = true,

  offers = function(ctx)
    if not ctx.input then
      error("lambda-cloud reads a saved /api/v1/instance-types response: give --input FILE")
    end
    local doc, msg = gw.json.decode(ctx.input)
    if not doc then error((ctx.input_name or "input") .. ": " .. msg) end
    if type(doc) ~= "table" or type(doc.data) ~= "table" then
      error((ctx.input_name or "input") .. ": not an instance-types response (no data object)")
    end
    local names = {}
    for name in pairs(doc.data) do names[#names + 1] = name end
    table.sort(names)   -- a fixed order: the response is an object
    local offers, cpu_only = {}, 0
    for _, key in ipairs(names) do
      local entry = doc.data[key]
      local it = type(entry) == "table" and entry.instance_type or {}
      local specs = type(it.specs) == "table" and it.specs or {}
      local gpus, cents = tonumber(specs.gpus), tonumber(it.price_cents_per_hour)
      if not gpus or gpus < 1 or type(it.gpu_description) ~= "string" then
        cpu_only = cpu_only + 1
      elseif cents and cents > 0 then
        local regions = {}
        for _, r in ipairs(type(entry.regions_with_capacity_available) == "table"
                           and entry.regions_with_capacity_available or {}) do
          regions[#regions + 1] = r.name
        end
        offers[#offers + 1] = {
          provider = "Lambda", gpu = card_name(it.gpu_description), gpu_count = gpus,
          price_per_hour = cents / 100, currency = "USD", spot = false,
          instance = it.name or key, quality = "list",
          note = string.format("Lambda Cloud API instance-types (%s); capacity then in: %s",
                               it.description or key,
                               #regions > 0 and table.concat(regions, ", ") or "no region"),
        }
      end
    end
    if cpu_only > 0 then gw.log(cpu_only .. " instance types without GPUs: left out") end
    return offers
  end,
}
