/* render_markdown.c — Markdown out through cmark-gfm, the only file that knows it: a document's
 * HTML body (safe mode, ids on headings and a table of contents, addresses checked again, charts
 * inlined as SVG where their placeholders stand), and the manual and help as terminal text and
 * as roff. */
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "mustache.h"
#include "render_markdown.h"

static void heading_text(cmark_node *node, gw_buf *out)
{
    for (cmark_node *k = cmark_node_first_child(node); k; k = cmark_node_next(k)) {
        cmark_node_type t = cmark_node_get_type(k);
        if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
            const char *lit = cmark_node_get_literal(k);
            buf_puts(out, lit ? lit : "");
        } else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK) {
            buf_putc(out, ' ');
        } else {
            heading_text(k, out);
        }
    }
}

/* "Memory & bandwidth (GB/s)" -> "memory-bandwidth-gb-s"; unique within the page. */
static void slug(const char *text, const view *used, gw_buf *out)
{
    gw_buf s = GW_BUF_INIT;
    int dash = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (isalnum(*p)) {
            if (dash && s.len)
                buf_putc(&s, '-');
            buf_putc(&s, (char)tolower(*p));
            dash = 0;
        } else {
            dash = 1;
        }
    }
    if (!s.len)
        buf_puts(&s, "section");
    buf_puts(out, buf_cstr(&s));
    for (int n = 2; view_map_get(used, buf_cstr(out)); n++) {
        buf_reset(out);
        buf_printf(out, "%s-%d", buf_cstr(&s), n);
    }
    buf_free(&s);
}

static void decode_entities(const char *s, size_t n, gw_buf *out)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '&') {
            buf_putc(out, s[i]);
            continue;
        }
        const char *semi = memchr(s + i, ';', n - i);
        if (!semi || semi - (s + i) > 10) {
            buf_putc(out, s[i]);
            continue;
        }
        size_t k = (size_t)(semi - (s + i));
        const char *e = s + i + 1;
        long code = -1;
        if (!strncmp(e, "amp;", 4)) code = '&';
        else if (!strncmp(e, "lt;", 3)) code = '<';
        else if (!strncmp(e, "gt;", 3)) code = '>';
        else if (!strncmp(e, "quot;", 5)) code = '"';
        else if (e[0] == '#')
            code = (e[1] == 'x' || e[1] == 'X') ? strtol(e + 2, NULL, 16) : strtol(e + 1, NULL, 10);
        if (code > 0 && code < 128) {
            buf_putc(out, (char)code);
            i += k;
        } else {
            buf_putc(out, s[i]);
        }
    }
}

/* What a link or image may point to once entities are decoded and blanks removed: a web
 * address, mail, a place in this page, a relative file, or an inline raster image.  cmark-gfm's
 * safe mode already drops javascript:, vbscript:, file: and data: addresses; this is the same
 * rule kept here so the page stays safe whatever the cmark version. */
static int url_allowed(const char *raw, size_t n, int is_src)
{
    gw_buf dec = GW_BUF_INIT, url = GW_BUF_INIT;
    decode_entities(raw, n, &dec);
    for (const unsigned char *p = (const unsigned char *)buf_cstr(&dec); *p; p++)
        if (*p > 0x20 && *p != 0x7f)
            buf_putc(&url, (char)tolower(*p));
    buf_free(&dec);
    const char *u = buf_cstr(&url);
    size_t scheme = strcspn(u, ":/?#");
    int ok;
    if (u[scheme] != ':')
        ok = 1;   /* no scheme: relative or #fragment */
    else if (!strncmp(u, "http:", 5) || !strncmp(u, "https:", 6) || !strncmp(u, "mailto:", 7))
        ok = 1;
    else if (is_src && (!strncmp(u, "data:image/png", 14) || !strncmp(u, "data:image/gif", 14) ||
                        !strncmp(u, "data:image/jpeg", 15) || !strncmp(u, "data:image/webp", 15)))
        ok = 1;
    else if (is_src && !strncmp(u, RENDER_CHART_SCHEME, strlen(RENDER_CHART_SCHEME)))
        ok = 1;
    else
        ok = 0;
    buf_free(&url);
    return ok;
}

/* Copies html, blanking every href/src value url_allowed refuses. */
static void filter_urls(const char *html, gw_buf *out)
{
    const char *p = html;
    /* the next of each kind, searched again only once passed: one scan of html each */
    const char *h = strstr(p, " href=\""), *s = strstr(p, " src=\"");
    for (;;) {
        if (h && h < p)
            h = strstr(p, " href=\"");
        if (s && s < p)
            s = strstr(p, " src=\"");
        const char *at = h && (!s || h < s) ? h : s;
        if (!at) {
            buf_puts(out, p);
            return;
        }
        int is_src = at == s;
        const char *v = at + (is_src ? 6 : 7);
        const char *end = strchr(v, '"');
        if (!end) {
            buf_puts(out, p);
            return;
        }
        buf_append(out, p, (size_t)(v - p));
        if (url_allowed(v, (size_t)(end - v), is_src))
            buf_append(out, v, (size_t)(end - v));
        p = end;
    }
}

