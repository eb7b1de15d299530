/* decide_llm_accuracy.c — the measured language-model results as the model reads them: each
 * row's kind and scenario, the share it implies (training: the utilisation its GPUs computed at,
 * its layout's and data parallel's charges divided out, as an option's speed is charged; serving:
 * the utilisation of prefill and compute-bound decode, or a bandwidth-bound decode step's share
 * of memory bandwidth), which rows calibrate a prediction, and the model's leave-one-out accuracy
 * over every such row of the KB (the workload's own calibrations: decide_llm_calibration.c).
 * The rule for which rows calibrate: those of the kind, narrowed in turn to the GPU vendor's
 * (its software stack), the training stack's (fully sharded, zero3, or not), the
 * architecture's (mixture of experts or dense), the number format's
 * (FP4 kernels reach a smaller share of their peak than FP8 ones: served at FP4, the KB's B200
 * rows imply 24% to 28% utilisation where its FP8 rows imply 31% to 40%), the model's own and
 * the layout's (context parallel or not) and, training, the GPU architecture's (row_pref), each
 * step kept only where it leaves 2 rows
 * (DECIDE_LLM_SAME_MODEL_ROWS); a share none of the rows kept implies (a stream's bandwidth
 * among offline rows that imply utilisation) is read from the narrowest wider set that implies
 * it; rows measured with speculative decoding never calibrate.  Its view is
 * decide_llm_accuracy_view.c's. */
#include "decide_llm_accuracy.h"
#include "decide_llm_rows.h"
#include "decide_llm.h"
#include "decide_speed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/precision.h"

/* The widest tensor-parallel group a measured serving row is taken to use (one 8-GPU server's
 * link, as decide_llm_layout.c's LAYOUT_MAX_TP). */
#define ROW_MAX_TP 8
/* The range searched for a serving row's share: below it a row says nothing the model
 * describes, above it (4x the peak) it is far past any bound, and is said to be. */
#define SHARE_SEARCH_LOW 1e-4
#define SHARE_SEARCH_HIGH 4.0

/* ---- kinds ---- */

int decide_llm_row_kind(const kb_benchmark *b)
{
    if (!decide_str_eq(b->unit, "tokens/s"))
        return -1;
    if (decide_str_eq(b->metric, "train_throughput")) {
        if (!b->method)
            return DECIDE_LLM_PRETRAIN;
        if (decide_str_eq(b->method, "lora"))
            return DECIDE_LLM_LORA;
        return decide_str_eq(b->method, "qlora") ? DECIDE_LLM_QLORA : DECIDE_LLM_FULL;
    }
    if (decide_str_eq(b->metric, "inference_offline") ||
        decide_str_eq(b->metric, "inference_server") ||
        decide_str_eq(b->metric, "inference_stream"))
        return DECIDE_LLM_SERVE;
    return -1;
}

decide_llm_kind decide_llm_workload_kind(const decision *d)
{
    const model_llm_setup *s = &d->llm_setup;
    if (s->task == MODEL_INFERENCE)
        return DECIDE_LLM_SERVE;
    if (s->task == MODEL_TRAIN)
        return DECIDE_LLM_PRETRAIN;
    if (s->method == MODEL_TUNE_LORA)
        return DECIDE_LLM_LORA;
    return s->method == MODEL_TUNE_QLORA ? DECIDE_LLM_QLORA : DECIDE_LLM_FULL;
}

const char *decide_llm_kind_name(decide_llm_kind kind)
{
    static const char *const names[] = {"pre-training", "full fine-tune", "LoRA fine-tune",
                                        "QLoRA fine-tune", "serving"};
    return kind < DECIDE_LLM_KINDS ? names[kind] : "?";
}

/* ---- reading the rows ---- */

static model_llm model_of(const kb_model *m)
{
    return (model_llm){.params = m->params,
                       .active_params = isnan(m->active_params) ? m->params : m->active_params,
                       .layers = m->layers,
                       .hidden = m->hidden,
                       .heads = m->heads,
                       .kv_heads = m->kv_heads,
                       .head_dim = m->head_dim,
                       .vocab = m->vocab,
                       .ffn = m->ffn,
                       .experts = m->experts,
                       .experts_active = m->experts_active,
                       .attention_head_dim = m->attention_head_dim,
                       .decode_attention_head_dim = m->decode_attention_head_dim};
}

/* Resolves rows[0..n) of b: kind, GPU and catalog model (one look-up per workload name: the
 * rows come ordered by it, or repeat it). */
static llm_row *resolve_rows(decision *d, const kb_benchmark *b, size_t n)
{
    llm_row *rows = gw_xcalloc(n ? n : 1, sizeof *rows);
    kb_model m = {0};
    int found = 0;
    const char *looked_up = NULL;
    for (size_t i = 0; i < n; i++) {
        llm_row *r = &rows[i];
        r->b = &b[i];
        r->kind = decide_llm_row_kind(&b[i]);
        r->gpu = decide_gpu_find(d, b[i].gpu);
        if (r->kind < 0)
            continue;
        if (!looked_up || !decide_str_eq(looked_up, b[i].workload)) {
            kb_model_free(&m);
            found = kb_model_resolve(d->k, b[i].workload, &m, NULL) == GW_OK;
            looked_up = b[i].workload;
        }
        if (found) {
            r->model_id = gw_xstrdup(m.id);
            r->model = model_of(&m);
            r->has_model = 1;
        }
    }
    kb_model_free(&m);
    return rows;
}

