/* decide_infeasible.c — the words of a decision without an answer: why a module sold only in
 * servers made no option (the servers the KB prices, the instance sizes its offers sell), and,
 * where nothing is feasible, the closest option and what it lacks (decide_infeasible.h). */
#include "decide_infeasible.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "decide_llm.h"
#include "decide_rent.h"

/* ---- a module sold only in servers ---- */

/* "an SXM5 module", "an OAM module", "a superchip": what g's form factor makes it, into b. */
static void form_words(gw_buf *b, const kb_gpu *g)
{
    const char *ff = g->form_factor;
    if (!strncasecmp(ff, "sxm", 3)) {
        buf_puts(b, "an ");
        for (const char *c = ff; *c; c++)
            buf_printf(b, "%c", toupper((unsigned char)*c));
        buf_puts(b, " module");
    } else if (!strcasecmp(ff, "oam")) {
        buf_puts(b, "an OAM module");
    } else if (!strcasecmp(ff, "superchip")) {
        buf_puts(b, "a superchip");
    } else {
        buf_printf(b, "a board-mounted part (form factor %s)", ff);
    }
}

/* The purchase rows of g the workload may use (new, and used with used_ok): the GPUs of the
 * smallest priced server, and whether a price is of one module alone or of several GPUs that
 * name no server of the KB (a price row's system). */
typedef struct buy_rows {
    int server_count, module, unlinked_count;
} buy_rows;

static buy_rows buy_rows_of(const decision *d, const kb_gpu *g)
{
    buy_rows r = {0, 0, 0};
    for (size_t i = 0; i < d->n_prices; i++) {
        const kb_price *p = &d->prices[i];
        const kb_system *sys = decide_system_find(d, p->system);
        if (!decide_str_eq(p->gpu, g->id) ||
            !(decide_str_eq(p->kind, "new") || (d->w->used_ok && decide_str_eq(p->kind, "used"))))
            continue;
        if (sys && sys->gpu_count >= 1 && (!r.server_count || sys->gpu_count < r.server_count))
            r.server_count = (int)sys->gpu_count;
        else if (!sys && p->gpu_count > 1)
            r.unlinked_count = (int)p->gpu_count;
        else if (!sys)
            r.module = 1;
    }
    return r;
}

/* How g is sold (the KB's systems of it, else a 4- or 8-GPU board in a server) and what buying
 * it means with the KB's prices, into b. */
static void buy_words(gw_buf *b, const decision *d, const kb_gpu *g)
{
    buy_rows r = buy_rows_of(d, g);
    int n = 0;
    for (size_t s = 0; s < d->n_systems; s++) {   /* by size: "of 8 (dgx-h100, hgx-...)" */
        const kb_system *sys = &d->systems[s];
        size_t first = 0;
        while (first < s && !(decide_str_eq(d->systems[first].gpu, g->id) &&
                              d->systems[first].gpu_count == sys->gpu_count))
            first++;
        if (!decide_str_eq(sys->gpu, g->id) || !(sys->gpu_count >= 1) || first < s)
            continue;
        buf_printf(b, "%s%g (", n++ ? ", " : ", sold in whole systems of ", sys->gpu_count);
        for (size_t t = s, said = 0; t < d->n_systems; t++)
            if (decide_str_eq(d->systems[t].gpu, g->id) &&
                d->systems[t].gpu_count == sys->gpu_count)
                buf_printf(b, "%s%s", said++ ? ", " : "", d->systems[t].id);
        buf_puts(b, ")");
    }
    if (!n)
        buf_puts(b, ", sold on a 4- or 8-GPU board inside a server");
    buf_puts(b, ", never alone, and ");
    if (r.server_count) {
        /* the counts add_system_counts (decide_options.c) makes: 1, 2, 4 ... servers */
        buf_printf(b, "the KB prices it as whole servers of %d: buy it as ", r.server_count);
        for (int n_servers = 1; n_servers <= DECIDE_MAX_HOSTS; n_servers *= 2)
            buf_printf(b, "%s%dx", n_servers == 1 ? "" : n_servers * 2 > DECIDE_MAX_HOSTS ? " or "
                                                                                         : ", ",
                       n_servers * r.server_count);
        buf_puts(b, " (whole servers)");
        return;
    }
    buf_puts(b, "the KB prices no server of it");
    if (r.module && r.unlinked_count)
        buf_printf(b, " (a price of one module alone, and one of %d that names no server of "
                      "systems.csv: neither is an option)",
                   r.unlinked_count);
    else if (r.module)
        buf_puts(b, " (a price of one module alone: not an option)");
    else if (r.unlinked_count)
        buf_printf(b, " (a price of %d that names no server of systems.csv: not an option)",
                   r.unlinked_count);
}

