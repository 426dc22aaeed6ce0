/* sechain.c -- Sudoku Explainer's chaining rungs, rated as SE 1.2.1 rates them.
 *
 * On a classic 9x9 grid the chain and forcing rungs follow Sudoku Explainer's
 * rules (SE 1.2.1, the forum's yardstick), so that `rate` gives its numbers:
 *
 *   rung          SE's producer                    steps (base rating)
 *   x_cycle       forcing chains & cycles          x_cycle, y_cycle 6.5; x_chain 6.6;
 *                                                  xy_cycle, aic 7.0
 *   nishio_forcing_chain  Nishio forcing chains    7.5
 *   forcing_chain multiple forcing chains          8.0 (cell and region forcing chains)
 *   dynamic_forcing_chain dynamic forcing chains   8.5 (contradiction, double, cell, region)
 *   dynamic_forcing_chain_plus  dynamic (+)        9.0 (the same kinds; senest.c)
 *   nested_forcing_chain, nested_multiple_forcing_chain, nested_dynamic_forcing_chain,
 *   nested_dynamic_forcing_chain_plus   nested (levels 2-5)   9.5, 10.0, 10.5, 11.0
 *
 * A step rates its base plus 0.1 for every length threshold its chains pass
 * (se_length_tenths); a rung finds every step it can, then takes the one
 * of least rating (ties: fewer nodes, then SE's kind order, then the first
 * found in SE's scan order: cells row by row, values ascending).
 *
 * The search is over "potentials": a candidate (cell, value) taken as true
 * (on) or false (off), index (cell * 9 + v - 1) * 2 + on.  On implies off
 * for the cell's other values and the value's other places in the cell's
 * block, row and column (in that order); off implies on for the other value
 * of a bivalue cell and the other place of a value with two places in a
 * unit.  A run (se_run) is SE's breadth-first closure of one assumption,
 * an on potential first when both are pending; the dynamic kinds take each
 * off potential out of the run's grid once it is processed, so later
 * implications see it gone (and record those removals as the potential's
 * hidden parents).  A potential's weight is its ancestor count: itself and
 * everything it was derived from.  Everything here is sound: every step is
 * a consequence of the candidates alone.  Dynamic (+) runs (level 1) go
 * on, when nothing is pending, with SE's other rules on the run's grid
 * (senest.c): their removals join as off potentials whose parents are
 * listed in the run (hkind HK_LIST).  Nested runs (levels 2-5) go on, when
 * those rules find nothing, with a chaining search of a lower kind on the
 * run's grid (lg_se_nested_rules) that keeps every step it finds, each
 * with its rule parents (the run's removals its chains needed) and its
 * complexity; a step's weight then adds the complexity of every nested
 * chain among its ancestors once (struct se_seen).
 *
 * What keeps it cheap (no rating depends on it): a rating never falls as a
 * chain grows, so each breadth-first search of the first rung stops at the
 * layer whose steps could no longer rank before the best found so far, nor
 * rate above the ladder's ceiling when it gives one (lg_ctx.cut_above);
 * those searches walk the position's links, listed once per kind, and a
 * start that no strong link leads into skips the searches that could only
 * end there (its cycles, and the forcing chains from its off potential).  The
 * multiple-chain rungs load every run from one copy of the grid, and keep
 * what each candidate implies, so the region forcing chains intersect
 * those instead of running each place again (they run after the rest, in
 * their own order: the kinds never tie).  Runs live in one struct on the
 * caller's stack (about 170 KB for the first rung, 340 KB for the others);
 * the nested rungs allocate their nested searches' work spaces (1.6 MB
 * a depth, two depths at level 5) for the call and free them after.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg.h"
#include "sechain.h"

/* One candidate step, as SE would rank it. */
struct se_hint {
    int tenths;       /* rating * 10 */
    int complexity;   /* nodes */
    int sort_key;     /* SE's kind order */
    const char *name; /* our technique name */
    uint16_t src;     /* source potential, or the cell / unit (see kind) */
    uint16_t target;  /* the potential concluded */
    int unit;         /* region forcing: the unit, else -1 */
    bool valid;
};

/* ------------------------------------------------------------------------ */
/* Ratings                                                                   */
/* ------------------------------------------------------------------------ */

/* SE's length adjustment (ChainingHint.getLengthDifficulty), in tenths: one
 * for every threshold of 4, 6, 8, 12, 16, 24, 32, ... that length (nodes
 * less two) exceeds. */
