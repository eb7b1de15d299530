/* decide_robust.c — whether the recommendation survives its own uncertainty, after the ranking:
 * each option's cost per unit at the favourable and unfavourable corners of its price range and
 * speed band, seeded draws within them (the share of draws each option is cheapest in, the
 * recommendation's expected regret), and on a close call the best-evidenced option inside the
 * uncertainty recommended instead.  Every cost is the cost stage's own (decide_option_cost). */
#include "decide_robust.h"
#include "decide_demand.h"
#include "base/check.h"
#include "base/limits.h"
#include "base/units.h"
#include "decide_cost.h"
#include "decide_fields.h"
#include "decide_llm_accuracy.h"
#include "decide_options.h"
#include "decide_speed.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct decide_robust {
    size_t n;                         /* options compared: feasible, not held back */
    size_t n_ranged;                  /* of them, with a price range or speed band */
    const decide_option *cheapest;    /* ranked first at the plan's figures */
    const decide_option *recommended; /* after a close call's pick */
    double regret, regret_share;      /* the recommendation's, mean over the draws it meets
                                       * the targets in */
    double misses_deadline_share;     /* a job: the recommendation's draws past its deadline */
    double misses_targets_share;      /* served: its draws below the demand or past the time
                                       * per token */
    double no_winner_share;           /* draws in which no option meets the targets */
    double miss_fallback;             /* the mean cost per unit of the winners of the draws the
                                       * recommendation misses its targets in; NaN none */
    int close_call;
    int capacity_risk;                /* a close call the recommendation loses only in the
                                       * draws it misses its targets in: cheapest in all others */
    const decide_option **close;      /* inside the uncertainty, best evidenced first */
    size_t n_close;
    char *because;
};

/* ---- evidence ---- */


/* ---- the corners ---- */

/* The range a figure is drawn in: low..high as the stage set them, widened to hold the figure
 * used (a range not set, NaN, is the figure alone). */
static void range_of(double value, double lo, double hi, double *from, double *to)
{
    *from = isnan(lo) ? value : fmin(lo, value);
    *to = isnan(hi) ? value : fmax(hi, value);
}

void decide_option_corners(decision *d, decide_option *o)
{
    o->per_unit_lo = o->per_unit_hi = NAN;
    o->p_best = NAN;
    if (isnan(o->per_unit) || isnan(o->throughput))
        return;
    double p_lo, p_hi, t_lo, t_hi;
    range_of(o->unit_price, o->price_lo, o->price_hi, &p_lo, &p_hi);
    range_of(o->throughput, o->throughput_lo, o->throughput_hi, &t_lo, &t_hi);
    decide_option at;
    decide_option_costed_at(d, o, p_lo, t_hi, &at);
    o->per_unit_lo = at.per_unit;
    decide_option_costed_at(d, o, p_hi, t_lo, &at);
    o->per_unit_hi = at.per_unit;
}

/* ---- the draws ---- */

/* splitmix64: small, fast, and the same sequence on every platform. */
#define SPLITMIX_STEP 0x9E3779B97F4A7C15ull
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += SPLITMIX_STEP);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *state)
{
    return (double)(next_random(state) >> 11) * 0x1.0p-53;
}

/* One compared option, with what its draws need. */
typedef struct compared {
    decide_option *o;
    size_t speed_group, price_group;   /* one draw for each GPU model, each price list */
    double p_lo, p_hi, t_lo, t_hi;
    double c_lo, c_hi;                 /* served: its capacity's band (else NaN) */
    double adjustment;                 /* the rules' factor on its cost per unit */
    int drawn;                         /* 0: its lower bound shows it wins no draw (skipped) */
    size_t wins;
    size_t past_deadline;              /* a job: draws whose speed misses the deadline */
    size_t missed;                     /* draws in which it misses any target (deadline too) */
    double regret, regret_share;       /* summed over the draws in which it meets them */
    double fallback;                   /* summed over the draws it misses them in that another
                                        * option wins: that winner's cost per unit */
    size_t fallback_n;
} compared;

static int same_price_list(const decide_option *a, const decide_option *b)
{
    return a->gpu == b->gpu && a->acquisition == b->acquisition &&
           decide_text_same(a->provider, b->provider);
}

