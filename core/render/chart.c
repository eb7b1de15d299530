/* chart.c — SVG bar and line charts from a chart view.  Readable without colour: every bar has
 * its value written beside it, every series has its own dash pattern and point shape named in a
 * legend, axes carry units.  All text goes through the XML escaper; coordinates are printed with
 * a fixed precision so output is byte-for-byte deterministic. */
#define _GNU_SOURCE   /* strcasestr */
#include "chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mustache.h"

#define WIDTH 720.0
#define FONT "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""

static const char *const series_dash[] = {"", "9 5", "2 4", "12 4 3 4", "6 3"};
static const char *const series_color[] = {"#1f4e79", "#a33b20", "#2d6a2d", "#6b3d8f", "#555555"};
#define N_STYLES 5

typedef struct axis {
    double lo, hi, step;
    int decimals;
} axis;

static void text(gw_buf *out, const char *s)
{
    if (s)
        mustache_escape_html(out, s, strlen(s));
}

/* Bar labels longer than MAX_LABEL bytes are cut (on a UTF-8 boundary) and end in an
 * ellipsis; the full text stays in the document's table.  A label's closing mark, a space and
 * one non-ASCII character (the dagger of a held-back price), survives the cut: it is what the
 * chart's legend explains. */
#define MAX_LABEL 60
static void label_text(gw_buf *out, const char *s)
{
    size_t n = strlen(s), mark = 0;
    if (n <= MAX_LABEL) {
        text(out, s);
        return;
    }
    size_t at = n;   /* the start of the last character */
    while (at > 0 && ((unsigned char)s[at - 1] & 0xC0) == 0x80)
        at--;
    if (at >= 2 && (unsigned char)s[at - 1] >= 0xC0 && s[at - 2] == ' ')
        mark = n - (at - 2);   /* " \xe2\x80\xa0": the space and the character */
    n = MAX_LABEL - 3 - mark;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    mustache_escape_html(out, s, n);
    buf_puts(out, "\xe2\x80\xa6");
    if (mark)
        text(out, s + strlen(s) - mark);
}

static const char *str_of(const view *map, const char *key)
{
    const char *s = view_str(view_map_get(map, key));
    return s ? s : "";
}

