/* cli_table.c — the command groups, in the order `gpuwise --help` and the manual list them. */
#include "cli.h"

const cli_group *const cli_groups[] = {
    &cli_kb_group,      &cli_offers_group,    &cli_prices_group, &cli_plugin_group,
    &cli_decide_group,  &cli_report_group,    &cli_workload_group, &cli_inspect_group,
    &cli_checklist_group,
    &cli_render_group,  &cli_help_group_help, &cli_complete_group, NULL,
};
