-- memory-fit: memory does not add up across cards.  Under data parallelism every card holds a
-- whole replica (weights, gradients, optimizer states, activations), so a card smaller than one
-- replica cannot take part, however many of them there are.

-- What one card holds: usable_memory_gb, its memory as the driver reports it in GB of 10^9
-- bytes (the unit of every need), with the nominal figure it is sold by; an option that gives
-- only memory_gb, that.
local function holds(option)
  if option.usable_memory_gb and option.gpu_fraction_text then
    -- a slice's nominal share need not be whole (a third of 24 GB: 8; of 40 GB: 13.3)
    return string.format("holds %.1f GB (%.3g GB nominal)", option.usable_memory_gb,
        option.memory_gb or 0)
  elseif option.usable_memory_gb then
    return string.format("holds %.1f GB (%.0f GB nominal)", option.usable_memory_gb,
        option.memory_gb or 0)
  end
  return string.format("has %.0f GB", option.memory_gb or 0)
end

-- The card, or a slice's share of one ("1/6 of one NVIDIA A10"): a slice holds its share.
local function card(option)
  if option.gpu_fraction_text then
    return option.gpu_fraction_text .. " of one " .. option.gpu_name
  end
  return option.gpu_name
end

return {
  name = "memory-fit",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.4.0",
  description = "Excludes cards that cannot hold one replica of the model (or its share when split).",

  evaluate = function(option, workload)
    if option.fits then
      return {}
    end
    local because
    if option.split then
      -- A language model is split over the GPUs of one replica (tensor parallel, within a
      -- machine); another model over all the option's cards.
      local over = option.tensor_parallel or option.count
      because = string.format("needs %.1f GB per card even split over %d cards; %s %s",
          option.per_card_gb, over, card(option), holds(option))
    elseif option.tensor_parallel then
      because = string.format("needs %.1f GB per GPU; %s %s",
          option.per_card_gb, card(option), holds(option))
    else
      because = string.format("needs %.1f GB per replica; %s %s",
          option.vram_needed_gb, card(option), holds(option))
      if option.count > 1 and workload.parallelism == "data" then
        because = because .. " (data parallelism copies the model to every card: "
            .. "memory does not add up)"
      end
    end
    return { { effect = "exclude", weight = 1, because = because } }
  end,
}
