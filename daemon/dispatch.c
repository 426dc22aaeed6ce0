/* dispatch.c -- protocol v1 methods and the life of a job.
 *
 * What runs on the pool is a job (job.h) whose work is a method call
 * (method/method.h): dispatch finds the request's method in the table,
 * and from then on only calls its ops.  Everything below about queueing,
 * deadlines, cancel and stuck workers holds for every method; the method
 * only says what the work is and what its answer looks like.
 *
 * Every connection has a session (its jobs, its inline back-off), created
 * by dispatch_accept() and freed by on_closed(), the connection's last call.
 * A request is validated completely on the loop thread by its method (for
 * a solve: puzzle shape, givens, solver, size, limit) so that workers only
 * ever run jobs that can succeed.
 * The job then holds a reference on its connection and sits on the
 * session's job list until its completion runs on the loop thread:
 *
 *   queued --(worker)--> running --(async)--> finish(): answer, complete, unref
 *     |                     |
 *     +-- cancel/drop: pool_remove, finish at once
 *                           +-- cancel/drop: set job->cancel, finish later
 *
 * A job whose connection went away (or stopped taking answers) is an orphan:
 * it has left its session, and is finished and freed like any other, but
 * nothing is sent.  A freed job's memory is kept for the next one (up to
 * DISPATCH_SPARE_JOBS), so that a steady stream of solves allocates
 * nothing.  finish() only packs and tells the connection
 * (conn_complete); the connection reads on from its ready list, so nothing
 * here ever runs inside a connection's own read or closes one.
 *
 * The host keeps every deadline itself, whatever the plugin does: each job
 * handed to the pool sits in one min-heap by due time (deadline.c), under one loop timer
 * armed for the earliest.  At its deadline a queued job is taken back and a
 * running one is answered `timeout` at once (a `cancel`, a closed connection
 * or the end of the shutdown grace answer a running job at once as well):
 * it is then "answered": it has left its session, its connection is
 * released, and only its memory is left, which the worker still uses.  It
 * stays in the heap, due STUCK_GRACE_MS after its deadline: if the plugin
 * has not returned by then, its worker is written off and replaced
 * (pool_write_off; stats `stuck_workers`, logged once).  Whenever the plugin
 * returns, the completion frees the job and sends nothing.
 *
 *   in flight --deadline, cancel, close, grace over--> answered --return--> freed
 *      |                                                  |
 *      +--return: answer, free                            +--due + grace: worker stuck
 *
 * Fairness: each session is a flow of the pool (pool.h), served in turn
 * with the others, and a job whose method ran a slice of long work and has
 * more to do (is_unfinished: a generate, every DISPATCH_SLICE_MS) is put
 * back first in its flow from finish(), keeping its place in flight, its
 * deadline and its answer room.
 *
 * Fast path (--inline-us): with every worker idle (or nothing else in flight
 * on the connection) and no other request buffered on it, a call its method says is prompt (a 9x9
 * or smaller solve for a plugin that declares SDK_CAP_PROMPT) is first tried on the loop thread
 * under a deadline of a few tens of microseconds (try_inline); if it finishes, it is answered at
 * once without any cross-thread wake-up, else it goes to the pool as above, its timeout still
 * counted from arrival.  A plugin without the flag never runs on the loop: nothing there may fail
 * to return.
 */
#include "daemon/dispatch.h"
#include "util/clock.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "core/rules.h"
#include "daemon/conn.h"
#include "daemon/job.h"
#include "daemon/log.h"
#include "daemon/pool.h"
#include "daemon/stats.h"
#include "method/method.h"

#define INLINE_ROUND      8   /* inline budgets one loop iteration may spend, all connections */
#define INLINE_BACKOFF_MS 100 /* a connection whose solve overran: no inline solves this long */
#define STUCK_GRACE_MS    200 /* answered, still running this long past its deadline: stuck */
#define DISPATCH_SLICE_MS 10  /* long work yields after this much (between two puzzles) */

/* Dispatch's state of one connection. */
struct session {
    struct dispatch *d;           /* shared state */
    struct pool_flow flow;        /* its jobs take their turn with other connections' */
    struct list link;             /* d->sessions, until on_closed */
    struct list jobs;             /* jobs in flight, newest first */
    uint64_t inline_off_until_ms; /* no solves on the loop before this uv_now() */
};

/* ---------------------------------------------------------------- answers */

