/* decide.c — the decision's pipeline (decide_run), on top of its stages: read what the KB holds
 * for the workload once (GPUs, the benchmark's measured results, prices, the figures the engine
 * assumes), then options -> fit and speed -> cost -> rules -> rank -> robustness -> what-if ->
 * view.  The stages live in decide_*.c beneath it, their shared helpers in decide_common.c. */
#include "decide.h"
#include "base/check.h"
#include "base/clock.h"
#include "decide_common.h"
#include "model/precision.h"
#include "decide_budget.h"
#include "decide_cost.h"
#include "decide_demand.h"
#include "decide_infeasible.h"
#include "decide_llm.h"
#include "decide_llm_accuracy.h"
#include "decide_mixed.h"
#include "decide_options.h"
#include "decide_precision.h"
#include "decide_rent.h"
#include "decide_robust.h"
#include "decide_rules.h"
#include "decide_speed.h"
#include "decide_view.h"
#include "decide_whatif.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the KB ---- */

/* Keeps the results of the workload's precision class (half vs full) when there are any;
 * otherwise all of them, and says so.  Takes the rows. */
static void keep_precision_class(decision *d, kb_benchmark *rows, size_t n)
{
    const workload *w = d->w;
    int want_half = gw_precision_is_half(w->precision);
    size_t same = 0;
    for (size_t i = 0; i < n; i++)
        same += gw_precision_is_half(rows[i].precision) == want_half;
    int every = workload_is_llm(w);   /* a language model's benchmark is its own: every row */
    d->bench = gw_xcalloc(n ? n : 1, sizeof *d->bench);
    for (size_t i = 0; i < n; i++) {
        if (!every && same && gw_precision_is_half(rows[i].precision) != want_half) {
            kb_benchmark_free(&rows[i]);
            continue;
        }
        d->bench[d->n_bench++] = rows[i];
    }
    free(rows);
    if (d->n_bench && !same && !every)
        decide_trace(d, "no %s results for %s: using the other precision's", w->precision,
                     w->benchmark);
}

/* The workload's benchmark: its measured results, the unit of speed and the unit of work. */
static int load_benchmark(decision *d, gw_error *err)
{
    const workload *w = d->w;
    kb_benchmark *rows = NULL;
    size_t n = 0;
    int rc = kb_benchmarks_find(d->k, NULL, w->benchmark, &rows, &n, err);
    if (rc != GW_OK)
        return rc;
    keep_precision_class(d, rows, n);
    if (!d->n_bench)
        return gw_error_set(err, GW_EDATA,
                            "%s: benchmark: the KB holds no measured results for \"%s\"",
                            w->path, w->benchmark);
    free(d->unit);
    d->unit = gw_xstrdup(d->bench[0].unit ? d->bench[0].unit : "samples/s");
    char *slash = strstr(d->unit, "/s");
    gw_buf wu = GW_BUF_INIT;
    buf_printf(&wu, DECIDE_WORK_UNIT_PREFIX " %.*s",
               (int)(slash ? (size_t)(slash - d->unit) : strlen(d->unit)), d->unit);
    d->work_unit = buf_detach(&wu);
    d->unit_size = DECIDE_WORK_UNIT_SAMPLES;
    return GW_OK;
}

/* A language model's speed is in tokens/s and its work in tokens, whatever its benchmark (which
 * must measure tokens); the KB's measured language-model rows are read for its calibration. */
static int llm_units(decision *d, gw_error *err)
{
    for (size_t i = 0; i < d->n_bench; i++)
        if (!decide_str_eq(d->bench[i].unit, "tokens/s"))
            return gw_error_set(err, GW_EDATA,
                                "%s: benchmark: \"%s\" is measured in %s; a language model's "
                                "results are in tokens/s",
                                d->w->path, d->w->benchmark,
                                d->bench[i].unit ? d->bench[i].unit : "no unit");
    free(d->unit);
    free(d->work_unit);
    d->unit = gw_xstrdup("tokens/s");
    d->work_unit = gw_xstrdup(decide_str_eq(d->w->task, "inference")
                                  ? DECIDE_WORK_UNIT_PREFIX " output tokens"
                                  : DECIDE_WORK_UNIT_PREFIX " tokens");
    d->unit_size = DECIDE_WORK_UNIT_SAMPLES;
    return decide_llm_rows_load(d, err);   /* the KB's measured LLM rows, for calibration */
}

