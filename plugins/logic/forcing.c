/* forcing.c -- forcing chains: try both ways, keep what both agree on.
 *
 * A source with exactly two possibilities (a bivalue cell's two values, or
 * the two places of a value in a unit) is split into two branches.  Each
 * branch places its choice on a copy of the grid (on 9x9, bitboards: see
 * branch9.c; otherwise struct branch, here) and applies singles until none
 * is left, incrementally: a cell left with one candidate is stacked, a unit
 * that lost a candidate is marked for a hidden-single scan, and the first
 * empty cell or value without a place ends the branch.  One of the
 * branches is true, so:
 *   - a branch that breaks the grid is false: the other choice is placed;
 *   - a cell both branches solve with the same value takes that value;
 *   - a candidate both branches remove goes.
 * The dynamic kind also applies locked candidates inside each branch (and on
 * a killer the cage combinations, which also break a branch whose cage adds
 * up wrong), and takes single candidates as sources: one whose branch breaks
 * the grid goes (a contradiction).  What a branch deduces is the closure of
 * its start under those rules, whatever the order, so the steps are those of
 * a full rescan.  A position the easier rungs left closed (the ladder's case)
 * is checked once, and its branches start from their placement's work only.  A
 * candidate whose branch stood, or was placed by a branch that stood (its own
 * branch starts from less, so it stands too), is not run as a contradiction
 * source.  On 9x9 a candidate often starts several sources (a bivalue cell
 * and up to three units): the first run of its branch is kept (FORCING_MEMO
 * of them) and the next ones copy it, as the same start has the same closure.
 * The dynamic rung's source branches start from the static rung's closures of
 * the same sources, kept for it in c->keep (on 9x9, when the caller has one):
 * singles are done already, and the closure does not depend on the order.
 * The nested kind (variants up to 9x9, past the dynamic kind) also drops,
 * inside a branch that stalls, each candidate whose placement breaks it.
 * The copies live in one struct on the caller's stack (about 11 KB); the
 * only allocation is a killer's memo of cage fillings, made on first use
 * for the whole explanation (c->cages).  Given the unique solution
 * (c->solution, ABI minor 3), the contradiction pass skips each cell's true
 * value: its branch cannot break, and skipping it finds the same first
 * contradiction (a true branch only places true values, so the branches it
 * would mark as stood are skipped as true anyway).
 */
#include <string.h>

#include "lg.h"

/* One branch position, compact: the candidates of every cell (a solved
 * cell keeps its value's bit alone), which cells are solved, and the work
 * still to do: cells left with one candidate (a stack) and units that lost
 * a candidate since their last hidden-single scan (a bit per unit). */
struct branch {
    uint32_t unsolved;                  /* cells without a value */
    uint32_t sp;                        /* entries in stack */
    uint64_t dirty;                     /* units to scan for hidden singles */
    uint64_t cdirty[LG_MAX_CELLS / 64]; /* killer cages to fill again (dynamic) */
    uint16_t m[LG_MAX_CELLS];           /* candidates; a solved cell: its value */
    uint8_t done[LG_MAX_CELLS];         /* 1 = solved */
    uint16_t stack[LG_MAX_CELLS];       /* cells down to one candidate */
};

#define FORCING_MEMO 32 /* 9x9 source branches kept for the next source starting alike */

/* A 9x9 branch's result, kept for the next source that starts with it. */
struct forcing_memo {
    uint32_t p[9][3];   /* the branch's candidates (struct lg_b9) */
    uint32_t solved[3]; /* its solved cells */
    int rc;             /* lg_b9_deduce's answer */
};

/* The two branches of one source. */
struct forcing {
    bool dynamic;                               /* branches also use locked candidates */
    bool nested;                                /* ... and drop what breaks them (variants) */
    struct lg_cage_memo *cages;                 /* killer cage fillings met before, or NULL */
    bool closed;                                /* the position has no single (and no lock) left */
    bool fast;                                  /* 9x9: branches on bitboards (branch9.c) */
    struct branch base;                         /* the position, as a branch */
    struct branch br[2];                        /* the branch positions */
    struct branch inner;                        /* nested: a trial inside a branch */
    struct lg_b9 base9;                         /* fast: the position */
    struct lg_b9 br9[2];                        /* fast: the branch positions */
    uint16_t cell[2];                           /* where each branch places */
    uint8_t val[2];                             /* what it places */
    int rc[2];                                  /* deduce's answer */
    uint64_t ran[LG_MAX_CELLS * LG_MAX_N / 64]; /* bit cell * n + v - 1: branch run, stood */
    struct lg_forcing_keep *keep;               /* fast: c->keep (static: filled, dynamic: read) */
    uint32_t memo_len;                          /* fast: entries used in memo */
    uint8_t memo_of[81 * 9];                    /* fast: 1 + memo index of cell * 9 + v - 1, or 0 */
    struct forcing_memo memo[FORCING_MEMO];     /* fast: source branches run so far */
};

