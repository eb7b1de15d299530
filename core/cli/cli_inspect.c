/* cli_inspect.c — the `gpuwise inspect` command: reads an nvidia-smi dump (a file, standard
 * input, or nvidia-smi run on the spot), runs the checks of inspect/ with the KB as the card
 * reference (the lookup it hands them, shared with `checklist --dump`: cli_inspect.h), and
 * prints them as text, JSON or a document. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "base/term.h"
#include "base/view.h"
#include "cli.h"
#include "cli_document.h"
#include "cli_inspect.h"
#include "inspect/inspect.h"
#include "inspect/nvsmi.h"
#include "kb/kb.h"

/* ---- the card reference: the KB ---- */

/* inspect_lookup_fn over the KB: user is a kb *; the name resolves as `kb show` resolves it. */
static int kb_card_lookup(void *user, const char *product_name, inspect_card *card,
                          gw_error *err)
{
    kb *k = user;
    char *id = NULL;
    int count = 1;
    int rc = kb_gpu_resolve(k, product_name, &id, &count, err);
    if (rc != GW_OK)
        return rc;
    kb_gpu g;
    kb_gpu_init(&g);
    rc = kb_gpu_get(k, id, &g, err);
    if (rc == GW_OK) {
        card->id = id;
        id = NULL;
        card->name = g.name ? gw_xstrdup(g.name) : NULL;
        card->memory_gb = g.memory_gb;
        card->tdp_w = g.tdp_w;
    }
    kb_gpu_free(&g);
    free(id);
    return rc;
}

int cli_inspect_log(gw_ctx *ctx, const char *command, const nvsmi_log *log, inspect_result **out,
                    gw_error *err)
{
    kb *k = NULL;
    gw_error kb_err = {0};
    if (cli_open_kb(ctx, 0, &k, &kb_err) != GW_OK)
        fprintf(ctx->diag, "gpuwise %s: no knowledge base (%s): cards are not identified\n",
                command, kb_err.msg);
    int rc = inspect_run(log, k ? kb_card_lookup : NULL, k, out, err);
    if (k)
        kb_close(k);
    return rc;
}

/* ---- text ---- */

static const char *status_colour(inspect_status s)
{
    switch (s) {
    case INSPECT_PASS: return "\033[32m";
    case INSPECT_WARN: return "\033[33m";
    case INSPECT_FAIL: return "\033[1;31m";
    default: return "\033[36m";
    }
}

static void print_status(gw_buf *f, int color, inspect_status s)
{
    if (color)
        buf_printf(f, "%s%-7s\033[0m", status_colour(s), inspect_status_name(s));
    else
        buf_printf(f, "%-7s", inspect_status_name(s));
}

/* Colour only on a terminal: never into a file given with -o.  Every value from the dump is
 * shown as one field (term.h): a name or message with a C1 control, an escape or a line break
 * in it cannot act on the terminal or forge a line. */
static void print_text(gw_buf *f, int color, const inspect_result *r)
{
    gw_buf scratch[3] = {GW_BUF_INIT, GW_BUF_INIT, GW_BUF_INIT};   /* one per field of a line */
    buf_printf(f, "%s: driver %s, CUDA %s, %zu GPU%s\n", gw_term_safe(&scratch[0], r->source),
            r->driver_version ? gw_term_safe(&scratch[1], r->driver_version) : "not given",
            r->cuda_version ? gw_term_safe(&scratch[2], r->cuda_version) : "not given", r->n_gpus,
            r->n_gpus == 1 ? "" : "s");
    for (size_t i = 0; i < r->n_gpus; i++) {
        const inspect_gpu *g = &r->gpus[i];
        buf_printf(f, "\nGPU %zu: %s", i,
                   g->name ? gw_term_safe(&scratch[0], g->name) : "(no name)");
        if (g->bus_id)
            buf_printf(f, " [%s]", gw_term_safe(&scratch[0], g->bus_id));
        if (g->card.id)
            buf_printf(f, " = %s", gw_term_safe(&scratch[0], g->card.id));
        buf_putc(f, '\n');
        for (size_t k = 0; k < g->n_checks; k++) {
            const inspect_check *c = &g->checks[k];
            buf_puts(f, "  ");
            print_status(f, color, c->status);
            buf_printf(f, " %-24s %s\n", gw_term_safe(&scratch[0], c->id),
                       gw_term_safe(&scratch[1], c->message));
            for (size_t e = 0; e < c->n_evidence; e++)
                buf_printf(f, "  %-7s %-24s   %s = %s (line %d)\n", "", "",
                           gw_term_safe(&scratch[0], c->evidence[e].path),
                           gw_term_safe(&scratch[1], c->evidence[e].text), c->evidence[e].line);
        }
    }
    for (size_t i = 0; i < 3; i++)
        buf_free(&scratch[i]);
    inspect_status v = inspect_verdict(r);
    buf_puts(f, "\nverdict: ");
    print_status(f, color, v);
    buf_printf(f, " %zu failed, %zu warnings, %zu unknown, %zu passed\n", r->counts[INSPECT_FAIL],
            r->counts[INSPECT_WARN], r->counts[INSPECT_UNKNOWN], r->counts[INSPECT_PASS]);
}

/* ---- the document ---- */

static void add_document_fields(view *model, const inspect_result *r)
{
    char date[11];
    gw_today_date(date);
    view_map_set(model, "title", view_stringf("GPU inspection: %s", r->source));
    view_map_set(model, "subtitle",
                 view_stringf("%zu GPU%s, driver %s", r->n_gpus, r->n_gpus == 1 ? "" : "s",
                              r->driver_version ? r->driver_version : "not given"));
    view_map_set_str(model, "generated", date);
}

