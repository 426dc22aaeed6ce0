/* gen_witness.c -- witnesses: second solutions that prove a puzzle is not
 * unique without asking the plugin.
 *
 * A witness is the set of cells where a second solution differs from the
 * grid; a puzzle that leaves all of them blank has both solutions.  A
 * failed test's answer is one (checked by the host) whenever it is not the
 * grid.  The last orbit in visiting order holding one of its cells is where
 * any prefix of a run starts to fail, so the removal pass (gen_dig.c) tries
 * the prefix just short of it next, and it is usually right.  Witnesses are
 * kept for the rest of the pass, so a later test they decide needs no call.
 *
 * The grid itself gives many witnesses before any test, each a second
 * solution made by swapping values (seed_certs): two lines of a band swap
 * their values on a cycle of columns, two digits swap on a set of cells
 * closed under row, column and box.  Their rectangles and small cycles are
 * what most failed tests used to find; with them a 9x9 puzzle takes about
 * 31 plugin calls.  Only non-uniqueness is decided without the plugin, and
 * only by a second grid that is checked by construction: the generator
 * holds no solver, and the puzzle is the sequential pass's.
 *
 * The grid's witnesses, the ones read off it and every second solution a
 * pass found, serve all its removal orders (a witness is a property of the
 * grid, not of the order; only its last orbit is worked out again, here).
 * They change how many calls a pass takes, never the puzzle.  Under variant
 * rules only the plugin's second solutions serve: a swap that keeps the
 * rows, columns and boxes may break a diagonal, a region or a cage.
 */
#include <limits.h>
#include <string.h>

#include "core/gen_impl.h"

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
const struct cert *gen__cert_add(struct pass *p, const uint8_t *alt)
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
void gen__certs_drop(struct pass *p, unsigned i)
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
unsigned gen__known_fail(const struct pass *p)
{
    unsigned best = UINT_MAX;

    for (unsigned k = 0; k < p->certs_len; k++)
        best = p->certs[k].last < best ? p->certs[k].last : best;
    return best;
}

/* Hand the pass the grid's witnesses: read them off the grid the first
 * time, and keep them; afterwards copy them, with the ones learned. */
void gen__grid_certs(struct pass *p, struct grid_work *g)
{
    size_t size = (p->spec->n * p->spec->n + 63) / 64 * sizeof(uint64_t);

    if (!g->is_seeded) {
        /* The swaps read off the grid keep rows, columns and boxes only:
         * under variant rules they need not be solutions at all. */
        if (!p->rules)
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
