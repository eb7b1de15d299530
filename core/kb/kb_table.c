/* kb_table.c — each KB table described once: its columns' names, types, rules, units, labels
 * and text forms, and where the row structs keep them (for the assumption table also the ids it
 * may hold, with each one's unit and range).  From that description: the row structs' init,
 * release and filling from SQL, the column lists of SQL statements, and the rules a value and a
 * row must keep (kb_write.c checks every write against them). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/check.h"
#include "kb.h"
#include "kb_csv.h"
#include "kb_layout.h"
#include "kb_sql.h"
#include "kb_table.h"
#include "base/units.h"

/* ---- tables: one description drives validation, storage, reads, import and export -------- */

static const char *const source_kinds[] = {"datasheet", "whitepaper", "article", "benchmark",
                                           "price-list", "dataset", "plugin", "user", NULL};
static const char *const sparsity_set[] = {"2:4", NULL};
/* A part's scale-up link between its GPUs: NVIDIA's NVLink, AMD's Infinity Fabric, the RoCE
 * (RDMA over Converged Ethernet) ports built into Intel Gaudi, or none. */
static const char *const link_kinds[] = {"nvlink", "infinity-fabric", "roce", "none", NULL};
static const char *const precision_set[] = {"fp32", "fp16", "amp", "bf16", "tf32", "fp8",
                                            "int8", "fp64", "int4", "fp4", NULL};
/* How a fine-tune row trained (schema version 12): every weight, or LoRA's or QLoRA's
 * adapters; a pre-training row has none; a serving row none, or "speculative" where several
 * tokens were proposed and verified a step (speculative decoding, multi-token prediction). */
static const char *const tune_methods[] = {"full", "lora", "qlora", "speculative", NULL};
static const char *const recompute_set[] = {"none", "selective", "full", NULL};
/* A training row's data-parallel sharding, in a workload's words (workload_fields.c). */
static const char *const sharding_set[] = {"none", "zero1", "zero2", "zero3", NULL};
static const char *const interconnect_set[] = {"pcie", "nvlink", "infiniband", "ethernet",
                                               NULL};
static const char *const price_kinds[] = {"new", "used", "cloud", NULL};
static const char *const price_units[] = {"card", "hour", NULL};
static const char *const claim_status[] = {"wrong", "disputed", NULL};
/* What kind of seller a cloud provider is: a hyperscaler (AWS, Azure, GCP, Oracle, ...), a
 * specialised GPU cloud running its own or leased data centres, a marketplace or community
 * cloud where hosts list their own machines, or a decentralised network of providers. */
static const char *const provider_kinds[] = {"hyperscaler", "specialised", "marketplace",
                                             "decentralised", NULL};
static const char *const host_kinds[] = {"desktop", "workstation", "server", NULL};
/* The formats a precision support row may name: the compute formats of tensor (or matrix) cores,
 * and the weight-only formats that need kernels of their own (FP8 or FP4 weights dequantized to
 * 16 bits in the matrix product).  model/precision.c names each of its rows' compute format and
 * kernel by one of these (test_precision.c holds them to it); fp32 needs no row. */
static const char *const support_precisions[] = {"fp16", "bf16", "tf32", "fp8", "int8", "fp4",
                                                 "fp8-w8a16", "fp4-w4a16", NULL};

/* A column without unit, label or text form; S: the struct field that keeps it. */
#define S(type, f) ((ptrdiff_t)offsetof(type, f))
#define COL(name, type, flags, set, off) {name, type, flags, set, "", NULL, KB_FORM_PLAIN, off}
/* A column with a datasheet row: its unit, label and text form. */
#define ROW(name, type, flags, set, unit, label, form, off) \
    {name, type, flags, set, unit, label, form, off}
