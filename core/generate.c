/* generate.c -- unique, minimal, symmetric puzzles from one seed.
 *
 * Three steps, all driven by one splitmix64 stream started at the seed:
 *
 *   1. full grid: the boxes on the main diagonal share no row, column or box,
 *      so random permutations there never conflict; the counting plugin
 *      completes the grid (limit 1), then a digit relabelling, row, column,
 *      band and stack permutations and a transpose, all of which keep a grid
 *      valid, shuffle it (they also hide the plugin's preference for small
 *      digits early in its search);
 *   2. orbits: the cells fall into the orbits of the asked symmetry (one cell
 *      each for none, pairs for rotate180, up to four for rotate90), listed
 *      in random order;
 *   3. removal, defined as a sequential pass: for each orbit in that order,
 *      blank it if the puzzle with it blank still has exactly one solution.
 *      Blanking more cells never removes a solution, so an orbit that had to
 *      stay once has to stay at the end: one pass leaves a minimal puzzle.
 *      Without minimality the pass stops at the first orbit that must stay.
 *
 * The pass is run as group tests, which give the same puzzle with far fewer
 * plugin calls (about 46 for a 9x9 puzzle instead of 81).  Blank a run of
 * the next k orbits at once: unique means every prefix of the run is unique
 * too (fewer blanks, no more solutions), so the sequential pass would blank
 * them all.  Not unique: search for the longest unique prefix, which the
 * pass would blank, and the orbit after it, which it would keep.
 *
 * Witnesses make that search short.  A failed test's answer is a second
 * solution (checked by the host) whenever it is not the grid; the cells
 * where it differs from the grid must not all be blank in a unique puzzle.
 * The last orbit in visiting order holding one of them is where any prefix
 * starts to fail, so the next try is the prefix just short of it, and it is
 * usually right.  Witnesses are kept for the rest of the pass, so a later
 * test they decide needs no call.
 *
 * The grid itself gives many witnesses before any test, each a second
 * solution made by swapping values (see seed_certs): two lines of a band
 * swap their values on a cycle of columns, two digits swap on a set of
 * cells closed under row, column and box.  Their rectangles and small
 * cycles are what most failed tests used to find; with them a 9x9 puzzle
 * takes about 31 plugin calls.  Only non-uniqueness is decided without the
 * plugin, and only by a second grid that is checked by construction: the
 * generator holds no solver, and the puzzle is the sequential pass's.
 *
 * Run lengths: the first is a fifth of the orbits, a run that all goes
 * doubles the next, and after a kept orbit the next run is half the blanks
 * just found (a failed test costs the plugin about twice a unique one, and
 * more the more it leaves blank, so a short run that goes beats a long one
 * that fails); once a kept orbit follows fewer than two blanks (k = 0) the
 * puzzle is nearly minimal and the rest goes one orbit a test.
 *
 * The band filter rates each finished candidate through a callback and moves
 * to the next seed of a chain (next = mix(seed + golden)) until one fits.
 * With spec->orders > 1 a grid serves that many candidates first, each a
 * pass in another order (the order's stream is the grid's stream xor
 * mix(j * golden) for order j, so order 0 is the plain puzzle of the grid's
 * seed): grid seeds have their low 4 bits clear and a candidate's seed is
 * its grid's seed with j there.  The grid's witnesses, the ones read off it
 * and every second solution a pass found, serve all its orders (a witness
 * is a property of the grid, not of the order; only its last orbit is
 * worked out again).  They change how many calls a pass takes, never the
 * puzzle, so a candidate's seed alone makes it again.
 */
#include "core/generate.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#define GEN_ORBIT_MAX   4                     /* cells in an orbit at most (rotate90) */
#define GEN_GOLDEN      0x9e3779b97f4a7c15ull /* splitmix64's gamma, 2^64 / phi */
#define GEN_GRID_TRIES  64                    /* diagonal fills tried for one full grid */
#define GEN_CERT_WORDS  ((SDK_MAX_CELLS + 63) / 64)
#define GEN_MAX_CERTS   32  /* witnesses from second solutions remembered in one pass */
#define GEN_MAX_SETS    192 /* witnesses read off the grid before the pass */
#define GEN_CERT_SLOTS  (GEN_MAX_SETS + 2 * GEN_MAX_CERTS) /* seeded, carried, new */
#define GEN_FIRST_SHARE 5 /* the first run tries 1/5 of the orbits */

