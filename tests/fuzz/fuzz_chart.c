/* fuzz_chart.c — SVG charts (chart.c) with any doubles at all: the input's first byte picks a
 * bar chart, a line chart (up to four series) or a line chart with a marker; every following 8
 * bytes are one value, bit for bit, so NaN, infinities, subnormals, -0 and the largest doubles
 * all come.  A chart chart_check accepts must draw, end (libFuzzer's -timeout catches a tick loop
 * that never does), hold no NaN or infinity and stay in proportion to its data; one it refuses
 * must draw nothing.
 * seeds: $ROOT/tests/fixtures/fuzz/fuzz_chart */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/chart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The i-th double of the input after its first byte. */
static double value_at(const uint8_t *data, size_t i)
{
    double v;
    memcpy(&v, data + 1 + 8 * i, sizeof v);
    return v;
}

static view *bar_chart(const uint8_t *data, size_t n)
{
    view *c = chart_bar_new("fuzz", "Fuzz", "GB/s", NULL);
    for (size_t i = 0; i < n; i++)
        chart_bar_add(c, i % 3 ? "a bar" : "another bar", value_at(data, i), NULL, i == 0);
    return c;
}

/* Points [x, y] from pairs of values, dealt round series series by series. */
static view *line_chart(const uint8_t *data, size_t n, size_t n_series, int marker)
{
    view *c = view_map();
    view_map_set_str(c, "id", "fuzz");
    view_map_set_str(c, "kind", "line");
    view_map_set_str(c, "title", "Fuzz");
    view_map_set_str(c, "x_label", "Month");
    view *series = view_map_set(c, "series", view_list());
    for (size_t s = 0; s < n_series; s++) {
        view *ser = view_list_push(series, view_map());
        view_map_set_str(ser, "name", "series");
        view_map_set(ser, "points", view_list());
    }
    size_t first = marker ? 2 : 0;
    for (size_t i = first; i + 1 < n; i += 2) {
        view *pts = view_map_get(view_list_at(series, (i / 2) % n_series), "points");
        view *p = view_list_push(pts, view_list());
        view_list_push(p, view_number(value_at(data, i)));
        view_list_push(p, view_number(value_at(data, i + 1)));
    }
    if (marker && n >= 2) {
        view *m = view_map_set(c, "marker", view_map());
        view_map_set_num(m, "x", value_at(data, 0));
        view_map_set_num(m, "y", value_at(data, 1));
        view_map_set_str(m, "label", "break-even");
    }
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t n = (size - 1) / 8;
    if (n > 512)
        n = 512;   /* the values, not the size of the drawing, are what is fuzzed */
    view *chart;
    switch (data[0] % 3) {
    case 0: chart = bar_chart(data, n); break;
    case 1: chart = line_chart(data, n, 1 + (size_t)(data[0] / 3) % 4, 0); break;
    default: chart = line_chart(data, n, 1, 1); break;
    }
    gw_error check_err = {0}, err = {0};
    int usable = chart_check(chart, &check_err) == GW_OK;
    gw_buf out = GW_BUF_INIT;
    int rc = chart_svg(chart, &out, &err);
    if (usable != (rc == GW_OK))
        abort();   /* chart_check and chart_svg disagree */
    if (!usable && out.len)
        abort();   /* a refused chart drew something */
    if (usable) {
        /* every number written is finite: no "nan", "inf" in coordinates or labels */
        if (strstr(buf_cstr(&out), "nan") || strstr(buf_cstr(&out), "inf"))
            abort();
        /* in proportion: a few kilobytes of frame and axes, and a bounded share per value */
        if (out.len > 16384 + 600 * (n + 1))
            abort();
    }
    buf_free(&out);
    view_free(chart);
    return 0;
}
