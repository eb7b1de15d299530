/* view.h — the view model: one small tree of null / bool / number / string / list / map values.
 * Every command builds one; `--json` writes it out and templates read it, so what a template can
 * show is exactly what a script can read.  Maps keep their keys in insertion order. */
#ifndef GW_VIEW_H
#define GW_VIEW_H

#include <stddef.h>

#include "buf.h"
#include "error.h"

typedef enum { VIEW_NULL, VIEW_BOOL, VIEW_NUMBER, VIEW_STRING, VIEW_LIST, VIEW_MAP } view_type;

typedef struct view view;

/* Constructors: each returns a new node the caller owns (free with view_free, or hand it to a
 * list or map, which then owns it). */
view *view_null(void);
view *view_bool(int b);
view *view_number(double n);         /* NaN and infinities become null when written as JSON */
view *view_string(const char *s);    /* copies s; NULL gives a null node */
view *view_stringn(const char *s, size_t n);
view *view_stringf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
view *view_list(void);
view *view_map(void);

/* Containers take ownership of item/value.  view_map_set replaces an existing key. */
view *view_list_push(view *list, view *item);          /* returns item */
view *view_map_set(view *map, const char *key, view *value); /* returns value */
/* view_map_set of a key map does not hold yet (the caller's table of keys says so): appended
 * without looking for it, which on an option's map of a hundred keys cost more than the
 * values themselves.  A key added twice is held twice. */
view *view_map_add(view *map, const char *key, view *value);  /* returns value */
/* The key pool's copy of key (map keys are interned, see view.c), for a caller that puts the
 * same keys into many maps (a table of fields): view_map_add_key then appends it without
 * hashing it again.  NULL when key is not pooled (too long, or the pool full): use
 * view_map_add.  The copy lives as long as the process. */
const char *view_key(const char *key);
/* view_map_add of a key view_key gave. */
view *view_map_add_key(view *map, const char *pooled, view *value);   /* returns value */
void view_map_set_str(view *map, const char *key, const char *s);  /* NULL -> null */
void view_map_set_num(view *map, const char *key, double n);       /* NaN -> null */
void view_map_set_int(view *map, const char *key, long long n);
void view_map_set_bool(view *map, const char *key, int b);

/* Accessors.  Returned pointers are owned by the tree. */
view_type view_kind(const view *v);
int view_is_null(const view *v);           /* true for NULL pointers too */
double view_num(const view *v);            /* NaN unless a number */
int view_bool_value(const view *v);
const char *view_str(const view *v);       /* NULL unless a string */
size_t view_str_len(const view *v);
size_t view_len(const view *v);            /* items of a list, keys of a map, 0 otherwise */
view *view_list_at(const view *v, size_t i);
const char *view_map_key_at(const view *v, size_t i);
view *view_map_value_at(const view *v, size_t i);
view *view_map_get(const view *map, const char *key);   /* NULL when absent */
/* Follows a dotted path ("cost.total") through maps; NULL when any step is missing. */
view *view_path(const view *root, const char *dotted);

/* Mustache truthiness: false for null, false, 0? (no: numbers are truthy), "" and empty lists. */
int view_truthy(const view *v);

/* JSON out.  pretty: two-space indent and a final newline. */
void view_to_json(const view *v, gw_buf *out, int pretty);
/* One number (NaN and infinities: null) or string as view_to_json writes it, for a writer that
 * streams JSON without building the tree. */
void view_json_number(gw_buf *out, double n);
void view_json_string(gw_buf *out, const char *s, size_t n);
/* JSON in (cJSON).  Returns NULL and sets err (GW_EDATA, with line number) on malformed text. */
view *view_from_json(const char *text, size_t len, gw_error *err);

/* Number formatting shared by every command, so templates get figures people read. */
void view_format_number(gw_buf *out, double n, int decimals);   /* 2750.5 -> "2,750.5" */
void view_format_fixed(gw_buf *out, double n, int decimals);    /* exactly printf's "%.*f" */

view *view_copy(const view *v);
/* A copy of v for a terminal: every string (not the keys) as term.h shows one field, with its
 * line breaks, escape sequences and bidi overrides escaped.  A text printer that reads a view
 * reads this copy, so no value can forge a line of its output.  Caller frees. */
view *view_term_copy(const view *v);
void view_free(view *v);

#endif