int decide_llm_rows_load(decision *d, gw_error *err)
{
    struct decide_llm_rows *st = gw_xcalloc(1, sizeof *st);
    d->llm_rows = st;
    if (kb_schema_version(d->k) >= 12) {   /* before, no row states a scenario */
        int rc = kb_benchmarks_in_tokens(d->k, &st->kb, &st->n_kb, err);
        if (rc != GW_OK)
            return rc;
    }
    st->applied = (size_t)-1;   /* none yet */
    st->unseen_band = NAN;       /* not yet computed (decide_llm_unseen_band) */
    st->rows = resolve_rows(d, st->kb, st->n_kb);
    st->bench = resolve_rows(d, d->bench, d->n_bench);
    st->n_bench = d->n_bench;
    return GW_OK;
}

static void rows_free(llm_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++)
        free(rows[i].model_id);
    free(rows);
}

void decide_llm_rows_free(decision *d)
{
    struct decide_llm_rows *st = d->llm_rows;
    if (!st)
        return;
    if (st->accuracy)
        decide_llm_accuracy_free(st->accuracy);
    free(st->accuracy);
    rows_free(st->rows, st->n_kb);
    rows_free(st->bench, st->n_bench);
    kb_benchmarks_free(st->kb, st->n_kb);
    free(st->cal_implied);
    for (size_t i = 0; i < st->n_cals; i++) {
        free(st->cals[i].vendor);
        free(st->cals[i].architecture);
        free(st->cals[i].used);
        free(st->cals[i].scope);
        free(st->cals[i].words);
        free(st->cals[i].band_basis);
    }
    free(st->cals);
    for (size_t i = 0; i < st->n_vendors; i++) {
        free(st->vendors[i].vendor);
        free(st->vendors[i].architecture);
    }
    free(st->vendors);
    free(st);
    d->llm_rows = NULL;
}

/* ---- what a row implies ---- */

/* A serving row measured with speculative decoding (benchmark method "speculative"): a draft or
 * multi-token-prediction head proposes several tokens that one step of the model verifies, so a
 * step yields more than the one token the model counts; it neither calibrates nor is predicted. */
int decide_llm_row_speculative(const llm_row *r)
{
    return decide_str_eq(r->b->method, "speculative");
}

static int is_stream(const llm_row *r)
{
    return decide_str_eq(r->b->metric, "inference_stream");
}

/* The scenario r states; where w is given (the rows of the workload's own benchmark), what r
 * leaves out is w's.  0 where the model lacks something: a known precision, the tokens of a
 * sequence or a request, a serving row's output tokens (its requests in flight: a stream's one,
 * an offline or server row's as many as memory holds, serve_plan_make). */
int decide_llm_row_scenario(const llm_row *r, const workload *w, llm_scenario *sc)
{
    const kb_benchmark *b = r->b;
    int serve = r->kind == DECIDE_LLM_SERVE;
    *sc = (llm_scenario){b->precision, b->input_tokens, b->output_tokens, b->batch};
    if (w) {
        if (!sc->precision)
            sc->precision = w->precision;
        if (!(sc->input > 0))
            sc->input = serve ? w->serve_context : w->sequence_length;
        if (!(sc->output > 0))
            sc->output = w->serve_output;
        if (!(sc->batch > 0))
            sc->batch = serve ? w->serve_concurrency : w->batch_per_gpu;
    }
    if (!(sc->batch > 0) && (!serve || is_stream(r)))
        sc->batch = 1;   /* offline and server without one: as many as memory holds */
    if (!(sc->output > 0) && is_stream(r))
        sc->output = 1;  /* a stream's rate is its decode step's: its KV cache the prompt's */
    return gw_precision_find(sc->precision) && sc->input > 0 && (!serve || sc->output > 0);
}

/* The setup the model computes r at: its kind, method and scenario, and the activation
 * recomputation it states (benchmark recompute: selective or full; none where it states none
 * or nothing).  A published utilisation counts the model's FLOPs, not recomputed ones, so a
 * row that recomputed kept its GPUs busier than its tokens say: charged as a workload's
 * activation_checkpointing is, the share it implies is of the work its GPUs did. */
static model_llm_setup setup_of(const llm_row *r, const llm_scenario *sc)
{
    static const model_tune methods[] = {MODEL_TUNE_FULL, MODEL_TUNE_FULL, MODEL_TUNE_LORA,
                                         MODEL_TUNE_QLORA, MODEL_TUNE_FULL};
    int serve = r->kind == DECIDE_LLM_SERVE;
    return (model_llm_setup){.task = serve ? MODEL_INFERENCE
                                           : r->kind == DECIDE_LLM_PRETRAIN ? MODEL_TRAIN
                                                                            : MODEL_FINETUNE,
                             .method = methods[r->kind],
                             .lora_rank = 16,
                             .precision = sc->precision,
                             .optimizer = "adamw",
                             .sequence_length = sc->input,
                             .batch = serve ? 1 : sc->batch,
                             .kv_tokens = serve ? sc->input + sc->output : 0,
                             .sequences = 1,
                             .checkpointing = !serve && decide_str_eq(r->b->recompute, "full"),
                             .selective_checkpointing =
                                 !serve && decide_str_eq(r->b->recompute, "selective")};
}

/* FLOPs of one token r trained in setup s (model_llm_train_flops_per_token).  A full
 * recomputation over only recompute_layers of the model's layers (Megatron's block method)
 * costs that share of what recomputing every layer adds. */
