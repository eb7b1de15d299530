/* test_plugin_kinds.c — loading only the plugin kinds a command needs, arguments shared by many
 * calls, read-only arguments, and view map keys (pooled or not).  Fixtures:
 * tests/fixtures/plugin_kinds, two plugin folders searched in order (first/, then second/), and
 * tests/fixtures/plugin_readonly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/plugin.h"

#define DIR_FIRST "tests/fixtures/plugin_kinds/first"
#define DIR_SECOND "tests/fixtures/plugin_kinds/second"

static plugin_host *new_host(void)
{
    const char *dirs[] = {DIR_FIRST, DIR_SECOND};
    plugin_host *h = NULL;
    gw_error err;
    assert_int_equal(plugin_host_new(dirs, 2, NULL, NULL, NULL, &h, &err), GW_OK);
    return h;
}

static size_t count_kind(const plugin_host *h, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < plugin_count(h); i++) {
        plugin_info info;
        plugin_get_info(plugin_at(h, i), &info);
        n += strcmp(info.kind, kind) == 0;
    }
    return n;
}

/* The rules of h, and the one named name among them. */
static plugin *load_rule(plugin_host *h, const char *name)
{
    gw_error err;
    assert_int_equal(plugin_host_load_kind(h, "rule", &err), GW_OK);
    plugin *p = plugin_find_kind(h, name, "rule");
    assert_non_null(p);
    return p;
}

/* The workload the call tests share, {name = "team"}, in *w (freed by the caller). */
static plugin_arg *team(view **w)
{
    *w = view_map();
    view_map_set_str(*w, "name", "team");
    return plugin_arg_new(*w);
}

static void test_rules_alone_skip_other_kinds(void **state)
{
    (void)state;
    plugin_host *h = new_host();
    gw_error err;
    /* first/pricing/broken.lua does not load, but the rules never read it */
    assert_int_equal(plugin_host_load_kind(h, "rule", &err), GW_OK);
    /* echo (first wins over second's echo) and quiet */
    assert_int_equal(plugin_count(h), 2);
    assert_int_equal(count_kind(h, "rule"), 2);
    plugin_info info;
    plugin_get_info(plugin_find_kind(h, "echo", "rule"), &info);
    assert_string_equal(info.version, "1");
    assert_non_null(strstr(info.overrides, "second/rules/echo.lua"));
    assert_null(plugin_find_kind(h, "card", "checklist"));

    /* checklists later: the folder's and the flat one; asking twice loads nothing new */
    assert_int_equal(plugin_host_load_kind(h, "checklist", &err), GW_OK);
    assert_int_equal(plugin_host_load_kind(h, "checklist", &err), GW_OK);
    assert_int_equal(plugin_host_load_kind(h, "rule", &err), GW_OK);
    assert_int_equal(plugin_count(h), 4);
    assert_int_equal(count_kind(h, "checklist"), 2);
    assert_non_null(plugin_find_kind(h, "flat", "checklist"));

    /* everything else: the broken pricing plugin is now read, and its syntax error reported */
    assert_int_equal(plugin_host_load_all(h, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "broken.lua"));
    plugin_host_free(h);

    h = new_host();
    assert_int_equal(plugin_host_load_kind(h, "nonsense", &err), GW_ESOFTWARE);
    assert_int_equal(plugin_host_load_all(h, &err), GW_EDATA);
    plugin_host_free(h);
}

