/* decide_options.c — the options of a decision: for every candidate GPU, buying it new or used
 * at 1, 2, 4 or 8 cards (its latest price), and renting it from each stored cloud offer (the
 * cheapest offers of a few providers per GPU and card count).  Prices are converted into the
 * workload's currency here; sizing, timing and costing them is the next stages' work. */
#include "decide_private.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    o->consumer = decide_gpu_is_consumer(g);
    o->throughput = o->per_unit = o->score = NAN;
    o->gpu_fraction = 1;
    o->min_billing_hours = NAN;
    o->hosts = 1;
    o->network_gbps = NAN;
    o->price_age_days = NAN;
    o->tpot_ms = o->ttft_ms = o->step_ms = o->capacity = NAN;   /* a language model served (decide_llm.c) */
    return o;
}

void decide_omit(decision *d, const kb_gpu *gpu, const char *name, const char *offer,
                 const char *reason)
{
    const char *id = gpu ? gpu->id : NULL;
    for (size_t i = 0; i < d->n_omitted; i++) {   /* rent:X and rent:* find an offer twice */
        const decide_omission *m = &d->omitted[i];
        if (decide_text_same(m->gpu, id) && decide_text_same(m->name, name) &&
            decide_text_same(m->offer, offer) && !strcmp(m->reason, reason))
            return;
    }
    d->omitted = gw_xrealloc(d->omitted, (d->n_omitted + 1) * sizeof *d->omitted);
    decide_omission *m = &d->omitted[d->n_omitted++];
    m->gpu = id ? gw_xstrdup(id) : NULL;
    m->name = gw_xstrdup(name ? name : id ? id : "");
    m->offer = offer ? gw_xstrdup(offer) : NULL;
    m->reason = reason;
    decide_trace(d, "not considered: %s%s%s: %s", m->name, offer ? ", " : "", offer ? offer : "",
                 reason);
}

static int has_option(const decision *d, const char *id)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (!strcmp(d->options[i].id, id))
            return 1;
    return 0;
}

/* ---- buying ---- */

/* The prices of one kind for a GPU's cards, or for one system, that an option is made from:
 * the rows whose quality the workload accepts (an anecdotal price only with anecdotal_ok; when
 * there is no other, the anecdotal ones, and the option is held back: shown, never
 * recommended), as of the latest date they share; per card, converted. */
typedef struct price_set {
    double *values;
    const char **sources;
    size_t n;
    int held_back;
    const char *quality;   /* of the rows used, the least trusted; NULL when none says */
    const char *note;      /* the latest row's caveats */
    const char *as_of;     /* the date they share */
} price_set;

static void price_set_free(price_set *s)
{
    free(s->values);
    free(s->sources);
}

static int is_anecdote(const kb_price *p)
{
    return decide_str_eq(p->quality, "anecdote");
}

/* How little a quality is trusted: list 0, quote or unsaid 1, anecdote 2. */
static int distrust(const char *quality)
{
    return decide_str_eq(quality, "list") ? 0 : decide_str_eq(quality, "anecdote") ? 2 : 1;
}

static int price_row_of(const kb_price *p, const char *gpu, const char *kind, const char *system)
{
    return decide_str_eq(p->gpu, gpu) && decide_str_eq(p->kind, kind) &&
           (system ? decide_str_eq(p->system, system) : !(p->system && *p->system));
}

/* Whether row p is one the option is made from: a row of the GPU, kind and system, and of a
 * quality the workload accepts, unless it accepts none of them (accepted 0: then every row,
 * and the option is held back). */
static int price_row_used(const decision *d, const kb_price *p, const char *gpu,
                          const char *kind, const char *system, size_t accepted)
{
    return price_row_of(p, gpu, kind, system) &&
           !(accepted && is_anecdote(p) && !d->w->anecdotal_ok);
}

