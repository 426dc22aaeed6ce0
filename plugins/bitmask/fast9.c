/* fast9.c -- the bitmask plugin's band-oriented 9x9 solver, built for speed.
 *
 * Representation.  For every band b (three rows) and digit d one 27-bit word
 * cand[b][d] says where d may still go:
 *
 *        bit:  0 ..  8   row 0 of the band, columns 0..8
 *              9 .. 17   row 1
 *             18 .. 26   row 2          box k of the band = columns 3k..3k+2
 *
 * A placed cell keeps its bit in its own digit's word and loses it in every
 * other digit's word; unsolved[b] holds the cells not placed yet.  Grid cell
 * b*27 + bit is row-major order, so words map straight onto the job's cells.
 *
 * Propagation, cheapest first:
 *   - per (band, digit) word: the digit sits once in each row and once in
 *     each box of the band, so the "minirows" (row x box) still holding it
 *     must contain one of the 6 row->box permutations; minirows in none are
 *     dropped (row/box locked candidates, hidden singles in boxes) and a row
 *     left with one cell is a hidden single;
 *   - per band, bit-parallel over the 9 digit words: naked singles and empty
 *     cells (contradictions);
 *   - per digit, across the bands: hidden singles in columns, and the same
 *     permutation rule on each stack (column/box locked candidates).
 * Only words that changed since they were last looked at are looked at again
 * (the dirty and changed sets).
 *
 * Search.  Guess on a cell with two candidates, choosing the one with the
 * most unsolved peers (it constrains the most; this halves the guesses on
 * hard puzzles compared with taking the first); with no such cell, a cell
 * with the fewest candidates.  The first candidate is tried on a copy of the
 * state, then removed from the cell in the original, which goes on.
 *
 * Invariants: every placement sets a digit on a cell whose bit the digit
 * still has and removes it from the cell's row, column and box, so when
 * unsolved[] is empty the placed cells form a valid grid.  No heap, no
 * mutable globals: the state is a ~180-byte struct copied on the stack per
 * guess level (depth <= 81).
 */
#include "bitmask.h"

#include <stdint.h>
#include <string.h>

#define F9_BAND_ALL 0x7ffffffu /* the 27 cells of a band */
#define F9_POLL     16u        /* guesses between two polls: about 16 us of work */

/* ------------------------------------------------------------------------ */
/* Constant tables, built by the preprocessor so they read as their rule.     */

/* Expand f over 0..511. */
#define F9_R2(f, m)   f(m), f((m) + 1)
#define F9_R4(f, m)   F9_R2(f, m), F9_R2(f, (m) + 2)
#define F9_R8(f, m)   F9_R4(f, m), F9_R4(f, (m) + 4)
#define F9_R16(f, m)  F9_R8(f, m), F9_R8(f, (m) + 8)
#define F9_R32(f, m)  F9_R16(f, m), F9_R16(f, (m) + 16)
#define F9_R64(f, m)  F9_R32(f, m), F9_R32(f, (m) + 32)
#define F9_R128(f, m) F9_R64(f, m), F9_R64(f, (m) + 64)
#define F9_R256(f, m) F9_R128(f, m), F9_R128(f, (m) + 128)
#define F9_R512(f)    F9_R256(f, 0), F9_R256(f, 256)

/* One row of a band (9 bits) -> which of its 3 minirows hold a candidate. */
#define F9_SHRINK(g) (((g)&07 ? 1 : 0) | ((g)&070 ? 2 : 0) | ((g)&0700 ? 4 : 0))
static const uint8_t f9_shrink_row[512] = {F9_R512(F9_SHRINK)};

/* Minirow (row r, box k): its bit in a 9-bit minirow set, its cells in a band. */
#define F9_MR9(r, k)  (1u << (3 * (r) + (k)))
#define F9_MR27(r, k) (07u << (9 * (r) + 3 * (k)))
/* Cells of the permutation row0->box a, row1->box b, row2->box c if it fits in
 * the minirow set m, else 0. */
#define F9_PERM(m, a, b, c)                                                                        \
    (((F9_MR9(0, a) | F9_MR9(1, b) | F9_MR9(2, c)) & ~(unsigned)(m)) == 0                          \
         ? (F9_MR27(0, a) | F9_MR27(1, b) | F9_MR27(2, c))                                         \
         : 0u)
