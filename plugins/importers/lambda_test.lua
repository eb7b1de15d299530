-- Tests for lambda.lua on rows written in its two layouts (not copied from the real files).
local v1 = "name_gpu,num_gpu,watt,price,resnet50,tacotron2,bert_base_squad\n" ..
           "RTX 3090,1.0,350.0,2750.0,905.0,25018.0,172.0\n" ..
           "Dell 2x H100 80GB SXM5,2.0,700.0,60000.0,5000.0,1.0,2000.0\n" ..
           "Mystery Card 9000,1.0,1.0,1.0,1.0,1.0,1.0\n"
local v2 = ",resnet50,ssd\n" ..
           "ASUS_8xH200_140GB_SXM_lambda-scalar_v2,21880.0,6501.0\n" ..
           "ASUS_8xH200_140GB_SXM_lambda-scalar_v2_bk,1.0,1.0\n"

return {
  test_v1_labels_counts_and_units = function(plugin)
    local r = plugin.import({ input_name = "pytorch-train-throughput-fp16.csv" }, v1)
    -- RTX 3090: resnet50 + bert (tacotron2 has no known unit) = 2; Dell 2x H100: 2; the
    -- mystery card names no GPU: 0.  4 records.
    assert(#r == 4, "expected 4 records, got " .. #r)
    assert(r[1].gpu == "rtx-3090" and r[1].value == 905 and r[1].unit == "images/s")
    assert(r[1].precision == "fp16" and r[1].gpu_count == 1 and r[1].interconnect == nil)
    assert(r[3].gpu == "h100-sxm5" and r[3].gpu_count == 2 and r[3].interconnect == "nvlink")
    assert(r[3].line == 3, "the file line of the Dell row")
  end,
  test_v2_system_ids = function(plugin)
    local r = plugin.import({ input_name = "x-v2-fp32.csv" }, v2)
    assert(#r == 2, "the _bk row is skipped")
    assert(r[1].gpu == "h200-sxm" and r[1].gpu_count == 8 and r[1].value == 21880)
    assert(r[2].workload == "ssd" and r[2].precision == "fp32")
  end,
  -- The count is the "<M>x" glued to the GPU, not the instance's "<N>x_": an 8-GPU on-demand
  -- instance benchmarked on 1 of its GPUs is a 1-GPU result, and its note says so.
  test_v2_gpus_used_not_instance_size = function(plugin)
    local r = plugin.import({ input_name = "x-v2-fp16.csv" }, ",resnet50\n" ..
      "LambdaOD_8x_Texas_1xH100_80GB_SXM5_10-0-0-1_v2,2789.0\n" ..
      "LambdaOD_8x_Texas_8xH100_80GB_SXM5_10-0-0-1_v2,22059.0\n" ..
      "LambdaOD_4x_Texas_2xH100_80GB_SXM5_10-0-0-2_v2,5400.0\n")
    assert(#r == 3, "expected 3 records, got " .. #r)
    assert(r[1].gpu == "h100-sxm5" and r[1].gpu_count == 1 and r[1].value == 2789)
    assert(r[1].interconnect == nil, "one GPU: no interconnect")
    assert(r[1].note:find("Run on 1 of its instance's 8 GPUs.", 1, true), r[1].note)
    assert(r[2].gpu_count == 8 and r[2].value == 22059 and r[2].interconnect == "nvlink")
    assert(not r[2].note:find("Run on", 1, true), "all of the instance's GPUs: nothing to say")
    assert(r[3].gpu_count == 2 and r[3].note:find("Run on 2 of its instance's 4 GPUs.", 1, true))
  end,
  -- v1 labels keep num_gpu's count, with the label's "4x" or "2x " agreeing with it.
  test_v1_counts_from_num_gpu = function(plugin)
    local r = plugin.import({ input_name = "t-fp32.csv" },
      "name_gpu,num_gpu,watt,price,resnet50\n" ..
      "LambdaCloud 4xV100 16GB,4.0,300.0,1.0,3200.0\n" ..
      "4x RTX 4090,2.0,450.0,1.0,2500.0\n")
    -- the 4090 row's label says 4 and num_gpu 2: refused, 1 record
    assert(#r == 1, "expected 1 record, got " .. #r)
    assert(r[1].gpu_count == 4 and r[1].value == 3200 and r[1].gpu:find("^v100"), r[1].gpu)
  end,
  -- A laptop GPU goes to its own card or nowhere: "RTX 2080 Max-Q" is neither the desktop RTX
  -- 2080 nor the (workstation) RTX PRO 6000 Blackwell Max-Q; the latter's own label is its card.
  test_laptop_marks_never_reach_a_desktop_card = function(plugin)
    local r = plugin.import({ input_name = "t-fp16.csv" },
      "name_gpu,num_gpu,watt,price,resnet50\n" ..
      "RTX 2080 Max-Q,1.0,80.0,1.0,101.0\n" ..
      "RTX 2070 Laptop,1.0,115.0,1.0,102.0\n" ..
      "Lambda Tensorbook RTX 3080 Mobile,1.0,165.0,1.0,103.0\n" ..
      "RTX PRO 6000 Blackwell Max-Q,1.0,300.0,1.0,1104.0\n" ..
      "RTX 2080,1.0,215.0,1.0,305.0\n")
    assert(#r == 2, "expected 2 records, got " .. #r)
    assert(r[1].gpu == "rtx-pro-6000-blackwell-max-q" and r[1].value == 1104, r[1].gpu)
    assert(r[2].gpu == "rtx-2080" and r[2].value == 305, r[2].gpu)
    local v2r = plugin.import({ input_name = "t-v2-fp16.csv" },
                              ",resnet50\nTensorbook_1xRTX_2080_Max-Q_v2,100.0\n")
    assert(#v2r == 0, "the Max-Q system id is refused")
  end,
  -- A label's memory must be its card's (within 10%): the real v2 file's line 8 says
  -- "1xGH200_80GB", and the KB's only GH200 has 96 GB (NVIDIA sells it with 96 GB HBM3 or 144 GB
  -- HBM3e; no 80 GB part is published), so that row is refused, while "1xGH200_96GB" and
  -- "8xH200_140GB" (the 141 GB card: 1 GB off, under 10% of 140) are stored.
  test_label_memory_no_card_has_is_refused = function(plugin)
    local r = plugin.import({ input_name = "t-v2-fp16.csv" }, ",resnet50\n" ..
      "LambdaOD_1x_1xGH200_80GB_192-222-58-35_v2,2846.0\n" ..
      "LambdaOD_1x_1xGH200_96GB_192-222-57-0_v2,2844.0\n" ..
      "ASUS_8xH200_140GB_SXM_lambda-scalar_v2,21880.0\n")
    assert(#r == 2, "expected 2 records, got " .. #r)
    assert(r[1].gpu == "gh200" and r[1].value == 2844 and r[1].line == 3, r[1].gpu)
    assert(r[2].gpu == "h200-sxm" and r[2].line == 4, r[2].gpu)
  end,
  test_empty_text = function(plugin)
    assert(#plugin.import({}, "") == 0)
  end,
}
