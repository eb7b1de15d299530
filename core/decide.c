/* decide.c — options, their speed and cost, the rule plugins' verdicts, the ranking, the
 * break-even and sensitivity analyses, and the view model of the result.  Everything the KB
 * holds that a decision needs is read once up front (GPUs, the benchmark's measured results,
 * prices, exchange rates); the rest is arithmetic in model.c and cost.c. */
#include "decide.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "units.h"

typedef struct rate_entry {
    char currency[4];
    double factor;             /* one unit of currency in the workload's currency */
    char as_of[16];            /* the older of the two rates' dates */
    int cite;                  /* citation of the rates' source */
} rate_entry;

struct decision {
    kb *k;
    workload *w;
    kb_gpu *gpus;
    size_t n_gpus;
    kb_benchmark *bench;       /* the workload's benchmark, precision class filtered */
    size_t n_bench;
    unsigned char *measured_one;   /* per GPU: 0 not looked at, 1 has single-card results, 2 not */
    kb_price *prices;
    size_t n_prices;
    rate_entry rates[16];
    size_t n_rates;
    char **cite_ids;           /* citation n is cite_ids[n - 1] */
    size_t n_cites;
    model_memory memory;
    double gradient_bytes;
    int cite_host_cost, cite_host_power, cite_resale, cite_pcie;   /* 0: none */
    char *unit;                /* "images/s", or "x RTX 3090" without a benchmark */
    char *work_unit;           /* "1M images", "RTX 3090-hour" */
    double unit_size;          /* samples in one work unit (1e6), or 1 */
    double reference_speed;    /* hours_on: throughput of one reference card */
    const kb_gpu *reference;
    decide_option *options;
    size_t n_options, cap_options;
    size_t rent_set_aside;     /* cloud offers left out by RENT_OFFERS_PER_CONFIG */
    decide_option **ranked;
    view *trace;
    view *break_even;
    view *cumulative;          /* the buy-vs-rent series and break-even marker, for the chart */
    view *sensitivity;
    view *because;             /* the recommendation's reasons, strongest first */
};

/* ---- small helpers ---- */

