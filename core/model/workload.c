/* workload.c — reads a workload file through the plugin sandbox and checks it against the one
 * description of its fields (workload_fields.c): reading each type, the messages ("expected ...",
 * "did you mean"), the defaults and freeing all walk those tables.  Fields are read in table
 * order, a nested table whole where it stands, each followed by the rule hung on it
 * (workload_rules.c), and the first mistake in that order is the one reported. */
#include "workload_private.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "base/limits.h"
#include "cost.h"
#include "ingest/kb_answer.h"
#include "sandbox/plugin.h"
#include "base/units.h"

/* ---- messages ---- */

/* How a value reads in a message: "eight" (quoted), 25, true, a table. */
static void describe(gw_buf *b, const view *v)
{
    switch (view_kind(v)) {
    case VIEW_STRING: {
        const char *s = view_str(v);
        size_t n = strlen(s);
        buf_printf(b, "\"%.*s%s\"", (int)(n > 40 ? 40 : n), s, n > 40 ? "..." : "");
        break;
    }
    case VIEW_NUMBER:
        buf_printf(b, "%g", view_num(v));
        break;
    case VIEW_BOOL:
        buf_puts(b, view_bool_value(v) ? "true" : "false");
        break;
    case VIEW_LIST:
        buf_puts(b, "a list");
        break;
    case VIEW_MAP:
        buf_puts(b, "a table");
        break;
    default:
        buf_puts(b, "nil");
    }
}

/* GW_EDATA: "file: name: expected ..., got ..." and, when nearest is not NULL, "(did you mean
 * nearest?)". */
static int bad_suggesting(gw_error *err, const char *file, const char *name,
                          const char *expected, const view *got, const char *nearest)
{
    gw_buf b = GW_BUF_INIT;
    describe(&b, got);
    if (nearest)
        buf_printf(&b, " (did you mean %s?)", nearest);
    gw_error_set(err, GW_EDATA, "%s: %s: expected %s, got %s", file, name, expected,
                 buf_cstr(&b));
    buf_free(&b);
    return GW_EDATA;
}

static int bad(gw_error *err, const char *file, const char *name, const char *expected,
               const view *got)
{
    return bad_suggesting(err, file, name, expected, got, NULL);
}

static int bad_value_suggesting(gw_error *err, const char *file, const char *name,
                                const workload_field *f, const view *got, const char *nearest)
{
    gw_buf b = GW_BUF_INIT;
    workload_describe_expected(&b, f);
    bad_suggesting(err, file, name, buf_cstr(&b), got, nearest);
    buf_free(&b);
    return GW_EDATA;
}

static int bad_value(gw_error *err, const char *file, const char *name, const workload_field *f,
                     const view *got)
{
    return bad_value_suggesting(err, file, name, f, got, NULL);
}

/* Keeps in *nearest the name closest to word so far, if within two edits (*distance starts at
 * 3). */
static void keep_nearest(const char *word, const char *name, const char **nearest,
                         size_t *distance)
{
    size_t d = gw_edit_distance(word, name);
    if (d < *distance) {
        *distance = d;
        *nearest = name;
    }
}

/* ---- reading: one function per type; v is the value present in the file (not null) ---- */

/* Rejects keys that name no field, suggesting the nearest known name. */
static int check_keys(const char *file, const char *prefix, const view *map,
                      const workload_field *fields, gw_error *err)
{
    for (size_t i = 0; i < view_len(map); i++) {
        const char *key = view_map_key_at(map, i);
        const char *nearest = NULL;
        size_t nearest_d = 3;
        const workload_field *f;
        for (f = fields; f->name; f++) {
            if (f->type == FIELD_FILE)
                continue;
            if (!strcmp(key, f->name))
                break;
            keep_nearest(key, f->name, &nearest, &nearest_d);
        }
        if (f->name)
            continue;
        if (nearest)
            return gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field (did you mean %s%s?)",
                                file, prefix, key, prefix, nearest);
        return gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field", file, prefix, key);
    }
    return GW_OK;
}

static int read_fields(const char *file, const char *prefix, const view *map,
                       const workload_field *fields, workload *w, gw_error *err);

