/* kb_models.c — the catalog of language models: its rows, and a model's name as people write it
 * (an id, a name, a Hugging Face repo, with or without a variant's or a quantized copy's words)
 * resolved to its row, or to the nearest names for the message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "base/check.h"
#include "kb.h"
#include "kb_sql.h"
#include "kb_table.h"

int kb_models_list(kb *k, kb_model **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_MODELS], NULL);
    buf_puts(&sql, " ORDER BY id");
    int rc = kb_select_rows(k, &kb_tables[KB_MODELS], buf_cstr(&sql), NULL, 0,
                            sizeof(kb_model), 0, NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

/* Trailing words of a model's name that leave its architecture as it is: the release's variants
 * (Llama-3.1-8B-Instruct, gemma-3-27b-it, Llama-2-7b-chat-hf, Mixtral-8x7B-v0.1) and the
 * formats of quantized copies (-FP8, -AWQ, -GPTQ-Int4, -bnb-4bit, -GGUF).  A version that
 * changes it (Mistral-7B-v0.3: another vocabulary, no sliding window) is not among them, so it
 * names no row and gets the nearest. */
static const char *const model_variant_words[] = {"instruct", "it", "chat", "hf", "base", "pt",
                                                  "thinking", "v0.1", NULL};
static const char *const model_quantized_words[] = {
    "fp8", "fp4", "mxfp4", "nvfp4", "int8", "int4", "w8a8", "w8a16", "w4a16", "awq", "gptq",
    "gguf", "bnb", "4bit", "8bit", "nf4", "mlx", "exl2", "dynamic", "quantized", "unsloth", NULL};

static int model_separator(char c)
{
    return c == '-' || c == '_' || c == ' ' || c == '.';
}

/* Removes one of words from the end of s[0, *len), where a separator comes before it; returns
 * whether it did. */
static int strip_model_word(const char *s, size_t *len, const char *const *words)
{
    for (size_t i = 0; words[i]; i++) {
        size_t w = strlen(words[i]);
        if (*len > w + 1 && model_separator(s[*len - w - 1]) &&
            !strncasecmp(s + *len - w, words[i], w)) {
            *len -= w + 1;
            return 1;
        }
    }
    return 0;
}

/* Removes a trailing release date or number (-2507, -0528, -20240229): 4, 6 or 8 digits. */
static int strip_model_date(const char *s, size_t *len)
{
    size_t digits = 0;
    while (digits < *len && s[*len - 1 - digits] >= '0' && s[*len - 1 - digits] <= '9')
        digits++;
    if ((digits == 4 || digits == 6 || digits == 8) && *len > digits + 1 &&
        model_separator(s[*len - digits - 1])) {
        *len -= digits + 1;
        return 1;
    }
    return 0;
}

/* A model's name as people write it (an id, a name, a Hugging Face repo id), reduced to what
 * tells models apart: without an "owner/" prefix, the trailing words above or a release date,
 * then letters and digits only, lower case, without a leading "meta" (Meta-Llama-3-8B).
 * *quantized (may be NULL) is set when a quantized copy's word was removed. */
static void model_key(const char *name, char *out, size_t size, int *quantized)
{
    const char *slash = strrchr(name, '/');
    const char *s = slash ? slash + 1 : name;
    size_t len = strlen(s), n = 0;
    int stripped_quantized = 0;
    for (;;) {
        if (strip_model_word(s, &len, model_quantized_words))
            stripped_quantized = 1;
        else if (!strip_model_word(s, &len, model_variant_words) && !strip_model_date(s, &len))
            break;
    }
    for (size_t i = 0; i < len && n + 1 < size; i++)
        if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9'))
            out[n++] = s[i];
        else if (s[i] >= 'A' && s[i] <= 'Z')
            out[n++] = (char)(s[i] - 'A' + 'a');
    out[n] = '\0';
    if (!strncmp(out, "meta", 4) && out[4] >= 'a' && out[4] <= 'z')
        memmove(out, out + 4, n - 3);
    if (quantized)
        *quantized = stripped_quantized;
}

