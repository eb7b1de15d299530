/* decide_rent.c — the options to rent.  Per GPU and card count, the KB's hourly cloud offers are
 * read cheapest per whole card first, through an index (kb_cloud_cursor), until the cheapest
 * offer of each of DECIDE_RENT_OFFERS_PER_CONFIG providers is known for one share of a card
 * (whole cards, or slices of one size: each size is its own option): a catalogue of 100,000
 * offers is read only as far as an offer could still be compared, and of the held-back offers
 * (stale, launch, anecdotal) only the few cheaper than one kept that are shown.  Each offer is
 * priced by the row that stands for it (decide_options.h: a current price of the best kind, the
 * freshest), a 'from' figure as a range up to the highest current list price of the GPU and
 * count.  A provider's older price is set aside where its newer list prices the same GPU and
 * count (an offer of one row is asked that before the rest of its row is read); a spot offer is
 * left out unless the workload's work can be interrupted (spot_ok). */
#include "base/check.h"
#include "base/units.h"
#include "decide_rent.h"
#include "decide_cost.h"
#include "decide_demand.h"
#include "decide_infeasible.h"
#include "decide_llm.h"
#include "decide_options.h"
#include "decide_speed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The order kb_prices_find gives (gpu, kind, as_of, currency, amount, id): options keep it. */
/* GPUs per instance of a price row: whole and within the KB's range even for a file changed
 * outside gpuwise (an unknown count is one GPU). */
static int gpus_per_instance(double gpu_count)
{
    return (int)gw_double_to_ll(floor(gpu_count), 1, KB_GPU_COUNT_MAX, 1);
}

static int price_kb_order(const kb_price *p, const kb_price *q)
{
    int c = strcmp(p->gpu, q->gpu);
    if (!c)
        c = strcmp(p->kind, q->kind);
    if (!c)
        c = strcmp(p->as_of ? p->as_of : "", q->as_of ? q->as_of : "");
    if (!c)
        c = strcmp(p->currency, q->currency);
    if (!c)
        c = (p->amount > q->amount) - (p->amount < q->amount);
    if (!c)
        c = (p->id > q->id) - (p->id < q->id);
    return c;
}

/* The share of a card each GPU of p's instance is, as a slice is computed with (a catalogue's
 * 0.167 is 1/6: decide_fraction_exact). */
static double row_fraction(const kb_price *p)
{
    return decide_fraction_exact(p->gpu_fraction);
}

static const char *row_seller(const kb_price *p)
{
    return p->provider && *p->provider ? p->provider : p->source ? p->source : "unnamed";
}

/* The regions rows name, each once, ";"-separated (the residency check reads them); NULL
 * none.  Caller frees. */
static char *rows_regions(const kb_price *rows, size_t n_rows)
{
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < n_rows; i++) {
        const char *r = rows[i].region;
        int seen = 0;
        for (size_t j = 0; r && *r && j < i && !seen; j++)
            seen = rows[j].region && !strcmp(rows[j].region, r);
        if (r && *r && !seen) {
            if (b.len)
                buf_puts(&b, ";");
            buf_puts(&b, r);
        }
    }
    if (b.len)
        return buf_detach(&b);
    buf_free(&b);
    return NULL;
}

/* One offer: the rows of one GPU, count, source, provider, instance and spot flag (a spot price
 * is never averaged with an on-demand one: issue 13). */
typedef struct {
    kb_price *rows;          /* owned: latest date first (kb_cloud_offer_rows) */
    size_t n_rows;
    const kb_price *first;   /* its first row in KB order: options keep that order */
    const kb_price *terms;   /* its latest row: quality, fraction, minimum billing, note */
    const kb_gpu *g;
    int count;
    const char *seller;      /* provider, else source: the name in the option's id */
    double price, lo, hi;    /* per instance-hour, in the workload's currency */
    int spot;                /* interruptible: an option only with spot_ok */
    int held_back;           /* a price the workload does not accept (decide_price_standing) */
    int standing;            /* its terms' DECIDE_STANDS_* */
    const char *rate_as_of;  /* the date of the rate that converted it; NULL none */
    double per_card_hour;    /* price / gpu_fraction: a slice's price for a whole card's work */
    int in_region;           /* in the workload's region: 1, 0 not, -1 unknown or none asked
                              * (decide_offer_in_region) */
    char *note;              /* the caveats of the rows used (owned): the latest row's note, or
                              * for several prices of one date, all of their notes */
    int latest;              /* no later price of its seller's terms (kb_cursor_offer); 0: ask */
} rent_offer;

typedef struct {
    rent_offer *v;
    size_t n, cap;
} rent_offers;

static void rent_offer_free(rent_offer *f)
{
    kb_prices_free(f->rows, f->n_rows);
    free(f->note);
}

static void rent_offers_push(rent_offers *l, const rent_offer *f)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = gw_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = *f;
}

static void rent_offers_free(rent_offers *l)
{
    for (size_t i = 0; i < l->n; i++)
        rent_offer_free(&l->v[i]);
    free(l->v);
}

/* Cheapest per whole card's work first, anecdotal prices the workload does not accept after
 * every other (they may be shown, never recommended); ties go to the earlier offer. */
