/* render_markdown.h — Markdown out through cmark-gfm (render_markdown.c): a document's body as
 * HTML for render.c's page, and the manual and help as terminal text and as roff.  render.h
 * includes it for the commands. */
#ifndef GW_RENDER_MARKDOWN_H
#define GW_RENDER_MARKDOWN_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"

/* The address of a chart's placeholder image in Markdown made for HTML ("gpuwise-chart:ID"):
 * render_markdown_html draws the chart in its place. */
#define RENDER_CHART_SCHEME "gpuwise-chart:"

/* Markdown (len bytes) -> the HTML body (safe mode), appended to body: ids on headings, unsafe
 * addresses blanked, each chart placeholder replaced by the SVG of model's charts_by_id entry;
 * toc gets {level, id, text, sub} for the headings of levels 2 and 3.  The document's first h1
 * is left out when model has a title (the page prints it).  GW_ESOFTWARE when cmark fails, or
 * a chart's drawing error. */
int render_markdown_html(const char *md, size_t len, const view *model, gw_buf *body, view *toc,
                         gw_error *err);

/* Markdown as plain text for a terminal (wrapped at width; 0: not wrapped), and as roff for
 * man(1) (the manual page; the caller writes the .TH line).  Both append to out. */
void render_markdown_text(const char *md, int width, gw_buf *out);
void render_markdown_man(const char *md, gw_buf *out);

#endif
