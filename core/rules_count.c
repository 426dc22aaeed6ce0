/* rules_count.c -- an independent count of solutions under any rules.
 *
 * The host proves a plugin's uniqueness claims and the tests prove golden
 * counts with a search that shares no code with any plugin: a plain
 * recursive backtracker over the tables of a struct sdk_rules.  Each cell
 * knows its houses, its differ peers, its non-consecutive neighbours and
 * its cage; a cell's candidates are the digits no house holds, no peer
 * holds, no neighbour is next to, and that belong to a set of distinct
 * unused digits adding up to what its cage lacks which the cage's blanks
 * can hold.  From 16x16 up, locked candidates (a digit whose places in a
 * house all lie in a second house leaves the rest of the second) cut them
 * further.  A node branches on the cell with the fewest candidates, or on
 * the places of a digit a house lacks when there are fewer of those.
 * Clear rather than fast: it is a referee.
 *
 * Working memory: two allocations a call (about 50 KiB, and the cells'
 * candidates at each depth, twice: 53 KiB at 9x9, 3 MiB at 25x25), freed
 * before return.  Recursion depth at most n*n frames of a few words.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/rules_impl.h"

#define MAX_CELL_HOUSES 6  /* row, column, box or region, two diagonals, a window */
#define MAX_CELL_DIFFER 12 /* eight knight's moves, four diagonal king's moves */
#define MAX_CELL_NONCON 4  /* orthogonal neighbours */
#define MAX_ALL_HOUSES  (3 * SDK_MAX_N + 2 + 16 + RULES_MAX_IMPLIED) /* and windows' implied */

struct counter {
    const struct sdk_rules *r;                 /* the tables */
    uint32_t n, full;                          /* side; mask of every digit */
    uint32_t houses_len;                       /* r's houses, then the windows' implied ones */
    uint16_t house[MAX_ALL_HOUSES][SDK_MAX_N]; /* their cells */
    uint8_t val[SDK_MAX_CELLS];                /* 0 = blank */
    uint8_t house_len[SDK_MAX_CELLS];          /* houses of each cell */
    uint8_t houses[SDK_MAX_CELLS][MAX_CELL_HOUSES];
    uint8_t differ_len[SDK_MAX_CELLS]; /* differ peers of each cell */
    uint16_t differ[SDK_MAX_CELLS][MAX_CELL_DIFFER];
    uint8_t noncon_len[SDK_MAX_CELLS]; /* non-consecutive neighbours */
    uint16_t noncon[SDK_MAX_CELLS][MAX_CELL_NONCON];
    int16_t cage[SDK_MAX_CELLS];       /* cage of each cell, or -1 */
    uint32_t used[MAX_ALL_HOUSES];     /* digits placed in each house */
    uint32_t cage_used[SDK_MAX_CELLS]; /* digits placed in each cage */
    uint32_t cage_sum[SDK_MAX_CELLS];  /* what each cage still needs */
    uint32_t cage_left[SDK_MAX_CELLS]; /* blank cells left in each cage */
    uint64_t in_house[MAX_ALL_HOUSES][(SDK_MAX_CELLS + 63) / 64]; /* house h's cells */
    uint64_t limit, count, nodes, max_nodes; /* the search's bounds and tally */
    struct sdk_job stop;                     /* its cancel flag and deadline */
    uint8_t *solution;                       /* out: the first one, or NULL */
    uint32_t *masks; /* per depth: the cells' candidates before and after the cages */
    uint32_t depth;  /* of the node being searched */
};

/* Bit of digit d (1..n). */
static inline uint32_t bit(uint32_t d)
{
    return 1u << (d - 1);
}