/* Element ids must not carry markup: letters, digits, '-' and '_' only. */
static void chart_id(const view *chart, char *id, size_t n)
{
    const char *raw = str_of(chart, "id");
    size_t i = 0;
    for (; raw[i] && i + 1 < n; i++) {
        char c = raw[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_';
        id[i] = ok ? c : '-';
    }
    id[i] = '\0';
    if (i == 0)
        snprintf(id, n, "chart");
}

/* Values a chart can draw: beyond this the nice bounds of an axis (a tick past the data) stop
 * being finite doubles.  A chart with a value past it is not drawn; the document says why. */
#define CHART_MAX_ABS 1e300
/* At most this many intervals on an axis, whatever the arithmetic below gives. */
#define MAX_INTERVALS 10
/* Labels switch to scientific notation past these: fixed notation would print 16 or more
 * digits, or show a step finer than 6 decimals as 0. */
#define LABEL_FIXED_MAX 1e15
#define LABEL_FIXED_MIN 1e-6

/* 1 when [lo, hi] is a range an axis can be divided into: wider than the doubles near it can
 * tell apart (1e17 and 1e17 + 16 are neighbours there) and not vanishingly small (subnormal
 * values). */
static int span_usable(double lo, double hi)
{
    double span = hi - lo;
    return span > 1e-300 && span > fmax(fabs(lo), fabs(hi)) * 1e-9;
}

/* Ticks at 1, 2, 2.5 or 5 times a power of ten: of the steps that give 3 to 8 intervals
 * covering [lo, hi], the one that wastes the least room past the data.  A range too narrow to
 * divide (equal values, neighbouring doubles, subnormal values) is widened first, from lo to
 * 2 lo (0 to 1 at zero).  For any finite input within ±CHART_MAX_ABS the result has finite
 * lo < hi, a step > 0, and at most MAX_INTERVALS steps between them. */
static axis nice_axis(double lo, double hi)
{
    static const double mult[] = {1, 2, 2.5, 5, 10};
    axis best = {0, 0, 0, 0};
    if (!span_usable(lo, hi))
        hi = lo + (fabs(lo) < 1e-300 ? 1 : fabs(lo));
    double mag = pow(10, floor(log10((hi - lo) / 5.0)));
    double eps = (hi - lo) * 1e-9;   /* "the same length", at any scale */
    for (int k = -1; k <= 1; k++) {
        for (size_t m = 0; m < sizeof mult / sizeof mult[0]; m++) {
            double step = mult[m] * mag * pow(10, k);
            double a = floor(lo / step) * step, b = ceil(hi / step) * step;
            double intervals = (b - a) / step;
            if (!(step > 0) || !isfinite(a) || !isfinite(b) || intervals < 3 - 1e-9 ||
                intervals > 8 + 1e-9)
                continue;
            if (best.step == 0 || b - a < best.hi - best.lo - eps ||
                (fabs((b - a) - (best.hi - best.lo)) < eps && step > best.step)) {
                best.lo = a;
                best.hi = b;
                best.step = step;
            }
        }
    }
    if (!(best.step > 0) || !(best.hi > best.lo) || !span_usable(best.lo, best.hi)) {
        best.lo = lo;   /* plain quarters of the data's own range */
        best.hi = hi;
        best.step = (hi - lo) / 4;
    }
    best.decimals = 0;
    while (best.decimals < 6 &&
           fabs(best.step * pow(10, best.decimals) - round(best.step * pow(10, best.decimals))) > 1e-6)
        best.decimals++;
    if (best.step < LABEL_FIXED_MIN || fmax(fabs(best.lo), fabs(best.hi)) >= LABEL_FIXED_MAX)
        best.decimals = -1;   /* scientific labels */
    return best;
}

/* How many steps of ax lie between first and last (both tick values), never more than
 * MAX_INTERVALS: the loops that draw ticks count, they never add a step until a bound. */
static int tick_count(double first, double last, double step)
{
    double n = floor((last - first) / step + 1e-6);
    if (!(n >= 0))
        return -1;
    return n > MAX_INTERVALS ? MAX_INTERVALS : (int)n;
}

/* buf_printf for the conversions a chart uses (%s, %.Ns, %zu, %.Nf): coordinates are most
 * of an SVG, and printf's general floating-point path cost more than the drawing. */
static void svgf(gw_buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void svgf(gw_buf *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *run = fmt, *p = fmt;
    for (; *p; p++) {
        if (*p != '%')
            continue;
        buf_append(out, run, (size_t)(p - run));
        int precision = -1;
        if (*++p == '.')
            for (precision = 0, p++; *p >= '0' && *p <= '9'; p++)
                precision = precision * 10 + (*p - '0');
        if (*p == 'f') {
            view_format_fixed(out, va_arg(ap, double), precision);
        } else if (*p == 's') {
            const char *s = va_arg(ap, const char *);
            size_t n = s ? strlen(s) : 0;
            if (precision >= 0 && n > (size_t)precision)
                n = (size_t)precision;
            buf_append(out, s ? s : "", n);
        } else if (*p == 'z' && p[1] == 'u') {
            p++;
            buf_printf(out, "%zu", va_arg(ap, size_t));
        } else {
            buf_putc(out, '%');   /* "%%" */
        }
        run = p + 1;
    }
    buf_append(out, run, (size_t)(p - run));
    va_end(ap);
}

/* n with decimals places and thousands separators; decimals -1, or a number of 16 digits or
 * more, in scientific notation ("1.2e+17"). */
static void number(gw_buf *out, double n, int decimals)
{
    if (decimals < 0 || fabs(n) >= LABEL_FIXED_MAX)
        buf_printf(out, "%.6g", n);
    else
        view_format_number(out, fabs(n) < 1e-12 ? 0 : n, decimals);
}

static void svg_open(gw_buf *out, const view *chart, const char *id, double width, double height)
{
    svgf(out,
         "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%.0f\" "
         "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
         "aria-labelledby=\"%s-title %s-desc\">\n",
         width, height, width, height, id, id);
    svgf(out, "<title id=\"%s-title\">", id);
    text(out, str_of(chart, "title"));
    svgf(out, "</title>\n<desc id=\"%s-desc\">", id);
    text(out, view_str(view_map_get(chart, "desc")) ? str_of(chart, "desc") : str_of(chart, "title"));
    buf_puts(out, "</desc>\n");
    svgf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", width, height);
    svgf(out, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" " FONT
         " font-size=\"16\" font-weight=\"bold\" fill=\"#111111\">",
         width / 2);
    text(out, str_of(chart, "title"));
    buf_puts(out, "</text>\n");
}

/* "Memory bandwidth (GB/s)" */
static void axis_title(gw_buf *out, const char *label, const char *unit)
{
    text(out, label);
    if (unit && *unit && !strcasestr(label, unit)) {
        buf_puts(out, *label ? " (" : "(");
        text(out, unit);
        buf_puts(out, ")");
    }
}

/* ---- what both kinds draw ---- */

/* Below the title, where the plot begins. */
#define PLOT_TOP 44.0
#define STROKE_AXIS "stroke=\"#333333\""
static const char axis_group[] = "<g class=\"axis\" " FONT " font-size=\"11\" fill=\"#333333\">\n";

/* The plotting area and the axes that map values into it: x grows to the right from left, y up
 * from top + height.  A bar chart's values run along x; its rows need no y axis. */
typedef struct plot {
    double left, right, top, height;
    axis x, y;
} plot;

static double plot_x(const plot *p, double v)
{
    return p->left + (v - p->x.lo) / (p->x.hi - p->x.lo) * (p->right - p->left);
}

static double plot_y(const plot *p, double v)
{
    return p->top + p->height - (v - p->y.lo) / (p->y.hi - p->y.lo) * p->height;
}

/* stroke: the line's stroke attributes, e.g. STROKE_AXIS. */
static void svg_line(gw_buf *out, double x1, double y1, double x2, double y2, const char *stroke)
{
    svgf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n", x1, y1, x2, y2,
         stroke);
}

/* A tick's value, after prefix (such as "$"; NULL for none), anchored at (x, y). */
static void tick_label(gw_buf *out, double x, double y, const char *anchor, const char *prefix,
                       double value, int decimals)
{
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
    text(out, prefix);
    number(out, value, decimals);
    buf_puts(out, "</text>\n");
}

/* An axis's title, centred on (x, y). */
static void axis_caption(gw_buf *out, double x, double y, const char *label, const char *unit)
{
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">", x, y);
    axis_title(out, label, unit);
    buf_puts(out, "</text>\n");
}