static int cmp_text(const void *a, const void *b)
{
    return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* The providers in rows[from..to), each once, by name, into b: "AWS, CoreWeave". */
static void provider_names(gw_buf *b, const kb_price *rows, size_t from, size_t to)
{
    const char **names = gw_xcalloc(to - from ? to - from : 1, sizeof *names);
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        const char *p = rows[i].provider && *rows[i].provider ? rows[i].provider : rows[i].source;
        size_t j = 0;
        while (j < n && strcasecmp(names[j], p))
            j++;
        if (j == n)
            names[n++] = p;
    }
    qsort(names, n, sizeof *names, cmp_text);
    for (size_t i = 0; i < n; i++)
        buf_printf(b, "%s%s", i ? ", " : "", names[i]);
    free(names);
}

/* The instance sizes g's cloud offers sell (whole GPUs; spot offers with spot_ok), with their
 * providers, and a candidate to write (the smallest size of at least the count asked, else the
 * largest), into b: "[rent it as 1x or 8x: ]the KB's offers sell it in ..." (the sizes first
 * with say_sizes), or "the KB has no cloud offer of it". */
static int rent_words(gw_buf *b, const decision *d, const kb_gpu *g, int asked, int say_sizes,
                      gw_error *err)
{
    kb_price *rows[2] = {NULL, NULL};
    size_t n[2] = {0, 0}, total;
    int spots = d->w->spot_ok ? 2 : 1;
    for (int spot = 0; spot < spots; spot++) {
        /* every row of a GPU: a catalogue of hundreds is read in well under a second */
        int rc = kb_cloud_rows(d->k, g->id, spot, 100000, &rows[spot], &n[spot], &total, err);
        if (rc != GW_OK) {
            kb_prices_free(rows[0], n[0]);
            return rc;
        }
    }
    /* one list, by instance size (each call's rows are by gpu_count already) */
    size_t all = n[0] + n[1], kept = 0;
    kb_price *r = gw_xcalloc(all ? all : 1, sizeof *r);
    for (int spot = 0; spot < 2; spot++)
        for (size_t i = 0; i < n[spot]; i++)
            if (!(rows[spot][i].gpu_fraction > 0 && rows[spot][i].gpu_fraction < 1))
                r[kept++] = rows[spot][i];   /* a MIG slice is not the module */
    for (size_t i = 1; i < kept; i++)   /* insertion: stable, and short */
        for (size_t j = i; j > 0 && r[j - 1].gpu_count > r[j].gpu_count; j--) {
            kb_price t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    if (!kept) {
        buf_puts(b, "the KB has no cloud offer of it");
    } else {
        gw_buf sizes = GW_BUF_INIT, who = GW_BUF_INIT;
        size_t groups = 0;
        double suggest = 0;
        for (size_t i = 0, j; i < kept; i = j) {
            for (j = i + 1; j < kept && r[j].gpu_count == r[i].gpu_count; j++)
                ;
            groups++;
            if (!suggest && r[i].gpu_count >= asked)
                suggest = r[i].gpu_count;
            int last = j == kept;
            buf_printf(&sizes, "%s%gx", groups == 1 ? "" : last ? " or " : ", ", r[i].gpu_count);
            buf_printf(&who, "%s%g-GPU (", groups == 1 ? "" : last ? " and " : ", ",
                       r[i].gpu_count);
            provider_names(&who, r, i, j);
            buf_puts(&who, ")");
        }
        if (say_sizes)
            buf_printf(b, "rent it as %s: ", buf_cstr(&sizes));
        buf_printf(b, "the KB's offers sell it in %s instances (\"rent:%gx %s\")", buf_cstr(&who),
                   suggest ? suggest : r[kept - 1].gpu_count, g->id);
        buf_free(&sizes);
        buf_free(&who);
    }
    free(r);
    kb_prices_free(rows[0], n[0]);
    kb_prices_free(rows[1], n[1]);
    return GW_OK;
}

int decide_count_unmade_error(const decision *d, const kb_gpu *g, int count,
                              const decide_count_unmade *why, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    size_t n = why->n_counts;
    buf_printf(&b, "no cloud offer makes %d GPUs of %s: its offers have ", count, g->id);
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%d", !i ? "" : i == n - 1 ? " or " : ", ", why->counts[i]);
    buf_printf(&b, " GPU%s an instance (%d GPUs are one instance of %d, or several instances of "
                   "a count that divides %d, up to %d GPUs in all)",
               n == 1 && why->counts[0] == 1 ? "" : "s", count, count, count,
               DECIDE_RENT_MAX_GPUS);
    if (why->spot_only)
        buf_puts(&b, "; the offers that would make it are spot offers (set spot_ok)");
    if (why->smaller && !why->several_ok)
        buf_puts(&b, "; several instances are rented only for a job that may span machines "
                     "(parallelism = \"data\") or to serve a language model");
    else if (why->smaller)
        buf_puts(&b, "; several smaller instances need the network between them, which their "
                     "offers do not state (network_gbps)");
    int rc = GW_OK;
    if (!decide_gpu_sold_as_card(g)) {   /* a part on a board: who sells what */
        buf_printf(&b, "; %s is ", g->id);
        form_words(&b, g);
        buf_puts(&b, ", rented in the instances its servers make: ");
        rc = rent_words(&b, d, g, count, 0, err);
    }
    if (rc == GW_OK)
        rc = gw_error_set(err, GW_EDATA, "%s", buf_cstr(&b));
    buf_free(&b);
    return rc;
}

int decide_no_option_error(decision *d, gw_error *err)
{
    const workload *w = d->w;
    for (size_t i = 0; w->candidates && i < w->n_candidates; i++) {
        const char *c = w->candidates[i];
        char *id = NULL;
        int count = 1;
        gw_error unknown = {0};
        if (!strncmp(c, "rent:", 5) || kb_gpu_resolve(d->k, c, &id, &count, &unknown) != GW_OK)
            continue;
        const kb_gpu *g = decide_gpu_find(d, id);
        free(id);
        if (!g || decide_gpu_sold_as_card(g))
            continue;
        gw_buf b = GW_BUF_INIT;
        buf_printf(&b, "%s: candidates[%zu] (%s): no option to buy: %s is ", w->path, i + 1, c,
                   g->id);
        form_words(&b, g);
        buy_words(&b, d, g);
        buf_puts(&b, "; ");
        int rc = rent_words(&b, d, g, count, 1, err);
        if (rc == GW_OK)
            rc = gw_error_set(err, GW_EDATA, "%s", buf_cstr(&b));
        buf_free(&b);
        return rc;
    }
    return gw_error_set(err, GW_EDATA,
                        "%s: no option to consider: the KB has no purchase or cloud price for "
                        "the candidates%s",
                        w->path, w->used_ok ? "" : " (used prices need used_ok = true)");
}

/* ---- the closest option ---- */

/* What an infeasible option falls short of, each measured as need over what it has. */
typedef enum { SHORT_MEMORY, SHORT_TIME, SHORT_TARGET, SHORT_BUDGET, SHORT_KINDS } short_kind;
static const char *const short_names[SHORT_KINDS] = {"memory", "time", "serving target",
                                                     "budget"};

/* The shipped rules whose exclusion one of the option's figures measures; any other rule's
 * exclusion (production, a licence, a user's rule) is a reason no figure measures. */
static const struct {
    const char *rule;
    short_kind kind;
} measured_rules[] = {
    {"memory-fit", SHORT_MEMORY}, {"budget", SHORT_BUDGET}, {"serving-bandwidth", SHORT_TARGET},
};

/* A figure, whole where it is whole: "24", "85.5", "2,400". */
static void figure(gw_buf *b, double x)
{
    view_format_number(b, x, x == floor(x) ? 0 : 1);
}

/* The serving target o misses the most, as need over what it has (0: none), in words. */
static double target_short(const decision *d, const decide_option *o, gw_buf *words)
{
    const workload *w = d->w;
    double tpot = o->tpot_ms / w->target_tpot_ms, ttft = o->ttft_ms / w->target_ttft_ms;
    double tokens = w->target_tokens_per_s / o->capacity;
    double worst = 0;
    if (d->llm_setup.task != MODEL_INFERENCE || isnan(o->throughput))
        return 0;
    if (tpot > 1 && tpot > worst) {
        worst = tpot;
        buf_printf(words, "takes %.1f ms per output token against a %g ms target", o->tpot_ms,
                   w->target_tpot_ms);
    }
    if (ttft > 1 && ttft > worst) {
        worst = ttft;
        buf_reset(words);
        buf_puts(words, "takes ");
        figure(words, round(o->ttft_ms));
        buf_printf(words, " ms to the first token against a %g ms target", w->target_ttft_ms);
    }
    if (tokens > 1 && tokens > worst) {
        worst = tokens;
        buf_reset(words);
        buf_puts(words, "makes ");
        figure(words, round(o->capacity));
        buf_puts(words, " tokens/s in all against the ");
        figure(words, w->target_tokens_per_s);
        buf_puts(words, " asked");
    }
    return worst;
}

/* How far o falls short of kind k, need over what it has (0: it does not), in words. */
static double short_of(const decision *d, const decide_option *o, short_kind k, gw_buf *words)
{
    const workload *w = d->w;
    buf_reset(words);
    if (k == SHORT_MEMORY && !o->fits && decide_option_memory_gb(o) > 0) {
        buf_printf(words, "needs %.1f GB per GPU and has ", o->per_card_gb);
        figure(words, decide_option_memory_gb(o));
        return o->per_card_gb / decide_option_memory_gb(o);
    }
    if (k == SHORT_TIME && o->hours_needed > o->hours_available && o->hours_available > 0) {
        buf_puts(words, "needs ");
        figure(words, round(o->hours_needed));
        buf_puts(words, " h of running and has ");
        figure(words, round(o->hours_available));
        return o->hours_needed / o->hours_available;
    }
    if (k == SHORT_TARGET)
        return target_short(d, o, words);
    if (k == SHORT_BUDGET && w->budget > 0 && o->committed > w->budget) {
        const char *basis = w->budget_basis ? w->budget_basis : "upfront";
        buf_puts(words, "costs ");
        units_format_money(words, o->committed, w->currency, 0);
        buf_puts(words, " against a budget of ");
        units_format_money(words, w->budget, w->currency, 0);
        buf_puts(words, !strcmp(basis, "total")     ? " for the whole horizon"
                        : !strcmp(basis, "monthly") ? " a month"
                                                    : " up front");
        return o->committed / w->budget;
    }
    return 0;
}

typedef struct shortfall {
    const decide_option *o;
    double ratio[SHORT_KINDS];   /* need over what it has where it falls short, else 0 */
    double worst;                /* the largest; INFINITY: out for a reason no figure measures */
    short_kind kind;             /* the worst's kind; SHORT_KINDS when none measures it */
} shortfall;

/* Whether o's exclusion by a rule is one its figures measure (a ratio of the rule's kind). */
static int verdict_measured(const decide_verdict *v, const shortfall *s)
{
    for (size_t i = 0; i < sizeof measured_rules / sizeof *measured_rules; i++)
        if (decide_str_eq(v->rule, measured_rules[i].rule))
            return s->ratio[measured_rules[i].kind] > 1;
    return 0;
}

static shortfall shortfall_of(const decision *d, const decide_option *o)
{
    shortfall s = {o, {0}, 0, SHORT_KINDS};
    gw_buf ignored = GW_BUF_INIT;
    for (int k = 0; k < SHORT_KINDS; k++) {
        s.ratio[k] = short_of(d, o, (short_kind)k, &ignored);
        if (s.ratio[k] > s.worst)
            s.worst = s.ratio[k], s.kind = (short_kind)k;
    }
    buf_free(&ignored);
    int unmeasured = !(s.worst > 1) || (o->fits && isnan(o->throughput));
    for (size_t i = 0; i < o->n_verdicts; i++)
        unmeasured |= !strcmp(o->verdicts[i].effect, "exclude") &&
                      !verdict_measured(&o->verdicts[i], &s);
    if (unmeasured)
        s.worst = INFINITY, s.kind = SHORT_KINDS;
    return s;
}

/* The closest infeasible option, then the closest of each other kind of shortfall, into out
 * (SHORT_KINDS + 1 at most); the count.  Ties go to the better ranked (cheaper per unit). */
static size_t closest(const decision *d, shortfall *out)
{
    shortfall best = {NULL, {0}, INFINITY, SHORT_KINDS}, by_kind[SHORT_KINDS];
    for (int k = 0; k < SHORT_KINDS; k++)
        by_kind[k] = best;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (o->feasible)
            continue;
        shortfall s = shortfall_of(d, o);
        if (!best.o || s.worst < best.worst)
            best = s;
        if (s.kind < SHORT_KINDS && (!by_kind[s.kind].o || s.worst < by_kind[s.kind].worst))
            by_kind[s.kind] = s;
    }
    size_t n = 0;
    if (best.o)
        out[n++] = best;
    for (int k = 0; k < SHORT_KINDS && best.o; k++)
        if (by_kind[k].o && k != (int)best.kind)
            out[n++] = by_kind[k];
    return n;
}

