/* singles.c -- what the givens force: singles and locked candidates.
 *
 * The sat plugin runs this before it builds any clause: on real puzzles it
 * fills a good share of the open cells and removes many more candidates, so
 * the formula CaDiCaL sees is several times smaller than the encoding of the
 * raw givens (and much faster to solve than the givens as unit clauses).
 * Naked and hidden singles run to a fixpoint; when they stall, locked
 * candidates (box-line reduction, both ways) strike more, and singles run
 * again.  On the real 25x25 set that cut CaDiCaL's conflicts by about 5%.
 * When propagation alone fills the grid the plugin answers without a solver.
 *
 * A variant brings its own houses (the rules' table: rows, columns, boxes or
 * jigsaw regions, diagonals, windows) and links (struct sat_links): a placed
 * digit also leaves the cells a difference pair or its cage ties to the
 * cell, and its neighbours' in a non-consecutive pair; a cage starts with
 * the digits of its combinations only, and a cage with one open cell left
 * gives that cell its last digit.  Locked candidates need square boxes, so
 * a jigsaw skips them.
 *
 * Every deduction here is forced, so a grid this fills has exactly one
 * solution (every rule was kept at each placement, cage sums included), and
 * a contradiction here proves there is none.  Units are numbered rows
 * 0..n-1, columns n..2n-1, boxes (or regions) 2n..3n-1, then the variant's
 * extra houses.
 */
#include "sat.h"

#include <string.h>

/* Record that cell c lies in unit u. */
static void grid_add_unit(struct sat_grid *g, uint32_t u, uint32_t j, uint16_t c)
{
    g->unit_cell[u][j] = c;
    g->cell_unit[c][g->cell_units_len[c]++] = (uint8_t)u;
}

/* Fill unit_cell[][] and cell_unit[][] for side n: rows, columns, boxes. */
static void grid_map_units(struct sat_grid *g)
{
    const uint32_t n = g->n, bs = sdk_box_side(n);

    g->units_len = 3 * n;
    for (uint32_t a = 0; a < n; a++) {
        for (uint32_t b = 0; b < n; b++) {
            grid_add_unit(g, a, b, (uint16_t)(a * n + b));
            grid_add_unit(g, n + a, b, (uint16_t)(b * n + a));
            grid_add_unit(g, 2 * n + a, b,
                          (uint16_t)(((a / bs) * bs + b / bs) * n + (a % bs) * bs + b % bs));
        }
    }
}

/* The same from the houses of rules (checked by sat_rules_ok()). */
static void grid_map_houses(struct sat_grid *g, const struct sdk_rules *rules)
{
    g->units_len = rules->houses_len;
    for (uint32_t u = 0; u < rules->houses_len; u++)
        for (uint32_t j = 0; j < g->n; j++)
            grid_add_unit(g, u, j, rules->houses[u * g->n + j]);
}

/* Give open cell i of cage k its last digit, sum_left.  Returns 0, or
 * SDK_UNSOLVABLE when that is no candidate of i. */
static int grid_cage_last(struct sat_grid *g, uint32_t i)
{
    const struct sat_links *l = g->links;
    const int32_t left = l->sum_left[l->cage_of[i]];

    if (left < 1 || left > (int32_t)g->n)
        return SDK_UNSOLVABLE;
    g->cand[i] &= 1u << (left - 1);
    return g->cand[i] ? 0 : SDK_UNSOLVABLE;
}

/* Strike value v (1..n), just placed in cell i, from the cells linked to i,
 * and keep i's cage's account.  Returns 0 or SDK_UNSOLVABLE. */
