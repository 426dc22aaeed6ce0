/* gen_variant.c -- puzzles under variant rules: the rules built, a full
 * grid under them, the puzzle, and its independent confirmation.
 *
 * The classic grid's tricks (random diagonal boxes, then permutations of
 * lines and bands) do not keep a diagonal, a jigsaw region or a cage, so a
 * variant's grid is the counting plugin's first solution (limit 1) of a
 * few random givens that break no rule, its digits relabelled where every
 * rule allows (all but non-consecutive and fixed cages).  A drawn jigsaw
 * layout comes first (a new one every few failed grids: some layouts have
 * no grid under the other rules); drawn killer cages come after, over the
 * grid (gen_layout.c).
 *
 * The puzzle is the classic removal pass under the rules (gen_dig.c), or, for
 * drawn cages without givens, the cages alone: while the plugin finds a
 * second solution a cage that holds a cell where the two differ is split (any
 * cage, when the second is the grid itself), then each cage of one cell joins
 * a touching cage while it stays unique (a cage of one cell is a given in
 * disguise) and, with a band, rated within its top.  Then rules_count(),
 * which shares no code with any plugin, must find exactly the grid, and
 * rules_check_solution() must pass it: a plugin that lied about uniqueness is
 * caught here as -EIO.  No state; the built rules live in the grid's work and
 * are freed by gen__grid_close().
 *
 * Every count here has a budget of guesses (gen_impl.h): a fill that
 * spends it is a failed start, a cage join that spends it is not made,
 * and drawn cages whose proof spends it are split as if a second solution
 * had been found (any cage).  Budgets count work, never time, so the
 * puzzle stays a function of the seed and the counting plugin.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/gen_impl.h"

#define GEN_VAR_TRIES       32  /* random starts tried for a variant's grid */
#define GEN_VAR_TRIES_CUT   512 /* ... when one was cut by its budget, not refuted */
#define GEN_LAYOUT_TRIES    4   /* starts on one drawn layout before the next */
#define GEN_SPLITS_PER_CELL 2   /* cage splits per cell before giving up */
/* Bands topping out below this steer the cage joins (merge_stays); a stuck
 * explanation rates 10.0, so no join can take a puzzle past a higher top. */
#define GEN_STEER_BELOW 10.0

/* The cages of cage[] (1-based ids, n*n cells) with sums from grid into
 * desc's arrays (cages and cells of n*n entries each). */
static void cages_desc(unsigned n, const uint16_t *cage, const uint8_t *grid,
                       struct rules_desc_cage *cages, uint64_t *cells, struct rules_desc *d)
{
    uint32_t len = 0, off = 0;

    for (unsigned cell = 0; cell < n * n; cell++)
        len = cage[cell] > len ? cage[cell] : len;
    for (uint32_t k = 0; k < len; k++) {
        cages[k] = (struct rules_desc_cage){.sum = 0, .off = off, .len = 0};
        for (unsigned cell = 0; cell < n * n; cell++) {
            if (cage[cell] != k + 1)
                continue;
            cells[off++] = cell;
            cages[k].len++;
            cages[k].sum += grid[cell];
        }
    }
    d->cages = cages;
    d->cages_len = len;
    d->cage_cells = cells;
    d->cage_cells_len = off;
}

int gen__rules_build(const struct gen_spec *spec, const struct gen_puzzle *out, int with_cages,
                     struct grid_work *g)
{
    struct rules_desc d = {0};
    struct rules_desc_cage *cages = NULL;
    uint64_t *cells = NULL;
    unsigned n = spec->n;
    char err[160];
    int rc;

