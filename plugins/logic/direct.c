/* direct.c -- singles and the direct techniques, rated as Sudoku Explainer rates them.
 *
 * Sudoku Explainer (SE), the forum's reference grader, rates a single by
 * where it is found: 1.0 for the last empty cell of a unit (a full house),
 * 1.2 for a hidden single in a box, 1.5 in a row or column; and it tries its
 * "direct" techniques before the naked single: a locked candidate (1.7
 * pointing, 1.9 claiming) or a hidden pair (2.0) or triple (2.5) that leaves
 * a hidden single behind.  A direct step places that single and nothing
 * else: the locked or hidden set's own eliminations are not made (SE does
 * not make them either, and a later step may find them at their own
 * rating).  Every search here works on units, so it holds for any n.  Each
 * looks at the position, never changes it, and reports the first step it
 * finds; the ladder in explain.c applies it.
 */
#include "lg.h"

#define RATE_FULL_HOUSE      1.0
#define RATE_SINGLE_BOX      1.2
#define RATE_SINGLE_LINE     1.5
#define RATE_DIRECT_POINTING 1.7
#define RATE_DIRECT_CLAIMING 1.9
#define RATE_DIRECT_PAIR     2.0
#define RATE_DIRECT_TRIPLE   2.5

/* The ratings of the techniques that make a direct step's eliminations
 * (locked candidates, hidden pair and triple).  Once a step this hard has
 * been taken, the direct rung is not asked: every step it would find is
 * then found by the full technique or by singles, none raises the rating,
 * and before any harder step the position is closed under all of them, as
 * SE's is.  Only the path of the explanation differs, not its ratings; and
 * the direct searches cost a third of a hard puzzle's rating. */
#define RATE_POINTING      2.6
#define RATE_CLAIMING      2.8
#define RATE_HIDDEN_PAIR   3.4
#define RATE_HIDDEN_TRIPLE 4.0

/* ------------------------------------------------------------------------ */
/* Singles                                                                   */
/* ------------------------------------------------------------------------ */

/* Place v at cell, the single found in unit u, rated r. */
static void single_step(const struct lg_ctx *c, struct lg_step *s, uint32_t u, uint32_t cell,
                        uint32_t v, double r)
{
    s->rating = r;
    lg_step_place(s, cell, v);
    lg_step_cell(s, cell);
    if (c->want_text) {
        char a[16], b[16];
        lg_text(c, s, "hidden single: %u can go only in %s within %s", v,
                lg_cell_name(c->geo, cell, a, sizeof(a)), lg_unit_name(c->geo, u, b, sizeof(b)));
    }
}

/* The values with exactly one place in unit u. */
static uint32_t unit_singles(const struct lg_ctx *c, uint32_t u)
{
    const struct lg_geom *geo = c->geo;
    uint32_t once = 0, twice = 0;

    for (uint32_t k = 0; k < geo->n; k++) {
        uint32_t m = c->g->cand[geo->unit[u][k]];
        twice |= once & m;
        once |= m;
    }
    return once & ~twice;
}

/* The cell of unit u holding candidate bit. */
static uint32_t unit_cell_with(const struct lg_ctx *c, uint32_t u, uint32_t bit)
{
    for (uint32_t k = 0; k < c->geo->n; k++)
        if (c->g->cand[c->geo->unit[u][k]] & bit)
            return c->geo->unit[u][k];
    return c->geo->unit[u][0]; /* not reached: bit is a single of u */
}

/* Units in SE's order: boxes, columns, rows, then a variant's extra
 * houses. */
static uint32_t se_unit(const struct lg_geom *geo, uint32_t i)
{
    const uint32_t n = geo->n;

    if (i >= 3 * n)
        return i;
    return i < n ? 2 * n + i : i < 2 * n ? i : i - 2 * n;
}

/* The open cells of unit u. */
static uint32_t unit_open(const struct lg_ctx *c, uint32_t u)
{
    uint32_t open = 0;

    for (uint32_t k = 0; k < c->geo->n; k++)
        open += c->g->val[c->geo->unit[u][k]] == 0;
    return open;
}

/* The last open cell of a unit (1.0), boxes, columns, rows first.  Such a
 * cell has one candidate left, so only those cells are looked at. */
