/* decide_view.c — the view model of a decision: one tree that `decide --json` prints and the
 * justification template reads (see templates/README.md for its conventions), put together from
 * the option's fields (decide_fields.c), the method section (decide_view_method.c) and the
 * report's short forms (decide_groups.c); also the recommendation's reasons, the charts and the
 * citations. */
#include "decide_view.h"
#include "model/precision.h"
#include "decide_budget.h"
#include "decide_mixed.h"
#include "decide_demand.h"
#include "decide_cost.h"
#include "decide_fields.h"
#include "decide_groups.h"
#include "decide_llm.h"
#include "decide_options.h"
#include "decide_robust.h"
#include "decide_view_method.h"
#include "base/check.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The cost-per-unit chart shows the best this many feasible options. */
#define CHART_BARS_MAX 8
/* The recommendation gives at most this many reasons. */
#define REASONS_MAX 3

/* ---- the recommendation's reasons ---- */

/* A rule's clause as a sentence of its own: capital first letter, final full stop. */
static view *sentence(const char *clause)
{
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, clause);
    if (b.len && b.data[0] >= 'a' && b.data[0] <= 'z')
        b.data[0] = (char)(b.data[0] - 'a' + 'A');
    if (b.len && b.data[b.len - 1] != '.')
        buf_putc(&b, '.');
    view *v = view_string(buf_cstr(&b));
    buf_free(&b);
    return v;
}

/* Its cost per unit of work against the runner-up's. */
static void reason_cost(decision *d, const decide_option *win)
{
    /* Among the options that may be recommended: an anecdotal price the workload does not
     * accept is ranked after them whatever it costs, and is no rival. */
    const decide_option *second = NULL;
    size_t feasible = 0, held = 0;
    for (size_t i = 0; i < d->n_options; i++)
        if (d->ranked[i]->feasible && d->ranked[i]->held_back) {
            held++;
        } else if (d->ranked[i]->feasible) {
            feasible++;
            if (d->ranked[i] != win && !second)
                second = d->ranked[i];
        }
    gw_buf b = GW_BUF_INIT, of = GW_BUF_INIT;
    buf_printf(&of, "of the %zu feasible options%s", feasible,
               held ? " that may be recommended" : "");
    if (!second || win->per_unit <= second->per_unit) {
        buf_puts(&b, "Lowest cost per ");
        buf_puts(&b, d->work_unit);
        buf_printf(&b, " %s: ", buf_cstr(&of));
        decide_money_per_unit(&b, d, win->per_unit);
    } else {
        /* The rules reordered the two: say so rather than call the dearer one the cheapest. */
        buf_printf(&b, "Ranked first %s on cost per %s x the rules' adjustment: ",
                   buf_cstr(&of), d->work_unit);
        decide_money_per_unit(&b, d, win->per_unit);
        buf_printf(&b, " x %.2f = ", decide_rules_adjustment(win));
        decide_money_per_unit(&b, d, win->score);
        buf_puts(&b, ", against ");
        decide_money_per_unit(&b, d, second->per_unit);
        buf_printf(&b, " x %.2f = ", decide_rules_adjustment(second));
        decide_money_per_unit(&b, d, second->score);
        buf_puts(&b, " for ");
        decide_option_label(&b, second, 0);
        buf_puts(&b, ", which costs less per unit before the rules");
        second = NULL;
    }
    if (second) {
        buf_puts(&b, ", against ");
        decide_money_per_unit(&b, d, second->per_unit);
        buf_puts(&b, " for ");
        decide_option_label(&b, second, 0);
    }
    buf_puts(&b, ".");
    view_list_push(d->because, view_string(buf_cstr(&b)));
    buf_free(&b);
    buf_free(&of);
}

