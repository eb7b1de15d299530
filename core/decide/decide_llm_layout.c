/* decide_llm_layout.c — how a serving option's GPUs are laid out for a language model: the
 * tensor-parallel widths, pipeline stages and replicas tried, each one's memory per GPU and speed
 * (model_llm_serving), and the choice among them against the workload's targets; and what a
 * training layout costs, a workload's or a measured row's stated one. */
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

/* The dense tensor rate o's GPUs serve at (NaN or 0 where the KB has none). */
static double serve_rate(const decide_option *o)
{
    return gw_precision_rate(gw_precision_find(o->run_precision), o->gpu);
}

void decide_llm_serving_of(const decision *d, const decide_option *o, double tflops, double mfu,
                           double decode_fraction, model_serving *out)
{
    model_llm_setup s = d->llm_setup;
    s.precision = o->run_precision;
    s.sequences = o->sequences;
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

/* Fills l for tp x pp GPUs a replica out of `gpus` of o's, the requests in flight spread over
 * the replicas that serve (redundancy's spares idle); 0 when the memory model fails. */
static int layout_try(const decision *d, const decide_option *o, int gpus, double concurrency,
                      int tp, int pp, decide_llm_layout *l)
{
    memset(l, 0, sizeof *l);
    l->gpus = gpus;
    l->tp = tp;
    l->pp = pp;
    l->replicas = gpus / (tp * pp);
    l->serving_replicas = decide_llm_serving_replicas(d, l->replicas);
    l->enough_replicas = l->replicas >= decide_demand_min_replicas(d);
    l->sequences = ceil(concurrency / l->serving_replicas);
    l->shortfall = NAN;
    model_llm_setup s = d->llm_setup;
    s.precision = o->run_precision;   /* weights served at what the GPU runs */
    s.sequences = l->sequences;
    if (model_llm_memory(&d->llm, &s, l->replicas, tp * pp, &l->memory, NULL) != GW_OK)
        return 0;
    double memory_gb = decide_option_memory_gb(o);
    l->fits = memory_gb > 0 ? l->memory.total_gb <= memory_gb : 1;
    l->parallel = parallel_of(d, o, tp, pp);
    double rate = serve_rate(o);
    l->speed_known = rate > 0 && o->gpu->memory_bandwidth_gbs > 0 &&
                     (pp == 1 || l->parallel.network_gbs > 0);
    if (!l->fits || !l->speed_known)
        return 1;
    model_llm_serving(&d->llm, &s, d->w->serve_context, d->w->serve_output, &l->parallel, rate,
                      o->gpu->memory_bandwidth_gbs, d->facts[KB_ASSUMED_LLM_MFU].value,
                      d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value, &l->serving);
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
        if (layout_try(d, o, gpus, concurrency, tp, 1, &l))
            consider(&l, out, &found, &smallest, &tried);
    }
    /* Across machines, only where no machine holds a replica: the widest group of each machine
     * a stage, 2 or more machines a replica. */
    int networked = network_gbs(d, o) > 0;   /* without one, a replica stays in a machine */
    for (int pp = 2; !found && networked && pp <= hosts; pp++) {
        if (hosts % pp || gpus % (widest * pp) || widest != per_host)
            continue;
        if (layout_try(d, o, gpus, concurrency, widest, pp, &l))
            consider(&l, out, &found, &smallest, &tried);
    }
    if (!found && tried)
        *out = smallest;
    return found;
}

void decide_llm_layout_words(gw_buf *b, int gpus, int replicas, int tp, int pp)
{
    buf_printf(b, "%d GPU%s: %d replica%s", gpus, gpus == 1 ? "" : "s", replicas,
               replicas == 1 ? "" : "s");
    if (pp > 1)
        buf_printf(b, " × pipeline %d", pp);
    if (tp > 1)
        buf_printf(b, " × tensor-parallel %d", tp);
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
