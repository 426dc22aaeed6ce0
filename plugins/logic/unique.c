/* unique.c -- uniqueness techniques: unique rectangles and loops, the BUG.
 *
 * A puzzle with one solution cannot end in a deadly pattern: cells that
 * could swap two values (a loop of cells holding only {a,b}, each row,
 * column and box of it visited by two of its cells) would give a second
 * solution.  So a loop whose cells hold {a,b} and, in a few cells, more
 * (the extra cells) tells that the extra candidates are not all false:
 *
 *   type 1  one extra cell: it is not a nor b;
 *   type 2  the extra cells share one extra value x: one of them is x, so x
 *           leaves every cell seeing them all;
 *   type 3  two extra cells: their extra values act as one cell of a naked
 *           set (or a, b as one place of a hidden set) in a unit they share;
 *   type 4  two extra cells in a unit where a has no other place: one of
 *           them is a, so neither is b.
 * The bivalue universal grave (BUG) is the grid-wide deadly pattern: when
 * every unsolved cell but a few holds two candidates and every value two
 * places in each unit but for those few cells' extra values, one of those
 * extras is true (type 1: the only such cell takes its extra; types 2-4
 * eliminate what each extra, or the pair of cells, rules out).
 *
 * These steps are Sudoku Explainer 1.2.1's (SE), found the way SE finds
 * them and rated as SE rates them: a rectangle 4.5, a loop 4.6 (6 cells),
 * 4.7 (8) or 5.0 (10 and more); a type 3 adds 0.1 per value of its naked
 * set beyond one (0.1 per cell of its hidden set beyond one); BUG type 1
 * 5.6, types 2 and 4 5.7, type 3 5.7 plus 0.1 per naked value beyond one.
 * Of all the loops SE takes the lowest rated step (then the lowest type,
 * then the first found); of the BUG the first found.  They hold only for a
 * puzzle with one solution, so they run only when the caller knows that
 * solution (c->solution: the host found it unique), and only on the classic
 * 9x9 grid, SE's.  All state lives in structs on the stack (about 6 KB).
 */
#include <stdio.h>
#include <string.h>

#include "lg.h"

#define UQ_BASE    45      /* a rectangle's rating, in tenths */
#define UQ_NODES   2000000 /* loop search nodes before giving up */
#define UQ_MAX_LEN 81      /* cells on one search path */

/* SE's region types, in its order: box, row, column.  The unit of type t
 * holding cell. */
static uint32_t region_of(const struct lg_geom *geo, uint32_t t, uint32_t cell)
{
    if (t == 0)
        return 18 + geo->bx[cell];
    return t == 1 ? geo->row[cell] : 9u + geo->col[cell];
}

/* The index of cell within unit u (geo->unit order, SE's too). */
static uint32_t index_in(const struct lg_geom *geo, uint32_t u, uint32_t cell)
{
    for (uint32_t k = 0; k < 9; k++)
        if (geo->unit[u][k] == cell)
            return k;
    return 0; /* not reached: cell is in u */
}

/* The next k-subset of m bits after x, in increasing order of value
 * (Hacker's Delight's snoob), or 0 after the last. */
static uint32_t next_subset(uint32_t x, uint32_t m)
{
    uint32_t smallest = x & -x, ripple = x + smallest;
    uint32_t next = ripple | (((x ^ ripple) >> 2) / smallest);

    return (next >> m) != 0 ? 0 : next;
}

/* Does this position allow a uniqueness step?  The classic 9x9 grid of a
 * puzzle known to have one solution. */
static bool uniqueness_ok(const struct lg_ctx *c)
{
    return c->solution && !c->geo->rules && c->geo->n == 9;
}

/* ------------------------------------------------------------------------ */
/* Unique rectangles and loops                                               */
/* ------------------------------------------------------------------------ */

