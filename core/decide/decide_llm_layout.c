/* decide_llm_layout.c — how a serving option's GPUs are laid out for a language model: the
 * tensor-parallel widths, pipeline stages and replicas tried, each one's memory per GPU and speed
 * (model_llm_serving), the requests in flight an arrival rate keeps on each (Little's law's fixed
 * point), the choice among them against the workload's targets and the target an option still
 * misses; and what a training layout costs, a workload's or a measured row's stated one. */
#include "decide_llm.h"
#include "decide_demand.h"
#include "decide_speed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "kb/kb_layout.h"
#include "model/precision.h"

/* The widest tensor-parallel group tried: the GPUs of one NVLink domain of the usual 8-GPU
 * server, and the largest a single machine's link serves. */
#define LAYOUT_MAX_TP 8

static int per_host_count(const decide_option *o)
{
    return o->count / (o->hosts > 0 ? o->hosts : 1);
}

/* The network between o's machines in GB/s: its own (a server's ports, a rental's stated
 * network), else the workload's network_gbps where the workload states it; NaN none. */
static double network_gbs(const decision *d, const decide_option *o)
{
    if (o->network_gbps > 0)
        return o->network_gbps / 8;
    if (o->hosts > 1 && !d->fact_cite[KB_ASSUMED_HOST_NETWORK] && d->w->network_gbps > 0)
        return d->w->network_gbps / 8;
    return NAN;
}

/* The parallel layout model_llm_serving reads for tp x pp GPUs of o. */
static model_llm_layout parallel_of(const decision *d, const decide_option *o, int tp, int pp)
{
    const kb_gpu *g = o->gpu;
    int nvlink = decide_gpu_board_link(g) && tp > 1;
    return (model_llm_layout){.tp = tp,
                              .pp = pp,
                              .nvlink = nvlink,
                              .link_gbs = model_link_gbs(nvlink, g->nvlink_gbs, g->pcie_gen,
                                                         g->pcie_lanes, decide_gpu_p2p(g)),
                              .network_gbs = pp > 1 ? network_gbs(d, o) : NAN};
}

/* The workload's setup as o serves it: the precision its GPUs run, its layout's attention
 * data-parallel or not, `sequences` in flight a replica. */
static model_llm_setup serving_setup(const decision *d, const decide_option *o, double sequences)
{
    model_llm_setup s = d->llm_setup;
    s.precision = o->run_precision;   /* weights served at what the GPU runs */
    s.attention_dp = o->attention_dp;
    s.sequences = sequences;
    return s;
}

/* The dense tensor rate o's GPUs serve at (NaN or 0 where the KB has none). */
static double serve_rate(const decide_option *o)
{
    return gw_precision_rate(gw_precision_find(o->run_precision), o->gpu);
}

void decide_llm_serving_of(const decision *d, const decide_option *o, double tflops, double mfu,
                           double decode_fraction, model_serving *out)
{
    model_llm_setup s = serving_setup(d, o, o->sequences);
    model_llm_layout l = parallel_of(d, o, o->tp, o->pp > 1 ? o->pp : 1);
    model_llm_serving(&d->llm, &s, d->w->serve_context, d->w->serve_output, &l, tflops,
                      o->gpu->memory_bandwidth_gbs, mfu, decode_fraction, out);
}

/* How far l is from the targets: the worst of tpot / target, ttft / target and target
 * tokens/s / its tokens/s (NaN targets left out; NaN when none is stated). */
static double shortfall_of(const workload *w, const decide_llm_layout *l)
{
    double worst = NAN;
    if (!isnan(w->target_tpot_ms))
        worst = fmax(worst, l->serving.tpot_s * 1e3 / w->target_tpot_ms);
    if (!isnan(w->target_ttft_ms))
        worst = fmax(worst, l->serving.prefill_s * 1e3 / w->target_ttft_ms);
    if (!isnan(w->target_tokens_per_s))
        worst = fmax(worst, w->target_tokens_per_s / l->tokens_per_s);
    return worst;
}

int decide_llm_serving_replicas(const decision *d, int replicas)
{
    int serving = replicas - decide_demand_spares(d);
    return serving >= 1 ? serving : replicas;
}

/* ---- requests in flight under an arrival rate ---- */

