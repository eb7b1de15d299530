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

/* Where g is mounted on a board (not sold as a card), "; g is an SXM5 module, rented in the
 * instances its servers make: the KB's offers sell it in 1-GPU (...) and 8-GPU (...) instances
 * ("rent:8x g")" into b, the candidate the smallest size of at least
 * asked; nothing for a card.  For the error of a rental count no offer makes. */
int decide_board_rent_words(gw_buf *b, const decision *d, const kb_gpu *g, int asked,
                            gw_error *err);

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