/* A step found on a loop, kept while the search looks for an easier one. */
struct uq_hint {
    double se;                 /* rating as SE computes it (its order: 4.6 + 0.1 < 4.7) */
    uint32_t tenths;           /* rating, in tenths */
    uint32_t type;             /* 1..4 */
    uint32_t len;              /* loop cells */
    uint32_t pair;             /* bits of the loop's two values */
    uint16_t loop[UQ_MAX_LEN]; /* the loop */
    uint32_t elim[81];         /* candidates each cell loses */
    uint32_t extra; /* type 2: the value's bit; 3: the set's values; 4: the locked value */
    uint32_t unit;  /* types 3, 4: the unit */
    bool hidden;    /* type 3: a hidden set (else naked) */
};

/* The loop search for one pair of values. */
struct uq_search {
    const struct lg_ctx *c;
    uint32_t pair;             /* bits of the loop's two values */
    uint32_t len;              /* cells on the path */
    uint16_t path[UQ_MAX_LEN]; /* the path, start first */
    bool on_path[81];          /* cells on the path */
    uint32_t seen[2];          /* units met by the path's cells at even, odd places */
    uint32_t nodes;            /* search nodes so far */
    bool found;                /* best holds a step */
    struct uq_hint cur;        /* the step being built */
    struct uq_hint best;       /* the easiest step so far */
};

/* The rating of a loop of len cells, in tenths. */
static uint32_t loop_tenths(uint32_t len)
{
    uint32_t t = UQ_BASE;

    if (len >= 10)
        t += 3;
    if (len >= 8)
        t += 2;
    else if (len >= 6)
        t += 1;
    return t;
}

/* The same, as SE computes it in floating point, plus add tenths (a type
 * 3's set): SE orders its steps by this value, in which 4.6 + 0.1 comes
 * before 4.7. */
static double loop_se(uint32_t len, uint32_t add)
{
    double d = 4.5;

    if (len >= 10)
        d += 0.3;
    if (len >= 8)
        d += 0.2;
    else if (len >= 6)
        d += 0.1;
    return add ? d + add * 0.1 : d;
}

/* Is the path a deadly pattern: is every unit it meets met by exactly two
 * of its cells, one at an even place and one at an odd? */
static bool loop_valid(const struct uq_search *q)
{
    return q->seen[0] == q->seen[1]; /* loop_walk keeps each unit once a parity */
}

/* The units of cell, a bit each. */
static uint32_t units_of(const struct lg_geom *geo, uint32_t cell)
{
    return 1u << region_of(geo, 0, cell) | 1u << region_of(geo, 1, cell) |
           1u << region_of(geo, 2, cell);
}

/* Keep cur when it is easier than the best so far (SE: lowest rating,
 * then lowest type, then first found), and it eliminates something. */
static void offer(struct uq_search *q)
{
    struct uq_hint *h = &q->cur;
    bool worth = false;

    for (uint32_t i = 0; i < 81 && !worth; i++)
        worth = (h->elim[i] & q->c->g->cand[i]) != 0;
    if (!worth)
        return;
    if (q->found && (h->se > q->best.se || (h->se == q->best.se && h->type >= q->best.type)))
        return;
    q->best = *h;
    q->found = true;
}

/* Start cur as a step of the loop in q->path, of the given type, rated
 * add tenths above the loop. */
static void hint_start(struct uq_search *q, uint32_t type, uint32_t add)
{
    struct uq_hint *h = &q->cur;

    h->type = type;
    h->tenths = loop_tenths(q->len) + add;
    h->se = loop_se(q->len, add);
    h->len = q->len;
    h->pair = q->pair;
    memcpy(h->loop, q->path, q->len * sizeof(q->path[0]));
    memset(h->elim, 0, sizeof(h->elim));
    h->extra = 0;
    h->unit = 0;
    h->hidden = false;
}

/* Type 2: the extra cells share extra value x (the first one's): x leaves
 * every cell seeing them all. */
