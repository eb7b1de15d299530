/* decide_options.c — the options of a decision: for every candidate GPU, buying it new or used
 * at 1, 2, 4 or 8 cards, and renting it from each stored cloud offer (the cheapest offers of a
 * few providers per GPU and card count).  Which price stands for an option (a current one of
 * the best kind the KB ranks, the freshest; a launch MSRP, a stale or unaccepted price held
 * back; a 'from' figure as a range, weighed at its high end after the ranking) is decided here,
 * and prices are converted into the workload's currency; sizing, timing and costing them is the
 * next stages' work. */
#include "decide_options.h"
#include "base/check.h"
#include "base/clock.h"
#include "decide_cost.h"
#include "decide_rent.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- which price stands ---- */

/* The KB's price kinds, best first: how prices are weighed is the KB's description, not C's.
 * Only three kinds mean something besides their rank: an article's price (accepted with
 * anecdotal_ok), a launch MSRP (history, never an offer) and a 'from' figure (a lower bound). */
static int load_price_kinds(decision *d, gw_error *err)
{
    return kb_price_kinds(d->k, &d->price_kinds, &d->n_price_kinds, err);
}

void decide_price_rule_sentence(gw_buf *b, const decision *d)
{
    buf_puts(b, "Prices: of a card's or an offer's prices, a current one before one older than "
                "price_max_age_days, then the best kind (");
    for (size_t i = 0; i < d->n_price_kinds; i++)
        buf_printf(b, "%s%s", i ? ", " : "the KB's, best first: ", d->price_kinds[i].id);
    buf_puts(b, "), then the latest (the median when several of that kind share the date). A "
                "launch MSRP, a stale price (unless stale_ok), an article's (unless "
                "anecdotal_ok) and a 'from' figure that loses at the high end of its range are "
                "shown, ranked after the others and never recommended.");
}

void decide_price_kinds_free(decision *d)
{
    kb_price_kinds_free(d->price_kinds, d->n_price_kinds);
}

/* The KB's id of a price kind (borrowed from d); NULL for a kind it does not describe. */
static const char *decide_price_kind_id(const decision *d, const char *quality)
{
    for (size_t i = 0; quality && i < d->n_price_kinds; i++)
        if (!strcmp(d->price_kinds[i].id, quality))
            return d->price_kinds[i].id;
    return NULL;
}

int decide_price_rank(const decision *d, const char *quality)
{
    int rank = kb_price_kind_rank(d->price_kinds, d->n_price_kinds, quality);
    if (rank)
        return rank;
    int worst = 0;   /* a kind the KB does not describe ranks after every kind */
    for (size_t i = 0; i < d->n_price_kinds; i++)
        worst = d->price_kinds[i].rank > worst ? d->price_kinds[i].rank : worst;
    return worst + 1;
}

/* Whether a price of as_of is older than price_max_age_days (decide_price_age_days). */
static int decide_price_stale(const decision *d, const char *as_of)
{
    return decide_price_age_days(as_of, d->today) > d->w->price_max_age_days;
}

int decide_price_standing(const decision *d, const kb_price *p)
{
    if (decide_str_eq(p->quality, DECIDE_PRICE_LAUNCH))
        return DECIDE_STANDS_LAUNCH;
    if (decide_str_eq(p->quality, DECIDE_PRICE_ANECDOTE) && !d->w->anecdotal_ok)
        return DECIDE_STANDS_HELD;
    if (decide_price_stale(d, p->as_of))
        return d->w->stale_ok ? DECIDE_STANDS_STALE_OK : DECIDE_STANDS_HELD;
    return DECIDE_STANDS_CURRENT;
}

int decide_price_better(const decision *d, const kb_price *p, const kb_price *q)
{
    int a = decide_price_standing(d, p), b = decide_price_standing(d, q);
    if (a != b)
        return a < b;
    a = decide_price_rank(d, p->quality);
    b = decide_price_rank(d, q->quality);
    if (a != b)
        return a < b;
    return strcmp(p->as_of ? p->as_of : "", q->as_of ? q->as_of : "") > 0;
}

