/* workload_rules.c — the rules that relate a workload's fields, each hung on the later of its
 * fields in the field table (workload_fields.c), the checks of a language model's whole
 * architecture, the catalog look-up of a named model, and what the rest of the program asks of a
 * workload read (a job or capacity, a language model, its ZeRO stage, its hours). */
#include "workload_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "precision.h"

/* ---- rules between fields ---- */

int workload_name_default_to_file(const char *file, workload *w, gw_error *err)
{
    (void)err;
    if (!w->name) {
        const char *base = strrchr(file, '/');
        w->name = gw_xstrdup(base ? base + 1 : file);
    }
    return GW_OK;
}

int workload_check_model_given(const char *file, workload *w, gw_error *err)
{
    if (isnan(w->params) && isnan(w->vram_gb) && !w->model_name)
        return gw_error_set(err, GW_EDATA,
                            "%s: model: missing (give model = \"llama-3-8b\", model = { params "
                            "= ... } or vram_gb = ...)",
                            file);
    if (!isnan(w->active_params) && !isnan(w->params) && w->active_params > w->params)
        return gw_error_set(err, GW_EDATA, "%s: model.active_params: %g is more than params (%g)",
                            file, w->active_params, w->params);
    return GW_OK;
}

int workload_is_llm(const workload *w)
{
    return w->model_name || w->model_id || !isnan(w->layers);
}

int workload_is_serving(const workload *w)
{
    return workload_is_llm(w) && w->task && !strcmp(w->task, "inference");
}

int workload_zero_stage(const workload *w)
{
    return w->sharding && !strncmp(w->sharding, "zero", 4) ? w->sharding[4] - '0' : 0;
}

static int is_for_training(const gw_precision *p)
{
    return !p->serving_only && !p->internal;
}

/* Quantized weights are for serving (precision.h's serving_only).  Another name for a row (int8,
 * int4) is kept as the row's own (w8a8, w4a16), so that the decision compares one name. */
int workload_check_precision(const char *file, workload *w, gw_error *err)
{
    const gw_precision *p = gw_precision_find(w->precision);
    if (!p || !p->serving_only || !strcmp(w->task, "inference")) {
        if (p && strcmp(p->name, w->precision)) {
            free(w->precision);
            w->precision = gw_xstrdup(p->name);
        }
        return GW_OK;
    }
    gw_buf training = GW_BUF_INIT;
    gw_precision_list(&training, is_for_training);
    gw_error_set(err, GW_EDATA,
                 "%s: model.precision: %s weights are for serving (task = \"inference\"); "
                 "training needs %s (QLoRA's 4-bit weights: finetune = { method = \"qlora\" })",
                 file, w->precision, buf_cstr(&training));
    buf_free(&training);
    return GW_EDATA;
}

int workload_check_finetune(const char *file, workload *w, gw_error *err)
{
    if (strcmp(w->finetune_method, "full") && strcmp(w->task, "finetune"))
        return gw_error_set(err, GW_EDATA,
                            "%s: finetune.method: %s is a way to fine-tune (set task = "
                            "\"finetune\")",
                            file, w->finetune_method);
    return GW_OK;
}

/* Fields only a language model's memory and speed model reads.  A precision that needs its own
 * tensor cores (fp8) is one: the image models' speed, scaled from measured rows, knows no
 * fallback for a GPU without them. */
static int check_llm_only_fields(const char *file, const workload *w, gw_error *err)
{
    const gw_precision *p = gw_precision_find(w->precision);
    const char *field = NULL, *space = "", *value = "";
    if (!isnan(w->sequence_length))
        field = "sequence_length";
    else if (strcmp(w->sharding, "none"))
        field = "sharding";
    else if (strcmp(w->activation_checkpointing, "none"))
        field = "activation_checkpointing";
    else if (w->fused_loss)
        field = "fused_loss";
    else if (w->gradient_accumulation > 1)
        field = "gradient_accumulation";
    else if (p && p->needs)
        field = "model.precision", space = " ", value = w->precision;
    if (!field)
        return GW_OK;
    return gw_error_set(err, GW_EDATA,
                        "%s: %s%s%s: only for a language model (model = \"llama-3-8b\", or its "
                        "layers, hidden, ...)",
                        file, field, space, value);
}

