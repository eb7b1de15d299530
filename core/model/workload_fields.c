/* workload_fields.c — the one description of a workload's fields: the tables below (name, type,
 * range or allowed values, default, required, unit, meaning), and what is derived from them for
 * every reader: a field by its path, a choice field's values, a range and an expectation in
 * words.  Precisions and optimizers are named by their own tables (precision.h, optimizer.h). */
#include "workload_private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "optimizer.h"
#include "precision.h"

#define AT(member) offsetof(workload, member)

/* Serving demand is stated one way at most: tokens_per_s, requests_per_s (x output_tokens, which
 * it becomes here, so that every reader of the demand sees tokens/s) or utilisation.  An arrival
 * rate is requests_per_s, or tokens_per_s without a concurrency: every request generates
 * output_tokens, so a steady tokens/s is tokens_per_s / output_tokens requests a second.  With a
 * concurrency, tokens_per_s keeps reading as a closed load (a batch or its clients keep that many
 * in flight, the tokens/s its target), and concurrency as the requests in flight; under an
 * arrival rate, concurrency (when stated) is the most admitted in flight. */
static int workload_check_demand(const char *file, workload *w, gw_error *err)
{
    int stated = !isnan(w->target_tokens_per_s) + !isnan(w->serve_requests_per_s) +
                 !isnan(w->serve_utilisation);
    int concurrency = !isnan(w->serve_concurrency);
    if (!concurrency)
        w->serve_concurrency = 1;   /* its default where it states the requests in flight */
    w->serve_arrival_rate = w->serve_inflight_cap = NAN;
    if (stated > 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: inference: tokens_per_s, requests_per_s and utilisation each "
                            "state the demand; give one", file);
    if (!isnan(w->target_tokens_per_s) && !concurrency && !isnan(w->serve_output))
        w->serve_arrival_rate = w->target_tokens_per_s / w->serve_output;
    if (!isnan(w->serve_requests_per_s)) {
        if (isnan(w->serve_output))
            return gw_error_set(err, GW_EDATA,
                                "%s: inference.requests_per_s: needs output_tokens (the tokens a "
                                "request generates)", file);
        w->target_tokens_per_s = w->serve_requests_per_s * w->serve_output;
        w->serve_arrival_rate = w->serve_requests_per_s;
    }
    if (!isnan(w->serve_arrival_rate) && concurrency)
        w->serve_inflight_cap = w->serve_concurrency;
    return GW_OK;
}

static const char *const tasks[] = {"train", "finetune", "inference", NULL};
static const char *const parallelisms[] = {"data", "model", "none", NULL};
static const char *const coolings[] = {"good", "poor", NULL};
static const char *const methods[] = {"full", "lora", "qlora", NULL};
static const char *const shardings[] = {"none", "zero1", "zero2", "zero3", NULL};
static const char *const checkpointings[] = {"none", "selective", "full", NULL};

/* The tasks a field concerns, for the field list (a field without them concerns every task). */
static const char *const training[] = {"train", "finetune", NULL};
static const char *const finetuning[] = {"finetune", NULL};
static const char *const serving[] = {"inference", NULL};
/* samples and hours on a GPU are the work of a model that is not a language model, which only
 * trains */
static const char *const training_only[] = {"train", NULL};

/* A language model's architecture, as its published configuration gives it (the KB's catalog
 * has them: model = "llama-3-70b"); each one given here replaces the catalog's. */
#define ARCH(member, what, help_text)                                                          \
    {.name = #member, .type = FIELD_NUMBER, .at = AT(member), .lo = 1, .hi = 1e9, .whole = 1,   \
     .unit = what, .help = help_text}

/* What other tools call a field, for the message that points a key written their way to ours
 * (vLLM's and SGLang's serving options, Hugging Face's TrainingArguments and PEFT, DeepSpeed,
 * Megatron-LM's arguments). */
static const char *const precision_also[] = {"dtype", "torch_dtype", "quantization", NULL};
static const char *const rank_also[] = {"r", "lora_r", "lora_rank", NULL};
static const char *const context_also[] = {"input_tokens", "input_len", "input_length",
                                           "prompt_tokens", "prompt_len", "isl", NULL};
static const char *const output_also[] = {"output_len", "output_length", "max_tokens",
                                          "max_new_tokens", "completion_tokens", "osl", NULL};
