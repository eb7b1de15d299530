/* chart.h — charts as SVG, drawn from a view (the "charts" entries of a document model; shape in
 * templates/README.md): horizontal bar charts with the value written on each bar, and line
 * charts with one dash style and point shape per series and a marked point (break-even).  They
 * read without colour, carry <title>/<desc>, and the same view always gives the same bytes. */
#ifndef GW_CHART_H
#define GW_CHART_H

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"

/* Whether the chart can be drawn: GW_OK, or GW_EDATA naming the chart and what is wrong
 * (unknown kind, no bars/series, a point that is not [x, y] numbers, a value beyond ±1e300).
 * Cheap (no drawing): the renderer asks it first and puts a note in the document for a chart
 * that cannot be drawn.  Any finite value within ±1e300 can be drawn, whatever the range (equal,
 * neighbouring or subnormal values, ranges of 1e300): the axes always have a few ticks. */
int chart_check(const view *chart, gw_error *err);

/* Appends the chart as one <svg> element (no XML declaration, so it can stand inline in HTML
 * or, with chart_svg_file, alone in a file).  Returns GW_OK, or chart_check's error. */
int chart_svg(const view *chart, gw_buf *out, gw_error *err);

/* The same as a standalone .svg file (XML declaration first). */
int chart_svg_file(const view *chart, gw_buf *out, gw_error *err);

/* Helpers for commands that build a bar chart row by row.  chart_bar_new returns a new chart
 * map the caller owns (put it in the model's "charts" list); chart_bar_add appends one bar
 * (value NaN: drawn as "n/a"; value_text NULL: the number and unit are printed). */
view *chart_bar_new(const char *id, const char *title, const char *unit, const char *desc);
void chart_bar_add(view *chart, const char *label, double value, const char *value_text,
                   int highlight);

#endif