static void counter_tables(struct counter *c)
{
    const struct sdk_rules *r = c->r;
    const uint32_t n = r->n;

    uint16_t implied[RULES_MAX_IMPLIED * SDK_MAX_N];
    const uint32_t implied_len =
        (r->kinds & SDK_RULE_WINDOWS) ? rules__windows_implied(n, implied) : 0;

    for (uint32_t h = 0; h < r->houses_len; h++)
        memcpy(c->house[h], r->houses + h * n, n * sizeof(uint16_t));
    for (uint32_t h = 0; h < implied_len; h++)
        memcpy(c->house[r->houses_len + h], implied + h * n, n * sizeof(uint16_t));
    c->houses_len = r->houses_len + implied_len;
    for (uint32_t h = 0; h < c->houses_len; h++)
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t cell = c->house[h][k];

            c->houses[cell][c->house_len[cell]++] = (uint8_t)h;
            c->in_house[h][cell / 64] |= 1ull << (cell % 64);
        }
    for (uint32_t i = 0; i < r->differ_len; i++) {
        const uint16_t a = r->differ[2 * i], b = r->differ[2 * i + 1];

        c->differ[a][c->differ_len[a]++] = b;
        c->differ[b][c->differ_len[b]++] = a;
    }
    for (uint32_t i = 0; i < r->nonconsec_len; i++) {
        const uint16_t a = r->nonconsec[2 * i], b = r->nonconsec[2 * i + 1];

        c->noncon[a][c->noncon_len[a]++] = b;
        c->noncon[b][c->noncon_len[b]++] = a;
    }
    for (uint32_t i = 0; i < n * n; i++)
        c->cage[i] = -1;
    for (uint32_t k = 0; k < r->cages_len; k++) {
        const struct sdk_cage *cg = &r->cages[k];

        c->cage_sum[k] = cg->sum;
        c->cage_left[k] = cg->len;
        for (uint32_t j = 0; j < cg->len; j++)
            c->cage[r->cage_cells[cg->off + j]] = (int16_t)k;
    }
}

static void place(struct counter *c, uint32_t cell, uint32_t d)
{
    c->val[cell] = (uint8_t)d;
    for (uint32_t h = 0; h < c->house_len[cell]; h++)
        c->used[c->houses[cell][h]] |= bit(d);
    if (c->cage[cell] >= 0) {
        c->cage_used[c->cage[cell]] |= bit(d);
        c->cage_sum[c->cage[cell]] -= d;
        c->cage_left[c->cage[cell]]--;
    }
}

static void unplace(struct counter *c, uint32_t cell, uint32_t d)
{
    c->val[cell] = 0;
    for (uint32_t h = 0; h < c->house_len[cell]; h++)
        c->used[c->houses[cell][h]] &= ~bit(d);
    if (c->cage[cell] >= 0) {
        c->cage_used[c->cage[cell]] &= ~bit(d);
        c->cage_sum[c->cage[cell]] += d;
        c->cage_left[c->cage[cell]]++;
    }
}

/* The blank cells of one cage at a node: their candidates before the
 * cage's sum is read (m), and what the sum leaves them (out). */
struct cage_fill {
    uint32_t n, len;         /* side; blank cells */
    uint32_t m[SDK_MAX_N];   /* each blank's candidates from houses and peers */
    uint32_t out[SDK_MAX_N]; /* each blank's digits in some set that fills the cage */
    int is_full;             /* out == m: no set can add a digit */
};

/* A set of distinct digits that adds up to what the cage lacks: when every
 * blank can take one of its digits and every digit has a blank that can
 * take it, each blank keeps the set's digits it can take.  (A superset of
 * what a complete assignment allows: enough for a referee, never less.) */
static void fill_take(struct cage_fill *f, uint32_t set)
{
    uint32_t reach = 0;

    for (uint32_t i = 0; i < f->len; i++) {
        if (!(f->m[i] & set))
            return;
        reach |= f->m[i] & set;
    }
    if (reach != set)
        return;
    f->is_full = 1;
    for (uint32_t i = 0; i < f->len; i++) {
        f->out[i] |= f->m[i] & set;
        f->is_full &= f->out[i] == f->m[i];
    }
}

/* Every set of k more digits of avail, each at least from, adding up to s,
 * joined to set, handed to fill_take() until its blanks are full.
 * Ascending digits bound the sum: k digits from d on add up to at least
 * k*d + k(k-1)/2 and at most the k largest, k*n - k(k-1)/2. */
