/* luaapi.h — private to the plugin host: the `gw` module plugins see (xml/html with XPath, csv,
 * json, units, money, GPU name resolution, read-only KB queries, log, test helpers) and the
 * Lua <-> view conversions the plugin states use.  Only core/sandbox includes this. */
#ifndef GW_LUAAPI_H
#define GW_LUAAPI_H

#include <lua.h>

#include "base/error.h"
#include "base/view.h"

/* Registry key of the Lua list that gw.log and print append to. */
#define LUAAPI_LOG_KEY "gw.log"

/* What answers the `gw` module's KB queries (gw.gpu.resolve, gw.kb.gpu) in this state: the
 * plugin's worker has no KB, so it asks the parent over its channel.  fn gets a map with
 * "question" ("gpu.resolve" with "name", "kb.gpu" with "id") and returns the answer (the caller
 * frees it): {id, count}, {gpu = {...}} or {error = "..."}; NULL when it cannot ask.  fn NULL:
 * the queries return nil and a message.  May raise (memory). */
typedef view *(*luaapi_query_fn)(void *ud, const view *question);
void luaapi_set_query(lua_State *L, luaapi_query_fn fn, void *ud);
/* Pushes a new `gw` table (plain, not yet read-only).  May raise (memory): call from protected
 * code. */
void luaapi_push_gw(lua_State *L);
/* Adds gw.money and gw.test (luaapi_helpers.c) to the `gw` table at the top of the stack.  May
 * raise (memory). */
void luaapi_add_helpers(lua_State *L);
/* Pushes gw.log (the sandbox's print). */
void luaapi_push_log(lua_State *L);

/* Limits on what a plugin may hand back. */
#define LUAAPI_MAX_DEPTH 32
#define LUAAPI_MAX_ITEMS 100000
#define LUAAPI_MAX_STRING (1024 * 1024)

/* Reads the value at idx into a view.  Never runs plugin code (raw access only).  On bad data
 * (a function, a cycle, NaN, NUL bytes, invalid UTF-8, too deep/large) returns GW_EDATA with
 * "<label>: <path>: problem" in err and *out NULL.  *box_out receives the partly built tree so a
 * Lua error (memory) cannot leak it: the caller passes a slot that a box userdata owns (see
 * luaapi_box_new).  May raise only for memory. */
int luaapi_to_view(lua_State *L, int idx, const char *label, view **box_slot, gw_error *err);

/* Pushes v as a Lua value (null -> nil, lists -> sequences, maps -> tables).  May raise. */
void luaapi_push_view(lua_State *L, const view *v);

/* Read-only views.  luaapi_views_push pushes the views table and the views' metatable (two
 * values, the table at index views); a caller that pushes many views (a rule given every
 * option) finds them so once, not in the registry per view (the worker of a grown `rent:*`
 * decision, 7,350 calls: 83.6 M instructions -> 77.9 M).  May raise for memory.
 * luaapi_push_view_readonly_in pushes v as a read-only table whose fields (nested tables too)
 * are converted only when read; pairs, ipairs and # work, next and rawget see nothing.  v must
 * outlive the call the table is given to; then luaapi_views_expire_in (or
 * luaapi_views_expire, which finds the table itself) makes every such table refuse reads with
 * a clear error.  Scalars are pushed as luaapi_push_view does.  May raise.  Expiring cannot
 * raise. */
void luaapi_views_push(lua_State *L);
void luaapi_push_view_readonly_in(lua_State *L, const view *v, int views);
void luaapi_views_expire(lua_State *L);
void luaapi_views_expire_in(lua_State *L, int views);

/* A userdata that owns C memory while Lua code that can raise runs: its __gc calls free_fn on
 * *slot.  Returns the slot (initially NULL).  Leaves the box on the stack. */
void **luaapi_box_new(lua_State *L, void (*free_fn)(void *));
/* Frees what the box at idx holds now and empties it. */
void luaapi_box_release(lua_State *L, int idx);

/* Checks UTF-8 (no overlong forms, no surrogates).  Returns 1 when valid. */
int luaapi_utf8_valid(const char *s, size_t n);

#endif