static void loop_type2(struct uq_search *q, const uint16_t *ex, uint32_t ex_len)
{
    const struct lg_ctx *c = q->c;
    const uint32_t x = c->g->cand[ex[0]] & ~q->pair;
    struct lg_set common = c->geo->peers[ex[0]];

    hint_start(q, 2, 0);
    q->cur.extra = x & -x;
    for (uint32_t i = 1; i < ex_len; i++)
        lg_set_and(&common, &common, &c->geo->peers[ex[i]]);
    for (int i = lg_set_next(&common, 0); i >= 0; i = lg_set_next(&common, (uint32_t)i + 1)) {
        bool is_extra = false;
        for (uint32_t k = 0; k < ex_len; k++)
            is_extra |= ex[k] == i;
        if (!is_extra)
            q->cur.elim[i] = q->cur.extra;
    }
    offer(q);
}

/* Type 3, naked: in unit u, c1's extra values and degree - 1 other cells
 * (not c2) hold only degree values: those leave the unit's other cells. */
static void loop_type3_naked(struct uq_search *q, uint32_t u, uint32_t c1, uint32_t c2,
                             uint32_t extra, uint32_t degree)
{
    const struct lg_ctx *c = q->c;
    const uint16_t *cells = c->geo->unit[u];
    const uint32_t i1 = index_in(c->geo, u, c1), i2 = index_in(c->geo, u, c2);

    for (uint32_t set = (1u << degree) - 1; set; set = next_subset(set, 9)) {
        if (!(set >> i1 & 1) || (set >> i2 & 1))
            continue;
        uint32_t naked = extra & c->g->cand[c1] & c->g->cand[c2], uni = extra;
        bool ok = true;
        for (uint32_t k = 0; k < 9; k++) {
            if (!(set >> k & 1) || k == i1)
                continue;
            uint32_t m = c->g->cand[cells[k]];
            ok &= lg_popcount(m) > 1;
            naked |= m;
            uni |= m;
        }
        if (!ok || lg_popcount(naked) != degree || lg_popcount(uni) != degree)
            continue;
        hint_start(q, 3, degree - 1);
        q->cur.extra = uni;
        q->cur.unit = u;
        for (uint32_t k = 0; k < 9; k++)
            if (!(set >> k & 1) && k != i2)
                q->cur.elim[cells[k]] = uni;
        offer(q);
    }
}

/* Type 3, hidden: the set of values lies in places (c1, c2 left out),
 * which lose every other value. */
static void hidden_found(struct uq_search *q, uint32_t u, uint32_t places, uint32_t values)
{
    hint_start(q, 3, lg_popcount(places) - 1);
    q->cur.extra = values;
    q->cur.unit = u;
    q->cur.hidden = true;
    for (uint32_t k = 0; k < 9; k++)
        if (places >> k & 1)
            q->cur.elim[q->c->geo->unit[u][k]] = ~values & 0x1ffu;
    offer(q);
}

/* Type 3, hidden: in unit u, a, b and degree - 2 values that are not
 * extra have only degree places, counting c1 and c2 as one: the other
 * places of the set hold nothing else. */
static void loop_type3_hidden(struct uq_search *q, uint32_t u, uint32_t c1, uint32_t c2,
                              uint32_t extra, uint32_t degree)
{
    const struct lg_ctx *c = q->c;
    const uint16_t *cells = c->geo->unit[u];
    const uint32_t i1 = index_in(c->geo, u, c1), i2 = index_in(c->geo, u, c2);
    const uint32_t rest = 0x1ffu & ~q->pair & ~extra, nrest = lg_popcount(rest);
    uint8_t rv[9];

    if (degree - 2 > nrest)
        return;
    for (uint32_t m = rest, k = 0; m; m &= m - 1)
        rv[k++] = (uint8_t)lg_lowest(m);
    for (uint32_t set = (1u << (degree - 2)) - 1;; set = next_subset(set, nrest)) {
        uint32_t values = q->pair, places = 0;
        bool ok = true;
        for (uint32_t k = 0; k < nrest; k++)
            if (set >> k & 1)
                values |= 1u << rv[k];
        for (uint32_t m = values; m; m &= m - 1) {
            uint32_t p = 0;
            for (uint32_t k = 0; k < 9; k++)
                if (k != i2 && (c->g->cand[cells[k]] >> lg_lowest(m) & 1))
                    p |= 1u << k;
            ok &= p != 0;
            places |= p;
        }
        if (ok && lg_popcount(places) == degree)
            hidden_found(q, u, places & ~(1u << i1 | 1u << i2), values);
        if (set == 0 || next_subset(set, nrest) == 0)
            return;
    }
}