/* Minirow set -> the cells of the band that some fitting permutation uses;
 * 0 when none fits (the digit cannot be placed in this band). */
#define F9_KEEP(m)                                                                                 \
    (F9_PERM(m, 0, 1, 2) | F9_PERM(m, 0, 2, 1) | F9_PERM(m, 1, 0, 2) | F9_PERM(m, 1, 2, 0) |       \
     F9_PERM(m, 2, 0, 1) | F9_PERM(m, 2, 1, 0))
static const uint32_t f9_keep[512] = {F9_R512(F9_KEEP)};

/* The same rule on a stack: "rows" are the 3 bands, "boxes" the 3 columns of
 * the stack; the result is the set of fitting minicolumns (9 bits). */
#define F9_PERM9(m, a, b, c)                                                                       \
    (((F9_MR9(0, a) | F9_MR9(1, b) | F9_MR9(2, c)) & ~(unsigned)(m)) == 0                          \
         ? (F9_MR9(0, a) | F9_MR9(1, b) | F9_MR9(2, c))                                            \
         : 0u)
#define F9_KEEP9(m)                                                                                \
    (F9_PERM9(m, 0, 1, 2) | F9_PERM9(m, 0, 2, 1) | F9_PERM9(m, 1, 0, 2) | F9_PERM9(m, 1, 2, 0) |   \
     F9_PERM9(m, 2, 0, 1) | F9_PERM9(m, 2, 1, 0))
static const uint16_t f9_keep9[512] = {F9_R512(F9_KEEP9)};

/* Band cell i -> the other cells of its row and box in the band. */
#define F9_PEERS(i)                                                                                \
    (((0x1ffu << (9 * ((i) / 9))) | (0x1c0e07u << (3 * (((i) % 9) / 3)))) & ~(1u << (i)))
/* Band cell i -> its column's 3 cells in a band. */
#define F9_COL(i) (0x40201u << ((i) % 9))
#define F9_C27(f) F9_R16(f, 0), F9_R8(f, 16), F9_R2(f, 24), f(26)
static const uint32_t f9_peers[27] = {F9_C27(F9_PEERS)};
static const uint32_t f9_col[27] = {F9_C27(F9_COL)};

/* ------------------------------------------------------------------------ */
/* State and placement.                                                       */

/* (digit, band) sets such as dirty use bit 9*b + d. */
#define F9_DB(d, b)   (1u << (9 * (b) + (d)))
#define F9_DIGIT_BITS 0x40201u   /* digit 0's bits in a (digit, band) set */
#define F9_DB_ALL     0x7ffffffu /* all 27 (digit, band) words */
#define F9_LANES      12         /* digit words per band, padded to whole vectors */

struct f9_state {
    uint32_t cand[3][F9_LANES]; /* band b, digit d: cells where d may be (placed ones
                                   kept); lanes 9..11 stay 0 */
    uint32_t unsolved[3];       /* band b: cells not placed yet */
    uint32_t done[3];           /* band b: bit 3*d+r once d is placed in row r */
    uint32_t dirty;             /* (d, b): cand[b][d] changed since its last shrink */
    uint32_t changed;           /* (d, b): cand[b][d] changed since the last singles scan */
};

struct f9_search {
    struct sdk_job *job; /* for the cancel flag and deadline */
    uint64_t limit;      /* stop at this many solutions */
    uint64_t count;      /* solutions found so far */
    uint64_t guesses;    /* branches tried */
    uint32_t poll;       /* guesses left before the next poll */
    int stop;            /* SDK_CANCELLED / SDK_TIMEDOUT once asked to stop */
};

/* The empty grid: every digit everywhere, every word to be looked at. */
static void f9_init(struct f9_state *s)
{
    memset(s, 0, sizeof(*s));
    for (int b = 0; b < 3; b++) {
        for (int d = 0; d < 9; d++)
            s->cand[b][d] = F9_BAND_ALL;
        s->unsolved[b] = F9_BAND_ALL;
    }
    s->changed = F9_DB_ALL;
}

/* Remove cells from cand[b][d], marking the word dirty when it changes. */
static inline void f9_remove(struct f9_state *s, int d, int b, uint32_t cells)
{
    uint32_t old = s->cand[b][d];
    uint32_t now = old & ~cells;
    s->cand[b][d] = now;
    s->dirty |= (uint32_t)(now != old) << (9 * b + d);
}

