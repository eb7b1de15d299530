/* test_plugin.c — the plugin host: sandbox, limits, defensive reading of values, the gw module.
 * Every case runs a small chunk through plugin_eval_text with small limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "sandbox/plugin.h"

static const plugin_limits small = {2000000, 16u * 1024 * 1024, 5.0};

/* Runs text; returns the code, *out the view (caller frees), err the message. */
static int eval(const char *text, view **out, gw_error *err)
{
    gw_error_clear(err);
    return plugin_eval_text("t.lua", text, strlen(text), NULL, NULL, &small, out, err);
}

static void expect_error(const char *text, int code, const char *needle)
{
    view *v = NULL;
    gw_error err;
    int rc = eval(text, &v, &err);
    if (rc != code || !strstr(err.msg, needle))
        print_error("chunk: %s\n  rc %d (expected %d), message: %s\n  expected to contain: %s\n",
                    text, rc, code, err.msg, needle);
    assert_int_equal(rc, code);
    assert_non_null(strstr(err.msg, needle));
    assert_null(v);
}

static view *expect_ok(const char *text)
{
    view *v = NULL;
    gw_error err;
    int rc = eval(text, &v, &err);
    if (rc != GW_OK)
        print_error("chunk: %s\n  failed: %s\n", text, err.msg);
    assert_int_equal(rc, GW_OK);
    return v;
}

static void test_values_come_back_as_views(void **state)
{
    (void)state;
    view *v = expect_ok("return {name = 'x', list = {1, 2.5, 'three'}, yes = true}");
    assert_int_equal(view_kind(v), VIEW_MAP);
    assert_string_equal(view_str(view_map_get(v, "name")), "x");
    view *list = view_map_get(v, "list");
    assert_int_equal(view_len(list), 3);
    assert_true(view_num(view_list_at(list, 1)) == 2.5);
    assert_string_equal(view_str(view_list_at(list, 2)), "three");
    assert_true(view_bool_value(view_map_get(v, "yes")));
    /* keys come back sorted, so output does not depend on Lua's hash order */
    assert_string_equal(view_map_key_at(v, 0), "list");
    view_free(v);
}

static void test_errors_name_file_and_line(void **state)
{
    (void)state;
    expect_error("local x = 1\nreturn nil + x", GW_ESOFTWARE,
                 "t.lua:2: attempt to perform arithmetic on a nil value");
    expect_error("return undefined_thing", GW_ESOFTWARE, "t.lua:1: undefined global 'undefined_thing'");
    expect_error("return {", GW_EDATA, "t.lua:1:");
}

