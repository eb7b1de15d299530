/* decide_private.h — what the decision's files share and nothing outside them sees: the state of
 * one decision (with the figures it assumes, read from the KB), the helpers every stage uses,
 * and one entry point per stage.  decide.c runs the stages in order:
 *   decide_options.c  the options (buy new, buy used; decide_rent.c: rent the cheapest offers)
 *   decide_speed.c    the model stage: memory fit and speed of each option
 *   decide_cost.c     money: prices in the workload's currency, each option's cost
 *   decide_rules.c    the rule plugins' verdicts and what they weigh in the ranking
 *   decide_whatif.c   break-even against renting, and sensitivity to each input
 *   decide_view.c     the view model (also what --json prints), and the option's fields */
#ifndef GW_DECIDE_PRIVATE_H
#define GW_DECIDE_PRIVATE_H

#include <stddef.h>
#include <string.h>

#include "base/buf.h"
#include "decide.h"
#include "model/model.h"

/* Cards one host machine takes when the workload does not say (cards_per_host): a desktop board
 * has room for four double-width consumer cards, a data-centre server for eight. */
#define DECIDE_CONSUMER_PER_HOST 4
#define DECIDE_SERVER_PER_HOST 8
/* The most machines one purchased option spans (a rented one: instances): several hosts are
 * tried only as whole machines, for data parallelism, over the network between them. */
#define DECIDE_MAX_HOSTS 4

/* Of the cloud offers for one GPU and card count, only the cheapest offer of each of this many
 * providers (cheapest first) become options: a catalogue of thousands of offers otherwise
 * floods the rules and the report with near-identical rentals (the method says so). */
#define DECIDE_RENT_OFFERS_PER_CONFIG 3

/* Cost per unit of work is per this many samples: the report's "per 1M images". */
#define DECIDE_WORK_UNIT_SAMPLES 1e6
#define DECIDE_WORK_UNIT_PREFIX "1M"

/* ---- the state of one decision ---- */

/* A candidate that became no option, or a cloud offer left out, and why (issue 13: nothing is
 * left out silently).  reason is one of the DECIDE_OMIT_* texts, by which the report groups. */
#define DECIDE_OMIT_NO_PRICE "no price"
#define DECIDE_OMIT_NO_OFFER "no cloud offer (a candidate to rent only)"
#define DECIDE_OMIT_USED_ONLY "only a used price (set used_ok = true)"
#define DECIDE_OMIT_SPOT "spot price (set spot_ok)"
#define DECIDE_OMIT_UNKNOWN "unknown name"
#define DECIDE_OMIT_NOT_WHOLE "SXM and OAM modules are bought as whole servers: not that count"
#define DECIDE_OMIT_MODULE "a bare module's price (SXM and OAM modules are bought in 4- or 8-GPU servers)"

typedef struct decide_omission {
    char *gpu;                   /* the GPU's id; NULL for an unknown name */
    char *name;                  /* the GPU's name, or the candidate as written */
    char *offer;                 /* a cloud offer's "provider, instance"; NULL for a GPU */
    const char *reason;          /* a DECIDE_OMIT_* text */
} decide_omission;

typedef struct decide_rate {
    char *currency;
    double factor;               /* one unit of currency in the workload's currency */
    char *as_of;                 /* the older of the two rates' dates; NULL unknown */
    int cite;                    /* citation of the rates' source */
} decide_rate;

