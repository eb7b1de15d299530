/* cli_kb_compare.c — `gpuwise kb compare`: GPUs side by side, family names expanded, the best
 * value of each row marked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "cli_kb_common.h"
#include "base/view.h"

/* ---- compare ---------------------------------------------------------------------------- */

static void compare_print(FILE *f, const view *m)
{
    const view *gpus = view_map_get(m, "gpus"), *rows = view_map_get(m, "rows");
    size_t n = view_len(gpus), label_w = 10, *w = gw_xcalloc(n + 1, sizeof *w);
    for (size_t j = 0; j < n; j++)
        w[j] = strlen(cli_kb_str(view_list_at(gpus, j), "name"));
    for (size_t i = 0; i < view_len(rows); i++) {
        const view *r = view_list_at(rows, i), *texts = view_map_get(r, "texts");
        if (strlen(cli_kb_str(r, "label")) > label_w)
            label_w = strlen(cli_kb_str(r, "label"));
        for (size_t j = 0; j < n; j++) {
            const char *t = view_str(view_list_at(texts, j));
            if (t && strlen(t) + 2 > w[j])
                w[j] = strlen(t) + 2;
        }
    }
    gw_buf head = GW_BUF_INIT;
    buf_printf(&head, "%-*s", (int)label_w, "");
    for (size_t j = 0; j < n; j++)
        buf_printf(&head, "  %-*s", (int)w[j], cli_kb_str(view_list_at(gpus, j), "name"));
    while (head.len && head.data[head.len - 1] == ' ')
        head.data[--head.len] = '\0';
    fprintf(f, "%s\n", buf_cstr(&head));
    buf_free(&head);
    for (size_t i = 0; i < view_len(rows); i++) {
        const view *r = view_list_at(rows, i), *texts = view_map_get(r, "texts");
        const view *marks = view_map_get(r, "marks");
        gw_buf line = GW_BUF_INIT;
        buf_printf(&line, "%-*s", (int)label_w, cli_kb_str(r, "label"));
        for (size_t j = 0; j < n; j++) {
            const char *t = view_str(view_list_at(texts, j));
            char cell[512];
            snprintf(cell, sizeof cell, "%s%s", t ? t : "-",
                     view_bool_value(view_list_at(marks, j)) ? " *" : "");
            buf_printf(&line, "  %-*s", (int)w[j], cell);
        }
        while (line.len && line.data[line.len - 1] == ' ')
            line.data[--line.len] = '\0';
        fprintf(f, "%s\n", buf_cstr(&line));
        buf_free(&line);
    }
    fputs("\n* best in the row (lower is better for TDP and price); tensor figures are dense,\n"
          "  and a 2:4 sparsity row says where the vendor's sparse figure would be twice\n"
          "  that\n", f);
    free(w);
}

static void compare_row(view *rows, const kb_column *sr, const kb_gpu *g, size_t n)
{
    int text = sr->type == KB_TEXT, lower_better = (sr->flags & KB_LOWER_BETTER) != 0;
    view *r = view_list_push(rows, view_map());
    view_map_set_str(r, "field", sr->name);
    view_map_set_str(r, "label", sr->label);
    view_map_set_str(r, "unit", sr->unit);
    view *values = view_map_set(r, "values", view_list());
    view *texts = view_map_set(r, "texts", view_list());
    view *marks = view_map_set(r, "marks", view_list());
    double best = NAN;
    long best_i = -1;
    size_t distinct = 0;
    for (size_t j = 0; j < n; j++) {
        if (text) {
            const char *t = kb_column_text(sr, &g[j]);
            view_list_push(values, view_string(t));
            view_list_push(texts, view_string(t));
            continue;
        }
        double v = kb_column_number(sr, &g[j]);
        view_list_push(values, view_number(v));
        char *t = cli_kb_spec_text(&g[j], sr, 1);
        view_list_push(texts, view_string(t));
        free(t);
        if (isnan(v))
            continue;
        if (!isnan(best) && v != best)
            distinct++;
        if (isnan(best) || (lower_better ? v < best : v > best)) {
            best = v;
            best_i = (long)j;
        }
    }
    /* No mark when fewer than two GPUs have the figure or they all agree. */
    int marked = !text && best_i >= 0 && distinct > 0;
    for (size_t j = 0; j < n; j++)
        view_list_push(marks, view_bool(marked && kb_column_number(sr, &g[j]) == best));
    view_map_set(r, "best", marked ? view_number((double)best_i) : view_null());
}


