/* cli_prices.c — the `gpuwise prices` commands: refresh (run pricing plugins on their own data,
 * a saved file, or their last downloads), fetch (download what the plugins declare in `urls`,
 * keep each response in the user's cache, then store the offers as refresh does), list (the
 * providers in the KB, their offers and dates) and remove (a provider's offers).  Every command
 * that writes does so in one KB transaction: when a plugin fails, nothing is stored. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/check.h"
#include "cli.h"
#include "cli_listing.h"
#include "io/fetch.h"
#include "sandbox/plugin.h"
#include "ingest/records.h"

/* What one plugin call reads: a file the user gave, a download, or a cached download. */
typedef struct price_input {
    char *name;       /* ctx.input_name, and the file the plugin's source is named after */
    char *text;
    size_t len;
    char *url;        /* where it was downloaded from; NULL for a file */
    char *key;        /* the plugin's name for the source (its `urls` key); NULL for a file */
    char date[11];    /* the day it was downloaded; "" for a file (offers are dated today) */
    plugin *p;        /* the plugin that reads it */
} price_input;

static void price_input_free(price_input *in)
{
    free(in->name);
    free(in->text);
    free(in->url);
    free(in->key);
}

/* How offers are stored, from the options every writing command shares. */
typedef struct refresh_opts {
    const char *provider;   /* --provider: ctx.provider */
    int strict;             /* --strict: an unknown GPU name fails the refresh */
} refresh_opts;

/* Does the plugin declare needs_input = true or example = true? */
static int plugin_flag(plugin *p, const char *field)
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

/* ctx of offers(ctx): today, and what the input and the options say. */
static view *plugin_ctx(const price_input *in, const refresh_opts *o)
{
    view *c = view_map();
    char today[11];
    records_today(today);
    view_map_set_str(c, "today", today);
    if (in) {
        view_map_set(c, "input", view_stringn(in->text, in->len));
        view_map_set_str(c, "input_name", in->name);
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
static int refresh_one(gw_ctx *ctx, kb *k, plugin *p, const price_input *in,
                       const refresh_opts *o, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    gw_buf label = GW_BUF_INIT;
    buf_puts(&label, info.name);
    if (in && in->key)
        buf_printf(&label, " %s", in->key);
    view *args[1] = {plugin_ctx(in, o)};
    view *offers = NULL;
    gw_buf warnings = GW_BUF_INIT;
    records_result res = {0};
    char *source_id = NULL;
    int rc = plugin_call(p, "offers", args, 1, &offers, err);
    view *log = plugin_take_log(p);
    for (size_t i = 0; i < view_len(log); i++)
        fprintf(ctx->diag, "%s: log: %s\n", info.name, view_str(view_list_at(log, i)));
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
        fprintf(ctx->diag, "%s%s%.*s\n", in ? in->name : "", in ? ": " : "", (int)n, w);
        w += n + (w[n] == '\n');
    }
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
        if (res.replaced)
            fprintf(ctx->out, ", %zu earlier offer%s replaced", res.replaced,
                    res.replaced == 1 ? "" : "s");
        if (res.unknown_gpu)
            fprintf(ctx->out, "; %zu left out: GPU not in the KB", res.unknown_gpu);
        fputc('\n', ctx->out);
    }
    buf_free(&warnings);
    buf_free(&label);
    free(source_id);
    view_free(offers);
    view_free(args[0]);
    return rc;
}

/* Runs every input (each with its plugin) in one transaction: all stored, or nothing. */
static int store_all(gw_ctx *ctx, kb *k, plugin **plugins, size_t n_plugins,
                     const price_input *inputs, size_t n_inputs, const refresh_opts *o,
                     gw_error *err)
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
 * $XDG_CACHE_HOME/gpuwise/prices/PLUGIN/SOURCE/2026-11-30T101500Z-NAME, the raw response, and
 * beside it the same name with ".url" added: the URL it came from. */

