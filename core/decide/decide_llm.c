/* decide_llm.c — the model stage for a language model (workload_is_llm): how many GPUs one
 * replica takes (tensor parallelism, the fewest that hold it), the memory per GPU term by term
 * (model_llm_memory), the precision each GPU really computes in, and the speed in tokens/s:
 * the KB's measured results for that GPU and count where the workload names a benchmark, else
 * the stated roofline of model_llm.c — training at the model FLOPs utilisation, serving bound by
 * memory bandwidth or compute per decode step (each share calibrated on the measured rows of the
 * workload's kind, else the KB's assumed figure: decide_llm_accuracy.c), with the time per output
 * token and to the first token checked against the workload's targets. */
#include "decide_llm.h"
#include "decide_demand.h"
#include "decide_precision.h"
#include "decide_llm_accuracy.h"
#include "decide_speed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/precision.h"

/* ---- the setup, once per decision ---- */

static model_task task_of(const workload *w)
{
    if (decide_str_eq(w->task, "inference"))
        return MODEL_INFERENCE;
    return decide_str_eq(w->task, "finetune") ? MODEL_FINETUNE : MODEL_TRAIN;
}

static model_tune method_of(const workload *w)
{
    if (!decide_str_eq(w->task, "finetune"))
        return MODEL_TUNE_FULL;
    if (decide_str_eq(w->finetune_method, "lora"))
        return MODEL_TUNE_LORA;
    return decide_str_eq(w->finetune_method, "qlora") ? MODEL_TUNE_QLORA : MODEL_TUNE_FULL;
}

/* Sequences per GPU per training step: the workload's, else one. */
static double llm_batch(const workload *w)
{
    return w->batch_per_gpu > 0 ? w->batch_per_gpu : 1;
}

double decide_llm_tokens_per_step(const workload *w)
{
    double micro_batches = w->gradient_accumulation >= 1 ? w->gradient_accumulation : 1;
    return llm_batch(w) * w->sequence_length * micro_batches;
}

int decide_llm_setup(decision *d, gw_error *err)
{
    const workload *w = d->w;
    d->llm = (model_llm){.params = w->params,
                         .active_params = isnan(w->active_params) ? w->params : w->active_params,
                         .layers = w->layers,
                         .hidden = w->hidden,
                         .heads = w->heads,
                         .kv_heads = w->kv_heads,
                         .head_dim = w->head_dim,
                         .vocab = w->vocab, .ffn = w->ffn,
                         .experts = w->experts, .experts_active = w->experts_active,
                         .attention_head_dim = w->attention_head_dim,
                         .decode_attention_head_dim = w->decode_attention_head_dim};
    model_llm_setup *s = &d->llm_setup;
    s->task = task_of(w);
    s->method = method_of(w);
    s->lora_rank = w->lora_rank;
    s->precision = w->precision;
    s->optimizer = decide_str_eq(w->optimizer, "none") ? "sgd-plain" : w->optimizer;
    s->zero = workload_zero_stage(w);
    s->checkpointing = decide_str_eq(w->activation_checkpointing, "full");
    s->selective_checkpointing = decide_str_eq(w->activation_checkpointing, "selective");
    s->fused_loss = w->fused_loss;
    s->sequence_length = w->sequence_length;
    s->batch = llm_batch(w);
    s->kv_tokens = s->task == MODEL_INFERENCE ? w->serve_context + w->serve_output : 0;
    s->sequences = s->task == MODEL_INFERENCE ? w->serve_concurrency : 0;
    int rc = model_llm_memory(&d->llm, s, 1, 1, 1, &d->memory, err);
    if (rc != GW_OK) {
        gw_error_prefix(err, "%s: model", w->path);
        return rc;
    }
    d->gradient_bytes = s->task == MODEL_INFERENCE ? 0 : model_llm_exchange_bytes(&d->llm, s);
    d->llm_mfu = NAN;
    if (w->model_source)   /* the catalog row workload_load resolved */
        d->llm_cite = decide_cite(d, w->model_source);
    return GW_OK;
}

/* ---- precision: what each GPU computes in ---- */

/* The row g runs the workload's precision as (decide_runs_at): the same, or where g lacks its
 * tensor cores or kernels, the next it has (precision.h: fp4, fp4-w4a16, fp8, fp8-w8a16, bf16,
 * fp16, fp32); training passes over the weight-only forms. */
static const gw_precision *runs_at(const decision *d, const kb_gpu *g)
{
    return decide_runs_at(d, g, d->llm_setup.task != MODEL_INFERENCE);
}

/* The tensor rate g computes run at (decide_precision_rate: training at fp8 or fp4, BF16's
 * rate x the measured speed-up sp says; NULL sp: not wanted). */
static double rate_at(const decision *d, const kb_gpu *g, const gw_precision *run,
                      gw_speedup *sp)
{
    return decide_precision_rate(d, g, run, d->llm_setup.task != MODEL_INFERENCE, sp);
}

double decide_llm_rate(const decision *d, const kb_gpu *g, const char *precision, int training)
{
    const gw_precision *run = decide_precision_on(d, g, precision, training);
    return run ? decide_precision_rate(d, g, run, training, NULL) : NAN;
}

/* ---- fit: training's fewest GPUs per replica that hold it; serving's layout ---- */

static int per_host_count(const decide_option *o)
{
    return o->count / (o->hosts > 0 ? o->hosts : 1);
}

/* Serving: the best layout of all o's GPUs at the workload's concurrency
 * (decide_llm_layout.c). */
static void serve_fit(const decision *d, decide_option *o)
{
    decide_llm_layout l;
    o->fits = decide_llm_layout_best(d, o, o->count, d->w->serve_concurrency, &l);
    if (!l.gpus)
        return;   /* the memory model failed: an unknown precision, said at setup */
    o->tp = l.tp;
    o->pp = l.pp;
    o->attention_dp = l.attention_dp;
    o->replicas = l.replicas;
    o->sequences = l.sequences;
    o->memory = l.memory;
}