static double row_train_flops(const model_llm *m, const llm_row *r, const model_llm_setup *s)
{
    double flops = model_llm_train_flops_per_token(m, s);
    double layers = r->b->recompute_layers;
    if (!s->checkpointing || !(layers > 0) || !(m->layers > layers))
        return flops;
    model_llm_setup none = *s;
    none.checkpointing = 0;
    double without = model_llm_train_flops_per_token(m, &none);
    return without + (flops - without) * layers / m->layers;
}

const model_llm *decide_llm_row_model(const decision *d, const llm_row *r)
{
    return r->has_model ? &r->model : &d->llm;
}

/* The most requests in flight on one replica of a serving row that states none: TensorRT-LLM's
 * default largest batch (2,048; MLPerf's H200 llama2-70b submission ran 2,048 a GPU). */
#define ROW_MAX_BATCH 2048

/* The most sequences a replica of tp GPUs holds in their memory (each its KV cache of prompt and
 * output tokens): memory grows by the same step per sequence; 0 where not even one fits.  At
 * most ROW_MAX_BATCH a replica, a rank's under attention data-parallel, where each GPU batches
 * its own sequences (trtllm-bench's --max_batch_size is "max batch size in each rank":
 * trtllm-deepseek-r1-best-perf-practice). */
static double most_sequences(const model_llm *m, const llm_row *r, model_llm_setup *s, int tp)
{
    model_memory one, two;
    s->sequences = 1;
    if (model_llm_memory(m, s, 1, tp, 1, &one, NULL) != GW_OK)
        return 0;
    s->sequences = 2;
    model_llm_memory(m, s, 1, tp, 1, &two, NULL);
    double step = two.total_gb - one.total_gb, room = r->gpu->memory_gb - one.total_gb;
    double most = s->attention_dp ? ROW_MAX_BATCH * tp : ROW_MAX_BATCH;
    if (room < 0)
        return 0;
    return step > 0 ? fmin(1 + floor(room / step), most) : most;
}

/* One replica of r over tp GPUs of a board at `sequences` in flight (model_llm_serving). */
static void serve_replica(const model_llm *m, const llm_row *r, const llm_scenario *sc,
                          model_llm_setup *s, int tp, double sequences, double rate, double mfu,
                          double bandwidth, model_serving *v)
{
    int nvlink = decide_gpu_board_link(r->gpu) && tp > 1;
    model_llm_layout l = {.tp = tp, .pp = 1, .nvlink = nvlink,
                          .link_gbs = model_link_gbs(nvlink, r->gpu->nvlink_gbs, r->gpu->pcie_gen,
                                                     r->gpu->pcie_lanes, decide_gpu_p2p(r->gpu)),
                          .network_gbs = NAN};
    s->sequences = sequences;
    model_llm_serving(m, s, sc->input, sc->output, &l, rate, r->gpu->memory_bandwidth_gbs, mfu,
                      bandwidth, v);
}

/* The requests in flight on each replica of one layout of an offline or server row: `count`
 * GPUs in replicas of tp, each at its share of the stated requests or, where none is stated, at
 * the most its memory holds; tensor parallel, or for a mixture of experts attention
 * data-parallel (s->attention_dp: each GPU at least one sequence of its own).  NaN where its
 * memory does not hold them and `fallback` is 0 (with it: the row ran, so the memory model is
 * what is off). */
static double layout_sequences(const model_llm *m, const llm_row *r, const llm_scenario *sc,
                               model_llm_setup *s, int count, int tp, int fallback)
{
    int replicas = count / tp;
    double most = most_sequences(m, r, s, tp);
    double sequences = sc->batch > 0 ? ceil(sc->batch / replicas) : most;
    if ((sequences > most || (s->attention_dp && sequences < tp)) && !fallback)
        return NAN;
    return sequences >= 1 ? sequences : 1;
}

/* One layout of an offline or server row its memory holds (serve_plan). */
typedef struct serve_layout {
    int tp, attention_dp;
    double sequences;
} serve_layout;

/* A serving row's prediction, what of it is the same at every share: its setup, its GPU's
 * rate, its widest replica and, offline or server, the layouts (tp, attention data-parallel)
 * its memory holds with their requests in flight (layout_sequences).  The 60 halvings of
 * decide_llm_row_implied make it once: each made it anew, memory bounds and all (report
 * llm-fleet 161.9 M -> 153.3 M instructions, its calibration's and leave-one-out accuracy's
 * shares). */
typedef struct serve_plan {
    const model_llm *m;
    const llm_row *r;
    const llm_scenario *sc;
    model_llm_setup s;
    double rate;
    int count, widest;
    size_t n;
    serve_layout fits[2 * 4];   /* tp 1, 2, 4 and 8, each with and without attention DP */
    double fallback; /* the widest tensor-parallel layout's requests, NaN until needed */
} serve_plan;

static void serve_plan_make(serve_plan *p, const model_llm *m, const llm_row *r,
                            const llm_scenario *sc, double rate)
{
    *p = (serve_plan){.m = m, .r = r, .sc = sc, .s = setup_of(r, sc), .rate = rate,
                      .count = (int)r->b->gpu_count, .widest = 1, .fallback = NAN};
    while (p->widest * 2 <= ROW_MAX_TP && p->count % (p->widest * 2) == 0)
        p->widest *= 2;
    if (is_stream(r))
        return;
    for (int tp = 1; tp <= p->widest; tp *= 2)
        for (p->s.attention_dp = 0;
             p->s.attention_dp <= (tp > 1 && model_llm_attention_dp_possible(m));
             p->s.attention_dp++) {
            double sequences = layout_sequences(m, r, sc, &p->s, p->count, tp, 0);
            if (!isnan(sequences))
                p->fits[p->n++] = (serve_layout){tp, p->s.attention_dp, sequences};
        }
    p->s.attention_dp = 0;
}

