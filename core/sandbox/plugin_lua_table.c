/* plugin_lua_table.c — the table a plugin returns, inside its worker: its shape checked at load
 * for the four kinds (identity, the functions each kind needs, a checklist's items, an
 * importer's batch_rows, a pricing plugin's urls), its fields read, its functions called (one
 * by one, or once per option in one protected call), its log taken and its test file run.  The
 * Lua state itself (allocator, limits, sandbox, protected calls) is plugin_lua.c's. */
#include "plugin_lua.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "plugin.h"
#include "plugin_lua_state.h"

static void view_free_void(void *v) { view_free(v); }

/* Raw field read: a plugin's metatables never run while the host reads its table. */
static int raw_field(lua_State *L, int t, const char *key)
{
    t = lua_absindex(L, t);   /* a relative index would point at the key once it is pushed */
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

/* The first line of text where `key =` appears, else the last line with a `return`. */
static int field_line(const char *text, const char *key)
{
    int line = 1, ret_line = 0;
    size_t kl = key ? strlen(key) : 0;   /* NULL: only the return line is wanted */
    for (const char *s = text; *s; s++) {
        if (s == text || s[-1] == '\n') {
            const char *t = s;
            while (*t == ' ' || *t == '\t')
                t++;
            if (strncmp(t, "return", 6) == 0)
                ret_line = line;
        }
        if (*s == '\n')
            line++;
        else if (key && strncmp(s, key, kl) == 0 &&
                 (s == text || !(s[-1] == '_' || s[-1] == '.' || (unsigned)((s[-1] | 32) - 'a') < 26u ||
                                 (unsigned)(s[-1] - '0') < 10u))) {
            const char *t = s + kl;
            while (*t == ' ' || *t == '\t')
                t++;
            if (*t == '=' && t[1] != '=')
                return line;
        }
    }
    return ret_line ? ret_line : 1;
}

static void problem(gw_buf *problems, size_t *n, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void problem(gw_buf *problems, size_t *n, const char *path, int line, const char *fmt, ...)
{
    va_list ap;
    char msg[600];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    buf_printf(problems, "%s:%d: %s\n", path, line, msg);
    (*n)++;
}


struct validate_args {
    lplugin *p;
    const char *text;
    const char *folder_kind;   /* the kind the folder implies, or NULL */
    gw_buf *problems;
    size_t n;
};

static void require_function(struct validate_args *a, int t, const char *fn, int optional)
{
    lua_State *L = a->p->L;
    int type = raw_field(L, t, fn);
    if (type == LUA_TFUNCTION || (optional && type == LUA_TNIL)) {
        lua_pop(L, 1);
        return;
    }
    problem(a->problems, &a->n, a->p->path, field_line(a->text, fn),
            "a %s plugin needs a function '%s' (got %s)", a->p->kind, fn, lua_typename(L, type));
    lua_pop(L, 1);
}

static void validate_items(struct validate_args *a, int t)
{
    lua_State *L = a->p->L;
    int line = field_line(a->text, "items");
    if (raw_field(L, t, "items") != LUA_TTABLE) {
        problem(a->problems, &a->n, a->p->path, line,
                "a checklist needs 'items', a list of {id, question, how_to_check, severity}");
        lua_pop(L, 1);
        return;
    }
    int items = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, items);
    if (n == 0)
        problem(a->problems, &a->n, a->p->path, line, "items: the list is empty");
    static const char *const fields[] = {"id", "question", "how_to_check", "severity"};
    for (lua_Integer i = 1; i <= n && i <= 10000; i++) {
        if (lua_rawgeti(L, items, i) != LUA_TTABLE) {
            problem(a->problems, &a->n, a->p->path, line, "items[%lld]: expected a table, got %s",
                    (long long)i, luaL_typename(L, -1));
            lua_pop(L, 1);
            continue;
        }
        for (size_t f = 0; f < 4; f++) {
            int type = raw_field(L, -1, fields[f]);
            if (type != LUA_TSTRING || lua_rawlen(L, -1) == 0)
                problem(a->problems, &a->n, a->p->path, line,
                        "items[%lld].%s: expected a non-empty string, got %s", (long long)i,
                        fields[f], lua_typename(L, type));
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* An importer's optional batch_rows: how many CSV records one import() call may be given. */
static void read_batch_rows(struct validate_args *a, int t)
{
    lua_State *L = a->p->L;
    int type = raw_field(L, t, "batch_rows");
    if (type != LUA_TNIL) {
        int is_int = 0;
        lua_Integer n = lua_tointegerx(L, -1, &is_int);
        if (type == LUA_TNUMBER && is_int && n > 0 && n <= 1000000)
            a->p->batch_rows = (long)n;
        else
            problem(a->problems, &a->n, a->p->path, field_line(a->text, "batch_rows"),
                    "batch_rows: expected a whole number from 1 to 1000000");
    }
    lua_pop(L, 1);
}

/* A rule's optional prefers_at_most: the most its preferences on one option weigh together, 0
 * to 1 (-1 when absent: unbounded). */
static void read_prefers_at_most(struct validate_args *a, int t)
{
    lua_State *L = a->p->L;
    int type = raw_field(L, t, "prefers_at_most");
    a->p->prefers_at_most = -1;
    if (type != LUA_TNIL) {
        double x = type == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
        if (x >= 0 && x <= 1)
            a->p->prefers_at_most = x;
        else
            problem(a->problems, &a->n, a->p->path, field_line(a->text, "prefers_at_most"),
                    "prefers_at_most: expected a number from 0 to 1");
    }
    lua_pop(L, 1);
}

/* A pricing plugin's optional urls: what `prices fetch` downloads for it, a table of URL
 * strings ({aws = "https://..."} or a list).  Only their shape is checked here; fetch.c decides
 * what may be fetched. */
static void validate_urls(struct validate_args *a, int t)
{
    lua_State *L = a->p->L;
    int type = raw_field(L, t, "urls"), ok = type == LUA_TNIL || type == LUA_TTABLE;
    if (type == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            const char *u = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            int key_ok = lua_type(L, -2) == LUA_TSTRING || lua_isinteger(L, -2);
            ok &= key_ok && u && (!strncmp(u, "https://", 8) || !strncmp(u, "http://", 7));
            lua_pop(L, 1);
        }
    }
    if (!ok)
        problem(a->problems, &a->n, a->p->path, field_line(a->text, "urls"),
                "urls: expected a table of \"https://...\" strings (name = URL, or a list)");
    lua_pop(L, 1);
}

/* Protected: checks the plugin table at the top of the stack, copies its identity into p and
 * keeps a reference to it. */
static int validate_protected(lua_State *L)
{
    struct validate_args *a = lua_touserdata(L, 1);
    lplugin *p = a->p;
    int t = 2;   /* the plugin's table */
    if (lua_type(L, t) != LUA_TTABLE) {
        problem(a->problems, &a->n, p->path, field_line(a->text, NULL),
                "a plugin must return a table (got %s)", luaL_typename(L, t));
        return 0;
    }
    static const char *const ident[] = {"name", "kind", "version", "description"};
    char **slots[] = {&p->name, &p->kind, &p->version, &p->description};
    for (size_t i = 0; i < 4; i++) {
        int type = raw_field(L, t, ident[i]);
        if (type == LUA_TSTRING && lua_rawlen(L, -1) > 0)
            *slots[i] = gw_xstrdup(lua_tostring(L, -1));
        else
            problem(a->problems, &a->n, p->path, field_line(a->text, ident[i]),
                    "missing field '%s' (a non-empty string; got %s)", ident[i],
                    lua_typename(L, type));
        lua_pop(L, 1);
    }
    if (p->name && !plugin_name_valid(p->name))
        problem(a->problems, &a->n, p->path, field_line(a->text, "name"),
                "name '%s': use lower-case letters, digits and '-', starting with a letter "
                "or digit", p->name);
    if (p->kind) {
        const char *folder = plugin_kind_folder(p->kind);
        if (!folder) {
            problem(a->problems, &a->n, p->path, field_line(a->text, "kind"),
                    "kind '%s': expected pricing, importer, rule or checklist", p->kind);
        } else {
            if (a->folder_kind && strcmp(a->folder_kind, p->kind) != 0)
                problem(a->problems, &a->n, p->path, field_line(a->text, "kind"),
                        "kind '%s' does not match its folder (%s plugins go in %s/)", p->kind,
                        p->kind, folder);
            if (!strcmp(p->kind, "pricing")) {
                require_function(a, t, "offers", 0);
                validate_urls(a, t);
            } else if (!strcmp(p->kind, "importer")) {
                require_function(a, t, "import", 0);
                read_batch_rows(a, t);
            } else if (!strcmp(p->kind, "rule")) {
                require_function(a, t, "evaluate", 0);
                read_prefers_at_most(a, t);
            } else {
                validate_items(a, t);
                require_function(a, t, "evaluate", 1);
            }
        }
    }
    lua_pushvalue(L, t);
    p->table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int lplugin_load(lplugin *p, const char *text, size_t len, const char *folder_kind,
                 gw_buf *problems, size_t *n_problems, gw_error *err)
{
    *n_problems = 0;
    gw_buf chunkname = GW_BUF_INIT;
    buf_printf(&chunkname, "@%s", p->path);
    int rc = lplugin_run_chunk(p, buf_cstr(&chunkname), text, len, err);
    buf_free(&chunkname);
    if (rc == GW_OK) {
        struct validate_args a = {p, text, folder_kind, problems, 0};
        rc = lplugin_protected_c(p, validate_protected, &a, 1, 0, err);
        lua_settop(p->L, 0);
        *n_problems = a.n;
    }
    return rc;
}

void lplugin_get_info(const lplugin *p, plugin_info *out)
{
    memset(out, 0, sizeof *out);
    out->name = p->name;
    out->kind = p->kind;
    out->version = p->version;
    out->description = p->description;
    out->path = p->path;
    out->batch_rows = p->batch_rows;
    out->prefers_at_most = p->prefers_at_most;
    out->compiled = p->compiled;
}

const char *lplugin_traceback(const lplugin *p) { return p->traceback; }

static int get_field_protected(lua_State *L);

int lplugin_function_line(lplugin *p, const char *fn)
{
    gw_error err;
    int top = lua_gettop(p->L), line = 0;
    if (lplugin_protected_c(p, get_field_protected, (void *)fn, 0, 1, &err) == GW_OK &&
        lua_type(p->L, -1) == LUA_TFUNCTION) {
        lua_Debug ar;
        if (lua_getinfo(p->L, ">S", &ar) && ar.linedefined > 0)
            line = ar.linedefined;
    }
    lua_settop(p->L, top);
    return line;
}

/* ---- calls ---- */

static int get_field_protected(lua_State *L)
{
    const char *field = lua_touserdata(L, 1);
    lplugin *p = lplugin_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->table_ref);
    raw_field(L, -1, field);
    lua_remove(L, -2);
    return 1;
}

int lplugin_get_field(lplugin *p, const char *field, view **out, gw_error *err)
{
    *out = NULL;
    int top = lua_gettop(p->L);
    int rc = lplugin_protected_c(p, get_field_protected, (void *)field, 0, 1, err);
    if (rc == GW_OK) {
        gw_buf label = GW_BUF_INIT;
        buf_printf(&label, "%s: %s", p->name ? p->name : p->path, field);
        rc = lplugin_value_to_view(p, lua_gettop(p->L), buf_cstr(&label), out, err);
        buf_free(&label);
    }
    lua_settop(p->L, top);
    return rc;
}

/* One call into a plugin, for the protected functions that set it up. */
struct call_args {
    lplugin *p;
    const char *fn;
    view *const *args;
    size_t nargs;
    const lplugin_shared *shared;
    int found;               /* fn is a function of the plugin's table */
};

/* Pushes the plugin's function a->fn (or what the field holds) and sets a->found. */
static void push_function(lua_State *L, struct call_args *a)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, a->p->table_ref);
    a->found = raw_field(L, -1, a->fn) == LUA_TFUNCTION;
    lua_remove(L, -2);
}

/* Pushes the Lua value of shared, converted once per plugin (see lplugin_shared). */
static void push_shared(lua_State *L, lplugin *p, const lplugin_shared *shared)
{
    if (p->shared_id != shared->id) {
        luaL_unref(L, LUA_REGISTRYINDEX, p->shared_ref);
        p->shared_ref = LUA_NOREF;
        luaapi_push_view(L, shared->v);
        p->shared_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        p->shared_id = shared->id;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->shared_ref);
}

/* Protected: pushes the plugin's function fn and the arguments. */
static int push_call_protected(lua_State *L)
{
    struct call_args *a = lua_touserdata(L, 1);
    lua_settop(L, 0);
    push_function(L, a);
    luaL_checkstack(L, (int)a->nargs + 4, "too many arguments");
    for (size_t i = 0; i < a->nargs; i++)
        luaapi_push_view(L, a->args[i]);
    return (int)a->nargs + 1;
}

/* Puts a call on the plugin's stack with push (protected); the stack back at top and an error
 * when the plugin is dead or has no function a->fn. */
static int prepare_call(struct call_args *a, lua_CFunction push, int top, gw_error *err)
{
    lplugin *p = a->p;
    if (p->dead)
        return gw_error_set(err, GW_ESOFTWARE, "%s", p->dead_msg);
    int rc = lplugin_protected_c(p, push, a, 0, LUA_MULTRET, err);
    if (rc != GW_OK)
        return rc;
    if (!a->found) {
        lua_settop(p->L, top);
        return gw_error_set(err, GW_ESOFTWARE, "%s: plugin '%s' has no function '%s'", p->path,
                            p->name ? p->name : "?", a->fn);
    }
    return GW_OK;
}

/* nil and {} (what most calls of a rule return) are read without a protected conversion:
 * looking at them cannot raise.  0 when the value needs the full one. */
static int trivial_result(lua_State *L, int idx, view **out)
{
    int type = lua_type(L, idx);
    if (type == LUA_TNIL) {
        *out = view_null();
        return 1;
    }
    if (type != LUA_TTABLE || !lua_checkstack(L, 2))
        return 0;
    lua_pushnil(L);
    if (lua_next(L, idx)) {
        lua_pop(L, 2);
        return 0;
    }
    *out = view_list();
    return 1;
}

int lplugin_call(lplugin *p, const char *fn, view *const *args, size_t nargs, view **out,
                gw_error *err)
{
    lua_State *L = p->L;
    int top = lua_gettop(L);
    *out = NULL;
    if (nargs > 16)
        return gw_error_set(err, GW_ESOFTWARE, "%s: too many arguments", p->path);
    struct call_args a = {p, fn, args, nargs, NULL, 0};
    int rc = prepare_call(&a, push_call_protected, top, err);
    if (rc != GW_OK)
        return rc;
    rc = lplugin_protected_run(p, (int)nargs, err);
    if (rc == GW_OK && !trivial_result(L, lua_gettop(L), out)) {
        char label[4400];   /* a name, or a path (4096 at most), and the function */
        snprintf(label, sizeof label, "%s: %s()", p->name ? p->name : p->path, fn);
        rc = lplugin_value_to_view(p, lua_gettop(L), label, out, err);
    }
    lua_settop(L, top);
    /* A pricing or importer entry point is handed a whole input, and the documents it parses
     * live outside the Lua heap, so the collector feels no pressure to free them: collect now,
     * so that what it dropped is gone before the next shipped plugin runs in this worker. */
    if (!strcmp(fn, "offers") || !strcmp(fn, "import"))
        lua_gc(L, LUA_GCCOLLECT);
    return rc;
}

/* Run as plugin code (hooks and limits on): calls the function at 2 with each argument, shown
 * read-only, and the shared value at 3; returns the list of what each call returned. */
static int each_trampoline(lua_State *L)
{
    struct call_args *a = lua_touserdata(L, 1);
    lua_createtable(L, (int)a->nargs, 0);
    luaapi_views_push(L);   /* at 5 and 6 */
    for (size_t i = 0; i < a->nargs; i++) {
        lua_pushvalue(L, 2);
        luaapi_push_view_readonly_in(L, a->args[i], 5);
        lua_pushvalue(L, 3);
        lua_call(L, 2, 1);
        lua_rawseti(L, 4, (lua_Integer)i + 1);
        luaapi_views_expire_in(L, 5);
    }
    lua_settop(L, 4);
    return 1;
}

/* Protected: pushes the trampoline and its three arguments. */
static int push_each_protected(lua_State *L)
{
    struct call_args *a = lua_touserdata(L, 1);
    lua_settop(L, 0);
    lua_pushcfunction(L, each_trampoline);
    lua_pushlightuserdata(L, a);
    push_function(L, a);
    if (a->shared)
        push_shared(L, a->p, a->shared);
    else
        lua_pushnil(L);
    return 4;
}

int lplugin_call_each(lplugin *p, const char *fn, view *const *args, size_t n,
                       const lplugin_shared *shared, view **outs, gw_error *err)
{
    lua_State *L = p->L;
    int top = lua_gettop(L);
    for (size_t i = 0; i < n; i++)
        outs[i] = NULL;
    if (n >= (size_t)INT_MAX)
        return gw_error_set(err, GW_ESOFTWARE, "%s: too many calls", p->path);
    struct call_args a = {p, fn, args, n, shared, 0};
    int rc = prepare_call(&a, push_each_protected, top, err);
    if (rc != GW_OK)
        return rc;
    rc = lplugin_protected_run(p, 3, err);
    luaapi_views_expire(L);   /* a call that raised left its argument registered */
    char label[4400];   /* a name, or a path (4096 at most), and the function */
    snprintf(label, sizeof label, "%s: %s()", p->name ? p->name : p->path, fn);
    for (size_t i = 0; rc == GW_OK && i < n; i++) {
        lua_rawgeti(L, -1, (lua_Integer)i + 1);
        if (!trivial_result(L, lua_gettop(L), &outs[i]))
            rc = lplugin_value_to_view(p, lua_gettop(L), label, &outs[i], err);
        lua_pop(L, 1);
    }
    lua_settop(L, top);
    if (rc != GW_OK)
        for (size_t i = 0; i < n; i++) {
            view_free(outs[i]);
            outs[i] = NULL;
        }
    return rc;
}

static int take_log_protected(lua_State *L)
{
    view **out = lua_touserdata(L, 1);
    void **slot = luaapi_box_new(L, view_free_void);
    *slot = view_list();
    lua_getfield(L, LUA_REGISTRYINDEX, LUAAPI_LOG_KEY);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= n; i++) {
        size_t len;
        lua_rawgeti(L, -1, i);
        const char *s = lua_tolstring(L, -1, &len);
        view_list_push(*slot, view_stringn(s ? s : "", s ? len : 0));
        lua_pop(L, 1);
    }
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUAAPI_LOG_KEY);
    *out = *slot;
    *slot = NULL;
    return 0;
}