static const char *const concurrency_also[] = {"max_num_seqs", "max_concurrency",
                                               "max_batch_size", NULL};
static const char *const requests_also[] = {"request_rate", "qps", "rps", NULL};
static const char *const sharding_also[] = {"zero_stage", "fsdp", NULL};
static const char *const checkpointing_also[] = {"gradient_checkpointing",
                                                 "recompute_granularity", NULL};
static const char *const sequence_also[] = {"seq_len", "seq_length", "max_seq_len",
                                            "max_seq_length", "max_length", NULL};
static const char *const batch_also[] = {"micro_batch_size", "per_device_train_batch_size",
                                         "train_micro_batch_size_per_gpu", NULL};
static const char *const accumulation_also[] = {"gradient_accumulation_steps", NULL};
static const char *const deadline_also[] = {"deadline", NULL};

static const workload_field model_fields[] = {
    {.name = "name", .type = FIELD_TEXT, .at = AT(model_name),
     .expected = "a model of the KB's catalog (e.g. \"llama-3-70b\"; gpuwise kb models)",
     .help = "a language model of the KB's catalog: its parameters and architecture come from "
             "there (model = \"llama-3-70b\" says the same)"},
    {.name = "params", .type = FIELD_NUMBER, .at = AT(params), .lo = 1, .hi = 1e15,
     .unit = "parameters", .note = "e.g. 25.6e6",
     .help = "parameters of the model; with precision and optimizer, the memory of one replica"},
    {.name = "active_params", .type = FIELD_NUMBER, .at = AT(active_params), .lo = 1,
     .hi = 1e15, .unit = "parameters", .note = "no more than params",
     .help = "a mixture of experts: the parameters one token runs through (default: params)"},
    ARCH(layers, "layers", "a language model's transformer layers"),
    ARCH(hidden, "units", "a language model's hidden size"),
    ARCH(heads, "heads", "attention heads"),
    ARCH(kv_heads, "heads", "key/value heads (fewer than heads with grouped-query attention)"),
    ARCH(head_dim, "units", "size of one attention head"),
    /* a mean of two widths need not be whole */
    {.name = "attention_head_dim", .type = FIELD_NUMBER, .at = AT(attention_head_dim), .lo = 1,
     .hi = 1e9, .unit = "units",
     .help = "the mean width of a head's q.k and scores.v where it is not head_dim (multi-head "
             "latent attention: (qk_nope_head_dim + qk_rope_head_dim + v_head_dim) / 2); "
             "default: head_dim"},
    {.name = "decode_attention_head_dim", .type = FIELD_NUMBER, .at = AT(decode_attention_head_dim),
     .lo = 1, .hi = 1e9, .unit = "units",
     .help = "the mean width a decode step's q.k and scores.v run over a head where it is not "
             "head_dim (multi-head latent attention decoded in its absorbed form: "
             "(kv_lora_rank + qk_rope_head_dim + kv_lora_rank) / 2); default: head_dim"},
    ARCH(ffn, "units", "feed-forward width (of one expert); default: what params leave"),
    ARCH(experts, "experts", "feed-forward experts a layer, a mixture of experts (default: 1)"),
    ARCH(experts_active, "experts", "of the experts, those a token is routed to (top-k)"),
    ARCH(vocab, "tokens", "vocabulary size"),
    ARCH(context, "tokens", "the longest sequence the model takes"),
    {.name = "precision", .type = FIELD_TEXT, .at = AT(precision), .choice_at = gw_precision_choice,
     .also = precision_also,
     .fallback = "amp",
     .help = "number format: training's (fp32; tf32; amp, fp16 or bf16: 16-bit compute with fp32 "
             "master weights; fp8, fp4: bf16 weights cast per product) or the weights served "
             "(also w8a8 = int8: int8 weights and activations on INT8 tensor cores; w8a16: int8 "
             "weights, 16-bit activations, GPTQ/AWQ 8-bit or bitsandbytes; w4a16 = int4: AWQ or "
             "GPTQ 4-bit weights, 16-bit activations); a GPU without the format's tensor cores "
             "runs the next it has and says so (FP8 or FP4 weights served weight-only where "
             "kernels exist)",
     .then = workload_check_precision},
    {.name = "optimizer", .type = FIELD_TEXT, .at = AT(optimizer), .choice_at = gw_optimizer_choice,
     .fallback = "adam", .tasks = training,
     .help = "optimizer, for the state it keeps per parameter"},
    {.name = "activations_gb", .type = FIELD_NUMBER, .at = AT(activations_gb), .lo = 0,
     .hi = 1e6, .fallback = "0", .unit = "GB",
     .help = "activations of one batch (a language model's are computed from its architecture)"},
    {0},
};
#undef ARCH

