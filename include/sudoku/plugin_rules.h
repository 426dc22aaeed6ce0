/* plugin_rules.h -- a plugin's own look at struct sdk_rules before it reads.
 *
 * The host builds and checks the rules table it hands a plugin
 * (struct sdk_rules in <sudoku/plugin.h>), but a plugin is a separate
 * shared object that trusts nothing it reads: a bad table must fail the
 * job (SDK_FAILED), never read out of bounds.  These are the checks every
 * plugin that takes rules needs, once, as static inline functions: they
 * link against nothing and keep no state, so any number of threads may
 * call them.  What a plugin needs beyond them (a bound on the houses a
 * cell is in, rows and columns first) stays in the plugin.
 *
 * Each returns 1 when the part it looks at is sound, else 0.  Installed
 * with the SDK as <sudoku/plugin_rules.h>; strict C11, C17 and C++17 like
 * plugin.h (ctest header_std).
 */
#ifndef SUDOKU_PLUGIN_RULES_H
#define SUDOKU_PLUGIN_RULES_H

#include <sudoku/plugin.h>

/* Does rules carry this plugin's struct at side n, with some rule in
 * force and only kinds among allowed (SDK_RULE_* bits)? */
static inline int sdk_rules_head_ok(const struct sdk_rules *rules, uint32_t n, uint32_t allowed)
{
    return rules->size >= sizeof(struct sdk_rules) && rules->n == n && rules->kinds != 0 &&
           (rules->kinds & ~allowed) == 0;
}

/* Are the len pairs at pairs (NULL only when len is 0) each a < b < nn,
 * nn the grid's cells? */
static inline int sdk_rules_pairs_ok(const uint16_t *pairs, uint32_t len, uint32_t nn)
{
    if ((len && !pairs) || len > nn * nn)
        return 0;
    for (uint32_t k = 0; k < len; k++)
        if (pairs[2 * k] >= pairs[2 * k + 1] || pairs[2 * k + 1] >= nn)
            return 0;
    return 1;
}

/* Are the house table's cells (houses_len houses of n cells) inside the
 * grid, houses_len between 3n (rows, columns, boxes) and max_houses, no
 * cell in more than max_in_cell houses (at most 255)? */
static inline int sdk_rules_houses_ok(const struct sdk_rules *rules, uint32_t n,
                                      uint32_t max_houses, uint32_t max_in_cell)
{
    uint8_t in[SDK_MAX_CELLS] = {0};

    if (!rules->houses || n > SDK_MAX_N || rules->houses_len < 3 * n ||
        rules->houses_len > max_houses)
        return 0;
    for (uint32_t k = 0; k < rules->houses_len * n; k++) {
        const uint16_t c = rules->houses[k];
        if (c >= n * n || in[c] >= max_in_cell)
            return 0;
        in[c]++;
    }
    return 1;
}

/* Are the first 2n houses the rows, then the columns, each in order (the
 * host's layout: a plugin may read its solution back through them)?
 * Only after sdk_rules_houses_ok(). */
static inline int sdk_rules_rows_cols_first(const struct sdk_rules *rules, uint32_t n)
{
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            if (rules->houses[a * n + b] != a * n + b ||
                rules->houses[(n + a) * n + b] != b * n + a)
                return 0;
    return 1;
}

/* Are the cages sound at side n: each 1..n cells inside cage_cells, no
 * cell in two, a sum that n digits can reach?  No cages is sound. */
static inline int sdk_rules_cages_ok(const struct sdk_rules *rules, uint32_t n)
{
    uint8_t seen[SDK_MAX_CELLS] = {0};

    if (rules->cages_len == 0)
        return 1;
    if (!rules->cages || !rules->cage_cells || n > SDK_MAX_N || rules->cages_len > n * n ||
        rules->cage_cells_len > n * n)
        return 0;
    for (uint32_t k = 0; k < rules->cages_len; k++) {
        const struct sdk_cage *c = &rules->cages[k];
        if (c->len == 0 || c->len > n || c->off > rules->cage_cells_len ||
            c->len > rules->cage_cells_len - c->off || c->sum > n * (n + 1) / 2)
            return 0;
        for (uint32_t j = 0; j < c->len; j++) {
            const uint16_t cell = rules->cage_cells[c->off + j];
            if (cell >= n * n || seen[cell]++)
                return 0;
        }
    }
    return 1;
}

/* Windoku's implied houses at side n (b = its box side): the 2b - 1
 * blocks that its windows leave, each of which holds every digit too, n
 * cells each (row-major indices) into cells (room for
 * SDK_MAX_IMPLIED * n); returns how many.  The lines split two ways: the
 * boxes' bands, and the windows' lines W_k = k(b+1)+1 .. k(b+1)+b (k < b-1)
 * with the gap lines G = {0, b+1, 2(b+1), ...}.  The blocks W_j x W_k are
 * the windows; the rest, G x G, G x W_k and W_k x G, are implied: the
 * columns W_k hold each digit b times, b - 1 of them in the windows W_j x
 * W_k, so G x W_k holds it once; then the rows G hold it b times, b - 1 of
 * them in the G x W_k, so G x G holds it once.  A plugin may add them to
 * the houses it searches under SDK_RULE_WINDOWS: they never change a
 * count, and they prune: bitmask fills an empty 25x25 windoku grid in
 * 0.06 s with them, and none in 90 s without. */
#define SDK_MAX_IMPLIED 9 /* 2b - 1 for b = 5 */
static inline uint32_t sdk_windows_implied(uint32_t n, uint16_t *cells)
{
    const uint32_t b = sdk_box_side(n);
    uint32_t len = 0;

    for (uint32_t a = 0; a < b; a++)
        for (uint32_t c = 0; c < b; c++) {
            if (a && c)
                continue; /* W_{a-1} x W_{c-1}: a window */
            for (uint32_t k = 0; k < n; k++) {
                const uint32_t i = k / b, j = k % b;
                const uint32_t row = a ? (a - 1) * (b + 1) + 1 + i : i * (b + 1);
                const uint32_t col = c ? (c - 1) * (b + 1) + 1 + j : j * (b + 1);
                cells[len * n + k] = (uint16_t)(row * n + col);
            }
            len++;
        }
    return len;
}

/* rules with the houses its windows imply after its own: a copy of the
 * table into houses (room for (rules->houses_len + SDK_MAX_IMPLIED) * n
 * entries, the caller's) and *with pointing at it, returned; rules itself,
 * untouched, without windows.  For a plugin that searches the houses of a
 * table as they come (sat's clauses, dlx's items).  Only after
 * sdk_rules_houses_ok(). */
static inline const struct sdk_rules *sdk_rules_with_implied(const struct sdk_rules *rules,
                                                             uint32_t n, struct sdk_rules *with,
                                                             uint16_t *houses)
{
    const uint32_t given = rules->houses_len * n;

    if (!(rules->kinds & SDK_RULE_WINDOWS))
        return rules;
    for (uint32_t k = 0; k < given; k++)
        houses[k] = rules->houses[k];
    *with = *rules;
    with->houses = houses;
    with->houses_len += sdk_windows_implied(n, houses + given);
    return with;
}

#endif /* SUDOKU_PLUGIN_RULES_H */
