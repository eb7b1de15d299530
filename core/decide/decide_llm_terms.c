/* decide_llm_terms.c — the terms of a language model's speed beyond its roofline: attention's
 * FLOPs, the decode floor (every layer's fixed latency), QLoRA's dequantisation and activation
 * checkpointing's recomputed pass, and their words: in an option's speed and band, the
 * method's lines (method.llm_terms) and llm.speed_terms in --json.  The figures are model.h's,
 * each with its source. */
#include "decide_llm.h"

#include <math.h>
#include <stdlib.h>

/* The data-parallel efficiency of l's replicas at a replica's rate (tokens/s).  Across machines
 * each GPU of a replica on a machine all-reduces its own shard in its own ring, so the machine's
 * ports carry as many rings at once as a replica has GPUs on it: a ring gets network_gbs over
 * them (an 8-GPU tensor-parallel replica a machine: an eighth each), and spans the machines
 * its replicas are on (all replicas on a machine reduce over its link first). */
static double train_dp_efficiency(const decide_llm_train_layout *l, double replica_rate)
{
    if (l->replicas < 2)
        return 1;
    if (l->hosts < 2)
        return model_scaling_efficiency(l->replicas, replica_rate, l->step_tokens,
                                        l->exchange_bytes, l->link_gbs);
    int gpus = l->tp * l->cp * l->pp;
    int in_host = l->per_host > gpus ? l->per_host / gpus : 1;
    int on_host = gpus < l->per_host ? gpus : l->per_host;
    return model_scaling_efficiency_hosts(in_host, l->replicas / in_host, replica_rate,
                                          l->step_tokens, l->exchange_bytes, l->link_gbs,
                                          l->network_gbs / on_host);
}

double decide_llm_train_tokens(const decide_llm_train_layout *l, int gpus, double one,
                               double *dp_efficiency)
{
    double replica = l->tp * l->cp * l->pp * one * l->share;
    double eff = train_dp_efficiency(l, replica);
    if (dp_efficiency)
        *dp_efficiency = eff;
    return gpus * one * l->share * eff;
}

/* The attention's share of the FLOPs a trained token is counted at (model_llm_attention_flops,
 * 3 forward passes' worth, 4 with checkpointing). */
double decide_llm_train_attention_flops(const decision *d)
{
    const model_llm_setup *s = &d->llm_setup;
    return (s->checkpointing ? 4 : 3) * model_llm_attention_flops(&d->llm, s->sequence_length);
}

/* The sources of how attention's FLOPs are counted and spent (model_llm_attention_flops, and
 * model_llm_decode_attention_flops' absorbed form where a decode step's width is not head_dim):
 * the method's, the same for every option, so cited once. */
void decide_llm_attention_cites(decision *d)
{
    decide_cite(d, "palm-paper");
    decide_cite(d, "flashattention-2-paper");
    if (d->llm_setup.task == MODEL_INFERENCE && d->llm.decode_attention_head_dim > 0 &&
        d->llm.decode_attention_head_dim != d->llm.head_dim)
        decide_cite(d, "deepseek-v2-paper");   /* the absorbed form a decode step's width is */
}

/* QLoRA's dequantisation (model.h's MODEL_QLORA_DEQUANT_*) widens a modelled speed's band by
 * its published range around the factor used, said after the band's basis. */
void decide_llm_dequant_band(decision *d, decide_option *o)
{
    if (d->llm_setup.method != MODEL_TUNE_QLORA)
        return;
    o->throughput_lo *= MODEL_QLORA_DEQUANT_SLOWDOWN / MODEL_QLORA_DEQUANT_HIGH;
    o->throughput_hi *= MODEL_QLORA_DEQUANT_SLOWDOWN / MODEL_QLORA_DEQUANT_LOW;
    decide_option_cite(d, o, "raschka-lora-tips");
    decide_option_cite(d, o, "bitsandbytes-nf4-slowdown");
    gw_buf basis = GW_BUF_INIT;
    buf_printf(&basis, "%s; QLoRA's dequantisation, %.3g x slower than 16-bit LoRA "
                       "(raschka-lora-tips), is %.3g x to %.3g x where measured "
                       "(bitsandbytes-nf4-slowdown): the band x %.4g to x %.4g more",
               o->throughput_band_basis ? o->throughput_band_basis : "",
               MODEL_QLORA_DEQUANT_SLOWDOWN, MODEL_QLORA_DEQUANT_LOW, MODEL_QLORA_DEQUANT_HIGH,
               MODEL_QLORA_DEQUANT_SLOWDOWN / MODEL_QLORA_DEQUANT_HIGH,
               MODEL_QLORA_DEQUANT_SLOWDOWN / MODEL_QLORA_DEQUANT_LOW);
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}