static int cmp_rent_offer(const void *a, const void *b)
{
    const rent_offer *x = a, *y = b;
    int c = x->held_back - y->held_back;
    if (!c)
        c = (x->per_card_hour > y->per_card_hour) - (x->per_card_hour < y->per_card_hour);
    if (!c)
        c = price_kb_order(x->first, y->first);
    return c;
}

static int cmp_rent_offer_kb_order(const void *a, const void *b)
{
    return price_kb_order(((const rent_offer *)a)->first, ((const rent_offer *)b)->first);
}

static void rent_offer_id(gw_buf *id, const rent_offer *f, int instances)
{
    const char *instance = f->first->instance && *f->first->instance ? f->first->instance : "-";
    decide_rent_id(id, f->seller, instance, f->spot, f->count * instances, f->g->id);
}

/* Whether offers of each set of regions met are in the workload's region
 * (decide_offer_in_region), once per set: a catalogue names few (8 M instructions spared). */
#define REGION_SETS_KEPT 16
typedef struct {
    char *regions[REGION_SETS_KEPT];   /* owned; NULL: offers that name no region */
    int in[REGION_SETS_KEPT];
    size_t n;
} region_answers;

static int offer_in_region(decision *d, region_answers *a, char *regions)
{
    for (size_t i = 0; i < a->n; i++)
        if (regions && a->regions[i] ? !strcmp(regions, a->regions[i]) : regions == a->regions[i])
            return a->in[i];
    int in = decide_offer_in_region(d, regions);
    if (a->n < REGION_SETS_KEPT) {
        a->regions[a->n] = regions ? gw_xstrdup(regions) : NULL;
        a->in[a->n++] = in;
    }
    return in;
}

static void region_answers_free(region_answers *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->regions[i]);
    a->n = 0;
}

/* The offer made of rows (owned by f from here; latest date first): the row that stands for
 * it (decide_price_better: a current price before a stale one, the best kind, the freshest),
 * the median of the rows of its kind and date. */
static int rent_offer_read(decision *d, region_answers *regions_in, kb_price *rows,
                           size_t n_rows, rent_offer *f, gw_error *err)
{
    memset(f, 0, sizeof *f);
    f->rows = rows;
    f->n_rows = n_rows;
    const kb_price *p = &rows[0], *first = p;
    for (size_t j = 1; j < n_rows; j++) {
        if (price_kb_order(&rows[j], first) < 0)
            first = &rows[j];
        if (decide_price_better(d, &rows[j], p))
            p = &rows[j];
    }
    double *values = gw_xmalloc(n_rows * sizeof *values);
    size_t n = 0;
    int rc = GW_OK;
    gw_buf notes = GW_BUF_INIT;
    for (size_t j = 0; j < n_rows && rc == GW_OK; j++) {
        if (!decide_text_same(rows[j].as_of, p->as_of) ||
            !decide_text_same(rows[j].quality, p->quality))
            continue;
        rc = decide_convert(d, rows[j].amount, rows[j].currency, &values[n++], err);
        const decide_rate *rate = rc == GW_OK ? decide_rate_of(d, rows[j].currency) : NULL;
        if (rate && rate->as_of && (!f->rate_as_of || strcmp(rate->as_of, f->rate_as_of) < 0))
            f->rate_as_of = rate->as_of;
        const char *note = rows[j].note;
        if (note && *note && !strstr(buf_cstr(&notes), note)) {
            if (notes.len)
                buf_puts(&notes, " / ");
            buf_puts(&notes, note);
        }
    }
    if (rc == GW_OK) {
        f->first = first;
        f->terms = p;
        f->g = decide_gpu_find(d, p->gpu);
        f->count = gpus_per_instance(p->gpu_count);
        f->seller = row_seller(p);
        f->spot = p->spot;
        f->price = decide_median(values, n);
        f->standing = decide_price_standing(d, p);
        f->held_back = f->standing >= DECIDE_STANDS_HELD;
        f->per_card_hour = f->price / row_fraction(p);
        char *regions = rows_regions(rows, n_rows);
        f->in_region = offer_in_region(d, regions_in, regions);
        free(regions);
        f->lo = values[0];
        f->hi = values[n - 1];
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

/* ---- one GPU and count: the walk cheapest first ---- */

/* One configuration's rows (a spot flag and currency), cheapest first, and the price per whole
 * card-hour of the next one, converted: no offer not yet read is cheaper than that.  Its row
 * has what prices it and its standing until read whole (rent_read_next). */
typedef struct {
    kb_cursor *cursor;
    kb_price row;
    int live;
    int held;      /* the row is held back (decide_price_standing) */
    double bound;
} rent_stream;

static int stream_advance(decision *d, rent_stream *s, gw_error *err)
{
    kb_price_free(&s->row);
    int rc = kb_cursor_next(s->cursor, &s->row, &s->live, err);
    if (rc == GW_OK && s->live) {
        s->held = decide_price_standing(d, &s->row) >= DECIDE_STANDS_HELD;
        rc = decide_convert(d, s->row.amount / row_fraction(&s->row), s->row.currency, &s->bound,
                            err);
    }
    return rc;
}

/* The rows of the offer s's current row is one of (kb_cloud_offer_rows), owned by the caller:
 * the row itself, taken from s, where it is the offer's only one (most are: 35 k instructions
 * of an offer's 80 k spared on a grown KB's walk). */
static int stream_offer_rows(decision *d, rent_stream *s, kb_price **rows, size_t *n,
                             gw_error *err)
{
    if (!kb_cursor_row_alone(s->cursor))
        return kb_cloud_offer_rows(d->k, &s->row, rows, n, err);
    *rows = gw_xmalloc(sizeof **rows);
    (*rows)[0] = s->row;
    *n = 1;
    memset(&s->row, 0, sizeof s->row);   /* moved: stream_advance frees nothing of it */
    return GW_OK;
}

/* The offers read so far, by their earliest row's id (an offer found again through another
 * of its rows is not read twice). */
typedef struct {
    long long *ids;
    size_t n, cap;
} id_set;

static int id_set_add(id_set *s, long long id)   /* 0 when already there */
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        long long *ids = gw_xmalloc(cap * sizeof *ids);
        for (size_t i = 0; i < cap; i++)
            ids[i] = -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->ids[i] >= 0) {
                size_t h = (size_t)s->ids[i] * 2654435761u % cap;
                while (ids[h] >= 0)
                    h = (h + 1) % cap;
                ids[h] = s->ids[i];
            }
        free(s->ids);
        s->ids = ids;
        s->cap = cap;
    }
    size_t h = (size_t)id * 2654435761u % s->cap;
    for (; s->ids[h] >= 0; h = (h + 1) % s->cap)
        if (s->ids[h] == id)
            return 0;
    s->ids[h] = id;
    s->n++;
    return 1;
}

