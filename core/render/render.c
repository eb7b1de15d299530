/* render.c — documents: finds a template (--template, the user's folder, the shipped folder),
 * adds to the model what templates need (a comparison's cells and charts, chart images, citation
 * links), renders it to Markdown with Markdown escaping and has_X flags, and either returns that
 * with its charts drawn as .svg files to go beside it, or a standalone HTML page: the body from
 * render_markdown.c inside templates/page.html.mustache.  It writes nothing: the command writes
 * what it returns. */
#include "render.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "base/check.h"
#include "base/clock.h"
#include "base/limits.h"
#include "chart.h"
#include "mustache.h"
#include "render_markdown.h"

#define MAX_DIRS 4

/* dir/name into out (size n); -1 when it does not fit. */
static int path_join(char *out, size_t n, const char *dir, const char *name)
{
    int len = snprintf(out, n, "%s/%s", dir, name);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* Where a template's partials are found, first folder first.  `skip` is the main template's
 * own file, so a user's datasheet.md.mustache can say {{<datasheet}} and mean the shipped one. */
typedef struct tmpl_dirs {
    char dirs[MAX_DIRS][4200];
    int n;
    const char *suffix;     /* ".md.mustache", ".html.mustache" or ".mustache" */
    struct stat skip;
    int has_skip;
} tmpl_dirs;

static void dirs_add(tmpl_dirs *d, const char *dir, const char *sub)
{
    if (d->n >= MAX_DIRS || !dir || !*dir)
        return;
    if (sub) {
        if (path_join(d->dirs[d->n], sizeof d->dirs[d->n], dir, sub) != 0)
            return;
    } else {
        snprintf(d->dirs[d->n], sizeof d->dirs[d->n], "%s", dir);
    }
    d->n++;
}

static int same_file(const struct stat *a, const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_dev == a->st_dev && st.st_ino == a->st_ino;
}

/* Looks `name` + suffix up in the folders; *path_out (size n) gets the file found, or "". */
static void dirs_find(const tmpl_dirs *d, const char *name, const char *suffix, char *path_out,
                      size_t n)
{
    char file[600];
    path_out[0] = '\0';
    snprintf(file, sizeof file, "%s%s", name, suffix);
    for (int i = 0; i < d->n; i++) {
        char path[4900];
        struct stat st;
        if (path_join(path, sizeof path, d->dirs[i], file) != 0 || stat(path, &st) != 0)
            continue;
        if (d->has_skip && same_file(&d->skip, path))
            continue;
        snprintf(path_out, n, "%s", path);
        return;
    }
}

static int partial_loader(void *data, const char *name, char **text, size_t *len, gw_error *err)
{
    const tmpl_dirs *d = data;
    char path[4900];
    *text = NULL;
    if (!*name || strchr(name, '/') || strstr(name, "..") || strlen(name) > 200)
        return gw_error_set(err, GW_EDATA, "partial name '%.200s' must be a plain file name", name);
    dirs_find(d, name, d->suffix, path, sizeof path);
    if (!path[0] && strcmp(d->suffix, ".mustache") != 0)
        dirs_find(d, name, ".mustache", path, sizeof path);
    if (!path[0])
        return GW_OK;
    return gw_read_input(path, GW_INPUT_TEMPLATE, text, len, err);
}

/* A template's partials share its suffix: "my.md.mustache" -> ".md.mustache". */
static const char *suffix_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strchr(slash ? slash + 1 : path, '.');
    return dot ? dot : ".mustache";
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Renders the template file at path with data, appending to out.  prepared: data went through
 * prepare_model, so its templates may ask for has_X flags (mustache_opts.list_flags). */
static int render_file_with(const char *path, const tmpl_dirs *dirs, int strict, int prepared,
                            const view *data, gw_buf *out, gw_error *err)
{
    char *text;
    size_t len;
    int rc = gw_read_input(path, GW_INPUT_TEMPLATE, &text, &len, err);
    if (rc)
        return rc;
    mustache_opts opts = {mustache_escape_for(path), strict, partial_loader, (void *)dirs, 0,
                          prepared};
    rc = mustache_render(base_name(path), text, len, data, &opts, out, err);
    free(text);
    return rc;
}

/* ---------------------------------------------------------------- model preparation */

/* A citation link is written raw as a CommonMark autolink <URL>, so only plain http(s)
 * addresses without spaces, quotes or angle brackets qualify. */
static int url_is_plain_http(const char *url)
{
    if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0)
        return 0;
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= 0x20 || *p == 0x7f || strchr("<>\"'`\\", *p))
            return 0;
    return 1;
}

