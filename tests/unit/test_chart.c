/* test_chart.c — SVG charts: well-formed XML, accessible names, values and units written out,
 * series told apart without colour, the break-even marker, escaping, determinism, errors; axes
 * with a few ticks for any finite data (equal, neighbouring, subnormal, huge), and data that
 * cannot be drawn named by chart_check. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "render/chart.h"

static view *json(const char *text)
{
    gw_error err = {0};
    view *v = view_from_json(text, strlen(text), &err);
    if (!v)
        fail_msg("bad test JSON: %s", err.msg);
    return v;
}

static char *svg_of(const view *chart)
{
    gw_buf out = GW_BUF_INIT;
    gw_error err = {0};
    if (chart_svg_file(chart, &out, &err) != GW_OK)
        fail_msg("chart_svg: %s", err.msg);
    return buf_detach(&out);
}

/* Counts elements named `name` in a well-formed SVG (fails the test if it is not). */
static int count_elements(xmlNode *n, const char *name)
{
    int c = 0;
    for (; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            c++;
        c += count_elements(n->children, name);
    }
    return c;
}

static xmlDoc *parse_svg(const char *svg)
{
    xmlDoc *doc = xmlReadMemory(svg, (int)strlen(svg), "chart.svg", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    assert_non_null(doc);
    assert_string_equal((const char *)xmlDocGetRootElement(doc)->name, "svg");
    return doc;
}

static const char bar_json[] =
    "{\"id\":\"bw\",\"kind\":\"bar\",\"title\":\"Memory bandwidth\",\"desc\":\"Higher is better\","
    "\"y_label\":\"Memory bandwidth\",\"unit\":\"GB/s\",\"bars\":["
    "{\"label\":\"RTX 3090\",\"value\":936,\"value_text\":\"936 GB/s\"},"
    "{\"label\":\"A100 SXM4 80GB\",\"value\":2039},"
    "{\"label\":\"H100 SXM5\",\"value\":3352,\"value_text\":\"3,352 GB/s\",\"highlight\":true},"
    "{\"label\":\"Unknown card\",\"value\":null}]}";

static void test_bar(void **state)
{
    (void)state;
    view *chart = json(bar_json);
    char *svg = svg_of(chart);
    xmlDoc *doc = parse_svg(svg);
    xmlNode *root = xmlDocGetRootElement(doc);
    assert_int_equal(count_elements(root, "title"), 1);
    assert_int_equal(count_elements(root, "desc"), 1);
    assert_non_null(strstr(svg, "<title id=\"bw-title\">Memory bandwidth</title>"));
    assert_non_null(strstr(svg, "<desc id=\"bw-desc\">Higher is better</desc>"));
    /* Value labels: the given text, else number and unit (2039 -> "2,039 GB/s"), else n/a. */
    assert_non_null(strstr(svg, ">936 GB/s</text>"));
    assert_non_null(strstr(svg, ">2,039 GB/s</text>"));
    assert_non_null(strstr(svg, ">n/a</text>"));
    /* Ticks: of the round steps giving 3..8 intervals over 0..3352, 500 wastes least room
     * (0 .. 3,500 in 7 steps; 1000 would need 0 .. 4,000). */
    assert_non_null(strstr(svg, ">3,500</text>"));
    assert_null(strstr(svg, ">4,000</text>"));
    assert_non_null(strstr(svg, ">Memory bandwidth (GB/s)</text>"));
    /* Three drawn bars (one hatched pattern rect + 3 bars + background = 5 rects). */
    assert_int_equal(count_elements(root, "rect"), 5);
    assert_non_null(strstr(svg, "fill=\"url(#bw-hatch)\""));
    assert_non_null(strstr(svg, "fill=\"#1f4e79\" stroke"));   /* the highlighted one: solid */
    xmlFreeDoc(doc);

    /* Deterministic: the same chart gives the same bytes. */
    char *again = svg_of(chart);
    assert_string_equal(svg, again);
    free(again);
    free(svg);
    view_free(chart);
}

static void test_line(void **state)
{
    (void)state;
    view *chart = json(
        "{\"id\":\"cost\",\"kind\":\"line\",\"title\":\"Cumulative cost\",\"x_label\":\"Month\","
        "\"y_label\":\"Cost\",\"unit\":\"USD\",\"y_prefix\":\"$\",\"series\":["
        "{\"name\":\"Buy\",\"points\":[[0,12000],[12,13260],[24,14520]]},"
        "{\"name\":\"Rent\",\"points\":[[0,0],[12,10800],[24,21600]]}],"
        "\"marker\":{\"x\":14.4,\"y\":13512,\"label\":\"break-even: month 14\"}}");
    char *svg = svg_of(chart);
    xmlDoc *doc = parse_svg(svg);
    xmlNode *root = xmlDocGetRootElement(doc);
    assert_non_null(strstr(svg, ">break-even: month 14</text>"));
    assert_non_null(strstr(svg, "<circle cx=\"") );
    assert_non_null(strstr(svg, "r=\"7\" fill=\"none\""));   /* the marker ring */
    /* Two series, told apart by dash pattern: the first solid, the second dashed. */
    assert_non_null(strstr(svg, "stroke-dasharray=\"9 5\" d=\"M"));
    assert_non_null(strstr(svg, ">Buy</text>"));
    assert_non_null(strstr(svg, ">Rent</text>"));
    /* y ticks over 0..21600: step 5000 gives 0 .. 25,000 (2500 would need 9 intervals,
     * 10000 would reach 30,000); with the $ prefix. */
    assert_non_null(strstr(svg, ">$25,000</text>"));
    assert_non_null(strstr(svg, ">Cost (USD)</text>"));
    assert_int_equal(count_elements(root, "title"), 1);
    xmlFreeDoc(doc);
    free(svg);
    view_free(chart);
}

static void test_escaping(void **state)
{
    (void)state;
    view *chart = json("{\"id\":\"x\\\"><script>\",\"kind\":\"bar\",\"title\":\"<script>alert(1)</script>\","
                       "\"bars\":[{\"label\":\"]]><svg onload=alert(1)>\",\"value\":1,"
                       "\"value_text\":\"a & b\"}]}");
    char *svg = svg_of(chart);
    xmlDoc *doc = parse_svg(svg);
    assert_int_equal(count_elements(xmlDocGetRootElement(doc), "script"), 0);
    assert_int_equal(count_elements(xmlDocGetRootElement(doc), "svg"), 1);
    assert_null(strstr(svg, "<script"));
    assert_non_null(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(svg, "]]&gt;&lt;svg onload=alert(1)&gt;"));
    assert_non_null(strstr(svg, ">a &amp; b<"));
    /* The id becomes a safe element id. */
    assert_non_null(strstr(svg, "id=\"x---script--title\""));
    xmlFreeDoc(doc);
    free(svg);
    view_free(chart);
}

static void expect_error(const char *text, const char *msg)
{
    view *chart = json(text);
    gw_buf out = GW_BUF_INIT;
    gw_error err = {0};
    assert_int_equal(chart_svg(chart, &out, &err), GW_EDATA);
    if (!strstr(err.msg, msg))
        fail_msg("'%s' lacks '%s'", err.msg, msg);
    buf_free(&out);
    view_free(chart);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("{\"id\":\"p\",\"kind\":\"pie\"}", "chart 'p': kind must be \"bar\" or \"line\"");
    expect_error("{\"id\":\"b\",\"kind\":\"bar\",\"bars\":[]}", "non-empty \"bars\"");
    expect_error("{\"id\":\"l\",\"kind\":\"line\",\"series\":[{\"name\":\"a\",\"points\":[[1]]}]}",
                 "series 1 point 1 is not [x, y]");
}

static void test_builder(void **state)
{
    (void)state;
    view *chart = chart_bar_new("bw", "Memory bandwidth", "GB/s", NULL);
    chart_bar_add(chart, "RTX 3090", 936, "936 GB/s", 0);
    chart_bar_add(chart, "RTX 4090", 1008, NULL, 1);
    assert_int_equal(view_len(view_map_get(chart, "bars")), 2);
    char *svg = svg_of(chart);
    assert_non_null(strstr(svg, ">1,008 GB/s</text>"));
    free(svg);
    /* A 64-byte label is cut to 57 bytes and an ellipsis; the chart grows wider for it:
     * left = 24 + 7.6 * 60 = 480, right = 480 + 380 = 860, width = 860 + 150 = 1010. */
    chart_bar_add(chart, "rent 1x NVIDIA A100 SXM4 40GB (a provider with a very long name)", 5,
                  NULL, 0);
    svg = svg_of(chart);
    assert_non_null(strstr(svg, ">rent 1x NVIDIA A100 SXM4 40GB (a provider with a very lon\xe2\x80\xa6</text>"));
    assert_non_null(strstr(svg, "width=\"1010\""));
    free(svg);
    /* A held-back price's closing " \xe2\x80\xa0" (4 bytes) survives the cut: the 61-byte label keeps
     * 60 - 3 - 4 = 53 bytes, then the ellipsis, then the mark. */
    chart_bar_add(chart, "new 16x NVIDIA H100 SXM5 80GB in 2x HGX H100 8-GPU server \xe2\x80\xa0", 6,
                  NULL, 0);
    svg = svg_of(chart);
    assert_non_null(strstr(svg, ">new 16x NVIDIA H100 SXM5 80GB in 2x HGX H100 8-GPU se\xe2\x80\xa6 \xe2\x80\xa0</text>"));
    free(svg);
    view_free(chart);
}

/* The tick labels of svg: each text written as `text-anchor="ANCHOR">LABEL<`, joined by '|'
 * (x ticks are "middle" in both kinds; a line chart's y ticks "end"). */
static void tick_labels(const char *svg, const char *anchor, gw_buf *out)
{
    char mark[64];
    snprintf(mark, sizeof mark, "text-anchor=\"%s\">", anchor);
    for (const char *p = strstr(svg, mark); p; p = strstr(p, mark)) {
        p += strlen(mark);
        size_t n = strcspn(p, "<");
        buf_printf(out, "%s%.*s", out->len ? "|" : "", (int)n, p);
    }
}

/* A line chart of one series through the points (x, y) given as "[x,y],[x,y]". */
static view *line_of(const char *points)
{
    char text[512];
    snprintf(text, sizeof text, "{\"id\":\"l\",\"kind\":\"line\",\"title\":\"t\",\"series\":"
             "[{\"name\":\"a\",\"points\":[%s]}]}", points);
    return json(text);
}

static view *bars_of(const char *values)
{
    view *c = chart_bar_new("b", "t", "GB/s", NULL);
    const char *p = values;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        chart_bar_add(c, "x", v, NULL, 0);
        p = *end == ',' ? end + 1 : end;
    }
    return c;
}

