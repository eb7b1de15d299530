/* decide_whatif.c — a decision's what-ifs, after the ranking: the best purchase against the best
 * rental (break-even hours a day and month, the cumulative-cost chart's series), and how much
 * each input (electricity price, hours a day, purchase and rental prices, the recommendation's
 * own speed and the constants modelled speeds rest on) sways the answer: the swing over
 * -20% .. +20% and the point where another option wins. */
#include "decide_whatif.h"
#include "base/limits.h"
#include "decide_budget.h"
#include "decide_demand.h"
#include "decide_cost.h"
#include "decide_fields.h"
#include "decide_llm.h"
#include "decide_llm_accuracy.h"
#include "decide_options.h"
#include "decide_robust.h"
#include "decide_speed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
#define SENS_BASE_KEPT 4   /* the base option's figures kept under one input (sens.kept) */
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

/* The hours of use a day the plan gives the purchase: what the break-even hours and the
 * sensitivity's "hours per day" are both compared with.  Capacity with hours_needed_per_month
 * uses the purchase for the hours the need takes (200 card-hours a month on one card: 6.7 h a
 * day), not the daily cap; otherwise (and for a job) the workload's hours a day. */
static double plan_hours_per_day(const decision *d, const decide_option *buy)
{
    if (buy && !workload_is_job(d->w) && !isnan(buy->hours_needed))
        return buy->buy.hours_per_day;
    return d->w->hours_per_day;
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

/* Why there is no break-even, for each side (purchases, rentals) of which no option may be
 * recommended: none of it among the options, none feasible, or its feasible ones counted by why
 * each is held back (break_even.held_back: {side, reason, count}; not_compared_text). */
static void no_break_even_view(decision *d, const decide_option *buy, const decide_option *rent)
{
    static const char *const reason_keys[DECIDE_HELD_KINDS] = {
        NULL, "launch", "anecdote", "other_market", "stale", "from", "other"};
    view *counts = view_map_set(d->break_even, "held_back", view_list());
    gw_buf t = GW_BUF_INIT;
    int held = 0;
    buf_puts(&t, "No break-even: ");
    for (int side = 0; side < 2; side++) {
        if (side ? rent != NULL : buy != NULL)
            continue;
        const char *noun = side ? "rental" : "purchase";
        size_t all = 0, feasible = 0, n[DECIDE_HELD_KINDS] = {0};
        for (size_t i = 0; i < d->n_options; i++) {
            const decide_option *o = &d->options[i];
            if ((o->acquisition == DECIDE_RENT) != side)
                continue;
            all++;
            if (o->feasible) {
                feasible++;
                n[decide_held_back_kind(d, o)]++;
            }
        }
        if (side && !buy)
            buf_puts(&t, "; and ");
        if (!all || !feasible) {
            buf_printf(&t, "no %s is %s", noun, all ? "feasible" : "among the options");
            continue;
        }
        buf_printf(&t, "no %s may be recommended: of the %zu feasible %ss, ", noun, feasible,
                   noun);
        int listed = 0, kinds = 0;
        for (int k = DECIDE_HELD_LAUNCH; k < DECIDE_HELD_KINDS; k++)
            kinds += n[k] > 0;
        for (int k = DECIDE_HELD_LAUNCH; k < DECIDE_HELD_KINDS; k++) {
            if (!n[k])
                continue;
            buf_puts(&t, !listed ? "" : listed == kinds - 1 ? " and " : ", ");
            decide_held_back_count(&t, d, (decide_held_kind)k, n[k]);
            listed++;
            held = 1;
            view *c = view_list_push(counts, view_map());
            view_map_set_str(c, "side", noun);
            view_map_set_str(c, "reason", reason_keys[k]);
            view_map_set_int(c, "count", (long long)n[k]);
        }
    }
    buf_puts(&t, held ? ". Held back, an option is shown, ranked after the others, but never "
                        "compared." : ".");
    view_map_set_str(d->break_even, "not_compared_text", buf_cstr(&t));
    buf_free(&t);
}

void decide_break_even(decision *d)
{
    const workload *w = d->w;
    const decide_option *buy = best_of(d, 0), *rent = best_of(d, 1);
    d->break_even = view_map();
    if (!buy || !rent) {
        view_map_set(d->break_even, "buy_option", view_null());
        view_map_set(d->break_even, "rent_option", view_null());
        no_break_even_view(d, buy, rent);
        return;
    }
    /* Rent for the work the owned system does in one hour (per hour of use: the billing steps
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
    /* prices an hour: cents, as the cost table's Per hour column has them */
    decide_set_money_fixed(b, d, "own_per_hour", buy->cost.per_hour, 2);
    decide_set_money_fixed(b, d, "rent_per_hour", rent->cost.per_hour, 2);
    decide_set_money_fixed(b, d, "rent_equivalent_per_hour", rent_equiv, 2);
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
    decide_set_figure(b, "plan_hours_per_day", plan_hours_per_day(d, buy), 1, " h/day");
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
 * alone (a stale or "from" price of one provider).  From SENS_OWN_SPEED on, the inputs are
 * speeds: the recommendation's own, and the constants the modelled speeds rest on (scaling
 * efficiency, a language model's utilisation and decode bandwidth share), each only where an
 * option's speed uses it. */
enum {
    SENS_ELECTRICITY, SENS_HOURS, SENS_PURCHASE, SENS_HOST, SENS_RENT, SENS_OWN,
    SENS_OWN_SPEED, SENS_SCALING, SENS_MFU, SENS_DECODE, SENS_COUNT
};
static const char *const sens_names[] = {"electricity price", "hours per day", "purchase price",
                                         "host machine cost", "rental price",
                                         "the recommendation's own price",
                                         ("the recommendation's own speed (this offer "
                                          "alone: a slower host)"),
                                         "multi-GPU scaling efficiency",
                                         "utilisation (share of the tensor rate reached)",
                                         "decode bandwidth share"};
static const char *const sens_keys[] = {"electricity_price", "hours_per_day", "purchase_price",
                                        "host_cost", "rental_price", "own_price", "own_speed",
                                        "scaling_efficiency", "llm_mfu",
                                        "decode_bandwidth_share"};

/* One input under study: the decision, the option whose flip points are found (the cheapest
 * at the plan's figures) and the input. */
typedef struct sens {
    decision *d;
    const decide_option *base;
    int param;
    /* winner_with's shortcut for this input (sens_bound_prepare): */
    const decide_option *fixed_best;   /* the best of the options the input leaves alone */
    double fixed_score;
    const decide_option **moved;       /* the options costed again at every factor */
    size_t n_moved;
    const decide_option **bounded;     /* those with a lower bound, by base_score, lowest first */
    double *base_score;                /* their scores at the plan's figures */
    size_t n_bounded;
    size_t n_compared;                 /* feasible and not held back: what may win */
    size_t costed, costed_full;        /* options costed again, and as without the bound */
    /* The base's figures at its last factors (option_with): flip_fn and winner_with cost it at
     * one factor, the views at the winners'.  A language model's speed modelled again is
     * 144,000 instructions: costed once, llm-fleet's report 205 M -> 192 M. */
    struct sens_kept {
        double factor, score;
        int out;
    } kept[SENS_BASE_KEPT];
    size_t n_kept;
} sens;

/* o's score with a money input scaled by factor, its verdicts held. */
static double score_with(const sens *s, const decide_option *o, double factor)
{
    const decision *d = s->d;
    int param = s->param;
    double per_hour, hours_of_use = o->cost.hours_of_use;
    int own = param == SENS_OWN && o == s->base;
    if (o->acquisition == DECIDE_RENT) {
        /* per hour of use: the hours billed and not used (the billing steps) included */
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
        cost_summary cs;
        cost_buy(&in, &cs);
        per_hour = cs.per_hour;
        hours_of_use = cs.hours_of_use;
    }
    if (d->n_parts)   /* mixed work is ranked on the whole plan's cost (decide_mixed.h) */
        return per_hour * hours_of_use * decide_rules_adjustment(o);
    return cost_per_unit(per_hour, o->throughput, d->unit_size) * decide_rules_adjustment(o);
}

/* Why an option is out under a scaled input (0: it is not). */
enum { OUT_TIME = 1, OUT_BUDGET, OUT_TARGET };

/* Whether o is still an option when a money input is scaled by factor (0), or why not: a job
 * must still finish (fewer hours a day leave fewer hours to finish in), and the figure its
 * budget is held to (decide_budget_figure: up front, over the horizon or a month) must stay
 * within the budget, costed again at the scaled input. */
static int still_finishes(const sens *s, const decide_option *o, double factor)
{
    const decision *d = s->d;
    int param = s->param;
    if (param == SENS_HOURS &&
        o->hours_needed > o->hours_available * fmin(factor, 24 / d->w->hours_per_day))
        return OUT_TIME;
    if (isnan(d->w->budget))
        return 0;
    decide_option at = *o;   /* shallow: only figures change, and it is never freed */
    int own = param == SENS_OWN && o == s->base;
    if (o->acquisition != DECIDE_RENT) {
        if (param == SENS_ELECTRICITY)
            at.buy.price_kwh *= factor;
        else if (param == SENS_HOURS && !workload_is_job(d->w))
            at.buy.hours_per_day = fmin(24, at.buy.hours_per_day * factor);
        else if (param == SENS_PURCHASE || own)
            at.buy.cards *= factor, at.buy.resale *= factor;
        else if (param == SENS_HOST)
            at.buy.host *= factor;
        cost_buy(&at.buy, &at.cost);
    } else if (param == SENS_RENT || own || (param == SENS_HOURS && !workload_is_job(d->w))) {
        at.unit_price *= param == SENS_HOURS ? 1 : factor;
        at.cost.total *= factor;
        at.cost.running_per_month *= factor;
    }
    return decide_budget_figure(d, &at) <= d->w->budget * (1 + 1e-9) ? 0 : OUT_BUDGET;
}

/* ---- the speed inputs ---- */

/* Whether o's speed rests on the scaling model: several cards, not measured as they are, and
 * not one card of several doing the work (parallelism = "none"); a served language model's
 * replicas run side by side, exchanging nothing (its speed is the serving model's). */
static int scaled_multi(const decision *d, const decide_option *o)
{
    return o->count > 1 && !o->measured && o->efficiency > 0 && !isnan(o->throughput) &&
           !decide_str_eq(d->w->parallelism, "none") &&
           !(workload_is_llm(d->w) && d->llm_setup.task == MODEL_INFERENCE);
}

/* The value of a modelled constant for o: the utilisation serving or training computes at
 * (training's: o's GPU vendor's calibration, made the one applied), the decode bandwidth share. */
static double constant_value(decision *d, const decide_option *o, int param)
{
    if (param == SENS_DECODE)
        return d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value;
    if (d->llm_setup.task != MODEL_INFERENCE && !isnan(d->llm_mfu))
        decide_llm_training_mfu(d, o ? o->gpu : NULL);
    return d->llm_setup.task == MODEL_INFERENCE || isnan(d->llm_mfu)
               ? d->facts[KB_ASSUMED_LLM_MFU].value
               : d->llm_mfu;
}

/* o's speed figures again, by the speed stage, with a language model's constant scaled by
 * factor (at most 1: all of the rate or bandwidth) into *at.  The decision is left as it was:
 * the constants, the citations the stage adds and the trace. */
/* o's speed computed again into *at by the speed stage (its figures, no sentence), with
 * whatever d's figures now say; the citations and trace it would add are dropped. */
static void speed_again(decision *d, const decide_option *o, decide_option *at)
{
    int fact_cite[KB_ASSUMED_COUNT];
    memcpy(fact_cite, d->fact_cite, sizeof fact_cite);
    size_t n_cites = d->n_cites;
    view *trace = d->trace;
    d->trace = NULL;
    *at = *o;
    at->throughput_how = NULL;         /* the speed stage writes both sentences anew */
    at->throughput_band_basis = NULL;
    at->cites = NULL;   /* the stage cites nothing for it: they would be dropped below */
    at->n_cites = 0;
    at->measured = 0;
    d->option_cites_dropped = 1;
    decide_option_speed_figures(d, at);
    d->option_cites_dropped = 0;
    free(at->throughput_how);
    free(at->throughput_band_basis);
    at->throughput_how = NULL;
    at->throughput_band_basis = NULL;
    for (size_t i = n_cites; i < d->n_cites; i++)
        free(d->cite_ids[i]);
    d->n_cites = n_cites;
    memcpy(d->fact_cite, fact_cite, sizeof fact_cite);
    d->trace = trace;
}

static void llm_speed_with(const sens *s, const decide_option *o, double factor,
                           decide_option *at)
{
    decision *d = s->d;
    double scaled = fmin(1, constant_value(d, o, s->param) * factor);   /* o's vendor's */
    kb_assumed fact = s->param == SENS_DECODE ? KB_ASSUMED_DECODE_BANDWIDTH : KB_ASSUMED_LLM_MFU;
    double fact_value = d->facts[fact].value, mfu = d->llm_mfu;
    d->facts[fact].value = s->param == SENS_DECODE || d->llm_setup.task == MODEL_INFERENCE
                               ? scaled
                               : fact_value;
    if (s->param == SENS_MFU && !isnan(mfu))
        d->llm_mfu = scaled;
    speed_again(d, o, at);
    d->facts[fact].value = fact_value;
    d->llm_mfu = mfu;
}

/* o's own speed scaled by factor into *at; a served language model's capacity and latencies,
 * its throughput being the demand it serves while it can.  Under an arrival rate the requests
 * in flight grow as the speed falls (each request takes longer), so capacity and time per
 * token are not in proportion to the speed: both serving shares are scaled and the layout
 * solved again (a 10% slower H200 fleet of llm-fleet misses its 50 ms, where a proportional
 * scaling said 17%). */
static void own_speed_with(decision *d, const decide_option *o, double factor,
                           decide_option *at)
{
    at->throughput = o->throughput * factor;
    if (isnan(o->capacity))
        return;
    if (d->w->serve_arrival_rate > 0) {
        d->llm_share_what_if = factor;
        speed_again(d, o, at);
        d->llm_share_what_if = 0;
        return;
    }
    at->capacity = o->capacity * factor;
    at->throughput = decide_demand_served(d, at->capacity);
    at->tpot_ms = o->tpot_ms / factor;
    at->ttft_ms = o->ttft_ms / factor;
}

/* o under a speed input scaled by factor: its score, and whether it is still an option (0) or
 * why not: a job still finishes in the hours available, a served model still meets its
 * targets, the cash it commits stays within the budget (a job's rental bill follows its
 * hours). */
static int speed_option_with(const sens *s, const decide_option *o, double factor,
                             double *score)
{
    decision *d = s->d;
    decide_option at = *o;   /* shallow: only figures change, and it is never freed */
    if (s->param == SENS_OWN_SPEED && o == s->base)
        own_speed_with(d, o, factor, &at);
    else if (s->param == SENS_SCALING && scaled_multi(d, o))
        at.throughput = o->throughput * fmin(factor, 1 / o->efficiency);
    else if ((s->param == SENS_MFU || s->param == SENS_DECODE) && workload_is_llm(d->w))
        llm_speed_with(s, o, factor, &at);
    decide_option_cost(d, &at);
    *score = at.per_unit * decide_rules_adjustment(o);
    if (isnan(at.throughput) || at.hours_needed > at.hours_available)
        return OUT_TIME;
    if (decide_llm_target_is_missed(d, &at))
        return OUT_TARGET;
    /* decide_option_cost set at.committed to the budget's figure at these speeds */
    return isnan(d->w->budget) || at.committed <= d->w->budget * (1 + 1e-9) ? 0 : OUT_BUDGET;
}

/* o under the input scaled by factor: its score, and whether it is still an option (0) or why
 * not (OUT_*); the base's from s->kept where it was costed at factor already. */
static int option_with(sens *s, const decide_option *o, double factor, double *score)
{
    int base = o == s->base, out;
    for (size_t i = 0; base && i < s->n_kept && i < SENS_BASE_KEPT; i++)
        if (s->kept[i].factor == factor)
            return *score = s->kept[i].score, s->kept[i].out;
    if (s->param >= SENS_OWN_SPEED)
        out = speed_option_with(s, o, factor, score);
    else
        *score = score_with(s, o, factor), out = still_finishes(s, o, factor);
    if (base)   /* in the oldest's place */
        s->kept[s->n_kept++ % SENS_BASE_KEPT] = (struct sens_kept){factor, *score, out};
    return out;
}

/* Whether the input bears on any option compared (a speed input only where a speed uses it). */
static int applies(const decision *d, int param)
{
    if (param == SENS_MFU)
        return workload_is_llm(d->w);
    if (param == SENS_DECODE)
        return workload_is_llm(d->w) && d->llm_setup.task == MODEL_INFERENCE;
    if (param != SENS_SCALING)
        return 1;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->feasible && !o->held_back && scaled_multi(d, o))
            return 1;
    }
    return 0;
}

