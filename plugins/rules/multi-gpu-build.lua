-- multi-gpu-build: putting several cards in one machine is its own project: power supply and
-- circuits, airflow, slot spacing, risers, and getting distributed training (DDP, NCCL) to run.
-- "a" or "an" before a count as spoken: an 8-card, an 11-card, an 18-card, an 80-card machine.
local function article(count)
  local digits = string.format("%d", count)
  if digits:sub(1, 1) == "8" or count == 11 or count == 18 then
    return "an"
  end
  return "a"
end

return {
  name = "multi-gpu-build",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.2.0",
  description = "Attaches the multi-GPU build checklist to purchases of two or more cards.",

  evaluate = function(option, workload)
    if option.acquisition == "rent" or option.count < 2 then
      return {}
    end
    local hosts = option.hosts or 1
    local what
    if hosts > 1 then
      what = string.format("%d machines of %d cards draw about %.0f W in all", hosts,
          option.count // hosts, option.power_w)
    else
      what = string.format("%s %d-card machine draws about %.0f W", article(option.count),
          option.count, option.power_w)
    end
    local because = what .. ": size the power supply and circuit, "
        .. "the airflow, and allow days to get "
        .. (workload.task == "inference" and "the serving stack" or "distributed training")
        .. " running"
    -- Three or more cards in one machine need a workstation or server board (PCIe lanes,
    -- slots, a power supply of 1.3-1.5x the load); a server bought whole has its own, and a
    -- workload that states host_cost has priced one.
    local per_host = option.count // hosts
    local assumed = workload.context and workload.context.host_cost_assumed
    if per_host >= 3 and not option.system and assumed and workload.host_cost
        and workload.currency then
      because = because .. string.format(
        "; %d cards need a workstation or server board, and each machine is costed at "
            .. "the assumed %s %.0f of a one-card PC: set host_cost to a quote for one",
        per_host,
        workload.currency, workload.host_cost)
    end
    return { { effect = "warn", weight = 0.02, checklist = "multi-gpu-build",
               because = because } }
  end,
}