static int read_number(const char *file, const char *name, const workload_field *f, const view *v,
                       double *out, gw_error *err)
{
    double n = view_num(v);
    if (view_kind(v) != VIEW_NUMBER || !isfinite(n))
        return bad_value(err, file, name, f, v);
    gw_buf why = GW_BUF_INIT;
    if (!workload_describe_out_of_range(&why, f, n) && f->whole && n != floor(n)) {
        buf_printf(&why, "%g is not a whole number (expected ", n);
        workload_describe_expected(&why, f);
        buf_putc(&why, ')');
    }
    int rc = GW_OK;
    if (why.len)
        rc = gw_error_set(err, GW_EDATA, "%s: %s: %s", file, name, buf_cstr(&why));
    else
        *out = n;
    buf_free(&why);
    return rc;
}

static int read_text(const char *file, const char *name, const workload_field *f, const view *v,
                     char **out, gw_error *err)
{
    const char *s = view_str(v);
    if (!s || !*s)
        return bad_value(err, file, name, f, v);
    if (workload_field_choice(f, 0)) {
        const char *nearest = NULL;
        size_t nearest_d = 3;
        size_t i = 0;
        for (; workload_field_choice(f, i) && strcmp(s, workload_field_choice(f, i)); i++)
            keep_nearest(s, workload_field_choice(f, i), &nearest, &nearest_d);
        if (!workload_field_choice(f, i))
            return bad_value_suggesting(err, file, name, f, v, nearest);
    }
    *out = gw_xstrdup(s);
    return GW_OK;
}

static int read_currency(const char *file, const char *name, const workload_field *f, const view *v,
                         char out[4], gw_error *err)
{
    const char *s = view_str(v);
    if (!s || !units_is_currency(s))
        return bad_value(err, file, name, f, v);
    memcpy(out, s, 4);
    return GW_OK;
}

static int read_names(const char *file, const char *name, const workload_field *f, const view *v,
                      char ***out, size_t *count, gw_error *err)
{
    if (view_kind(v) != VIEW_LIST || view_len(v) == 0)
        return bad_value(err, file, name, f, v);
    *out = gw_xcalloc(view_len(v), sizeof **out);
    for (size_t i = 0; i < view_len(v); i++) {
        const view *item = view_list_at(v, i);
        if (view_kind(item) != VIEW_STRING || !*view_str(item)) {
            gw_buf item_name = GW_BUF_INIT;
            buf_printf(&item_name, "%s[%zu]", name, i + 1);
            bad(err, file, buf_cstr(&item_name), f->expected_item, item);
            buf_free(&item_name);
            return GW_EDATA;
        }
        (*out)[(*count)++] = gw_xstrdup(view_str(item));
    }
    return GW_OK;
}

/* The fields of a table (map NULL when it is absent), named "name.field" in messages. */
static int read_table(const char *file, const char *name, const workload_field *f, const view *map,
                      workload *w, gw_error *err)
{
    gw_buf prefix = GW_BUF_INIT;
    buf_printf(&prefix, "%s.", name);
    int rc = read_fields(file, buf_cstr(&prefix), map, f->fields, w, err);
    buf_free(&prefix);
    return rc;
}

/* An absent field takes its fallback; an absent table reads as an empty one, so its fields
 * take theirs. */
static void read_fallback(const workload_field *f, void *slot)
{
    switch (f->type) {
    case FIELD_NUMBER:
        *(double *)slot = f->fallback ? strtod(f->fallback, NULL) : NAN;
        break;
    case FIELD_TEXT:
        *(char **)slot = f->fallback ? gw_xstrdup(f->fallback) : NULL;
        break;
    case FIELD_BOOL:
        *(int *)slot = f->fallback && !strcmp(f->fallback, "true");
        break;
    default:
        break;   /* currency is required; names stay NULL; tables are read as empty */
    }
}

