/* cli_document.c — the command side of output: render options from the command line, where -o
 * writes (a file, or a default name in the folder `-o DIR/` names), and the writing of what a
 * command made — a document's chart files, then the document, or any other output — so that
 * rendering itself never touches a file it does not read.  The rules for the file itself
 * (atomic, its mode kept, links followed, devices and FIFOs refused) are buf.c's. */
#include "cli_document.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/term.h"

static render_opts render_opts_of(const gw_ctx *ctx)
{
    render_opts o = {ctx->format, ctx->output, ctx->template_path, ctx->user_config_dir,
                     ctx->data_dir};
    return o;
}

/* "stem.EXT" for the output format (text is .txt); caller frees. */
static char *default_name(const char *stem, const char *format)
{
    gw_buf b = GW_BUF_INIT;
    const char *ext = !format || strcmp(format, "text") == 0 ? "txt" : format;
    buf_printf(&b, "%s.%s", stem, ext);
    return buf_detach(&b);
}

/* *out: ctx with -o resolved (DIR/ becomes DIR/stem.EXT); returns the path to free, or NULL
 * when -o names no folder (out is then ctx as it is). */
static char *resolve_output(const gw_ctx *ctx, const char *stem, gw_ctx *out)
{
    *out = *ctx;
    if (!ctx->output || !gw_output_is_folder(ctx->output))
        return NULL;
    char *name = default_name(stem, ctx->format);
    char *path = gw_output_path(ctx->output, name);
    free(name);
    out->output = path;
    return path;
}

/* -o DIR/ is a folder: say which file went into it. */
static void say_written(const gw_ctx *ctx, const char *path)
{
    fprintf(ctx->diag, "gpuwise: -o %s: wrote %s\n", ctx->output, path);
}

unsigned cli_output_shown(const gw_ctx *ctx)
{
    /* what people read on standard output is shown, never obeyed (term.h); JSON, CSV and an
     * export are data, whose writers escape for their readers */
    if ((ctx->output && strcmp(ctx->output, "-") != 0) || ctx->json || ctx->data_output ||
        (cli_format_bit(ctx->format) & CLI_FMT_CSV))
        return 0;
    return GW_TERM_LINES | (ctx->color ? GW_TERM_COLOUR : 0);
}

int cli_write_output(gw_ctx *ctx, const char *data, size_t len, gw_error *err)
{
    if (!ctx->output || strcmp(ctx->output, "-") == 0) {
        gw_buf shown = GW_BUF_INIT;
        unsigned flags = cli_output_shown(ctx);
        if (flags) {
            gw_term_text(&shown, data, len, flags);
            data = buf_cstr(&shown), len = shown.len;
        }
        int bad = fwrite(data, 1, len, ctx->out) != len || fflush(ctx->out) != 0;
        buf_free(&shown);
        if (bad)
            return gw_error_set(err, GW_EIO, "writing the output: %s", strerror(errno));
        return GW_OK;
    }
    gw_ctx at;
    char *folder_path = resolve_output(ctx, "gpuwise", &at);
    int rc = gw_write_output(at.output, data, len, err);
    if (rc == GW_OK && folder_path)
        say_written(ctx, folder_path);
    free(folder_path);
    return rc;
}

int cli_write_output_with(gw_ctx *ctx, gw_write_fn fill, void *arg, gw_error *err)
{
    if (!ctx->output || strcmp(ctx->output, "-") == 0) {
        int e = fill(ctx->out, arg);
        if (!e && fflush(ctx->out) != 0)
            e = errno;
        return e ? gw_error_set(err, GW_EIO, "writing the output: %s", strerror(e)) : GW_OK;
    }
    gw_ctx at;
    char *folder_path = resolve_output(ctx, "gpuwise", &at);
    int rc = gw_write_output_with(at.output, fill, arg, err);
    if (rc == GW_OK && folder_path)
        say_written(ctx, folder_path);
    free(folder_path);
    return rc;
}

int cli_write_document(gw_ctx *ctx, const render_doc *doc, gw_error *err)
{
    for (size_t i = 0; i < doc->n_charts; i++) {
        const render_chart_file *f = &doc->charts[i];
        int rc = gw_write_output(f->path, f->svg.data, f->svg.len, err);
        if (rc != GW_OK)
            return rc;
    }
    return cli_write_output(ctx, buf_cstr(&doc->text), doc->text.len, err);
}

/* Renders with the output resolved (so chart files are named after the file really written),
 * then writes; `render` is render_document or render_file's work, given the options. */
static int render_and_write(gw_ctx *ctx, const char *stem,
                            int (*render)(const render_opts *, void *, render_doc *, gw_error *),
                            void *data, gw_error *err)
{
    gw_ctx at;
    char *folder_path = resolve_output(ctx, stem, &at);
    render_opts opts = render_opts_of(&at);
    render_doc doc;
    int rc = render(&opts, data, &doc, err);
    if (rc == GW_OK)
        rc = cli_write_document(&at, &doc, err);
    if (rc == GW_OK && folder_path)
        say_written(ctx, folder_path);
    render_doc_free(&doc);
    free(folder_path);
    return rc;
}

typedef struct named_doc {
    const char *name;
    view *model;
} named_doc;

static int render_named(const render_opts *opts, void *data, render_doc *doc, gw_error *err)
{
    named_doc *d = data;
    return render_document(opts, d->name, d->model, doc, err);
}

int cli_render_document(gw_ctx *ctx, const char *name, view *model, gw_error *err)
{
    named_doc d = {name, model};
    return render_and_write(ctx, name, render_named, &d, err);
}

typedef struct template_doc {
    const char *path, *partials_dir;
    view *model;
} template_doc;

static int render_template(const render_opts *opts, void *data, render_doc *doc, gw_error *err)
{
    template_doc *d = data;
    return render_file(opts, d->path, d->partials_dir, d->model, doc, err);
}

int cli_render_file(gw_ctx *ctx, const char *path, const char *partials_dir, view *model,
                    gw_error *err)
{
    /* in a folder, the template's name: "my.md.mustache" -> "my.html" with --format html */
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char stem[256];
    snprintf(stem, sizeof stem, "%.*s", (int)strcspn(base, "."), base);
    template_doc d = {path, partials_dir, model};
    return render_and_write(ctx, *stem ? stem : "gpuwise", render_template, &d, err);
}
