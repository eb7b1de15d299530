/* kb_search.c — full-text search over everything the KB holds (one FTS5 index that
 * kb/schema.sql's triggers keep current): what a person types becomes a safe FTS5 query of quoted
 * words, hits are ranked with GPUs first, and a source's facts are listed the way search shows
 * them. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kb.h"
#include "kb_sql.h"

/* Turns what a person typed into an FTS5 query of quoted words (a trailing * kept as a prefix
 * search), so no FTS5 syntax ever comes from the user.  Words without a letter or digit are
 * dropped.  joiner is " " (all words) or " OR ". */
static char *fts_query(const char *text, const char *joiner)
{
    gw_buf q = GW_BUF_INIT;
    const char *p = text;
    size_t words = 0;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t len = (size_t)(p - start);
        int prefix = 0;
        while (len > 0 && start[len - 1] == '*') {
            prefix = 1;
            len--;
        }
        int useful = 0;
        for (size_t i = 0; i < len; i++)
            if (isalnum((unsigned char)start[i]) || (unsigned char)start[i] >= 0x80)
                useful = 1;
        if (!useful)
            continue;
        if (words++)
            buf_puts(&q, joiner);
        buf_putc(&q, '"');
        for (size_t i = 0; i < len; i++) {
            if (start[i] == '"')
                buf_putc(&q, '"');
            buf_putc(&q, start[i]);
        }
        buf_putc(&q, '"');
        if (prefix)
            buf_putc(&q, '*');
    }
    if (!words) {
        buf_free(&q);
        return NULL;
    }
    return buf_detach(&q);
}

/* What a hit is about: the GPU of a GPU-bound row (a claim's subject only when it is a GPU) and
 * the source each row cites, looked up from the hit's kind and ref (h.kind, h.ref). */
#define HIT_GPU_SQL \
    "CASE h.kind WHEN 'gpu' THEN h.ref " \
    "WHEN 'benchmark' THEN (SELECT gpu FROM benchmark WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'price' THEN (SELECT gpu FROM price WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'claim' THEN (SELECT g.id FROM claim c JOIN gpu g ON g.id = c.subject " \
    "WHERE c.id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'system' THEN (SELECT gpu FROM system WHERE id = h.ref) END"
#define HIT_SOURCE_SQL \
    "CASE h.kind WHEN 'source' THEN h.ref " \
    "WHEN 'gpu' THEN (SELECT source FROM gpu WHERE id = h.ref) " \
    "WHEN 'benchmark' THEN (SELECT source FROM benchmark WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'price' THEN (SELECT source FROM price WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'claim' THEN (SELECT source FROM claim WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'rate' THEN (SELECT source FROM rate WHERE currency = substr(h.ref, 1, " \
    "instr(h.ref, '@') - 1) AND as_of = substr(h.ref, instr(h.ref, '@') + 1)) " \
    "WHEN 'assumption' THEN (SELECT source FROM assumption WHERE id = h.ref) " \
    "WHEN 'system' THEN (SELECT source FROM system WHERE id = h.ref) " \
    "WHEN 'model' THEN (SELECT source FROM model WHERE id = h.ref) " \
    "WHEN 'host' THEN (SELECT source FROM host WHERE id = h.ref) END"

/* Reads hit rows (kind, ref, title, snippet, rank, gpu, source) until the statement ends, and
 * finalizes it.  Returns the step code: SQLITE_DONE when every row was read. */
static int read_hits(sqlite3_stmt *st, kb_hit **out, size_t *n)
{
    size_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        kb_hit *h = &(*out)[(*n)++];
        h->kind = kb_sql_text(st, 0);
        h->ref = kb_sql_text(st, 1);
        h->title = kb_sql_text(st, 2);
        h->snippet = kb_sql_text(st, 3);
        h->rank = -sqlite3_column_double(st, 4);   /* bm25 is lower-is-better */
        h->gpu = kb_sql_text(st, 5);
        h->source = kb_sql_text(st, 6);
    }
    sqlite3_finalize(st);
    return step;
}