static int grid_place_links(struct sat_grid *g, uint32_t i, uint32_t v)
{
    struct sat_links *l = g->links;
    const uint32_t bit = 1u << (v - 1), near = ((bit << 1) | (bit >> 1)) & g->full;
    const int32_t k = l->cage_of[i];
    int32_t last = -1;

    if (k >= 0) {
        l->sum_left[k] -= (int32_t)v;
        if (l->sum_left[k] < 0 || (--l->open_left[k] == 0 && l->sum_left[k] != 0))
            return SDK_UNSOLVABLE;
    }
    for (uint32_t e = l->off[i]; e < l->off[i + 1]; e++) {
        const struct sat_link *x = &l->link[e];
        if (g->cell[x->cell] != 0)
            continue;
        if ((g->cand[x->cell] &= ~(x->kind == SAT_LINK_NONCONSEC ? near : bit)) == 0)
            return SDK_UNSOLVABLE;
        if (x->kind == SAT_LINK_CAGE)
            last = x->cell;
    }
    if (k >= 0 && l->open_left[k] == 1 && last >= 0)
        return grid_cage_last(g, (uint32_t)last);
    return 0;
}

/* Place value v (1..n) in open cell i and strike it from every peer.
 * Returns 0, or SDK_UNSOLVABLE when a unit already has v or a peer is left
 * without candidates. */
static int grid_place(struct sat_grid *g, uint32_t i, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1);
    const uint8_t *u = g->cell_unit[i];
    const uint32_t units = g->cell_units_len[i];

    if (!(g->cand[i] & bit))
        return SDK_UNSOLVABLE;
    for (uint32_t k = 0; k < units; k++)
        if (g->placed[u[k]] & bit)
            return SDK_UNSOLVABLE;
    g->cell[i] = (uint8_t)v;
    g->cand[i] = 0;
    g->open_len--;
    for (uint32_t k = 0; k < units; k++) {
        g->placed[u[k]] |= bit;
        for (uint32_t j = 0; j < g->n; j++) {
            const uint16_t c = g->unit_cell[u[k]][j];
            if (g->cell[c] == 0 && (g->cand[c] &= ~bit) == 0)
                return SDK_UNSOLVABLE;
        }
    }
    return g->links ? grid_place_links(g, i, v) : 0;
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

/* Strike the values in mask from open cell i.  Sets *changed when it struck
 * one.  Returns 0, or SDK_UNSOLVABLE when i is left without candidates. */
static int grid_strike(struct sat_grid *g, uint32_t i, uint32_t mask, int *changed)
{
    if (g->cell[i] != 0 || (g->cand[i] & mask) == 0)
        return 0;
    g->cand[i] &= ~mask;
    *changed = 1;
    return g->cand[i] ? 0 : SDK_UNSOLVABLE;
}

/* Locked candidates where box b meets line l (a row, or with is_col a column):
 * seg is their bs shared cells.  A value the box holds only in seg leaves the
 * rest of the line (pointing); a value the line holds only in seg leaves the
 * rest of the box (claiming).  Returns 0 or SDK_UNSOLVABLE. */
static int grid_locked_one(struct sat_grid *g, uint32_t b, uint32_t l, int is_col, int *changed)
{
    const uint32_t n = g->n, bs = sdk_box_side(n), box = 2 * n + b, line = is_col ? n + l : l;
    uint32_t seg = 0, box_rest = 0, line_rest = 0, point, claim;

    for (uint32_t j = 0; j < n; j++) {
        const uint16_t c = g->unit_cell[box][j];
        const uint32_t m = g->cand[c];
        if ((is_col ? c % n : c / n) == l)
            seg |= m;
        else
            box_rest |= m;
        const uint16_t d = g->unit_cell[line][j];
        if (((is_col ? d / n : d % n) / bs) != (is_col ? b / bs : b % bs))
            line_rest |= g->cand[d];
    }
    point = seg & ~box_rest;
    claim = seg & ~line_rest;
    for (uint32_t j = 0; j < n && (point | claim); j++) {
        const uint16_t c = g->unit_cell[box][j], d = g->unit_cell[line][j];
        if (claim && (is_col ? c % n : c / n) != l && grid_strike(g, c, claim, changed))
            return SDK_UNSOLVABLE;
        if (point && ((is_col ? d / n : d % n) / bs) != (is_col ? b / bs : b % bs) &&
            grid_strike(g, d, point, changed))
            return SDK_UNSOLVABLE;
    }
    return 0;
}

