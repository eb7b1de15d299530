/* decide_speed.c — the model stage of a decision: whether an option's model fits its cards'
 * memory (split over them under model parallelism), and how fast it runs: the median of the
 * KB's measured results for that GPU and count (where the workload's model is the benchmark's),
 * else one card's speed (measured, or scaled from the nearest measured GPU by its
 * specifications, and carried to the workload's own model by its parameters) times the cards at
 * model.c's scaling efficiency over their real link; without a benchmark, speed relative to the
 * workload's reference card.  Each speed has a band: the spread of the measurements used (one
 * result: the KB's reproducibility), the 80th percentile of the leave-one-out errors of each
 * scaling applied, and below, what no calibration covers (the network between machines, a
 * gradient exchange left out).  Also how far those scalings are from the KB's measurements. */
#include "decide_speed.h"
#include "decide_llm.h"
#include "decide_precision.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/precision.h"

/* ---- fit ---- */

void decide_option_fit(decision *d, decide_option *o)
{
    const workload *w = d->w;
    if (workload_is_llm(w)) {
        decide_llm_fit(d, o);
        return;
    }
    double memory_gb = decide_option_memory_gb(o);
    o->vram_needed_gb = d->memory.total_gb;
    o->per_card_gb = o->vram_needed_gb;
    o->split = 0;
    if (decide_str_eq(w->parallelism, "model") && o->count > 1 &&
        d->memory.total_gb > memory_gb) {
        o->split = 1;
        o->per_card_gb = model_memory_per_card_split(&d->memory, o->count);
    }
    o->fits = memory_gb > 0 ? o->per_card_gb <= memory_gb : 1;
}

/* ---- measured results ---- */

static int is_sxm(const kb_gpu *g)
{
    return g->form_factor && strncmp(g->form_factor, "pcie", 4) != 0;
}

/* Whether g's cards are joined by a scale-up link of their board (NVLink, Infinity Fabric,
 * Gaudi's RoCE ports): nvlink_gbs holds its bandwidth whatever its kind (schema version 6). */
int decide_gpu_board_link(const kb_gpu *g)
{
    return is_sxm(g) && g->nvlink_gbs > 0 && !(g->link_kind && !strcmp(g->link_kind, "none"));
}

/* The name of g's scale-up link in a sentence; a KB from before version 6 (no kind) knew only
 * NVLink. */
static const char *link_name(const kb_gpu *g)
{
    static const struct {
        const char *kind, *name;
    } names[] = {{"infinity-fabric", "Infinity Fabric"}, {"roce", "RoCE Ethernet"}};
    for (size_t i = 0; g->link_kind && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(g->link_kind, names[i].kind))
            return names[i].name;
    return "NVLink";
}

/* A language model's batch is in tokens: sequences x their length. */
double decide_batch_per_gpu(const workload *w)
{
    if (workload_is_llm(w))
        return decide_llm_tokens_per_step(w);
    return w->batch_per_gpu > 0 ? w->batch_per_gpu : MODEL_DEFAULT_BATCH;
}

/* The figures of g the model reads, for the workload's precision: a 16-bit one at the rate of
 * what g runs it as (bf16 on a V100: fp16's; precision.h), FP32 work at TF32's rate where g's
 * architecture has TF32 tensor cores and the KB its figure (cuDNN's convolutions take TF32 by
 * default), else at FP32's. */
model_gpu_spec decide_gpu_spec(const decision *d, const kb_gpu *g)
{
    model_gpu_spec s;
    gw_support support = decide_support(d);
    if (gw_precision_is_half(d->w->precision))
        s.tensor_tflops = gw_precision_rate(decide_runs_at(d, g, 1), g);
    else if (gw_support_has(&support, "tf32", g) && g->tf32_tflops > 0)
        s.tensor_tflops = g->tf32_tflops;
    else
        s.tensor_tflops = g->fp32_tflops;
    s.bandwidth_gbs = g->memory_bandwidth_gbs;
    return s;
}

/* The first of gpu's rows: d->bench is in gpu order (kb_benchmarks_find sorts by gpu first),
 * so they are one run, found by halving (scaling asks for every GPU of the KB, per option). */
static size_t bench_first_row(const decision *d, const char *gpu)
{
    size_t first = 0, end = d->n_bench;
    while (first < end) {
        size_t mid = first + (end - first) / 2;
        if (strcmp(d->bench[mid].gpu, gpu) < 0)
            first = mid + 1;
        else
            end = mid;
    }
    return first;
}

/* How far a measured result is trusted, by its source's kind (lower is better): the user's own
 * measurements, then benchmark suites and datasets, then anything else (a datasheet, a
 * plugin), then an article or blog (an anecdote).  Results of the best tier present are used;
 * the others are set aside and said to be. */
static int tier_of_kind(const char *kind)
{
    if (decide_str_eq(kind, "user"))
        return 0;
    if (decide_str_eq(kind, "benchmark") || decide_str_eq(kind, "dataset"))
        return 1;
    if (decide_str_eq(kind, "article"))
        return 3;
    return 2;
}

static const char *const tier_words[] = {"your own measurements", "a benchmark",
                                         "a datasheet or plugin", "an article"};

/* Each benchmark row's tier, looked up once per decision (one source read per distinct
 * source: the rows of one source are mostly together). */
static void bench_tiers(decision *d)
{
    if (d->bench_tier)
        return;
    d->bench_tier = gw_xmalloc((d->n_bench + 1) * sizeof *d->bench_tier);
    for (size_t i = 0; i < d->n_bench; i++) {
        const char *src = d->bench[i].source;
        int tier = -1;
        for (size_t j = 0; j < i && tier < 0; j++)
            if (decide_str_eq(d->bench[j].source, src))
                tier = d->bench_tier[j];
        if (tier < 0) {
            kb_source s;
            tier = 2;
            if (src && kb_source_get(d->k, src, &s, NULL) == GW_OK) {
                tier = tier_of_kind(s.kind);
                kb_source_free(&s);
            }
        }
        d->bench_tier[i] = (signed char)tier;
    }
}

