-- Tests for fsdl.lua on a few rows written in its format (not copied from the real file).
local sample = table.concat({
  "Cloud,GPU Type,GPU Arch,GPUs,GPU RAM,vCPUs,RAM,On-demand,Per-GPU,Spot,Name",
  "Acme,A100 (80 GB),Ampere,8,640,96,1152,40.00,5.00,12.00,acme.8xa100",
  "Acme,H100 PCIe (80GB),Hopper,1,80,26,200,2.50,2.50,,acme.1xh100",
  "Acme,RTX4000 (8 GB),Turing,1,8,8,30,0.50,0.50,,acme.rtx4000",
  "Acme,T4 (16 GB),Turing,1,16,4,16,,,,acme.t4",
}, "\r\n") .. "\r\n"

return {
  test_on_demand_and_spot = function(plugin)
    local offers = plugin.offers({ input = sample, input_name = "sample.csv" })
    -- A100 row: on-demand + spot; H100 row: on-demand; RTX4000: passed on as written (gpuwise
    -- reports it, ambiguous, with its line 4); T4: no price, skipped.  4 offers.
    assert(#offers == 4, "expected 4 offers, got " .. #offers)
    assert(offers[4].gpu == "RTX4000 (8 GB)" and offers[4].line == 4)
    assert(offers[1].gpu == "A100 (80 GB)" and offers[1].gpu_count == 8)
    assert(offers[1].price_per_hour == 40 and offers[1].spot == false)
    assert(offers[2].price_per_hour == 12 and offers[2].spot == true)
    assert(offers[3].instance == "acme.1xh100")
  end,
  test_needs_input = function(plugin)
    local ok, msg = pcall(plugin.offers, {})
    assert(not ok and msg:find("give %-%-input"), "refuses to run without input")
  end,
  -- The serverless layout, rows as the real serverless-gpus.csv has them (its lines 2, 58, 59
  -- and 71; the last row is written for the test): Vendor is the provider, Per-Hour the USD per
  -- hour of the configuration ("$3" in Mystic AI's rows), the instance "serverless" with the
  -- vCPUs and RAM that tell Replicate's two A40 configurations apart, and a type without a
  -- memory gets GPU RAM / GPUs (48 / 1 = 48 GB; Mystic AI's "40GB" / 1 = 40 GB).
  test_serverless_layout = function(plugin)
    local offers = plugin.offers({ input_name = "serverless-gpus.csv", input = table.concat({
      "Vendor,GPU Type,GPU Arch,GPUs,GPU RAM,vCPUs,RAM,Per-Hour,Per-GPU",
      "Banana,A5000 (24 GB),Ampere,1,24,4,64,2.32,2.32",
      "Replicate,A40,Ampere,1,48,4,16,2.07,2.07",
      "Replicate,A40,Ampere,1,48,10,72,2.61,2.61",
      "Mystic AI,Nvidia A100,Ampere,1,40GB,0,0,$3,$3",
      ",T4 (16 GB),Turing,1,16,4,16,0.50,0.50",
    }, "\n") .. "\n" })
    assert(#offers == 4, "the row without a Vendor is left out: expected 4 offers, got " .. #offers)
    local banana = offers[1]
    assert(banana.provider == "Banana" and banana.gpu == "A5000 (24 GB)" and banana.gpu_count == 1)
    assert(banana.price_per_hour == 2.32 and banana.spot == false and banana.currency == "USD")
    assert(banana.instance == "serverless, 4 vCPU, 64 GB RAM", banana.instance)
    assert(banana.min_billing_hours == nil, "the file states no billing step")
    assert(banana.note:find("^FSDL serverless%-gpus%.csv line 2: a serverless GPU"), banana.note)
    assert(offers[2].gpu == "A40 (48 GB)" and offers[2].price_per_hour == 2.07)
    assert(offers[3].instance == "serverless, 10 vCPU, 72 GB RAM" and offers[3].line == 4)
    assert(offers[4].gpu == "Nvidia A100 (40 GB)" and offers[4].price_per_hour == 3)
    assert(offers[4].instance == "serverless", "Mystic AI gives 0 vCPUs and 0 GB RAM")
  end,
  test_unknown_header_refused = function(plugin)
    local ok, msg = pcall(plugin.offers, { input = "a,b\n1,2\n" })
    assert(not ok and msg:find("neither Cloud and On%-demand"), tostring(msg))
  end,
}
