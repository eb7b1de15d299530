/* worker.c — the confined child process plugins run in (see worker.h): fork, descriptors,
 * resource limits and the seccomp filter in the child; the channel, the deadline and the kill in
 * the parent; the binary form of the views the two exchange. */
#define _GNU_SOURCE   /* close_range */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <math.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/check.h"
#include "base/clock.h"
#include "base/signals.h"

/* Room beyond the work's own memory for the interpreter, libxml2's state and the stack. */
#define HEADROOM (64u * 1024u * 1024u)
/* A fault with less address space than this left is the memory running out (a stack that could
 * not grow), not a crash. */
#define FAULT_PROBE (8u * 1024u * 1024u)
/* Nesting the decoder accepts (the plugin host allows 32 levels in what a plugin returns). */
#define MAX_DEPTH 64

/* Under valgrind and AddressSanitizer the filter is not installed: both make system calls of
 * their own on the program's behalf that it would refuse (valgrind's are its emulation;
 * AddressSanitizer reads /proc/self/maps at every longjmp, which every Lua error is).  The
 * filter's own tests run in the ordinary build. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
/* A forked child starts with its parent's counts under callgrind: zeroed, a worker counts only
 * its own instructions, and `make bench`, which sums gpuwise's and its workers', counts what
 * ran before the fork once, not once more per worker (15.6 M of 163.6 M for
 * `report examples/vision-team.lua`).  Outside callgrind the request does nothing. */
#ifndef CALLGRIND_ZERO_STATS
#define CALLGRIND_ZERO_STATS
#endif

#if defined(__SANITIZE_ADDRESS__)
#define GW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GW_ASAN 1
#endif
#endif

struct worker {
    pid_t pid;
    int fd;
    int reaped;
    int no_memory;   /* it exited with WORKER_EXIT_NO_MEMORY */
    char end[96];
};

/* ---- the codec: a tag byte, then the value ---- */

static void put_u32(gw_buf *out, size_t n)
{
    unsigned char b[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 8), (unsigned char)n};
    buf_append(out, (const char *)b, 4);
}

static size_t get_u32(const unsigned char *b)
{
    return ((size_t)b[0] << 24) | ((size_t)b[1] << 16) | ((size_t)b[2] << 8) | b[3];
}

/* present: a map's null fields are left out (see worker_encode_present). */
static void encode(const view *v, int present, gw_buf *out)
{
    switch (view_kind(v)) {
    case VIEW_BOOL:
        buf_putc(out, view_bool_value(v) ? 't' : 'f');
        break;
    case VIEW_NUMBER: {
        double d = view_num(v);
        unsigned char b[8];
        memcpy(b, &d, 8);
        buf_putc(out, 'd');
        buf_append(out, (const char *)b, 8);
        break;
    }
    case VIEW_STRING:
        buf_putc(out, 's');
        put_u32(out, view_str_len(v));
        buf_append(out, view_str(v), view_str_len(v));
        break;
    case VIEW_LIST:
        buf_putc(out, 'l');
        put_u32(out, view_len(v));
        for (size_t i = 0; i < view_len(v); i++)
            encode(view_list_at(v, i), present, out);
        break;
    case VIEW_MAP: {
        size_t n = view_len(v), shown = n;
        for (size_t i = 0; present && i < n; i++)
            shown -= view_is_null(view_map_value_at(v, i));
        buf_putc(out, 'm');
        put_u32(out, shown);
        for (size_t i = 0; i < n; i++) {
            const view *item = view_map_value_at(v, i);
            if (present && view_is_null(item))
                continue;
            const char *k = view_map_key_at(v, i);
            size_t kl = strlen(k);
            put_u32(out, kl);
            buf_append(out, k, kl);
            encode(item, present, out);
        }
        break;
    }
    default:
        buf_putc(out, 'n');
    }
}

void worker_encode(const view *v, gw_buf *out) { encode(v, 0, out); }

void worker_encode_list(view *const *items, size_t n, gw_buf *out)
{
    buf_putc(out, 'l');
    put_u32(out, n);
    for (size_t i = 0; i < n; i++)
        encode(items[i], 0, out);
}