/* The measured results of the benchmark for gpu at count that the decision uses: those of the
 * best tier present (median, lowest and highest; o, when not NULL, cites their sources), and
 * how many of a lower tier were set aside. */
typedef struct measured {
    size_t n, set_aside;
    double median, lo, hi;
    int tier;
} measured;

static size_t measured_rows(decision *d, decide_option *o, const char *gpu, int count,
                            measured *m)
{
    bench_tiers(d);
    size_t first = bench_first_row(d, gpu), end = first;
    while (end < d->n_bench && decide_str_eq(d->bench[end].gpu, gpu))
        end++;
    memset(m, 0, sizeof *m);
    m->tier = 4;
    size_t all = 0;
    for (size_t i = first; i < end; i++)
        if ((int)d->bench[i].gpu_count == count && d->bench[i].value > 0) {
            all++;
            if (d->bench_tier[i] < m->tier)
                m->tier = d->bench_tier[i];
        }
    double *values = gw_xmalloc((end - first + 1) * sizeof *values);
    for (size_t i = first; i < end; i++) {
        const kb_benchmark *b = &d->bench[i];
        if ((int)b->gpu_count != count || !(b->value > 0) || d->bench_tier[i] != m->tier)
            continue;
        values[m->n++] = b->value;
        if (o)
            decide_option_cite(d, o, b->source);
    }
    m->set_aside = all - m->n;
    if (m->n) {
        m->median = decide_median(values, m->n);
        m->lo = values[0];
        m->hi = values[m->n - 1];
    }
    free(values);
    return m->n;
}

/* "measured on one X (3 results, 880 to 905; median 900)", with where the figure comes from
 * when it is not a benchmark, and what was set aside. */
static void measured_words(gw_buf *how, const measured *m, int count, const kb_gpu *g)
{
    if (count == 1)
        buf_printf(how, "measured on one %s", g->name);
    else
        buf_printf(how, "measured on %dx %s", count, g->name);
    if (m->n > 1 && m->hi > m->lo)
        buf_printf(how, " (%zu results from %s, %.0f to %.0f; median %.0f)", m->n,
                   tier_words[m->tier], m->lo, m->hi, m->median);
    else if (m->tier != 1)
        buf_printf(how, " (%.0f, from %s)", m->median, tier_words[m->tier]);
    else if (count == 1)
        buf_printf(how, " (%.0f)", m->median);
    if (m->set_aside)
        buf_printf(how, "; %zu result%s from a less trusted source set aside", m->set_aside,
                   m->set_aside == 1 ? "" : "s");
}

/* ---- bands ---- */

/* How sure a speed is: the spread of the measured results it rests on, as factors on their
 * median, and the MODEL_BAND_PERCENTILE error of each scaling applied to them (fractions; 0:
 * not applied). */
typedef struct speed_band {
    size_t n;                      /* measured results used (0: none) */
    int tier;                      /* their kind of source (tier_words) */
    double spread_lo, spread_hi;   /* lowest and highest / median; 1 and 1 for one result */
    double repro;                  /* the KB's reproducibility, where it bands the figure */
    int repro_spread;              /* it widened a spread of several results (not an error) */
    double gpu_error;              /* across GPUs: the specification scaling */
    double count_error;            /* across counts: the data-parallel efficiency, relative */
    double count_error_pp, efficiency;
    double model_error;            /* across models: the parameter scaling */
    double model_stretch;          /* how far beyond its calibration the parameter scaling goes */
    int model_scaled;              /* carried to the workload's model by its parameters */
    int gpu_scaled;                /* scaled from another GPU's results (n, tier: that GPU's) */
    double network_lo;             /* over machines: the efficiency with the network's time
                                    * doubled (0: one machine) */
    double exchange_lo;            /* without a step time: the efficiency with the exchange
                                    * counted at a stated compute (0: not left out) */
    double exchange_step_ms;       /* that compute, one step of one card */
    double cap_hi;                 /* the high end's physical limit, a ratio to the figure (0:
                                    * none): band_cap_linear, band_cap_spec */
    char cap_words[320];           /* where that limit comes from */
} speed_band;


double decide_repro_error(decision *d)
{
    if (!d->repro_cal_read) {
        d->repro_cal_read = 1;
        decide_repro_calibration(d, &d->repro_cal);
    }
    return model_calibration_band(&d->repro_cal);
}

void decide_repro_words(const decision *d, gw_buf *line)
{
    const model_calibration *c = &d->repro_cal;
    buf_printf(line, "the KB's own reproducibility on this benchmark: %d results of a GPU and "
                     "count measured more than once, each against the median of the others, "
                     "are off by %.1f%% at the %.0fth percentile (mean %.1f%%, at most %.1f%%)",
               c->rows, model_calibration_band(c) * 100, MODEL_BAND_PERCENTILE * 100,
               c->mean_error_pp, c->max_error_pp);
}

/* A measured figure's band: its results' spread; an article's figure, at least the KB's
 * reproducibility either way (as a ratio).  Only an article's: the KB's repeated measurements
 * set articles against benchmarks, so what they measure is how far an article strays from a
 * benchmark, not how far a benchmark's one result strays from another's (which keeps no band of
 * its own, and its band sentence says so).  An article's one result's is an error
 * like a scaling's, combined with theirs as independent errors (band_error): a scaled figure's
 * leave-one-out error already holds some of its source's own noise, so the two are not
 * stacked. */
