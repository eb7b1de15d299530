/* decide_cost.c — the money of a decision: prices converted into the workload's currency (each
 * rate used is remembered with its date and source, for the assumptions and citations), and
 * each option's cost over the horizon (cost.c's arithmetic), time to finish and cost per unit
 * of work. */
#include "decide_cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "decide_budget.h"
#include "decide_mixed.h"

void decide_money(gw_buf *b, const decision *d, double amount)
{
    units_format_money(b, amount, d->w->currency, -1);
}

/* Costs per unit of work are often fractions of a unit: keep three decimals there. */
void decide_money_per_unit(gw_buf *b, const decision *d, double amount)
{
    units_format_money(b, amount, d->w->currency, fabs(amount) < 1 ? 3 : -1);
}

/* ---- currencies ---- */

/* Remembers the factor for currency with the source and date of each rate that converts it:
 * currency's own and the workload currency's, each its latest; a US dollar's is the unit the
 * rates are quoted in, no rate, so it dates nothing. */
static void rate_remember(decision *d, const char *currency, double factor)
{
    d->rates = gw_xrealloc(d->rates, (d->n_rates + 1) * sizeof *d->rates);
    decide_rate *r = &d->rates[d->n_rates++];
    memset(r, 0, sizeof *r);
    r->currency = gw_xstrdup(currency);
    r->factor = factor;
    r->currency_per_usd = r->target_per_usd = NAN;
    const char *sides[] = {currency, d->w->currency};
    char **dates[] = {&r->currency_as_of, &r->target_as_of};
    double *values[] = {&r->currency_per_usd, &r->target_per_usd};
    for (int s = 0; s < 2; s++) {
        kb_rate rate;
        if (!strcmp(sides[s], "USD") || kb_rate_get(d->k, sides[s], &rate, NULL) != GW_OK)
            continue;
        decide_trace(d, "exchange rate: %g %s per USD as of %s", rate.per_usd, sides[s],
                     rate.as_of ? rate.as_of : "?");
        int n = decide_cite(d, rate.source);
        if (n)
            r->cite = n;
        *dates[s] = rate.as_of ? gw_xstrdup(rate.as_of) : NULL;
        *values[s] = rate.per_usd;
        if (rate.as_of && (!r->as_of || strcmp(rate.as_of, r->as_of) < 0)) {
            free(r->as_of);
            r->as_of = gw_xstrdup(rate.as_of);
        }
        kb_rate_free(&rate);
    }
}

const decide_rate *decide_rate_of(const decision *d, const char *currency)
{
    for (size_t i = 0; currency && i < d->n_rates; i++)
        if (!strcmp(d->rates[i].currency, currency))
            return &d->rates[i];
    return NULL;
}

/* One rate as the KB stores it: "of 2026-04-13: 6.8322 CNY per USD". */
static void rate_clause(gw_buf *b, const char *currency, const char *as_of, double per_usd)
{
    buf_printf(b, "of %s: %.6g %s per USD", as_of ? as_of : "an unknown date", per_usd, currency);
}

void decide_rate_sentence(gw_buf *b, const decision *d, const decide_rate *r)
{
    buf_printf(b, "Amounts in %s converted at %.4g %s per %s (", r->currency, r->factor,
               d->w->currency, r->currency);
    int sides = !isnan(r->currency_per_usd) + !isnan(r->target_per_usd);
    buf_puts(b, sides > 1 ? "the rates " : sides ? "the rate " : "a rate of an unknown date");
    if (!isnan(r->currency_per_usd))
        rate_clause(b, r->currency, r->currency_as_of, r->currency_per_usd);
    if (sides > 1)
        buf_puts(b, ", and ");
    if (!isnan(r->target_per_usd))
        rate_clause(b, d->w->currency, r->target_as_of, r->target_per_usd);
    buf_puts(b, ").");
}

void decide_rates_free(decision *d)
{
    for (size_t i = 0; i < d->n_rates; i++) {
        free(d->rates[i].currency);
        free(d->rates[i].as_of);
        free(d->rates[i].currency_as_of);
        free(d->rates[i].target_as_of);
    }
    free(d->rates);
}

int decide_convert(decision *d, double amount, const char *currency, double *out,
                   gw_error *err)
{
    if (!currency || !strcmp(currency, d->w->currency)) {
        *out = amount;
        return GW_OK;
    }
    const decide_rate *known = decide_rate_of(d, currency);
    if (known) {
        *out = amount * known->factor;
        return GW_OK;
    }
    double factor;
    int rc = kb_convert(d->k, 1.0, currency, d->w->currency, &factor, err);
    if (rc != GW_OK)
        return rc;
    rate_remember(d, currency, factor);
    *out = amount * factor;
    return GW_OK;
}

/* ---- an option's cost ---- */

/* The hours a day the option is costed for: the workload's for capacity; for a job, the hours
 * its runs take spread over the horizon, so that a rental is paid for those hours and a
 * purchase's electricity is for them too (cost.c's formulas stay those of the method). */
