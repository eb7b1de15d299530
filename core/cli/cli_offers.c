/* cli_offers.c — the `gpuwise offers` command: the cloud offers in the KB (curated ones and those
 * pricing plugins stored) as kb_offers_each selects, folds (those that differ only in region are
 * one row) and sorts them, slices of a card shown as their fraction, in every listing format,
 * each row written as it is read. */
#include <errno.h>
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

/* ---- a row's fields, in the order --json writes them ------------------------------------------ */

enum offer_key {
    K_GPU, K_LABEL, K_GPU_COUNT, K_GPU_FRACTION, K_FRACTION, K_MEMORY, K_PROVIDER, K_INSTANCE,
    K_SPOT, K_PER_HOUR, K_PER_GPU, K_CURRENCY, K_AS_OF, K_SOURCE, K_QUALITY, K_REGIONS, K_AREAS,
    K_AREA, K_REGION, K_REGION_COUNT, N_KEYS
};
static const char *const key_names[N_KEYS] = {
    "gpu", "label", "gpu_count", "gpu_fraction", "fraction", "memory_gb", "provider", "instance",
    "spot", "price_per_hour", "price_per_gpu_hour", "currency", "as_of", "source", "quality",
    "regions", "areas", "area", "region", "region_count",
};

/* One field of a row: null (an unknown number or text), a string, a number, true/false or a
 * list of strings. */
typedef struct field_value {
    enum { V_NULL, V_STRING, V_NUMBER, V_BOOL, V_LIST } kind;
    const char *s;
    double x;
    const char *const *list;
    size_t n;
} field_value;

/* The fields of one row, with the text the label and the fraction are written into. */
typedef struct row_fields {
    field_value v[N_KEYS];
    gw_buf label, fraction;
} row_fields;

static field_value text_value(const char *s)
{
    return (field_value){s ? V_STRING : V_NULL, s, 0, NULL, 0};
}

static field_value number_value(double x)
{
    return (field_value){isnan(x) ? V_NULL : V_NUMBER, NULL, x, NULL, 0};
}

static field_value list_value(const char *const *list, size_t n)
{
    return (field_value){V_LIST, NULL, 0, list, n};
}

/* The row as the listing shows it.  A slice of a card is labelled with its share as people
 * write it ("1/6 a10"), so distinct slices of one card get distinct labels. */
static void row_fields_of(row_fields *f, const kb_offer_row *o)
{
    field_value *v = f->v;
    buf_reset(&f->label);
    buf_reset(&f->fraction);
    int sliced = !isnan(o->fraction) && o->fraction < 1;
    if (sliced) {
        units_fraction_words(&f->fraction, o->fraction);
        buf_printf(&f->label, "%s %s", buf_cstr(&f->fraction), o->gpu ? o->gpu : "(null)");
    }
    v[K_GPU] = text_value(o->gpu);
    v[K_LABEL] = sliced ? text_value(buf_cstr(&f->label)) : text_value(o->gpu);
    v[K_GPU_COUNT] = number_value(o->count);
    v[K_GPU_FRACTION] = number_value(o->fraction);
    v[K_FRACTION] = sliced ? text_value(buf_cstr(&f->fraction)) : text_value(NULL);
    v[K_MEMORY] = number_value(o->memory_gb);
    v[K_PROVIDER] = text_value(o->provider);
    v[K_INSTANCE] = text_value(o->instance);
    v[K_SPOT] = (field_value){V_BOOL, NULL, o->spot, NULL, 0};
    v[K_PER_HOUR] = number_value(o->per_hour);
    v[K_PER_GPU] = number_value(o->per_gpu);
    v[K_CURRENCY] = text_value(o->currency);
    v[K_AS_OF] = text_value(o->as_of);
    v[K_SOURCE] = text_value(o->source);
    v[K_QUALITY] = text_value(o->quality);
    v[K_REGIONS] = list_value(o->regions, o->n_regions);
    v[K_AREAS] = list_value(o->areas, o->n_areas);
    v[K_AREA] = text_value(o->area);
    v[K_REGION] = text_value(o->n_regions ? o->regions[0] : NULL);
    v[K_REGION_COUNT] = number_value((double)o->n_regions);
}

