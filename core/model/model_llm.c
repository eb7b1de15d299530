/* model_llm.c — the performance model of a language model: memory per GPU term by term, the
 * FLOPs a trained token costs, the bytes data-parallel replicas exchange, and a serving
 * replica's speed and latency from its GPUs' bandwidth and tensor rate.  Pure arithmetic over the
 * values model.h describes; the constants are model.h's, each with its source. */
#include "model.h"

#include <math.h>
#include <string.h>

#include "precision.h"

double model_llm_weight_bytes(const char *precision)
{
    const gw_precision *p = gw_precision_find(precision);
    return p ? p->weight_bytes : NAN;
}

/* Bytes of a stored weight of a mixture of experts' other parts (attention, dense and shared
 * layers) at precision: its moe_rest's where the format quantizes the routed experts only, else
 * the format's own. */
static double rest_weight_bytes(const model_llm *m, const char *precision)
{
    const gw_precision *p = gw_precision_find(precision);
    if (!p)
        return NAN;
    /* moe_rest looked up only for a mixture of experts: a dense model's every memory and
     * serving figure asked for it, and the look-up of one format after another missed
     * gw_precision_find's last-found row each time */
    const gw_precision *rest = p->moe_rest && model_llm_attention_dp_possible(m)
                                   ? gw_precision_find(p->moe_rest)
                                   : NULL;
    return rest ? rest->weight_bytes : p->weight_bytes;
}

double model_llm_kv_bytes_per_token(const model_llm *m, const char *precision)
{
    const gw_precision *p = gw_precision_find(precision);
    double bytes = p ? p->kv_bytes : 2;   /* an unknown format: a 16-bit cache */
    return 2 * m->layers * m->kv_heads * m->head_dim * bytes;
}

/* Parameters of one layer's attention projections: q and o (hidden x heads x head_dim each),
 * k and v (hidden x kv_heads x head_dim each). */
static double attention_params(const model_llm *m)
{
    return 2 * m->hidden * m->heads * m->head_dim + 2 * m->hidden * m->kv_heads * m->head_dim;
}

/* The feed-forward width: the configuration's, else what the parameters leave after attention,
 * norms and untied embeddings over three matrices of every expert (model.h); 0 when nothing is
 * left. */
static double ffn_width(const model_llm *m)
{
    double experts = m->experts > 1 ? m->experts : 1;
    double ffn = m->ffn;
    if (!(ffn > 0)) {
        double per_layer = m->params / m->layers - attention_params(m) - 2 * m->hidden -
                           2 * m->vocab * m->hidden / m->layers;
        ffn = per_layer / (3 * m->hidden * experts);
    }
    return ffn > 0 ? ffn : 0;
}

double model_llm_lora_params(const model_llm *m, double rank)
{
    double experts = m->experts > 1 ? m->experts : 1;
    double ffn = ffn_width(m);
    double q = m->hidden + m->heads * m->head_dim, kv = m->hidden + m->kv_heads * m->head_dim;
    double per_layer_adapters = rank * (2 * q + 2 * kv + 3 * (m->hidden + ffn) * experts);
    return per_layer_adapters * m->layers;
}

/* The parameters of a configuration with `matrices` feed-forward matrices and `tables` vocab x
 * hidden tables (model.h's model_llm_shape_of). */
static double params_of(const model_llm *m, double ffn, double matrices, double tables)
{
    double experts = m->experts > 1 ? m->experts : 1;
    double router = experts > 1 ? m->hidden * experts : 0;
    double layer = attention_params(m) + 2 * m->hidden + matrices * m->hidden * ffn * experts +
                   router;
    return m->layers * layer + tables * m->vocab * m->hidden + m->hidden;
}

