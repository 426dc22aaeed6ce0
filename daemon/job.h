/* job.h -- one request's work on the pool.
 *
 * dispatch.c owns the life of a job (queued, running, answered, freed; the
 * deadline heap, cancel, a connection that goes away, a worker that never
 * returns) and knows nothing of what the work is: that is the job's
 * struct method_call (method/method.h), whose ops dispatch calls the same
 * way for every method.
 *
 * Threads: the call runs on a worker thread (or, for a prompt solve, on the
 * loop); everything else of a job is the loop thread's, and the call's
 * other steps run there after the run returned (or, for method_end, once
 * the worker let go of the job).
 */
#ifndef SUDOKUD_JOB_H
#define SUDOKUD_JOB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/deadline.h"
#include "daemon/list.h"
#include "daemon/pool.h"
#include "method/method.h"
#include "proto/read.h"

struct conn;
struct dispatch;
struct session;

struct job {
    struct pool_job pj;        /* first: the pool hands this back */
    struct dispatch *d;        /* shared state */
    struct conn *c;            /* owner, referenced */
    struct session *ss;        /* c's session, NULL once orphaned */
    struct list link;          /* ss->jobs */
    uint32_t msgid;            /* request id */
    atomic_int cancel;         /* the plugin's cancel flag */
    enum rpc_code reason;      /* why it was stopped, RPC_OK if not */
    int is_orphan;             /* connection gone: send nothing */
    uint64_t deadline_ns;      /* counts from arrival, queue included */
    uint64_t due_ns;           /* heap key: deadline (+ grace), or when it counts as stuck */
    struct deadline_node node; /* in d->heap while given to the pool */
    int is_answered;           /* answered before the plugin returned */
    int is_stuck;              /* its worker was written off */
    size_t reserved;           /* answer room held on c (conn_reserve), 0 once given back */
    struct method_call call;   /* last: the work, whose own part is never cleared */
};

#endif /* SUDOKUD_JOB_H */