/* Pack an error response into c and count it; logs the refusal once. */
static void answer_error(struct dispatch *d, struct conn *c, uint32_t msgid, const char *method,
                         enum rpc_code code, const char *message)
{
    int level = code == RPC_CANCELLED ? SDK_LOG_DEBUG : LOG_LVL_NOTICE;

    d->stats->errors++;
    log_limited(&c->set->refusals, level,
                "conn %llu (pid %ld uid %ld): %s request %" PRIu32 " answered %s: %s",
                (unsigned long long)c->id, (long)c->pid, (long)c->uid, method, msgid,
                proto_code_name(code), message);
    if (!conn_can_send(c))
        return;
    if (rpc_pack_error(&c->out, msgid, code, message) < 0)
        log_msg(SDK_LOG_ERR, "conn %llu: out of memory: request %" PRIu32 " not answered",
                (unsigned long long)c->id, msgid);
    conn_mark_dirty(c);
}

/* After rpc_pack_answer(): the message went in whole, or `internal` did,
 * or nothing did; never a part of one (the client's stream stays whole). */
static void packed(struct dispatch *d, struct conn *c, uint32_t msgid, int rc)
{
    if (rc == -ENOMEM) {
        d->stats->errors++;
        log_msg(SDK_LOG_ERR, "conn %llu: out of memory: request %" PRIu32 " answered internal",
                (unsigned long long)c->id, msgid);
    } else if (rc < 0) {
        log_msg(SDK_LOG_ERR, "conn %llu: out of memory: request %" PRIu32 " not answered",
                (unsigned long long)c->id, msgid);
    }
    conn_mark_dirty(c);
}

/* The room job reserved for its answer goes back to its connection (the
 * answer is about to be packed, and counts as unsent from then on). */
static void release_room(struct job *job)
{
    conn_release(job->c, job->reserved);
    job->reserved = 0;
}

/* The job's answer: why it was stopped, or what its work says. */
static void answer_job(struct job *job)
{
    char msg[RPC_ERR_SIZE];
    const struct method_call *call = &job->call;
    const char *method = call->ops->name;
    struct conn *c = job->c;
    enum rpc_code code;

    if (job->reason == RPC_CANCELLED)
        answer_error(job->d, c, job->msgid, method, RPC_CANCELLED, "cancelled by the client");
    else if (job->reason == RPC_TIMEOUT) {
        snprintf(msg, sizeof(msg), "no answer from %s within %" PRIu64 " ms",
                 call->plugin->desc->name, call->timeout_ms);
        answer_error(job->d, c, job->msgid, method, RPC_TIMEOUT, msg);
    } else if (job->reason != RPC_OK)
        answer_error(job->d, c, job->msgid, method, job->reason, "sudokud is shutting down");
    else if ((code = call->ops->outcome(call, msg, sizeof(msg))) != RPC_OK)
        answer_error(job->d, c, job->msgid, method, code, msg);
    else {
        packed(job->d, c, job->msgid,
               rpc_pack_answer(&c->out, NULL, job->msgid, call->ops->pack, call));
        if (log_is_verbose()) /* spares every answer a call with seven arguments */
            log_msg(SDK_LOG_DEBUG, "conn %llu: %s %" PRIu32 " answered by %s in %" PRIu64 " us",
                    (unsigned long long)c->id, method, job->msgid, call->plugin->desc->name,
                    call->elapsed_us);
    }
}

/* Give job's memory back: to the spares while there is room, else free.
 * Loop thread only, like everything that allocates a job. */
static void job_release(struct dispatch *d, struct job *job)
{
    if (d->spare_len < DISPATCH_SPARE_JOBS)
        d->spare[d->spare_len++] = job;
    else
        free(job);
}

/* Free job and the method's part of it. */
static void job_free(struct job *job)
{
    method_end(&job->call);
    job_release(job->d, job);
}

/* A job its work finished: counted by what it answers. */
static void count_outcome(struct solver_stats *ss, const struct method_call *call)
{
    char msg[RPC_ERR_SIZE];
    enum rpc_code code = call->ops->outcome(call, msg, sizeof(msg));

    if (code == RPC_OK && call->ops->is_unsolvable && call->ops->is_unsolvable(call))
        ss->unsolvable++;
    else if (code == RPC_OK)
        ss->solved++;
    else if (code == RPC_TIMEOUT)
        ss->timeouts++;
    else
        ss->errors++;
}