/* Whether gpu has a price (to buy) observed after as_of that is no launch MSRP. */
static int later_price_exists(const decision *d, const char *gpu, const char *as_of)
{
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (decide_str_eq(p->gpu, gpu) && !decide_str_eq(p->quality, DECIDE_PRICE_LAUNCH) &&
            p->as_of && strcmp(p->as_of, as_of ? as_of : "") > 0)
            return 1;
    }
    return 0;
}

/* Why a price of that standing (DECIDE_STANDS_HELD or _LAUNCH), kind and date of g is held
 * back, one clause into b (nothing for a standing that is not held back). */
static void decide_held_back_reason(gw_buf *b, const decision *d, const kb_gpu *g, int standing,
                                    const char *quality, const char *as_of)
{
    if (standing == DECIDE_STANDS_LAUNCH) {
        buf_printf(b, "it is priced only by the launch MSRP of %s, a historical fact rather than "
                      "an offer", as_of ? as_of : "an unknown date");
        if (g->discontinued && *g->discontinued)
            buf_printf(b, " (the card has not been sold new since %s)", g->discontinued);
        else if (later_price_exists(d, g->id, as_of))
            buf_puts(b, " (later prices of the card exist)");
        return;
    }
    if (standing != DECIDE_STANDS_HELD)
        return;
    int article = decide_str_eq(quality, DECIDE_PRICE_ANECDOTE) && !d->w->anecdotal_ok;
    if (article)
        buf_puts(b, "only an article gives its price (set anecdotal_ok = true to accept such "
                    "prices)");
    if (decide_price_stale(d, as_of) && !d->w->stale_ok)
        buf_printf(b, "%sits price is of %s, %.0f days old, older than the workload's "
                      "price_max_age_days (%g): re-quote it (stale_ok = true only ranks it at this "
                      "price)",
                   article ? "; " : "", as_of, decide_price_age_days(as_of, d->today),
                   d->w->price_max_age_days);
}

/* Marks o held back, adding because (copied) to its reasons. */
static void decide_option_held_back(decide_option *o, const char *because)
{
    o->held_back = 1;
    if (!because || !*because || (o->held_back_because && strstr(o->held_back_because, because)))
        return;
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "%s%s%s", o->held_back_because ? o->held_back_because : "",
               o->held_back_because ? "; " : "", because);
    free(o->held_back_because);
    o->held_back_because = buf_detach(&b);
}

decide_held_kind decide_held_back_kind(const decision *d, const decide_option *o)
{
    if (!o->held_back)
        return DECIDE_HELD_NONE;
    if (decide_str_eq(o->price_kind, DECIDE_PRICE_LAUNCH))
        return DECIDE_HELD_LAUNCH;
    if (decide_str_eq(o->price_kind, DECIDE_PRICE_ANECDOTE) && !d->w->anecdotal_ok)
        return DECIDE_HELD_ARTICLE;
    if (o->other_market)
        return DECIDE_HELD_MARKET;
    if (o->price_stale && !d->w->stale_ok)
        return DECIDE_HELD_STALE;
    return o->price_floor ? DECIDE_HELD_FROM : DECIDE_HELD_OTHER;
}

void decide_held_back_count(gw_buf *b, const decision *d, decide_held_kind kind, size_t n)
{
    const char *are = n == 1 ? "is" : "are";
    switch (kind) {
    case DECIDE_HELD_LAUNCH:
        buf_printf(b, "%zu %s priced only by a launch MSRP", n, are);
        break;
    case DECIDE_HELD_ARTICLE:
        buf_printf(b, "%zu %s priced only by an article", n, are);
        break;
    case DECIDE_HELD_MARKET:
        buf_printf(b, "%zu %s priced in another market than the workload's region", n, are);
        break;
    case DECIDE_HELD_STALE:
        buf_printf(b, "%zu %s priced longer ago than price_max_age_days (%g days)", n, are,
                   d->w->price_max_age_days);
        break;
    case DECIDE_HELD_FROM:
        buf_printf(b, "%zu %s priced by a 'from' figure that loses at the high end of its range",
                   n, are);
        break;
    default:
        buf_printf(b, "%zu %s held back for another reason", n, are);
    }
}