static int str_eq(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* Equal, counting NULL and "" as the same (an absent provider or instance). */
static int same_text(const char *a, const char *b)
{
    return !strcmp(a ? a : "", b ? b : "");
}

static void trace(decision *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void trace(decision *d, const char *fmt, ...)
{
    if (!d->trace)   /* not asked for (a report does not print it) */
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    view_list_push(d->trace, view_string(line));
}

static int cite(decision *d, const char *source)
{
    if (!source || !*source)
        return 0;
    for (size_t i = 0; i < d->n_cites; i++)
        if (!strcmp(d->cite_ids[i], source))
            return (int)i + 1;
    d->cite_ids = gw_xrealloc(d->cite_ids, (d->n_cites + 1) * sizeof *d->cite_ids);
    d->cite_ids[d->n_cites++] = gw_xstrdup(source);
    return (int)d->n_cites;
}

/* Cites a source the defaults rest on, when the KB holds it (a user's KB may not). */
static int cited_source(decision *d, const char *source)
{
    kb_source s;
    if (kb_source_get(d->k, source, &s, NULL) != GW_OK)
        return 0;
    kb_source_free(&s);
    return cite(d, source);
}

static void option_cite(decision *d, decide_option *o, const char *source)
{
    int n = cite(d, source);
    if (!n)
        return;
    for (size_t i = 0; i < o->n_cites; i++)
        if (o->cites[i] == n)
            return;
    o->cites = gw_xrealloc(o->cites, (o->n_cites + 1) * sizeof *o->cites);
    o->cites[o->n_cites++] = n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void money(gw_buf *b, const decision *d, double amount)
{
    units_format_money(b, amount, d->w->currency, -1);
}

/* Costs per unit of work are often fractions of a unit: keep three decimals there. */
static void money_per_unit(gw_buf *b, const decision *d, double amount)
{
    units_format_money(b, amount, d->w->currency, fabs(amount) < 1 ? 3 : -1);
}

/* d->gpus is in id order (kb_gpu_list sorts by id; SQLite's BINARY order is strcmp's), so a GPU
 * is found by halving: every cloud offer looks its GPU up, and a grown KB has thousands. */
static const kb_gpu *gpu_by_id(const decision *d, const char *id)
{
    size_t lo = 0, hi = d->n_gpus;
    while (id && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(d->gpus[mid].id, id);
        if (c == 0)
            return &d->gpus[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int is_consumer(const kb_gpu *g)
{
    return g->name && (!strncmp(g->name, "GeForce", 7) || strstr(g->name, "TITAN"));
}

static int is_sxm(const kb_gpu *g)
{
    return g->form_factor && strncmp(g->form_factor, "pcie", 4) != 0;
}

static int half_precision(const char *p)
{
    return str_eq(p, "amp") || str_eq(p, "fp16") || str_eq(p, "bf16");
}

static model_gpu_spec spec_of(const decision *d, const kb_gpu *g)
{
    model_gpu_spec s;
    if (half_precision(d->w->precision))
        s.tensor_tflops = str_eq(d->w->precision, "bf16") && g->bf16_tflops > 0
                              ? g->bf16_tflops
                              : g->fp16_tflops;
    else
        s.tensor_tflops = g->tf32_tflops > 0 ? g->tf32_tflops : g->fp32_tflops;
    s.bandwidth_gbs = g->memory_bandwidth_gbs;
    return s;
}

/* Converts amount from currency into the workload's, caching one factor per currency. */
static int convert(decision *d, double amount, const char *currency, double *out, gw_error *err)
{
    if (!currency || !strcmp(currency, d->w->currency)) {
        *out = amount;
        return GW_OK;
    }
    for (size_t i = 0; i < d->n_rates; i++)
        if (!strcmp(d->rates[i].currency, currency)) {
            *out = amount * d->rates[i].factor;
            return GW_OK;
        }
    double factor;
    int rc = kb_convert(d->k, 1.0, currency, d->w->currency, &factor, err);
    if (rc != GW_OK)
        return rc;
    if (d->n_rates < sizeof d->rates / sizeof d->rates[0]) {
        rate_entry *r = &d->rates[d->n_rates++];
        snprintf(r->currency, sizeof r->currency, "%s", currency);
        r->factor = factor;
        r->as_of[0] = '\0';
        r->cite = 0;
        kb_rate rate;
        /* Cite where the rate comes from (both sides of the conversion). */
        const char *sides[] = {currency, d->w->currency};
        for (int s = 0; s < 2; s++)
            if (kb_rate_get(d->k, sides[s], &rate, NULL) == GW_OK) {
                if (strcmp(sides[s], "USD"))
                    trace(d, "exchange rate: %g %s per USD as of %s", rate.per_usd,
                          sides[s], rate.as_of ? rate.as_of : "?");
                int n = cite(d, rate.source);
                if (n)
                    r->cite = n;
                if (rate.as_of && (!r->as_of[0] || strcmp(rate.as_of, r->as_of) < 0))
                    snprintf(r->as_of, sizeof r->as_of, "%s", rate.as_of);
                kb_rate_free(&rate);
            }
    }
    *out = amount * factor;
    return GW_OK;
}

/* ---- throughput ---- */

typedef struct speed {
    double value, lo, hi;
    int measured;
    gw_buf how;
} speed;

/* Measured rows of the benchmark for gpu at count; their median, range and sources. */
static size_t measured_rows(decision *d, decide_option *o, const char *gpu, int count,
                            double *median_out, double *lo, double *hi)
{
    double values[32];
    size_t n = 0;
    /* d->bench is in gpu order (kb_benchmarks_find sorts by gpu first): gpu's rows are one run,
     * found by halving (scaling asks this for every GPU of the KB, for each option). */
    size_t first = 0, end = d->n_bench;
    while (first < end) {
        size_t mid = first + (end - first) / 2;
        if (strcmp(d->bench[mid].gpu, gpu) < 0)
            first = mid + 1;
        else
            end = mid;
    }
    for (size_t i = first; i < d->n_bench && n < 32 && str_eq(d->bench[i].gpu, gpu); i++) {
        const kb_benchmark *b = &d->bench[i];
        if ((int)b->gpu_count != count || !(b->value > 0))
            continue;
        values[n++] = b->value;
        if (o)
            option_cite(d, o, b->source);
    }
    if (n) {
        *median_out = median(values, n);
        *lo = values[0];
        *hi = values[n - 1];
    }
    return n;
}

/* Single-card throughput of g: measured, or scaled from the nearest measured GPU. */
static double single_card(decision *d, decide_option *o, const kb_gpu *g, int *measured,
                          gw_buf *how)
{
    double value, lo, hi;
    size_t n = measured_rows(d, o, g->id, 1, &value, &lo, &hi);
    if (n) {
        *measured = 1;
        if (how) {
            if (n > 1 && hi > lo)
                buf_printf(how, "measured on one %s (%zu results, %.0f to %.0f; median %.0f)",
                           g->name, n, lo, hi, value);
            else
                buf_printf(how, "measured on one %s (%.0f)", g->name, value);
        }
        return value;
    }
    *measured = 0;
    model_gpu_spec target = spec_of(d, g);
    const kb_gpu *nearest = NULL;
    double best = INFINITY;
    if (!d->measured_one)   /* every scaled option asks this of every GPU: once each */
        d->measured_one = gw_xcalloc(d->n_gpus + 1, 1);
    for (size_t i = 0; i < d->n_gpus; i++) {
        const kb_gpu *r = &d->gpus[i];
        double v, l, h;
        if (!d->measured_one[i])
            d->measured_one[i] = measured_rows(d, NULL, r->id, 1, &v, &l, &h) ? 1 : 2;
        if (r == g || d->measured_one[i] != 1)
            continue;
        model_gpu_spec rs = spec_of(d, r);
        double dist = model_spec_distance(&rs, &target);
        if (dist < best) {
            best = dist;
            nearest = r;
        }
    }
    if (!nearest)
        return NAN;
    double ref_value;
    measured_rows(d, o, nearest->id, 1, &ref_value, &lo, &hi);
    model_gpu_spec rs = spec_of(d, nearest);
    value = model_scale_throughput(ref_value, &rs, &target);
    if (o) {
        option_cite(d, o, g->source);
        option_cite(d, o, nearest->source);
    }
    if (how && !isnan(value))
        buf_printf(how,
                   "scaled from %s (measured %.0f) by sqrt(tensor %.0f/%.0f TFLOPS x "
                   "bandwidth %.0f/%.0f GB/s)",
                   nearest->name, ref_value, target.tensor_tflops, rs.tensor_tflops,
                   target.bandwidth_gbs, rs.bandwidth_gbs);
    return value;
}

/* Throughput of o's configuration (benchmark units/s, or x reference without a benchmark). */
static void estimate_speed(decision *d, decide_option *o)
{
    const workload *w = d->w;
    const kb_gpu *g = o->gpu;
    gw_buf how = GW_BUF_INIT;
    o->nvlink = is_sxm(g) && g->nvlink_gbs > 0 && o->count > 1;
    o->link_gbs = model_link_gbs(o->count, o->nvlink, g->nvlink_gbs, g->pcie_gen);
    o->throughput = NAN;
    if (d->n_bench) {
        double value, lo, hi;
        size_t n = o->split ? 0 : measured_rows(d, o, g->id, o->count, &value, &lo, &hi);
        if (n) {
            o->measured = 1;
            o->throughput = value;
            o->throughput_lo = lo;
            o->throughput_hi = hi;
            if (n > 1 && hi > lo)
                buf_printf(&how, "measured on %dx %s (%zu results, %.0f to %.0f; median %.0f)",
                           o->count, g->name, n, lo, hi, value);
            else
                buf_printf(&how, "measured on %dx %s", o->count, g->name);
        } else {
            int single_measured = 0;
            double single = single_card(d, o, g, &single_measured, &how);
            if (!isnan(single)) {
                double batch = w->batch_per_gpu > 0 ? w->batch_per_gpu : MODEL_DEFAULT_BATCH;
                double eff;
                if (o->count == 1)
                    eff = 1;
                else if (o->split)
                    eff = o->nvlink ? MODEL_PARALLEL_EFFICIENCY_NVLINK
                                    : MODEL_PARALLEL_EFFICIENCY_PCIE;
                else
                    eff = model_scaling_efficiency(o->count, single, batch, d->gradient_bytes,
                                                   o->link_gbs);
                if (o->count > 1 && !o->split && !o->nvlink) {
                    d->cite_pcie = cited_source(d, "article-a100-vs-4x3090");
                    if (d->cite_pcie)
                        option_cite(d, o, "article-a100-vs-4x3090");
                }
                o->efficiency = eff;
                o->throughput = single * o->count * eff;
                o->throughput_lo = o->throughput_hi = o->throughput;
                if (o->count > 1) {
                    if (o->split)
                        buf_printf(&how, "; split over %d cards (model parallelism) at %.0f%% "
                                         "efficiency over %s",
                                   o->count, eff * 100, o->nvlink ? "NVLink" : "PCIe");
                    else
                        buf_printf(&how, "; x%d at %.1f%% data-parallel efficiency over %s "
                                         "(%.0f GB/s)",
                                   o->count, eff * 100, o->nvlink ? "NVLink" : "PCIe",
                                   o->link_gbs);
                }
            }
        }
        if (o->count > 1 && !isnan(o->throughput) && d->gradient_bytes > 0) {
            double batch = w->batch_per_gpu > 0 ? w->batch_per_gpu : MODEL_DEFAULT_BATCH;
            double per_card = o->throughput / o->count;
            o->comm_fraction = model_allreduce_seconds(o->count, d->gradient_bytes, o->link_gbs) /
                               (batch / per_card);
        }
    } else {
        /* No benchmark: speed relative to the reference GPU, from specifications alone. */
        model_gpu_spec rs = spec_of(d, d->reference), ts = spec_of(d, g);
        double ratio = str_eq(g->id, d->reference->id) ? 1 : model_scale_throughput(1, &rs, &ts);
        double eff = o->count == 1 ? 1
                     : o->split    ? (o->nvlink ? MODEL_PARALLEL_EFFICIENCY_NVLINK
                                                : MODEL_PARALLEL_EFFICIENCY_PCIE)
                                   : model_scaling_efficiency(o->count, NAN, 0, 0, o->link_gbs);
        o->efficiency = eff;
        o->throughput = ratio * o->count * eff;
        o->throughput_lo = o->throughput_hi = o->throughput;
        option_cite(d, o, g->source);
        option_cite(d, o, d->reference->source);
        buf_printf(&how, "scaled from %s by tensor throughput and memory bandwidth",
                   d->reference->name);
        if (o->count > 1)
            buf_printf(&how, "; x%d at %.0f%% efficiency", o->count, eff * 100);
    }
    if (!isnan(o->throughput) && str_eq(w->cooling, "poor") && o->consumer && o->count > 1 &&
        o->acquisition != DECIDE_RENT) {
        o->throughput *= MODEL_POOR_COOLING_FACTOR;
        o->throughput_lo *= MODEL_POOR_COOLING_FACTOR;
        o->throughput_hi *= MODEL_POOR_COOLING_FACTOR;
        buf_printf(&how, "; -20%% for heat throttling in a poorly cooled room");
        if (cited_source(d, "article-a100-vs-4x3090"))
            option_cite(d, o, "article-a100-vs-4x3090");
    }
    o->throughput_how = buf_detach(&how);
}

/* ---- options ---- */

static decide_option *option_new(decision *d, const kb_gpu *g, int count, decide_acquisition a)
{
    if (d->n_options == d->cap_options) {
        d->cap_options = d->cap_options ? d->cap_options * 2 : 32;
        d->options = gw_xrealloc(d->options, d->cap_options * sizeof *d->options);
    }
    decide_option *o = &d->options[d->n_options++];
    memset(o, 0, sizeof *o);
    o->gpu = g;
    o->count = count;
    o->acquisition = a;
    o->consumer = is_consumer(g);
    o->throughput = o->per_unit = o->score = NAN;
    return o;
}

static int has_option(const decision *d, const char *id)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (!strcmp(d->options[i].id, id))
            return 1;
    return 0;
}

/* The prices of one kind for gpu, as of the latest date they share, per card, converted. */
static int latest_prices(decision *d, const char *gpu, const char *kind, double *values,
                         size_t *n, const char **sources, gw_error *err)
{
    const char *latest = NULL;
    *n = 0;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (!str_eq(p->gpu, gpu) || !str_eq(p->kind, kind))
            continue;
        if (!latest || (p->as_of && strcmp(p->as_of, latest) > 0))
            latest = p->as_of ? p->as_of : "";
    }
    for (size_t i = 0; i < d->n_prices && *n < 16; i++) {
        const kb_price *p = &d->prices[i];
        if (!str_eq(p->gpu, gpu) || !str_eq(p->kind, kind) || !same_text(p->as_of, latest))
            continue;
        double per_card;
        int rc = convert(d, p->amount / (p->gpu_count > 0 ? p->gpu_count : 1), p->currency,
                         &per_card, err);
        if (rc != GW_OK)
            return rc;
        sources[*n] = p->source;
        values[(*n)++] = per_card;
    }
    return GW_OK;
}

static int add_buy_options(decision *d, const kb_gpu *g, int count, gw_error *err)
{
    static const int default_counts[] = {1, 2, 4, 8};
    const workload *w = d->w;
    int max = is_consumer(g) ? DECIDE_CONSUMER_PER_HOST : DECIDE_SERVER_PER_HOST;
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 1 && !w->used_ok)
            continue;
        double values[16];
        const char *sources[16];
        size_t n;
        int rc = latest_prices(d, g->id, kind ? "used" : "new", values, &n, sources, err);
        if (rc != GW_OK)
            return rc;
        if (!n)
            continue;
        double price = median(values, n);
        for (size_t c = 0; c < 4; c++) {
            int cnt = count ? count : default_counts[c];
            if (!count && (cnt > max || (str_eq(w->parallelism, "none") && cnt > 1)))
                continue;
            char id[160];
            snprintf(id, sizeof id, "%s:%dx %s", kind ? "buy-used" : "buy-new", cnt, g->id);
            if (!has_option(d, id)) {
                decide_option *o = option_new(d, g, cnt, kind ? DECIDE_BUY_USED : DECIDE_BUY_NEW);
                o->id = gw_xstrdup(id);
                o->unit_price = price;
                o->price_lo = values[0];
                o->price_hi = values[n - 1];
                for (size_t s = 0; s < n; s++)
                    option_cite(d, o, sources[s]);
                option_cite(d, o, g->source);
            }
            if (count)
                break;
        }
    }
    return GW_OK;
}

/* Of the cloud offers for one GPU and card count, only the cheapest offer of each of this many
 * providers (cheapest first) become options: a catalogue of thousands of offers otherwise
 * floods the rules and the report with near-identical rentals. */
#define RENT_OFFERS_PER_CONFIG 3

/* Rows of the same GPU, count, source, provider and instance are one offer; the ordering puts
 * an offer's rows together, latest date first, then in KB order. */
static int cmp_rent_row(const void *a, const void *b)
{
    const kb_price *p = *(const kb_price *const *)a, *q = *(const kb_price *const *)b;
    int c = strcmp(p->gpu, q->gpu);
    if (!c)
        c = ((int)p->gpu_count > (int)q->gpu_count) - ((int)p->gpu_count < (int)q->gpu_count);
    if (!c)
        c = strcmp(p->source ? p->source : "", q->source ? q->source : "");
    if (!c)
        c = strcmp(p->provider ? p->provider : "", q->provider ? q->provider : "");
    if (!c)
        c = strcmp(p->instance ? p->instance : "", q->instance ? q->instance : "");
    if (!c)
        c = strcmp(q->as_of ? q->as_of : "", p->as_of ? p->as_of : "");
    if (!c)
        c = (p > q) - (p < q);
    return c;
}

static int same_offer(const kb_price *p, const kb_price *q)
{
    return !strcmp(p->gpu, q->gpu) && (int)p->gpu_count == (int)q->gpu_count &&
           same_text(p->source, q->source) && same_text(p->provider, q->provider) &&
           same_text(p->instance, q->instance);
}

typedef struct {
    const kb_price *first;   /* the offer's first row in KB order: options keep that order */
    const kb_gpu *g;
    int count;
    const char *seller;      /* provider, else source: the name in the option's id */
    double price, lo, hi;    /* per instance-hour, in the workload's currency */
    int keep;
} rent_offer;

/* Cheapest first within each GPU and count; ties go to the earlier offer. */
static int cmp_rent_offer(const void *a, const void *b)
{
    const rent_offer *x = a, *y = b;
    int c = strcmp(x->g->id, y->g->id);
    if (!c)
        c = (x->count > y->count) - (x->count < y->count);
    if (!c)
        c = (x->price > y->price) - (x->price < y->price);
    if (!c)
        c = (x->first > y->first) - (x->first < y->first);
    return c;
}

static int cmp_rent_offer_kb_order(const void *a, const void *b)
{
    const rent_offer *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static void rent_offer_id(const rent_offer *f, char *id, size_t size)
{
    const char *instance = f->first->instance && *f->first->instance ? f->first->instance : "-";
    snprintf(id, size, "rent:%s:%s:%dx %s", f->seller, instance, f->count, f->g->id);
}

/* Marks the offers that become options (see RENT_OFFERS_PER_CONFIG); returns how many of a
 * configuration not seen by an earlier call were set aside. */
static size_t rent_offers_choose(const decision *d, rent_offer *offers, size_t n)
{
    qsort(offers, n, sizeof *offers, cmp_rent_offer);
    size_t set_aside = 0;
    for (size_t start = 0, end; start < n; start = end) {
        const char *kept[RENT_OFFERS_PER_CONFIG];
        size_t n_kept = 0, aside = 0;
        for (end = start; end < n && offers[end].g == offers[start].g &&
                          offers[end].count == offers[start].count;
             end++) {
            rent_offer *f = &offers[end];
            int seen = 0;
            for (size_t k = 0; k < n_kept; k++)
                seen |= !strcmp(kept[k], f->seller);
            if (!seen && n_kept < RENT_OFFERS_PER_CONFIG) {
                kept[n_kept++] = f->seller;
                f->keep = 1;
            } else {
                aside++;
            }
        }
        char id[256];
        rent_offer_id(&offers[start], id, sizeof id);
        if (!has_option(d, id))
            set_aside += aside;
    }
    return set_aside;
}

/* One option per kept offer; of an offer's observations the latest date's median is used. */
static int add_rent_options(decision *d, const char *gpu_filter, gw_error *err)
{
    const kb_price **rows = gw_xmalloc((d->n_prices ? d->n_prices : 1) * sizeof *rows);
    rent_offer *offers = gw_xmalloc((d->n_prices ? d->n_prices : 1) * sizeof *offers);
    size_t n_rows = 0, n_offers = 0;
    int rc = GW_OK;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (str_eq(p->kind, "cloud") && str_eq(p->unit, "hour") &&
            (!gpu_filter || str_eq(p->gpu, gpu_filter)) && gpu_by_id(d, p->gpu))
            rows[n_rows++] = p;
    }
    qsort(rows, n_rows, sizeof *rows, cmp_rent_row);
    for (size_t start = 0, end; start < n_rows && rc == GW_OK; start = end) {
        const kb_price *p = rows[start], *first = p;
        for (end = start + 1; end < n_rows && same_offer(rows[end], p); end++)
            if (rows[end] < first)
                first = rows[end];
        double values[16];
        size_t n = 0;
        for (size_t j = start;
             j < end && n < 16 && rc == GW_OK && same_text(rows[j]->as_of, p->as_of); j++)
            rc = convert(d, rows[j]->amount, rows[j]->currency, &values[n++], err);
        if (rc != GW_OK)
            break;
        rent_offer *f = &offers[n_offers++];
        f->first = first;
        f->g = gpu_by_id(d, p->gpu);
        f->count = p->gpu_count > 0 ? (int)p->gpu_count : 1;
        f->seller = p->provider && *p->provider ? p->provider
                    : p->source                 ? p->source
                                                : "unnamed";
        f->price = median(values, n);
        f->lo = values[0];
        f->hi = values[n - 1];
        f->keep = 0;
    }
    if (rc == GW_OK) {
        size_t aside = rent_offers_choose(d, offers, n_offers);
        d->rent_set_aside += aside;
        if (aside)
            trace(d, "%zu cloud offers set aside: more than %d providers, or a provider's "
                     "dearer offer, for one GPU and count", aside, RENT_OFFERS_PER_CONFIG);
        qsort(offers, n_offers, sizeof *offers, cmp_rent_offer_kb_order);
    }
    for (size_t i = 0; i < n_offers && rc == GW_OK; i++) {
        const rent_offer *f = &offers[i];
        if (!f->keep)
            continue;
        char id[256];
        rent_offer_id(f, id, sizeof id);
        if (has_option(d, id))
            continue;
        const char *provider = f->first->provider && *f->first->provider ? f->first->provider
                                                                         : NULL;
        const char *instance = f->first->instance && *f->first->instance ? f->first->instance
                                                                         : NULL;
        decide_option *o = option_new(d, f->g, f->count, DECIDE_RENT);
        o->id = gw_xstrdup(id);
        o->provider = gw_xstrdup(provider ? provider : "unnamed platform");
        o->instance = instance ? gw_xstrdup(instance) : NULL;
        o->unit_price = f->price;
        o->price_lo = f->lo;
        o->price_hi = f->hi;
        option_cite(d, o, f->first->source);
        option_cite(d, o, f->g->source);
    }
    free(rows);
    free(offers);
    return rc;
}

/* "1x rtx-3090" names its count; "rtx-3090" leaves it to the engine. */
static int written_count(const char *name)
{
    while (isspace((unsigned char)*name))
        name++;
    if (!isdigit((unsigned char)*name))
        return 0;
    while (isdigit((unsigned char)*name))
        name++;
    while (isspace((unsigned char)*name))
        name++;
    return *name == 'x' || *name == 'X' || !strncmp(name, "\xc3\x97", 2);
}

static int enumerate(decision *d, gw_error *err)
{
    const workload *w = d->w;
    int rc = GW_OK;
    if (!w->candidates) {
        for (size_t i = 0; i < d->n_gpus && rc == GW_OK; i++)
            rc = add_buy_options(d, &d->gpus[i], 0, err);
        if (rc == GW_OK)
            rc = add_rent_options(d, NULL, err);
        return rc;
    }
    for (size_t i = 0; i < w->n_candidates && rc == GW_OK; i++) {
        const char *c = w->candidates[i];
        int rent = !strncmp(c, "rent:", 5);
        const char *name = rent ? c + 5 : c;
        if (rent && (!strcmp(name, "*") || !*name)) {
            rc = add_rent_options(d, NULL, err);
            continue;
        }
        char *id = NULL;
        int count = 1;
        rc = kb_gpu_resolve(d->k, name, &id, &count, err);
        if (rc != GW_OK) {
            gw_error_prefix(err, "%s: candidates[%zu]", w->path, i + 1);
            return rc;
        }
        const kb_gpu *g = gpu_by_id(d, id);
        int explicit_count = count > 1 || written_count(name) ? count : 0;
        if (g) {
            rc = rent ? add_rent_options(d, g->id, err)
                      : add_buy_options(d, g, explicit_count, err);
            trace(d, "candidate \"%s\" -> %s%s", c, g->id,
                  rent ? " (its cloud offers)" : explicit_count ? "" : " (1, 2, 4, 8 cards)");
        }
        free(id);
    }
    return rc;
}

/* ---- fit, speed and cost of every option ---- */

static void size_option(decision *d, decide_option *o)
{
    const workload *w = d->w;
    o->vram_needed_gb = d->memory.total_gb;
    o->per_card_gb = o->vram_needed_gb;
    o->split = 0;
    if (str_eq(w->parallelism, "model") && o->count > 1 &&
        d->memory.total_gb > o->gpu->memory_gb) {
        o->split = 1;
        o->per_card_gb = model_memory_per_card_split(&d->memory, o->count);
    }
    o->fits = o->gpu->memory_gb > 0 ? o->per_card_gb <= o->gpu->memory_gb : 1;
}

static void cost_option(decision *d, decide_option *o)
{
    const workload *w = d->w;
    if (o->acquisition == DECIDE_RENT) {
        o->power_w = (o->gpu->tdp_w > 0 ? o->gpu->tdp_w : 0) * o->count;
        cost_rent(o->unit_price, w->hours_per_day, w->horizon_months, &o->cost);
        o->electricity_share = 0;
    } else {
        double per_host = w->cards_per_host > 0 ? w->cards_per_host
                          : o->consumer         ? DECIDE_CONSUMER_PER_HOST
                                                : DECIDE_SERVER_PER_HOST;
        int hosts = (int)ceil(o->count / per_host);
        o->power_w = (o->gpu->tdp_w > 0 ? o->gpu->tdp_w : 0) * o->count + w->host_power_w * hosts;
        cost_buy_input *in = &o->buy;
        memset(in, 0, sizeof *in);
        in->cards = o->unit_price * o->count;
        in->host = w->host_cost * hosts;
        in->cooling = w->cooling_cost * hosts;
        in->power_w = o->power_w;
        in->hours_per_day = w->hours_per_day;
        in->months = w->horizon_months;
        in->price_kwh = w->electricity_price;
        in->pue = w->pue;
        in->upkeep_hours_per_month = w->upkeep_hours_per_month;
        in->upkeep_rate = w->upkeep_rate;
        in->resale = in->cards * w->resale_fraction;
        cost_buy(in, &o->cost);
        o->electricity_share = o->cost.total > 0
                                   ? o->cost.electricity_per_month * w->horizon_months /
                                         (o->cost.total + in->resale)
                                   : 0;
    }
    o->per_unit = cost_per_unit(o->cost.per_hour, o->throughput, d->unit_size);
    if (!isnan(o->throughput)) {
        if (!isnan(w->work_samples))
            o->time_to_finish_hours = w->work_samples / o->throughput / 3600;
        else if (!isnan(w->work_hours))
            o->time_to_finish_hours = w->work_hours * d->reference_speed / o->throughput;
        else
            o->time_to_finish_hours = NAN;
    } else {
        o->time_to_finish_hours = NAN;
    }
}

static const char *acquisition_name(decide_acquisition a)
{
    return a == DECIDE_BUY_NEW ? "buy-new" : a == DECIDE_BUY_USED ? "buy-used" : "rent";
}

/* "used 4x GeForce RTX 3090", "rent 1x NVIDIA A100 SXM4 40GB (Lambda, gpu_1x_a100_sxm4)";
 * short labels (charts) leave the instance out. */
static void option_label_ex(gw_buf *b, const decide_option *o, int shortened)
{
    if (o->acquisition == DECIDE_RENT) {
        buf_printf(b, "rent %dx %s (%s", o->count, o->gpu->name, o->provider);
        if (o->instance && !shortened)
            buf_printf(b, ", %s", o->instance);
        buf_puts(b, ")");
    } else {
        buf_printf(b, "%s %dx %s", o->acquisition == DECIDE_BUY_USED ? "used" : "new", o->count,
                   o->gpu->name);
    }
}

static void option_label(gw_buf *b, const decide_option *o)
{
    option_label_ex(b, o, 0);
}

/* ---- the view of one option: what rules see and what --json prints ---- */

/* key + "_text" into out (keys are short literals; a longer one is cut to fit the suffix). */
static void text_key_of(char out[64], const char *key)
{
    size_t n = strlen(key);
    if (n > 58)
        n = 58;
    memcpy(out, key, n);
    memcpy(out + n, "_text", 6);
}

static void set_money(view *m, const decision *d, const char *key, double amount)
{
    view_map_set_num(m, key, amount);
    char text_key[64];
    text_key_of(text_key, key);
    if (isnan(amount) || isinf(amount)) {
        view_map_set(m, text_key, view_null());
        return;
    }
    gw_buf b = GW_BUF_INIT;
    money(&b, d, amount);
    view_map_set_str(m, text_key, buf_cstr(&b));
    buf_free(&b);
}

static void set_figure(view *m, const char *key, double n, int decimals, const char *suffix)
{
    view_map_set_num(m, key, n);
    char text_key[64];
    text_key_of(text_key, key);
    if (isnan(n) || isinf(n)) {
        view_map_set(m, text_key, view_null());
        return;
    }
    gw_buf b = GW_BUF_INIT;
    view_format_number(&b, n, decimals);
    if (suffix)
        buf_puts(&b, suffix);
    view_map_set_str(m, text_key, buf_cstr(&b));
    buf_free(&b);
}

static view *option_view(const decision *d, const decide_option *o)
{
    view *v = view_map();
    view_map_set_str(v, "id", o->id);
    gw_buf label = GW_BUF_INIT;
    option_label(&label, o);
    view_map_set_str(v, "label", buf_cstr(&label));
    buf_free(&label);
    view_map_set_str(v, "gpu", o->gpu->id);
    view_map_set_str(v, "gpu_name", o->gpu->name);
    view_map_set_int(v, "count", o->count);
    view_map_set_str(v, "acquisition", acquisition_name(o->acquisition));
    view_map_set_str(v, "provider", o->provider);
    view_map_set_str(v, "instance", o->instance);
    view_map_set_bool(v, "feasible", o->feasible);
    view_map_set_str(v, "excluded_because", o->excluded_because);
    view_map_set_bool(v, "consumer", o->consumer);
    view_map_set_str(v, "form_factor", o->gpu->form_factor);
    set_figure(v, "memory_gb", o->gpu->memory_gb, 0, " GB");
    set_figure(v, "vram_needed_gb", o->vram_needed_gb, 1, " GB");
    set_figure(v, "per_card_gb", o->per_card_gb, 1, " GB");
    view_map_set_bool(v, "fits", o->fits);
    view_map_set_bool(v, "split", o->split);
    view_map_set_str(v, "interconnect", o->count < 2 ? NULL : o->nvlink ? "nvlink" : "pcie");
    view_map_set_bool(v, "nvlink", o->nvlink);
    view_map_set_num(v, "link_gbs", o->count < 2 ? NAN : o->link_gbs);
    view_map_set_num(v, "comm_fraction", o->comm_fraction);
    view *t = view_map_set(v, "throughput", view_map());
    set_figure(t, "value", o->throughput, d->n_bench ? 0 : 2, NULL);
    view_map_set_str(t, "unit", d->unit);
    view_map_set_str(t, "basis", isnan(o->throughput) ? NULL
                                 : o->measured        ? "measured"
                                                      : "scaled");
    view_map_set_num(t, "low", o->throughput_lo);
    view_map_set_num(t, "high", o->throughput_hi);
    view_map_set_str(t, "how", o->throughput_how);
    set_figure(v, "time_to_finish_hours", o->time_to_finish_hours, 1, " h");
    set_figure(v, "power_w", o->power_w, 0, " W");
    view *c = view_map_set(v, "cost", view_map());
    set_money(c, d, "upfront", o->cost.upfront);
    set_money(c, d, "electricity_per_month", o->cost.electricity_per_month);
    set_money(c, d, "total", o->cost.total);
    if (o->acquisition == DECIDE_RENT) {
        /* Renting pays nothing up front and its power is in the price: say so, not "0.00". */
        view_map_set_str(c, "upfront_text", "none");
        view_map_set_str(c, "electricity_per_month_text", "in the price");
    }
    set_money(c, d, "per_hour", o->cost.per_hour);
    view_map_set_num(c, "per_unit", o->per_unit);
    if (isnan(o->per_unit)) {
        view_map_set(c, "per_unit_text", view_null());
    } else {
        gw_buf text = GW_BUF_INIT;
        money_per_unit(&text, d, o->per_unit);
        view_map_set_str(c, "per_unit_text", buf_cstr(&text));
        buf_free(&text);
    }
    view_map_set_str(c, "currency", d->w->currency);
    view_map_set_str(c, "per_unit_of", d->work_unit);
    set_money(c, d, "unit_price", o->unit_price);
    set_money(c, d, "price_low", o->price_lo);
    set_money(c, d, "price_high", o->price_hi);
    if (o->acquisition != DECIDE_RENT) {
        set_money(c, d, "cards", o->buy.cards);
        set_money(c, d, "host", o->buy.host);
        set_money(c, d, "resale", o->buy.resale);
    }
    view_map_set_num(c, "electricity_share", o->electricity_share);
    view *cites = view_map_set(v, "cites", view_list());
    for (size_t i = 0; i < o->n_cites; i++)
        view_list_push(cites, view_number(o->cites[i]));
    view_map_set_bool(v, "has_verdicts", o->n_verdicts > 0);
    view *vs = view_map_set(v, "verdicts", view_list());
    for (size_t i = 0; i < o->n_verdicts; i++) {
        const decide_verdict *x = &o->verdicts[i];
        view *m = view_list_push(vs, view_map());
        view_map_set_str(m, "rule", x->rule);
        view_map_set_str(m, "effect", x->effect);
        view_map_set_num(m, "weight", x->weight);
        view_map_set_str(m, "because", x->because);
        view_map_set_str(m, "checklist", x->checklist);
    }
    view_map_set_num(v, "score", o->score);
    if (o->rank)
        view_map_set_int(v, "rank", o->rank);
    else
        view_map_set(v, "rank", view_null());
    return v;
}

/* ---- rules ---- */

/* What a rule sees of an option (documented in plugins/README.md's rule section): the facts a
 * verdict can rest on, without the report's citations and explanations, so that calling every
 * rule on every option stays cheap. */
static view *rule_option_view(const decision *d, const decide_option *o)
{
    view *v = view_map();
    view_map_set_str(v, "id", o->id);
    view_map_set_str(v, "gpu", o->gpu->id);
    view_map_set_str(v, "gpu_name", o->gpu->name);
    view_map_set_int(v, "count", o->count);
    view_map_set_str(v, "acquisition", acquisition_name(o->acquisition));
    view_map_set_str(v, "provider", o->provider);
    view_map_set_bool(v, "consumer", o->consumer);
    view_map_set_str(v, "form_factor", o->gpu->form_factor);
    view_map_set_num(v, "memory_gb", o->gpu->memory_gb);
    view_map_set_num(v, "vram_needed_gb", o->vram_needed_gb);
    view_map_set_num(v, "per_card_gb", o->per_card_gb);
    view_map_set_bool(v, "fits", o->fits);
    view_map_set_bool(v, "split", o->split);
    view_map_set_bool(v, "nvlink", o->nvlink);
    view_map_set_num(v, "link_gbs", o->count < 2 ? NAN : o->link_gbs);
    view_map_set_num(v, "comm_fraction", o->comm_fraction);
    view_map_set_num(v, "power_w", o->power_w);
    view *t = view_map_set(v, "throughput", view_map());
    view_map_set_num(t, "value", o->throughput);
    view_map_set_str(t, "basis", isnan(o->throughput) ? NULL
                                 : o->measured        ? "measured"
                                                      : "scaled");
    view *c = view_map_set(v, "cost", view_map());
    set_money(c, d, "upfront", o->cost.upfront);
    set_money(c, d, "total", o->cost.total);
    view_map_set_num(c, "per_hour", o->cost.per_hour);
    view_map_set_num(c, "per_unit", o->per_unit);
    view_map_set_num(c, "electricity_per_month", o->cost.electricity_per_month);
    view_map_set_num(c, "electricity_share", o->electricity_share);
    return v;
}

static int read_verdicts(decision *d, decide_option *o, const plugin_info *info, view *result,
                         gw_error *err)
{
    if (view_is_null(result))
        return GW_OK;
    if (view_kind(result) == VIEW_MAP && view_len(result) == 0)
        return GW_OK;
    if (view_kind(result) != VIEW_LIST)
        return gw_error_set(err, GW_ESOFTWARE,
                            "%s: evaluate must return a list of verdicts (or nil)", info->path);
    for (size_t i = 0; i < view_len(result); i++) {
        const view *x = view_list_at(result, i);
        const char *effect = view_str(view_map_get(x, "effect"));
        const char *because = view_str(view_map_get(x, "because"));
        const view *weight = view_map_get(x, "weight");
        const view *checklist = view_map_get(x, "checklist");
        if (view_kind(x) != VIEW_MAP || !effect ||
            (strcmp(effect, "exclude") && strcmp(effect, "prefer") && strcmp(effect, "warn")))
            return gw_error_set(err, GW_ESOFTWARE,
                                "%s: verdict %zu: effect must be \"exclude\", \"prefer\" or "
                                "\"warn\"",
                                info->path, i + 1);
        if (!because || !*because)
            return gw_error_set(err, GW_ESOFTWARE,
                                "%s: verdict %zu: because must be a sentence saying why",
                                info->path, i + 1);
        if (!view_is_null(weight) &&
            (view_kind(weight) != VIEW_NUMBER || !(view_num(weight) >= 0) ||
             view_num(weight) > 1))
            return gw_error_set(err, GW_ESOFTWARE, "%s: verdict %zu: weight must be 0 to 1",
                                info->path, i + 1);
        if (!view_is_null(checklist) && !view_str(checklist))
            return gw_error_set(err, GW_ESOFTWARE, "%s: verdict %zu: checklist must be a name",
                                info->path, i + 1);
        o->verdicts = gw_xrealloc(o->verdicts, (o->n_verdicts + 1) * sizeof *o->verdicts);
        decide_verdict *v = &o->verdicts[o->n_verdicts++];
        v->rule = gw_xstrdup(info->name);
        v->effect = gw_xstrdup(effect);
        v->because = gw_xstrdup(because);
        v->checklist = view_str(checklist) ? gw_xstrdup(view_str(checklist)) : NULL;
        v->weight = view_is_null(weight) ? 0.1 : view_num(weight);
        trace(d, "rule %s: %s %s (%.2f): %s", info->name, effect, o->id, v->weight, because);
    }
    return GW_OK;
}

/* Facts a rule may want that depend on the whole decision, not one option. */
static view *rule_context(const decision *d)
{
    view *ctx = view_map();
    /* A budget is tight when it does not buy the cheapest data-centre card's option. */
    double cheapest_server = INFINITY;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->acquisition != DECIDE_RENT && !o->consumer && o->count == 1 &&
            o->cost.upfront < cheapest_server)
            cheapest_server = o->cost.upfront;
    }
    int tight = !isnan(d->w->budget) &&
                (isinf(cheapest_server) || d->w->budget < cheapest_server);
    view_map_set_bool(ctx, "tight_budget", tight);
    view_map_set_num(ctx, "cheapest_datacenter_upfront", cheapest_server);
    view_map_set_num(ctx, "model_gb", d->memory.total_gb);
    if (!isnan(d->w->budget))
        set_money(ctx, d, "budget", d->w->budget);
    /* Power is expensive when electricity is over 30% of what a typical purchase costs. */
    double shares[256];
    size_t n = 0;
    for (size_t i = 0; i < d->n_options && n < 256; i++)
        if (d->options[i].acquisition != DECIDE_RENT)
            shares[n++] = d->options[i].electricity_share;
    double typical = median(shares, n);
    view_map_set_num(ctx, "electricity_share", typical);
    view_map_set_bool(ctx, "expensive_power", !isnan(typical) && typical > 0.30);
    return ctx;
}