static const workload_field finetune_fields[] = {
    {.name = "method", .type = FIELD_TEXT, .at = AT(finetune_method), .choices = methods,
     .fallback = "full",
     .help = "full: every weight trained; lora: rank-r adapters on every linear layer, the "
             "weights frozen; qlora: the same over 4-bit NormalFloat weights"},
    {.name = "rank", .type = FIELD_NUMBER, .at = AT(lora_rank), .lo = 1, .hi = 65536,
     .also = rank_also,
     .whole = 1, .fallback = "16",
     .help = "the adapters' rank (lora and qlora)"},
    {0},
};

static const workload_field inference_fields[] = {
    {.name = "context", .type = FIELD_NUMBER, .at = AT(serve_context), .lo = 1,
     .also = context_also,
     .hi = 1e8, .whole = 1, .unit = "tokens",
     .help = "tokens of each request's prompt"},
    {.name = "output_tokens", .type = FIELD_NUMBER, .at = AT(serve_output),
     .also = output_also,
     .lo = 1, .hi = 1e8, .whole = 1, .unit = "tokens", .help = "tokens generated per request"},
    {.name = "concurrency", .type = FIELD_NUMBER, .at = AT(serve_concurrency), .lo = 1,
     .also = concurrency_also,
     .hi = 1e7, .whole = 1, .unit = "sequences",
     .help = "requests in flight at once, over all replicas (default: 1); with an arrival rate "
             "(requests_per_s, or tokens_per_s without a concurrency) those follow from the "
             "load (Little's law), and concurrency is the most the service admits in flight "
             "(a serving engine's cap, like vLLM's max_num_seqs): a load that needs more does "
             "not keep up"},
    {.name = "tokens_per_s", .type = FIELD_NUMBER, .at = AT(target_tokens_per_s), .lo = 0,
     .lo_excluded = 1, .hi = 1e12, .unit = "tokens/s",
     .help = "target: tokens generated per second in all (default: none); without a "
             "concurrency, an arrival rate of tokens_per_s / output_tokens requests a second"},
    {.name = "tpot_ms", .type = FIELD_NUMBER, .at = AT(target_tpot_ms), .lo = 0,
     .lo_excluded = 1, .hi = 1e7, .unit = "ms",
     .help = "target: time per output token of each request (default: none)"},
    {.name = "ttft_ms", .type = FIELD_NUMBER, .at = AT(target_ttft_ms), .lo = 0,
     .lo_excluded = 1, .hi = 1e9, .unit = "ms",
     .help = "target: time to the first token of a request (default: none)"},
    {.name = "requests_per_s", .type = FIELD_NUMBER, .at = AT(serve_requests_per_s), .lo = 0,
     .also = requests_also,
     .lo_excluded = 1, .hi = 1e9, .unit = "requests/s",
     .help = "demand: requests arriving a second in all; with output_tokens, the tokens/s "
             "demanded (instead of tokens_per_s); the requests in flight follow from it"},
    {.name = "utilisation", .type = FIELD_NUMBER, .at = AT(serve_utilisation), .lo = 0,
     .lo_excluded = 1, .hi = 1, .note = "a share of the capacity, 0 to 1",
     .help = "demand as the busy share of what each option provisions, where the traffic is "
             "not known in tokens (instead of tokens_per_s or requests_per_s); without any of "
             "the three, serving is costed at full use", .then = workload_check_demand},
    {0},
};