/* The options compared, in rank order (a tie goes to the better-ranked), with their groups. */
static size_t compared_options(decision *d, compared **out, size_t *n_speed, size_t *n_price)
{
    compared *c = gw_xcalloc(d->n_options ? d->n_options : 1, sizeof *c);
    size_t n = 0;
    *n_speed = *n_price = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = d->ranked[i];
        /* an option out of reach (decide.c), judged or set aside, can win no draw: left out,
         * so that the draws are the same whether or not the rules judged it */
        if (!o->feasible || o->held_back || isnan(o->score) || o->out_of_reach)
            continue;
        compared *x = &c[n];
        x->o = o;
        x->speed_group = x->price_group = SIZE_MAX;
        for (size_t j = 0; j < n; j++) {
            if (c[j].o->gpu == o->gpu && x->speed_group == SIZE_MAX)
                x->speed_group = c[j].speed_group;
            if (same_price_list(c[j].o, o) && x->price_group == SIZE_MAX)
                x->price_group = c[j].price_group;
        }
        if (x->speed_group == SIZE_MAX)
            x->speed_group = (*n_speed)++;
        if (x->price_group == SIZE_MAX)
            x->price_group = (*n_price)++;
        range_of(o->unit_price, o->price_lo, o->price_hi, &x->p_lo, &x->p_hi);
        range_of(o->throughput, o->throughput_lo, o->throughput_hi, &x->t_lo, &x->t_hi);
        x->c_lo = x->c_hi = NAN;
        if (!isnan(o->capacity))
            range_of(o->capacity, o->capacity_lo, o->capacity_hi, &x->c_lo, &x->c_hi);
        x->adjustment = decide_rules_adjustment(o);
        n++;
    }
    *out = c;
    return n;
}

/* One option's figures in one draw (u_speed, u_price: where in its ranges, 0 to 1): its score,
 * and whether it meets the workload's targets.  A served option draws its capacity in its band
 * and serves the demand, if one is stated, or its capacity; below the demand, or with its time
 * per output token (in inverse proportion to the capacity: both are one decode step's) past the
 * target, it misses them in that draw; under an arrival rate the capacity is already the most
 * load it carries within that target, so below the demand alone.  A job's hours follow its drawn speed: more hours than
 * the deadline leaves (hours_available) miss it in that draw (*past_deadline set).  at is a
 * shallow copy of the option made once for every draw (a copy a draw was a quarter of the
 * draws' cost), costed again at the drawn figures: decide_option_cost_figures writes all it
 * reads anew. */
static double draw_score(decision *d, const compared *x, double u_speed, double u_price,
                         decide_option *at, int *meets, int *past_deadline)
{
    double price = x->p_lo + u_price * (x->p_hi - x->p_lo);
    double speed = x->t_lo + u_speed * (x->t_hi - x->t_lo);
    *meets = 1;
    if (!isnan(x->c_lo)) {
        double capacity = x->c_lo + u_speed * (x->c_hi - x->c_lo);
        double demand = d->w->target_tokens_per_s, target = d->w->target_tpot_ms;
        double tpot = x->o->tpot_ms * x->o->capacity / capacity;
        if (d->w->serve_arrival_rate > 0)   /* its capacity is the load it carries within the
                                             * target (both band ends solved): that alone */
            tpot = NAN;
        *meets = !(capacity < demand) && !(tpot > target);   /* NaN: no such target */
        speed = decide_demand_served(d, capacity);
    }
    at->unit_price = price;
    at->throughput = speed;
    decide_option_cost_figures(d, at);
    *past_deadline = at->hours_needed > at->hours_available;   /* NaN: not a job */
    *meets = *meets && !*past_deadline;
    return at->per_unit * x->adjustment;
}

/* 1 when the option's cost per unit is monotone in its drawn price and speed, as the bound
 * needs: not served (a served option's speed is its drawn capacity's share of the demand), and
 * a job (work fixed: cost per unit is the bill for it) or capacity for every hour (hours fixed:
 * cost per hour over speed).  Anything else is always drawn. */
static int bounded(const decision *d, const compared *x)
{
    return isnan(x->c_lo) && (workload_is_job(d->w) || isnan(x->o->hours_needed));
}

/* The bound that spares the draws an option that cannot win one.  An option's cost per unit
 * rises with its price and falls with its speed, so in every draw it costs at least its
 * favourable corner's (low price, high speed) and at most its unfavourable one's (where
 * bounded says so).  A bounded option that finishes in time even at its low speed meets the
 * targets in every draw: the least unfavourable corner of those (x the rules' adjustment) is a
 * cost some option beats or equals in every draw.  An option whose favourable corner is above
 * it (by more than rounding) wins no draw: it is not drawn (p_best 0, as drawn), unless
 * GPUWISE_DECIDE_FULL is 1.  Returns how many are drawn. */
static size_t mark_drawn(decision *d, compared *c, size_t n)
{
    double full = 0, ceiling = INFINITY;
    gw_env_number(GW_ENV_DECIDE_FULL, &full, NULL);
    for (size_t i = 0; i < n; i++) {
        c[i].drawn = 1;
        if (!bounded(d, &c[i]))
            continue;
        decide_option hi;
        decide_option_costed_at(d, c[i].o, c[i].p_hi, c[i].t_lo, &hi);
        double worst = hi.per_unit * c[i].adjustment;
        if (!(hi.hours_needed > hi.hours_available) && worst < ceiling)
            ceiling = worst;
    }
    size_t drawn = n;
    if (full == 1 || !isfinite(ceiling))
        return drawn;
    for (size_t i = 0; i < n; i++) {
        if (!bounded(d, &c[i]))
            continue;
        decide_option lo;
        decide_option_costed_at(d, c[i].o, c[i].p_lo, c[i].t_hi, &lo);
        double best = lo.per_unit * c[i].adjustment;
        if (best > ceiling * (1 + DECIDE_ROBUST_BOUND_MARGIN)) {
            c[i].drawn = 0;
            drawn--;
        }
    }
    return drawn;
}