typedef struct {
    decision *d;
    rent_offers *kept;       /* every GPU and count's kept offers */
    size_t first_kept;       /* this GPU and count's start in kept */
    rent_offers pending;     /* read, not yet judged */
    size_t read;             /* offers read */
    region_answers regions_in;
} rent_walk;

/* Whether a held-back row priced at bound per card can go unread: its offer is held back (else
 * another row stands for it), and as many cheaper ones are read as are shown at most. */
static int rent_held_row_passed(const rent_walk *k, double bound)
{
    int cheaper = 0;
    for (size_t i = 0; i < k->pending.n; i++)
        cheaper += k->pending.v[i].held_back && k->pending.v[i].per_card_hour < bound;
    return cheaper >= DECIDE_RENT_OFFERS_PER_CONFIG;
}

/* Judges the pending offer i: kept, or set aside as its provider's dearer or older offer. */
static int rent_judge(rent_walk *k, size_t i, gw_error *err)
{
    rent_offer f = k->pending.v[i];
    k->pending.v[i] = k->pending.v[--k->pending.n];
    int aside = 0;
    /* A provider's spot and on-demand offers are two offers, never one; so are its whole cards
     * and its slices of one, and its offers in and out of the workload's region. */
    for (size_t j = k->first_kept; j < k->kept->n && !aside; j++) {
        const rent_offer *h = &k->kept->v[j];
        aside = !strcmp(h->seller, f.seller) && h->spot == f.spot &&
                row_fraction(h->terms) == row_fraction(f.terms) && h->in_region == f.in_region;
    }
    int rc = GW_OK;
    if (!aside && !f.latest) {
        /* later than the offer's latest row (rows[0]), not than the row that stands for it: an
         * offer's own later row of a worse kind does not set the offer aside */
        rc = kb_cloud_newer(k->d->k, f.terms->id, f.rows[0].id, k->d->w->anecdotal_ok, &aside,
                            err);
    }
    if (rc == GW_OK && !aside)
        rent_offers_push(k->kept, &f);
    else
        rent_offer_free(&f);
    return rc;
}

/* Whether the walk of one GPU and count has what it compares: DECIDE_RENT_OFFERS_PER_CONFIG
 * providers' offers of one share of a card (whole cards, or one size of slice).  Slices of
 * other sizes read before then are kept beside them (each its own option); a size first met
 * later is dearer per card's work than every offer of a full share. */
static int rent_walk_full(const rent_walk *k)
{
    for (size_t i = k->first_kept; i < k->kept->n; i++) {
        size_t same = 0;
        for (size_t j = k->first_kept; j < k->kept->n; j++)
            same += row_fraction(k->kept->v[j].terms) == row_fraction(k->kept->v[i].terms);
        if (same >= DECIDE_RENT_OFFERS_PER_CONFIG)
            return 1;
    }
    return 0;
}

/* The cheapest pending offer, if it is certainly cheaper than any not read (below bound), or
 * any when every row is read; -1 when none. */
static long rent_next_judged(const rent_walk *k, double bound, int exhausted)
{
    long best = -1;
    for (size_t i = 0; i < k->pending.n; i++) {
        const rent_offer *f = &k->pending.v[i];
        if (!exhausted && (f->held_back || !(f->per_card_hour < bound)))
            continue;
        if (best < 0 || cmp_rent_offer(f, &k->pending.v[best]) < 0)
            best = (long)i;
    }
    return best;
}

/* The held-back offers read (a stale, launch or unaccepted anecdotal price) that are cheaper
 * than an offer kept: up to DECIDE_RENT_OFFERS_PER_CONFIG of them, cheapest first, are kept too,
 * to be shown (ranked after the others, never recommended) and re-quoted.  Rows are read
 * cheapest first, so those have been read (rent_held_row_passed). */
