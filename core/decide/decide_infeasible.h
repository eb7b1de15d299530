/* decide_infeasible.h — what a decision says when it has no answer: no option at all (a module
 * sold only in servers, named as a count no server holds), or no option it can recommend (the
 * closest one and what it lacks, or the feasible ones' prices held back). */
#ifndef GW_DECIDE_INFEASIBLE_H
#define GW_DECIDE_INFEASIBLE_H

#include "decide_common.h"

/* The error of a decision that found no option at all (GW_EDATA): where a candidate to buy is
 * a part mounted on a board (SXM, OAM, a superchip: kb_gpu.form_factor other than pcie), why
 * it made none (sold on 4- or 8-GPU boards in servers; which servers the KB prices) and which
 * instance sizes its cloud offers sell; else that the KB has no price of the candidates. */
int decide_no_option_error(decision *d, gw_error *err);

/* Why no rental of a GPU makes a count of GPUs, as its offers' configurations say. */
typedef struct decide_count_unmade {
    int counts[16];   /* the GPUs an instance of its offers has, each once, ascending */
    size_t n_counts;
    int spot_only;    /* the offers that would make it are spot offers, and spot_ok is not set */
    int smaller;      /* instances smaller than the count would make it, as several */
    int several_ok;   /* the workload may rent several instances of an offer at all */
} decide_count_unmade;

/* The error (GW_EDATA) for count GPUs of g that no cloud offer makes: the counts its offers
 * have, why none of those that divide count made it, and where g is mounted on a board (not
 * sold as a card), "; g is an SXM5 module, rented in the instances its servers make: the KB's
 * offers sell it in 1-GPU (...) and 8-GPU (...) instances ("rent:8x g")", the candidate the
 * smallest size of at least count. */
int decide_count_unmade_error(const decision *d, const kb_gpu *g, int count,
                              const decide_count_unmade *why, gw_error *err);

/* What to say where d recommends nothing (NULL where it recommends an option; caller frees):
 * "no option is feasible: the closest, X, needs ...", the closest by the rule the manual's
 * EXIT STATUS states (the smallest of each option's largest shortfall ratio), *none_feasible
 * set to 1; or "no option is recommended: ..." where feasible options exist but every one's
 * price is held back, *none_feasible 0. */
char *decide_no_recommendation_text(const decision *d, int *none_feasible);

/* The same as a view: null where d recommends an option; else {why: "infeasible" or
 * "held_back", infeasible (bool), text (the one line), headline ("No option is feasible") and
 * detail ("The closest, X, needs ...": text after its colon, as a sentence), closest: [{option,
 * label, short_of, shortfall, lacks}]} (closest: the closest option, then the closest of each
 * other kind of shortfall; empty when held back). */
view *decide_no_recommendation_view(const decision *d);

#endif
