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
    -- A language-model benchmark labelled Samples/s is stored in tokens/s, and the note names
    -- the rule's round and source (mixtral-8x7b counts tokens from its first round, v4.1).
    assert(r[3].workload == "mixtral-8x7b" and r[3].value == 500 and r[3].unit == "tokens/s")
    assert(r[3].note:find("count mixtral-8x7b's Offline Result in tokens/s from v4.1 on", 1, true)
           and r[3].note:find("source mlperf-inference-submission-checker", 1, true), r[3].note)
  end,
  -- What Result counts is told by the round (version column) and the benchmark's rules, not by
  -- Units: v4.0's llama2-70b Server counts queries (x 294.45 tokens per query), its
  -- Offline tokens; GPT-J counts samples until v4.1 (x 69 tokens per sample), tokens after.
  test_language_models_in_tokens_by_round = function(plugin)
    local t = header ..
      'Giga,"G8",llama2-70b-99,Server,72.4427,Queries/s,"NVIDIA H100-SXM-80GB","8",1,TRT,closed,v4.0\n' ..
      'Giga,"G8",llama2-70b-99,Offline,22289.7,Samples/s,"NVIDIA H100-SXM-80GB","8",1,TRT,closed,v4.0\n' ..
      'Acme,"A4",gptj-99,Offline,1000,Samples/s,"NVIDIA H100-SXM-80GB","4",1,TRT,closed,v4.0\n' ..
      'Acme,"A8",gptj-99,Offline,20041.3,Samples/s,"NVIDIA H200-SXM-141GB","8",1,TRT,closed,v4.1\n' ..
      'Acme,"A8",llama3.1-405b,Server,1600,Tokens/s,"NVIDIA H200-SXM-141GB","8",1,TRT,closed,v5.0\n' ..
      'Acme,"A8",llama2-70b-interactive-99,Server,8000,Tokens/s,"NVIDIA H200-SXM-141GB","8",1,TRT,closed,v5.0\n'
    local r = plugin.import({ input_name = "v40.csv" }, t)
    assert(#r == 6, "expected 6 records, got " .. #r)
    -- 72.4427 queries/s x 294.45 tokens = 21,330.753 tokens/s; / 8 = 2,666.344 a GPU (was
    -- stored as 72.4427 / 8 = 9.06 "tokens/s", 294x too low)
    assert(r[1].unit == "tokens/s" and math.abs(r[1].value - 2666.344127) < 1e-5, r[1].value)
    assert(r[1].metric == "inference_server" and r[1].workload == "llama2-70b")
    assert(r[1].note:find("72.4427 queries/s x 294.45 tokens per query", 1, true), r[1].note)
    assert(r[1].note:find("source mlperf-inference-llama2-70b-tokens-per-sample", 1, true))
    -- v4.0 Offline is already tokens/s: 22,289.7 / 8 = 2,786.2125
    assert(r[2].unit == "tokens/s" and math.abs(r[2].value - 2786.2125) < 1e-9, r[2].value)
    assert(r[2].note:find("from v4.0 on", 1, true), r[2].note)
    -- v4.0 GPT-J counts samples: 1,000 x 69 tokens / 4 = 17,250 tokens/s a GPU
    assert(r[3].unit == "tokens/s" and math.abs(r[3].value - 17250) < 1e-9, r[3].value)
    assert(r[3].note:find("source mlperf-inference-gptj-token-scaling", 1, true), r[3].note)
    -- v4.1 GPT-J is tokens/s already: 20,041.3 / 8 = 2,505.1625
    assert(r[4].unit == "tokens/s" and math.abs(r[4].value - 2505.1625) < 1e-9, r[4].value)
    -- v5.0 says Tokens/s itself: 1,600 / 8 = 200, and no sentence about the Units column
    assert(r[5].value == 200 and r[5].unit == "tokens/s" and not r[5].note:find("whatever", 1, true))
    -- v5.0's llama2-70b-interactive is llama2-70b in the interactive scenario: 8,000 / 8 = 1,000
    assert(r[6].workload == "llama2-70b" and r[6].metric == "inference_interactive")
    assert(r[6].value == 1000)
  end,
  -- Rows that are not a throughput, or cannot be placed, are left out (the log says why).
  test_rows_left_out = function(plugin)
    local t = header ..
      'W,"E2",resnet50,SingleStream,0.94,Latency (ms),"NVIDIA L40S","2",1,TRT,closed,v4.0\n' ..
      'W,"E2",resnet50,MultiStream,1.08,Latency (ms),"NVIDIA L40S","2",1,TRT,closed,v4.0\n' ..
      'W,"E2",resnet50,Offline,950,Watts,"NVIDIA L40S","2",1,TRT,closed,v4.0\n' ..
      'W,"E2",llama2-70b-99,Server,70,Queries/s,"NVIDIA L40S","2",1,TRT,closed,\n' ..
      'W,"E2",resnet50,Offline,,Samples/s,"NVIDIA L40S","2",1,TRT,closed,v4.0\n' ..
      'W,"E2",resnet50,Offline,100,Samples/s,"NVIDIA L40S",,1,TRT,closed,v4.0\n' ..
      'W,"E2",resnet50,Offline,88119.7,Samples/s,"NVIDIA L40S","2",1,TRT,closed,v4.0\n'
    local r = plugin.import({ input_name = "left.csv" }, t)
    -- two latencies, a power row, an LLM without a round, no Result, no accelerator count:
    -- only the last row, 88,119.7 / 2 = 44,059.85 samples/s
    assert(#r == 1, "expected 1 record, got " .. #r)
    assert(r[1].value == 44059.85 and r[1].unit == "samples/s" and r[1].line == 8)
  end,
  -- A summary from before v3.0 has no Units column: Offline counts samples/s, Server queries/s.
  test_no_units_column = function(plugin)
    local t = "Organization,SystemName,Model,Scenario,Result,accelerator_model_name," ..
              "accelerators_per_node,number_of_nodes,framework,Division,version\n" ..
              'Acme,"Box 4",resnet,Server,40000,"NVIDIA A100-SXM-80GB","4",1,TRT,closed,v2.1\n' ..
              'Acme,"Box 4",resnet,SingleStream,0.5,"NVIDIA A100-SXM-80GB","4",1,TRT,closed,v2.1\n'
    local r = plugin.import({ input_name = "old.csv" }, t)
    -- 40,000 / 4 = 10,000 queries/s; the SingleStream latency is left out
    assert(#r == 1 and r[1].value == 10000 and r[1].unit == "queries/s", #r)
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
