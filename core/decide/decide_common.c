/* decide_common.c — the helpers every stage of a decision uses: the trace, citations, medians,
 * finding a GPU or system, the list of options and of what was left out, and the
 * recommendation.  It calls no stage: the stages (decide_*.c) and the pipeline (decide.c) sit
 * above it. */
#include "decide_common.h"
#include "base/check.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void decide_trace(decision *d, const char *fmt, ...)
{
    if (!d->trace)   /* not asked for (a report does not print it) */
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *line = gw_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(line, (size_t)n + 1, fmt, ap);
    va_end(ap);
    view_list_push(d->trace, view_string(line));
    free(line);
}

int decide_cite(decision *d, const char *source)
{
    if (!source || !*source)
        return 0;
    for (size_t i = 0; i < d->n_cites; i++)
        if (!strcmp(d->cite_ids[i], source))
            return (int)i + 1;
    d->cite_ids = gw_xrealloc(d->cite_ids, (d->n_cites + 1) * sizeof *d->cite_ids);
    d->cite_ids[d->n_cites++] = gw_xstrdup(source);
    return (int)d->n_cites;
}

int decide_fact_cite(decision *d, kb_assumed fact)
{
    d->fact_cite[fact] = decide_cite(d, d->facts[fact].source);
    return d->fact_cite[fact];
}

