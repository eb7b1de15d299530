-- consumer-cards: a model that fits one 24 GB card, trained data-parallel, on a budget that does
-- not reach a data-centre card: several consumer cards are the way to more throughput (four used
-- RTX 3090 measured about 3100 images/s against about 2350 for one A100 80GB).  The sentence
-- makes no claim about which count is best: that is the ranking's to say, from the costs.
return {
  name = "consumer-cards",
  kind = "rule",
  prefers_at_most = 0.10,   -- its preferences on one option weigh at most this
  version = "1.1.0",
  description = "Prefers several consumer cards for small data-parallel models on a tight budget.",

  evaluate = function(option, workload)
    local ctx = workload.context or {}
    if not option.consumer or option.count < 2 or option.acquisition == "rent"
        or workload.parallelism ~= "data" or not ctx.tight_budget
        or (ctx.model_gb or math.huge) > 24 then
      return {}
    end
    return { { effect = "prefer", weight = 0.10,
               because = string.format("the model needs %.1f GB, so it fits one consumer card and trains data-parallel; "
                   .. "on a budget below a data-centre card, several consumer cards are the way to more throughput",
                   ctx.model_gb) } }
  end,
}
