/* methodjob.c -- the methods of method/ as job kinds (job.h).
 *
 * A request whose method has ops in method/ (method_of) becomes a job
 * whose kind forwards to them: validate here on the loop thread, run on a
 * worker, then outcome, pack and destroy.  The call and the driver's
 * environment it borrows live in job->work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/job.h"
#include "daemon/log.h"
#include "method/method.h"

/* A job's call, what it borrows, and its kind. */
struct method_job {
    struct method_env env;
    struct method_call call;
    struct job_kind kind;
};

static void method_job_run(struct job *job, uint64_t deadline_ns)
{
    struct method_job *mj = job->work;

    job->elapsed_us += method_run(&mj->call, &job->cancel, deadline_ns);
}

static enum rpc_code method_job_outcome(const struct job *job, char *msg, size_t msg_size)
{
    const struct method_job *mj = job->work;

    return mj->call.ops->outcome(&mj->call, msg, msg_size);
}

static int method_job_pack(msgpack_packer *pk, const void *arg)
{
    const struct job *job = arg;
    const struct method_job *mj = job->work;

    return mj->call.ops->pack(pk, &mj->call);
}

static void method_job_destroy(struct job *job)
{
    struct method_job *mj = job->work;

    method_end(&mj->call);
    free(mj);
    job->work = NULL;
}

enum rpc_code method_job_start(const struct host *h, const struct rpc_request *req, struct job *job,
                               char *msg, size_t msg_size)
{
    struct method_job *mj = malloc(sizeof(*mj));
    enum rpc_code code;

    if (!mj) {
        snprintf(msg, msg_size, "out of memory: try again later");
        return RPC_OVERLOADED;
    }
    mj->env = (struct method_env){.host = h, .log = log_host_sink, .log_hint = "the daemon log"};
    code = method_start(&mj->call, &mj->env, req, msg, msg_size);
    if (code != RPC_OK) {
        free(mj);
        return code;
    }
    mj->kind = (struct job_kind){
        .method = mj->call.ops->name,
        .grace_ms = mj->call.ops->grace_ms,
        .run = method_job_run,
        .outcome = method_job_outcome,
        .pack = method_job_pack,
        .destroy = method_job_destroy,
    };
    job->kind = &mj->kind;
    job->work = mj;
    job->plugin = mj->call.plugin;
    mj->call.timeout_ms = job->timeout_ms;
    return RPC_OK;
}
