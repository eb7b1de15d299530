/* decide_whatif.c — a decision's what-ifs, after the ranking: the best purchase against the best
 * rental (break-even hours a day and month, the cumulative-cost chart's series), and how much
 * each input (electricity price, hours a day, purchase and rental prices) sways the answer:
 * the swing over -20% .. +20% and the point where another option wins. */
#include "decide_whatif.h"
#include "decide_cost.h"
#include "decide_fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The inputs are scaled by 1 - SENS_STEP and 1 + SENS_STEP (the report's "within 20%"). */
#define SENS_STEP 0.20
/* The flip point is looked for from 1 up to SENS_SCAN_UP (hours a day: up to 24 h) and down to
 * SENS_SCAN_DOWN, on a log grid of SENS_SCAN_STEPS points each way, then bisected to
 * SENS_TOLERANCE of the bracket; the option that wins past it is read SENS_NUDGE beyond it. */
#define SENS_SCAN_UP 10.0
#define SENS_SCAN_DOWN 0.05
#define SENS_SCAN_STEPS 24
#define SENS_TOLERANCE 1e-6
#define SENS_NUDGE 0.001
/* The cumulative-cost chart has a point a month, at most this many. */
#define CUMULATIVE_POINTS_MAX 24

/* ---- break-even: the best purchase against the best rental ---- */

static const decide_option *best_of(const decision *d, int rent)
{
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (o->feasible && !o->held_back && (o->acquisition == DECIDE_RENT) == rent)
            return o;   /* an anecdotal price is never recommended, so never compared */
    }
    return NULL;
}

/* The months the hardware works: capacity, the horizon; a job runs at the workload's hours a
 * day from the start until its hours are done (the purchase then idles until it is sold, the
 * rental is given back). */
static double working_months(const decision *d, const decide_option *buy)
{
    const workload *w = d->w;
    if (!workload_is_job(w) || isnan(buy->hours_needed))
        return w->horizon_months;
    return fmin(buy->hours_needed / (w->hours_per_day * COST_DAYS_PER_MONTH), w->horizon_months);
}

/* What the purchase has cost by month m, before its resale: a job's electricity is spent while
 * it runs (its cost inputs spread those hours over the horizon, for the same total). */
static double outlay_buy(const decision *d, const decide_option *buy, double m)
{
    const cost_buy_input *in = &buy->buy;
    if (!workload_is_job(d->w))
        return cost_cumulative_buy(in, m);
    double spread = cost_electricity_per_month(in->power_w, in->hours_per_day, in->price_kwh,
                                               in->pue);
    double running = cost_electricity_per_month(in->power_w, d->w->hours_per_day, in->price_kwh,
                                                in->pue);
    return cost_cumulative_buy(in, m) - spread * m + running * fmin(m, working_months(d, buy));
}

/* What renting the same work (rent_equiv an hour of the purchase's work) has cost by month m. */
static double outlay_rent(const decision *d, const decide_option *buy, double rent_equiv,
                          double m)
{
    return cost_cumulative_rent(rent_equiv, d->w->hours_per_day, fmin(m, working_months(d, buy)));
}

/* The month the rental's outlay overtakes the purchase's (before resale); NaN never.  Both rise
 * in straight lines while the hardware works; after a job's months only the purchase's upkeep
 * goes on, so they cross then or never. */
static double overtaking_month(const decision *d, const decide_option *buy, double rent_equiv)
{
    if (!workload_is_job(d->w))
        return cost_break_even_month(&buy->buy, rent_equiv);
    double end = working_months(d, buy);
    if (!(end > 0))
        return NAN;
    double fixed = outlay_buy(d, buy, 0);
    double margin = (outlay_rent(d, buy, rent_equiv, end) - (outlay_buy(d, buy, end) - fixed)) /
                    end;
    return margin > 0 && fixed / margin <= end ? fixed / margin : NAN;
}

/* Cumulative outlay of buy and of renting the same work (rent_equiv an hour), for the chart.
 * The purchase's line drops by the resale at the horizon, so that both lines end at the totals
 * the cost table gives (the rental's for the hours the same work takes on it). */
