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

-- AWS's GDDR cards (their GB less a reserve, in MiB), a row with only a spot price, and an
-- H200 whose memory fits two cards of the KB
local aws_more = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone",
  [[g6.xlarge,L4,1.0,4.0,16.0,"{'Gpus': [{'Name': 'L4', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 22888}}], 'TotalGpuMemoryInMiB': 22888}",0.80,0.40,us-east-1,use1-az1]],
  [[g6e.xlarge,L40S,1.0,4.0,32.0,"{'Gpus': [{'Name': 'L40S', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 45776}}], 'TotalGpuMemoryInMiB': 45776}",1.86,0.70,us-east-1,use1-az1]],
  [[p5e.48xlarge,H200,8.0,192.0,2048.0,"{'Gpus': [{'Name': 'H200', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 143771}}], 'TotalGpuMemoryInMiB': 1150168}",,15.0,us-east-2,use2-az1]],
})

-- Vast: the memory is all the GPUs'; the instance name tells the card
local vast = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region",
  [[2x-A100_SXM4-32-65536,A100,2,32,64,"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 81920}}]}",1.50,0.00,"Slovenia, SI, EU"]],
  [[1x-H100_NVL-16-65536,H100,1,16,64,"{'Gpus': [{'Name': 'H100', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 95830}}]}",2.20,0.00,"Texas, US, NA"]],
  [[1x-RTX_4090-8-32768,RTX4090,1,8,32,"{'Gpus': [{'Name': 'RTX4090', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 24564}}]}",0.35,0.00,"Quebec, CA, NA"]],
})

-- RunPod's newer files: GB in SizeInMiB, GpuInfo last
local runpod8 = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region,SpotPrice,Price,AvailabilityZone,GpuInfo",
  [[1x_H100-NVL_SECURE,H100-NVL,1.0,16.0,94.0,IN,3.19,3.19,AP-IN-1,"{'Gpus': [{'Name': 'H100-NVL', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 94}}]}"]],
})

local azure_nd = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation",
  "Standard_ND96isr_H100_v5,H100,12,96.0,1900.0,H100,98.32,98.32,eastus,V2",
})

