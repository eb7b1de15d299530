/* luaapi_views.c — read-only views: an option (or any large record) shown to a plugin as a
 * table whose fields are converted only when read, and refused once its call is over.  The
 * Lua <-> view conversions are luaapi.c's. */
#include "luaapi.h"

#include <lauxlib.h>
#include <string.h>

/* A read-only view is an empty table whose metatable finds its fields in the view when they are
 * read, so a plugin called on a large record pays only for the fields it looks at.  The views
 * table (registry, and upvalue 1 of every metamethod) maps each such table to its view while
 * the call that received it runs; luaapi_views_expire then empties it, and a table kept past
 * its call raises a clear error instead of reading freed memory. */
#define VIEWS_KEY "gw.views"
#define VIEW_MT "gw.view"

static const view *proxied(lua_State *L, int idx)
{
    lua_pushvalue(L, idx);
    lua_rawget(L, lua_upvalueindex(1));
    const view *v = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!v)
        luaL_error(L, "a read-only table from the engine is valid only during the call it was "
                      "given to (copy the fields you want to keep)");
    return v;
}

static void push_proxy(lua_State *L, const view *v, int views)
{
    lua_createtable(L, 0, 0);
    luaL_setmetatable(L, VIEW_MT);
    lua_pushvalue(L, -1);
    lua_pushlightuserdata(L, (void *)v);
    lua_rawset(L, views);
}

/* Pushes the value of item, the field key (at key_idx) of the proxy at idx.  Containers become
 * proxies of their own, stored in the proxy so that reading the field twice gives one table. */
static void push_field(lua_State *L, int idx, int key_idx, const view *item)
{
    if (view_kind(item) != VIEW_MAP && view_kind(item) != VIEW_LIST) {
        luaapi_push_view(L, item);
        return;
    }
    lua_pushvalue(L, key_idx);
    if (lua_rawget(L, idx) != LUA_TNIL)
        return;
    lua_pop(L, 1);
    push_proxy(L, item, lua_upvalueindex(1));
    lua_pushvalue(L, key_idx);
    lua_pushvalue(L, -2);
    lua_rawset(L, idx);
}

/* The item of v at key (at key_idx), or NULL. */
static const view *field_of(lua_State *L, const view *v, int key_idx)
{
    if (view_kind(v) == VIEW_MAP && lua_type(L, key_idx) == LUA_TSTRING) {
        size_t n;
        const char *key = lua_tolstring(L, key_idx, &n);
        return strlen(key) == n ? view_map_get(v, key) : NULL;
    }
    if (view_kind(v) == VIEW_LIST && lua_type(L, key_idx) == LUA_TNUMBER) {
        int whole;   /* 2.0 is the key 2, as in any table */
        lua_Integer i = lua_tointegerx(L, key_idx, &whole);
        return whole && i >= 1 && (lua_Unsigned)i <= view_len(v) ? view_list_at(v, (size_t)i - 1)
                                                                 : NULL;
    }
    return NULL;
}

static int proxy_index(lua_State *L)
{
    const view *item = field_of(L, proxied(L, 1), 2);
    if (view_is_null(item))
        lua_pushnil(L);
    else
        push_field(L, 1, 2, item);
    return 1;
}

static int proxy_newindex(lua_State *L)
{
    proxied(L, 1);
    return luaL_error(L, "cannot set '%s': this table is read-only", luaL_tolstring(L, 2, NULL));
}

static int proxy_len(lua_State *L)
{
    const view *v = proxied(L, 1);
    lua_pushinteger(L, view_kind(v) == VIEW_LIST ? (lua_Integer)view_len(v) : 0);
    return 1;
}

/* pairs(): (next_field, proxy, nil); next_field keeps its position in upvalue 2. */
static int proxy_next(lua_State *L)
{
    const view *v = proxied(L, 1);
    lua_settop(L, 1);
    for (;;) {
        lua_Integer i = lua_tointeger(L, lua_upvalueindex(2));
        if ((lua_Unsigned)i >= view_len(v))
            return 0;
        lua_pushinteger(L, i + 1);
        lua_replace(L, lua_upvalueindex(2));
        const view *item = view_kind(v) == VIEW_MAP ? view_map_value_at(v, (size_t)i)
                                                    : view_list_at(v, (size_t)i);
        if (view_is_null(item))
            continue;
        if (view_kind(v) == VIEW_MAP)
            lua_pushstring(L, view_map_key_at(v, (size_t)i));
        else
            lua_pushinteger(L, i + 1);
        push_field(L, 1, 2, item);
        return 2;
    }
}

static int proxy_pairs(lua_State *L)
{
    proxied(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, proxy_next, 2);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* Pushes the views table, then the metatable of read-only views, making both the first time. */
void luaapi_views_push(lua_State *L)
{
    luaL_checkstack(L, 4, "nested too deep");
    if (luaL_newmetatable(L, VIEW_MT)) {
        static const luaL_Reg mm[] = {{"__index", proxy_index},     {"__newindex", proxy_newindex},
                                      {"__len", proxy_len},         {"__pairs", proxy_pairs},
                                      {NULL, NULL}};
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, VIEWS_KEY);
        luaL_setfuncs(L, mm, 1);
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_getfield(L, LUA_REGISTRYINDEX, VIEWS_KEY);
    lua_insert(L, -2);
}

void luaapi_push_view_readonly_in(lua_State *L, const view *v, int views)
{
    luaL_checkstack(L, 8, "nested too deep");
    if (view_kind(v) != VIEW_MAP && view_kind(v) != VIEW_LIST) {
        luaapi_push_view(L, v);
        return;
    }
    lua_createtable(L, 0, 0);
    lua_pushvalue(L, views + 1);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_pushlightuserdata(L, (void *)v);
    lua_rawset(L, views);
}

void luaapi_views_expire_in(lua_State *L, int views)
{
    lua_pushnil(L);
    while (lua_next(L, views)) {   /* clearing a field during the traversal is allowed */
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, views);
    }
}

void luaapi_views_expire(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, VIEWS_KEY) == LUA_TTABLE)
        luaapi_views_expire_in(L, lua_gettop(L));
    lua_pop(L, 1);
}
