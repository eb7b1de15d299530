-- precision-support: FP8 tensor cores arrived with Hopper and Ada, FP4 with Blackwell.  A GPU
-- without them runs the workload at the next precision it has (the decision says which in
-- option.runs_at): at twice the bytes a weight and, where the tensor rate halves, half the speed.
-- The option stays, costed as it would really run, with a warning that says so.
return {
  name = "precision-support",
  kind = "rule",
  version = "1.0.0",
  description = "Warns when a GPU lacks the workload's FP8 or FP4 tensor cores and runs a wider precision.",

  evaluate = function(option, workload)
    local want = (workload.model or {}).precision
    local runs = option.runs_at
    if not runs or not want or runs == want then
      return {}
    end
    return { { effect = "warn", weight = 0.05,
               because = string.format("%s has no %s tensor cores: it runs the workload at %s "
                   .. "(costed so), with the larger weights and slower math that means",
                   option.gpu_name or option.gpu or "this GPU", want, runs) } }
  end,
}
