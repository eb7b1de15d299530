/* test_mustache.c — the template engine: the official Mustache spec (required modules and
 * inheritance, read from $SHARED/testdata/mustache-spec when present) and gpuwise's own rules:
 * Markdown escaping, strict partials, error positions, and the output cap over every buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/mustache.h"

/* Partials from a view map (name -> template text). */
static int map_loader(void *data, const char *name, char **text, size_t *len, gw_error *err)
{
    (void)err;
    const view *v = view_map_get((const view *)data, name);
    *text = NULL;
    if (view_str(v)) {
        *len = view_str_len(v);
        *text = gw_xstrndup(view_str(v), *len);
    }
    return GW_OK;
}

/* Renders tmpl with JSON data; returns the output (caller frees) or NULL with err set. */
static char *render(const char *tmpl, const char *json, const char *partials_json,
                    mustache_escape esc, int strict, gw_error *err)
{
    view *data = view_from_json(json, strlen(json), err);
    view *partials = partials_json ? view_from_json(partials_json, strlen(partials_json), err)
                                   : view_map();
    assert_non_null(data);
    assert_non_null(partials);
    mustache_opts opts = {esc, strict, map_loader, partials, 0, 0};
    gw_buf out = GW_BUF_INIT;
    int rc = mustache_render("t.mustache", tmpl, strlen(tmpl), data, &opts, &out, err);
    view_free(data);
    view_free(partials);
    if (rc != GW_OK) {
        buf_free(&out);
        return NULL;
    }
    return buf_detach(&out);
}

static void expect(const char *tmpl, const char *json, const char *want)
{
    gw_error err = {0};
    char *got = render(tmpl, json, NULL, MUSTACHE_ESCAPE_HTML, 1, &err);
    if (!got)
        fail_msg("%s: %s", tmpl, err.msg);
    assert_string_equal(got, want);
    free(got);
}

static void expect_error(const char *tmpl, const char *partials, const char *want_msg)
{
    gw_error err = {0};
    char *got = render(tmpl, "{}", partials, MUSTACHE_ESCAPE_HTML, 1, &err);
    assert_null(got);
    assert_int_equal(err.code, GW_EDATA);
    if (!strstr(err.msg, want_msg))
        fail_msg("error '%s' lacks '%s'", err.msg, want_msg);
}

/* ---- the official spec ---- */

static int run_spec_file(const char *dir, const char *file, int *cases)
{
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *text;
    size_t len;
    if (gw_read_file(path, &text, &len) != 0) {
        print_error("cannot read %s\n", path);
        return 1;
    }
    gw_error err = {0};
    view *spec = view_from_json(text, len, &err);
    free(text);
    if (!spec) {
        print_error("%s: %s\n", path, err.msg);
        return 1;
    }
    int failures = 0;
    view *tests = view_map_get(spec, "tests");
    for (size_t i = 0; i < view_len(tests); i++) {
        view *t = view_list_at(tests, i);
        const char *tmpl = view_str(view_map_get(t, "template"));
        const char *want = view_str(view_map_get(t, "expected"));
        view *partials = view_map_get(t, "partials");
        view *empty = view_map();
        mustache_opts opts = {MUSTACHE_ESCAPE_HTML, 0, map_loader, partials ? partials : empty, 0, 0};
        gw_buf out = GW_BUF_INIT;
        gw_error e = {0};
        int rc = mustache_render("spec", tmpl, view_str_len(view_map_get(t, "template")),
                                 view_map_get(t, "data"), &opts, &out, &e);
        (*cases)++;
        if (rc != GW_OK || strcmp(buf_cstr(&out), want) != 0) {
            failures++;
            print_error("spec %s / %s: got [%s]%s%s, expected [%s]\n", file,
                        view_str(view_map_get(t, "name")), buf_cstr(&out),
                        rc != GW_OK ? " error: " : "", rc != GW_OK ? e.msg : "", want);
        }
        buf_free(&out);
        view_free(empty);
    }
    view_free(spec);
    return failures;
}

