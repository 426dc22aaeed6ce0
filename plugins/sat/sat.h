/* sat.h -- internal interface between the sat plugin's two halves.
 *
 * singles.c fills in what the givens force (naked and hidden singles and
 * locked candidates, to a fixpoint) and leaves a grid of placed cells and candidate masks; sat.c
 * encodes the cells still open for CaDiCaL and drives the solver.  The grid
 * lives on the caller's stack (about 5 KB); nothing here allocates or keeps
 * state between calls.  Nothing is exported from the shared object.
 */
#ifndef SUDOKU_SAT_H
#define SUDOKU_SAT_H

#include <sudoku/plugin.h>

#include <stdint.h>

#define SAT_UNITS (3 * SDK_MAX_N) /* rows, then columns, then boxes */

/* A grid during propagation.  Invariant after sat_grid_init() succeeded: a
 * placed cell has cand 0; an open cell has cand != 0 holding no value placed
 * in any of its units; placed[u] is the set of values placed in unit u. */
struct sat_grid {
    uint32_t n;                               /* side */
    uint32_t full;                            /* mask of values 1..n (bit v-1) */
    uint32_t open_len;                        /* cells still open */
    uint8_t cell[SDK_MAX_CELLS];              /* 0 = open, else its value */
    uint32_t cand[SDK_MAX_CELLS];             /* candidates of an open cell */
    uint32_t placed[SAT_UNITS];               /* values placed in each unit */
    uint16_t unit_cell[SAT_UNITS][SDK_MAX_N]; /* the cells of each unit */
};

/* The three units of cell i: row, column, box indices into sat_grid.placed. */
void sat_units_of(const struct sat_grid *g, uint32_t i, uint32_t u[3]);

/* Load the givens of a validated job (n supported, cells in 0..n) into g and
 * propagate singles and locked candidates to a fixpoint.  Returns 0 (g->open_len == 0 means the
 * grid is solved), SDK_UNSOLVABLE when the givens clash or propagation finds
 * a cell or a unit with no place left. */
int sat_grid_init(struct sat_grid *g, uint32_t n, const uint8_t *cells);

#endif /* SUDOKU_SAT_H */