/* A file or folder name made of s: letters, digits, '.', '_', '-' (others become '_'). */
static char *safe_name(const char *s)
{
    char *out = gw_xstrdup(*s && strcmp(s, ".") && strcmp(s, "..") ? s : "response");
    for (char *c = out; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
            *c = '_';
    return out;
}

static int cache_dir(const gw_ctx *ctx, const char *plugin_name, const char *key, char *out,
                     size_t outsz)
{
    int n = key ? snprintf(out, outsz, "%s/prices/%s/%s", ctx->user_cache_dir, plugin_name, key)
                : snprintf(out, outsz, "%s/prices/%s", ctx->user_cache_dir, plugin_name);
    return n > 0 && (size_t)n < outsz ? 0 : -1;
}

/* Keeps a download in the cache: GW_ECANTCREAT or GW_EIO when it cannot be written. */
static int cache_keep(const gw_ctx *ctx, const char *plugin_name, const price_input *in,
                      const char *stamp, gw_error *err)
{
    char dir[4400], path[4700], url_path[4800];
    if (cache_dir(ctx, plugin_name, in->key, dir, sizeof dir) ||
        snprintf(path, sizeof path, "%s/%s-%s", dir, stamp, in->name) >= (int)sizeof path)
        return gw_error_set(err, GW_ECANTCREAT, "%s: cache path too long", ctx->user_cache_dir);
    snprintf(url_path, sizeof url_path, "%s.url", path);
    gw_buf url_line = GW_BUF_INIT;
    buf_printf(&url_line, "%s\n", in->url);
    int e = cli_mkdir_p(dir);
    const char *failed = dir;
    if (!e && (e = gw_write_file_atomic(path, in->text, in->len)) != 0)
        failed = path;
    if (!e && (e = gw_write_file_atomic(url_path, url_line.data, url_line.len)) != 0)
        failed = url_path;
    buf_free(&url_line);
    if (e)
        return gw_error_set(err, e == ENOSPC || e == EIO ? GW_EIO : GW_ECANTCREAT, "%s: %s",
                            failed, strerror(e));
    return GW_OK;
}

/* The newest download of one source in folder dir ("" names when there is none). */
static int newest_in(const char *dir, char *out, size_t outsz)
{
    DIR *d = opendir(dir);
    out[0] = '\0';
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || (n > 4 && !strcmp(e->d_name + n - 4, ".url")) ||
            n >= outsz || n < 19 || e->d_name[10] != 'T')
            continue;
        if (strcmp(e->d_name, out) > 0)
            strcpy(out, e->d_name);
    }
    closedir(d);
    return out[0] ? 0 : -1;
}

/* Reads the newest download of each source of p from the cache into *inputs. */
static int cache_replay(const gw_ctx *ctx, plugin *p, price_input **inputs, size_t *n,
                        gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    char dir[4400];
    if (cache_dir(ctx, info.name, NULL, dir, sizeof dir))
        return gw_error_set(err, GW_ENOINPUT, "%s: cache path too long", ctx->user_cache_dir);
    DIR *d = opendir(dir);
    if (!d)
        return gw_error_set(err, GW_ENOINPUT, "%s: no downloads of %s (run gpuwise prices fetch "
                            "%s first)", dir, info.name, info.name);
    char **keys = NULL;
    size_t n_keys = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') {
            keys = gw_xrealloc(keys, (n_keys + 1) * sizeof *keys);
            keys[n_keys++] = gw_xstrdup(e->d_name);
        }
    closedir(d);
    int rc = GW_OK, found = 0;
    for (size_t i = 0; i < n_keys; i++) {
        char sub[4700], file[256], path[5000], url_path[5100];
        snprintf(sub, sizeof sub, "%s/%s", dir, keys[i]);
        if (rc != GW_OK || newest_in(sub, file, sizeof file) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", sub, file);
        snprintf(url_path, sizeof url_path, "%s.url", path);
        price_input in = {0};
        int e2 = gw_read_file(path, &in.text, &in.len);
        if (e2) {
            rc = gw_error_set(err, GW_ENOINPUT, "%s: %s", path, strerror(e2));
            continue;
        }
        char *url = NULL;
        size_t url_len = 0;
        if (gw_read_file(url_path, &url, &url_len) == 0) {
            url[strcspn(url, "\r\n")] = '\0';
            in.url = url;
        }
        in.name = gw_xstrdup(file + 19);   /* after "2026-11-30T101500Z-" */
        in.key = gw_xstrdup(keys[i]);
        memcpy(in.date, file, 10);
        in.date[10] = '\0';
        if (!gw_valid_date(in.date))
            in.date[0] = '\0';
        in.p = p;
        *inputs = gw_xrealloc(*inputs, (*n + 1) * sizeof **inputs);
        (*inputs)[(*n)++] = in;
        found++;
    }
    for (size_t i = 0; i < n_keys; i++)
        free(keys[i]);
    free(keys);
    if (rc == GW_OK && !found)
        rc = gw_error_set(err, GW_ENOINPUT, "%s: no downloads of %s (run gpuwise prices fetch "
                          "%s first)", dir, info.name, info.name);
    return rc;
}

/* ---- prices refresh ---- */

static int read_opts(const cli_args *args, refresh_opts *o, gw_error *err)
{
    o->provider = cli_value(args, "provider");
    o->strict = cli_flag(args, "strict") > 0;
    if (o->provider && !*o->provider)
        return gw_error_set(err, GW_EUSAGE, "--provider: expected a provider's name");
    return GW_OK;
}

