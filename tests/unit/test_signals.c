/* test_signals.c — SIGINT/SIGTERM are recorded, the interrupt callback runs inside the handler,
 * the exit status follows the signal, and SIGXFSZ no longer kills the process. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
        cmocka_unit_test(test_sigxfsz_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
