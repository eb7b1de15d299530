-- short-work: short or bursty work favours renting.  A rented card stops costing when the work
-- stops; a bought one keeps losing value and needs a host, power and care between bursts.
-- "1 month", "2 months", "0.5 months".
local function months(n)
    return string.format("%g %s", n, n == 1 and "month" or "months")
end

return {
    name = "short-work",
    kind = "rule",
    version = "1.1.0",
    description = "Prefers renting for short horizons (under a year) or light use (under 4 h a day).",

    evaluate = function(option, workload)
        if option.acquisition ~= "rent" then
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