void model_llm_shape_of(const model_llm *m, model_llm_shape *out)
{
    *out = (model_llm_shape){.ffn = ffn_width(m), .matrices = 3, .tables = 2,
                             .routed_experts = 1};
    double best = MODEL_ARCH_MATCH;
    for (double matrices = 2; matrices <= 3 && m->ffn > 0; matrices++)
        for (double tables = 1; tables <= 2; tables++) {
            double off = fabs(params_of(m, m->ffn, matrices, tables) / m->params - 1);
            if (off <= best) {
                best = off;
                out->matrices = matrices;
                out->tables = tables;
                out->matched = 1;
            }
        }
    double experts = m->experts > 1 ? m->experts : 1;
    double one_expert = m->layers * out->matrices * m->hidden * out->ffn;
    if (experts > 1 && one_expert > 0 && m->active_params > 0) {
        double idle = round((m->params - m->active_params) / one_expert);
        out->routed_experts = fmin(experts, fmax(1, experts - idle));
    }
}

double model_llm_activation_bytes_per_token(const model_llm *m)
{
    model_llm_shape shape;
    model_llm_shape_of(m, &shape);
    if (!(shape.ffn > 0))   /* Korthikanti et al.'s figure, which assumes ffn = 4 hidden */
        return 34 * m->hidden;
    return MODEL_ACTIVATION_HIDDEN_BYTES * m->hidden + MODEL_ACTIVATION_FFN_TENSOR_BYTES *
                                                           shape.matrices * shape.ffn *
                                                           shape.routed_experts;
}

double model_llm_logit_bytes(const model_llm *m, double tokens, int fused)
{
    if (!fused)
        return tokens * m->vocab * MODEL_LOGIT_BYTES;
    double chunks = ceil(m->vocab / m->hidden);
    double chunk = pow(2, ceil(log2(ceil(tokens / chunks))));
    return fmin(chunk, tokens) * m->vocab * MODEL_FUSED_LOGIT_BYTES;
}

double model_llm_weights_at(const model_llm *m, double bytes)
{
    if (bytes >= MODEL_EMBEDDING_BYTES)
        return m->params * bytes;
    model_llm_shape shape;
    model_llm_shape_of(m, &shape);
    double tables = fmin(shape.tables * m->vocab * m->hidden, m->params);
    return (m->params - tables) * bytes + tables * MODEL_EMBEDDING_BYTES;
}

/* The precision weights are kept in while training (precision.h's trains_as: fp8 training keeps
 * bf16 weights), the rest as given. */
static const char *training_precision(const char *precision)
{
    const gw_precision *p = gw_precision_find(precision);
    return p && p->trains_as ? p->trains_as : precision;
}

/* Activations of one training micro-batch on one replica (model.h's model_llm_memory). */
static double training_activations(const model_llm *m, const model_llm_setup *s)
{
    double tokens = s->sequence_length * s->batch;
    double layer = model_llm_activation_bytes_per_token(m);   /* selective keeps the same */
    double kept = s->checkpointing
                      ? m->layers * tokens * m->hidden * MODEL_CHECKPOINT_BYTES + tokens * layer
                      : m->layers * tokens * layer;
    return kept + model_llm_logit_bytes(m, tokens, s->fused_loss);
}

/* Weights, gradients and optimizer states of a training setup before ZeRO, in bytes. */
static int training_state(const model_llm *m, const model_llm_setup *s, double *weights,
                          double *gradients, double *optimizer, double *bytes_per_param,
                          gw_error *err)
{
    double w, g, o;
    int full = s->method == MODEL_TUNE_FULL;
    const char *trained_precision = full ? training_precision(s->precision) : "fp32";
    int rc = model_param_bytes(trained_precision, s->optimizer, &w, &g, &o, err);
    if (rc != GW_OK)
        return rc;
    double trained = full ? m->params : model_llm_lora_params(m, s->lora_rank);
    if (full) {
        *weights = m->params * w;
    } else {
        const char *frozen = s->method == MODEL_TUNE_QLORA ? "nf4"
                                                           : training_precision(s->precision);
        double fb = model_llm_weight_bytes(frozen);
        if (isnan(fb))
            return gw_error_set(err, GW_EDATA, "precision: no weight size for \"%s\"",
                                frozen ? frozen : "");
        *weights = model_llm_weights_at(m, fb) + trained * w;
    }
    *gradients = trained * g;
    *optimizer = s->method == MODEL_TUNE_QLORA ? 0 : trained * o;
    *bytes_per_param = w + g + o;
    return GW_OK;
}

