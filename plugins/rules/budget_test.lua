local w = { budget = 40000, horizon_months = 36, context = { budget_text = "CNY 40,000" } }

return {
    test_no_budget_no_verdict = function(rule)
        assert(#rule.evaluate({ acquisition = "buy-new", cost = { upfront = 1e9 } }, { horizon_months = 1 }) == 0)
    end,
    test_purchase_over_budget_is_excluded = function(rule)
        local v = rule.evaluate({ acquisition = "buy-new",
                                  cost = { upfront = 108000, upfront_text = "CNY 108,000" } }, w)
        assert(v[1].effect == "exclude")
        assert(v[1].because == "costs CNY 108,000 up front; the budget is CNY 40,000", v[1].because)
    end,
    test_rent_counts_the_whole_horizon = function(rule)
        local v = rule.evaluate({ acquisition = "rent", cost = { total = 41472, total_text = "CNY 41,472" } }, w)
        assert(v[1].because:find("renting for 36 months costs CNY 41,472", 1, true), v[1].because)
        assert(#rule.evaluate({ acquisition = "rent", cost = { total = 9000 } }, w) == 0)
    end,
    test_one_month_is_singular = function(rule)
        -- The old sentence read "renting for 1 months".
        local v = rule.evaluate({ acquisition = "rent", cost = { total = 41472, total_text = "CNY 41,472" } },
            { budget = 40000, horizon_months = 1, context = { budget_text = "CNY 40,000" } })
        assert(v[1].because == "renting for 1 month costs CNY 41,472; the budget is CNY 40,000", v[1].because)
    end,
    test_within_budget_passes = function(rule)
        assert(#rule.evaluate({ acquisition = "buy-used", cost = { upfront = 32000 } }, w) == 0)
    end,
}