void decide_llm_fit(decision *d, decide_option *o)
{
    double memory_gb = decide_option_memory_gb(o);
    model_llm_setup s = d->llm_setup;
    o->run_precision = runs_at(d, o->gpu)->name;
    o->pp = 1;
    o->attention_dp = 0;
    o->fits = 0;
    if (s.task == MODEL_INFERENCE) {
        serve_fit(d, o);
    } else {
        int per_host = per_host_count(o);
        for (int tp = 1; tp <= per_host && !o->fits; tp *= 2) {
            if (per_host % tp)
                break;
            int replicas = o->count / tp;
            model_memory m;
            if (model_llm_memory(&d->llm, &s, replicas, tp, 1, &m, NULL) != GW_OK)
                return;
            o->tp = tp;
            o->replicas = replicas;
            o->memory = m;
            o->fits = memory_gb > 0 ? m.total_gb <= memory_gb : 1;
        }
    }
    o->split = o->tp * o->pp > 1;
    o->per_card_gb = o->memory.total_gb;
    o->vram_needed_gb = o->memory.total_gb;
}

/* ---- speed ---- */

/* The published ranges behind the KB's assumed figures, the band of a modelled speed where no
 * measured row calibrates it: llm_mfu's source (llama-3-paper, Table 4) reports 38% to 43% model
 * FLOPs utilisation for Llama 3 405B's pre-training on H100s; decode_bandwidth_fraction's
 * (mbu-glossary) reports 70% to 85% of memory bandwidth for vLLM and TensorRT-LLM, a rule of
 * thumb whose low end is the KB's assumed 70% itself, so the band would have no downside: its
 * low end is the lowest share a published measurement of 8-bit weights reached, gpt-fast's
 * Llama-2-7B on an A100 80GB, 1,069.20 of 2,039 GB/s = 52.4% (gpt-fast-benchmarks; its 70B
 * reached 64.9%).  Each is the range of what published stacks reached, not of what a team's own
 * will: stated as such. */
#define LLM_MFU_LOW 0.38
#define LLM_MFU_HIGH 0.43
#define LLM_DECODE_BANDWIDTH_LOW 0.524
#define LLM_DECODE_BANDWIDTH_HIGH 0.85
#define LLM_DECODE_BANDWIDTH_SOURCES "mbu-glossary", "gpt-fast-benchmarks"

/* The published spread of training's utilisation, the band of a modelled training speed where
 * too few measured rows calibrate it: the lowest and the highest model FLOPs utilisation the
 * KB's sources publish for Llama-3-class training, 33% (torchtitan-performance-h100: Llama 3.1
 * 8B on 8 H100s; one stack's own settings move it by 16% there, 5,762 against 6,667 tokens/s a
 * GPU) to 58.2% (torchtitan-performance-a100: Llama 3 8B on 64 A100s), around Llama 3 405B's
 * 38% to 43% (llama-3-paper).  The KB's one assumed figure is applied to every GPU, so the band
 * holds what published stacks reached on each of them, not on one. */
#define LLM_MFU_PUBLISHED_LOW 0.33
#define LLM_MFU_PUBLISHED_HIGH 0.582
#define LLM_MFU_PUBLISHED_SOURCES "torchtitan-performance-h100", "torchtitan-performance-a100"

/* The published spread as factors on the KB's assumed utilisation, each widened to hold 1
 * (the figure used): what a training speed's band is where too few rows calibrate it. */
static void train_spread_factors(const decision *d, double *low, double *high)
{
    double assumed = d->facts[KB_ASSUMED_LLM_MFU].value;
    *low = fmin(LLM_MFU_PUBLISHED_LOW / assumed, 1);
    *high = fmax(LLM_MFU_PUBLISHED_HIGH / assumed, 1);
}

/* A modelled training speed's band: the calibration's leave-one-out error either way (as a
 * ratio, as scaled speeds: decide_speed.c); one row or none, the published range of the
 * utilisation around the figure used (throughput is in proportion to it). */
static void train_band(decision *d, decide_option *o)
{
    gw_buf basis = GW_BUF_INIT;
    double e = d->llm_mfu_error;
    if (d->llm_mfu_rows > 1 && !isnan(e)) {
        /* no row of its GPU calibrates it: the model's error over every row, where wider */
        double unseen, band = decide_llm_option_band(d, o->gpu, e, &unseen);
        o->throughput_lo = o->throughput / (1 + band);
        o->throughput_hi = o->throughput * (1 + band);
        buf_printf(&basis, "the utilisation's calibration (%s), each row hidden in turn and "
                           "predicted from the median of the others: off by %.1f%% at the "
                           "%.0fth percentile of those errors; the band is the figure / %.3g to "
                           "x %.3g", decide_llm_calibration_words(d), e * 100,
                   MODEL_BAND_PERCENTILE * 100, 1 + e, 1 + e);
        if (!isnan(unseen))
            decide_llm_band_widened_words(d, o->gpu, unseen, &basis);
    } else {
        /* The published spread as factors on the KB's assumed figure, applied to the figure
         * used (the assumed one, or one row's calibration, which the spread says as little
         * of). */
        double assumed = d->facts[KB_ASSUMED_LLM_MFU].value, low, high;
        train_spread_factors(d, &low, &high);
        o->throughput_lo = o->throughput * low;
        o->throughput_hi = o->throughput * high;
        static const char *const sources[] = {LLM_MFU_PUBLISHED_SOURCES};
        for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
            decide_option_cite(d, o, sources[i]);
        buf_printf(&basis, "%s: too few to calibrate, so the band is the published spread of "
                           "training's utilisation, the figure x %.4g to x %.4g as %.0f%% to "
                           "%.1f%% are to the KB's assumed %.0f%%: torchtitan's Llama 3.1 8B on "
                           "8 H100s reached 33%% to 39%% (5,762 and 6,667 tokens/s a GPU without "
                           "and with torch.compile, 16%% apart on one GPU), its Llama 3 8B on "
                           "A100s 56.8%% to 58.2%% (2,904 and 2,973 tokens/s a GPU), Llama 3 "
                           "405B's pre-training 38%% to 43%% (llama-3-paper); the narrower range "
                           "of one run would say a team's stack lands where Meta's did",
                   d->llm_mfu_rows ? "one measured row calibrates the utilisation"
                                   : "no measured row calibrates the utilisation",
                   low, high, LLM_MFU_PUBLISHED_LOW * 100, LLM_MFU_PUBLISHED_HIGH * 100,
                   assumed * 100);
    }
    buf_puts(&basis, "; the parallel efficiencies are the model's, not in the band");
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}

/* What tp GPUs of one replica deliver together: all of them on one GPU; over the board's link
 * or PCIe, the model's parallel efficiencies (model.h). */
static double tp_efficiency(const decide_option *o)
{
    decide_llm_train_layout l = {.tp = o->tp, .cp = 1, .pp = 1, .vp = 1, .nvlink = o->nvlink,
                                 .micro_batches = NAN};
    return decide_llm_train_layout_share(&l);
}