/* ---- JSON, md and CSV ------------------------------------------------------------------------ */

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
#define N_OFFER_COLUMNS (sizeof offer_columns / sizeof offer_columns[0] - 1)

static enum offer_key key_of(const char *name)
{
    size_t k = 0;
    while (k < N_KEYS && strcmp(key_names[k], name))
        k++;
    return (enum offer_key)k;
}

/* A field as an md or CSV cell: a string as it is, a number as JSON writes it, true/false, a
 * list's entries separated by spaces, nothing for null (cli_listing_write's cells). */
static void cell_of(gw_buf *out, const field_value *v)
{
    switch (v->kind) {
    case V_STRING: buf_puts(out, v->s); break;
    case V_NUMBER: view_json_number(out, v->x); break;
    case V_BOOL: buf_puts(out, v->x ? "true" : "false"); break;
    case V_LIST:
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                buf_putc(out, ' ');
            buf_puts(out, v->list[i]);
        }
        break;
    case V_NULL: break;
    }
}

static void json_value(gw_buf *out, const field_value *v)
{
    switch (v->kind) {
    case V_STRING: view_json_string(out, v->s, strlen(v->s)); break;
    case V_NUMBER: view_json_number(out, v->x); break;
    case V_BOOL: buf_puts(out, v->x ? "true" : "false"); break;
    case V_LIST:
        if (!v->n) {
            buf_puts(out, "[]");
            break;
        }
        buf_putc(out, '[');
        for (size_t i = 0; i < v->n; i++) {
            buf_puts(out, i ? ",\n        " : "\n        ");
            view_json_string(out, v->list[i], strlen(v->list[i]));
        }
        buf_puts(out, "\n      ]");
        break;
    case V_NULL: buf_puts(out, "null"); break;
    }
}

/* One row of the "offers" list, indented as view_to_json's pretty form indents it there. */
static void json_row(gw_buf *out, const row_fields *f, size_t index)
{
    buf_puts(out, index ? ",\n    {" : "\n    {");
    for (size_t k = 0; k < N_KEYS; k++) {
        buf_puts(out, k ? ",\n      " : "\n      ");
        view_json_string(out, key_names[k], strlen(key_names[k]));
        buf_puts(out, ": ");
        json_value(out, &f->v[k]);
    }
    buf_puts(out, "\n    }");
}

/* What --json prints around the rows: the query, then the list. */
static void json_head(gw_buf *out, const kb_offer_query *q)
{
    const char *names[] = {"currency", "where", "sort"};
    const char *values[] = {q->currency, q->where, q->sort};
    buf_putc(out, '{');
    for (size_t i = 0; i < 3; i++) {
        buf_printf(out, "\n  \"%s\": ", names[i]);
        if (values[i])
            view_json_string(out, values[i], strlen(values[i]));
        else
            buf_puts(out, "null");
        buf_putc(out, ',');
    }
    buf_puts(out, "\n  \"offers\": [");
}

static void json_tail(gw_buf *out, size_t rows)
{
    buf_puts(out, rows ? "\n  ]\n}\n" : "]\n}\n");
}

/* ---- the terminal table ---------------------------------------------------------------------- */

/* How a text column writes its field. */
enum text_form { FORM_TEXT, FORM_NUMBER, FORM_GB, FORM_MONEY, FORM_SPOT, FORM_REGION, FORM_LIST };

/* The text table's columns: title, the row's field, how it is written; figures align right. */
typedef struct text_column {
    const char *title;
    enum offer_key key;
    enum text_form form;
} text_column;

static const text_column text_columns[] = {
    {"GPU", K_LABEL, FORM_TEXT}, {"COUNT", K_GPU_COUNT, FORM_NUMBER},
    {"MEMORY", K_MEMORY, FORM_GB}, {"PROVIDER", K_PROVIDER, FORM_TEXT},
    {"INSTANCE", K_INSTANCE, FORM_TEXT}, {"REGION", K_REGION, FORM_REGION},
    {"AREA", K_AREAS, FORM_LIST}, {"SPOT", K_SPOT, FORM_SPOT},
    {"PER HOUR", K_PER_HOUR, FORM_MONEY}, {"PER GPU-H", K_PER_GPU, FORM_MONEY},
    {"AS OF", K_AS_OF, FORM_TEXT}, {"SOURCE", K_SOURCE, FORM_TEXT},
};
#define N_TEXT_COLUMNS (sizeof text_columns / sizeof text_columns[0])
#define TEXT_CELL_MAX 40   /* terminal columns: a longer name is cut, the table stays readable */

