/* plugin_lua.h — private to the plugin host: one plugin's Lua state as its worker process runs
 * it (plugin_lua.c, plugin_lua_table.c).  The worker's side of the host (plugin_serve.c) calls
 * these; gpuwise's own process never creates a Lua state for a plugin.  The functions mirror
 * plugin.h's, given text instead of file names (the worker has no files). */
#ifndef GW_PLUGIN_LUA_H
#define GW_PLUGIN_LUA_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"
#include "luaapi.h"
#include "plugin_kinds.h"
#include "base/view.h"

typedef struct lplugin lplugin;

/* A value many calls share (see plugin_arg): id changes when the value does. */
typedef struct lplugin_shared {
    const view *v;
    unsigned long long id;
} lplugin_shared;

/* A fresh sandbox named path (used in every message); query answers the gw KB functions. */
int lplugin_new(const char *path, const plugin_limits *limits, luaapi_query_fn query,
                void *query_ud, lplugin **out, gw_error *err);
void lplugin_free(lplugin *p);

/* Runs text as the plugin's chunk and checks the table it returns (as plugin_host_check_file). */
int lplugin_load(lplugin *p, const char *text, size_t len, const char *folder_kind,
                 gw_buf *problems, size_t *n_problems, gw_error *err);
/* Runs text as a chunk and returns its value (workload files). */
int lplugin_eval(lplugin *p, const char *text, size_t len, view **out, gw_error *err);

void lplugin_get_info(const lplugin *p, plugin_info *out);
int lplugin_get_field(lplugin *p, const char *field, view **out, gw_error *err);
int lplugin_call(lplugin *p, const char *fn, view *const *args, size_t nargs, view **out,
                 gw_error *err);
int lplugin_call_each(lplugin *p, const char *fn, view *const *args, size_t n,
                      const lplugin_shared *shared, view **outs, gw_error *err);
int lplugin_function_line(lplugin *p, const char *fn);
const char *lplugin_traceback(const lplugin *p);
view *lplugin_take_log(lplugin *p);
int lplugin_run_tests(lplugin *p, const char *test_path, const char *text, size_t len, view **out,
                      gw_error *err);

#endif
