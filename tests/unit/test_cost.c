/* test_cost.c — the cost formulas against figures worked out by hand (and quoted in the articles
 * buyers read: a100-vs-4x3090, a100-rented-vs-local-3090, 4090-a100-h100). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/cost.h"

static void electricity_600w_and_2000w(void **state)
{
    (void)state;
    /* 600 W x 24 h = 14.4 kWh a day; x 30 days x CNY 1 = CNY 432 a month. */
    assert_float_equal(cost_kwh_per_day(600, 24), 14.4, 1e-9);
    assert_float_equal(cost_electricity_per_month(600, 24, 1.0, 1.0), 432.0, 1e-9);
    /* 2000 W x 24 h = 48 kWh a day; x 30 x CNY 1 = CNY 1440 a month. */
    assert_float_equal(cost_kwh_per_day(2000, 24), 48.0, 1e-9);
    assert_float_equal(cost_electricity_per_month(2000, 24, 1.0, 1.0), 1440.0, 1e-9);
    /* PUE 1.5 multiplies the bill: 432 x 1.5 = 648; PUE 0 (unset) counts as 1. */
    assert_float_equal(cost_electricity_per_month(600, 24, 1.0, 1.5), 648.0, 1e-9);
    assert_float_equal(cost_electricity_per_month(600, 24, 1.0, 0), 432.0, 1e-9);
}

/* The owned RTX 3090 of a100-rented-vs-local-3090: CNY 5,999 written off over 36 months, run
 * 24 h a day (the article's electricity line is 350 W x 24 h x 0.6 = CNY 5.04 a day). */
static cost_buy_input owned_3090(void)
{
    cost_buy_input in = {0};
    in.cards = 5999;
    in.power_w = 350;
    in.hours_per_day = 24;
    in.months = 36;
    in.price_kwh = 0.6;
    in.pue = 1;
    return in;
}

static void owned_3090_per_hour_and_speedup(void **state)
{
    (void)state;
    cost_buy_input in = owned_3090();
    cost_summary s;
    cost_buy(&in, &s);
    /* hours: 24 x 30 x 36 = 25,920.  cards: 5999 / 25920 = 0.2314/h.
     * electricity: 0.35 kW x 0.6 = 0.21/h.  total 0.4414/h, the article's "about 0.44". */
    assert_float_equal(s.hours_of_use, 25920, 1e-9);
    assert_float_equal(s.per_hour, 5999.0 / 25920 + 0.21, 1e-9);
    assert_float_equal(s.per_hour, 0.44, 0.005);
    /* electricity per month: 5.04 a day x 30 = 151.2 */
    assert_float_equal(s.electricity_per_month, 151.2, 1e-9);
    /* A CNY 3.2/h rental must be 3.2 / 0.44 = 7.27x faster; with the unrounded 0.4414 it is
     * 7.25, within 0.03 of the article's figure. */
    assert_float_equal(cost_speedup_to_match(3.2, 0.44), 7.2727, 1e-3);
    assert_float_equal(cost_speedup_to_match(3.2, s.per_hour), 7.27, 0.03);
}

static void rtx4090_three_years(void **state)
{
    (void)state;
    /* 4090-a100-h100: card CNY 16,000, host CNY 8,000, CNY 5,000 of power over three years,
     * CNY 5,000 resale, 6 h a day.  Power: 450 W x 6 h x 1080 days = 2,916 kWh, so a price of
     * 5000 / 2916 per kWh makes the electricity exactly CNY 5,000. */
    cost_buy_input in = {0};
    in.cards = 16000;
    in.host = 8000;
    in.power_w = 450;
    in.hours_per_day = 6;
    in.months = 36;
    in.price_kwh = 5000.0 / 2916.0;
    in.pue = 1;
    in.resale = 5000;
    cost_summary s;
    cost_buy(&in, &s);
    /* total 16000 + 8000 + 5000 - 5000 = 24,000; hours 6 x 30 x 36 = 6,480; 24000 / 6480 =
     * 3.70/h (the article's "about 3.7"; with 365-day years it would be 3.65). */
    assert_float_equal(s.upfront, 24000, 1e-6);
    assert_float_equal(s.total, 24000, 1e-6);
    assert_float_equal(s.hours_of_use, 6480, 1e-9);
    assert_float_equal(s.per_hour, 3.7037, 1e-3);
}

static void renting(void **state)
{
    (void)state;
    cost_summary s;
    /* CNY 3.2/h x 8 h x 30 days = 768 a month; x 12 months = 9,216. */
    cost_rent(3.2, 8, 12, &s);
    assert_float_equal(s.upfront, 0, 0);
    assert_float_equal(s.running_per_month, 768, 1e-9);
    assert_float_equal(s.total, 9216, 1e-9);
    assert_float_equal(s.per_hour, 3.2, 0);
    /* CNY 3.6/h at 1000 images/s: 3.6M images an hour, so 1M images cost CNY 1.00. */
    assert_float_equal(cost_per_unit(3.6, 1000, 1e6), 1.0, 1e-12);
    assert_true(isnan(cost_per_unit(3.6, 0, 1e6)));
}

