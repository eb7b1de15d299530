/* plugin.h — the Lua plugin host.  Only core/sandbox knows Lua.  Each plugin lives in
 * its own sandboxed lua_State with an instruction budget, a memory cap and a wall-clock limit.
 * Values cross between C and Lua as view trees (view.h): arguments are turned into Lua tables,
 * results are read back defensively (wrong types, cycles, NaN, NUL bytes, invalid UTF-8 and
 * oversized strings give a validation error, never a crash).
 *
 * Ownership: the host owns its plugins; views returned through `out` belong to the caller. */
#ifndef GW_PLUGIN_H
#define GW_PLUGIN_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"
#include "plugin_kinds.h"

typedef struct plugin_host plugin_host;
typedef struct plugin plugin;

/* What answers the KB questions plugins ask (gw.gpu.resolve, gw.kb.gpu).  The host holds no
 * KB: its caller hands it this function and its ctx (ingest/kb_answer.h has one over a kb).
 * question (not to be trusted: it comes from the plugin's process) is a map, either
 * {question = "gpu.resolve", name = NAME} or {question = "kb.gpu", id = ID}.  The answer, which
 * the caller frees, is a map: {id = ID, count = N} for gpu.resolve, {gpu = {column = value}}
 * for kb.gpu (text columns as strings, figures as numbers, unknown ones absent), or
 * {error = MESSAGE} (an unknown question too), which the plugin gets as nil and the message.
 * NULL is read as "no knowledge base is open". */
typedef view *(*plugin_kb_answer)(void *ctx, const view *question);

/* A host over the given plugin folders, searched in order (first wins for a name: --plugins
 * folders, then the user's XDG folder, then the shipped one).  Folders that do not exist are
 * skipped.  kb_answer(kb_ctx, ...) answers the plugins' KB questions; kb_answer NULL: none
 * is open.  limits may be NULL for the defaults. */
int plugin_host_new(const char *const *dirs, size_t n_dirs, plugin_kb_answer kb_answer,
                    void *kb_ctx, const plugin_limits *limits, plugin_host **out, gw_error *err);
void plugin_host_free(plugin_host *host);

/* Discovers and loads every plugin (*.lua, not *_test.lua) in the folders, kinds pricing/,
 * importers/, rules/, checklists/ or flat.  A plugin that fails to load is reported in err and
 * the call fails (GW_ECONFIG / GW_ESOFTWARE naming file:line). */
int plugin_host_load_all(plugin_host *host, gw_error *err);
/* Loads only the plugins of one kind ("rule", ...): its folder and the flat files of that kind,
 * with the same precedence as plugin_host_load_all.  A kind already loaded is not loaded again,
 * so a command loads what it needs when it needs it.  Errors as plugin_host_load_all. */
int plugin_host_load_kind(plugin_host *host, const char *kind, gw_error *err);
/* Loads one file (plugin check, or a path given on the command line). */
int plugin_host_load_file(plugin_host *host, const char *path, plugin **out, gw_error *err);

size_t plugin_count(const plugin_host *host);
plugin *plugin_at(const plugin_host *host, size_t i);
plugin *plugin_find(const plugin_host *host, const char *name);   /* NULL when none */
void plugin_get_info(const plugin *p, plugin_info *out);
/* Whether name may name a plugin: [a-z0-9][a-z0-9-]*, 64 bytes at most.  It names the plugin's
 * folder in the prices cache, so no '.', '..', '/' or upper case.  A plugin that declares any
 * other name is refused when it loads (GW_EDATA). */
int plugin_name_valid(const char *name);
/* Names are unique per kind (a rule and a checklist may share one); NULL when none. */
plugin *plugin_find_kind(const plugin_host *host, const char *name, const char *kind);

/* Reads a field of the plugin's table (e.g. a checklist's "items") as a view. */
int plugin_get_field(plugin *p, const char *field, view **out, gw_error *err);
/* Calls a function of the plugin's table with args converted to Lua values.  A missing
 * function, an error raised, or a limit hit gives GW_ESOFTWARE with "path:line: message". */
