/* decide_option.h — one way to get GPUs for a workload (an option) and what the rules said of
 * it: the decision's data, which decide.h shows its callers, and the helpers that read or free
 * one option alone (decide_option.c), beneath every stage. */
#ifndef GW_DECIDE_OPTION_H
#define GW_DECIDE_OPTION_H

#include <stddef.h>
#include <string.h>

#include "base/buf.h"
#include "kb/kb.h"
#include "model/cost.h"
#include "model/model.h"

typedef enum { DECIDE_BUY_NEW, DECIDE_BUY_USED, DECIDE_RENT } decide_acquisition;

typedef struct decide_verdict {
    char *rule, *effect, *because, *checklist;   /* checklist may be NULL */
    double weight;
} decide_verdict;

typedef struct decide_option {
    char *id;                      /* "buy-used:4x rtx-3090", "rent:Lambda:gpu_1x_a100_sxm4" */
    const kb_gpu *gpu;             /* borrowed from the decision */
    int count;
    decide_acquisition acquisition;
    char *provider, *instance;     /* rent only */
    /* The offer's terms (rent only; a purchase: quality NULL, fraction 1, no minimum). */
    char *offer_quality;           /* the price's kind (as price_kind); NULL unknown */
    const char *price_kind;        /* list|quote|market|from|anecdote|launch, the KB's kinds
                                    * (borrowed from the decision); NULL unknown */
    int price_floor;               /* a 'from' price: unit_price is the low end of price_lo..
                                    * price_hi, which decide_from_check weighs */
    int price_stale;               /* observed longer ago than price_max_age_days */
    const char *rate_as_of;        /* the date of the exchange rate that converted the price
                                    * (borrowed from the decision); NULL: not converted */
    char *held_back_because;       /* why it is held back, one clause; NULL when it is not */
    char *offer_note;              /* the offer's caveats, from its KB note; NULL none */
    char *offer_regions;           /* the regions its KB rows name, each once, ";"-separated
                                    * (rent only); NULL: none stated */
    double gpu_fraction;           /* the share of one card each GPU is (a slice < 1: MIG, or a
                                    * cloud's partitioned card), as decide_fraction_exact reads it */
    double min_billing_hours;      /* the fewest hours a rental is billed; NaN none */
    double long_billing_after_hours;   /* a rental longer than this is billed in steps of */
    double long_billing_hours;         /* this beyond it (kb_price's); both NaN: none */
    int held_back;                 /* an anecdotal price the workload does not accept, or
                                    * another market's (other_market): shown, ranked after
                                    * every other feasible option, never recommended */
    int other_market;              /* priced by another region than the workload's region */
    int consumer;                  /* a GeForce / TITAN card */
    /* Where the cards are: machines bought (or instances rented) and the network between them;
     * a purchase of whole systems (SXM / OAM servers) names the system. */
    int hosts;                     /* 1 unless the cards span several machines */
    const kb_system *system;       /* borrowed from the decision; NULL: cards in hosts */
    double network_gbps;           /* between the machines, Gb/s; NaN for one machine */
    /* The machine cards bought one by one go into (decide_option_host): the KB's host row,
     * borrowed from the decision (NULL: the workload's host_cost and host_power_w, or the KB's
     * assumed figures), its cost and own draw per machine, and the cards in each. */
    const kb_host *host;
    double host_cost, host_power_w;
    int cards_per_machine;
    /* fit */
    double vram_needed_gb, per_card_gb;
    int fits, split;               /* split: model parallelism over the cards */
    /* speed */
    double throughput;             /* samples/s (or x reference when no benchmark); NaN unknown */
    int measured;
    int measured_whole;            /* a slice's figure scaled from the whole card's measured one
                                    * (measured is 0: the slice itself was not measured) */
    char *throughput_how;          /* one sentence: how the figure was obtained */
    double throughput_lo, throughput_hi;
    char *throughput_band_basis;   /* one sentence: where the band comes from; NULL unknown */
    int nvlink;
    double link_gbs, efficiency, comm_fraction;
    double time_to_finish_hours;   /* one run of the work; NaN for capacity */
    double hours_needed;           /* a job: every run, hours of running; NaN for capacity */
    double hours_available;        /* a job: hours_per_day x days to the deadline; else NaN */
    double power_w;
    /* a language model (decide_llm.c) */
    int tp, replicas;              /* GPUs a replica (tensor parallel), replicas */
    int pp;                        /* serving: machines a replica spans (pipeline stages) */
    int attention_dp;              /* serving: the tp GPUs run attention data-parallel, the
                                    * experts split over them (model_llm_setup's) */
    double sequences;              /* serving: sequences in flight on each replica */
    model_memory memory;           /* per GPU, term by term */
    const char *run_precision;     /* what its GPUs compute in (a static string) */
    double tpot_ms, ttft_ms;       /* serving: time per output token, to the first token */
    double step_ms;                /* serving: one decode step of every sequence in flight */
    double floor_ms;               /* serving: of it, what memory bandwidth does not shorten
                                    * (every layer's latency, all-reduces, pipeline hops) */
    int bandwidth_bound;           /* serving: a decode step waits on memory, not compute */
    double capacity;               /* serving: tokens/s it can generate at the concurrency;
                                    * throughput is the demand when the workload states one */
    double capacity_lo, capacity_hi; /* serving: capacity's band (the model's, or measured) */
    /* money, in the workload's currency */
    double unit_price;             /* per card (buy) or per hour of all its instances (rent) */
    double price_lo, price_hi;     /* range of the observations used */
    char *price_as_of;             /* when the price used was observed (YYYY-MM[-DD]); NULL */
    double price_age_days;         /* days from then to today (NaN: no date) */
    cost_buy_input buy;            /* buy options */
    cost_summary cost;
    double committed;              /* the figure the budget is held to (decide_budget.h): by
                                    * default cash up front, a purchase's up-front cost, a job's
                                    * whole rental bill, a capacity rental's first month */
    /* mixed work (decide_mixed.c): the hours of running each part takes on this option, in the
     * order of workload.parts (owned; NULL for one workload), and those of the parts other than
     * the decision's own, which its hours_needed adds */
    double *part_hours;
    double other_parts_hours;
    double per_unit, electricity_share;
    double per_unit_lo, per_unit_hi;   /* at low price and high speed, and the reverse */
    double p_best;                 /* share of the draws it is cheapest in; NaN not compared
                                    * (decide_robust.c) */
    int *cites;                    /* citation numbers of the figures used */
    size_t n_cites;
    /* judgement */
    decide_verdict *verdicts;
    size_t n_verdicts;
    int feasible;
    char *excluded_because;
    int set_aside;                 /* not judged by the rules: its lowest possible cost,
                                    * set_aside_low, is above the best's highest,
                                    * set_aside_best (decide.c) */
    double set_aside_low, set_aside_best;
    int may_win;                   /* the engine alone leaves it able to be recommended */
    int out_of_reach;              /* it may win, and set_aside_low is above set_aside_best: the
                                    * robustness does not compare it (decide.c) */
    double score;                  /* per_unit adjusted by rule weights */
    int rank;                      /* 1 = best; 0 unranked (infeasible) */
} decide_option;

