/* cli_prices.c — the `gpuwise prices` command.  (Being written.) */
#include "cli.h"

static int cmd_prices(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_prices_command = {
    "prices",
    "(being written)",
    "usage: gpuwise prices\n",
    cmd_prices,
};
