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
 *     permutation rule on each stack (column/box locked candidates);
 *   - last, being the dearest, the triad rules: a minirow (minicolumn) has
 *     three cells, so it holds exactly three digits.  One with only three
 *     candidate digits gets all three (they leave the rest of its row and
 *     box); one that three digits are forced into loses every other digit.
 * Only words that changed since they were last looked at are looked at again:
 * every removal marks the words it cleared a bit in as dirty (one compare a
 * word, or one vector compare for the 9 words of a band), and the shrink
 * takes the dirty words in batches, all of a batch before any hidden single
 * it finds is placed (see f9_shrink_dirty).  The triad rules look at the
 * whole grid.
 *
 * Search.  A digit sits in a band (stack) in one of 6 "ways", the row->box
 * (band->column) permutations of the triad rule.  Take the band or stack
 * with the least weight of ways over its digits (about the log of their
 * product), not all fixed, and in it the digit with the fewest ways: try
 * its first way, then the others.  With two or three ways left the others
 * exclude the first; with more, guess on a cell instead: one with two
 * candidates and the most unsolved peers, else one with the fewest.  The
 * first branch runs on a copy of the state; the original, restricted to
 * the other branch, goes on.  Guessing on ways together with the triad
 * rules cuts the guesses on the hardest puzzles by a quarter against
 * bivalue cells and the cheap rules alone.
 *
 * Variant rules (X-sudoku's diagonals, windoku's windows: extra houses on
 * the square boxes; bitmask.h's BM_FAST9_RULES).  A placement also takes
 * its digit from the rest of the cell's extra houses (f9_x_assign; only
 * cells in one).  When the cheap rules are stuck, before the triad rules,
 * each extra house is looked at per digit whose words changed (and whose
 * places there changed since the last look: xsum): no place left is a
 * contradiction, one is a hidden single, two or three leave the digit out
 * of every cell that sees them all (f9_x_houses).  Windows bring the five
 * houses they imply (sdk_windows_implied(): rows 0, 4 and 8 against
 * columns 0, 4 and 8, 1-3 or 5-7, and the other way round), searched as
 * the given ones: they halve windoku's guesses, and make the boxes' look
 * into the windows (a digit whose places in a box all lie in a window
 * leaves the rest of it) cost more than it gains, so there is none.  The
 * guess goes first to a digit with two places left in one of the first
 * F9_BILOCAL extra houses (f9_x_houses notes them in bilocal): it goes on
 * the first place, and if that fails the house's hidden single puts it on
 * the other.  Else to the bivalue cell with the most open peers, extra
 * ones counted.  The ways guess stays for windoku alone, where it measured
 * faster (on X it took more time).
 *
 * Invariants: every placement sets a digit on a cell whose bit the digit
 * still has and removes it from the cell's row, column and box (and extra
 * houses), so when unsolved[] is empty the placed cells form a valid grid.
 * A word not in dirty is as its last shrink left it, and rows[b][d] is
 * then its minirow set (no word is dirty when the triad rules read it).
 * No heap, no mutable globals: the state is a 656-byte struct copied on
 * the stack per guess level (the rules, about 2 KiB, are built once a job
 * and only pointed at); a level fixes one of the 54 (band or stack, digit)
 * ways or places a cell, so the depth stays under 54 + 81.
 */
#include "bitmask.h"

#include <sudoku/plugin_rules.h>

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define F9_BAND_ALL 0x7ffffffu /* the 27 cells of a band */
#define F9_POLL     16u        /* guesses between two polls: about 16 us of work */
#define F9_XMAX     11u        /* extra houses: 6 given, and windows' 5 implied */
#define F9_BILOCAL  7u         /* the first houses bilocal notes (9h + d < 64) */

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

/* Row r of a band (9 bits g) -> which of its 3 minirows hold a candidate, at
 * bits 32 + 3r.., and its cells alone in their minirow, at bits 9r..: the
 * three tables OR together into a word's minirow set (high half) and its
 * cells alone in their minirow (low half). */
#define F9_SHRINK(g) (((g)&07 ? 1u : 0u) | ((g)&070 ? 2u : 0u) | ((g)&0700 ? 4u : 0u))
#define F9_ONE(g)    ((g) != 0 && ((g) & ((g)-1)) == 0 ? 1u : 0u)
#define F9_SOLO(g)                                                                                 \
    ((F9_ONE((g)&07) ? (g)&07 : 0u) | (F9_ONE((g)&070) ? (g)&070 : 0u) |                           \
     (F9_ONE((g)&0700) ? (g)&0700 : 0u))
#define F9_RI(g, r) ((uint64_t)F9_SOLO(g) << (9 * (r)) | (uint64_t)F9_SHRINK(g) << (32 + 3 * (r)))
#define F9_RI0(g)   F9_RI(g, 0)
#define F9_RI1(g)   F9_RI(g, 1)
#define F9_RI2(g)   F9_RI(g, 2)
static const uint64_t f9_row_info[3][512] = {
    {F9_R512(F9_RI0)}, {F9_R512(F9_RI1)}, {F9_R512(F9_RI2)}};

