-- example-cloud.lua — the example pricing plugin: one provider's offers from a static table.
-- `gpuwise plugin new pricing NAME` writes a plugin shaped like this one.
--
-- EXAMPLE DATA: "Example Cloud" is not a real provider and these prices are invented to show
-- the format.  The plugin says `example = true`, so `gpuwise prices refresh` without names
-- skips it; `gpuwise prices refresh example-cloud` stores it on purpose (for trying things out).

-- gpu: as people write it (resolved against the KB); count: GPUs in the instance;
-- price: USD per hour for the whole instance.
local catalog = {
  { gpu = "H100 SXM",      count = 8, price = 24.00, instance = "ex.8xh100",  region = "eu-1" },
  { gpu = "H100 SXM",      count = 1, price = 3.10,  instance = "ex.1xh100",  region = "eu-1" },
  { gpu = "A100-80GB",     count = 1, price = 1.60,  instance = "ex.1xa100",  region = "eu-1" },
  { gpu = "RTX 4090",      count = 1, price = 0.45,  instance = "ex.1x4090",  region = "eu-1",
    spot = 0.30 },
  { gpu = "L4",            count = 1, price = 0.55,  instance = "ex.1xl4",    region = "us-1" },
}

return {
  name = "example-cloud",
  kind = "pricing",
  version = "1.0",
  description = "Example Cloud (invented example prices, for learning the plugin format)",
  example = true,

  offers = function(ctx)
    local offers = {}
    for _, row in ipairs(catalog) do
      offers[#offers + 1] = {
        provider = "Example Cloud",
        gpu = row.gpu,
        gpu_count = row.count,
        price_per_hour = row.price,
        currency = "USD",
        region = row.region,
        spot = false,
        instance = row.instance,
        as_of = "2026-01-01",
        note = "invented example price",
      }
      if row.spot then   -- the same instance, interruptible
        offers[#offers + 1] = {
          provider = "Example Cloud", gpu = row.gpu, gpu_count = row.count,
          price_per_hour = row.spot, currency = "USD", region = row.region, spot = true,
          instance = row.instance, as_of = "2026-01-01", note = "invented example price",
        }
      end
    end
    return offers
  end,
}