/* The draws' random numbers: one a speed group, then one a price group, in that order, every
 * draw; a group no drawn option is in takes its number from the stream unread (splitmix64's
 * state moves by one constant a number, so skip of them are one addition). */
typedef struct draw_slot {
    double *value;
    uint64_t skip;    /* numbers passed over before this one */
} draw_slot;

/* The slots of the groups some drawn option is in, into slots (room for n_speed + n_price);
 * returns how many, and the numbers left after the last into *tail. */
static size_t draw_slots(const compared *c, size_t n, double *u_speed, size_t n_speed,
                         double *u_price, size_t n_price, draw_slot *slots, uint64_t *tail)
{
    unsigned char *used = gw_xcalloc(n_speed + n_price + 1, 1);
    for (size_t i = 0; i < n; i++)
        if (c[i].drawn)
            used[c[i].speed_group] = used[n_speed + c[i].price_group] = 1;
    size_t n_slots = 0;
    uint64_t skip = 0;
    for (size_t g = 0; g < n_speed + n_price; g++) {
        if (!used[g]) {
            skip++;
            continue;
        }
        slots[n_slots].value = g < n_speed ? &u_speed[g] : &u_price[g - n_speed];
        slots[n_slots++].skip = skip;
        skip = 0;
    }
    *tail = skip;
    free(used);
    return n_slots;
}

/* DECIDE_ROBUST_DRAWS draws: in each, the cheapest option by the figure the options are ranked
 * by (cost per unit x the rules' adjustment) among those that meet the targets in it wins, and
 * every option's regret is how much dearer it is than that (a draw none meets has no winner,
 * and no regret).  Only the drawn options are scored (mark_drawn).  Returns how many draws had
 * no winner. */
static size_t draw(decision *d, compared *c, size_t n, size_t n_speed, size_t n_price)
{
    double *u_speed = gw_xmalloc((n_speed + 1) * sizeof *u_speed);
    double *u_price = gw_xmalloc((n_price + 1) * sizeof *u_price);
    double *score = gw_xmalloc((n + 1) * sizeof *score);
    size_t *drawn = gw_xmalloc((n + 1) * sizeof *drawn), n_drawn = 0;
    decide_option *at = gw_xmalloc((n + 1) * sizeof *at);   /* shallow: never freed */
    draw_slot *slots = gw_xmalloc((n_speed + n_price + 1) * sizeof *slots);
    uint64_t tail;
    size_t n_slots = draw_slots(c, n, u_speed, n_speed, u_price, n_price, slots, &tail);
    for (size_t i = 0; i < n; i++)
        if (c[i].drawn) {
            at[i] = *c[i].o;
            drawn[n_drawn++] = i;
        }
    uint64_t state = DECIDE_ROBUST_SEED;
    size_t no_winner = 0;
    for (int k = 0; k < DECIDE_ROBUST_DRAWS; k++) {
        for (size_t j = 0; j < n_slots; j++) {
            state += slots[j].skip * SPLITMIX_STEP;
            *slots[j].value = uniform01(&state);
        }
        state += tail * SPLITMIX_STEP;
        size_t best = SIZE_MAX;
        for (size_t j = 0; j < n_drawn; j++) {
            size_t i = drawn[j];
            compared *x = &c[i];
            int meets, past_deadline;
            score[i] = draw_score(d, x, u_speed[x->speed_group], u_price[x->price_group], &at[i],
                                  &meets, &past_deadline);
            x->past_deadline += past_deadline;
            x->missed += !meets;
            if (!meets)
                score[i] = NAN;   /* no cost it could be held to: no regret in this draw */
            else if (best == SIZE_MAX || score[i] < score[best])
                best = i;
        }
        if (best == SIZE_MAX) {
            no_winner++;
            continue;
        }
        c[best].wins++;
        double winner_cost = c[best].adjustment > 0 ? score[best] / c[best].adjustment
                                                    : score[best];
        for (size_t j = 0; j < n_drawn; j++) {
            size_t i = drawn[j];
            if (isnan(score[i])) {   /* it misses the targets: what the draw falls back on */
                c[i].fallback += winner_cost;
                c[i].fallback_n++;
                continue;
            }
            c[i].regret += score[i] - score[best];
            c[i].regret_share += score[i] > 0 ? (score[i] - score[best]) / score[i] : 0;
        }
    }
    for (size_t i = 0; i < n; i++) {
        /* the regret is a mean over the draws in which the option meets the targets (and so
         * could be held to its cost): a draw it misses them in is counted in missed instead */
        size_t met = DECIDE_ROBUST_DRAWS - c[i].missed;
        c[i].o->p_best = (double)c[i].wins / DECIDE_ROBUST_DRAWS;
        c[i].regret = met ? c[i].regret / met : NAN;
        c[i].regret_share = met ? c[i].regret_share / met : NAN;
    }
    free(u_speed);
    free(u_price);
    free(score);
    free(drawn);
    free(at);
    free(slots);
    return no_winner;
}