static int run_rules(decision *d, plugin_host *host, gw_error *err)
{
    if (!host)
        return GW_OK;
    view *wv = workload_to_view(d->w);
    view_map_set(wv, "context", rule_context(d));
    int rc = GW_OK;
    size_t fired = 0, n_rules = 0;
    plugin **rules = gw_xcalloc(plugin_count(host) + 1, sizeof *rules);
    for (size_t p = 0; p < plugin_count(host); p++) {
        plugin_info info;
        plugin_get_info(plugin_at(host, p), &info);
        if (str_eq(info.kind, "rule"))
            rules[n_rules++] = plugin_at(host, p);
    }
    /* Each option's view is built once and shown to every rule; the workload is converted
     * once per rule; each rule sees every option within one call into its plugin.  Verdicts
     * are read option by option, in rule order. */
    plugin_arg *shared = plugin_arg_new(wv);
    size_t n = d->n_options;
    view **ovs = gw_xcalloc(n + 1, sizeof *ovs);
    view **results = gw_xcalloc(n_rules * n + 1, sizeof *results);
    for (size_t i = 0; i < n; i++)
        ovs[i] = rule_option_view(d, &d->options[i]);
    for (size_t r = 0; r < n_rules && rc == GW_OK && n; r++)
        rc = plugin_call_each(rules[r], "evaluate", ovs, n, shared, &results[r * n], err);
    for (size_t i = 0; i < n && rc == GW_OK; i++) {
        decide_option *o = &d->options[i];
        for (size_t r = 0; r < n_rules && rc == GW_OK; r++) {
            plugin_info info;
            plugin_get_info(rules[r], &info);
            size_t before = o->n_verdicts;
            rc = read_verdicts(d, o, &info, results[r * n + i], err);
            fired += o->n_verdicts - before;
        }
    }
    for (size_t i = 0; i < n_rules * n; i++)
        view_free(results[i]);
    for (size_t i = 0; i < n; i++)
        view_free(ovs[i]);
    free(results);
    free(ovs);
    plugin_arg_free(shared);
    free(rules);
    view_free(wv);
    if (rc == GW_OK)
        trace(d, "%zu rules gave %zu verdicts over %zu options", n_rules, fired, d->n_options);
    return rc;
}

