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
    int8_t index[AX_MAX_CELLS];                    /* each cell's index in base, or -1 */
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
    uint64_t have[2] = {0, 0}; /* bit x: cell x listed (or cell itself) */
    uint32_t len = 0;

    have[cell >> 6] |= (uint64_t)1 << (cell & 63);
    for (uint32_t t = 0; t < 3; t++)
        for (uint32_t k = 0; k < n; k++) {
            uint32_t x = geo->unit[units[t]][k];
            if (!(have[x >> 6] >> (x & 63) & 1) && lg_set_has(&geo->peers[cell], x)) {
                have[x >> 6] |= (uint64_t)1 << (x & 63);
                out[len++] = (uint8_t)x;
            }
        }
    for (uint32_t k = 0; geo->rules && k < geo->npeer[cell]; k++) {
        uint32_t x = geo->peer_list[cell][k];
        if (!(have[x >> 6] >> (x & 63) & 1) && len < AX_MAX_PEERS) {
            have[x >> 6] |= (uint64_t)1 << (x & 63);
            out[len++] = (uint8_t)x;
        }
    }
    return len;
}

/* Find the base cells and their excluders.  Returns the base count. */
static uint32_t ax_init(struct ax *a, const struct lg_ctx *c, uint32_t degree)
{
    uint8_t peers[AX_MAX_PEERS], card[AX_MAX_CELLS];

    a->c = c;
    a->degree = degree;
    a->nbase = 0;
    for (uint32_t cell = 0; cell < c->geo->ncells; cell++)
        card[cell] = (uint8_t)lg_popcount(c->g->cand[cell]);
    for (uint32_t cell = 0; cell < c->geo->ncells; cell++) {
        uint32_t np, ne = 0, b = a->nbase;
        bool single = false;
        a->index[cell] = -1;
        if (card[cell] < 2)
            continue;
        np = peers_ordered(c->geo, cell, peers);
        memset(&a->excl[b], 0, sizeof(a->excl[b]));
        for (uint32_t k = 0; k < np; k++) {
            single |= card[peers[k]] == 1;
            if (card[peers[k]] >= 2 && card[peers[k]] <= degree) {
                a->excl_list[b][ne++] = peers[k];
                lg_set_add(&a->excl[b], peers[k]);
            }
        }
        if (single || ne == 0)
            continue;
        a->nexcl[b] = (uint8_t)ne;
        a->index[cell] = (int8_t)a->nbase;
        a->base[a->nbase++] = (uint16_t)cell;
    }
    return a->nbase;
}

/* Has s two members or more? */
static bool two_or_more(const struct lg_set *s)
{
    uint32_t words = 0;

    for (int i = 0; i < LG_SET_WORDS; i++) {
        if (s->w[i] & (s->w[i] - 1))
            return true;
        words += s->w[i] != 0;
    }
    return words >= 2;
}

/* The sets of at most three values that leave some excluder (masks, two
 * or three candidates each) without a candidate: bit u of bad[u / 64]. */
static void bad_sets(const uint32_t *masks, uint32_t nmasks, uint64_t *bad)
{
    memset(bad, 0, 8 * sizeof(bad[0]));
    for (uint32_t k = 0; k < nmasks; k++) {
        const uint32_t m = masks[k];
        bad[m >> 6] |= (uint64_t)1 << (m & 63);
        for (uint32_t v = 1; lg_popcount(m) == 2 && v < 0x200u; v <<= 1)
            bad[(m | v) >> 6] |= (uint64_t)1 << ((m | v) & 63);
    }
}

/* What one search for possible ways works on. */
struct ways {
    uint32_t cand[3]; /* the base cells' candidates (a pair: cand[2] = 1, a stand-in) */
    uint32_t third;   /* 0x1ff for a triple, 0 for a pair (its stand-in holds no value) */
    bool sees[3][3];  /* the base cells that see each other */
    uint64_t bad[8];  /* value sets leaving an excluder empty (bad_sets) */
};

/* Is the way v[] possible? */
static bool way_ok(const struct ways *w, const uint32_t *v)
{
    const uint32_t used = v[0] | v[1] | (v[2] & w->third);

    if ((v[0] == v[1] && w->sees[0][1]) || (v[0] == v[2] && w->sees[0][2]) ||
        (v[1] == v[2] && w->sees[1][2]))
        return false;
    return !(w->bad[used >> 6] >> (used & 63) & 1);
}

/* Find a possible way with cell i holding bit v; true with it in out[]. */
static bool way_with(const struct ways *w, uint32_t i, uint32_t v, uint32_t *out)
{
    const uint32_t j = i == 0 ? 1 : 0, k = i == 2 ? 1 : 2;

    out[i] = v;
    for (uint32_t mj = w->cand[j]; mj; mj &= mj - 1) {
        out[j] = mj & -mj;
        for (uint32_t mk = w->cand[k]; mk; mk &= mk - 1) {
            out[k] = mk & -mk;
            if (way_ok(w, out))
                return true;
        }
    }
    return false;
}

/* Every way of filling cells[] with excluders common: what each cell may
 * still hold goes into keep[] (a candidate is looked for only when no way
 * found so far uses it). */
