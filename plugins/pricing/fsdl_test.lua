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
}