static void precision_words(const decision *d, const decide_option *o, gw_buf *how)
{
    if (decide_precision_words(d, o->gpu, d->llm_setup.task != MODEL_INFERENCE, how))
        buf_puts(how, "; ");
}

/* The layout o trains with: its tensor-parallel groups over its link, its data-parallel
 * replicas over its machines, a step's tokens and the bytes each GPU exchanges; share filled. */
static decide_llm_train_layout train_layout(const decision *d, const decide_option *o)
{
    decide_llm_train_layout l = {.tp = o->tp, .cp = 1, .pp = 1, .vp = 1, .nvlink = o->nvlink,
                                 .micro_batches = NAN, .replicas = o->replicas, .hosts = o->hosts,
                                 .per_host = o->count / (o->hosts > 1 ? o->hosts : 1),
                                 .step_tokens = decide_llm_tokens_per_step(d->w),
                                 .exchange_bytes = d->gradient_bytes / o->tp,
                                 .link_gbs = o->link_gbs, .network_gbs = o->network_gbps / 8};
    decide_llm_train_layout_share(&l);
    return l;
}

double decide_llm_train_speedup(const decision *d, const decide_option *o, double faster)
{
    if (!(o->throughput > 0) || !(o->efficiency > 0) || o->count < 1)
        return 0;
    /* a GPU's own tokens/s: throughput = GPUs x one x share x data-parallel efficiency, and
     * o->efficiency = share x that efficiency (train_speed) */
    double one = o->throughput / (o->count * o->efficiency);
    decide_llm_train_layout l = train_layout(d, o);
    return decide_llm_train_tokens(&l, o->count, one * faster, NULL) / o->throughput;
}

static void train_speed(decision *d, decide_option *o, gw_buf *how)
{
    gw_speedup sp;
    double rate = rate_at(d, o->gpu, gw_precision_find(o->run_precision), &sp);
    if (!(rate > 0)) {
        buf_printf(how, "the KB has no %s tensor rate for %s",
                   gw_precision_find(o->run_precision)->computes, o->gpu->name);
        return;
    }
    double mfu = decide_llm_training_mfu(d, o->gpu);   /* its kind's, its vendor's */
    double fpt = model_llm_train_flops_per_token(&d->llm, &d->llm_setup);
    double slowdown = model_llm_train_slowdown(&d->llm_setup);
    double one = mfu * rate * 1e12 / fpt / slowdown;
    double eff;
    decide_llm_train_layout l = train_layout(d, o);
    o->throughput = decide_llm_train_tokens(&l, o->count, one, &eff);
    o->efficiency = eff * l.share;
    if (d->speed_figures_only)   /* decide_option_speed_figures: no band, no words */
        return;
    train_band(d, o);
    decide_llm_dequant_band(d, o);
    decide_precision_speedup_band(d, o, &sp);
    decide_llm_attention_cites(d);
    precision_words(d, o, how);
    buf_puts(how, "stated model, an estimate: ");
    decide_precision_rate_words(how, o, rate, &sp);
    buf_printf(how, " x %.0f%% utilisation (%s) / %.3g "
                    "GFLOP a token the GPU computes (%.3g of them attention's at %.0f tokens)",
               mfu * 100,
               decide_llm_calibration_words(d),
               fpt / 1e9, decide_llm_train_attention_flops(d) / 1e9, d->llm_setup.sequence_length);
    if (slowdown > 1)
        buf_printf(how, " / %.3g (QLoRA dequantises its 4-bit weights)", slowdown);
    buf_printf(how, " = %.0f tokens/s a GPU", one);
    decide_llm_calibration_gpu_words(d, o->gpu, how);   /* its own rows, where left out */
    if (!d->llm_mfu_rows && !decide_str_eq(o->gpu->vendor, "NVIDIA"))
        buf_printf(how, " (the utilisation is NVIDIA H100's: %s's software stack may reach "
                        "less)", o->gpu->vendor ? o->gpu->vendor : "another vendor");
    if (o->tp > 1)
        buf_printf(how, "; %d GPUs a replica (tensor parallel) at %.0f%%", o->tp,
                   tp_efficiency(o) * 100);
    if (l.replicas > 1)
        buf_printf(how, "; x%d replicas at %.1f%% data-parallel efficiency, %.3g GB exchanged "
                        "a step of %.0f tokens",
                   l.replicas, eff * 100, l.exchange_bytes / 1e9, l.step_tokens);
}

/* A modelled serving speed's band: the model again at the low and at the high ends of the
 * published ranges of both shares it assumes (LLM_MFU_*, LLM_DECODE_BANDWIDTH_*, each widened
 * to hold the KB's figure), busy replicas each. */
static void serve_band(decision *d, decide_option *o, double limit, double rate, double busy)
{
    double mfu = d->facts[KB_ASSUMED_LLM_MFU].value;
    double bw = d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value;
    double mfu_lo = fmin(LLM_MFU_LOW, mfu), mfu_hi = fmax(LLM_MFU_HIGH, mfu);
    double bw_lo = fmin(LLM_DECODE_BANDWIDTH_LOW, bw), bw_hi = fmax(LLM_DECODE_BANDWIDTH_HIGH, bw);
    model_serving low, high;
    decide_llm_serving_of(d, o, rate, mfu_lo, bw_lo, &low);
    decide_llm_serving_of(d, o, rate, mfu_hi, bw_hi, &high);
    o->throughput_lo = low.tokens_per_s * busy;
    o->throughput_hi = high.tokens_per_s * busy;
    if (d->w->serve_arrival_rate > 0) {   /* each end's own in flight */
        o->throughput_lo = decide_llm_arrival_end(d, o, limit, rate, mfu_lo, bw_lo);
        o->throughput_hi = decide_llm_arrival_end(d, o, limit, rate, mfu_hi, bw_hi);
    }
    static const char *const sources[] = {LLM_DECODE_BANDWIDTH_SOURCES};
    for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
        decide_option_cite(d, o, sources[i]);
    gw_buf basis = GW_BUF_INIT;
    buf_printf(&basis, "no measured row calibrates the serving model: the figure at the low and "
                       "high ends of the published ranges of its two assumed shares, prefill at "
                       "%.0f%% to %.0f%% of the tensor rate (llama-3-paper, Llama 3's "
                       "pre-training; not training's wider spread of torchtitan's runs) and "
                       "%.1f%% to %.0f%% of the memory bandwidth in a decode step (from "
                       "gpt-fast's measured 8-bit Llama-2-7B on an A100, gpt-fast-benchmarks, to "
                       "what vLLM and TensorRT-LLM commonly reach, mbu-glossary); the all-reduce "
                       "and pipeline costs are the model's, not in the band",
               mfu_lo * 100, mfu_hi * 100, bw_lo * 100, bw_hi * 100);
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}

