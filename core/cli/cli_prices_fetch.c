/* cli_prices_fetch.c — `gpuwise prices fetch`: download the sources pricing plugins declare (or
 * a mirror), keep each response in the user's cache, then store the offers as refresh does. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/check.h"
#include "base/clock.h"
#include "base/limits.h"
#include "base/term.h"
#include "cli_prices_common.h"
#include "io/fetch.h"
#include "base/view.h"

/* A file or folder name made of s: letters, digits, '.', '_', '-' (others become '_'). */
static char *safe_name(const char *s)
{
    char *out = gw_xstrdup(*s && strcmp(s, ".") && strcmp(s, "..") ? s : "response");
    for (char *c = out; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
            *c = '_';
    return out;
}

/* Keeps a download in the cache, under a new name: GW_ECANTCREAT or GW_EIO when it cannot be
 * written. */
static int cache_keep(const gw_ctx *ctx, const char *plugin_name, const cli_price_input *in,
                      const char *stamp, gw_error *err)
{
    int dirfd, e = 0;
    int rc = cli_prices_cache_open(ctx, plugin_name, in->key, &dirfd, err);
    if (rc != GW_OK)
        return rc;
    gw_buf name = GW_BUF_INIT, url_name = GW_BUF_INIT, url_line = GW_BUF_INIT;
    buf_printf(&url_line, "%s\n", in->url);
    for (int tries = 0; tries < 8; tries++) {
        char letters[9];
        if ((e = gw_random_name(letters, sizeof letters)) != 0)
            break;
        buf_reset(&name);
        buf_reset(&url_name);
        buf_printf(&name, "%s.%s-%s", stamp, letters, in->name);
        buf_printf(&url_name, "%s.url", name.data);
        /* the URL first: a download that can be seen has its URL beside it */
        e = gw_write_file_new_at(dirfd, url_name.data, url_line.data, url_line.len, 0600);
        if (!e && (e = gw_write_file_new_at(dirfd, name.data, in->text, in->len, 0600)) != 0)
            unlinkat(dirfd, url_name.data, 0);
        if (e != EEXIST)
            break;
    }
    close(dirfd);
    if (e) {
        char dir[4400];
        cli_prices_cache_dir(ctx, plugin_name, in->key, dir, sizeof dir);
        rc = gw_error_set(err, e == ENOSPC || e == EIO || e == EDQUOT ? GW_EIO : GW_ECANTCREAT,
                          "%s/%s: %s", dir, buf_cstr(&name), strerror(e));
    }
    buf_free(&name);
    buf_free(&url_name);
    buf_free(&url_line);
    return rc;
}

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
    int users;    /* 1: the user named it (--url), so its own host may be at any address */
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
        (*out)[*n] = (source_url){safe_name(list ? key : view_map_key_at(v, i)),
                                  gw_xstrdup(view_str(u)), 0};
        ++*n;
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
static int fetch_one(const gw_ctx *ctx, plugin *p, const source_url *source,
                     const fetch_limits *lim, const char *stamp, cli_price_input *in,
                     gw_error *err)
{
    const char *key = source->key, *url = source->url;
    fetch_limits own = *lim;
    if (source->users && own.reach == FETCH_REACH_PUBLIC)
        own.reach = FETCH_REACH_NAMED_HOST;
    plugin_info info;
    plugin_get_info(p, &info);
    *in = (cli_price_input){0};
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
    int rc = fetch_get(url, &own, &in->text, &in->len, err);
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

/* --timeout and --max-size (or $GPUWISE_FETCH_MAX_MB) as limits, and where a plugin's sources
 * may connect ($GPUWISE_FETCH_ALLOW_PRIVATE). */
static int read_limits(const cli_args *args, fetch_limits *lim, gw_error *err)
{
    double timeout = FETCH_TIMEOUT_DEFAULT, max_mib, allow_private;
    if (gw_env_number(GW_ENV_FETCH_MAX_MB, &max_mib, err) != GW_OK ||
        gw_env_number(GW_ENV_FETCH_ALLOW_PRIVATE, &allow_private, err) != GW_OK ||
        cli_number(args, "timeout", 0.001, 86400, &timeout, err) != GW_OK ||
        cli_number(args, "max-size", 0.001, 1048576, &max_mib, err) != GW_OK)
        return GW_EUSAGE;
    lim->timeout_s = timeout;
    lim->max_bytes = (size_t)(max_mib * 1024.0 * 1024.0);
    lim->reach = allow_private == 1 ? FETCH_REACH_ANY : FETCH_REACH_PUBLIC;
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
        (*plan)[(*n)++] = (source_url){mirror_key(own, n_own, mirror), gw_xstrdup(mirror), 1};
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

/* The downloads of each chosen plugin, all planned before the first connection. */
typedef struct plugin_plan {
    source_url *sources;
    size_t n;
} plugin_plan;

static void plans_free(plugin_plan *plans, size_t n)
{
    for (size_t i = 0; plans && i < n; i++)
        source_urls_free(plans[i].sources, plans[i].n);
    free(plans);
}

/* host as one safe line: a byte outside printable ASCII as \xNN (libcurl lets ESC through). */
static void put_host(gw_buf *line, const char *host)
{
    for (const unsigned char *c = (const unsigned char *)host; *c; c++)
        if (*c >= 0x20 && *c < 0x7f && *c != '\\')
            buf_append(line, (const char *)c, 1);
        else
            buf_printf(line, "\\x%02x", *c);
}

/* "skypilot: will contact raw.githubusercontent.com": the hosts each plugin's downloads start
 * at, said before any connection, so that a fetch of every plugin shows where it goes. */
static void say_hosts(const gw_ctx *ctx, plugin **chosen, const plugin_plan *plans, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        plugin_info info;
        plugin_get_info(chosen[i], &info);
        gw_buf line = GW_BUF_INIT;
        char **hosts = gw_xcalloc(plans[i].n + 1, sizeof *hosts);
        size_t n_hosts = 0;
        buf_printf(&line, "%s: will contact ", info.name);
        for (size_t j = 0; j < plans[i].n; j++) {
            char *host = fetch_url_host(plans[i].sources[j].url);
            size_t k = 0;
            while (host && k < n_hosts && strcasecmp(hosts[k], host) != 0)
                k++;
            if (!host || k < n_hosts) {
                free(host);   /* not a URL (its download says so), or said already */
                continue;
            }
            if (n_hosts > 0)
                buf_puts(&line, ", ");
            put_host(&line, host);
            hosts[n_hosts++] = host;
        }
        if (n_hosts > 0)
            fprintf(ctx->diag, "%s\n", line.data);
        for (size_t k = 0; k < n_hosts; k++)
            free(hosts[k]);
        free(hosts);
        buf_free(&line);
    }
}

/* Downloads every source of the chosen plugins; a source that fails is named on the
 * diagnostics stream and the others go on.  *first_failure gets the first failure's code. */
static int fetch_all(gw_ctx *ctx, const cli_args *args, plugin **chosen, size_t n_chosen,
                     const fetch_limits *lim, cli_price_input **inputs, size_t *n_inputs,
                     int *first_failure, gw_error *err)
{
    char stamp[32];
    time_t now;
    struct tm tm;
    if (gw_today(&now, err) != GW_OK)
        return err->code;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%M%SZ", &tm);
    plugin_plan *plans = gw_xcalloc(n_chosen + 1, sizeof *plans);
    int rc = GW_OK;
    for (size_t i = 0; rc == GW_OK && i < n_chosen; i++)
        rc = plan_plugin(chosen[i], args, &plans[i].sources, &plans[i].n, err);
    if (rc == GW_OK && args->argc == 0)
        say_hosts(ctx, chosen, plans, n_chosen);
    for (size_t i = 0; rc == GW_OK && i < n_chosen; i++) {
        plugin_info info;
        plugin_get_info(chosen[i], &info);
        for (size_t j = 0; rc == GW_OK && j < plans[i].n; j++) {
            const source_url *source = &plans[i].sources[j];
            cli_price_input in;
            gw_error e = {0};
            int got = fetch_one(ctx, chosen[i], source, lim, stamp, &in, &e);
            if (got == GW_EINTR_INT || got == GW_EINTR_TERM) {
                cli_price_input_free(&in);
                *err = e;
                rc = got;
            } else if (got != GW_OK) {
                gw_buf k = GW_BUF_INIT;   /* the key is the plugin's: shown, never obeyed */
                fprintf(ctx->diag, "gpuwise prices fetch: %s %s: %s\n", info.name,
                        gw_term_safe(&k, source->key), e.msg);
                buf_free(&k);
                if (!*first_failure)
                    *first_failure = got;
                cli_price_input_free(&in);
            } else {
                gw_buf k = GW_BUF_INIT, u = GW_BUF_INIT;   /* the plugin's words: shown escaped */
                gw_term_field(&u, source->url);
                fprintf(ctx->diag, "%s %s: %zu bytes from %s\n", info.name,
                        gw_term_safe(&k, source->key), in.len, buf_cstr(&u));
                buf_free(&k);
                buf_free(&u);
                *inputs = gw_xrealloc(*inputs, (*n_inputs + 1) * sizeof **inputs);
                (*inputs)[(*n_inputs)++] = in;
            }
        }
    }
    plans_free(plans, n_chosen);
    return rc;
}

int cli_prices_fetch(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    cli_refresh_opts o;
    fetch_limits lim;
    int rc = cli_prices_read_opts(args, &o, err);
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
    cli_price_input *inputs = NULL;
    size_t n_chosen = 0, n_inputs = 0;
    int failed = 0;
    rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK)
        rc = cli_plugins_open(ctx, k, &host, err);
    if (rc == GW_OK)
        rc = cli_prices_choose_plugins(host, args, wants_urls, NULL, &chosen, &n_chosen, err);
    if (rc == GW_OK)
        rc = fetch_all(ctx, args, chosen, n_chosen, &lim, &inputs, &n_inputs, &failed, err);
    if (rc == GW_OK && n_inputs > 0)
        rc = cli_prices_store_all(ctx, k, NULL, 0, inputs, n_inputs, &o, err);
    if (rc == GW_OK && failed)
        rc = gw_error_set(err, failed, "%s download%s failed (see the lines above)%s",
                          n_inputs ? "some" : "every", n_inputs ? "s" : "",
                          n_inputs ? "; the others' offers are stored" : "");
    for (size_t i = 0; i < n_inputs; i++)
        cli_price_input_free(&inputs[i]);
    free(inputs);
    free(chosen);
    plugin_host_free(host);
    kb_close(k);
    return rc;
}
