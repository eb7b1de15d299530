/* kb_names.c — GPU name resolution, the same for the CLI and for plugins: every GPU's id, name
 * and aliases split the way people vary them ("NVIDIA GeForce RTX 3090", "rtx-3090", "8x
 * H100 80GB"), cached per connection and kept up by the writes, and a name resolved in named
 * steps: a count taken off either end ("8x", "x8"; kb_names_count.c), an exact name (first in
 * one pass over the names, without the cache), else the GPUs whose names hold every word,
 * narrowed by a memory size, the SXM part, and the plain card over its Ti/Super variants; a
 * laptop name (Laptop, Mobile, Max-Q) only ever resolves to a laptop part.  A name belongs to
 * one card: kb_gpu_name_free (kb_names_own.c) says which names a card may take. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/check.h"
#include "kb.h"
#include "kb_names.h"
#include "kb_names_count.h"
#include "kb_sql.h"

void kb_names_drop(kb *k)
{
    for (size_t i = 0; i < k->n_names; i++) {
        gpu_names *g = &k->names[i];
        free(g->id);
        free(g->form_factor);
        kb_strlist_free(g->variants, g->n_variants);
        kb_strlist_free(g->tokens, g->n_tokens);
        kb_strlist_free(g->name_tokens, g->n_name_tokens);
    }
    free(k->names);
    k->names = NULL;
    k->n_names = 0;
}

int kb_names_cached(const kb *k)
{
    return k->names != NULL;
}

static int is_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Splits a name the way people vary it: case, spaces, dashes, underscores and brackets do not
 * matter; "80 GB" becomes "80gb"; vendor and line words in front ("NVIDIA GeForce") and "GPU"
 * at the end are dropped.  The tokens are written into buf (2 * strlen(s) + 2 bytes), each
 * NUL-terminated; tok[] points at them.  Returns their number (at most max). */
static size_t name_split(const char *s, char *buf, char **tok, size_t max)
{
    size_t n = 0, len = 0;   /* len: characters of the token being read */
    int keep = 0, prev = 0;  /* keep: the token has a place in tok[]; prev: its last character */
    char *w = buf;
    for (const unsigned char *p = (const unsigned char *)s;; p++) {
        int c = *p;
        if (c == 0xC3 && p[1] == 0x97) {   /* U+00D7 multiplication sign, as in "4×3090" */
            c = 'x';
            p++;
        }
        if (c && (isalnum(c) || c == '.' || c >= 0x80)) {
            if (c == '.' && !(len && isdigit(prev) && isdigit(p[1])))
                goto split;   /* a dot only belongs inside a number */
            if (!len && (keep = n < max))
                tok[n++] = w;
            prev = tolower(c);
            if (keep)
                *w++ = (char)prev;
            len++;
            continue;
        }
    split:
        if (len && keep)
            *w++ = '\0';
        len = 0;
        if (!c)
            break;
    }
    /* "80 GB" -> "80gb": tokens are adjacent in buf, so the unit moves over the number's NUL */
    for (size_t i = 0; i + 1 < n; i++) {
        const char *unit = tok[i + 1];
        if (isdigit((unsigned char)tok[i][0]) && strspn(tok[i], "0123456789.") == strlen(tok[i]) &&
            (strcmp(unit, "gb") == 0 || strcmp(unit, "gib") == 0 || strcmp(unit, "g") == 0)) {
            size_t tl = strlen(tok[i]);
            memcpy(tok[i] + tl, "gb", 3);   /* "g" and "gib" both become "gb" */
            memmove(&tok[i + 1], &tok[i + 2], (n - i - 2) * sizeof *tok);
            n--;
        }
    }
    /* "Max-Q", "Max Q" and "MaxQ" are one word, "maxq" (and Max-P "maxp"), the same way; a
     * "Mobile", "Mobility" or "Notebook" part is what NVIDIA now calls a "Laptop GPU" */
    for (size_t i = 0; i < n; i++)
        if (!strcmp(tok[i], "mobile") || !strcmp(tok[i], "mobility") ||
            !strcmp(tok[i], "notebook"))
            strcpy(tok[i], "laptop");   /* no longer than the word it replaces */
    for (size_t i = 0; i + 1 < n; i++) {
        const char *next = tok[i + 1];
        if (strcmp(tok[i], "max") == 0 && (strcmp(next, "q") == 0 || strcmp(next, "p") == 0)) {
            memcpy(tok[i] + 3, next, 2);
            memmove(&tok[i + 1], &tok[i + 2], (n - i - 2) * sizeof *tok);
            n--;
        }
    }
    static const char *const lead[] = {"nvidia", "geforce", "tesla", "quadro", "amd",
                                       "instinct", NULL};
    size_t first = 0, last = n;
    for (;;) {
        if (first < last && kb_in_set(tok[first], lead))
            first++;
        else if (first + 1 < last && strcmp(tok[first], "radeon") == 0 &&
                 strcmp(tok[first + 1], "instinct") == 0)
            first += 2;
        else
            break;
    }
    while (last > first && strcmp(tok[last - 1], "gpu") == 0)
        last--;
    memmove(tok, tok + first, (last - first) * sizeof *tok);
    return last - first;
}

