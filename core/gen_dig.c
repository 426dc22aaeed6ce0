/* gen_dig.c -- dig a puzzle out of a full grid: blank orbits while the
 * puzzle keeps exactly one solution.
 *
 * Removal is defined as a sequential pass: for each orbit in the visiting
 * order (gen_orbit.c), blank it if the puzzle with it blank still has
 * exactly one solution.  Blanking more cells never removes a solution, so
 * an orbit that had to stay once has to stay at the end: one pass leaves a
 * minimal puzzle.  Without minimality the pass stops at the first orbit
 * that must stay.
 *
 * The pass is run as group tests, which give the same puzzle with far
 * fewer plugin calls (about 46 for a 9x9 puzzle instead of 81).  Blank a
 * run of the next k orbits at once: unique means every prefix of the run
 * is unique too (fewer blanks, no more solutions), so the sequential pass
 * would blank them all.  Not unique: search for the longest unique prefix,
 * which the pass would blank, and the orbit after it, which it would keep.
 * Witnesses (gen_witness.c) make that search short, and decide many tests
 * with no call at all.
 *
 * Run lengths: the first is a fifth of the orbits, a run that all goes
 * doubles the next, and after a kept orbit the next run is half the blanks
 * just found (a failed test costs the plugin about twice a unique one, and
 * more the more it leaves blank, so a short run that goes beats a long one
 * that fails); once a kept orbit follows fewer than two blanks (k = 0) the
 * puzzle is nearly minimal and the rest goes one orbit a test.
 *
 * Each removal order j of a grid draws its visiting order from the grid's
 * stream xor mix(j * golden), so order 0 is the plain puzzle of the grid's
 * seed.  The pass lives on the caller's stack (about 30 KiB).
 *
 * Under variant rules each test has a budget of guesses
 * (gen__proof_guesses()): a test that spends it counts as not unique, so a
 * single orbit whose removal the plugin cannot prove within it stays.  The
 * pass is then minimal up to that budget: a 16x16 variant may keep a few
 * givens that a search without end would have taken out.
 */
#include <errno.h>
#include <string.h>

#include "core/gen_impl.h"

#define GEN_FIRST_SHARE 5 /* the first run tries 1/5 of the orbits */

static void pass_init(struct pass *p, const struct gen_spec *spec, struct gen_puzzle *out,
                      const struct orbits *orb)
{
    p->spec = spec;
    p->grid = out->solution;
    p->puzzle = out->puzzle;
    p->orb = orb;
    p->certs_len = 0;
    p->certs_next = 0;
    p->solves = &out->solves;
    p->gw = NULL;
    p->rules = NULL;
    for (unsigned i = 0; i < orb->len; i++) {
        for (unsigned j = 0; j < orb->cells_len[i]; j++)
            p->pos[orb->cells[i][j]] = (uint16_t)i;
    }
}

/* Blank (is_blank) or restore orbits [from, to) of the pass's puzzle. */
static void set_orbits(const struct pass *p, unsigned from, unsigned to, int is_blank)
{
    for (unsigned i = from; i < to; i++) {
        for (unsigned j = 0; j < p->orb->cells_len[i]; j++) {
            unsigned cell = p->orb->cells[i][j];

            p->puzzle[cell] = is_blank ? 0 : p->grid[cell];
        }
    }
}

/* Is the puzzle with orbits [from, to) blank on top unique?  Asks the
 * certificates first, then the plugin; keeps the orbits blank when unique.
 * Returns 1 (kept blank), 0 (restored: the first orbit in [from, to) that
 * is known to be needed is *culprit, or to - 1 when the plugin's second
 * solution was the grid) or a negative errno. */
static int try_blank(struct pass *p, unsigned from, unsigned to, unsigned *culprit)
{
    uint8_t alt[SDK_MAX_CELLS];
    unsigned known = gen__known_fail(p);
    const struct cert *d;
    int rc;

    if (known < to) {
        *culprit = known;
        return 0;
    }
    set_orbits(p, from, to, 1);
    rc = gen__count_solutions(p->spec, p->rules, p->puzzle, 2, gen__proof_guesses(p->rules), alt,
                              p->solves);
    if (rc == 1)
        return 1;
    set_orbits(p, from, to, 0);
    if (rc == 0)
        return -EIO; /* the grid itself solves it: the plugin is wrong */
    if (rc == -E2BIG) {
        *culprit = to - 1; /* unproved: kept, and no witness names a culprit */
        return 0;
    }
    if (rc < 0)
        return rc;
    /* The other witnesses left [from, to) alone (known >= to), so only the
     * new one can name a culprit inside it. */
    d = gen__cert_add(p, alt);
    *culprit = d && d->last < to ? d->last : to - 1;
    return 0;
}

/* Orbits [i, i+k) together are not unique and orbit i + hi - 1 is the
 * first one known to be needed: blank the longest prefix that is unique,
 * which the sequential pass would blank.  A culprit named by a second
 * solution is usually right, so the next try is the prefix just short of
 * it; without a name the search halves.  Returns the prefix length (orbit
 * i + length must stay) or a negative errno. */
static int longest_prefix(struct pass *p, unsigned i, unsigned hi, int is_named)
{
    unsigned lo = 0; /* prefix lo is blank and unique, prefix hi is not */

    while (hi - lo > 1) {
        unsigned mid = is_named ? hi - 1 : lo + (hi - lo) / 2, culprit;
        int rc = try_blank(p, i + lo, i + mid, &culprit);

        if (rc < 0)
            return rc;
        if (rc) {
            lo = mid;
            continue;
        }
        is_named = culprit + 1 < i + mid;
        hi = culprit + 1 - i;
    }
    return (int)lo;
}

/* The removal pass over every orbit (see the top of the file).  Returns 0 or
 * a negative errno. */
static int remove_givens(struct pass *p)
{
    unsigned len = p->orb->len, i = 0, k = len / GEN_FIRST_SHARE;

    while (i < len) {
        unsigned run = k < 1 ? 1 : k < len - i ? k : len - i, culprit;
        int rc = try_blank(p, i, i + run, &culprit);

        if (rc < 0)
            return rc;
        if (rc) {
            i += run;
            k *= 2;
            continue;
        }
        rc = longest_prefix(p, i, culprit + 1 - i, culprit + 1 < i + run);
        if (rc < 0)
            return rc;
        i += (unsigned)rc + 1; /* orbit i + rc stays */
        gen__certs_drop(p, i - 1);
        if (!p->spec->is_minimal)
            return 0;
        k = (unsigned)rc / 2; /* the next run of blanks is likely shorter */
    }
    return 0;
}

static unsigned count_givens(unsigned n, const uint8_t *cells)
{
    unsigned givens = 0;

    for (unsigned i = 0; i < n * n; i++)
        givens += cells[i] != 0;
    return givens;
}

int gen__dig(const struct gen_spec *spec, struct grid_work *g, unsigned j, struct gen_puzzle *out)
{
    struct orbits orb;
    struct pass p;
    uint64_t rng = g->rng ^ gen__mix64(j * GEN_GOLDEN);
    int rc;

    out->rating = 0;
    memcpy(out->puzzle, out->solution, (size_t)spec->n * spec->n);
    gen__orbit_list(&rng, spec->n, spec->symmetry, &orb);
    pass_init(&p, spec, out, &orb);
    p.rules = g->rules;
    gen__grid_certs(&p, g);
    rc = remove_givens(&p);
    if (rc < 0)
        return rc;
    out->givens = count_givens(spec->n, out->puzzle);
    return 0;
}
