/* cost.c — total cost of ownership, renting, break-even and bisection.  The formulas are the
 * ones the report's method section states; keep the two in step. */
#include "cost.h"

#include <math.h>
#include <string.h>

double cost_kwh_per_day(double watts, double hours_per_day)
{
    return watts * hours_per_day / 1000.0;   /* W to kW */
}

double cost_electricity_per_month(double watts, double hours_per_day, double price_kwh,
                                  double pue)
{
    if (!(pue > 0))
        pue = 1;
    return cost_kwh_per_day(watts, hours_per_day) * COST_DAYS_PER_MONTH * price_kwh * pue;
}

static double upkeep_per_month(const cost_buy_input *in)
{
    return in->upkeep_hours_per_month > 0 && in->upkeep_rate > 0
               ? in->upkeep_hours_per_month * in->upkeep_rate
               : 0;
}

static double support_per_month(const cost_buy_input *in)
{
    return in->support_per_year > 0 ? in->support_per_year / 12 : 0;
}

static double colocation_per_month(const cost_buy_input *in)
{
    return in->colocation_per_month > 0 ? in->colocation_per_month : 0;
}

/* Monthly costs that do not grow with use: staff, support, colocation. */
static double fixed_per_month(const cost_buy_input *in)
{
    return upkeep_per_month(in) + support_per_month(in) + colocation_per_month(in);
}

static int discounted(double rate)
{
    return rate > 0;   /* NaN and 0 are not */
}

double cost_present_months(double months, double discount_rate)
{
    if (!discounted(discount_rate) || !(months > 0))
        return months > 0 ? months : 0;
    double monthly = pow(1 + discount_rate, 1.0 / 12) - 1;
    return (1 - pow(1 + monthly, -months)) / monthly;
}

double cost_present_factor(double months, double discount_rate)
{
    if (!discounted(discount_rate))
        return 1;
    return pow(1 + discount_rate, -months / 12);
}

void cost_buy(const cost_buy_input *in, cost_summary *out)
{
    memset(out, 0, sizeof *out);
    out->upfront = in->cards + in->host + in->cooling;
    out->electricity_per_month =
        cost_electricity_per_month(in->power_w, in->hours_per_day, in->price_kwh, in->pue);
    out->staff_per_month = upkeep_per_month(in);
    out->support_per_month = support_per_month(in);
    out->colocation_per_month = colocation_per_month(in);
    out->running_per_month = out->electricity_per_month + fixed_per_month(in);
    out->total_undiscounted = out->upfront + out->running_per_month * in->months - in->resale;
    out->total = out->upfront +
                 out->running_per_month * cost_present_months(in->months, in->discount_rate) -
                 in->resale * cost_present_factor(in->months, in->discount_rate);
    out->hours_of_use = in->hours_per_day * COST_DAYS_PER_MONTH * in->months;
    out->per_hour = out->hours_of_use > 0 ? out->total / out->hours_of_use : NAN;
}

void cost_rent_discount(cost_summary *s, double months, double discount_rate)
{
    s->total_undiscounted = s->total;
    if (!discounted(discount_rate) || !(months > 0))
        return;
    s->total = s->running_per_month * cost_present_months(months, discount_rate);
    s->per_hour = s->hours_of_use > 0 ? s->total / s->hours_of_use : NAN;
}

void cost_rent(double price_per_hour, double hours_per_day, double months, cost_summary *out)
{
    memset(out, 0, sizeof *out);
    out->hours_of_use = hours_per_day * COST_DAYS_PER_MONTH * months;
    out->running_per_month = price_per_hour * hours_per_day * COST_DAYS_PER_MONTH;
    out->total = price_per_hour * out->hours_of_use;
    out->total_undiscounted = out->total;
    out->per_hour = price_per_hour;
}

double cost_per_unit(double per_hour, double throughput_per_s, double unit_size)
{
    if (!(throughput_per_s > 0))
        return NAN;
    return per_hour / (throughput_per_s * 3600.0) * unit_size;
}

double cost_speedup_to_match(double rent_per_hour, double own_per_hour)
{
    return own_per_hour > 0 ? rent_per_hour / own_per_hour : NAN;
}

/* Electricity for one hour of running, the only cost that grows with use. */
static double energy_per_hour(const cost_buy_input *in)
{
    double pue = in->pue > 0 ? in->pue : 1;
    return in->power_w / 1000.0 * in->price_kwh * pue;
}

double cost_break_even_hours_per_day(const cost_buy_input *in, double rent_equivalent_per_hour)
{
    double fixed = in->cards + in->host + in->cooling + fixed_per_month(in) * in->months -
                   in->resale;
    double margin = rent_equivalent_per_hour - energy_per_hour(in);
    if (!(margin > 0) || !(in->months > 0))
        return NAN;
    if (fixed <= 0)
        return 0;
    return fixed / (COST_DAYS_PER_MONTH * in->months * margin);
}

double cost_break_even_month(const cost_buy_input *in, double rent_equivalent_per_hour)
{
    double rent_month = rent_equivalent_per_hour * in->hours_per_day * COST_DAYS_PER_MONTH;
    double running = cost_electricity_per_month(in->power_w, in->hours_per_day, in->price_kwh,
                                                in->pue) +
                     fixed_per_month(in);
    double margin = rent_month - running;
    if (!(margin > 0))
        return NAN;
    return (in->cards + in->host + in->cooling) / margin;
}

double cost_cumulative_buy(const cost_buy_input *in, double month)
{
    double running = cost_electricity_per_month(in->power_w, in->hours_per_day, in->price_kwh,
                                                in->pue) +
                     fixed_per_month(in);
    return in->cards + in->host + in->cooling + running * month;
}

double cost_cumulative_rent(double rent_equivalent_per_hour, double hours_per_day, double month)
{
    return rent_equivalent_per_hour * hours_per_day * COST_DAYS_PER_MONTH * month;
}

/* The tolerance (a share of the bracket) when the caller gives none, and a bound on the
 * halvings: a tolerance t takes log2(1/t) of them (20 for 1e-6), so 200 is reached only by one
 * below 1e-60, and the bracket is then as narrow as anyone could use. */
#define BISECT_DEFAULT_TOLERANCE 1e-6
#define BISECT_MAX_STEPS 200

int cost_bisect(cost_fn f, void *ctx, double lo, double hi, double tol, double *root)
{
    double flo = f(lo, ctx), fhi = f(hi, ctx);
    if (isnan(flo) || isnan(fhi))
        return 0;
    if (flo == 0) {
        *root = lo;
        return 1;
    }
    if (fhi == 0) {
        *root = hi;
        return 1;
    }
    if ((flo < 0) == (fhi < 0))
        return 0;
    double width = (hi - lo) * (tol > 0 ? tol : BISECT_DEFAULT_TOLERANCE);
    for (int i = 0; i < BISECT_MAX_STEPS && hi - lo > width; i++) {
        double mid = (lo + hi) / 2, fmid = f(mid, ctx);
        if (isnan(fmid))
            return 0;
        if ((fmid < 0) == (flo < 0)) {
            lo = mid;
            flo = fmid;
        } else {
            hi = mid;
        }
    }
    *root = (lo + hi) / 2;
    return 1;
}