#define NAME_TOKENS_MAX 64

/* name_split's tokens of s, each a copy pushed to out. */
static void name_tokenize(const char *s, kb_strlist *out)
{
    size_t len = strlen(s);
    char small[512], *buf = 2 * len + 2 <= sizeof small ? small : gw_xmalloc(2 * len + 2);
    char *tok[NAME_TOKENS_MAX];
    size_t n = name_split(s, buf, tok, NAME_TOKENS_MAX);
    for (size_t i = 0; i < n; i++)
        kb_strlist_push(out, gw_xstrdup(tok[i]));
    if (buf != small)
        free(buf);
}

/* The n tokens at tok joined into key (as long as the text they were split from, at least):
 * a name variant ("rtx3090"). */
static void tokens_join_into(char *const *tok, size_t n, char *key)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t tl = strlen(tok[i]);
        memcpy(key + at, tok[i], tl);
        at += tl;
    }
    key[at] = '\0';
}

static char *tokens_join(char *const *v, size_t n)
{
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        buf_puts(&b, v[i]);
    buf_puts(&b, "");
    return buf_detach(&b);
}

char *kb_name_norm(const char *name)
{
    kb_strlist words = {0};
    name_tokenize(name, &words);
    char *norm = tokens_join(words.v, words.n);
    kb_strlist_free(words.v, words.n);
    return norm;
}

/* Adds text's tokens joined (a name variant) to variants and each token to tokens, unless
 * there already; and, where all is not NULL, a copy of every token to it (name_tokenize's). */
static void names_add(kb_strlist *variants, kb_strlist *tokens, kb_strlist *all,
                      const char *text)
{
    if (!text)
        return;
    size_t len = strlen(text);
    char small[512], *buf = 2 * len + 2 <= sizeof small ? small : gw_xmalloc(2 * len + 2);
    char joined_small[512], *joined = len + 1 <= sizeof joined_small ? joined_small
                                                                      : gw_xmalloc(len + 1);
    char *tok[NAME_TOKENS_MAX];
    size_t n = name_split(text, buf, tok, NAME_TOKENS_MAX);
    tokens_join_into(tok, n, joined);
    if (variants && *joined && !kb_strlist_has(variants, joined))
        kb_strlist_push(variants, gw_xstrdup(joined));
    for (size_t i = 0; i < n; i++) {
        if (!kb_strlist_has(tokens, tok[i]))
            kb_strlist_push(tokens, gw_xstrdup(tok[i]));
        if (all)
            kb_strlist_push(all, gw_xstrdup(tok[i]));
    }
    if (buf != small)
        free(buf);
    if (joined != joined_small)
        free(joined);
}

/* Fills g for the GPU id (a copy is kept) with its name, form factor and memory: the names
 * without aliases. */
static void names_fill(gpu_names *g, const char *id, const char *name, const char *form_factor,
                       const char *memory_type, double memory_gb)
{
    kb_strlist variants = {0}, tokens = {0}, name_tokens = {0};
    memset(g, 0, sizeof *g);
    g->id = gw_xstrdup(id);
    g->memory_gb = memory_gb;
    g->form_factor = form_factor ? gw_xstrdup(form_factor) : NULL;
    names_add(&variants, &tokens, NULL, g->id);
    names_add(&variants, &tokens, &name_tokens, name);
    names_add(NULL, &tokens, NULL, form_factor);
    names_add(NULL, &tokens, NULL, memory_type);
    g->variants = variants.v;
    g->n_variants = variants.n;
    g->tokens = tokens.v;
    g->n_tokens = tokens.n;
    g->name_tokens = name_tokens.v;
    g->n_name_tokens = name_tokens.n;
}