double model_llm_kv_share(const model_llm *m, int tp)
{
    if (tp <= 1 || !(m->kv_heads >= 1))
        return 1;
    return ceil(m->kv_heads / tp) / m->kv_heads;
}

double model_llm_expert_params(const model_llm *m)
{
    if (!model_llm_attention_dp_possible(m))
        return 0;
    double active = m->active_params > 0 ? m->active_params : m->params;
    return fmin(fmax(m->params - active, 0) / (1 - m->experts_active / m->experts), m->params);
}

int model_llm_attention_dp_possible(const model_llm *m)
{
    return m->experts > 1 && m->experts_active >= 1 && m->experts_active < m->experts;
}

/* Serving's weights and KV cache on one GPU of a replica of tp x pp (model.h's
 * model_llm_memory), in bytes. */
static int serving_state(const model_llm *m, const model_llm_setup *s, int tp, int pp,
                         double *weights, double *kv, gw_error *err)
{
    double wb = model_llm_weight_bytes(s->precision);
    if (isnan(wb))
        return gw_error_set(err, GW_EDATA, "precision: no weight size for \"%s\"",
                            s->precision ? s->precision : "");
    /* the routed experts at the format's size, the rest (its tables 16-bit) at moe_rest's */
    double experts = model_llm_expert_params(m), rb = rest_weight_bytes(m, s->precision);
    double whole = model_llm_weights_at(m, rb) + experts * (wb - rb);
    double cache = model_llm_kv_bytes_per_token(m, s->precision) * s->kv_tokens * s->sequences;
    if (s->attention_dp && tp > 1 && model_llm_attention_dp_possible(m)) {
        *weights = whole - experts * wb + experts * wb / tp;
        *kv = cache / tp;   /* its own sequences' */
        return GW_OK;
    }
    *weights = whole / (tp * pp);
    *kv = cache * model_llm_kv_share(m, tp) / pp;
    return GW_OK;
}

int model_llm_memory(const model_llm *m, const model_llm_setup *s, int dp, int tp, int pp,
                     model_memory *out, gw_error *err)
{
    memset(out, 0, sizeof *out);
    if (dp < 1)
        dp = 1;
    if (tp < 1)
        tp = 1;
    if (pp < 1)
        pp = 1;
    double weights = 0, gradients = 0, optimizer = 0, activations = 0, kv = 0;
    int gpus = tp * pp;
    if (s->task == MODEL_INFERENCE) {
        int rc = serving_state(m, s, tp, pp, &weights, &kv, err);
        if (rc != GW_OK)
            return rc;
        gpus = 1;   /* both already a GPU's */
    } else {
        int rc = training_state(m, s, &weights, &gradients, &optimizer, &out->bytes_per_param,
                                err);
        if (rc != GW_OK)
            return rc;
        if (s->zero >= 1)
            optimizer /= dp;
        if (s->zero >= 2)
            gradients /= dp;
        if (s->zero >= 3)
            weights /= dp;
        activations = training_activations(m, s);
    }
    out->weights_gb = weights / gpus / 1e9;
    out->gradients_gb = gradients / gpus / 1e9;
    out->optimizer_gb = optimizer / gpus / 1e9;
    out->activations_gb = activations / gpus / 1e9;
    out->kv_cache_gb = kv / 1e9;
    double state = out->weights_gb + out->gradients_gb + out->optimizer_gb +
                   out->activations_gb + out->kv_cache_gb;
    out->overhead_gb = state * MODEL_FRAGMENTATION + MODEL_CONTEXT_GB;
    out->total_gb = state + out->overhead_gb;
    return GW_OK;
}