void decide_option_kind(const decision *d, decide_option *o, const char *quality, int standing,
                        const char *rate_as_of)
{
    free(o->offer_quality);
    o->offer_quality = quality && *quality ? gw_xstrdup(quality) : NULL;
    o->price_kind = decide_price_kind_id(d, quality);
    o->price_stale = decide_price_stale(d, o->price_as_of);
    o->rate_as_of = rate_as_of;
    if (standing >= DECIDE_STANDS_HELD) {
        gw_buf b = GW_BUF_INIT;
        decide_held_back_reason(&b, d, o->gpu, standing, quality, o->price_as_of);
        decide_option_held_back(o, buf_cstr(&b));
        buf_free(&b);
    }
}

/* ---- buying ---- */

/* The prices of one kind for a GPU's cards, or for one system, that an option is made from:
 * the row that stands (decide_price_better: a current price before a stale one, the best kind,
 * the freshest) and the rows of its kind and date, pooled; per card, converted. */
typedef struct price_set {
    double *values;
    const char **sources;
    size_t n;
    int held_back;
    int standing;          /* the standing row's DECIDE_STANDS_* */
    const char *quality;   /* the rows' kind; NULL when none says */
    char *note;            /* the rows' caveats, each once; with several rows, the median said */
    const char *as_of;     /* the date they share */
    const char *rate_as_of;   /* the oldest exchange rate that converted one of them; NULL */
    int elsewhere;         /* the workload names a region the KB has no price of: any region's */
    int elsewhere_only_held;   /* ... or only prices it may not be recommended (held back) */
    const char *region;    /* the latest row's region (NULL: not stated) */
} price_set;

static void price_set_free(price_set *s)
{
    free(s->values);
    free(s->sources);
    free(s->note);
}

static int price_row_of(const kb_price *p, const char *gpu, const char *kind, const char *system)
{
    return decide_str_eq(p->gpu, gpu) && decide_str_eq(p->kind, kind) &&
           (system ? decide_str_eq(p->system, system) : !(p->system && *p->system));
}

static int in_region(const kb_price *p, const char *region)
{
    return !region || (p->region && !strcasecmp(p->region, region));
}

/* The region whose prices the option is made from: the workload's where the KB prices the card
 * there at a price the workload may be recommended (decide_price_standing: current, or stale
 * with stale_ok; an article's only with anecdotal_ok; never a launch MSRP); else any region's
 * such price; else the region's, else any (held back).  NULL: any region.  Says in out whether
 * it is elsewhere. */
static const char *price_region(const decision *d, const char *gpu, const char *kind,
                                const char *system, price_set *out)
{
    const char *region = d->w->region;
    size_t regional = 0, regional_ok = 0, any_ok = 0;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        int ok = decide_price_standing(d, p) <= DECIDE_STANDS_STALE_OK;
        if (price_row_of(p, gpu, kind, system)) {
            regional += in_region(p, region);
            regional_ok += in_region(p, region) && ok;
            any_ok += ok;
        }
    }
    if (region && !regional_ok && (any_ok || !regional))
        region = NULL;
    out->elsewhere = d->w->region && !region;
    out->elsewhere_only_held = out->elsewhere && regional;
    return region;
}

/* out's note from the rows' caveats (notes, taken): several prices of one date are pooled, so
 * that is said, with each one's caveats (one may read "four cards together" while the median
 * per card is what is used). */
static void pooled_note(const decision *d, price_set *out, gw_buf *notes)
{
    if (out->n > 1 && notes->len) {
        double lo = out->values[0], hi = out->values[0];
        for (size_t i = 1; i < out->n; i++) {
            lo = out->values[i] < lo ? out->values[i] : lo;
            hi = out->values[i] > hi ? out->values[i] : hi;
        }
        gw_buf b = GW_BUF_INIT;
        buf_printf(&b, "The median of %zu prices, ", out->n);
        decide_money(&b, d, lo);
        buf_puts(&b, " to ");
        decide_money(&b, d, hi);
        buf_printf(&b, " a card: %s", buf_cstr(notes));
        out->note = buf_detach(&b);
        buf_free(notes);
    } else {
        out->note = notes->len ? buf_detach(notes) : NULL;
    }
}

