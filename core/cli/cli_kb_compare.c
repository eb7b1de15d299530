/* cli_kb_compare.c — `gpuwise kb compare`: GPUs side by side, family names expanded, the best
 * value of each row marked, the lowest new, used and cloud prices beside the figures; in the
 * terminal at most 100 columns wide. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "cli_kb_common.h"
#include "base/units.h"
#include "base/view.h"

/* ---- the terminal table ------------------------------------------------------------------
 * At most TEXT_WIDTH columns: a cell longer than its column wraps at spaces, and when the cards
 * side by side would be wider, they are shown in blocks of as many as fit, each block with the
 * row labels again. */

#define TEXT_WIDTH 100
#define COLUMN_GAP 2
#define WRAP_BEYOND 24   /* the figures and dates fit: three cards to a block */

/* The first line of s that fits width (at a space where one is), its length through *len;
 * returns where the next line starts ("" at the end). */
static const char *wrap_line(const char *s, size_t width, size_t *len)
{
    size_t n = strlen(s);
    if (n <= width) {
        *len = n;
        return s + n;
    }
    size_t cut = width;
    while (cut > 0 && s[cut] != ' ')
        cut--;
    /* the best mark stays with its figure: never a line of " *" alone */
    if (cut > 0 && strcmp(s + cut, " *") == 0)
        while (--cut > 0 && s[cut] != ' ')
            ;
    for (size_t at = width; cut == 0 && at > 1; at--)   /* a long word: after a hyphen */
        if (s[at - 1] == '-')
            cut = at;
    if (cut == 0)   /* no place to break: cut it */
        cut = width;
    *len = cut;
    s += cut;
    while (*s == ' ')
        s++;
    return s;
}

/* One row of a block: the label, then each card's cell (from cells[first..last)), wrapped in
 * its width; continuation lines leave the label column blank. */
static void print_row(FILE *f, const char *label, size_t label_w, char *const *cells,
                      const size_t *w, size_t first, size_t last)
{
    const char **rest = gw_xcalloc(last - first, sizeof *rest);
    for (size_t j = first; j < last; j++)
        rest[j - first] = cells[j];
    for (int more = 1, line = 0; more; line++) {
        gw_buf b = GW_BUF_INIT;
        buf_printf(&b, "%-*s", (int)label_w, line ? "" : label);
        more = 0;
        for (size_t j = first; j < last; j++) {
            size_t len;
            const char *next = wrap_line(rest[j - first], w[j], &len);
            buf_printf(&b, "%*s%-*.*s", COLUMN_GAP, "", (int)w[j], (int)len, rest[j - first]);
            rest[j - first] = next;
            more |= *next != '\0';
        }
        while (b.len && b.data[b.len - 1] == ' ')
            b.data[--b.len] = '\0';
        fprintf(f, "%s\n", buf_cstr(&b));
        buf_free(&b);
    }
    free(rest);
}

/* The cells of row r ("-" for unknown, " *" after the best), each allocated. */
static char **row_cells(const view *r, size_t n)
{
    const view *texts = view_map_get(r, "texts"), *marks = view_map_get(r, "marks");
    char **cells = gw_xcalloc(n, sizeof *cells);
    for (size_t j = 0; j < n; j++) {
        gw_buf b = GW_BUF_INIT;
        const char *t = view_str(view_list_at(texts, j));
        buf_printf(&b, "%s%s", t ? t : "-", view_bool_value(view_list_at(marks, j)) ? " *" : "");
        cells[j] = buf_detach(&b);
    }
    return cells;
}

static void free_cells(char **cells, size_t n)
{
    for (size_t j = 0; j < n; j++)
        free(cells[j]);
    free(cells);
}

/* Each card's column width: its name's or its longest cell's, where that cell is no longer
 * than WRAP_BEYOND (longer ones, sentences, wrap), and at most the width that leaves room for
 * two cards beside the labels. */
static size_t *column_widths(const view *gpus, const view *rows, size_t label_w)
{
    size_t n = view_len(gpus), *w = gw_xcalloc(n + 1, sizeof *w);
    size_t most = (TEXT_WIDTH - label_w) / 2 - COLUMN_GAP;
    for (size_t j = 0; j < n; j++)
        w[j] = strlen(cli_kb_str(view_list_at(gpus, j), "name"));
    for (size_t i = 0; i < view_len(rows); i++) {
        char **cells = row_cells(view_list_at(rows, i), n);
        for (size_t j = 0; j < n; j++)
            if (strlen(cells[j]) > w[j] && strlen(cells[j]) <= WRAP_BEYOND)
                w[j] = strlen(cells[j]);
        free_cells(cells, n);
    }
    for (size_t j = 0; j < n; j++)
        if (w[j] > most)
            w[j] = most;
    return w;
}