/* The figures the engine falls back on (d->facts), every one, whether or not this workload
 * needs it, so that a KB without one is refused whatever the workload.  Each is the KB's row,
 * with the unit and range the KB checks it against on every write; the PCIe one is an effective
 * all-reduce rate, not the link's bandwidth (kb/data/assumptions.csv says why). */
static int load_assumptions(decision *d, gw_error *err)
{
    for (int i = 0; i < KB_ASSUMED_COUNT; i++) {
        int rc = kb_assumption_get(d->k, (kb_assumed)i, &d->facts[i], err);
        if (rc == GW_ENOTFOUND)
            return gw_error_set(err, GW_EDATA,
                                "%s: the knowledge base has no assumed figure '%s', which the "
                                "decision falls back on (add its row to the KB's assumptions "
                                "with gpuwise kb import; kb/data/assumptions.csv has gpuwise's)",
                                kb_path(d->k), kb_assumed_id((kb_assumed)i));
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
}

static int load_kb(decision *d, gw_error *err)
{
    const workload *w = d->w;
    kb_rate rate;
    if (kb_rate_get(d->k, w->currency, &rate, NULL) != GW_OK)
        return gw_error_set(err, GW_EDATA,
                            "%s: currency: the KB has no exchange rate for %s (add one with "
                            "gpuwise kb import rates.csv)",
                            w->path, w->currency);
    kb_rate_free(&rate);
    int rc = load_assumptions(d, err);
    if (rc == GW_OK)
        rc = kb_gpu_list(d->k, NULL, NULL, &d->gpus, &d->n_gpus, err);
    if (rc == GW_OK)
        rc = kb_prices_to_buy(d->k, &d->prices, &d->n_prices, err);
    if (rc == GW_OK)
        rc = kb_systems_find(d->k, NULL, &d->systems, &d->n_systems, err);
    if (rc == GW_OK)
        rc = kb_hosts_list(d->k, &d->hosts, &d->n_hosts, err);
    if (rc == GW_OK)
        rc = kb_precision_supports_list(d->k, &d->support, &d->n_support, err);
    if (rc == GW_OK && w->benchmark)
        rc = load_benchmark(d, err);
    if (rc == GW_OK)
        rc = decide_reference_rows_read(d, err);
    if (rc == GW_OK && workload_is_llm(w))
        rc = llm_units(d, err);
    if (rc != GW_OK)
        return rc;
    decide_trace(d, "KB: %zu GPUs, %zu prices to buy, %zu %s results", d->n_gpus, d->n_prices,
                 d->n_bench, w->benchmark ? w->benchmark : "benchmark");
    decide_support_trace(d);
    return GW_OK;
}

/* The KB's host prices in the workload's currency (each rate remembered and cited as any). */
static int convert_host_prices(decision *d, gw_error *err)
{
    d->host_prices = gw_xcalloc(d->n_hosts ? d->n_hosts : 1, sizeof *d->host_prices);
    for (size_t i = 0; i < d->n_hosts; i++) {
        int rc = decide_convert(d, d->hosts[i].price, d->hosts[i].currency, &d->host_prices[i],
                                err);
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
}

/* The ownership costs the workload leaves out, from the assumed figures.  Hosts come from the
 * KB's host table, machine by machine (decide_option_host); a KB without one (an older KB not
 * yet given kb/data/hosts.csv) costs every machine at the assumed host_cost and host_power_w. */
static int fill_defaults(decision *d, gw_error *err)
{
    workload *w = d->w;
    int rc = convert_host_prices(d, err);
    if (rc != GW_OK)
        return rc;
    if (isnan(w->host_cost) && !d->n_hosts) {
        const kb_assumption *f = &d->facts[KB_ASSUMED_HOST_COST];
        rc = decide_convert(d, f->value, f->unit, &w->host_cost, err);
        if (rc != GW_OK)
            return rc;
        decide_fact_cite(d, KB_ASSUMED_HOST_COST);
    }
    if (isnan(w->host_power_w) && !d->n_hosts) {
        w->host_power_w = d->facts[KB_ASSUMED_HOST_POWER].value;
        decide_fact_cite(d, KB_ASSUMED_HOST_POWER);
    }
    if (isnan(w->support_fraction)) {
        w->support_fraction = d->facts[KB_ASSUMED_SUPPORT].value;
        decide_fact_cite(d, KB_ASSUMED_SUPPORT);
    }
    if (!isnan(w->site_power_kw)) {
        const kb_assumption *f = &d->facts[KB_ASSUMED_COLOCATION];
        rc = decide_convert(d, f->value, f->unit, &d->colocation_per_kw_month, err);
        if (rc != GW_OK)
            return rc;
        decide_fact_cite(d, KB_ASSUMED_COLOCATION);
    }
    if (isnan(w->network_gbps)) {
        w->network_gbps = d->facts[KB_ASSUMED_HOST_NETWORK].value;
        decide_fact_cite(d, KB_ASSUMED_HOST_NETWORK);
    }
    if (isnan(w->resale_fraction)) {
        w->resale_fraction = d->facts[KB_ASSUMED_RESALE].value;
        decide_fact_cite(d, KB_ASSUMED_RESALE);
    }
    return GW_OK;
}

/* work.hours_on or hours_needed_on: the card hours of work are measured on, and its speed. */
static int setup_reference(decision *d, gw_error *err)
{
    const workload *w = d->w;
    const char *name = w->work_hours_on ? w->work_hours_on : w->hours_needed_on;
    const char *field = w->work_hours_on ? "work.hours_on" : "hours_needed_on";
    if (!name || (!w->work_hours_on && !workload_has_need(w)))
        return GW_OK;
    char *id = NULL;
    int count = 1;
    int rc = kb_gpu_resolve(d->k, name, &id, &count, err);
    if (rc != GW_OK) {
        gw_error_prefix(err, "%s: %s", w->path, field);
        return rc;
    }
    d->reference = decide_gpu_find(d, id);
    free(id);
    if (!d->reference)
        return gw_error_set(err, GW_ENOTFOUND, "%s: %s: %s is not in the KB", w->path, field,
                            name);
    if (d->n_bench || w->hours_needed_on) {
        gw_buf why = GW_BUF_INIT;
        d->reference_speed = decide_reference_card_speed(d, d->reference, &why);
        if (isnan(d->reference_speed) && workload_is_llm(w))
            rc = gw_error_set(err, GW_EDATA, "%s: %s: the speed of %s is unknown: %s", w->path,
                              field, d->reference->name, buf_cstr(&why));
        else if (isnan(d->reference_speed))
            rc = gw_error_set(err, GW_EDATA,
                              "%s: %s: no %s result measured on or comparable to %s", w->path,
                              field, w->benchmark, d->reference->name);
        buf_free(&why);
        if (rc != GW_OK)
            return rc;
        d->reference_speed *= count;
    } else {
        d->reference_speed = 1;
        gw_buf u = GW_BUF_INIT;
        buf_printf(&u, "x %s", d->reference->name);
        free(d->unit);
        d->unit = buf_detach(&u);
        buf_printf(&u, "%s-hour of work", d->reference->name);
        d->work_unit = buf_detach(&u);
        d->unit_size = 3600;   /* one reference hour at speed 1 */
    }
    return GW_OK;
}

/* The memory one replica needs (the workload's measured peak, else estimated) and the gradient
 * bytes every data-parallel step exchanges (estimated from the peak when only vram_gb is given;
 * none when nothing is trained). */
static int size_model(decision *d, gw_error *err)
{
    const workload *w = d->w;
    if (workload_is_llm(w))
        return decide_llm_setup(d, err);
    d->gradient_bytes = model_training_gradient_bytes(w->params, w->vram_gb, w->precision,
                                                      w->optimizer);
    if (!isnan(w->vram_gb)) {
        model_memory_measured(w->vram_gb, &d->memory);
        return GW_OK;
    }
    int rc = model_memory_estimate(w->params, w->precision, w->optimizer, w->activations_gb,
                                   &d->memory, err);
    if (rc != GW_OK)
        gw_error_prefix(err, "%s: model", w->path);
    return rc;
}

/* ---- fit, speed and cost of every option ---- */

static void drop_unneeded_instances(decision *d);

static void evaluate_options(decision *d)
{
    decide_trace(d, "memory per replica: %.1f GB (%s)", d->memory.total_gb,
                 d->memory.measured ? "measured, from vram_gb" : "estimated from parameters");
    decide_trace(d, "%zu options", d->n_options);
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        decide_option_fit(d, o);
        decide_option_speed(d, o);
        decide_option_cost(d, o);
        decide_trace(d, "%s: needs %.1f GB/card of %.1f; %.0f %s (%s); %s/h, %.4g per %s", o->id,
                     o->per_card_gb, decide_option_memory_gb(o), o->throughput, d->unit,
                     decide_speed_kind(d, o), d->w->currency, o->per_unit,
                     d->work_unit);
    }
    decide_mixed_apply(d);   /* mixed work: every part's fit and hours */
    drop_unneeded_instances(d);
    if (d->n_bench) {
        model_calibration_free(&d->spec_loo);   /* the bands' reading, read again for the view */
        decide_spec_loo_calibration(d, &d->spec_loo);
    }
}

/* The rental of fewer instances that o adds to, if any: hosts/2 (o doubles it), or 2 for 3
 * (serving's two replicas and a spare). */
static const decide_option *half_rental(const decision *d, const decide_option *o)
{
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *h = &d->options[i];
        int fewer = h->hosts * 2 == o->hosts || (o->hosts == 3 && h->hosts == 2);
        if (h->acquisition == DECIDE_RENT && h->gpu == o->gpu && fewer &&
            h->count * o->hosts == o->count * h->hosts &&   /* the same instance */
            decide_text_same(h->provider, o->provider) &&
            decide_text_same(h->instance, o->instance) && h->gpu_fraction == o->gpu_fraction)
            return h;
    }
    return NULL;
}