static void fill_sets(struct cage_fill *f, uint32_t avail, uint32_t from, uint32_t k, uint32_t s,
                      uint32_t set)
{
    if (k == 0) {
        if (s == 0)
            fill_take(f, set);
        return;
    }
    if (k * f->n < s + k * (k - 1) / 2)
        return;
    for (uint32_t d = from; d <= f->n && k * d + k * (k - 1) / 2 <= s && !f->is_full; d++) {
        if (avail & bit(d))
            fill_sets(f, avail, d + 1, k - 1, s - d, set | bit(d));
    }
}

/* Cut the candidates m[] of cage k's blank cells to the digits of the
 * sets of distinct unused digits that add up to what the cage lacks.  m
 * holds base[] (the candidates before any cage) for the cage's cells; up,
 * when not NULL, is the parent node's base[] followed by its cut m[]: a
 * cage whose cells' base candidates are the parent's keeps its cut. */
static void cage_cut(const struct counter *c, uint32_t k, const uint32_t *base, const uint32_t *up,
                     uint32_t *m)
{
    const struct sdk_cage *cg = &c->r->cages[k];
    const uint16_t *cells = c->r->cage_cells + cg->off;
    const uint32_t all = c->n * c->n;
    struct cage_fill f = {.n = c->n};
    uint32_t at[SDK_MAX_N], j = 0;

    while (up && j < cg->len && base[cells[j]] == up[cells[j]])
        j++;
    if (up && j == cg->len) {
        for (j = 0; j < cg->len; j++)
            m[cells[j]] = up[all + cells[j]];
        return;
    }
    for (j = 0; j < cg->len; j++) {
        if (c->val[cells[j]])
            continue;
        at[f.len] = cells[j];
        f.m[f.len] = m[cells[j]];
        f.out[f.len++] = 0;
    }
    fill_sets(&f, c->full & ~c->cage_used[k], 1, f.len, c->cage_sum[k], 0);
    for (uint32_t i = 0; i < f.len; i++)
        m[at[i]] = f.out[i];
}

static uint32_t cands(const struct counter *c, uint32_t cell)
{
    uint32_t m = c->full;

    for (uint32_t h = 0; h < c->house_len[cell]; h++)
        m &= ~c->used[c->houses[cell][h]];
    for (uint32_t i = 0; i < c->differ_len[cell]; i++) {
        const uint32_t v = c->val[c->differ[cell][i]];

        if (v)
            m &= ~bit(v);
    }
    for (uint32_t i = 0; i < c->noncon_len[cell]; i++) {
        const uint32_t v = c->val[c->noncon[cell][i]];

        if (v)
            m &= ~((v > 1 ? bit(v - 1) : 0) | (v < c->n ? bit(v + 1) : 0));
    }
    return m;
}

static int search(struct counter *c);

static inline int is_in_house(const struct counter *c, uint32_t h, uint32_t cell)
{
    return (int)((c->in_house[h][cell / 64] >> (cell % 64)) & 1);
}

/* Digit v's places at[0..k) in house h all lie in house h2 too: v leaves
 * the cells of h2 outside h.  Returns the candidates taken, or -1 when a
 * cell is left with none (a dead end). */
static int locked_in(const struct counter *c, uint32_t *m, uint32_t h, uint32_t h2, uint32_t v,
                     const uint32_t *at, uint32_t k)
{
    const uint16_t *cells = c->house[h2];
    int taken = 0;

    for (uint32_t j = 1; j < k; j++) {
        if (!is_in_house(c, h2, at[j]))
            return 0;
    }
    for (uint32_t j = 0; j < c->n; j++) {
        if (!(m[cells[j]] & bit(v)) || is_in_house(c, h, cells[j]))
            continue;
        m[cells[j]] &= ~bit(v);
        if (!m[cells[j]])
            return -1;
        taken++;
    }
    return taken;
}

