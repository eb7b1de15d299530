/* records_import.c — `kb import --with`: an importer plugin run over one file, whole or in
 * batches of CSV records read by the core (kb_csv.h), what each call returns checked and stored
 * (records.c) under the source row made for it (records_sources.c), with progress and warnings
 * handed back to the caller. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kb/kb_csv.h"
#include "records_internal.h"

/* ---- kb import --with ---- */

/* One `kb import --with` run: what the importer's calls share. */
typedef struct import_run {
    kb *k;
    plugin *p;
    const char *importer, *path;
    char *source_id;       /* made on the first call that succeeds */
    size_t n_records;      /* returned by earlier calls, so warnings count across the file */
    gw_buf warnings;
    records_result res;
    records_progress_fn progress;
    void *progress_arg;
} import_run;

static void report_progress(import_run *r, records_stage stage, size_t done, size_t total,
                            int ok)
{
    if (!r->progress)
        return;
    records_progress p = {stage, r->importer, r->path, done, total, r->res.stored, ok};
    r->progress(&p, r->progress_arg);
}

/* Runs the importer on text (the whole file, or the header plus a batch of records whose first
 * is on file line first_line; 0 = whole file) and stores what it returns; the views of the
 * call are freed before the next. */
static int import_piece(import_run *r, const char *text, size_t len, long first_line,
                        gw_error *err)
{
    const char *base = strrchr(r->path, '/');
    view *args[2] = {view_map(), view_stringn(text, len)};
    view *records = NULL;
    view_map_set_str(args[0], "input_name", base ? base + 1 : r->path);
    if (first_line > 0)
        view_map_set_int(args[0], "first_line", first_line);
    int rc = plugin_call(r->p, "import", args, 2, &records, err);
    if (rc == GW_OK && !r->source_id) {
        int outcome = KB_ADDED;
        r->source_id = records_source_row(r->k, 1, r->p, r->path, NULL, NULL, &outcome, err);
        records_count_outcome(&r->res, KB_SOURCES, outcome);
        if (!r->source_id)
            rc = err->code;
    }
    if (rc == GW_OK) {
        rc = records_store_imported_from(r->k, r->importer, r->source_id, records, r->n_records,
                                         0, &r->warnings, &r->res, err);
        r->n_records += view_len(records);
    }
    view_free(records);
    view_free(args[0]);
    view_free(args[1]);
    return rc;
}

/* One record again as CSV text: fields quoted where they must be, so that the importer's
 * gw.csv.rows reads exactly the fields the core's reader saw. */
static void put_record(gw_buf *out, const kb_csv_rec *rec)
{
    if (rec->n == 1 && rec->len[0] == 0)
        buf_puts(out, "\"\"");   /* one empty field, not a blank line */
    for (size_t i = 0; i < rec->n; i++) {
        if (i)
            buf_putc(out, ',');
        buf_put_csv_field(out, rec->f[i]);
    }
    buf_putc(out, '\n');
}

/* An importer with batch_rows: the header record plus at most batch_rows records per call, so
 * no single call has to hold the whole file's records (the plugin's memory and item caps).
 * The core's CSV reader (kb_csv.h) decides where each record ends; a batch ends after a whole
 * record, never at a byte found another way. */
typedef struct batch_state {
    import_run *r;
    long batch_rows, n;
    size_t first_line, total;
    gw_buf header, piece;
    int have_header, calls;
    gw_error *err;
} batch_state;

static int batch_flush(batch_state *b, size_t done)
{
    gw_buf text = GW_BUF_INIT;
    buf_append(&text, b->header.data, b->header.len);
    buf_append(&text, b->piece.data, b->piece.len);
    int rc = import_piece(b->r, buf_cstr(&text), text.len, (long)b->first_line, b->err);
    buf_free(&text);
    buf_reset(&b->piece);
    b->n = 0;
    b->calls++;
    report_progress(b->r, RECORDS_BATCH_DONE, done, b->total, rc == GW_OK);
    return rc;
}

static int batch_record(const kb_csv_rec *rec, void *arg)
{
    batch_state *b = arg;
    if (!b->have_header) {
        put_record(&b->header, rec);
        b->have_header = 1;
        b->first_line = rec->line + 1;
        return GW_OK;
    }
    if (b->n == 0)
        b->first_line = rec->line;
    put_record(&b->piece, rec);
    return ++b->n == b->batch_rows ? batch_flush(b, rec->offset) : GW_OK;
}

