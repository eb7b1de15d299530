/* cli_kb.c — the `gpuwise kb` commands: look GPUs up (show, compare, list, search), list and
 * open the sources, check, import and export the knowledge base.  Each lookup builds one view
 * tree that --json prints and templates render; the text forms are printed from that same tree. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "base/check.h"
#include "base/limits.h"
#include "cli.h"
#include "cli_document.h"
#include "cli_listing.h"
#include "render/mustache.h"
#include "ingest/records.h"
#include "render/render.h"
#include "base/units.h"
#include "base/view.h"

/* ---- formatting ------------------------------------------------------------------------- */

/* A figure with as few decimals as it needs (at most 2), thousands separated: 2,039 / 19.5. */
static void put_fig(gw_buf *b, double v)
{
    int decimals = 0;
    while (decimals < 2 && fabs(v * pow(10, decimals) - round(v * pow(10, decimals))) > 1e-6)
        decimals++;
    view_format_number(b, v, decimals);
}

static char *fig_unit(double v, const char *unit)
{
    gw_buf b = GW_BUF_INIT;
    if (isnan(v))
        return NULL;
    put_fig(&b, v);
    if (unit && *unit)
        buf_printf(&b, " %s", unit);
    return buf_detach(&b);
}

static void set_text(view *m, const char *key, char *owned)
{
    view_map_set_str(m, key, owned);
    free(owned);
}

/* ---- one GPU as a view ------------------------------------------------------------------ */

/* The GPU columns a datasheet and a comparison show are those with a label (kb_table.c): first
 * the text rows, then the figures, then the flags (a datasheet's alone), each in column order. */
enum row_set { ROWS_TEXT, ROWS_FIGURES, ROWS_FLAGS, ROW_SETS };
#define GPU_ROWS_MAX 32

static const kb_column *const *gpu_rows(enum row_set set, size_t *n)
{
    static const kb_column *rows[ROW_SETS][GPU_ROWS_MAX];
    static size_t counts[ROW_SETS];
    static int done;
    if (!done) {
        size_t ncols;
        const kb_column *cols = kb_table_columns(KB_GPUS, &ncols);
        for (size_t i = 0; i < ncols; i++) {
            int s = cols[i].type == KB_TEXT ? ROWS_TEXT
                    : cols[i].type == KB_NUMBER ? ROWS_FIGURES : ROWS_FLAGS;
            if (cols[i].label && counts[s] < GPU_ROWS_MAX)
                rows[s][counts[s]++] = &cols[i];
        }
        done = 1;
    }
    *n = counts[set];
    return rows[set];
}

static const kb_column *gpu_column(const char *field)
{
    return kb_table_column(KB_GPUS, field);
}

/* A GPU field, or a derived field of `kb list`, that holds text. */
static int field_is_text(const char *field)
{
    const kb_column *c = gpu_column(field);
    const kb_derived *d = kb_gpu_derived_find(field);
    return (c && c->type == KB_TEXT) || (d && d->type == KB_TEXT);
}

/* How a person reads one figure, in its column's text form: "2,039 GB/s", "312 TFLOPS dense
 * (624 with 2:4 sparsity)", "Gen 4 x16", "none" for no NVLink.  brief leaves the sparse figure
 * out.  Caller frees; NULL when unknown. */
static char *spec_text(const kb_gpu *g, const kb_column *c, int brief)
{
    double v = kb_column_number(c, g);
    gw_buf b = GW_BUF_INIT;
    if (isnan(v))
        return NULL;
    switch (c->form) {
    case KB_FORM_MEMORY:
        put_fig(&b, v);
        buf_printf(&b, " %s", c->unit);
        if (g->memory_type)
            buf_printf(&b, " %s", g->memory_type);
        break;
    case KB_FORM_PCIE:
        buf_puts(&b, "Gen ");
        put_fig(&b, v);
        if (!isnan(g->pcie_lanes)) {
            buf_puts(&b, " x");
            put_fig(&b, g->pcie_lanes);
        }
        break;
    case KB_FORM_MONEY:   /* the launch price: dated by the launch, as every price is shown */
        units_format_money(&b, v, c->unit, 0);
        buf_printf(&b, " (as of %s)", g->release_date ? g->release_date : "an unknown date");
        break;
    case KB_FORM_YES_NO:
        buf_puts(&b, v != 0 ? "yes" : "no");
        break;
    case KB_FORM_NONE_IF_ZERO:
        if (v == 0) {
            buf_puts(&b, "none");
            break;
        }
        /* fall through */
    default:
        put_fig(&b, v);
        if (*c->unit)
            buf_printf(&b, " %s", c->unit);
        if (c->form == KB_FORM_DENSE && !brief && g->sparsity && !strcmp(g->sparsity, "2:4")) {
            buf_puts(&b, " (");
            put_fig(&b, 2 * v);
            buf_puts(&b, " with 2:4 sparsity)");
        }
        break;
    }
    return buf_detach(&b);
}

/* A text row as a datasheet reads it. */
static const char *text_row(const kb_gpu *g, const kb_column *c)
{
    const char *t = kb_column_text(c, g);
    if (t && c->form == KB_FORM_SPARSITY)
        return "2:4 structured (tensor figures below are dense)";
    return t;
}

/* Every field of a GPU under its stable snake_case name, plus FIELD_text (the whole field name,
 * unit and all: memory_bandwidth_gbs_text, as every view names its text twins) for people. */
static void gpu_to_view(const kb_gpu *g, view *m)
{
    const char *const *fields = kb_gpu_fields();
    for (size_t i = 0; fields[i]; i++) {
        const kb_column *c = gpu_column(fields[i]);
        if (c->type == KB_TEXT)
            view_map_set_str(m, fields[i], kb_column_text(c, g));
        else if (c->type == KB_FLAG)
            view_map_set(m, fields[i], isnan(kb_column_number(c, g)) ? view_null()
                                       : view_bool(kb_column_number(c, g) != 0));
        else
            view_map_set_num(m, fields[i], kb_column_number(c, g));
    }
    size_t n;
    const kb_column *const *figures = gpu_rows(ROWS_FIGURES, &n);
    for (size_t i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof key, "%s_text", figures[i]->name);
        set_text(m, key, spec_text(g, figures[i], 0));
    }
    view_map_set_str(m, "source", g->source);
    view_map_set_str(m, "note", g->note);
}

typedef struct cite_list {
    view *sources;     /* [{n,id,title,publisher,url,retrieved}] */
    view *citations;   /* the same for templates: {n,title,publisher,date,url} */
} cite_list;

/* The citation number of source id, adding it on first use. */
static int cite(kb *k, cite_list *c, const char *id)
{
    if (!id)
        return 0;
    for (size_t i = 0; i < view_len(c->sources); i++)
        if (!strcmp(view_str(view_map_get(view_list_at(c->sources, i), "id")), id))
            return (int)i + 1;
    kb_source s;
    gw_error ignore;
    int n = (int)view_len(c->sources) + 1;
    view *m = view_list_push(c->sources, view_map());
    view_map_set_int(m, "n", n);
    view_map_set_str(m, "id", id);
    if (kb_source_get(k, id, &s, &ignore) == GW_OK) {
        view_map_set_str(m, "title", s.title);
        view_map_set_str(m, "publisher", s.publisher);
        view_map_set_str(m, "url", s.url);
        view_map_set_str(m, "retrieved", s.retrieved);
        view_map_set_str(m, "kind", s.kind);
        view *cm = view_list_push(c->citations, view_map());
        view_map_set_int(cm, "n", n);
        view_map_set_str(cm, "id", id);
        view_map_set_str(cm, "title", s.title);
        view_map_set_str(cm, "publisher", s.publisher);
        view_map_set_str(cm, "date", s.retrieved);
        view_map_set_str(cm, "url", s.url);
        kb_source_free(&s);
    }
    return n;
}

static int read_aliases(kb *k, const char *id, view *list, gw_error *err);