static void count_job(struct dispatch *d, const struct job *job)
{
    struct solver_stats *ss = stats_solver(d->stats, job->call.plugin);

    if (!ss)
        return;
    if (!job->is_answered) /* else the worker may still write elapsed_us */
        ss->busy_us += job->call.elapsed_us;
    if (job->reason == RPC_TIMEOUT)
        ss->timeouts++;
    else if (job->reason != RPC_OK || job->is_orphan)
        ss->errors++;
    else
        count_outcome(ss, &job->call);
}

/* -------------------------------------------------------- deadlines */

static struct job *job_of_node(struct deadline_node *n)
{
    return LIST_CONTAINER_OF(n, struct job, node);
}

/* Into the heap at job->due_ns.  Returns 0 or -ENOMEM (not added). */
static int heap_push(struct dispatch *d, struct job *job)
{
    return deadline_push(&d->heap, &job->node, job->due_ns);
}

static void heap_remove(struct dispatch *d, struct job *job)
{
    deadline_remove(&d->heap, &job->node);
}

static void on_deadline(uv_timer_t *t);

/* Arm the timer for the earliest due time, unless it already fires sooner
 * (it may fire early: on_deadline then re-arms it). */
static void arm_deadline(struct dispatch *d)
{
    uint64_t due, now, ms;

    if (!deadline_first(&d->heap, &due))
        return;
    if (uv_is_active((uv_handle_t *)&d->deadlines) && d->timer_at_ns <= due)
        return;
    now = clock_now_ns();
    ms = due > now ? (due - now + 999999u) / 1000000u : 0;
    d->timer_at_ns = due;
    uv_timer_start(&d->deadlines, on_deadline, ms, 0);
}

/* --------------------------------------------------------------- finish */

/* A job answered early came back from its worker: only its memory is left. */
static void release_answered(struct dispatch *d, struct job *job)
{
    struct solver_stats *ss = stats_solver(d->stats, job->call.plugin);

    heap_remove(d, job);
    if (ss)
        ss->busy_us += job->call.elapsed_us;
    if (job->is_stuck) {
        d->stats->stuck_workers--;
        log_msg(LOG_LVL_NOTICE, "solver %s returned %" PRIu64 " ms past its deadline",
                job->call.plugin->desc->name, (clock_now_ns() - job->deadline_ns) / 1000000u);
    }
    job_free(job);
}

/* Runs on the loop thread once the job left the pool (done or removed). */
static void finish(struct job *job)
{
    struct dispatch *d = job->d;
    struct conn *c = job->c;

    assert(job->pj.state == POOL_IDLE);
    if (job->is_answered) {
        release_answered(d, job);
        return;
    }
    /* A slice of long work ran: it goes on after the other connections'
     * turns (the pool's round), unless it was stopped meanwhile. */
    if (job->reason == RPC_OK && job->ss && conn_can_send(c) && job->call.ops->is_unfinished &&
        job->call.ops->is_unfinished(&job->call)) {
        pool_resubmit(d->pool, &job->pj);
        return;
    }
    assert(d->stats->in_flight > 0);
    heap_remove(d, job);
    if (job->ss)
        list_remove(&job->link);
    d->stats->in_flight--;
    release_room(job);
    /* Closing or draining, its session not told yet: dropped all the same. */
    if (!conn_can_send(c))
        job->is_orphan = 1;
    count_job(d, job);
    if (!job->is_orphan)
        answer_job(job);
    job_free(job);
    conn_complete(c);
    conn_unref(c);
}

/* ------------------------------------------------------------------ jobs */

static void job_work(struct pool_job *pj)
{
    struct job *job = (struct job *)pj;

    pj->ran_ns = method_run(&job->call, &job->cancel, job->deadline_ns) * 1000u;
}

static void job_done(struct pool_job *pj)
{
    finish((struct job *)pj);
}

/* A job for request msgid on c, its call not started: the caller starts
 * it and sets the deadline.  The call's work is left unwritten (it is most
 * of the struct, and the method writes what it reads).  Returns NULL when
 * out of memory; job_release() frees it before its call started,
 * job_free() after. */
static struct job *new_job(struct session *ss, struct conn *c, uint32_t msgid)
{
    struct dispatch *d = ss->d;
    struct job *job = d->spare_len > 0 ? d->spare[--d->spare_len] : malloc(sizeof(*job));

