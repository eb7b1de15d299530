/* cli_prices.c — the `gpuwise prices` group and its command table; refresh (pricing plugins on
 * their own data, a saved file or their last downloads), list (the providers in the KB) and remove.
 * fetch is cli_prices_fetch.c; what refresh and fetch share, cli_prices_common.c. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/check.h"
#include "base/clock.h"
#include "base/limits.h"
#include "cli_listing.h"
#include "base/term.h"
#include "cli_prices_common.h"

/* ---- replaying downloads (refresh --cached); the cache's layout: cli_prices_common.c ---- */

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
static int cache_replay(const gw_ctx *ctx, plugin *p, cli_price_input **inputs, size_t *n,
                        gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    char dir[4400];
    if (cli_prices_cache_dir(ctx, info.name, NULL, dir, sizeof dir))
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
        cli_price_input in = {0};
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
        in.name = gw_xstrdup(cli_prices_cache_source_name(file));
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

/* refresh without names: the plugins that need no file (or, given one, all). */
static int wants_refresh(plugin *p, const void *arg)
{
    return *(const int *)arg || !cli_prices_plugin_flag(p, "needs_input");
}

/* refresh --cached without names: the plugins with downloads in the cache. */
static int wants_cached(plugin *p, const void *arg)
{
    const gw_ctx *ctx = arg;
    plugin_info info;
    plugin_get_info(p, &info);
    char dir[4400];
    return cli_prices_cache_dir(ctx, info.name, NULL, dir, sizeof dir) == 0 && cli_file_exists(dir);
}

/* Whether the day of a valid YYYY-MM-DD date is in its month (2026-02-30 is not). */
static int day_in_month(const char *date)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year = atoi(date), month = atoi(date + 5), day = atoi(date + 8);
    int leap = month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return day <= days[month - 1] + leap;
}

/* --as-of DATE: the day a saved catalogue was saved, YYYY-MM-DD and not after today; it needs
 * --input (a download is dated by the day it was made). */
static int read_as_of(const char *as_of, const char *input_path, int cached, gw_error *err)
{
    if (!as_of)
        return GW_OK;
    if (strlen(as_of) != 10 || !gw_valid_date(as_of) || !day_in_month(as_of))
        return gw_error_set(err, GW_EUSAGE, "--as-of: '%.40s' is not a date (YYYY-MM-DD)", as_of);
    if (gw_date_days(as_of) > gw_today_days()) {
        char today[11];
        gw_today_date(today);
        return gw_error_set(err, GW_EUSAGE, "--as-of: %s is after today (%s): a catalogue is "
                            "dated the day it was saved", as_of, today);
    }
    if (cached)
        return gw_error_set(err, GW_EUSAGE, "--as-of: --cached offers are dated the day they "
                            "were downloaded");
    if (!input_path)
        return gw_error_set(err, GW_EUSAGE, "--as-of dates the file --input gives: give "
                            "--input FILE");
    return GW_OK;
}

