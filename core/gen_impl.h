/* gen_impl.h -- what the rooms of the generator share (generate.h's inside).
 *
 * Not part of any public face: only the generator's own files include it.
 * One puzzle is made by these rooms, in this order:
 *
 *   gen_rng.c      the one random stream: splitmix64, draws, shuffles;
 *   gen_count.c    the generator's only door to a solver: count solutions
 *                  through host_solve(), stopping on cancel and deadline;
 *   gen_grid.c     a random full grid, completed by the counting plugin;
 *   gen_orbit.c    the cells' orbits under the asked symmetry, shuffled;
 *   gen_witness.c  second solutions kept as witnesses, read off the grid
 *                  or found by the plugin: non-uniqueness without a call;
 *   gen_dig.c      the removal pass: blank orbits while the puzzle stays
 *                  unique, as group tests;
 *   gen_layout.c   variants: a jigsaw layout, killer cages, drawn from
 *                  the stream;
 *   gen_variant.c  variants: the rules built, the grid under them, cages
 *                  split until unique, the independent confirmation;
 *   gen_band.c     the band search: candidates from a chain of seeds and
 *                  the orders of each grid, until one rates in the band;
 *   generate.c     the public face: spec, symmetry names, gen_one/batch.
 *
 * Internal non-static functions carry the gen__ prefix.  Nothing here has
 * global state: every structure below lives on the caller's stack.
 */
#ifndef SUDOKU_GEN_IMPL_H
#define SUDOKU_GEN_IMPL_H

#include <stdint.h>

#include <sudoku/plugin.h>

#include "core/generate.h"

#define GEN_ORBIT_MAX  4                     /* cells in an orbit at most (rotate90) */
#define GEN_GOLDEN     0x9e3779b97f4a7c15ull /* splitmix64's gamma, 2^64 / phi */
#define GEN_CERT_WORDS ((SDK_MAX_CELLS + 63) / 64)
#define GEN_MAX_CERTS  32  /* witnesses from second solutions remembered in one pass */
#define GEN_MAX_SETS   192 /* witnesses read off the grid before the pass */
#define GEN_CERT_SLOTS (GEN_MAX_SETS + 2 * GEN_MAX_CERTS) /* seeded, carried, new */
/* Budgets of guesses for a variant's counts (the plugin's heavy tail): a
 * grid's fill that spends it starts again from other givens; a removal, a
 * cage join or a proof of drawn cages that spends it counts as not unique.
 * A guess under cages costs the plugin about ten times one without, and a
 * 16x16 guess several times a 9x9 one (docs/performance.md has the
 * figures behind the numbers). */
#define GEN_FILL_GUESSES    2000u  /* a fill of a variant's grid */
#define GEN_PROOF_GUESSES   2000u  /* a uniqueness proof without cages, 16x16 and up */
#define GEN_CAGE_GUESSES    150u   /* a uniqueness proof with cages, 16x16 and up */
#define GEN_PROOF_GUESSES_9 20000u /* a uniqueness proof without cages, 9x9 and 4x4 */
#define GEN_CAGE_GUESSES_9  1500u  /* a uniqueness proof with cages, 9x9 and 4x4 */

/* The orbits of one puzzle, in the order the pass visits them. */
struct orbits {
    unsigned len;                                 /* orbits */
    uint16_t cells[SDK_MAX_CELLS][GEN_ORBIT_MAX]; /* cells of orbit i */
    uint8_t cells_len[SDK_MAX_CELLS];             /* 1..GEN_ORBIT_MAX */
};

/* A second solution's footprint: the cells where it differs from the grid.
 * Any puzzle that leaves all of them blank has both solutions.  While no
 * cell of it lies in a kept orbit, blanking every orbit from the pass's
 * position up to last (all given then) on top of the puzzle leaves its
 * cells blank: last is the first orbit it proves must stay. */
struct cert {
    uint64_t w[GEN_CERT_WORDS]; /* bit c: cell c differs */
    unsigned last;              /* the last orbit in visiting order holding a cell */
};

/* One full grid's witnesses, kept across its removal orders: the sets read
 * off the grid first (seeded of them), then a ring of GEN_MAX_CERTS from
 * second solutions.  The grid itself is out->solution. */
