/* branch9.c -- a 9x9 forcing branch on bitboards: singles and locked candidates.
 *
 * forcing.c's branches on 9x9 grids run here instead of on a candidate mask
 * a cell.  The position is one bitboard a value: bit i says that cell i
 * holds the value as a candidate, or is solved with it (a solved cell keeps
 * its value's bit alone).  The 81 cells lie row-major in three words of 27
 * bits, one a band of three rows, so that a row or a box is a field of one
 * word and a column is the same three bits of each word:
 *
 *     word b, bit 9 * r + c  =  cell (3 * b + r, c),   r < 3, c < 9
 *
 *     row r of a band: 0x1ff << 9r    box j of a band: 0x1c0e07 << 3j
 *     column c, in each word: 0x40201 << c
 *
 * lg_b9_deduce() applies, until nothing changes, naked and hidden singles
 * (all those of a pass at once) and, when asked, locked candidates
 * (pointing and claiming, from rows and from columns).  Every rule only
 * removes candidates, and a rule that held keeps holding as more go, so
 * what is left is the closure of the start under the rules, whatever the
 * order: the same as forcing.c's generic branch on any n (tests compare
 * the two).  A contradiction (a cell without a candidate, or a value
 * without a place in a unit) is found at the next pass, and stays: the
 * closure of a broken start is broken.  No globals but constant tables.
 */
#include <string.h>

#include "lg.h"

#define B9_FULL   0x7ffffffu  /* the 27 cells of a band */
#define B9_ROW    0x1ffu      /* row 0 of a band */
#define B9_BOX    0x1c0e07u   /* box 0 of a band */
#define B9_COL    0x40201u    /* column 0 of a band */
#define B9_SEGS   0x1249249u  /* the low bit of each 3-cell segment */
#define B9_UNSEEN 0xffffffffu /* a seen band before the first look: no band is */

/* The unit cells of (band, bit k): row and box in its band, column in all. */
static uint32_t row_of(uint32_t k)
{
    return B9_ROW << (k / 9 * 9);
}

static uint32_t box_of(uint32_t k)
{
    return B9_BOX << (k % 9 / 3 * 3);
}

/* Load a 9x9 position. */
void lg_b9_load(struct lg_b9 *b, const struct lg_grid *g)
{
    for (uint32_t v = 0; v < 9; v++)
        b->p[v][0] = b->p[v][1] = b->p[v][2] = 0;
    for (uint32_t i = 0; i < 81; i++) {
        uint32_t m = g->val[i] ? 1u << (g->val[i] - 1) : g->cand[i];
        for (; m; m &= m - 1)
            b->p[lg_lowest(m)][i / 27] |= 1u << (i % 27);
    }
    for (uint32_t w = 0; w < 3; w++) {
        b->solved[w] = 0;
        for (uint32_t k = 0; k < 27; k++)
            b->solved[w] |= (uint32_t)(g->val[w * 27 + k] != 0) << k;
    }
    /* No band is B9_UNSEEN (27 bits): every value is to be looked at. */
    memset(b->hs_seen, 0xff, sizeof(b->hs_seen));
    memset(b->lk_seen, 0xff, sizeof(b->lk_seen));
}

/* Say that b is closed: no single and no locked candidate left, so only
 * the values whose cells change from here need looking at again. */
void lg_b9_seen(struct lg_b9 *b)
{
    memcpy(b->hs_seen, b->p, sizeof(b->p));
    memcpy(b->lk_seen, b->p, sizeof(b->p));
}

/* Has board p changed since seen? */
static bool moved(const uint32_t p[3], const uint32_t seen[3])
{
    return ((p[0] ^ seen[0]) | (p[1] ^ seen[1]) | (p[2] ^ seen[2])) != 0;
}

/* Solve cell with value v (1..9): the cell loses its other values, its
 * peers lose v.  A cell that had lost v already ends up empty, which the
 * next pass of lg_b9_deduce() reports. */
void lg_b9_place(struct lg_b9 *b, uint32_t cell, uint32_t v)
{
    const uint32_t w = cell / 27, k = cell % 27, bit = 1u << k, d = v - 1;
    const uint32_t keep = b->p[d][w] & bit;

    for (uint32_t e = 0; e < 9; e++)
        b->p[e][w] &= ~bit;
    for (uint32_t x = 0; x < 3; x++)
        b->p[d][x] &= ~(B9_COL << (k % 9));
    b->p[d][w] &= ~(row_of(k) | box_of(k));
    b->p[d][w] |= keep;
    b->solved[w] |= bit;
}