static const kb_column source_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_source, id)),
    COL("title", KB_TEXT, KB_REQUIRED, NULL, S(kb_source, title)),
    COL("publisher", KB_TEXT, 0, NULL, S(kb_source, publisher)),
    COL("url", KB_TEXT, 0, NULL, S(kb_source, url)),
    COL("retrieved", KB_TEXT, KB_DATE, NULL, S(kb_source, retrieved)),
    COL("kind", KB_TEXT, 0, source_kinds, S(kb_source, kind)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_source, note)),
};
/* Tensor figures are dense: a GPU with 2:4 sparsity does twice as much on sparse weights. */
static const kb_column gpu_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_gpu, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_gpu, name)),
    ROW("vendor", KB_TEXT, KB_REQUIRED, NULL, "", "Vendor", KB_FORM_PLAIN, S(kb_gpu, vendor)),
    ROW("architecture", KB_TEXT, 0, NULL, "", "Architecture", KB_FORM_PLAIN,
        S(kb_gpu, architecture)),
    ROW("form_factor", KB_TEXT, 0, NULL, "", "Form factor", KB_FORM_PLAIN,
        S(kb_gpu, form_factor)),
    ROW("memory_gb", KB_NUMBER, KB_POSITIVE, NULL, "GB", "Memory", KB_FORM_MEMORY,
        S(kb_gpu, memory_gb)),
    COL("memory_type", KB_TEXT, 0, NULL, S(kb_gpu, memory_type)),
    ROW("memory_bandwidth_gbs", KB_NUMBER, KB_POSITIVE, NULL, "GB/s", "Memory bandwidth",
        KB_FORM_PLAIN, S(kb_gpu, memory_bandwidth_gbs)),
    ROW("tdp_w", KB_NUMBER, KB_POSITIVE | KB_LOWER_BETTER, NULL, "W", "TDP", KB_FORM_PLAIN,
        S(kb_gpu, tdp_w)),
    ROW("fp32_tflops", KB_NUMBER, 0, NULL, "TFLOPS", "FP32", KB_FORM_PLAIN,
        S(kb_gpu, fp32_tflops)),
    ROW("tf32_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "TF32 tensor", KB_FORM_DENSE,
        S(kb_gpu, tf32_tflops)),
    ROW("fp16_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "FP16 tensor", KB_FORM_DENSE,
        S(kb_gpu, fp16_tflops)),
    ROW("bf16_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "BF16 tensor", KB_FORM_DENSE,
        S(kb_gpu, bf16_tflops)),
    ROW("fp8_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "FP8 tensor", KB_FORM_DENSE,
        S(kb_gpu, fp8_tflops)),
    ROW("int8_tops", KB_NUMBER, 0, NULL, "TOPS dense", "INT8 tensor", KB_FORM_DENSE,
        S(kb_gpu, int8_tops)),
    ROW("sparsity", KB_TEXT, 0, sparsity_set, "", "Sparsity", KB_FORM_SPARSITY,
        S(kb_gpu, sparsity)),
    ROW("pcie_gen", KB_NUMBER, 0, NULL, "", "PCIe generation", KB_FORM_PCIE,
        S(kb_gpu, pcie_gen)),
    COL("pcie_lanes", KB_NUMBER, 0, NULL, S(kb_gpu, pcie_lanes)),
    /* The scale-up link's bandwidth, both directions together, of the kind link_kind names
     * (the name is from before schema version 6, when only NVLink was recorded). */
    ROW("nvlink_gbs", KB_NUMBER, 0, NULL, "GB/s", "GPU link bandwidth", KB_FORM_NONE_IF_ZERO,
        S(kb_gpu, nvlink_gbs)),
    ROW("mig_instances", KB_NUMBER, 0, NULL, "", "MIG instances", KB_FORM_NONE_IF_ZERO,
        S(kb_gpu, mig_instances)),
    ROW("ecc", KB_FLAG, 0, NULL, "", "ECC memory", KB_FORM_YES_NO, S(kb_gpu, ecc)),
    ROW("release_date", KB_TEXT, KB_DATE, NULL, "", "Released", KB_FORM_PLAIN,
        S(kb_gpu, release_date)),
    ROW("launch_price_usd", KB_NUMBER, KB_LOWER_BETTER, NULL, "USD", "Launch price",
        KB_FORM_MONEY, S(kb_gpu, launch_price_usd)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_gpu, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_gpu, note)),
    /* Added by schema version 6, so after the note (ALTER TABLE appends). */
    ROW("fp4_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "FP4 tensor", KB_FORM_DENSE,
        S(kb_gpu, fp4_tflops)),
    ROW("link_kind", KB_TEXT, 0, link_kinds, "", "GPU link", KB_FORM_PLAIN,
        S(kb_gpu, link_kind)),
    ROW("restriction", KB_TEXT, 0, NULL, "", "Export rules", KB_FORM_PLAIN,
        S(kb_gpu, restriction)),
    /* Added by schema version 10: when it stopped being sold new, where a source says so, and
     * whether peer-to-peer between its GPUs over PCIe works (NVIDIA's driver disables it on
     * GeForce cards). */
    ROW("discontinued", KB_TEXT, KB_DATE, NULL, "", "Discontinued", KB_FORM_PLAIN,
        S(kb_gpu, discontinued)),
    ROW("p2p", KB_FLAG, KB_INT, NULL, "", "Peer-to-peer over PCIe", KB_FORM_YES_NO,
        S(kb_gpu, p2p)),
    /* Added by schema version 12: the memory total the driver reports (nvidia-smi's MiB, what
     * a need is compared with), and the source publishing that dump. */
    ROW("memory_mib", KB_NUMBER, KB_POSITIVE, NULL, "MiB", "Memory reported",
        KB_FORM_PLAIN, S(kb_gpu, memory_mib)),
    COL("memory_mib_source", KB_TEXT, KB_CITES | KB_META, NULL, S(kb_gpu, memory_mib_source)),
};
static const kb_column alias_cols[] = {
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_KEY | KB_NAMES_GPU, NULL, -1),
    COL("alias", KB_TEXT, KB_REQUIRED | KB_KEY, NULL, -1),
};
static const kb_column rate_cols[] = {
    COL("currency", KB_TEXT, KB_REQUIRED | KB_KEY | KB_CURRENCY, NULL, S(kb_rate, currency)),
    COL("per_usd", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_rate, per_usd)),
    COL("as_of", KB_TEXT, KB_REQUIRED | KB_KEY | KB_DATE, NULL, S(kb_rate, as_of)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_rate, source)),
};
static const kb_column benchmark_cols[] = {
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_NAMES_GPU, NULL, S(kb_benchmark, gpu)),
    COL("gpu_count", KB_NUMBER, KB_POSITIVE | KB_GPU_COUNT | KB_DEFAULT_ONE, NULL,
        S(kb_benchmark, gpu_count)),
    COL("workload", KB_TEXT, KB_REQUIRED, NULL, S(kb_benchmark, workload)),
    COL("metric", KB_TEXT, KB_REQUIRED, NULL, S(kb_benchmark, metric)),
    COL("value", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_benchmark, value)),
    COL("unit", KB_TEXT, KB_REQUIRED, NULL, S(kb_benchmark, unit)),
    COL("precision", KB_TEXT, 0, precision_set, S(kb_benchmark, precision)),
    COL("batch", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, batch)),
    COL("framework", KB_TEXT, 0, NULL, S(kb_benchmark, framework)),
    COL("interconnect", KB_TEXT, 0, interconnect_set, S(kb_benchmark, interconnect)),
    COL("power_w", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, power_w)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_benchmark, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_benchmark, note)),
    /* Added by schema version 12, so after the note (ALTER TABLE appends): a language model's
     * scenario.  A row's workload is then a model of the catalog and its metric
     * train_throughput (pre-training; fine-tuning with a method), inference_offline,
     * inference_server or inference_stream (one request's own output tokens/s); its value the
     * tokens/s of all gpu_count GPUs (trained, or output when serving), its batch the
     * sequences per GPU a step (training) or the requests in flight (serving). */
    COL("method", KB_TEXT, 0, tune_methods, S(kb_benchmark, method)),
    /* training: tokens per sequence; serving: mean prompt tokens per request */
    COL("input_tokens", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, input_tokens)),
    /* serving: mean output tokens per request */
    COL("output_tokens", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, output_tokens)),
    /* Added by schema version 13, after version 12's: the parallel layout a language model's
     * row ran, as its source states it (empty: not stated), whole numbers of 1 or more: the
     * GPUs a layer's matrices are split over, the pipeline's stages, the GPUs a sequence is
     * split over, the GPUs the experts are spread over, and each GPU's virtual stages
     * (interleaved pipeline scheduling) */
    COL("tensor_parallel", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, tensor_parallel)),
    COL("pipeline_parallel", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, pipeline_parallel)),
    COL("context_parallel", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, context_parallel)),
    COL("expert_parallel", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, expert_parallel)),
    COL("virtual_pipeline", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, virtual_pipeline)),
    /* training: sequences a micro-batch (of one data-parallel replica) and a step (of all
     * gpu_count GPUs), which give the micro-batches a step fills the pipeline with */
    COL("micro_batch", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, micro_batch)),
    COL("global_batch", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, global_batch)),
    /* Added by schema version 15: the activation recomputation a training row ran with, as its
     * source states it (empty: not stated): none; selective (some modules' activations, as
     * Megatron's recompute_granularity "selective"); full (whole layers recomputed in the
     * backward pass), over recompute_layers of the model's layers where only some are (all
     * pipeline stages together; empty: every layer) */
    COL("recompute", KB_TEXT, 0, recompute_set, S(kb_benchmark, recompute)),
    COL("recompute_layers", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, recompute_layers)),
    /* Added by schema version 16: what each pipeline stage of a training row held, in
     * Megatron's pipeline_model_parallel_layout notation as its recipe states it (kb_layout.h:
     * stages separated by '|', E embedding, t transformer layer, m MTP layer, L loss and output
     * head, X*N and (...)*N repeats; virtual chunks in order, chunk i on physical stage i mod
     * pipeline_parallel); empty: the layers split evenly.  benchmark_rule holds its stages to
     * pipeline_parallel x virtual_pipeline. */
    COL("pipeline_layout", KB_TEXT, KB_PIPELINE_LAYOUT, NULL, S(kb_benchmark, pipeline_layout)),
    /* Added by schema version 17: how a training row's data-parallel replicas shard the model's
     * state, as its source states it, in a workload's words: none; zero1 (optimizer state, as
     * Megatron's distributed optimizer); zero2 (and gradients); zero3 (and parameters: PyTorch
     * FSDP, Megatron FSDP); empty: not stated */
    COL("sharding", KB_TEXT, 0, sharding_set, S(kb_benchmark, sharding)),
};
static const kb_column price_cols[] = {
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_NAMES_GPU | KB_KEY, NULL, S(kb_price, gpu)),
    COL("kind", KB_TEXT, KB_REQUIRED | KB_KEY, price_kinds, S(kb_price, kind)),
    COL("amount", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_price, amount)),
    COL("currency", KB_TEXT, KB_REQUIRED | KB_CURRENCY, NULL, S(kb_price, currency)),
    COL("unit", KB_TEXT, KB_REQUIRED, price_units, S(kb_price, unit)),
    COL("gpu_count", KB_NUMBER, KB_POSITIVE | KB_GPU_COUNT | KB_DEFAULT_ONE | KB_KEY, NULL,
        S(kb_price, gpu_count)),
    COL("region", KB_TEXT, KB_KEY, NULL, S(kb_price, region)),
    COL("provider", KB_TEXT, KB_KEY, NULL, S(kb_price, provider)),
    COL("instance", KB_TEXT, KB_KEY, NULL, S(kb_price, instance)),
    COL("spot", KB_FLAG, KB_DEFAULT_ZERO | KB_INT | KB_KEY, NULL, S(kb_price, spot)),
    COL("as_of", KB_TEXT, KB_REQUIRED | KB_DATE | KB_KEY, NULL, S(kb_price, as_of)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META | KB_KEY, NULL, S(kb_price, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_price, note)),
    /* Added by schema version 4, so after the note (ALTER TABLE appends).  Its kind of
     * evidence: one of the KB's price_kind rows, whose ids, ranks and meanings are the one
     * description of the kinds (kb/schema.sql); a write names them when it refuses a value. */
    COL("quality", KB_TEXT, KB_NAMES_PRICE_KIND, NULL, S(kb_price, quality)),
    COL("gpu_fraction", KB_NUMBER, KB_POSITIVE | KB_DEFAULT_ONE | KB_KEY, NULL,
        S(kb_price, gpu_fraction)),
    COL("min_billing_hours", KB_NUMBER, 0, NULL, S(kb_price, min_billing_hours)),
    /* Added by schema version 5. */
    COL("system", KB_TEXT, KB_NAMES_SYSTEM, NULL, S(kb_price, system)),
    COL("network_gbps", KB_NUMBER, KB_POSITIVE, NULL, S(kb_price, network_gbps)),
    /* Added by schema version 19: a rental's second billing step (an AWS Capacity Block's
     * 7-day steps after 14 days), kb/schema.sql says how a bill counts them. */
    COL("long_billing_after_hours", KB_NUMBER, KB_POSITIVE, NULL,
        S(kb_price, long_billing_after_hours)),
    COL("long_billing_hours", KB_NUMBER, KB_POSITIVE, NULL, S(kb_price, long_billing_hours)),
};
/* A machine an SXM or OAM module is sold in: its power is the whole machine's (cards, host,
 * fans) at most, its network all its ports to other machines together. */