/* The highest factor searched: 10x, but 24 h a day, and a share (utilisation, bandwidth,
 * efficiency) no higher than all of it. */
static double scan_up(const sens *s)
{
    const decision *d = s->d;
    if (s->param == SENS_HOURS)
        return 24 / d->w->hours_per_day;
    if (s->param == SENS_MFU || s->param == SENS_DECODE)
        return fmin(SENS_SCAN_UP, 1 / constant_value(s->d, s->base, s->param));
    if (s->param != SENS_SCALING)
        return SENS_SCAN_UP;
    double lowest = 1;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->feasible && !o->held_back && scaled_multi(d, o))
            lowest = fmin(lowest, o->efficiency);
    }
    return fmin(SENS_SCAN_UP, 1 / lowest);
}

/* ---- the bound: options that cannot win under a scaled input are not costed again ---- */

/* How a scaled input moves an option's score: not at all (its score and standing at every
 * factor are those at the plan's figures: the input is another kind's price, another option's
 * own figure, or a speed its own does not rest on), by exactly the factor (the rental price: a
 * rental's cost per unit is linear in its price), not at all though its standing may change
 * (hours a day for a rental: it still bills by the hour used), or in a way not bounded here. */
typedef enum { MOVES_NOT, MOVES_BY_FACTOR, MOVES_STANDING_ONLY, MOVES_ANYHOW } sens_moves;