/* The two strongest preferences the rules gave it. */
static void reason_preferences(decision *d, const decide_option *win)
{
    const decide_verdict *top[2] = {NULL, NULL};
    for (size_t i = 0; i < win->n_verdicts; i++) {
        const decide_verdict *v = &win->verdicts[i];
        if (strcmp(v->effect, "prefer"))
            continue;
        if (!top[0] || v->weight > top[0]->weight)
            top[1] = top[0], top[0] = v;
        else if (!top[1] || v->weight > top[1]->weight)
            top[1] = v;
    }
    for (int i = 0; i < 2; i++)
        if (top[i])
            view_list_push(d->because, sentence(top[i]->because));
}

/* Buying against renting, from the break-even analysis. */
static void reason_break_even(decision *d, const decide_option *win)
{
    const view *be = d->break_even;
    double hours = view_num(view_map_get(be, "hours_per_day"));   /* NaN: never */
    /* the purchase's hours of use under the plan, the figure the break-even hours compare
     * with (decide_whatif.c): with hours_needed_per_month, the hours the need takes */
    double plan = view_num(view_map_get(be, "plan_hours_per_day"));
    if (isnan(plan))
        plan = d->w->hours_per_day;
    gw_buf plan_words = GW_BUF_INIT;
    if (workload_has_need(d->w) && !workload_is_job(d->w))
        buf_printf(&plan_words, "the plan uses it %.1f h a day (the need: %g hours a month%s%s)",
                   plan, d->w->hours_needed_per_month, d->reference ? " of " : "",
                   d->reference ? d->reference->name : " of its own card");
    else
        buf_printf(&plan_words, "the plan is %g h", plan);
    /* "6.8 h/day on cost alone": the same without the rules' adjustments, where it differs */
    gw_buf alone = GW_BUF_INIT;
    const char *cost_only = NULL;
    if (view_map_get(be, "hours_per_day_cost_only")) {
        buf_printf(&alone, "%s on cost alone",
                   view_str(view_map_get(be, "hours_per_day_cost_only_text")));
        cost_only = buf_cstr(&alone);
    }
    /* "new 4x ..., priced as of 2022-12": the purchase's price, where it is old */
    gw_buf buy = GW_BUF_INIT;
    buf_puts(&buy, view_str(view_map_get(be, "buy_label")));
    if (view_str(view_map_get(be, "buy_price_old_as_of")))
        buf_printf(&buy, ", priced as of %s", view_str(view_map_get(be, "buy_price_old_as_of")));
    gw_buf b = GW_BUF_INIT;
    if (win->acquisition != DECIDE_RENT && !isnan(hours) && workload_is_job(d->w))
        buf_printf(&b, "Owning pays off against %s from %.1f h of use a day over the "
                       "%g-month horizon; this job alone uses it %s (%s averaged over the "
                       "horizon).",
                   view_str(view_map_get(be, "rent_label")), hours, d->w->horizon_months,
                   view_str(view_map_get(be, "job_hours_text")),
                   view_str(view_map_get(be, "job_hours_per_day_text")));
    else if (win->acquisition != DECIDE_RENT && !isnan(hours))
        buf_printf(&b, "Buying ranks above renting (%s) from %.1f h of use a day (cost per "
                       "unit with the rules' adjustments%s%s); %s.",
                   view_str(view_map_get(be, "rent_label")), hours, cost_only ? "; " : "",
                   cost_only ? cost_only : "", buf_cstr(&plan_words));
    else if (win->acquisition != DECIDE_RENT)
        buf_printf(&b, "Renting never costs less per unit of work than owning here.");
    else if (!isnan(hours) && workload_is_job(d->w))
        buf_printf(&b, "Buying (%s) would rank above renting only if kept busy %.1f h a day%s%s%s "
                       "for the whole %g-month horizon; this job uses it %s (%s averaged over "
                       "the horizon).",
                   buf_cstr(&buy), hours, cost_only ? " (" : "",
                   cost_only ? cost_only : "", cost_only ? ")" : "", d->w->horizon_months,
                   view_str(view_map_get(be, "job_hours_text")),
                   view_str(view_map_get(be, "job_hours_per_day_text")));
    else if (!isnan(hours))
        buf_printf(&b, "Buying (%s) would need %.1f h of use a day to rank above renting%s%s%s; "
                       "%s.",
                   buf_cstr(&buy), hours, cost_only ? " (" : "",
                   cost_only ? cost_only : "", cost_only ? ")" : "", buf_cstr(&plan_words));
    else
        buf_printf(&b, workload_is_job(d->w)
                           ? "Buying (%s) never pays off, even kept busy 24 h a day for the "
                             "whole horizon: this job alone uses it far less."
                           : "Buying (%s) never pays off, even at 24 h of use a day.",
                   buf_cstr(&buy));
    view_list_push(d->because, view_string(buf_cstr(&b)));
    buf_free(&b);
    buf_free(&buy);
    buf_free(&alone);
    buf_free(&plan_words);
}

