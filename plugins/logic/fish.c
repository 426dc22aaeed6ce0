/* fish.c -- basic fish (X-wing, swordfish, jellyfish) and the wings.
 *
 * A fish of size k for value v: k base lines (rows, or columns) where v can
 * go only in k cover lines (columns, or rows); v then goes from the rest of
 * the cover lines.  The choice of lines is the subset search of basic.c.
 * The wings (XY-wing, XYZ-wing) use the peer sets of the geometry, so they
 * need n <= 16 like every explanation.
 */
#include "lg.h"

/* A fish choice accepted: cover lines lose v outside the base lines.
 * q->unit is the value, q->item the base lines (0..n-1 rows, n.. columns). */
static bool fish_accept(struct lg_subset *q, uint32_t uni)
{
    const struct lg_ctx *c = q->c;
    const struct lg_geom *geo = c->geo;
    const uint32_t v = q->unit, bit = 1u << (v - 1), n = geo->n;
    const bool by_rows = q->item[0] < n;
    uint32_t base = 0;

    for (uint32_t j = 0; j < q->k; j++)
        base |= 1u << (q->item[q->idx[j]] % n);
    for (uint32_t m = uni; m; m &= m - 1) {
        uint32_t cover = lg_lowest(m);
        for (uint32_t b = 0; b < n; b++) {
            uint32_t cell = by_rows ? b * n + cover : cover * n + b;
            if (!(c->g->cand[cell] & bit))
                continue;
            if (base & (1u << b))
                lg_step_cell(q->s, cell);
            else
                lg_step_elim(q->s, cell, v);
        }
    }
    if (!q->s->elim_len) {
        q->s->cells_len = 0;
        return false;
    }
    if (c->want_text) {
        char a[64], b[64];
        lg_text(c, q->s, "%s: in %s %s, %u can go only in %s %s, so not elsewhere in those %s",
                q->s->name, by_rows ? "rows" : "columns", lg_values_name(base, a, sizeof(a)), v,
                by_rows ? "columns" : "rows", lg_values_name(uni, b, sizeof(b)),
                by_rows ? "columns" : "rows");
    }
    return true;
}

/* Fish of size k, rows as base lines first, then columns. */
static bool fish(const struct lg_ctx *c, struct lg_step *s, uint32_t k)
{
    const uint32_t n = c->geo->n;
    struct lg_subset q = {.c = c, .s = s, .k = k, .accept = fish_accept};

    for (uint32_t v = 1; v <= n; v++) {
        const struct lg_pos *pos = lg_positions(c);
        for (uint32_t by_cols = 0; by_cols < 2; by_cols++) {
            q.unit = v;
            q.len = 0;
            for (uint32_t line = 0; line < n; line++) {
                /* A row's places are its columns, a column's its rows. */
                uint32_t m = pos->m[by_cols * n + line][v - 1];
                if (!m)
                    continue;
                q.item[q.len] = (uint16_t)(by_cols * n + line);
                q.mask[q.len++] = m;
            }
            if (lg_subset_find(&q))
                return true;
        }
    }
    return false;
}

bool lg_x_wing(const struct lg_ctx *c, struct lg_step *s)
{
    return fish(c, s, 2);
}

bool lg_swordfish(const struct lg_ctx *c, struct lg_step *s)
{
    return fish(c, s, 3);
}

bool lg_jellyfish(const struct lg_ctx *c, struct lg_step *s)
{
    return fish(c, s, 4);
}

/* ------------------------------------------------------------------------ */
/* Wings                                                                     */
/* ------------------------------------------------------------------------ */

/* Eliminate value z from every cell that sees all of cells[0..len). */
static void elim_seen_by_all(const struct lg_ctx *c, struct lg_step *s, const uint16_t *cells,
                             uint32_t len, uint32_t z)
{
    struct lg_set both = c->geo->peers[cells[0]];

    for (uint32_t i = 1; i < len; i++)
        lg_set_and(&both, &both, &c->geo->peers[cells[i]]);
    for (int x = lg_set_next(&both, 0); x >= 0; x = lg_set_next(&both, (uint32_t)x + 1))
        if (c->g->cand[x] & (1u << (z - 1)))
            lg_step_elim(s, (uint32_t)x, z);
}

