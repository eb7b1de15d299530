return {
  test_multi_card_purchase_gets_the_checklist = function(rule)
    local v = rule.evaluate({ acquisition = "buy-used", count = 4, power_w = 1600 }, {})
    assert(#v == 1 and v[1].checklist == "multi-gpu-build")
    assert(v[1].because:find("4-card machine draws about 1600 W", 1, true), v[1].because)
    assert(v[1].because:find("^a 4%-card machine"), v[1].because)
  end,
  test_an_8_card_machine = function(rule)
    -- The old sentence read "a 8-card machine".
    local v = rule.evaluate({ acquisition = "buy-new", count = 8, power_w = 3400 }, {})
    assert(v[1].because:find("^an 8%-card machine draws about 3400 W"), v[1].because)
    assert(rule.evaluate({ acquisition = "buy-new", count = 2, power_w = 900 }, {})[1].because
        :find("^a 2%-card"))
  end,
  test_several_machines_are_not_one = function(rule)
    -- Eight RTX 3090 in two machines: 2 x (4 x 350 + 200) = 3200 W, not "an 8-card machine".
    local v = rule.evaluate({ acquisition = "buy-used", count = 8, hosts = 2, power_w = 3200 }, {})
    assert(v[1].because:find("^2 machines of 4 cards draw about 3200 W in all"), v[1].because)
  end,
  test_a_host_for_three_or_more_cards_is_questioned = function(rule)
    -- Four cards in a machine costed at the workload's CNY 8,000 host: ask for a quote.
    local w = { host_cost = 8000, currency = "CNY", context = { host_cost_assumed = true } }
    local v = rule.evaluate({ acquisition = "buy-used", count = 4, power_w = 1600 }, w)
    assert(v[1].because:find("; 4 cards need a workstation or server board, and each "
        .. "machine is costed at the assumed CNY 8000 of a one-card PC: set host_cost to a "
        .. "quote for one", 1, true), v[1].because)
    -- The workload's own quote (host_cost given) is not questioned.
    local quoted = { host_cost = 6000, currency = "USD", context = { host_cost_assumed = false } }
    assert(not rule.evaluate({ acquisition = "buy-new", count = 4, power_w = 1400 }, quoted)[1]
        .because:find("workstation", 1, true))
    -- Two cards fit a desktop board; a server bought whole has its own host.
    assert(not rule.evaluate({ acquisition = "buy-new", count = 2, power_w = 900 }, w)[1]
        .because:find("workstation", 1, true))
    assert(not rule.evaluate({ acquisition = "buy-new", count = 8, power_w = 10200,
        system = "dgx-h100" }, w)[1].because:find("workstation", 1, true))
  end,
  test_single_cards_and_rentals_do_not = function(rule)
    assert(#rule.evaluate({ acquisition = "buy-new", count = 1, power_w = 650 }, {}) == 0)
    assert(#rule.evaluate({ acquisition = "rent", count = 8, power_w = 3200 }, {}) == 0)
  end,
}