/* Why a rental of several instances was left out (the not-considered list groups by it). */
#define OMIT_FEWER_INSTANCES                                                                  \
    "fewer instances fit in memory, do the work in time and cost no more"

/* Whether h, half of o (a rental of several instances), does o's work as well: its GPUs hold
 * what each must (memory per GPU), it finishes the job in the hours available or serves a
 * language model within its targets, and it costs no more per unit of work.  Where it does
 * not, why (the first that fails) into why. */
static int half_does_it(const decision *d, const decide_option *o, const decide_option *h,
                        gw_buf *why)
{
    char *missed = NULL;
    int serving = workload_is_serving(d->w);
    buf_reset(why);
    buf_printf(why, "%s (%d instance%s) ", h->hosts * 2 == o->hosts ? "half as many" : "fewer",
               h->hosts, h->hosts == 1 ? "" : "s");
    if (!h->fits) {
        buf_printf(why, "need %.1f GB per GPU; %s holds ", h->per_card_gb, h->gpu->name);
        decide_option_capacity_words(why, h);
    } else if (isnan(h->throughput)) {
        buf_puts(why, "have no speed figure");
    } else if (serving && (missed = decide_llm_target_missed(d, h)) != NULL) {
        buf_printf(why, "miss a serving target: %s", missed);
    } else if (serving && (missed = decide_demand_short(d, h)) != NULL) {   /* spares, two replicas */
        buf_printf(why, "fall short: %s", missed);
    } else if (h->hours_needed > h->hours_available) {
        buf_puts(why, "need ");
        view_format_number(why, h->hours_needed, 0);
        buf_puts(why, " h of running; ");
        view_format_number(why, h->hours_available, 0);
        buf_puts(why, " h are available");
    } else if (!(h->per_unit <= o->per_unit)) {
        buf_puts(why, "cost more: ");
        decide_money_per_unit(why, d, h->per_unit);
        buf_puts(why, " against ");
        decide_money_per_unit(why, d, o->per_unit);
        buf_printf(why, " per %s", d->work_unit);
    } else {
        free(missed);
        return 1;
    }
    free(missed);
    return 0;
}