/* What only a language model has, and what a language model's task needs. */
int workload_check_language_model(const char *file, workload *w, gw_error *err)
{
    int llm = workload_is_llm(w), serving = !strcmp(w->task, "inference");
    if (!llm && strcmp(w->task, "train"))
        return gw_error_set(err, GW_EDATA,
                            "%s: model: task = \"%s\" needs a language model (model = "
                            "\"llama-3-8b\", or its layers, hidden, heads, kv_heads, head_dim and "
                            "vocab)",
                            file, w->task);
    if (!llm && check_llm_only_fields(file, w, err) != GW_OK)
        return GW_EDATA;
    if (serving && isnan(w->serve_context))
        return gw_error_set(err, GW_EDATA,
                            "%s: inference.context: missing (serving needs inference = { context "
                            "= PROMPT_TOKENS, output_tokens = N, concurrency = N })",
                            file);
    if (serving && isnan(w->serve_output))
        return gw_error_set(err, GW_EDATA,
                            "%s: inference.output_tokens: missing (tokens generated per request)",
                            file);
    if (!serving && (!isnan(w->serve_context) || !isnan(w->serve_output) ||
                     !isnan(w->target_tokens_per_s) || !isnan(w->target_tpot_ms) ||
                     !isnan(w->target_ttft_ms)))
        return gw_error_set(err, GW_EDATA, "%s: inference: only for task = \"inference\"",
                            file);
    if (serving && !isnan(w->target_tpot_ms) && !isnan(w->target_tokens_per_s) &&
        !(w->serve_arrival_rate > 0) &&   /* there concurrency is a cap, not the load */
        w->serve_concurrency * 1000 / w->target_tpot_ms > w->target_tokens_per_s * (1 + 1e-9))
        return gw_error_set(err, GW_EDATA,
                            "%s: inference: %g requests in flight at %g ms per token generate "
                            "%g tokens/s (%g x 1000 / %g), more than tokens_per_s = %g: a "
                            "demand of %g tokens/s from %g requests streams each at %g ms a "
                            "token (Little's law); raise tokens_per_s, or lower concurrency "
                            "or tpot_ms",
                            file, w->serve_concurrency, w->target_tpot_ms,
                            w->serve_concurrency * 1000 / w->target_tpot_ms,
                            w->serve_concurrency, w->target_tpot_ms, w->target_tokens_per_s,
                            w->target_tokens_per_s, w->serve_concurrency,
                            w->serve_concurrency * 1000 / w->target_tokens_per_s);
    if (serving && strcmp(w->sharding, "none"))
        return gw_error_set(err, GW_EDATA,
                            "%s: sharding: ZeRO shards training state; serving splits a model "
                            "too large for one GPU by tensor parallelism, which the decision "
                            "chooses",
                            file);
    return GW_OK;
}

/* One kind of work, and a benchmark wherever the work needs one (a language model's speed has
 * a stated model when no benchmark is named). */