/* ---- a close call ---- */

/* How a's evidence compares with b's, by price kind, then speed kind: < 0 better, 0 alike. */
static int evidence_cmp(const decision *d, const decide_option *a, const decide_option *b)
{
    int x = decide_price_rank(d, a->price_kind), y = decide_price_rank(d, b->price_kind);
    if (x != y)
        return x - y;
    return decide_speed_kind_rank(d, a) - decide_speed_kind_rank(d, b);
}

/* Whether a is better evidenced than b: price kind, speed kind, then the share of draws won,
 * then rank. */
static int better_evidenced(const decision *d, const decide_option *a, const decide_option *b)
{
    int c = evidence_cmp(d, a, b);
    if (c)
        return c < 0;
    if (a->p_best != b->p_best)
        return a->p_best > b->p_best;
    return a->rank < b->rank;
}

/* The options inside the uncertainty: the cheapest at the plan's figures and every option that
 * wins at least DECIDE_ROBUST_CLOSE_SHARE of the draws, best evidenced first (an insertion
 * sort: a handful of options). */
static void close_options(decide_robust *r, const decision *d, const compared *c, size_t n)
{
    r->close = gw_xcalloc(n ? n : 1, sizeof *r->close);
    for (size_t i = 0; i < n; i++) {
        if (c[i].o != r->cheapest && !(c[i].o->p_best >= DECIDE_ROBUST_CLOSE_SHARE))
            continue;
        size_t at = r->n_close++;
        while (at > 0 && better_evidenced(d, c[i].o, r->close[at - 1])) {
            r->close[at] = r->close[at - 1];
            at--;
        }
        r->close[at] = c[i].o;
    }
}

/* pick first among the ranked options, the others in their order, ranks renumbered. */
static void move_to_top(decision *d, const decide_option *pick)
{
    size_t at = 0;
    while (at < d->n_options && d->ranked[at] != pick)
        at++;
    if (at == 0 || at == d->n_options)
        return;
    decide_option *p = d->ranked[at];
    memmove(&d->ranked[1], &d->ranked[0], at * sizeof *d->ranked);
    d->ranked[0] = p;
    int rank = 0;
    for (size_t i = 0; i < d->n_options; i++)
        d->ranked[i]->rank = d->ranked[i]->feasible ? ++rank : 0;
}

/* "a list price and a measured speed" */
static void evidence_words(gw_buf *b, const decision *d, const decide_option *o)
{
    const char *kind = o->offer_quality && *o->offer_quality ? o->offer_quality : NULL;
    buf_printf(b, "%s %s price and a %s speed", kind && !strcmp(kind, "anecdote") ? "an" : "a",
               kind ? kind : "unstated kind of", decide_speed_kind(d, o));
}

/* A share of draws in words: "45%", never "100%" short of every draw. */
static void share_words(gw_buf *b, double share)
{
    if (share < 1 && share * 100 >= 99.5)
        buf_puts(b, "over 99%");
    else if (share > 0 && share * 100 < 0.5)
        buf_puts(b, "under 1%");
    else
        buf_printf(b, "%.0f%%", share * 100);
}

/* Where a close call recommends rec over cheap, the cheapest at the plan's figures: what the
 * better evidence costs, on the figure the cost table ranks by (" Choosing it costs 7% more per
 * unit of work (CNY 6.27 against CNY 5.88)."). */
static void evidence_cost_words(gw_buf *b, const decision *d, const decide_option *rec,
                                const decide_option *cheap)
{
    if (rec == cheap || !(cheap->score > 0))
        return;
    buf_printf(b, " Choosing it costs %.0f%% more per unit of work (",
               (rec->score / cheap->score - 1) * 100);
    decide_money_per_unit(b, d, rec->score);
    buf_puts(b, " against ");
    decide_money_per_unit(b, d, cheap->score);
    buf_puts(b, ").");
}

/* The option of rec's offer with one more instance (replicas + 1, or cards + 1), if compared. */
static const decide_option *one_more_instance(const decision *d, const decide_option *rec)
{
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o == rec || o->gpu != rec->gpu || o->acquisition != rec->acquisition ||
            !decide_text_same(o->provider, rec->provider) || !o->feasible || o->held_back)
            continue;
        int more = rec->replicas > 0 ? o->tp == rec->tp && o->replicas == rec->replicas + 1
                                     : o->count == rec->count + 1;
        if (more)
            return o;
    }
    return NULL;
}

/* A close call on capacity, not price: the recommendation is cheapest in every draw in which it
 * meets its targets, and the others win only the draws it misses them in. */