static int right_aligned(const text_column *c)
{
    return c->form == FORM_NUMBER || c->form == FORM_GB || c->form == FORM_MONEY;
}

/* x as "%g" writes it; a whole number under a million (a count, a memory size) without
 * printf, which was a tenth of the text table's instructions at 100,000 offers. */
static void put_g(gw_buf *b, double x)
{
    if (x == floor(x) && fabs(x) < 1e6)
        view_json_number(b, x);   /* the digits, as "%g" writes them below 1e6 */
    else
        buf_printf(b, "%g", x);
}

/* One cell of the text table: "-" for an unknown figure or text. */
static void text_cell(gw_buf *b, const row_fields *f, const text_column *c)
{
    const field_value *v = &f->v[c->key];
    double count = f->v[K_REGION_COUNT].x;
    if (c->form == FORM_SPOT) {
        buf_puts(b, v->x ? "spot" : "-");
    } else if (c->form == FORM_REGION && count > 1) {
        buf_printf(b, "%s +", v->s);
        put_g(b, count - 1);
    } else if (c->form == FORM_LIST && v->n) {   /* each area once: "CA,EU,US" */
        for (size_t i = 0; i < v->n; i++)
            buf_printf(b, "%s%s", i ? "," : "", v->list[i]);
    } else if (v->kind == V_STRING) {   /* cut on a character, never inside one */
        gw_term_field_cut(b, v->s, TEXT_CELL_MAX);
    } else if (v->kind != V_NUMBER) {   /* an unknown figure or text */
        buf_putc(b, '-');
    } else if (c->form == FORM_MONEY) {
        units_format_money(b, v->x, f->v[K_CURRENCY].s, 2);
    } else {
        put_g(b, v->x);
        if (c->form == FORM_GB)
            buf_puts(b, " GB");
    }
}

/* ---- streaming the listing ----------------------------------------------------------------- */

#define FLUSH_AT 65536   /* bytes of output held before they are written */

/* One run of the listing into the output: the format, what is written, and what the rows
 * need across the run (the text table's widths, its key). */
typedef struct offers_run {
    gw_ctx *ctx;
    kb *k;
    const kb_offer_query *q;
    FILE *f;
    unsigned shown;          /* cli_output_shown's flags, or 0 */
    gw_buf out, scratch;
    int io_errno;            /* a failed write's errno; 0 none */
    int rc;                  /* the listing's own outcome, with its error in err */
    gw_error err;
    size_t rows;
    row_fields fields;
    gw_buf cells[N_OFFER_COLUMNS > N_TEXT_COLUMNS ? N_OFFER_COLUMNS : N_TEXT_COLUMNS];
    enum offer_key column_keys[N_OFFER_COLUMNS];
    int measuring;           /* text: the first pass, which measures (and spills) */
    FILE *spill;             /* text: the cells of the first pass, read back by the second;
                              * NULL: the second pass reads the offers again */
    size_t width[N_TEXT_COLUMNS];
    int folded;              /* text: a row stands for more than one region */
    char *sliced_label, *sliced_fraction;   /* text: the first slice of a card, for the key */
} offers_run;

/* Writes what run->out holds once it is FLUSH_AT bytes or more, or whatever it holds (force);
 * people's text through cli_output_shown's flags. */
static int run_flush(offers_run *run, int force)
{
    if (run->io_errno || (!force && run->out.len < FLUSH_AT) || !run->out.len)
        return run->io_errno;
    const char *data = run->out.data;
    size_t len = run->out.len;
    if (run->shown) {
        buf_reset(&run->scratch);
        gw_term_text(&run->scratch, data, len, run->shown);
        data = run->scratch.data, len = run->scratch.len;
    }
    if (fwrite(data, 1, len, run->f) != len)
        run->io_errno = errno ? errno : EIO;
    buf_reset(&run->out);
    return run->io_errno;
}