static int search_run(kb *k, const char *match, size_t limit, kb_hit **out, size_t *n,
                      gw_error *err)
{
    sqlite3_stmt *st;
    /* The lookups run on the hits LIMIT kept, not on every match: the inner query ranks. */
    int rc = kb_sql_prepare(k,
                     "SELECT h.kind, h.ref, h.title, h.snip, h.score, " HIT_GPU_SQL ", "
                     HIT_SOURCE_SQL " FROM ("
                     /* GPUs are what people look up most: their entries weigh double. */
                     "SELECT kind, ref, title, snippet(kb_fts, -1, '[', ']', '...', 12) AS snip, "
                     "bm25(kb_fts, 0.0, 0.0, 4.0, 1.0) * (CASE kind WHEN 'gpu' THEN 2.0 "
                     "ELSE 1.0 END) AS score "
                     "FROM kb_fts WHERE kb_fts MATCH ?1 ORDER BY score, kind, ref LIMIT ?2) h "
                     "ORDER BY h.score, h.kind, h.ref",
                     &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, match);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)(limit ? limit : 20));
    int step = read_hits(st, out, n);
    if (step != SQLITE_DONE) {
        kb_hits_free(*out, *n);
        *out = NULL;
        *n = 0;
        if (step == SQLITE_BUSY || step == SQLITE_LOCKED || step == SQLITE_CORRUPT)
            return kb_sql_fail(k, err, step, "searching");
        return gw_error_set(err, GW_EUSAGE, "cannot search for that text; try plain words");
    }
    return GW_OK;
}

int kb_source_facts(kb *k, const char *id, kb_hit **out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    /* The kb_text views give each entry the title search shows; h.row is the table's rowid. */
    int rc = kb_text_views(k, err);
    if (rc == GW_OK)
        rc = kb_sql_prepare(k,
                     "SELECT h.kind, h.ref, h.title, NULL, 0, " HIT_GPU_SQL ", ?1 FROM ("
                     "SELECT 1 AS t, row, kind, ref, title FROM kb_text_gpu "
                     "WHERE row IN (SELECT rowid FROM gpu "
                     "WHERE source = ?1 OR memory_mib_source = ?1) "
                     "UNION ALL SELECT 2, row, kind, ref, title FROM kb_text_benchmark "
                     "WHERE row IN (SELECT rowid FROM benchmark WHERE source = ?1) "
                     "UNION ALL SELECT 3, row, kind, ref, title FROM kb_text_price "
                     "WHERE row IN (SELECT rowid FROM price WHERE source = ?1) "
                     "UNION ALL SELECT 4, row, kind, ref, title FROM kb_text_rate "
                     "WHERE row IN (SELECT rowid FROM rate WHERE source = ?1) "
                     "UNION ALL SELECT 5, row, kind, ref, title FROM kb_text_claim "
                     "WHERE row IN (SELECT rowid FROM claim "
                     "WHERE source = ?1 OR correction_source = ?1) "
                     "UNION ALL SELECT 6, row, kind, ref, title FROM kb_text_assumption "
                     "WHERE row IN (SELECT rowid FROM assumption WHERE source = ?1) "
                     "UNION ALL SELECT 7, row, kind, ref, title FROM kb_text_system "
                     "WHERE row IN (SELECT rowid FROM system WHERE source = ?1) "
                     "UNION ALL SELECT 8, row, kind, ref, title FROM kb_text_model "
                     "WHERE row IN (SELECT rowid FROM model WHERE source = ?1) "
                     "UNION ALL SELECT 9, row, kind, ref, title FROM kb_text_host "
                     "WHERE row IN (SELECT rowid FROM host WHERE source = ?1)) h "
                     "ORDER BY h.t, h.row",
                     &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, id);
    int step = read_hits(st, out, n);
    if (step != SQLITE_DONE) {
        kb_hits_free(*out, *n);
        *out = NULL;
        *n = 0;
        return kb_sql_fail(k, err, step, "reading");
    }
    return GW_OK;
}

int kb_search(kb *k, const char *query, size_t limit, kb_hit **out, size_t *n, gw_error *err)
{
    *out = NULL;
    *n = 0;
    if (!query || strlen(query) > 1000)
        return gw_error_set(err, GW_EUSAGE, "search text too long (1000 characters at most)");
    char *all = fts_query(query, " ");
    if (!all)
        return gw_error_set(err, GW_EUSAGE, "nothing to search for in '%.100s' (give a word "
                            "or a number)", query);
    int rc = search_run(k, all, limit, out, n, err);
    if (rc == GW_OK && *n == 0 && strchr(all, ' ')) {
        /* No row has every word: rank rows that have some of them. */
        char *any = fts_query(query, " OR ");
        rc = search_run(k, any, limit, out, n, err);
        free(any);
    }
    free(all);
    return rc;
}

void kb_hits_free(kb_hit *hits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(hits[i].kind);
        free(hits[i].ref);
        free(hits[i].title);
        free(hits[i].snippet);
        free(hits[i].gpu);
        free(hits[i].source);
    }
    free(hits);
}
