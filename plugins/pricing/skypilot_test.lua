-- Tests for skypilot.lua on rows written in the catalog's layouts (not copied from it).
local gcp = table.concat({
  "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice",
  "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.75,0.30",
  ",,,A100,1,A100,us-central1,us-central1-a,2.90,0.90",
  "a3-highgpu-8g,208.0,1872.0,,,,us-central1,us-central1-a,9.0,2.0",
  ",,,tpu-v6e-1,1,tpu-v6e-1,us-central2,us-central2-b,700.0,700.0",
}, "\n") .. "\n"

local runpod = table.concat({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Region,SpotPrice,Price,AvailabilityZone",
  "2x_A100-80GB_SECURE,A100-80GB,2.0,16.0,160.0,A100-80GB,US,2.0,3.0,US-TX-1",
  "2x_A100-80GB_SECURE,A100-80GB,2.0,16.0,160.0,A100-80GB,US,2.0,3.0,US-CA-1",
  "1x_A100-80GB-SXM_SECURE,A100-80GB-SXM,1.0,16.0,125.0,A100-80GB-SXM,US,,1.9,US-TX-1",
}, "\n") .. "\n"

local lambda = table.concat({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice",
  "cpu_4x_general,,,4.0,16.0,0.2,us-east-1,,",
  [[gpu_8x_v100,V100,8.0,92.0,448.0,4.4,us-east-1,"{'Gpus': [{'Name': 'V100', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}",]],
}, "\n") .. "\n"

return {
  test_gcp_host_joined_with_its_gpu = function(plugin)
    local offers = plugin.offers({ input = gcp, input_name = "gcp-vms.csv" })
    -- a2-highgpu-1g: VM 0.75 + GPU 2.90 = 3.65 on demand, 0.30 + 0.90 = 1.20 spot.
    -- a3-highgpu-8g has no H100 x8 row to join: skipped.  The TPU row is no GPU.
    assert(#offers == 2, "expected 2 offers, got " .. #offers)
    assert(math.abs(offers[1].price_per_hour - 3.65) < 1e-9 and offers[1].gpu_count == 1)
    assert(offers[1].provider == "GCP" and offers[1].gpu == "A100 40GB SXM4")
    assert(math.abs(offers[2].price_per_hour - 1.20) < 1e-9 and offers[2].spot)
  end,
  test_runpod_names_and_duplicates = function(plugin)
    local offers = plugin.offers({ input = runpod, input_name = "runpod-vms.csv" })
    -- PCIe 2x: on-demand 3.0 and spot 2.0 (the second zone of region US is a duplicate);
    -- SXM 1x: on-demand 1.9 only (empty SpotPrice).  3 offers.
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(offers[1].gpu == "A100 80GB PCIe" and offers[1].price_per_hour == 3.0)
    assert(offers[3].gpu == "A100 80GB SXM4" and offers[3].spot == false)
    assert(gw.gpu.resolve(offers[1].gpu) == "a100-pcie-80gb")
  end,
  test_lambda_memory_names_the_card = function(plugin)
    local offers = plugin.offers({ input = lambda, input_name = "lambda-vms.csv" })
    assert(#offers == 1 and offers[1].gpu == "V100 16GB" and offers[1].gpu_count == 8)
    assert(offers[1].price_per_hour == 4.4)
  end,
  test_unknown_cloud = function(plugin)
    local ok, msg = pcall(plugin.offers, { input = lambda, input_name = "vms.csv" })
    assert(not ok and msg:find("cannot tell the cloud"))
  end,
}