struct grid_work {
    uint64_t rng;        /* the stream just after the grid was made */
    struct rules *built; /* a variant's rules (owned, freed by gen__grid_close), or NULL */
    const struct sdk_rules *rules; /* rules_sdk(built): what the plugin is handed */
    int is_kept;                   /* more orders follow: keep the witnesses */
    int is_seeded;                 /* the sets read off the grid are in w */
    unsigned seeded;               /* of them */
    unsigned learned;              /* second solutions' sets after them, at most GEN_MAX_CERTS */
    unsigned next;                 /* ring slot the next one overwrites once full */
    uint64_t w[GEN_MAX_SETS + GEN_MAX_CERTS][GEN_CERT_WORDS];
};

/* The state of one removal pass. */
struct pass {
    const struct gen_spec *spec;       /* what to make */
    const uint8_t *grid;               /* the full solution */
    uint8_t *puzzle;                   /* the givens, blanked as the pass goes */
    const struct orbits *orb;          /* the visiting order */
    uint16_t pos[SDK_MAX_CELLS];       /* cell -> index of its orbit in orb */
    struct cert certs[GEN_CERT_SLOTS]; /* witnesses still useful */
    unsigned certs_len;                /* certs in use */
    unsigned certs_next;               /* slot the next one overwrites once full */
    unsigned *solves;                  /* plugin calls, counted */
    struct grid_work *gw;              /* the grid's witnesses, which learn this pass's */
    const struct sdk_rules *rules;     /* the puzzle's variant rules, NULL: classic */
};

/* gen_rng.c: splitmix64's output function, a bijection on 64 bits. */
uint64_t gen__mix64(uint64_t z);

/* gen_rng.c: uniform in [0, bound), one draw of the stream at *state. */
unsigned gen__rng_below(uint64_t *state, unsigned bound);

/* gen_rng.c: Fisher-Yates shuffle of a[0..len-1]. */
void gen__shuffle(uint64_t *state, unsigned *a, unsigned len);

/* gen_rng.c: a[i] = i, shuffled. */
void gen__permutation(uint64_t *state, unsigned *a, unsigned len);

/* gen_count.c: the budget of guesses of a uniqueness proof under rules
 * (0: classic, no budget), by side and cages. */
uint64_t gen__proof_guesses(const struct sdk_rules *rules);

/* gen_count.c: ask the counting plugin for up to limit solutions of cells
 * in max_guesses guesses (0: no budget), counting the call in *solves.
 * Returns the count (>= 0) with the first solution in solution, -E2BIG
 * (the budget ran out before the answer) or another negative errno. */
int gen__count_solutions(const struct gen_spec *spec, const struct sdk_rules *rules,
                         const uint8_t *cells, uint64_t limit, uint64_t max_guesses,
                         uint8_t *solution, unsigned *solves);

/* gen_grid.c: make the full grid of seed into out->solution and start g,
 * its witnesses still to read (and kept for later orders when is_kept).
 * Returns 0 or a negative errno. */
int gen__grid_make(const struct gen_spec *spec, uint64_t seed, int is_kept, struct grid_work *g,
                   struct gen_puzzle *out);

/* gen_orbit.c: every orbit of sym on side n (listed from its smallest
 * cell), in an order drawn from *rng, into o. */
void gen__orbit_list(uint64_t *rng, unsigned n, enum gen_symmetry sym, struct orbits *o);

/* gen_witness.c: hand pass p the grid's witnesses: read them off the grid
 * the first time, and keep them in g; afterwards copy them, with the ones
 * learned. */
void gen__grid_certs(struct pass *p, struct grid_work *g);

/* gen_witness.c: remember where alt, a solution the plugin found (and the
 * host checked), differs from the grid.  Returns the stored witness, or
 * NULL when alt is the grid (no information). */
const struct cert *gen__cert_add(struct pass *p, const uint8_t *alt);

/* gen_witness.c: orbit i stays for good: drop the witnesses with a cell in
 * it, which can never apply again. */
void gen__certs_drop(struct pass *p, unsigned i);

/* gen_witness.c: the first orbit j >= the pass's position such that
 * blanking up to j is known to leave a second solution, or UINT_MAX. */