/* The unsolved cells of unit u. */
static uint32_t unit_empty(const struct lg_ctx *c, uint32_t u)
{
    uint32_t len = 0;

    for (uint32_t k = 0; k < 9; k++)
        len += c->g->val[c->geo->unit[u][k]] == 0;
    return len;
}

/* Type 3 on the two extra cells c1, c2 (loop order). */
static void loop_type3(struct uq_search *q, uint32_t c1, uint32_t c2)
{
    const struct lg_ctx *c = q->c;
    const uint32_t extra = (c->g->cand[c1] | c->g->cand[c2]) & ~q->pair;

    for (uint32_t degree = lg_popcount(extra); degree <= 7; degree++) {
        for (uint32_t t = 0; t < 3; t++) {
            uint32_t u = region_of(c->geo, t, c1);
            if (u != region_of(c->geo, t, c2))
                continue;
            uint32_t empty = unit_empty(c, u);
            if (degree * 2 <= empty)
                loop_type3_naked(q, u, c1, c2, extra, degree);
            if (degree * 2 < empty)
                loop_type3_hidden(q, u, c1, c2, extra, degree);
        }
    }
}

/* Type 4: a value of the pair with no other place in a unit holding the
 * two extra cells (the last such unit, box, row then column) is in one of
 * them, so neither holds the pair's other value. */
static void loop_type4(struct uq_search *q, uint32_t c1, uint32_t c2)
{
    const struct lg_ctx *c = q->c;
    const uint32_t a = q->pair & -q->pair, b = q->pair & ~a;
    int ua = -1, ub = -1;

    for (uint32_t t = 0; t < 3; t++) {
        uint32_t u = region_of(c->geo, t, c1), elsewhere = 0;
        if (u != region_of(c->geo, t, c2))
            continue;
        for (uint32_t k = 0; k < 9; k++) {
            uint32_t cell = c->geo->unit[u][k];
            if (cell != c1 && cell != c2)
                elsewhere |= c->g->cand[cell];
        }
        if (!(elsewhere & a))
            ua = (int)u;
        if (!(elsewhere & b))
            ub = (int)u;
    }
    if (ua < 0 && ub < 0)
        return;
    hint_start(q, 4, 0);
    q->cur.extra = ua >= 0 ? a : b;
    q->cur.unit = (uint32_t)(ua >= 0 ? ua : ub);
    q->cur.elim[c1] = q->cur.elim[c2] = q->pair & ~q->cur.extra;
    offer(q);
}

/* The path closed into a loop: every step it gives, in SE's order. */
static void loop_found(struct uq_search *q)
{
    const struct lg_ctx *c = q->c;
    uint16_t ex[UQ_MAX_LEN];
    uint32_t ex_len = 0;

    if (!loop_valid(q))
        return;
    for (uint32_t i = 0; i < q->len; i++)
        if (lg_popcount(c->g->cand[q->path[i]]) > 2)
            ex[ex_len++] = q->path[i];
    if (ex_len == 1) {
        hint_start(q, 1, 0);
        q->cur.elim[ex[0]] = q->pair;
        offer(q);
    } else if (ex_len > 2) {
        loop_type2(q, ex, ex_len);
    } else if (ex_len == 2) {
        uint32_t extra = (c->g->cand[ex[0]] | c->g->cand[ex[1]]) & ~q->pair;
        if (lg_popcount(extra) == 1)
            loop_type2(q, ex, ex_len);
        else if (lg_popcount(extra) >= 2)
            loop_type3(q, ex[0], ex[1]);
        loop_type4(q, ex[0], ex[1]);
    }
}

