/* cli_kb_search.c — `gpuwise kb search`: full-text search over the KB, each hit with its snippet
 * and the command that opens it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_kb_common.h"
#include "cli_listing.h"
#include "base/view.h"

/* ---- search ----------------------------------------------------------------------------- */

static const cli_column hit_columns[] = {
    {"kind", "Kind"}, {"ref", "Ref"}, {"title", "Title"}, {"snippet", "Snippet"},
    {"open", "Open"}, {NULL, NULL},
};

static void search_print(FILE *f, const view *m)
{
    const view *hits = view_map_get(m, "hits");
    if (!view_len(hits))
        fprintf(f, "no match for '%s'\n", cli_kb_str(m, "query"));
    for (size_t i = 0; i < view_len(hits); i++)
        cli_kb_hit_print(f, view_list_at(hits, i), 0);
}

int cli_kb_search(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    double limit = 20;
    if (cli_number(a, "limit", 1, 1000, &limit, err) != GW_OK)
        return GW_EUSAGE;
    if (limit != floor(limit))
        return gw_error_set(err, GW_EUSAGE, "--limit: expected a whole number from 1 to 1000, "
                            "not '%s'", cli_value(a, "limit"));
    gw_buf q = GW_BUF_INIT;
    for (int i = 0; i < a->argc; i++)
        buf_printf(&q, "%s%s", i ? " " : "", a->argv[i]);
    kb *k = NULL;
    kb_hit *hits = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_search(k, buf_cstr(&q), (size_t)limit, &hits, &n, err);
    if (rc == GW_OK) {
        view *m = view_map();
        view_map_set_str(m, "query", buf_cstr(&q));
        view *hl = view_map_set(m, "hits", view_list());
        for (size_t i = 0; i < n; i++)
            cli_kb_hit_to_view(&hits[i], view_list_push(hl, view_map()), 1);
        if (!strcmp(ctx->format, "text"))
            rc = cli_kb_emit_text(ctx, search_print, m, err);
        else
            rc = cli_listing_write(ctx, m, hl, hit_columns, err);
        view_free(m);
    }
    kb_hits_free(hits, n);
    buf_free(&q);
    kb_close(k);
    return rc;
}
