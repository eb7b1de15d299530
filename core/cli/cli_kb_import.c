/* cli_kb_import.c — the kb commands that check, write or migrate the KB file as a whole:
 * `kb check`, `kb export`, `kb import` (table CSVs, an export, or --with an importer plugin) and
 * `kb upgrade`. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "base/check.h"
#include "base/limits.h"
#include "cli_kb_common.h"
#include "ingest/records.h"
#include "base/view.h"

/* ---- check ------------------------------------------------------------------------------ */

int cli_kb_check(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    gw_buf report = GW_BUF_INIT;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_check(k, &report, err);
    if (rc == GW_OK || rc == GW_EDATA) {
        /* the report is the answer either way; a failed check still exits 65 */
        gw_error werr;
        int wrc;
        if (ctx->json) {
            view *m = view_map();
            view_map_set_bool(m, "ok", rc == GW_OK);
            view_map_set_str(m, "report", buf_cstr(&report));
            wrc = cli_kb_emit_json(ctx, m, &werr);
            view_free(m);
        } else {
            wrc = cli_write_output(ctx, buf_cstr(&report), report.len, &werr);
        }
        if (wrc != GW_OK) {
            *err = werr;
            rc = wrc;
        }
    }
    buf_free(&report);
    kb_close(k);
    return rc;
}

/* ---- export, import, upgrade ------------------------------------------------------------ */

/* kb export's writing: the KB's text straight into the output file, a piece at a time (a whole
 * export in memory was 128 MB at 1M results). */
typedef struct export_run {
    kb *k;
    int rc;            /* kb_export_to's outcome, with its error in err */
    gw_error err;
} export_run;

static int put_in_file(const char *data, size_t len, void *arg)
{
    return fwrite(data, 1, len, arg) == len ? 0 : errno ? errno : EIO;
}

static int export_fill(FILE *f, void *arg)
{
    export_run *run = arg;
    run->rc = kb_export_to(run->k, put_in_file, f, &run->err);
    return run->rc == GW_OK ? 0 : ECANCELED;
}

int cli_kb_export(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    export_run run = {NULL, GW_OK, {0}};
    int rc = cli_open_kb(ctx, 0, &run.k, err);
    if (rc == GW_OK)
        rc = cli_write_output_with(ctx, export_fill, &run, err);
    if (run.rc != GW_OK) {   /* the KB's own error, not the write's that it stopped */
        *err = run.err;
        rc = run.rc;
    }
    kb_close(run.k);
    return rc;
}

/* What an import changed, per table, for people ("prices     0 added, 1 updated, 0 removed")
 * or as JSON; replaced: the source --replace named (NULL: none). */
