/* signals.h — SIGINT and SIGTERM as an orderly stop: the handler only records the signal, calls
 * one registered async-signal-safe callback (the KB's sqlite3_interrupt) and kills a registered
 * child process group and the plugin workers; the work in progress notices, rolls back, and main.c exits 130 or 143.  SIGXFSZ is ignored, so a write
 * past RLIMIT_FSIZE fails with EFBIG and is reported instead of killing the process. */
#ifndef GW_SIGNALS_H
#define GW_SIGNALS_H

/* Installs the handlers (without SA_RESTART, so a blocked read returns EINTR).  A second
 * SIGINT or SIGTERM after the first one kills the registered children again, then the process
 * the default way.  The handler keeps errno. */
void gw_signals_install(void);

/* cb runs inside the signal handler: it must be async-signal-safe.  NULL clears it. */
void gw_signals_on_interrupt(void (*cb)(void));

/* A child's process group that the handler kills (SIGKILL) on SIGINT or SIGTERM, so that it dies
 * with the first signal even when a second one ends gpuwise before the code that started it
 * can; 0 clears it, before the group's leader is reaped.  For nvidia-smi, run in a group of its
 * own. */
void gw_signals_kill_group(int pgid);

/* Worker processes (worker.c) the handler kills (SIGKILL) on SIGINT or SIGTERM, so that a
 * plugin stuck in a C call stops with the first signal.  At most GW_SIGNALS_MAX_PIDS at once;
 * gw_signals_add_pid returns -1 when full (the worker is then refused).  Removing a pid not
 * registered does nothing.  A pid is removed BEFORE it is reaped (waitpid): once reaped, the
 * number may belong to another process, which the handler must never signal. */
#define GW_SIGNALS_MAX_PIDS 256
int gw_signals_add_pid(int pid);
void gw_signals_remove_pid(int pid);

/* The signal received (SIGINT or SIGTERM), or 0 when none. */
int gw_signal_pending(void);

/* The exit status for the pending signal: GW_EINTR_INT (130), GW_EINTR_TERM (143), 0 if none. */
int gw_signal_exit_code(void);

/* "SIGINT", "SIGTERM" or "" — for messages. */
const char *gw_signal_name(void);

#endif
