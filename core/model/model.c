/* model.c — memory per replica, spec-scaled throughput and multi-GPU scaling efficiency.
 * Every constant is declared in model.h (or passed in, where a KB source gives it) and written
 * into the report's method section, so a reader can redo each figure by hand. */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#include "optimizer.h"
#include "precision.h"

static int is_trained_at(const gw_precision *p)
{
    return p->train_weight_bytes > 0;
}

/* GW_EDATA: "what: expected A, B or C, got "word"" (err may be NULL). */
static int unknown_word(gw_error *err, const char *what, const gw_buf *expected, const char *word)
{
    return gw_error_set(err, GW_EDATA, "%s: expected %s, got \"%s\"", what, buf_cstr(expected),
                        word);
}

int model_param_bytes(const char *precision, const char *optimizer, double *weights,
                      double *gradients, double *optimizer_states, gw_error *err)
{
    const gw_precision *p = gw_precision_find(precision ? precision : "fp32");
    const gw_optimizer *o = gw_optimizer_find(optimizer ? optimizer : "adam");
    int rc = GW_OK;
    gw_buf expected = GW_BUF_INIT;
    if (!p || !is_trained_at(p)) {
        gw_precision_list(&expected, is_trained_at);
        rc = unknown_word(err, "precision", &expected, precision);
    } else if (!o) {
        gw_optimizer_list(&expected);
        rc = unknown_word(err, "optimizer", &expected, optimizer);
    } else {
        /* Inference (optimizer "none") keeps the weights only. */
        *weights = p->train_weight_bytes;
        *gradients = o->trains ? p->train_gradient_bytes : 0;
        *optimizer_states = o->trains ? p->master_bytes + o->state_bytes : 0;
    }
    buf_free(&expected);
    return rc;
}

int model_memory_estimate(double params, const char *precision, const char *optimizer,
                          double activations_gb, model_memory *out, gw_error *err)
{
    double w, g, o;
    int rc = model_param_bytes(precision, optimizer, &w, &g, &o, err);
    if (rc != GW_OK)
        return rc;
    memset(out, 0, sizeof *out);
    out->bytes_per_param = w + g + o;
    out->weights_gb = params * w / 1e9;
    out->gradients_gb = params * g / 1e9;
    out->optimizer_gb = params * o / 1e9;
    out->activations_gb = activations_gb > 0 ? activations_gb : 0;
    double state_gb = out->weights_gb + out->gradients_gb + out->optimizer_gb + out->activations_gb;
    out->overhead_gb = state_gb * MODEL_FRAGMENTATION + MODEL_CONTEXT_GB;
    out->total_gb = state_gb + out->overhead_gb;
    return GW_OK;
}

void model_memory_measured(double vram_gb, model_memory *out)
{
    memset(out, 0, sizeof *out);
    out->overhead_gb = vram_gb * MODEL_FRAGMENTATION + MODEL_CONTEXT_GB;
    out->total_gb = vram_gb + out->overhead_gb;
    out->measured = 1;
}

double model_memory_per_card_split(const model_memory *m, int count)
{
    if (count <= 1)
        return m->total_gb;
    return (m->total_gb - MODEL_CONTEXT_GB) / count + MODEL_CONTEXT_GB;
}

double model_scale_throughput(double ref_value, const model_gpu_spec *ref,
                              const model_gpu_spec *target)
{
    if (!(ref->tensor_tflops > 0) || !(ref->bandwidth_gbs > 0) ||
        !(target->tensor_tflops > 0) || !(target->bandwidth_gbs > 0))
        return NAN;
    double compute_ratio = target->tensor_tflops / ref->tensor_tflops;
    double bandwidth_ratio = target->bandwidth_gbs / ref->bandwidth_gbs;
    return ref_value * sqrt(compute_ratio * bandwidth_ratio);
}

double model_spec_distance(const model_gpu_spec *a, const model_gpu_spec *b)
{
    if (!(a->tensor_tflops > 0) || !(b->tensor_tflops > 0) || !(a->bandwidth_gbs > 0) ||
        !(b->bandwidth_gbs > 0))
        return INFINITY;
    return fabs(log(a->tensor_tflops / b->tensor_tflops)) +
           fabs(log(a->bandwidth_gbs / b->bandwidth_gbs));
}

double model_link_gbs(int nvlink, double nvlink_gbs, double pcie_gen, double pcie_lanes, int p2p)
{
    if (nvlink && nvlink_gbs > 0)
        return nvlink_gbs / 2;
    double gen = pcie_gen > 0 ? pcie_gen : 4;
    double lanes = pcie_lanes > 0 ? pcie_lanes : 16;
    double gbs = MODEL_PCIE3_X16_GBS * pow(2.0, gen - 3) * lanes / 16;
    return p2p ? gbs : gbs * MODEL_NO_P2P_FACTOR;
}

double model_gradient_bytes(double params, const char *precision)
{
    if (!(params > 0))
        return 0;
    const gw_precision *p = gw_precision_find(precision);
    return params * (p ? p->reduce_bytes : 4);   /* an unknown format: fp32 gradients */
}

