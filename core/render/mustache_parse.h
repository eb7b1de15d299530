/* mustache_parse.h — a parsed Mustache template as mustache.c renders it: the node tree that
 * mustache_parse.c makes.  Only the two mustache files include it. */
#ifndef GW_MUSTACHE_PARSE_H
#define GW_MUSTACHE_PARSE_H

#include <stddef.h>

#include "base/error.h"

typedef enum {
    N_ROOT, N_TEXT, N_VAR, N_RAW, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK
} node_kind;

typedef struct node node;
struct node {
    node_kind kind;
    char *text;          /* N_TEXT: the text; tags: the name */
    size_t len;
    char *indent;        /* standalone partial/parent: its line's leading whitespace;
                          * standalone block: the indentation its content gets */
    int standalone;      /* the tag stood alone on its line */
    int line, col;
    node **kids;
    size_t n_kids, cap_kids;
};

/* The template text (len bytes; name is for messages) as a node tree (*out, freed with
 * mustache_node_free), or GW_EDATA naming the template, line and column. */
int mustache_parse(const char *name, const char *src, size_t len, node **out, gw_error *err);
void mustache_node_free(node *n);

/* Blanks, as the spec's standalone lines and indentation count them. */
static inline int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

#endif
