/* signals.c — records SIGINT/SIGTERM for the code that must stop cleanly (imports roll back,
 * plugin workers and a running nvidia-smi's group are killed at once) and ignores SIGXFSZ so a
 * file-size limit is an ordinary write error. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "error.h"
#include "signals.h"

static volatile sig_atomic_t pending_signal;
static void (*volatile interrupt_cb)(void);
static volatile sig_atomic_t child_group;
static volatile sig_atomic_t worker_pids[GW_SIGNALS_MAX_PIDS];   /* 0: a free slot */

/* Kills the registered child group and workers (SIGKILL, async-signal-safe). */
static void kill_children(void)
{
    int pgid = child_group;
    if (pgid > 0)
        kill(-pgid, SIGKILL);
    for (size_t i = 0; i < GW_SIGNALS_MAX_PIDS; i++) {
        int pid = worker_pids[i];
        if (pid > 0)
            kill(pid, SIGKILL);
    }
}

/* The first signal is recorded and the children killed; the work in progress notices and stops.
 * A second one kills the children again (whatever was registered since the first), then ends
 * the process the default way.  The handler stays installed for that: with SA_RESETHAND the
 * kernel resets it as it delivers the first signal, and a second one arriving before the
 * handler runs ended the process with nothing killed (nvidia-smi's group left running).
 * errno is kept: the code interrupted may be about to read it. */
static void on_stop_signal(int sig)
{
    int saved_errno = errno;
    int second = pending_signal != 0;
    if (!second) {
        pending_signal = sig;
        void (*cb)(void) = interrupt_cb;
        if (cb)
            cb();
    }
    kill_children();
    if (second) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        sigset_t just;
        sigemptyset(&just);
        sigaddset(&just, sig);
        raise(sig);   /* blocked while the handler runs: delivered by the unblock */
        sigprocmask(SIG_UNBLOCK, &just, NULL);
    }
    errno = saved_errno;
}

void gw_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    /* No SA_RESTART: a read blocked on a pipe or terminal returns EINTR. */
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGXFSZ, &ign, NULL);
}

void gw_signals_on_interrupt(void (*cb)(void))
{
    interrupt_cb = cb;
}

void gw_signals_kill_group(int pgid)
{
    child_group = pgid;
}

int gw_signals_add_pid(int pid)
{
    for (size_t i = 0; i < GW_SIGNALS_MAX_PIDS; i++)
        if (!worker_pids[i]) {
            worker_pids[i] = pid;
            return 0;
        }
    return -1;
}

void gw_signals_remove_pid(int pid)
{
    for (size_t i = 0; pid > 0 && i < GW_SIGNALS_MAX_PIDS; i++)
        if (worker_pids[i] == pid)
            worker_pids[i] = 0;
}

int gw_signal_pending(void)
{
    return pending_signal;
}

int gw_signal_exit_code(void)
{
    switch (pending_signal) {
    case SIGINT:
        return GW_EINTR_INT;
    case SIGTERM:
        return GW_EINTR_TERM;
    default:
        return 0;
    }
}

const char *gw_signal_name(void)
{
    switch (pending_signal) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    default:
        return "";
    }
}