/* The tokens/s of p's layout of replicas of tp GPUs at `sequences` each (p->s.attention_dp
 * says which kind). */
static double layout_tokens(serve_plan *p, int tp, double sequences, double mfu,
                            double bandwidth, int *bandwidth_bound)
{
    model_serving v;
    serve_replica(p->m, p->r, p->sc, &p->s, tp, sequences, p->rate, mfu, bandwidth, &v);
    int replicas = p->count / tp;
    double busy = p->sc->batch > 0 ? fmin(replicas, p->sc->batch) : replicas;
    *bandwidth_bound = v.bandwidth_bound;
    return v.tokens_per_s * busy;
}

/* A serving row's tokens/s.  A stream is one request on all its GPUs (tensor parallel, up to 8):
 * its own output tokens a second, 1 / a decode step at the requests in flight.  An offline or
 * server row is laid out as its submitter would for throughput: of the widths 1, 2, 4 and 8
 * GPUs a replica, tensor parallel or (a mixture of experts) attention data-parallel, whose memory
 * holds the replica, the one giving the most tokens/s; where none fits, the widest
 * tensor-parallel one. */
static double serve_plan_tokens(serve_plan *p, double mfu, double bandwidth,
                                int *bandwidth_bound)
{
    model_serving v;
    if (is_stream(p->r)) {
        serve_replica(p->m, p->r, p->sc, &p->s, p->widest, p->sc->batch, p->rate, mfu,
                      bandwidth, &v);
        *bandwidth_bound = v.bandwidth_bound;
        return 1 / v.step_s;
    }
    double best = NAN;
    for (size_t i = 0; i < p->n; i++) {
        int bound = 0;
        p->s.attention_dp = p->fits[i].attention_dp;
        double tokens = layout_tokens(p, p->fits[i].tp, p->fits[i].sequences, mfu, bandwidth,
                                      &bound);
        if (tokens > 0 && !(tokens <= best)) {
            best = tokens;
            *bandwidth_bound = bound;
        }
    }
    p->s.attention_dp = 0;
    if (!isnan(best))
        return best;
    if (isnan(p->fallback))
        p->fallback = layout_sequences(p->m, p->r, p->sc, &p->s, p->count, p->widest, 1);
    return layout_tokens(p, p->widest, p->fallback, mfu, bandwidth, bandwidth_bound);
}

/* The network between the machines of a published multi-machine training run, a GPU's share
 * of it (Gb/s): the DGX H100's eight 400 Gb/s ConnectX-7 ports for its 8 GPUs
 * (nvidia-dgx-h100-datasheet, the KB's dgx-h100), the rail-optimised InfiniBand of the
 * clusters NVIDIA's, Meta's and MLPerf's runs name; a GPU of a KB system that states its
 * network takes that system's. */
#define ROW_NETWORK_GBPS_PER_GPU 400.0

/* The machines r's GPUs are in: per_host GPUs each (its KB system's, the largest: a GB200
 * NVL72 rack's 72 in one NVLink domain; else a server's 8) and their ports together (GB/s). */
static void row_machines(const decision *d, const llm_row *r, int *per_host, double *network_gbs)
{
    double per_gpu = ROW_NETWORK_GBPS_PER_GPU;
    *per_host = DECIDE_SERVER_PER_HOST;
    for (size_t i = 0; r->gpu && i < d->n_systems; i++) {
        const kb_system *sys = &d->systems[i];
        if (!decide_str_eq(sys->gpu, r->gpu->id) || !(sys->gpu_count >= *per_host))
            continue;
        *per_host = (int)sys->gpu_count;
        if (sys->network_gbps > 0)
            per_gpu = sys->network_gbps / sys->gpu_count;
    }
    *network_gbs = per_gpu * *per_host / 8;
}

/* r's stated layout (decide_llm_row_train_layout) with its data parallel: count / (tp x cp x
 * pp) replicas, each global batch / replicas sequences a step, every GPU all-reducing its
 * tp x pp shard of what is trained (model_llm_exchange_bytes at its sharding: x 1.5 under
 * zero3; a mixture's experts split over its expert_parallel GPUs), over the board's link in a
 * machine and row_machines' network across them. */
