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
 * ellipsis; the full text stays in the document's table. */
#define MAX_LABEL 60
static void label_text(gw_buf *out, const char *s)
{
    size_t n = strlen(s);
    if (n <= MAX_LABEL) {
        text(out, s);
        return;
    }
    n = MAX_LABEL - 3;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    mustache_escape_html(out, s, n);
    buf_puts(out, "\xe2\x80\xa6");
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

/* Ticks at 1, 2, 2.5 or 5 times a power of ten: of the steps that give 3 to 8 intervals
 * covering [lo, hi], the one that wastes the least room past the data. */
static axis nice_axis(double lo, double hi)
{
    static const double mult[] = {1, 2, 2.5, 5, 10};
    axis best = {0, 0, 0, 0};
    if (!(hi > lo))
        hi = lo + (lo == 0 ? 1 : fabs(lo));
    double mag = pow(10, floor(log10((hi - lo) / 5.0)));
    for (int k = -1; k <= 1; k++) {
        for (size_t m = 0; m < sizeof mult / sizeof mult[0]; m++) {
            double step = mult[m] * mag * pow(10, k);
            double a = floor(lo / step) * step, b = ceil(hi / step) * step;
            double intervals = (b - a) / step;
            if (intervals < 3 - 1e-9 || intervals > 8 + 1e-9)
                continue;
            if (best.step == 0 || b - a < best.hi - best.lo - 1e-9 ||
                (fabs((b - a) - (best.hi - best.lo)) < 1e-9 && step > best.step)) {
                best.lo = a;
                best.hi = b;
                best.step = step;
            }
        }
    }
    if (best.step == 0) {   /* cannot happen for finite input; keep a usable axis anyway */
        best.lo = lo;
        best.hi = hi;
        best.step = (hi - lo) / 5;
    }
    best.decimals = 0;
    while (best.decimals < 6 &&
           fabs(best.step * pow(10, best.decimals) - round(best.step * pow(10, best.decimals))) > 1e-6)
        best.decimals++;
    return best;
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

static void number(gw_buf *out, double n, int decimals)
{
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

static int bar_chart(const view *chart, const char *id, gw_buf *out, gw_error *err)
{
    const view *bars = view_map_get(chart, "bars");
    size_t n = view_len(bars);
    if (view_kind(bars) != VIEW_LIST || n == 0)
        return gw_error_set(err, GW_EDATA, "chart '%s': a bar chart needs a non-empty \"bars\" list", id);
    const char *unit = str_of(chart, "unit");
    double lo = 0, hi = 0;
    size_t longest = 4;
    for (size_t i = 0; i < n; i++) {
        const view *b = view_list_at(bars, i);
        double v = view_num(view_map_get(b, "value"));
        if (isfinite(v)) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        size_t l = strlen(str_of(b, "label"));
        longest = l > longest ? l : longest;
    }
    axis ax = nice_axis(lo, hi);
    double bar_h = 24, gap = 12, top = 44;
    if (longest > MAX_LABEL)
        longest = MAX_LABEL;
    /* Labels stand left of the bars, values right of them; a chart with long labels grows
     * wider rather than cutting them (the page scales it to fit). */
    double left = 24 + 7.6 * (double)longest;
    double right = left + 380 > WIDTH - 150 ? left + 380 : WIDTH - 150;
    double width = right + 150;
    double plot_h = (double)n * (bar_h + gap);
    double height = top + plot_h + 56;
    double span = ax.hi - ax.lo;
#define XPOS(v) (left + ((v) - ax.lo) / span * (right - left))

    svg_open(out, chart, id, width, height);
    svgf(out,
               "<defs><pattern id=\"%s-hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" "
               "height=\"6\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
               "fill=\"#dce6f0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#1f4e79\" "
               "stroke-width=\"2\"/></pattern></defs>\n",
               id);
    /* Grid and value axis. */
    buf_puts(out, "<g class=\"axis\" " FONT " font-size=\"11\" fill=\"#333333\">\n");
    for (double t = ax.lo; t <= ax.hi + ax.step / 2; t += ax.step) {
        double x = XPOS(t);
        svgf(out,
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#cccccc\" "
                   "stroke-width=\"1\"/>\n",
                   x, top - 4, x, top + plot_h);
        svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, top + plot_h + 16);
        number(out, t, ax.decimals);
        buf_puts(out, "</text>\n");
    }
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">",
               (left + right) / 2, top + plot_h + 40);
    const char *label = str_of(chart, "y_label");
    axis_title(out, *label ? label : str_of(chart, "x_label"), unit);
    buf_puts(out, "</text>\n</g>\n");

    buf_puts(out, "<g class=\"bars\" " FONT " font-size=\"12\" fill=\"#111111\">\n");
    for (size_t i = 0; i < n; i++) {
        const view *b = view_list_at(bars, i);
        double v = view_num(view_map_get(b, "value"));
        double y = top + (double)i * (bar_h + gap) + gap / 2;
        int strong = view_truthy(view_map_get(b, "highlight"));
        svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"%s>", left - 8,
                   y + bar_h / 2 + 4, strong ? " font-weight=\"bold\"" : "");
        label_text(out, str_of(b, "label"));
        buf_puts(out, "</text>\n");
        double x_end = left;
        if (isfinite(v)) {
            double x0 = XPOS(v < 0 ? v : 0), x1 = XPOS(v < 0 ? 0 : v);
            char fill[96];
            /* A highlighted bar is solid, the others hatched: the difference shows in grey. */
            snprintf(fill, sizeof fill, strong ? "#1f4e79" : "url(#%s-hatch)", id);
            svgf(out,
                       "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                       "fill=\"%s\" stroke=\"#1f4e79\" stroke-width=\"1\"/>\n",
                       x0, y, x1 - x0 < 1 ? 1 : x1 - x0, bar_h, fill);
            x_end = x1;
        }
        svgf(out, "<text x=\"%.1f\" y=\"%.1f\"%s>", x_end + 6, y + bar_h / 2 + 4,
                   strong ? " font-weight=\"bold\"" : "");
        const char *vt = view_str(view_map_get(b, "value_text"));
        if (vt)
            text(out, vt);
        else if (isfinite(v)) {
            number(out, v, v == floor(v) ? 0 : 1);
            if (*unit) {
                buf_putc(out, ' ');
                text(out, unit);
            }
        } else
            buf_puts(out, "n/a");
        buf_puts(out, "</text>\n");
    }
    buf_puts(out, "</g>\n");
    svgf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n",
               XPOS(0), top - 4, XPOS(0), top + plot_h);
    buf_puts(out, "</svg>\n");
