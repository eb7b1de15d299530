/* model.h — the performance model: how much GPU memory one replica of a training job needs, how
 * fast a GPU runs it when no measurement exists, and how well several GPUs scale over their
 * interconnect.  Pure arithmetic over plain values: no KB, no Lua, no allocation. */
#ifndef GW_MODEL_H
#define GW_MODEL_H

#include <stddef.h>

#include "base/error.h"
#include "kb/kb_layout.h"

/* Fixed costs every replica pays besides weights, gradients, optimizer states and activations,
 * added to an estimate and to a measured peak alike (a peak read from PyTorch's
 * max_memory_allocated counts neither).  Both are assumptions, not measurements:
 * - the CUDA context with cuBLAS / cuDNN / NCCL workspaces takes about 0.3 to 1 GB per GPU
 *   (more with recent CUDA versions and lazy loading off); the upper end, 1 GB, is taken;
 * - PyTorch's caching allocator reserves more than it hands out (the PyTorch notes on CUDA
 *   memory management, "reserved" vs "allocated"); 5 to 10% of the peak is usual, 10% taken.
 * With both, a measured 40.0 GB peak needs 40 x 1.10 + 1 = 45 GB: it does not fit a 40 GB card. */
#define MODEL_CONTEXT_GB 1.0
#define MODEL_FRAGMENTATION 0.10

/* Multi-GPU constants (see model_scaling_efficiency).  The heat throttling of consumer builds
 * comes from a KB source and is the caller's (decide.c's table of assumed figures). */
#define MODEL_SYNC_OVERHEAD 0.03        /* per-step cost of synchronising replicas */
#define MODEL_DEFAULT_BATCH 256.0       /* samples per GPU per step when the workload says none */
#define MODEL_PARALLEL_EFFICIENCY_NVLINK 0.85
#define MODEL_PARALLEL_EFFICIENCY_PCIE 0.55

/* PCIe per direction, 16 lanes, PCIe 3.0: 8 GT/s x 16 lanes x 128/130 encoding / 8 bits =
 * 15.75 GB/s, about 16; each later generation doubles it (4.0 about 32, 5.0 about 64: the
 * PCI-SIG rates, and the KB's pcie claim, corrected from nvidia-a100-datasheet).  Fewer lanes
 * carry proportionally less. */
#define MODEL_PCIE3_X16_GBS 16.0
/* Cards without GPU peer-to-peer over PCIe (the KB's p2p flag: GeForce cards, NVIDIA disables it)
 * stage every transfer through host memory, which roughly halves the usable rate: a pair of
 * RTX 5090 on PCIe 5.0 x8 measured about 30 GB/s both ways without P2P against about 56 GB/s
 * with it (source article-rtx5090-p2p-driver in kb/data/sources.csv; 30/56 = 0.54, taken as
 * 0.5).  An assumption from one anecdotal measurement, calibrated against the KB's 2x RTX 4090
 * row (see model_calibration). */
#define MODEL_NO_P2P_FACTOR 0.5

typedef struct model_memory {
    double bytes_per_param;     /* weights + gradients + optimizer states */
    double weights_gb, gradients_gb, optimizer_gb, activations_gb, overhead_gb;
    double kv_cache_gb;         /* a language model served: its KV cache (0 otherwise) */
    double total_gb;            /* what one replica needs */
    int measured;               /* 1: total_gb is the workload's measured vram_gb */
} model_memory;

/* Bytes each parameter costs during training for a precision (precision.h: those with training
 * bytes; NULL: fp32) and optimizer (optimizer.h; NULL: adam; "none" for inference keeps the
 * weights only).  Splits them into weights / gradients / optimizer states (the fp32 master copy
 * of mixed precision counts with the optimizer's).  GW_EDATA naming the unknown word and the
 * names known. */
int model_param_bytes(const char *precision, const char *optimizer, double *weights,
                      double *gradients, double *optimizer_states, gw_error *err);

/* Memory per replica from parameters: (params x bytes + activations) x (1 + fragmentation)
 * + context.  GW_EDATA for an unknown precision or optimizer. */
int model_memory_estimate(double params, const char *precision, const char *optimizer,
                          double activations_gb, model_memory *out, gw_error *err);
/* The same shape for a measured peak (vram_gb): the peak x (1 + fragmentation) + context, the
 * margin in overhead_gb. */
void model_memory_measured(double vram_gb, model_memory *out);

/* Memory each card must hold when the model is split over count cards (model parallelism):
 * the per-replica need less its context divided by count, plus the context on every card. */
double model_memory_per_card_split(const model_memory *m, int count);

/* ---- a card's capacity (model_capacity.c) ---------------------------------------------------
 * A need is in GB of 10^9 bytes; so is what a card holds, as its driver reports it: nvidia-smi's
 * "FB Memory Usage" total in MiB (the KB's memory_mib, from published dumps) x MODEL_MIB_BYTES.
 * An H100 80GB reports 81,559 MiB = 85.52e9 bytes, an H200 143,771 MiB = 150.75e9: the nominal
 * "80" and "141" are near GiB, so comparing a need in 10^9 bytes with them left 6 to 7% of every
 * card unused.  Recent drivers count in that total a share they reserve for themselves
 * (nvidia-smi's "Reserved", 0.23 to 1.1 GB in the KB's dumps); MODEL_CONTEXT_GB and the
 * allocator's MODEL_FRAGMENTATION are the margin that covers it with the CUDA context.
 *
 * Where the KB has no dump of a card, its total is estimated from its nominal figure as GiB x
 * the median share the measured cards of its memory kind report of theirs (MiB / (GB x 1024)):
 * - HBM: 0.9957, the median of ten (H100 SXM 0.99559, H100 NVL 0.99557, H200 0.99575, GH200
 *   0.99560, A100 80GB and 40GB, V100 SXM2 16GB and P100 1.0, V100 and V100S 32GB 0.99213);
 * - GDDR with ECC (the KB's ecc flag), taken enabled, as data-centre cards ship: its check bits
 *   take a sixteenth: 0.9373, the median of seven with ECC on (T4 0.93750, A10 and A10G
 *   0.93701, L4, L40S, A40 and RTX A6000 0.93726);
 * - other memory: 1.0, the median of ten GeForce cards (RTX 2070, 2080, 3060, 3070, 3080 and
 *   3090 1.0, 4060 Ti 0.99976, 4090 0.99951, 5090 0.99509, 2080 Ti on driver 410 0.97559).
 * So an H100 PCIe's 80 GB is 80 x 1024 x 0.9957 = 81,568 MiB = 85.53e9 bytes, an estimate. */
