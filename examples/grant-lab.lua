-- grant-lab.lua — a university lab in the US fine-tunes Llama 3.1 8B with LoRA adapters for
-- its research, on a one-off grant of USD 60,000 that must pay for everything over three
-- years: cards or rentals, power, all of it.  The lab needs about 200 hours a month of an A100
-- 80GB (what its runs took on the university cluster's), used at most 8 h a day.  Run it as it
-- is:
--
--     ./gpuwise decide examples/grant-lab.lua
--     ./gpuwise report examples/grant-lab.lua --format html -o justification.html
return {
    name = "University lab on a three-year grant",

    -- What is fine-tuned: a catalog model (`gpuwise kb models`), LoRA adapters of rank 16 on
    -- every linear layer, the weights frozen.
    task = "finetune",
    model = "llama-3.1-8b",
    finetune = { method = "lora", rank = 16 },

    -- Capacity, not a job: the lab works on it every week.  Its runs took about 200 hours a
    -- month of one A100 SXM4 80GB on the university cluster, where it measured them; it can
    -- run at most 8 h a day.  hours_needed_on names that card, so each option is costed for
    -- the hours the same work takes on it (a faster card, fewer hours; n GPUs do n GPUs' work
    -- in each hour, at their scaling efficiency), and buying far more than the need does not
    -- win on cost per token.
    hours_per_day = 8,
    hours_needed_per_month = 200,
    hours_needed_on = "a100-sxm4-80gb",
    horizon_months = 36,

    currency = "USD",
    region = "US",
    -- The grant pays everything over the 36 months: a purchase's cards, host and power, or a
    -- rental's whole bill, not only its first month.
    budget = { total = 60000 },
    electricity = { price = 0.15 },       -- per kWh

    -- A workstation card bought (1, 2, 4 or 8), or renting an L40S, an H100 or a GB200.
    candidates = { "rtx-6000-ada", "rent:l40s", "rent:h100-sxm5", "rent:gb200" },
}
