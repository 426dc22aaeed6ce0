/* forcing.c -- forcing chains: try both ways, keep what both agree on.
 *
 * A source with exactly two possibilities (a bivalue cell's two values, or
 * the two places of a value in a unit) is split into two branches.  Each
 * branch places its choice on a copy of the grid and applies singles until
 * none is left (lg_grid_propagate).  One of the branches is true, so:
 *   - a branch that breaks the grid is false: the other choice is placed;
 *   - a cell both branches solve with the same value takes that value;
 *   - a candidate both branches remove goes.
 * The dynamic kind also applies locked candidates inside each branch, and
 * takes single candidates as sources: one whose branch breaks the grid goes
 * (a contradiction).  The copies live in one struct on the caller's stack;
 * nothing allocates.
 */
#include <string.h>

#include "lg.h"

/* The two branches of one source. */
struct forcing {
    bool dynamic;         /* branches also use locked candidates */
    struct lg_grid br[2]; /* the branch positions */
    uint16_t cell[2];     /* where each branch places */
    uint8_t val[2];       /* what it places */
    int rc[2];            /* lg_grid_propagate's answer */
};

/* What candidates cell has in branch g: its value's bit when solved. */
static uint32_t branch_mask(const struct lg_grid *g, uint32_t cell)
{
    return g->val[cell] ? 1u << (g->val[cell] - 1) : g->cand[cell];
}

/* Take mask from the b cells of segment j of line (a row when rows, else a
 * column).  Returns candidates removed. */
static int seg_remove(struct lg_grid *g, const struct lg_geom *geo, bool rows, uint32_t line,
                      uint32_t j, uint32_t mask)
{
    const uint32_t n = geo->n, b = geo->box;
    int removed = 0;

    for (uint32_t k = 0; mask && k < b; k++) {
        uint32_t cell = rows ? line * n + j * b + k : (j * b + k) * n + line;
        removed += (int)lg_popcount(g->cand[cell] & mask);
        g->cand[cell] &= ~mask;
    }
    return removed;
}

/* Locked candidates on g, every one at once, on segments (a line's cells in
 * one box): seg[l][j] is what line l holds in its j-th box.  A value that a
 * box has in one segment only leaves the line's other segments (pointing);
 * one that a line has in one segment only leaves the box's other segments
 * (claiming).  O(n * n) a pass.  Returns candidates removed. */
static int lock_lines(struct lg_grid *g, const struct lg_geom *geo, bool rows)
{
    const uint32_t n = geo->n, b = geo->box;
    uint32_t seg[LG_MAX_N][4] = {{0}};
    int removed = 0;

    for (uint32_t l = 0; l < n; l++)
        for (uint32_t i = 0; i < n; i++)
            seg[l][i / b] |= g->cand[rows ? l * n + i : i * n + l];
    for (uint32_t l = 0; l < n; l++) {
        const uint32_t band = l / b * b;
        for (uint32_t j = 0; j < b; j++) {
            uint32_t in_box = 0, in_line = 0;
            for (uint32_t k = 0; k < b; k++) {
                if (band + k != l)
                    in_box |= seg[band + k][j];
                if (k != j)
                    in_line |= seg[l][k];
            }
            uint32_t pointing = seg[l][j] & ~in_box, claiming = seg[l][j] & ~in_line;
            /* Usually there is nothing left to remove: look at the
             * segment masks before touching cells. */
            for (uint32_t k = 0; pointing && k < b; k++)
                if (k != j && (seg[l][k] & pointing))
                    removed += seg_remove(g, geo, rows, l, k, pointing);
            for (uint32_t k = 0; claiming && k < b; k++)
                if (band + k != l && (seg[band + k][j] & claiming))
                    removed += seg_remove(g, geo, rows, band + k, j, claiming);
        }
    }
    return removed;
}

/* What a branch deduces: singles, and (dynamic) locked candidates, until
 * nothing changes.  Returns 0, or -1 when the branch breaks the grid. */
static int deduce(struct lg_grid *g, const struct lg_geom *geo, bool dynamic)
{
    for (;;) {
        if (lg_grid_propagate(g, geo) != 0)
            return -1;
        int removed = 0;
        if (dynamic && g->unsolved)
            removed = lock_lines(g, geo, true) + lock_lines(g, geo, false);
        /* propagate's last pass found every cell with a candidate and
         * every value of every unit with a place (or the grid full and
         * valid), and nothing was removed since: the branch stands. */
        if (!removed)
            return 0;
    }
}

/* Run both branches of f from position g. */
static void forcing_run(struct forcing *f, const struct lg_ctx *c)
{
    for (int b = 0; b < 2; b++) {
        memcpy(&f->br[b], c->g, sizeof(f->br[b]));
        lg_grid_place(&f->br[b], c->geo, f->cell[b], f->val[b]);
        f->rc[b] = deduce(&f->br[b], c->geo, f->dynamic);
    }
}

