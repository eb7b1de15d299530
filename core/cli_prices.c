/* cli_prices.c — the `gpuwise prices refresh` command: runs pricing plugins, checks their offers
 * and stores them, all plugins in one KB transaction (a plugin that fails leaves the KB as it
 * was). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plugin.h"
#include "records.h"

/* Does the plugin declare needs_input = true or example = true? */
static int plugin_flag(plugin *p, const char *field)
{
    view *v = NULL;
    gw_error err;
    int on = plugin_get_field(p, field, &v, &err) == GW_OK && view_bool_value(v);
    view_free(v);
    return on;
}

static int refresh_one(gw_ctx *ctx, kb *k, plugin *p, const char *input_path, const char *text,
                       size_t len, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    view *args[1] = {view_map()};
    if (input_path) {
        const char *base = strrchr(input_path, '/');
        view_map_set(args[0], "input", view_stringn(text, len));
        view_map_set_str(args[0], "input_name", base ? base + 1 : input_path);
    }
    char today[11];
    records_today(today);
    view_map_set_str(args[0], "today", today);
    view *offers = NULL;
    gw_buf warnings = GW_BUF_INIT;
    records_result res = {0};
    char *source_id = NULL;
    int rc = plugin_call(p, "offers", args, 1, &offers, err);
    view *log = plugin_take_log(p);
    for (size_t i = 0; i < view_len(log); i++)
        fprintf(ctx->diag, "%s: log: %s\n", info.name, view_str(view_list_at(log, i)));
    view_free(log);
    if (rc == GW_OK) {
        source_id = records_plugin_source(k, 1, p, input_path, err);
        if (!source_id)
            rc = err->code;
    }
    if (rc == GW_OK)
        rc = records_store_offers(k, info.name, source_id, offers, 0, &warnings, &res, err);
    fputs(buf_cstr(&warnings), ctx->diag);
    /* A plugin that hands back bad offers is fixed, not half-stored. */
    if (rc == GW_OK && res.skipped)
        rc = gw_error_set(err, GW_EDATA, "%s: %zu bad offer%s (see the lines above)", info.name,
                          res.skipped, res.skipped == 1 ? "" : "s");
    if (rc == GW_OK) {
        fprintf(ctx->out, "%s: %zu offer%s stored", info.name, res.stored,
                res.stored == 1 ? "" : "s");
        if (res.replaced)
            fprintf(ctx->out, ", %zu earlier offer%s replaced", res.replaced,
                    res.replaced == 1 ? "" : "s");
        fputc('\n', ctx->out);
    }
    buf_free(&warnings);
    free(source_id);
    view_free(offers);
    view_free(args[0]);
    return rc;
}

static int prices_refresh(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *input_path = cli_value(args, "input");
    char *text = NULL;
    size_t len = 0;
    if (input_path) {
        int e = gw_read_file(input_path, &text, &len);
        if (e)
            return gw_error_set(err, GW_ENOINPUT, "%s: %s", input_path, strerror(e));
    }
    kb *k = NULL;
    plugin_host *host = NULL;
    plugin **chosen = NULL;
    size_t n_chosen = 0;
    int rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK)
        rc = cli_plugins_open(ctx, k, &host, err);
    if (rc == GW_OK)
        chosen = gw_xcalloc((size_t)args->argc + plugin_count(host) + 1, sizeof *chosen);
    for (int i = 0; rc == GW_OK && i < args->argc; i++) {
        const char *name = args->argv[i];
        plugin *p = plugin_find_kind(host, name, "pricing");
        if (!p)
            p = plugin_find(host, name);
        plugin_info info;
        if (!p) {
            rc = gw_error_set(err, GW_ENOTFOUND, "no plugin '%s' (see gpuwise plugin list)",
                              name);
            break;
        }
        plugin_get_info(p, &info);
        if (strcmp(info.kind, "pricing") != 0)
            rc = gw_error_set(err, GW_EUSAGE, "'%s' is a %s plugin, not a pricing plugin", name,
                              info.kind);
        else
            chosen[n_chosen++] = p;
    }
    if (rc == GW_OK && args->argc == 0) {
        for (size_t i = 0; i < plugin_count(host); i++) {
            plugin *p = plugin_at(host, i);
            plugin_info info;
            plugin_get_info(p, &info);
            if (strcmp(info.kind, "pricing") != 0 || plugin_flag(p, "example"))
                continue;
            if (!input_path && plugin_flag(p, "needs_input"))
                continue;
            chosen[n_chosen++] = p;
        }
        if (n_chosen == 0)
            rc = gw_error_set(err, GW_ENOTFOUND, "no pricing plugins to run (see gpuwise "
                                                 "plugin list)");
    }
    for (size_t i = 0; rc == GW_OK && i < n_chosen; i++) {
        if (!input_path && plugin_flag(chosen[i], "needs_input")) {
            plugin_info info;
            plugin_get_info(chosen[i], &info);
            rc = gw_error_set(err, GW_EUSAGE, "%s reads a saved file: give --input FILE",
                              info.name);
        }
    }
    if (rc == GW_OK && (rc = kb_begin(k, err)) == GW_OK) {
        for (size_t i = 0; rc == GW_OK && i < n_chosen; i++)
            rc = refresh_one(ctx, k, chosen[i], input_path, text, len, err);
        if (rc == GW_OK)
            rc = kb_commit(k, err);
        else {
            kb_rollback(k);
            fprintf(ctx->diag, "nothing stored: the knowledge base is as it was\n");
        }
    }
    free(chosen);
    plugin_host_free(host);
    kb_close(k);
    free(text);
    return rc;
}

static const cli_option refresh_options[] = {
    {"input", 0, "FILE", CLI_FILE, NULL,
     "hand FILE's text to the plugins as `ctx.input` (a saved price page or CSV); the plugins "
     "that read a file (`needs_input`) run only with it", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command prices_commands[] = {
    {"prices refresh", "[PLUGIN...]", 0, -1, CLI_PRICING,
     "run pricing plugins and store their cloud offers in the KB",
     "Runs the pricing plugins named (without PLUGIN, every pricing plugin that needs no input "
     "file and is not an example) and stores their cloud offers in the KB, where `gpuwise "
     "offers` lists them.  Prints `PLUGIN: N offers stored` per plugin.\n\n"
     "Each plugin's offers replace the earlier offers of the same provider that came from the "
     "same source; offers of that provider from other sources stay.  Currencies are stored as "
     "given.  A bad offer gets a warning naming the plugin and the offer, and fails the "
     "refresh.  Everything is one transaction: when a plugin fails, nothing is stored.\n\n"
     "```\ngpuwise prices refresh\ngpuwise prices refresh fsdl --input cloud-gpus.csv\n```\n\n"
     "Exit status: 0 ok, 64 usage (a plugin that is not a pricing one, or needs `--input`), "
     "65 bad offers, 66 missing input, 67 unknown plugin, 70 a plugin failed or hit a limit "
     "(`$GPUWISE_PLUGIN_INSTRUCTIONS`, `$GPUWISE_PLUGIN_MEMORY_MB`, "
     "`$GPUWISE_PLUGIN_SECONDS`), 75 KB busy.",
     refresh_options, 0, 0, prices_refresh, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_prices_group = {
    "prices", "run pricing plugins and store their cloud offers", NULL, prices_commands,
};
