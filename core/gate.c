/* gate.c -- every call into a plugin passes here: serialised when the
 * plugin is not reentrant, and a solve's answer checked before it counts.
 *
 * This is the hot path of every solve (host_solve), so it stays one file
 * of static functions the compiler can see whole: a copy of the job and of
 * the givens for the plugin, one lock when the plugin needs it, the call,
 * the check.  A plugin never holds a pointer to the caller's givens; its
 * answer is checked against them and every rule (rules_check_solution), and
 * a wrong one is wiped and becomes -EIO, so it never leaves this file.
 *
 * Thread-safe: only each entry's lock and its logged-once flag change.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "core/host_impl.h"
#include "core/rules.h"

#define HOST_LOCK_POLL_NS 10000000u  /* serialised calls look at cancel this often */
#define HOST_LATE_NS      100000000u /* SDK_CAP_CANCEL broken: this late past a deadline */

/* Check what the plugin returned against the caller's job, which the plugin
 * never saw (it worked on a copy), and against every rule of rules (NULL:
 * classic).  Returns 0 or -EIO after logging why. */
static int check_answer(const struct host_entry *e, const struct sdk_job *job,
                        const struct sdk_rules *rules, int status)
{
    const char *name = e->pub.desc->name;
    char err[256];

    int is_budget = status == SDK_EXHAUSTED && sdk_job_max_guesses(job) != 0;

    if (status < SDK_SOLVED || (status > SDK_FAILED && !is_budget)) {
        host__logf(e->host, SDK_LOG_ERR, "%s: returned bad status %d", name, status);
        return -EIO;
    }
    if (status == SDK_FAILED) {
        host__logf(e->host, SDK_LOG_ERR, "%s: failed on a %ux%u puzzle", name, job->n, job->n);
        return -EIO;
    }
    if (job->count > job->limit) {
        host__logf(e->host, SDK_LOG_ERR, "%s: found %llu solutions, limit was %llu", name,
                   (unsigned long long)job->count, (unsigned long long)job->limit);
        return -EIO;
    }
    /* Cancelled or timed-out jobs may report what they found so far. */
    if ((status == SDK_SOLVED && job->count == 0) ||
        (status == SDK_UNSOLVABLE && job->count != 0)) {
        host__logf(e->host, SDK_LOG_ERR, "%s: status %d with count %llu", name, status,
                   (unsigned long long)job->count);
        return -EIO;
    }
    if (status == SDK_SOLVED &&
        rules_check_solution(rules, job->n, job->cells, job->solution, err, sizeof(err)) != 0) {
        host__logf(e->host, SDK_LOG_ERR, "%s: wrong solution: %s", name, err);
        return -EIO;
    }
    return 0;
}

/* Wait for e's lock, for a plugin that is not reentrant, while the job may
 * still run: the wait ends at the job's deadline or (looked at every
 * HOST_LOCK_POLL_NS) its cancel flag.  Returns 0 (locked) or the status. */
static int entry_lock(struct host_entry *e, const struct sdk_job *job)
{
    int stop;

    if (pthread_mutex_trylock(&e->lock) == 0)
        return 0;
    if (!job->cancel && !job->deadline_ns)
        return pthread_mutex_lock(&e->lock) == 0 ? 0 : SDK_FAILED;
    while ((stop = sdk_job_should_stop(job)) == 0) {
        /* timedlock takes CLOCK_REALTIME; the deadline is CLOCK_MONOTONIC. */
        uint64_t wait = HOST_LOCK_POLL_NS, now = sdk_now_ns();
        struct timespec ts;
        if (job->deadline_ns && now >= job->deadline_ns)
            continue; /* sdk_job_should_stop() now says so */
        if (job->deadline_ns && job->deadline_ns - now < wait)
            wait = job->deadline_ns - now;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)wait;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        if (pthread_mutex_timedlock(&e->lock, &ts) == 0)
            return 0;
    }
    return stop;
}

/* Run the plugin on pj, serialised when it is not reentrant.  Returns its
 * status, or the stop status when the job ended before it could start. */
static int entry_call(struct host_entry *e, struct sdk_job *pj)
{
    const struct sdk_plugin *d = e->pub.desc;
    int serial = !(d->caps & SDK_CAP_REENTRANT);
    int status = sdk_job_should_stop(pj);

    if (status == 0 && e->runner) /* its own process: nothing shared to serialise */
        return e->runner->solve(e->runner_ctx, &e->pub, pj);
    if (status == 0 && serial)
        status = entry_lock(e, pj);
    if (status != 0)
        return status;
    status = d->solve(e->pub.state, &e->api, pj);
    if (serial)
        pthread_mutex_unlock(&e->lock);
    return status;
}