/* Take cell from every digit word of band b; returns the digits that had it.
 * Written with GCC/clang vector types: three 4-lane ANDs and compares. */
typedef uint32_t f9_v4 __attribute__((vector_size(16)));

static inline uint32_t f9_clear_cell(uint32_t *words, uint32_t cell)
{
    const f9_v4 c = {cell, cell, cell, cell};
    f9_v4 acc = {0, 0, 0, 0};

    for (size_t j = 0; j < F9_LANES / 4; j++) {
        const f9_v4 lane = {1u << (4 * j), 2u << (4 * j), 4u << (4 * j), 8u << (4 * j)};
        f9_v4 v;
        memcpy(&v, words + 4 * j, sizeof(v));
        acc |= (f9_v4)((v & c) != 0) & lane;
        v &= ~c;
        memcpy(words + 4 * j, &v, sizeof(v));
    }
    return acc[0] | acc[1] | acc[2] | acc[3];
}

/* Put d on cell i of band b, which must still be a candidate: the cell leaves
 * every other digit, d leaves the column in the other bands.  The caller
 * deals with the rest of d's row and box in this band. */
static inline void f9_assign(struct f9_state *s, int d, int b, int i)
{
    uint32_t cell = 1u << i, mine = F9_DB(d, b), pending = s->dirty & mine;

    s->unsolved[b] &= ~cell;
    s->done[b] |= 1u << (3 * d + i / 9);
    s->dirty |= f9_clear_cell(s->cand[b], cell) << (9 * b);
    s->cand[b][d] |= cell;
    s->dirty = (s->dirty & ~mine) | pending;
    f9_remove(s, d, b == 0 ? 1 : 0, f9_col[i]);
    f9_remove(s, d, b == 2 ? 1 : 2, f9_col[i]);
}

/* Place digit d on cell i of band b.  Returns 0, or -1 when d cannot go there. */
static inline int f9_place(struct f9_state *s, int d, int b, int i)
{
    uint32_t cell = 1u << i;

    if (!(s->cand[b][d] & cell) || !(s->unsolved[b] & cell))
        return -1;
    f9_assign(s, d, b, i);
    f9_remove(s, d, b, f9_peers[i]);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Propagation.                                                               */

/* Drop the minirows of cand[b][d] no row->box permutation can use, then place
 * d on every open row left with a single cell.  Such a row's box is then
 * forced in every permutation, so the rest of the row and box is already
 * gone: f9_assign suffices.  Returns 0 or -1 (contradiction). */
static int f9_shrink(struct f9_state *s, int d, int b)
{
    uint32_t x = s->cand[b][d];
    uint32_t m = f9_shrink_row[x & 0x1ff] | (uint32_t)f9_shrink_row[(x >> 9) & 0x1ff] << 3 |
                 (uint32_t)f9_shrink_row[x >> 18] << 6;
    uint32_t open;

    x &= f9_keep[m];
    if (!x)
        return -1;
    s->cand[b][d] = x;
    for (open = ~(s->done[b] >> (3 * d)) & 7; open; open &= open - 1) {
        int r = __builtin_ctz(open);
        uint32_t g = (x >> (9 * r)) & 0x1ff;
        if (!(g & (g - 1)))
            f9_assign(s, d, b, 9 * r + __builtin_ctz(g));
    }
    return 0;
}

/* Count, bit-parallel over the digits, cells of band b with >= 1 / >= 2 candidates. */
static inline void f9_count2(const struct f9_state *s, int b, uint32_t *ones, uint32_t *twos)
{
    uint32_t o = 0, t = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t x = s->cand[b][d];
        t |= o & x;
        o |= x;
    }
    *ones = o;
    *twos = t;
}

/* Place every naked single in the bands of changed.  Returns 1 if it placed
 * any, 0 if none, -1 on a contradiction (an unsolved cell without candidates). */
static int f9_naked(struct f9_state *s, uint32_t changed)
{
    int placed = 0;

    for (int b = 0; b < 3; b++) {
        uint32_t ones, twos, single;
        if (!s->unsolved[b] || !(changed & (0x1ffu << (9 * b))))
            continue;
        f9_count2(s, b, &ones, &twos);
        if (s->unsolved[b] & ~ones)
            return -1;
        single = s->unsolved[b] & ~twos;
        for (; single; single &= single - 1) {
            int i = __builtin_ctz(single), d = 0;
            while (d < 9 && !((s->cand[b][d] >> i) & 1))
                d++;
            if (d == 9 || f9_place(s, d, b, i))
                return -1;
            placed = 1;
        }
    }
    return placed;
}