/* Adds the alias to g's names. */
static void names_add_alias(gpu_names *g, const char *alias)
{
    kb_strlist variants = {g->variants, g->n_variants, g->n_variants};
    kb_strlist tokens = {g->tokens, g->n_tokens, g->n_tokens};
    names_add(&variants, &tokens, NULL, alias);
    g->variants = variants.v;
    g->n_variants = variants.n;
    g->tokens = tokens.v;
    g->n_tokens = tokens.n;
}

/* A free slot for one more GPU at position at of the cache (kept in id order). */
static gpu_names *names_insert_at(kb *k, size_t at)
{
    k->names = gw_xrealloc(k->names, (k->n_names + 1) * sizeof *k->names);
    memmove(&k->names[at + 1], &k->names[at], (k->n_names - at) * sizeof *k->names);
    k->n_names++;
    return &k->names[at];
}

int kb_names_load(kb *k, gw_error *err)
{
    sqlite3_stmt *st;
    if (k->names)
        return GW_OK;
    int rc = kb_sql_prepare(k,
                     "SELECT id, name, form_factor, memory_type, memory_gb "
                     "FROM gpu ORDER BY id", &st, err);
    if (rc)
        return rc;
    for (size_t cap = 0; sqlite3_step(st) == SQLITE_ROW; k->n_names++) {
        if (k->n_names == cap) {   /* doubling: a grown KB's 840 GPUs, one realloc each, 1 M */
            cap = cap ? cap * 2 : 64;
            k->names = gw_xrealloc(k->names, cap * sizeof *k->names);
        }
        names_fill(&k->names[k->n_names], (const char *)sqlite3_column_text(st, 0),
                   (const char *)sqlite3_column_text(st, 1),
                   (const char *)sqlite3_column_text(st, 2),
                   (const char *)sqlite3_column_text(st, 3), kb_sql_number(st, 4));
    }
    sqlite3_finalize(st);
    if ((rc = kb_sql_prepare(k, "SELECT gpu, alias FROM gpu_alias ORDER BY gpu, alias", &st, err)))
        return rc;
    size_t at = 0;   /* both lists are in id order (SQLite's BINARY collation is strcmp's) */
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *gpu = (const char *)sqlite3_column_text(st, 0);
        while (at < k->n_names && strcmp(k->names[at].id, gpu) < 0)
            at++;
        if (at < k->n_names && strcmp(k->names[at].id, gpu) == 0)
            names_add_alias(&k->names[at], (const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    return GW_OK;
}

/* Where GPU id is in the cache, or would go: *found says which. */
static size_t names_find(const kb *k, const char *id, int *found)
{
    size_t lo = 0, hi = k->n_names;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(k->names[mid].id, id);
        if (cmp == 0) {
            *found = 1;
            return mid;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = 0;
    return lo;
}

void kb_names_written(kb *k, int table, const kb_value *v, int outcome)
{
    int found;
    size_t ncols;
    if (!k->names)
        return;
    if (outcome == KB_ADDED && table == KB_ALIASES) {
        const kb_column *cols = kb_table_columns(KB_ALIASES, &ncols);
        size_t at = names_find(k, v[kb_table_column(KB_ALIASES, "gpu") - cols].text, &found);
        if (found) {
            names_add_alias(&k->names[at], v[kb_table_column(KB_ALIASES, "alias") - cols].text);
            return;
        }
    } else if (outcome == KB_ADDED && table == KB_GPUS) {
        const kb_column *cols = kb_table_columns(KB_GPUS, &ncols);
        const char *id = v[kb_table_column(KB_GPUS, "id") - cols].text;
        size_t at = names_find(k, id, &found);
        if (!found) {
            names_fill(names_insert_at(k, at), id, v[kb_table_column(KB_GPUS, "name") - cols].text,
                       v[kb_table_column(KB_GPUS, "form_factor") - cols].text,
                       v[kb_table_column(KB_GPUS, "memory_type") - cols].text,
                       v[kb_table_column(KB_GPUS, "memory_gb") - cols].number);
            return;
        }
    }
    kb_names_drop(k);   /* a changed row: read again when next needed */
}

static int token_in(char *const *v, size_t n, const char *t)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], t) == 0)
            return 1;
    return 0;
}

static int memory_hint(const char *tok, double *gb)
{
    size_t n = strlen(tok);
    if (n < 3 || strcmp(tok + n - 2, "gb") != 0 || !isdigit((unsigned char)tok[0]))
        return 0;
    char *end;
    *gb = strtod(tok, &end);
    return end == tok + n - 2;
}

static int is_memory_token(const char *t)
{
    double gb;
    return memory_hint(t, &gb);
}

/* 1 when b is a's name plus only variant words ("RTX 3090" and "RTX 3090 Ti", "RTX A2000" and
 * "RTX A2000 12GB"): a name that stops short of the suffix means the plain card. */
