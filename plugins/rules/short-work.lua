-- short-work: short or bursty use favours renting.  A rented card stops costing when the work
-- stops; a bought one keeps losing value and needs a host, power and care between bursts.
-- Capacity only: a job's costs already bill a rental for just the hours its runs take and a
-- purchase for its whole hardware, so preferring renting again would count that twice.
-- "1 month", "2 months", "0.5 months".
local function months(n)
  return string.format("%g %s", n, n == 1 and "month" or "months")
end

return {
  name = "short-work",
  kind = "rule",
  prefers_at_most = 0.20,   -- its preferences on one option weigh at most this
  version = "1.2.0",
  description = "Prefers renting capacity for short horizons (under a year) or light use (under 4 h a day); a job's costs already say it.",

  evaluate = function(option, workload)
    if option.acquisition ~= "rent" or workload.kind == "job" then
      return {}
    end
    local reasons = {}
    if workload.horizon_months < 12 then
      reasons[#reasons + 1] = "the work lasts " .. months(workload.horizon_months)
    end
    if workload.hours_per_day < 4 then
      reasons[#reasons + 1] = string.format("the hardware would run only %g h a day", workload.hours_per_day)
    end
    if #reasons == 0 then
      return {}
    end
    return { { effect = "prefer", weight = 0.20,
               because = table.concat(reasons, " and ")
                   .. ": renting stops costing when the work stops, bought cards keep losing value" } }
  end,
}
