return {
  test_used_purchase_gets_the_checklist = function(rule)
    local v = rule.evaluate({ acquisition = "buy-used", count = 4 }, {})
    assert(#v == 1 and v[1].effect == "warn" and v[1].checklist == "used-card")
    assert(v[1].because:find("each of the 4", 1, true), v[1].because)
    assert(v[1].because:find("inspect each of the 4 cards before paying", 1, true), v[1].because)
  end,
  test_one_card_is_the_card = function(rule)
    -- The old sentence read "inspect each of the 1 before paying".
    local v = rule.evaluate({ acquisition = "buy-used", count = 1 }, {})
    assert(not v[1].because:find("each of", 1, true), v[1].because)
    assert(v[1].because:find("inspect the card before paying", 1, true), v[1].because)
  end,
  test_new_and_rented_do_not = function(rule)
    assert(#rule.evaluate({ acquisition = "buy-new", count = 1 }, {}) == 0)
    assert(#rule.evaluate({ acquisition = "rent", count = 1 }, {}) == 0)
  end,
}
