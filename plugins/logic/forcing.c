/* forcing.c -- forcing chains: try both ways, keep what both agree on.
 *
 * A source with exactly two possibilities (a bivalue cell's two values, or
 * the two places of a value in a unit) is split into two branches.  Each
 * branch places its choice on a copy of the grid and applies singles until
 * none is left (lg_grid_propagate).  One of the branches is true, so:
 *   - a branch that breaks the grid is false: the other choice is placed;
 *   - a cell both branches solve with the same value takes that value;
 *   - a candidate both branches remove goes.
 * The copies live in one struct on the caller's stack; nothing allocates.
 */
#include <string.h>

#include "lg.h"

/* The two branches of one source. */
struct forcing {
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

/* Run both branches of f from position g. */
static void forcing_run(struct forcing *f, const struct lg_ctx *c)
{
    for (int b = 0; b < 2; b++) {
        memcpy(&f->br[b], c->g, sizeof(f->br[b]));
        lg_grid_place(&f->br[b], c->geo, f->cell[b], f->val[b]);
        f->rc[b] = lg_grid_propagate(&f->br[b], c->geo);
        if (f->rc[b] == 0 && lg_grid_is_broken(&f->br[b], c->geo))
            f->rc[b] = -1;
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
            lg_text(c, s, "forcing chain: %u in %s breaks the grid by singles, so %s is %u",
                    f->val[k], lg_cell_name(c->geo, f->cell[k], a, sizeof(a)),
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
                "forcing chain: %s is %u or %s is %u, and singles from either give the same "
                "%u placements and %u eliminations",
                lg_cell_name(c->geo, f->cell[0], a, sizeof(a)), f->val[0],
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

/* A forcing chain: bivalue cells first, then two-place values. */
bool lg_forcing_chain(const struct lg_ctx *c, struct lg_step *s)
{
    struct forcing f;

    return forcing_cells(&f, c, s) || forcing_units(&f, c, s);
}