/* Extend the path from cell (SE's checkForLoops): through the cells of
 * every unit of a type other than the last link's that hold both values;
 * at most two cells with more (more when all share one extra value). */
static void loop_walk(struct uq_search *q, uint32_t cell, int allowed, uint32_t exvals,
                      int last_type)
{
    const struct lg_ctx *c = q->c;
    const uint32_t par = q->len & 1, units = units_of(c->geo, cell);

    /* A path meeting a unit twice at places of one parity never closes
     * into a deadly pattern (loop_valid): nothing below it is a loop. */
    if (q->len == UQ_MAX_LEN || (q->seen[par] & units) || ++q->nodes > UQ_NODES)
        return;
    q->seen[par] |= units;
    q->path[q->len++] = (uint16_t)cell;
    q->on_path[cell] = true;
    for (int t = 0; t < 3; t++) {
        if (t == last_type)
            continue;
        const uint16_t *unit = c->geo->unit[region_of(c->geo, (uint32_t)t, cell)];
        for (uint32_t k = 0; k < 9; k++) {
            uint32_t next = unit[k], m = c->g->cand[next];
            if (next == q->path[0] && q->len >= 4) {
                loop_found(q);
                continue;
            }
            if (q->on_path[next] || (m & q->pair) != q->pair)
                continue;
            /* A loop through an earlier cell holding only the pair was found
             * from it, both ways round: its steps are offered already. */
            if (m == q->pair && next < q->path[0])
                continue;
            /* SE gathers the extra values of every cell looked at from here. */
            exvals |= m & ~q->pair;
            uint32_t card = lg_popcount(m);
            if (card == 2 || lg_popcount(exvals) == 1 || allowed > 0)
                loop_walk(q, next, allowed - (card > 2), exvals, t);
        }
    }
    q->on_path[cell] = false;
    q->len--;
    q->seen[par] &= ~units;
}

/* The consequence of hint h, in words, into buf. */
static void loop_so(const struct lg_ctx *c, const struct uq_hint *h, char *buf, size_t size)
{
    char set[24], unit[16];

    lg_values_name(h->extra, set, sizeof(set));
    lg_unit_name(c->geo, h->unit, unit, sizeof(unit));
    if (h->type == 1)
        snprintf(buf, size, "the cell with more holds neither");
    else if (h->type == 2)
        snprintf(buf, size, "one cell with more is %u, which leaves every cell seeing them all",
                 lg_lowest(h->extra) + 1);
    else if (h->type == 3)
        snprintf(buf, size, "%s is a %s set in %s, which leaves its other cells", set,
                 h->hidden ? "hidden" : "naked", unit);
    else
        snprintf(buf, size,
                 "the two cells with more hold %u (its only places in %s) and are not %u",
                 lg_lowest(h->extra) + 1, unit, lg_lowest(h->pair & ~h->extra) + 1);
}

/* Write the step of hint h into s. */
static void loop_step(const struct lg_ctx *c, const struct uq_hint *h, struct lg_step *s)
{
    char cells[LG_TEXT_MAX / 4], vals[24], so[LG_TEXT_MAX / 4];

    s->name = h->len == 4 ? "unique_rectangle" : "unique_loop";
    s->rating = h->tenths / 10.0;
    for (uint32_t i = 0; i < 81; i++)
        lg_step_elim_mask(s, c->g, i, h->elim[i]);
    for (uint32_t i = 0; i < h->len; i++)
        lg_step_cell(s, h->loop[i]);
    if (!c->want_text)
        return;
    lg_cells_name(c->geo, h->loop, h->len, cells, sizeof(cells));
    lg_values_name(h->pair, vals, sizeof(vals));
    loop_so(c, h, so, sizeof(so));
    lg_text(c, s, "%s type %u: %s holding only %s would have two solutions, so %s", s->name,
            h->type, cells, vals, so);
}

