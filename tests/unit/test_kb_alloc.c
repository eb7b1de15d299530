/* test_kb_alloc.c — the allocator SQLite uses (core/kb/kb_alloc.c): the sizes it hands out,
 * a freed block reused by the next of its size, realloc keeping the bytes, and a KB opened and
 * read through it.  Under AddressSanitizer SQLite keeps malloc: the sizes are then its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/error.h"
#include "kb/kb.h"
#include "kb/kb_alloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

static void test_sizes(void **state)
{
    (void)state;
#ifndef SANITIZED
    /* slots are multiples of 16 bytes, 8 of them the header: 100 bytes take a 112-byte slot,
     * 104 usable; 1 byte a 16-byte slot, 8 usable; 1016 (1024 - 8) is the largest small block */
    void *a = sqlite3_malloc(100), *b = sqlite3_malloc(1), *c = sqlite3_malloc(1016);
    assert_int_equal(sqlite3_msize(a), 104);
    assert_int_equal(sqlite3_msize(b), 8);
    assert_int_equal(sqlite3_msize(c), 1016);
    /* 1017 bytes and more come from malloc, the size as asked */
    void *d = sqlite3_malloc(5000);
    assert_int_equal(sqlite3_msize(d), 5000);
    /* SQLite needs 8-byte alignment */
    assert_int_equal((uintptr_t)a % 8, 0);
    assert_int_equal((uintptr_t)c % 8, 0);
    assert_int_equal((uintptr_t)d % 8, 0);
    sqlite3_free(a);
    sqlite3_free(b);
    sqlite3_free(c);
    sqlite3_free(d);
#endif
}

static void test_reuse(void **state)
{
    (void)state;
#ifndef SANITIZED
    /* the last block freed of a class is the next one given for any size of that class
     * (97..104 bytes all take the 112-byte slot) */
    void *a = sqlite3_malloc(100);
    sqlite3_free(a);
    void *b = sqlite3_malloc(97);
    assert_ptr_equal(a, b);
    /* a realloc within the class keeps the block */
    assert_ptr_equal(sqlite3_realloc(b, 104), b);
    sqlite3_free(b);
#endif
}

static void test_realloc_keeps_bytes(void **state)
{
    (void)state;
    /* grown from a small block to another class, then to a large one, and shrunk back */
    char *p = sqlite3_malloc(20);
    assert_non_null(p);
    memcpy(p, "0123456789abcdefghi", 20);
    p = sqlite3_realloc(p, 300);
    assert_non_null(p);
    assert_string_equal(p, "0123456789abcdefghi");
    memset(p + 20, 'x', 280);
    p = sqlite3_realloc(p, 4000);
    assert_non_null(p);
    assert_string_equal(p, "0123456789abcdefghi");
    assert_int_equal(p[299], 'x');
    p = sqlite3_realloc(p, 10);
    assert_non_null(p);
    assert_memory_equal(p, "0123456789", 10);
    sqlite3_free(p);
}

static void test_kb_through_it(void **state)
{
    (void)state;
    kb *k = NULL;
    gw_error err = {0};
    char *id = NULL;
    int count = 0;
    assert_int_equal(kb_open("kb/gpuwise.db", KB_READ, &k, &err), GW_OK);
    assert_int_equal(kb_gpu_resolve(k, "3090", &id, &count, &err), GW_OK);
    assert_string_equal(id, "rtx-3090");
    free(id);
    kb_close(k);
}

int main(void)
{
    kb_alloc_install();   /* before SQLite's first use, as kb_open does */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_reuse),
        cmocka_unit_test(test_realloc_keeps_bytes),
        cmocka_unit_test(test_kb_through_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