#define MAX_COMPARED 16

/* The GPUs the names stand for, in the order given and each once: a family name gives every
 * variant, named on the diagnostics stream.  Caller frees *ids with kb_strings_free. */
static int compared_ids(gw_ctx *ctx, kb *k, const cli_args *a, char ***ids, size_t *n,
                        gw_error *err)
{
    int rc = GW_OK;
    *ids = NULL;
    *n = 0;
    for (int i = 0; rc == GW_OK && i < a->argc; i++) {
        char **variants = NULL;
        size_t nv = 0;
        rc = kb_gpu_resolve_family(k, a->argv[i], &variants, &nv, err);
        if (rc == GW_OK && nv > 1) {
            fprintf(ctx->diag, "gpuwise kb compare: '%s' stands for %zu GPUs:", a->argv[i], nv);
            for (size_t j = 0; j < nv; j++)
                fprintf(ctx->diag, "%s %s", j ? "," : "", variants[j]);
            fputc('\n', ctx->diag);
        }
        for (size_t j = 0; rc == GW_OK && j < nv; j++) {
            int seen = 0;
            for (size_t h = 0; h < *n && !seen; h++)
                seen = strcmp((*ids)[h], variants[j]) == 0;
            if (seen)
                continue;
            *ids = gw_xrealloc(*ids, (*n + 1) * sizeof **ids);
            (*ids)[(*n)++] = gw_xstrdup(variants[j]);
        }
        kb_strings_free(variants, nv);
    }
    if (rc == GW_OK && *n < 2)
        rc = gw_error_set(err, GW_EUSAGE, "give two or more GPUs (a family name such as h100 "
                          "stands for all its variants)");
    else if (rc == GW_OK && *n > MAX_COMPARED)
        rc = gw_error_set(err, GW_EUSAGE, "those names stand for %zu GPUs: %d at most", *n,
                          MAX_COMPARED);
    return rc;
}

int cli_kb_compare(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    kb *k = NULL;
    char **ids = NULL;
    size_t n = 0, got = 0;
    kb_gpu *g = NULL;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = compared_ids(ctx, k, a, &ids, &n, err);
    if (rc == GW_OK)
        g = gw_xcalloc(n, sizeof *g);
    for (; rc == GW_OK && got < n; got++) {
        kb_gpu_init(&g[got]);
        rc = kb_gpu_get(k, ids[got], &g[got], err);
    }
    if (rc == GW_OK) {
        view *m = view_map();
        view_map_set(m, "title", view_stringf("%s compared", g[0].name));
        view *gl = view_map_set(m, "gpus", view_list());
        for (size_t j = 0; j < n; j++) {
            view *e = view_list_push(gl, view_map());
            view_map_set_str(e, "id", g[j].id);
            view_map_set_str(e, "name", g[j].name);
            view_map_set_str(e, "source", g[j].source);
        }
        view *rows = view_map_set(m, "rows", view_list());
        for (int set = ROWS_TEXT; set <= ROWS_FIGURES; set++) {   /* flags are not compared */
            size_t nr;
            const kb_column *const *spec = cli_kb_gpu_rows((enum cli_kb_row_set)set, &nr);
            for (size_t i = 0; i < nr; i++)
                compare_row(rows, spec[i], g, n);
        }
        cli_kb_cite_list c = {view_list(), view_list()};
        for (size_t j = 0; j < n; j++)
            view_map_set_int(view_list_at(gl, j), "source_n", cli_kb_cite(k, &c, g[j].source));
        view_map_set(m, "sources", c.sources);
        view_map_set(m, "citations", c.citations);
        rc = cli_kb_emit(ctx, compare_print, m, "comparison", err);
        view_free(m);
    }
    kb_gpus_free(g, got);
    kb_strings_free(ids, n);
    kb_close(k);
    return rc;
}