/* plugin_lua.c — one plugin's Lua state, as it runs inside its worker process (plugin.c starts
 * the worker and talks to it): a sandboxed lua_State with a memory cap (our allocator), an
 * instruction budget and a wall-clock limit (a count hook), and protected calls with
 * tracebacks.  What is done with the table the plugin returns is plugin_lua_table.c's; the `gw`
 * module and the Lua <-> view conversions live in luaapi.c.  Nothing here opens a file or the
 * KB: text comes in, views go out. */
#include "plugin_lua.h"

#include <dirent.h>
#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <lualib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "embedded.h"
#include "luaapi.h"
#include "plugin_lua_state.h"
#include "base/signals.h"

#define HOOK_EVERY 1000
/* Room left after the cap trips, so the error message and traceback can still be made. */
#define MEMORY_SLACK (256u * 1024u)

enum { TRIP_NONE, TRIP_INSTRUCTIONS, TRIP_TIME, TRIP_MEMORY, TRIP_SIGNAL };

/* The class of a block of n bytes (1 to POOL_CLASSES), or 0 when n is malloc's. */
static size_t pool_class(size_t n)
{
    return n <= POOL_MAX ? (n + POOL_GRAIN - 1) / POOL_GRAIN : 0;
}

static void *pool_get(lplugin *p, size_t c)
{
    void *b = p->free_blocks[c - 1];
    if (b) {
        memcpy(&p->free_blocks[c - 1], b, sizeof(void *));
        return b;
    }
    size_t size = c * POOL_GRAIN;
    if (p->carve_left < size) {
        pool_chunk *ch = malloc(sizeof *ch + POOL_CHUNK);
        if (!ch)
            return NULL;
        ch->next = p->chunks;
        p->chunks = ch;
        p->carve = (char *)ch->data;
        p->carve_left = POOL_CHUNK;
    }
    b = p->carve;
    p->carve += size;
    p->carve_left -= size;
    return b;
}

static void pool_put(lplugin *p, void *b, size_t c)
{
    memcpy(b, &p->free_blocks[c - 1], sizeof(void *));
    p->free_blocks[c - 1] = b;
}

static void pool_release(lplugin *p)
{
    for (pool_chunk *ch = p->chunks, *next; ch; ch = next) {
        next = ch->next;
        free(ch);
    }
    p->chunks = NULL;
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lplugin *p = ud;
    size_t old = ptr ? osize : 0;
    size_t oc = ptr ? pool_class(osize) : 0, nc = pool_class(nsize);
    if (nsize == 0) {
        if (!oc)
            free(ptr);
        else if (!p->closing)
            pool_put(p, ptr, oc);
        p->mem_used -= old;
        return NULL;
    }
    size_t cap = p->mem_cap + (p->tripped ? MEMORY_SLACK : 0);
    if (nsize > old && p->mem_used + (nsize - old) > cap) {
        if (!p->tripped)
            p->tripped = TRIP_MEMORY;
        return NULL;
    }
    void *n;
    if (ptr && oc == nc) {
        n = oc ? ptr : realloc(ptr, nsize);   /* the same class holds the new size too */
    } else {
        n = nc ? pool_get(p, nc) : malloc(nsize);
        if (n && ptr) {
            memcpy(n, ptr, old < nsize ? old : nsize);
            if (oc)
                pool_put(p, ptr, oc);
            else
                free(ptr);
        }
    }
    if (!n)
        return NULL;
    p->mem_used = p->mem_used - old + nsize;
    return n;
}

lplugin *lplugin_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

