/* mustache.c — Mustache templates over the view tree: the escapers, and the renderer that walks
 * the node tree mustache_parse.c makes against a context stack.  Partials and parents are parsed
 * on first use and cached for one render.  Indentation of standalone partials is applied while
 * rendering, to template text only, never inside interpolated values. */
#include "mustache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mustache_parse.h"

#define MAX_NESTING 100   /* partials, parents and blocks inside each other */
/* A template that recurses through partials can ask for exponential work; this and the output
 * cap (mustache_opts.max_output, counting every byte the render holds at once: the output, and
 * a block's content while it is re-indented) stop it with an error instead of a hang or an
 * exhausted memory. */
#define MAX_STEPS 20000000L

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
    view *yes;               /* what a "has_X" of opts->list_flags gives */
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

/* key in map, or with opts->list_flags the flag "has_X" a map without it has for a non-empty
 * list "X".  Asked only when a template names it: setting every flag in the model beforehand
 * walked all of it (4.6 M of the 120 M instructions of a report). */
static const view *map_get(const renderer *r, const view *map, const char *key)
{
    const view *v = view_map_get(map, key);
    if (v || !r->opts->list_flags || strncmp(key, "has_", 4) != 0)
        return v;
    const view *list = view_map_get(map, key + 4);
    return view_kind(list) == VIEW_LIST && view_len(list) > 0 ? r->yes : NULL;
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
        if (view_kind(r->ctx[i]) == VIEW_MAP && (v = map_get(r, r->ctx[i], key)) != NULL)
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
        v = map_get(r, v, key);
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
        rc = mustache_parse(n->text, text, len, root, r->err);
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
    int rc = mustache_parse(name, text, len, &root, err);
    if (rc != GW_OK)
        return rc;
    renderer r = {0};
    r.opts = opts;
    r.max_output = opts->max_output ? opts->max_output : MUSTACHE_MAX_OUTPUT;
    r.out = out;
    r.err = err;
    r.tmpl_name = name;
    r.yes = view_bool(1);
    push_ctx(&r, data);
    rc = render_nodes(&r, root);
    if (rc == GW_OK && r.over)   /* the last node went past the cap */
        rc = output_error(&r, root->n_kids ? root->kids[root->n_kids - 1] : root);
    for (size_t i = 0; i < r.n_cache; i++) {
        free(r.cache[i].name);
        mustache_node_free(r.cache[i].root);
    }
    free(r.cache);
    free(r.ctx);
    free(r.frames);
    buf_free(&r.indent);
    view_free(r.yes);
    mustache_node_free(root);
    if (out->data == NULL)
        buf_puts(out, "");
    return rc;
}