    if (!job)
        return NULL;
    memset(job, 0, offsetof(struct job, call.work));
    job->pj.work = job_work;
    job->pj.done = job_done;
    job->pj.flow = &ss->flow;
    job->d = ss->d;
    job->c = c;
    job->ss = ss;
    job->msgid = msgid;
    atomic_init(&job->cancel, 0);
    deadline_node_init(&job->node);
    return job;
}

/* The bounded fast path: with every worker idle, or with this connection
 * owing nothing else (a client asking one thing at a time while other
 * connections keep every worker on long work), a small puzzle is tried on
 * the loop thread for at most cfg->inline_us (and at most INLINE_ROUND
 * times that per loop iteration, over all connections), which saves the
 * three cross-thread wake-ups of a pool round trip, or the wait for a
 * worker to finish a slice of someone else's long work.  The solver enforces the
 * budget only when it polls its deadline (bitmask 9x9: every 16 guesses),
 * so one attempt can overrun it; a connection whose attempt overran or did
 * not finish gets no inline solves for INLINE_BACKOFF_MS, and only 9x9 and
 * smaller puzzles are tried.  Returns 1 when the job is finished, 0 when it
 * must go to the pool (its work so far is counted in elapsed_us and
 * guesses). */
static int try_inline(struct session *ss, struct conn *c, struct job *job)
{
    struct dispatch *d = ss->d;
    const struct method_ops *ops = job->call.ops;
    uint64_t budget = (uint64_t)d->inline_us * 1000u;
    uint64_t t0, cap, took;

    if (budget == 0 || !ops->is_prompt || !ops->is_prompt(&job->call) || c->has_more_input ||
        uv_now(d->loop) < ss->inline_off_until_ms || d->inline_spent_ns >= budget * INLINE_ROUND ||
        (!pool_is_idle(d->pool) && !list_empty(&ss->jobs)))
        return 0;
    t0 = clock_now_ns();
    cap = t0 + budget < job->deadline_ns ? t0 + budget : job->deadline_ns;
    method_run(&job->call, &job->cancel, cap);
    took = clock_now_ns() - t0;
    d->inline_spent_ns += took;
    if (took > 2 * budget) /* hard puzzles: the solver polls its deadline too rarely */
        ss->inline_off_until_ms = uv_now(d->loop) + INLINE_BACKOFF_MS;
    if (cap == job->deadline_ns || !ops->rearm(&job->call))
        return 1;
    ss->inline_off_until_ms = uv_now(d->loop) + INLINE_BACKOFF_MS;
    return 0;
}

/* Hand job to the pool under the deadline timer.  Returns 0, or -EAGAIN
 * (queue full) / -ENOMEM with nothing kept. */
static int submit(struct dispatch *d, struct job *job)
{
    int rc = heap_push(d, job);

    if (rc < 0)
        return rc;
    rc = pool_submit(d->pool, &job->pj);
    if (rc < 0) {
        heap_remove(d, job);
        return rc;
    }
    arm_deadline(d);
    return 0;
}

/* Put job in flight: tried on the loop when is_done says it finished
 * there, else handed to the pool.  A full queue is answered `overloaded`
 * and the job freed. */
static void launch(struct session *ss, struct conn *c, struct job *job, int is_done)
{
    struct dispatch *d = ss->d;

    if (!is_done && submit(d, job) < 0) {
        char msg[RPC_ERR_SIZE];
        snprintf(msg, sizeof(msg), "%s queue is full (%zu waiting)", job->call.ops->name,
                 d->max_queue);
        release_room(job);
        answer_error(d, c, job->msgid, job->call.ops->name, RPC_OVERLOADED, msg);
        job_free(job);
        return;
    }
    list_insert_head(&ss->jobs, &job->link);
    conn_defer(c);
    conn_ref(c);
    d->stats->in_flight++;
    if (is_done)
        finish(job);
}

static void answer_no_memory(struct dispatch *d, struct conn *c, uint32_t msgid, const char *method)
{
    answer_error(d, c, msgid, method, RPC_OVERLOADED, "out of memory: try again later");
}

/* A request whose method does work, with room reserved on c for its
 * answer: its method validates it on the loop thread; the deadline counts
 * from here, capped by the daemon's --timeout-ms, and the method's grace is
 * added to when it falls due. */
