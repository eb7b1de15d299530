/* decide_rent.h — the rentals among the options: the cheapest cloud offers (decide_rent.c). */
#ifndef GW_DECIDE_RENT_H
#define GW_DECIDE_RENT_H

#include "decide_common.h"

/* The options to rent gpu (NULL: every GPU) from its cheapest cloud offers.  count > 0 (gpu
 * named): only the rentals of count GPUs in all, as one instance of count GPUs or as several
 * instances of fewer (where the workload may rent several: over a network their offers
 * state, or to serve a language model); GW_EDATA where gpu has cloud offers but none makes
 * count. */
int decide_rent_options(decision *d, const char *gpu, int count, gw_error *err);

/* The most GPUs one rental has, as instances of any count: what a purchase may have,
 * DECIDE_MAX_HOSTS servers of DECIDE_SERVER_PER_HOST (32).  A job's instances are doubled up to
 * it; a served model's are sized to its demand up to it. */
#define DECIDE_RENT_MAX_GPUS (DECIDE_MAX_HOSTS * DECIDE_SERVER_PER_HOST)

/* A served model (after every option is evaluated): each offer whose rentals of 1 to 4
 * instances all fall short of the demand (tokens/s, time per token, replicas for the spares) is
 * rented as more, one more at a time up to DECIDE_RENT_MAX_GPUS GPUs, and the fewest that serve
 * it become an option, evaluated; none where no count up to there does.  Frees the offers
 * decide_rent_options kept for it; GW_OK, or the KB's error. */
int decide_rent_size_to_demand(decision *d, gw_error *err);
/* Frees what decide_rent_options kept for sizing and the cloud prices last read for a 'from'
 * offer, if anything (decision_free). */
void decide_rent_free(decision *d);

#endif
