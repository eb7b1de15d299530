/* workload.c — reads a workload file through the plugin sandbox and checks it against the one
 * description of its fields, the tables below (name, type, range or allowed values, default,
 * required, unit, meaning).  Reading, the messages ("expected ...", "did you mean"), the defaults,
 * freeing, workload_to_view and workload_fields_to_view all walk those tables; the few rules that
 * relate two fields hang on the later of the two (`then`).  Fields are read in table order, a
 * nested table whole where it stands, and the first mistake in that order is the one reported. */
#include "workload.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "base/limits.h"
#include "cost.h"
#include "ingest/kb_answer.h"
#include "sandbox/plugin.h"
#include "base/units.h"

typedef enum {
    FIELD_NUMBER,   /* a finite number from lo to hi: a double */
    FIELD_TEXT,     /* a non-empty text, one of `choices` when they are given: a char * */
    FIELD_CURRENCY, /* an ISO 4217 code: a char[4] */
    FIELD_BOOL,     /* true or false: an int */
    FIELD_NAMES,    /* a non-empty list of non-empty texts: a char ** and its count */
    FIELD_TABLE,    /* a table with fields of its own; Lua's {} counts as absent */
    FIELD_FILE,     /* not written in the file: the path it was read from, shown in the view */
} field_type;

/* A rule between fields, run once the later of them has been read. */
typedef int (*field_rule)(const char *file, workload *w, gw_error *err);

typedef struct field field;
struct field {
    const char *name;
    field_type type;
    size_t at;                  /* offsetof the value in struct workload */
    size_t count_at;            /* FIELD_NAMES: offsetof the count */
    int required;
    double lo, hi;              /* FIELD_NUMBER: the allowed range */
    int whole;                  /* FIELD_NUMBER: a count, a whole number */
    const char *const *choices; /* FIELD_TEXT: the allowed values; NULL allows any text */
    const char *fallback;       /* the value when absent, as the file would write it; NULL: none */
    const char *unit;           /* NULL: none (a ratio, a name) */
    const char *expected;       /* a good value, as messages put it (choices and bools: derived) */
    const char *expected_item;  /* FIELD_NAMES: a good entry */
    const char *missing;        /* the hint of a "missing" message, when not "expected ..." */
    const char *help;
    const field *fields;        /* FIELD_TABLE: its fields, ending with a NULL name */
    const char *shorthand;      /* FIELD_TABLE: the field a plain text stands for
                                 * (model = "llama-3-8b" is model = { name = "llama-3-8b" }) */
    field_rule then;
};

#define AT(member) offsetof(workload, member)

static int name_default_to_file(const char *file, workload *w, gw_error *err);
static int check_model_given(const char *file, workload *w, gw_error *err);
static int check_work(const char *file, workload *w, gw_error *err);
static int check_deadline(const char *file, workload *w, gw_error *err);
static int check_finetune(const char *file, workload *w, gw_error *err);
static int check_language_model(const char *file, workload *w, gw_error *err);
static int resolve_model(const char *file, workload *w, gw_error *err);
static int check_architecture(const char *file, workload *w, gw_error *err);

static const char *const tasks[] = {"train", "finetune", "inference", NULL};
static const char *const precisions[] = {"fp32", "tf32", "amp", "fp16", "bf16", "fp8",
                                         "int8", "int4", "fp4", NULL};
static const char *const optimizers[] = {"adam", "adamw", "sgd", "sgd-plain", "none", NULL};
static const char *const parallelisms[] = {"data", "model", "none", NULL};
static const char *const coolings[] = {"good", "poor", NULL};
static const char *const methods[] = {"full", "lora", "qlora", NULL};
static const char *const shardings[] = {"none", "zero1", "zero2", "zero3", NULL};

static int check_precision(const char *file, workload *w, gw_error *err);

/* A language model's architecture, as its published configuration gives it (the KB's catalog
 * has them: model = "llama-3-70b"); each one given here replaces the catalog's. */
#define ARCH(member, what, help_text)                                                          \
    {.name = #member, .type = FIELD_NUMBER, .at = AT(member), .lo = 1, .hi = 1e9, .whole = 1,   \
     .unit = what, .expected = "a whole number of " what " from 1", .help = help_text}

static const field model_fields[] = {
    {.name = "name", .type = FIELD_TEXT, .at = AT(model_name),
     .expected = "a model of the KB's catalog (e.g. \"llama-3-70b\"; gpuwise kb models)",
     .help = "a language model of the KB's catalog: its parameters and architecture come from "
             "there (model = \"llama-3-70b\" says the same)"},
    {.name = "params", .type = FIELD_NUMBER, .at = AT(params), .lo = 1, .hi = 1e15,
     .unit = "parameters", .expected = "a number of parameters (e.g. 25.6e6)",
     .help = "parameters of the model; with precision and optimizer, the memory of one replica"},
    {.name = "active_params", .type = FIELD_NUMBER, .at = AT(active_params), .lo = 1,
     .hi = 1e15, .unit = "parameters", .expected = "a number of parameters up to params",
     .help = "a mixture of experts: the parameters one token runs through (default: params)"},
    ARCH(layers, "layers", "a language model's transformer layers"),
    ARCH(hidden, "units", "a language model's hidden size"),
    ARCH(heads, "heads", "attention heads"),
    ARCH(kv_heads, "heads", "key/value heads (fewer than heads with grouped-query attention)"),
    ARCH(head_dim, "units", "size of one attention head"),
    ARCH(ffn, "units", "feed-forward width (of one expert); default: what params leave"),
    ARCH(experts, "experts", "feed-forward experts a layer, a mixture of experts (default: 1)"),
    ARCH(vocab, "tokens", "vocabulary size"),
    ARCH(context, "tokens", "the longest sequence the model takes"),
    {.name = "precision", .type = FIELD_TEXT, .at = AT(precision), .choices = precisions,
     .fallback = "amp", .help = "number format of training (amp: half-precision compute, fp32 "
                                "master weights; fp8 on GPUs with FP8 tensor cores), or of the "
                                "weights served (int8, int4, fp4: quantized, with their scales)",
     .then = check_precision},
    {.name = "optimizer", .type = FIELD_TEXT, .at = AT(optimizer), .choices = optimizers,
     .fallback = "adam", .help = "optimizer, for the state it keeps per parameter"},
    {.name = "activations_gb", .type = FIELD_NUMBER, .at = AT(activations_gb), .lo = 0,
     .hi = 1e6, .fallback = "0", .unit = "GB", .expected = "a number of GB from 0",
     .help = "activations of one batch (a language model's are computed from its architecture)"},
    {0},
};
#undef ARCH

