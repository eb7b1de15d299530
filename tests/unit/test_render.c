/* test_render.c — documents from the shipped templates (with fixture models): Markdown with its
 * charts as .svg files, HTML pages that libxml2's HTML parser reads without errors and that hold
 * their tables and SVG charts, user overrides, and a corpus of hostile strings that must give no
 * executable markup and no broken table in any output. */
#define _GNU_SOURCE   /* strcasestr */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "cli/cli_document.h"
#include "render/render.h"

static char tmpdir[256];

static view *load_json(const char *path)
{
    char *text;
    size_t len;
    gw_error err = {0};
    if (gw_read_file(path, &text, &len) != 0)
        fail_msg("cannot read %s", path);
    view *v = view_from_json(text, len, &err);
    free(text);
    if (!v)
        fail_msg("%s: %s", path, err.msg);
    return v;
}

static char *read_text(const char *path)
{
    char *text;
    size_t len;
    if (gw_read_file(path, &text, &len) != 0)
        fail_msg("cannot read %s", path);
    return text;
}

static char user_config_dir[300];

static render_opts opts_init(const char *format, const char *output)
{
    snprintf(user_config_dir, sizeof user_config_dir, "%s/config", tmpdir);
    render_opts o = {format, output, NULL, user_config_dir, "."};
    return o;
}

/* Renders document `name` with model (consumed) in format, as if for -o TMPDIR/NAME.FORMAT;
 * returns the document's text.  doc_out: the whole document (charts too) when not NULL. */
static char *render_to_text(const char *name, view *model, const char *format, render_doc *doc_out)
{
    char out[512];
    gw_error err = {0};
    snprintf(out, sizeof out, "%s/%s.%s", tmpdir, name, format);
    render_opts opts = opts_init(format, out);
    render_doc doc;
    int rc = render_document(&opts, name, model, &doc, &err);
    view_free(model);
    if (rc != GW_OK)
        fail_msg("render %s %s: %s", name, format, err.msg);
    char *text = gw_xstrdup(buf_cstr(&doc.text));
    if (doc_out)
        *doc_out = doc;
    else
        render_doc_free(&doc);
    return text;
}

/* ---- the HTML check, with libxml2's HTML parser ---- */

typedef struct html_facts {
    int errors;             /* parser errors other than HTML5 tags libxml2 does not know */
    char first_error[300];
    int tables, rows, first_row_cells, svgs, figures, scripts, toc_links;
    int unsafe;             /* on* attributes, script-like URLs, iframes and the like */
    char unsafe_what[300];
} html_facts;

static void on_error(void *data, xmlErrorPtr e)
{
    html_facts *f = data;
    /* libxml2's HTML parser is HTML 4: <main>, <figure>, <svg> ... are "invalid tags" to it,
     * which is not a structural problem. */
    if (e->code == XML_HTML_UNKNOWN_TAG)
        return;
    if (f->errors++ == 0)
        snprintf(f->first_error, sizeof f->first_error, "line %d: %s", e->line,
                 e->message ? e->message : "?");
}

static int url_is_dangerous(const char *value)
{
    char clean[256];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)value; *p && n + 1 < sizeof clean; p++)
        if (*p > 0x20 && *p != 0x7f)
            clean[n++] = (char)*p;
    clean[n] = '\0';
    if (!strncasecmp(clean, "javascript:", 11) || !strncasecmp(clean, "vbscript:", 9) ||
        !strncasecmp(clean, "file:", 5))
        return 1;
    return !strncasecmp(clean, "data:", 5) && strncasecmp(clean, "data:image/png", 14) != 0;
}

