/* grid.c -- rules of the game: checking givens and solutions.
 *
 * Every answer a plugin returns passes through grid_check_solution() before
 * anyone sees it, so the common case (a right answer) is built for speed:
 * givens compared eight cells at a time, then one pass OR-ing a bit per
 * value into a mask per row, column and box, compiled per side so that no
 * division is left; a unit is right when its mask is exactly the n values.
 * No allocation, no data-dependent branch.  Only when the fast pass fails do
 * we walk the grid again, slowly and in a fixed order (range, blanks,
 * givens, rows, columns, boxes), to name the first problem in words a user
 * can act on.
 *
 * Givens take the same road: one branch-free pass, repeats gathered in one
 * mask, compiled per side.
 *
 * On x86-64 (SSE2) a 9x9 grid, the common size, takes a road of its own:
 * pairs of cells compared 16 at a time, about 420 instructions for givens or
 * for a solution, half or less of the general pass.
 *
 * Coordinates in messages are 1-based; boxes are numbered row-major from the
 * top left.  Values are printed as numbers, even for 16x16 and 25x25.
 * Thread-safe: the only static data is constant.
 */
#include "core/grid.h"

#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <sudoku/plugin.h>

/* Format an error into err (when the caller wants one) and return -EINVAL.
 * core/ sees nothing but the ABI, so it keeps this small copy of the
 * pattern util/errtext.c gives the layers above. */
__attribute__((format(printf, 3, 4))) static int grid_fail(char *err, size_t err_size,
                                                           const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

enum unit_kind { UNIT_ROW, UNIT_COL, UNIT_BOX };

/* A value seen twice in one unit: the value and the two cell indexes. */
struct dup {
    unsigned value;
    unsigned first;
    unsigned second;
};

/* Index of the i-th cell (0..n-1) of unit u of the given kind. */
static unsigned unit_cell(unsigned n, enum unit_kind kind, unsigned u, unsigned i)
{
    unsigned b;

    if (kind == UNIT_ROW)
        return u * n + i;
    if (kind == UNIT_COL)
        return i * n + u;
    b = sdk_box_side(n);
    return ((u / b) * b + i / b) * n + (u % b) * b + i % b;
}

/* Look for a value (1..n) that occurs twice in one unit.  Blanks and values
 * out of range are ignored here.  Returns 1 and fills *d, or 0. */
static int unit_find_dup(unsigned n, const uint8_t *cells, enum unit_kind kind, unsigned u,
                         struct dup *d)
{
    unsigned where[SDK_MAX_N + 1];
    uint32_t seen = 0;

    for (unsigned i = 0; i < n; i++) {
        unsigned idx = unit_cell(n, kind, u, i), v = cells[idx];

        if (v == 0 || v > n)
            continue;
        if (seen & (1u << v)) {
            d->value = v;
            d->first = where[v];
            d->second = idx;
            return 1;
        }
        seen |= 1u << v;
        where[v] = idx;
    }
    return 0;
}

static int report_dup(unsigned n, enum unit_kind kind, unsigned u, const struct dup *d, char *err,
                      size_t err_size)
{
    unsigned r1 = d->first / n + 1, c1 = d->first % n + 1;
    unsigned r2 = d->second / n + 1, c2 = d->second % n + 1;

    if (kind == UNIT_ROW)
        return grid_fail(err, err_size, "row %u has two %us (columns %u and %u)", u + 1, d->value,
                         c1, c2);
    if (kind == UNIT_COL)
        return grid_fail(err, err_size, "column %u has two %us (rows %u and %u)", u + 1, d->value,
                         r1, r2);
    return grid_fail(err, err_size, "box %u has two %us (cells r%uc%u and r%uc%u)", u + 1, d->value,
                     r1, c1, r2, c2);
}

/* Name the first duplicate, looking at rows, then columns, then boxes.
 * Returns -EINVAL with the message, or 0 when there is none. */
static int report_first_dup(unsigned n, const uint8_t *cells, char *err, size_t err_size)
{
    static const enum unit_kind kinds[] = {UNIT_ROW, UNIT_COL, UNIT_BOX};
    struct dup d;
    unsigned k, u;

    for (k = 0; k < 3; k++) {
        for (u = 0; u < n; u++) {
            if (unit_find_dup(n, cells, kinds[k], u, &d))
                return report_dup(n, kinds[k], u, &d, err, err_size);
        }
    }
    return 0;
}

/* 1 << v for the values 1..25, 0 for anything else: a blank or a value out
 * of range then leaves a hole in, or sets a bit beyond, a unit's mask. */
#define B(v) [v] = 1u << (v)
static const uint32_t value_bits[256] = {
    B(1),  B(2),  B(3),  B(4),  B(5),  B(6),  B(7),  B(8),  B(9),  B(10), B(11), B(12), B(13),
    B(14), B(15), B(16), B(17), B(18), B(19), B(20), B(21), B(22), B(23), B(24), B(25),
};
#undef B

/* High bit of each byte of x set when that byte is nonzero. */
static uint64_t bytes_nonzero(uint64_t x)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu;

    return (((x & low7) + low7) | x) & ~low7;
}

