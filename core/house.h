/* house.h -- the house a hint names: where a player should look.
 *
 * A graded hint (explain's `level` 2 and 3, docs/protocol.md) names one
 * house of the grid for each step instead of the step itself.  The house
 * is worked out here, by the host, from what every step carries (its
 * placements, eliminations and pattern cells) and the candidates of the
 * position before it, so every explaining plugin gets the same answer
 * without saying anything more.  The rule, in order:
 *
 *   1. A step that places: its first placement (cell c, digit d) is named
 *      by the first house of c (box or region, row, column, diagonal,
 *      window) where no other open cell still has d as a candidate (a
 *      hidden single there); when there is none, c's box or region.
 *   2. A step that only eliminates, when every eliminated cell is a
 *      pattern cell (a hidden subset trims its own cells): the first house
 *      (box or region, row, column, diagonal, window, cage) holding every
 *      pattern cell in which the digits the pattern cells keep have no
 *      candidate place outside them.
 *   3. Else, when the pattern cells (two or more) have between them as many
 *      candidates as they are cells (a naked subset): the first house
 *      (same order) holding every pattern cell and every eliminated cell.
 *   4. Else the first house (same order) holding every pattern cell and no
 *      eliminated cell (locked candidates: pointing names the box,
 *      claiming the row or column).
 *   5. Else the first house, in the order row, column, box or region,
 *      diagonal, window, cage, holding the most pattern cells (a subset
 *      lying in one line, a fish's first line, a chain's busiest house).
 *   A step without pattern cells takes its eliminated cells as the pattern
 *   in 4 and 5.
 *
 * The candidates are replayed from the start position as the host's check
 * of the steps replays them (core/verify.c): a placement takes its digit
 * from every cell sharing a house, a differ pair or a cage with it.
 * Indices are 0-based: rows and columns top to bottom and left to right,
 * boxes (and windows) row-major, a region its number in the layout less
 * one, diagonal 0 the main one (r1c1 to rncn) and 1 the other, a cage its
 * place in the rules' list.  No state; thread-safe.
 */
#ifndef SUDOKU_HOUSE_H
#define SUDOKU_HOUSE_H

#include <stdint.h>

#include <sudoku/plugin.h>

/* The kinds of houses, as the wire names them (house_type_name). */
enum house_type {
    HOUSE_NONE = 0, /* no house (an empty step) */
    HOUSE_ROW,      /* "row" */
    HOUSE_COLUMN,   /* "column" */
    HOUSE_BOX,      /* "box" */
    HOUSE_REGION,   /* "region": a jigsaw's, in place of the boxes */
    HOUSE_DIAGONAL, /* "diagonal": X-sudoku */
    HOUSE_WINDOW,   /* "window": windoku */
    HOUSE_CAGE      /* "cage": killer */
};

/* One house of a grid. */
struct house_ref {
    uint8_t type;   /* enum house_type */
    uint16_t index; /* 0-based within its type (above) */
};

/* What house_of_steps reads of one step; the arrays are borrowed. */
struct house_step {
    const struct sdk_cell_value *placements;   /* cells the step solves */
    uint32_t placements_len;                   /* entries in placements */
    const struct sdk_cell_value *eliminations; /* candidates it removes */
    uint32_t eliminations_len;                 /* entries in eliminations */
    const uint16_t *cells;                     /* its pattern cells, NULL when none */
    uint32_t cells_len;                        /* entries in cells */
};

/* Step i of a list, for house_of_steps. */
typedef void house_step_fn(const void *ctx, uint32_t i, struct house_step *out);

/* "row", "column", "box", "region", "diagonal", "window", "cage", or ""
 * for HOUSE_NONE.  Static strings. */
const char *house_type_name(enum house_type t);

/* The house of each of steps 0..len of an explanation on side n (4, 9, 16
 * or 25), under rules (NULL: classic), from the position start (n*n cells,
 * 0 blank) with the pencil marks marks (n*n*n bytes, [cell * n + d - 1]
 * non-zero when d is marked; NULL: every candidate start allows), into
 * out[0..len).  Steps are read through step_at(ctx, i); each is applied to
 * the candidates after its house is found.  Cells and values out of range
 * are skipped (the host checked them before).  Returns 0, or -EINVAL for a
 * side it does not know. */
int house_of_steps(uint32_t n, const struct sdk_rules *rules, const uint8_t *start,
                   const uint8_t *marks, house_step_fn *step_at, const void *ctx, uint32_t len,
                   struct house_ref *out);

#endif /* SUDOKU_HOUSE_H */
