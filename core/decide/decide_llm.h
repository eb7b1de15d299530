/* decide_llm.h — a language model's part of the model stage, and the report's words on it
 * (decide_llm.c); how a served model's GPUs are laid out in replicas, tensor-parallel groups and
 * pipeline stages (decide_llm_layout.c); the speed's terms beyond the roofline: attention, the
 * decode floor, dequantisation (decide_llm_terms.c). */
#ifndef GW_DECIDE_LLM_H
#define GW_DECIDE_LLM_H

#include "decide_common.h"

/* A language model's setup (once, in place of the memory estimate), each option's fit
 * (tensor-parallel GPUs a replica, memory per GPU) and speed in tokens/s (how appended to how),
 * the serving target an option misses (NULL: none; caller frees), and the tokens one GPU
 * processes an optimizer step: batch_per_gpu sequences x sequence_length x
 * gradient_accumulation micro-batches (what data-parallel replicas compute between two
 * exchanges of their gradients). */
int decide_llm_setup(decision *d, gw_error *err);
void decide_llm_fit(decision *d, decide_option *o);
void decide_llm_speed(decision *d, decide_option *o, gw_buf *how);
char *decide_llm_target_missed(const decision *d, const decide_option *o);
/* Whether o misses a serving target: decide_llm_target_missed without its words. */
int decide_llm_target_is_missed(const decision *d, const decide_option *o);
double decide_llm_tokens_per_step(const workload *w);
/* The dense tensor rate g computes a precision at, training or serving: its own, or where g lacks
 * it the next it has (d's precision support rows); training at FP8 or FP4, BF16's rate x the
 * measured speed-up (decide_precision_rate).  TFLOPS; NaN or 0 where the KB has none. */
double decide_llm_rate(const decision *d, const kb_gpu *g, const char *precision, int training);
/* ---- serving layouts (decide_llm_layout.c) ---- */

/* One way to lay out GPUs of a serving option: replicas of tp GPUs of one machine (tensor
 * parallel) x pp machines (pipeline stages), the memory of each GPU, and each replica's speed
 * at the sequences it holds. */
typedef struct decide_llm_layout {
    int gpus, replicas, tp, pp;
    int attention_dp;          /* the tp GPUs run attention data-parallel x experts (model.h) */
    int serving_replicas;      /* less redundancy's spares (decide_llm_serving_replicas) */
    int enough_replicas;       /* at least the spares + 1, and production's two */
    double sequences;          /* in flight on each serving replica: ceil(concurrency / serving),
                                * or under an arrival rate, Little's law's fixed point */
    int keeps_up;              /* under an arrival rate: a fixed point lies within limit (else
                                * sequences is the limit); 1 otherwise */
    double limit;              /* under an arrival rate: decide_llm_inflight_limit; else NaN */
    model_memory memory;       /* per GPU */
    int fits;                  /* in one GPU's memory */
    int speed_known;           /* the KB has the GPU's tensor rate and memory bandwidth */
    model_llm_layout parallel; /* what model_llm_serving reads (links, network) */
    model_serving serving;     /* one replica, when speed_known */
    double tokens_per_s;       /* the serving replicas the concurrency keeps busy, together */
    double shortfall;          /* the worst figure over its target (tpot, ttft) or the target
                                * over the figure (tokens/s): above 1 misses; NaN none known */
} decide_llm_layout;

/* The best layout of `gpus` of o's GPUs (a multiple of the GPUs a replica takes) serving
 * `concurrency` requests: tensor-parallel widths 1, 2, 4 and 8 within a machine over its link
 * (for a mixture of experts, each width also attention data-parallel where every GPU has a
 * sequence of its own: model.h's model_llm_setup attention_dp),
 * pipeline stages across o's machines (over its network) where no machine holds a replica,
 * replicas with the GPUs left.  Redundancy's spares (decide_demand.c) serve nothing: the other
 * replicas carry the requests, and their memory, speed and tokens/s are what the targets are
 * checked on.  Of the layouts that fit, those with enough replicas (the spares + 1, production's
 * two) first; among them the one that meets the workload's targets (time per output token, to
 * the first token, tokens/s: the demand) with the most tokens/s, else the one that misses them
 * least; without a speed, the fewest GPUs a replica.  Returns 1 when one fits, else 0 with out
 * the layout needing the least memory per GPU.  Pure: o is read. */
int decide_llm_layout_best(const decision *d, const decide_option *o, int gpus,
                           double concurrency, decide_llm_layout *out);
/* The replicas of `replicas` that serve: all but redundancy's spares; all of them where there
 * are too few for the spares (such a layout ranks last, and decide_demand_short leaves it out). */