static int rent_keep_cheaper_held_back(rent_walk *k, gw_error *err)
{
    double dearest = 0;
    for (size_t j = k->first_kept; j < k->kept->n; j++)
        if (!k->kept->v[j].held_back)
            dearest = fmax(dearest, k->kept->v[j].per_card_hour);
    int rc = GW_OK;
    for (int added = 0; rc == GW_OK && added < DECIDE_RENT_OFFERS_PER_CONFIG; added++) {
        long best = -1;
        for (size_t i = 0; i < k->pending.n; i++) {
            const rent_offer *f = &k->pending.v[i];
            if (f->held_back && f->per_card_hour < dearest &&
                (best < 0 || cmp_rent_offer(f, &k->pending.v[best]) < 0))
                best = (long)i;
        }
        if (best < 0)
            break;
        rc = rent_judge(k, (size_t)best, err);
    }
    return rc;
}

/* Reads the offer of s's current row into k's pending offers, unless already read (seen).  An
 * offer of one row that is not held back is first asked whether its seller prices its terms
 * later (most of a catalogue's are: rent_judge would set it aside); such a one is counted
 * read and set aside, its row not read further (8 M instructions of a grown KB's `rent:*`). */
static int rent_read_next(rent_walk *k, rent_stream *s, id_set *seen, gw_error *err)
{
    kb_price *rows;
    size_t n_rows;
    int alone = 0, newer = 0;
    int rc = s->held ? GW_OK
                     : kb_cursor_offer(s->cursor, k->d->w->anecdotal_ok, &alone, &newer, err);
    if (rc == GW_OK && alone && newer) {
        k->read += id_set_add(seen, s->row.id);
        return stream_advance(k->d, s, err);
    }
    if (rc == GW_OK)
        rc = kb_cursor_row(s->cursor, &s->row, err);
    if (rc == GW_OK)
        rc = stream_offer_rows(k->d, s, &rows, &n_rows, err);
    if (rc == GW_OK && n_rows) {
        long long first_id = rows[0].id;
        for (size_t r = 1; r < n_rows; r++)
            first_id = rows[r].id < first_id ? rows[r].id : first_id;
        if (id_set_add(seen, first_id)) {
            rent_offer f;
            rc = rent_offer_read(k->d, &k->regions_in, rows, n_rows, &f, err);
            f.latest = alone;
            if (rc == GW_OK)
                rent_offers_push(&k->pending, &f);
            else
                rent_offer_free(&f);
            k->read++;
        } else {
            kb_prices_free(rows, n_rows);
        }
    }
    return rc == GW_OK ? stream_advance(k->d, s, err) : rc;
}

static int streams_open(rent_walk *k, const kb_cloud_config *cfg, rent_stream *s, size_t n,
                        gw_error *err)
{
    int rc = GW_OK;
    for (size_t i = 0; i < n && rc == GW_OK; i++)
        if ((rc = kb_cloud_cursor(k->d->k, &cfg[i], &s[i].cursor, err)) == GW_OK)
            rc = stream_advance(k->d, &s[i], err);
    return rc;
}

static void streams_close(rent_stream *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        kb_price_free(&s[i].row);
        kb_cursor_close(s[i].cursor);
        memset(&s[i], 0, sizeof s[i]);
    }
}

/* One GPU and card count (configurations cfg[0..n): its spot flags and currencies): its offers
 * cheapest first, until DECIDE_RENT_OFFERS_PER_CONFIG are kept or every row is read, a held-back
 * row unread where it cannot be shown (rent_held_row_passed).  Where every row is read and too
 * few kept, the held-back offers are judged next: their rows are then read again, all of them. */
static int rent_walk_config(rent_walk *k, const kb_cloud_config *cfg, size_t n, gw_error *err)
{
    rent_stream *s = gw_xcalloc(n, sizeof *s);
    id_set seen = {0};
    int passed = 0, again = 0;
    k->first_kept = k->kept->n;
    int rc = streams_open(k, cfg, s, n, err);
    while (rc == GW_OK && !rent_walk_full(k)) {
        rent_stream *next = NULL;
        for (size_t i = 0; i < n; i++)
            if (s[i].live && (!next || s[i].bound < next->bound))
                next = &s[i];
        long j = rent_next_judged(k, next ? next->bound : INFINITY, !next);
        if (j >= 0 && !next && passed && k->pending.v[j].held_back) {
            streams_close(s, n);
            rc = streams_open(k, cfg, s, n, err);
            passed = 0, again = 1;
        } else if (j >= 0) {
            rc = rent_judge(k, (size_t)j, err);
        } else if (!next) {
            break;
        } else if (next->held ? !again && rent_held_row_passed(k, next->bound)
                       : again) {   /* read again: only the held-back rows */
            passed |= !again;
            rc = stream_advance(k->d, next, err);
        } else {
            rc = rent_read_next(k, next, &seen, err);
        }
    }
    if (rc == GW_OK)
        rc = rent_keep_cheaper_held_back(k, err);
    for (size_t i = 0; i < k->pending.n; i++)
        rent_offer_free(&k->pending.v[i]);
    k->pending.n = 0;
    streams_close(s, n);
    free(s);
    free(seen.ids);
    return rc;
}

/* ---- spot offers left out ---- */

/* A spot offer is left out unless the workload says its work can be interrupted (spot_ok): a
 * spot instance can be taken back at any time.  Each is named while a GPU has a few prices;
 * past SPOT_NAMED_PER_GPU, a GPU's spot prices are one line with their number (a catalogue of
 * thousands would otherwise bury the report). */
