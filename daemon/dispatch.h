/* dispatch.h -- the requests of protocol v1 and the life of a job.
 *
 * Dispatch is the user of every connection: dispatch_accept() hands a new
 * connection its callbacks and a session (dispatch's own per-connection
 * state).  Each message is answered at once (ping, solvers, stats, errors)
 * or, when its method does work (method/method.h), turned into a job for
 * the worker pool; the job's completion, back on the loop thread, packs the
 * answer into its connection, which writes it from the ready list.
 * Dispatch calls down only (conn, pool, method, host); the server reaches
 * it through the functions below.  Loop thread only.
 */
#ifndef SUDOKUD_DISPATCH_H
#define SUDOKUD_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "daemon/deadline.h"
#include "daemon/list.h"
#include "method/method.h"

struct conn_set;
struct host;
struct job;
struct pool;
struct stats;

#define DISPATCH_SPARE_JOBS 256 /* freed jobs kept for reuse: a malloc and a free less each */

/* Shared state of every session; the server owns it and fills the settings. */
struct dispatch {
    uv_loop_t *loop;           /* the one loop */
    struct host *host;         /* loaded plugins, owned by main */
    struct method_env env;     /* what every job's method call borrows: host, log */
    struct pool *pool;         /* workers, owned by the server */
    struct stats *stats;       /* counters, owned by the server */
    uint64_t timeout_ms;       /* --timeout-ms: default per-request timeout and ceiling */
    size_t max_queue;          /* --max-queue, for the `overloaded` message */
    unsigned inline_us;        /* --inline-us: budget of a solve tried on the loop, 0 none */
    uint64_t inline_spent_ns;  /* solving on the loop this iteration (the server resets it) */
    int is_stopping;           /* grace over: new jobs are answered `overloaded` */
    struct list sessions;      /* connections still taking answers */
    uv_timer_t deadlines;      /* fires at the earliest due time in heap */
    uv_idle_t kick;            /* after it answered: the loop must not sleep before its check */
    unsigned kick_runs;        /* kick's calls since it started */
    uint64_t timer_at_ns;      /* the due time it was armed for */
    struct deadline_heap heap; /* jobs given to the pool, by due time */
    struct job *spare[DISPATCH_SPARE_JOBS]; /* freed jobs kept for reuse (loop only) */
    size_t spare_len;                       /* jobs in spare */
};

/* d with these pointers, no session, and every setting 0 (none, or off)
 * until the caller sets it; its deadline timer is initialised on loop.
 * Returns 0 or a libuv error.  Close with dispatch_close(). */
int dispatch_init(struct dispatch *d, uv_loop_t *loop, struct host *host, struct pool *pool,
                  struct stats *stats);

/* Close the deadline timer and free the heap; after pool_close(), which
 * may still hand back completions. */
void dispatch_close(struct dispatch *d);

/* Take the connection pending on listener into set and serve protocol v1
 * on it.  Returns 0 or -ENOMEM (nothing taken; see conn_accept). */
int dispatch_accept(struct dispatch *d, struct conn_set *set, uv_stream_t *listener);

/* Shutdown: answer every queued job with `overloaded` and, when
 * cancel_running, the running ones too, at once (their plugins are asked to
 * stop; their workers keep the jobs until they return). */
void dispatch_stop(struct dispatch *d, int cancel_running);

#endif /* SUDOKUD_DISPATCH_H */