/* Minirow (row r, box k): its bit in a 9-bit minirow set, its cells in a band. */
#define F9_MR9(r, k)  (1u << (3 * (r) + (k)))
#define F9_MR27(r, k) (07u << (9 * (r) + 3 * (k)))
/* Cells of the permutation row0->box a, row1->box b, row2->box c if it fits in
 * the minirow set m, else 0. */
#define F9_PERM(m, a, b, c)                                                                        \
    (((F9_MR9(0, a) | F9_MR9(1, b) | F9_MR9(2, c)) & ~(unsigned)(m)) == 0                          \
         ? (F9_MR27(0, a) | F9_MR27(1, b) | F9_MR27(2, c))                                         \
         : 0u)
/* Minirow set -> the cells of the band that some fitting permutation uses
 * (low half; 0 when none fits: the digit cannot be placed in this band) and
 * those that every fitting permutation uses (high half): the minirows left
 * alone in their row. */
#define F9_KEEP(m)                                                                                 \
    (F9_PERM(m, 0, 1, 2) | F9_PERM(m, 0, 2, 1) | F9_PERM(m, 1, 0, 2) | F9_PERM(m, 1, 2, 0) |       \
     F9_PERM(m, 2, 0, 1) | F9_PERM(m, 2, 1, 0))
#define F9_PERMI(m, a, b, c) (F9_PERM(m, a, b, c) ? F9_PERM(m, a, b, c) : F9_BAND_ALL)
#define F9_MUST(m)                                                                                 \
    (F9_PERMI(m, 0, 1, 2) & F9_PERMI(m, 0, 2, 1) & F9_PERMI(m, 1, 0, 2) & F9_PERMI(m, 1, 2, 0) &   \
     F9_PERMI(m, 2, 0, 1) & F9_PERMI(m, 2, 1, 0))
#define F9_KM(m) ((uint64_t)F9_KEEP(m) | (uint64_t)F9_MUST(m) << 32)
static const uint64_t f9_keep[512] = {F9_R512(F9_KM)};

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

/* Triads.  A 3x3 "triad matrix" m (9 bits, bit 3r+k) is, for one digit,
 * either the minirows of a band (r = row, k = box) or the minicolumns of a
 * stack (r = band, k = column of the stack): the digit sits in exactly one
 * triad of each matrix row and of each matrix column.  f9_block[m]: the
 * triads sharing a matrix row or column with some triad of
 * m other than themselves (where the digit cannot be once m is forced). */
#define F9_LINE9(j) ((07u << (3 * ((j) / 3)) | 0111u << ((j) % 3)) & ~(1u << (j)))
#define F9_BL(m, j) ((m) >> (j)&1 ? F9_LINE9(j) : 0u)
#define F9_BLOCK(m)                                                                                \
    (F9_BL(m, 0) | F9_BL(m, 1) | F9_BL(m, 2) | F9_BL(m, 3) | F9_BL(m, 4) | F9_BL(m, 5) |           \
     F9_BL(m, 6) | F9_BL(m, 7) | F9_BL(m, 8))
static const uint16_t f9_block[512] = {F9_R512(F9_BLOCK)};

/* Minirow set (9 bits) -> its cells in a band. */
#define F9_CELLS(m)                                                                                \
    ((((m)&1) ? 07u : 0u) | (((m)&2) ? 070u : 0u) | (((m)&4) ? 0700u : 0u) |                       \
     (((m)&8) ? 07000u : 0u) | (((m)&16) ? 070000u : 0u) | (((m)&32) ? 0700000u : 0u) |            \
     (((m)&64) ? 07000000u : 0u) | (((m)&128) ? 070000000u : 0u) | (((m)&256) ? 0700000000u : 0u))
static const uint32_t f9_cells[512] = {F9_R512(F9_CELLS)};

/* The 6 ways a digit can sit in a triad matrix (one triad per matrix row
 * and column), as 9-bit triad sets, and for each matrix m the ways that fit
 * in it (6 bits, bit p for f9_way[p]). */
#define F9_WAY(a, b, c) (F9_MR9(0, a) | F9_MR9(1, b) | F9_MR9(2, c))
static const uint16_t f9_way[6] = {F9_WAY(0, 1, 2), F9_WAY(0, 2, 1), F9_WAY(1, 0, 2),
                                   F9_WAY(1, 2, 0), F9_WAY(2, 0, 1), F9_WAY(2, 1, 0)};
#define F9_FIT1(m, p, a, b, c) ((F9_WAY(a, b, c) & ~(unsigned)(m)) == 0 ? 1u << (p) : 0u)
#define F9_FITS(m)                                                                                 \
    (F9_FIT1(m, 0, 0, 1, 2) | F9_FIT1(m, 1, 0, 2, 1) | F9_FIT1(m, 2, 1, 0, 2) |                    \
     F9_FIT1(m, 3, 1, 2, 0) | F9_FIT1(m, 4, 2, 0, 1) | F9_FIT1(m, 5, 2, 1, 0))