void decide_option_cite(decision *d, decide_option *o, const char *source)
{
    if (d->option_cites_dropped)
        return;
    int n = decide_cite(d, source);
    if (!n)
        return;
    for (size_t i = 0; i < o->n_cites; i++)
        if (o->cites[i] == n)
            return;
    o->cites = gw_xrealloc(o->cites, (o->n_cites + 1) * sizeof *o->cites);
    o->cites[o->n_cites++] = n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double decide_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* d->gpus is in id order (kb_gpu_list sorts by id; SQLite's BINARY order is strcmp's), so a GPU
 * is found by halving: every cloud offer looks its GPU up, and a grown KB has thousands. */
const kb_gpu *decide_gpu_find(const decision *d, const char *id)
{
    size_t lo = 0, hi = d->n_gpus;
    while (id && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(d->gpus[mid].id, id);
        if (c == 0)
            return &d->gpus[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const kb_system *decide_system_find(const decision *d, const char *id)
{
    for (size_t i = 0; id && i < d->n_systems; i++)
        if (!strcmp(d->systems[i].id, id))
            return &d->systems[i];
    return NULL;
}

int decide_gpu_sold_as_card(const kb_gpu *g)
{
    return !g->form_factor || !*g->form_factor || !strncmp(g->form_factor, "pcie", 4);
}

int decide_gpu_is_consumer(const kb_gpu *g)
{
    return g->name && (!strncmp(g->name, "GeForce", 7) || strstr(g->name, "TITAN"));
}

int decide_gpu_is_workstation(const kb_gpu *g)
{
    return g->name && (!strncmp(g->name, "Quadro", 6) || !strncmp(g->name, "NVIDIA RTX ", 11));
}

/* ---- the list of options ---- */

decide_option *decide_option_new(decision *d, const kb_gpu *g, int count, decide_acquisition a)
{
    if (d->n_options == d->cap_options) {
        d->cap_options = d->cap_options ? d->cap_options * 2 : 32;
        d->options = gw_xrealloc(d->options, d->cap_options * sizeof *d->options);
    }
    decide_option *o = &d->options[d->n_options++];
    memset(o, 0, sizeof *o);
    o->gpu = g;
    o->count = count;
    o->acquisition = a;
    o->consumer = decide_gpu_is_consumer(g);
    o->throughput = o->per_unit = o->score = NAN;
    o->gpu_fraction = 1;
    o->min_billing_hours = NAN;
    o->long_billing_after_hours = o->long_billing_hours = NAN;
    o->hosts = 1;
    o->network_gbps = NAN;
    o->price_age_days = NAN;
    o->tpot_ms = o->ttft_ms = o->step_ms = o->capacity = NAN;   /* a language model served (decide_llm.c) */
    o->floor_ms = NAN;
    o->capacity_lo = o->capacity_hi = NAN;
    return o;
}

void decide_omit(decision *d, const kb_gpu *gpu, const char *name, const char *offer,
                 const char *reason)
{
    const char *id = gpu ? gpu->id : NULL;
    for (size_t i = 0; i < d->n_omitted; i++) {   /* rent:X and rent:* find an offer twice */
        const decide_omission *m = &d->omitted[i];
        if (decide_text_same(m->gpu, id) && decide_text_same(m->name, name) &&
            decide_text_same(m->offer, offer) && !strcmp(m->reason, reason))
            return;
    }
    decide_omit_new(d, gpu, name, offer, reason);
}

void decide_omit_new(decision *d, const kb_gpu *gpu, const char *name, const char *offer,
                     const char *reason)
{
    const char *id = gpu ? gpu->id : NULL;
    d->omitted = gw_xrealloc(d->omitted, (d->n_omitted + 1) * sizeof *d->omitted);
    decide_omission *m = &d->omitted[d->n_omitted++];
    m->gpu = id ? gw_xstrdup(id) : NULL;
    m->name = gw_xstrdup(name ? name : id ? id : "");
    m->offer = offer ? gw_xstrdup(offer) : NULL;
    m->reason = reason;
    decide_trace(d, "not considered: %s%s%s: %s", m->name, offer ? ", " : "", offer ? offer : "",
                 reason);
}

const decide_option *decide_option_find(const decision *d, const char *id)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (!strcmp(d->options[i].id, id))
            return &d->options[i];
    return NULL;
}

int decide_has_option(const decision *d, const char *id)
{
    return decide_option_find(d, id) != NULL;
}

static size_t id_hash(const char *id)
{
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *c = (const unsigned char *)id; *c; c++)
        h = (h ^ *c) * 1099511628211u;
    return (size_t)h;
}

/* The slot of id in s: where it is, or the empty one where it would go. */
static size_t id_slot(const decide_ids *s, const char *id)
{
    size_t i = id_hash(id) & (s->cap - 1);
    while (s->slot[i] && strcmp(s->slot[i], id) != 0)
        i = (i + 1) & (s->cap - 1);
    return i;
}

int decide_ids_add(decide_ids *s, const char *id)
{
    if (2 * (s->n + 1) > s->cap) {   /* grown to twice as many slots, each id hashed again */
        decide_ids old = *s;
        s->cap = old.cap ? old.cap * 2 : 64;
        s->slot = gw_xcalloc(s->cap, sizeof *s->slot);
        for (size_t i = 0; i < old.cap; i++)
            if (old.slot[i])
                s->slot[id_slot(s, old.slot[i])] = old.slot[i];
        free(old.slot);
    }
    size_t i = id_slot(s, id);
    if (s->slot[i])
        return 0;
    s->slot[i] = gw_xstrdup(id);
    s->n++;
    return 1;
}

decide_ids decide_ids_of(const decision *d)
{
    decide_ids s = {NULL, 0, 0};
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i].id)
            decide_ids_add(&s, d->options[i].id);
    return s;
}

void decide_ids_free(decide_ids *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i]);
    free(s->slot);
}

/* Whether options may span several machines: only where every card trains its own replica
 * (data parallelism: a model split over machines is not modelled) and a measured benchmark
 * gives a step's compute time to set the network's all-reduce against. */
int decide_multi_host_ok(const decision *d)
{
    return decide_str_eq(d->w->parallelism, "data") && (d->n_bench > 0 || workload_is_llm(d->w));
}

/* ---- the ranking ---- */

const decide_option *decide_best(const decision *d)
{
    return d->n_options && d->ranked && d->ranked[0]->feasible && !d->ranked[0]->held_back
               ? d->ranked[0]
               : NULL;
}
