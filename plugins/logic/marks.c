/* marks.c -- start from the player's pencil marks (sdk_explain.candidates).
 *
 * A player who asks for a hint has usually worked already: the marks they
 * removed are steps they took.  The ladder then starts from the position
 * their marks describe, so that a step the marks already show changes
 * nothing and is never offered.  The marks only ever take candidates away
 * (intersected with what the givens and progress allow); the host has
 * checked that they keep every value of the unique solution, so the
 * position keeps its solution.
 */
#include <stddef.h>

#include "lg.h"

/* The job's pencil marks (minor 4), or NULL: none, or a host built before
 * them. */
static const uint8_t *job_marks(const struct sdk_explain *job)
{
    if (job->size < offsetof(struct sdk_explain, candidates) + sizeof(job->candidates))
        return NULL;
    return job->candidates;
}

bool lg_grid_marks(struct lg_grid *g, const struct lg_geom *geo, const struct sdk_explain *job)
{
    const uint8_t *marks = job_marks(job);
    const uint32_t n = geo->n;

    for (uint32_t i = 0; marks && i < geo->ncells; i++) {
        uint32_t keep = 0;
        for (uint32_t d = 0; d < n; d++)
            keep |= marks[i * n + d] ? 1u << d : 0u;
        g->cand[i] &= keep; /* a solved cell has cand 0 already */
    }
    return marks != NULL;
}