/* The plugins named, or with none named, every pricing plugin that wants(p) accepts. */
static int choose_plugins(plugin_host *host, const cli_args *args,
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
        if (!strcmp(info.kind, "pricing") && !plugin_flag(p, "example") && wants(p, arg))
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

/* refresh without names: the plugins that need no file (or, given one, all). */
static int wants_refresh(plugin *p, const void *arg)
{
    return *(const int *)arg || !plugin_flag(p, "needs_input");
}

/* refresh --cached without names: the plugins with downloads in the cache. */
static int wants_cached(plugin *p, const void *arg)
{
    const gw_ctx *ctx = arg;
    plugin_info info;
    plugin_get_info(p, &info);
    char dir[4400];
    return cache_dir(ctx, info.name, NULL, dir, sizeof dir) == 0 && cli_file_exists(dir);
}

static int prices_refresh(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *input_path = cli_value(args, "input");
    int cached = cli_flag(args, "cached") > 0, have_input = input_path != NULL;
    refresh_opts o;
    int rc = read_opts(args, &o, err);
    if (rc != GW_OK)
        return rc;
    if (input_path && cached)
        return gw_error_set(err, GW_EUSAGE, "--input and --cached exclude each other");
    price_input *inputs = NULL;
    size_t n_inputs = 0;
    if (input_path) {
        price_input in = {0};
        int e = gw_read_input(input_path, GW_INPUT_PLUGIN_INPUT, &in.text, &in.len, err);
        if (e)
            return e;
        in.name = gw_xstrdup(input_path);
        inputs = gw_xcalloc(1, sizeof *inputs);
        inputs[n_inputs++] = in;
    }
    kb *k = NULL;
    plugin_host *host = NULL;
    plugin **chosen = NULL, **plain = NULL;
    size_t n_chosen = 0, n_plain = 0;
    if (rc == GW_OK)
        rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK)
        rc = cli_plugins_open(ctx, k, &host, err);
    if (rc == GW_OK)
        rc = cached ? choose_plugins(host, args, wants_cached, ctx, &chosen, &n_chosen, err)
                    : choose_plugins(host, args, wants_refresh, &have_input, &chosen, &n_chosen,
                                     err);
    /* each plugin with the file, its cached downloads, or its own data */
    plain = gw_xcalloc(n_chosen + 1, sizeof *plain);
    price_input *all = NULL;
    size_t n_all = 0;
    for (size_t i = 0; rc == GW_OK && i < n_chosen; i++) {
        plugin_info info;
        plugin_get_info(chosen[i], &info);
        if (cached)
            rc = cache_replay(ctx, chosen[i], &all, &n_all, err);
        else if (input_path) {
            all = gw_xrealloc(all, (n_all + 1) * sizeof *all);
            all[n_all] = (price_input){gw_xstrdup(inputs[0].name), NULL, inputs[0].len, NULL,
                                       NULL, "", chosen[i]};
            all[n_all].text = gw_xstrndup(inputs[0].text, inputs[0].len);
            n_all++;
        } else if (plugin_flag(chosen[i], "needs_input"))
            rc = gw_error_set(err, GW_EUSAGE, "%s reads a saved file: give --input FILE (or "
                              "--cached after gpuwise prices fetch %s)", info.name, info.name);
        else
            plain[n_plain++] = chosen[i];
    }
    if (rc == GW_OK)
        rc = store_all(ctx, k, plain, n_plain, all, n_all, &o, err);
    for (size_t i = 0; i < n_all; i++)
        price_input_free(&all[i]);
    for (size_t i = 0; i < n_inputs; i++)
        price_input_free(&inputs[i]);
    free(all);
    free(inputs);
    free(plain);
    free(chosen);
    plugin_host_free(host);
    kb_close(k);
    return rc;
}

/* ---- prices fetch ---- */

/* A URL's path, from just after the host to before any query or fragment. */
static void url_path(const char *url, const char **start, size_t *len)
{
    const char *s = strstr(url, "://");
    s = s ? s + 3 : url;
    s += strcspn(s, "/?#");
    *start = s;
    *len = strcspn(s, "?#");
}

/* The last path segments of url ("vms.csv"; with two, "aws-vms.csv"), safe as a file name
 * (caller frees). */
static char *url_basename(const char *url, int segments)
{
    const char *path;
    size_t len;
    url_path(url, &path, &len);
    while (len > 0 && path[len - 1] == '/')
        len--;
    size_t start = len;
    for (int i = 0; i < segments; i++) {
        if (i > 0 && start > 0)
            start--;   /* the '/' between two segments */
        while (start > 0 && path[start - 1] != '/')
            start--;
    }
    while (start < len && path[start] == '/')
        start++;
    char *base = gw_xstrndup(path + start, len - start);
    for (char *c = base; *c; c++)
        if (*c == '/')
            *c = '-';
    char *safe = safe_name(base);
    free(base);
    return safe;
}

/* How many trailing path segments a and b share ("/v7/aws/vms.csv", "/aws/vms.csv": 2). */
static size_t common_tail(const char *a, const char *b)
{
    const char *pa, *pb;
    size_t la, lb, segments = 0;
    url_path(a, &pa, &la);
    url_path(b, &pb, &lb);
    while (la > 0 && pa[la - 1] == '/')
        la--;
    while (lb > 0 && pb[lb - 1] == '/')
        lb--;
    while (la > 0 && lb > 0) {
        size_t sa = la, sb = lb;
        while (sa > 0 && pa[sa - 1] != '/')
            sa--;
        while (sb > 0 && pb[sb - 1] != '/')
            sb--;
        if (la - sa != lb - sb || memcmp(pa + sa, pb + sb, la - sa) != 0 || la == sa)
            break;
        segments++;
        la = sa ? sa - 1 : 0;
        lb = sb ? sb - 1 : 0;
    }
    return segments;
}