void worker_encode_list_head(size_t n, gw_buf *out)
{
    buf_putc(out, 'l');
    put_u32(out, n);
}

void worker_encode_present(const view *v, gw_buf *out)
{
    encode(v, 1, out);
}

struct reader {
    const unsigned char *p, *end;
    gw_error *err;
    int trusted;   /* gpuwise's own encoding: a map's keys are unique (see worker_decode_own) */
};

static int take(struct reader *r, size_t n, const unsigned char **at)
{
    if ((size_t)(r->end - r->p) < n)
        return gw_error_set(r->err, GW_EDATA, "truncated message");
    *at = r->p;
    r->p += n;
    return GW_OK;
}

static view *decode_value(struct reader *r, int depth);

/* A map's key: a length, then that many bytes without NUL, into key (256 bytes). */
static int decode_key(struct reader *r, char key[256])
{
    const unsigned char *b = NULL, *kp = NULL;
    if (take(r, 4, &b))
        return GW_EDATA;
    size_t kl = get_u32(b);
    if (kl >= 256)
        return gw_error_set(r->err, GW_EDATA, "key too long");
    if (take(r, kl, &kp))
        return GW_EDATA;
    if (memchr(kp, 0, kl))
        return gw_error_set(r->err, GW_EDATA, "NUL in a key");
    memcpy(key, kp, kl);
    key[kl] = '\0';
    return GW_OK;
}

/* A list or (map != 0) a map: a count, then the items (each a key and a value in a map). */
static view *decode_container(struct reader *r, int map, int depth)
{
    const unsigned char *b = NULL;
    if (take(r, 4, &b))
        return NULL;
    size_t n = get_u32(b);
    if (n > (size_t)(r->end - r->p)) {   /* every item takes a byte at least */
        gw_error_set(r->err, GW_EDATA, "truncated message");
        return NULL;
    }
    view *v = map ? view_map() : view_list();
    for (size_t i = 0; i < n; i++) {
        char key[256];
        if (map && decode_key(r, key) != GW_OK)
            break;
        view *item = decode_value(r, depth + 1);
        if (!item)
            break;
        if (map && r->trusted)
            view_map_add(v, key, item);
        else if (map)
            view_map_set(v, key, item);
        else
            view_list_push(v, item);
        if (i + 1 == n)
            return v;
    }
    if (n == 0)
        return v;
    view_free(v);
    return NULL;
}

static view *decode_value(struct reader *r, int depth)
{
    const unsigned char *b = NULL;
    if (depth > MAX_DEPTH) {
        gw_error_set(r->err, GW_EDATA, "message nested too deeply");
        return NULL;
    }
    if (take(r, 1, &b))
        return NULL;
    switch (*b) {
    case 'n':
        return view_null();
    case 't':
    case 'f':
        return view_bool(*b == 't');
    case 'd': {
        double d;
        if (take(r, 8, &b))
            return NULL;
        memcpy(&d, b, 8);
        return view_number(d);
    }
    case 's': {
        if (take(r, 4, &b))
            return NULL;
        size_t n = get_u32(b);
        if (take(r, n, &b))
            return NULL;
        return view_stringn((const char *)b, n);
    }
    case 'l':
    case 'm':
        return decode_container(r, *b == 'm', depth);
    default:
        gw_error_set(r->err, GW_EDATA, "unknown tag in message");
        return NULL;
    }
}

static view *decode(const char *data, size_t len, int trusted, gw_error *err)
{
    struct reader r = {(const unsigned char *)data, (const unsigned char *)data + len, err,
                       trusted};
    view *v = decode_value(&r, 0);
    if (v && r.p != r.end) {
        view_free(v);
        gw_error_set(err, GW_EDATA, "trailing bytes in message");
        return NULL;
    }
    return v;
}

view *worker_decode(const char *data, size_t len, gw_error *err)
{
    return decode(data, len, 0, err);
}

view *worker_decode_own(const char *data, size_t len, gw_error *err)
{
    return decode(data, len, 1, err);
}