static const kb_column system_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_system, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_system, name)),
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_NAMES_GPU, NULL, S(kb_system, gpu)),
    COL("gpu_count", KB_NUMBER, KB_REQUIRED | KB_POSITIVE | KB_GPU_COUNT, NULL,
        S(kb_system, gpu_count)),
    COL("power_w", KB_NUMBER, KB_POSITIVE, NULL, S(kb_system, power_w)),
    COL("network_gbps", KB_NUMBER, KB_POSITIVE, NULL, S(kb_system, network_gbps)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_system, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_system, note)),
};
/* A machine around cards bought one by one (schema version 11): max_cards the double-width
 * cards its board and power supplies take, power_w its own draw at the wall under load besides
 * those cards (CPUs, memory, fans, the supplies' losses), price what it costs without cards. */
static const kb_column host_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_host, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_host, name)),
    COL("kind", KB_TEXT, KB_REQUIRED, host_kinds, S(kb_host, kind)),
    COL("max_cards", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_host, max_cards)),
    COL("power_w", KB_NUMBER, KB_REQUIRED, NULL, S(kb_host, power_w)),
    COL("price", KB_NUMBER, KB_REQUIRED, NULL, S(kb_host, price)),
    COL("currency", KB_TEXT, KB_REQUIRED | KB_CURRENCY, NULL, S(kb_host, currency)),
    COL("quality", KB_TEXT, KB_REQUIRED | KB_NAMES_PRICE_KIND, NULL, S(kb_host, quality)),
    COL("as_of", KB_TEXT, KB_REQUIRED | KB_DATE, NULL, S(kb_host, as_of)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_host, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_host, note)),
};
/* Which architectures compute which format (schema version 12), and where training at that
 * format was measured against BF16 there, the speed-up: the figure used and its band, the
 * lowest and the highest published measurement, each citing its own source. */