static int latest_prices(decision *d, const char *gpu, const char *kind, const char *system,
                         price_set *out, gw_error *err)
{
    const char *latest = NULL;
    size_t rows = 0, accepted = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (price_row_of(p, gpu, kind, system)) {
            rows++;
            accepted += !is_anecdote(p) || d->w->anecdotal_ok;
        }
    }
    out->held_back = rows && !accepted;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (!price_row_used(d, p, gpu, kind, system, accepted))
            continue;
        if (!latest || (p->as_of && strcmp(p->as_of, latest) > 0))
            latest = p->as_of ? p->as_of : "";
    }
    out->values = gw_xmalloc((rows ? rows : 1) * sizeof *out->values);
    out->sources = gw_xmalloc((rows ? rows : 1) * sizeof *out->sources);
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (!price_row_used(d, p, gpu, kind, system, accepted) ||
            !decide_text_same(p->as_of, latest))
            continue;
        double per_card;
        int rc = decide_convert(d, p->amount / (p->gpu_count > 0 ? p->gpu_count : 1),
                                p->currency, &per_card, err);
        if (rc != GW_OK)
            return rc;
        if (!out->n || distrust(p->quality) > distrust(out->quality))
            out->quality = p->quality;
        out->note = p->note && *p->note ? p->note : out->note;
        out->as_of = p->as_of;
        out->sources[out->n] = p->source;
        out->values[out->n++] = per_card;
    }
    return GW_OK;
}

/* Cards one machine of g takes: the workload's, else a desktop's four consumer cards or a
 * server's eight. */
static int cards_per_host(const decision *d, const kb_gpu *g)
{
    if (d->w->cards_per_host > 0)
        return (int)d->w->cards_per_host;
    return decide_gpu_is_consumer(g) ? DECIDE_CONSUMER_PER_HOST : DECIDE_SERVER_PER_HOST;
}

/* Whether options may span several machines: only where every card trains its own replica
 * (data parallelism: a model split over machines is not modelled) and a measured benchmark
 * gives a step's compute time to set the network's all-reduce against. */
static int multi_host_ok(const decision *d)
{
    return decide_str_eq(d->w->parallelism, "data") && (d->n_bench > 0 || workload_is_llm(d->w));
}

/* Machines for count cards, as whole machines and at most DECIDE_MAX_HOSTS; 0 when that is not
 * an option (multi_host_ok). */
static int hosts_for(const decision *d, int count, int per_host)
{
    if (count <= per_host)
        return 1;
    if (count % per_host || count / per_host > DECIDE_MAX_HOSTS || !multi_host_ok(d))
        return 0;
    return count / per_host;
}

static decide_option *add_buy_option(decision *d, const kb_gpu *g, int count, int hosts,
                                     decide_acquisition a, const kb_system *sys,
                                     const price_set *prices)
{
    gw_buf id = GW_BUF_INIT;
    buf_printf(&id, "%s:%dx %s", decide_acquisition_name(a), count, g->id);
    if (sys)
        buf_printf(&id, " in %s", sys->id);
    if (has_option(d, buf_cstr(&id))) {
        buf_free(&id);
        return NULL;
    }
    decide_option *o = option_new(d, g, count, a);
    o->id = buf_detach(&id);
    o->hosts = hosts;
    o->system = sys;
    o->network_gbps = hosts < 2 ? NAN : sys ? sys->network_gbps : d->w->network_gbps;
    o->unit_price = decide_median(prices->values, prices->n);
    o->price_lo = prices->values[0];
    o->price_hi = prices->values[prices->n - 1];
    o->held_back = prices->held_back;
    decide_option_dated(o, prices->as_of);
    o->offer_quality = prices->quality ? gw_xstrdup(prices->quality) : NULL;
    o->offer_note = prices->note ? gw_xstrdup(prices->note) : NULL;
    for (size_t s = 0; s < prices->n; s++)
        decide_option_cite(d, o, prices->sources[s]);
    decide_option_cite(d, o, g->source);
    if (sys)
        decide_option_cite(d, o, sys->source);
    if (hosts > 1 && !sys && decide_fact_cite(d, KB_ASSUMED_HOST_NETWORK))
        decide_option_cite(d, o, d->facts[KB_ASSUMED_HOST_NETWORK].source);
    return o;
}