/* What s's option lacks: each measured shortfall with its ratio, or its exclusion. */
static void lacks_words(gw_buf *b, const decision *d, const shortfall *s)
{
    if (s->kind == SHORT_KINDS) {
        buf_printf(b, "is excluded: %s", s->o->excluded_because ? s->o->excluded_because : "");
        return;
    }
    gw_buf words = GW_BUF_INIT;
    int said = 0;
    for (int k = 0; k < SHORT_KINDS; k++) {
        if (!(s->ratio[k] > 1))
            continue;
        short_of(d, s->o, (short_kind)k, &words);
        buf_printf(b, "%s%s (%.2fx)", said++ ? ", and " : "", buf_cstr(&words), s->ratio[k]);
    }
    buf_free(&words);
}

static void label(gw_buf *b, const decide_option *o)
{
    decide_option_label(b, o, 1);
}

/* The feasible options when every one is held back (d recommends none): their count. */
static size_t held_back_feasible(const decision *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n_options; i++)
        n += d->options[i].feasible;
    return n;
}

/* Where nothing is recommended and the workload's activation checkpointing, which its memory
 * does not need, is what keeps an option from its deadline: the best ranked option that falls
 * short on time alone, is not held back, and would finish in time without checkpointing,
 * appended to b ("; without activation checkpointing ...").  Nothing where none would. */