/* A plugin's sources: its `urls` as key and URL pairs ({aws = "https://..."} or a list, whose
 * keys are 1, 2, ...).  GW_ECONFIG for a urls field of another shape. */
typedef struct source_url {
    char *key, *url;
} source_url;

static int plugin_urls(plugin *p, source_url **out, size_t *n, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    view *v = NULL;
    *out = NULL;
    *n = 0;
    int rc = plugin_get_field(p, "urls", &v, err);
    if (rc != GW_OK)
        return rc;
    int list = view_kind(v) == VIEW_LIST;
    if (!view_is_null(v) && !list && view_kind(v) != VIEW_MAP) {
        view_free(v);
        return gw_error_set(err, GW_ECONFIG, "%s: urls: expected a table of URLs", info.path);
    }
    for (size_t i = 0; i < view_len(v); i++) {
        view *u = list ? view_list_at(v, i) : view_map_value_at(v, i);
        if (view_kind(u) != VIEW_STRING) {
            rc = gw_error_set(err, GW_ECONFIG, "%s: urls: expected URL strings", info.path);
            break;
        }
        char key[32];
        snprintf(key, sizeof key, "%zu", i + 1);
        *out = gw_xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[*n].key = safe_name(list ? key : view_map_key_at(v, i));
        (*out)[(*n)++].url = gw_xstrdup(view_str(u));
    }
    view_free(v);
    return rc;
}

static void source_urls_free(source_url *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].key);
        free(s[i].url);
    }
    free(s);
}

/* The source of p a mirror URL stands for: the one whose URL ends in the longest run of the
 * same path segments (a mirror keeps the layout: .../aws/vms.csv is aws), else "mirror". */
static char *mirror_key(const source_url *own, size_t n, const char *mirror)
{
    size_t best = 0, ties = 0, at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = common_tail(own[i].url, mirror);
        if (c > best) {
            best = c;
            ties = 1;
            at = i;
        } else if (c == best && c > 0) {
            ties++;
        }
    }
    return gw_xstrdup(best > 0 && ties == 1 ? own[at].key : "mirror");
}

/* Downloads one source of p into *in, and keeps it in the cache.  Prints nothing. */
static int fetch_one(const gw_ctx *ctx, plugin *p, const char *key, const char *url,
                     const fetch_limits *lim, const char *stamp, price_input *in, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    *in = (price_input){0};
    in->p = p;
    in->url = gw_xstrdup(url);
    in->key = gw_xstrdup(key);
    /* the name a plugin may read the source from: "aws-vms.csv" */
    if (!strcmp(key, "mirror")) {
        in->name = url_basename(url, 2);
    } else {
        char *base = url_basename(url, 1);
        gw_buf name = GW_BUF_INIT;
        buf_printf(&name, "%s-%s", key, base);
        free(base);
        in->name = buf_detach(&name);
    }
    memcpy(in->date, stamp, 10);
    in->date[10] = '\0';
    int rc = fetch_get(url, lim, &in->text, &in->len, err);
    if (rc == GW_OK)
        rc = cache_keep(ctx, info.name, in, stamp, err);
    return rc;
}

/* fetch without names: the pricing plugins that declare urls. */
static int wants_urls(plugin *p, const void *arg)
{
    (void)arg;
    view *v = NULL;
    gw_error e;
    int has = plugin_get_field(p, "urls", &v, &e) == GW_OK && view_len(v) > 0;
    view_free(v);
    return has;
}

/* --timeout and --max-size (or $GPUWISE_FETCH_MAX_MB) as limits. */
static int read_limits(const cli_args *args, fetch_limits *lim, gw_error *err)
{
    double timeout = FETCH_TIMEOUT_DEFAULT, max_mib = FETCH_MAX_BYTES_DEFAULT / (1024.0 * 1024.0);
    const char *env = getenv("GPUWISE_FETCH_MAX_MB");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (*end || !(v > 0 && v <= 1048576))
            return gw_error_set(err, GW_EUSAGE, "GPUWISE_FETCH_MAX_MB: expected a number of MiB "
                                "from 1 to 1048576, not '%s'", env);
        max_mib = v;
    }
    if (cli_number(args, "timeout", 0.001, 86400, &timeout, err) != GW_OK ||
        cli_number(args, "max-size", 0.001, 1048576, &max_mib, err) != GW_OK)
        return GW_EUSAGE;
    lim->timeout_s = timeout;
    lim->max_bytes = (size_t)(max_mib * 1024.0 * 1024.0);
    return GW_OK;
}

