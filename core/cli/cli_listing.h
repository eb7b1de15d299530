/* cli_listing.h — listings (kb list, kb search, kb sources, offers) in the formats every listing
 * writes besides its own terminal table: JSON, a Markdown table and RFC 4180 CSV, all from the
 * same view rows, so the formats cannot disagree. */
#ifndef GW_CLI_LISTING_H
#define GW_CLI_LISTING_H

#include "cli.h"
#include "base/view.h"

typedef struct cli_column {
    const char *key;      /* the field of each row (a view map) */
    const char *header;   /* the column's title in md; CSV headers are the keys */
} cli_column;

/* Writes rows (a view list of maps) as ctx->format says: "json" prints json_root (the whole
 * listing, as --json always has), "md" a Markdown table and "csv" CSV with one header row, the
 * columns in order (numbers as JSON writes them, true/false, null as empty, a list its entries
 * separated by spaces).  "text" is the caller's own table and is not handled here: returns
 * GW_ESOFTWARE.  Written through cli_write_output. */
int cli_listing_write(gw_ctx *ctx, const view *json_root, const view *rows,
                      const cli_column *cols, gw_error *err);

#endif