static void serve_speed(decision *d, decide_option *o, gw_buf *how)
{
    const workload *w = d->w;
    const gw_precision *run = gw_precision_find(o->run_precision);
    double rate = rate_at(d, o->gpu, run, NULL);
    if (!(rate > 0) || !(o->gpu->memory_bandwidth_gbs > 0)) {
        buf_printf(how, "the KB has no %s tensor rate or bandwidth for %s", run->computes,
                   o->gpu->name);
        return;
    }
    double mfu, bw;
    int measured = decide_llm_serving_shares(d, o->gpu, &mfu, &bw);   /* calibrated, else assumed */
    for (int i = 0; i < 2; i++)
        if (!(measured & (1 << i))) {
            kb_assumed fact = i ? KB_ASSUMED_DECODE_BANDWIDTH : KB_ASSUMED_LLM_MFU;
            decide_fact_cite(d, fact);
            decide_option_cite(d, o, d->facts[fact].source);
        }
    decide_llm_parallel_cites(d, o);
    double limit = NAN, capacity = NAN;
    if (w->serve_arrival_rate > 0)   /* the load's in flight at these shares, its capacity */
        capacity = decide_llm_arrival_inflight(d, o, rate, mfu, bw, &limit);
    model_serving v;
    decide_llm_serving_of(d, o, rate, mfu, bw, &v);
    o->tpot_ms = v.tpot_s * 1e3;
    o->step_ms = v.step_s * 1e3;
    o->floor_ms = (v.floor_s + v.allreduce_s + v.alltoall_s + v.hop_s) * 1e3;
    o->bandwidth_bound = v.bandwidth_bound;
    o->ttft_ms = v.prefill_s * 1e3;
    /* The share of a decode step its GPUs spend on the model, not on exchanging. */
    o->efficiency = v.step_s > 0 ? 1 - (v.allreduce_s + v.alltoall_s + v.hop_s) / v.step_s : 1;
    /* The requests keep concurrency / sequences of the serving replicas busy (all of them,
     * unless there are fewer requests than replicas; under an arrival rate, each holds its share
     * of the load and they carry the most within their limits); the spares generate nothing. */
    int serving = decide_llm_serving_replicas(d, o->replicas);
    double busy = w->serve_arrival_rate > 0 ? serving
                                            : fmin(serving, w->serve_concurrency / o->sequences);
    o->throughput = w->serve_arrival_rate > 0 ? capacity : v.tokens_per_s * busy;
    if (d->speed_figures_only)   /* decide_option_speed_figures: no band, no words */
        return;
    if (decide_llm_serving_band(d, o)) {   /* calibrated: its leave-one-out band */
        if (w->serve_arrival_rate > 0)   /* both shares x or / (1 + e), re-solved */
            decide_llm_arrival_band(d, o, limit, rate, mfu, bw,
                                    o->throughput / o->throughput_lo);
    } else {
        serve_band(d, o, limit, rate, busy);
    }
    precision_words(d, o, how);
    buf_puts(how, "a stated model: ");
    decide_llm_layout_words(how, o->count, o->replicas, o->tp, o->pp, o->attention_dp);
    int spares = o->replicas - serving;
    if (spares > 0)   /* the figures that follow are the serving replicas' */
        buf_printf(how, ", %d spare (redundancy)", spares);
    /* The step's bytes and FLOPs are the replica's, spread over its tp x pp GPUs. */
    char spread[32] = "";
    if (o->tp * o->pp > 1)
        snprintf(spread, sizeof spread, " over %d GPUs", o->tp * o->pp);
    if (w->serve_arrival_rate > 0)   /* the requests in flight the load keeps */
        decide_llm_inflight_words(d, o, &v, how);
    else
        buf_printf(how, ", up to %.0f sequence%s a replica", o->sequences,
                   o->sequences == 1 ? "" : "s");
    buf_printf(how, "; a decode step %.1f ms (%s bound: %.3g GB%s "
                    "at %.0f%% of %.0f GB/s each, %.3g GFLOP at %.0f%% of %.0f %s %s each)",
               v.step_s * 1e3, decide_llm_step_bound(&v),
               v.bytes_per_step / 1e9, spread, bw * 100, o->gpu->memory_bandwidth_gbs,
               v.flops_per_step / 1e9, mfu * 100, rate, run->computes,
               gw_precision_rate_unit(run));
    decide_llm_attention_cites(d);
    decide_llm_floor_words(d, &v, how);
    decide_llm_parallel_words(d, o, &v, how);
    buf_printf(how, "; a prompt %.0f ms (%.0f%% attention); %.1f ms per output token",
               o->ttft_ms,
               v.prefill_flops > 0 ? v.prefill_attention_flops / v.prefill_flops * 100 : 0,
               o->tpot_ms);
    if (!decide_str_eq(o->gpu->vendor, "NVIDIA"))
        buf_printf(how, " (the shares are those of NVIDIA's serving stacks: %s's may reach "
                        "less)", o->gpu->vendor ? o->gpu->vendor : "another vendor");
}

/* A measured figure with no spread of its own gets the KB's reproducibility on the benchmark
 * either way, as a ratio (decide_speed.c's measured figures do the same), said after o's basis. */
static void measured_repro_band(decision *d, decide_option *o)
{
    double r = decide_repro_error(d);
    if (!(r > 0))
        return;
    o->throughput_lo = o->throughput / (1 + r);
    o->throughput_hi = o->throughput * (1 + r);
    gw_buf basis = GW_BUF_INIT;
    buf_printf(&basis, "%s, so it is given ", o->throughput_band_basis);
    decide_repro_words(d, &basis);
    buf_printf(&basis, ": the figure / %.3g to x %.3g", 1 + r, 1 + r);
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}

/* The benchmark's measured results for o's GPU replace the stated model's tokens/s when
 * training (the mean of those at o's count); when serving, where replicas run side by side, the
 * best figure per GPU (a benchmark's offline scenario runs at full batch; MLPerf's rows are per
 * accelerator) times o's GPUs caps the model's figure at the stated concurrency. */
