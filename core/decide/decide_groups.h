/* decide_groups.h — the short forms the report's body reads (decide_groups.c). */
#ifndef GW_DECIDE_GROUPS_H
#define GW_DECIDE_GROUPS_H

#include "decide_common.h"

/* The report explains this many of the best-ranked feasible options (in_top_five): their rules'
 * sentences in the body, their figures, evidence and notes in the short appendix.  They are the
 * recommendation and the runners-up an approver asks about. */
#define DECIDE_TOP_OPTIONS 5
/* Whether o is one of them. */
int decide_option_in_top(const decide_option *o);

/* Into root: excluded_groups (the options that fell out, grouped by reason) and rule_notes
 * (each preference or warning once, with the best-ranked options it was said of). */
void decide_groups_view(view *root, const decision *d);

#endif