/* Within each row of a band (positions 0, 9, 18), or each box of a row
 * (0, 3, 6): the other two members of each group, moved onto each
 * member's place.  s holds one bit a member, at its group's low bit. */
static uint32_t others3(uint32_t s, uint32_t step, uint32_t m0)
{
    const uint32_t m1 = m0 << step, m2 = m0 << 2 * step;

    return ((s >> step | s >> 2 * step) & m0) | ((s << step | s >> step) & m1) |
           ((s << 2 * step | s << step) & m2);
}

/* Of three bit sets, where at least one and where at least two hold. */
static uint32_t two_of3(uint32_t a, uint32_t b, uint32_t c)
{
    return (a & b) | (a & c) | (b & c);
}

/* The hidden singles of value band q (one word of a bitboard) in its rows
 * and boxes, added to *x, three rows and three boxes at a time: a row
 * (box) has a single place when one segment (one column) of it has the
 * value and that one only once.  Returns -1 when a row or box has no place
 * for it. */
static int hidden_band(uint32_t q, uint32_t *x)
{
    const uint32_t a = q & B9_ROW, b = q >> 9 & B9_ROW, c = q >> 18;
    const uint32_t seg = (q | q >> 1 | q >> 2) & B9_SEGS;
    const uint32_t seg2 = two_of3(q, q >> 1, q >> 2) & B9_SEGS;
    const uint32_t row = (seg | seg >> 3 | seg >> 6) & B9_COL;
    const uint32_t row2 =
        (seg2 | seg2 >> 3 | seg2 >> 6 | two_of3(seg, seg >> 3, seg >> 6)) & B9_COL;
    const uint32_t col = a | b | c, col2 = two_of3(a, b, c);
    const uint32_t box = (col | col >> 1 | col >> 2) & 0x49u;
    const uint32_t box2 = (col2 | col2 >> 1 | col2 >> 2 | two_of3(col, col >> 1, col >> 2)) & 0x49u;

    if (row != B9_COL || box != 0x49u)
        return -1;
    *x |= q & (((row & ~row2) * B9_ROW) | ((box & ~box2) * 7u * B9_COL));
    return 0;
}

/* The hidden singles of p in columns, added to x: per band, which columns
 * hold the value at all and which more than once, nine columns at a time.
 * Returns -1 when a column has no place for it. */
static int hidden_cols(const uint32_t p[3], uint32_t x[3])
{
    uint32_t any[3], once = 0, more = 0;

    for (uint32_t w = 0; w < 3; w++) {
        const uint32_t a = p[w] & B9_ROW, b = p[w] >> 9 & B9_ROW, c = p[w] >> 18;
        any[w] = a | b | c;
        more |= two_of3(a, b, c) | (once & any[w]);
        once |= any[w];
    }
    if (once != B9_ROW)
        return -1;
    for (uint32_t w = 0; w < 3; w++)
        x[w] |= p[w] & ((any[w] & ~more) * B9_COL);
    return 0;
}

/* The hidden singles of value v into x[v], looking only where its cells
 * changed since hs_seen (they alone decide).  Returns 0 or -1. */
static int hidden(struct lg_b9 *b, uint32_t v, uint32_t x[3])
{
    const uint32_t *p = b->p[v];
    uint32_t *seen = b->hs_seen[v];

    if (!moved(p, seen))
        return 0;
    for (uint32_t w = 0; w < 3; w++)
        if (p[w] != seen[w] && hidden_band(p[w], &x[w]) != 0)
            return -1;
    if (hidden_cols(p, x) != 0)
        return -1;
    memcpy(seen, p, sizeof(b->p[v]));
    return 0;
}

/* One pass of singles: every naked and hidden single of the position into
 * x[v] (cells to solve with v + 1).  Returns 1 when there are some, 0 when
 * none, -1 on a contradiction. */
static int singles_find(struct lg_b9 *b, uint32_t x[9][3])
{
    uint32_t one[3] = {0}, two[3] = {0}, todo = 0;

    for (uint32_t v = 0; v < 9; v++)
        for (uint32_t w = 0; w < 3; w++) {
            two[w] |= one[w] & b->p[v][w];
            one[w] |= b->p[v][w];
        }
    for (uint32_t w = 0; w < 3; w++) {
        if (one[w] != B9_FULL)
            return -1;
        one[w] &= ~two[w] & ~b->solved[w]; /* the naked singles */
    }
    for (uint32_t v = 0; v < 9; v++) {
        for (uint32_t w = 0; w < 3; w++)
            x[v][w] = one[w] & b->p[v][w];
        if (hidden(b, v, x[v]) != 0)
            return -1;
        for (uint32_t w = 0; w < 3; w++) {
            x[v][w] &= ~b->solved[w];
            todo |= x[v][w];
        }
    }
    return todo != 0;
}