static void row_train_layout(const decision *d, const llm_row *r, const llm_scenario *sc,
                             const model_llm_setup *s, decide_llm_train_layout *l)
{
    const model_llm *m = decide_llm_row_model(d, r);
    const kb_benchmark *b = r->b;
    decide_llm_row_train_layout(b, r->gpu, m, l);
    int gpus = l->tp * l->cp * l->pp, count = (int)b->gpu_count;
    l->replicas = count / gpus;
    /* A row that states no global batch (no layout: schema 12's rows) says nothing of what its
     * replicas exchange against: its GPUs' rate is taken whole, as before layouts were read. */
    if (l->replicas < 2 || !(b->global_batch > 0)) {
        l->replicas = 1;
        return;
    }
    model_llm_setup trained = *s;
    trained.zero = decide_str_eq(b->sharding, "zero3")   ? 3
                   : decide_str_eq(b->sharding, "zero2") ? 2
                   : decide_str_eq(b->sharding, "zero1") ? 1 : 0;
    double bytes = model_llm_exchange_bytes(m, &trained);
    double experts = model_llm_expert_params(m);
    if (s->method == MODEL_TUNE_FULL && b->expert_parallel > 1 && experts > 0 && m->params > 0)
        bytes *= 1 - experts / m->params * (1 - 1 / b->expert_parallel);
    l->exchange_bytes = bytes / (l->tp * l->pp);
    l->step_tokens = b->global_batch * sc->input / l->replicas;
    int nvlink = decide_gpu_board_link(r->gpu);
    l->link_gbs = model_link_gbs(nvlink, r->gpu->nvlink_gbs, r->gpu->pcie_gen,
                                 r->gpu->pcie_lanes, decide_gpu_p2p(r->gpu));
    row_machines(d, r, &l->per_host, &l->network_gbs);
    l->hosts = (count + l->per_host - 1) / l->per_host;
}

/* A training row's GPUs' tokens/s at full utilisation before any charge (count x rate / FLOPs
 * a token, its stated recomputation included: row_train_flops) and its layout l; NaN where the
 * KB lacks the GPU's rate. */
static double train_peak(const decision *d, const llm_row *r, const llm_scenario *sc,
                         decide_llm_train_layout *l)
{
    const model_llm *m = decide_llm_row_model(d, r);
    double rate = r->gpu ? decide_llm_rate(d, r->gpu, sc->precision, 1) : NAN;
    if (!(rate > 0))
        return NAN;
    model_llm_setup s = setup_of(r, sc);
    row_train_layout(d, r, sc, &s, l);
    return r->b->gpu_count * rate * 1e12 / row_train_flops(m, r, &s);
}

double decide_llm_row_train_efficiency(const decision *d, const llm_row *r,
                                       const llm_scenario *sc, double mfu)
{
    decide_llm_train_layout l;
    double peak = train_peak(d, r, sc, &l), eff = NAN;
    if (peak > 0)
        decide_llm_train_tokens(&l, (int)r->b->gpu_count, mfu * peak / r->b->gpu_count, &eff);
    return eff;
}

/* p for the serving row r at sc; 0 where the KB lacks its GPU's rate or bandwidth. */
static int serve_plan_of(const decision *d, const llm_row *r, const llm_scenario *sc,
                         serve_plan *p)
{
    double rate = r->gpu ? decide_llm_rate(d, r->gpu, sc->precision, 0) : NAN;
    if (!(rate > 0) || !(r->gpu->memory_bandwidth_gbs > 0))
        return 0;
    serve_plan_make(p, decide_llm_row_model(d, r), r, sc, rate);
    return 1;
}

/* The tokens/s the model gives r at the shares mfu and bandwidth: training, as a workload's
 * speed is (decide_llm_train_tokens): the GPUs' rate x utilisation / FLOPs a token, its stated
 * recomputation included (row_train_flops), x what its stated layout leaves of it
 * (decide_llm_row_train_layout: its tensor- and context-parallel group's link, its pipeline's
 * bubble) x its data-parallel efficiency (row_train_layout); serving, serve_plan_tokens.
 * *bandwidth_bound: serving's decode step is bound by memory bandwidth.  NaN where the KB
 * lacks the GPU's rate or bandwidth. */
static double predict(const decision *d, const llm_row *r, const llm_scenario *sc, double mfu,
                      double bandwidth, int *bandwidth_bound)
{
    *bandwidth_bound = 0;
    if (r->kind != DECIDE_LLM_SERVE) {
        decide_llm_train_layout l;
        double peak = train_peak(d, r, sc, &l);
        return decide_llm_train_tokens(&l, (int)r->b->gpu_count, mfu * peak / r->b->gpu_count,
                                       NULL);
    }
    serve_plan p;
    return serve_plan_of(d, r, sc, &p) ? serve_plan_tokens(&p, mfu, bandwidth, bandwidth_bound)
                                       : NAN;
}

/* The share r implies at sc, by halving the range: the one at which the model (predict) gives
 * r's tokens/s.  Training: the GPUs' own utilisation, its layout's and data parallel's charges
 * divided out (no closed form: the exchange takes a larger share of a faster step); serving:
 * the share that binds at the KB's assumed figures (bandwidth where a decode step is bound by
 * it, else utilisation), the other held at its assumed figure. */