static void band_of_measured(decision *d, speed_band *b, const measured *m)
{
    b->n = m->n;
    b->tier = m->tier;
    b->spread_lo = m->median > 0 ? m->lo / m->median : 1;
    b->spread_hi = m->median > 0 ? m->hi / m->median : 1;
    b->repro = 0;
    b->repro_spread = 0;
    if (m->tier != 3)
        return;
    double r = decide_repro_error(d);
    if (!(r > 0) || (b->spread_lo <= 1 / (1 + r) && b->spread_hi >= 1 + r))
        return;
    b->repro = r;
    if (m->n > 1) {
        b->repro_spread = 1;
        b->spread_lo = fmin(b->spread_lo, 1 / (1 + r));
        b->spread_hi = fmax(b->spread_hi, 1 + r);
    }
}

/* How far apart the reference benchmarks' models are in log parameters (ln(110M / 25.6M)),
 * the step decide_params_calibration tests.  A speed carried further has that calibration's
 * error times how many times longer its own step is (never less than once, one_card): an
 * error measured over a 4.3-fold step says little of a 60-fold one, and growing it with the log
 * of the step is the plainest stated assumption. */
static double params_span(void)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; model_benchmark_name(i); i++) {
        double p = model_benchmark_params(model_benchmark_name(i));
        lo = fmin(lo, p);
        hi = fmax(hi, p);
    }
    return hi > lo ? log(hi / lo) : 0;
}

/* The relative error of the methods applied together: sqrt of the sum of squares, as
 * independent errors combine. */
static double band_error(const speed_band *b)
{
    double repro = b->repro_spread ? 0 : b->repro;
    return sqrt(repro * repro + b->gpu_error * b->gpu_error +
                b->count_error * b->count_error + b->model_error * b->model_error);
}

/* Whether any scaling is applied to the figure (its errors, or an untested one). */
static int band_scaled(const speed_band *b)
{
    return b->gpu_error > 0 || b->count_error > 0 || b->model_error > 0 || b->model_scaled;
}

/* "off by 14% at the 80th percentile (...)" for each method applied, into basis. */
static void band_methods(const decision *d, const speed_band *b, gw_buf *basis)
{
    const char *sep = "";
    double pct = MODEL_BAND_PERCENTILE * 100;
    if (b->gpu_error > 0) {
        const model_calibration *c = d->spec_loo.rows ? &d->spec_loo : &d->spec_pairs;
        buf_printf(basis, "the specification scaling across GPUs, off by %.1f%% at the %.0fth "
                          "percentile (mean %.1f%%, at most %.1f%%; |predicted / measured - 1|, "
                          "%s %d %s)",
                   b->gpu_error * 100, pct, c->mean_error_pp, c->max_error_pp,
                   d->spec_loo.rows ? "leave-one-out over the" : "over the", c->rows,
                   d->spec_loo.rows ? "GPUs the KB measures on this benchmark, each scaled from "
                                      "its nearest as if unmeasured"
                                    : "pairs of one vendor's GPUs measured on a reference "
                                      "benchmark");
        sep = "; ";
    }
    if (b->count_error > 0) {
        buf_printf(basis, "%sthe data-parallel efficiency across counts, off by %.1f points at "
                          "the %.0fth percentile (mean %.1f) over the KB's %d multi-GPU results, "
                          "%.1f%% of this option's %.1f%%", sep, b->count_error_pp, pct,
                   d->count_cal.mean_error_pp, d->count_cal.rows, b->count_error * 100,
                   b->efficiency * 100);
        sep = "; ";
    }
    if (b->model_scaled && !(b->model_error > 0))
        buf_printf(basis, "%sthe parameter scaling from the benchmark's model to this one, "
                          "untested: the KB measures no GPU on two reference benchmarks", sep);
    else if (b->model_error > 0)
        buf_printf(basis, "%sthe parameter scaling from the benchmark's model to this one, off "
                          "by %.1f%% at the %.0fth percentile (mean %.1f%%) between the "
                          "reference benchmarks' models (%d predictions, each GPU measured on "
                          "both), x %.2f for a step that many times as long in log parameters: "
                          "%.1f%%", sep, b->model_error / b->model_stretch * 100, pct,
                   d->params_cal.mean_error_pp, d->params_cal.rows, b->model_stretch,
                   b->model_error * 100);
}

/* The sentence that says where o's band comes from (e: the scalings' combined error). */
static void band_basis_words(const decision *d, const speed_band *b, double e, gw_buf *basis)
{
    const char *of = b->gpu_scaled ? " of the GPU it is scaled from" : "";
    if (b->n > 1)
        buf_printf(basis, "the spread of the %zu measured results%s used (from %s), lowest to "
                          "highest", b->n, of, tier_words[b->tier]);
    else if (b->n == 1)
        buf_printf(basis, "one measured result%s (from %s): no spread of its own", of,
                   tier_words[b->tier]);
    if (b->repro > 0) {
        buf_puts(basis, b->repro_spread ? ", at least " : ", so it is given ");
        decide_repro_words(d, basis);
        if (b->repro_spread)
            buf_printf(basis, ", / %.3g to x %.3g", 1 + b->repro, 1 + b->repro);
    }
    if (band_scaled(b)) {
        buf_printf(basis, "%sthe %.0fth percentile of each scaling's errors on the KB's own "
                          "measurements (a band holds where the truth plausibly lies, so four in "
                          "five of the KB's own scaled figures fall inside it; the mean is half "
                          "of them): ", b->n ? ", widened by " : "",
                   MODEL_BAND_PERCENTILE * 100);
        band_methods(d, b, basis);
    }
    if ((b->repro > 0 && !b->repro_spread) + (b->gpu_error > 0) + (b->count_error > 0) +
            (b->model_error > 0) > 1)
        buf_printf(basis, "; combined as independent errors, sqrt of the sum of squares: "
                          "%.1f%%", e * 100);
    if (b->exchange_lo > 0)
        buf_printf(basis, "; the figure leaves the gradient exchange out (no measured step time): "
                          "the low end counts it, against a step of one card at the work rate "
                          "of the KB's reference benchmarks (%.3g parameter-samples a second "
                          "per tensor TFLOPS, the median of %d one-card results) carried to "
                          "this model's parameters, %.3g ms a step: %.1f%% efficiency instead "
                          "of %.1f%%", d->work_rate, d->work_rate_rows, b->exchange_step_ms,
                   b->exchange_lo * 100, b->efficiency * 100);
    if (b->network_lo > 0)
        buf_printf(basis, "; the across-counts calibration is of runs inside one machine and "
                          "says nothing of the network between machines: the low end is the "
                          "model's efficiency with the network's time in each step doubled "
                          "(as if it ran at half its stated rate), %.1f%% instead of %.1f%%",
                   b->network_lo * 100, b->efficiency * 100);
}

