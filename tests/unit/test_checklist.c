/* test_checklist.c — the shipped checklists: each loads, passes its own NAME_test.lua in the
 * sandbox, and becomes a model; answers from an inspection, and evaluate()'s contract. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "inspect/checklist.h"
#include "inspect/inspect.h"
#include "inspect/nvsmi.h"
#include "sandbox/plugin.h"

#define DIR "plugins/checklists/"

static const char *const shipped[] = {"used-card", "a100-rental", "multi-gpu-build", "buy-vs-rent"};
#define N_SHIPPED (sizeof shipped / sizeof shipped[0])

/* A host with only the given checklist files loaded. */
static plugin_host *host_with(const char *const *files, size_t n)
{
    plugin_host *host = NULL;
    gw_error err = {0};
    if (plugin_host_new(NULL, 0, NULL, NULL, NULL, &host, &err) != GW_OK)
        fail_msg("plugin_host_new: %s", err.msg);
    for (size_t i = 0; i < n; i++) {
        plugin *p = NULL;
        if (plugin_host_load_file(host, files[i], &p, &err) != GW_OK)
            fail_msg("%s: %s", files[i], err.msg);
    }
    return host;
}

static plugin_host *shipped_host(void)
{
    static char paths[N_SHIPPED][128];
    const char *files[N_SHIPPED];
    for (size_t i = 0; i < N_SHIPPED; i++) {
        snprintf(paths[i], sizeof paths[i], DIR "%s.lua", shipped[i]);
        files[i] = paths[i];
    }
    return host_with(files, N_SHIPPED);
}

static const view *item(const view *model, const char *id)
{
    const view *items = view_map_get(model, "items");
    for (size_t i = 0; i < view_len(items); i++)
        if (strcmp(view_str(view_map_get(view_list_at(items, i), "id")), id) == 0)
            return view_list_at(items, i);
    fail_msg("no item %s", id);
    return NULL;
}

static const char *answer_status(const view *model, const char *id)
{
    return view_str(view_map_get(view_map_get(item(model, id), "answer"), "status"));
}

static void test_each_passes_its_own_tests(void **state)
{
    (void)state;
    plugin_host *host = shipped_host();
    for (size_t i = 0; i < N_SHIPPED; i++) {
        char test_path[128];
        snprintf(test_path, sizeof test_path, DIR "%s_test.lua", shipped[i]);
        plugin *p = plugin_find(host, shipped[i]);
        assert_non_null(p);
        view *results = NULL;
        gw_error err = {0};
        if (plugin_run_tests(p, test_path, &results, &err) != GW_OK)
            fail_msg("%s: %s", test_path, err.msg);
        assert_true(view_len(results) >= 2);
        for (size_t t = 0; t < view_len(results); t++) {
            const view *r = view_list_at(results, t);
            if (!view_bool_value(view_map_get(r, "ok")))
                fail_msg("%s %s: %s", shipped[i], view_str(view_map_get(r, "name")),
                         view_str(view_map_get(r, "message")));
            printf("ok - %s %s\n", shipped[i], view_str(view_map_get(r, "name")));
        }
        view_free(results);
    }
    plugin_host_free(host);
}

static void test_models(void **state)
{
    (void)state;
    plugin_host *host = shipped_host();
    /* item counts as written in the files */
    static const size_t counts[N_SHIPPED] = {23, 12, 12, 11};
    for (size_t i = 0; i < N_SHIPPED; i++) {
        view *m = NULL;
        gw_error err = {0};
        assert_int_equal(checklist_view(host, shipped[i], NULL, &m, &err), GW_OK);
        assert_int_equal(view_len(view_map_get(m, "items")), counts[i]);
        assert_string_equal(view_str(view_map_get(m, "name")), shipped[i]);
        assert_true(view_num(view_map_get(m, "answered")) == 0);
        assert_true(view_is_null(view_map_get(view_list_at(view_map_get(m, "items"), 0), "answer")));
        view_free(m);
    }
    view *list = checklist_list(host);
    assert_int_equal(view_len(list), 4);
    assert_string_equal(view_str(view_map_get(view_list_at(list, 0), "name")), "a100-rental");
    assert_string_equal(view_str(view_map_get(view_list_at(list, 3), "name")), "used-card");
    view_free(list);
    view *m = NULL;
    gw_error err = {0};
    assert_int_equal(checklist_view(host, "nope", NULL, &m, &err), GW_ENOTFOUND);
    assert_non_null(strstr(err.msg, "there are: a100-rental, buy-vs-rent, multi-gpu-build, used-card"));
    plugin_host_free(host);
}