/* The downloads one plugin asks for: --url mirrors, else its own urls. */
static int plan_plugin(plugin *p, const cli_args *args, source_url **plan, size_t *n,
                       gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    source_url *own = NULL;
    size_t n_own = 0;
    int rc = plugin_urls(p, &own, &n_own, err);
    const char *mirror;
    *plan = NULL;
    *n = 0;
    for (size_t i = 0; rc == GW_OK && (mirror = cli_value_at(args, "url", i)) != NULL; i++) {
        *plan = gw_xrealloc(*plan, (*n + 1) * sizeof **plan);
        (*plan)[*n].key = mirror_key(own, n_own, mirror);
        (*plan)[(*n)++].url = gw_xstrdup(mirror);
    }
    if (rc == GW_OK && *n == 0) {
        *plan = own;
        *n = n_own;
        own = NULL;
        n_own = 0;
    }
    if (rc == GW_OK && *n == 0)
        rc = gw_error_set(err, GW_EUSAGE, "%s declares no urls: give --url URL, or save the file "
                          "and run gpuwise prices refresh %s --input FILE", info.name, info.name);
    source_urls_free(own, n_own);
    return rc;
}

/* Downloads every source of the chosen plugins; a source that fails is named on the
 * diagnostics stream and the others go on.  *first_failure gets the first failure's code. */
static int fetch_all(gw_ctx *ctx, const cli_args *args, plugin **chosen, size_t n_chosen,
                     const fetch_limits *lim, price_input **inputs, size_t *n_inputs,
                     int *first_failure, gw_error *err)
{
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%M%SZ", &tm);
    for (size_t i = 0; i < n_chosen; i++) {
        source_url *plan = NULL;
        size_t n_plan = 0;
        int rc = plan_plugin(chosen[i], args, &plan, &n_plan, err);
        if (rc != GW_OK)
            return rc;
        plugin_info info;
        plugin_get_info(chosen[i], &info);
        for (size_t j = 0; j < n_plan; j++) {
            price_input in;
            gw_error e = {0};
            rc = fetch_one(ctx, chosen[i], plan[j].key, plan[j].url, lim, stamp, &in, &e);
            if (rc == GW_EINTR_INT || rc == GW_EINTR_TERM) {
                price_input_free(&in);
                source_urls_free(plan, n_plan);
                *err = e;
                return rc;
            }
            if (rc != GW_OK) {
                fprintf(ctx->diag, "gpuwise prices fetch: %s %s: %s\n", info.name, plan[j].key,
                        e.msg);
                if (!*first_failure)
                    *first_failure = rc;
                price_input_free(&in);
                continue;
            }
            fprintf(ctx->diag, "%s %s: %zu bytes from %s\n", info.name, plan[j].key, in.len,
                    plan[j].url);
            *inputs = gw_xrealloc(*inputs, (*n_inputs + 1) * sizeof **inputs);
            (*inputs)[(*n_inputs)++] = in;
        }
        source_urls_free(plan, n_plan);
    }
    return GW_OK;
}

static int prices_fetch(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    refresh_opts o;
    fetch_limits lim;
    int rc = read_opts(args, &o, err);
    if (rc == GW_OK)
        rc = read_limits(args, &lim, err);
    for (size_t i = 0; rc == GW_OK && cli_value_at(args, "url", i); i++)
        rc = fetch_url_allowed(cli_value_at(args, "url", i), err);
    if (rc == GW_OK && cli_value(args, "url") && args->argc != 1)
        rc = gw_error_set(err, GW_EUSAGE, "--url fetches a mirror of one plugin's source: name "
                          "that one plugin");
    if (rc != GW_OK)
        return rc;
    kb *k = NULL;
    plugin_host *host = NULL;
    plugin **chosen = NULL;
    price_input *inputs = NULL;
    size_t n_chosen = 0, n_inputs = 0;
    int failed = 0;
    rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK)
        rc = cli_plugins_open(ctx, k, &host, err);
    if (rc == GW_OK)
        rc = choose_plugins(host, args, wants_urls, NULL, &chosen, &n_chosen, err);
    if (rc == GW_OK)
        rc = fetch_all(ctx, args, chosen, n_chosen, &lim, &inputs, &n_inputs, &failed, err);
    if (rc == GW_OK && n_inputs > 0)
        rc = store_all(ctx, k, NULL, 0, inputs, n_inputs, &o, err);
    if (rc == GW_OK && failed)
        rc = gw_error_set(err, failed, "%s download%s failed (see the lines above)%s",
                          n_inputs ? "some" : "every", n_inputs ? "s" : "",
                          n_inputs ? "; the others' offers are stored" : "");
    for (size_t i = 0; i < n_inputs; i++)
        price_input_free(&inputs[i]);
    free(inputs);
    free(chosen);
    plugin_host_free(host);
    kb_close(k);
    return rc;
}

/* ---- prices list and remove ---- */

