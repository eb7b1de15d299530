/* test_worker.c — the worker process itself (worker.h), with real processes: the seccomp filter
 * refuses files, sockets, exec and fork; memory is limited by RLIMIT_AS; only the channel is
 * open; a worker that does not answer is killed at the deadline; messages round-trip exactly and
 * malformed ones are refused. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/check.h"
#include "base/clock.h"
#include "sandbox/worker.h"

/* In the worker: tries what a plugin that escaped Lua would, and answers with each errno. */
static int escape_main(int fd, void *ud)
{
    (void)ud;
    view *req = worker_read(fd);
    view *r = view_map();
#if !defined(__SANITIZE_ADDRESS__)   /* without the filter, execve would replace the worker */
    errno = 0;
    int f = open("/etc/passwd", O_RDONLY);
    view_map_set_int(r, "open", f < 0 ? errno : 0);
    errno = 0;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    view_map_set_int(r, "socket", s < 0 ? errno : 0);
    char *argv[] = {"/bin/true", NULL};
    errno = 0;
    execve("/bin/true", argv, NULL);
    view_map_set_int(r, "execve", errno);
    errno = 0;
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    view_map_set_int(r, "fork", pid < 0 ? errno : 0);
#endif
    errno = 0;
    view_map_set_int(r, "stdin", write(2, "x", 1) < 0 ? errno : 0);
    /* 300 MiB more than the 32 MiB + room the limit leaves */
    void *big = malloc(300u * 1024 * 1024);
    view_map_set_bool(r, "big_malloc", big != NULL);
    free(big);
    worker_write(fd, r);
    view_free(r);
    view_free(req);
    return 0;
}

static void test_escapes_refused(void **state)
{
    (void)state;
    worker_limits l = {32u * 1024 * 1024, 10};
    worker *w;
    gw_error err = {0};
    assert_int_equal(worker_start(&l, NULL, escape_main, NULL, &w, &err), GW_OK);
    view *req = view_map(), *reply = NULL;
    int timed_out = 0;
    assert_int_equal(worker_request(w, req, gw_now_seconds() + 10, NULL, NULL, &reply, &timed_out,
                                    &err), GW_OK);
    /* fd 2 is closed (EBADF) or refused (EPERM): either way nothing is written */
    assert_true(view_num(view_map_get(reply, "stdin")) == EPERM ||
                view_num(view_map_get(reply, "stdin")) == EBADF);
#if !defined(__SANITIZE_ADDRESS__)   /* make asan runs without the filter and RLIMIT_AS */
    assert_int_equal(view_num(view_map_get(reply, "open")), EPERM);
    assert_int_equal(view_num(view_map_get(reply, "socket")), EPERM);
    assert_int_equal(view_num(view_map_get(reply, "execve")), EPERM);
    assert_int_equal(view_num(view_map_get(reply, "fork")), EPERM);
    assert_false(view_bool_value(view_map_get(reply, "big_malloc")));
#endif
    view_free(req);
    view_free(reply);
    worker_free(w);
}

static int hang_main(int fd, void *ud)
{
    (void)ud;
    view *req = worker_read(fd);
    for (volatile int spin = 1; spin;)
        ;
    view_free(req);
    return 0;
}

static void test_deadline_kills(void **state)
{
    (void)state;
    worker_limits l = {0, 0};
    worker *w;
    gw_error err = {0};
    assert_int_equal(worker_start(&l, NULL, hang_main, NULL, &w, &err), GW_OK);
    view *req = view_map(), *reply = NULL;
    int timed_out = 0;
    double start = gw_now_seconds();
    assert_int_equal(worker_request(w, req, start + 0.3, NULL, NULL, &reply, &timed_out, &err),
                     GW_ESOFTWARE);
    double took = gw_now_seconds() - start;
    assert_int_equal(timed_out, 1);
    assert_null(reply);
    assert_true(took >= 0.3 && took < 2);   /* the deadline, plus the kill and the wait */
    assert_non_null(strstr(worker_end(w), "signal 9"));
    /* a dead worker answers nothing */
    assert_int_equal(worker_request(w, req, gw_now_seconds() + 1, NULL, NULL, &reply, &timed_out,
                                    &err), GW_ESOFTWARE);
    view_free(req);
    worker_free(w);
}

static void test_codec_round_trip(void **state)
{
    (void)state;
    view *v = view_map();
    view_map_set_num(v, "third", 1.0 / 3.0);
    view_map_set_str(v, "text", "caf\xc3\xa9");
    view_map_set(v, "nul", view_stringn("a\0b", 3));
    view *l = view_map_set(v, "list", view_list());
    view_list_push(l, view_null());
    view_list_push(l, view_bool(1));
    gw_buf b = GW_BUF_INIT;
    worker_encode(v, &b);
    gw_error err = {0};
    view *back = worker_decode(b.data, b.len, &err);
    assert_non_null(back);
    assert_true(view_num(view_map_get(back, "third")) == 1.0 / 3.0);   /* exact, all 64 bits */
    assert_string_equal(view_str(view_map_get(back, "text")), "caf\xc3\xa9");
    assert_int_equal(view_str_len(view_map_get(back, "nul")), 3);
    assert_true(view_bool_value(view_list_at(view_map_get(back, "list"), 1)));
    view_free(back);
    /* every truncation of the message is refused, never read past its end */
    for (size_t n = 0; n < b.len; n++)
        assert_null(worker_decode(b.data, n, &err));
    /* a list claiming 2^32-1 items in a few bytes */
    assert_null(worker_decode("l\xff\xff\xff\xff", 5, &err));
    view_free(v);
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes_refused),
        cmocka_unit_test(test_deadline_kills),
        cmocka_unit_test(test_codec_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