/* Attention's FLOPs a token attending to `tokens` positions, over `width` values a head. */
static double attention_flops_over(const model_llm *m, double tokens, double width)
{
    return tokens > 0 ? 4 * m->layers * tokens * m->heads * width : 0;
}

double model_llm_attention_flops(const model_llm *m, double tokens)
{
    return attention_flops_over(
        m, tokens, m->attention_head_dim > 0 ? m->attention_head_dim : m->head_dim);
}

double model_llm_decode_attention_flops(const model_llm *m, double tokens)
{
    return attention_flops_over(
        m, tokens, m->decode_attention_head_dim > 0 ? m->decode_attention_head_dim : m->head_dim);
}

double model_llm_prefill_flops(const model_llm *m, double context)
{
    double active = m->active_params > 0 ? m->active_params : m->params;
    return 2 * active * context + context * model_llm_attention_flops(m, context);
}

double model_llm_train_flops_per_token(const model_llm *m, const model_llm_setup *s)
{
    double n = m->active_params > 0 ? m->active_params : m->params;
    double passes = s->method == MODEL_TUNE_FULL ? 6 : 4;
    if (s->checkpointing)
        passes += 2;
    double attention_passes = s->checkpointing ? 4 : 3;
    return passes * n + attention_passes * model_llm_attention_flops(m, s->sequence_length);
}

double model_llm_train_slowdown(const model_llm_setup *s)
{
    return s->method == MODEL_TUNE_QLORA ? MODEL_QLORA_DEQUANT_SLOWDOWN : 1;
}

double model_llm_parallel_efficiency(int group, int nvlink)
{
    if (group <= 1)
        return 1;
    return nvlink ? MODEL_PARALLEL_EFFICIENCY_NVLINK : MODEL_PARALLEL_EFFICIENCY_PCIE;
}

double model_llm_pipeline_bubble(int stages, int virtual_stages, double micro_batches)
{
    if (stages <= 1 || !(micro_batches >= 1))
        return 0;
    double v = virtual_stages >= 1 ? virtual_stages : 1;
    return (stages - 1) / (v * micro_batches + stages - 1);
}

/* The work of one transformer layer and of one output head a token (model.h's stage units). */
static void stage_units(const model_llm *m, double sequence_length, double *layer,
                        double *head)
{
    model_llm_shape shape;
    model_llm_shape_of(m, &shape);
    double active = m->active_params > 0 ? m->active_params : m->params;
    double tables = shape.tables * m->vocab * m->hidden;
    *head = 6 * m->vocab * m->hidden;
    *layer = (6 * fmax(active - tables, 0) +
              3 * model_llm_attention_flops(m, sequence_length)) / m->layers;
}

double model_llm_mtp_flops(const model_llm *m, double sequence_length)
{
    double layer, head;
    stage_units(m, sequence_length, &layer, &head);
    return layer + 6 * 2 * m->hidden * m->hidden + head;
}

double model_llm_stage_flops(const model_llm *m, const kb_layout_stage *s,
                             double sequence_length)
{
    double layer, head;
    stage_units(m, sequence_length, &layer, &head);
    return s->layers * layer + s->mtp * model_llm_mtp_flops(m, sequence_length) +
           s->loss * head;
}

double model_llm_stage_imbalance(const model_llm *m, const kb_layout_stage *stages, int n,
                                 double sequence_length)
{
    double heaviest = 0, total = 0;
    for (int i = 0; i < n; i++) {
        double flops = model_llm_stage_flops(m, &stages[i], sequence_length);
        heaviest = fmax(heaviest, flops);
        total += flops;
    }
    return total > 0 ? heaviest / (total / n) : NAN;
}

double model_llm_exchange_bytes(const model_llm *m, const model_llm_setup *s)
{
    double bytes;
    if (s->method == MODEL_TUNE_FULL)
        bytes = model_gradient_bytes(m->params, training_precision(s->precision));
    else
        bytes = model_llm_lora_params(m, s->lora_rank) * 4;
    return s->zero >= 3 ? bytes * 1.5 : bytes;
}