static void capacity_risk_sentence(gw_buf *b, const decide_robust *r, const decision *d)
{
    const decide_option *rec = r->recommended;
    decide_option_label(b, rec, 0);
    buf_puts(b, " is the cheapest at the plan's figures and in every draw in which it meets its "
                "targets; it misses them in ");
    share_words(b, r->misses_deadline_share + r->misses_targets_share);
    buf_puts(b, " of the draws, the only draws others win: ");
    for (size_t i = 0, others = 0; i < r->n_close; i++) {
        const decide_option *o = r->close[i];
        if (o == rec)
            continue;
        buf_puts(b, others++ ? " and " : "");
        decide_option_label(b, o, 0);
        buf_puts(b, " (");
        decide_money_per_unit(b, d, o->per_unit);
        buf_printf(b, " per %s) in ", d->work_unit);
        share_words(b, o->p_best);
    }
    buf_puts(b, ", against its ");
    decide_money_per_unit(b, d, rec->per_unit);
    buf_puts(b, ": the risk is its capacity, not its price — measure one instance before "
                "committing, or plan for one more instance");
    const decide_option *more = one_more_instance(d, rec);
    if (more) {
        buf_puts(b, " (");
        decide_option_label(b, more, 0);
        buf_puts(b, ": ");
        decide_money_per_unit(b, d, more->per_unit);
        buf_printf(b, " per %s)", d->work_unit);
    }
    buf_puts(b, ".");
}

/* The sentence saying why the recommendation is what it is. */
static void because_sentence(decide_robust *r, const decision *d)
{
    gw_buf b = GW_BUF_INIT;
    const decide_option *rec = r->recommended, *cheap = r->cheapest;
    if (r->capacity_risk) {
        capacity_risk_sentence(&b, r, d);
        r->because = buf_detach(&b);
        return;
    }
    if (!r->n_ranged) {
        decide_option_label(&b, rec, 0);
        buf_puts(&b, " is the cheapest per unit of work, and in every draw: none of the options "
                     "compared has a price range or a speed band.");
        r->because = buf_detach(&b);
        return;
    }
    if (!r->close_call) {
        decide_option_label(&b, rec, 0);
        buf_puts(&b, " is the cheapest per unit of work in ");
        share_words(&b, rec->p_best);
        buf_puts(&b, " of ");
        view_format_number(&b, DECIDE_ROBUST_DRAWS, 0);
        buf_puts(&b, " draws within the options' price ranges and speed bands.");
        r->because = buf_detach(&b);
        return;
    }
    buf_puts(&b, "A close call: ");
    decide_option_label(&b, cheap, 0);
    buf_puts(&b, " is the cheapest at the plan's figures but in only ");
    share_words(&b, cheap->p_best);
    buf_puts(&b, " of ");
    view_format_number(&b, DECIDE_ROBUST_DRAWS, 0);
    buf_puts(&b, " draws");
    size_t others = 0;
    for (size_t i = 0; i < r->n_close; i++) {
        const decide_option *o = r->close[i];
        if (o == cheap)
            continue;
        buf_puts(&b, others++ ? ", " : ", against ");
        decide_option_label(&b, o, 0);
        buf_puts(&b, " in ");
        share_words(&b, o->p_best);
    }
    int alike = 1;   /* every close option's evidence as good as the recommendation's */
    for (size_t i = 0; i < r->n_close; i++)
        alike = alike && !evidence_cmp(d, rec, r->close[i]);
    if (rec == cheap && alike) {
        buf_puts(&b, "; their evidence is alike (");
        evidence_words(&b, d, rec);
        buf_puts(&b, " each), so it stays recommended as the cheapest at the plan's figures and in "
                     "the most draws, by less than the uncertainty of their figures: a "
                     "measurement or a quote of the others could change the answer.");
    } else if (rec == cheap) {
        buf_puts(&b, "; it stays recommended as the best evidenced of them (");
        evidence_words(&b, d, rec);
        buf_puts(&b, ").");
    } else if (!evidence_cmp(d, rec, cheap)) {
        /* evidence alike: the tie goes to the one cheapest in more draws (better_evidenced) */
        buf_puts(&b, "; their evidence is alike (");
        evidence_words(&b, d, rec);
        buf_puts(&b, " each), so ");
        decide_option_label(&b, rec, 0);
        buf_puts(&b, " is recommended as the one cheapest in more draws, though ");
        decide_option_label(&b, cheap, 0);
        buf_puts(&b, " is cheaper at the plan's figures: a measurement or a quote of either "
                     "could change the answer.");
    } else {
        buf_puts(&b, "; ");
        decide_option_label(&b, rec, 0);
        buf_puts(&b, " is recommended as the best evidenced of them (");
        evidence_words(&b, d, rec);
        buf_puts(&b, ", against ");
        evidence_words(&b, d, cheap);
        buf_puts(&b, ").");
    }
    evidence_cost_words(&b, d, rec, cheap);
    r->because = buf_detach(&b);
}

