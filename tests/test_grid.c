/* test_grid.c -- the rules of the game: grid_check_givens and grid_check_solution.
 *
 * Valid grids are generated (the classic shifted-rows pattern is a sudoku for
 * every side), then broken one way per table row; each row says which
 * message must come back.  The puzzles of tests/data/invalid.txt (copied from
 * the shared data set) exercise givens that break a rule and givens that are
 * legal but unsolvable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/grid.h"
#include "proto/codec.h"
#include "test_rng.h"

static const unsigned sides[] = {4, 9, 16, 25};

static unsigned box_of(unsigned n)
{
    return n == 4 ? 2 : n == 9 ? 3 : n == 16 ? 4 : 5;
}

/* A complete valid grid of side n: value at (r, c) is (b*(r%b) + r/b + c) % n + 1. */
static void make_solution(unsigned n, uint8_t *cells)
{
    unsigned b = box_of(n), r, c;

    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            cells[r * n + c] = (uint8_t)((b * (r % b) + r / b + c) % n + 1);
}

/* ------------------------------------------------------------------ */

static void test_sides(void **state)
{
    (void)state;
    /* supported sides */
    assert_int_equal(grid_side_ok(4), 1);
    assert_int_equal(grid_side_ok(9), 1);
    assert_int_equal(grid_side_ok(16), 1);
    assert_int_equal(grid_side_ok(25), 1);
    /* unsupported: zero, squares of 1 and 6, non-squares */
    assert_int_equal(grid_side_ok(0), 0);
    assert_int_equal(grid_side_ok(1), 0);
    assert_int_equal(grid_side_ok(36), 0);
    assert_int_equal(grid_side_ok(10), 0);
    /* cell counts */
    assert_int_equal(grid_side_for_cells(16), 4);
    assert_int_equal(grid_side_for_cells(81), 9);
    assert_int_equal(grid_side_for_cells(256), 16);
    assert_int_equal(grid_side_for_cells(625), 25);
    assert_int_equal(grid_side_for_cells(0), 0);
    assert_int_equal(grid_side_for_cells(80), 0);
    assert_int_equal(grid_side_for_cells(1296), 0);
}

/* One given placed at row r, column c (1-based) with value v. */
struct given {
    unsigned r, c, v;
};

struct givens_case {
    unsigned n;
    struct given g[3]; /* unused entries have v == 0 */
    const char *want;  /* exact message, or NULL for "accepted" */
};

static const struct givens_case givens_cases[] = {
    /* the example of the issue: row duplicate */
    {9, {{3, 2, 7}, {3, 9, 7}}, "row 3 has two 7s (columns 2 and 9)"},
    /* column duplicate on 16x16, value above 9 printed as a number */
    {16, {{1, 4, 12}, {6, 4, 12}}, "column 4 has two 12s (rows 1 and 6)"},
    /* box-only duplicate: different rows and columns, same box 5 */
    {9, {{4, 5, 4}, {6, 6, 4}}, "box 5 has two 4s (cells r4c5 and r6c6)"},
    /* box numbering is row-major: box 2 is top middle, box 6 middle right */
    {9, {{1, 4, 3}, {2, 5, 3}}, "box 2 has two 3s (cells r1c4 and r2c5)"},
    {9, {{4, 7, 8}, {6, 9, 8}}, "box 6 has two 8s (cells r4c7 and r6c9)"},
    /* box duplicate on 4x4, last box */
    {4, {{3, 3, 2}, {4, 4, 2}}, "box 4 has two 2s (cells r3c3 and r4c4)"},
    /* 25x25 row duplicate of the largest value */
    {25, {{25, 1, 25}, {25, 25, 25}}, "row 25 has two 25s (columns 1 and 25)"},
    /* value above n on 4x4 */
    {4, {{2, 3, 5}}, "cell r2c3 holds 5, out of range for 4x4 (1-4)"},
    /* row conflict is named before a column conflict */
    {9, {{1, 1, 3}, {1, 2, 3}, {2, 1, 3}}, "row 1 has two 3s (columns 1 and 2)"},
    /* same value in different rows, columns and boxes is fine */
    {9, {{1, 1, 5}, {4, 4, 5}, {9, 9, 5}}, NULL},
    /* a single given on 25x25 is fine */
    {25, {{13, 13, 25}}, NULL},
};