static const workload_field work_fields[] = {
    {.name = "samples", .type = FIELD_NUMBER, .at = AT(work_samples), .lo = 1, .hi = 1e18,
     .unit = "samples",
     .tasks = training_only,
     .help = "samples one run processes (needs a benchmark measured in samples per second)"},
    {.name = "tokens", .type = FIELD_NUMBER, .at = AT(work_tokens), .lo = 1, .hi = 1e18,
     .unit = "tokens",
     .help = "a language model's tokens one run trains on (or generates, serving)"},
    {.name = "hours_on", .type = FIELD_TEXT, .at = AT(work_hours_on), .expected = "a GPU name",
     .tasks = training_only,
     .help = "the GPU on which one run takes `hours` (instead of samples)"},
    {.name = "hours", .type = FIELD_NUMBER, .at = AT(work_hours), .lo = 0,
     .lo_excluded = 1, .hi = 1e9, .unit = "hours",
     .tasks = training_only,
     .help = "hours one run takes on one `hours_on` card (required with hours_on)"},
    {.name = "runs", .type = FIELD_NUMBER, .at = AT(work_runs), .lo = 1, .hi = 1e6, .whole = 1,
     .fallback = "1", .unit = "runs",
     .help = "how many times the run is done (the job is runs x one run)"},
    {0},
};

static const workload_field electricity_fields[] = {
    {.name = "price", .type = FIELD_NUMBER, .at = AT(electricity_price), .required = 1, .lo = 0,
     .hi = 1e4, .unit = "currency/kWh", .note = "in the workload's currency",
     .help = "price of a kWh, in the workload's currency"},
    {.name = "pue", .type = FIELD_NUMBER, .at = AT(pue), .lo = 1, .hi = 5, .fallback = "1",
     .help = "power usage effectiveness: the room's power per watt the machines draw"},
    {0},
};

/* One of the three, checked by workload_check_budget; the figure each is held to is the
 * decision's (decide_budget.c). */
static const workload_field budget_fields[] = {
    {.name = "upfront", .type = FIELD_NUMBER, .at = AT(budget_upfront), .lo = 0, .hi = 1e15,
     .unit = "currency",
     .help = "cash committed up front: a purchase's cards, hosts and cooling; a rental's whole "
             "bill for a job, or its first month for capacity"},
    {.name = "total", .type = FIELD_NUMBER, .at = AT(budget_total), .lo = 0, .hi = 1e15,
     .unit = "currency",
     .help = "everything paid over the horizon (a grant): a purchase's cards, hosts, cooling, "
             "power and upkeep (resale comes after it); a rental's whole bill"},
    {.name = "monthly", .type = FIELD_NUMBER, .at = AT(budget_monthly), .lo = 0, .hi = 1e15,
     .unit = "currency/month",
     .help = "a limit a month: a rental's bill a month, a purchase's running costs a month "
             "(power and upkeep; its cards are not paid monthly)"},
    {0},
};