/* Card counts tried when a candidate does not name one. */
static const int default_counts[] = {1, 2, 4, 8, 16};
#define N_DEFAULT_COUNTS (sizeof default_counts / sizeof default_counts[0])

/* Cards bought one by one into host machines: one option per card count (count 0: the default
 * counts, up to DECIDE_MAX_HOSTS full machines) at the median price. */
static void add_card_counts(decision *d, const kb_gpu *g, int count, decide_acquisition a,
                            const price_set *prices)
{
    int per_host = cards_per_host(d, g);
    size_t n_counts = count ? 1 : N_DEFAULT_COUNTS;
    for (size_t c = 0; c < n_counts; c++) {
        int cnt = count ? count : default_counts[c];
        int hosts = hosts_for(d, cnt, per_host);
        if (!count && (!hosts || (decide_str_eq(d->w->parallelism, "none") && cnt > 1)))
            continue;
        add_buy_option(d, g, cnt, hosts ? hosts : (cnt + per_host - 1) / per_host, a, NULL,
                       prices);
    }
}

/* Whole systems (servers of SXM or OAM modules): 1, 2 or 4 of them, or the count named when it
 * is a whole number of systems. */
static int add_system_counts(decision *d, const kb_gpu *g, int count, decide_acquisition a,
                             const kb_system *sys, const price_set *prices)
{
    int per = (int)sys->gpu_count, added = 0;
    for (int n = 1; n <= DECIDE_MAX_HOSTS; n *= 2) {
        if (count ? count != per * n : n > 1 && !multi_host_ok(d))
            continue;
        add_buy_option(d, g, per * n, n, a, sys, prices);
        added++;
    }
    return added;
}

static int add_buy_options(decision *d, const kb_gpu *g, int count, gw_error *err)
{
    int card = decide_gpu_sold_as_card(g);
    for (int used = 0; used < 2; used++) {
        if (used && !d->w->used_ok)
            continue;
        decide_acquisition a = used ? DECIDE_BUY_USED : DECIDE_BUY_NEW;
        const char *kind = used ? "used" : "new";
        price_set prices;
        int rc = latest_prices(d, g->id, kind, NULL, &prices, err);
        if (rc == GW_OK && prices.n && card)
            add_card_counts(d, g, count, a, &prices);
        else if (rc == GW_OK && prices.n)
            decide_omit(d, g, g->name, used ? "used module" : "new module", DECIDE_OMIT_MODULE);
        price_set_free(&prices);
        int priced = 0, added = 0;
        for (size_t s = 0; s < d->n_systems && rc == GW_OK; s++) {
            const kb_system *sys = &d->systems[s];
            if (!decide_str_eq(sys->gpu, g->id) || !(sys->gpu_count >= 1))
                continue;
            rc = latest_prices(d, g->id, kind, sys->id, &prices, err);
            if (rc == GW_OK && prices.n) {
                priced = 1;
                added += add_system_counts(d, g, count, a, sys, &prices);
            }
            price_set_free(&prices);
        }
        if (priced && !added)   /* a count no server holds: "1x h100-sxm5" */
            decide_omit(d, g, g->name, used ? "used" : "new", DECIDE_OMIT_NOT_WHOLE);
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
}

/* ---- renting ---- */

/* Rows of the same GPU, count, source, provider, instance and spot flag are one offer (a spot
 * price is never averaged with an on-demand one: issue 13); the ordering puts
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
        c = (p->spot > q->spot) - (p->spot < q->spot);
    if (!c)
        c = strcmp(q->as_of ? q->as_of : "", p->as_of ? p->as_of : "");
    if (!c)
        c = (p > q) - (p < q);
    return c;
}

static int same_offer(const kb_price *p, const kb_price *q)
{
    return !strcmp(p->gpu, q->gpu) && (int)p->gpu_count == (int)q->gpu_count &&
           decide_text_same(p->source, q->source) &&
           decide_text_same(p->provider, q->provider) &&
           decide_text_same(p->instance, q->instance) && p->spot == q->spot;
}

typedef struct {
    const kb_price *first;   /* the offer's first row in KB order: options keep that order */
    const kb_price *terms;   /* its latest row: quality, fraction, minimum billing, note */
    const kb_gpu *g;
    int count;
    const char *seller;      /* provider, else source: the name in the option's id */
    double price, lo, hi;    /* per instance-hour, in the workload's currency */
    int spot;                /* interruptible: an option only with spot_ok */
    int held_back;           /* an anecdotal price the workload does not accept */
    double per_card_hour;    /* price / gpu_fraction: a slice's price for a whole card's work */
    int keep;
    char *note;              /* the caveats of the rows used (owned): the latest row's note, or
                              * for several prices of one date, all of their notes */
} rent_offer;