void decide_robust_run(decision *d)
{
    decide_robust_free(d->robust);
    decide_robust *r = d->robust = gw_xcalloc(1, sizeof *r);
    r->miss_fallback = NAN;
    for (size_t i = 0; i < d->n_options; i++)
        decide_option_corners(d, &d->options[i]);
    r->cheapest = decide_best(d);
    if (!r->cheapest)
        return;
    compared *c;
    size_t n_speed, n_price;
    r->n = compared_options(d, &c, &n_speed, &n_price);
    if (!r->n) {   /* a recommendation without a cost per unit: nothing to draw */
        free(c);
        return;
    }
    size_t drawn = mark_drawn(d, c, r->n);
    decide_trace(d, "robustness: %zu of %zu options drawn (the others' lowest cost per unit is "
                 "above what one option costs at most in every draw)", drawn, r->n);
    r->no_winner_share = (double)draw(d, c, r->n, n_speed, n_price) / DECIDE_ROBUST_DRAWS;
    for (size_t i = 0; i < r->n; i++)
        r->n_ranged += c[i].p_lo < c[i].p_hi || c[i].t_lo < c[i].t_hi || c[i].c_lo < c[i].c_hi;
    r->close_call = r->cheapest->p_best < DECIDE_ROBUST_CLOSE_P_BEST;
    r->recommended = r->cheapest;
    if (r->close_call) {
        close_options(r, d, c, r->n);
        r->recommended = r->close[0];
        move_to_top(d, r->recommended);
    }
    for (size_t i = 0; i < r->n; i++)
        if (c[i].o == r->recommended) {
            r->regret = c[i].regret;
            r->regret_share = c[i].regret_share;
            r->misses_deadline_share = (double)c[i].past_deadline / DECIDE_ROBUST_DRAWS;
            r->misses_targets_share =
                (double)(c[i].missed - c[i].past_deadline) / DECIDE_ROBUST_DRAWS;
            r->miss_fallback = c[i].fallback_n ? c[i].fallback / (double)c[i].fallback_n : NAN;
            /* every draw it does not win is one it misses its targets in */
            r->capacity_risk = r->close_call && r->recommended == r->cheapest &&
                               c[i].missed > 0 && c[i].wins + c[i].missed == DECIDE_ROBUST_DRAWS;
        }
    because_sentence(r, d);
    decide_trace(d, "robustness: %s wins %.3f of %d draws%s", r->recommended->id,
                 r->recommended->p_best, DECIDE_ROBUST_DRAWS,
                 r->recommended != r->cheapest ? " (a close call: the best evidenced)" : "");
    free(c);
}

const decide_option *decide_robust_cheapest(const decision *d)
{
    return d->robust && d->robust->cheapest ? d->robust->cheapest : decide_best(d);
}

const char *decide_robust_repick_reason(const decision *d)
{
    const decide_robust *r = d->robust;
    return r && r->recommended && r->recommended != r->cheapest ? r->because : NULL;
}

void decide_robust_free(decide_robust *r)
{
    if (!r)
        return;
    free(r->close);
    free(r->because);
    free(r);
}

/* ---- the view ---- */

static const char robust_method[] =
    "%d draws from a fixed seed (%u: the same input gives the same answer): in each, every "
    "option's price is drawn uniformly within its range (cost.price_low to cost.price_high; "
    "one draw for the options of one GPU, acquisition and provider, one price list) and every "
    "GPU model's speed uniformly within its band (throughput.low to throughput.high; one draw "
    "per GPU model, the same point of the band for each of its options: their speed is one "
    "fact); a figure without a range stays as it is. Each option's cost per unit of work is "
    "then recomputed by the cost stage (a job's hours, and so a rental's bill and a purchase's "
    "electricity, follow the speed) and multiplied by its rules' adjustment, the figure the "
    "options are ranked by; the options compared are the feasible ones not held back. An option "
    "wins a draw only where it meets the workload's targets at its drawn figures: a job's hours "
    "needed follow its drawn speed and must not exceed the hours its deadline leaves "
    "(misses_deadline_share: the share of draws in which the recommendation does not finish "
    "in time); a served option's drawn capacity must serve the demand within the time per "
    "output token; no_winner_share is the share of draws no option wins. p_best is the share of draws in which an option "
    "is the cheapest; the expected regret, the mean of how much dearer per unit the "
    "recommendation is than each draw's cheapest (its share: the mean of that as a share of "
    "the recommendation's own cost per unit in the draw). Below a p_best of %.0f%% the answer is a close "
    "call: the options that win at least %.0f%% of the draws are inside the uncertainty, with "
    "the one ranked first, and of them the best evidenced is recommended: by price kind (list, "
    "quote, market, from, anecdote, launch), then speed kind (measured, scaled, modelled), then "
    "p_best (capacity_risk: it loses only draws it misses its targets in). cost.per_unit_low and cost.per_unit_high are each option's cost per unit at its "
    "low price and high speed, and at its high price and low speed. An option whose cost per unit "
    "at its low price and high speed is above the least cost per unit at the high price and low "
    "speed of the options that meet the targets in every draw (not served, in time even at their "
    "low speed; a job or capacity for every hour, whose cost per unit rises with the price and "
    "falls with the speed) cannot be the cheapest in any draw: its p_best is 0 without drawing it.";