/* The sources of the layers' fixed latency (model.h's MODEL_LAYER_LATENCY_S and
 * MODEL_MOE_ROUTING_LATENCY_S). */
#define LLM_LAYER_LATENCY_SOURCE "gpt-fast-tensor-parallel"
#define LLM_MOE_ROUTING_SOURCE "gpt-fast-mixtral"

static int llm_is_moe(const decision *d)
{
    return d->llm.experts > 1;
}

/* What bounds a decode step: the layers' fixed latency where it exceeds the time to read the
 * weights and cache or to compute (what is left of the step after the latency and the
 * exchanges), else bandwidth or compute. */
const char *decide_llm_step_bound(const model_serving *v)
{
    double work = v->step_s - v->floor_s - v->allreduce_s - v->alltoall_s - v->hop_s;
    if (v->floor_s > work)
        return "latency";
    return v->bandwidth_bound ? "bandwidth" : "compute";
}

/* How the layers' fixed latency, the floor of a decode step, adds to it (the method states its
 * figures and sources, the same for every option: cited once). */
void decide_llm_floor_words(decision *d, const model_serving *v, gw_buf *how)
{
    decide_cite(d, LLM_LAYER_LATENCY_SOURCE);
    if (llm_is_moe(d))
        decide_cite(d, LLM_MOE_ROUTING_SOURCE);
    buf_printf(how, ", of it %.3g ms layer latency", v->floor_s * 1e3);
}

/* The speed model's terms a reader checks, with this decision's figures (`llm.speed_terms` in
 * decide --json): training's FLOPs a token, attention's part of them and QLoRA's
 * dequantisation; serving's prompt FLOPs, attention's part, a decode step's attention FLOPs a
 * sequence (model_llm_decode_attention_flops) and its floor. */
view *decide_llm_speed_terms_view(const decision *d)
{
    view *t = view_map();
    const model_llm *m = &d->llm;
    if (d->llm_setup.task == MODEL_INFERENCE) {
        double context = d->w->serve_context;
        view_map_set_num(t, "prefill_flops", model_llm_prefill_flops(m, context));
        view_map_set_num(t, "prefill_attention_flops",
                         context * model_llm_attention_flops(m, context));
        /* a decode step's sequence attends to the prompt and half its output on average */
        view_map_set_num(t, "decode_attention_flops_per_token",
                         model_llm_decode_attention_flops(m, context + d->w->serve_output / 2));
        view_map_set_num(t, "layer_latency_us", MODEL_LAYER_LATENCY_S * 1e6);
        view_map_set_num(t, "moe_routing_latency_us",
                         m->experts > 1 ? MODEL_MOE_ROUTING_LATENCY_S * 1e6 : 0);
        view_map_set_num(t, "decode_floor_ms", m->layers * model_llm_layer_latency_s(m) * 1e3);
        return t;
    }
    double fpt = model_llm_train_flops_per_token(m, &d->llm_setup);
    double attention = decide_llm_train_attention_flops(d);
    view_map_set_num(t, "flops_per_token", fpt);
    view_map_set_num(t, "attention_flops_per_token", attention);
    view_map_set_num(t, "attention_share", fpt > 0 ? attention / fpt : 0);
    view_map_set_num(t, "attention_flops_spent_per_token", attention / 2);
    view_map_set_num(t, "dequant_slowdown", model_llm_train_slowdown(&d->llm_setup));
    return t;
}

/* The method's lines on attention's FLOPs, the decode floor and QLoRA's dequantisation
 * (`method.llm_terms`), each with this decision's figures; b is scratch. */