/* A plugin that declares SDK_CAP_CANCEL and returns well past the deadline
 * broke its promise: say so, once per plugin. */
static void check_late(struct host_entry *e, uint64_t deadline_ns)
{
    if (!deadline_ns || !(e->pub.desc->caps & SDK_CAP_CANCEL))
        return;
    if (sdk_now_ns() > deadline_ns + HOST_LATE_NS && !atomic_exchange(&e->late_logged, 1))
        host__logf(e->host, SDK_LOG_WARNING,
                   "%s: returned more than %u ms past its deadline although it declares "
                   "SDK_CAP_CANCEL (logged once)",
                   e->pub.desc->name, HOST_LATE_NS / 1000000u);
}

int host_solve(const struct host_plugin *p, struct sdk_job *job)
{
    /* The entry is the host's own heap object; only callers see it const. */
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;
    uint8_t givens[SDK_MAX_CELLS];
    const struct sdk_rules *rules;
    struct sdk_job pj;
    int status;

    if (!p || !job || !job->cells || !job->solution || job->limit == 0)
        return -EINVAL;
    if (!(sdk_size_bit(job->n) & p->desc->sizes))
        return -ENOTSUP;
    /* Rules only for a plugin that declares every kind (never one built
     * before minor 4: sdk_plugin_rules() says 0 for it). */
    rules = job->size >= offsetof(struct sdk_job, rules) + sizeof(job->rules) ? job->rules : NULL;
    if (rules && (rules->n != job->n || rules->kinds == 0))
        return -EINVAL;
    if (rules && (sdk_plugin_rules(p->desc, 0) & rules->kinds) != rules->kinds)
        return -ENOTSUP;
    /* The plugin gets a copy of the job and of the givens: whatever it
     * writes into them (cells is const only by declaration), the answer is
     * checked against the caller's, which it never had a pointer to.  Only
     * the solution buffer is shared.  81 bytes on the 9x9 hot path. */
    memcpy(givens, job->cells, (size_t)job->n * job->n);
    pj = *job;
    pj.cells = givens;
    pj.count = 0;
    pj.guesses = 0;
    pj.size = sizeof(pj);
    pj.rules = rules;
    pj.max_guesses = sdk_job_max_guesses(job);
    status = entry_call(e, &pj);
    check_late(e, job->deadline_ns);
    job->count = pj.count;
    job->guesses = pj.guesses;
    if (e->runner && host_is_runner_errno(status)) {
        memset(job->solution, 0, (size_t)job->n * job->n);
        job->count = 0;
        return status;
    }
    if (check_answer(e, job, rules, status) < 0) {
        memset(job->solution, 0, (size_t)job->n * job->n);
        job->count = 0;
        return -EIO;
    }
    return status;
}

int host__explain_call(struct host_entry *e, struct sdk_explain *pj)
{
    const struct sdk_plugin *d = e->pub.desc;
    struct sdk_job lockjob = {.cancel = pj->cancel, .deadline_ns = pj->deadline_ns};
    int serial = !(d->caps & SDK_CAP_REENTRANT), rc;

    if (e->runner)
        return sdk_explain_should_stop(pj) ? 1 : e->runner->explain(e->runner_ctx, &e->pub, pj);
    if (serial && entry_lock(e, &lockjob) != 0)
        return 1; /* stopped while waiting */
    rc = d->explain(e->pub.state, &e->api, pj);
    if (serial)
        pthread_mutex_unlock(&e->lock);
    return rc;
}

int host_is_runner_errno(int rc)
{
    return rc == -ECHILD || rc == -ENOTRECOVERABLE || rc == -EAGAIN || rc == -ENOMEM;
}

/* ------------------------------------------------- runners and the worker */

void host_set_runner(const struct host_plugin *p, const struct host_runner *runner, void *ctx)
{
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;

    e->runner = runner;
    e->runner_ctx = ctx;
}

const uint8_t *host_plugin_sha256(const struct host_plugin *p)
{
    return ((const struct host_entry *)p)->sha256;
}

void host_deny_prompt(const struct host_plugin *p)
{
    ((struct host_entry *)(uintptr_t)p)->no_prompt = 1;
}

int host_plugin_may_prompt(const struct host_plugin *p)
{
    const struct host_entry *e = (const struct host_entry *)p;

    return (p->desc->caps & SDK_CAP_PROMPT) && !e->runner && !e->no_prompt;
}

int host_plugin_call_solve(const struct host_plugin *p, struct sdk_job *job)
{
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;

    return p->desc->solve(p->state, &e->api, job);
}

int host_plugin_call_explain(const struct host_plugin *p, struct sdk_explain *job)
{
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;

    if (!host_plugin_has_explain(p))
        return -ENOTSUP;
    return p->desc->explain(p->state, &e->api, job);
}