static sens_moves input_moves(const sens *s, const decide_option *o)
{
    int rent = o->acquisition == DECIDE_RENT;
    if (o == s->base)
        return MOVES_ANYHOW;
    switch (s->param) {
    case SENS_ELECTRICITY:
    case SENS_PURCHASE:
    case SENS_HOST:
        return rent ? MOVES_NOT : MOVES_ANYHOW;
    case SENS_RENT:
        return rent ? MOVES_BY_FACTOR : MOVES_NOT;
    case SENS_OWN:
    case SENS_OWN_SPEED:
        return MOVES_NOT;
    case SENS_HOURS:
        return rent ? MOVES_STANDING_ONLY : MOVES_ANYHOW;
    case SENS_SCALING:
        return scaled_multi(s->d, o) ? MOVES_ANYHOW : MOVES_NOT;
    default:
        return MOVES_ANYHOW;
    }
}

/* o's score at factor is at least base_score times this (both bounded kinds are rentals, whose
 * scores are positive), less a margin far wider than rounding. */
static double bound_factor(const sens *s, double factor)
{
    return (s->param == SENS_RENT ? factor : 1) * (1 - 1e-9);
}

/* Whether o at score sc beats best at best_score: lower, or as low and first by id. */
static int beats(const decide_option *o, double sc, const decide_option *best, double best_score)
{
    return sc < best_score || (sc == best_score && best && strcmp(o->id, best->id) < 0);
}

