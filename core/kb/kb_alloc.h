/* kb_alloc.h — the allocator SQLite uses (kb_alloc.c).  Only kb_file.c includes it. */
#ifndef GW_KB_ALLOC_H
#define GW_KB_ALLOC_H

/* Gives SQLite its free-list allocator; called once, before SQLite's first use (later calls
 * change nothing).  Under AddressSanitizer SQLite keeps malloc. */
void kb_alloc_install(void);

#endif
