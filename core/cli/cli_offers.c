/* cli_offers.c — the `gpuwise offers` command: the cloud offers in the KB (curated ones and those
 * pricing plugins stored), filtered, converted to one currency on request, and sorted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_listing.h"
#include "base/units.h"
#include "base/view.h"

typedef struct offer_row {
    const kb_price *p;
    double price, per_gpu;   /* in the shown currency */
    double key;              /* what --sort orders by, in USD when a rate allows (so offers in
                                different currencies compare) */
    const char *currency;
} offer_row;

/* What the options ask of an offer. */
typedef struct offer_filter {
    int spot;                /* 1 only spot, 0 only on-demand, -1 both */
    double max_price;        /* per GPU-hour in the shown currency; NaN: no limit */
    const char *currency;    /* convert to it; NULL: each offer's own */
    int by_gpu_hour;         /* sort by price per GPU-hour, else per instance-hour */
} offer_filter;

static int cmp_rows(const void *a, const void *b)
{
    const offer_row *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    int c = strcmp(x->p->gpu, y->p->gpu);
    return c ? c : (x->p->id < y->p->id ? -1 : x->p->id > y->p->id);
}

/* The width a text column needs for s: at least current, at most 40 characters. */
static int text_width(const char *s, int current)
{
    int n = s ? (int)strlen(s) : 1;
    if (n > 40)
        n = 40;
    return n > current ? n : current;
}

static const cli_column offer_columns[] = {
    {"gpu", "GPU"}, {"gpu_count", "Count"}, {"provider", "Provider"}, {"instance", "Instance"},
    {"region", "Region"}, {"spot", "Spot"}, {"price_per_hour", "Per hour"},
    {"price_per_gpu_hour", "Per GPU-hour"}, {"currency", "Currency"}, {"as_of", "As of"},
    {"source", "Source"}, {NULL, NULL},
};

/* The cloud prices of every GPU that name stands for (a family name gives all its variants,
 * named on the diagnostics stream), or of every GPU when name is NULL. */
static int find_offers(gw_ctx *ctx, kb *k, const char *name, kb_price **prices, size_t *n,
                       gw_error *err)
{
    char **ids = NULL;
    size_t n_ids = 0;
    if (!name)
        return kb_prices_find(k, NULL, "cloud", NULL, prices, n, err);
    int rc = kb_gpu_resolve_family(k, name, &ids, &n_ids, err);
    if (rc == GW_OK && n_ids > 1) {
        fprintf(ctx->diag, "gpuwise offers: '%s' stands for %zu GPUs:", name, n_ids);
        for (size_t i = 0; i < n_ids; i++)
            fprintf(ctx->diag, "%s %s", i ? "," : "", ids[i]);
        fputc('\n', ctx->diag);
    }
    *prices = NULL;
    *n = 0;
    for (size_t i = 0; rc == GW_OK && i < n_ids; i++) {
        kb_price *some = NULL;
        size_t ns = 0;
        rc = kb_prices_find(k, ids[i], "cloud", NULL, &some, &ns, err);
        if (rc == GW_OK && ns) {
            *prices = gw_xrealloc(*prices, (*n + ns) * sizeof **prices);
            memcpy(*prices + *n, some, ns * sizeof *some);
            *n += ns;
        }
        free(some);   /* the rows' strings moved into *prices */
    }
    kb_strings_free(ids, n_ids);
    return rc;
}

/* The offers among prices that pass the filter, converted and sorted, into rows (which point
 * into prices).  Returns the number kept through *nr. */
static int select_rows(kb *k, const kb_price *prices, size_t n, const offer_filter *f,
                       offer_row *rows, size_t *nr, gw_error *err)
{
    *nr = 0;
    for (size_t i = 0; i < n; i++) {
        const kb_price *p = &prices[i];
        if (f->spot >= 0 && p->spot != f->spot)
            continue;
        offer_row r = {p, p->amount, NAN, NAN, p->currency};
        if (f->currency && strcmp(f->currency, p->currency) != 0) {
            int rc = kb_convert(k, p->amount, p->currency, f->currency, &r.price, err);
            if (rc != GW_OK)
                return rc;
            r.currency = f->currency;
        }
        double count = p->gpu_count > 0 ? p->gpu_count : 1;
        r.per_gpu = r.price / count;
        if (!isnan(f->max_price) && r.per_gpu > f->max_price)
            continue;
        double usd;
        gw_error ignore;
        if (kb_convert(k, r.price, r.currency, "USD", &usd, &ignore) != GW_OK)
            usd = r.price;
        r.key = f->by_gpu_hour ? usd / count : usd;
        rows[(*nr)++] = r;
    }
    qsort(rows, *nr, sizeof *rows, cmp_rows);
    return GW_OK;
}

/* {currency, offers: [...]}: what --json prints and the other listings' rows. */
static view *offers_view(const offer_row *rows, size_t nr, const char *currency)
{
    view *root = view_map();
    view_map_set_str(root, "currency", currency);
    view *list = view_map_set(root, "offers", view_list());
    for (size_t i = 0; i < nr; i++) {
        const kb_price *p = rows[i].p;
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "gpu", p->gpu);
        view_map_set_num(m, "gpu_count", p->gpu_count);
        view_map_set_str(m, "provider", p->provider);
        view_map_set_str(m, "instance", p->instance);
        view_map_set_str(m, "region", p->region);
        view_map_set_bool(m, "spot", p->spot);
        view_map_set_num(m, "price_per_hour", rows[i].price);
        view_map_set_num(m, "price_per_gpu_hour", rows[i].per_gpu);
        view_map_set_str(m, "currency", rows[i].currency);
        view_map_set_str(m, "as_of", p->as_of);
        view_map_set_str(m, "source", p->source);
    }
    return root;
}

