return {
  test_short_horizon_prefers_renting = function(rule)
    local v = rule.evaluate({ acquisition = "rent" }, { horizon_months = 2, hours_per_day = 10 })
    assert(#v == 1 and v[1].effect == "prefer")
    assert(v[1].because:find("lasts 2 months", 1, true), v[1].because)
  end,
  test_one_month_is_singular = function(rule)
    -- The old sentence read "the work lasts 1 months".
    local v = rule.evaluate({ acquisition = "rent" }, { horizon_months = 1, hours_per_day = 10 })
    assert(v[1].because:find("the work lasts 1 month:", 1, true), v[1].because)
    local half = rule.evaluate({ acquisition = "rent" }, { horizon_months = 0.5, hours_per_day = 10 })
    assert(half[1].because:find("lasts 0.5 months", 1, true), half[1].because)
  end,
  test_light_use_prefers_renting = function(rule)
    local v = rule.evaluate({ acquisition = "rent" }, { horizon_months = 36, hours_per_day = 2 })
    assert(v[1].because:find("only 2 h a day", 1, true), v[1].because)
  end,
  -- A job's costs already bill a rental only for the hours its runs take: no second preference.
  test_job_gives_nothing = function(rule)
    assert(#rule.evaluate({ acquisition = "rent" }, { horizon_months = 2, hours_per_day = 2, kind = "job" }) == 0)
  end,
  test_long_steady_work_gives_nothing = function(rule)
    assert(#rule.evaluate({ acquisition = "rent" }, { horizon_months = 36, hours_per_day = 8 }) == 0)
    assert(#rule.evaluate({ acquisition = "buy-new" }, { horizon_months = 2, hours_per_day = 8 }) == 0)
  end,
}
