return {
  test_consumer_machines_are_warned = function(rule)
    local v = rule.evaluate({ consumer = true, hosts = 2, network_gbps = 10 }, { task = "train" })
    assert(#v == 1 and v[1].effect == "warn")
    assert(v[1].because:find("across 2 machines of consumer cards", 1, true), v[1].because)
    assert(v[1].because:find("10 Gb/s network", 1, true), v[1].because)
  end,
  test_one_machine_and_data_centre_cards_are_left_alone = function(rule)
    assert(#rule.evaluate({ consumer = true, hosts = 1 }, { task = "train" }) == 0)
    assert(#rule.evaluate({ consumer = false, hosts = 4, network_gbps = 400 },
        { task = "finetune" }) == 0)
  end,
  test_serving_is_left_alone = function(rule)
    -- Replicas that serve independently exchange nothing.
    assert(#rule.evaluate({ consumer = true, hosts = 4, network_gbps = 10 },
        { task = "inference" }) == 0)
  end,
}