/* The orbits of one puzzle, in the order the pass visits them. */
struct orbits {
    unsigned len;                                 /* orbits */
    uint16_t cells[SDK_MAX_CELLS][GEN_ORBIT_MAX]; /* cells of orbit i */
    uint8_t cells_len[SDK_MAX_CELLS];             /* 1..GEN_ORBIT_MAX */
};

static const char *const sym_names[GEN_SYM_COUNT] = {
    "none", "rotate180", "rotate90", "mirror", "flip", "diagonal",
};

void gen_spec_init(struct gen_spec *spec, const struct host_plugin *counter)
{
    memset(spec, 0, sizeof(*spec));
    spec->n = 9;
    spec->symmetry = GEN_SYM_NONE;
    spec->is_minimal = 1;
    spec->counter = counter;
    spec->max_attempts = GEN_DEFAULT_ATTEMPTS;
    spec->orders = GEN_DEFAULT_ORDERS;
}

const char *gen_symmetry_name(enum gen_symmetry s)
{
    return (unsigned)s < GEN_SYM_COUNT ? sym_names[s] : "?";
}

int gen_symmetry_parse(const char *name, enum gen_symmetry *out)
{
    for (unsigned i = 0; name && out && i < GEN_SYM_COUNT; i++) {
        if (strcmp(name, sym_names[i]) == 0) {
            *out = (enum gen_symmetry)i;
            return 0;
        }
    }
    return -EINVAL;
}

/* ---------------------------------------------------------------- random */

/* splitmix64's output function: a bijection on 64 bits that mixes well. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* splitmix64: add the golden gamma, mix. */
static uint64_t rng_next(uint64_t *state)
{
    *state += GEN_GOLDEN;
    return mix64(*state);
}

/* Uniform in [0, bound) by multiply-shift (Lemire 2019) without the
 * rejection step: the bias for bound <= 625 is below 2^-54, far under
 * anything a puzzle could show, and the stream stays one draw a call. */
static unsigned rng_below(uint64_t *state, unsigned bound)
{
    return (unsigned)(((unsigned __int128)rng_next(state) * bound) >> 64);
}