/* p's price per card in the workload's currency; *rate_as_of gets the older of its rate's date
 * and the one there. */
static int per_card(decision *d, const kb_price *p, double *out, const char **rate_as_of,
                    gw_error *err)
{
    int rc = decide_convert(d, p->amount / (p->gpu_count > 0 ? p->gpu_count : 1), p->currency,
                            out, err);
    const decide_rate *r = rc == GW_OK ? decide_rate_of(d, p->currency) : NULL;
    if (r && r->as_of && (!*rate_as_of || strcmp(r->as_of, *rate_as_of) < 0))
        *rate_as_of = r->as_of;
    return rc;
}

/* Fills out with gpu's (or system's) prices of kind; out is filled, and freed by the caller
 * with price_set_free, even on an error (a currency the KB has no rate for). */
static int standing_prices(decision *d, const char *gpu, const char *kind, const char *system,
                         price_set *out, gw_error *err)
{
    size_t rows = 0;
    const kb_price *stands = NULL;
    memset(out, 0, sizeof *out);
    const char *region = price_region(d, gpu, kind, system, out);
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (price_row_of(p, gpu, kind, system) && in_region(p, region)) {
            rows++;
            if (!stands || decide_price_better(d, p, stands))
                stands = p;
        }
    }
    out->values = gw_xmalloc((rows ? rows : 1) * sizeof *out->values);
    out->sources = gw_xmalloc((rows ? rows : 1) * sizeof *out->sources);
    if (!stands)
        return GW_OK;
    out->standing = decide_price_standing(d, stands);
    /* Another region's price is shown, never recommended: not a price this buyer can pay. */
    out->held_back = out->standing >= DECIDE_STANDS_HELD || (d->w->region && !region);
    out->quality = stands->quality;
    gw_buf notes = GW_BUF_INIT;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        if (!price_row_of(p, gpu, kind, system) || !in_region(p, region) ||
            !decide_text_same(p->quality, stands->quality) ||
            !decide_text_same(p->as_of, stands->as_of))
            continue;
        double value;
        int rc = per_card(d, p, &value, &out->rate_as_of, err);
        if (rc != GW_OK) {
            buf_free(&notes);
            return rc;
        }
        if (p->note && *p->note && !strstr(buf_cstr(&notes), p->note))
            buf_printf(&notes, "%s%s", notes.len ? " / " : "", p->note);
        out->region = p->region && *p->region ? p->region : NULL;
        out->as_of = p->as_of;
        out->sources[out->n] = p->source;
        out->values[out->n++] = value;
    }
    pooled_note(d, out, &notes);
    return GW_OK;
}

/* The high end of a 'from' price low of gpu bought as kind (in system): the highest current
 * list price of that card (any region), else low x the KB's assumed factor, which o cites.
 * Says in note where it comes from. */
static double from_high_to_buy(decision *d, decide_option *o, const char *kind, double low,
                               gw_buf *note)
{
    double high = NAN;
    const char *as_of = NULL, *rate_as_of = NULL;
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        double value;
        if (price_row_of(p, o->gpu->id, kind, o->system ? o->system->id : NULL) &&
            decide_str_eq(p->quality, DECIDE_PRICE_LIST) &&
            decide_price_standing(d, p) == DECIDE_STANDS_CURRENT &&
            per_card(d, p, &value, &rate_as_of, NULL) == GW_OK && !(value <= high)) {
            high = value;
            as_of = p->as_of;
        }
    }
    if (!isnan(high)) {
        buf_puts(note, "the highest current list price of the card, ");
        decide_money(note, d, high);
        buf_printf(note, " a card, of %s", as_of ? as_of : "no stated date");
        return high > low ? high : low;
    }
    return decide_from_high_assumed(d, o, low, note);
}

