/* variant.c -- the logic plugin on variant rules: their shape, and the
 * house and peer techniques widened to them.
 *
 * The host hands the rules as tables (struct sdk_rules): houses, pairs of
 * cells that must differ, non-consecutive pairs, killer cages.  Here they
 * become one struct lg_geom for the call: a jigsaw's regions stand where
 * the boxes stood (units 2n..3n-1, bx[] the region), diagonals and windows
 * are extra units from 3n on, and a cell's peers are every cell it shares
 * a house with, its differ partners and its cage mates (a cage's digits
 * are distinct).  So the ladder's unit techniques run on every house
 * unchanged, and those built on "sees" (wings, chains, forcing) see what
 * the rules make a cell see.  Placing a value takes it from every peer and
 * its neighbours from the non-consecutive partners (lg_var_place).
 *
 * Locked candidates widen too: a value's places in a house, all seen by
 * one cell outside them, leave that cell (a row's places inside a box is
 * the classic case; a diagonal's, a window's, or an anti-knight's reach are
 * the variants' ones).  The rules' own steps (non-consecutive here, killer
 * in killer.c) are extra rungs merged into the ladder by rating.
 *
 * The geometry is checked before use: a table that does not fit the
 * engine's bounds is refused with -EINVAL, never trusted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg.h"

/* The rungs only variants feed, easiest first (docs/techniques.md). */
static const struct lg_rung var_ladder[] = {
    {"cage_combination", 1.8, lg_cage_combination},
    {"non_consecutive", 2.0, lg_non_consecutive},
    {"cage_locked_candidates", 2.7, lg_cage_locked},
    {"rule_of_45", 2.9, lg_rule_of_45},
};

/* The variant rungs, for explain.c's ladder and the tests. */
const struct lg_rung *lg_var_ladder(size_t *len)
{
    *len = sizeof(var_ladder) / sizeof(var_ladder[0]);
    return var_ladder;
}

/* ------------------------------------------------------------------------ */
/* Shape                                                                     */
/* ------------------------------------------------------------------------ */

/* Extra houses kinds brings: both diagonals, (b-1)^2 windows. */
static uint32_t extra_houses(uint32_t kinds, uint32_t b)
{
    return ((kinds & SDK_RULE_DIAGONALS) ? 2u : 0u) +
           ((kinds & SDK_RULE_WINDOWS) ? (b - 1) * (b - 1) : 0u);
}

/* Do the house tables of r fit geo (already a classic shape of side n):
 * rows and columns where the engine's arithmetic puts them, region k's
 * cells in house 2n + k, n distinct cells each?  Returns 0 or -EINVAL. */
static int check_houses(const struct lg_geom *geo, const struct sdk_rules *r)
{
    const uint32_t n = geo->n;

    if (r->houses_len != 3 * n + extra_houses(r->kinds, geo->box) || r->houses_len > LG_MAX_UNITS ||
        !r->houses || !r->region)
        return -EINVAL;
    for (uint32_t i = 0; i < geo->ncells; i++)
        if (r->region[i] >= n)
            return -EINVAL;
    for (uint32_t h = 0; h < r->houses_len; h++) {
        uint32_t seen[LG_MAX_CELLS / 32] = {0};
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t cell = r->houses[h * n + k];
            if (cell >= geo->ncells || (seen[cell / 32] >> (cell % 32) & 1u))
                return -EINVAL;
            seen[cell / 32] |= 1u << (cell % 32);
            if ((h < 2 * n && geo->unit[h][k] != cell) ||
                (h >= 2 * n && h < 3 * n && r->region[cell] != h - 2 * n))
                return -EINVAL;
        }
    }
    return 0;
}

/* Add b to a's peers (and a to b's). */
static void link_peers(struct lg_geom *geo, uint32_t a, uint32_t b)
{
    if (a != b) {
        lg_set_add(&geo->peers[a], b);
        lg_set_add(&geo->peers[b], a);
    }
}

/* The differ pairs of r (anti-knight, anti-king) as peers.  Returns 0 or
 * -EINVAL. */