static const field finetune_fields[] = {
    {.name = "method", .type = FIELD_TEXT, .at = AT(finetune_method), .choices = methods,
     .fallback = "full",
     .help = "full: every weight trained; lora: rank-r adapters on every linear layer, the "
             "weights frozen; qlora: the same over 4-bit NormalFloat weights"},
    {.name = "rank", .type = FIELD_NUMBER, .at = AT(lora_rank), .lo = 1, .hi = 65536,
     .whole = 1, .fallback = "16", .expected = "a whole number from 1",
     .help = "the adapters' rank (lora and qlora)"},
    {0},
};

static const field inference_fields[] = {
    {.name = "context", .type = FIELD_NUMBER, .at = AT(serve_context), .lo = 1,
     .hi = 1e8, .whole = 1, .unit = "tokens", .expected = "a whole number of tokens from 1",
     .help = "tokens of each request's prompt"},
    {.name = "output_tokens", .type = FIELD_NUMBER, .at = AT(serve_output),
     .lo = 1, .hi = 1e8, .whole = 1, .unit = "tokens",
     .expected = "a whole number of tokens from 1", .help = "tokens generated per request"},
    {.name = "concurrency", .type = FIELD_NUMBER, .at = AT(serve_concurrency), .lo = 1,
     .hi = 1e7, .whole = 1, .fallback = "1", .unit = "sequences",
     .expected = "a whole number of sequences from 1",
     .help = "requests in flight at once, over all replicas"},
    {.name = "tokens_per_s", .type = FIELD_NUMBER, .at = AT(target_tokens_per_s), .lo = 0.001,
     .hi = 1e12, .unit = "tokens/s", .expected = "a rate above 0",
     .help = "target: tokens generated per second in all (default: none)"},
    {.name = "tpot_ms", .type = FIELD_NUMBER, .at = AT(target_tpot_ms), .lo = 0.001, .hi = 1e7,
     .unit = "ms", .expected = "milliseconds above 0",
     .help = "target: time per output token of each request (default: none)"},
    {.name = "ttft_ms", .type = FIELD_NUMBER, .at = AT(target_ttft_ms), .lo = 0.001, .hi = 1e9,
     .unit = "ms", .expected = "milliseconds above 0",
     .help = "target: time to the first token of a request (default: none)"},
    {0},
};

static const field work_fields[] = {
    {.name = "samples", .type = FIELD_NUMBER, .at = AT(work_samples), .lo = 1, .hi = 1e18,
     .unit = "samples", .expected = "a number of samples above 0",
     .help = "samples one run processes (needs a benchmark measured in samples per second)"},
    {.name = "tokens", .type = FIELD_NUMBER, .at = AT(work_tokens), .lo = 1, .hi = 1e18,
     .unit = "tokens", .expected = "a number of tokens above 0",
     .help = "a language model's tokens one run trains on (or generates, serving)"},
    {.name = "hours_on", .type = FIELD_TEXT, .at = AT(work_hours_on), .expected = "a GPU name",
     .help = "the GPU on which one run takes `hours` (instead of samples)"},
    {.name = "hours", .type = FIELD_NUMBER, .at = AT(work_hours), .lo = 0.001, .hi = 1e9,
     .unit = "hours", .expected = "a number of hours above 0",
     .help = "hours one run takes on one `hours_on` card (required with hours_on)"},
    {.name = "runs", .type = FIELD_NUMBER, .at = AT(work_runs), .lo = 1, .hi = 1e6, .whole = 1,
     .fallback = "1", .unit = "runs", .expected = "a whole number of runs from 1",
     .help = "how many times the run is done (the job is runs x one run)"},
    {0},
};

static const field electricity_fields[] = {
    {.name = "price", .type = FIELD_NUMBER, .at = AT(electricity_price), .required = 1, .lo = 0,
     .hi = 1e4, .unit = "currency/kWh",
     .expected = "a price per kWh from 0, in the workload's currency",
     .help = "price of a kWh, in the workload's currency"},
    {.name = "pue", .type = FIELD_NUMBER, .at = AT(pue), .lo = 1, .hi = 5, .fallback = "1",
     .expected = "a number from 1 to 5",
     .help = "power usage effectiveness: the room's power per watt the machines draw"},
    {0},
};

