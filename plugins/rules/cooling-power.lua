-- cooling-power: a multi-card consumer build draws well over a kilowatt.  In a poorly cooled
-- room it throttles (one team saw throughput drop by a fifth), and where power is expensive its
-- bill grows.  Then an efficient data-centre card, or renting, is the safer choice.
return {
  name = "cooling-power",
  kind = "rule",
  prefers_at_most = 0.05,   -- its preferences on one option weigh at most this
  version = "1.1.0",
  description = "Warns on multi-card consumer builds under poor cooling or expensive power; prefers efficient cards or renting.",

  evaluate = function(option, workload)
    local ctx = workload.context or {}
    local poor = workload.cooling == "poor"
    local expensive = ctx.expensive_power
    if not poor and not expensive then
      return {}
    end
    local why = poor and "the room is poorly cooled" or "electricity is a large share of the cost"
    if option.acquisition == "rent" then
      return { { effect = "prefer", weight = 0.05,
                 because = why .. ": renting leaves the heat and the power bill to the provider" } }
    end
    if option.consumer and option.count > 1 then
      return { { effect = "warn", weight = 0.15,
                 because = string.format("%s: %d consumer cards and their %s draw about %.0f W%s", why,
                     option.count, (option.hosts or 1) > 1
                         and string.format("%d hosts", option.hosts) or "host", option.power_w,
                     poor and ", and the cards throttle when hot" or "") } }
    end
    if not option.consumer then
      return { { effect = "prefer", weight = 0.05,
                 because = why .. ": a data-centre card does more work per watt" } }
    end
    return {}
  end,
}
