/* cli_kb_common.h — what the `gpuwise kb` command files share (cli_kb_common.c): figures as
 * people read them, one GPU as a view, citations, a hit and the command that opens it, and
 * writing a view as text, JSON or a document; and each kb command's run function, for the one
 * command table in cli_kb.c.  Internal to core/cli/cli_kb*.c. */
#ifndef GW_CLI_KB_COMMON_H
#define GW_CLI_KB_COMMON_H

#include <stdio.h>

#include "cli.h"
#include "base/view.h"

/* ---- figures ---- */

/* Appends v with as few decimals as it needs (at most 2), thousands separated: 2,039 / 19.5. */
void cli_kb_put_figure(gw_buf *b, double v);
/* Sets key of map m to owned (NULL: null) and frees owned. */
void cli_kb_set_text(view *m, const char *key, char *owned);
/* The string at key of map m; NULL when it is not a string. */
const char *cli_kb_str(const view *m, const char *key);

/* ---- one GPU ---- */

/* The GPU columns a datasheet and a comparison show are those with a label (kb_table.c): first
 * the text rows, then the figures, then the flags (a datasheet's alone), each in column order. */
enum cli_kb_row_set { ROWS_TEXT, ROWS_FIGURES, ROWS_FLAGS, ROW_SETS };
/* The labelled GPU columns of one set, *n of them (static: never freed). */
const kb_column *const *cli_kb_gpu_rows(enum cli_kb_row_set set, size_t *n);
/* How a person reads one figure, in its column's text form: "2,039 GB/s", "312 TFLOPS dense
 * (624 with 2:4 sparsity)", "Gen 4 x16", "none" for no NVLink.  brief leaves the sparse figure
 * out.  Caller frees; NULL when unknown. */
char *cli_kb_spec_text(const kb_gpu *g, const kb_column *c, int brief);
/* Every field of g into map m under its stable snake_case name, plus FIELD_text for people. */
void cli_kb_gpu_to_view(const kb_gpu *g, view *m);

/* The sources a datasheet or comparison cites, numbered in the order first cited. */
typedef struct cli_kb_cite_list {
    view *sources;     /* [{n,id,title,publisher,url,retrieved}] */
    view *citations;   /* the same for templates: {n,title,publisher,date,url} */
} cli_kb_cite_list;
/* The citation number of source id (0 for none), adding it to c on first use. */
int cli_kb_cite(kb *k, cli_kb_cite_list *c, const char *id);

/* ---- search hits (kb search, and the facts a source is cited by) ---- */

/* "gpuwise kb show ID" / "gpuwise kb source ID": the command a person runs to open it, the id
 * quoted for the shell.  Caller frees. */
char *cli_kb_open_command(const char *sub, const char *id);
/* A hit's fields into map m, and the command that opens it; ranked adds snippet and rank. */
void cli_kb_hit_to_view(const kb_hit *h, view *m, int ranked);
/* One hit in the terminal, indent columns in. */
void cli_kb_hit_print(FILE *f, const view *h, int indent);

/* ---- output: each through cli_write_output (-o honoured) ---- */

/* v as JSON. */
int cli_kb_emit_json(gw_ctx *ctx, const view *v, gw_error *err);
/* The text fn(f, v) prints. */
int cli_kb_emit_text(gw_ctx *ctx, void (*fn)(FILE *, const view *), const view *v,
                     gw_error *err);
/* v as ctx->format says: JSON, the shipped document doc rendered (md, html; doc NULL: none), or
 * the text fn prints. */
int cli_kb_emit(gw_ctx *ctx, void (*fn)(FILE *, const view *), view *v, const char *doc,
                gw_error *err);

/* ---- the commands, each in the file named for it; cli_kb.c's table describes them ---- */

int cli_kb_show(gw_ctx *ctx, const cli_args *a, gw_error *err);      /* cli_kb_show.c */
int cli_kb_compare(gw_ctx *ctx, const cli_args *a, gw_error *err);   /* cli_kb_compare.c */
int cli_kb_list(gw_ctx *ctx, const cli_args *a, gw_error *err);      /* cli_kb_list.c */
int cli_kb_fields(gw_ctx *ctx, const cli_args *a, gw_error *err);    /* cli_kb_list.c */
int cli_kb_search(gw_ctx *ctx, const cli_args *a, gw_error *err);    /* cli_kb_search.c */
int cli_kb_sources(gw_ctx *ctx, const cli_args *a, gw_error *err);   /* cli_kb_sources.c */
int cli_kb_source(gw_ctx *ctx, const cli_args *a, gw_error *err);    /* cli_kb_sources.c */
int cli_kb_check(gw_ctx *ctx, const cli_args *a, gw_error *err);     /* cli_kb_import.c */
int cli_kb_export(gw_ctx *ctx, const cli_args *a, gw_error *err);    /* cli_kb_import.c */
int cli_kb_import(gw_ctx *ctx, const cli_args *a, gw_error *err);    /* cli_kb_import.c */
int cli_kb_upgrade(gw_ctx *ctx, const cli_args *a, gw_error *err);   /* cli_kb_import.c */

#endif