static const kb_column precision_support_cols[] = {
    COL("precision", KB_TEXT, KB_REQUIRED | KB_KEY, support_precisions,
        S(kb_precision_support, precision)),
    COL("architecture", KB_TEXT, KB_REQUIRED | KB_KEY, NULL,
        S(kb_precision_support, architecture)),
    COL("train_speedup", KB_NUMBER, KB_POSITIVE, NULL, S(kb_precision_support, train_speedup)),
    COL("train_speedup_low", KB_NUMBER, KB_POSITIVE, NULL,
        S(kb_precision_support, train_speedup_low)),
    COL("low_source", KB_TEXT, KB_CITES | KB_META, NULL, S(kb_precision_support, low_source)),
    COL("train_speedup_high", KB_NUMBER, KB_POSITIVE, NULL,
        S(kb_precision_support, train_speedup_high)),
    COL("high_source", KB_TEXT, KB_CITES | KB_META, NULL, S(kb_precision_support, high_source)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL,
        S(kb_precision_support, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_precision_support, note)),
};
static const kb_column claim_cols[] = {
    COL("subject", KB_TEXT, KB_REQUIRED | KB_KEY, NULL, S(kb_claim, subject)),
    COL("claim", KB_TEXT, KB_REQUIRED | KB_KEY, NULL, S(kb_claim, claim)),
    COL("status", KB_TEXT, KB_REQUIRED, claim_status, S(kb_claim, status)),
    COL("correction", KB_TEXT, 0, NULL, S(kb_claim, correction)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META | KB_KEY, NULL, S(kb_claim, source)),
    COL("correction_source", KB_TEXT, KB_CITES | KB_META, NULL,
        S(kb_claim, correction_source)),
};
static const kb_column assumption_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_assumption, id)),
    COL("value", KB_NUMBER, KB_REQUIRED, NULL, S(kb_assumption, value)),
    COL("unit", KB_TEXT, KB_REQUIRED, NULL, S(kb_assumption, unit)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_assumption, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_assumption, note)),
};
/* A cloud provider: its kind, whether it publishes an SLA (and where), the regions it serves
 * (";"-separated areas: US, EU, CN, APAC, ..., each described in kb_area.c). */
