/* decide_robust.h — whether the recommendation survives its own uncertainty (decide_robust.c):
 * each option's cost per unit at the corners of its price range and speed band, seeded draws
 * within them, and the best-evidenced pick of a close call. */
#ifndef GW_DECIDE_ROBUST_H
#define GW_DECIDE_ROBUST_H

#include "decide_common.h"

/* The draws: how many, and the fixed seed that makes the same input give the same output. */
#define DECIDE_ROBUST_DRAWS 2000
#define DECIDE_ROBUST_SEED 20260526u
/* The relative margin over rounding by which an option's lowest cost must exceed the bound
 * for it not to be drawn (decide_robust.c: mark_drawn). */
#define DECIDE_ROBUST_BOUND_MARGIN 1e-9
/* Below this share of draws won, the recommendation is a close call; an option is inside the
 * uncertainty when it wins at least DECIDE_ROBUST_CLOSE_SHARE of them. */
#define DECIDE_ROBUST_CLOSE_P_BEST 0.6
#define DECIDE_ROBUST_CLOSE_SHARE 0.10

typedef struct decide_robust decide_robust;

/* After the ranking: sets every option's per_unit_lo, per_unit_hi and p_best, draws, and on a
 * close call moves the best-evidenced option inside the uncertainty to the top of d->ranked
 * (ranks renumbered).  Keeps its findings in d->robust (freed by decide_robust_free). */
void decide_robust_run(decision *d);
/* o's cost per unit at the favourable corner of its bands (low price, high speed) and the
 * unfavourable one, into per_unit_lo and per_unit_hi (NaN without a cost or a speed). */
void decide_option_corners(decision *d, decide_option *o);
void decide_robust_free(decide_robust *r);

/* The option cheapest at the plan's figures: the recommendation, unless a close call picked a
 * better-evidenced one; NULL none. */
const decide_option *decide_robust_cheapest(const decision *d);

/* Why a close call recommends another option than the cheapest at the plan's figures (one
 * sentence, owned by d); NULL when it does not. */
const char *decide_robust_repick_reason(const decision *d);

/* Adds "robustness" to root (and method.robustness, how the draws are made). */
void decide_robust_view(const decision *d, view *root);


#endif
