/* test_worker_memory.c — a worker whose memory runs out is told from one that crashed: a failed
 * gw_xmalloc and a stack that cannot grow (its address space all used) end it with
 * WORKER_EXIT_NO_MEMORY, worker_out_of_memory says so; a wild pointer is still a crash, killed
 * by SIGSEGV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/clock.h"
#include "sandbox/worker.h"

/* Takes every byte of address space malloc can get, keeping it (a list through the blocks). */
static void fill_memory(void)
{
    void **head = NULL;
    for (size_t size = 1u << 20; size >= 64; ) {
        void **block = malloc(size);
        if (!block) {
            size /= 2;
            continue;
        }
        *block = head;
        head = block;
    }
    if (head)
        *(volatile char *)head = 1;   /* kept to the end */
}

static int xmalloc_main(int fd, void *ud)
{
    (void)fd;
    (void)ud;
    fill_memory();
    char *p = gw_xmalloc(4u << 20);   /* fails: ends the worker */
    return p ? 1 : 2;
}

/* Each level keeps 64 KiB of stack, so the stack must grow, which the full address space
 * refuses. */
static int deep(int n)
{
    volatile char frame[64 * 1024];
    frame[0] = (char)n;
    frame[sizeof frame - 1] = (char)n;
    return n ? deep(n - 1) + frame[0] : frame[sizeof frame - 1];
}

static int stack_main(int fd, void *ud)
{
    (void)fd;
    (void)ud;
    fill_memory();
    return deep(1000) == 12345;   /* 64 MiB of stack, far beyond what is left */
}

static volatile uintptr_t wild = 16;   /* an address nothing maps */

static int crash_main(int fd, void *ud)
{
    (void)fd;
    (void)ud;
    *(volatile int *)wild = 1;   /* a wild pointer, with memory to spare */
    return 0;
}

/* AddressSanitizer's builds set no RLIMIT_AS (worker.c): filling memory would take the
 * machine's. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_ADDRESS_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ADDRESS_LIMIT 1
#endif
#endif

/* Runs fn in a worker limited to 32 MiB; returns the ended worker (caller frees). */
static worker *run_to_end(worker_main_fn fn)
{
#ifdef NO_ADDRESS_LIMIT
    if (fn != crash_main)
        skip();
#endif
    worker_limits l = {32u * 1024 * 1024, 10};
    worker *w = NULL;
    gw_error err;
    assert_int_equal(worker_start(&l, NULL, fn, NULL, &w, &err), GW_OK);
    view *reply = NULL;
    int timed_out = 0;
    assert_int_not_equal(worker_request(w, NULL, gw_now_seconds() + 20, NULL, NULL, &reply,
                                        &timed_out, &err), GW_OK);
    assert_false(timed_out);
    return w;
}

static void test_failed_allocation_is_out_of_memory(void **state)
{
    (void)state;
    worker *w = run_to_end(xmalloc_main);
    assert_true(worker_out_of_memory(w));
    assert_string_equal(worker_end(w), "exited with status 74");   /* WORKER_EXIT_NO_MEMORY */
    worker_free(w);
}

static void test_stack_without_room_is_out_of_memory(void **state)
{
    (void)state;
    worker *w = run_to_end(stack_main);
    assert_true(worker_out_of_memory(w));
    worker_free(w);
}

static void test_wild_pointer_is_a_crash(void **state)
{
    (void)state;
    worker *w = run_to_end(crash_main);
    assert_false(worker_out_of_memory(w));
    assert_non_null(strstr(worker_end(w), "killed by signal 11"));
    worker_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_allocation_is_out_of_memory),
        cmocka_unit_test(test_stack_without_room_is_out_of_memory),
        cmocka_unit_test(test_wild_pointer_is_a_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
