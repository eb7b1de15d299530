-- qlora-memory: QLoRA fine-tunes a 65-70B model on one 48 GB GPU (the QLoRA paper: its 4-bit
-- NormalFloat weights take about 35 GB, the adapters, their gradients and the activations the
-- rest).  On one such GPU the frozen weights never cross a link; split over several 24 GB cards,
-- every layer's activations cross PCIe in both passes.  So for QLoRA of a model of 60B parameters
-- or more, a GPU of 48 GB or more that holds the whole replica is preferred, and a replica split
-- over smaller cards is warned about.
local LARGE_PARAMS = 60e9
local ONE_GPU_GB = 48

return {
  name = "qlora-memory",
  kind = "rule",
  prefers_at_most = 0.10,   -- its preferences on one option weigh at most this
  version = "1.0.0",
  description = "For QLoRA of a 60B+ model, prefers one GPU of 48 GB or more per replica; warns when the replica is split over smaller cards.",

  evaluate = function(option, workload)
    local ft = workload.finetune or {}
    local params = (workload.model or {}).params or 0
    if workload.task ~= "finetune" or ft.method ~= "qlora" or params < LARGE_PARAMS then
      return {}
    end
    local tp = option.tensor_parallel or 1
    if (option.memory_gb or 0) >= ONE_GPU_GB and tp == 1 then
      return { { effect = "prefer", weight = 0.1,
                 because = string.format("QLoRA of a %.0fB model fits one %.0f GB GPU: the "
                     .. "4-bit weights never cross a link between cards", params / 1e9,
                     option.memory_gb) } }
    end
    if tp > 1 then
      return { { effect = "warn", weight = 0.1,
                 because = string.format("the %.0fB model is split over %d cards of %.0f GB: "
                     .. "every layer's activations cross between them in both passes; "
                     .. "QLoRA is meant for one GPU of 48 GB or more", params / 1e9, tp,
                     option.memory_gb or 0) } }
    end
    return {}
  end,
}