static void test_shared_argument_is_converted_once(void **state)
{
    (void)state;
    plugin_host *h = new_host();
    gw_error err;
    plugin *echo = load_rule(h, "echo");
    view *w;
    plugin_arg *shared = team(&w);
    const char *ids[] = {"a", "b", "c"};
    for (size_t i = 0; i < 3; i++) {
        view *o = view_map();
        view_map_set_str(o, "id", ids[i]);
        view *args[] = {o};
        view *out = NULL;
        assert_int_equal(plugin_call_each(echo, "evaluate", args, 1, shared, &out, &err), GW_OK);
        /* "<id> <workload name> <calls so far in this state>" */
        char want[32];
        snprintf(want, sizeof want, "%s team %zu", ids[i], i + 1);
        assert_string_equal(view_str(view_map_get(view_list_at(out, 0), "because")), want);
        view_free(out);
        view_free(o);
    }
    plugin_arg_free(shared);

    /* a new shared value (even at the same address) is converted again */
    view_map_set_str(w, "name", "lab");
    shared = plugin_arg_new(w);
    view *o = view_map();
    view_map_set_str(o, "id", "d");
    view *args[] = {o};
    view *out = NULL;
    assert_int_equal(plugin_call_each(echo, "evaluate", args, 1, shared, &out, &err), GW_OK);
    assert_string_equal(view_str(view_map_get(view_list_at(out, 0), "because")), "d lab 4");
    view_free(out);

    /* plugin_call is the same call without a shared argument: workload is nil, so it fails */
    assert_int_equal(plugin_call(echo, "evaluate", args, 1, &out, &err), GW_ESOFTWARE);
    assert_non_null(strstr(err.msg, "echo.lua"));
    view_free(o);
    plugin_arg_free(shared);
    view_free(w);
    plugin_host_free(h);
}

/* Calls the probe rule (tests/fixtures/plugin_readonly) with option.op = op; returns the code
 * and, on success, the first verdict's because (or "" for none) in because. */
static int probe(plugin *pl, const plugin_arg *shared, const char *op, char *because, size_t n,
                 gw_error *err)
{
    view *o = view_map();
    view_map_set_str(o, "id", "r");
    view_map_set_str(o, "op", op);
    view_map_set_str(o, "gpu", "rtx-3090");
    view_map_set_int(o, "count", 4);
    view_map_set(o, "provider", view_null());
    view *cost = view_map_set(o, "cost", view_map());
    view_map_set_num(cost, "total", 1234.5);
    view_map_set_num(cost, "upfront", 6000);
    view *tags = view_map_set(o, "tags", view_list());
    view_list_push(tags, view_string("a"));
    view_list_push(tags, view_string("b"));
    view_list_push(tags, view_string("c"));
    view *args[] = {o};
    view *out = NULL;
    int rc = plugin_call_each(pl, "evaluate", args, 1, shared, &out, err);
    const char *s = view_str(view_map_get(view_list_at(out, 0), "because"));
    snprintf(because, n, "%s", s ? s : "");
    view_free(out);
    view_free(o);   /* freed at once: the probe's kept tables must not reach it again */
    return rc;
}

static void test_readonly_arguments(void **state)
{
    (void)state;
    const char *dirs[] = {"tests/fixtures/plugin_readonly"};
    plugin_host *h = NULL;
    gw_error err;
    assert_int_equal(plugin_host_new(dirs, 1, NULL, NULL, NULL, &h, &err), GW_OK);
    plugin *pl = load_rule(h, "probe");
    view *w;
    plugin_arg *shared = team(&w);
    char got[256];

    /* fields read on demand, a null field is nil, a nested table read twice is one table,
     * next() sees nothing and # of a map is 0; the shared workload is an ordinary table */
    assert_int_equal(probe(pl, shared, "read", got, sizeof got, &err), GW_OK);
    assert_string_equal(got, "rtx-3090|1234.5|nil|true|table|true|0|team");

    /* pairs lists every non-null field (nested ones as tables); ipairs and # on a list; 2.0
     * indexes a list as 2 does, "1" does not (as in any table) */
    assert_int_equal(probe(pl, shared, "pairs", got, sizeof got, &err), GW_OK);
    assert_string_equal(got, "cost=table count=4 gpu=rtx-3090 id=r op=pairs tags=table "
                             "#tags=3 a,b,c,bnil");

    assert_int_equal(probe(pl, shared, "write", got, sizeof got, &err), GW_ESOFTWARE);
    assert_non_null(strstr(err.msg, "cannot set 'gpu': this table is read-only"));
    assert_non_null(strstr(err.msg, "probe.lua:"));

    /* a table kept past its call (its view is freed by then) refuses reads, nested ones too */
    assert_int_equal(probe(pl, shared, "keep", got, sizeof got, &err), GW_OK);
    assert_string_equal(got, "");
    assert_int_equal(probe(pl, shared, "stale", got, sizeof got, &err), GW_ESOFTWARE);
    assert_non_null(strstr(err.msg, "valid only during the call it was given to"));
    assert_int_equal(probe(pl, shared, "stale-nested", got, sizeof got, &err), GW_ESOFTWARE);
    assert_non_null(strstr(err.msg, "valid only during the call it was given to"));

    plugin_arg_free(shared);
    view_free(w);
    plugin_host_free(h);
}

