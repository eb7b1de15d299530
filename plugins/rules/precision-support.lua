-- precision-support: a GPU without the tensor cores (or weight-only kernels) of the workload's
-- number format runs the next format it has: BF16 needs Ampere or later, FP8 Ada Lovelace,
-- Hopper or later, FP4 Blackwell.  The decision says which in option.runs_at and why in
-- option.precision_note (the format it lacks, the rate it runs at, the weights' bytes where they
-- change, FP16's range against BF16's).  The option stays, costed as it would really run, with
-- a warning that says so.
return {
  name = "precision-support",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "2.0.0",
  description = "Warns when a GPU lacks the workload's number format and runs another.",

  evaluate = function(option, workload)
    local note = option.precision_note
    if not note then
      return {}
    end
    return { { effect = "warn", weight = 0.05,
               because = note .. " (costed so)" } }
  end,
}