void decide_reasons(decision *d)
{
    const decide_option *win = decide_best(d);
    d->because = view_list();
    if (!win)
        return;
    if (decide_robust_repick_reason(d))   /* a close call: the evidence chose, not the cost */
        view_list_push(d->because, view_string(decide_robust_repick_reason(d)));
    else
        reason_cost(d, win);
    reason_preferences(d, win);
    if (view_len(d->because) < REASONS_MAX && view_str(view_map_get(d->break_even, "buy_option")))
        reason_break_even(d, win);
    if (view_len(d->because) < REASONS_MAX && workload_has_need(d->w)) {
        gw_buf b = GW_BUF_INIT;   /* capacity for a stated need: the hours it takes a month */
        gw_buf speed = GW_BUF_INIT;   /* the reference card's, which scales the need */
        if (d->reference) {
            view_format_number(&speed, d->reference_speed, 0);
            buf_printf(&speed, " %s", d->unit);
        }
        buf_printf(&b, "Covers the need in %.1f hours of running a month (at most %g h a day, "
                       "%g h a month): ",
                   win->hours_needed / d->w->horizon_months, d->w->hours_per_day,
                   d->w->hours_per_day * COST_DAYS_PER_MONTH);
        workload_need_words(&b, d->w, d->reference ? d->reference->name : NULL,
                            d->reference ? buf_cstr(&speed) : NULL);
        buf_putc(&b, '.');
        buf_free(&speed);
        view_list_push(d->because, view_string(buf_cstr(&b)));
        buf_free(&b);
    } else if (view_len(d->because) < REASONS_MAX && !isnan(win->hours_needed)) {
        gw_buf b = GW_BUF_INIT;
        buf_puts(&b, "Finishes the work");
        if (d->w->work_runs != 1)
            buf_printf(&b, " (%g runs)", d->w->work_runs);
        buf_printf(&b, " in %.1f hours of running (%.1f days at %g h a day; ", win->hours_needed,
                   win->hours_needed / d->w->hours_per_day, d->w->hours_per_day);
        view_format_number(&b, win->hours_available, 0);
        buf_puts(&b, " h are available).");
        view_list_push(d->because, view_string(buf_cstr(&b)));
        buf_free(&b);
    }
}

/* ---- charts and citations ---- */