view *lplugin_take_log(lplugin *p)
{
    view *out = NULL;
    gw_error err;
    int top = lua_gettop(p->L);
    if (lplugin_protected_c(p, take_log_protected, &out, 0, 0, &err) != GW_OK)
        out = view_list();
    lua_settop(p->L, top);
    return out;
}

int lplugin_eval(lplugin *p, const char *text, size_t len, view **out, gw_error *err)
{
    *out = NULL;
    gw_buf chunkname = GW_BUF_INIT;
    buf_printf(&chunkname, "@%s", p->path);
    int rc = lplugin_run_chunk(p, buf_cstr(&chunkname), text, len, err);
    buf_free(&chunkname);
    if (rc == GW_OK)
        rc = lplugin_value_to_view(p, lua_gettop(p->L), p->path, out, err);
    return rc;
}

/* ---- plugin tests ---- */

struct test_list_args {
    int count;
};

/* Protected: replaces the test table at the top with a sorted list of its test_* names. */
static int test_names_protected(lua_State *L)
{
    struct test_list_args *a = lua_touserdata(L, 1);
    int t = 2;
    lua_newtable(L);
    int names = lua_gettop(L);
    a->count = 0;
    if (lua_type(L, t) == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, t)) {
            if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION &&
                strncmp(lua_tostring(L, -2), "test_", 5) == 0) {
                lua_pushvalue(L, -2);
                lua_rawseti(L, names, ++a->count);
            }
            lua_pop(L, 1);
        }
    }
    /* sort by name with insertion sort: no plugin code, no comparator in Lua */
    for (int i = 2; i <= a->count; i++) {
        for (int j = i; j > 1; j--) {
            lua_rawgeti(L, names, j - 1);
            lua_rawgeti(L, names, j);
            int swap = strcmp(lua_tostring(L, -2), lua_tostring(L, -1)) > 0;
            if (swap) {
                lua_rawseti(L, names, j - 1);
                lua_rawseti(L, names, j);
            } else {
                lua_pop(L, 2);
                break;
            }
        }
    }
    return 1;
}

