/* mustache.c — Mustache templates over the view tree: a parser that turns template text into a
 * node tree (applying the spec's standalone-line rules and set delimiters as it goes), and a
 * renderer that walks it against a context stack.  Partials and parents are parsed on first use
 * and cached for one render.  Indentation of standalone partials is applied while rendering, to
 * template text only, never inside interpolated values. */
#include "mustache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DELIM 15
#define MAX_NESTING 100   /* partials, parents and blocks inside each other */
/* A template that recurses through partials can ask for exponential work; this and the output
 * cap (mustache_opts.max_output, counting every byte the render holds at once: the output, and
 * a block's content while it is re-indented) stop it with an error instead of a hang or an
 * exhausted memory. */
#define MAX_STEPS 20000000L

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

/* ---------------------------------------------------------------- escaping */

void mustache_escape_html(gw_buf *out, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const char *ent = NULL;
        switch (s[i]) {
        case '&': ent = "&amp;"; break;
        case '<': ent = "&lt;"; break;
        case '>': ent = "&gt;"; break;
        case '"': ent = "&quot;"; break;
        case '\'': ent = "&#39;"; break;
        default: continue;
        }
        buf_append(out, s + run, i - run);
        buf_puts(out, ent);
        run = i + 1;
    }
    buf_append(out, s + run, n - run);
}

/* Whether text appended to out now begins a block: the line so far holds only indentation and
 * list or block quote markers ("- ", "1. ", "> "), where "#", "-", "1." and the like start
 * syntax of their own. */
static int at_block_start(const gw_buf *out)
{
    for (size_t i = out->len; i > 0; i--) {
        char c = out->data[i - 1];
        if (c == '\n')
            return 1;
        if (!c || !strchr(" \t>*+-.)0123456789", c))
            return 0;
    }
    return 1;
}

/* A value is one line of inline text that Markdown (CommonMark + GFM) must not read as syntax:
 * the characters that are syntax anywhere in a line (\ ` * _ [ ] | ~) are backslash-escaped,
 * < > & become entities so no raw HTML or entity reaches cmark, and line breaks become spaces.
 * Where the value begins a block, its first character is escaped too when it would start a
 * heading, list, setext underline or indented code ("# x", "- x", "1. x", "=", spaces).  Other
 * punctuation stays as it is: cmark makes a node of every escape, and an escaped "." or "-" in
 * each number and name made rendering a report a fifth slower. */