/* ---- ranking ---- */

static double adjustment(const decide_option *o)
{
    double a = 1;
    for (size_t i = 0; i < o->n_verdicts; i++) {
        if (!strcmp(o->verdicts[i].effect, "prefer"))
            a -= o->verdicts[i].weight;
        else if (!strcmp(o->verdicts[i].effect, "warn"))
            a += o->verdicts[i].weight;
    }
    return a < 0.2 ? 0.2 : a > 5 ? 5 : a;
}

static void judge(decision *d, decide_option *o)
{
    gw_buf b = GW_BUF_INIT;
    o->feasible = 1;
    for (size_t i = 0; i < o->n_verdicts; i++)
        if (!strcmp(o->verdicts[i].effect, "exclude")) {
            o->feasible = 0;
            o->excluded_because = gw_xstrdup(o->verdicts[i].because);
            return;
        }
    if (!o->fits) {
        /* The fit is a fact; the memory rule normally says so first, in its own words. */
        o->feasible = 0;
        buf_printf(&b, "needs %.1f GB per %s; %s has %.0f GB", o->per_card_gb,
                   o->split ? "card" : "replica", o->gpu->name, o->gpu->memory_gb);
    } else if (isnan(o->throughput)) {
        o->feasible = 0;
        buf_printf(&b, "no measured or comparable %s result for %s",
                   d->w->benchmark ? d->w->benchmark : "speed", o->gpu->name);
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
    double x = a->feasible ? a->score : a->per_unit, y = b->feasible ? b->score : b->per_unit;
    if (isnan(x) != isnan(y))
        return isnan(x) - isnan(y);
    if (x != y && !isnan(x))
        return x < y ? -1 : 1;
    return strcmp(a->id, b->id);
}

static void rank_options(decision *d)
{
    free(d->ranked);
    d->ranked = gw_xcalloc(d->n_options ? d->n_options : 1, sizeof *d->ranked);
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        o->score = o->per_unit * adjustment(o);
        d->ranked[i] = o;
    }
    qsort(d->ranked, d->n_options, sizeof *d->ranked, cmp_rank);
    int r = 0;
    for (size_t i = 0; i < d->n_options; i++)
        d->ranked[i]->rank = d->ranked[i]->feasible ? ++r : 0;
}

