/* grid.c -- the logic plugin's grid: shape, candidates, steps applied.
 *
 * Invariants of struct lg_grid (kept by lg_grid_load and lg_grid_place): a
 * solved cell has cand 0 and its value removed from every peer; an unsolved
 * cell's cand never holds a value solved in one of its units.  A candidate
 * mask of 0 on an unsolved cell, or a value with no place left in a unit,
 * means the position has no solution (lg_grid_is_broken).
 */
#include <errno.h>
#include <string.h>

#include "lg.h"

/* Fill geo for side n.  with_peers also builds the peer sets (n <= 16).
 * Returns 0 or -EINVAL for a side the ABI does not know. */
int lg_geom_init(struct lg_geom *geo, uint32_t n, bool with_peers)
{
    const uint32_t b = sdk_box_side(n);

    if (b == 0 || (with_peers && n > LG_EXPLAIN_MAX_N))
        return -EINVAL;
    geo->n = n;
    geo->box = b;
    geo->ncells = n * n;
    geo->nunits = 3 * n;
    geo->rules = NULL;
    for (uint32_t i = 0; i < n * n; i++) {
        uint32_t r = i / n, c = i % n, x = r / b * b + c / b;
        geo->extra[i] = 0;
        geo->nnc[i] = 0;
        geo->cage_of[i] = -1;
        geo->row[i] = (uint8_t)r;
        geo->col[i] = (uint8_t)c;
        geo->bx[i] = (uint8_t)x;
        geo->unit[r][c] = (uint16_t)i;
        geo->unit[n + c][r] = (uint16_t)i;
        geo->unit[2 * n + x][r % b * b + c % b] = (uint16_t)i;
    }
    if (!with_peers)
        return 0;
    for (uint32_t i = 0; i < n * n; i++) {
        uint32_t len = 0;
        memset(&geo->peers[i], 0, sizeof(geo->peers[i]));
        for (uint32_t j = 0; j < n * n; j++) {
            if (j == i || !lg_sees(geo, i, j))
                continue;
            lg_set_add(&geo->peers[i], j);
            geo->peer_list[i][len++] = (uint8_t)j;
        }
        geo->npeer[i] = (uint8_t)len;
        geo->npeers = (uint8_t)len; /* the same for every cell */
    }
    return 0;
}

/* Do cells a and b share a unit, or (variants) must they differ?  (A cell
 * sees itself.) */
bool lg_sees(const struct lg_geom *geo, uint32_t a, uint32_t b)
{
    if (geo->rules)
        return a == b || lg_set_has(&geo->peers[a], b);
    return geo->row[a] == geo->row[b] || geo->col[a] == geo->col[b] || geo->bx[a] == geo->bx[b];
}

/* The places of every value in every unit of c's position, built once per
 * position (the cache is c->pos). */
const struct lg_pos *lg_positions(const struct lg_ctx *c)
{
    struct lg_pos *p = c->pos;
    const struct lg_geom *geo = c->geo;

    if (p->valid)
        return p;
    if (geo->rules) {
        lg_var_positions(c, p); /* regions and extra houses: no box arithmetic */
        return p;
    }
    const uint32_t n = geo->n, b = geo->box;

    memset(p->m, 0, sizeof(p->m[0]) * geo->nunits);
    /* One pass over the cells: a cell is the col-th of its row, the
     * row-th of its column and the (row % b * b + col % b)-th of its box. */
    for (uint32_t i = 0; i < geo->ncells; i++) {
        const uint32_t r = geo->row[i], col = geo->col[i], x = 2 * n + geo->bx[i];
        const uint16_t in_row = (uint16_t)(1u << col), in_col = (uint16_t)(1u << r);
        const uint16_t in_box = (uint16_t)(1u << (r % b * b + col % b));
        for (uint32_t m = c->g->cand[i]; m; m &= m - 1) {
            uint32_t v = lg_lowest(m);
            p->m[r][v] |= in_row;
            p->m[n + col][v] |= in_col;
            p->m[x][v] |= in_box;
        }
    }
    p->valid = true;
    return p;
}

/* Solve cell with value v and remove v from its peers. */
void lg_grid_place(struct lg_grid *g, const struct lg_geom *geo, uint32_t cell, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1), n = geo->n;
    const uint16_t *u[3] = {geo->unit[geo->row[cell]], geo->unit[n + geo->col[cell]],
                            geo->unit[2 * n + geo->bx[cell]]};

    if (geo->rules) {
        lg_var_place(g, geo, cell, v); /* every peer, and the non-consecutive partners */
        return;
    }
    g->val[cell] = (uint8_t)v;
    g->cand[cell] = 0;
    g->unsolved--;
    for (int k = 0; k < 3; k++)
        for (uint32_t i = 0; i < n; i++)
            g->cand[u[k][i]] &= ~bit;
}

/* Load a grid (0 = blank).  Returns 0, -EINVAL for a value above n, or
 * -EDOM when two values clash or a blank has no candidate left. */
int lg_grid_load(struct lg_grid *g, const struct lg_geom *geo, const uint8_t *cells)
{
    const uint32_t n = geo->n;

    g->all = n == 32 ? ~0u : (1u << n) - 1;
    g->unsolved = geo->ncells;
    for (uint32_t i = 0; i < geo->ncells; i++) {
        if (cells[i] > n)
            return -EINVAL;
        g->val[i] = 0;
        g->cand[i] = g->all;
    }
    for (uint32_t i = 0; i < geo->ncells; i++) {
        uint32_t v = cells[i];
        if (v == 0)
            continue;
        if (!(g->cand[i] & (1u << (v - 1))))
            return -EDOM;
        lg_grid_place(g, geo, i, v);
    }
    return lg_grid_is_broken(g, geo) ? -EDOM : 0;
}