static uint64_t units_of(const struct lg_geom *geo, uint32_t cell)
{
    return (uint64_t)1 << geo->row[cell] | (uint64_t)1 << (geo->n + geo->col[cell]) |
           (uint64_t)1 << (2 * geo->n + geo->bx[cell]) | (uint64_t)geo->extra[cell] << (3 * geo->n);
}

/* Cell p of b changed: its killer cage (if any) is to be filled again. */
static void cage_touch(struct branch *b, const struct lg_geom *geo, uint32_t p)
{
    const int k = geo->cage_of[p];

    if (k >= 0)
        b->cdirty[k / 64] |= (uint64_t)1 << (k % 64);
}

/* Take mask from unsolved cell p of b.  Returns -1 when p is left empty. */
static int branch_remove(struct branch *b, const struct lg_geom *geo, uint32_t p, uint32_t mask)
{
    uint32_t m = b->m[p];

    if (!(m & mask) || b->done[p])
        return 0;
    m &= ~mask;
    b->m[p] = (uint16_t)m;
    if (!m)
        return -1;
    if (!(m & (m - 1)))
        b->stack[b->sp++] = (uint16_t)p;
    b->dirty |= units_of(geo, p);
    cage_touch(b, geo, p);
    return 0;
}

/* Solve cell with the value of bit and take it from the peers.  Returns -1
 * when a peer is left empty. */
static int branch_place(struct branch *b, const struct lg_geom *geo, uint32_t cell, uint32_t bit)
{
    const uint8_t *peer = geo->peer_list[cell];

    b->m[cell] = (uint16_t)bit;
    b->done[cell] = 1;
    b->unsolved--;
    b->dirty |= units_of(geo, cell);
    cage_touch(b, geo, cell);
    for (uint32_t k = 0; k < geo->npeer[cell]; k++)
        if (branch_remove(b, geo, peer[k], bit) != 0)
            return -1;
    for (uint32_t k = 0; k < geo->nnc[cell]; k++) /* non-consecutive: the neighbours go */
        if (branch_remove(b, geo, geo->nc[cell][k], bit << 1 | bit >> 1) != 0)
            return -1;
    return 0;
}

/* Load position g as a branch with nothing to do. */
static void branch_load(struct branch *b, const struct lg_grid *g, const struct lg_geom *geo)
{
    b->unsolved = g->unsolved;
    b->sp = 0;
    b->dirty = 0;
    memset(b->cdirty, 0, sizeof(b->cdirty));
    for (uint32_t i = 0; i < geo->ncells; i++) {
        b->done[i] = g->val[i] != 0;
        b->m[i] = (uint16_t)(g->val[i] ? 1u << (g->val[i] - 1) : g->cand[i]);
    }
}

/* Copy the position part of a (the work lists start empty). */
static void branch_copy(struct branch *b, const struct branch *a, const struct lg_geom *geo)
{
    b->unsolved = a->unsolved;
    b->sp = 0;
    b->dirty = 0;
    memset(b->cdirty, 0, sizeof(b->cdirty));
    memcpy(b->m, a->m, geo->ncells * sizeof(b->m[0]));
    memcpy(b->done, a->done, geo->ncells);
}

/* Queue everything: every unit to scan, every cell with one candidate.
 * Returns -1 when a cell is empty. */
static int branch_touch_all(struct branch *b, const struct lg_geom *geo)
{
    b->dirty = geo->nunits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << geo->nunits) - 1;
    memset(b->cdirty, 0xff, sizeof(b->cdirty)); /* bits past the last cage: none there */
    for (uint32_t i = 0; i < geo->ncells; i++) {
        uint32_t m = b->m[i];
        if (b->done[i])
            continue;
        if (!m)
            return -1;
        if (!(m & (m - 1)))
            b->stack[b->sp++] = (uint16_t)i;
    }
    return 0;
}

