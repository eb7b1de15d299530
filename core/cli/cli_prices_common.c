/* cli_prices_common.c — what `prices refresh` and `prices fetch` share: choosing the pricing
 * plugins, running each on its input, storing the offers in one transaction; the cache folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "base/term.h"
#include "cli_prices_common.h"
#include "ingest/records.h"
#include "base/view.h"
#include "base/clock.h"

void cli_price_input_free(cli_price_input *in)
{
    free(in->name);
    free(in->text);
    free(in->url);
    free(in->key);
}

/* Does the plugin declare needs_input = true or example = true? */
int cli_prices_plugin_flag(plugin *p, const char *field)
{
    view *v = NULL;
    gw_error err;
    int on = plugin_get_field(p, field, &v, &err) == GW_OK && view_bool_value(v);
    view_free(v);
    return on;
}

/* A download's offers that give no date are dated the day it was made, not the day it is read. */
static void date_undated(view *offers, const char *date)
{
    for (size_t i = 0; i < view_len(offers); i++) {
        view *o = view_list_at(offers, i);
        if (view_kind(o) == VIEW_MAP && view_is_null(view_map_get(o, "as_of")))
            view_map_set_str(o, "as_of", date);
    }
}

/* ctx of offers(ctx): today, and what the input and the options say.  ctx.input_name is the
 * file's name without its folders: plugins write it into notes, which a KB's export carries to
 * other machines. */
static view *plugin_ctx(const cli_price_input *in, const cli_refresh_opts *o)
{
    view *c = view_map();
    char today[11];
    gw_today_date(today);
    view_map_set_str(c, "today", today);
    if (in) {
        view_map_set(c, "input", view_stringn(in->text, in->len));
        const char *slash = strrchr(in->name, '/');
        view_map_set_str(c, "input_name", slash ? slash + 1 : in->name);
        if (in->url)
            view_map_set_str(c, "url", in->url);
        if (in->key)
            view_map_set_str(c, "source", in->key);
        if (in->date[0])
            view_map_set_str(c, "fetched", in->date);
    }
    if (o->provider)
        view_map_set_str(c, "provider", o->provider);
    return c;
}

/* Runs p on in (NULL: no input) and stores its offers inside the caller's transaction; prints
 * "NAME: N offers stored" and the warnings. */