/* Fast pass for solutions, part one: 1 when every given of puzzle is kept.
 * Eight cells at a time: a given is broken where its byte is nonzero and
 * differs from the solution's. */
static int givens_are_kept(unsigned n, const uint8_t *puzzle, const uint8_t *solution)
{
    unsigned i = 0, cells = n * n;
    uint64_t p, s, bad = 0;

    for (; i + 8 <= cells; i += 8) {
        memcpy(&p, puzzle + i, 8);
        memcpy(&s, solution + i, 8);
        bad |= bytes_nonzero(p) & bytes_nonzero(p ^ s);
    }
    for (; i < cells; i++)
        bad |= (puzzle[i] != 0) & (puzzle[i] != solution[i]);
    return bad == 0;
}

/* Part two: 1 when every unit holds all n values.  A unit has n cells, so
 * holding all n values means each exactly once and none out of range: no
 * per-cell test, only the masks at the end.  A row is taken b cells (one
 * box's width) at a time: the segment's mask goes into the row's (kept in a
 * register) and the box's, and only the columns are updated per cell.
 * Inlined per side, so that with n and b constant the loops have fixed
 * trip counts and no division. */
static inline __attribute__((always_inline)) int units_full(unsigned n, unsigned b,
                                                            const uint8_t *solution)
{
    uint32_t cols[SDK_MAX_N] = {0}, boxes[SDK_MAX_N] = {0};
    uint32_t full = ((1u << n) - 1) << 1, bad = 0;

    for (unsigned r = 0; r < n; r++) {
        const uint8_t *row = solution + r * n;
        uint32_t row_mask = 0;

        for (unsigned bc = 0; bc < b; bc++) {
            uint32_t seg = 0;
            for (unsigned k = 0; k < b; k++) {
                uint32_t bit = value_bits[row[bc * b + k]];
                seg |= bit;
                cols[bc * b + k] |= bit;
            }
            boxes[(r / b) * b + bc] |= seg;
            row_mask |= seg;
        }
        bad |= row_mask ^ full;
    }
    for (unsigned i = 0; i < n; i++)
        bad |= (cols[i] ^ full) | (boxes[i] ^ full);
    return bad == 0;
}

/* 1 << v for the values 1..25, 0 for a blank and bit 31 for 26..255: a
 * value above n then sets a bit beyond a full unit's mask. */
#define G(v) [v] = 1u << (v)
/* clang-format off */
static const uint32_t given_bits[256] = {
    G(1),  G(2),  G(3),  G(4),  G(5),  G(6),  G(7),  G(8),  G(9),  G(10), G(11), G(12), G(13),
    G(14), G(15), G(16), G(17), G(18), G(19), G(20), G(21), G(22), G(23), G(24), G(25),
    [26 ... 255] = 1u << 31,
};
/* clang-format on */
#undef G

/* Fast pass for givens: 1 when every cell is in 0..n and no value 1..n
 * repeats in a unit, else 0.  No per-cell branch: every bit already in the
 * row, column or box it lands in is added to one mask of repeats, and a
 * value out of range shows as a bit beyond the full mask in the OR of the
 * rows.  Taken b cells at a time like units_full(), inlined per side. */