static const kb_column provider_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_provider, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_provider, name)),
    COL("kind", KB_TEXT, 0, provider_kinds, S(kb_provider, kind)),   /* NULL unknown */
    COL("sla", KB_FLAG, KB_REQUIRED | KB_INT, NULL, S(kb_provider, sla)),
    COL("sla_url", KB_TEXT, 0, NULL, S(kb_provider, sla_url)),
    COL("regions", KB_TEXT, 0, NULL, S(kb_provider, regions)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_provider, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_provider, note)),
};
/* The model catalog's architecture facts (kb.h's kb_model says what each means). */
#define MODEL_NUMBER(name, flags) COL(#name, KB_NUMBER, flags, NULL, S(kb_model, name))
static const kb_column model_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_model, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_model, name)),
    COL("family", KB_TEXT, 0, NULL, S(kb_model, family)),
    MODEL_NUMBER(params, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(active_params, KB_POSITIVE),
    MODEL_NUMBER(layers, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(hidden, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(heads, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(kv_heads, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(head_dim, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(ffn, KB_POSITIVE),
    MODEL_NUMBER(vocab, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(context, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(experts, KB_POSITIVE),
    MODEL_NUMBER(experts_active, KB_POSITIVE),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_model, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_model, note)),
    COL("hf_repo", KB_TEXT, 0, NULL, S(kb_model, hf_repo)),   /* "owner/name"; NULL: none */
    /* Added by schema version 16: the mean width of a head's q.k and scores.v where it is not
     * head_dim (multi-head latent attention); NULL: head_dim */
    MODEL_NUMBER(attention_head_dim, KB_POSITIVE),
    /* Added by schema version 16: the mean width of a decode step's q.k and scores.v a head
     * where it is not head_dim (latent attention decoded in its absorbed form); NULL: head_dim */
    MODEL_NUMBER(decode_attention_head_dim, KB_POSITIVE),
};
#undef MODEL_NUMBER
#undef ROW
#undef COL
#undef S

/* The rows the assumption table may hold, each id described once: the unit its value is written
 * in (NULL: money, in any currency code, which the decision converts through the rates) and the
 * range that makes sense.  The three that stand in for workload fields take the range of that
 * field (workload.c); an all-reduce rate above the link's 32 GB/s each way, or a throttled build
 * keeping less than a tenth of its speed, would be a typo. */
static const struct {
    const char *id, *unit;
    double lo, hi;
    const char *range;   /* as messages put it */
} assumed[KB_ASSUMED_COUNT] = {
    [KB_ASSUMED_HOST_COST] = {"host_cost", NULL, 0, 1e12, "an amount from 0"},
    [KB_ASSUMED_HOST_POWER] = {"host_power_w", "W", 0, 1e5, "from 0 to 100000 W"},
    [KB_ASSUMED_RESALE] = {"resale_fraction", "fraction", 0, 1, "a fraction from 0 to 1"},
    [KB_ASSUMED_HOST_NETWORK] = {"host_network_gbps", "Gb/s", 0.1, 3200,
                                 "from 0.1 to 3200 Gb/s"},
    [KB_ASSUMED_POOR_COOLING] = {"poor_cooling_factor", "fraction", 0.1, 1,
                                 "a fraction from 0.1 to 1"},
    [KB_ASSUMED_LLM_MFU] = {"llm_mfu", "fraction", 0.01, 1, "a fraction from 0.01 to 1"},
    [KB_ASSUMED_DECODE_BANDWIDTH] = {"decode_bandwidth_fraction", "fraction", 0.01, 1,
                                     "a fraction from 0.01 to 1"},
    /* A "from" price's high end is at least its figure; ten times it would be a typo. */
    [KB_ASSUMED_FROM_HIGH] = {"from_high_factor", "ratio", 1, 10, "a ratio from 1 to 10"},
    /* Support a year above the hardware's whole price would be a typo. */
    [KB_ASSUMED_SUPPORT] = {"support_fraction", "fraction", 0, 1, "a fraction from 0 to 1"},
    [KB_ASSUMED_COLOCATION] = {"colocation_per_kw_month", NULL, 0, 1e6, "an amount from 0"},
};

const char *kb_assumed_id(kb_assumed which)
{
    return (int)which >= 0 && which < KB_ASSUMED_COUNT ? assumed[which].id : NULL;
}

/* With the validation below. */
static int assumption_rule(const kb_value *row, gw_error *err);
static int price_rule(const kb_value *row, gw_error *err);
static int model_rule(const kb_value *row, gw_error *err);
static int benchmark_rule(const kb_value *row, gw_error *err);
static int precision_support_rule(const kb_value *row, gw_error *err);

/* A row's identity is its KB_KEY columns: what an import, a plugin's records and `kb export`
 * -> edit -> `kb import` find a stored row by, so that a row with a stored row's identity
 * updates it (kb_write.c store_row) instead of adding a second one.
 *   sources, gpus, systems, assumptions, models, providers, hosts: the id.
 *   aliases: the GPU and the alias (the whole row).  rates: the currency and the date.
 *   precision support: the precision and the architecture.
 *   benchmarks: none: a row is itself, an edited one is added beside the old one (`kb import
 *     --replace SOURCE` replaces a source's results).  The schema indexes a result by GPU,
 *     workload, metric and value only: finding a set-up without its value scans every result
 *     of that GPU and workload, which made an import of 50,000 results quadratic (over 600 s).
 *   prices: the GPU, its condition (kind: new, used or cloud; spot), count and fraction,
 *     region, provider, instance, date (as_of) and source; the amount, currency, unit, note,
 *     quality and the rest are what an edit changes.
 *   claims: the subject, the claim and its source; the status and correction change.
 * Prices and claims share identities (the last field below is 1): a price range is entered as its
 * low and its high end, two rows of one identity, which an import matches one to one. */
#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))
const kb_table kb_tables[KB_TABLES] = {
    {"sources.csv", "source", "sources", source_cols, NCOLS(source_cols), NULL, 0},
    {"gpus.csv", "gpu", "gpus", gpu_cols, NCOLS(gpu_cols), NULL, 0},
    {"aliases.csv", "gpu_alias", "aliases", alias_cols, NCOLS(alias_cols), NULL, 0},
    {"rates.csv", "rate", "rates", rate_cols, NCOLS(rate_cols), NULL, 0},
    {"systems.csv", "system", "systems", system_cols, NCOLS(system_cols), NULL, 0},
    {"benchmarks.csv", "benchmark", "benchmarks", benchmark_cols, NCOLS(benchmark_cols),
     benchmark_rule, 0},
    {"prices.csv", "price", "prices", price_cols, NCOLS(price_cols), price_rule, 1},
    {"claims.csv", "claim", "claims", claim_cols, NCOLS(claim_cols), NULL, 1},
    {"assumptions.csv", "assumption", "assumptions", assumption_cols, NCOLS(assumption_cols),
     assumption_rule, 0},
    {"models.csv", "model", "models", model_cols, NCOLS(model_cols), model_rule, 0},
    {"providers.csv", "provider", "providers", provider_cols, NCOLS(provider_cols), NULL, 0},
    {"hosts.csv", "host", "hosts", host_cols, NCOLS(host_cols), NULL, 0},
    {"precision_support.csv", "precision_support", "precision support", precision_support_cols,
     NCOLS(precision_support_cols), precision_support_rule, 0},
};
const kb_column *kb_table_columns(int table, size_t *n)
{
    if (table < 0 || table >= KB_TABLES) {
        *n = 0;
        return NULL;
    }
    *n = (size_t)kb_tables[table].ncols;
    return kb_tables[table].cols;
}

const kb_column *kb_table_column(int table, const char *name)
{
    size_t n;
    const kb_column *cols = kb_table_columns(table, &n);
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(cols[i].name, name) == 0)
            return &cols[i];
    return NULL;
}

const char *kb_table_name(int table)
{
    return table >= 0 && table < KB_TABLES ? kb_tables[table].what : NULL;
}

/* ---- row structs: read and written through the columns' offsets -------------------------- */

static void *field_at(const kb_column *c, void *row)
{
    return (char *)row + c->offset;
}

const char *kb_column_text(const kb_column *c, const void *row)
{
    if (c->offset < 0 || c->type != KB_TEXT)
        return NULL;
    return *(char *const *)field_at(c, (void *)row);
}

double kb_column_number(const kb_column *c, const void *row)
{
    if (c->offset < 0 || c->type == KB_TEXT)
        return NAN;
    if (c->flags & KB_INT) {
        int i = *(const int *)field_at(c, (void *)row);
        return i < 0 ? NAN : i;
    }
    return *(const double *)field_at(c, (void *)row);
}

/* An int field keeps an unknown as -1 (every int column is a flag or a count).  A file changed
 * outside gpuwise can hold any number: an int out of range reads as unknown, and a GPU count is
 * read whole and within 1..KB_GPU_COUNT_MAX (kb check names such a row), so no later
 * conversion to int can overflow. */
static void column_set_number(const kb_column *c, void *row, double d)
{
    if ((c->flags & KB_GPU_COUNT) && !isnan(d))
        d = d < 1 ? 1 : d > KB_GPU_COUNT_MAX ? KB_GPU_COUNT_MAX : floor(d);
    if (c->flags & KB_INT)
        *(int *)field_at(c, row) =
            (int)gw_double_to_ll(d, INT_MIN, INT_MAX, c->flags & KB_DEFAULT_ZERO ? 0 : -1);
    else
        *(double *)field_at(c, row) = d;
}

void kb_values_clear(kb_value *row, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        row[i].text = NULL;
        row[i].number = NAN;
    }
}

/* Fills obj's fields from columns first.. of a row (columns in table order). */
void kb_row_from_sql(const kb_table *t, sqlite3_stmt *st, int first, void *obj)
{
    for (int i = 0; i < t->ncols; i++) {
        const kb_column *c = &t->cols[i];
        if (c->offset < 0)
            continue;
        if (c->type == KB_TEXT)
            *(char **)field_at(c, obj) = kb_sql_text(st, first + i);
        else
            column_set_number(c, obj, kb_sql_number(st, first + i));
    }
}

/* Frees what struct_from_row copied into obj. */
void kb_row_free_strings(const kb_table *t, void *obj)
{
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].offset >= 0 && t->cols[i].type == KB_TEXT)
            free(*(char **)field_at(&t->cols[i], obj));
}

/* Every string NULL, every number NaN (an int flag 0). */
static void struct_init(const kb_table *t, void *obj, size_t size)
{
    memset(obj, 0, size);
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].offset >= 0 && t->cols[i].type != KB_TEXT)
            column_set_number(&t->cols[i], obj, NAN);
}