static void start_call(struct session *ss, struct conn *c, const struct rpc_request *req,
                       size_t reserved)
{
    struct dispatch *d = ss->d;
    char msg[RPC_ERR_SIZE];
    struct job *job = new_job(ss, c, req->msgid);
    uint64_t now = clock_now_ns(), t = d->timeout_ms;
    enum rpc_code code;

    if (!job) {
        conn_release(c, reserved);
        answer_no_memory(d, c, req->msgid, req->method_name);
        return;
    }
    job->reserved = reserved;
    code = method_start(&job->call, &d->env, req, msg, sizeof(msg));
    if (code != RPC_OK) {
        release_room(job);
        answer_error(d, c, req->msgid, req->method_name, code, msg);
        job_release(d, job); /* the method kept nothing */
        return;
    }
    if (job->call.timeout_ms && job->call.timeout_ms < t)
        t = job->call.timeout_ms;
    job->call.timeout_ms = t;
    job->deadline_ns = now + t * 1000000u;
    job->due_ns = job->deadline_ns + job->call.ops->grace_ms * 1000000u;
    launch(ss, c, job, try_inline(ss, c, job));
}

/* Take a job back from the queue for reason and finish it now.  Returns 1,
 * or 0 when a worker already has it. */
static int take_back(struct job *job, enum rpc_code reason)
{
    if (pool_remove(job->d->pool, &job->pj) < 0)
        return 0;
    if (job->reason == RPC_OK)
        job->reason = reason;
    finish(job);
    return 1;
}

/* Answer a job its worker still runs for reason, now, and let the worker
 * keep its memory: ask the plugin to stop, and watch for it to return
 * (the heap, STUCK_GRACE_MS past its deadline or now, whichever is later). */
static void answer_early(struct job *job, enum rpc_code reason)
{
    struct dispatch *d = job->d;
    struct conn *c = job->c;
    uint64_t now = clock_now_ns();

    assert(!job->is_answered && d->stats->in_flight > 0);
    atomic_store(&job->cancel, 1);
    if (job->reason == RPC_OK)
        job->reason = reason;
    if (job->ss)
        list_remove(&job->link);
    job->ss = NULL;
    d->stats->in_flight--;
    release_room(job);
    if (!conn_can_send(c))
        job->is_orphan = 1;
    job->is_answered = 1; /* before count_job: the worker owns elapsed_us */
    count_job(d, job);
    if (!job->is_orphan)
        answer_job(job);
    job->c = NULL;
    conn_complete(c);
    conn_unref(c);
    heap_remove(d, job);
    job->due_ns = (now > job->deadline_ns ? now : job->deadline_ns) + STUCK_GRACE_MS * 1000000u;
    if (heap_push(d, job) == 0) /* cannot fail: it just left the heap */
        arm_deadline(d);
}

/* Stop one job for reason: finish it now when still queued, else answer it
 * now and let the solver return when it will. */
static void stop_job(struct job *job, enum rpc_code reason)
{
    if (take_back(job, reason))
        return;
    answer_early(job, reason);
}

/* An answered job still out STUCK_GRACE_MS past its deadline. */
static void write_off(struct dispatch *d, struct job *job)
{
    int rc;

    heap_remove(d, job);
    rc = pool_write_off(d->pool, &job->pj);
    if (rc == -EALREADY) /* it came back meanwhile: its completion is on its way */
        return;
    job->is_stuck = 1;
    d->stats->stuck_workers++;
    log_msg(SDK_LOG_WARNING,
            "solver %s ignores its deadline: still running %" PRIu64
            " ms past it; worker written off and %s (%" PRIu64 " stuck)",
            job->call.plugin->desc->name, (clock_now_ns() - job->deadline_ns) / 1000000u,
            rc == 0 ? "replaced" : "not replaced", d->stats->stuck_workers);
}

/* Idle callbacks run before the loop decides how long to poll: stopping at
 * the first call would let that poll sleep, so it stops at the second (the
 * next iteration, after the check phase sent the answers). */
static void on_kick(uv_idle_t *h)
{
    struct dispatch *d = h->data;

    if (++d->kick_runs >= 2)
        uv_idle_stop(h);
}

/* The heap's earliest jobs are due: time them out, or write off their
 * workers.  Timers run before the loop polls, and answers go out from the
 * check phase after it: the idle handle keeps that poll from sleeping. */
