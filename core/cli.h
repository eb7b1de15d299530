/* cli.h — what every command sees: the global options main.c parsed, where the shipped data
 * and the user's own files live, and the command table entry each cli_*.c file exports.
 * A command returns GW_OK or an error code with err filled; it never calls exit(). */
#ifndef GW_CLI_H
#define GW_CLI_H

#include <stdio.h>

#include "error.h"
#include "kb.h"

#define GW_MAX_PLUGIN_DIRS 16

typedef struct gw_ctx {
    FILE *out;                    /* where a command writes its result (stdout) */
    FILE *diag;                   /* where warnings and progress go (stderr) */
    const char *argv0;
    const char *kb_path;          /* --kb, else GPUWISE_KB, else NULL (the default KB) */
    const char *plugin_dirs[GW_MAX_PLUGIN_DIRS];   /* --plugins DIR, repeatable, first wins */
    int n_plugin_dirs;
    const char *format;           /* --format: text (default), md, html */
    const char *output;           /* -o FILE; NULL = stdout */
    const char *template_path;    /* --template FILE */
    int json;                     /* --json */
    int color;                    /* stdout is a TTY and NO_COLOR is unset, unless --no-color */
    int progress;                 /* stderr is a TTY (progress bars) */
    char data_dir[4096];          /* shipped kb/, plugins/, templates/ */
    char user_data_dir[4096];     /* $XDG_DATA_HOME/gpuwise */
    char user_config_dir[4096];   /* $XDG_CONFIG_HOME/gpuwise */
} gw_ctx;

typedef int (*gw_command_fn)(gw_ctx *ctx, int argc, char **argv, gw_error *err);

typedef struct gw_command {
    const char *name;
    const char *summary;          /* one line for `gpuwise --help` */
    const char *usage;            /* full text for `gpuwise help NAME` */
    gw_command_fn run;
} gw_command;

/* Fills the data and XDG folders of ctx (see paths.c). */
void cli_paths_init(gw_ctx *ctx);

/* Opens the KB a command should use.  Read: --kb/GPUWISE_KB, else the user's KB when it exists,
 * else the shipped one.  Write: --kb/GPUWISE_KB, else the user's KB, created as a copy of the
 * shipped one on first write (the shipped KB is never written). */
int cli_open_kb(gw_ctx *ctx, int write, kb **out, gw_error *err);

/* Writes a finished document to ctx->output atomically, or to ctx->out when there is none. */
int cli_write_output(gw_ctx *ctx, const char *data, size_t len, gw_error *err);

/* Joins dir and name into out (size outsz).  Returns 0, or -1 when it does not fit. */
int cli_path_join(char *out, size_t outsz, const char *dir, const char *name);
int cli_file_exists(const char *path);

/* The commands, one per cli_*.c file. */
extern const gw_command cli_kb_command;
extern const gw_command cli_plugin_command;
extern const gw_command cli_prices_command;
extern const gw_command cli_offers_command;
extern const gw_command cli_render_command;
extern const gw_command cli_decide_command;
extern const gw_command cli_report_command;
extern const gw_command cli_inspect_command;
extern const gw_command cli_checklist_command;

#endif
