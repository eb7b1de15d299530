-- short-project.lua — a two-month project (a competition, a thesis experiment): train a
-- ResNet-50 class model for 30 epochs a few times, then stop.  Bought hardware would sit idle
-- afterwards and resell at a loss, so renting should win.  Run:
--
--     ./gpuwise decide examples/short-project.lua
return {
    name = "Two-month project",
    model = { params = 25.6e6, precision = "amp", optimizer = "sgd", activations_gb = 6 },
    benchmark = "resnet50",
    -- A job: five runs of 30 epochs of ImageNet (1.28 M images), within the two months.
    work = { samples = 1.28e6 * 30, runs = 5 },
    parallelism = "data",

    hours_per_day = 6,
    horizon_months = 2,
    currency = "CNY",
    region = "CN",        -- cards are bought in China: priced from the KB's CN prices where it has them
    electricity = { price = 0.6 },
    used_ok = true,

    -- After two months a card resells for most of its price, but not all of it.
    resale_fraction = 0.8,

    candidates = { "rtx-4090", "rtx-3090", "rent:*" },
}