/* ---- what-if: scores under scaled inputs, for the sensitivity analysis ---- */

enum { SENS_ELECTRICITY, SENS_HOURS, SENS_PURCHASE, SENS_RENT, SENS_COUNT };
static const char *const sens_names[] = {"electricity price", "hours per day",
                                         "purchase price", "rental price"};
static const char *const sens_keys[] = {"electricity_price", "hours_per_day", "purchase_price",
                                        "rental_price"};

static double score_with(const decision *d, const decide_option *o, int param, double factor)
{
    double per_hour;
    if (o->acquisition == DECIDE_RENT) {
        per_hour = o->unit_price * (param == SENS_RENT ? factor : 1);
    } else {
        cost_buy_input in = o->buy;
        if (param == SENS_ELECTRICITY)
            in.price_kwh *= factor;
        else if (param == SENS_HOURS)
            in.hours_per_day = fmin(24, in.hours_per_day * factor);
        else if (param == SENS_PURCHASE)
            in.cards *= factor, in.resale *= factor;
        cost_summary s;
        cost_buy(&in, &s);
        per_hour = s.per_hour;
    }
    return cost_per_unit(per_hour, o->throughput, d->unit_size) * adjustment(o);
}

/* The best feasible option under a scaled input. */
static const decide_option *winner_with(const decision *d, int param, double factor,
                                        double *score)
{
    const decide_option *best = NULL;
    double best_score = INFINITY;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (!o->feasible)
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

/* > 0 once another option beats the base winner. */
static double flip_fn(double factor, void *p)
{
    const flip_ctx *c = p;
    double best;
    const decide_option *w = winner_with(c->d, c->param, factor, &best);
    if (!w)
        return NAN;
    return w == c->base ? -1 : score_with(c->d, c->base, c->param, factor) - best;
}

static double base_value(const decision *d, const decide_option *win, int param)
{
    const workload *w = d->w;
    switch (param) {
    case SENS_ELECTRICITY:
        return w->electricity_price;
    case SENS_HOURS:
        return w->hours_per_day;
    default:
        return win ? win->unit_price : NAN;
    }
}

static void sensitivity(decision *d)
{
    const decide_option *win = decision_best(d);
    d->sensitivity = view_map();
    view *params = view_map_set(d->sensitivity, "parameters", view_list());
    if (!win)
        return;
    double best_swing = -1;
    const char *most = NULL;
    for (int p = 0; p < SENS_COUNT; p++) {
        view *m = view_list_push(params, view_map());
        view_map_set_str(m, "parameter", sens_keys[p]);
        view_map_set_str(m, "name", sens_names[p]);
        double lo_score, hi_score;
        const decide_option *lo = winner_with(d, p, 0.8, &lo_score);
        const decide_option *hi = winner_with(d, p, 1.2, &hi_score);
        double win_lo = score_with(d, win, p, 0.8), win_hi = score_with(d, win, p, 1.2);
        /* How far the recommended option's own cost per unit moves over -20% .. +20%. */
        double swing = fabs(win_hi - win_lo) / win->score;
        view_map_set_num(m, "swing", swing);
        gw_buf t = GW_BUF_INIT;
        buf_printf(&t, "%.1f%%", swing * 100);
        view_map_set_str(m, "swing_text", buf_cstr(&t));
        buf_reset(&t);
        view_map_set_str(m, "winner_minus_20", lo ? lo->id : NULL);
        view_map_set_str(m, "winner_plus_20", hi ? hi->id : NULL);
        view_map_set_bool(m, "changes_within_20", lo != win || hi != win);
        /* Where the answer flips: scan outward on a log grid, then bisect. */
        flip_ctx fc = {d, win, p};
        double flip = NAN;
        double max_up = p == SENS_HOURS ? 24 / d->w->hours_per_day : 10;
        double steps[2][2] = {{1, max_up}, {1, 0.05}};
        for (int dir = 0; dir < 2 && isnan(flip); dir++) {
            double prev = steps[dir][0];
            for (int k = 1; k <= 24; k++) {
                double f = exp(log(steps[dir][0]) +
                               (log(steps[dir][1]) - log(steps[dir][0])) * k / 24.0);
                if (flip_fn(f, &fc) > 0) {
                    double root;
                    if (cost_bisect(flip_fn, &fc, fmin(prev, f), fmax(prev, f), 1e-6, &root))
                        flip = root;
                    else
                        flip = f;
                    break;
                }
                prev = f;
            }
        }
        double base = base_value(d, win, p);
        if (p == SENS_RENT && win->acquisition != DECIDE_RENT)
            base = NAN;   /* the rental price of several offers: given as a factor only */
        if (p == SENS_PURCHASE && win->acquisition == DECIDE_RENT)
            base = NAN;
        view_map_set_num(m, "flip_factor", flip);
        if (!isnan(flip)) {
            const decide_option *nw = winner_with(d, p, flip * (flip > 1 ? 1.001 : 0.999), NULL);
            view_map_set_str(m, "flips_to", nw ? nw->id : NULL);
            view_map_set_num(m, "flip_value", base * flip);
            buf_printf(&t, "%+.0f%%", (flip - 1) * 100);
            if (!isnan(base)) {
                buf_puts(&t, " (");
                if (p == SENS_HOURS)
                    buf_printf(&t, "%.1f h/day", base * flip);
                else
                    money(&t, d, base * flip);
                buf_puts(&t, ")");
            }
            if (nw) {
                gw_buf lbl = GW_BUF_INIT;
                option_label(&lbl, nw);
                buf_printf(&t, ": %s wins", buf_cstr(&lbl));
                buf_free(&lbl);
            }
            view_map_set_str(m, "flip_text", buf_cstr(&t));
        } else {
            view_map_set(m, "flips_to", view_null());
            view_map_set(m, "flip_value", view_null());
            view_map_set_str(m, "flip_text", "does not change the answer in the range tried");
        }
        buf_free(&t);
        if (swing > best_swing) {
            best_swing = swing;
            most = sens_keys[p];
        }
    }
    view_map_set_str(d->sensitivity, "moves_most", most);
    for (int p = 0; p < SENS_COUNT; p++)
        if (str_eq(most, sens_keys[p]))
            view_map_set_str(d->sensitivity, "moves_most_name", sens_names[p]);
    view_map_set_str(d->sensitivity, "method",
                     "each input scaled by -20% and +20% with the others held; the swing is the "
                     "change in the recommended option's cost per unit of work; the flip point "
                     "is found by bisection; rule verdicts are held at their base values");
}

/* ---- break-even: the best purchase against the best rental ---- */

static const decide_option *best_of(const decision *d, int rent)
{
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (o->feasible && (o->acquisition == DECIDE_RENT) == rent)
            return o;
    }
    return NULL;
}