/* ---- bar chart ---- */

#define BAR_HEIGHT 24.0
#define BAR_GAP 12.0

/* The value axis over the bars' values and zero; *longest: the longest label in bytes (at least
 * 4, at most MAX_LABEL), which sets the room left of the bars. */
static axis bar_extent(const view *bars, size_t *longest)
{
    double lo = 0, hi = 0;
    *longest = 4;
    for (size_t i = 0; i < view_len(bars); i++) {
        const view *b = view_list_at(bars, i);
        double v = view_num(view_map_get(b, "value"));
        if (isfinite(v)) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        size_t l = strlen(str_of(b, "label"));
        *longest = l > *longest ? l : *longest;
    }
    if (*longest > MAX_LABEL)
        *longest = MAX_LABEL;
    return nice_axis(lo, hi);
}

/* Grid lines across the rows at each tick of the value axis, the ticks' values below, and the
 * axis title under them. */
static void bar_grid(gw_buf *out, const view *chart, const plot *p, const char *unit)
{
    const axis *ax = &p->x;
    double bottom = p->top + p->height;
    buf_puts(out, axis_group);
    int n = tick_count(ax->lo, ax->hi + ax->step / 2, ax->step);
    for (int i = 0; i <= n; i++) {
        double t = ax->lo + i * ax->step;
        double x = plot_x(p, t);
        svg_line(out, x, p->top - 4, x, bottom, "stroke=\"#cccccc\" stroke-width=\"1\"");
        tick_label(out, x, bottom + 16, "middle", NULL, t, ax->decimals);
    }
    const char *label = str_of(chart, "y_label");
    axis_caption(out, (p->left + p->right) / 2, bottom + 40,
                 *label ? label : str_of(chart, "x_label"), unit);
    buf_puts(out, "</g>\n");
}

