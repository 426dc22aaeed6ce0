/* rules_count.c -- an independent count of solutions under any rules.
 *
 * The host proves a plugin's uniqueness claims and the tests prove golden
 * counts with a search that shares no code with any plugin: a plain
 * recursive backtracker over the tables of a struct sdk_rules.  Each cell
 * knows its houses, its differ peers, its non-consecutive neighbours and
 * its cage; a cell's candidates are the digits no house holds, no peer
 * holds, no neighbour is next to, and that leave its cage's remaining sum
 * reachable by distinct unused digits.  The cell with the fewest
 * candidates is tried first.  Clear rather than fast: it is a referee.
 *
 * Working memory: one allocation a call (about 40 KiB), freed before
 * return.  Recursion depth at most n*n frames of a few words.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/rules_impl.h"

#define MAX_CELL_HOUSES 6  /* row, column, box or region, two diagonals, a window */
#define MAX_CELL_DIFFER 12 /* eight knight's moves, four diagonal king's moves */
#define MAX_CELL_NONCON 4  /* orthogonal neighbours */
#define MAX_ALL_HOUSES  (3 * SDK_MAX_N + 2 + 16)

struct counter {
    const struct sdk_rules *r;        /* the tables */
    uint32_t n, full;                 /* side; mask of every digit */
    uint8_t val[SDK_MAX_CELLS];       /* 0 = blank */
    uint8_t house_len[SDK_MAX_CELLS]; /* houses of each cell */
    uint8_t houses[SDK_MAX_CELLS][MAX_CELL_HOUSES];
    uint8_t differ_len[SDK_MAX_CELLS]; /* differ peers of each cell */
    uint16_t differ[SDK_MAX_CELLS][MAX_CELL_DIFFER];
    uint8_t noncon_len[SDK_MAX_CELLS]; /* non-consecutive neighbours */
    uint16_t noncon[SDK_MAX_CELLS][MAX_CELL_NONCON];
    int16_t cage[SDK_MAX_CELLS];             /* cage of each cell, or -1 */
    uint32_t used[MAX_ALL_HOUSES];           /* digits placed in each house */
    uint32_t cage_used[SDK_MAX_CELLS];       /* digits placed in each cage */
    uint32_t cage_sum[SDK_MAX_CELLS];        /* what each cage still needs */
    uint32_t cage_left[SDK_MAX_CELLS];       /* blank cells left in each cage */
    uint64_t limit, count, nodes, max_nodes; /* the search's bounds and tally */
    uint8_t *solution;                       /* out: the first one, or NULL */
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

    for (uint32_t h = 0; h < r->houses_len; h++)
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t cell = r->houses[h * n + k];

            c->houses[cell][c->house_len[cell]++] = (uint8_t)h;
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

/* Might k distinct digits of avail add up to exactly s?  The k smallest
 * and the k largest bound every choice: a necessary test, exact for k 0
 * and 1 (the last blank of a cage must be the very digit it lacks). */
static int sum_reachable(uint32_t n, uint32_t avail, uint32_t k, uint32_t s)
{
    uint32_t lo = 0, hi = 0, took = 0;

    if (k == 1)
        return s >= 1 && s <= n && (avail & bit(s));

    for (uint32_t d = 1; d <= n && took < k; d++)
        if (avail & bit(d)) {
            lo += d;
            took++;
        }
    if (took < k)
        return 0;
    took = 0;
    for (uint32_t d = n; d >= 1 && took < k; d--)
        if (avail & bit(d)) {
            hi += d;
            took++;
        }
    return s >= lo && s <= hi;
}

/* The digits of a cage cell that keep its cage's sum reachable. */
static uint32_t cage_cands(const struct counter *c, int16_t k, uint32_t m)
{
    const uint32_t free_digits = c->full & ~c->cage_used[k];
    uint32_t out = 0;

    m &= free_digits;
    for (uint32_t d = 1; d <= c->n; d++)
        if ((m & bit(d)) && d <= c->cage_sum[k] &&
            sum_reachable(c->n, free_digits & ~bit(d), c->cage_left[k] - 1, c->cage_sum[k] - d))
            out |= bit(d);
    return out;
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
    if (m && c->cage[cell] >= 0)
        m = cage_cands(c, c->cage[cell], m);
    return m;
}

/* Returns 1 when limit is reached, -E2BIG when out of nodes, else 0. */
static int search(struct counter *c)
{
    const uint32_t cells = c->n * c->n;
    uint32_t best = cells, best_mask = 0, best_pop = 64;

    if (c->max_nodes && ++c->nodes > c->max_nodes)
        return -E2BIG;
    for (uint32_t i = 0; i < cells && best_pop > 1; i++) {
        uint32_t m, pop;

        if (c->val[i])
            continue;
        m = cands(c, i);
        pop = (uint32_t)__builtin_popcount(m);
        if (pop == 0)
            return 0;
        if (pop < best_pop) {
            best = i;
            best_mask = m;
            best_pop = pop;
        }
    }
    if (best == cells) {
        if (++c->count == 1 && c->solution)
            memcpy(c->solution, c->val, cells);
        return c->count >= c->limit;
    }
    for (uint32_t d = 1; d <= c->n; d++) {
        int rc;

        if (!(best_mask & bit(d)))
            continue;
        place(c, best, d);
        rc = search(c);
        unplace(c, best, d);
        if (rc)
            return rc;
    }
    return 0;
}

int rules_count(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, uint64_t limit,
                uint64_t max_nodes, uint8_t *solution, uint64_t *count)
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
    if (r == NULL || c == NULL) {
        rc = -ENOMEM;
        goto done;
    }
    c->r = r;
    c->n = n;
    c->full = (1u << n) - 1;
    c->limit = limit ? limit : 1;
    c->max_nodes = max_nodes;
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
    free(c);
    rules_free(classic);
    return rc;
}
