/* cli_run.c — the dispatcher: cli_main asks the option parser (cli_options.c) what the line
 * wants, then runs the command or answers help (cli_help.c), --version or the usage itself.  It
 * sits above both so that the parser never calls the help writer. */
#include <stdio.h>

#include "cli.h"
#include "cli_options.h"

/* The help req asks for, on stream f: a command's, a group's, or gpuwise's own. */
static void write_help(FILE *f, const gw_ctx *ctx, const cli_request *req)
{
    gw_buf b = GW_BUF_INIT;
    if (req->command)
        cli_help_command(&b, ctx, req->command);
    else if (req->group)
        cli_help_group(&b, ctx, req->group);
    else
        cli_help_main(&b);
    fputs(buf_cstr(&b), f);
    buf_free(&b);
}

int cli_main(gw_ctx *ctx, int argc, char **argv, const char **name, gw_error *err)
{
    cli_request req;
    int rc = cli_parse(ctx, argc, argv, &req, name, err);
    if (rc == GW_OK) {
        switch (req.answer) {
        case CLI_ANSWER_RUN:
            rc = req.command->run(ctx, &req.args, err);
            break;
        case CLI_ANSWER_HELP:
            write_help(ctx->out, ctx, &req);
            break;
        case CLI_ANSWER_VERSION:
            fprintf(ctx->out, "gpuwise %s\n", GW_VERSION);
            break;
        case CLI_ANSWER_USAGE:
            write_help(ctx->diag, ctx, &req);
            rc = GW_EUSAGE;   /* the usage is the message */
            break;
        }
    }
    cli_request_free(&req);
    return rc;
}
