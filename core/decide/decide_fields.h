/* decide_fields.h — the fields of a view described once, as a table: the option's (here, in
 * decide_fields.c) and workload.context's (decide_rules.c); the view of one option as --json
 * prints it or as a rule sees it, and the money and figure pairs every view uses. */
#ifndef GW_DECIDE_FIELDS_H
#define GW_DECIDE_FIELDS_H

#include "decide_common.h"

/* The report's body lists this many of the best-ranked feasible options (in_body); the appendix
 * all. */
#define DECIDE_BODY_COST_ROWS 8

typedef enum { DECIDE_VIEW_JSON, DECIDE_VIEW_RULE } decide_audience;
/* The view of one option, as --json prints it or as a rule sees it (from decide_option_fields;
 * caller owns the view); the money and figure pairs ("total" and "total_text") every view uses. */
view *decide_option_view(const decision *d, const decide_option *o, decide_audience who);
void decide_set_money(view *m, const decision *d, const char *key, double amount);
/* The same with a fixed number of decimals (-1: decide_money's, none from 100 up). */
void decide_set_money_fixed(view *m, const decision *d, const char *key, double amount,
                            int decimals);
void decide_set_figure(view *m, const char *key, double n, int decimals, const char *suffix);

/* The fields of a view described once: the option (decide_fields.c) and workload.context
 * (decide_rules.c) are each a table of these, and their views, the rule contract in
 * plugins/README.md and its test derive from the table. */
typedef enum {
    DECIDE_FIELD_STRING,
    DECIDE_FIELD_INTEGER,
    DECIDE_FIELD_BOOLEAN,
    DECIDE_FIELD_NUMBER,
    DECIDE_FIELD_FIGURE,          /* a number and NAME_text: decimals and suffix */
    DECIDE_FIELD_MONEY,           /* a number and NAME_text in the workload's currency */
    DECIDE_FIELD_MONEY_PER_UNIT,  /* the same, with three decimals under one unit */
    DECIDE_FIELD_LIST             /* built by the getter */
} decide_field_kind;

/* What a rule sees of a field. */
typedef enum {
    DECIDE_RULE_HIDDEN,           /* nothing: the report's explanations, the ranking */
    DECIDE_RULE_VALUE,            /* the value alone (for a figure: the number, no _text) */
    DECIDE_RULE_TEXT              /* the value and its NAME_text, as --json has them (but for
                                   * the rental wording: a rule sees "CNY 0.00", not "none") */
} decide_rule_sight;

/* What a getter gives: a number (integers and booleans too), a string, or a list. */
typedef struct decide_field_value {
    double number;
    const char *text;
    gw_buf owned;                 /* when the getter formatted the string */
    view *list;
} decide_field_value;

typedef void (*decide_field_get)(const decision *d, const void *record, decide_field_value *v);

#define DECIDE_FIELD_DECIMALS_BY_UNIT (-1)   /* 0 in a benchmark's units, 2 relative to a card */
#define DECIDE_FIELD_NO_OFFSET ((size_t)-1)

typedef struct decide_field {
    const char *group;            /* NULL, or the map it sits in ("cost") */
    const char *name;
    decide_field_kind kind;
    size_t offset;                /* of the value in the record; DECIDE_FIELD_NO_OFFSET: get */
    decide_field_get get;
    int decimals;                 /* FIGURE; MONEY: fixed decimals where > 0 */
    const char *suffix;           /* FIGURE: " GB" */
    decide_rule_sight rule;
    unsigned flags;
    const char *rent_text;        /* MONEY in --json: the text for a rental ("none") */
} decide_field;

enum {
    DECIDE_FIELD_BUY_ONLY = 1,    /* left out for rentals */
    DECIDE_FIELD_OMIT_NAN = 2     /* left out when the number is NaN */
};

/* The option's fields (workload.context's are decide_rules.h's). */
extern const decide_field decide_option_fields[];
extern const size_t decide_option_field_count;

/* Writes the fields of record into map, as --json has them or as a rule sees them.  map holds
 * none of their keys yet: each is appended without a look-up (view_map_add; a table's names
 * are unique within a group, and so are their "_text" pairs: test_decide checks the tables). */
void decide_fields_write(view *map, const decide_field *fields, size_t n, const decision *d,
                         const void *record, int is_rent, decide_audience who);

#endif
