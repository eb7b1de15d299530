/* records_internal.h — private to core/ingest's records_*.c: what the file import
 * (records_import.c) needs of the record checks (records.c) and of the plugin's source rows
 * (records_sources.c) beyond records.h. */
#ifndef GW_RECORDS_INTERNAL_H
#define GW_RECORDS_INTERNAL_H

#include "records.h"

/* The source row for what p returned from input_path (NULL: none), from url (may be NULL)
 * retrieved on that date (NULL: today); stored when write.  *outcome (may be NULL) says whether
 * storing it added, changed or left it.  Caller frees the id; NULL on error. */
char *records_source_row(kb *k, int write, plugin *p, const char *input_path, const char *url,
                         const char *retrieved, int *outcome, gw_error *err);

/* records_store_imported for records that follow first_index records of earlier batches of
 * the same input, so that warnings count records across the whole input. */
int records_store_imported_from(kb *k, const char *plugin_name, const char *source_id,
                                const view *records, size_t first_index, int dry_run,
                                gw_buf *warnings, records_result *res, gw_error *err);

/* Counts one stored row of table in res->outcome by what storing it did (KB_ADDED, ...). */
void records_count_outcome(records_result *res, int table, int outcome);

#endif
