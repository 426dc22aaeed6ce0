/* rules.c -- a variant's rules as the sat plugin reads them.
 *
 * The host builds and checks struct sdk_rules (include/sudoku/plugin.h);
 * the plugin still looks before it reads (sat_rules_ok), so a bad table
 * fails the job instead of reading out of bounds.  sat_links_new() turns
 * the rules' pairs and cages into per-cell lists, which is how singles.c
 * strikes a placed digit from a cell's linked cells.  sat_cage_combos()
 * lists the digit sets a cage can hold, for singles.c (candidates) and
 * sat.c (the clauses).
 *
 * Nothing here keeps state; the links block is the caller's to free.
 */
#include "sat.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <sudoku/plugin_rules.h>

/* ------------------------------------------------------------------------ */
/* Checks                                                                    */
/* ------------------------------------------------------------------------ */

/* The checks themselves are the SDK's (<sudoku/plugin_rules.h>); what is
 * sat's own is the bound on houses (SAT_UNITS, SAT_CELL_UNITS a cell) and
 * rows and columns first, in order: sat.c relies on them. */
int sat_rules_ok(const struct sdk_rules *rules, uint32_t n)
{
    return sdk_rules_head_ok(rules, n, SDK_RULE_ALL) &&
           sdk_rules_houses_ok(rules, n, SAT_UNITS, SAT_CELL_UNITS) &&
           sdk_rules_rows_cols_first(rules, n) &&
           sdk_rules_pairs_ok(rules->differ, rules->differ_len, n * n) &&
           sdk_rules_pairs_ok(rules->nonconsec, rules->nonconsec_len, n * n) &&
           sdk_rules_cages_ok(rules, n);
}

/* ------------------------------------------------------------------------ */
/* Links                                                                     */
/* ------------------------------------------------------------------------ */

/* Call add(ctx, a, b, kind) for every link of rules, once per pair. */
static void links_walk(const struct sdk_rules *rules,
                       void (*add)(void *ctx, uint16_t a, uint16_t b, uint16_t kind), void *ctx)
{
    for (uint32_t k = 0; k < rules->differ_len; k++)
        add(ctx, rules->differ[2 * k], rules->differ[2 * k + 1], SAT_LINK_DIFFER);
    for (uint32_t k = 0; k < rules->nonconsec_len; k++)
        add(ctx, rules->nonconsec[2 * k], rules->nonconsec[2 * k + 1], SAT_LINK_NONCONSEC);
    for (uint32_t k = 0; k < rules->cages_len; k++) {
        const uint16_t *cells = rules->cage_cells + rules->cages[k].off;
        for (uint32_t a = 0; a < rules->cages[k].len; a++)
            for (uint32_t b = a + 1; b < rules->cages[k].len; b++)
                add(ctx, cells[a], cells[b], SAT_LINK_CAGE);
    }
}

/* links_walk() callback: count both ends' links (ctx: uint32_t[n*n]). */
static void links_count(void *ctx, uint16_t a, uint16_t b, uint16_t kind)
{
    uint32_t *count = ctx;

    (void)kind;
    count[a]++;
    count[b]++;
}

/* links_walk() callback: store both ends' links (ctx: the block, whose off[]
 * holds each cell's next free slot while filling). */
static void links_store(void *ctx, uint16_t a, uint16_t b, uint16_t kind)
{
    struct sat_links *l = ctx;

    l->link[l->off[a]++] = (struct sat_link){.cell = b, .kind = kind};
    l->link[l->off[b]++] = (struct sat_link){.cell = a, .kind = kind};
}

/* Point the arrays of l into the memory after it. */
static void links_layout(struct sat_links *l, uint32_t nn, size_t total, uint32_t cages)
{
    l->off = (uint32_t *)(l + 1);
    l->link = (struct sat_link *)(l->off + nn + 1);
    l->cage_of = (int32_t *)(l->link + total);
    l->sum_left = l->cage_of + nn;
    l->open_left = (uint32_t *)(l->sum_left + cages);
}

struct sat_links *sat_links_new(const struct sdk_rules *rules)
{
    const uint32_t nn = rules->n * rules->n;
    uint32_t count[SDK_MAX_CELLS] = {0};
    size_t total = 0;
    struct sat_links *l;

    links_walk(rules, links_count, count);
    for (uint32_t i = 0; i < nn; i++)
        total += count[i];
    l = malloc(sizeof(*l) + sizeof(uint32_t) * (nn + 1) + sizeof(struct sat_link) * total +
               sizeof(int32_t) * nn + (sizeof(int32_t) + sizeof(uint32_t)) * rules->cages_len);
    if (!l)
        return NULL;
    links_layout(l, nn, total, rules->cages_len);
    l->off[0] = 0; /* off[i]: start of cell i, moved to its end while storing */
    for (uint32_t i = 0; i < nn; i++)
        l->off[i + 1] = l->off[i] + count[i];
    links_walk(rules, links_store, l);
    memmove(l->off + 1, l->off, sizeof(uint32_t) * nn);
    l->off[0] = 0;
    for (uint32_t i = 0; i < nn; i++)
        l->cage_of[i] = -1;
    for (uint32_t k = 0; k < rules->cages_len; k++) {
        const struct sdk_cage *c = &rules->cages[k];
        for (uint32_t j = 0; j < c->len; j++)
            l->cage_of[rules->cage_cells[c->off + j]] = (int32_t)k;
        l->sum_left[k] = (int32_t)c->sum;
        l->open_left[k] = c->len;
    }
    return l;
}

/* ------------------------------------------------------------------------ */
/* Cage combinations                                                         */
/* ------------------------------------------------------------------------ */

/* One enumeration of sat_cage_combos(). */
struct combo_walk {
    uint32_t *out;
    uint32_t cap;
    uint32_t count;
};

/* The sum of the k lowest (is_high 0) or highest digits in avail; avail
 * holds at least k. */
static int32_t combo_extreme(uint32_t avail, uint32_t k, int is_high)
{
    int32_t sum = 0;

    for (; k; k--) {
        const uint32_t d =
            is_high ? 31u - (uint32_t)__builtin_clz(avail) : (uint32_t)__builtin_ctz(avail);
        sum += (int32_t)d + 1;
        avail &= ~(1u << d);
    }
    return sum;
}

/* Choose k more digits from avail adding up to sum, chosen so far. */
static void combo_step(struct combo_walk *w, uint32_t avail, uint32_t k, int32_t sum,
                       uint32_t chosen)
{
    if (w->count > w->cap)
        return;
    if (k == 0) {
        if (sum == 0 && w->count++ < w->cap)
            w->out[w->count - 1] = chosen;
        return;
    }
    if ((uint32_t)__builtin_popcount(avail) < k || sum < combo_extreme(avail, k, 0) ||
        sum > combo_extreme(avail, k, 1))
        return;
    const uint32_t low = avail & -avail;
    combo_step(w, avail & ~low, k - 1, sum - (int32_t)__builtin_ctz(low) - 1, chosen | low);
    combo_step(w, avail & ~low, k, sum, chosen);
}

uint32_t sat_cage_combos(uint32_t avail, uint32_t k, int32_t sum, uint32_t *out, uint32_t cap)
{
    struct combo_walk w = {.out = out, .cap = cap, .count = 0};

    combo_step(&w, avail, k, sum, 0);
    return w.count;
}