/* The spec rows of a datasheet: the labelled columns in their text form, text rows first. */
static void datasheet_specs(const kb_gpu *g, view *specs)
{
    for (int set = ROWS_TEXT; set < ROW_SETS; set++) {
        size_t nr;
        const kb_column *const *rows = gpu_rows((enum row_set)set, &nr);
        for (size_t i = 0; i < nr; i++) {
            const char *text = set == ROWS_TEXT ? text_row(g, rows[i]) : NULL;
            char *owned = set == ROWS_TEXT ? NULL : spec_text(g, rows[i], 0);
            if (!text && !owned)
                continue;
            view *r = view_list_push(specs, view_map());
            view_map_set_str(r, "field", rows[i]->name);
            view_map_set_str(r, "label", rows[i]->label);
            view_map_set_str(r, "text", owned ? owned : text);
            free(owned);
        }
    }
}

static void datasheet_benchmarks(kb *k, cite_list *c, const kb_benchmark *bench, size_t nb,
                                 view *bl)
{
    for (size_t i = 0; i < nb; i++) {
        const kb_benchmark *b = &bench[i];
        view *r = view_list_push(bl, view_map());
        view_map_set_str(r, "workload", b->workload);
        view_map_set_str(r, "metric", b->metric);
        view_map_set_num(r, "value", b->value);
        view_map_set_str(r, "unit", b->unit);
        set_text(r, "value_text", fig_unit(b->value, b->unit));
        view_map_set_num(r, "gpu_count", b->gpu_count);
        view_map_set_str(r, "precision", b->precision);
        view_map_set_num(r, "batch", b->batch);
        view_map_set_str(r, "framework", b->framework);
        view_map_set_str(r, "interconnect", b->interconnect);
        view_map_set_num(r, "power_w", b->power_w);
        view_map_set_str(r, "source", b->source);
        view_map_set_int(r, "source_n", cite(k, c, b->source));
        view_map_set_str(r, "note", b->note);
    }
}

static void datasheet_prices(kb *k, cite_list *c, const kb_price *prices, size_t np, view *pl)
{
    for (size_t i = 0; i < np; i++) {
        const kb_price *p = &prices[i];
        view *r = view_list_push(pl, view_map());
        gw_buf money = GW_BUF_INIT;
        units_format_money(&money, p->amount, p->currency, -1);
        view_map_set_str(r, "kind", p->kind);
        view_map_set_num(r, "amount", p->amount);
        view_map_set_str(r, "currency", p->currency);
        view_map_set_str(r, "unit", p->unit);
        buf_printf(&money, "%s", !strcmp(p->unit, "hour") ? "/h" : "");
        view_map_set_str(r, "amount_text", buf_cstr(&money));
        buf_free(&money);
        view_map_set_num(r, "gpu_count", p->gpu_count);
        view_map_set_str(r, "region", p->region);
        view_map_set_str(r, "provider", p->provider);
        view_map_set_str(r, "instance", p->instance);
        view_map_set_str(r, "system", p->system);
        view_map_set_bool(r, "spot", p->spot);
        view_map_set_str(r, "as_of", p->as_of);
        view_map_set_str(r, "source", p->source);
        view_map_set_int(r, "source_n", cite(k, c, p->source));
        view_map_set_str(r, "note", p->note);
    }
}

/* The machines a GPU sold on a board is bought in (SXM, OAM): "Sold in". */
static void datasheet_systems(kb *k, cite_list *c, const kb_system *systems, size_t ns,
                              view *sl)
{
    for (size_t i = 0; i < ns; i++) {
        const kb_system *x = &systems[i];
        view *r = view_list_push(sl, view_map());
        view_map_set_str(r, "id", x->id);
        view_map_set_str(r, "name", x->name);
        view_map_set_num(r, "gpu_count", x->gpu_count);
        view_map_set_num(r, "power_w", x->power_w);
        view_map_set_num(r, "network_gbps", x->network_gbps);
        view_map_set_str(r, "note", x->note);
        view_map_set_str(r, "source", x->source);
        view_map_set_int(r, "source_n", cite(k, c, x->source));
    }
}

static void datasheet_claims(kb *k, cite_list *c, const kb_claim *claims, size_t nc, view *cl)
{
    for (size_t i = 0; i < nc; i++) {
        view *r = view_list_push(cl, view_map());
        view_map_set_str(r, "subject", claims[i].subject);
        view_map_set_str(r, "claim", claims[i].claim);
        view_map_set_str(r, "status", claims[i].status);
        view_map_set_str(r, "correction", claims[i].correction);
        view_map_set_str(r, "source", claims[i].source);
        view_map_set_int(r, "source_n", cite(k, c, claims[i].source));
        view_map_set_str(r, "correction_source", claims[i].correction_source);
        if (claims[i].correction_source)
            view_map_set_int(r, "correction_source_n", cite(k, c, claims[i].correction_source));
    }
}

/* The datasheet model of one GPU (see `kb show --json`).  Caller frees *out. */
static int datasheet_view(kb *k, const char *id, view **out, gw_error *err)
{
    kb_gpu g;
    kb_benchmark *bench = NULL;
    kb_price *prices = NULL;
    kb_claim *claims = NULL;
    kb_system *systems = NULL;
    size_t nb = 0, np = 0, nc = 0, ns = 0;
    int rc = kb_gpu_get(k, id, &g, err);
    if (rc)
        return rc;
    if ((rc = kb_benchmarks_find(k, id, NULL, &bench, &nb, err)) ||
        (rc = kb_prices_find(k, id, NULL, NULL, &prices, &np, err)) ||
        (rc = kb_systems_find(k, id, &systems, &ns, err)) ||
        (rc = kb_claims_for(k, id, &claims, &nc, err))) {
        kb_gpu_free(&g);
        kb_benchmarks_free(bench, nb);
        kb_prices_free(prices, np);
        kb_systems_free(systems, ns);
        return rc;
    }
    view *m = view_map();
    cite_list c = {view_list(), view_list()};
    gpu_to_view(&g, m);
    view_map_set_int(m, "source_n", cite(k, &c, g.source));
    rc = read_aliases(k, id, view_map_set(m, "aliases", view_list()), err);
    if (rc == GW_OK) {
        datasheet_specs(&g, view_map_set(m, "specs", view_list()));
        datasheet_benchmarks(k, &c, bench, nb, view_map_set(m, "benchmarks", view_list()));
        datasheet_systems(k, &c, systems, ns, view_map_set(m, "systems", view_list()));
        view_map_set_bool(m, "has_systems", ns > 0);
        datasheet_prices(k, &c, prices, np, view_map_set(m, "prices", view_list()));
        datasheet_claims(k, &c, claims, nc, view_map_set(m, "claims", view_list()));
        view_map_set(m, "sources", c.sources);
        view_map_set(m, "citations", c.citations);
        c.sources = c.citations = NULL;
        view_map_set(m, "title", view_stringf("%s datasheet", g.name));
    }
    view_free(c.sources);
    view_free(c.citations);
    kb_gpu_free(&g);
    kb_benchmarks_free(bench, nb);
    kb_prices_free(prices, np);
    kb_systems_free(systems, ns);
    kb_claims_free(claims, nc);
    if (rc) {
        view_free(m);
        return rc;
    }
    *out = m;
    return GW_OK;
}

static const char *vs(const view *m, const char *key)
{
    return view_str(view_map_get(m, key));
}

static void print_cite(FILE *f, const view *m)
{
    double n = view_num(view_map_get(m, "source_n"));
    if (!isnan(n) && n > 0)
        fprintf(f, " [%d]", (int)n);
}

/* "Measured results": one line per benchmark, with its citation. */
static void print_benchmarks(FILE *f, const view *m)
{
    const view *bl = view_map_get(m, "benchmarks");
    if (!view_len(bl))
        return;
    fputs("\nMeasured results\n", f);
    for (size_t i = 0; i < view_len(bl); i++) {
        const view *r = view_list_at(bl, i);
        gw_buf line = GW_BUF_INIT;
        double count = view_num(view_map_get(r, "gpu_count"));
        double power = view_num(view_map_get(r, "power_w"));
        buf_printf(&line, "  %s %s: %s", vs(r, "workload"), vs(r, "metric"),
                   vs(r, "value_text"));
        if (count != 1) {
            buf_puts(&line, " with ");
            put_fig(&line, count);
            buf_puts(&line, " GPUs");
            if (vs(r, "interconnect"))
                buf_printf(&line, " over %s", vs(r, "interconnect"));
        }
        if (vs(r, "precision"))
            buf_printf(&line, ", %s", vs(r, "precision"));
        if (vs(r, "framework"))
            buf_printf(&line, ", %s", vs(r, "framework"));
        if (!isnan(power)) {
            buf_puts(&line, ", at ");
            put_fig(&line, power);
            buf_puts(&line, " W");
        }
        fputs(buf_cstr(&line), f);
        print_cite(f, r);
        fputc('\n', f);
        buf_free(&line);
    }
}