/* How far the bisection narrows the fixed point: a millionth of a sequence's share. */
#define INFLIGHT_TOLERANCE 1e-6
/* A fixed point must hold with this margin, so that what it completes is the demand or more
 * after rounding (decide_demand_serve costs an option for the demand where it reaches it). */
#define INFLIGHT_MARGIN 1e-9

/* What a search over the requests in flight of one replica of o laid out as l reads at every
 * step, made once (model_llm_serving_fixed; parallel_of's layout too: it was 11% of `gpuwise
 * report examples/llm-fleet.lua`). */
static void serving_fixed(const decision *d, const decide_option *o, const model_llm_layout *l,
                          double tflops, double mfu, double decode_fraction,
                          model_serving_fixed *f)
{
    model_llm_setup s = serving_setup(d, o, 0);
    model_llm_serving_fixed(&d->llm, &s, d->w->serve_context, d->w->serve_output, l, tflops,
                            o->gpu->memory_bandwidth_gbs, mfu, decode_fraction, f);
}

double decide_llm_request_seconds(const decision *d, const model_serving *v)
{
    return v->prefill_s + d->w->serve_output * v->tpot_s;
}

double decide_llm_completed_tokens(const decision *d, const model_serving *v, double n)
{
    return n * d->w->serve_output / decide_llm_request_seconds(d, v);
}

double decide_llm_inflight_limit(const decision *d, const decide_option *o, int tp, int pp,
                                 int replicas)
{
    double limit = 1e7;   /* inference.concurrency's own bound */
    int serving = decide_llm_serving_replicas(d, replicas);
    if (d->w->serve_inflight_cap > 0)
        limit = d->w->serve_inflight_cap / serving;
    double memory_gb = decide_option_memory_gb(o);
    model_llm_setup s = serving_setup(d, o, 0);
    model_memory none, one;
    if (!(memory_gb > 0) || model_llm_memory(&d->llm, &s, replicas, tp, pp, &none, NULL) != GW_OK)
        return limit;
    s.sequences = 1;
    if (model_llm_memory(&d->llm, &s, replicas, tp, pp, &one, NULL) != GW_OK)
        return limit;
    /* The memory grows by one sequence's KV cache a sequence (model_llm_memory). */
    double per_sequence = one.total_gb - none.total_gb;
    if (per_sequence > 0)
        limit = fmin(limit, (memory_gb - none.total_gb) / per_sequence);
    return fmax(limit, 0);
}

/* Whether n in flight on one replica of o carry per_replica requests a second: the requests
 * arriving while one is in flight, per_replica x its seconds at n (Little's law), are n or
 * fewer. */
static int carries(const decision *d, const model_serving_fixed *f, double n,
                   double per_replica)
{
    model_serving v;
    model_llm_serving_at(f, n, &v);
    return per_replica * decide_llm_request_seconds(d, &v) <= n * (1 - INFLIGHT_MARGIN);
}

/* Under an arrival rate: the requests in flight on each of `serving` replicas whose fixed
 * figures are f, the least n with n = (arrival rate / serving) x (time to the first token at n
 * + output tokens x time per output token at n) (Little's law; both times grow with n), found
 * by bisection on (0, limit].  *keeps_up 0 where even limit in flight do not carry the load:
 * then limit is returned. */