/* A bar's value as written beside it: its value_text, else the number and unit, else "n/a". */
static void bar_value_text(gw_buf *out, const view *b, double v, const char *unit)
{
    const char *vt = view_str(view_map_get(b, "value_text"));
    if (vt) {
        text(out, vt);
    } else if (!isfinite(v)) {
        buf_puts(out, "n/a");
    } else {
        number(out, v, v == floor(v) ? 0 : 1);
        if (*unit) {
            buf_putc(out, ' ');
            text(out, unit);
        }
    }
}

/* Row i: the label left of the plot, the bar from zero, the value right of the bar's end. */
static void bar_row(gw_buf *out, const view *b, size_t i, const plot *p, const char *id,
                    const char *unit)
{
    double v = view_num(view_map_get(b, "value"));
    double y = p->top + (double)i * (BAR_HEIGHT + BAR_GAP) + BAR_GAP / 2;
    int strong = view_truthy(view_map_get(b, "highlight"));
    const char *weight = strong ? " font-weight=\"bold\"" : "";
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"%s>", p->left - 8,
         y + BAR_HEIGHT / 2 + 4, weight);
    label_text(out, str_of(b, "label"));
    buf_puts(out, "</text>\n");
    double x_end = p->left;
    if (isfinite(v)) {
        double x0 = plot_x(p, v < 0 ? v : 0), x1 = plot_x(p, v < 0 ? 0 : v);
        char fill[96];
        /* A highlighted bar is solid, the others hatched: the difference shows in grey. */
        snprintf(fill, sizeof fill, strong ? "#1f4e79" : "url(#%s-hatch)", id);
        svgf(out,
             "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
             "fill=\"%s\" stroke=\"#1f4e79\" stroke-width=\"1\"/>\n",
             x0, y, x1 - x0 < 1 ? 1 : x1 - x0, BAR_HEIGHT, fill);
        x_end = x1;
    }
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\"%s>", x_end + 6, y + BAR_HEIGHT / 2 + 4, weight);
    bar_value_text(out, b, v, unit);
    buf_puts(out, "</text>\n");
}

/* A bar chart needs bars, each value a number within ±CHART_MAX_ABS or none (drawn "n/a"). */
static int bar_check(const view *chart, const char *id, gw_error *err)
{
    const view *bars = view_map_get(chart, "bars");
    size_t n = view_len(bars);
    if (view_kind(bars) != VIEW_LIST || n == 0)
        return gw_error_set(err, GW_EDATA,
                            "chart '%s': a bar chart needs a non-empty \"bars\" list", id);
    for (size_t i = 0; i < n; i++) {
        double v = view_num(view_map_get(view_list_at(bars, i), "value"));
        if (isfinite(v) && fabs(v) > CHART_MAX_ABS)
            return gw_error_set(err, GW_EDATA, "chart '%s': bar %zu's value %g is too large to "
                                "draw", id, i + 1, v);
    }
    return GW_OK;
}

static int bar_chart(const view *chart, const char *id, gw_buf *out)
{
    const view *bars = view_map_get(chart, "bars");
    size_t n = view_len(bars), longest;
    const char *unit = str_of(chart, "unit");
    plot p = {.top = PLOT_TOP, .height = (double)n * (BAR_HEIGHT + BAR_GAP)};
    p.x = bar_extent(bars, &longest);
    /* Labels stand left of the bars, values right of them; a chart with long labels grows
     * wider rather than cutting them (the page scales it to fit). */
    p.left = 24 + 7.6 * (double)longest;
    p.right = p.left + 380 > WIDTH - 150 ? p.left + 380 : WIDTH - 150;
    double width = p.right + 150, height = p.top + p.height + 56;

    svg_open(out, chart, id, width, height);
    svgf(out,
         "<defs><pattern id=\"%s-hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" "
         "height=\"6\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
         "fill=\"#dce6f0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#1f4e79\" "
         "stroke-width=\"2\"/></pattern></defs>\n",
         id);
    bar_grid(out, chart, &p, unit);
    buf_puts(out, "<g class=\"bars\" " FONT " font-size=\"12\" fill=\"#111111\">\n");
    for (size_t i = 0; i < n; i++)
        bar_row(out, view_list_at(bars, i), i, &p, id, unit);
    buf_puts(out, "</g>\n");
    svg_line(out, plot_x(&p, 0), p.top - 4, plot_x(&p, 0), p.top + p.height, STROKE_AXIS);
    buf_puts(out, "</svg>\n");
    return GW_OK;
}