/* "Prices": one line per price, with its citation. */
static void print_prices(FILE *f, const view *m)
{
    const view *pl = view_map_get(m, "prices");
    if (!view_len(pl))
        return;
    fputs("\nPrices\n", f);
    for (size_t i = 0; i < view_len(pl); i++) {
        const view *r = view_list_at(pl, i);
        double count = view_num(view_map_get(r, "gpu_count"));
        fprintf(f, "  %-5s %s", vs(r, "kind"), vs(r, "amount_text"));
        if (count != 1) {
            gw_buf b = GW_BUF_INIT;
            put_fig(&b, count);
            fprintf(f, " for %s GPUs", buf_cstr(&b));
            buf_free(&b);
        }
        if (vs(r, "provider"))
            fprintf(f, ", %s", vs(r, "provider"));
        if (vs(r, "instance"))
            fprintf(f, " %s", vs(r, "instance"));
        if (vs(r, "system"))
            fprintf(f, ", the whole %s", vs(r, "system"));
        if (view_bool_value(view_map_get(r, "spot")))
            fputs(" (spot)", f);
        if (vs(r, "region"))
            fprintf(f, ", %s", vs(r, "region"));
        fprintf(f, ", %s", vs(r, "as_of"));
        print_cite(f, r);
        fputc('\n', f);
    }
}

/* "Sold in": the servers an SXM or OAM part is bought in, with their power and network. */
static void print_systems(FILE *f, const view *m)
{
    const view *sl = view_map_get(m, "systems");
    if (!view_len(sl))
        return;
    fputs("\nSold in (bought as whole servers)\n", f);
    for (size_t i = 0; i < view_len(sl); i++) {
        const view *r = view_list_at(sl, i);
        gw_buf b = GW_BUF_INIT;
        buf_printf(&b, "  %s (%s): ", vs(r, "name"), vs(r, "id"));
        put_fig(&b, view_num(view_map_get(r, "gpu_count")));
        buf_puts(&b, " GPUs");
        double w = view_num(view_map_get(r, "power_w")), net = view_num(view_map_get(r,
                                                                                "network_gbps"));
        if (!isnan(w)) {
            buf_puts(&b, ", ");
            put_fig(&b, w);
            buf_puts(&b, " W at most");
        }
        if (!isnan(net)) {
            buf_puts(&b, ", ");
            put_fig(&b, net);
            buf_puts(&b, " Gb/s to other machines");
        }
        fputs(buf_cstr(&b), f);
        print_cite(f, r);
        fputc('\n', f);
        buf_free(&b);
    }
}

/* "Disputed claims", each with its correction when there is one. */
static void print_claims(FILE *f, const view *m)
{
    const view *cl = view_map_get(m, "claims");
    if (!view_len(cl))
        return;
    fputs("\nDisputed claims\n", f);
    for (size_t i = 0; i < view_len(cl); i++) {
        const view *r = view_list_at(cl, i);
        fprintf(f, "  (%s) %s", vs(r, "status"), vs(r, "claim"));
        print_cite(f, r);
        fputc('\n', f);
        if (vs(r, "correction")) {
            fprintf(f, "    correction: %s", vs(r, "correction"));
            double n = view_num(view_map_get(r, "correction_source_n"));
            if (!isnan(n))
                fprintf(f, " [%d]", (int)n);
            fputc('\n', f);
        }
    }
}

/* "Sources": the citations' numbers, titles and addresses. */
static void print_sources(FILE *f, const view *m)
{
    const view *sl = view_map_get(m, "sources");
    if (!view_len(sl))
        return;
    fputs("\nSources\n", f);
    for (size_t i = 0; i < view_len(sl); i++) {
        const view *r = view_list_at(sl, i);
        fprintf(f, "  [%d] %s", (int)view_num(view_map_get(r, "n")),
                vs(r, "title") ? vs(r, "title") : vs(r, "id"));
        if (vs(r, "publisher"))
            fprintf(f, ", %s", vs(r, "publisher"));
        if (vs(r, "retrieved"))
            fprintf(f, ", retrieved %s", vs(r, "retrieved"));
        fputc('\n', f);
        if (vs(r, "url"))
            fprintf(f, "      %s\n", vs(r, "url"));
    }
}

/* The terminal datasheet, printed from the view so it shows exactly what --json gives. */
static void datasheet_print(FILE *f, const view *m)
{
    fprintf(f, "%s (%s)\n", vs(m, "name"), vs(m, "id"));
    const view *specs = view_map_get(m, "specs");
    for (size_t i = 0; i < view_len(specs); i++) {
        const view *r = view_list_at(specs, i);
        fprintf(f, "  %-18s %s\n", vs(r, "label"), vs(r, "text"));
    }
    const view *aliases = view_map_get(m, "aliases");
    if (view_len(aliases)) {
        fprintf(f, "  %-18s ", "Also called");
        for (size_t i = 0; i < view_len(aliases); i++)
            fprintf(f, "%s%s", i ? ", " : "", view_str(view_list_at(aliases, i)));
        fputc('\n', f);
    }
    if (vs(m, "note"))
        fprintf(f, "  %-18s %s\n", "Note", vs(m, "note"));
    fprintf(f, "  %-18s", "Specs from");
    print_cite(f, m);
    fputc('\n', f);

    print_benchmarks(f, m);
    print_systems(f, m);
    print_prices(f, m);
    print_claims(f, m);
    print_sources(f, m);
}

static int read_aliases(kb *k, const char *id, view *list, gw_error *err)
{
    char **aliases;
    size_t n;
    int rc = kb_gpu_aliases(k, id, &aliases, &n, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        view_list_push(list, view_string(aliases[i]));
    kb_strings_free(aliases, n);
    return GW_OK;
}

/* ---- output ----------------------------------------------------------------------------- */

static int emit_json(gw_ctx *ctx, const view *v, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    view_to_json(v, &b, 1);
    int rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

/* Text printed by fn(f, v) into memory, then written like any other output (-o honoured). */
static int emit_text(gw_ctx *ctx, void (*fn)(FILE *, const view *), const view *v,
                     gw_error *err)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (!f)
        return gw_error_set(err, GW_EIO, "out of memory");
    fn(f, v);
    fclose(f);
    int rc = cli_write_output(ctx, data, len, err);
    free(data);
    return rc;
}

static int emit(gw_ctx *ctx, void (*fn)(FILE *, const view *), view *v, const char *doc,
                gw_error *err)
{
    if (ctx->json)
        return emit_json(ctx, v, err);
    if (doc && ctx->format && strcmp(ctx->format, "text") != 0)
        return cli_render_document(ctx, doc, v, err);
    return emit_text(ctx, fn, v, err);
}


/* A hit's fields, and the command that opens it (search and a source's facts). */
static void hit_to_view(const kb_hit *h, view *m, int ranked);

/* s as one shell word: as it is when every character is safe, else in single quotes. */
static void shell_word(gw_buf *b, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "-_.,:/@%+=";
    if (*s && strspn(s, safe) == strlen(s)) {
        buf_puts(b, s);
        return;
    }
    buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            buf_puts(b, "'\\''");
        else
            buf_putc(b, *s);
    }
    buf_putc(b, '\'');
}

/* "gpuwise kb show ID" / "gpuwise kb source ID": the command a person runs to open it. */
static char *open_command(const char *sub, const char *id)
{
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "gpuwise kb %s ", sub);
    if (id[0] == '-')
        buf_puts(&b, "-- ");   /* an id is never read as an option */
    shell_word(&b, id);
    return buf_detach(&b);
}

/* ---- show ------------------------------------------------------------------------------- */

