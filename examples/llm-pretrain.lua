-- llm-pretrain.lua — a lab pre-trains an 8B model of Llama 3's architecture on 200 billion
-- tokens, due within 60 days, and asks whether to buy H100 servers or rent them.  Run:
--
--     ./gpuwise decide examples/llm-pretrain.lua
return {
    name = "Pre-training an 8B model on 200B tokens",
    task = "train",
    model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" },
    sharding = "zero3",
    activation_checkpointing = true,
    sequence_length = 8192,
    batch_per_gpu = 1,
    work = { tokens = 200e9 },
    deadline_days = 60,

    hours_per_day = 24,
    horizon_months = 36,
    currency = "USD",
    electricity = { price = 0.12, pue = 1.3 },
    network_gbps = 400,

    candidates = { "h100-sxm5", "a100-sxm4-80gb", "rent:h100-sxm5", "rent:h200-sxm", "rent:a100-sxm4-80gb" },
}