static int se_length_tenths(int complexity)
{
    int added = 0, ceil = 4, len = complexity - 2;
    bool odd = false;

    while (len > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* Keep h when it ranks before best. */
static void se_offer(struct se_hint *best, const struct se_hint *h)
{
    if (best->valid) {
        if (h->tenths != best->tenths) {
            if (h->tenths > best->tenths)
                return;
        } else if (h->complexity != best->complexity) {
            if (h->complexity > best->complexity)
                return;
        } else if (h->sort_key >= best->sort_key) {
            return;
        }
    }
    *best = *h;
    best->valid = true;
}

static void se_geo_init(struct se_geo *sg, const struct lg_geom *geo)
{
    sg->geo = geo;
    for (uint32_t u = 0; u < 27; u++) {
        for (uint32_t k = 0; k < 9; k++) {
            uint32_t cell = geo->unit[u][k], slot = u >= 18 ? 0 : u < 9 ? 1 : 2;
            sg->unit[cell][slot] = (uint8_t)u;
            sg->place[cell][slot] = (uint8_t)k;
        }
    }
    for (uint32_t cell = 0; cell < 81; cell++) {
        for (int slot = 0; slot < 3; slot++) {
            const uint32_t u = sg->unit[cell][slot];
            sg->skip[cell][slot] = 0;
            for (uint32_t k = 0; k < 9; k++)
                if (sg->unit[geo->unit[u][k]][0] == sg->unit[cell][0])
                    sg->skip[cell][slot] |= (uint16_t)(1u << k);
        }
    }
}

/* Is SE's chaining the ladder's here (a classic 9x9 grid)? */
bool lg_se_applies(const struct lg_ctx *c)
{
    return c->geo->n == 9 && !c->geo->rules;
}

/* ------------------------------------------------------------------------ */
/* Runs                                                                      */
/* ------------------------------------------------------------------------ */

static void run_load(struct se_run *r, const struct lg_grid *g, const struct se_geo *sg)
{
    memset(r->pos, 0, sizeof(r->pos));
    for (uint32_t i = 0; i < 81; i++) {
        r->cand[i] = (uint16_t)g->cand[i];
        for (uint32_t m = g->cand[i]; m; m &= m - 1)
            for (int k = 0; k < 3; k++)
                r->pos[sg->unit[i][k]][lg_lowest(m)] |= (uint16_t)(1u << sg->place[i][k]);
    }
    memcpy(r->pos0, r->pos, sizeof(r->pos0));
    memset(r->in, 0, sizeof(r->in));
    r->st = 0; /* the stamps are cleared by the first walk */
    r->non = r->noff = 0;
    r->nxpar = 0;
    r->nnh = 0;
    r->acc = NULL;
    r->seen = NULL;
    r->abs_on = r->abs_off = -1;
}

/* Load r from the grid that run t was loaded from (a rung that runs from
 * one grid many times computes its places once). */
static void run_load_as(struct se_run *r, const struct se_run *t)
{
    memcpy(r->cand, t->cand, sizeof(r->cand));
    memcpy(r->pos, t->pos0, sizeof(r->pos));
    memcpy(r->pos0, t->pos0, sizeof(r->pos0));
    memset(r->in, 0, sizeof(r->in));
    r->st = 0;
    r->non = r->noff = 0;
    r->nxpar = 0;
    r->nnh = 0;
    r->acc = NULL;
    r->seen = NULL;
    r->abs_on = r->abs_off = -1;
}

/* Take candidate (cell, v) out of the run's grid. */
static void run_remove(struct se_run *r, const struct se_geo *sg, uint32_t cell, uint32_t v)
{
    r->cand[cell] &= (uint16_t) ~(1u << (v - 1));
    for (int k = 0; k < 3; k++)
        r->pos[sg->unit[cell][k]][v - 1] &= (uint16_t) ~(1u << sg->place[cell][k]);
}

/* What on potential p makes off, in SE's order, into out; returns the count. */
static uint32_t on_to_off(const struct se_run *r, const struct se_geo *sg, uint32_t p, bool y,
                          uint16_t *out)
{
    const uint32_t cell = pot_cell(p), v = pot_val(p);
    uint32_t len = 0;

    if (y)
        for (uint32_t m = r->cand[cell] & ~(1u << (v - 1)); m; m &= m - 1)
            out[len++] = (uint16_t)pot(cell, lg_lowest(m) + 1, 0);
    /* The block first, then the row and column without the block's cells
     * (which the block gave already). */
    for (int k = 0; k < 3; k++) {
        const uint32_t u = sg->unit[cell][k];
        const uint32_t skip = k ? sg->skip[cell][k] : 1u << sg->place[cell][0];
        for (uint32_t m = r->pos[u][v - 1] & ~skip; m; m &= m - 1)
            out[len++] = (uint16_t)pot(sg->geo->unit[u][lg_lowest(m)], v, 0);
    }
    return len;
}

/* One on potential off p makes, with its hidden parents (against the start
 * grid g). */
struct se_made {
    uint16_t p;
    uint8_t hkind;
    uint16_t hmask;
};

/* Has m exactly two bits (without a popcount: this is the hot path)? */
static inline bool has_two(uint32_t m)
{
    const uint32_t rest = m & (m - 1);

    return rest && !(rest & (rest - 1));
}

/* What off potential p makes on, in SE's order; returns the count. */
static uint32_t off_to_on(const struct se_run *r, const struct se_geo *sg, const struct lg_grid *g,
                          uint32_t p, bool y, bool x, struct se_made *out)
{
    const uint32_t cell = pot_cell(p), v = pot_val(p), m = r->cand[cell];
    uint32_t len = 0;

    if (y && has_two(m)) {
        uint32_t w = lg_lowest(m & ~(1u << (v - 1))) + 1;
        out[len++] = (struct se_made){(uint16_t)pot(cell, w, 1), 1, (uint16_t)(g->cand[cell] & ~m)};
    }
    for (int k = 0; x && k < 3; k++) {
        const uint32_t u = sg->unit[cell][k], pm = r->pos[u][v - 1];
        if (!has_two(pm))
            continue;
        uint32_t other = sg->geo->unit[u][lg_lowest(pm & ~(1u << sg->place[cell][k]))];
        uint32_t q = pot(other, v, 1), dup = 0;
        for (uint32_t i = 0; i < len; i++)
            dup |= out[i].p == q;
        if (dup)
            continue;
        out[len++] =
            (struct se_made){(uint16_t)q, (uint8_t)(2 + u), (uint16_t)(r->pos0[u][v - 1] & ~pm)};
    }
    return len;
}

/* SE's doChaining from potential src: on potentials first, one at a time,
 * until nothing is pending or a potential would be both on and off (then
 * abs_on / abs_off are set).  dynamic: processed off potentials leave the
 * run's grid; y: cell links too (all but Nishio).  r is loaded from g. */
static void run_loaded(struct se_run *r, const struct se_geo *sg, const struct lg_grid *g,
                       uint32_t src, bool dynamic, bool y)
{
    uint32_t hon = 0, hoff = 0;
    uint16_t offs[32];
    struct se_made ons[4];

    run_add(r, src, NONE, 0, 0);
    while (hon < r->non || hoff < r->noff || (r->level && lg_se_advanced(r, sg, g))) {
        if (hon < r->non) {
            const uint32_t p = r->lon[hon++], len = on_to_off(r, sg, p, y, offs);
            for (uint32_t i = 0; i < len; i++) {
                if (bit_has(r->in, offs[i] | 1u)) {
                    r->abs_on = offs[i] | 1;
                    r->abs_off = offs[i];
                    r->abs_new_on = false;
                    r->new_par = (uint16_t)p;
                    r->new_hkind = 0;
                    r->new_hmask = 0;
                    return;
                }
                if (!bit_has(r->in, offs[i]))
                    run_add(r, offs[i], p, 0, 0);
            }
            continue;
        }
        const uint32_t p = r->loff[hoff++], len = off_to_on(r, sg, g, p, y, true, ons);
        if (dynamic)
            run_remove(r, sg, pot_cell(p), pot_val(p));
        for (uint32_t i = 0; i < len; i++) {
            const uint32_t q = ons[i].p;
            if (bit_has(r->in, q & ~1u)) {
                r->abs_on = (int)q;
                r->abs_off = (int)(q & ~1u);
                r->abs_new_on = true;
                r->new_par = (uint16_t)p;
                r->new_hkind = ons[i].hkind;
                r->new_hmask = dynamic ? ons[i].hmask : 0;
                return;
            }
            if (!bit_has(r->in, q))
                run_add(r, q, p, ons[i].hkind, dynamic ? ons[i].hmask : 0);
        }
    }
}

/* SE's doChaining from src, r loaded from g first (run_loaded). */
static void run_chain(struct se_run *r, const struct se_geo *sg, const struct lg_grid *g,
                      uint32_t src, bool dynamic, bool y)
{
    run_load(r, g, sg);
    run_loaded(r, sg, g, src, dynamic, y);
}

/* Where a walk collects the rule parents of a nested chain (SE's
 * collectRuleParents): for every on potential with a cause, the candidates
 * its cell (a naked single) or its unit (a hidden single) lost between the
 * outer run's start grid and its grid now. */
struct se_acc {
    uint64_t *par;           /* candidates found (cell * 9 + v - 1) */
    const uint16_t *lost;    /* each cell's values the outer run's grid lost */
    const struct se_geo *sg; /* the shape */
    int src;                 /* the source's cause: -1 none, 27 its cell, else its unit */
    uint64_t hash;           /* of the potentials walked (a chain's content) */
};

/* A potential's share of a signature. */
static uint64_t sig_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* Count the nested chain of signature sig once: true the first time. */
static bool seen_add(struct se_seen *s, uint64_t sig)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->sig[i] == sig)
            return false;
    if (s->n < SEEN_MAX)
        s->sig[s->n++] = sig;
    return true;
}

static void acc_cell(const struct se_acc *a, uint32_t cell)
{
    for (uint32_t m = a->lost[cell]; m; m &= m - 1)
        bit_set(a->par, cell * 9 + lg_lowest(m));
}

static void acc_unit(const struct se_acc *a, uint32_t u, uint32_t v)
{
    for (uint32_t k = 0; k < 9; k++) {
        const uint32_t cell = a->sg->geo->unit[u][k];
        if (a->lost[cell] >> (v - 1) & 1u)
            bit_set(a->par, cell * 9 + v - 1);
    }
}

/* On potential p of a run, made on by a link of kind hkind. */
static void acc_on(const struct se_acc *a, uint32_t p, uint32_t hkind)
{
    if (hkind == 1 || (hkind == 0 && a->src == 27))
        acc_cell(a, pot_cell(p));
    else if (hkind >= 2 && hkind != HK_LIST)
        acc_unit(a, hkind - 2, pot_val(p));
    else if (hkind == 0 && a->src >= 0)
        acc_unit(a, (uint32_t)a->src, pot_val(p));
}

/* A static chain's link from p to q (either way on and off): q's cause is
 * its cell when both share it, else the first unit (block, row, column)
 * they share; only on potentials have causes that count. */
static void acc_link(const struct se_acc *a, uint32_t q, uint32_t p)
{
    const uint32_t cq = pot_cell(q), cp = pot_cell(p);

    if (!(q & 1))
        return;
    if (cq == cp) {
        acc_cell(a, cq);
        return;
    }
    for (int k = 0; k < 3; k++) {
        if (a->sg->unit[cq][k] == a->sg->unit[cp][k]) {
            acc_unit(a, a->sg->unit[cq][k], pot_val(q));
            return;
        }
    }
}

/* Push the parents given that the walk has not seen onto its stack, each
 * counted once. */
static void walk_push(struct se_run *r, uint32_t *sp, int *count, uint32_t q)
{
    if (r->stamp[q] == r->st)
        return;
    r->stamp[q] = r->st;
    (*count)++;
    r->stack[(*sp)++] = (uint16_t)q;
}

static void walk_parents(struct se_run *r, const struct se_geo *sg, uint32_t *sp, int *count,
                         uint32_t self, uint32_t par, uint32_t hkind, uint32_t hmask)
{
    const uint32_t cell = pot_cell(self), v = pot_val(self);

    if (r->acc) {
        r->acc->hash ^= sig_mix(self);
        if (self & 1)
            acc_on(r->acc, self, hkind);
    }
    if (par != NONE)
        walk_push(r, sp, count, par);
    if (hkind == 1) {
        for (uint32_t m = hmask; m; m &= m - 1)
            walk_push(r, sp, count, pot(cell, lg_lowest(m) + 1, 0));
    } else if (hkind == HK_LIST) {
        const uint32_t nid = r->xpar[hmask + 1];
        if (nid != NONE && seen_add(r->seen, r->nh_sig[nid])) /* once a step */
            *count += (int)r->nh_cx[nid];
        for (uint32_t i = 0; i < r->xpar[hmask]; i++)
            walk_push(r, sp, count, r->xpar[hmask + 2 + i]);
    } else if (hkind >= 2)
        for (uint32_t m = hmask; m; m &= m - 1)
            walk_push(r, sp, count, pot(sg->geo->unit[hkind - 2][lg_lowest(m)], v, 0));
}

