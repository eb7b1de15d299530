/* cli_listing.h — listings (kb list, kb search, kb sources, offers) in the formats every listing
 * writes besides its own terminal text: JSON, a Markdown table and RFC 4180 CSV, all from the
 * same view rows, so the formats cannot disagree; and the terminal table kb list and offers
 * write their text through. */
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

/* A listing's own terminal table, which every text listing writes through: cells holds n_rows
 * rows of n_cols cells, row-major, the titles first (a NULL cell is empty).  Each column is as
 * wide as its widest entry in terminal columns (term.h: a CJK character or an emoji counts 2),
 * columns two spaces apart, trailing spaces dropped.  Each cell is shown as one field, so an
 * escape sequence, a bidi override or a line break in a name is shown escaped and cannot forge
 * or hide a row.  right (NULL: none) right-aligns a column's entries, and also its title when
 * right_titles. */
typedef struct cli_text_table {
    const char *const *cells;
    size_t n_rows, n_cols;
    const int *right;
    int right_titles;
} cli_text_table;

void cli_text_table_write(gw_buf *out, const cli_text_table *t);

/* That table a row at a time, for a listing that streams its rows: cli_text_widths widens
 * width[0..n_cols) to fit one row's cells (start from zeros, titles included), cli_text_row
 * writes one row in those widths (right: NULL, none right-aligned). */
void cli_text_widths(size_t *width, const char *const *cells, size_t n_cols);
void cli_text_row(gw_buf *out, const char *const *cells, const size_t *width, size_t n_cols,
                  const int *right);

/* CSV and md a row at a time, as cli_listing_write writes them: the header of the columns, then
 * each row's cells in their order, as cli_listing_write turns a field into text (cli_md_row
 * changes the line breaks in cells to spaces). */
void cli_csv_header(gw_buf *out, const cli_column *cols);
void cli_csv_row(gw_buf *out, gw_buf *cells, size_t n);
void cli_md_header(gw_buf *out, const cli_column *cols);
void cli_md_row(gw_buf *out, gw_buf *cells, size_t n);

#endif
