/* cli_listing.c — a listing's rows as JSON, a Markdown table or CSV, and the terminal table
 * text listings write through (cli_listing.h). */
#include "cli_listing.h"

#include <stdlib.h>
#include <string.h>

#include "base/term.h"
#include "render/mustache.h"

/* One cell as text: a string as it is, a number as JSON writes it, a bool as true/false, a
 * list its entries so written, separated by spaces. */
static void cell_text(gw_buf *out, const view *v)
{
    switch (view_kind(v)) {
    case VIEW_STRING: buf_puts(out, view_str(v)); break;
    case VIEW_NUMBER:
    case VIEW_BOOL: view_to_json(v, out, 0); break;
    case VIEW_LIST:
        for (size_t i = 0; i < view_len(v); i++) {
            if (i)
                buf_putc(out, ' ');
            cell_text(out, view_list_at(v, i));
        }
        break;
    default: break;
    }
}

void cli_csv_header(gw_buf *out, const cli_column *cols)
{
    for (size_t c = 0; cols[c].key; c++) {
        if (c)
            buf_putc(out, ',');
        buf_put_csv_field(out, cols[c].key);
    }
    buf_puts(out, "\r\n");
}

void cli_csv_row(gw_buf *out, gw_buf *cells, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        if (c)
            buf_putc(out, ',');
        buf_put_csv_field(out, buf_cstr(&cells[c]));
    }
    buf_puts(out, "\r\n");
}

void cli_md_header(gw_buf *out, const cli_column *cols)
{
    buf_putc(out, '|');
    for (size_t c = 0; cols[c].key; c++) {
        buf_putc(out, ' ');
        mustache_escape_markdown(out, cols[c].header, strlen(cols[c].header));
        buf_puts(out, " |");
    }
    buf_puts(out, "\n|");
    for (size_t c = 0; cols[c].key; c++)
        buf_puts(out, " --- |");
    buf_putc(out, '\n');
}

void cli_md_row(gw_buf *out, gw_buf *cells, size_t n)
{
    buf_putc(out, '|');
    for (size_t c = 0; c < n; c++) {
        gw_buf *cell = &cells[c];
        /* a line break would end the table row */
        for (size_t i = 0; i < cell->len; i++)
            if (cell->data[i] == '\n' || cell->data[i] == '\r')
                cell->data[i] = ' ';
        buf_putc(out, ' ');
        mustache_escape_markdown(out, cell->data ? cell->data : "", cell->len);
        buf_puts(out, " |");
    }
    buf_putc(out, '\n');
}

/* CSV or md (csv set) of view rows, a row at a time through the writers above. */
static void write_rows(gw_buf *out, const view *rows, const cli_column *cols, int csv)
{
    size_t n = 0;
    while (cols[n].key)
        n++;
    gw_buf *cells = gw_xcalloc(n ? n : 1, sizeof *cells);
    if (csv)
        cli_csv_header(out, cols);
    else
        cli_md_header(out, cols);
    for (size_t r = 0; r < view_len(rows); r++) {
        const view *row = view_list_at(rows, r);
        for (size_t c = 0; c < n; c++) {
            buf_reset(&cells[c]);
            cell_text(&cells[c], view_map_get(row, cols[c].key));
        }
        if (csv)
            cli_csv_row(out, cells, n);
        else
            cli_md_row(out, cells, n);
    }
    for (size_t c = 0; c < n; c++)
        buf_free(&cells[c]);
    free(cells);
}

int cli_listing_write(gw_ctx *ctx, const view *json_root, const view *rows,
                      const cli_column *cols, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    if (!strcmp(ctx->format, "json"))
        view_to_json(json_root, &b, 1);
    else if (!strcmp(ctx->format, "csv") || !strcmp(ctx->format, "md"))
        write_rows(&b, rows, cols, !strcmp(ctx->format, "csv"));
    else
        return gw_error_set(err, GW_ESOFTWARE, "listing: no writer for format %s", ctx->format);
    int rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

void cli_text_widths(size_t *width, const char *const *cells, size_t n_cols)
{
    for (size_t c = 0; c < n_cols; c++) {
        const char *cell = cells[c] ? cells[c] : "";
        size_t cols = gw_term_width(cell, strlen(cell), GW_TERM_FIELD);
        if (cols > width[c])
            width[c] = cols;
    }
}

void cli_text_row(gw_buf *out, const char *const *cells, const size_t *width, size_t n_cols,
                  const int *right)
{
    size_t start = out->len;
    for (size_t c = 0; c < n_cols; c++) {
        if (c)
            buf_puts(out, "  ");
        gw_term_cell(out, cells[c], width[c], right && right[c]);
    }
    while (out->len > start && out->data[out->len - 1] == ' ')
        out->data[--out->len] = '\0';
    buf_putc(out, '\n');
}

void cli_text_table_write(gw_buf *out, const cli_text_table *t)
{
    size_t *width = gw_xcalloc(t->n_cols + 1, sizeof *width);
    for (size_t r = 0; r < t->n_rows; r++)
        cli_text_widths(width, t->cells + r * t->n_cols, t->n_cols);
    for (size_t r = 0; r < t->n_rows; r++)
        cli_text_row(out, t->cells + r * t->n_cols, width, t->n_cols,
                     r > 0 || t->right_titles ? t->right : NULL);
    free(width);
}