static view *inspection_of(const char *dump)
{
    nvsmi_log *log = NULL;
    gw_error err = {0};
    if (nvsmi_read_file(dump, &log, &err) != GW_OK)
        fail_msg("%s", err.msg);
    inspect_result *r = NULL;
    assert_int_equal(inspect_run(log, NULL, NULL, &r, &err), GW_OK);
    view *v = inspect_view(r);
    inspect_result_free(r);
    nvsmi_log_free(log);
    return v;
}

static void test_answers_from_a_dump(void **state)
{
    (void)state;
    plugin_host *host = shipped_host();
    view *insp = inspection_of("tests/fixtures/nvsmi/mining-3090.xml");
    view *m = NULL;
    gw_error err = {0};
    assert_int_equal(checklist_view(host, "used-card", insp, &m, &err), GW_OK);
    assert_string_equal(answer_status(m, "auto-power-limit"), "WARN");
    assert_string_equal(answer_status(m, "auto-fan"), "WARN");
    assert_string_equal(answer_status(m, "auto-throttle"), "PASS");
    /* evaluate(): power limit lowered + fan high at idle = two signs */
    assert_string_equal(answer_status(m, "look-mining-signs"), "FAIL");
    assert_true(view_is_null(view_map_get(item(m, "run-vram-test"), "answer")));
    /* 11 automatic items and the mining signs */
    assert_true(view_num(view_map_get(m, "answered")) == 12);
    view_free(m);
    view_free(insp);

    /* two GPUs: the worst one answers */
    insp = inspection_of("tests/fixtures/nvsmi/remapped-unc-a100.xml");
    assert_int_equal(checklist_view(host, "a100-rental", insp, &m, &err), GW_OK);
    assert_string_equal(answer_status(m, "health"), "FAIL");
    const char *text = view_str(view_map_get(view_map_get(item(m, "health"), "answer"), "text"));
    assert_non_null(strstr(text, "GPU 0: PASS"));
    assert_non_null(strstr(text, "GPU 1: FAIL"));
    view_free(m);
    view_free(insp);
    plugin_host_free(host);
}

static void test_evaluate_contract(void **state)
{
    (void)state;
    static const char *const liars[] = {
        "return { { id = 'a', status = 'MAYBE', answer = 'x' } }",
        "return { { id = 'zz', status = 'PASS', answer = 'x' } }",
        "return 'everything is fine'",
    };
    static const char *const why[] = {"status must be", "names no item", "must return a list"};
    for (size_t i = 0; i < sizeof liars / sizeof liars[0]; i++) {
        char path[] = "/tmp/gw-checklist-XXXXXX.lua";
        int fd = mkstemps(path, 4);
        assert_true(fd >= 0);
        gw_buf src = GW_BUF_INIT;
        buf_printf(&src, "return { name = 'liar', kind = 'checklist', version = '1', "
                         "description = 'd', items = { { id = 'a', question = 'q', "
                         "how_to_check = 'h', severity = 'low' } }, "
                         "evaluate = function(inspection) %s end }\n", liars[i]);
        assert_int_equal(gw_write_file_atomic(path, src.data, src.len), 0);
        buf_free(&src);
        const char *files[] = {path};
        plugin_host *host = host_with(files, 1);
        view *insp = inspection_of("tests/fixtures/nvsmi/healthy-3090.xml");
        view *m = NULL;
        gw_error err = {0};
        assert_int_equal(checklist_view(host, "liar", insp, &m, &err), GW_ESOFTWARE);
        assert_null(m);
        if (!strstr(err.msg, why[i]))
            fail_msg("liar %zu: '%s' lacks '%s'", i, err.msg, why[i]);
        view_free(insp);
        plugin_host_free(host);
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_passes_its_own_tests),
        cmocka_unit_test(test_models),
        cmocka_unit_test(test_answers_from_a_dump),
        cmocka_unit_test(test_evaluate_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
