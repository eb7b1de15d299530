/* test_chart.c — SVG charts: well-formed XML, accessible names, values and units written out,
 * series told apart without colour, the break-even marker, escaping, determinism, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "chart.h"

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
    view_free(chart);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar),    cmocka_unit_test(test_line),
        cmocka_unit_test(test_escaping), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_builder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
