/* workload.c — reads a workload file through the plugin sandbox and checks it against the one
 * description of its fields (workload_fields.c): reading each type, the messages ("expected ...",
 * "did you mean"), the defaults and freeing all walk those tables.  Fields are read in table
 * order, a nested table whole where it stands, each followed by the rule hung on it
 * (workload_rules.c), and the first mistake in that order is the one reported. */
#include "workload_private.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
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

/* One place a field is described: "at the top level (sharding = ...)" or, path naming its
 * table ("model"; nested ones dotted), "in model = { precision = ... }". */
static void put_field_place(gw_buf *b, const char *path, const char *key)
{
    if (!*path) {
        buf_printf(b, "at the top level (%s = ...)", key);
        return;
    }
    int depth = 0;
    buf_puts(b, "in ");
    for (const char *p = path; *p; depth++) {
        size_t len = strcspn(p, ".");
        buf_printf(b, "%.*s = { ", (int)len, p);
        p += len + (p[len] == '.');
    }
    buf_printf(b, "%s = ...", key);
    while (depth--)
        buf_puts(b, " }");
}

/* Writes to b every place the field tables describe a field named key, but the table `here`
 * (the one it was found in), joined by " or "; fields is the table path names ("" the top). */
static void field_places(gw_buf *b, const char *key, const workload_field *fields,
                         const char *path, const workload_field *here)
{
    for (const workload_field *f = fields; f->name; f++) {
        if (fields != here && f->type != FIELD_FILE && !strcmp(f->name, key)) {
            buf_puts(b, b->len ? " or " : "");
            put_field_place(b, path, key);
        }
        if (f->type == FIELD_TABLE) {
            gw_buf inner = GW_BUF_INIT;
            buf_printf(&inner, "%s%s%s", path, *path ? "." : "", f->name);
            field_places(b, key, f->fields, buf_cstr(&inner), here);
            buf_free(&inner);
        }
    }
}

/* Writes to b the place of the first field, under fields (path names their table, "" the top),
 * whose other tools' names (.also) include key; nothing where none does. */
static void also_place(gw_buf *b, const char *key, const workload_field *fields,
                       const char *path)
{
    for (const workload_field *f = fields; f->name && !b->len; f++) {
        for (const char *const *a = f->also; a && *a; a++)
            if (!strcmp(*a, key)) {
                put_field_place(b, path, f->name);
                return;
            }
        if (f->type == FIELD_TABLE) {
            gw_buf inner = GW_BUF_INIT;
            buf_printf(&inner, "%s%s%s", path, *path ? "." : "", f->name);
            also_place(b, key, f->fields, buf_cstr(&inner));
            buf_free(&inner);
        }
    }
}

/* Rejects keys that name no field: a field of another table is named where it belongs (from
 * the field tables), another tool's name for a field where gpuwise writes it, a typo gets the
 * nearest known name. */
static int check_keys(const char *file, const char *prefix, const view *map,
                      const workload_field *fields, gw_error *err)
{
    for (size_t i = 0; i < view_len(map); i++) {
        const char *key = view_map_key_at(map, i);
        const char *nearest = NULL;
        size_t nearest_d = 3;
        const workload_field *f;
        for (f = fields; f->name && (f->type == FIELD_FILE || strcmp(key, f->name)); f++)
            ;
        if (f->name)
            continue;
        for (f = fields; f->name; f++)   /* a typo's nearest name, only for a key that is one */
            if (f->type != FIELD_FILE)
                keep_nearest(key, f->name, &nearest, &nearest_d);
        gw_buf places = GW_BUF_INIT, here = GW_BUF_INIT, also = GW_BUF_INIT;
        field_places(&places, key, workload_top_fields, "", fields);
        also_place(&also, key, workload_top_fields, "");
        if (fields == workload_top_fields)
            buf_puts(&here, "at the top level");
        else
            buf_printf(&here, "in %.*s", (int)strlen(prefix) - 1, prefix);   /* "model." */
        int rc;
        if (places.len)
            rc = gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field %s; it belongs %s", file,
                              prefix, key, buf_cstr(&here), buf_cstr(&places));
        else if (also.len)
            rc = gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field; gpuwise writes it %s", file,
                              prefix, key, buf_cstr(&also));
        else if (nearest)
            rc = gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field (did you mean %s%s?)",
                              file, prefix, key, prefix, nearest);
        else
            rc = gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field", file, prefix, key);
        buf_free(&here);
        buf_free(&places);
        buf_free(&also);
        return rc;
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
            ;
        if (!workload_field_choice(f, i)) {
            for (i = 0; workload_field_choice(f, i); i++)
                keep_nearest(s, workload_field_choice(f, i), &nearest, &nearest_d);
            return bad_value_suggesting(err, file, name, f, v, nearest);
        }
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

