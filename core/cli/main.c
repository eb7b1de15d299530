/* main.c — sets up the context (streams, colour, $GPUWISE_KB, folders, signals), hands argv to
 * cli_main (cli_run.c: the parser, then the command or help), and is the only place that prints
 * an error and chooses the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "base/limits.h"
#include "base/signals.h"

int main(int argc, char **argv)
{
    gw_ctx ctx = {0};
    gw_error err = {0};
    const char *name = "";

    ctx.out = stdout;
    ctx.diag = stderr;
    ctx.argv0 = argv[0];
    ctx.format = "text";
    ctx.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    ctx.progress = isatty(STDERR_FILENO);
    const char *env_kb = getenv("GPUWISE_KB");
    if (env_kb && *env_kb)
        ctx.kb_path = env_kb;
    cli_paths_init(&ctx);
    gw_signals_install();
    gw_signals_on_interrupt(kb_interrupt_all);

    /* every numeric variable is checked here, so garbage is an error whichever command runs */
    int rc = gw_env_check(&err);
    if (rc == GW_OK)
        rc = cli_main(&ctx, argc, argv, &name, &err);
    const char *sep = *name ? " " : "";
    if (gw_signal_pending() && rc != GW_OK) {
        /* whatever failed, it failed because it was told to stop */
        if (err.code == gw_signal_exit_code())
            fprintf(stderr, "gpuwise%s%s: %s\n", sep, name, err.msg);
        else
            fprintf(stderr, "gpuwise%s%s: interrupted by %s%s%s\n", sep, name,
                    gw_signal_name(), err.msg[0] ? ": " : "", err.msg);
        return gw_signal_exit_code();
    }
    if (fflush(stdout) != 0 && rc == GW_OK) {
        perror("gpuwise: writing output");
        return GW_EIO;
    }
    if (rc != GW_OK && err.msg[0])
        fprintf(stderr, "gpuwise%s%s: %s\n", sep, name, err.msg);
    return rc;
}