/* Fisher-Yates shuffle of a[0..len-1]. */
static void shuffle(uint64_t *state, unsigned *a, unsigned len)
{
    for (unsigned i = len; i > 1; i--) {
        unsigned j = rng_below(state, i), t = a[i - 1];

        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* a[i] = i, shuffled. */
static void permutation(uint64_t *state, unsigned *a, unsigned len)
{
    for (unsigned i = 0; i < len; i++)
        a[i] = i;
    shuffle(state, a, len);
}

uint64_t gen_batch_seed(uint64_t seed, uint64_t k)
{
    return k == 0 ? seed : mix64(seed ^ mix64(k * GEN_GOLDEN));
}

/* ---------------------------------------------------------------- solving */

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

/* Ask the counting plugin for up to limit solutions of cells.  Returns the
 * count (>= 0) with the first solution in solution, or a negative errno. */
static int count_solutions(const struct gen_spec *spec, const uint8_t *cells, uint64_t limit,
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
    if (rc < 0 || rc == SDK_FAILED)
        return -EIO;
    return (int)job.count;
}

/* ---------------------------------------------------------------- full grid */

/* Fill the diagonal boxes with random permutations of 1..n, the rest blank. */
static void seed_diagonal(uint64_t *rng, unsigned n, uint8_t *cells)
{
    unsigned b = sdk_box_side(n), vals[SDK_MAX_N];

    memset(cells, 0, (size_t)n * n);
    for (unsigned box = 0; box < b; box++) {
        permutation(rng, vals, n);
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

    permutation(rng, bands, b);
    for (unsigned band = 0; band < b; band++) {
        permutation(rng, inner, b);
        for (unsigned i = 0; i < b; i++)
            order[band * b + i] = bands[band] * b + inner[i];
    }
}

/* Relabel the digits, permute rows and columns, maybe transpose: each keeps
 * a valid grid valid. */
static void shuffle_grid(uint64_t *rng, unsigned n, uint8_t *grid)
{
    unsigned rows[SDK_MAX_N], cols[SDK_MAX_N], digits[SDK_MAX_N], is_transposed;
    uint8_t copy[SDK_MAX_CELLS];

    permutation(rng, digits, n);
    line_order(rng, n, rows);
    line_order(rng, n, cols);
    is_transposed = rng_below(rng, 2);
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
 * one can be stuck (the two boxes leave a row no value): then draw again
 * from the same stream, so the result stays a function of the seed. */
static int full_grid(const struct gen_spec *spec, uint64_t *rng, uint8_t *grid, unsigned *solves)
{
    uint8_t start[SDK_MAX_CELLS];

    for (unsigned tries = 0; tries < GEN_GRID_TRIES; tries++) {
        int rc;

        seed_diagonal(rng, spec->n, start);
        rc = count_solutions(spec, start, 1, grid, solves);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            shuffle_grid(rng, spec->n, grid);
            return 0;
        }
    }
    return -EIO; /* a plugin that never completes a grid is wrong */
}

/* ---------------------------------------------------------------- orbits */

/* The cells of the orbit of cell under sym, each once, into out.  Returns
 * how many (1..GEN_ORBIT_MAX). */
static unsigned orbit_of(unsigned n, enum gen_symmetry sym, unsigned cell, unsigned *out)
{
    unsigned r = cell / n, c = cell % n, m = n - 1, len = 0, cand[GEN_ORBIT_MAX];
    unsigned cand_len = 1;

    cand[0] = cell;
    switch (sym) {
    case GEN_SYM_ROTATE180:
        cand[cand_len++] = (m - r) * n + (m - c);
        break;
    case GEN_SYM_ROTATE90:
        cand[cand_len++] = c * n + (m - r);
        cand[cand_len++] = (m - r) * n + (m - c);
        cand[cand_len++] = (m - c) * n + r;
        break;
    case GEN_SYM_MIRROR:
        cand[cand_len++] = r * n + (m - c);
        break;
    case GEN_SYM_FLIP:
        cand[cand_len++] = (m - r) * n + c;
        break;
    case GEN_SYM_DIAGONAL:
        cand[cand_len++] = c * n + r;
        break;
    default:
        break;
    }
    for (unsigned i = 0; i < cand_len; i++) {
        unsigned j = 0;

        while (j < len && out[j] != cand[i])
            j++;
        if (j == len)
            out[len++] = cand[i];
    }
    return len;
}

/* Every orbit (listed from its smallest cell), in random order. */
static void orbit_list(uint64_t *rng, unsigned n, enum gen_symmetry sym, struct orbits *o)
{
    unsigned reps[SDK_MAX_CELLS], orbit[GEN_ORBIT_MAX], len = 0;

    for (unsigned cell = 0; cell < n * n; cell++) {
        unsigned k = orbit_of(n, sym, cell, orbit), is_rep = 1;

        for (unsigned i = 0; i < k; i++)
            is_rep &= orbit[i] >= cell;
        if (is_rep)
            reps[len++] = cell;
    }
    shuffle(rng, reps, len);
    o->len = len;
    for (unsigned i = 0; i < len; i++) {
        o->cells_len[i] = (uint8_t)orbit_of(n, sym, reps[i], orbit);
        for (unsigned j = 0; j < o->cells_len[i]; j++)
            o->cells[i][j] = (uint16_t)orbit[j];
    }
}

/* ---------------------------------------------------------------- removal */

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
    uint64_t rng;     /* the stream just after the grid was made */
    int is_kept;      /* more orders follow: keep the witnesses */
    int is_seeded;    /* the sets read off the grid are in w */
    unsigned seeded;  /* of them */
    unsigned learned; /* second solutions' sets after them, at most GEN_MAX_CERTS */
    unsigned next;    /* ring slot the next one overwrites once full */
    uint64_t w[GEN_MAX_SETS + GEN_MAX_CERTS][GEN_CERT_WORDS];
};

/* The state of one removal pass. */
struct pass {
    const struct gen_spec *spec;
    const uint8_t *grid;               /* the full solution */
    uint8_t *puzzle;                   /* the givens, blanked as the pass goes */
    const struct orbits *orb;          /* the visiting order */
    uint16_t pos[SDK_MAX_CELLS];       /* cell -> index of its orbit in orb */
    struct cert certs[GEN_CERT_SLOTS]; /* witnesses still useful */
    unsigned certs_len;
    unsigned certs_next;  /* slot the next one overwrites once full */
    unsigned *solves;     /* plugin calls, counted */
    struct grid_work *gw; /* the grid's witnesses, which learn this pass's */
};

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

/* Store the witness with cells w (bit c: cell c), its last orbit worked
 * out here.  Returns it; once the store is full the oldest witness from a
 * second solution is overwritten. */
static const struct cert *cert_store(struct pass *p, const uint64_t *w)
{
    unsigned words = (p->spec->n * p->spec->n + 63) / 64, last = 0, slot;
    struct cert *d;

    for (unsigned k = 0; k < words; k++) {
        for (uint64_t bits = w[k]; bits; bits &= bits - 1) {
            unsigned at = p->pos[k * 64 + (unsigned)__builtin_ctzll(bits)];

            last = at > last ? at : last;
        }
    }
    if (p->certs_len < GEN_CERT_SLOTS) {
        slot = p->certs_len++;
    } else {
        slot = p->certs_next;
        p->certs_next = (p->certs_next + 1) % GEN_CERT_SLOTS;
    }
    d = &p->certs[slot];
    memset(d->w, 0, sizeof(d->w));
    memcpy(d->w, w, words * sizeof(*w));
    d->last = last;
    return d;
}

/* Keep w, a second solution's set, for the grid's later orders; once the
 * ring is full the oldest goes. */
static void grid_learn(struct grid_work *g, const uint64_t *w)
{
    unsigned slot;

    if (g->learned < GEN_MAX_CERTS) {
        slot = g->learned++;
    } else {
        slot = g->next;
        g->next = (g->next + 1) % GEN_MAX_CERTS;
    }
    memcpy(g->w[g->seeded + slot], w, sizeof(g->w[0])); /* w is GEN_CERT_WORDS long */
}

/* Remember where alt, a solution the plugin found (and the host checked),
 * differs from the grid.  Returns the stored witness, or NULL when alt is
 * the grid (no information). */
static const struct cert *cert_add(struct pass *p, const uint8_t *alt)
{
    uint64_t w[GEN_CERT_WORDS] = {0};
    unsigned cells = p->spec->n * p->spec->n, is_empty = 1;

    for (unsigned c = 0; c < cells; c++) {
        if (alt[c] != p->grid[c]) {
            w[c / 64] |= 1ull << (c % 64);
            is_empty = 0;
        }
    }
    if (is_empty)
        return NULL;
    if (p->gw)
        grid_learn(p->gw, w);
    return cert_store(p, w);
}

/* Store w while the seeded witnesses have room. */
static void cert_seed(struct pass *p, const uint64_t *w)
{
    if (p->certs_len < GEN_MAX_SETS)
        (void)cert_store(p, w);
}

/* Two lines of one band (rows; columns when is_cols) swap their values on
 * the columns of each cycle of the map "column of line a's value in line
 * b": rows keep their digits, columns and boxes their contents, so every
 * cycle is a witness the grid gives without a solver. */
static void seed_line_pairs(struct pass *p, int is_cols)
{
    unsigned n = p->spec->n, b = sdk_box_side(n);

    for (unsigned l1 = 0; l1 < n; l1++) {
        for (unsigned l2 = l1 + 1; l2 < (l1 / b + 1) * b; l2++) {
            unsigned where[SDK_MAX_N + 1], seen = 0;

            for (unsigned c = 0; c < n; c++)
                where[p->grid[is_cols ? c * n + l2 : l2 * n + c]] = c;
            for (unsigned c0 = 0; c0 < n; c0++) {
                uint64_t w[GEN_CERT_WORDS] = {0};

                if (seen >> c0 & 1)
                    continue;
                for (unsigned c = c0; !(seen >> c & 1);) {
                    unsigned a = is_cols ? c * n + l1 : l1 * n + c;
                    unsigned z = is_cols ? c * n + l2 : l2 * n + c;

                    seen |= 1u << c;
                    w[a / 64] |= 1ull << (a % 64);
                    w[z / 64] |= 1ull << (z % 64);
                    c = where[p->grid[a]];
                }
                cert_seed(p, w);
            }
        }
    }
}

/* Two digits a and b swap on every set of cells that holds, in each row,
 * column and box it meets, both their cells there: a witness.  Such a set
 * is a set R of rows (a's and b's cells in each), closed under "the row of
 * b's cell in the column, and in the box, of a's cell in row r" (both maps
 * are permutations, so their orbits are the sets).  Rows of cells of digit
 * v: col[v][r] is its column in row r, row[v][c] its row in column c,
 * box[v][x] its cell in box x. */
static void seed_digit_pair(struct pass *p, const uint8_t (*col)[SDK_MAX_N],
                            const uint8_t (*row)[SDK_MAX_N], const uint16_t (*box)[SDK_MAX_N],
                            unsigned a, unsigned b)
{
    unsigned n = p->spec->n, bs = sdk_box_side(n), by_col[SDK_MAX_N], by_box[SDK_MAX_N];
    uint32_t seen = 0;

    for (unsigned r = 0; r < n; r++) {
        by_col[r] = row[b][col[a][r]];
        by_box[r] = box[b][r / bs * bs + col[a][r] / bs] / n;
    }
    for (unsigned r0 = 0; r0 < n; r0++) {
        uint32_t set = 1u << r0, todo = set;
        uint64_t w[GEN_CERT_WORDS] = {0};

        if (seen >> r0 & 1)
            continue;
        while (todo) {
            unsigned r = (unsigned)__builtin_ctz(todo);
            uint32_t next = (1u << by_col[r] | 1u << by_box[r]) & ~set;

            todo = (todo & (todo - 1)) | next;
            set |= next;
        }
        seen |= set;
        /* Two rows are a rectangle over two boxes: a cycle of a line pair,
         * seeded already (no other set is both). */
        if (__builtin_popcount(set) <= 2)
            continue;
        for (uint32_t rows = set; rows; rows &= rows - 1) {
            unsigned r = (unsigned)__builtin_ctz(rows), ca = r * n + col[a][r],
                     cb = r * n + col[b][r];

            w[ca / 64] |= 1ull << (ca % 64);
            w[cb / 64] |= 1ull << (cb % 64);
        }
        cert_seed(p, w);
    }
}

/* The witnesses the grid gives before any test: line pairs, digit pairs. */
static void seed_certs(struct pass *p)
{
    unsigned n = p->spec->n, bs = sdk_box_side(n);
    uint8_t col[SDK_MAX_N][SDK_MAX_N], row[SDK_MAX_N][SDK_MAX_N];
    uint16_t box[SDK_MAX_N][SDK_MAX_N];

    for (unsigned cell = 0; cell < n * n; cell++) {
        unsigned v = p->grid[cell] - 1u, r = cell / n, c = cell % n;

        col[v][r] = (uint8_t)c;
        row[v][c] = (uint8_t)r;
        box[v][r / bs * bs + c / bs] = (uint16_t)cell;
    }
    seed_line_pairs(p, 0);
    seed_line_pairs(p, 1);
    for (unsigned a = 0; a < n; a++) {
        for (unsigned b = a + 1; b < n; b++)
            seed_digit_pair(p, col, row, box, a, b);
    }
}
/* Orbit i stays for good: drop the witnesses with a cell in it, which can
 * never apply again (all their cells must be blank). */
static void certs_drop(struct pass *p, unsigned i)
{
    for (unsigned k = 0; k < p->certs_len;) {
        const struct cert *d = &p->certs[k];
        unsigned j = 0;

        while (j < p->orb->cells_len[i] &&
               !(d->w[p->orb->cells[i][j] / 64] >> (p->orb->cells[i][j] % 64) & 1))
            j++;
        if (j < p->orb->cells_len[i]) {
            p->certs[k] = p->certs[--p->certs_len];
            p->certs_next = 0;
            continue;
        }
        k++;
    }
}

/* The first orbit j >= from such that blanking orbits [from, j] on top of
 * the puzzle is known to leave a second solution, or UINT_MAX.  Every
 * witness kept has its last orbit at or after from: the orbits before from
 * are blank or kept, and one in a kept orbit has been dropped. */
static unsigned known_fail(const struct pass *p)
{
    unsigned best = UINT_MAX;

    for (unsigned k = 0; k < p->certs_len; k++)
        best = p->certs[k].last < best ? p->certs[k].last : best;
    return best;
}

/* Is the puzzle with orbits [from, to) blank on top unique?  Asks the
 * certificates first, then the plugin; keeps the orbits blank when unique.
 * Returns 1 (kept blank), 0 (restored: the first orbit in [from, to) that
 * is known to be needed is *culprit, or to - 1 when the plugin's second
 * solution was the grid) or a negative errno. */
static int try_blank(struct pass *p, unsigned from, unsigned to, unsigned *culprit)
{
    uint8_t alt[SDK_MAX_CELLS];
    unsigned known = known_fail(p);
    const struct cert *d;
    int rc;

    if (known < to) {
        *culprit = known;
        return 0;
    }
    set_orbits(p, from, to, 1);
    rc = count_solutions(p->spec, p->puzzle, 2, alt, p->solves);
    if (rc == 1)
        return 1;
    set_orbits(p, from, to, 0);
    if (rc == 0)
        return -EIO; /* the grid itself solves it: the plugin is wrong */
    if (rc < 0)
        return rc;
    /* The other witnesses left [from, to) alone (known >= to), so only the
     * new one can name a culprit inside it. */
    d = cert_add(p, alt);
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
        certs_drop(p, i - 1);
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

/* ---------------------------------------------------------------- one puzzle */

static int check_spec(const struct gen_spec *spec)
{
    if (!spec || !sdk_box_side(spec->n) || (unsigned)spec->symmetry >= GEN_SYM_COUNT)
        return -EINVAL;
    if (!spec->counter || !(spec->counter->desc->caps & SDK_CAP_COUNT) ||
        !(spec->counter->desc->sizes & sdk_size_bit(spec->n)))
        return -EINVAL;
    if (spec->rate && (!(spec->min_rating <= spec->max_rating) || spec->max_attempts == 0 ||
                       spec->orders > GEN_MAX_ORDERS))
        return -EINVAL;
    return 0;
}

/* Make the full grid of seed into out->solution, its witnesses still to
 * read (and kept for later orders when is_kept).  Returns 0 or a negative
 * errno. */
static int grid_make(const struct gen_spec *spec, uint64_t seed, int is_kept, struct grid_work *g,
                     struct gen_puzzle *out)
{
    g->rng = seed;
    g->is_kept = is_kept;
    g->is_seeded = 0;
    g->seeded = g->learned = g->next = 0;
    out->n = spec->n;
    return full_grid(spec, &g->rng, out->solution, &out->solves);
}

/* Hand the pass the grid's witnesses: read them off the grid the first
 * time, and keep them; afterwards copy them, with the ones learned. */
static void grid_certs(struct pass *p, struct grid_work *g)
{
    size_t size = (p->spec->n * p->spec->n + 63) / 64 * sizeof(uint64_t);

    if (!g->is_seeded) {
        seed_certs(p);
        for (unsigned k = 0; g->is_kept && k < p->certs_len; k++)
            memcpy(g->w[k], p->certs[k].w, size);
        g->seeded = p->certs_len;
        g->is_seeded = 1;
    } else {
        for (unsigned k = 0; k < g->seeded + g->learned; k++)
            (void)cert_store(p, g->w[k]);
    }
    p->gw = g->is_kept ? g : NULL;
}

/* Make the puzzle of removal order j of the grid in out->solution into
 * *out, unrated. */
static int make_order(const struct gen_spec *spec, struct grid_work *g, unsigned j,
                      struct gen_puzzle *out)
{
    struct orbits orb;
    struct pass p;
    uint64_t rng = g->rng ^ mix64(j * GEN_GOLDEN);
    int rc;

    out->rating = 0;
    memcpy(out->puzzle, out->solution, (size_t)spec->n * spec->n);
    orbit_list(&rng, spec->n, spec->symmetry, &orb);
    pass_init(&p, spec, out, &orb);
    grid_certs(&p, g);
    rc = remove_givens(&p);
    if (rc < 0)
        return rc;
    out->givens = count_givens(spec->n, out->puzzle);
    return 0;
}

/* Rate out with the spec's callback.  Returns 1 (in the band), 0 or a
 * negative errno. */
static int in_band(const struct gen_spec *spec, struct gen_puzzle *out)
{
    struct gen_rate_job job = {
        .n = spec->n,
        .puzzle = out->puzzle,
        .solution = out->solution,
        .cancel = spec->cancel,
        .deadline_ns = spec->deadline_ns,
    };
    int rc = spec->rate(spec->rate_ctx, &job, &out->rating);

    if (rc < 0)
        return rc;
    return out->rating >= spec->min_rating && out->rating <= spec->max_rating;
}

/* Candidates attempt, attempt+1, ... from the grid of seed (low bits mask
 * clear) and orders j0, j0+1, ... of it (mod mask + 1), orders of them a
 * grid, until one is in the band.  Returns 0 or a negative errno. */
static int gen_chain(const struct gen_spec *spec, uint64_t seed, unsigned orders,
                     struct gen_puzzle *out)
{
    uint64_t mask = orders > 1 ? GEN_MAX_ORDERS - 1 : 0, grid_seed = seed & ~mask;
    unsigned j0 = (unsigned)(seed & mask);
    struct grid_work g;

    for (unsigned attempt = 1;; attempt++) {
        unsigned t = (attempt - 1) % orders, j = (j0 + t) & (unsigned)mask;
        int rc = t == 0 ? grid_make(spec, grid_seed, orders > 1, &g, out) : 0;
        if (rc == 0)
            rc = make_order(spec, &g, j, out);
        if (rc < 0)
            return rc;
        out->seed = grid_seed | j;
        out->attempts = attempt;
        if (!spec->rate)
            return 0;
        rc = in_band(spec, out);
        if (rc != 0)
            return rc < 0 ? rc : 0;
        if (attempt == spec->max_attempts)
            return -ERANGE;
        if (t + 1 == orders)
            grid_seed = mix64(grid_seed + GEN_GOLDEN) & ~mask;
    }
}

int gen_one(const struct gen_spec *spec, uint64_t seed, struct gen_puzzle *out)
{
    int rc = check_spec(spec);

    if (rc < 0)
        return rc;
    if (!out)
        return -EINVAL;
    memset(out, 0, sizeof(*out)); /* every byte defined: results compare with memcmp */
    return gen_chain(spec, seed, spec->rate && spec->orders > 1 ? spec->orders : 1, out);
}

int gen_batch(const struct gen_spec *spec, uint64_t seed, uint64_t first, size_t len,
              struct gen_puzzle *out, size_t *done)
{
    size_t i = 0;
    int rc = check_spec(spec);

    if (done)
        *done = 0;
    if (rc < 0 || (len && !out))
        return rc < 0 ? rc : -EINVAL;
    for (; i < len; i++) {
        rc = gen_one(spec, gen_batch_seed(seed, first + i), &out[i]);
        if (rc < 0)
            break;
    }
    if (done)
        *done = i;
    return rc;
}
