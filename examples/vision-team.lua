-- vision-team.lua — a small team trains a mid-size vision model (ResNet-50 class) every day for
-- three years on a shared box, on a tight budget: capacity (8 h a day, 30 days a month, weekends
-- included; no fixed amount of work), not a job.  Run it as it is:
--
--     ./gpuwise decide examples/vision-team.lua
--     ./gpuwise report examples/vision-team.lua --format html -o justification.html
--
-- then copy it and change what differs for you.  Amounts are in `currency`; prices the KB holds
-- in other currencies are converted at its dated exchange rates.
return {
    name = "Vision team: mid-size image model",

    -- What is trained.  params and precision/optimizer give the memory of one replica:
    -- AMP + Adam = 16 bytes per parameter, plus the activations of one batch.
    model = { params = 25.6e6, precision = "amp", optimizer = "adam", activations_gb = 8 },

    -- Measured results in the KB to compare GPUs with (`gpuwise kb search resnet50`).
    benchmark = "resnet50",

    -- No `work`: this is capacity, a shared box the team uses every day, not a fixed job.
    -- Buying and renting are both costed for the same 8 h a day over the horizon, and compared
    -- per 1M images of the benchmark.  (A fixed job would say work = { samples = ..., runs = ... }.)

    -- The model fits on one card, so every card trains a copy and they share gradients.
    parallelism = "data",

    -- How the hardware is used, and for how long the purchase must pay for itself.
    hours_per_day = 8,
    horizon_months = 36,

    currency = "CNY",
    region = "CN",                        -- cards bought in China: the KB's CN prices where it has them
    budget = 40000,                       -- cash allowed up front (a rental: its first month)

    electricity = { price = 1.0 },        -- per kWh (industrial rate); pue = 1.0 unless given

    used_ok = true,                       -- second-hand cards are acceptable (after inspection)
    -- The KB's China-market prices come from articles (anecdotes, not price lists): accept them,
    -- knowing the report labels them, or get a quote and put it in the KB.
    anecdotal_ok = true,
    cooling = "good",                     -- "poor" if the room cannot take ~2 kW of heat

    -- What to compare: "4x rtx-3090" fixes the count; a bare name tries 1, 2 and 4 cards
    -- (8 for data-centre cards); "rent:*" adds every cloud offer in the KB.
    candidates = { "a100-pcie-80gb", "rtx-3090", "rtx-4090", "rent:*" },

    -- Optional ownership costs (defaults shown in the report's assumptions):
    -- host_cost = 8000, host_power_w = 200, cooling_cost = 0, resale_fraction = 0.3,
    -- upkeep_hours_per_month = 0, upkeep_rate = 0,
}
