/* sat.h -- internal interface between the sat plugin's parts.
 *
 * singles.c fills in what the givens force (naked and hidden singles and
 * locked candidates, to a fixpoint) and leaves a grid of placed cells and
 * candidate masks; sat.c encodes the cells still open for CaDiCaL and drives
 * the solver; cages.c lists a killer cage's digit combinations for both.
 * The grid lives on the caller's stack (about 12 KB); a variant's per-cell
 * links (struct sat_links) live in one block the caller allocates with
 * sat_links_new() and frees.  Nothing here keeps state between calls.
 * Nothing is exported from the shared object.
 */
#ifndef SUDOKU_SAT_H
#define SUDOKU_SAT_H

#include <sudoku/plugin.h>
#include <sudoku/plugin_rules.h>

#include <stdint.h>

/* Houses: rows, columns, boxes or regions, then a variant's diagonals (2)
 * and windows ((b-1)^2, 16 at 25x25). */
#define SAT_UNITS      (3 * SDK_MAX_N + 2 + 16 + SDK_MAX_IMPLIED) /* and windows' implied */
#define SAT_CELL_UNITS 6   /* houses of one cell: row, column, box, 2 diagonals, window */
#define SAT_COMBOS_MAX 256 /* a cage with more digit combinations is encoded by sums */

/* What ties a cell to another outside the houses (struct sat_links). */
enum sat_link_kind {
    SAT_LINK_DIFFER = 0,    /* the two digits differ (anti-knight, anti-king) */
    SAT_LINK_NONCONSEC = 1, /* the two digits do not differ by one */
    SAT_LINK_CAGE = 2       /* the same cage: the digits differ */
};

/* One link of a cell: the other cell and the kind. */
struct sat_link {
    uint16_t cell; /* the other cell */
    uint16_t kind; /* enum sat_link_kind */
};

/* A variant's pairs and cages, cell by cell, and the cages' running state
 * while singles place digits.  One block from sat_links_new(). */
struct sat_links {
    uint32_t *off;         /* n*n+1: the links of cell i are link[off[i] .. off[i+1]-1] */
    struct sat_link *link; /* every pair twice, every cage pair twice */
    int32_t *cage_of;      /* n*n: the cell's cage, or -1 */
    int32_t *sum_left;     /* per cage: its sum less the digits placed in it */
    uint32_t *open_left;   /* per cage: its cells still open */
};

/* A grid during propagation.  Invariant after sat_grid_init() succeeded: a
 * placed cell has cand 0; an open cell has cand != 0 holding no value placed
 * in any of its units nor ruled out by a placed cell it is linked to;
 * placed[u] is the set of values placed in unit u. */
struct sat_grid {
    uint32_t n;                                       /* side */
    uint32_t full;                                    /* mask of values 1..n (bit v-1) */
    uint32_t open_len;                                /* cells still open */
    uint32_t units_len;                               /* houses: 3n, or the rules' */
    int has_boxes;                                    /* houses 2n..3n-1 are square boxes */
    const struct sdk_rules *rules;                    /* the job's rules, or NULL */
    struct sat_links *links;                          /* their links, or NULL (classic) */
    uint8_t cell[SDK_MAX_CELLS];                      /* 0 = open, else its value */
    uint32_t cand[SDK_MAX_CELLS];                     /* candidates of an open cell */
    uint32_t placed[SAT_UNITS];                       /* values placed in each unit */
    uint16_t unit_cell[SAT_UNITS][SDK_MAX_N];         /* the cells of each unit */
    uint8_t cell_units_len[SDK_MAX_CELLS];            /* houses of each cell */
    uint8_t cell_unit[SDK_MAX_CELLS][SAT_CELL_UNITS]; /* their indices */
};

/* Is rules (n the job's side) well formed enough to read: kinds known, a
 * house table of at most SAT_UNITS houses with no cell in more than
 * SAT_CELL_UNITS, every cell in range, cages within cage_cells?  1 or 0. */
int sat_rules_ok(const struct sdk_rules *rules, uint32_t n);

/* The per-cell links of rules (already passed sat_rules_ok()).  Returns a
 * block the caller frees with free(), or NULL when out of memory. */
struct sat_links *sat_links_new(const struct sdk_rules *rules);

/* Load the givens of a validated job (n supported, cells in 0..n) under
 * rules (NULL: classic; else passed sat_rules_ok(), with links from
 * sat_links_new()) into g and propagate singles and locked candidates to a
 * fixpoint.  Returns 0 (g->open_len == 0 means the grid is solved), or
 * SDK_UNSOLVABLE when the givens clash or propagation finds a cell, a unit
 * or a cage with no way left. */
int sat_grid_init(struct sat_grid *g, uint32_t n, const uint8_t *cells,
                  const struct sdk_rules *rules, struct sat_links *links);

/* The sets of k distinct digits (bit v-1 for v) taken from avail that add
 * up to sum, in increasing order of their lowest digits; at most cap are
 * written to out (which may be NULL when cap is 0).  Returns how many there
 * are, counting stopped at cap + 1. */
uint32_t sat_cage_combos(uint32_t avail, uint32_t k, int32_t sum, uint32_t *out, uint32_t cap);

#endif /* SUDOKU_SAT_H */
