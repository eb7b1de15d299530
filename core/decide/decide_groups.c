/* decide_groups.c — the report's short forms of long lists: the options that fell out, grouped by
 * what put them out with a count and a few examples, and each rule's sentence once with the
 * options it was said of.  The full lists stay in the view (excluded, options[].verdicts). */
#include "decide_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A group of excluded options shows this many examples, then "and N more". */
#define EXCLUDED_EXAMPLES 3
/* A rule's sentence names at most this many options, then "and N more". */
#define RULE_NOTE_OPTIONS 6

/* What put an infeasible option out: the rule whose exclusion came first (judge in decide.c
 * shows that one's sentence), else the memory fit, else the missing speed, else a serving
 * target (a language model served), else the time. */
static const char *exclusion_reason(const decide_option *o)
{
    if (o->set_aside)
        return "set aside, out of reach of the best";
    for (size_t i = 0; i < o->n_verdicts; i++)
        if (!strcmp(o->verdicts[i].effect, "exclude"))
            return o->verdicts[i].rule;
    if (!o->fits)
        return "does not fit in memory";
    if (isnan(o->throughput))
        return "no speed result";
    if (!isnan(o->capacity) || !isnan(o->tpot_ms))
        return "misses a serving target";   /* decide_llm_target_missed */
    return "cannot finish in time";
}

static view *label_of(const decide_option *o)
{
    gw_buf l = GW_BUF_INIT;
    decide_option_label(&l, o, 0);
    view *v = view_string(buf_cstr(&l));
    buf_free(&l);
    return v;
}

/* excluded_groups: [{reason, count, examples: [{label, because}], examples_text, more,
 * has_more}], the
 * largest group first, ties in the order their reason first appears (cheapest option first). */
static view *excluded_groups_view(const decision *d)
{
    view *groups = view_list();
    size_t n = d->n_options;
    const char **reasons = gw_xcalloc(n ? n : 1, sizeof *reasons);
    size_t *counts = gw_xcalloc(n ? n : 1, sizeof *counts);
    size_t n_reasons = 0;
    for (size_t i = 0; i < n; i++) {
        if (d->ranked[i]->feasible)
            continue;
        const char *r = exclusion_reason(d->ranked[i]);
        size_t j = 0;
        while (j < n_reasons && strcmp(reasons[j], r))
            j++;
        if (j == n_reasons)
            reasons[n_reasons++] = r;
        counts[j]++;
    }
    /* Stable selection of the largest remaining group: few groups, plain beats clever. */
    for (size_t done_groups = 0; done_groups < n_reasons; done_groups++) {
        size_t best = n_reasons;
        for (size_t j = 0; j < n_reasons; j++)
            if (counts[j] && (best == n_reasons || counts[j] > counts[best]))
                best = j;
        view *g = view_list_push(groups, view_map());
        view_map_set_str(g, "reason", reasons[best]);
        view_map_set_int(g, "count", (long long)counts[best]);
        view *examples = view_map_set(g, "examples", view_list());
        gw_buf text = GW_BUF_INIT;
        for (size_t i = 0; i < n && view_len(examples) < EXCLUDED_EXAMPLES; i++) {
            const decide_option *o = d->ranked[i];
            if (o->feasible || strcmp(exclusion_reason(o), reasons[best]))
                continue;
            view *x = view_list_push(examples, view_map());
            view_map_set(x, "label", label_of(o));
            view_map_set_str(x, "because", o->excluded_because);
        }
        /* Examples that fell out for the same words say them once, after the last of them. */
        for (size_t k = 0; k < view_len(examples); k++) {
            const char *because = view_str(view_map_get(view_list_at(examples, k), "because"));
            const view *next = k + 1 < view_len(examples) ? view_list_at(examples, k + 1) : NULL;
            buf_printf(&text, "%s%s", k ? "; " : "",
                       view_str(view_map_get(view_list_at(examples, k), "label")));
            if (!next || strcmp(view_str(view_map_get(next, "because")), because))
                buf_printf(&text, " — %s", because);
        }
        size_t more = counts[best] > EXCLUDED_EXAMPLES ? counts[best] - EXCLUDED_EXAMPLES : 0;
        if (more)
            buf_printf(&text, "; and %zu more", more);
        view_map_set_str(g, "examples_text", buf_cstr(&text));
        buf_free(&text);
        view_map_set_int(g, "more", (long long)more);
        view_map_set_bool(g, "has_more", more > 0);
        counts[best] = 0;
    }
    free(reasons);
    free(counts);
    return groups;
}

static int same_verdict(const decide_verdict *a, const decide_verdict *b)
{
    return !strcmp(a->rule, b->rule) && !strcmp(a->effect, b->effect) && a->weight == b->weight &&
           !strcmp(a->because, b->because);
}

int decide_option_in_top(const decide_option *o)
{
    return o->feasible && o->rank >= 1 && o->rank <= DECIDE_TOP_OPTIONS;
}

/* Has the verdict v of the option ranked[i] been said of a top option ranked before it? */
static int said_before(const decision *d, size_t i, const decide_verdict *v)
{
    for (size_t k = 0; k < i; k++) {
        const decide_option *o = d->ranked[k];
        if (!decide_option_in_top(o))
            continue;
        for (size_t j = 0; j < o->n_verdicts; j++)
            if (same_verdict(&o->verdicts[j], v))
                return 1;
    }
    return 0;
}

/* rule_notes: [{rule, effect, weight, because, options, count}], one per distinct preference or
 * warning on the best-ranked options (in_top_five; exclusions are in excluded_groups, every
 * option's verdicts in options[].verdicts), in rank order of the first option it was said of;
 * options names those it was said of in rank order, count counts them.  The other feasible
 * options' verdicts would fill pages of the body for options nobody is asked to buy. */
static view *rule_notes_view(const decision *d)
{
    view *notes = view_list();
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (!decide_option_in_top(o))
            continue;
        for (size_t j = 0; j < o->n_verdicts; j++) {
            const decide_verdict *v = &o->verdicts[j];
            if (!strcmp(v->effect, "exclude") || said_before(d, i, v))
                continue;
            size_t count = 0;
            gw_buf names = GW_BUF_INIT;
            for (size_t k = i; k < d->n_options; k++) {
                const decide_option *p = d->ranked[k];
                int has = 0;
                for (size_t m = 0; decide_option_in_top(p) && m < p->n_verdicts && !has; m++)
                    has = same_verdict(&p->verdicts[m], v);
                if (!has)
                    continue;
                if (count < RULE_NOTE_OPTIONS) {
                    gw_buf l = GW_BUF_INIT;
                    decide_option_label(&l, p, 0);
                    buf_printf(&names, "%s%s", count ? "; " : "", buf_cstr(&l));
                    buf_free(&l);
                }
                count++;
            }
            if (count > RULE_NOTE_OPTIONS)
                buf_printf(&names, "; and %zu more", count - RULE_NOTE_OPTIONS);
            view *m = view_list_push(notes, view_map());
            view_map_set_str(m, "rule", v->rule);
            view_map_set_str(m, "effect", v->effect);
            view_map_set_num(m, "weight", v->weight);
            view_map_set_str(m, "because", v->because);
            view_map_set_str(m, "options", buf_cstr(&names));
            view_map_set_int(m, "count", (long long)count);
            buf_free(&names);
        }
    }
    return notes;
}

void decide_groups_view(view *root, const decision *d)
{
    /* The renderer adds has_excluded_groups and has_rule_notes for the template. */
    view_map_set(root, "excluded_groups", excluded_groups_view(d));
    view_map_set(root, "rule_notes", rule_notes_view(d));
}
