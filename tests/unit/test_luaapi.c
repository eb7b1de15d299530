/* test_luaapi.c — the `gw` module as plugins see it, through a real sandboxed Lua state made the
 * way plugin.c makes every one (plugin_eval_text, and a plugin host for gw.log): GPU names and
 * KB lookups against a small KB, JSON, CSV, units, XML/HTML, the log, and the module being
 * read-only.  Every expected value is worked out by hand from the chunk beside it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ingest/kb_answer.h"
#include "kb/kb.h"
#include "sandbox/plugin.h"
#include "base/view.h"

#define FIX "tests/fixtures/kb/"

static const plugin_limits small = {20000000, 32u * 1024 * 1024, 10.0};
static char tmpdir[256];
static kb *fixture;

static int setup(void **state)
{
    static const char *const files[] = {FIX "sources.csv", FIX "gpus.csv", FIX "aliases.csv"};
    char path[512], *texts[3];
    size_t lens[3];
    gw_error err = {0};
    (void)state;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/gwlua.XXXXXX", base);
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(path, sizeof path, "%s/kb.db", tmpdir);
    if (kb_open(path, KB_CREATE, &fixture, &err) != GW_OK)
        return -1;
    for (size_t i = 0; i < 3; i++)
        if (gw_read_file(files[i], &texts[i], &lens[i]) != 0)
            return -1;
    int rc = kb_begin(fixture, &err);
    if (rc == GW_OK)
        rc = kb_import_texts(fixture, 3, files, (const char *const *)texts, lens, NULL, &err);
    if (rc == GW_OK)
        rc = kb_commit(fixture, &err);
    for (size_t i = 0; i < 3; i++)
        free(texts[i]);
    return rc == GW_OK ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    (void)state;
    kb_close(fixture);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs a chunk in a fresh sandbox over k (may be NULL); returns what it returns. */
static view *run(kb *k, const char *chunk)
{
    view *v = NULL;
    gw_error err = {0};
    if (plugin_eval_text("t.lua", chunk, strlen(chunk), kb_answer_question, k, &small, &v,
                         &err) != GW_OK)
        fail_msg("chunk: %s\n  failed: %s", chunk, err.msg);
    return v;
}

static void run_fails(const char *chunk, const char *needle)
{
    view *v = NULL;
    gw_error err = {0};
    int rc = plugin_eval_text("t.lua", chunk, strlen(chunk), kb_answer_question, fixture, &small,
                              &v, &err);
    if (rc == GW_OK || !strstr(err.msg, needle))
        fail_msg("chunk: %s\n  rc %d, message: %s\n  expected: %s", chunk, rc, err.msg, needle);
    assert_null(v);
}

static const char *str_at(const view *list, size_t i)
{
    return view_str(view_list_at(list, i));
}

static double num_at(const view *list, size_t i)
{
    return view_num(view_list_at(list, i));
}

/* ---- gw.gpu.resolve, gw.kb.gpu ---- */