const workload_field workload_top_fields[] = {
    {.name = "name", .type = FIELD_TEXT, .at = AT(name), .expected = "a text",
     .help = "title of the report (default: the file's name)", .then = workload_name_default_to_file},
    {.name = "file", .type = FIELD_FILE, .at = AT(path),
     .help = "the file the workload was read from"},
    {.name = "task", .type = FIELD_TEXT, .at = AT(task), .choices = tasks, .fallback = "train",
     .help = "what the GPUs do: train a model, fine-tune a language model, or serve one "
             "(inference)"},
    {.name = "model", .type = FIELD_TABLE, .fields = model_fields, .shorthand = "name",
     .expected = "a model name (\"llama-3-8b\") or a table { params = ..., precision = ... }",
     .help = "what is trained or served; gives the memory of one replica unless vram_gb does",
     .then = workload_resolve_model},
    {.name = "vram_gb", .type = FIELD_NUMBER, .at = AT(vram_gb), .lo = 0,
     .lo_excluded = 1, .hi = 1e6, .unit = "GB",
     .help = "measured peak memory of one replica, in GB of 10^9 bytes (PyTorch's "
             "torch.cuda.max_memory_allocated() / 1e9; a figure in GiB, bytes / 2^30 as "
             "memory_summary() and nvidia-smi's MiB / 1024 give it, is x 1.074 in GB); replaces "
             "the estimate from model, and is compared with each card's memory in the same "
             "unit, as the driver reports it",
     .then = workload_check_model_given},
    {.name = "finetune", .type = FIELD_TABLE, .fields = finetune_fields,
     .expected = "a table { method = \"lora\", rank = 16 }",
     .tasks = finetuning,
     .help = "how a language model is fine-tuned (task = \"finetune\")", .then = workload_check_finetune},
    {.name = "sharding", .type = FIELD_TEXT, .at = AT(sharding), .choices = shardings,
     .also = sharding_also,
     .fallback = "none",
     .tasks = training,
     .help = "ZeRO stage over the data-parallel replicas: zero1 shards the optimizer states, "
             "zero2 the gradients too, zero3 (FSDP full-shard) the weights too"},
    {.name = "activation_checkpointing", .type = FIELD_TEXT,
     .also = checkpointing_also,
     .at = AT(activation_checkpointing), .choices = checkpointings, .if_true = "full",
     .if_false = "none", .fallback = "none",
     .tasks = training,
     .help = "full (true): keep only each layer's input and recompute the rest in the backward "
             "pass (less memory, a third more compute); selective: recompute only the attention "
             "scores (Korthikanti et al.), which FlashAttention, assumed throughout, already "
             "never keeps, so it needs what none does; none (false): keep every layer's "
             "activations"},
    {.name = "sequence_length", .type = FIELD_NUMBER, .at = AT(sequence_length), .lo = 1,
     .also = sequence_also,
     .hi = 1e8, .whole = 1, .unit = "tokens",
     .tasks = training,
     .help = "tokens per training sequence of a language model (default: 2048, or the model's "
             "context when shorter)"},
    {.name = "batch_per_gpu", .type = FIELD_NUMBER, .at = AT(batch_per_gpu), .lo = 1, .hi = 1e7,
     .also = batch_also,
     .whole = 1, .unit = "samples", .note = "per GPU per step",
     .tasks = training,
     .help = "samples per GPU per step, for the scaling model; a language model's are "
             "sequences (default: 256 samples, 1 sequence)"},
    {.name = "gradient_accumulation", .type = FIELD_NUMBER, .at = AT(gradient_accumulation),
     .also = accumulation_also,
     .lo = 1, .hi = 1e6, .whole = 1, .fallback = "1", .unit = "micro-batches",
     .note = "a language model's training",
     .tasks = training,
     .help = "micro-batches of batch_per_gpu sequences whose gradients are summed before each "
             "optimizer step: memory holds one micro-batch, and data-parallel replicas exchange "
             "their gradients once a step of all of them"},
    {.name = "fused_loss", .type = FIELD_BOOL, .at = AT(fused_loss), .fallback = "false",
     .tasks = training,
     .help = "a language model's training computes its loss with a fused, chunked "
             "cross-entropy (Liger Kernel's, Unsloth's, torchtune's): only a chunk of logits "
             "about the size of the hidden states is live, in 16-bit, instead of every token's "
             "fp32 logits"},
    {.name = "inference", .type = FIELD_TABLE, .fields = inference_fields,
     .expected = "a table { context = ..., output_tokens = ..., concurrency = ... }",
     .tasks = serving,
     .help = "serving a language model (task = \"inference\"): the requests, the targets an "
             "option must meet (one that misses any is out) and the demand, stated at most one "
             "way; the cost per 1M tokens is what is provisioned over the tokens served at that "
             "demand", .then = workload_check_language_model},
    {.name = "benchmark", .type = FIELD_TEXT, .at = AT(benchmark),
     .expected = "the name of measured results in the KB (e.g. \"resnet50\")",
     .help = "key of the KB's measured results to compare GPUs with"},
    {.name = "work", .type = FIELD_TABLE, .fields = work_fields,
     .expected = "a table { samples = ..., runs = ... } or { hours_on = ..., hours = ... }",
     .help = "a job: one run of the work (samples, or hours on a named GPU) and how many runs; "
             "an option that cannot finish them in time is out, a rental is paid for the hours "
             "they take, a purchase's electricity too.  Without work the workload is capacity: "
             "both are costed for hours_per_day over the horizon, per hour of use (per unit of "
             "the benchmark when one is named)",
     .then = workload_check_work},
    {.name = "parallelism", .type = FIELD_TEXT, .at = AT(parallelism), .choices = parallelisms,
     .fallback = "data", .help = "how several cards share the work"},
    {.name = "hours_per_day", .type = FIELD_NUMBER, .at = AT(hours_per_day), .required = 1,
     .lo = 0, .lo_excluded = 1, .hi = 24, .unit = "hours/day",
     .help = "hours a day the hardware is used"},
    {.name = "horizon_months", .type = FIELD_NUMBER, .at = AT(horizon_months), .required = 1,
     .lo = 0.1, .hi = 240, .unit = "months",
     .help = "how long the purchase must pay for itself"},
    {.name = "hours_needed_per_month", .type = FIELD_NUMBER, .at = AT(hours_needed_per_month),
     .lo = 0, .lo_excluded = 1, .hi = 1e9, .unit = "card-hours/month",
     .note = "capacity only",
     .help = "capacity: the hours of one card a month the work needs, of each option's own "
             "card unless hours_needed_on names the card they were measured on (an option of n "
             "cards covers n in each hour it runs); options are costed for those hours and "
             "compared on them, so capacity beyond the need does not win on cost per unit, and "
             "one that cannot cover them within hours_per_day is out (default: every hour of "
             "hours_per_day is used)",
     .then = workload_check_need},
    {.name = "hours_needed_on", .type = FIELD_TEXT, .at = AT(hours_needed_on),
     .expected = "a GPU name", .note = "with hours_needed_per_month",
     .help = "the card hours_needed_per_month was measured on: each option is costed for the "
             "hours it takes to do that work, the need x that card's speed on the workload / "
             "the option's (default: hours of each option's own card, so a faster card does "
             "more work in them)",
     .then = workload_check_need_on},
    {.name = "deadline_days", .type = FIELD_NUMBER, .at = AT(deadline_days), .lo = 0,
     .also = deadline_also,
     .lo_excluded = 1, .hi = 7200, .unit = "days", .note = "within the horizon",
     .help = "a job must finish within this many days (default: the horizon)",
     .then = workload_check_deadline},
    {.name = "currency", .type = FIELD_CURRENCY, .at = AT(currency), .required = 1,
     .expected = "an ISO 4217 code such as \"CNY\" or \"USD\"",
     .help = "currency of every amount; KB prices are converted at its dated exchange rates"},
    {.name = "region", .type = FIELD_TEXT, .at = AT(region),
     .expected = "a region as the KB's prices name it, such as \"CN\" or \"US\"",
     .help = "where the cards are bought: a card is priced from the KB's prices of that region "
             "where it has any, else from the latest of any region, and the option says so "
             "(cloud offers are not restricted, but a rental from a provider whose GPUs are "
             "elsewhere says where the data goes; default: every region)"},
    {.name = "budget", .type = FIELD_TABLE, .fields = budget_fields, .shorthand = "upfront",
     .expected = "a number (cash up front) or a table { total = N } or { monthly = N }",
     .help = "the money there is, as it is stated: a number is cash up front (budget = N is "
             "budget = { upfront = N }); total, a grant that pays everything over the horizon; "
             "monthly, a limit a month.  An option over it is out, and the report says which "
             "figure was compared (default: none)",
     .then = workload_check_budget},
    {.name = "electricity", .type = FIELD_TABLE, .required = 1, .fields = electricity_fields,
     .expected = "a table { price = ..., pue = ... }",
     .missing = "expected { price = PER_KWH }", .help = "what power costs"},
    {.name = "used_ok", .type = FIELD_BOOL, .at = AT(used_ok), .fallback = "false",
     .help = "consider second-hand cards"},
    {.name = "spot_ok", .type = FIELD_BOOL, .at = AT(spot_ok), .fallback = "false",
     .help = "the work can be interrupted: spot offers become options"},
    {.name = "anecdotal_ok", .type = FIELD_BOOL, .at = AT(anecdotal_ok), .fallback = "false",
     .help = "an offer whose price only an article or blog gives may be recommended"},
    {.name = "price_max_age_days", .type = FIELD_NUMBER, .at = AT(price_max_age_days), .lo = 1,
     .hi = 36500, .fallback = "180", .unit = "days",
     .help = "a price observed longer ago than this is stale: shown, ranked after every "
             "current option and not recommended unless stale_ok, and the report lists it to "
             "re-quote (exchange rates are flagged after 30 days)"},
    {.name = "stale_ok", .type = FIELD_BOOL, .at = AT(stale_ok), .fallback = "false",
     .help = "a price older than price_max_age_days may be recommended (it is still said to "
             "be stale)"},
    {.name = "cooling", .type = FIELD_TEXT, .at = AT(cooling), .choices = coolings,
     .fallback = "good", .help = "whether the room can take the heat of a multi-card machine"},
    {.name = "candidates", .type = FIELD_NAMES, .at = AT(candidates),
     .count_at = AT(n_candidates), .then = workload_check_candidates,
     .expected = "a list of GPU names (\"4x rtx-3090\", \"rent:*\", ...)",
     .expected_item = "a GPU name",
     .help = "what to compare: \"rtx-3090\" tries 1, 2, 4 cards a machine (8 for data-centre "
             "cards), then 2 and 4 full machines; an SXM or OAM part 1, 2 or 4 of its servers; "
             "\"4x rtx-3090\" fixes the count (a whole number of at least 1), \"rent:*\" adds "
             "every cloud offer, \"rent:GPU\" that GPU's, each GPU count an offer sells an "
             "option of its own, \"rent:2x GPU\" those that make 2 GPUs (one instance of 2, or "
             "two of 1 over a network the offer states; a count no offer makes is an error) "
             "(default: every priced GPU and every offer)"},
    {.name = "host_cost", .type = FIELD_NUMBER, .at = AT(host_cost), .lo = 0, .hi = 1e12,
     .unit = "currency", .note = "per machine",
     .help = "the machine around the cards, per machine (default: the price of the smallest "
             "of the KB's hosts that takes them, a desktop for 1, a workstation for up to 4, a "
             "server for 8 PCIe cards; a server of SXM or OAM modules is bought whole, its host "
             "included)"},
    {.name = "host_power_w", .type = FIELD_NUMBER, .at = AT(host_power_w), .lo = 0, .hi = 1e5,
     .unit = "W", .note = "per machine",
     .help = "power of a machine besides its cards (default: the decision's)"},
    {.name = "cards_per_host", .type = FIELD_NUMBER, .at = AT(cards_per_host), .lo = 1,
     .hi = 64, .whole = 1, .unit = "cards",
     .help = "cards one machine takes (default: 4 consumer or 8 data-centre cards)"},
    {.name = "network_gbps", .type = FIELD_NUMBER, .at = AT(network_gbps), .lo = 0.1,
     .hi = 1e5, .unit = "Gb/s",
     .help = "the network between the machines of a purchase that needs several (up to four, "
             "for data parallelism), all of one machine's ports (default: the KB's "
             "host_network_gbps)"},
    {.name = "cooling_cost", .type = FIELD_NUMBER, .at = AT(cooling_cost), .lo = 0, .hi = 1e12,
     .fallback = "0", .unit = "currency", .note = "per machine",
     .help = "one-off cooling work, per machine"},
    {.name = "upkeep_hours_per_month", .type = FIELD_NUMBER, .at = AT(upkeep_hours_per_month),
     .lo = 0, .hi = 744, .unit = "hours/month",
     .help = "people's time running the machines (staff time; unstated, it is not counted and "
             "the report says so)"},
    {.name = "upkeep_rate", .type = FIELD_NUMBER, .at = AT(upkeep_rate), .lo = 0, .hi = 1e9,
     .unit = "currency/hour",
     .help = "what an hour of that time costs"},
    {.name = "resale_fraction", .type = FIELD_NUMBER, .at = AT(resale_fraction), .lo = 0,
     .hi = 1,
     .help = "share of the card price recovered at the horizon (default: the decision's)"},
    {.name = "redundancy", .type = FIELD_NUMBER, .at = AT(redundancy), .lo = 0, .hi = 1000,
     .whole = 1, .fallback = "0", .unit = "replicas",
     .tasks = serving,
     .help = "serving: spare replicas beyond those the demand needs, so that one can fail or "
             "be updated while the rest serve it; an option with fewer replicas than the demand's "
             "and these is out"},
    {.name = "production", .type = FIELD_BOOL, .at = AT(production), .fallback = "false",
     .help = "a production service: rentals only from providers that publish an SLA, at least "
             "two serving replicas, and consumer cards carry the GeForce licence's "
             "data-centre note; what is left out is said"},
    {.name = "server_room", .type = FIELD_BOOL, .at = AT(server_room), .fallback = "false",
     .help = "the machines bought stand in a server room or data centre (consumer cards there "
             "carry the GeForce licence's data-centre note)"},
    {.name = "site_power_kw", .type = FIELD_NUMBER, .at = AT(site_power_kw), .lo = 0, .hi = 1e6,
     .unit = "kW",
     .help = "power the buyer's room has for the machines bought: the draw above it is placed "
             "in colocation at the KB's price per kW a month (unstated: not checked)"},
    {.name = "support_fraction", .type = FIELD_NUMBER, .at = AT(support_fraction), .lo = 0,
     .hi = 1, .unit = "fraction",
     .help = "support and warranty a year, as a share of the hardware's price (default: the "
             "decision's; 0 where none is bought)"},
    {.name = "discount_rate", .type = FIELD_NUMBER, .at = AT(discount_rate), .lo = 0, .hi = 1,
     .unit = "fraction a year",
     .help = "the cost of capital: later payments (electricity, support, colocation, staff, a "
             "capacity rental's monthly bills) and resale are taken at present value (unstated: "
             "not discounted)"},
    {0},
};

