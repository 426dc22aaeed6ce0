/* gen_band.c -- the band search: candidates until one rates inside the
 * spec's band of difficulty.
 *
 * The band filter rates each finished candidate through the spec's
 * callback and moves to the next seed of a chain (next = mix(seed +
 * golden)) until one fits.  With spec->orders > 1 a grid serves that many
 * candidates first, each a removal pass in another order (gen_dig.c):
 * grid seeds have their low 4 bits clear and a candidate's seed is its
 * grid's seed with the order there, so a candidate's seed alone makes it
 * again.  Without a rate callback the chain stops at its first candidate
 * the spec can take, and a seed means what it always did.  No state.
 */
#include <errno.h>

#include "core/gen_impl.h"

int gen__rate(const struct gen_spec *spec, const struct grid_work *g, const struct gen_puzzle *out,
              double *rating)
{
    struct gen_rate_job job = {
        .n = spec->n,
        .rules = g->rules,
        .puzzle = out->puzzle,
        .solution = out->solution,
        .cancel = spec->cancel,
        .deadline_ns = spec->deadline_ns,
    };

    return spec->rate(spec->rate_ctx, &job, rating);
}

/* Rate out with the spec's callback.  Returns 1 (in the band), 0 or a
 * negative errno. */
static int in_band(const struct gen_spec *spec, const struct grid_work *g, struct gen_puzzle *out)
{
    int rc = gen__rate(spec, g, out, &out->rating);

    if (rc < 0)
        return rc;
    return out->rating >= spec->min_rating && out->rating <= spec->max_rating;
}

/* A candidate the spec cannot take whatever its rating: drawn killer cages
 * asked with givens (givens: true) whose digging took every given away
 * (the cages alone were unique).  The chain moves on as for a candidate
 * out of the band. */
static int is_refused(const struct gen_spec *spec, const struct gen_puzzle *out)
{
    return (spec->draw & SDK_RULE_CAGES) && spec->is_caged_givens && out->givens == 0;
}

/* Candidates attempt, attempt+1, ... from the grid of seed (low bits mask
 * clear) and orders j0, j0+1, ... of it (mod mask + 1), orders of them a
 * grid, until one is in the band.  Returns 0 or a negative errno. */
static int chain(const struct gen_spec *spec, uint64_t seed, unsigned orders, struct grid_work *gw,
                 struct gen_puzzle *out)
{
    uint64_t mask = orders > 1 ? GEN_MAX_ORDERS - 1 : 0, grid_seed = seed & ~mask;
    unsigned j0 = (unsigned)(seed & mask), above = 0, below = 0;
    struct grid_work *const g = gw;
    int rc = 0;

    for (unsigned attempt = 1; rc == 0; attempt++) {
        unsigned t = (attempt - 1) % orders, j = (j0 + t) & (unsigned)mask;
        rc = t == 0 ? gen__grid_make(spec, grid_seed, orders > 1, g, out) : 0;
        if (rc == 0)
            rc = gen__is_variant(spec) ? gen__variant_dig(spec, g, j, out)
                                       : gen__dig(spec, g, j, out);
        if (rc < 0)
            break;
        out->seed = grid_seed | j;
        out->attempts = attempt;
        if (!is_refused(spec, out)) {
            rc = spec->rate ? in_band(spec, g, out) : 1;
            if (rc != 0)
                break;
            above += out->rating > spec->max_rating;
            below += out->rating < spec->min_rating;
        }
        if (attempt == spec->max_attempts)
            rc = -ERANGE;
        if (t + 1 == orders)
            grid_seed = gen__mix64(grid_seed + GEN_GOLDEN) & ~mask;
    }
    out->above = above;
    out->below = below;
    return rc < 0 ? rc : 0;
}

/* The chain with its grid's work, whose variant rules it frees. */
int gen__chain(const struct gen_spec *spec, uint64_t seed, unsigned orders, struct gen_puzzle *out)
{
    struct grid_work g;
    int rc;

    g.built = NULL;
    g.rules = NULL;
    rc = chain(spec, seed, orders, &g, out);
    gen__grid_close(&g);
    return rc;
}
