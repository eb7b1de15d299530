/* decide_common.h — what the decision's files share and nothing outside them sees: the state of
 * one decision (with the figures it assumes, read from the KB) and the helpers every stage uses
 * (decide_common.c), beneath the stages.  decide.c runs the stages in order; each has its own
 * header:
 *   decide_options.h  the options (buy new, buy used; decide_rent.h: rent the cheapest offers)
 *   decide_speed.h    the model stage: memory fit and speed of each option (decide_llm.h: a
 *                     language model's)
 *   decide_cost.h     money: prices in the workload's currency, each option's cost
 *   decide_rules.h    the rule plugins' verdicts (decide_fields.h: what a rule sees)
 *   decide_robust.h   the draws within price ranges and speed bands, and a close call
 *   decide_whatif.h   break-even against renting, and sensitivity to each input
 *   decide_view.h     the recommendation's reasons, and the view model (also what --json
 *                     prints; decide_view_method.h, decide_groups.h: parts of it) */
#ifndef GW_DECIDE_COMMON_H
#define GW_DECIDE_COMMON_H

#include <stddef.h>
#include <string.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"
#include "decide_option.h"
#include "kb/kb.h"
#include "model/model.h"
#include "model/workload.h"

/* Cards one host machine takes when the workload does not say (cards_per_host): a desktop board
 * has room for four double-width consumer cards, a data-centre server for eight. */
#define DECIDE_CONSUMER_PER_HOST 4
#define DECIDE_SERVER_PER_HOST 8
/* The most machines one purchased option spans (a rented one: DECIDE_RENT_MAX_GPUS GPUs in all,
 * decide_rent.h): several hosts are tried only as whole machines, for data parallelism, over
 * the network between them. */
#define DECIDE_MAX_HOSTS 4

/* Of the cloud offers for one GPU and card count, only the cheapest offer of each of this many
 * providers (cheapest first) become options: a catalogue of thousands of offers otherwise
 * floods the rules and the report with near-identical rentals (the method says so). */
#define DECIDE_RENT_OFFERS_PER_CONFIG 3

/* Cost per unit of work is per this many samples: the report's "per 1M images". */
#define DECIDE_WORK_UNIT_SAMPLES 1e6
#define DECIDE_WORK_UNIT_PREFIX "1M"

/* ---- the state of one decision ---- */

typedef struct decision decision;   /* as decide.h names it to its callers */

/* A candidate that became no option, or a cloud offer left out, and why (issue 13: nothing is
 * left out silently).  reason is one of the DECIDE_OMIT_* texts, by which the report groups. */
#define DECIDE_OMIT_NO_PRICE "no price"
#define DECIDE_OMIT_NO_OFFER "no cloud offer (a candidate to rent only)"
#define DECIDE_OMIT_USED_ONLY "only a used price (set used_ok = true)"
#define DECIDE_OMIT_SPOT "spot price (set spot_ok)"
#define DECIDE_OMIT_NOT_WHOLE "SXM and OAM modules are bought as whole servers: not that count"
#define DECIDE_OMIT_MODULE "a bare module's price (SXM and OAM modules are bought in 4- or 8-GPU servers)"

typedef struct decide_omission {
    char *gpu;                   /* the GPU's id; NULL for an unknown name */
    char *name;                  /* the GPU's name, or the candidate as written */
    char *offer;                 /* a cloud offer's "provider, instance"; NULL for a GPU */
    const char *reason;          /* a DECIDE_OMIT_* text */
} decide_omission;

/* A conversion into the workload's currency.  US dollars per US dollar is an identity, not a
 * dated rate: a conversion is as old as the rates that actually convert, each currency's latest
 * (its own, and the workload currency's unless that is USD). */
typedef struct decide_rate {
    char *currency;
    double factor;               /* one unit of currency in the workload's currency */
    char *as_of;                 /* the older of the converting rates' dates; NULL unknown */
    char *currency_as_of;        /* currency's own rate's date; NULL for USD or unknown */
    char *target_as_of;          /* the workload currency's rate's date; NULL for USD */
    double currency_per_usd;     /* currency's own rate, as the KB stores it; NAN for USD */
    double target_per_usd;       /* the workload currency's rate; NAN for USD */
    int cite;                    /* citation of the rates' source */
} decide_rate;