/* Within each GPU and count, cheapest per whole card's work first, anecdotal prices the workload
 * does not accept after every other (they may be shown, never recommended); ties go to the
 * earlier offer. */
static int cmp_rent_offer(const void *a, const void *b)
{
    const rent_offer *x = a, *y = b;
    int c = strcmp(x->g->id, y->g->id);
    if (!c)
        c = (x->count > y->count) - (x->count < y->count);
    if (!c)
        c = x->held_back - y->held_back;
    if (!c)
        c = (x->per_card_hour > y->per_card_hour) - (x->per_card_hour < y->per_card_hour);
    if (!c)
        c = (x->first > y->first) - (x->first < y->first);
    return c;
}

static int cmp_rent_offer_kb_order(const void *a, const void *b)
{
    const rent_offer *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static void rent_offer_id(gw_buf *id, const rent_offer *f, int instances)
{
    const char *instance = f->first->instance && *f->first->instance ? f->first->instance : "-";
    buf_reset(id);
    buf_printf(id, "rent:%s:%s%s:%dx %s", f->seller, instance, f->spot ? " (spot)" : "",
               f->count * instances, f->g->id);
}

/* The end of the group of offers of one GPU and count that starts at start. */
static size_t group_end(const rent_offer *offers, size_t start, size_t n)
{
    size_t end = start;
    while (end < n && offers[end].g == offers[start].g && offers[end].count == offers[start].count)
        end++;
    return end;
}

/* Whether offers[i] is a provider's older price: the same provider (spot or not, whole cards or
 * slices alike) lists the GPU and count at a later date in an offer the workload may use.  A
 * provider's newer price list supersedes its older one even when it renames the instance
 * (Lambda's gpu_8x_h100_sxm5 of 2024 is its "8x H100 SXM" of 2026). */
static int rent_offer_superseded(const rent_offer *offers, size_t start, size_t end, size_t i)
{
    const rent_offer *f = &offers[i];
    const char *when = f->terms->as_of ? f->terms->as_of : "";
    for (size_t k = start; k < end; k++) {
        const rent_offer *h = &offers[k];
        if (k != i && !h->held_back && !strcmp(h->seller, f->seller) && h->spot == f->spot &&
            h->terms->gpu_fraction == f->terms->gpu_fraction &&
            strcmp(h->terms->as_of ? h->terms->as_of : "", when) > 0)
            return 1;
    }
    return 0;
}

/* Marks the offers that become options (see DECIDE_RENT_OFFERS_PER_CONFIG); a provider's older
 * price is set aside (rent_offer_superseded); returns how many of a configuration not seen by an
 * earlier call were set aside. */
static size_t rent_offers_choose(const decision *d, rent_offer *offers, size_t n)
{
    qsort(offers, n, sizeof *offers, cmp_rent_offer);
    size_t set_aside = 0;
    gw_buf id = GW_BUF_INIT;
    for (size_t start = 0, end; start < n; start = end) {
        const rent_offer *kept[DECIDE_RENT_OFFERS_PER_CONFIG];
        size_t n_kept = 0, aside = 0;
        end = group_end(offers, start, n);
        for (size_t i = start; i < end; i++) {
            rent_offer *f = &offers[i];
            int seen = n_kept == DECIDE_RENT_OFFERS_PER_CONFIG;
            /* A provider's spot and on-demand offers are two offers, never one; so are its
             * whole cards and its slices of one. */
            for (size_t k = 0; k < n_kept && !seen; k++)
                seen = !strcmp(kept[k]->seller, f->seller) && kept[k]->spot == f->spot &&
                       kept[k]->terms->gpu_fraction == f->terms->gpu_fraction;
            /* Only an offer that would be kept is looked at for a newer one of its seller:
             * the group is walked for the few, not for every offer of a large catalogue. */
            if (!seen && !rent_offer_superseded(offers, start, end, i)) {
                kept[n_kept++] = f;
                f->keep = 1;
            } else {
                aside++;
            }
        }
        rent_offer_id(&id, &offers[start], 1);
        if (!has_option(d, buf_cstr(&id)))
            set_aside += aside;
    }
    buf_free(&id);
    return set_aside;
}

/* The offer made of rows[start..end) (one offer's rows, latest first): the median of its latest
 * date's prices. */
static int rent_offer_read(decision *d, const kb_price **rows, size_t start, size_t end,
                           rent_offer *f, gw_error *err)
{
    const kb_price *p = rows[start], *first = p;
    for (size_t j = start + 1; j < end; j++)
        if (rows[j] < first)
            first = rows[j];
    double *values = gw_xmalloc((end - start) * sizeof *values);
    size_t n = 0;
    int rc = GW_OK;
    gw_buf notes = GW_BUF_INIT;
    for (size_t j = start; j < end && rc == GW_OK && decide_text_same(rows[j]->as_of, p->as_of);
         j++) {
        rc = decide_convert(d, rows[j]->amount, rows[j]->currency, &values[n++], err);
        const char *note = rows[j]->note;
        if (note && *note && !strstr(buf_cstr(&notes), note))
            buf_printf(&notes, "%s%s", notes.len ? " / " : "", note);
    }
    if (rc == GW_OK) {
        f->first = first;
        f->terms = p;
        f->g = decide_gpu_find(d, p->gpu);
        f->count = p->gpu_count > 0 ? (int)p->gpu_count : 1;
        f->seller = p->provider && *p->provider ? p->provider
                    : p->source                 ? p->source
                                                : "unnamed";
        f->spot = p->spot;
        f->price = decide_median(values, n);
        f->held_back = decide_str_eq(p->quality, "anecdote") && !d->w->anecdotal_ok;
        f->per_card_hour = f->price / (p->gpu_fraction > 0 && p->gpu_fraction <= 1
                                           ? p->gpu_fraction : 1);
        f->lo = values[0];
        f->hi = values[n - 1];
        f->keep = 0;
        f->note = NULL;
        if (n > 1 && notes.len) {
            /* Several prices of one date are pooled: say so, before their own notes (one may
             * read "low end of a range" while the median is what is used). */
            gw_buf b = GW_BUF_INIT;
            buf_printf(&b, "The median of %zu prices of this offer, %.4g to %.4g %s an hour: %s",
                       n, values[0], values[n - 1], d->w->currency, buf_cstr(&notes));
            f->note = buf_detach(&b);
        } else if (notes.len) {
            f->note = buf_detach(&notes);
        }
    }
    buf_free(&notes);
    free(values);
    return rc;
}

/* A spot offer is left out unless the workload says its work can be interrupted (spot_ok): a
 * spot instance can be taken back at any time.  Each is named while a GPU has a few; past
 * SPOT_NAMED_PER_GPU, a GPU's spot offers are one line with their number (a catalogue of
 * thousands would otherwise bury the report, and cost a comparison with every one listed). */
#define SPOT_NAMED_PER_GPU 3

static void spot_offer_omit(decision *d, const kb_price *p)
{
    gw_buf offer = GW_BUF_INIT;
    const char *seller = p->provider && *p->provider ? p->provider
                         : p->source                 ? p->source
                                                     : "unnamed";
    buf_printf(&offer, "%gx, %s", p->gpu_count > 0 ? p->gpu_count : 1, seller);
    if (p->instance && *p->instance)
        buf_printf(&offer, ", %s", p->instance);
    const kb_gpu *g = decide_gpu_find(d, p->gpu);
    decide_omit(d, g, g ? g->name : p->gpu, buf_cstr(&offer), DECIDE_OMIT_SPOT);
    buf_free(&offer);
}

/* The spot offers of rows[start..end) (one GPU's, in offer order; count of them spot_rows),
 * left out: each named, or past SPOT_NAMED_PER_GPU one line for the GPU. */
static void spot_offers_omit(decision *d, const kb_price **rows, size_t start, size_t end,
                             size_t spot_offers)
{
    if (spot_offers <= SPOT_NAMED_PER_GPU) {
        for (size_t i = start; i < end; i++)
            if (rows[i]->spot && (i == start || !same_offer(rows[i], rows[i - 1])))
                spot_offer_omit(d, rows[i]);
        return;
    }
    const kb_gpu *g = decide_gpu_find(d, rows[start]->gpu);
    gw_buf offer = GW_BUF_INIT;
    buf_printf(&offer, "%zu spot offers", spot_offers);
    decide_omit(d, g, g ? g->name : rows[start]->gpu, buf_cstr(&offer), DECIDE_OMIT_SPOT);
    buf_free(&offer);
}

/* Every offer of the cloud rows (of gpu_filter's GPU, or all), into offers; their number. */
static int rent_offers_collect(decision *d, const char *gpu_filter, rent_offer *offers,
                               size_t *n_offers, gw_error *err)
{
    const kb_price **rows = gw_xmalloc((d->n_prices ? d->n_prices : 1) * sizeof *rows);
    size_t n_rows = 0;
    int rc = GW_OK;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (decide_str_eq(p->kind, "cloud") && decide_str_eq(p->unit, "hour") &&
            (!gpu_filter || decide_str_eq(p->gpu, gpu_filter)) && decide_gpu_find(d, p->gpu))
            rows[n_rows++] = p;
    }
    qsort(rows, n_rows, sizeof *rows, cmp_rent_row);
    *n_offers = 0;
    /* rows are in GPU order: each GPU's spot offers are counted, then left out together */
    size_t gpu_start = 0, spot_offers = 0;
    for (size_t start = 0, end; start < n_rows && rc == GW_OK; start = end) {
        for (end = start + 1; end < n_rows && same_offer(rows[end], rows[start]); end++)
            ;
        if (rows[start]->spot && !d->w->spot_ok)
            spot_offers++;
        else if ((rc = rent_offer_read(d, rows, start, end, &offers[*n_offers], err)) == GW_OK)
            (*n_offers)++;
        if (end == n_rows || strcmp(rows[end]->gpu, rows[gpu_start]->gpu)) {
            if (spot_offers)
                spot_offers_omit(d, rows, gpu_start, end, spot_offers);
            gpu_start = end;
            spot_offers = 0;
        }
    }
    free(rows);
    return rc;
}