static double inflight_on(const decision *d, const model_serving_fixed *f, int serving,
                          double limit, int *keeps_up)
{
    double per_replica = d->w->serve_arrival_rate / serving;   /* requests a second */
    *keeps_up = limit > 0 && carries(d, f, limit, per_replica);
    if (!*keeps_up)
        return limit;
    /* Bisection: 0 in flight carry nothing (a request takes a prompt's time at least), the limit
     * carries it; the seconds a request takes rise with n, by less than n does where the replica
     * keeps up (its compute busy under all the time), so one crossing lies between. */
    double lo = 0, hi = limit;
    while (hi - lo > INFLIGHT_TOLERANCE * fmax(hi, 1)) {
        double mid = (lo + hi) / 2;
        if (carries(d, f, mid, per_replica))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* Under an arrival rate, the capacity of `serving` replicas whose fixed figures are f: the most
 * tokens/s they complete (decide_llm_completed_tokens) at the most requests in flight within
 * limit and the time-per-token target (all of limit where none is stated or none meets it).
 * The demand is carried exactly where it is at most this.  At the fixed point itself what they
 * complete is the demand, which says nothing of the room left. */
static double capacity_on(const decision *d, const model_serving_fixed *f, int serving,
                          double limit)
{
    double target_s = d->w->target_tpot_ms / 1e3, most = limit;
    model_serving v;
    model_llm_serving_at(f, limit, &v);
    if (target_s > 0 && v.tpot_s > target_s) {
        /* the time per token rises with the requests in flight: the most within the target */
        double lo = 0, hi = limit;
        while (hi - lo > INFLIGHT_TOLERANCE * fmax(hi, 1)) {
            double mid = (lo + hi) / 2;
            model_llm_serving_at(f, mid, &v);
            if (v.tpot_s <= target_s)
                lo = mid;
            else
                hi = mid;
        }
        if (lo > 0)   /* else none meets it: the time per token says so, at the limit */
            most = lo;
        model_llm_serving_at(f, most, &v);
    }
    return decide_llm_completed_tokens(d, &v, most) * serving;
}

double decide_llm_arrival_end(const decision *d, const decide_option *o, double limit,
                              double rate, double mfu, double bw)
{
    model_llm_layout l = parallel_of(d, o, o->tp, o->pp > 1 ? o->pp : 1);
    model_serving_fixed f;
    serving_fixed(d, o, &l, rate, mfu, bw, &f);
    return capacity_on(d, &f, decide_llm_serving_replicas(d, o->replicas), limit);
}

/* A calibrated band under an arrival rate: both shares / and x ratio (1 + the leave-one-out
 * error), each end's in flight its own; at a share above 1, 1. */
void decide_llm_arrival_band(const decision *d, decide_option *o, double limit, double rate,
                             double mfu, double bw, double ratio)
{
    if (!(ratio > 0))
        return;
    o->throughput_lo = decide_llm_arrival_end(d, o, limit, rate, mfu / ratio, bw / ratio);
    o->throughput_hi = decide_llm_arrival_end(d, o, limit, rate, fmin(mfu * ratio, 1),
                                              fmin(bw * ratio, 1));
    gw_buf basis = GW_BUF_INIT;
    buf_printf(&basis, "%s, both shares at those ends and the requests in flight each end's "
                       "own (arrival rate)", o->throughput_band_basis ? o->throughput_band_basis
                                                                      : "");
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}

/* Under an arrival rate, o's requests in flight at the shares its speed is computed at (the
 * layout's were the KB's assumed ones), its memory and its capacity at them: the limit found
 * once, both searches on one replica's fixed figures. */
double decide_llm_arrival_inflight(const decision *d, decide_option *o, double rate,
                                   double mfu, double bw, double *limit_out)
{
    int pp = o->pp > 1 ? o->pp : 1, keeps_up;
    double limit = *limit_out = decide_llm_inflight_limit(d, o, o->tp, pp, o->replicas);
    int serving = decide_llm_serving_replicas(d, o->replicas);
    model_llm_layout l = parallel_of(d, o, o->tp, pp);
    model_serving_fixed f;
    serving_fixed(d, o, &l, rate, mfu, bw, &f);
    o->sequences = inflight_on(d, &f, serving, limit, &keeps_up);
    if (!(o->sequences > 0))
        o->sequences = 1;
    model_llm_setup s = serving_setup(d, o, o->sequences);
    if (model_llm_memory(&d->llm, &s, o->replicas, o->tp, pp, &o->memory, NULL) == GW_OK)
        o->per_card_gb = o->vram_needed_gb = o->memory.total_gb;
    return capacity_on(d, &f, serving, limit);
}

/* "; in flight: 2 requests/s x 17 s a request = 34, 11.3 a serving replica (Little's law)", or
 * that the limit does not carry the load. */
void decide_llm_inflight_words(const decision *d, const decide_option *o,
                               const model_serving *v, gw_buf *how)
{
    int serving = decide_llm_serving_replicas(d, o->replicas);
    double seconds = decide_llm_request_seconds(d, v);
    double completed = decide_llm_completed_tokens(d, v, o->sequences) * serving;
    if (completed < d->w->target_tokens_per_s * (1 - 1e-9)) {
        buf_printf(how, ", at most %.3g requests in flight a replica (its memory's KV cache or "
                        "inference.concurrency): at %.3g s a request they complete %.3g "
                        "requests/s, short of the %.3g arriving", o->sequences, seconds,
                   completed / d->w->serve_output, d->w->serve_arrival_rate);
        return;
    }
    buf_printf(how, ", %.3g requests/s x %.3g s a request = %.3g in flight (Little's law), %.3g "
                    "a replica", d->w->serve_arrival_rate, seconds,
               d->w->serve_arrival_rate * seconds, o->sequences);
}

/* Under an arrival rate: l's requests in flight on each serving replica, the fixed point of
 * Little's law at the KB's assumed shares (f, the layout's fixed figures at them), or where none
 * lies within what a replica holds (its memory's KV cache, the concurrency's cap), that limit
 * and a shortfall. */
static void layout_inflight(const decision *d, const decide_option *o,
                            const model_serving_fixed *f, decide_llm_layout *l)
{
    l->limit = decide_llm_inflight_limit(d, o, l->tp, l->pp, l->replicas);
    l->sequences = inflight_on(d, f, l->serving_replicas, l->limit, &l->keeps_up);
    if (!(l->sequences > 0))
        l->sequences = 1;   /* not even one request fits: the memory check says so */
}

/* Fills l for tp x pp GPUs a replica out of `gpus` of o's, tensor parallel or attention
 * data-parallel (attention_dp, pp 1), the requests in flight spread over the replicas that
 * serve (redundancy's spares idle), or under an arrival rate, those its load keeps in flight
 * (layout_inflight); 0 when the memory model fails or attention data-parallel leaves a GPU
 * without a sequence. */
static int layout_try(const decision *d, const decide_option *tried, int gpus,
                      double concurrency, int tp, int pp, int attention_dp, decide_llm_layout *l)
{
    decide_option as_laid = *tried;   /* o, laid out attention data-parallel or not */
    const decide_option *o = &as_laid;
    as_laid.attention_dp = attention_dp;
    memset(l, 0, sizeof *l);
    l->gpus = gpus;
    l->tp = tp;
    l->pp = pp;
    l->attention_dp = attention_dp;
    l->replicas = gpus / (tp * pp);
    l->serving_replicas = decide_llm_serving_replicas(d, l->replicas);
    l->enough_replicas = l->replicas >= decide_demand_min_replicas(d);
    l->sequences = ceil(concurrency / l->serving_replicas);
    l->keeps_up = 1;
    l->limit = NAN;
    l->shortfall = NAN;
    l->parallel = parallel_of(d, o, tp, pp);
    double rate = serve_rate(o);
    l->speed_known = rate > 0 && o->gpu->memory_bandwidth_gbs > 0 &&
                     (pp == 1 || l->parallel.network_gbs > 0);
    int arrival = d->w->serve_arrival_rate > 0;
    double mfu = d->facts[KB_ASSUMED_LLM_MFU].value;
    double decode = d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value;
    model_serving_fixed f = {0};   /* both searches' under an arrival rate */
    if (arrival)
        l->sequences = 1;   /* what the memory is checked at without a speed */
    if (arrival && l->speed_known) {
        serving_fixed(d, o, &l->parallel, rate, mfu, decode, &f);
        layout_inflight(d, o, &f, l);
    }
    /* attention data-parallel: every GPU at least one sequence of its own, else it idles */
    if (attention_dp && l->sequences < tp)
        return 0;
    model_llm_setup s = serving_setup(d, o, l->sequences);
    if (model_llm_memory(&d->llm, &s, l->replicas, tp, pp, &l->memory, NULL) != GW_OK)
        return 0;
    double memory_gb = decide_option_memory_gb(o);
    /* the limit's memory is the GPU's own, but for rounding */
    l->fits = memory_gb > 0 ? l->memory.total_gb <= memory_gb * (1 + 1e-9) : 1;
    if (!l->fits || !l->speed_known)
        return 1;
    model_llm_serving(&d->llm, &s, d->w->serve_context, d->w->serve_output, &l->parallel, rate,
                      o->gpu->memory_bandwidth_gbs, mfu, decode, &l->serving);
    if (arrival) {
        /* Every serving replica holds its share of the load; their capacity is the most load
         * they carry within the limit and the time-per-token target: below the demand where
         * they cannot keep up (a shortfall above 1). */
        l->tokens_per_s = capacity_on(d, &f, l->serving_replicas, l->limit);
        l->shortfall = shortfall_of(d->w, l);
        return 1;
    }
    /* The requests keep concurrency / sequences of the serving replicas busy (all, unless fewer
     * requests); the spares generate nothing. */
    double busy = fmin(l->serving_replicas, concurrency / l->sequences);
    l->tokens_per_s = l->serving.tokens_per_s * busy;
    l->shortfall = shortfall_of(d->w, l);
    return 1;
}

static int meets(const decide_llm_layout *l)
{
    return !(l->shortfall > 1);   /* no target stated (NaN) meets */
}

/* Whether a is a better layout than b (both fit): enough replicas for the spares and
 * production first, then as decide_llm_layout_best says. */
static int better(const decide_llm_layout *a, const decide_llm_layout *b)
{
    if (a->enough_replicas != b->enough_replicas)
        return a->enough_replicas;
    if (a->speed_known != b->speed_known)
        return a->speed_known;
    if (!a->speed_known)
        return 0;   /* without speeds, the fewest GPUs a replica: the first tried */
    if (meets(a) != meets(b))
        return meets(a);
    if (meets(a))
        return a->tokens_per_s > b->tokens_per_s * (1 + 1e-9);
    return a->shortfall < b->shortfall * (1 - 1e-9);
}

/* Keeps l in *best (and *smallest, the least memory per GPU of all) where it is better. */
static void consider(const decide_llm_layout *l, decide_llm_layout *best, int *found,
                     decide_llm_layout *smallest, int *tried)
{
    if (!*tried || l->memory.total_gb < smallest->memory.total_gb)
        *smallest = *l;
    *tried = 1;
    if (l->fits && (!*found || better(l, best))) {
        *best = *l;
        *found = 1;
    }
}

int decide_llm_layout_best(const decision *d, const decide_option *o, int gpus,
                           double concurrency, decide_llm_layout *out)
{
    int per_host = per_host_count(o), hosts = o->hosts > 0 ? o->hosts : 1;
    int found = 0, tried = 0, widest = 1;
    decide_llm_layout l, smallest;
    memset(out, 0, sizeof *out);
    memset(&smallest, 0, sizeof smallest);
    if (concurrency < 1)
        concurrency = 1;
    /* Within a machine: 1, 2, 4 and 8 GPUs a replica, as the machine's GPUs divide. */
    for (int tp = 1; tp <= per_host && tp <= LAYOUT_MAX_TP; tp *= 2) {
        if (per_host % tp || gpus % tp)
            break;
        widest = tp;
        /* a mixture of experts also attention data-parallel over the same GPUs */
        int layouts = tp > 1 && model_llm_attention_dp_possible(&d->llm) ? 2 : 1;
        for (int attention_dp = 0; attention_dp < layouts; attention_dp++)
            if (layout_try(d, o, gpus, concurrency, tp, 1, attention_dp, &l))
                consider(&l, out, &found, &smallest, &tried);
    }
    /* Across machines, only where no machine holds a replica: the widest group of each machine
     * a stage, 2 or more machines a replica. */
    int networked = network_gbs(d, o) > 0;   /* without one, a replica stays in a machine */
    for (int pp = 2; !found && networked && pp <= hosts; pp++) {
        if (hosts % pp || gpus % (widest * pp) || widest != per_host)
            continue;
        if (layout_try(d, o, gpus, concurrency, widest, pp, 0, &l))
            consider(&l, out, &found, &smallest, &tried);
    }
    if (!found && tried)
        *out = smallest;
    return found;
}

/* ---- the serving targets ---- */

/* Which of the workload's serving targets o misses (its MISSES_*), 0 none; *completed, what its
 * serving replicas complete under an arrival rate at o->sequences in flight (Little's law). */
enum { MISSES_ARRIVAL = 1, MISSES_TPOT, MISSES_TTFT, MISSES_TOKENS };
static int target_miss(const decision *d, const decide_option *o, double *completed)
{
    const workload *w = d->w;
    if (d->llm_setup.task != MODEL_INFERENCE || isnan(o->throughput))
        return 0;
    /* Short of the demand, with a capacity short of it too (a what-if scales the time per
     * token, not the requests in flight), no count it admits keeps up. */
    *completed = o->sequences * decide_llm_serving_replicas(d, o->replicas) * w->serve_output /
                 ((o->ttft_ms + w->serve_output * o->tpot_ms) / 1e3);
    if (w->serve_arrival_rate > 0 && o->capacity < w->target_tokens_per_s &&
        *completed < w->target_tokens_per_s * (1 - 1e-9))
        return MISSES_ARRIVAL;
    if (o->tpot_ms > w->target_tpot_ms)
        return MISSES_TPOT;
    if (o->ttft_ms > w->target_ttft_ms)
        return MISSES_TTFT;
    return o->capacity < w->target_tokens_per_s ? MISSES_TOKENS : 0;
}

int decide_llm_target_is_missed(const decision *d, const decide_option *o)
{
    double completed;
    return target_miss(d, o, &completed) != 0;
}

char *decide_llm_target_missed(const decision *d, const decide_option *o)
{
    const workload *w = d->w;
    double completed;
    int miss = target_miss(d, o, &completed);
    gw_buf b = GW_BUF_INIT;
    if (miss == MISSES_ARRIVAL)
        buf_printf(&b, "it cannot keep up with %.3g requests/s: at the most a replica admits in "
                       "flight (%.3g, its memory's KV cache or inference.concurrency) it "
                       "completes %.0f tokens/s in all, short of the %g", w->serve_arrival_rate,
                   o->sequences, completed, w->target_tokens_per_s);
    else if (miss == MISSES_TPOT)
        buf_printf(&b, "%.1f ms per output token at %.0f sequences a replica; the target is "
                       "%g ms", o->tpot_ms, o->sequences, w->target_tpot_ms);
    else if (miss == MISSES_TTFT)
        buf_printf(&b, "%.0f ms to the first token; the target is %g ms", o->ttft_ms,
                   w->target_ttft_ms);
    else if (miss == MISSES_TOKENS)
        buf_printf(&b, "%.0f tokens/s in all; the target is %g", o->capacity,
                   w->target_tokens_per_s);
    else
        return NULL;
    if (o->count > 1 && o->replicas > 0) {   /* the best of the layouts searched missed it */
        int serving = decide_llm_serving_replicas(d, o->replicas);
        buf_puts(&b, " (its best layout: ");
        decide_llm_layout_words(&b, o->count, o->replicas, o->tp, o->pp > 1 ? o->pp : 1,
                                o->attention_dp);
        if (serving < o->replicas)   /* the figures are the serving replicas' */
            buf_printf(&b, ", %d spare", o->replicas - serving);
        /* memory per GPU at the layout's own sequences: a replica of fewer requests holds a
         * smaller KV cache than one option's single replica of them all */
        buf_printf(&b, "; %.0f sequence%s a replica, %.1f GB per GPU of %.1f)", o->sequences,
                   o->sequences == 1 ? "" : "s", o->per_card_gb, decide_option_memory_gb(o));
    }
    if (!decide_str_eq(o->run_precision, w->precision))
        buf_printf(&b, " (at %s: the GPU has no %s)", o->run_precision, w->precision);
    return buf_detach(&b);
}

void decide_llm_layout_words(gw_buf *b, int gpus, int replicas, int tp, int pp,
                             int attention_dp)
{
    buf_printf(b, "%d GPU%s: %d replica%s", gpus, gpus == 1 ? "" : "s", replicas,
               replicas == 1 ? "" : "s");
    if (pp > 1)
        buf_printf(b, " × pipeline %d", pp);
    if (tp > 1 && attention_dp)
        buf_printf(b, " × attention data-parallel %d × experts %d", tp, tp);
    else if (tp > 1)
        buf_printf(b, " × tensor-parallel %d", tp);
}

/* The method's words on serving layouts: those tried, how one is chosen, what tensor and
 * pipeline parallelism cost (model.h's constants and their sources). */
void decide_llm_layout_method_words(const decision *d, gw_buf *b)
{
    buf_printf(b,
               "serving layouts: replicas of tp GPUs of one machine (1, 2, 4 or 8), or of pp "
               "machines as pipeline stages where no machine holds one; of those that fit, the "
               "one meeting the targets with the most tokens/s, else the one missing them "
               "least; 2 all-reduces a layer, %.0f us over the board's link "
               "(sglang-allreduce-h100) or %.0f us over PCIe (sglang-allreduce-pcie) + 2 (tp - "
               "1) / tp x tokens x hidden x %g bytes / the link; a decode step = pp x (a "
               "stage's step + its all-reduces + a hop of %.0f us (vllm-roce-allreduce) + "
               "tokens x hidden x %g bytes / the network)",
               MODEL_ALLREDUCE_LATENCY_NVLINK_S * 1e6, MODEL_ALLREDUCE_LATENCY_PCIE_S * 1e6,
               MODEL_ACTIVATION_EXCHANGE_BYTES, MODEL_PIPELINE_HOP_LATENCY_S * 1e6,
               MODEL_ACTIVATION_EXCHANGE_BYTES);
    if (d->llm.kv_heads < LAYOUT_MAX_TP)   /* where the widths tried outnumber the heads */
        buf_printf(b, "; a tensor-parallel GPU holds whole KV heads, ceil(%g / tp) of them (a "
                      "latent cache whole on every GPU: vLLM's QKVParallelLinear)",
                   d->llm.kv_heads);
    if (model_llm_attention_dp_possible(&d->llm))
        buf_printf(b, "; a mixture of experts also attention data-parallel over the same GPUs: "
                      "each GPU its own sequences with the weights but the routed experts' whole, "
                      "1 / tp of the experts and its sequences' KV cache, a prompt on its own "
                      "GPU; 2 all-to-alls a layer (dispatch to the %g experts a token is routed "
                      "to and combine), %.1f us and %.1f us over the board's link "
                      "(trtllm-moe-alltoall-nvlink), the all-reduce's latency each over PCIe, "
                      "+ (tp - 1) / tp x tokens x %g x hidden x %g bytes / the link each",
                   d->llm.experts_active, MODEL_DISPATCH_LATENCY_NVLINK_S * 1e6,
                   MODEL_COMBINE_LATENCY_NVLINK_S * 1e6, d->llm.experts_active,
                   MODEL_ACTIVATION_EXCHANGE_BYTES);
    if (d->w->serve_arrival_rate > 0)
        buf_puts(b, "; requests in flight, under an arrival rate: each serving replica holds the "
                    "n = arrival rate / serving replicas x (time to the first token + output x "
                    "time per token), both at n (Little's law), found by bisection up to what "
                    "its memory's KV cache and the concurrency cap admit; none there: it cannot "
                    "keep up");
}

/* The sources of the parallel costs o's layout pays (model.h's MODEL_ALLREDUCE_LATENCY_*,
 * MODEL_PIPELINE_HOP_LATENCY_S). */
void decide_llm_parallel_cites(decision *d, decide_option *o)
{
    if (o->tp > 1)
        decide_option_cite(d, o, o->nvlink || decide_gpu_board_link(o->gpu)
                                     ? "sglang-allreduce-h100"
                                     : "sglang-allreduce-pcie");
    if (o->tp > 1 && o->attention_dp && decide_gpu_board_link(o->gpu))
        decide_option_cite(d, o, "trtllm-moe-alltoall-nvlink");
    if (o->pp > 1)
        decide_option_cite(d, o, "vllm-roce-allreduce");
}

/* How a replica's tensor-parallel all-reduces and pipeline hops add to its decode step. */
void decide_llm_parallel_words(const decision *d, const decide_option *o,
                               const model_serving *v, gw_buf *how)
{
    if (o->tp > 1 && o->attention_dp) {
        int board = decide_gpu_board_link(o->gpu);
        buf_printf(how, ", %.3g ms all-to-alls (each token to its %g experts' GPUs and back, ",
                   v->alltoall_s * 1e3, d->llm.experts_active);
        if (board)
            buf_printf(how, "%.1f us and %.1f us", MODEL_DISPATCH_LATENCY_NVLINK_S * 1e6,
                       MODEL_COMBINE_LATENCY_NVLINK_S * 1e6);
        else
            buf_printf(how, "%.0f us each", MODEL_ALLREDUCE_LATENCY_PCIE_S * 1e6);
        buf_printf(how, ", %.0f GB/s)",
                   model_link_gbs(board, o->gpu->nvlink_gbs, o->gpu->pcie_gen,
                                  o->gpu->pcie_lanes, decide_gpu_p2p(o->gpu)));
    } else if (o->tp > 1) {
        int board = decide_gpu_board_link(o->gpu);
        double link = model_link_gbs(board, o->gpu->nvlink_gbs, o->gpu->pcie_gen,
                                     o->gpu->pcie_lanes, decide_gpu_p2p(o->gpu));
        buf_printf(how, ", %.3g ms all-reduces (%.0f us each, %.0f GB/s over %s)",
                   v->allreduce_s * 1e3,
                   (board ? MODEL_ALLREDUCE_LATENCY_NVLINK_S : MODEL_ALLREDUCE_LATENCY_PCIE_S) *
                       1e6,
                   link,
                   board ? "the board's link"
                         : decide_gpu_p2p(o->gpu) ? "PCIe" : "PCIe without peer-to-peer");
    }
    if (o->pp > 1)
        buf_printf(how, ", %.3g ms hops between %d pipeline stages on %d machines (%.0f us each "
                        "over %.0f Gb/s, %.0f micro-batch%s in flight)",
                   v->hop_s * 1e3, o->pp, o->pp, MODEL_PIPELINE_HOP_LATENCY_S * 1e6,
                   o->network_gbps > 0 ? o->network_gbps : d->w->network_gbps,
                   fmin(o->pp, o->sequences), fmin(o->pp, o->sequences) == 1 ? "" : "es");
}

/* ---- training layouts ---- */

double decide_llm_train_layout_share(decide_llm_train_layout *l)
{
    l->link_share = model_llm_parallel_efficiency(l->tp * l->cp, l->nvlink);
    l->bubble = model_llm_pipeline_bubble(l->pp, l->vp, l->micro_batches);
    double imbalance = l->imbalance > 1 ? l->imbalance : 1;
    double extra = l->extra_work > 0 ? l->extra_work : 0;
    l->share = l->link_share * (1 - l->bubble) / (imbalance * (1 + extra));
    return l->share;
}

/* A stated width as an int: 1 where not stated (NaN) or below 1. */
static int width_of(double stated)
{
    return stated >= 1 ? (int)stated : 1;
}

/* Fills l's imbalance and extra_work from the stage layout b states (pipeline_layout), its
 * chunks folded onto l->pp physical stages; nothing where it states none or m is NULL. */
static void stated_stages(const kb_benchmark *b, const model_llm *m,
                          decide_llm_train_layout *l)
{
    if (!m || !b->pipeline_layout || !*b->pipeline_layout || !(m->layers > 0))
        return;
    kb_layout *layout = gw_xmalloc(sizeof *layout);
    if (kb_layout_parse(b->pipeline_layout, layout, NULL, 0) == 0) {   /* checked at import */
        kb_layout_stage *physical = gw_xcalloc((size_t)l->pp, sizeof *physical);
        kb_layout_fold(layout, l->pp, physical);
        double sequence = b->input_tokens;
        l->imbalance = model_llm_stage_imbalance(m, physical, l->pp, sequence);
        int mtp = 0;
        for (int i = 0; i < l->pp; i++)
            mtp += physical[i].mtp;
        model_llm_setup plain = {.method = MODEL_TUNE_FULL, .sequence_length = sequence};
        l->extra_work = mtp * model_llm_mtp_flops(m, sequence) /
                        model_llm_train_flops_per_token(m, &plain);
        free(physical);
    }
    free(layout);
}

void decide_llm_row_train_layout(const kb_benchmark *b, const kb_gpu *g, const model_llm *m,
                                 decide_llm_train_layout *out)
{
    *out = (decide_llm_train_layout){.tp = width_of(b->tensor_parallel),
                                     .cp = width_of(b->context_parallel),
                                     .pp = width_of(b->pipeline_parallel),
                                     .vp = width_of(b->virtual_pipeline),
                                     .micro_batches = NAN};
    out->nvlink = g && decide_gpu_board_link(g) && out->tp * out->cp > 1;
    /* each data-parallel replica (tp x pp x cp GPUs) takes global / replicas sequences a step,
     * micro_batch at a time */
    double replicas = b->gpu_count / (out->tp * out->pp * out->cp);
    if (b->global_batch > 0 && b->micro_batch > 0 && replicas >= 1)
        out->micro_batches = b->global_batch / (b->micro_batch * replicas);
    stated_stages(b, m, out);
    decide_llm_train_layout_share(out);
}