/* ---- struct release: the table descriptions name every string a row struct owns ---------- */

/* A row struct's free: its strings by the table's description, then every field zeroed.  The
 * list form frees n rows' strings and the array. */
#define ROW_FREE(name, type, table)                                                            \
    void name(type *row)                                                                        \
    {                                                                                          \
        if (!row)                                                                              \
            return;                                                                            \
        kb_row_free_strings(&kb_tables[table], row);                                           \
        memset(row, 0, sizeof *row);                                                           \
    }
#define ROWS_FREE(name, type, table)                                                           \
    void name(type *rows, size_t n)                                                            \
    {                                                                                          \
        for (size_t i = 0; i < n; i++)                                                         \
            kb_row_free_strings(&kb_tables[table], &rows[i]);                                  \
        free(rows);                                                                            \
    }

ROW_FREE(kb_source_free, kb_source, KB_SOURCES)
ROW_FREE(kb_benchmark_free, kb_benchmark, KB_BENCHMARKS)
ROW_FREE(kb_price_free, kb_price, KB_PRICES)
ROW_FREE(kb_rate_free, kb_rate, KB_RATES)
ROW_FREE(kb_claim_free, kb_claim, KB_CLAIMS)
ROW_FREE(kb_assumption_free, kb_assumption, KB_ASSUMPTIONS)
ROW_FREE(kb_system_free, kb_system, KB_SYSTEMS)
ROW_FREE(kb_model_free, kb_model, KB_MODELS)
ROW_FREE(kb_provider_free, kb_provider, KB_PROVIDERS)
ROW_FREE(kb_host_free, kb_host, KB_HOSTS)
ROW_FREE(kb_precision_support_free, kb_precision_support, KB_PRECISION_SUPPORT)

void kb_gpu_init(kb_gpu *g)
{
    struct_init(&kb_tables[KB_GPUS], g, sizeof *g);
}

/* A GPU's numbers are NaN when unknown, not 0: it is freed back to kb_gpu_init's state. */
void kb_gpu_free(kb_gpu *g)
{
    if (!g)
        return;
    kb_row_free_strings(&kb_tables[KB_GPUS], g);
    kb_gpu_init(g);
}

ROWS_FREE(kb_gpus_free, kb_gpu, KB_GPUS)
ROWS_FREE(kb_benchmarks_free, kb_benchmark, KB_BENCHMARKS)
ROWS_FREE(kb_prices_free, kb_price, KB_PRICES)
ROWS_FREE(kb_sources_free, kb_source, KB_SOURCES)
ROWS_FREE(kb_systems_free, kb_system, KB_SYSTEMS)
ROWS_FREE(kb_models_free, kb_model, KB_MODELS)
ROWS_FREE(kb_hosts_free, kb_host, KB_HOSTS)
ROWS_FREE(kb_claims_free, kb_claim, KB_CLAIMS)
ROWS_FREE(kb_providers_free, kb_provider, KB_PROVIDERS)
ROWS_FREE(kb_precision_supports_free, kb_precision_support, KB_PRECISION_SUPPORT)
#undef ROW_FREE
#undef ROWS_FREE

void kb_sql_column_list(gw_buf *b, const kb_table *t, const char *prefix)
{
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            buf_puts(b, ", ");
        buf_puts(b, prefix);
        buf_puts(b, t->cols[i].name);
    }
}

/* "SELECT extra, c1, c2 ... FROM t" */
void kb_sql_select(gw_buf *b, const kb_table *t, const char *extra)
{
    buf_puts(b, "SELECT ");
    if (extra)
        buf_printf(b, "%s, ", extra);
    kb_sql_column_list(b, t, "");
    buf_printf(b, " FROM %s", t->sql);
}

static int valid_slug(const char *s)
{
    if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || strchr("._-", *s)))
            return 0;
    return 1;
}

