/* vgrid.h -- a variant grid drawn for a person at a terminal.
 *
 * Lines are drawn where two neighbouring cells lie in different regions
 * (the boxes, or a jigsaw's layout), so a jigsaw reads as its shapes; each
 * killer cage gets a letter shown in front of its cells' digits, and a
 * legend under the grid gives each letter's sum ("a=17 b=9 ...").  The
 * other rules are named on a line above the grid.  Box-drawing characters
 * when the locale speaks UTF-8, else '+', '-' and '|'.
 */
#ifndef SUDOKU_TOOL_VGRID_H
#define SUDOKU_TOOL_VGRID_H

#include <stdint.h>
#include <stdio.h>

#include <sudoku/client.h>

/* Draw the n x n grid cells (0: blank, shown '.') under rules (NULL:
 * classic) on out.  A layout that is not n*n symbols is drawn as boxes;
 * cage cells out of range are left out. */
void vgrid_print(FILE *out, unsigned n, const uint8_t *cells,
                 const struct sudoku_client_rules *rules);

/* 1 when the locale's characters are UTF-8 (LC_ALL, LC_CTYPE, LANG). */
int vgrid_is_utf8(void);

#endif /* SUDOKU_TOOL_VGRID_H */
