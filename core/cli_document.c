/* cli_document.c — the command side of documents: render options from the command line, and
 * the writing of what render.c returns (chart files, then the document), so that rendering
 * itself never touches a file it does not read. */
#include "cli_document.h"

#include <errno.h>
#include <string.h>

static render_opts render_opts_of(const gw_ctx *ctx)
{
    render_opts o = {ctx->format, ctx->output, ctx->template_path, ctx->user_config_dir,
                     ctx->data_dir};
    return o;
}

int cli_write_document(gw_ctx *ctx, const render_doc *doc, gw_error *err)
{
    for (size_t i = 0; i < doc->n_charts; i++) {
        const render_chart_file *f = &doc->charts[i];
        int e = gw_write_file_atomic(f->path, f->svg.data, f->svg.len);
        if (e)
            return gw_error_set(err, e == ENOSPC || e == EIO ? GW_EIO : GW_ECANTCREAT, "%s: %s",
                                f->path, strerror(e));
    }
    return cli_write_output(ctx, buf_cstr(&doc->text), doc->text.len, err);
}

int cli_render_document(gw_ctx *ctx, const char *name, view *model, gw_error *err)
{
    render_opts opts = render_opts_of(ctx);
    render_doc doc;
    int rc = render_document(&opts, name, model, &doc, err);
    if (rc == GW_OK)
        rc = cli_write_document(ctx, &doc, err);
    render_doc_free(&doc);
    return rc;
}

int cli_render_file(gw_ctx *ctx, const char *path, const char *partials_dir, view *model,
                    gw_error *err)
{
    render_opts opts = render_opts_of(ctx);
    render_doc doc;
    int rc = render_file(&opts, path, partials_dir, model, &doc, err);
    if (rc == GW_OK)
        rc = cli_write_document(ctx, &doc, err);
    render_doc_free(&doc);
    return rc;
}
