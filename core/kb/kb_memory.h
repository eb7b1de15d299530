/* kb_memory.h — the allocator SQLite's objects come from (kb_memory.c). */
#ifndef GW_KB_MEMORY_H
#define GW_KB_MEMORY_H

/* Gives SQLite kb_memory.c's allocator.  Only before SQLite's first use (sqlite3_initialize),
 * from the one thread that uses SQLite; later it changes nothing. */
void kb_memory_install(void);

#endif
