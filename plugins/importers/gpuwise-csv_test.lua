-- Tests for gpuwise-csv.lua.
local text = "gpu,gpu_count,workload,metric,value,unit,precision\n" ..
             "RTX 3090,2,resnet50,train_throughput,1700,images/s,amp\n" ..
             "A100-80GB,1,bert_base_squad,train_throughput,fast,sequences/s,fp16\n"

return {
  test_columns_become_fields = function(plugin)
    local r = plugin.import({ input_name = "mine.csv" }, text)
    assert(#r == 2)
    assert(r[1].gpu == "RTX 3090" and r[1].gpu_count == 2 and r[1].value == 1700)
    assert(r[1].note == "line 2 of mine.csv")
  end,
  test_lines_count_from_first_line_and_quoted_newlines = function(plugin)
    -- a slice whose first record is on line 40; its note spans lines 40-41, so the next row is 42
    local slice = "gpu,workload,metric,value,unit,note\n" ..
                  "RTX 3090,resnet50,train_throughput,1,images/s,\"two\nlines\"\n" ..
                  "RTX 3090,resnet50,train_throughput,2,images/s,\n"
    local r = plugin.import({ input_name = "big.csv", first_line = 40 }, slice)
    assert(r[1].line == 40 and r[1].note == "two\nlines")
    assert(r[2].line == 42 and r[2].note == "line 42 of big.csv")
  end,
  test_bad_number_is_passed_on_for_the_core_to_name = function(plugin)
    local r = plugin.import({}, text)
    assert(r[2].value == "fast")
  end,
}