unsigned gen__known_fail(const struct pass *p);

/* gen_dig.c: make the puzzle of removal order j of the grid in
 * out->solution (made by gen__grid_make into g) into *out, unrated.
 * Returns 0 or a negative errno. */
int gen__dig(const struct gen_spec *spec, struct grid_work *g, unsigned j, struct gen_puzzle *out);

/* gen_grid.c: free g's variant rules (g->built); g may be reused after. */
void gen__grid_close(struct grid_work *g);

/* Is spec a variant (rules or drawn rules)?  1 or 0. */
static inline int gen__is_variant(const struct gen_spec *spec)
{
    return spec->rules != NULL || spec->draw != 0;
}

/* gen_layout.c: a jigsaw layout of side n drawn from *rng into regions (n*n
 * symbols '1'-'9','A'-'P', no NUL): the boxes, then random swaps of two
 * neighbouring cells of different regions that keep both connected; never
 * the plain boxes. */
void gen__layout_draw(uint64_t *rng, unsigned n, char *regions);

/* gen_layout.c: killer cages over the full grid of side n drawn from *rng:
 * every cell covered, cages of 1..GEN_CAGE_MAX orthogonally connected
 * cells holding distinct digits; cage[cell] = 1 + its cage, cages numbered
 * by their first cell in row-major order. */
void gen__cages_draw(uint64_t *rng, unsigned n, const uint8_t *grid, uint16_t *cage);

/* gen_layout.c: split cage k (1-based, of two cells or more) of cage[] in
 * two or more connected pieces, drawn from *rng, and renumber the cages by
 * their first cell.  cell is a cell of the cage the first piece grows
 * from. */
void gen__cage_split(uint64_t *rng, unsigned n, uint16_t *cage, unsigned cell);

/* gen_layout.c: could the cages of cells x and y (orthogonal neighbours)
 * of cage[] be one cage over grid: two cages, one of them a single cell,
 * GEN_CAGE_MAX cells at most together, no digit twice?  Returns 1 or 0. */
int gen__cages_can_merge(unsigned n, const uint8_t *grid, const uint16_t *cage, unsigned x,
                         unsigned y);

/* gen_layout.c: make the cages of cells x and y of cage[] one, and
 * renumber the cages by their first cell. */
void gen__cages_merge(unsigned n, uint16_t *cage, unsigned x, unsigned y);

/* gen_variant.c: build the rules of out (spec's fixed rules, out->regions
 * when jigsaw, the cages of out->cage with sums from out->solution when
 * with_cages) into g->built and g->rules.  Returns 0, -ENOMEM, or -EINVAL
 * (spec's fixed rules are malformed). */
int gen__rules_build(const struct gen_spec *spec, const struct gen_puzzle *out, int with_cages,
                     struct grid_work *g);

/* gen_variant.c: the full grid of a variant from seed (a layout drawn
 * first when asked, cages drawn over it), its rules in g.  Returns 0,
 * -EDOM (no grid found under the rules) or a negative errno. */
int gen__variant_grid(const struct gen_spec *spec, uint64_t seed, struct grid_work *g,
                      struct gen_puzzle *out);

/* gen_band.c: out (on g's rules) rated by spec->rate, which must be set,
 * into *rating.  Returns 0 or the callback's negative errno. */
int gen__rate(const struct gen_spec *spec, const struct grid_work *g, const struct gen_puzzle *out,
              double *rating);

/* gen_variant.c: the puzzle of a variant's grid: dug under the rules, or
 * with drawn cages and no givens the cages split until unique; then
 * confirmed by rules_count().  Returns 0 or a negative errno. */
int gen__variant_dig(const struct gen_spec *spec, struct grid_work *g, unsigned j,
                     struct gen_puzzle *out);

/* gen_band.c: candidates from seed's grid and orders (orders of them a
 * grid, 1 for a new grid each time) until one is in the spec's band, or
 * the first without one.  Returns 0 or a negative errno (gen_one()'s). */
int gen__chain(const struct gen_spec *spec, uint64_t seed, unsigned orders, struct gen_puzzle *out);

#endif /* SUDOKU_GEN_IMPL_H */