static void test_givens_table(void **state)
{
    uint8_t cells[SDK_MAX_CELLS];
    char err[256];
    size_t i, k;

    (void)state;
    for (i = 0; i < sizeof(givens_cases) / sizeof(givens_cases[0]); i++) {
        const struct givens_case *t = &givens_cases[i];

        memset(cells, 0, sizeof(cells));
        for (k = 0; k < 3 && t->g[k].v != 0; k++)
            cells[(t->g[k].r - 1) * t->n + t->g[k].c - 1] = (uint8_t)t->g[k].v;
        err[0] = '\0';
        int rc = grid_check_givens(t->n, cells, err, sizeof(err));
        if (t->want == NULL) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, -EINVAL);
            assert_string_equal(err, t->want);
        }
    }
}

static void test_givens_edges(void **state)
{
    uint8_t cells[SDK_MAX_CELLS] = {0};
    char err[8];

    (void)state;
    /* an unsupported side is refused */
    assert_int_equal(grid_check_givens(5, cells, NULL, 0), -EINVAL);
    /* a NULL error buffer is allowed */
    cells[0] = cells[1] = 1;
    assert_int_equal(grid_check_givens(4, cells, NULL, 0), -EINVAL);
    /* a short error buffer is truncated, NUL-terminated */
    assert_int_equal(grid_check_givens(4, cells, err, sizeof(err)), -EINVAL);
    assert_int_equal(strlen(err), sizeof(err) - 1);
    /* empty grids and full valid grids are valid givens for every side */
    for (size_t i = 0; i < 4; i++) {
        memset(cells, 0, sizeof(cells));
        assert_int_equal(grid_check_givens(sides[i], cells, NULL, 0), 0);
        make_solution(sides[i], cells);
        assert_int_equal(grid_check_givens(sides[i], cells, NULL, 0), 0);
    }
}

/* invalid.txt, in order: box, column and row duplicates, then four
 * puzzles whose givens are legal but that have no solution. */
static void test_invalid_file(void **state)
{
    static const char *const want_prefix[] = {"box ", "column ", "row ", NULL, NULL, NULL, NULL};
    char line[1024], err[256];
    uint8_t cells[SDK_MAX_CELLS];
    unsigned n;
    size_t i = 0;
    FILE *f;

    (void)state;
    f = fopen(SUDOKU_TEST_DATA_DIR "/invalid.txt", "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL) {
        assert_true(i < 7);
        assert_int_equal(codec_parse_line(line, strlen(line), &n, cells, err, sizeof(err)), 0);
        assert_int_equal(n, 9);
        int rc = grid_check_givens(n, cells, err, sizeof(err));
        if (want_prefix[i] == NULL) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, -EINVAL);
            assert_memory_equal(err, want_prefix[i], strlen(want_prefix[i]));
            assert_non_null(strstr(err, " has two "));
        }
        i++;
    }
    fclose(f);
    assert_int_equal(i, 7);
}

/* ------------------------------------------------------------------ */

enum breakage {
    BREAK_NONE,       /* the generated solution as is */
    BREAK_BLANK,      /* one cell set to 0 */
    BREAK_RANGE,      /* one cell set to n + 1 */
    BREAK_GIVEN,      /* the puzzle's given differs from the solution */
    BREAK_GIVEN_LAST, /* the same for the last cell */
    BREAK_ROW_DUP,    /* a cell copies its right neighbour */
    BREAK_COL_SWAP,   /* two cells of one row swapped: rows stay permutations */
    BREAK_LATIN_ONLY, /* (r + c) % n + 1: rows and columns fine, boxes not */
};

struct solution_case {
    unsigned n;
    enum breakage how;
    const char *want; /* exact message, or NULL for "accepted" */
};

static const struct solution_case solution_cases[] = {
    /* valid solutions of every side */
    {4, BREAK_NONE, NULL},
    {9, BREAK_NONE, NULL},
    {16, BREAK_NONE, NULL},
    {25, BREAK_NONE, NULL},
    /* incomplete: r2c3 left blank */
    {9, BREAK_BLANK, "solution is incomplete: cell r2c3 is blank"},
    {25, BREAK_BLANK, "solution is incomplete: cell r2c3 is blank"},
    /* a value above n at r2c3 */
    {9, BREAK_RANGE, "solution cell r2c3 holds 10, out of range for 9x9 (1-9)"},
    /* the given at r1c1 (2 in the puzzle) came back as 1 */
    {9, BREAK_GIVEN, "solution changes the given 2 at r1c1 to 1"},
    {16, BREAK_GIVEN, "solution changes the given 2 at r1c1 to 1"},
    /* the last given (solution value + 1) came back as the solution's
     * value: checked past the last whole block of eight cells */
    {9, BREAK_GIVEN_LAST, "solution changes the given 9 at r9c9 to 8"},
    {25, BREAK_GIVEN_LAST, "solution changes the given 25 at r25c25 to 24"},
    {4, BREAK_GIVEN_LAST, "solution changes the given 4 at r4c4 to 3"},
    /* r2c3 copies r2c4: row 2 has two of r2c4's value (for 9x9: 7) */
    {9, BREAK_ROW_DUP, "row 2 has two 7s (columns 3 and 4)"},
    /* r1c1 and r1c2 swapped on 4x4: column 1 now has two 2s (r1 and r3) */
    {4, BREAK_COL_SWAP, "column 1 has two 2s (rows 1 and 3)"},
    /* a Latin square that is not a sudoku */
    {4, BREAK_LATIN_ONLY, "box 1 has two 2s (cells r1c2 and r2c1)"},
    {9, BREAK_LATIN_ONLY, "box 1 has two 2s (cells r1c2 and r2c1)"},
};