llm_implied decide_llm_row_implied(const decision *d, const llm_row *r, const llm_scenario *sc)
{
    double mfu0 = d->facts[KB_ASSUMED_LLM_MFU].value;
    double bw0 = d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value;
    llm_implied im = {SHARE_UTILISATION, NAN, 0, *sc};
    int bound;
    double at_assumed = predict(d, r, sc, mfu0, bw0, &bound);
    if (isnan(at_assumed) || !(r->b->value > 0) || !(r->b->gpu_count >= 1))
        return im;
    if (r->kind == DECIDE_LLM_SERVE)
        im.share = bound ? SHARE_BANDWIDTH : SHARE_UTILISATION;
    /* solved: a training row's data-parallel exchange takes a larger share of a faster step;
     * its layout and peak, the same at every share, made once (predict's training path) */
    decide_llm_train_layout l;
    serve_plan p;   /* a serving row's, the same way */
    int train = r->kind != DECIDE_LLM_SERVE;
    double peak = train ? train_peak(d, r, sc, &l) : NAN, gpus = r->b->gpu_count;
    if (!train)
        serve_plan_of(d, r, sc, &p);   /* made: at_assumed is a number */
    double lo = SHARE_SEARCH_LOW, hi = SHARE_SEARCH_HIGH;
    for (int i = 0; i < 60; i++) {
        double mid = sqrt(lo * hi);   /* halving on a log scale: a share spans decades */
        double got = train ? decide_llm_train_tokens(&l, (int)gpus, mid * peak / gpus, NULL)
                     : im.share == SHARE_BANDWIDTH ? serve_plan_tokens(&p, mfu0, mid, &bound)
                                                   : serve_plan_tokens(&p, mid, bw0, &bound);
        if (got < r->b->value)
            lo = mid;
        else
            hi = mid;
    }
    im.value = hi >= SHARE_SEARCH_HIGH * 0.999 ? INFINITY : hi;
    if (r->kind != DECIDE_LLM_SERVE && isfinite(im.value))   /* exact where it is in proportion */
        im.value *= r->b->value / predict(d, r, sc, im.value, bw0, &bound);
    /* A training row's utilisation is its GPUs' before its layout's and its data parallel's
     * charges; what bounds it is what the GPUs delivered, the figure published utilisations
     * are: tokens/s x FLOPs a token / (GPUs x rate). */
    double delivered = train ? r->b->value / peak : im.value;
    im.over = isinf(im.value) ||
              delivered > (im.share == SHARE_BANDWIDTH ? DECIDE_LLM_BANDWIDTH_MAX
                                                       : DECIDE_LLM_UTILISATION_MAX);
    return im;
}

/* ---- choosing the rows that calibrate ---- */

/* Whether rows[i] may calibrate a model of kind: of that kind, its share known and bounded, not
 * skip. */
static int usable(const llm_row *rows, const llm_implied *im, size_t i, int kind, size_t skip)
{
    return i != skip && rows[i].kind == kind && !isnan(im[i].value) && !im[i].over;
}



int decide_llm_row_moe(const llm_row *r)
{
    return r->has_model && r->model.experts > 1;
}

int decide_llm_row_shards(const llm_row *r)
{
    return decide_str_eq(r->b->sharding, "zero3");
}

int decide_llm_row_splits_sequence(const llm_row *r)
{
    return r->b->context_parallel > 1;
}

/* Whether rows[i] passes the narrowing `step` of p. */
static int passes(const llm_row *r, const row_pref *p, int step)
{
    if (step == NARROW_VENDOR)
        return r->gpu && decide_str_eq(r->gpu->vendor, p->vendor);
    if (step == NARROW_FORMAT)
        return decide_str_eq(r->b->precision, p->format);
    if (step == NARROW_MOE)
        return decide_llm_row_moe(r) == p->moe;
    if (step == NARROW_LAYOUT)
        return decide_llm_row_splits_sequence(r) == p->splits_sequence;
    if (step == NARROW_STACK)
        return decide_llm_row_shards(r) == p->shards;
    if (step == NARROW_ARCH)
        return r->gpu && decide_str_eq(r->gpu->architecture, p->architecture);
    return decide_str_eq(r->model_id, p->model_id);
}

/* Whether p asks for the narrowing `step`. */
static int wanted(const row_pref *p, int step)
{
    switch (step) {
    case NARROW_VENDOR: return p->vendor != NULL;
    case NARROW_ARCH: return p->architecture != NULL;
    case NARROW_STACK: return p->shards >= 0;
    case NARROW_MOE: return p->moe >= 0;
    case NARROW_FORMAT: return p->format != NULL;
    case NARROW_MODEL: return p->model_id != NULL;
    default: return p->splits_sequence >= 0;
    }
}

/* The narrowings in the order they are taken (row_pref). */
static const int narrow_steps[] = {NARROW_VENDOR, NARROW_STACK, NARROW_MOE, NARROW_FORMAT,
                                   NARROW_MODEL, NARROW_LAYOUT, NARROW_ARCH};
#define N_NARROW_STEPS ((int)(sizeof narrow_steps / sizeof narrow_steps[0]))

/* Marks in keep the rows of rows[0..n) that calibrate a model of kind: every usable one, narrowed
 * by p (row_pref).  Returns how many; *narrowed: the NARROW_ steps applied. */
size_t decide_llm_rows_select(const llm_row *rows, const llm_implied *im, size_t n, int kind,
                              const row_pref *p, size_t skip, unsigned char *keep, int *narrowed)
{
    size_t kept = 0;
    *narrowed = 0;
    for (size_t i = 0; i < n; i++)
        kept += keep[i] = (unsigned char)usable(rows, im, i, kind, skip);
    for (int k = 0; k < N_NARROW_STEPS; k++) {
        int step = narrow_steps[k];
        size_t narrow = 0;
        if (!wanted(p, step))
            continue;
        for (size_t i = 0; i < n; i++)
            narrow += keep[i] && passes(&rows[i], p, step);
        /* too few rows left; or a vendor, format or layout that takes no row away (every row
         * is of it): said only where it narrows, so one calibration serves every vendor where
         * the rows are all one vendor's */
        if (narrow < DECIDE_LLM_SAME_MODEL_ROWS ||
            (step != NARROW_MOE && step != NARROW_MODEL && narrow == kept))
            continue;
        for (size_t i = 0; i < n; i++)
            keep[i] = keep[i] && passes(&rows[i], p, step);
        kept = narrow;
        *narrowed |= step;
    }
    return kept;
}