void mustache_escape_markdown(gw_buf *out, const char *s, size_t n)
{
    static const char special[] = "\\`*_[]|~";
    static unsigned char plain[256];   /* 1: the character stands for itself */
    if (!plain['a']) {
        for (int c = 0x20; c < 0x7f; c++)
            plain[c] = !strchr(special, c) && c != '<' && c != '>' && c != '&';
        for (int c = 0x80; c < 256; c++)
            plain[c] = 1;
    }
    size_t i = 0;
    if (n && at_block_start(out)) {
        unsigned char c = (unsigned char)s[0];
        size_t digits = 0;
        while (digits < n && digits < 10 && s[digits] >= '0' && s[digits] <= '9')
            digits++;
        if (c == '#' || c == '+' || c == '-' || c == '=') {
            buf_putc(out, '\\');
            buf_putc(out, (char)c);
            i = 1;
        } else if (c == ' ' || c == '\t') {
            buf_puts(out, "&#32;");
            i = 1;
        } else if (digits && digits < n && (s[digits] == '.' || s[digits] == ')')) {
            buf_append(out, s, digits);
            buf_putc(out, '\\');
            buf_putc(out, s[digits]);
            i = digits + 1;
        }
    }
    for (; i < n; i++) {
        size_t run = i;
        while (run < n && plain[(unsigned char)s[run]])
            run++;
        if (run > i) {
            buf_append(out, s + i, run - i);
            if (run == n)
                break;
            i = run;
        }
        unsigned char c = (unsigned char)s[i];
        if (c == '<')
            buf_puts(out, "&lt;");
        else if (c == '>')
            buf_puts(out, "&gt;");
        else if (c == '&')
            buf_puts(out, "&amp;");
        else if (c == '\r' && i + 1 < n && s[i + 1] == '\n')
            continue;
        else if (c < 0x20 || c == 0x7f)
            buf_putc(out, ' ');   /* line breaks and other controls: one line of text */
        else if (c && strchr(special, c)) {
            buf_putc(out, '\\');
            buf_putc(out, (char)c);
        } else
            buf_putc(out, (char)c);
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

mustache_escape mustache_escape_for(const char *filename)
{
    if (ends_with(filename, ".html.mustache") || ends_with(filename, ".html") ||
        ends_with(filename, ".htm.mustache"))
        return MUSTACHE_ESCAPE_HTML;
    if (ends_with(filename, ".md.mustache") || ends_with(filename, ".md"))
        return MUSTACHE_ESCAPE_MARKDOWN;
    return MUSTACHE_ESCAPE_NONE;
}

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

static void node_free(node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_kids; i++)
        node_free(n->kids[i]);
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
    for (; i < at && i < p->len; i++) {
        if (p->src[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
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
    for (size_t i = from; i + n <= p->len; i++)
        if (p->src[i] == needle[0] && memcmp(p->src + i, needle, n) == 0)
            return p->src + i;
    return NULL;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

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

/* The template as a node tree (*out, freed with node_free), or a GW_EDATA naming the template,
 * line and column. */
static int parse(const char *name, const char *src, size_t len, node **out, gw_error *err)
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
        node_free(root);
        root = NULL;
    }
    *out = root;
    return rc;
}

/* ---------------------------------------------------------------- renderer */

typedef struct cached {
    char *name;
    node *root;          /* NULL: the partial does not exist */
} cached;

typedef struct renderer {
    const mustache_opts *opts;
    gw_buf *out;
    gw_error *err;
    const view **ctx;    /* the context stack; ctx[0] is the data */
    size_t n_ctx, cap_ctx;
    const node **frames; /* parents being expanded, outermost first: their blocks override */
    size_t n_frames, cap_frames;
    cached *cache;
    size_t n_cache, cap_cache;
    gw_buf indent;       /* prepended to each line of template text */
    int line_start;      /* the next template text starts a line */
    int nesting;
    long steps;
    size_t held;         /* bytes this render holds in out and in blocks' buffers */
    size_t max_output;   /* the cap on held */
    int over;            /* an append would have passed the cap: nothing more is written */
    const char *tmpl_name;   /* template being rendered, for error messages */
} renderer;

static void push_ctx(renderer *r, const view *v)
{
    if (r->n_ctx == r->cap_ctx) {
        r->cap_ctx = r->cap_ctx ? r->cap_ctx * 2 : 16;
        r->ctx = gw_xrealloc(r->ctx, r->cap_ctx * sizeof *r->ctx);
    }
    r->ctx[r->n_ctx++] = v;
}

/* Appends to b within the output cap; past it, appends nothing and marks the render over. */
static void put(renderer *r, gw_buf *b, const char *s, size_t n)
{
    if (r->over || n > r->max_output - r->held) {
        r->over = 1;
        return;
    }
    buf_append(b, s, n);
    r->held += n;
}

/* Counts what was appended to b since it held len0 bytes; past the cap, takes it back. */
static void account(renderer *r, gw_buf *b, size_t len0)
{
    size_t added = b->len - len0;
    if (r->over || added > r->max_output - r->held) {
        r->over = 1;
        b->len = len0;
        if (b->data)
            b->data[len0] = '\0';
        return;
    }
    r->held += added;
}

static void emit_pending_indent(renderer *r)
{
    if (r->line_start && r->indent.len)
        put(r, r->out, r->indent.data, r->indent.len);
    r->line_start = 0;
}

static void emit_text(renderer *r, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n && !r->over; i++) {
        if (r->line_start && r->indent.len) {
            put(r, r->out, s + run, i - run);
            run = i;
            put(r, r->out, r->indent.data, r->indent.len);
        }
        r->line_start = s[i] == '\n';
    }
    put(r, r->out, s + run, n - run);
}

/* Resolves a (dotted) name: the first part up the context stack, the rest inside what it
 * found, so a broken chain gives nothing rather than a value from further out. */
static const view *lookup(const renderer *r, const char *name, size_t len)
{
    if (len == 1 && name[0] == '.')
        return r->n_ctx ? r->ctx[r->n_ctx - 1] : NULL;
    const char *dot = memchr(name, '.', len);
    size_t first = dot ? (size_t)(dot - name) : len;
    char key[512];
    if (first >= sizeof key)
        return NULL;
    memcpy(key, name, first);
    key[first] = '\0';
    const view *v = NULL;
    for (size_t i = r->n_ctx; i-- > 0;) {
        if (view_kind(r->ctx[i]) == VIEW_MAP && (v = view_map_get(r->ctx[i], key)) != NULL)
            break;
    }
    const char *rest = dot ? dot + 1 : NULL;
    const char *end = name + len;
    while (v && rest && rest < end) {
        const char *next = memchr(rest, '.', (size_t)(end - rest));
        size_t n = next ? (size_t)(next - rest) : (size_t)(end - rest);
        if (n >= sizeof key || view_kind(v) != VIEW_MAP)
            return NULL;
        memcpy(key, rest, n);
        key[n] = '\0';
        v = view_map_get(v, key);
        rest = next ? next + 1 : NULL;
    }
    return v;
}

static void format_value(gw_buf *out, const view *v)
{
    switch (view_kind(v)) {
    case VIEW_STRING:
        buf_append(out, view_str(v), view_str_len(v));
        break;
    case VIEW_NUMBER: {
        double d = view_num(v);
        char tmp[64];
        if (!isfinite(d))
            break;
        if (d == floor(d) && fabs(d) < 1e15) {
            /* what "%.0f" prints, without printf's cost */
            size_t i = sizeof tmp - 1;
            unsigned long long u = (unsigned long long)fabs(d);
            tmp[i] = '\0';
            do
                tmp[--i] = (char)('0' + u % 10);
            while ((u /= 10) != 0);
            if (signbit(d))
                tmp[--i] = '-';
            buf_puts(out, tmp + i);
            break;
        } else {
            snprintf(tmp, sizeof tmp, "%.15g", d);
            if (strtod(tmp, NULL) != d)
                snprintf(tmp, sizeof tmp, "%.17g", d);
        }
        buf_puts(out, tmp);
        break;
    }
    case VIEW_BOOL:
        buf_puts(out, view_bool_value(v) ? "true" : "false");
        break;
    default:
        break;
    }
}

static void emit_value(renderer *r, const view *v, int escape)
{
    gw_buf raw = GW_BUF_INIT;
    const char *text = view_str(v);   /* a string is escaped where it lies, not copied first */
    size_t len = view_str_len(v);
    if (!text) {
        format_value(&raw, v);
        text = buf_cstr(&raw);
        len = raw.len;
    }
    emit_pending_indent(r);
    /* escaping never shortens a value: one longer than the room left is refused unwritten;
     * otherwise the cap holds to within one value's escaped length */
    size_t len0 = r->out->len;
    if (r->over || len > r->max_output - r->held)
        r->over = 1;
    else if (!escape || r->opts->escape == MUSTACHE_ESCAPE_NONE)
        put(r, r->out, text, len);
    else if (r->opts->escape == MUSTACHE_ESCAPE_HTML)
        mustache_escape_html(r->out, text, len), account(r, r->out, len0);
    else
        mustache_escape_markdown(r->out, text, len), account(r, r->out, len0);
    buf_free(&raw);
}

static int render_nodes(renderer *r, const node *parent);

static int render_error(renderer *r, const node *n, const char *what)
{
    return gw_error_set(r->err, GW_EDATA, "%s:%d:%d: %s", r->tmpl_name, n->line, n->col, what);
}

static int output_error(renderer *r, const node *n)
{
    char what[160];
    int mib = r->max_output >= ((size_t)1 << 20);
    snprintf(what, sizeof what, "the template asks for more than %zu %s of output (a list or "
             "partials that multiply it?)", mib ? r->max_output >> 20 : r->max_output,
             mib ? "MiB" : "bytes");
    return render_error(r, n, what);
}

/* Finds (parsing on first use) the partial `name`; *root is NULL when there is none. */
static int load_partial(renderer *r, const node *n, node **root)
{
    for (size_t i = 0; i < r->n_cache; i++)
        if (strcmp(r->cache[i].name, n->text) == 0) {
            *root = r->cache[i].root;
            return GW_OK;
        }
    char *text = NULL;
    size_t len = 0;
    int rc = GW_OK;
    *root = NULL;
    if (r->opts->load_partial &&
        (rc = r->opts->load_partial(r->opts->loader_data, n->text, &text, &len, r->err)) != GW_OK)
        return rc;
    if (text) {
        rc = parse(n->text, text, len, root, r->err);
        free(text);
        if (rc != GW_OK)
            return rc;
    }
    if (r->n_cache == r->cap_cache) {
        r->cap_cache = r->cap_cache ? r->cap_cache * 2 : 8;
        r->cache = gw_xrealloc(r->cache, r->cap_cache * sizeof *r->cache);
    }
    r->cache[r->n_cache].name = gw_xstrdup(n->text);
    r->cache[r->n_cache].root = *root;
    r->n_cache++;
    return GW_OK;
}

static int render_template(renderer *r, const node *n, const node *root, const node *frame)
{
    if (r->nesting >= MAX_NESTING)
        return render_error(r, n, "partials nested more than 100 deep (one includes itself?)");
    size_t indent_len = r->indent.len;
    if (n->standalone && n->indent) {
        buf_puts(&r->indent, n->indent);
        r->line_start = 1;
    }
    if (frame) {
        if (r->n_frames == r->cap_frames) {
            r->cap_frames = r->cap_frames ? r->cap_frames * 2 : 8;
            r->frames = gw_xrealloc(r->frames, r->cap_frames * sizeof *r->frames);
        }
        r->frames[r->n_frames++] = frame;
    }
    const char *outer_name = r->tmpl_name;
    r->tmpl_name = root->text;
    r->nesting++;
    int rc = render_nodes(r, root);
    r->nesting--;
    r->tmpl_name = outer_name;
    if (frame)
        r->n_frames--;
    r->indent.len = indent_len;
    if (r->indent.data)
        r->indent.data[indent_len] = '\0';
    return rc;
}

static int render_partial(renderer *r, const node *n)
{
    node *root;
    int rc = load_partial(r, n, &root);
    if (rc != GW_OK)
        return rc;
    if (!root) {
        if (!r->opts->strict_partials)
            return GW_OK;
        char what[600];
        snprintf(what, sizeof what, "unknown partial '%.500s'", n->text);
        return render_error(r, n, what);
    }
    return render_template(r, n, root, n->kind == N_PARENT ? n : NULL);
}

/* The override for block `name`: the outermost parent tag that defines it wins. */
static const node *find_override(const renderer *r, const char *name)
{
    for (size_t f = 0; f < r->n_frames; f++) {
        const node *frame = r->frames[f];
        for (size_t i = 0; i < frame->n_kids; i++)
            if (frame->kids[i]->kind == N_BLOCK && strcmp(frame->kids[i]->text, name) == 0)
                return frame->kids[i];
    }
    return NULL;
}

/* Writes s as template text, with `strip` leading blanks removed from every line and `indent`
 * (may be NULL: none) put in front of every non-empty one; end_line: the text ends with a line
 * break.  Straight to the output, so a block's content is held once, not twice. */
static void emit_reindented(renderer *r, const char *s, size_t n, size_t strip,
                            const char *indent, int end_line)
{
    size_t i = 0, indent_len = indent ? strlen(indent) : 0;
    char last = '\0';   /* the last byte written; '\0' while nothing has been */
    while (i < n && !r->over) {
        size_t k = 0;
        while (k < strip && i < n && is_blank(s[i])) {
            i++;
            k++;
        }
        const char *nl = memchr(s + i, '\n', n - i);
        size_t line_len = nl ? (size_t)(nl - (s + i)) + 1 : n - i;
        if (indent && line_len > 0 && s[i] != '\n')
            emit_text(r, indent, indent_len);
        emit_text(r, s + i, line_len);
        if (line_len)
            last = s[i + line_len - 1];
        i += line_len;
    }
    if (end_line && last && last != '\n')
        emit_text(r, "\n", 1);
}

static int render_block(renderer *r, const node *n)
{
    if (r->nesting >= MAX_NESTING)
        return render_error(r, n, "blocks nested more than 100 deep");
    const node *over = find_override(r, n->text);
    const node *content = over ? over : n;
    int dedent = over && over->standalone;
    if (!dedent && !n->standalone) {
        r->nesting++;
        int rc = render_nodes(r, content);
        r->nesting--;
        return rc;
    }
    /* Block indentation is removed where the content was written and added where it lands. */
    gw_buf tmp = GW_BUF_INIT, *keep = r->out;
    gw_buf keep_indent = r->indent;
    int keep_start = r->line_start;
    r->out = &tmp;
    r->indent = (gw_buf)GW_BUF_INIT;
    r->line_start = 0;
    r->nesting++;
    int rc = render_nodes(r, content);
    r->nesting--;
    buf_free(&r->indent);
    r->out = keep;
    r->indent = keep_indent;
    r->line_start = keep_start;
    if (rc == GW_OK) {
        size_t strip = 0;
        while (strip < tmp.len && is_blank(tmp.data[strip]))
            strip++;
        emit_reindented(r, buf_cstr(&tmp), tmp.len, strip, n->standalone ? n->indent : NULL,
                        n->standalone);
    }
    r->held -= tmp.len;   /* counted while it was written; gone now */
    buf_free(&tmp);
    return rc;
}

static int render_nodes(renderer *r, const node *parent)
{
    int rc = GW_OK;
    for (size_t i = 0; i < parent->n_kids && rc == GW_OK; i++) {
        const node *n = parent->kids[i];
        const view *v;
        if (++r->steps > MAX_STEPS)
            return render_error(r, n, "the template asks for too much work (partials that "
                                      "recurse?)");
        if (r->over)
            return output_error(r, n);
        switch (n->kind) {
        case N_TEXT:
            emit_text(r, n->text, n->len);
            break;
        case N_VAR:
        case N_RAW:
            v = lookup(r, n->text, n->len);
            emit_value(r, v, n->kind == N_VAR);
            break;
        case N_SECTION:
            if (!n->standalone)
                emit_pending_indent(r);
            v = lookup(r, n->text, n->len);
            if (!view_truthy(v))
                break;
            if (view_kind(v) == VIEW_LIST) {
                for (size_t k = 0; k < view_len(v) && rc == GW_OK; k++) {
                    push_ctx(r, view_list_at(v, k));
                    rc = render_nodes(r, n);
                    r->n_ctx--;
                }
            } else {
                push_ctx(r, v);
                rc = render_nodes(r, n);
                r->n_ctx--;
            }
            break;
        case N_INVERTED:
            if (!n->standalone)
                emit_pending_indent(r);
            v = lookup(r, n->text, n->len);
            if (!view_truthy(v))
                rc = render_nodes(r, n);
            break;
        case N_PARTIAL:
        case N_PARENT:
            if (!n->standalone)
                emit_pending_indent(r);
            rc = render_partial(r, n);
            break;
        case N_BLOCK:
            rc = render_block(r, n);
            break;
        case N_ROOT:
            break;
        }
    }
    return rc;
}

int mustache_render(const char *name, const char *text, size_t len, const view *data,
                    const mustache_opts *opts, gw_buf *out, gw_error *err)
{
    node *root;
    int rc = parse(name, text, len, &root, err);
    if (rc != GW_OK)
        return rc;
    renderer r = {0};
    r.opts = opts;
    r.max_output = opts->max_output ? opts->max_output : MUSTACHE_MAX_OUTPUT;
    r.out = out;
    r.err = err;
    r.tmpl_name = name;
    push_ctx(&r, data);
    rc = render_nodes(&r, root);
    if (rc == GW_OK && r.over)   /* the last node went past the cap */
        rc = output_error(&r, root->n_kids ? root->kids[root->n_kids - 1] : root);
    for (size_t i = 0; i < r.n_cache; i++) {
        free(r.cache[i].name);
        node_free(r.cache[i].root);
    }
    free(r.cache);
    free(r.ctx);
    free(r.frames);
    buf_free(&r.indent);
    node_free(root);
    if (out->data == NULL)
        buf_puts(out, "");
    return rc;
}