int workload_check_work(const char *file, workload *w, gw_error *err)
{
    int llm = workload_is_llm(w);
    if (w->work_hours_on && isnan(w->work_hours))
        return workload_missing(err, file, "work.hours", workload_field_find("work.hours"));
    if ((!isnan(w->work_samples) + !isnan(w->work_tokens) + (w->work_hours_on != NULL)) > 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: work: give one of samples, tokens or hours_on with hours", file);
    if (!isnan(w->work_hours) && !w->work_hours_on)
        return gw_error_set(err, GW_EDATA, "%s: work.hours_on: missing (hours on which GPU?)",
                            file);
    if (!workload_is_job(w) && w->work_runs != 1)
        return gw_error_set(err, GW_EDATA,
                            "%s: work: runs of what? (give samples, tokens or hours_on with "
                            "hours)", file);
    if (!isnan(w->work_tokens) && !llm)
        return gw_error_set(err, GW_EDATA,
                            "%s: work.tokens: tokens are a language model's work (model = "
                            "\"llama-3-8b\"); give samples for another model",
                            file);
    if (llm && !isnan(w->work_samples))
        return gw_error_set(err, GW_EDATA,
                            "%s: work.samples: a language model's work is in tokens (work = { "
                            "tokens = ... })",
                            file);
    if (llm && w->work_hours_on)
        return gw_error_set(err, GW_EDATA,
                            "%s: work.hours_on: a language model's speed is modelled per GPU; "
                            "give its work in tokens (work = { tokens = ... })",
                            file);
    if (!llm && !w->benchmark && !w->work_hours_on)
        return gw_error_set(err, GW_EDATA,
                            "%s: benchmark: missing (name the KB's measured results, e.g. "
                            "\"resnet50\", or give work = { hours_on = GPU, hours = N })",
                            file);
    if (!isnan(w->work_samples) && !w->benchmark)
        return gw_error_set(err, GW_EDATA,
                            "%s: benchmark: missing (work.samples needs a benchmark that "
                            "measures samples per second)",
                            file);
    return GW_OK;
}

int workload_check_deadline(const char *file, workload *w, gw_error *err)
{
    if (isnan(w->deadline_days))
        return GW_OK;
    if (!workload_is_job(w))
        return gw_error_set(err, GW_EDATA,
                            "%s: deadline_days: a deadline needs work = { ... } to finish", file);
    if (w->deadline_days > w->horizon_months * COST_DAYS_PER_MONTH)
        return gw_error_set(err, GW_EDATA,
                            "%s: deadline_days: %g days is past the horizon (%g month%s = %g "
                            "days)",
                            file, w->deadline_days, w->horizon_months,
                            w->horizon_months == 1 ? "" : "s",
                            w->horizon_months * COST_DAYS_PER_MONTH);
    return GW_OK;
}

int workload_is_job(const workload *w)
{
    return !isnan(w->work_samples) || !isnan(w->work_tokens) || !isnan(w->work_hours);
}

double workload_hours_available(const workload *w)
{
    double days = !isnan(w->deadline_days) ? w->deadline_days
                                           : w->horizon_months * COST_DAYS_PER_MONTH;
    return w->hours_per_day * days;
}

/* The catalog's figures for the model the workload names, each where the workload gives none
 * of its own (run as model's rule, so that every later field is read knowing the model). */
int workload_resolve_model(const char *file, workload *w, gw_error *err)
{
    if (!w->model_name || !w->catalog)
        return GW_OK;
    kb_model m;
    int rc = kb_model_resolve(w->catalog, w->model_name, &m, err);
    if (rc != GW_OK) {
        gw_error_prefix(err, "%s: model", file);
        return GW_EDATA;
    }
    w->model_id = gw_xstrdup(m.id);
    if (kb_model_name_quantized(w->model_name)) {
        /* Nothing is wrong with naming a quantized copy: its architecture is the model's; its
         * format is said, and the precision the figures use is the workload's own. */
        gw_buf title = GW_BUF_INIT;
        buf_printf(&title, "%s (named as its quantized copy %s: the same architecture; the "
                           "figures use model.precision = \"%s\")",
                   m.name, w->model_name, w->precision ? w->precision : "amp");
        w->model_title = gw_xstrdup(buf_cstr(&title));
        buf_free(&title);
    } else {
        w->model_title = gw_xstrdup(m.name);
    }
    w->model_source = gw_xstrdup(m.source);
    const struct {
        double *slot, value;
    } take[] = {
        {&w->params, m.params},     {&w->active_params, m.active_params},
        {&w->layers, m.layers},     {&w->hidden, m.hidden},
        {&w->heads, m.heads},       {&w->kv_heads, m.kv_heads},
        {&w->head_dim, m.head_dim}, {&w->vocab, m.vocab},
        {&w->context, m.context},   {&w->ffn, m.ffn},
        {&w->experts, m.experts},   {&w->attention_head_dim, m.attention_head_dim},
        {&w->decode_attention_head_dim, m.decode_attention_head_dim},
        {&w->experts_active, m.experts_active},
    };
    for (size_t i = 0; i < sizeof take / sizeof take[0]; i++)
        if (isnan(*take[i].slot))
            *take[i].slot = take[i].value;
    kb_model_free(&m);
    return GW_OK;
}

/* Every candidate names a GPU of the catalog ("rtx-3090", "4x rtx-3090", "rent:2x a100-sxm4-80gb";
 * "rent:*" every one): a name that resolves to nothing, or to several, is a mistake in the
 * file, not a GPU to leave out in silence. */
int workload_check_candidates(const char *file, workload *w, gw_error *err)
{
    for (size_t i = 0; w->catalog && i < w->n_candidates; i++) {
        const char *name = w->candidates[i];
        int rent = !strncmp(name, "rent:", 5);
        if (rent && (!strcmp(name + 5, "*") || !name[5]))
            continue;   /* every GPU's offers */
        name += rent ? 5 : 0;
        char *id = NULL;
        int count;
        int rc = kb_gpu_resolve(w->catalog, name, &id, &count, err);
        free(id);
        if (rc == GW_ENOTFOUND) {
            gw_error_prefix(err, "%s: candidates[%zu]", file, i + 1);
            return err->code = GW_EDATA;
        }
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
}

/* What only the whole architecture can check, once every field is read: a language model given
 * field by field gives all of it; sequences and requests fit its context. */
int workload_check_architecture(const char *file, workload *w, gw_error *err)
{
    if (!workload_is_llm(w))
        return GW_OK;
    const struct {
        const char *name;
        double value;
    } need[] = {{"params", w->params},     {"layers", w->layers},     {"hidden", w->hidden},
                {"heads", w->heads},       {"kv_heads", w->kv_heads}, {"head_dim", w->head_dim},
                {"vocab", w->vocab}};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (isnan(need[i].value))
            return gw_error_set(err, GW_EDATA,
                                "%s: model.%s: missing (a language model given field by field "
                                "needs params, layers, hidden, heads, kv_heads, head_dim and "
                                "vocab; or name one of the catalog: model = \"llama-3-8b\")",
                                file, need[i].name);
    if (w->kv_heads > w->heads)
        return gw_error_set(err, GW_EDATA, "%s: model.kv_heads: %g is more than heads (%g)", file,
                            w->kv_heads, w->heads);
    if (isnan(w->sequence_length))
        w->sequence_length = !isnan(w->context) && w->context < 2048 ? w->context : 2048;
    if (!isnan(w->context) && w->sequence_length > w->context)
        return gw_error_set(err, GW_EDATA,
                            "%s: sequence_length: %g tokens is longer than the model's context "
                            "(%g)", file, w->sequence_length, w->context);
    if (!isnan(w->context) && !isnan(w->serve_context) &&
        w->serve_context + w->serve_output > w->context)
        return gw_error_set(err, GW_EDATA,
                            "%s: inference: context + output_tokens = %g tokens is longer than "
                            "the model's context (%g)",
                            file, w->serve_context + w->serve_output, w->context);
    return GW_OK;
}