int decide_llm_serving_replicas(const decision *d, int replicas);
/* Under an arrival rate (workload serve_arrival_rate): the most requests a serving replica of
 * o laid out tp x pp as `replicas` replicas holds in flight: what its GPUs' memory leaves for
 * KV caches, and inference.concurrency's cap split over the serving replicas, whichever is
 * fewer (fractional: an average). */
double decide_llm_inflight_limit(const decision *d, const decide_option *o, int tp, int pp,
                                 int replicas);
/* Seconds a request spends in flight on v: its prompt + output tokens x time per token. */
double decide_llm_request_seconds(const decision *d, const model_serving *v);
/* Tokens a second a replica of v completes with n requests in flight: n x output tokens / a
 * request's seconds (Little's law). */
double decide_llm_completed_tokens(const decision *d, const model_serving *v, double n);
/* Under an arrival rate, the capacity of o's serving replicas at shares mfu and bw (rate the
 * tensor rate): the most tokens/s they complete (decide_llm_completed_tokens) at the most
 * requests in flight within limit (its decide_llm_inflight_limit) and the time-per-token target
 * (all of limit where none is stated or none meets it).  The demand is carried exactly where it
 * is at most this; at the fixed point itself what they complete is the demand, which says
 * nothing of the room left. */
double decide_llm_arrival_end(const decision *d, const decide_option *o, double limit,
                              double rate, double mfu, double bw);
/* Under an arrival rate, o's band (a calibrated one's ratio, 1 + its error) re-solved at both
 * shares / and x ratio, said after its basis. */
void decide_llm_arrival_band(const decision *d, decide_option *o, double limit, double rate,
                             double mfu, double bw, double ratio);
/* Under an arrival rate, o->sequences at shares mfu and bw (the layout's were the KB's assumed
 * ones) and o's memory per GPU at them; returns its capacity at them (decide_llm_arrival_end's
 * figure), *limit its decide_llm_inflight_limit. */
double decide_llm_arrival_inflight(const decision *d, decide_option *o, double rate,
                                   double mfu, double bw, double *limit);
/* Appends the requests in flight on o (Little's law), or that its limit does not carry the
 * load, at v (o's replica at o->sequences). */
void decide_llm_inflight_words(const decision *d, const decide_option *o,
                               const model_serving *v, gw_buf *how);
/* Cites the sources of the tensor- and pipeline-parallel costs o's layout pays. */
void decide_llm_parallel_cites(decision *d, decide_option *o);
/* Appends how o's all-reduces and pipeline hops add to its decode step (v: its replica). */
void decide_llm_parallel_words(const decision *d, const decide_option *o,
                               const model_serving *v, gw_buf *how);
/* The method's words on serving layouts, and under an arrival rate how the requests in flight
 * are found (appended to b). */
void decide_llm_layout_method_words(const decision *d, gw_buf *b);
/* The serving figures of o's chosen layout (o->tp, o->pp, o->sequences) at tflops x mfu and
 * the bandwidth x decode_fraction. */
void decide_llm_serving_of(const decision *d, const decide_option *o, double tflops, double mfu,
                           double decode_fraction, model_serving *out);
/* "8 GPUs: 2 replicas × tensor-parallel 4", "16 GPUs: 1 replica × pipeline 2 × tensor-parallel
 * 8", "8 GPUs: 1 replica × attention data-parallel 8 × experts 8" (attention_dp), "1 GPU: 1
 * replica" (appended to b). */
void decide_llm_layout_words(gw_buf *b, int gpus, int replicas, int tp, int pp,
                             int attention_dp);

/* ---- training layouts (decide_llm_layout.c) ---- */

/* How a training replica is laid out: a workload's chosen layout (tensor parallel within a
 * machine, nothing else) or a measured row's stated one (the benchmark's columns of schema 13). */