/* Unique rectangles and loops (SE's "unique loop" rung): the easiest step
 * of every loop of every pair of values. */
bool lg_unique_loop(const struct lg_ctx *c, struct lg_step *s)
{
    struct uq_search q;

    if (!uniqueness_ok(c))
        return false;
    memset(&q, 0, sizeof(q));
    q.c = c;
    for (uint32_t cell = 0; cell < 81; cell++) {
        uint32_t m = c->g->cand[cell];
        if (lg_popcount(m) != 2)
            continue;
        if (lg_should_stop(c))
            return false;
        q.pair = m;
        loop_walk(&q, cell, 2, 0, -1);
    }
    if (!q.found)
        return false;
    loop_step(c, &q.best, s);
    return s->elim_len > 0;
}

/* ------------------------------------------------------------------------ */
/* Bivalue universal grave                                                   */
/* ------------------------------------------------------------------------ */

/* What the BUG scan found: the cells with more than two candidates that
 * some value's count in a unit points at, and their extra (BUG) values. */
struct bug {
    uint32_t len;         /* BUG cells */
    uint16_t cell[81];    /* the BUG cells, in the order found */
    uint32_t vals[81];    /* each cell's BUG values */
    uint32_t all;         /* every BUG value */
    struct lg_set common; /* cells seeing every BUG cell, BUG cells left out */
    uint32_t temp[81];    /* the candidates without the BUG values */
};

/* The places of bit v in unit u of candidates m, as unit indices. */
static uint32_t places_in(const struct lg_geom *geo, const uint32_t *m, uint32_t u, uint32_t v)
{
    uint32_t p = 0;

    for (uint32_t k = 0; k < 9; k++)
        if (m[geo->unit[u][k]] & v)
            p |= 1u << k;
    return p;
}

/* Record cell as a BUG cell with value v (SE's scan).  Returns false when
 * no BUG type 1, 2 or 3 can follow. */
static bool bug_add(const struct lg_ctx *c, struct bug *b, uint32_t cell, uint32_t v)
{
    bool known = false;

    for (uint32_t i = 0; i < b->len; i++)
        known |= b->cell[i] == cell;
    if (!known)
        b->cell[b->len++] = (uint16_t)cell;
    if (b->len == 1 && !known)
        b->common = c->geo->peers[cell];
    else
        lg_set_and(&b->common, &b->common, &c->geo->peers[cell]);
    for (uint32_t i = 0; i < b->len; i++)
        b->common.w[b->cell[i] >> 6] &= ~((uint64_t)1 << (b->cell[i] & 63));
    b->vals[cell] |= v;
    b->all |= v;
    b->temp[cell] &= ~v;
    return !(b->len > 1 && lg_popcount(b->all) > 1 && lg_set_next(&b->common, 0) < 0);
}

/* SE's scan: every value with neither zero nor two places in a unit must
 * point at exactly one cell of more than two candidates (else the value
 * is left for another unit, or, with none, there is no BUG).  Returns
 * false when there is no BUG. */