/* The text cells of the row in run->fields, into run->cells. */
static void text_cells(offers_run *run, const char **cells)
{
    for (size_t j = 0; j < N_TEXT_COLUMNS; j++) {
        buf_reset(&run->cells[j]);
        text_cell(&run->cells[j], &run->fields, &text_columns[j]);
        cells[j] = buf_cstr(&run->cells[j]);
    }
}

/* kb_offers_each's callback: one row into the output (text: measured, or written). */
static int put_row(const kb_offer_row *o, void *arg, gw_error *err)
{
    offers_run *run = arg;
    const char *format = run->ctx->format;
    row_fields_of(&run->fields, o);
    if (!strcmp(format, "json")) {
        json_row(&run->out, &run->fields, run->rows);
    } else if (!strcmp(format, "text")) {
        const char *cells[N_TEXT_COLUMNS];
        int right[N_TEXT_COLUMNS];
        text_cells(run, cells);
        if (run->measuring) {
            for (size_t j = 0; run->spill && j < N_TEXT_COLUMNS; j++)
                if (fwrite(cells[j], 1, run->cells[j].len + 1, run->spill) != run->cells[j].len + 1) {
                    fclose(run->spill);   /* a full disk: the second pass reads the offers */
                    run->spill = NULL;
                }
            cli_text_widths(run->width, cells, N_TEXT_COLUMNS);
            run->folded |= o->n_regions > 1;
            if (!run->sliced_label && run->fields.v[K_FRACTION].kind == V_STRING) {
                run->sliced_label = gw_xstrdup(run->fields.v[K_LABEL].s);
                run->sliced_fraction = gw_xstrdup(run->fields.v[K_FRACTION].s);
            }
        } else {
            for (size_t j = 0; j < N_TEXT_COLUMNS; j++)
                right[j] = right_aligned(&text_columns[j]);
            cli_text_row(&run->out, cells, run->width, N_TEXT_COLUMNS, right);
        }
    } else {
        for (size_t c = 0; c < N_OFFER_COLUMNS; c++) {
            buf_reset(&run->cells[c]);
            cell_of(&run->cells[c], &run->fields.v[run->column_keys[c]]);
        }
        if (!strcmp(format, "csv"))
            cli_csv_row(&run->out, run->cells, N_OFFER_COLUMNS);
        else
            cli_md_row(&run->out, run->cells, N_OFFER_COLUMNS);
    }
    run->rows++;
    if (run_flush(run, 0))
        return gw_error_set(err, GW_EIO, "writing the output: %s", strerror(run->io_errno));
    return GW_OK;
}

/* The text table's rows from the cells the first pass spilled, in the widths it measured. */
static int text_unspill(offers_run *run, const int *right, gw_error *err)
{
    char *cell = NULL;
    size_t cap = 0;
    const char *cells[N_TEXT_COLUMNS];
    int rc = GW_OK;
    if (fflush(run->spill) != 0 || fseek(run->spill, 0, SEEK_SET) != 0)
        rc = gw_error_set(err, GW_EIO, "reading back the table: %s", strerror(errno));
    for (size_t r = 0; rc == GW_OK && r < run->rows; r++) {
        for (size_t j = 0; j < N_TEXT_COLUMNS; j++) {
            ssize_t len = getdelim(&cell, &cap, '\0', run->spill);
            if (len <= 0) {
                rc = gw_error_set(err, GW_EIO, "reading back the table: %s",
                                  ferror(run->spill) ? strerror(errno) : "cut short");
                break;
            }
            buf_reset(&run->cells[j]);
            buf_append(&run->cells[j], cell, (size_t)len - 1);
            cells[j] = buf_cstr(&run->cells[j]);
        }
        if (rc == GW_OK) {
            cli_text_row(&run->out, cells, run->width, N_TEXT_COLUMNS, right);
            if (run_flush(run, 0))
                rc = gw_error_set(err, GW_EIO, "writing the output: %s", strerror(run->io_errno));
        }
    }
    free(cell);
    return rc;
}

/* The text table: a first pass measures the columns and keeps the cells in a temporary file,
 * the second writes them; then a key to what it shows.  Memory stays flat whatever the offers,
 * and the offers are read once (read twice, the table took 1.5 times as long at 100,000
 * offers).  Without a temporary file, the second pass reads the offers again. */
