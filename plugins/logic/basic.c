/* basic.c -- the naked single, locked candidates, naked and hidden subsets.
 *
 * Every technique here works on units, so it holds for any n.  Each looks
 * at the position, never changes it, and reports the first step it finds
 * that changes the candidates (the ladder in explain.c applies it).  Unit
 * scans go boxes first, then rows, then columns, the order in which people
 * usually look.  The subset search (lg_subset_find) is shared with the fish
 * in fish.c: choose k masks whose union has exactly k bits.
 */
#include "lg.h"

/* Units in scanning order: boxes, rows, columns, then a variant's extra
 * houses. */
static uint32_t scan_unit(const struct lg_geom *geo, uint32_t i)
{
    const uint32_t n = geo->n;

    if (i >= 3 * n)
        return i;
    return i < n ? 2 * n + i : i - n;
}

/* ------------------------------------------------------------------------ */
/* Singles                                                                   */
/* ------------------------------------------------------------------------ */

/* A cell with one candidate left. */
bool lg_naked_single(const struct lg_ctx *c, struct lg_step *s)
{
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        uint32_t m = c->g->cand[i];
        if (!m || (m & (m - 1)))
            continue;
        lg_step_place(s, i, lg_lowest(m) + 1);
        lg_step_cell(s, i);
        if (c->want_text) {
            char a[16];
            lg_text(c, s, "naked single: %s can only be %u", lg_cell_name(c->geo, i, a, sizeof(a)),
                    lg_lowest(m) + 1);
        }
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Locked candidates                                                         */
/* ------------------------------------------------------------------------ */

/* Value v of unit `from` lies only in unit `to`: eliminate v from the rest
 * of `to`.  Returns true when that removes something. */
static bool lock(const struct lg_ctx *c, struct lg_step *s, uint32_t from, uint32_t to, uint32_t v,
                 const char *kind)
{
    const struct lg_geom *geo = c->geo;
    const uint32_t bit = 1u << (v - 1);

    for (uint32_t k = 0; k < geo->n; k++) {
        uint32_t cell = geo->unit[to][k];
        if (lg_in_unit(geo, from, cell)) {
            if (c->g->cand[cell] & bit)
                lg_step_cell(s, cell);
        } else if (c->g->cand[cell] & bit) {
            lg_step_elim(s, cell, v);
        }
    }
    if (!s->elim_len) {
        s->cells_len = 0;
        return false;
    }
    if (c->want_text) {
        char a[16], b[16];
        lg_text(c, s, "locked candidates (%s): in %s, %u lies only in %s, so not elsewhere in %s",
                kind, lg_unit_name(geo, from, a, sizeof(a)), v, lg_unit_name(geo, to, b, sizeof(b)),
                b);
    }
    return true;
}

/* Where value v can go in unit u: the rows, columns and boxes used. */
static void spread(const struct lg_ctx *c, uint32_t u, uint32_t v, uint32_t *rows, uint32_t *cols,
                   uint32_t *boxes)
{
    const struct lg_geom *geo = c->geo;

    *rows = *cols = *boxes = 0;
    for (uint32_t m = lg_positions(c)->m[u][v - 1]; m; m &= m - 1) {
        uint32_t cell = geo->unit[u][lg_lowest(m)];
        *rows |= 1u << geo->row[cell];
        *cols |= 1u << geo->col[cell];
        *boxes |= 1u << geo->bx[cell];
    }
}

/* Values still to place in unit u: those with a place left. */
static uint32_t unit_open(const struct lg_ctx *c, uint32_t u)
{
    const struct lg_pos *p = lg_positions(c);
    uint32_t todo = 0;

    for (uint32_t v = 0; v < c->geo->n; v++)
        if (p->m[u][v])
            todo |= 1u << v;
    return todo;
}

/* Pointing: in a box, a value confined to one row or column. */
bool lg_pointing(const struct lg_ctx *c, struct lg_step *s)
{
    const uint32_t n = c->geo->n;

    if (c->geo->rules)
        return lg_var_pointing(c, s);
    for (uint32_t b = 0; b < n; b++) {
        uint32_t u = 2 * n + b, todo = unit_open(c, u);
        for (; todo; todo &= todo - 1) {
            uint32_t v = lg_lowest(todo) + 1, rows, cols, boxes;
            spread(c, u, v, &rows, &cols, &boxes);
            if (rows && !(rows & (rows - 1)) && lock(c, s, u, lg_lowest(rows), v, "pointing"))
                return true;
            if (cols && !(cols & (cols - 1)) && lock(c, s, u, n + lg_lowest(cols), v, "pointing"))
                return true;
        }
    }
    return false;
}

/* Claiming: in a row or column, a value confined to one box. */
bool lg_claiming(const struct lg_ctx *c, struct lg_step *s)
{
    const uint32_t n = c->geo->n;

    if (c->geo->rules)
        return lg_var_claiming(c, s);
    for (uint32_t u = 0; u < 2 * n; u++) {
        uint32_t todo = unit_open(c, u);
        for (; todo; todo &= todo - 1) {
            uint32_t v = lg_lowest(todo) + 1, rows, cols, boxes;
            spread(c, u, v, &rows, &cols, &boxes);
            if (boxes && !(boxes & (boxes - 1)) &&
                lock(c, s, u, 2 * n + lg_lowest(boxes), v, "claiming"))
                return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Subsets                                                                   */
/* ------------------------------------------------------------------------ */

/* Depth-first choice of k masks out of len with a union of exactly k bits.
 * idx[] holds the choice; accept() is called on each full choice and ends
 * the search by returning true. */
static bool subset_rec(struct lg_subset *q, uint32_t start, uint32_t depth, uint32_t uni)
{
    if (depth == q->k)
        return lg_popcount(uni) == q->k && q->accept(q, uni);
    if (depth >= sizeof(q->idx) / sizeof(q->idx[0]))
        return false; /* k <= 4; said for the compiler's bounds check */
    for (uint32_t i = start; i + (q->k - depth) <= q->len; i++) {
        uint32_t next = uni | q->mask[i];
        if (lg_popcount(next) > q->k)
            continue;
        q->idx[depth] = i;
        if (subset_rec(q, i + 1, depth + 1, next))
            return true;
    }
    return false;
}

/* Run the subset search q describes.  Returns what accept() last said. */
bool lg_subset_find(struct lg_subset *q)
{
    return q->len >= q->k && subset_rec(q, 0, 0, 0);
}

/* Naked subset accepted: eliminate its values from the rest of the unit. */
static bool naked_accept(struct lg_subset *q, uint32_t uni)
{
    const struct lg_ctx *c = q->c;
    struct lg_step *s = q->s;
    uint32_t chosen = 0;

    /* The other cells of the unit, items or not (cells with more than k
     * candidates are not items), lose the subset's values. */
    for (uint32_t j = 0; j < q->k; j++)
        chosen |= 1u << q->geo_index[q->idx[j]];
    for (uint32_t k = 0; k < c->geo->n; k++)
        if (!(chosen & (1u << k)))
            lg_step_elim_mask(s, c->g, c->geo->unit[q->unit][k], uni);
    if (!s->elim_len)
        return false;
    for (uint32_t j = 0; j < q->k; j++)
        lg_step_cell(s, q->item[q->idx[j]]);
    if (c->want_text) {
        char a[64], b[16], d[24];
        lg_text(c, s, "%s: %s hold only %s within %s, so those values go from its other cells",
                s->name, lg_cells_name(c->geo, s->cells, s->cells_len, a, sizeof(a)),
                lg_values_name(uni, d, sizeof(d)), lg_unit_name(c->geo, q->unit, b, sizeof(b)));
    }
    return true;
}

/* Naked subsets of size k: k cells of a unit holding only k values.  The
 * candidate list is every unsolved cell; masks above k bits never fit. */
static bool naked_subset(const struct lg_ctx *c, struct lg_step *s, uint32_t k)
{
    struct lg_subset q = {.c = c, .s = s, .k = k, .accept = naked_accept};

    for (uint32_t i = 0; i < c->geo->nunits; i++) {
        uint32_t open = 0;
        q.unit = scan_unit(c->geo, i);
        q.len = 0;
        for (uint32_t j = 0; j < c->geo->n; j++) {
            uint32_t cell = c->geo->unit[q.unit][j], m = c->g->cand[cell];
            open += m != 0;
            if (!m || lg_popcount(m) > k)
                continue; /* solved, or too many values to be in a subset */
            q.geo_index[q.len] = (uint8_t)j;
            q.item[q.len] = (uint16_t)cell;
            q.mask[q.len++] = m;
        }
        if (open > k && lg_subset_find(&q))
            return true;
    }
    return false;
}

/* Hidden subset accepted: its cells lose every other value. */
static bool hidden_accept(struct lg_subset *q, uint32_t uni)
{
    const struct lg_ctx *c = q->c;
    struct lg_step *s = q->s;
    uint32_t values = 0;

    for (uint32_t j = 0; j < q->k; j++)
        values |= 1u << q->item[q->idx[j]];
    for (uint32_t m = uni; m; m &= m - 1) {
        uint32_t cell = c->geo->unit[q->unit][lg_lowest(m)];
        lg_step_elim_mask(s, c->g, cell, ~values);
        lg_step_cell(s, cell);
    }
    if (!s->elim_len) {
        s->cells_len = 0;
        return false;
    }
    if (c->want_text) {
        char a[64], b[16], d[24];
        lg_text(c, s, "%s: %s can go only in %s within %s, so those cells hold nothing else",
                s->name, lg_values_name(values, d, sizeof(d)),
                lg_cells_name(c->geo, s->cells, s->cells_len, a, sizeof(a)),
                lg_unit_name(c->geo, q->unit, b, sizeof(b)));
    }
    return true;
}

/* Hidden subsets of size k: k values of a unit confined to k cells.  Items
 * are the unsolved values (bit index), masks their places in the unit. */
static bool hidden_subset(const struct lg_ctx *c, struct lg_step *s, uint32_t k)
{
    struct lg_subset q = {.c = c, .s = s, .k = k, .accept = hidden_accept};

    for (uint32_t i = 0; i < c->geo->nunits; i++) {
        q.unit = scan_unit(c->geo, i);
        const uint16_t *pos = lg_positions(c)->m[q.unit];
        q.len = 0;
        for (uint32_t v = 0; v < c->geo->n; v++) {
            if (!pos[v])
                continue;
            q.item[q.len] = (uint16_t)v;
            q.mask[q.len++] = pos[v];
        }
        if (lg_subset_find(&q))
            return true;
    }
    return false;
}

bool lg_naked_pair(const struct lg_ctx *c, struct lg_step *s)
{
    return naked_subset(c, s, 2);
}

bool lg_naked_triple(const struct lg_ctx *c, struct lg_step *s)
{
    return naked_subset(c, s, 3);
}

bool lg_naked_quad(const struct lg_ctx *c, struct lg_step *s)
{
    return naked_subset(c, s, 4);
}

bool lg_hidden_pair(const struct lg_ctx *c, struct lg_step *s)
{
    return hidden_subset(c, s, 2);
}

bool lg_hidden_triple(const struct lg_ctx *c, struct lg_step *s)
{
    return hidden_subset(c, s, 3);
}

bool lg_hidden_quad(const struct lg_ctx *c, struct lg_step *s)
{
    return hidden_subset(c, s, 4);
}
