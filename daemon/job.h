/* job.h -- one request's work on the pool, and the kinds of work there are.
 *
 * dispatch.c owns the life of a job (queued, running, answered, freed; the
 * deadline heap, cancel, a connection that goes away, a worker that never
 * returns) and knows nothing of what the work is: each method that runs on
 * the pool (solve in dispatch.c, explain and rate in explain.c, generate in
 * generate.c) is a struct job_kind, a table of callbacks that dispatch
 * calls.  The kinds never call dispatch: a kind's start function fills a job
 * that dispatch then submits, and its answer is packed by rpc_result_fn.
 *
 * Threads: run() is called on a worker thread (or, for a prompt solve, on
 * the loop); every other callback on the loop thread, after run() returned
 * (or, for destroy(), once the worker let go of the job).
 */
#ifndef SUDOKUD_JOB_H
#define SUDOKUD_JOB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

#include "core/host.h"
#include "daemon/list.h"
#include "daemon/pool.h"
#include "proto/rpc.h"

struct job;
struct conn;
struct dispatch;
struct session;

struct job_kind {
    const char *method; /* wire name, for errors and logs */
    /* Extra time past the deadline before the host answers `timeout`
     * itself: work that stops at its deadline and still has an answer
     * (generate: the puzzles so far) gets to send it. */
    uint64_t grace_ms;
    /* Worker: do the work, stopping at deadline_ns or job->cancel. */
    void (*run)(struct job *job, uint64_t deadline_ns);
    /* Loop, after run(): RPC_OK to send pack's result, else the error
     * code with its message in msg. */
    enum rpc_code (*outcome)(const struct job *job, char *msg, size_t msg_size);
    /* Packs the result; arg is the job. */
    rpc_result_fn *pack;
    /* Frees job->work (the kind's own part); NULL when there is none. */
    void (*destroy)(struct job *job);
};

struct job {
    struct pool_job pj;                  /* first: the pool hands this back */
    const struct job_kind *kind;         /* what the work is */
    void *work;                          /* the kind's own state, or NULL */
    struct dispatch *d;                  /* shared state */
    struct conn *c;                      /* owner, referenced */
    struct session *ss;                  /* c's session, NULL once orphaned */
    struct list link;                    /* ss->jobs */
    uint32_t msgid;                      /* request id */
    atomic_int cancel;                   /* sdk_job.cancel */
    enum rpc_code reason;                /* why it was stopped, RPC_OK if not */
    int is_orphan;                       /* connection gone: send nothing */
    const struct host_plugin *plugin;    /* the plugin the work is counted for */
    unsigned n;                          /* side */
    enum rpc_form form;                  /* answer in the question's form */
    uint64_t limit;                      /* solve: solutions wanted */
    uint64_t timeout_ms;                 /* effective timeout, for the message */
    uint64_t deadline_ns;                /* counts from arrival, queue included */
    uint64_t due_ns;                     /* heap key: deadline, or when it counts as stuck */
    size_t heap_at;                      /* index in d->heap, or (size_t)-1 */
    int is_answered;                     /* answered before the plugin returned */
    int is_stuck;                        /* its worker was written off */
    int rc;                              /* the work's result (worker writes) */
    uint64_t count, guesses, elapsed_us; /* worker writes */
    uint8_t cells[SDK_MAX_CELLS];        /* puzzle */
    uint8_t solution[SDK_MAX_CELLS];     /* solution (worker writes) */
};

/* explain, rate, generate: the methods of method/ (methodjob.c).  Checks
 * what the request asks on the loop thread; returns RPC_OK with job->kind,
 * job->work and job->plugin set (the rest of job is dispatch's), or the
 * error to answer, its message in msg, with nothing kept. */
enum rpc_code method_job_start(const struct host *h, const struct rpc_request *req, struct job *job,
                               char *msg, size_t msg_size);

#endif /* SUDOKUD_JOB_H */
