/* decide_calibrate.c — how far the speed models are from the KB's own measurements: the
 * data-parallel efficiency across counts, the specification scaling across GPUs, the parameter
 * scaling across the reference benchmarks' models, and how far the KB's measurements of one GPU
 * and count are from each other; with the reference benchmarks' work rate a step's compute is
 * estimated by where no benchmark gives one.  Read-only over the KB, so that the bands of
 * decide_speed.c and the method view can both call them. */
#include "decide_speed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/precision.h"

/* Whether two precisions are of one class (amp, fp16, bf16: half; fp32, tf32: full), as the
 * workload's benchmark rows are kept (decide.c). */
static int same_precision_class(const char *a, const char *b)
{
    return gw_precision_is_half(a) == gw_precision_is_half(b);
}

/* The end of the run of rows sharing rows[start]'s GPU, benchmark and metric: kb_benchmarks_find
 * sorts by them, so the calibrations read each run once instead of the whole table per row. */
static size_t run_end(const kb_benchmark *rows, size_t n, size_t start)
{
    size_t end = start + 1;
    while (end < n && decide_str_eq(rows[end].gpu, rows[start].gpu) &&
           decide_str_eq(rows[end].workload, rows[start].workload) &&
           decide_text_same(rows[end].metric, rows[start].metric))
        end++;
    return end;
}

/* The one-card results of rows[start..end) in precision's class, of source only when it is not
 * NULL, into values; how many. */
static size_t run_singles(const kb_benchmark *rows, size_t start, size_t end,
                          const char *precision, const char *source, double *values)
{
    size_t n = 0;
    for (size_t j = start; j < end; j++)
        if ((int)rows[j].gpu_count == 1 && rows[j].value > 0 &&
            same_precision_class(rows[j].precision, precision) &&
            (!source || decide_str_eq(rows[j].source, source)))
            values[n++] = rows[j].value;
    return n;
}

/* The model against every measured multi-GPU row of the KB that has a single-card row of the
 * same GPU, benchmark, metric and precision class: predicted efficiency (model_link_gbs and
 * model_scaling_efficiency, with the benchmark's own model size and the row's batch per GPU)
 * against measured (throughput / (count x the single-card median)).  Read-only, so that the
 * method view can call it. */
/* Only the benchmarks whose model's parameters are known give a predicted efficiency: the
 * reference rows (d->reference_rows), not every result of the KB. */
int decide_scaling_calibration(const decision *d, model_calibration *out, gw_error *err)
{
    (void)err;   /* the rows were read by decide_run */
    const kb_benchmark *rows = d->reference_rows;
    size_t n = d->n_reference_rows;
    memset(out, 0, sizeof *out);
    double *singles = gw_xmalloc((n + 1) * sizeof *singles);
    for (size_t start = 0, end; start < n; start = end) {
        end = run_end(rows, n, start);
        const kb_gpu *g = decide_gpu_find(d, rows[start].gpu);
        double params = model_benchmark_params(rows[start].workload);
        for (size_t i = start; i < end && g && !isnan(params); i++) {
            const kb_benchmark *r = &rows[i];
            int count = (int)r->gpu_count;
            if (count < 2 || !(r->value > 0))
                continue;
            /* The single-card results of the row's own source when it has some (one family of
             * measurements across counts), else of any source. */
            size_t n_single = run_singles(rows, start, end, r->precision, r->source, singles);
            if (!n_single)
                n_single = run_singles(rows, start, end, r->precision, NULL, singles);
            if (!n_single)
                continue;
            double single = decide_median(singles, n_single);
            double link = model_link_gbs(decide_gpu_board_link(g), g->nvlink_gbs, g->pcie_gen,
                                         g->pcie_lanes, decide_gpu_p2p(g));
            double batch = r->batch > 0 ? r->batch / count : MODEL_DEFAULT_BATCH;
            double predicted = model_scaling_efficiency(
                count, single, batch, model_gradient_bytes(params, r->precision), link);
            model_calibration_add(out, predicted, r->value / (count * single));
        }
    }
    free(singles);
    return GW_OK;
}