/* An offer rented as `instances` instances (more than one: over the network the provider
 * states between them). */
static void add_rent_option(decision *d, const rent_offer *f, int instances, const char *id)
{
    const char *provider = f->first->provider && *f->first->provider ? f->first->provider : NULL;
    const char *instance = f->first->instance && *f->first->instance ? f->first->instance : NULL;
    decide_option *o = option_new(d, f->g, f->count * instances, DECIDE_RENT);
    o->id = gw_xstrdup(id);
    o->hosts = instances;
    o->network_gbps = instances > 1 ? f->terms->network_gbps : NAN;
    o->provider = gw_xstrdup(provider ? provider : "unnamed platform");
    gw_buf shown = GW_BUF_INIT;
    if (instance || f->spot)
        buf_printf(&shown, "%s%s%s", instance ? instance : "", instance && f->spot ? " " : "",
                   f->spot ? "(spot)" : "");
    o->instance = instance || f->spot ? buf_detach(&shown) : NULL;
    buf_free(&shown);
    o->unit_price = f->price * instances;
    o->price_lo = f->lo * instances;
    o->price_hi = f->hi * instances;
    const kb_price *t = f->terms;
    o->offer_quality = t->quality && *t->quality ? gw_xstrdup(t->quality) : NULL;
    o->offer_note = f->note ? gw_xstrdup(f->note) : t->note && *t->note ? gw_xstrdup(t->note)
                                                                          : NULL;
    o->gpu_fraction = t->gpu_fraction > 0 && t->gpu_fraction <= 1 ? t->gpu_fraction : 1;
    o->min_billing_hours = t->min_billing_hours > 0 ? t->min_billing_hours : NAN;
    o->held_back = f->held_back;
    decide_option_dated(o, t->as_of);
    decide_option_cite(d, o, f->first->source);
    decide_option_cite(d, o, f->g->source);
}

