/* render.h — documents: a Mustache template and a view model in, Markdown or a standalone HTML
 * page (cmark-gfm, inline SVG charts, footnoted citations) out, as bytes and chart files that
 * the command writes (cli_document.c).  Only render_markdown.c knows cmark-gfm. */
#ifndef GW_RENDER_H
#define GW_RENDER_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"
#include "render_markdown.h"   /* Markdown as terminal text and as roff, for the help */

/* What a document is rendered as, and where its templates are found. */
typedef struct render_opts {
    const char *format;           /* "md" or "html"; "text" is the caller's job (render_file:
                                     the template's own text) */
    const char *output;           /* the file the document will be written to; NULL or "-":
                                     standard output.  Chart files are named after it. */
    const char *template_path;    /* --template FILE, or NULL */
    const char *user_config_dir;  /* the user's templates are in its templates/ */
    const char *data_dir;         /* the shipped templates are in its templates/ */
} render_opts;

/* A chart drawn as a file of its own (Markdown with a named output). */
typedef struct render_chart_file {
    char *path;     /* beside the output, named after it: "out/j.md" -> "out/j-ID.svg" */
    gw_buf svg;     /* the whole file */
} render_chart_file;

/* A rendered document: the caller writes the charts and the text, and frees it. */
typedef struct render_doc {
    gw_buf text;                 /* the document itself */
    render_chart_file *charts;   /* only for Markdown with a named output; NULL otherwise */
    size_t n_charts;
} render_doc;

void render_doc_free(render_doc *doc);

/* Renders the shipped document `name` ("datasheet", "comparison", "justification",
 * "inspection", "checklist") with model in opts->format, honouring opts->template_path and the
 * user's templates folder, into *doc (zeroed first; free it with render_doc_free, also after
 * an error).  The model may hold a "charts" list and "citations"; see templates/README.md.
 * The renderer adds derived fields to model in place (has_X flags, chart images, citation
 * links; README "Added by the renderer"); the caller still owns and frees it.  Every chart is
 * drawn before this returns, so a bad chart fails here, before anything is written.  Errors:
 * GW_ECONFIG (no such template), GW_ENOINPUT (--template FILE missing), GW_EDATA (a template
 * or chart error, naming file:line:column), GW_ECANTCREAT (a chart file name too long). */
int render_document(const render_opts *opts, const char *name, view *model, render_doc *doc,
                    gw_error *err);

/* `gpuwise render`: renders the template file at path (escaping chosen by its name) with model
 * into *doc as render_document does; partials come from partials_dir (may be NULL), then the
 * template's own folder.  A Markdown template with opts->format "md" or "html" takes the
 * document path above (charts, HTML page); otherwise the text is the template's own output. */
int render_file(const render_opts *opts, const char *path, const char *partials_dir, view *model,
                render_doc *doc, gw_error *err);

#endif