#define SPOT_NAMED_PER_GPU 3

static int same_offer(const kb_price *p, const kb_price *q)
{
    return !strcmp(p->gpu, q->gpu) &&
           gpus_per_instance(p->gpu_count) == gpus_per_instance(q->gpu_count) &&
           decide_text_same(p->source, q->source) &&
           decide_text_same(p->provider, q->provider) &&
           decide_text_same(p->instance, q->instance) && p->spot == q->spot;
}

static int spot_offers_omit(decision *d, const kb_gpu *g, gw_error *err)
{
    kb_price *rows;
    size_t n, total;
    int rc = kb_cloud_rows(d->k, g->id, 1, SPOT_NAMED_PER_GPU, &rows, &n, &total, err);
    if (rc != GW_OK)
        return rc;
    gw_buf offer = GW_BUF_INIT;
    if (total > SPOT_NAMED_PER_GPU) {
        buf_printf(&offer, "%zu spot prices", total);
        decide_omit(d, g, g->name, buf_cstr(&offer), DECIDE_OMIT_SPOT);
    }
    for (size_t i = 0; i < n; i++) {
        if (i && same_offer(&rows[i], &rows[i - 1]))
            continue;
        buf_reset(&offer);
        if (row_fraction(&rows[i]) < 1) {   /* a slice: by its share, as its option would be */
            units_fraction_words(&offer, row_fraction(&rows[i]));
            buf_printf(&offer, " slice, %s", row_seller(&rows[i]));
        } else {
            buf_printf(&offer, "%gx, %s", rows[i].gpu_count > 0 ? rows[i].gpu_count : 1,
                       row_seller(&rows[i]));
        }
        if (rows[i].instance && *rows[i].instance)
            buf_printf(&offer, ", %s", rows[i].instance);
        decide_omit(d, g, g->name, buf_cstr(&offer), DECIDE_OMIT_SPOT);
    }
    buf_free(&offer);
    kb_prices_free(rows, n);
    return GW_OK;
}

/* ---- the options ---- */

/* The highest current list price of f's GPU (the same spot flag and GPU fraction) in rows:
 * of the same count (per instance-hour) where same_count, else per GPU-hour at any count.
 * Sets *top to its row, NULL where none. */
static int highest_list_price(decision *d, const rent_offer *f, const kb_price *rows, size_t n,
                              int same_count, const kb_price **top, double *top_value,
                              gw_error *err)
{
    int rc = GW_OK;
    *top = NULL;
    *top_value = NAN;
    for (size_t i = 0; i < n && rc == GW_OK; i++) {
        const kb_price *p = &rows[i];
        double value;
        if ((same_count &&
             gpus_per_instance(p->gpu_count) != gpus_per_instance(f->terms->gpu_count)) ||
            p->spot != f->spot || row_fraction(p) != row_fraction(f->terms) ||
            !decide_str_eq(p->quality, DECIDE_PRICE_LIST) ||
            decide_price_standing(d, p) != DECIDE_STANDS_CURRENT)
            continue;
        rc = decide_convert(d, p->amount, p->currency, &value, err);
        if (!same_count)
            value /= p->gpu_count > 0 ? p->gpu_count : 1;
        if (rc == GW_OK && !(value <= *top_value)) {
            *top_value = value;
            *top = p;
        }
    }
    return rc;
}

/* The high end of the 'from' price of f's option o (o->unit_price, for its instances): the
 * highest current list price of the same GPU and count (any provider, the same spot flag and
 * GPU fraction), for as many instances; else the highest such list price per GPU at another
 * count (a superchip's two GPUs priced by a four-GPU instance), for as many GPUs; else the KB's
 * assumed ratio. */
/* The cloud prices of g into d->from_rows, read only when the last look-up was of another GPU:
 * options are made offer by offer, in GPU order, and each instance count of a 'from' offer
 * asks again (a served model's fleet asked 37 times for 4 GPUs' rows: 8% of its report's
 * instructions). */
static int from_rows_of(decision *d, const kb_gpu *g, gw_error *err)
{
    if (d->from_rows_gpu == g)
        return GW_OK;
    kb_prices_free(d->from_rows, d->n_from_rows);
    d->from_rows = NULL;
    d->n_from_rows = 0;
    d->from_rows_gpu = NULL;
    int rc = kb_prices_find(d->k, g->id, "cloud", NULL, &d->from_rows, &d->n_from_rows, err);
    if (rc == GW_OK)
        d->from_rows_gpu = g;
    return rc;
}