static const char *trip_message(const lplugin *p, char *buf, size_t n)
{
    switch (p->tripped) {
    case TRIP_INSTRUCTIONS:
        snprintf(buf, n, "instruction limit of %lld reached (GPUWISE_PLUGIN_INSTRUCTIONS)",
                 p->budget);
        break;
    case TRIP_TIME:
        snprintf(buf, n, "time limit of %g s reached (GPUWISE_PLUGIN_SECONDS)", p->wall_seconds);
        break;
    case TRIP_SIGNAL:
        snprintf(buf, n, "interrupted by %s", gw_signal_name());
        break;
    case TRIP_MEMORY:
        snprintf(buf, n, "memory limit of %zu MiB reached (GPUWISE_PLUGIN_MEMORY_MB)",
                 p->mem_cap / (1024 * 1024));
        break;
    default:
        snprintf(buf, n, "stopped");
    }
    return buf;
}

/* The innermost function running from a file (a plugin, its test, a workload: chunk names
 * "@path") with a line, from stack level `from` up, in *ar; 0 when none.  Errors and limits are
 * reported at that place, not inside the sandbox's own xpcall or a chunk made with load. */
static int file_place(lua_State *L, int from, lua_Debug *ar)
{
    for (int level = from; lua_getstack(L, level, ar); level++)
        if (lua_getinfo(L, "Sl", ar) && ar->source[0] == '@' && ar->currentline > 0)
            return 1;
    return 0;
}

/* Runs every HOOK_EVERY instructions in every coroutine (new threads inherit the hook).  Once a
 * limit trips it raises on every instruction, so a plugin's own pcall cannot swallow the stop:
 * each pcall level catches one error and the next instruction raises again, until the error
 * reaches the host.  Finalizers run without hooks, which is why setmetatable refuses __gc. */
static void limit_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lplugin *p = lplugin_of(L);
    if (!p->tripped) {
        p->used += HOOK_EVERY;
        if (p->used > p->budget)
            p->tripped = TRIP_INSTRUCTIONS;
        else if (gw_now_seconds() > p->deadline)
            p->tripped = TRIP_TIME;
        else if (gw_signal_pending())
            p->tripped = TRIP_SIGNAL;
    }
    if (p->tripped) {
        char msg[200];
        lua_sethook(L, limit_hook, LUA_MASKCOUNT, 1);
        lua_Debug here;
        if (file_place(L, 0, &here))
            lua_pushfstring(L, "%s:%d: %s", here.short_src, here.currentline,
                            trip_message(p, msg, sizeof msg));
        else
            lua_pushstring(L, trip_message(p, msg, sizeof msg));
        lua_error(L);
    }
}

static void limits_start(lplugin *p)
{
    p->used = 0;
    p->deadline = gw_now_seconds() + p->wall_seconds;
}

/* ---- the sandbox ---- */


static int readonly_newindex(lua_State *L)
{
    return luaL_error(L, "attempt to modify a read-only table (field '%s')",
                      lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?");
}

/* The iterator pairs gives for a read-only proxy: the next key and value of the backing table
 * (its upvalue), which the plugin never gets hold of; the state pairs passes is the proxy. */
static int readonly_next(lua_State *L)
{
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1)))
        return 2;
    lua_pushnil(L);
    return 1;
}

/* pairs(proxy): (readonly_next, proxy, nil).  Handing back the backing table itself, as the
 * state of `next`, let `pairs(string)` return a writable string library. */