static void apply_breakage(unsigned n, enum breakage how, uint8_t *puzzle, uint8_t *sol)
{
    uint8_t tmp;

    switch (how) {
    case BREAK_NONE:
        break;
    case BREAK_BLANK:
        sol[1 * n + 2] = 0;
        break;
    case BREAK_RANGE:
        sol[1 * n + 2] = (uint8_t)(n + 1);
        break;
    case BREAK_GIVEN:
        puzzle[0] = (uint8_t)(sol[0] % n + 1);
        break;
    case BREAK_GIVEN_LAST:
        puzzle[n * n - 1] = (uint8_t)(sol[n * n - 1] % n + 1);
        break;
    case BREAK_ROW_DUP:
        sol[1 * n + 2] = sol[1 * n + 3];
        break;
    case BREAK_COL_SWAP:
        tmp = sol[0];
        sol[0] = sol[1];
        sol[1] = tmp;
        /* the puzzle must not pin the swapped cells */
        puzzle[0] = puzzle[1] = 0;
        break;
    case BREAK_LATIN_ONLY:
        for (unsigned i = 0; i < n * n; i++)
            sol[i] = (uint8_t)((i / n + i % n) % n + 1);
        memset(puzzle, 0, n * n);
        break;
    }
}

static void test_solution_table(void **state)
{
    uint8_t puzzle[SDK_MAX_CELLS], sol[SDK_MAX_CELLS];
    char err[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(solution_cases) / sizeof(solution_cases[0]); i++) {
        const struct solution_case *t = &solution_cases[i];

        make_solution(t->n, sol);
        /* the puzzle keeps every third cell of the solution as a given */
        for (unsigned k = 0; k < t->n * t->n; k++)
            puzzle[k] = k % 3 == 0 ? sol[k] : 0;
        apply_breakage(t->n, t->how, puzzle, sol);
        err[0] = '\0';
        int rc = grid_check_solution(t->n, puzzle, sol, err, sizeof(err));
        if (t->want == NULL) {
            assert_int_equal(rc, 0);
            /* without a puzzle only the grid itself is judged */
            assert_int_equal(grid_check_solution(t->n, NULL, sol, NULL, 0), 0);
        } else {
            assert_int_equal(rc, -EINVAL);
            assert_string_equal(err, t->want);
        }
    }
}

/* Every single-cell change of a valid 9x9 solution is caught. */
static void test_solution_every_cell(void **state)
{
    uint8_t puzzle[81] = {0}, sol[81];
    unsigned i, v;

    (void)state;
    for (i = 0; i < 81; i++) {
        for (v = 0; v <= 10; v++) {
            make_solution(9, sol);
            if (sol[i] == v)
                continue;
            sol[i] = (uint8_t)v;
            assert_int_equal(grid_check_solution(9, puzzle, sol, NULL, 0), -EINVAL);
        }
    }
}

/* ------------------------------------------------------------------ */
/* The fast checks against the plain definition, on random grids        */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned bound)
{
    return test_rng_below(&rng_state, bound);
}

/* The rules as written: every cell 0..n, no value twice in a row, column
 * or box.  1 when the givens are legal. */
static int reference_givens_ok(unsigned n, const uint8_t *cells)
{
    unsigned b = box_of(n);

    for (unsigned i = 0; i < n * n; i++)
        if (cells[i] > n)
            return 0;
    for (unsigned i = 0; i < n * n; i++) {
        for (unsigned j = i + 1; j < n * n; j++) {
            unsigned ri = i / n, ci = i % n, rj = j / n, cj = j % n;
            int same_unit = ri == rj || ci == cj || (ri / b == rj / b && ci / b == cj / b);
            if (cells[i] != 0 && cells[i] == cells[j] && same_unit)
                return 0;
        }
    }
    return 1;
}