/* Replaces each chart placeholder image with its SVG; a placeholder alone in a paragraph
 * becomes a <figure>. */
static int insert_charts(const char *html, const view *model, gw_buf *out, gw_error *err)
{
    static const char mark[] = "<img src=\"" RENDER_CHART_SCHEME;
    const view *by_id = view_map_get(model, "charts_by_id");
    const char *p = html;
    for (;;) {
        const char *at = strstr(p, mark);
        if (!at) {
            buf_puts(out, p);
            return GW_OK;
        }
        const char *id = at + strlen(mark);
        const char *id_end = strchr(id, '"');
        const char *tag_end = id_end ? strstr(id_end, "/>") : NULL;
        if (!tag_end) {
            buf_puts(out, p);
            return GW_OK;
        }
        tag_end += 2;
        int figure = at - p >= 3 && !strncmp(at - 3, "<p>", 3) && !strncmp(tag_end, "</p>", 4);
        buf_append(out, p, (size_t)((figure ? at - 3 : at) - p));
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(id_end - id), id);
        const view *chart = view_map_get(by_id, key);
        if (figure)
            buf_puts(out, "<figure class=\"chart\">\n");
        const char *not_drawn = view_str(view_map_get(chart, "not_drawn"));
        if (not_drawn) {   /* a template that placed the chart's image itself */
            buf_puts(out, "<em>Chart '");
            mustache_escape_html(out, key, strlen(key));
            buf_puts(out, "': not drawn: ");
            mustache_escape_html(out, not_drawn, strlen(not_drawn));
            buf_puts(out, "</em>");
        } else if (chart) {
            int rc = chart_svg(chart, out, err);
            if (rc != GW_OK)
                return rc;
        } else {
            buf_puts(out, "[no chart '");
            mustache_escape_html(out, key, strlen(key));
            buf_puts(out, "']");
        }
        if (figure) {
            buf_puts(out, "</figure>");
            tag_end += 4;
        }
        p = tag_end;
    }
}

/* GitHub's footnotes and, below, its tables and strikethrough, in cmark-gfm's safe mode. */
#define MARKDOWN_OPTIONS (CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES)

/* Markdown (len bytes) as a cmark-gfm document, with *parser, which rendering it needs: free
 * the document, then the parser.  NULL (nothing to free) when the parser fails. */
static cmark_node *markdown_parse(const char *md, size_t len, cmark_parser **parser)
{
    /* No autolink (bare URLs): the templates write every link as <https://...>, and scanning
     * all text for URLs costs more than the tables.  No tagfilter: safe mode drops raw HTML. */
    static const char *const exts[] = {"table", "strikethrough"};
    cmark_gfm_core_extensions_ensure_registered();
    *parser = cmark_parser_new(MARKDOWN_OPTIONS);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        cmark_syntax_extension *ext = cmark_find_syntax_extension(exts[i]);
        if (ext)
            cmark_parser_attach_syntax_extension(*parser, ext);
    }
    cmark_parser_feed(*parser, md, len);
    cmark_node *doc = cmark_parser_finish(*parser);
    if (!doc) {
        cmark_parser_free(*parser);
        *parser = NULL;
    }
    return doc;
}

/* The page prints the model's title itself, so the document's own h1 is left out when it is
 * the first block and the model has a title to show instead. */
static int skips_first_h1(cmark_node *doc, const view *model)
{
    cmark_node *first = cmark_node_first_child(doc);
    return view_str(view_map_get(model, "title")) && first &&
           cmark_node_get_type(first) == CMARK_NODE_HEADING &&
           cmark_node_get_heading_level(first) == 1;
}

/* Every heading's id, unique within the page, into ids in document order; the headings of
 * levels 2 and 3 into toc as {level, id, text, sub}. */
static void heading_ids(cmark_node *doc, view *ids, view *toc)
{
    view *used = view_map();
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_HEADING)
            continue;
        gw_buf text = GW_BUF_INIT, id = GW_BUF_INIT;
        heading_text(n, &text);
        slug(buf_cstr(&text), used, &id);
        view_map_set_bool(used, buf_cstr(&id), 1);
        view_list_push(ids, view_string(buf_cstr(&id)));
        int level = cmark_node_get_heading_level(n);
        if (level == 2 || level == 3) {
            view *e = view_list_push(toc, view_map());
            view_map_set_int(e, "level", level);
            view_map_set_str(e, "id", buf_cstr(&id));
            view_map_set_str(e, "text", buf_cstr(&text));
            view_map_set_bool(e, "sub", level == 3);
        }
        buf_free(&text);
        buf_free(&id);
    }
    cmark_iter_free(it);
    view_free(used);
}

/* html with ids on its headings: cmark writes them as bare <hN>, in the order of ids.  With
 * skip_first_h1, the h1 that begins html is left out. */
