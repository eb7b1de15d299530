/* cli_workload.c — the workload file told to people: the field list `help workload` and the
 * manual's WORKLOAD FILES section print, and `workload new`'s commented starting files, both made
 * from the field list the workload reader checks with (workload_fields_to_view). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "model/workload.h"

/* ---- the field reference ------------------------------------------------------------------ */

/* Markdown inline text with every '*' and '\' escaped, so that "rent:*" stays literal; the
 * backticks the descriptions use for field names are kept. */
static void put_literal(gw_buf *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '*' || *p == '\\')
            buf_putc(out, '\\');
        buf_putc(out, *p);
    }
}

/* "train and finetune", "inference": the tasks a field concerns. */
static void put_tasks(gw_buf *out, const view *tasks)
{
    size_t n = view_len(tasks);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
                   view_str(view_list_at(tasks, i)));
}

/* What one field takes, after its name: "required; a number more than 0 and at most 24
 * hours/day; default `1`; task train and finetune". */
static void put_takes(gw_buf *out, const view *field)
{
    if (view_bool_value(view_map_get(field, "required")))
        buf_puts(out, "required; ");
    put_literal(out, view_str(view_map_get(field, "expected")));
    const char *fallback = view_str(view_map_get(field, "default"));
    if (fallback)
        buf_printf(out, "; default `%s`", fallback);
    const view *tasks = view_map_get(field, "tasks");
    if (!view_is_null(tasks)) {
        buf_puts(out, view_len(tasks) > 1 ? "; tasks " : "; task ");
        put_tasks(out, tasks);
    }
}

void cli_workload_fields_markdown(gw_buf *out)
{
    view *fields = workload_fields_to_view();
    for (size_t i = 0; i < view_len(fields); i++) {
        const view *f = view_list_at(fields, i);
        const char *help = view_str(view_map_get(f, "help"));
        buf_printf(out, "- **%s**: ", view_str(view_map_get(f, "name")));
        put_takes(out, f);
        /* the description as a sentence of its own: "Hours a day the hardware is used." */
        buf_printf(out, ". %c", help[0] >= 'a' && help[0] <= 'z' ? help[0] - 'a' + 'A' : help[0]);
        put_literal(out, help + 1);
        buf_puts(out, ".\n");
    }
    view_free(fields);
}

/* ---- gpuwise workload new ----------------------------------------------------------------- */

/* One field of a starting file: its path in the field list and its value as Lua writes it.
 * Fields of one table are consecutive; the file opens the table at the first. */
typedef struct starter_field {
    const char *path;
    const char *value;
} starter_field;

typedef struct starter {
    const char *task;          /* --task */
    const char *title;         /* the file's first line, after its name */
    const starter_field *fields;
} starter;

/* Each runs against the shipped KB as it is; the candidates are cards and offers it prices. */
static const starter_field train_fields[] = {
    {"name", "\"Pre-training a language model\""},
    {"task", "\"train\""},
    {"model.name", "\"llama-3-8b\""},
    {"model.precision", "\"bf16\""},
    {"model.optimizer", "\"adamw\""},
    {"sharding", "\"zero3\""},
    {"activation_checkpointing", "true"},
    {"sequence_length", "8192"},
    {"batch_per_gpu", "1"},
    {"work.tokens", "20e9"},
    {"deadline_days", "30"},
    {"hours_per_day", "24"},
    {"horizon_months", "36"},
    {"currency", "\"USD\""},
    {"electricity.price", "0.12"},
    {"electricity.pue", "1.3"},
    {"candidates", "{ \"h100-sxm5\", \"rent:h100-sxm5\", \"rent:a100-sxm4-80gb\" }"},
    {NULL, NULL},
};

static const starter_field finetune_fields[] = {
    {"name", "\"LoRA fine-tuning of a language model\""},
    {"task", "\"finetune\""},
    {"model.name", "\"llama-3.1-8b\""},
    {"model.precision", "\"bf16\""},
    {"model.optimizer", "\"adamw\""},
    {"finetune.method", "\"lora\""},
    {"finetune.rank", "16"},
    {"activation_checkpointing", "true"},
    {"sequence_length", "4096"},
    {"batch_per_gpu", "1"},
    {"hours_per_day", "8"},
    {"horizon_months", "24"},
    {"currency", "\"USD\""},
    {"electricity.price", "0.15"},
    {"candidates", "{ \"rtx-6000-ada\", \"rent:h100-sxm5\", \"rent:a100-sxm4-80gb\" }"},
    {NULL, NULL},
};

