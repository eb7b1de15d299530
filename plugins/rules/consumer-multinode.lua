-- consumer-multinode: training over several machines of consumer cards.  GeForce cards do not
-- support GPUDirect RDMA, so every exchange between machines is staged through host memory and
-- the network card, and a desktop's network is usually 10 Gb/s Ethernet (1.25 GB/s) against the
-- hundreds of Gb/s of InfiniBand a data-centre cluster has.  The decision's model counts the
-- network's bandwidth but not that staging: the real efficiency is likely lower than modelled.
return {
  name = "consumer-multinode",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.0.0",
  description = "Warns on training across several machines of consumer cards (no GPUDirect RDMA; desktop networks).",

  evaluate = function(option, workload)
    if not option.consumer or (option.hosts or 1) < 2 or workload.task == "inference" then
      return {}
    end
    return { { effect = "warn", weight = 0.1,
               because = string.format("training across %d machines of consumer cards: they "
                   .. "have no GPUDirect RDMA, so each step's exchange is staged through host "
                   .. "memory over a %.0f Gb/s network; expect less than the modelled "
                   .. "efficiency and days of setup", option.hosts, option.network_gbps or 0) } }
  end,
}
