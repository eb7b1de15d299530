/* mustache_parse.c — the Mustache parser: template text into the node tree mustache.c renders,
 * with the spec's standalone-line rules and set delimiters applied as it goes, and every error
 * naming the template, line and column. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mustache_parse.h"
#include "base/buf.h"

#define MAX_DELIM 15

/* ---------------------------------------------------------------- nodes */

static node *node_new(node_kind kind, const char *text, size_t len, int line, int col)
{
    node *n = gw_xcalloc(1, sizeof *n);
    n->kind = kind;
    n->text = gw_xstrndup(text ? text : "", text ? len : 0);
    n->len = text ? len : 0;
    n->line = line;
    n->col = col;
    return n;
}

static void node_add(node *parent, node *kid)
{
    if (parent->n_kids == parent->cap_kids) {
        parent->cap_kids = parent->cap_kids ? parent->cap_kids * 2 : 8;
        parent->kids = gw_xrealloc(parent->kids, parent->cap_kids * sizeof *parent->kids);
    }
    parent->kids[parent->n_kids++] = kid;
}

void mustache_node_free(node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_kids; i++)
        mustache_node_free(n->kids[i]);
    free(n->kids);
    free(n->text);
    free(n->indent);
    free(n);
}

/* ---------------------------------------------------------------- parser */

typedef struct parser {
    const char *name;
    const char *src;
    size_t len;
    char otag[MAX_DELIM + 1], ctag[MAX_DELIM + 1];
    size_t olen, clen;
    node *stack[256];     /* open sections; stack[0] is the root */
    size_t open_at[256];  /* where each open section's tag is */
    int open_standalone[256];
    int depth;
    /* The standalone line being read, while inside one (line_end 0 otherwise); line_start
     * stays until the next such line, for the indentation of its tags. */
    size_t line_start, line_end;
    size_t seen_at;       /* position() resumes from here: tags come in order */
    int seen_line, seen_col;
    gw_error *err;
} parser;

static void position(parser *p, size_t at, int *line, int *col)
{
    int l = 1, c = 1;
    size_t i = 0;
    if (p->seen_line && at >= p->seen_at) {
        i = p->seen_at;
        l = p->seen_line;
        c = p->seen_col;
    }
    size_t end = at < p->len ? at : p->len;
    for (const char *nl; i < end && (nl = memchr(p->src + i, '\n', end - i)); l++, c = 1)
        i = (size_t)(nl - p->src) + 1;
    if (i < end) {
        c += (int)(end - i);
        i = end;
    }
    p->seen_at = i;
    p->seen_line = l;
    p->seen_col = c;
    *line = l;
    *col = c;
}

static int parse_error(parser *p, size_t at, const char *fmt, const char *arg)
{
    int line, col;
    char what[512];
    position(p, at, &line, &col);
    snprintf(what, sizeof what, fmt, arg);
    return gw_error_set(p->err, GW_EDATA, "%s:%d:%d: %s", p->name, line, col, what);
}

static const char *find(const parser *p, size_t from, const char *needle, size_t n)
{
    if (n == 0 || from > p->len)
        return NULL;
    const char *at = p->src + from, *end = p->src + p->len;
    for (; end - at >= (ptrdiff_t)n && (at = memchr(at, needle[0], (size_t)(end - at) - n + 1));
         at++)
        if (memcmp(at, needle, n) == 0)
            return at;
    return NULL;
}


typedef struct tag {
    char type;           /* 0 for a variable, else one of { & ! = # ^ / > < $ */
    size_t name_at, name_len;
    size_t end;          /* first byte after the closing delimiter */
} tag;

