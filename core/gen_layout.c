/* gen_layout.c -- the shapes a variant draws from its seed: a jigsaw
 * layout and killer cages.
 *
 * A jigsaw layout starts as the boxes and takes random swaps of two
 * orthogonal neighbours in different regions, each kept only when both
 * regions stay connected: every region keeps n cells, and any layout a
 * swap can reach is connected.  Killer cages grow over a full grid from
 * cells in random order, each to a random size of 2..GEN_CAGE_MAX through
 * free neighbours whose digits the cage does not hold yet (a cell left
 * with no such neighbour becomes a cage of one).  A cage that leaves a
 * puzzle with two solutions is split in connected pieces (gen_variant.c).
 *
 * Every draw comes from the stream handed in (gen_rng.c), so a shape is a
 * function of the seed.  Pure functions over the caller's arrays; no
 * state, no solver.
 */
#include <string.h>

#include "core/gen_impl.h"

#define GEN_SWAPS_PER_CELL 10 /* swap attempts per cell of a drawn layout */

/* The orthogonal neighbours of cell on side n into nb.  Returns how many. */
static unsigned neighbours(unsigned n, unsigned cell, unsigned *nb)
{
    unsigned r = cell / n, c = cell % n, len = 0;

    if (r > 0)
        nb[len++] = cell - n;
    if (c > 0)
        nb[len++] = cell - 1;
    if (c + 1 < n)
        nb[len++] = cell + 1;
    if (r + 1 < n)
        nb[len++] = cell + n;
    return len;
}

/* Cells of label k in lab (n*n entries) reachable from from through
 * orthogonal steps inside the label. */
static unsigned flood(unsigned n, const uint16_t *lab, unsigned from, uint16_t k, uint8_t *seen)
{
    unsigned stack[SDK_MAX_CELLS], len = 0, found = 0, nb[4];

    memset(seen, 0, (size_t)n * n);
    stack[len++] = from;
    seen[from] = 1;
    while (len) {
        unsigned cell = stack[--len], m = neighbours(n, cell, nb);

        found++;
        for (unsigned i = 0; i < m; i++) {
            if (!seen[nb[i]] && lab[nb[i]] == k) {
                seen[nb[i]] = 1;
                stack[len++] = nb[i];
            }
        }
    }
    return found;
}

/* Is region k of lab (its n cells, one of them at cell) connected? */
static int is_connected(unsigned n, const uint16_t *lab, unsigned cell, uint16_t k)
{
    uint8_t seen[SDK_MAX_CELLS];

    return flood(n, lab, cell, k, seen) == n;
}

/* Does cell touch a cell of label k? */
static int touches(unsigned n, const uint16_t *lab, unsigned cell, uint16_t k)
{
    unsigned nb[4], m = neighbours(n, cell, nb);

    for (unsigned i = 0; i < m; i++) {
        if (lab[nb[i]] == k)
            return 1;
    }
    return 0;
}

static int is_boxes(unsigned n, const uint16_t *lab)
{
    unsigned b = sdk_box_side(n);

    for (unsigned cell = 0; cell < n * n; cell++) {
        if (lab[cell] != cell / n / b * b + cell % n / b)
            return 0;
    }
    return 1;
}

void gen__layout_draw(uint64_t *rng, unsigned n, char *regions)
{
    unsigned b = sdk_box_side(n), cells = n * n, nb[4];
    uint16_t lab[SDK_MAX_CELLS];

    for (unsigned cell = 0; cell < cells; cell++)
        lab[cell] = (uint16_t)(cell / n / b * b + cell % n / b);
    do {
        for (unsigned t = 0; t < GEN_SWAPS_PER_CELL * cells; t++) {
            unsigned a = gen__rng_below(rng, cells), m = neighbours(n, a, nb);
            unsigned x = nb[gen__rng_below(rng, m)], z = gen__rng_below(rng, cells);
            uint16_t ka = lab[a], kz = lab[x];

            /* a moves to x's region, and z, a cell of that region that
             * touches a's, moves to a's: sizes kept, connectivity checked */
            if (ka == kz || lab[z] != kz || z == x || !touches(n, lab, z, ka))
                continue;
            lab[a] = kz;
            lab[z] = ka;
            if (!is_connected(n, lab, a, kz) || !is_connected(n, lab, z, ka)) {
                lab[a] = ka;
                lab[z] = kz;
            }
        }
    } while (is_boxes(n, lab));
    for (unsigned cell = 0; cell < cells; cell++)
        regions[cell] = (char)(lab[cell] < 9 ? '1' + lab[cell] : 'A' + (lab[cell] - 9));
}