static int read_field(const char *file, const char *name, const workload_field *f, const view *v,
                      workload *w, gw_error *err)
{
    void *slot = (char *)w + f->at;
    if (f->type == FIELD_FILE) {
        *(char **)slot = gw_xstrdup(file);
        return GW_OK;
    }
    if (f->type == FIELD_TABLE && view_kind(v) == VIEW_LIST && view_len(v) == 0)
        v = NULL;   /* Lua's {} comes back as an empty list */
    if (view_is_null(v)) {
        if (f->required)
            return workload_missing(err, file, name, f);
        read_fallback(f, slot);
        return f->type == FIELD_TABLE ? read_table(file, name, f, NULL, w, err) : GW_OK;
    }
    if (f->type == FIELD_TABLE && f->shorthand && view_kind(v) == VIEW_STRING) {
        view *table = view_map();   /* model = "x" reads as model = { name = "x" } */
        view_map_set_str(table, f->shorthand, view_str(v));
        int rc = read_table(file, name, f, table, w, err);
        view_free(table);
        return rc;
    }
    switch (f->type) {
    case FIELD_NUMBER:
        return read_number(file, name, f, v, slot, err);
    case FIELD_TEXT:
        return read_text(file, name, f, v, slot, err);
    case FIELD_CURRENCY:
        return read_currency(file, name, f, v, slot, err);
    case FIELD_BOOL:
        if (view_kind(v) != VIEW_BOOL)
            return bad_value(err, file, name, f, v);
        *(int *)slot = view_bool_value(v);
        return GW_OK;
    case FIELD_NAMES:
        return read_names(file, name, f, v, slot, (size_t *)((char *)w + f->count_at), err);
    case FIELD_TABLE:
        if (view_kind(v) != VIEW_MAP)
            return bad_value(err, file, name, f, v);
        return read_table(file, name, f, v, w, err);
    case FIELD_FILE:
        break;
    }
    return GW_OK;
}

/* Reads every field of one table in order, each followed by the rule hung on it. */
static int read_fields(const char *file, const char *prefix, const view *map,
                       const workload_field *fields, workload *w, gw_error *err)
{
    int rc = check_keys(file, prefix, map, fields, err);
    for (const workload_field *f = fields; rc == GW_OK && f->name; f++) {
        gw_buf name = GW_BUF_INIT;
        buf_printf(&name, "%s%s", prefix, f->name);
        rc = read_field(file, buf_cstr(&name), f, view_map_get(map, f->name), w, err);
        buf_free(&name);
        if (rc == GW_OK && f->then)
            rc = f->then(file, w, err);
    }
    return rc;
}

static void free_fields(const workload_field *fields, workload *w)
{
    for (const workload_field *f = fields; f->name; f++) {
        void *slot = (char *)w + f->at;
        if (f->type == FIELD_TEXT || f->type == FIELD_FILE) {
            free(*(char **)slot);
        } else if (f->type == FIELD_NAMES) {
            char **names = *(char ***)slot;
            size_t count = *(size_t *)((char *)w + f->count_at);
            for (size_t i = 0; i < count; i++)
                free(names[i]);
            free(names);
        } else if (f->type == FIELD_TABLE) {
            free_fields(f->fields, w);
        }
    }
}

void workload_free(workload *w)
{
    if (!w)
        return;
    free_fields(workload_top_fields, w);
    free(w->model_id);
    free(w->model_title);
    free(w->model_source);
    free(w);
}

/* Reads and checks the fields of t; catalog (may be NULL) resolves a model named by name. */
static int workload_read(const char *file, const view *t, kb *catalog, workload **out,
                         gw_error *err)
{
    *out = NULL;
    if (view_kind(t) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA, "%s: a workload file returns a table (return { ... })",
                            file);
    workload *w = gw_xcalloc(1, sizeof *w);
    w->catalog = catalog;
    int rc = read_fields(file, "", t, workload_top_fields, w, err);
    if (rc == GW_OK)
        rc = workload_check_architecture(file, w, err);
    w->catalog = NULL;
    if (rc != GW_OK) {
        workload_free(w);
        return rc;
    }
    *out = w;
    return GW_OK;
}

int workload_from_view(const char *file, const view *t, workload **out, gw_error *err)
{
    return workload_read(file, t, NULL, out, err);
}

int workload_load(const char *path, kb *k, workload **out, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int e = gw_read_input(path, GW_INPUT_WORKLOAD, &text, &len, err);
    if (e)
        return e;
    view *table = NULL;
    int rc = plugin_eval_text(path, text, len, kb_answer_question, k, NULL, &table, err);
    free(text);
    if (rc != GW_OK) {
        /* A Lua error in a workload file is bad input, not a broken plugin. */
        if (rc == GW_ESOFTWARE)
            err->code = rc = GW_EDATA;
        return rc;
    }
    rc = workload_read(path, table, k, out, err);
    view_free(table);
    return rc;
}
