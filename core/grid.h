/* grid.h -- rules of the game: checking givens and solutions.
 *
 * Part of core/: shared by the plugin host, the daemon, the bench tool and the
 * tests, so that every "is this grid right?" question has one answer.  Grids
 * are n*n bytes, row-major, 0 = blank, 1..n = a value; n is 4, 9, 16 or 25.
 * Nothing here allocates; error text goes into a buffer the caller supplies.
 */
#ifndef SUDOKU_GRID_H
#define SUDOKU_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "core/side.h" /* grid_side_ok, grid_side_for_cells */

/* Check that the givens of a puzzle break no rule: every cell is 0..n and no
 * value repeats in a row, column or box.  Returns 0, or -EINVAL with a message
 * in err (if non-NULL) naming the first conflict, e.g.
 * "row 3 has two 7s (columns 2 and 9)" or "box 5 has two 4s". */
int grid_check_givens(unsigned n, const uint8_t *cells, char *err, size_t err_size);

/* Check that solution is a complete valid grid that keeps every given of
 * puzzle.  Returns 0, or -EINVAL with the reason in err (if non-NULL). */
int grid_check_solution(unsigned n, const uint8_t *puzzle, const uint8_t *solution, char *err,
                        size_t err_size);

#endif /* SUDOKU_GRID_H */