/* The median of the kept rows' figures of one share; NaN for none. */
static double share_median(const llm_implied *im, const unsigned char *keep, size_t n, int share,
                           int *rows)
{
    double *v = gw_xmalloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i] && im[i].share == share)
            v[m++] = im[i].value;
    double median = decide_median(v, m);
    free(v);
    if (rows)
        *rows = (int)m;
    return median;
}

/* The shares kept rows give, each the assumed figure where none of them implies it. */
void decide_llm_rows_shares(const decision *d, const llm_implied *im, const unsigned char *keep,
                            size_t n, double *mfu, double *bandwidth, int *mfu_rows, int *bw_rows)
{
    *mfu = share_median(im, keep, n, SHARE_UTILISATION, mfu_rows);
    *bandwidth = share_median(im, keep, n, SHARE_BANDWIDTH, bw_rows);
    if (isnan(*mfu))
        *mfu = d->facts[KB_ASSUMED_LLM_MFU].value;
    if (isnan(*bandwidth))
        *bandwidth = d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value;
}

/* A share none of the narrowed rows implies (rows of a stream are bandwidth-bound, offline ones
 * often compute-bound): read from the rows of the narrowest wider set that implies it, each
 * narrowing applied undone in turn from the last (the layout's, then the model's, the format's,
 * the architecture's, the vendor's); `fallback` where none does. */
double decide_llm_widened_share(const decision *d, const llm_row *rows, const llm_implied *im,
                                size_t n, int kind, row_pref p, size_t skip, int narrowed,
                                int share, double fallback, int *rows_used)
{
    unsigned char *keep = gw_xmalloc(n ? n : 1);
    double found = NAN;
    int used = 0;
    for (int k = N_NARROW_STEPS - 1; k >= 0 && isnan(found); k--) {
        int step = narrow_steps[k];
        if (!(narrowed & step))
            continue;
        if (step == NARROW_LAYOUT)
            p.splits_sequence = -1;
        else if (step == NARROW_STACK)
            p.shards = -1;
        else if (step == NARROW_MODEL)
            p.model_id = NULL;
        else if (step == NARROW_FORMAT)
            p.format = NULL;
        else if (step == NARROW_MOE)
            p.moe = -1;
        else if (step == NARROW_ARCH)
            p.architecture = NULL;
        else
            p.vendor = NULL;
        int wider;
        if (decide_llm_rows_select(rows, im, n, kind, &p, skip, keep, &wider))
            found = share_median(im, keep, n, share, &used);
    }
    free(keep);
    (void)d;
    if (rows_used)
        *rows_used = isnan(found) ? 0 : used;
    return isnan(found) ? fallback : found;
}

/* rows[i] predicted at the shares of the rows that calibrate its kind without it (prefer: narrowed
 * to its vendor's, architecture's, format's, model's and layout's as row_pref says): its
 * tokens/s; NaN where it cannot be predicted. */
static double loo_predict(const decision *d, const llm_row *rows, const llm_implied *im,
                          size_t n, size_t i, int prefer, int *narrowed)
{
    unsigned char *keep = gw_xmalloc(n ? n : 1);
    int mfu_rows, bw_rows, bound;
    double mfu, bandwidth;
    const llm_row *r = &rows[i];
    row_pref p = {NULL, -1, NULL, NULL, -1, -1, NULL};
    if (prefer)
        p = (row_pref){r->gpu ? r->gpu->vendor : NULL, r->has_model ? decide_llm_row_moe(r) : -1,
                       r->b->precision, r->model_id, decide_llm_row_splits_sequence(r),
                       decide_llm_row_shards(r),
                       r->gpu && r->kind != DECIDE_LLM_SERVE ? r->gpu->architecture : NULL};
    if (!decide_llm_rows_select(rows, im, n, r->kind, &p, i, keep, narrowed))
        *narrowed = NO_ROWS;   /* the KB's assumed figures (decide_llm_rows_shares) */
    decide_llm_rows_shares(d, im, keep, n, &mfu, &bandwidth, &mfu_rows, &bw_rows);
    if (!mfu_rows) {
        mfu = decide_llm_widened_share(d, rows, im, n, r->kind, p, i, *narrowed,
                                       SHARE_UTILISATION, mfu, &mfu_rows);
        *narrowed |= mfu_rows ? WIDENED_UTILISATION : 0;
    }
    if (!bw_rows) {
        bandwidth = decide_llm_widened_share(d, rows, im, n, r->kind, p, i, *narrowed,
                                             SHARE_BANDWIDTH, bandwidth, &bw_rows);
        *narrowed |= bw_rows ? WIDENED_BANDWIDTH : 0;
    }
    free(keep);
    return predict(d, r, &im[i].scenario, mfu, bandwidth, &bound);
}

/* |loo_predict / measured - 1|. */
double decide_llm_loo_error(const decision *d, const llm_row *rows, const llm_implied *im,
                            size_t n, size_t i)
{
    int narrowed;
    return fabs(loo_predict(d, rows, im, n, i, 0, &narrowed) / rows[i].b->value - 1);
}

/* ---- the workload's calibration ---- */

/* "8x h100-sxm5, llama-2-70b inference_offline, source-id" for r, appended to b. */
void decide_llm_row_words(gw_buf *b, const llm_row *r)
{
    buf_printf(b, "%gx %s, %s %s, %s", r->b->gpu_count, r->b->gpu, r->b->workload, r->b->metric,
               r->b->source);
}

/* ---- the model's accuracy on the KB's rows ---- */