/* ---- what the tables say, in words ---- */

const workload_field *workload_field_find(const char *path)
{
    const workload_field *fields = workload_top_fields;
    for (;;) {
        size_t len = strcspn(path, ".");
        const workload_field *f = fields;
        while (f->name && (strlen(f->name) != len || strncmp(f->name, path, len)))
            f++;
        if (!f->name || !path[len])
            return f->name ? f : NULL;
        if (f->type != FIELD_TABLE)
            return NULL;
        fields = f->fields;
        path += len + 1;
    }
}

const char *workload_field_choice(const workload_field *f, size_t i)
{
    if (f->choice_at)
        return f->choice_at(i);
    return f->choices ? f->choices[i] : NULL;
}

/* A bound as a workload file may write it: 24, 0.1, 1e15 (not %g's 1e+15). */
static void put_bound(gw_buf *b, double x)
{
    char text[32];
    snprintf(text, sizeof text, "%g", x);
    char *e = strchr(text, 'e');
    if (e) {
        char *digits = e + 1 + (e[1] == '+');
        while (*digits == '0' && digits[1])
            digits++;
        memmove(e + 1, digits, strlen(digits) + 1);
    }
    buf_puts(b, text);
}

void workload_describe_range(gw_buf *b, const workload_field *f)
{
    buf_puts(b, f->lo_excluded ? "more than " : "at least ");
    put_bound(b, f->lo);
    buf_puts(b, " and at most ");
    put_bound(b, f->hi);
}

