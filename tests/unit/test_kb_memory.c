/* test_kb_memory.c — the allocator SQLite is given (core/kb/kb_memory.c): the sizes it rounds
 * to, blocks reused by size, contents kept through realloc, 8-byte alignment, and blocks
 * across several chunks that never overlap.  Its own binary: the allocator is installed only
 * before SQLite's first use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "kb/kb_memory.h"

#if defined(__SANITIZE_ADDRESS__)
#define SYSTEM_MALLOC 1   /* kb_memory.c leaves malloc to the sanitizer */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYSTEM_MALLOC 1
#endif
#endif

static int aligned(const void *p)
{
    return ((uintptr_t)p & 7) == 0;
}

/* Blocks are 16-byte multiples with an 8-byte size in front: a request of n gets
 * ceil((n + 8) / 16) * 16 - 8 bytes, up to 504; larger ones n rounded up to 8. */
static void test_sizes(void **state)
{
    (void)state;
    static const struct {
        int asked, given;
    } sizes[] = {
        {1, 8},        /* 1 + 8 = 9 -> 16, less the 8 in front */
        {8, 8},        /* 16 - 8 */
        {9, 24},       /* 17 -> 32 - 8 */
        {100, 104},    /* 108 -> 112 - 8 */
        {504, 504},    /* 512 - 8: the largest from a free list */
        {505, 512},    /* from malloc: 505 rounded up to 8 */
        {5000, 5000},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        void *p = sqlite3_malloc(sizes[i].asked);
        assert_non_null(p);
        assert_true(aligned(p));
        assert_int_equal(sqlite3_msize(p), sizes[i].given);
        memset(p, 0xAB, (size_t)sizes[i].given);   /* all of it is the caller's */
        sqlite3_free(p);
    }
}

/* A freed block is the next one given of its size, and only of its size. */
static void test_reuse_by_size(void **state)
{
    (void)state;
    void *p = sqlite3_malloc(100);
    sqlite3_free(p);
    void *other = sqlite3_malloc(200);   /* 208 -> 208 bytes: another size */
    assert_ptr_not_equal(other, p);
    void *same = sqlite3_malloc(97);     /* 105 -> 112 bytes, as 100's */
    assert_ptr_equal(same, p);
    sqlite3_free(same);
    sqlite3_free(other);
}

/* realloc keeps the contents: within a block's size in place, else copied, small or large. */
static void test_realloc_keeps_contents(void **state)
{
    (void)state;
    char *p = sqlite3_malloc(20);   /* 28 -> 32: 24 usable */
    memcpy(p, "0123456789abcdefghi", 20);
    char *q = sqlite3_realloc(p, 24);
    assert_ptr_equal(q, p);         /* 24 fits the 24 it has */
    q = sqlite3_realloc(q, 300);    /* another size: moved */
    assert_string_equal(q, "0123456789abcdefghi");
    q = sqlite3_realloc(q, 4000);   /* to malloc */
    assert_string_equal(q, "0123456789abcdefghi");
    q = sqlite3_realloc(q, 9000);   /* malloc to malloc */
    assert_string_equal(q, "0123456789abcdefghi");
    q = sqlite3_realloc(q, 10);     /* back to a free list: the first 10 bytes */
    assert_memory_equal(q, "0123456789", 10);
    assert_int_equal(sqlite3_msize(q), 24);   /* 18 -> 32 - 8 */
    sqlite3_free(q);
}

/* 1,000 blocks of 200 bytes (208 each) fill more than three 64 KB chunks; each keeps what was
 * written to it. */
static void test_many_chunks(void **state)
{
    (void)state;
    enum { N = 1000 };
    static unsigned char *blocks[N];
    for (int i = 0; i < N; i++) {
        blocks[i] = sqlite3_malloc(200);
        assert_non_null(blocks[i]);
        assert_true(aligned(blocks[i]));
        memset(blocks[i], i & 0xFF, 200);
    }
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 200; j++)
            assert_int_equal(blocks[i][j], i & 0xFF);
        sqlite3_free(blocks[i]);
    }
}

int main(void)
{
#ifdef SYSTEM_MALLOC
    return 0;   /* nothing of kb_memory.c's to test */
#else
    kb_memory_install();   /* before anything starts SQLite */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_reuse_by_size),
        cmocka_unit_test(test_realloc_keeps_contents),
        cmocka_unit_test(test_many_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#endif
}
