/* model.h — the performance model: how much GPU memory one replica of a training job needs, how
 * fast a GPU runs it when no measurement exists, and how well several GPUs scale over their
 * interconnect.  Pure arithmetic over plain values: no KB, no Lua, no allocation. */
#ifndef GW_MODEL_H
#define GW_MODEL_H

#include "error.h"

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
/* Cards without GPU peer-to-peer over PCIe (GeForce RTX 40 and 50 series: NVIDIA disables it)
 * stage every transfer through host memory, which roughly halves the usable rate: a pair of
 * RTX 5090 on PCIe 5.0 x8 measured about 30 GB/s both ways without P2P against about 56 GB/s
 * with it (source article-rtx5090-p2p-driver in kb/data/sources.csv; 30/56 = 0.54, taken as
 * 0.5).  An assumption from one anecdotal measurement, calibrated against the KB's 2x RTX 4090
 * row (see model_calibration). */
#define MODEL_NO_P2P_FACTOR 0.5

typedef struct model_memory {
    double bytes_per_param;     /* weights + gradients + optimizer states */
    double weights_gb, gradients_gb, optimizer_gb, activations_gb, overhead_gb;
    double total_gb;            /* what one replica needs */
    int measured;               /* 1: total_gb is the workload's measured vram_gb */
} model_memory;

/* Bytes each parameter costs during training for a precision ("fp32", "tf32", "amp", "fp16",
 * "bf16") and optimizer ("adam", "adamw", "sgd" with momentum, "sgd-plain", "none" for
 * inference).  Splits them into weights / gradients / optimizer states.  GW_EDATA naming the
 * unknown word. */
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

/* Bytes all-reduced per step by params: 4 per parameter for fp32 and for amp (autocast keeps
 * fp32 parameters, so data-parallel training reduces fp32 gradients), 2 for pure fp16 / bf16. */
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
} model_calibration;
void model_calibration_add(model_calibration *c, double predicted, double measured);

/* Parameters of the models the KB's benchmarks train ("resnet50": 25.6e6, "bert_base_squad":
 * 110e6, as their papers give them); NaN for another. */
double model_benchmark_params(const char *benchmark);

#endif
