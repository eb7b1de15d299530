local job = { kind = "job" }

return {
  -- 119.8 of 120 h (an 8x A100 40GB at a scaled 10,697 images/s for 40 runs of 90 epochs in
  -- five days): 99.8% of the time, warned.
  test_a_job_with_no_slack_is_warned = function(rule)
    local v = rule.evaluate({ hours_needed = 119.8, hours_available = 120,
                              throughput = { basis = "scaled" } }, job)
    assert(#v == 1 and v[1].effect == "warn")
    assert(v[1].because == "needs 120 of the 120 hours available (100%): little slack for a "
        .. "slow start, a restart or a slower real speed than this scaled estimate", v[1].because)
  end,
  -- 85% exactly is enough slack; 61.8 of 120 h (51%) too.
  test_slack_enough = function(rule)
    assert(#rule.evaluate({ hours_needed = 102, hours_available = 120 }, job) == 0)
    assert(#rule.evaluate({ hours_needed = 61.8, hours_available = 120 }, job) == 0)
  end,
  -- Capacity has no hours needed; an option that cannot finish is out already.
  test_capacity_and_infeasible_are_left_alone = function(rule)
    assert(#rule.evaluate({ hours_available = 120 }, { kind = "capacity" }) == 0)
    assert(#rule.evaluate({ hours_needed = 130, hours_available = 120 }, job) == 0)
  end,
}