#define MODEL_MIB_BYTES 1048576.0
#define MODEL_HBM_REPORTED_SHARE 0.9957
#define MODEL_GDDR_ECC_REPORTED_SHARE 0.9373
#define MODEL_GDDR_REPORTED_SHARE 1.0
/* A card's memory in GB of 10^9 bytes: reported_mib (> 0) x MODEL_MIB_BYTES / 1e9, else the
 * estimate from nominal_gb, memory_type ("HBM3", "GDDR6X", ...; NULL unknown: as GDDR) and ecc
 * (1: ECC memory), *estimated set to 1; NaN when nominal_gb is unknown too.  estimated may be
 * NULL. */
double model_card_memory_gb(double nominal_gb, double reported_mib, const char *memory_type,
                            int ecc, int *estimated);

/* A GPU's figures the model reads (from kb_gpu). */
typedef struct model_gpu_spec {
    double tensor_tflops;       /* dense, for the workload's precision */
    double bandwidth_gbs;       /* memory bandwidth */
} model_gpu_spec;

/* Scales a measured throughput on ref to target: value x sqrt(tensor ratio x bandwidth ratio),
 * the geometric mean of the two ratios (compute-bound and memory-bound layers both matter).
 * NaN when a figure is missing. */
double model_scale_throughput(double ref_value, const model_gpu_spec *ref,
                              const model_gpu_spec *target);
/* |log| distance between two specs, used to pick the nearest measured GPU. */
double model_spec_distance(const model_gpu_spec *a, const model_gpu_spec *b);

/* Per-direction bandwidth (GB/s) gradients cross between count cards: NVLink when linked
 * (nvlink_gbs is the KB's total of both directions, halved), otherwise PCIe of that generation
 * and width (MODEL_PCIE3_X16_GBS doubled per generation, x lanes/16; gen 4 and 16 lanes when
 * unknown), x MODEL_NO_P2P_FACTOR without peer-to-peer (p2p 0).  The ring all-reduce loads
 * every card's own link equally, so the rate does not fall with the count. */
double model_link_gbs(int nvlink, double nvlink_gbs, double pcie_gen, double pcie_lanes, int p2p);

/* Bytes all-reduced per step by params: the precision's reduce_bytes per parameter (precision.h:
 * 4 for fp32 and for amp, whose autocast keeps fp32 parameters; 2 for pure fp16 / bf16); 4 for
 * an unknown word. */
double model_gradient_bytes(double params, const char *precision);

/* The same for a training workload as given: none when nothing is trained (optimizer "none").
 * Without params (a workload that gives only its measured peak), the parameters are bounded by
 * the peak: vram_gb / bytes per parameter (model_param_bytes), activations left out, so the
 * traffic is if anything overstated.  0 when neither is known or a word is unknown. */
double model_training_gradient_bytes(double params, double vram_gb, const char *precision,
                                     const char *optimizer);

/* Ring all-reduce time of one step: 2(n-1)/n x gradient bytes / link bandwidth. */
double model_allreduce_seconds(int count, double gradient_bytes, double link_gbs);
/* The same over hosts machines of per_host cards each, hierarchically (as NCCL does across
 * machines): within each machine over its link, then across machines over the network
 * (network_gbs: GB/s, all of one machine's ports together), each a ring:
 *     2(k-1)/k x B / link + 2(N-1)/N x B / network
 * for k cards per machine and N machines.  Infinite when a link it needs is unknown (0). */
double model_allreduce_seconds_hosts(int per_host, int hosts, double gradient_bytes,
                                     double link_gbs, double network_gbs);

/* Data-parallel efficiency of count cards: compute / (compute x (1 + sync) + all-reduce), where
 * compute = batch / single-card throughput.  1 for one card, and when gradient_bytes is 0
 * (nothing trained: replicas run independently). */
double model_scaling_efficiency(int count, double single_throughput, double batch,
                                double gradient_bytes, double link_gbs);
/* The same over hosts machines of per_host cards (model_allreduce_seconds_hosts). */
double model_scaling_efficiency_hosts(int per_host, int hosts, double single_throughput,
                                      double batch, double gradient_bytes, double link_gbs,
                                      double network_gbs);

/* How far the model's efficiency is from measured multi-GPU results: each row adds a predicted
 * and a measured efficiency (multi-GPU throughput / (count x one card's)). */
typedef struct model_calibration {
    int rows;
    double mean_error_pp, max_error_pp;   /* |predicted - measured|, percentage points */
    double sum_error_pp;
    double *errors_pp;                    /* each row's error, in the order added (owned) */
    int errors_cap;
} model_calibration;
/* c starts zeroed ({0}); model_calibration_free releases its list of errors. */
void model_calibration_add(model_calibration *c, double predicted, double measured);
void model_calibration_free(model_calibration *c);