#define F9_POP6(x)                                                                                 \
    (((x)&1) + ((x) >> 1 & 1) + ((x) >> 2 & 1) + ((x) >> 3 & 1) + ((x) >> 4 & 1) + ((x) >> 5 & 1))
/* A digit's weight in the choice of the band or stack to guess in, by its
 * number of ways n: about 14 ln(n), the log of the unit's arrangements, so
 * that a unit with many digits at 2 ways loses to one with a few at 6 less
 * often than by a plain count (2.6% fewer guesses on forum_hardest). */
#define F9_WEIGHT(n)                                                                               \
    ((n) == 2 ? 10u : (n) == 3 ? 15u : (n) == 4 ? 19u : (n) == 5 ? 22u : (n) == 6 ? 24u : 0u)
#define F9_FITN(m) (F9_FITS(m) | F9_POP6(F9_FITS(m)) << 8 | F9_WEIGHT(F9_POP6(F9_FITS(m))) << 11)
static const uint16_t f9_fits[512] = {F9_R512(F9_FITN)};

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

/* (digit, band) sets such as changed use bit 9*b + d. */
#define F9_DB(d, b) (1u << (9 * (b) + (d)))
#define F9_DB_ALL   0x7ffffffu /* all 27 (digit, band) words */
#define F9_LANES    12         /* digit words per band, padded to whole vectors */

struct f9_state {
    uint32_t cand[3][F9_LANES]; /* band b, digit d: cells where d may be (placed ones
                                   kept); lanes 9..11 stay 0 */
    uint32_t unsolved[3];       /* band b: cells not placed yet */
    uint16_t rows[3][F9_LANES]; /* band b, digit d: minirows (bit 3r + k) of cand[b][d]
                                   as of its last shrink */
    uint32_t dirty;             /* (d, b): cand[b][d] changed since its last shrink */
    uint32_t changed;           /* (d, b): cand[b][d] changed since the last singles scan */
    uint32_t xchanged;          /* (d, b): changed since the last f9_x_houses */
    uint64_t bilocal;           /* bit 9h + d: d has two open places left in extra house h
                                   and is not placed there, as of f9_x_houses' last look */
    uint32_t xsum[F9_XMAX][9];  /* house h, digit d: the sum of its three band words in h
                             at f9_x_houses' last look */
    const struct f9_rules *x;   /* variant rules (see f9_x_assign), or NULL: classic */
};

/* Variant rules the band solver takes (BM_FAST9_RULES): extra houses on
 * square boxes.  Built once a job on the caller's stack; every state of the
 * search points at it. */
struct f9_rules {
    uint32_t peer[81][3];       /* cells that share an extra house with cell c, by band */
    uint32_t sees[81][3];       /* every cell that must differ from c (its peers too), by band;
                                   written for the cells of in_any only */
    uint32_t house[F9_XMAX][3]; /* the extra houses, by band */
    uint32_t in_any[3];         /* the cells of any extra house, by band */
    uint32_t houses;            /* entries in house */
    uint32_t bands[F9_XMAX];    /* (d, b) set of the bands house h touches, for every d */
    int ways;                   /* guess on a digit's ways in a band or stack (see f9_search) */
};

struct f9_search {
    struct sdk_job *job; /* for the cancel flag and deadline */
    uint64_t limit;      /* stop at this many solutions */
    uint64_t count;      /* solutions found so far */
    uint64_t guesses;    /* branches tried */
    uint64_t budget;     /* stop with SDK_EXHAUSTED before a guess past this; 0 = none */
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
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 9; d++)
            s->rows[b][d] = 0x1ff;
    s->changed = F9_DB_ALL;
    s->xchanged = F9_DB_ALL;
}

/* Remove cells from cand[b][d], marking the word dirty if it held any. */
static inline void f9_remove(struct f9_state *s, int d, int b, uint32_t cells)
{
    s->dirty |= (uint32_t)((s->cand[b][d] & cells) != 0) << (9 * b + d);
    s->cand[b][d] &= ~cells;
}

/* Take cell from every digit word of band b; returns the digits that had
 * it, bit d for digit d.  SSE2 is part of every x86-64, so it needs no
 * run-time check; elsewhere the GCC/clang vector types do the same in
 * portable form. */
#if defined(__SSE2__)
static inline uint32_t f9_clear_cell(uint32_t *words, uint32_t cell)
{
    const __m128i c = _mm_set1_epi32((int)cell), zero = _mm_setzero_si128();
    uint32_t none = 0;

    for (int j = 0; j < F9_LANES / 4; j++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(words + 4 * j));
        __m128i z = _mm_cmpeq_epi32(_mm_and_si128(v, c), zero);
        none |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(z)) << (4 * j);
        _mm_storeu_si128((__m128i *)(void *)(words + 4 * j), _mm_andnot_si128(c, v));
    }
    return ~none & 0x1ff;
}

