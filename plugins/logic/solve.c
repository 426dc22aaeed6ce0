/* solve.c -- the logic plugin's solve(): singles, then fewest-candidates search.
 *
 * solve() does not walk the technique ladder (that is explain's job and
 * far slower than needed to find solutions): each node applies naked and
 * hidden singles (lg_grid_propagate), then branches on an unsolved cell with
 * the fewest candidates.  Each level of the search has its own copy of the
 * position in one array indexed by depth: on the stack for n <= 9 (82
 * positions, about 110 KB), allocated once per call for 16x16 and freed
 * before returning.  The cancel flag and the deadline are polled every
 * LG_POLL_NODES nodes.  job->guesses counts branches taken.
 */
#include <stdlib.h>
#include <string.h>

#include "lg.h"

#define LG_POLL_NODES 1024u /* poll sdk_job_should_stop() this often */
#define LG_STACK_N    9     /* sides up to this search on the C stack */

/* One search. */
struct lg_search {
    const struct lg_geom *geo; /* the shape */
    struct sdk_job *job;       /* the request: limit, solution, count */
    struct lg_grid *level;     /* ncells + 1 positions, one per depth */
    uint32_t nodes;            /* nodes since the last poll */
    int stop;                  /* SDK_CANCELLED or SDK_TIMEDOUT once stopped */
};

/* The unsolved cell with the fewest candidates (g has one). */
static uint32_t fewest(const struct lg_grid *g, const struct lg_geom *geo)
{
    uint32_t best = 0, best_len = 99;

    for (uint32_t i = 0; i < geo->ncells; i++) {
        if (g->val[i])
            continue;
        uint32_t len = lg_popcount(g->cand[i]);
        if (len < best_len) {
            best = i;
            best_len = len;
            if (len == 2)
                break;
        }
    }
    return best;
}

/* Search from s->level[depth]; stops at the limit or when told to. */
static void search(struct lg_search *s, uint32_t depth)
{
    struct lg_grid *g = &s->level[depth];

    if (++s->nodes >= LG_POLL_NODES) {
        s->nodes = 0;
        s->stop = sdk_job_should_stop(s->job);
    }
    if (s->stop || lg_grid_propagate(g, s->geo) != 0)
        return;
    if (g->unsolved == 0) {
        if (s->job->count++ == 0)
            memcpy(s->job->solution, g->val, s->geo->ncells);
        return;
    }
    uint32_t cell = fewest(g, s->geo);
    for (uint32_t m = g->cand[cell]; m && !s->stop; m &= m - 1) {
        if (s->job->count >= s->job->limit)
            return;
        memcpy(&s->level[depth + 1], g, sizeof(*g));
        lg_grid_place(&s->level[depth + 1], s->geo, cell, lg_lowest(m) + 1);
        s->job->guesses++;
        search(s, depth + 1);
    }
}

/* Run the search over the positions in level (ncells + 1 of them). */
static int run(struct lg_search *s, struct lg_grid *level)
{
    s->level = level;
    if (lg_grid_load(&level[0], s->geo, s->job->cells) != 0)
        return SDK_UNSOLVABLE;
    search(s, 0);
    if (s->stop && s->job->count < s->job->limit)
        return s->stop;
    return s->job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

/* Small sides: the positions live on the stack. */
static int run_small(struct lg_search *s)
{
    struct lg_grid level[LG_STACK_N * LG_STACK_N + 1];

    return run(s, level);
}

int lg_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    struct lg_search s = {.job = job};
    (void)host;

    if (!job || !job->cells || !job->solution || job->limit == 0)
        return SDK_FAILED;
    s.geo = lg_state_geom(state, job->n);
    if (!s.geo)
        return SDK_FAILED;
    job->count = 0;
    job->guesses = 0;
    if (job->n <= LG_STACK_N)
        return run_small(&s);
    struct lg_grid *level = malloc((s.geo->ncells + 1) * sizeof(*level));
    if (!level)
        return SDK_FAILED;
    int rc = run(&s, level);
    free(level);
    return rc;
}