/* One provider's cloud offers in the KB. */
typedef struct provider_row {
    const char *provider;          /* borrowed from the prices */
    size_t offers, spot, gpus;
    const char *oldest, *newest;   /* as_of */
    size_t sources;
} provider_row;

static int count_distinct(const kb_price *rows, size_t n, const char *provider, int gpu)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].provider, provider) != 0)
            continue;
        const char *v = gpu ? rows[i].gpu : rows[i].source;
        size_t j = 0;
        while (j < i && (strcmp(rows[j].provider, provider) != 0 || !v ||
                         strcmp(gpu ? rows[j].gpu : rows[j].source, v) != 0))
            j++;
        count += j == i;
    }
    return (int)count;
}

static int cmp_provider(const void *a, const void *b)
{
    return strcasecmp(((const provider_row *)a)->provider, ((const provider_row *)b)->provider);
}

/* The providers of the cloud offers in prices, sorted by name (rows borrow from prices). */
static provider_row *provider_rows(const kb_price *prices, size_t n, size_t *n_rows)
{
    provider_row *rows = gw_xcalloc(n ? n : 1, sizeof *rows);
    *n_rows = 0;
    for (size_t i = 0; i < n; i++) {
        const kb_price *p = &prices[i];
        const char *name = p->provider ? p->provider : "";
        size_t j = 0;
        while (j < *n_rows && strcmp(rows[j].provider, name) != 0)
            j++;
        if (j == *n_rows)
            rows[(*n_rows)++] = (provider_row){name, 0, 0, 0, p->as_of, p->as_of, 0};
        provider_row *r = &rows[j];
        r->offers++;
        r->spot += p->spot != 0;
        if (p->as_of && (!r->oldest || strcmp(p->as_of, r->oldest) < 0))
            r->oldest = p->as_of;
        if (p->as_of && (!r->newest || strcmp(p->as_of, r->newest) > 0))
            r->newest = p->as_of;
    }
    qsort(rows, *n_rows, sizeof *rows, cmp_provider);
    return rows;
}

static const cli_column provider_columns[] = {
    {"provider", "Provider"}, {"offers", "Offers"}, {"spot", "Spot"}, {"gpus", "GPUs"},
    {"oldest", "Oldest as of"}, {"newest", "Newest as of"}, {"sources", "Sources"},
    {NULL, NULL},
};

static int prices_list(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    (void)args;
    kb *k = NULL;
    kb_price *prices = NULL;
    size_t n = 0, nr = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_prices_find(k, NULL, "cloud", NULL, &prices, &n, err);
    if (rc != GW_OK) {
        kb_close(k);
        return rc;
    }
    for (size_t i = 0; i < n; i++)   /* an offer always has a provider; never trust that here */
        if (!prices[i].provider)
            prices[i].provider = gw_xstrdup("");
    provider_row *rows = provider_rows(prices, n, &nr);
    view *root = view_map();
    view *list = view_map_set(root, "providers", view_list());
    gw_buf text = GW_BUF_INIT;
    int w = 8;
    for (size_t i = 0; i < nr; i++) {
        rows[i].gpus = (size_t)count_distinct(prices, n, rows[i].provider, 1);
        rows[i].sources = (size_t)count_distinct(prices, n, rows[i].provider, 0);
        int len = (int)strlen(rows[i].provider);
        w = len > w ? (len > 40 ? 40 : len) : w;
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "provider", rows[i].provider);
        view_map_set_int(m, "offers", (long long)rows[i].offers);
        view_map_set_int(m, "spot", (long long)rows[i].spot);
        view_map_set_int(m, "gpus", (long long)rows[i].gpus);
        view_map_set_str(m, "oldest", rows[i].oldest);
        view_map_set_str(m, "newest", rows[i].newest);
        view_map_set_int(m, "sources", (long long)rows[i].sources);
    }
    if (strcmp(ctx->format, "text") != 0) {
        rc = cli_listing_write(ctx, root, list, provider_columns, err);
    } else {
        if (nr == 0)
            buf_puts(&text, "no cloud offers in the knowledge base\n");
        else
            buf_printf(&text, "%-*s %6s %5s %5s  %-12s %-12s %7s\n", w, "PROVIDER", "OFFERS",
                       "SPOT", "GPUS", "OLDEST AS OF", "NEWEST AS OF", "SOURCES");
        for (size_t i = 0; i < nr; i++)
            buf_printf(&text, "%-*.*s %6zu %5zu %5zu  %-12s %-12s %7zu\n", w, w,
                       rows[i].provider, rows[i].offers, rows[i].spot, rows[i].gpus,
                       rows[i].oldest ? rows[i].oldest : "-", rows[i].newest ? rows[i].newest : "-",
                       rows[i].sources);
        rc = cli_write_output(ctx, buf_cstr(&text), text.len, err);
    }
    buf_free(&text);
    view_free(root);
    free(rows);
    kb_prices_free(prices, n);
    kb_close(k);
    return rc;
}

