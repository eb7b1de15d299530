/* cli_offers.c — the `gpuwise offers` command.  (Being written.) */
#include "cli.h"

static int cmd_offers(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_offers_command = {
    "offers",
    "(being written)",
    "usage: gpuwise offers\n",
    cmd_offers,
};
