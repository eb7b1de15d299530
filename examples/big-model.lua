-- big-model.lua — fine-tuning a 1.5-billion-parameter model whose replica needs about 40 GB:
-- (1.5e9 x 16 bytes + 12 GB of activations) x 1.1 + 1 GB = 40.6 GB.  No 24 GB card can hold
-- it, however many of them there are, under data parallelism.  Run:
--
--     ./gpuwise decide examples/big-model.lua
--
-- No benchmark in the KB measures this model, so the work is given as hours on a known GPU and
-- every other GPU's speed is scaled from its specifications (labelled "scaled" in the output).
return {
    name = "Fine-tuning a 1.5B-parameter model",
    model = { params = 1.5e9, precision = "amp", optimizer = "adam", activations_gb = 12 },
    -- or, if you measured the peak memory of one replica:  vram_gb = 40,

    -- A job: three fine-tuning runs, each 300 h on one A100 80GB, within the horizon.
    work = { hours_on = "a100-sxm4-80gb", hours = 300, runs = 3 },
    parallelism = "data",

    hours_per_day = 12,
    horizon_months = 24,
    currency = "CNY",
    budget = 400000,
    electricity = { price = 0.8, pue = 1.3 },
    used_ok = true,
    cooling = "good",
    candidates = { "rtx-3090", "rtx-4090", "a100-sxm4-80gb", "h100-sxm5", "rent:*" },
}
