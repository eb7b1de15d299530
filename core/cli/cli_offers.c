/* cli_offers.c — the `gpuwise offers` command: the cloud offers in the KB (curated ones and those
 * pricing plugins stored) as kb_offers_list selects and sorts them, those that differ only in
 * region folded into one row, slices of a card shown as their fraction, in every listing format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_listing.h"
#include "base/term.h"
#include "base/units.h"
#include "base/view.h"
#include "kb/kb_offers.h"

/* ---- folding: one row for an offer that differs only in its region ------------------------ */

/* "1/6", "3/7": a share of one card as people write it; NULL for a whole card.  Caller frees. */
static char *fraction_text(double fraction)
{
    gw_buf b = GW_BUF_INIT;
    if (isnan(fraction) || fraction >= 1)
        return NULL;
    units_fraction_words(&b, fraction);
    return buf_detach(&b);
}

/* An offer as the listing shows it, less its region (which folding gathers). */
static view *offer_view(const kb_offer *o)
{
    const kb_price *p = &o->price;
    char *fraction = fraction_text(o->fraction);
    view *m = view_map();
    view_map_set_str(m, "gpu", p->gpu);
    /* distinct slices of one card get distinct labels: "1/6 a10", "1/3 a10", "a10" */
    view_map_set(m, "label", fraction ? view_stringf("%s %s", fraction, p->gpu)
                                      : view_string(p->gpu));
    view_map_set_num(m, "gpu_count", o->count);
    view_map_set_num(m, "gpu_fraction", o->fraction);
    view_map_set_str(m, "fraction", fraction);
    view_map_set_num(m, "memory_gb", o->memory_gb);
    view_map_set_str(m, "provider", p->provider);
    view_map_set_str(m, "instance", p->instance);
    view_map_set_bool(m, "spot", p->spot);
    view_map_set_num(m, "price_per_hour", o->per_hour);
    view_map_set_num(m, "price_per_gpu_hour", o->per_gpu);
    view_map_set_str(m, "currency", o->currency);
    view_map_set_str(m, "as_of", p->as_of);
    view_map_set_str(m, "source", p->source);
    view_map_set_str(m, "quality", p->quality);
    free(fraction);
    return m;
}

/* A row's fold key: everything it shows but its region, as JSON. */
typedef struct fold_key {
    char *json;
    size_t index;
} fold_key;