static void test_map_keys_short_and_long(void **state)
{
    (void)state;
    /* 70 characters: longer than the pooled keys, so the map owns its copy */
    const char *long_key = "k123456789012345678901234567890123456789012345678901234567890123456789";
    view *m = view_map();
    view_map_set_int(m, "cost", 1);
    view_map_set_int(m, long_key, 2);
    view_map_set_int(m, "cost", 3);        /* replaces, in place */
    view_map_set_int(m, long_key, 4);
    assert_int_equal(view_len(m), 2);
    assert_string_equal(view_map_key_at(m, 0), "cost");
    assert_true(view_num(view_map_get(m, "cost")) == 3);
    assert_true(view_num(view_map_get(m, long_key)) == 4);
    assert_null(view_map_get(m, "never-used-as-a-key"));

    view *c = view_copy(m);
    view_free(m);
    assert_int_equal(view_len(c), 2);
    assert_string_equal(view_map_key_at(c, 1), long_key);
    assert_true(view_num(view_map_get(c, long_key)) == 4);
    view_map_set_int(c, "cost", 5);
    assert_int_equal(view_len(c), 2);
    gw_buf json = GW_BUF_INIT;
    view_to_json(c, &json, 0);
    char want[200];
    snprintf(want, sizeof want, "{\"cost\":5,\"%s\":4}", long_key);
    assert_string_equal(buf_cstr(&json), want);
    buf_free(&json);
    view_free(c);
}

/* A shared value crosses to the worker once, with the first rule's call; a second plugin of
 * the same worker reads it there all the same, converted into its own state. */
static void test_shared_argument_reaches_every_plugin(void **state)
{
    (void)state;
    plugin_host *h = new_host();
    gw_error err;
    plugin *echo = load_rule(h, "echo");
    char path[] = "/tmp/gw-shout-XXXXXX.lua";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    const char *text = "return { name = 'shout', kind = 'rule', version = '1', description = 'x',"
                       " evaluate = function(o, w) return {{effect = 'warn',"
                       " because = o.id .. ' ' .. w.name .. '!'}} end }\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    plugin *shout = NULL;
    assert_int_equal(plugin_host_load_file(h, path, &shout, &err), GW_OK);
    unlink(path);
    view *w;
    plugin_arg *shared = team(&w);
    view *o = view_map();
    view_map_set_str(o, "id", "a");
    plugin_batch *b = plugin_batch_begin(1);
    plugin_batch_push(b, o);
    view *first = NULL, *second = NULL;
    assert_int_equal(plugin_call_batch(echo, "evaluate", b, shared, &first, &err), GW_OK);
    assert_int_equal(plugin_call_batch(shout, "evaluate", b, shared, &second, &err), GW_OK);
    /* each gives one pair, [0, verdicts]: option 0 said something; echo says "<id> <workload
     * name> <calls so far>", shout "<id> <workload name>!" */
    assert_int_equal(view_len(first), 1);
    assert_true(view_num(view_list_at(view_list_at(first, 0), 0)) == 0);
    const view *said = view_list_at(view_list_at(view_list_at(first, 0), 1), 0);
    assert_string_equal(view_str(view_map_get(said, "because")), "a team 1");
    assert_int_equal(view_len(second), 1);
    said = view_list_at(view_list_at(view_list_at(second, 0), 1), 0);
    assert_string_equal(view_str(view_map_get(said, "because")), "a team!");
    view_free(first);
    view_free(second);
    plugin_batch_free(b);
    view_free(o);
    plugin_arg_free(shared);
    view_free(w);
    plugin_host_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_alone_skip_other_kinds),
        cmocka_unit_test(test_shared_argument_is_converted_once),
        cmocka_unit_test(test_shared_argument_reaches_every_plugin),
        cmocka_unit_test(test_readonly_arguments),
        cmocka_unit_test(test_map_keys_short_and_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
