-- rented-tuning: a rented data-centre card is not automatically fast.  Until TF32, the data
-- loader (pinned memory, workers), NCCL and the software build are checked, a rented A100 can
-- run slower than a local RTX 3090; the measured speed assumed here needs that tuning.
return {
    name = "rented-tuning",
    kind = "rule",
    version = "1.0.0",
    description = "Attaches the tuning checklist to rented data-centre cards.",

    evaluate = function(option, workload)
        if option.acquisition ~= "rent" or option.consumer then
            return {}
        end
        return { { effect = "warn", weight = 0, checklist = "a100-rental",
                   because = "a rented " .. option.gpu_name .. " reaches the assumed speed only once TF32, "
                       .. "the data loader and NCCL are set up: check them in the first hour" } }
    end,
}