/* Ancestor count (SE's getAncestorCount) of a potential with these
 * parents: itself and every potential it was derived from, and the
 * complexity of every nested chain among them (SE's getNestedComplexity);
 * with r->acc set, their rule parents too. */
static int run_weight(struct se_run *r, const struct se_geo *sg, uint32_t self, uint32_t par,
                      uint32_t hkind, uint32_t hmask)
{
    uint32_t sp = 0;
    int count = 1;

    if (r->st == 0 || r->st == UINT16_MAX) { /* a new run, or the walks wrapped */
        memset(r->stamp, 0, sizeof(r->stamp));
        r->st = 1;
    } else {
        r->st++;
    }
    r->stamp[self] = r->st;
    walk_parents(r, sg, &sp, &count, self, par, hkind, hmask);
    while (sp) {
        const uint32_t q = r->stack[--sp];
        walk_parents(r, sg, &sp, &count, q, r->par[q], r->hkind[q], r->hmask[q]);
    }
    return count;
}

/* Weight of a stored potential. */
static int run_weight_of(struct se_run *r, const struct se_geo *sg, uint32_t p)
{
    return run_weight(r, sg, p, r->par[p], r->hkind[p], r->hmask[p]);
}

/* Weight of a contradiction: both potentials' ancestors (SE counts the two
 * chains apart). */
static int run_absurd_weight(struct se_run *r, const struct se_geo *sg)
{
    const uint32_t stored = (uint32_t)(r->abs_new_on ? r->abs_off : r->abs_on);
    const uint32_t fresh = (uint32_t)(r->abs_new_on ? r->abs_on : r->abs_off);
    int w = run_weight_of(r, sg, stored);

    /* The fresh one is not stored: the walk must not take the stored
     * opposite's parents for it. */
    return w + run_weight(r, sg, fresh, r->new_par, r->new_hkind, r->new_hmask);
}

/* ------------------------------------------------------------------------ */
/* Forcing chains and cycles (SE's first chaining rung)                     */
/* ------------------------------------------------------------------------ */

#define UN_ENTRIES 8192 /* off entries of one cycle search */

/* The static searches of one start: cycles (off potentials may repeat, each
 * entry with its own parent) and forcing chains (every potential once). */
struct se_unary {
    uint16_t mark[NPOT];          /* potentials reached: those marked with epoch */
    uint16_t epoch;               /* the current search's mark */
    uint16_t on_par[NPOT];        /* an on potential's parent entry (cycles) or potential */
    uint16_t off_par[NPOT];       /* forcing chains: an off potential's parent */
    uint16_t ent_p[UN_ENTRIES];   /* cycles: the off potential of each entry */
    uint16_t ent_par[UN_ENTRIES]; /* cycles: its parent on potential */
    uint16_t qon[NCV];            /* pending on potentials */
    uint16_t qoff[UN_ENTRIES];    /* pending entries (cycles) or off potentials */
    uint16_t cyc[64];             /* entries that close a cycle */
    uint32_t ncyc;
    bool cut;           /* the last search stopped at its node bound with work pending */
    uint16_t idle[NCV]; /* starts whose cycle search was skipped (un_kind) */
    uint32_t nidle;
    /* The kind's links, in SE's order (on_to_off, off_to_on against the
     * start grid, which the static searches never change): potential p
     * leads to link[first[p]] .. link[first[p + 1] - 1]. */
    uint16_t first[NPOT + 1];
    uint16_t link[NCV * 32];
};

/* Fill u's links for the kind (y: cell links; x: unit links off to on). */
static void un_links(struct se_unary *u, const struct se_run *r, const struct se_geo *sg,
                     const struct lg_grid *g, bool y, bool x)
{
    uint32_t n = 0;
    struct se_made ons[4];

    for (uint32_t p = 0; p < NPOT; p++) {
        u->first[p] = (uint16_t)n;
        if (!(g->cand[pot_cell(p)] >> (pot_val(p) - 1) & 1u))
            continue;
        if (p & 1) {
            n += on_to_off(r, sg, p, y, &u->link[n]);
            continue;
        }
        const uint32_t len = off_to_on(r, sg, g, p, y, x, ons);
        for (uint32_t i = 0; i < len; i++)
            u->link[n++] = ons[i].p;
    }
    u->first[NPOT] = (uint16_t)n;
}

/* Start a search: nothing reached.  The marks are cleared only when the
 * epoch wraps (and by un_kind), not before every search. */
static void un_new_search(struct se_unary *u)
{
    if (++u->epoch == 0) {
        memset(u->mark, 0, sizeof(u->mark));
        u->epoch = 1;
    }
}

/* Is off potential q on the path that reached on potential p (SE's isParent)? */
static bool un_is_parent(const struct se_unary *u, uint32_t p, uint32_t q)
{
    for (uint32_t e = u->on_par[p]; e != NONE; e = u->on_par[u->ent_par[e]])
        if (u->ent_p[e] == q)
            return true;
    return false;
}

/* SE's doCycles from on potential src: breadth first, a layer of on
 * potentials then a layer of off ones; a cycle is an off entry that leads
 * back to src after at least two layers of each.  The off layer reached
 * after L layers closes cycles of L nodes: the search stops before one
 * whose cycles would have more than max_cx. */
static void un_cycles(struct se_unary *u, uint32_t src, int max_cx)
{
    uint32_t non = 0, noff = 0, length = 0, nent = 0;

    un_new_search(u);
    u->ncyc = 0;
    u->cut = false;
    u->mark[src] = u->epoch;
    u->on_par[src] = NONE;
    u->qon[non++] = (uint16_t)src;
    while (non || noff) {
        /* The next off layer closes cycles of length + 2 nodes. */
        if ((int)length + 2 > max_cx) {
            u->cut = true;
            return;
        }
        length++;
        for (uint32_t i = 0; i < non; i++) {
            const uint32_t p = u->qon[i], end = u->first[p + 1];
            for (uint32_t j = u->first[p]; j < end && nent < UN_ENTRIES; j++) {
                if (un_is_parent(u, p, u->link[j]))
                    continue;
                u->ent_p[nent] = u->link[j];
                u->ent_par[nent] = (uint16_t)p;
                u->qoff[noff++] = (uint16_t)nent++;
            }
        }
        non = 0;
        length++;
        for (uint32_t i = 0; i < noff; i++) {
            const uint32_t e = u->qoff[i], end = u->first[u->ent_p[e] + 1];
            for (uint32_t j = u->first[u->ent_p[e]]; j < end; j++) {
                const uint32_t q = u->link[j];
                if (length >= 4 && q == src && u->ncyc < 64)
                    u->cyc[u->ncyc++] = (uint16_t)e;
                if (u->mark[q] != u->epoch) {
                    u->mark[q] = u->epoch;
                    u->on_par[q] = (uint16_t)e;
                    u->qon[non++] = (uint16_t)q;
                }
            }
        }
        noff = 0;
    }
}

/* SE's doForcingChains from src (on or off): the first potential found
 * that is src's opposite, as its parent (or NONE).  The layers alternate,
 * on then off; a chain whose last parent lies d layers from src has d + 2
 * nodes, so the search stops before a layer whose chains would have more
 * than max_cx. */
static uint32_t un_forcing(struct se_unary *u, uint32_t src, int max_cx)
{
    uint32_t hon = 0, ton = 0, hoff = 0, toff = 0;
    int depth = src & 1 ? 0 : -1; /* of the next on layer */

    u->cut = false;
    un_new_search(u);
    u->mark[src] = u->epoch;
    if (src & 1) {
        u->on_par[src] = NONE;
        u->qon[ton++] = (uint16_t)src;
    } else {
        u->off_par[src] = NONE;
        u->qoff[toff++] = (uint16_t)src;
    }
    while (hon < ton || hoff < toff) {
        if (depth + 2 > max_cx && hon < ton) {
            u->cut = true;
            return NONE;
        }
        for (; hon < ton; hon++) {
            const uint32_t p = u->qon[hon], end = u->first[p + 1];
            for (uint32_t j = u->first[p]; j < end; j++) {
                const uint32_t q = u->link[j];
                if ((q | 1u) == src)
                    return p;
                if (u->mark[q] != u->epoch) {
                    u->mark[q] = u->epoch;
                    u->off_par[q] = (uint16_t)p;
                    u->qoff[toff++] = (uint16_t)q;
                }
            }
        }
        if (depth + 3 > max_cx && hoff < toff) {
            u->cut = true;
            return NONE;
        }
        for (; hoff < toff; hoff++) {
            const uint32_t p = u->qoff[hoff], end = u->first[p + 1];
            for (uint32_t j = u->first[p]; j < end; j++) {
                const uint32_t q = u->link[j];
                if ((q & ~1u) == src)
                    return p;
                if (u->mark[q] != u->epoch) {
                    u->mark[q] = u->epoch;
                    u->on_par[q] = (uint16_t)p;
                    u->qon[ton++] = (uint16_t)q;
                }
            }
        }
        depth += 2;
    }
    return NONE;
}