static void test_spec(void **state)
{
    (void)state;
    static const char *const files[] = {"comments.json",  "delimiters.json", "interpolation.json",
                                        "inverted.json",  "partials.json",   "sections.json",
                                        "~inheritance.json"};
    const char *shared = getenv("SHARED");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/testdata/mustache-spec", shared ? shared : "../shared");
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/sections.json", dir);
    FILE *f = fopen(probe, "r");
    if (!f) {
        printf("skip - mustache spec: ../shared/testdata not found\n");
        skip();
    }
    fclose(f);
    int failures = 0, cases = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        failures += run_spec_file(dir, files[i], &cases);
    printf("mustache spec: %d of %d cases pass\n", cases - failures, cases);
    /* 12 + 14 + 42 + 22 + 12 + 34 required cases and 27 inheritance cases in the spec files. */
    assert_true(cases >= 100);
    assert_int_equal(failures, 0);
}

/* ---- our own cases, which always run ---- */

static void test_basics(void **state)
{
    (void)state;
    expect("Hello {{name}}!", "{\"name\":\"<b>&\"}", "Hello &lt;b&gt;&amp;!");
    expect("{{{name}}} {{&name}}", "{\"name\":\"<b>\"}", "<b> <b>");
    expect("{{a.b.c}}", "{\"a\":{\"b\":{\"c\":42}}}", "42");
    expect("{{#list}}{{.}},{{/list}}", "{\"list\":[1,2.5,\"x\"]}", "1,2.5,x,");
    expect("{{^empty}}none{{/empty}}", "{\"empty\":[]}", "none");
    expect("a\n  {{#x}}\nyes\n  {{/x}}\nb\n", "{\"x\":true}", "a\nyes\nb\n");
    expect("{{=<% %>=}}<% x %> {{x}}", "{\"x\":1}", "1 {{x}}");
    expect("{{! a comment }}text", "{}", "text");
}

static void test_markdown_escape(void **state)
{
    (void)state;
    gw_buf out = GW_BUF_INIT;
    /* mid-line ("x " before it): only what is syntax anywhere in a line is escaped; "(" cannot
     * open a link once "[" and "]" are escaped, "#" is a heading only where a block begins */
    buf_puts(&out, "x ");
    const char *s = "[x](javascript:alert(1)) | # <b>&\nnext";
    mustache_escape_markdown(&out, s, strlen(s));
    assert_string_equal(buf_cstr(&out),
                        "x \\[x\\](javascript:alert(1)) \\| # &lt;b&gt;&amp; next");
    buf_reset(&out);
    buf_puts(&out, "x ");
    s = "*_`~!{}+-.=^\\ 10.3 data-parallel (A100)";
    mustache_escape_markdown(&out, s, strlen(s));
    assert_string_equal(buf_cstr(&out),
                        "x \\*\\_\\`\\~!{}+-.=^\\\\ 10.3 data-parallel (A100)");
    /* where a block begins (start of the text, a new line, after a list or quote marker), a
     * first character that would start a heading, list, underline or code block is escaped */
    struct {
        const char *before, *value, *want;
    } starts[] = {
        {"", "# not a heading", "\\# not a heading"},
        {"a\n", "- not a list", "a\n\\- not a list"},
        {"a\n  ", "+ x", "a\n  \\+ x"},
        {"- ", "1. x", "- 1\\. x"},
        {"> ", "12) x", "> 12\\) x"},
        {"a\n", "===", "a\n\\==="},
        {"a\n\n", "    code", "a\n\n&#32;   code"},
        {"1. ", "2026-10 is a date", "1. 2026-10 is a date"},
        {"Total: ", "# 5", "Total: # 5"},
    };
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        buf_reset(&out);
        buf_puts(&out, starts[i].before);
        mustache_escape_markdown(&out, starts[i].value, strlen(starts[i].value));
        assert_string_equal(buf_cstr(&out), starts[i].want);
    }
    buf_free(&out);

    gw_error err = {0};
    char *got = render("| {{cell}} |", "{\"cell\":\"a | b\"}", NULL, MUSTACHE_ESCAPE_MARKDOWN, 1,
                       &err);
    assert_non_null(got);
    assert_string_equal(got, "| a \\| b |");
    free(got);
    /* A value holding Mustache tags is not expanded again. */
    got = render("{{v}}", "{\"v\":\"{{title}}\"}", NULL, MUSTACHE_ESCAPE_HTML, 1, &err);
    assert_string_equal(got, "{{title}}");
    free(got);
}