static int name_extends(const gpu_names *a, const gpu_names *b)
{
    static const char *const variant_words[] = {"ti", "super", "d",  "xt",     "xtx", "maxq",
                                                 "maxp", "se",  "le", "laptop", NULL};
    if (a->n_name_tokens == 0 || a->n_name_tokens >= b->n_name_tokens)
        return 0;
    for (size_t i = 0; i < a->n_name_tokens; i++)
        if (!token_in(b->name_tokens, b->n_name_tokens, a->name_tokens[i]))
            return 0;
    for (size_t i = 0; i < b->n_name_tokens; i++) {
        const char *t = b->name_tokens[i];
        if (!token_in(a->name_tokens, a->n_name_tokens, t) && !kb_in_set(t, variant_words) &&
            !is_memory_token(t))
            return 0;
    }
    return 1;
}

static int form_factor_token(const gpu_names *g, const char *t)
{
    return (g->form_factor && strcmp(t, g->form_factor) == 0) || strncmp(t, "pcie", 4) == 0 ||
           strncmp(t, "sxm", 3) == 0 || is_memory_token(t);
}

/* 1 when a's and b's names differ only in form factor and memory size words. */
static int same_model(const gpu_names *a, const gpu_names *b)
{
    const gpu_names *x = a, *y = b;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < x->n_name_tokens; i++)
            if (!form_factor_token(x, x->name_tokens[i]) &&
                !token_in(y->name_tokens, y->n_name_tokens, x->name_tokens[i]))
                return 0;
        x = b;
        y = a;
    }
    return 1;
}

static int resolve_ambiguous(const char *name, char *const *ids, size_t n, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", ids[i]);
    int rc = gw_error_set(err, GW_ENOTFOUND, "'%.200s' is ambiguous: %s", name, buf_cstr(&b));
    buf_free(&b);
    return rc;
}

typedef struct suggestion {
    size_t dist;
    const char *id;
} suggestion;

static int suggestion_cmp(const void *a, const void *b)
{
    const suggestion *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist < y->dist ? -1 : 1;
    return strcmp(x->id, y->id);
}

static int resolve_unknown(kb *k, const char *name, const char *norm, gw_error *err)
{
    if (k->n_names == 0)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.200s' (the knowledge base has "
                            "no GPUs)", name);
    suggestion *s = gw_xcalloc(k->n_names, sizeof *s);
    for (size_t i = 0; i < k->n_names; i++) {
        s[i].id = k->names[i].id;
        s[i].dist = SIZE_MAX;
        for (size_t j = 0; j < k->names[i].n_variants; j++) {
            const char *v = k->names[i].variants[j];
            /* In tenths of an edit: "4070 ti" is nearer the "4070 Ti Super" it is part of than
             * the "1080 Ti", and "rtx5090 32gb" the "rtx5090" it holds than the "rtx 3090" (a
             * part counts a quarter of an edit a letter left over). */
            size_t d = *norm && strstr(v, norm) ? (strlen(v) - strlen(norm)) * 10 / 4
                       : strlen(v) >= 3 && strstr(norm, v) ? (strlen(norm) - strlen(v)) * 10 / 4
                                                           : gw_edit_distance(norm, v) * 10;
            if (d < s[i].dist)
                s[i].dist = d;
        }
    }
    qsort(s, k->n_names, sizeof *s, suggestion_cmp);
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < k->n_names && i < 3; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", s[i].id);
    int rc = gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.200s'; did you mean: %s?", name,
                          buf_cstr(&b));
    buf_free(&b);
    free(s);
    return rc;
}

/* ---- laptop parts ----
 * A laptop part (Laptop, Mobile, Max-Q, Max-P) has its own clocks, power and often memory: a
 * name that says so is never the desktop card of the same number.  Its words are matched
 * whole and never dropped. */

static const char *const laptop_words[] = {"laptop", "maxq", "maxp", NULL};   /* name_split's */

/* How a name's words say it is a laptop part ("laptop", "Max-Q"); NULL when they do not. */
static const char *laptop_marker(char *const *tok, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(tok[i], "maxq"))   /* name_split makes "Max-Q" one word */
            return "Max-Q";
        if (!strcmp(tok[i], "maxp"))
            return "Max-P";
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(tok[i], "laptop"))   /* and "Mobile" and "Notebook" this one */
            return "laptop";
    return NULL;
}