/* Adds e to errs (grown as needed). */
static void push(double **errs, size_t *n, double e)
{
    *errs = gw_xrealloc(*errs, (*n + 1) * sizeof **errs);
    (*errs)[(*n)++] = e;
}

static double max_of(const double *v, size_t n)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        m = isnan(m) || v[i] > m ? v[i] : m;
    return m;
}

/* The shares of every row of the KB that states its scenario, at the KB's assumed figures
 * (caller frees); why[i] says why a language-model row cannot be predicted (NULL: it can, or it
 * is no language model's), *left_out counts them. */
static llm_implied *implied_all(const decision *d, const struct decide_llm_rows *st,
                                const char **why, int *left_out)
{
    llm_implied *im = gw_xcalloc(st->n_kb ? st->n_kb : 1, sizeof *im);
    /* the calibration read the KB's rows of the workload's kind the same way: taken from it */
    int kind = decide_llm_workload_kind(d), known = st->prepared && st->cal_rows == st->rows;
    *left_out = 0;
    for (size_t i = 0; i < st->n_kb; i++) {
        const llm_row *r = &st->rows[i];
        llm_scenario sc;
        im[i].value = NAN;
        why[i] = NULL;
        if (r->kind < 0)
            continue;
        if (!r->has_model)
            why[i] = "its workload is no model of the catalog";
        else if (decide_llm_row_speculative(r))
            why[i] = "measured with speculative decoding: several tokens a step, the model "
                     "counts one";
        else if (!decide_llm_row_scenario(r, NULL, &sc))
            why[i] = "its precision or tokens are not stated";
        else if (isnan((im[i] = known && r->kind == kind ? st->cal_implied[i]
                                                         : decide_llm_row_implied(d, r, &sc))
                           .value))
            why[i] = "the KB has no rate or bandwidth of its GPU at its precision";
        *left_out += why[i] != NULL;
    }
    return im;
}

void decide_llm_accuracy_compute(decision *d, decide_llm_accuracy *out)
{
    memset(out, 0, sizeof *out);
    out->median = out->max = NAN;
    for (int k = 0; k < DECIDE_LLM_KINDS; k++)
        out->median_by_kind[k] = out->max_by_kind[k] = NAN;
    const struct decide_llm_rows *st = d->llm_rows;
    if (!st)
        return;
    out->n = st->n_kb;
    out->predicted = gw_xmalloc((st->n_kb ? st->n_kb : 1) * sizeof *out->predicted);
    out->why = gw_xmalloc((st->n_kb ? st->n_kb : 1) * sizeof *out->why);
    out->implied = gw_xmalloc((st->n_kb ? st->n_kb : 1) * sizeof *out->implied);
    out->bandwidth_share = gw_xmalloc(st->n_kb ? st->n_kb : 1);
    out->narrowed = gw_xcalloc(st->n_kb ? st->n_kb : 1, sizeof *out->narrowed);
    llm_implied *im = implied_all(d, st, out->why, &out->without_scenario);
    for (size_t i = 0; i < st->n_kb; i++) {
        out->implied[i] = im[i].value;
        out->bandwidth_share[i] = im[i].share == SHARE_BANDWIDTH;
    }
    double *all = NULL, *by_kind[DECIDE_LLM_KINDS] = {NULL};
    size_t n_all = 0, n_kind[DECIDE_LLM_KINDS] = {0}, worst = st->n_kb;
    for (size_t i = 0; i < st->n_kb; i++) {
        out->predicted[i] = NAN;
        if (isnan(im[i].value))
            continue;
        int narrowed;
        out->predicted[i] = loo_predict(d, st->rows, im, st->n_kb, i, 1, &narrowed);
        out->narrowed[i] = (unsigned short)narrowed;
        double e = fabs(out->predicted[i] / st->rows[i].b->value - 1);
        if (isnan(e))
            continue;
        if (worst == st->n_kb || e > out->max)
            worst = i, out->max = e;
        push(&all, &n_all, e);
        push(&by_kind[st->rows[i].kind], &n_kind[st->rows[i].kind], e);
    }
    out->rows = (int)n_all;
    out->median = decide_median(all, n_all);
    for (int k = 0; k < DECIDE_LLM_KINDS; k++) {
        out->rows_by_kind[k] = (int)n_kind[k];
        out->max_by_kind[k] = max_of(by_kind[k], n_kind[k]);
        out->median_by_kind[k] = decide_median(by_kind[k], n_kind[k]);
        free(by_kind[k]);
    }
    if (worst < st->n_kb) {
        gw_buf b = GW_BUF_INIT;
        decide_llm_row_words(&b, &st->rows[worst]);
        out->worst = buf_detach(&b);
    }
    free(all);
    free(im);
}

const struct decide_llm_accuracy *decide_llm_rows_accuracy(decision *d)
{
    struct decide_llm_rows *st = d->llm_rows;
    if (!st)
        return NULL;
    if (!st->accuracy) {
        st->accuracy = gw_xmalloc(sizeof *st->accuracy);
        decide_llm_accuracy_compute(d, st->accuracy);
    }
    return st->accuracy;
}

void decide_llm_accuracy_free(decide_llm_accuracy *a)
{
    free(a->worst);
    free(a->predicted);
    free(a->why);
    free(a->implied);
    free(a->bandwidth_share);
    free(a->narrowed);
    a->narrowed = NULL;
    a->implied = NULL;
    a->bandwidth_share = NULL;
    a->worst = NULL;
    a->predicted = NULL;
    a->why = NULL;
}

