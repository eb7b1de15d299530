/* cli_options.h — what the option parser (cli_options.c) makes of a command line, for the
 * dispatcher (cli_run.c): the command to run with its arguments, or help, --version or the usage
 * to answer instead.  The parser writes nothing; the dispatcher answers. */
#ifndef GW_CLI_OPTIONS_H
#define GW_CLI_OPTIONS_H

#include "cli.h"

typedef enum cli_answer {
    CLI_ANSWER_RUN,       /* run command with args */
    CLI_ANSWER_HELP,      /* the help of command, else of group, else `gpuwise --help` */
    CLI_ANSWER_VERSION,   /* the version */
    CLI_ANSWER_USAGE      /* no command on the line: the usage on the diagnostics stream, 64 */
} cli_answer;

typedef struct cli_request {
    cli_answer answer;
    const cli_group *group;       /* CLI_ANSWER_HELP of a group; else NULL */
    const cli_command *command;   /* the command named; NULL before one is known */
    cli_args args;                /* its operands and options (the arrays: cli_request_free) */
} cli_request;

/* Parses argv (global options, the command, its options and operands) into *req and fills ctx
 * (global options, the output format).  *name gets the command's full name for error messages
 * ("kb show"; "" before one is known).  Returns GW_OK with req->answer set, or GW_EUSAGE with
 * err set.  Either way the caller frees *req with cli_request_free. */
int cli_parse(gw_ctx *ctx, int argc, char **argv, cli_request *req, const char **name,
              gw_error *err);
void cli_request_free(cli_request *req);

#endif