static int readonly_pairs(lua_State *L)
{
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "__index");
    lua_pushcclosure(L, readonly_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* Registry key of the base library's pcall (the real globals are emptied once the sandbox is
 * built; the sandbox's xpcall, made later, still needs it). */
#define PCALL_KEY "gw.pcall"

/* How deep make_readonly makes the tables in a table read-only too. */
#define READONLY_DEPTH 3

/* Replaces the table at the top with a read-only proxy (recursively for table fields, to
 * READONLY_DEPTH: a depth of READONLY_DEPTH makes the table itself read-only, unwalked). */
static void make_readonly(lua_State *L, int depth)
{
    int real = lua_gettop(L);
    if (depth < READONLY_DEPTH) {
        lua_pushnil(L);
        while (lua_next(L, real)) {
            if (lua_type(L, -1) == LUA_TTABLE) {
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                make_readonly(L, depth + 1);
                lua_rawset(L, real);
                /* replacing the value of an existing key keeps lua_next valid */
            } else {
                lua_pop(L, 1);
            }
        }
    }
    lua_newtable(L);                       /* proxy */
    lua_createtable(L, 0, 4);              /* its metatable */
    lua_pushvalue(L, real);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, readonly_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, readonly_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_replace(L, real);
}

static void copy_fields(lua_State *L, int from, int to, const char *const *names)
{
    for (size_t i = 0; names[i]; i++) {
        lua_getfield(L, from, names[i]);
        lua_setfield(L, to, names[i]);
    }
}

/* The sandbox's xpcall, compiled once per process: every later state loads this
 * bytecode, which the host itself made from its own source, instead of parsing it again.
 * Plugins still may not load binary chunks. */
static gw_buf xpcall_code;

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
    (void)L;
    buf_append(ud, p, n);
    return 0;
}

/* Pushes the sandbox's xpcall.  Lua runs a message handler with hooks off once the hook itself
 * has raised, so a plugin's xpcall handler could loop forever past every limit: the sandbox's
 * xpcall calls the handler as ordinary code, after the protected call returned. */
static void push_xpcall(lua_State *L)
{
    static const char xpcall_src[] =
        "local pcall, pack, unpack = ...\n"
        "return function(f, handler, ...)\n"
        "  local r = pack(pcall(f, ...))\n"
        "  if r[1] then return unpack(r, 1, r.n) end\n"
        "  return false, handler(r[2])\n"
        "end\n";
    if (xpcall_code.len) {
        if (luaL_loadbufferx(L, xpcall_code.data, xpcall_code.len, "=xpcall", "b") != LUA_OK)
            lua_error(L);
    } else {
        if (luaL_loadbufferx(L, xpcall_src, sizeof xpcall_src - 1, "=xpcall", "t") != LUA_OK)
            lua_error(L);
        gw_buf code = GW_BUF_INIT;
        if (lua_dump(L, dump_writer, &code, 0) == 0)
            xpcall_code = code;
        else
            buf_free(&code);
    }
    lua_getfield(L, LUA_REGISTRYINDEX, PCALL_KEY);
    lua_pushcfunction(L, luaopen_table);   /* a private copy, for its pack and unpack */
    lua_call(L, 0, 1);
    lua_getfield(L, -1, "pack");
    lua_getfield(L, -2, "unpack");
    lua_remove(L, -3);
    lua_call(L, 3, 1);
}

/* Puts the libraries a plugin sees besides the safe base functions into the table at env, each
 * a read-only copy, when the state is made.  (Building each only when a plugin first named it
 * saved 2.7 M of the 30 M instructions of `gpuwise report examples/vision-team.lua --format
 * html` and 0.65 of its 9.5 ms, 7%: less than the 10% that would pay for the mechanism.) */
static void add_libs(lua_State *L, int env)
{
    static const luaL_Reg own_libs[] = {
        {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_COLIBNAME, luaopen_coroutine}, {NULL, NULL},
    };
    for (const luaL_Reg *lib = own_libs; lib->name; lib++) {
        /* opened straight into a table of its own, registered nowhere else: the proxy can hide
         * it as it is, without a copy; these libraries (and string and os below) hold no
         * table, so theirs are not walked for one (0.24 M of the 7.2 M instructions of the
         * rules' worker a command starts: 14 states) */
        lua_pushcfunction(L, lib->func);
        lua_call(L, 0, 1);
        make_readonly(L, READONLY_DEPTH);
        lua_setfield(L, env, lib->name);
    }

    /* string: a copy, since the real one is every string's __index */
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_remove(L, -2);
    int n = 0;   /* sized once: growing a table rehashes it at every power of two */
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
        n++;
    lua_createtable(L, 0, n);
    lua_insert(L, -2);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -5);
    }
    lua_pop(L, 1);
    make_readonly(L, READONLY_DEPTH);
    lua_setfield(L, env, LUA_STRLIBNAME);

    /* os: only the clock and dates */
    static const char *const os_safe[] = {"time", "date", "clock", "difftime", NULL};
    lua_newtable(L);
    lua_pushcfunction(L, luaopen_os);
    lua_call(L, 0, 1);
    copy_fields(L, lua_gettop(L), lua_gettop(L) - 1, os_safe);
    lua_pop(L, 1);
    make_readonly(L, READONLY_DEPTH);
    lua_setfield(L, env, LUA_OSLIBNAME);

    luaapi_push_gw(L);
    make_readonly(L, 0);
    lua_setfield(L, env, "gw");

    push_xpcall(L);
    lua_setfield(L, env, "xpcall");
}

