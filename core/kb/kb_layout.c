/* kb_layout.c — reads Megatron's pipeline stage layout notation (Et*4|(t*4|)*14tmL) into the
 * stages it names and what each holds, with the rules an import checks; folds virtual chunks
 * onto the physical stages they run on. */
#include "kb_layout.h"

#include "base/buf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The deepest nesting of parentheses read: a layout nests one or two. */
#define LAYOUT_MAX_DEPTH 8
#define LAYOUT_MAX_REPEAT 9999
#define LAYOUT_QUOTE(x) #x
#define LAYOUT_TEXT(x) LAYOUT_QUOTE(x)   /* a macro's value as text */
#define LAYOUT_MAX_STAGES_TEXT LAYOUT_TEXT(KB_LAYOUT_MAX_STAGES)

typedef struct expansion {
    const char *text;       /* the whole layout, for positions */
    const char *at;         /* the next character read */
    char out[KB_LAYOUT_MAX_SYMBOLS + 1];
    size_t used;
    char *why;
    size_t whysz;
} expansion;

static int fail(expansion *e, const char *at, const char *problem)
{
    if (e->why && e->whysz)
        snprintf(e->why, e->whysz, "%s at character %d", problem, (int)(at - e->text) + 1);
    return -1;
}

static int fail_too_long(expansion *e, const char *at)
{
    char problem[80];
    snprintf(problem, sizeof problem, "the layout expands past %d symbols",
             KB_LAYOUT_MAX_SYMBOLS);
    return fail(e, at, problem);
}

/* The character at c is none of the notation's. */
static int fail_symbol(expansion *e, const char *c)
{
    unsigned char byte = (unsigned char)*c;
    char problem[200];
    if (byte >= 0x20 && byte < 0x7F)
        snprintf(problem, sizeof problem, "'%c' is not a stage symbol (E embedding, t transformer "
                 "layer, m MTP layer, L loss and output head, '|' between stages)", byte);
    else
        snprintf(problem, sizeof problem, "byte 0x%02X is not a stage symbol (E, t, m, L or '|')",
                 byte);
    return fail(e, c, problem);
}

/* Appends out[from, used) count - 1 more times (the run is there once already). */
static int repeat(expansion *e, size_t from, long count, const char *at)
{
    size_t run = e->used - from;
    if (run * (size_t)(count - 1) > KB_LAYOUT_MAX_SYMBOLS - e->used)
        return fail_too_long(e, at);
    for (long i = 1; i < count; i++) {
        memcpy(e->out + e->used, e->out + from, run);
        e->used += run;
    }
    return 0;
}

/* Reads "*N" after a symbol or group at out[from, used) and writes it out N times; nothing
 * when no '*' follows (once).  group: a ')' was just read, which must be followed by one. */
static int read_repeat(expansion *e, size_t from, int group)
{
    const char *star = e->at;
    if (*e->at != '*')
        return group ? fail(e, star, "a group '(...)' without its repeat '*N'") : 0;
    e->at++;
    long count = 0;
    if (!isdigit((unsigned char)*e->at))
        return fail(e, star, "'*' without a count");
    while (isdigit((unsigned char)*e->at)) {
        count = count * 10 + (*e->at++ - '0');
        if (count > LAYOUT_MAX_REPEAT)
            return fail(e, star, "a repeat above " LAYOUT_TEXT(LAYOUT_MAX_REPEAT));
    }
    if (count < 1)
        return fail(e, star, "a repeat of 0");
    return repeat(e, from, count, star);
}