static void join_set(char *out, size_t outsz, const char *const *set)
{
    size_t used = 0;
    out[0] = '\0';
    for (; *set && used < outsz; set++) {
        int n = snprintf(out + used, outsz - used, "%s%s", used ? ", " : "", *set);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* ---- validation: one set of rules for CSV rows, struct writes and plugin records ---------- */

kb_problem kb_value_check(const kb_column *c, const kb_value *v)
{
    if (c->type == KB_TEXT) {
        const char *s = v->text;
        if (!s || !*s)
            return c->flags & KB_REQUIRED ? KB_MISSING : KB_FINE;
        size_t n = strlen(s), at;
        if (n > KB_TEXT_MAX)
            return KB_TOO_LONG;
        if (!kb_text_valid(s, n, &at))
            return KB_NOT_TEXT;
        if ((c->flags & KB_ID) && !valid_slug(s))
            return KB_NOT_ID;
        if ((c->flags & KB_DATE) && !gw_valid_date(s))
            return KB_NOT_DATE;
        if ((c->flags & KB_CURRENCY) && !units_is_currency(s))
            return KB_NOT_CURRENCY;
        if ((c->flags & KB_PIPELINE_LAYOUT) && kb_layout_parse(s, NULL, NULL, 0) != 0)
            return KB_NOT_LAYOUT;
        if (c->allowed && !kb_in_set(s, c->allowed))
            return KB_NOT_ALLOWED;
        return KB_FINE;
    }
    double d = v->number;
    if (isnan(d))
        return c->flags & KB_REQUIRED ? KB_MISSING : KB_FINE;
    if (!isfinite(d))
        return KB_NOT_FINITE;
    if (c->type == KB_FLAG && d != 0 && d != 1)
        return KB_NOT_FLAG;
    if (d < 0)
        return KB_NEGATIVE;
    if ((c->flags & KB_POSITIVE) && d == 0)
        return KB_NOT_POSITIVE;
    if ((c->flags & KB_GPU_COUNT) && (d != floor(d) || d < 1 || d > KB_GPU_COUNT_MAX))
        return KB_NOT_GPU_COUNT;
    return KB_FINE;
}

void kb_problem_text(kb_problem p, const kb_column *c, const kb_value *v, char *out,
                     size_t outsz)
{
    const char *s = v->text ? v->text : "";
    char set[256];
    switch (p) {
    case KB_FINE: snprintf(out, outsz, "fine"); break;
    case KB_MISSING: snprintf(out, outsz, "missing (required)"); break;
    case KB_TOO_LONG: snprintf(out, outsz, "longer than %d bytes", KB_TEXT_MAX); break;
    case KB_NOT_ID:
        snprintf(out, outsz, "'%.80s' is not an id (lower-case letters, digits, '.', '_' and "
                 "'-')", s);
        break;
    case KB_NOT_DATE:
        snprintf(out, outsz, "'%.80s' is not a date (YYYY-MM or YYYY-MM-DD)", s);
        break;
    case KB_NOT_CURRENCY:
        snprintf(out, outsz, "'%.80s' is not a currency code (three upper-case letters, e.g. "
                 "USD)", s);
        break;
    case KB_NOT_ALLOWED:
        join_set(set, sizeof set, c->allowed);
        snprintf(out, outsz, "'%.80s' is not one of: %s", s, set);
        break;
    case KB_NOT_FINITE: snprintf(out, outsz, "not a finite number"); break;
    case KB_NOT_FLAG: snprintf(out, outsz, "must be 0 or 1"); break;
    case KB_NEGATIVE: snprintf(out, outsz, "must not be negative"); break;
    case KB_NOT_POSITIVE: snprintf(out, outsz, "must be greater than 0"); break;
    case KB_NOT_GPU_COUNT:
        snprintf(out, outsz, "expected a whole number of GPUs from 1 to %d, got %.15g",
                 KB_GPU_COUNT_MAX, v->number);
        break;
    case KB_NOT_LAYOUT: {
        char why[300];
        kb_layout_parse(s, NULL, why, sizeof why);
        snprintf(out, outsz, "'%.80s' is not a pipeline stage layout: %s", s, why);
        break;
    }
    case KB_NOT_TEXT: {
        size_t at = 0;
        kb_text_valid(s, strlen(s), &at);
        unsigned char b = (unsigned char)s[at];
        if (b < 0x20 || b == 0x7F)
            snprintf(out, outsz, "a control character (U+%04X) at byte %zu; only tab and newline "
                     "may be in a value", b, at + 1);
        else
            snprintf(out, outsz, "not UTF-8 text (byte 0x%02X at byte %zu)", b, at + 1);
        break;
    }
    }
}

/* An assumption row names a figure gpuwise assumes, in that figure's unit, within its range. */
static int assumption_rule(const kb_value *row, gw_error *err)
{
    const char *id = row[0].text, *unit = row[2].text;   /* assumption_cols' order */
    double value = row[1].number;
    const char *ids[KB_ASSUMED_COUNT + 1] = {NULL};
    int which = -1;
    for (int i = 0; i < KB_ASSUMED_COUNT; i++) {
        ids[i] = assumed[i].id;
        if (kb_streq(id, assumed[i].id))
            which = i;
    }
    if (which < 0) {
        const char *near = gw_closest(id, ids);
        char set[256];
        if (near)
            return gw_error_set(err, GW_EDATA, "id: '%.80s' is not a figure gpuwise assumes "
                                "(did you mean %s?)", id, near);
        join_set(set, sizeof set, ids);
        return gw_error_set(err, GW_EDATA, "id: '%.80s' is not a figure gpuwise assumes (one "
                            "of: %s)", id, set);
    }
    const char *want = assumed[which].unit;
    if (want ? !kb_streq(unit, want) : !units_is_currency(unit))
        return gw_error_set(err, GW_EDATA, "unit: %s is written in %s, not '%.80s'", id,
                            want ? want : "a currency code such as CNY or USD (it is money)",
                            unit);
    if (value < assumed[which].lo || value > assumed[which].hi)
        return gw_error_set(err, GW_EDATA, "value: %s must be %s, not %g", id,
                            assumed[which].range, value);
    return GW_OK;
}

/* The value of a table's column, by name, in a row in that table's column order. */
static const kb_value *row_value(const kb_column *cols, int n, const kb_value *row,
                                 const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cols[i].name, name))
            return &row[i];
    return NULL;   /* not reached: the names the rules below ask for are their tables' */
}

/* A second billing step (kb/schema.sql version 19): both of its columns or neither, for a
 * rental, and no shorter than the first step it follows. */
