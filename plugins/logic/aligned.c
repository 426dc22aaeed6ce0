/* aligned.c -- aligned pair and triple exclusion.
 *
 * Take two (three) unsolved cells, the base, and the cells that see all of
 * them holding only two candidates (two or three), the excluders.  A way
 * to fill the base is impossible when it gives one value to two base
 * cells that see each other, or when it uses every candidate of one
 * excluder (that cell would be left empty).  A candidate of a base cell
 * that no possible way uses goes.
 *
 * The search is Sudoku Explainer 1.2.1's (SE), in its order, so that the
 * step taken is the one SE takes: the base cells are the cells with two
 * candidates or more, an excluder among their peers and no peer down to one
 * candidate, in row-major order; pairs go in SE's order (by the later cell,
 * then the earlier); a triple adds to a pair a third base cell that is an
 * excluder of one of the two; and at least two excluders must see all of
 * the base.  The first step found is taken, rated 6.2 (pair) or 7.5
 * (triple), as SE rates them.  Peers are the geometry's, so the search
 * holds on variants too; it runs on grids up to 9x9 (16x16 has too many
 * bases to pay for).  All state is one struct on the stack (about 9 KB).
 */
#include <string.h>

#include "lg.h"

#define AX_MAX_N     9  /* the largest side searched */
#define AX_MAX_CELLS 81 /* its cells */
#define AX_MAX_PEERS 80 /* peers of one cell on such a side, variants included */

/* The bases and excluders of one position. */
struct ax {
    const struct lg_ctx *c;
    uint32_t degree;                               /* 2 (pair) or 3 (triple) */
    uint32_t nbase;                                /* base cells */
    uint16_t base[AX_MAX_CELLS];                   /* the base cells, row-major */
    bool is_base[AX_MAX_CELLS];                    /* cell is a base cell */
    struct lg_set excl[AX_MAX_CELLS];              /* excluders of each base (by index) */
    uint8_t excl_list[AX_MAX_CELLS][AX_MAX_PEERS]; /* the same, in SE's order */
    uint8_t nexcl[AX_MAX_CELLS];                   /* entries of excl_list */
};

/* The peers of cell in SE's order: box, row and column, then a variant's
 * other peers.  Returns the count. */
static uint32_t peers_ordered(const struct lg_geom *geo, uint32_t cell, uint8_t *out)
{
    const uint32_t n = geo->n;
    const uint32_t units[3] = {2 * n + geo->bx[cell], geo->row[cell], n + geo->col[cell]};
    bool have[AX_MAX_CELLS] = {false};
    uint32_t len = 0;

    have[cell] = true;
    for (uint32_t t = 0; t < 3; t++)
        for (uint32_t k = 0; k < n; k++) {
            uint32_t x = geo->unit[units[t]][k];
            if (!have[x] && lg_set_has(&geo->peers[cell], x)) {
                have[x] = true;
                out[len++] = (uint8_t)x;
            }
        }
    for (uint32_t k = 0; k < geo->npeer[cell]; k++) {
        uint32_t x = geo->peer_list[cell][k];
        if (!have[x] && len < AX_MAX_PEERS) {
            have[x] = true;
            out[len++] = (uint8_t)x;
        }
    }
    return len;
}

/* Find the base cells and their excluders.  Returns the base count. */
static uint32_t ax_init(struct ax *a, const struct lg_ctx *c, uint32_t degree)
{
    uint8_t peers[AX_MAX_PEERS];

    a->c = c;
    a->degree = degree;
    a->nbase = 0;
    for (uint32_t cell = 0; cell < c->geo->ncells; cell++) {
        uint32_t np = peers_ordered(c->geo, cell, peers), ne = 0, b = a->nbase;
        bool single = false;
        a->is_base[cell] = false;
        if (lg_popcount(c->g->cand[cell]) < 2)
            continue;
        memset(&a->excl[b], 0, sizeof(a->excl[b]));
        for (uint32_t k = 0; k < np; k++) {
            uint32_t card = lg_popcount(c->g->cand[peers[k]]);
            single |= card == 1;
            if (card >= 2 && card <= degree) {
                a->excl_list[b][ne++] = peers[k];
                lg_set_add(&a->excl[b], peers[k]);
            }
        }
        if (single || ne == 0)
            continue;
        a->nexcl[b] = (uint8_t)ne;
        a->base[a->nbase++] = (uint16_t)cell;
        a->is_base[cell] = true;
    }
    return a->nbase;
}

static uint32_t set_count(const struct lg_set *s)
{
    uint32_t n = 0;

    for (int i = 0; i < LG_SET_WORDS; i++)
        n += (uint32_t)__builtin_popcountll(s->w[i]);
    return n;
}

/* Is the way vals[] of filling cells[] possible: no value twice on cells
 * that see each other, no excluder (masks) left without a candidate? */
static bool way_ok(const struct ax *a, const uint16_t *cells, const uint32_t *vals,
                   const uint32_t *masks, uint32_t nmasks)
{
    uint32_t used = 0;

    for (uint32_t i = 0; i < a->degree; i++) {
        for (uint32_t j = i + 1; j < a->degree; j++)
            if (vals[i] == vals[j] && lg_sees(a->c->geo, cells[i], cells[j]))
                return false;
        used |= vals[i];
    }
    for (uint32_t k = 0; k < nmasks; k++)
        if (!(masks[k] & ~used))
            return false;
    return true;
}