/* The not-considered entries of the rentals of several instances left out (drop[i]): each
 * GPU's one alone by its offer ("16x as 2 instances, AWS, p5.48xlarge"), several by their
 * number, so that a catalogue of offers does not fill the list; the trace names each by id. */
static void omit_instances(decision *d, const unsigned char *drop)
{
    gw_buf offer = GW_BUF_INIT;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (!drop[i])
            continue;
        size_t first = i, n = 0;
        for (size_t j = 0; j < d->n_options; j++)
            if (drop[j] && d->options[j].gpu == o->gpu && n++ == 0)
                first = j;
        if (first != i)   /* each GPU once, at its first left out */
            continue;
        buf_reset(&offer);
        if (n == 1) {
            buf_printf(&offer, "%dx as %d instances, %s", o->count, o->hosts, o->provider);
            if (o->instance)
                buf_printf(&offer, ", %s", o->instance);
        } else {
            buf_printf(&offer, "%zu rentals of several instances", n);
        }
        decide_omit(d, o->gpu, o->gpu->name, buf_cstr(&offer), OMIT_FEWER_INSTANCES);
    }
    buf_free(&offer);
}

/* Several instances of a rental cost about what one does and only finish sooner (or serve
 * more): they stay an option only where half as many cannot do the work, judged on memory per
 * GPU, hours (or serving targets) and cost together; the trace says which kept each and names
 * each left out, and the not-considered list counts them. */
