/* pool.h -- a fixed set of worker threads fed from a bounded queue.
 *
 * The loop thread submits jobs; workers run job->work() off the loop; each
 * finished job is handed back to the loop thread through a uv_async_t and
 * job->done() runs there.  Unlike uv_queue_work, a queued job can be taken
 * back (pool_remove) and the pool's size is ours, not UV_THREADPOOL_SIZE.
 * Running work is stopped by the job's own cancel flag, not by the pool;
 * a job that ignores it can have its thread written off and replaced
 * (pool_write_off).
 *
 * Fairness: each job belongs to a flow (a connection's, or the pool's own
 * when it names none), and the workers take one job from each flow with
 * queued work in turn (round-robin), so a flow with a hundred jobs queued
 * delays another flow's job by at most one job per worker, not by its
 * whole queue.  A job put back after a slice of its work (pool_resubmit)
 * goes first in its flow, which takes its turn at the end of the round.
 *
 * Submitted jobs are staged on the loop thread and handed to the workers in
 * batches (pool_flush, or automatically every POOL_BATCH jobs): one lock and
 * at most one wake-up per batch instead of per job.  The caller must call
 * pool_flush() before the loop next waits for I/O.
 *
 * Thread safety: every function except the work callback runs on the loop
 * thread.
 */
#ifndef SUDOKUD_POOL_H
#define SUDOKUD_POOL_H

#include <stddef.h>

#include <uv.h>

#include "daemon/list.h"

#define POOL_BATCH 16 /* staged jobs that are handed over without waiting for pool_flush */

enum pool_state {
    POOL_IDLE = 0, /* not submitted, or removed */
    POOL_QUEUED,   /* staged or waiting for a worker */
    POOL_RUNNING,  /* a worker is in work() */
    POOL_DONE      /* finished, waiting for done() on the loop */
};

struct pool_job;
struct worker;
typedef void pool_fn(struct pool_job *job);

/* Whose jobs are served in turn: embed one per client (pool_flow_init);
 * it must have no job queued when its memory goes. */
struct pool_flow {
    struct list jobs; /* its queued jobs, in order (pool's, under its lock) */
    struct list link; /* in the pool's round while it has queued jobs */
};

/* An empty flow. */
void pool_flow_init(struct pool_flow *f);

/* Embed first in a job struct; the pool owns none of the memory. */
struct pool_job {
    struct list link;       /* staging list, its flow's queue or done list (pool's) */
    struct pool_flow *flow; /* served in turn with the other flows; NULL: the pool's own */
    int is_resumed;         /* put back after a slice: first in its flow (pool's) */
    enum pool_state state;  /* under the pool's lock once handed over */
    int is_staged;          /* on the loop thread's staging list (loop only) */
    pool_fn *work;          /* runs on a worker thread */
    pool_fn *done;          /* runs on the loop thread after work */
    struct worker *worker;  /* the thread running it (pool's, under its lock) */
    uint64_t ran_ns;        /* set by work(): how long it ran (0: short or unknown) */
};

struct pool;

#define POOL_SPIN_MAX_NS      400000u  /* a worker's longest spin after a long job */
#define POOL_LOOP_SPIN_MAX_NS 1000000u /* the loop's longest spin while a job runs */

/* Start threads workers on loop with room for max_queued waiting jobs;
 * an idle worker spins for spin_us microseconds before it sleeps (0: never).
 * Returns 0 and *out, or a negative errno.  Stop with pool_close(). */
int pool_new(uv_loop_t *loop, unsigned threads, size_t max_queued, unsigned spin_us,
             struct pool **out);

/* New limits (a reload): room for max_queued waiting jobs from the next
 * submit on (jobs already queued stay), and an idle spin of spin_us from
 * each worker's next wait on. */
void pool_set_limits(struct pool *p, size_t max_queued, unsigned spin_us);

/* Queue job (work and done set, state POOL_IDLE: new or done() already
 * run).  Returns 0, or -EAGAIN when the queue is full (nothing queued). */
int pool_submit(struct pool *p, struct pool_job *job);

/* Queue again a job whose done() found its work unfinished (a slice of
 * it ran): first in its flow, past the --max-queue bound (it was counted
 * when first submitted).  Returns 0. */
int pool_resubmit(struct pool *p, struct pool_job *job);

/* Hand every staged job to the workers. */
void pool_flush(struct pool *p);

/* Take a queued job back before a worker starts it.  Returns 0 (job is idle
 * again and done() will not run) or -EBUSY when it is running or done. */
int pool_remove(struct pool *p, struct pool_job *job);

/* Jobs waiting for a worker (staged ones included). */
size_t pool_queued(struct pool *p);

/* Workers polling for a job right now: at most one per CPU.  Loop thread
 * only, for tests. */
unsigned pool_spinning(struct pool *p);

/* 1 when no job is staged, queued or running: a worker is free at once. */
int pool_is_idle(struct pool *p);

/* How long the loop thread may poll without sleeping after some activity:
 * with no job out, spin_us (a client that waits for each answer sends its
 * next request within microseconds); with fewer jobs out than workers (a CPU
 * to spare), four times as long as the job finished last took, within
 * spin_us and POOL_LOOP_SPIN_MAX_NS, since the answer is due about then;
 * with every worker busy, 0 (their CPUs are taken).  Loop thread only. */
uint64_t pool_loop_spin_ns(struct pool *p);

/* The running job will not come back soon (its deadline passed long ago):
 * its thread is written off (detached, never joined, it ends after the job)
 * and a new thread takes its place.  The job still belongs to that thread
 * until it returns; then done() runs as usual.  Returns 0, -EALREADY when
 * job is not running (or already written off), or a negative errno when no
 * replacement thread could be started (the job is written off all the
 * same). */
int pool_write_off(struct pool *p, struct pool_job *job);

/* Stop the workers: each finishes the job in hand, a running job gets a
 * bounded wait (half a second), then its thread is written off; queued jobs
 * are left untouched.  Completions posted meanwhile are delivered (done()
 * runs), the rest are joined and the async handle closed; memory is freed
 * in its close callback.  Returns 0, or -EBUSY when threads are still out
 * in written-off jobs: then p is never freed (they use it) and the caller
 * must end the process without unloading the plugins they run.  Call only
 * when no job is queued. */
int pool_close(struct pool *p);

#endif /* SUDOKUD_POOL_H */
