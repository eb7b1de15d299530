/* cli.h — what every command sees: the global options main.c parsed, where the shipped data
 * and the user's own files live, and the command table entry each cli_*.c file exports.
 * A command returns GW_OK or an error code with err filled; it never calls exit(). */
#ifndef GW_CLI_H
#define GW_CLI_H

#include <stdio.h>

#include "base/buf.h"
#include "base/error.h"
#include "kb/kb.h"
#include "sandbox/plugin.h"

#define GW_MAX_PLUGIN_DIRS 16

typedef struct gw_ctx {
    FILE *out;                    /* where a command writes its result (stdout) */
    FILE *diag;                   /* where warnings and progress go (stderr) */
    const char *argv0;
    const char *kb_path;          /* --kb, else GPUWISE_KB, else NULL (the default KB) */
    const char *plugin_dirs[GW_MAX_PLUGIN_DIRS];   /* --plugins DIR, repeatable, first wins */
    int n_plugin_dirs;
    const char *format;           /* the output format: --format, --json, -o's extension or the
                                     command's default: text, md, html, json or csv */
    const char *output;           /* -o FILE; NULL = stdout */
    const char *template_path;    /* --template FILE */
    int json;                     /* the format is json (--json, --format json, -o x.json) */
    int data_output;              /* the command writes data in no format of its own (kb
                                     export, a new workload file): byte for byte */
    int color;                    /* stdout is a TTY and NO_COLOR is unset, unless --no-color */
    int progress;                 /* stderr is a TTY (progress bars) */
    char data_dir[4096];          /* shipped kb/, plugins/, templates/ */
    char user_data_dir[4096];     /* $XDG_DATA_HOME/gpuwise */
    char user_config_dir[4096];   /* $XDG_CONFIG_HOME/gpuwise */
    char user_cache_dir[4096];    /* $XDG_CACHE_HOME/gpuwise (`prices fetch` keeps downloads) */
} gw_ctx;

/* ---- commands and their options -------------------------------------------------------
 * Every command is described once, in a cli_command table entry: its operands, its options,
 * the formats it writes, its help text.  That one description drives parsing (cli_options.c),
 * `--help`, `gpuwise help`, the manual page and shell completion (cli_help.c). */

/* What completion offers for an option's value or a command's operands. */
typedef enum cli_kind {
    CLI_TEXT = 0,      /* free text: nothing to offer */
    CLI_FILE,          /* a file name */
    CLI_DIR,           /* a folder */
    CLI_GPU,           /* a GPU id or alias of the KB in use */
    CLI_PLUGIN,        /* a plugin name (any kind) */
    CLI_PRICING,       /* a pricing plugin's name */
    CLI_IMPORTER,      /* an importer plugin's name */
    CLI_CHECKLIST,     /* a checklist plugin's name */
    CLI_TEMPLATE_FILE, /* a template file */
    CLI_FIELD,         /* a GPU field name (`kb fields`) */
    CLI_OFFER_FIELD,   /* an offer's field name (kb_offers.h), "-" before it where typed */
    CLI_COMMAND,       /* a command name (`help`) */
    CLI_CHOICE         /* one of the option's choices */
} cli_kind;

enum { CLI_REPEAT = 1 };   /* cli_option.flags: may be given more than once */

typedef struct cli_option {
    const char *name;      /* long name, without "--" */
    char short_name;       /* one letter, or 0 */
    const char *arg;       /* the value's name in help ("NAME"); NULL for a flag */
    cli_kind kind;         /* what completion offers for the value */
    const char *choices;   /* "price|price_per_gpu": the only values accepted; NULL: any */
    const char *help;      /* one sentence, Markdown inline */
    unsigned flags;        /* CLI_REPEAT */
} cli_option;

/* The formats a command can write (cli_command.formats), in the order --format lists them. */
enum {
    CLI_FMT_TEXT = 1 << 0,
    CLI_FMT_MD = 1 << 1,
    CLI_FMT_HTML = 1 << 2,
    CLI_FMT_JSON = 1 << 3,
    CLI_FMT_CSV = 1 << 4
};

/* cli_command.flags */
enum {
    CLI_OUTPUT = 1 << 0,     /* takes -o FILE (implied by any format); a command whose own table
                                has an "output" option describes -o itself */
    CLI_TEMPLATE = 1 << 1,   /* takes --template FILE */
    CLI_RAW = 1 << 2         /* every word after the command is an operand (`complete`) */
};

typedef struct cli_args cli_args;
typedef int (*cli_run_fn)(gw_ctx *ctx, const cli_args *args, gw_error *err);

typedef struct cli_command {
    const char *name;            /* "offers", "kb show": a group's name, then the subcommand */
    const char *operands;        /* the operands in the synopsis ("NAME NAME..."); NULL: none */
    int min_operands, max_operands;   /* max_operands -1: any number */
    cli_kind operand_kind;       /* what completion offers for them */
    const char *summary;         /* one line for lists */
    const char *text;            /* Markdown: the whole description (help and the manual) */
    const cli_option *options;   /* its own options, ending with {NULL}; NULL: none */
    unsigned formats;            /* CLI_FMT_* it writes; the first one set is the default */
    unsigned flags;              /* CLI_OUTPUT, CLI_TEMPLATE */
    cli_run_fn run;
    const char *operand_choices; /* with operand_kind CLI_CHOICE: what the first operand may be */
} cli_command;