static void checkpointing_hint(gw_buf *b, const decision *d)
{
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (o->feasible || o->held_back_because)
            continue;
        shortfall s = shortfall_of(d, o);
        int others = 0;
        for (int k = 0; k < SHORT_KINDS; k++)
            others |= k != SHORT_TIME && s.ratio[k] > 1;
        if (s.kind != SHORT_TIME || others)
            continue;
        double gb = 0, fewer = decide_llm_checkpointing_unneeded(d, o, &gb);
        double faster = fewer > 0 ? decide_llm_train_speedup(d, o, fewer) : 0;
        if (!(faster > 0) || o->hours_needed / faster > o->hours_available)
            continue;
        buf_puts(b, "; the workload's activation checkpointing is what keeps ");
        label(b, o);
        buf_puts(b, " from the deadline: without it (activation_checkpointing = false; the model "
                    "puts its memory at ");
        figure(b, round(gb * 10) / 10);
        buf_puts(b, " GB per GPU of ");
        figure(b, decide_option_memory_gb(o));
        buf_printf(b, ": check it with a short run) a token computes %.0f%% fewer FLOPs, the "
                      "forward pass no longer recomputed, so at the same utilisation, its "
                      "data-parallel exchange unchanged, it would train %.2f times as fast and "
                      "finish in about ", (1 - 1 / fewer) * 100, faster);
        figure(b, round(o->hours_needed / faster));
        buf_puts(b, " h of the ");
        figure(b, round(o->hours_available));
        buf_puts(b, " available, for about ");
        units_format_money(b, o->committed / faster, d->w->currency, 0);
        return;
    }
}

