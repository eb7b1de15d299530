/* cli_kb_sources.c — `gpuwise kb sources` (every source with how many facts cite it) and
 * `gpuwise kb source` (one source and every entry that cites it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "cli_kb_common.h"
#include "cli_listing.h"
#include "render/mustache.h"
#include "base/view.h"

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

/* "id  facts  title (publisher, retrieved)", a line per source in columns.  Built in one buffer,
 * each field looked up once: a printf per line was half of what printing them cost. */
static void sources_print(FILE *f, const view *m)
{
    const view *l = view_map_get(m, "sources");
    size_t w = 2;
    for (size_t i = 0; i < view_len(l); i++) {
        size_t len = strlen(cli_kb_str(view_list_at(l, i), "id"));
        w = len > w ? len : w;
    }
    fprintf(f, "%-*s  %5s  %s\n", (int)w, "id", "facts", "title");
    static const char spaces[] = "                ";
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < view_len(l); i++) {
        const view *s = view_list_at(l, i);
        const char *id = cli_kb_str(s, "id"), *title = cli_kb_str(s, "title");
        const char *publisher = cli_kb_str(s, "publisher");
        const char *retrieved = cli_kb_str(s, "retrieved");
        buf_puts(&b, id);
        for (size_t pad = strlen(id); pad < w; pad += sizeof spaces - 1)
            buf_append(&b, spaces, w - pad < sizeof spaces - 1 ? w - pad : sizeof spaces - 1);
        buf_printf(&b, "  %5lld  ", (long long)view_num(view_map_get(s, "fact_count")));
        buf_puts(&b, title ? title : "");
        if (publisher) {
            buf_puts(&b, " (");
            buf_puts(&b, publisher);
            if (retrieved) {
                buf_puts(&b, ", ");
                buf_puts(&b, retrieved);
            }
            buf_putc(&b, ')');
        }
        buf_putc(&b, '\n');
    }
    fwrite(buf_cstr(&b), 1, b.len, f);
    buf_free(&b);
}

int cli_kb_sources(gw_ctx *ctx, const cli_args *a, gw_error *err)
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
            char *open = cli_kb_open_command("source", s[i].id);
            view_map_set_str(e, "open", open);
            free(open);
        }
        if (!strcmp(ctx->format, "text"))
            rc = cli_kb_emit_text(ctx, sources_print, m, err);
        else
            rc = cli_listing_write(ctx, m, l, source_columns, err);
        view_free(m);
    }
    kb_sources_free(s, n);
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
    fprintf(f, "%s\n", cli_kb_str(m, "title"));
    for (size_t i = 0; i < N_SOURCE_FIELDS; i++)
        if (cli_kb_str(m, source_fields[i].key))
            fprintf(f, "  %-18s %s\n", source_fields[i].label, cli_kb_str(m, source_fields[i].key));
    const view *facts = view_map_get(m, "facts");
    if (!view_len(facts)) {
        fputs("\nNothing in the KB cites it.\n", f);
        return;
    }
    fprintf(f, "\nCited by %zu entr%s\n", view_len(facts), view_len(facts) == 1 ? "y" : "ies");
    for (size_t i = 0; i < view_len(facts); i++)
        cli_kb_hit_print(f, view_list_at(facts, i), 2);
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
    md_text(b, cli_kb_str(m, "title"));
    buf_puts(b, "\n\n");
    for (size_t i = 0; i < N_SOURCE_FIELDS; i++) {
        if (!cli_kb_str(m, source_fields[i].key))
            continue;
        buf_printf(b, "- %s: ", source_fields[i].label);
        md_text(b, cli_kb_str(m, source_fields[i].key));
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
            md_text(b, cli_kb_str(h, keys[c]));
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

int cli_kb_source(gw_ctx *ctx, const cli_args *a, gw_error *err)
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
            cli_kb_hit_to_view(&facts[i], h, 0);
            if (!facts[i].gpu)   /* it would open this very page */
                view_map_set(h, "open", view_null());
        }
        if (ctx->json) {
            rc = cli_kb_emit_json(ctx, m, err);
        } else if (!strcmp(ctx->format, "md")) {
            gw_buf b = GW_BUF_INIT;
            source_markdown(&b, m);
            rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
            buf_free(&b);
        } else {
            rc = cli_kb_emit_text(ctx, source_print, m, err);
        }
        view_free(m);
    }
    kb_hits_free(facts, n);
    kb_source_free(&s);
    kb_close(k);
    return rc;
}