view *decide_llm_method_terms(const decision *d, gw_buf *b)
{
    view *terms = view_list();
    const model_llm *m = &d->llm;
    buf_reset(b);
    if (d->llm_setup.task == MODEL_INFERENCE) {
        double context = d->w->serve_context;
        buf_printf(b, "attention FLOPs: 4 x layers x n x n x heads x head size for a prompt of n "
                      "tokens (%.3g TFLOP here), 4 x layers x tokens cached x heads x head size a "
                      "decode step", context * model_llm_attention_flops(m, context) / 1e12);
    } else {
        double fpt = model_llm_train_flops_per_token(m, &d->llm_setup);
        buf_printf(b, "attention FLOPs: a trained token adds 12 x layers x sequence length x "
                      "heads x head size, 16 with checkpointing (here %.3g of %.3g GFLOP)",
                   decide_llm_train_attention_flops(d) / 1e9, fpt / 1e9);
    }
    int serving = d->llm_setup.task == MODEL_INFERENCE;
    double decode = m->decode_attention_head_dim > 0 ? m->decode_attention_head_dim : m->head_dim;
    if (m->attention_head_dim > 0 && m->attention_head_dim != m->head_dim) {
        buf_printf(b, " (head size: %s%.4g, the mean width a head's q.k and scores.v run over; ",
                   serving ? "the prompt's " : "", m->attention_head_dim);
        if (serving && decode != m->head_dim)
            buf_printf(b, "a decode step's %.4g, the absorbed form's over the cached latent "
                          "(deepseek-v2-paper); %.4g, the cache's)", decode, m->head_dim);
        else
            buf_printf(b, "%s%.4g, the cache's)", serving ? "a decode step's " : "not ",
                       m->head_dim);
    } else if (serving && decode != m->head_dim) {
        buf_printf(b, " (head size: a decode step's %.4g, the absorbed form's over the cached "
                      "latent (deepseek-v2-paper); %.4g, the prompt's and the cache's)",
                   decode, m->head_dim);
    }
    buf_puts(b, ": the full square, as the utilisations used were measured (palm-paper); "
                "FlashAttention's causal kernels spend about half (flashattention-2-paper); no "
                "sliding window");
    view_list_push(terms, view_string(buf_cstr(b)));
    if (d->llm_setup.task == MODEL_INFERENCE) {
        buf_reset(b);
        buf_printf(b, "decode floor: every layer costs %.0f us besides its weights (kernel gaps "
                      "within CUDA graphs: gpt-fast-tensor-parallel)", MODEL_LAYER_LATENCY_S * 1e6);
        if (m->experts > 1)
            buf_printf(b, ", a mixture of experts' %.0f us more (gpt-fast-mixtral)",
                       MODEL_MOE_ROUTING_LATENCY_S * 1e6);
        buf_printf(b, ", before the all-reduces: %.3g ms a step here; speculative decoding is "
                      "not counted (a step yields one token a sequence)",
                   m->layers * model_llm_layer_latency_s(m) * 1e3);
        view_list_push(terms, view_string(buf_cstr(b)));
    }
    if (d->llm_setup.method == MODEL_TUNE_QLORA) {
        buf_reset(b);
        buf_printf(b, "dequantisation: QLoRA trains %.3g x slower than 16-bit LoRA "
                      "(raschka-lora-tips), %.3g x to %.3g x in the band "
                      "(bitsandbytes-nf4-slowdown)", MODEL_QLORA_DEQUANT_SLOWDOWN,
                   MODEL_QLORA_DEQUANT_LOW, MODEL_QLORA_DEQUANT_HIGH);
        view_list_push(terms, view_string(buf_cstr(b)));
    }
    return terms;
}

double decide_llm_model_flops_share(const decision *d)
{
    model_llm_setup s = d->llm_setup;
    if (!s.checkpointing)
        return 1;
    double computed = model_llm_train_flops_per_token(&d->llm, &s);
    s.checkpointing = 0;
    return model_llm_train_flops_per_token(&d->llm, &s) / computed;
}

double decide_llm_checkpointing_unneeded(const decision *d, const decide_option *o, double *gb)
{
    model_llm_setup s = d->llm_setup;
    model_memory m;
    if (!workload_is_llm(d->w) || s.task == MODEL_INFERENCE || !s.checkpointing ||
        o->replicas < 1 || o->tp < 1)
        return 0;
    s.checkpointing = 0;
    if (model_llm_memory(&d->llm, &s, o->replicas, o->tp, 1, &m, NULL) != GW_OK ||
        !(m.total_gb <= decide_option_memory_gb(o)))
        return 0;
    *gb = m.total_gb;
    return 1 / decide_llm_model_flops_share(d);   /* FLOPs with the recomputation / without it */
}
