/* picture.h -- the sudoku tool's pictures: sudoku render, and the
 * --format svg|png|pdf of hint, explain and generate.
 *
 * Turns what the tool has (input records, solutions, explanations,
 * generated puzzles) into grids of a render document (tool/render.h) and
 * writes it where -o says.  The drawing itself is render.c's.
 */
#ifndef SUDOKU_TOOL_PICTURE_H
#define SUDOKU_TOOL_PICTURE_H

#include <stddef.h>
#include <stdint.h>

#include "tool/render.h"
#include <sudoku/client.h>

#define PICTURE_DEFAULT_PER_PAGE 1 /* grids a page unless --per-page */

/* The picture options of a command line. */
struct picture_opts {
    int is_on;                 /* --format svg, png or pdf was given */
    enum render_format format; /* which */
    const char *out;           /* -o FILE, NULL: stdout */
    unsigned size_px;          /* --size PX, 0: by the grid's side */
    unsigned per_page;         /* --per-page N, 0: PICTURE_DEFAULT_PER_PAGE */
    int is_candidates;         /* --candidates: pencil marks in empty cells */
};

/* Take "svg", "png" or "pdf" into p.  Returns 0, or -EINVAL (not one). */
int picture_set_format(struct picture_opts *p, const char *arg);

/* Whether p can be written: PNG or PDF need cairo and, without -o, a
 * stdout that is not a terminal.  Returns 0, or -EINVAL with why in err. */
int picture_check(const struct picture_opts *p, char *err, size_t err_size);

/* An empty document as p asks.  Free it with render_doc_close. */
void picture_doc_init(const struct picture_opts *p, struct render_doc *d);

/* Add the puzzle cells (n*n values, 0 blank) to d; solution (NULL: none)
 * fills the blanks in the lighter ink; pencil marks when p asks (and no
 * solution).  Returns the grid (owned by d, valid until the next add) or
 * NULL when out of memory. */
struct render_grid *picture_add_puzzle(struct render_doc *d, const struct picture_opts *p,
                                       unsigned n, const uint8_t *cells, const uint8_t *solution,
                                       const char *caption);

/* Add one grid a step of e to d, each as the grid stood before the step:
 * givens (cells), the player's entries (progress, n*n values; NULL: none)
 * and every earlier step's placements filled in; the step's pattern cells
 * shaded, its eliminations struck through, its placements circled; pencil
 * marks when p asks.  With no step, the grid as it is.  Each caption is
 * prefix, the step's number (unless it is the only one) and its
 * sentence.  Returns 0 or -ENOMEM. */
int picture_add_steps(struct render_doc *d, const struct picture_opts *p, unsigned n,
                      const uint8_t *cells, const uint8_t *progress,
                      const struct sudoku_client_explanation *e, const char *prefix);

/* Write d where p says, saying why on stderr when it cannot.  Returns 0
 * or -1. */
int picture_write(const struct picture_opts *p, const struct render_doc *d);

#endif /* SUDOKU_TOOL_PICTURE_H */