/* Writes out the layout from e->at up to the end, or to the ')' closing a group at depth. */
static int expand(expansion *e, int depth)
{
    while (*e->at && *e->at != ')') {
        const char *c = e->at;
        size_t from = e->used;
        if (*c == ',') {
            e->at++;
            continue;
        }
        if (*c == '(') {
            if (depth >= LAYOUT_MAX_DEPTH)
                return fail(e, c, "parentheses nested more than " LAYOUT_TEXT(LAYOUT_MAX_DEPTH)
                                  " deep");
            e->at++;
            if (expand(e, depth + 1) != 0)
                return -1;
            if (*e->at != ')')
                return fail(e, c, "a '(' never closed");
            e->at++;
            if (read_repeat(e, from, 1) != 0)
                return -1;
            continue;
        }
        if (!strchr("EtmL|", *c))
            return fail_symbol(e, c);
        if (e->used >= KB_LAYOUT_MAX_SYMBOLS)
            return fail_too_long(e, c);
        e->out[e->used++] = *c;
        e->at++;
        if (*c != '|' && read_repeat(e, from, 0) != 0)
            return -1;
    }
    if (*e->at == ')' && depth == 0)
        return fail(e, e->at, "a ')' without its '('");
    return 0;
}

/* The problem of stage n (from 1), in e->why. */
static int fail_stage(expansion *e, int n, const char *problem)
{
    if (e->why && e->whysz)
        snprintf(e->why, e->whysz, "%s (stage %d)", problem, n);
    return -1;
}

static int stage_empty(const kb_layout_stage *s)
{
    return !(s->embedding + s->layers + s->mtp + s->loss);
}

/* Counts the expanded symbols of e into out's stages, checking where E and L stand. */
static int count_stages(expansion *e, kb_layout *out)
{
    int stages = 1, layers = 0;
    memset(&out->stage[0], 0, sizeof out->stage[0]);
    for (size_t i = 0; i < e->used; i++) {
        char c = e->out[i];
        kb_layout_stage *s = &out->stage[stages - 1];
        if (c == '|') {
            if (stage_empty(s))
                return fail_stage(e, stages, "an empty stage");
            if (stages == KB_LAYOUT_MAX_STAGES)
                return fail_stage(e, stages + 1, "more stages than the "
                                  LAYOUT_MAX_STAGES_TEXT " a layout may name");
            memset(&out->stage[stages++], 0, sizeof out->stage[0]);
            continue;
        }
        if (s->loss)
            return fail_stage(e, stages, "a symbol after L (the loss ends the last stage)");
        if (c == 'E' && (stages > 1 || !stage_empty(s)))
            return fail_stage(e, stages, "E (the embedding) not at the start of the first stage");
        s->embedding += c == 'E';
        s->layers += c == 't';
        s->mtp += c == 'm';
        s->loss += c == 'L';
        layers += c == 't';
    }
    if (stage_empty(&out->stage[stages - 1]))
        return fail_stage(e, stages, "an empty stage");
    for (int i = 0; i < stages - 1; i++)
        if (out->stage[i].loss)
            return fail_stage(e, i + 1, "L (the loss) before the last stage");
    out->stages = stages;
    if (layers > 0)
        return 0;
    if (e->why && e->whysz)
        snprintf(e->why, e->whysz, "no transformer layer (t) in any stage");
    return -1;
}

int kb_layout_parse(const char *text, kb_layout *out, char *why, size_t whysz)
{
    expansion *e = gw_xcalloc(1, sizeof *e);
    kb_layout *scratch = out ? NULL : gw_xcalloc(1, sizeof *scratch);
    e->text = e->at = text ? text : "";
    e->why = why;
    e->whysz = whysz;
    int rc = *e->text ? expand(e, 0) : fail(e, e->text, "an empty layout");
    if (rc == 0)
        rc = count_stages(e, out ? out : scratch);
    free(scratch);
    free(e);
    return rc;
}

void kb_layout_fold(const kb_layout *l, int pp, kb_layout_stage *out)
{
    if (pp < 1)
        pp = 1;
    memset(out, 0, (size_t)pp * sizeof *out);
    for (int i = 0; i < l->stages; i++) {
        kb_layout_stage *s = &out[i % pp];
        s->embedding += l->stage[i].embedding;
        s->layers += l->stage[i].layers;
        s->mtp += l->stage[i].mtp;
        s->loss += l->stage[i].loss;
    }
}