typedef struct cli_group {
    const char *name;            /* the first word: "kb" */
    const char *summary;         /* one line for `gpuwise --help` */
    const char *text;            /* Markdown shared by its commands (name forms, filters); NULL */
    const cli_command *commands; /* ending with {NULL}; a group whose one command has the group's
                                    own name takes no subcommand */
} cli_group;

/* What the parser found, handed to a command's run function. */
typedef struct cli_seen {
    const cli_option *option;
    const char *value;           /* NULL for a flag */
} cli_seen;

struct cli_args {
    const cli_command *command;
    int argc;                    /* the operands, in order */
    char **argv;
    size_t n_seen;               /* the command's own options, in the order given */
    cli_seen *seen;
};

/* The value of option name (its long name), the last one given; NULL when it was not given. */
const char *cli_value(const cli_args *a, const char *name);
/* The i-th value of a repeatable option; NULL past the last. */
const char *cli_value_at(const cli_args *a, const char *name, size_t i);
/* How many times option name was given (flags: 0 or more). */
int cli_flag(const cli_args *a, const char *name);
/* Option name as a number.  Returns GW_OK with *out set (*out untouched when not given), or
 * GW_EUSAGE naming the option when the value is not a finite number within [min, max]. */
int cli_number(const cli_args *a, const char *name, double min, double max, double *out,
               gw_error *err);

/* Every command group, in the order `gpuwise --help` lists them (cli_table.c). */
extern const cli_group *const cli_groups[];

/* Parses argv (global options, the command, its options and operands; cli_options.c), fills
 * ctx (global options, the output format) and runs the command or answers help or --version
 * (cli_run.c).  *name gets the command's full name for
 * error messages ("kb show"; "" before one is known).  Returns the command's code, GW_OK after
 * help or --version, or GW_EUSAGE with err set. */
int cli_main(gw_ctx *ctx, int argc, char **argv, const char **name, gw_error *err);

/* The format ctx->format names, as a CLI_FMT_* bit. */
unsigned cli_format_bit(const char *format);
/* The formats in mask for people: "text, md or json". */
void cli_format_list(gw_buf *b, unsigned mask);

/* The group named name; NULL when there is none. */
const cli_group *cli_group_find(const char *name);
/* The command "GROUP sub", or with sub NULL the group's only command; NULL when there is none. */
const cli_command *cli_command_find(const cli_group *g, const char *sub);
/* 1 when the group's commands are its subcommands ("kb show"), 0 for a plain command. */
int cli_group_has_subcommands(const cli_group *g);

/* help, the manual and completion (cli_help.c) */
/* A command's help as the terminal shows it (`gpuwise help kb show`, `kb show --help`).  A
 * command's text may say @EXAMPLES@: the folder of the example workloads this copy has. */
void cli_help_command(gw_buf *out, const gw_ctx *ctx, const cli_command *c);
/* A group's help: its text, the manual's section named after it (WORKLOAD FILES for workload)
 * and each command's synopsis and summary. */
void cli_help_group(gw_buf *out, const gw_ctx *ctx, const cli_group *g);
/* `gpuwise --help`: the global options and the commands. */
void cli_help_main(gw_buf *out);
/* The whole manual as Markdown: the source of gpuwise.1. */
void cli_manual_markdown(gw_buf *out);
/* Every workload field as a Markdown list: name, what it takes, default, the tasks it concerns
 * and its description, from the field list the workload reader checks with (cli_workload.c). */
void cli_workload_fields_markdown(gw_buf *out);
/* The global options (cli_options.c), shared by help and completion. */
extern const cli_option cli_global_options[];

/* Fills the data and XDG folders of ctx (see paths.c). */
void cli_paths_init(gw_ctx *ctx);

/* Opens the KB a command should use.  Read: --kb/GPUWISE_KB, else the user's KB when it exists,
 * else the shipped one.  Write: --kb/GPUWISE_KB, else the user's KB, created as a copy of the
 * shipped one on first write (the shipped KB is never written). */
int cli_open_kb(gw_ctx *ctx, int write, kb **out, gw_error *err);

/* A plugin host over the command's plugin folders (--plugins, the user's config folder, the
 * shipped data folder; records_host_new_in): with nothing loaded yet, or with every plugin
 * loaded.  k may be NULL.  Caller frees the host. */
int cli_plugins_new(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err);
int cli_plugins_open(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err);

/* Writes a finished document to ctx->output atomically, or to ctx->out when there is none. */
int cli_write_output(gw_ctx *ctx, const char *data, size_t len, gw_error *err);
/* The same for output written in pieces by fill (gw_write_output_with): to ctx->out as it is
 * made, or into -o's file, which replaces the target only once fill has succeeded. */
int cli_write_output_with(gw_ctx *ctx, gw_write_fn fill, void *arg, gw_error *err);
/* 0, or the gw_term_text flags (term.h) that cli_write_output shows standard output through:
 * text and Markdown for people on standard output are shown, never obeyed.  A fill for
 * cli_write_output_with passes its pieces through them itself. */
unsigned cli_output_shown(const gw_ctx *ctx);

/* Joins dir and name into out (size outsz).  Returns 0, or -1 when it does not fit. */
int cli_path_join(char *out, size_t outsz, const char *dir, const char *name);
int cli_file_exists(const char *path);

/* The groups, one per cli_*.c file. */
extern const cli_group cli_kb_group, cli_plugin_group, cli_prices_group, cli_offers_group,
    cli_render_group, cli_decide_group, cli_report_group, cli_inspect_group,
    cli_checklist_group, cli_help_group_help, cli_complete_group, cli_workload_group;

#endif
