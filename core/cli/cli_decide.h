/* cli_decide.h — what `gpuwise decide` and `gpuwise report` share: reading a workload, opening
 * the KB and the plugins, and running the decision. */
#ifndef GW_CLI_DECIDE_H
#define GW_CLI_DECIDE_H

#include "cli.h"
#include "decide/decide.h"
#include "sandbox/plugin.h"
#include "model/workload.h"

typedef struct cli_decision {
    kb *k;
    plugin_host *host;
    workload *w;
    decision *d;
} cli_decision;

/* Opens the KB and the plugins (records_host_new: --plugins, the user's, the shipped ones; the
 * rule plugins are loaded, other kinds with plugin_host_load_kind), reads path and decides
 * (flags as decide_run's).  On failure everything opened is closed again.  Free with
 * cli_decision_free. */
int cli_decision_run(gw_ctx *ctx, const char *path, unsigned flags, cli_decision *out,
                     gw_error *err);
void cli_decision_free(cli_decision *c);
/* GW_NO_OPTION where no option of the decision is feasible, with the one line saying why (the
 * closest option and what it lacks), for a command to return once its output is written;
 * else GW_OK (a decision whose feasible options are all held back is an answer too). */
int cli_decision_verdict(const cli_decision *c, gw_error *err);

/* --all-options, which decide and report both take: described here once. */
#define CLI_ALL_OPTIONS_OPTION                                                                \
    {"all-options", 0, NULL, CLI_TEXT, NULL,                                                  \
     "the rules judge every option, none set aside: an option whose lowest possible cost "    \
     "(its bands' favourable corner x the least factor the rules declare they can give) is "  \
     "above the best's highest is otherwise shown as set aside, unjudged; the tables are the " \
     "same either way",                                                                       \
     0}
/* The decision's flags from the options a command was given (--all-options). */
unsigned cli_decision_flags(const cli_args *args);

#endif
