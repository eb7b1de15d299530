/* decide_budget.h — what a budget is held to and what a stated need costs: the figure of each
 * option the workload's budget compares (cash up front, everything over the horizon, or a
 * month), and the hours of running a capacity workload's hours_needed_per_month takes. */
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
 * hours_needed_per_month (card-hours: o's cards, at their scaling efficiency, each cover one in
 * an hour); NaN when the workload states no need. */
double decide_need_hours(const decision *d, const decide_option *o);

#endif