static void drop_unneeded_instances(decision *d)
{
    unsigned char *drop = gw_xcalloc(d->n_options ? d->n_options : 1, 1);
    gw_buf why = GW_BUF_INIT;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i], *h;
        if (o->acquisition != DECIDE_RENT || o->hosts < 2 || !(h = half_rental(d, o)))
            continue;
        drop[i] = (unsigned char)half_does_it(d, o, h, &why);
        decide_trace(d, "%s %s: %s", o->id, drop[i] ? "left out" : "kept",
                     drop[i] ? OMIT_FEWER_INSTANCES : buf_cstr(&why));
    }
    buf_free(&why);
    omit_instances(d, drop);
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        if (drop[i]) {
            decide_option_free(&d->options[i]);
            dropped++;
        } else {
            d->options[kept++] = d->options[i];
        }
    }
    d->n_options = kept;
    if (dropped)
        decide_trace(d, "%zu rentals of several instances left out: " OMIT_FEWER_INSTANCES,
                     dropped);
    free(drop);
}

/* ---- the rules, on the options within reach ---- */

/* Whether the engine alone leaves o able to be recommended: it fits, its speed and cost are
 * known, it does its work in time, meets any serving target and is not held back; and the
 * robustness bounds its cost by its bands' corners (decide_robust.c: bounded). */
static int could_win(const decision *d, const decide_option *o)
{
    if (!o->fits || isnan(o->throughput) || isnan(o->per_unit) || o->held_back ||
        o->hours_needed > o->hours_available || !isnan(o->capacity) ||
        !(workload_is_job(d->w) || isnan(o->hours_needed)))
        return 0;
    if (decide_llm_target_is_missed(d, o))
        return 0;
    char *missed = decide_demand_short(d, o);
    free(missed);
    return !missed;
}

static int excluded_by_rule(const decide_option *o)
{
    for (size_t i = 0; i < o->n_verdicts; i++)
        if (!strcmp(o->verdicts[i].effect, "exclude"))
            return 1;
    return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

/* The highest cost per unit the best can reach among the options judged so far (judged[i]),
 * of the option kind rent or not: the largest unfavourable corner (per_unit_hi x the rules'
 * factor) of the DECIDE_BODY_COST_ROWS cheapest by score (the report's cost table), and of the
 * kind's cheapest (the break-even compares the best of each); infinite while fewer are judged. */
static double reach_ceiling(const decision *d, const unsigned char *judged, int rent)
{
    size_t n = 0;
    double *score = gw_xcalloc(d->n_options + 1, sizeof *score);
    double kind_score = INFINITY, kind_hi = INFINITY, top = -INFINITY;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (!judged[i] || !o->may_win || excluded_by_rule(o))
            continue;
        double a = decide_rules_adjustment(o);
        score[n++] = o->per_unit * a;
        if ((o->acquisition == DECIDE_RENT) == rent && o->per_unit * a < kind_score) {
            kind_score = o->per_unit * a;
            kind_hi = o->per_unit_hi * a;
        }
    }
    qsort(score, n, sizeof *score, cmp_double);
    double limit = n >= DECIDE_BODY_COST_ROWS ? score[DECIDE_BODY_COST_ROWS - 1] : INFINITY;
    for (size_t i = 0; i < d->n_options && isfinite(limit); i++) {
        const decide_option *o = &d->options[i];
        if (judged[i] && o->may_win && !excluded_by_rule(o) &&
            o->per_unit * decide_rules_adjustment(o) <= limit)
            top = fmax(top, o->per_unit_hi * decide_rules_adjustment(o));
    }
    free(score);
    return isfinite(limit) ? fmax(top, kind_hi) : INFINITY;
}

/* The highest cost per unit the best can reach, of a purchase ([0]) and of a rental ([1]),
 * from the options judged (judged[i]; with first, every option at a factor of 1: a first
 * guess before any is judged). */
static void reach_ceilings(const decision *d, const unsigned char *judged, int first,
                           double ceiling[2])
{
    unsigned char *every = NULL;
    if (first) {
        every = gw_xcalloc(d->n_options + 1, 1);
        memset(every, 1, d->n_options);
    }
    for (int rent = 0; rent < 2; rent++)
        ceiling[rent] = reach_ceiling(d, every ? every : judged, rent);
    free(every);
}