/* 1 when the GPU's names hold every word: whole words, or the start of a longer one ("sxm" for
 * "sxm5").  A model number must be whole: "m40" is not in "sxm4 40gb", "5000" is not the
 * "a5000", "mi300" is not the "mi300x".  *whole counts the words found whole. */
static int has_every_word(const gpu_names *g, const kb_strlist *words, size_t *whole)
{
    *whole = 0;
    for (size_t q = 0; q < words->n; q++) {
        const char *word = words->v[q];
        size_t wl = strlen(word);
        int found = 0;
        if (token_in(g->tokens, g->n_tokens, word)) {
            ++*whole;
            continue;
        }
        if (wl >= 2 && !strpbrk(word, "0123456789") && !kb_in_set(word, laptop_words))
            for (size_t j = 0; j < g->n_tokens && !found; j++)
                found = strncmp(g->tokens[j], word, wl) == 0;
        if (!found)
            return 0;
    }
    return words->n > 0;
}

/* "GTX 1080" is not the GTX 1080 Ti: a product suffix must be asked for. */
static int has_unasked_suffix(const gpu_names *g, const kb_strlist *words)
{
    static const char *const suffixes[] = {"ti", "super", "xt", "xtx", NULL};
    for (size_t j = 0; j < g->n_name_tokens; j++)
        if (kb_in_set(g->name_tokens[j], suffixes) &&
            !token_in(words->v, words->n, g->name_tokens[j]))
            return 1;
    return 0;
}

/* Vendors round: "140GB" means the 141 GB H200.  A size that fits none leaves none: "P100 12GB"
 * is not the P100 16GB. */
static size_t keep_memory(gpu_names **cand, size_t nc, double gb)
{
    size_t kept = 0;
    for (size_t i = 0; i < nc; i++)
        if (fabs(cand[i]->memory_gb - gb) <= fmax(1.0, gb * 0.025))
            cand[kept++] = cand[i];
    return kept;
}

/* "A100 80GB", "H100 (80 GB)": a memory size but no form factor names the SXM part, the one
 * cloud listings and articles mean, when the rest differ only in form. */
static size_t prefer_sxm(gpu_names **cand, size_t nc)
{
    size_t sxm = 0, pick = 0;
    int alike = 1;
    for (size_t i = 0; i < nc; i++) {
        alike = alike && same_model(cand[0], cand[i]);
        if (cand[i]->form_factor && strncmp(cand[i]->form_factor, "sxm", 3) == 0) {
            sxm++;
            pick = i;
        }
    }
    if (nc > 1 && alike && sxm == 1) {
        cand[0] = cand[pick];
        return 1;
    }
    return nc;
}

/* "3090" prefers the RTX 3090 to the RTX 3090 Ti: a candidate whose name is another's plus
 * variant words goes. */
static size_t drop_extended(gpu_names **cand, size_t nc)
{
    size_t kept = 0;
    for (size_t i = 0; i < nc; i++) {
        int dominated = 0;
        for (size_t j = 0; j < nc && !dominated; j++)
            dominated = j != i && name_extends(cand[j], cand[i]);
        if (!dominated)
            cand[kept++] = cand[i];
    }
    return kept;
}

/* Step 1: the GPUs one of whose names (id, name, alias) is the whole query. */
static size_t match_exact(kb *k, const char *norm, gpu_names **cand)
{
    size_t nc = 0;
    for (size_t i = 0; *norm && i < k->n_names; i++)
        for (size_t j = 0; j < k->names[i].n_variants; j++)
            if (strcmp(norm, k->names[i].variants[j]) == 0) {
                cand[nc++] = &k->names[i];
                break;
            }
    return nc;
}

/* Step 2: the GPUs whose names hold every word of the query, those with the most words found
 * whole; a memory size ("80GB") narrows; then the plain card over its variants. */
static size_t match_words(kb *k, const kb_strlist *query, gpu_names **cand)
{
    kb_strlist words = {0};
    double hint = NAN, gb;
    for (size_t i = 0; i < query->n; i++) {
        if (memory_hint(query->v[i], &gb) && isnan(hint))
            hint = gb;
        else
            kb_strlist_push(&words, query->v[i]);
    }
    size_t *whole = gw_xcalloc(k->n_names + 1, sizeof *whole);
    size_t nc = 0, best = 0, kept = 0;
    for (size_t i = 0; i < k->n_names; i++) {
        size_t w;
        if (!has_every_word(&k->names[i], &words, &w) ||
            has_unasked_suffix(&k->names[i], &words))
            continue;
        whole[nc] = w;
        cand[nc++] = &k->names[i];
        best = w > best ? w : best;
    }
    for (size_t i = 0; i < nc; i++)
        if (whole[i] == best)
            cand[kept++] = cand[i];
    nc = kept;
    if (!isnan(hint))
        nc = prefer_sxm(cand, keep_memory(cand, nc, hint));
    if (nc > 1)
        nc = drop_extended(cand, nc);
    free(whole);
    free(words.v);   /* the strings belong to query */
    return nc;
}