struct decision {
    kb *k;
    workload *w;
    kb_gpu *gpus;                /* in id order (kb_gpu_list sorts by id) */
    size_t n_gpus;
    kb_benchmark *bench;         /* the workload's benchmark, precision class filtered */
    size_t n_bench;
    unsigned char *measured_one; /* per GPU: 0 not looked at, 1 has single-card results, 2 not */
    signed char *bench_tier;     /* per bench row: how far its source is trusted (decide_speed.c) */
    model_calibration spec_loo;  /* decide_spec_loo_calibration, run once after the speeds */
    kb_price *prices;            /* the prices to buy (new and used); cloud offers are read
                                  * cheapest first by decide_rent.c */
    size_t n_prices;
    kb_system *systems;          /* every system of the KB, by id */
    size_t n_systems;
    decide_rate *rates;          /* the currencies converted so far */
    size_t n_rates;
    char **cite_ids;             /* citation n is cite_ids[n - 1] */
    size_t n_cites;
    model_memory memory;         /* one replica on one GPU (a language model: per option too) */
    double gradient_bytes;
    /* a language model (decide_llm.c) */
    model_llm llm;
    model_llm_setup llm_setup;
    double llm_mfu;              /* training's utilisation: calibrated or assumed; NaN unknown */
    int llm_mfu_rows;            /* measured rows it was calibrated on (0: assumed) */
    int llm_cite;                /* citation of the catalog model's source; 0 none */
    /* The figures the engine falls back on where the workload leaves out a host machine's
     * cost and power or the resale value, and where the model needs a figure no measurement
     * gives (the PCIe all-reduce rate, heat throttling): the KB's assumption rows, indexed by
     * kb_assumed, all read by decide_run before anything is priced. */
    kb_assumption facts[KB_ASSUMED_COUNT];
    int fact_cite[KB_ASSUMED_COUNT];   /* citation of each assumed figure used; 0 none */
    char *unit;                  /* "images/s", or "x RTX 3090" without a benchmark */
    char *work_unit;             /* "1M images", "RTX 3090-hour" */
    double unit_size;            /* samples in one work unit (1e6), or 1 */
    double reference_speed;      /* hours_on: throughput of one reference card */
    const kb_gpu *reference;
    decide_option *options;
    size_t n_options, cap_options;
    size_t rent_read;            /* cloud offers read to find the ones compared (decide_rent.c) */
    unsigned char *rent_walked;  /* per GPU: its cloud offers read (rent:X, then rent:*) */
    decide_omission *omitted;    /* what was not considered, in the order found */
    size_t n_omitted;
    gw_error unknown_candidate;  /* the first unknown candidate's error (code 0: none) */
    decide_option **ranked;
    view *trace;
    view *break_even;
    view *cumulative;            /* the buy-vs-rent series and break-even marker, for the chart */
    view *sensitivity;
    view *because;               /* the recommendation's reasons, strongest first */
};

/* ---- helpers every stage uses (decide.c) ---- */