/* Whether o is out of reach: it could win (may_win) and its lowest possible cost (the
 * favourable corner of its bands x the rules' least factor) is above the best's highest
 * (ceiling); both kept in o for the words that say so. */
static int out_of_reach(const decision *d, decide_option *o, const double ceiling[2])
{
    if (!o->may_win)
        return 0;
    o->set_aside_low = o->per_unit_lo * d->rules_floor;
    o->set_aside_best = ceiling[o->acquisition == DECIDE_RENT];
    return o->set_aside_low > o->set_aside_best * (1 + DECIDE_ROBUST_BOUND_MARGIN);
}

/* Marks into judge[] the options not yet judged that are not out of reach; returns how many. */
static size_t within_reach(decision *d, const unsigned char *judged, unsigned char *judge,
                           int first)
{
    double ceiling[2];
    reach_ceilings(d, judged, first, ceiling);
    size_t n = 0;
    for (size_t i = 0; i < d->n_options; i++)
        if (!judged[i] && !out_of_reach(d, &d->options[i], ceiling)) {
            judge[i] = 1;
            n++;
        }
    return n;
}

/* The rules judge every option that could still matter (could_win, and within_reach of the
 * best, in rounds until no more come within it); the rest are set aside, unjudged.  Every
 * option is judged with DECIDE_ALL_OPTIONS, where a rule declares no prefers_at_most (no least
 * factor), or for production. */
static int run_rules(decision *d, plugin_host *host, unsigned flags, gw_error *err)
{
    d->rules_floor = decide_rules_floor(host);
    size_t n = d->n_options;
    unsigned char *judged = gw_xcalloc(n + 1, 1), *judge = gw_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        decide_option *o = &d->options[i];
        o->may_win = could_win(d, o);
        if (o->may_win)   /* the others are judged whatever their cost */
            decide_option_corners(d, o);
    }
    /* production = true excludes rentals after the rules (decide_demand_constraints), which
     * could take one of the 8 cheapest away: every option is judged */
    int every = (flags & DECIDE_ALL_OPTIONS) || isnan(d->rules_floor) || !host ||
                d->w->production;
    size_t verdicts = 0;
    int rc = every ? decide_rules_run(d, host, NULL, &verdicts, err) : GW_OK;
    for (size_t i = 0; every && i < n; i++)
        judged[i] = 1;
    for (int first = 1; !every && rc == GW_OK && within_reach(d, judged, judge, first);
         first = 0) {
        rc = decide_rules_run(d, host, judge, &verdicts, err);
        for (size_t i = 0; i < n; i++) {
            judged[i] |= judge[i];
            judge[i] = 0;
        }
    }
    for (size_t i = 0; rc == GW_OK && i < n; i++)
        if (!judged[i]) {
            d->options[i].set_aside = 1;
            d->n_set_aside++;
        }
    if (rc == GW_OK && !isnan(d->rules_floor) && host) {
        /* judged or not, the options out of reach: what the robustness leaves out */
        double ceiling[2];
        reach_ceilings(d, judged, 0, ceiling);
        for (size_t i = 0; i < n; i++)
            d->options[i].out_of_reach = out_of_reach(d, &d->options[i], ceiling);
    }
    if (rc == GW_OK && host)
        decide_trace(d, "%zu rules gave %zu verdicts over %zu options", decide_rules_count(host),
                     verdicts, n - d->n_set_aside);
    if (rc == GW_OK && !every)
        decide_trace(d, "%zu of %zu options set aside: their lowest possible cost per unit "
                        "(x %.2f, the rules' least factor) is above the best's highest",
                     d->n_set_aside, n, d->rules_floor);
    free(judged);
    free(judge);
    return rc;
}

/* ---- judgement and ranking ---- */

/* Feasible unless a rule excludes it, it does not fit, its speed is unknown, or (a job) its
 * runs cannot finish in the hours available. */