double model_llm_allreduce_s(const model_llm *m, const model_llm_layout *l, double layers,
                             double tokens)
{
    if (l->tp <= 1)
        return 0;
    double latency = l->nvlink ? MODEL_ALLREDUCE_LATENCY_NVLINK_S : MODEL_ALLREDUCE_LATENCY_PCIE_S;
    double bytes = 2.0 * (l->tp - 1) / l->tp * tokens * m->hidden * MODEL_ACTIVATION_EXCHANGE_BYTES;
    return 2 * layers * (latency + bytes / (l->link_gbs * 1e9));
}

double model_llm_hop_s(const model_llm *m, const model_llm_layout *l, double tokens)
{
    if (l->pp <= 1)
        return 0;
    return MODEL_PIPELINE_HOP_LATENCY_S +
           tokens * m->hidden * MODEL_ACTIVATION_EXCHANGE_BYTES / (l->network_gbs * 1e9);
}

double model_llm_layer_latency_s(const model_llm *m)
{
    return MODEL_LAYER_LATENCY_S + (m->experts > 1 ? MODEL_MOE_ROUTING_LATENCY_S : 0);
}

double model_llm_alltoall_s(const model_llm *m, const model_llm_layout *l, double layers,
                            double tokens)
{
    if (l->tp <= 1 || !model_llm_attention_dp_possible(m))
        return 0;
    double latency = l->nvlink ? MODEL_DISPATCH_LATENCY_NVLINK_S + MODEL_COMBINE_LATENCY_NVLINK_S
                               : 2 * MODEL_ALLREDUCE_LATENCY_PCIE_S;
    double bytes = (l->tp - 1.0) / l->tp * tokens * m->experts_active * m->hidden *
                   MODEL_ACTIVATION_EXCHANGE_BYTES;
    return layers * (latency + 2 * bytes / (l->link_gbs * 1e9));
}

/* Bytes one decode step of `batch` sequences reads, all of a replica's gpus together
 * (model.h's model_llm_serving): tensor parallel, the weights read once and each GPU's share of
 * the KV cache; attention data-parallel, the weights but the routed experts' on every GPU, the
 * experts the batch touches once, and each sequence's cache once. */
static double step_bytes(const model_serving_fixed *f, double batch)
{
    double kv = f->kv_bytes_per_sequence * batch;
    if (f->attention_dp) {
        double touched = f->experts * fmin(1, f->experts_routed_share * batch);
        return f->rest * f->tp * f->rest_bytes + touched * f->weight_bytes + kv;
    }
    double cache = kv * f->kv_share * f->tp;
    /* a mixture of experts: the rest read once, the routed experts the batch reaches, at most
     * all */
    if (f->experts > 0)
        return f->rest * f->rest_bytes +
               fmin(f->experts, (f->active - f->rest) * batch) * f->weight_bytes + cache;
    return fmin(f->m->params, f->active * batch) * f->weight_bytes + cache;
}

