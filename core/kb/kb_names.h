/* kb_names.h — the name-resolution cache as the other kb_*.c files see it (kb_names.c): built
 * when a name is first resolved (names_load), dropped by every write, checked by kb_check. */
#ifndef GW_KB_NAMES_H
#define GW_KB_NAMES_H

#include "base/buf.h"
#include "kb.h"

void kb_names_drop(kb *k);                 /* after every write */
/* 1 when the cache is built: a name that is some GPU's whole name, resolved first on a
 * connection, is found without it (tests check that it was). */
int kb_names_cached(const kb *k);
/* One report line per name two GPUs answer to, and per desktop card with a laptop alias
 * ("RTX 3080 Laptop" on rtx-3080); returns their number, -1 (err set) when the names cannot be
 * read. */
int kb_names_clashes(kb *k, gw_buf *report, gw_error *err);

#endif
