/* cli_report.c — the `gpuwise report` command: the purchase justification document, rendered
 * from the decision's view model with templates/justification.md.mustache, plus the checklists
 * the rules attached to the recommendation (read from the checklist plugins). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli_decide.h"
#include "cli_legacy.h"
#include "render.h"

static const char *item_text(const view *item, const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++) {
        const char *s = view_str(view_map_get(item, keys[i]));
        if (s && *s)
            return s;
    }
    return NULL;
}

/* The checklists named by the recommendation's verdicts, with their items when a checklist
 * plugin of that name is loaded (its name alone otherwise). */
static int add_checklists(plugin_host *host, view *model, gw_error *err)
{
    static const char *const question_keys[] = {"question", "text", "title", "id", NULL};
    static const char *const how_keys[] = {"how", "how_to_check", "check", NULL};
    const view *names = view_path(model, "recommendation.checklists");
    view *details = view_map_set(model, "checklist_details", view_list());
    if (host && view_len(names) > 0) {
        int rc = plugin_host_load_kind(host, "checklist", err);
        if (rc != GW_OK)
            return rc;
    }
    for (size_t i = 0; i < view_len(names); i++) {
        const char *name = view_str(view_list_at(names, i));
        view *c = view_list_push(details, view_map());
        view_map_set_str(c, "name", name);
        plugin *p = host ? plugin_find_kind(host, name, "checklist") : NULL;
        if (!p) {
            view_map_set_str(c, "title", name);
            view_map_set(c, "items", view_list());
            continue;
        }
        plugin_info info;
        plugin_get_info(p, &info);
        view_map_set_str(c, "title", info.description ? info.description : name);
        view *items = NULL;
        int rc = plugin_get_field(p, "items", &items, err);
        if (rc != GW_OK)
            return rc;
        view *out = view_map_set(c, "items", view_list());
        for (size_t j = 0; j < view_len(items); j++) {
            const view *it = view_list_at(items, j);
            const char *q = item_text(it, question_keys);
            if (!q)
                continue;
            view *m = view_list_push(out, view_map());
            view_map_set_str(m, "question", q);
            view_map_set_str(m, "how", item_text(it, how_keys));
            view_map_set_str(m, "severity", view_str(view_map_get(it, "severity")));
        }
        view_free(items);
    }
    return GW_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int cmd_report_views(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    if (argc != 2)
        return gw_error_set(err, GW_EUSAGE,
                            "usage: gpuwise report WORKLOAD.lua [--format md|html] [-o FILE]");
    /* The document format: as asked, else from the output's name, else Markdown. */
    if (!strcmp(ctx->format, "text"))
        ctx->format = ctx->output && (ends_with(ctx->output, ".html") ||
                                      ends_with(ctx->output, ".htm"))
                          ? "html"
                          : "md";
    cli_decision c;
    int rc = cli_decision_run(ctx, argv[1], 0, &c, err);   /* the document has no trace */
    if (rc != GW_OK)
        return rc;
    view *model = decision_to_view(c.d);
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%d", gmtime_r(&now, &tm));
    view_map_set_str(model, "generated", date);
    gw_buf sub = GW_BUF_INIT;
    buf_printf(&sub, "%s; %g h a day over %g months; amounts in %s", c.w->path,
               c.w->hours_per_day, c.w->horizon_months, c.w->currency);
    view_map_set_str(model, "subtitle", buf_cstr(&sub));
    buf_free(&sub);
    rc = add_checklists(c.host, model, err);
    /* The document needs only the model: the decision, its plugins and the KB go first, and
     * rendering reuses their memory. */
    cli_decision_free(&c);
    if (rc == GW_OK)
        rc = render_document(ctx, "justification", model, err);
    view_free(model);
    return rc;
}

/* Every view of a decision and its document dies with the command: one arena holds them. */
static int cmd_report(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    view_arena *a = view_arena_begin();
    int rc = cmd_report_views(ctx, argc, argv, err);
    view_arena_end(a);
    return rc;
}

CLI_LEGACY_GROUP(cli_report_group, "report", "write the purchase justification for a workload (Markdown or HTML)", "usage: gpuwise report WORKLOAD.lua [--format md|html] [-o FILE] [--template FILE]\n"
    "\n"
    "Decides as `gpuwise decide` does and writes the justification: the recommendation and its\n"
    "three strongest reasons, the workload and its assumptions, the options considered and why\n"
    "each infeasible one fell out, the cost table, the cumulative-cost chart with the break-even\n"
    "point, cost per unit of work, sensitivity, risks and checklists, and numbered citations.\n"
    "The format defaults to html when FILE ends in .html, md otherwise.  With md, charts are\n"
    "written as SVG files beside FILE.\n", cmd_report)
