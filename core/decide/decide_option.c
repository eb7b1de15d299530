/* decide_option.c — what every stage asks of one option alone: its name and label, the memory
 * of one of its GPUs, a slice's share of its card, when its price was observed, what its
 * verdicts weigh in the ranking, and freeing it.  Nothing here sees the rest of the decision. */
#include "decide_option.h"
#include "base/check.h"
#include "base/units.h"
#include "base/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The verdicts may move an option's cost per unit of work in the ranking at most this far,
 * down or up: chosen, not taken from a source, so that no pile of preferences makes an option
 * free and no pile of warnings outweighs cost altogether; an exclusion is what rules out. */
#define RULE_ADJUSTMENT_MIN 0.2
#define RULE_ADJUSTMENT_MAX 5.0

double decide_rules_adjustment_floor(double prefers_at_most)
{
    return fmax(RULE_ADJUSTMENT_MIN, 1 - prefers_at_most);
}

const char *decide_acquisition_name(decide_acquisition a)
{
    return a == DECIDE_BUY_NEW ? "buy-new" : a == DECIDE_BUY_USED ? "buy-used" : "rent";
}

double decide_fraction_exact(double fraction)
{
    if (!(fraction > 0 && fraction <= 1))
        return 1;
    return units_fraction_exact(fraction);
}

void decide_rent_id(gw_buf *id, const char *seller, const char *instance, int spot, int gpus,
                    const char *gpu)
{
    buf_reset(id);
    buf_printf(id, "rent:%s:%s%s:%dx %s", seller, instance, spot ? " (spot)" : "", gpus, gpu);
}

void decide_option_gpus_words(gw_buf *b, const decide_option *o, const char *times)
{
    if (!(o->gpu_fraction < 1)) {
        buf_printf(b, "%dx ", o->count);
        return;
    }
    if (o->count != 1)
        buf_printf(b, "%d %s ", o->count, times);
    units_fraction_words(b, o->gpu_fraction);
    buf_printf(b, " %s ", times);
}

double decide_option_per_gpu_hour(const decide_option *o)
{
    if (o->acquisition != DECIDE_RENT || o->count < 1 || !(o->gpu_fraction > 0))
        return NAN;
    return o->unit_price / (o->count * o->gpu_fraction);
}

void decide_option_label(gw_buf *b, const decide_option *o, int shortened)
{
    if (o->acquisition == DECIDE_RENT) {
        buf_puts(b, "rent ");
        decide_option_gpus_words(b, o, "×");
        buf_printf(b, "%s (%s", o->gpu->name, o->provider);
        /* said plainly: two 1-GPU instances are not one 2-GPU instance (one instance, the
         * reading a rental is given unless told otherwise, goes unsaid) */
        int per = o->count / (o->hosts > 0 ? o->hosts : 1);
        if (o->hosts > 1 && o->gpu_fraction < 1)
            buf_printf(b, ", %d instances of one slice", o->hosts);
        else if (o->hosts > 1)
            buf_printf(b, ", %d instances of %d GPU%s", o->hosts, per, per == 1 ? "" : "s");
        if (o->instance && !shortened)
            buf_printf(b, "%s%s", o->hosts > 1 ? ": " : ", ", o->instance);
        if (decide_str_eq(o->offer_quality, "anecdote") && !shortened)
            buf_puts(b, "; anecdotal price");
        buf_puts(b, ")");
    } else {
        buf_printf(b, "%s %dx %s", o->acquisition == DECIDE_BUY_USED ? "used" : "new", o->count,
                   o->gpu->name);
        if (o->system && o->hosts > 1)
            buf_printf(b, " in %dx %s", o->hosts, o->system->name);
        else if (o->system)
            buf_printf(b, " in one %s", o->system->name);
        else if (o->hosts > 1)
            buf_printf(b, " in %d machines", o->hosts);
        int anecdote = decide_str_eq(o->offer_quality, "anecdote") && !shortened;
        int other = o->other_market && !shortened;
        if (anecdote || other)
            buf_printf(b, " (%s%s%s)", anecdote ? "anecdotal price" : "",
                       anecdote && other ? "; " : "", other ? "another market's price" : "");
    }
}

double decide_price_age_days(const char *as_of, long today)
{
    long then = gw_date_days(as_of);
    return then >= 0 ? (double)(today - then) : NAN;
}

void decide_option_dated(decide_option *o, const char *as_of, long today)
{
    free(o->price_as_of);
    o->price_as_of = as_of ? gw_xstrdup(as_of) : NULL;
    o->price_age_days = decide_price_age_days(as_of, today);
}