static const double *sort_scores;   /* qsort's context: the scores by_base_score compares */

static int by_base_score(const void *a, const void *b)
{
    double x = sort_scores[*(const size_t *)a], y = sort_scores[*(const size_t *)b];
    return x < y ? -1 : x > y;
}

/* Prepares winner_with's shortcut for s->param: the options the input leaves alone are costed
 * once, here, and the best of them stands at every factor; the bounded ones are kept in the
 * order of their score at the plan's figures, so that winner_with stops at the first whose
 * bound is above the best it has.  GPUWISE_DECIDE_FULL=1: every option is costed again at every
 * factor, as without the bound. */
static void sens_bound_prepare(sens *s)
{
    const decision *d = s->d;
    double full = 0;
    gw_env_number(GW_ENV_DECIDE_FULL, &full, NULL);
    s->fixed_best = NULL;
    s->fixed_score = INFINITY;
    s->n_kept = 0;
    s->moved = gw_xmalloc((d->n_options + 1) * sizeof *s->moved);
    s->bounded = gw_xmalloc((d->n_options + 1) * sizeof *s->bounded);
    s->base_score = gw_xmalloc((d->n_options + 1) * sizeof *s->base_score);
    s->n_moved = s->n_bounded = s->n_compared = 0;
    size_t *order = gw_xmalloc((d->n_options + 1) * sizeof *order);
    double *scores = gw_xmalloc((d->n_options + 1) * sizeof *scores);
    size_t n_order = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (!o->feasible || o->held_back)
            continue;
        s->n_compared++;
        sens_moves moves = full == 1 ? MOVES_ANYHOW : input_moves(s, o);
        double sc;
        if (moves == MOVES_NOT) {
            if (!option_with(s, o, 1, &sc) && beats(o, sc, s->fixed_best, s->fixed_score))
                s->fixed_best = o, s->fixed_score = sc;
            continue;
        }
        if (moves != MOVES_ANYHOW) {
            option_with(s, o, 1, &sc);   /* its score whatever its standing */
            if (sc > 0 && isfinite(sc)) {
                scores[i] = sc;
                order[n_order++] = i;
                continue;
            }
        }
        s->moved[s->n_moved++] = o;
    }
    sort_scores = scores;
    qsort(order, n_order, sizeof *order, by_base_score);
    for (size_t k = 0; k < n_order; k++) {
        s->bounded[s->n_bounded] = &d->options[order[k]];
        s->base_score[s->n_bounded++] = scores[order[k]];
    }
    free(order);
    free(scores);
}