/* Reads the tag whose opening delimiter starts at `at` with the current delimiters. */
static int read_tag(parser *p, size_t at, tag *t)
{
    size_t i = at + p->olen;
    t->type = 0;
    if (i < p->len && strchr("{&!=#^/><$", p->src[i]) && p->src[i])
        t->type = p->src[i++];
    const char *close;
    size_t close_len = p->clen;
    if (t->type == '{' || t->type == '=') {
        char want[MAX_DELIM + 2];
        want[0] = t->type == '{' ? '}' : '=';
        memcpy(want + 1, p->ctag, p->clen + 1);
        close = find(p, i, want, p->clen + 1);
        close_len = p->clen + 1;
    } else {
        close = find(p, i, p->ctag, p->clen);
    }
    if (!close)
        return parse_error(p, at, "unclosed tag (no '%s')", p->ctag);
    size_t a = i, b = (size_t)(close - p->src);
    while (a < b && (is_blank(p->src[a]) || p->src[a] == '\n' || p->src[a] == '\r'))
        a++;
    while (b > a && (is_blank(p->src[b - 1]) || p->src[b - 1] == '\n' || p->src[b - 1] == '\r'))
        b--;
    t->name_at = a;
    t->name_len = b - a;
    t->end = (size_t)(close - p->src) + close_len;
    if (t->type != '!' && t->type != '=' && t->name_len == 0)
        return parse_error(p, at, "empty tag%s", "");
    return GW_OK;
}

/* Decides whether the tag at `at` begins a standalone line: only blanks before it on its line,
 * and after it only more non-interpolating tags and blanks up to the end of the line.  The spec
 * allows one tag per standalone line; the inheritance module also lets a line of parent and
 * block tags ("{{<parent}}{{$block}}") stand alone.  Sets *line_start and *line_end (after the
 * newline, or the end of the text). */
static int standalone_line(parser *p, size_t at, size_t *line_start, size_t *line_end)
{
    size_t ls = at;
    while (ls > 0 && p->src[ls - 1] != '\n')
        ls--;
    for (size_t i = ls; i < at; i++)
        if (!is_blank(p->src[i]))
            return 0;
    size_t i = at;
    int count = 0, inherit = 0;
    char opens[64];       /* sections opened on this line, innermost last */
    int n_opens = 0;
    int depth = p->depth; /* sections open before the line that its close tags end */
    for (;;) {
        tag t;
        gw_error scratch = {0};
        gw_error *keep = p->err;
        p->err = &scratch;   /* a broken tag is reported by the main loop, not here */
        int rc = read_tag(p, i, &t);
        p->err = keep;
        if (rc != GW_OK || t.type == 0 || t.type == '{' || t.type == '&')
            return 0;
        count++;
        if (t.type == '<' || t.type == '$')
            inherit = 1;
        if (strchr("#^<$", t.type)) {
            if (n_opens == (int)sizeof opens)
                return 0;
            opens[n_opens++] = t.type;
        } else if (t.type == '/') {
            char closes = 0;
            if (n_opens > 0)
                closes = opens[--n_opens];
            else if (depth > 0) {
                node_kind k = p->stack[depth--]->kind;
                closes = k == N_PARENT ? '<' : k == N_BLOCK ? '$' : '#';
            }
            if (closes == '<' || closes == '$')
                inherit = 1;
        }
        i = t.end;
        while (i < p->len && is_blank(p->src[i]))
            i++;
        if (i >= p->len || p->src[i] == '\n' || (p->src[i] == '\r' && i + 1 < p->len &&
                                                 p->src[i + 1] == '\n'))
            break;
        if (t.type == '=' || i + p->olen > p->len || memcmp(p->src + i, p->otag, p->olen) != 0)
            return 0;
    }
    if (count > 1 && !inherit)
        return 0;
    if (i < p->len && p->src[i] == '\r')
        i++;
    if (i < p->len)
        i++;
    *line_start = ls;
    *line_end = i;
    return 1;
}

