/* embedded.c — finding a shipped plugin by its text (embedded.h).  gpuwise's own process asks
 * it of the text it read itself to decide whether a plugin is shipped; the worker asks it to load
 * the compiled copy. */
#include "embedded.h"

#include <string.h>

const embedded_chunk *embedded_find(const char *text, size_t len)
{
    for (size_t i = 0; text && i < gw_n_embedded_chunks; i++)
        if (gw_embedded_chunks[i].text_len == len &&
            memcmp(gw_embedded_chunks[i].text, text, len) == 0)
            return &gw_embedded_chunks[i];
    return NULL;
}
