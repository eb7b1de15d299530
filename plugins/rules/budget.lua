-- budget: an option that needs more cash up front than the budget is out.  One rule for both
-- acquisitions (the report states it): a purchase commits its cards, hosts and cooling on day
-- one; a rental for a job commits the whole job's bill, and a rental for capacity its first
-- month (it can be stopped after that).
-- "1 month", "36 months", "0.5 months".
local function months(n)
  return string.format("%g %s", n, n == 1 and "month" or "months")
end

return {
  name = "budget",
  kind = "rule",
  version = "1.2.1",
  description = "Excludes options that commit more cash up front than the budget (buying: cards, hosts, cooling; renting: the whole job, or the first month of capacity).",

  evaluate = function(option, workload)
    local budget = workload.budget
    if not budget then
      return {}
    end
    local ctx = workload.context or {}
    local budget_text = ctx.budget_text or string.format("%.0f", budget)
    -- option.cost.committed is the engine's one figure for the rule; the sentences say what
    -- it is for each kind of option.
    local committed = option.cost.committed
    if committed <= budget then
      return {}
    end
    if option.acquisition == "rent" then
      if workload.kind == "job" then
        return { { effect = "exclude", weight = 1,
                   because = string.format("renting for the whole job costs %s; the budget is %s",
                       option.cost.total_text, budget_text) } }
      end
      return { { effect = "exclude", weight = 1,
                 because = string.format("the first month of renting costs %s (of %s over %s); the budget is %s",
                     gw.money(committed, workload.currency), option.cost.total_text,
                     months(workload.horizon_months), budget_text) } }
    else
      return { { effect = "exclude", weight = 1,
                 because = string.format("costs %s up front; the budget is %s",
                     option.cost.upfront_text, budget_text) } }
    end
    return {}
  end,
}