/* The share of a calibration's errors a band is to hold: a band is read as where the truth
 * plausibly lies, so it is the error four scaled figures in five stay within on the KB's own
 * measurements, not the mean (half of them miss by more) nor the maximum (one outlier's). */
#define MODEL_BAND_PERCENTILE 0.80
/* The p-th percentile (0 < p <= 1) of c's errors, in percentage points, by nearest rank: the
 * ceil(p x n)-th smallest of n; 0 when c has no rows. */
double model_calibration_percentile_pp(const model_calibration *c, double p);
/* The error a speed's band reads: c's MODEL_BAND_PERCENTILE-th, as a fraction. */
double model_calibration_band(const model_calibration *c);

/* Whether a workload's model is a benchmark's model: their parameter counts within
 * MODEL_SAME_MODEL_TOLERANCE of the benchmark's (10%: the variants of one published model, such
 * as ResNet-50 v1 and v1.5 at 25.6M or BERT-base cased and uncased at 108M to 110M, are within
 * it; a model twice the size is not).  1 when either count is unknown (NaN): nothing tells them
 * apart. */
#define MODEL_SAME_MODEL_TOLERANCE 0.10
int model_is_benchmark_model(double benchmark_params, double params);
/* A measured throughput of one model carried to another: per-sample work in proportion to
 * parameters (a stated model: every sample passes through every parameter forward and
 * backward; it leaves out input size and layer shapes, which decide_speed.c's band measures),
 * so value x benchmark_params / params.  NaN when either is missing. */
double model_scale_by_params(double value, double benchmark_params, double params);

/* Parameters of the models the KB's benchmarks train ("resnet50": 25.6e6, "bert_base_squad":
 * 110e6, as their papers give them); NaN for another. */
double model_benchmark_params(const char *benchmark);
/* The i-th benchmark model_benchmark_params knows; NULL past the last. */
const char *model_benchmark_name(size_t i);

/* ---- language models (model_llm.c) ----------------------------------------------------------
 * A transformer described by its published configuration (the KB's model catalog), and what a
 * training, fine-tuning or serving setup does with it.  Every figure below is arithmetic over
 * these values and the constants beside them, written into the report's method. */

typedef struct model_llm {
    double params;              /* every parameter */
    double active_params;       /* those one token runs through (a mixture of experts: fewer) */
    double layers, hidden, heads, kv_heads, head_dim, vocab;
    double ffn;                 /* feed-forward width (of one expert); NaN: from params */
    double experts;             /* feed-forward experts a layer (NaN or 1: dense) */
    /* The mean width of a head's q.k and scores.v (model_llm_attention_flops) where it is not
     * head_dim, the cache's (multi-head latent attention); NaN or 0: head_dim */
    double attention_head_dim;
    /* The mean width of a decode step's q.k and scores.v (model_llm_decode_attention_flops)
     * where it is not head_dim (latent attention decoded in its absorbed form); NaN or 0:
     * head_dim */
    double decode_attention_head_dim;
    double experts_active;      /* of the experts, those a token is routed to (top-k); NaN or 0:
                                 * unknown */
} model_llm;

typedef enum { MODEL_TRAIN, MODEL_FINETUNE, MODEL_INFERENCE } model_task;
typedef enum { MODEL_TUNE_FULL, MODEL_TUNE_LORA, MODEL_TUNE_QLORA } model_tune;

typedef struct model_llm_setup {
    model_task task;
    model_tune method;          /* full unless a fine-tune says lora or qlora */
    double lora_rank;           /* LoRA / QLoRA: the adapters' rank */
    const char *precision;      /* what the weights are kept and computed in (model_llm_bytes) */
    const char *optimizer;      /* adam | adamw | sgd | sgd-plain */
    int zero;                   /* ZeRO stage 0..3 over the data-parallel replicas */
    int checkpointing;          /* full activation checkpointing: keep layer inputs, recompute */
    double sequence_length;     /* training: tokens per sequence */
    double batch;               /* training: sequences per GPU per step (micro-batch) */
    double kv_tokens;           /* serving: tokens cached per sequence (context + output) */
    double sequences;           /* serving: sequences in flight on one replica */
    /* Serving a mixture of experts: the replica's GPUs each run attention and the dense parts
     * for their own sequences, those weights whole on every GPU, and split the routed experts
     * (attention data-parallel x expert parallel; model_llm_serving).  0: tensor parallel. */
    int attention_dp;
    /* Training memory's choices besides full checkpointing: */
    int selective_checkpointing;   /* recompute the attention scores only (Korthikanti et al.) */
    int fused_loss;             /* a fused, chunked cross-entropy keeps no full fp32 logits */
} model_llm_setup;

/* Quantized weights carry their scales: int8 and int4 one 16-bit scale per 64 weights (GPTQ,
 * AWQ and bitsandbytes use groups of 64 to 128; 64 is the costlier end), FP4 (NVFP4) one 8-bit
 * scale per 16 weights.  QLoRA keeps its frozen weights in 4-bit NormalFloat with double
 * quantization: 4.127 bits a weight (the QLoRA paper, 0.127 bits of scales).  Quantized
 * checkpoints (GPTQ, AWQ, bitsandbytes' NF4, FP8 and NVFP4 alike) leave the token embeddings and
 * the output layer in 16-bit: those vocab x hidden tables stay at MODEL_EMBEDDING_BYTES. */