static void on_deadline(uv_timer_t *t)
{
    struct dispatch *d = t->data;
    uint64_t now = clock_now_ns(), due;
    struct deadline_node *n = deadline_first(&d->heap, &due);

    if (n && due <= now) {
        d->kick_runs = 0;
        uv_idle_start(&d->kick, on_kick);
    }

    for (; n && due <= now; n = deadline_first(&d->heap, &due)) {
        struct job *job = job_of_node(n);
        if (job->is_answered)
            write_off(d, job);
        else if (pool_remove(d->pool, &job->pj) == 0) {
            job->reason = RPC_TIMEOUT;
            finish(job);
        } else
            answer_early(job, RPC_TIMEOUT);
    }
    arm_deadline(d);
}

static struct job *job_of(struct list *link)
{
    return LIST_CONTAINER_OF(link, struct job, link);
}

static void cancel_request(struct session *ss, struct conn *c, uint32_t msgid)
{
    struct list *l, *tmp;

    LIST_FOREACH_SAFE(l, tmp, &ss->jobs)
    {
        struct job *job = job_of(l);
        if (job->msgid == msgid && job->reason == RPC_OK) {
            log_msg(SDK_LOG_DEBUG, "conn %llu: cancel %" PRIu32, (unsigned long long)c->id, msgid);
            stop_job(job, RPC_CANCELLED);
            return;
        }
    }
    log_msg(SDK_LOG_DEBUG, "conn %llu: cancel %" PRIu32 ": no such request in flight",
            (unsigned long long)c->id, msgid);
}

/* The connection's last call: its queued jobs are dropped, its running
 * ones cancelled (they come back as orphans), and the session goes. */
static void on_closed(void *user, struct conn *c)
{
    struct session *ss = user;
    struct list *l, *tmp;

    (void)c;
    LIST_FOREACH_SAFE(l, tmp, &ss->jobs)
    {
        struct job *job = job_of(l);
        list_remove(&job->link);
        job->ss = NULL;
        job->is_orphan = 1;
        stop_job(job, RPC_CANCELLED);
    }
    list_remove(&ss->link);
    free(ss);
}

/* Stop every job of ss not stopped yet (see dispatch_stop).  finish()
 * removes only the job in hand from ss->jobs and closes nothing. */
static void stop_session_jobs(struct session *ss, int cancel_running)
{
    struct list *l, *tmp;

    LIST_FOREACH_SAFE(l, tmp, &ss->jobs)
    {
        struct job *job = job_of(l);
        if (job->reason != RPC_OK)
            continue;
        if (cancel_running)
            stop_job(job, RPC_OVERLOADED);
        else
            take_back(job, RPC_OVERLOADED);
    }
}

void dispatch_stop(struct dispatch *d, int cancel_running)
{
    struct list *l, *tmp;

    LIST_FOREACH_SAFE(l, tmp, &d->sessions)
    {
        stop_session_jobs(LIST_CONTAINER_OF(l, struct session, link), cancel_running);
    }
}

/* --------------------------------------------------------------- methods */

/* Pack the sides of sides[0..4) that pick(h, p, side) says, as an array. */
static int pack_sides(msgpack_packer *pk, const struct host *h, const struct host_plugin *p,
                      int (*pick)(const struct host *, const struct host_plugin *, unsigned))
{
    static const unsigned sides[] = {4, 9, 16, 25};
    unsigned len = 0;

    for (size_t k = 0; k < 4; k++)
        len += pick(h, p, sides[k]) != 0;
    if (msgpack_pack_array(pk, len) < 0)
        return -ENOMEM;
    for (size_t k = 0; k < 4; k++)
        if (pick(h, p, sides[k]) && msgpack_pack_uint32(pk, sides[k]) < 0)
            return -ENOMEM;
    return 0;
}

static int takes_side(const struct host *h, const struct host_plugin *p, unsigned side)
{
    (void)h;
    return (p->desc->sizes & sdk_size_bit(side)) != 0;
}

/* Where a request without a solver goes. */
static int is_default_for(const struct host *h, const struct host_plugin *p, unsigned side)
{
    return host_default_for(h, (int)side) == p;
}

/* The names of the rule kinds of a plugin's solve() (is_explain 0) or
 * explain() (1), as an array of wire keys. */