static void break_even(void **state)
{
    (void)state;
    /* Card 5,000 and host 1,000 over 10 months, 500 W at 1.0/kWh (0.5/h of electricity), no
     * upkeep or resale; renting the same work costs 2.5/h.
     * Hours a day: 6000 / (30 x 10 x (2.5 - 0.5)) = 10 h.
     * Month: running at 8 h/day = 0.5 x 8 x 30 = 120/month; rent 2.5 x 8 x 30 = 600/month;
     * 6000 / (600 - 120) = 12.5 months. */
    cost_buy_input in = {0};
    in.cards = 5000;
    in.host = 1000;
    in.power_w = 500;
    in.hours_per_day = 8;
    in.months = 10;
    in.price_kwh = 1.0;
    in.pue = 1;
    assert_float_equal(cost_break_even_hours_per_day(&in, 2.5), 10.0, 1e-9);
    assert_float_equal(cost_break_even_month(&in, 2.5), 12.5, 1e-9);
    /* At the break-even hours the two costs per hour agree: (6000 + 0.5 x 10 x 300) / 3000 =
     * 2.5. */
    in.hours_per_day = 10;
    cost_summary s;
    cost_buy(&in, &s);
    assert_float_equal(s.per_hour, 2.5, 1e-9);
    /* Cumulative after 12.5 months at 8 h/day: buy 6000 + 120 x 12.5 = 7500 = rent 600 x 12.5. */
    in.hours_per_day = 8;
    assert_float_equal(cost_cumulative_buy(&in, 12.5), 7500, 1e-9);
    assert_float_equal(cost_cumulative_rent(2.5, 8, 12.5), 7500, 1e-9);
    /* Rent at or below the electricity: owning never pays. */
    assert_true(isnan(cost_break_even_hours_per_day(&in, 0.4)));
    assert_true(isnan(cost_break_even_month(&in, 0.4)));
}

static double minus_sqrt2(double x, void *ctx)
{
    (void)ctx;
    return x * x - 2;
}

/* Present value (issue 27): 36 monthly payments at 8% a year, i = 1.08^(1/12) - 1 = 0.0064340,
 * count (1 - 1.08^-3) / i = 0.2061678 / 0.0064340 = 32.0433 payments; a sum paid after 36
 * months counts 1.08^-3 = 0.793832.  A purchase of 10,000 with 100 a month running and 3,000
 * resale: 10,000 + 100 x 32.0433 - 3,000 x 0.793832 = 10,822.84 (at face value 10,600);
 * support of 1,200 a year and colocation of 50 a month add 150 a month to its running. */
static void present_value(void **state)
{
    (void)state;
    assert_float_equal(cost_present_months(36, 0.08), 32.0433, 1e-4);
    assert_float_equal(cost_present_months(36, 0), 36, 0);
    assert_float_equal(cost_present_months(36, NAN), 36, 0);
    assert_float_equal(cost_present_factor(36, 0.08), 0.793832, 1e-6);
    assert_float_equal(cost_present_factor(36, 0), 1, 0);
    cost_buy_input in = {.cards = 10000, .months = 36, .upkeep_hours_per_month = 2,
                         .upkeep_rate = 50, .resale = 3000, .discount_rate = 0.08};
    cost_summary out;
    cost_buy(&in, &out);
    assert_float_equal(out.staff_per_month, 100, 1e-9);
    assert_float_equal(out.total, 10822.84, 0.01);
    assert_float_equal(out.total_undiscounted, 10600, 1e-6);
    in.discount_rate = 0;
    in.support_per_year = 1200;
    in.colocation_per_month = 50;
    cost_buy(&in, &out);
    assert_float_equal(out.support_per_month, 100, 1e-9);
    assert_float_equal(out.running_per_month, 250, 1e-9);   /* 100 staff + 100 + 50 */
    assert_float_equal(out.total, 10000 + 250 * 36 - 3000, 1e-6);
}

static void bisection(void **state)
{
    (void)state;
    double root = 0;
    assert_int_equal(cost_bisect(minus_sqrt2, NULL, 0, 2, 1e-9, &root), 1);
    assert_float_equal(root, 1.41421356, 1e-6);
    /* No sign change on [2, 3]. */
    assert_int_equal(cost_bisect(minus_sqrt2, NULL, 2, 3, 1e-9, &root), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(electricity_600w_and_2000w),
        cmocka_unit_test(owned_3090_per_hour_and_speedup),
        cmocka_unit_test(rtx4090_three_years),
        cmocka_unit_test(renting),
        cmocka_unit_test(break_even),
        cmocka_unit_test(present_value),
        cmocka_unit_test(bisection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
