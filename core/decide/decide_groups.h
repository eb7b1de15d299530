/* decide_groups.h — the short forms the report's body reads (decide_groups.c). */
#ifndef GW_DECIDE_GROUPS_H
#define GW_DECIDE_GROUPS_H

#include "decide_common.h"

/* Into root: excluded_groups (the options that fell out, grouped by reason) and rule_notes
 * (each preference or warning once, with the feasible options it was said of). */
void decide_groups_view(view *root, const decision *d);

#endif