static view *cumulative_chart_view(const decision *d, const view *series)
{
    view *c = view_map();
    view_map_set_str(c, "id", "cumulative-cost");
    view_map_set_str(c, "kind", "line");
    view_map_set_str(c, "title", "Cumulative cost: buy vs rent (same work)");
    gw_buf desc = GW_BUF_INIT;
    const view *cu = d->cumulative;
    buf_puts(&desc, "Cumulative outlay of the best purchase and the best rental doing the same "
                    "work");
    if (workload_is_job(d->w))
        buf_puts(&desc, ", spent while the job runs at the workload's hours a day (the purchase "
                        "then idles until it is sold)");
    buf_puts(&desc, ". The purchase ends at its total in the cost table, ");
    buf_puts(&desc, view_str(view_map_get(cu, "buy_total_text")));
    if (view_num(view_map_get(cu, "buy_resale")) > 0) {
        buf_puts(&desc, ", after the hardware is sold for ");
        buf_puts(&desc, view_str(view_map_get(cu, "buy_resale_text")));
        buf_puts(&desc, " at the horizon");
    }
    buf_puts(&desc, "; the rental ends at ");
    buf_puts(&desc, view_str(view_map_get(cu, "rent_total_text")));
    if (workload_is_job(d->w)) {
        /* A job's rental is already billed for the same work: its table total. */
        buf_puts(&desc, ", its table total: the bill for the same work.");
    } else {
        buf_puts(&desc, ", its table total of ");
        buf_puts(&desc, view_str(view_map_get(cu, "rent_offer_total_text")));
        buf_puts(&desc, " x ");
        buf_puts(&desc, view_str(view_map_get(cu, "rent_hours_factor_text")));
        buf_puts(&desc, " the hours, to do the purchase's work.");
    }
    view_map_set_str(c, "desc", buf_cstr(&desc));
    buf_free(&desc);
    view_map_set_str(c, "x_label", "Month");
    view_map_set_str(c, "x_unit", "month");
    view_map_set_str(c, "y_label", "Cumulative cost");
    view_map_set_str(c, "unit", d->w->currency);
    view_map_set(c, "series", view_copy(series));
    const view *marker = view_map_get(d->cumulative, "marker");
    if (marker)
        view_map_set(c, "marker", view_copy(marker));
    return c;
}

static int cmp_per_unit(const void *pa, const void *pb)
{
    const decide_option *a = *(const decide_option *const *)pa;
    const decide_option *b = *(const decide_option *const *)pb;
    return (a->per_unit > b->per_unit) - (a->per_unit < b->per_unit);
}

/* The cost-per-unit bars of the best-ranked feasible options, drawn cheapest first; NULL when
 * there are none. */
static view *cost_chart_view(const decision *d)
{
    const decide_option *shown[CHART_BARS_MAX];
    size_t n_shown = 0;
    for (size_t i = 0; i < d->n_options && n_shown < CHART_BARS_MAX; i++)
        if (d->ranked[i]->feasible && !isnan(d->ranked[i]->per_unit))
            shown[n_shown++] = d->ranked[i];
    if (n_shown == 0)
        return NULL;
    qsort(shown, n_shown, sizeof *shown, cmp_per_unit);
    view *bar = view_map();
    view_map_set_str(bar, "id", "cost-per-unit");
    view_map_set_str(bar, "kind", "bar");
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "Cost per %s", d->work_unit);
    view_map_set_str(bar, "title", buf_cstr(&b));
    view_map_set_str(bar, "desc", "Feasible options by cost per unit, lower is better; the "
                                  "recommendation is highlighted.");
    view_map_set_str(bar, "y_label", buf_cstr(&b));
    view_map_set_str(bar, "unit", d->w->currency);
    buf_free(&b);
    view *bars = view_map_set(bar, "bars", view_list());
    int marked = 0;
    for (size_t i = 0; i < n_shown; i++) {
        const decide_option *o = shown[i];
        view *m = view_list_push(bars, view_map());
        gw_buf l = GW_BUF_INIT;
        decide_option_label(&l, o, 1);
        if (o->held_back) {   /* the short label has no room for why: a mark, said below */
            buf_puts(&l, " \xe2\x80\xa0");
            marked = 1;
        }
        view_map_set_str(m, "label", buf_cstr(&l));
        buf_reset(&l);
        decide_money_per_unit(&l, d, o->per_unit);
        view_map_set_str(m, "value_text", buf_cstr(&l));
        buf_free(&l);
        view_map_set_num(m, "value", o->per_unit);
        if (o->rank == 1)
            view_map_set_bool(m, "highlight", 1);
    }
    if (marked) {
        view_map_set_str(bar, "desc", "Feasible options by cost per unit, lower is better; the "
                                      "recommendation is highlighted; \xe2\x80\xa0 marks a price "
                                      "held back (an article's, another market's, a launch MSRP, "
                                      "a stale one, or a 'from' figure that loses at its high "
                                      "end): shown, never recommended.");
        view_map_set_str(bar, "marks_note", "\xe2\x80\xa0 A price held back (an article's, "
                                            "another market's, a launch MSRP, a stale one, or a "
                                            "'from' figure that loses at its high end): shown, "
                                            "never recommended.");
    }
    return bar;
}