static void walk(xmlNode *n, html_facts *f, int in_toc)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *name = (const char *)n->name;
        int toc = in_toc;
        if (!strcasecmp(name, "table"))
            f->tables++;
        if (!strcasecmp(name, "tr"))
            f->rows++;
        if (!strcasecmp(name, "svg"))
            f->svgs++;
        if (!strcasecmp(name, "figure"))
            f->figures++;
        if (!strcasecmp(name, "nav"))
            toc = 1;
        if (toc && !strcasecmp(name, "a"))
            f->toc_links++;
        if (!strcasecmp(name, "script") || !strcasecmp(name, "iframe") ||
            !strcasecmp(name, "object") || !strcasecmp(name, "embed") ||
            !strcasecmp(name, "base") || !strcasecmp(name, "form")) {
            f->scripts += !strcasecmp(name, "script");
            f->unsafe++;
            snprintf(f->unsafe_what, sizeof f->unsafe_what, "element <%s>", name);
        }
        if (!strcasecmp(name, "tr") && f->rows == 1) {
            for (xmlNode *c = n->children; c; c = c->next)
                if (c->type == XML_ELEMENT_NODE)
                    f->first_row_cells++;
        }
        for (xmlAttr *a = n->properties; a; a = a->next) {
            const char *an = (const char *)a->name;
            xmlChar *v = xmlNodeGetContent((xmlNode *)a);   /* entities already decoded */
            const char *value = v ? (const char *)v : "";
            if (!strncasecmp(an, "on", 2) ||
                ((!strcasecmp(an, "href") || !strcasecmp(an, "src") ||
                  !strcasecmp(an, "action") || !strcasecmp(an, "formaction")) &&
                 url_is_dangerous(value))) {
                f->unsafe++;
                snprintf(f->unsafe_what, sizeof f->unsafe_what, "<%s %s=\"%.200s\">", name, an, value);
            }
            xmlFree(v);
        }
        walk(n->children, f, toc);
    }
}

static html_facts check_html(const char *html)
{
    html_facts f;
    memset(&f, 0, sizeof f);
    htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
    xmlSetStructuredErrorFunc(&f, on_error);
    htmlDocPtr doc = htmlCtxtReadMemory(ctxt, html, (int)strlen(html), "page.html", "UTF-8",
                                        HTML_PARSE_NONET);
    xmlSetStructuredErrorFunc(NULL, NULL);
    assert_non_null(doc);
    walk(xmlDocGetRootElement(doc), &f, 0);
    xmlFreeDoc(doc);
    htmlFreeParserCtxt(ctxt);
    return f;
}

/* ---- the Markdown check: table shape, headings, raw HTML ---- */

typedef struct md_facts {
    int table_rows, first_row_cols, bad_rows, headings, raw_html;
} md_facts;

static int count_cells(const char *line, size_t n)
{
    int pipes = 0;
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '\\') {
            i++;
            continue;
        }
        pipes += line[i] == '|';
    }
    return pipes - 1;
}

static md_facts check_md(const char *md)
{
    md_facts f = {0};
    const char *p = md;
    int cols = -1;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n > 0 && p[0] == '|') {
            int c = count_cells(p, n);
            if (cols < 0) {
                cols = c;
                if (f.table_rows == 0)
                    f.first_row_cols = c;
            } else if (c != cols) {
                f.bad_rows++;
            }
            f.table_rows++;
        } else {
            cols = -1;
        }
        if (n > 0 && p[0] == '#')
            f.headings++;
        for (size_t i = 0; i + 1 < n; i++)
            if (p[i] == '<' && p[i + 1] != 'h')   /* only <https://...> autolinks are written */
                f.raw_html++;
        p += n + (nl ? 1 : 0);
    }
    return f;
}

/* ---- tests ---- */

static void test_markdown_datasheet(void **state)
{
    (void)state;
    char *md = render_to_text("datasheet", load_json("tests/fixtures/render/datasheet.json"), "md", NULL);
    md_facts f = check_md(md);
    /* Specs: header + rule + 6 rows = 8; results: 2 + 1; prices: 2 + 1: 14 table lines. */
    assert_int_equal(f.table_rows, 14);
    assert_int_equal(f.bad_rows, 0);
    assert_int_equal(f.raw_html, 0);
    assert_non_null(strstr(md, "# GeForce RTX 3090 datasheet\n"));
    assert_non_null(strstr(md, "| Memory bandwidth | 936 GB/s |\n"));
    assert_non_null(strstr(md, "Source of the specifications: [^1]\n"));
    assert_non_null(strstr(md, "[^1]: NVIDIA Ampere GA102 GPU Architecture, NVIDIA, retrieved 2020-09. <https://"));
    /* A non-http URL stays escaped text. */
    assert_non_null(strstr(md, "[^3]: Used GPU prices, sample survey, retrieved 2026-10. prices.txt\n"));
    /* The chart is an image beside the document: datasheet.md -> datasheet-throughput.svg. */
    assert_non_null(strstr(md, "![Throughput (dense)](datasheet-throughput.svg)"));
    free(md);
}

/* Markdown with a named output: the renderer returns each chart as a file to write beside it
 * (nothing is written yet), and cli_write_document writes the charts, then the document. */