static bool full_house(const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;
    const uint32_t n = geo->n;
    uint32_t best = UINT32_MAX, best_u = 0, cell = 0;

    for (uint32_t i = 0; i < geo->ncells; i++) {
        const uint32_t m = c->g->cand[i];
        if (!m || (m & (m - 1)))
            continue;
        /* Its units in SE's order: box, column, row (se_unit's index). */
        const uint32_t u[3] = {2 * n + geo->bx[i], n + geo->col[i], geo->row[i]};
        const uint32_t order[3] = {geo->bx[i], n + geo->col[i], 2 * n + geo->row[i]};
        for (int k = 0; k < 3; k++)
            if (order[k] < best && unit_open(c, u[k]) == 1) {
                best = order[k];
                best_u = u[k];
                cell = i;
            }
    }
    if (best == UINT32_MAX)
        return false;
    single_step(c, s, best_u, cell, lg_lowest(c->g->cand[cell]) + 1, RATE_FULL_HOUSE);
    return true;
}

/* The first single of the len units from the first-th on (SE's order),
 * beginning with the start-th of them, rated r. */
static bool singles_in(const struct lg_ctx *c, struct lg_step *s, uint32_t first, uint32_t len,
                       uint32_t start, double r)
{
    for (uint32_t k = 0; k < len; k++) {
        const uint32_t i = first + (start + k) % len, u = se_unit(c->geo, i);
        const uint32_t m = unit_singles(c, u);
        if (!m)
            continue;
        const uint32_t bit = 1u << lg_lowest(m);
        single_step(c, s, u, unit_cell_with(c, u, bit), lg_lowest(bit) + 1, r);
        if (c->hs_next && first == 0)
            *c->hs_next = (start + k) % len;
        return true;
    }
    return false;
}

/* A value with one place left in a unit: a full house (1.0), a box (1.2),
 * a column or row (1.5).  SE looks for a full house first, then boxes,
 * then columns and rows.  Here a box single may come before a full house
 * after the first step: the singles reach the same cells in any order and
 * a box single rates 1.2 wherever it is taken, so a puzzle's ER and EP are
 * the same, and looking for full houses at every step costs a fifth of a
 * simple puzzle's rating.  Which single of one kind comes first changes
 * nothing either, so the box scan starts where the last one was found. */
bool lg_hidden_single(const struct lg_ctx *c, struct lg_step *s)
{
    const uint32_t n = c->geo->n, start = c->hs_next ? *c->hs_next % n : 0;

    if (c->full_house_first && full_house(c, s))
        return true;
    return singles_in(c, s, 0, n, start, RATE_SINGLE_BOX) ||
           (!c->full_house_first && full_house(c, s)) ||
           singles_in(c, s, n, 2 * n, 0, RATE_SINGLE_LINE) ||
           singles_in(c, s, 3 * n, c->geo->nunits - 3 * n, 0, RATE_SINGLE_LINE); /* variants */
}

/* ------------------------------------------------------------------------ */
/* Direct locked candidates                                                  */
/* ------------------------------------------------------------------------ */

/* The places of v in unit u (bit k: the k-th cell of the unit). */
static uint32_t places(const struct lg_ctx *c, uint32_t u, uint32_t v)
{
    return lg_positions(c)->m[u][v - 1];
}

/* The one unit of the kind at `base` (0 rows, n columns, 2n boxes)
 * holding every place of v in unit u, or -1.  Places are bits in the
 * unit's order (a box row-major), so each candidate unit is a mask: a row
 * or column of a box, or a box's segment of a line. */
static int confined_to(const struct lg_ctx *c, uint32_t u, uint32_t v, uint32_t base)
{
    const struct lg_geom *geo = c->geo;
    const uint32_t n = geo->n, b = geo->box, m = places(c, u, v), seg = (1u << b) - 1;

    for (uint32_t j = 0; j < b; j++) {
        uint32_t mask = seg << (b * j), first = b * j;
        if (u >= 2 * n && base == n) { /* a column of the box */
            mask = 0;
            for (uint32_t i = 0; i < b; i++)
                mask |= 1u << (i * b + j);
            first = j;
        }
        if (m & ~mask)
            continue;
        const uint32_t cell = geo->unit[u][first];
        return (int)(base + (base == 0   ? geo->row[cell]
                             : base == n ? geo->col[cell]
                                         : geo->bx[cell]));
    }
    return -1;
}

/* With v of `from` locked in its cells in `to`, does unit u3 (of from's kind) keep a single
 * place of v outside `to`?  Returns that cell, or -1.  Like SE, u3 must
 * have had more than one place (else it was a hidden single already). */
