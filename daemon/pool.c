/* pool.c -- worker threads, a bounded FIFO and completions posted back.
 *
 *   loop thread                               workers
 *   pool_submit --> [staged] --pool_flush--> [queue] --> work()
 *                                                          |
 *   done() <----- on_async <-------------- [done list] + uv_async_send
 *
 * Cross-thread wake-ups are the expensive part here (a futex wake of a
 * sleeping vCPU costs more than a 9x9 solve), so the pool avoids them:
 * jobs reach the queue in batches, with a signal only for the jobs that the
 * spinning workers leave to sleepers; a worker posts its completion
 * and takes its next job under one lock, and sends the async only when the
 * done list was empty (else a wake-up is already on its way); an idle worker
 * spins briefly before it sleeps, so a steady stream of jobs never parks it.
 * Every worker may spin, up to one per CPU: a spinner yields the CPU at each
 * turn, so it takes nothing from the loop or a client that shares it, while a
 * worker that slept as soon as the queue ran dry (between two of the loop's
 * batches, many times a millisecond when pipelined) had to be woken for the
 * next batch.  The mutex is adaptive (it spins a little before it sleeps):
 * the lock is held for a few list operations, and spinners that see the same
 * batch reach it together.
 * After a long job (an explanation) it spins as long as that job took, up
 * to POOL_SPIN_MAX_NS (work() says how long it ran in ran_ns, having timed
 * itself anyway, so the pool reads no clock around it): a client that waits for each answer sends
 * its next request a round trip later (100 to 200 us), well past the usual spin, and a sleeping
 * worker costs that request a wake-up; the spin costs at most the job's own CPU time again, and
 * only while nothing comes.  The loop thread asks pool_loop_spin_ns() how long it may poll
 * without sleeping: while a worker is free and a job runs, four times the last job's run (at
 * most POOL_LOOP_SPIN_MAX_NS), since the answer is due about then (jobs vary: the slowest
 * hints take about twice the median) and a sleeping loop would cost it a wake-up.
 *
 * One mutex guards the queue, the done list and every handed-over job's
 * state; a job's own fields belong to whoever holds it in that state (the
 * worker while RUNNING, the loop thread otherwise).  Staged jobs are the loop
 * thread's alone.  `queued`, `active` and `stop` are written under the mutex
 * and atomic so that spinning workers and the loop can peek without it.
 * Debug builds assert each job's state at every hand-over.
 *
 * A worker whose job never returns (a plugin that ignores its deadline) is
 * written off (pool_write_off): it leaves the live list, is detached (never
 * joined) and a new thread takes its place, so the pool keeps its size.  The
 * written-off thread still owns its job: when the plugin finally returns, it
 * posts the job done as usual (its done() frees it) and exits.  Its struct
 * worker is its own; the pool outlives it.  pool_close() waits a bounded
 * time for running jobs and writes off the rest; then the pool cannot be
 * freed (those threads still use it) and the process must exit without
 * unloading the plugins: pool_close says so.
 */
#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP */
#include "daemon/pool.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

#define CLOSE_WAIT_MS 500 /* pool_close: how long running jobs get before being written off */

/* One thread.  `job` and `is_written_off` are under the pool's mutex. */
struct worker {
    struct pool *p;       /* its pool */
    pthread_t tid;        /* its id */
    struct list link;     /* p->workers while live */
    struct pool_job *job; /* in work(), else NULL */
    int is_written_off;   /* detached: exits after its job, frees itself */
};

struct pool {
    uv_async_t async;                 /* wakes the loop for completions */
    pthread_mutex_t mu;               /* guards everything below but staging */
    pthread_cond_t cv;                /* workers wait here for jobs */
    struct list round;                /* flows with queued jobs, next to serve first */
    struct pool_flow own;             /* the flow of jobs that name none */
    atomic_size_t queued;             /* queue length */
    atomic_size_t active;             /* queued + running (not yet posted done) */
    size_t max_queued;                /* bound on queued + staged */
    unsigned sleeping;                /* workers in pthread_cond_wait */
    struct list done;                 /* finished, not yet delivered */
    atomic_int stop;                  /* workers exit when set */
    atomic_uint spinners;             /* workers spinning now */
    unsigned max_spinners;            /* at most this many spin at once: one per CPU */
    atomic_uint_fast64_t spin_ns;     /* idle spin before sleeping (reload may change it) */
    unsigned threads;                 /* live workers wanted */
    atomic_uint_fast64_t last_ran_ns; /* ran_ns of the job finished last */
    struct list staged_jobs;          /* staged jobs (loop thread only) */
    size_t staged;                    /* their number */
    struct list workers;              /* live workers (joined at close) */
    unsigned written_off;             /* workers written off and still in work() */
    int is_closed;                    /* pool_close ran: post nothing more */
};