static int from_high_to_rent(decision *d, const rent_offer *f, decide_option *o, gw_error *err)
{
    double high = NAN;
    int rc = from_rows_of(d, f->g, err);
    if (rc != GW_OK)
        return rc;
    const kb_price *rows = d->from_rows;
    size_t n = d->n_from_rows;
    const kb_price *top = NULL;
    double top_value = NAN;
    rc = highest_list_price(d, f, rows, n, 1, &top, &top_value, err);
    gw_buf how = GW_BUF_INIT;
    if (rc == GW_OK && top) {
        high = fmax(top_value * o->hosts, o->unit_price);
        buf_printf(&how, "the highest current list price of the same GPU and count, %s's ",
                   row_seller(top));
        decide_money(&how, d, top_value);
        buf_printf(&how, " an hour, of %s", top->as_of ? top->as_of : "no stated date");
        decide_option_cite(d, o, top->source);
    } else if (rc == GW_OK &&
               (rc = highest_list_price(d, f, rows, n, 0, &top, &top_value, err)) == GW_OK &&
               top) {
        double gpus = (f->terms->gpu_count > 0 ? f->terms->gpu_count : 1) * o->hosts;
        high = fmax(top_value * gpus, o->unit_price);
        buf_printf(&how, "%s's list price, ", row_seller(top));
        decide_money(&how, d, top_value);
        buf_printf(&how, " per GPU-hour (%g GPUs an instance, of %s), for its %g GPU%s: the "
                         "highest current list price of this GPU, as none is of its count",
                   top->gpu_count > 0 ? top->gpu_count : 1,
                   top->as_of ? top->as_of : "no stated date", gpus, gpus == 1 ? "" : "s");
        decide_option_cite(d, o, top->source);
    } else if (rc == GW_OK) {
        high = decide_from_high_assumed(d, o, o->unit_price, &how);
    }
    if (rc == GW_OK)
        decide_option_from_range(o, d, high, &how);
    buf_free(&how);
    return rc;
}

/* An offer rented as `instances` instances (more than one: over the network the provider
 * states between them). */
static int add_rent_option(decision *d, const rent_offer *f, int instances, const char *id,
                           gw_error *err)
{
    const char *provider = f->first->provider && *f->first->provider ? f->first->provider : NULL;
    const char *instance = f->first->instance && *f->first->instance ? f->first->instance : NULL;
    decide_option *o = decide_option_new(d, f->g, f->count * instances, DECIDE_RENT);
    o->id = gw_xstrdup(id);
    o->hosts = instances;
    o->network_gbps = instances > 1 ? f->terms->network_gbps : NAN;
    o->provider = gw_xstrdup(provider ? provider : "unnamed platform");
    gw_buf shown = GW_BUF_INIT;
    buf_puts(&shown, instance ? instance : "");
    buf_puts(&shown, !f->spot ? "" : instance ? " (spot)" : "(spot)");
    o->instance = instance || f->spot ? buf_detach(&shown) : NULL;
    buf_free(&shown);
    o->unit_price = f->price * instances;
    o->price_lo = f->lo * instances;
    o->price_hi = f->hi * instances;
    const kb_price *t = f->terms;
    o->offer_note = f->note ? gw_xstrdup(f->note) : t->note && *t->note ? gw_xstrdup(t->note)
                                                                          : NULL;
    o->offer_regions = rows_regions(f->rows, f->n_rows);
    o->gpu_fraction = row_fraction(t);
    o->min_billing_hours = t->min_billing_hours > 0 ? t->min_billing_hours : NAN;
    o->long_billing_after_hours = t->long_billing_after_hours;
    o->long_billing_hours = t->long_billing_hours;
    decide_option_dated(o, t->as_of, d->today);
    decide_option_kind(d, o, t->quality, f->standing, f->rate_as_of);
    decide_option_cite(d, o, f->first->source);
    decide_option_cite(d, o, f->g->source);
    return decide_str_eq(t->quality, DECIDE_PRICE_FROM) ? from_high_to_rent(d, f, o, err) : GW_OK;
}

/* Whether the workload may rent several instances of one offer at all: to serve a language
 * model, whose replicas need no network between them (decide.c keeps them only where fewer
 * miss the targets), or for a job (they finish it sooner, at about the same cost; capacity is a
 * fleet's size, which the offer's count already is) that may span machines (multi_host_ok). */
static int several_instances_ok(const decision *d)
{
    return workload_is_serving(d->w) || (workload_is_job(d->w) && decide_multi_host_ok(d));
}

/* The most instances of per GPUs each that one option may rent: DECIDE_RENT_MAX_GPUS in all (at
 * least one instance). */
static int instances_cap(int per)
{
    return per < DECIDE_RENT_MAX_GPUS ? DECIDE_RENT_MAX_GPUS / per : 1;
}

/* The most instances of offer f tried before a demand is known: several only where the workload
 * may, and (but to serve) over the network the provider states between its instances; a job
 * up to instances_cap (decide.c keeps a count only where half as many cannot do the work), a
 * service 1 to DECIDE_MAX_HOSTS (then sized to its demand: decide_rent_size_to_demand). */
static int most_instances(const decision *d, const rent_offer *f)
{
    if (!several_instances_ok(d) || (!workload_is_serving(d->w) && !(f->terms->network_gbps > 0)))
        return 1;
    return workload_is_serving(d->w) ? DECIDE_MAX_HOSTS : instances_cap(f->count);
}

/* The next number of instances to try after n: doubling (data parallelism halves a job's
 * hours), and for serving 3 besides, the two replicas and a spare a service is often sized as. */
static int next_instances(const decision *d, int n)
{
    int serving = workload_is_serving(d->w);
    return serving && n == 2 ? 3 : serving && n == 3 ? 4 : n * 2;
}

/* The options of the kept offers, in KB order: each offer as 1, 2, (3,) 4 ... instances (up to
 * its most_instances), or where count > 0 only as the instances that make count GPUs (to serve,
 * up to instances_cap). */