static void sens_bound_free(sens *s)
{
    free(s->moved);
    free(s->bounded);
    free(s->base_score);
    s->moved = s->bounded = NULL;
    s->base_score = NULL;
    s->n_moved = s->n_bounded = 0;
}

/* ---- the flip points ---- */

/* The best feasible option under a scaled input (option_with): the best of those the input
 * leaves alone, against the others costed again, a bounded one only while its bound is not
 * above the best so far (it cannot win: nor tie, by the margin). */
static const decide_option *winner_with(sens *s, double factor, double *score)
{
    const decide_option *best = s->fixed_best;
    double best_score = s->fixed_score, sc;
    for (size_t i = 0; i < s->n_moved; i++) {
        const decide_option *o = s->moved[i];
        s->costed++;
        if (!option_with(s, o, factor, &sc) && beats(o, sc, best, best_score))
            best_score = sc, best = o;
    }
    double bound = bound_factor(s, factor);
    for (size_t i = 0; i < s->n_bounded && !(s->base_score[i] * bound > best_score); i++) {
        const decide_option *o = s->bounded[i];
        s->costed++;
        if (!option_with(s, o, factor, &sc) && beats(o, sc, best, best_score))
            best_score = sc, best = o;
    }
    s->costed_full += s->n_compared;
    if (score)
        *score = best_score;
    return best;
}

