/* decide_whatif.h — after the ranking: the best purchase against the best rental, and each
 * input's sway (decide_whatif.c). */
#ifndef GW_DECIDE_WHATIF_H
#define GW_DECIDE_WHATIF_H

#include "decide_common.h"

void decide_break_even(decision *d);
void decide_sensitivity(decision *d);

#endif