/* Called and returns with p->mu unlocked: spin until a job shows up, stop is
 * set or spin_ns passes. */
static void spin_for_work(struct pool *p, uint64_t spin_ns)
{
    uint64_t end = clock_now_ns() + spin_ns;

    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&p->queued, memory_order_relaxed) > 0 ||
            atomic_load_explicit(&p->stop, memory_order_relaxed))
            return;
        sched_yield(); /* the loop or the client may be waiting for this CPU */
        if (i % 8 == 0 && clock_now_ns() >= end)
            return;
    }
}

static struct pool_job *job_of(struct list *link)
{
    return LIST_CONTAINER_OF(link, struct pool_job, link);
}

/* A spin of ns, within [spin_ns, max]; 0 when spinning is off. */
static uint64_t spin_within(struct pool *p, uint64_t ns, uint64_t max)
{
    uint64_t spin_ns = atomic_load_explicit(&p->spin_ns, memory_order_relaxed);

    if (spin_ns == 0 || ns <= spin_ns)
        return spin_ns;
    return ns < max ? ns : max;
}

/* How long a worker whose last job took job_ns spins before it sleeps. */
static uint64_t spin_budget(struct pool *p, uint64_t job_ns)
{
    return spin_within(p, job_ns, POOL_SPIN_MAX_NS);
}

static struct pool_flow *flow_of(struct list *link)
{
    return LIST_CONTAINER_OF(link, struct pool_flow, link);
}

/* Under p->mu: the first job of the flow whose turn it is, which then goes
 * to the end of the round if it has more. */
static struct pool_job *take_turn(struct pool *p)
{
    struct pool_flow *f = flow_of(p->round.next);
    struct pool_job *job = job_of(f->jobs.next);

    list_remove(&job->link);
    list_remove(&f->link);
    if (!list_empty(&f->jobs))
        list_insert_tail(&p->round, &f->link);
    return job;
}

/* Under p->mu: job into its flow's queue, and the flow into the round. */
static void enqueue(struct pool *p, struct pool_job *job)
{
    struct pool_flow *f = job->flow ? job->flow : &p->own;

    if (job->is_resumed)
        list_insert_head(&f->jobs, &job->link);
    else
        list_insert_tail(&f->jobs, &job->link);
    job->is_resumed = 0;
    if (list_empty(&f->link))
        list_insert_tail(&p->round, &f->link);
}

/* Under p->mu: job leaves its flow's queue (taken back). */
static void dequeue(struct pool *p, struct pool_job *job)
{
    struct pool_flow *f = job->flow ? job->flow : &p->own;

    list_remove(&job->link);
    if (list_empty(&f->jobs))
        list_remove(&f->link);
}

void pool_flow_init(struct pool_flow *f)
{
    list_init(&f->jobs);
    list_init(&f->link);
}

/* Under p->mu: the next job for w, or NULL when the pool stops.  job_ns is
 * how long w's last job took (0: none). */
static struct pool_job *take_next(struct pool *p, struct worker *w, uint64_t job_ns)
{
    struct pool_job *job;
    int has_spun = atomic_load_explicit(&p->spin_ns, memory_order_relaxed) == 0;