static int prices_refresh(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *input_path = cli_value(args, "input"), *as_of = cli_value(args, "as-of");
    int cached = cli_flag(args, "cached") > 0, have_input = input_path != NULL;
    cli_refresh_opts o;
    int rc = cli_prices_read_opts(args, &o, err);
    if (rc != GW_OK)
        return rc;
    if (input_path && cached)
        return gw_error_set(err, GW_EUSAGE, "--input and --cached exclude each other");
    if ((rc = read_as_of(as_of, input_path, cached, err)) != GW_OK)
        return rc;
    cli_price_input *inputs = NULL;
    size_t n_inputs = 0;
    if (input_path) {
        cli_price_input in = {0};
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
        rc = cached ? cli_prices_choose_plugins(host, args, wants_cached, ctx, &chosen,
                                                &n_chosen, err)
                    : cli_prices_choose_plugins(host, args, wants_refresh, &have_input, &chosen,
                                                &n_chosen, err);
    /* each plugin with the file, its cached downloads, or its own data */
    plain = gw_xcalloc(n_chosen + 1, sizeof *plain);
    cli_price_input *all = NULL;
    size_t n_all = 0;
    for (size_t i = 0; rc == GW_OK && i < n_chosen; i++) {
        plugin_info info;
        plugin_get_info(chosen[i], &info);
        if (cached)
            rc = cache_replay(ctx, chosen[i], &all, &n_all, err);
        else if (input_path) {
            all = gw_xrealloc(all, (n_all + 1) * sizeof *all);
            all[n_all] = (cli_price_input){gw_xstrdup(inputs[0].name), NULL, inputs[0].len, NULL,
                                       NULL, "", chosen[i]};
            if (as_of)   /* dated as a download of that day would be */
                snprintf(all[n_all].date, sizeof all[n_all].date, "%s", as_of);
            all[n_all].text = gw_xstrndup(inputs[0].text, inputs[0].len);
            n_all++;
        } else if (cli_prices_plugin_flag(chosen[i], "needs_input"))
            rc = gw_error_set(err, GW_EUSAGE, "%s reads a saved file: give --input FILE (or "
                              "--cached after gpuwise prices fetch %s)", info.name, info.name);
        else
            plain[n_plain++] = chosen[i];
    }
    if (rc == GW_OK)
        rc = cli_prices_store_all(ctx, k, plain, n_plain, all, n_all, &o, err);
    for (size_t i = 0; i < n_all; i++)
        cli_price_input_free(&all[i]);
    for (size_t i = 0; i < n_inputs; i++)
        cli_price_input_free(&inputs[i]);
    free(all);
    free(inputs);
    free(plain);
    free(chosen);
    plugin_host_free(host);
    kb_close(k);
    return rc;
}

/* ---- prices list and remove ---- */

static const cli_column provider_columns[] = {
    {"provider", "Provider"}, {"offers", "Offers"}, {"spot", "Spot"}, {"gpus", "GPUs"},
    {"oldest", "Oldest as of"}, {"newest", "Newest as of"}, {"sources", "Sources"},
    {NULL, NULL},
};

/* The text table of the providers: names cut at 40 columns. */
static void providers_text(gw_buf *text, const kb_offer_provider *rows, size_t nr)
{
    int w = 8;
    for (size_t i = 0; i < nr; i++) {
        int len = (int)gw_term_width(rows[i].provider, strlen(rows[i].provider), GW_TERM_FIELD);
        w = len > w ? (len > 40 ? 40 : len) : w;
    }
    if (nr == 0)
        buf_puts(text, "no cloud offers in the knowledge base\n");
    else
        buf_printf(text, "%-*s %6s %5s %5s  %-12s %-12s %7s\n", w, "PROVIDER", "OFFERS", "SPOT",
                   "GPUS", "OLDEST AS OF", "NEWEST AS OF", "SOURCES");
    for (size_t i = 0; i < nr; i++) {
        /* the name shown, cut to w columns on a character (term.h), then padded to them */
        for (size_t cols = gw_term_field_cut(text, rows[i].provider, (size_t)w); cols < (size_t)w;
             cols++)
            buf_putc(text, ' ');
        buf_printf(text, " %6lld %5lld %5lld  %-12s %-12s %7lld\n", rows[i].offers, rows[i].spot,
                   rows[i].gpus, rows[i].oldest ? rows[i].oldest : "-",
                   rows[i].newest ? rows[i].newest : "-", rows[i].sources);
    }
}

static int prices_list(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    (void)args;
    kb *k = NULL;
    kb_offer_provider *rows = NULL;
    size_t nr = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_offer_providers(k, &rows, &nr, err);
    if (rc != GW_OK) {
        kb_close(k);
        return rc;
    }
    view *root = view_map();
    view *list = view_map_set(root, "providers", view_list());
    for (size_t i = 0; i < nr; i++) {
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "provider", rows[i].provider);
        view_map_set_int(m, "offers", rows[i].offers);
        view_map_set_int(m, "spot", rows[i].spot);
        view_map_set_int(m, "gpus", rows[i].gpus);
        view_map_set_str(m, "oldest", rows[i].oldest);
        view_map_set_str(m, "newest", rows[i].newest);
        view_map_set_int(m, "sources", rows[i].sources);
    }
    if (strcmp(ctx->format, "text") != 0) {
        rc = cli_listing_write(ctx, root, list, provider_columns, err);
    } else {
        gw_buf text = GW_BUF_INIT;
        providers_text(&text, rows, nr);
        rc = cli_write_output(ctx, buf_cstr(&text), text.len, err);
        buf_free(&text);
    }
    view_free(root);
    kb_offer_providers_free(rows, nr);
    kb_close(k);
    return rc;
}

/* The provider names the KB has that name stands for (case aside), or GW_ENOTFOUND with the
 * closest one. */
