local w = { budget = 40000, horizon_months = 36, currency = "CNY", kind = "capacity",
            context = { budget_text = "CNY 40,000" } }
local job = { budget = 40000, horizon_months = 36, currency = "CNY", kind = "job",
              context = { budget_text = "CNY 40,000" } }

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
    local usd = { budget = 40000, horizon_months = 36, currency = "USD", kind = "capacity",
                  context = { budget_text = "$40,000" } }
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 1476000, committed = 41000.4,
                                                             total_text = "$1,476,000" } }, usd)
    assert(v[1].because == "the first month of renting costs $41,000 (of $1,476,000 over 36 months); "
        .. "the budget is $40,000", v[1].because)
  end,
  test_one_month_is_singular = function(rule)
    -- The old sentence read "renting for 1 months".
    local v = rule.evaluate({ acquisition = "rent", cost = { total = 41472, committed = 41472,
                                                             total_text = "CNY 41,472" } },
        { budget = 40000, horizon_months = 1, currency = "CNY", context = { budget_text = "CNY 40,000" } })
    assert(v[1].because == "the first month of renting costs CNY 41,472 (of CNY 41,472 over 1 month); "
        .. "the budget is CNY 40,000", v[1].because)
  end,
  test_within_budget_passes = function(rule)
    assert(#rule.evaluate({ acquisition = "buy-used", cost = { upfront = 32000, committed = 32000 } },
        w) == 0)
  end,
}