static void judge(decision *d, decide_option *o)
{
    gw_buf b = GW_BUF_INIT;
    char *missed = NULL;
    o->feasible = 1;
    if (o->set_aside) {
        o->feasible = 0;
        buf_puts(&b, "set aside: lowest possible cost ");
        decide_money_per_unit(&b, d, o->set_aside_low);
        buf_puts(&b, " is above the best's ");
        decide_money_per_unit(&b, d, o->set_aside_best);
        o->excluded_because = buf_detach(&b);
        return;
    }
    for (size_t i = 0; i < o->n_verdicts; i++)
        if (!strcmp(o->verdicts[i].effect, "exclude")) {
            o->feasible = 0;
            o->excluded_because = gw_xstrdup(o->verdicts[i].because);
            return;
        }
    if (!o->fits) {
        /* The fit is a fact; the memory rule normally says so first, in its own words. */
        o->feasible = 0;
        buf_printf(&b, "needs %.1f GB per %s; %s holds ", o->per_card_gb,
                   o->split ? "card" : "replica", o->gpu->name);
        decide_option_capacity_words(&b, o);
    } else if (isnan(o->throughput)) {
        o->feasible = 0;
        buf_printf(&b, "no measured or comparable %s result for %s%s%s",
                   d->w->benchmark ? d->w->benchmark : "speed", o->gpu->name,
                   o->throughput_how && *o->throughput_how ? ": " : "",
                   o->throughput_how ? o->throughput_how : "");
    } else if ((missed = decide_llm_target_missed(d, o)) != NULL) {
        o->feasible = 0;   /* a serving target the option cannot meet */
        buf_puts(&b, missed);
        free(missed);
    } else if (o->hours_needed > o->hours_available) {
        o->feasible = 0;
        buf_puts(&b, "needs ");
        view_format_number(&b, o->hours_needed, 0);
        buf_puts(&b, " h of running; ");
        view_format_number(&b, o->hours_available, 0);
        buf_printf(&b, " h are available (%g h a day for ", d->w->hours_per_day);
        if (!isnan(d->w->deadline_days))
            buf_printf(&b, "%g days, the deadline)", d->w->deadline_days);
        else
            buf_printf(&b, "%g months)", d->w->horizon_months);
        /* a modelled speed's band reaching the hours: a miss the model cannot rule on */
        double top = o->hours_needed * o->throughput / o->throughput_hi;
        if (o->throughput_hi > o->throughput && top <= o->hours_available) {
            buf_puts(&b, "; at its speed band's top it needs ");
            view_format_number(&b, top, 0);
            buf_puts(&b, " h: within the model's error, a short run decides");
        }
    }
    if (!o->feasible)
        o->excluded_because = buf_detach(&b);
    buf_free(&b);
}

static int cmp_rank(const void *pa, const void *pb)
{
    const decide_option *a = *(decide_option *const *)pa, *b = *(decide_option *const *)pb;
    if (a->feasible != b->feasible)
        return b->feasible - a->feasible;
    if (a->feasible && a->held_back != b->held_back)
        return a->held_back - b->held_back;
    double x = a->feasible ? a->score : a->per_unit, y = b->feasible ? b->score : b->per_unit;
    if (isnan(x) != isnan(y))
        return isnan(x) - isnan(y);
    if (x != y && !isnan(x))
        return x < y ? -1 : 1;
    return strcmp(a->id, b->id);
}

/* Feasible options by cost per unit of work as the verdicts adjust it; the rest after them. */
static void rank_options(decision *d)
{
    free(d->ranked);
    d->ranked = gw_xcalloc(d->n_options ? d->n_options : 1, sizeof *d->ranked);
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        o->score = o->set_aside ? NAN : o->per_unit * decide_rules_adjustment(o);
        d->ranked[i] = o;
    }
    qsort(d->ranked, d->n_options, sizeof *d->ranked, cmp_rank);
    int r = 0;
    for (size_t i = 0; i < d->n_options; i++)
        d->ranked[i]->rank = d->ranked[i]->feasible ? ++r : 0;
}

static void judge_and_rank(decision *d)
{
    for (size_t i = 0; i < d->n_options; i++) {
        judge(d, &d->options[i]);
        if (!d->options[i].feasible)
            decide_trace(d, "%s excluded: %s", d->options[i].id, d->options[i].excluded_because);
    }
    rank_options(d);
    if (decide_from_check(d))   /* a 'from' price that loses at the high end: held back */
        rank_options(d);
    const decide_option *best = decide_best(d);
    if (best)
        decide_trace(d, "recommended: %s (score %.4g)", best->id, best->score);
    else
        decide_trace(d, "no feasible option");
}

/* ---- the pipeline ---- */

int decide_run(kb *k, plugin_host *host, workload *w, unsigned flags, decision **out,
               gw_error *err)
{
    if (w->n_parts)
        return decide_mixed_run(k, host, w, flags, out, err);
    return decide_run_with_parts(k, host, w, flags, NULL, 0, 0, out, err);
}