/* A measured figure on count cards cannot beat count times the same GPU's one-card
 * measurement (one_card_median, its median): linear scaling is the physical limit of data
 * parallelism. */
static void band_cap_linear(speed_band *b, int count, double one_card_median, double figure)
{
    if (!(one_card_median > 0) || !(figure > 0) || count < 2)
        return;
    b->cap_hi = fmax(count * one_card_median / figure, 1);
    gw_buf w = GW_BUF_INIT;
    buf_printf(&w, "; its high end is at most linear scaling of the same GPU's one-card "
                   "measurement, %d x ", count);
    view_format_number(&w, one_card_median, 0);
    buf_puts(&w, " = ");
    view_format_number(&w, count * one_card_median, 0);
    buf_printf(&w, " (x %.3g the figure)", b->cap_hi);
    snprintf(b->cap_words, sizeof b->cap_words, "%s", buf_cstr(&w));
    buf_free(&w);
}

/* A figure scaled by sqrt(tensor ratio x bandwidth ratio) cannot beat the larger of the two
 * ratios times its source's: no workload is faster than its faster-growing resource allows. */
static void band_cap_spec(speed_band *b, const model_gpu_spec *from, const model_gpu_spec *to)
{
    double tensor = to->tensor_tflops / from->tensor_tflops;
    double bandwidth = to->bandwidth_gbs / from->bandwidth_gbs;
    if (!(tensor > 0) || !(bandwidth > 0))
        return;
    b->cap_hi = fmax(tensor, bandwidth) / sqrt(tensor * bandwidth);
    snprintf(b->cap_words, sizeof b->cap_words,
             "; its high end is at most what the specifications allow, the larger of their "
             "ratios (tensor x %.3g, bandwidth x %.3g) times the source's figure: x %.3g the "
             "figure, which is scaled by sqrt(x %.3g x %.3g) = x %.3g",
             tensor, bandwidth, b->cap_hi, tensor, bandwidth, sqrt(tensor * bandwidth));
}

/* o's low and high ends from its band (a measured spread widened by 1 + e either way for the
 * combined error e of the scalings, a ratio so that it stays above zero however large e is;
 * over several machines, lower still by the network's doubled time), the sentence that says
 * where they come from, and their words in how. */
static void band_apply(const decision *d, decide_option *o, const speed_band *b, gw_buf *how)
{
    if (isnan(o->throughput))
        return;
    double e = band_error(b);
    double low_eff = b->network_lo > 0 ? b->network_lo : b->exchange_lo;
    double network = low_eff > 0 && b->efficiency > 0 ? low_eff / b->efficiency : 1;
    o->throughput_lo = o->throughput * b->spread_lo / (1 + e) * network;
    o->throughput_hi = o->throughput * b->spread_hi * (1 + e);
    int capped = b->cap_hi > 0 && o->throughput_hi > o->throughput * b->cap_hi;
    if (capped)
        o->throughput_hi = o->throughput * b->cap_hi;
    gw_buf basis = GW_BUF_INIT;
    band_basis_words(d, b, e, &basis);
    if (capped)
        buf_puts(&basis, b->cap_words);
    /* A spread of several results alone is in the how's own words already. */
    if (o->throughput_hi > o->throughput_lo && (e > 0 || b->repro > 0 || network < 1)) {
        double lo = o->throughput_lo / o->throughput, hi = o->throughput_hi / o->throughput;
        buf_printf(&basis, "; the band is the figure x %.3g to x %.3g", lo, hi);
        buf_puts(how, "; band ");
        view_format_number(how, o->throughput_lo, o->throughput_hi < 100 ? 2 : 0);
        buf_puts(how, " to ");
        view_format_number(how, o->throughput_hi, o->throughput_hi < 100 ? 2 : 0);
        buf_printf(how, " (x %.3g to x %.3g: %s%s%s)", lo, hi,
                   band_scaled(b) ? "the 80th-percentile error of each scaling applied on the "
                                    "KB's own measurements"
                   : b->repro > 0 ? "the KB's reproducibility, a figure with no spread of its own"
                                  : "the results' spread",
                   b->network_lo > 0    ? ", lower for the network the calibration does not cover"
                   : b->exchange_lo > 0 ? ", lower for the gradient exchange the figure leaves out"
                                        : "",
                   capped ? "; the high end at the physical limit its band basis states" : "");
    } else if (!b->n) {
        buf_puts(&basis, "no measured result and no scaling whose error the KB can measure: "
                         "no band");
    }
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}

/* ---- one card ---- */

/* The measured GPU most like g (NULL: none measured of its vendor): of the same vendor only
 * (another vendor's software stack makes its measurements no guide); of the same architecture,
 * sold the same way (a card, or a module on a board) and of the same class (consumer or
 * data-centre) first, then nearest in specifications. */