-- smaller clouds, named with --provider: JSON GpuInfo giving all GPUs' memory, the form in the
-- instance name or in GpuInfo's name, and accelerator names written their own way
local small = csv({
  "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice",
  [[x2-a100,A100,2,32,256,2.60,EU,"{""Gpus"": [{""Name"": ""A100"", ""Count"": 2, ""MemoryInfo"": {""SizeInMiB"": 163840}}]}",]],
  [[epyc-a100-pcie_1x8v,A100,1,8,64,1.50,EU,"{'Gpus': [{'Name': 'A100', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 81920}}]}",]],
  [[H100-1-80G,H100,1,24,240,2.52,fr-par,"{'Gpus': [{'Name': 'NVIDIA H100 PCIe', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 81920}}]}",]],
  [[box_h100,H100_PCIE_BAREMETAL,1,16,128,2.10,US,,]],
  [[box_5090,RTX5090_PCIE,1,16,64,0.85,US,,]],
  [[box_6000,RTX6000-Ada,1,16,64,0.90,US,,0.60]],
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
  test_aws_gddr_memory_spot_only_and_h200 = function(plugin)
    local offers = plugin.offers({ input = aws_more, input_name = "aws-vms.csv" })
    -- L4: 22888 MiB is 24.0 GB (22888 x 1.048576 / 1000), the L4's 24 GB, not "22GB";
    -- L40S: 45776 MiB is 48.0 GB; each on demand and spot: 4 offers.  p5e: no on-demand
    -- price, a spot price of 15.0: one spot offer of 8 H200 (AWS names its H200 exactly).
    assert(#offers == 5, "expected 5 offers, got " .. #offers)
    assert(gw.gpu.resolve(offers[1].gpu) == "l4" and offers[1].price_per_hour == 0.80)
    assert(gw.gpu.resolve(offers[3].gpu) == "l40s")
    local h200 = find(offers, function(o) return o.instance == "p5e.48xlarge" end)
    assert(h200.spot and h200.price_per_hour == 15.0 and h200.gpu_count == 8)
    assert(gw.gpu.resolve(h200.gpu) == "h200-sxm")
  end,
  test_vast_memory_is_all_gpus_and_instance_names_the_card = function(plugin)
    local offers = plugin.offers({ input = vast, input_name = "vast-vms.csv" })
    -- 2x A100 SXM4 with 81920 MiB in all: 40960 each, the 40GB card (not two 80GB ones);
    -- 1x H100 NVL: the instance says NVL; RTX4090 24GB resolves through its name alone.
    -- SpotPrice 0.00 is no spot offer.
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(gw.gpu.resolve(offers[1].gpu) == "a100-sxm4-40gb" and offers[1].gpu_count == 2)
    assert(gw.gpu.resolve(offers[2].gpu) == "h100-nvl", offers[2].gpu)
    assert(gw.gpu.resolve(offers[3].gpu) == "rtx-4090", offers[3].gpu)
    -- a marketplace's catalog holds what hosts ask: market prices, not a price list
    for _, o in ipairs(offers) do assert(o.quality == "market", o.quality) end
  end,
  test_runpod_gb_in_size_in_mib = function(plugin)
    local offers = plugin.offers({ input = runpod8, input_name = "runpod-vms.csv" })
    -- SizeInMiB 94 is 94 GB: the H100 NVL, on demand at 3.19 (spot equal: none)
    assert(#offers == 1 and gw.gpu.resolve(offers[1].gpu) == "h100-nvl", offers[1] and offers[1].gpu)
    assert(offers[1].quality == "list", offers[1].quality)   -- RunPod's own price list
  end,
  test_azure_gpu_count_corrected = function(plugin)
    local offers = plugin.offers({ input = azure_nd, input_name = "azure-vms.csv" })
    -- ND96isr H100 v5 has 8 GPUs whatever the catalog's 12 says: USD 98.32 for 8 (12.29 a GPU)
    assert(#offers == 1 and offers[1].gpu_count == 8 and offers[1].gpu == "H100 SXM")
    assert(offers[1].note:find("the catalog says 12 GPUs; the size has 8", 1, true), offers[1].note)
  end,
  test_smaller_clouds_names_forms_and_json = function(plugin)
    local offers = plugin.offers({ input = small, input_name = "vms.csv", provider = "Small Cloud" })
    -- 2 A100 with 163840 MiB in all (JSON GpuInfo): 80 GiB each; no form in the name: the
    -- KB's "A100 80GB" card.  a100-pcie in the instance: the PCIe card.  GpuInfo's own name
    -- says PCIe for the H100.  BAREMETAL and _PCIE are the providers' words.  6 on demand and
    -- one spot (0.60 for the RTX 6000 Ada).
    assert(#offers == 7, "expected 7 offers, got " .. #offers)
    local want = { "a100-sxm4-80gb", "a100-pcie-80gb", "h100-pcie", "h100-pcie", "rtx-5090", "rtx-6000-ada" }
    for i, id in ipairs(want) do
      assert(gw.gpu.resolve(offers[i].gpu) == id, i .. ": " .. offers[i].gpu .. " is not " .. id)
    end
    assert(offers[1].gpu_count == 2 and offers[1].price_per_hour == 2.60)
  end,
  test_other_clouds_instance_names_are_not_gcp_or_lambda = function(plugin)
    -- an OVH-like t1-le-45 and a SimplePod-like gpu_1x_rtx3060_18 name no cloud this plugin
    -- knows: --provider is asked for rather than filing them under GCP or Lambda
    for _, instance in ipairs({ "t1-le-45", "n3-A100x1", "gpu_1x_rtx3060_18" }) do
      local rows = csv({ "InstanceType,AcceleratorName,AcceleratorCount,Price,Region",
                         instance .. ",V100,1,0.77,BHS" })
      local ok, msg = pcall(plugin.offers, { input = rows, input_name = "vms.csv" })
      assert(not ok and msg:find("give %-%-provider"), instance .. ": " .. tostring(msg))
    end
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