int decide_run_with_parts(kb *k, plugin_host *host, workload *w, unsigned flags,
                          decision **parts, size_t n_parts, size_t base_part, decision **out,
                          gw_error *err)
{
    decision *d = gw_xcalloc(1, sizeof *d);
    d->k = k;
    d->w = w;
    d->today = gw_today_days();
    d->parts = parts;
    d->n_parts = n_parts;
    d->base_part = base_part;
    d->trace = flags & DECIDE_TRACE ? view_list() : NULL;
    *out = NULL;
    int rc = size_model(d, err);
    if (rc == GW_OK)
        rc = load_kb(d, err);
    if (rc == GW_OK)
        rc = setup_reference(d, err);
    if (rc == GW_OK)
        rc = fill_defaults(d, err);
    if (rc == GW_OK)
        rc = decide_options_enumerate(d, err);
    if (rc == GW_OK && d->n_options == 0)
        rc = decide_no_option_error(d, err);   /* a module sold only in servers says why */
    if (rc == GW_OK) {
        evaluate_options(d);
        rc = decide_rent_size_to_demand(d, err);   /* a service's rentals: enough instances */
    }
    if (rc == GW_OK)
        rc = run_rules(d, host, flags, err);
    if (rc == GW_OK)
        rc = decide_demand_constraints(d, err);   /* production, region, licence */
    if (rc != GW_OK) {
        decision_free(d);
        return rc;
    }
    judge_and_rank(d);
    decide_robust_run(d);
    decide_break_even(d);
    decide_sensitivity(d);
    decide_reasons(d);
    *out = d;
    return GW_OK;
}

void decision_free(decision *d)
{
    if (!d)
        return;
    free(d->measured_one);
    free(d->nearest_one);
    free(d->bench_tier);
    model_calibration *cals[] = {&d->spec_loo, &d->spec_pairs, &d->count_cal, &d->params_cal,
                                 &d->repro_cal};
    for (size_t i = 0; i < sizeof cals / sizeof *cals; i++)
        model_calibration_free(cals[i]);
    for (int i = 0; i < KB_ASSUMED_COUNT; i++)
        kb_assumption_free(&d->facts[i]);
    for (size_t i = 0; i < d->n_options; i++)
        decide_option_free(&d->options[i]);
    free(d->options);
    free(d->ranked);
    for (size_t i = 0; i < d->n_omitted; i++) {
        free(d->omitted[i].gpu);
        free(d->omitted[i].name);
        free(d->omitted[i].offer);
    }
    free(d->omitted);
    kb_gpus_free(d->gpus, d->n_gpus);
    decide_llm_rows_free(d);   /* before the rows it points into */
    kb_benchmarks_free(d->bench, d->n_bench);
    kb_benchmarks_free(d->reference_rows, d->n_reference_rows);
    kb_prices_free(d->prices, d->n_prices);
    free(d->rent_walked);
    decide_rent_free(d);
    kb_systems_free(d->systems, d->n_systems);
    kb_hosts_free(d->hosts, d->n_hosts);
    kb_precision_supports_free(d->support, d->n_support);
    free(d->host_prices);
    decide_rates_free(d);
    decide_price_kinds_free(d);
    for (size_t i = 0; i < d->n_cites; i++)
        free(d->cite_ids[i]);
    free(d->cite_ids);
    free(d->unit);
    free(d->work_unit);
    view_free(d->trace);
    view_free(d->break_even);
    view_free(d->cumulative);
    view_free(d->sensitivity);
    view_free(d->because);
    decide_robust_free(d->robust);
    decide_mixed_free(d);
    view_free(d->constraints);
    free(d);
}

/* ---- reading the decision (decide.h) ---- */

size_t decision_option_count(const decision *d)
{
    return d->n_options;
}

const decide_option *decision_option_at(const decision *d, size_t i)
{
    return i < d->n_options ? d->ranked[i] : NULL;
}

const decide_option *decision_best(const decision *d)
{
    return decide_best(d);
}

view *decision_to_view(const decision *d)
{
    view *root = decide_view_tree(d);
    view_map_set(root, "no_recommendation", decide_no_recommendation_view(d));
    return root;
}

view *decision_to_summary_view(const decision *d)
{
    view *root = decide_view_summary(d);
    view_map_set(root, "no_recommendation", decide_no_recommendation_view(d));
    return root;
}

char *decision_no_recommendation(const decision *d, int *none_feasible)
{
    return decide_no_recommendation_text(d, none_feasible);
}