#define MODEL_QUANT_GROUP 64.0
#define MODEL_FP4_GROUP 16.0
#define MODEL_NF4_BITS 4.127
#define MODEL_EMBEDDING_BYTES 2.0
/* Activation bytes per token of a sequence kept by one transformer layer in 16-bit with
 * FlashAttention (no s^2 attention scores kept), from the model's own feed-forward width f:
 *     18 x hidden + 2 x tensors x f x experts a token
 * after Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
 * Models", eq. 1 without its 5as/h term: 34 s b h for f = 4h): the attention block keeps 11 x
 * hidden (its input, Q, K, V, the output projection's input, a dropout mask), the two layer
 * norms 4, the feed-forward block its input and dropout mask, 3, and its f-wide tensors 2 bytes
 * each: 2 for a plain MLP (GeLU's input and output: 18h + 4 x 4h = 34h, the paper's figure), 3
 * for a gated one (SwiGLU, GeGLU: the gate, up and their product: Llama 3 8B, h 4096, f 14336:
 * 18 x 4096 + 6 x 14336 = 159,744 bytes, 39 h).  A mixture of experts keeps the f-wide tensors of
 * the experts a token is routed to.  Selective recomputation (Korthikanti et al.) recomputes
 * only the attention scores, which FlashAttention never keeps: the same bytes.  With full
 * checkpointing each layer keeps only its 16-bit input (2 x hidden) and one layer's bytes are
 * live during the recompute. */
#define MODEL_ACTIVATION_HIDDEN_BYTES 18.0
#define MODEL_ACTIVATION_FFN_TENSOR_BYTES 2.0
#define MODEL_CHECKPOINT_BYTES 2.0
/* The loss keeps the logits of every token in fp32: 4 bytes x vocabulary.  A fused, chunked
 * cross-entropy (Liger Kernel's fused linear cross-entropy, liger-kernel-paper; Unsloth and
 * torchtune chunk the same way) computes the logits chunk by chunk and writes their gradient in
 * place: what is live is one chunk of 2^ceil(log2(ceil(tokens / ceil(vocab / hidden)))) tokens'
 * logits (about the size of the hidden states) in 16-bit. */
#define MODEL_LOGIT_BYTES 4.0
#define MODEL_FUSED_LOGIT_BYTES 2.0

/* Bytes one weight takes at a precision (precision.h's weight_bytes: fp32 4 ... nf4 4.127/8).
 * NaN for another word. */
double model_llm_weight_bytes(const char *precision);
/* Bytes of KV cache per token of one sequence: 2 (keys and values) x layers x kv_heads x
 * head_dim x the precision's kv_bytes (precision.h; 2 for an unknown word). */
double model_llm_kv_bytes_per_token(const model_llm *m, const char *precision);
/* Trainable parameters of rank-r LoRA adapters on every linear layer (the QLoRA paper's
 * choice): r x (inputs + outputs) of q, k, v, o and the three feed-forward matrices of every
 * expert, the feed-forward width being the configuration's (ffn), or when unknown what the
 * parameters leave after attention, norms and embeddings (untied):
 *   ffn = (params / layers - attention - 2 hidden - 2 vocab hidden / layers) / (3 hidden). */
double model_llm_lora_params(const model_llm *m, double rank);

/* What a configuration leaves unsaid, read from its parameter count: how many matrices a
 * feed-forward block has (3 gated, SwiGLU or GeGLU; 2 a plain MLP), how many vocab x hidden
 * tables it keeps (1 tied: the output layer is the input embeddings; 2 untied) and how many
 * experts a token is routed to.  The pair (matrices, tables) whose count
 *     layers x (attention + 2 hidden + matrices x hidden x ffn x experts + hidden x experts
 *     of a router) + tables x vocab x hidden + hidden
 * comes within MODEL_ARCH_MATCH of params is taken; none does (an attention the formula does
 * not describe, such as multi-head latent attention, or no ffn): gated and untied, as every
 * model of the catalog is gated and two tables are the larger count.  Experts a token is routed
 * to: experts - (params - active params) / (layers x matrices x hidden x ffn), rounded, within
 * 1 and experts (1 for a dense model). */
#define MODEL_ARCH_MATCH 0.02
typedef struct model_llm_shape {
    double ffn;                 /* the configuration's, else from params (model_llm_lora_params) */
    double matrices;            /* a feed-forward block's: 3 gated, 2 plain */
    double tables;              /* vocab x hidden tables: 1 tied, 2 untied */
    double routed_experts;      /* experts a token runs through (1: dense) */
    int matched;                /* the counts came from params (0: the defaults) */
} model_llm_shape;
void model_llm_shape_of(const model_llm *m, model_llm_shape *out);
/* Activation bytes one layer keeps per token (MODEL_ACTIVATION_HIDDEN_BYTES x hidden +
 * MODEL_ACTIVATION_FFN_TENSOR_BYTES x matrices x ffn x routed experts); without a feed-forward
 * width, Korthikanti et al.'s 34 x hidden. */
double model_llm_activation_bytes_per_token(const model_llm *m);
/* Bytes of the logits the loss keeps for `tokens` tokens a micro-batch: tokens x vocab x
 * MODEL_LOGIT_BYTES, or fused (MODEL_FUSED_LOGIT_BYTES x vocab x one chunk of
 * 2^ceil(log2(ceil(tokens / ceil(vocab / hidden)))) tokens, at most tokens). */
double model_llm_logit_bytes(const model_llm *m, double tokens, int fused);
/* Weight bytes of the whole model at a weight size of `bytes` a parameter, its vocab x hidden
 * tables (model_llm_shape_of) kept at MODEL_EMBEDDING_BYTES where `bytes` is less. */
