-- used-card: a used card may have spent years at full load (mining), with worn fans, dried
-- thermal paste or failing memory.  It is still a good buy once inspected: attach the checklist.
return {
  name = "used-card",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.1.0",
  description = "Attaches the used-card inspection checklist to every used purchase.",

  evaluate = function(option, workload)
    if option.acquisition ~= "buy-used" then
      return {}
    end
    local which = option.count == 1 and "the card"
        or string.format("each of the %d cards", option.count)
    return { { effect = "warn", weight = 0.05, checklist = "used-card",
               because = "used cards may have run for years at full load (mining): inspect " .. which
                   .. " before paying (memory errors, fans, thermal paste, power limits)" } }
  end,
}
