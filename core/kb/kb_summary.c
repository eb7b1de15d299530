/* kb_summary.c — listings that summarise a table by one GROUP BY instead of reading its rows:
 * the providers of the cloud offers (`prices list`, `prices remove`).  Counting in C over every
 * offer compared each with all the earlier ones (40 s at 100k offers); SQLite groups them in
 * one pass. */
#include <stdlib.h>

#include <sqlite3.h>

#include "kb.h"
#include "kb_sql.h"

/* Providers by name with case aside (then byte order, so that names differing in case alone
 * keep one order); a NULL provider is grouped with "" as the listing shows it. */
static const char offer_providers_sql[] =
    "SELECT ifnull(provider, '') AS name, count(*), sum(spot != 0), count(DISTINCT gpu),"
    " min(as_of), max(as_of), count(DISTINCT source)"
    " FROM price WHERE kind = 'cloud' GROUP BY name ORDER BY name COLLATE NOCASE, name";

int kb_offer_providers(kb *k, kb_offer_provider **out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare(k, offer_providers_sql, &st, err);
    if (rc != GW_OK)
        return rc;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        kb_offer_provider *p = &(*out)[(*n)++];
        p->provider = kb_sql_text(st, 0);
        p->offers = sqlite3_column_int64(st, 1);
        p->spot = sqlite3_column_int64(st, 2);
        p->gpus = sqlite3_column_int64(st, 3);
        p->oldest = kb_sql_text(st, 4);
        p->newest = kb_sql_text(st, 5);
        p->sources = sqlite3_column_int64(st, 6);
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        kb_offer_providers_free(*out, *n);
        *out = NULL;
        *n = 0;
        return kb_sql_fail(k, err, step, "reading");
    }
    return GW_OK;
}

void kb_offer_providers_free(kb_offer_provider *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(rows[i].provider);
        free(rows[i].oldest);
        free(rows[i].newest);
    }
    free(rows);
}