/* The provider names the KB has that name stands for (case aside), or GW_ENOTFOUND with the
 * closest one. */
static int match_provider(const provider_row *rows, size_t nr, const char *name,
                          const char **out, gw_error *err)
{
    for (size_t i = 0; i < nr; i++)
        if (!strcasecmp(rows[i].provider, name)) {
            *out = rows[i].provider;
            return GW_OK;
        }
    char **lower = gw_xcalloc(nr + 2, sizeof *lower);   /* the names in lower case, then name */
    for (size_t i = 0; i <= nr; i++) {
        lower[i] = gw_xstrdup(i < nr ? rows[i].provider : name);
        for (char *c = lower[i]; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    }
    char *word = lower[nr];
    lower[nr] = NULL;
    const char *near = gw_closest(word, (const char *const *)lower);
    size_t at = 0;
    while (near && lower[at] != near)
        at++;
    int rc = near ? gw_error_set(err, GW_ENOTFOUND, "no offers of a provider '%s' (did you mean "
                                 "%s?  see gpuwise prices list)", name, rows[at].provider)
                  : gw_error_set(err, GW_ENOTFOUND, "no offers of a provider '%s' (see gpuwise "
                                 "prices list)", name);
    for (size_t i = 0; i <= nr; i++)
        free(lower[i]);
    free(word);
    free(lower);
    return rc;
}

static int prices_remove(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    kb *k = NULL;
    kb_price *prices = NULL;
    size_t n = 0, nr = 0;
    int rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK)
        rc = kb_prices_find(k, NULL, "cloud", NULL, &prices, &n, err);
    provider_row *rows = rc == GW_OK ? provider_rows(prices, n, &nr) : NULL;
    const char **names = gw_xcalloc((size_t)args->argc + 1, sizeof *names);
    for (int i = 0; rc == GW_OK && i < args->argc; i++)
        rc = match_provider(rows, nr, args->argv[i], &names[i], err);
    if (rc == GW_OK && (rc = kb_begin(k, err)) == GW_OK) {
        for (int i = 0; rc == GW_OK && i < args->argc; i++)
            rc = kb_delete_offers(k, names[i], err);
        if (rc == GW_OK)
            rc = kb_commit(k, err);
        else
            kb_rollback(k);
    }
    for (int i = 0; rc == GW_OK && i < args->argc; i++) {
        size_t removed = 0;
        for (size_t j = 0; j < nr; j++)
            if (rows[j].provider == names[i])
                removed = rows[j].offers;
        int dup = 0;   /* a provider named twice was removed once */
        for (int j = 0; j < i; j++)
            dup |= names[j] == names[i];
        if (!dup)
            fprintf(ctx->out, "%s: %zu offer%s removed\n", names[i], removed,
                    removed == 1 ? "" : "s");
    }
    free(names);
    free(rows);
    kb_prices_free(prices, n);
    kb_close(k);
    return rc;
}

/* ---- the command table ---- */