static int cmd_show(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    kb *k = NULL;
    char *id = NULL;
    int count;
    view *m = NULL;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_gpu_resolve(k, a->argv[0], &id, &count, err);
    if (rc == GW_OK)
        rc = datasheet_view(k, id, &m, err);
    if (rc == GW_OK)
        rc = emit(ctx, datasheet_print, m, "datasheet", err);
    view_free(m);
    free(id);
    kb_close(k);
    return rc;
}

/* ---- compare ---------------------------------------------------------------------------- */

static void compare_print(FILE *f, const view *m)
{
    const view *gpus = view_map_get(m, "gpus"), *rows = view_map_get(m, "rows");
    size_t n = view_len(gpus), label_w = 10, *w = gw_xcalloc(n + 1, sizeof *w);
    for (size_t j = 0; j < n; j++)
        w[j] = strlen(vs(view_list_at(gpus, j), "name"));
    for (size_t i = 0; i < view_len(rows); i++) {
        const view *r = view_list_at(rows, i), *texts = view_map_get(r, "texts");
        if (strlen(vs(r, "label")) > label_w)
            label_w = strlen(vs(r, "label"));
        for (size_t j = 0; j < n; j++) {
            const char *t = view_str(view_list_at(texts, j));
            if (t && strlen(t) + 2 > w[j])
                w[j] = strlen(t) + 2;
        }
    }
    gw_buf head = GW_BUF_INIT;
    buf_printf(&head, "%-*s", (int)label_w, "");
    for (size_t j = 0; j < n; j++)
        buf_printf(&head, "  %-*s", (int)w[j], vs(view_list_at(gpus, j), "name"));
    while (head.len && head.data[head.len - 1] == ' ')
        head.data[--head.len] = '\0';
    fprintf(f, "%s\n", buf_cstr(&head));
    buf_free(&head);
    for (size_t i = 0; i < view_len(rows); i++) {
        const view *r = view_list_at(rows, i), *texts = view_map_get(r, "texts");
        const view *marks = view_map_get(r, "marks");
        gw_buf line = GW_BUF_INIT;
        buf_printf(&line, "%-*s", (int)label_w, vs(r, "label"));
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
        char *t = spec_text(&g[j], sr, 1);
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

static int cmd_compare(gw_ctx *ctx, const cli_args *a, gw_error *err)
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
            const kb_column *const *spec = gpu_rows((enum row_set)set, &nr);
            for (size_t i = 0; i < nr; i++)
                compare_row(rows, spec[i], g, n);
        }
        cite_list c = {view_list(), view_list()};
        for (size_t j = 0; j < n; j++)
            view_map_set_int(view_list_at(gl, j), "source_n", cite(k, &c, g[j].source));
        view_map_set(m, "sources", c.sources);
        view_map_set(m, "citations", c.citations);
        rc = emit(ctx, compare_print, m, "comparison", err);
        view_free(m);
    }
    kb_gpus_free(g, got);
    kb_strings_free(ids, n);
    kb_close(k);
    return rc;
}

/* ---- list ------------------------------------------------------------------------------- */

static const char *const default_columns[] = {"id", "name", "memory_gb", "memory_bandwidth_gbs",
                                              "tdp_w", "fp16_tflops", "nvlink_gbs", NULL};

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
        put_fig(&b, v);
    if (*d->unit)
        buf_printf(&b, " %s", d->unit);
    return buf_detach(&b);
}

/* A GPU's derived fields (kb_gpu_derived describes them) under their names, each figure with its
 * FIELD_text twin, as gpu_to_view does for the columns. */
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
        set_text(m, key, derived_text(d, kb_derived_number(d, v), currency));
    }
}

static void list_print(FILE *f, const view *m)
{
    const view *cols = view_map_get(m, "columns"), *gpus = view_map_get(m, "gpus");
    size_t nc = view_len(cols), ng = view_len(gpus);
    size_t *w = gw_xcalloc(nc + 1, sizeof *w);
    char **cells = gw_xcalloc((ng + 1) * nc + 1, sizeof *cells);
    for (size_t j = 0; j < nc; j++) {
        cells[j] = gw_xstrdup(view_str(view_list_at(cols, j)));
        w[j] = strlen(cells[j]);
    }
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < nc; j++) {
            const view *v = view_map_get(view_list_at(gpus, i), view_str(view_list_at(cols, j)));
            gw_buf b = GW_BUF_INIT;
            if (view_kind(v) == VIEW_STRING)
                buf_puts(&b, view_str(v));
            else if (view_kind(v) == VIEW_NUMBER)
                put_fig(&b, view_num(v));
            else if (view_kind(v) == VIEW_BOOL)
                buf_puts(&b, view_bool_value(v) ? "yes" : "no");
            else
                buf_puts(&b, "-");
            cells[(i + 1) * nc + j] = buf_detach(&b);
            if (strlen(cells[(i + 1) * nc + j]) > w[j])
                w[j] = strlen(cells[(i + 1) * nc + j]);
        }
    for (size_t i = 0; i <= ng; i++) {
        gw_buf line = GW_BUF_INIT;
        for (size_t j = 0; j < nc; j++) {
            const char *col = view_str(view_list_at(cols, j));
            int right = i > 0 && !field_is_text(col);
            buf_printf(&line, "%s%*s", j ? "  " : "", right ? (int)w[j] : -(int)w[j],
                       cells[i * nc + j]);
        }
        while (line.len && line.data[line.len - 1] == ' ')
            line.data[--line.len] = '\0';
        fprintf(f, "%s\n", buf_cstr(&line));
        buf_free(&line);
    }
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
    free(w);
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

static int cmd_list(gw_ctx *ctx, const cli_args *a, gw_error *err)
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
        gpu_to_view(&g[i], full);
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
        rc = emit_text(ctx, list_print, m, err);
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

/* ---- search ----------------------------------------------------------------------------- */

static const cli_column hit_columns[] = {
    {"kind", "Kind"}, {"ref", "Ref"}, {"title", "Title"}, {"snippet", "Snippet"},
    {"open", "Open"}, {NULL, NULL},
};

static void hit_to_view(const kb_hit *h, view *m, int ranked)
{
    view_map_set_str(m, "kind", h->kind);
    view_map_set_str(m, "ref", h->ref);
    view_map_set_str(m, "title", h->title);
    if (ranked) {
        view_map_set_str(m, "snippet", h->snippet);
        view_map_set_num(m, "rank", h->rank);
    }
    view_map_set_str(m, "gpu", h->gpu);
    view_map_set_str(m, "source", h->source);
    /* an entry about a GPU opens on its datasheet; anything else with its source */
    char *open = h->gpu ? open_command("show", h->gpu)
                        : h->source ? open_command("source", h->source) : NULL;
    view_map_set_str(m, "open", open);
    free(open);
}

/* One hit in the terminal, indent columns in: kind, ref and title, then the snippet (when
 * there is one) and the command that opens it (when there is one) on lines of their own. */
static void hit_print(FILE *f, const view *h, int indent)
{
    fprintf(f, "%*s%-9s %-18s %s\n", indent, "", vs(h, "kind"), vs(h, "ref"), vs(h, "title"));
    if (vs(h, "snippet"))
        fprintf(f, "%*s          %s\n", indent, "", vs(h, "snippet"));
    if (vs(h, "open"))
        fprintf(f, "%*s          %s\n", indent, "", vs(h, "open"));
}

static void search_print(FILE *f, const view *m)
{
    const view *hits = view_map_get(m, "hits");
    if (!view_len(hits))
        fprintf(f, "no match for '%s'\n", vs(m, "query"));
    for (size_t i = 0; i < view_len(hits); i++)
        hit_print(f, view_list_at(hits, i), 0);
}