static int add_differ(struct lg_geom *geo, const struct sdk_rules *r)
{
    if (r->differ_len && !r->differ)
        return -EINVAL;
    for (uint32_t i = 0; i < r->differ_len; i++) {
        const uint32_t a = r->differ[2 * i], b = r->differ[2 * i + 1];
        if (a >= geo->ncells || b >= geo->ncells || a == b)
            return -EINVAL;
        link_peers(geo, a, b);
    }
    return 0;
}

/* The cages of r: each cell's cage, cage mates as peers.  Returns 0 or
 * -EINVAL (a cell out of range or in two cages, a cage too long). */
static int add_cages(struct lg_geom *geo, const struct sdk_rules *r)
{
    if (r->cages_len && (!r->cages || !r->cage_cells))
        return -EINVAL;
    for (uint32_t c = 0; c < r->cages_len; c++) {
        const struct sdk_cage *cg = &r->cages[c];
        if (cg->len == 0 || cg->len > geo->n || cg->off > r->cage_cells_len ||
            cg->len > r->cage_cells_len - cg->off)
            return -EINVAL;
        for (uint32_t k = 0; k < cg->len; k++) {
            const uint32_t cell = r->cage_cells[cg->off + k];
            if (cell >= geo->ncells || geo->cage_of[cell] >= 0)
                return -EINVAL;
            geo->cage_of[cell] = (int16_t)c;
            for (uint32_t j = 0; j < k; j++)
                link_peers(geo, cell, r->cage_cells[cg->off + j]);
        }
    }
    return 0;
}

/* The non-consecutive pairs of r, up to LG_MAX_NC partners a cell.
 * Returns 0 or -EINVAL. */
static int add_nonconsec(struct lg_geom *geo, const struct sdk_rules *r)
{
    if (r->nonconsec_len && !r->nonconsec)
        return -EINVAL;
    for (uint32_t i = 0; i < r->nonconsec_len; i++) {
        const uint32_t a = r->nonconsec[2 * i], b = r->nonconsec[2 * i + 1];
        if (a >= geo->ncells || b >= geo->ncells || a == b || geo->nnc[a] == LG_MAX_NC ||
            geo->nnc[b] == LG_MAX_NC)
            return -EINVAL;
        geo->nc[a][geo->nnc[a]++] = (uint16_t)b;
        geo->nc[b][geo->nnc[b]++] = (uint16_t)a;
    }
    return 0;
}

/* Houses of r as units and peers: regions replace the boxes, extra houses
 * follow from unit 3n. */
static void add_houses(struct lg_geom *geo, const struct sdk_rules *r)
{
    const uint32_t n = geo->n;

    geo->nunits = r->houses_len;
    for (uint32_t i = 0; i < geo->ncells; i++) {
        geo->bx[i] = r->region[i];
        memset(&geo->peers[i], 0, sizeof(geo->peers[i]));
    }
    for (uint32_t h = 2 * n; h < r->houses_len; h++)
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t cell = r->houses[h * n + k];
            geo->unit[h][k] = (uint16_t)cell;
            if (h >= 3 * n)
                geo->extra[cell] |= (uint16_t)(1u << (h - 3 * n));
        }
    for (uint32_t h = 0; h < r->houses_len; h++)
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t j = 0; j < k; j++)
                link_peers(geo, geo->unit[h][k], geo->unit[h][j]);
}

/* peer_list and npeer from the peer sets.  Returns 0 or -EINVAL when a
 * cell has more than LG_MAX_PEERS peers. */
static int list_peers(struct lg_geom *geo)
{
    for (uint32_t i = 0; i < geo->ncells; i++) {
        uint32_t len = 0;
        for (int j = lg_set_next(&geo->peers[i], 0); j >= 0;
             j = lg_set_next(&geo->peers[i], (uint32_t)j + 1)) {
            if (len == LG_MAX_PEERS)
                return -EINVAL;
            geo->peer_list[i][len++] = (uint8_t)j;
        }
        geo->npeer[i] = (uint8_t)len;
    }
    geo->npeers = 0; /* not the same for every cell */
    return 0;
}

