-- Tests for lambda-cloud.lua on a response written in the instance-types API's shape.
local response = gw.json.encode({ data = {
  gpu_1x_a100 = { instance_type = { name = "gpu_1x_a100", description = "1x A100 (40 GB PCIe)",
    gpu_description = "A100 (40 GB PCIe)", price_cents_per_hour = 129,
    specs = { vcpus = 30, memory_gib = 200, storage_gib = 512, gpus = 1 } },
    regions_with_capacity_available = { { name = "us-east-1", description = "Virginia, USA" } } },
  cpu_4x_general = { instance_type = { name = "cpu_4x_general", description = "4x CPU",
    gpu_description = "", price_cents_per_hour = 20, specs = { gpus = 0 } },
    regions_with_capacity_available = {} },
} })

return {
  test_instance_types = function(plugin)
    local offers = plugin.offers({ input = response, input_name = "lambda.json" })
    -- one GPU type: 129 cents = USD 1.29 per hour; the CPU type is left out
    assert(#offers == 1, "expected 1 offer, got " .. #offers)
    assert(offers[1].gpu == "A100 40GB PCIe" and offers[1].price_per_hour == 1.29)
    assert(gw.gpu.resolve(offers[1].gpu) == "a100-pcie-40gb")
    assert(offers[1].note:find("us%-east%-1"))
  end,
}