static const kb_gpu *nearest_measured(decision *d, const kb_gpu *g)
{
    /* Every scaled option asks this of its GPU: the answer is kept, once a GPU (each rental
     * of a grown catalogue asked again, 3% of a decision) */
    uintptr_t at = (uintptr_t)g, first = (uintptr_t)d->gpus;
    size_t gi = at >= first && at < first + d->n_gpus * sizeof *d->gpus
                    ? (size_t)(g - d->gpus) : SIZE_MAX;
    if (gi != SIZE_MAX && d->nearest_one && d->nearest_one[gi])
        return d->nearest_one[gi] == SIZE_MAX ? NULL : &d->gpus[d->nearest_one[gi] - 1];
    model_gpu_spec target = decide_gpu_spec(d, g);
    const kb_gpu *nearest = NULL;
    double best = INFINITY;
    int best_unlike = 4;
    if (!d->measured_one)   /* every scaled option asks this of every GPU: once each */
        d->measured_one = gw_xcalloc(d->n_gpus + 1, 1);
    for (size_t i = 0; i < d->n_gpus; i++) {
        const kb_gpu *r = &d->gpus[i];
        measured m;
        if (!d->measured_one[i])
            d->measured_one[i] = measured_rows(d, NULL, r->id, 1, &m) ? 1 : 2;
        if (r == g || d->measured_one[i] != 1 || !decide_text_same(r->vendor, g->vendor))
            continue;
        int unlike = !decide_text_same(r->architecture, g->architecture) +
                     (decide_gpu_sold_as_card(r) != decide_gpu_sold_as_card(g)) +
                     (decide_gpu_is_consumer(r) != decide_gpu_is_consumer(g));
        model_gpu_spec rs = decide_gpu_spec(d, r);
        double dist = model_spec_distance(&rs, &target);
        if (unlike < best_unlike || (unlike == best_unlike && dist < best)) {
            best_unlike = unlike;
            best = dist;
            nearest = r;
        }
    }
    if (gi != SIZE_MAX) {
        if (!d->nearest_one)
            d->nearest_one = gw_xcalloc(d->n_gpus + 1, sizeof *d->nearest_one);
        d->nearest_one[gi] = nearest ? (size_t)(nearest - d->gpus) + 1 : SIZE_MAX;
    }
    return nearest;
}

/* The workload's model against the benchmark's: 1 when it is the benchmark's (or either
 * parameter count is unknown), else the factor the benchmark's speeds are carried to it by. */
static double model_factor(const decision *d)
{
    double bench = model_benchmark_params(d->w->benchmark);
    if (model_is_benchmark_model(bench, d->w->params))
        return 1;
    return model_scale_by_params(1, bench, d->w->params);
}

/* "1.5B" or "25.6M" parameters. */
static void params_words(gw_buf *how, double params)
{
    if (params >= 1e9)
        buf_printf(how, "%.3gB", params / 1e9);
    else
        buf_printf(how, "%.3gM", params / 1e6);
}

/* One card of g on the workload's benchmark: measured, else scaled from the nearest measured
 * GPU; then carried to the workload's own model when it is not the benchmark's (b: what the
 * figure rests on and the errors of the scalings applied). */
static double one_card(decision *d, decide_option *o, const kb_gpu *g, speed_band *b,
                       gw_buf *how)
{
    measured m;
    double value;
    if (measured_rows(d, o, g->id, 1, &m)) {
        if (how)
            measured_words(how, &m, 1, g);
        band_of_measured(d, b, &m);
        value = m.median;
    } else {
        const kb_gpu *nearest = nearest_measured(d, g);
        if (!nearest) {
            if (how)
                buf_printf(how, "no %s GPU is measured on this benchmark to scale from",
                           g->vendor ? g->vendor : "such");
            return NAN;
        }
        measured_rows(d, o, nearest->id, 1, &m);
        /* What it is scaled from has its own band: a scaled figure is never surer than a
         * measured one. */
        band_of_measured(d, b, &m);
        b->gpu_scaled = 1;
        model_gpu_spec rs = decide_gpu_spec(d, nearest), target = decide_gpu_spec(d, g);
        value = model_scale_throughput(m.median, &rs, &target);
        band_cap_spec(b, &rs, &target);
        if (o) {
            decide_option_cite(d, o, g->source);
            decide_option_cite(d, o, nearest->source);
        }
        b->gpu_error = model_calibration_band(&d->spec_loo);
        if (how && !isnan(value))
            buf_printf(how,
                       "scaled from %s (measured %.0f) by sqrt(tensor %.0f/%.0f TFLOPS x "
                       "bandwidth %.0f/%.0f GB/s)",
                       nearest->name, m.median, target.tensor_tflops, rs.tensor_tflops,
                       target.bandwidth_gbs, rs.bandwidth_gbs);
    }
    double factor = model_factor(d);
    if (factor == 1 || isnan(value))
        return value;
    double bench = model_benchmark_params(d->w->benchmark);
    double step = fabs(log(d->w->params / bench)), span = params_span();
    b->model_scaled = 1;
    b->model_stretch = span > 0 ? fmax(1, step / span) : 1;
    b->model_error = model_calibration_band(&d->params_cal) * b->model_stretch;
    if (how) {
        buf_printf(how, "; x %.3g for the workload's own model: ", factor);
        params_words(how, bench);
        buf_printf(how, " parameters (%s) / ", d->w->benchmark);
        params_words(how, d->w->params);
        buf_puts(how, ", per-sample work in proportion to parameters (a stated model: the "
                      "benchmark measures another model)");
    }
    return value * factor;
}

double decide_single_card_speed(decision *d, decide_option *o, const kb_gpu *g, int *measured_out,
                                gw_buf *how)
{
    speed_band b = {0};
    double value = one_card(d, o, g, &b, how);
    *measured_out = b.n > 0 && !b.model_scaled && !b.gpu_scaled;
    return value;
}

/* ---- several cards ---- */

/* parallelism = "none": one card does the work, whatever the count (the others idle). */
static int one_card_works(const decision *d)
{
    return decide_str_eq(d->w->parallelism, "none");
}