/* Singles until none is left.  Returns 0 or -1. */
static int singles(struct lg_b9 *b)
{
    uint32_t x[9][3];
    int rc;

    while ((rc = singles_find(b, x)) > 0)
        for (uint32_t v = 0; v < 9; v++)
            for (uint32_t w = 0; w < 3; w++)
                for (uint32_t m = x[v][w]; m; m &= m - 1)
                    lg_b9_place(b, w * 27 + lg_lowest(m), v + 1);
    return rc;
}

/* Locked candidates of one value in the rows of one band p.  seg holds a
 * bit a row segment (a row's cells in one box) that has the value, at the
 * segment's low cell.  A box with it in one segment only takes it from the
 * rest of that row (pointing); a row with it in one segment only takes it
 * from the rest of that box (claiming).  Returns the new band. */
static uint32_t lock_rows(uint32_t p)
{
    const uint32_t seg = (p | p >> 1 | p >> 2) & B9_SEGS;
    const uint32_t in_box = seg & ~others3(seg, 9, 0x1ffu); /* the box's only segment */
    const uint32_t in_row = seg & ~others3(seg, 3, B9_COL); /* the row's only segment */
    const uint32_t gone = others3(in_box, 3, B9_COL) | others3(in_row, 9, 0x1ffu);

    return p & ~(gone * 7u);
}

/* Locked candidates of one value p in columns: any[w] holds the columns
 * that have it in band w.  A box with it in one column only takes it from
 * that column's other bands; a column with it in one band only takes it
 * from the rest of that box. */
static void lock_cols(uint32_t p[3])
{
    uint32_t any[3];

    for (uint32_t w = 0; w < 3; w++)
        any[w] = (p[w] | p[w] >> 9 | p[w] >> 18) & B9_ROW;
    for (uint32_t w = 0; w < 3; w++) {
        const uint32_t w1 = (w + 1) % 3, w2 = (w + 2) % 3;
        const uint32_t in_box = any[w] & ~others3(any[w], 1, 0x49u);
        const uint32_t in_band = any[w] & ~any[w1] & ~any[w2];
        p[w1] &= ~(in_box * B9_COL);
        p[w2] &= ~(in_box * B9_COL);
        p[w] &= ~(others3(in_band, 1, 0x49u) * B9_COL);
    }
}

/* The row segments (a row's cells in one box) of band q that hold the
 * value, and the columns that do.  The locks of a band's rows depend on
 * its segments alone (what they ask and what they would remove), those of
 * columns on the columns of each band: while those stay as they were when
 * last looked at, there is nothing new to find. */
static uint32_t segs(uint32_t q)
{
    return (q | q >> 1 | q >> 2) & B9_SEGS;
}

static uint32_t cols(uint32_t q)
{
    return (q | q >> 9 | q >> 18) & B9_ROW;
}

/* Locked candidates of every value, rows then columns.  Returns true when
 * a candidate went. */
static bool locks(struct lg_b9 *b)
{
    bool changed = false;

    for (uint32_t v = 0; v < 9; v++) {
        uint32_t *p = b->p[v];
        if (!moved(p, b->lk_seen[v]))
            continue; /* its own cells alone decide: looked at already */
        const uint32_t old[3] = {p[0], p[1], p[2]}, *seen = b->lk_seen[v];
        for (uint32_t w = 0; w < 3; w++)
            if (seen[w] == B9_UNSEEN || segs(p[w]) != segs(seen[w]))
                p[w] = lock_rows(p[w]);
        if (seen[0] == B9_UNSEEN || cols(p[0]) != cols(seen[0]) || cols(p[1]) != cols(seen[1]) ||
            cols(p[2]) != cols(seen[2]))
            lock_cols(p);
        changed |= moved(p, old);
        /* What was looked at is old: the cells left may lock again. */
        memcpy(b->lk_seen[v], old, sizeof(b->lk_seen[v]));
    }
    return changed;
}

/* Deduce from b: singles and (dynamic) locked candidates until nothing
 * changes.  Returns 0, or -1 when b breaks the grid. */
int lg_b9_deduce(struct lg_b9 *b, bool dynamic)
{
    for (;;) {
        if (singles(b) != 0)
            return -1;
        if (!dynamic || (b->solved[0] & b->solved[1] & b->solved[2]) == B9_FULL)
            return 0;
        if (!locks(b))
            return 0;
    }
}