    if (spec->rules)
        d = *spec->rules;
    d.n = n;
    if (spec->draw & SDK_RULE_REGIONS) {
        d.regions = out->regions;
        d.regions_len = (size_t)n * n;
    }
    if ((spec->draw & SDK_RULE_CAGES) && with_cages) {
        cages = malloc((size_t)n * n * sizeof(*cages));
        cells = malloc((size_t)n * n * sizeof(*cells));
        if (!cages || !cells) {
            rc = -ENOMEM;
            goto fail;
        }
        cages_desc(n, out->cage, out->solution, cages, cells, &d);
    }
    gen__grid_close(g);
    rc = rules_new(&d, &g->built, err, sizeof(err));
    g->rules = rules_sdk(g->built);
fail:
    free(cages);
    free(cells);
    return rc;
}

/* Digits relabelled by a random permutation: every rule but
 * non-consecutive and cages holds for any labels. */
static void relabel(uint64_t *rng, unsigned n, uint8_t *grid)
{
    unsigned digits[SDK_MAX_N];

    gen__permutation(rng, digits, n);
    for (unsigned cell = 0; cell < n * n; cell++)
        grid[cell] = (uint8_t)(digits[grid[cell] - 1] + 1);
}

/* A few random givens into start that break no rule of r. */
static void random_givens(uint64_t *rng, unsigned n, const struct sdk_rules *r, uint8_t *start)
{
    memset(start, 0, (size_t)n * n);
    for (unsigned k = 0; k < n / 2 + 1; k++) {
        unsigned cell = gen__rng_below(rng, n * n), d = 1 + gen__rng_below(rng, n);

        if (start[cell])
            continue;
        start[cell] = (uint8_t)d;
        if (rules_check_givens(r, n, start, NULL, 0) < 0)
            start[cell] = 0;
    }
}

/* One try at a full grid under g's rules into out->solution.  Returns 1
 * (made), 0 (these givens have no solution), -E2BIG (none was found within
 * GEN_FILL_GUESSES) or another negative errno. */
static int grid_try(const struct gen_spec *spec, struct grid_work *g, struct gen_puzzle *out)
{
    uint8_t start[SDK_MAX_CELLS];
    const struct sdk_rules *r = g->rules;
    int rc;

    random_givens(&g->rng, spec->n, r, start);
    rc = gen__count_solutions(spec, r, start, 1, GEN_FILL_GUESSES, out->solution, &out->solves);
    if (rc < 0)
        return rc; /* -E2BIG: a heavy tail; other givens are likely quick */
    if (rc == 1 && !(r && (r->kinds & (SDK_RULE_NON_CONSECUTIVE | SDK_RULE_CAGES))))
        relabel(&g->rng, spec->n, out->solution);
    return rc == 1;
}

/* Copy the rules in force into out: kinds, layout, cage numbers. */
static void record_rules(const struct gen_spec *spec, const struct grid_work *g,
                         struct gen_puzzle *out)
{
    const struct sdk_rules *r = g->rules;
    char layout[SDK_MAX_CELLS + 1];

    out->kinds = r ? r->kinds : 0;
    if (r && (r->kinds & SDK_RULE_REGIONS) && !(spec->draw & SDK_RULE_REGIONS) &&
        rules_regions_string(r, layout, sizeof(layout)) == 0)
        memcpy(out->regions, layout, (size_t)spec->n * spec->n);
    if (!r || (spec->draw & SDK_RULE_CAGES))
        return;
    for (uint32_t k = 0; k < r->cages_len; k++) {
        for (uint32_t i = 0; i < r->cages[k].len; i++)
            out->cage[r->cage_cells[r->cages[k].off + i]] = (uint16_t)(k + 1);
    }
}

int gen__variant_grid(const struct gen_spec *spec, uint64_t seed, struct grid_work *g,
                      struct gen_puzzle *out)
{
    int rc = 0, is_cut = 0;

