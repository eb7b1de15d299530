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
/* The same less the budget's figure (o->committed left as it was): for the robustness draws,
 * which read none, and cost options 46,000 times in a report. */
void decide_option_cost_figures(decision *d, decide_option *o);
/* The machine o's cards go into, set once when o is made: the smallest KB host that takes its
 * cards per machine (cited), with the workload's host_cost and host_power_w in place of the
 * host's where it states them, and the KB's assumed figures where no host takes that many.
 * A system bought whole, or a rental, has none. */
void decide_option_host(decision *d, decide_option *o);
/* The conversion of currency that decide_convert remembered (its dates); NULL when none was
 * needed (the workload's own currency) or made yet.  decide_rates_free frees them all. */
const decide_rate *decide_rate_of(const decision *d, const char *currency);
void decide_rates_free(decision *d);
/* "Amounts in CNY converted at 0.1464 USD per CNY (the rate of 2026-04-13: 6.8322 CNY per
 * USD)." into b: each converting rate as the KB stores it (per US dollar), with its own date. */
void decide_rate_sentence(gw_buf *b, const decision *d, const decide_rate *r);
/* o costed at unit_price and throughput (a range's other ends): decide_option_cost on *at, a
 * shallow copy of o, which shares o's strings (costing writes figures only) and is never freed;
 * a job's hours, and so a rental's bill and a purchase's electricity, follow the speed.  o is
 * left as it is.  (Returned by value, the 840-byte copy was made twice: 9% of the instructions
 * of a report whose robustness draws cost options 46,000 times.) */
void decide_option_costed_at(decision *d, const decide_option *o, double unit_price,
                             double throughput, decide_option *at);
void decide_money(gw_buf *b, const decision *d, double amount);
void decide_money_per_unit(gw_buf *b, const decision *d, double amount);

#endif