/* Fold the three rows of a band word onto 9 column bits. */
static inline uint32_t f9_fold(uint32_t x)
{
    return (x | x >> 9 | x >> 18) & 0x1ff;
}

/* Place digit d where it is the only candidate of its column.  Returns 1 if
 * it placed any, 0 if none, -1 when a column has no place for d. */
static int f9_hidden_cols(struct f9_state *s, int d)
{
    /* o: column slots with d in some band; t: in two or more bands. */
    uint32_t a = s->cand[0][d], b = s->cand[1][d], c = s->cand[2][d];
    uint32_t o = a | b | c, t = (a & b) | (c & (a | b));
    uint32_t o0 = o & 0x1ff, o1 = (o >> 9) & 0x1ff, o2 = o >> 18;
    uint32_t ones = o0 | o1 | o2;
    uint32_t twos = f9_fold(t) | (o0 & o1) | (o2 & (o0 | o1));
    uint32_t placed =
        f9_fold((a & ~s->unsolved[0]) | (b & ~s->unsolved[1]) | (c & ~s->unsolved[2]));
    uint32_t single;

    if (ones != 0x1ff)
        return -1;
    single = ones & ~twos & ~placed;
    if (!single)
        return 0;
    for (; single; single &= single - 1) {
        uint32_t col = F9_COL(__builtin_ctz(single));
        int band = 0;
        while (band < 3 && !(s->cand[band][d] & col))
            band++;
        if (band == 3 || f9_place(s, d, band, __builtin_ctz(s->cand[band][d] & col)))
            return -1;
    }
    return 1;
}

/* Column-box interactions of digit d: in each stack, every band holds d in
 * one of its columns and every column in one band.  Drops the columns of a
 * band no band->column permutation uses.  Returns 1 if it removed any
 * candidate, 0 if none, -1 on a contradiction. */
static int f9_stacks(struct f9_state *s, int d)
{
    uint32_t f0 = f9_fold(s->cand[0][d]), f1 = f9_fold(s->cand[1][d]), f2 = f9_fold(s->cand[2][d]);
    int progress = 0;

    for (int k = 0; k < 9; k += 3) {
        uint32_t m = (f0 >> k & 7) | (f1 >> k & 7) << 3 | (f2 >> k & 7) << 6;
        uint32_t gone = m & ~(uint32_t)f9_keep9[m];
        if (!gone)
            continue;
        if (gone == m)
            return -1;
        progress = 1;
        for (int b = 0; b < 3; b++, gone >>= 3)
            if (gone & 7)
                f9_remove(s, d, b, (F9_COL(0) * (gone & 7)) << k);
    }
    return progress;
}

/* Run every rule to a fixed point.  Returns 0, or -1 on a contradiction. */
static int f9_propagate(struct f9_state *s)
{
    for (;;) {
        while ((s->changed |= s->dirty), s->dirty) {
            int k = __builtin_ctz(s->dirty);
            s->dirty &= s->dirty - 1;
            if (f9_shrink(s, k % 9, k / 9))
                return -1;
        }
        uint32_t changed = s->changed;
        s->changed = 0;
        int r = f9_naked(s, changed);
        if (r < 0)
            return r;
        if (r > 0) {
            s->changed |= changed;
            continue;
        }
        for (int d = 0; d < 9; d++) {
            if (!(changed & (F9_DIGIT_BITS << d)))
                continue;
            int h = f9_hidden_cols(s, d);
            if (h < 0)
                return -1;
            r |= h;
            h = f9_stacks(s, d);
            if (h < 0)
                return -1;
            r |= h;
        }
        if (!r)
            return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* Search.                                                                    */

/* Bits set in x (SWAR: baseline x86-64 has no popcount instruction). */
static inline int f9_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((x * 0x0101010101010101u) >> 56);
}

/* Unsolved cells among the 20 peers of cell i of band b. */
static inline int f9_open_peers(const struct f9_state *s, int b, int i)
{
    uint32_t col = f9_col[i];
    uint32_t other = (s->unsolved[b == 0 ? 1 : 0] & col) | (s->unsolved[b == 2 ? 1 : 2] & col) << 1;
    return f9_popcount64((uint64_t)(s->unsolved[b] & f9_peers[i]) | (uint64_t)other << 32);
}

/* Cells of each band with exactly two candidates, into two[3]. */
static void f9_bivalue(const struct f9_state *s, uint32_t two[3])
{
    for (int b = 0; b < 3; b++) {
        uint32_t o = 0, t = 0, h = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t x = s->cand[b][d];
            h |= t & x;
            t |= o & x;
            o |= x;
        }
        two[b] = s->unsolved[b] & t & ~h;
    }
}