char *decide_no_recommendation_text(const decision *d, int *none_feasible)
{
    *none_feasible = 0;
    if (decide_best(d) || !d->n_options)
        return NULL;
    gw_buf b = GW_BUF_INIT;
    size_t held = held_back_feasible(d);
    *none_feasible = !held;
    if (held) {
        const decide_option *o = d->ranked[0];   /* the best ranked of them */
        buf_printf(&b, "no option is recommended: the %zu feasible option%s %s held back; the "
                       "best ranked, ",
                   held, held == 1 ? "" : "s", held == 1 ? "is" : "are");
        label(&b, o);
        if (o->committed > 0) {   /* the sum an approver would be asked for, once re-quoted */
            buf_puts(&b, ", ");
            units_format_money(&b, o->committed, d->w->currency, 0);
            buf_puts(&b, " committed at that price");
        }
        buf_printf(&b, ", is held back: %s", o->held_back_because ? o->held_back_because : "");
        checkpointing_hint(&b, d);
        return buf_detach(&b);
    }
    shortfall picks[SHORT_KINDS + 1];
    size_t n = closest(d, picks);
    buf_puts(&b, "no option is feasible");
    for (size_t i = 0; i < n; i++) {
        if (i == 0)
            buf_puts(&b, ": the closest, ");
        else
            buf_printf(&b, "; the closest on %s, ", short_names[picks[i].kind]);
        label(&b, picks[i].o);
        buf_puts(&b, ", ");
        lacks_words(&b, d, &picks[i]);
    }
    checkpointing_hint(&b, d);
    return buf_detach(&b);
}

