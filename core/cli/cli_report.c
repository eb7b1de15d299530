/* cli_report.c — the `gpuwise report` command: the purchase justification document, rendered
 * from the decision's view model with templates/justification.md.mustache, plus the checklists
 * the rules attached to the recommendation (read from the checklist plugins). */
#include <stdio.h>
#include <string.h>

#include "cli_decide.h"
#include "cli_document.h"

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
            view_map_set_int(c, "item_count", 0);
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
        view_map_set_int(c, "item_count", (long long)view_len(out));
        view_free(items);
    }
    return GW_OK;
}

static int cmd_report(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    /* JSON is the model a template reads, so a template given with it would go unused. */
    if (ctx->json && ctx->template_path)
        return gw_error_set(err, GW_EUSAGE, "--template: json is the model a template reads; "
                            "it renders no template");
    cli_decision c;
    /* the document has no trace */
    int rc = cli_decision_run(ctx, args->argv[0], cli_decision_flags(args), &c, err);
    if (rc != GW_OK)
        return rc;
    /* The date is the renderer's to add ("generated"), as SOURCE_DATE_EPOCH allows. */
    view *model = decision_to_view(c.d);
    gw_buf sub = GW_BUF_INIT;
    buf_printf(&sub, "%s; %g h a day over %g month%s; amounts in %s", c.w->path,
               c.w->hours_per_day, c.w->horizon_months, c.w->horizon_months == 1 ? "" : "s",
               c.w->currency);
    view_map_set_str(model, "subtitle", buf_cstr(&sub));
    buf_free(&sub);
    /* The parser has checked the value against the option's choices. */
    const char *appendix = cli_value(args, "appendix");
    view_map_set_bool(model, "appendix_full", appendix && strcmp(appendix, "full") == 0);
    rc = add_checklists(c.host, model, err);
    /* No option feasible: the document is written all the same (it says why), then the
     * command fails with the same line. */
    gw_error none = {0};
    int verdict = cli_decision_verdict(&c, &none);
    /* The document needs only the model: the decision, its plugins and the KB go first, and
     * rendering reuses their memory. */
    cli_decision_free(&c);
    if (rc == GW_OK && ctx->json) {
        gw_buf out = GW_BUF_INIT;
        view_to_json(model, &out, 1);
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
        buf_free(&out);
    } else if (rc == GW_OK) {
        rc = cli_render_document(ctx, "justification", model, err);
    }
    view_free(model);
    if (rc == GW_OK && verdict != GW_OK) {
        *err = none;
        rc = verdict;
    }
    return rc;
}

static const cli_option report_options[] = {
    {"appendix", 0, "WHICH", CLI_CHOICE, "short|full",
     "`short` (the default): the appendix explains the recommendation and its runners-up (the "
     "five best-ranked options' figures, evidence and notes; the recommendation's evidence and "
     "every rule's verdict on it); `full` adds every option that fell out, every feasible "
     "option's figures and caveats and every rule's verdicts (all of which `gpuwise decide "
     "--json` prints either way)", 0},
    CLI_ALL_OPTIONS_OPTION,
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command report_commands[] = {
    {"report", "WORKLOAD", 1, 1, CLI_FILE,
     "write the purchase justification for a workload (Markdown or HTML)",
     "Decides as `gpuwise decide` does and writes the justification: the recommendation and "
     "its three strongest reasons, the workload and its assumptions, the options considered "
     "and why each infeasible one fell out, the cost table, the cumulative-cost chart with the "
     "break-even point, cost per unit of work, sensitivity, risks and checklists, and numbered "
     "citations; then an appendix (`--appendix`).  It is rendered from "
     "`justification.md.mustache` (see `--template`).\n\n"
     "The example workloads of this copy are in @EXAMPLES@.  For instance, from the source "
     "tree:\n\n"
     "    gpuwise report examples/vision-team.lua -o justification.html\n"
     "    gpuwise report examples/big-model.lua -o big-model.md\n\n"
     "With md, the charts are written as SVG files beside FILE, named after it (`-o j.md` "
     "writes `j-cumulative-cost.svg`, ...); on standard output they are only named.  With html, the page holds them inline.  "
     "The json output is the model the template reads (what `gpuwise decide --json` prints, "
     "without the trace, plus subtitle and checklist_details; the date is added when it is "
     "rendered), for writing your own template and trying it with `gpuwise render`.\n\n"
     "Exit status: 0 ok, 3 no option is feasible: the document is written, saying so, and the "
     "message names the closest option and what it lacks; 64 usage, 65 a bad workload file (a candidate GPU the KB does not know included) or template, 66 a "
     "missing workload file or `--template` file, 70 a "
     "plugin error, 73/74 the output cannot be written (nothing is left half-written).",
     report_options, CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON, CLI_TEMPLATE, cmd_report, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_report_group = {
    "report", "write the purchase justification for a workload (Markdown or HTML)", NULL,
    report_commands,
};