/* ---- line chart ---- */

/* Below the plot, room for the x ticks and title; then one legend row per series. */
#define LEGEND_TOP 58.0
#define LEGEND_ROW 20.0

typedef struct extent {
    double xlo, xhi, ylo, yhi;
} extent;

static void extent_add(extent *e, double x, double y)
{
    e->xlo = x < e->xlo ? x : e->xlo;
    e->xhi = x > e->xhi ? x : e->xhi;
    e->ylo = y < e->ylo ? y : e->ylo;
    e->yhi = y > e->yhi ? y : e->yhi;
}

static int point_xy(const view *p, double *x, double *y)
{
    if (view_kind(p) != VIEW_LIST || view_len(p) != 2)
        return 0;
    *x = view_num(view_list_at(p, 0));
    *y = view_num(view_list_at(p, 1));
    return isfinite(*x) && isfinite(*y);
}

/* A line chart needs series, each with a "points" list of [x, y] numbers within
 * ±CHART_MAX_ABS, and one point at least. */
static int line_check(const view *chart, const char *id, gw_error *err)
{
    const view *series = view_map_get(chart, "series");
    size_t ns = view_len(series), points = 0;
    if (view_kind(series) != VIEW_LIST || ns == 0)
        return gw_error_set(err, GW_EDATA,
                            "chart '%s': a line chart needs a non-empty \"series\" list", id);
    for (size_t s = 0; s < ns; s++) {
        const view *pts = view_map_get(view_list_at(series, s), "points");
        if (view_kind(pts) != VIEW_LIST)
            return gw_error_set(err, GW_EDATA, "chart '%s': series %zu has no \"points\" list",
                                id, s + 1);
        for (size_t i = 0; i < view_len(pts); i++, points++) {
            double x, y;
            if (!point_xy(view_list_at(pts, i), &x, &y))
                return gw_error_set(err, GW_EDATA,
                                    "chart '%s': series %zu point %zu is not [x, y] numbers", id,
                                    s + 1, i + 1);
            if (fabs(x) > CHART_MAX_ABS || fabs(y) > CHART_MAX_ABS)
                return gw_error_set(err, GW_EDATA, "chart '%s': series %zu point %zu [%g, %g] "
                                    "is too large to draw", id, s + 1, i + 1, x, y);
        }
    }
    if (!points)
        return gw_error_set(err, GW_EDATA, "chart '%s': the series hold no points", id);
    return GW_OK;
}

/* The box around every point of every series (checked by line_check), with y from 0 at most. */
static void line_extent(const view *series, extent *e)
{
    *e = (extent){INFINITY, -INFINITY, 0, -INFINITY};
    for (size_t s = 0; s < view_len(series); s++) {
        const view *pts = view_map_get(view_list_at(series, s), "points");
        for (size_t i = 0; i < view_len(pts); i++) {
            double x, y;
            point_xy(view_list_at(pts, i), &x, &y);
            extent_add(e, x, y);
        }
    }
}

/* y on round ticks around the data; x spans exactly the data (months 0..36), with round ticks
 * inside it. */
static void line_axes(plot *p, const extent *e)
{
    p->y = nice_axis(e->ylo, e->yhi);
    p->x = nice_axis(e->xlo, e->xhi);
    if (span_usable(e->xlo, e->xhi)) {
        p->x.lo = e->xlo;
        p->x.hi = e->xhi;
    }
}

/* Grid lines across the plot at each y tick with its value left of it, tick marks and values
 * under the x axis, both axis lines, and both titles (y's running up the left edge). */