static void break_even(decision *d)
{
    const workload *w = d->w;
    const decide_option *buy = best_of(d, 0), *rent = best_of(d, 1);
    d->break_even = view_map();
    if (!buy || !rent) {
        view_map_set(d->break_even, "buy_option", view_null());
        view_map_set(d->break_even, "rent_option", view_null());
        return;
    }
    /* Rent for the work the owned system does in one hour. */
    double rent_equiv = rent->unit_price * buy->throughput / rent->throughput;
    double hours = cost_break_even_hours_per_day(&buy->buy, rent_equiv);
    double month = cost_break_even_month(&buy->buy, rent_equiv);
    double speedup = cost_speedup_to_match(rent->cost.per_hour, buy->cost.per_hour);
    view *b = d->break_even;
    view_map_set_str(b, "buy_option", buy->id);
    view_map_set_str(b, "rent_option", rent->id);
    gw_buf l = GW_BUF_INIT;
    option_label(&l, buy);
    view_map_set_str(b, "buy_label", buf_cstr(&l));
    buf_reset(&l);
    option_label(&l, rent);
    view_map_set_str(b, "rent_label", buf_cstr(&l));
    buf_free(&l);
    set_money(b, d, "own_per_hour", buy->cost.per_hour);
    set_money(b, d, "rent_per_hour", rent->cost.per_hour);
    set_money(b, d, "rent_equivalent_per_hour", rent_equiv);
    set_figure(b, "hours_per_day", hours, 1, " h/day");
    view_map_set_bool(b, "buying_pays_within_a_day", !isnan(hours) && hours <= 24);
    set_figure(b, "month", month, 1, NULL);
    view_map_set_bool(b, "crosses_within_horizon", !isnan(month) && month <= w->horizon_months);
    set_figure(b, "speedup_needed", speedup, 2, "x");
    set_figure(b, "actual_speed_ratio", rent->throughput / buy->throughput, 2, "x");
    /* Cumulative outlay over the horizon, for the line chart. */
    view *chart = d->cumulative = view_map();
    view *series = view_map_set(chart, "series", view_list());
    double months = w->horizon_months;
    int steps = months <= 24 ? (int)ceil(months) : 24;
    for (int s = 0; s < 2; s++) {
        view *one = view_list_push(series, view_map());
        gw_buf name = GW_BUF_INIT;
        option_label_ex(&name, s ? rent : buy, 1);
        view_map_set_str(one, "name", buf_cstr(&name));
        buf_free(&name);
        view *pts = view_map_set(one, "points", view_list());
        for (int k = 0; k <= steps; k++) {
            double m = months * k / steps;
            view *pt = view_list_push(pts, view_list());
            view_list_push(pt, view_number(m));
            view_list_push(pt, view_number(s ? cost_cumulative_rent(rent_equiv, w->hours_per_day,
                                                                    m)
                                             : cost_cumulative_buy(&buy->buy, m)));
        }
    }
    if (!isnan(month) && month <= months) {
        view *mk = view_map_set(chart, "marker", view_map());
        view_map_set_num(mk, "x", month);
        view_map_set_num(mk, "y", cost_cumulative_buy(&buy->buy, month));
        char label[64];
        snprintf(label, sizeof label, "break-even: month %.1f", month);
        view_map_set_str(mk, "label", label);
    }
}

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

static void reasons(decision *d)
{
    const decide_option *win = decision_best(d);
    d->because = view_list();
    if (!win)
        return;
    gw_buf b = GW_BUF_INIT;
    const decide_option *second = NULL;
    size_t feasible = 0;
    for (size_t i = 0; i < d->n_options; i++)
        if (d->ranked[i]->feasible) {
            feasible++;
            if (d->ranked[i] != win && !second)
                second = d->ranked[i];
        }
    buf_puts(&b, "Lowest cost per ");
    buf_puts(&b, d->work_unit);
    buf_printf(&b, " of the %zu feasible options: ", feasible);
    money_per_unit(&b, d, win->per_unit);
    if (second) {
        buf_puts(&b, ", against ");
        money_per_unit(&b, d, second->per_unit);
        buf_puts(&b, " for ");
        option_label(&b, second);
    }
    buf_puts(&b, ".");
    view_list_push(d->because, view_string(buf_cstr(&b)));
    /* The strongest preferences the rules gave it. */
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
    const view *be = d->break_even;
    double hours = view_num(view_map_get(be, "hours_per_day"));
    if (view_len(d->because) < 3 && view_str(view_map_get(be, "buy_option"))) {
        buf_reset(&b);
        if (win->acquisition != DECIDE_RENT) {
            if (!isnan(hours))
                buf_printf(&b, "Owning pays off from %.1f h of use a day against %s; the plan "
                               "is %g h.",
                           hours, view_str(view_map_get(be, "rent_label")),
                           d->w->hours_per_day);
            else
                buf_printf(&b, "Renting never costs less per unit of work than owning here.");
        } else {
            if (!isnan(hours) && hours <= 24)
                buf_printf(&b, "Buying (%s) would need %.1f h of use a day to pay off; the "
                               "plan is %g h.",
                           view_str(view_map_get(be, "buy_label")), hours,
                           d->w->hours_per_day);
            else
                buf_printf(&b, "Buying (%s) never pays off within the %g-month horizon.",
                           view_str(view_map_get(be, "buy_label")), d->w->horizon_months);
        }
        view_list_push(d->because, view_string(buf_cstr(&b)));
    }
    if (view_len(d->because) < 3 && !isnan(win->time_to_finish_hours)) {
        buf_reset(&b);
        buf_printf(&b, "Finishes the work in %.1f hours of running (%.1f days at %g h a day).",
                   win->time_to_finish_hours, win->time_to_finish_hours / d->w->hours_per_day,
                   d->w->hours_per_day);
        view_list_push(d->because, view_string(buf_cstr(&b)));
    }
    buf_free(&b);
}