static int cmd_search(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    double limit = 20;
    if (cli_number(a, "limit", 1, 1000, &limit, err) != GW_OK)
        return GW_EUSAGE;
    if (limit != floor(limit))
        return gw_error_set(err, GW_EUSAGE, "--limit: expected a whole number from 1 to 1000, "
                            "not '%s'", cli_value(a, "limit"));
    gw_buf q = GW_BUF_INIT;
    for (int i = 0; i < a->argc; i++)
        buf_printf(&q, "%s%s", i ? " " : "", a->argv[i]);
    kb *k = NULL;
    kb_hit *hits = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_search(k, buf_cstr(&q), (size_t)limit, &hits, &n, err);
    if (rc == GW_OK) {
        view *m = view_map();
        view_map_set_str(m, "query", buf_cstr(&q));
        view *hl = view_map_set(m, "hits", view_list());
        for (size_t i = 0; i < n; i++)
            hit_to_view(&hits[i], view_list_push(hl, view_map()), 1);
        if (!strcmp(ctx->format, "text"))
            rc = emit_text(ctx, search_print, m, err);
        else
            rc = cli_listing_write(ctx, m, hl, hit_columns, err);
        view_free(m);
    }
    kb_hits_free(hits, n);
    buf_free(&q);
    kb_close(k);
    return rc;
}

/* ---- sources, source -------------------------------------------------------------------- */

static const cli_column source_columns[] = {
    {"id", "Id"}, {"fact_count", "Facts"}, {"title", "Title"}, {"publisher", "Publisher"},
    {"retrieved", "Retrieved"}, {NULL, NULL},
};

static void source_to_view(const kb_source *s, view *e)
{
    view_map_set_str(e, "id", s->id);
    view_map_set_str(e, "title", s->title);
    view_map_set_str(e, "publisher", s->publisher);
    view_map_set_str(e, "url", s->url);
    view_map_set_str(e, "retrieved", s->retrieved);
    view_map_set_str(e, "kind", s->kind);
    view_map_set_str(e, "note", s->note);
}

static void sources_print(FILE *f, const view *m)
{
    const view *l = view_map_get(m, "sources");
    size_t w = 2;
    for (size_t i = 0; i < view_len(l); i++)
        if (strlen(vs(view_list_at(l, i), "id")) > w)
            w = strlen(vs(view_list_at(l, i), "id"));
    fprintf(f, "%-*s  %5s  %s\n", (int)w, "id", "facts", "title");
    for (size_t i = 0; i < view_len(l); i++) {
        const view *s = view_list_at(l, i);
        fprintf(f, "%-*s  %5lld  %s", (int)w, vs(s, "id"),
                (long long)view_num(view_map_get(s, "fact_count")), vs(s, "title"));
        if (vs(s, "publisher"))
            fprintf(f, " (%s%s%s)", vs(s, "publisher"), vs(s, "retrieved") ? ", " : "",
                    vs(s, "retrieved") ? vs(s, "retrieved") : "");
        fputc('\n', f);
    }
}

static int cmd_sources(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    kb_source *s = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_sources_list(k, &s, &n, err);
    if (rc == GW_OK) {
        view *m = view_map();
        view *l = view_map_set(m, "sources", view_list());
        for (size_t i = 0; i < n; i++) {
            view *e = view_list_push(l, view_map());
            source_to_view(&s[i], e);
            view_map_set_int(e, "fact_count", s[i].fact_count);
            char *open = open_command("source", s[i].id);
            view_map_set_str(e, "open", open);
            free(open);
        }
        if (!strcmp(ctx->format, "text"))
            rc = emit_text(ctx, sources_print, m, err);
        else
            rc = cli_listing_write(ctx, m, l, source_columns, err);
        view_free(m);
    }
    kb_sources_free(s, n);
    kb_close(k);
    return rc;
}

/* ---- kb models ---- */

static const cli_column model_columns[] = {
    {"id", "Id"}, {"name", "Name"}, {"params", "Parameters"}, {"active_params", "Active"},
    {"layers", "Layers"}, {"kv_heads", "KV heads"}, {"head_dim", "Head size"},
    {"context", "Context"}, {"source", "Source"}, {NULL, NULL},
};

/* Every column of a model row, as the table description names them (numbers NaN: null). */
static void model_to_view(const kb_model *m, view *e)
{
    size_t n;
    const kb_column *cols = kb_table_columns(KB_MODELS, &n);
    for (size_t i = 0; i < n; i++) {
        if (cols[i].type == KB_TEXT)
            view_map_set_str(e, cols[i].name, kb_column_text(&cols[i], m));
        else
            view_map_set_num(e, cols[i].name, kb_column_number(&cols[i], m));
    }
}

static void models_print(FILE *f, const view *m)
{
    const view *l = view_map_get(m, "models");
    fprintf(f, "%-16s %-20s %9s %9s %6s %9s %8s\n", "id", "name", "params", "active", "layers",
            "kv heads", "context");
    for (size_t i = 0; i < view_len(l); i++) {
        const view *r = view_list_at(l, i);
        double params = view_num(view_map_get(r, "params"));
        double active = view_num(view_map_get(r, "active_params"));
        char act[16] = "";
        if (active > 0)
            snprintf(act, sizeof act, "%.1fB", active / 1e9);
        fprintf(f, "%-16s %-20.20s %8.1fB %9s %6.0f %4.0fx%-4.0f %8.0f\n", vs(r, "id"),
                vs(r, "name"), params / 1e9, act, view_num(view_map_get(r, "layers")),
                view_num(view_map_get(r, "kv_heads")), view_num(view_map_get(r, "head_dim")),
                view_num(view_map_get(r, "context")));
    }
}

static int cmd_models(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    kb_model *rows = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_models_list(k, &rows, &n, err);
    if (rc == GW_OK) {
        view *m = view_map();
        view *l = view_map_set(m, "models", view_list());
        for (size_t i = 0; i < n; i++)
            model_to_view(&rows[i], view_list_push(l, view_map()));
        if (!strcmp(ctx->format, "text"))
            rc = emit_text(ctx, models_print, m, err);
        else
            rc = cli_listing_write(ctx, m, l, model_columns, err);
        view_free(m);
    }
    kb_models_free(rows, n);
    kb_close(k);
    return rc;
}

/* The labelled fields of a source, in the order the terminal and Markdown show them. */
static const struct {
    const char *key, *label;
} source_fields[] = {
    {"id", "Id"}, {"publisher", "Publisher"}, {"kind", "Kind"}, {"retrieved", "Retrieved"},
    {"url", "URL"}, {"note", "Note"},
};
#define N_SOURCE_FIELDS (sizeof source_fields / sizeof source_fields[0])

static void source_print(FILE *f, const view *m)
{
    fprintf(f, "%s\n", vs(m, "title"));
    for (size_t i = 0; i < N_SOURCE_FIELDS; i++)
        if (vs(m, source_fields[i].key))
            fprintf(f, "  %-18s %s\n", source_fields[i].label, vs(m, source_fields[i].key));
    const view *facts = view_map_get(m, "facts");
    if (!view_len(facts)) {
        fputs("\nNothing in the KB cites it.\n", f);
        return;
    }
    fprintf(f, "\nCited by %zu entr%s\n", view_len(facts), view_len(facts) == 1 ? "y" : "ies");
    for (size_t i = 0; i < view_len(facts); i++)
        hit_print(f, view_list_at(facts, i), 2);
}

/* Markdown text of one table cell or list item: escaped, on one line. */
static void md_text(gw_buf *b, const char *s)
{
    gw_buf one = GW_BUF_INIT;
    buf_puts(&one, s ? s : "");
    for (size_t i = 0; i < one.len; i++)
        if (one.data[i] == '\n' || one.data[i] == '\r')
            one.data[i] = ' ';
    mustache_escape_markdown(b, one.data ? one.data : "", one.len);
    buf_free(&one);
}

static void source_markdown(gw_buf *b, const view *m)
{
    buf_puts(b, "# ");
    md_text(b, vs(m, "title"));
    buf_puts(b, "\n\n");
    for (size_t i = 0; i < N_SOURCE_FIELDS; i++) {
        if (!vs(m, source_fields[i].key))
            continue;
        buf_printf(b, "- %s: ", source_fields[i].label);
        md_text(b, vs(m, source_fields[i].key));
        buf_putc(b, '\n');
    }
    const view *facts = view_map_get(m, "facts");
    if (!view_len(facts)) {
        buf_puts(b, "\nNothing in the KB cites it.\n");
        return;
    }
    buf_printf(b, "\nCited by %zu entr%s:\n\n", view_len(facts),
               view_len(facts) == 1 ? "y" : "ies");
    buf_puts(b, "| Kind | Ref | Title | Open |\n| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < view_len(facts); i++) {
        const view *h = view_list_at(facts, i);
        static const char *const keys[] = {"kind", "ref", "title", "open"};
        buf_putc(b, '|');
        for (size_t c = 0; c < 4; c++) {
            buf_putc(b, ' ');
            md_text(b, vs(h, keys[c]));
            buf_puts(b, " |");
        }
        buf_putc(b, '\n');
    }
}