static inline __attribute__((always_inline)) int givens_clean_side(unsigned n, unsigned b,
                                                                   const uint8_t *cells)
{
    uint32_t cols[SDK_MAX_N] = {0}, boxes[SDK_MAX_N] = {0};
    uint32_t full = ((1u << n) - 1) << 1, dup = 0, all = 0;

    for (unsigned r = 0; r < n; r++) {
        const uint8_t *row = cells + r * n;
        uint32_t row_mask = 0;

        for (unsigned bc = 0; bc < b; bc++) {
            uint32_t *box = &boxes[(r / b) * b + bc];
            uint32_t seen = row_mask | *box, seg = 0;
            for (unsigned k = 0; k < b; k++) {
                uint32_t bit = given_bits[row[bc * b + k]];
                dup |= (seen | seg | cols[bc * b + k]) & bit;
                seg |= bit;
                cols[bc * b + k] |= bit;
            }
            *box |= seg;
            row_mask |= seg;
        }
        all |= row_mask;
    }
    return dup == 0 && (all & ~full) == 0;
}

#if defined(__SSE2__)
/* The 9x9 fast passes, 16 cells at a time, about 420 instructions each.  A
 * repeat is found by comparing the grid with itself moved by an offset: cell
 * i against cell i + off.  Offsets 9k pair cells of one column only; offsets
 * 1..8 pair cells of one row or of two adjacent rows; offsets 9dr + dc (dr
 * 1..2, dc +-1..2) pair the cells of a box in different rows and columns,
 * and some cells of nearby boxes.  Unwanted pairs are kept apart by a tint
 * added to each cell: 16 times the row's parity for the row offsets, 16
 * times a box colour for the box offsets (colours 0..5, the bottom band
 * taking the top band's, which no offset reaches).  A value 1..9 plus a
 * multiple of 16 up to 80 keeps the value in its low nibble, so two tinted
 * cells in range are equal exactly when their values and tints are.
 *
 * Each tinted grid lives in a 96-byte buffer: the 81 cells, then 0xff, so a
 * compare may run past cell 80.  A blank becomes 0x80 plus its index, equal
 * to no other cell and to no padding, so blanks never repeat.  The answers
 * count only when every cell is in range: out of range, a value may seem to
 * repeat, but the range check has failed already. */
#define T3(a)         a, a, a
#define T9(a)         T3(a), T3(a), T3(a)
#define BAND(a, b, c) T3(a), T3(b), T3(c), T3(a), T3(b), T3(c), T3(a), T3(b), T3(c)
static alignas(16) const uint8_t row_tint[96] = {T9(0),  T9(16), T9(0),  T9(16), T9(0),
                                                 T9(16), T9(0),  T9(16), T9(0)};
static alignas(16) const uint8_t box_tint[96] = {BAND(0, 16, 32), BAND(48, 64, 80),
                                                 BAND(0, 16, 32)};
/* A blank's mark: 0x80 + its index, unlike any other cell, tinted or not. */
#define K4(i)  0x80 + (i), 0x81 + (i), 0x82 + (i), 0x83 + (i)
#define K16(i) K4(i), K4(i + 4), K4(i + 8), K4(i + 12)
static alignas(16) const uint8_t blank_mark[96] = {K16(0),  K16(16), K16(32),
                                                   K16(48), K16(64), 0xd0};
#undef K16
#undef K4
#undef BAND
#undef T9
#undef T3