/* The hidden singles of unit u.  Returns -1 when a value has no place
 * left, or two values only one cell. */
static int branch_unit(struct branch *b, const struct lg_geom *geo, uint32_t u, uint32_t all)
{
    const uint16_t *cells = geo->unit[u];
    uint32_t once = 0, twice = 0;

    for (uint32_t k = 0; k < geo->n; k++) {
        uint32_t m = b->m[cells[k]];
        twice |= once & m;
        once |= m;
    }
    if (once != all)
        return -1;
    uint32_t single = once & ~twice;
    for (uint32_t k = 0; k < geo->n && single; k++) {
        uint32_t cell = cells[k], m = b->m[cell] & single;
        if (!m || b->done[cell])
            continue;
        if (m & (m - 1))
            return -1;
        if (branch_place(b, geo, cell, m) != 0)
            return -1;
        single &= ~m;
    }
    return 0;
}

/* Naked and hidden singles until none is left.  Returns 0 or -1. */
static int branch_singles(struct branch *b, const struct lg_geom *geo, uint32_t all)
{
    while (b->unsolved) {
        if (b->sp) {
            uint32_t cell = b->stack[--b->sp];
            if (!b->done[cell] && branch_place(b, geo, cell, b->m[cell]) != 0)
                return -1;
        } else if (b->dirty) {
            uint32_t u = (uint32_t)__builtin_ctzll(b->dirty);
            b->dirty &= b->dirty - 1;
            if (branch_unit(b, geo, u, all) != 0)
                return -1;
        } else {
            break;
        }
    }
    return 0;
}

/* Take mask from the b cells of segment j of line (a row when rows, else a
 * column).  Returns -1 when a cell is left empty. */
static int seg_remove(struct branch *br, const struct lg_geom *geo, bool rows, uint32_t line,
                      uint32_t j, uint32_t mask)
{
    const uint32_t n = geo->n, b = geo->box;

    for (uint32_t k = 0; k < b; k++) {
        uint32_t cell = rows ? line * n + j * b + k : (j * b + k) * n + line;
        if (branch_remove(br, geo, cell, mask) != 0)
            return -1;
    }
    return 0;
}

/* Locked candidates on br, every one at once, on segments (a line's cells
 * in one box): seg[l][j] is what line l holds in its j-th box (solved cells
 * count with their value, which changes nothing: their peers lack it).  A
 * value that a box has in one segment only leaves the line's other segments
 * (pointing); one that a line has in one segment only leaves the box's other
 * segments (claiming).  O(n * n) a pass.  n and b are geo's side and box
 * side, passed in so that an instance with constants can unroll the loops.
 * Returns -1 when a cell is left empty; what it removes is queued in br. */
static inline __attribute__((always_inline)) int lock_lines_nb(struct branch *br,
                                                               const struct lg_geom *geo, bool rows,
                                                               const uint32_t n, const uint32_t b)
{
    uint32_t seg[LG_MAX_N][4];

    memset(seg, 0, n * sizeof(seg[0])); /* the lines in use only */
    for (uint32_t l = 0; l < n; l++)    /* no division: the 9x9 instance knows b, others not */
        for (uint32_t j = 0, i = 0; j < b; j++)
            for (uint32_t k = 0; k < b; k++, i++)
                seg[l][j] |= br->m[rows ? l * n + i : i * n + l];
    for (uint32_t l = 0; l < n; l++) {
        const uint32_t band = l / b * b;
        for (uint32_t j = 0; j < b; j++) {
            uint32_t in_box = 0, in_line = 0;
            for (uint32_t k = 0; k < b; k++) {
                if (band + k != l)
                    in_box |= seg[band + k][j];
                if (k != j)
                    in_line |= seg[l][k];
            }
            uint32_t pointing = seg[l][j] & ~in_box, claiming = seg[l][j] & ~in_line;
            /* Usually there is nothing left to remove: look at the
             * segment masks before touching cells. */
            for (uint32_t k = 0; pointing && k < b; k++)
                if (k != j && (seg[l][k] & pointing) &&
                    seg_remove(br, geo, rows, l, k, pointing) != 0)
                    return -1;
            for (uint32_t k = 0; claiming && k < b; k++)
                if (band + k != l && (seg[band + k][j] & claiming) &&
                    seg_remove(br, geo, rows, band + k, j, claiming) != 0)
                    return -1;
        }
    }
    return 0;
}