static int single_outside(const struct lg_ctx *c, uint32_t u3, uint32_t to, uint32_t v)
{
    const struct lg_geom *geo = c->geo;
    uint32_t m = places(c, u3, v), left = 0;
    int cell = -1;

    if (!(m & (m - 1))) /* fewer than two places */
        return -1;
    for (; m; m &= m - 1) {
        uint32_t k = geo->unit[u3][lg_lowest(m)];
        if (!lg_in_unit(geo, to, k)) {
            left++;
            cell = (int)k;
        }
    }
    return left == 1 ? cell : -1;
}

/* The units of the kind at `kind` (0 rows, n columns, 2n boxes) that share
 * cells with unit `to` of another kind, into out[]; returns their count. */
static uint32_t crossing(const struct lg_geom *geo, uint32_t to, uint32_t kind, uint32_t *out)
{
    const uint32_t n = geo->n, b = geo->box;

    for (uint32_t k = 0; k < b; k++) {
        if (to >= 2 * n) /* a box: its rows or its columns */
            out[k] = kind + (kind == 0 ? (to - 2 * n) / b * b : (to - 2 * n) % b * b) + k;
        else if (to < n) /* a row: the boxes of its band */
            out[k] = 2 * n + to / b * b + k;
        else /* a column: the boxes of its stack */
            out[k] = 2 * n + k * b + (to - n) / b;
    }
    return b;
}

/* The direct step: v placed at cell, because v of `from` is locked in `to`. */
static void direct_lock_step(const struct lg_ctx *c, struct lg_step *s, uint32_t from, uint32_t to,
                             uint32_t v, uint32_t cell)
{
    const struct lg_geom *geo = c->geo;

    for (uint32_t m = places(c, from, v); m; m &= m - 1)
        lg_step_cell(s, geo->unit[from][lg_lowest(m)]);
    lg_step_cell(s, cell);
    lg_step_place(s, cell, v);
    if (c->want_text) {
        char a[16], b[16], d[16];
        lg_text(c, s, "%s: in %s, %u lies only in %s, so %u can go only in %s", s->name,
                lg_unit_name(geo, from, a, sizeof(a)), v, lg_unit_name(geo, to, b, sizeof(b)), v,
                lg_cell_name(geo, cell, d, sizeof(d)));
    }
}

/* Locked candidates of value v from unit `from` into unit `to` that leave a
 * hidden single in another unit of from's kind crossing `to`. */
static bool direct_lock_at(const struct lg_ctx *c, struct lg_step *s, uint32_t from, uint32_t to,
                           uint32_t v, uint32_t kind)
{
    uint32_t units[LG_MAX_N];
    const uint32_t len = crossing(c->geo, to, kind, units);

    for (uint32_t k = 0; k < len; k++) {
        const uint32_t u3 = units[k];
        if (u3 == from)
            continue;
        int cell = single_outside(c, u3, to, v);
        if (cell >= 0) {
            direct_lock_step(c, s, from, to, v, (uint32_t)cell);
            return true;
        }
    }
    return false;
}

/* From each unit of the kind at `kind`, each value with two or more places
 * all in one unit of the kinds in `bases` (up to two). */
static bool direct_lock(const struct lg_ctx *c, struct lg_step *s, uint32_t kind,
                        const uint32_t *bases, uint32_t nbases)
{
    const uint32_t n = c->geo->n;

    for (uint32_t from = kind; from < kind + n; from++)
        for (uint32_t v = 1; v <= n; v++) {
            const uint32_t m = places(c, from, v);
            if (!(m & (m - 1))) /* fewer than two places */
                continue;
            for (uint32_t b = 0; b < nbases; b++) {
                int to = confined_to(c, from, v, bases[b]);
                if (to >= 0 && direct_lock_at(c, s, from, (uint32_t)to, v, kind))
                    return true;
            }
        }
    return false;
}

/* Are geo's units 2n..3n-1 square boxes?  Not a jigsaw's regions, which
 * confined_to's and crossing's box arithmetic does not fit. */
static bool square_boxes(const struct lg_geom *geo)
{
    return !geo->rules || !(geo->rules->kinds & SDK_RULE_REGIONS);
}

/* Direct pointing (1.7): in a box, v lies in one line, which leaves v a
 * single place in another box. */
bool lg_direct_pointing(const struct lg_ctx *c, struct lg_step *s)
{
    const uint32_t n = c->geo->n, lines[2] = {n, 0};

    s->rating = RATE_DIRECT_POINTING;
    if (c->rated >= RATE_POINTING || !square_boxes(c->geo))
        return false;
    return direct_lock(c, s, 2 * n, lines, 2);
}

/* Direct claiming (1.9): in a line, v lies in one box, which leaves v a
 * single place in another line of the same kind. */