static const starter_field serve_fields[] = {
    {"name", "\"Serving a language model\""},
    {"task", "\"inference\""},
    {"model.name", "\"llama-3.1-8b\""},
    {"model.precision", "\"bf16\""},
    {"inference.context", "2000"},
    {"inference.output_tokens", "500"},
    {"inference.concurrency", "16"},
    {"inference.tokens_per_s", "400"},
    {"inference.tpot_ms", "50"},
    {"inference.ttft_ms", "2000"},
    {"hours_per_day", "24"},
    {"horizon_months", "36"},
    {"currency", "\"USD\""},
    {"electricity.price", "0.15"},
    {"electricity.pue", "1.4"},
    {"candidates", "{ \"rtx-4090\", \"l40s\", \"rent:h100-sxm5\", \"rent:l40s\" }"},
    {NULL, NULL},
};

static const starter_field vision_fields[] = {
    {"name", "\"Training an image model\""},
    {"task", "\"train\""},
    {"model.params", "25.6e6"},
    {"model.precision", "\"amp\""},
    {"model.optimizer", "\"adam\""},
    {"model.activations_gb", "8"},
    {"benchmark", "\"resnet50\""},
    {"parallelism", "\"data\""},
    {"hours_per_day", "8"},
    {"horizon_months", "36"},
    {"currency", "\"USD\""},
    {"budget", "20000"},
    {"electricity.price", "0.15"},
    {"used_ok", "true"},
    {"cooling", "\"good\""},
    {"candidates", "{ \"rtx-3090\", \"rtx-4090\", \"a100-pcie-80gb\", \"rent:*\" }"},
    {NULL, NULL},
};

#define STARTER_TASKS "train|finetune|serve|vision"

static const starter starters[] = {
    {"train", "pre-training a language model on a fixed number of tokens, due by a deadline",
     train_fields},
    {"finetune", "fine-tuning a language model with LoRA, a few hours every day",
     finetune_fields},
    {"serve", "serving a language model around the clock, with latency targets", serve_fields},
    {"vision", "training an image model every day, compared on a measured benchmark",
     vision_fields},
};

/* The entry of the field list named path; NULL when the list has none. */
static const view *field_named(const view *fields, const char *path)
{
    for (size_t i = 0; i < view_len(fields); i++)
        if (!strcmp(view_str(view_map_get(view_list_at(fields, i), "name")), path))
            return view_list_at(fields, i);
    return NULL;
}

/* text as Lua comment lines of at most 96 columns, each starting with indent spaces. */
static void put_comment(gw_buf *out, const char *text, int indent)
{
    const int width = 96 - indent - 3;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        int n = (int)strlen(p);
        if (n > width) {
            n = width;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = (int)strcspn(p, " ");
        }
        buf_printf(out, "%*s-- %.*s\n", indent, "", n, p);
        p += n;
    }
}

/* A field's description as a comment, with what it takes when takes is set. */
static void put_sentence(gw_buf *out, const view *field, int takes, int indent)
{
    gw_buf comment = GW_BUF_INIT;
    const char *help = view_str(view_map_get(field, "help"));
    buf_printf(&comment, "%c%s.", help[0] >= 'a' && help[0] <= 'z' ? help[0] - 'a' + 'A'
                                                                   : help[0], help + 1);
    if (takes) {
        buf_puts(&comment, " Takes ");
        put_takes(&comment, field);
        buf_puts(&comment, ".");
    }
    /* the Markdown escapes put_takes adds are not Lua's */
    gw_buf plain = GW_BUF_INIT;
    for (const char *p = buf_cstr(&comment); *p; p++)
        if (!(*p == '\\' && (p[1] == '*' || p[1] == '\\')))
            buf_putc(&plain, *p);
    put_comment(out, buf_cstr(&plain), indent);
    buf_free(&plain);
    buf_free(&comment);
}

/* The starting file of s, named file in its first line.  Returns GW_OK, or GW_ESOFTWARE when a
 * starter names a field the field list lacks (a field renamed without its starter). */
