/* gen_count.c -- the generator's only door to a solver.
 *
 * Uniqueness, and the completion of a full grid, are only ever decided by
 * the counting plugin through host_solve(), whose answer the host checks:
 * the generator holds no solver, and a faster plugin makes it faster.
 * Each call is counted (gen_puzzle.solves), and the spec's cancel flag and
 * deadline are looked at before it, since a fast solve may never reach a
 * plugin's own poll.  A call may carry a budget of guesses (sdk_job's
 * max_guesses): a variant's search has a heavy tail at 16x16, and a count
 * that stops on work done, unlike one that stops on time, stops at the
 * same place on every machine, so the puzzle stays a function of the seed.
 * No state.
 */
#include <errno.h>

#include "core/gen_impl.h"

/* -ECANCELED or -ETIMEDOUT when the work must stop, else 0.  Checked before
 * each plugin call: fast solves may never reach a plugin's own poll. */
static int should_stop(const struct gen_spec *spec)
{
    struct sdk_job probe = {.cancel = spec->cancel, .deadline_ns = spec->deadline_ns};

    switch (sdk_job_should_stop(&probe)) {
    case SDK_CANCELLED:
        return -ECANCELED;
    case SDK_TIMEDOUT:
        return -ETIMEDOUT;
    default:
        return 0;
    }
}

uint64_t gen__proof_guesses(const struct sdk_rules *rules)
{
    if (!rules)
        return 0;
    if (rules->n <= 9)
        return rules->cages_len ? GEN_CAGE_GUESSES_9 : GEN_PROOF_GUESSES_9;
    return rules->cages_len ? GEN_CAGE_GUESSES : GEN_PROOF_GUESSES;
}

/* Ask the counting plugin for up to limit solutions of cells under rules
 * (NULL: classic), in max_guesses guesses (0: no budget).  Returns the
 * count (>= 0) with the first solution in solution, -E2BIG (the budget ran
 * out first) or another negative errno. */
int gen__count_solutions(const struct gen_spec *spec, const struct sdk_rules *rules,
                         const uint8_t *cells, uint64_t limit, uint64_t max_guesses,
                         uint8_t *solution, unsigned *solves)
{
    struct sdk_job job = {
        .size = sizeof(job),
        .n = spec->n,
        .cells = cells,
        .limit = limit,
        .cancel = spec->cancel,
        .deadline_ns = spec->deadline_ns,
        .solution = solution,
        .rules = rules,
        .max_guesses = max_guesses,
    };
    int rc = should_stop(spec);

    if (rc < 0)
        return rc;
    (*solves)++;
    rc = host_solve(spec->counter, &job);
    if (rc == SDK_CANCELLED)
        return -ECANCELED;
    if (rc == SDK_TIMEDOUT)
        return -ETIMEDOUT;
    if (rc == SDK_EXHAUSTED)
        return -E2BIG;
    if (rc < 0 || rc == SDK_FAILED)
        return -EIO;
    return (int)job.count;
}