/* One option per kept offer, in KB order; of an offer's observations the latest date's median
 * is used. */
static int add_rent_options(decision *d, const char *gpu_filter, gw_error *err)
{
    rent_offer *offers = gw_xmalloc((d->n_prices ? d->n_prices : 1) * sizeof *offers);
    size_t n_offers = 0;
    int rc = rent_offers_collect(d, gpu_filter, offers, &n_offers, err);
    if (rc == GW_OK) {
        size_t aside = rent_offers_choose(d, offers, n_offers);
        d->rent_set_aside += aside;
        if (aside)
            decide_trace(d, "%zu cloud offers set aside: more than %d providers, or a "
                            "provider's dearer or older offer, for one GPU and count",
                         aside, DECIDE_RENT_OFFERS_PER_CONFIG);
        qsort(offers, n_offers, sizeof *offers, cmp_rent_offer_kb_order);
    }
    gw_buf id = GW_BUF_INIT;
    for (size_t i = 0; i < n_offers && rc == GW_OK; i++) {
        if (!offers[i].keep)
            continue;
        /* Several instances only for a job (they finish it sooner, at about the same cost;
         * capacity is a fleet's size, which the offer's count already is), over a network the
         * provider states (multi_host_ok); or to serve a language model, whose replicas need no
         * network between them (decide.c keeps them only where fewer miss the targets). */
        int serving = workload_is_llm(d->w) && decide_str_eq(d->w->task, "inference");
        int most = serving || (workload_is_job(d->w) && offers[i].terms->network_gbps > 0 &&
                               multi_host_ok(d))
                       ? DECIDE_MAX_HOSTS : 1;
        for (int n = 1; n <= most; n *= 2) {
            rent_offer_id(&id, &offers[i], n);
            if (!has_option(d, buf_cstr(&id)))
                add_rent_option(d, &offers[i], n, buf_cstr(&id));
        }
    }
    buf_free(&id);
    for (size_t i = 0; i < n_offers; i++)
        free(offers[i].note);
    free(offers);
    return rc;
}

