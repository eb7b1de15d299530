/* embedded.h — the shipped plugins, compiled when the program is built (core/tools/
 * embed_plugins.c writes the table).  A plugin file whose text is exactly one of these is loaded
 * from its bytecode instead of being parsed again; any other file is parsed as usual. */
#ifndef GW_EMBEDDED_H
#define GW_EMBEDDED_H

#include <stddef.h>

typedef struct embedded_chunk {
    const char *text;            /* the plugin's source, byte for byte */
    size_t text_len;
    const unsigned char *code;   /* lua_dump of it, not stripped, chunk name EMBEDDED_MARKER */
    size_t code_len;
} embedded_chunk;

/* The chunk name the bytecode is dumped under; the loader puts the real file's name in its
 * place (the main function's source string, the first string in the dump). */
#define EMBEDDED_MARKER "=<gpuwise embedded chunk>"

extern const embedded_chunk gw_embedded_chunks[];
extern const size_t gw_n_embedded_chunks;

/* The shipped chunk whose text is byte for byte text (len bytes), or NULL: a plugin is shipped
 * exactly when this finds its text.  A byte comparison, not a hash: no collision to argue about,
 * and the length is compared first, so a user plugin costs a few comparisons. */
const embedded_chunk *embedded_find(const char *text, size_t len);

#endif