double model_training_gradient_bytes(double params, double vram_gb, const char *precision,
                                     const char *optimizer)
{
    double w, g, o;
    if (model_param_bytes(precision, optimizer, &w, &g, &o, NULL) != GW_OK || g == 0)
        return 0;   /* an unknown word (refused earlier, by size_model), or nothing trained */
    if (params > 0)
        return model_gradient_bytes(params, precision);
    if (vram_gb > 0)
        return model_gradient_bytes(vram_gb * 1e9 / (w + g + o), precision);
    return 0;
}

double model_allreduce_seconds_hosts(int per_host, int hosts, double gradient_bytes,
                                     double link_gbs, double network_gbs)
{
    if (per_host < 1 || hosts < 1 || per_host * hosts <= 1 || !(gradient_bytes > 0))
        return 0;
    double seconds = 0;
    if (per_host > 1)
        seconds += link_gbs > 0 ? 2.0 * (per_host - 1) / per_host * gradient_bytes /
                                      (link_gbs * 1e9)
                                : INFINITY;
    if (hosts > 1)
        seconds += network_gbs > 0 ? 2.0 * (hosts - 1) / hosts * gradient_bytes /
                                         (network_gbs * 1e9)
                                   : INFINITY;
    return seconds;
}

double model_allreduce_seconds(int count, double gradient_bytes, double link_gbs)
{
    if (count <= 1 || !(gradient_bytes > 0) || !(link_gbs > 0))
        return 0;
    return model_allreduce_seconds_hosts(count, 1, gradient_bytes, link_gbs, 0);
}

double model_scaling_efficiency_hosts(int per_host, int hosts, double single_throughput,
                                      double batch, double gradient_bytes, double link_gbs,
                                      double network_gbs)
{
    if (per_host * hosts <= 1 || !(gradient_bytes > 0))
        return 1;
    if (!(batch > 0))
        batch = MODEL_DEFAULT_BATCH;
    if (!(single_throughput > 0))
        return 1 / (1 + MODEL_SYNC_OVERHEAD);
    double compute_seconds = batch / single_throughput;
    double allreduce =
        model_allreduce_seconds_hosts(per_host, hosts, gradient_bytes, link_gbs, network_gbs);
    return compute_seconds / (compute_seconds * (1 + MODEL_SYNC_OVERHEAD) + allreduce);
}

double model_scaling_efficiency(int count, double single_throughput, double batch,
                                double gradient_bytes, double link_gbs)
{
    if (count > 1 && gradient_bytes > 0 && !(link_gbs > 0))   /* no link figure: sync only */
        return 1 / (1 + MODEL_SYNC_OVERHEAD);
    return model_scaling_efficiency_hosts(count, 1, single_throughput, batch, gradient_bytes,
                                          link_gbs, 0);
}

void model_calibration_add(model_calibration *c, double predicted, double measured)
{
    double error_pp = fabs(predicted - measured) * 100;
    c->rows++;
    c->sum_error_pp += error_pp;
    c->mean_error_pp = c->sum_error_pp / c->rows;
    if (error_pp > c->max_error_pp)
        c->max_error_pp = error_pp;
    if (c->rows > c->errors_cap) {
        c->errors_cap = c->errors_cap ? 2 * c->errors_cap : 16;
        c->errors_pp = gw_xrealloc(c->errors_pp, (size_t)c->errors_cap * sizeof *c->errors_pp);
    }
    c->errors_pp[c->rows - 1] = error_pp;
}

void model_calibration_free(model_calibration *c)
{
    free(c->errors_pp);
    memset(c, 0, sizeof *c);
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double model_calibration_percentile_pp(const model_calibration *c, double p)
{
    if (c->rows < 1)
        return 0;
    double *sorted = gw_xmalloc((size_t)c->rows * sizeof *sorted);
    memcpy(sorted, c->errors_pp, (size_t)c->rows * sizeof *sorted);
    qsort(sorted, (size_t)c->rows, sizeof *sorted, cmp_double);
    int rank = (int)ceil(p * c->rows - 1e-9);
    double value = sorted[rank < 1 ? 0 : rank > c->rows ? c->rows - 1 : rank - 1];
    free(sorted);
    return value;
}

double model_calibration_band(const model_calibration *c)
{
    return model_calibration_percentile_pp(c, MODEL_BAND_PERCENTILE) / 100;
}

int model_is_benchmark_model(double benchmark_params, double params)
{
    if (!(benchmark_params > 0) || !(params > 0))
        return 1;
    return fabs(params / benchmark_params - 1) <= MODEL_SAME_MODEL_TOLERANCE;
}

double model_scale_by_params(double value, double benchmark_params, double params)
{
    if (!(benchmark_params > 0) || !(params > 0))
        return NAN;
    return value * benchmark_params / params;
}

/* ResNet-50: He et al. 2015; BERT-base: Devlin et al. 2018. */
static const struct { const char *name; double params; } benchmark_models[] = {
    {"resnet50", 25.6e6},
    {"bert_base_squad", 110e6},
};

const char *model_benchmark_name(size_t i)
{
    return i < sizeof benchmark_models / sizeof *benchmark_models ? benchmark_models[i].name
                                                                  : NULL;
}

double model_benchmark_params(const char *benchmark)
{
    for (size_t i = 0; benchmark && model_benchmark_name(i); i++)
        if (!strcmp(benchmark, benchmark_models[i].name))
            return benchmark_models[i].params;
    return NAN;
}
