/* decide_options.h — the first stage: the options a workload's candidates allow
 * (decide_options.c). */
#ifndef GW_DECIDE_OPTIONS_H
#define GW_DECIDE_OPTIONS_H

#include "decide_common.h"

/* Every option the workload's candidates allow, priced; every candidate GPU without one, and
 * every cloud offer left out, into d->omitted. */
int decide_options_enumerate(decision *d, gw_error *err);

#endif