static int cmp_keys(const void *a, const void *b)
{
    const fold_key *x = a, *y = b;
    int c = strcmp(x->json, y->json);
    return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

/* Whether a string list holds s. */
static int list_has(const view *l, const char *s)
{
    for (size_t i = 0; i < view_len(l); i++)
        if (!strcmp(view_str(view_list_at(l, i)), s))
            return 1;
    return 0;
}

/* Appends s to a string list that does not hold it yet (NULL: nothing). */
static void list_add(view *l, const char *s)
{
    if (s && !list_has(l, s))
        view_list_push(l, view_string(s));
}

/* The offers as view rows in their order, those that differ only in region folded into the
 * first of them: region (the first) and its area, regions and areas (each once, in the offers'
 * order) and region_count.  A row without a region adds none; one without an area, no area. */
static view *fold_offers(const kb_offer *o, size_t n)
{
    view **rows = gw_xcalloc(n ? n : 1, sizeof *rows);
    fold_key *keys = gw_xcalloc(n ? n : 1, sizeof *keys);
    size_t *leader = gw_xcalloc(n ? n : 1, sizeof *leader);
    for (size_t i = 0; i < n; i++) {
        gw_buf b = GW_BUF_INIT;
        rows[i] = offer_view(&o[i]);
        view_to_json(rows[i], &b, 0);
        keys[i] = (fold_key){buf_detach(&b), i};
    }
    /* equal keys end up side by side, the earliest first: it leads its group */
    qsort(keys, n, sizeof *keys, cmp_keys);
    for (size_t i = 0; i < n; i++)
        leader[keys[i].index] = i && !strcmp(keys[i].json, keys[i - 1].json)
                                    ? leader[keys[i - 1].index] : keys[i].index;
    view *list = view_list();
    for (size_t i = 0; i < n; i++) {
        view *lead = rows[leader[i]];
        if (leader[i] == i) {
            view_map_set(lead, "regions", view_list());
            view_map_set(lead, "areas", view_list());
            view_map_set_str(lead, "area", o[i].area);
            view_list_push(list, lead);
        } else {
            view_free(rows[i]);
        }
        list_add(view_map_get(lead, "regions"), o[i].price.region);
        list_add(view_map_get(lead, "areas"), o[i].area);
    }
    for (size_t i = 0; i < view_len(list); i++) {
        view *m = view_list_at(list, i);
        const view *regions = view_map_get(m, "regions");
        view_map_set_str(m, "region", view_len(regions) ? view_str(view_list_at(regions, 0))
                                                         : NULL);
        view_map_set_int(m, "region_count", (long long)view_len(regions));
    }
    for (size_t i = 0; i < n; i++)
        free(keys[i].json);
    free(keys);
    free(leader);
    free(rows);
    return list;
}

/* ---- the formats ---------------------------------------------------------------------------- */

/* md and CSV: the columns offers always had, then those added since (so scripts that read the
 * first ones by position keep working). */
static const cli_column offer_columns[] = {
    {"gpu", "GPU"}, {"gpu_count", "Count"}, {"provider", "Provider"}, {"instance", "Instance"},
    {"region", "Region"}, {"spot", "Spot"}, {"price_per_hour", "Per hour"},
    {"price_per_gpu_hour", "Per GPU-hour"}, {"currency", "Currency"}, {"as_of", "As of"},
    {"source", "Source"}, {"fraction", "Fraction"}, {"memory_gb", "Memory GB"},
    {"region_count", "Regions"}, {"regions", "Region list"}, {"area", "Area"},
    {"areas", "Area list"}, {NULL, NULL},
};

/* How a text column writes its field. */
enum text_form { FORM_TEXT, FORM_NUMBER, FORM_GB, FORM_MONEY, FORM_SPOT, FORM_REGION, FORM_LIST };

/* The text table's columns: title, the row's field, how it is written; figures align right. */
typedef struct text_column {
    const char *title, *key;
    enum text_form form;
} text_column;

static const text_column text_columns[] = {
    {"GPU", "label", FORM_TEXT}, {"COUNT", "gpu_count", FORM_NUMBER},
    {"MEMORY", "memory_gb", FORM_GB}, {"PROVIDER", "provider", FORM_TEXT},
    {"INSTANCE", "instance", FORM_TEXT}, {"REGION", "region", FORM_REGION},
    {"AREA", "areas", FORM_LIST}, {"SPOT", "spot", FORM_SPOT}, {"PER HOUR", "price_per_hour", FORM_MONEY},
    {"PER GPU-H", "price_per_gpu_hour", FORM_MONEY}, {"AS OF", "as_of", FORM_TEXT},
    {"SOURCE", "source", FORM_TEXT},
};
#define N_TEXT_COLUMNS (sizeof text_columns / sizeof text_columns[0])
#define TEXT_CELL_MAX 40   /* terminal columns: a longer name is cut, the table stays readable */

static int right_aligned(const text_column *c)
{
    return c->form == FORM_NUMBER || c->form == FORM_GB || c->form == FORM_MONEY;
}

/* One cell of the text table: "-" for an unknown figure or text. */
static void text_cell(gw_buf *b, const view *row, const text_column *c)
{
    const view *v = view_map_get(row, c->key);
    double count = view_num(view_map_get(row, "region_count")), x = view_num(v);
    if (c->form == FORM_SPOT)
        buf_puts(b, view_bool_value(v) ? "spot" : "-");
    else if (c->form == FORM_REGION && count > 1)
        buf_printf(b, "%s +%g", view_str(v), count - 1);
    else if (c->form == FORM_LIST && view_len(v))   /* each area once: "CA,EU,US" */
        for (size_t i = 0; i < view_len(v); i++)
            buf_printf(b, "%s%s", i ? "," : "", view_str(view_list_at(v, i)));
    else if (view_kind(v) == VIEW_STRING)   /* cut on a character, never inside one */
        gw_term_field_cut(b, view_str(v), TEXT_CELL_MAX);
    else if (isnan(x))   /* not a number, or an unknown one */
        buf_putc(b, '-');
    else if (c->form == FORM_MONEY)
        units_format_money(b, x, view_str(view_map_get(row, "currency")), 2);
    else
        buf_printf(b, c->form == FORM_GB ? "%g GB" : "%g", x);
}

/* The terminal table: columns as wide as their longest entry, then a key to what it shows. */
static void offers_text(gw_buf *out, const view *rows)
{
    size_t n = view_len(rows);
    int folded = 0, right[N_TEXT_COLUMNS];
    const view *sliced = NULL;   /* the first slice of a card, which the key explains */
    if (n == 0) {
        buf_puts(out, "no cloud offers match\n");
        return;
    }
    char **cells = gw_xcalloc((n + 1) * N_TEXT_COLUMNS, sizeof *cells);
    for (size_t j = 0; j < N_TEXT_COLUMNS; j++) {
        cells[j] = gw_xstrdup(text_columns[j].title);
        right[j] = right_aligned(&text_columns[j]);
    }
    for (size_t i = 0; i < n; i++) {
        const view *row = view_list_at(rows, i);
        folded |= view_num(view_map_get(row, "region_count")) > 1;
        if (!sliced && view_kind(view_map_get(row, "fraction")) == VIEW_STRING)
            sliced = row;
        for (size_t j = 0; j < N_TEXT_COLUMNS; j++) {
            gw_buf b = GW_BUF_INIT;
            text_cell(&b, row, &text_columns[j]);
            cells[(i + 1) * N_TEXT_COLUMNS + j] = buf_detach(&b);
        }
    }
    cli_text_table table = {(const char *const *)cells, n + 1, N_TEXT_COLUMNS, right, 1};
    cli_text_table_write(out, &table);
    buf_printf(out, "(%zu offer%s", n, n == 1 ? "" : "s");
    if (folded)
        buf_puts(out, "; REGION +N: the same offer in N more regions, which --json lists");
    buf_puts(out, ")\n");
    if (sliced) {
        gw_term_field(out, view_str(view_map_get(sliced, "label")));
        buf_puts(out, ": ");
        gw_term_field(out, view_str(view_map_get(sliced, "fraction")));
        buf_puts(out, " of one card; MEMORY is the slice's, PER HOUR the instance's price, PER "
                 "GPU-H a whole card's hour at that rate\n");
    }
    for (size_t i = 0; i < (n + 1) * N_TEXT_COLUMNS; i++)
        free(cells[i]);
    free(cells);
}

/* ---- the command ---------------------------------------------------------------------------- */

/* The options as a query (gpus left to the caller); GW_EUSAGE for a contradiction or a bad
 * value. */
static int read_query(const cli_args *args, kb_offer_query *q, gw_error *err)
{
    memset(q, 0, sizeof *q);
    q->spot = cli_flag(args, "spot") ? 1 : cli_flag(args, "no-spot") ? 0 : -1;
    q->max_per_gpu = NAN;
    q->currency = cli_value(args, "currency");
    q->where = cli_value(args, "where");
    q->sort = cli_value(args, "sort");
    if (cli_flag(args, "spot") && cli_flag(args, "no-spot"))
        return gw_error_set(err, GW_EUSAGE, "--spot and --no-spot exclude each other");
    if (cli_number(args, "max-price", 0, HUGE_VAL, &q->max_per_gpu, err) != GW_OK)
        return GW_EUSAGE;
    if (q->currency && !units_is_currency(q->currency))
        return gw_error_set(err, GW_EUSAGE, "--currency: expected a code like USD, not '%s'",
                            q->currency);
    return GW_OK;
}

/* The GPU ids --gpu stands for (a family name gives all its variants, named on the
 * diagnostics stream); none without --gpu.  Caller frees with kb_strings_free. */
static int offer_gpus(gw_ctx *ctx, kb *k, const char *name, char ***ids, size_t *n,
                      gw_error *err)
{
    *ids = NULL;
    *n = 0;
    if (!name)
        return GW_OK;
    int rc = kb_gpu_resolve_family(k, name, ids, n, err);
    if (rc == GW_OK && *n > 1) {
        fprintf(ctx->diag, "gpuwise offers: '%s' stands for %zu GPUs:", name, *n);
        for (size_t i = 0; i < *n; i++)
            fprintf(ctx->diag, "%s %s", i ? "," : "", (*ids)[i]);
        fputc('\n', ctx->diag);
    }
    return rc;
}

static int cmd_offers(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    kb_offer_query q;
    int rc = read_query(args, &q, err);
    if (rc != GW_OK)
        return rc;
    kb *k = NULL;
    kb_offer *offers = NULL;
    char **ids = NULL;
    size_t n = 0, n_ids = 0;
    if ((rc = cli_open_kb(ctx, 0, &k, err)) == GW_OK &&
        (rc = offer_gpus(ctx, k, cli_value(args, "gpu"), &ids, &n_ids, err)) == GW_OK) {
        q.gpus = cli_value(args, "gpu") ? (const char *const *)ids : NULL;
        q.n_gpus = n_ids;
        rc = kb_offers_list(k, &q, &offers, &n, err);
    }
    if (rc == GW_OK) {
        view *root = view_map();
        view_map_set_str(root, "currency", q.currency);
        view_map_set_str(root, "where", q.where);
        view_map_set_str(root, "sort", q.sort);
        view *rows = view_map_set(root, "offers", fold_offers(offers, n));
        if (strcmp(ctx->format, "text") != 0) {
            rc = cli_listing_write(ctx, root, rows, offer_columns, err);
        } else {
            gw_buf out = GW_BUF_INIT;
            offers_text(&out, rows);
            rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
            buf_free(&out);
        }
        view_free(root);
    }
    kb_offers_free(offers, n);
    kb_strings_free(ids, n_ids);
    if (k)
        kb_close(k);
    return rc;
}

static const cli_option offers_options[] = {
    {"gpu", 0, "NAME", CLI_GPU, NULL,
     "only this GPU, named as people write it (\"H100 SXM\", A100-80GB); a family name "
     "(`h100`) means every variant, and the variants are named", 0},
    {"where", 0, "EXPR", CLI_OFFER_FIELD, NULL,
     "only the offers the filter matches, in the language of `kb list --where` (conditions "
     "`FIELD OP VALUE` joined by `and` and `or`, grouped with parentheses) over the fields gpu, "
     "memory_gb (of each GPU rented), count (gpu_count), gpu_fraction, provider, instance, "
     "region, area, spot (0 or 1), price (price_per_hour: the instance's), price_per_gpu "
     "(price_per_gpu_hour: a whole GPU's hour), currency, as_of, source and quality; quote it, "
     "it is one argument.  `region ~ X` holds where the region contains X or X is its area "
     "(`region ~ eu` finds eu-west-1, westeurope, swedencentral and RunPod's CZ alike)", 0},
    {"sort", 0, "[-]FIELD", CLI_OFFER_FIELD, NULL,
     "order by any of those fields, lowest first, or highest first with a leading `-` (the "
     "default: price_per_gpu); prices compare by their value in USD where the KB has a rate", 0},
    {"max-price", 0, "X", CLI_TEXT, NULL,
     "only offers whose price per whole GPU-hour is at most X (in `--currency` when given, "
     "else in each offer's own currency)", 0},
    {"currency", 0, "CUR", CLI_TEXT, NULL,
     "convert every price to CUR (USD, CNY, EUR, ...) with the KB's exchange rates", 0},
    {"spot", 0, NULL, CLI_TEXT, NULL, "only spot (interruptible) offers", 0},
    {"no-spot", 0, NULL, CLI_TEXT, NULL, "only on-demand offers", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command offers_commands[] = {
    {"offers", NULL, 0, 0, CLI_TEXT,
     "list cloud GPU offers from the KB (filter, convert, sort)",
     "Lists the cloud GPU offers in the KB: the curated ones and those `gpuwise prices refresh` "
     "stored, cheapest per GPU-hour first.  Prices in different currencies are ordered by their "
     "value in USD where the KB has a rate.  Offers that differ only in their region are one "
     "row, which names the first region and how many more (`--json` lists them all).  A slice "
     "of a card (1/6 of an A10) is shown as its fraction, with the slice's memory, the "
     "instance's price and the price of a whole GPU-hour at that rate.  AREA is where the "
     "region is, in the codes of the KB's providers table (@AREAS@), read from the region by one "
     "table of rules (cloud region names and prefixes, ISO 3166 country codes, a marketplace's "
     "\"City, CC\"); empty where no rule reads it, never guessed.  EU is where the GDPR applies "
     "or an EU adequacy decision lets personal data go; where a rule is stricter, filter on the "
     "region itself.  A bare SA, AF or ME (a country's code and an area's) has no "
     "area.  Example, the cheapest "
     "2x 24 GB+ offers in the EU: `gpuwise offers --where 'memory_gb >= 24 and count >= 2 and "
     "region ~ eu' --sort price_per_gpu`.  Exit status: 0 ok, 64 usage, 67 an unknown GPU or a "
     "currency without a rate.",
     offers_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cmd_offers, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_offers_group = {
    "offers", "list cloud GPU offers from the KB (filter, convert, sort)", NULL,
    offers_commands,
};