/* Appends v to out as one message: its length, then its encoding. */
static void frame(const view *v, gw_buf *out)
{
    size_t start = out->len;
    put_u32(out, 0);
    worker_encode(v, out);
    size_t n = out->len - start - 4;
    unsigned char *b = (unsigned char *)out->data + start;
    b[0] = (unsigned char)(n >> 24);
    b[1] = (unsigned char)(n >> 16);
    b[2] = (unsigned char)(n >> 8);
    b[3] = (unsigned char)n;
}

/* ---- the child's side ---- */

static int read_full(int fd, char *p, size_t n)
{
    while (n) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

view *worker_read(int fd)
{
    unsigned char h[4];
    if (read_full(fd, (char *)h, 4))
        return NULL;
    size_t n = get_u32(h);
    if (n > WORKER_MAX_MESSAGE)
        return NULL;
    char *body = malloc(n ? n : 1);
    if (!body)
        return NULL;
    gw_error err;
    view *v = read_full(fd, body, n) ? NULL : worker_decode(body, n, &err);
    free(body);
    return v;
}

int worker_write(int fd, const view *v)
{
    return worker_write_pair(fd, v, NULL);
}

/* Both messages in one write: gpuwise, waiting for the reply, wakes once for both. */
int worker_write_pair(int fd, const view *v, const view *then)
{
    gw_buf b = GW_BUF_INIT;
    frame(v, &b);
    if (then)
        frame(then, &b);
    const char *p = b.data;
    size_t n = b.len;
    int rc = 0;
    while (n && rc == 0) {
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            rc = -1;
        else {
            p += put;
            n -= (size_t)put;
        }
    }
    buf_free(&b);
    return rc;
}

void worker_cpu_limit(double seconds)
{
    struct rusage ru;
    struct rlimit r;
    if (seconds <= 0 || getrusage(RUSAGE_SELF, &ru) != 0 || getrlimit(RLIMIT_CPU, &r) != 0)
        return;
    rlim_t used = (rlim_t)ru.ru_utime.tv_sec + (rlim_t)ru.ru_stime.tv_sec;
    rlim_t soft = used + (rlim_t)ceil(seconds) + 1;
    if (r.rlim_max != RLIM_INFINITY && soft > r.rlim_max)
        soft = r.rlim_max;
    r.rlim_cur = soft;
    setrlimit(RLIMIT_CPU, &r);
}

/* The process's address space now, in bytes (0 when it cannot be read). */
static size_t address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    return (size_t)pages * (size_t)(page > 0 ? page : 4096);
}

static void set_limit(int resource, rlim_t v)
{
    struct rlimit r = {v, v};
    setrlimit(resource, &r);
}

/* Memory, files, processes and core dumps.  RLIMIT_AS counts everything the process maps,
 * libxml2's documents included; it starts from the size inherited at the fork.  AddressSanitizer
 * reserves terabytes of shadow memory, so its builds keep only the allocator's cap. */
static void limit_resources(const worker_limits *l, size_t inherited)
{
#ifndef GW_ASAN
    if (l->memory_bytes && inherited)
        set_limit(RLIMIT_AS, (rlim_t)(inherited + l->memory_bytes + HEADROOM));
#else
    (void)inherited;
#endif
    worker_cpu_limit(l->cpu_seconds);
    /* Under valgrind (no seccomp filter either, see confine) the worker keeps its files, so
     * callgrind can write the worker's own profile (--trace-children=yes): with no file it
     * printed only its count. */
    if (RUNNING_ON_VALGRIND)
        return;
    set_limit(RLIMIT_FSIZE, 0);
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_NPROC, 0);
    set_limit(RLIMIT_NOFILE, 0);
}

/* The seccomp filter: everything not listed fails with EPERM (open, socket, execve, fork,
 * kill, ...); the channel is the only descriptor read or written; setrlimit only renews the CPU
 * limit (worker_cpu_limit).  libseccomp compiles it once per process, in the parent (compiling
 * it in every child cost more than the fork); each child installs the compiled program. */