/* ---- candidates ---- */

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

/* Per GPU, what it is a candidate for (both when the workload names no candidates). */
enum { CANDIDATE_BUY = 1, CANDIDATE_RENT = 2 };

/* The options of one candidate: "rtx-3090", "4x rtx-3090", "rent:a100", "rent:*". */
static int add_candidate(decision *d, size_t i, unsigned char *candidate, gw_error *err)
{
    const workload *w = d->w;
    const char *c = w->candidates[i];
    int rent = !strncmp(c, "rent:", 5);
    const char *name = rent ? c + 5 : c;
    if (rent && (!strcmp(name, "*") || !*name)) {   /* every GPU of the KB, to rent */
        for (size_t k = 0; k < d->n_gpus; k++)
            candidate[k] |= CANDIDATE_RENT;
        return add_rent_options(d, NULL, err);
    }
    char *id = NULL;
    int count = 1;
    int rc = kb_gpu_resolve(d->k, name, &id, &count, err);
    if (rc == GW_ENOTFOUND) {
        /* Listed as not considered; an error only if nothing else is (decide_run). */
        gw_error_prefix(err, "%s: candidates[%zu]", w->path, i + 1);
        if (!d->unknown_candidate.code)
            d->unknown_candidate = *err;
        decide_omit(d, NULL, c, NULL, DECIDE_OMIT_UNKNOWN);
        return GW_OK;
    }
    if (rc != GW_OK) {
        gw_error_prefix(err, "%s: candidates[%zu]", w->path, i + 1);
        return rc;
    }
    const kb_gpu *g = decide_gpu_find(d, id);
    if (g)
        candidate[g - d->gpus] |= rent ? CANDIDATE_RENT : CANDIDATE_BUY;
    int explicit_count = count > 1 || written_count(name) ? count : 0;
    if (g) {
        rc = rent ? add_rent_options(d, g->id, err) : add_buy_options(d, g, explicit_count, err);
        gw_buf how = GW_BUF_INIT;
        if (rent) {
            buf_puts(&how, " (its cloud offers)");
        } else if (!explicit_count) {
            for (size_t k = 0; k < N_DEFAULT_COUNTS; k++)
                buf_printf(&how, "%s%d", k ? ", " : " (", default_counts[k]);
            buf_puts(&how, " cards)");
        }
        decide_trace(d, "candidate \"%s\" -> %s%s", c, g->id, buf_cstr(&how));
        buf_free(&how);
    }
    free(id);
    return rc;
}