static double hours_per_day_costed(const decision *d, const decide_option *o)
{
    const workload *w = d->w;
    if (isnan(o->hours_needed))   /* capacity for every hour of hours_per_day */
        return w->hours_per_day;
    return o->hours_needed / (COST_DAYS_PER_MONTH * w->horizon_months);
}

/* The hours a job of `hours` is billed for: whole steps of min_billing_hours (a Capacity
 * Block's days), and beyond long_billing_after_hours whole steps of long_billing_hours (its
 * weeks after 14 days: a 32.5-day job holds 14 + 3 x 7 = 35 days, kb/schema.sql version 19).
 * The 1e-9s keep a job of exactly whole steps from rounding up one more. */
static double job_billed_hours(const decide_option *o, double hours)
{
    double after = o->long_billing_after_hours, step = o->long_billing_hours;
    if (after > 0 && step > 0 && (hours - after) / step > 1e-9)
        return after + ceil((hours - after) / step - 1e-9) * step;
    if (o->min_billing_hours > 0)
        return o->min_billing_hours * fmax(ceil(hours / o->min_billing_hours - 1e-9), 1);
    return hours;
}

/* A rental is paid for the hours costed, but in whole steps of the offer's billing: a job's
 * hours rounded up (job_billed_hours).  The hours of use stay those the work runs, so the price
 * per hour of use (and per unit of work) carries the hours paid for and not used. */
static void cost_rented(decision *d, decide_option *o)
{
    const workload *w = d->w;
    o->power_w = (o->gpu->tdp_w > 0 ? o->gpu->tdp_w : 0) * o->count;
    cost_rent(o->unit_price, hours_per_day_costed(d, o), w->horizon_months, &o->cost);
    int stepped = o->min_billing_hours > 0 || o->long_billing_hours > 0;
    if (workload_is_job(w) && stepped && o->cost.hours_of_use > 0) {
        double billed = o->unit_price * job_billed_hours(o, o->cost.hours_of_use);
        o->cost.running_per_month *= billed / o->cost.total;
        o->cost.total = billed;
        o->cost.per_hour = billed / o->cost.hours_of_use;
    } else if (!workload_is_job(w) && o->min_billing_hours > w->hours_per_day) {
        /* Capacity is used day after day: each day is billed at least the minimum, up to the
         * whole day a reservation of whole days (a Capacity Block) holds. */
        double scale = fmin(o->min_billing_hours, 24) / w->hours_per_day;
        o->cost.running_per_month *= scale;
        o->cost.total *= scale;
        o->cost.per_hour *= scale;
    }
    /* Capacity is billed month by month; a job's bill is paid when it runs (the budget's
     * committed figure), so it is not discounted. */
    /* a job's bill is paid as the work runs: not discounted */
    cost_rent_discount(&o->cost, w->horizon_months, workload_is_job(w) ? 0 : w->discount_rate);
    o->electricity_share = 0;
}

/* The smallest of the KB's hosts (fewest cards first, then the cheaper) that takes per_machine
 * cards; NULL when none does. */
static const kb_host *smallest_host(const decision *d, int per_machine, double *price)
{
    for (size_t i = 0; i < d->n_hosts; i++)
        if (d->hosts[i].max_cards >= per_machine) {
            *price = d->host_prices[i];
            return &d->hosts[i];
        }
    return NULL;
}

/* The KB's assumed host_cost (in the workload's currency) or host_power_w, cited for o. */
static double assumed_host(decision *d, decide_option *o, kb_assumed which)
{
    const kb_assumption *f = &d->facts[which];
    double value = f->value;
    gw_error err = {0};
    if (which == KB_ASSUMED_HOST_COST && decide_convert(d, f->value, f->unit, &value, &err))
        value = NAN;   /* not reached: fill_defaults converts host prices in the same way */
    decide_fact_cite(d, which);
    decide_option_cite(d, o, f->source);
    return value;
}

void decide_option_host(decision *d, decide_option *o)
{
    const workload *w = d->w;
    int hosts = o->hosts > 0 ? o->hosts : 1;
    o->cards_per_machine = (o->count + hosts - 1) / hosts;
    o->host = NULL;
    o->host_cost = o->host_power_w = 0;
    if (o->system || o->acquisition == DECIDE_RENT)
        return;   /* a server bought whole is its own host; a rental's is the provider's */
    double price = NAN;
    const kb_host *h = smallest_host(d, o->cards_per_machine, &price);
    int cost_stated = !isnan(w->host_cost), power_stated = !isnan(w->host_power_w);
    if (h && !(cost_stated && power_stated)) {
        o->host = h;
        decide_option_cite(d, o, h->source);
    }
    if (!h && !(cost_stated && power_stated))
        decide_trace(d, "%s: no KB host takes %d cards a machine: the assumed host_cost and "
                        "host_power_w", o->id, o->cards_per_machine);
    /* the workload's figures, else the host's, else the KB's assumed one-card PC */
    if (cost_stated)
        o->host_cost = w->host_cost;
    else if (h)
        o->host_cost = price;
    else
        o->host_cost = assumed_host(d, o, KB_ASSUMED_HOST_COST);
    if (power_stated)
        o->host_power_w = w->host_power_w;
    else if (h)
        o->host_power_w = h->power_w;
    else
        o->host_power_w = assumed_host(d, o, KB_ASSUMED_HOST_POWER);
}

