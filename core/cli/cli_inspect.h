/* cli_inspect.h — what `gpuwise inspect` shares with `gpuwise checklist --dump`: the checks of
 * inspect/ run with the KB as the card reference (inspect/ is handed the lookup, never the KB). */
#ifndef GW_CLI_INSPECT_H
#define GW_CLI_INSPECT_H

#include "base/error.h"
#include "cli.h"
#include "inspect/inspect.h"
#include "inspect/nvsmi.h"

/* Runs inspect_run on log, its cards looked up in the KB when one opens; without one it says so
 * on ctx->diag ("gpuwise COMMAND: no knowledge base (...)") and the cards are not identified.
 * Returns inspect_run's code; caller frees *out with inspect_result_free. */
int cli_inspect_log(gw_ctx *ctx, const char *command, const nvsmi_log *log, inspect_result **out,
                    gw_error *err);

#endif
