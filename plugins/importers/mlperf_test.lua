-- Tests for mlperf.lua on rows written in the summary.csv layout (not copied from it).
local header = "Organization,SystemName,Model,Scenario,Result,Units,accelerator_model_name," ..
               "accelerators_per_node,number_of_nodes,framework,Division,version\n"
local rows = header ..
  'Acme,"Box 8",resnet,Offline,80000,Samples/s,"NVIDIA H100-SXM-80GB","8",1,"TensorRT 10, CUDA 12",closed,v4.1\n' ..
  'Acme,"Box 8",llama2-70b-99,Server,800,Tokens/s,"NVIDIA H100-SXM-80GB","8",1,TensorRT,closed,v4.1\n' ..
  'Acme,"Box 8",llama2-70b-99.9,Server,800,Tokens/s,"NVIDIA H100-SXM-80GB","8",1,TensorRT,closed,v4.1\n' ..
  'Acme,"Box 2",resnet,Offline,100,Samples/s,"Mystery NPU","2",1,x,closed,v4.1\n' ..
  'Acme,"Box 8",mixtral-8x7b,Offline,4000,Samples/s,"NVIDIA H100-SXM-80GB","8",1,TensorRT,closed,v4.1\n'

return {
  test_divided_per_accelerator_and_deduplicated = function(plugin)
    local r = plugin.import({ input_name = "summary.csv" }, rows)
    -- resnet 80000 / 8 = 10000 samples/s per GPU; llama2-70b once (800 / 8 = 100);
    -- the Mystery NPU is not in the KB; mixtral 4000 / 8 = 500.  3 records.
    assert(#r == 3, "expected 3 records, got " .. #r)
    assert(r[1].gpu == "h100-sxm5" and r[1].value == 10000 and r[1].unit == "samples/s")
    assert(r[1].metric == "inference_offline" and r[1].gpu_count == 1)
    assert(r[2].workload == "llama2-70b" and r[2].value == 100 and r[2].unit == "tokens/s")
    assert(r[1].framework == "TensorRT 10, CUDA 12")
    -- A language-model benchmark labelled Samples/s is stored in tokens/s, and says so.
    assert(r[3].workload == "mixtral-8x7b" and r[3].value == 500 and r[3].unit == "tokens/s")
    assert(r[3].note:find("MLPerf measures its throughput in tokens/s", 1, true), r[3].note)
  end,
  -- MLPerf Training's results table, in its layout (rows written here): the times to train of
  -- each benchmark a system ran, for all its accelerators; a blank cell is no result.
  test_training_times_to_train = function(plugin)
    local t = "Public ID,Organization,System,Accelerator Model Name,Total Accelerators,bert,"
      .. "llama2_70b_lora,gpt3\n"
      .. "5.0-0001,Acme,Box 8,NVIDIA H100-SXM-80GB,8,5.2,27.9,\n"
      .. "5.0-0002,Acme,Box 2,Mystery NPU,2,40.1,,\n"
    local r = plugin.import({ input_name = "training.csv" }, t)
    -- Box 8: bert 5.2 and llama2_70b_lora 27.9 minutes on 8 H100; gpt3 is blank; the NPU is
    -- not in the KB: 2 records.
    assert(#r == 2, "expected 2 records, got " .. #r)
    assert(r[1].workload == "bert" and r[1].value == 5.2 and r[1].unit == "minutes")
    assert(r[2].workload == "llama2_70b_lora" and r[2].value == 27.9 and r[2].gpu_count == 8)
    assert(r[2].gpu == "h100-sxm5" and r[2].metric == "train_time_to_train")
    assert(r[2].note:find("27.9 minutes to train llama2_70b_lora to its quality target on 8 "
      .. "accelerators (training.csv line 2)", 1, true), r[2].note)
  end,
}