static __m128i load16(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* The same for p on a 16-byte boundary. */
static __m128i load16a(const uint8_t *p)
{
    return _mm_load_si128((const __m128i *)(const void *)p);
}

/* The 81 cells of g in v[0..5]: cells 0..79, then cell 80 and 15 bytes of
 * 0xff.  *tail gets cells 65..80.  Reads nothing past g[80]. */
static inline __attribute__((always_inline)) void load9(const uint8_t *g, __m128i v[6],
                                                        __m128i *tail)
{
#pragma GCC unroll 5
    for (unsigned m = 0; m < 5; m++)
        v[m] = load16(g + 16 * m);
    *tail = load16(g + 65);
    v[5] = _mm_or_si128(_mm_srli_si128(*tail, 15), _mm_slli_si128(_mm_set1_epi8(-1), 1));
}

/* 1 when every cell is at most 9 and, if lo, at least 1. */
static inline __attribute__((always_inline)) int in_range9(const __m128i v[6], __m128i tail, int lo)
{
    __m128i hi = tail, low = tail, bad;

#pragma GCC unroll 5
    for (unsigned m = 0; m < 5; m++) {
        hi = _mm_max_epu8(hi, v[m]);
        low = _mm_min_epu8(low, v[m]);
    }
    bad = _mm_subs_epu8(hi, _mm_set1_epi8(9));
    if (lo)
        bad = _mm_or_si128(bad, _mm_cmpeq_epi8(low, _mm_setzero_si128()));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xffff;
}

/* Cells 16m..16m+15 of the tinted grid b equal to the cell off further
 * on, OR-ed into acc, if any of them has a cell off further on. */
static inline __attribute__((always_inline)) __m128i
repeats_at(__m128i acc, __m128i a, const uint8_t *b, unsigned m, unsigned off)
{
    if (16 * m + off > 80)
        return acc;
    acc = _mm_or_si128(acc, _mm_cmpeq_epi8(a, load16(b + 16 * m + off)));
    /* One chain: left alone, GCC splits it into trees, each costing a copy. */
    __asm__("" : "+x"(acc));
    return acc;
}

/* Cell m*16 + k (for m in 0..5) of t: the cell plus its tint, or if the
 * cell is blank and blanks, its mark. */
static inline __attribute__((always_inline)) void tint9(uint8_t *t, const uint8_t *tint,
                                                        __m128i cell, __m128i mark, int blanks)
{
    __m128i x = tint != NULL ? _mm_add_epi8(cell, load16a(tint)) : cell;

    _mm_store_si128((__m128i *)(void *)t, blanks ? _mm_max_epu8(x, mark) : x);
}

/* 1 when no value repeats in a row, column or box of the 9x9 grid v (from
 * load9), provided every cell is 0..9; blanks says whether it may hold
 * blanks (if not, a blank counts as a repeat). */
static inline __attribute__((always_inline)) int no_repeats9(const __m128i v[6], int blanks)
{
    alignas(16) uint8_t xt[96], yt[96], zt[96];
    __m128i acc = _mm_setzero_si128();

#pragma GCC unroll 6
    for (unsigned m = 0; m < 6; m++) {
        __m128i blank = _mm_cmpeq_epi8(v[m], _mm_setzero_si128());
        __m128i mark = _mm_and_si128(blank, load16a(blank_mark + 16 * m));

        tint9(xt + 16 * m, NULL, v[m], mark, blanks);
        tint9(yt + 16 * m, row_tint + 16 * m, v[m], mark, blanks);
        tint9(zt + 16 * m, box_tint + 16 * m, v[m], mark, blanks);
    }
#pragma GCC unroll 5
    for (unsigned m = 0; m < 5; m++) {
        __m128i x = load16a(xt + 16 * m), y = load16a(yt + 16 * m), z = load16a(zt + 16 * m);

#pragma GCC unroll 8
        for (unsigned k = 1; k <= 8; k++) {
            acc = repeats_at(acc, x, xt, m, 9 * k);
            acc = repeats_at(acc, y, yt, m, k);
        }
#pragma GCC unroll 2
        for (unsigned dr = 1; dr <= 2; dr++) {
            acc = repeats_at(acc, z, zt, m, 9 * dr - 2);
            acc = repeats_at(acc, z, zt, m, 9 * dr - 1);
            acc = repeats_at(acc, z, zt, m, 9 * dr + 1);
            acc = repeats_at(acc, z, zt, m, 9 * dr + 2);
        }
    }
    return _mm_movemask_epi8(acc) == 0;
}

static int givens_clean9(const uint8_t *cells)
{
    __m128i v[6], tail;

    load9(cells, v, &tail);
    return in_range9(v, tail, 0) && no_repeats9(v, 1);
}

/* 1 when no given of puzzle (from load9) differs from solution s: per
 * cell, min(p, p ^ s) is 0 exactly when p is blank or p == s. */
static int givens_kept9(const uint8_t *puzzle, const __m128i s[6], __m128i s_tail)
{
    __m128i bad, p = load16(puzzle + 65);

    bad = _mm_min_epu8(p, _mm_xor_si128(p, s_tail));
#pragma GCC unroll 5
    for (unsigned m = 0; m < 5; m++) {
        p = load16(puzzle + 16 * m);
        bad = _mm_or_si128(bad, _mm_min_epu8(p, _mm_xor_si128(p, s[m])));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xffff;
}

/* Every cell 1..9 and no repeat: then each unit, nine cells holding nine
 * different values of 1..9, holds each value once. */
static int solution_clean9(const uint8_t *puzzle, const uint8_t *solution)
{
    __m128i v[6], tail;

    load9(solution, v, &tail);
    if (!in_range9(v, tail, 1))
        return 0;
    if (puzzle != NULL && !givens_kept9(puzzle, v, tail))
        return 0;
    return no_repeats9(v, 0);
}
#endif

static int givens_are_clean(unsigned n, const uint8_t *cells)
{
    switch (n) {
    case 4:
        return givens_clean_side(4, 2, cells);
    case 9:
#if defined(__SSE2__)
        return givens_clean9(cells);
#else
        return givens_clean_side(9, 3, cells);
#endif
    case 16:
        return givens_clean_side(16, 4, cells);
    default:
        return givens_clean_side(25, 5, cells);
    }
}

/* The identical-looking cases are the point: each inlines units_full() with
 * constant n and b. */
static int solution_is_clean(unsigned n, const uint8_t *puzzle, const uint8_t *solution)
{
#if defined(__SSE2__)
    if (n == 9)
        return solution_clean9(puzzle, solution);
#endif
    if (puzzle != NULL && !givens_are_kept(n, puzzle, solution))
        return 0;
    switch (n) {
    case 4:
        return units_full(4, 2, solution);
    case 9:
        return units_full(9, 3, solution);
    case 16:
        return units_full(16, 4, solution);
    default:
        return units_full(25, 5, solution);
    }
}

static int check_side(unsigned n, char *err, size_t err_size)
{
    if (!grid_side_ok(n))
        return grid_fail(err, err_size, "unsupported side %u: a grid is 4x4, 9x9, 16x16 or 25x25",
                         n);
    return 0;
}

/* First cell whose value exceeds n, as -EINVAL with a message, or 0. */
static int report_range(unsigned n, const uint8_t *cells, const char *what, char *err,
                        size_t err_size)
{
    unsigned i;

    for (i = 0; i < n * n; i++) {
        if (cells[i] > n)
            return grid_fail(err, err_size, "%s r%uc%u holds %u, out of range for %ux%u (1-%u)",
                             what, i / n + 1, i % n + 1, cells[i], n, n, n);
    }
    return 0;
}

int grid_check_givens(unsigned n, const uint8_t *cells, char *err, size_t err_size)
{
    int rc;

    rc = check_side(n, err, err_size);
    if (rc < 0)
        return rc;
    if (cells == NULL)
        return grid_fail(err, err_size, "no cells");
    if (givens_are_clean(n, cells))
        return 0;
    rc = report_range(n, cells, "cell", err, err_size);
    if (rc < 0)
        return rc;
    rc = report_first_dup(n, cells, err, err_size);
    if (rc < 0)
        return rc;
    return grid_fail(err, err_size, "invalid givens");
}

/* Slow path of grid_check_solution: the first blank, then the first given
 * that was changed.  Returns -EINVAL with a message, or 0. */
static int report_incomplete_or_changed(unsigned n, const uint8_t *puzzle, const uint8_t *solution,
                                        char *err, size_t err_size)
{
    unsigned i;

    for (i = 0; i < n * n; i++) {
        if (solution[i] == 0)
            return grid_fail(err, err_size, "solution is incomplete: cell r%uc%u is blank",
                             i / n + 1, i % n + 1);
    }
    if (puzzle == NULL)
        return 0;
    for (i = 0; i < n * n; i++) {
        if (puzzle[i] != 0 && puzzle[i] != solution[i])
            return grid_fail(err, err_size, "solution changes the given %u at r%uc%u to %u",
                             puzzle[i], i / n + 1, i % n + 1, solution[i]);
    }
    return 0;
}

/* puzzle may be NULL: then only the solution itself is checked. */
int grid_check_solution(unsigned n, const uint8_t *puzzle, const uint8_t *solution, char *err,
                        size_t err_size)
{
    int rc;

    rc = check_side(n, err, err_size);
    if (rc < 0)
        return rc;
    if (solution == NULL)
        return grid_fail(err, err_size, "no solution");
    if (solution_is_clean(n, puzzle, solution))
        return 0;
    rc = report_range(n, solution, "solution cell", err, err_size);
    if (rc < 0)
        return rc;
    rc = report_incomplete_or_changed(n, puzzle, solution, err, err_size);
    if (rc < 0)
        return rc;
    rc = report_first_dup(n, solution, err, err_size);
    if (rc < 0)
        return rc;
    return grid_fail(err, err_size, "invalid solution");
}