/* "no source 'x' (did you mean 'y'?)": the closest id, as an unknown GPU gets. */
static int source_not_found(kb *k, const char *id, gw_error *err)
{
    kb_source *s = NULL;
    size_t n = 0;
    gw_error ignore;
    const char *near = NULL;
    const char **ids = NULL;
    if (kb_sources_list(k, &s, &n, &ignore) == GW_OK) {
        ids = gw_xcalloc(n + 1, sizeof *ids);
        for (size_t i = 0; i < n; i++)
            ids[i] = s[i].id;
        near = gw_closest(id, ids);
    }
    if (near)
        gw_error_set(err, GW_ENOTFOUND, "no source '%.200s' (did you mean %s?)", id, near);
    else
        gw_error_set(err, GW_ENOTFOUND, "no source '%.200s' (gpuwise kb sources lists them)", id);
    free(ids);
    kb_sources_free(s, n);
    return GW_ENOTFOUND;
}

static int cmd_source(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    kb *k = NULL;
    kb_source s;
    kb_hit *facts = NULL;
    size_t n = 0;
    memset(&s, 0, sizeof s);
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK && (rc = kb_source_get(k, a->argv[0], &s, err)) == GW_ENOTFOUND)
        rc = source_not_found(k, a->argv[0], err);
    if (rc == GW_OK)
        rc = kb_source_facts(k, s.id, &facts, &n, err);
    if (rc == GW_OK) {
        view *m = view_map();
        source_to_view(&s, m);
        view_map_set_int(m, "fact_count", (long long)n);
        view *fl = view_map_set(m, "facts", view_list());
        for (size_t i = 0; i < n; i++) {
            view *h = view_list_push(fl, view_map());
            hit_to_view(&facts[i], h, 0);
            if (!facts[i].gpu)   /* it would open this very page */
                view_map_set(h, "open", view_null());
        }
        if (ctx->json) {
            rc = emit_json(ctx, m, err);
        } else if (!strcmp(ctx->format, "md")) {
            gw_buf b = GW_BUF_INIT;
            source_markdown(&b, m);
            rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
            buf_free(&b);
        } else {
            rc = emit_text(ctx, source_print, m, err);
        }
        view_free(m);
    }
    kb_hits_free(facts, n);
    kb_source_free(&s);
    kb_close(k);
    return rc;
}

/* ---- check, fields ---------------------------------------------------------------------- */

static int cmd_check(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    gw_buf report = GW_BUF_INIT;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_check(k, &report, err);
    if (rc == GW_OK || rc == GW_EDATA) {
        /* the report is the answer either way; a failed check still exits 65 */
        gw_error werr;
        int wrc;
        if (ctx->json) {
            view *m = view_map();
            view_map_set_bool(m, "ok", rc == GW_OK);
            view_map_set_str(m, "report", buf_cstr(&report));
            wrc = emit_json(ctx, m, &werr);
            view_free(m);
        } else {
            wrc = cli_write_output(ctx, buf_cstr(&report), report.len, &werr);
        }
        if (wrc != GW_OK) {
            *err = werr;
            rc = wrc;
        }
    }
    buf_free(&report);
    kb_close(k);
    return rc;
}

/* The GPU fields, then the derived fields of `kb list` (with their label after a third tab). */
static int cmd_fields(gw_ctx *ctx, const cli_args *a, gw_error *err)
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
        rc = emit_json(ctx, l, err);
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

/* ---- export, import, upgrade ------------------------------------------------------------ */

static int cmd_export(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    gw_buf out = GW_BUF_INIT;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_export(k, &out, err);
    if (rc == GW_OK)
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
    buf_free(&out);
    kb_close(k);
    return rc;
}

/* What an import changed, for people ("gpus 15 added") or as JSON. */
static int import_report(gw_ctx *ctx, kb *k, int nfiles, const kb_import_counts *counts,
                         gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    if (ctx->json) {
        view *m = view_map();
        view_map_set_str(m, "kb", kb_path(k));
        view_map_set_int(m, "files", nfiles);
        view *tables = view_map_set(m, "tables", view_map());
        for (int t = 0; t < KB_TABLES; t++) {
            view *e = view_map_set(tables, kb_table_name(t), view_map());
            view_map_set_int(e, "added", (long long)counts->added[t]);
            view_map_set_int(e, "updated", (long long)counts->updated[t]);
            view_map_set_int(e, "unchanged", (long long)counts->unchanged[t]);
        }
        view_to_json(m, &b, 1);
        view_free(m);
    } else {
        size_t unchanged = 0, changed = 0;
        buf_printf(&b, "imported %d file%s into %s\n", nfiles, nfiles == 1 ? "" : "s",
                   kb_path(k));
        for (int t = 0; t < KB_TABLES; t++) {
            unchanged += counts->unchanged[t];
            if (!counts->added[t] && !counts->updated[t])
                continue;
            changed++;
            buf_printf(&b, "  %-10s %zu added", kb_table_name(t), counts->added[t]);
            if (counts->updated[t])
                buf_printf(&b, ", %zu updated", counts->updated[t]);
            buf_putc(&b, '\n');
        }
        if (!changed)
            buf_puts(&b, "  nothing new\n");
        if (unchanged)
            buf_printf(&b, "  %zu row%s already there\n", unchanged, unchanged == 1 ? "" : "s");
    }
    int rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

/* ---- import --with: the plugin host and the progress line ---------------------------------- */

/* The progress line of `kb import --with` on a terminal, redrawn in place. */
static void import_progress(const records_progress *p, void *arg)
{
    FILE *diag = arg;
    switch (p->stage) {
    case RECORDS_CONVERTING:
        fprintf(diag, "\r%s: converting %s (%zu bytes)...", p->importer, p->path, p->bytes_total);
        break;
    case RECORDS_BATCH_DONE:
        fprintf(diag, "\r%s: %s: %zu records stored (%d%%)...", p->importer, p->path, p->stored,
                p->bytes_total ? (int)(100.0 * (double)p->bytes_done / (double)p->bytes_total)
                               : 100);
        break;
    case RECORDS_FINISHED:
        fputs("\r\033[K", diag);
        if (p->ok)
            fprintf(diag, "\r%s: stored %zu records\033[K\n", p->importer, p->stored);
        break;
    }
}

/* Converts path (open as f) with the importer plugin and stores its records in the open
 * transaction. */
static int import_with(gw_ctx *ctx, kb *k, const char *importer, const char *path, FILE *f,
                       kb_import_counts *counts, gw_error *err)
{
    plugin_host *host = NULL;
    gw_buf messages = GW_BUF_INIT;
    int rc = cli_plugins_open(ctx, k, &host, err);
    if (rc == GW_OK)
        rc = records_import_stream(k, host, importer, path, f,
                                   ctx->progress ? import_progress : NULL, ctx->diag, &messages,
                                   counts, err);
    fputs(buf_cstr(&messages), ctx->diag);
    buf_free(&messages);
    plugin_host_free(host);
    return rc;
}

/* Copies the rest of in to a temporary file (at most max + 1 bytes) and returns it rewound. */
static FILE *spool(FILE *in, size_t max, gw_error *err)
{
    FILE *f = tmpfile();
    char chunk[65536];
    size_t n, total = 0;
    if (!f) {
        gw_error_set(err, GW_ECANTCREAT, "a temporary file: %s", strerror(errno));
        return NULL;
    }
    while (total <= max && (n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        total += n;
        if (fwrite(chunk, 1, n, f) != n) {
            gw_error_set(err, GW_EIO, "a temporary file: %s", strerror(errno));
            fclose(f);
            return NULL;
        }
    }
    rewind(f);
    return f;
}

/* Opens a file to import, to be read in chunks.  An import reads each file twice, so standard
 * input, a pipe or a device is copied to a temporary file first.  The errors are
 * gw_read_input's. */
static int open_import(const char *path, FILE **out, gw_error *err)
{
    size_t max;
    struct stat st;
    int rc = gw_input_max(GW_INPUT_IMPORT, &max, err);
    int is_stdin = strcmp(path, "-") == 0;
    *out = NULL;
    if (rc != GW_OK)
        return rc;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", path, strerror(errno));
    if (is_stdin)
        path = "standard input";
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(f);
        return gw_error_set(err, GW_ENOINPUT, "%s: is a folder, not %s", path,
                            gw_input_what(GW_INPUT_IMPORT));
    }
    if (!S_ISREG(st.st_mode)) {
        FILE *copy = spool(f, max, err);
        if (!is_stdin)
            fclose(f);
        if (!copy)
            return err->code;
        f = copy;
        if (fstat(fileno(f), &st) != 0)
            st.st_size = 0;
    }
    if ((uintmax_t)st.st_size > (uintmax_t)max) {
        fclose(f);
        return gw_error_set(err, GW_EDATA, "%s: too large for %s: more than %zu MiB (%s raises "
                            "the limit)", path, gw_input_what(GW_INPUT_IMPORT), max >> 20,
                            gw_input_env(GW_INPUT_IMPORT));
    }
    *out = f;
    return GW_OK;
}

static int cmd_import(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    const char *with = cli_value(a, "with");
    int nfiles = a->argc;
    if (with && nfiles != 1)
        return gw_error_set(err, GW_EUSAGE, "--with takes one file");
    FILE **files = gw_xcalloc((size_t)nfiles, sizeof *files);
    int rc = GW_OK;
    for (int i = 0; i < nfiles && rc == GW_OK; i++)
        rc = open_import(a->argv[i], &files[i], err);
    kb *k = NULL;
    kb_import_counts counts;
    memset(&counts, 0, sizeof counts);
    if (rc == GW_OK)
        rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK && (rc = kb_begin(k, err)) == GW_OK) {
        if (with)
            rc = import_with(ctx, k, with, a->argv[0], files[0], &counts, err);
        else
            rc = kb_import_files(k, (size_t)nfiles, (const char *const *)a->argv, files, &counts,
                                 err);
        if (rc == GW_OK)
            rc = kb_commit(k, err);
        else
            kb_rollback(k);
    }
    if (rc == GW_OK)
        rc = import_report(ctx, k, nfiles, &counts, err);
    kb_close(k);
    for (int i = 0; i < nfiles; i++)
        if (files[i])
            fclose(files[i]);
    free(files);
    return rc;
}

