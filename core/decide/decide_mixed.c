/* decide_mixed.c — mixed work (decide_mixed.h): the parts' decisions, each option evaluated for
 * every part, the sum of their hours and each one's share of the cost; and the hours of running
 * an option needs, for one workload or several. */
#include "decide_mixed.h"
#include "decide.h"
#include "decide_budget.h"
#include "decide_cost.h"
#include "decide_fields.h"
#include "decide_speed.h"

#include <math.h>
#include <stdlib.h>


/* Hours of running over the horizon when every hour of hours_per_day is used. */
static double all_hours(const workload *w)
{
    return w->hours_per_day * COST_DAYS_PER_MONTH * w->horizon_months;
}

void decide_option_hours(decision *d, decide_option *o)
{
    const workload *w = d->w;
    o->hours_needed = NAN;
    o->hours_available = NAN;
    if (workload_is_job(w)) {
        o->hours_needed = o->time_to_finish_hours * w->work_runs;
        o->hours_available = workload_hours_available(w);
    } else if (workload_has_need(w)) {
        o->hours_needed = decide_need_hours(d, o);
        o->hours_available = workload_hours_available(w);
    }
    if (!d->n_parts)
        return;
    double own = isnan(o->hours_needed) && !workload_is_job(w) ? all_hours(w) : o->hours_needed;
    o->hours_needed = own + o->other_parts_hours;
    o->hours_available = all_hours(w);
}

int decide_mixed_run(kb *k, plugin_host *host, workload *w, unsigned flags, decision **out,
                     gw_error *err)
{
    *out = NULL;
    decision **parts = gw_xcalloc(w->n_parts, sizeof *parts);
    size_t base = 0;
    int rc = GW_OK;
    for (size_t p = 0; p < w->n_parts && rc == GW_OK; p++) {
        rc = decide_run(k, host, w->parts[p], 0, &parts[p], err);
        if (rc != GW_OK)
            break;
        if (parts[p]->memory.total_gb > parts[base]->memory.total_gb)
            base = p;
    }
    if (rc != GW_OK) {
        for (size_t p = 0; p < w->n_parts; p++)
            decision_free(parts[p]);
        free(parts);
        return rc;
    }
    rc = decide_run_with_parts(k, host, w->parts[base], flags, parts, w->n_parts, base, out,
                               err);
    if (rc == GW_OK)
        (*out)->mixed_top = w;
    return rc;
}

/* The hours of running o takes for the part decided by pd, and whether it fits there: o
 * evaluated in pd's setting (its model, speed and work) on a shallow copy whose strings are
 * its own and freed here. */
static double part_hours(decision *pd, const decide_option *o, int *fits, double *per_card_gb)
{
    decide_option at = *o;
    at.throughput_how = NULL;
    at.throughput_band_basis = NULL;
    at.part_hours = NULL;
    at.other_parts_hours = 0;
    at.cites = NULL;
    at.n_cites = 0;
    at.measured = 0;
    size_t n_cites = pd->n_cites;
    decide_option_fit(pd, &at);
    decide_option_speed_figures(pd, &at);
    decide_option_cost(pd, &at);
    *fits = at.fits && !isnan(at.throughput);
    *per_card_gb = at.per_card_gb;
    double hours = !isnan(at.hours_needed) ? at.hours_needed : all_hours(pd->w);
    free(at.throughput_how);
    free(at.throughput_band_basis);
    free(at.cites);
    for (size_t i = n_cites; i < pd->n_cites; i++)
        free(pd->cite_ids[i]);
    pd->n_cites = n_cites;
    return *fits ? hours : NAN;
}

void decide_mixed_apply(decision *d)
{
    if (!d->n_parts)
        return;
    free(d->work_unit);
    d->work_unit = gw_xstrdup("plan (all the workloads' work over the horizon)");
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        free(o->part_hours);
        o->part_hours = gw_xcalloc(d->n_parts, sizeof *o->part_hours);
        o->other_parts_hours = 0;
        for (size_t p = 0; p < d->n_parts; p++) {
            if (p == d->base_part)
                continue;
            int fits;
            double per_card_gb;
            o->part_hours[p] = part_hours(d->parts[p], o, &fits, &per_card_gb);
            if (!fits && o->fits) {   /* judge says what this part needs */
                o->fits = 0;
                o->per_card_gb = per_card_gb;
            }
            if (fits)
                o->other_parts_hours += o->part_hours[p];
        }
        decide_option_cost(d, o);
        o->part_hours[d->base_part] = o->hours_needed - o->other_parts_hours;
        decide_trace(d, "%s: mixed work, %.0f h of running for every workload", o->id,
                     o->hours_needed);
    }
}

/* Part p's name and memory, from its decision. */
static const char *part_name(const decision *d, size_t p)
{
    return d->parts[p]->w->name;
}

view *decide_mixed_option_view(const decision *d, const decide_option *o)
{
    if (!d->n_parts || !o->part_hours)
        return NULL;
    view *list = view_list();
    for (size_t p = 0; p < d->n_parts; p++) {
        double share = o->hours_needed > 0 ? o->part_hours[p] / o->hours_needed : NAN;
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "name", part_name(d, p));
        decide_set_figure(m, "memory_gb", d->parts[p]->memory.total_gb, 1, " GB");
        decide_set_figure(m, "hours", o->part_hours[p], 0, " h");
        decide_set_figure(m, "share", share * 100, 1, "%");
        decide_set_money(m, d, "cost", o->cost.total * share);
        view_map_set_bool(m, "largest_memory", p == d->base_part);
    }
    return list;
}

view *decide_mixed_view(const decision *d)
{
    if (!d->n_parts)
        return NULL;
    view *m = view_map();
    view_map_set_str(m, "largest", part_name(d, d->base_part));
    view_map_set_int(m, "count", (long long)d->n_parts);
    const decide_option *best = decide_best(d);
    view_map_set(m, "workloads", best ? decide_mixed_option_view(d, best) : view_list());
    return m;
}

void decide_mixed_free(decision *d)
{
    for (size_t p = 0; p < d->n_parts; p++)
        decision_free(d->parts[p]);
    free(d->parts);
}