    while (!atomic_load(&p->stop) && list_empty(&p->round)) {
        /* More spinners than CPUs could only take turns.  Spinners are
         * counted in under the mutex (so the check and the count agree)
         * and out without it. */
        if (!has_spun && atomic_load(&p->spinners) < p->max_spinners) {
            atomic_fetch_add(&p->spinners, 1);
            has_spun = 1;
            pthread_mutex_unlock(&p->mu);
            spin_for_work(p, spin_budget(p, job_ns));
            atomic_fetch_sub(&p->spinners, 1);
            pthread_mutex_lock(&p->mu);
            continue;
        }
        has_spun = 1;
        p->sleeping++;
        pthread_cond_wait(&p->cv, &p->mu);
        p->sleeping--;
    }
    if (atomic_load(&p->stop))
        return NULL;
    job = take_turn(p);
    atomic_fetch_sub(&p->queued, 1);
    assert(job->state == POOL_QUEUED && !job->is_staged);
    job->state = POOL_RUNNING;
    job->worker = w;
    w->job = job;
    return job;
}

/* Under p->mu: put job on the done list.  Returns 1 when the loop must be
 * woken (the list was empty, so no wake-up is pending for it). */
static int post_done(struct pool *p, struct pool_job *job)
{
    int was_empty = list_empty(&p->done);

    assert(job->state == POOL_RUNNING);
    job->state = POOL_DONE;
    job->worker->job = NULL;
    job->worker = NULL;
    list_insert_tail(&p->done, &job->link);
    return was_empty;
}

/* A written-off worker's job came back: post it unless the pool is closed
 * (then the job is lost with the pool: the process is exiting), and end the
 * thread.  Under p->mu, which it releases; the async is sent under it, as
 * pool_close may close the handle as soon as the lock is free. */
static void *retire(struct pool *p, struct worker *w, struct pool_job *job)
{
    p->written_off--;
    if (!p->is_closed) {
        if (post_done(p, job))
            uv_async_send(&p->async);
    }
    pthread_mutex_unlock(&p->mu);
    free(w);
    return NULL;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->p;
    struct pool_job *job;
    uint64_t job_ns = 0;

    pthread_mutex_lock(&p->mu);
    while ((job = take_next(p, w, job_ns)) != NULL) {
        pthread_mutex_unlock(&p->mu);
        job->ran_ns = 0;
        job->work(job);
        job_ns = job->ran_ns;
        atomic_store_explicit(&p->last_ran_ns, job_ns, memory_order_relaxed);
        pthread_mutex_lock(&p->mu);
        if (w->is_written_off)
            return retire(p, w, job);
        atomic_fetch_sub(&p->active, 1);
        if (post_done(p, job)) {
            pthread_mutex_unlock(&p->mu);
            uv_async_send(&p->async);
            pthread_mutex_lock(&p->mu);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Workers that may spin at once: one per online CPU, at most threads. */
static unsigned spinners_for(unsigned threads)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    if (cpus < 1)
        cpus = 1;
    return (unsigned long)cpus < threads ? (unsigned)cpus : threads;
}

/* An adaptive mutex where the C library has one (glibc), else the default. */
static void mutex_init_adaptive(pthread_mutex_t *mu)
{
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    pthread_mutexattr_t a;

    if (pthread_mutexattr_init(&a) == 0) {
        int rc = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
        if (rc == 0)
            rc = pthread_mutex_init(mu, &a);
        pthread_mutexattr_destroy(&a);
        if (rc == 0)
            return;
    }
#endif
    pthread_mutex_init(mu, NULL);
}

/* Under p->mu: start one more live worker.  Returns 0 or a negative errno. */
static int add_worker(struct pool *p)
{
    struct worker *w = calloc(1, sizeof(*w));
    int rc;

    if (!w)
        return -ENOMEM;
    w->p = p;
    rc = -pthread_create(&w->tid, NULL, worker_main, w);
    if (rc < 0) {
        free(w);
        return rc;
    }
    list_insert_tail(&p->workers, &w->link);
    return 0;
}

/* Under p->mu: w is busy in a job that may never return. */
static void write_off(struct pool *p, struct worker *w)
{
    w->is_written_off = 1;
    list_remove(&w->link);
    pthread_detach(w->tid);
    p->written_off++;
    atomic_fetch_sub(&p->active, 1); /* its job no longer holds a worker */
}

static void on_async(uv_async_t *handle)
{
    struct pool *p = handle->data;
    struct list done;

    list_init(&done);
    pthread_mutex_lock(&p->mu);
    list_splice_tail(&done, &p->done);
    pthread_mutex_unlock(&p->mu);
    while (!list_empty(&done)) {
        struct pool_job *job = job_of(done.next);
        list_remove(&job->link);
        assert(job->state == POOL_DONE);
        job->state = POOL_IDLE;
        job->done(job); /* may free job */
    }
    pool_flush(p); /* done() may have started new jobs */
}

static void on_async_closed(uv_handle_t *handle)
{
    struct pool *p = handle->data;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}

/* Under p->mu: 1 when a live worker is in work(). */
static int has_running(const struct pool *p)
{
    const struct list *l;

    for (l = p->workers.next; l != &p->workers; l = l->next)
        if (LIST_CONTAINER_OF(l, struct worker, link)->job)
            return 1;
    return 0;
}

/* Stop the workers: give running jobs up to wait_ms, write off those still
 * running, join the rest.  Returns the number written off now or before
 * and still out. */
static unsigned stop_workers(struct pool *p, unsigned wait_ms)
{
    uint64_t end = clock_now_ns() + (uint64_t)wait_ms * 1000000u;
    const struct timespec tick = {0, 1000000};
    unsigned out;
    struct list *l, *tmp;

    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stop, 1);
    pthread_cond_broadcast(&p->cv);
    while (has_running(p) && clock_now_ns() < end) {
        pthread_mutex_unlock(&p->mu);
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&p->mu);
    }
    LIST_FOREACH_SAFE(l, tmp, &p->workers)
    {
        struct worker *w = LIST_CONTAINER_OF(l, struct worker, link);
        if (w->job)
            write_off(p, w);
    }
    p->is_closed = 1;
    out = p->written_off;
    pthread_mutex_unlock(&p->mu);
    while (!list_empty(&p->workers)) {
        struct worker *w = LIST_CONTAINER_OF(p->workers.next, struct worker, link);
        list_remove(&w->link);
        pthread_join(w->tid, NULL);
        free(w);
    }
    return out;
}

