/* senest.c -- SE's "other rules" inside dynamic forcing chains (+).
 *
 * Sudoku Explainer's dynamic forcing chains (+) (level 1 of its chaining,
 * 9.0 and up) run the dynamic kind's closure of an assumption (sechain.c),
 * and whenever nothing is pending they apply other rules to the run's grid:
 * locked candidates, hidden pairs, naked pairs and X-wings, in that order,
 * stopping at the first rule that removes something.  Each removal joins
 * the run as an off potential whose parents are the removals that made the
 * rule possible (SE's getRuleParents): for locked candidates and X-wings the
 * lost places of the value in the base units outside the cover units, for a
 * hidden pair the lost places of its two values, for a naked pair the lost
 * values of its two cells.  A rule whose pattern needs none of the run's
 * removals is left out (it would hold without the chain).  Within a rule
 * the patterns come in SE's order (blocks, columns, rows; pairs of values,
 * cells or lines in colex order) and a pattern's removals in row-major
 * order, so the run's order, and so its ancestor counts, are SE's.
 *
 * SE's generalized intersections (its locking over every house) add nothing
 * on a classic grid once no locked candidate holds on the start grid, and
 * are not looked for.  Nested forcing chains (levels 2 to 5) go on, when
 * these rules find nothing, with a chaining search on the run's grid
 * (lg_se_nested_rules, sechain.c).  Nothing here allocates; the parent
 * lists live in the run (struct se_run xpar).
 */
#include "lg.h"
#include "sechain.h"

/* One application of the rules to a run. */
struct adv {
    struct se_run *r;        /* the run: its grid and its potentials */
    const struct se_geo *sg; /* the shape */
    const struct lg_grid *g; /* the start grid (SE's source grid) */
    uint32_t added;          /* off potentials joined so far */
};

/* A pattern that removes the candidates in rem (cell * 9 + v - 1) from the
 * run's grid and needs the removals par[0..npar) (off potentials): the new
 * removals join the run, in candidate order, with those parents. */
static void adv_hint(struct adv *a, const uint64_t *rem, const uint16_t *par, uint32_t npar)
{
    struct se_run *r = a->r;
    uint32_t fresh = 0;

    if (!npar)
        return; /* the rule holds without the chain */
    for (uint32_t i = 0; i < NCV; i++)
        fresh += bit_has(rem, i) && !bit_has(r->in, i * 2);
    if (!fresh || r->nxpar + 2 + npar > XPAR)
        return; /* the bound: one list a rule's step */
    const uint32_t off = r->nxpar;
    r->xpar[off] = (uint16_t)npar;
    r->xpar[off + 1] = NONE; /* no nested chain */
    for (uint32_t i = 0; i < npar; i++)
        r->xpar[off + 2 + i] = par[i];
    r->nxpar += 2 + npar;
    for (uint32_t i = 0; i < NCV; i++) {
        if (!bit_has(rem, i) || bit_has(r->in, i * 2))
            continue;
        run_add(r, i * 2, NONE, HK_LIST, off);
        a->added++;
    }
}

/* Has cell lost candidate v in the run? */
static bool adv_lost(const struct adv *a, uint32_t cell, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1);

    return (a->g->cand[cell] & bit) && !(a->r->cand[cell] & bit);
}

/* The step of locked candidates: v's places in unit u1 all lie in u2. */
static void adv_lock_hint(struct adv *a, uint32_t u1, uint32_t u2, uint32_t v)
{
    const struct lg_geom *geo = a->sg->geo;
    uint64_t rem[CVW] = {0};
    uint16_t par[9];
    uint32_t npar = 0, nrem = 0;

    for (uint32_t k = 0; k < 9; k++) {
        const uint32_t cell = geo->unit[u2][k];
        if (!lg_in_unit(geo, u1, cell) && (a->r->cand[cell] >> (v - 1) & 1u)) {
            bit_set(rem, cell * 9 + v - 1);
            nrem++;
        }
    }
    for (uint32_t k = 0; nrem && k < 9; k++) {
        const uint32_t cell = geo->unit[u1][k];
        if (!lg_in_unit(geo, u2, cell) && adv_lost(a, cell, v))
            par[npar++] = (uint16_t)pot(cell, v, 0);
    }
    if (nrem)
        adv_hint(a, rem, par, npar);
}

/* Locked candidates: v's places in unit u1 (two or more) all lie in u2,
 * whose crossing with u1 is the places in of u1. */