static int cmd_upgrade(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    int rc = cli_open_kb(ctx, 1, &k, err);   /* opening it writable migrates it */
    if (rc == GW_OK) {
        gw_buf b = GW_BUF_INIT;
        if (ctx->json) {
            view *m = view_map();
            view_map_set_str(m, "kb", kb_path(k));
            view_map_set_int(m, "schema", kb_schema_version(k));
            view_to_json(m, &b, 1);
            view_free(m);
        } else {
            buf_printf(&b, "%s: schema %d\n", kb_path(k), kb_schema_version(k));
        }
        rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
        buf_free(&b);
    }
    kb_close(k);
    return rc;
}

/* ---- the commands ----------------------------------------------------------------------- */

static const cli_option list_options[] = {
    {"where", 0, "EXPR", CLI_TEXT, NULL,
     "only the GPUs the filter matches: conditions `FIELD OP VALUE` joined by `and` and `or`, "
     "grouped with parentheses (`gpuwise help kb` has the whole language); quote it, it is one "
     "argument", 0},
    {"sort", 0, "[-]FIELD", CLI_FIELD, NULL,
     "order by FIELD, lowest first, or highest first with a leading `-`; GPUs without the "
     "figure come last", 0},
    {"columns", 0, "A,B,...", CLI_FIELD, NULL,
     "the fields to show, comma-separated (the default: id, name, memory_gb, "
     "memory_bandwidth_gbs, tdp_w, fp16_tflops, nvlink_gbs); `md`, `csv` and `json` keep to "
     "them too", 0},
    {"currency", 0, "CUR", CLI_TEXT, NULL,
     "the currency of the price fields (USD, CNY, EUR, ...; the default: USD), converted with "
     "the KB's latest exchange rates", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_option search_options[] = {
    {"limit", 0, "N", CLI_TEXT, NULL, "at most N hits, from 1 to 1000 (the default: 20)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_option import_options[] = {
    {"with", 0, "IMPORTER", CLI_IMPORTER, NULL,
     "convert FILE with this importer plugin first (`gpuwise plugin list` names them); one "
     "file only", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command kb_commands[] = {
    {"kb show", "NAME", 1, 1, CLI_GPU,
     "one GPU's datasheet: specs, aliases, measured results, prices, disputed claims and "
     "sources",
     "Shows one GPU's datasheet: its specs, the other names it goes by, measured results, "
     "prices, the disputed claims about it, and the sources every figure comes from, numbered "
     "like footnotes.  For example `gpuwise kb show \"RTX 3090\"`.\n\n"
     "`md` and `html` render the datasheet template; `json` gives every field under its stable "
     "snake_case name (the names `gpuwise kb fields` lists) with a `*_text` form for people "
     "beside each figure.\n\n"
     "Exit status: 0 ok, 64 usage, 66 missing KB, 67 an unknown or ambiguous name.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON,
     CLI_TEMPLATE, cmd_show, NULL},
    {"kb compare", "NAME NAME...", 1, -1, CLI_GPU,
     "GPUs side by side; '*' marks the best value of each row",
     "Puts GPUs side by side, one column each, and marks the best value of each row with `*` "
     "(lower is better for TDP and price; no mark where the figures agree); the launch price "
     "is dated by the release (\"$1,499 (as of 2020-09)\").  A family name "
     "(`h100`, `a100`) stands for every variant it matches, and the variants are named on "
     "standard error; a GPU named twice is shown once.  From 2 to 16 GPUs.  For example "
     "`gpuwise kb compare 3090 \"A100 80GB\"`, `gpuwise kb compare h100 a100` or "
     "`gpuwise kb compare 4090 h100-sxm5 -o compare.html`.\n\n"
     "`md` and `html` render the comparison template, with charts; `json` gives each row's "
     "values, texts, marks and the index of the best.\n\n"
     "Exit status: 0 ok, 64 usage (fewer than two GPUs or more than 16), 67 an unknown name.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON,
     CLI_TEMPLATE, cmd_compare, NULL},
    {"kb list", NULL, 0, -1, CLI_TEXT,
     "a table of GPUs, filtered and sorted",
     "Lists the GPUs of the KB as a table, one row each, filtered with `--where` and sorted "
     "with `--sort`.  For example `gpuwise kb list --where 'memory_gb>=48 and nvlink_gbs>0' "
     "--sort -memory_bandwidth_gbs`.\n\n"
     "Besides the GPU fields, `--where`, `--sort` and `--columns` take these derived fields, "
     "the prices in `--currency` (USD unless given); a GPU without a new price has none of "
     "the price figures (they are empty, never 0, and sort last).  Every price is shown with "
     "its date: `--columns` with a price field and without `new_price_as_of` gets that column "
     "at the end, and `launch_price_usd` brings `release_date`:\n\n"
     "@KB_DERIVED_FIELDS@\n\n"
     "For example `gpuwise kb list --where 'memory_gb >= 24 and price_per_gb < 100' --sort "
     "price_per_fp16_tflops --columns id,new_price,new_price_as_of,price_per_gb,"
     "price_per_fp16_tflops --currency EUR`.\n\n"
     "`md` and `csv` write the columns the terminal table shows (the CSV header row is their "
     "field names); `json` gives the filter, the sort, the currency, the columns and every GPU "
     "with all its fields (each figure with a `FIELD_text` form for people), or only those of "
     "`--columns`.\n\n"
     "Exit status: 0 ok, 64 usage (an unknown field, a bad filter, a malformed currency), 67 a "
     "currency the KB has no exchange rate for.",
     list_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cmd_list, NULL},
    {"kb search", "TEXT...", 1, -1, CLI_TEXT,
     "full-text search over everything, ranked, with snippets and the command that opens each",
     "Searches everything in the KB: GPUs and their aliases, measured results, prices, "
     "sources, disputed claims, exchange rates and the figures the decision assumes.  Hits "
     "come best first (a GPU's own entry weighs double), each with a snippet in which `[` and "
     "`]` mark the words found.  Any text is accepted and read as plain words; when no entry "
     "has every word, entries with some of them are listed.  A word starting with `-` goes "
     "after `--`.\n\n"
     "Every hit carries the command that opens it: `gpuwise kb show ID` for an entry about a "
     "GPU (its datasheet shows the results, prices and claims), `gpuwise kb source ID` for a "
     "source, and for an exchange rate, an assumed figure or a claim about no one GPU, the "
     "source it cites.  Run it with the same `--kb`.\n\n"
     "`md` and `csv` write kind, ref, title, snippet and that command (`open`); `json` adds "
     "the rank, the GPU and the source of each hit.\n\n"
     "Exit status: 0 ok (also when nothing matches), 64 usage.",
     search_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV,
     0, cmd_search, NULL},
    {"kb sources", NULL, 0, 0, CLI_TEXT,
     "the sources, with how many facts cite each",
     "Lists every source of the KB (datasheets, whitepapers, benchmark tables, articles) with "
     "how many facts cite it: GPUs, measured results, prices, exchange rates, claims and "
     "assumed figures.  `gpuwise kb source ID` shows one with those facts.\n\n"
     "`md` and `csv` write id, fact count, title, publisher and retrieval date; `json` adds the "
     "URL, kind, note and the command that opens each.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cmd_sources, NULL},
    {"kb models", NULL, 0, 0, CLI_TEXT,
     "the model catalog: language models a workload can name",
     "Lists the KB's language models (kb/data/models.csv: Llama, Mistral, Mixtral, Qwen, "
     "DeepSeek, ...) with the architecture facts a workload's memory and speed are computed "
     "from: parameters (active ones for a mixture of experts), layers, KV heads x head size, "
     "context.  A workload names one by id or name (`model = \"llama-3-70b\"`).\n\n"
     "`md` and `csv` write the columns shown; `json` gives every column of the model table, "
     "the source and note included.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cmd_models, NULL},
    {"kb source", "ID", 1, 1, CLI_TEXT,
     "one source: title, publisher, URL, date, and every entry that cites it",
     "Shows one source (its id as `gpuwise kb sources` and `gpuwise kb search` give it): "
     "title, publisher, kind, retrieval date, URL and note, then every entry that cites it "
     "(a claim also when it cites it for its correction), each with the command that opens "
     "it.  For example `gpuwise kb source nvidia-a100-datasheet`.\n\n"
     "Exit status: 0 ok, 64 usage, 67 no source with that id (the closest is suggested).",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON, 0, cmd_source, NULL},
    {"kb check", NULL, 0, 0, CLI_TEXT,
     "integrity, foreign keys, every fact sourced (exit 65 if not)",
     "Checks the KB file: SQLite's integrity check, foreign keys, that every fact cites a "
     "source, and that the search index is complete.  The report is written either way; "
     "`json` gives `ok` and the report.\n\n"
     "Exit status: 0 the KB is sound, 65 it is not.",
     NULL, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cmd_check, NULL},
    {"kb export", NULL, 0, 0, CLI_TEXT,
     "the whole KB as one CSV text bundle",
     "Writes the whole KB as one text file of CSV sections, one per table, to standard output "
     "or `-o FILE`.  `gpuwise kb import` reads it back into the same KB: exporting that again "
     "gives the same bytes.",
     NULL, 0, CLI_OUTPUT, cmd_export, NULL},
    {"kb import", "FILE...", 1, -1, CLI_FILE,
     "add table CSVs or an export, all in one transaction",
     "Adds table CSV files (those of `kb/data`, each table known from its header row) or a "
     "whole export, in any order and all in one transaction: every file is read before "
     "anything is stored, and one bad row leaves the KB as it was, naming the file and line.  "
     "Rows with a key (sources, GPUs, aliases, rates, assumed figures) replace the row with "
     "that key; other rows are added unless an identical one is there.  The files are RFC 4180 "
     "CSV in UTF-8, read in chunks: a quote inside an unquoted field, invalid UTF-8 or a control "
     "character other than tab and newline is refused with its file and line (and column, for "
     "a byte that is not text); a `#` "
     "line between records is a comment.  With `--with IMPORTER`, FILE is converted by that "
     "importer plugin first.\n\n"
     "It writes to `--kb` (or `$GPUWISE_KB`), else to the user's KB, made as a copy of the "
     "shipped one on first write; the shipped KB is never written.  The report says what each "
     "table gained; `json` gives the counts added, updated and unchanged per table.\n\n"
     "Exit status: 0 ok, 64 usage, 65 a bad row or a file that is not a KB, 66 a missing "
     "file, 75 another program is writing the KB.",
     import_options, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cmd_import, NULL},
    {"kb upgrade", NULL, 0, 0, CLI_TEXT,
     "migrate an older KB file to this version's schema",
     "Migrates a KB file written by an older gpuwise to this version's schema, in place, and "
     "says which schema it has now.  Other commands read an older KB only after this.\n\n"
     "Exit status: 0 ok, 65 not a KB or one from a newer gpuwise, 66 missing, 75 busy.",
     NULL, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cmd_upgrade, NULL},
    {"kb fields", NULL, 0, 0, CLI_TEXT,
     "the field names --where, --sort and --columns accept",
     "Lists the GPU fields, one a line with its type (text or number) after a tab: the names "
     "`--where`, `--sort` and `--columns` of `gpuwise kb list` accept and `gpuwise kb show "
     "--json` uses; then the derived fields only `kb list` has (a price per GB, TFLOPS per "
     "watt, ...), each with `derived:` and its label after a second tab.  `json` gives the "
     "names only.",
     NULL, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cmd_fields, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_kb_group = {
    "kb", "look GPUs up, search, compare, import and export the knowledge base",
    "The knowledge base (KB) is an SQLite file of GPU specs, measured results, prices, "
    "exchange rates, claims and the figures the decision assumes, every fact citing its "
    "source.\n\n"
    "A GPU NAME is written the way people write it: `\"RTX 3090\"`, `3090`, `rtx_3090`, "
    "`\"A100 80GB\"`, `\"NVIDIA A100-SXM4-80GB\"`, `\"4x 3090\"`; case, spaces, dashes and "
    "underscores do not matter.  An ambiguous name lists the candidates and an unknown one "
    "suggests the closest (exit 67).\n\n"
    "Filters (`kb list --where`) are conditions `FIELD OP VALUE` joined by `and` (or `&&`) and "
    "`or` (or `||`) and grouped with parentheses, where OP is `=`, `!=`, `<`, `<=`, `>`, `>=` or "
    "`~` (contains), and VALUE a decimal number (`48`, `4.8e1`; no hex, `inf` or `nan`), a word "
    "or `'quoted text'`.  `and` binds tighter than `or`: `a or b and c` is `a or (b and c)`.  "
    "Text compares ignore case; `~` finds a part; a GPU without a figure matches no condition "
    "on it.  An unclosed `(`, a `)` without its `(` and an `and` or `or` without a condition on "
    "each side are errors that name their position (counted from 1).  `gpuwise kb fields` "
    "lists the fields, the derived ones of `kb list` too (a price per GB, TFLOPS per watt, "
    "...).  For example:\n\n"
    "    gpuwise kb list --where 'memory_gb>=48 and nvlink_gbs>0' \\\n"
    "        --sort -memory_bandwidth_gbs\n"
    "    gpuwise kb list --where \"name ~ 'ada' and tdp_w < 300\" --columns id,name,tdp_w\n"
    "    gpuwise kb list --where 'vendor = AMD or (memory_gb >= 80 and price_per_gb < 400)' \\\n"
    "        --sort price_per_gb --columns id,new_price,new_price_as_of,price_per_gb\n\n"
    "Tensor throughput is dense: a 2:4-sparse figure is never shown as if dense.\n\n"
    "Exit status: 64 usage, 65 bad data, 66 missing file, 67 unknown GPU, 75 KB busy.",
    kb_commands,
};
