/* cli_kb_list.c — `gpuwise kb list` (a filtered, sorted table of GPUs with the derived price
 * and efficiency fields) and `gpuwise kb fields` (the field names it accepts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "cli_kb_common.h"
#include "cli_listing.h"
#include "base/units.h"
#include "base/view.h"

/* ---- list ------------------------------------------------------------------------------- */

static const char *const default_columns[] = {"id", "name", "memory_gb", "memory_bandwidth_gbs",
                                              "tdp_w", "fp16_tflops", "nvlink_gbs", NULL};

/* A GPU field, or a derived field of `kb list`, that holds text. */
static int field_is_text(const char *field)
{
    const kb_column *c = kb_table_column(KB_GPUS, field);
    const kb_derived *d = kb_gpu_derived_find(field);
    return (c && c->type == KB_TEXT) || (d && d->type == KB_TEXT);
}

/* A derived figure as people read it: "$66.63 per GB", "CNY 16,000", "0.37 TFLOPS/W".  Caller
 * frees; NULL when unknown. */
static char *derived_text(const kb_derived *d, double v, const char *currency)
{
    gw_buf b = GW_BUF_INIT;
    if (isnan(v))
        return NULL;
    if (d->money)
        units_format_money(&b, v, currency, -1);
    else
        cli_kb_put_figure(&b, v);
    if (*d->unit)
        buf_printf(&b, " %s", d->unit);
    return buf_detach(&b);
}

/* A GPU's derived fields (kb_gpu_derived describes them) under their names, each figure with its
 * FIELD_text twin, as cli_kb_gpu_to_view does for the columns. */
static void derived_to_view(const kb_gpu_value *v, const char *currency, view *m)
{
    const kb_derived *d;
    for (size_t i = 0; (d = kb_gpu_derived(i)) != NULL; i++) {
        if (d->type == KB_TEXT) {
            view_map_set_str(m, d->name, kb_derived_text(d, v));
            continue;
        }
        char key[64];
        view_map_set_num(m, d->name, kb_derived_number(d, v));
        snprintf(key, sizeof key, "%s_text", d->name);
        cli_kb_set_text(m, key, derived_text(d, kb_derived_number(d, v), currency));
    }
}

static void list_print(FILE *f, const view *m)
{
    const view *cols = view_map_get(m, "columns"), *gpus = view_map_get(m, "gpus");
    size_t nc = view_len(cols), ng = view_len(gpus);
    int *right = gw_xcalloc(nc + 1, sizeof *right);
    char **cells = gw_xcalloc((ng + 1) * nc + 1, sizeof *cells);
    for (size_t j = 0; j < nc; j++) {
        cells[j] = gw_xstrdup(view_str(view_list_at(cols, j)));
        right[j] = !field_is_text(cells[j]);
    }
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < nc; j++) {
            const view *v = view_map_get(view_list_at(gpus, i), view_str(view_list_at(cols, j)));
            gw_buf b = GW_BUF_INIT;
            if (view_kind(v) == VIEW_STRING)
                buf_puts(&b, view_str(v));
            else if (view_kind(v) == VIEW_NUMBER)
                cli_kb_put_figure(&b, view_num(v));
            else if (view_kind(v) == VIEW_BOOL)
                buf_puts(&b, view_bool_value(v) ? "yes" : "no");
            else
                buf_puts(&b, "-");
            cells[(i + 1) * nc + j] = buf_detach(&b);
        }
    gw_buf table = GW_BUF_INIT;
    cli_text_table t = {(const char *const *)cells, ng + 1, nc, right, 0};
    cli_text_table_write(&table, &t);
    fputs(buf_cstr(&table), f);
    buf_free(&table);
    /* the figures carry no currency: the footer says it when a price column is shown */
    const char *money = NULL;
    for (size_t j = 0; j < nc; j++) {
        const kb_derived *d = kb_gpu_derived_find(view_str(view_list_at(cols, j)));
        if (d && d->money)
            money = view_str(view_map_get(m, "currency"));
    }
    fprintf(f, "(%zu GPU%s%s%s)\n", ng, ng == 1 ? "" : "s", money ? "; prices in " : "",
            money ? money : "");
    for (size_t i = 0; i < (ng + 1) * nc; i++)
        free(cells[i]);
    free(cells);
    free(right);
}


/* Whether the column list names a field. */
static int has_column(const view *cols, const char *name)
{
    for (size_t j = 0; j < view_len(cols); j++)
        if (!strcmp(view_str(view_list_at(cols, j)), name))
            return 1;
    return 0;
}

/* Every price a listing shows is dated: a price-derived column brings the date of the new price
 * it comes from (new_price_as_of), the launch price its release date, each added at the end when
 * the columns asked for do not have it. */