static struct sock_fprog filter;

static int compile_filter(gw_error *err)
{
    if (filter.len)
        return GW_OK;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!ctx)
        return gw_error_set(err, GW_ESOFTWARE, "cannot build the plugin sandbox's filter");
    static const int plain[] = {
        SCMP_SYS(brk),          SCMP_SYS(mmap),         SCMP_SYS(munmap),
        SCMP_SYS(mremap),       SCMP_SYS(madvise),      SCMP_SYS(mprotect),
        SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday),
        SCMP_SYS(time),         SCMP_SYS(getrusage),    SCMP_SYS(exit),
        SCMP_SYS(exit_group),   SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask),
        SCMP_SYS(getpid),       SCMP_SYS(gettid),       SCMP_SYS(futex),
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, plain[i], 0);   /* absent on some machines */
    /* libseccomp's SCMP_A0 and SCMP_A1 leave datum_b (unused by SCMP_CMP_EQ) to be zeroed, which
     * clang's -Wextra names; the rules are as written. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(read), 1,
                           SCMP_A0(SCMP_CMP_EQ, WORKER_FD));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
                           SCMP_A0(SCMP_CMP_EQ, WORKER_FD));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, SCMP_A0(SCMP_CMP_EQ, 0),
                           SCMP_A1(SCMP_CMP_EQ, RLIMIT_CPU));
#pragma GCC diagnostic pop
    int fds[2] = {-1, -1};
    if (rc == 0 && pipe(fds) == 0) {
        /* a filter of a few dozen instructions fits a pipe's buffer */
        if (seccomp_export_bpf(ctx, fds[1]) == 0) {
            close(fds[1]);
            fds[1] = -1;
            static struct sock_filter prog[4096];
            ssize_t got = 0, n;
            while ((n = read(fds[0], (char *)prog + got, sizeof prog - (size_t)got)) > 0)
                got += n;
            if (got > 0 && got % (ssize_t)sizeof prog[0] == 0) {
                filter.filter = prog;
                filter.len = (unsigned short)((size_t)got / sizeof prog[0]);
            }
        }
        close(fds[0]);
        if (fds[1] >= 0)
            close(fds[1]);
    }
    seccomp_release(ctx);
    if (!filter.len)
        return gw_error_set(err, GW_ESOFTWARE, "cannot build the plugin sandbox's filter");
    return GW_OK;
}

/* Installs the compiled filter in the child.  Returns 0 when installed. */
static int confine(void)
{
#ifdef GW_ASAN
    return 0;
#endif
    if (RUNNING_ON_VALGRIND)
        return 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter);
}

/* In the child, a failed allocation (gw_xmalloc and the rest) ends it with the status the parent
 * reads as out of memory: it can neither write a message nor raise SIGABRT. */
static void exit_no_memory(size_t n)
{
    (void)n;
    _exit(WORKER_EXIT_NO_MEMORY);
}

/* SIGSEGV or SIGBUS in the child, on its own stack: when not even FAULT_PROBE more bytes can be
 * mapped, the stack could not grow for want of memory: out of memory.  Otherwise a crash:
 * SA_RESETHAND has restored the default action, and returning faults again, which ends the
 * process with the signal. */