/* How far the specification scaling (model_scale_throughput) is from the KB's measurements:
 * for every pair of GPUs of one vendor measured on one card with the same reference benchmark
 * (model_benchmark_name) and metric in the workload's precision class, the ratio it predicts against the ratio measured (medians
 * of each GPU's results), as the percentage the prediction is off by (|predicted / measured -
 * 1|). */
/* One run's entry of the specification calibration: its first row, GPU and one-card median. */
typedef struct spec_entry {
    const kb_benchmark *row;
    const kb_gpu *gpu;
    double median;
} spec_entry;

/* By benchmark, metric and vendor: the groups whose members are compared. */
static int spec_group_cmp(const spec_entry *a, const spec_entry *b)
{
    int c = strcmp(a->row->workload ? a->row->workload : "",
                   b->row->workload ? b->row->workload : "");
    if (!c)
        c = strcmp(a->row->metric ? a->row->metric : "", b->row->metric ? b->row->metric : "");
    if (!c)
        c = strcmp(a->gpu->vendor ? a->gpu->vendor : "", b->gpu->vendor ? b->gpu->vendor : "");
    return c;
}

/* One entry per run of rows[0..n) (GPU, benchmark, metric) with one-card results in the
 * workload's precision class and a GPU the decision knows: the median of those results, into
 * e (room for n); returns how many. */
static size_t run_entries(const decision *d, const kb_benchmark *rows, size_t n, spec_entry *e)
{
    double *values = gw_xmalloc((n + 1) * sizeof *values);
    size_t ne = 0;
    for (size_t start = 0, end; start < n; start = end) {
        end = run_end(rows, n, start);
        size_t nv = run_singles(rows, start, end, d->w->precision, NULL, values);
        const kb_gpu *g = decide_gpu_find(d, rows[start].gpu);
        if (nv && g)
            e[ne++] = (spec_entry){&rows[start], g, decide_median(values, nv)};
    }
    free(values);
    return ne;
}

/* The groups, each in KB order (the order pairs are taken in: which one predicts which). */
static int cmp_spec_entry(const void *pa, const void *pb)
{
    const spec_entry *a = pa, *b = pb;
    int c = spec_group_cmp(a, b);
    return c ? c : (a->row > b->row) - (a->row < b->row);
}

int decide_reference_rows_read(decision *d, gw_error *err)
{
    int rc = GW_OK;
    for (size_t i = 0; rc == GW_OK && model_benchmark_name(i); i++) {
        kb_benchmark *some;
        size_t ns;
        rc = kb_benchmarks_find(d->k, NULL, model_benchmark_name(i), &some, &ns, err);
        if (rc == GW_OK && ns) {
            d->reference_rows = gw_xrealloc(d->reference_rows,
                                            (d->n_reference_rows + ns) * sizeof *some);
            memcpy(d->reference_rows + d->n_reference_rows, some, ns * sizeof *some);
            d->n_reference_rows += ns;
            free(some);   /* its strings now belong to d->reference_rows */
        } else if (rc == GW_OK) {
            free(some);
        }
    }
    return rc;
}

int decide_spec_calibration(const decision *d, model_calibration *out, gw_error *err)
{
    (void)err;   /* the rows were read by decide_run */
    const kb_benchmark *rows = d->reference_rows;
    size_t n = d->n_reference_rows;
    memset(out, 0, sizeof *out);
    spec_entry *e = gw_xmalloc((n + 1) * sizeof *e);
    size_t ne = run_entries(d, rows, n, e);
    /* Pairs are within one benchmark, metric and vendor: sorted so, each group is paired on
     * its own (a KB of a million results of as many benchmarks stays linear). */
    qsort(e, ne, sizeof *e, cmp_spec_entry);
    for (size_t a = 0; a < ne; a++)
        for (size_t b = a + 1; b < ne && !spec_group_cmp(&e[a], &e[b]); b++) {
            model_gpu_spec sx = decide_gpu_spec(d, e[a].gpu), sy = decide_gpu_spec(d, e[b].gpu);
            double predicted = model_scale_throughput(e[a].median, &sx, &sy);
            /* model_calibration_add works in fractions: |predicted/measured - 1| as one. */
            if (predicted > 0)
                model_calibration_add(out, predicted / e[b].median, 1);
        }
    free(e);
    return GW_OK;
}