static inline int decide_str_eq(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* Equal, counting NULL and "" as the same (an absent provider or instance). */
static inline int decide_text_same(const char *a, const char *b)
{
    return !strcmp(a ? a : "", b ? b : "");
}

/* Exchange rates older than this many days are flagged as old (prices: the workload's
 * price_max_age_days). */
#define DECIDE_RATE_MAX_AGE_DAYS 30

/* Records when o's price was observed and how old that is today. */
void decide_option_dated(decide_option *o, const char *as_of);

/* A line of the trace (when one is kept: DECIDE_TRACE). */
void decide_trace(decision *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The citation number of a KB source row (numbered in order of first use); 0 for none. */
int decide_cite(decision *d, const char *source);
/* The citation of an assumed figure, remembered for the assumptions it appears in. */
int decide_fact_cite(decision *d, kb_assumed fact);
void decide_option_cite(decision *d, decide_option *o, const char *source);
/* The median of v[0..n) (sorted in place; NaN when n is 0). */
double decide_median(double *v, size_t n);
const kb_gpu *decide_gpu_find(const decision *d, const char *id);
const kb_system *decide_system_find(const decision *d, const char *id);
/* Whether g is sold as a card (PCIe, or the form is unknown); else only in servers or systems. */
int decide_gpu_sold_as_card(const kb_gpu *g);
int decide_gpu_is_consumer(const kb_gpu *g);
int decide_precision_is_half(const char *precision);
const char *decide_acquisition_name(decide_acquisition a);
/* "used 4x GeForce RTX 3090", "rent 1x NVIDIA A100 SXM4 40GB (Lambda, gpu_1x_a100_sxm4)";
 * shortened labels (charts) leave the instance out. */
void decide_option_label(gw_buf *b, const decide_option *o, int shortened);

/* ---- the stages, in the order decide_run calls them ---- */

/* decide_options.c: every option the workload's candidates allow, priced; every candidate GPU
 * without one, and every cloud offer left out, into d->omitted.  decide_omit records one (gpu
 * NULL: an unknown name; offer NULL: the GPU itself); the strings are copied. */
int decide_options_enumerate(decision *d, gw_error *err);
void decide_omit(decision *d, const kb_gpu *gpu, const char *name, const char *offer,
                 const char *reason);
/* A new option of d (zeroed, its figures NaN); whether d has an option of that id; whether
 * options may span several machines (data parallelism, with a step time to weigh the network
 * against). */
decide_option *decide_option_new(decision *d, const kb_gpu *g, int count, decide_acquisition a);
int decide_has_option(const decision *d, const char *id);
int decide_multi_host_ok(const decision *d);
/* decide_rent.c: the options to rent gpu (NULL: every GPU) from its cheapest cloud offers. */
int decide_rent_options(decision *d, const char *gpu, gw_error *err);

/* decide_speed.c: memory fit, then throughput, of one option; the single-card speed of g
 * (measured, else scaled from the nearest measured GPU; NaN none), how saying how (may be
 * NULL), o receiving the citations (may be NULL). */
void decide_option_fit(decision *d, decide_option *o);
double decide_option_memory_gb(const decide_option *o);
void decide_option_speed(decision *d, decide_option *o);
double decide_single_card_speed(decision *d, decide_option *o, const kb_gpu *g, int *measured,
                                gw_buf *how);
/* Samples per GPU per step: the workload's, else the model's default. */
double decide_batch_per_gpu(const workload *w);

/* decide_llm.c: a language model's setup (once, in place of the memory estimate), each
 * option's fit (tensor-parallel GPUs a replica, memory per GPU) and speed in tokens/s (how
 * appended to how), the serving target an option misses (NULL: none; caller frees), and the
 * tokens one GPU processes a training step. */
int decide_llm_setup(decision *d, gw_error *err);
void decide_llm_fit(decision *d, decide_option *o);
void decide_llm_speed(decision *d, decide_option *o, gw_buf *how);
char *decide_llm_target_missed(const decision *d, const decide_option *o);
double decide_llm_tokens_per_step(const workload *w);
/* The report's words on the model, its setup, and the recommendation's memory per GPU and
 * serving figures (caller owns the view); the method's lines in place of the image-model ones. */
view *decide_llm_view(const decision *d);
void decide_llm_method(const decision *d, view *method);

/* decide_cost.c: amount in currency, in the workload's currency (the rate is remembered and
 * cited); an option's cost, time to finish and cost per unit of work. */
int decide_convert(decision *d, double amount, const char *currency, double *out,
                   gw_error *err);
void decide_option_cost(decision *d, decide_option *o);
void decide_money(gw_buf *b, const decision *d, double amount);
void decide_money_per_unit(gw_buf *b, const decision *d, double amount);

/* decide_rules.c: every rule's verdicts on every option (host NULL: none); the factor the
 * verdicts put on an option's cost per unit in the ranking. */
int decide_rules_run(decision *d, plugin_host *host, gw_error *err);
double decide_rules_adjustment(const decide_option *o);
/* How far the scaling model's data-parallel efficiency is from every measured multi-GPU result
 * of the KB that has a single-card result of the same GPU (decide_speed.c). */
int decide_scaling_calibration(const decision *d, model_calibration *out, gw_error *err);
/* How far the specification scaling is from the KB's one-card measurements, over every pair of
 * one vendor's GPUs measured on one benchmark in the workload's precision class (error in
 * percent of the measured ratio, in mean_error_pp and max_error_pp). */
int decide_spec_calibration(const decision *d, model_calibration *out, gw_error *err);
/* The same test of what the decision does: each GPU measured with the workload's benchmark,
 * scaled from the measured GPU most like it as if it had no result of its own. */
int decide_spec_loo_calibration(decision *d, model_calibration *out);
/* workload.context as the rules see it (caller owns the view). */
view *decide_rule_context(const decision *d);

/* decide_whatif.c: the best purchase against the best rental; each input's sway. */
void decide_break_even(decision *d);
void decide_sensitivity(decision *d);

/* decide_view.c: the recommendation's reasons (into d->because); the view of one option, as
 * --json prints it or as a rule sees it (both from decide_option_fields); the money and figure
 * pairs ("total" and "total_text") every view uses. */
void decide_reasons(decision *d);
typedef enum { DECIDE_VIEW_JSON, DECIDE_VIEW_RULE } decide_audience;
view *decide_option_view(const decision *d, const decide_option *o, decide_audience who);
void decide_set_money(view *m, const decision *d, const char *key, double amount);
void decide_set_figure(view *m, const char *key, double n, int decimals, const char *suffix);

/* The fields of a view described once: the option (decide_view.c) and workload.context
 * (decide_rules.c) are each a table of these, and their views, the rule contract in
 * plugins/README.md and its test derive from the table. */
typedef enum {
    DECIDE_FIELD_STRING,
    DECIDE_FIELD_INTEGER,
    DECIDE_FIELD_BOOLEAN,
    DECIDE_FIELD_NUMBER,
    DECIDE_FIELD_FIGURE,          /* a number and NAME_text: decimals and suffix */
    DECIDE_FIELD_MONEY,           /* a number and NAME_text in the workload's currency */
    DECIDE_FIELD_MONEY_PER_UNIT,  /* the same, with three decimals under one unit */
    DECIDE_FIELD_LIST             /* built by the getter */
} decide_field_kind;

/* What a rule sees of a field. */
typedef enum {
    DECIDE_RULE_HIDDEN,           /* nothing: the report's explanations, the ranking */
    DECIDE_RULE_VALUE,            /* the value alone (for a figure: the number, no _text) */
    DECIDE_RULE_TEXT              /* the value and its NAME_text, as --json has them (but for
                                   * the rental wording: a rule sees "CNY 0.00", not "none") */
} decide_rule_sight;

/* What a getter gives: a number (integers and booleans too), a string, or a list. */
typedef struct decide_field_value {
    double number;
    const char *text;
    gw_buf owned;                 /* when the getter formatted the string */
    view *list;
} decide_field_value;

typedef void (*decide_field_get)(const decision *d, const void *record, decide_field_value *v);

#define DECIDE_FIELD_DECIMALS_BY_UNIT (-1)   /* 0 in a benchmark's units, 2 relative to a card */
#define DECIDE_FIELD_NO_OFFSET ((size_t)-1)

typedef struct decide_field {
    const char *group;            /* NULL, or the map it sits in ("cost") */
    const char *name;
    decide_field_kind kind;
    size_t offset;                /* of the value in the record; DECIDE_FIELD_NO_OFFSET: get */
    decide_field_get get;
    int decimals;                 /* FIGURE */
    const char *suffix;           /* FIGURE: " GB" */
    decide_rule_sight rule;
    unsigned flags;
    const char *rent_text;        /* MONEY in --json: the text for a rental ("none") */
} decide_field;

enum {
    DECIDE_FIELD_BUY_ONLY = 1,    /* left out for rentals */
    DECIDE_FIELD_OMIT_NAN = 2     /* left out when the number is NaN */
};

extern const decide_field decide_option_fields[];
extern const size_t decide_option_field_count;
extern const decide_field decide_context_fields[];
extern const size_t decide_context_field_count;

/* Writes the fields of record into map, as --json has them or as a rule sees them. */
void decide_fields_write(view *map, const decide_field *fields, size_t n, const decision *d,
                         const void *record, int is_rent, decide_audience who);

/* decide_groups.c: into root, the short forms the report's body reads: excluded_groups (the
 * options that fell out, grouped by reason) and rule_notes (each preference or warning once, with
 * the feasible options it was said of). */
void decide_groups_view(view *root, const decision *d);

#endif
