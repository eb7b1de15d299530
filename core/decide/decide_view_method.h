/* decide_view_method.h — the method section of a decision's view (decide_view_method.c); each
 * function returns a view the caller owns. */
#ifndef GW_DECIDE_VIEW_METHOD_H
#define GW_DECIDE_VIEW_METHOD_H

#include "decide_common.h"

/* The prices and rates the decision used that are older than their limits, for the report's
 * warning: the recommendation's, how many of the feasible options' (the oldest named), the
 * exchange rates', and how to refresh them. */
view *decide_price_age_view(const decision *d);
/* The memory one replica needs, term by term. */
view *decide_memory_view(const decision *d);
/* How each figure is computed, with the model's constants written in. */
view *decide_method_view(const decision *d);
/* What the decision assumes where the workload is silent, each with its citations. */
view *decide_assumptions_view(const decision *d);

#endif