static void cumulative_chart(decision *d, const decide_option *buy, const decide_option *rent,
                             double rent_equiv, double month)
{
    const workload *w = d->w;
    view *chart = d->cumulative = view_map();
    view *series = view_map_set(chart, "series", view_list());
    double months = w->horizon_months;
    int steps = months <= CUMULATIVE_POINTS_MAX ? (int)ceil(months) : CUMULATIVE_POINTS_MAX;
    for (int s = 0; s < 2; s++) {
        view *one = view_list_push(series, view_map());
        gw_buf name = GW_BUF_INIT;
        decide_option_label(&name, s ? rent : buy, 1);
        view_map_set_str(one, "name", buf_cstr(&name));
        buf_free(&name);
        view *pts = view_map_set(one, "points", view_list());
        for (int k = 0; k <= steps; k++) {
            double m = months * k / steps;
            view *pt = view_list_push(pts, view_list());
            view_list_push(pt, view_number(m));
            view_list_push(pt, view_number(s ? outlay_rent(d, buy, rent_equiv, m)
                                             : outlay_buy(d, buy, m)));
        }
        if (!s && buy->buy.resale > 0) {   /* sold at the horizon */
            view *pt = view_list_push(pts, view_list());
            view_list_push(pt, view_number(months));
            view_list_push(pt, view_number(outlay_buy(d, buy, months) - buy->buy.resale));
        }
    }
    decide_set_money(chart, d, "buy_total", buy->cost.total);
    decide_set_money(chart, d, "buy_resale", buy->buy.resale);
    decide_set_money(chart, d, "rent_total", outlay_rent(d, buy, rent_equiv, months));
    decide_set_money(chart, d, "rent_offer_total", rent->cost.total);
    decide_set_figure(chart, "rent_hours_factor", buy->throughput / rent->throughput, 2, NULL);
    if (!isnan(month) && month <= months) {
        view *mk = view_map_set(chart, "marker", view_map());
        view_map_set_num(mk, "x", month);
        view_map_set_num(mk, "y", outlay_buy(d, buy, month));
        char label[64];
        snprintf(label, sizeof label, "break-even: month %.1f", month);
        view_map_set_str(mk, "label", label);
    }
}

void decide_break_even(decision *d)
{
    const workload *w = d->w;
    const decide_option *buy = best_of(d, 0), *rent = best_of(d, 1);
    d->break_even = view_map();
    if (!buy || !rent) {
        view_map_set(d->break_even, "buy_option", view_null());
        view_map_set(d->break_even, "rent_option", view_null());
        return;
    }
    /* Rent for the work the owned system does in one hour (per hour of use: a minimum billing
     * included). */
    double rent_equiv = rent->cost.per_hour * buy->throughput / rent->throughput;
    /* The hours a day compare what the ranking compares (and the sensitivity's flip points):
     * cost per unit of work x each option's rule adjustment.  The purchase's per-unit figure
     * x its adjustment equals the rental's when its cost an hour equals the rent for the same
     * work x the ratio of the adjustments. */
    double adjustment_ratio = decide_rules_adjustment(rent) / decide_rules_adjustment(buy);
    double hours = cost_break_even_hours_per_day(&buy->buy, rent_equiv * adjustment_ratio);
    int within_a_day = !isnan(hours) && hours <= 24;
    double month = overtaking_month(d, buy, rent_equiv);
    double speedup = cost_speedup_to_match(rent->cost.per_hour, buy->cost.per_hour);
    view *b = d->break_even;
    view_map_set_str(b, "buy_option", buy->id);
    view_map_set_str(b, "rent_option", rent->id);
    gw_buf l = GW_BUF_INIT;
    decide_option_label(&l, buy, 0);
    view_map_set_str(b, "buy_label", buf_cstr(&l));
    /* a purchase priced long ago (a launch MSRP, say) says so wherever its break-even is told */
    if (buy->price_as_of && buy->price_age_days > d->w->price_max_age_days)
        view_map_set_str(b, "buy_price_old_as_of", buy->price_as_of);
    buf_reset(&l);
    decide_option_label(&l, rent, 0);
    view_map_set_str(b, "rent_label", buf_cstr(&l));
    buf_free(&l);
    decide_set_money(b, d, "own_per_hour", buy->cost.per_hour);
    decide_set_money(b, d, "rent_per_hour", rent->cost.per_hour);
    decide_set_money(b, d, "rent_equivalent_per_hour", rent_equiv);
    decide_set_figure(b, "buy_rule_adjustment", decide_rules_adjustment(buy), 2, NULL);
    decide_set_figure(b, "rent_rule_adjustment", decide_rules_adjustment(rent), 2, NULL);
    /* Past 24 h a day there is no such use: buying never pays ("never", the number null). */
    if (within_a_day) {
        decide_set_figure(b, "hours_per_day", hours, 1, " h/day");
        /* the same on money alone, without the rules' adjustments */
        double money = cost_break_even_hours_per_day(&buy->buy, rent_equiv);
        if (!isnan(money) && money <= 24)
            decide_set_figure(b, "hours_per_day_cost_only", money, 1, " h/day");
    } else {
        view_map_set(b, "hours_per_day", view_null());
        view_map_set_str(b, "hours_per_day_text", "never");
    }
    view_map_set_bool(b, "buying_pays_within_a_day", within_a_day);
    /* A job uses the hardware for its hours alone: the hours a day above are of use over the
     * whole horizon, which the job is not (its hours, averaged over the horizon, beside them). */
    if (workload_is_job(w) && !isnan(buy->hours_needed)) {
        decide_set_figure(b, "job_hours", buy->hours_needed, 0, " h");
        decide_set_figure(b, "job_hours_per_day",
                          buy->hours_needed / (COST_DAYS_PER_MONTH * w->horizon_months), 1,
                          " h/day");
    }
    view_map_set_str(b, "compares", "cost per unit of work x each option's rule adjustment, "
                                    "the figure the options are ranked by");
    decide_set_figure(b, "month", month, 1, NULL);
    view_map_set_bool(b, "crosses_within_horizon", !isnan(month) && month <= w->horizon_months);
    decide_set_figure(b, "speedup_needed", speedup, 3, "x");
    decide_set_figure(b, "actual_speed_ratio", rent->throughput / buy->throughput, 3, "x");
    cumulative_chart(d, buy, rent, rent_equiv, month);
}