/* Why candidate GPU g (CANDIDATE_* flags in what) became no option: a candidate to rent only
 * that has no cloud offer; else the prices it has that the workload cannot use, or none.  NULL
 * where its spot offers or module prices already say why. */
static const char *no_option_reason(const decision *d, const kb_gpu *g, unsigned what)
{
    int used = 0, new_ = 0;
    for (size_t i = 0; i < d->n_omitted; i++)
        if (decide_str_eq(d->omitted[i].gpu, g->id))
            return NULL;
    if (!(what & CANDIDATE_BUY))
        return DECIDE_OMIT_NO_OFFER;
    for (size_t i = 0; i < d->n_prices; i++) {
        used |= decide_str_eq(d->prices[i].gpu, g->id) && decide_str_eq(d->prices[i].kind, "used");
        new_ |= decide_str_eq(d->prices[i].gpu, g->id) && decide_str_eq(d->prices[i].kind, "new");
    }
    return used && !new_ && !d->w->used_ok ? DECIDE_OMIT_USED_ONLY : DECIDE_OMIT_NO_PRICE;
}

/* Every candidate GPU without an option goes into the not-considered list. */
static void omit_candidates_without_options(decision *d, const unsigned char *candidate)
{
    unsigned char *has = gw_xcalloc(d->n_gpus ? d->n_gpus : 1, 1);
    for (size_t i = 0; i < d->n_options; i++)
        has[d->options[i].gpu - d->gpus] = 1;
    for (size_t i = 0; i < d->n_gpus; i++) {
        if (!candidate[i] || has[i])
            continue;
        const char *reason = no_option_reason(d, &d->gpus[i], candidate[i]);
        if (reason)
            decide_omit(d, &d->gpus[i], d->gpus[i].name, NULL, reason);
    }
    free(has);
}

int decide_options_enumerate(decision *d, gw_error *err)
{
    const workload *w = d->w;
    int rc = GW_OK;
    /* Per GPU: a candidate, named or by "rent:*" or by the absence of a list. */
    unsigned char *candidate = gw_xcalloc(d->n_gpus ? d->n_gpus : 1, 1);
    if (!w->candidates) {
        memset(candidate, CANDIDATE_BUY | CANDIDATE_RENT, d->n_gpus);
        for (size_t i = 0; i < d->n_gpus && rc == GW_OK; i++)
            rc = add_buy_options(d, &d->gpus[i], 0, err);
        if (rc == GW_OK)
            rc = add_rent_options(d, NULL, err);
    } else {
        for (size_t i = 0; i < w->n_candidates && rc == GW_OK; i++)
            rc = add_candidate(d, i, candidate, err);
    }
    if (rc == GW_OK)
        omit_candidates_without_options(d, candidate);
    free(candidate);
    return rc;
}