static void line_grid(gw_buf *out, const view *chart, const plot *p)
{
    const char *prefix = str_of(chart, "y_prefix");
    double bottom = p->top + p->height, middle = p->top + p->height / 2;
    buf_puts(out, axis_group);
    int ny = tick_count(p->y.lo, p->y.hi + p->y.step / 2, p->y.step);
    for (int i = 0; i <= ny; i++) {
        double t = p->y.lo + i * p->y.step;
        double y = plot_y(p, t);
        svg_line(out, p->left, y, p->right, y, "stroke=\"#dddddd\"");
        tick_label(out, p->left - 6, y + 4, "end", prefix, t, p->y.decimals);
    }
    /* x ticks: the round values inside the data's own range */
    double first = ceil(p->x.lo / p->x.step - 1e-9);
    int nx = tick_count(first, floor(p->x.hi / p->x.step + 1e-6), 1);
    for (int i = 0; i <= nx; i++) {
        double t = (first + i) * p->x.step;
        double x = plot_x(p, t);
        svg_line(out, x, bottom, x, bottom + 5, STROKE_AXIS);
        tick_label(out, x, bottom + 18, "middle", NULL, t, p->x.decimals);
    }
    svg_line(out, p->left, bottom, p->right, bottom, STROKE_AXIS);
    svg_line(out, p->left, p->top, p->left, bottom, STROKE_AXIS);
    axis_caption(out, (p->left + p->right) / 2, bottom + 38, str_of(chart, "x_label"),
                 str_of(chart, "x_unit"));
    svgf(out,
         "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" "
         "transform=\"rotate(-90 16 %.1f)\">",
         middle, middle);
    axis_title(out, str_of(chart, "y_label"), str_of(chart, "unit"));
    buf_puts(out, "</text>\n</g>\n");
}

/* A point shape per series, so series differ without colour. */
static void point_shape(gw_buf *out, int style, double x, double y, const char *color)
{
    switch (style % N_STYLES) {
    case 0:
        svgf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x, y, color);
        break;
    case 1:
        svgf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"%s\"/>\n",
             x - 3.5, y - 3.5, color);
        break;
    case 2:
        svgf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n", x, y - 4.5,
             x + 4.5, y + 3.5, x - 4.5, y + 3.5, color);
        break;
    case 3:
        svgf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n", x,
             y - 5, x + 5, y, x, y + 5, x - 5, y, color);
        break;
    default:
        svgf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#ffffff\" stroke=\"%s\"/>\n",
             x, y, color);
        break;
    }
}

/* Series s's stroke attributes: its colour and, so it reads without colour, its dash pattern. */
static void series_stroke(gw_buf *out, size_t s)
{
    const char *dash = series_dash[s % N_STYLES];
    svgf(out, "stroke=\"%s\" stroke-width=\"2.5\"", series_color[s % N_STYLES]);
    if (*dash)
        svgf(out, " stroke-dasharray=\"%s\"", dash);
}

/* Series s: a line through all its points, and its point shape on at most 30 of them. */
static void line_series(gw_buf *out, const view *pts, size_t s, const plot *p)
{
    size_t np = view_len(pts), every = np > 30 ? (np + 29) / 30 : 1;
    buf_puts(out, "<g class=\"series\"><path fill=\"none\" ");
    series_stroke(out, s);
    buf_puts(out, " d=\"");
    for (size_t i = 0; i < np; i++) {
        double x, y;
        point_xy(view_list_at(pts, i), &x, &y);
        svgf(out, "%s%.1f %.1f", i ? " L" : "M", plot_x(p, x), plot_y(p, y));
    }
    buf_puts(out, "\"/>\n");
    for (size_t i = 0; i < np; i += every) {
        double x, y;
        point_xy(view_list_at(pts, i), &x, &y);
        point_shape(out, (int)s, plot_x(p, x), plot_y(p, y), series_color[s % N_STYLES]);
    }
    buf_puts(out, "</g>\n");
}

/* Series s's legend row under the plot: a sample of its line with its point shape, and its
 * name. */
static void legend_row(gw_buf *out, const view *ser, size_t s, const plot *p)
{
    double y = p->top + p->height + LEGEND_TOP + LEGEND_ROW * (double)s;
    svgf(out, "<g class=\"legend\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ",
         p->left, y - 4, p->left + 40, y - 4);
    series_stroke(out, s);
    buf_puts(out, "/>\n");
    point_shape(out, (int)s, p->left + 20, y - 4, series_color[s % N_STYLES]);
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\" " FONT " font-size=\"12\" fill=\"#111111\">",
         p->left + 50, y);
    text(out, str_of(ser, "name"));
    buf_puts(out, "</text></g>\n");
}

/* The marked point (mx, my), such as break-even: a ring on it, a dashed line down to the x axis,
 * and its label on the side of the ring towards the middle of the plot. */
