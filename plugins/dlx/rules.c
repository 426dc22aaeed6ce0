/* rules.c -- the dlx plugin's variant path: exact cover with secondary items.
 *
 * Sudoku under variant rules as exact cover, in the style of Knuth's DLX1
 * with secondary items (as DLX2 has them, without colours):
 *
 *   primary items    "cell i is filled" for every open cell, and "house h
 *                    has value v" for every house of the rules' table (rows,
 *                    columns, boxes or jigsaw regions, diagonals, windows,
 *                    and the houses windows imply: rdlx_implied) and every
 *                    value no given already puts there;
 *   secondary items  "difference pair p holds v in one of its cells" for
 *                    every (anti-knight or anti-king pair, value), and for
 *                    every non-consecutive pair (a, b) and v < n, "a holds v
 *                    and b v+1" and "a holds v+1 and b v";
 *   options          one per (open cell, value) that no given rules out:
 *                    its cell, its houses' (house, value) items, and every
 *                    secondary item it touches.
 *
 * A secondary item may be covered at most once and need not be covered:
 * two options that share one never both enter a solution, which is what a
 * pair rule says.  Killer cages are not taken: a sum is no exact cover, and
 * dlx declares only the kinds of DLX_RULES.
 *
 * Layout (DLX1): nodes are int32 indices into three arrays, u and d (up and
 * down links) and top (a header's live options; an option node's item; a
 * spacer's -option).  Nodes 0..items_len-1 are the headers (0 is the root of
 * the list of live primary items, whose left and right links are l and r;
 * a secondary item links to itself there, so it is never chosen).  Options
 * follow, each between two spacers: a spacer's u is the first node of the
 * option before it and its d the last node of the option after it.  An
 * option's first node is its cell's item and its second its row's, from
 * which a solution is read back.  The search is iterative with an explicit
 * choice stack, branches on the live primary item with the fewest options,
 * polls the stop every 256 options tried and counts them in job->guesses.
 * A budget of guesses (sdk_job_max_guesses, minor 5) counts only the
 * options tried on an item that had two or more (a guess; an item with one
 * option left is forced, as a naked single is): SDK_EXHAUSTED before the
 * guess past it, so a job stops at the same place every time.
 *
 * Memory: one block per call, sized by a counting pass (at 25x25 with both
 * pair rules about 7 MB), freed before returning.  No state between calls.
 */
#include "dlx_rules.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sudoku/plugin_rules.h>

#define DLX_CELL_HOUSES 8    /* houses of one cell at most (6 are used) */
#define DLX_R_POLL_MASK 255u /* poll sdk_job_should_stop() every 256 options */

/* One call's matrix, search state and the rules' per-cell view. */
struct rdlx {
    uint32_t n, nn;
    const struct sdk_rules *rules;
    int32_t *u, *d, *top;    /* per node */
    int32_t *l, *r;          /* per item: the live primary items */
    int32_t *choice;         /* per level: the option node tried */
    int32_t *item;           /* per level: the item branched on */
    uint32_t *pair_off;      /* nn+1: cell i's pairs are pair[pair_off[i] .. pair_off[i+1]-1] */
    uint32_t *pair;          /* (index << 1 | is_b), index over differ then nonconsec */
    uint8_t *houses_len;     /* per cell */
    uint8_t *houses;         /* per cell, DLX_CELL_HOUSES house numbers */
    uint32_t *placed;        /* per house: values the givens put there */
    uint32_t base_differ;    /* item of (differ pair 0, value 1) */
    uint32_t base_nonconsec; /* item of (nonconsec pair 0, "a v b v+1", v = 1) */
    uint32_t items_len;      /* headers, root included */
    int32_t next;            /* the next free node while building */
    int32_t open_len;        /* open cells: the levels of a solution */
};

/* ------------------------------------------------------------------------ */
/* Checks                                                                    */
/* ------------------------------------------------------------------------ */

/* Can the variant path read rules for side n: no cages, rows and
 * columns first and in order (the solution is read back through the
 * rows), no cell in more than DLX_CELL_HOUSES houses?  1 or 0. */