double decide_from_high_assumed(decision *d, decide_option *o, double low, gw_buf *note)
{
    const kb_assumption *f = &d->facts[KB_ASSUMED_FROM_HIGH];
    decide_fact_cite(d, KB_ASSUMED_FROM_HIGH);
    decide_option_cite(d, o, f->source);
    buf_printf(note, "the figure x %g, the KB's assumed ratio of a 'from' price's high end to "
                     "its figure, as it holds no current list price of this GPU and count",
               f->value);
    return low * f->value;
}

void decide_option_from_range(decide_option *o, const decision *d, double high, gw_buf *how)
{
    o->price_floor = 1;
    o->price_lo = o->unit_price;
    o->price_hi = high;
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, "A 'from' price is a lower bound: its range is ");
    decide_money(&b, d, o->price_lo);
    buf_puts(&b, " to ");
    decide_money(&b, d, o->price_hi);
    buf_printf(&b, " (its high end: %s).%s%s", buf_cstr(how), o->offer_note ? " " : "",
               o->offer_note ? o->offer_note : "");
    free(o->offer_note);
    o->offer_note = buf_detach(&b);
}

/* Cards one machine of g takes: the workload's, else a desktop's four consumer cards or a
 * server's eight. */
static int cards_per_host(const decision *d, const kb_gpu *g)
{
    if (d->w->cards_per_host > 0)
        return (int)d->w->cards_per_host;
    return decide_gpu_is_consumer(g) ? DECIDE_CONSUMER_PER_HOST : DECIDE_SERVER_PER_HOST;
}

/* Machines for count cards, as whole machines and at most DECIDE_MAX_HOSTS; 0 when that is not
 * an option (multi_host_ok). */
