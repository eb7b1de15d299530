/* checklist.h — checklists (plugins of kind "checklist") as documents: the items a buyer or
 * renter goes through, with the ones an nvidia-smi inspection answers filled in.  Used by
 * `gpuwise checklist` and by the justification report for the checklists its rules name. */
#ifndef GW_CHECKLIST_H
#define GW_CHECKLIST_H

#include "base/error.h"
#include "sandbox/plugin.h"
#include "base/view.h"

/* Builds the model of checklist `name` from host (already loaded).  inspection may be NULL; when
 * given (an inspect_view tree), items whose `auto` names a check id are answered with the worst
 * status of that check over all GPUs, then the plugin's evaluate(inspection), when it has one,
 * adds or overrides answers.
 * The model: {name, title, description, version, path, severity_counts {high, medium, low},
 * items[] {n, id, question, how_to_check, severity, auto, answer {status, text} or null},
 * answered, has_answers, inspection_source}.
 * GW_ENOTFOUND when there is no checklist of that name (the message lists the ones there are);
 * GW_ESOFTWARE when the plugin breaks its contract.  Caller frees *out. */
int checklist_view(plugin_host *host, const char *name, const view *inspection, view **out,
                   gw_error *err);

/* The checklists the host has loaded: a list of {name, description, version, path, items},
 * sorted by name.  Caller frees. */
view *checklist_list(plugin_host *host);

#endif