/* Build geo, the shape of rules (n <= 16), for one explain call.  geo keeps
 * a pointer to rules, which must outlive it.  Returns 0, or -EINVAL when
 * the tables do not fit the side or the engine's bounds. */
int lg_geom_rules(struct lg_geom *geo, const struct sdk_rules *rules)
{
    if (!rules || rules->size < offsetof(struct sdk_rules, cage_cells_len) + sizeof(uint32_t) ||
        rules->kinds == 0 || (rules->kinds & ~SDK_RULE_ALL) ||
        lg_geom_init(geo, rules->n, true) != 0 || check_houses(geo, rules) != 0)
        return -EINVAL;
    add_houses(geo, rules);
    int rc = add_differ(geo, rules);
    rc = rc ? rc : add_cages(geo, rules);
    rc = rc ? rc : add_nonconsec(geo, rules);
    rc = rc ? rc : list_peers(geo);
    if (rc != 0)
        return rc;
    geo->rules = rules;
    return 0;
}

/* The shape of job's rules into *out: NULL for a classic job (or a host
 * built before minor 4), else a new shape the caller frees with
 * lg_var_geom_free().  Returns 0, -ENOTSUP for a rule explain() does not
 * take, -EINVAL for tables that do not fit job, or -ENOMEM. */
int lg_var_geom_new(const struct sdk_explain *job, struct lg_geom **out)
{
    const struct sdk_rules *r;

    *out = NULL;
    if (job->size < offsetof(struct sdk_explain, rules) + sizeof(job->rules) || !job->rules)
        return 0;
    r = job->rules;
    if (r->size < offsetof(struct sdk_rules, kinds) + sizeof(r->kinds) || r->kinds & ~LG_RULES)
        return -ENOTSUP;
    if (r->n != job->n)
        return -EINVAL;
    if (job->n > LG_EXPLAIN_MAX_N)
        return sdk_box_side(job->n) ? -ENOTSUP : -EINVAL;
    struct lg_geom *geo = malloc(sizeof(*geo));
    if (!geo)
        return -ENOMEM;
    if (lg_geom_rules(geo, r) != 0) {
        free(geo);
        return -EINVAL;
    }
    *out = geo;
    return 0;
}

/* Free a shape from lg_var_geom_new(); accepts NULL. */
void lg_var_geom_free(struct lg_geom *geo)
{
    free(geo);
}

/* Solve cell with v: v leaves every peer, v - 1 and v + 1 every
 * non-consecutive partner. */
void lg_var_place(struct lg_grid *g, const struct lg_geom *geo, uint32_t cell, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1), near = (bit << 1 | bit >> 1) & g->all;

    g->val[cell] = (uint8_t)v;
    g->cand[cell] = 0;
    g->unsolved--;
    for (uint32_t k = 0; k < geo->npeer[cell]; k++)
        g->cand[geo->peer_list[cell][k]] &= ~bit;
    for (uint32_t k = 0; k < geo->nnc[cell]; k++)
        g->cand[geo->nc[cell][k]] &= ~near;
}

/* The places cache of c's position, unit by unit (any shape of unit). */
void lg_var_positions(const struct lg_ctx *c, struct lg_pos *p)
{
    const struct lg_geom *geo = c->geo;

    memset(p->m, 0, sizeof(p->m[0]) * geo->nunits);
    for (uint32_t u = 0; u < geo->nunits; u++)
        for (uint32_t k = 0; k < geo->n; k++)
            for (uint32_t m = c->g->cand[geo->unit[u][k]]; m; m &= m - 1)
                p->m[u][lg_lowest(m)] |= (uint16_t)(1u << k);
    p->valid = true;
}

/* "row 3", "column 5", "box 2" or "region 2", "main diagonal",
 * "anti-diagonal", "window 3" for unit (15 bytes at most, as the classic
 * names: callers size their buffers for those); returns buf. */