static int add_kept_options(decision *d, rent_offers *kept, int count, gw_error *err)
{
    if (kept->n)
        qsort(kept->v, kept->n, sizeof *kept->v, cmp_rent_offer_kb_order);
    gw_buf id = GW_BUF_INIT;
    decide_ids ids = decide_ids_of(d);
    int rc = GW_OK;
    for (size_t i = 0; i < kept->n && rc == GW_OK; i++) {
        const rent_offer *f = &kept->v[i];
        int most = count && workload_is_serving(d->w) ? instances_cap(f->count)
                                                      : most_instances(d, f);
        for (int n = 1; n <= most && rc == GW_OK; n = count ? n + 1 : next_instances(d, n)) {
            if (count && f->count * n != count)
                continue;
            rent_offer_id(&id, f, n);
            if (decide_ids_add(&ids, buf_cstr(&id)))
                rc = add_rent_option(d, f, n, buf_cstr(&id), err);
        }
    }
    decide_ids_free(&ids);
    buf_free(&id);
    return rc;
}

static int cmp_config(const void *a, const void *b)
{
    const kb_cloud_config *x = a, *y = b;
    int c = strcmp(x->gpu, y->gpu);
    if (!c)
        c = (x->gpu_count > y->gpu_count) - (x->gpu_count < y->gpu_count);
    if (!c)
        c = x->spot - y->spot;
    if (!c)
        c = strcmp(x->currency, y->currency);
    return c;
}

/* Whether configuration c can make count GPUs (count 0: any) as instances of its count. */
static int config_makes(const kb_cloud_config *c, int count)
{
    int per = gpus_per_instance(c->gpu_count);
    return !count || (count % per == 0 && count / per <= instances_cap(per));
}

/* Whether d has a rental of g with count GPUs in all. */
static int has_rent_count(const decision *d, const kb_gpu *g, int count)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i].acquisition == DECIDE_RENT && d->options[i].gpu == g &&
            d->options[i].count == count)
            return 1;
    return 0;
}

/* The error for count GPUs of g that no option makes, from g's configurations cfg[0..n) (by
 * count): the counts its offers have, and why none of those that divide count made it. */
static int count_not_made(decision *d, const kb_gpu *g, int count, const kb_cloud_config *cfg,
                          size_t n, gw_error *err)
{
    decide_count_unmade why = {.several_ok = several_instances_ok(d)};
    size_t most = sizeof why.counts / sizeof *why.counts;
    for (size_t i = 0; i < n; i++) {
        int per = cfg[i].gpu_count > 0 ? (int)cfg[i].gpu_count : 1;
        if ((!why.n_counts || why.counts[why.n_counts - 1] != per) && why.n_counts < most)
            why.counts[why.n_counts++] = per;
        if (config_makes(&cfg[i], count)) {
            why.spot_only |= cfg[i].spot && !d->w->spot_ok;
            why.smaller |= per < count;
        }
    }
    return decide_count_unmade_error(d, g, count, &why, err);
}

/* ---- sizing a service's rentals to its demand ---- */

/* The offers a served model's rentals were made of, kept until decide_rent_size_to_demand. */
struct decide_rent_kept {
    rent_offers offers;
};

/* Moves the offers of from (emptied) into d's, to be sized to the demand. */
static void keep_to_size(decision *d, rent_offers *from)
{
    if (!d->rent_kept)
        d->rent_kept = gw_xcalloc(1, sizeof *d->rent_kept);
    for (size_t i = 0; i < from->n; i++)
        rent_offers_push(&d->rent_kept->offers, &from->v[i]);
    from->n = 0;
}

void decide_rent_free(decision *d)
{
    if (d->rent_kept)
        rent_offers_free(&d->rent_kept->offers);
    free(d->rent_kept);
    d->rent_kept = NULL;
    kb_prices_free(d->from_rows, d->n_from_rows);
    d->from_rows = NULL;
    d->n_from_rows = 0;
    d->from_rows_gpu = NULL;
}

/* Whether o serves the demand: it fits, meets the serving targets, has the replicas it needs. */
static int serves_demand(const decision *d, const decide_option *o)
{
    if (!o->fits || isnan(o->throughput) || decide_llm_target_is_missed(d, o))
        return 0;
    char *missed = decide_demand_short(d, o);
    free(missed);
    return !missed;
}

/* The most instances of f its every-workload options tried (1, 2, 3, 4), 0 where one of them
 * serves the demand or none is an option. */
static int instances_tried_short(const decision *d, const rent_offer *f, gw_buf *id)
{
    int most = 0, most_tried = most_instances(d, f);
    for (int n = 1; n <= most_tried; n = next_instances(d, n)) {
        rent_offer_id(id, f, n);
        const decide_option *o = decide_option_find(d, buf_cstr(id));
        if (o && serves_demand(d, o))
            return 0;
        most = o ? n : most;
    }
    return most;
}

/* Offer f rented as more instances than it was tried at (from), one more at a time up to
 * instances_cap, until one serves the demand: that one is kept (evaluated), those short are not
 * (the most tried says what falls short); none past where more replicas cannot help: each
 * serving replica holds one request, or the speed is unknown. */
