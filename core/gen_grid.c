/* gen_grid.c -- a random full grid, the solution every puzzle is dug from.
 *
 * The boxes on the main diagonal share no row, column or box, so random
 * permutations there never conflict; the counting plugin completes the
 * grid (limit 1), then a digit relabelling, row, column, band and stack
 * permutations and a transpose, all of which keep a grid valid, shuffle it
 * (they also hide the plugin's preference for small digits early in its
 * search).  Every draw comes from the seed's stream (gen_rng.c), so the
 * grid is a function of the seed and the counting plugin.
 */
#include <errno.h>
#include <string.h>

#include "core/gen_impl.h"

#define GEN_GRID_TRIES   64     /* diagonal fills tried for one full grid */
#define GEN_GRID_GUESSES 100000 /* a classic completion's budget of guesses (0.3 s at 16x16) */

/* Fill the diagonal boxes with random permutations of 1..n, the rest blank. */
static void seed_diagonal(uint64_t *rng, unsigned n, uint8_t *cells)
{
    unsigned b = sdk_box_side(n), vals[SDK_MAX_N];

    memset(cells, 0, (size_t)n * n);
    for (unsigned box = 0; box < b; box++) {
        gen__permutation(rng, vals, n);
        for (unsigned i = 0; i < n; i++) {
            unsigned r = box * b + i / b, c = box * b + i % b;

            cells[r * n + c] = (uint8_t)(vals[i] + 1);
        }
    }
}

/* A random order of lines (rows or columns) that keeps a grid valid: bands
 * shuffled, and the lines inside each band shuffled. */
static void line_order(uint64_t *rng, unsigned n, unsigned *order)
{
    unsigned b = sdk_box_side(n), bands[SDK_MAX_N], inner[SDK_MAX_N];

    gen__permutation(rng, bands, b);
    for (unsigned band = 0; band < b; band++) {
        gen__permutation(rng, inner, b);
        for (unsigned i = 0; i < b; i++)
            order[band * b + i] = bands[band] * b + inner[i];
    }
}

/* Relabel the digits, permute rows and columns, maybe transpose: each keeps
 * a valid grid valid. */
static void shuffle_grid(uint64_t *rng, unsigned n, uint8_t *grid)
{
    /* line_order() fills rows and cols whole; GCC cannot see that through
     * gen__permutation() in another file, so they start zeroed. */
    unsigned rows[SDK_MAX_N] = {0}, cols[SDK_MAX_N] = {0}, digits[SDK_MAX_N], is_transposed;
    uint8_t copy[SDK_MAX_CELLS];

    gen__permutation(rng, digits, n);
    line_order(rng, n, rows);
    line_order(rng, n, cols);
    is_transposed = gen__rng_below(rng, 2);
    memcpy(copy, grid, (size_t)n * n);
    for (unsigned r = 0; r < n; r++) {
        for (unsigned c = 0; c < n; c++) {
            unsigned src = is_transposed ? cols[c] * n + rows[r] : rows[r] * n + cols[c];

            grid[r * n + c] = (uint8_t)(digits[copy[src] - 1] + 1);
        }
    }
}

/* A random full grid into grid, completed by the counting plugin.  Random
 * diagonal boxes always complete for 9x9 and larger in practice, but a 4x4
 * one can be stuck (the two boxes leave a row no value), and a rare 16x16
 * one sends bitmask's search down a tail of minutes (seed
 * 5307919188781541395, no-minimal): then, or when the completion spends
 * GEN_GRID_GUESSES guesses, draw again from the same stream, so the result
 * stays a function of the seed.  The budget is far above a normal
 * completion (200 random 16x16 diagonals: 0.3 ms median, 3 ms the
 * slowest), which keeps every other seed's grid. */
static int full_grid(const struct gen_spec *spec, uint64_t *rng, uint8_t *grid, unsigned *solves)
{
    uint8_t start[SDK_MAX_CELLS];

    for (unsigned tries = 0; tries < GEN_GRID_TRIES; tries++) {
        int rc;

        seed_diagonal(rng, spec->n, start);
        rc = gen__count_solutions(spec, NULL, start, 1, GEN_GRID_GUESSES, grid, solves);
        if (rc == -E2BIG)
            continue;
        if (rc < 0)
            return rc;
        if (rc == 1) {
            shuffle_grid(rng, spec->n, grid);
            return 0;
        }
    }
    return -EIO; /* a plugin that never completes a grid is wrong */
}

int gen__grid_make(const struct gen_spec *spec, uint64_t seed, int is_kept, struct grid_work *g,
                   struct gen_puzzle *out)
{
    gen__grid_close(g);
    g->rng = seed;
    g->is_kept = is_kept;
    g->is_seeded = 0;
    g->seeded = g->learned = g->next = 0;
    out->n = spec->n;
    if (gen__is_variant(spec))
        return gen__variant_grid(spec, seed, g, out);
    return full_grid(spec, &g->rng, out->solution, &out->solves);
}

void gen__grid_close(struct grid_work *g)
{
    rules_free(g->built);
    g->built = NULL;
    g->rules = NULL;
}