/* One look at every house for locked candidates: a digit whose places in
 * a house all share another house (a box and a line, a window and a box,
 * a diagonal and a row) leaves the rest of that one.  Without it a 16x16
 * windoku the plugins prove in a few thousand guesses takes this search
 * tens of millions of nodes.  m holds every blank cell's candidates.
 * Returns the candidates taken, or -1 at a dead end. */
static int locked_look(const struct counter *c, uint32_t *m)
{
    const uint32_t n = c->n;
    int taken = 0;

    for (uint32_t h = 0; h < c->houses_len; h++) {
        const uint16_t *cells = c->house[h];
        const uint32_t missing = c->full & ~c->used[h];

        for (uint32_t v = 1; v <= n; v++) {
            uint32_t k = 0, at[SDK_MAX_N];

            if (!(missing & bit(v)))
                continue;
            for (uint32_t j = 0; j < n; j++) {
                if (m[cells[j]] & bit(v))
                    at[k++] = cells[j];
            }
            for (uint32_t i = 0; k > 1 && i < c->house_len[at[0]]; i++) {
                const uint32_t h2 = c->houses[at[0]][i];
                const int t = h2 == h ? 0 : locked_in(c, m, h, h2, v, at, k);

                if (t < 0)
                    return -1;
                taken += t;
            }
        }
    }
    return taken;
}

/* Place d in each cell of try[0..len) in turn and search on.  Returns as
 * search() does. */