static int import_report(gw_ctx *ctx, kb *k, int nfiles, const char *replaced,
                         const kb_import_counts *counts, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    if (ctx->json) {
        view *m = view_map();
        view_map_set_str(m, "kb", kb_path(k));
        view_map_set_int(m, "files", nfiles);
        if (replaced)
            view_map_set_str(m, "replaced_source", replaced);
        else
            view_map_set(m, "replaced_source", view_null());
        view *tables = view_map_set(m, "tables", view_map());
        for (int t = 0; t < KB_TABLES; t++) {
            view *e = view_map_set(tables, kb_table_name(t), view_map());
            view_map_set_int(e, "added", (long long)counts->added[t]);
            view_map_set_int(e, "updated", (long long)counts->updated[t]);
            view_map_set_int(e, "unchanged", (long long)counts->unchanged[t]);
            view_map_set_int(e, "removed", (long long)counts->removed[t]);
        }
        view_to_json(m, &b, 1);
        view_free(m);
    } else {
        size_t unchanged = 0, changed = 0;
        buf_printf(&b, "imported %d file%s into %s", nfiles, nfiles == 1 ? "" : "s",
                   kb_path(k));
        if (replaced)
            buf_printf(&b, ", replacing the rows of source %s", replaced);
        buf_putc(&b, '\n');
        for (int t = 0; t < KB_TABLES; t++) {
            unchanged += counts->unchanged[t];
            if (!counts->added[t] && !counts->updated[t] && !counts->removed[t])
                continue;
            changed++;
            buf_printf(&b, "  %-10s %zu added, %zu updated, %zu removed\n", kb_table_name(t),
                       counts->added[t], counts->updated[t], counts->removed[t]);
        }
        if (!changed)
            buf_puts(&b, "  nothing new\n");
        if (unchanged)
            buf_printf(&b, "  %zu row%s already there\n", unchanged, unchanged == 1 ? "" : "s");
    }
    int rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

/* ---- import --with: the plugin host and the progress line ---------------------------------- */

/* The progress line of `kb import --with` on a terminal, redrawn in place. */
static void import_progress(const records_progress *p, void *arg)
{
    FILE *diag = arg;
    switch (p->stage) {
    case RECORDS_CONVERTING:
        fprintf(diag, "\r%s: converting %s (%zu bytes)...", p->importer, p->path, p->bytes_total);
        break;
    case RECORDS_BATCH_DONE:
        fprintf(diag, "\r%s: %s: %zu records stored (%d%%)...", p->importer, p->path, p->stored,
                p->bytes_total ? (int)(100.0 * (double)p->bytes_done / (double)p->bytes_total)
                               : 100);
        break;
    case RECORDS_FINISHED:
        fputs("\r\033[K", diag);
        if (p->ok)
            fprintf(diag, "\r%s: stored %zu records\033[K\n", p->importer, p->stored);
        break;
    }
}

/* Converts path (open as f) with the importer plugin and stores its records in the open
 * transaction. */
static int import_with(gw_ctx *ctx, kb *k, const char *importer, const char *path, FILE *f,
                       kb_import_counts *counts, gw_error *err)
{
    plugin_host *host = NULL;
    gw_buf messages = GW_BUF_INIT;
    int rc = cli_plugins_open(ctx, k, &host, err);
    if (rc == GW_OK)
        rc = records_import_stream(k, host, importer, path, f,
                                   ctx->progress ? import_progress : NULL, ctx->diag, &messages,
                                   counts, err);
    fputs(buf_cstr(&messages), ctx->diag);
    buf_free(&messages);
    plugin_host_free(host);
    return rc;
}

/* Copies the rest of in to a temporary file (at most max + 1 bytes) and returns it rewound. */
static FILE *spool(FILE *in, size_t max, gw_error *err)
{
    FILE *f = tmpfile();
    char chunk[65536];
    size_t n, total = 0;
    if (!f) {
        gw_error_set(err, GW_ECANTCREAT, "a temporary file: %s", strerror(errno));
        return NULL;
    }
    while (total <= max && (n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        total += n;
        if (fwrite(chunk, 1, n, f) != n) {
            gw_error_set(err, GW_EIO, "a temporary file: %s", strerror(errno));
            fclose(f);
            return NULL;
        }
    }
    rewind(f);
    return f;
}

/* Opens a file to import, to be read in chunks.  An import reads each file twice, so standard
 * input, a pipe or a device is copied to a temporary file first.  The errors are
 * gw_read_input's. */
static int open_import(const char *path, FILE **out, gw_error *err)
{
    size_t max;
    struct stat st;
    int rc = gw_input_max(GW_INPUT_IMPORT, &max, err);
    int is_stdin = strcmp(path, "-") == 0;
    *out = NULL;
    if (rc != GW_OK)
        return rc;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", path, strerror(errno));
    if (is_stdin)
        path = "standard input";
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(f);
        return gw_input_error(path, GW_INPUT_IMPORT, max, EISDIR, err);
    }
    if (!S_ISREG(st.st_mode)) {
        FILE *copy = spool(f, max, err);
        if (!is_stdin)
            fclose(f);
        if (!copy)
            return err->code;
        f = copy;
        if (fstat(fileno(f), &st) != 0)
            st.st_size = 0;
    }
    if ((uintmax_t)st.st_size > (uintmax_t)max) {
        fclose(f);
        return gw_input_error(path, GW_INPUT_IMPORT, max, EFBIG, err);
    }
    *out = f;
    return GW_OK;
}

int cli_kb_import(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    const char *with = cli_value(a, "with"), *replace = cli_value(a, "replace");
    int nfiles = a->argc;
    if (with && nfiles != 1)
        return gw_error_set(err, GW_EUSAGE, "--with takes one file");
    if (replace && !*replace)
        return gw_error_set(err, GW_EUSAGE, "--replace: expected a source id (gpuwise kb "
                            "sources lists them)");
    FILE **files = gw_xcalloc((size_t)nfiles, sizeof *files);
    int rc = GW_OK;
    for (int i = 0; i < nfiles && rc == GW_OK; i++)
        rc = open_import(a->argv[i], &files[i], err);
    kb *k = NULL;
    kb_import_counts counts;
    memset(&counts, 0, sizeof counts);
    if (rc == GW_OK)
        rc = cli_open_kb(ctx, 1, &k, err);
    if (rc == GW_OK && (rc = kb_begin(k, err)) == GW_OK) {
        if (with)
            rc = import_with(ctx, k, with, a->argv[0], files[0], &counts, err);
        else
            rc = kb_import_files(k, (size_t)nfiles, (const char *const *)a->argv, files, &counts,
                                 err);
        /* the source's rows that no row of the files matched go; all in the one transaction */
        if (rc == GW_OK && replace && (rc = kb_remove_unmatched(k, replace, counts.removed,
                                                                 err)) != GW_OK)
            gw_error_prefix(err, "--replace %s", replace);
        if (rc == GW_OK)
            rc = kb_commit(k, err);
        else
            kb_rollback(k);
    }
    if (rc == GW_OK)
        rc = import_report(ctx, k, nfiles, replace, &counts, err);
    kb_close(k);
    for (int i = 0; i < nfiles; i++)
        if (files[i])
            fclose(files[i]);
    free(files);
    return rc;
}

int cli_kb_upgrade(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    int rc = cli_open_kb(ctx, 1, &k, err);   /* opening it writable migrates it */
    if (rc == GW_OK) {
        gw_buf b = GW_BUF_INIT;
        if (ctx->json) {
            view *m = view_map();
            view_map_set_str(m, "kb", kb_path(k));
            view_map_set_int(m, "schema", kb_schema_version(k));
            view_to_json(m, &b, 1);
            view_free(m);
        } else {
            buf_printf(&b, "%s: schema %d\n", kb_path(k), kb_schema_version(k));
        }
        rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
        buf_free(&b);
    }
    kb_close(k);
    return rc;
}
