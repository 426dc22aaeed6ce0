/* generate.h -- make unique, minimal, symmetric puzzles, reproducible by seed.
 *
 * A puzzle starts as a random full grid: the boxes on the main diagonal get
 * random permutations of 1..n, the counting plugin completes the grid (limit
 * 1), and validity-keeping permutations (digits, rows inside bands, bands,
 * columns inside stacks, stacks, a transpose) shuffle it.  Then the symmetric
 * orbits of cells are visited once in random order and an orbit is blanked
 * when the counting plugin (limit 2) still finds exactly one solution.
 * Uniqueness is only ever decided by a plugin through host_solve(), so a
 * faster plugin makes generation faster and the generator holds no solver.
 *
 * Reproducible: every random choice comes from one 64-bit seed through
 * splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), and a plugin's answers are deterministic.  The
 * same generator version, spec, counting plugin (name and version) and seed
 * give the same bytes on any thread, at any load.  Puzzle k of a batch
 * starting at seed s is made from gen_batch_seed(s, k) alone, so a batch can
 * be spread over any number of workers and gives the same array.
 *
 * Variants (spec->rules, spec->draw): the grid is completed by the counting
 * plugin under the rules from a few random givens; a jigsaw layout may be
 * drawn first (gen_layout.c) and killer cages over the grid; the removal
 * pass runs under the rules, or with drawn cages and no givens the cages
 * are split until the puzzle is unique; every variant is then confirmed by
 * rules_count(), which shares no code with any plugin (gen_variant.c).
 *
 * Thread safety: nothing here has global state; every call keeps its work on
 * the caller's stack (about 60 KiB) and writes only the caller's buffers.
 * Any number of threads may generate at once (the host serialises plugins
 * that are not reentrant).
 */
#ifndef SUDOKU_GENERATE_H
#define SUDOKU_GENERATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

#include "core/host.h"
#include "core/rules.h"

#define GEN_DEFAULT_ATTEMPTS 10000u /* candidates rated per puzzle for a band, by default */
#define GEN_DEFAULT_ORDERS   16u    /* removal orders tried on each grid for a band */
#define GEN_MAX_ORDERS       16u    /* orders a grid at most: the seed's low 4 bits */

/* Which symmetric orbits the givens form. */
enum gen_symmetry {
    GEN_SYM_NONE = 0,  /* no symmetry */
    GEN_SYM_ROTATE180, /* (r, c) ~ (n-1-r, n-1-c) */
    GEN_SYM_ROTATE90,  /* (r, c) ~ (c, n-1-r), and its powers */
    GEN_SYM_MIRROR,    /* left-right: (r, c) ~ (r, n-1-c) */
    GEN_SYM_FLIP,      /* top-bottom: (r, c) ~ (n-1-r, c) */
    GEN_SYM_DIAGONAL,  /* main diagonal: (r, c) ~ (c, r) */
    GEN_SYM_COUNT      /* number of symmetries */
};

/* Cells in a drawn killer cage at most. */
#define GEN_CAGE_MAX 5

/* A candidate handed to the rating callback.  Valid only during the call. */
struct gen_rate_job {
    unsigned n;                    /* side */
    const struct sdk_rules *rules; /* its variant rules, NULL: classic */
    const uint8_t *puzzle;         /* n*n givens, 0 = blank; unique */
    const uint8_t *solution;       /* its solution */
    const atomic_int *cancel;      /* the spec's cancel flag, may be NULL */
    uint64_t deadline_ns;          /* the spec's deadline, 0 = none */
};

/* Rate a candidate for the band filter (later: the `logic` plugin through a
 * small adapter, ctx = the plugin).  Store the rating in *rating and return
 * 0, or return a negative errno, which gen_one() passes on (-ETIMEDOUT and
 * -ECANCELED when the job's deadline or cancel flag stopped it, -EIO when it
 * failed).  Called on the generating thread; must be thread-safe when the
 * same spec is used by several threads at once. */
typedef int gen_rate_fn(void *ctx, const struct gen_rate_job *job, double *rating);

/* What to make.  Fill it with gen_spec_init(), then change what you need;
 * it is only read, so one spec may serve several threads at once. */
struct gen_spec {
    unsigned n;                        /* side: 4, 9, 16 or 25 (default 9) */
    enum gen_symmetry symmetry;        /* orbit shape of the givens (default none) */
    int is_minimal;                    /* 1 (default): no orbit of givens can go; 0: stop
                                          blanking at the first orbit that must stay */
    const struct host_plugin *counter; /* counting plugin (SDK_CAP_COUNT, takes n) */
    gen_rate_fn *rate;                 /* NULL (default): no difficulty band */
    void *rate_ctx;                    /* passed to rate */
    double min_rating;                 /* band, inclusive, when rate is set */
    double max_rating;                 /* band, inclusive, when rate is set */
    unsigned max_attempts;             /* candidates rated per puzzle for the band */
    unsigned orders;                   /* with rate: removal orders tried on each full grid
                                          before the next grid, 1..GEN_MAX_ORDERS (default
                                          GEN_DEFAULT_ORDERS; 0 or 1: a new grid each time) */
    const atomic_int *cancel;          /* non-zero stops the work; may be NULL */
    uint64_t deadline_ns;              /* CLOCK_MONOTONIC ns to stop at; 0 = none */
    /* Variants (NULL rules and draw 0: classic, every seed as before). */
    const struct rules_desc *rules; /* fixed rules of every puzzle (n is spec's), or NULL */
    uint32_t draw;                  /* SDK_RULE_REGIONS, SDK_RULE_CAGES: drawn from the seed */
    int is_caged_givens;            /* with drawn cages: dig givens as well (0: none,
                                       the cages are split until the puzzle is unique) */
    uint64_t max_referee_nodes;     /* rules_count's budget confirming a variant (0: none) */
};