static int long_billing_rule(int cloud, double min_hours, double after, double step,
                             gw_error *err)
{
    if (isnan(after) && isnan(step))
        return GW_OK;
    if (!cloud)
        return gw_error_set(err, GW_EDATA, "long_billing_hours: only for a cloud offer");
    if (isnan(after) || isnan(step))
        return gw_error_set(err, GW_EDATA, "long_billing_after_hours and long_billing_hours: "
                            "both or neither (%s is missing)",
                            isnan(after) ? "long_billing_after_hours" : "long_billing_hours");
    double first = isnan(min_hours) ? 0 : min_hours;
    if (step < first)
        return gw_error_set(err, GW_EDATA, "long_billing_hours: at least min_billing_hours "
                            "(%g), not %g", first, step);
    if (after < first)
        return gw_error_set(err, GW_EDATA, "long_billing_after_hours: at least "
                            "min_billing_hours (%g), not %g", first, after);
    return GW_OK;
}

/* A fraction of a card, a minimum billing and a network to other instances are terms of a
 * rental: a card bought is bought whole, and a slice is at most the whole card.  A system is
 * something bought. */
static int price_rule(const kb_value *row, gw_error *err)
{
#define PRICE(name) row_value(price_cols, NCOLS(price_cols), row, name)
    const char *kind = PRICE("kind")->text;
    double fraction = PRICE("gpu_fraction")->number;
    double min_hours = PRICE("min_billing_hours")->number;
    const char *system = PRICE("system")->text;
    double network = PRICE("network_gbps")->number;
    double long_after = PRICE("long_billing_after_hours")->number;
    double long_hours = PRICE("long_billing_hours")->number;
#undef PRICE
    int cloud = kb_streq(kind, "cloud");
    if (fraction > 1)
        return gw_error_set(err, GW_EDATA, "gpu_fraction: at most 1 (a whole card), not %g",
                            fraction);
    if (fraction < 1 && !cloud)
        return gw_error_set(err, GW_EDATA, "gpu_fraction: only a cloud offer rents part of a "
                            "card; a %s card is bought whole", kind ? kind : "?");
    if (!isnan(min_hours) && !cloud)
        return gw_error_set(err, GW_EDATA, "min_billing_hours: only for a cloud offer");
    if (!isnan(network) && !cloud)
        return gw_error_set(err, GW_EDATA, "network_gbps: only for a cloud offer (a system's "
                            "network is in the system table)");
    if (system && system[0] && cloud)
        return gw_error_set(err, GW_EDATA, "system: only a purchase (new or used) buys a "
                            "system; a cloud offer names its instance");
    return long_billing_rule(cloud, min_hours, long_after, long_hours, err);
}

/* A model's figures that bound each other: the schema's CHECKs, said as the CSV says them. */
static int model_rule(const kb_value *row, gw_error *err)
{
#define MODEL(name) row_value(model_cols, NCOLS(model_cols), row, name)->number
    double params = MODEL("params"), active = MODEL("active_params");
    double heads = MODEL("heads"), kv_heads = MODEL("kv_heads");
    double experts = MODEL("experts"), experts_active = MODEL("experts_active");
#undef MODEL
    if (active > params)
        return gw_error_set(err, GW_EDATA, "active_params: at most params (%g), not %g", params,
                            active);
    if (kv_heads > heads)
        return gw_error_set(err, GW_EDATA, "kv_heads: at most heads (%g), not %g", heads,
                            kv_heads);
    if (isnan(experts) != isnan(experts_active))
        return gw_error_set(err, GW_EDATA, "experts and experts_active: give both (a mixture of "
                                           "experts) or neither");
    if (experts_active > experts)
        return gw_error_set(err, GW_EDATA, "experts_active: at most experts (%g), not %g",
                            experts, experts_active);
    return GW_OK;
}

/* A stated pipeline layout names one stage for each of the pipeline_parallel x virtual_pipeline
 * chunks its row ran (virtual_pipeline unstated: 1); its notation is kb_value_check's. */
static int benchmark_rule(const kb_value *row, gw_error *err)
{
#define BENCHMARK(name) row_value(benchmark_cols, NCOLS(benchmark_cols), row, name)
    const char *layout = BENCHMARK("pipeline_layout")->text;
    double pp = BENCHMARK("pipeline_parallel")->number;
    double vp = BENCHMARK("virtual_pipeline")->number;
#undef BENCHMARK
    if (!layout || !*layout)
        return GW_OK;
    if (isnan(pp))
        return gw_error_set(err, GW_EDATA, "pipeline_layout: a layout needs the row's "
                            "pipeline_parallel");
    kb_layout *l = gw_xmalloc(sizeof *l);
    int stages = kb_layout_parse(layout, l, NULL, 0) == 0 ? l->stages : -1;
    free(l);
    double chunks = pp * (isnan(vp) ? 1 : vp);
    if (stages >= 0 && stages != chunks)
        return gw_error_set(err, GW_EDATA, "pipeline_layout: '%.80s' names %d stages; "
                            "pipeline_parallel %g x virtual_pipeline %g run %g", layout, stages,
                            pp, isnan(vp) ? 1 : vp, chunks);
    return GW_OK;
}

/* A measured training speed-up is its figure and its band with the source of each end, all five
 * or none; the band holds the figure. */
static int precision_support_rule(const kb_value *row, gw_error *err)
{
#define SUPPORT(name) \
    row_value(precision_support_cols, NCOLS(precision_support_cols), row, name)
    double figure = SUPPORT("train_speedup")->number;
    double low = SUPPORT("train_speedup_low")->number;
    double high = SUPPORT("train_speedup_high")->number;
    const char *low_source = SUPPORT("low_source")->text;
    const char *high_source = SUPPORT("high_source")->text;
#undef SUPPORT
    int given = !isnan(figure) + !isnan(low) + !isnan(high) + (low_source && *low_source) +
                (high_source && *high_source);
    if (given != 0 && given != 5)
        return gw_error_set(err, GW_EDATA, "train_speedup: give it with train_speedup_low, "
                            "low_source, train_speedup_high and high_source (a speed-up over "
                            "BF16 and the published measurements around it), or none of them");
    if (given && !(low <= figure && figure <= high))
        return gw_error_set(err, GW_EDATA, "train_speedup: %g is outside its band %g to %g",
                            figure, low, high);
    return GW_OK;
}