/* ---- setup ---- */

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
    int rc = kb_gpu_list(d->k, NULL, NULL, &d->gpus, &d->n_gpus, err);
    if (rc == GW_OK)
        rc = kb_prices_find(d->k, NULL, NULL, NULL, &d->prices, &d->n_prices, err);
    if (rc != GW_OK)
        return rc;
    if (w->benchmark) {
        kb_benchmark *rows = NULL;
        size_t n = 0;
        rc = kb_benchmarks_find(d->k, NULL, w->benchmark, &rows, &n, err);
        if (rc != GW_OK)
            return rc;
        /* Keep the results of the workload's precision class (half vs full) when there are
         * any; otherwise all of them, and say so. */
        int want_half = half_precision(w->precision);
        size_t same = 0;
        for (size_t i = 0; i < n; i++)
            same += half_precision(rows[i].precision) == want_half;
        d->bench = gw_xcalloc(n ? n : 1, sizeof *d->bench);
        for (size_t i = 0; i < n; i++) {
            if (same && half_precision(rows[i].precision) != want_half) {
                kb_benchmark_free(&rows[i]);
                continue;
            }
            d->bench[d->n_bench++] = rows[i];
        }
        free(rows);
        if (!d->n_bench)
            return gw_error_set(err, GW_EDATA,
                                "%s: benchmark: the KB holds no measured results for \"%s\"",
                                w->path, w->benchmark);
        if (!same)
            trace(d, "no %s results for %s: using the other precision's", w->precision,
                  w->benchmark);
        free(d->unit);
        d->unit = gw_xstrdup(d->bench[0].unit ? d->bench[0].unit : "samples/s");
        char *slash = strstr(d->unit, "/s");
        gw_buf wu = GW_BUF_INIT;
        buf_printf(&wu, "1M %.*s", (int)(slash ? (size_t)(slash - d->unit) : strlen(d->unit)),
                   d->unit);
        d->work_unit = buf_detach(&wu);
        d->unit_size = 1e6;
    }
    trace(d, "KB: %zu GPUs, %zu prices, %zu %s results", d->n_gpus, d->n_prices, d->n_bench,
          w->benchmark ? w->benchmark : "benchmark");
    return GW_OK;
}

static int fill_defaults(decision *d, gw_error *err)
{
    workload *w = d->w;
    if (isnan(w->host_cost)) {
        int rc = convert(d, DECIDE_HOST_COST_CNY, "CNY", &w->host_cost, err);
        if (rc != GW_OK)
            return rc;
        d->cite_host_cost = cited_source(d, "article-4090-a100-h100");
    }
    if (isnan(w->host_power_w)) {
        w->host_power_w = DECIDE_HOST_POWER_W;
        d->cite_host_power = cited_source(d, "article-a100-vs-4x3090");
    }
    if (isnan(w->resale_fraction)) {
        w->resale_fraction = DECIDE_RESALE_FRACTION;
        d->cite_resale = cited_source(d, "article-4090-a100-h100");
    }
    return GW_OK;
}

static int setup_reference(decision *d, gw_error *err)
{
    const workload *w = d->w;
    if (!w->work_hours_on)
        return GW_OK;
    char *id = NULL;
    int count = 1;
    int rc = kb_gpu_resolve(d->k, w->work_hours_on, &id, &count, err);
    if (rc != GW_OK) {
        gw_error_prefix(err, "%s: work.hours_on", w->path);
        return rc;
    }
    d->reference = gpu_by_id(d, id);
    free(id);
    if (!d->reference)
        return gw_error_set(err, GW_ENOTFOUND, "%s: work.hours_on: %s is not in the KB",
                            w->path, w->work_hours_on);
    if (d->n_bench) {
        int measured;
        d->reference_speed = single_card(d, NULL, d->reference, &measured, NULL);
        if (isnan(d->reference_speed))
            return gw_error_set(err, GW_EDATA,
                                "%s: work.hours_on: no %s result measured on or comparable "
                                "to %s",
                                w->path, w->benchmark, d->reference->name);
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

int decide_run(kb *k, plugin_host *host, workload *w, unsigned flags, decision **out,
               gw_error *err)
{
    decision *d = gw_xcalloc(1, sizeof *d);
    d->k = k;
    d->w = w;
    d->trace = flags & DECIDE_TRACE ? view_list() : NULL;
    *out = NULL;
    int rc;
    if (!isnan(w->vram_gb)) {
        model_memory_measured(w->vram_gb, &d->memory);
        rc = GW_OK;
    } else {
        rc = model_memory_estimate(w->params, w->precision, w->optimizer, w->activations_gb,
                                   &d->memory, err);
        if (rc != GW_OK)
            gw_error_prefix(err, "%s: model", w->path);
    }
    d->gradient_bytes = model_gradient_bytes(w->params, w->precision);
    if (rc == GW_OK)
        rc = load_kb(d, err);
    if (rc == GW_OK)
        rc = setup_reference(d, err);
    if (rc == GW_OK)
        rc = fill_defaults(d, err);
    if (rc == GW_OK)
        rc = enumerate(d, err);
    if (rc == GW_OK && d->n_options == 0)
        rc = gw_error_set(err, GW_EDATA,
                          "%s: no option to consider: the KB has no purchase or cloud price for "
                          "the candidates%s",
                          w->path, w->used_ok ? "" : " (used prices need used_ok = true)");
    if (rc != GW_OK) {
        decision_free(d);
        return rc;
    }
    trace(d, "memory per replica: %.1f GB (%s)", d->memory.total_gb,
          d->memory.measured ? "measured, from vram_gb" : "estimated from parameters");
    trace(d, "%zu options", d->n_options);
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        size_option(d, o);
        estimate_speed(d, o);
        cost_option(d, o);
        trace(d, "%s: needs %.1f GB/card of %.0f; %.0f %s (%s); %s/h, %.4g per %s", o->id,
              o->per_card_gb, o->gpu->memory_gb, o->throughput, d->unit,
              o->measured ? "measured" : "scaled", d->w->currency, o->per_unit, d->work_unit);
    }
    rc = run_rules(d, host, err);
    if (rc != GW_OK) {
        decision_free(d);
        return rc;
    }
    for (size_t i = 0; i < d->n_options; i++) {
        judge(d, &d->options[i]);
        if (!d->options[i].feasible)
            trace(d, "%s excluded: %s", d->options[i].id, d->options[i].excluded_because);
    }
    rank_options(d);
    const decide_option *best = decision_best(d);
    if (best)
        trace(d, "recommended: %s (score %.4g)", best->id, best->score);
    else
        trace(d, "no feasible option");
    break_even(d);
    sensitivity(d);
    reasons(d);
    *out = d;
    return GW_OK;
}

void decision_free(decision *d)
{
    if (!d)
        return;
    free(d->measured_one);
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        free(o->id);
        free(o->provider);
        free(o->instance);
        free(o->throughput_how);
        free(o->excluded_because);
        free(o->cites);
        for (size_t j = 0; j < o->n_verdicts; j++) {
            free(o->verdicts[j].rule);
            free(o->verdicts[j].effect);
            free(o->verdicts[j].because);
            free(o->verdicts[j].checklist);
        }
        free(o->verdicts);
    }
    free(d->options);
    free(d->ranked);
    kb_gpus_free(d->gpus, d->n_gpus);
    kb_benchmarks_free(d->bench, d->n_bench);
    kb_prices_free(d->prices, d->n_prices);
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
    free(d);
}

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
    return d->n_options && d->ranked && d->ranked[0]->feasible ? d->ranked[0] : NULL;
}

/* ---- the view model ---- */

static view *memory_view(const decision *d)
{
    const model_memory *m = &d->memory;
    view *v = view_map();
    set_figure(v, "total_gb", m->total_gb, 1, " GB");
    view_map_set_bool(v, "measured", m->measured);
    if (!m->measured) {
        view_map_set_num(v, "bytes_per_param", m->bytes_per_param);
        set_figure(v, "weights_gb", m->weights_gb, 2, " GB");
        set_figure(v, "gradients_gb", m->gradients_gb, 2, " GB");
        set_figure(v, "optimizer_gb", m->optimizer_gb, 2, " GB");
        set_figure(v, "activations_gb", m->activations_gb, 2, " GB");
        set_figure(v, "overhead_gb", m->overhead_gb, 2, " GB");
    }
    return v;
}