static void measured_cap(decision *d, decide_option *o, gw_buf *how)
{
    int serving = d->llm_setup.task == MODEL_INFERENCE;
    int kind = decide_llm_workload_kind(d);
    double sum = 0, best = 0, lowest = INFINITY, highest = 0;
    size_t n = 0;
    const char *source = NULL;
    for (size_t i = 0; i < d->n_bench && o->hosts == 1; i++) {
        const kb_benchmark *b = &d->bench[i];
        /* Only the workload's own kind of result: a serving figure is no training speed. */
        if (decide_llm_row_kind(b) != kind || !decide_str_eq(b->gpu, o->gpu->id) ||
            !(b->value > 0) || !(b->gpu_count >= 1) ||
            (!serving && (int)b->gpu_count != o->count))
            continue;
        sum += b->value;
        lowest = fmin(lowest, b->value);
        highest = fmax(highest, b->value);
        best = fmax(best, b->value / b->gpu_count);
        n++;
        source = b->source;
    }
    if (!n)
        return;
    decide_option_cite(d, o, source);
    if (!serving) {
        o->measured = 1;
        o->throughput = sum / n;
        o->throughput_lo = lowest;
        o->throughput_hi = highest;
        free(o->throughput_band_basis);
        o->throughput_band_basis = gw_xstrdup(n > 1 ? "the spread of the measured results used, "
                                                      "lowest to highest"
                                                    : "one measured result: no spread of its own");
        if (n == 1)
            measured_repro_band(d, o);
        buf_reset(how);
        buf_printf(how, "measured on %dx %s (%.0f tokens/s%s)", o->count, o->gpu->name,
                   sum / n, n > 1 ? ", the mean of its results" : "");
    } else if (best * o->count < o->throughput) {
        o->measured = 1;
        o->throughput = o->throughput_lo = o->throughput_hi = best * o->count;
        free(o->throughput_band_basis);
        o->throughput_band_basis = gw_xstrdup("capped by the best measured result a GPU, one "
                                              "figure: no spread of its own");
        measured_repro_band(d, o);
        buf_printf(how, "; capped at %.0f tokens/s: %dx the %.0f a GPU measured on %s (%s)",
                   best * o->count, o->count, best, o->gpu->name, d->w->benchmark);
    }
}

void decide_llm_speed(decision *d, decide_option *o, gw_buf *how)
{
    o->throughput = NAN;
    o->tpot_ms = o->ttft_ms = o->step_ms = o->floor_ms = o->capacity = NAN;
    if (d->llm_setup.task == MODEL_INFERENCE)
        serve_speed(d, o, how);
    else
        train_speed(d, o, how);
    if (!isnan(o->throughput))
        measured_cap(d, o, how);
    decide_slice_share(o, how);   /* decide_option.c: a slice of a card, its share */
    if (d->llm_setup.task == MODEL_INFERENCE && !isnan(o->throughput))
        decide_demand_serve(d, o, how);   /* decide_demand.c */
    decide_option_cite(d, o, o->gpu->source);
}

/* ---- what the report says of a language model ---- */

static const char *method_words(const decision *d)
{
    switch (d->llm_setup.method) {
    case MODEL_TUNE_LORA:
        return "LoRA";
    case MODEL_TUNE_QLORA:
        return "QLoRA (4-bit NormalFloat weights, paged optimizer)";
    default:
        return d->llm_setup.task == MODEL_TRAIN ? "pre-training" : "full fine-tune";
    }
}

/* "Llama 3 8B: 8.03B parameters, 32 layers, ..." */
static void model_words(gw_buf *b, const decision *d)
{
    const workload *w = d->w;
    const model_llm *m = &d->llm;
    buf_printf(b, "%s: %.3gB parameters", d->w->model_title ? d->w->model_title : "as given",
               m->params / 1e9);
    if (m->active_params < m->params)
        buf_printf(b, " (%.3gB active per token: a mixture of experts)", m->active_params / 1e9);
    buf_printf(b, "; %.0f layers, hidden size %.0f, %.0f attention heads, %.0f KV heads of %.0f",
               m->layers, m->hidden, m->heads, m->kv_heads, m->head_dim);
    buf_puts(b, "; vocabulary ");
    view_format_number(b, m->vocab, 0);
    if (!isnan(w->context)) {
        buf_puts(b, "; context ");
        view_format_number(b, w->context, 0);
        buf_puts(b, " tokens");
    }
}

static void setup_words(gw_buf *b, const decision *d)
{
    const workload *w = d->w;
    const model_llm_setup *s = &d->llm_setup;
    if (s->task == MODEL_INFERENCE) {
        buf_printf(b, "serving at %s: prompts of ", w->precision);
        view_format_number(b, w->serve_context, 0);
        buf_puts(b, " tokens, ");
        view_format_number(b, w->serve_output, 0);
        buf_puts(b, " output tokens a request, ");
        if (w->serve_arrival_rate > 0) {   /* the load sets the requests in flight */
            buf_printf(b, "%.3g requests arriving a second, in flight as many as that load "
                          "keeps (Little's law)", w->serve_arrival_rate);
            if (w->serve_inflight_cap > 0)
                buf_printf(b, ", at most %g (inference.concurrency)", w->serve_inflight_cap);
        } else {
            view_format_number(b, w->serve_concurrency, 0);
            buf_puts(b, " requests in flight");
        }
        if (!isnan(w->target_tpot_ms) || !isnan(w->target_ttft_ms) ||
            !isnan(w->target_tokens_per_s)) {
            buf_puts(b, "; targets:");
            const char *sep = " ";
            if (!isnan(w->target_tpot_ms))
                buf_printf(b, "%sat most %g ms per output token on average", sep,
                           w->target_tpot_ms), sep = ", ";
            if (!isnan(w->target_ttft_ms))
                buf_printf(b, "%sat most %g ms to the first token", sep, w->target_ttft_ms), sep = ", ";
            if (!isnan(w->target_tokens_per_s)) {
                buf_printf(b, "%sat least ", sep);
                view_format_number(b, w->target_tokens_per_s, 0);
                buf_puts(b, " tokens/s in all");
            }
        }
        return;
    }
    buf_printf(b, "%s", method_words(d));
    if (s->method != MODEL_TUNE_FULL) {
        buf_printf(b, ", rank %g (", s->lora_rank);
        view_format_number(b, model_llm_lora_params(&d->llm, s->lora_rank), 0);
        buf_puts(b, " trainable parameters)");
    }
    buf_printf(b, ", %s", w->precision);
    if (s->method == MODEL_TUNE_LORA) {   /* the base weights' bytes are the memory's most */
        const gw_precision *p = gw_precision_find(w->precision);
        const char *frozen = p && p->trains_as ? p->trains_as : w->precision;
        double bytes = model_llm_weight_bytes(frozen);
        if (bytes > 0)
            buf_printf(b, " (the frozen weights held at %g bits, not fp32's 32)", bytes * 8);
    }
    buf_printf(b, ", %s; sharding %s; activation checkpointing %s; ",
               s->optimizer, w->sharding,
               s->checkpointing             ? "on"
               : s->selective_checkpointing ? "selective (the attention scores only)"
                                            : "off");
    view_format_number(b, s->batch, 0);
    buf_printf(b, " sequence%s of ", s->batch == 1 ? "" : "s");
    view_format_number(b, s->sequence_length, 0);
    buf_puts(b, " tokens per GPU a step");
    if (w->gradient_accumulation > 1) {
        buf_printf(b, ", gradients accumulated over %g micro-batches: ", w->gradient_accumulation);
        view_format_number(b, decide_llm_tokens_per_step(w), 0);
        buf_puts(b, " tokens per GPU an optimizer step");
    }
    if (s->fused_loss)
        buf_puts(b, "; a fused, chunked cross-entropy loss");
}

