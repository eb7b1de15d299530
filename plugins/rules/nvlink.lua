-- nvlink: when cards exchange a lot each step (model parallelism, or a gradient all-reduce that
-- takes a noticeable share of each step), the link between them decides the speed.  NVLink
-- moves hundreds of GB/s; PCIe tens (4.0 x16 about 32 GB/s each way, 3.0 x16 about 16); a network
-- between machines often less (10 Gb/s Ethernet is 1.25 GB/s).  The option says whether its
-- cards have such a link and its rate, and how many machines and the network between them; the
-- KB says the link's kind (option.nvlink is any board link: NVLink, AMD's Infinity Fabric, or the
-- RoCE Ethernet ports of Intel Gaudi), so the sentence names the link the cards really have.
local link_names = { nvlink = "NVLink", ["infinity-fabric"] = "Infinity Fabric", roce = "RoCE Ethernet" }

-- The name of the option's link: the KB's link_kind of its GPU, NVLink when the KB does not say
-- (a KB from before schema version 6 recorded NVLink alone).
local function link_name(option)
  local gpu = option.gpu and gw.kb.gpu(option.gpu)
  return gpu and link_names[gpu.link_kind or ""] or "NVLink"
end

return {
  name = "nvlink",
  kind = "rule",
  prefers_at_most = 0.15,   -- its preferences on one option weigh at most this
  version = "1.2.0",
  description = "Prefers a board link (NVLink, Infinity Fabric, RoCE) for model parallelism or heavy gradient traffic; warns on PCIe.",

  evaluate = function(option, workload)
    if option.count < 2 then
      return {}
    end
    local share = option.comm_fraction or 0
    local reason
    if workload.parallelism == "model" then
      reason = "model parallelism passes activations between the cards every step"
    elseif share > 0.10 then
      reason = string.format("the gradient all-reduce takes %.0f%% of each step", share * 100)
    else
      return {}
    end
    if (option.hosts or 1) > 1 and option.network_gbps then
      return { { effect = "warn", weight = 0.15,
                 because = reason .. string.format("; most of it crosses the %.0f Gb/s network "
                     .. "between the %d machines (%.3g GB/s), where the cards wait on each other",
                     option.network_gbps, option.hosts, option.network_gbps / 8) } }
    end
    if option.nvlink then
      return { { effect = "prefer", weight = 0.15,
                 because = reason .. "; " .. link_name(option) .. " ("
                     .. string.format("%.0f", option.link_gbs) .. " GB/s) keeps the cards busy" } }
    end
    return { { effect = "warn", weight = 0.15,
               because = reason .. string.format("; over PCIe (about %.0f GB/s per card here) the cards wait on each other",
                   option.link_gbs) } }
  end,
}