void decide_slice_share(decide_option *o, gw_buf *how)
{
    double f = o->gpu_fraction;
    if (isnan(o->throughput) || !(f > 0 && f < 1))
        return;
    double whole = o->throughput;
    o->throughput *= f;
    o->throughput_lo *= f;
    o->throughput_hi *= f;
    /* a step takes the whole card's time over the slice's share of its time or its units */
    o->tpot_ms /= f;
    o->ttft_ms /= f;
    o->step_ms /= f;
    o->floor_ms /= f;
    o->measured_whole = o->measured;
    o->measured = 0;   /* the card was measured (or modelled), never this slice */
    buf_puts(how, "; scaled to the slice: ");
    view_format_number(how, whole, whole < 100 ? 2 : 0);
    buf_puts(how, " x ");
    units_fraction_words(how, f);
    buf_puts(how, " = ");
    view_format_number(how, o->throughput, o->throughput < 100 ? 2 : 0);
    buf_puts(how, " (a slice computes at its share of the whole card; no slice is measured");
    if (!isnan(o->tpot_ms))
        buf_puts(how, "; each step's time over that share");
    buf_puts(how, ")");
    if (o->throughput_band_basis) {
        gw_buf basis = GW_BUF_INIT;
        buf_printf(&basis, "%s; a slice: the whole card's band, times ", o->throughput_band_basis);
        units_fraction_words(&basis, f);
        free(o->throughput_band_basis);
        o->throughput_band_basis = buf_detach(&basis);
    }
}

double decide_option_usable_gb(const decide_option *o, int *estimated)
{
    const kb_gpu *g = o->gpu;
    return model_card_memory_gb(g->memory_gb, g->memory_mib, g->memory_type, g->ecc == 1,
                                estimated) *
           o->gpu_fraction;
}

double decide_option_memory_gb(const decide_option *o)
{
    double gb = decide_option_usable_gb(o, NULL);
    return isnan(gb) ? 0 : gb;   /* unknown: every need fits, as before (decide_speed.c) */
}

double decide_option_nominal_gb(const decide_option *o)
{
    return o->gpu->memory_gb * o->gpu_fraction;
}

void decide_option_capacity_words(gw_buf *b, const decide_option *o)
{
    int estimated;
    double gb = decide_option_usable_gb(o, &estimated);
    if (isnan(gb)) {
        buf_puts(b, "an unknown amount");
        return;
    }
    if (o->gpu_fraction < 1) {   /* a slice: its share of the card's figures, said as one */
        buf_printf(b, "%.1f GB (", gb);
        units_fraction_words(b, o->gpu_fraction);
        buf_printf(b, " of the card's %.3g GB nominal; ", o->gpu->memory_gb);
    } else {
        buf_printf(b, "%.1f GB (%.3g GB nominal; ", gb, decide_option_nominal_gb(o));
    }
    if (!estimated && o->gpu_fraction < 1) {
        view_format_number(b, o->gpu->memory_mib * o->gpu_fraction, 0);
        buf_puts(b, " of ");
        view_format_number(b, o->gpu->memory_mib, 0);
        buf_puts(b, " MiB reported)");
    } else if (!estimated) {
        view_format_number(b, o->gpu->memory_mib * o->gpu_fraction, 0);
        buf_puts(b, " MiB reported)");
    } else {
        buf_puts(b, "estimated)");
    }
}

void decide_capacity_method_words(gw_buf *b)
{
    buf_printf(b, "; a need is compared with a GPU's memory as its driver reports it, "
                  "nvidia-smi's MiB x 1,048,576 bytes (an H100 80GB: 81,559 MiB = 85.5 GB; "
                  "memory_mib_source), else its nominal GB x 1,024 x the measured median of its "
                  "memory kind (HBM %.4g, GDDR with ECC %.4g, other %.4g), an estimate",
               MODEL_HBM_REPORTED_SHARE, MODEL_GDDR_ECC_REPORTED_SHARE,
               MODEL_GDDR_REPORTED_SHARE);
}

double decide_rules_adjustment(const decide_option *o)
{
    double a = 1;
    for (size_t i = 0; i < o->n_verdicts; i++) {
        if (!strcmp(o->verdicts[i].effect, "prefer"))
            a -= o->verdicts[i].weight;
        else if (!strcmp(o->verdicts[i].effect, "warn"))
            a += o->verdicts[i].weight;
    }
    return a < RULE_ADJUSTMENT_MIN ? RULE_ADJUSTMENT_MIN
           : a > RULE_ADJUSTMENT_MAX ? RULE_ADJUSTMENT_MAX
                                     : a;
}

void decide_option_free(decide_option *o)
{
    free(o->id);
    free(o->provider);
    free(o->instance);
    free(o->offer_quality);
    free(o->offer_note);
    free(o->offer_regions);
    free(o->held_back_because);
    free(o->price_as_of);
    free(o->throughput_how);
    free(o->throughput_band_basis);
    free(o->excluded_because);
    free(o->cites);
    free(o->part_hours);
    for (size_t j = 0; j < o->n_verdicts; j++) {
        free(o->verdicts[j].rule);
        free(o->verdicts[j].effect);
        free(o->verdicts[j].because);
        free(o->verdicts[j].checklist);
    }
    free(o->verdicts);
}