/* The memory of one GPU of o, term by term (zero: the workload's ZeRO stage). */
static void memory_words(gw_buf *b, const decide_option *o, int zero)
{
    const model_memory *m = &o->memory;
    buf_printf(b, "%.1f GB per GPU of ", m->total_gb);
    decide_option_capacity_words(b, o);
    buf_printf(b, ": weights %.2f GB", m->weights_gb);
    if (m->gradients_gb > 0)
        buf_printf(b, ", gradients %.2f GB", m->gradients_gb);
    if (m->optimizer_gb > 0)
        buf_printf(b, ", optimizer states %.2f GB", m->optimizer_gb);
    if (m->activations_gb > 0)
        buf_printf(b, ", activations %.2f GB", m->activations_gb);
    if (m->kv_cache_gb > 0)
        buf_printf(b, ", KV cache %.2f GB (%s)", m->kv_cache_gb,
                   gw_precision_find(o->run_precision)->kv_bytes == 1 ? "FP8"
                       : "16-bit");
    buf_printf(b, ", context and fragmentation %.2f GB", m->overhead_gb);
    if (o->tp * (o->pp > 1 ? o->pp : 1) > 1) {
        buf_puts(b, " (");
        decide_llm_layout_words(b, o->count, o->replicas, o->tp, o->pp > 1 ? o->pp : 1,
                                o->attention_dp);
        buf_puts(b, ")");
    }
    else if (o->replicas > 1 && zero >= 3)
        buf_printf(b, " (weights, gradients and optimizer states sharded over the %d GPUs, "
                      "ZeRO-3)", o->replicas);
    else if (o->replicas > 1 && zero >= 1)
        buf_printf(b, " (%d data-parallel GPUs, ZeRO-%d)", o->replicas, zero);
    else if (o->replicas > 1)
        buf_printf(b, " (%d replicas, one a GPU)", o->replicas);
}

/* Where the workload asks for full activation checkpointing and o would fit without it (at
 * its own layout), what the setting costs (decide_llm_checkpointing_unneeded).  Appended to
 * b. */
static void checkpointing_unneeded_words(gw_buf *b, const decision *d, const decide_option *o)
{
    double gb = 0, faster = decide_llm_checkpointing_unneeded(d, o, &gb);
    if (!(faster > 0))
        return;
    buf_printf(b, "; it would fit without activation checkpointing (%.1f GB) and train %.2f "
                  "times as fast, %.0f%% fewer GPU-hours a token: the workload asks for "
                  "checkpointing, its memory does not need it",
               gb, faster, 100 * (1 - 1 / faster));
}

view *decide_llm_view(const decision *d)
{
    view *v = view_map();
    gw_buf b = GW_BUF_INIT;
    model_words(&b, d);
    view_map_set_str(v, "model_text", buf_cstr(&b));
    if (d->llm_cite)
        view_list_push(view_map_set(v, "model_cites", view_list()),
                       view_number(d->llm_cite));
    buf_reset(&b);
    setup_words(&b, d);
    view_map_set_str(v, "setup_text", buf_cstr(&b));
    view_map_set_bool(v, "serving", d->llm_setup.task == MODEL_INFERENCE);
    view_map_set(v, "speed_terms", decide_llm_speed_terms_view(d));
    if (d->llm_setup.task == MODEL_INFERENCE && !isnan(d->w->target_tokens_per_s)) {
        buf_reset(&b);
        buf_puts(&b, "Every option that meets the targets serves the ");
        view_format_number(&b, d->w->target_tokens_per_s, 0);
        buf_printf(&b, " tokens/s demanded, %g h a day, and is costed for them (the Throughput "
                       "column); what each could generate %s is its "
                       "capacity (`capacity_tokens_per_s` in `gpuwise decide --json`; the "
                       "recommendation's is above).", d->w->hours_per_day,
                   d->w->serve_arrival_rate > 0 ? "within the targets"
                                                : "at the stated concurrency");
        view_map_set_str(v, "demand_text", buf_cstr(&b));
    }
    decide_llm_accuracy_view((decision *)d, v);   /* computed once, for the view */
    const decide_option *best = decide_best(d);
    if (best) {
        buf_reset(&b);
        memory_words(&b, best, d->llm_setup.zero);
        checkpointing_unneeded_words(&b, d, best);
        view_map_set_str(v, "memory_text", buf_cstr(&b));
        if (d->llm_setup.task == MODEL_INFERENCE) {
            buf_reset(&b);
            decide_llm_layout_words(&b, best->count, best->replicas, best->tp,
                                    best->pp > 1 ? best->pp : 1, best->attention_dp);
            view_map_set_str(v, "layout_text", buf_cstr(&b));
            buf_puts(&b, ": ");
            buf_printf(&b, "%.1f ms per output token on average (a prompt processed between "
                           "decode steps holds the others about %.0f ms: chunked prefill spreads "
                           "it), %.0f ms to the first token, up to ",
                       best->tpot_ms, best->ttft_ms + best->step_ms, best->ttft_ms);
            view_format_number(&b, best->capacity, 0);
            buf_puts(&b, " tokens/s in all");
            view_map_set_str(v, "serving_text", buf_cstr(&b));
        }
    }
    buf_free(&b);
    return v;
}

