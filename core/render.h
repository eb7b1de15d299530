/* render.h — documents: a Mustache template and a view model in, Markdown or a standalone HTML
 * page (cmark-gfm, inline SVG charts, footnoted citations) out.  Only render.c knows cmark-gfm. */
#ifndef GW_RENDER_H
#define GW_RENDER_H

#include "cli.h"
#include "view.h"

/* Renders the shipped document `name` ("datasheet", "comparison", "justification",
 * "inspection", "checklist") with model, in ctx->format ("md" or "html"; "text" is the caller's
 * job), honouring --template and $XDG_CONFIG_HOME/gpuwise/templates, and writes it through
 * cli_write_output (Markdown charts go to .svg files beside the output).  The model may hold a
 * "charts" list and "citations"; see templates/README.md.  The renderer adds derived fields to
 * model in place (has_X flags, chart images, citation links; README "Added by the renderer");
 * the caller still owns and frees it.  Errors: GW_ECONFIG (no such template), GW_ENOINPUT
 * (--template FILE missing), GW_EDATA (a template error, naming file:line:column),
 * GW_ECANTCREAT/GW_EIO (writing). */
int render_document(gw_ctx *ctx, const char *name, view *model, gw_error *err);

/* `gpuwise render`: renders the template file at path (escaping chosen by its name) with model;
 * partials come from partials_dir (may be NULL), then the template's own folder.  A Markdown
 * template with ctx->format "md" or "html" takes the document path above (charts, HTML page);
 * otherwise the output is the template's own text.  Written through cli_write_output. */
int render_file(gw_ctx *ctx, const char *path, const char *partials_dir, view *model,
                gw_error *err);

/* Markdown as plain text for a terminal (wrapped at width; 0: not wrapped), and as roff for
 * man(1) (the manual page; the caller writes the .TH line).  Both append to out. */
void render_markdown_text(const char *md, int width, gw_buf *out);
void render_markdown_man(const char *md, gw_buf *out);

#endif