static void on_fault(int sig)
{
    (void)sig;
    void *probe = mmap(NULL, FAULT_PROBE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    if (probe == MAP_FAILED)
        _exit(WORKER_EXIT_NO_MEMORY);
    munmap(probe, FAULT_PROBE);
}

static void catch_out_of_memory(void)
{
    static char fault_stack[64 * 1024];
    stack_t ss = {.ss_sp = fault_stack, .ss_size = sizeof fault_stack, .ss_flags = 0};
    gw_on_out_of_memory(exit_no_memory);
    if (sigaltstack(&ss, NULL) != 0)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

static void child(int fd, pid_t parent, size_t inherited, const worker_limits *l,
                  void (*before)(void *), worker_main_fn fn, void *ud)
{
    CALLGRIND_ZERO_STATS;
    /* dies with gpuwise, however gpuwise ends */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(70);
    /* The parent decides about signals: it kills the worker on SIGINT/SIGTERM. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_DFL);
    if (fd != WORKER_FD) {
        if (dup2(fd, WORKER_FD) != WORKER_FD)
            _exit(70);
        close(fd);
    }
    for (int i = 0; i < WORKER_FD; i++)
        close(i);
    if (close_range(WORKER_FD + 1, ~0u, 0) != 0)
        for (int i = WORKER_FD + 1; i < 1024; i++)
            close(i);
    if (before)
        before(ud);
    catch_out_of_memory();
    limit_resources(l, inherited);
    if (confine() != 0)
        _exit(71);   /* never run plugin code unconfined */
    _exit(fn(WORKER_FD, ud));
}

int worker_start(const worker_limits *limits, void (*before)(void *), worker_main_fn fn, void *ud,
                 worker **out, gw_error *err)
{
    int sv[2];
    *out = NULL;
    if (compile_filter(err) != GW_OK)
        return err->code;
    size_t inherited = address_space();
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return gw_error_set(err, GW_ESOFTWARE, "cannot make a channel for a plugin: %s",
                            strerror(errno));
    pid_t parent = getpid();
    fflush(NULL);   /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        return gw_error_set(err, GW_ESOFTWARE, "cannot start a plugin process: %s", strerror(e));
    }
    if (pid == 0) {
        close(sv[0]);
        child(sv[1], parent, inherited, limits, before, fn, ud);
    }
    close(sv[1]);
    worker *w = gw_xcalloc(1, sizeof *w);
    w->pid = pid;
    w->fd = sv[0];
    fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_NONBLOCK);
    if (gw_signals_add_pid(pid) != 0) {
        worker_free(w);
        return gw_error_set(err, GW_ESOFTWARE, "too many plugin processes at once");
    }
    *out = w;
    return GW_OK;
}

pid_t worker_pid(const worker *w) { return w->pid; }

/* Reaps the worker (after a kill, or once its channel closed) and says how it ended.  Its pid
 * leaves the signal handler's list first: once reaped, the number may be another process's. */