static int branch(struct counter *c, const uint32_t *try, uint32_t len, const uint32_t *digit)
{
    for (uint32_t i = 0; i < len; i++) {
        int rc;

        place(c, try[i], digit[i]);
        c->depth++;
        rc = search(c);
        c->depth--;
        unplace(c, try[i], digit[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* The fewest places of a digit missing from a house, into place_cells[]
 * with *d the digit: fewer than best, else 0 places are stored.  Returns
 * the count stored, or -1 when a digit has no place left in a house (a
 * dead end). */
static int fewest_places(const struct counter *c, const uint32_t *m, uint32_t best,
                         uint32_t *place_cells, uint32_t *d)
{
    const uint32_t n = c->n;
    int stored = 0;

    for (uint32_t h = 0; h < c->houses_len; h++) {
        const uint16_t *cells = c->house[h];
        uint32_t once = 0, twice = 0, missing = c->full & ~c->used[h], single;

        for (uint32_t j = 0; j < n; j++) { /* filled cells have m 0 */
            twice |= once & m[cells[j]];
            once |= m[cells[j]];
        }
        if (missing & ~once)
            return -1;
        single = missing & once & ~twice;
        for (uint32_t v = 1; v <= n && (single || best > 2); v++) {
            uint32_t k = 0, at[SDK_MAX_N];

            if (!(missing & bit(v)) || (single && !(single & bit(v))))
                continue;
            for (uint32_t j = 0; j < n; j++) {
                if (m[cells[j]] & bit(v))
                    at[k++] = cells[j];
            }
            if (k < best) {
                best = k;
                memcpy(place_cells, at, k * sizeof(at[0]));
                *d = v;
                stored = (int)k;
            }
            if (k == 1)
                return 1;
        }
    }
    return stored;
}

/* One node: the cell with the fewest candidates, or the digit of a house
 * with fewer places than that, whichever branches less.  Returns 1 when
 * limit is reached, -E2BIG when out of nodes, else 0. */
static int search(struct counter *c)
{
    const uint32_t cells = c->n * c->n;
    uint32_t best = cells, best_pop = 64, try[SDK_MAX_N], digit[SDK_MAX_N];
    uint32_t *base = c->masks + (size_t)c->depth * 2 * cells, *m = base + cells;
    const uint32_t *up = c->depth ? base - 2 * cells : NULL; /* the parent node's */
    uint32_t len = 0, d = 0;
    int places;

    if (c->max_nodes && c->nodes >= c->max_nodes)
        return -E2BIG;
    if ((++c->nodes & 255) == 0) {
        switch (sdk_job_should_stop(&c->stop)) {
        case SDK_CANCELLED:
            return -ECANCELED;
        case SDK_TIMEDOUT:
            return -ETIMEDOUT;
        default:
            break;
        }
    }
    /* Without cages a cell's candidates need no other cell's, so a cell
     * with one ends the look (its branch is the only one); a cage cuts its
     * cells' candidates together, so with cages every cell is looked at. */
    for (uint32_t i = 0; i < cells && !c->r->cages_len && best_pop > 1; i++) {
        m[i] = c->val[i] ? 0 : cands(c, i);
        if (!c->val[i] && !m[i])
            return 0;
        if (m[i] && !(m[i] & (m[i] - 1))) {
            best = i;
            best_pop = 1;
        }
    }
    for (uint32_t i = 0; i < cells && c->r->cages_len; i++)
        m[i] = base[i] = c->val[i] ? 0 : cands(c, i);
    for (uint32_t k = 0; k < c->r->cages_len; k++) {
        if (c->cage_left[k])
            cage_cut(c, k, base, up, m);
    }
    /* m is whole unless a cell with one candidate ended the look above.
     * One look a node: up to 9x9 it costs more than the nodes it saves, and
     * looking again until nothing changes costs more than it saves too. */
    if (c->n >= 16 && (best_pop > 1 || c->r->cages_len) && locked_look(c, m) < 0)
        return 0;
    for (uint32_t i = 0; i < cells && best_pop > 1; i++) {
        uint32_t pop;

        if (c->val[i])
            continue;
        pop = (uint32_t)__builtin_popcount(m[i]);
        if (pop == 0)
            return 0;
        if (pop < best_pop) {
            best = i;
            best_pop = pop;
        }
    }
    if (best == cells) {
        if (++c->count == 1 && c->solution)
            memcpy(c->solution, c->val, cells);
        return c->count >= c->limit;
    }
    places = best_pop > 1 ? fewest_places(c, m, best_pop, try, &d) : 0;
    if (places < 0)
        return 0;
    if (places > 0) {
        for (uint32_t i = 0; i < (uint32_t)places; i++)
            digit[i] = d;
        return branch(c, try, (uint32_t)places, digit);
    }
    for (uint32_t v = 1; v <= c->n; v++) {
        if (m[best] & bit(v)) {
            try[len] = best;
            digit[len++] = v;
        }
    }
    return branch(c, try, len, digit);
}

int rules_count(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, uint64_t limit,
                uint64_t max_nodes, uint8_t *solution, uint64_t *count)
{
    struct rules_bounds b = {.max_nodes = max_nodes};

    return rules_count_bounded(r, n, cells, limit, &b, solution, count);
}

int rules_count_bounded(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, uint64_t limit,
                        const struct rules_bounds *b, uint8_t *solution, uint64_t *count)
{
    struct rules *classic = NULL;
    struct counter *c = NULL;
    int rc = 0;

    *count = 0;
    if (rules_check_givens(r, n, cells, NULL, 0) < 0)
        return 0;
    if (r == NULL) {
        classic = rules__new_classic(n);
        r = rules_sdk(classic);
    }
    c = calloc(1, sizeof(*c));
    if (c)
        c->masks = malloc(((size_t)n * n + 1) * 2 * n * n * sizeof(*c->masks));
    if (r == NULL || c == NULL || c->masks == NULL) {
        rc = -ENOMEM;
        goto done;
    }
    c->r = r;
    c->n = n;
    c->full = (1u << n) - 1;
    c->limit = limit ? limit : 1;
    c->max_nodes = b ? b->max_nodes : 0;
    c->stop.cancel = b ? b->cancel : NULL;
    c->stop.deadline_ns = b ? b->deadline_ns : 0;
    c->solution = solution;
    counter_tables(c);
    for (uint32_t i = 0; i < n * n; i++)
        if (cells[i])
            place(c, i, cells[i]);
    rc = search(c);
    *count = c->count;
    if (rc > 0)
        rc = 0;
done:
    if (c)
        free(c->masks);
    free(c);
    rules_free(classic);
    return rc;
}