const char *lg_var_unit_name(const struct lg_geom *geo, uint32_t unit, char *buf, size_t size)
{
    const uint32_t n = geo->n, kinds = geo->rules->kinds;
    const uint32_t diag = (kinds & SDK_RULE_DIAGONALS) ? 2u : 0u;

    if (unit < 2 * n)
        snprintf(buf, size, "%s %u", unit < n ? "row" : "column", unit % n + 1u);
    else if (unit < 3 * n)
        snprintf(buf, size, "%s %u", (kinds & SDK_RULE_REGIONS) ? "region" : "box",
                 unit - 2 * n + 1u);
    else if (unit - 3 * n < diag)
        snprintf(buf, size, "%s", unit == 3 * n ? "main diagonal" : "anti-diagonal");
    else
        snprintf(buf, size, "window %u", unit - 3 * n - diag + 1u);
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Locked candidates, widened                                                */
/* ------------------------------------------------------------------------ */

/* Value v has the places m (two or more) in unit u: v leaves every cell
 * that sees all of them.  Returns true when that removes something. */
static bool lock_seen(const struct lg_ctx *c, struct lg_step *s, uint32_t u, uint32_t v, uint32_t m,
                      const char *kind)
{
    const struct lg_geom *geo = c->geo;
    struct lg_set all = geo->peers[geo->unit[u][lg_lowest(m)]];

    for (uint32_t k = m & (m - 1); k; k &= k - 1)
        lg_set_and(&all, &all, &geo->peers[geo->unit[u][lg_lowest(k)]]);
    for (int x = lg_set_next(&all, 0); x >= 0; x = lg_set_next(&all, (uint32_t)x + 1))
        if (c->g->cand[x] & (1u << (v - 1)))
            lg_step_elim(s, (uint32_t)x, v);
    if (!s->elim_len)
        return false;
    for (uint32_t k = m; k; k &= k - 1)
        lg_step_cell(s, geo->unit[u][lg_lowest(k)]);
    if (c->want_text) {
        char a[24], b[128], d[128];
        lg_text(c, s, "locked candidates (%s): in %s, %u lies only in %s, so it leaves %s", kind,
                lg_unit_name(geo, u, a, sizeof(a)), v,
                lg_cells_name(geo, s->cells, s->cells_len, b, sizeof(b)),
                lg_cells_name(geo, s->elim_cell, s->elim_len, d, sizeof(d)));
    }
    return true;
}

/* Locked candidates with units from..to-1 as the sources. */
static bool lock_units(const struct lg_ctx *c, struct lg_step *s, uint32_t from, uint32_t to,
                       const char *kind)
{
    const struct lg_pos *p = lg_positions(c);

    for (uint32_t u = from; u < to; u++)
        for (uint32_t v = 1; v <= c->geo->n; v++) {
            const uint32_t m = p->m[u][v - 1];
            if ((m & (m - 1)) && lock_seen(c, s, u, v, m, kind))
                return true;
        }
    return false;
}

/* Pointing on a variant: a box's (region's) or an extra house's places of
 * a value, all seen by a cell outside them. */
bool lg_var_pointing(const struct lg_ctx *c, struct lg_step *s)
{
    const uint32_t n = c->geo->n;

    return lock_units(c, s, 2 * n, 3 * n, "pointing") ||
           lock_units(c, s, 3 * n, c->geo->nunits, "pointing");
}

/* Claiming on a variant: a row's or a column's places of a value, all seen
 * by a cell outside them. */
bool lg_var_claiming(const struct lg_ctx *c, struct lg_step *s)
{
    return lock_units(c, s, 0, 2 * c->geo->n, "claiming");
}

/* ------------------------------------------------------------------------ */
/* Non-consecutive                                                           */
/* ------------------------------------------------------------------------ */

/* Values x that partner b may not hold whatever a holds: every candidate
 * of a is x - 1, x + 1, or x itself (a and b always see each other: they
 * share a row or a column). */
static uint32_t nc_excluded(const struct lg_grid *g, uint32_t a, uint32_t b)
{
    uint32_t out = 0;

    for (uint32_t m = g->cand[b]; m; m &= m - 1) {
        const uint32_t x = 1u << lg_lowest(m), near = (x << 1 | x >> 1 | x) & g->all;
        if (g->cand[a] && !(g->cand[a] & ~near))
            out |= x;
    }
    return out;
}

/* Is b a non-consecutive partner of a? */
static bool nc_partner(const struct lg_geom *geo, uint32_t a, uint32_t b)
{
    for (uint32_t k = 0; k < geo->nnc[a]; k++)
        if (geo->nc[a][k] == b)
            return true;
    return false;
}

/* Value x has the places m (two or more) in unit u: a cell next to all of
 * them cannot hold x - 1 or x + 1.  Returns true when that removes
 * something. */
static bool nc_places(const struct lg_ctx *c, struct lg_step *s, uint32_t u, uint32_t x, uint32_t m)
{
    const struct lg_geom *geo = c->geo;
    const uint32_t first = geo->unit[u][lg_lowest(m)], bit = 1u << (x - 1);
    const uint32_t near = (bit << 1 | bit >> 1) & c->g->all;

    for (uint32_t k = 0; k < geo->nnc[first]; k++) {
        const uint32_t y = geo->nc[first][k];
        bool all = (c->g->cand[y] & near) != 0;
        for (uint32_t q = m & (m - 1); q && all; q &= q - 1)
            all = nc_partner(geo, geo->unit[u][lg_lowest(q)], y);
        if (!all)
            continue;
        lg_step_elim_mask(s, c->g, y, near);
        for (uint32_t q = m; q; q &= q - 1)
            lg_step_cell(s, geo->unit[u][lg_lowest(q)]);
        if (c->want_text) {
            char a[24], b[16], d[64], e[16];
            lg_text(c, s,
                    "non-consecutive: in %s, %u lies only in %s, all next to %s, so %s cannot "
                    "be %s",
                    lg_unit_name(geo, u, a, sizeof(a)), x,
                    lg_cells_name(geo, s->cells, s->cells_len, d, sizeof(d)),
                    lg_cell_name(geo, y, b, sizeof(b)), b, lg_values_name(near, e, sizeof(e)));
        }
        return true;
    }
    return false;
}

/* The non-consecutive rule on the places of each value in each house. */
static bool nc_houses(const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_pos *p = lg_positions(c);

    for (uint32_t u = 0; u < c->geo->nunits; u++)
        for (uint32_t x = 1; x <= c->geo->n; x++) {
            const uint32_t m = p->m[u][x - 1];
            if ((m & (m - 1)) && nc_places(c, s, u, x, m))
                return true;
        }
    return false;
}

/* Non-consecutive: a cell's candidates all touch a value x (x - 1, x, x +
 * 1), so its orthogonal neighbour cannot hold x; or a value's places in a
 * house are all next to one cell, which cannot hold the value's
 * neighbours. */
bool lg_non_consecutive(const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;

    if (!geo->rules || !(geo->rules->kinds & SDK_RULE_NON_CONSECUTIVE))
        return false;
    for (uint32_t a = 0; a < geo->ncells; a++)
        for (uint32_t k = 0; k < geo->nnc[a] && lg_popcount(c->g->cand[a]) > 1; k++) {
            /* (One candidate: the naked single says more.) */
            const uint32_t b = geo->nc[a][k], out = nc_excluded(c->g, a, b);
            if (!out)
                continue;
            lg_step_elim_mask(s, c->g, b, out);
            lg_step_cell(s, a);
            if (c->want_text) {
                char x[16], y[16], d[48], e[48];
                lg_text(c, s, "non-consecutive: %s holds only %s, so its neighbour %s cannot be %s",
                        lg_cell_name(geo, a, x, sizeof(x)),
                        lg_values_name(c->g->cand[a], d, sizeof(d)),
                        lg_cell_name(geo, b, y, sizeof(y)), lg_values_name(out, e, sizeof(e)));
            }
            return true;
        }
    return nc_houses(c, s);
}