static const field top_fields[] = {
    {.name = "name", .type = FIELD_TEXT, .at = AT(name), .expected = "a text",
     .help = "title of the report (default: the file's name)", .then = name_default_to_file},
    {.name = "file", .type = FIELD_FILE, .at = AT(path),
     .help = "the file the workload was read from"},
    {.name = "task", .type = FIELD_TEXT, .at = AT(task), .choices = tasks, .fallback = "train",
     .help = "what the GPUs do: train a model, fine-tune a language model, or serve one "
             "(inference)"},
    {.name = "model", .type = FIELD_TABLE, .fields = model_fields, .shorthand = "name",
     .expected = "a model name (\"llama-3-8b\") or a table { params = ..., precision = ... }",
     .help = "what is trained or served; gives the memory of one replica unless vram_gb does",
     .then = resolve_model},
    {.name = "vram_gb", .type = FIELD_NUMBER, .at = AT(vram_gb), .lo = 0.001, .hi = 1e6,
     .unit = "GB", .expected = "a number of GB above 0",
     .help = "measured peak memory of one replica; replaces the estimate from model",
     .then = check_model_given},
    {.name = "finetune", .type = FIELD_TABLE, .fields = finetune_fields,
     .expected = "a table { method = \"lora\", rank = 16 }",
     .help = "how a language model is fine-tuned (task = \"finetune\")", .then = check_finetune},
    {.name = "sharding", .type = FIELD_TEXT, .at = AT(sharding), .choices = shardings,
     .fallback = "none",
     .help = "ZeRO stage over the data-parallel replicas: zero1 shards the optimizer states, "
             "zero2 the gradients too, zero3 (FSDP full-shard) the weights too"},
    {.name = "activation_checkpointing", .type = FIELD_BOOL, .at = AT(checkpointing),
     .fallback = "false",
     .help = "keep only each layer's input and recompute the rest in the backward pass (less "
             "memory, a third more compute)"},
    {.name = "sequence_length", .type = FIELD_NUMBER, .at = AT(sequence_length), .lo = 1,
     .hi = 1e8, .whole = 1, .unit = "tokens", .expected = "a whole number of tokens from 1",
     .help = "tokens per training sequence of a language model (default: 2048, or the model's "
             "context when shorter)"},
    {.name = "batch_per_gpu", .type = FIELD_NUMBER, .at = AT(batch_per_gpu), .lo = 1, .hi = 1e7,
     .whole = 1, .unit = "samples", .expected = "a whole number of samples per GPU per step",
     .help = "samples per GPU per step, for the scaling model; a language model's are "
             "sequences (default: 256 samples, 1 sequence)"},
    {.name = "inference", .type = FIELD_TABLE, .fields = inference_fields,
     .expected = "a table { context = ..., output_tokens = ..., concurrency = ... }",
     .help = "serving a language model (task = \"inference\"): the requests, and the targets "
             "an option must meet", .then = check_language_model},
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
     .then = check_work},
    {.name = "parallelism", .type = FIELD_TEXT, .at = AT(parallelism), .choices = parallelisms,
     .fallback = "data", .help = "how several cards share the work"},
    {.name = "hours_per_day", .type = FIELD_NUMBER, .at = AT(hours_per_day), .required = 1,
     .lo = 0.01, .hi = 24, .unit = "hours/day", .expected = "a number from 0 to 24",
     .help = "hours a day the hardware is used"},
    {.name = "horizon_months", .type = FIELD_NUMBER, .at = AT(horizon_months), .required = 1,
     .lo = 0.1, .hi = 240, .unit = "months", .expected = "a number of months from 0.1 to 240",
     .help = "how long the purchase must pay for itself"},
    {.name = "deadline_days", .type = FIELD_NUMBER, .at = AT(deadline_days), .lo = 0.01,
     .hi = 7200, .unit = "days", .expected = "a number of days within the horizon",
     .help = "a job must finish within this many days (default: the horizon)",
     .then = check_deadline},
    {.name = "currency", .type = FIELD_CURRENCY, .at = AT(currency), .required = 1,
     .expected = "an ISO 4217 code such as \"CNY\" or \"USD\"",
     .help = "currency of every amount; KB prices are converted at its dated exchange rates"},
    {.name = "region", .type = FIELD_TEXT, .at = AT(region),
     .expected = "a region as the KB's prices name it, such as \"CN\" or \"US\"",
     .help = "where the cards are bought: a card is priced from the KB's prices of that region "
             "where it has any, else from the latest of any region, and the option says so "
             "(cloud offers are not restricted; default: every region)"},
    {.name = "budget", .type = FIELD_NUMBER, .at = AT(budget), .lo = 0, .hi = 1e15,
     .unit = "currency", .expected = "an amount from 0",
     .help = "cash committed up front, one rule for both: a purchase's cards, hosts and "
             "cooling; a rental's whole bill for a job, or its first month for capacity "
             "(default: none)"},
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
     .hi = 36500, .fallback = "180", .unit = "days", .expected = "a number of days from 1",
     .help = "a price observed longer ago than this is flagged as old in the report (exchange "
             "rates: after 30 days)"},
    {.name = "cooling", .type = FIELD_TEXT, .at = AT(cooling), .choices = coolings,
     .fallback = "good", .help = "whether the room can take the heat of a multi-card machine"},
    {.name = "candidates", .type = FIELD_NAMES, .at = AT(candidates),
     .count_at = AT(n_candidates),
     .expected = "a list of GPU names (\"4x rtx-3090\", \"rent:*\", ...)",
     .expected_item = "a GPU name",
     .help = "what to compare: \"rtx-3090\" tries 1, 2, 4 cards a machine (8 for data-centre "
             "cards), then 2 and 4 full machines; an SXM part its servers; "
             "\"4x rtx-3090\" fixes the count, \"rent:*\" adds every cloud offer, \"rent:GPU\" "
             "that GPU's (default: every priced GPU and every offer)"},
    {.name = "host_cost", .type = FIELD_NUMBER, .at = AT(host_cost), .lo = 0, .hi = 1e12,
     .unit = "currency", .expected = "an amount per machine from 0",
     .help = "the machine around the cards, per machine (default: the decision's)"},
    {.name = "host_power_w", .type = FIELD_NUMBER, .at = AT(host_power_w), .lo = 0, .hi = 1e5,
     .unit = "W", .expected = "watts per machine from 0",
     .help = "power of a machine besides its cards (default: the decision's)"},
    {.name = "cards_per_host", .type = FIELD_NUMBER, .at = AT(cards_per_host), .lo = 1,
     .hi = 64, .whole = 1, .unit = "cards", .expected = "a whole number of cards from 1 to 64",
     .help = "cards one machine takes (default: 4 consumer or 8 data-centre cards)"},
    {.name = "network_gbps", .type = FIELD_NUMBER, .at = AT(network_gbps), .lo = 0.1,
     .hi = 1e5, .unit = "Gb/s", .expected = "a rate in Gb/s from 0.1",
     .help = "the network between the machines of a purchase that needs several, all of one "
             "machine's ports (default: the decision's)"},
    {.name = "cooling_cost", .type = FIELD_NUMBER, .at = AT(cooling_cost), .lo = 0, .hi = 1e12,
     .fallback = "0", .unit = "currency", .expected = "an amount per machine from 0",
     .help = "one-off cooling work, per machine"},
    {.name = "upkeep_hours_per_month", .type = FIELD_NUMBER, .at = AT(upkeep_hours_per_month),
     .lo = 0, .hi = 744, .fallback = "0", .unit = "hours/month",
     .expected = "hours a month from 0 to 744", .help = "people's time running the machines"},
    {.name = "upkeep_rate", .type = FIELD_NUMBER, .at = AT(upkeep_rate), .lo = 0, .hi = 1e9,
     .fallback = "0", .unit = "currency/hour", .expected = "an amount per hour from 0",
     .help = "what an hour of that time costs"},
    {.name = "resale_fraction", .type = FIELD_NUMBER, .at = AT(resale_fraction), .lo = 0,
     .hi = 1, .expected = "a fraction from 0 to 1",
     .help = "share of the card price recovered at the horizon (default: the decision's)"},
    {0},
};