static void list_dates(view *cols)
{
    int money = 0;
    for (size_t j = 0; j < view_len(cols); j++) {
        const kb_derived *d = kb_gpu_derived_find(view_str(view_list_at(cols, j)));
        money |= d && d->money;
    }
    if (money && !has_column(cols, "new_price_as_of"))
        view_list_push(cols, view_string("new_price_as_of"));
    if (has_column(cols, "launch_price_usd") && !has_column(cols, "release_date"))
        view_list_push(cols, view_string("release_date"));
}

/* The --columns list, checked against the fields; the default columns without it. */
static int list_columns(const char *columns, view **out, gw_error *err)
{
    view *cols = view_list();
    if (columns) {
        char *copy = gw_xstrdup(columns), *save = NULL;
        for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            if (kb_list_field_check("--columns: ", t, err) != GW_OK) {
                free(copy);
                view_free(cols);
                return GW_EUSAGE;
            }
            view_list_push(cols, view_string(t));
        }
        free(copy);
    }
    if (view_len(cols) == 0)
        for (const char *const *f = default_columns; *f; f++)
            view_list_push(cols, view_string(*f));
    list_dates(cols);
    *out = cols;
    return GW_OK;
}

int cli_kb_list(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    const char *where = cli_value(a, "where"), *sort = cli_value(a, "sort");
    const char *columns = cli_value(a, "columns");
    const char *currency = cli_value(a, "currency") ? cli_value(a, "currency") : "USD";
    view *cols = NULL;
    if (a->argc)
        return gw_error_set(err, GW_EUSAGE, "unexpected operand '%.60s' (quote the --where "
                            "expression: it is one argument)", a->argv[0]);
    if (!units_is_currency(currency))
        return gw_error_set(err, GW_EUSAGE, "--currency: expected a code like USD, not '%.60s'",
                            currency);
    if (list_columns(columns, &cols, err) != GW_OK)
        return GW_EUSAGE;
    kb *k = NULL;
    kb_gpu *g = NULL;
    kb_gpu_value *values = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_gpu_list_values(k, where, sort, currency, &g, &values, &n, err);
    if (rc != GW_OK) {
        view_free(cols);
        kb_close(k);
        return rc;
    }
    view *m = view_map();
    view_map_set_str(m, "where", where);
    view_map_set_str(m, "sort", sort);
    view_map_set_str(m, "currency", currency);
    view_map_set(m, "columns", cols);
    view_map_set_int(m, "count", (long long)n);
    view *gl = view_map_set(m, "gpus", view_list());
    for (size_t i = 0; i < n; i++) {
        view *full = view_map();
        cli_kb_gpu_to_view(&g[i], full);
        derived_to_view(&values[i], currency, full);
        if (!columns) {
            view_list_push(gl, full);
            continue;
        }
        view *e = view_list_push(gl, view_map());
        for (size_t j = 0; j < view_len(cols); j++) {
            const char *name = view_str(view_list_at(cols, j));
            view_map_set(e, name, view_copy(view_map_get(full, name)));
        }
        view_free(full);
    }
    kb_gpus_free(g, n);
    kb_gpu_values_free(values, n);
    if (!strcmp(ctx->format, "text")) {
        rc = cli_kb_emit_text(ctx, list_print, m, err);
    } else {
        /* md and csv show the columns the terminal table shows, headed by their field names */
        cli_column *lc = gw_xcalloc(view_len(cols) + 1, sizeof *lc);
        for (size_t j = 0; j < view_len(cols); j++)
            lc[j].key = lc[j].header = view_str(view_list_at(cols, j));
        rc = cli_listing_write(ctx, m, gl, lc, err);
        free(lc);
    }
    view_free(m);
    kb_close(k);
    return rc;
}

/* ---- fields ----------------------------------------------------------------------------- */

/* The GPU fields, then the derived fields of `kb list` (with their label after a third tab). */
int cli_kb_fields(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    int rc;
    const kb_derived *d;
    if (ctx->json) {
        view *l = view_list();
        for (const char *const *f = kb_gpu_fields(); *f; f++)
            view_list_push(l, view_string(*f));
        for (size_t i = 0; (d = kb_gpu_derived(i)) != NULL; i++)
            view_list_push(l, view_string(d->name));
        rc = cli_kb_emit_json(ctx, l, err);
        view_free(l);
    } else {
        gw_buf b = GW_BUF_INIT;
        for (const char *const *f = kb_gpu_fields(); *f; f++)
            buf_printf(&b, "%s\t%s\n", *f, field_is_text(*f) ? "text" : "number");
        for (size_t i = 0; (d = kb_gpu_derived(i)) != NULL; i++)
            buf_printf(&b, "%s\t%s\tderived: %s\n", d->name,
                       d->type == KB_TEXT ? "text" : "number", d->label);
        rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
        buf_free(&b);
    }
    return rc;
}