static void test_markdown_chart_files(void **state)
{
    (void)state;
    render_doc doc;
    char *md = render_to_text("datasheet", load_json("tests/fixtures/render/datasheet.json"), "md", &doc);
    char svg_path[600], md_path[600];
    snprintf(svg_path, sizeof svg_path, "%s/datasheet-throughput.svg", tmpdir);
    snprintf(md_path, sizeof md_path, "%s/datasheet.md", tmpdir);
    assert_int_equal(doc.n_charts, 1);   /* the fixture has one chart, "throughput" */
    assert_string_equal(doc.charts[0].path, svg_path);
    assert_non_null(strstr(buf_cstr(&doc.charts[0].svg), "<?xml version=\"1.0\""));
    assert_non_null(strstr(buf_cstr(&doc.charts[0].svg), ">71 TFLOPS</text>"));
    unlink(svg_path);
    unlink(md_path);
    struct stat st;
    assert_int_not_equal(stat(svg_path, &st), 0);   /* rendering wrote nothing */

    gw_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out = stdout;
    ctx.output = md_path;
    gw_error err = {0};
    assert_int_equal(cli_write_document(&ctx, &doc, &err), GW_OK);
    char *svg = read_text(svg_path);
    assert_non_null(strstr(svg, "<?xml version=\"1.0\""));
    assert_non_null(strstr(svg, ">71 TFLOPS</text>"));
    free(svg);
    char *written = read_text(md_path);
    assert_string_equal(written, md);
    free(written);

    /* A chart that cannot be written stops before the document is: the output stays as it
     * was, and the error names the chart's file. */
    unlink(md_path);
    free(doc.charts[0].path);
    doc.charts[0].path = gw_xstrdup("/nonexistent-dir/x.svg");
    assert_int_equal(cli_write_document(&ctx, &doc, &err), GW_ECANTCREAT);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.svg: "));
    assert_int_not_equal(stat(md_path, &st), 0);
    render_doc_free(&doc);
    free(md);

    /* Markdown for standard output has no chart files: its charts are only named. */
    render_opts opts = opts_init("md", "-");
    view *model = load_json("tests/fixtures/render/datasheet.json");
    assert_int_equal(render_document(&opts, "datasheet", model, &doc, &err), GW_OK);
    view_free(model);
    assert_int_equal(doc.n_charts, 0);
    assert_non_null(strstr(buf_cstr(&doc.text), "*Chart: Throughput (dense) (written as an SVG file beside the document with -o FILE)*"));
    render_doc_free(&doc);
}

/* The datasheet fixture with a second chart whose data cannot be drawn (a value past 1e300). */
static view *datasheet_with_unusable_chart(void)
{
    view *model = load_json("tests/fixtures/render/datasheet.json");
    view *c = view_list_push(view_map_get(model, "charts"), view_map());
    view_map_set_str(c, "id", "huge");
    view_map_set_str(c, "kind", "bar");
    view_map_set_str(c, "title", "Huge");
    view *b = view_list_push(view_map_set(c, "bars", view_list()), view_map());
    view_map_set_str(b, "label", "a");
    view_map_set_num(b, "value", 1e308);
    return model;
}

static void test_unusable_chart_note(void **state)
{
    (void)state;
    /* Markdown: the note stands where the chart would, and no file is drawn for it */
    render_doc doc;
    char *md = render_to_text("datasheet", datasheet_with_unusable_chart(), "md", &doc);
    assert_int_equal(doc.n_charts, 1);   /* "throughput" only */
    assert_non_null(strstr(doc.charts[0].path, "datasheet-throughput.svg"));
    assert_non_null(strstr(md, "*Chart: Huge: not drawn: chart 'huge': bar 1's value 1e+308 is "
                               "too large to draw*"));
    assert_null(strstr(md, "datasheet-huge.svg"));
    render_doc_free(&doc);
    free(md);
    /* HTML: the same note, emphasised, and one inline chart */
    char *html = render_to_text("datasheet", datasheet_with_unusable_chart(), "html", NULL);
    assert_non_null(strstr(html, "<em>Chart: Huge: not drawn: chart 'huge': bar 1's value "
                                 "1e+308 is too large to draw</em>"));
    size_t svgs = 0;
    for (const char *p = strstr(html, "<svg"); p; p = strstr(p + 1, "<svg"))
        svgs++;
    assert_int_equal(svgs, 1);
    free(html);
}

