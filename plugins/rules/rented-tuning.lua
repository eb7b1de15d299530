-- rented-tuning: a rented data-centre card is not automatically fast.  Until the data loader
-- (pinned memory, workers), TF32 (on cards that have it: Ampere and later) and, for several
-- cards, the collective library (NCCL; RCCL on AMD) are checked, a rented A100 can run slower
-- than a local RTX 3090; the measured speed assumed here needs that tuning.  Each piece of
-- advice is given only where the option has the feature it is about, and TF32 only to work in
-- full precision (mixed precision already runs on the tensor cores); a superchip's Arm host
-- needs aarch64 builds of the stack.  The sentence does not name
-- the card, so the report says it once with every option it applies to.
return {
  name = "rented-tuning",
  kind = "rule",
  prefers_at_most = 0,   -- its preferences on one option weigh at most this
  version = "1.3.0",
  description = "Attaches the tuning checklist to rented data-centre cards.",

  evaluate = function(option, workload)
    if option.acquisition ~= "rent" or option.consumer then
      return {}
    end
    local precision = workload.model and workload.model.precision
    -- Serving has no data loader: its speed is the inference engine's (its kernels for the
    -- precision, its batching), and tensor parallelism's collectives.
    local steps = { workload.task == "inference" and "the inference engine (its kernels and "
                    .. "batching)" or "the data loader" }
    if option.tf32 and (precision == "fp32" or precision == "tf32") then
      table.insert(steps, 1, "TF32")
    end
    if option.count > 1 and (workload.task ~= "inference" or (option.tensor_parallel or 1) > 1) then
      steps[#steps + 1] = option.vendor == "AMD" and "RCCL" or "NCCL"
    end
    -- A superchip's host CPU is Arm (Grace): the stack needs aarch64 builds.
    if option.form_factor == "superchip" then
      steps[#steps + 1] = "aarch64 builds of the software (the host CPU is an Arm Grace)"
    end
    local list = #steps == 1 and steps[1]
        or table.concat(steps, ", ", 1, #steps - 1) .. " and " .. steps[#steps]
    local verb = #steps == 1 and "is" or "are"
    local it = #steps == 1 and "it" or "them"
    -- The checklist is written for the A100 (sm_80, its MIG profiles, BF16): other cards
    -- get the sentence without it.
    local checklist = option.gpu:find("^a100") and "a100-rental" or nil
    return { { effect = "warn", weight = 0, checklist = checklist,
               because = string.format("a rented data-centre card reaches the assumed speed only "
                   .. "once %s %s set up: check %s in the first hour", list, verb, it) } }
  end,
}