int lplugin_run_tests(lplugin *p, const char *test_path, const char *text, size_t len, view **out,
                      gw_error *err)
{
    lua_State *L = p->L;
    int top = lua_gettop(L);
    *out = NULL;
    gw_buf chunkname = GW_BUF_INIT;
    buf_printf(&chunkname, "@%s", test_path);
    int rc = lplugin_run_chunk(p, buf_cstr(&chunkname), text, len, err);
    buf_free(&chunkname);
    if (rc != GW_OK)
        return rc;
    struct test_list_args a = {0};
    lua_pushvalue(L, -1);   /* keep the test table below the name list */
    rc = lplugin_protected_c(p, test_names_protected, &a, 1, 1, err);
    if (rc != GW_OK) {
        lua_settop(L, top);
        return rc;
    }
    int tests = top + 1, names = top + 2;
    if (lua_type(L, tests) != LUA_TTABLE || a.count == 0) {
        lua_settop(L, top);
        return gw_error_set(err, GW_EDATA, "%s: a test file returns a table of test_* functions",
                            test_path);
    }
    view *results = view_list();
    for (int i = 1; i <= a.count; i++) {
        lua_rawgeti(L, names, i);
        view *r = view_list_push(results, view_map());
        view_map_set_str(r, "name", lua_tostring(L, -1));
        lua_rawget(L, tests);
        lua_rawgeti(L, LUA_REGISTRYINDEX, p->table_ref);
        gw_error terr = {0};
        int trc = lplugin_protected_run(p, 1, &terr);
        view_map_set_bool(r, "ok", trc == GW_OK);
        if (trc != GW_OK)
            view_map_set_str(r, "message", terr.msg);
        else
            lua_pop(L, 1);
        if (p->dead)
            break;
    }
    lua_settop(L, top);
    *out = results;
    return GW_OK;
}
