/* luaapi.c — the `gw` module plugins see: XML/HTML with XPath (xml.h), CSV (libcsv), JSON
 * (view.h's cJSON reader and writer), units and money (units.h), GPU names and read-only KB
 * queries (asked of the process that has the KB: luaapi_set_query), gw.log, and gw.money and
 * gw.test from luaapi_helpers.c; plus the Lua <-> view
 * conversions (read-only views: luaapi_views.c).  C memory that must live across a call that can raise is always held by a "box"
 * userdata whose __gc frees it. */
#include "luaapi.h"

#include <csv.h>
#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/units.h"
#include "io/xml.h"

#define BOX_MT "gw.box"
#define DOC_MT "gw.xml.doc"
#define NODE_MT "gw.xml.node"

/* ---- boxes ---- */

typedef struct box {
    void *ptr;
    void (*free_fn)(void *);
} box;

static int box_gc(lua_State *L)
{
    box *b = luaL_checkudata(L, 1, BOX_MT);
    if (b->ptr && b->free_fn)
        b->free_fn(b->ptr);
    b->ptr = NULL;
    return 0;
}

void **luaapi_box_new(lua_State *L, void (*free_fn)(void *))
{
    box *b = lua_newuserdatauv(L, sizeof *b, 0);
    b->ptr = NULL;
    b->free_fn = free_fn;
    if (luaL_newmetatable(L, BOX_MT)) {
        lua_pushcfunction(L, box_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    return &b->ptr;
}

void luaapi_box_release(lua_State *L, int idx)
{
    box *b = luaL_checkudata(L, idx, BOX_MT);
    if (b->ptr && b->free_fn)
        b->free_fn(b->ptr);
    b->ptr = NULL;
}

static void buf_free_void(void *p)
{
    buf_free(p);
    free(p);
}

static void view_free_void(void *p) { view_free(p); }

/* ---- UTF-8 ---- */

int luaapi_utf8_valid(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        unsigned cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + len > n)
            return 0;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

/* ---- Lua -> view ---- */

typedef struct conv {
    const char *label;
    gw_error *err;
    size_t items;
    int path_tables[LUAAPI_MAX_DEPTH + 1];   /* stack indexes of the tables on the current path */
    int n_path;
    view **root;    /* the box slot that owns the tree being built */
    char path[512];
} conv;

static int conv_fail(conv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int conv_fail(conv *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *sep = !c->path[0] || c->path[0] == '[' ? "" : ": ";
    return gw_error_set(c->err, GW_EDATA, "%s%s%s: %s", c->label, sep, c->path, msg);
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int conv_value(lua_State *L, int idx, conv *c, int depth, view *parent, const char *key);

/* Attaches node where it belongs before anything below it is read, so that the box owning the
 * root also owns every node if a Lua (memory) error jumps out half-way. */
static view *conv_attach(conv *c, view *parent, const char *key, view *node)
{
    if (!parent)
        *c->root = node;
    else if (key)
        view_map_set(parent, key, node);
    else
        view_list_push(parent, node);
    return node;
}

/* c->path from plen on becomes sep + text, cut to fit as snprintf would cut it. */
static void path_put(conv *c, size_t plen, const char *sep, const char *text, size_t n)
{
    size_t room = sizeof c->path - 1, at = plen;
    for (; *sep && at < room; sep++)
        c->path[at++] = *sep;
    if (n > room - at)
        n = room - at;
    memcpy(c->path + at, text, n);
    c->path[at + n] = '\0';
}

static int conv_table(lua_State *L, int t, conv *c, int depth, view *parent, const char *key)
{
    if (depth > LUAAPI_MAX_DEPTH)
        return conv_fail(c, "nested deeper than %d levels", LUAAPI_MAX_DEPTH);
    luaL_checkstack(L, 8, "nested too deep");
    for (int i = 0; i < c->n_path; i++)
        if (lua_rawequal(L, t, c->path_tables[i]))
            return conv_fail(c, "the table contains itself (a cycle)");

    lua_Integer len = (lua_Integer)lua_rawlen(L, t);
    size_t keys = 0, string_keys = 0;
    int other_key = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        keys++;
        if (lua_type(L, -1) == LUA_TSTRING)
            string_keys++;
        else if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 ||
                 lua_tointeger(L, -1) > len)
            other_key = 1;
        if (keys > LUAAPI_MAX_ITEMS) {
            lua_pop(L, 1);
            return conv_fail(c, "more than %d items", LUAAPI_MAX_ITEMS);
        }
    }
    if (string_keys && (other_key || string_keys != keys))
        return conv_fail(c, "a table mixes list items with other keys (keys must be all names "
                            "or 1..n)");
    if (!string_keys && other_key)
        return conv_fail(c, "a table has keys that are neither names nor 1..n");

    c->path_tables[c->n_path++] = t;
    size_t plen = strlen(c->path);
    int rc = GW_OK;
    if (string_keys == 0) {   /* a list (an empty table too) */
        view *list = conv_attach(c, parent, key, view_list());
        for (lua_Integer i = 1; i <= len && rc == GW_OK; i++) {
            char index[24];
            size_t at = sizeof index;
            index[--at] = ']';
            for (lua_Integer u = i; u; u /= 10)   /* i >= 1 */
                index[--at] = (char)('0' + u % 10);
            index[--at] = '[';
            path_put(c, plen, "", index + at, sizeof index - at);
            lua_rawgeti(L, t, i);
            rc = conv_value(L, lua_gettop(L), c, depth + 1, list, NULL);
            lua_pop(L, 1);
        }
    } else {
        view *map = conv_attach(c, parent, key, view_map());
        const char **names = lua_newuserdatauv(L, keys * sizeof *names, 0);
        int names_idx = lua_gettop(L);
        size_t n = 0;
        lua_pushnil(L);
        while (lua_next(L, t) && n < keys) {
            lua_pop(L, 1);
            names[n++] = lua_tostring(L, -1);   /* anchored: the keys stay in t */
        }
        qsort(names, n, sizeof *names, cmp_cstr);
        for (size_t i = 0; i < n && rc == GW_OK; i++) {
            size_t klen = strlen(names[i]);   /* the key as far as its first NUL */
            lua_pushlstring(L, names[i], klen);
            lua_rawget(L, t);
            if (klen > 256 || !luaapi_utf8_valid(names[i], klen)) {
                lua_pop(L, 1);
                rc = conv_fail(c, "a key is not a short UTF-8 name");
                break;
            }
            path_put(c, plen, plen ? "." : "", names[i], klen);
            rc = conv_value(L, lua_gettop(L), c, depth + 1, map, names[i]);
            lua_pop(L, 1);
        }
        lua_remove(L, names_idx);
    }
    if (rc == GW_OK)
        c->path[plen] = '\0';
    c->n_path--;
    return rc;
}

static int conv_value(lua_State *L, int idx, conv *c, int depth, view *parent, const char *key)
{
    if (++c->items > LUAAPI_MAX_ITEMS)
        return conv_fail(c, "more than %d values", LUAAPI_MAX_ITEMS);
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
        conv_attach(c, parent, key, view_null());
        return GW_OK;
    case LUA_TBOOLEAN:
        conv_attach(c, parent, key, view_bool(lua_toboolean(L, idx)));
        return GW_OK;
    case LUA_TNUMBER: {
        double d = lua_tonumber(L, idx);
        if (!isfinite(d))
            return conv_fail(c, "expected a finite number, got %s", isnan(d) ? "NaN" : "infinity");
        conv_attach(c, parent, key, view_number(d));
        return GW_OK;
    }
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len > LUAAPI_MAX_STRING)
            return conv_fail(c, "a string of %zu bytes (the limit is %d)", len, LUAAPI_MAX_STRING);
        if (memchr(s, '\0', len))
            return conv_fail(c, "a string contains a NUL byte");
        if (!luaapi_utf8_valid(s, len))
            return conv_fail(c, "a string is not valid UTF-8");
        conv_attach(c, parent, key, view_stringn(s, len));
        return GW_OK;
    }
    case LUA_TTABLE:
        return conv_table(L, idx, c, depth, parent, key);
    default:
        return conv_fail(c, "expected data, got a %s", luaL_typename(L, idx));
    }
}

