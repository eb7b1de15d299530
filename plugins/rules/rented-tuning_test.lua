return {
    test_rented_datacenter_card_gets_the_checklist = function(rule)
        local v = rule.evaluate({ acquisition = "rent", consumer = false, gpu_name = "NVIDIA A100 SXM4 40GB" }, {})
        assert(#v == 1 and v[1].checklist == "a100-rental" and v[1].weight == 0)
        assert(v[1].because:find("NVIDIA A100 SXM4 40GB", 1, true))
    end,
    test_owned_or_consumer_cards_do_not = function(rule)
        assert(#rule.evaluate({ acquisition = "buy-new", consumer = false }, {}) == 0)
        assert(#rule.evaluate({ acquisition = "rent", consumer = true }, {}) == 0)
    end,
}
