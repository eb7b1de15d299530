/* decide_view.h — the last stage: the recommendation's reasons, and the view model of the whole
 * decision (decide_view.c; decide.h gives it to callers as decision_to_view). */
#ifndef GW_DECIDE_VIEW_H
#define GW_DECIDE_VIEW_H

#include "decide_common.h"

/* The recommendation's reasons, strongest first, into d->because. */
void decide_reasons(decision *d);
/* The whole tree: what --json prints and the templates read.  Caller owns the view. */
view *decide_view_tree(const decision *d);
/* The part of that tree decide's text prints besides its table, each field as the tree has it:
 * throughput_unit, work_unit, llm, not_considered_groups and _count, recommendation's option,
 * label and because, sensitivity.  Caller owns the view. */
view *decide_view_summary(const decision *d);

#endif