void workload_describe_expected(gw_buf *b, const workload_field *f)
{
    if (f->type == FIELD_NUMBER) {
        buf_puts(b, f->whole ? "a whole number " : "a number ");
        workload_describe_range(b, f);
        if (f->unit)
            buf_printf(b, " %s", f->unit);
        if (f->note)
            buf_printf(b, " (%s)", f->note);
    } else if (workload_field_choice(f, 0)) {
        buf_puts(b, "one of ");
        for (size_t i = 0; workload_field_choice(f, i); i++)
            buf_printf(b, "%s%s", i ? ", " : "", workload_field_choice(f, i));
        if (f->if_true)
            buf_printf(b, ", or true (%s) or false (%s)", f->if_true, f->if_false);
    } else if (f->type == FIELD_BOOL) {
        buf_puts(b, "true or false");
    } else {
        buf_puts(b, f->expected);
    }
}

int workload_describe_out_of_range(gw_buf *b, const workload_field *f, double n)
{
    const char *broken = f->lo_excluded && n <= f->lo ? "not above"
                         : n < f->lo                     ? "below"
                         : n > f->hi                     ? "above"
                                                         : NULL;
    if (!broken)
        return 0;
    put_bound(b, n);
    buf_printf(b, " is %s ", broken);
    put_bound(b, n > f->hi ? f->hi : f->lo);
    buf_puts(b, " (expected ");
    workload_describe_range(b, f);
    buf_puts(b, ")");
    return 1;
}

int workload_missing(gw_error *err, const char *file, const char *name, const workload_field *f)
{
    gw_buf b = GW_BUF_INIT;
    if (f->missing) {
        buf_puts(&b, f->missing);
    } else {
        buf_puts(&b, "expected ");
        workload_describe_expected(&b, f);
    }
    gw_error_set(err, GW_EDATA, "%s: %s: missing (%s)", file, name, buf_cstr(&b));
    buf_free(&b);
    return GW_EDATA;
}