/* A comparison's charts take their words from the model's rows (which kb compare fills from the
 * KB's one description of the GPU columns): a label and unit the renderer cannot know come out
 * in the chart's title, axis and bars. */
static void test_comparison_chart_words(void **state)
{
    (void)state;
    view *model = load_json("tests/fixtures/render/comparison.json");
    view *bandwidth = view_list_at(view_map_get(model, "rows"), 1);
    assert_string_equal(view_str(view_map_get(bandwidth, "field")), "memory_bandwidth_gbs");
    view_map_set_str(bandwidth, "label", "Bandbreite");
    view_map_set_str(bandwidth, "unit", "GiB/s");
    render_doc doc;
    char *md = render_to_text("comparison", model, "md", &doc);
    const char *svg = NULL;
    for (size_t i = 0; i < doc.n_charts; i++)
        if (strstr(doc.charts[i].path, "comparison-memory-bandwidth.svg"))
            svg = buf_cstr(&doc.charts[i].svg);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "<title id=\"memory-bandwidth-title\">Bandbreite</title>"));
    assert_non_null(strstr(svg, ">Bandbreite (GiB/s)</text>"));
    assert_non_null(strstr(svg, ">3,350 GiB/s</text>"));
    assert_null(strstr(svg, "Memory bandwidth"));
    assert_non_null(strstr(md, "![Bandbreite](comparison-memory-bandwidth.svg)"));
    render_doc_free(&doc);
    free(md);
}

static void test_html_documents(void **state)
{
    (void)state;
    static const struct {
        const char *name, *fixture;
        int tables, rows, svgs;
    } docs[] = {
        /* datasheet: specs (1 + 6 rows), results (1 + 1), prices (1 + 1); one chart */
        {"datasheet", "tests/fixtures/render/datasheet.json", 3, 11, 1},
        /* comparison: header + 4 rows; its line chart and the two bar charts the renderer adds
         * (memory bandwidth, dense BF16) */
        {"comparison", "tests/fixtures/render/comparison.json", 1, 5, 3},
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        char *html = render_to_text(docs[i].name, load_json(docs[i].fixture), "html", NULL);
        html_facts f = check_html(html);
        if (f.errors)
            fail_msg("%s: %d HTML errors, first: %s", docs[i].name, f.errors, f.first_error);
        assert_int_equal(f.tables, docs[i].tables);
        assert_int_equal(f.rows, docs[i].rows);
        assert_int_equal(f.svgs, docs[i].svgs);
        assert_int_equal(f.figures, docs[i].svgs);
        assert_int_equal(f.scripts, 0);
        assert_int_equal(f.unsafe, 0);
        assert_non_null(strstr(html, "@page { size: A4;"));
        assert_non_null(strstr(html, "<h2 id=\"side-by-side\">") || strstr(html, "<h2 id=\"specifications\">"));
        assert_null(strstr(html, "gpuwise-chart:"));
        assert_null(strstr(html, "<link"));
        free(html);
    }
}

static void test_html_details(void **state)
{
    (void)state;
    char *html = render_to_text("datasheet", load_json("tests/fixtures/render/datasheet.json"), "html", NULL);
    html_facts f = check_html(html);
    /* Contents: Specifications, Measured results, Prices, Claims to read with care. */
    assert_int_equal(f.toc_links, 4);
    assert_non_null(strstr(html, "<a href=\"#measured-results\">Measured results</a>"));
    /* The title is printed once, by the page, not again from the Markdown. */
    assert_non_null(strstr(html, "<h1>GeForce RTX 3090 datasheet</h1>"));
    assert_null(strstr(strstr(html, "<main>"), "<h1"));
    /* Footnotes: a superscript reference and the numbered source with a safe link. */
    assert_non_null(strstr(html, "<sup class=\"footnote-ref\"><a href=\"#fn-1\""));
    assert_non_null(strstr(html, "<a href=\"https://lambdalabs.com/gpu-benchmarks\">"));
    free(html);
}

static void write_file(const char *path, const char *text)
{
    assert_int_equal(gw_write_file_atomic(path, text, strlen(text)), 0);
}