static void adv_lock(struct adv *a, uint32_t u1, uint32_t u2, uint32_t in)
{
    for (uint32_t v = 1; v <= 9; v++) {
        const uint32_t pm = a->r->pos[u1][v - 1];
        if (lg_popcount(pm) >= 2 && !(pm & ~in))
            adv_lock_hint(a, u1, u2, v);
    }
}

/* SE's Locking: blocks against columns and rows, then columns and rows
 * against blocks; every value of every crossing pair.  (Places in a block
 * run row by row.) */
static void adv_locking(struct adv *a)
{
    for (uint32_t b = 0; b < 9; b++)
        for (uint32_t c = b % 3 * 3; c < b % 3 * 3 + 3; c++)
            adv_lock(a, 18 + b, 9 + c, 0111u << c % 3);
    for (uint32_t b = 0; b < 9; b++)
        for (uint32_t row = b / 3 * 3; row < b / 3 * 3 + 3; row++)
            adv_lock(a, 18 + b, row, 7u << row % 3 * 3);
    for (uint32_t c = 0; c < 9; c++)
        for (uint32_t b = c / 3; b < 9; b += 3)
            adv_lock(a, 9 + c, 18 + b, 7u << b / 3 * 3);
    for (uint32_t row = 0; row < 9; row++)
        for (uint32_t b = row / 3 * 3; b < row / 3 * 3 + 3; b++)
            adv_lock(a, row, 18 + b, 7u << b % 3 * 3);
}

/* SE's house order for sets: blocks, columns, rows. */
static uint32_t adv_house(uint32_t i)
{
    return i < 9 ? 18 + i : i < 18 ? i : i - 18;
}

/* Unsolved cells of unit u (the start grid's: the run places nothing). */
static uint32_t adv_empty(const struct adv *a, uint32_t u)
{
    uint32_t n = 0;

    for (uint32_t k = 0; k < 9; k++)
        n += a->g->val[a->sg->geo->unit[u][k]] == 0;
    return n;
}

/* The step of a hidden pair of values v1 < v2 (0-based) in unit u, each
 * with the same two places. */
static void adv_hidden_pair(struct adv *a, uint32_t u, uint32_t v1, uint32_t v2)
{
    const struct lg_geom *geo = a->sg->geo;
    const uint32_t p1 = a->r->pos[u][v1], p2 = a->r->pos[u][v2], pair = 1u << v1 | 1u << v2;
    uint64_t rem[CVW] = {0};
    uint16_t par[14];
    uint32_t npar = 0, nrem = 0;

    for (uint32_t k = 0; k < 9; k++) {
        const uint32_t cell = geo->unit[u][k];
        if (!((p1 | p2) >> k & 1u))
            continue;
        for (uint32_t m = a->r->cand[cell] & ~pair; m; m &= m - 1, nrem++)
            bit_set(rem, cell * 9 + lg_lowest(m));
    }
    for (uint32_t k = 0; nrem && k < 9; k++) {
        const uint32_t cell = geo->unit[u][k];
        if ((p1 | p2) >> k & 1u)
            continue;
        if (a->g->cand[cell] >> v1 & 1u)
            par[npar++] = (uint16_t)pot(cell, v1 + 1, 0);
        if (a->g->cand[cell] >> v2 & 1u)
            par[npar++] = (uint16_t)pot(cell, v2 + 1, 0);
    }
    if (nrem)
        adv_hint(a, rem, par, npar);
}

/* The step of a naked pair: the cells at places i < j of unit u, each
 * with the same two candidates. */
static void adv_naked_pair(struct adv *a, uint32_t u, uint32_t i, uint32_t j)
{
    const struct lg_geom *geo = a->sg->geo;
    const uint32_t ci = geo->unit[u][i], cj = geo->unit[u][j];
    const uint32_t mi = a->r->cand[ci], mj = a->r->cand[cj], pair = mi | mj;
    uint64_t rem[CVW] = {0};
    uint16_t par[14];
    uint32_t npar = 0, nrem = 0;

    for (uint32_t k = 0; k < 9; k++) {
        const uint32_t cell = geo->unit[u][k];
        if (k == i || k == j)
            continue;
        for (uint32_t m = a->r->cand[cell] & pair; m; m &= m - 1, nrem++)
            bit_set(rem, cell * 9 + lg_lowest(m));
    }
    for (uint32_t m = nrem ? a->g->cand[ci] & ~pair : 0; m; m &= m - 1)
        par[npar++] = (uint16_t)pot(ci, lg_lowest(m) + 1, 0);
    for (uint32_t m = nrem ? a->g->cand[cj] & ~pair : 0; m; m &= m - 1)
        par[npar++] = (uint16_t)pot(cj, lg_lowest(m) + 1, 0);
    if (nrem)
        adv_hint(a, rem, par, npar);
}

