/* decide_budget.h — what a budget is held to and what a stated need costs: the figure of each
 * option the workload's budget compares (cash up front, everything over the horizon, or a
 * month), the hours of running a capacity workload's hours_needed_per_month takes, and the
 * speed of the card hours of work are measured on. */
#ifndef GW_DECIDE_BUDGET_H
#define GW_DECIDE_BUDGET_H

#include "decide_common.h"

/* The figure of o the budget is held to, from its costs (o->cost, o->buy as costed):
 *  - upfront (and no budget): a purchase's cards, hosts and cooling; a job's whole rental bill;
 *    a capacity rental's first month;
 *  - total: everything paid over the horizon: a purchase's up-front cost and its running costs
 *    for every month (resale comes after the money is spent); a rental's whole bill;
 *  - monthly: a rental's bill for a month (a job's at hours_per_day, at most its whole bill);
 *    a purchase's running costs a month. */
double decide_budget_figure(const decision *d, const decide_option *o);
/* What the budget compares, one sentence for the report ("everything paid over the 36-month
 * horizon: ..."); NULL when the workload has no budget.  A static or decision-lived string. */
const char *decide_budget_compares(const decision *d);

/* The label of the report's row for the figure the budget compares where the budget is not
 * cash up front (a grant's whole horizon, a month's spending); NULL for cash up front. */
const char *decide_budget_row(const decision *d);

/* Hours of running over the horizon o needs to cover a capacity workload's
 * hours_needed_per_month: hours of o's own card (o's cards, at their scaling efficiency, each
 * cover one in an hour), or with hours_needed_on hours of the reference card, the need x
 * d->reference_speed / o->throughput (NaN where o's speed is unknown); NaN when the workload
 * states no need. */
double decide_need_hours(const decision *d, const decide_option *o);

/* The speed of one card of g on the workload, in the decision's units: a benchmark's
 * (decide_single_card_speed), or a language model's as a one-card option of g would have it;
 * NaN unknown, why appended with how (may be NULL).  What work.hours_on and hours_needed_on
 * scale hours of g by. */
double decide_reference_card_speed(decision *d, const kb_gpu *g, gw_buf *why);

#endif
