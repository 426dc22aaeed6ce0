/* side.h -- the supported grid sides, as pure arithmetic.
 *
 * The puzzle text forms (codec.c) and the wire decoder (rpc.c) need to know
 * which sides exist before any rule is checked; the rules themselves live in
 * core/grid.h.  Header-only so that both halves of the protocol, and the
 * client library, share it without linking anything.
 */
#ifndef SUDOKU_SIDE_H
#define SUDOKU_SIDE_H

#include <stddef.h>

#include <sudoku/plugin.h>

/* Returns 1 when n is a supported side (4, 9, 16, 25), else 0: the sides
 * that have a box side in the ABI's own table. */
static inline int grid_side_ok(unsigned n)
{
    return sdk_box_side(n) != 0;
}

/* Returns the side n whose n*n equals cells (16, 81, 256, 625), or 0:
 * the one supported side, if any, whose box side squared is its root. */
static inline unsigned grid_side_for_cells(size_t cells)
{
    for (unsigned b = 2; b <= 5; b++)
        if ((size_t)b * b * b * b == cells)
            return b * b;
    return 0;
}

#endif /* SUDOKU_SIDE_H */
