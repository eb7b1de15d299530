-- deadline: a job that only just fits its hours has no room for what goes wrong: a slow start
-- (data staged, the software set up), a restart after a failure, or a real speed below the
-- figure the decision used (a scaled estimate especially).  Such an option stays feasible, with
-- a warning naming its slack; an option that cannot finish at all is already out.
return {
  name = "deadline",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.0.0",
  description = "Warns on a job option that needs more than 85% of the hours available to it.",

  evaluate = function(option, workload)
    local need, have = option.hours_needed, option.hours_available
    if workload.kind ~= "job" or not need or not have or have <= 0 or need > have then
      return {}
    end
    local used = need / have
    if used <= 0.85 then
      return {}
    end
    local estimate = option.throughput and option.throughput.basis == "scaled"
    return { { effect = "warn", weight = 0.05,
               because = string.format("needs %.0f of the %.0f hours available (%.0f%%): little "
                   .. "slack for a slow start, a restart or a slower real speed%s", need, have,
                   used * 100, estimate and " than this scaled estimate" or "") } }
  end,
}