static bool bug_scan(const struct lg_ctx *c, struct bug *b)
{
    static const uint32_t first[3] = {18, 0, 9}; /* boxes, rows, columns */
    const struct lg_geom *geo = c->geo;

    for (uint32_t t = 0; t < 3; t++) {
        for (uint32_t u = first[t]; u < first[t] + 9; u++) {
            for (uint32_t v = 1; v <= 0x100u; v <<= 1) {
                uint32_t p = places_in(geo, c->g->cand, u, v), cnt = lg_popcount(p), big = 0;
                int cell = -1;
                if (cnt == 0 || cnt == 2)
                    continue;
                for (; p; p &= p - 1) {
                    uint32_t x = geo->unit[u][lg_lowest(p)];
                    if (lg_popcount(c->g->cand[x]) >= 3) {
                        big++;
                        cell = (int)x;
                    }
                }
                if (big == 0)
                    return false;
                if (big == 1 && !bug_add(c, b, (uint32_t)cell, v))
                    return false;
            }
        }
    }
    for (uint32_t i = 0; i < 81; i++)
        if (!c->g->val[i] && lg_popcount(b->temp[i]) != 2)
            return false;
    for (uint32_t u = 0; u < 27; u++)
        for (uint32_t v = 1; v <= 0x100u; v <<= 1) {
            uint32_t cnt = lg_popcount(places_in(geo, b->temp, u, v));
            if (cnt != 0 && cnt != 2)
                return false;
        }
    return true;
}

/* The unit of type t holding every BUG cell, or -1. */
static int bug_unit(const struct lg_ctx *c, const struct bug *b, uint32_t t)
{
    uint32_t u = region_of(c->geo, t, b->cell[0]);

    for (uint32_t i = 1; i < b->len; i++)
        if (region_of(c->geo, t, b->cell[i]) != u)
            return -1;
    return (int)u;
}

/* Type 2: one BUG value x, in every BUG cell: one of them is x, so x
 * leaves every cell seeing them all. */
static bool bug_type2(const struct lg_ctx *c, const struct bug *b, struct lg_step *s)
{
    const struct lg_set *m = &b->common;

    for (int i = lg_set_next(m, 0); i >= 0; i = lg_set_next(m, (uint32_t)i + 1))
        lg_step_elim_mask(s, c->g, (uint32_t)i, b->all);
    s->rating = 5.7;
    return s->elim_len > 0;
}

/* Type 4: two BUG cells in one unit sharing one value besides their BUG
 * values: one of them takes its BUG value, the other that shared value,
 * so both lose the rest. */
static bool bug_type4(const struct lg_ctx *c, const struct bug *b, struct lg_step *s)
{
    const uint32_t c1 = b->cell[0], c2 = b->cell[1];
    const uint32_t shared = c->g->cand[c1] & c->g->cand[c2] & ~b->all;

    if (lg_popcount(shared) != 1)
        return false;
    for (uint32_t t = 0; t < 3; t++) {
        if (bug_unit(c, b, t) < 0)
            continue;
        lg_step_elim_mask(s, c->g, c1, ~b->vals[c1] & ~shared);
        lg_step_elim_mask(s, c->g, c2, ~b->vals[c2] & ~shared);
        s->rating = 5.7;
        return s->elim_len > 0;
    }
    return false;
}

/* The cells of cell's houses in SE's order: its box, row, then column
 * (itself left out).  Returns the count. */
static uint32_t house_order(const struct lg_geom *geo, uint32_t cell, uint16_t *out)
{
    uint32_t len = 0;

    for (uint32_t t = 0; t < 3; t++) {
        const uint16_t *unit = geo->unit[region_of(geo, t, cell)];
        for (uint32_t k = 0; k < 9; k++) {
            uint32_t x = unit[k];
            bool dup = x == cell || (t > 0 && geo->bx[x] == geo->bx[cell]);
            if (!dup)
                out[len++] = (uint16_t)x;
        }
    }
    return len;
}

/* Type 3 in unit u: the BUG values, taken as one cell, and degree - 1
 * cells of u seeing every BUG cell hold only degree values: a naked set,
 * whose values leave those cells' other partners. */
static bool bug_type3_unit(const struct lg_ctx *c, const struct bug *b, uint32_t u,
                           struct lg_step *s)
{
    uint16_t house[27], rc[27];
    uint32_t nrc = 0, nh = house_order(c->geo, b->cell[0], house);