bool lg_direct_claiming(const struct lg_ctx *c, struct lg_step *s)
{
    const uint32_t n = c->geo->n, box[1] = {2 * n};

    s->rating = RATE_DIRECT_CLAIMING;
    if (c->rated >= RATE_CLAIMING || !square_boxes(c->geo))
        return false;
    return direct_lock(c, s, n, box, 1) || direct_lock(c, s, 0, box, 1);
}

/* ------------------------------------------------------------------------ */
/* Direct hidden pairs and triples                                           */
/* ------------------------------------------------------------------------ */

/* The hidden set `values` of unit u occupies the unit's cells `cells`: is
 * there another value whose places, but one, lie in those cells?  Then it
 * is a single once the set is seen; record the step. */
static bool direct_set_single(const struct lg_ctx *c, struct lg_step *s, uint32_t u,
                              uint32_t values, uint32_t cells)
{
    const struct lg_geom *geo = c->geo;

    for (uint32_t v = 1; v <= geo->n; v++) {
        uint32_t m = places(c, u, v);
        const uint32_t out = m & ~cells;
        if ((values >> (v - 1) & 1u) || !out || (out & (out - 1)) || out == m)
            continue; /* a set value, or not one place outside, or one place only */
        uint32_t cell = geo->unit[u][lg_lowest(m & ~cells)];
        for (uint32_t k = cells; k; k &= k - 1)
            lg_step_cell(s, geo->unit[u][lg_lowest(k)]);
        lg_step_cell(s, cell);
        lg_step_place(s, cell, v);
        if (c->want_text) {
            char a[64], b[16], d[24], e[16];
            lg_text(c, s, "%s: %s can go only in %s within %s, so %u can go only in %s", s->name,
                    lg_values_name(values, d, sizeof(d)),
                    lg_cells_name(geo, s->cells, s->cells_len - 1, a, sizeof(a)),
                    lg_unit_name(geo, u, b, sizeof(b)), v, lg_cell_name(geo, cell, e, sizeof(e)));
        }
        return true;
    }
    return false;
}

/* Choose k more of the len values in vals[] (from the from-th on) whose
 * places, with `cells`, span exactly k0 cells; then look for the single. */
static bool direct_set_rec(const struct lg_ctx *c, struct lg_step *s, uint32_t u,
                           const uint8_t *vals, uint32_t len, uint32_t from, uint32_t k,
                           uint32_t k0, uint32_t values, uint32_t cells)
{
    if (k == 0)
        return lg_popcount(cells) == k0 && direct_set_single(c, s, u, values, cells);
    for (uint32_t i = from; i + k <= len; i++) {
        const uint32_t v = vals[i], m = places(c, u, v);
        if (lg_popcount(cells | m) > k0)
            continue;
        if (direct_set_rec(c, s, u, vals, len, i + 1, k - 1, k0, values | 1u << (v - 1), cells | m))
            return true;
    }
    return false;
}

/* Direct hidden sets of size k, in units with more than k open cells: the
 * set's values have two to k places each. */
static bool direct_hidden(const struct lg_ctx *c, struct lg_step *s, uint32_t k)
{
    const struct lg_geom *geo = c->geo;

    for (uint32_t i = 0; i < geo->nunits; i++) {
        const uint32_t u = se_unit(geo, i);
        uint8_t vals[LG_MAX_N];
        uint32_t len = 0, open = 0;
        for (uint32_t v = 1; v <= geo->n; v++) {
            const uint32_t m = places(c, u, v), two = m & (m - 1);
            open += m != 0;
            /* two to k places: at least two, and at most k */
            if (two && (k == 2 ? !(two & (two - 1)) : lg_popcount(m) <= k))
                vals[len++] = (uint8_t)v;
        }
        /* open: the values still to place, as many as the open cells */
        if (len >= k && open > k && direct_set_rec(c, s, u, vals, len, 0, k, k, 0, 0))
            return true;
    }
    return false;
}

/* Direct hidden pair (2.0). */
bool lg_direct_hidden_pair(const struct lg_ctx *c, struct lg_step *s)
{
    s->rating = RATE_DIRECT_PAIR;
    if (c->rated >= RATE_HIDDEN_PAIR)
        return false;
    return direct_hidden(c, s, 2);
}

/* Direct hidden triple (2.5). */
bool lg_direct_hidden_triple(const struct lg_ctx *c, struct lg_step *s)
{
    s->rating = RATE_DIRECT_TRIPLE;
    if (c->rated >= RATE_HIDDEN_TRIPLE)
        return false;
    return direct_hidden(c, s, 3);
}