/* The terminal table: columns as wide as their longest entry (up to 40 characters), so names
 * stay whole. */
static void offers_text(gw_buf *out, const offer_row *rows, size_t nr)
{
    if (nr == 0) {
        buf_puts(out, "no cloud offers match\n");
        return;
    }
    int w_gpu = 3, w_provider = 8, w_instance = 8;
    for (size_t i = 0; i < nr; i++) {
        w_gpu = text_width(rows[i].p->gpu, w_gpu);
        w_provider = text_width(rows[i].p->provider, w_provider);
        w_instance = text_width(rows[i].p->instance, w_instance);
    }
    buf_printf(out, "%-*s %5s  %-*s  %-*s  %-4s %12s %12s  %-10s %s\n", w_gpu, "GPU", "COUNT",
               w_provider, "PROVIDER", w_instance, "INSTANCE", "SPOT", "PER HOUR", "PER GPU-H",
               "AS OF", "SOURCE");
    gw_buf price = GW_BUF_INIT, per = GW_BUF_INIT;
    for (size_t i = 0; i < nr; i++) {
        const kb_price *p = rows[i].p;
        buf_reset(&price);
        buf_reset(&per);
        units_format_money(&price, rows[i].price, rows[i].currency, 2);
        units_format_money(&per, rows[i].per_gpu, rows[i].currency, 2);
        buf_printf(out, "%-*s %5g  %-*.*s  %-*.*s  %-4s %12s %12s  %-10s %s\n", w_gpu, p->gpu,
                   p->gpu_count, w_provider, w_provider, p->provider ? p->provider : "-",
                   w_instance, w_instance, p->instance ? p->instance : "-",
                   p->spot ? "spot" : "-", buf_cstr(&price), buf_cstr(&per),
                   p->as_of ? p->as_of : "-", p->source ? p->source : "-");
    }
    buf_free(&price);
    buf_free(&per);
}

/* The options as a filter; GW_EUSAGE for a contradiction or a bad value. */
static int read_filter(const cli_args *args, offer_filter *f, gw_error *err)
{
    const char *sort = cli_value(args, "sort");
    f->spot = cli_flag(args, "spot") ? 1 : cli_flag(args, "no-spot") ? 0 : -1;
    f->max_price = NAN;
    f->currency = cli_value(args, "currency");
    f->by_gpu_hour = !sort || strcmp(sort, "price_per_gpu") == 0;
    if (cli_flag(args, "spot") && cli_flag(args, "no-spot"))
        return gw_error_set(err, GW_EUSAGE, "--spot and --no-spot exclude each other");
    if (cli_number(args, "max-price", 0, HUGE_VAL, &f->max_price, err) != GW_OK)
        return GW_EUSAGE;
    if (f->currency && !units_is_currency(f->currency))
        return gw_error_set(err, GW_EUSAGE, "--currency: expected a code like USD, not '%s'",
                            f->currency);
    return GW_OK;
}

static int cmd_offers(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    offer_filter f;
    int rc = read_filter(args, &f, err);
    if (rc != GW_OK)
        return rc;
    kb *k = NULL;
    kb_price *prices = NULL;
    offer_row *rows = NULL;
    size_t n = 0, nr = 0;
    if ((rc = cli_open_kb(ctx, 0, &k, err)) == GW_OK &&
        (rc = find_offers(ctx, k, cli_value(args, "gpu"), &prices, &n, err)) == GW_OK) {
        rows = gw_xcalloc(n ? n : 1, sizeof *rows);
        rc = select_rows(k, prices, n, &f, rows, &nr, err);
    }
    if (rc == GW_OK && strcmp(ctx->format, "text") != 0) {
        view *root = offers_view(rows, nr, f.currency);
        rc = cli_listing_write(ctx, root, view_map_get(root, "offers"), offer_columns, err);
        view_free(root);
    } else if (rc == GW_OK) {
        gw_buf out = GW_BUF_INIT;
        offers_text(&out, rows, nr);
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
        buf_free(&out);
    }
    free(rows);
    kb_prices_free(prices, n);
    if (k)
        kb_close(k);
    return rc;
}

static const cli_option offers_options[] = {
    {"gpu", 0, "NAME", CLI_GPU, NULL,
     "only this GPU, named as people write it (\"H100 SXM\", A100-80GB); a family name "
     "(`h100`) means every variant, and the variants are named", 0},
    {"max-price", 0, "X", CLI_TEXT, NULL,
     "only offers whose price per GPU-hour is at most X (in `--currency` when given, else in "
     "each offer's own currency)", 0},
    {"currency", 0, "CUR", CLI_TEXT, NULL,
     "convert every price to CUR (USD, CNY, EUR, ...) with the KB's exchange rates", 0},
    {"sort", 0, "KEY", CLI_CHOICE, "price_per_gpu|price",
     "order by the price per GPU-hour (the default) or per instance-hour", 0},
    {"spot", 0, NULL, CLI_TEXT, NULL, "only spot (interruptible) offers", 0},
    {"no-spot", 0, NULL, CLI_TEXT, NULL, "only on-demand offers", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command offers_commands[] = {
    {"offers", NULL, 0, 0, CLI_TEXT,
     "list cloud GPU offers from the KB (filter, convert, sort)",
     "Lists the cloud GPU offers in the KB: the curated ones and those `gpuwise prices refresh` "
     "stored, cheapest first.  Prices in different currencies are ordered by their value in USD "
     "where the KB has a rate.  Exit status: 0 ok, 64 usage, 67 an unknown GPU or a currency "
     "without a rate.",
     offers_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cmd_offers, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_offers_group = {
    "offers", "list cloud GPU offers from the KB (filter, convert, sort)", NULL,
    offers_commands,
};