static view *charts_view(const decision *d)
{
    view *charts = view_list();
    const view *series = view_map_get(d->cumulative, "series");
    if (series)
        view_list_push(charts, cumulative_chart_view(d, series));
    view *bar = cost_chart_view(d);
    if (bar)
        view_list_push(charts, bar);
    return charts;
}

static view *citations_view(const decision *d)
{
    view *list = view_list();
    for (size_t i = 0; i < d->n_cites; i++) {
        view *c = view_list_push(list, view_map());
        view_map_set_int(c, "n", (long long)i + 1);
        view_map_set_str(c, "id", d->cite_ids[i]);
        kb_source s;
        if (kb_source_get(d->k, d->cite_ids[i], &s, NULL) == GW_OK) {
            view_map_set_str(c, "title", s.title);
            view_map_set_str(c, "publisher", s.publisher);
            view_map_set_str(c, "date", s.retrieved);
            view_map_set_str(c, "url", s.url && *s.url ? s.url : NULL);
            kb_source_free(&s);
        } else {
            view_map_set_str(c, "title", d->cite_ids[i]);
        }
    }
    return list;
}

/* ---- the whole tree ---- */

/* Where the workload says where it buys (region), the export rules of every GPU the decision
 * prices to buy that the KB notes one for (over the budget or not), once each, in rank order: a
 * buyer in a restricted country must see them beside the options, not only under the
 * recommendation (a rented card stays with its provider).  Empty without a region. */
static view *export_rules_view(const decision *d)
{
    view *list = view_list();
    if (!d->w->region)
        return list;
    for (size_t r = 0; r < d->n_options; r++) {
        const decide_option *o = d->ranked[r];
        if (o->acquisition == DECIDE_RENT || !o->gpu->restriction || !*o->gpu->restriction)
            continue;
        int seen = 0;
        for (size_t k = 0; k < view_len(list) && !seen; k++)
            seen = !strcmp(view_str(view_map_get(view_list_at(list, k), "gpu")), o->gpu->id);
        if (seen)
            continue;
        view *e = view_list_push(list, view_map());
        view_map_set_str(e, "gpu", o->gpu->id);
        view_map_set_str(e, "name", o->gpu->name);
        view_map_set_str(e, "text", o->gpu->restriction);
    }
    return list;
}

/* Every option in rank order into root's options, the infeasible ones also into excluded. */
static size_t options_view(view *root, const decision *d)
{
    view *options = view_map_set(root, "options", view_list());
    view *excluded = view_map_set(root, "excluded", view_list());
    size_t n_feasible = 0;
    int held_back = 0, held_back_top = 0;   /* a price held back: the tables' legends */
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        held_back |= o->feasible && o->held_back;
        held_back_top |= o->held_back && decide_option_in_top(o);
        view *ov = view_list_push(options, decide_option_view(d, o, DECIDE_VIEW_JSON));
        view_map_set_bool(ov, "in_top_five",
                          decide_option_in_top(o));
        if (o->feasible) {
            n_feasible++;
            continue;
        }
        view *x = view_list_push(excluded, view_map());
        gw_buf l = GW_BUF_INIT;
        decide_option_label(&l, o, 0);
        view_map_set_str(x, "label", buf_cstr(&l));
        buf_free(&l);
        view_map_set_str(x, "id", o->id);
        view_map_set_str(x, "because", o->excluded_because);
    }
    view_map_set_bool(root, "has_excluded", view_len(excluded) > 0);
    view_map_set_bool(root, "has_held_back", held_back);
    view_map_set_bool(root, "has_held_back_in_top_five", held_back_top);
    /* a job's money is spent while its runs take, not over the horizon */
    gw_buf total = GW_BUF_INIT;
    if (workload_is_job(d->w))
        buf_puts(&total, "Total for the work");
    else
        buf_printf(&total, "Total over %g month%s", d->w->horizon_months,
                   d->w->horizon_months == 1 ? "" : "s");
    view_map_set_str(root, "total_label", buf_cstr(&total));
    buf_free(&total);
    return n_feasible;
}