static const cli_option refresh_options[] = {
    {"input", 0, "FILE", CLI_FILE, NULL,
     "hand FILE's text to the plugins as `ctx.input` (a saved price page, catalog or API "
     "response); the plugins that read a file (`needs_input`) run only with it or `--cached`", 0},
    {"cached", 0, NULL, CLI_TEXT, NULL,
     "replay the newest download of each source of the plugins (`gpuwise prices fetch` keeps "
     "them), dated the day they were downloaded; without PLUGIN, every plugin that has some", 0},
    {"provider", 0, "NAME", CLI_TEXT, NULL,
     "the provider the input's offers belong to, for plugins that read one provider's page or "
     "catalog (`html-table`, `skypilot`): `ctx.provider`", 0},
    {"strict", 0, NULL, CLI_TEXT, NULL,
     "fail (exit 65, nothing stored) when an offer names a GPU the KB does not know, instead of "
     "reporting it and storing the rest", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_option fetch_options[] = {
    {"url", 0, "URL", CLI_TEXT, NULL,
     "download URL instead of the plugin's own sources (a mirror; one plugin named).  A mirror "
     "that keeps the layout of the plugin's URL (`.../aws/vms.csv`) stands for that source",
     CLI_REPEAT},
    {"timeout", 0, "SECONDS", CLI_TEXT, NULL,
     "give up on a download that has not finished after SECONDS (30)", 0},
    {"max-size", 0, "MIB", CLI_TEXT, NULL,
     "refuse a response larger than MIB mebibytes (64, or `$GPUWISE_FETCH_MAX_MB`)", 0},
    {"provider", 0, "NAME", CLI_TEXT, NULL, "as for `prices refresh`: `ctx.provider`", 0},
    {"strict", 0, NULL, CLI_TEXT, NULL,
     "as for `prices refresh`: an offer naming a GPU the KB does not know fails it", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command prices_commands[] = {
    {"prices refresh", "[PLUGIN...]", 0, -1, CLI_PRICING,
     "run pricing plugins and store their cloud offers in the KB",
     "Runs the pricing plugins named (without PLUGIN, every pricing plugin that needs no input "
     "file and is not an example) and stores their cloud offers in the KB, where `gpuwise "
     "offers` lists them.  Prints `PLUGIN: N offers stored` per plugin.\n\n"
     "A plugin's offers replace the earlier offers of the same providers that the same plugin "
     "stored, from whatever file or download: refreshing from a renamed file never duplicates "
     "them.  The KB's curated offers and other plugins' offers of those providers stay.  "
     "Currencies are stored as given.  An offer that names a GPU the KB does not know is "
     "reported, once per name, with the input lines and the closest known cards, and left out; "
     "the rest are stored (`--strict` fails instead).  Any other bad offer gets a warning naming "
     "the plugin and the offer, and fails the refresh.  Everything is one transaction: when a "
     "plugin fails, nothing is stored.\n\n"
     "With `--input FILE`, offers that give no date are dated today; with `--cached`, the day "
     "the response was downloaded.\n\n"
     "```\ngpuwise prices refresh\ngpuwise prices refresh fsdl --input cloud-gpus.csv\n"
     "gpuwise prices refresh skypilot --input vms.csv --provider AWS\n"
     "gpuwise prices refresh skypilot --cached\n```\n\n"
     "Exit status: 0 ok, 64 usage (a plugin that is not a pricing one, or needs `--input`), "
     "65 bad offers (or, with `--strict`, an unknown GPU), 66 missing input, 67 unknown plugin, "
     "70 a plugin failed or hit a limit (`$GPUWISE_PLUGIN_INSTRUCTIONS`, "
     "`$GPUWISE_PLUGIN_MEMORY_MB`, `$GPUWISE_PLUGIN_SECONDS`), 75 KB busy.",
     refresh_options, 0, 0, prices_refresh, NULL},
    {"prices fetch", "[PLUGIN...]", 0, -1, CLI_PRICING,
     "download what pricing plugins declare, keep it, and store the offers",
     "Downloads the sources the pricing plugins named declare in their `urls` field (without "
     "PLUGIN, every pricing plugin that declares some), then stores their offers as `prices "
     "refresh` does, in one transaction.  The only command that opens a network connection: "
     "HTTPS only, except plain HTTP to a loopback address (127.0.0.0/8, ::1, localhost) for a "
     "local mirror; up to 5 redirects are followed, to HTTPS, or from a loopback address to "
     "another over plain HTTP.\n\n"
     "Each response is kept, as it came, in "
     "`$XDG_CACHE_HOME/gpuwise/prices/PLUGIN/SOURCE/DATE-NAME` (`~/.cache` without "
     "`XDG_CACHE_HOME`), with the URL beside it in `DATE-NAME.url`: `gpuwise prices refresh "
     "PLUGIN --cached` replays the newest ones offline, and `--input` any one of them.  Offers "
     "that give no date are dated the day of the download; the source they cite names the URL.\n\n"
     "A source that cannot be downloaded (no complete answer within `--timeout`, redirects "
     "included, an HTTP status other than success, a redirect not followed, an empty body, one "
     "cut short of its announced length, one larger than `--max-size`) is named on one line; "
     "the other sources are still downloaded and their offers stored, and the command exits "
     "69.\n\n"
     "```\ngpuwise prices fetch skypilot\n"
     "gpuwise prices fetch azure-retail --timeout 60\n"
     "gpuwise prices fetch skypilot --url http://127.0.0.1:8000/catalogs/v7/aws/vms.csv\n```\n\n"
     "Exit status: 0 ok, 64 usage (a URL that is not HTTPS, `--url` without one plugin, a plugin "
     "without urls), 65 bad offers, 67 unknown plugin, 69 a download failed, 70 a plugin failed, "
     "73/74 the cache cannot be written, 75 KB busy, 130/143 interrupted.",
     fetch_options, 0, 0, prices_fetch, NULL},
    {"prices list", NULL, 0, 0, CLI_TEXT,
     "the providers with cloud offers in the KB: offers, GPUs, dates",
     "Lists each provider with cloud offers in the KB: how many offers (and how many of them "
     "spot), how many GPUs they cover, the oldest and newest as-of date of their prices, and "
     "how many sources they cite.  Exit status: 0 ok.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, prices_list, NULL},
    {"prices remove", "PROVIDER...", 1, -1, CLI_TEXT,
     "remove every cloud offer of a provider from the KB",
     "Removes every cloud offer of each PROVIDER (as `gpuwise prices list` names it; case does "
     "not matter) from the KB, curated and stored by plugins alike, in one transaction.  Prints "
     "`PROVIDER: N offers removed`.  Exit status: 0 ok, 67 no offers of that provider (the "
     "closest name is suggested), 75 KB busy.",
     NULL, 0, 0, prices_remove, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_prices_group = {
    "prices", "fetch, refresh, list and remove cloud offers", NULL, prices_commands,
};