/* Report a wing found: cells = {pivot, pincer, pincer}, value z goes from
 * the cells seeing both pincers (and the pivot too, for an XYZ-wing). */
static bool wing_found(const struct lg_ctx *c, struct lg_step *s, const uint16_t *cells, bool xyz,
                       uint32_t z)
{
    if (xyz)
        elim_seen_by_all(c, s, cells, 3, z);
    else
        elim_seen_by_all(c, s, cells + 1, 2, z);
    if (!s->elim_len)
        return false;
    for (uint32_t i = 0; i < 3; i++)
        lg_step_cell(s, cells[i]);
    if (c->want_text) {
        char p[16], a[16], b[16];
        lg_text(c, s, "%s: pivot %s with pincers %s and %s, so %u goes from cells seeing %s",
                s->name, lg_cell_name(c->geo, cells[0], p, sizeof(p)),
                lg_cell_name(c->geo, cells[1], a, sizeof(a)),
                lg_cell_name(c->geo, cells[2], b, sizeof(b)), z,
                xyz ? "all three" : "both pincers");
    }
    return true;
}

/* The unsolved cells with exactly two candidates. */
static uint32_t bivalues(const struct lg_ctx *c, uint16_t *out)
{
    uint32_t len = 0;

    for (uint32_t i = 0; i < c->geo->ncells; i++)
        if (lg_popcount(c->g->cand[i]) == 2)
            out[len++] = (uint16_t)i;
    return len;
}

/* Pivot p and pincer a fixed: look for the second pincer among bv. */
static bool wing_second(const struct lg_ctx *c, struct lg_step *s, const uint16_t *bv, uint32_t len,
                        uint32_t p, uint32_t a, bool xyz)
{
    const uint32_t mp = c->g->cand[p], ma = c->g->cand[a];
    const uint32_t z = xyz ? 0 : ma & ~mp;
    const uint32_t want = xyz ? 0 : (mp & ~ma) | z;

    for (uint32_t j = 0; j < len; j++) {
        uint32_t b = bv[j], mb = c->g->cand[b];
        if (b == a || b == p || !lg_sees(c->geo, p, b))
            continue;
        if (xyz ? ((mb & ~mp) || (ma | mb) != mp || mb == ma) : mb != want)
            continue;
        uint16_t cells[3] = {(uint16_t)p, (uint16_t)a, (uint16_t)b};
        uint32_t zv = lg_lowest(xyz ? ma & mb : z) + 1;
        if (wing_found(c, s, cells, xyz, zv))
            return true;
    }
    return false;
}

/* XY-wing (pivot {x,y}, pincers {x,z} and {y,z}) or XYZ-wing (pivot
 * {x,y,z}, pincers {x,z} and {y,z}): z goes from cells seeing the pincers
 * (and, for XYZ, the pivot). */
static bool wing(const struct lg_ctx *c, struct lg_step *s, bool xyz)
{
    uint16_t bv[256];
    const uint32_t len = bivalues(c, bv);

    for (uint32_t p = 0; p < c->geo->ncells; p++) {
        const uint32_t mp = c->g->cand[p];
        if (lg_popcount(mp) != (xyz ? 3u : 2u))
            continue;
        for (uint32_t i = 0; i < len; i++) {
            uint32_t a = bv[i], ma = c->g->cand[a];
            if (a == p || !lg_sees(c->geo, p, a))
                continue;
            if (xyz ? (ma & ~mp) != 0 : lg_popcount(ma & mp) != 1)
                continue;
            if (wing_second(c, s, bv, len, p, a, xyz))
                return true;
        }
    }
    return false;
}

bool lg_xy_wing(const struct lg_ctx *c, struct lg_step *s)
{
    return wing(c, s, false);
}

bool lg_xyz_wing(const struct lg_ctx *c, struct lg_step *s)
{
    return wing(c, s, true);
}