/* lock_lines_nb for geo's side, with a constant side at 9x9 (the loops
 * unrolled: variants up to 9x9 run it in every trial of the nested rung). */
static int lock_lines(struct branch *br, const struct lg_geom *geo, bool rows)
{
    if (geo->n == 9)
        return lock_lines_nb(br, geo, rows, 9, 3);
    return lock_lines_nb(br, geo, rows, geo->n, geo->box);
}

/* A killer's cage combinations in b (cage_combination's rule) on the cages
 * touched since the last look: each cell of a cage keeps the values some
 * filling of the cage gives it.  Returns -1 when a cage has no filling
 * left (its sum cannot be made, a solved cage adding up wrong) or a cell
 * is left empty. */
static int branch_cages(struct branch *b, const struct lg_geom *geo, struct lg_cage_memo *memo)
{
    const struct sdk_rules *r = geo->rules;
    uint32_t poss[LG_MAX_N];

    for (uint32_t k = 0; k < r->cages_len; k++) {
        const uint16_t *cells = r->cage_cells + r->cages[k].off;
        if (!((b->cdirty[k / 64] >> (k % 64)) & 1u))
            continue;
        b->cdirty[k / 64] &= ~((uint64_t)1 << (k % 64));
        if (!lg_cage_poss(geo, memo, k, b->m, poss))
            return -1;
        for (uint32_t i = 0; i < r->cages[k].len; i++)
            if (branch_remove(b, geo, cells[i], b->m[cells[i]] & ~poss[i]) != 0)
                return -1;
    }
    return 0;
}

/* What a branch deduces: singles, and (dynamic) locked candidates and a
 * killer's cage combinations, until nothing changes.  The result is the
 * closure of the branch's start under those rules, whatever the order.
 * Returns 0, or -1 when the branch breaks the grid. */
static int deduce(struct branch *b, const struct lg_geom *geo, uint32_t all, bool dynamic,
                  struct lg_cage_memo *memo)
{
    const bool is_jigsaw = geo->rules && (geo->rules->kinds & SDK_RULE_REGIONS);
    const bool has_cages = geo->rules && geo->rules->cages_len > 0;

    for (;;) {
        if (branch_singles(b, geo, all) != 0)
            return -1;
        if (!dynamic || (!b->unsolved && !has_cages))
            return 0;
        /* lock_lines knows square boxes only, not a jigsaw's regions */
        if (b->unsolved && !is_jigsaw &&
            (lock_lines(b, geo, true) != 0 || lock_lines(b, geo, false) != 0))
            return -1;
        if (has_cages && branch_cages(b, geo, memo) != 0)
            return -1;
        if (!b->unsolved || (!b->sp && !b->dirty))
            return 0; /* solved, its cages adding up; or nothing removed: it stands */
    }
}

/* What a nested branch deduces (variants up to 9x9): the dynamic kind's
 * closure, and whenever that stalls, each candidate whose placement breaks
 * the branch (by the dynamic kind's deduction, on f->inner) goes from it,
 * until none does.  Dropping a candidate only makes more placements break,
 * so the result is again the closure, whatever the order.  Returns 0, or
 * -1 when the branch breaks the grid.  Asked to stop (c's job), it returns
 * 0 with what it has: a branch that deduced less still deduced truly. */
static int deduce_nested(struct forcing *f, struct branch *b, const struct lg_ctx *c)
{
    const struct lg_geom *geo = c->geo;
    const uint32_t cells = geo->ncells;

    if (deduce(b, geo, c->g->all, true, f->cages) != 0)
        return -1;
    /* Round the cells until a whole round drops nothing (quiet counts the
     * cells tried since the last drop, that cell's own next try included). */
    for (uint32_t i = 0, quiet = 1; quiet <= cells && b->unsolved; i = (i + 1) % cells, quiet++) {
        if (b->done[i])
            continue;
        if (lg_should_stop(c))
            return 0;
        for (uint32_t m = b->m[i]; m; m &= m - 1) {
            const uint32_t bit = m & (0u - m);
            if (b->done[i] || !(b->m[i] & bit))
                continue; /* gone since, by the last drop's deduction */
            branch_copy(&f->inner, b, geo);
            if (branch_place(&f->inner, geo, i, bit) == 0 &&
                deduce(&f->inner, geo, c->g->all, true, f->cages) == 0)
                continue;
            if (branch_remove(b, geo, i, bit) != 0 ||
                deduce(b, geo, c->g->all, true, f->cages) != 0)
                return -1;
            quiet = 0;
        }
    }
    return 0;
}

