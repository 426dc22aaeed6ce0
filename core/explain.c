/* explain.c -- explain a puzzle with a plugin: the unique solution first,
 * then the plugin's steps, each one checked.
 *
 * host_explain() is the order of the work: check the caller's job, find
 * the unique solution with a normal solver (through the gate, checked like
 * any solve), check the caller's progress and pencil marks against it,
 * hand the explaining
 * plugin copies of the inputs, and let verify.c replay what it wrote before
 * any of it reaches the caller.  host_explain_arrays() sizes the output
 * arrays so that they never run out.
 *
 * No state; thread-safe.  The copies live on the caller's stack (3 x 625
 * bytes, and 625 x 25 for pencil marks, at most).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "core/host_impl.h"
#include "core/rules.h"

/* Find the unique solution of job's givens with solver.  Returns 0, or
 * -EDOM (none), -ENOTUNIQ (more than one), -ECANCELED, -ETIMEDOUT, -EIO. */
static int explain_solution(const struct host_plugin *solver, const struct sdk_explain *job,
                            uint8_t *solution)
{
    struct sdk_job sj = {.size = sizeof(sj),
                         .n = job->n,
                         .cells = job->cells,
                         .limit = 2,
                         .cancel = job->cancel,
                         .deadline_ns = job->deadline_ns,
                         .solution = solution,
                         .rules = job->rules};
    int rc = host_solve(solver, &sj);

    if (rc < 0)
        return rc == -ENOTSUP || rc == -ECHILD || rc == -ENOTRECOVERABLE ? rc : -EIO;
    if (rc == SDK_CANCELLED || rc == SDK_TIMEDOUT)
        return rc == SDK_CANCELLED ? -ECANCELED : -ETIMEDOUT;
    if (sj.count == 0)
        return -EDOM;
    return sj.count > 1 ? -ENOTUNIQ : 0;
}

/* Check job's inputs (not the plugin's support).  Returns 0 or -EINVAL. */
static int explain_job_ok(const struct sdk_explain *job, const uint8_t *solution)
{
    char err[128];

    if (!job || !solution || job->size < sizeof(*job) || !job->cells || !sdk_box_side(job->n))
        return -EINVAL;
    if (!job->steps || !job->placements || !job->eliminations)
        return -EINVAL;
    if (rules_check_givens(job->rules, job->n, job->cells, err, sizeof(err)) != 0)
        return -EINVAL;
    return 0;
}

/* Does the progress grid keep every given and agree with the solution? */
static int progress_ok(const struct sdk_explain *job, const uint8_t *solution)
{
    for (uint32_t i = 0; job->progress && i < job->n * job->n; i++) {
        if (job->cells[i] && job->progress[i] != job->cells[i])
            return 0;
        if (job->progress[i] && job->progress[i] != solution[i])
            return 0;
    }
    return 1;
}

/* Do the pencil marks keep the solution's value of every open cell of the
 * start position?  (Marks of a filled cell say nothing.) */
static int marks_ok(const struct sdk_explain *job, const uint8_t *solution)
{
    const uint8_t *start = job->progress ? job->progress : job->cells;
    const uint32_t n = job->n;

    for (uint32_t i = 0; job->candidates && i < n * n; i++)
        if (!start[i] && !job->candidates[i * n + solution[i] - 1])
            return 0;
    return 1;
}

/* The inputs the explaining plugin gets: copies, so whatever it writes into
 * them, the answer is checked against the caller's. */
struct plugin_inputs {
    uint8_t givens[SDK_MAX_CELLS];                 /* job->cells */
    uint8_t progress[SDK_MAX_CELLS];               /* job->progress, when there is one */
    uint8_t solution[SDK_MAX_CELLS];               /* the unique solution */
    uint8_t candidates[SDK_MAX_CELLS * SDK_MAX_N]; /* job->candidates, when there are some */
};

/* Make pj the job the plugin sees: job, with its inputs copied into in.
 * As for solve, only the output arrays are shared, and everything in them
 * is checked by verify.c. */
