/* cli_kb_show.c — `gpuwise kb show`: one GPU's datasheet (specs, aliases, measured results
 * summarised per workload, metric and GPU count or with --all every one, servers, prices,
 * disputed claims, numbered sources) as one view, and its terminal form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_kb_common.h"
#include "base/units.h"
#include "base/view.h"

/* A figure and its unit, as a measured result reads ("1,412 images/s").  Caller frees; NULL
 * when unknown. */
static char *fig_unit(double v, const char *unit)
{
    gw_buf b = GW_BUF_INIT;
    if (isnan(v))
        return NULL;
    cli_kb_put_figure(&b, v);
    if (unit && *unit)
        buf_printf(&b, " %s", unit);
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

/* The other names of GPU id, pushed onto list. */
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

/* The spec rows of a datasheet: the labelled columns in their text form, text rows first. */
static void datasheet_specs(const kb_gpu *g, view *specs)
{
    for (int set = ROWS_TEXT; set < ROW_SETS; set++) {
        size_t nr;
        const kb_column *const *rows = cli_kb_gpu_rows((enum cli_kb_row_set)set, &nr);
        for (size_t i = 0; i < nr; i++) {
            const char *text = set == ROWS_TEXT ? text_row(g, rows[i]) : NULL;
            char *owned = set == ROWS_TEXT ? NULL : cli_kb_spec_text(g, rows[i], 0);
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

static void datasheet_benchmarks(kb *k, cli_kb_cite_list *c, const kb_benchmark *bench,
                                 size_t nb, view *bl)
{
    for (size_t i = 0; i < nb; i++) {
        const kb_benchmark *b = &bench[i];
        view *r = view_list_push(bl, view_map());
        view_map_set_str(r, "workload", b->workload);
        view_map_set_str(r, "metric", b->metric);
        view_map_set_num(r, "value", b->value);
        view_map_set_str(r, "unit", b->unit);
        cli_kb_set_text(r, "value_text", fig_unit(b->value, b->unit));
        view_map_set_num(r, "gpu_count", b->gpu_count);
        view_map_set_str(r, "precision", b->precision);
        view_map_set_num(r, "batch", b->batch);
        view_map_set_str(r, "framework", b->framework);
        view_map_set_str(r, "interconnect", b->interconnect);
        view_map_set_num(r, "power_w", b->power_w);
        view_map_set_str(r, "source", b->source);
        view_map_set_int(r, "source_n", cli_kb_cite(k, c, b->source));
        view_map_set_str(r, "note", b->note);
    }
}

/* "lo–hi unit" ("1,300–1,500 images/s").  Caller frees. */
static char *range_text(double lo, double hi, const char *unit)
{
    gw_buf b = GW_BUF_INIT;
    cli_kb_put_figure(&b, lo);
    buf_puts(&b, "–");
    cli_kb_put_figure(&b, hi);
    if (unit && *unit)
        buf_printf(&b, " %s", unit);
    return buf_detach(&b);
}

/* A source and the number it is cited by. */
typedef struct cited {
    const char *source;
    int n;
} cited;

static int cited_cmp(const void *a, const void *b)
{
    const cited *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

/* The measured results, one row per workload, metric, GPU count, precision and unit: how
 * many, their median and range, the sources cited (in the order of their numbers); *total
 * counts the results. */
static void datasheet_summary(kb *k, cli_kb_cite_list *c, const kb_result_summary *s, size_t n,
                              view *list, double *total)
{
    *total = 0;
    for (size_t i = 0; i < n; i++) {
        view *r = view_list_push(list, view_map());
        view_map_set_str(r, "workload", s[i].workload);
        view_map_set_str(r, "metric", s[i].metric);
        view_map_set_num(r, "gpu_count", s[i].gpu_count);
        view_map_set_str(r, "precision", s[i].precision);
        view_map_set_str(r, "unit", s[i].unit);
        view_map_set_int(r, "rows", (long long)s[i].rows);
        view_map_set_num(r, "median", s[i].median);
        view_map_set_num(r, "min", s[i].min);
        view_map_set_num(r, "max", s[i].max);
        cli_kb_set_text(r, "median_text", fig_unit(s[i].median, s[i].unit));
        if (s[i].min < s[i].max)
            cli_kb_set_text(r, "range_text", range_text(s[i].min, s[i].max, s[i].unit));
        cited *sources = gw_xcalloc(s[i].n_sources + 1, sizeof *sources);
        for (size_t j = 0; j < s[i].n_sources; j++)
            sources[j] = (cited){s[i].sources[j], cli_kb_cite(k, c, s[i].sources[j])};
        qsort(sources, s[i].n_sources, sizeof *sources, cited_cmp);   /* [2] [5], not [5] [2] */
        view *list_of = view_map_set(r, "sources", view_list());
        for (size_t j = 0; j < s[i].n_sources; j++) {
            view *src = view_list_push(list_of, view_map());
            view_map_set_str(src, "source", sources[j].source);
            view_map_set_int(src, "source_n", sources[j].n);
        }
        free(sources);
        *total += (double)s[i].rows;
    }
}

static void datasheet_prices(kb *k, cli_kb_cite_list *c, const kb_price *prices, size_t np,
                             view *pl)
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
        view_map_set_int(r, "source_n", cli_kb_cite(k, c, p->source));
        view_map_set_str(r, "note", p->note);
    }
}

/* The machines a GPU sold on a board is bought in (SXM, OAM): "Sold in". */
static void datasheet_systems(kb *k, cli_kb_cite_list *c, const kb_system *systems,
                              size_t ns, view *sl)
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
        view_map_set_int(r, "source_n", cli_kb_cite(k, c, x->source));
    }
}

static void datasheet_claims(kb *k, cli_kb_cite_list *c, const kb_claim *claims, size_t nc,
                             view *cl)
{
    for (size_t i = 0; i < nc; i++) {
        view *r = view_list_push(cl, view_map());
        view_map_set_str(r, "subject", claims[i].subject);
        view_map_set_str(r, "claim", claims[i].claim);
        view_map_set_str(r, "status", claims[i].status);
        view_map_set_str(r, "correction", claims[i].correction);
        view_map_set_str(r, "source", claims[i].source);
        view_map_set_int(r, "source_n", cli_kb_cite(k, c, claims[i].source));
        view_map_set_str(r, "correction_source", claims[i].correction_source);
        if (claims[i].correction_source)
            view_map_set_int(r, "correction_source_n",
                             cli_kb_cite(k, c, claims[i].correction_source));
    }
}

/* The datasheet model of one GPU (see `kb show --json`): the measured results summarised, and
 * listed too with rows (what JSON gives scripts, and --all people); all says that people see
 * the list (--all), not the summary ("summarised").  Caller frees *out. */
static int datasheet_view(kb *k, const char *id, int all, int rows, view **out, gw_error *err)
{
    kb_gpu g;
    kb_benchmark *bench = NULL;
    kb_result_summary *summary = NULL;
    kb_price *prices = NULL;
    kb_claim *claims = NULL;
    kb_system *systems = NULL;
    size_t nb = 0, nsum = 0, np = 0, nc = 0, ns = 0;
    double results = 0;
    int rc = kb_gpu_get(k, id, &g, err);
    if (rc)
        return rc;
    if ((rc = kb_benchmarks_summary(k, id, &summary, &nsum, err)) ||
        (rows && (rc = kb_benchmarks_find(k, id, NULL, &bench, &nb, err))) ||
        (rc = kb_prices_find(k, id, NULL, NULL, &prices, &np, err)) ||
        (rc = kb_systems_find(k, id, &systems, &ns, err)) ||
        (rc = kb_claims_for(k, id, &claims, &nc, err))) {
        kb_gpu_free(&g);
        kb_result_summaries_free(summary, nsum);
        kb_benchmarks_free(bench, nb);
        kb_prices_free(prices, np);
        kb_systems_free(systems, ns);
        return rc;
    }
    view *m = view_map();
    cli_kb_cite_list c = {view_list(), view_list()};
    cli_kb_gpu_to_view(&g, m);
    view_map_set_int(m, "source_n", cli_kb_cite(k, &c, g.source));
    rc = read_aliases(k, id, view_map_set(m, "aliases", view_list()), err);
    if (rc == GW_OK) {
        datasheet_specs(&g, view_map_set(m, "specs", view_list()));
        datasheet_summary(k, &c, summary, nsum, view_map_set(m, "results_summary", view_list()),
                          &results);
        view_map_set_num(m, "results", results);
        view_map_set_bool(m, "summarised", !all);   /* what people see; data without it lists */
        if (rows)
            datasheet_benchmarks(k, &c, bench, nb, view_map_set(m, "benchmarks", view_list()));
        datasheet_systems(k, &c, systems, ns, view_map_set(m, "systems", view_list()));
        view_map_set_bool(m, "has_systems", ns > 0);
        datasheet_prices(k, &c, prices, np, view_map_set(m, "prices", view_list()));
        datasheet_claims(k, &c, claims, nc, view_map_set(m, "claims", view_list()));
        if (g.memory_mib_source) {   /* the dump memory_mib is read from, cited last */
            view_map_set_str(m, "memory_mib_source", g.memory_mib_source);
            view_map_set_int(m, "memory_mib_source_n", cli_kb_cite(k, &c, g.memory_mib_source));
        }
        view_map_set(m, "sources", c.sources);
        view_map_set(m, "citations", c.citations);
        c.sources = c.citations = NULL;
        view_map_set(m, "title", view_stringf("%s datasheet", g.name));
    }
    view_free(c.sources);
    view_free(c.citations);
    kb_gpu_free(&g);
    kb_result_summaries_free(summary, nsum);
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

static void print_cite(FILE *f, const view *m)
{
    double n = view_num(view_map_get(m, "source_n"));
    if (!isnan(n) && n > 0)
        fprintf(f, " [%d]", (int)n);
}

/* " [1] [4]": the citations of a summary row's sources. */
static void print_cites(FILE *f, const view *r)
{
    const view *sources = view_map_get(r, "sources");
    for (size_t i = 0; i < view_len(sources); i++)
        print_cite(f, view_list_at(sources, i));
}

/* A result's line as both listings start it: "  WORKLOAD METRIC: FIGURE", the figure the text
 * at key (a summary's median, a row's value). */
static void put_result_head(gw_buf *line, const view *r, const char *key)
{
    buf_printf(line, "  %s %s: %s", cli_kb_str(r, "workload"), cli_kb_str(r, "metric"),
               cli_kb_str(r, key));
}

/* " with N GPUs" for a result of more than one GPU. */
static void put_gpus(gw_buf *line, double count)
{
    buf_puts(line, " with ");
    cli_kb_put_figure(line, count);
    buf_puts(line, " GPUs");
}

/* "Measured results" summarised: one line per workload, metric and GPU count, its median and
 * range where it has several results, with the citations. */
static void print_summary(FILE *f, const view *m)
{
    const view *sl = view_map_get(m, "results_summary");
    if (!view_len(sl))
        return;
    fputs("\nMeasured results", f);
    if (view_num(view_map_get(m, "results")) > (double)view_len(sl))
        fprintf(f, " (%.0f: the median of those alike in workload, metric, GPU count and "
                "precision; --all lists each)", view_num(view_map_get(m, "results")));
    fputc('\n', f);
    for (size_t i = 0; i < view_len(sl); i++) {
        const view *r = view_list_at(sl, i);
        gw_buf line = GW_BUF_INIT;
        double count = view_num(view_map_get(r, "gpu_count"));
        double rows = view_num(view_map_get(r, "rows"));
        put_result_head(&line, r, "median_text");
        if (rows > 1) {
            buf_printf(&line, " (median of %.0f", rows);
            if (cli_kb_str(r, "range_text"))
                buf_printf(&line, ", %s", cli_kb_str(r, "range_text"));
            buf_putc(&line, ')');
        }
        if (count != 1)
            put_gpus(&line, count);
        if (cli_kb_str(r, "precision"))
            buf_printf(&line, ", %s", cli_kb_str(r, "precision"));
        fputs(buf_cstr(&line), f);
        print_cites(f, r);
        fputc('\n', f);
        buf_free(&line);
    }
}

/* "Measured results": one line per benchmark, with its citation (--all); else the summary. */
static void print_benchmarks(FILE *f, const view *m)
{
    const view *bl = view_map_get(m, "benchmarks");
    if (view_truthy(view_map_get(m, "summarised"))) {
        print_summary(f, m);
        return;
    }
    if (!view_len(bl))
        return;
    fputs("\nMeasured results\n", f);
    for (size_t i = 0; i < view_len(bl); i++) {
        const view *r = view_list_at(bl, i);
        gw_buf line = GW_BUF_INIT;
        double count = view_num(view_map_get(r, "gpu_count"));
        double power = view_num(view_map_get(r, "power_w"));
        put_result_head(&line, r, "value_text");
        if (count != 1) {
            put_gpus(&line, count);
            if (cli_kb_str(r, "interconnect"))
                buf_printf(&line, " over %s", cli_kb_str(r, "interconnect"));
        }
        if (cli_kb_str(r, "precision"))
            buf_printf(&line, ", %s", cli_kb_str(r, "precision"));
        if (cli_kb_str(r, "framework"))
            buf_printf(&line, ", %s", cli_kb_str(r, "framework"));
        if (!isnan(power)) {
            buf_puts(&line, ", at ");
            cli_kb_put_figure(&line, power);
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
        fprintf(f, "  %-5s %s", cli_kb_str(r, "kind"), cli_kb_str(r, "amount_text"));
        if (count != 1) {
            gw_buf b = GW_BUF_INIT;
            cli_kb_put_figure(&b, count);
            fprintf(f, " for %s GPUs", buf_cstr(&b));
            buf_free(&b);
        }
        if (cli_kb_str(r, "provider"))
            fprintf(f, ", %s", cli_kb_str(r, "provider"));
        if (cli_kb_str(r, "instance"))
            fprintf(f, " %s", cli_kb_str(r, "instance"));
        if (cli_kb_str(r, "system"))
            fprintf(f, ", the whole %s", cli_kb_str(r, "system"));
        if (view_bool_value(view_map_get(r, "spot")))
            fputs(" (spot)", f);
        if (cli_kb_str(r, "region"))
            fprintf(f, ", %s", cli_kb_str(r, "region"));
        fprintf(f, ", %s", cli_kb_str(r, "as_of"));
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
        buf_printf(&b, "  %s (%s): ", cli_kb_str(r, "name"), cli_kb_str(r, "id"));
        cli_kb_put_figure(&b, view_num(view_map_get(r, "gpu_count")));
        buf_puts(&b, " GPUs");
        double w = view_num(view_map_get(r, "power_w")), net = view_num(view_map_get(r,
                                                                                "network_gbps"));
        if (!isnan(w)) {
            buf_puts(&b, ", ");
            cli_kb_put_figure(&b, w);
            buf_puts(&b, " W at most");
        }
        if (!isnan(net)) {
            buf_puts(&b, ", ");
            cli_kb_put_figure(&b, net);
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
        fprintf(f, "  (%s) %s", cli_kb_str(r, "status"), cli_kb_str(r, "claim"));
        print_cite(f, r);
        fputc('\n', f);
        if (cli_kb_str(r, "correction")) {
            fprintf(f, "    correction: %s", cli_kb_str(r, "correction"));
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
                cli_kb_str(r, "title") ? cli_kb_str(r, "title") : cli_kb_str(r, "id"));
        if (cli_kb_str(r, "publisher"))
            fprintf(f, ", %s", cli_kb_str(r, "publisher"));
        if (cli_kb_str(r, "retrieved"))
            fprintf(f, ", retrieved %s", cli_kb_str(r, "retrieved"));
        fputc('\n', f);
        if (cli_kb_str(r, "url"))
            fprintf(f, "      %s\n", cli_kb_str(r, "url"));
    }
}

/* The terminal datasheet, printed from the view so it shows exactly what --json gives. */
static void datasheet_print(FILE *f, const view *m)
{
    fprintf(f, "%s (%s)\n", cli_kb_str(m, "name"), cli_kb_str(m, "id"));
    const view *specs = view_map_get(m, "specs");
    for (size_t i = 0; i < view_len(specs); i++) {
        const view *r = view_list_at(specs, i);
        fprintf(f, "  %-18s %s\n", cli_kb_str(r, "label"), cli_kb_str(r, "text"));
    }
    const view *aliases = view_map_get(m, "aliases");
    if (view_len(aliases)) {
        fprintf(f, "  %-18s ", "Also called");
        for (size_t i = 0; i < view_len(aliases); i++)
            fprintf(f, "%s%s", i ? ", " : "", view_str(view_list_at(aliases, i)));
        fputc('\n', f);
    }
    if (cli_kb_str(m, "note"))
        fprintf(f, "  %-18s %s\n", "Note", cli_kb_str(m, "note"));
    fprintf(f, "  %-18s", "Specs from");
    print_cite(f, m);
    fputc('\n', f);

    print_benchmarks(f, m);
    print_systems(f, m);
    print_prices(f, m);
    print_claims(f, m);
    print_sources(f, m);
}

/* `kb show NAME`: the datasheet as text, md, html or json. */
int cli_kb_show(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    kb *k = NULL;
    char *id = NULL;
    int count;
    view *m = NULL;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_gpu_resolve(k, a->argv[0], &id, &count, err);
    if (rc == GW_OK && count > 1)   /* a datasheet is of one card: "2x 4090" is the 4090's */
        fprintf(ctx->diag, "gpuwise kb show: '%s' is %d x %s; showing one %s (the count is "
                "ignored)\n", a->argv[0], count, id, id);
    /* a datasheet people read summarises a card's results (50,000 of a team's own runs would
     * take it 200 times as long as sqlite3 to start); JSON lists them for scripts */
    int all = cli_flag(a, "all") > 0;
    if (rc == GW_OK)
        rc = datasheet_view(k, id, all, all || ctx->json, &m, err);
    if (rc == GW_OK)
        rc = cli_kb_emit(ctx, datasheet_print, m, "datasheet", err);
    view_free(m);
    free(id);
    kb_close(k);
    return rc;
}