/* Whether g's cards reach each other's memory directly over PCIe: the KB's flag for the card
 * (its sources: NVIDIA's driver disables GPU peer-to-peer on GeForce cards, whose traffic then
 * goes through host memory).  Where the KB does not say, the rule it held before the flag:
 * GeForce cards from the RTX 40 series (Ada) on, the 50 series (Blackwell) included, lack it. */
int decide_gpu_p2p(const kb_gpu *g)
{
    if (g->p2p == 0 || g->p2p == 1)
        return g->p2p;
    return !(decide_gpu_is_consumer(g) && g->architecture &&
             (!strncmp(g->architecture, "Ada", 3) || !strcmp(g->architecture, "Blackwell")));
}

/* How much of count x one card o's cards deliver together (single: one card's speed, NaN when
 * unknown; gradient_bytes 0 when nothing is trained). */
static double efficiency(const decision *d, const decide_option *o, double single, double batch,
                         double gradient_bytes)
{
    if (o->count == 1)
        return 1;
    if (one_card_works(d))
        return 1.0 / o->count;
    if (o->split)
        return o->nvlink ? MODEL_PARALLEL_EFFICIENCY_NVLINK : MODEL_PARALLEL_EFFICIENCY_PCIE;
    if (o->hosts > 1)
        return model_scaling_efficiency_hosts(o->count / o->hosts, o->hosts, single, batch,
                                              gradient_bytes, o->link_gbs,
                                              o->network_gbps / 8);
    return model_scaling_efficiency(o->count, single, batch, gradient_bytes, o->link_gbs);
}

/* The link o's gradients cross, in words, for the method of each scaled option. */
static void link_words(gw_buf *how, const decide_option *o)
{
    if (o->hosts > 1)
        buf_printf(how, "%d machines of %d over a %.0f Gb/s network (%.3g GB/s), within each "
                        "over ", o->hosts, o->count / o->hosts, o->network_gbps,
                   o->network_gbps / 8);
    if (o->nvlink)
        buf_printf(how, "%s (%.0f GB/s each way)", link_name(o->gpu), o->link_gbs);
    else if (decide_gpu_p2p(o->gpu))
        buf_printf(how, "PCIe %.0f.0 x%.0f (%.0f GB/s each way)",
                   o->gpu->pcie_gen > 0 ? o->gpu->pcie_gen : 4,
                   o->gpu->pcie_lanes > 0 ? o->gpu->pcie_lanes : 16, o->link_gbs);
    else
        buf_printf(how, "PCIe %.0f.0 x%.0f without peer-to-peer, through host memory (%.0f GB/s)",
                   o->gpu->pcie_gen > 0 ? o->gpu->pcie_gen : 4,
                   o->gpu->pcie_lanes > 0 ? o->gpu->pcie_lanes : 16, o->link_gbs);
}

/* The KB's results for o's GPU and count, when it has some and the workload's model is the
 * benchmark's (not for a split model, nor for several cards of which one works, nor across
 * machines: the KB's runs are in one machine).  A measurement at the option's own count is
 * used whatever its kind of source (the most trusted kind present at that count): a scaled
 * figure from a better-trusted one-card result carries the scaling's error on top. */
static int speed_measured(decision *d, decide_option *o, gw_buf *how, speed_band *b)
{
    measured m;
    size_t n = o->split || o->hosts > 1 || (o->count > 1 && one_card_works(d)) ||
                       model_factor(d) != 1
                   ? 0
                   : measured_rows(d, o, o->gpu->id, o->count, &m);
    if (!n)
        return 0;
    o->measured = 1;
    o->throughput = m.median;
    band_of_measured(d, b, &m);
    measured one;
    if (o->count > 1 && measured_rows(d, o, o->gpu->id, 1, &one))
        band_cap_linear(b, o->count, one.median, m.median);
    measured_words(how, &m, o->count, o->gpu);
    return 1;
}

/* The relative error of a modelled efficiency: the across-count calibration's error in points
 * (MODEL_BAND_PERCENTILE) over the efficiency itself. */
static void count_error(const decision *d, speed_band *b, double eff)
{
    if (!d->count_cal.rows || !(eff > 0))
        return;
    b->count_error_pp = model_calibration_band(&d->count_cal) * 100;
    b->efficiency = eff;
    b->count_error = b->count_error_pp / 100 / eff;
}

/* Over several machines the across-counts calibration (runs inside one machine) says nothing of
 * the network: the low end is the model's efficiency with the network's time in each step
 * doubled (model_scaling_efficiency_hosts at half the network's rate), so the band widens
 * downward by as much as the network's share of a step, the part the KB never measured. */
static void network_band(const decide_option *o, speed_band *b, double single, double batch,
                         double gradient_bytes, double eff)
{
    if (o->hosts < 2 || o->split || !(eff > 0) || !(gradient_bytes > 0))
        return;
    double slow = model_scaling_efficiency_hosts(o->count / o->hosts, o->hosts, single, batch,
                                                 gradient_bytes, o->link_gbs,
                                                 o->network_gbps / 8 / 2);
    if (slow > 0 && slow < eff) {
        b->network_lo = slow;
        b->efficiency = eff;
    }
}

/* Several machines of which one machine's count is measured: that measured figure times the
 * machines, at the model's efficiency across the network relative to its efficiency within one
 * machine (the measurement already holds what happens inside one).  0 when there is no such
 * measurement, or the workload's model is not the benchmark's. */