/* ---- messages ---- */

/* How a value reads in a message: "eight" (quoted), 25, true, a table. */
static void describe(gw_buf *b, const view *v)
{
    switch (view_kind(v)) {
    case VIEW_STRING: {
        const char *s = view_str(v);
        size_t n = strlen(s);
        buf_printf(b, "\"%.*s%s\"", (int)(n > 40 ? 40 : n), s, n > 40 ? "..." : "");
        break;
    }
    case VIEW_NUMBER:
        buf_printf(b, "%g", view_num(v));
        break;
    case VIEW_BOOL:
        buf_puts(b, view_bool_value(v) ? "true" : "false");
        break;
    case VIEW_LIST:
        buf_puts(b, "a list");
        break;
    case VIEW_MAP:
        buf_puts(b, "a table");
        break;
    default:
        buf_puts(b, "nil");
    }
}

/* What a good value of f is, as messages and the field list put it. */
static void describe_expected(gw_buf *b, const field *f)
{
    if (f->choices) {
        buf_puts(b, "one of ");
        for (size_t i = 0; f->choices[i]; i++)
            buf_printf(b, "%s%s", i ? ", " : "", f->choices[i]);
    } else if (f->type == FIELD_BOOL) {
        buf_puts(b, "true or false");
    } else {
        buf_puts(b, f->expected);
    }
}

static int bad(gw_error *err, const char *file, const char *name, const char *expected,
               const view *got)
{
    gw_buf b = GW_BUF_INIT;
    describe(&b, got);
    gw_error_set(err, GW_EDATA, "%s: %s: expected %s, got %s", file, name, expected,
                 buf_cstr(&b));
    buf_free(&b);
    return GW_EDATA;
}

static int bad_value(gw_error *err, const char *file, const char *name, const field *f,
                     const view *got)
{
    gw_buf b = GW_BUF_INIT;
    describe_expected(&b, f);
    bad(err, file, name, buf_cstr(&b), got);
    buf_free(&b);
    return GW_EDATA;
}

static int missing(gw_error *err, const char *file, const char *name, const field *f)
{
    gw_buf b = GW_BUF_INIT;
    if (f->missing) {
        buf_puts(&b, f->missing);
    } else {
        buf_puts(&b, "expected ");
        describe_expected(&b, f);
    }
    gw_error_set(err, GW_EDATA, "%s: %s: missing (%s)", file, name, buf_cstr(&b));
    buf_free(&b);
    return GW_EDATA;
}

/* ---- rules between fields ---- */

static int name_default_to_file(const char *file, workload *w, gw_error *err)
{
    (void)err;
    if (!w->name) {
        const char *base = strrchr(file, '/');
        w->name = gw_xstrdup(base ? base + 1 : file);
    }
    return GW_OK;
}

static int check_model_given(const char *file, workload *w, gw_error *err)
{
    if (isnan(w->params) && isnan(w->vram_gb) && !w->model_name)
        return gw_error_set(err, GW_EDATA,
                            "%s: model: missing (give model = \"llama-3-8b\", model = { params "
                            "= ... } or vram_gb = ...)",
                            file);
    if (!isnan(w->active_params) && !isnan(w->params) && w->active_params > w->params)
        return gw_error_set(err, GW_EDATA, "%s: model.active_params: %g is more than params (%g)",
                            file, w->active_params, w->params);
    return GW_OK;
}

int workload_is_llm(const workload *w)
{
    return w->model_name || w->model_id || !isnan(w->layers);
}

int workload_zero_stage(const workload *w)
{
    return w->sharding && !strncmp(w->sharding, "zero", 4) ? w->sharding[4] - '0' : 0;
}

static int is_quantized(const char *precision)
{
    return precision && (!strcmp(precision, "int8") || !strcmp(precision, "int4") ||
                         !strcmp(precision, "fp4"));
}

/* Quantized weights are for serving; fp8 for a language model's GEMMs (Transformer Engine). */
static int check_precision(const char *file, workload *w, gw_error *err)
{
    if (is_quantized(w->precision) && strcmp(w->task, "inference"))
        return gw_error_set(err, GW_EDATA,
                            "%s: model.precision: %s weights are for serving (task = "
                            "\"inference\"); training needs fp32, tf32, amp, fp16, bf16 or fp8 "
                            "(QLoRA's 4-bit weights: finetune = { method = \"qlora\" })",
                            file, w->precision);
    return GW_OK;
}

static int check_finetune(const char *file, workload *w, gw_error *err)
{
    if (strcmp(w->finetune_method, "full") && strcmp(w->task, "finetune"))
        return gw_error_set(err, GW_EDATA,
                            "%s: finetune.method: %s is a way to fine-tune (set task = "
                            "\"finetune\")",
                            file, w->finetune_method);
    return GW_OK;
}