    g->rng = seed;
    for (unsigned t = 0; t < (is_cut ? GEN_VAR_TRIES_CUT : GEN_VAR_TRIES) && rc == 0; t++) {
        if (t == 0 || ((spec->draw & SDK_RULE_REGIONS) && t % GEN_LAYOUT_TRIES == 0)) {
            if (spec->draw & SDK_RULE_REGIONS)
                gen__layout_draw(&g->rng, spec->n, out->regions);
            rc = gen__rules_build(spec, out, 0, g);
            if (rc < 0)
                return rc;
        }
        rc = grid_try(spec, g, out);
        if (rc == -E2BIG) { /* not refuted: a grid may well be there */
            is_cut = 1;
            rc = 0;
        }
        if (rc < 0)
            return rc;
    }
    if (rc == 0)
        return -EDOM;
    if (spec->draw & SDK_RULE_CAGES) {
        gen__cages_draw(&g->rng, spec->n, out->solution, out->cage);
        rc = gen__rules_build(spec, out, 1, g);
        if (rc < 0)
            return rc;
    }
    record_rules(spec, g, out);
    return 0;
}

/* A cell to split the cage of: one where alt differs from the grid in a
 * cage of two cells or more, else any cell of such a cage.  Returns 1 with
 * *cell, or 0 when every cage is a single cell. */
static int split_cell(uint64_t *rng, unsigned n, const struct gen_puzzle *out, const uint8_t *alt,
                      unsigned *cell)
{
    unsigned size[SDK_MAX_CELLS + 1] = {0}, cand[SDK_MAX_CELLS] = {0}, len = 0;

    for (unsigned x = 0; x < n * n; x++)
        size[out->cage[x]]++;
    for (unsigned pass = 0; pass < 2 && len == 0; pass++) {
        for (unsigned x = 0; x < n * n; x++) {
            if (out->cage[x] && size[out->cage[x]] > 1 && (pass || alt[x] != out->solution[x]))
                cand[len++] = x;
        }
    }
    if (len == 0)
        return 0;
    *cell = cand[gen__rng_below(rng, len)];
    return 1;
}

/* Whether a merge just made (out unique) may stay: always without a band;
 * with one, while the rating stays within the band's top.  A merge takes
 * a cell's value out of sight, so merging unbounded drives a killer past
 * easy and medium (a cage of one cell is what keeps it easy).  Returns 1,
 * 0 or a negative errno. */
static int merge_stays(const struct gen_spec *spec, const struct grid_work *g,
                       const struct gen_puzzle *out, int is_steered)
{
    double rating;
    int rc;

    if (!is_steered)
        return 1;
    rc = gen__rate(spec, g, out, &rating);
    return rc < 0 ? rc : rating <= spec->max_rating;
}

/* Unique drawn cages with as few cages of one cell as can be: a cage of
 * one cell and a touching cage that could be one with it
 * (gen__cages_can_merge) become one while the plugin still finds a single
 * solution (and, with a band, while merge_stays), in passes over the cells
 * in a random order until a pass merges none (each merge leaves one cage
 * fewer, so that comes).  Returns 0 or a negative errno, with g's rules
 * those of out's cages. */
static int cages_merge(const struct gen_spec *spec, struct grid_work *g, uint64_t *rng,
                       struct gen_puzzle *out)
{
    unsigned n = spec->n, order[SDK_MAX_CELLS], merged = 1;
    uint16_t keep[SDK_MAX_CELLS];
    uint8_t alt[SDK_MAX_CELLS];
    int is_steered = 0;