static int hosts_for(const decision *d, int count, int per_host)
{
    if (count <= per_host)
        return 1;
    if (count % per_host || count / per_host > DECIDE_MAX_HOSTS || !decide_multi_host_ok(d))
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
    if (decide_has_option(d, buf_cstr(&id))) {
        buf_free(&id);
        return NULL;
    }
    decide_option *o = decide_option_new(d, g, count, a);
    o->id = buf_detach(&id);
    o->hosts = hosts;
    o->system = sys;
    o->network_gbps = hosts < 2 ? NAN : sys ? sys->network_gbps : d->w->network_gbps;
    decide_option_host(d, o);
    o->unit_price = decide_median(prices->values, prices->n);
    o->price_lo = prices->values[0];
    o->price_hi = prices->values[prices->n - 1];
    o->held_back = prices->held_back;
    o->other_market = prices->elsewhere;
    decide_option_dated(o, prices->as_of, d->today);
    decide_option_kind(d, o, prices->quality, prices->standing, prices->rate_as_of);
    if (prices->elsewhere) {
        /* the buyer's region has no price of the card: say whose price this is */
        gw_buf note = GW_BUF_INIT;
        const char *what = sys ? "price of this server" : a == DECIDE_BUY_USED ? "used price"
                                                                               : "new price";
        if (prices->elsewhere_only_held)
            buf_printf(&note, "The KB's %s %ss of this card may not be recommended (an "
                              "article's without anecdotal_ok, a stale one without stale_ok, or a "
                              "launch MSRP)",
                       d->w->region, what);
        else
            buf_printf(&note, "The KB has no %s %s of this card", d->w->region, what);
        buf_printf(&note, ": this is another market's (%s%s), shown but not recommended; a %s "
                          "quote would settle it.%s%s",
                   prices->region ? prices->region : "region not stated",
                   prices->region ? "" : " by its source", d->w->region, prices->note ? " " : "",
                   prices->note ? prices->note : "");
        o->offer_note = buf_detach(&note);
    } else {
        o->offer_note = prices->note ? gw_xstrdup(prices->note) : NULL;
    }
    if (decide_str_eq(prices->quality, DECIDE_PRICE_FROM)) {
        gw_buf how = GW_BUF_INIT;
        double high = from_high_to_buy(d, o, a == DECIDE_BUY_USED ? "used" : "new",
                                       o->unit_price, &how);
        decide_option_from_range(o, d, high, &how);
        buf_free(&how);
    }
    if (prices->elsewhere)
        decide_option_held_back(o, "another market's price: not one this buyer can pay");
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
        if (count ? count != per * n : n > 1 && !decide_multi_host_ok(d))
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
        int rc = standing_prices(d, g->id, kind, NULL, &prices, err);
        if (rc == GW_OK && prices.n && card)
            add_card_counts(d, g, count, a, &prices);
        else if (rc == GW_OK && prices.n)
            decide_omit(d, g, g->name, used ? "used module" : "new module", DECIDE_OMIT_MODULE);
        price_set_free(&prices);
        int priced = 0, added = 0;   /* priced: the GPUs of the last priced server */
        for (size_t s = 0; s < d->n_systems && rc == GW_OK; s++) {
            const kb_system *sys = &d->systems[s];
            if (!decide_str_eq(sys->gpu, g->id) || !(sys->gpu_count >= 1))
                continue;
            rc = standing_prices(d, g->id, kind, sys->id, &prices, err);
            if (rc == GW_OK && prices.n) {
                priced = (int)sys->gpu_count;
                added += add_system_counts(d, g, count, a, sys, &prices);
            }
            price_set_free(&prices);
        }
        if (priced && !added) {   /* a count no server holds: "1x h100-sxm5" */
            char offer[64];
            snprintf(offer, sizeof offer, "%s: %d asked, servers of %d", kind, count, priced);
            decide_omit(d, g, g->name, offer, DECIDE_OMIT_NOT_WHOLE);
        }
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
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

/* The options of one candidate: "rtx-3090", "4x rtx-3090", "rent:a100", "rent:2x a100" (2 GPUs
 * in all: one instance of 2 or two of 1; an error where no offer makes them), "rent:*". */
static int add_candidate(decision *d, size_t i, unsigned char *candidate, gw_error *err)
{
    const workload *w = d->w;
    const char *c = w->candidates[i];
    int rent = !strncmp(c, "rent:", 5);
    const char *name = rent ? c + 5 : c;
    if (rent && (!strcmp(name, "*") || !*name)) {   /* every GPU of the KB, to rent */
        for (size_t k = 0; k < d->n_gpus; k++)
            candidate[k] |= CANDIDATE_RENT;
        return decide_rent_options(d, NULL, 0, err);
    }
    char *id = NULL;
    int count = 1;
    int rc = kb_gpu_resolve(d->k, name, &id, &count, err);
    if (rc != GW_OK) {
        /* A name the KB does not know (or knows several GPUs by) is a mistake in the file, never
         * a candidate left out in silence; workload_load has said so with the line already. */
        gw_error_prefix(err, "%s: candidates[%zu]", w->path, i + 1);
        return rc == GW_ENOTFOUND ? (err->code = GW_EDATA) : rc;
    }
    const kb_gpu *g = decide_gpu_find(d, id);
    if (g)
        candidate[g - d->gpus] |= rent ? CANDIDATE_RENT : CANDIDATE_BUY;
    int explicit_count = count > 1 || written_count(name) ? count : 0;
    if (g) {
        rc = rent ? decide_rent_options(d, g->id, explicit_count, err)
                  : add_buy_options(d, g, explicit_count, err);
        if (rc != GW_OK && rent && explicit_count)   /* a count no offer makes */
            gw_error_prefix(err, "%s: candidates[%zu] (%s)", w->path, i + 1, c);
        gw_buf how = GW_BUF_INIT;
        if (rent && explicit_count) {
            buf_printf(&how, " (its cloud offers that make %d GPUs: one instance of %d, or "
                             "several of fewer)",
                       explicit_count, explicit_count);
        } else if (rent) {
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
    if (!(what & CANDIDATE_BUY))
        return DECIDE_OMIT_NO_OFFER;
    for (size_t i = 0; i < d->n_prices; i++) {
        used |= decide_str_eq(d->prices[i].gpu, g->id) && decide_str_eq(d->prices[i].kind, "used");
        new_ |= decide_str_eq(d->prices[i].gpu, g->id) && decide_str_eq(d->prices[i].kind, "new");
    }
    return used && !new_ && !d->w->used_ok ? DECIDE_OMIT_USED_ONLY : DECIDE_OMIT_NO_PRICE;
}

/* Every candidate GPU without an option goes into the not-considered list, unless an entry
 * there (its spot offers, its module prices) already says why.  Each GPU is looked at once, in
 * one pass over the list: a KB of specs names hundreds of GPUs without an offer, and a search
 * of the list for each cost as much as the rest of the options' enumeration. */
static void omit_candidates_without_options(decision *d, const unsigned char *candidate)
{
    unsigned char *has = gw_xcalloc(d->n_gpus ? d->n_gpus : 1, 1);
    for (size_t i = 0; i < d->n_options; i++)
        has[d->options[i].gpu - d->gpus] = 1;
    for (size_t i = 0; i < d->n_omitted; i++) {
        const kb_gpu *g = decide_gpu_find(d, d->omitted[i].gpu);
        if (g)
            has[g - d->gpus] = 1;
    }
    for (size_t i = 0; i < d->n_gpus; i++) {
        if (!candidate[i] || has[i])
            continue;
        const char *reason = no_option_reason(d, &d->gpus[i], candidate[i]);
        if (reason)
            decide_omit_new(d, &d->gpus[i], d->gpus[i].name, NULL, reason);
    }
    free(has);
}

int decide_options_enumerate(decision *d, gw_error *err)
{
    const workload *w = d->w;
    int rc = load_price_kinds(d, err);
    if (rc != GW_OK)
        return rc;
    /* Per GPU: a candidate, named or by "rent:*" or by the absence of a list. */
    unsigned char *candidate = gw_xcalloc(d->n_gpus ? d->n_gpus : 1, 1);
    if (!w->candidates) {
        memset(candidate, CANDIDATE_BUY | CANDIDATE_RENT, d->n_gpus);
        for (size_t i = 0; i < d->n_gpus && rc == GW_OK; i++)
            rc = add_buy_options(d, &d->gpus[i], 0, err);
        if (rc == GW_OK)
            rc = decide_rent_options(d, NULL, 0, err);
    } else {
        for (size_t i = 0; i < w->n_candidates && rc == GW_OK; i++)
            rc = add_candidate(d, i, candidate, err);
    }
    if (rc == GW_OK)
        omit_candidates_without_options(d, candidate);
    free(candidate);
    return rc;
}

/* ---- after the ranking: a 'from' price at its high end ---- */

/* The reason o, a 'from' price, is held back: at price high it costs per_unit_high, no less
 * than rival's ranked figure. */
static char *from_loses_because(const decision *d, const decide_option *o, double per_unit_high,
                                const decide_option *rival)
{
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, "its 'from' price is only a lower bound: at the high end of its range (");
    decide_money(&b, d, o->price_hi);
    buf_printf(&b, " %s) it costs ", o->acquisition == DECIDE_RENT ? "an hour" : "a card");
    decide_money_per_unit(&b, d, per_unit_high);
    buf_printf(&b, " per %s", d->work_unit);
    if (decide_rules_adjustment(o) != 1) {
        buf_printf(&b, " (x %.2f = ", decide_rules_adjustment(o));
        decide_money_per_unit(&b, d, per_unit_high * decide_rules_adjustment(o));
        buf_puts(&b, " ranked)");
    }
    buf_puts(&b, ", no less than the ");
    decide_money_per_unit(&b, d, rival->score);
    buf_puts(&b, " of ");
    decide_option_label(&b, rival, 0);
    return buf_detach(&b);
}

/* Holds o back where at its high end its ranked figure does not beat rival's; 1 if it did. */
static int from_hold_if_loses(decision *d, decide_option *o, const decide_option *rival)
{
    decide_option at;
    decide_option_costed_at(d, o, o->price_hi, o->throughput, &at);
    double high = at.per_unit;
    if (high * decide_rules_adjustment(o) < rival->score)
        return 0;
    char *because = from_loses_because(d, o, high, rival);
    decide_option_held_back(o, because);
    decide_trace(d, "%s held back: %s", o->id, because);
    free(because);
    return 1;
}

int decide_from_check(decision *d)
{
    int held = 0;
    const decide_option *best = NULL;
    for (size_t i = 0; i < d->n_options && !best; i++) {
        decide_option *o = d->ranked[i];
        if (!o->feasible || o->held_back)
            continue;   /* ranked after every option that may be recommended: none is left */
        /* o would be recommended: a 'from' price must still win at its high end */
        const decide_option *rival = NULL;
        for (size_t j = i + 1; j < d->n_options && !rival; j++)
            if (d->ranked[j]->feasible && !d->ranked[j]->held_back)
                rival = d->ranked[j];
        if (!o->price_floor || !rival || !from_hold_if_loses(d, o, rival))
            best = o;
        else
            held++;
    }
    /* the others below it: shown, ranked after, never recommended where they lose at the top */
    for (size_t i = 0; best && i < d->n_options; i++) {
        decide_option *o = d->ranked[i];
        if (o != best && o->feasible && !o->held_back && o->price_floor)
            held += from_hold_if_loses(d, o, best);
    }
    return held;
}

/* ---- what to re-quote ---- */

/* Whether o's price needs a current quote: stale, only a lower bound, dated after the report's
 * date (not current: decide_price_age_days < 0), or an article's figure (the summary's held-back
 * option points here). */
static int requote_worth(const decision *d, const decide_option *o)
{
    return o->price_stale || o->price_floor || o->price_age_days < 0 ||
           decide_held_back_kind(d, o) == DECIDE_HELD_ARTICLE;
}

/* Whether an earlier-ranked option than o (ranked[0..i)) has o's price: its other counts. */
static int requote_listed(const decision *d, size_t i)
{
    const decide_option *o = d->ranked[i];
    for (size_t j = 0; j < i; j++) {
        const decide_option *e = d->ranked[j];
        if (requote_worth(d, e) && e->gpu == o->gpu && e->acquisition == o->acquisition &&
            e->system == o->system && decide_text_same(e->provider, o->provider) &&
            decide_text_same(e->instance, o->instance) &&
            decide_text_same(e->price_as_of, o->price_as_of))
            return 1;
    }
    return 0;
}

view *decide_requote_view(const decision *d)
{
    view *list = view_list();
    gw_buf b = GW_BUF_INIT;
    const decide_option *best = decide_best(d);
    for (size_t i = 0; i < d->n_options && view_len(list) < DECIDE_REQUOTE_MAX; i++) {
        const decide_option *o = d->ranked[i];
        if (!o->feasible || !requote_worth(d, o) || requote_listed(d, i))
            continue;
        /* worth a quote: the recommendation's own price, or one that would beat it if it held */
        if (best && o != best && !(o->score < best->score))
            continue;
        buf_reset(&b);
        if (o->acquisition == DECIDE_RENT)
            buf_printf(&b, "rent %s (%s%s%s)", o->gpu->name, o->provider,
                       o->instance ? ", " : "", o->instance ? o->instance : "");
        else
            buf_printf(&b, "%s %s%s%s", o->acquisition == DECIDE_BUY_USED ? "used" : "new",
                       o->gpu->name, o->system ? " in " : "", o->system ? o->system->name : "");
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "label", buf_cstr(&b));
        view_map_set_str(m, "price_kind", o->price_kind ? o->price_kind : o->offer_quality);
        view_map_set_str(m, "as_of", o->price_as_of);
        if (o->price_age_days < 0)   /* never a negative age: the template says "dated after" */
            view_map_set_bool(m, "dated_after", 1);
        else
            view_map_set_int(m, "age_days", (long long)o->price_age_days);
    }
    buf_free(&b);
    return list;
}

int decide_purchase_ranked(const decision *d)
{
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->feasible && !o->held_back && o->acquisition != DECIDE_RENT)
            return 1;
    }
    return 0;
}