/* Step 3: one candidate is the answer; several are a family (when one is wanted) or ambiguous;
 * none is unknown, with the nearest names. */
static int resolve_answer(kb *k, const char *name, const char *norm, gpu_names **cand,
                          size_t nc, char **id, kb_strlist *family, gw_error *err)
{
    if (nc == 1) {
        *id = gw_xstrdup(cand[0]->id);
        return GW_OK;
    }
    if (nc > 1 && family) {
        for (size_t i = 0; i < nc; i++)
            kb_strlist_push(family, gw_xstrdup(cand[i]->id));
        return GW_OK;
    }
    if (nc > 1) {
        char **ids = gw_xcalloc(nc, sizeof *ids);
        for (size_t i = 0; i < nc; i++)
            ids[i] = cand[i]->id;
        int rc = resolve_ambiguous(name, ids, nc, err);
        free(ids);
        return rc;
    }
    return resolve_unknown(k, name, norm, err);
}

/* The GPUs words name: one of their names whole (step 1), else every word (step 2). */
static size_t match(kb *k, const kb_strlist *words, gpu_names **cand)
{
    char *norm = tokens_join(words->v, words->n);
    size_t nc = match_exact(k, norm, cand);
    if (nc == 0 && words->n > 0)
        nc = match_words(k, words, cand);
    free(norm);
    return nc;
}

/* A laptop name keeps only the laptop parts among its candidates (an alias or a shared word
 * must not carry it to the desktop card). */
static size_t keep_laptop_parts(gpu_names **cand, size_t nc)
{
    size_t kept = 0;
    for (size_t i = 0; i < nc; i++)
        if (laptop_marker(cand[i]->name_tokens, cand[i]->n_name_tokens))
            cand[kept++] = cand[i];
    return kept;
}

/* A laptop name the KB has no part for: says so, and names the desktop card it is not. */
static int resolve_laptop_unknown(kb *k, const char *name, const kb_strlist *words,
                                  const char *marker, gw_error *err)
{
    static const char *const phrase[] = {"with", "design", NULL};   /* "with Max-Q Design" */
    kb_strlist desktop = {0};   /* the words but the laptop ones, borrowed */
    for (size_t i = 0; i < words->n; i++)
        if (!kb_in_set(words->v[i], laptop_words) && !kb_in_set(words->v[i], phrase))
            kb_strlist_push(&desktop, words->v[i]);
    gpu_names **cand = gw_xcalloc(k->n_names + 1, sizeof *cand);
    size_t nc = desktop.n ? match(k, &desktop, cand) : 0;
    int rc = nc == 1 ? gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.200s': the knowledge "
                                    "base has no %s variant of this card (%s is the desktop "
                                    "card, a different GPU)", name, marker, cand[0]->id)
                     : gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.200s': the knowledge "
                                    "base has no %s variant of this card", name, marker);
    free(cand);
    free(desktop.v);
    return rc;
}

/* The card words name, laptop parts kept apart from desktop cards; messages quote name. */
static int resolve_card(kb *k, const char *name, const kb_strlist *words, char **id,
                        kb_strlist *family, gw_error *err)
{
    gpu_names **cand = gw_xcalloc(k->n_names + 1, sizeof *cand);
    char *norm = tokens_join(words->v, words->n);
    size_t nc = match(k, words, cand);
    const char *marker = laptop_marker(words->v, words->n);
    if (marker)
        nc = keep_laptop_parts(cand, nc);
    int rc = marker && nc == 0 ? resolve_laptop_unknown(k, name, words, marker, err)
                               : resolve_answer(k, name, norm, cand, nc, id, family, err);
    free(norm);
    free(cand);
    return rc;
}

/* 1 when reading r names one card (one or more for a family): a number of one or two digits
 * names none ("4090x2" is 2 RTX 4090, not 4090 of a GPU called "2"). */
static int reading_names_card(kb *k, const count_reading *r, int family)
{
    if (r->card.n == 0 || (r->card.n == 1 && is_digits(r->card.v[0]) &&
                           strlen(r->card.v[0]) < 3))
        return 0;
    gpu_names **cand = gw_xcalloc(k->n_names + 1, sizeof *cand);
    size_t nc = match(k, &r->card, cand);
    free(cand);
    return family ? nc > 0 : nc == 1;
}