static int rdlx_rules_ok(const struct sdk_rules *rules, uint32_t n)
{
    return sdk_rules_head_ok(rules, n, DLX_RULES) && rules->cages_len == 0 &&
           sdk_rules_houses_ok(rules, n, 8 * SDK_MAX_N, DLX_CELL_HOUSES) &&
           sdk_rules_rows_cols_first(rules, n) &&
           sdk_rules_pairs_ok(rules->differ, rules->differ_len, n * n) &&
           sdk_rules_pairs_ok(rules->nonconsec, rules->nonconsec_len, n * n);
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* The pair (a, b) of global index k (differ first, then nonconsec). */
static const uint16_t *rdlx_pair_cells(const struct sdk_rules *rules, uint32_t k)
{
    return k < rules->differ_len ? rules->differ + 2 * k
                                 : rules->nonconsec + 2 * (k - rules->differ_len);
}

/* Items of the matrix and the bound on its nodes for rules at side n:
 * the headers, then for every (cell, value) an option of its cell, its
 * houses, one node per difference pair and two per non-consecutive pair of
 * the cell, and a spacer after it (plus the first spacer). */
static void rdlx_sizes(const struct sdk_rules *rules, uint32_t n, uint32_t *items, size_t *nodes)
{
    const uint32_t nn = n * n;

    *items =
        1 + nn + rules->houses_len * n + rules->differ_len * n + rules->nonconsec_len * 2 * (n - 1);
    *nodes = *items + 1 +
             (size_t)n * (2 * (size_t)nn + (size_t)rules->houses_len * n +
                          2 * (size_t)rules->differ_len + 4 * (size_t)rules->nonconsec_len);
}

/* Point the arrays of s into one block.  Returns the block (the caller
 * frees it) or NULL when out of memory. */
static void *rdlx_alloc(struct rdlx *s, const struct sdk_rules *rules, uint32_t n)
{
    const uint32_t nn = n * n, pairs = rules->differ_len + rules->nonconsec_len;
    size_t nodes, words;
    uint32_t items;
    int32_t *block;

    rdlx_sizes(rules, n, &items, &nodes);
    words = 3 * nodes + 2 * (size_t)items + 2 * (size_t)nn + (nn + 1) + 2 * (size_t)pairs +
            rules->houses_len + (size_t)nn * (DLX_CELL_HOUSES + 1) / 4 + 1;
    if (!(block = calloc(words, sizeof(int32_t))))
        return NULL;
    s->u = block;
    s->d = s->u + nodes;
    s->top = s->d + nodes;
    s->l = s->top + nodes;
    s->r = s->l + items;
    s->choice = s->r + items;
    s->item = s->choice + nn;
    s->pair_off = (uint32_t *)(s->item + nn);
    s->pair = s->pair_off + nn + 1;
    s->placed = s->pair + 2 * pairs;
    s->houses_len = (uint8_t *)(s->placed + rules->houses_len);
    s->houses = s->houses_len + nn;
    s->items_len = items;
    return block;
}

/* Fill the per-cell views of rules: each cell's houses and pairs. */
static void rdlx_index(struct rdlx *s)
{
    const struct sdk_rules *rules = s->rules;
    const uint32_t pairs = rules->differ_len + rules->nonconsec_len;

    for (uint32_t h = 0; h < rules->houses_len; h++) {
        for (uint32_t j = 0; j < s->n; j++) {
            const uint16_t c = rules->houses[h * s->n + j];
            s->houses[c * DLX_CELL_HOUSES + s->houses_len[c]++] = (uint8_t)h;
        }
    }
    for (uint32_t k = 0; k < pairs; k++) {
        const uint16_t *ab = rdlx_pair_cells(rules, k);
        s->pair_off[ab[0] + 1]++;
        s->pair_off[ab[1] + 1]++;
    }
    for (uint32_t i = 0; i < s->nn; i++)
        s->pair_off[i + 1] += s->pair_off[i];
    for (uint32_t k = 0; k < pairs; k++) { /* pair_off[i] moves to cell i's end, then back */
        const uint16_t *ab = rdlx_pair_cells(rules, k);
        s->pair[s->pair_off[ab[0]]++] = k << 1;
        s->pair[s->pair_off[ab[1]]++] = k << 1 | 1;
    }
    memmove(s->pair_off + 1, s->pair_off, sizeof(uint32_t) * s->nn);
    s->pair_off[0] = 0;
}

/* ------------------------------------------------------------------------ */
/* Building the matrix                                                       */
/* ------------------------------------------------------------------------ */

/* Record the givens in placed[] and check them against every rule.
 * Returns 0, SDK_UNSOLVABLE when two clash, SDK_FAILED on a value > n. */
static int rdlx_givens(struct rdlx *s, const uint8_t *cells)
{
    const struct sdk_rules *rules = s->rules;

    s->open_len = 0;
    for (uint32_t i = 0; i < s->nn; i++) {
        const uint32_t v = cells[i];
        if (v > s->n)
            return SDK_FAILED;
        if (v == 0) {
            s->open_len++;
            continue;
        }
        const uint32_t bit = 1u << (v - 1);
        for (uint32_t k = 0; k < s->houses_len[i]; k++) {
            uint32_t *p = &s->placed[s->houses[i * DLX_CELL_HOUSES + k]];
            if (*p & bit)
                return SDK_UNSOLVABLE;
            *p |= bit;
        }
    }
    for (uint32_t k = 0; k < rules->differ_len + rules->nonconsec_len; k++) {
        const uint16_t *ab = rdlx_pair_cells(rules, k);
        const int va = cells[ab[0]], vb = cells[ab[1]];
        if (va && vb && (k < rules->differ_len ? va == vb : abs(va - vb) == 1))
            return SDK_UNSOLVABLE;
    }
    return 0;
}

/* The values open cell i may take under the givens. */
static uint32_t rdlx_allowed(const struct rdlx *s, const uint8_t *cells, uint32_t i)
{
    uint32_t m = (1u << s->n) - 1;

    for (uint32_t k = 0; k < s->houses_len[i]; k++)
        m &= ~s->placed[s->houses[i * DLX_CELL_HOUSES + k]];
    for (uint32_t e = s->pair_off[i]; e < s->pair_off[i + 1]; e++) {
        const uint32_t k = s->pair[e] >> 1, other = rdlx_pair_cells(s->rules, k)[~s->pair[e] & 1];
        const uint32_t v = cells[other];
        if (v == 0)
            continue;
        m &= k < s->rules->differ_len ? ~(1u << (v - 1)) : ~((1u << v) | (1u << (v - 1) >> 1));
    }
    return m;
}

/* Set up the headers; link the primary items that must be covered. */
static void rdlx_headers(struct rdlx *s, const uint8_t *cells)
{
    int32_t last = 0;

    for (uint32_t x = 0; x < s->items_len; x++) {
        s->u[x] = s->d[x] = (int32_t)x;
        s->l[x] = s->r[x] = (int32_t)x;
        s->top[x] = 0;
    }
    for (uint32_t x = 1; x < 1 + s->nn + s->rules->houses_len * s->n; x++) {
        const uint32_t cell = x - 1, hv = x - 1 - s->nn;
        if (cell < s->nn ? cells[cell] != 0 : (s->placed[hv / s->n] >> (hv % s->n) & 1))
            continue;
        s->l[x] = last;
        s->r[last] = (int32_t)x;
        last = (int32_t)x;
    }
    s->r[last] = 0;
    s->l[0] = last;
}

/* Append a node for item x to the option being built. */
static void rdlx_node(struct rdlx *s, uint32_t x)
{
    const int32_t p = s->next++;

    s->top[p] = (int32_t)x;
    s->u[p] = s->u[x];
    s->d[p] = (int32_t)x;
    s->d[s->u[x]] = p;
    s->u[x] = p;
    s->top[x]++;
}

/* The secondary items option (i, v) touches through pair entry e of i. */
static void rdlx_pair_nodes(struct rdlx *s, uint32_t e, uint32_t v)
{
    const uint32_t k = s->pair[e] >> 1, is_b = s->pair[e] & 1, n = s->n;

    if (k < s->rules->differ_len) {
        rdlx_node(s, s->base_differ + k * n + v - 1);
        return;
    }
    /* "a v, b v+1" is item up(w) for w = v; "a v+1, b v" is down(w) */
    const uint32_t up = s->base_nonconsec + (k - s->rules->differ_len) * 2 * (n - 1) - 1,
                   down = up + (n - 1);
    if (!is_b && v < n)
        rdlx_node(s, up + v);
    if (!is_b && v > 1)
        rdlx_node(s, down + v - 1);
    if (is_b && v > 1)
        rdlx_node(s, up + v - 1);
    if (is_b && v < n)
        rdlx_node(s, down + v);
}

/* Build every option of the open cells.  Needs rdlx_headers() first. */
static void rdlx_options(struct rdlx *s, const uint8_t *cells)
{
    int32_t spacer = (int32_t)s->items_len, option = 0;

    s->next = spacer + 1;
    s->top[spacer] = 0;
    for (uint32_t i = 0; i < s->nn; i++) {
        if (cells[i])
            continue;
        for (uint32_t m = rdlx_allowed(s, cells, i); m; m &= m - 1) {
            const uint32_t v = (uint32_t)__builtin_ctz(m) + 1;
            const int32_t first = s->next;
            rdlx_node(s, 1 + i);
            for (uint32_t k = 0; k < s->houses_len[i]; k++)
                rdlx_node(s, 1 + s->nn + s->houses[i * DLX_CELL_HOUSES + k] * s->n + v - 1);
            for (uint32_t e = s->pair_off[i]; e < s->pair_off[i + 1]; e++)
                rdlx_pair_nodes(s, e, v);
            s->d[spacer] = s->next - 1;
            spacer = s->next++;
            s->top[spacer] = --option;
            s->u[spacer] = first;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Dancing links (DLX1)                                                      */
/* ------------------------------------------------------------------------ */

/* Remove option node p's other nodes from their items. */
static void rdlx_hide(struct rdlx *s, int32_t p)
{
    for (int32_t q = p + 1; q != p;) {
        const int32_t x = s->top[q], up = s->u[q], dn = s->d[q];
        if (x <= 0) {
            q = up;
            continue;
        }
        s->d[up] = dn;
        s->u[dn] = up;
        s->top[x]--;
        q++;
    }
}

/* Undo rdlx_hide(s, p). */
static void rdlx_unhide(struct rdlx *s, int32_t p)
{
    for (int32_t q = p - 1; q != p;) {
        const int32_t x = s->top[q], up = s->u[q], dn = s->d[q];
        if (x <= 0) {
            q = dn;
            continue;
        }
        s->d[up] = q;
        s->u[dn] = q;
        s->top[x]++;
        q--;
    }
}

/* Cover item i: hide every option in it, take it off the live list. */
static void rdlx_cover(struct rdlx *s, int32_t i)
{
    for (int32_t p = s->d[i]; p != i; p = s->d[p])
        rdlx_hide(s, p);
    s->r[s->l[i]] = s->r[i];
    s->l[s->r[i]] = s->l[i];
}

/* Undo rdlx_cover(s, i). */
static void rdlx_uncover(struct rdlx *s, int32_t i)
{
    s->r[s->l[i]] = i;
    s->l[s->r[i]] = i;
    for (int32_t p = s->u[i]; p != i; p = s->u[p])
        rdlx_unhide(s, p);
}

/* Cover the items of option node p other than its own (already covered). */
static void rdlx_commit(struct rdlx *s, int32_t p)
{
    for (int32_t q = p + 1; q != p;) {
        const int32_t x = s->top[q];
        if (x <= 0) {
            q = s->u[q];
            continue;
        }
        rdlx_cover(s, x);
        q++;
    }
}

/* Undo rdlx_commit(s, p), in the reverse order. */
static void rdlx_uncommit(struct rdlx *s, int32_t p)
{
    for (int32_t q = p - 1; q != p;) {
        const int32_t x = s->top[q];
        if (x <= 0) {
            q = s->d[q];
            continue;
        }
        rdlx_uncover(s, x);
        q--;
    }
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* The live primary item with the fewest options (the first such). */
static int32_t rdlx_choose(const struct rdlx *s)
{
    int32_t best = s->r[0], least = INT32_MAX;

    for (int32_t i = s->r[0]; i != 0 && least > 0; i = s->r[i]) {
        if (s->top[i] < least) {
            least = s->top[i];
            best = i;
        }
    }
    return best;
}

/* Write the givens plus the options chosen on levels 0..level-1 into out. */
static void rdlx_record(const struct rdlx *s, const uint8_t *cells, int32_t level, uint8_t *out)
{
    const uint32_t rows = 1 + s->nn;

    memcpy(out, cells, s->nn);
    for (int32_t k = 0; k < level; k++) {
        int32_t q = s->choice[k];
        while (s->top[q] > 0)
            q++;
        const int32_t first = s->u[q];
        out[s->top[first] - 1] = (uint8_t)(((uint32_t)s->top[first + 1] - rows) % s->n + 1);
    }
}

/* Go one level down: record a solution, or cover the best item and return
 * 1 with its first option in choice[level]; 0 means backtrack. */
static int rdlx_descend(struct rdlx *s, struct sdk_job *job, int32_t level)
{
    if (s->r[0] == 0) {
        if (job->count++ == 0)
            rdlx_record(s, job->cells, level, job->solution);
        return 0;
    }
    const int32_t i = rdlx_choose(s);
    if (s->top[i] == 0)
        return 0;
    rdlx_cover(s, i);
    s->item[level] = i;
    s->choice[level] = s->d[i];
    return 1;
}

/* Is the item branched on at level a guess: had it two options or more?
 * (Covering an item leaves its own list as it was.) */
static int rdlx_is_guess(const struct rdlx *s, int32_t level)
{
    const int32_t i = s->item[level];

    return s->d[s->d[i]] != i;
}

/* Run Algorithm X.  Returns 0 when the search is exhausted or the limit is
 * reached, else SDK_CANCELLED / SDK_TIMEDOUT, or SDK_EXHAUSTED when the
 * job's budget of guesses is spent.  job->count and guesses are up to date
 * either way. */
static int rdlx_search(struct rdlx *s, struct sdk_job *job)
{
    const uint64_t budget = sdk_job_max_guesses(job);
    uint64_t guessed = 0;
    int32_t level = 0;
    int rc = 0, fresh = rdlx_descend(s, job, 0);

    for (;;) {
        if (!fresh) { /* back up: the next option of the level above */
            if (level == 0 || job->count >= job->limit)
                break;
            level--;
            rdlx_uncommit(s, s->choice[level]);
            s->choice[level] = s->d[s->choice[level]];
        }
        if (s->choice[level] == s->item[level]) { /* every option tried */
            rdlx_uncover(s, s->item[level]);
            fresh = 0;
            continue;
        }
        if (budget && rdlx_is_guess(s, level) && guessed++ >= budget) {
            rc = SDK_EXHAUSTED;
            break;
        }
        rdlx_commit(s, s->choice[level]);
        level++;
        if ((++job->guesses & DLX_R_POLL_MASK) == 0 && (rc = sdk_job_should_stop(job)) != 0)
            break;
        fresh = rdlx_descend(s, job, level);
    }
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Entry                                                                     */
/* ------------------------------------------------------------------------ */

/* rules with the houses windows imply (sdk_rules_with_implied: primary
 * items like any house's), their table in *houses (the caller frees, NULL
 * without windows); NULL on out of memory. */
static const struct sdk_rules *rdlx_implied(const struct sdk_rules *rules, uint32_t n,
                                            struct sdk_rules *with, uint16_t **houses)
{
    *houses = NULL;
    if (!(rules->kinds & SDK_RULE_WINDOWS))
        return rules;
    *houses = malloc(((size_t)rules->houses_len + SDK_MAX_IMPLIED) * n * sizeof(uint16_t));
    return *houses ? sdk_rules_with_implied(rules, n, with, *houses) : NULL;
}

int dlx_rules_solve(struct sdk_job *job, const struct sdk_rules *given)
{
    struct sdk_rules aug;
    uint16_t *houses = NULL;
    const struct sdk_rules *rules =
        rdlx_rules_ok(given, job->n) ? rdlx_implied(given, job->n, &aug, &houses) : NULL;
    struct rdlx s = {.n = job->n, .nn = job->n * job->n, .rules = rules};
    void *block;
    int rc;

    if (!rules || !(block = rdlx_alloc(&s, rules, job->n))) {
        free(houses);
        return SDK_FAILED;
    }
    s.base_differ = 1 + s.nn + rules->houses_len * s.n;
    s.base_nonconsec = s.base_differ + rules->differ_len * s.n;
    rdlx_index(&s);
    rc = rdlx_givens(&s, job->cells);
    if (rc == 0) {
        rdlx_headers(&s, job->cells);
        rdlx_options(&s, job->cells);
        rc = sdk_job_should_stop(job);
    }
    if (rc == 0)
        rc = rdlx_search(&s, job);
    if (rc == 0)
        rc = job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
    free(block);
    free(houses);
    return rc;
}
