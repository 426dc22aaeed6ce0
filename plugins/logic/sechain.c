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
 * listed in the run (hkind HK_LIST).
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
 * caller's stack (about 125 KB for the first rung, 270 KB for the others);
 * nothing allocates.
 */
#include <limits.h>
#include <stdio.h>
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

    if (par != NONE)
        walk_push(r, sp, count, par);
    if (hkind == 1)
        for (uint32_t m = hmask; m; m &= m - 1)
            walk_push(r, sp, count, pot(cell, lg_lowest(m) + 1, 0));
    else if (hkind == HK_LIST)
        for (uint32_t i = 1; i <= r->xpar[hmask]; i++)
            walk_push(r, sp, count, r->xpar[hmask + i]);
    else if (hkind >= 2)
        for (uint32_t m = hmask; m; m &= m - 1)
            walk_push(r, sp, count, pot(sg->geo->unit[hkind - 2][lg_lowest(m)], v, 0));
}

/* Ancestor count (SE's getAncestorCount) of a potential with these
 * parents: itself and every potential it was derived from. */
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

/* The best step so far, with what it removes and its pattern. */
struct se_best {
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
    uint8_t level;    /* SE's nesting level: 1 dynamic (+), else 0 */
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
    struct se_run t; /* loaded from the rung's grid, never run: the others load from it */
};

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
 * pattern. */
static void mu_offer(struct se_best *b, const struct se_mode *mo, const struct lg_grid *g,
                     uint32_t target, int cx, int key, uint32_t src_cell, int unit,
                     const struct se_geo *sg)
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
    if (w->a.abs_on >= 0)
        mu_offer(b, mo, g, on ^ 1u, run_absurd_weight(&w->a, sg), 7, cell, -1, sg);
    if (w->b.abs_on >= 0)
        mu_offer(b, mo, g, on, run_absurd_weight(&w->b, sg), 7, cell, -1, sg);
    if (mo->nishio || lg_popcount(g->cand[cell]) < 3)
        return;
    const uint32_t n = mu_members(w->mem, w->b.in, w->a.lon, w->a.non, w->a.loff, w->a.noff);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t p = w->mem[i];
        const int cx = run_weight_of(&w->a, sg, p) + run_weight_of(&w->b, sg, p);
        mu_offer(b, mo, g, p, cx, 1, cell, -1, sg);
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
    for (uint32_t i = 0; i < n; i++)
        w->sum[i] = run_weight_of(&w->a, sg, w->mem[i]);
    for (uint32_t j = 0; j < nothers; j++) {
        mu_run(w, &w->b, sg, g, pot(others[j], v, 1), mo->dynamic, true);
        for (uint32_t i = 0; i < n; i++)
            w->sum[i] += run_weight_of(&w->b, sg, w->mem[i]);
    }
    for (uint32_t i = 0; i < n; i++)
        mu_offer(b, mo, g, w->mem[i], w->sum[i], 6, cell, (int)u, sg);
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
    for (uint32_t m = g->cand[cell]; m; m &= m - 1) {
        mu_run(w, &w->a, sg, g, pot(cell, lg_lowest(m) + 1, 1), mo->dynamic, true);
        for (uint32_t i = 0; i < n; i++)
            w->sum[i] += run_weight_of(&w->a, sg, w->mem[i]);
    }
    for (uint32_t i = 0; i < n; i++)
        mu_offer(b, mo, g, w->mem[i], w->sum[i], 5, cell, -1, sg);
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

/* One multiple-chain producer over every source cell. */
static bool se_multi(const struct lg_ctx *c, struct lg_step *s, const struct se_mode *mo)
{
    struct se_geo sg;
    struct se_best b;
    union se_work w;

    se_geo_init(&sg, c->geo);
    best_init(&b, c);
    memset(w.mu.have, 0, sizeof(w.mu.have));
    w.mu.a.level = w.mu.b.level = w.mu.t.level = mo->level;
    run_load(&w.mu.t, c->g, &sg);
    for (uint32_t cell = 0; cell < 81; cell++) {
        const uint32_t card = lg_popcount(c->g->cand[cell]);
        if (card < 2 || (!mo->dynamic && card < 3))
            continue;
        if (lg_should_stop(c))
            return false;
        mu_source(&w.mu, mo, &sg, c->g, cell, &b);
    }
    for (uint32_t cell = 0; cell < 81 && !mo->nishio; cell++) {
        const uint32_t card = lg_popcount(c->g->cand[cell]);
        if (card < 2 || (!mo->dynamic && card < 3))
            continue;
        if (lg_should_stop(c))
            return false;
        mu_regions(&w.mu, mo, &sg, c->g, cell, &b);
    }
    return se_step(c, &b, s);
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
