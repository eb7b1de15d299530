-- lora-finetune.lua — a product team adapts Llama 3.1 8B to its own documents with LoRA, every
-- working day, on sequences of up to 4,096 tokens.  Buy a 48 GB workstation card, or rent an
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

    -- Capacity: the GPUs fine-tune 8 h a working day for two years.
    hours_per_day = 8,
    horizon_months = 24,
    currency = "USD",
    electricity = { price = 0.15 },

    candidates = { "rtx-6000-ada", "rent:h100-sxm5", "rent:a100-sxm4-80gb" },
}
