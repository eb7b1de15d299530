/* cli_offers.c — the `gpuwise offers` command: the cloud offers in the KB (curated ones and those
 * pricing plugins stored), filtered, converted to one currency on request, and sorted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_listing.h"
#include "units.h"
#include "view.h"

typedef struct offer_row {
    const kb_price *p;
    double price, per_gpu;   /* in the shown currency */
    double key_price, key_per_gpu;   /* in USD when a rate allows, to sort across currencies */
    const char *currency;
} offer_row;

static int sort_by_gpu_price;

static int cmp_rows(const void *a, const void *b)
{
    const offer_row *x = a, *y = b;
    double vx = sort_by_gpu_price ? x->key_per_gpu : x->key_price;
    double vy = sort_by_gpu_price ? y->key_per_gpu : y->key_price;
    if (vx != vy)
        return vx < vy ? -1 : 1;
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

static int cmd_offers(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *gpu_name = cli_value(args, "gpu"), *currency = cli_value(args, "currency");
    const char *sort = cli_value(args, "sort");
    double max_price = NAN;
    int spot = cli_flag(args, "spot") ? 1 : cli_flag(args, "no-spot") ? 0 : -1;
    if (cli_flag(args, "spot") && cli_flag(args, "no-spot"))
        return gw_error_set(err, GW_EUSAGE, "--spot and --no-spot exclude each other");
    if (cli_number(args, "max-price", 0, HUGE_VAL, &max_price, err) != GW_OK)
        return GW_EUSAGE;
    if (currency && !units_is_currency(currency))
        return gw_error_set(err, GW_EUSAGE, "--currency: expected a code like USD, not '%s'",
                            currency);
    if (!sort)
        sort = "price_per_gpu";
    kb *k = NULL;
    kb_price *prices = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = find_offers(ctx, k, gpu_name, &prices, &n, err);
    offer_row *rows = gw_xcalloc(n ? n : 1, sizeof *rows);
    size_t nr = 0;
    for (size_t i = 0; rc == GW_OK && i < n; i++) {
        const kb_price *p = &prices[i];
        if (spot >= 0 && p->spot != spot)
            continue;
        offer_row r = {p, p->amount, NAN, NAN, NAN, p->currency};
        if (currency && strcmp(currency, p->currency) != 0) {
            rc = kb_convert(k, p->amount, p->currency, currency, &r.price, err);
            r.currency = currency;
        }
        double count = p->gpu_count > 0 ? p->gpu_count : 1;
        r.per_gpu = r.price / count;
        if (!isnan(max_price) && r.per_gpu > max_price)
            continue;
        gw_error ignore;
        if (kb_convert(k, r.price, r.currency, "USD", &r.key_price, &ignore) != GW_OK)
            r.key_price = r.price;
        r.key_per_gpu = r.key_price / count;
        rows[nr++] = r;
    }
    sort_by_gpu_price = strcmp(sort, "price_per_gpu") == 0;
    if (rc == GW_OK)
        qsort(rows, nr, sizeof *rows, cmp_rows);
    view *root = view_map();
    view_map_set_str(root, "currency", currency);
    view *list = view_map_set(root, "offers", view_list());
    for (size_t i = 0; rc == GW_OK && i < nr; i++) {
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
    if (rc == GW_OK && strcmp(ctx->format, "text") != 0) {
        rc = cli_listing_write(ctx, root, list, offer_columns, err);
    } else if (rc == GW_OK && nr == 0) {
        rc = cli_write_output(ctx, "no cloud offers match\n", 22, err);
    } else if (rc == GW_OK) {
        /* Columns as wide as their longest entry (up to 40 characters), so names stay whole. */
        int w_gpu = 3, w_provider = 8, w_instance = 8;
        for (size_t i = 0; i < nr; i++) {
            const kb_price *p = rows[i].p;
            w_gpu = text_width(p->gpu, w_gpu);
            w_provider = text_width(p->provider, w_provider);
            w_instance = text_width(p->instance, w_instance);
        }
        gw_buf out = GW_BUF_INIT;
        buf_printf(&out, "%-*s %5s  %-*s  %-*s  %-4s %12s %12s  %-10s %s\n", w_gpu, "GPU",
                "COUNT", w_provider, "PROVIDER", w_instance, "INSTANCE", "SPOT", "PER HOUR",
                "PER GPU-H", "AS OF", "SOURCE");
        for (size_t i = 0; i < nr; i++) {
            const kb_price *p = rows[i].p;
            gw_buf price = GW_BUF_INIT, per = GW_BUF_INIT;
            units_format_money(&price, rows[i].price, rows[i].currency, 2);
            units_format_money(&per, rows[i].per_gpu, rows[i].currency, 2);
            buf_printf(&out, "%-*s %5g  %-*.*s  %-*.*s  %-4s %12s %12s  %-10s %s\n", w_gpu,
                    p->gpu, p->gpu_count, w_provider, w_provider, p->provider ? p->provider : "-",
                    w_instance, w_instance, p->instance ? p->instance : "-",
                    p->spot ? "spot" : "-", buf_cstr(&price),
                    buf_cstr(&per), p->as_of ? p->as_of : "-", p->source ? p->source : "-");
            buf_free(&price);
            buf_free(&per);
        }
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
        buf_free(&out);
    }
    view_free(root);
    free(rows);
    kb_prices_free(prices, n);
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