/* A group of the not-considered list names at most this many, then "and N more". */
#define NOT_CONSIDERED_EXAMPLES 8

/* Whether m is a spot offer whose "provider, instance" names an option that was considered
 * (its on-demand offer: Spheron's H100 SXM): ", spot" keeps the two apart, one status each. */
static int spot_shares_name(const decision *d, const decide_omission *m)
{
    if (strcmp(m->reason, DECIDE_OMIT_SPOT) || strstr(m->offer, "spot"))
        return 0;
    size_t n = strlen(m->offer);
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->acquisition != DECIDE_RENT || !o->provider || !o->instance)
            continue;
        char name[256];
        int k = snprintf(name, sizeof name, ", %s, %s", o->provider, o->instance);
        if (k > 0 && (size_t)k < sizeof name && (size_t)k <= n && !strcmp(m->offer + n - k, name))
            return 1;
    }
    return 0;
}

/* What was not considered (decide_omission), grouped by reason with a count, and how many. */
static void not_considered_groups_view(view *root, const decision *d)
{
    view *groups = view_map_set(root, "not_considered_groups", view_list());
    /* Groups in the order their reason first appears. */
    for (size_t i = 0; i < d->n_omitted; i++) {
        const char *reason = d->omitted[i].reason;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(d->omitted[j].reason, reason);
        if (seen)
            continue;
        size_t count = 0;
        gw_buf names = GW_BUF_INIT;
        for (size_t j = i; j < d->n_omitted; j++) {
            const decide_omission *m = &d->omitted[j];
            if (strcmp(m->reason, reason))
                continue;
            if (count < NOT_CONSIDERED_EXAMPLES) {
                buf_printf(&names, "%s%s", count ? "; " : "", m->name);
                if (m->offer)
                    buf_printf(&names, " (%s%s)", m->offer,
                               spot_shares_name(d, m) ? ", spot" : "");
            }
            count++;
        }
        if (count > NOT_CONSIDERED_EXAMPLES)
            buf_printf(&names, "; and %zu more", count - NOT_CONSIDERED_EXAMPLES);
        view *g = view_list_push(groups, view_map());
        view_map_set_str(g, "reason", reason);
        view_map_set_int(g, "count", (long long)count);
        view_map_set_str(g, "names", buf_cstr(&names));
        buf_free(&names);
    }
    view_map_set_int(root, "not_considered_count", (long long)d->n_omitted);
}

/* What was not considered (decide_omission), one by one, and grouped as above. */
static void not_considered_view(view *root, const decision *d)
{
    view *list = view_map_set(root, "not_considered", view_list());
    for (size_t i = 0; i < d->n_omitted; i++) {
        const decide_omission *m = &d->omitted[i];
        view *x = view_list_push(list, view_map());
        view_map_set_str(x, "gpu", m->gpu);
        view_map_set_str(x, "name", m->name);
        view_map_set_str(x, "offer", m->offer);
        view_map_set_str(x, "reason", m->reason);
    }
    not_considered_groups_view(root, d);
    view_map_set_bool(root, "has_not_considered", d->n_omitted > 0);
}