/* A step a nested search found (SE's hints of one "other rule"). */
struct se_item {
    uint64_t elim[CVW]; /* candidates it removes from the grid searched */
    uint64_t par[CVW];  /* its rule parents: candidates the outer grid lost that it needs */
    uint64_t sig;       /* its signature: its targets and its chains' content */
};

/* Its place in SE's order: rating, then complexity, then kind, then found. */
struct se_key {
    int tenths, cx, key;
    uint32_t idx;
};

/* Every step of a nested search, with what their rule parents are taken
 * against. */
struct se_list {
    struct se_item *it; /* cap entries */
    struct se_key *key; /* cap entries */
    uint32_t n, cap;
    const uint16_t *lost;    /* each cell's values the outer grid lost */
    const struct lg_grid *g; /* the grid searched */
    const struct se_geo *sg;
};

/* The best step so far, with what it removes and its pattern. */
struct se_best {
    struct se_list *all; /* collect every step here instead (a nested search), or NULL */
    struct se_hint h;
    uint64_t elim[CVW];            /* candidates removed (cell * 9 + v - 1) */
    int place;                     /* a placement: cell * 9 + v - 1, or -1 */
    uint16_t cells[LG_STEP_CELLS]; /* the pattern */
    uint32_t ncells;
    int max_tenths; /* steps rated above are not taken (the ladder's cut_above) */
    bool cut;       /* a step above max_tenths was found or a search stopped there */
};

/* An empty best step, with c's ceiling. */
static void best_init(struct se_best *b, const struct lg_ctx *c)
{
    b->all = NULL;
    b->h.valid = false;
    b->cut = false;
    b->max_tenths = c->cut_above > 0.0 && c->cut_above < 100.0 ? (int)(c->cut_above * 10.0 + 1e-6)
                                                               : INT_MAX / 4;
}

static void best_cell(struct se_best *b, uint32_t cell)
{
    for (uint32_t i = 0; i < b->ncells; i++)
        if (b->cells[i] == cell)
            return;
    if (b->ncells < LG_STEP_CELLS)
        b->cells[b->ncells++] = (uint16_t)cell;
}

/* Would h rank before b's step (and rate no more than its ceiling)? */
static bool se_better(struct se_best *b, const struct se_hint *h)
{
    struct se_hint probe = b->h;

    if (b->all)
        return true; /* a nested search keeps every step */
    if (h->tenths > b->max_tenths) {
        b->cut = true;
        return false;
    }
    se_offer(&probe, h);
    return !b->h.valid || memcmp(&probe, &b->h, sizeof(probe)) != 0;
}

/* The most nodes a step of this base can have and rate at most tenths
 * (0: none can); se_length_tenths inverted. */