double model_llm_weights_at(const model_llm *m, double bytes);

/* Memory per GPU of one setup over dp data-parallel replicas (ZeRO divides by dp) of tp x pp
 * GPUs each (tp GPUs of one machine split every layer, tensor parallel; pp machines each hold
 * layers / pp of them: pipeline stages), term by term:
 * - weights: model_llm_weights_at the precision's model_llm_weight_bytes (training and full
 *   fine-tuning keep them at the training precision: fp8 training keeps bf16 weights); LoRA and
 *   QLoRA add their adapters in fp32; QLoRA's frozen weights are nf4, their embeddings and
 *   output layer 16-bit;
 * - gradients and optimizer states of what is trained (model_param_bytes: all parameters, or
 *   the adapters); QLoRA pages its optimizer states to host memory (the paper's paged
 *   optimizers), so they are not on the GPU;
 * - ZeRO: stage 1 divides the optimizer states by dp, stage 2 the gradients too, stage 3 the
 *   weights too;
 * - activations (training): layers x sequence x batch x model_llm_activation_bytes_per_token
 *   (with full checkpointing: layers x tokens x hidden x MODEL_CHECKPOINT_BYTES, plus one
 *   layer's; selective checkpointing keeps what none does, FlashAttention being assumed), plus
 *   model_llm_logit_bytes;
 * - KV cache (serving): model_llm_kv_bytes_per_token x kv_tokens x sequences, of which a GPU
 *   holds model_llm_kv_share(tp) / pp (whole KV heads: a latent cache is whole on every GPU);
 * - attention data-parallel (s->attention_dp, pp 1): every GPU holds the weights but the routed
 *   experts' (model_llm_expert_params) whole, 1 / tp of the experts, and the KV cache of its
 *   own sequences / tp;
 * - a mixture of experts at a format that quantizes the routed experts only (precision.h's
 *   moe_rest: fp4) holds its other weights at moe_rest's size (fp8);
 * - overhead as for every model: MODEL_FRAGMENTATION of the above plus MODEL_CONTEXT_GB.
 * Everything else a replica holds is divided by its tp x pp GPUs.
 * GW_EDATA for an unknown precision or optimizer. */
int model_llm_memory(const model_llm *m, const model_llm_setup *s, int dp, int tp, int pp,
                     model_memory *out, gw_error *err);
/* The share of a replica's KV cache one of tp tensor-parallel GPUs holds: the engines split
 * the cache by KV heads and keep each head whole, a rank ceil(kv_heads / tp) of them, 1 where
 * tp >= kv_heads (vLLM's QKVParallelLinear, vllm/model_executor/layers/linear.py:
 * num_kv_heads = 1 and num_kv_head_replicas = tp / kv_heads where tp >= kv_heads, else
 * kv_heads / tp; SGLang's linear.py the same), so ceil(kv_heads / tp) / kv_heads: 1 / tp while
 * tp <= kv_heads, 1 / kv_heads beyond (8 KV heads on 16 GPUs: 1 / 8), and 1 for a latent cache
 * (kv_heads 1: DeepSeek-V3's 576 values a token a layer are held whole on every rank). */
double model_llm_kv_share(const model_llm *m, int tp);
/* The parameters of the routed experts: total - active = the experts a token skips, (1 -
 * experts_active / experts) of them, so experts' = (params - active) / (1 - k / E)
 * (DeepSeek-V3: (671 - 37) / (1 - 8 / 256) = 654.5e9 of 671e9; what is left, 16.5e9, is
 * attention, the dense layers, the shared expert, routers and embeddings).  0 for a dense
 * model or one whose experts_active is unknown. */
double model_llm_expert_params(const model_llm *m);
/* Whether m can be served attention data-parallel: a mixture of experts whose experts and
 * experts_active are known. */
int model_llm_attention_dp_possible(const model_llm *m);

/* Attention's own FLOPs (no weights: the scores Q K^T and their product with V) are counted
 * as the model FLOPs utilisation counts them: the full square, 2 x 2 x layers x tokens x heads x
 * head_dim a token that attends to `tokens` positions in one forward pass, so 12 x layers x
 * sequence x heads x head_dim a trained token (forward 4, backward 8: PaLM's appendix B,
 * palm-paper, 6N + 12 L H Q T; Megatron-LM's and torchtitan's counts are the same).  head_dim
 * there is the products' width, attention_head_dim where the model gives one: q.k over 192
 * values a head and scores.v over 128 in DeepSeek-V3's latent attention count 2 x (192 + 128)
 * = 4 x 160, not the 4 x 288 of the cache's width.  The utilisations the model applies
 * (llm_mfu, the published spreads) were measured by that count, so tokens/s = rate x
 * utilisation / those FLOPs reproduces them.  FlashAttention's causal kernels skip the blocks
 * above the diagonal (flashattention-2-paper) and so spend about half of it: the attention is,
 * in effect, run at twice the stated utilisation.  The catalog gives no sliding window: every
 * layer attends to the whole sequence. */
double model_llm_attention_flops(const model_llm *m, double tokens);
/* Attention's FLOPs of one decode step's token attending to `tokens` cached positions: 4 x
 * layers x tokens x heads x the decode width, decode_attention_head_dim where the model gives
 * one, else head_dim (the cache's).  Serving engines decode latent attention in its absorbed
 * form (deepseek-v2-paper: W_UK folded into the query, W_UV into the output): DeepSeek-V3's
 * q.k runs over the cached 512-value latent and 64-value rotary key, scores.v over the latent,
 * 2 x (576 + 512) = 4 x 544 a head and position, where a prompt runs over 160 and the cache
 * is written as 288.  The bytes a step reads stay the cache's. */