/* > 0 once another option beats the base winner, or it can no longer finish the job. */
static double flip_fn(double factor, void *p)
{
    sens *s = p;
    double best, own;
    if (option_with(s, s->base, factor, &own))
        return 1;
    const decide_option *w = winner_with(s, factor, &best);
    if (!w)
        return NAN;
    return w == s->base ? -1 : own - best;
}

/* The factor on the input at which another option beats the base: scan outward on a log grid,
 * then bisect.  NaN when none does in the range tried. */
static double flip_factor(sens *s)
{
    double ends[2] = {scan_up(s), SENS_SCAN_DOWN};
    for (int dir = 0; dir < 2; dir++) {
        double prev = 1;
        for (int k = 1; k <= SENS_SCAN_STEPS && ends[dir] != 1; k++) {
            double f = exp(log(ends[dir]) * k / (double)SENS_SCAN_STEPS);   /* from 1 */
            if (flip_fn(f, s) > 0) {
                double root;
                if (cost_bisect(flip_fn, s, fmin(prev, f), fmax(prev, f), SENS_TOLERANCE,
                                &root))
                    return root;
                return f;
            }
            prev = f;
        }
    }
    return NAN;
}

/* The input's value in the workload (or the base's price or speed, or the constant); NaN where
 * it is not one figure. */
static double base_value(const sens *s)
{
    const decision *d = s->d;
    const workload *w = d->w;
    const decide_option *win = s->base;
    switch (s->param) {
    case SENS_ELECTRICITY:
        return w->electricity_price;
    case SENS_HOURS:   /* what score_with scales: the purchase's hours of use, as break-even */
        return plan_hours_per_day(d, best_of(d, 0));
    case SENS_HOST:
        return win->acquisition != DECIDE_RENT && !win->system ? win->host_cost : NAN;
    case SENS_OWN:
        return win->unit_price;
    case SENS_RENT:   /* the rental price of several offers: given as a factor only */
        return win->acquisition == DECIDE_RENT ? win->unit_price : NAN;
    case SENS_OWN_SPEED:   /* a served model's: what it can generate */
        return isnan(win->capacity) ? win->throughput : win->capacity;
    case SENS_SCALING:   /* the base's own efficiency, where its speed is scaled */
        return scaled_multi(d, win) ? win->efficiency : NAN;
    case SENS_MFU:
    case SENS_DECODE:
        return constant_value(s->d, win, s->param);
    default:
        return win->acquisition != DECIDE_RENT ? win->unit_price : NAN;
    }
}

/* The input at factor, in its own terms: "4.5 h/day", "CNY 5,999", "2,766 images/s", "36%". */
static void value_words(gw_buf *t, const sens *s, double value)
{
    const decision *d = s->d;
    if (s->param == SENS_HOURS) {
        buf_printf(t, "%.1f h/day", value);
    } else if (s->param == SENS_OWN_SPEED) {
        view_format_number(t, value, value < 10 ? 2 : 0);
        buf_printf(t, " %s", d->unit);
    } else if (s->param >= SENS_SCALING) {
        buf_printf(t, "%.1f%%", fmin(value, 1) * 100);
    } else if (s->param == SENS_OWN && s->base->acquisition == DECIDE_RENT &&
               s->base->count > 1 && s->base->unit_price > 0 &&
               isfinite(decide_option_per_gpu_hour(s->base))) {
        /* a rental's price is quoted a GPU-hour: that first, its instances' hour after */
        static const char *const counts[] = {"", "", "two", "three", "four", "five", "six",
                                             "seven", "eight", "nine", "ten"};
        decide_money(t, d, decide_option_per_gpu_hour(s->base) * value / s->base->unit_price);
        buf_puts(t, " a GPU-hour, ");
        decide_money(t, d, value);
        if (s->base->count <= 10)
            buf_printf(t, " for the %s", counts[s->base->count]);
        else
            buf_printf(t, " for the %d", s->base->count);
    } else {
        decide_money(t, d, value);
    }
}

