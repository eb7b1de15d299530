/* signals.c — records SIGINT/SIGTERM for the code that must stop cleanly (imports roll back,
 * plugin workers and a running nvidia-smi's group are killed at once) and ignores SIGXFSZ so a
 * file-size limit is an ordinary write error. */
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "error.h"
#include "signals.h"

static volatile sig_atomic_t pending_signal;
static void (*volatile interrupt_cb)(void);
static volatile sig_atomic_t child_group;
static volatile sig_atomic_t worker_pids[GW_SIGNALS_MAX_PIDS];   /* 0: a free slot */

static void on_stop_signal(int sig)
{
    if (!pending_signal)
        pending_signal = sig;
    void (*cb)(void) = interrupt_cb;
    if (cb)
        cb();
    int pgid = child_group;
    if (pgid > 0)
        kill(-pgid, SIGKILL);   /* async-signal-safe */
    for (size_t i = 0; i < GW_SIGNALS_MAX_PIDS; i++) {
        int pid = worker_pids[i];
        if (pid > 0)
            kill(pid, SIGKILL);
    }
}

void gw_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    /* No SA_RESTART: a read blocked on a pipe or terminal returns EINTR.  SA_RESETHAND: a
     * second signal, while the first is being honoured, stops the process outright. */
    sa.sa_flags = SA_RESETHAND;
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