double model_llm_decode_attention_flops(const model_llm *m, double tokens);
/* FLOPs of a prompt of `context` tokens in one forward pass: 2 x active params x context + its
 * attention, context x model_llm_attention_flops(context) (the full square, as training counts
 * it; the causal kernels spend about half). */
double model_llm_prefill_flops(const model_llm *m, double context);
/* FLOPs of one trained token: 6 x active params for full training (2 forward, 4 backward),
 * 4 x for LoRA and QLoRA (the frozen weights' gradients are not computed), plus 2 x with
 * checkpointing (the forward pass again); plus attention at s->sequence_length, 3 forward
 * passes' worth (model_llm_attention_flops), 4 with checkpointing (its forward again; LoRA's
 * backward still computes the gradients of Q, K and V, below the adapters). */
double model_llm_train_flops_per_token(const model_llm *m, const model_llm_setup *s);
/* QLoRA dequantises its 4-bit frozen weights to 16 bits in every forward and backward pass: it
 * trains 1.51 x slower than 16-bit LoRA on the same GPU (Llama 2 7B on an A100, 2.79 h against
 * 1.85 h: raschka-lora-tips), 1.2 to 2 x as the batch size goes (an RTX A5000, "20-100% drop"
 * for nf4 on a 7B model: bitsandbytes-nf4-slowdown). */
#define MODEL_QLORA_DEQUANT_SLOWDOWN 1.51
#define MODEL_QLORA_DEQUANT_LOW 1.2
#define MODEL_QLORA_DEQUANT_HIGH 2.0
/* How many times longer a trained token takes than its FLOPs at the utilisation say:
 * MODEL_QLORA_DEQUANT_SLOWDOWN for QLoRA, 1 otherwise. */
double model_llm_train_slowdown(const model_llm_setup *s);
/* What a training replica's model-parallel group of `group` GPUs delivers of their compute: 1
 * for one GPU, else the model's parallel efficiency over the board's link
 * (MODEL_PARALLEL_EFFICIENCY_NVLINK) or over PCIe (MODEL_PARALLEL_EFFICIENCY_PCIE).  The group
 * is the GPUs that exchange activations every layer: tensor parallel x context parallel. */
double model_llm_parallel_efficiency(int group, int nvlink);
/* The share of a pipelined training step its stages stand idle while the pipeline fills and
 * drains, for `stages` stages of `virtual_stages` model chunks a GPU and `micro_batches`
 * micro-batches a step: (p - 1) / (v x m + p - 1), the bubble of (p - 1) / (v x m) of the ideal
 * step (megatron-lm-pipeline-paper, 1F1B and interleaved schedules).  0 at one stage, and
 * where m is unknown (NaN) or below 1. */
double model_llm_pipeline_bubble(int stages, int virtual_stages, double micro_batches);
/* A pipeline whose stages hold unequal work (a stated layout, kb_layout.h) runs at the pace of
 * its heaviest stage.  Each stage's work is in model_llm_train_flops_per_token's units (6 x
 * active parameters and 3 passes of attention a token, every weight trained, no recomputation):
 * - a transformer layer (t): its share of 6 x the active parameters other than the model's
 *   vocab x hidden tables, and its share of attention's 3 passes;
 * - the output head (L): 6 x vocab x hidden (its forward and two backward matrix products);
 * - the embedding (E): nothing (a lookup, no matrix product; published model FLOPs count none);
 * - a multi-token-prediction layer (m, DeepSeek-V3's): a transformer layer, its projection of
 *   the two 2 x hidden inputs to hidden (6 x 2 x hidden^2) and its own output head.
 * model_llm_stage_flops: what one stage holding s costs a token at sequence_length. */
double model_llm_stage_flops(const model_llm *m, const kb_layout_stage *s,
                             double sequence_length);
/* The heaviest of the n physical stages' FLOPs over their mean: 1 for an even split; NaN where
 * the stages hold no work. */
double model_llm_stage_imbalance(const model_llm *m, const kb_layout_stage *stages, int n,
                                 double sequence_length);
/* FLOPs one MTP layer adds a token, which 6 x active parameters does not count. */
double model_llm_mtp_flops(const model_llm *m, double sequence_length);
/* Bytes data-parallel replicas exchange per step: gradients of what is trained (4 bytes a
 * parameter: fp32 for amp and for LoRA adapters, 2 for pure fp16/bf16) x 1.5 under ZeRO-3
 * (the weights are gathered again in the forward and backward passes: 3 transfers of B
 * instead of the all-reduce's 2). */
double model_llm_exchange_bytes(const model_llm *m, const model_llm_setup *s);

/* How one serving replica is laid out (decide_llm.c searches them): tp GPUs of one machine
 * split every layer (tensor parallel), or with the setup's attention_dp each run attention for
 * their own sequences and split the experts (all-to-alls), over a link of link_gbs each way; pp
 * machines each hold layers / pp of them (pipeline stages) over a network of network_gbs (GB/s)
 * between them. */
typedef struct model_llm_layout {
    int tp, pp;
    double link_gbs;            /* between the tp GPUs of a stage, each way (model_link_gbs) */
    int nvlink;                 /* the link is the board's (NVLink): its all-reduce latency */
    double network_gbs;         /* between the pp machines, GB/s (Gb/s / 8); unused at pp 1 */
} model_llm_layout;