static int size_offer(decision *d, const rent_offer *f, int from, gw_buf *id, gw_error *err)
{
    int cap = instances_cap(f->count), n;
    for (n = from + 1; n <= cap; n++) {
        rent_offer_id(id, f, n);
        if (decide_has_option(d, buf_cstr(id)))
            return GW_OK;   /* a count named by a candidate: already judged as it is */
        int rc = add_rent_option(d, f, n, buf_cstr(id), err);
        if (rc != GW_OK)
            return rc;
        decide_option *o = &d->options[d->n_options - 1];
        decide_option_fit(d, o);
        size_t n_cites = o->n_cites;
        decide_option_speed_figures(d, o);   /* whether it serves: the figures alone */
        if (serves_demand(d, o)) {   /* kept: its speed again with its words, band, citations */
            o->n_cites = n_cites;
            free(o->throughput_how);
            free(o->throughput_band_basis);
            o->throughput_how = o->throughput_band_basis = NULL;
            decide_option_speed(d, o);
            decide_option_cost(d, o);
            decide_trace(d, "%s: sized to the demand (%d to %d instances of %d GPU%s fell short)",
                         o->id, from, n - 1, f->count, f->count == 1 ? "" : "s");
            return GW_OK;
        }
        int futile = o->sequences <= 1 || (o->fits && isnan(o->throughput));
        decide_option_free(o);
        d->n_options--;
        if (futile)
            break;
    }
    if (n > from + 1)   /* something was tried */
        decide_trace(d, "%s: no count of %d to %d instances serves the demand", buf_cstr(id),
                     from + 1, n > cap ? cap : n);
    return GW_OK;
}

int decide_rent_size_to_demand(decision *d, gw_error *err)
{
    int rc = GW_OK;
    if (!d->rent_kept || d->n_parts) {   /* mixed work is costed as a plan, not sized here */
        decide_rent_free(d);
        return rc;
    }
    rent_offers *kept = &d->rent_kept->offers;
    if (kept->n)
        qsort(kept->v, kept->n, sizeof *kept->v, cmp_rent_offer_kb_order);
    gw_buf id = GW_BUF_INIT;
    for (size_t i = 0; i < kept->n && rc == GW_OK; i++) {
        int from = instances_tried_short(d, &kept->v[i], &id);
        if (from > 0)
            rc = size_offer(d, &kept->v[i], from, &id, err);
    }
    buf_free(&id);
    decide_rent_free(d);
    return rc;
}

int decide_rent_options(decision *d, const char *gpu_filter, int count, gw_error *err)
{
    kb_cloud_config *cfg;
    size_t n_cfg;
    int rc = kb_cloud_configs(d->k, gpu_filter, 1, &cfg, &n_cfg, err);
    if (rc != GW_OK)
        return rc;
    if (n_cfg)
        qsort(cfg, n_cfg, sizeof *cfg, cmp_config);
    if (!d->rent_walked)
        d->rent_walked = gw_xcalloc(d->n_gpus ? d->n_gpus : 1, 1);
    rent_offers kept = {0};
    rent_walk walk = {d, &kept, 0, {0}, 0, {{0}, {0}, 0}};
    for (size_t start = 0, end; start < n_cfg && rc == GW_OK; start = end) {
        const kb_gpu *g = decide_gpu_find(d, cfg[start].gpu);
        for (end = start + 1; end < n_cfg && !strcmp(cfg[end].gpu, cfg[start].gpu); end++)
            ;
        /* rent:X then rent:* reads X once; a count (rent:2x X) reads only the offers that
         * make it, whatever was read before (its options are found again by id) */
        if (!g || (!count && d->rent_walked[g - d->gpus]))
            continue;
        if (!count)
            d->rent_walked[g - d->gpus] = 1;
        int spot_rows = 0;
        for (size_t i = start, j; i < end && rc == GW_OK; i = j) {
            /* one card count: its on-demand configurations, and its spot ones with spot_ok */
            size_t used = 0;
            kb_cloud_config *mine = gw_xmalloc((end - i) * sizeof *mine);
            for (j = i; j < end && cfg[j].gpu_count == cfg[i].gpu_count; j++) {
                spot_rows |= cfg[j].spot;
                if ((!cfg[j].spot || d->w->spot_ok) && config_makes(&cfg[j], count))
                    mine[used++] = cfg[j];
            }
            if (used)
                rc = rent_walk_config(&walk, mine, used, err);
            free(mine);
        }
        if (rc == GW_OK && spot_rows && !d->w->spot_ok)
            rc = spot_offers_omit(d, g, err);
    }
    free(walk.pending.v);
    region_answers_free(&walk.regions_in);
    d->rent_read += walk.read;
    decide_trace(d, "%zu cloud offers read, cheapest first; %zu kept (per GPU, count and share "
                    "of a card, the cheapest of each of the %d cheapest providers)",
                 walk.read, kept.n, DECIDE_RENT_OFFERS_PER_CONFIG);
    if (rc == GW_OK)
        rc = add_kept_options(d, &kept, count, err);
    if (rc == GW_OK && !count && workload_is_serving(d->w))
        keep_to_size(d, &kept);   /* sized to the demand once their options are evaluated */
    rent_offers_free(&kept);
    const kb_gpu *g = gpu_filter ? decide_gpu_find(d, gpu_filter) : NULL;
    if (rc == GW_OK && count && g && n_cfg && !has_rent_count(d, g, count))
        rc = count_not_made(d, g, count, cfg, n_cfg, err);
    kb_cloud_configs_free(cfg, n_cfg);
    return rc;
}
