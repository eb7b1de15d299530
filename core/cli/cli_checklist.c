/* cli_checklist.c — the `gpuwise checklist` command: lists the checklist plugins (a listing:
 * text, md, csv, json) or prints one as text, JSON or a document, optionally answering its
 * automatic items from an nvidia-smi dump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "inspect/checklist.h"
#include "cli.h"
#include "cli_document.h"
#include "cli_inspect.h"
#include "cli_listing.h"
#include "inspect/inspect.h"
#include "inspect/nvsmi.h"
#include "sandbox/plugin.h"
#include "ingest/records.h"

static view *inspect_dump(gw_ctx *ctx, const char *path, gw_error *err, int *rc)
{
    nvsmi_log *log = NULL;
    *rc = nvsmi_read_file(path, &log, err);
    if (*rc != GW_OK)
        return NULL;
    inspect_result *r = NULL;
    *rc = cli_inspect_log(ctx, "checklist", log, &r, err);
    nvsmi_log_free(log);
    if (*rc != GW_OK)
        return NULL;
    view *v = inspect_view(r);
    inspect_result_free(r);
    return v;
}

static const char *str(const view *map, const char *key)
{
    const char *s = view_str(view_map_get(map, key));
    return s ? s : "";
}

static void text_list(gw_buf *out, const view *list)
{
    if (!view_len(list)) {
        buf_puts(out, "no checklists found\n");
        return;
    }
    for (size_t i = 0; i < view_len(list); i++) {
        const view *c = view_list_at(list, i);
        buf_printf(out, "%-18s %s (%.0f items)\n", str(c, "name"), str(c, "description"),
                   view_num(view_map_get(c, "items")));
    }
}

static void text_checklist(gw_buf *out, const view *m)
{
    buf_printf(out, "%s: %s\n", str(m, "name"), str(m, "description"));
    const view *items = view_map_get(m, "items");
    const char *section = NULL;
    for (size_t i = 0; i < view_len(items); i++) {
        const view *it = view_list_at(items, i);
        const char *s = view_str(view_map_get(it, "section"));
        if (s && (!section || strcmp(s, section) != 0)) {
            buf_printf(out, "\n%s\n", s);
            section = s;
        }
        buf_printf(out, "\n%2zu. [%s] %s\n", i + 1, str(it, "severity"), str(it, "question"));
        buf_printf(out, "    how: %s\n", str(it, "how_to_check"));
        const view *answer = view_map_get(it, "answer");
        if (!view_is_null(answer))
            buf_printf(out, "    answer (%s): %s %s\n", str(answer, "by"), str(answer, "status"),
                       str(answer, "text"));
        else if (view_str(view_map_get(it, "auto")))
            buf_printf(out, "    automatic: `gpuwise inspect` answers this (%s)\n",
                       str(it, "auto"));
    }
    if (view_truthy(view_map_get(m, "has_answers")))
        buf_printf(out, "\n%.0f of %zu items answered from %s\n",
                   view_num(view_map_get(m, "answered")), view_len(items),
                   str(m, "inspection_source"));
}

static void add_document_fields(view *model)
{
    char date[11];
    gw_today_date(date);
    view_map_set(model, "title", view_stringf("Checklist: %s", str(model, "description")));
    view_map_set_str(model, "generated", date);
}

static const cli_column list_columns[] = {
    {"name", "Name"}, {"description", "Description"}, {"items", "Items"},
    {"version", "Version"}, {"path", "Path"}, {NULL, NULL},
};

/* Which of the formats the command declares fit what was asked: a listing has no document (no
 * html) and one checklist is no table (no csv). */
static int check_format(const gw_ctx *ctx, const char *name, gw_error *err)
{
    const char *f = ctx->format;
    if (name && strcmp(f, "csv") == 0)
        return gw_error_set(err, GW_EUSAGE, "a checklist is written as text, md, html or json, "
                            "not csv (csv is for the list of checklists, without NAME)");
    if (!name && strcmp(f, "html") == 0)
        return gw_error_set(err, GW_EUSAGE, "html needs a checklist NAME (the list of "
                            "checklists is written as text, md, csv or json)");
    /* only a checklist's md and html come from a template: refused rather than ignored */
    if (ctx->template_path && (!name || (strcmp(f, "md") != 0 && strcmp(f, "html") != 0)))
        return gw_error_set(err, GW_EUSAGE, "--template: only a checklist NAME in md or html is "
                            "rendered from a template");
    return GW_OK;
}