static void compare_print(FILE *f, const view *m)
{
    const view *gpus = view_map_get(m, "gpus"), *rows = view_map_get(m, "rows");
    size_t n = view_len(gpus), label_w = 10;
    for (size_t i = 0; i < view_len(rows); i++)
        if (strlen(cli_kb_str(view_list_at(rows, i), "label")) > label_w)
            label_w = strlen(cli_kb_str(view_list_at(rows, i), "label"));
    size_t *w = column_widths(gpus, rows, label_w);
    char **names = gw_xcalloc(n, sizeof *names);
    for (size_t j = 0; j < n; j++)
        names[j] = gw_xstrdup(cli_kb_str(view_list_at(gpus, j), "name"));
    for (size_t first = 0, last; first < n; first = last) {
        size_t used = label_w + COLUMN_GAP + w[first];
        for (last = first + 1; last < n && used + COLUMN_GAP + w[last] <= TEXT_WIDTH; last++)
            used += COLUMN_GAP + w[last];
        if (first)
            fputc('\n', f);
        print_row(f, "", label_w, names, w, first, last);
        for (size_t i = 0; i < view_len(rows); i++) {
            char **cells = row_cells(view_list_at(rows, i), n);
            print_row(f, cli_kb_str(view_list_at(rows, i), "label"), label_w, cells, w, first,
                      last);
            free_cells(cells, n);
        }
    }
    fputs("\n* best in the row (lower is better for TDP and price); tensor figures are dense,\n"
          "  and a 2:4 sparsity row says where the vendor's sparse figure would be twice\n"
          "  that.  Prices: the lowest of each kind the KB has, in USD, with its kind of\n"
          "  evidence and date (cloud: on demand, per GPU-hour).\n", f);
    free_cells(names, n);
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


/* ---- the price rows ---------------------------------------------------------------------- */

/* A row of prices: the lowest of a kind each card has in the KB, in USD.  Cloud prices are on
 * demand and per whole GPU-hour (a slice's price over its share of the card); a new price is
 * per card, a server's over its GPUs; launch prices have their own row above. */
typedef struct price_kind_row {
    const char *kind, *field, *label;
    int hourly;
} price_kind_row;

static const price_kind_row price_rows[] = {
    {"new", "new_price", "New price", 0},
    {"used", "used_price", "Used price", 0},
    {"cloud", "cloud_price_per_gpu_hour", "Cloud per GPU-hour", 1},
};

/* The index in p[0..n) of the lowest price of the row's kind in USD (*usd), -1 for none; an
 * equal price later in date wins. */
static long lowest_price(kb *k, const price_kind_row *pk, const kb_price *p, size_t n, double *usd)
{
    long best = -1;
    *usd = NAN;
    for (size_t i = 0; i < n; i++) {
        double per = p[i].amount / (p[i].gpu_count > 0 ? p[i].gpu_count : 1), v;
        gw_error ignore;
        if (p[i].quality && !strcmp(p[i].quality, "launch"))
            continue;
        if (pk->hourly && (p[i].spot || !p[i].unit || strcmp(p[i].unit, "hour") != 0))
            continue;
        if (pk->hourly && p[i].gpu_fraction > 0)
            per /= p[i].gpu_fraction;
        if (kb_convert(k, per, p[i].currency, "USD", &v, &ignore) != GW_OK)
            continue;   /* no rate: it cannot be compared */
        if (best < 0 || v < *usd ||
            (v == *usd && p[i].as_of && p[best].as_of && strcmp(p[i].as_of, p[best].as_of) > 0)) {
            best = (long)i;
            *usd = v;
        }
    }
    return best;
}

/* "$1,599 (market, 2024-05)", "$2.49/h (list, 2024-06)". */
static view *price_text(double usd, const kb_price *p, int hourly)
{
    gw_buf b = GW_BUF_INIT;
    units_format_money(&b, usd, "USD", hourly ? 2 : -1);
    buf_printf(&b, "%s (%s, %s)", hourly ? "/h" : "", p->quality ? p->quality : "price",
               p->as_of ? p->as_of : "undated");
    view *v = view_string(buf_cstr(&b));
    buf_free(&b);
    return v;
}

/* Appends the row of pk's prices to rows, each cell citing its own source (cells, as
 * render.c's comparison cells are); no row when no card has such a price. */
static int price_row(kb *k, view *rows, const kb_gpu *g, size_t n, const price_kind_row *pk,
                     cli_kb_cite_list *c, gw_error *err)
{
    view *r = view_map();
    view_map_set_str(r, "field", pk->field);
    view_map_set_str(r, "label", pk->label);
    view_map_set_str(r, "unit", pk->hourly ? "USD per GPU-hour" : "USD per card");
    view *values = view_map_set(r, "values", view_list());
    view *texts = view_map_set(r, "texts", view_list());
    view *kinds = view_map_set(r, "kinds", view_list());
    view *dates = view_map_set(r, "as_of", view_list());
    view *sources = view_map_set(r, "sources", view_list());
    view *cells = view_map_set(r, "cells", view_list());
    double best = NAN;
    size_t known = 0, distinct = 0;
    int rc = GW_OK;
    for (size_t j = 0; rc == GW_OK && j < n; j++) {
        kb_price *p = NULL;
        size_t np = 0;
        double usd = NAN;
        rc = kb_prices_find(k, g[j].id, pk->kind, NULL, &p, &np, err);
        long i = rc == GW_OK ? lowest_price(k, pk, p, np, &usd) : -1;
        view_list_push(values, view_number(usd));
        view_list_push(texts, i >= 0 ? price_text(usd, &p[i], pk->hourly) : view_null());
        view_list_push(kinds, view_string(i >= 0 ? p[i].quality : NULL));
        view_list_push(dates, view_string(i >= 0 ? p[i].as_of : NULL));
        view_list_push(sources, view_string(i >= 0 ? p[i].source : NULL));
        view *cell = view_list_push(cells, view_map());
        view_map_set_str(cell, "text", i >= 0 ? view_str(view_list_at(texts, j)) : "n/a");
        view_map_set(cell, "cite", i >= 0 ? view_number(cli_kb_cite(k, c, p[i].source))
                                          : view_null());
        if (i >= 0) {
            distinct += known++ && usd != best;
            if (isnan(best) || usd < best)
                best = usd;
        }
        kb_prices_free(p, np);
    }
    if (rc != GW_OK || known == 0) {
        view_free(r);
        return rc;
    }
    /* as the figures' rows: no mark when fewer than two cards have a price or they agree */
    view *marks = view_map_set(r, "marks", view_list());
    long best_i = -1;
    for (size_t j = 0; j < n; j++) {
        int is_best = distinct > 0 && view_num(view_list_at(values, j)) == best;
        view_list_push(marks, view_bool(is_best));
        view_map_set_bool(view_list_at(cells, j), "is_best", is_best);
        if (is_best && best_i < 0)
            best_i = (long)j;
    }
    view_map_set(r, "best", best_i >= 0 ? view_number((double)best_i) : view_null());
    view_list_push(rows, r);
    return GW_OK;
}

#define MAX_COMPARED 16

/* A datasheet compares one card: "4090x2" is the 4090's, and the count given is said to be
 * ignored (as `kb show` says), never silently dropped. */
static void count_note(gw_ctx *ctx, kb *k, const char *name)
{
    gw_error quiet = {0};
    char *id = NULL;
    int count = 1;
    if (kb_gpu_resolve(k, name, &id, &count, &quiet) == GW_OK && count > 1)
        fprintf(ctx->diag, "gpuwise kb compare: '%s' is %d x %s; comparing one %s (the count is "
                "ignored)\n", name, count, id, id);
    free(id);
    gw_error_clear(&quiet);
}

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
        count_note(ctx, k, a->argv[i]);
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
        /* the cards' own sources first, numbered in the order of the columns */
        cli_kb_cite_list c = {view_list(), view_list()};
        for (size_t j = 0; j < n; j++)
            view_map_set_int(view_list_at(gl, j), "source_n", cli_kb_cite(k, &c, g[j].source));
        for (size_t i = 0; rc == GW_OK && i < sizeof price_rows / sizeof price_rows[0]; i++)
            rc = price_row(k, rows, g, n, &price_rows[i], &c, err);
        view_map_set(m, "sources", c.sources);
        view_map_set(m, "citations", c.citations);
        view *notes = view_map_set(m, "notes", view_list());
        view_list_push(notes, view_string(
            "The price rows give the lowest price of each kind the knowledge base has for a "
            "card, in USD at its latest exchange rates, with its kind of evidence and date: new "
            "and used per card (a server's price over its GPUs), cloud on demand per whole "
            "GPU-hour.  Their sources are among those cited below (`--json` names each price's "
            "source)."));
        if (rc == GW_OK)
            rc = cli_kb_emit(ctx, compare_print, m, "comparison", err);
        view_free(m);
    }
    kb_gpus_free(g, got);
    kb_strings_free(ids, n);
    kb_close(k);
    return rc;
}