/* Draws the chart within 5 seconds, checks it is well-formed, holds no NaN or infinity and at
 * most 11 ticks on each axis, and returns its x (and, for a line chart, y) tick labels. */
static void drawn_ticks(view *chart, gw_buf *x, gw_buf *y)
{
    alarm(5);   /* the tick loop that never ended: a hang kills the test program */
    char *svg = svg_of(chart);
    alarm(0);
    xmlDoc *doc = parse_svg(svg);
    xmlFreeDoc(doc);
    assert_null(strstr(svg, "nan"));
    assert_null(strstr(svg, "inf"));
    tick_labels(svg, "middle", x);
    if (y)
        tick_labels(svg, "end", y);
    size_t nx = 1, ny = 1;
    for (const char *p = buf_cstr(x); *p; p++)
        nx += *p == '|';
    for (const char *p = y ? buf_cstr(y) : ""; *p; p++)
        ny += *p == '|';
    assert_true(nx <= 11 && ny <= 11);
    free(svg);
    view_free(chart);
}

static void expect_line_ticks(const char *points, const char *want_x, const char *want_y)
{
    gw_buf x = GW_BUF_INIT, y = GW_BUF_INIT;
    drawn_ticks(line_of(points), &x, &y);
    if (strcmp(buf_cstr(&x), want_x) != 0 || strcmp(buf_cstr(&y), want_y) != 0)
        fail_msg("%s: x ticks %s (want %s), y ticks %s (want %s)", points, buf_cstr(&x), want_x,
                 buf_cstr(&y), want_y);
    buf_free(&x);
    buf_free(&y);
}