static int cmd_checklist(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *name = args->argc ? args->argv[0] : NULL, *dump = cli_value(args, "dump");
    if (dump && !name)
        return gw_error_set(err, GW_EUSAGE, "--dump needs a checklist NAME");
    int rc = check_format(ctx, name, err);
    if (rc != GW_OK)
        return rc;

    plugin_host *host = NULL;
    if ((rc = cli_plugins_open(ctx, NULL, &host, err)) != GW_OK)
        return rc;
    view *inspection = NULL;
    if (dump) {
        inspection = inspect_dump(ctx, dump, err, &rc);
        if (rc != GW_OK) {
            plugin_host_free(host);
            return rc;
        }
    }
    view *model = NULL;
    if (name)
        rc = checklist_view(host, name, inspection, &model, err);
    else
        model = checklist_list(host);
    view_free(inspection);

    if (rc == GW_OK && !name && strcmp(ctx->format, "text") != 0) {
        rc = cli_listing_write(ctx, model, model, list_columns, err);
    } else if (rc == GW_OK && ctx->json) {
        gw_buf out = GW_BUF_INIT;
        view_to_json(model, &out, 1);
        rc = cli_write_output(ctx, out.data ? out.data : "", out.len, err);
        buf_free(&out);
    } else if (rc == GW_OK && strcmp(ctx->format, "text") != 0) {
        add_document_fields(model);
        rc = cli_render_document(ctx, "checklist", model, err);
    } else if (rc == GW_OK) {
        gw_buf out = GW_BUF_INIT;
        view *shown = view_term_copy(model);   /* a plugin's words cannot forge a line */
        if (name)
            text_checklist(&out, shown);
        else
            text_list(&out, shown);
        view_free(shown);
        rc = cli_write_output(ctx, out.data ? out.data : "", out.len, err);
        buf_free(&out);
    }
    view_free(model);
    plugin_host_free(host);
    return rc;
}

static const cli_option checklist_options[] = {
    {"dump", 0, "FILE.xml", CLI_FILE, NULL,
     "answer the items marked automatic from this `nvidia-smi -q -x` dump (the checks of "
     "`gpuwise inspect`); needs a checklist NAME", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command checklist_commands[] = {
    {"checklist", "[NAME]", 0, 1, CLI_CHECKLIST,
     "print a checklist (used card, A100 rental, multi-GPU build, buy vs rent)",
     "With no NAME, lists the checklists (text, md, csv or json).  With NAME, prints that "
     "checklist (text, md, html or json): each item's question, how to check it and how much it "
     "matters (high, medium, low).  Shipped:\n"
     "\n"
     "- `used-card`: before paying for a used GPU (ex-mining cards above all)\n"
     "- `a100-rental`: after renting a cloud A100: the switches that decide its speed\n"
     "- `multi-gpu-build`: power, PCIe lanes, spacing, cooling and NCCL for several GPUs\n"
     "- `buy-vs-rent`: the questions that decide between buying and renting\n"
     "\n"
     "Checklists are plugins of kind `checklist`, read from the `checklists/` folder of each "
     "plugin folder: those given with `--plugins DIR`, then `$XDG_CONFIG_HOME/gpuwise/plugins` "
     "(`~/.config/gpuwise/plugins`, where `gpuwise plugin new checklist NAME` writes one), then "
     "the shipped ones.\n"
     "\n"
     "Examples:\n"
     "\n"
     "    gpuwise checklist used-card -o used-card.html\n"
     "    gpuwise checklist used-card --dump dump.xml\n"
     "    gpuwise checklist -o checklists.csv\n"
     "\n"
     "Exit status: 0 ok, 64 usage (html without NAME, csv with one), 65 a dump that is not "
     "readable, 66 no such dump, 67 no checklist of that name (the message lists those there "
     "are), 70 a checklist plugin that breaks its contract.",
     checklist_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON | CLI_FMT_CSV,
     CLI_TEMPLATE, cmd_checklist, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_checklist_group = {
    "checklist", "print a checklist (used card, A100 rental, multi-GPU build, buy vs rent)", NULL,
    checklist_commands,
};
