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
  end,
  test_v2_system_ids = function(plugin)
    local r = plugin.import({ input_name = "x-v2-fp32.csv" }, v2)
    assert(#r == 2, "the _bk row is skipped")
    assert(r[1].gpu == "h200-sxm" and r[1].gpu_count == 8 and r[1].value == 21880)
    assert(r[2].workload == "ssd" and r[2].precision == "fp32")
  end,
  test_empty_text = function(plugin)
    assert(#plugin.import({}, "") == 0)
  end,
}