/* The environment's __index: reading an undefined global is a mistake in a plugin, not a nil. */
static int sandbox_global(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?";
    return luaL_error(L, "undefined global '%s'", k);
}

static int sandbox_setmetatable(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    int t = lua_type(L, 2);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE && lua_getfield(L, 2, "__gc") != LUA_TNIL)
        return luaL_error(L, "setmetatable: __gc finalizers are not allowed in plugins");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int sandbox_collectgarbage(lua_State *L)
{
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0)
        return luaL_error(L, "collectgarbage: only \"count\" is allowed in plugins");
    int kbytes = lua_gc(L, LUA_GCCOUNT, 0), bytes = lua_gc(L, LUA_GCCOUNTB, 0);
    lua_pushnumber(L, (lua_Number)kbytes + (lua_Number)bytes / 1024.0);
    return 1;
}

/* load(text [, name [, mode [, env]]]): text chunks only; env defaults to the sandbox. */
static int sandbox_load(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "load: only text chunks (strings) are allowed in plugins");
    const char *name = luaL_optstring(L, 2, "=(load)");
    const char *mode = luaL_optstring(L, 3, "t");
    if (!strchr(mode, 't'))
        return luaL_error(L, "load: binary chunks are not allowed in plugins");
    int status = luaL_loadbufferx(L, s, len, name, "t");
    if (status != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (lua_type(L, 4) == LUA_TTABLE)
        lua_pushvalue(L, 4);
    else
        lua_pushvalue(L, lua_upvalueindex(1));
    lua_setupvalue(L, -2, 1);
    return 1;
}

static const char *const safe_base[] = {
    "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
    "rawlen", "rawset", "select", "tonumber", "tostring", "type", NULL,
};

/* Protected: builds the sandbox _ENV, stores it in the registry and returns its ref. */
static int sandbox_build(lua_State *L)
{
    lplugin *p = lplugin_of(L);
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base}, {LUA_STRLIBNAME, luaopen_string}, {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 0);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    lua_createtable(L, 0, 32);   /* sized once: the base functions and what is added below */
    int env = lua_gettop(L);
    copy_fields(L, g, env, safe_base);
    lua_getfield(L, g, "pcall");
    lua_setfield(L, LUA_REGISTRYINDEX, PCALL_KEY);

    /* the real string library: no dump, and its metatable (shared by every string) locked */
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 2);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    lua_pushcfunction(L, sandbox_setmetatable);
    lua_setfield(L, env, "setmetatable");
    lua_pushcfunction(L, sandbox_collectgarbage);
    lua_setfield(L, env, "collectgarbage");
    lua_pushvalue(L, env);
    lua_pushcclosure(L, sandbox_load, 1);
    lua_setfield(L, env, "load");

    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUAAPI_LOG_KEY);
    luaapi_set_query(L, p->query, p->query_ud);
    luaapi_push_log(L);
    lua_setfield(L, env, "print");
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
    add_libs(L, env);

    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, sandbox_global);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, env);

    /* Nothing of the real globals stays reachable through the registry's global table. */
    lua_pushnil(L);
    while (lua_next(L, g)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, g);
    }
    lua_pushvalue(L, env);
    p->env_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* ---- protected calls ---- */

