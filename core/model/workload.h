/* workload.h — a workload description: a Lua file evaluated in the plugin sandbox that returns
 * one table (what is trained, how much, how often, with what money), validated field by field
 * into a plain struct.  Errors name the file, the field and what was expected. */
#ifndef GW_WORKLOAD_H
#define GW_WORKLOAD_H

#include <stddef.h>

#include "base/error.h"
#include "kb/kb.h"
#include "base/view.h"

typedef struct workload {
    kb *catalog;                /* borrowed while the file is read (names a model), then NULL */
    char *path;                 /* as given; used in messages */
    char *name;
    char *task;                 /* train | finetune | inference */
    /* the model: params-based estimate, or a measured peak; a language model also its
     * architecture, from the KB's catalog (model.name) or given field by field */
    char *model_name;           /* a catalog model as written; NULL unless model.name */
    char *model_id;             /* the catalog's id once resolved (workload_load) */
    char *model_title;          /* ... its name ("Llama 3 70B") and the source it cites */
    char *model_source;
    double params;              /* NaN unless model.params */
    double active_params, layers, hidden, heads, kv_heads, head_dim, ffn, experts, vocab,
        context, experts_active;
    double attention_head_dim;  /* NaN: head_dim (kb.h's kb_model says what it is) */
    double decode_attention_head_dim;   /* NaN: head_dim (kb.h's kb_model says what it is) */
    char *precision;            /* a name of precision.h's table (not nf4) */
    char *optimizer;            /* a name of optimizer.h's table */
    double activations_gb;      /* 0 unless given */
    double vram_gb;             /* NaN unless given (overrides the estimate) */
    double batch_per_gpu;       /* NaN: the model's default */
    char *benchmark;            /* KB workload key, NULL when none */
    /* language models: how it is trained or served */
    char *finetune_method;      /* full | lora | qlora */
    double lora_rank;
    char *sharding;             /* none | zero1 | zero2 | zero3 */
    char *activation_checkpointing;   /* none | selective | full */
    double sequence_length;     /* tokens per training sequence */
    double serve_context, serve_output, serve_concurrency;   /* inference.* */
    double target_tokens_per_s, target_tpot_ms, target_ttft_ms;   /* NaN: no target */
    /* serving demand (decide_demand.c): requests_per_s sets target_tokens_per_s (x
     * output_tokens); utilisation a busy share of what is provisioned instead; NaN unless given */
    double serve_requests_per_s, serve_utilisation;
    /* An open load (workload_fields.c): requests arriving a second, requests_per_s, or
     * tokens_per_s / output_tokens where no concurrency is stated; the requests in flight
     * follow from it (decide_llm_layout.c).  NaN: concurrency states them.  Under one,
     * serve_inflight_cap is inference.concurrency, the most admitted in flight (NaN: none). */
    double serve_arrival_rate, serve_inflight_cap;
    double redundancy;          /* spare serving replicas beyond the demand's (0 unless given) */
    int production;             /* a production service: providers with an SLA, 2+ replicas */
    int server_room;            /* machines bought stand in a server room or data centre */
    /* the work: samples, or hours on a reference GPU */
    double work_samples;        /* NaN unless work.samples */
    double work_tokens;         /* NaN unless work.tokens (a language model's) */
    char *work_hours_on;        /* GPU name as written, NULL unless work.hours_on */
    double work_hours;          /* NaN unless work.hours */
    double work_runs;           /* how many times the work is done (1 unless work.runs) */
    double deadline_days;       /* NaN: the job has the whole horizon */
    int spot_ok;                /* spot (interruptible) offers may be options */
    int anecdotal_ok;           /* an offer priced only by an article may be recommended */
    double price_max_age_days;  /* a price observed longer ago than this is stale */
    int stale_ok;               /* a stale price may be recommended */
    char *parallelism;          /* data | model | none */
    double hours_per_day, horizon_months;
    char currency[4];
    char *region;               /* where cards are bought (prices of that region); NULL any */
    /* budget: one of three figures, as the buyer states it (budget = N is upfront) */
    double budget_upfront;      /* cash up front; NaN unless given */
    double budget_total;        /* everything paid over the horizon (a grant); NaN unless given */
    double budget_monthly;      /* a limit a month; NaN unless given */
    double budget;              /* the one given (NaN: no budget) ... */
    const char *budget_basis;   /* ... and which: "upfront", "total" or "monthly"; NULL none */
    double hours_needed_per_month;  /* capacity: card-hours of work a month; NaN: all the hours */
    char *hours_needed_on;      /* GPU name as written: the card those hours are of; NULL: each
                                 * option's own card */
    double electricity_price, pue;
    int used_ok;
    char *cooling;              /* good | poor */
    char **candidates;          /* NULL when absent: every GPU with a price */
    size_t n_candidates;
    /* ownership costs; NaN means the documented default */
    double host_cost;           /* per machine, in currency */
    double host_power_w;        /* per machine besides the cards */
    double cards_per_host;      /* how many cards one machine takes */
    double network_gbps;        /* between the machines of a multi-machine purchase, Gb/s */
    double cooling_cost;        /* one-off, per machine */
    double upkeep_hours_per_month, upkeep_rate;
    double resale_fraction;     /* of the card price, at the horizon */
    /* mixed work (workloads = { {...}, {...} }): each part is a whole workload, the file's
     * top-level fields under its own; NULL and 0 for one workload.  The workload itself then
     * holds the first part's fields under the file's name. */
    struct workload **parts;
    size_t n_parts;
    double site_power_kw;       /* power the buyer's room has for these machines; NaN: unstated */
    double support_fraction;    /* support and warranty a year, of the hardware's price */
    double discount_rate;       /* a year, for later payments and resale; NaN: not discounted */
    /* training a language model: the loss, and micro-batches an optimizer step */
    int fused_loss;             /* a fused, chunked cross-entropy (no full fp32 logits) */
    double gradient_accumulation;   /* micro-batches of batch_per_gpu sequences a step (1) */
} workload;