#undef XPOS
    return GW_OK;
}

static int point_xy(const view *p, double *x, double *y)
{
    if (view_kind(p) != VIEW_LIST || view_len(p) != 2)
        return 0;
    *x = view_num(view_list_at(p, 0));
    *y = view_num(view_list_at(p, 1));
    return isfinite(*x) && isfinite(*y);
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

static int line_chart(const view *chart, const char *id, gw_buf *out, gw_error *err)
{
    const view *series = view_map_get(chart, "series");
    size_t ns = view_len(series);
    if (view_kind(series) != VIEW_LIST || ns == 0)
        return gw_error_set(err, GW_EDATA, "chart '%s': a line chart needs a non-empty \"series\" list", id);
    double xlo = INFINITY, xhi = -INFINITY, ylo = 0, yhi = -INFINITY;
    for (size_t s = 0; s < ns; s++) {
        const view *pts = view_map_get(view_list_at(series, s), "points");
        if (view_kind(pts) != VIEW_LIST)
            return gw_error_set(err, GW_EDATA, "chart '%s': series %zu has no \"points\" list", id, s + 1);
        for (size_t i = 0; i < view_len(pts); i++) {
            double x, y;
            if (!point_xy(view_list_at(pts, i), &x, &y))
                return gw_error_set(err, GW_EDATA,
                                    "chart '%s': series %zu point %zu is not [x, y] numbers", id,
                                    s + 1, i + 1);
            xlo = x < xlo ? x : xlo;
            xhi = x > xhi ? x : xhi;
            ylo = y < ylo ? y : ylo;
            yhi = y > yhi ? y : yhi;
        }
    }
    if (!isfinite(xlo))
        return gw_error_set(err, GW_EDATA, "chart '%s': the series hold no points", id);
    const view *marker = view_map_get(chart, "marker");
    double mx = view_num(view_map_get(marker, "x")), my = view_num(view_map_get(marker, "y"));
    int has_marker = isfinite(mx) && isfinite(my);
    if (has_marker) {
        xlo = mx < xlo ? mx : xlo;
        xhi = mx > xhi ? mx : xhi;
        ylo = my < ylo ? my : ylo;
        yhi = my > yhi ? my : yhi;
    }
    axis ay = nice_axis(ylo, yhi);
    /* x spans exactly the data (months 0..36), with round ticks inside it */
    axis ax = nice_axis(xlo, xhi);
    if (xhi > xlo) {
        ax.lo = xlo;
        ax.hi = xhi;
    }
    const char *prefix = str_of(chart, "y_prefix");
    const char *unit = str_of(chart, "unit");
    double left = 92, right = WIDTH - 24, top = 44, plot_h = 300;
    double legend_rows = (double)ns;
    double height = top + plot_h + 58 + 20 * legend_rows;
#define XPOS(v) (left + ((v) - ax.lo) / (ax.hi - ax.lo) * (right - left))
#define YPOS(v) (top + plot_h - ((v) - ay.lo) / (ay.hi - ay.lo) * plot_h)

    svg_open(out, chart, id, WIDTH, height);
    buf_puts(out, "<g class=\"axis\" " FONT " font-size=\"11\" fill=\"#333333\">\n");
    for (double t = ay.lo; t <= ay.hi + ay.step / 2; t += ay.step) {
        double y = YPOS(t);
        svgf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
                   left, y, right, y);
        svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 4);
        text(out, prefix);
        number(out, t, ay.decimals);
        buf_puts(out, "</text>\n");
    }
    for (double t = ceil(ax.lo / ax.step - 1e-9) * ax.step; t <= ax.hi + ax.step * 1e-6;
         t += ax.step) {
        double x = XPOS(t);
        svgf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n",
                   x, top + plot_h, x, top + plot_h + 5);
        svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, top + plot_h + 18);
        number(out, t, ax.decimals);
        buf_puts(out, "</text>\n");
    }
    svgf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n",
               left, top + plot_h, right, top + plot_h);
    svgf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n",
               left, top, left, top + plot_h);
    svgf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">",
               (left + right) / 2, top + plot_h + 38);
    axis_title(out, str_of(chart, "x_label"), str_of(chart, "x_unit"));
    buf_puts(out, "</text>\n");
    svgf(out,
               "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" "
               "transform=\"rotate(-90 16 %.1f)\">",
               top + plot_h / 2, top + plot_h / 2);
    axis_title(out, str_of(chart, "y_label"), unit);
    buf_puts(out, "</text>\n</g>\n");

    for (size_t s = 0; s < ns; s++) {
        const view *ser = view_list_at(series, s);
        const view *pts = view_map_get(ser, "points");
        const char *color = series_color[s % N_STYLES];
        const char *dash = series_dash[s % N_STYLES];
        svgf(out, "<g class=\"series\"><path fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"%s%s%s d=\"",
                   color, *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
        for (size_t i = 0; i < view_len(pts); i++) {
            double x, y;
            point_xy(view_list_at(pts, i), &x, &y);
            svgf(out, "%s%.1f %.1f", i ? " L" : "M", XPOS(x), YPOS(y));
        }
        buf_puts(out, "\"/>\n");
        size_t np = view_len(pts), every = np > 30 ? (np + 29) / 30 : 1;
        for (size_t i = 0; i < np; i += every) {
            double x, y;
            point_xy(view_list_at(pts, i), &x, &y);
            point_shape(out, (int)s, XPOS(x), YPOS(y), color);
        }
        buf_puts(out, "</g>\n");
        /* Legend row: a sample of the line with its point shape, and the name. */
        double ly = top + plot_h + 58 + 20 * (double)s;
        svgf(out, "<g class=\"legend\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                        "stroke=\"%s\" stroke-width=\"2.5\"%s%s%s/>\n",
                   left, ly - 4, left + 40, ly - 4, color, *dash ? " stroke-dasharray=\"" : "",
                   dash, *dash ? "\"" : "");
        point_shape(out, (int)s, left + 20, ly - 4, color);
        svgf(out, "<text x=\"%.1f\" y=\"%.1f\" " FONT " font-size=\"12\" fill=\"#111111\">",
                   left + 50, ly);
        text(out, str_of(ser, "name"));
        buf_puts(out, "</text></g>\n");
    }
    if (has_marker) {
        double x = XPOS(mx), y = YPOS(my);
        int on_right = x > (left + right) / 2;
        svgf(out,
                   "<g class=\"marker\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#111111\" stroke-dasharray=\"3 3\"/>\n"
                   "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#111111\" "
                   "stroke-width=\"2.5\"/>\n",
                   x, y + 7, x, top + plot_h, x, y);
        svgf(out,
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" " FONT
                   " font-size=\"13\" font-weight=\"bold\" fill=\"#111111\" stroke=\"#ffffff\" "
                   "stroke-width=\"4\" paint-order=\"stroke\">",
                   on_right ? x - 12 : x + 12, y - 12, on_right ? "end" : "start");
        text(out, view_str(view_map_get(marker, "label")) ? str_of(marker, "label") : "");
        buf_puts(out, "</text></g>\n");
    }
    buf_puts(out, "</svg>\n");
#undef XPOS
#undef YPOS
    return GW_OK;
}

int chart_svg(const view *chart, gw_buf *out, gw_error *err)
{
    char id[64];
    if (view_kind(chart) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA, "a chart must be a map");
    chart_id(chart, id, sizeof id);
    const char *kind = str_of(chart, "kind");
    if (strcmp(kind, "bar") == 0)
        return bar_chart(chart, id, out, err);
    if (strcmp(kind, "line") == 0)
        return line_chart(chart, id, out, err);
    return gw_error_set(err, GW_EDATA, "chart '%s': kind must be \"bar\" or \"line\", not \"%.40s\"",
                        id, kind);
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
