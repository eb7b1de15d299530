/* kb_alloc.c — the memory SQLite allocates: small blocks from size-classed free lists carved
 * out of 64 KiB slabs, larger ones from malloc.  Installed once, before SQLite's first use.
 *
 * Why: the SQLite gpuwise links is built without lookaside memory (SQLITE_OMIT_LOOKASIDE), so
 * reading a KB's schema (87 objects, each parsed on open) and preparing each statement make
 * thousands of small malloc/free pairs: on the shipped KB 1.5 M of `kb show`'s 6.8 M
 * instructions were in glibc's malloc and free for SQLite.  A free list answers in a few
 * instructions.  Memory a size class has freed stays on its list for the next block of that
 * size (a command's SQLite memory is bounded by its caches), and slabs live as long as the
 * process.  gpuwise calls SQLite from one thread; plugin workers are forked, not threads.
 * Under AddressSanitizer SQLite keeps malloc, so the sanitizer still sees each block; under
 * valgrind each block is announced as a heap block (valgrind/memcheck.h, when built with it),
 * so memcheck still finds a leaked statement or a use after free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sqlite3.h>

#include "kb_alloc.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define KB_ALLOC_VALGRIND 1
#endif
#endif
#ifndef KB_ALLOC_VALGRIND
#define VALGRIND_MALLOCLIKE_BLOCK(p, size, redzone, zeroed) ((void)0)
#define VALGRIND_FREELIKE_BLOCK(p, redzone) ((void)0)
#endif

#if defined(__SANITIZE_ADDRESS__)
#define KB_ALLOC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KB_ALLOC_SANITIZED 1
#endif
#endif

#ifndef KB_ALLOC_SANITIZED
/* Every block is preceded by one 8-byte word: its usable size while it is in use, the next
 * free block of its class while it is free.  A small block's slot (word and block) is a
 * multiple of 16 bytes up to SLOT_MAX, so its block starts 8 bytes into a 16-byte boundary:
 * SQLite asks for 8-byte alignment. */
#define HEADER 8
#define SLOT_STEP 16
#define SLOT_MAX 1024
#define SMALL_MAX (SLOT_MAX - HEADER)   /* 1016: the largest small block */
#define CLASSES (SLOT_MAX / SLOT_STEP)
#define SLAB_BYTES (64 * 1024)

static uint64_t *free_list[CLASSES];   /* the header word of each class's first free block */
static unsigned char *slab_next, *slab_end;

/* The class of a small request of n bytes (n <= SMALL_MAX), and its usable size. */
static int class_of(size_t n)
{
    return (int)((n + HEADER + SLOT_STEP - 1) / SLOT_STEP) - 1;
}

static size_t class_size(int c)
{
    return (size_t)(c + 1) * SLOT_STEP - HEADER;
}

/* A fresh slot of class c, carved from the current slab or a new one; NULL when the system
 * has no memory.  The tail of a slab too short for a slot is left unused. */
static uint64_t *slot_carve(int c)
{
    size_t bytes = (size_t)(c + 1) * SLOT_STEP;
    if (!slab_next || (size_t)(slab_end - slab_next) < bytes) {
        /* mmap, not malloc: valgrind then sees only the blocks announced in it */
        void *slab = mmap(NULL, SLAB_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                          -1, 0);
        if (slab == MAP_FAILED)
            return NULL;
        slab_next = slab;
        slab_end = slab_next + SLAB_BYTES;
    }
    uint64_t *slot = (uint64_t *)(void *)slab_next;
    slab_next += bytes;
    return slot;
}

static void *pool_malloc(int n)
{
    if (n <= 0)
        return NULL;
    size_t size = (size_t)n;
    if (size > SMALL_MAX) {
        /* 16 bytes in front keep a large block's 16-byte alignment; the size is in the second */
        uint64_t *p = malloc(size + 2 * HEADER);
        if (!p)
            return NULL;
        p[1] = size;
        return p + 2;
    }
    int c = class_of(size);
    uint64_t *slot = free_list[c];
    if (slot)
        free_list[c] = (uint64_t *)(uintptr_t)*slot;
    else if (!(slot = slot_carve(c)))
        return NULL;
    *slot = class_size(c);
    VALGRIND_MALLOCLIKE_BLOCK(slot + 1, class_size(c), 0, 0);
    return slot + 1;
}

static void pool_free(void *p)
{
    if (!p)
        return;
    uint64_t *header = (uint64_t *)p - 1;
    size_t size = (size_t)*header;
    if (size > SMALL_MAX) {
        free(header - 1);
        return;
    }
    VALGRIND_FREELIKE_BLOCK(p, 0);
    int c = class_of(size);
    *header = (uint64_t)(uintptr_t)free_list[c];
    free_list[c] = header;
}

static int pool_size(void *p)
{
    return p ? (int)((uint64_t *)p)[-1] : 0;
}

static int pool_roundup(int n)
{
    if (n <= 0)
        return 0;
    if ((size_t)n > SMALL_MAX)
        return (n + 7) & ~7;
    return (int)class_size(class_of((size_t)n));
}

/* As realloc: the same block where its class already holds n bytes. */
static void *pool_realloc(void *p, int n)
{
    if (!p)
        return pool_malloc(n);
    int old = pool_size(p);
    if (n > 0 && pool_roundup(n) == old)
        return p;
    void *to = pool_malloc(n);
    if (to) {
        memcpy(to, p, (size_t)(old < n ? old : n));
        pool_free(p);
    }
    return to;
}

static int pool_init(void *unused)
{
    (void)unused;
    return SQLITE_OK;
}

static void pool_shutdown(void *unused)
{
    (void)unused;
}

void kb_alloc_install(void)
{
    static const sqlite3_mem_methods methods = {
        pool_malloc, pool_free, pool_realloc, pool_size, pool_roundup, pool_init, pool_shutdown,
        NULL};
    sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
}
#else
void kb_alloc_install(void)
{
}
#endif