int pool_new(uv_loop_t *loop, unsigned threads, size_t max_queued, unsigned spin_us,
             struct pool **out)
{
    struct pool *p = calloc(1, sizeof(*p));
    int rc;

    if (!p)
        return -ENOMEM;
    p->max_queued = max_queued;
    atomic_init(&p->spin_ns, (uint64_t)spin_us * 1000u);
    p->threads = threads;
    p->max_spinners = spinners_for(threads);
    atomic_init(&p->last_ran_ns, 0);
    atomic_init(&p->queued, 0);
    atomic_init(&p->active, 0);
    atomic_init(&p->stop, 0);
    atomic_init(&p->spinners, 0);
    list_init(&p->round);
    pool_flow_init(&p->own);
    list_init(&p->done);
    list_init(&p->staged_jobs);
    list_init(&p->workers);
    mutex_init_adaptive(&p->mu);
    pthread_cond_init(&p->cv, NULL);
    p->async.data = p;
    rc = uv_async_init(loop, &p->async, on_async);
    if (rc < 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return rc;
    }
    pthread_mutex_lock(&p->mu);
    for (unsigned i = 0; i < threads && rc == 0; i++)
        rc = add_worker(p);
    pthread_mutex_unlock(&p->mu);
    if (rc < 0) {
        stop_workers(p, 0);
        uv_close((uv_handle_t *)&p->async, on_async_closed);
        return rc;
    }
    *out = p;
    return 0;
}

/* job onto the staging list (first in its flow when is_resumed). */
static int stage(struct pool *p, struct pool_job *job, int is_resumed)
{
    assert(job->state == POOL_IDLE && !job->is_staged);
    job->is_resumed = is_resumed;
    list_insert_tail(&p->staged_jobs, &job->link);
    p->staged++;
    job->is_staged = 1;
    job->state = POOL_QUEUED;
    if (p->staged >= POOL_BATCH)
        pool_flush(p);
    return 0;
}

int pool_submit(struct pool *p, struct pool_job *job)
{
    if (atomic_load_explicit(&p->queued, memory_order_relaxed) + p->staged >= p->max_queued)
        return -EAGAIN;
    return stage(p, job, 0);
}

int pool_resubmit(struct pool *p, struct pool_job *job)
{
    return stage(p, job, 1);
}

