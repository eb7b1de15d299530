/* cli_kb.c — the `gpuwise kb` command: look GPUs up (show, compare, list, search), list the
 * sources, check, import and export the knowledge base.  Each lookup builds one view tree that
 * --json prints and templates render; the text forms are printed from that same tree. */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_legacy.h"
#include "records.h"
#include "render.h"
#include "units.h"
#include "view.h"

static const char kb_usage[] =
    "usage: gpuwise kb SUBCOMMAND [OPTIONS]\n"
    "\n"
    "Look GPUs up in the offline knowledge base (KB), and keep it.\n"
    "\n"
    "  show NAME                  one GPU's datasheet: specs, aliases, measured results,\n"
    "                             prices, disputed claims and sources\n"
    "  compare NAME NAME...       GPUs side by side; '*' marks the best value of each row\n"
    "  list [--where EXPR] [--sort [-]FIELD] [--columns A,B,...]\n"
    "                             a table of GPUs (see FILTERS)\n"
    "  search [--limit N] TEXT... full-text search over everything, ranked, with snippets\n"
    "  sources                    the sources, with how many facts cite each\n"
    "  check                      integrity, foreign keys, every fact sourced (exit 65 if not)\n"
    "  export [-o FILE]           the whole KB as one CSV text bundle\n"
    "  import FILE...             add table CSVs or an export, all in one transaction\n"
    "  import --with IMPORTER FILE   convert FILE with an importer plugin first\n"
    "  upgrade                    migrate an older KB file to this version's schema\n"
    "  fields                     the field names --where, --sort and --columns accept\n"
    "\n"
    "NAME is written the way people write it: \"RTX 3090\", 3090, rtx_3090, \"A100 80GB\",\n"
    "\"NVIDIA A100-SXM4-80GB\", \"4x 3090\".  An ambiguous name lists the candidates.\n"
    "\n"
    "FILTERS: FIELD OP VALUE [and FIELD OP VALUE]...   OP: = != < <= > >= ~ (contains)\n"
    "  VALUE: a number, a word, or 'quoted text'.  Text compares ignore case; '~' finds a part.\n"
    "  e.g.  gpuwise kb list --where 'memory_gb>=48 and nvlink_gbs>0' \\\n"
    "            --sort -memory_bandwidth_gbs\n"
    "        gpuwise kb list --where \"name ~ 'ada' and tdp_w < 300\" --columns id,name,tdp_w\n"
    "\n"
    "Global options: --kb FILE (or GPUWISE_KB), --json, --format text|md|html (show, compare),\n"
    "-o FILE.  Tensor throughput is dense; a 2:4-sparse figure is never shown as if dense.\n"
    "Exit status: 64 usage, 65 bad data, 66 missing file, 67 unknown GPU, 75 KB busy.\n";

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

typedef struct spec_row {
    const char *field, *label, *unit;
    int lower_better;   /* for compare: tdp and price */
} spec_row;

/* The rows a datasheet and a comparison show, in order.  Tensor rows are dense figures. */
static const spec_row spec_rows[] = {
    {"memory_gb", "Memory", "GB", 0},
    {"memory_bandwidth_gbs", "Memory bandwidth", "GB/s", 0},
    {"tdp_w", "TDP", "W", 1},
    {"fp32_tflops", "FP32", "TFLOPS", 0},
    {"tf32_tflops", "TF32 tensor", "TFLOPS dense", 0},
    {"fp16_tflops", "FP16 tensor", "TFLOPS dense", 0},
    {"bf16_tflops", "BF16 tensor", "TFLOPS dense", 0},
    {"fp8_tflops", "FP8 tensor", "TFLOPS dense", 0},
    {"int8_tops", "INT8 tensor", "TOPS dense", 0},
    {"pcie_gen", "PCIe generation", "", 0},
    {"nvlink_gbs", "NVLink", "GB/s", 0},
    {"mig_instances", "MIG instances", "", 0},
    {"launch_price_usd", "Launch price", "USD", 1},
};
#define N_SPEC_ROWS (sizeof spec_rows / sizeof spec_rows[0])

