/* cli_offers.c — the `gpuwise offers` command: the cloud offers in the KB (curated ones and those
 * pricing plugins stored), filtered, converted to one currency on request, and sorted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "units.h"
#include "view.h"

static const char offers_usage[] =
    "usage: gpuwise offers [--gpu NAME] [--max-price X] [--currency CUR]\n"
    "                      [--sort price|price_per_gpu] [--spot|--no-spot] [--json]\n"
    "\n"
    "Cloud GPU offers from the KB: the curated ones and those `gpuwise prices refresh` stored.\n"
    "  --gpu NAME        one GPU, named as people write it (\"H100 SXM\", A100-80GB)\n"
    "  --max-price X     only offers whose price per GPU-hour is at most X (in --currency\n"
    "                    when given, else in each offer's own currency)\n"
    "  --currency CUR    convert every price to CUR with the KB's exchange rates\n"
    "  --sort KEY        price (per instance-hour) or price_per_gpu (the default)\n"
    "  --spot, --no-spot only spot (interruptible) offers, or only on-demand ones\n"
    "  --json            {currency, offers: [{gpu, gpu_count, provider, instance, region, spot,\n"
    "                    price_per_hour, price_per_gpu_hour, currency, as_of, source}]}\n"
    "Exit status: 0 ok, 64 usage, 67 unknown GPU or a currency without a rate.\n";

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

static int cmd_offers(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    const char *gpu_name = NULL, *currency = NULL, *sort = "price_per_gpu";
    double max_price = NAN;
    int spot = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        size_t klen = eq && a[0] == '-' ? (size_t)(eq - a) : strlen(a);
        const char *val = eq && a[0] == '-' ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
        int takes = 0;
#define IS(opt) (klen == strlen(opt) && strncmp(a, opt, klen) == 0)
        if (IS("--gpu")) {
            gpu_name = val;
            takes = 1;
        } else if (IS("--max-price")) {
            char *end;
            max_price = val ? strtod(val, &end) : NAN;
            if (!val || *end || !(max_price >= 0))
                return gw_error_set(err, GW_EUSAGE, "offers: --max-price needs a number");
            takes = 1;
        } else if (IS("--currency")) {
            currency = val;
            if (!val || !units_is_currency(val))
                return gw_error_set(err, GW_EUSAGE, "offers: --currency needs a code like USD");
            takes = 1;
        } else if (IS("--sort")) {
            sort = val;
            if (!val || (strcmp(val, "price") && strcmp(val, "price_per_gpu")))
                return gw_error_set(err, GW_EUSAGE,
                                    "offers: --sort is price or price_per_gpu");
            takes = 1;
        } else if (IS("--spot")) {
            spot = 1;
        } else if (IS("--no-spot")) {
            spot = 0;
        } else {
            return gw_error_set(err, GW_EUSAGE, "offers: '%s' is not an option (see gpuwise "
                                                "help offers)", a);
        }
#undef IS
        if (takes && !val)
            return gw_error_set(err, GW_EUSAGE, "offers: %s needs a value", a);
        if (takes && !eq)
            i++;
    }
    kb *k = NULL;
    char *gpu_id = NULL;
    kb_price *prices = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK && gpu_name) {
        int count;
        rc = kb_gpu_resolve(k, gpu_name, &gpu_id, &count, err);
    }
    if (rc == GW_OK)
        rc = kb_prices_find(k, gpu_id, "cloud", NULL, &prices, &n, err);
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
    if (rc == GW_OK && ctx->json) {
        gw_buf b = GW_BUF_INIT;
        view_to_json(root, &b, 1);
        fputs(buf_cstr(&b), ctx->out);
        buf_free(&b);
    } else if (rc == GW_OK && nr == 0) {
        fputs("no cloud offers match\n", ctx->out);
    } else if (rc == GW_OK) {
        /* Columns as wide as their longest entry (up to 40 characters), so names stay whole. */
        int w_gpu = 3, w_provider = 8, w_instance = 8;
        for (size_t i = 0; i < nr; i++) {
            const kb_price *p = rows[i].p;
            w_gpu = text_width(p->gpu, w_gpu);
            w_provider = text_width(p->provider, w_provider);
            w_instance = text_width(p->instance, w_instance);
        }
        fprintf(ctx->out, "%-*s %5s  %-*s  %-*s  %-4s %12s %12s  %-10s %s\n", w_gpu, "GPU",
                "COUNT", w_provider, "PROVIDER", w_instance, "INSTANCE", "SPOT", "PER HOUR",
                "PER GPU-H", "AS OF", "SOURCE");
        for (size_t i = 0; i < nr; i++) {
            const kb_price *p = rows[i].p;
            gw_buf price = GW_BUF_INIT, per = GW_BUF_INIT;
            units_format_money(&price, rows[i].price, rows[i].currency, 2);
            units_format_money(&per, rows[i].per_gpu, rows[i].currency, 2);
            fprintf(ctx->out, "%-*s %5g  %-*.*s  %-*.*s  %-4s %12s %12s  %-10s %s\n", w_gpu,
                    p->gpu, p->gpu_count, w_provider, w_provider, p->provider ? p->provider : "-",
                    w_instance, w_instance, p->instance ? p->instance : "-",
                    p->spot ? "spot" : "-", buf_cstr(&price),
                    buf_cstr(&per), p->as_of ? p->as_of : "-", p->source ? p->source : "-");
            buf_free(&price);
            buf_free(&per);
        }
    }
    view_free(root);
    free(rows);
    kb_prices_free(prices, n);
    free(gpu_id);
    kb_close(k);
    return rc;
}

const gw_command cli_offers_command = {
    "offers",
    "list cloud GPU offers from the KB (filter, convert, sort)",
    offers_usage,
    cmd_offers,
};