static int starter_text(gw_buf *out, const starter *s, const char *file, gw_error *err)
{
    view *fields = workload_fields_to_view();
    int rc = GW_OK;
    gw_buf head = GW_BUF_INIT;
    buf_printf(&head, "%s — %s.  A starting workload, which runs as it is:", file, s->title);
    put_comment(out, buf_cstr(&head), 0);
    buf_printf(out, "--\n--     gpuwise decide %s\n--     gpuwise report %s -o justification.html"
                    "\n--\n",
               file, file);
    put_comment(out, "then change what differs for you.  Each field says what it means and what "
                     "it takes; `gpuwise help workload` lists every field a workload may have.",
                0);
    buf_puts(out, "return {\n");
    buf_free(&head);
    char table[64] = "";
    for (const starter_field *f = s->fields; f->path && rc == GW_OK; f++) {
        const char *dot = strchr(f->path, '.');
        size_t table_len = dot ? (size_t)(dot - f->path) : 0;
        if (*table && (table_len != strlen(table) || strncmp(table, f->path, table_len))) {
            buf_puts(out, "    },\n");
            table[0] = '\0';
        }
        if (dot && !*table) {
            snprintf(table, sizeof table, "%.*s", (int)table_len, f->path);
            const view *t = field_named(fields, table);
            if (!t) {
                rc = gw_error_set(err, GW_ESOFTWARE, "workload new: no field %s", table);
                break;
            }
            buf_putc(out, '\n');
            put_sentence(out, t, 0, 4);
            buf_printf(out, "    %s = {\n", table);
        }
        const view *field = field_named(fields, f->path);
        if (!field) {
            rc = gw_error_set(err, GW_ESOFTWARE, "workload new: no field %s", f->path);
            break;
        }
        if (!dot)
            buf_putc(out, '\n');
        put_sentence(out, field, 1, dot ? 8 : 4);
        buf_printf(out, "%*s%s = %s,\n", dot ? 8 : 4, "", dot ? dot + 1 : f->path, f->value);
    }
    if (*table)
        buf_puts(out, "    },\n");
    buf_puts(out, "}\n");
    view_free(fields);
    return rc;
}

/* Writes text to path, which must not exist unless force: a starting file someone has edited
 * is not replaced by accident (cli_write_output's rename would). */
static int write_new(gw_ctx *ctx, const char *path, const gw_buf *text, int force,
                     gw_error *err)
{
    if (force) {
        ctx->output = path;
        return cli_write_output(ctx, text->data, text->len, err);
    }
    char *file = NULL;   /* another user's planted link is not followed (buf.h) */
    int rc = gw_path_resolve_safe(path, &file, err);
    /* linked into place, never renamed over: a file made there first stands (buf.h) */
    int e = rc == GW_OK ? gw_write_file_new(file, text->data, text->len, 0666) : 0;
    free(file);
    if (rc != GW_OK)
        return rc;
    if (e == EEXIST)
        return gw_error_set(err, GW_ECANTCREAT, "%s: already exists (not overwritten; --force "
                            "replaces it)", path);
    if (e)
        return gw_write_failed(err, path, e);
    return GW_OK;
}

static int workload_new(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *task = cli_value(args, "task"), *path = cli_value(args, "output");
    if (!task)
        return gw_error_set(err, GW_EUSAGE, "--task: give one of " STARTER_TASKS);
    const starter *s = NULL;
    for (size_t i = 0; i < sizeof starters / sizeof starters[0]; i++)
        if (!strcmp(starters[i].task, task))
            s = &starters[i];
    if (!s)   /* the parser checks --task's choices; this is the starters' own table */
        return gw_error_set(err, GW_ESOFTWARE, "workload new: no starter for %s", task);
    const char *slash = path ? strrchr(path, '/') : NULL;
    gw_buf text = GW_BUF_INIT;
    int rc = starter_text(&text, s, !path || !strcmp(path, "-") ? "workload.lua"
                                    : slash ? slash + 1 : path, err);
    if (rc == GW_OK && (!path || !strcmp(path, "-")))
        rc = cli_write_output(ctx, text.data, text.len, err);
    else if (rc == GW_OK)
        rc = write_new(ctx, path, &text, cli_flag(args, "force"), err);
    if (rc == GW_OK && path && strcmp(path, "-"))
        fprintf(ctx->out, "wrote %s\nnext: gpuwise decide %s\n", path, path);
    buf_free(&text);
    return rc;
}

static const cli_option new_options[] = {
    {"task", 0, "TASK", CLI_CHOICE, STARTER_TASKS,
     "what the workload does: train a language model, fine-tune one, serve one, or train an "
     "image model on a measured benchmark", 0},
    {"output", 'o', "FILE", CLI_FILE, NULL,
     "write the file to FILE, which must not exist (standard output without it, or with `-`)",
     0},
    {"force", 0, NULL, CLI_TEXT, NULL, "replace FILE when it exists", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command workload_commands[] = {
    {"workload new", NULL, 0, 0, CLI_TEXT,
     "write a commented workload file to start from, which runs as it is",
     "Writes a workload file for `--task` (train, finetune, serve or vision) that `gpuwise "
     "decide` and `gpuwise report` run as it is against the shipped KB: each field it sets "
     "comes with its description, what it takes and its default, as `gpuwise help workload` "
     "gives them.  Change what differs for you; the examples in @EXAMPLES@ are worked through "
     "in their README.\n\n"
     "```\ngpuwise workload new --task serve -o serving.lua\ngpuwise decide serving.lua\n```\n\n"
     "Exit status: 0 ok, 64 usage (no `--task`, or one it does not know), 73 FILE exists (not "
     "overwritten without `--force`) or cannot be written.",
     new_options, 0, 0, workload_new, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_workload_group = {
    "workload", "describe the workload file, and write one to start from", NULL,
    workload_commands,
};
