/* test_signals.c — SIGINT/SIGTERM are recorded, the interrupt callback runs inside the handler,
 * the exit status follows the signal, the handler keeps errno, a second signal kills the child
 * group registered since the first, and SIGXFSZ no longer kills the process. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/error.h"
#include "base/signals.h"

static volatile sig_atomic_t callback_runs;

static void count_callback(void)
{
    callback_runs++;
}

/* Each case runs in a child: a handled signal stays pending for the rest of a process. */
static int in_child(void (*body)(void))
{
    pid_t pid = fork();
    if (pid == 0) {
        body();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void sigint_body(void)
{
    gw_signals_install();
    gw_signals_on_interrupt(count_callback);
    if (gw_signal_pending() != 0 || gw_signal_exit_code() != 0)
        _exit(1);
    raise(SIGINT);
    if (gw_signal_pending() != SIGINT || callback_runs != 1)
        _exit(2);
    if (gw_signal_exit_code() != GW_EINTR_INT)   /* 128 + SIGINT (2) */
        _exit(3);
}

static void sigterm_body(void)
{
    gw_signals_install();
    raise(SIGTERM);
    if (gw_signal_pending() != SIGTERM || gw_signal_exit_code() != GW_EINTR_TERM) /* 128 + 15 */
        _exit(4);
}

static void second_signal_body(void)
{
    gw_signals_install();
    raise(SIGINT);
    raise(SIGINT);   /* the handler was reset: this one stops the process */
    _exit(5);
}

/* A callback that clobbers errno, as any system call in the handler may. */
static void clobber_errno(void)
{
    errno = EIO;
}

static void errno_body(void)
{
    gw_signals_install();
    gw_signals_on_interrupt(clobber_errno);
    errno = 0;
    raise(SIGTERM);
    if (errno != 0)   /* the code interrupted sees the errno it had */
        _exit(6);
}

/* The first signal comes before a child group is registered (gpuwise had not started
 * nvidia-smi yet); the second, after.  The second must kill that group before the process ends:
 * the group's leader, a child here, is then dead, which the grandparent checks through the pid
 * written to the pipe. */
static int group_pipe[2];

static void second_signal_group_body(void)
{
    gw_signals_install();
    raise(SIGTERM);
    pid_t leader = fork();
    if (leader == 0) {
        setpgid(0, 0);
        pause();
        _exit(0);
    }
    setpgid(leader, leader);
    if (write(group_pipe[1], &leader, sizeof leader) != (ssize_t)sizeof leader)
        _exit(7);
    gw_signals_kill_group((int)leader);
    raise(SIGTERM);   /* kills the group, then this process */
    _exit(8);
}

static void xfsz_body(void)
{
    gw_signals_install();
    raise(SIGXFSZ);  /* ignored: a write past RLIMIT_FSIZE fails with EFBIG instead */
}

static void test_sigint_recorded(void **state)
{
    (void)state;
    int status = in_child(sigint_body);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_sigterm_recorded(void **state)
{
    (void)state;
    int status = in_child(sigterm_body);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_second_signal_kills(void **state)
{
    (void)state;
    int status = in_child(second_signal_body);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGINT);
}

static void test_errno_kept(void **state)
{
    (void)state;
    int status = in_child(errno_body);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_second_signal_kills_group_registered_since(void **state)
{
    (void)state;
    assert_int_equal(pipe(group_pipe), 0);
    int status = in_child(second_signal_group_body);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    pid_t leader = 0;
    assert_int_equal(read(group_pipe[0], &leader, sizeof leader), (ssize_t)sizeof leader);
    /* the leader was a child of the process that ended: it is gone or a zombie of init's, never
     * asleep in pause() */
    int alive = 0;
    for (int tries = 0; tries < 100; tries++) {
        char path[64], line[256];
        snprintf(path, sizeof path, "/proc/%d/status", (int)leader);
        FILE *f = fopen(path, "r");
        alive = 0;
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "State:", 6))
                alive = !strchr(line, 'Z') && !strchr(line, 'X');
        if (f)
            fclose(f);
        if (!alive)
            break;
        usleep(20000);
    }
    if (alive)
        kill(leader, SIGKILL);
    close(group_pipe[0]);
    close(group_pipe[1]);
    assert_false(alive);
}

static void test_sigxfsz_ignored(void **state)
{
    (void)state;
    int status = in_child(xfsz_body);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigint_recorded),
        cmocka_unit_test(test_sigterm_recorded),
        cmocka_unit_test(test_second_signal_kills),
        cmocka_unit_test(test_errno_kept),
        cmocka_unit_test(test_second_signal_kills_group_registered_since),
        cmocka_unit_test(test_sigxfsz_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