static void ways(const struct ax *a, const uint16_t *cells, const struct lg_set *common,
                 uint32_t *keep)
{
    const struct lg_geom *geo = a->c->geo;
    const uint32_t *cand = a->c->g->cand;
    uint32_t masks[AX_MAX_CELLS], nmasks = 0, way[3];
    struct ways w;

    memset(&w, 0, sizeof(w));
    w.third = a->degree == 3 ? 0x1ffu : 0;
    for (uint32_t i = 0; i < 3; i++) {
        w.cand[i] = i < a->degree ? cand[cells[i]] : 1;
        for (uint32_t j = 0; j < i && i < a->degree; j++)
            w.sees[j][i] = lg_sees(geo, cells[i], cells[j]);
    }
    for (int e = lg_set_next(common, 0); e >= 0; e = lg_set_next(common, (uint32_t)e + 1))
        masks[nmasks++] = cand[e];
    bad_sets(masks, nmasks, w.bad);
    keep[0] = keep[1] = keep[2] = 0;
    for (uint32_t i = 0; i < a->degree; i++)
        for (uint32_t m = w.cand[i] & ~keep[i]; m; m &= m - 1) {
            if (!(keep[i] & m & -m) && way_with(&w, i, m & -m, way))
                for (uint32_t k = 0; k < 3; k++)
                    keep[k] |= way[k];
        }
}

/* Can the base cells[] lose a candidate at all?  A way that gives them
 * distinct values is possible unless an excluder holds only values of
 * theirs; and when no excluder does, every candidate of a cell has such a
 * way, but for two other base cells holding the same two values. */
static bool may_exclude(const struct ax *a, const uint16_t *cells, const struct lg_set *common)
{
    const uint32_t *cand = a->c->g->cand;
    const uint32_t c0 = cand[cells[0]], c1 = cand[cells[1]];
    const uint32_t c2 = a->degree == 3 ? cand[cells[2]] : 0, all = c0 | c1 | c2;

    for (int e = lg_set_next(common, 0); e >= 0; e = lg_set_next(common, (uint32_t)e + 1))
        if (!(cand[e] & ~all))
            return true;
    if (a->degree == 2)
        return false;
    return (c0 == c1 && lg_popcount(c0) == 2) || (c0 == c2 && lg_popcount(c0) == 2) ||
           (c1 == c2 && lg_popcount(c1) == 2);
}

/* Try the base cells[]: a step when some candidate has no possible way. */
static bool ax_try(const struct ax *a, const uint16_t *cells, const struct lg_set *common,
                   struct lg_step *s)
{
    const struct lg_ctx *c = a->c;
    uint32_t keep[3];

    if (!may_exclude(a, cells, common))
        return false;
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
    uint64_t have[2] = {0, 0}; /* bit x: cell x listed (or one of the pair) */
    const uint32_t src[2] = {i, j};
    uint32_t len = 0;

    for (uint32_t s = 0; s < 2; s++)
        have[a->base[src[s]] >> 6] |= (uint64_t)1 << (a->base[src[s]] & 63);
    for (uint32_t s = 0; s < 2; s++)
        for (uint32_t k = 0; k < a->nexcl[src[s]]; k++) {
            uint32_t x = a->excl_list[src[s]][k];
            if (!(have[x >> 6] >> (x & 63) & 1) && a->index[x] >= 0) {
                have[x >> 6] |= (uint64_t)1 << (x & 63);
                out[len++] = (uint16_t)x;
            }
        }
    return len;
}

/* Was the triple of base indices i < j and k tried already, from an
 * earlier pair (SE's order: by the later index, then the earlier) with the
 * third among its tails?  Then it gave no step, and gives none now. */
static bool tried(const struct ax *a, uint32_t i, uint32_t j, uint32_t k)
{
    const uint32_t ci = a->base[i], cj = a->base[j];

    if (k < j && (lg_set_has(&a->excl[i], cj) || lg_set_has(&a->excl[k], cj)))
        return true; /* pair (i, k) with j */
    return k < i && (lg_set_has(&a->excl[j], ci) || lg_set_has(&a->excl[k], ci));
}

/* The pair (i, j) and, for triples, each third cell.  A triple's common
 * excluders are among the pair's, so a pair with fewer than two has none. */
static bool ax_pair(const struct ax *a, uint32_t i, uint32_t j, struct lg_step *s)
{
    uint16_t cells[3] = {a->base[i], a->base[j], 0}, third[AX_MAX_CELLS];
    struct lg_set common;

    lg_set_and(&common, &a->excl[i], &a->excl[j]);
    if (!two_or_more(&common))
        return false;
    if (a->degree == 2)
        return ax_try(a, cells, &common, s);
    uint32_t nt = tails(a, i, j, third);
    for (uint32_t t = 0; t < nt; t++) {
        const uint32_t k = (uint32_t)a->index[third[t]];
        struct lg_set all;
        if (tried(a, i, j, k))
            continue;
        lg_set_and(&all, &common, &a->excl[k]);
        cells[2] = third[t];
        if (two_or_more(&all) && ax_try(a, cells, &all, s))
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
