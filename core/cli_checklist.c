/* cli_checklist.c — the `gpuwise checklist` command: lists the checklist plugins or prints
 * one as text, JSON or a document, optionally answering its automatic items from an
 * nvidia-smi dump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "checklist.h"
#include "cli.h"
#include "cli_legacy.h"
#include "inspect.h"
#include "nvsmi.h"
#include "plugin.h"
#include "render.h"

static const char usage[] =
    "usage: gpuwise checklist [NAME] [--dump FILE.xml] [--json] [--format text|md|html] [-o FILE]\n"
    "\n"
    "With no NAME, lists the checklists.  With NAME, prints that checklist: each item's\n"
    "question, how to check it and how much it matters (high, medium, low).  Shipped:\n"
    "  used-card        before paying for a used GPU (ex-mining cards above all)\n"
    "  a100-rental      after renting a cloud A100: the switches that decide its speed\n"
    "  multi-gpu-build  power, PCIe lanes, spacing, cooling and NCCL for several GPUs\n"
    "  buy-vs-rent      the questions that decide between buying and renting\n"
    "\n"
    "--dump FILE.xml   answer the items marked automatic from an `nvidia-smi -q -x` dump\n"
    "                  (the checks of `gpuwise inspect`)\n";

/* The plugin folders in search order: --plugins, the user's, the shipped ones. */
static int open_host(gw_ctx *ctx, plugin_host **host, gw_error *err)
{
    char user_dir[4200], shipped_dir[4200];
    const char *dirs[GW_MAX_PLUGIN_DIRS + 2];
    size_t n = 0;
    for (int i = 0; i < ctx->n_plugin_dirs; i++)
        dirs[n++] = ctx->plugin_dirs[i];
    if (cli_path_join(user_dir, sizeof user_dir, ctx->user_data_dir, "plugins") == 0)
        dirs[n++] = user_dir;
    if (cli_path_join(shipped_dir, sizeof shipped_dir, ctx->data_dir, "plugins") == 0)
        dirs[n++] = shipped_dir;
    int rc = plugin_host_new(dirs, n, NULL, NULL, host, err);
    if (rc == GW_OK)
        rc = plugin_host_load_all(*host, err);
    return rc;
}

static view *inspect_dump(gw_ctx *ctx, const char *path, gw_error *err, int *rc)
{
    nvsmi_log *log = NULL;
    *rc = nvsmi_read_file(path, &log, err);
    if (*rc != GW_OK)
        return NULL;
    kb *k = NULL;
    gw_error kb_err = {0};
    if (cli_open_kb(ctx, 0, &k, &kb_err) != GW_OK)
        fprintf(ctx->diag, "gpuwise checklist: no knowledge base (%s): cards are not identified\n",
                kb_err.msg);
    inspect_result *r = NULL;
    *rc = inspect_run(log, k ? inspect_kb_lookup : NULL, k, &r, err);
    nvsmi_log_free(log);
    if (k)
        kb_close(k);
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
    char date[16] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d", &tm);
    view_map_set(model, "title", view_stringf("Checklist: %s", str(model, "description")));
    view_map_set_str(model, "generated", date);
}

static int cmd_checklist(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    const char *name = NULL, *dump = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dump") == 0 || strncmp(argv[i], "--dump=", 7) == 0) {
            if (argv[i][6] == '=')
                dump = argv[i] + 7;
            else if (i + 1 < argc)
                dump = argv[++i];
            else
                return gw_error_set(err, GW_EUSAGE, "--dump needs a file\n%s", usage);
        } else if (argv[i][0] == '-') {
            return gw_error_set(err, GW_EUSAGE, "unknown option '%s'\n%s", argv[i], usage);
        } else if (name) {
            return gw_error_set(err, GW_EUSAGE, "one checklist at a time\n%s", usage);
        } else {
            name = argv[i];
        }
    }
    if (dump && !name)
        return gw_error_set(err, GW_EUSAGE, "--dump needs a checklist NAME\n%s", usage);

    plugin_host *host = NULL;
    int rc = open_host(ctx, &host, err);
    if (rc != GW_OK) {
        plugin_host_free(host);
        return rc;
    }
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

    if (rc == GW_OK) {
        gw_buf out = GW_BUF_INIT;
        if (ctx->json) {
            view_to_json(model, &out, 1);
            rc = cli_write_output(ctx, out.data ? out.data : "", out.len, err);
        } else if (strcmp(ctx->format, "text") != 0) {
            if (!name) {
                rc = gw_error_set(err, GW_EUSAGE, "--format %s needs a checklist NAME",
                                  ctx->format);
            } else {
                add_document_fields(model);
                rc = render_document(ctx, "checklist", model, err);
            }
        } else {
            if (name)
                text_checklist(&out, model);
            else
                text_list(&out, model);
            rc = cli_write_output(ctx, out.data ? out.data : "", out.len, err);
        }
        buf_free(&out);
    }
    view_free(model);
    plugin_host_free(host);
    return rc;
}

CLI_LEGACY_GROUP(cli_checklist_group, "checklist", "print a checklist (used card, A100 rental, multi-GPU build, buy vs rent)", usage, cmd_checklist)