struct decision {
    kb *k;
    workload *w;
    long today;                  /* gw_today_days as the decision began: every price's age */
    kb_gpu *gpus;                /* in id order (kb_gpu_list sorts by id) */
    size_t n_gpus;
    kb_benchmark *bench;         /* the workload's benchmark, precision class filtered */
    size_t n_bench;
    /* The reference benchmarks' results (model_benchmark_name's, in that order), every
     * calibration's rows: read once, by decide_run (decide_reference_rows_read). */
    kb_benchmark *reference_rows;
    size_t n_reference_rows;
    unsigned char *measured_one; /* per GPU: 0 not looked at, 1 has single-card results, 2 not */
    size_t *nearest_one;         /* per GPU: 0 not asked, i + 1 for d->gpus[i], SIZE_MAX none */
    signed char *bench_tier;     /* per bench row: how far its source is trusted (decide_speed.c) */
    model_calibration spec_loo;  /* decide_spec_loo_calibration, read at the first speed */
    /* The calibrations a scaled speed's band is read from (decide_speed.c), read at the first
     * speed: across GPUs (spec_loo; spec_pairs without a benchmark), across counts, across
     * models (the reference benchmarks' parameters). */
    model_calibration spec_pairs, count_cal, params_cal;
    int speed_cal_read;
    /* How far apart the KB's measurements of one GPU at one count are, each hidden in turn
     * against the median of the others (decide_repro_calibration): the band of a figure with no
     * spread of its own; read once, at the first such figure. */
    model_calibration repro_cal;
    int repro_cal_read;
    /* Parameter-samples a second per dense tensor TFLOPS on the KB's reference benchmarks
     * (decide_work_rate, read once): a step's compute where no benchmark gives one. */
    double work_rate;
    int work_rate_rows, work_rate_read;
    kb_price *prices;            /* the prices to buy (new and used); cloud offers are read
                                  * cheapest first by decide_rent.c */
    size_t n_prices;
    kb_system *systems;          /* every system of the KB, by id */
    size_t n_systems;
    kb_precision_support *support;   /* which architectures compute which number format */
    size_t n_support;
    kb_host *hosts;              /* every host of the KB, fewest cards first */
    double *host_prices;         /* each one's price in the workload's currency */
    size_t n_hosts;
    double colocation_per_kw_month;  /* the KB's, converted, where site_power_kw is stated */
    decide_rate *rates;          /* the currencies converted so far */
    size_t n_rates;
    kb_price_kind *price_kinds;   /* the KB's price kinds, best first (decide_options.c) */
    size_t n_price_kinds;
    char **cite_ids;             /* citation n is cite_ids[n - 1] */
    size_t n_cites;
    model_memory memory;         /* one replica on one GPU (a language model: per option too) */
    double gradient_bytes;
    /* a language model (decide_llm.c) */
    model_llm llm;
    model_llm_setup llm_setup;
    double llm_mfu;              /* training's utilisation: calibrated or assumed; NaN unknown */
    int llm_mfu_rows;            /* measured rows it was calibrated on (0: assumed) */
    double llm_mfu_error;        /* leave-one-out mean error of the calibration (2+ rows) */
    double llm_share_what_if;    /* a what-if's factor on the serving shares (decide_whatif.c's
                                  * own speed under an arrival rate); 0: none */
    int speed_figures_only;      /* decide_option_speed_figures at work: a language model's speed
                                  * without its band and sentence (decide_llm.c) */
    int option_cites_dropped;    /* a what-if's speed again, whose citations are dropped after:
                                  * decide_option_cite looks none up */
    int llm_cite;                /* citation of the catalog model's source; 0 none */
    struct decide_llm_rows *llm_rows;   /* the measured LLM rows and the workload's calibration
                                         * (decide_llm_accuracy.c); NULL: not a language model */
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
    double rules_floor;          /* the least factor the rules can put on a cost per unit
                                  * (decide_rules_floor); NaN: unbounded */
    size_t n_set_aside;          /* options the rules did not judge: out of reach (decide.c) */
    size_t rent_read;            /* cloud offers read to find the ones compared (decide_rent.c) */
    unsigned char *rent_walked;  /* per GPU: its cloud offers read (rent:X, then rent:*) */
    struct decide_rent_kept *rent_kept;   /* serving: the offers rented, until they are sized
                                           * to the demand (decide_rent_size_to_demand) */
    /* The cloud prices of the GPU a 'from' offer's high end was last looked up for: the
     * options of one offer, one instance count at a time, read them once (decide_rent.c;
     * freed by decide_rent_free). */
    const kb_gpu *from_rows_gpu;
    kb_price *from_rows;
    size_t n_from_rows;
    decide_omission *omitted;    /* what was not considered, in the order found */
    size_t n_omitted;
    decide_option **ranked;
    view *trace;
    view *break_even;
    view *cumulative;            /* the buy-vs-rent series and break-even marker, for the chart */
    view *sensitivity;
    view *because;               /* the recommendation's reasons, strongest first */
    struct decide_robust *robust;   /* the draws' findings (decide_robust.c); NULL before */
    /* mixed work (decide_mixed.c): a decision for each part of w (the workload whose memory
     * is the largest is w itself, part base_part), owned; NULL and 0 for one workload */
    struct decision **parts;
    size_t n_parts, base_part;
    const workload *mixed_top;   /* mixed work: the file's workload (its name); NULL */
    view *constraints;           /* what production and the region left out (decide_demand.c) */
};