/* The dump in file, or the one nvidia-smi prints when file is NULL (given timeout_s seconds). */
static int read_dump(const char *file, double timeout_s, nvsmi_log **log, gw_error *err)
{
    if (file)
        return nvsmi_read_file(file, log, err);
    char *text = NULL;
    size_t len = 0;
    int rc = nvsmi_capture(timeout_s, &text, &len, err);
    if (rc == GW_OK)
        rc = nvsmi_parse(text, len, "nvidia-smi -q -x", log, err);
    free(text);
    return rc;
}

static int cmd_inspect(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *file = args->argc ? args->argv[0] : NULL;
    if (file && strcmp(file, "-") == 0)
        file = "/dev/stdin";
    /* only the documents come from a template: refused rather than ignored elsewhere */
    if (ctx->template_path && strcmp(ctx->format, "md") != 0 && strcmp(ctx->format, "html") != 0)
        return gw_error_set(err, GW_EUSAGE, "--template: only md and html are rendered from a "
                            "template, not %s", ctx->format);

    double timeout_s = NVSMI_TIMEOUT_SECONDS;
    int rc = cli_number(args, "timeout", 1, 3600, &timeout_s, err);
    if (rc != GW_OK)
        return rc;
    nvsmi_log *log = NULL;
    rc = read_dump(file, timeout_s, &log, err);
    if (rc != GW_OK)
        return rc;

    inspect_result *r = NULL;
    rc = cli_inspect_log(ctx, "inspect", log, &r, err);
    nvsmi_log_free(log);
    if (rc != GW_OK)
        return rc;

    if (ctx->json) {
        view *v = inspect_view(r);
        gw_buf out = GW_BUF_INIT;
        view_to_json(v, &out, 1);
        rc = cli_write_output(ctx, out.data ? out.data : "", out.len, err);
        buf_free(&out);
        view_free(v);
    } else if (strcmp(ctx->format, "text") != 0) {
        view *v = inspect_view(r);
        add_document_fields(v, r);
        rc = cli_render_document(ctx, "inspection", v, err);
        view_free(v);
    } else {
        gw_buf out = GW_BUF_INIT;
        print_text(&out, ctx->color && !ctx->output, r);
        rc = cli_write_output(ctx, out.data ? out.data : "", out.len, err);
        buf_free(&out);
    }
    if (rc == GW_OK && r->counts[INSPECT_FAIL]) {
        rc = gw_error_set(err, GW_FAILED, "%zu check%s failed", r->counts[INSPECT_FAIL],
                          r->counts[INSPECT_FAIL] == 1 ? "" : "s");
    }
    inspect_result_free(r);
    return rc;
}

static const cli_option inspect_options[] = {
    {"timeout", 0, "SECONDS", CLI_TEXT, NULL,
     "without FILE: how long `nvidia-smi -q -x` may take, from 1 to 3600 (default 30); then it "
     "is stopped, with everything it started, and the command exits 69", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command inspect_commands[] = {
    {"inspect", "[FILE.xml]", 0, 1, CLI_FILE,
     "check the GPUs of an nvidia-smi -q -x dump (used cards, rented GPUs)",
     "Checks the GPUs in an `nvidia-smi -q -x` dump: what a buyer of a used card or a renter of "
     "a cloud GPU should verify.  With no FILE, runs `nvidia-smi -q -x` itself, in a process "
     "group of its own, for `--timeout` seconds at most (a GPU that fell off the bus hangs it); "
     "on timeout, or on the first SIGINT or SIGTERM, it is stopped with everything it started "
     "and the message says how to take the dump by hand.  `-` reads the dump from standard "
     "input.  The dump's DTD is never loaded and nothing but the dump is "
     "opened.  The KB identifies each card (its memory and power limit are checked against the "
     "spec); without one the cards are not identified.\n"
     "\n"
     "Checks, per GPU, each PASS, WARN, FAIL or UNKNOWN with the dump's evidence:\n"
     "\n"
     "- identity: the name is a card the KB knows; memory total matches its spec; vGPU\n"
     "- memory: ECC mode; ECC errors; retired pages; remapped rows\n"
     "- thermal: temperature vs thresholds; clock-event (throttle) reasons; power limit vs "
     "default and TDP; fan speed at idle\n"
     "- bus: PCIe generation and width now vs maximum (under load)\n"
     "- software: driver and CUDA; VBIOS; persistence mode; MIG mode\n"
     "\n"
     "Examples:\n"
     "\n"
     "    nvidia-smi -q -x > dump.xml && gpuwise inspect dump.xml\n"
     "    ssh rented-box nvidia-smi -q -x | gpuwise inspect -\n"
     "    gpuwise inspect dump.xml -o inspection.html\n"
     "\n"
     "A reading no real card can give (a fan at -5%, PCIe generation 1e20, a temperature of "
     "1e308 C) fails its check as an implausible value, with the evidence: the dump is damaged "
     "or was edited.\n"
     "\n"
     "Exit status: 0 nothing failed, 2 a check failed (whatever the format), 64 usage, 65 not a "
     "readable dump (or larger than the dump limit, 32 MiB), 66 no such file, 69 no nvidia-smi "
     "to run, or it failed or gave no answer in time, 130/143 interrupted.",
     inspect_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON, CLI_TEMPLATE, cmd_inspect, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_inspect_group = {
    "inspect", "check the GPUs of an nvidia-smi -q -x dump (used cards, rented GPUs)", NULL,
    inspect_commands,
};