static void line_marker(gw_buf *out, const view *marker, double mx, double my, const plot *p)
{
    double x = plot_x(p, mx), y = plot_y(p, my);
    int on_right = x > (p->left + p->right) / 2;
    svgf(out,
         "<g class=\"marker\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
         "stroke=\"#111111\" stroke-dasharray=\"3 3\"/>\n"
         "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#111111\" "
         "stroke-width=\"2.5\"/>\n",
         x, y + 7, x, p->top + p->height, x, y);
    svgf(out,
         "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" " FONT
         " font-size=\"13\" font-weight=\"bold\" fill=\"#111111\" stroke=\"#ffffff\" "
         "stroke-width=\"4\" paint-order=\"stroke\">",
         on_right ? x - 12 : x + 12, y - 12, on_right ? "end" : "start");
    text(out, str_of(marker, "label"));
    buf_puts(out, "</text></g>\n");
}

static int line_chart(const view *chart, const char *id, gw_buf *out)
{
    const view *series = view_map_get(chart, "series");
    size_t ns = view_len(series);
    extent e;
    line_extent(series, &e);
    const view *marker = view_map_get(chart, "marker");
    double mx = view_num(view_map_get(marker, "x")), my = view_num(view_map_get(marker, "y"));
    /* a marker that cannot be drawn is left out; the lines still can be */
    int has_marker = isfinite(mx) && isfinite(my) && fabs(mx) <= CHART_MAX_ABS &&
                     fabs(my) <= CHART_MAX_ABS;
    if (has_marker)
        extent_add(&e, mx, my);
    plot p = {.left = 92, .right = WIDTH - 24, .top = PLOT_TOP, .height = 300};
    line_axes(&p, &e);
    double height = p.top + p.height + LEGEND_TOP + LEGEND_ROW * (double)ns;

    svg_open(out, chart, id, WIDTH, height);
    line_grid(out, chart, &p);
    for (size_t s = 0; s < ns; s++) {
        const view *ser = view_list_at(series, s);
        line_series(out, view_map_get(ser, "points"), s, &p);
        legend_row(out, ser, s, &p);
    }
    if (has_marker)
        line_marker(out, marker, mx, my, &p);
    buf_puts(out, "</svg>\n");
    return GW_OK;
}

int chart_check(const view *chart, gw_error *err)
{
    char id[64];
    if (view_kind(chart) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA, "a chart must be a map");
    chart_id(chart, id, sizeof id);
    const char *kind = str_of(chart, "kind");
    if (strcmp(kind, "bar") == 0)
        return bar_check(chart, id, err);
    if (strcmp(kind, "line") == 0)
        return line_check(chart, id, err);
    return gw_error_set(err, GW_EDATA, "chart '%s': kind must be \"bar\" or \"line\", not \"%.40s\"",
                        id, kind);
}

int chart_svg(const view *chart, gw_buf *out, gw_error *err)
{
    char id[64];
    int rc = chart_check(chart, err);
    if (rc != GW_OK)
        return rc;
    chart_id(chart, id, sizeof id);
    if (strcmp(str_of(chart, "kind"), "bar") == 0)
        return bar_chart(chart, id, out);
    return line_chart(chart, id, out);
}

int chart_svg_file(const view *chart, gw_buf *out, gw_error *err)
{
    buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    return chart_svg(chart, out, err);
}

view *chart_bar_new(const char *id, const char *title, const char *unit, const char *desc)
{
    view *c = view_map();
    view_map_set_str(c, "id", id);
    view_map_set_str(c, "kind", "bar");
    view_map_set_str(c, "title", title);
    if (desc)
        view_map_set_str(c, "desc", desc);
    view_map_set_str(c, "unit", unit ? unit : "");
    view_map_set(c, "bars", view_list());
    return c;
}

void chart_bar_add(view *chart, const char *label, double value, const char *value_text,
                   int highlight)
{
    view *b = view_list_push(view_map_get(chart, "bars"), view_map());
    view_map_set_str(b, "label", label);
    view_map_set_num(b, "value", value);
    if (value_text)
        view_map_set_str(b, "value_text", value_text);
    if (highlight)
        view_map_set_bool(b, "highlight", 1);
}