/* A job is a fixed amount of work (work.samples or work.hours, times work.runs) to finish
 * within the horizon or deadline_days; without work, the workload is capacity: the hardware is
 * used hours_per_day for horizon_months. */
int workload_is_job(const workload *w);
/* Whether a capacity workload states the hours it needs (hours_needed_per_month): its options
 * are costed for those hours, not for every hour they could run. */
int workload_has_need(const workload *w);
/* The need in words, appended to b: "200 hours a month of each option's own card (...)", or with
 * hours_needed_on "200 hours a month on <on_name> (<on_speed> on it; each option costed ...)"
 * (on_name: the card's name as the decision resolved it, NULL: as written; on_speed: its speed
 * in words, NULL: unsaid).  The one place the need is worded. */
void workload_need_words(gw_buf *b, const workload *w, const char *on_name,
                         const char *on_speed);
/* Whether the model is a language model (a catalog name, or its layers given): its work is in
 * tokens and its memory and speed come from model_llm.c. */
int workload_is_llm(const workload *w);
/* Whether w serves a language model (task = "inference"): its work is tokens generated. */
int workload_is_serving(const workload *w);
/* The ZeRO stage of w->sharding (0 for none). */
int workload_zero_stage(const workload *w);
/* Hours the work may run: hours_per_day x (deadline_days, else 30 x horizon_months). */
double workload_hours_available(const workload *w);

/* Reads path, evaluates it in the sandbox (k may be NULL) and validates it.  Caller frees *out
 * with workload_free.  GW_ENOINPUT (unreadable), GW_EDATA (bad Lua or a bad field). */
int workload_load(const char *path, kb *k, workload **out, gw_error *err);
/* Validates a table already evaluated; name is used in messages. */
int workload_from_view(const char *name, const view *table, workload **out, gw_error *err);
void workload_free(workload *w);

/* The workload as the rules and the report see it: every field, defaults filled where the
 * struct has them.  Caller owns the view. */
view *workload_to_view(const workload *w);

/* Every field a workload file may hold, as documentation would list it: a list of maps with
 * name ("model.params"), type, required, min, min_excluded (whether min itself is out) and max
 * (numbers), choices, default (as the file
 * would write it; null when the decision chooses or there is none), unit, expected (as error
 * messages put it), help and tasks (the values of `task` it concerns; null: every task).
 * Caller owns the view. */
view *workload_fields_to_view(void);

#endif