static int match_provider(const kb_offer_provider *rows, size_t nr, const char *name,
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
    kb_offer_provider *rows = NULL;
    size_t nr = 0;
    int rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK)
        rc = kb_offer_providers(k, &rows, &nr, err);
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
        long long removed = 0;
        for (size_t j = 0; j < nr; j++)
            if (rows[j].provider == names[i])
                removed = rows[j].offers;
        int dup = 0;   /* a provider named twice was removed once */
        for (int j = 0; j < i; j++)
            dup |= names[j] == names[i];
        if (!dup)
            fprintf(ctx->out, "%s: %lld offer%s removed\n", names[i], removed,
                    removed == 1 ? "" : "s");
    }
    free(names);
    kb_offer_providers_free(rows, nr);
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
    {"as-of", 0, "DATE", CLI_TEXT, NULL,
     "the day the `--input` file was saved (YYYY-MM-DD, not after today): its offers that give "
     "no date, and the source they cite, are dated DATE instead of today", 0},
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
     "offers` lists them.  Prints `PLUGIN: N offers stored` per plugin, and below it the "
     "offers added, updated and removed and those already there: `prices     1 added, 2 "
     "updated, 1 removed (5 unchanged)`.\n\n"
     "A plugin's offers replace the earlier offers of the same providers that the same plugin "
     "stored, from whatever file or download: an offer of the same instance, GPU, count, region, "
     "spot flag, date and source as an earlier one updates it, and the earlier ones no offer "
     "matched are removed, so refreshing from a renamed file never duplicates them.  The KB's curated offers and other plugins' offers of those providers stay.  "
     "Currencies are stored as given.  An offer that names a GPU the KB does not know is "
     "reported, once per name, with the input lines and the closest known cards, and left out; "
     "the rest are stored (`--strict` fails instead).  Any other bad offer gets a warning naming "
     "the plugin and the offer, and fails the refresh.  Everything is one transaction: when a "
     "plugin fails, nothing is stored.\n\n"
     "With `--input FILE`, offers that give no date are dated today, or with `--as-of DATE` "
     "the day the file was saved; with `--cached`, the day the response was downloaded.\n\n"
     "```\ngpuwise prices refresh\ngpuwise prices refresh fsdl --input cloud-gpus.csv\n"
     "gpuwise prices refresh fsdl --input cloud-gpus.csv --as-of 2026-11-02\n"
     "gpuwise prices refresh skypilot --input vms.csv --provider AWS\n"
     "gpuwise prices refresh skypilot --cached\n```\n\n"
     "Exit status: 0 ok, 64 usage (a plugin that is not a pricing one, or needs `--input`; an "
     "`--as-of` that is not a date, is after today, or has no `--input`), "
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
     "another over plain HTTP.  A plugin's URLs connect only to public addresses: loopback, "
     "private, link-local, shared (100.64.0.0/10), cloud metadata, unspecified, multicast and "
     "reserved ones, and IPv4 ones inside IPv6, are refused on the address each connection is "
     "about to open (so a name that resolves there, now or on a later lookup, is refused "
     "before anything is sent), for every redirect too.  A URL the user gives with `--url` may "
     "reach its own host wherever it is (a redirect to another host is checked); "
     "`GPUWISE_FETCH_ALLOW_PRIVATE=1` allows every address.  Through a proxy (`https_proxy`, "
     "...), the proxy may be anywhere and the host's addresses are checked here before the "
     "request.  Without PLUGIN, a line for each plugin says first which hosts it will "
     "contact.\n\n"
     "Each response is kept, as it came, in "
     "`$XDG_CACHE_HOME/gpuwise/prices/PLUGIN/SOURCE/DATE.RANDOM-NAME` (`~/.cache` without "
     "`XDG_CACHE_HOME`; folders made 0700, and refused if another user could write them), with "
     "the URL beside it in `DATE.RANDOM-NAME.url`: `gpuwise prices refresh "
     "PLUGIN --cached` replays the newest ones offline, and `--input` any one of them.  Offers "
     "that give no date are dated the day of the download; the source they cite names the URL.\n\n"
     "A source that cannot be downloaded (no complete answer within `--timeout`, redirects "
     "included, an address refused, an HTTP status other than success, a redirect not "
     "followed, an empty body, one "
     "cut short of its announced length, one larger than `--max-size`) is named on one line; "
     "the other sources are still downloaded and their offers stored, and the command exits "
     "69.\n\n"
     "```\ngpuwise prices fetch skypilot\n"
     "gpuwise prices fetch azure-retail --timeout 60\n"
     "gpuwise prices fetch skypilot --url http://127.0.0.1:8000/catalogs/v7/aws/vms.csv\n```\n\n"
     "Exit status: 0 ok, 64 usage (a URL that is not HTTPS, `--url` without one plugin, a plugin "
     "without urls), 65 bad offers, 67 unknown plugin, 69 a download failed or was refused, 70 a "
     "plugin failed, 73/74 the cache cannot be written, 75 KB busy, 130/143 interrupted.",
     fetch_options, 0, 0, cli_prices_fetch, NULL},
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
