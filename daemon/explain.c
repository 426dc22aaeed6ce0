/* explain.c -- the explain and rate methods: a job kind (job.h).
 *
 * Both run host_explain() on a worker: the unique solution is found with a
 * counting solver, the explaining plugin (`logic`) works step by step, and
 * the host replays every step against the solution before anything is
 * packed.  explain keeps the steps, their pattern cells and their text;
 * rate keeps only the counts and the rating.  The answer is packed by
 * method/explained.c, which adds what the plugin cannot say (the `reveal`
 * step when logic is stuck, the `mistake` step for a wrong progress), as
 * the tool's --local does.
 *
 * The step arrays (host_explain_arrays) never run out; they are allocated
 * with malloc, so that the pages a short explanation never touches cost
 * nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "daemon/job.h"
#include "daemon/log.h"
#include "method/explained.h"
#include "method/request.h"
#include "util/clock.h"

struct explain_work {
    int is_rate;                      /* rate: no text, no pattern cells */
    const struct host_plugin *solver; /* finds the unique solution */
    struct sdk_explain x;             /* the request and its outputs */
    uint8_t progress[SDK_MAX_CELLS];  /* the player's grid, when x.progress */
    uint8_t grid[SDK_MAX_CELLS];      /* position reached */
    int rc;                           /* host_explain's result */
    void *arrays;                     /* the block x's arrays point into, owned */
};

/* ---------------------------------------------------------------- start */

/* The progress grid must have the puzzle's size and keep every given;
 * entries that disagree with the solution are the worker's to find. */
static enum rpc_code check_progress(const struct rpc_request *req, char *msg, size_t msg_size)
{
    const struct rpc_explain_params *e = &req->explain;

    if (!e->has_progress)
        return RPC_OK;
    return request_check_progress(req->solve.n, req->solve.cells, e->progress_n, e->progress, msg,
                                  msg_size);
}

/* The work and its arrays, for side n; NULL when out of memory.  The
 * caller frees it with work_free(). */
static struct explain_work *work_new(unsigned n, int is_rate)
{
    struct explain_work *w = calloc(1, sizeof(*w));

    if (!w)
        return NULL;
    w->arrays = host_explain_arrays(&w->x, n, !is_rate);
    if (!w->arrays) {
        free(w);
        return NULL;
    }
    w->is_rate = is_rate;
    return w;
}

static void work_free(struct explain_work *w)
{
    if (!w)
        return;
    free(w->arrays);
    free(w);
}

static void explain_run(struct job *job, uint64_t deadline_ns);
static enum rpc_code explain_outcome(const struct job *job, char *msg, size_t msg_size);
static int explain_pack(msgpack_packer *pk, const void *arg);
static int rate_pack(msgpack_packer *pk, const void *arg);
static void explain_destroy(struct job *job);

static const struct job_kind explain_kind = {
    .method = "explain",
    .run = explain_run,
    .outcome = explain_outcome,
    .pack = explain_pack,
    .destroy = explain_destroy,
};

static const struct job_kind rate_kind = {
    .method = "rate",
    .run = explain_run,
    .outcome = explain_outcome,
    .pack = rate_pack,
    .destroy = explain_destroy,
};

enum rpc_code explain_start(const struct host *h, const struct rpc_request *req, struct job *job,
                            char *msg, size_t msg_size)
{
    const struct rpc_solve_params *s = &req->solve;
    int is_rate = req->method == RPC_M_RATE;
    const struct host_plugin *p = NULL, *solver;
    struct explain_work *w;
    enum rpc_code code;

    if (grid_check_givens(s->n, s->cells, msg, msg_size) < 0)
        return RPC_BAD_PUZZLE;
    code = request_explainer(h, s->solver, s->n, &p, msg, msg_size);
    if (code == RPC_OK && !is_rate)
        code = check_progress(req, msg, msg_size);
    if (code != RPC_OK)
        return code;
    solver = request_counter(h, s->n);
    if (!solver) {
        snprintf(msg, msg_size, "no loaded solver can count %ux%u solutions", s->n, s->n);
        return RPC_UNSUPPORTED;
    }
    w = work_new(s->n, is_rate);
    if (!w) {
        snprintf(msg, msg_size, "out of memory: try again later");
        return RPC_OVERLOADED;
    }
    w->solver = solver;
    w->x.size = sizeof(w->x);
    w->x.n = s->n;
    w->x.cells = job->cells;
    w->x.max_steps = is_rate ? 0 : req->explain.max_steps;
    w->x.grid = w->grid;
    if (!is_rate && req->explain.has_progress) {
        memcpy(w->progress, req->explain.progress, (size_t)s->n * s->n);
        w->x.progress = w->progress;
    }
    memcpy(job->cells, s->cells, (size_t)s->n * s->n);
    job->kind = is_rate ? &rate_kind : &explain_kind;
    job->work = w;
    job->plugin = p;
    job->n = s->n;
    job->form = s->form;
    return RPC_OK;
}

static void explain_destroy(struct job *job)
{
    work_free(job->work);
    job->work = NULL;
}

/* ---------------------------------------------------------------- work */

static void explain_run(struct job *job, uint64_t deadline_ns)
{
    struct explain_work *w = job->work;
    uint64_t t0 = clock_now_ns();

    w->x.cancel = &job->cancel;
    w->x.deadline_ns = deadline_ns;
    w->rc = host_explain(job->plugin, w->solver, &w->x, job->solution);
    if (w->rc == 0 && w->x.status > SDK_EXPLAIN_TIMEDOUT)
        log_msg(SDK_LOG_ERR, "%s: explain of a %ux%u puzzle ended with status %" PRIu32,
                job->plugin->desc->name, job->n, job->n, w->x.status);
    job->elapsed_us += (clock_now_ns() - t0) / 1000u;
}

static enum rpc_code explain_outcome(const struct job *job, char *msg, size_t msg_size)
{
    const struct explain_work *w = job->work;

    return request_explain_outcome(w->rc, &w->x, job->plugin, job->timeout_ms, "the daemon log",
                                   msg, msg_size);
}

/* ---------------------------------------------------------------- answers */

/* What the job produced, for method/explained.c. */
static struct explained explained_of(const struct job *job)
{
    const struct explain_work *w = job->work;

    return (struct explained){.x = &w->x,
                              .rc = w->rc,
                              .solution = job->solution,
                              .progress = w->progress,
                              .solver = job->plugin->desc->name,
                              .elapsed_us = job->elapsed_us};
}

static int explain_pack(msgpack_packer *pk, const void *arg)
{
    struct explained e = explained_of(arg);
    return explained_pack(pk, &e);
}

static int rate_pack(msgpack_packer *pk, const void *arg)
{
    struct explained e = explained_of(arg);
    return explained_pack_rating(pk, &e);
}
