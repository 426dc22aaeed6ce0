/* generate.c -- the generate method: a job kind (job.h).
 *
 * One request makes its puzzles on one worker with method/genreq.c (the
 * plugins, the band, the batch and the answer map, shared with the tool's
 * --local): puzzle k comes from gen_batch_seed(seed, k) alone, so the
 * answer depends only on the options and the seed, never on the worker
 * count or the load.  (A client that wants more puzzles than one worker
 * makes sends several requests at once: they run side by side.)
 *
 * The generator stops at the request's deadline with the puzzles finished
 * so far, which the answer then holds; the kind's grace gives it the few
 * milliseconds to send them before the host would answer `timeout` itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "daemon/job.h"
#include "daemon/log.h"
#include "method/genreq.h"
#include "util/clock.h"

#define GENERATE_GRACE_MS 50 /* the generator polls its deadline before each plugin call */

static void generate_run(struct job *job, uint64_t deadline_ns);
static enum rpc_code generate_outcome(const struct job *job, char *msg, size_t msg_size);
static int generate_pack(msgpack_packer *pk, const void *arg);
static void generate_destroy(struct job *job);

static const struct job_kind generate_kind = {
    .method = "generate",
    .grace_ms = GENERATE_GRACE_MS,
    .run = generate_run,
    .outcome = generate_outcome,
    .pack = generate_pack,
    .destroy = generate_destroy,
};

enum rpc_code generate_start(const struct host *h, const struct rpc_request *req, struct job *job,
                             char *msg, size_t msg_size)
{
    struct genreq *r = NULL;
    enum rpc_code code = genreq_new(h, &req->generate, &r, msg, msg_size);

    if (code != RPC_OK)
        return code;
    job->kind = &generate_kind;
    job->work = r;
    job->plugin = r->counter;
    job->n = req->generate.n;
    return RPC_OK;
}

static void generate_destroy(struct job *job)
{
    genreq_free(job->work);
    job->work = NULL;
}

static void generate_run(struct job *job, uint64_t deadline_ns)
{
    struct genreq *r = job->work;
    uint64_t t0 = clock_now_ns();

    genreq_run(r, &job->cancel, deadline_ns);
    for (size_t i = 0; i < r->done; i++)
        job->guesses += r->out[i].solves;
    job->elapsed_us += (clock_now_ns() - t0) / 1000u;
    if (r->rc < 0 && r->rc != -ETIMEDOUT && r->rc != -ECANCELED && r->rc != -ERANGE)
        log_msg(SDK_LOG_ERR, "generate: %ux%u puzzle %zu of seed %" PRIu64 " failed: %s", job->n,
                job->n, r->done, r->seed, strerror(-r->rc));
}

static enum rpc_code generate_outcome(const struct job *job, char *msg, size_t msg_size)
{
    return genreq_outcome(job->work, job->timeout_ms, "the daemon log", msg, msg_size);
}

static int generate_pack(msgpack_packer *pk, const void *arg)
{
    const struct job *job = arg;
    return genreq_pack(pk, job->work);
}