/* The recommended option, its reasons, and the risks and checklists its verdicts name. */
/* The held-back option that would be cheapest, were its stale, 'from' or article's price to hold, where
 * it would cost less per unit than the recommendation best (by the ranked figure and on cost
 * alone): a re-quote may change the answer (recommendation.cheaper_held_back; null none). */
static void cheaper_held_back_view(view *rec, const decision *d, const decide_option *best)
{
    const decide_option *cheapest = NULL;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        decide_held_kind k = decide_held_back_kind(d, o);
        if (o->feasible && (k == DECIDE_HELD_STALE || k == DECIDE_HELD_FROM ||
                            k == DECIDE_HELD_ARTICLE) &&
            o->score < best->score && o->per_unit < best->per_unit &&
            (!cheapest || o->score < cheapest->score))
            cheapest = o;
    }
    if (!cheapest) {
        view_map_set(rec, "cheaper_held_back", view_null());
        return;
    }
    view *m = view_map_set(rec, "cheaper_held_back", view_map());
    view_map_set_str(m, "option", cheapest->id);
    gw_buf t = GW_BUF_INIT;
    decide_option_label(&t, cheapest, 0);
    view_map_set_str(m, "label", buf_cstr(&t));
    view_map_set_num(m, "per_unit", cheapest->per_unit);
    buf_reset(&t);
    decide_money_per_unit(&t, d, cheapest->per_unit);
    view_map_set_str(m, "per_unit_text", buf_cstr(&t));
    double share = 1 - cheapest->per_unit / best->per_unit;
    view_map_set_num(m, "share", share);
    buf_reset(&t);
    buf_printf(&t, "%.0f%%", share * 100);
    view_map_set_str(m, "share_text", buf_cstr(&t));
    buf_reset(&t);
    if (decide_held_back_kind(d, cheapest) == DECIDE_HELD_ARTICLE)
        buf_printf(&t, "its price is an article's figure of %s, not an offer%s",
                   cheapest->price_as_of,
                   cheapest->price_stale ? ", and older than price_max_age_days" : "");
    else if (decide_held_back_kind(d, cheapest) == DECIDE_HELD_STALE)
        buf_printf(&t, "its price is of %s, older than price_max_age_days (%g days)%s",
                   cheapest->price_as_of, d->w->price_max_age_days,
                   cheapest->price_floor ? ", and only a 'from' figure, a lower bound" : "");
    else
        buf_puts(&t, "its price is a 'from' figure, a lower bound whose high end loses");
    view_map_set_str(m, "reason", buf_cstr(&t));
    buf_free(&t);
}

/* The recommended option's id, label and reasons (an empty list and no label for none). */
static void recommendation_head_view(view *rec, const decision *d, const decide_option *best)
{
    if (!best) {
        view_map_set(rec, "option", view_null());
        view_map_set(rec, "because", view_list());
        return;
    }
    view_map_set_str(rec, "option", best->id);
    gw_buf l = GW_BUF_INIT;
    decide_option_label(&l, best, 0);
    view_map_set_str(rec, "label", buf_cstr(&l));
    buf_free(&l);
    view_map_set(rec, "because", view_copy(d->because));
}

static void recommendation_view(view *rec, const decision *d, const decide_option *best)
{
    recommendation_head_view(rec, d, best);
    if (!best)
        return;
    view_map_set(rec, "details", decide_option_view(d, best, DECIDE_VIEW_JSON));
    cheaper_held_back_view(rec, d, best);
    /* an FP8 KV cache is a setting of the serving engine, not its default: the risks say so */
    view_map_set_bool(rec, "kv_cache_fp8",
                      best->memory.kv_cache_gb > 0 && best->run_precision &&
                          gw_precision_find(best->run_precision)->kv_bytes == 1);
    view *risks = view_map_set(rec, "risks", view_list());
    view *checklists = view_map_set(rec, "checklists", view_list());
    for (size_t i = 0; i < best->n_verdicts; i++) {
        const decide_verdict *v = &best->verdicts[i];
        if (!strcmp(v->effect, "warn"))
            view_list_push(risks, sentence(v->because));
        if (!v->checklist)
            continue;
        int seen = 0;
        for (size_t j = 0; j < view_len(checklists); j++)
            seen |= decide_str_eq(view_str(view_list_at(checklists, j)), v->checklist);
        if (!seen)
            view_list_push(checklists, view_string(v->checklist));
    }
}