static void mark(struct forcing *f, const struct lg_ctx *c, uint32_t cell, uint32_t bit)
{
    const uint32_t i = cell * c->geo->n + lg_lowest(bit);

    f->ran[i / 64] |= (uint64_t)1 << (i % 64);
}

/* Branch k stood: so does the branch of every placement it made.  (That
 * branch starts from less, so its closure holds at least the candidates
 * of branch k's, which break nothing.) */
static void mark_stood(struct forcing *f, const struct lg_ctx *c, int k)
{
    if (f->fast) {
        const struct lg_b9 *b = &f->br9[k];
        for (uint32_t w = 0; w < 3; w++)
            for (uint32_t m = b->solved[w] & ~f->base9.solved[w]; m; m &= m - 1) {
                const uint32_t i = w * 27 + lg_lowest(m);
                mark(f, c, i, lg_b9_cand(b, i));
            }
        return;
    }
    for (uint32_t i = 0; i < c->geo->ncells; i++)
        if (f->br[k].done[i] && !f->base.done[i])
            mark(f, c, i, f->br[k].m[i]);
}

/* Keep the static branch b of source candidate key (answer rc) for the
 * dynamic rung, while there is room. */
static void branch_keep(struct lg_forcing_keep *keep, const struct lg_b9 *b, uint32_t key, int rc)
{
    if (!keep || keep->len >= LG_KEEP)
        return;
    struct lg_b9_kept *e = &keep->e[keep->len++];
    memcpy(e->p, b->p, sizeof(e->p));
    memcpy(e->solved, b->solved, sizeof(e->solved));
    e->rc = rc;
    e->key = (uint16_t)key;
    keep->of[key] = (uint8_t)keep->len;
}

/* Dynamic rung: the branch of key from its closure under singles, kept by
 * the static rung on this position (closed under singles; the locks as
 * f's position left them).  The dynamic closure of that is the branch's
 * own: every rule of the static one is a rule of the dynamic one, and the
 * closure does not depend on the order.  Returns lg_b9_deduce's answer
 * into b, or 1 when nothing is kept for key. */
static int branch_continue(const struct forcing *f, struct lg_b9 *b, uint32_t key)
{
    const struct lg_forcing_keep *keep = f->keep;
    const uint32_t i = keep ? keep->of[key] : 0;

    if (!i || i > keep->len || keep->e[i - 1].key != key)
        return 1;
    const struct lg_b9_kept *e = &keep->e[i - 1];
    if (e->rc != 0)
        return -1; /* broken with fewer rules: broken with more */
    memcpy(b->p, e->p, sizeof(b->p));
    memcpy(b->solved, e->solved, sizeof(b->solved));
    memcpy(b->hs_seen, e->p, sizeof(b->hs_seen));
    memcpy(b->lk_seen, f->base9.lk_seen, sizeof(b->lk_seen));
    return lg_b9_deduce(b, true);
}

/* Run branch k of f (9x9) placing v in cell, or copy its memo.  Returns
 * lg_b9_deduce's answer.  Only source branches (keep) are kept: the
 * contradiction pass never asks for one twice. */
static int branch_run9(struct forcing *f, int k, uint32_t cell, uint32_t v, bool keep)
{
    struct lg_b9 *b = &f->br9[k];
    const uint32_t key = cell * 9 + v - 1;

    if (f->memo_of[key]) {
        const struct forcing_memo *m = &f->memo[f->memo_of[key] - 1];
        memcpy(b->p, m->p, sizeof(b->p));
        memcpy(b->solved, m->solved, sizeof(b->solved));
        return m->rc;
    }
    int rc = keep && f->dynamic ? branch_continue(f, b, key) : 1;
    if (rc > 0) {
        *b = f->base9;
        lg_b9_place(b, cell, v);
        rc = lg_b9_deduce(b, f->dynamic);
    }
    if (keep && !f->dynamic)
        branch_keep(f->keep, b, key, rc);
    if (keep && f->memo_len < FORCING_MEMO) {
        struct forcing_memo *m = &f->memo[f->memo_len++];
        memcpy(m->p, b->p, sizeof(m->p));
        memcpy(m->solved, b->solved, sizeof(m->solved));
        m->rc = rc;
        f->memo_of[key] = (uint8_t)f->memo_len;
    }
    return rc;
}