/* ---- helpers every stage uses ---- */

/* Exchange rates older than this many days are flagged as old (prices: the workload's
 * price_max_age_days). */
#define DECIDE_RATE_MAX_AGE_DAYS 30

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
/* A professional workstation card (Quadro, NVIDIA RTX A/Ada/PRO): sold with its maker's
 * warranty, not under a data-centre support contract. */
int decide_gpu_is_workstation(const kb_gpu *g);
int decide_gpu_is_consumer(const kb_gpu *g);

/* The recommendation: the best-ranked option, if feasible and not held back; NULL none (what
 * decide.h's decision_best gives its callers). */
const decide_option *decide_best(const decision *d);

/* ---- the list of options, which decide_options.c and decide_rent.c fill ---- */

/* A new option of d (zeroed, its figures NaN); whether d has an option of that id; whether
 * options may span several machines (data parallelism, with a step time to weigh the network
 * against). */
decide_option *decide_option_new(decision *d, const kb_gpu *g, int count, decide_acquisition a);
/* The option of that id, NULL if none. */
const decide_option *decide_option_find(const decision *d, const char *id);
int decide_has_option(const decision *d, const char *id);
/* A set of option ids (copies), to ask of each new id whether an option has it already without
 * a walk over every option: open addressing on an FNV-1a hash, never more than half full. */
typedef struct decide_ids {
    char **slot;
    size_t cap, n;
} decide_ids;
/* The set of d's options' ids (caller frees with decide_ids_free). */
decide_ids decide_ids_of(const decision *d);
/* Adds id to s: 1 where it was not there, 0 where it was. */
int decide_ids_add(decide_ids *s, const char *id);
void decide_ids_free(decide_ids *s);
int decide_multi_host_ok(const decision *d);
/* Records a candidate GPU without an option, or a cloud offer left out, into d->omitted (gpu
 * NULL: an unknown name; offer NULL: the GPU itself); the strings are copied. */
void decide_omit(decision *d, const kb_gpu *gpu, const char *name, const char *offer,
                 const char *reason);
/* decide_omit for an entry the caller knows is not there yet (no entry of its GPU): no search. */
void decide_omit_new(decision *d, const kb_gpu *gpu, const char *name, const char *offer,
                     const char *reason);

#endif