static int se_cx_within(int base, int tenths)
{
    int ceil = 4;
    bool odd = false;

    if (tenths < base)
        return 0;
    if (tenths - base > 30)
        return INT_MAX / 4;
    for (int t = base; t < tenths; t++) {
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return ceil + 2;
}

/* The most nodes a step of this base and kind order can have and still be
 * taken: rate no more than b's ceiling and rank before b's step.  A
 * rating never falls as nodes are added, so a search whose next layer
 * only makes longer steps can stop. */
static int se_max_cx(const struct se_best *b, int base, int key)
{
    int most = se_cx_within(base, b->max_tenths);

    if (b->all)
        return INT_MAX / 4;
    if (b->h.valid) {
        const int below = se_cx_within(base, b->h.tenths - 1);
        int tie = se_cx_within(base, b->h.tenths);
        const int last = key < b->h.sort_key ? b->h.complexity : b->h.complexity - 1;
        tie = tie < last ? tie : last;
        tie = tie > below ? tie : below;
        most = most < tie ? most : tie;
    }
    return most;
}

/* What a step concluding target removes from grid g, into elim (zeroed
 * first): the candidate itself when it is off, the cell's other
 * candidates when it is on (SE's removable potentials). */
static void target_elim(uint64_t *elim, const struct lg_grid *g, uint32_t target)
{
    const uint32_t cell = pot_cell(target), v = pot_val(target);

    memset(elim, 0, sizeof(uint64_t) * CVW);
    if (!(target & 1))
        bit_set(elim, target / 2);
    for (uint32_t m = target & 1 ? g->cand[cell] & ~(1u << (v - 1)) : 0; m; m &= m - 1)
        bit_set(elim, cell * 9 + lg_lowest(m));
}

/* Keep step h of a nested search, removing elim and needing the rule
 * parents par (a full list drops it: the nested rule is then weaker). */
static void list_add(struct se_best *b, const struct se_hint *h, const uint64_t *elim,
                     const uint64_t *par, uint64_t sig)
{
    struct se_list *l = b->all;

    if (l->n == l->cap)
        return;
    l->key[l->n] = (struct se_key){h->tenths, h->complexity, h->sort_key, l->n};
    memcpy(l->it[l->n].elim, elim, sizeof(l->it[0].elim));
    memcpy(l->it[l->n].par, par, sizeof(l->it[0].par));
    l->it[l->n].sig = sig;
    l->n++;
}

/* A cycle closed by entry e: what SE's CycleHint removes (a candidate
 * seeing an on node and an off node of its value, off the cycle's cells). */
static void un_cycle_hint(const struct se_unary *u, const struct se_geo *sg,
                          const struct lg_grid *g, uint32_t src, uint32_t e, int base, int key,
                          const char *name, struct se_best *b)
{
    uint64_t fw[9][2] = {{0}}, bk[9][2] = {{0}}, onc[2] = {0, 0}, elim[CVW] = {0}, any = 0;
    uint16_t nodes[NPOT];
    uint32_t n = 0;
    struct se_hint h = {0};

    nodes[n++] = (uint16_t)src;
    for (uint32_t x = e;;) {
        nodes[n++] = u->ent_p[x];
        const uint32_t p = u->ent_par[x];
        if (p == src)
            break;
        nodes[n++] = (uint16_t)p;
        x = u->on_par[p];
    }
    h = (struct se_hint){.tenths = base + se_length_tenths((int)n),
                         .complexity = (int)n,
                         .sort_key = key,
                         .name = name,
                         .src = (uint16_t)src,
                         .unit = -1};
    if (!se_better(b, &h))
        return;
    for (uint32_t i = 0; i < n; i++)
        onc[pot_cell(nodes[i]) >> 6] |= (uint64_t)1 << (pot_cell(nodes[i]) & 63);
    /* By value, the cells that see an on node and an off node. */
    for (uint32_t i = 0; i < n; i++) {
        const struct lg_set *peers = &sg->geo->peers[pot_cell(nodes[i])];
        uint64_t *side = (nodes[i] & 1 ? fw : bk)[pot_val(nodes[i]) - 1];
        side[0] |= peers->w[0];
        side[1] |= peers->w[1];
    }
    for (uint32_t v = 1; v <= 9; v++) {
        for (uint32_t w = 0; w < 2; w++) {
            for (uint64_t m = fw[v - 1][w] & bk[v - 1][w] & ~onc[w]; m; m &= m - 1) {
                const uint32_t o = w * 64 + (uint32_t)__builtin_ctzll(m);
                if (g->cand[o] >> (v - 1) & 1u) {
                    bit_set(elim, o * 9 + v - 1);
                    any = 1;
                }
            }
        }
    }
    if (!any)
        return;
    if (b->all) { /* every node has a cause, forward or in the reversed cycle */
        uint64_t par[CVW] = {0}, sig = 0;
        const struct se_acc a = {par, b->all->lost, sg, -1, 0};
        for (uint32_t i = 0; i < n; i++) {
            acc_link(&a, nodes[i], nodes[(i + 1) % n]);
            acc_link(&a, nodes[i] ^ 1u, nodes[(i + 1) % n]);
            sig = sig * 31 + sig_mix(nodes[i]);
        }
        list_add(b, &h, elim, par, sig);
        return;
    }
    b->h = h;
    b->h.valid = true;
    memcpy(b->elim, elim, sizeof(b->elim));
    b->place = -1;
    b->ncells = 0;
    for (uint32_t i = 0; i < n; i++)
        best_cell(b, pot_cell(nodes[i]));
}

/* A forcing chain from src whose last step is from parent par: src's
 * opposite holds. */
static void un_forcing_hint(const struct se_unary *u, uint32_t src, uint32_t par, int base, int key,
                            const char *name, struct se_best *b)
{
    uint16_t path[NPOT];
    uint32_t n = 0;

    for (uint32_t p = par; p != NONE; p = p & 1 ? u->on_par[p] : u->off_par[p])
        path[n++] = (uint16_t)p;
    const int cx = (int)n + 1;
    struct se_hint h = {.tenths = base + se_length_tenths(cx),
                        .complexity = cx,
                        .sort_key = key,
                        .name = name,
                        .src = (uint16_t)src,
                        .target = (uint16_t)(src ^ 1u),
                        .unit = -1};
    if (!se_better(b, &h))
        return;
    if (b->all) {
        uint64_t elim[CVW], rp[CVW] = {0}, sig = sig_mix(src ^ 1u);
        const struct se_acc a = {rp, b->all->lost, b->all->sg, -1, 0};
        target_elim(elim, b->all->g, src ^ 1u);
        acc_link(&a, src ^ 1u, par);
        for (uint32_t i = 0; i + 1 < n; i++)
            acc_link(&a, path[i], path[i + 1]);
        for (uint32_t i = 0; i < n; i++)
            sig = sig * 31 + sig_mix(path[i]);
        list_add(b, &h, elim, rp, sig);
        return;
    }
    b->h = h;
    b->h.valid = true;
    memset(b->elim, 0, sizeof(b->elim));
    b->place = src & 1 ? -1 : (int)(src / 2);
    if (src & 1)
        bit_set(b->elim, src / 2);
    b->ncells = 0;
    while (n)
        best_cell(b, pot_cell(path[--n]));
}

/* Does a strong link lead into on potential p (an off potential that makes
 * it on)?  Strong links go both ways, so: does p's off potential make
 * anything on?  Without one no cycle closes at p, and no chain from p's off
 * potential reaches p. */
static bool un_is_fed(const struct se_unary *u, uint32_t p)
{
    return u->first[(p ^ 1u) + 1] > u->first[p ^ 1u];
}

/* The cycle searches un_kind skipped (no cycle closes at their starts),
 * run only when the rung's answer needs to know whether one of them would
 * have stopped at its node bound: no step found yet and none of the other
 * searches stopped there (se_step reads b->cut only then). */
static void un_idle_cuts(struct se_unary *u, int base, int key, struct se_best *b)
{
    for (uint32_t i = 0; i < u->nidle && !b->h.valid && !b->cut; i++) {
        un_cycles(u, u->idle[i], se_max_cx(b, base, key));
        b->cut |= u->cut;
    }
}

/* One kind of SE's unary chaining over every start.  A start that no
 * strong link leads into closes no cycle and ends no forcing chain from
 * its off potential: those searches are skipped (un_is_fed); the off
 * potential's search would stop at once, at its bound when that is
 * under 2 nodes. */
static void un_kind(struct se_unary *u, const struct se_run *r, const struct se_geo *sg,
                    const struct lg_grid *g, bool y, bool x, struct se_best *b)
{
    const int key = x && y ? 4 : y ? 3 : 2;
    const int cyc_base = x && y ? 70 : 65, fc_base = x && y ? 70 : 66;
    const char *cyc_name = x && y ? "xy_cycle" : y ? "y_cycle" : "x_cycle";
    const char *fc_name = y ? "aic" : "x_chain";

    un_links(u, r, sg, g, y, x);
    memset(u->mark, 0, sizeof(u->mark));
    u->epoch = 0;
    u->nidle = 0;
    for (uint32_t cell = 0; cell < 81; cell++) {
        const uint32_t card = lg_popcount(g->cand[cell]);
        if (card < 2 || (card > 2 && !x))
            continue;
        for (uint32_t m = g->cand[cell]; m; m &= m - 1) {
            const uint32_t src = pot(cell, lg_lowest(m) + 1, 1);
            const bool fed = un_is_fed(u, src);
            if (fed) {
                un_cycles(u, src, se_max_cx(b, cyc_base, key));
                b->cut |= u->cut;
                for (uint32_t i = 0; i < u->ncyc; i++)
                    un_cycle_hint(u, sg, g, src, u->cyc[i], cyc_base, key, cyc_name, b);
            } else if (!b->h.valid) {
                u->idle[u->nidle++] = (uint16_t)src;
            }
            if (!x)
                continue;
            uint32_t par = un_forcing(u, src, se_max_cx(b, fc_base, key));
            b->cut |= u->cut;
            if (par != NONE)
                un_forcing_hint(u, src, par, fc_base, key, fc_name, b);
            if (!fed) {
                b->cut |= se_max_cx(b, fc_base, key) < 2;
                continue;
            }
            par = un_forcing(u, src ^ 1u, se_max_cx(b, fc_base, key));
            b->cut |= u->cut;
            if (par != NONE)
                un_forcing_hint(u, src ^ 1u, par, fc_base, key, fc_name, b);
        }
    }
    un_idle_cuts(u, cyc_base, key, b);
}

/* ------------------------------------------------------------------------ */
/* Nishio, multiple and dynamic forcing chains                              */
/* ------------------------------------------------------------------------ */

/* Which of SE's multiple-chain producers. */
struct se_mode {
    bool dynamic;     /* processed off potentials leave the grid */
    bool nishio;      /* one value only; contradictions only */
    int base;         /* rating in tenths */
    const char *name; /* our technique name */
    uint8_t level;    /* SE's nesting level: 1 dynamic (+), 2-5 nested, else 0 */
};

/* The runs one source cell needs. */
struct se_multi {
    struct se_run a;                    /* the source candidate on */
    struct se_run b;                    /* off, or another place of the value */
    uint64_t cell_in[(NPOT + 63) / 64]; /* what every value of the cell implies */
    uint16_t first_on[NCV];             /* the first value's run, in order */
    uint16_t first_off[NCV];
    uint32_t nfirst_on, nfirst_off;
    uint16_t mem[NPOT]; /* members of an intersection, in order */
    int sum[NPOT];      /* their weights so far, by member index */
    /* Each candidate's on run, for the region forcing chains that share it
     * (cell * 9 + v - 1; valid where have is set). */
    uint64_t have[CVW];
    uint64_t on_in[NCV][(NPOT + 63) / 64];
    struct se_run t;      /* loaded from the rung's grid, never run: the others load from it */
    struct se_extra *x;   /* levels 2-5: each member's nested chains and more, else NULL */
    const uint16_t *lost; /* a nested search's: what the outer grid lost, else NULL */
};

#define SLOT_ONE NPOT /* the slot of a step with one member (binary chains) */

/* What a multiple-chain search of level 2-5 (or one nested in a run) keeps
 * per member of an intersection while it weighs the member's chains, and
 * slot SLOT_ONE for a step of its own. */
struct se_extra {
    struct se_seen seen[NPOT + 1]; /* the nested chains counted */
    uint64_t par[NPOT + 1][CVW];   /* rule parents (a nested search) */
    uint64_t sig[NPOT + 1];        /* the signature so far (a nested search) */
};

static void mu_slot_clear(struct se_multi *w, uint32_t slot)
{
    if (!w->x)
        return;
    w->x->seen[slot].n = 0;
    memset(w->x->par[slot], 0, sizeof(w->x->par[slot]));
    w->x->sig[slot] = 0;
}

/* Weigh potential p of run r (p < 0: its contradiction) for the member in
 * slot: its nested chains counted once for the step, and in a nested
 * search its rule parents and signature gathered; src is the source's
 * cause (struct se_acc). */
static int mu_weigh(struct se_multi *w, struct se_run *r, const struct se_geo *sg, int p,
                    uint32_t slot, int src)
{
    struct se_acc acc = {w->x ? w->x->par[slot] : NULL, w->lost, sg, src, 0};
    int cx;

    r->acc = w->lost ? &acc : NULL;
    r->seen = w->x ? &w->x->seen[slot] : NULL;
    cx = p < 0 ? run_absurd_weight(r, sg) : run_weight_of(r, sg, (uint32_t)p);
    r->acc = NULL;
    r->seen = NULL;
    if (w->lost)
        w->x->sig[slot] = w->x->sig[slot] * 31 + acc.hash;
    return cx;
}

/* SE's doChaining from src into r, loaded from w->t. */
static void mu_run(const struct se_multi *w, struct se_run *r, const struct se_geo *sg,
                   const struct lg_grid *g, uint32_t src, bool dynamic, bool y)
{
    run_load_as(r, &w->t);
    run_loaded(r, sg, g, src, dynamic, y);
}

/* What candidate cv taken as true implies (the run's in set), from the
 * cache or run into w->b; the pointer is into w. */
static const uint64_t *mu_on_in(struct se_multi *w, const struct se_mode *mo,
                                const struct se_geo *sg, const struct lg_grid *g, uint32_t cv)
{
    if (!bit_has(w->have, cv)) { /* a place no source cell ran (rare: run from g) */
        run_chain(&w->b, sg, g, cv * 2 + 1, mo->dynamic, true);
        memcpy(w->on_in[cv], w->b.in, sizeof(w->on_in[cv]));
        bit_set(w->have, cv);
    }
    return w->on_in[cv];
}

/* Offer a step concluding target, of weight cx; source and unit for the
 * pattern; its member slot of w holds its rule parents (a nested search). */
static void mu_offer(struct se_best *b, const struct se_mode *mo, const struct lg_grid *g,
                     uint32_t target, int cx, int key, uint32_t src_cell, int unit,
                     const struct se_geo *sg, const struct se_multi *w, uint32_t slot)
{
    const uint32_t cell = pot_cell(target), v = pot_val(target);
    struct se_hint h = {.tenths = mo->base + se_length_tenths(cx),
                        .complexity = cx,
                        .sort_key = key,
                        .name = mo->name,
                        .src = (uint16_t)src_cell,
                        .target = (uint16_t)target,
                        .unit = unit};

    if ((target & 1) && !(g->cand[cell] & ~(1u << (v - 1))))
        return; /* nothing to remove */
    if (!se_better(b, &h))
        return;
    if (b->all) {
        uint64_t elim[CVW];
        target_elim(elim, g, target);
        list_add(b, &h, elim, w->x->par[slot], w->x->sig[slot] ^ sig_mix(target));
        return;
    }
    b->h = h;
    b->h.valid = true;
    memset(b->elim, 0, sizeof(b->elim));
    b->place = target & 1 ? (int)(target / 2) : -1;
    if (!(target & 1))
        bit_set(b->elim, target / 2);
    b->ncells = 0;
    best_cell(b, src_cell);
    for (uint32_t k = 0; unit >= 0 && k < 9; k++) {
        const uint32_t other = sg->geo->unit[unit][k];
        if (g->cand[other] >> (v - 1) & 1u)
            best_cell(b, other);
    }
    best_cell(b, cell);
}

/* Members of set in that are listed in on and off (run order), into mem. */
static uint32_t mu_members(uint16_t *mem, const uint64_t *in, const uint16_t *on, uint32_t non,
                           const uint16_t *off, uint32_t noff)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < non; i++)
        if (bit_has(in, on[i]))
            mem[n++] = on[i];
    for (uint32_t i = 0; i < noff; i++)
        if (bit_has(in, off[i]))
            mem[n++] = off[i];
    return n;
}