/* Start branch k of f from f's position with cell = v, and deduce (keep:
 * a source's branch, which the 9x9 memo may keep). */
static int branch_run(struct forcing *f, int k, const struct lg_ctx *c, uint32_t cell, uint32_t v,
                      bool keep)
{
    struct branch *b = &f->br[k];

    if (f->fast) {
        if (branch_run9(f, k, cell, v, keep) != 0)
            return -1;
    } else {
        branch_copy(b, &f->base, c->geo);
        if (!f->closed && branch_touch_all(b, c->geo) != 0)
            return -1;
        if (branch_place(b, c->geo, cell, 1u << (v - 1)) != 0)
            return -1;
        if (f->nested ? deduce_nested(f, b, c) != 0
                      : deduce(b, c->geo, c->g->all, f->dynamic, f->cages) != 0)
            return -1;
    }
    mark_stood(f, c, k);
    return 0;
}

/* Did a branch placing v in cell stand (run, or known to)? */
static bool branch_stood(const struct forcing *f, const struct lg_ctx *c, uint32_t cell, uint32_t v)
{
    const uint32_t bit = cell * c->geo->n + v - 1;

    return (f->ran[bit / 64] >> (bit % 64)) & 1u;
}

/* Load c's position into f, and see whether it is closed: nothing for
 * deduce to do (the ladder's easier rungs found nothing).  Branches from a
 * closed position start with their placement's work only. */
static void forcing_init(struct forcing *f, const struct lg_ctx *c, bool dynamic, bool fast)
{
    struct branch *t = &f->br[0];

    f->dynamic = dynamic;
    f->nested = false;
    memset(f->ran, 0, sizeof(f->ran[0]) * ((c->geo->ncells * c->geo->n + 63) / 64));
    f->fast = fast && c->geo->n == 9 && !c->geo->rules; /* bitboards: classic rules only */
    f->cages = f->fast ? NULL : lg_cage_memo_of(c);     /* killers: fillings met before */
    f->memo_len = 0;
    f->keep = f->fast ? c->keep : NULL;
    if (f->keep && !dynamic)
        f->keep->len = 0; /* the static rung comes first on a position */
    if (f->keep && !f->keep->ready) {
        memset(f->keep->of, 0, sizeof(f->keep->of)); /* read before written: defined */
        f->keep->ready = true;
    }
    if (f->fast) {
        memset(f->memo_of, 0, sizeof(f->memo_of));
        struct lg_b9 *t9 = &f->br9[0];
        lg_b9_load(&f->base9, c->g);
        *t9 = f->base9;
        if (lg_b9_deduce(t9, dynamic) == 0 && memcmp(t9->p, f->base9.p, sizeof(t9->p)) == 0)
            lg_b9_seen(&f->base9);
        return;
    }
    branch_load(&f->base, c->g, c->geo);
    branch_copy(t, &f->base, c->geo);
    f->closed = branch_touch_all(t, c->geo) == 0 && t->sp == 0 &&
                deduce(t, c->geo, c->g->all, dynamic, f->cages) == 0 &&
                t->unsolved == f->base.unsolved &&
                memcmp(t->m, f->base.m, c->geo->ncells * sizeof(t->m[0])) == 0;
}

/* Run both branches of f from position g. */
static void forcing_run(struct forcing *f, const struct lg_ctx *c)
{
    for (int b = 0; b < 2; b++)
        f->rc[b] = branch_run(f, b, c, f->cell[b], f->val[b], true);
}

/* One cell of what both branches agree on: solved alike, or candidates
 * both lost. */
static void agree_cell(const struct lg_ctx *c, struct lg_step *s, uint32_t i, uint32_t m0,
                       uint32_t m1, bool both_done)
{
    if (both_done && m0 == m1)
        lg_step_place(s, i, lg_lowest(m0) + 1);
    else
        lg_step_elim_mask(s, c->g, i, ~(m0 | m1));
}

/* The same on bitboards: only the cells where one of the two happens, in
 * the same (cell) order. */
