/* worker.h — a confined child process and the channel to it.  The plugin host (plugin.c) runs
 * every plugin in such a worker: gpuwise's own process forks it before any plugin code runs.
 * In the child only the channel stays open (fd WORKER_FD); memory (RLIMIT_AS), CPU
 * (RLIMIT_CPU), files, processes and core dumps are limited; then a seccomp-bpf filter leaves
 * it reading and writing its channel, managing memory, reading the clock and exiting.  The
 * parent enforces the wall clock: a worker that has not answered by the deadline is killed.
 *
 * Messages are views (view.h) in a small binary form (worker_encode/worker_decode): exact
 * numbers, strings of any bytes, no parsing ambiguity.  Each is a 4-byte length then the value. */
#ifndef GW_WORKER_H
#define GW_WORKER_H

#include <stddef.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"

/* The channel's descriptor in the child, the only one it has. */
#define WORKER_FD 3
/* The largest message either side accepts. */
#define WORKER_MAX_MESSAGE (512u * 1024u * 1024u)

typedef struct worker worker;

typedef struct worker_limits {
    size_t memory_bytes;   /* what the work itself may allocate; RLIMIT_AS adds the process's
                            * size at the fork and room for the interpreter; 0: no limit */
    double cpu_seconds;    /* RLIMIT_CPU per request (worker_cpu_limit), 0: none */
} worker_limits;

/* What the child runs once confined: it serves requests on fd until the channel closes and
 * returns the exit status.  Runs under seccomp: no files, no sockets, no exec. */
typedef int (*worker_main_fn)(int fd, void *ud);

/* Forks a worker that runs fn(WORKER_FD, ud) after before(ud) (may be NULL), which runs in the
 * child before the filter is installed (to load what needs files: a library, the time zone).
 * The child never returns from here.  GW_ESOFTWARE when the fork fails. */
int worker_start(const worker_limits *limits, void (*before)(void *), worker_main_fn fn, void *ud,
                 worker **out, gw_error *err);

/* Kills the worker (SIGKILL) unless it already ended, reaps it and frees w.  NULL is fine. */
void worker_free(worker *w);

pid_t worker_pid(const worker *w);

/* What answers a worker's question while the parent waits for the reply to a request (a KB
 * query): returns the answer (owned by the caller), never NULL. */
typedef view *(*worker_answer_fn)(void *ud, const view *question);

/* Sends req and waits for the reply until deadline (gw_now_seconds, base/check.h).  A message
 * that is a map with a "question" key is a question: answer(ud, msg) is sent back and the wait goes
 * on.  Returns GW_OK with *reply, or an error: the deadline passed (the worker is killed),
 * a signal arrived (killed), the worker ended or broke the protocol.  *timed_out is set to 1
 * when the deadline passed.  Replies and questions are decoded without trusting them.  req
 * NULL sends nothing and waits for the next message (a reply in several messages). */
int worker_request(worker *w, const view *req, double deadline, worker_answer_fn answer,
                   void *ud, view **reply, int *timed_out, gw_error *err);

/* How the worker ended, for messages ("killed by signal 9", "exited with status 1"), or ""
 * while it runs; owned by w. */
const char *worker_end(worker *w);

/* The status a worker exits with when its memory ran out: an allocation failed (gw_xmalloc and
 * the rest), or a fault came with its address space all but used (a stack that could not grow). */
#define WORKER_EXIT_NO_MEMORY 74
/* 1 when the worker has ended so (a message only: the status comes from the worker). */
int worker_out_of_memory(const worker *w);

/* ---- the child's side ---- */

/* Reads one message from fd (blocking).  NULL when the channel closed or broke. */
view *worker_read(int fd);
/* Writes one message; -1 on failure. */
int worker_write(int fd, const view *v);
/* Writes v, then `then` (NULL: none) as the next message, in one write; -1 on failure. */
int worker_write_pair(int fd, const view *v, const view *then);
/* Sets RLIMIT_CPU so that the next request may use seconds more of CPU (the child calls it). */
void worker_cpu_limit(double seconds);

/* ---- the codec ---- */

void worker_encode(const view *v, gw_buf *out);
/* Encodes the n views (NULL: null) as one list, as worker_encode would the list of them. */
void worker_encode_list(view *const *items, size_t n, gw_buf *out);
/* A list's head for n items, each then appended with worker_encode_present: one item of such a
 * list can be encoded (and its view freed) before the next is made. */
void worker_encode_list_head(size_t n, gw_buf *out);
/* worker_encode, leaving out every map field whose value is null, at any depth: to a plugin a
 * null field and a missing one are both nil (a read-only view skips nulls in pairs() too), and
 * an option's view for the rules is a third nulls. */
void worker_encode_present(const view *v, gw_buf *out);
/* NULL on malformed input (err says why).  Never trusts the bytes: bounded depth, lengths
 * checked against what is left. */
view *worker_decode(const char *data, size_t len, gw_error *err);
/* The same for bytes gpuwise itself encoded from a view (in the worker: the arguments it is
 * sent), whose maps have unique keys: each key is appended without looking for an earlier one,
 * which made decoding the 525 options of a grown `rent:*` decision quadratic in their fields
 * (12.7 M instructions of the worker's 96 M).  Still checked for bounds and depth. */
view *worker_decode_own(const char *data, size_t len, gw_error *err);

#endif