static void reap(worker *w, int kill_first)
{
    if (w->reaped)
        return;
    if (kill_first)
        kill(w->pid, SIGKILL);
    gw_signals_remove_pid(w->pid);
    int status = 0;
    pid_t got;
    do
        got = waitpid(w->pid, &status, 0);
    while (got < 0 && errno == EINTR);
    w->reaped = 1;
    w->no_memory = got == w->pid && WIFEXITED(status) &&
                   WEXITSTATUS(status) == WORKER_EXIT_NO_MEMORY;
    if (got != w->pid)
        snprintf(w->end, sizeof w->end, "ended");
    else if (WIFSIGNALED(status))
        snprintf(w->end, sizeof w->end, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(w->end, sizeof w->end, "exited with status %d", WEXITSTATUS(status));
}

const char *worker_end(worker *w) { return w->reaped ? w->end : ""; }

int worker_out_of_memory(const worker *w) { return w->reaped && w->no_memory; }

void worker_free(worker *w)
{
    if (!w)
        return;
    close(w->fd);
    /* Under valgrind a worker is left to end at the channel's end of file (plugin_serve returns)
     * so that valgrind counts and checks it too (`make bench` counts the workers' instructions);
     * the error paths have killed and reaped it already. */
    reap(w, !RUNNING_ON_VALGRIND);
    free(w);
}

enum { IO_OK, IO_TIMEOUT, IO_SIGNAL, IO_CLOSED };

/* Waits until the channel is ready for events or the deadline passes. */
static int io_wait(worker *w, short events, double deadline)
{
    for (;;) {
        if (gw_signal_pending())
            return IO_SIGNAL;
        double left = deadline - gw_now_seconds();
        if (left <= 0)
            return IO_TIMEOUT;
        struct pollfd p = {w->fd, events, 0};
        int ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        int n = poll(&p, 1, ms);
        if (n < 0 && errno != EINTR)
            return IO_CLOSED;
        if (n > 0)
            return (p.revents & events) ? IO_OK : IO_CLOSED;
    }
}

/* The signal and the deadline, checked before every send and receive, so that a worker that
 * keeps the channel busy is stopped at its deadline all the same. */
static int io_due(double deadline)
{
    if (gw_signal_pending())
        return IO_SIGNAL;
    return deadline - gw_now_seconds() <= 0 ? IO_TIMEOUT : IO_OK;
}

/* send_all and recv_all try the socket (which does not block) first and wait only when it is
 * not ready: a poll before every call was a third of the system calls a report made. */
static int send_all(worker *w, const char *p, size_t n, double deadline)
{
    while (n) {
        int s = io_due(deadline);
        if (s != IO_OK)
            return s;
        ssize_t put = send(w->fd, p, n, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR)
            continue;
        if (put < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if ((s = io_wait(w, POLLOUT, deadline)) != IO_OK)
                return s;
            continue;
        }
        if (put <= 0)
            return IO_CLOSED;
        p += put;
        n -= (size_t)put;
    }
    return IO_OK;
}

static int recv_all(worker *w, char *p, size_t n, double deadline)
{
    while (n) {
        int s = io_due(deadline);
        if (s != IO_OK)
            return s;
        ssize_t got = recv(w->fd, p, n, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if ((s = io_wait(w, POLLIN, deadline)) != IO_OK)
                return s;
            continue;
        }
        if (got <= 0)
            return IO_CLOSED;
        p += got;
        n -= (size_t)got;
    }
    return IO_OK;
}

static int send_view(worker *w, const view *v, double deadline)
{
    gw_buf b = GW_BUF_INIT;
    frame(v, &b);
    int s = send_all(w, b.data, b.len, deadline);
    buf_free(&b);
    return s;
}

/* One message, or the reason there is none (*msg NULL; IO_CLOSED also for a malformed one). */
static int recv_view(worker *w, double deadline, view **msg, gw_error *err)
{
    unsigned char h[4];
    *msg = NULL;
    int s = recv_all(w, (char *)h, 4, deadline);
    if (s != IO_OK)
        return s;
    size_t n = get_u32(h);
    if (n > WORKER_MAX_MESSAGE) {
        gw_error_set(err, GW_ESOFTWARE, "a message of %zu bytes, over the limit", n);
        return IO_CLOSED;
    }
    char *body = gw_xmalloc(n ? n : 1);
    s = recv_all(w, body, n, deadline);
    if (s == IO_OK) {
        *msg = worker_decode(body, n, err);
        if (!*msg)
            s = IO_CLOSED;
    }
    free(body);
    return s;
}

int worker_request(worker *w, const view *req, double deadline, worker_answer_fn answer,
                   void *ud, view **reply, int *timed_out, gw_error *err)
{
    *reply = NULL;
    *timed_out = 0;
    if (w->reaped)
        return gw_error_set(err, GW_ESOFTWARE, "its process %s", w->end);
    gw_error derr = {0};
    int s = req ? send_view(w, req, deadline) : IO_OK;
    while (s == IO_OK) {
        view *msg;
        s = recv_view(w, deadline, &msg, &derr);
        if (s != IO_OK)
            break;
        if (view_kind(msg) == VIEW_MAP && view_map_get(msg, "question")) {
            view *a = answer ? answer(ud, msg) : view_null();
            view_free(msg);
            s = send_view(w, a, deadline);
            view_free(a);
            continue;
        }
        *reply = msg;
        return GW_OK;
    }
    reap(w, 1);
    switch (s) {
    case IO_TIMEOUT:
        *timed_out = 1;
        return gw_error_set(err, GW_ESOFTWARE, "no answer by the deadline");
    case IO_SIGNAL:
        return gw_error_set(err, gw_signal_exit_code(), "interrupted by %s", gw_signal_name());
    default:
        if (derr.msg[0])
            return gw_error_set(err, GW_ESOFTWARE, "its process broke the protocol (%s)", derr.msg);
        return gw_error_set(err, GW_ESOFTWARE, "its process %s", w->end);
    }
}