static void forcing_agree9(const struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_b9 *a = &f->br9[0], *b = &f->br9[1];

    for (uint32_t w = 0; w < 3; w++) {
        const uint32_t open = ~f->base9.solved[w] & 0x7ffffffu;
        uint32_t hit = 0;
        for (uint32_t v = 0; v < 9; v++)
            hit |= (a->p[v][w] & b->p[v][w] & a->solved[w] & b->solved[w]) |
                   (f->base9.p[v][w] & ~a->p[v][w] & ~b->p[v][w]);
        for (uint32_t m = hit & open; m; m &= m - 1) {
            const uint32_t i = w * 27 + lg_lowest(m);
            agree_cell(c, s, i, lg_b9_cand(a, i), lg_b9_cand(b, i),
                       lg_b9_solved(a, i) && lg_b9_solved(b, i));
        }
    }
}

/* Collect what both branches agree on into s. */
static void forcing_agree(const struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    if (f->fast) {
        forcing_agree9(f, c, s);
        return;
    }
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        if (c->g->val[i])
            continue;
        agree_cell(c, s, i, f->br[0].m[i], f->br[1].m[i], f->br[0].done[i] && f->br[1].done[i]);
    }
}

/* Turn the two branches into a step.  Returns true when it changes the
 * candidates. */
static bool forcing_conclude(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    char a[16], b[16];

    forcing_run(f, c);
    if (f->rc[0] < 0 && f->rc[1] < 0)
        return false; /* no solution at all: left to the caller's check */
    for (int k = 0; k < 2; k++) {
        if (f->rc[k] >= 0)
            continue;
        lg_step_place(s, f->cell[!k], f->val[!k]);
        lg_step_cell(s, f->cell[k]);
        if (c->want_text)
            lg_text(c, s, "%s: %u in %s breaks the grid, so %s is %u", s->name, f->val[k],
                    lg_cell_name(c->geo, f->cell[k], a, sizeof(a)),
                    lg_cell_name(c->geo, f->cell[!k], b, sizeof(b)), f->val[!k]);
        return true;
    }
    forcing_agree(f, c, s);
    if (!s->place_len && !s->elim_len)
        return false;
    lg_step_cell(s, f->cell[0]);
    if (f->cell[1] != f->cell[0])
        lg_step_cell(s, f->cell[1]);
    if (c->want_text)
        lg_text(c, s,
                "%s: %s is %u or %s is %u, and both lead to the same %u placements and %u "
                "eliminations",
                s->name, lg_cell_name(c->geo, f->cell[0], a, sizeof(a)), f->val[0],
                lg_cell_name(c->geo, f->cell[1], b, sizeof(b)), f->val[1], s->place_len,
                s->elim_len);
    return true;
}

/* Sources of the first kind: bivalue cells. */
static bool forcing_cells(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        uint32_t m = c->g->cand[i];
        if (lg_popcount(m) != 2)
            continue;
        if (lg_should_stop(c))
            return false;
        f->cell[0] = f->cell[1] = (uint16_t)i;
        f->val[0] = (uint8_t)(lg_lowest(m) + 1);
        f->val[1] = (uint8_t)(lg_lowest(m & (m - 1)) + 1);
        if (forcing_conclude(f, c, s))
            return true;
    }
    return false;
}

/* Sources of the second kind: a value with two places in a unit. */
static bool forcing_units(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;

    for (uint32_t u = 0; u < geo->nunits; u++) {
        if (lg_should_stop(c))
            return false;
        const uint16_t *places = lg_positions(c)->m[u];
        for (uint32_t v = 1; v <= geo->n; v++) {
            const uint32_t m = places[v - 1];
            if (lg_popcount(m) != 2)
                continue;
            f->cell[0] = geo->unit[u][lg_lowest(m)];
            f->cell[1] = geo->unit[u][lg_lowest(m & (m - 1))];
            f->val[0] = f->val[1] = (uint8_t)v;
            if (forcing_conclude(f, c, s))
                return true;
        }
    }
    return false;
}