int plugin_call(plugin *p, const char *fn, view *const *args, size_t nargs, view **out,
                gw_error *err);

/* An argument many calls share (the workload every rule sees with each option): each plugin
 * converts it to Lua once and passes that same table to every call, instead of converting the
 * view again per call.  It is an input: a plugin that writes into it sees its own change in
 * its later calls (never another plugin: each has its own state).  Borrows v: v must outlive
 * the handle and not change. */
typedef struct plugin_arg plugin_arg;
plugin_arg *plugin_arg_new(const view *v);
void plugin_arg_free(plugin_arg *a);
/* Calls fn once for each of the n args (fn(args[i], shared)) and puts what each call returned
 * in outs[i] (null where it returned nil or an empty table).  Each args[i] is shown as a
 * read-only table whose fields are converted only when the plugin reads them, valid during its
 * own call only (a rule reads a few fields of each option).  The n calls run inside one
 * protected call, so the plugin's limits apply to them together.  On failure every outs[i] is
 * NULL. */
int plugin_call_each(plugin *p, const char *fn, view *const *args, size_t n,
                     const plugin_arg *shared, view **outs, gw_error *err);
/* The arguments of several plugin_call_each-like calls, encoded once for the workers: every
 * rule of a decision is given the same options, and encoding them again per rule cost 18 M
 * instructions a report (105 M a `rent:*` decision on a grown KB).  A batch of n arguments is
 * plugin_batch_begin(n), then exactly n plugin_batch_push, each encoding its argument at once:
 * the batch holds its own copy, so an argument's view may go before the next is made (memory
 * reused between a decision's options).  plugin_call_batch is plugin_call_each over the
 * batch's arguments, with what the calls returned in one list, *results, of the calls that
 * returned something (not nil, not an empty table: most calls of a rule), each as a pair
 * [i, value] for the call for argument i (i from 0, in order; the caller frees the list, NULL
 * on failure); a worker that holds the batch already is not sent it again. */
typedef struct plugin_batch plugin_batch;
plugin_batch *plugin_batch_begin(size_t n);
void plugin_batch_push(plugin_batch *b, const view *arg);
void plugin_batch_free(plugin_batch *b);
int plugin_call_batch(plugin *p, const char *fn, const plugin_batch *b,
                      const plugin_arg *shared, view **results, gw_error *err);

/* Evaluates a chunk of Lua text in a fresh sandbox (same limits and `gw` module) and returns the
 * value it returns (workload files).  name is used in errors ("examples/x.lua:3: ...");
 * kb_answer and kb_ctx as for plugin_host_new. */
int plugin_eval_text(const char *name, const char *text, size_t len, plugin_kb_answer kb_answer,
                     void *kb_ctx, const plugin_limits *limits, view **out, gw_error *err);

/* Loads path for `plugin check`: every problem of its shape is appended to problems as one
 * "path:line: problem" line and counted in *n_problems.  A file that does not load or run at all
 * is an error (GW_EDATA for syntax, GW_ESOFTWARE for a runtime error or a limit).  When it ran,
 * *out is the plugin (owned by the host), even with problems. */
int plugin_host_check_file(plugin_host *host, const char *path, gw_buf *problems,
                           size_t *n_problems, plugin **out, gw_error *err);

/* The line where the plugin's function fn is defined, or 0 when it has none. */
int plugin_function_line(plugin *p, const char *fn);

/* The Lua traceback of the last failed call ("" when none); owned by p. */
const char *plugin_traceback(const plugin *p);

/* What the plugin wrote with gw.log/print since the last call: a list of strings the caller
 * frees.  The plugin's log is emptied. */
view *plugin_take_log(plugin *p);

/* Runs the test file (a chunk returning a table of test_* functions, each called with the
 * plugin's table) in p's sandbox.  *out: a list of {name, ok, message} the caller frees. */
int plugin_run_tests(plugin *p, const char *test_path, view **out, gw_error *err);

#endif