/* File names in Markdown image addresses: anything but a safe few bytes is percent-encoded. */
static void url_encode_path(gw_buf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (isalnum(*p) || strchr("-._~/", *p))
            buf_putc(out, (char)*p);
        else
            buf_printf(out, "%%%02X", *p);
    }
}

/* The output's folder and name without extension: "out/report.md" -> "out", "report". */
static void output_stem(const char *output, char *dir, size_t dn, char *stem, size_t sn)
{
    if (!output || !strcmp(output, "-")) {
        snprintf(dir, dn, ".");
        snprintf(stem, sn, "gpuwise");
        return;
    }
    const char *slash = strrchr(output, '/');
    if (slash)
        snprintf(dir, dn, "%.*s", (int)(slash - output), output);
    else
        snprintf(dir, dn, ".");
    if (slash && slash == output)
        snprintf(dir, dn, "/");
    const char *base = slash ? slash + 1 : output;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(stem, sn, "%.*s", (int)n, base);
}

static int valid_chart_id(const char *id)
{
    if (!id || !*id || strlen(id) > 60)
        return 0;
    for (const char *p = id; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return 0;
    return 1;
}

/* A comparison (`kb compare --json`) keeps each row as parallel lists, one entry per GPU
 * ("texts", "marks", "values"); Mustache cannot walk two lists at once, so each row also gets
 * "cells": [{text, is_best, cite}], citing the GPU's own source. */
static void comparison_cells(view *model)
{
    const view *gpus = view_map_get(model, "gpus");
    view *rows = view_map_get(model, "rows");
    for (size_t i = 0; i < view_len(rows); i++) {
        view *r = view_list_at(rows, i);
        const view *texts = view_map_get(r, "texts"), *marks = view_map_get(r, "marks");
        if (view_kind(r) != VIEW_MAP || view_kind(texts) != VIEW_LIST || view_map_get(r, "cells"))
            continue;
        view *cells = view_list();
        for (size_t j = 0; j < view_len(texts); j++) {
            view *c = view_list_push(cells, view_map());
            const char *t = view_str(view_list_at(texts, j));
            view_map_set_str(c, "text", t ? t : "n/a");
            view_map_set_bool(c, "is_best", view_bool_value(view_list_at(marks, j)));
            double n = view_num(view_map_get(view_list_at(gpus, j), "source_n"));
            view_map_set(c, "cite", t && n == n ? view_number(n) : view_null());
        }
        view_map_set(r, "cells", cells);
    }
}

static int has_chart(const view *charts, const char *id)
{
    for (size_t i = 0; i < view_len(charts); i++) {
        const char *other = view_str(view_map_get(view_list_at(charts, i), "id"));
        if (other && strcmp(other, id) == 0)
            return 1;
    }
    return 0;
}

/* The comparison rows that read best as pictures, by field, and the id of each one's chart:
 * memory bandwidth, and dense BF16 tensor throughput (dense only, never mixed with sparse
 * figures).  A chart's title and unit are its row's own label and unit, which the command took
 * from the KB's one description of the GPU columns: the renderer writes no field's label. */
static const struct {
    const char *field, *id;
} comparison_charted[] = {
    {"memory_bandwidth_gbs", "memory-bandwidth"},
    {"bf16_tflops", "bf16-dense"},
};

/* The bar chart `id` of comparison row r, which has a value per GPU: one bar each (caller owns
 * the chart), or NULL where fewer than two of the values are known. */
static view *comparison_chart(const char *id, const view *r, const view *gpus)
{
    const view *values = view_map_get(r, "values");
    size_t known = 0;
    for (size_t j = 0; j < view_len(values); j++)
        known += view_num(view_list_at(values, j)) == view_num(view_list_at(values, j));
    if (known < 2)
        return NULL;
    const char *label = view_str(view_map_get(r, "label"));
    if (!label)
        label = view_str(view_map_get(r, "field"));
    gw_buf desc = GW_BUF_INIT;
    buf_printf(&desc, "%s of each GPU, higher is better.", label);
    view *c = chart_bar_new(id, label, view_str(view_map_get(r, "unit")), buf_cstr(&desc));
    buf_free(&desc);
    view_map_set_str(c, "y_label", label);
    for (size_t j = 0; j < view_len(gpus); j++)
        chart_bar_add(c, view_str(view_map_get(view_list_at(gpus, j), "name")),
                      view_num(view_list_at(values, j)), NULL,
                      view_bool_value(view_list_at(view_map_get(r, "marks"), j)));
    return c;
}

/* A comparison gets the charts of comparison_charted, unless it already has charts of those
 * ids. */
static void comparison_charts(view *model)
{
    const view *gpus = view_map_get(model, "gpus");
    const view *rows = view_map_get(model, "rows");
    view *charts = view_map_get(model, "charts");
    if (view_len(gpus) < 2 || (charts && view_kind(charts) != VIEW_LIST))
        return;
    if (!charts)
        charts = view_map_set(model, "charts", view_list());
    for (size_t w = 0; w < sizeof comparison_charted / sizeof comparison_charted[0]; w++) {
        if (has_chart(charts, comparison_charted[w].id))
            continue;
        for (size_t i = 0; i < view_len(rows); i++) {
            const view *r = view_list_at(rows, i);
            const char *field = view_str(view_map_get(r, "field"));
            if (!field || strcmp(field, comparison_charted[w].field) != 0 ||
                view_len(view_map_get(r, "values")) != view_len(gpus))
                continue;
            view *c = comparison_chart(comparison_charted[w].id, r, gpus);
            if (c)
                view_list_push(charts, c);
            break;
        }
    }
}

/* "*Chart: TITLE: not drawn: WHY*", Markdown, for a chart whose data cannot be drawn. */
static void chart_note(gw_buf *out, const view *chart)
{
    const char *title = view_str(view_map_get(chart, "title"));
    const char *id = view_str(view_map_get(chart, "id"));
    const char *why = view_str(view_map_get(chart, "not_drawn"));
    buf_puts(out, "*Chart: ");
    mustache_escape_markdown(out, title ? title : id, strlen(title ? title : id));
    buf_puts(out, ": not drawn: ");
    mustache_escape_markdown(out, why ? why : "", strlen(why ? why : ""));
    buf_puts(out, "*");
}

/* Chart c's src (a placeholder address for HTML, the SVG file beside a named Markdown output,
 * nothing for Markdown on standard output) and image (the Markdown that shows it).  A chart
 * chart_check refuses gets "not_drawn" (why) and a note as its image, and is drawn nowhere. */
static void chart_src_and_image(const render_opts *opts, const char *stem, view *c,
                                const char *id, int html)
{
    gw_buf src = GW_BUF_INIT, image = GW_BUF_INIT;
    if (html) {
        buf_printf(&src, RENDER_CHART_SCHEME "%s", id);
    } else if (!opts->output || strcmp(opts->output, "-") == 0) {
        buf_puts(&src, "");   /* no file to point at: see render_markdown_document */
    } else {
        char file[1200];
        snprintf(file, sizeof file, "%s-%s.svg", stem, id);
        url_encode_path(&src, file);
    }
    const char *title = view_str(view_map_get(c, "title"));
    gw_error why = {0};
    if (chart_check(c, &why) != GW_OK) {
        /* unusable data: the document says so where the chart would be */
        view_map_set_str(c, "not_drawn", why.msg);
        buf_reset(&src);
        chart_note(&image, c);
    } else if (!html && !src.len) {
        buf_puts(&image, "*Chart: ");
        mustache_escape_markdown(&image, title ? title : id, strlen(title ? title : id));
        buf_puts(&image, " (written as an SVG file beside the document with -o FILE)*");
    } else {
        buf_puts(&image, "![");
        mustache_escape_markdown(&image, title ? title : id, strlen(title ? title : id));
        buf_printf(&image, "](%s)", buf_cstr(&src));
    }
    view_map_set_str(c, "src", buf_cstr(&src));
    view_map_set_str(c, "image", buf_cstr(&image));
    buf_free(&src);
    buf_free(&image);
}

/* Gives each chart an id ("chart-N" where it has none), its src and image, and the model the
 * charts_by_id map.  GW_EDATA for a chart that is not a map, or an id unfit for a file name. */
static int prepare_charts(const render_opts *opts, view *model, int html, gw_error *err)
{
    char dir[4096], stem[1024];
    output_stem(opts->output, dir, sizeof dir, stem, sizeof stem);
    view *charts = view_map_get(model, "charts");
    view *by_id = view_map();
    for (size_t i = 0; i < view_len(charts); i++) {
        view *c = view_list_at(charts, i);
        if (view_kind(c) != VIEW_MAP) {
            view_free(by_id);
            return gw_error_set(err, GW_EDATA, "chart %zu is not a map", i + 1);
        }
        const char *id = view_str(view_map_get(c, "id"));
        if (!id) {
            view_map_set(c, "id", view_stringf("chart-%zu", i + 1));
            id = view_str(view_map_get(c, "id"));
        }
        if (!valid_chart_id(id)) {
            view_free(by_id);
            return gw_error_set(err, GW_EDATA,
                                "chart id '%.60s': use letters, digits, '-' and '_' only", id);
        }
        chart_src_and_image(opts, stem, c, id, html);
        view_map_set(by_id, id, view_copy(c));
    }
    view_map_set(model, "charts_by_id", by_id);
    return GW_OK;
}

/* Each citation with a plain web address gets "link": that address as an autolink. */
static void citation_links(view *model)
{
    view *cites = view_map_get(model, "citations");
    for (size_t i = 0; i < view_len(cites); i++) {
        view *c = view_list_at(cites, i);
        const char *url = view_str(view_map_get(c, "url"));
        if (view_kind(c) == VIEW_MAP && url && url_is_plain_http(url))
            view_map_set(c, "link", view_stringf("<%s>", url));
    }
}

/* "generated": today's date (UTC), unless the model has a date of its own. */
static void generated_date(view *model)
{
    if (view_str(view_map_get(model, "generated")))
        return;
    char date[11];
    gw_today_date(date);   /* SOURCE_DATE_EPOCH pins it for tests */
    view_map_set_str(model, "generated", date);
}

/* A decision's robustness (`decide --json`) gives shares and counts as numbers; a document
 * writes them as people do: each close option's p_best as "31%" (p_best_text) and the number
 * of draws as "2,000" (draws_text), where the model does not give them itself. */
static void robustness_texts(view *model)
{
    view *r = view_map_get(model, "robustness");
    if (view_kind(r) != VIEW_MAP)
        return;
    double draws = view_num(view_map_get(r, "draws"));
    if (!view_map_get(r, "draws_text") && draws == draws) {
        gw_buf b = GW_BUF_INIT;
        view_format_number(&b, draws, 0);
        view_map_set_str(r, "draws_text", buf_cstr(&b));
        buf_free(&b);
    }
    const view *close = view_map_get(r, "close");
    for (size_t i = 0; i < view_len(close); i++) {
        view *c = view_list_at(close, i);
        double p = view_num(view_map_get(c, "p_best"));
        if (view_kind(c) == VIEW_MAP && !view_map_get(c, "p_best_text") && p == p)
            view_map_set(c, "p_best_text", view_stringf("%.0f%%", 100 * p));
    }
}

/* Adds what templates need beyond the command's data: a comparison's cells and charts, a
 * decision's robustness texts, each chart's id, src and image, the charts_by_id map, safe
 * citation links, for_html and the date (the has_X flags are the renderer's:
 * mustache_opts.list_flags).  html: chart images are placeholders. */
static int prepare_model(const render_opts *opts, view *model, int html, gw_error *err)
{
    if (view_kind(view_map_get(model, "rows")) == VIEW_LIST &&
        view_kind(view_map_get(model, "gpus")) == VIEW_LIST) {
        comparison_cells(model);
        comparison_charts(model);
    }
    robustness_texts(model);
    int rc = prepare_charts(opts, model, html, err);
    if (rc != GW_OK)
        return rc;
    citation_links(model);
    view_map_set_bool(model, "for_html", html);
    generated_date(model);
    return GW_OK;
}

/* Draws each chart as the file NAME-ID.svg beside the Markdown output, into doc->charts.  All
 * are drawn before the command writes any, so a bad chart leaves no files behind. */
static int draw_chart_files(const render_opts *opts, const view *model, render_doc *doc,
                            gw_error *err)
{
    char dir[4096], stem[1024];
    output_stem(opts->output, dir, sizeof dir, stem, sizeof stem);
    const view *charts = view_map_get(model, "charts");
    size_t n = view_len(charts);
    doc->charts = gw_xcalloc(n + 1, sizeof *doc->charts);
    doc->n_charts = 0;
    for (size_t i = 0; i < n; i++) {
        const view *c = view_list_at(charts, i);
        if (view_map_get(c, "not_drawn"))
            continue;   /* the document holds its note instead */
        render_chart_file *f = &doc->charts[doc->n_charts++];
        int rc = chart_svg_file(c, &f->svg, err);
        if (rc != GW_OK)
            return rc;
        char file[1200], path[5400];
        snprintf(file, sizeof file, "%s-%s.svg", stem, view_str(view_map_get(c, "id")));
        if (path_join(path, sizeof path, dir, file) != 0)
            return gw_error_set(err, GW_ECANTCREAT, "%s/%s: path too long", dir, file);
        f->path = gw_xstrdup(path);
    }
    return GW_OK;
}

void render_doc_free(render_doc *doc)
{
    if (!doc)
        return;
    buf_free(&doc->text);
    for (size_t i = 0; i < doc->n_charts; i++) {
        free(doc->charts[i].path);
        buf_free(&doc->charts[i].svg);
    }
    free(doc->charts);
    doc->charts = NULL;
    doc->n_charts = 0;
}

/* ---------------------------------------------------------------- documents */

/* The page template: the user's folder first, then the shipped one.  body, has_toc and toc
 * (which it takes) are added to the model itself: the Markdown is already rendered, and copying
 * the whole model for three keys costs more than the rest of the page. */
static int render_page(const render_opts *opts, view *model, const char *body, view *toc,
                       gw_buf *out, gw_error *err)
{
    tmpl_dirs dirs = {0};
    dirs.suffix = ".html.mustache";
    dirs_add(&dirs, opts->user_config_dir, "templates");
    dirs_add(&dirs, opts->data_dir, "templates");
    char path[4900];
    dirs_find(&dirs, "page", ".html.mustache", path, sizeof path);
    if (!path[0]) {
        view_free(toc);
        return gw_error_set(err, GW_ECONFIG, "no page.html.mustache in %s/templates",
                            opts->data_dir);
    }
    view_map_set_str(model, "body", body);
    view_map_set_bool(model, "has_toc", view_len(toc) >= 2);
    view_map_set(model, "toc", toc);
    return render_file_with(path, &dirs, 1, 1, model, out, err);
}

/* The Markdown document from the template at path, then the document in opts->format. */
static int render_markdown_document(const render_opts *opts, const char *path, tmpl_dirs *dirs,
                                    view *model, render_doc *doc, gw_error *err)
{
    int html = opts->format && strcmp(opts->format, "html") == 0;
    int rc = prepare_model(opts, model, html, err);
    if (rc != GW_OK)
        return rc;
    gw_buf md = GW_BUF_INIT;
    rc = render_file_with(path, dirs, 1, 1, model, &md, err);
    if (rc == GW_OK && !html) {
        /* Markdown on standard output leaves no files behind in the current folder: its
         * charts become files only beside a named output (-o FILE). */
        if (opts->output && strcmp(opts->output, "-") != 0)
            rc = draw_chart_files(opts, model, doc, err);
        if (rc == GW_OK) {
            doc->text = md;
            md = (gw_buf)GW_BUF_INIT;
        }
    } else if (rc == GW_OK) {
        gw_buf body = GW_BUF_INIT;
        view *toc = view_list();
        rc = render_markdown_html(buf_cstr(&md), md.len, model, &body, toc, err);
        if (rc == GW_OK)
            rc = render_page(opts, model, buf_cstr(&body), toc, &doc->text, err);
        else
            view_free(toc);
        buf_free(&body);
    }
    buf_free(&md);
    return rc;
}

int render_document(const render_opts *opts, const char *name, view *model, render_doc *doc,
                    gw_error *err)
{
    tmpl_dirs dirs = {0};
    char path[4900], file[300];
    *doc = (render_doc){GW_BUF_INIT, NULL, 0};
    dirs.suffix = ".md.mustache";
    snprintf(file, sizeof file, "%s.md.mustache", name);
    if (opts->template_path) {
        struct stat st;
        if (stat(opts->template_path, &st) != 0)
            return gw_error_set(err, GW_ENOINPUT, "--template %s: %s", opts->template_path,
                                strerror(errno));
        snprintf(path, sizeof path, "%s", opts->template_path);
        char dir[4096];
        const char *slash = strrchr(path, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
        dirs_add(&dirs, dir, NULL);
        dirs.skip = st;
        dirs.has_skip = 1;
        dirs_add(&dirs, opts->user_config_dir, "templates");
        dirs_add(&dirs, opts->data_dir, "templates");
    } else {
        dirs_add(&dirs, opts->user_config_dir, "templates");
        dirs_add(&dirs, opts->data_dir, "templates");
        dirs_find(&dirs, name, ".md.mustache", path, sizeof path);
        if (!path[0])
            return gw_error_set(err, GW_ECONFIG, "no template %s in %s/templates or %s/templates",
                                file, opts->user_config_dir, opts->data_dir);
        if (stat(path, &dirs.skip) == 0)
            dirs.has_skip = 1;
    }
    return render_markdown_document(opts, path, &dirs, model, doc, err);
}

int render_file(const render_opts *opts, const char *path, const char *partials_dir, view *model,
                render_doc *doc, gw_error *err)
{
    struct stat st;
    *doc = (render_doc){GW_BUF_INIT, NULL, 0};
    if (stat(path, &st) != 0)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", path, strerror(errno));
    tmpl_dirs dirs = {0};
    dirs.suffix = suffix_of(path);
    dirs.skip = st;
    dirs.has_skip = 1;
    if (partials_dir)
        dirs_add(&dirs, partials_dir, NULL);
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    dirs_add(&dirs, dir, NULL);
    int is_md = mustache_escape_for(path) == MUSTACHE_ESCAPE_MARKDOWN;
    if (is_md && opts->format && strcmp(opts->format, "text") != 0)
        return render_markdown_document(opts, path, &dirs, model, doc, err);
    return render_file_with(path, &dirs, 1, 0, model, &doc->text, err);
}