/* Contradictions and double implications of one source candidate. */
static void mu_binary(struct se_multi *w, const struct se_mode *mo, const struct se_geo *sg,
                      const struct lg_grid *g, uint32_t cell, uint32_t v, struct se_best *b)
{
    const bool y = !mo->nishio;
    const uint32_t on = pot(cell, v, 1);

    mu_run(w, &w->b, sg, g, on ^ 1u, mo->dynamic, y);
    if (w->a.abs_on >= 0) {
        mu_slot_clear(w, SLOT_ONE);
        const int cx = mu_weigh(w, &w->a, sg, -1, SLOT_ONE, -1);
        mu_offer(b, mo, g, on ^ 1u, cx, 7, cell, -1, sg, w, SLOT_ONE);
    }
    if (w->b.abs_on >= 0) {
        mu_slot_clear(w, SLOT_ONE);
        const int cx = mu_weigh(w, &w->b, sg, -1, SLOT_ONE, -1);
        mu_offer(b, mo, g, on, cx, 7, cell, -1, sg, w, SLOT_ONE);
    }
    if (mo->nishio || lg_popcount(g->cand[cell]) < 3)
        return;
    const uint32_t n = mu_members(w->mem, w->b.in, w->a.lon, w->a.non, w->a.loff, w->a.noff);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t p = w->mem[i];
        mu_slot_clear(w, SLOT_ONE);
        const int cx = mu_weigh(w, &w->a, sg, (int)p, SLOT_ONE, -1) +
                       mu_weigh(w, &w->b, sg, (int)p, SLOT_ONE, -1);
        mu_offer(b, mo, g, p, cx, 1, cell, -1, sg, w, SLOT_ONE);
    }
}

/* Region forcing chains of value v in unit u, whose first place is cell:
 * what every place implies (the cached runs), then the weights of that. */
static void mu_region(struct se_multi *w, const struct se_mode *mo, const struct se_geo *sg,
                      const struct lg_grid *g, uint32_t cell, uint32_t v, uint32_t u,
                      struct se_best *b)
{
    uint64_t in[(NPOT + 63) / 64], any = 0;
    uint32_t others[9] = {0}, nothers = 0;

    memcpy(in, mu_on_in(w, mo, sg, g, cell * 9 + v - 1), sizeof(in));
    for (uint32_t k = 0; k < 9; k++) {
        const uint32_t other = sg->geo->unit[u][k];
        if (other != cell && (g->cand[other] >> (v - 1) & 1u))
            others[nothers++] = other;
    }
    for (uint32_t i = 0; i < nothers; i++) {
        const uint64_t *oin = mu_on_in(w, mo, sg, g, others[i] * 9 + v - 1);
        for (int k = 0; k < (NPOT + 63) / 64; k++)
            in[k] &= oin[k];
    }
    for (int k = 0; k < (NPOT + 63) / 64; k++)
        any |= in[k];
    if (!any)
        return;
    mu_run(w, &w->a, sg, g, pot(cell, v, 1), mo->dynamic, true);
    const uint32_t n = mu_members(w->mem, in, w->a.lon, w->a.non, w->a.loff, w->a.noff);
    if (!n)
        return;
    for (uint32_t i = 0; i < n; i++) {
        mu_slot_clear(w, i);
        w->sum[i] = mu_weigh(w, &w->a, sg, w->mem[i], i, (int)u);
    }
    for (uint32_t j = 0; j < nothers; j++) {
        mu_run(w, &w->b, sg, g, pot(others[j], v, 1), mo->dynamic, true);
        for (uint32_t i = 0; i < n; i++)
            w->sum[i] += mu_weigh(w, &w->b, sg, w->mem[i], i, (int)u);
    }
    for (uint32_t i = 0; i < n; i++)
        mu_offer(b, mo, g, w->mem[i], w->sum[i], 6, cell, (int)u, sg, w, i);
}

/* Cell forcing chains of cell: what every value implies. */
static void mu_cell(struct se_multi *w, const struct se_mode *mo, const struct se_geo *sg,
                    const struct lg_grid *g, uint32_t cell, struct se_best *b)
{
    const uint32_t n =
        mu_members(w->mem, w->cell_in, w->first_on, w->nfirst_on, w->first_off, w->nfirst_off);

    if (!n)
        return;
    memset(w->sum, 0, sizeof(w->sum[0]) * n);
    for (uint32_t i = 0; i < n; i++)
        mu_slot_clear(w, i);
    for (uint32_t m = g->cand[cell]; m; m &= m - 1) {
        mu_run(w, &w->a, sg, g, pot(cell, lg_lowest(m) + 1, 1), mo->dynamic, true);
        for (uint32_t i = 0; i < n; i++)
            w->sum[i] += mu_weigh(w, &w->a, sg, w->mem[i], i, 27);
    }
    for (uint32_t i = 0; i < n; i++)
        mu_offer(b, mo, g, w->mem[i], w->sum[i], 5, cell, -1, sg, w, i);
}

/* The region forcing chains whose first place is cell, in SE's order
 * (value, then the cell's block, row and column).  They run after every
 * source cell's other chains, so that the runs they share are cached;
 * a step's rank does not depend on when it is offered, but for ties of
 * one kind, whose order this keeps. */
