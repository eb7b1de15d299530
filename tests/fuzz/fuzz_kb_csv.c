/* fuzz_kb_csv.c — the KB's one CSV reader (core/kb/kb_csv.c) on any bytes: it never crashes, every
 * field it hands on is text (UTF-8, no control character but tab, CR and LF), and writing its
 * records back as CSV (buf_put_csv_field, as an export and an importer's batch do) and reading
 * that again gives the same records: the text form has one meaning.
 * seeds: $ROOT/tests/fixtures/kb */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "kb/kb_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct pass {
    gw_buf out;        /* the records written back */
    gw_buf fields;     /* every field, NUL-separated, with a record mark */
} pass;

static int keep(const kb_csv_rec *r, void *arg)
{
    pass *p = arg;
    for (size_t i = 0; i < r->n; i++) {
        size_t at;
        if (strlen(r->f[i]) != r->len[i])
            abort();   /* no NUL inside a field: it would have been refused */
        for (size_t j = 0; j < r->len[i]; j++)
            if (r->f[i][j] == '\r')
                r->f[i][j] = ' ';   /* CR is refused in a value later (kb_text_valid) */
        if (!kb_text_valid(r->f[i], r->len[i], &at))
            abort();
        buf_append(&p->fields, r->f[i], r->len[i] + 1);
        if (i)
            buf_putc(&p->out, ',');
        buf_put_csv_field(&p->out, r->f[i]);
    }
    if (r->n == 1 && r->len[0] == 0)
        buf_puts(&p->out, "\"\"");
    buf_putc(&p->out, '\n');
    buf_putc(&p->fields, '\x1e');
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pass a = {GW_BUF_INIT, GW_BUF_INIT}, b = {GW_BUF_INIT, GW_BUF_INIT};
    kb_csv_in in = {"fuzz.csv", NULL, (const char *)data, size};
    gw_error err = {0};
    /* A byte order mark first: a first field that itself starts with U+FEFF (a file with two
     * marks) must not be read as the mark the second time. */
    buf_puts(&a.out, "\xEF\xBB\xBF");
    if (kb_csv_read(&in, 0, keep, &a, &err) == 0) {
        kb_csv_in again = {"again.csv", NULL, a.out.data ? a.out.data : "", a.out.len};
        if (kb_csv_read(&again, 0, keep, &b, &err) != 0)
            abort();   /* what it wrote, it reads */
        if (a.fields.len != b.fields.len ||
            (a.fields.len && memcmp(a.fields.data, b.fields.data, a.fields.len) != 0))
            abort();   /* ... as the same records */
    }
    buf_free(&a.out);
    buf_free(&a.fields);
    buf_free(&b.out);
    buf_free(&b.fields);
    return 0;
}