static void test_escape_for(void **state)
{
    (void)state;
    assert_int_equal(mustache_escape_for("a/page.html.mustache"), MUSTACHE_ESCAPE_HTML);
    assert_int_equal(mustache_escape_for("datasheet.md.mustache"), MUSTACHE_ESCAPE_MARKDOWN);
    assert_int_equal(mustache_escape_for("notes.txt.mustache"), MUSTACHE_ESCAPE_NONE);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("line1\n  {{#gpus}}x", NULL, "t.mustache:2:3: unclosed section 'gpus'");
    expect_error("{{#a}}\n{{/b}}", NULL, "t.mustache:2:1: closing tag 'b' does not match 'a' opened at 1:1");
    expect_error("ab {{/a}}", NULL, "t.mustache:1:4: closing tag 'a' closes nothing");
    expect_error("x\nab {{name", NULL, "t.mustache:2:4: unclosed tag");
    expect_error("x {{>nowhere}}", NULL, "t.mustache:1:3: unknown partial 'nowhere'");
    /* An error inside a partial names the partial. */
    expect_error("{{>p}}", "{\"p\":\"ok\\n{{#x}}\"}", "p:2:1: unclosed section 'x'");
    /* A partial that includes itself forever stops with a message instead of a crash. */
    expect_error("{{>p}}", "{\"p\":\"{{>p}}\"}", "nested more than 100 deep");
    /* 60 levels of data, each calling the next level twice: 2^60 calls must stop, not hang. */
    gw_buf deep = GW_BUF_INIT;
    for (int i = 0; i < 60; i++)
        buf_puts(&deep, "{\"a\":");
    buf_puts(&deep, "false");
    for (int i = 0; i < 60; i++)
        buf_puts(&deep, "}");
    gw_error deep_err = {0};
    char *deep_out = render("{{>p}}", buf_cstr(&deep), "{\"p\":\"{{#a}}{{>p}}{{>p}}{{/a}}\"}",
                            MUSTACHE_ESCAPE_NONE, 1, &deep_err);
    assert_null(deep_out);
    assert_non_null(strstr(deep_err.msg, "too much work"));
    buf_free(&deep);

    /* Spec mode: a missing partial renders empty. */
    gw_error err = {0};
    char *got = render("[{{>nowhere}}]", "{}", NULL, MUSTACHE_ESCAPE_HTML, 0, &err);
    assert_string_equal(got, "[]");
    free(got);
}

/* Renders tmpl with data {"items": [1 x 100]} and partials, the output capped at cap bytes:
 * the output's length, or -1 with err set. */
static long render_capped(const char *tmpl, const char *partials_json, size_t cap, gw_error *err)
{
    gw_buf items = GW_BUF_INIT;
    buf_puts(&items, "{\"items\":[1");
    for (int i = 1; i < 100; i++)
        buf_puts(&items, ",1");
    buf_puts(&items, "]}");
    view *data = view_from_json(items.data, items.len, err);
    view *partials = view_from_json(partials_json, strlen(partials_json), err);
    assert_non_null(data);
    assert_non_null(partials);
    mustache_opts opts = {MUSTACHE_ESCAPE_NONE, 1, map_loader, partials, cap, 0};
    gw_buf out = GW_BUF_INIT;
    int rc = mustache_render("t.mustache", tmpl, strlen(tmpl), data, &opts, &out, err);
    long n = rc == GW_OK ? (long)out.len : -1;
    view_free(data);
    view_free(partials);
    buf_free(&items);
    buf_free(&out);
    return n;
}

/* The cap at exactly what a render holds at its peak passes; one byte less fails, naming it. */
static void expect_cap(const char *tmpl, const char *partials, size_t peak, long out_len)
{
    gw_error err = {0};
    long n = render_capped(tmpl, partials, peak, &err);
    if (n != out_len)
        fail_msg("%s with a cap of %zu: %ld bytes (%s), expected %ld", tmpl, peak, n, err.msg,
                 out_len);
    assert_int_equal(render_capped(tmpl, partials, peak - 1, &err), -1);
    assert_int_equal(err.code, GW_EDATA);
    char want[100];
    snprintf(want, sizeof want, "asks for more than %zu bytes of output", peak - 1);
    if (!strstr(err.msg, want))
        fail_msg("'%s' lacks '%s'", err.msg, want);
}