static int offers_text(offers_run *run, gw_error *err)
{
    const char *titles[N_TEXT_COLUMNS];
    int right[N_TEXT_COLUMNS];
    for (size_t j = 0; j < N_TEXT_COLUMNS; j++) {
        titles[j] = text_columns[j].title;
        right[j] = right_aligned(&text_columns[j]);
    }
    cli_text_widths(run->width, titles, N_TEXT_COLUMNS);
    run->measuring = 1;
    run->spill = tmpfile();
    int rc = kb_offers_each(run->k, run->q, put_row, run, err);
    if (rc != GW_OK)
        return rc;
    if (run->rows == 0) {
        buf_puts(&run->out, "no cloud offers match\n");
        return GW_OK;
    }
    run->measuring = 0;
    cli_text_row(&run->out, titles, run->width, N_TEXT_COLUMNS, right);
    if (run->spill) {
        rc = text_unspill(run, right, err);
    } else {
        run->rows = 0;
        rc = kb_offers_each(run->k, run->q, put_row, run, err);
    }
    if (rc != GW_OK)
        return rc;
    buf_printf(&run->out, "(%zu offer%s", run->rows, run->rows == 1 ? "" : "s");
    if (run->folded)
        buf_puts(&run->out, "; REGION +N: the same offer in N more regions, which --json lists");
    buf_puts(&run->out, ")\n");
    if (run->sliced_label) {
        gw_term_field(&run->out, run->sliced_label);
        buf_puts(&run->out, ": ");
        gw_term_field(&run->out, run->sliced_fraction);
        buf_puts(&run->out, " of one card; MEMORY is the slice's, PER HOUR the instance's "
                 "price, PER GPU-H a whole card's hour at that rate\n");
    }
    return GW_OK;
}

/* cli_write_output_with's fill: the whole listing into f. */
static int offers_fill(FILE *f, void *arg)
{
    offers_run *run = arg;
    const char *format = run->ctx->format;
    run->f = f;
    run->shown = f == run->ctx->out ? cli_output_shown(run->ctx) : 0;
    if (!strcmp(format, "text")) {
        run->rc = offers_text(run, &run->err);
    } else {
        if (!strcmp(format, "json"))
            json_head(&run->out, run->q);
        else if (!strcmp(format, "csv"))
            cli_csv_header(&run->out, offer_columns);
        else
            cli_md_header(&run->out, offer_columns);
        run->rc = kb_offers_each(run->k, run->q, put_row, run, &run->err);
        if (run->rc == GW_OK && !strcmp(format, "json"))
            json_tail(&run->out, run->rows);
    }
    if (run->rc != GW_OK)
        return run->io_errno ? run->io_errno : ECANCELED;
    return run_flush(run, 1);
}

/* The listing in ctx->format to the output; GW_OK or the first failure. */
static int offers_write(gw_ctx *ctx, kb *k, const kb_offer_query *q, gw_error *err)
{
    offers_run *run = gw_xcalloc(1, sizeof *run);
    run->ctx = ctx;
    run->k = k;
    run->q = q;
    for (size_t c = 0; c < N_OFFER_COLUMNS; c++)
        run->column_keys[c] = key_of(offer_columns[c].key);
    int rc = cli_write_output_with(ctx, offers_fill, run, err);
    if (run->rc != GW_OK && !run->io_errno) {   /* the listing's own error, not a write's */
        *err = run->err;
        rc = run->rc;
    }
    buf_free(&run->out);
    buf_free(&run->scratch);
    buf_free(&run->fields.label);
    buf_free(&run->fields.fraction);
    for (size_t c = 0; c < sizeof run->cells / sizeof run->cells[0]; c++)
        buf_free(&run->cells[c]);
    if (run->spill)
        fclose(run->spill);
    free(run->sliced_label);
    free(run->sliced_fraction);
    free(run);
    return rc;
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
    char **ids = NULL;
    size_t n_ids = 0;
    if ((rc = cli_open_kb(ctx, 0, &k, err)) == GW_OK &&
        (rc = offer_gpus(ctx, k, cli_value(args, "gpu"), &ids, &n_ids, err)) == GW_OK) {
        q.gpus = cli_value(args, "gpu") ? (const char *const *)ids : NULL;
        q.n_gpus = n_ids;
        rc = offers_write(ctx, k, &q, err);
    }
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