/* The message handler of every call into a plugin: the message, beginning with the plugin's
 * file and line (put there when it names another place, as "xpcall:3:", or none, as
 * error(x, 0) and non-string errors do), and the traceback. */
static int traceback_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg)
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    lua_Debug ar;
    if (file_place(L, 1, &ar)) {
        size_t n = strlen(ar.short_src);
        if (strncmp(msg, ar.short_src, n) != 0 || msg[n] != ':') {
            if (strncmp(msg, "xpcall:", 7) == 0 && strstr(msg, ": "))
                msg = strstr(msg, ": ") + 2;
            msg = lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, msg);
        }
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Lua shortens a long chunk name to "..." and its last characters (LUA_IDSIZE), so a message
 * about a plugin deep in a folder tree would name a file nobody can open.  Appends msg (len
 * bytes) to out with the whole path put back where the message starts with that short form. */
static void message_with_path(gw_buf *out, const char *path, const char *msg, size_t len)
{
    const char *colon = len > 3 && strncmp(msg, "...", 3) == 0 ? memchr(msg, ':', len) : NULL;
    if (path && colon) {
        size_t tail = (size_t)(colon - (msg + 3)), plen = strlen(path);
        if (tail <= plen && memcmp(path + plen - tail, msg + 3, tail) == 0) {
            buf_puts(out, path);
            buf_append(out, colon, len - (size_t)(colon - msg));
            return;
        }
    }
    buf_append(out, msg, len);
}

/* Turns the error at the top of the stack into err: the first line, naming file:line; the
 * traceback is kept in p->traceback for `plugin check`. */
static int call_failed(lplugin *p, int status, gw_error *err)
{
    char buf[200];
    const char *msg = lua_type(p->L, -1) == LUA_TSTRING ? lua_tostring(p->L, -1) : NULL;
    if (!msg)
        msg = status == LUA_ERRMEM ? "not enough memory" : "error";
    const char *tb = strstr(msg, "\nstack traceback:");
    snprintf(p->traceback, sizeof p->traceback, "%s", tb ? tb + 1 : "");
    size_t first = tb ? (size_t)(tb - msg) : strlen(msg);
    if (p->tripped) {
        p->dead = 1;
        /* keep the file:line the hook wrote when it is there */
        const char *limit = trip_message(p, buf, sizeof buf);
        if (strstr(msg, limit) && first < 400) {
            gw_buf line = GW_BUF_INIT;
            message_with_path(&line, p->path, msg, first);
            snprintf(p->dead_msg, sizeof p->dead_msg, "%s", buf_cstr(&line));
            buf_free(&line);
        } else
            snprintf(p->dead_msg, sizeof p->dead_msg, "%s: %s", p->path, limit);
        lua_pop(p->L, 1);
        return gw_error_set(err, GW_ESOFTWARE, "%s", p->dead_msg);
    }
    if (status == LUA_ERRMEM) {   /* under its cap, but its process has no more */
        lua_pop(p->L, 1);
        return gw_error_set(err, GW_ESOFTWARE, "%s: %s%s%sout of memory (limit %zu MB a plugin, "
                            "GPUWISE_PLUGIN_MEMORY_MB; its XML documents count too)", p->path,
                            p->name ? "plugin '" : "", p->name ? p->name : "",
                            p->name ? "': " : "", p->mem_cap >> 20);
    }
    gw_buf line = GW_BUF_INIT;
    message_with_path(&line, p->path, msg, first < 900 ? first : 900);
    gw_error_set(err, GW_ESOFTWARE, "%s", buf_cstr(&line));
    buf_free(&line);
    lua_pop(p->L, 1);
    return GW_ESOFTWARE;
}

/* Runs the function with nargs arguments at the top of the stack under the limits; leaves one
 * result.  Returns GW_OK or the error (stack popped). */
