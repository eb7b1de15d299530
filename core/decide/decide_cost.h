/* decide_cost.h — money: prices in the workload's currency, each option's cost, and how money
 * is written (decide_cost.c). */
#ifndef GW_DECIDE_COST_H
#define GW_DECIDE_COST_H

#include "decide_common.h"

/* amount in currency, in the workload's currency (the rate is remembered and cited); an
 * option's cost, time to finish and cost per unit of work. */
int decide_convert(decision *d, double amount, const char *currency, double *out,
                   gw_error *err);
void decide_option_cost(decision *d, decide_option *o);
void decide_money(gw_buf *b, const decision *d, double amount);
void decide_money_per_unit(gw_buf *b, const decision *d, double amount);

#endif
