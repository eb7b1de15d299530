/* model.h — the performance model: how much GPU memory one replica of a training job needs, how
 * fast a GPU runs it when no measurement exists, and how well several GPUs scale over their
 * interconnect.  Pure arithmetic over plain values: no KB, no Lua, no allocation. */
#ifndef GW_MODEL_H
#define GW_MODEL_H

#include "error.h"

/* Fixed costs every replica pays besides weights, gradients, optimizer states and activations:
 * the CUDA context and library workspaces, and allocator fragmentation. */
#define MODEL_CONTEXT_GB 1.0
#define MODEL_FRAGMENTATION 0.10

/* Multi-GPU constants (see model_scaling_efficiency).  The PCIe bandwidth and the heat
 * throttling of consumer builds come from a KB source and are the caller's (decide.c's table of
 * assumed figures). */
#define MODEL_SYNC_OVERHEAD 0.03        /* per-step cost of synchronising replicas */
#define MODEL_DEFAULT_BATCH 256.0       /* samples per GPU per step when the workload says none */
#define MODEL_PARALLEL_EFFICIENCY_NVLINK 0.85
#define MODEL_PARALLEL_EFFICIENCY_PCIE 0.55

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
/* The same shape for a measured peak (vram_gb): nothing is added. */
void model_memory_measured(double vram_gb, model_memory *out);

/* Memory each card must hold when the model is split over count cards (model parallelism):
 * the per-replica need divided by count, plus the context on every card. */
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

/* Effective all-reduce bandwidth (GB/s) of count cards: NVLink when nvlink_gbs > 0 and the
 * cards are linked (SXM boards), otherwise PCIe of that generation (pcie4_gbs for PCIe 4.0 x16,
 * doubling per generation; 4 when pcie_gen is unknown), whose bandwidth the cards share once
 * there are more than two (lanes split, one root complex). */
double model_link_gbs(int count, int nvlink, double nvlink_gbs, double pcie_gen,
                      double pcie4_gbs);

/* Bytes all-reduced per step: 4 per parameter for fp32 and for amp (autocast keeps fp32
 * parameters, so data-parallel training reduces fp32 gradients), 2 for pure fp16 / bf16. */
double model_gradient_bytes(double params, const char *precision);

/* Ring all-reduce time of one step: 2(n-1)/n x gradient bytes / link bandwidth. */
double model_allreduce_seconds(int count, double gradient_bytes, double link_gbs);

/* Data-parallel efficiency of count cards: compute / (compute x (1 + sync) + all-reduce), where
 * compute = batch / single-card throughput.  gradient_bytes <= 0 (unknown) counts only the
 * synchronisation cost.  1 for one card. */
double model_scaling_efficiency(int count, double single_throughput, double batch,
                                double gradient_bytes, double link_gbs);

#endif