int lplugin_protected_run(lplugin *p, int nargs, gw_error *err)
{
    lua_State *L = p->L;
    if (p->dead) {
        lua_pop(L, nargs + 1);
        return gw_error_set(err, GW_ESOFTWARE, "%s", p->dead_msg);
    }
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    limits_start(p);
    int status = lua_pcall(L, nargs, 1, base);
    lua_remove(L, base);
    if (status != LUA_OK)
        return call_failed(p, status, err);
    if (p->tripped) {   /* a C function finished the work in spite of the limit */
        lua_pushliteral(L, "");
        return call_failed(p, LUA_ERRRUN, err);
    }
    return GW_OK;
}

/* Calls a C function in protected mode (no plugin code runs; only memory can raise).  It gets
 * ud as argument 1 and the top nvalues values of the stack (moved) as arguments 2... */
int lplugin_protected_c(lplugin *p, lua_CFunction fn, void *ud, int nvalues, int nresults,
                        gw_error *err)
{
    lua_pushcfunction(p->L, fn);
    lua_insert(p->L, -(nvalues + 1));
    lua_pushlightuserdata(p->L, ud);
    lua_insert(p->L, -(nvalues + 1));
    int status = lua_pcall(p->L, nvalues + 1, nresults, 0);
    if (status != LUA_OK) {
        const char *msg = lua_type(p->L, -1) == LUA_TSTRING ? lua_tostring(p->L, -1) : NULL;
        gw_error_set(err, GW_ESOFTWARE, "%s: %s", p->path,
                     status == LUA_ERRMEM || !msg ? "memory limit reached while reading its values"
                                                  : msg);
        lua_pop(p->L, 1);
        if (p->tripped) {
            p->dead = 1;
            snprintf(p->dead_msg, sizeof p->dead_msg, "%s", err->msg);
        }
        return GW_ESOFTWARE;
    }
    return GW_OK;
}

struct to_view_args {
    int idx;
    const char *label;
    view *result;
    gw_error *err;
    int rc;
};

static void view_free_void(void *v) { view_free(v); }

static int to_view_protected(lua_State *L)
{
    struct to_view_args *a = lua_touserdata(L, 1);
    a->idx = 2;
    void **slot = luaapi_box_new(L, view_free_void);
    a->rc = luaapi_to_view(L, a->idx, a->label, (view **)slot, a->err);
    a->result = *slot;
    *slot = NULL;
    return 0;
}

/* Reads the value at idx (absolute) as a view.  GW_EDATA for bad data. */
int lplugin_value_to_view(lplugin *p, int idx, const char *label, view **out, gw_error *err)
{
    struct to_view_args a = {idx, label, NULL, err, GW_OK};
    *out = NULL;
    lua_pushvalue(p->L, idx);
    int rc = lplugin_protected_c(p, to_view_protected, &a, 1, 0, err);
    if (rc != GW_OK)
        return rc;
    if (a.rc != GW_OK) {
        view_free(a.result);
        return a.rc;
    }
    *out = a.result;
    return GW_OK;
}

/* ---- creating and loading ---- */

void lplugin_free(lplugin *p)
{
    if (!p)
        return;
    if (p->L) {
        /* Plugins cannot attach finalizers (setmetatable refuses __gc), so closing runs only
         * our own C finalizers and always ends. */
        lua_sethook(p->L, NULL, 0, 0);
        p->closing = 1;
        lua_close(p->L);
    }
    pool_release(p);
    free(p->name);
    free(p->kind);
    free(p->version);
    free(p->description);
    free(p->path);
    free(p);
}

