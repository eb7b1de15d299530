-- budget: an option that costs more than the budget is out.  Buying is measured by what is paid
-- up front; renting by the rental bill over the whole horizon.
-- "1 month", "36 months", "0.5 months".
local function months(n)
    return string.format("%g %s", n, n == 1 and "month" or "months")
end

return {
    name = "budget",
    kind = "rule",
    version = "1.1.0",
    description = "Excludes options over the budget (buying: up-front cost; renting: total over the horizon).",

    evaluate = function(option, workload)
        local budget = workload.budget
        if not budget then
            return {}
        end
        local ctx = workload.context or {}
        local budget_text = ctx.budget_text or string.format("%.0f", budget)
        if option.acquisition == "rent" then
            if option.cost.total > budget then
                return { { effect = "exclude", weight = 1,
                           because = string.format("renting for %s costs %s; the budget is %s",
                               months(workload.horizon_months), option.cost.total_text, budget_text) } }
            end
        elseif option.cost.upfront > budget then
            return { { effect = "exclude", weight = 1,
                       because = string.format("costs %s up front; the budget is %s",
                           option.cost.upfront_text, budget_text) } }
        end
        return {}
    end,
}
