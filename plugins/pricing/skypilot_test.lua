-- Tests for skypilot.lua on rows written in each cloud's catalog layout (not copied from it).
local function csv(lines) return table.concat(lines, "\n") .. "\n" end

local gcp = csv({
  "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice",
  "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.75,0.30",
  ",,,A100,1,A100,us-central1,us-central1-a,2.90,0.90",
  "a3-highgpu-8g,208.0,1872.0,,,,us-central1,us-central1-a,9.0,2.0",
  ",,,tpu-v6e-1,1,tpu-v6e-1,us-central2,us-central2-b,700.0,700.0",
})

local runpod = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Region,SpotPrice,Price,AvailabilityZone",
  "2x_A100-80GB_SECURE,A100-80GB,2.0,16.0,160.0,A100-80GB,US,2.0,3.0,US-TX-1",
  "2x_A100-80GB_SECURE,A100-80GB,2.0,16.0,160.0,A100-80GB,US,2.0,3.0,US-CA-1",
  "1x_A100-80GB-SXM_SECURE,A100-80GB-SXM,1.0,16.0,125.0,A100-80GB-SXM,US,,1.9,US-TX-1",
})

local lambda = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice",
  "cpu_4x_general,,,4.0,16.0,0.2,us-east-1,,",
  [[gpu_8x_v100,V100,8.0,92.0,448.0,4.4,us-east-1,"{'Gpus': [{'Name': 'V100', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}",]],
  [[gpu_1x_a100,A100,1.0,30.0,200.0,1.29,us-east-1,"{'Gpus': [{'Name': 'A100', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 40960}",]],
})

local aws = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone",
  [[p4d.24xlarge,A100,8.0,96.0,1152.0,"{'Gpus': [{'Name': 'A100', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}",20.0,8.0,us-east-1,use1-az1]],
  [[p4d.24xlarge,A100,8.0,96.0,1152.0,"{'Gpus': [{'Name': 'A100', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}",20.0,7.5,us-east-1,use1-az2]],
  [[p4d.24xlarge,A100,8.0,96.0,1152.0,"{'Gpus': [{'Name': 'A100', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}",21.0,21.0,us-west-2,usw2-az1]],
  [[inf2.xlarge,Inferentia2,1.0,4.0,16.0,"{'Gpus': [{'Name': 'Inferentia2', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 32768}}], 'TotalGpuMemoryInMiB': 32768}",0.76,0.3,us-east-1,use1-az1]],
})

local azure = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation",
  "Standard_NC24ads_A100_v4,A100-80GB,1.0,24.0,220.0,A100-80GB,3.6,0.7,eastus,V2",
  "Standard_NC40ads_H100_v5,H100,1.0,40.0,320.0,H100,0.0,0.0,eastus,V2",
  [[Standard_NV6ads_A10_v5,A10,0.167,6.0,55.0,A10,0.45,0.09,eastus,"V1,V2"]],
})

local function find(offers, pred)
  for _, o in ipairs(offers) do if pred(o) then return o end end
end

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
    -- PCIe 2x: on-demand 3.0 and spot 2.0 (two zones of region US: one offer each, "the lowest
    -- of 2 zones"); SXM 1x: on-demand 1.9 only (empty SpotPrice).  3 offers.
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(offers[1].gpu == "A100 80GB PCIe" and offers[1].price_per_hour == 3.0)
    assert(offers[1].note:find("lowest of 2 zones", 1, true), offers[1].note)
    assert(offers[3].gpu == "A100 80GB SXM4" and offers[3].spot == false)
    assert(gw.gpu.resolve(offers[1].gpu) == "a100-pcie-80gb")
  end,
  test_lambda_memory_and_instance_name_the_card = function(plugin)
    local offers = plugin.offers({ input = lambda, input_name = "lambda-vms.csv" })
    assert(#offers == 2, "expected 2 offers, got " .. #offers)
    assert(offers[1].gpu == "V100 SXM2 16GB" and offers[1].gpu_count == 8 and offers[1].price_per_hour == 4.4)
    -- gpu_1x_a100: one A100 40GB, not SXM in the instance name and not an 8-GPU board: PCIe
    assert(offers[2].gpu == "A100 40GB PCIe" and offers[2].line == 4)
  end,
  test_aws_zones_placeholder_spot_and_no_gpus = function(plugin)
    -- the cloud is found from the instance names: the file name says nothing
    local offers = plugin.offers({ input = aws, input_name = "vms.csv" })
    -- us-east-1: on-demand 20.0 (two zones), spot the lower of 8.0 and 7.5; us-west-2: 21.0 on
    -- demand, its SpotPrice 21.0 repeats the on-demand price: no spot.  Inferentia is no GPU.
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(offers[1].provider == "AWS" and offers[1].gpu == "A100 40GB SXM4")
    local spot = find(offers, function(o) return o.spot end)
    assert(spot.price_per_hour == 7.5 and spot.region == "us-east-1" and spot.line == 3)
    assert(not find(offers, function(o) return o.spot and o.region == "us-west-2" end))
  end,
  test_azure_fraction_and_zero_placeholder = function(plugin)
    local offers = plugin.offers({ input = azure, input_name = "x.csv" })
    -- NC24ads A100 v4: the PCIe 80GB, 3.6 and spot 0.7; NC40ads H100 v5 at 0.0: no price;
    -- NV6ads A10 v5: a sixth of an A10 (0.167) as one GPU with gpu_fraction 0.167
    assert(#offers == 4, "expected 4 offers, got " .. #offers)
    assert(offers[1].provider == "Azure" and offers[1].gpu == "A100 80GB PCIe")
    local a10 = find(offers, function(o) return o.gpu == "A10" and not o.spot end)
    assert(a10.gpu_count == 1 and a10.gpu_fraction == 0.167 and a10.price_per_hour == 0.45)
  end,
  test_provider_flag_names_the_cloud = function(plugin)
    local offers = plugin.offers({ input = lambda, input_name = "vms.csv", provider = "lambda" })
    assert(offers[1].provider == "Lambda")
  end,
  test_unknown_cloud = function(plugin)
    local rows = csv({ "InstanceType,AcceleratorName,AcceleratorCount,Price", "box1,L4,1,0.5" })
    local ok, msg = pcall(plugin.offers, { input = rows, input_name = "vms.csv" })
    assert(not ok and msg:find("give %-%-provider"), msg)
    -- another provider in the same columns, named with --provider: its rows as they are
    local offers = plugin.offers({ input = rows, input_name = "vms.csv", provider = "Boxes Inc" })
    assert(#offers == 1 and offers[1].provider == "Boxes Inc" and offers[1].gpu == "L4")
  end,
}