static void test_output_cap(void **state)
{
    (void)state;
    /* A standalone partial indented by 4: 100 lines "    x\n", 6 bytes each = 600. */
    expect_cap("    {{>q}}\n", "{\"q\":\"{{#items}}\\nx\\n{{/items}}\\n\"}", 600, 600);
    /* A standalone block indented by 2: its content "yy\n" x 100 = 300 bytes is held while it is
     * re-indented into 100 x "  yy\n" = 500: 800 at the peak, though 500 are written. */
    expect_cap("  {{$b}}\n{{#items}}\nyy\n{{/items}}\n  {{/b}}\n", "{}", 800, 500);
    /* A parent's block indented by 4, overridden: 300 held, 100 x "    yy\n" = 700 written. */
    expect_cap("{{<p}}\n{{$b}}\n{{#items}}\nyy\n{{/items}}\n{{/b}}\n{{/p}}\n",
               "{\"p\":\"    {{$b}}\\n    {{/b}}\\n\"}", 1000, 700);
    /* The last node passing the cap is an error too, not a silently cut output. */
    gw_error err = {0};
    assert_int_equal(render_capped("{{#items}}abc{{/items}}", "{}", 299, &err), -1);
    assert_non_null(strstr(err.msg, "more than 299 bytes"));
    /* The default cap is 256 MiB. */
    assert_int_equal(MUSTACHE_MAX_OUTPUT, 268435456);
}

static void test_inheritance(void **state)
{
    (void)state;
    gw_error err = {0};
    const char *parts = "{\"base\":\"# {{title}}\\n{{$intro}}Default intro.\\n{{/intro}}End.\\n\"}";
    char *got = render("{{<base}}\n{{$intro}}\nOur own intro.\n{{/intro}}\n{{/base}}\n",
                       "{\"title\":\"T\"}", parts, MUSTACHE_ESCAPE_MARKDOWN, 1, &err);
    assert_non_null(got);
    assert_string_equal(got, "# T\nOur own intro.\nEnd.\n");
    free(got);
}

static void test_partial_indent(void **state)
{
    (void)state;
    gw_error err = {0};
    char *got = render("list:\n  {{>item}}\nend\n", "{\"v\":\"a\\nb\"}",
                       "{\"item\":\"- {{v}}\\n- two\\n\"}", MUSTACHE_ESCAPE_NONE, 1, &err);
    assert_non_null(got);
    /* Indentation goes in front of each template line, not inside the value's own lines. */
    assert_string_equal(got, "list:\n  - a\nb\n  - two\nend\n");
    free(got);
}

/* Renders tmpl with JSON data and mustache_opts.list_flags on or off. */
static char *render_flags(const char *tmpl, const char *json, int list_flags)
{
    gw_error err = {0};
    view *data = view_from_json(json, strlen(json), &err);
    assert_non_null(data);
    mustache_opts opts = {MUSTACHE_ESCAPE_NONE, 1, NULL, NULL, 0, list_flags};
    gw_buf out = GW_BUF_INIT;
    assert_int_equal(mustache_render("t.mustache", tmpl, strlen(tmpl), data, &opts, &out, &err),
                     GW_OK);
    view_free(data);
    return buf_detach(&out);
}

/* list_flags: "has_X" is true in a map whose X is a non-empty list and that has no has_X of
 * its own; anything else falls through to the outer contexts, as a missing name does. */
static void test_list_flags(void **state)
{
    (void)state;
    const char *json = "{\"rows\": [{\"name\": \"a\"}], \"empty\": [], \"given\": [1],"
                       " \"has_given\": false, \"text\": \"t\", \"sub\": {\"items\": [2]}}";
    /* rows: non-empty -> R; empty: [] -> nothing; given: its own false wins; text: not a list;
     * missing: nothing; inside a row (no rows of its own) the root's flag; dotted: sub's. */
    const char *tmpl = "{{#has_rows}}R{{/has_rows}}{{#has_empty}}E{{/has_empty}}"
                       "{{#has_given}}G{{/has_given}}{{#has_text}}T{{/has_text}}"
                       "{{#has_missing}}M{{/has_missing}}"
                       "{{#rows}}[{{name}}{{#has_rows}}+{{/has_rows}}]{{/rows}}"
                       "{{#sub.has_items}}S{{/sub.has_items}}{{^has_empty}}!{{/has_empty}}";
    char *on = render_flags(tmpl, json, 1);
    assert_string_equal(on, "R[a+]S!");
    char *off = render_flags(tmpl, json, 0);
    assert_string_equal(off, "[a]!");
    free(on);
    free(off);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basics),         cmocka_unit_test(test_markdown_escape),
        cmocka_unit_test(test_escape_for),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_inheritance),    cmocka_unit_test(test_partial_indent),
        cmocka_unit_test(test_output_cap),     cmocka_unit_test(test_spec),
        cmocka_unit_test(test_list_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
