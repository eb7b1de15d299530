/* plugin_lua_state.h — private to plugin_lua.c and plugin_lua_table.c: one plugin's Lua state
 * (struct lplugin) and the protected ways into it that both use.  plugin_lua.c owns the state
 * (allocator, limits, sandbox, protected calls); plugin_lua_table.c works with the table the
 * plugin returned (its shape, fields, calls, tests) through these and never the reverse. */
#ifndef GW_PLUGIN_LUA_STATE_H
#define GW_PLUGIN_LUA_STATE_H

#include <lua.h>
#include <stddef.h>

#include "base/error.h"
#include "base/view.h"
#include "luaapi.h"

/* As plugin_lua.h names it (C11 allows the same typedef twice); this header stands below it. */
typedef struct lplugin lplugin;

/* A plugin's Lua state allocates and frees a great many small objects (building its sandbox
 * alone makes hundreds).  Blocks up to POOL_MAX bytes come from size classes carved out of
 * chunks and go back on a free list of their class; closing the state releases the chunks
 * whole.  Larger blocks are malloc's.  Lua gives the size of every block it frees or resizes,
 * so the size says where a block came from. */
#define POOL_GRAIN 16
#define POOL_MAX 256
#define POOL_CLASSES (POOL_MAX / POOL_GRAIN)
#define POOL_CHUNK (32 * 1024)

typedef struct pool_chunk {
    struct pool_chunk *next;
    max_align_t data[];
} pool_chunk;

struct lplugin {
    lua_State *L;
    char *name, *kind, *version, *description, *path;
    long batch_rows;         /* importer's optional batch_rows; 0 when absent */
    double prefers_at_most;  /* rule's optional prefers_at_most; -1 when absent */
    int compiled;            /* loaded from the compiled copy of a shipped lplugin */
    int table_ref;           /* registry ref of the table the plugin returned */
    int env_ref;             /* registry ref of its sandbox _ENV */
    luaapi_query_fn query;   /* answers gw.gpu.resolve and gw.kb.gpu (the parent has the KB) */
    void *query_ud;
    unsigned long long shared_id;   /* the plugin_arg whose Lua value shared_ref holds */
    int shared_ref;
    /* memory: small blocks from size classes (see limited_alloc) */
    void *free_blocks[POOL_CLASSES];   /* per class, linked through the blocks */
    struct pool_chunk *chunks;
    char *carve;             /* the unused end of the newest chunk */
    size_t carve_left;
    int closing;             /* lua_close runs: small blocks need not go back */
    /* limits */
    size_t mem_used, mem_cap;
    long long budget, used;
    double wall_seconds, deadline;
    int tripped;
    int dead;                /* a limit was hit: the state may be half-way through anything */
    char dead_msg[1024];
    char traceback[2048];
};

/* The plugin whose state L is (the allocator's userdata). */
lplugin *lplugin_of(lua_State *L);

/* Runs the function with nargs arguments at the top of the stack under the limits; leaves one
 * result.  Returns GW_OK or the error (stack popped). */
int lplugin_protected_run(lplugin *p, int nargs, gw_error *err);

/* Calls a C function in protected mode (no plugin code runs; only memory can raise).  It gets
 * ud as argument 1 and the top nvalues values of the stack (moved) as arguments 2... */
int lplugin_protected_c(lplugin *p, lua_CFunction fn, void *ud, int nvalues, int nresults,
                        gw_error *err);

/* Reads the value at idx (absolute) as a view (the caller frees *out).  GW_EDATA for bad
 * data. */
int lplugin_value_to_view(lplugin *p, int idx, const char *label, view **out, gw_error *err);

/* Loads text as a chunk named chunkname ("@path") in p's sandbox and runs it; leaves its result
 * on the stack.  Binary chunks are refused; a shipped plugin's text runs from its compiled
 * copy (embedded.h). */
int lplugin_run_chunk(lplugin *p, const char *chunkname, const char *text, size_t len,
                      gw_error *err);

#endif
