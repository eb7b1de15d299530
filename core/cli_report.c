/* cli_report.c — the `gpuwise report` command.  (Being written.) */
#include "cli.h"

static int cmd_report(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_report_command = {
    "report",
    "(being written)",
    "usage: gpuwise report\n",
    cmd_report,
};