static inline int decide_str_eq(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* Equal, counting NULL and "" as the same (an absent provider or instance). */
static inline int decide_text_same(const char *a, const char *b)
{
    return !strcmp(a ? a : "", b ? b : "");
}

const char *decide_acquisition_name(decide_acquisition a);   /* "buy-new", "buy-used", "rent" */
/* "used 4x GeForce RTX 3090", "rent 1x NVIDIA A100 SXM4 40GB (Lambda, gpu_1x_a100_sxm4)",
 * "rent 1/6 × NVIDIA A10 (Azure, Standard_NV6ads_A10_v5)"; shortened labels (charts) leave the
 * instance out, never the fraction. */
void decide_option_label(gw_buf *b, const decide_option *o, int shortened);
/* fraction as a slice's share is computed with: units_fraction_exact's reading (0.167 is 1/6),
 * 1 for a figure outside (0, 1]. */
double decide_fraction_exact(double fraction);
/* The id of a rental into id (reset first): "rent:SELLER:INSTANCE[ (spot)]:GPUSx GPU"
 * ("rent:RunPod:RTX 4090 (Community Cloud):1x rtx-4090"; instance "-" where none is named). */
void decide_rent_id(gw_buf *id, const char *seller, const char *instance, int spot, int gpus,
                    const char *gpu);
/* o's GPUs in words before a card's name: "4x ", or for a slice "1/6 × " ("2 × 1/6 × " for
 * two); times is the sign between a slice's figures ("×", or "x" where text is aligned by
 * bytes). */
void decide_option_gpus_words(gw_buf *b, const decide_option *o, const char *times);
/* A rental's price of one whole GPU's hour: its instances' hourly price / (count x
 * gpu_fraction) (a 1/6 slice at 0.454 an hour: 2.724); NaN for a purchase. */
double decide_option_per_gpu_hour(const decide_option *o);
/* The memory of one of o's GPUs in GB of 10^9 bytes, what every need is compared with: as the
 * driver reports it (the KB's memory_mib), else estimated from the nominal figure
 * (model_card_memory_gb); a fractional offer (a MIG slice) has its share of the card's.
 * *estimated (may be NULL) says which. */
double decide_option_usable_gb(const decide_option *o, int *estimated);
/* The same, without saying which. */
double decide_option_memory_gb(const decide_option *o);
/* The card's nominal memory (the KB's memory_gb, the figure it is sold by), a slice's share. */
double decide_option_nominal_gb(const decide_option *o);
/* What one of o's GPUs holds, in words: "85.5 GB (80 GB nominal; 81,559 MiB reported)" as the
 * driver reports it, or "85.5 GB (80 GB nominal; estimated)" where the KB has no nvidia-smi
 * figure of the card. */
void decide_option_capacity_words(gw_buf *b, const decide_option *o);
/* The method's words on what a need is compared with (model.h's capacity rule). */
void decide_capacity_method_words(gw_buf *b);
/* A slice of a card (o->gpu_fraction < 1) computes at its share of the whole card: its speed and
 * band the whole card's times the fraction, a serving step's times over it; its kind is
 * "scaled" where the card's was measured (o->measured_whole), never "measured".  Appends its
 * words to how.  Called once o's whole-card figures are known (decide_llm_speed for a
 * language model, before its demand is set against them). */
void decide_slice_share(decide_option *o, gw_buf *how);
/* Days from as_of (YYYY-MM[-DD]) to today (gw_today_days); NaN undated. */
double decide_price_age_days(const char *as_of, long today);
/* Records when o's price was observed and how old that is today. */
void decide_option_dated(decide_option *o, const char *as_of, long today);
/* The factor the verdicts put on o's cost per unit in the ranking. */
double decide_rules_adjustment(const decide_option *o);
/* The least factor verdicts whose preferences weigh prefers_at_most together can put on a cost
 * per unit (within the factor's floor). */
double decide_rules_adjustment_floor(double prefers_at_most);
/* Frees what o owns (not o itself). */
void decide_option_free(decide_option *o);

#endif