static void test_overrides(void **state)
{
    (void)state;
    char dir[600], path[700];
    snprintf(dir, sizeof dir, "%s/config", tmpdir);
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/config/templates", tmpdir);
    mkdir(dir, 0755);
    /* A user's datasheet that changes one block of the shipped one. */
    snprintf(path, sizeof path, "%s/datasheet.md.mustache", dir);
    write_file(path, "{{<datasheet}}{{$intro}}Checked by {{vendor}} fans.\n{{/intro}}{{/datasheet}}\n");
    char *md = render_to_text("datasheet", load_json("tests/fixtures/render/datasheet.json"), "md", NULL);
    assert_non_null(strstr(md, "Checked by NVIDIA fans.\n"));
    assert_non_null(strstr(md, "| Memory bandwidth | 936 GB/s |"));
    assert_null(strstr(md, "Founders Edition figures"));   /* the default intro is replaced */
    free(md);
    unlink(path);

    /* --template FILE wins over everything. */
    snprintf(path, sizeof path, "%s/mine.md.mustache", tmpdir);
    write_file(path, "Mine: {{name}}\n");
    gw_error err = {0};
    char out[600];
    snprintf(out, sizeof out, "%s/mine.md", tmpdir);
    render_opts opts = opts_init("md", out);
    opts.template_path = path;
    render_doc doc;
    view *model = load_json("tests/fixtures/render/datasheet.json");
    assert_int_equal(render_document(&opts, "datasheet", model, &doc, &err), GW_OK);
    view_free(model);
    assert_string_equal(buf_cstr(&doc.text), "Mine: GeForce RTX 3090\n");
    render_doc_free(&doc);

    /* A template naming a partial that does not exist: the error names file, line, column. */
    write_file(path, "ok\n  {{>nowhere}}\n");
    model = load_json("tests/fixtures/render/datasheet.json");
    assert_int_equal(render_document(&opts, "datasheet", model, &doc, &err), GW_EDATA);
    render_doc_free(&doc);
    view_free(model);
    assert_non_null(strstr(err.msg, "mine.md.mustache:2:3: unknown partial 'nowhere'"));
}

/* Markdown written by a template author (not escaped) still cannot carry script into HTML:
 * cmark-gfm's safe mode and the renderer's own URL check. */
static void test_safe_mode(void **state)
{
    (void)state;
    char tmpl[600], out[600];
    snprintf(tmpl, sizeof tmpl, "%s/raw.md.mustache", tmpdir);
    snprintf(out, sizeof out, "%s/raw.html", tmpdir);
    write_file(tmpl,
               "# Raw\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
               "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](java&#115;cript:alert(1)) "
               "[d](vbscript:msgbox(1)) [e](data:text/html;base64,PHNjcmlwdD4=) "
               "[f](file:///etc/passwd) <javascript:alert(1)> [g]( javascript:alert(1))\n\n"
               "![png](data:image/png;base64,iVBORw0KGgo=) [web](https://example.com/a?b=1&c=2) "
               "[here](#raw) [rel](other.html)\n");
    gw_error err = {0};
    render_opts opts = opts_init("html", out);
    opts.template_path = tmpl;
    render_doc doc;
    view *model = view_map();
    view_map_set_str(model, "title", "Raw");
    assert_int_equal(render_document(&opts, "raw", model, &doc, &err), GW_OK);
    view_free(model);
    char *html = gw_xstrdup(buf_cstr(&doc.text));
    render_doc_free(&doc);
    html_facts f = check_html(html);
    assert_int_equal(f.unsafe, 0);
    assert_int_equal(f.scripts, 0);
    /* "javascript:" may remain as the text of a link, never as its address. */
    assert_null(strcasestr(html, "\"javascript:"));
    assert_null(strcasestr(html, "\"vbscript:"));
    assert_null(strstr(html, "data:text"));
    assert_null(strstr(html, "file:"));
    assert_null(strstr(html, "onerror"));
    /* What is safe stays. */
    assert_non_null(strstr(html, "<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"png\" />"));
    assert_non_null(strstr(html, "<a href=\"https://example.com/a?b=1&amp;c=2\">web</a>"));
    assert_non_null(strstr(html, "<a href=\"#raw\">here</a>"));
    assert_non_null(strstr(html, "<a href=\"other.html\">rel</a>"));
    free(html);
}

