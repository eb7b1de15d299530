-- budget: an option whose figure the budget is held to exceeds it is out.  The workload states
-- its budget one of three ways (workload.context.budget_basis), and the engine's
-- option.cost.committed is the matching figure:
--   upfront (budget = N): cash on day one: a purchase's cards, hosts and cooling; a job
--     rental's whole bill; a capacity rental's first month (it can be stopped after that);
--   total (budget = { total = N }, a grant): everything over the horizon, rentals included;
--   monthly (budget = { monthly = N }): a rental's bill a month, a purchase's running costs a
--     month.
-- "1 month", "36 months", "0.5 months".
local function months(n)
  return string.format("%g %s", n, n == 1 and "month" or "months")
end

-- The sentence for an option over an up-front budget (the rule's original wording).
local function upfront_because(option, workload, committed, budget_text)
  if option.acquisition == "rent" then
    if workload.kind == "job" then
      return string.format("renting for the whole job costs %s; the budget is %s",
          option.cost.total_text, budget_text)
    end
    return string.format("the first month of renting costs %s (of %s over %s); the budget is %s",
        gw.money(committed, workload.currency), option.cost.total_text,
        months(workload.horizon_months), budget_text)
  end
  return string.format("costs %s up front; the budget is %s", option.cost.upfront_text, budget_text)
end

return {
  name = "budget",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.3.0",
  description = "Excludes options over the budget, at the figure it is stated as: cash up front (buying: cards, hosts, cooling; renting: the whole job, or the first month of capacity), everything over the horizon (a grant), or a month's spending.",

  evaluate = function(option, workload)
    local ctx = workload.context or {}
    local budget = ctx.budget
    if type(budget) ~= "number" then
      return {}
    end
    local budget_text = ctx.budget_text or string.format("%.0f", budget)
    local committed = option.cost.committed
    if committed <= budget then
      return {}
    end
    local money = gw.money(committed, workload.currency)
    local because
    if ctx.budget_basis == "total" then
      because = string.format("%s for %s costs %s; the budget for the whole horizon is %s",
          option.acquisition == "rent" and "renting" or "buying and running it",
          months(workload.horizon_months), money, budget_text)
    elseif ctx.budget_basis == "monthly" then
      because = string.format("%s %s a month; the budget is %s a month",
          option.acquisition == "rent" and "renting costs" or "running it costs", money,
          budget_text)
    else
      because = upfront_because(option, workload, committed, budget_text)
    end
    return { { effect = "exclude", weight = 1, because = because } }
  end,
}