/* The digits of band b (words[]) that have cell, bit d for digit d. */
static inline uint32_t f9_cell_digits(const uint32_t *words, uint32_t cell)
{
    const __m128i c = _mm_set1_epi32((int)cell), zero = _mm_setzero_si128();
    uint32_t none = 0;

    for (int j = 0; j < F9_LANES / 4; j++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(words + 4 * j));
        __m128i z = _mm_cmpeq_epi32(_mm_and_si128(v, c), zero);
        none |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(z)) << (4 * j);
    }
    return ~none & 0x1ff;
}
#else
typedef uint32_t f9_v4 __attribute__((vector_size(16)));

static inline uint32_t f9_clear_cell(uint32_t *words, uint32_t cell)
{
    const f9_v4 c = {cell, cell, cell, cell};
    uint32_t digits = 0;

    for (int d = 0; d < 9; d++)
        digits |= (uint32_t)((words[d] & cell) != 0) << d;
    for (size_t j = 0; j < F9_LANES / 4; j++) {
        f9_v4 v;
        memcpy(&v, words + 4 * j, sizeof(v));
        v &= ~c;
        memcpy(words + 4 * j, &v, sizeof(v));
    }
    return digits;
}

static inline uint32_t f9_cell_digits(const uint32_t *words, uint32_t cell)
{
    uint32_t digits = 0;

    for (int d = 0; d < 9; d++)
        digits |= (uint32_t)((words[d] & cell) != 0) << d;
    return digits;
}
#endif

/* Take cells from cand[b][d] under a variant rule.  A placed d among them
 * (two cells of an extra house given d at once, by one batch of hidden
 * singles) empties the word: the shrink of a word with no place left in a
 * row reports the contradiction. */
static inline void f9_x_remove(struct f9_state *s, int d, int b, uint32_t cells)
{
    if (s->cand[b][d] & cells & ~s->unsolved[b])
        cells = F9_BAND_ALL;
    f9_remove(s, d, b, cells);
}

/* d was put on the cells of band b: under the variant rules it leaves the
 * rest of their extra houses. */
static void f9_x_assign(struct f9_state *s, int d, int b, uint32_t cells)
{
    const struct f9_rules *x = s->x;

    for (; cells; cells &= cells - 1) {
        const uint32_t c = 27 * (uint32_t)b + (uint32_t)__builtin_ctz(cells);
        for (int k = 0; k < 3; k++)
            f9_x_remove(s, d, k, x->peer[c][k]);
    }
}

/* Put d on the cells of band b, candidates of d in distinct rows and
 * columns: they leave every other digit, d leaves their columns in the
 * other bands; the words that lose a bit become dirty.  The caller deals
 * with the rest of d's rows and boxes in this band. */
static inline void f9_assign_cells(struct f9_state *s, int d, int b, uint32_t cells)
{
    uint32_t cols = F9_COL(0) * ((cells | cells >> 9 | cells >> 18) & 0x1ff);

    s->unsolved[b] &= ~cells;
    s->dirty |= (f9_clear_cell(s->cand[b], cells) & ~(1u << d)) << (9 * b);
    s->cand[b][d] |= cells;
    f9_remove(s, d, b == 0 ? 1 : 0, cols);
    f9_remove(s, d, b == 2 ? 1 : 2, cols);
    if (s->x && (cells & s->x->in_any[b]))
        f9_x_assign(s, d, b, cells & s->x->in_any[b]);
}

