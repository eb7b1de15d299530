/* cli_document.h — documents as commands write them (report, inspect, checklist, kb show and
 * compare, render): render.c makes the bytes and chart files from the command line's format,
 * -o and --template; these functions write them, charts first, the document last.  Every output
 * (cli_write_output in cli.h is defined here too) follows one rule for -o: `-` or none is
 * standard output; `DIR/` (ending in '/') writes a default name into DIR and says so on the
 * diagnostic stream — a document's own name ("justification.html"), a template's ("my.md"), else
 * "gpuwise.EXT" — and anything else is the file, written by gw_write_output (buf.h). */
#ifndef GW_CLI_DOCUMENT_H
#define GW_CLI_DOCUMENT_H

#include "cli.h"
#include "render/render.h"
#include "base/view.h"

/* Renders the shipped document `name` with model as render_document does (ctx->format "md" or
 * "html", ctx->output — `DIR/` meaning DIR/name.EXT —, --template, the user's and the shipped
 * templates) and writes it with cli_write_document.  model: as render_document (the caller still frees it).  Errors: those
 * of render_document, then GW_ECANTCREAT/GW_EIO (writing). */
int cli_render_document(gw_ctx *ctx, const char *name, view *model, gw_error *err);

/* `gpuwise render`: render_file with ctx's format and -o, written with cli_write_document. */
int cli_render_file(gw_ctx *ctx, const char *path, const char *partials_dir, view *model,
                    gw_error *err);

/* Writes doc: each chart file at its path (beside the output) by gw_write_output, stopping at
 * the first that fails, then the document through cli_write_output (ctx->output, else
 * ctx->out).  GW_ECANTCREAT or GW_EIO naming the file. */
int cli_write_document(gw_ctx *ctx, const render_doc *doc, gw_error *err);

#endif