/* A candidate whose placement breaks the grid goes. */
static bool forcing_contradiction(struct forcing *f, const struct lg_ctx *c, struct lg_step *s)
{
    char a[16];

    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        if (c->g->cand[i] && lg_should_stop(c))
            return false;
        for (uint32_t m = c->g->cand[i]; m; m &= m - 1) {
            uint32_t v = lg_lowest(m) + 1;
            /* The same position, the same deduction: a branch that stood
             * as half of a source stands again.  The solution's own value
             * stands too: what follows from a true placement is true. */
            if ((c->solution && c->solution[i] == v) || branch_stood(f, c, i, v) ||
                branch_run(f, 0, c, i, v, false) == 0)
                continue;
            lg_step_elim(s, i, v);
            lg_step_cell(s, i);
            lg_text(c, s, "%s: %u in %s leads to a contradiction, so it goes", s->name, v,
                    lg_cell_name(c->geo, i, a, sizeof(a)));
            return true;
        }
    }
    return false;
}

/* A forcing chain: bivalue cells first, then two-place values; branches
 * deduce by singles. */
/* The two-way branches themselves, whatever the grid: static (singles in
 * the branches) or dynamic (locked candidates too, and contradictions). */
bool lg_forcing_branches(const struct lg_ctx *c, struct lg_step *s, bool dynamic)
{
    struct forcing f;

    forcing_init(&f, c, dynamic, true);
    if (forcing_cells(&f, c, s) || forcing_units(&f, c, s))
        return true;
    return dynamic && forcing_contradiction(&f, c, s);
}

bool lg_forcing_chain(const struct lg_ctx *c, struct lg_step *s)
{
    if (lg_se_applies(c))
        return lg_se_multiple(c, s); /* SE's multiple forcing chains (sechain.c) */
    return lg_forcing_branches(c, s, false);
}

/* A dynamic forcing chain: branches also use locked candidates, and a
 * single candidate leading to a contradiction is a source too. */
bool lg_dynamic_forcing_chain(const struct lg_ctx *c, struct lg_step *s)
{
    if (lg_se_applies(c))
        return lg_se_dynamic(c, s); /* SE's dynamic forcing chains (sechain.c) */
    return lg_forcing_branches(c, s, true);
}

/* SE's dynamic forcing chains (+) on 9x9 (sechain.c, senest.c). */
bool lg_dynamic_forcing_chain_plus(const struct lg_ctx *c, struct lg_step *s)
{
    return lg_se_applies(c) && lg_se_dynamic_plus(c, s);
}

/* Nested forcing chains: SE's level 2 on a classic 9x9 (sechain.c); on a
 * variant up to 9x9, which SE's chains do not take, the dynamic two-way
 * branches whose branches also drop every candidate that breaks them. */
bool lg_nested_forcing_chain(const struct lg_ctx *c, struct lg_step *s)
{
    struct forcing f;

    if (lg_se_applies(c))
        return lg_se_nested_fc(c, s);
    if (c->geo->n > 9)
        return false; /* a trial of every candidate in every branch: too slow */
    forcing_init(&f, c, true, false);
    f.nested = true;
    return forcing_cells(&f, c, s) || forcing_units(&f, c, s) || forcing_contradiction(&f, c, s);
}

/* SE's last producer, dynamic forcing chains nested in dynamic forcing
 * chains (+) (sechain.c); past it, on a grid it leaves stuck, the dynamic
 * two-way branches, rated as the least its steps rate. */
bool lg_nested_forcing_chain_last(const struct lg_ctx *c, struct lg_step *s)
{
    if (!lg_se_applies(c))
        return false;
    return lg_se_nested_twice(c, s) || lg_forcing_branches(c, s, true);
}

/* One branch of c's position, placing v in cell: its candidates into m (a
 * solved cell: its value's bit) and its solved cells into done (ncells
 * each).  generic picks the engine for any n over the bitboard one of 9x9
 * (tests compare them).  Returns 0, or -1 when the branch breaks the grid
 * (m and done are then left as they are). */
int lg_forcing_branch(const struct lg_ctx *c, bool dynamic, bool generic, uint32_t cell, uint32_t v,
                      uint16_t *m, uint8_t *done)
{
    struct forcing f;

    forcing_init(&f, c, dynamic, !generic);
    if (branch_run(&f, 0, c, cell, v, false) != 0)
        return -1;
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        m[i] = (uint16_t)(f.fast ? lg_b9_cand(&f.br9[0], i) : f.br[0].m[i]);
        done[i] = f.fast ? lg_b9_solved(&f.br9[0], i) : f.br[0].done[i];
    }
    return 0;
}
