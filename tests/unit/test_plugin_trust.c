/* test_plugin_trust.c — gpuwise's own process decides whether a plugin is shipped, never the
 * worker.  This binary links its own plugin_serve in place of the real one (the linker takes it
 * before libgw.a's): a worker that has been taken over and says whatever it likes.  Whatever it
 * says, a plugin is shipped exactly when the text gpuwise read is a shipped chunk's, and a name
 * that could lead out of the prices cache is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/embedded.h"
#include "sandbox/plugin.h"
#include "sandbox/plugin_serve.h"
#include "sandbox/plugin_values.h"
#include "sandbox/worker.h"

static int lie_compiled;   /* what the lying worker claims: 1 "compiled", 0 not */
static const char *lie_name = "liar";   /* the name it says the plugin has, with no problem */

/* The taken-over worker: every "load" succeeds with a valid plugin table that claims to be
 * shipped (or not) as lie_compiled says; every other request is answered ok. */
int plugin_serve(int fd, void *limits)
{
    (void)limits;
    view *req;
    while ((req = worker_read(fd))) {
        const char *op = view_str(view_map_get(req, "op"));
        view *reply = view_map(), *result = NULL;
        view_map_set_bool(reply, "ok", 1);
        view_map_set(reply, "log", view_list());
        if (op && !strcmp(op, "load")) {
            result = view_map();
            view_map_set_str(result, "problems", "");
            view_map_set_int(result, "n_problems", 0);
            view_map_set_str(result, "name", lie_name);
            view_map_set_str(result, "kind", "pricing");
            view_map_set_str(result, "version", "1");
            view_map_set_str(result, "description", "says it is shipped");
            view_map_set_int(result, "batch_rows", 0);
            view_map_set_bool(result, "compiled", lie_compiled);
            view_map_set_bool(reply, "has_result", 1);
        }
        worker_write(fd, reply);
        if (result)
            worker_write(fd, result);
        view_free(reply);
        view_free(result);
        view_free(req);
    }
    return 0;
}

/* Writes len bytes of text to a new temporary plugin file; its path in path (64 bytes). */
static void write_plugin(char path[64], const char *text, size_t len)
{
    snprintf(path, 64, "/tmp/gw-trust-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* Loads path through the host; returns plugin_info.compiled. */
static int shipped_says_host(const char *path)
{
    plugin_host *host = NULL;
    gw_error err;
    plugin_limits l = {2000000, 16u * 1024 * 1024, 5.0};
    assert_int_equal(plugin_host_new(NULL, 0, NULL, NULL, &l, &host, &err), GW_OK);
    gw_buf problems = GW_BUF_INIT;
    size_t n = 0;
    plugin *p = NULL;
    int rc = plugin_host_check_file(host, path, &problems, &n, &p, &err);
    if (rc != GW_OK)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, GW_OK);
    plugin_info info;
    plugin_get_info(p, &info);
    assert_string_equal(info.name, "liar");   /* the lying worker did answer */
    buf_free(&problems);
    int compiled = info.compiled;
    plugin_host_free(host);
    return compiled;
}

/* A user plugin whose worker claims "compiled": still not shipped. */
static void test_worker_claim_ignored(void **state)
{
    (void)state;
    static const char text[] = "return { name = 'liar', kind = 'pricing' }\n";
    char path[64];
    write_plugin(path, text, sizeof text - 1);
    lie_compiled = 1;
    assert_int_equal(shipped_says_host(path), 0);
    unlink(path);
}

/* A shipped plugin's text with one byte changed: not shipped, whatever the worker says. */
static void test_one_byte_changed_is_not_shipped(void **state)
{
    (void)state;
    assert_true(gw_n_embedded_chunks > 0);
    const embedded_chunk *e = &gw_embedded_chunks[0];
    char *text = malloc(e->text_len);
    memcpy(text, e->text, e->text_len);
    text[e->text_len / 2] ^= 1;   /* one bit of one byte in the middle */
    char path[64];
    write_plugin(path, text, e->text_len);
    lie_compiled = 1;
    assert_int_equal(shipped_says_host(path), 0);
    unlink(path);
    free(text);
}

/* A shipped plugin's exact text: shipped, though the worker says it is not. */
static void test_exact_text_is_shipped(void **state)
{
    (void)state;
    const embedded_chunk *e = &gw_embedded_chunks[gw_n_embedded_chunks - 1];
    char path[64];
    write_plugin(path, e->text, e->text_len);
    lie_compiled = 0;
    assert_int_equal(shipped_says_host(path), 1);
    unlink(path);
}

/* A name the worker should have listed as a problem and did not: refused all the same. */
static void test_bad_name_refused_whatever_the_worker_says(void **state)
{
    (void)state;
    static const char text[] = "return { name = '..', kind = 'pricing' }\n";
    char path[64];
    write_plugin(path, text, sizeof text - 1);
    lie_name = "..";
    plugin_host *host = NULL;
    gw_error err;
    plugin_limits l = {2000000, 16u * 1024 * 1024, 5.0};
    assert_int_equal(plugin_host_new(NULL, 0, NULL, NULL, &l, &host, &err), GW_OK);
    gw_buf problems = GW_BUF_INIT;
    size_t n = 0;
    plugin *p = NULL;
    assert_int_equal(plugin_host_check_file(host, path, &problems, &n, &p, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "plugin name '..': use lower-case letters, digits and '-'"));
    assert_null(p);
    buf_free(&problems);
    plugin_host_free(host);
    lie_name = "liar";
    unlink(path);
}

/* What a worker sends back is checked again in gpuwise, and a bad value is named by its place:
 * maps by ".key", lists by "[n]" from 1, under the label. */
static void test_returned_values_named_by_place(void **state)
{
    (void)state;
    gw_error err = {0};
    const char *json = "{\"rows\": [{\"name\": \"ok\"}, {\"name\": \"bad\\u0001\"}]}";
    view *v = view_from_json(json, strlen(json), &err);
    assert_non_null(v);
    assert_int_equal(plugin_values_check(v, "p: f()", &err), GW_EDATA);
    assert_string_equal(err.msg, "p: f().rows[2].name: control character U+0001 in a string "
                                 "(terminal escapes and control characters are refused)");
    view_free(v);
    view *list = view_list();
    view_list_push(view_list_push(list, view_list()), view_number(1.0 / 0.0));
    assert_int_equal(plugin_values_check(list, "q", &err), GW_EDATA);
    assert_string_equal(err.msg, "q[1][1]: expected a finite number");
    view_free(list);
    const char *fine_json = "[1, \"two\", {\"three\": [3]}]";
    view *fine = view_from_json(fine_json, strlen(fine_json), &err);
    assert_int_equal(plugin_values_check(fine, "r", &err), GW_OK);
    view_free(fine);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_claim_ignored),
        cmocka_unit_test(test_one_byte_changed_is_not_shipped),
        cmocka_unit_test(test_exact_text_is_shipped),
        cmocka_unit_test(test_bad_name_refused_whatever_the_worker_says),
        cmocka_unit_test(test_returned_values_named_by_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