/* A copy of the model with every string (but ids, kinds and fields) replaced by s.  Caller frees. */
static view *poisoned(const view *v, const char *key, const char *s)
{
    view *out;
    switch (view_kind(v)) {
    case VIEW_STRING:
        /* ids, chart kinds and row fields name things; they are not text */
        if (key && (!strcmp(key, "id") || !strcmp(key, "kind") || !strcmp(key, "field")))
            return view_copy(v);
        return view_string(s);
    case VIEW_LIST:
        out = view_list();
        for (size_t i = 0; i < view_len(v); i++)
            view_list_push(out, poisoned(view_list_at(v, i), NULL, s));
        return out;
    case VIEW_MAP:
        out = view_map();
        for (size_t i = 0; i < view_len(v); i++)
            view_map_set(out, view_map_key_at(v, i),
                         poisoned(view_map_value_at(v, i), view_map_key_at(v, i), s));
        return out;
    default:
        return view_copy(v);
    }
}

static view *poisoned_model(const char *fixture, const char *s)
{
    view *clean = load_json(fixture);
    view *m = poisoned(clean, NULL, s);
    view_free(clean);
    return m;
}

static void test_hostile(void **state)
{
    (void)state;
    char *corpus = read_text("tests/fixtures/render/hostile.txt");
    static const char *const docs[][2] = {
        {"datasheet", "tests/fixtures/render/datasheet.json"},
        {"comparison", "tests/fixtures/render/comparison.json"},
    };
    int strings = 0;
    for (size_t d = 0; d < 2; d++) {
        char *md0_text = render_to_text(docs[d][0], load_json(docs[d][1]), "md", NULL);
        md_facts md0 = check_md(md0_text);
        free(md0_text);
        char *html0_text = render_to_text(docs[d][0], load_json(docs[d][1]), "html", NULL);
        html_facts html0 = check_html(html0_text);
        free(html0_text);
        const char *line = corpus;
        while (*line) {
            const char *nl = strchr(line, '\n');
            size_t line_len = nl ? (size_t)(nl - line) : strlen(line);
            if (line_len > 0) {
                /* "\\n" in the corpus stands for a line break inside a value */
                gw_buf s = GW_BUF_INIT;
                for (const char *p = line; p < line + line_len; p++) {
                    if (p[0] == '\\' && p[1] == 'n') {
                        buf_putc(&s, '\n');
                        p++;
                    } else {
                        buf_putc(&s, *p);
                    }
                }
                strings++;
                view *m = poisoned_model(docs[d][1], buf_cstr(&s));
                char *md = render_to_text(docs[d][0], m, "md", NULL);
                md_facts mf = check_md(md);
                if (mf.table_rows != md0.table_rows || mf.bad_rows || mf.raw_html ||
                    mf.headings != md0.headings || mf.first_row_cols != md0.first_row_cols)
                    fail_msg("%s md with [%s]: %d table lines (want %d), %d bad rows, %d raw "
                             "HTML, %d headings (want %d)\n%s",
                             docs[d][0], buf_cstr(&s), mf.table_rows, md0.table_rows,
                             mf.bad_rows, mf.raw_html, mf.headings, md0.headings, md);
                free(md);
                m = poisoned_model(docs[d][1], buf_cstr(&s));
                char *html = render_to_text(docs[d][0], m, "html", NULL);
                html_facts hf = check_html(html);
                if (hf.unsafe || hf.scripts || hf.errors || hf.tables != html0.tables ||
                    hf.rows != html0.rows || hf.first_row_cells != html0.first_row_cells ||
                    hf.svgs != html0.svgs)
                    fail_msg("%s html with [%s]: unsafe %d (%s), errors %d (%s), tables %d/%d, "
                             "rows %d/%d, cells %d/%d, svgs %d/%d",
                             docs[d][0], buf_cstr(&s), hf.unsafe, hf.unsafe_what, hf.errors,
                             hf.first_error, hf.tables, html0.tables, hf.rows, html0.rows,
                             hf.first_row_cells, html0.first_row_cells, hf.svgs, html0.svgs);
                free(html);
                buf_free(&s);
            }
            if (!nl)
                break;
            line = nl + 1;
        }
    }
    printf("hostile corpus: %d strings x 2 documents x md/html, no executable markup\n", strings / 2);
    assert_true(strings >= 2 * 20);
    free(corpus);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gwrender.XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    setenv("SOURCE_DATE_EPOCH", "1764460800", 1);   /* 2025-11-30 */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markdown_datasheet), cmocka_unit_test(test_markdown_chart_files),
        cmocka_unit_test(test_html_documents),
        cmocka_unit_test(test_html_details),       cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_hostile),            cmocka_unit_test(test_safe_mode),
        cmocka_unit_test(test_unusable_chart_note), cmocka_unit_test(test_comparison_chart_words),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
