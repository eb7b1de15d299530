local four = { acquisition = "buy-used", consumer = true, count = 4, power_w = 1600 }

return {
  test_good_room_cheap_power_gives_nothing = function(rule)
    assert(#rule.evaluate(four, { cooling = "good", context = { expensive_power = false } }) == 0)
  end,
  test_poor_cooling_warns_on_consumer_builds = function(rule)
    local v = rule.evaluate(four, { cooling = "poor", context = {} })
    assert(v[1].effect == "warn")
    -- power_w is the cards and the host: 4 x 350 W + 200 W = 1600 W, so the cards alone
    -- do not draw it (the old sentence said "4 consumer cards draw about 1600 W").
    assert(v[1].because:find("4 consumer cards and their host draw about 1600 W, and the cards throttle", 1, true),
        v[1].because)
  end,
  test_expensive_power_prefers_renting_and_efficient_cards = function(rule)
    local w = { cooling = "good", context = { expensive_power = true } }
    assert(rule.evaluate({ acquisition = "rent" }, w)[1].effect == "prefer")
    assert(rule.evaluate({ acquisition = "buy-new", consumer = false, count = 1 }, w)[1].effect == "prefer")
  end,
}