static int pack_rule_names(msgpack_packer *pk, const struct host_plugin *p, int is_explain)
{
    uint32_t kinds = sdk_plugin_rules(p->desc, is_explain) & SDK_RULE_ALL;

    if (msgpack_pack_array(pk, (size_t)__builtin_popcount(kinds)) < 0)
        return -ENOMEM;
    for (uint32_t k = 1; k & SDK_RULE_ALL; k <<= 1)
        if ((kinds & k) && rpc_pack_cstr(pk, rules_kind_name(k)) < 0)
            return -ENOMEM;
    return 0;
}

/* One entry of the solvers list: {name, version, description, sizes,
 * default, default_sizes, explain, rules, explain_rules}. */
static int pack_solver(msgpack_packer *pk, const struct host *h, const struct host_plugin *p)
{
    if (msgpack_pack_map(pk, 9) < 0 || proto_pack_key(pk, PROTO_K_NAME) < 0 ||
        rpc_pack_cstr(pk, p->desc->name) < 0 || proto_pack_key(pk, PROTO_K_VERSION) < 0 ||
        rpc_pack_cstr(pk, p->desc->version ? p->desc->version : "") < 0 ||
        proto_pack_key(pk, PROTO_K_DESCRIPTION) < 0 ||
        rpc_pack_cstr(pk, p->desc->description ? p->desc->description : "") < 0 ||
        proto_pack_key(pk, PROTO_K_SIZES) < 0 || pack_sides(pk, h, p, takes_side) < 0 ||
        proto_pack_key(pk, PROTO_K_DEFAULT) < 0 ||
        (p == host_default(h) ? msgpack_pack_true(pk) : msgpack_pack_false(pk)) < 0 ||
        proto_pack_key(pk, PROTO_K_DEFAULT_SIZES) < 0 || pack_sides(pk, h, p, is_default_for) < 0 ||
        proto_pack_key(pk, PROTO_K_EXPLAIN) < 0 ||
        (host_plugin_has_explain(p) ? msgpack_pack_true(pk) : msgpack_pack_false(pk)) < 0 ||
        proto_pack_key(pk, PROTO_K_RULES) < 0 || pack_rule_names(pk, p, 0) < 0 ||
        proto_pack_key(pk, PROTO_K_EXPLAIN_RULES) < 0 || pack_rule_names(pk, p, 1) < 0)
        return -ENOMEM;
    return 0;
}

/* An rpc_result_fn: the solvers list, arg the host. */
static int pack_solvers(msgpack_packer *pk, const void *arg)
{
    const struct host *h = arg;

    if (msgpack_pack_array(pk, host_count(h)) < 0)
        return -ENOMEM;
    for (size_t i = 0; i < host_count(h); i++)
        if (pack_solver(pk, h, host_plugin_at(h, i)) < 0)
            return -ENOMEM;
    return 0;
}

/* An rpc_result_fn: the stats map, arg the counters. */
static int pack_stats(msgpack_packer *pk, const void *arg)
{
    return stats_pack(arg, pk);
}

/* version's result: what a client needs to know it speaks to a daemon it
 * understands (protocol), and which plugins it could load (abi). */
static int pack_version(msgpack_packer *pk, const void *arg)
{
    char abi[16];

    (void)arg;
    snprintf(abi, sizeof(abi), "%d.%d", SDK_ABI_MAJOR, SDK_ABI_MINOR);
    if (msgpack_pack_map(pk, 3) < 0 || proto_pack_key(pk, PROTO_K_DAEMON) < 0 ||
        rpc_pack_cstr(pk, SUDOKUD_VERSION) < 0 || proto_pack_key(pk, PROTO_K_PROTOCOL) < 0 ||
        msgpack_pack_uint32(pk, RPC_PROTOCOL_VERSION) < 0 || proto_pack_key(pk, PROTO_K_ABI) < 0 ||
        rpc_pack_cstr(pk, abi) < 0)
        return -ENOMEM;
    return 0;
}

static void answer_simple(struct dispatch *d, struct conn *c, const struct rpc_request *req)
{
    int rc;

    if (req->method == RPC_M_PING)
        rc = rpc_pack_pong(&c->out, req->msgid);
    else if (req->method == RPC_M_VERSION)
        rc = rpc_pack_answer(&c->out, NULL, req->msgid, pack_version, NULL);
    else if (req->method == RPC_M_SOLVERS)
        rc = rpc_pack_answer(&c->out, NULL, req->msgid, pack_solvers, d->host);
    else
        rc = rpc_pack_answer(&c->out, NULL, req->msgid, pack_stats, d->stats);
    packed(d, c, req->msgid, rc);
}