static void test_sandbox_has_no_escape_hatches(void **state)
{
    (void)state;
    expect_error("return io.open('/etc/passwd')", GW_ESOFTWARE, "undefined global 'io'");
    expect_error("return require('os')", GW_ESOFTWARE, "undefined global 'require'");
    expect_error("return debug", GW_ESOFTWARE, "undefined global 'debug'");
    expect_error("return package", GW_ESOFTWARE, "undefined global 'package'");
    expect_error("return dofile('x')", GW_ESOFTWARE, "undefined global 'dofile'");
    expect_error("return loadfile('x')", GW_ESOFTWARE, "undefined global 'loadfile'");
    expect_error("return os.execute('true')", GW_ESOFTWARE, "attempt to call a nil value");
    expect_error("return os.getenv('HOME')", GW_ESOFTWARE, "attempt to call a nil value");
    expect_error("return string.dump(print)", GW_ESOFTWARE, "attempt to call a nil value");
    expect_error("collectgarbage('collect')", GW_ESOFTWARE, "only \"count\"");
    expect_error("getmetatable('').__index = {}", GW_ESOFTWARE, "attempt to index a boolean");
    expect_error("string.upper = nil", GW_ESOFTWARE, "read-only");
    expect_error("gw.units = nil", GW_ESOFTWARE, "read-only");
    expect_error("setmetatable(string, {})", GW_ESOFTWARE, "protected metatable");
    /* binary chunks: load refuses them (the escape byte starts every Lua bytecode file) */
    view *v = expect_ok("local f, msg = load('\\27Lua\\84\\0'); return {f == nil, msg}");
    assert_false(view_bool_value(view_list_at(v, 0)) == 0);
    assert_non_null(strstr(view_str(view_list_at(v, 1)), "binary"));
    view_free(v);
    /* text chunks load in the sandbox: the chunk sees no io either */
    expect_error("return load('return io')()", GW_ESOFTWARE, "undefined global 'io'");
    v = expect_ok("return {collectgarbage('count') > 0, math.floor(2.5), #string.rep('a', 3),"
                  " os.date('!%Y', 0), type(coroutine.create)}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_true(view_num(view_list_at(v, 1)) == 2);
    assert_true(view_num(view_list_at(v, 2)) == 3);
    assert_string_equal(view_str(view_list_at(v, 3)), "1970");
    assert_string_equal(view_str(view_list_at(v, 4)), "function");
    view_free(v);
    /* libraries are built with the state (not when first named), then stay: one table, still
     * read-only, whose pairs lists the real functions; the real string library is every
     * string's methods */
    v = expect_ok("local before = rawget(_G, 'utf8'); local u = utf8\n"
                  "local seen = 0; for k, f in pairs(math) do\n"
                  "  if k == 'floor' and f(2.5) == 2 then seen = seen + 1 end end\n"
                  "return {before == u, rawget(_G, 'utf8') == u, utf8 == u, seen,"
                  " ('ab'):upper(), pcall(function() utf8.char = nil end)}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_true(view_bool_value(view_list_at(v, 1)));
    assert_true(view_bool_value(view_list_at(v, 2)));
    assert_true(view_num(view_list_at(v, 3)) == 1);
    assert_string_equal(view_str(view_list_at(v, 4)), "AB");
    assert_false(view_bool_value(view_list_at(v, 5)));
    view_free(v);
    expect_error("return nosuchlib.x", GW_ESOFTWARE, "undefined global 'nosuchlib'");
}

static void test_limits_stop_runaway_code(void **state)
{
    (void)state;
    expect_error("while true do end", GW_ESOFTWARE, "t.lua:1: instruction limit of 2000000");
    expect_error("while true do pcall(function() while true do end end) end", GW_ESOFTWARE,
                 "instruction limit");
    expect_error("local ok = xpcall(function() while true do end end, function() while true do "
                 "end end) while true do end",
                 GW_ESOFTWARE, "instruction limit");
    expect_error("local co = coroutine.wrap(function() while true do end end) co()",
                 GW_ESOFTWARE, "instruction limit");
    expect_error("local t = {} for i = 1, 1e9 do t[i] = i end", GW_ESOFTWARE,
                 "memory limit of 16 MiB");
    expect_error("while true do pcall(string.rep, 'x', 1 << 30) end", GW_ESOFTWARE,
                 "memory limit");
    expect_error("setmetatable({}, {__gc = function() while true do end end})", GW_ESOFTWARE,
                 "__gc finalizers are not allowed");
    /* a __gc added after setmetatable is never called (Lua marks objects at setmetatable) */
    view *v = expect_ok("local mt = {} setmetatable({}, mt) mt.__gc = function() while true do "
                        "end end return 1");
    view_free(v);

    plugin_limits timed = {1000000000000LL, 16u * 1024 * 1024, 0.2};
    gw_error err;
    const char *spin = "while true do end";
    assert_int_equal(plugin_eval_text("t.lua", spin, strlen(spin), NULL, NULL, &timed, &v, &err),
                     GW_ESOFTWARE);
    assert_non_null(strstr(err.msg, "time limit of 0.2 s"));
}

static void test_bad_values_are_refused(void **state)
{
    (void)state;
    expect_error("local t = {} t.self = t return t", GW_EDATA, "t.lua: self: the table contains itself");
    expect_error("local t = {} t[1] = t return t", GW_EDATA, "t.lua[1]: the table contains itself");
    expect_error("return {offers = {{price = 0/0}}}", GW_EDATA,
                 "t.lua: offers[1].price: expected a finite number, got NaN");
    expect_error("return {x = math.huge}", GW_EDATA, "infinity");
    expect_error("return {name = 'a\\0b'}", GW_EDATA, "name: a string contains a NUL byte");
    expect_error("return {'\\xff\\xfe'}", GW_EDATA, "[1]: a string is not valid UTF-8");
    /* 2 MiB = 2097152 bytes, over the 1 MiB cap */
    expect_error("return string.rep('x', 2 * 1024 * 1024)", GW_EDATA, "a string of 2097152 bytes");
    expect_error("local t = {} for i = 1, 100 do t = {t} end return t", GW_EDATA, "nested deeper");
    expect_error("return {print}", GW_EDATA, "expected data, got a function");
    expect_error("return {1, 2, x = 3}", GW_EDATA, "mixes list items");
    /* the same table twice (not a cycle) is fine */
    view *v = expect_ok("local a = {1} return {a, a}");
    assert_int_equal(view_len(v), 2);
    view_free(v);
}

static void test_gw_units_csv_json(void **state)
{
    (void)state;
    view *v = expect_ok("local n, u = gw.units.parse('24576 MiB') "
                        "return {n, u, gw.units.parse('N/A') == nil}");
    assert_true(view_num(view_list_at(v, 0)) == 24576);
    assert_string_equal(view_str(view_list_at(v, 1)), "MiB");
    assert_true(view_bool_value(view_list_at(v, 2)));
    view_free(v);

    /* BOM, a quoted field with a comma and a doubled quote, CRLF line ends */
    v = expect_ok("local rows = gw.csv.rows('\\239\\187\\191GPU,Price\\r\\n\"A100, 80GB\",1.5\\r\\n"
                  "\"say \"\"hi\"\"\",2\\r\\n') return rows");
    assert_int_equal(view_len(v), 2);
    assert_string_equal(view_str(view_map_get(view_list_at(v, 0), "GPU")), "A100, 80GB");
    assert_string_equal(view_str(view_map_get(view_list_at(v, 0), "Price")), "1.5");
    assert_string_equal(view_str(view_map_get(view_list_at(v, 1), "GPU")), "say \"hi\"");
    view_free(v);

    v = expect_ok("return gw.csv.parse('a,b\\n1,2\\n')");
    assert_int_equal(view_len(v), 2);
    assert_string_equal(view_str(view_list_at(view_list_at(v, 1), 1)), "2");
    view_free(v);

    v = expect_ok("local t = gw.json.decode('{\"a\": [1, 2], \"b\": \"x\"}') "
                  "return {t.a[2], t.b, gw.json.encode({k = 'v'}), select(2, gw.json.decode('{'))}");
    assert_true(view_num(view_list_at(v, 0)) == 2);
    assert_string_equal(view_str(view_list_at(v, 1)), "x");
    assert_string_equal(view_str(view_list_at(v, 2)), "{\"k\":\"v\"}");
    assert_non_null(view_str(view_list_at(v, 3)));
    view_free(v);
}

static void test_gw_html_xpath(void **state)
{
    (void)state;
    view *v = expect_ok(
        "local doc = gw.html.parse('<table><tr><td class=\"gpu\">H100</td><td>2.49</td></tr>"
        "<tr><td class=\"gpu\">A100</td><td>1.29</td></tr></table>') "
        "local out = {} for _, row in ipairs(doc:xpath('//tr')) do "
        "  local cells = row:xpath('td') "
        "  out[#out + 1] = {cells[1]:text(), cells[1]:attr('class'), cells[2]:text(), row:name()} "
        "end return out");
    assert_int_equal(view_len(v), 2);
    view *row = view_list_at(v, 1);
    assert_string_equal(view_str(view_list_at(row, 0)), "A100");
    assert_string_equal(view_str(view_list_at(row, 1)), "gpu");
    assert_string_equal(view_str(view_list_at(row, 2)), "1.29");
    assert_string_equal(view_str(view_list_at(row, 3)), "tr");
    view_free(v);
    v = expect_ok("local doc, msg = gw.xml.parse('<a><b>') return {doc == nil, type(msg)}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_string_equal(view_str(view_list_at(v, 1)), "string");
    view_free(v);
    expect_error("return gw.xml.parse('<a/>'):xpath('///[')", GW_ESOFTWARE, "xpath");
}

static void test_log_and_print(void **state)
{
    (void)state;
    gw_error err;
    plugin_host *host;
    const char *dir = "tests/fixtures/plugins/unit";
    assert_int_equal(plugin_host_new(&dir, 1, NULL, NULL, &small, &host, &err), GW_OK);
    assert_int_equal(plugin_host_load_all(host, &err), GW_OK);
    plugin *p = plugin_find(host, "unit-pricing");
    assert_non_null(p);
    plugin_info info;
    plugin_get_info(p, &info);
    assert_string_equal(info.kind, "pricing");
    assert_string_equal(info.version, "1.0");
    view *args[1] = {view_map()};
    view *out = NULL;
    assert_int_equal(plugin_call(p, "offers", args, 1, &out, &err), GW_OK);
    assert_int_equal(view_len(out), 1);
    assert_true(view_num(view_map_get(view_list_at(out, 0), "price_per_hour")) == 1.25);
    view *log = plugin_take_log(p);
    assert_int_equal(view_len(log), 2);
    assert_string_equal(view_str(view_list_at(log, 0)), "making offers\t1");
    view_free(log);
    view_free(out);
    assert_int_equal(plugin_call(p, "nothing", args, 1, &out, &err), GW_ESOFTWARE);
    assert_non_null(strstr(err.msg, "has no function 'nothing'"));
    view_free(args[0]);
    plugin_host_free(host);
}

/* ---- KB questions: the host forwards them to the function its caller gave ---- */

/* What the fake answerer was last asked: "question:key", e.g. "gpu.resolve:A10". */
static char asked[200];

/* A plugin_kb_answer that knows one card and records each question; ctx is the count it
 * answers gpu.resolve with.  Answers NULL for the name "none". */
static view *fake_kb_answer(void *ctx, const view *question)
{
    const char *what = view_str(view_map_get(question, "question"));
    const char *name = view_str(view_map_get(question, "name"));
    const char *id = view_str(view_map_get(question, "id"));
    snprintf(asked, sizeof asked, "%s:%s", what ? what : "", name ? name : id ? id : "");
    if (name && !strcmp(name, "none"))
        return NULL;
    view *a = view_map();
    if (name) {
        view_map_set_str(a, "id", "fake-card");
        view_map_set_int(a, "count", *(const int *)ctx);
    } else {
        view *g = view_map_set(a, "gpu", view_map());
        view_map_set_str(g, "name", "Fake Card");
        view_map_set_num(g, "memory_gb", 24);
    }
    return a;
}

static void test_kb_questions_go_to_the_callers_function(void **state)
{
    (void)state;
    int count = 3;
    view *v = NULL;
    gw_error err;
    const char *chunk =
        "local id, n = gw.gpu.resolve('A10') return {id, n, gw.kb.gpu(id).memory_gb}";
    assert_int_equal(plugin_eval_text("t.lua", chunk, strlen(chunk), fake_kb_answer, &count,
                                      &small, &v, &err), GW_OK);
    assert_string_equal(view_str(view_list_at(v, 0)), "fake-card");
    assert_true(view_num(view_list_at(v, 1)) == 3);
    assert_true(view_num(view_list_at(v, 2)) == 24);
    assert_string_equal(asked, "kb.gpu:fake-card");   /* the last question, as the plugin asked */
    view_free(v);

    /* an answerer that gives nothing, and no answerer at all: the plugin gets nil and why */
    chunk = "return {select(2, gw.gpu.resolve('none'))}";
    assert_int_equal(plugin_eval_text("t.lua", chunk, strlen(chunk), fake_kb_answer, &count,
                                      &small, &v, &err), GW_OK);
    assert_string_equal(asked, "gpu.resolve:none");
    assert_string_equal(view_str(view_list_at(v, 0)), "no knowledge base is open");
    view_free(v);
    v = expect_ok("return {select(2, gw.gpu.resolve('A10'))}");
    assert_string_equal(view_str(view_list_at(v, 0)), "no knowledge base is open");
    view_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_come_back_as_views),
        cmocka_unit_test(test_errors_name_file_and_line),
        cmocka_unit_test(test_sandbox_has_no_escape_hatches),
        cmocka_unit_test(test_limits_stop_runaway_code),
        cmocka_unit_test(test_bad_values_are_refused),
        cmocka_unit_test(test_gw_units_csv_json),
        cmocka_unit_test(test_gw_html_xpath),
        cmocka_unit_test(test_log_and_print),
        cmocka_unit_test(test_kb_questions_go_to_the_callers_function),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
