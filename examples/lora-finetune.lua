-- lora-finetune.lua — a product team adapts Llama 3.1 8B to its own documents with LoRA, every
-- day, on sequences of up to 4,096 tokens.  Buy a 48 GB workstation card, or rent an
-- H100 or an A100 by the hour?  Run:
--
--     ./gpuwise decide examples/lora-finetune.lua
return {
    name = "LoRA fine-tuning of Llama 3.1 8B",
    task = "finetune",
    model = { name = "llama-3.1-8b", precision = "bf16", optimizer = "adamw" },
    finetune = { method = "lora", rank = 16 },
    activation_checkpointing = true,
    sequence_length = 4096,
    batch_per_gpu = 1,

    -- Capacity: the GPUs fine-tune 8 h a day (every day: a month is 30 days of use) for two
    -- years.
    hours_per_day = 8,
    horizon_months = 24,
    currency = "USD",
    electricity = { price = 0.15 },

    -- The team's quote for a workstation that takes four double-width cards (chassis, CPU,
    -- 2.2 kW of power supplies): USD 6,000 and 350 W besides its cards.  Eight cards are two.
    host_cost = 6000,
    host_power_w = 350,
    cards_per_host = 4,

    candidates = { "rtx-6000-ada", "rent:h100-sxm5", "rent:a100-sxm4-80gb" },
}
