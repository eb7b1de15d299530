-- Tests for epoch.lua on rows written in Epoch's layout (not copied from the dataset).
local header = 'Hardware name,Manufacturer,Type,Release date,Release price (USD),' ..
  'FP32 (single precision) performance (FLOP/s),Tensor-FP16/BF16 performance (FLOP/s),' ..
  'Memory size per board (Byte),Memory bandwidth (byte/s),TDP (W),Price-performance\n'
local text = header ..
  'NVIDIA H100 SXM5 80GB,NVIDIA,GPU,2022-09-20,33600.0,66910000000000.0,989400000000000.0,80000000000.0,3350000000000.0,700.0,inf\n' ..
  'Acme Z1,Acme,GPU,2025-01-02,,1.5e13,2.0e14,48000000000.0,1.2e12,300.0,inf\n' ..
  'NVIDIA GeForce RTX 9999,NVIDIA,GPU,2030-01-01,,1e14,6.6e14,3.2e10,1.8e12,500.0,\n' ..
  'Google TPU v9,Google,TPU,2030-01-01,,,1e15,,,,\n'

return {
  test_known_gpu_gives_a_price_only = function(plugin)
    local r = plugin.import({ input_name = "ml_hardware.csv" }, text)
    -- H100 SXM5 is in the KB: only its release price (1 record); Acme Z1 and the GeForce: one
    -- gpu record each; the TPU is not a GPU.  3 records.
    assert(#r == 3, "expected 3 records, got " .. #r)
    assert(r[1].kind == "price" and r[1].gpu == "h100-sxm5" and r[1].amount == 33600)
    assert(r[1].as_of == "2022-09-20" and r[1].price_kind == "new")
  end,
  test_units_are_converted = function(plugin)
    local r = plugin.import({}, text)
    local z = r[2]
    -- 1.5e13 FLOP/s = 15 TFLOPS; 2.0e14 = 200 TFLOPS; 48e9 bytes = 48 GB; 1.2e12 B/s = 1200 GB/s
    assert(z.id == "acme-z1" and z.fp32_tflops == 15 and z.fp16_tflops == 200)
    assert(z.memory_gb == 48 and z.memory_bandwidth_gbs == 1200 and z.tdp_w == 300)
  end,
  test_geforce_tensor_fp16_left_out = function(plugin)
    local g = plugin.import({}, text)[3]
    assert(g.id == "geforce-rtx-9999" and g.fp16_tflops == nil and g.fp32_tflops == 100)
  end,
}