/* The parameter scaling (model_scale_by_params) on the KB's own: each GPU measured on one card
 * with two reference benchmarks in the workload's precision class, one's median predicted from
 * the other's by their parameters, both ways. */
void decide_params_calibration(const decision *d, model_calibration *out)
{
    const kb_benchmark *rows = d->reference_rows;
    size_t n = d->n_reference_rows;
    memset(out, 0, sizeof *out);
    spec_entry *e = gw_xmalloc((n + 1) * sizeof *e);
    size_t ne = run_entries(d, rows, n, e);
    for (size_t a = 0; a < ne; a++)
        for (size_t b = 0; b < ne; b++) {
            if (e[a].gpu != e[b].gpu || decide_str_eq(e[a].row->workload, e[b].row->workload))
                continue;
            double predicted = model_scale_by_params(e[a].median,
                                                     model_benchmark_params(e[a].row->workload),
                                                     model_benchmark_params(e[b].row->workload));
            if (predicted > 0)
                model_calibration_add(out, predicted / e[b].median, 1);
        }
    free(e);
}

/* The KB's reproducibility on the workload's benchmark: for each GPU and count measured two or
 * more times (by several sources, or several rows of one), each result hidden in turn and
 * predicted by the median of the others, |predicted / measured - 1| (d->bench is in GPU order,
 * so each GPU's rows are one run).  A figure with no spread of its own gets a band this wide. */
void decide_repro_calibration(const decision *d, model_calibration *out)
{
    memset(out, 0, sizeof *out);
    double *others = gw_xmalloc((d->n_bench + 1) * sizeof *others);
    for (size_t start = 0, end; start < d->n_bench; start = end) {
        end = start + 1;
        while (end < d->n_bench && decide_str_eq(d->bench[end].gpu, d->bench[start].gpu))
            end++;
        for (size_t i = start; i < end; i++) {
            const kb_benchmark *r = &d->bench[i];
            size_t n = 0;
            for (size_t j = start; j < end && r->value > 0; j++)
                if (j != i && d->bench[j].gpu_count == r->gpu_count && d->bench[j].value > 0)
                    others[n++] = d->bench[j].value;
            if (n)
                model_calibration_add(out, decide_median(others, n) / r->value, 1);
        }
    }
    free(others);
}

double decide_work_rate(decision *d)
{
    if (d->work_rate_read)
        return d->work_rate;
    d->work_rate_read = 1;
    d->work_rate = NAN;
    const kb_benchmark *rows = d->reference_rows;
    size_t n = d->n_reference_rows;
    double *rates = gw_xmalloc((n + 1) * sizeof *rates);
    size_t nr = 0;
    for (size_t i = 0; i < n; i++) {
        const kb_gpu *g = decide_gpu_find(d, rows[i].gpu);
        double params = model_benchmark_params(rows[i].workload);
        double tflops = g ? decide_gpu_spec(d, g).tensor_tflops : NAN;
        if ((int)rows[i].gpu_count == 1 && rows[i].value > 0 && tflops > 0 && params > 0 &&
            same_precision_class(rows[i].precision, d->w->precision))
            rates[nr++] = rows[i].value * params / tflops;
    }
    d->work_rate_rows = (int)nr;
    if (nr)
        d->work_rate = decide_median(rates, nr);
    free(rates);
    return d->work_rate;
}