static int speed_from_one_machine(decision *d, decide_option *o, gw_buf *how, speed_band *b)
{
    measured m;
    int per_host = o->count / o->hosts;
    if (o->hosts < 2 || o->split || one_card_works(d) || model_factor(d) != 1 ||
        !measured_rows(d, NULL, o->gpu->id, per_host, &m))
        return 0;
    int single_measured = 0;
    double single = decide_single_card_speed(d, NULL, o->gpu, &single_measured, NULL);
    double batch = decide_batch_per_gpu(d->w);
    double across = efficiency(d, o, single, batch, d->gradient_bytes);
    double within = model_scaling_efficiency(per_host, single, batch, d->gradient_bytes,
                                             o->link_gbs);
    if (isnan(single) || !(within > 0))
        return 0;
    measured_rows(d, o, o->gpu->id, per_host, &m);   /* now cited */
    decide_single_card_speed(d, o, o->gpu, &single_measured, NULL);
    double ratio = across / within;
    o->efficiency = m.median / (single * per_host) * ratio;
    o->throughput = m.median * o->hosts * ratio;
    band_of_measured(d, b, &m);
    count_error(d, b, across);
    network_band(o, b, single, batch, d->gradient_bytes, across);
    measured_words(how, &m, per_host, o->gpu);
    buf_printf(how, " in one machine; x%d machines at %.1f%% of that (the model's %.1f%% across "
                    "machines against %.1f%% within one): ",
               o->hosts, ratio * 100, across * 100, within * 100);
    link_words(how, o);
    return 1;
}

/* One card's speed times the cards, at the efficiency of their interconnect. */
static void speed_scaled(decision *d, decide_option *o, gw_buf *how, speed_band *b)
{
    if (speed_from_one_machine(d, o, how, b))
        return;
    double single = one_card(d, o, o->gpu, b, how);
    if (isnan(single))
        return;
    double eff = efficiency(d, o, single, decide_batch_per_gpu(d->w), d->gradient_bytes);
    o->efficiency = eff;
    o->throughput = single * o->count * eff;
    if (o->count > 1 && one_card_works(d)) {
        buf_printf(how, "; parallelism = \"none\": one of the %d cards does the work", o->count);
        return;
    }
    if (o->count > 1 && o->split) {
        /* An assumed efficiency, untested: the data-parallel calibration is the nearest the KB
         * can measure. */
        count_error(d, b, eff);
        buf_printf(how, "; split over %d cards (model parallelism) at %.0f%% efficiency over %s",
                   o->count, eff * 100, o->nvlink ? link_name(o->gpu) : "PCIe");
    } else if (o->count > 1 && !(d->gradient_bytes > 0)) {
        buf_printf(how, "; x%d, nothing trained: no gradients to exchange", o->count);
    } else if (o->count > 1) {
        count_error(d, b, eff);
        network_band(o, b, single, decide_batch_per_gpu(d->w), d->gradient_bytes, eff);
        buf_printf(how, "; x%d at %.1f%% data-parallel efficiency over ", o->count, eff * 100);
        link_words(how, o);
    }
}

/* The share of a step spent exchanging gradients (what the NVLink rule weighs). */
static void comm_fraction(const decision *d, decide_option *o)
{
    if (o->count < 2 || isnan(o->throughput) || !(d->gradient_bytes > 0))
        return;
    double per_card = o->throughput / o->count;
    o->comm_fraction = model_allreduce_seconds_hosts(o->count / o->hosts, o->hosts,
                                                     d->gradient_bytes, o->link_gbs,
                                                     o->network_gbps / 8) /
                       (decide_batch_per_gpu(d->w) / per_card);
}

/* Without a benchmark the efficiency leaves the gradient exchange out (no step time to set it
 * against): the low end counts it, through the same model as a measured step, against a step
 * of one card at the work rate the KB's reference benchmarks measure (decide_work_rate: their
 * one-card results x their models' parameters per tensor TFLOPS), carried to the workload's
 * parameters as the engine carries any benchmark (per-sample work in proportion to them). */
static void exchange_band(decision *d, const decide_option *o, speed_band *b, double eff)
{
    model_gpu_spec s = decide_gpu_spec(d, o->gpu);
    double rate = decide_work_rate(d);
    if (!(d->w->params > 0) || !(s.tensor_tflops > 0) || !(rate > 0) || !(eff > 0))
        return;
    double single = rate * s.tensor_tflops / d->w->params;   /* samples/s */
    double batch = decide_batch_per_gpu(d->w);
    double with = efficiency(d, o, single, batch, d->gradient_bytes);
    if (with > 0 && with < eff) {
        b->exchange_lo = with;
        b->exchange_step_ms = batch / single * 1e3;
        b->efficiency = eff;
    }
}

/* Without a benchmark: speed relative to the reference GPU, from specifications alone. */
static void speed_relative(decision *d, decide_option *o, gw_buf *how, speed_band *b)
{
    const kb_gpu *g = o->gpu, *ref = d->reference;
    if (!decide_text_same(g->vendor, ref->vendor)) {
        /* Hours on one vendor's card say nothing of another's: another software stack. */
        buf_printf(how, "the work is given in hours on %s, and the speed of a GPU by %s cannot "
                        "be scaled from it", ref->name, g->vendor ? g->vendor : "another vendor");
        return;
    }
    model_gpu_spec rs = decide_gpu_spec(d, ref), ts = decide_gpu_spec(d, g);
    double ratio = decide_str_eq(g->id, ref->id) ? 1 : model_scale_throughput(1, &rs, &ts);
    double eff = efficiency(d, o, NAN, 0, d->gradient_bytes);
    o->efficiency = eff;
    o->throughput = ratio * o->count * eff;
    if (!decide_str_eq(g->id, ref->id)) {
        b->gpu_error = model_calibration_band(&d->spec_pairs);
        band_cap_spec(b, &rs, &ts);
    }
    if (o->count > 1 && !one_card_works(d) && (o->split || d->gradient_bytes > 0))
        count_error(d, b, eff);
    decide_option_cite(d, o, g->source);
    decide_option_cite(d, o, ref->source);
    buf_printf(how, "scaled from %s by tensor throughput and memory bandwidth", ref->name);
    if (o->count > 1 && d->gradient_bytes > 0 && !o->split && !one_card_works(d)) {
        exchange_band(d, o, b, eff);
        buf_printf(how, "; x%d at %.0f%%: the 3%% synchronisation overhead only, the exchange of "
                        "%.3g GB of gradients a step left out (no measured step time to set it "
                        "against: an optimistic estimate)",
                   o->count, eff * 100, d->gradient_bytes / 1e9);
    } else if (o->count > 1)
        buf_printf(how, "; x%d at %.0f%% efficiency", o->count, eff * 100);
}