/* Every way of filling cells[] with excluders common: what each cell may
 * still hold goes into keep[].  */
static void ways(const struct ax *a, const uint16_t *cells, const struct lg_set *common,
                 uint32_t *keep)
{
    const uint32_t *cand = a->c->g->cand;
    uint32_t masks[AX_MAX_CELLS], nmasks = 0, vals[3];

    for (int e = lg_set_next(common, 0); e >= 0; e = lg_set_next(common, (uint32_t)e + 1))
        masks[nmasks++] = cand[e];
    keep[0] = keep[1] = keep[2] = 0;
    for (uint32_t m0 = cand[cells[0]]; m0; m0 &= m0 - 1) {
        vals[0] = m0 & -m0;
        for (uint32_t m1 = cand[cells[1]]; m1; m1 &= m1 - 1) {
            vals[1] = m1 & -m1;
            uint32_t m2 = a->degree == 3 ? cand[cells[2]] : 1;
            for (; m2; m2 &= m2 - 1) {
                vals[2] = m2 & -m2;
                if (!way_ok(a, cells, vals, masks, nmasks))
                    continue;
                for (uint32_t i = 0; i < a->degree; i++)
                    keep[i] |= vals[i];
            }
        }
    }
}

/* Try the base cells[]: a step when some candidate has no possible way. */
static bool ax_try(const struct ax *a, const uint16_t *cells, const struct lg_set *common,
                   struct lg_step *s)
{
    const struct lg_ctx *c = a->c;
    uint32_t keep[3];

    ways(a, cells, common, keep);
    for (uint32_t i = 0; i < a->degree; i++)
        lg_step_elim_mask(s, c->g, cells[i], ~keep[i]);
    if (!s->elim_len)
        return false;
    for (uint32_t i = 0; i < a->degree; i++)
        lg_step_cell(s, cells[i]);
    for (int e = lg_set_next(common, 0); e >= 0; e = lg_set_next(common, (uint32_t)e + 1))
        lg_step_cell(s, (uint32_t)e);
    if (c->want_text) {
        char b[48], x[LG_TEXT_MAX / 2];
        lg_cells_name(c->geo, s->cells, a->degree, b, sizeof(b));
        lg_cells_name(c->geo, s->cells + a->degree, s->cells_len - a->degree, x, sizeof(x));
        lg_text(c, s,
                "%s: every way to fill %s that repeats no value in a house and leaves a candidate "
                "to each of %s, which see them all, misses %u of their candidates",
                s->name, b, x, s->elim_len);
    }
    return true;
}

/* The third cells of pair (i, j): base cells that are excluders of either,
 * in SE's order.  Returns the count. */
static uint32_t tails(const struct ax *a, uint32_t i, uint32_t j, uint16_t *out)
{
    bool have[AX_MAX_CELLS] = {false};
    const uint32_t src[2] = {i, j};
    uint32_t len = 0;

    have[a->base[i]] = have[a->base[j]] = true;
    for (uint32_t s = 0; s < 2; s++)
        for (uint32_t k = 0; k < a->nexcl[src[s]]; k++) {
            uint32_t x = a->excl_list[src[s]][k];
            if (!have[x] && a->is_base[x]) {
                have[x] = true;
                out[len++] = (uint16_t)x;
            }
        }
    return len;
}

/* The index of base cell x. */
static uint32_t base_index(const struct ax *a, uint32_t x)
{
    for (uint32_t i = 0; i < a->nbase; i++)
        if (a->base[i] == x)
            return i;
    return 0; /* not reached: x is a base cell */
}

/* The pair (i, j) and, for triples, each third cell. */
static bool ax_pair(const struct ax *a, uint32_t i, uint32_t j, struct lg_step *s)
{
    uint16_t cells[3] = {a->base[i], a->base[j], 0}, third[AX_MAX_CELLS];
    struct lg_set common;

    lg_set_and(&common, &a->excl[i], &a->excl[j]);
    if (a->degree == 2)
        return set_count(&common) >= 2 && ax_try(a, cells, &common, s);
    uint32_t nt = tails(a, i, j, third);
    for (uint32_t k = 0; k < nt; k++) {
        struct lg_set all;
        lg_set_and(&all, &common, &a->excl[base_index(a, third[k])]);
        cells[2] = third[k];
        if (set_count(&all) >= 2 && ax_try(a, cells, &all, s))
            return true;
    }
    return false;
}

/* Aligned exclusion of the given degree: the first step in SE's order. */
static bool aligned(const struct lg_ctx *c, struct lg_step *s, uint32_t degree)
{
    struct ax a;

    if (c->geo->n > AX_MAX_N || ax_init(&a, c, degree) < degree)
        return false;
    for (uint32_t j = 1; j < a.nbase; j++) {
        if (degree == 3 && lg_should_stop(c))
            return false;
        for (uint32_t i = 0; i < j; i++)
            if (ax_pair(&a, i, j, s))
                return true;
    }
    return false;
}

bool lg_aligned_pair_exclusion(const struct lg_ctx *c, struct lg_step *s)
{
    return aligned(c, s, 2);
}

bool lg_aligned_triple_exclusion(const struct lg_ctx *c, struct lg_step *s)
{
    return aligned(c, s, 3);
}