int kb_model_name_quantized(const char *name)
{
    char key[128];
    int quantized;
    model_key(name, key, sizeof key, &quantized);
    return quantized;
}

/* The edit distance from want to the nearest of a row's keys. */
static size_t model_distance(const char *want, const char *const keys[3])
{
    size_t best = SIZE_MAX;
    for (int i = 0; i < 3; i++) {
        size_t d = *keys[i] ? gw_edit_distance(want, keys[i]) : SIZE_MAX;
        best = d < best ? d : best;
    }
    return best;
}

static void write_model_names_sql(gw_buf *sql)
{
    buf_puts(sql, "SELECT id, name, hf_repo FROM model ORDER BY id");
}

/* Puts a copy of id among the three nearest (nearest[0] nearest) when d is below one of their
 * distances; earlier rows win ties. */
static void keep_nearest(char *nearest[3], size_t dist[3], size_t d, const char *id)
{
    for (int j = 0; j < 3; j++)
        if (d < dist[j]) {
            free(nearest[2]);
            memmove(&dist[j + 1], &dist[j], (size_t)(2 - j) * sizeof dist[0]);
            memmove(&nearest[j + 1], &nearest[j], (size_t)(2 - j) * sizeof nearest[0]);
            dist[j] = d;
            nearest[j] = gw_xstrdup(id);
            return;
        }
}

/* The names are compared over their three columns alone, and the whole row is read only for the
 * model found: reading every row of the catalog for each name resolved took 9.9 M of the 336 M
 * instructions of `report examples/llm-serving.lua` (14 names, mostly benchmarks' workloads
 * that are no model, whose nearest names nobody asked for: err NULL). */
int kb_model_resolve(kb *k, const char *name, kb_model *out, gw_error *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_once(k, KB_STMT_MODEL_NAMES, write_model_names_sql, &st, err);
    if (rc != GW_OK)
        return rc;
    char want[128], id_key[128], name_key[128], repo_key[128];
    const char *const keys[3] = {id_key, name_key, repo_key};
    model_key(name, want, sizeof want, NULL);
    char *found = NULL, *nearest[3] = {NULL, NULL, NULL};
    size_t dist[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX}, n = 0;
    int step = SQLITE_ROW;
    while (!found && (step = sqlite3_step(st)) == SQLITE_ROW) {
        char *id = kb_sql_text(st, 0), *model_name = kb_sql_text(st, 1);
        char *repo = kb_sql_text(st, 2);
        n++;
        model_key(id ? id : "", id_key, sizeof id_key, NULL);
        model_key(model_name ? model_name : "", name_key, sizeof name_key, NULL);
        model_key(repo ? repo : "", repo_key, sizeof repo_key, NULL);
        if (*want && (!strcmp(want, id_key) || !strcmp(want, name_key) ||
                      !strcmp(want, repo_key)))
            found = gw_xstrdup(id ? id : "");
        else if (err)
            keep_nearest(nearest, dist, model_distance(want, keys), id ? id : "");
        free(id);
        free(model_name);
        free(repo);
    }
    kb_sql_done(k, st);
    if (!found && step != SQLITE_DONE)
        rc = kb_sql_fail(k, err, step, "reading");
    else if (found) {
        int got;
        rc = kb_select_one(k, KB_MODELS, " WHERE id = ?1", found, sizeof *out, out, &got, err);
    } else if (n == 0) {
        rc = gw_error_set(err, GW_ENOTFOUND,
                          "unknown model '%s' (the KB's model catalog is empty: gpuwise's is "
                          "kb/data/models.csv, added with gpuwise kb import)", name);
    } else {
        gw_buf b = GW_BUF_INIT;
        for (int j = 0; j < 3 && nearest[j]; j++)
            buf_printf(&b, "%s%s", j ? ", " : "", nearest[j]);
        rc = gw_error_set(err, GW_ENOTFOUND,
                          "unknown model '%s' (did you mean %s? `gpuwise kb models` lists the "
                          "catalog)", name, buf_cstr(&b));
        buf_free(&b);
    }
    free(found);
    for (int j = 0; j < 3; j++)
        free(nearest[j]);
    return rc;
}