/* Several consumer cards in a poorly cooled room throttle (the workload says cooling = poor). */
static void cooling_penalty(decision *d, decide_option *o, gw_buf *how)
{
    if (isnan(o->throughput) || !decide_str_eq(d->w->cooling, "poor") || !o->consumer ||
        o->count < 2 || o->acquisition == DECIDE_RENT)
        return;
    double kept = d->facts[KB_ASSUMED_POOR_COOLING].value;
    o->throughput *= kept;
    o->throughput_lo *= kept;
    o->throughput_hi *= kept;
    buf_printf(how, "; -%.0f%% for heat throttling in a poorly cooled room", (1 - kept) * 100);
    if (decide_fact_cite(d, KB_ASSUMED_POOR_COOLING))
        decide_option_cite(d, o, d->facts[KB_ASSUMED_POOR_COOLING].source);
}

/* Throughput of o's configuration (benchmark units/s, or x reference without a benchmark). */
static void read_calibrations(decision *d);

/* The speed stage with how, the sentence saying how, written to or dropped. */
static void option_speed(decision *d, decide_option *o, gw_buf how)
{
    const kb_gpu *g = o->gpu;
    speed_band band = {.spread_lo = 1, .spread_hi = 1};
    o->nvlink = decide_gpu_board_link(g) && o->count > 1;
    o->link_gbs = model_link_gbs(o->nvlink, g->nvlink_gbs, g->pcie_gen, g->pcie_lanes, decide_gpu_p2p(g));
    o->throughput = NAN;
    if (workload_is_llm(d->w)) {
        decide_llm_speed(d, o, &how);
    } else {
        read_calibrations(d);
        if (decide_precision_words(d, g, 1, &how))
            buf_puts(&how, "; ");
        if (!d->n_bench)
            speed_relative(d, o, &how, &band);
        else if (!speed_measured(d, o, &how, &band))
            speed_scaled(d, o, &how, &band);
    }
    cooling_penalty(d, o, &how);
    if (!workload_is_llm(d->w)) {   /* a language model's slice: in decide_llm_speed */
        band_apply(d, o, &band, &how);
        decide_slice_share(o, &how);
        if (d->n_bench)
            comm_fraction(d, o);
    }
    o->throughput_how = buf_detach(&how);
}

void decide_option_speed(decision *d, decide_option *o)
{
    option_speed(d, o, (gw_buf)GW_BUF_INIT);
}

void decide_option_speed_figures(decision *d, decide_option *o)
{
    d->speed_figures_only = 1;
    option_speed(d, o, (gw_buf)GW_BUF_DISCARD);
    d->speed_figures_only = 0;
}

/* ---- calibration (the others: decide_calibrate.c) ---- */

/* The scaling the decision does, tested on the GPUs it can check: each GPU measured on one card
 * with the workload's benchmark, hidden in turn and scaled from the measured GPU most like it
 * (nearest_measured, which never picks the GPU itself), against its own measurement. */
int decide_spec_loo_calibration(decision *d, model_calibration *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < d->n_gpus; i++) {
        const kb_gpu *g = &d->gpus[i];
        measured own, ref;
        if (!measured_rows(d, NULL, g->id, 1, &own))
            continue;
        const kb_gpu *nearest = nearest_measured(d, g);
        if (!nearest || !measured_rows(d, NULL, nearest->id, 1, &ref))
            continue;
        model_gpu_spec rs = decide_gpu_spec(d, nearest), ts = decide_gpu_spec(d, g);
        double predicted = model_scale_throughput(ref.median, &rs, &ts);
        if (predicted > 0)
            model_calibration_add(out, predicted / own.median, 1);
    }
    return GW_OK;
}

/* The calibrations the bands of scaled speeds read, once per decision, before the first. */
static void read_calibrations(decision *d)
{
    if (d->speed_cal_read)
        return;
    d->speed_cal_read = 1;
    if (d->n_bench)
        decide_spec_loo_calibration(d, &d->spec_loo);
    else
        decide_spec_calibration(d, &d->spec_pairs, NULL);
    decide_scaling_calibration(d, &d->count_cal, NULL);
    decide_params_calibration(d, &d->params_cal);
}

/* ---- the method's words ---- */

void decide_speed_evidence_words(const decision *d, gw_buf *line)
{
    double bench = model_benchmark_params(d->w->benchmark);
    buf_printf(line, "; a result at the option's own GPU and count is used as measured whatever "
                     "its kind of source (a figure scaled from a better-trusted one would carry "
                     "the scaling's error on top); a benchmark measures its own model: where the "
                     "workload's parameters are more than %.0f%% from the benchmark's, no result "
                     "is used as measured, and one card's is carried to the workload's model by "
                     "per-sample work in proportion to parameters (a stated model), its cards "
                     "by the workload's own gradients over each option's link",
               MODEL_SAME_MODEL_TOLERANCE * 100);
    if (d->n_bench && !model_is_benchmark_model(bench, d->w->params)) {
        buf_puts(line, ": here ");
        params_words(line, d->w->params);
        buf_printf(line, " against %s's ", d->w->benchmark);
        params_words(line, bench);
    }
}

const char *decide_speed_kind(const decision *d, const decide_option *o)
{
    if (o->measured)
        return "measured";
    return o->measured_whole || !workload_is_llm(d->w) ? "scaled" : "modelled";
}

int decide_speed_kind_rank(const decision *d, const decide_option *o)
{
    return o->measured ? 0 : o->measured_whole || !workload_is_llm(d->w) ? 1 : 2;
}
