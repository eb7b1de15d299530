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

#endif