static void expect_bar_ticks(const char *values, const char *want)
{
    gw_buf x = GW_BUF_INIT;
    drawn_ticks(bars_of(values), &x, NULL);
    if (strcmp(buf_cstr(&x), want) != 0)
        fail_msg("bars %s: ticks %s (want %s)", values, buf_cstr(&x), want);
    buf_free(&x);
}

static void test_ticks_bounded(void **state)
{
    (void)state;
    /* 1e17 and 1e17 + 16 are neighbouring doubles: no step between them can be added to 1e17.
     * The range is widened as for equal values, 1e17 to 2e17 in quarters; y is 0..2 by 0.5
     * (y always starts at 0 at most; 3 to 8 intervals: 0.5 gives 4). */
    expect_line_ticks("[1e17,1],[100000000000000016,2]", "1e+17|1.25e+17|1.5e+17|1.75e+17|2e+17",
                      "0.0|0.5|1.0|1.5|2.0");
    /* equal x: widened from 3 to 6, ticks at whole numbers; y 0 alone: 0..1 */
    expect_line_ticks("[3,0],[3,0]", "3|4|5|6", "0.00|0.25|0.50|0.75|1.00");
    /* subnormal x (5e-324 apart): no step of a power of ten is that small; as equal values at
     * 0, 0..1 by 0.25 */
    expect_line_ticks("[0,1],[5e-324,1]", "0.00|0.25|0.50|0.75|1.00", "0.00|0.25|0.50|0.75|1.00");
    /* the widest drawable range, both axes: -1e300..1e300 in quarters, in scientific notation */
    expect_line_ticks("[-1e300,-1e300],[1e300,1e300]", "-1e+300|-5e+299|0|5e+299|1e+300",
                      "-1e+300|-5e+299|0|5e+299|1e+300");
    /* a step finer than 6 decimals is written in scientific notation, not as 0.000000.  x
     * 0..1e-9: 2e-10 (5 intervals) and 2.5e-10 (4) both end at 1e-9; the larger step wins; y
     * 0..4e-9: 1e-9 (4 intervals) ends at 4e-9, 2e-9 would too but gives 2 intervals (< 3) */
    expect_line_ticks("[0,0],[1e-9,4e-9]", "0|2.5e-10|5e-10|7.5e-10|1e-09",
                      "0|1e-09|2e-09|3e-09|4e-09");
    /* 0..1.1e-9: the least room past the data at any scale: 2e-10 to 1.2e-9, not 5e-10 to
     * 1.5e-9 (a fixed 1e-9 tolerance made every candidate "as short" here) */
    expect_line_ticks("[0,0],[1.1e-9,1]", "0|2e-10|4e-10|6e-10|8e-10|1e-09",
                      "0.00|0.25|0.50|0.75|1.00");
    /* bars from zero: 5e-324 and 1e-323 as if all were 0, so 0..1 by 0.25 */
    expect_bar_ticks("5e-324,1e-323", "0.00|0.25|0.50|0.75|1.00");
    /* one bar of 1e300 and one of -1e300 */
    expect_bar_ticks("1e300,-1e300", "-1e+300|-5e+299|0|5e+299|1e+300");
    /* all bars 7: 0..7; steps of 1 give 7 intervals and no room past the data (2 would end
     * at 8) */
    expect_bar_ticks("7,7", "0|1|2|3|4|5|6|7");
}