int luaapi_to_view(lua_State *L, int idx, const char *label, view **box_slot, gw_error *err)
{
    /* Each table level checks its own stack room, so a flat result costs no stack growth. */
    conv c = {.label = label, .err = err, .root = box_slot};
    idx = lua_absindex(L, idx);
    *box_slot = NULL;
    int rc = conv_value(L, idx, &c, 0, NULL, NULL);
    if (rc != GW_OK) {
        view_free(*box_slot);
        *box_slot = NULL;
    }
    return rc;
}

/* ---- view -> Lua ---- */

/* Pushes v; the caller has made room for 3 more slots (a container needs its own, a key and
 * a value, checked once per level rather than per value). */
static void push_value(lua_State *L, const view *v)
{
    switch (view_kind(v)) {
    case VIEW_NULL:
        lua_pushnil(L);
        break;
    case VIEW_BOOL:
        lua_pushboolean(L, view_bool_value(v));
        break;
    case VIEW_NUMBER: {
        double d = view_num(v);
        if (d == floor(d) && fabs(d) < 9007199254740992.0)
            lua_pushinteger(L, (lua_Integer)d);
        else
            lua_pushnumber(L, d);
        break;
    }
    case VIEW_STRING:
        lua_pushlstring(L, view_str(v), view_str_len(v));
        break;
    case VIEW_LIST: {
        size_t n = view_len(v);
        lua_createtable(L, (int)n, 0);
        luaL_checkstack(L, 4, "nested too deep");
        for (size_t i = 0; i < n; i++) {
            push_value(L, view_list_at(v, i));
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        break;
    }
    case VIEW_MAP: {
        size_t n = view_len(v);
        lua_createtable(L, 0, (int)n);
        luaL_checkstack(L, 4, "nested too deep");
        for (size_t i = 0; i < n; i++) {
            const view *item = view_map_value_at(v, i);
            if (view_kind(item) == VIEW_NULL)
                continue;   /* what setting nil would do, without making the key */
            push_value(L, item);
            /* a fresh table has no metatable: setfield stores as rawset would */
            lua_setfield(L, -2, view_map_key_at(v, i));
        }
        break;
    }
    }
}

void luaapi_push_view(lua_State *L, const view *v)
{
    luaL_checkstack(L, 4, "nested too deep");
    push_value(L, v);
}

/* ---- gw.log ---- */

static int gw_log(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s;
        /* no __tostring: logging must not run plugin code behind the host's back */
        if (lua_type(L, i) == LUA_TSTRING || lua_type(L, i) == LUA_TNUMBER) {
            lua_pushvalue(L, i);
            s = lua_tolstring(L, -1, &len);
            lua_pop(L, 1);
        } else if (lua_type(L, i) == LUA_TBOOLEAN || lua_type(L, i) == LUA_TNIL) {
            s = lua_type(L, i) == LUA_TNIL ? "nil" : lua_toboolean(L, i) ? "true" : "false";
            len = strlen(s);
        } else {
            s = luaL_typename(L, i);
            len = strlen(s);
        }
        if (i > 1)
            luaL_addchar(&b, '\t');
        luaL_addlstring(&b, s, len > 4096 ? 4096 : len);
    }
    luaL_pushresult(&b);
    lua_getfield(L, LUA_REGISTRYINDEX, LUAAPI_LOG_KEY);
    lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
    if (count < 1000) {
        lua_pushvalue(L, -2);
        lua_rawseti(L, -2, count + 1);
    }
    return 0;
}