/* ---- sensitivity: scores under scaled inputs ---- */

/* The prices move every offer of their kind together; the recommendation's own price moves it
 * alone (a stale or "from" price of one provider). */
enum { SENS_ELECTRICITY, SENS_HOURS, SENS_PURCHASE, SENS_HOST, SENS_RENT, SENS_OWN, SENS_COUNT };
static const char *const sens_names[] = {"electricity price", "hours per day", "purchase price",
                                         "host machine cost", "rental price",
                                         "the recommendation's own price"};
static const char *const sens_keys[] = {"electricity_price", "hours_per_day", "purchase_price",
                                        "host_cost", "rental_price", "own_price"};

/* o's score with input param scaled by factor, its verdicts held. */
static double score_with(const decision *d, const decide_option *o, int param, double factor)
{
    double per_hour;
    int own = param == SENS_OWN && o == decide_best(d);
    if (o->acquisition == DECIDE_RENT) {
        /* per hour of use: the hours billed and not used (minimum billing) included */
        per_hour = o->cost.per_hour * (param == SENS_RENT || own ? factor : 1);
    } else {
        cost_buy_input in = o->buy;
        if (param == SENS_ELECTRICITY)
            in.price_kwh *= factor;
        else if (param == SENS_HOURS)
            in.hours_per_day = fmin(24, in.hours_per_day * factor);
        else if (param == SENS_PURCHASE || own)
            in.cards *= factor, in.resale *= factor;
        else if (param == SENS_HOST)
            in.host *= factor;
        cost_summary s;
        cost_buy(&in, &s);
        per_hour = s.per_hour;
    }
    return cost_per_unit(per_hour, o->throughput, d->unit_size) * decide_rules_adjustment(o);
}

/* Whether o is still an option when input param is scaled by factor: a job must still finish
 * (fewer hours a day leave fewer hours to finish in), and the cash it commits must stay within
 * the budget (the budget's one figure, o->committed: a purchase's cards, hosts and cooling; a
 * job's rental bill; a capacity rental's first month, which grows with the hours). */
static int still_finishes(const decision *d, const decide_option *o, int param, double factor)
{
    if (param == SENS_HOURS &&
        o->hours_needed > o->hours_available * fmin(factor, 24 / d->w->hours_per_day))
        return 0;
    if (isnan(d->w->budget))
        return 1;
    double committed = o->committed;
    if (o->acquisition != DECIDE_RENT) {
        int own = param == SENS_OWN && o == decide_best(d);
        double f_cards = param == SENS_PURCHASE || own ? factor : 1;
        double f_host = param == SENS_HOST ? factor : 1;
        committed = o->buy.cards * f_cards + o->buy.host * f_host + o->buy.cooling;
    } else if (param == SENS_RENT || (param == SENS_OWN && o == decide_best(d)) ||
               (param == SENS_HOURS && !workload_is_job(d->w))) {
        committed *= factor;
    }
    return committed <= d->w->budget * (1 + 1e-9);
}

