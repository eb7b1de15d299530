/* cli_decide.c — the `gpuwise decide` command.  (Being written.) */
#include "cli.h"

static int cmd_decide(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_decide_command = {
    "decide",
    "(being written)",
    "usage: gpuwise decide\n",
    cmd_decide,
};
