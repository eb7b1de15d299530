/* records.h — what plugins hand back (cloud offers; GPU specs, measured results and prices from
 * importers), checked field by field with messages that name the plugin and the record, and
 * stored through kb.h inside the caller's transaction.  Also opens the plugin host over the
 * folders a command should search.  Bad records are never stored: each becomes one warning line. */
#ifndef GW_RECORDS_H
#define GW_RECORDS_H

#include "buf.h"
#include "cli.h"
#include "kb.h"
#include "plugin.h"
#include "view.h"

typedef struct records_result {
    size_t stored;        /* records written (or, in a dry run, that would be) */
    size_t skipped;       /* bad records, one warning line each */
    size_t unchanged;     /* records already in the KB (a GPU id that exists) */
    size_t replaced;      /* earlier offers of the same providers and sources removed */
    size_t per_table[KB_TABLES];   /* stored, by kb_table_name order */
} records_result;

/* A host over --plugins folders, then $XDG_CONFIG_HOME/gpuwise/plugins, then the shipped
 * <data_dir>/plugins, with every plugin loaded.  k may be NULL.  Caller frees the host. */
int records_host_open(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err);
/* The same host with nothing loaded yet (plugin_host_load_kind loads what a command needs). */
int records_host_new(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err);

/* The id of the source row that stands for what plugin p returned from input_path (NULL: no
 * input): "plugin-NAME" or "plugin-NAME-FILE".  When k is writable (write != 0) the row is
 * stored (retrieved today).  Caller frees the id. */
char *records_plugin_source(kb *k, int write, plugin *p, const char *input_path, gw_error *err);

/* Checks and (unless dry_run) stores the offers a pricing plugin returned: each replaces the
 * earlier cloud offers of its provider that came from the same source.  Warnings go to
 * warnings as "NAME: offers[3].price_per_hour: ..." lines.  GW_ESOFTWARE when offers is not a
 * list; a failing KB write is returned as is. */
int records_store_offers(kb *k, const char *plugin_name, const char *source_id,
                         const view *offers, int dry_run, gw_buf *warnings, records_result *res,
                         gw_error *err);

/* The same for the records an importer returned ({kind = "gpu"|"benchmark"|"price", ...}). */
int records_store_imported(kb *k, const char *plugin_name, const char *source_id,
                           const view *records, int dry_run, gw_buf *warnings,
                           records_result *res, gw_error *err);

/* `kb import --with IMPORTER FILE`: runs the importer on the file's text and stores what it
 * returns inside the caller's transaction.  Warnings go to ctx->diag. */
int plugin_import_file(gw_ctx *ctx, kb *k, const char *importer, const char *path,
                       kb_import_counts *counts, gw_error *err);

/* Today's date (UTC) as YYYY-MM-DD into out (11 bytes). */
void records_today(char out[11]);

#endif
