/* test_worker_reap.c — a worker's pid leaves the signal handler's kill list before the worker is
 * reaped: once reaped, the number may be given to another process, which a signal arriving then
 * must not reach.  This binary puts its own kill and waitpid in front of libc's (the linker takes
 * them before libgw.a looks further): while worker.c waits for a worker it has killed, a SIGTERM
 * arrives (raised from inside waitpid), and the handler must not signal the pid being reaped. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/signals.h"
#include "sandbox/worker.h"

static volatile sig_atomic_t armed;       /* only inside the test's child process */
static volatile sig_atomic_t reaping;     /* the pid a waitpid is reaping now */
static volatile sig_atomic_t signalled_while_reaped;

int kill(pid_t pid, int sig)
{
    if (reaping && pid == reaping)
        signalled_while_reaped = 1;
    return (int)syscall(SYS_kill, pid, sig);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    if (armed && pid > 0) {
        reaping = pid;
        raise(SIGTERM);   /* the handler runs now, with the pid about to be reaped */
    }
    pid_t got = (pid_t)syscall(SYS_wait4, pid, status, options, NULL);
    reaping = 0;
    return got;
}

static int echo_main(int fd, void *ud)
{
    (void)ud;
    view *req;
    while ((req = worker_read(fd))) {
        worker_write(fd, req);
        view_free(req);
    }
    return 0;
}

static void test_pid_leaves_kill_list_before_reap(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        gw_signals_install();
        worker_limits l = {64u * 1024 * 1024, 10};
        worker *w = NULL;
        gw_error err;
        if (worker_start(&l, NULL, echo_main, NULL, &w, &err) != GW_OK)
            _exit(2);
        armed = 1;
        worker_free(w);   /* kills, then reaps: the SIGTERM comes during the reap */
        armed = 0;
        if (!gw_signal_pending())
            _exit(3);   /* the signal did arrive */
        _exit(signalled_while_reaped ? 1 : 0);
    }
    int status = 0;
    syscall(SYS_wait4, pid, &status, 0, NULL);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pid_leaves_kill_list_before_reap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