/* What tensor and pipeline parallelism cost a serving replica, each stated with its source:
 * - an all-reduce's fixed latency: 10 us over the board's link (vLLM's custom all-reduce on
 *   H100s with NVLink, 9.1 to 10.1 us for 512 B on 2, 4 and 8 GPUs without CUDA graphs:
 *   sglang-allreduce-h100), 20 us over PCIe (NCCL over a PCIe switch, 19.4 to 22.3 us for 4 to
 *   16 KB on 4 GPUs: sglang-allreduce-pcie), either way with or without peer-to-peer (the
 *   link's bandwidth, model_link_gbs, carries that difference);
 * - a hop between pipeline stages on two machines: 54 us (NCCL's time for a 48 KB exchange
 *   over a RoCE network, the low end of the 54 to 64 us measured: vllm-roce-allreduce);
 * - activations cross both in 16-bit (2 bytes a value). */
#define MODEL_ALLREDUCE_LATENCY_NVLINK_S 10e-6
#define MODEL_ALLREDUCE_LATENCY_PCIE_S 20e-6
#define MODEL_PIPELINE_HOP_LATENCY_S 54e-6
#define MODEL_ACTIVATION_EXCHANGE_BYTES 2.0

/* What every layer of a forward pass costs besides reading its weights, whatever the batch: the
 * gaps between its kernels (launch, ramp-up and tail, each waiting on the one before), even
 * inside a CUDA graph.  Measured from decode at batch 1 with PyTorch compiled, on A100 80GB at
 * 70% of their bandwidth (the KB's decode share, which the one-GPU 7B reaches: 1,397 GB/s):
 * - a layer 23 us: Llama-2-7B at 104.9, 168.84, 254.02 and 328.43 tokens/s on 1, 2, 4 and 8
 *   GPUs (gpt-fast-tensor-parallel) leaves 2.8, 17.5, 29.2 and 38.2 us a layer over its weights
 *   at 1,427 GB/s a GPU and its all-reduces (model_llm_allreduce_s); their median, 23.3;
 * - a mixture-of-experts layer 72 us more, its router, top-k and the experts' gather: Mixtral
 *   8x7B at 78.75, 118.23 and 203.69 tokens/s on 2, 4 and 8 GPUs (gpt-fast-mixtral) leaves
 *   71.8, 80.2 and 39.8 us a layer more than a dense one; their median, 71.8.
 * Llama-2-70B on the same GPUs (21.32, 38.01 and 62.50 tokens/s on 2, 4 and 8) is left out of
 * both and predicted within 10% (tests/unit/test_model_llm.c). */
#define MODEL_LAYER_LATENCY_S 23e-6
#define MODEL_MOE_ROUTING_LATENCY_S 72e-6

/* Seconds a tensor-parallel group of tp GPUs spends in the all-reduces of `layers` layers for
 * `tokens` tokens: 2 a layer (after attention and after the feed-forward block, Megatron-LM's
 * split), each the fixed latency + 2 (tp - 1) / tp x tokens x hidden x 2 bytes / link_gbs (a
 * ring all-reduce's traffic per GPU).  0 for one GPU. */
double model_llm_allreduce_s(const model_llm *m, const model_llm_layout *l, double layers,
                             double tokens);
/* The fixed cost of an all-to-all of attention data-parallel x expert-parallel serving over the
 * board's link, whatever few tokens it carries: a dispatch 18.9 us and a combine 31.0 us
 * (TensorRT-LLM's NVLinkOneSided kernels with DeepSeek-V3's 7,168-wide tokens to 8 of 256
 * experts on 8 GPUs of a GB200 NVL72, BF16: 17.6 to 18.9 us and 31.0 to 32.7 us from 1 to 32
 * tokens a rank, their figure at 1: trtllm-moe-alltoall-nvlink).  The combine's reduction over
 * a token's experts makes it the slower.  Over PCIe no all-to-all is measured: the all-reduce's
 * MODEL_ALLREDUCE_LATENCY_PCIE_S each. */
#define MODEL_DISPATCH_LATENCY_NVLINK_S 18.9e-6
#define MODEL_COMBINE_LATENCY_NVLINK_S 31.0e-6
/* Seconds the all-to-alls of an attention data-parallel replica (tp GPUs, s->attention_dp)
 * take in `layers` mixture-of-experts layers, `tokens` tokens on each GPU: 2 a layer, the
 * dispatch of each token to the GPUs of its experts_active experts and the combine of their
 * outputs, each its fixed cost (MODEL_DISPATCH_LATENCY_NVLINK_S and
 * MODEL_COMBINE_LATENCY_NVLINK_S) + (tp - 1) / tp x tokens x experts_active x hidden x 2 bytes /
 * link_gbs (the copies bound for the other GPUs; DeepEP's in-machine dispatch and combine
 * reach 153 and 158 GB/s of an H800's ~160 GB/s NVLink, github.com/deepseek-ai/DeepEP's
 * README: the link's bandwidth).  0 for one GPU. */
double model_llm_alltoall_s(const model_llm *m, const model_llm_layout *l, double layers,
                            double tokens);
/* Seconds one hop between pipeline stages takes for `tokens` tokens' activations:
 * MODEL_PIPELINE_HOP_LATENCY_S + tokens x hidden x 2 bytes / network_gbs.  0 at pp 1. */
double model_llm_hop_s(const model_llm *m, const model_llm_layout *l, double tokens);
/* Seconds one layer of a forward pass costs besides its weights and FLOPs:
 * MODEL_LAYER_LATENCY_S, + MODEL_MOE_ROUTING_LATENCY_S for a mixture of experts. */
double model_llm_layer_latency_s(const model_llm *m);