/* The flip point into m: factor, value, the option that wins and a sentence. */
static void flip_view(view *m, sens *s)
{
    const decide_option *win = s->base;
    double flip = flip_factor(s);
    double base = base_value(s);
    view_map_set_num(m, "flip_factor", flip);
    if (isnan(flip)) {
        view_map_set(m, "flips_to", view_null());
        view_map_set(m, "flip_value", view_null());
        char text[160];   /* the range flip_factor searched, said as a flip point is */
        snprintf(text, sizeof text, "does not change the answer from %+.0f%% to %+.0f%%%s",
                 (SENS_SCAN_DOWN - 1) * 100, (scan_up(s) - 1) * 100, s->param == SENS_RENT &&
                 !decide_purchase_ranked(s->d) ? ": no purchase ranked" : "");
        view_map_set_str(m, "flip_text", text);
        return;
    }
    double past = flip * (flip > 1 ? 1 + SENS_NUDGE : 1 - SENS_NUDGE);
    const decide_option *nw = winner_with(s, past, NULL);
    view_map_set_str(m, "flips_to", nw ? nw->id : NULL);
    double value = base * flip;
    if (s->param == SENS_OWN_SPEED && !isnan(win->capacity)) {
        decide_option at;   /* its capacity at that speed, as the what-if computes it */
        own_speed_with(s->d, win, flip, &at);
        value = at.capacity;
    }
    view_map_set_num(m, "flip_value", value);
    gw_buf t = GW_BUF_INIT;
    buf_printf(&t, "%+.0f%%", (flip - 1) * 100);
    if (!isnan(base)) {
        buf_puts(&t, " (");
        value_words(&t, s, value);
        buf_puts(&t, ")");
    }
    /* Past the flip the recommendation may be out altogether: say why. */
    double ignored;
    int out = option_with(s, win, past, &ignored);
    if (out == OUT_TIME)
        buf_puts(&t, ": past it the recommendation can no longer finish in time");
    else if (out == OUT_TARGET)
        buf_puts(&t, ": past it the recommendation misses its serving targets");
    else if (out)
        buf_printf(&t, ": past it the recommendation's %s exceeds the budget",
                   decide_str_eq(s->d->w->budget_basis, "total")     ? "cost over the horizon"
                   : decide_str_eq(s->d->w->budget_basis, "monthly") ? "spending a month"
                                                                     : "cash up front");
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

/* Where the base's own speed, lowered, first makes it miss a serving target: the factor (by
 * bisection between 1 - SENS_STEP, where it misses, and 1, where it does not), read to
 * SENS_TOLERANCE; NaN where it still meets them at 1 - SENS_STEP. */
static double misses_target_below(sens *s)
{
    double ignored, lo = 1 - SENS_STEP, hi = 1;
    if (s->param != SENS_OWN_SPEED || option_with(s, s->base, lo, &ignored) != OUT_TARGET ||
        option_with(s, s->base, hi, &ignored))
        return NAN;
    while (hi - lo > SENS_TOLERANCE) {
        double mid = (lo + hi) / 2;
        if (option_with(s, s->base, mid, &ignored) == OUT_TARGET)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* One input's entry; returns its swing: how far the base option's own cost per unit moves over
 * the step down and up (only up where the step down misses a serving target: that side is a
 * failure, not a cost). */
static double parameter_view(view *m, sens *s)
{
    const decide_option *win = s->base;
    view_map_set_str(m, "parameter", sens_keys[s->param]);
    /* a close call's pick is not the base: say whose price or speed moves */
    if (win != decide_best(s->d) && (s->param == SENS_OWN || s->param == SENS_OWN_SPEED))
        view_map_set_str(m, "name", s->param == SENS_OWN
                                        ? "the price of the option cheapest at the plan's figures"
                                        : "the speed of the option cheapest at the plan's figures");
    else
        view_map_set_str(m, "name", sens_names[s->param]);
    view_map_set_str(m, "affects", s->param >= SENS_OWN_SPEED ? "speed" : "cost");
    const decide_option *lo = winner_with(s, 1 - SENS_STEP, NULL);
    const decide_option *hi = winner_with(s, 1 + SENS_STEP, NULL);
    double win_lo, win_hi;
    option_with(s, win, 1 - SENS_STEP, &win_lo);
    option_with(s, win, 1 + SENS_STEP, &win_hi);
    double below = misses_target_below(s);
    double swing = isnan(below) ? fabs(win_hi - win_lo) / win->score
                                : fabs(win_hi - win->score) / win->score;
    view_map_set_num(m, "swing", swing);
    view_map_set_num(m, "misses_target_below", isnan(below) ? NAN : below - 1);
    gw_buf t = GW_BUF_INIT;
    /* a speed input that moves no cost (a service's throughput is its demand) can still move the
     * answer, through the serving targets: its swing says so rather than "0.0%" */
    int serving = workload_is_serving(s->d->w);
    int targets_only = serving && s->param >= SENS_OWN_SPEED && swing < 5e-4 && isnan(below);
    view_map_set_bool(m, "targets_only", targets_only);
    if (!isnan(below)) {
        if (swing >= 5e-4)
            buf_printf(&t, "%.1f%% at +%.0f%%; ", swing * 100, SENS_STEP * 100);
        buf_printf(&t, "misses its target below %.1f%%", (below - 1) * 100);
    } else if (targets_only)
        buf_puts(&t, "— (targets)");
    else
        buf_printf(&t, "%.1f%%", swing * 100);
    view_map_set_str(m, "swing_text", buf_cstr(&t));
    buf_free(&t);
    view_map_set_str(m, "winner_minus_20", lo ? lo->id : NULL);
    view_map_set_str(m, "winner_plus_20", hi ? hi->id : NULL);
    view_map_set_bool(m, "changes_within_20", lo != win || hi != win);
    flip_view(m, s);
    /* the body's table leaves out an input that neither moves the cost (under 0.05%) nor, within
     * the range searched, the answer: for a rental the purchase-only inputs */
    view_map_set_bool(m, "matters", swing >= 5e-4 || lo != win || hi != win ||
                                        !view_is_null(view_map_get(m, "flip_value")));
    return swing;
}

static const char sens_method[] =
    "each input scaled by -%.0f%% and +%.0f%%; the swing is the change in the recommended "
    "option's cost per unit of work; the flip point is bisected on the figure options are "
    "ranked by, searched from %+.0f%% to %+.0f%% (hours a day: the purchase's hours of use, up "
    "to 24; a job whose runs no longer fit is out); at each value the budget's figure is "
    "checked again, the other rules' verdicts held.  The speed inputs (the recommendation's own "
    "speed; the scaling efficiency of scaled or modelled multi-card options; a language model's "
    "utilisation and decode bandwidth share) recompute each option's speed and cost, are "
    "searched up to 100%%, and an option then missing the deadline, a target or the budget is "
    "out; where its own speed at %+.0f%% misses a serving target, the swing is the step up's "
    "(misses_target_below: where it starts); at each value, options whose lowest cost exceeds "
    "the best found are skipped";

void decide_sensitivity(decision *d)
{
    sens s = {.d = d, .base = decide_robust_cheapest(d)};
    d->sensitivity = view_map();
    view *params = view_map_set(d->sensitivity, "parameters", view_list());
    if (!s.base)
        return;
    view_map_set_str(d->sensitivity, "option", s.base->id);
    if (s.base != decide_best(d))
        view_map_set_str(d->sensitivity, "option_note",
                         "the flip points are those of the option cheapest at the plan's "
                         "figures: the recommendation is the best evidenced of a close call "
                         "(robustness.because)");
    double best_swing = -1;
    int most = -1;
    for (s.param = 0; s.param < SENS_COUNT; s.param++) {
        if (!applies(d, s.param))
            continue;
        view *m = view_list_push(params, view_map());
        sens_bound_prepare(&s);
        double swing = parameter_view(m, &s);
        sens_bound_free(&s);
        if (view_bool_value(view_map_get(m, "targets_only")) &&
            view_bool_value(view_map_get(m, "matters")))
            view_map_set_bool(d->sensitivity, "has_targets_only", 1);
        if (s.param < SENS_OWN_SPEED && swing > best_swing) {
            best_swing = swing;
            most = s.param;
        }
    }
    decide_trace(d, "sensitivity: %zu of %zu option costings under the scaled inputs (the "
                 "others' lower bound is above the best's cost: they cannot win)",
                 s.costed, s.costed_full);
    view_map_set_str(d->sensitivity, "moves_most", most < 0 ? NULL : sens_keys[most]);
    if (most >= 0)
        view_map_set_str(d->sensitivity, "moves_most_name", sens_names[most]);
    gw_buf method = GW_BUF_INIT;
    buf_printf(&method, sens_method, SENS_STEP * 100, SENS_STEP * 100,
               (SENS_SCAN_DOWN - 1) * 100, (SENS_SCAN_UP - 1) * 100, -SENS_STEP * 100);
    view_map_set_str(d->sensitivity, "method", buf_cstr(&method));
    buf_free(&method);
}
