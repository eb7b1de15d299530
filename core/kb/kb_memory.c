/* kb_memory.c — the memory SQLite allocates (SQLITE_CONFIG_MALLOC): blocks of up to SMALL_MAX
 * bytes from a free list per size, carved from chunks; larger ones from malloc.  The system's
 * SQLite has no lookaside (SQLITE_OMIT_LOOKASIDE): reading the KB's schema alone is 3,800
 * mallocs and frees, glibc's a fifth of `kb show`.  Single-threaded, as gpuwise's SQLite use. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kb_memory.h"

#define HEAD 8                            /* the block's usable size, before it */
#define GRAIN 16                          /* block sizes, header included, are multiples */
#define SMALL_MAX (512 - HEAD)            /* the largest usable size a free list serves */
#define CLASSES (512 / GRAIN + 1)         /* class k: blocks of k * GRAIN bytes, k = 1..32 */
#define CHUNK (64 * 1024)

typedef struct free_block {
    struct free_block *next;
} free_block;

typedef struct chunk {
    struct chunk *next;
    uint64_t pad;                         /* blocks start 16-aligned, as malloc's do */
} chunk;

static free_block *free_lists[CLASSES];
static chunk *chunks;                     /* every chunk, so that each stays reachable */
static char *carve;                       /* the unused rest of the newest chunk */
static size_t carve_left;

/* The class of a usable size of at most SMALL_MAX. */
static size_t size_class(size_t n)
{
    return (n + HEAD + GRAIN - 1) / GRAIN;
}

static uint64_t *head_of(void *p)
{
    return (uint64_t *)p - 1;
}

static void *mem_malloc(int bytes)
{
    size_t n = bytes > 0 ? (size_t)bytes : 1;
    if (n > SMALL_MAX) {
        uint64_t usable = ((uint64_t)n + 7) & ~(uint64_t)7;
        uint64_t *h = malloc(usable + HEAD);
        if (!h)
            return NULL;
        *h = usable;
        return h + 1;
    }
    size_t k = size_class(n);
    free_block *b = free_lists[k];
    if (b) {
        free_lists[k] = b->next;
        return b;
    }
    size_t total = k * GRAIN;
    if (carve_left < total) {   /* what is left of the old chunk (under 512 bytes) is let go */
        chunk *c = malloc(CHUNK);
        if (!c)
            return NULL;
        c->next = chunks;
        chunks = c;
        carve = (char *)(c + 1);
        carve_left = CHUNK - sizeof *c;
    }
    uint64_t *h = (uint64_t *)(void *)carve;
    carve += total;
    carve_left -= total;
    *h = total - HEAD;
    return h + 1;
}

static void mem_free(void *p)
{
    if (!p)
        return;
    uint64_t usable = *head_of(p);
    if (usable > SMALL_MAX) {
        free(head_of(p));
        return;
    }
    free_block *b = p;
    size_t k = size_class((size_t)usable);
    b->next = free_lists[k];
    free_lists[k] = b;
}

static int mem_size(void *p)
{
    return p ? (int)*head_of(p) : 0;
}

static int mem_roundup(int bytes)
{
    size_t n = bytes > 0 ? (size_t)bytes : 1;
    if (n > SMALL_MAX)
        return (int)((n + 7) & ~(size_t)7);
    return (int)(size_class(n) * GRAIN - HEAD);
}

static void *mem_realloc(void *p, int bytes)
{
    size_t n = bytes > 0 ? (size_t)bytes : 1;
    uint64_t usable = *head_of(p);
    if (usable > SMALL_MAX && n > SMALL_MAX) {
        uint64_t want = ((uint64_t)n + 7) & ~(uint64_t)7;
        uint64_t *h = realloc(head_of(p), want + HEAD);
        if (!h)
            return NULL;
        *h = want;
        return h + 1;
    }
    if (usable <= SMALL_MAX && n <= SMALL_MAX && size_class(n) == size_class((size_t)usable))
        return p;
    void *q = mem_malloc(bytes);
    if (!q)
        return NULL;
    memcpy(q, p, n < usable ? n : (size_t)usable);
    mem_free(p);
    return q;
}

static int mem_init(void *unused)
{
    (void)unused;
    return SQLITE_OK;
}

/* sqlite3_shutdown: every block is free by then, and the chunks go back. */
static void mem_shutdown(void *unused)
{
    (void)unused;
    while (chunks) {
        chunk *next = chunks->next;
        free(chunks);
        chunks = next;
    }
    memset(free_lists, 0, sizeof free_lists);
    carve = NULL;
    carve_left = 0;
}

/* Under AddressSanitizer SQLite keeps malloc, whose every block the sanitizer guards. */
#if defined(__SANITIZE_ADDRESS__)
#define KB_MEMORY_SYSTEM 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KB_MEMORY_SYSTEM 1
#endif
#endif

void kb_memory_install(void)
{
#ifndef KB_MEMORY_SYSTEM
    static const sqlite3_mem_methods methods = {mem_malloc,  mem_free, mem_realloc,  mem_size,
                                                mem_roundup, mem_init, mem_shutdown, NULL};
    sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
#endif
}