typedef struct decide_llm_train_layout {
    int tp, cp, pp, vp;        /* tensor, context, pipeline parallel; virtual stages a GPU */
    int nvlink;                /* the model-parallel group's link is the board's (NVLink) */
    double micro_batches;      /* a step's, of each data-parallel replica; NaN unknown */
    double link_share;         /* what the tp x cp group delivers (model_llm_parallel_efficiency) */
    double bubble;             /* the pipeline's idle share (model_llm_pipeline_bubble) */
    /* A stated stage layout's (benchmark pipeline_layout): the heaviest physical stage's work
     * over the mean (model_llm_stage_imbalance; 0 or 1: even), and the work its MTP layers add
     * over the model's FLOPs a token (model_llm_mtp_flops; 0: none). */
    double imbalance, extra_work;
    double share;              /* link_share x (1 - bubble) / (imbalance x (1 + extra_work)):
                                * of the GPUs' compute, what is left for the model's FLOPs */
    /* Its data parallel (decide_llm_train_tokens; replicas 0 or 1: none): replicas of tp x cp x
     * pp GPUs over hosts machines of per_host GPUs, the tokens a replica takes a step, the
     * bytes each GPU's ring all-reduces a step (model_llm_exchange_bytes over its tp x pp
     * shard), over link_gbs within a machine and network_gbs (GB/s, all of a machine's ports)
     * across them. */
    int replicas, hosts, per_host;
    double step_tokens, exchange_bytes, link_gbs, network_gbs;
} decide_llm_train_layout;

/* Fills l's link_share, bubble and share from its widths; returns l->share.  The one charge for
 * a layout, the workload's and a measured row's alike; expert parallelism's all-to-all is not
 * charged (the model has no measured figure for it). */
double decide_llm_train_layout_share(decide_llm_train_layout *l);
/* The tokens/s gpus GPUs of layout l train at when each computes `one` tokens/s at its
 * utilisation (its rate x utilisation / FLOPs a token): gpus x one x l->share x the data-parallel
 * efficiency of l's replicas at a replica's rate, tp x cp x pp x one x share
 * (model_scaling_efficiency_hosts: compute / (compute x (1 + sync) + all-reduce), 1 for one
 * replica); that efficiency in *dp_efficiency.  The one path a workload's training speed and a
 * measured row's prediction both take, so a utilisation calibrated on rows is the GPUs' own,
 * each row's exchange divided out, and an option pays only its own. */
double decide_llm_train_tokens(const decide_llm_train_layout *l, int gpus, double one,
                               double *dp_efficiency);
/* The layout b states for gpu g (its tensor, pipeline and context widths, virtual stages,
 * micro- and global batch: an unstated width is 1, unstated batches leave the micro-batches
 * unknown, so no bubble), share filled; over the board's link where g has one.  Where b states
 * its pipeline_layout and m (the row's model) is given, its stages' imbalance and MTP work are
 * charged too; a row without one is an even split. */
void decide_llm_row_train_layout(const kb_benchmark *b, const kb_gpu *g, const model_llm *m,
                                 decide_llm_train_layout *out);

/* The report's words on the model, its setup, and the recommendation's memory per GPU and
 * serving figures (caller owns the view); the method's lines in place of the image-model ones. */
view *decide_llm_view(const decision *d);
/* Where a language model's training asks for full activation checkpointing and o would fit
 * without it at its own layout: how many times as fast o would train without it, the
 * recomputed forward pass gone at the same utilisation (FLOPs with / without), and in *gb its
 * memory per GPU then; 0 otherwise. */
double decide_llm_checkpointing_unneeded(const decision *d, const decide_option *o, double *gb);
/* How many times as fast o would train were each GPU's tokens/s `faster` times its own, its
 * layout's data-parallel exchange the same (decide_llm_train_tokens); 0 where o has no speed. */
double decide_llm_train_speedup(const decision *d, const decide_option *o, double faster);
/* The share of the FLOPs a trained token computes that model FLOPs utilisation counts: all of
 * them, less the forward pass checkpointing recomputes (its parameters' and attention's). */
double decide_llm_model_flops_share(const decision *d);
void decide_llm_method(const decision *d, view *method);

/* ---- the speed's terms beyond the roofline (decide_llm_terms.c) ---- */

/* The attention's part of the FLOPs a trained token is counted at (model_llm_attention_flops at
 * the sequence length, 3 forward passes' worth, 4 with checkpointing). */
double decide_llm_train_attention_flops(const decision *d);
/* Cites how attention's FLOPs are counted and spent, once for the decision. */
void decide_llm_attention_cites(decision *d);
/* QLoRA: widens o's modelled band by the dequantisation's measured range and says so after its
 * basis; other methods: nothing. */
void decide_llm_dequant_band(decision *d, decide_option *o);
/* What bounds a decode step: "latency" (the floor), "bandwidth" or "compute" (static). */
const char *decide_llm_step_bound(const model_serving *v);
/* Appends how much of a decode step the layers' latency takes, and cites its source. */
void decide_llm_floor_words(decision *d, const model_serving *v, gw_buf *how);
/* The method's lines on the terms (a list of strings; b is scratch) and llm.speed_terms (a
 * map); the caller owns each view. */
view *decide_llm_method_terms(const decision *d, gw_buf *b);
view *decide_llm_speed_terms_view(const decision *d);

#endif