static int set_delimiters(parser *p, size_t at, const tag *t)
{
    const char *s = p->src + t->name_at;
    size_t n = t->name_len, i = 0;
    size_t a0 = i;
    while (i < n && !is_blank(s[i]))
        i++;
    size_t a1 = i;
    while (i < n && is_blank(s[i]))
        i++;
    size_t b0 = i;
    while (i < n && !is_blank(s[i]))
        i++;
    size_t b1 = i;
    if (a1 == a0 || b1 == b0 || i != n || a1 - a0 > MAX_DELIM || b1 - b0 > MAX_DELIM ||
        memchr(s + a0, '=', a1 - a0) || memchr(s + b0, '=', b1 - b0))
        return parse_error(p, at, "bad set-delimiter tag%s (want, e.g., {{=<%% %%>=}})", "");
    memcpy(p->otag, s + a0, a1 - a0);
    p->otag[a1 - a0] = '\0';
    p->olen = a1 - a0;
    memcpy(p->ctag, s + b0, b1 - b0);
    p->ctag[b1 - b0] = '\0';
    p->clen = b1 - b0;
    return GW_OK;
}

/* The indentation a standalone block's content gets where it is expanded: that of its default
 * content's first line, else that of the tag's own line. */
static void block_indent(node *block)
{
    if (block->n_kids > 0 && block->kids[0]->kind == N_TEXT) {
        const char *t = block->kids[0]->text;
        size_t n = 0;
        while (is_blank(t[n]))
            n++;
        if (n > 0 && t[n] != '\n') {
            free(block->indent);
            block->indent = gw_xstrndup(t, n);
        }
    }
}

/* Where the text before the tag at `at` ends (*text_end) and where the text after it resumes
 * (*after): a tag on a standalone line takes the line's indentation and line break with it.
 * text_at is where the text not yet added begins.  Returns whether the tag is standalone. */
static int tag_span(parser *p, size_t at, const tag *t, size_t text_at, size_t *text_end,
                    size_t *after)
{
    size_t line_start, line_end;
    int standalone = 0;
    *text_end = at;
    *after = t->end;
    if (p->line_end && at < p->line_end) {
        standalone = 1;          /* a later tag on a standalone line already seen */
        *text_end = text_at;     /* only blanks between the tags */
    } else if (t->type && t->type != '{' && t->type != '&' &&
               standalone_line(p, at, &line_start, &line_end)) {
        standalone = 1;
        p->line_start = line_start;
        p->line_end = line_end;
        *text_end = line_start;
    } else {
        p->line_end = 0;
    }
    if (standalone) {
        size_t k = t->end;
        while (k < p->len && is_blank(p->src[k]))
            k++;
        if (k >= p->line_end || p->src[k] == '\n' || p->src[k] == '\r')
            *after = p->line_end;   /* the last tag of the line takes the line break */
    }
    return standalone;
}

/* The template text [from, to) as a text node of the open section (nothing when empty). */
static void text_add(parser *p, size_t from, size_t to)
{
    if (to > from)
        node_add(p->stack[p->depth], node_new(N_TEXT, p->src + from, to - from, 0, 0));
}

/* A node named by the tag at `at`, with the tag's line and column. */
static node *tag_node(parser *p, node_kind kind, size_t at, const tag *t)
{
    int line, col;
    position(p, at, &line, &col);
    return node_new(kind, p->src + t->name_at, t->name_len, line, col);
}

/* The leading whitespace of a standalone tag's line ("" for a tag that is not standalone): a
 * partial or parent indents what it expands to by it. */
static char *tag_indent(const parser *p, size_t at, int standalone)
{
    const char *ws = p->src + p->line_start;
    size_t n = 0;
    if (standalone)
        while (p->line_start + n < at && is_blank(ws[n]))
            n++;
    return gw_xstrndup(ws, n);
}

/* {{#name}}, {{^name}}, {{<name}} or {{$name}}: a node that holds what follows until its
 * closing tag. */