/* The best feasible option under a scaled input (still_finishes). */
static const decide_option *winner_with(const decision *d, int param, double factor,
                                        double *score)
{
    const decide_option *best = NULL;
    double best_score = INFINITY;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (!o->feasible || o->held_back)
            continue;
        if (!still_finishes(d, o, param, factor))
            continue;
        double s = score_with(d, o, param, factor);
        if (s < best_score || (s == best_score && best && strcmp(o->id, best->id) < 0)) {
            best_score = s;
            best = o;
        }
    }
    if (score)
        *score = best_score;
    return best;
}

typedef struct flip_ctx {
    const decision *d;
    const decide_option *base;
    int param;
} flip_ctx;

/* > 0 once another option beats the base winner, or it can no longer finish the job. */
static double flip_fn(double factor, void *p)
{
    const flip_ctx *c = p;
    double best;
    if (!still_finishes(c->d, c->base, c->param, factor))
        return 1;
    const decide_option *w = winner_with(c->d, c->param, factor, &best);
    if (!w)
        return NAN;
    return w == c->base ? -1 : score_with(c->d, c->base, c->param, factor) - best;
}

/* The factor on param at which another option beats win: scan outward on a log grid, then
 * bisect.  NaN when none does in the range tried. */
static double flip_factor(const decision *d, const decide_option *win, int param)
{
    flip_ctx fc = {d, win, param};
    double max_up = param == SENS_HOURS ? 24 / d->w->hours_per_day : SENS_SCAN_UP;
    double ends[2] = {max_up, SENS_SCAN_DOWN};
    for (int dir = 0; dir < 2; dir++) {
        double prev = 1;
        for (int k = 1; k <= SENS_SCAN_STEPS; k++) {
            double f = exp(log(ends[dir]) * k / (double)SENS_SCAN_STEPS);   /* from 1 */
            if (flip_fn(f, &fc) > 0) {
                double root;
                if (cost_bisect(flip_fn, &fc, fmin(prev, f), fmax(prev, f), SENS_TOLERANCE,
                                &root))
                    return root;
                return f;
            }
            prev = f;
        }
    }
    return NAN;
}

/* The input's value in the workload (or the winner's price); NaN where it is not one figure. */
static double base_value(const decision *d, const decide_option *win, int param)
{
    const workload *w = d->w;
    switch (param) {
    case SENS_ELECTRICITY:
        return w->electricity_price;
    case SENS_HOURS:
        return w->hours_per_day;
    case SENS_HOST:
        return win->acquisition != DECIDE_RENT && !win->system ? w->host_cost : NAN;
    case SENS_OWN:
        return win->unit_price;
    case SENS_RENT:   /* the rental price of several offers: given as a factor only */
        return win->acquisition == DECIDE_RENT ? win->unit_price : NAN;
    default:
        return win->acquisition != DECIDE_RENT ? win->unit_price : NAN;
    }
}