/* One serving replica laid out as l.  The sequences in flight (s->sequences) move through the
 * pp stages in min(pp, sequences) micro-batches; a stage's step for one micro-batch reads its
 * layers' weights and the micro-batch's KV cache at bandwidth x decode_fraction and computes
 * its FLOPs (2 x active params a token, + its attention over the average context,
 * model_llm_decode_attention_flops: over the decode width, the absorbed form's for latent
 * attention) at tflops x mfu, over tp GPUs, whichever is slower, plus its
 * layers' fixed latency (model_llm_layer_latency_s: the floor a step never goes below), their
 * all-reduces (model_llm_allreduce_s) and one hop to the next stage (the last stage's hop takes
 * the sampled token back to the first).  A token of a sequence passes every stage, so a decode
 * step (one token of every sequence) takes
 *     step = pp x (stage + layers' latency + all-reduces + hop);
 * with fewer micro-batches than stages, the stages wait (the pipeline bubble).  Speculative
 * decoding (a draft model, multi-token prediction) is not counted: a step yields one token of
 * each sequence.  The time to the first token is the prompt's FLOPs, 2 x active params x
 * context + its attention (context x model_llm_attention_flops at context: the full square, as
 * training counts it), at tflops x mfu over tp GPUs, every layer's latency, its all-reduces
 * over every layer and pp - 1 hops of the prompt's activations.  While a
 * sequence generates its output, the prompts of the sequences that replace the others are
 * processed between its decode steps (continuous batching), so its time per output token is
 *     tpot = (output x step + sequences x prefill) / output
 * and the replica generates sequences / tpot tokens a second (Little's law).  Weights read per
 * step: every weight of a dense model; a mixture of experts reads its other weights once and
 * of its routed experts (model_llm_expert_params) at most what active params leave a sequence
 * of a micro-batch, at their formats' sizes (moe_rest above).  The KV cache read is each GPU's
 * share (model_llm_kv_share): a latent cache is read whole by every tensor-parallel GPU.
 * Attention data-parallel (s->attention_dp, tp GPUs, pp 1; SGLang's --enable-dp-attention,
 * TensorRT-LLM's enable_attention_dp): each GPU decodes its own sequences / tp, reading the
 * weights but the routed experts' whole, its share of the experts the replica's tokens touch
 * (the routed experts' parameters x min(1, experts_active / experts x sequences) / tp) and its
 * own sequences' KV cache; its FLOPs are its sequences'; the all-reduces give way to the
 * all-to-alls of every layer (model_llm_alltoall_s; every layer counted as a mixture-of-experts
 * one).  A prompt is prefilled on its own GPU, the replica's sequences / tp on each, so
 *     tpot = (output x step + sequences / tp x prefill) / output.
 * Two costs of that layout are left out, each measured where it does not hold here:
 * - a step waits for its slowest rank, so a rank's prompt holds up the others: 35% of the
 *   throughput lost under round-robin scheduling with prompts and outputs of varied lengths
 *   (DeepSeek-V3 on 8 GB200, 25,664 against 39,552 tokens/s: trtllm-adp-balance); a workload's
 *   requests are of one length, as the measured rows' are, and those ranks take their prompts
 *   together;
 * - the experts' uneven load: the busiest of 32 GPUs got 2.56 x the mean of the routed tokens
 *   (DeepSeek-R1, 1,024 a GPU and layer, without a load balancer: trtllm-large-ep), but a step
 *   whose every expert is read once (experts_active x sequences >= experts) is bound by those
 *   reads, the same on every GPU, not by the busiest one's tokens.
 * bytes_per_step and flops_per_step are then the replica's, all its GPUs together. */
typedef struct model_serving {
    double step_s, prefill_s, tpot_s, tokens_per_s;
    int bandwidth_bound;        /* the step is bound by memory bandwidth, not compute */
    double bytes_per_step, flops_per_step;   /* one micro-batch through every stage */
    double allreduce_s;         /* of a decode step, every stage */
    double alltoall_s;          /* of a decode step, attention data-parallel's (else 0) */
    double hop_s;               /* of a decode step, every hop */
    double floor_s;             /* of a decode step, every layer's latency */
    double prefill_flops;       /* of one prompt, attention included */
    double prefill_attention_flops;   /* of them, attention's */
} model_serving;
void model_llm_serving(const model_llm *m, const model_llm_setup *s, double context,
                       double output_tokens, const model_llm_layout *l, double tflops,
                       double bandwidth_gbs, double mfu, double decode_fraction,
                       model_serving *out);
/* model_llm_serving in two parts, for a search over the sequences in flight (a bisection
 * reads the model 20 to 40 times; the part that does not depend on them was 70% of each
 * reading, 13% of llm-fleet's report): what does not depend on them, once (f refers to m and
 * copies l), then the figures at in_flight sequences (s->sequences in model_llm_serving), the
 * same arithmetic in the same order. */
typedef struct model_serving_fixed {
    const model_llm *m;
    model_llm_layout l;
    double output_tokens, active;
    int attention_dp, tp, pp;
    double weight_bytes, rest_bytes, kv_bytes_per_sequence, kv_share, experts, rest;
    double experts_routed_share, flops_per_sequence, memory_rate, compute_rate, stage_floor;
    double prefill_flops, prefill_attention_flops, prefill_s;
} model_serving_fixed;
void model_llm_serving_fixed(const model_llm *m, const model_llm_setup *s, double context,
                             double output_tokens, const model_llm_layout *l, double tflops,
                             double bandwidth_gbs, double mfu, double decode_fraction,
                             model_serving_fixed *f);
void model_llm_serving_at(const model_serving_fixed *f, double in_flight, model_serving *out);

#endif