/* What only a language model has, and what a language model's task needs. */
static int check_language_model(const char *file, workload *w, gw_error *err)
{
    int llm = workload_is_llm(w), serving = !strcmp(w->task, "inference");
    if (!llm && strcmp(w->task, "train"))
        return gw_error_set(err, GW_EDATA,
                            "%s: model: task = \"%s\" needs a language model (model = "
                            "\"llama-3-8b\", or its layers, hidden, heads, kv_heads, head_dim and "
                            "vocab)",
                            file, w->task);
    if (!llm && (!isnan(w->sequence_length) || strcmp(w->sharding, "none") ||
                 w->checkpointing || !strcmp(w->precision, "fp8")))
        return gw_error_set(err, GW_EDATA,
                            "%s: %s: only for a language model (model = \"llama-3-8b\", or its "
                            "layers, hidden, ...)",
                            file, !isnan(w->sequence_length) ? "sequence_length"
                                  : strcmp(w->sharding, "none") ? "sharding"
                                  : w->checkpointing ? "activation_checkpointing"
                                                     : "model.precision fp8");
    if (serving && isnan(w->serve_context))
        return gw_error_set(err, GW_EDATA,
                            "%s: inference.context: missing (serving needs inference = { context "
                            "= PROMPT_TOKENS, output_tokens = N, concurrency = N })",
                            file);
    if (serving && isnan(w->serve_output))
        return gw_error_set(err, GW_EDATA,
                            "%s: inference.output_tokens: missing (tokens generated per request)",
                            file);
    if (!serving && (!isnan(w->serve_context) || !isnan(w->serve_output) ||
                     !isnan(w->target_tokens_per_s) || !isnan(w->target_tpot_ms) ||
                     !isnan(w->target_ttft_ms)))
        return gw_error_set(err, GW_EDATA, "%s: inference: only for task = \"inference\"",
                            file);
    if (serving && !isnan(w->target_tpot_ms) && !isnan(w->target_tokens_per_s) &&
        w->serve_concurrency * 1000 / w->target_tpot_ms > w->target_tokens_per_s * (1 + 1e-9))
        return gw_error_set(err, GW_EDATA,
                            "%s: inference: %g requests in flight at %g ms per token generate "
                            "%g tokens/s (%g x 1000 / %g), more than tokens_per_s = %g: a "
                            "demand of %g tokens/s from %g requests streams each at %g ms a "
                            "token (Little's law); raise tokens_per_s, or lower concurrency "
                            "or tpot_ms",
                            file, w->serve_concurrency, w->target_tpot_ms,
                            w->serve_concurrency * 1000 / w->target_tpot_ms,
                            w->serve_concurrency, w->target_tpot_ms, w->target_tokens_per_s,
                            w->target_tokens_per_s, w->serve_concurrency,
                            w->serve_concurrency * 1000 / w->target_tokens_per_s);
    if (serving && strcmp(w->sharding, "none"))
        return gw_error_set(err, GW_EDATA,
                            "%s: sharding: ZeRO shards training state; serving splits a model "
                            "too large for one GPU by tensor parallelism, which the decision "
                            "chooses",
                            file);
    return GW_OK;
}

static const field *field_named(const field *fields, const char *name)
{
    while (strcmp(fields->name, name))
        fields++;
    return fields;
}

/* One kind of work, and a benchmark wherever the work needs one (a language model's speed has
 * a stated model when no benchmark is named). */