static int import_batches(import_run *r, const kb_csv_in *in, long batch_rows, gw_error *err)
{
    batch_state b = {r, batch_rows, 0, 2, in->len, GW_BUF_INIT, GW_BUF_INIT, 0, 0, err};
    struct stat st;
    if (in->f && fstat(fileno(in->f), &st) == 0)
        b.total = (size_t)st.st_size;
    int rc = kb_csv_read(in, 0, batch_record, &b, err);
    /* the rest; once even with no records, so a header-only file still reaches the importer */
    if (rc == GW_OK && (b.n > 0 || b.calls == 0))
        rc = batch_flush(&b, b.total);
    buf_free(&b.header);
    buf_free(&b.piece);
    return rc;
}

/* The importer named importer: a plugin of kind importer, or one of that name that says what
 * it is instead. */
static int find_importer(plugin_host *host, const char *importer, plugin **out, gw_error *err)
{
    plugin_info info = {0};
    plugin *p = plugin_find_kind(host, importer, "importer");
    if (!p)
        p = plugin_find(host, importer);
    *out = p;
    if (!p)
        return gw_error_set(err, GW_ENOTFOUND, "no importer plugin '%s' (see gpuwise plugin list)",
                            importer);
    plugin_get_info(p, &info);
    if (strcmp(info.kind, "importer") != 0)
        return gw_error_set(err, GW_EUSAGE, "'%s' is a %s plugin, not an importer", importer,
                            info.kind);
    return GW_OK;
}

/* The whole input in memory, for an importer without batch_rows. */
static int read_whole(const kb_csv_in *in, char **text, size_t *len, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    char chunk[65536];
    size_t n;
    if (!in->f) {
        *text = NULL;
        *len = in->len;
        return GW_OK;
    }
    while ((n = fread(chunk, 1, sizeof chunk, in->f)) > 0)
        buf_append(&b, chunk, n);
    if (ferror(in->f)) {
        buf_free(&b);
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", in->name, strerror(errno));
    }
    *len = b.len;
    *text = buf_detach(&b);
    return GW_OK;
}

static int import_input(kb *k, plugin_host *host, const char *importer, const char *path,
                        const kb_csv_in *in, records_progress_fn progress, void *arg,
                        gw_buf *messages, kb_import_counts *counts, gw_error *err)
{
    import_run r = {k, NULL, importer, path, NULL, 0, GW_BUF_INIT, {0}, progress, arg};
    plugin_info info = {0};
    size_t len = in->len;
    int rc = find_importer(host, importer, &r.p, err);
    if (rc == GW_OK)   /* an importer only adds rows: their index entries are made at the end */
        rc = kb_bulk_begin(k, err);
    if (rc == GW_OK) {
        plugin_get_info(r.p, &info);
        if (info.batch_rows > 0) {
            rc = import_batches(&r, in, info.batch_rows, err);
        } else {
            char *whole = NULL;
            rc = read_whole(in, &whole, &len, err);
            report_progress(&r, RECORDS_CONVERTING, 0, len, 1);
            if (rc == GW_OK)
                rc = import_piece(&r, whole ? whole : in->text, len, 0, err);
            free(whole);
        }
        if (rc == GW_OK)
            rc = kb_bulk_end(k, err);
    }
    if (r.p) {
        report_progress(&r, RECORDS_FINISHED, len, len, rc == GW_OK);
        view *log = plugin_take_log(r.p);
        for (size_t i = 0; i < view_len(log); i++)
            buf_printf(messages, "%s: log: %s\n", importer, view_str(view_list_at(log, i)));
        view_free(log);
    }
    buf_puts(messages, buf_cstr(&r.warnings));
    if (rc == GW_OK && r.res.skipped)   /* the caller rolls back: nothing half-imported */
        rc = gw_error_set(err, GW_EDATA, "%s: %zu bad record%s (see the lines above)", importer,
                          r.res.skipped, r.res.skipped == 1 ? "" : "s");
    if (rc == GW_OK && counts)
        for (int t = 0; t < KB_TABLES; t++) {
            counts->added[t] += r.res.outcome.added[t];
            counts->updated[t] += r.res.outcome.updated[t];
            counts->unchanged[t] += r.res.outcome.unchanged[t];
        }
    buf_free(&r.warnings);
    free(r.source_id);
    return rc;
}

int records_import_file(kb *k, plugin_host *host, const char *importer, const char *path,
                        const char *text, size_t len, records_progress_fn progress, void *arg,
                        gw_buf *messages, kb_import_counts *counts, gw_error *err)
{
    kb_csv_in in = {path, NULL, text, len};
    return import_input(k, host, importer, path, &in, progress, arg, messages, counts, err);
}

int records_import_stream(kb *k, plugin_host *host, const char *importer, const char *path,
                          FILE *f, records_progress_fn progress, void *arg, gw_buf *messages,
                          kb_import_counts *counts, gw_error *err)
{
    kb_csv_in in = {path, f, NULL, 0};
    return import_input(k, host, importer, path, &in, progress, arg, messages, counts, err);
}