static void plugin_job(const struct sdk_explain *job, const uint8_t *solution,
                       struct plugin_inputs *in, struct sdk_explain *pj)
{
    memcpy(in->givens, job->cells, (size_t)job->n * job->n);
    if (job->progress)
        memcpy(in->progress, job->progress, (size_t)job->n * job->n);
    *pj = *job;
    pj->cells = in->givens;
    pj->progress = job->progress ? in->progress : NULL;
    memcpy(in->solution, solution, (size_t)job->n * job->n);
    pj->solution = in->solution; /* minor 3: lets the plugin skip sources that cannot break */
    if (job->candidates)
        memcpy(in->candidates, job->candidates, (size_t)job->n * job->n * job->n);
    pj->candidates = job->candidates ? in->candidates : NULL; /* minor 4 */
    pj->grid = NULL;
    pj->size = sizeof(*pj);
    pj->ep = pj->ed = 0.0; /* a plugin before minor 4 leaves them alone */
}

int host_explain(const struct host_plugin *p, const struct host_plugin *solver,
                 struct sdk_explain *job, uint8_t *solution)
{
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;
    struct plugin_inputs in;
    struct sdk_explain pj;
    int rc = explain_job_ok(job, solution);

    if (rc != 0 || !p || !solver)
        return -EINVAL;
    if (!host_plugin_has_explain(p) || !(sdk_size_bit(job->n) & p->desc->explain_sizes))
        return -ENOTSUP;
    rc = explain_solution(solver, job, solution);
    if (rc != 0)
        return rc;
    if (!progress_ok(job, solution))
        return -EBADMSG;
    if (!marks_ok(job, solution))
        return -ENODATA;
    plugin_job(job, solution, &in, &pj);
    rc = host__explain_call(e, &pj);
    if (rc == 1)
        return job->cancel && atomic_load(job->cancel) ? -ECANCELED : -ETIMEDOUT;
    if (e->runner && host_is_runner_errno(rc))
        return rc == -ENOTRECOVERABLE || rc == -ECHILD ? rc : -EIO; /* the runner logged it */
    if (rc < 0) {
        host__logf(e->host, SDK_LOG_ERR, "%s: explain failed on a %ux%u puzzle: %d", p->desc->name,
                   job->n, job->n, rc);
        return -EIO;
    }
    if (rc > 0 || host__explain_verify(e, job, &pj, solution) != 0)
        return -EIO;
    return 0;
}

void *host_explain_arrays(struct sdk_explain *job, unsigned n, int with_text)
{
    size_t cells = (size_t)n * n, steps = cells * n;
    size_t step_b = steps * sizeof(struct sdk_step),
           place_b = cells * sizeof(struct sdk_cell_value);
    size_t elim_b = steps * sizeof(struct sdk_cell_value);
    size_t pat_b = with_text ? steps * HOST_CELLS_PER_STEP * sizeof(uint16_t) : 0;
    size_t text_b = with_text ? steps * HOST_TEXT_PER_STEP : 0;
    uint8_t *block = malloc(step_b + place_b + elim_b + pat_b + text_b);
    uint8_t *b = block;

    if (!block)
        return NULL;
    job->steps = (struct sdk_step *)(void *)b;
    job->placements = (struct sdk_cell_value *)(void *)(b += step_b);
    job->eliminations = (struct sdk_cell_value *)(void *)(b += place_b);
    job->cells_out = pat_b ? (uint16_t *)(void *)(b += elim_b) : NULL;
    job->text = text_b ? (char *)(b + pat_b) : NULL;
    job->steps_cap = (uint32_t)steps;
    job->placements_cap = (uint32_t)cells;
    job->eliminations_cap = (uint32_t)steps;
    job->cells_out_cap = (uint32_t)(pat_b / sizeof(uint16_t));
    job->text_cap = (uint32_t)text_b;
    return block;
}