/* Locked candidates (box-line reduction) on every box and line that cross.
 * Sets *changed when it struck a candidate.  Returns 0 or SDK_UNSOLVABLE. */
static int grid_locked(struct sat_grid *g, int *changed)
{
    const uint32_t n = g->n, bs = sdk_box_side(n);

    for (uint32_t b = 0; b < n; b++) {
        for (uint32_t k = 0; k < bs; k++) {
            if (grid_locked_one(g, b, (b / bs) * bs + k, 0, changed) ||
                grid_locked_one(g, b, (b % bs) * bs + k, 1, changed))
                return SDK_UNSOLVABLE;
        }
    }
    return 0;
}

/* Narrow every cell of every cage to the digits of the cage's combinations
 * (when it has at most SAT_COMBOS_MAX).  Returns 0, or SDK_UNSOLVABLE when a
 * cage has none. */
static int grid_cage_digits(struct sat_grid *g, const struct sdk_rules *rules)
{
    uint32_t combos[SAT_COMBOS_MAX];

    for (uint32_t k = 0; k < rules->cages_len; k++) {
        const struct sdk_cage *c = &rules->cages[k];
        uint32_t m = sat_cage_combos(g->full, c->len, (int32_t)c->sum, combos, SAT_COMBOS_MAX);
        uint32_t digits = 0;
        if (m == 0)
            return SDK_UNSOLVABLE;
        if (m > SAT_COMBOS_MAX)
            continue;
        while (m)
            digits |= combos[--m];
        for (uint32_t j = 0; j < c->len; j++)
            g->cand[rules->cage_cells[c->off + j]] &= digits;
    }
    return 0;
}

/* Load the givens: every open cell starts with every value (of its cage). */
static int grid_load(struct sat_grid *g, uint32_t n, const uint8_t *cells,
                     const struct sdk_rules *rules)
{
    g->n = n;
    g->full = (1u << n) - 1;
    g->open_len = n * n;
    memset(g->cell, 0, sizeof(g->cell));
    memset(g->placed, 0, sizeof(g->placed));
    memset(g->cell_units_len, 0, sizeof(g->cell_units_len));
    for (uint32_t i = 0; i < n * n; i++)
        g->cand[i] = g->full;
    if (rules)
        grid_map_houses(g, rules);
    else
        grid_map_units(g);
    if (rules && grid_cage_digits(g, rules) != 0)
        return SDK_UNSOLVABLE;
    for (uint32_t i = 0; i < n * n; i++)
        if (cells[i] && grid_place(g, i, cells[i]) != 0)
            return SDK_UNSOLVABLE;
    return 0;
}

/* Are units 2n..3n-1 the square boxes in row-major order (not a jigsaw's
 * regions), as locked candidates need?  1 or 0. */
static int grid_has_boxes(const struct sat_grid *g)
{
    const uint32_t n = g->n, bs = sdk_box_side(n);

    for (uint32_t b = 0; b < n; b++) {
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t c = g->unit_cell[2 * n + b][j];
            if ((c / n / bs) * bs + c % n / bs != b)
                return 0;
        }
    }
    return 1;
}

int sat_grid_init(struct sat_grid *g, uint32_t n, const uint8_t *cells,
                  const struct sdk_rules *rules, struct sat_links *links)
{
    int changed = 1;

    g->rules = rules;
    g->links = links;
    if (grid_load(g, n, cells, rules) != 0)
        return SDK_UNSOLVABLE;
    g->has_boxes = grid_has_boxes(g);
    while (changed && g->open_len) {
        changed = 0;
        if (grid_naked(g, &changed) != 0)
            return SDK_UNSOLVABLE;
        for (uint32_t u = 0; u < g->units_len; u++)
            if (grid_hidden_unit(g, u, &changed) != 0)
                return SDK_UNSOLVABLE;
        if (!changed && g->open_len && g->has_boxes && grid_locked(g, &changed) != 0)
            return SDK_UNSOLVABLE;
    }
    return 0;
}
