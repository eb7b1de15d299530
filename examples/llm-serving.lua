-- llm-serving.lua — a company serves Llama 3.1 70B in FP8 as an internal API that its tools and
-- its offices in three time zones keep busy around the clock: prompts of about 2,000 tokens,
-- answers of 500, 32 requests in flight generating a steady 800 tokens a second in all (25 a
-- second each); answers must stream at 20 tokens a second or faster (50 ms per token on
-- average) with the first token within 2 s.  Run:
--
--     ./gpuwise decide examples/llm-serving.lua
return {
    name = "Serving Llama 3.1 70B in FP8",
    task = "inference",
    model = { name = "llama-3.1-70b", precision = "fp8" },
    inference = { context = 2000, output_tokens = 500, concurrency = 32,
                  tokens_per_s = 800, tpot_ms = 50, ttft_ms = 2000 },

    -- Capacity: the service runs around the clock for three years.
    hours_per_day = 24,
    horizon_months = 36,
    currency = "USD",
    electricity = { price = 0.15, pue = 1.4 },

    candidates = { "h100-sxm5", "rtx-6000-ada", "rent:h100-sxm5", "rent:h200-sxm",
                   "rent:a100-sxm4-80gb" },
}