/* The method's lines for a language model, in place of the image-model ones. */
/* The method's memory line for a language model: every term of the memory per GPU, those of
 * serving or of training. */
static void llm_method_memory(const decision *d, view *method, gw_buf *b)
{
    buf_printf(b, "memory per GPU = (weights + %s) x %.2f + %.1f GB (CUDA context and allocator "
                  "fragmentation); weights at their precision (fp32 4 bytes, 16-bit 2, ",
               d->llm_setup.task == MODEL_INFERENCE
                   ? "KV cache"
                   : "gradients + optimizer states + activations",
               1 + MODEL_FRAGMENTATION, MODEL_CONTEXT_GB);
    if (d->llm_setup.task == MODEL_INFERENCE) {
        buf_printf(b,
                   "fp8 1, int8 %.4g and int4 %.4g with a 16-bit scale per %g weights, fp4 "
                   "%.4g), the embeddings and output layer 16-bit in a quantized model, as its "
                   "checkpoints keep them; KV cache = 2 x layers x KV heads x head size x bytes x "
                   "(prompt + output tokens) x sequences in flight; a serving replica's layout "
                   "is searched (serving layouts)",
                   model_llm_weight_bytes("int8"), model_llm_weight_bytes("int4"),
                   MODEL_QUANT_GROUP, model_llm_weight_bytes("fp4"));
    } else {
        buf_printf(b,
                   "QLoRA's NF4 %.4g with the embeddings and output layer 16-bit); trained "
                   "parameters (all, or LoRA's rank-r adapters on every linear layer, in fp32) "
                   "add gradients and optimizer states (mixed-precision AdamW: 2 + 2 + 12 bytes "
                   "a parameter; QLoRA pages its optimizer states to host memory); ZeRO-1 "
                   "divides the optimizer states by the data-parallel replicas, ZeRO-2 the "
                   "gradients too, ZeRO-3 the weights too; activations = layers x tokens a "
                   "micro-batch x (%g x hidden + %g x feed-forward width x its 3 gated or 2 plain "
                   "wide tensors x the experts a token is routed to) bytes (Korthikanti et al.'s "
                   "34 x hidden at a width of 4 x hidden, with FlashAttention, which keeps no "
                   "attention scores, so selective checkpointing saves nothing; full keeps %g x "
                   "hidden a layer plus one layer's) + tokens x vocabulary x %g (fp32 logits; a "
                   "fused loss: %g bytes x one chunk of 2^ceil(log2(ceil(tokens / ceil(vocabulary "
                   "/ hidden)))) tokens, liger-kernel-paper); a replica that does not fit one GPU "
                   "is split over 2, 4 or 8 GPUs of one machine (tensor parallel), which divides "
                   "all of it",
                   model_llm_weight_bytes("nf4"), MODEL_ACTIVATION_HIDDEN_BYTES,
                   MODEL_ACTIVATION_FFN_TENSOR_BYTES, MODEL_CHECKPOINT_BYTES, MODEL_LOGIT_BYTES,
                   MODEL_FUSED_LOGIT_BYTES);
    }
    decide_capacity_method_words(b);
    view_map_set_str(method, "memory", buf_cstr(b));
}

/* A training utilisation's band in the method: the current calibration's leave-one-out error,
 * or where too few rows calibrate it, the published spread. */
static void train_band_method_words(const decision *d, gw_buf *b)
{
    buf_puts(b, "; each modelled speed's band (throughput.low and throughput.high)");
    decide_llm_calibration_vendors(d, " on ", b);
    if (d->llm_mfu_rows > 1) {
        buf_printf(b, " is the utilisation's leave-one-out error on the %d measured rows, %.1f%% "
                      "at the %.0fth percentile of those errors: the figure / %.3g to x %.3g",
                   d->llm_mfu_rows, d->llm_mfu_error * 100, MODEL_BAND_PERCENTILE * 100,
                   1 + d->llm_mfu_error, 1 + d->llm_mfu_error);
        return;
    }
    double low, high;
    train_spread_factors(d, &low, &high);
    buf_printf(b, " is the published spread of training's utilisation, %.0f%% (torchtitan-"
                  "performance-h100: Llama 3.1 8B on 8 H100s) to %.1f%% (torchtitan-"
                  "performance-a100: Llama 3 8B on 64 A100s), as factors on the KB's assumed "
                  "%.0f%%: the figure x %.4g to x %.4g (%d measured rows, too few to calibrate "
                  "it)", LLM_MFU_PUBLISHED_LOW * 100, LLM_MFU_PUBLISHED_HIGH * 100,
               d->facts[KB_ASSUMED_LLM_MFU].value * 100, low, high, d->llm_mfu_rows);
}

/* The method's training speed: the utilisation of each calibration the options took (one a
 * vendor whose rows narrowed it), with checkpointing's share and each one's band. */
static void llm_method_train(decision *d, gw_buf *b)
{
    size_t n = decide_llm_calibrations(d);
    buf_puts(b, "training speed, a stated model: tokens/s of a GPU = dense tensor rate at the "
                "precision x utilisation / FLOPs the GPU computes a token (6 x active "
                "parameters; LoRA and QLoRA 4 x, no gradients of frozen weights; 2 x more with "
                "activation checkpointing, which recomputes the forward pass; plus the "
                "attention's own FLOPs, below); the utilisation is ");
    for (size_t i = 0; i < n; i++) {
        decide_llm_calibration_use(d, i);
        buf_printf(b, "%s%.0f%% (%s)", i ? ", " : "", d->llm_mfu * 100,
                   d->llm_mfu_rows ? decide_llm_calibration_words(d)
                                   : "the KB's assumed figure, Llama 3's model FLOPs "
                                     "utilisation in pre-training");
        decide_llm_calibration_vendors(d, " on ", b);
    }
    buf_printf(b, ", of every FLOP the GPU computes, while it computes: each calibrating row's "
                  "own data-parallel exchange, as the model charges it, is divided out of what it "
                  "delivered, and an option's own exchange is then charged once, as not "
                  "overlapping the compute; a utilisation is calibrated on its own kind of result "
                  "alone (pre-training, each fine-tune method, serving), a row delivering more "
                  "than %.0f%% left out as implausible; a GPU without FP8 tensor cores runs the "
                  "next precision it has", DECIDE_LLM_UTILISATION_MAX * 100);
    for (size_t i = 0; i < n && d->llm_setup.checkpointing; i++) {
        decide_llm_calibration_use(d, i);
        buf_printf(b, "%s%.0f%%", i ? ", " : "; with checkpointing's recomputation left out, "
                                             "the model FLOPs utilisation while computing is ",
                   d->llm_mfu * 100 * decide_llm_model_flops_share(d));
        decide_llm_calibration_vendors(d, " on ", b);
    }
    for (size_t i = 0; i < n; i++) {
        decide_llm_calibration_use(d, i);
        train_band_method_words(d, b);
    }
}

