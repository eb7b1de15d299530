/* records.h — what plugins hand back (cloud offers; GPU specs, measured results and prices from
 * importers), checked field by field against the KB's column descriptions (kb.h) with messages
 * that name the plugin and the record, and stored through kb.h inside the caller's transaction.
 * A dry run checks exactly what a real run checks, so `plugin check` and `kb import --with`
 * accept the same records.  Bad records are never stored: each becomes one warning line.
 * Nothing here prints: warnings, plugin log lines and progress go back to the caller. */
#ifndef GW_RECORDS_H
#define GW_RECORDS_H

#include <stdio.h>

#include "base/buf.h"
#include "kb/kb.h"
#include "sandbox/plugin.h"
#include "base/view.h"

typedef struct records_result {
    size_t stored;        /* records written (or, in a dry run, that would be) */
    size_t skipped;       /* bad records, one warning line each */
    size_t unknown_gpu;   /* offers left out because their GPU name is not a KB card (unknown or
                             ambiguous): one warning line per name, not counted in skipped */
    size_t unchanged;     /* records already in the KB (a GPU id that exists) */
    size_t replaced;      /* earlier offers of the same providers and sources that no new
                             offer matched, removed */
    size_t per_table[KB_TABLES];   /* stored, by kb_table_name order */
    kb_import_counts outcome;      /* what storing did, per table: added, updated, unchanged,
                                    * removed */
} records_result;

/* The folders plugins are looked for in, the first plugin of a name winning: the --plugins
 * folders, then plugins/ of the user's config folder, then plugins/ of the shipped data folder
 * (either may be NULL or ""). */
typedef struct records_dirs {
    const char *const *plugin_dirs;
    size_t n_plugin_dirs;
    const char *user_config_dir;
    const char *data_dir;
} records_dirs;

/* A plugin host over those folders with nothing loaded yet (plugin_host_load_kind loads what a
 * command needs).  k may be NULL.  Caller frees the host. */
int records_host_new_in(const records_dirs *dirs, kb *k, plugin_host **out, gw_error *err);
/* The same with every plugin loaded. */
int records_host_open_in(const records_dirs *dirs, kb *k, plugin_host **out, gw_error *err);

/* The id of the source row that stands for what plugin p returned from input_path (NULL: no
 * input): "plugin-NAME" or "plugin-NAME-FILE".  When k is writable (write != 0) the row is
 * stored (retrieved today).  Caller frees the id. */
char *records_plugin_source(kb *k, int write, plugin *p, const char *input_path, gw_error *err);
/* The same for what the plugin returned from a download: url (may be NULL) is the source's URL
 * and retrieved (NULL: today) its date; input_path names the file as above. */
char *records_plugin_source_at(kb *k, int write, plugin *p, const char *input_path,
                               const char *url, const char *retrieved, gw_error *err);

/* A plugin writes only in its own namespace: each of the records (a list of maps) that names a
 * `source` must name one made for this plugin (records_plugin_source), so that a plugin can
 * neither cite nor, on a refresh, replace the rows of the KB's curated sources or another
 * plugin's.  Shipped plugins (plugin_info.compiled: their text is exactly the shipped one) may
 * cite the KB's sources.  GW_EDATA naming the plugin, what[i] and the source. */
int records_check_plugin_sources(const plugin *p, kb *k, const view *records, const char *what,
                                 gw_error *err);

/* Checks and (unless dry_run) stores the offers a pricing plugin returned.  They replace the
 * earlier cloud offers of their providers that the same plugin stored (from any file or URL:
 * its sources' publisher names it) or that cite a source these offers cite: an offer with an
 * earlier one's identity updates it, and the earlier ones no offer matched are removed; curated
 * offers and other plugins' stay.  Warnings go to warnings as "NAME: offers[3].price_per_hour: ..." lines,
 * with " (line N)" when the offer says which input line it came from (an optional `line`
 * field).  An offer whose GPU name is no KB card is left out and counted in res->unknown_gpu:
 * one line per name, with the nearest cards and the lines that name it.  source_id is the source the offers
 * cite when they name none (NULL in a dry run: the one a real run makes).  GW_ESOFTWARE when
 * offers is not a list; a failing KB write is returned as is. */
int records_store_offers(kb *k, const char *plugin_name, const char *source_id,
                         const view *offers, int dry_run, gw_buf *warnings, records_result *res,
                         gw_error *err);

/* The same for the records an importer returned ({kind = "gpu"|"benchmark"|"price", ...}). */
int records_store_imported(kb *k, const char *plugin_name, const char *source_id,
                           const view *records, int dry_run, gw_buf *warnings,
                           records_result *res, gw_error *err);

/* How far `kb import --with` has come, for a progress line the caller draws. */
typedef enum records_stage {
    RECORDS_CONVERTING,   /* the whole file goes to the importer in one call */
    RECORDS_BATCH_DONE,   /* one batch of batch_rows records was stored */
    RECORDS_FINISHED      /* the importer's calls are over (ok says whether they all worked) */
} records_stage;
typedef struct records_progress {
    records_stage stage;
    const char *importer, *path;
    size_t bytes_done, bytes_total;
    size_t stored;        /* records stored so far */
    int ok;
} records_progress;
typedef void (*records_progress_fn)(const records_progress *p, void *arg);

/* `kb import --with`: runs the importer plugin of host on text (the file path's content) and
 * stores what it returns inside the caller's transaction.  The plugin's log lines ("NAME: log:
 * ...") and then one warning line per bad record are appended to messages; progress (may be
 * NULL) is called with arg as the work goes.  GW_EDATA when a record was bad (the caller rolls
 * back: nothing is half-imported).  counts (may be NULL) gets what was added. */
int records_import_file(kb *k, plugin_host *host, const char *importer, const char *path,
                        const char *text, size_t len, records_progress_fn progress, void *arg,
                        gw_buf *messages, kb_import_counts *counts, gw_error *err);

/* The same reading path (one file, read from where it stands, in chunks): an importer with
 * batch_rows is handed the header record and batch_rows whole records per call, the records
 * found by the core's CSV reader (kb_csv.h), so memory does not grow with the file. */
int records_import_stream(kb *k, plugin_host *host, const char *importer, const char *path,
                          FILE *f, records_progress_fn progress, void *arg, gw_buf *messages,
                          kb_import_counts *counts, gw_error *err);

#endif