static int refresh_one(gw_ctx *ctx, kb *k, plugin *p, const cli_price_input *in,
                       const cli_refresh_opts *o, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    gw_buf label = GW_BUF_INIT;
    buf_puts(&label, info.name);
    if (in && in->key) {   /* the key of a plugin's URL: its word, shown (term.h) */
        buf_putc(&label, ' ');
        gw_term_field(&label, in->key);
    }
    view *args[1] = {plugin_ctx(in, o)};
    view *offers = NULL;
    gw_buf warnings = GW_BUF_INIT;
    records_result res = {0};
    char *source_id = NULL;
    int rc = plugin_call(p, "offers", args, 1, &offers, err);
    view *log = plugin_take_log(p);
    gw_buf shown = GW_BUF_INIT;   /* a plugin's words, shown and never obeyed (term.h) */
    for (size_t i = 0; i < view_len(log); i++)
        fprintf(ctx->diag, "%s: log: %s\n", info.name,
                gw_term_safe(&shown, view_str(view_list_at(log, i))));
    view_free(log);
    if (rc == GW_OK)
        rc = records_check_plugin_sources(p, k, offers, "offers", err);
    /* Not an error (a catalog of host VMs alone has no GPU offer), but a mirror's error page
     * read as a price list looks the same: say so. */
    if (rc == GW_OK && in && in->len > 0 && view_len(offers) == 0)
        fprintf(ctx->diag, "%s: no offers found by %s in its %zu bytes: is it the price list "
                "%s reads?\n", in->name, info.name, in->len, info.name);
    if (rc == GW_OK && in && in->date[0])
        date_undated(offers, in->date);
    if (rc == GW_OK) {
        source_id = records_plugin_source_at(k, 1, p, in ? in->name : NULL, in ? in->url : NULL,
                                             in && in->date[0] ? in->date : NULL, err);
        if (!source_id)
            rc = err->code;
    }
    if (rc == GW_OK)
        rc = records_store_offers(k, info.name, source_id, offers, 0, &warnings, &res, err);
    /* each warning names the file it is about: "aws-vms.csv: skypilot: offers[3]... (line 4)" */
    for (const char *w = buf_cstr(&warnings); *w;) {
        size_t n = strcspn(w, "\n");
        buf_reset(&shown);
        if (in) {
            gw_term_field(&shown, in->name);
            buf_puts(&shown, ": ");
        }
        gw_term_text(&shown, w, n, GW_TERM_FIELD);
        fprintf(ctx->diag, "%s\n", buf_cstr(&shown));
        w += n + (w[n] == '\n');
    }
    buf_free(&shown);
    /* A plugin that hands back bad offers is fixed, not half-stored. */
    if (rc == GW_OK && res.skipped)
        rc = gw_error_set(err, GW_EDATA, "%s: %zu bad offer%s (see the lines above)", info.name,
                          res.skipped, res.skipped == 1 ? "" : "s");
    if (rc == GW_OK && res.unknown_gpu && o->strict)
        rc = gw_error_set(err, GW_EDATA, "%s: %zu offer%s name%s a GPU the KB does not know (see "
                          "the lines above; --strict)", buf_cstr(&label), res.unknown_gpu,
                          res.unknown_gpu == 1 ? "" : "s", res.unknown_gpu == 1 ? "s" : "");
    if (rc == GW_OK) {
        fprintf(ctx->out, "%s: %zu offer%s stored", buf_cstr(&label), res.stored,
                res.stored == 1 ? "" : "s");
        if (res.unknown_gpu)
            fprintf(ctx->out, "; %zu left out: GPU not in the KB", res.unknown_gpu);
        /* what changed, as `kb import` says it; removed: the earlier offers no offer matched */
        fprintf(ctx->out, "\n  %-10s %zu added, %zu updated, %zu removed (%zu unchanged)\n",
                kb_table_name(KB_PRICES), res.outcome.added[KB_PRICES],
                res.outcome.updated[KB_PRICES], res.replaced, res.outcome.unchanged[KB_PRICES]);
    }
    buf_free(&warnings);
    buf_free(&label);
    free(source_id);
    view_free(offers);
    view_free(args[0]);
    return rc;
}

/* Runs every input (each with its plugin) in one transaction: all stored, or nothing. */
int cli_prices_store_all(gw_ctx *ctx, kb *k, plugin **plugins, size_t n_plugins,
                         const cli_price_input *inputs, size_t n_inputs,
                         const cli_refresh_opts *o, gw_error *err)
{
    int rc = kb_begin(k, err);
    if (rc != GW_OK)
        return rc;
    for (size_t i = 0; rc == GW_OK && i < n_plugins; i++)
        rc = refresh_one(ctx, k, plugins[i], NULL, o, err);
    for (size_t i = 0; rc == GW_OK && i < n_inputs; i++)
        rc = refresh_one(ctx, k, inputs[i].p, &inputs[i], o, err);
    if (rc == GW_OK)
        return kb_commit(k, err);
    kb_rollback(k);
    fprintf(ctx->diag, "nothing stored: the knowledge base is as it was\n");
    return rc;
}

/* The pricing plugin a command names: GW_ENOTFOUND for no such plugin, GW_EUSAGE for one of
 * another kind. */
static int pricing_plugin(plugin_host *host, const char *name, plugin **out, gw_error *err)
{
    plugin *p = plugin_find_kind(host, name, "pricing");
    if (!p)
        p = plugin_find(host, name);
    *out = NULL;
    if (!p)
        return gw_error_set(err, GW_ENOTFOUND, "no plugin '%s' (see gpuwise plugin list)", name);
    plugin_info info;
    plugin_get_info(p, &info);
    if (strcmp(info.kind, "pricing") != 0)
        return gw_error_set(err, GW_EUSAGE, "'%s' is a %s plugin, not a pricing plugin", name,
                            info.kind);
    *out = p;
    return GW_OK;
}