/* a[0..len-1] shuffled in place. */
static void shuffle(unsigned *a, unsigned len)
{
    for (unsigned i = len; i > 1; i--) {
        unsigned j = rnd(i), t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* A random order of the n rows (or columns) of side n that keeps each band
 * (stack) together: bands shuffled, then the lines in each band. */
static void random_lines(unsigned n, unsigned *line)
{
    unsigned b = box_of(n), band[5], in[5];

    for (unsigned i = 0; i < b; i++)
        band[i] = i;
    shuffle(band, b);
    for (unsigned k = 0; k < b; k++) {
        for (unsigned i = 0; i < b; i++)
            in[i] = i;
        shuffle(in, b);
        for (unsigned i = 0; i < b; i++)
            line[k * b + i] = band[k] * b + in[i];
    }
}

/* A valid solution of side n drawn at random: make_solution()'s grid with
 * its values relabelled and its rows and columns reordered band-wise. */
static void random_solution(unsigned n, uint8_t *cells)
{
    uint8_t base[SDK_MAX_CELLS];
    unsigned label[SDK_MAX_N], row[SDK_MAX_N], col[SDK_MAX_N];

    make_solution(n, base);
    for (unsigned i = 0; i < n; i++)
        label[i] = i + 1;
    shuffle(label, n);
    random_lines(n, row);
    random_lines(n, col);
    for (unsigned r = 0; r < n; r++)
        for (unsigned c = 0; c < n; c++)
            cells[r * n + c] = (uint8_t)label[base[row[r] * n + col[c]] - 1];
}

/* Two cells of side n that share exactly one unit, of the given kind (0
 * row, 1 column, 2 box): in *i and *j. */
static void cells_sharing(unsigned n, unsigned kind, unsigned *i, unsigned *j)
{
    unsigned b = box_of(n), r1, c1, r2, c2;

    do {
        r1 = rnd(n);
        c1 = rnd(n);
        r2 = kind == 0 ? r1 : kind == 1 ? rnd(n) : r1 / b * b + rnd(b);
        c2 = kind == 1 ? c1 : kind == 0 ? rnd(n) : c1 / b * b + rnd(b);
    } while (kind == 0 ? c1 / b == c2 / b : kind == 1 ? r1 / b == r2 / b : r1 == r2 || c1 == c2);
    *i = r1 * n + c1;
    *j = r2 * n + c2;
}

/* A random grid of side n in one of several styles: a valid solution with
 * cells blanked, the same with some cells changed at random (duplicates),
 * a stray value above n (just above, anywhere up to 255, or far above), or
 * one value put in two cells that share only a row, only a column or only
 * a box. */
static void random_grid(unsigned n, unsigned style, uint8_t *cells)
{
    unsigned cellc = n * n, i, j;

    random_solution(n, cells);
    for (i = 0; i < cellc; i++)
        if (rnd(4) != 0)
            cells[i] = 0;
    if (style == 1) /* one changed cell: often a duplicate */
        cells[rnd(cellc)] = (uint8_t)(rnd(n) + 1);
    else if (style == 2) /* several */
        for (unsigned k = rnd(4) + 1; k > 0; k--)
            cells[rnd(cellc)] = (uint8_t)(rnd(n + 1));
    else if (style == 3) /* just out of range */
        cells[rnd(cellc)] = (uint8_t)(n + 1 + rnd(2));
    else if (style == 4) /* far out of range */
        cells[rnd(cellc)] = (uint8_t)(26 + rnd(230));
    else if (style == 5) { /* a full valid grid, maybe one cell changed */
        random_solution(n, cells);
        cells[rnd(cellc)] = (uint8_t)rnd(n + 2);
    } else if (style == 7) /* anything above n */
        cells[rnd(cellc)] = (uint8_t)(n + 1 + rnd(255 - n));
    else if (style == 8 || style == 9) { /* one unit only, on a sparse or full grid */
        if (style == 9)
            random_solution(n, cells);
        cells_sharing(n, rnd(3), &i, &j);
        cells[i] = cells[j] = (uint8_t)(rnd(n) + 1);
    }
}

static void test_givens_random(void **state)
{
    uint8_t cells[SDK_MAX_CELLS];
    unsigned clean = 0, dirty = 0;

    (void)state;
    for (unsigned s = 0; s < 4; s++) {
        unsigned rounds = sides[s] == 9 ? 30000 : sides[s] == 25 ? 300 : 2000;
        for (unsigned t = 0; t < rounds; t++) {
            random_grid(sides[s], t % 10, cells);
            int want = reference_givens_ok(sides[s], cells);
            int rc = grid_check_givens(sides[s], cells, NULL, 0);
            assert_int_equal(rc, want ? 0 : -EINVAL);
            clean += want != 0;
            dirty += want == 0;
        }
    }
    /* both outcomes were exercised many times */
    assert_true(clean > 5000);
    assert_true(dirty > 5000);
}

/* Every pair of cells of an empty 9x9 grid given the same value: refused
 * exactly when the two share a unit.  Every offset between two cells, and
 * every blank beside them, meets the fast pass. */
static void test_givens_every_pair(void **state)
{
    uint8_t cells[81];

    (void)state;
    for (unsigned i = 0; i < 81; i++) {
        for (unsigned j = i + 1; j < 81; j++) {
            unsigned v = (i + j) % 9 + 1;
            memset(cells, 0, sizeof(cells));
            cells[i] = cells[j] = (uint8_t)v;
            int want = reference_givens_ok(9, cells);
            assert_int_equal(grid_check_givens(9, cells, NULL, 0), want ? 0 : -EINVAL);
        }
    }
}

/* The rules as written for a solution: every cell 1..n, no value twice in
 * a unit, and every given of puzzle (if not NULL) kept. */
static int reference_solution_ok(unsigned n, const uint8_t *puzzle, const uint8_t *sol)
{
    for (unsigned i = 0; i < n * n; i++) {
        if (sol[i] == 0)
            return 0;
        if (puzzle != NULL && puzzle[i] != 0 && puzzle[i] != sol[i])
            return 0;
    }
    return reference_givens_ok(n, sol);
}

static void swap_cells(uint8_t *cells, unsigned i, unsigned j)
{
    uint8_t t = cells[i];

    cells[i] = cells[j];
    cells[j] = t;
}

/* A random solution of side n with its puzzle (a third of the cells kept),
 * broken in one of several styles: not at all, one cell changed (to any
 * value, or to one above n), a given changed, two cells swapped that share
 * only a column (the rows break), only a row (the columns break), two
 * columns of different stacks swapped (the boxes break), two cells swapped
 * anywhere. */
static void random_answer(unsigned n, unsigned style, uint8_t *puzzle, uint8_t *sol)
{
    unsigned b = box_of(n), cellc = n * n, i, j;

    random_solution(n, sol);
    for (i = 0; i < cellc; i++)
        puzzle[i] = rnd(3) == 0 ? sol[i] : 0;
    if (style == 1) {
        sol[rnd(cellc)] = (uint8_t)rnd(n + 1);
    } else if (style == 2) {
        sol[rnd(cellc)] = (uint8_t)(n + 1 + rnd(255 - n));
    } else if (style == 3) {
        i = rnd(cellc);
        puzzle[i] = (uint8_t)(rnd(n) + 1);
    } else if (style == 4 || style == 5) {
        cells_sharing(n, 2, &i, &j);
        /* the same column (style 4) or row (style 5) of that box */
        j = style == 4 ? (j / n) * n + i % n : (i / n) * n + j % n;
        swap_cells(sol, i, j);
    } else if (style == 6) {
        unsigned c1 = rnd(n), c2 = (c1 + b * (1 + rnd(b - 1))) % n;
        for (unsigned r = 0; r < n; r++)
            swap_cells(sol, r * n + c1, r * n + c2);
    } else if (style == 7) {
        swap_cells(sol, rnd(cellc), rnd(cellc));
    }
}

static void test_solution_random(void **state)
{
    uint8_t puzzle[SDK_MAX_CELLS], sol[SDK_MAX_CELLS];
    unsigned clean = 0, dirty = 0;

    (void)state;
    for (unsigned s = 0; s < 4; s++) {
        unsigned rounds = sides[s] == 9 ? 30000 : sides[s] == 25 ? 300 : 2000;
        for (unsigned t = 0; t < rounds; t++) {
            random_answer(sides[s], t % 8, puzzle, sol);
            const uint8_t *p = t % 3 == 0 ? NULL : puzzle;
            int want = reference_solution_ok(sides[s], p, sol);
            int rc = grid_check_solution(sides[s], p, sol, NULL, 0);
            assert_int_equal(rc, want ? 0 : -EINVAL);
            clean += want != 0;
            dirty += want == 0;
        }
    }
    assert_true(clean > 5000);
    assert_true(dirty > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sides),           cmocka_unit_test(test_givens_table),
        cmocka_unit_test(test_givens_edges),    cmocka_unit_test(test_invalid_file),
        cmocka_unit_test(test_solution_table),  cmocka_unit_test(test_solution_every_cell),
        cmocka_unit_test(test_givens_random),   cmocka_unit_test(test_givens_every_pair),
        cmocka_unit_test(test_solution_random),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