static view *method_view(const decision *d)
{
    view *v = view_map();
    char line[512];
    snprintf(line, sizeof line,
             "memory per replica = (params x bytes per parameter + activations) x %.2f + %.1f GB "
             "(CUDA context and allocator fragmentation); bytes per parameter: weights + "
             "gradients + optimizer states (AMP with Adam: 2 + 2 + 4 fp32 master + 8 = 16)",
             1 + MODEL_FRAGMENTATION, MODEL_CONTEXT_GB);
    view_map_set_str(v, "memory", line);
    view_map_set_str(v, "scaling",
                     "throughput without a measurement = nearest measured GPU x sqrt(tensor "
                     "TFLOPS ratio x memory bandwidth ratio), labelled scaled");
    snprintf(line, sizeof line,
             "n cards, data parallel: efficiency = compute / (compute x %.2f + all-reduce), "
             "compute = batch (%g per GPU) / one card's throughput, all-reduce = 2(n-1)/n x "
             "gradient bytes / link bandwidth (NVLink on SXM boards; PCIe 4.0 x16 about "
             "%.0f GB/s, shared once there are more than two cards)",
             1 + MODEL_SYNC_OVERHEAD,
             d->w->batch_per_gpu > 0 ? d->w->batch_per_gpu : MODEL_DEFAULT_BATCH,
             MODEL_PCIE4_ALLREDUCE_GBS);
    view_map_set_str(v, "multi_gpu", line);
    snprintf(line, sizeof line,
             "model parallelism (a model too big for one card, split over n): memory per card = "
             "(replica - context) / n + context; throughput = n x one card x %.2f over NVLink or "
             "%.2f over PCIe (assumed, an estimate)",
             MODEL_PARALLEL_EFFICIENCY_NVLINK, MODEL_PARALLEL_EFFICIENCY_PCIE);
    view_map_set_str(v, "model_parallel", line);
    view_map_set_str(v, "buy",
                     "total = cards + hosts + cooling + (electricity + upkeep) x months - resale; "
                     "electricity = watts x hours a day x 30 days / 1000 x price x PUE");
    snprintf(line, sizeof line,
             "total = offer price per hour x hours a day x 30 x months; per GPU and card count "
             "only the cheapest offer of each of the %d cheapest providers is compared (%zu "
             "offer%s set aside)",
             RENT_OFFERS_PER_CONFIG, d->rent_set_aside, d->rent_set_aside == 1 ? "" : "s");
    view_map_set_str(v, "rent", line);
    view_map_set_str(v, "per_unit",
                     "cost per unit of work = total / hours of use / (throughput x 3600) x unit "
                     "size; ranking: feasible options by that cost, x (1 - prefer weights + warn "
                     "weights)");
    return v;
}

/* One assumption: a sentence and the citations it rests on (0 = none). */
static void assume(view *list, const char *text, int cite_a, int cite_b)
{
    view *m = view_list_push(list, view_map());
    view_map_set_str(m, "text", text);
    view *cites = view_map_set(m, "cites", view_list());
    if (cite_a)
        view_list_push(cites, view_number(cite_a));
    if (cite_b && cite_b != cite_a)
        view_list_push(cites, view_number(cite_b));
}

static view *assumptions_view(const decision *d)
{
    const workload *w = d->w;
    view *list = view_list();
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "%g hours of use a day over %g months; a month is 30 days.", w->hours_per_day,
               w->horizon_months);
    assume(list, buf_cstr(&b), 0, 0);
    buf_reset(&b);
    buf_puts(&b, "Electricity ");
    money(&b, d, w->electricity_price);
    buf_printf(&b, " per kWh, PUE %g.", w->pue);
    assume(list, buf_cstr(&b), 0, 0);
    buf_reset(&b);
    buf_puts(&b, "A host machine costs ");
    money(&b, d, w->host_cost);
    buf_printf(&b, " and draws %.0f W besides its cards; it takes up to %s cards.",
               w->host_power_w,
               w->cards_per_host > 0 ? "the workload's" : "4 consumer or 8 data-centre");
    assume(list, buf_cstr(&b), d->cite_host_cost, d->cite_host_power);
    buf_reset(&b);
    buf_printf(&b, "Cards resell for %.0f%% of their price at the end of the horizon.",
               w->resale_fraction * 100);
    assume(list, buf_cstr(&b), d->cite_resale, 0);
    if (w->upkeep_hours_per_month > 0) {
        buf_reset(&b);
        buf_printf(&b, "Upkeep: %g hours a month at ", w->upkeep_hours_per_month);
        money(&b, d, w->upkeep_rate);
        buf_puts(&b, " an hour.");
        assume(list, buf_cstr(&b), 0, 0);
    }
    assume(list, "Cards draw their rated board power (TDP) under load.", 0, 0);
    assume(list,
           "Prices: the latest observation of each kind (median when several share the date).",
           0, 0);
    for (size_t i = 0; i < d->n_rates; i++) {
        buf_reset(&b);
        buf_printf(&b, "Amounts in %s converted at %.4g %s per %s (rates as of %s).",
                   d->rates[i].currency, d->rates[i].factor, w->currency, d->rates[i].currency,
                   d->rates[i].as_of[0] ? d->rates[i].as_of : "an unknown date");
        assume(list, buf_cstr(&b), d->rates[i].cite, 0);
    }
    if (d->cite_pcie)
        assume(list, "Several cards in one PCIe machine share gradients at about 16 GB/s (PCIe 4.0 "
                     "x16) with no NVLink bridge fitted.",
               d->cite_pcie, 0);
    if (str_eq(w->cooling, "poor"))
        assume(list, "Poor cooling: multi-card consumer builds lose 20% of their throughput to "
                     "heat throttling.",
               0, 0);
    assume(list, "Renting: the offer's price for the same hours a day; no storage or transfer fees.",
           0, 0);
    buf_free(&b);
    return list;
}

static view *charts_view(const decision *d)
{
    view *charts = view_list();
    const view *series = view_map_get(d->cumulative, "series");
    if (series) {
        view *c = view_list_push(charts, view_map());
        view_map_set_str(c, "id", "cumulative-cost");
        view_map_set_str(c, "kind", "line");
        view_map_set_str(c, "title", "Cumulative cost: buy vs rent (same work)");
        view_map_set_str(c, "desc",
                         "Cumulative outlay of the best purchase and the best rental doing the "
                         "same work; resale not counted.");
        view_map_set_str(c, "x_label", "Month");
        view_map_set_str(c, "x_unit", "month");
        view_map_set_str(c, "y_label", "Cumulative cost");
        view_map_set_str(c, "unit", d->w->currency);
        view_map_set(c, "series", view_copy(series));
        const view *marker = view_map_get(d->cumulative, "marker");
        if (marker)
            view_map_set(c, "marker", view_copy(marker));
    }
    view *bar = view_map();
    view_map_set_str(bar, "id", "cost-per-unit");
    view_map_set_str(bar, "kind", "bar");
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "Cost per %s", d->work_unit);
    view_map_set_str(bar, "title", buf_cstr(&b));
    view_map_set_str(bar, "desc", "Feasible options, lower is better; the recommendation is "
                                  "highlighted.");
    view_map_set_str(bar, "y_label", buf_cstr(&b));
    view_map_set_str(bar, "unit", d->w->currency);
    buf_free(&b);
    view *bars = view_map_set(bar, "bars", view_list());
    size_t shown = 0;
    for (size_t i = 0; i < d->n_options && shown < 12; i++) {
        const decide_option *o = d->ranked[i];
        if (!o->feasible || isnan(o->per_unit))
            continue;
        view *m = view_list_push(bars, view_map());
        gw_buf l = GW_BUF_INIT;
        option_label_ex(&l, o, 1);
        view_map_set_str(m, "label", buf_cstr(&l));
        buf_reset(&l);
        money_per_unit(&l, d, o->per_unit);
        view_map_set_str(m, "value_text", buf_cstr(&l));
        buf_free(&l);
        view_map_set_num(m, "value", o->per_unit);
        if (o->rank == 1)
            view_map_set_bool(m, "highlight", 1);
        shown++;
    }
    if (shown)
        view_list_push(charts, bar);
    else
        view_free(bar);
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

view *decision_to_view(const decision *d)
{
    const decide_option *best = decision_best(d);
    view *root = view_map();
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "GPU purchase justification: %s", d->w->name);
    view_map_set_str(root, "title", buf_cstr(&b));
    buf_free(&b);
    view_map_set(root, "workload", workload_to_view(d->w));
    view_map_set(root, "memory", memory_view(d));
    view_map_set(root, "method", method_view(d));
    view_map_set(root, "assumptions", assumptions_view(d));
    view_map_set_str(root, "throughput_unit", d->unit);
    view_map_set_str(root, "work_unit", d->work_unit);
    view *options = view_map_set(root, "options", view_list());
    view *excluded = view_map_set(root, "excluded", view_list());
    size_t n_feasible = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        view_list_push(options, option_view(d, o));
        if (o->feasible) {
            n_feasible++;
        } else {
            view *x = view_list_push(excluded, view_map());
            gw_buf l = GW_BUF_INIT;
            option_label(&l, o);
            view_map_set_str(x, "label", buf_cstr(&l));
            buf_free(&l);
            view_map_set_str(x, "id", o->id);
            view_map_set_str(x, "because", o->excluded_because);
        }
    }
    view_map_set_bool(root, "has_excluded", view_len(excluded) > 0);
    if (!isnan(d->w->budget))
        set_money(root, d, "budget", d->w->budget);
    view_map_set_int(root, "feasible_count", (long long)n_feasible);
    view_map_set_int(root, "option_count", (long long)d->n_options);
    view *rec = view_map_set(root, "recommendation", view_map());
    if (best) {
        view_map_set_str(rec, "option", best->id);
        gw_buf l = GW_BUF_INIT;
        option_label(&l, best);
        view_map_set_str(rec, "label", buf_cstr(&l));
        buf_free(&l);
        view_map_set(rec, "because", view_copy(d->because));
        view_map_set(rec, "details", option_view(d, best));
        /* Risks: the warnings the rules gave the recommendation. */
        view *risks = view_map_set(rec, "risks", view_list());
        view *checklists = view_map_set(rec, "checklists", view_list());
        for (size_t i = 0; i < best->n_verdicts; i++) {
            const decide_verdict *v = &best->verdicts[i];
            if (!strcmp(v->effect, "warn"))
                view_list_push(risks, sentence(v->because));
            if (v->checklist) {
                int seen = 0;
                for (size_t j = 0; j < view_len(checklists); j++)
                    seen |= str_eq(view_str(view_list_at(checklists, j)), v->checklist);
                if (!seen)
                    view_list_push(checklists, view_string(v->checklist));
            }
        }
    } else {
        view_map_set(rec, "option", view_null());
        view_map_set(rec, "because", view_list());
    }
    view_map_set(root, "break_even", view_copy(d->break_even));
    view_map_set(root, "sensitivity", view_copy(d->sensitivity));
    view_map_set(root, "charts", charts_view(d));
    view_map_set(root, "citations", citations_view(d));
    if (d->trace)
        view_map_set(root, "trace", view_copy(d->trace));
    return root;
}
