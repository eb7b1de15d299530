/* workload_private.h — the one description of a workload's fields, shared by the files that
 * read a workload (workload.c), hold its field tables (workload_fields.c), check the rules that
 * relate fields (workload_rules.c) and show it (workload_view.c).  Not for use outside model/. */
#ifndef GW_WORKLOAD_PRIVATE_H
#define GW_WORKLOAD_PRIVATE_H

#include <stddef.h>

#include "base/buf.h"
#include "workload.h"

typedef enum {
    FIELD_NUMBER,   /* a finite number within lo and hi: a double */
    FIELD_TEXT,     /* a non-empty text, one of its choices when it has any: a char * */
    FIELD_CURRENCY, /* an ISO 4217 code: a char[4] */
    FIELD_BOOL,     /* true or false: an int */
    FIELD_NAMES,    /* a non-empty list of non-empty texts: a char ** and its count */
    FIELD_TABLE,    /* a table with fields of its own; Lua's {} counts as absent */
    FIELD_FILE,     /* not written in the file: the path it was read from, shown in the view */
} field_type;

/* A rule between fields, run once the later of them has been read. */
typedef int (*field_rule)(const char *file, workload *w, gw_error *err);

typedef struct workload_field workload_field;
struct workload_field {
    const char *name;
    field_type type;
    size_t at;                  /* offsetof the value in struct workload */
    size_t count_at;            /* FIELD_NAMES: offsetof the count */
    int required;
    double lo, hi;              /* FIELD_NUMBER: the allowed range, hi included */
    int lo_excluded;            /* FIELD_NUMBER: lo itself is out (a value must be above it) */
    int whole;                  /* FIELD_NUMBER: a count, a whole number */
    const char *const *choices; /* FIELD_TEXT: the allowed values; NULL allows any text */
    const char *(*choice_at)(size_t i);   /* ... or the i-th of a table's (precision.h) */
    const char *if_true, *if_false;   /* FIELD_TEXT: the choices true and false stand for, from
                                       * when the field was a boolean; NULL: a text only */
    const char *fallback;       /* the value when absent, as the file would write it; NULL: none */
    const char *unit;           /* NULL: none (a ratio, a name) */
    const char *expected;       /* a good value, as messages put it (numbers, choices and bools:
                                 * derived) */
    const char *note;           /* FIELD_NUMBER: what the range does not say ("e.g. 25.6e6") */
    const char *expected_item;  /* FIELD_NAMES: a good entry */
    const char *missing;        /* the hint of a "missing" message, when not "expected ..." */
    const char *help;
    const char *const *also;    /* what other tools call this field (vLLM's, Hugging Face's,
                                 * DeepSpeed's names), ending with NULL: a key among them is
                                 * pointed here, never read as it */
    const char *const *tasks;   /* the tasks it concerns, ending with NULL; NULL: every task (a
                                 * table's fields concern its tasks) */
    const workload_field *fields;   /* FIELD_TABLE: its fields, ending with a NULL name */
    const char *shorthand;      /* FIELD_TABLE: the field a plain text stands for
                                 * (model = "llama-3-8b" is model = { name = "llama-3-8b" }) */
    field_rule then;
};

/* The fields of a workload file, in the order they are read, ending with a NULL name. */
extern const workload_field workload_top_fields[];
/* The field a dotted path names ("work.hours"); NULL for none. */
const workload_field *workload_field_find(const char *path);
/* The i-th value f allows, NULL past the last or when f allows any text. */
const char *workload_field_choice(const workload_field *f, size_t i);
/* The range of a number field, from its bounds: "more than 0 and at most 24". */
void workload_describe_range(gw_buf *b, const workload_field *f);
/* Where n is outside f's range, writes which bound it breaks and the range ("0 is not above 0
 * (expected more than 0 and at most 24)") and returns 1; else 0. */
int workload_describe_out_of_range(gw_buf *b, const workload_field *f, double n);
/* What a good value of f is, as messages and the field list put it: a number's range and unit
 * from its bounds, a choice's values, a boolean's two. */
void workload_describe_expected(gw_buf *b, const workload_field *f);
/* GW_EDATA: "file: name: missing (expected ...)". */
int workload_missing(gw_error *err, const char *file, const char *name, const workload_field *f);

/* The rules hung on fields (workload_rules.c), run once the field is read. */
int workload_name_default_to_file(const char *file, workload *w, gw_error *err);
int workload_check_model_given(const char *file, workload *w, gw_error *err);
int workload_check_work(const char *file, workload *w, gw_error *err);
int workload_check_deadline(const char *file, workload *w, gw_error *err);
int workload_check_finetune(const char *file, workload *w, gw_error *err);
int workload_check_language_model(const char *file, workload *w, gw_error *err);
int workload_check_precision(const char *file, workload *w, gw_error *err);
int workload_resolve_model(const char *file, workload *w, gw_error *err);
/* budget: one of upfront, total or monthly, kept as w->budget and w->budget_basis. */
int workload_check_budget(const char *file, workload *w, gw_error *err);
/* hours_needed_per_month: capacity only. */
int workload_check_need(const char *file, workload *w, gw_error *err);
/* hours_needed_on: only with hours_needed_per_month; one card of the catalog (when there is
 * one), else GW_EDATA. */
int workload_check_need_on(const char *file, workload *w, gw_error *err);
/* candidates: each names a GPU of the catalog (when there is one), else GW_EDATA. */
int workload_check_candidates(const char *file, workload *w, gw_error *err);
/* What only the whole architecture can check, once every field is read. */
int workload_check_architecture(const char *file, workload *w, gw_error *err);

#endif