static void expect_unusable(const char *text, const char *msg)
{
    view *chart = json(text);
    gw_error err = {0};
    assert_int_equal(chart_check(chart, &err), GW_EDATA);
    if (!strstr(err.msg, msg))
        fail_msg("'%s' lacks '%s'", err.msg, msg);
    gw_buf out = GW_BUF_INIT;
    assert_int_equal(chart_svg(chart, &out, &err), GW_EDATA);   /* never drawn half-way */
    assert_int_equal(out.len, 0);
    buf_free(&out);
    view_free(chart);
}

static void test_unusable_data(void **state)
{
    (void)state;
    expect_unusable("{\"id\":\"b\",\"kind\":\"bar\",\"bars\":[{\"label\":\"a\",\"value\":1},"
                    "{\"label\":\"b\",\"value\":1e308}]}",
                    "chart 'b': bar 2's value 1e+308 is too large to draw");
    expect_unusable("{\"id\":\"l\",\"kind\":\"line\",\"series\":[{\"name\":\"a\",\"points\":"
                    "[[0,0],[1e301,1]]}]}",
                    "chart 'l': series 1 point 2 [1e+301, 1] is too large to draw");
    expect_unusable("{\"id\":\"l\",\"kind\":\"line\",\"series\":[{\"name\":\"a\",\"points\":[]}]}",
                    "the series hold no points");
    /* within the limit: drawn; a marker past it is left out, the lines still drawn */
    view *ok = json("{\"id\":\"l\",\"kind\":\"line\",\"series\":[{\"name\":\"a\",\"points\":"
                    "[[0,0],[1,1e300]]}],\"marker\":{\"x\":1e308,\"y\":1,\"label\":\"far\"}}");
    gw_error err = {0};
    assert_int_equal(chart_check(ok, &err), GW_OK);
    char *svg = svg_of(ok);
    assert_null(strstr(svg, "class=\"marker\""));
    assert_non_null(strstr(svg, "class=\"series\""));
    free(svg);
    view_free(ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar),    cmocka_unit_test(test_line),
        cmocka_unit_test(test_escaping), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_builder), cmocka_unit_test(test_ticks_bounded),
        cmocka_unit_test(test_unusable_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