/* Under p->mu: wake up to n sleeping workers. */
static void wake_sleepers(struct pool *p, size_t n)
{
    if (n == 0 || p->sleeping == 0)
        return;
    if (n >= p->sleeping && p->sleeping > 1) {
        pthread_cond_broadcast(&p->cv);
        return;
    }
    for (size_t i = 0; i < n && i < p->sleeping; i++)
        pthread_cond_signal(&p->cv);
}

void pool_flush(struct pool *p)
{
    size_t n = p->staged;
    struct list *l, *tmp;

    if (n == 0)
        return;
    pthread_mutex_lock(&p->mu);
    LIST_FOREACH_SAFE(l, tmp, &p->staged_jobs)
    {
        struct pool_job *job = job_of(l);
        job->is_staged = 0;
        list_remove(&job->link);
        enqueue(p, job);
    }
    /* Read before the jobs show: a spinner counted now looks at the queue
     * under the mutex before it can sleep, so it takes one of them. */
    size_t spinning = atomic_load(&p->spinners);
    atomic_fetch_add(&p->queued, n);
    atomic_fetch_add(&p->active, n);
    wake_sleepers(p, n > spinning ? n - spinning : 0);
    pthread_mutex_unlock(&p->mu);
    p->staged = 0;
}

int pool_remove(struct pool *p, struct pool_job *job)
{
    int rc = -EBUSY;

    if (job->is_staged) {
        assert(job->state == POOL_QUEUED && p->staged > 0);
        list_remove(&job->link);
        p->staged--;
        job->is_staged = 0;
        job->state = POOL_IDLE;
        return 0;
    }
    pthread_mutex_lock(&p->mu);
    if (job->state == POOL_QUEUED) {
        dequeue(p, job);
        job->state = POOL_IDLE;
        atomic_fetch_sub(&p->queued, 1);
        atomic_fetch_sub(&p->active, 1);
        rc = 0;
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

void pool_set_limits(struct pool *p, size_t max_queued, unsigned spin_us)
{
    p->max_queued = max_queued;
    atomic_store_explicit(&p->spin_ns, (uint64_t)spin_us * 1000u, memory_order_relaxed);
}

size_t pool_queued(struct pool *p)
{
    return atomic_load(&p->queued) + p->staged;
}

uint64_t pool_loop_spin_ns(struct pool *p)
{
    size_t active = p->staged + atomic_load_explicit(&p->active, memory_order_relaxed);

    if (active == 0)
        return atomic_load_explicit(&p->spin_ns, memory_order_relaxed);
    if (active >= p->threads)
        return 0;
    return spin_within(p, 4 * atomic_load_explicit(&p->last_ran_ns, memory_order_relaxed),
                       POOL_LOOP_SPIN_MAX_NS);
}

unsigned pool_spinning(struct pool *p)
{
    return atomic_load_explicit(&p->spinners, memory_order_relaxed);
}

int pool_is_idle(struct pool *p)
{
    return p->staged == 0 && atomic_load(&p->active) == 0;
}

int pool_write_off(struct pool *p, struct pool_job *job)
{
    int rc;

    pthread_mutex_lock(&p->mu);
    if (job->state != POOL_RUNNING || job->worker->is_written_off) {
        pthread_mutex_unlock(&p->mu);
        return -EALREADY;
    }
    write_off(p, job->worker);
    rc = atomic_load(&p->stop) ? 0 : add_worker(p);
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* Deliver what the workers posted before they stopped. */
static void deliver_left(struct pool *p)
{
    while (!list_empty(&p->done)) {
        struct pool_job *job = job_of(p->done.next);
        list_remove(&job->link);
        assert(job->state == POOL_DONE);
        job->state = POOL_IDLE;
        job->done(job);
    }
}

int pool_close(struct pool *p)
{
    unsigned stuck;

    if (!p)
        return 0;
    stuck = stop_workers(p, CLOSE_WAIT_MS);
    deliver_left(p); /* no lock needed: every thread left posts nothing now */
    /* Closing with work left would leave done() uncalled and jobs dangling. */
    assert(p->staged == 0 && atomic_load(&p->active) == 0 && list_empty(&p->done));
    if (stuck == 0) {
        uv_close((uv_handle_t *)&p->async, on_async_closed);
        return 0;
    }
    /* Threads still in plugin code hold p and its mutex: never free them. */
    uv_close((uv_handle_t *)&p->async, NULL);
    return -EBUSY;
}