/* The unsolved cell with the fewest candidates (slow; rare: only when no
 * cell has two). */
static void f9_fewest(const struct f9_state *s, int *band, int *bit)
{
    int best = 10;

    for (int b = 0; b < 3; b++)
        for (uint32_t u = s->unsolved[b]; u; u &= u - 1) {
            int i = __builtin_ctz(u), n = 0;
            for (int d = 0; d < 9; d++)
                n += (int)((s->cand[b][d] >> i) & 1);
            if (n < best) {
                best = n;
                *band = b;
                *bit = i;
            }
        }
}

/* Pick the cell to guess on (see the top of the file); s has unsolved cells.
 * Sets *band and *bit; returns the cell's digits as a 9-bit set. */
static uint32_t f9_pick(const struct f9_state *s, int *band, int *bit)
{
    uint32_t two[3], digits = 0;
    int best = -1;

    f9_bivalue(s, two);
    for (int b = 0; b < 3; b++)
        for (uint32_t w = two[b]; w; w &= w - 1) {
            int i = __builtin_ctz(w), score = f9_open_peers(s, b, i);
            if (score > best) {
                best = score;
                *band = b;
                *bit = i;
            }
        }
    if (best < 0)
        f9_fewest(s, band, bit);
    for (int d = 0; d < 9; d++)
        digits |= ((s->cand[*band][d] >> *bit) & 1u) << d;
    return digits;
}

/* Write the placed digits of a solved state as 81 row-major cells. */
static void f9_write(const struct f9_state *s, uint8_t *out)
{
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++)
            for (uint32_t x = s->cand[b][d]; x; x &= x - 1)
                out[27 * b + __builtin_ctz(x)] = (uint8_t)(d + 1);
}

/* Count the guess; poll the job every F9_POLL guesses.  Returns 1 to stop. */
static int f9_tick(struct f9_search *ctx)
{
    ctx->guesses++;
    if (--ctx->poll == 0) {
        ctx->poll = F9_POLL;
        ctx->stop = sdk_job_should_stop(ctx->job);
    }
    return ctx->stop != 0;
}

/* Returns 1 once the search must unwind: asked to stop, or limit reached. */
static int f9_done(const struct f9_search *ctx)
{
    return ctx->stop || ctx->count >= ctx->limit;
}

/* Search from s (consumed), counting solutions into ctx and writing the first
 * to the job.  Recursion depth is bounded by the 81 cells. */
static void f9_search(struct f9_search *ctx, struct f9_state *s)
{
    for (;;) {
        if (f9_propagate(s))
            return;
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
            if (ctx->count++ == 0)
                f9_write(s, ctx->job->solution);
            return;
        }
        int b = 0, i = 0;
        uint32_t digits = f9_pick(s, &b, &i);
        if (!digits)
            return;
        int d = __builtin_ctz(digits);
        if (f9_tick(ctx))
            return;
        struct f9_state t = *s;
        if (f9_place(&t, d, b, i) == 0)
            f9_search(ctx, &t);
        if (f9_done(ctx))
            return;
        f9_remove(s, d, b, 1u << i);
    }
}

int bm_fast9_solve(struct sdk_job *job)
{
    struct f9_search ctx = {.job = job, .limit = job->limit, .poll = F9_POLL};
    struct f9_state s;

    f9_init(&s);
    job->count = 0;
    job->guesses = 0;
    for (int c = 0; c < 81; c++) {
        if (job->cells[c] && f9_place(&s, job->cells[c] - 1, c / 27, c % 27))
            return SDK_UNSOLVABLE;
    }
    f9_search(&ctx, &s);
    job->count = ctx.count;
    job->guesses = ctx.guesses;
    if (ctx.stop && ctx.count < ctx.limit)
        return ctx.stop;
    return ctx.count ? SDK_SOLVED : SDK_UNSOLVABLE;
}