    if (spec->rate && spec->max_rating < GEN_STEER_BELOW) { /* and starts inside the top */
        double rating;
        int rc = gen__rate(spec, g, out, &rating);
        if (rc < 0)
            return rc;
        is_steered = rating <= spec->max_rating;
    }
    gen__permutation(rng, order, n * n);
    while (merged) {
        merged = 0;
        for (unsigned i = 0; i < 2 * n * n; i++) {
            unsigned x = order[i / 2], y = i % 2 ? x + n : x + 1;
            int rc;

            if ((i % 2 ? x / n + 1 >= n : x % n + 1 >= n) ||
                !gen__cages_can_merge(n, out->solution, out->cage, x, y))
                continue;
            memcpy(keep, out->cage, (size_t)n * n * sizeof(keep[0]));
            gen__cages_merge(n, out->cage, x, y);
            rc = gen__rules_build(spec, out, 1, g);
            if (rc >= 0)
                rc = gen__count_solutions(spec, g->rules, out->puzzle, 2,
                                          gen__proof_guesses(g->rules), alt, &out->solves);
            if (rc == 1)
                rc = merge_stays(spec, g, out, is_steered);
            if (rc < 0 && rc != -E2BIG)
                return rc;
            if (rc == 1)
                merged++;
            else
                memcpy(out->cage, keep, (size_t)n * n * sizeof(keep[0]));
        }
    }
    return gen__rules_build(spec, out, 1, g);
}

/* Drawn cages, no givens: split cages until the plugin finds one solution.
 * Returns 0 or a negative errno. */
static int cages_refine(const struct gen_spec *spec, struct grid_work *g, unsigned j,
                        struct gen_puzzle *out)
{
    uint64_t rng = g->rng ^ gen__mix64((j + 1) * GEN_GOLDEN);
    unsigned n = spec->n, cell;
    uint8_t alt[SDK_MAX_CELLS];

    memset(out->puzzle, 0, (size_t)n * n);
    out->givens = 0;
    for (unsigned t = 0; t < GEN_SPLITS_PER_CELL * n * n; t++) {
        int rc = gen__count_solutions(spec, g->rules, out->puzzle, 2, gen__proof_guesses(g->rules),
                                      alt, &out->solves);

        if (rc == -E2BIG) /* unproved: split any cage (alt is the grid) */
            memcpy(alt, out->solution, (size_t)n * n);
        else if (rc < 0)
            return rc;
        if (rc == 1)
            return cages_merge(spec, g, &rng, out);
        if (rc == 0 || !split_cell(&rng, n, out, alt, &cell))
            return -EIO; /* the grid solves it; single cells leave no choice */
        gen__cage_split(&rng, n, out->cage, cell);
        rc = gen__rules_build(spec, out, 1, g);
        if (rc < 0)
            return rc;
    }
    return -EIO;
}

/* The referee: rules_count() must find exactly out->solution, which must
 * keep every rule.  Returns 0, -EIO (it disagrees with the plugin),
 * -ETIMEDOUT (its node budget or the spec's deadline ran out), -ECANCELED
 * or -ENOMEM. */
static int confirm(const struct gen_spec *spec, const struct grid_work *g,
                   const struct gen_puzzle *out)
{
    uint8_t first[SDK_MAX_CELLS];
    uint64_t count = 0;
    unsigned cells = spec->n * spec->n;
    struct rules_bounds b = {
        .max_nodes = spec->max_referee_nodes,
        .cancel = spec->cancel,
        .deadline_ns = spec->deadline_ns,
    };
    int rc = rules_count_bounded(g->rules, spec->n, out->puzzle, 2, &b, first, &count);

    if (rc == -ENOMEM || rc == -ECANCELED || rc == -ETIMEDOUT)
        return rc;
    if (rc == -E2BIG)
        return -ETIMEDOUT;
    if (rc < 0 || count != 1 || memcmp(first, out->solution, cells) != 0 ||
        rules_check_solution(g->rules, spec->n, out->puzzle, out->solution, NULL, 0) < 0)
        return -EIO;
    return 0;
}

int gen__variant_dig(const struct gen_spec *spec, struct grid_work *g, unsigned j,
                     struct gen_puzzle *out)
{
    int rc;

    if ((spec->draw & SDK_RULE_CAGES) && !spec->is_caged_givens)
        rc = cages_refine(spec, g, j, out);
    else
        rc = gen__dig(spec, g, j, out);
    if (rc < 0)
        return rc;
    out->rating = 0;
    return confirm(spec, g, out);
}