/* Put d on cell i of band b (see f9_assign_cells). */
static inline void f9_assign(struct f9_state *s, int d, int b, int i)
{
    f9_assign_cells(s, d, b, 1u << i);
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

/* Drop the minirows of cand[b][d] no row->box permutation can use.  Returns
 * the cells left alone in an open row (hidden singles: such a row's minirow
 * is in every permutation, so the rest of its row and box is already gone
 * and f9_assign_cells suffices), or ~0 on a contradiction.  It only reads
 * and writes this one word, so the words of a batch do not wait on each
 * other: one lookup per row gives the minirow set and the cells alone in
 * their minirow, one more the kept cells and the minirows every fitting
 * permutation uses (those alone in their row once the others are dropped). */
static inline uint32_t f9_shrink(struct f9_state *s, int d, int b)
{
    uint32_t x = s->cand[b][d];
    uint64_t info =
        f9_row_info[0][x & 0x1ff] | f9_row_info[1][(x >> 9) & 0x1ff] | f9_row_info[2][x >> 18];
    uint64_t keep = f9_keep[info >> 32];

    if (!(uint32_t)keep)
        return ~0u;
    s->cand[b][d] = x & (uint32_t)keep;
    s->rows[b][d] = f9_keep9[info >> 32];
    return x & (uint32_t)info & (uint32_t)(keep >> 32) & s->unsolved[b];
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
            int i = __builtin_ctz(single);
            uint32_t digits = f9_cell_digits(s->cand[b], single & -single);
            if (!digits || f9_place(s, __builtin_ctz(digits), b, i))
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

/* Spread the 9 column bits of a band word fold onto the stack-major triad
 * layout: stack s's matrix at bits 9s.., row = band (added by the caller). */
static inline uint32_t f9_spread(uint32_t f)
{
    return (f & 07) | (f & 070) << 6 | (f & 0700) << 12;
}

/* Count, bit-parallel over the 9 digit words w[], the bits set in >= 3 and
 * in >= 4 words. */
static inline void f9_count34(const uint32_t *w, uint32_t *three, uint32_t *four)
{
    uint32_t o = 0, t = 0, h = 0, f = 0;
    for (int d = 0; d < 9; d++) {
        f |= h & w[d];
        h |= t & w[d];
        t |= o & w[d];
        o |= w[d];
    }
    *three = h;
    *four = f;
}

/* The triads of m (three triad matrices) alone in their matrix row: where
 * the digit must be.  At a fixed point of the permutation rules that is
 * also every triad alone in its matrix column.  A matrix row without a
 * triad (a contradiction) is added to *holes; the others, all non-empty,
 * take one away without a borrow into the next. */
static inline uint32_t f9_sole_rows(uint32_t m, uint32_t *holes)
{
    const uint32_t ones = 0111111111u; /* bit 0 of each matrix row */
    uint32_t z = m & (m - ones);       /* rows with two triads or more keep some */

    *holes |= ~(m | m >> 1 | m >> 2) & ones;
    return m & ~(((z | z >> 1 | z >> 2) & ones) * 7);
}

/* Apply the triad rules to one 27-bit word of three triad matrices (9 bits
 * each) for every digit: tri[d] the triads that may hold d.  A triad holds
 * exactly 3 digits: one with 3 candidate digits gets them all, one with 3
 * forced digits loses the others.  Writes the reduced matrices to out[];
 * returns 1 if any changed, 0 if none, -1 on a contradiction. */
static int f9_triad_rule(const uint32_t *tri, uint32_t *out)
{
    uint32_t forced[9], c3, c4, f3, f4, exact, full, holes = 0;
    int changed = 0;

    f9_count34(tri, &c3, &c4);
    for (int d = 0; d < 9; d++)
        forced[d] = f9_sole_rows(tri[d], &holes);
    f9_count34(forced, &f3, &f4);
    if ((c3 != F9_BAND_ALL) | (f4 != 0) | (holes != 0))
        return -1;
    exact = c3 & ~c4 & ~f3; /* 3 candidates, not all forced yet */
    full = f3 & c4;         /* 3 forced, others still there */
    if (!(exact | full))
        return 0;
    for (int d = 0; d < 9; d++) {
        uint32_t m = tri[d], now = m;
        uint32_t must = forced[d] | (m & exact);
        if (m & exact)
            now &= ~(f9_block[must & 0x1ff] | (uint32_t)f9_block[(must >> 9) & 0x1ff] << 9 |
                     (uint32_t)f9_block[must >> 18] << 18);
        now &= ~(full & ~forced[d]);
        out[d] = now;
        changed |= now != m;
    }
    return changed;
}

/* Triad matrices of every digit at a fixed point, kept for the guess. */
struct f9_tri {
    uint32_t rows[9]; /* digit d: band b's minirows at bits 9b.. (bit 9b + 3r + k) */
    uint32_t cols[9]; /* digit d: stack k's minicolumns at bits 9k.. (9k + 3b + c) */
};

/* The triad rules on the minirows of every band; leaves the matrices in
 * rows[].  Returns 1 if it removed any candidate, 0 if none, -1 on a
 * contradiction. */
static int f9_triads_rows(struct f9_state *s, uint32_t *rows)
{
    uint32_t out[9];
    int r;

    for (int d = 0; d < 9; d++)
        rows[d] = s->rows[0][d] | (uint32_t)s->rows[1][d] << 9 | (uint32_t)s->rows[2][d] << 18;
    r = f9_triad_rule(rows, out);
    if (r <= 0)
        return r;
    for (int d = 0; d < 9; d++) {
        if (out[d] == rows[d])
            continue;
        for (int b = 0; b < 3; b++)
            f9_remove(s, d, b, ~f9_cells[(out[d] >> (9 * b)) & 0x1ff]);
    }
    return 1;
}

/* The triad rules on the minicolumns of every stack; leaves the matrices
 * in cols[].  Returns 1 if it removed any candidate, 0 if none, -1 on a
 * contradiction. */
static int f9_triads_cols(struct f9_state *s, uint32_t *cols)
{
    uint32_t out[9];
    int r;

    for (int d = 0; d < 9; d++)
        cols[d] = f9_spread(f9_fold(s->cand[0][d])) | f9_spread(f9_fold(s->cand[1][d])) << 3 |
                  f9_spread(f9_fold(s->cand[2][d])) << 6;
    r = f9_triad_rule(cols, out);
    if (r <= 0)
        return r;
    for (int d = 0; d < 9; d++) {
        uint32_t gone = cols[d] & ~out[d];
        for (int b = 0; gone && b < 3; b++) {
            uint32_t c = (gone >> (3 * b) & 7) | (gone >> (9 + 3 * b) & 7) << 3 |
                         (gone >> (18 + 3 * b) & 7) << 6;
            if (c)
                f9_remove(s, d, b, F9_COL(0) * c);
        }
    }
    return 1;
}

/* Shrink the dirty words in batches until none is left: every word dirty
 * now first, then the hidden singles they give, whose placements make the
 * next batch.  Shrinking before placing lets the shrinks of a batch run
 * side by side and keeps an unpredictable branch out of each; a placement
 * whose cell an earlier one of the batch took (two digits on one cell, or
 * one digit twice in a column) is a contradiction, the same as the shrink
 * of the emptied word would find.  Returns 1 if any word was dirty, 0 if
 * none, -1 on a contradiction. */
static int f9_shrink_dirty(struct f9_state *s)
{
    int progress = 0;

    for (uint32_t dirty; (dirty = s->dirty) != 0;) {
        uint32_t found[27]; /* cells | k << 27 for word k = 9b + d */
        int n = 0;

        s->dirty = 0;
        s->changed |= dirty;
        s->xchanged |= dirty;
        progress = 1;
        for (; dirty; dirty &= dirty - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(dirty), cells = f9_shrink(s, k % 9, k / 9);
            if (cells == ~0u)
                return -1;
            found[n] = cells | k << 27;
            n += cells != 0;
        }
        for (int i = 0; i < n; i++) {
            uint32_t cells = found[i] & F9_BAND_ALL, k = found[i] >> 27;
            int d = (int)(k % 9), b = (int)(k / 9);
            if ((s->cand[b][d] & cells) != cells)
                return -1;
            f9_assign_cells(s, d, b, cells);
        }
    }
    return progress;
}

/* Place and remove by the cheap rules until none applies: the shrink of
 * dirty words, naked singles, hidden singles in columns, column/box
 * interactions.  Returns 1 if anything changed, 0 if not, -1 on a
 * contradiction. */
static int f9_cheap(struct f9_state *s)
{
    int progress = 0;

    for (;;) {
        int r = f9_shrink_dirty(s);
        if (r < 0)
            return r;
        progress |= r;
        uint32_t changed = s->changed;
        s->changed = 0;
        r = f9_naked(s, changed);
        if (r < 0)
            return r;
        if (r > 0) {
            s->changed |= changed;
            continue;
        }
        uint32_t digits = (changed | changed >> 9 | changed >> 18) & 0x1ff;
        for (; digits; digits &= digits - 1) {
            int d = __builtin_ctz(digits);
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
            return progress;
    }
}

/* The extra houses (diagonals, windows), digit by digit: a digit with no
 * place left in one is a contradiction; with one open place it goes there
 * (a hidden single); with two or three, it leaves every cell that sees them
 * all, by a row, column, box or rule (locked candidates between the house
 * and the rest).  Returns 1 if it changed anything, 0 if not, -1 on a
 * contradiction. */
static int f9_x_houses(struct f9_state *s)
{
    const struct f9_rules *x = s->x;
    const uint32_t changed = s->xchanged;
    int progress = 0;

    s->xchanged = 0;
    for (uint32_t h = 0; h < x->houses; h++) {
        for (uint32_t ds = f9_fold(changed & x->bands[h]); ds; ds &= ds - 1) {
            const int d = __builtin_ctz(ds);
            const uint32_t w[3] = {s->cand[0][d] & x->house[h][0], s->cand[1][d] & x->house[h][1],
                                   s->cand[2][d] & x->house[h][2]};
            const uint32_t sum = w[0] + w[1] + w[2];
            uint32_t cell[4], n = 0;
            if (sum == s->xsum[h][d])
                continue; /* the same places as last looked at */
            s->xsum[h][d] = sum;
            if (h < F9_BILOCAL)
                s->bilocal &= ~(1ull << (9 * h + (uint32_t)d));
            if ((w[0] & ~s->unsolved[0]) | (w[1] & ~s->unsolved[1]) | (w[2] & ~s->unsolved[2]))
                continue; /* placed in the house */
            for (uint32_t b = 0; b < 3; b++)
                for (uint32_t m = w[b]; m && n < 4; m &= m - 1)
                    cell[n++] = 27 * b + (uint32_t)__builtin_ctz(m);
            if (n == 0)
                return -1;
            if (n > 3)
                continue;
            if (n == 1) {
                s->xchanged |= changed; /* the rest of this pass: next time */
                return f9_place(s, d, (int)(cell[0] / 27), (int)(cell[0] % 27)) ? -1 : 1;
            }
            if (h < F9_BILOCAL)
                s->bilocal |= (uint64_t)(n == 2) << (9 * h + (uint32_t)d);
            for (uint32_t k = 0; k < 3; k++) {
                uint32_t see = x->sees[cell[0]][k] & x->sees[cell[1]][k];
                if (n == 3)
                    see &= x->sees[cell[2]][k];
                progress |= (s->cand[k][d] & see) != 0;
                f9_x_remove(s, d, (int)k, see);
            }
        }
    }
    return progress;
}

/* Run every rule to a fixed point: the cheap rules, the extra houses (a
 * few words each, so before the triads), the triad rules (dearest of the
 * classic ones), the boxes' look into extra houses last; leaves the final
 * triad matrices in *tri.  Returns 0, or -1 on a contradiction. */
static int f9_propagate(struct f9_state *s, struct f9_tri *tri)
{
    for (;;) {
        int r = f9_cheap(s);
        if (r < 0)
            return r;
        if (s->x && s->x->houses) {
            r = f9_x_houses(s);
            if (r < 0)
                return r;
            if (r)
                continue;
        }
        r = f9_triads_rows(s, tri->rows);
        if (r < 0)
            return r;
        if (r)
            continue;
        r = f9_triads_cols(s, tri->cols);
        if (r <= 0)
            return r;
    }
}

/* ------------------------------------------------------------------------ */
/* Search.                                                                    */

/* Unsolved cells among the 20 peers of cell i of band b, and under variant
 * rules among its extra peers too. */
static inline int f9_open_peers(const struct f9_state *s, int b, int i)
{
    uint32_t col = f9_col[i];
    uint32_t other = (s->unsolved[b == 0 ? 1 : 0] & col) | (s->unsolved[b == 2 ? 1 : 2] & col) << 1;
    int n = (int)bm_popcount64((uint64_t)(s->unsolved[b] & f9_peers[i]) | (uint64_t)other << 32);

    if (s->x) {
        const uint32_t *p = s->x->peer[27 * b + i];
        n += (int)bm_popcount64((uint64_t)(s->unsolved[0] & p[0]) |
                                (uint64_t)(s->unsolved[1] & p[1]) << 27) +
             (int)bm_popcount32(s->unsolved[2] & p[2]);
    }
    return n;
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

    if (s->bilocal) {
        const uint32_t k = (uint32_t)__builtin_ctzll(s->bilocal), h = k / 9, d = k % 9;
        for (int b = 0; b < 3; b++) {
            const uint32_t w = s->cand[b][d] & s->x->house[h][b] & s->unsolved[b];
            if (w) {
                *band = b;
                *bit = __builtin_ctz(w);
                return 1u << d;
            }
        }
    }
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

/* A guess on how one digit sits in one band or stack: the first way, then
 * the others. */
struct f9_way_guess {
    int vertical;   /* 0: band b's minirows, 1: stack b's minicolumns */
    int b;          /* band or stack */
    int d;          /* digit */
    uint32_t first; /* 9-bit triad set of the way tried first */
    uint32_t rest;  /* union of the other ways that fit */
};

/* Pick a way guess: the band or stack with the least weight of ways over
 * its digits (F9_WEIGHT; not all fixed), in it the digit with the fewest
 * ways.  Returns 1 with *g set, or 0 when that digit has more than 3 ways
 * (the rest of its ways could cover the first: guess on a cell instead). */
static int f9_pick_way(const struct f9_tri *tri, struct f9_way_guess *g)
{
    const uint32_t *mats;
    uint32_t best = 0xff << 3, key;
    int bb, bd;

    /* Minima by key (weight << 3 | index) so that ties go to the first and
     * the compiler needs no branch: the guesses do not say which way. */
    for (uint32_t v = 0; v < 2; v++) {
        const uint32_t *m = v ? tri->cols : tri->rows;
        for (uint32_t b = 0; b < 3; b++) {
            uint32_t total = 0;
            for (int d = 0; d < 9; d++)
                total += f9_fits[(m[d] >> (9 * b)) & 0x1ff] >> 11;
            key = (total > 0 ? total : 0xffu) << 3 | (3 * v + b);
            best = key < best ? key : best;
        }
    }
    if (best >> 3 == 0xff)
        return 0;
    mats = (best & 7) >= 3 ? tri->cols : tri->rows;
    bb = (int)(best & 7) % 3;
    best = 7u << 4;
    for (uint32_t d = 0; d < 9; d++) {
        uint32_t n = f9_fits[(mats[d] >> (9 * bb)) & 0x1ff] >> 8 & 7;
        key = (n > 1 ? n : 7u) << 4 | d;
        best = key < best ? key : best;
    }
    if (best >> 4 > 3)
        return 0;
    bd = (int)(best & 15);
    uint32_t ways = f9_fits[(mats[bd] >> (9 * bb)) & 0x1ff] & 0x3f;
    g->vertical = mats == tri->cols;
    g->b = bb;
    g->d = bd;
    g->first = f9_way[__builtin_ctz(ways)];
    g->rest = 0;
    for (ways &= ways - 1; ways; ways &= ways - 1)
        g->rest |= f9_way[__builtin_ctz(ways)];
    return 1;
}

/* Keep digit g->d only in the triads of ways9 in g's band or stack. */
static void f9_restrict_way(struct f9_state *s, const struct f9_way_guess *g, uint32_t ways9)
{
    if (!g->vertical) {
        f9_remove(s, g->d, g->b, ~f9_cells[ways9]);
        return;
    }
    for (int b = 0; b < 3; b++) {
        uint32_t gone = 7 & ~(ways9 >> (3 * b));
        if (gone)
            f9_remove(s, g->d, b, (F9_COL(0) * gone) << (3 * g->b));
    }
}

/* Write the placed digits of a solved state as 81 row-major cells. */
static void f9_write(const struct f9_state *s, uint8_t *out)
{
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++)
            for (uint32_t x = s->cand[b][d]; x; x &= x - 1)
                out[27 * b + __builtin_ctz(x)] = (uint8_t)(d + 1);
}

/* Count the guess; poll the job every F9_POLL guesses.  Returns 1 to stop:
 * asked to, or the job's budget of guesses spent. */
static int f9_tick(struct f9_search *ctx)
{
    if (ctx->budget && ctx->guesses >= ctx->budget) {
        ctx->stop = SDK_EXHAUSTED;
        return 1;
    }
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
        struct f9_tri tri;
        if (f9_propagate(s, &tri))
            return;
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
            if (ctx->count++ == 0)
                f9_write(s, ctx->job->solution);
            return;
        }
        struct f9_way_guess g;
        if ((!s->x || s->x->ways) && f9_pick_way(&tri, &g)) {
            if (f9_tick(ctx))
                return;
            struct f9_state t = *s;
            f9_restrict_way(&t, &g, g.first);
            f9_search(ctx, &t);
            if (f9_done(ctx))
                return;
            f9_restrict_way(s, &g, g.rest);
            continue;
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

/* Add the 9 cells of a house (row-major indices) to m, by band. */
static void f9_x_cells(const uint16_t *cells, uint32_t m[3])
{
    for (uint32_t i = 0; i < 9; i++)
        m[cells[i] / 27] |= 1u << (cells[i] % 27);
}

/* Add the house of 9 cells (row-major indices) to x. */
static void f9_x_add(struct f9_rules *x, const uint16_t *cells)
{
    const uint32_t h = x->houses++;

    f9_x_cells(cells, x->house[h]);
    for (uint32_t k = 0; k < 3; k++) {
        x->bands[h] |= x->house[h][k] ? 0x1ffu << (9 * k) : 0;
        x->in_any[k] |= x->house[h][k];
        for (uint32_t i = 0; i < 9; i++)
            x->peer[cells[i]][k] |= x->house[h][k]; /* the cell itself: cleared below */
    }
}

/* Is r a table the band solver can take: only BM_FAST9_RULES, the rows
 * and columns first (the boxes after them are the square ones: the band
 * rules assume them and never read them), at most 6 extra houses of cells
 * inside the grid, no pairs?  1 or 0.  A job's fixed cost, so it checks
 * only what the solver reads: no count of houses a cell. */
static int f9_x_ok(const struct sdk_rules *r)
{
    uint32_t out = 0;

    if (!sdk_rules_head_ok(r, 9, BM_FAST9_RULES) || !r->houses || r->houses_len < 27 ||
        r->houses_len > 27 + 6 || r->differ_len || r->nonconsec_len ||
        !sdk_rules_rows_cols_first(r, 9))
        return 0;
    for (uint32_t k = 27 * 9; k < r->houses_len * 9; k++)
        out |= r->houses[k] >= 81;
    return !out;
}

/* Read rules into x.  Returns 0, or -1 when the table is not one the band
 * solver can take (f9_x_ok). */
static int f9_x_build(const struct sdk_rules *r, struct f9_rules *x)
{
    if (!f9_x_ok(r))
        return -1;
    memset(x->peer, 0, sizeof(x->peer)); /* sees: only in_any's */
    memset(x->house, 0, sizeof(x->house));
    memset(x->bands, 0, sizeof(x->bands));
    memset(x->in_any, 0, sizeof(x->in_any));
    x->houses = 0;
    for (uint32_t h = 27; h < r->houses_len; h++)
        f9_x_add(x, r->houses + h * 9);
    if (r->kinds & SDK_RULE_WINDOWS) {
        uint16_t implied[SDK_MAX_IMPLIED * 9];
        for (uint32_t h = 0, len = sdk_windows_implied(9, implied); h < len; h++)
            f9_x_add(x, implied + h * 9);
    }
    x->ways = r->kinds == SDK_RULE_WINDOWS;
    /* Only the cells of an extra house have extra peers, and only they are
     * ever looked up in sees (f9_x_houses lists places in a house). */
    for (uint32_t b = 0; b < 3; b++)
        for (uint32_t m = x->in_any[b]; m; m &= m - 1) {
            const uint32_t i = (uint32_t)__builtin_ctz(m), c = 27 * b + i;
            x->peer[c][b] &= ~(1u << i);
            for (uint32_t k = 0; k < 3; k++)
                x->sees[c][k] = x->peer[c][k] | (k == b ? f9_peers[i] : f9_col[i]);
        }
    return 0;
}

int bm_fast9_solve(struct sdk_job *job, const struct sdk_rules *rules)
{
    struct f9_search ctx = {
        .job = job, .limit = job->limit, .budget = sdk_job_max_guesses(job), .poll = F9_POLL};
    struct f9_rules x;
    struct f9_state s;

    job->count = 0;
    job->guesses = 0;
    f9_init(&s);
    if (rules) {
        if (f9_x_build(rules, &x) != 0)
            return SDK_FAILED;
        s.x = &x;
        memset(s.xsum, 0xff, sizeof(s.xsum)); /* no set of places sums to ~0 */
    }
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