/* Number the cages of cage[] 1, 2, ... by their first cell, row-major. */
static void renumber(unsigned n, uint16_t *cage)
{
    uint16_t map[SDK_MAX_CELLS + 1] = {0}, next = 0;

    for (unsigned cell = 0; cell < n * n; cell++) {
        if (cage[cell] && !map[cage[cell]])
            map[cage[cell]] = ++next;
    }
    for (unsigned cell = 0; cell < n * n; cell++)
        cage[cell] = map[cage[cell]];
}

/* Grow cage id from the cells in members[0..len) up to target cells, one
 * random free neighbour at a time; with grid, only through digits the cage
 * does not hold (grid NULL: any).  Returns the cage's size. */
static unsigned grow(uint64_t *rng, unsigned n, const uint8_t *grid, uint16_t *cage, uint16_t id,
                     uint16_t free_id, unsigned *members, unsigned len, unsigned target)
{
    uint32_t used = 0;

    for (unsigned i = 0; grid && i < len; i++)
        used |= 1u << grid[members[i]];
    while (len < target) {
        unsigned cand[4 * SDK_MAX_N], cand_len = 0, nb[4];

        for (unsigned i = 0; i < len; i++) {
            unsigned m = neighbours(n, members[i], nb);

            for (unsigned k = 0; k < m; k++) {
                unsigned x = nb[k], j = 0;

                if (cage[x] != free_id || (grid && used >> grid[x] & 1))
                    continue;
                while (j < cand_len && cand[j] != x)
                    j++;
                if (j == cand_len)
                    cand[cand_len++] = x;
            }
        }
        if (cand_len == 0)
            break;
        members[len] = cand[gen__rng_below(rng, cand_len)];
        cage[members[len]] = id;
        if (grid)
            used |= 1u << grid[members[len]];
        len++;
    }
    return len;
}

void gen__cages_draw(uint64_t *rng, unsigned n, const uint8_t *grid, uint16_t *cage)
{
    unsigned order[SDK_MAX_CELLS], members[GEN_CAGE_MAX];
    uint16_t id = 0;

    memset(cage, 0, (size_t)n * n * sizeof(*cage));
    gen__permutation(rng, order, n * n);
    for (unsigned i = 0; i < n * n; i++) {
        unsigned cell = order[i], target = 2 + gen__rng_below(rng, GEN_CAGE_MAX - 1);

        if (cage[cell])
            continue;
        if (target > n)
            target = n;
        cage[cell] = ++id;
        members[0] = cell;
        (void)grow(rng, n, grid, cage, id, 0, members, 1, target);
    }
    renumber(n, cage);
}

void gen__cage_split(uint64_t *rng, unsigned n, uint16_t *cage, unsigned cell)
{
    unsigned members[SDK_MAX_N], len = 0, size = 0, target;
    uint16_t k = cage[cell], top = 0, old = UINT16_MAX;
    uint8_t seen[SDK_MAX_CELLS];

    for (unsigned x = 0; x < n * n; x++) {
        top = cage[x] > top ? cage[x] : top;
        size += cage[x] == k;
    }
    if (size < 2)
        return;
    /* Mark the cage's cells free under a label of their own, grow the
     * first piece from cell among them, then give every connected rest a
     * new cage. */
    for (unsigned x = 0; x < n * n; x++) {
        if (cage[x] == k)
            cage[x] = old;
    }
    target = 1 + gen__rng_below(rng, size - 1);
    members[len++] = cell;
    cage[cell] = k;
    (void)grow(rng, n, NULL, cage, k, old, members, len, target);
    for (unsigned x = 0; x < n * n; x++) {
        if (cage[x] != old)
            continue;
        (void)flood(n, cage, x, old, seen);
        top++;
        for (unsigned y = 0; y < n * n; y++) {
            if (seen[y])
                cage[y] = top;
        }
    }
    renumber(n, cage);
}

int gen__cages_can_merge(unsigned n, const uint8_t *grid, const uint16_t *cage, unsigned x,
                         unsigned y)
{
    uint16_t a = cage[x], b = cage[y];
    uint32_t used = 0;
    unsigned size_a = 0, size_b = 0;

    if (a == b || !a || !b)
        return 0;
    for (unsigned cell = 0; cell < n * n; cell++) {
        if (cage[cell] != a && cage[cell] != b)
            continue;
        size_a += cage[cell] == a;
        size_b += cage[cell] == b;
        if (size_a + size_b > GEN_CAGE_MAX || (used >> grid[cell] & 1))
            return 0;
        used |= 1u << grid[cell];
    }
    return size_a == 1 || size_b == 1;
}

void gen__cages_merge(unsigned n, uint16_t *cage, unsigned x, unsigned y)
{
    uint16_t a = cage[x], b = cage[y];

    for (unsigned cell = 0; cell < n * n; cell++) {
        if (cage[cell] == b)
            cage[cell] = a;
    }
    renumber(n, cage);
}