static void mu_regions(struct se_multi *w, const struct se_mode *mo, const struct se_geo *sg,
                       const struct lg_grid *g, uint32_t cell, struct se_best *b)
{
    for (uint32_t m = g->cand[cell]; m; m &= m - 1) {
        const uint32_t v = lg_lowest(m) + 1;
        for (int k = 0; k < 3; k++) {
            const uint32_t u = sg->unit[cell][k];
            uint32_t pm = 0;
            for (uint32_t i = 0; i < 9; i++)
                if (g->cand[sg->geo->unit[u][i]] >> (v - 1) & 1u)
                    pm |= 1u << i;
            if (lg_popcount(pm) >= 2 && lg_lowest(pm) == sg->place[cell][k])
                mu_region(w, mo, sg, g, cell, v, u, b);
        }
    }
}

/* Every source value of one cell, in SE's order. */
static void mu_source(struct se_multi *w, const struct se_mode *mo, const struct se_geo *sg,
                      const struct lg_grid *g, uint32_t cell, struct se_best *b)
{
    bool first = true;

    for (uint32_t m = g->cand[cell]; m; m &= m - 1) {
        const uint32_t v = lg_lowest(m) + 1;
        mu_run(w, &w->a, sg, g, pot(cell, v, 1), mo->dynamic, !mo->nishio);
        if (!mo->nishio) {
            memcpy(w->on_in[cell * 9 + v - 1], w->a.in, sizeof(w->a.in));
            bit_set(w->have, cell * 9 + v - 1);
        }
        if (mo->dynamic)
            mu_binary(w, mo, sg, g, cell, v, b);
        if (mo->nishio)
            continue;
        if (first) {
            memcpy(w->cell_in, w->a.in, sizeof(w->cell_in));
            memcpy(w->first_on, w->a.lon, sizeof(w->a.lon[0]) * w->a.non);
            memcpy(w->first_off, w->a.loff, sizeof(w->a.loff[0]) * w->a.noff);
            w->nfirst_on = w->a.non;
            w->nfirst_off = w->a.noff;
            first = false;
        } else {
            for (int k = 0; k < (NPOT + 63) / 64; k++)
                w->cell_in[k] &= w->a.in[k];
        }
    }
    if (!mo->nishio)
        mu_cell(w, mo, sg, g, cell, b);
}

/* ------------------------------------------------------------------------ */
/* Steps                                                                     */
/* ------------------------------------------------------------------------ */

/* The step's sentence: its kind, its nodes, its cells and what it does. */
static void se_text(const struct lg_ctx *c, const struct se_best *b, struct lg_step *s)
{
    char what[64], path[LG_TEXT_MAX / 2];

    lg_cells_name(c->geo, s->cells, s->cells_len, path, sizeof(path));
    if (b->place >= 0) {
        char ca[16];
        snprintf(what, sizeof(what), "%s is %d",
                 lg_cell_name(c->geo, (uint32_t)b->place / 9, ca, sizeof(ca)), b->place % 9 + 1);
    } else {
        snprintf(what, sizeof(what), "%u candidate%s go%s", s->elim_len,
                 s->elim_len == 1 ? "" : "s", s->elim_len == 1 ? "es" : "");
    }
    lg_text(c, s, "%s (%d nodes) over %s: %s", s->name, b->h.complexity, path, what);
}

/* Turn the best step into s; false when there is none.  With none at or
 * below the ceiling but some search cut there, s is a step with no content
 * rated the least a step cut could rate (lg_ctx.cut_above). */
static bool se_step(const struct lg_ctx *c, const struct se_best *b, struct lg_step *s)
{
    if (!b->h.valid && b->cut) {
        s->rating = (b->max_tenths + 1) / 10.0;
        return true;
    }
    if (!b->h.valid)
        return false;
    lg_step_reset(s, b->h.name, b->h.tenths / 10.0);
    if (b->place >= 0)
        lg_step_place(s, (uint32_t)b->place / 9, (uint32_t)b->place % 9 + 1);
    for (uint32_t i = 0; i < NCV; i++)
        if (bit_has(b->elim, i))
            lg_step_elim(s, i / 9, i % 9 + 1);
    for (uint32_t i = 0; i < b->ncells; i++)
        lg_step_cell(s, b->cells[i]);
    if (c->want_text)
        se_text(c, b, s);
    return true;
}

/* The work space of a rung, on the caller's stack. */
union se_work {
    struct se_unary un;
    struct se_multi mu;
};

/* SE's "forcing chains & cycles": X-cycles, Y-cycles and forcing X-chains
 * (6.5, 6.6), then cycles and forcing chains of both kinds of links (7.0). */
bool lg_se_chain(const struct lg_ctx *c, struct lg_step *s)
{
    struct se_geo sg;
    struct se_run r;
    struct se_best b;
    union se_work w;

    if (!lg_se_applies(c))
        return false;
    se_geo_init(&sg, c->geo);
    r.level = 0;
    r.nest = NULL;
    run_load(&r, c->g, &sg);
    best_init(&b, c);
    un_kind(&w.un, &r, &sg, c->g, false, true, &b);
    if (lg_should_stop(c))
        return false;
    un_kind(&w.un, &r, &sg, c->g, true, false, &b);
    if (!b.h.valid || b.h.tenths >= 70) /* mixed links rate 7.0 and up: else none ranks first */
        un_kind(&w.un, &r, &sg, c->g, true, true, &b);
    return !lg_should_stop(c) && se_step(c, &b, s);
}

/* One multiple-chain producer over every source cell of g into b, its
 * runs of level mo->level with nested searches in inner (levels 2-5).
 * False when c's job stopped it. */
static bool mu_search(struct se_multi *w, const struct lg_ctx *c, const struct lg_grid *g,
                      const struct se_geo *sg, const struct se_mode *mo, struct se_nest *inner,
                      struct se_best *b)
{
    memset(w->have, 0, sizeof(w->have));
    w->a.level = w->b.level = w->t.level = mo->level;
    w->a.nest = w->b.nest = w->t.nest = inner;
    run_load(&w->t, g, sg);
    for (uint32_t cell = 0; cell < 81; cell++) {
        const uint32_t card = lg_popcount(g->cand[cell]);
        if (card < 2 || (!mo->dynamic && card < 3))
            continue;
        if (lg_should_stop(c))
            return false;
        mu_source(w, mo, sg, g, cell, b);
    }
    for (uint32_t cell = 0; cell < 81 && !mo->nishio; cell++) {
        const uint32_t card = lg_popcount(g->cand[cell]);
        if (card < 2 || (!mo->dynamic && card < 3))
            continue;
        if (lg_should_stop(c))
            return false;
        mu_regions(w, mo, sg, g, cell, b);
    }
    return true;
}

/* One multiple-chain producer on c's grid (nested searches in inner, the
 * members' nested chains counted in x). */
static bool se_multi_in(const struct lg_ctx *c, struct lg_step *s, const struct se_mode *mo,
                        struct se_nest *inner, struct se_extra *x)
{
    struct se_geo sg;
    struct se_best b;
    union se_work w;

    se_geo_init(&sg, c->geo);
    best_init(&b, c);
    w.mu.x = x;
    w.mu.lost = NULL;
    return mu_search(&w.mu, c, c->g, &sg, mo, inner, &b) && se_step(c, &b, s);
}

static bool se_multi(const struct lg_ctx *c, struct lg_step *s, const struct se_mode *mo)
{
    return se_multi_in(c, s, mo, NULL, NULL);
}

bool lg_se_nishio(const struct lg_ctx *c, struct lg_step *s)
{
    static const struct se_mode mo = {true, true, 75, "nishio_forcing_chain", 0};

    return lg_se_applies(c) && se_multi(c, s, &mo);
}

bool lg_se_multiple(const struct lg_ctx *c, struct lg_step *s)
{
    static const struct se_mode mo = {false, false, 80, "forcing_chain", 0};

    return se_multi(c, s, &mo);
}

bool lg_se_dynamic(const struct lg_ctx *c, struct lg_step *s)
{
    static const struct se_mode mo = {true, false, 85, "dynamic_forcing_chain", 0};

    return se_multi(c, s, &mo);
}

/* SE's dynamic forcing chains (+): the dynamic runs go on with locked
 * candidates, hidden and naked pairs and X-wings on the run's grid
 * (senest.c) once the plain implications are done. */
bool lg_se_dynamic_plus(const struct lg_ctx *c, struct lg_step *s)
{
    static const struct se_mode mo = {true, false, 90, "dynamic_forcing_chain_plus", 1};

    return lg_se_applies(c) && se_multi(c, s, &mo);
}

/* ------------------------------------------------------------------------ */
/* Nested forcing chains (SE's levels 2 to 5)                               */
/* ------------------------------------------------------------------------ */

#define NEST_CAP 4096 /* steps one nested search keeps */

