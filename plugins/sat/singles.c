/* singles.c -- what the givens force: naked and hidden singles to a fixpoint.
 *
 * The sat plugin runs this before it builds any clause: on real puzzles it
 * fills a good share of the open cells and removes many more candidates, so
 * the formula CaDiCaL sees is several times smaller than the encoding of the
 * raw givens (and much faster to solve than the givens as unit clauses).
 * When propagation alone fills the grid the plugin answers without a solver.
 *
 * Every deduction here is forced, so a grid this fills has exactly one
 * solution, and a contradiction here proves there is none.  Units are
 * numbered rows 0..n-1, columns n..2n-1, boxes 2n..3n-1.
 */
#include "sat.h"

#include <string.h>

void sat_units_of(const struct sat_grid *g, uint32_t i, uint32_t u[3])
{
    const uint32_t n = g->n, bs = sdk_box_side(n), r = i / n, c = i % n;

    u[0] = r;
    u[1] = n + c;
    u[2] = 2 * n + (r / bs) * bs + c / bs;
}

/* Fill unit_cell[][] for side n. */
static void grid_map_units(struct sat_grid *g)
{
    const uint32_t n = g->n, bs = sdk_box_side(n);

    for (uint32_t a = 0; a < n; a++) {
        for (uint32_t b = 0; b < n; b++) {
            g->unit_cell[a][b] = (uint16_t)(a * n + b);
            g->unit_cell[n + a][b] = (uint16_t)(b * n + a);
            g->unit_cell[2 * n + a][b] =
                (uint16_t)(((a / bs) * bs + b / bs) * n + (a % bs) * bs + b % bs);
        }
    }
}

/* Place value v (1..n) in open cell i and strike it from every peer.
 * Returns 0, or SDK_UNSOLVABLE when a unit already has v or a peer is left
 * without candidates. */
static int grid_place(struct sat_grid *g, uint32_t i, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1);
    uint32_t u[3];

    sat_units_of(g, i, u);
    if (!(g->cand[i] & bit) || ((g->placed[u[0]] | g->placed[u[1]] | g->placed[u[2]]) & bit))
        return SDK_UNSOLVABLE;
    g->cell[i] = (uint8_t)v;
    g->cand[i] = 0;
    g->open_len--;
    for (int k = 0; k < 3; k++) {
        g->placed[u[k]] |= bit;
        for (uint32_t j = 0; j < g->n; j++) {
            const uint16_t c = g->unit_cell[u[k]][j];
            if (g->cell[c] == 0 && (g->cand[c] &= ~bit) == 0)
                return SDK_UNSOLVABLE;
        }
    }
    return 0;
}

/* Place every open cell left with one candidate.  Sets *changed when it
 * placed one.  Returns 0 or SDK_UNSOLVABLE. */
static int grid_naked(struct sat_grid *g, int *changed)
{
    for (uint32_t i = 0; i < g->n * g->n; i++) {
        const uint32_t m = g->cand[i];
        if (g->cell[i] != 0 || (m & (m - 1)) != 0)
            continue;
        if (grid_place(g, i, (uint32_t)__builtin_ctz(m) + 1) != 0)
            return SDK_UNSOLVABLE;
        *changed = 1;
    }
    return 0;
}

/* In unit u, place every value that has exactly one open cell left.  Sets
 * *changed when it placed one.  Returns 0, or SDK_UNSOLVABLE when a value
 * not placed in u has no cell left. */
static int grid_hidden_unit(struct sat_grid *g, uint32_t u, int *changed)
{
    uint32_t once = 0, twice = 0;

    for (uint32_t j = 0; j < g->n; j++) {
        const uint32_t m = g->cand[g->unit_cell[u][j]];
        twice |= once & m;
        once |= m;
    }
    if ((g->full & ~g->placed[u] & ~once) != 0)
        return SDK_UNSOLVABLE;
    for (uint32_t lone = once & ~twice; lone; lone &= lone - 1) {
        const uint32_t bit = lone & -lone;
        uint32_t j = 0;
        if (g->placed[u] & bit)
            continue; /* placed by an earlier single of this pass */
        while (j < g->n && !(g->cand[g->unit_cell[u][j]] & bit))
            j++;
        if (j == g->n || grid_place(g, g->unit_cell[u][j], (uint32_t)__builtin_ctz(bit) + 1))
            return SDK_UNSOLVABLE;
        *changed = 1;
    }
    return 0;
}

/* Load the givens: every open cell starts with every value. */
static int grid_load(struct sat_grid *g, uint32_t n, const uint8_t *cells)
{
    g->n = n;
    g->full = (1u << n) - 1;
    g->open_len = n * n;
    memset(g->cell, 0, sizeof(g->cell));
    memset(g->placed, 0, sizeof(g->placed));
    for (uint32_t i = 0; i < n * n; i++)
        g->cand[i] = g->full;
    grid_map_units(g);
    for (uint32_t i = 0; i < n * n; i++)
        if (cells[i] && grid_place(g, i, cells[i]) != 0)
            return SDK_UNSOLVABLE;
    return 0;
}

int sat_grid_init(struct sat_grid *g, uint32_t n, const uint8_t *cells)
{
    int changed = 1;

    if (grid_load(g, n, cells) != 0)
        return SDK_UNSOLVABLE;
    while (changed && g->open_len) {
        changed = 0;
        if (grid_naked(g, &changed) != 0)
            return SDK_UNSOLVABLE;
        for (uint32_t u = 0; u < 3 * n; u++)
            if (grid_hidden_unit(g, u, &changed) != 0)
                return SDK_UNSOLVABLE;
    }
    return 0;
}
