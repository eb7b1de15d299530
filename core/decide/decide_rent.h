/* decide_rent.h — the rentals among the options: the cheapest cloud offers (decide_rent.c). */
#ifndef GW_DECIDE_RENT_H
#define GW_DECIDE_RENT_H

#include "decide_common.h"

/* The options to rent gpu (NULL: every GPU) from its cheapest cloud offers. */
int decide_rent_options(decision *d, const char *gpu, gw_error *err);

#endif
