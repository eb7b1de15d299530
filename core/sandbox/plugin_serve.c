/* plugin_serve.c — the plugin host inside its worker process: the requests gpuwise sends over
 * the channel ("load", "eval", "field", "line", "call", "each", "tests", "free"), each served
 * by the plugin's own Lua state (plugin_lua.h), and the KB questions those states ask, passed up
 * the same channel to gpuwise's side of the host (plugin.c), where the caller's function answers
 * them.  Nothing it says about a plugin is taken on trust: whether a plugin is shipped, for one,
 * gpuwise decides from the text it read itself. */
#include "plugin_serve.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/check.h"
#include "plugin_lua.h"
#include "worker.h"

/* The worker's plugins: each its own Lua state, by the id the parent gave it. */
struct states {
    plugin_limits limits;    /* from the fork */
    int fd;
    lplugin **items;
    size_t n;
    view *each_args;         /* the arguments of the last "each" (the parent sends them again
                              * only when they change: every rule sees the same options) */
    view *shared;            /* the value shared by the "each" calls, and its id: sent once
                              * for all the plugins (the workload every rule sees) */
    unsigned long long shared_id;
};

static view *ask_parent(void *ud, const view *q)
{
    struct states *st = ud;
    if (worker_write(st->fd, q) != 0)
        return NULL;
    return worker_read(st->fd);
}

static view *reply_new(lplugin *lp, int rc, const gw_error *err)
{
    view *r = view_map();
    view_map_set_bool(r, "ok", rc == GW_OK);
    if (rc != GW_OK) {
        view_map_set_str(r, "error", err->msg);
        view_map_set_int(r, "code", rc);
        if (lp)
            view_map_set_str(r, "traceback", lplugin_traceback(lp));
    }
    if (lp)
        view_map_set(r, "log", lplugin_take_log(lp));
    return r;
}

/* "load" and "eval": a new state for id, running the text the request carries. */
static int serve_load(struct states *st, const view *req, int eval, size_t id, lplugin **lpp,
                      view **result, gw_error *err)
{
    const char *path = view_str(view_map_get(req, "path"));
    const view *text = view_map_get(req, "text");
    if (id != st->n || !path || !view_str(text))
        return gw_error_set(err, GW_ESOFTWARE, "bad load request");
    st->items = gw_xrealloc(st->items, (st->n + 1) * sizeof *st->items);
    st->items[st->n++] = NULL;
    int rc = lplugin_new(path, &st->limits, ask_parent, st, lpp, err);
    st->items[id] = *lpp;
    if (rc != GW_OK)
        return rc;
    if (eval)
        return lplugin_eval(*lpp, view_str(text), view_str_len(text), result, err);
    gw_buf problems = GW_BUF_INIT;
    size_t n = 0;
    rc = lplugin_load(*lpp, view_str(text), view_str_len(text),
                      view_str(view_map_get(req, "folder_kind")), &problems, &n, err);
    if (rc == GW_OK) {
        plugin_info info;
        lplugin_get_info(*lpp, &info);
        *result = view_map();
        view_map_set_str(*result, "problems", buf_cstr(&problems));
        view_map_set_int(*result, "n_problems", (long long)n);
        view_map_set_str(*result, "name", info.name);
        view_map_set_str(*result, "kind", info.kind);
        view_map_set_str(*result, "version", info.version);
        view_map_set_str(*result, "description", info.description);
        view_map_set_int(*result, "batch_rows", info.batch_rows);
        if (info.prefers_at_most >= 0)
            view_map_set_num(*result, "prefers_at_most", info.prefers_at_most);
    }
    buf_free(&problems);
    return rc;
}

/* Whether the "each" req names a shared value; one it carries replaces the kept one. */
static int keep_shared(struct states *st, const view *req)
{
    const view *id = view_map_get(req, "shared_id");
    if (!id)
        return 0;
    const view *v = view_map_get(req, "shared");
    if (v) {
        view_free(st->shared);
        st->shared = view_copy(v);
        st->shared_id = (unsigned long long)gw_double_to_ll(view_num(id), 0, 1LL << 53, 0);
    }
    return 1;
}

/* What the n calls of an "each" returned, as plugin_call_batch reads it: [i, value] for each
 * call i (from 0) that returned something, nil and an empty table being nothing (most calls of
 * a rule: 6,716 of a grown `rent:*` decision's 7,350).  Takes outs[i]. */
