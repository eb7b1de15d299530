return {
    test_multi_card_purchase_gets_the_checklist = function(rule)
        local v = rule.evaluate({ acquisition = "buy-used", count = 4, power_w = 1600 }, {})
        assert(#v == 1 and v[1].checklist == "multi-gpu-build")
        assert(v[1].because:find("4-card machine draws about 1600 W", 1, true), v[1].because)
    end,
    test_single_cards_and_rentals_do_not = function(rule)
        assert(#rule.evaluate({ acquisition = "buy-new", count = 1, power_w = 650 }, {}) == 0)
        assert(#rule.evaluate({ acquisition = "rent", count = 8, power_w = 3200 }, {}) == 0)
    end,
}