/* The method's speed line: how a stated model's serving or training speed is computed. */
static void llm_method_speed(decision *calibrated, view *method, gw_buf *b)
{
    if (calibrated->llm_setup.task != MODEL_INFERENCE) {
        llm_method_train(calibrated, b);
    } else {
        double serve_mfu, serve_bandwidth;   /* calibrated, else the KB's assumed figures */
        decide_llm_calibration_use(calibrated, 0);
        decide_llm_serving_shares(calibrated, NULL, &serve_mfu, &serve_bandwidth);
        buf_printf(b,
                   "serving speed, a stated model: a decode step = the longer of reading the "
                   "weights (a mixture of experts: its active ones a sequence at most) and KV "
                   "caches (FP8 with FP8 or FP4 weights, else 16-bit) at %.0f%% of the memory "
                   "bandwidth and computing 2 x active parameters + attention FLOPs a sequence "
                   "at %.0f%% of the dense tensor rate, + the decode floor; the time to the "
                   "first token = a prompt's FLOPs at that rate; time per output token = "
                   "(output x step + sequences x prompt time) / output (the next prompts run "
                   "between steps), tokens/s = sequences / that; a GPU lacking the precision "
                   "runs the next it has",
                   serve_bandwidth * 100, serve_mfu * 100);
        int calibrated_words = 0;
        for (size_t i = 0; i < decide_llm_calibrations(calibrated); i++) {   /* each one's */
            decide_llm_calibration_use(calibrated, i);
            calibrated_words |= decide_llm_serving_method_words(calibrated, b);
        }
        /* Serving's prefill keeps Llama 3 405B's range: torchtitan's spread is of training
         * stacks, and a served option's speed is its prefill and decode, not a training step. */
        if (!calibrated_words)
            buf_printf(b, "; the band (throughput.low, .high): prefill at %.0f%% to %.0f%% "
                          "utilisation (llama-3-paper; training's 33%% to 58.2%% of torchtitan's "
                          "runs is not applied to serving), %.1f%% to %.0f%% of the bandwidth "
                          "(gpt-fast-benchmarks to mbu-glossary)", LLM_MFU_LOW * 100,
                       LLM_MFU_HIGH * 100, LLM_DECODE_BANDWIDTH_LOW * 100,
                       LLM_DECODE_BANDWIDTH_HIGH * 100);
    }
    view_map_set_str(method, "scaling", buf_cstr(b));
    view_map_set(method, "llm_terms", decide_llm_method_terms(calibrated, b));
}

/* Several machines when serving: the replicas side by side, a replica across them only as
 * pipeline stages. */
static const char llm_serving_machines[] =
    "several machines (up to 4 bought, or a rental's instances): a replica spans them only as "
    "pipeline stages (serving layouts)";

/* The method's lines on several GPUs: data-parallel replicas within and across machines, the
 * measured results used, and tensor parallelism. */
static void llm_method_multi_gpu(const decision *d, view *method, gw_buf *b)
{
    int serving = d->llm_setup.task == MODEL_INFERENCE;
    if (serving)   /* serving replicas exchange nothing: no data-parallel efficiency */
        buf_puts(b, "serving replicas: side by side, the requests spread evenly over them, "
                    "exchanging nothing");
    else
        buf_printf(b,
                   "data-parallel replicas: efficiency = compute / (compute x %.2f + "
                   "exchange), compute = tokens a step (sequences x length) / a replica's "
                   "tokens/s, exchange = 2(n-1)/n x bytes / link bandwidth each way (bytes: the "
                   "trained parameters' gradients, 4 a parameter in amp and for adapters, 2 in "
                   "fp16 or bf16; x 1.5 under ZeRO-3, which gathers the weights again); across "
                   "machines the network as for every model",
                   1 + MODEL_SYNC_OVERHEAD);
    view_map_set_str(method, "multi_gpu", buf_cstr(b));
    view_map_set_str(method, "evidence",
                     d->w->benchmark
                         ? "measured results: the rows of the workload's benchmark for a GPU and "
                           "count replace the stated model's tokens/s when training, and cap "
                           "it when serving (the best row per GPU, at full batch, times the "
                           "GPUs), those of the workload's kind alone, which calibrate it"
                         : "measured results: none (the workload names no benchmark): every "
                           "speed is the stated model's, an estimate, calibrated as below");
    view_map_set_str(method, "machines", serving ? llm_serving_machines :
                     "several machines (up to 4 bought, or a rental's instances where the "
                     "provider states their network; serving replicas exchange nothing, so "
                     "a rental's instances serve side by side without one): training replicas "
                     "exchange across the network too, "
                     "2(k-1)/k x bytes / the link within a machine + 2(N-1)/N x bytes / the "
                     "network between machines, k GPUs a machine and N machines; the network is "
                     "a server's own ports, a rental's stated network, else the workload's "
                     "network_gbps; a training replica split by tensor parallelism stays "
                     "within one machine; a serving replica spans machines only as pipeline "
                     "stages (serving layouts)");
    buf_reset(b);
    if (d->llm_setup.task == MODEL_INFERENCE)
        decide_llm_layout_method_words(d, b);
    else
        buf_printf(b,
                   "tensor parallelism (a replica too big for one GPU, split over n of one "
                   "machine): throughput = n x one GPU x %.2f over the board's link or %.2f "
                   "over PCIe (assumed, an estimate)",
                   MODEL_PARALLEL_EFFICIENCY_NVLINK, MODEL_PARALLEL_EFFICIENCY_PCIE);
    view_map_set_str(method, "model_parallel", buf_cstr(b));
}

void decide_llm_method(const decision *d, view *method)
{
    gw_buf b = GW_BUF_INIT;
    llm_method_memory(d, method, &b);
    buf_reset(&b);
    llm_method_speed((decision *)d, method, &b);   /* calibrations: computed on first use */
    buf_reset(&b);
    llm_method_multi_gpu(d, method, &b);
    buf_free(&b);
}