view *decide_view_tree(const decision *d)
{
    view *root = view_map();
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "GPU purchase justification: %s", d->mixed_top ? d->mixed_top->name : d->w->name);
    view_map_set_str(root, "title", buf_cstr(&b));
    buf_free(&b);
    view *workload_view = view_map_set(root, "workload", workload_to_view(d->w));
    if (d->mixed_top) {   /* mixed work: the plan's name; each part's is under mixed */
        view_map_set_str(workload_view, "name", d->mixed_top->name);
        view_map_set(root, "mixed", decide_mixed_view(d));
    }
    view_map_set_bool(root, "is_job", workload_is_job(d->w));
    view_map_set(root, "memory", decide_memory_view(d));
    view_map_set(root, "method", decide_method_view(d));
    if (workload_is_llm(d->w))
        view_map_set(root, "llm", decide_llm_view(d));
    view_map_set(root, "constraints", decide_demand_view(d));   /* demand, production, region */
    view_map_set(root, "assumptions", decide_assumptions_view(d));
    view_map_set_str(root, "throughput_unit", d->unit);
    view_map_set_str(root, "work_unit", d->work_unit);
    size_t n_feasible = options_view(root, d);
    not_considered_view(root, d);
    decide_groups_view(root, d);
    if (!isnan(d->w->budget)) {
        decide_set_money(root, d, "budget", d->w->budget);
        view_map_set_str(root, "budget_basis", d->w->budget_basis);
        view_map_set_str(root, "budget_compares", decide_budget_compares(d));
        if (decide_budget_row(d))
            view_map_set_str(root, "budget_row", decide_budget_row(d));
        view_map_set_bool(root, "budget_basis_monthly",
                          decide_str_eq(d->w->budget_basis, "monthly"));
    }
    view_map_set_int(root, "feasible_count", (long long)n_feasible);
    if (n_feasible > DECIDE_BODY_COST_ROWS)
        view_map_set_int(root, "feasible_not_in_body",
                         (long long)(n_feasible - DECIDE_BODY_COST_ROWS));
    view_map_set_int(root, "option_count", (long long)d->n_options);
    if (d->n_set_aside)   /* counted apart: the rules did not judge them (decide.c) */
        view_map_set_int(root, "set_aside_count", (long long)d->n_set_aside);
    recommendation_view(view_map_set(root, "recommendation", view_map()), d, decide_best(d));
    view_map_set(root, "break_even", view_copy(d->break_even));
    view_map_set(root, "sensitivity", view_copy(d->sensitivity));
    decide_robust_view(d, root);
    view_map_set(root, "charts", charts_view(d));
    view_map_set(root, "price_age", decide_price_age_view(d));
    view_map_set_bool(root, "has_export_rules",
                      view_len(view_map_set(root, "export_rules", export_rules_view(d))) > 0);
    view_map_set(root, "citations", citations_view(d));
    if (d->trace)
        view_map_set(root, "trace", view_copy(d->trace));
    return root;
}

view *decide_view_summary(const decision *d)
{
    view *root = view_map();
    view_map_set_str(root, "throughput_unit", d->unit);
    view_map_set_str(root, "work_unit", d->work_unit);
    if (workload_is_llm(d->w))
        view_map_set(root, "llm", decide_llm_view(d));
    not_considered_groups_view(root, d);
    recommendation_head_view(view_map_set(root, "recommendation", view_map()), d, decide_best(d));
    view_map_set(root, "sensitivity", view_copy(d->sensitivity));
    return root;
}
