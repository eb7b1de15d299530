/* plugin.c — (being written) the Lua plugin host. */
#include "plugin.h"

int plugin_host_new(const char *const *dirs, size_t n_dirs, kb *k, const plugin_limits *limits,
                    plugin_host **out, gw_error *err)
{
    (void)dirs; (void)n_dirs; (void)k; (void)limits;
    *out = NULL;
    return gw_error_set(err, GW_ESOFTWARE, "plugin host not built yet");
}
void plugin_host_free(plugin_host *host) { (void)host; }
int plugin_host_load_all(plugin_host *host, gw_error *err) { (void)host; return gw_error_set(err, GW_ESOFTWARE, "not built yet"); }
int plugin_host_load_file(plugin_host *host, const char *path, plugin **out, gw_error *err) { (void)host; (void)path; *out = NULL; return gw_error_set(err, GW_ESOFTWARE, "not built yet"); }
size_t plugin_count(const plugin_host *host) { (void)host; return 0; }
plugin *plugin_at(const plugin_host *host, size_t i) { (void)host; (void)i; return NULL; }
plugin *plugin_find(const plugin_host *host, const char *name) { (void)host; (void)name; return NULL; }
void plugin_get_info(const plugin *p, plugin_info *out) { (void)p; (void)out; }
int plugin_get_field(plugin *p, const char *field, view **out, gw_error *err) { (void)p; (void)field; *out = NULL; return gw_error_set(err, GW_ESOFTWARE, "not built yet"); }
int plugin_call(plugin *p, const char *fn, view *const *args, size_t nargs, view **out, gw_error *err) { (void)p; (void)fn; (void)args; (void)nargs; *out = NULL; return gw_error_set(err, GW_ESOFTWARE, "not built yet"); }
int plugin_eval_text(const char *name, const char *text, size_t len, kb *k, const plugin_limits *limits, view **out, gw_error *err) { (void)name; (void)text; (void)len; (void)k; (void)limits; *out = NULL; return gw_error_set(err, GW_ESOFTWARE, "not built yet"); }
