/* kb_filter.h — the --where language (kb_filter.c) for any listing the KB answers: a listing
 * names its fields (kb_filter_fields), and the language compiles a filter over them to SQL whose
 * values are all bound parameters.  `kb list` and `offers` share it.  Only kb_*.c include it. */
#ifndef GW_KB_FILTER_H
#define GW_KB_FILTER_H

#include <sqlite3.h>

#include "kb.h"

/* A field the filter language and --sort know: its name as the listing's SQL names the column
 * (the description's, never the user's text), whether it is a number, whether it is one of
 * `kb list`'s derived fields, and a column that `~` (contains) also matches where it equals the
 * value, without case (NULL: none). */
typedef struct kb_filter_field {
    const char *name;
    int numeric, is_derived;
    const char *or_equal;
} kb_filter_field;

/* A listing's fields: find fills *out and returns 1 for a field (in lower case), 0 otherwise;
 * names appends them, comma-separated, for the message that lists them. */
typedef struct kb_filter_fields {
    int (*find)(const char *name, kb_filter_field *out);
    void (*names)(gw_buf *out);
} kb_filter_fields;

/* A compiled filter: sql is the condition, its values bound as ?1..?n in order. */
typedef struct kb_filter {
    gw_buf sql;
    char **texts;      /* bound in order; numbers are kept as text too (sqlite3_bind_double) */
    double *nums;
    int *is_num;
    size_t n;
    int derived;       /* names a derived field */
} kb_filter;
#define KB_FILTER_INIT {GW_BUF_INIT, NULL, NULL, NULL, 0, 0}

/* Compiles where over fields into *f (free with kb_filter_free, whatever it returns).
 * GW_EUSAGE naming the position and the problem. */
int kb_filter_compile(const char *where, const kb_filter_fields *fields, kb_filter *f,
                      gw_error *err);
void kb_filter_bind(const kb_filter *f, sqlite3_stmt *st);   /* ?1..?n */
void kb_filter_free(kb_filter *f);
/* GW_EUSAGE "WHAT unknown field 'x' (fields: ...)". */
int kb_filter_unknown(const kb_filter_fields *fields, gw_error *err, const char *what,
                      const char *name);

/* gw_price_in(amount, currency) converts to `to`, gw_price_in(amount, currency, to) to its third
 * argument (NULL: amount as it is), as kb_convert does; NULL for a currency without a rate.  Any
 * other failure stops the query and is kept in rc and err. */
typedef struct kb_convert_to {
    kb *k;
    const char *to;
    int rc;
    gw_error err;
} kb_convert_to;
int kb_price_in_register(kb *k, kb_convert_to *c, gw_error *err);
void kb_price_in_unregister(kb *k);

#endif
