/* fuzz_workload.c — the workload reader: the input as a workload file (Lua evaluated in the
 * sandbox, as workload_load does) and, when it is JSON, as the table itself; both go through
 * workload_from_view and out again through workload_to_view as JSON.
 * seeds: $ROOT/examples $ROOT/tests/fixtures/decide */
#include <stdint.h>
#include <stdlib.h>

#include "sandbox/plugin.h"
#include "base/view.h"
#include "model/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const view *table)
{
    workload *w = NULL;
    gw_error err = {0};
    if (workload_from_view("fuzz.lua", table, &w, &err) != GW_OK)
        return;
    /* the view the rules and the report see (not a workload file: it adds derived fields) */
    view *back = workload_to_view(w);
    gw_buf json = GW_BUF_INIT;
    view_to_json(back, &json, 0);
    buf_free(&json);
    view_free(back);
    workload_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gw_error err = {0};
    view *table = view_from_json((const char *)data, size, &err);
    if (table) {
        check(table);
        view_free(table);
    }
    plugin_limits limits = {10 * 1000 * 1000, 64u * 1024u * 1024u, 5.0};
    table = NULL;
    if (plugin_eval_text("fuzz.lua", (const char *)data, size, NULL, NULL, &limits, &table, &err) ==
        GW_OK) {
        check(table);
        view_free(table);
    }
    return 0;
}