/* Does the position have no solution for a plain reason: an unsolved cell
 * without candidates, or a unit where some value has neither a cell nor a
 * place? */
bool lg_grid_is_broken(const struct lg_grid *g, const struct lg_geom *geo)
{
    for (uint32_t i = 0; i < geo->ncells; i++)
        if (!g->val[i] && !g->cand[i])
            return true;
    for (uint32_t u = 0; u < geo->nunits; u++) {
        uint32_t seen = 0;
        for (uint32_t k = 0; k < geo->n; k++) {
            uint32_t cell = geo->unit[u][k];
            seen |= g->val[cell] ? 1u << (g->val[cell] - 1) : g->cand[cell];
        }
        if (seen != g->all)
            return true;
    }
    return false;
}

/* Place every hidden single of unit u.  Returns placements made, or -EDOM
 * when a value has no place left. */
static int propagate_unit(struct lg_grid *g, const struct lg_geom *geo, uint32_t u)
{
    uint32_t once = 0, twice = 0, solved = 0;
    int placed = 0;

    for (uint32_t k = 0; k < geo->n; k++) {
        uint32_t cell = geo->unit[u][k], m = g->cand[cell];
        if (g->val[cell])
            solved |= 1u << (g->val[cell] - 1);
        twice |= once & m;
        once |= m;
    }
    if ((once | solved) != g->all)
        return -EDOM;
    uint32_t single = once & ~twice;
    for (uint32_t k = 0; k < geo->n && single; k++) {
        uint32_t cell = geo->unit[u][k], m = g->cand[cell] & single;
        if (!m)
            continue;
        if (m & (m - 1))
            return -EDOM; /* two values that must both go here */
        lg_grid_place(g, geo, cell, lg_lowest(m) + 1);
        single &= ~m;
        placed++;
    }
    return placed;
}

/* Apply naked and hidden singles until none is left.  Returns 0, or -EDOM
 * when the position turns out to have no solution. */
int lg_grid_propagate(struct lg_grid *g, const struct lg_geom *geo)
{
    int changed = 1;

    while (changed && g->unsolved) {
        changed = 0;
        for (uint32_t i = 0; i < geo->ncells; i++) {
            uint32_t m = g->cand[i];
            if (g->val[i])
                continue;
            if (!m)
                return -EDOM;
            if (!(m & (m - 1))) {
                lg_grid_place(g, geo, i, lg_lowest(m) + 1);
                changed = 1;
            }
        }
        for (uint32_t u = 0; u < geo->nunits; u++) {
            int rc = propagate_unit(g, geo, u);
            if (rc < 0)
                return rc;
            changed |= rc > 0;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Steps                                                                     */
/* ------------------------------------------------------------------------ */

/* Start an empty step of technique name. */
void lg_step_reset(struct lg_step *s, const char *name, double rating)
{
    s->name = name;
    s->rating = rating;
    s->place_len = 0;
    s->elim_len = 0;
    s->cells_len = 0;
    s->text_len = 0;
    s->text[0] = '\0';
}

/* Record a placement (dropped beyond LG_STEP_PLACES: the rest come later). */
void lg_step_place(struct lg_step *s, uint32_t cell, uint32_t v)
{
    if (s->place_len == LG_STEP_PLACES)
        return;
    s->place_cell[s->place_len] = (uint16_t)cell;
    s->place_val[s->place_len++] = (uint8_t)v;
}

/* Record an elimination (dropped beyond LG_STEP_ELIMS: still sound). */
void lg_step_elim(struct lg_step *s, uint32_t cell, uint32_t v)
{
    if (s->elim_len == LG_STEP_ELIMS)
        return;
    s->elim_cell[s->elim_len] = (uint16_t)cell;
    s->elim_val[s->elim_len++] = (uint8_t)v;
}

/* Record the candidates of mask that cell still has as eliminations. */
void lg_step_elim_mask(struct lg_step *s, const struct lg_grid *g, uint32_t cell, uint32_t mask)
{
    uint32_t m = g->cand[cell] & mask;

    for (; m; m &= m - 1)
        lg_step_elim(s, cell, lg_lowest(m) + 1);
}

/* Record a pattern cell (dropped beyond LG_STEP_CELLS). */
void lg_step_cell(struct lg_step *s, uint32_t cell)
{
    if (s->cells_len < LG_STEP_CELLS)
        s->cells[s->cells_len++] = (uint16_t)cell;
}

/* Apply s to g: eliminations first, then placements.  An entry that changes
 * nothing (a repeat) is dropped from s.  Returns true when g changed. */
bool lg_step_apply(struct lg_step *s, struct lg_grid *g, const struct lg_geom *geo)
{
    uint32_t kept = 0;

    for (uint32_t i = 0; i < s->elim_len; i++) {
        uint32_t cell = s->elim_cell[i], bit = 1u << (s->elim_val[i] - 1);
        if (!(g->cand[cell] & bit))
            continue;
        g->cand[cell] &= ~bit;
        s->elim_cell[kept] = (uint16_t)cell;
        s->elim_val[kept++] = s->elim_val[i];
    }
    s->elim_len = kept;
    kept = 0;
    for (uint32_t i = 0; i < s->place_len; i++) {
        uint32_t cell = s->place_cell[i], v = s->place_val[i];
        if (g->val[cell] || !(g->cand[cell] & (1u << (v - 1))))
            continue;
        lg_grid_place(g, geo, cell, v);
        s->place_cell[kept] = (uint16_t)cell;
        s->place_val[kept++] = (uint8_t)v;
    }
    s->place_len = kept;
    return s->elim_len + s->place_len > 0;
}
