local tight = { parallelism = "data", context = { tight_budget = true, model_gb = 10.3 } }

return {
  test_prefers_several_consumer_cards = function(rule)
    local v = rule.evaluate({ consumer = true, count = 4, acquisition = "buy-used" }, tight)
    assert(#v == 1 and v[1].effect == "prefer")
    assert(v[1].because:find("10.3 GB", 1, true), v[1].because)
  end,
  test_no_superlative_per_count = function(rule)
    -- The old sentence said "2 consumer cards buy the most throughput" on the 2-card options
    -- and "4 ... buy the most" on the 4-card ones of the same report: both cannot be true.
    -- The sentence is now the same for every count and names no winner.
    local two = rule.evaluate({ consumer = true, count = 2, acquisition = "buy-used" }, tight)
    local four = rule.evaluate({ consumer = true, count = 4, acquisition = "buy-new" }, tight)
    assert(two[1].because == four[1].because, two[1].because)
    assert(not two[1].because:find("the most", 1, true), two[1].because)
    assert(two[1].because:find("several consumer cards are the way to more throughput", 1, true),
        two[1].because)
  end,
  test_not_for_one_card_or_renting = function(rule)
    assert(#rule.evaluate({ consumer = true, count = 1, acquisition = "buy-used" }, tight) == 0)
    assert(#rule.evaluate({ consumer = true, count = 4, acquisition = "rent" }, tight) == 0)
  end,
  test_not_without_a_tight_budget = function(rule)
    local w = { parallelism = "data", context = { tight_budget = false, model_gb = 10 } }
    assert(#rule.evaluate({ consumer = true, count = 4, acquisition = "buy-new" }, w) == 0)
  end,
  test_not_for_big_models = function(rule)
    local w = { parallelism = "data", context = { tight_budget = true, model_gb = 40 } }
    assert(#rule.evaluate({ consumer = true, count = 4, acquisition = "buy-new" }, w) == 0)
  end,
}
