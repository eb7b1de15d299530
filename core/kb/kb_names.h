/* kb_names.h — the name-resolution cache as the other kb_*.c files see it (kb_names.c): built
 * when a name is first resolved (names_load), kept up by writes of GPUs and aliases, checked by
 * kb_check. */
#ifndef GW_KB_NAMES_H
#define GW_KB_NAMES_H

#include "base/buf.h"
#include "kb.h"

void kb_names_drop(kb *k);                 /* after a write it cannot follow */
/* After storing row v of table (KB_GPUS or KB_ALIASES) with outcome (KB_ADDED, ...): an added
 * GPU or alias joins the cache (one reload per import row made importing thousands of GPUs
 * quadratic: TechPowerUp's 767 took 10x as long), anything else drops it. */
void kb_names_written(kb *k, int table, const kb_value *v, int outcome);
/* One report line per name two GPUs answer to, and per desktop card with a laptop alias
 * ("RTX 3080 Laptop" on rtx-3080); returns their number, -1 (err set) when the names cannot be
 * read. */
int kb_names_clashes(kb *k, gw_buf *report, gw_error *err);

#endif