view *decide_no_recommendation_view(const decision *d)
{
    int none_feasible;
    char *text = decide_no_recommendation_text(d, &none_feasible);
    if (!text)
        return view_null();
    view *v = view_map();
    int held = !none_feasible;
    view_map_set_str(v, "why", held ? "held_back" : "infeasible");
    view_map_set_bool(v, "infeasible", !held);
    view_map_set_str(v, "text", text);
    /* the document's words: "No option is feasible" and "The closest, X, needs ..." */
    const char *colon = strstr(text, ": ");
    size_t head = colon ? (size_t)(colon - text) : strlen(text);
    view_map_set(v, "headline", view_stringf("%c%.*s", toupper((unsigned char)text[0]),
                                             (int)head - 1, text + 1));
    view_map_set(v, "detail", colon ? view_stringf("%c%s", toupper((unsigned char)colon[2]),
                                                   colon + 3)
                                    : view_null());
    free(text);
    view *list = view_map_set(v, "closest", view_list());
    shortfall picks[SHORT_KINDS + 1];
    size_t n = held ? 0 : closest(d, picks);
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        view *c = view_list_push(list, view_map());
        view_map_set_str(c, "option", picks[i].o->id);
        buf_reset(&b);
        label(&b, picks[i].o);
        view_map_set_str(c, "label", buf_cstr(&b));
        int measured = picks[i].kind < SHORT_KINDS;
        view_map_set(c, "short_of",
                     measured ? view_string(short_names[picks[i].kind]) : view_null());
        view_map_set(c, "shortfall", measured ? view_number(picks[i].worst) : view_null());
        buf_reset(&b);
        lacks_words(&b, d, &picks[i]);
        view_map_set_str(c, "lacks", buf_cstr(&b));
    }
    buf_free(&b);
    return v;
}