/* Whether v, not a table, is written for f's shorthand field: a text for a text field, a
 * number for a number field. */
static int shorthand_fits(const workload_field *f, const view *v)
{
    const workload_field *sub = f->fields;
    while (sub->name && strcmp(sub->name, f->shorthand))
        sub++;
    return (sub->type == FIELD_TEXT && view_kind(v) == VIEW_STRING) ||
           (sub->type == FIELD_NUMBER && view_kind(v) == VIEW_NUMBER);
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
    if (f->type == FIELD_TABLE && f->shorthand && shorthand_fits(f, v)) {
        /* model = "x" reads as model = { name = "x" }, budget = 5 as budget = { upfront = 5 } */
        view *table = view_map();
        view_map_set(table, f->shorthand, view_copy(v));
        int rc = read_table(file, name, f, table, w, err);
        view_free(table);
        return rc;
    }
    switch (f->type) {
    case FIELD_NUMBER:
        return read_number(file, name, f, v, slot, err);
    case FIELD_TEXT:
        if (f->if_true && view_kind(v) == VIEW_BOOL) {   /* true and false name two choices */
            *(char **)slot = gw_xstrdup(view_bool_value(v) ? f->if_true : f->if_false);
            return GW_OK;
        }
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
    for (size_t i = 0; i < w->n_parts; i++)
        workload_free(w->parts[i]);
    free(w->parts);
    free_fields(workload_top_fields, w);
    free(w->model_id);
    free(w->model_title);
    free(w->model_source);
    free(w);
}

/* ---- rules between the fields this file reads first ---- */

int workload_check_budget(const char *file, workload *w, gw_error *err)
{
    static const char *const bases[] = {"upfront", "total", "monthly"};
    const double amounts[] = {w->budget_upfront, w->budget_total, w->budget_monthly};
    w->budget = NAN;
    w->budget_basis = NULL;
    for (int i = 0; i < 3; i++) {
        if (isnan(amounts[i]))
            continue;
        if (w->budget_basis)
            return gw_error_set(err, GW_EDATA,
                                "%s: budget: give one of upfront, total or monthly, not %s "
                                "and %s",
                                file, w->budget_basis, bases[i]);
        w->budget = amounts[i];
        w->budget_basis = bases[i];
    }
    return GW_OK;
}

int workload_check_need(const char *file, workload *w, gw_error *err)
{
    if (!isnan(w->hours_needed_per_month) && workload_is_job(w))
        return gw_error_set(err, GW_EDATA,
                            "%s: hours_needed_per_month: a job's hours come from its work; "
                            "the field is for capacity (no work = { ... })",
                            file);
    return GW_OK;
}

int workload_check_need_on(const char *file, workload *w, gw_error *err)
{
    if (!w->hours_needed_on)
        return GW_OK;
    if (isnan(w->hours_needed_per_month))
        return gw_error_set(err, GW_EDATA,
                            "%s: hours_needed_on: the card of which need? (give "
                            "hours_needed_per_month, the hours a month measured on it)",
                            file);
    if (!w->catalog)
        return GW_OK;
    char *id = NULL;
    int count = 1;
    int rc = kb_gpu_resolve(w->catalog, w->hours_needed_on, &id, &count, err);
    free(id);
    if (rc == GW_ENOTFOUND) {
        gw_error_prefix(err, "%s: hours_needed_on", file);
        return err->code = GW_EDATA;
    }
    if (rc == GW_OK && count != 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: hours_needed_on: name one card, not %d (the need is in hours "
                            "of one card)",
                            file, count);
    return rc;
}

int workload_has_need(const workload *w)
{
    return !workload_is_job(w) && !isnan(w->hours_needed_per_month);
}

/* Reads and checks the fields of t (prefix names them in messages: "workloads[2]."); catalog
 * (may be NULL) resolves a model named by name. */
static int workload_read_one(const char *file, const char *prefix, const view *t, kb *catalog,
                             workload **out, gw_error *err)
{
    workload *w = gw_xcalloc(1, sizeof *w);
    w->catalog = catalog;
    int rc = read_fields(file, prefix, t, workload_top_fields, w, err);
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

/* The fields every part of mixed work shares: set once, at the top. */
static const char *const shared_fields[] = {"currency", "horizon_months", "candidates", "budget",
                                            "region", NULL};

/* Part i of mixed work as one workload table: the top-level fields (but its name and the
 * list), then the part's own over them; a part that sets a shared field is refused. */
static int part_table(const char *file, const view *top, const view *part, size_t i,
                      view **out, gw_error *err)
{
    *out = NULL;
    if (view_kind(part) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA,
                            "%s: workloads[%zu]: expected a workload table { model = ..., ... }",
                            file, i + 1);
    for (size_t s = 0; shared_fields[s]; s++)
        if (view_map_get(part, shared_fields[s]))
            return gw_error_set(err, GW_EDATA,
                                "%s: workloads[%zu].%s: shared by every workload: set it once, "
                                "at the top level",
                                file, i + 1, shared_fields[s]);
    view *merged = view_map();
    for (size_t k = 0; k < view_len(top); k++) {
        const char *key = view_map_key_at(top, k);
        if (strcmp(key, "workloads") && strcmp(key, "name"))
            view_map_set(merged, key, view_copy(view_map_value_at(top, k)));
    }
    for (size_t k = 0; k < view_len(part); k++)
        view_map_set(merged, view_map_key_at(part, k), view_copy(view_map_value_at(part, k)));
    if (!view_map_get(merged, "name")) {
        view *name = view_stringf("workload %zu", i + 1);
        view_map_set(merged, "name", name);
    }
    *out = merged;
    return GW_OK;
}

/* Mixed work: every part read as a workload of its own; the workload returned holds the
 * first part's fields under the file's name, and the parts. */
static int workload_read_mixed(const char *file, const view *t, const view *parts, kb *catalog,
                               workload **out, gw_error *err)
{
    if (view_kind(parts) != VIEW_LIST || view_len(parts) < 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: workloads: expected a list of workload tables { { model = ..., "
                            "... }, { ... } }",
                            file);
    workload **read = gw_xcalloc(view_len(parts), sizeof *read);
    int rc = GW_OK;
    size_t n = 0;
    for (; rc == GW_OK && n < view_len(parts); n++) {
        view *merged = NULL;
        rc = part_table(file, t, view_list_at(parts, n), n, &merged, err);
        if (rc == GW_OK) {
            gw_buf prefix = GW_BUF_INIT;
            buf_printf(&prefix, "workloads[%zu].", n + 1);
            rc = workload_read_one(file, buf_cstr(&prefix), merged, catalog, &read[n], err);
            buf_free(&prefix);
        }
        view_free(merged);
    }
    workload *w = NULL;
    if (rc == GW_OK) {
        view *first = NULL;
        part_table(file, t, view_list_at(parts, 0), 0, &first, err);
        view_map_set(first, "name", view_map_get(t, "name") ? view_copy(view_map_get(t, "name"))
                                                             : view_null());
        rc = workload_read_one(file, "", first, catalog, &w, err);
        view_free(first);
    }
    if (rc != GW_OK) {
        for (size_t i = 0; i < n; i++)
            workload_free(read[i]);
        free(read);
        return rc;
    }
    w->parts = read;
    w->n_parts = view_len(parts);
    *out = w;
    return GW_OK;
}

/* Reads and checks the fields of t, one workload or mixed work (workloads = { ... }). */
static int workload_read(const char *file, const view *t, kb *catalog, workload **out,
                         gw_error *err)
{
    *out = NULL;
    if (view_kind(t) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA, "%s: a workload file returns a table (return { ... })",
                            file);
    const view *parts = view_map_get(t, "workloads");
    if (parts)
        return workload_read_mixed(file, t, parts, catalog, out, err);
    return workload_read_one(file, "", t, catalog, out, err);
}

int workload_from_view(const char *file, const view *t, workload **out, gw_error *err)
{
    return workload_read(file, t, NULL, out, err);
}

/* Where `name =` is written in text from *at on (a whole word, and an assignment, not `==`):
 * moves *at there and returns 1; 0 when it is not. */
static int find_assignment(const char *text, size_t len, size_t *at, const char *name,
                           size_t name_len)
{
    for (size_t i = *at; i + name_len <= len; i++) {
        if (strncmp(text + i, name, name_len) ||
            (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')))
            continue;
        size_t j = i + name_len;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j < len && text[j] == '=' && (j + 1 >= len || text[j + 1] != '=')) {
            *at = j;
            return 1;
        }
    }
    return 0;
}

/* Where item index (from 1) of the table constructor after the `=` at text[at] begins
 * ({ "a", -- comment\n "b" }): strings, comments and nested tables skipped; at itself when
 * the value is not written as a constructor or has fewer items. */
static size_t list_item(const char *text, size_t len, size_t at, long index)
{
    size_t i = at + 1;
    int depth = 0, in_item = 0;
    long item = 1;
    for (; i < len; i++) {
        char c = text[i];
        if (c == '-' && i + 1 < len && text[i + 1] == '-') {   /* a comment, to its line's end */
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (isspace((unsigned char)c))
            continue;
        if (depth == 0 && c != '{')
            return at;
        if (depth == 1 && !in_item && c != '}' && c != ',' && c != ';') {
            if (item == index)
                return i;
            in_item = 1;
        }
        if (c == '"' || c == '\'') {
            for (i++; i < len && text[i] != c && text[i] != '\n'; i++)
                i += text[i] == '\\';
        } else if (c == '{' || c == '(' || c == '[') {
            depth++;
        } else if (c == '}' || c == ')' || c == ']') {
            if (--depth == 0)
                return at;
        } else if (depth == 1 && (c == ',' || c == ';')) {
            item++;
            in_item = 0;
        }
    }
    return at;
}

/* The line of text on which a field path ("budget.totl", "candidates[2]") is written: each
 * of its names found in turn after the one before, the last one found where a later one is
 * not written (budget = -5 read as budget.upfront), a list's item where the path ends with one;
 * 0 when the first is not found (a computed table). */
static int field_line(const char *text, size_t len, const char *path)
{
    size_t at = 0;
    int found = 0;
    while (*path) {
        size_t name_len = strcspn(path, ".[");
        if (!name_len || !find_assignment(text, len, &at, path, name_len))
            break;
        found = 1;
        path += name_len;
        char *end = NULL;
        long index = *path == '[' ? strtol(path + 1, &end, 10) : 0;
        if (index > 0 && *end == ']' && !end[1])
            at = list_item(text, len, at, index);
        path += strcspn(path, ".");
        if (*path == '.')
            path++;
    }
    if (!found)
        return 0;
    int line = 1;
    for (size_t i = 0; i < at; i++)
        line += text[i] == '\n';
    return line;
}

/* "path: field: problem" becomes "path:LINE: field: problem" where the field's line is found
 * in the file's text. */
static void error_add_line(gw_error *err, const char *path, const char *text, size_t len)
{
    size_t path_len = strlen(path);
    if (strncmp(err->msg, path, path_len) || strncmp(err->msg + path_len, ": ", 2))
        return;
    const char *field = err->msg + path_len + 2;
    size_t field_len = strcspn(field, ": ");
    if (!field_len || field[field_len] != ':')
        return;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)field_len, field);
    int line = field_line(text, len, name);
    if (!line)
        return;
    char rest[sizeof err->msg];
    snprintf(rest, sizeof rest, "%s", field);
    gw_error_set(err, err->code, "%s:%d: %s", path, line, rest);
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
    if (rc != GW_OK) {
        free(text);
        /* A Lua error in a workload file is bad input, not a broken plugin. */
        if (rc == GW_ESOFTWARE)
            err->code = rc = GW_EDATA;
        return rc;
    }
    rc = workload_read(path, table, k, out, err);
    if (rc == GW_EDATA)
        error_add_line(err, path, text, len);
    free(text);
    view_free(table);
    return rc;
}
