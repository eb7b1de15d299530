/* luaapi_helpers.c — the parts of the `gw` module that hold no state and ask nobody: gw.money
 * (the core's money formatter, so a plugin writes amounts as the engine does) and gw.test (what
 * the plugins' NAME_test.lua files share: a test file can require nothing). */
#include "luaapi.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/units.h"

/* gw.money(amount [, currency [, decimals]]): money written as the engine writes it
 * (units_format_money: "CNY 41,000", "$2,750", "$3.05"); decimals -1, the default, is the
 * engine's rule (none from 100 up, else 2). */
static int gw_money(lua_State *L)
{
    double amount = luaL_checknumber(L, 1);
    const char *currency = luaL_optstring(L, 2, NULL);
    lua_Integer decimals = luaL_optinteger(L, 3, -1);
    luaL_argcheck(L, decimals >= -1 && decimals <= 6, 3, "from -1 to 6");
    /* copied out of the heap before anything that can raise, which would skip the free */
    char text[512];
    gw_buf b = GW_BUF_INIT;
    units_format_money(&b, amount, currency, (int)decimals);
    snprintf(text, sizeof text, "%s", buf_cstr(&b));
    buf_free(&b);
    lua_pushstring(L, text);
    return 1;
}

/* ---- gw.test: what the shipped NAME_test.lua files share (plugins/README.md, Tests) ---- */

/* Raises msg at the test's line (level 2: the Lua code that called the helper). */
static int test_fail(lua_State *L, const char *fmt, ...)
{
    luaL_where(L, 2);
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

/* The non-empty string item[field] (item at index item), or raises naming item n. */
static const char *test_item_text(lua_State *L, int item, lua_Integer n, const char *field)
{
    lua_getfield(L, item, field);
    const char *text = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!text || !*text)
        test_fail(L, "item %I lacks %s", n, field);
    lua_pop(L, 1);   /* item keeps the string alive */
    return text;
}

/* gw.test.checklist_items(checklist, count [, fields]): every item has a non-empty id,
 * question, how_to_check, severity (high, medium or low) and each of fields; ids are unique;
 * there are count items. */
static int gw_test_checklist_items(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_Integer expected = luaL_checkinteger(L, 2);
    if (!lua_isnoneornil(L, 3))
        luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    if (lua_getfield(L, 1, "items") != LUA_TTABLE)   /* 4 */
        return test_fail(L, "the checklist has no items list");
    lua_newtable(L);                                 /* 5: the ids seen */
    static const char *const required[] = {"id", "question", "how_to_check", "severity"};
    lua_Integer n = luaL_len(L, 4);
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_geti(L, 4, i) != LUA_TTABLE)         /* 6 */
            return test_fail(L, "item %I is not a table", i);
        for (size_t f = 0; f < sizeof required / sizeof required[0]; f++)
            test_item_text(L, 6, i, required[f]);
        lua_Integer n_extra = lua_istable(L, 3) ? luaL_len(L, 3) : 0;
        for (lua_Integer f = 1; f <= n_extra; f++) {
            lua_geti(L, 3, f);
            test_item_text(L, 6, i, luaL_checkstring(L, -1));
            lua_pop(L, 1);
        }
        const char *id = test_item_text(L, 6, i, "id");
        if (lua_getfield(L, 5, id) != LUA_TNIL)
            return test_fail(L, "duplicate id %s", id);
        lua_pushboolean(L, 1);
        lua_setfield(L, 5, id);
        const char *severity = test_item_text(L, 6, i, "severity");
        if (strcmp(severity, "high") != 0 && strcmp(severity, "medium") != 0 &&
            strcmp(severity, "low") != 0)
            return test_fail(L, "%s: severity %s", id, severity);
        lua_settop(L, 5);
    }
    if (n != expected)
        return test_fail(L, "expected %I items, got %I", expected, n);
    return 0;
}

/* gw.test.with(defaults, changes): a new table, defaults' fields with changes' over them (for
 * building options and workloads that differ from a test's base in a field or two). */
static int gw_test_with(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_newtable(L);
    for (int from = 1; from <= 2; from++)
        for (lua_pushnil(L); lua_next(L, from);) {   /* key, value */
            lua_pushvalue(L, -2);                      /* key, value, key */
            lua_insert(L, -2);                         /* key, key, value */
            lua_settable(L, 3);                        /* key: lua_next's next */
        }
    return 1;
}

void luaapi_add_helpers(lua_State *L)
{
    static const luaL_Reg test_fns[] = {{"checklist_items", gw_test_checklist_items},
                                        {"with", gw_test_with}, {NULL, NULL}};
    lua_pushcfunction(L, gw_money);
    lua_setfield(L, -2, "money");
    luaL_newlib(L, test_fns);
    lua_setfield(L, -2, "test");
}