/* Which of n readings to resolve: the one whose card the KB knows; -1 when both are known
 * (the count is unclear).  Where neither is, the one whose card is not a short number, so
 * that its message suggests cards for the name without its count. */
static int pick_reading(kb *k, const count_reading *r, int n, int family)
{
    if (n < 2)
        return 0;
    int first = reading_names_card(k, &r[0], family);
    int second = reading_names_card(k, &r[1], family);
    if (first && second)
        return -1;
    if (first || second)
        return first ? 0 : 1;
    return r[0].card.n == 1 && is_digits(r[0].card.v[0]) && strlen(r[0].card.v[0]) < 3;
}

/* ---- one name without the cache ----
 * Building every GPU's name variants and words (kb_names_load) cost 1.6 M instructions on the
 * shipped KB, 17 M on one grown to 840 GPUs, for `kb show` to look up one name.  A name that
 * is some GPU's id, name or alias whole (step 1), with no laptop word and either no count or
 * one that reads one way only ("1x rtx-3090": a report's one-card option, where building the
 * cache was 2 M of its 28.8 M instructions), is found instead by one seek of the name keys
 * (match_name_key; every KB a reader opens has them, kb_file.c), some 12 thousand
 * instructions.  A command that resolves more names than NAMES_DIRECT_MAX builds the cache
 * instead, which answers each from memory; so does any name step 1 misses.  A decision
 * resolves each candidate twice (the workload's check, then its options): at 8, five
 * candidates built the cache (report grant-lab 75.0 M -> 73.0 M instructions at 32, on the
 * grown KB 143.0 M -> 124.7 M). */
#define NAMES_DIRECT_MAX 32

/* The GPUs one of whose names has the key, in id order (the key's rows are; a key of a GPU
 * deleted behind the writers' back is left out by the join). */
static void gpu_name_key_sql(gw_buf *sql)
{
    buf_puts(sql, "SELECT k.gpu FROM gpu_name_key k JOIN gpu g ON g.id = k.gpu "
                  "WHERE k.name_key = ?1 ORDER BY k.gpu");
}

/* Step 1 as one seek of the name keys the writers keep (kb/schema.sql version 18). */
static int match_name_key(kb *k, const char *key, kb_strlist *ids, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_once(k, KB_STMT_GPU_NAME_KEY, gpu_name_key_sql, &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, key);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW)
        kb_strlist_push(ids, kb_sql_text(st, 0));
    kb_sql_done(k, st);
    return step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "reading GPU names");
}

/* A name without a count (words), resolved by match_name_key where it is one of the
 * names whole: *found says whether it was, and then *id, *family or err is the answer as
 * resolve_answer gives it. */
static int resolve_direct(kb *k, const char *name, const kb_strlist *words, char **id,
                          kb_strlist *family, int *found, gw_error *err)
{
    *found = 0;
    if (k->names || k->names_direct >= NAMES_DIRECT_MAX || laptop_marker(words->v, words->n))
        return GW_OK;
    k->names_direct++;
    kb_strlist ids = {0};
    char *key = tokens_join(words->v, words->n);
    int rc = *key ? match_name_key(k, key, &ids, err) : GW_OK;
    *found = rc == GW_OK && ids.n > 0;
    if (*found && ids.n == 1) {
        *id = ids.v[0];
        ids.n = 0;
    } else if (*found && family) {
        for (size_t i = 0; i < ids.n; i++)
            kb_strlist_push(family, ids.v[i]);
        ids.n = 0;
    } else if (*found) {
        rc = resolve_ambiguous(name, ids.v, ids.n, err);
    }
    kb_strlist_free(ids.v, ids.n);
    free(key);
    return rc;
}

static const char count_rule[] = "a GPU count is a whole number of at least 1, before or after "
                                 "the name (\"2x rtx-3090\", \"rtx-3090 x2\")";

/* The name's words t, read as n count readings r, resolved with the names cache: the count's
 * checks, then resolve_card.  *n_count is the count read. */