static view *option_entry(const decision *d, const decide_option *o)
{
    view *m = view_map();
    view_map_set_str(m, "option", o->id);
    gw_buf l = GW_BUF_INIT;
    decide_option_label(&l, o, 0);
    view_map_set_str(m, "label", buf_cstr(&l));
    buf_free(&l);
    view_map_set_num(m, "p_best", o->p_best);
    view_map_set_str(m, "price_kind", o->offer_quality);
    view_map_set_str(m, "speed_kind", decide_speed_kind(d, o));
    decide_set_money(m, d, "per_unit", o->per_unit);
    decide_set_money(m, d, "per_unit_low", o->per_unit_lo);
    decide_set_money(m, d, "per_unit_high", o->per_unit_hi);
    return m;
}

/* The expected regret with two significant digits, never "$0.00" for a cent's fraction
 * ($0.0049), its share, and over the whole plan: the regret per unit x the units of work the
 * recommendation's total pays for (total / cost per unit). */
static void regret_view(view *v, const decision *d, const decide_robust *r)
{
    double regret = r->regret;
    view_map_set_num(v, "expected_regret", regret);
    view_map_set_num(v, "expected_regret_share", r->regret_share);
    if (isnan(regret)) {
        view_map_set(v, "expected_regret_text", view_null());
        return;
    }
    int decimals = regret > 0 && regret < 1 ? 1 - (int)floor(log10(regret)) : 2;
    gw_buf t = GW_BUF_INIT;
    units_format_money(&t, regret, d->w->currency, decimals < 2 ? 2 : decimals > 6 ? 6 : decimals);
    view_map_set_str(v, "expected_regret_text", buf_cstr(&t));
    if (regret > 0) {   /* none: no share to give */
        buf_reset(&t);
        buf_printf(&t, "%.1f%%", r->regret_share * 100);
        view_map_set_str(v, "expected_regret_share_text", buf_cstr(&t));
    }
    const decide_option *o = r->recommended;
    double units = o->per_unit > 0 ? o->cost.total / o->per_unit : NAN;
    if (isfinite(units) && regret > 0) {
        buf_reset(&t);
        decide_money(&t, d, regret * units);
        view_map_set_num(v, "expected_regret_plan", regret * units);
        view_map_set_str(v, "expected_regret_plan_text", buf_cstr(&t));
    }
    /* the draws it misses the deadline or the targets in have no regret: say they are left out */
    view_map_set_bool(v, "regret_leaves_out_misses",
                      r->misses_deadline_share > 0 || r->misses_targets_share > 0);
    buf_free(&t);
}

/* "all with a price or speed range", or "9 of them with a price or speed range (the other 29
 * at their figures)": which of the n options compared are drawn, for the report's sentence
 * (options_with_a_range_text). */
static void ranged_words(view *v, size_t n, size_t n_ranged)
{
    gw_buf b = GW_BUF_INIT;
    if (n_ranged == n)
        buf_puts(&b, n == 1 ? "with a price or speed range" : "all with a price or speed range");
    else if (n - n_ranged == 1)
        buf_printf(&b, "%zu of them with a price or speed range (the other one at its figures)",
                   n_ranged);
    else
        buf_printf(&b, "%zu of them with a price or speed range (the other %zu at their figures)",
                   n_ranged, n - n_ranged);
    view_map_set_str(v, "options_with_a_range_text", buf_cstr(&b));
    buf_free(&b);
}

/* A language model's speed is drawn within its band, the 80th percentile of its calibrating
 * rows' errors, so the draws cannot show an error past it.  Where a slower speed of the
 * recommendation alone (the sensitivity's own_speed flip) would change the answer, say how
 * many of the KB's measured rows of the workload's kind the model predicted at least that much
 * too fast (llm.accuracy's leave-one-out): the measured odds the draws leave out. */
static void model_error_view(view *v, const decision *d, const view *root)
{
    const view *params = view_path(root, "sensitivity.parameters");
    const view *predictions = view_path(root, "llm.accuracy.predictions");
    double flip = NAN;
    int misses = 0;
    const char *to = NULL;
    for (size_t i = 0; i < view_len(params); i++) {
        const view *p = view_list_at(params, i);
        if (!decide_str_eq(view_str(view_map_get(p, "parameter")), "own_speed"))
            continue;
        flip = view_num(view_map_get(p, "flip_factor"));
        misses = !isnan(view_num(view_map_get(p, "misses_target_below")));
        to = view_str(view_map_get(p, "flips_to"));
    }
    const decide_option *best = decide_best(d);
    int other_gpu = 0;   /* an error the model makes on one GPU it makes on its other options */
    for (size_t i = 0; to && best && i < d->n_options; i++)
        if (decide_str_eq(d->options[i].id, to))
            other_gpu = d->options[i].gpu != best->gpu;
    if (!(flip > 0 && flip < 1) || !(misses || other_gpu) || !view_len(predictions))
        return;
    const char *kind = decide_llm_kind_name(decide_llm_workload_kind(d));
    double past = (1 / flip - 1) * 100;   /* predicted / measured - 1, in % */
    size_t rows = 0, optimistic = 0;
    for (size_t i = 0; i < view_len(predictions); i++) {
        const view *p = view_list_at(predictions, i);
        double err = view_num(view_map_get(p, "error_pct"));
        if (!decide_str_eq(view_str(view_map_get(p, "kind")), kind) || isnan(err))
            continue;
        rows++;
        optimistic += err > past;
    }
    if (!rows)
        return;
    view_map_set_int(v, "model_optimistic_rows", (long long)optimistic);
    view_map_set_int(v, "model_kind_rows", (long long)rows);
    gw_buf t = GW_BUF_INIT;
    buf_printf(&t, "its speed %.1f%% below the model's changes the answer, and %zu of %zu "
                   "measured %s rows ran that far or further below prediction (llm.accuracy): ",
               (1 - flip) * 100, optimistic, rows, kind);
    buf_puts(&t, optimistic * 10 >= rows ? "a close call (a tenth or more); measure first"
                                         : "the draws' share holds");
    view_map_set_str(v, "model_error_text", buf_cstr(&t));
    buf_free(&t);
}

