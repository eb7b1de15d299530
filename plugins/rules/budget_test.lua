-- The budget comes from workload.context (budget, budget_text, budget_basis), where the
-- engine writes it whichever way the workload stated it.
local w = { horizon_months = 36, currency = "CNY", kind = "capacity",
            context = { budget = 40000, budget_text = "CNY 40,000", budget_basis = "upfront" } }
local job = { horizon_months = 36, currency = "CNY", kind = "job",
              context = { budget = 40000, budget_text = "CNY 40,000", budget_basis = "upfront" } }

return {
  test_no_budget_no_verdict = function(rule)
    assert(#rule.evaluate({ acquisition = "buy-new", cost = { upfront = 1e9, committed = 1e9 } },
        { horizon_months = 1 }) == 0)
  end,
  test_purchase_over_budget_is_excluded = function(rule)
    local v = rule.evaluate({ acquisition = "buy-new",
                              cost = { upfront = 108000, committed = 108000,
                                       upfront_text = "CNY 108,000" } }, w)
    assert(v[1].effect == "exclude")
    assert(v[1].because == "costs CNY 108,000 up front; the budget is CNY 40,000", v[1].because)
  end,
  -- Capacity: a rental commits its first month (the engine's cost.committed).  41,472 over 36
  -- months = 1,152 a month, within 40,000 (it was excluded when the budget counted the whole
  -- horizon for rentals only); 1,476,000 over 36 months = 41,000 a month is not.
  test_capacity_rent_counts_the_first_month = function(rule)
    assert(#rule.evaluate({ acquisition = "rent", cost = { total = 41472, committed = 1152,
                                                           total_text = "CNY 41,472" } }, w) == 0)
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 1476000, committed = 41000,
                                                             total_text = "CNY 1,476,000" } }, w)
    assert(v[1].because == "the first month of renting costs CNY 41,000 (of CNY 1,476,000 over 36 months); "
        .. "the budget is CNY 40,000", v[1].because)
  end,
  -- A job: a rental commits the whole job's bill (300 h x CNY 4.80 = 1,440 passes; 41,472 does not).
  test_job_rent_counts_the_whole_job = function(rule)
    assert(#rule.evaluate({ acquisition = "rent", cost = { total = 1440, committed = 1440,
                                                           total_text = "CNY 1,440" } }, job) == 0)
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 41472, committed = 41472,
                                                             total_text = "CNY 41,472" } }, job)
    assert(v[1].because == "renting for the whole job costs CNY 41,472; the budget is CNY 40,000", v[1].because)
  end,
  -- The first month is written by gw.money, as the engine writes cost.total_text: "$", not "USD".
  test_first_month_is_written_as_the_engine_writes_money = function(rule)
    local usd = { horizon_months = 36, currency = "USD", kind = "capacity",
                  context = { budget = 40000, budget_text = "$40,000" } }
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 1476000, committed = 41000.4,
                                                             total_text = "$1,476,000" } }, usd)
    assert(v[1].because == "the first month of renting costs $41,000 (of $1,476,000 over 36 months); "
        .. "the budget is $40,000", v[1].because)
  end,
  test_one_month_is_singular = function(rule)
    -- The old sentence read "renting for 1 months".
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 41472, committed = 41472,
                                                             total_text = "CNY 41,472" } },
        { horizon_months = 1, currency = "CNY", context = { budget = 40000, budget_text = "CNY 40,000" } })
    assert(v[1].because == "the first month of renting costs CNY 41,472 (of CNY 41,472 over 1 month); "
        .. "the budget is CNY 40,000", v[1].because)
  end,
  -- A grant (budget = { total = 60000 }): a capacity rental is held to its whole bill.  USD
  -- 2,179.19 a month x 36 months = USD 78,451 (the engine's cost.committed) is over USD
  -- 60,000, though its first month is not.
  test_total_budget_holds_a_rental_to_its_whole_bill = function(rule)
    local grant = { horizon_months = 36, currency = "USD", kind = "capacity",
                    context = { budget = 60000, budget_text = "$60,000", budget_basis = "total" } }
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 78451, committed = 78451,
                                                             total_text = "$78,451" } }, grant)
    assert(v[1].effect == "exclude")
    assert(v[1].because == "renting for 36 months costs $78,451; the budget for the whole "
        .. "horizon is $60,000", v[1].because)
    -- bought: cards, hosts and running costs over the horizon, 52,000 + 36 x 300 = 62,800
    v = rule.evaluate({ acquisition = "buy-new", cost = { committed = 62800 } }, grant)
    assert(v[1].because == "buying and running it for 36 months costs $62,800; the budget "
        .. "for the whole horizon is $60,000", v[1].because)
    assert(#rule.evaluate({ acquisition = "rent", cost = { committed = 59000 } }, grant) == 0)
  end,
  -- budget = { monthly = 1500 }: a rental's bill a month (1,800 is over), a purchase's running
  -- costs a month (300 is within, whatever its cards cost).
  test_monthly_budget = function(rule)
    local monthly = { horizon_months = 36, currency = "USD", kind = "capacity",
                      context = { budget = 1500, budget_text = "$1,500", budget_basis = "monthly" } }
    local v = rule.evaluate({ acquisition = "rent", cost = { committed = 1800 } }, monthly)
    assert(v[1].because == "renting costs $1,800 a month; the budget is $1,500 a month", v[1].because)
    assert(#rule.evaluate({ acquisition = "buy-new", cost = { committed = 300, upfront = 52000 } },
        monthly) == 0)
  end,
  test_within_budget_passes = function(rule)
    assert(#rule.evaluate({ acquisition = "buy-used", cost = { upfront = 32000, committed = 32000 } },
        w) == 0)
  end,
}
