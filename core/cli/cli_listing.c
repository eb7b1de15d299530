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

static void write_csv(gw_buf *out, const view *rows, const cli_column *cols)
{
    for (size_t c = 0; cols[c].key; c++) {
        if (c)
            buf_putc(out, ',');
        buf_put_csv_field(out, cols[c].key);
    }
    buf_puts(out, "\r\n");
    gw_buf cell = GW_BUF_INIT;
    for (size_t r = 0; r < view_len(rows); r++) {
        const view *row = view_list_at(rows, r);
        for (size_t c = 0; cols[c].key; c++) {
            buf_reset(&cell);
            cell_text(&cell, view_map_get(row, cols[c].key));
            if (c)
                buf_putc(out, ',');
            buf_put_csv_field(out, buf_cstr(&cell));
        }
        buf_puts(out, "\r\n");
    }
    buf_free(&cell);
}

static void write_md(gw_buf *out, const view *rows, const cli_column *cols)
{
    gw_buf cell = GW_BUF_INIT;
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
    for (size_t r = 0; r < view_len(rows); r++) {
        const view *row = view_list_at(rows, r);
        buf_putc(out, '|');
        for (size_t c = 0; cols[c].key; c++) {
            buf_reset(&cell);
            cell_text(&cell, view_map_get(row, cols[c].key));
            /* a line break would end the table row */
            for (size_t i = 0; i < cell.len; i++)
                if (cell.data[i] == '\n' || cell.data[i] == '\r')
                    cell.data[i] = ' ';
            buf_putc(out, ' ');
            mustache_escape_markdown(out, cell.data ? cell.data : "", cell.len);
            buf_puts(out, " |");
        }
        buf_putc(out, '\n');
    }
    buf_free(&cell);
}

int cli_listing_write(gw_ctx *ctx, const view *json_root, const view *rows,
                      const cli_column *cols, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    if (!strcmp(ctx->format, "json"))
        view_to_json(json_root, &b, 1);
    else if (!strcmp(ctx->format, "csv"))
        write_csv(&b, rows, cols);
    else if (!strcmp(ctx->format, "md"))
        write_md(&b, rows, cols);
    else
        return gw_error_set(err, GW_ESOFTWARE, "listing: no writer for format %s", ctx->format);
    int rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

void cli_text_table_write(gw_buf *out, const cli_text_table *t)
{
    size_t *width = gw_xcalloc(t->n_cols + 1, sizeof *width);
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++) {
        const char *cell = t->cells[i] ? t->cells[i] : "";
        size_t cols = gw_term_width(cell, strlen(cell), GW_TERM_FIELD);
        if (cols > width[i % t->n_cols])
            width[i % t->n_cols] = cols;
    }
    gw_buf line = GW_BUF_INIT;
    for (size_t r = 0; r < t->n_rows; r++) {
        buf_reset(&line);
        for (size_t c = 0; c < t->n_cols; c++) {
            int right = t->right && t->right[c] && (r > 0 || t->right_titles);
            if (c)
                buf_puts(&line, "  ");
            gw_term_cell(&line, t->cells[r * t->n_cols + c], width[c], right);
        }
        while (line.len && line.data[line.len - 1] == ' ')
            line.data[--line.len] = '\0';
        buf_append(out, buf_cstr(&line), line.len);
        buf_putc(out, '\n');
    }
    buf_free(&line);
    free(width);
}