static void html_with_heading_ids(const char *html, const view *ids, int skip_first_h1,
                                  gw_buf *out)
{
    const char *p = html;
    size_t h = 0;
    for (;;) {
        const char *at = strstr(p, "<h");
        if (!at) {
            buf_puts(out, p);
            break;
        }
        if (at[2] >= '1' && at[2] <= '6' && at[3] == '>' && h < view_len(ids)) {
            const char *id = view_str(view_list_at(ids, h));
            if (h == 0 && skip_first_h1 && at == html) {
                const char *close = strstr(at, "</h1>\n");
                if (close) {
                    p = close + 6;
                    h++;
                    continue;
                }
            }
            buf_append(out, p, (size_t)(at - p));
            buf_printf(out, "<h%c id=\"%s\">", at[2], id);
            h++;
            p = at + 4;
        } else {
            buf_append(out, p, (size_t)(at - p) + 2);
            p = at + 2;
        }
    }
}

/* The start of the next h2 or h3 element or of the footnotes at or after p, or the end. */
static const char *next_section(const char *p)
{
    for (const char *at = strchr(p, '<'); at; at = strchr(at + 1, '<'))
        if (!strncmp(at, "<h2", 3) || !strncmp(at, "<h3", 3) ||
            !strncmp(at, "<section class=\"footnotes\"", 27))
            return at;
    return p + strlen(p);
}

/* html with each h3 section after the appendix's heading (<h2 id="appendix">) folded: the h3
 * becomes the <summary> of a <details> that holds the section, so a reader on screen sees the
 * appendix's parts by name and opens the one asked about; the page's print CSS unfolds them.
 * A page without an appendix is copied as it is. */
static void fold_appendix(const char *html, gw_buf *out)
{
    const char *appendix = strstr(html, "<h2 id=\"appendix\">");
    if (!appendix) {
        buf_puts(out, html);
        return;
    }
    const char *p = next_section(appendix + 1);
    buf_append(out, html, (size_t)(p - html));
    int open = 0;
    while (*p) {
        if (open)
            buf_puts(out, "</details>\n");
        open = 0;
        const char *close = strncmp(p, "<h3", 3) ? NULL : strstr(p, "</h3>");
        if (close) {
            close += strlen("</h3>");
            buf_puts(out, "<details><summary>");
            buf_append(out, p, (size_t)(close - p));
            buf_puts(out, "</summary>");
            open = 1;
        } else {
            close = p + 1;
        }
        const char *next = next_section(close);
        buf_append(out, close, (size_t)(next - close));
        p = next;
    }
    if (open)
        buf_puts(out, "</details>\n");
}

int render_markdown_html(const char *md, size_t len, const view *model, gw_buf *body,
                            view *toc, gw_error *err)
{
    cmark_parser *parser;
    cmark_node *doc = markdown_parse(md, len, &parser);
    if (!doc)
        return gw_error_set(err, GW_ESOFTWARE, "Markdown parser failed");
    view *ids = view_list();
    int skip_first_h1 = skips_first_h1(doc, model);
    heading_ids(doc, ids, toc);
    char *html = cmark_render_html(doc, MARKDOWN_OPTIONS,
                                   cmark_parser_get_syntax_extensions(parser));
    cmark_node_free(doc);
    cmark_parser_free(parser);

    gw_buf with_ids = GW_BUF_INIT, folded = GW_BUF_INIT, safe = GW_BUF_INIT;
    html_with_heading_ids(html, ids, skip_first_h1, &with_ids);
    free(html);
    view_free(ids);
    fold_appendix(buf_cstr(&with_ids), &folded);
    buf_free(&with_ids);
    filter_urls(buf_cstr(&folded), &safe);
    buf_free(&folded);
    int rc = insert_charts(buf_cstr(&safe), model, body, err);
    buf_free(&safe);
    return rc;
}

/* ---- the manual and help ------------------------------------------------------------------ */

static void render_markdown_with(const char *md, gw_buf *out,
                                 char *(*fn)(cmark_node *, int, int), int width)
{
    cmark_node *doc = cmark_parse_document(md, strlen(md), CMARK_OPT_DEFAULT);
    char *s = doc ? fn(doc, CMARK_OPT_DEFAULT, width) : NULL;
    if (s)
        buf_puts(out, s);
    free(s);
    if (doc)
        cmark_node_free(doc);
}

void render_markdown_text(const char *md, int width, gw_buf *out)
{
    /* block by block: cmark's plain text renderer drops a code block's indent, which is what
     * sets an example apart on a terminal */
    cmark_node *doc = cmark_parse_document(md, strlen(md), CMARK_OPT_DEFAULT);
    if (!doc)
        return;
    for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
        if (n != cmark_node_first_child(doc))
            buf_putc(out, '\n');
        if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK) {
            const char *code = cmark_node_get_literal(n);
            while (code && *code) {
                size_t len = strcspn(code, "\n");
                buf_printf(out, "    %.*s\n", (int)len, code);
                code += len + (code[len] == '\n');
            }
            continue;
        }
        char *s = cmark_render_plaintext(n, CMARK_OPT_DEFAULT, width);
        if (s)
            buf_puts(out, s);
        free(s);
    }
    cmark_node_free(doc);
}

void render_markdown_man(const char *md, gw_buf *out)
{
    render_markdown_with(md, out, cmark_render_man, 0);
}
