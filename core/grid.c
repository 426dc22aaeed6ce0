/* grid.c -- rules of the game: checking givens and solutions.
 *
 * Every answer a plugin returns passes through grid_check_solution() before
 * anyone sees it, so the common case (a right answer) is built for speed:
 * givens compared eight cells at a time, then one pass OR-ing a bit per
 * value into a mask per row, column and box, compiled per side so that no
 * division is left; a unit is right when its mask is exactly the n values.
 * About 1,600 instructions for a 9x9 grid, no allocation, no data-dependent
 * branch.  Only when the fast pass fails do we walk the grid again, slowly
 * and in a fixed order (range, blanks, givens, rows, columns, boxes), to name
 * the first problem in words a user can act on.
 *
 * Givens take the same road: one branch-free pass, repeats gathered in one
 * mask, compiled per side.
 *
 * Coordinates in messages are 1-based; boxes are numbered row-major from the
 * top left.  Values are printed as numbers, even for 16x16 and 25x25.
 * Thread-safe: the only static data is constant.
 */
#include "core/grid.h"
#include "proto/errtext.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sudoku/plugin.h>

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
        return proto_fail(err, err_size, "row %u has two %us (columns %u and %u)", u + 1, d->value,
                          c1, c2);
    if (kind == UNIT_COL)
        return proto_fail(err, err_size, "column %u has two %us (rows %u and %u)", u + 1, d->value,
                          r1, r2);
    return proto_fail(err, err_size, "box %u has two %us (cells r%uc%u and r%uc%u)", u + 1,
                      d->value, r1, c1, r2, c2);
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

static int givens_are_clean(unsigned n, const uint8_t *cells)
{
    switch (n) {
    case 4:
        return givens_clean_side(4, 2, cells);
    case 9:
        return givens_clean_side(9, 3, cells);
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
        return proto_fail(err, err_size, "unsupported side %u: a grid is 4x4, 9x9, 16x16 or 25x25",
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
            return proto_fail(err, err_size, "%s r%uc%u holds %u, out of range for %ux%u (1-%u)",
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
        return proto_fail(err, err_size, "no cells");
    if (givens_are_clean(n, cells))
        return 0;
    rc = report_range(n, cells, "cell", err, err_size);
    if (rc < 0)
        return rc;
    rc = report_first_dup(n, cells, err, err_size);
    if (rc < 0)
        return rc;
    return proto_fail(err, err_size, "invalid givens");
}

/* Slow path of grid_check_solution: the first blank, then the first given
 * that was changed.  Returns -EINVAL with a message, or 0. */
static int report_incomplete_or_changed(unsigned n, const uint8_t *puzzle, const uint8_t *solution,
                                        char *err, size_t err_size)
{
    unsigned i;

    for (i = 0; i < n * n; i++) {
        if (solution[i] == 0)
            return proto_fail(err, err_size, "solution is incomplete: cell r%uc%u is blank",
                              i / n + 1, i % n + 1);
    }
    if (puzzle == NULL)
        return 0;
    for (i = 0; i < n * n; i++) {
        if (puzzle[i] != 0 && puzzle[i] != solution[i])
            return proto_fail(err, err_size, "solution changes the given %u at r%uc%u to %u",
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
        return proto_fail(err, err_size, "no solution");
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
    return proto_fail(err, err_size, "invalid solution");
}