/* The flip point into m: factor, value, the option that wins and a sentence. */
static void flip_view(view *m, const decision *d, const decide_option *win, int param)
{
    double flip = flip_factor(d, win, param);
    double base = base_value(d, win, param);
    view_map_set_num(m, "flip_factor", flip);
    if (isnan(flip)) {
        view_map_set(m, "flips_to", view_null());
        view_map_set(m, "flip_value", view_null());
        /* the range flip_factor searched, said in the same terms as a flip point */
        double up = param == SENS_HOURS ? 24 / d->w->hours_per_day : SENS_SCAN_UP;
        char text[128];
        snprintf(text, sizeof text, "does not change the answer from %+.0f%% to %+.0f%%",
                 (SENS_SCAN_DOWN - 1) * 100, (up - 1) * 100);
        view_map_set_str(m, "flip_text", text);
        return;
    }
    const decide_option *nw =
        winner_with(d, param, flip * (flip > 1 ? 1 + SENS_NUDGE : 1 - SENS_NUDGE), NULL);
    view_map_set_str(m, "flips_to", nw ? nw->id : NULL);
    view_map_set_num(m, "flip_value", base * flip);
    gw_buf t = GW_BUF_INIT;
    buf_printf(&t, "%+.0f%%", (flip - 1) * 100);
    if (!isnan(base)) {
        buf_puts(&t, " (");
        if (param == SENS_HOURS)
            buf_printf(&t, "%.1f h/day", base * flip);
        else
            decide_money(&t, d, base * flip);
        buf_puts(&t, ")");
    }
    /* Past the flip the recommendation may be out altogether: say why. */
    double past = flip * (flip > 1 ? 1 + SENS_NUDGE : 1 - SENS_NUDGE);
    int out = !still_finishes(d, win, param, past);
    if (out)
        buf_puts(&t, param == SENS_HOURS && win->hours_needed > win->hours_available * past
                         ? ": past it the recommendation can no longer finish in time"
                         : ": past it the recommendation's cash up front exceeds the budget");
    if (nw && nw != win) {
        buf_puts(&t, out ? ", and " : ": ");
        decide_option_label(&t, nw, 0);
        buf_puts(&t, " wins");
    } else if (out) {
        buf_puts(&t, ", and no other option is left");
    }
    view_map_set_str(m, "flip_text", buf_cstr(&t));
    buf_free(&t);
}

/* One input's entry; returns its swing: how far the recommended option's own cost per unit
 * moves over the step down and up. */
static double parameter_view(view *m, const decision *d, const decide_option *win, int param)
{
    view_map_set_str(m, "parameter", sens_keys[param]);
    view_map_set_str(m, "name", sens_names[param]);
    const decide_option *lo = winner_with(d, param, 1 - SENS_STEP, NULL);
    const decide_option *hi = winner_with(d, param, 1 + SENS_STEP, NULL);
    double win_lo = score_with(d, win, param, 1 - SENS_STEP);
    double win_hi = score_with(d, win, param, 1 + SENS_STEP);
    double swing = fabs(win_hi - win_lo) / win->score;
    view_map_set_num(m, "swing", swing);
    gw_buf t = GW_BUF_INIT;
    buf_printf(&t, "%.1f%%", swing * 100);
    view_map_set_str(m, "swing_text", buf_cstr(&t));
    buf_free(&t);
    view_map_set_str(m, "winner_minus_20", lo ? lo->id : NULL);
    view_map_set_str(m, "winner_plus_20", hi ? hi->id : NULL);
    view_map_set_bool(m, "changes_within_20", lo != win || hi != win);
    flip_view(m, d, win, param);
    return swing;
}

void decide_sensitivity(decision *d)
{
    const decide_option *win = decide_best(d);
    d->sensitivity = view_map();
    view *params = view_map_set(d->sensitivity, "parameters", view_list());
    if (!win)
        return;
    double best_swing = -1;
    int most = -1;
    for (int p = 0; p < SENS_COUNT; p++) {
        double swing = parameter_view(view_list_push(params, view_map()), d, win, p);
        if (swing > best_swing) {
            best_swing = swing;
            most = p;
        }
    }
    view_map_set_str(d->sensitivity, "moves_most", most < 0 ? NULL : sens_keys[most]);
    if (most >= 0)
        view_map_set_str(d->sensitivity, "moves_most_name", sens_names[most]);
    gw_buf method = GW_BUF_INIT;
    buf_printf(&method,
               "each input scaled by -%.0f%% and +%.0f%% with the others held; the swing is the "
               "change in the recommended option's cost per unit of work; the flip point is "
               "found by bisection on the figure the options are ranked by (cost per unit of "
               "work x the rules' adjustment, the same comparison as the break-even hours a "
               "day), searched from %+.0f%% to %+.0f%% (hours a day: up to 24; for a job, an "
               "option whose runs no longer fit the fewer hours is out); the budget is checked "
               "again at each value (an option whose cash up front then exceeds it is out), and "
               "the other rules' verdicts are held at their base values; the options are the "
               "plan's (a rental of several instances, offered only where fewer cannot finish "
               "in time at the plan's hours, is not added at other values)",
               SENS_STEP * 100, SENS_STEP * 100, (SENS_SCAN_DOWN - 1) * 100,
               (SENS_SCAN_UP - 1) * 100);
    view_map_set_str(d->sensitivity, "method", buf_cstr(&method));
    buf_free(&method);
}