/* The work space of the nested searches of runs of one depth: a run of
 * level 2-5 that the other rules leave stuck searches its own grid for
 * chains (lg_se_nested_rules) here.  Level 5's nested search runs at
 * level 2, whose own nested searches use next. */
struct se_nest {
    struct lg_grid g;       /* the outer run's grid, as the position searched */
    uint16_t lost[81];      /* what each cell lost there since the outer run's start */
    struct se_list list;    /* the steps found */
    const struct lg_ctx *c; /* the rung's: its job's stop */
    struct se_nest *next;   /* the next depth's, or NULL */
    struct se_run r0;       /* the static searches' run (loaded, never run) */
    union se_work w;        /* the search's runs */
    struct se_extra x;      /* the search's members */
};

/* A work space for nested searches under c; NULL when out of memory.  The
 * caller frees it with nest_free. */
static struct se_nest *nest_new(const struct lg_ctx *c)
{
    struct se_nest *n = calloc(1, sizeof(*n));

    if (!n)
        return NULL;
    n->list.it = calloc(NEST_CAP, sizeof(n->list.it[0]));
    n->list.key = calloc(NEST_CAP, sizeof(n->list.key[0]));
    if (!n->list.it || !n->list.key) {
        free(n->list.it);
        free(n->list.key);
        free(n);
        return NULL;
    }
    n->list.cap = NEST_CAP;
    n->c = c;
    return n;
}

static void nest_free(struct se_nest *n)
{
    if (!n)
        return;
    free(n->list.it);
    free(n->list.key);
    free(n);
}

/* SE sorts a rule's chaining steps by rating, complexity and kind (a
 * stable sort: then the order found). */
static int key_cmp(const void *pa, const void *pb)
{
    const struct se_key *a = pa, *b = pb;

    if (a->tenths != b->tenths)
        return a->tenths < b->tenths ? -1 : 1;
    if (a->cx != b->cx)
        return a->cx < b->cx ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Join the removals of n's steps to run r, in SE's order, each with its
 * rule parents (which r removed) and its complexity; a step that needs
 * none of r's removals holds without the chain and is left out.  Returns
 * whether any step needed them (SE stops at the first such rule); *added
 * counts the removals joined. */
static bool nest_join(struct se_run *r, struct se_nest *n, uint32_t *added)
{
    struct se_list *l = &n->list;
    uint16_t par[NCV];
    bool any = false;

    qsort(l->key, l->n, sizeof(l->key[0]), key_cmp);
    for (uint32_t i = 0; i < l->n; i++) {
        const struct se_item *it = &l->it[l->key[i].idx];
        uint32_t npar = 0, fresh = 0;
        for (uint32_t w = 0; w < CVW; w++)
            for (uint64_t m = it->par[w]; m; m &= m - 1) {
                const uint32_t cv = w * 64 + (uint32_t)__builtin_ctzll(m);
                if (bit_has(r->in, cv * 2))
                    par[npar++] = (uint16_t)(cv * 2);
            }
        if (!npar)
            continue;
        any = true;
        for (uint32_t cv = 0; cv < NCV; cv++)
            fresh += bit_has(it->elim, cv) && !bit_has(r->in, cv * 2);
        if (!fresh || r->nnh == NH_MAX || r->nxpar + 2 + npar > XPAR)
            continue; /* the bounds: the step is left out */
        const uint32_t nid = r->nnh++, off = r->nxpar;
        r->nh_cx[nid] = (uint32_t)l->key[i].cx;
        r->nh_sig[nid] = it->sig;
        r->xpar[off] = (uint16_t)npar;
        r->xpar[off + 1] = (uint16_t)nid;
        memcpy(&r->xpar[off + 2], par, sizeof(par[0]) * npar);
        r->nxpar += 2 + npar;
        for (uint32_t cv = 0; cv < NCV; cv++) {
            if (bit_has(it->elim, cv) && !bit_has(r->in, cv * 2)) {
                run_add(r, cv * 2, NONE, HK_LIST, off);
                (*added)++;
            }
        }
    }
    return any;
}

/* SE's forcing chains & cycles on n's grid, every step into n's list. */
static void nest_unary(struct se_nest *n, const struct se_geo *sg)
{
    struct se_best b;

    best_init(&b, n->c);
    b.all = &n->list;
    n->r0.level = 0;
    n->r0.nest = NULL;
    run_load(&n->r0, &n->g, sg);
    un_kind(&n->w.un, &n->r0, sg, &n->g, false, true, &b);
    un_kind(&n->w.un, &n->r0, sg, &n->g, true, false, &b);
    un_kind(&n->w.un, &n->r0, sg, &n->g, true, true, &b);
}

/* A multiple-chain producer on n's grid, every step into n's list. */
static void nest_multi(struct se_nest *n, const struct se_geo *sg, const struct se_mode *mo)
{
    struct se_best b;

    best_init(&b, n->c);
    b.all = &n->list;
    n->w.mu.x = &n->x;
    n->w.mu.lost = n->lost;
    if (!mu_search(&n->w.mu, n->c, &n->g, sg, mo, n->next, &b))
        n->list.n = 0; /* stopped: the rung gives up as well */
}

/* Rule k (0, then 1) of a nested level's chaining on n's grid, into n's
 * list; false when the level has no such rule. */
static bool nest_rule(struct se_nest *n, const struct se_geo *sg, int level, int k)
{
    static const struct se_mode multiple = {false, false, 80, "", 0};
    static const struct se_mode dynamic = {true, false, 85, "", 0};
    static const struct se_mode nested2 = {true, false, 95, "", 2};

    n->list.n = 0;
    if (k == 0 && level <= 3)
        nest_unary(n, sg);
    else if (k == 1 && level == 3)
        nest_multi(n, sg, &multiple);
    else if (k == 0)
        nest_multi(n, sg, &dynamic);
    else if (k == 1 && level == 5 && n->next)
        nest_multi(n, sg, &nested2);
    else
        return false;
    return true;
}

/* SE's other chaining rules of a nested level (Chaining.getAdvancedPotentials):
 * 2 forcing chains & cycles, 3 those then multiple forcing chains, 4
 * dynamic forcing chains, 5 those then dynamic forcing chains nested at
 * level 2; each on the run's grid, the first that finds steps needing the
 * run's removals ends the look. */
uint32_t lg_se_nested_rules(struct se_run *r, const struct se_geo *sg, const struct lg_grid *g)
{
    struct se_nest *n = r->nest;
    uint32_t added = 0;

    if (!n || lg_should_stop(n->c))
        return 0;
    n->g = *g;
    for (uint32_t cell = 0; cell < 81; cell++) {
        n->g.cand[cell] = g->val[cell] ? g->cand[cell] : r->cand[cell];
        n->lost[cell] = (uint16_t)(g->cand[cell] & ~r->cand[cell]);
    }
    n->list.lost = n->lost;
    n->list.g = &n->g;
    n->list.sg = sg;
    for (int k = 0; nest_rule(n, sg, r->level, k); k++)
        if (nest_join(r, n, &added))
            break;
    return added;
}

/* SE's nested forcing chains of one level: dynamic forcing chains whose
 * runs go on with the other rules and the level's nested chaining. */
static bool se_nested(const struct lg_ctx *c, struct lg_step *s, int level, const char *name)
{
    const struct se_mode mo = {true, false, 95 + 5 * (level - 2), name, (uint8_t)level};
    struct se_nest *n1 = NULL, *n2 = NULL;
    struct se_extra *x = NULL;
    bool found = false;

    if (!lg_se_applies(c))
        return false;
    n1 = nest_new(c);
    x = malloc(sizeof(*x));
    if (!n1 || !x)
        goto out;
    if (level == 5) {
        n2 = nest_new(c);
        if (!n2)
            goto out;
        n1->next = n2;
    }
    found = se_multi_in(c, s, &mo, n1, x);
out:
    free(x);
    nest_free(n1);
    nest_free(n2);
    return found;
}

bool lg_se_nested_fc(const struct lg_ctx *c, struct lg_step *s)
{
    return se_nested(c, s, 2, "nested_forcing_chain");
}

bool lg_se_nested_multiple(const struct lg_ctx *c, struct lg_step *s)
{
    return se_nested(c, s, 3, "nested_multiple_forcing_chain");
}

bool lg_se_nested_dynamic(const struct lg_ctx *c, struct lg_step *s)
{
    return se_nested(c, s, 4, "nested_dynamic_forcing_chain");
}

bool lg_se_nested_twice(const struct lg_ctx *c, struct lg_step *s)
{
    return se_nested(c, s, 5, "nested_dynamic_forcing_chain_plus");
}