static void handle_notification(struct session *ss, struct conn *c, const struct rpc_request *req,
                                const char *err)
{
    if (req->code != RPC_OK || req->method != RPC_M_CANCEL) {
        log_limited(&c->set->refusals, LOG_LVL_NOTICE,
                    "conn %llu (pid %ld uid %ld): notification %s ignored: %s",
                    (unsigned long long)c->id, (long)c->pid, (long)c->uid,
                    req->method_name[0] ? req->method_name : "-",
                    req->code != RPC_OK ? err : "unknown notification");
        return;
    }
    cancel_request(ss, c, req->cancel_msgid);
}

/* Work is accepted only with room for its answer on c (conn_reserve):
 * else the request is held, and comes again once c owes less.  Returns
 * the bytes reserved, or 0 when the request is held. */
static size_t reserve_answer(struct conn *c, const struct rpc_request *req)
{
    size_t size = method_answer_size(req);

    return conn_reserve(c, size) == 0 ? size : 0;
}

static void on_message(void *user, struct conn *c, const struct rpc_request *req, const char *err)
{
    struct session *ss = user;
    struct dispatch *d = ss->d;
    size_t reserved = 0;

    if (req->type == RPC_MSG_NOTIFY) {
        handle_notification(ss, c, req, err);
        return;
    }
    if (req->code == RPC_OK && method_of(req->method) && !d->is_stopping &&
        (reserved = reserve_answer(c, req)) == 0)
        return; /* held: not counted until it is read again */
    d->stats->requests++;
    if (req->code != RPC_OK) {
        answer_error(d, c, req->msgid, req->method_name[0] ? req->method_name : "-", req->code,
                     err);
        return;
    }
    /* During the shutdown grace everything is served as usual; after it
     * nothing new is started, but quick answers still go out. */
    if (!method_of(req->method))
        answer_simple(d, c, req);
    else if (d->is_stopping)
        answer_error(d, c, req->msgid, req->method_name, RPC_OVERLOADED,
                     "sudokud is shutting down");
    else
        start_call(ss, c, req, reserved);
}

/* The workers start on what this pass queued. */
static void on_batch_end(void *user, struct conn *c)
{
    struct session *ss = user;

    (void)c;
    pool_flush(ss->d->pool);
}

static const struct conn_callbacks session_callbacks = {
    .on_message = on_message,
    .on_batch_end = on_batch_end,
    .on_closed = on_closed,
};

/* --------------------------------------------------------------- setup */

int dispatch_init(struct dispatch *d, uv_loop_t *loop, struct host *host, struct pool *pool,
                  struct stats *stats)
{
    memset(d, 0, sizeof(*d));
    d->loop = loop;
    d->host = host;
    d->pool = pool;
    d->stats = stats;
    d->env = (struct method_env){.host = host,
                                 .log = log_host_sink,
                                 .log_hint = "the daemon log",
                                 .slice_ns = DISPATCH_SLICE_MS * 1000000u};
    deadline_heap_init(&d->heap);
    list_init(&d->sessions);
    d->deadlines.data = d;
    d->kick.data = d;
    if (uv_idle_init(loop, &d->kick) < 0)
        return -ENOMEM;
    return uv_timer_init(loop, &d->deadlines);
}

void dispatch_close(struct dispatch *d)
{
    if (!uv_is_closing((uv_handle_t *)&d->deadlines))
        uv_close((uv_handle_t *)&d->deadlines, NULL);
    if (!uv_is_closing((uv_handle_t *)&d->kick))
        uv_close((uv_handle_t *)&d->kick, NULL);
    deadline_heap_close(&d->heap);
    while (d->spare_len > 0)
        free(d->spare[--d->spare_len]);
}

int dispatch_accept(struct dispatch *d, struct conn_set *set, uv_stream_t *listener)
{
    struct session *ss = calloc(1, sizeof(*ss));

    if (!ss)
        return -ENOMEM;
    ss->d = d;
    pool_flow_init(&ss->flow);
    list_init(&ss->jobs);
    list_insert_head(&d->sessions, &ss->link);
    if (conn_accept(set, listener, &session_callbacks, ss) < 0) {
        list_remove(&ss->link);
        free(ss);
        return -ENOMEM;
    }
    return 0;
}