/* ---- gw.xml / gw.html ---- */

typedef struct doc_ud {
    xml_doc *doc;
} doc_ud;

typedef struct node_ud {
    xml_node *node;   /* valid while the document (the user value) lives */
} node_ud;

static int doc_gc(lua_State *L)
{
    doc_ud *d = luaL_checkudata(L, 1, DOC_MT);
    xml_doc_free(d->doc);
    d->doc = NULL;
    return 0;
}

static void nodeset_free_void(void *p)
{
    xml_nodeset_free(p);
    free(p);
}

/* Runs expr on doc (node: ctx or NULL); doc_idx is the document userdata kept alive by nodes. */
static int xpath_push(lua_State *L, int doc_idx, xml_node *ctx, const char *expr)
{
    doc_ud *d = luaL_checkudata(L, doc_idx, DOC_MT);
    if (!d->doc)
        return luaL_error(L, "the document is closed");
    void **slot = luaapi_box_new(L, nodeset_free_void);
    xml_nodeset *set = gw_xcalloc(1, sizeof *set);
    *slot = set;
    gw_error err = {0};
    if (xml_xpath(d->doc, ctx, expr, set, &err) != GW_OK)
        return luaL_error(L, "xpath '%s': %s", expr, err.msg);
    lua_createtable(L, (int)(set->count < 100000 ? set->count : 100000), 0);
    for (size_t i = 0; i < set->count; i++) {
        node_ud *n = lua_newuserdatauv(L, sizeof *n, 1);
        n->node = set->nodes[i];
        luaL_setmetatable(L, NODE_MT);
        lua_pushvalue(L, doc_idx);
        lua_setiuservalue(L, -2, 1);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_remove(L, -2);   /* the box: its __gc frees the set */
    return 1;
}

static int doc_xpath(lua_State *L)
{
    const char *expr = luaL_checkstring(L, 2);
    return xpath_push(L, 1, NULL, expr);
}

static int doc_root(lua_State *L)
{
    doc_ud *d = luaL_checkudata(L, 1, DOC_MT);
    if (!d->doc)
        return luaL_error(L, "the document is closed");
    node_ud *n = lua_newuserdatauv(L, sizeof *n, 1);
    n->node = xml_doc_root(d->doc);
    luaL_setmetatable(L, NODE_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    if (!n->node)
        lua_pushnil(L);
    return 1;
}

static node_ud *check_node(lua_State *L, int idx)
{
    node_ud *n = luaL_checkudata(L, idx, NODE_MT);
    lua_getiuservalue(L, idx, 1);
    doc_ud *d = luaL_testudata(L, -1, DOC_MT);
    if (!d || !d->doc || !n->node)
        luaL_error(L, "the node's document is closed");
    lua_pop(L, 1);
    return n;
}

static void free_void(void *p) { free(p); }

static int node_text(lua_State *L)
{
    node_ud *n = check_node(L, 1);
    void **slot = luaapi_box_new(L, free_void);   /* first, so the text has an owner */
    *slot = xml_node_text(n->node);
    lua_pushstring(L, *slot ? *slot : "");
    luaapi_box_release(L, -2);
    return 1;
}

static int node_attr(lua_State *L)
{
    node_ud *n = check_node(L, 1);
    const char *name = luaL_checkstring(L, 2);
    void **slot = luaapi_box_new(L, free_void);
    *slot = xml_node_attr(n->node, name);
    if (*slot)
        lua_pushstring(L, *slot);
    else
        lua_pushnil(L);
    luaapi_box_release(L, -2);
    return 1;
}

static int node_name(lua_State *L)
{
    node_ud *n = check_node(L, 1);
    const char *name = xml_node_name(n->node);
    lua_pushstring(L, name ? name : "");
    return 1;
}

static int node_line(lua_State *L)
{
    node_ud *n = check_node(L, 1);
    lua_pushinteger(L, xml_node_line(n->node));
    return 1;
}

static int node_xpath(lua_State *L)
{
    node_ud *n = check_node(L, 1);
    const char *expr = luaL_checkstring(L, 2);
    lua_getiuservalue(L, 1, 1);
    return xpath_push(L, lua_gettop(L), n->node, expr);
}

static int node_tostring(lua_State *L)
{
    node_ud *n = check_node(L, 1);
    lua_pushfstring(L, "node <%s>", xml_node_name(n->node));
    return 1;
}

static void register_xml_types(lua_State *L)
{
    static const luaL_Reg doc_methods[] = {{"xpath", doc_xpath}, {"root", doc_root}, {NULL, NULL}};
    static const luaL_Reg node_methods[] = {{"text", node_text},   {"attr", node_attr},
                                            {"name", node_name},   {"line", node_line},
                                            {"xpath", node_xpath}, {NULL, NULL}};
    luaL_newmetatable(L, DOC_MT);
    lua_pushcfunction(L, doc_gc);
    lua_setfield(L, -2, "__gc");
    luaL_newlib(L, doc_methods);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    luaL_newmetatable(L, NODE_MT);
    luaL_newlib(L, node_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, node_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

static int parse_markup(lua_State *L, int html)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, html ? "(html)" : "(xml)");
    /* The document types are made on first use: most plugins never parse markup. */
    if (luaL_getmetatable(L, DOC_MT) == LUA_TNIL)
        register_xml_types(L);
    lua_pop(L, 1);
    /* created closed, so a failure below leaves nothing to free */
    doc_ud *d = lua_newuserdatauv(L, sizeof *d, 0);
    d->doc = NULL;
    luaL_setmetatable(L, DOC_MT);
    gw_error err = {0};
    if (xml_parse(text, len, html, name, &d->doc, &err) != GW_OK) {
        lua_pushnil(L);
        lua_pushstring(L, err.msg);
        return 2;
    }
    return 1;
}

static int gw_xml_parse(lua_State *L) { return parse_markup(L, 0); }
static int gw_html_parse(lua_State *L) { return parse_markup(L, 1); }

/* ---- gw.csv ---- */

typedef struct csv_state {
    lua_State *L;
    int rows;          /* stack index of the list of rows */
    int row;           /* stack index of the current row */
    lua_Integer n_rows, n_fields;
} csv_state;

static void csv_parser_free(void *p)
{
    csv_free(p);
    free(p);
}

static void csv_on_field(void *s, size_t len, void *data)
{
    csv_state *st = data;
    lua_pushlstring(st->L, s ? s : "", s ? len : 0);
    lua_rawseti(st->L, st->row, ++st->n_fields);
}

static void csv_on_row(int c, void *data)
{
    (void)c;
    csv_state *st = data;
    lua_pushvalue(st->L, st->row);
    lua_rawseti(st->L, st->rows, ++st->n_rows);
    lua_newtable(st->L);
    lua_replace(st->L, st->row);
    st->n_fields = 0;
}

/* Pushes the list of rows (each a list of strings) of the CSV text at index 1. */
static void csv_read_all(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {   /* UTF-8 byte-order mark */
        text += 3;
        len -= 3;
    }
    void **slot = luaapi_box_new(L, csv_parser_free);
    struct csv_parser *parser = gw_xmalloc(sizeof *parser);
    if (csv_init(parser, CSV_APPEND_NULL) != 0) {
        free(parser);
        luaL_error(L, "csv: cannot start the parser");
    }
    *slot = parser;
    int box_idx = lua_gettop(L);
    lua_newtable(L);
    lua_newtable(L);
    csv_state st = {L, box_idx + 1, box_idx + 2, 0, 0};
    if (csv_parse(parser, text, len, csv_on_field, csv_on_row, &st) != len)
        luaL_error(L, "csv: %s", csv_strerror(csv_error(parser)));
    csv_fini(parser, csv_on_field, csv_on_row, &st);
    lua_pop(L, 1);                 /* the empty current row */
    luaapi_box_release(L, box_idx);
    lua_remove(L, box_idx);
}

static int gw_csv_parse(lua_State *L)
{
    csv_read_all(L);
    return 1;
}

static int gw_csv_rows(lua_State *L)
{
    csv_read_all(L);
    int all = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, all);
    lua_createtable(L, n > 0 ? (int)(n - 1) : 0, 0);
    int out = lua_gettop(L);
    if (n == 0)
        return 1;
    lua_rawgeti(L, all, 1);
    int header = lua_gettop(L);
    lua_Integer nh = (lua_Integer)lua_rawlen(L, header);
    for (lua_Integer r = 2; r <= n; r++) {
        lua_rawgeti(L, all, r);
        int row = lua_gettop(L);
        lua_Integer nf = (lua_Integer)lua_rawlen(L, row);
        lua_createtable(L, 0, (int)nh);
        for (lua_Integer f = 1; f <= nf && f <= nh; f++) {
            lua_rawgeti(L, header, f);
            if (lua_rawget(L, -2) == LUA_TNIL) {   /* the first column of a repeated name wins */
                lua_pop(L, 1);
                lua_rawgeti(L, header, f);
                lua_rawgeti(L, row, f);
                lua_rawset(L, -3);
            } else {
                lua_pop(L, 1);
            }
        }
        lua_rawseti(L, out, r - 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* ---- gw.json ---- */

static int gw_json_decode(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    void **slot = luaapi_box_new(L, view_free_void);
    gw_error err = {0};
    *slot = view_from_json(text, len, &err);
    if (!*slot) {
        lua_pushnil(L);
        lua_pushstring(L, err.msg);
        return 2;
    }
    luaapi_push_view(L, *slot);
    luaapi_box_release(L, -2);
    return 1;
}

static int gw_json_encode(lua_State *L)
{
    luaL_checkany(L, 1);
    int pretty = lua_toboolean(L, 2);
    void **vslot = luaapi_box_new(L, view_free_void);
    gw_error err = {0};
    if (luaapi_to_view(L, 1, "json.encode", (view **)vslot, &err) != GW_OK) {
        lua_pushnil(L);
        lua_pushstring(L, err.msg);
        return 2;
    }
    void **bslot = luaapi_box_new(L, buf_free_void);
    gw_buf *b = gw_xcalloc(1, sizeof *b);
    *bslot = b;
    view_to_json(*vslot, b, pretty);
    lua_pushlstring(L, b->data ? b->data : "", b->len);
    return 1;
}

/* ---- gw.units ---- */

static int gw_units_parse(lua_State *L)
{
    const char *text = luaL_checkstring(L, 1);
    units_value v;
    if (!units_parse(text, &v)) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, v.value);
    lua_pushstring(L, v.unit);
    return 2;
}

/* ---- gw.gpu / gw.kb: questions to the process that has the KB ---- */

#define QUERY_KEY "gw.query"

/* Asks the KB's process `question` about key = value; the answer map is kept in a box on the
 * stack until the function returns.  NULL when there is nobody to ask; raises when the channel
 * broke. */
static const view *ask(lua_State *L, const char *question, const char *key, const char *value)
{
    view **slot = (view **)luaapi_box_new(L, view_free_void);
    *slot = view_map();
    view_map_set_str(*slot, "question", question);
    view_map_set_str(*slot, key, value);
    lua_getfield(L, LUA_REGISTRYINDEX, QUERY_KEY);
    struct query { luaapi_query_fn fn; void *ud; } *q = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!q || !q->fn)
        return NULL;
    view *answer = q->fn(q->ud, *slot);
    view_free(*slot);
    *slot = answer;
    if (!answer || view_kind(answer) != VIEW_MAP)
        luaL_error(L, "the knowledge base did not answer");
    return answer;
}

/* Pushes nil and the answer's error (or msg when the question could not be asked). */
static int answer_error(lua_State *L, const view *answer, const char *msg)
{
    const view *e = answer ? view_map_get(answer, "error") : NULL;
    lua_pushnil(L);
    lua_pushstring(L, view_str(e) ? view_str(e) : msg);
    return 2;
}

static int gw_gpu_resolve(lua_State *L)
{
    const view *a = ask(L, "gpu.resolve", "name", luaL_checkstring(L, 1));
    const view *id = a ? view_map_get(a, "id") : NULL;
    if (!view_str(id))
        return answer_error(L, a, "no knowledge base is open");
    lua_pushstring(L, view_str(id));
    lua_pushinteger(L, gw_double_to_ll(view_num(view_map_get(a, "count")), 1, INT_MAX, 1));
    return 2;
}

static int gw_kb_gpu(lua_State *L)
{
    const view *a = ask(L, "kb.gpu", "id", luaL_checkstring(L, 1));
    const view *g = a ? view_map_get(a, "gpu") : NULL;
    if (view_kind(g) != VIEW_MAP)
        return answer_error(L, a, "no knowledge base is open");
    /* figures are floats, as the KB's REAL columns are, whole or not */
    lua_createtable(L, 0, (int)view_len(g));
    for (size_t i = 0; i < view_len(g); i++) {
        const view *f = view_map_value_at(g, i);
        if (view_kind(f) == VIEW_NUMBER)
            lua_pushnumber(L, view_num(f));
        else
            luaapi_push_view(L, f);
        lua_setfield(L, -2, view_map_key_at(g, i));
    }
    return 1;
}

/* ---- the module ---- */

void luaapi_set_query(lua_State *L, luaapi_query_fn fn, void *ud)
{
    struct query { luaapi_query_fn fn; void *ud; } *q = lua_newuserdatauv(L, sizeof *q, 0);
    q->fn = fn;
    q->ud = ud;
    lua_setfield(L, LUA_REGISTRYINDEX, QUERY_KEY);
}

void luaapi_push_log(lua_State *L) { lua_pushcfunction(L, gw_log); }

void luaapi_push_gw(lua_State *L)
{
    static const luaL_Reg xml_fns[] = {{"parse", gw_xml_parse}, {NULL, NULL}};
    static const luaL_Reg html_fns[] = {{"parse", gw_html_parse}, {NULL, NULL}};
    static const luaL_Reg csv_fns[] = {{"rows", gw_csv_rows}, {"parse", gw_csv_parse}, {NULL, NULL}};
    static const luaL_Reg json_fns[] = {{"decode", gw_json_decode}, {"encode", gw_json_encode},
                                        {NULL, NULL}};
    static const luaL_Reg units_fns[] = {{"parse", gw_units_parse}, {NULL, NULL}};
    static const luaL_Reg gpu_fns[] = {{"resolve", gw_gpu_resolve}, {NULL, NULL}};
    static const luaL_Reg kb_fns[] = {{"gpu", gw_kb_gpu}, {NULL, NULL}};
    lua_newtable(L);
    lua_pushcfunction(L, gw_log);
    lua_setfield(L, -2, "log");
    struct {
        const char *name;
        const luaL_Reg *fns;
    } subs[] = {{"xml", xml_fns},     {"html", html_fns}, {"csv", csv_fns}, {"json", json_fns},
                {"units", units_fns}, {"gpu", gpu_fns},   {"kb", kb_fns}};
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        lua_newtable(L);
        luaL_setfuncs(L, subs[i].fns, 0);
        lua_setfield(L, -2, subs[i].name);
    }
    luaapi_add_helpers(L);
}
