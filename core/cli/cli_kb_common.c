/* cli_kb_common.c — what the kb command files share: figures as people read them, one GPU as a
 * view, citations, search hits and the command that opens each, and writing a view out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_document.h"
#include "cli_kb_common.h"
#include "base/term.h"
#include "base/units.h"
#include "base/view.h"

/* ---- formatting ------------------------------------------------------------------------- */

/* A figure with as few decimals as it needs (at most 2), thousands separated: 2,039 / 19.5. */
void cli_kb_put_figure(gw_buf *b, double v)
{
    int decimals = 0;
    while (decimals < 2 && fabs(v * pow(10, decimals) - round(v * pow(10, decimals))) > 1e-6)
        decimals++;
    view_format_number(b, v, decimals);
}

void cli_kb_set_text(view *m, const char *key, char *owned)
{
    view_map_set_str(m, key, owned);
    free(owned);
}

/* ---- one GPU as a view ------------------------------------------------------------------ */

#define GPU_ROWS_MAX 32

const kb_column *const *cli_kb_gpu_rows(enum cli_kb_row_set set, size_t *n)
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

/* How a person reads one figure, in its column's text form: "2,039 GB/s", "312 TFLOPS dense
 * (624 with 2:4 sparsity)", "Gen 4 x16", "none" for no NVLink.  brief leaves the sparse figure
 * out.  Caller frees; NULL when unknown. */
char *cli_kb_spec_text(const kb_gpu *g, const kb_column *c, int brief)
{
    double v = kb_column_number(c, g);
    gw_buf b = GW_BUF_INIT;
    if (isnan(v))
        return NULL;
    switch (c->form) {
    case KB_FORM_MEMORY:
        cli_kb_put_figure(&b, v);
        buf_printf(&b, " %s", c->unit);
        if (g->memory_type)
            buf_printf(&b, " %s", g->memory_type);
        break;
    case KB_FORM_PCIE:
        buf_puts(&b, "Gen ");
        cli_kb_put_figure(&b, v);
        if (!isnan(g->pcie_lanes)) {
            buf_puts(&b, " x");
            cli_kb_put_figure(&b, g->pcie_lanes);
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
        cli_kb_put_figure(&b, v);
        if (*c->unit)
            buf_printf(&b, " %s", c->unit);
        if (c->form == KB_FORM_DENSE && !brief && g->sparsity && !strcmp(g->sparsity, "2:4")) {
            buf_puts(&b, " (");
            cli_kb_put_figure(&b, 2 * v);
            buf_puts(&b, " with 2:4 sparsity)");
        }
        break;
    }
    return buf_detach(&b);
}

/* Every field of a GPU under its stable snake_case name, plus FIELD_text (the whole field name,
 * unit and all: memory_bandwidth_gbs_text, as every view names its text twins) for people. */
void cli_kb_gpu_to_view(const kb_gpu *g, view *m)
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
    const kb_column *const *figures = cli_kb_gpu_rows(ROWS_FIGURES, &n);
    for (size_t i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof key, "%s_text", figures[i]->name);
        cli_kb_set_text(m, key, cli_kb_spec_text(g, figures[i], 0));
    }
    view_map_set_str(m, "source", g->source);
    view_map_set_str(m, "note", g->note);
}

/* The citation number of source id, adding it on first use. */
int cli_kb_cite(kb *k, cli_kb_cite_list *c, const char *id)
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

const char *cli_kb_str(const view *m, const char *key)
{
    return view_str(view_map_get(m, key));
}

/* ---- output ----------------------------------------------------------------------------- */

int cli_kb_emit_json(gw_ctx *ctx, const view *v, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    view_to_json(v, &b, 1);
    int rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

/* 1 when every string in v shows on a terminal as it is (view_term_copy would copy v unchanged). */
static int term_unchanged(const view *v)
{
    switch (view_kind(v)) {
    case VIEW_STRING:
        return gw_term_text_unchanged(view_str(v), view_str_len(v), GW_TERM_FIELD);
    case VIEW_LIST:
        for (size_t i = 0; i < view_len(v); i++)
            if (!term_unchanged(view_list_at(v, i)))
                return 0;
        return 1;
    case VIEW_MAP:
        for (size_t i = 0; i < view_len(v); i++)
            if (!term_unchanged(view_map_value_at(v, i)))
                return 0;
        return 1;
    default:
        return 1;
    }
}

/* Text printed by fn(f, v) into memory, then written like any other output (-o honoured).  fn
 * reads v's terminal copy: a name with a line break in it cannot forge a line.  Where nothing
 * in v needs escaping, the copy would be v itself, and fn reads v: copying and freeing it was
 * a third of `kb sources`' own instructions. */
int cli_kb_emit_text(gw_ctx *ctx, void (*fn)(FILE *, const view *), const view *v,
                     gw_error *err)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (!f)
        return gw_error_set(err, GW_EIO, "out of memory");
    view *shown = term_unchanged(v) ? NULL : view_term_copy(v);
    fn(f, shown ? shown : v);
    view_free(shown);
    fclose(f);
    int rc = cli_write_output(ctx, data, len, err);
    free(data);
    return rc;
}

int cli_kb_emit(gw_ctx *ctx, void (*fn)(FILE *, const view *), view *v, const char *doc,
                gw_error *err)
{
    if (ctx->json)
        return cli_kb_emit_json(ctx, v, err);
    if (doc && ctx->format && strcmp(ctx->format, "text") != 0)
        return cli_render_document(ctx, doc, v, err);
    return cli_kb_emit_text(ctx, fn, v, err);
}

/* ---- search hits ------------------------------------------------------------------------ */

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
char *cli_kb_open_command(const char *sub, const char *id)
{
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, "gpuwise kb ");   /* not buf_printf: kb sources makes one per source */
    buf_puts(&b, sub);
    buf_putc(&b, ' ');
    if (id[0] == '-')
        buf_puts(&b, "-- ");   /* an id is never read as an option */
    shell_word(&b, id);
    return buf_detach(&b);
}

/* A hit's fields, and the command that opens it (search and a source's facts). */
void cli_kb_hit_to_view(const kb_hit *h, view *m, int ranked)
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
    char *open = h->gpu ? cli_kb_open_command("show", h->gpu)
                        : h->source ? cli_kb_open_command("source", h->source) : NULL;
    view_map_set_str(m, "open", open);
    free(open);
}

/* One hit in the terminal, indent columns in: kind, ref and title, then the snippet (when
 * there is one) and the command that opens it (when there is one) on lines of their own. */
void cli_kb_hit_print(FILE *f, const view *h, int indent)
{
    fprintf(f, "%*s%-9s %-18s %s\n", indent, "", cli_kb_str(h, "kind"), cli_kb_str(h, "ref"),
            cli_kb_str(h, "title"));
    if (cli_kb_str(h, "snippet"))
        fprintf(f, "%*s          %s\n", indent, "", cli_kb_str(h, "snippet"));
    if (cli_kb_str(h, "open"))
        fprintf(f, "%*s          %s\n", indent, "", cli_kb_str(h, "open"));
}