/* Collect what both branches agree on into s. */
static void forcing_agree(const struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        if (c->g->val[i])
            continue;
        uint32_t m0 = branch_mask(&f->br[0], i), m1 = branch_mask(&f->br[1], i);
        if (f->br[0].val[i] && f->br[0].val[i] == f->br[1].val[i])
            lg_step_place(s, i, f->br[0].val[i]);
        else
            lg_step_elim_mask(s, c->g, i, ~(m0 | m1));
    }
}

/* Turn the two branches into a step.  Returns true when it changes the
 * candidates. */
static bool forcing_conclude(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    char a[16], b[16];

    forcing_run(f, c);
    if (f->rc[0] < 0 && f->rc[1] < 0)
        return false; /* no solution at all: left to the caller's check */
    for (int k = 0; k < 2; k++) {
        if (f->rc[k] >= 0)
            continue;
        lg_step_place(s, f->cell[!k], f->val[!k]);
        lg_step_cell(s, f->cell[k]);
        if (c->want_text)
            lg_text(c, s, "%s: %u in %s breaks the grid, so %s is %u", s->name, f->val[k],
                    lg_cell_name(c->geo, f->cell[k], a, sizeof(a)),
                    lg_cell_name(c->geo, f->cell[!k], b, sizeof(b)), f->val[!k]);
        return true;
    }
    forcing_agree(f, c, s);
    if (!s->place_len && !s->elim_len)
        return false;
    lg_step_cell(s, f->cell[0]);
    if (f->cell[1] != f->cell[0])
        lg_step_cell(s, f->cell[1]);
    if (c->want_text)
        lg_text(c, s,
                "%s: %s is %u or %s is %u, and both lead to the same %u placements and %u "
                "eliminations",
                s->name, lg_cell_name(c->geo, f->cell[0], a, sizeof(a)), f->val[0],
                lg_cell_name(c->geo, f->cell[1], b, sizeof(b)), f->val[1], s->place_len,
                s->elim_len);
    return true;
}

/* Sources of the first kind: bivalue cells. */
static bool forcing_cells(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        uint32_t m = c->g->cand[i];
        if (lg_popcount(m) != 2)
            continue;
        if (lg_should_stop(c))
            return false;
        f->cell[0] = f->cell[1] = (uint16_t)i;
        f->val[0] = (uint8_t)(lg_lowest(m) + 1);
        f->val[1] = (uint8_t)(lg_lowest(m & (m - 1)) + 1);
        if (forcing_conclude(f, c, s))
            return true;
    }
    return false;
}

/* Sources of the second kind: a value with two places in a unit. */
static bool forcing_units(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;

    for (uint32_t u = 0; u < geo->nunits; u++) {
        if (lg_should_stop(c))
            return false;
        for (uint32_t v = 1; v <= geo->n; v++) {
            uint32_t count = 0;
            for (uint32_t k = 0; k < geo->n && count <= 2; k++) {
                uint32_t cell = geo->unit[u][k];
                if (!(c->g->cand[cell] & (1u << (v - 1))))
                    continue;
                if (count < 2)
                    f->cell[count] = (uint16_t)cell;
                count++;
            }
            if (count != 2)
                continue;
            f->val[0] = f->val[1] = (uint8_t)v;
            if (forcing_conclude(f, c, s))
                return true;
        }
    }
    return false;
}

/* A candidate whose placement breaks the grid goes. */
static bool forcing_contradiction(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    char a[16];

    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        if (c->g->cand[i] && lg_should_stop(c))
            return false;
        for (uint32_t m = c->g->cand[i]; m; m &= m - 1) {
            uint32_t v = lg_lowest(m) + 1;
            memcpy(&f->br[0], c->g, sizeof(f->br[0]));
            lg_grid_place(&f->br[0], c->geo, i, v);
            if (deduce(&f->br[0], c->geo, f->dynamic) == 0)
                continue;
            lg_step_elim(s, i, v);
            lg_step_cell(s, i);
            lg_text(c, s, "%s: %u in %s leads to a contradiction, so it goes", s->name, v,
                    lg_cell_name(c->geo, i, a, sizeof(a)));
            return true;
        }
    }
    return false;
}

/* A forcing chain: bivalue cells first, then two-place values; branches
 * deduce by singles. */
bool lg_forcing_chain(const struct lg_ctx *c, struct lg_step *s)
{
    struct forcing f = {.dynamic = false};

    return forcing_cells(&f, c, s) || forcing_units(&f, c, s);
}

/* A dynamic forcing chain: branches also use locked candidates, and a
 * single candidate leading to a contradiction is a source too. */
bool lg_dynamic_forcing_chain(const struct lg_ctx *c, struct lg_step *s)
{
    struct forcing f = {.dynamic = true};

    return forcing_cells(&f, c, s) || forcing_units(&f, c, s) || forcing_contradiction(&f, c, s);
}