static int resolve_cached(kb *k, const char *name, const kb_strlist *t, const count_reading *r,
                          int n, char **id, long *n_count, kb_strlist *family, gw_error *err)
{
    int rc = kb_names_load(k, err);
    if (rc)
        return rc;
    int pick = pick_reading(k, r, n, family != NULL);
    const kb_strlist *words = n > 0 && pick >= 0 ? &r[pick].card : t;
    *n_count = n > 0 && pick >= 0 ? r[pick].count : 1;
    if (t->n == 0)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU named '%s' (a name has letters or "
                            "digits)", name);
    if (n < 0)
        return gw_error_set(err, GW_ENOTFOUND, "'%s' has a count at both ends: write one (\"8x "
                            "h100-sxm5\")", name);
    if (pick < 0)
        return gw_error_set(err, GW_ENOTFOUND, "'%s': which number is the count? Write the "
                            "count first, then the card (\"2x rtx-3090\")", name);
    if (*n_count < 1)
        return gw_error_set(err, GW_ENOTFOUND, "'%s': %s", name, count_rule);
    if (words->n == 0)
        return gw_error_set(err, GW_ENOTFOUND, "'%s' is a count with no GPU name: write the "
                            "card too (\"%ldx rtx-3090\")", name, *n_count);
    return resolve_card(k, name, words, id, family, err);
}

/* kb_gpu_resolve, and kb_gpu_resolve_family when family is not NULL: then an ambiguous name gives
 * every candidate's id in *family instead of an error. */
static int resolve(kb *k, const char *name, char **id, int *count, kb_strlist *family,
                   gw_error *err)
{
    kb_strlist t = {0};
    count_reading r[2];
    int rc = GW_OK, found = 0;
    long n_count = 1;
    *id = NULL;
    if (count)
        *count = 1;
    if (!name || !*name)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU name given");
    if (strlen(name) > 200)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.40s...' (name too long)", name);
    if (kb_names_count_malformed(name))
        return gw_error_set(err, GW_ENOTFOUND, "'%s': %s", name, count_rule);
    name_tokenize(name, &t);
    int n = kb_names_count_readings(&t, r);
    if (n == 0 && t.n > 0)
        rc = resolve_direct(k, name, &t, id, family, &found, err);
    else if (n == 1 && r[0].count >= 1 && r[0].card.n > 0)   /* "1x rtx-3090": one reading */
        rc = resolve_direct(k, name, &r[0].card, id, family, &found, err);
    if (found)
        n_count = n == 1 ? r[0].count : 1;
    if (rc == GW_OK && !found)
        rc = resolve_cached(k, name, &t, r, n, id, &n_count, family, err);
    if (rc == GW_OK && *id && count)
        *count = (int)n_count;
    for (int i = 0; i < n; i++)
        kb_names_reading_free(&r[i]);
    kb_strlist_free(t.v, t.n);
    return rc;
}

int kb_gpu_resolve(kb *k, const char *name, char **id, int *count, gw_error *err)
{
    return resolve(k, name, id, count, NULL, err);
}

int kb_gpu_resolve_family(kb *k, const char *name, char ***ids, size_t *n, gw_error *err)
{
    kb_strlist family = {0};
    char *id = NULL;
    *ids = NULL;
    *n = 0;
    int rc = resolve(k, name, &id, NULL, &family, err);
    if (rc == GW_OK && id)
        kb_strlist_push(&family, id);   /* the list owns it now */
    else
        free(id);
    if (rc != GW_OK) {
        kb_strlist_free(family.v, family.n);
        return rc;
    }
    *ids = family.v;
    *n = family.n;
    return GW_OK;
}

int kb_names_clashes(kb *k, gw_buf *report, gw_error *err)
{
    int clashes = 0;
    if (kb_names_load(k, err) != GW_OK)
        return -1;
    for (size_t i = 0; i < k->n_names; i++)
        for (size_t j = i + 1; j < k->n_names; j++)
            for (size_t a = 0; a < k->names[i].n_variants; a++)
                for (size_t b = 0; b < k->names[j].n_variants; b++)
                    if (strcmp(k->names[i].variants[a], k->names[j].variants[b]) == 0) {
                        buf_printf(report, "problem: the name '%s' fits both %s and %s\n",
                                   k->names[i].variants[a], k->names[i].id, k->names[j].id);
                        clashes++;
                    }
    /* Resolution never takes a laptop name to a desktop card, whatever its aliases say. */
    for (size_t i = 0; i < k->n_names; i++) {
        const gpu_names *g = &k->names[i];
        if (laptop_marker(g->name_tokens, g->n_name_tokens))
            continue;
        for (size_t j = 0; j < g->n_tokens; j++)
            if (kb_in_set(g->tokens[j], laptop_words)) {
                buf_printf(report, "problem: %s has an alias with '%s', but is no laptop part: "
                           "a laptop part needs a row of its own\n", g->id, g->tokens[j]);
                clashes++;
                break;
            }
    }
    return clashes;
}