static const spec_row text_rows[] = {
    {"vendor", "Vendor", "", 0},
    {"architecture", "Architecture", "", 0},
    {"form_factor", "Form factor", "", 0},
    {"sparsity", "Sparsity", "", 0},
    {"release_date", "Released", "", 0},
};
#define N_TEXT_ROWS (sizeof text_rows / sizeof text_rows[0])

static double gpu_num(const kb_gpu *g, const char *field)
{
    static const struct { const char *name; size_t off; } nums[] = {
#define F(f) {#f, offsetof(kb_gpu, f)}
        F(memory_gb), F(memory_bandwidth_gbs), F(tdp_w), F(fp32_tflops), F(tf32_tflops),
        F(fp16_tflops), F(bf16_tflops), F(fp8_tflops), F(int8_tops), F(pcie_gen), F(pcie_lanes),
        F(nvlink_gbs), F(mig_instances), F(ecc), F(launch_price_usd),
#undef F
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (strcmp(nums[i].name, field) == 0)
            return *(const double *)(const void *)((const char *)g + nums[i].off);
    return NAN;
}

static const char *gpu_text(const kb_gpu *g, const char *field)
{
    if (!strcmp(field, "id")) return g->id;
    if (!strcmp(field, "name")) return g->name;
    if (!strcmp(field, "vendor")) return g->vendor;
    if (!strcmp(field, "architecture")) return g->architecture;
    if (!strcmp(field, "form_factor")) return g->form_factor;
    if (!strcmp(field, "memory_type")) return g->memory_type;
    if (!strcmp(field, "sparsity")) return g->sparsity;
    if (!strcmp(field, "release_date")) return g->release_date;
    return NULL;
}

static int field_is_text(const char *field)
{
    return !strcmp(field, "id") || !strcmp(field, "name") || !strcmp(field, "vendor") ||
           !strcmp(field, "architecture") || !strcmp(field, "form_factor") ||
           !strcmp(field, "memory_type") || !strcmp(field, "sparsity") ||
           !strcmp(field, "release_date");
}

static int streq_sparsity(const kb_gpu *g)
{
    return g->sparsity && strcmp(g->sparsity, "2:4") == 0;
}

/* How a person reads one figure: "2,039 GB/s", "312 TFLOPS dense (624 with 2:4 sparsity)",
 * "Gen 4 x16", "none" for no NVLink.  Caller frees; NULL when unknown. */
static char *spec_text(const kb_gpu *g, const spec_row *r, int brief)
{
    double v = gpu_num(g, r->field);
    if (isnan(v))
        return NULL;
    if (!strcmp(r->field, "memory_gb")) {
        char *s = fig_unit(v, "GB");
        if (g->memory_type) {
            char *t = gw_xmalloc(strlen(s) + strlen(g->memory_type) + 2);
            sprintf(t, "%s %s", s, g->memory_type);
            free(s);
            return t;
        }
        return s;
    }
    if (!strcmp(r->field, "pcie_gen")) {
        gw_buf b = GW_BUF_INIT;
        buf_puts(&b, "Gen ");
        put_fig(&b, v);
        if (!isnan(g->pcie_lanes)) {
            buf_puts(&b, " x");
            put_fig(&b, g->pcie_lanes);
        }
        return buf_detach(&b);
    }
    if ((!strcmp(r->field, "nvlink_gbs") || !strcmp(r->field, "mig_instances")) && v == 0)
        return gw_xstrdup("none");
    if (!strcmp(r->field, "launch_price_usd")) {
        gw_buf b = GW_BUF_INIT;
        units_format_money(&b, v, "USD", 0);
        return buf_detach(&b);
    }
    char *s = fig_unit(v, r->unit);
    if (!brief && streq_sparsity(g) && strstr(r->unit, "dense") &&
        strcmp(r->field, "fp32_tflops") != 0) {
        gw_buf b = GW_BUF_INIT;
        buf_printf(&b, "%s (", s);
        put_fig(&b, 2 * v);
        buf_puts(&b, " with 2:4 sparsity)");
        free(s);
        return buf_detach(&b);
    }
    return s;
}

/* "memory_bandwidth_gbs" -> "memory_bandwidth_text": the unit suffix gives way to _text. */
static void text_key(char *out, size_t outsz, const char *field)
{
    const char *us = strrchr(field, '_');
    snprintf(out, outsz, "%.*s_text", (int)(us ? us - field : (long)strlen(field)), field);
}

/* Every field of a GPU under its stable snake_case name, plus *_text for people. */
static void gpu_to_view(const kb_gpu *g, view *m)
{
    const char *const *fields = kb_gpu_fields();
    for (size_t i = 0; fields[i]; i++) {
        if (field_is_text(fields[i]))
            view_map_set_str(m, fields[i], gpu_text(g, fields[i]));
        else if (!strcmp(fields[i], "ecc"))
            view_map_set(m, "ecc", isnan(g->ecc) ? view_null() : view_bool(g->ecc != 0));
        else
            view_map_set_num(m, fields[i], gpu_num(g, fields[i]));
    }
    for (size_t i = 0; i < N_SPEC_ROWS; i++) {
        char key[64];
        text_key(key, sizeof key, spec_rows[i].field);
        set_text(m, key, spec_text(g, &spec_rows[i], 0));
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

/* The datasheet model of one GPU (see `kb show --json`).  Caller frees *out. */
static int datasheet_view(kb *k, const char *id, view **out, gw_error *err)
{
    kb_gpu g;
    kb_benchmark *bench = NULL;
    kb_price *prices = NULL;
    kb_claim *claims = NULL;
    size_t nb = 0, np = 0, nc = 0;
    int rc = kb_gpu_get(k, id, &g, err);
    if (rc)
        return rc;
    if ((rc = kb_benchmarks_find(k, id, NULL, &bench, &nb, err)) ||
        (rc = kb_prices_find(k, id, NULL, NULL, &prices, &np, err)) ||
        (rc = kb_claims_for(k, id, &claims, &nc, err))) {
        kb_gpu_free(&g);
        kb_benchmarks_free(bench, nb);
        kb_prices_free(prices, np);
        return rc;
    }
    view *m = view_map();
    cite_list c = {view_list(), view_list()};
    gpu_to_view(&g, m);
    view_map_set_int(m, "source_n", cite(k, &c, g.source));
    view *aliases = view_map_set(m, "aliases", view_list());
    if ((rc = read_aliases(k, id, aliases, err)) != GW_OK)
        goto done;

    view *specs = view_map_set(m, "specs", view_list());
    for (size_t i = 0; i < N_TEXT_ROWS; i++) {
        const char *t = gpu_text(&g, text_rows[i].field);
        if (!t)
            continue;
        view *r = view_list_push(specs, view_map());
        view_map_set_str(r, "field", text_rows[i].field);
        view_map_set_str(r, "label", text_rows[i].label);
        view_map_set_str(r, "text", !strcmp(text_rows[i].field, "sparsity") ?
                         "2:4 structured (tensor figures below are dense)" : t);
    }
    for (size_t i = 0; i < N_SPEC_ROWS; i++) {
        char *t = spec_text(&g, &spec_rows[i], 0);
        if (!t)
            continue;
        view *r = view_list_push(specs, view_map());
        view_map_set_str(r, "field", spec_rows[i].field);
        view_map_set_str(r, "label", spec_rows[i].label);
        view_map_set_str(r, "text", t);
        free(t);
    }
    if (!isnan(g.ecc)) {
        view *r = view_list_push(specs, view_map());
        view_map_set_str(r, "field", "ecc");
        view_map_set_str(r, "label", "ECC memory");
        view_map_set_str(r, "text", g.ecc != 0 ? "yes" : "no");
    }

    view *bl = view_map_set(m, "benchmarks", view_list());
    for (size_t i = 0; i < nb; i++) {
        kb_benchmark *b = &bench[i];
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
        view_map_set_int(r, "source_n", cite(k, &c, b->source));
        view_map_set_str(r, "note", b->note);
    }
    view *pl = view_map_set(m, "prices", view_list());
    for (size_t i = 0; i < np; i++) {
        kb_price *p = &prices[i];
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
        view_map_set_bool(r, "spot", p->spot);
        view_map_set_str(r, "as_of", p->as_of);
        view_map_set_str(r, "source", p->source);
        view_map_set_int(r, "source_n", cite(k, &c, p->source));
        view_map_set_str(r, "note", p->note);
    }
    view *cl = view_map_set(m, "claims", view_list());
    for (size_t i = 0; i < nc; i++) {
        view *r = view_list_push(cl, view_map());
        view_map_set_str(r, "subject", claims[i].subject);
        view_map_set_str(r, "claim", claims[i].claim);
        view_map_set_str(r, "status", claims[i].status);
        view_map_set_str(r, "correction", claims[i].correction);
        view_map_set_str(r, "source", claims[i].source);
        view_map_set_int(r, "source_n", cite(k, &c, claims[i].source));
        view_map_set_str(r, "correction_source", claims[i].correction_source);
        if (claims[i].correction_source)
            view_map_set_int(r, "correction_source_n", cite(k, &c, claims[i].correction_source));
    }
    view_map_set(m, "sources", c.sources);
    view_map_set(m, "citations", c.citations);
    c.sources = c.citations = NULL;
    view_map_set(m, "title", view_stringf("%s datasheet", g.name));
done:
    view_free(c.sources);
    view_free(c.citations);
    kb_gpu_free(&g);
    kb_benchmarks_free(bench, nb);
    kb_prices_free(prices, np);
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

    const view *bl = view_map_get(m, "benchmarks");
    if (view_len(bl)) {
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
    const view *pl = view_map_get(m, "prices");
    if (view_len(pl)) {
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
            if (view_bool_value(view_map_get(r, "spot")))
                fputs(" (spot)", f);
            if (vs(r, "region"))
                fprintf(f, ", %s", vs(r, "region"));
            fprintf(f, ", %s", vs(r, "as_of"));
            print_cite(f, r);
            fputc('\n', f);
        }
    }
    const view *cl = view_map_get(m, "claims");
    if (view_len(cl)) {
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
    const view *sl = view_map_get(m, "sources");
    if (view_len(sl)) {
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
        return render_document(ctx, doc, v, err);
    return emit_text(ctx, fn, v, err);
}

static int usage_error(gw_error *err, const char *sub, const char *what)
{
    return gw_error_set(err, GW_EUSAGE, "kb %s: %s (see gpuwise help kb)", sub, what);
}

/* getopt_long over a subcommand's arguments (argv[0] is the subcommand).  Returns the option,
 * -1 at the end, or '?' after setting err. */
static int next_opt(int argc, char **argv, const char *shortopts, const struct option *longopts,
                    gw_error *err)
{
    opterr = 0;
    int c = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (c == '?' || c == ':') {
        if (optopt)
            gw_error_set(err, GW_EUSAGE, "kb %s: option -%c %s", argv[0], optopt,
                         c == ':' ? "needs a value" : "is not known");
        else
            gw_error_set(err, GW_EUSAGE, "kb %s: option '%s' is not known or needs a value",
                         argv[0], argv[optind - 1]);
        return '?';
    }
    return c;
}

static int no_options(int argc, char **argv, gw_error *err)
{
    static const struct option none[] = {{0, 0, 0, 0}};
    optind = 0;
    int c = next_opt(argc, argv, "+", none, err);
    return c == '?' ? GW_EUSAGE : GW_OK;
}

/* ---- show ------------------------------------------------------------------------------- */

static int kb_show(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    char *id;
    int count;
    view *m = NULL;
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    if (argc - optind != 1)
        return usage_error(err, "show", "give one GPU name, e.g. gpuwise kb show \"RTX 3090\"");
    int rc = kb_gpu_resolve(k, argv[optind], &id, &count, err);
    if (rc)
        return rc;
    rc = datasheet_view(k, id, &m, err);
    free(id);
    if (rc == GW_OK)
        rc = emit(ctx, datasheet_print, m, "datasheet", err);
    view_free(m);
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

static void compare_row(view *rows, const spec_row *sr, const kb_gpu *g, size_t n, int text)
{
    view *r = view_list_push(rows, view_map());
    view_map_set_str(r, "field", sr->field);
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
            const char *t = gpu_text(&g[j], sr->field);
            view_list_push(values, view_string(t));
            view_list_push(texts, view_string(t));
            continue;
        }
        double v = gpu_num(&g[j], sr->field);
        view_list_push(values, view_number(v));
        char *t = spec_text(&g[j], sr, 1);
        view_list_push(texts, view_string(t));
        free(t);
        if (isnan(v))
            continue;
        if (!isnan(best) && v != best)
            distinct++;
        if (isnan(best) || (sr->lower_better ? v < best : v > best)) {
            best = v;
            best_i = (long)j;
        }
    }
    /* No mark when fewer than two GPUs have the figure or they all agree. */
    int marked = !text && best_i >= 0 && distinct > 0;
    for (size_t j = 0; j < n; j++)
        view_list_push(marks, view_bool(marked && gpu_num(&g[j], sr->field) == best));
    view_map_set(r, "best", marked ? view_number((double)best_i) : view_null());
}

static int kb_compare(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    size_t n = (size_t)(argc - optind);
    if (n < 2)
        return usage_error(err, "compare", "give two or more GPU names");
    if (n > 16)
        return usage_error(err, "compare", "16 GPUs at most");
    kb_gpu *g = gw_xcalloc(n, sizeof *g);
    int rc = GW_OK;
    size_t got = 0;
    for (; got < n && rc == GW_OK; got++) {
        char *id;
        int count;
        kb_gpu_init(&g[got]);
        rc = kb_gpu_resolve(k, argv[optind + (int)got], &id, &count, err);
        if (rc == GW_OK) {
            rc = kb_gpu_get(k, id, &g[got], err);
            free(id);
        }
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
        for (size_t i = 0; i < N_TEXT_ROWS; i++)
            compare_row(rows, &text_rows[i], g, n, 1);
        for (size_t i = 0; i < N_SPEC_ROWS; i++)
            compare_row(rows, &spec_rows[i], g, n, 0);
        cite_list c = {view_list(), view_list()};
        for (size_t j = 0; j < n; j++)
            view_map_set_int(view_list_at(gl, j), "source_n", cite(k, &c, g[j].source));
        view_map_set(m, "sources", c.sources);
        view_map_set(m, "citations", c.citations);
        rc = emit(ctx, compare_print, m, "comparison", err);
        view_free(m);
    }
    kb_gpus_free(g, got);
    return rc;
}

/* ---- list ------------------------------------------------------------------------------- */

static const char *const default_columns[] = {"id", "name", "memory_gb", "memory_bandwidth_gbs",
                                              "tdp_w", "fp16_tflops", "nvlink_gbs", NULL};

static int known_field(const char *name)
{
    for (const char *const *f = kb_gpu_fields(); *f; f++)
        if (!strcmp(*f, name))
            return 1;
    return 0;
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
    fprintf(f, "(%zu GPU%s)\n", ng, ng == 1 ? "" : "s");
    for (size_t i = 0; i < (ng + 1) * nc; i++)
        free(cells[i]);
    free(cells);
    free(w);
}

static int kb_list(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    static const struct option opts[] = {{"where", required_argument, 0, 'w'},
                                         {"sort", required_argument, 0, 's'},
                                         {"columns", required_argument, 0, 'c'},
                                         {0, 0, 0, 0}};
    const char *where = NULL, *sort = NULL, *columns = NULL;
    int c;
    optind = 0;
    while ((c = next_opt(argc, argv, "w:s:c:", opts, err)) != -1) {
        if (c == '?')
            return GW_EUSAGE;
        if (c == 'w')
            where = optarg;
        else if (c == 's')
            sort = optarg;
        else
            columns = optarg;
    }
    if (optind < argc)
        return usage_error(err, "list", "unexpected argument (quote the --where expression)");

    view *cols = view_list();
    if (columns) {
        char *copy = gw_xstrdup(columns), *save = NULL;
        for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            if (!known_field(t)) {
                gw_buf names = GW_BUF_INIT;
                for (const char *const *f = kb_gpu_fields(); *f; f++)
                    buf_printf(&names, "%s%s", f == kb_gpu_fields() ? "" : ", ", *f);
                gw_error_set(err, GW_EUSAGE, "--columns: unknown field '%.60s' (fields: %s)", t,
                             buf_cstr(&names));
                buf_free(&names);
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

    kb_gpu *g;
    size_t n;
    int rc = kb_gpu_list(k, where, sort, &g, &n, err);
    if (rc) {
        view_free(cols);
        return rc;
    }
    view *m = view_map();
    view_map_set_str(m, "where", where);
    view_map_set_str(m, "sort", sort);
    view_map_set(m, "columns", cols);
    view_map_set_int(m, "count", (long long)n);
    view *gl = view_map_set(m, "gpus", view_list());
    for (size_t i = 0; i < n; i++) {
        view *full = view_map();
        gpu_to_view(&g[i], full);
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
    rc = emit(ctx, list_print, m, NULL, err);
    view_free(m);
    return rc;
}

/* ---- search ----------------------------------------------------------------------------- */

static void search_print(FILE *f, const view *m)
{
    const view *hits = view_map_get(m, "hits");
    if (!view_len(hits))
        fprintf(f, "no match for '%s'\n", vs(m, "query"));
    for (size_t i = 0; i < view_len(hits); i++) {
        const view *h = view_list_at(hits, i);
        fprintf(f, "%-9s %-18s %s\n", vs(h, "kind"), vs(h, "ref"), vs(h, "title"));
        fprintf(f, "          %s\n", vs(h, "snippet"));
    }
}

static int kb_search_cmd(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    static const struct option opts[] = {{"limit", required_argument, 0, 'n'}, {0, 0, 0, 0}};
    long limit = 20;
    int c;
    optind = 0;
    while ((c = next_opt(argc, argv, "n:", opts, err)) != -1) {
        char *end;
        if (c == '?')
            return GW_EUSAGE;
        limit = strtol(optarg, &end, 10);
        if (*end || limit < 1 || limit > 1000)
            return usage_error(err, "search", "--limit: a number from 1 to 1000");
    }
    if (optind >= argc)
        return usage_error(err, "search", "give the text to search for");
    gw_buf q = GW_BUF_INIT;
    for (int i = optind; i < argc; i++)
        buf_printf(&q, "%s%s", i > optind ? " " : "", argv[i]);
    kb_hit *hits;
    size_t n;
    int rc = kb_search(k, buf_cstr(&q), (size_t)limit, &hits, &n, err);
    if (rc) {
        buf_free(&q);
        return rc;
    }
    view *m = view_map();
    view_map_set_str(m, "query", buf_cstr(&q));
    view *hl = view_map_set(m, "hits", view_list());
    for (size_t i = 0; i < n; i++) {
        view *h = view_list_push(hl, view_map());
        view_map_set_str(h, "kind", hits[i].kind);
        view_map_set_str(h, "ref", hits[i].ref);
        view_map_set_str(h, "title", hits[i].title);
        view_map_set_str(h, "snippet", hits[i].snippet);
        view_map_set_num(h, "rank", hits[i].rank);
    }
    kb_hits_free(hits, n);
    buf_free(&q);
    rc = emit(ctx, search_print, m, NULL, err);
    view_free(m);
    return rc;
}

/* ---- sources, check, fields ------------------------------------------------------------- */

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

static int kb_sources_cmd(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    kb_source *s;
    size_t n;
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    if (optind < argc)
        return usage_error(err, "sources", "takes no arguments");
    int rc = kb_sources_list(k, &s, &n, err);
    if (rc)
        return rc;
    view *m = view_map();
    view *l = view_map_set(m, "sources", view_list());
    for (size_t i = 0; i < n; i++) {
        view *e = view_list_push(l, view_map());
        view_map_set_str(e, "id", s[i].id);
        view_map_set_str(e, "title", s[i].title);
        view_map_set_str(e, "publisher", s[i].publisher);
        view_map_set_str(e, "url", s[i].url);
        view_map_set_str(e, "retrieved", s[i].retrieved);
        view_map_set_str(e, "kind", s[i].kind);
        view_map_set_str(e, "note", s[i].note);
        view_map_set_int(e, "fact_count", s[i].fact_count);
    }
    kb_sources_free(s, n);
    rc = emit(ctx, sources_print, m, NULL, err);
    view_free(m);
    return rc;
}

static int kb_check_cmd(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    gw_buf report = GW_BUF_INIT;
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    int rc = kb_check(k, &report, err);
    if (rc == GW_OK || rc == GW_EDATA) {
        gw_error ignore;
        if (ctx->json) {
            view *m = view_map();
            view_map_set_bool(m, "ok", rc == GW_OK);
            view_map_set_str(m, "report", buf_cstr(&report));
            emit_json(ctx, m, &ignore);
            view_free(m);
        } else {
            cli_write_output(ctx, buf_cstr(&report), report.len, &ignore);
        }
    }
    buf_free(&report);
    return rc;
}

static int kb_fields_cmd(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    (void)k;
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    view *l = view_list();
    for (const char *const *f = kb_gpu_fields(); *f; f++)
        view_list_push(l, view_string(*f));
    int rc;
    if (ctx->json) {
        rc = emit_json(ctx, l, err);
    } else {
        gw_buf b = GW_BUF_INIT;
        for (const char *const *f = kb_gpu_fields(); *f; f++)
            buf_printf(&b, "%s\t%s\n", *f, field_is_text(*f) ? "text" : "number");
        rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
        buf_free(&b);
    }
    view_free(l);
    return rc;
}

/* ---- export, import, upgrade ------------------------------------------------------------ */

static int kb_export_cmd(gw_ctx *ctx, kb *k, int argc, char **argv, gw_error *err)
{
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    if (optind < argc)
        return usage_error(err, "export", "takes no arguments (use -o FILE)");
    gw_buf out = GW_BUF_INIT;
    int rc = kb_export(k, &out, err);
    if (rc == GW_OK)
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
    buf_free(&out);
    return rc;
}

/* Importer plugins: converts FILE with the named importer plugin and stores the records it
 * returns, inside the caller's transaction (records.c). */
static int import_with_plugin(gw_ctx *ctx, kb *k, const char *importer, const char *path,
                              kb_import_counts *counts, gw_error *err)
{
    return plugin_import_file(ctx, k, importer, path, counts, err);
}

static int kb_import_cmd(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    static const struct option opts[] = {{"with", required_argument, 0, 'w'}, {0, 0, 0, 0}};
    const char *with = NULL;
    int c;
    optind = 0;
    while ((c = next_opt(argc, argv, "w:", opts, err)) != -1) {
        if (c == '?')
            return GW_EUSAGE;
        with = optarg;
    }
    int nfiles = argc - optind;
    if (nfiles < 1)
        return usage_error(err, "import", "give one or more CSV files");
    if (with && nfiles != 1)
        return usage_error(err, "import", "--with takes one file");

    char **texts = gw_xcalloc((size_t)nfiles, sizeof *texts);
    size_t *lens = gw_xcalloc((size_t)nfiles, sizeof *lens);
    int rc = GW_OK;
    for (int i = 0; i < nfiles && rc == GW_OK && !with; i++) {
        int e = gw_read_file(argv[optind + i], &texts[i], &lens[i]);
        if (e)
            rc = gw_error_set(err, GW_ENOINPUT, "%s: %s", argv[optind + i], strerror(e));
    }
    kb *k = NULL;
    kb_import_counts counts;
    memset(&counts, 0, sizeof counts);
    if (rc == GW_OK)
        rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK && (rc = kb_begin(k, err)) == GW_OK) {
        if (with)
            rc = import_with_plugin(ctx, k, with, argv[optind], &counts, err);
        else
            rc = kb_import_texts(k, (size_t)nfiles, (const char *const *)(argv + optind),
                                 (const char *const *)texts, lens, &counts, err);
        if (rc == GW_OK)
            rc = kb_commit(k, err);
        else
            kb_rollback(k);
    }
    if (rc == GW_OK) {
        gw_buf b = GW_BUF_INIT;
        size_t unchanged = 0, changed = 0;
        buf_printf(&b, "imported %d file%s into %s\n", nfiles, nfiles == 1 ? "" : "s",
                   kb_path(k));
        for (int t = 0; t < KB_TABLES; t++) {
            unchanged += counts.unchanged[t];
            if (!counts.added[t] && !counts.updated[t])
                continue;
            changed++;
            buf_printf(&b, "  %-10s %zu added", kb_table_name(t), counts.added[t]);
            if (counts.updated[t])
                buf_printf(&b, ", %zu updated", counts.updated[t]);
            buf_putc(&b, '\n');
        }
        if (!changed)
            buf_puts(&b, "  nothing new\n");
        if (unchanged)
            buf_printf(&b, "  %zu row%s already there\n", unchanged, unchanged == 1 ? "" : "s");
        rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
        buf_free(&b);
    }
    kb_close(k);
    for (int i = 0; i < nfiles; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    return rc;
}

static int kb_upgrade_cmd(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    kb *k;
    if (no_options(argc, argv, err))
        return GW_EUSAGE;
    int rc = cli_open_kb(ctx, 1, &k, err);
    if (rc)
        return rc;
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "%s: schema %d\n", kb_path(k), kb_schema_version(k));
    rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    kb_close(k);
    return rc;
}

/* ---- dispatch --------------------------------------------------------------------------- */

typedef int (*kb_read_fn)(gw_ctx *, kb *, int, char **, gw_error *);

static const struct {
    const char *name;
    kb_read_fn run;
} readers[] = {
    {"show", kb_show},       {"compare", kb_compare},     {"list", kb_list},
    {"search", kb_search_cmd}, {"sources", kb_sources_cmd}, {"check", kb_check_cmd},
    {"export", kb_export_cmd}, {"fields", kb_fields_cmd},
};

static int cmd_kb(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    if (argc < 2)
        return gw_error_set(err, GW_EUSAGE, "give a subcommand: show, compare, list, search, "
                            "sources, check, export, import, upgrade, fields (see gpuwise help "
                            "kb)");
    const char *sub = argv[1];
    if (!strcmp(sub, "import"))
        return kb_import_cmd(ctx, argc - 1, argv + 1, err);
    if (!strcmp(sub, "upgrade"))
        return kb_upgrade_cmd(ctx, argc - 1, argv + 1, err);
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        if (strcmp(sub, readers[i].name) != 0)
            continue;
        kb *k;
        int rc = cli_open_kb(ctx, 0, &k, err);
        if (rc)
            return rc;
        rc = readers[i].run(ctx, k, argc - 1, argv + 1, err);
        kb_close(k);
        return rc;
    }
    return gw_error_set(err, GW_EUSAGE, "'%s' is not a kb subcommand (see gpuwise help kb)", sub);
}

CLI_LEGACY_GROUP(cli_kb_group, "kb", "look GPUs up, search, compare, import and export the knowledge base", kb_usage, cmd_kb)
