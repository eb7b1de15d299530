/* mustache.h — the template engine: Mustache (interpolation, sections, inverted sections,
 * comments, partials, set delimiters, and the inheritance module) over the view tree of view.h.
 * No lambdas: a view holds no code.  Escaping is chosen by the caller for the output format. */
#ifndef GW_MUSTACHE_H
#define GW_MUSTACHE_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"

typedef enum {
    MUSTACHE_ESCAPE_HTML,       /* & < > " '  -> entities (*.html.mustache) */
    MUSTACHE_ESCAPE_MARKDOWN,   /* a value stays inline text in Markdown (*.md.mustache) */
    MUSTACHE_ESCAPE_NONE        /* values written as they are */
} mustache_escape;

/* Finds the partial (or parent) `name`.  Returns GW_OK with *text set (caller frees, *len its
 * length) when found, GW_OK with *text = NULL when there is no such partial, or an error code
 * with err set when it exists but cannot be read. */
typedef int (*mustache_loader)(void *data, const char *name, char **text, size_t *len,
                               gw_error *err);

typedef struct mustache_opts {
    mustache_escape escape;
    int strict_partials;        /* 1: a missing partial is an error (gpuwise's templates);
                                 * 0: it renders empty (what the Mustache spec asks) */
    mustache_loader load_partial;   /* NULL: there are no partials */
    void *loader_data;
    size_t max_output;          /* the most bytes a render may hold at once: its output and a
                                 * standalone block's content while it is re-indented; 0:
                                 * MUSTACHE_MAX_OUTPUT */
    int list_flags;             /* 1: a name "has_X" that a map lacks is true there when the
                                 * map's "X" is a non-empty list (Mustache cannot ask whether a
                                 * list is empty); 0: names are only what the data holds */
} mustache_opts;

/* The output cap when mustache_opts.max_output is 0: 256 MiB. */
#define MUSTACHE_MAX_OUTPUT ((size_t)256 << 20)

/* Renders template text (len bytes; `name` is used in error messages, "datasheet.md.mustache:
 * 12:5: unclosed section 'gpus'") with data, appending to out.  Returns GW_OK, or GW_EDATA for
 * a malformed template, a missing partial in strict mode, a render that would hold more than
 * the output cap (within one value's escaped length) or take too many steps, or the loader's
 * error.  On error out may hold part of the output. */
int mustache_render(const char *name, const char *text, size_t len, const view *data,
                    const mustache_opts *opts, gw_buf *out, gw_error *err);

/* The escapers, also used by the renderer for text it writes itself. */
void mustache_escape_html(gw_buf *out, const char *s, size_t n);
void mustache_escape_markdown(gw_buf *out, const char *s, size_t n);

/* Picks the escaping a template file asks for by its name: "*.html.mustache" (or "*.html")
 * HTML, "*.md.mustache" (or "*.md") Markdown, anything else none. */
mustache_escape mustache_escape_for(const char *filename);

#endif