void decide_robust_view(const decision *d, view *root)
{
    const decide_robust *r = d->robust;
    view *v = view_map_set(root, "robustness", view_map());
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, robust_method, DECIDE_ROBUST_DRAWS, DECIDE_ROBUST_SEED,
               DECIDE_ROBUST_CLOSE_P_BEST * 100, DECIDE_ROBUST_CLOSE_SHARE * 100);
    view *method = view_map_get(root, "method");
    if (method && view_kind(method) == VIEW_MAP)
        view_map_set_str(method, "robustness", buf_cstr(&b));
    view_map_set_str(v, "method", buf_cstr(&b));
    buf_free(&b);
    view_map_set_int(v, "draws", DECIDE_ROBUST_DRAWS);
    view_map_set_int(v, "seed", DECIDE_ROBUST_SEED);
    view_map_set_str(v, "distribution", "uniform within each range");
    view_map_set_num(v, "close_call_below", DECIDE_ROBUST_CLOSE_P_BEST);
    view_map_set_num(v, "close_share", DECIDE_ROBUST_CLOSE_SHARE);
    if (!r || !r->recommended) {
        view_map_set(v, "option", view_null());
        view_map_set(v, "p_best", view_null());
        view_map_set_bool(v, "close_call", 0);
        view_map_set(v, "close", view_list());
        return;
    }
    view_map_set_int(v, "options_compared", (long long)r->n);
    view_map_set_int(v, "options_with_a_range", (long long)r->n_ranged);
    ranged_words(v, r->n, r->n_ranged);
    view_map_set_str(v, "option", r->recommended->id);
    view_map_set_num(v, "p_best", r->recommended->p_best);
    gw_buf t = GW_BUF_INIT;
    share_words(&t, r->recommended->p_best);
    view_map_set_str(v, "p_best_text", buf_cstr(&t));
    buf_free(&t);
    regret_view(v, d, r);
    if (workload_is_llm(d->w))
        model_error_view(v, d, root);
    view_map_set_num(v, "misses_deadline_share", r->misses_deadline_share);
    view_map_set_num(v, "misses_targets_share", r->misses_targets_share);
    view_map_set_num(v, "no_winner_share", r->no_winner_share);
    if (r->misses_deadline_share > 0) {
        gw_buf m = GW_BUF_INIT;
        share_words(&m, r->misses_deadline_share);
        view_map_set_str(v, "misses_deadline_text", buf_cstr(&m));
        buf_free(&m);
    }
    if (r->misses_targets_share > 0) {
        gw_buf m = GW_BUF_INIT;
        share_words(&m, r->misses_targets_share);
        view_map_set_str(v, "misses_targets_text", buf_cstr(&m));
        buf_free(&m);
    }
    /* what the draws it misses its targets in cost instead: the regret leaves them out, and a
     * capacity risk's sentence names the options that win them */
    view_map_set_num(v, "miss_fallback_per_unit", r->miss_fallback);
    if (!isnan(r->miss_fallback) && !r->capacity_risk) {
        gw_buf m = GW_BUF_INIT;
        decide_money_per_unit(&m, d, r->miss_fallback);
        buf_printf(&m, " per %s", d->work_unit);
        if (r->recommended->per_unit > 0)
            buf_printf(&m, ", %.0f%% above its own figure",
                       100 * (r->miss_fallback / r->recommended->per_unit - 1));
        view_map_set_str(v, "miss_fallback_text", buf_cstr(&m));
        buf_free(&m);
    }
    if (r->no_winner_share > 0) {
        gw_buf m = GW_BUF_INIT;
        share_words(&m, r->no_winner_share);
        view_map_set_str(v, "no_winner_text", buf_cstr(&m));
        buf_free(&m);
    }
    view_map_set_bool(v, "close_call", r->close_call);
    view_map_set_bool(v, "capacity_risk", r->capacity_risk);
    view_map_set_str(v, "cheapest_at_plan", r->cheapest->id);
    view_map_set_bool(v, "repicked", r->recommended != r->cheapest);
    view *close = view_map_set(v, "close", view_list());
    for (size_t i = 0; i < r->n_close; i++)
        view_list_push(close, option_entry(d, r->close[i]));
    view_map_set_str(v, "because", r->because);
}