static void test_gpu_resolve(void **state)
{
    (void)state;
    /* a count in front and a rounded memory size: the 141 GB H200 SXM, 8 of them */
    view *v = run(fixture, "return {gw.gpu.resolve('8xH200_140GB_SXM')}");
    assert_int_equal(view_len(v), 2);
    assert_string_equal(str_at(v, 0), "h200-sxm");
    assert_true(num_at(v, 1) == 8);
    view_free(v);
    /* an alias; no count is 1 */
    v = run(fixture, "return {gw.gpu.resolve('NVIDIA GeForce RTX 3090')}");
    assert_string_equal(str_at(v, 0), "rtx-3090");
    assert_true(num_at(v, 1) == 1);
    view_free(v);
    /* unknown: nil and the nearest names; ambiguous: nil and the candidates */
    v = run(fixture, "local id, msg = gw.gpu.resolve('RTX 3900') return {id == nil, msg}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_non_null(strstr(str_at(v, 1), "no GPU named 'RTX 3900'; did you mean: rtx-3090"));
    view_free(v);
    v = run(fixture, "local id, msg = gw.gpu.resolve('A100') return {id == nil, msg}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_string_equal(str_at(v, 1), "'A100' is ambiguous: a100-pcie-40gb, a100-pcie-80gb, "
                                      "a100-sxm4-40gb, a100-sxm4-80gb");
    view_free(v);
    /* without a KB the lookups say so instead of failing */
    v = run(NULL, "return {select(2, gw.gpu.resolve('A10')), select(2, gw.kb.gpu('a10'))}");
    assert_string_equal(str_at(v, 0), "no knowledge base is open");
    assert_string_equal(str_at(v, 1), "no knowledge base is open");
    view_free(v);
    run_fails("return gw.gpu.resolve()", "bad argument #1 to 'resolve'");
    /* questions a plugin cannot ask through gw (a worker that broke the protocol) are refused */
    view *q = view_map();
    view_map_set_str(q, "question", "kb.drop");
    view *a = kb_answer_question(fixture, q);
    assert_string_equal(view_str(view_map_get(a, "error")), "unknown question");
    view_free(a);
    view_map_set_str(q, "question", "kb.gpu");   /* without its id */
    a = kb_answer_question(fixture, q);
    assert_string_equal(view_str(view_map_get(a, "error")), "unknown question");
    assert_null(view_map_get(a, "gpu"));
    view_free(a);
    view_free(q);
}

static void test_kb_gpu_follows_the_description(void **state)
{
    (void)state;
    /* rtx-3090 in gpus.csv: every column has a value but fp8_tflops */
    view *v = run(fixture, "local g = gw.kb.gpu('rtx-3090') local keys = {} "
                           "for k in pairs(g) do keys[#keys + 1] = k end table.sort(keys) "
                           "return {g = g, keys = keys, n = #keys, ecc = math.type(g.ecc)}");
    view *g = view_map_get(v, "g");
    assert_true(view_num(view_map_get(v, "n")) == 24);
    assert_string_equal(view_str(view_map_get(g, "name")), "GeForce RTX 3090");
    assert_string_equal(view_str(view_map_get(g, "vendor")), "NVIDIA");
    assert_string_equal(view_str(view_map_get(g, "sparsity")), "2:4");
    assert_string_equal(view_str(view_map_get(g, "source")), "ga102-wp");
    assert_true(view_num(view_map_get(g, "memory_bandwidth_gbs")) == 936);
    assert_true(view_num(view_map_get(g, "nvlink_gbs")) == 112.5);
    assert_true(view_num(view_map_get(g, "ecc")) == 0);   /* a flag reads as a number */
    assert_string_equal(view_str(view_map_get(v, "ecc")), "float");
    assert_null(view_map_get(g, "fp8_tflops"));           /* unknown: absent */
    /* every key is a column of the gpus table, each with its type */
    view *keys = view_map_get(v, "keys");
    for (size_t i = 0; i < view_len(keys); i++) {
        const kb_column *c = kb_table_column(KB_GPUS, str_at(keys, i));
        assert_non_null(c);
        assert_int_equal(view_kind(view_map_get(g, c->name)),
                         c->type == KB_TEXT ? VIEW_STRING : VIEW_NUMBER);
    }
    view_free(v);
    v = run(fixture, "local g, msg = gw.kb.gpu('rtx-9999') return {g == nil, msg}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_string_equal(str_at(v, 1), "no GPU with id 'rtx-9999'");
    view_free(v);
}

/* ---- gw.json ---- */

static void test_json(void **state)
{
    (void)state;
    view *v = run(NULL, "local t = gw.json.decode('{\"a\": [1, 2.5, {\"b\": null}], "
                        "\"s\": \"\\\\u00e9\", \"t\": true}') "
                        "return {#t.a, t.a[2], t.a[3].b == nil, t.s, t.t}");
    assert_true(num_at(v, 0) == 3);
    assert_true(num_at(v, 1) == 2.5);
    assert_true(view_bool_value(view_list_at(v, 2)));
    assert_string_equal(str_at(v, 3), "\xc3\xa9");   /* U+00E9 in UTF-8 */
    assert_true(view_bool_value(view_list_at(v, 4)));
    view_free(v);
    /* keys come out sorted; a list stays a list */
    v = run(NULL, "return gw.json.encode({b = 1, a = {1, 2}, c = 'x'})");
    assert_string_equal(view_str(v), "{\"a\":[1,2],\"b\":1,\"c\":\"x\"}");
    view_free(v);
    v = run(NULL, "local t = {} t.self = t local s, msg = gw.json.encode(t) "
                  "return {s == nil, msg}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_non_null(strstr(str_at(v, 1), "json.encode"));
    view_free(v);
    v = run(NULL, "local t, msg = gw.json.decode('[1, 2') return {t == nil, type(msg)}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_string_equal(str_at(v, 1), "string");
    view_free(v);
    /* what encode writes, decode reads back */
    v = run(NULL, "local s = gw.json.encode({gpu = 'H100', n = 8, spot = false}) "
                  "local t = gw.json.decode(s) return {t.gpu, t.n, t.spot}");
    assert_string_equal(str_at(v, 0), "H100");
    assert_true(num_at(v, 1) == 8);
    assert_false(view_bool_value(view_list_at(v, 2)));
    view_free(v);
}

/* ---- gw.csv ---- */

static void test_csv(void **state)
{
    (void)state;
    /* unquoted fields are trimmed, quoted ones kept; a newline inside quotes stays; the first of
     * two columns named alike wins; a short row has only the fields it gives */
    view *v = run(NULL, "return gw.csv.rows('gpu, price ,gpu\\n  A10 , 1.5 ,x\\n"
                        "\" L4 \",\"2\\n3\",y\\nT4\\n')");
    assert_int_equal(view_len(v), 3);
    view *r1 = view_list_at(v, 0), *r2 = view_list_at(v, 1), *r3 = view_list_at(v, 2);
    assert_string_equal(view_str(view_map_get(r1, "gpu")), "A10");
    assert_string_equal(view_str(view_map_get(r1, "price")), "1.5");
    assert_string_equal(view_str(view_map_get(r2, "gpu")), " L4 ");
    assert_string_equal(view_str(view_map_get(r2, "price")), "2\n3");
    assert_string_equal(view_str(view_map_get(r3, "gpu")), "T4");
    assert_null(view_map_get(r3, "price"));
    view_free(v);
    /* parse: rows as lists, the header first; an empty text has no rows */
    v = run(NULL, "local all = gw.csv.parse('a,b\\r\\n1,\"x,y\"\\r\\n') "
                  "return {#all, all[1][2], all[2][2], #gw.csv.parse(''), #gw.csv.rows('')}");
    assert_true(num_at(v, 0) == 2);
    assert_string_equal(str_at(v, 1), "b");
    assert_string_equal(str_at(v, 2), "x,y");
    assert_true(num_at(v, 3) == 0);
    assert_true(num_at(v, 4) == 0);
    view_free(v);
    run_fails("return gw.csv.rows(nil)", "bad argument #1 to 'rows'");
}

/* ---- gw.units ---- */

static void test_units(void **state)
{
    (void)state;
    view *v = run(NULL, "local out = {} "
                        "for _, s in ipairs({'24576 MiB', '35.15 W', '16x', '1,234.5 GB'}) do "
                        "  local n, u = gw.units.parse(s) out[#out + 1] = {n, u} end "
                        "return {out, gw.units.parse('N/A') == nil, "
                        "gw.units.parse('[N/A]') == nil, gw.units.parse('') == nil}");
    view *out = view_list_at(v, 0);
    assert_true(num_at(view_list_at(out, 0), 0) == 24576);
    assert_string_equal(str_at(view_list_at(out, 0), 1), "MiB");
    assert_true(num_at(view_list_at(out, 1), 0) == 35.15);
    assert_string_equal(str_at(view_list_at(out, 1), 1), "W");
    assert_true(num_at(view_list_at(out, 2), 0) == 16);
    assert_string_equal(str_at(view_list_at(out, 2), 1), "x");
    assert_true(num_at(view_list_at(out, 3), 0) == 1234.5);   /* the thousands comma goes */
    assert_string_equal(str_at(view_list_at(out, 3), 1), "GB");
    for (size_t i = 1; i <= 3; i++)
        assert_true(view_bool_value(view_list_at(v, i)));
    view_free(v);
}

/* ---- gw.xml, gw.html ---- */

static void test_xml(void **state)
{
    (void)state;
    view *v = run(NULL, "local doc = gw.xml.parse('<nvidia_smi_log>\\n<gpu id=\"0\">\\n"
                        "  <product_name>  NVIDIA H100 80GB HBM3 </product_name>\\n</gpu>\\n"
                        "<gpu id=\"1\"/></nvidia_smi_log>', 'q.xml') "
                        "local gpus = doc:xpath('//gpu') "
                        "local name = gpus[1]:xpath('product_name')[1] "
                        "return {#gpus, doc:root():name(), gpus[2]:attr('id'), "
                        "gpus[1]:attr('none') == nil, name:text(), name:line(), gpus[2]:text()}");
    assert_true(num_at(v, 0) == 2);
    assert_string_equal(str_at(v, 1), "nvidia_smi_log");
    assert_string_equal(str_at(v, 2), "1");
    assert_true(view_bool_value(view_list_at(v, 3)));
    assert_string_equal(str_at(v, 4), "NVIDIA H100 80GB HBM3");   /* trimmed */
    assert_true(num_at(v, 5) == 3);                               /* the third line */
    assert_string_equal(str_at(v, 6), "");
    view_free(v);
    /* a broken document: nil and a message with the name and line */
    v = run(NULL, "local doc, msg = gw.xml.parse('<a>\\n<b></a>', 'bad.xml') "
                  "return {doc == nil, msg}");
    assert_true(view_bool_value(view_list_at(v, 0)));
    assert_non_null(strstr(str_at(v, 1), "bad.xml"));
    view_free(v);
    /* HTML is repaired as browsers do: the unclosed cells still make a row of two */
    v = run(NULL, "local doc = gw.html.parse('<table><tr><td>H100<td>2.49</table>') "
                  "local cells = doc:xpath('//tr/td') return {#cells, cells[2]:text()}");
    assert_true(num_at(v, 0) == 2);
    assert_string_equal(str_at(v, 1), "2.49");
    view_free(v);
}

/* ---- gw.log, and the module is read-only ---- */

static void test_log_and_read_only(void **state)
{
    (void)state;
    char dir[400], path[500];
    snprintf(dir, sizeof dir, "%s/plugins", tmpdir);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/logger.lua", dir);
    const char *text =
        "return {name = 'logger', kind = 'pricing', version = '1', description = 'logs',\n"
        "  offers = function(ctx)\n"
        "    gw.log('a', 1, 2.5, true, nil, {})\n"
        "    print('via print')\n"
        "    for i = 1, 1005 do gw.log(i) end\n"
        "    return {}\n"
        "  end}\n";
    assert_int_equal(gw_write_file_atomic(path, text, strlen(text)), 0);
    const char *dirs[] = {dir};
    plugin_host *h;
    gw_error err = {0};
    assert_int_equal(plugin_host_new(dirs, 1, kb_answer_question, fixture, &small, &h, &err),
                     GW_OK);
    assert_int_equal(plugin_host_load_all(h, &err), GW_OK);
    plugin *p = plugin_find(h, "logger");
    view *args[1] = {view_map()};
    view *out = NULL;
    assert_int_equal(plugin_call(p, "offers", args, 1, &out, &err), GW_OK);
    view *log = plugin_take_log(p);
    /* tab-separated, tables by their type; at most 1000 lines a call: 2 + 998 numbers */
    assert_int_equal(view_len(log), 1000);
    assert_string_equal(str_at(log, 0), "a\t1\t2.5\ttrue\tnil\ttable");
    assert_string_equal(str_at(log, 1), "via print");
    assert_string_equal(str_at(log, 999), "998");
    view_free(log);
    log = plugin_take_log(p);   /* taking it empties it */
    assert_int_equal(view_len(log), 0);
    view_free(log);
    view_free(out);
    view_free(args[0]);
    plugin_host_free(h);

    run_fails("gw.kb.gpu = nil", "read-only");
    run_fails("gw.json = {}", "read-only");
    run_fails("gw.csv.rows = print", "read-only");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_resolve),
        cmocka_unit_test(test_kb_gpu_follows_the_description),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_xml),
        cmocka_unit_test(test_log_and_read_only),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