/* Support a year: the share of the hardware's price (cards and hosts, or a server bought
 * whole), the workload's where it states one; the KB's applies to data-centre hardware only: a
 * consumer card has its shop warranty and a workstation card its maker's, not a data-centre
 * maintenance contract, which the assumptions say. */
static double support_per_year(const decision *d, const decide_option *o,
                               const cost_buy_input *in)
{
    double share = d->w->support_fraction;
    if (!(share > 0))
        return 0;
    if (d->fact_cite[KB_ASSUMED_SUPPORT] && (o->consumer || decide_gpu_is_workstation(o->gpu)))
        /* the cards carry their warranty; a server they stand in is still data-centre hardware */
        return o->host && decide_str_eq(o->host->kind, "server") ? share * in->host : 0;
    return share * (in->cards + in->host);
}

/* The draw above the site's power (site_power_kw), placed in colocation at the KB's price per
 * kW a month; 0 where the site takes it or states no power. */
static double colocation_per_month(const decision *d, double power_w)
{
    double site_kw = d->w->site_power_kw;
    if (isnan(site_kw) || power_w / 1000 <= site_kw)
        return 0;
    return (power_w / 1000 - site_kw) * d->colocation_per_kw_month;
}

/* Cards, the hosts they need, electricity, staff, support, colocation, less resale at the
 * horizon, later payments at present value.  A system is bought whole: its price includes its
 * host, and it draws its own stated power (the cards' TDP and a host's when the KB gives
 * none). */
static void cost_owned(decision *d, decide_option *o)
{
    const workload *w = d->w;
    int hosts = o->hosts > 0 ? o->hosts : 1;
    double cards_w = (o->gpu->tdp_w > 0 ? o->gpu->tdp_w : 0) * o->count;
    if (o->system && o->system->power_w > 0)
        o->power_w = o->system->power_w * hosts;
    else
        o->power_w = cards_w + o->host_power_w * hosts;
    cost_buy_input *in = &o->buy;
    memset(in, 0, sizeof *in);
    in->cards = o->unit_price * o->count;
    in->host = o->system ? 0 : o->host_cost * hosts;
    in->cooling = w->cooling_cost * hosts;
    in->power_w = o->power_w;
    in->hours_per_day = hours_per_day_costed(d, o);
    in->months = w->horizon_months;
    in->price_kwh = w->electricity_price;
    in->pue = w->pue;
    in->upkeep_hours_per_month = w->upkeep_hours_per_month;
    in->upkeep_rate = w->upkeep_rate;
    in->resale = in->cards * w->resale_fraction;
    in->support_per_year = support_per_year(d, o, in);
    in->colocation_per_month = colocation_per_month(d, o->power_w);
    in->discount_rate = w->discount_rate;
    cost_buy(in, &o->cost);
    double spent = o->cost.total_undiscounted + in->resale;
    o->electricity_share =
        spent > 0 ? o->cost.electricity_per_month * w->horizon_months / spent : 0;
}

/* Hours of running the work takes: its samples at o's speed, or its hours on the reference
 * card scaled by o's speed against it.  NaN when either is unknown. */
static double hours_to_finish(const decision *d, const decide_option *o)
{
    const workload *w = d->w;
    if (isnan(o->throughput))
        return NAN;
    if (!isnan(w->work_samples))
        return w->work_samples / o->throughput / 3600;
    if (!isnan(w->work_tokens))
        return w->work_tokens / o->throughput / 3600;
    if (!isnan(w->work_hours))
        return w->work_hours * d->reference_speed / o->throughput;
    return NAN;
}

void decide_option_cost_figures(decision *d, decide_option *o)
{
    o->time_to_finish_hours = hours_to_finish(d, o);
    decide_option_hours(d, o);   /* a job's, a capacity need's, mixed work's sum */
    if (o->acquisition == DECIDE_RENT)
        cost_rented(d, o);
    else
        cost_owned(d, o);
    o->per_unit = cost_per_unit(o->cost.per_hour, o->throughput, d->unit_size);
    if (d->n_parts)   /* mixed work: every option does the same whole plan */
        o->per_unit = o->cost.total;
}

void decide_option_cost(decision *d, decide_option *o)
{
    decide_option_cost_figures(d, o);
    o->committed = decide_budget_figure(d, o);
}

void decide_option_costed_at(decision *d, const decide_option *o, double unit_price,
                             double throughput, decide_option *at)
{
    *at = *o;
    at->unit_price = unit_price;
    at->throughput = throughput;
    decide_option_cost(d, at);
}