static int section_open(parser *p, size_t at, const tag *t, int standalone)
{
    if (p->depth + 1 >= (int)(sizeof p->stack / sizeof p->stack[0]))
        return parse_error(p, at, "sections nested too deep%s", "");
    node_kind kind = t->type == '#'   ? N_SECTION
                     : t->type == '^' ? N_INVERTED
                     : t->type == '<' ? N_PARENT
                                      : N_BLOCK;
    node *n = tag_node(p, kind, at, t);
    n->standalone = standalone;
    if (kind == N_PARENT || kind == N_BLOCK)
        n->indent = tag_indent(p, at, standalone);
    node_add(p->stack[p->depth], n);
    p->stack[++p->depth] = n;
    p->open_at[p->depth] = at;
    p->open_standalone[p->depth] = standalone;
    return GW_OK;
}

/* {{/name}}: closes the innermost open section, which must have that name.  Error messages
 * quote at most 200 bytes of a name. */
static int section_close(parser *p, size_t at, const tag *t)
{
    const char *nm = p->src + t->name_at;
    size_t nl = t->name_len;
    int quoted = (int)(nl > 200 ? 200 : nl);
    if (p->depth == 0) {
        char what[300];
        snprintf(what, sizeof what, "%.*s", quoted, nm);
        return parse_error(p, at, "closing tag '%s' closes nothing", what);
    }
    node *open = p->stack[p->depth];
    if (open->len != nl || memcmp(open->text, nm, nl) != 0) {
        char what[600];
        int ol, oc;
        position(p, p->open_at[p->depth], &ol, &oc);
        snprintf(what, sizeof what, "closing tag '%.*s' does not match '%.200s' opened at %d:%d",
                 quoted, nm, open->text, ol, oc);
        return parse_error(p, at, "%s", what);
    }
    if (open->kind == N_BLOCK && p->open_standalone[p->depth])
        block_indent(open);
    p->depth--;
    return GW_OK;
}

/* Adds what the tag at `at` stands for to the open section: a variable, a partial, a section
 * opened or closed; new delimiters change how the rest is read; a comment adds nothing. */
static int tag_parse(parser *p, size_t at, const tag *t, int standalone)
{
    node *n;
    switch (t->type) {
    case '!':
        return GW_OK;
    case '=':
        return set_delimiters(p, at, t);
    case 0:
        node_add(p->stack[p->depth], tag_node(p, N_VAR, at, t));
        return GW_OK;
    case '{':
    case '&':
        node_add(p->stack[p->depth], tag_node(p, N_RAW, at, t));
        return GW_OK;
    case '>':
        n = tag_node(p, N_PARTIAL, at, t);
        n->standalone = standalone;
        n->indent = tag_indent(p, at, standalone);
        node_add(p->stack[p->depth], n);
        return GW_OK;
    case '/':
        return section_close(p, at, t);
    default:   /* # ^ < $ */
        return section_open(p, at, t, standalone);
    }
}

int mustache_parse(const char *name, const char *src, size_t len, node **out, gw_error *err)
{
    parser p = {.name = name, .src = src, .len = len, .otag = "{{", .ctag = "}}", .olen = 2,
                .clen = 2, .err = err};
    node *root = node_new(N_ROOT, name, strlen(name), 1, 1);
    p.stack[0] = root;
    size_t pos = 0;   /* the text not yet added begins here */
    int rc = GW_OK;
    for (;;) {
        const char *hit = find(&p, pos, p.otag, p.olen);
        if (!hit) {
            text_add(&p, pos, len);
            break;
        }
        size_t at = (size_t)(hit - src), text_end, after;
        tag t;
        if ((rc = read_tag(&p, at, &t)) != GW_OK)
            break;
        int standalone = tag_span(&p, at, &t, pos, &text_end, &after);
        text_add(&p, pos, text_end);
        if ((rc = tag_parse(&p, at, &t, standalone)) != GW_OK)
            break;
        pos = after;
        if (p.line_end && after >= p.line_end)
            p.line_end = 0;
    }
    if (rc == GW_OK && p.depth > 0)
        rc = parse_error(&p, p.open_at[p.depth], "unclosed section '%s'", p.stack[p.depth]->text);
    if (rc != GW_OK) {
        mustache_node_free(root);
        root = NULL;
    }
    *out = root;
    return rc;
}