/* ---- where downloads are kept ----
 * $XDG_CACHE_HOME/gpuwise/prices/PLUGIN/SOURCE/2026-11-30T101500Z.k7q2m4xa-NAME, the raw
 * response, and beside it the same name with ".url" added: the URL it came from.  The folders
 * are this user's alone (made 0700; gw_private_dir_open), and the random letters after the time
 * make a name nobody can guess in advance, to plant something there first.  (Caches of earlier
 * versions name a download "2026-11-30T101500Z-NAME"; they are read back still.) */

/* The folders below the cache root of a plugin's downloads (key NULL), or of one of its sources,
 * into part; returns how many. */
static size_t cache_parts(const char *plugin_name, const char *key, const char *part[3])
{
    part[0] = "prices";
    part[1] = plugin_name;
    part[2] = key;
    return key ? 3 : 2;
}

int cli_prices_cache_dir(const gw_ctx *ctx, const char *plugin_name, const char *key, char *out,
                         size_t outsz)
{
    const char *part[3];
    size_t n_parts = cache_parts(plugin_name, key, part), used = 0;
    int n = snprintf(out, outsz, "%s", ctx->user_cache_dir);
    for (size_t i = 0; n >= 0 && (used += (size_t)n) < outsz && i < n_parts; i++)
        n = snprintf(out + used, outsz - used, "/%s", part[i]);
    return n >= 0 && used < outsz ? 0 : -1;
}

int cli_prices_cache_open(const gw_ctx *ctx, const char *plugin_name, const char *key, int *fd,
                          gw_error *err)
{
    const char *part[3];
    return gw_private_dir_open(ctx->user_cache_dir, part, cache_parts(plugin_name, key, part), fd,
                               err);
}

const char *cli_prices_cache_source_name(const char *file)
{
    const char *name = file + 18;   /* after "2026-11-30T101500Z" */
    if (*name == '.')
        name += strcspn(name, "-");
    return *name ? name + 1 : name;
}

int cli_prices_read_opts(const cli_args *args, cli_refresh_opts *o, gw_error *err)
{
    o->provider = cli_value(args, "provider");
    o->strict = cli_flag(args, "strict") > 0;
    if (o->provider && !*o->provider)
        return gw_error_set(err, GW_EUSAGE, "--provider: expected a provider's name");
    return GW_OK;
}

/* The plugins named, or with none named, every pricing plugin that wants(p) accepts. */
int cli_prices_choose_plugins(plugin_host *host, const cli_args *args,
                              int (*wants)(plugin *p, const void *arg), const void *arg,
                              plugin ***out, size_t *n, gw_error *err)
{
    plugin **chosen = gw_xcalloc((size_t)args->argc + plugin_count(host) + 1, sizeof *chosen);
    int rc = GW_OK;
    *n = 0;
    for (int i = 0; rc == GW_OK && i < args->argc; i++)
        if ((rc = pricing_plugin(host, args->argv[i], &chosen[*n], err)) == GW_OK)
            ++*n;
    for (size_t i = 0; rc == GW_OK && args->argc == 0 && i < plugin_count(host); i++) {
        plugin *p = plugin_at(host, i);
        plugin_info info;
        plugin_get_info(p, &info);
        if (!strcmp(info.kind, "pricing") && !cli_prices_plugin_flag(p, "example") && wants(p, arg))
            chosen[(*n)++] = p;
    }
    if (rc == GW_OK && *n == 0)
        rc = gw_error_set(err, GW_ENOTFOUND, "no pricing plugins to run (see gpuwise plugin "
                          "list)");
    if (rc != GW_OK) {
        free(chosen);
        chosen = NULL;
        *n = 0;
    }
    *out = chosen;
    return rc;
}
