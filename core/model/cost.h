/* cost.h — money: the total cost of owning GPUs over a horizon, the cost of renting them, cost
 * per hour and per unit of work, break-even points, and a bisection used by the sensitivity
 * analysis.  Pure arithmetic in one currency; converting prices is the caller's job. */
#ifndef GW_COST_H
#define GW_COST_H

/* A month is 30 days, as the articles buyers read reckon (600 W x 24 h at CNY 1/kWh = CNY 432). */
#define COST_DAYS_PER_MONTH 30.0

typedef struct cost_buy_input {
    double cards;                   /* purchase price of all the cards */
    double host;                    /* host machines (chassis, CPU, board, PSU) */
    double cooling;                 /* one-off cooling spend */
    double power_w;                 /* whole system under load */
    double hours_per_day;           /* hours the system runs a day */
    double months;                  /* horizon */
    double price_kwh, pue;          /* electricity price per kWh; facility overhead (>= 1) */
    double upkeep_hours_per_month;  /* people's time keeping the machine running */
    double upkeep_rate;             /* cost of one such hour */
    double resale;                  /* what the hardware sells for at the horizon */
    double support_per_year;        /* support and warranty contracts, a year */
    double colocation_per_month;    /* room for the draw a site cannot take, a month */
    double discount_rate;           /* a year; later payments and resale at present value (0 or
                                     * NaN: none) */
} cost_buy_input;

typedef struct cost_summary {
    double upfront;                 /* paid on day one (0 when renting) */
    double electricity_per_month;
    double running_per_month;       /* electricity + staff + support + colocation (rent: the
                                     * rental bill) */
    double staff_per_month;         /* upkeep hours x their rate */
    double support_per_month;       /* support_per_year / 12 */
    double colocation_per_month;
    double total;                   /* over the horizon, resale deducted, at present value
                                     * where a discount rate is given */
    double total_undiscounted;      /* the same, every payment at its face value */
    double hours_of_use;            /* hours_per_day x 30 x months */
    double per_hour;                /* total / hours_of_use */
} cost_summary;

double cost_kwh_per_day(double watts, double hours_per_day);
/* watts x hours x 30 days / 1000 x price x PUE (PUE <= 0 counts as 1). */
double cost_electricity_per_month(double watts, double hours_per_day, double price_kwh,
                                  double pue);

/* Present value of 1 a month paid at each month's end for months, at discount_rate a year
 * (monthly rate i = (1 + rate)^(1/12) - 1): (1 - (1 + i)^-months) / i; months itself when the
 * rate is 0 or NaN.  36 months at 8%: i = 0.0064340, (1 - 1.08^-3) / i = 32.04. */
double cost_present_months(double months, double discount_rate);
/* Present value of 1 paid after months: (1 + rate)^-(months / 12); 1 when the rate is 0 or NaN. */
double cost_present_factor(double months, double discount_rate);

/* total = cards + host + cooling + running x present_months - resale x present_factor, where
 * running = electricity + staff + support / 12 + colocation. */
void cost_buy(const cost_buy_input *in, cost_summary *out);
/* A rental paid month by month over months (capacity): its total at present value. */
void cost_rent_discount(cost_summary *s, double months, double discount_rate);
/* Renting price_per_hour for hours_per_day over months. */
void cost_rent(double price_per_hour, double hours_per_day, double months, cost_summary *out);

/* Cost of unit_size samples at per_hour and throughput samples/s. */
double cost_per_unit(double per_hour, double throughput_per_s, double unit_size);

/* How many times faster a rented card must be to cost the same per unit of work as an owned one:
 * rent per hour / own per hour (3.2 / 0.44 = 7.27). */
double cost_speedup_to_match(double rent_per_hour, double own_per_hour);

/* Hours a day from which buying costs less per unit of work than renting, where
 * rent_equivalent_per_hour is the rent for the work the owned system does in one hour:
 * h = (upfront + upkeep x months - resale) / (30 x months x (rent - electricity per hour)).
 * NaN when renting is never dearer (rent at or below the owned electricity). */
double cost_break_even_hours_per_day(const cost_buy_input *in, double rent_equivalent_per_hour);

/* The month at which cumulative renting (the same work) overtakes the cumulative cost of
 * owning, resale not counted: upfront / (monthly rent - monthly running).  NaN when never. */
double cost_break_even_month(const cost_buy_input *in, double rent_equivalent_per_hour);

/* Cumulative outlay after month m (resale not counted until the hardware is sold). */
double cost_cumulative_buy(const cost_buy_input *in, double month);
double cost_cumulative_rent(double rent_equivalent_per_hour, double hours_per_day, double month);

/* Finds x in [lo, hi] where f changes sign, to within tol (relative to hi - lo).  Returns 1 and
 * sets *root, or 0 when f has the same sign at both ends (or is NaN there). */
typedef double (*cost_fn)(double x, void *ctx);
int cost_bisect(cost_fn f, void *ctx, double lo, double hi, double tol, double *root);

#endif