static int check_work(const char *file, workload *w, gw_error *err)
{
    int llm = workload_is_llm(w);
    if (w->work_hours_on && isnan(w->work_hours))
        return missing(err, file, "work.hours", field_named(work_fields, "hours"));
    if ((!isnan(w->work_samples) + !isnan(w->work_tokens) + (w->work_hours_on != NULL)) > 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: work: give one of samples, tokens or hours_on with hours", file);
    if (!isnan(w->work_hours) && !w->work_hours_on)
        return gw_error_set(err, GW_EDATA, "%s: work.hours_on: missing (hours on which GPU?)",
                            file);
    if (!workload_is_job(w) && w->work_runs != 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: work: runs of what? (give samples, tokens or hours_on with "
                            "hours)", file);
    if (!isnan(w->work_tokens) && !llm)
        return gw_error_set(err, GW_EDATA,
                            "%s: work.tokens: tokens are a language model's work (model = "
                            "\"llama-3-8b\"); give samples for another model",
                            file);
    if (llm && !isnan(w->work_samples))
        return gw_error_set(err, GW_EDATA,
                            "%s: work.samples: a language model's work is in tokens (work = { "
                            "tokens = ... })",
                            file);
    if (llm && w->work_hours_on)
        return gw_error_set(err, GW_EDATA,
                            "%s: work.hours_on: a language model's speed is modelled per GPU; "
                            "give its work in tokens (work = { tokens = ... })",
                            file);
    if (!llm && !w->benchmark && !w->work_hours_on)
        return gw_error_set(err, GW_EDATA,
                            "%s: benchmark: missing (name the KB's measured results, e.g. "
                            "\"resnet50\", or give work = { hours_on = GPU, hours = N })",
                            file);
    if (!isnan(w->work_samples) && !w->benchmark)
        return gw_error_set(err, GW_EDATA,
                            "%s: benchmark: missing (work.samples needs a benchmark that "
                            "measures samples per second)",
                            file);
    return GW_OK;
}

static int check_deadline(const char *file, workload *w, gw_error *err)
{
    if (isnan(w->deadline_days))
        return GW_OK;
    if (!workload_is_job(w))
        return gw_error_set(err, GW_EDATA,
                            "%s: deadline_days: a deadline needs work = { ... } to finish", file);
    if (w->deadline_days > w->horizon_months * COST_DAYS_PER_MONTH)
        return gw_error_set(err, GW_EDATA,
                            "%s: deadline_days: %g days is past the horizon (%g month%s = %g "
                            "days)",
                            file, w->deadline_days, w->horizon_months,
                            w->horizon_months == 1 ? "" : "s",
                            w->horizon_months * COST_DAYS_PER_MONTH);
    return GW_OK;
}

int workload_is_job(const workload *w)
{
    return !isnan(w->work_samples) || !isnan(w->work_tokens) || !isnan(w->work_hours);
}

double workload_hours_available(const workload *w)
{
    double days = !isnan(w->deadline_days) ? w->deadline_days
                                           : w->horizon_months * COST_DAYS_PER_MONTH;
    return w->hours_per_day * days;
}

/* ---- reading: one function per type; v is the value present in the file (not null) ---- */

/* Rejects keys that name no field, suggesting the nearest known name. */
static int check_keys(const char *file, const char *prefix, const view *map,
                      const field *fields, gw_error *err)
{
    for (size_t i = 0; i < view_len(map); i++) {
        const char *key = view_map_key_at(map, i);
        const char *nearest = NULL;
        size_t nearest_d = 3;   /* suggest only names within two edits */
        const field *f;
        for (f = fields; f->name; f++) {
            if (f->type == FIELD_FILE)
                continue;
            if (!strcmp(key, f->name))
                break;
            size_t d = gw_edit_distance(key, f->name);
            if (d < nearest_d) {
                nearest_d = d;
                nearest = f->name;
            }
        }
        if (f->name)
            continue;
        if (nearest)
            return gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field (did you mean %s%s?)",
                                file, prefix, key, prefix, nearest);
        return gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field", file, prefix, key);
    }
    return GW_OK;
}

static int read_fields(const char *file, const char *prefix, const view *map,
                       const field *fields, workload *w, gw_error *err);

static int read_number(const char *file, const char *name, const field *f, const view *v,
                       double *out, gw_error *err)
{
    double n = view_num(v);
    if (view_kind(v) != VIEW_NUMBER || !isfinite(n) || n < f->lo || n > f->hi ||
        (f->whole && n != floor(n)))
        return bad_value(err, file, name, f, v);
    *out = n;
    return GW_OK;
}

static int read_text(const char *file, const char *name, const field *f, const view *v,
                     char **out, gw_error *err)
{
    const char *s = view_str(v);
    if (!s || !*s)
        return bad_value(err, file, name, f, v);
    if (f->choices) {
        size_t i = 0;
        while (f->choices[i] && strcmp(s, f->choices[i]))
            i++;
        if (!f->choices[i])
            return bad_value(err, file, name, f, v);
    }
    *out = gw_xstrdup(s);
    return GW_OK;
}

static int read_currency(const char *file, const char *name, const field *f, const view *v,
                         char out[4], gw_error *err)
{
    const char *s = view_str(v);
    if (!s || !units_is_currency(s))
        return bad_value(err, file, name, f, v);
    memcpy(out, s, 4);
    return GW_OK;
}

static int read_names(const char *file, const char *name, const field *f, const view *v,
                      char ***out, size_t *count, gw_error *err)
{
    if (view_kind(v) != VIEW_LIST || view_len(v) == 0)
        return bad_value(err, file, name, f, v);
    *out = gw_xcalloc(view_len(v), sizeof **out);
    for (size_t i = 0; i < view_len(v); i++) {
        const view *item = view_list_at(v, i);
        if (view_kind(item) != VIEW_STRING || !*view_str(item)) {
            gw_buf item_name = GW_BUF_INIT;
            buf_printf(&item_name, "%s[%zu]", name, i + 1);
            bad(err, file, buf_cstr(&item_name), f->expected_item, item);
            buf_free(&item_name);
            return GW_EDATA;
        }
        (*out)[(*count)++] = gw_xstrdup(view_str(item));
    }
    return GW_OK;
}

/* The fields of a table (map NULL when it is absent), named "name.field" in messages. */
static int read_table(const char *file, const char *name, const field *f, const view *map,
                      workload *w, gw_error *err)
{
    gw_buf prefix = GW_BUF_INIT;
    buf_printf(&prefix, "%s.", name);
    int rc = read_fields(file, buf_cstr(&prefix), map, f->fields, w, err);
    buf_free(&prefix);
    return rc;
}

/* An absent field takes its fallback; an absent table reads as an empty one, so its fields
 * take theirs. */
static void read_fallback(const field *f, void *slot)
{
    switch (f->type) {
    case FIELD_NUMBER:
        *(double *)slot = f->fallback ? strtod(f->fallback, NULL) : NAN;
        break;
    case FIELD_TEXT:
        *(char **)slot = f->fallback ? gw_xstrdup(f->fallback) : NULL;
        break;
    case FIELD_BOOL:
        *(int *)slot = f->fallback && !strcmp(f->fallback, "true");
        break;
    default:
        break;   /* currency is required; names stay NULL; tables are read as empty */
    }
}

static int read_field(const char *file, const char *name, const field *f, const view *v,
                      workload *w, gw_error *err)
{
    void *slot = (char *)w + f->at;
    if (f->type == FIELD_FILE) {
        *(char **)slot = gw_xstrdup(file);
        return GW_OK;
    }
    if (f->type == FIELD_TABLE && view_kind(v) == VIEW_LIST && view_len(v) == 0)
        v = NULL;   /* Lua's {} comes back as an empty list */
    if (view_is_null(v)) {
        if (f->required)
            return missing(err, file, name, f);
        read_fallback(f, slot);
        return f->type == FIELD_TABLE ? read_table(file, name, f, NULL, w, err) : GW_OK;
    }
    if (f->type == FIELD_TABLE && f->shorthand && view_kind(v) == VIEW_STRING) {
        view *table = view_map();   /* model = "x" reads as model = { name = "x" } */
        view_map_set_str(table, f->shorthand, view_str(v));
        int rc = read_table(file, name, f, table, w, err);
        view_free(table);
        return rc;
    }
    switch (f->type) {
    case FIELD_NUMBER:
        return read_number(file, name, f, v, slot, err);
    case FIELD_TEXT:
        return read_text(file, name, f, v, slot, err);
    case FIELD_CURRENCY:
        return read_currency(file, name, f, v, slot, err);
    case FIELD_BOOL:
        if (view_kind(v) != VIEW_BOOL)
            return bad_value(err, file, name, f, v);
        *(int *)slot = view_bool_value(v);
        return GW_OK;
    case FIELD_NAMES:
        return read_names(file, name, f, v, slot, (size_t *)((char *)w + f->count_at), err);
    case FIELD_TABLE:
        if (view_kind(v) != VIEW_MAP)
            return bad_value(err, file, name, f, v);
        return read_table(file, name, f, v, w, err);
    case FIELD_FILE:
        break;
    }
    return GW_OK;
}

/* Reads every field of one table in order, each followed by the rule hung on it. */
static int read_fields(const char *file, const char *prefix, const view *map,
                       const field *fields, workload *w, gw_error *err)
{
    int rc = check_keys(file, prefix, map, fields, err);
    for (const field *f = fields; rc == GW_OK && f->name; f++) {
        gw_buf name = GW_BUF_INIT;
        buf_printf(&name, "%s%s", prefix, f->name);
        rc = read_field(file, buf_cstr(&name), f, view_map_get(map, f->name), w, err);
        buf_free(&name);
        if (rc == GW_OK && f->then)
            rc = f->then(file, w, err);
    }
    return rc;
}

static void free_fields(const field *fields, workload *w)
{
    for (const field *f = fields; f->name; f++) {
        void *slot = (char *)w + f->at;
        if (f->type == FIELD_TEXT || f->type == FIELD_FILE) {
            free(*(char **)slot);
        } else if (f->type == FIELD_NAMES) {
            char **names = *(char ***)slot;
            size_t count = *(size_t *)((char *)w + f->count_at);
            for (size_t i = 0; i < count; i++)
                free(names[i]);
            free(names);
        } else if (f->type == FIELD_TABLE) {
            free_fields(f->fields, w);
        }
    }
}

void workload_free(workload *w)
{
    if (!w)
        return;
    free_fields(top_fields, w);
    free(w->model_id);
    free(w->model_title);
    free(w->model_source);
    free(w);
}

/* Reads and checks the fields of t; catalog (may be NULL) resolves a model named by name. */
static int workload_read(const char *file, const view *t, kb *catalog, workload **out,
                         gw_error *err)
{
    *out = NULL;
    if (view_kind(t) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA, "%s: a workload file returns a table (return { ... })",
                            file);
    workload *w = gw_xcalloc(1, sizeof *w);
    w->catalog = catalog;
    int rc = read_fields(file, "", t, top_fields, w, err);
    if (rc == GW_OK)
        rc = check_architecture(file, w, err);
    w->catalog = NULL;
    if (rc != GW_OK) {
        workload_free(w);
        return rc;
    }
    *out = w;
    return GW_OK;
}

int workload_from_view(const char *file, const view *t, workload **out, gw_error *err)
{
    return workload_read(file, t, NULL, out, err);
}

/* The catalog's figures for the model the workload names, each where the workload gives none
 * of its own (run as model's rule, so that every later field is read knowing the model). */
static int resolve_model(const char *file, workload *w, gw_error *err)
{
    if (!w->model_name || !w->catalog)
        return GW_OK;
    kb_model m;
    int rc = kb_model_resolve(w->catalog, w->model_name, &m, err);
    if (rc != GW_OK) {
        gw_error_prefix(err, "%s: model", file);
        return GW_EDATA;
    }
    w->model_id = gw_xstrdup(m.id);
    w->model_title = gw_xstrdup(m.name);
    w->model_source = gw_xstrdup(m.source);
    const struct {
        double *slot, value;
    } take[] = {
        {&w->params, m.params},     {&w->active_params, m.active_params},
        {&w->layers, m.layers},     {&w->hidden, m.hidden},
        {&w->heads, m.heads},       {&w->kv_heads, m.kv_heads},
        {&w->head_dim, m.head_dim}, {&w->vocab, m.vocab},
        {&w->context, m.context},   {&w->ffn, m.ffn},
        {&w->experts, m.experts},
    };
    for (size_t i = 0; i < sizeof take / sizeof take[0]; i++)
        if (isnan(*take[i].slot))
            *take[i].slot = take[i].value;
    kb_model_free(&m);
    return GW_OK;
}

/* What only the whole architecture can check, once every field is read: a language model given
 * field by field gives all of it; sequences and requests fit its context. */
static int check_architecture(const char *file, workload *w, gw_error *err)
{
    if (!workload_is_llm(w))
        return GW_OK;
    const struct {
        const char *name;
        double value;
    } need[] = {{"params", w->params},     {"layers", w->layers},     {"hidden", w->hidden},
                {"heads", w->heads},       {"kv_heads", w->kv_heads}, {"head_dim", w->head_dim},
                {"vocab", w->vocab}};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (isnan(need[i].value))
            return gw_error_set(err, GW_EDATA,
                                "%s: model.%s: missing (a language model given field by field "
                                "needs params, layers, hidden, heads, kv_heads, head_dim and "
                                "vocab; or name one of the catalog: model = \"llama-3-8b\")",
                                file, need[i].name);
    if (w->kv_heads > w->heads)
        return gw_error_set(err, GW_EDATA, "%s: model.kv_heads: %g is more than heads (%g)", file,
                            w->kv_heads, w->heads);
    if (isnan(w->sequence_length))
        w->sequence_length = !isnan(w->context) && w->context < 2048 ? w->context : 2048;
    if (!isnan(w->context) && w->sequence_length > w->context)
        return gw_error_set(err, GW_EDATA,
                            "%s: sequence_length: %g tokens is longer than the model's context "
                            "(%g)", file, w->sequence_length, w->context);
    if (!isnan(w->context) && !isnan(w->serve_context) &&
        w->serve_context + w->serve_output > w->context)
        return gw_error_set(err, GW_EDATA,
                            "%s: inference: context + output_tokens = %g tokens is longer than "
                            "the model's context (%g)",
                            file, w->serve_context + w->serve_output, w->context);
    return GW_OK;
}

int workload_load(const char *path, kb *k, workload **out, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int e = gw_read_input(path, GW_INPUT_WORKLOAD, &text, &len, err);
    if (e)
        return e;
    view *table = NULL;
    int rc = plugin_eval_text(path, text, len, kb_answer_question, k, NULL, &table, err);
    free(text);
    if (rc != GW_OK) {
        /* A Lua error in a workload file is bad input, not a broken plugin. */
        if (rc == GW_ESOFTWARE)
            err->code = rc = GW_EDATA;
        return rc;
    }
    rc = workload_read(path, table, k, out, err);
    view_free(table);
    return rc;
}

/* ---- views ---- */

static void view_fields(view *map, const field *fields, const workload *w)
{
    for (const field *f = fields; f->name; f++) {
        const void *slot = (const char *)w + f->at;
        switch (f->type) {
        case FIELD_NUMBER:
            view_map_set_num(map, f->name, *(const double *)slot);
            break;
        case FIELD_TEXT:
        case FIELD_FILE:
            view_map_set_str(map, f->name, *(char *const *)slot);
            break;
        case FIELD_CURRENCY:
            view_map_set_str(map, f->name, (const char *)slot);
            break;
        case FIELD_BOOL:
            view_map_set_bool(map, f->name, *(const int *)slot);
            break;
        case FIELD_NAMES: {
            char *const *names = *(char **const *)slot;
            if (!names) {
                view_map_set(map, f->name, view_null());
                break;
            }
            view *list = view_map_set(map, f->name, view_list());
            size_t count = *(const size_t *)((const char *)w + f->count_at);
            for (size_t i = 0; i < count; i++)
                view_list_push(list, view_string(names[i]));
            break;
        }
        case FIELD_TABLE:
            view_fields(view_map_set(map, f->name, view_map()), f->fields, w);
            break;
        }
    }
}

/* The sentence every report carries: which kind of workload this is and what that means for
 * the costs. */
static void workload_describe_kind(gw_buf *b, const workload *w)
{
    gw_buf hours = GW_BUF_INIT;
    view_format_number(&hours, workload_hours_available(w), 0);
    if (workload_is_job(w)) {
        buf_printf(b, "A job: %g run%s of ", w->work_runs, w->work_runs == 1 ? "" : "s");
        if (!isnan(w->work_samples)) {
            view_format_number(b, w->work_samples, 0);
            buf_puts(b, " samples");
        } else if (!isnan(w->work_tokens)) {
            view_format_number(b, w->work_tokens, 0);
            buf_puts(b, strcmp(w->task, "inference") ? " tokens trained on"
                                                     : " tokens generated");
        } else {
            buf_printf(b, "%g h on %s", w->work_hours, w->work_hours_on);
        }
        if (!isnan(w->deadline_days))
            buf_printf(b, ", due within %g days", w->deadline_days);
        else
            buf_printf(b, ", due within the %g-month horizon", w->horizon_months);
        buf_printf(b, " (%s h of running at %g h a day). An option that cannot finish in those "
                      "hours is out; a rental is paid for the hours the runs take, a purchase "
                      "pays its electricity for those hours and its hardware less resale.",
                   buf_cstr(&hours), w->hours_per_day);
    } else {
        buf_printf(b, "Capacity: the hardware is used %g h a day for %g months (%s h); buying "
                      "and renting are both costed for those hours.",
                   w->hours_per_day, w->horizon_months, buf_cstr(&hours));
    }
    buf_free(&hours);
}

view *workload_to_view(const workload *w)
{
    view *v = view_map();
    view_fields(v, top_fields, w);
    view_map_set_str(v, "kind", workload_is_job(w) ? "job" : "capacity");
    gw_buf b = GW_BUF_INIT;
    workload_describe_kind(&b, w);
    view_map_set_str(v, "kind_text", buf_cstr(&b));
    buf_free(&b);
    return v;
}

static const char *const type_names[] = {
    [FIELD_NUMBER] = "number", [FIELD_TEXT] = "text",   [FIELD_CURRENCY] = "currency",
    [FIELD_BOOL] = "boolean",  [FIELD_NAMES] = "list of texts", [FIELD_TABLE] = "table",
    [FIELD_FILE] = "file",
};

static void describe_fields(view *list, const char *prefix, const field *fields)
{
    for (const field *f = fields; f->name; f++) {
        if (f->type == FIELD_FILE)
            continue;
        view *d = view_list_push(list, view_map());
        view_map_set(d, "name", view_stringf("%s%s", prefix, f->name));
        view_map_set_str(d, "type", type_names[f->type]);
        view_map_set_bool(d, "required", f->required);
        if (f->type == FIELD_NUMBER) {
            view_map_set_num(d, "min", f->lo);
            view_map_set_num(d, "max", f->hi);
        }
        if (f->choices) {
            view *choices = view_map_set(d, "choices", view_list());
            for (size_t i = 0; f->choices[i]; i++)
                view_list_push(choices, view_string(f->choices[i]));
        }
        view_map_set_str(d, "default", f->fallback);
        view_map_set_str(d, "unit", f->unit);
        gw_buf expected = GW_BUF_INIT;
        describe_expected(&expected, f);
        view_map_set_str(d, "expected", buf_cstr(&expected));
        buf_free(&expected);
        view_map_set_str(d, "help", f->help);
        if (f->type == FIELD_TABLE) {
            gw_buf sub = GW_BUF_INIT;
            buf_printf(&sub, "%s%s.", prefix, f->name);
            describe_fields(list, buf_cstr(&sub), f->fields);
            buf_free(&sub);
        }
    }
}

view *workload_fields_to_view(void)
{
    view *list = view_list();
    describe_fields(list, "", top_fields);
    return list;
}
