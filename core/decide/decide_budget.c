/* decide_budget.c — the figure a budget is held to, as the workload states it (cash up front,
 * a grant over the horizon, a month's spending), the hours a capacity workload's stated need
 * takes on an option, and the speed of the card hours of work are measured on (decide_budget.h). */
#include "decide_budget.h"
#include "decide_speed.h"

#include <math.h>

double decide_budget_figure(const decision *d, const decide_option *o)
{
    const workload *w = d->w;
    const char *basis = w->budget_basis ? w->budget_basis : "upfront";
    int rent = o->acquisition == DECIDE_RENT;
    if (decide_str_eq(basis, "total"))
        return rent ? o->cost.total : o->cost.upfront + o->cost.running_per_month * w->horizon_months;
    if (decide_str_eq(basis, "monthly")) {
        if (!rent)
            return o->cost.running_per_month;
        if (!workload_is_job(w))
            return o->cost.total / fmax(w->horizon_months, 1);
        /* a job runs at hours_per_day until it is done: a month of that, or the whole bill */
        return fmin(o->cost.total, o->unit_price * w->hours_per_day * COST_DAYS_PER_MONTH);
    }
    if (!rent)
        return o->cost.upfront;
    return workload_is_job(w) ? o->cost.total : o->cost.total / fmax(w->horizon_months, 1);
}

const char *decide_budget_compares(const decision *d)
{
    const char *basis = d->w->budget_basis;
    if (!basis)
        return NULL;
    if (decide_str_eq(basis, "total"))
        return "everything paid over the horizon: a purchase's cards, hosts and cooling and its "
               "running costs for every month (resale comes after the money is spent); a "
               "rental's whole bill";
    if (decide_str_eq(basis, "monthly"))
        return "a month's spending: a rental's bill for a month (a job's at its hours a day, at "
               "most the whole bill); a purchase's running costs a month (its cards and hosts "
               "are not compared)";
    return "cash committed up front: a purchase's cards, hosts and cooling; a rental's whole "
           "bill for a job, or its first month for capacity";
}

const char *decide_budget_row(const decision *d)
{
    const char *basis = d->w->budget_basis;
    if (decide_str_eq(basis, "total"))
        return "Against the budget for the whole horizon (everything paid over it)";
    if (decide_str_eq(basis, "monthly"))
        return "Against the monthly budget (a month's spending)";
    return NULL;   /* cash up front: the report's own words */
}

double decide_reference_card_speed(decision *d, const kb_gpu *g, gw_buf *why)
{
    int measured;
    if (!workload_is_llm(d->w))
        return decide_single_card_speed(d, NULL, g, &measured, why);
    /* A language model's speed is modelled per option: one card of g, as an option would be
     * (its fit sets the precision it runs at; the speed does not depend on the fit). */
    decide_option one = {.gpu = g, .count = 1, .hosts = 1, .gpu_fraction = 1};
    decide_option_fit(d, &one);
    decide_option_speed(d, &one);
    double speed = one.throughput;
    if (why && one.throughput_how)
        buf_puts(why, one.throughput_how);
    decide_option_free(&one);
    return speed;
}

double decide_need_hours(const decision *d, const decide_option *o)
{
    const workload *w = d->w;
    if (!workload_has_need(w))
        return NAN;
    double need = w->hours_needed_per_month * w->horizon_months;
    /* Hours of the reference card: o does that card's hour of work in reference_speed / its own
     * throughput (o's cards at their efficiency), as a job's work.hours_on; NaN where o's speed
     * is unknown. */
    if (w->hours_needed_on)
        return need * d->reference_speed / o->throughput;
    double efficiency = o->count > 1 && o->efficiency > 0 && o->efficiency <= 1 ? o->efficiency : 1;
    double fraction = o->gpu_fraction > 0 ? o->gpu_fraction : 1;
    double cards = o->count * fraction * efficiency;
    return need / cards;
}