static view *given_results(view **outs, size_t n)
{
    view *given = view_list();
    for (size_t i = 0; i < n; i++) {
        if (view_is_null(outs[i]) || ((view_kind(outs[i]) == VIEW_LIST ||
                                       view_kind(outs[i]) == VIEW_MAP) && !view_len(outs[i]))) {
            view_free(outs[i]);
            continue;
        }
        view *pair = view_list_push(given, view_list());
        view_list_push(pair, view_number((double)i));
        view_list_push(pair, outs[i]);
    }
    return given;
}

/* "call" and "each".  An "each" carries its arguments encoded in the string "args", kept for
 * the next "each", or "args_same" to use them again. */
static int serve_call(struct states *st, lplugin *lp, const view *req, int each, view **result,
                      gw_error *err)
{
    const view *enc = view_map_get(req, "args");
    view *own = NULL;
    if (view_str(enc)) {
        own = worker_decode_own(view_str(enc), view_str_len(enc), err);
        if (!own)
            return GW_ESOFTWARE;
        if (each) {
            view_free(st->each_args);
            st->each_args = own;
            own = NULL;
        }
    }
    const view *args = each ? st->each_args : own;
    size_t n = view_len(args);
    view **av = gw_xcalloc(n ? n : 1, sizeof *av);
    for (size_t i = 0; i < n; i++)
        av[i] = view_list_at(args, i);
    const char *fn = view_str(view_map_get(req, "fn"));
    int rc;
    if (!each)
        rc = lplugin_call(lp, fn, av, n, result, err);
    else {
        view **outs = gw_xcalloc(n ? n : 1, sizeof *outs);
        int has_shared = keep_shared(st, req);
        lplugin_shared sh = {st->shared, st->shared_id};
        rc = lplugin_call_each(lp, fn, av, n, has_shared ? &sh : NULL, outs, err);
        if (rc == GW_OK)
            *result = given_results(outs, n);
        free(outs);
    }
    free(av);
    view_free(own);
    return rc;
}

/* One request, in the worker: the reply, and in *result its value (sent as a message of its
 * own after the reply, so that gpuwise need not copy it out of the reply). */
static view *serve_one(struct states *st, const view *req, view **out)
{
    const char *op = view_str(view_map_get(req, "op"));
    double idn = view_num(view_map_get(req, "id"));
    size_t id = idn >= 0 && idn < 1e9 ? (size_t)idn : (size_t)-1;
    gw_error err = {0};
    view *result = NULL;
    int rc = GW_OK;
    lplugin *lp = id < st->n ? st->items[id] : NULL;
    op = op ? op : "";
    if (!strcmp(op, "load") || !strcmp(op, "eval"))
        rc = serve_load(st, req, op[0] == 'e', id, &lp, &result, &err);
    else if (!lp)
        rc = gw_error_set(&err, GW_ESOFTWARE, "no plugin %zu in this process", id);
    else if (!strcmp(op, "free")) {
        lplugin_free(lp);
        st->items[id] = lp = NULL;
    } else if (!strcmp(op, "field"))
        rc = lplugin_get_field(lp, view_str(view_map_get(req, "name")), &result, &err);
    else if (!strcmp(op, "line"))
        result = view_number(lplugin_function_line(lp, view_str(view_map_get(req, "fn"))));
    else if (!strcmp(op, "call") || !strcmp(op, "each"))
        rc = serve_call(st, lp, req, op[0] == 'e', &result, &err);
    else if (!strcmp(op, "tests")) {
        const view *text = view_map_get(req, "text");
        rc = lplugin_run_tests(lp, view_str(view_map_get(req, "path")), view_str(text),
                               view_str_len(text), &result, &err);
    } else
        rc = gw_error_set(&err, GW_ESOFTWARE, "unknown request '%s'", op);
    view *r = reply_new(lp, rc, &err);
    if (result)
        view_map_set_bool(r, "has_result", 1);
    *out = result;
    return r;
}

/* The worker's main loop: one reply per request until the channel closes. */
int plugin_serve(int fd, void *limits)
{
    struct states states = {*(const plugin_limits *)limits, fd, NULL, 0, NULL, NULL, 0};
    struct states *st = &states;
    for (;;) {
        view *req = worker_read(fd);
        if (!req)
            break;
        worker_cpu_limit(st->limits.wall_seconds + 1);
        view *result = NULL;
        view *r = serve_one(st, req, &result);
        view_free(req);
        int w = worker_write_pair(fd, r, result);
        view_free(r);
        view_free(result);
        if (w != 0)
            break;
    }
    for (size_t i = 0; i < st->n; i++)
        lplugin_free(st->items[i]);
    free(st->items);
    view_free(st->each_args);
    view_free(st->shared);
    return 0;
}