/* One generated puzzle (about 3.2 KiB; the caller owns it). */
struct gen_puzzle {
    unsigned n;                      /* side */
    uint8_t puzzle[SDK_MAX_CELLS];   /* n*n givens, row-major, 0 = blank */
    uint8_t solution[SDK_MAX_CELLS]; /* its unique solution */
    unsigned givens;                 /* non-blank cells in puzzle */
    uint64_t seed;                   /* gen_one(spec, seed) makes this puzzle again */
    double rating;                   /* from spec->rate, 0 when there is none */
    unsigned attempts;               /* candidates rated to land in the band (1 without one) */
    unsigned above, below;           /* of them, rated above / below the band; set on the
                                        band search's failures too (-ETIMEDOUT, -ERANGE) */
    unsigned solves;                 /* host_solve() calls it took (work done) */
    /* Variants only (all zero for classic puzzles). */
    uint32_t kinds;               /* SDK_RULE_* of its rules */
    char regions[SDK_MAX_CELLS];  /* jigsaw: its layout ('1'-'9','A'-'P'), given or drawn */
    uint16_t cage[SDK_MAX_CELLS]; /* killer: 1 + the cage of each cell (0: none); a cage's
                                     sum is its cells' total in solution */
};

/* Defaults: 9x9, no symmetry, minimal, no band, no deadline, counter as
 * given (may be NULL and set later). */
void gen_spec_init(struct gen_spec *spec, const struct host_plugin *counter);

/* Name of a symmetry ("none", "rotate180", "rotate90", "mirror", "flip",
 * "diagonal"), a static string; "?" for a value out of range. */
const char *gen_symmetry_name(enum gen_symmetry s);

/* Parse a symmetry name (one of the above, exact).  Returns 0 with *out set,
 * or -EINVAL for NULL or an unknown name. */
int gen_symmetry_parse(const char *name, enum gen_symmetry *out);

/* The seed of puzzle k of a batch that starts at seed.  gen_batch_seed(seed,
 * 0) == seed, so a batch of one is gen_one(spec, seed). */
uint64_t gen_batch_seed(uint64_t seed, uint64_t k);

/* Make one puzzle from seed into *out.  With a band, grids are made from
 * seed, then from seeds derived from it, until one rates inside the band;
 * out->seed is the seed of that grid, so gen_one(spec, out->seed) makes the
 * same puzzle at the first attempt.  With a band and spec->orders > 1 each
 * grid gets that many removal orders: the grid comes from the seed with its
 * low 4 bits cleared, the order from those bits (starting at seed's, then
 * counting up), and out->seed is the grid's seed with the order in them, so
 * it too makes the same puzzle at the first attempt.  Without a rate
 * callback, or with orders <= 1, a seed means what it always did.  On
 * failure *out is unspecified but for above and below (the candidates the
 * band refused so far, which say why no puzzle came).
 * Returns 0, or:
 *   -EINVAL     bad spec (size, symmetry, band, a counter that cannot count
 *               or does not take n) or out is NULL;
 *   -ECANCELED  *spec->cancel became non-zero;
 *   -ETIMEDOUT  spec->deadline_ns passed;
 *   -ERANGE     no grid in max_attempts rated inside the band;
 *   -EDOM       no grid satisfies the spec's rules (none found from the
 *               seed: a rule that makes no sense at the size);
 *   -ENOMEM     out of memory building a variant's rules;
 *   -EIO        the counting plugin failed or lied (the host logged it),
 *               or the independent count disagreed with it;
 *   any negative errno the rating callback returned. */
int gen_one(const struct gen_spec *spec, uint64_t seed, struct gen_puzzle *out);

/* Make puzzles first .. first+len-1 of the batch that starts at seed into
 * out[0 .. len-1]: out[i] is gen_one(spec, gen_batch_seed(seed, first + i)),
 * so workers given disjoint ranges fill the same array as one thread would.
 * Stops at the first error; *done (may be NULL) says how many of out, from
 * out[0], are finished and valid.  Returns 0 when all len are done, else
 * gen_one()'s error for out[*done] (-ETIMEDOUT, -ECANCELED: the finished
 * ones are still good). */
int gen_batch(const struct gen_spec *spec, uint64_t seed, uint64_t first, size_t len,
              struct gen_puzzle *out, size_t *done);

#endif /* SUDOKU_GENERATE_H */
