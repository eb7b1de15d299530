-- llm-fleet.lua — a start-up's customer-facing chat service on Llama 3.1 70B in FP8, around the
-- clock: about 2 requests a second at peak and through the day (prompts of about 2,000 tokens,
-- answers of 500; the requests in flight follow from that load), answers streaming at 20 tokens
-- a second or faster and the first token within 2 s.  It is a production service: rented only from providers that publish
-- an SLA, with one replica spare so that a failed or updated one does not drop the service.  Run:
--
--     ./gpuwise report examples/llm-fleet.lua -o fleet.html
return {
    name = "A production serving fleet for Llama 3.1 70B",
    task = "inference",
    model = { name = "llama-3.1-70b", precision = "fp8" },
    inference = { context = 2000, output_tokens = 500, requests_per_s = 2.0, tpot_ms = 50,
                  ttft_ms = 2000 },
    redundancy = 1,
    production = true,

    -- Capacity: the service runs around the clock for two years.
    hours_per_day = 24,
    horizon_months = 24,
    currency = "USD",
    electricity = { price = 0.15, pue = 1.4 },

    candidates = { "h100-sxm5", "rent:h100-sxm5", "rent:h200-sxm", "rent:a100-sxm4-80gb" },
}