int lplugin_new(const char *path, const plugin_limits *limits, luaapi_query_fn query,
                void *query_ud, lplugin **out, gw_error *err)
{
    lplugin *p = gw_xcalloc(1, sizeof *p);
    plugin_limits l = plugin_limits_resolve(limits);
    p->query = query;
    p->query_ud = query_ud;
    p->path = gw_xstrdup(path);
    p->mem_cap = l.memory_bytes;
    p->budget = l.instructions;
    p->wall_seconds = l.wall_seconds;
    p->table_ref = LUA_NOREF;
    p->env_ref = LUA_NOREF;
    p->shared_ref = LUA_NOREF;
    p->L = lua_newstate(limited_alloc, p);
    *out = NULL;
    if (!p->L) {
        lplugin_free(p);
        return gw_error_set(err, GW_ESOFTWARE, "%s: cannot create a Lua state", path);
    }
    lua_sethook(p->L, limit_hook, LUA_MASKCOUNT, HOOK_EVERY);
    if (lplugin_protected_c(p, sandbox_build, p, 0, 0, err) != GW_OK) {
        lplugin_free(p);
        return GW_ESOFTWARE;
    }
    *out = p;
    return GW_OK;
}

/* When text is exactly a shipped plugin's source, its bytecode (embedded.h) with chunkname as
 * the source name, so that messages name the file as if it had been parsed; else 0.  Parsing
 * was most of what loading a plugin cost. */
static int embedded_code(const char *chunkname, const char *text, size_t len, gw_buf *out)
{
    const embedded_chunk *e = embedded_find(text, len);
    if (!e)
        return 0;
    /* The first string in a dump is the main function's source: its size + 1, written 7 bits a
     * byte with the last byte marked (one byte here), then its text.  Anything else: parse. */
    static const char marker[] = EMBEDDED_MARKER;
    size_t ml = sizeof marker - 1, at = 1;
    while (at + ml <= e->code_len && at < 64 && memcmp(e->code + at, marker, ml) != 0)
        at++;
    if (at + ml > e->code_len || at >= 64 || e->code[at - 1] != (0x80 | (ml + 1)))
        return 0;
    buf_append(out, (const char *)e->code, at - 1);
    unsigned char size[16];
    int k = 0;
    for (size_t n = strlen(chunkname) + 1; k == 0 || n; n >>= 7)
        size[sizeof size - ++k] = n & 0x7f;
    size[sizeof size - 1] |= 0x80;
    buf_append(out, (const char *)size + sizeof size - k, (size_t)k);
    buf_puts(out, chunkname);
    buf_append(out, (const char *)e->code + at + ml, e->code_len - at - ml);
    return 1;
}

/* Loads text as a chunk in p's sandbox and runs it; leaves its result on the stack. */
int lplugin_run_chunk(lplugin *p, const char *chunkname, const char *text, size_t len,
                      gw_error *err)
{
    lua_State *L = p->L;
    if (len >= 4 && memcmp(text, LUA_SIGNATURE, 4) == 0)
        return gw_error_set(err, GW_EDATA, "%s: binary chunks are not allowed", chunkname + 1);
    gw_buf code = GW_BUF_INIT;
    int status = LUA_ERRSYNTAX;
    if (embedded_code(chunkname, text, len, &code)) {
        status = luaL_loadbufferx(L, code.data, code.len, chunkname, "b");
        if (status != LUA_OK)   /* built with another Lua version, say: parse the text */
            lua_pop(L, 1);
        p->compiled = status == LUA_OK;
    }
    buf_free(&code);
    if (status != LUA_OK)
        status = luaL_loadbufferx(L, text, len, chunkname, "t");
    if (status != LUA_OK) {
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "cannot load";
        gw_buf line = GW_BUF_INIT;
        message_with_path(&line, chunkname + 1, msg, strlen(msg));
        gw_error_set(err, status == LUA_ERRSYNTAX ? GW_EDATA : GW_ESOFTWARE, "%s",
                     buf_cstr(&line));
        buf_free(&line);
        lua_pop(L, 1);
        return err->code;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->env_ref);
    lua_setupvalue(L, -2, 1);
    return lplugin_protected_run(p, 0, err);
}