    for (uint32_t i = 0; i < nh; i++)
        if (lg_set_has(&b->common, house[i]) && lg_in_unit(c->geo, u, house[i]))
            rc[nrc++] = house[i];
    for (uint32_t degree = 2; degree <= 6 && nrc >= degree; degree++) {
        for (uint32_t set = (1u << (degree - 1)) - 1; set; set = next_subset(set, nrc)) {
            uint32_t uni = 0;
            bool ok = lg_popcount(b->all) > 1;
            for (uint32_t k = 0; k < nrc; k++)
                if (set >> k & 1) {
                    ok &= lg_popcount(c->g->cand[rc[k]]) > 1;
                    uni |= c->g->cand[rc[k]];
                }
            if (!ok || lg_popcount(uni) != degree || lg_popcount(uni | b->all) != degree)
                continue;
            for (uint32_t k = 0; k < nrc; k++)
                if (!(set >> k & 1)) {
                    lg_step_elim_mask(s, c->g, rc[k], uni);
                    lg_step_cell(s, rc[k]);
                }
            if (s->elim_len) {
                s->rating = (57 + degree - 1) / 10.0;
                return true;
            }
            s->cells_len = 0;
        }
    }
    return false;
}

/* Type 3: in each unit type holding every BUG cell. */
static bool bug_type3(const struct lg_ctx *c, const struct bug *b, struct lg_step *s)
{
    for (uint32_t t = 0; t < 3; t++) {
        int u = bug_unit(c, b, t);
        if (u >= 0 && bug_type3_unit(c, b, (uint32_t)u, s))
            return true;
    }
    return false;
}

/* Write the pattern and sentence of a BUG step of the given type. */
static void bug_text(const struct lg_ctx *c, const struct bug *b, uint32_t type, struct lg_step *s)
{
    char cells[LG_TEXT_MAX / 4], vals[24], then[LG_TEXT_MAX / 4];

    s->cells_len = 0;
    for (uint32_t i = 0; i < b->len; i++)
        lg_step_cell(s, b->cell[i]);
    if (!c->want_text)
        return;
    lg_cells_name(c->geo, b->cell, b->len, cells, sizeof(cells));
    lg_values_name(b->all, vals, sizeof(vals));
    if (type == 1)
        snprintf(then, sizeof(then), "that cell holds it");
    else if (type == 2)
        snprintf(then, sizeof(then), "one of them is %u, which leaves every cell seeing them all",
                 lg_lowest(b->all) + 1);
    else if (type == 3)
        snprintf(then, sizeof(then),
                 "their extra values act as one cell of a naked set, whose "
                 "values leave the unit's other cells");
    else
        snprintf(then, sizeof(then),
                 "one takes its extra value and the other the value they "
                 "share, so they hold nothing else");
    lg_text(c, s,
            "bug type %u: without %s in %s every open cell would hold two values and every value "
            "two places in each unit, two solutions; so %s",
            type, vals, cells, then);
}

/* The bivalue universal grave, types 1 to 4, the first SE finds. */
bool lg_bug(const struct lg_ctx *c, struct lg_step *s)
{
    struct bug b;
    uint32_t type = 0;

    if (!uniqueness_ok(c))
        return false;
    memset(&b, 0, sizeof(b));
    memcpy(b.temp, c->g->cand, sizeof(b.temp));
    if (!bug_scan(c, &b) || b.len == 0)
        return false;
    if (b.len == 1) {
        lg_step_elim_mask(s, c->g, b.cell[0], ~b.all);
        s->rating = 5.6;
        type = 1;
    } else if (lg_popcount(b.all) == 1) {
        type = bug_type2(c, &b, s) ? 2 : b.len == 2 && bug_type4(c, &b, s) ? 4 : 0;
    } else if (lg_set_next(&b.common, 0) >= 0) {
        type = b.len == 2 && bug_type4(c, &b, s) ? 4 : bug_type3(c, &b, s) ? 3 : 0;
    }
    if (type == 0 || s->elim_len == 0)
        return false;
    bug_text(c, &b, type, s);
    return true;
}