/* SE's HiddenSet(2) (units of more than 4 open cells) or NakedSet(2) (4 or
 * more): pairs in colex order, unit by unit. */
static void adv_pairs(struct adv *a, bool hidden)
{
    for (uint32_t h = 0; h < 27; h++) {
        const uint32_t u = adv_house(h), open = adv_empty(a, u);
        if (hidden ? open <= 4 : open < 4)
            continue;
        /* Both members of a pair have two values (places), the same two. */
        uint32_t two[9];
        for (uint32_t k = 0; k < 9; k++) {
            const uint32_t m = hidden ? a->r->pos[u][k] : a->r->cand[a->sg->geo->unit[u][k]];
            two[k] = lg_popcount(m) == 2 ? m : 0;
        }
        for (uint32_t j = 1; j < 9; j++) {
            for (uint32_t i = 0; two[j] && i < j; i++) {
                if (two[i] != two[j])
                    continue;
                if (hidden)
                    adv_hidden_pair(a, u, i, j);
                else
                    adv_naked_pair(a, u, i, j);
            }
        }
    }
}

/* The step of an X-wing of v: base lines b1 < b2 (units), each with the
 * same two places, cover lines of the other kind (first unit cover0). */
static void adv_xwing(struct adv *a, uint32_t b1, uint32_t b2, uint32_t cover0, uint32_t v)
{
    const struct lg_geom *geo = a->sg->geo;
    const uint32_t p1 = a->r->pos[b1][v - 1], p2 = a->r->pos[b2][v - 1], covers = p1 | p2;
    const uint32_t bases = 1u << (b1 - (b1 >= 9 ? 9 : 0)) | 1u << (b2 - (b2 >= 9 ? 9 : 0));
    uint64_t rem[CVW] = {0};
    uint16_t par[14];
    uint32_t npar = 0, nrem = 0;

    for (uint32_t m = covers; m; m &= m - 1) {
        const uint32_t u = cover0 + lg_lowest(m);
        for (uint32_t k = 0; k < 9; k++) {
            const uint32_t cell = geo->unit[u][k];
            if (!(bases >> k & 1u) && (a->r->pos[u][v - 1] >> k & 1u)) {
                bit_set(rem, cell * 9 + v - 1);
                nrem++;
            }
        }
    }
    const uint32_t base[2] = {b1, b2};
    for (int i = 0; nrem && i < 2; i++) {
        for (uint32_t k = 0; k < 9; k++) {
            const uint32_t cell = geo->unit[base[i]][k];
            if (!(covers >> k & 1u) && adv_lost(a, cell, v))
                par[npar++] = (uint16_t)pot(cell, v, 0);
        }
    }
    if (nrem)
        adv_hint(a, rem, par, npar);
}

/* SE's Fisherman(2): columns as bases, then rows; pairs of lines in colex
 * order, values ascending; a value placed more than 5 times is skipped. */
static void adv_fish(struct adv *a)
{
    uint32_t placed[10] = {0};

    for (uint32_t i = 0; i < 81; i++)
        placed[a->g->val[i]]++;
    for (int kind = 0; kind < 2; kind++) {
        const uint32_t base0 = kind == 0 ? 9 : 0, cover0 = kind == 0 ? 0 : 9;
        for (uint32_t j = 1; j < 9; j++)
            for (uint32_t i = 0; i < j; i++)
                for (uint32_t v = 1; v <= 9; v++) {
                    const uint32_t p = a->r->pos[base0 + i][v - 1];
                    if (placed[v] + 4 <= 9 && lg_popcount(p) == 2 &&
                        p == a->r->pos[base0 + j][v - 1])
                        adv_xwing(a, base0 + i, base0 + j, cover0, v);
                }
    }
}

uint32_t lg_se_advanced(struct se_run *r, const struct se_geo *sg, const struct lg_grid *g)
{
    struct adv a = {.r = r, .sg = sg, .g = g, .added = 0};

    adv_locking(&a);
    if (!a.added)
        adv_pairs(&a, true);
    if (!a.added)
        adv_pairs(&a, false);
    if (!a.added)
        adv_fish(&a);
    if (!a.added && r->level >= 2)
        return lg_se_nested_rules(r, sg, g);
    return a.added;
}
