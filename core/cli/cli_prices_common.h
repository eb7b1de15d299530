/* cli_prices_common.h — what `prices refresh` and `prices fetch` share (cli_prices_common.c): the
 * inputs a pricing plugin reads, choosing the plugins, running them and storing their offers in one
 * transaction, and where downloads are kept.  Internal to core/cli/cli_prices*.c. */
#ifndef GW_CLI_PRICES_COMMON_H
#define GW_CLI_PRICES_COMMON_H

#include <stddef.h>

#include "cli.h"
#include "sandbox/plugin.h"

/* What one plugin call reads: a file the user gave, a download, or a cached download. */
typedef struct cli_price_input {
    char *name;       /* ctx.input_name, and the file the plugin's source is named after */
    char *text;
    size_t len;
    char *url;        /* where it was downloaded from; NULL for a file */
    char *key;        /* the plugin's name for the source (its `urls` key); NULL for a file */
    char date[11];    /* the day it was downloaded; "" for a file (offers are dated today) */
    plugin *p;        /* the plugin that reads it */
} cli_price_input;

/* How offers are stored, from the options every writing command shares. */
typedef struct cli_refresh_opts {
    const char *provider;   /* --provider: ctx.provider */
    int strict;             /* --strict: an unknown GPU name fails the refresh */
} cli_refresh_opts;

/* Frees what in owns (not in itself). */
void cli_price_input_free(cli_price_input *in);

/* Does the plugin declare field (needs_input, example) = true? */
int cli_prices_plugin_flag(plugin *p, const char *field);

/* --provider and --strict into *o: GW_EUSAGE for an empty provider. */
int cli_prices_read_opts(const cli_args *args, cli_refresh_opts *o, gw_error *err);

/* The plugins named by args' operands, or with none named, every pricing plugin (examples aside)
 * that wants(p, arg) accepts.  *out (caller frees the array, not the plugins, which the host
 * owns) gets *n of them.  GW_ENOTFOUND for an unknown name or none at all, GW_EUSAGE for a plugin
 * of another kind. */
int cli_prices_choose_plugins(plugin_host *host, const cli_args *args,
                              int (*wants)(plugin *p, const void *arg), const void *arg,
                              plugin ***out, size_t *n, gw_error *err);

/* Runs each of plugins on its own data, then each input with its plugin, storing the offers in
 * one transaction: all stored, or nothing (said on the diagnostics stream).  Prints "NAME: N
 * offers stored" per run on ctx->out and the plugins' warnings on ctx->diag. */
int cli_prices_store_all(gw_ctx *ctx, kb *k, plugin **plugins, size_t n_plugins,
                         const cli_price_input *inputs, size_t n_inputs,
                         const cli_refresh_opts *o, gw_error *err);

/* The cache folder of a plugin's downloads (key NULL), or of one of its sources, into out.
 * Returns 0, or -1 when it does not fit. */
int cli_prices_cache_dir(const gw_ctx *ctx, const char *plugin_name, const char *key, char *out,
                         size_t outsz);

/* Opens (*fd, caller closes) the cache folder of one source of a plugin, made private if missing
 * (gw_private_dir_open: GW_ECANTCREAT for one another user could write). */
int cli_prices_cache_open(const gw_ctx *ctx, const char *plugin_name, const char *key, int *fd,
                          gw_error *err);

/* The name a cached download was fetched as, from its file name in the cache (at least 19
 * characters, starting with the time): "2026-11-30T101500Z.k7q2m4xa-aws-vms.csv" gives
 * "aws-vms.csv".  Points into file. */
const char *cli_prices_cache_source_name(const char *file);

/* `prices fetch` (cli_prices_fetch.c), for the command table in cli_prices.c. */
int cli_prices_fetch(gw_ctx *ctx, const cli_args *args, gw_error *err);

#endif