void model_llm_serving_fixed(const model_llm *m, const model_llm_setup *s, double context,
                             double output_tokens, const model_llm_layout *l, double tflops,
                             double bandwidth_gbs, double mfu, double decode_fraction,
                             model_serving_fixed *f)
{
    f->m = m;
    f->l = *l;
    f->output_tokens = output_tokens;
    f->active = m->active_params > 0 ? m->active_params : m->params;
    f->attention_dp = s->attention_dp && l->tp > 1 && model_llm_attention_dp_possible(m);
    f->tp = l->tp > 1 ? l->tp : 1;
    f->pp = l->pp > 1 && !f->attention_dp ? l->pp : 1;
    double average_tokens = context + output_tokens / 2;
    f->weight_bytes = model_llm_weight_bytes(s->precision);
    f->kv_bytes_per_sequence = model_llm_kv_bytes_per_token(m, s->precision) * average_tokens;
    f->experts = model_llm_expert_params(m);
    f->rest = m->params - f->experts;
    f->rest_bytes = rest_weight_bytes(m, s->precision);
    f->experts_routed_share = m->experts_active / m->experts;
    f->kv_share = model_llm_kv_share(m, f->tp);
    /* The step's compute runs over the decode width (latent attention's absorbed form: 544 a
     * head for DeepSeek-V3), its bytes over the cache as held (above). */
    f->flops_per_sequence = 2 * f->active + model_llm_decode_attention_flops(m, average_tokens);
    f->memory_rate = bandwidth_gbs * 1e9 * decode_fraction * f->tp;
    f->compute_rate = tflops * 1e12 * mfu * f->tp;
    f->stage_floor = m->layers / f->pp * model_llm_layer_latency_s(m);
    f->prefill_flops = model_llm_prefill_flops(m, context);
    f->prefill_attention_flops = context * model_llm_attention_flops(m, context);
    /* attention data-parallel: a prompt on its own GPU, the replica's sequences / tp on each */
    double prefill_gpus = f->attention_dp ? 1 : f->tp;
    f->prefill_s = f->prefill_flops / (tflops * 1e12 * mfu * prefill_gpus) +
                   f->pp * f->stage_floor +
                   (f->attention_dp ? model_llm_alltoall_s(m, l, m->layers, context)
                                    : model_llm_allreduce_s(m, l, m->layers, context) +
                                          (f->pp - 1) * model_llm_hop_s(m, l, context));
}

void model_llm_serving_at(const model_serving_fixed *f, double in_flight, model_serving *out)
{
    const model_llm *m = f->m;
    const model_llm_layout *l = &f->l;
    int pp = f->pp;
    memset(out, 0, sizeof *out);
    double sequences = in_flight > 0 ? in_flight : 1;
    double micro_batches = fmin(pp, sequences);
    double batch = sequences / micro_batches;   /* sequences a micro-batch */
    out->bytes_per_step = step_bytes(f, batch);
    out->flops_per_step = f->flops_per_sequence * batch;
    double memory_s = out->bytes_per_step / pp / f->memory_rate;
    double compute_s = out->flops_per_step / pp / f->compute_rate;
    double stage_allreduce =
        f->attention_dp ? 0 : model_llm_allreduce_s(m, l, m->layers / pp, batch);
    double hop = f->attention_dp ? 0 : model_llm_hop_s(m, l, batch);
    out->alltoall_s = f->attention_dp ? model_llm_alltoall_s(m, l, m->layers, batch / f->tp) : 0;
    out->bandwidth_bound = memory_s >= compute_s;
    out->floor_s = pp * f->stage_floor;
    out->allreduce_s = pp * stage_allreduce;
    out->hop_s = pp * hop;
    out->step_s = pp * (fmax(memory_s, compute_s) + f->stage_floor + stage_allreduce + hop) +
                  out->alltoall_s;
    out->prefill_flops = f->prefill_flops;
    out->prefill_attention_flops = f->prefill_attention_flops;
    out->prefill_s = f->prefill_s;
    double prefills = f->attention_dp ? sequences / f->tp : sequences;
    out->tpot_s = (f->output_tokens * out->step_s + prefills * out->prefill_s) / f->output_tokens;
    out->tokens_per_s = sequences / out->tpot_s;
}

void model_llm_serving(const model_llm *m, const model_llm_setup *s, double context,
                       double output_tokens, const model_llm_layout *l, double tflops,
                       double bandwidth_gbs, double mfu, double decode_fraction,
                       model_serving *out)
{
    model_serving_fixed f;
    model_llm_serving_fixed(m, s, context, output_tokens, l, tflops, bandwidth_gbs, mfu,
                            decode_fraction, &f);
    model_llm_serving_at(&f, s->sequences, out);
}
