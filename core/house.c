/* house.c -- the house a graded hint names (house.h has the rule).
 *
 * The houses of a grid are gathered once per call into one list of cell
 * lists (struct house_set): for classic Sudoku the rows, columns and boxes
 * made here, under variant rules the host's own tables (struct sdk_rules:
 * rows, columns, boxes or regions, diagonals, windows, then the cages).
 * Each step is then read against the candidates of the position before it
 * (struct house_cands), replayed from the start as core/verify.c replays
 * them.  Everything lives on the caller's stack: about 10 KiB at 25x25.
 */
#include "core/house.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#define MAX_FIXED (3 * SDK_MAX_N + 2 + 16) /* rows, columns, boxes, diagonals, windows */

/* The houses of one grid, each a list of cells. */
struct house_set {
    uint32_t n;                                  /* side */
    uint32_t len;                                /* houses in the lists below */
    struct house_ref ref[MAX_FIXED];             /* what each fixed house is */
    const uint16_t *cells[MAX_FIXED];            /* its cells */
    uint32_t cells_len[MAX_FIXED];               /* how many (n, or a cage's) */
    const struct sdk_rules *rules;               /* the cages, or NULL */
    uint16_t classic[3 * SDK_MAX_N * SDK_MAX_N]; /* the houses of a classic grid (last: not
                                                    cleared) */
};

/* The candidates of the position a step is read against. */
struct house_cands {
    uint8_t val[SDK_MAX_CELLS];   /* 0 = open */
    uint32_t cand[SDK_MAX_CELLS]; /* bit d-1: d still possible (open cells) */
};

/* A set of cells, as bits. */
struct cell_bits {
    uint64_t w[(SDK_MAX_CELLS + 63) / 64];
};

const char *house_type_name(enum house_type t)
{
    static const char *const names[] = {"",       "row",      "column", "box",
                                        "region", "diagonal", "window", "cage"};
    return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "";
}

/* ------------------------------------------------------------ the houses */

static void set_add(struct house_set *s, enum house_type t, uint32_t index, const uint16_t *cells,
                    uint32_t len)
{
    s->ref[s->len] = (struct house_ref){.type = (uint8_t)t, .index = (uint16_t)index};
    s->cells[s->len] = cells;
    s->cells_len[s->len++] = len;
}

/* Rows, columns and boxes of a classic grid, made in s->classic. */
static void set_classic(struct house_set *s)
{
    const uint32_t n = s->n, b = sdk_box_side(n);
    uint16_t *h = s->classic;

    for (uint32_t r = 0; r < n; r++)
        for (uint32_t k = 0; k < n; k++) {
            h[r * n + k] = (uint16_t)(r * n + k);
            h[n * n + r * n + k] = (uint16_t)(k * n + r);
            h[2 * n * n + r * n + k] = (uint16_t)((r / b * b + k / b) * n + r % b * b + k % b);
        }
    for (uint32_t i = 0; i < 3 * n; i++)
        set_add(s, i < n ? HOUSE_ROW : i < 2 * n ? HOUSE_COLUMN : HOUSE_BOX, i % n, h + i * n, n);
}

/* The houses of a variant's tables: rows, columns, boxes or regions, then
 * the diagonals and windows its kinds add (core/rules.c builds them so). */
static void set_rules(struct house_set *s, const struct sdk_rules *r)
{
    const uint32_t n = s->n;
    uint32_t extra = 3 * n, diag = (r->kinds & SDK_RULE_DIAGONALS) ? 2 : 0;

    for (uint32_t i = 0; i < 3 * n; i++)
        set_add(s,
                i < n                           ? HOUSE_ROW
                : i < 2 * n                     ? HOUSE_COLUMN
                : (r->kinds & SDK_RULE_REGIONS) ? HOUSE_REGION
                                                : HOUSE_BOX,
                i % n, r->houses + (size_t)i * n, n);
    for (uint32_t i = extra; i < r->houses_len && s->len < MAX_FIXED; i++)
        set_add(s, i - extra < diag ? HOUSE_DIAGONAL : HOUSE_WINDOW,
                i - extra < diag ? i - extra : i - extra - diag, r->houses + (size_t)i * n, n);
    s->rules = r;
}

/* House k of the whole list: the fixed ones, then the cages. */
static struct house_ref house_at(const struct house_set *s, uint32_t k, const uint16_t **cells,
                                 uint32_t *len)
{
    if (k < s->len) {
        *cells = s->cells[k];
        *len = s->cells_len[k];
        return s->ref[k];
    }
    k -= s->len;
    *cells = s->rules->cage_cells + s->rules->cages[k].off;
    *len = s->rules->cages[k].len;
    return (struct house_ref){.type = HOUSE_CAGE, .index = (uint16_t)k};
}

static uint32_t houses_total(const struct house_set *s)
{
    return s->len + (s->rules ? s->rules->cages_len : 0);
}

/* The k-th house of an order: `boxes first` is box or region, row, column,
 * then the rest; else row, column, box or region, then the rest. */
static uint32_t in_order(const struct house_set *s, uint32_t k, int boxes_first)
{
    const uint32_t n = s->n;

    if (k >= 3 * n || !boxes_first)
        return k;
    return k < n ? 2 * n + k : k - n;
}

/* ------------------------------------------------------- the candidates */

static int has(const struct cell_bits *b, uint32_t cell)
{
    return (int)(b->w[cell / 64] >> (cell % 64) & 1u);
}

static void bits_add(struct cell_bits *b, uint32_t cell)
{
    b->w[cell / 64] |= UINT64_C(1) << (cell % 64);
}

/* Cell a loses mask when it pairs with cell (either way round). */
static void drop_pair(struct house_cands *c, uint32_t cell, uint32_t a, uint32_t b, uint32_t mask,
                      uint32_t cells)
{
    if (a == cell && b < cells)
        c->cand[b] &= ~mask;
    else if (b == cell && a < cells)
        c->cand[a] &= ~mask;
}

/* Place v in cell: v leaves every cell sharing a house or a cage with it,
 * or a differ pair; its neighbours leave its non-consecutive partners. */
static void place(const struct house_set *s, struct house_cands *c, uint32_t cell, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1), cells = s->n * s->n;
    const struct sdk_rules *r = s->rules;

    for (uint32_t k = 0; k < houses_total(s); k++) {
        const uint16_t *h;
        uint32_t len, j = 0;
        house_at(s, k, &h, &len);
        while (j < len && h[j] != cell)
            j++;
        for (uint32_t m = 0; j < len && m < len; m++)
            c->cand[h[m]] &= ~bit;
    }
    for (uint32_t i = 0; r && i < r->differ_len; i++)
        drop_pair(c, cell, r->differ[2 * i], r->differ[2 * i + 1], bit, cells);
    for (uint32_t i = 0; r && i < r->nonconsec_len; i++)
        drop_pair(c, cell, r->nonconsec[2 * i], r->nonconsec[2 * i + 1], bit << 1 | bit >> 1,
                  cells);
    c->val[cell] = (uint8_t)v;
    c->cand[cell] = 0;
}

static void cands_init(const struct house_set *s, struct house_cands *c, const uint8_t *start,
                       const uint8_t *marks)
{
    const uint32_t n = s->n;

    for (uint32_t i = 0; i < n * n; i++) {
        c->val[i] = 0;
        c->cand[i] = (1u << n) - 1;
    }
    for (uint32_t i = 0; i < n * n; i++)
        if (start[i] >= 1 && start[i] <= n)
            place(s, c, i, start[i]);
    for (uint32_t i = 0; marks && i < n * n; i++)
        for (uint32_t d = 1; d <= n; d++)
            if (!marks[(size_t)i * n + d - 1])
                c->cand[i] &= ~(1u << (d - 1));
}

static int pair_ok(uint32_t n, const struct sdk_cell_value *cv)
{
    return cv->cell < n * n && cv->value >= 1 && cv->value <= n;
}

static void cands_apply(const struct house_set *s, struct house_cands *c,
                        const struct house_step *st)
{
    for (uint32_t k = 0; k < st->eliminations_len; k++)
        if (pair_ok(s->n, &st->eliminations[k]))
            c->cand[st->eliminations[k].cell] &= ~(1u << (st->eliminations[k].value - 1));
    for (uint32_t k = 0; k < st->placements_len; k++)
        if (pair_ok(s->n, &st->placements[k]) && !c->val[st->placements[k].cell])
            place(s, c, st->placements[k].cell, st->placements[k].value);
}

/* ----------------------------------------------------------- the rule */

/* Rule 1: the house of a placement (cell, v). */
static struct house_ref single_house(const struct house_set *s, const struct house_cands *c,
                                     uint32_t cell, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1);
    struct house_ref box = {HOUSE_NONE, 0};

    for (uint32_t k = 0; k < s->len; k++) {
        const uint16_t *h;
        uint32_t len, at = 0, others = 0;
        struct house_ref ref = house_at(s, in_order(s, k, 1), &h, &len);
        for (uint32_t j = 0; j < len; j++) {
            at |= h[j] == cell;
            others += h[j] != cell && (c->cand[h[j]] & bit);
        }
        if (!at)
            continue;
        if (box.type == HOUSE_NONE)
            box = ref; /* the first house of the cell: its box or region */
        if (!others)
            return ref;
    }
    return box;
}

/* How many cells of h lie in b. */
static uint32_t count_in(const uint16_t *h, uint32_t len, const struct cell_bits *b)
{
    uint32_t k = 0;

    for (uint32_t j = 0; j < len; j++)
        k += (uint32_t)has(b, h[j]);
    return k;
}

/* Rule 2: every eliminated cell is a pattern cell; pat holds the pattern,
 * keep the digits the pattern cells keep after the step. */
static int subset_house(const struct house_set *s, const struct house_cands *c,
                        const struct cell_bits *pat, uint32_t pat_len, uint32_t keep,
                        struct house_ref *out)
{
    for (uint32_t k = 0; k < houses_total(s); k++) {
        const uint16_t *h;
        uint32_t len, outside = 0;
        struct house_ref ref = house_at(s, in_order(s, k, 1), &h, &len);
        if (count_in(h, len, pat) != pat_len)
            continue;
        for (uint32_t j = 0; j < len; j++)
            outside |= has(pat, h[j]) ? 0 : c->cand[h[j]] & keep;
        if (!outside) {
            *out = ref;
            return 1;
        }
    }
    return 0;
}

/* Rule 3: a naked subset; the first house holding every cell of pat and
 * of elim, or 0. */
static int cover_house(const struct house_set *s, const struct cell_bits *pat, uint32_t pat_len,
                       const struct cell_bits *elim, uint32_t elim_len, struct house_ref *out)
{
    for (uint32_t k = 0; k < houses_total(s); k++) {
        const uint16_t *h;
        uint32_t len;
        struct house_ref ref = house_at(s, in_order(s, k, 1), &h, &len);
        if (count_in(h, len, pat) == pat_len && count_in(h, len, elim) == elim_len) {
            *out = ref;
            return 1;
        }
    }
    return 0;
}

static uint32_t bits_count(uint32_t m)
{
    uint32_t k = 0;

    for (; m; m &= m - 1)
        k++;
    return k;
}

/* Rules 4 and 5 on the pattern pat (pat_len cells) and the eliminated
 * cells elim. */
static struct house_ref spread_house(const struct house_set *s, const struct cell_bits *pat,
                                     uint32_t pat_len, const struct cell_bits *elim)
{
    struct house_ref best = {HOUSE_NONE, 0};
    uint32_t best_len = 0;

    for (uint32_t k = 0; pat_len && k < houses_total(s); k++) {
        const uint16_t *h;
        uint32_t len;
        struct house_ref ref = house_at(s, in_order(s, k, 1), &h, &len);
        if (count_in(h, len, pat) == pat_len && count_in(h, len, elim) == 0)
            return ref;
    }
    for (uint32_t k = 0; k < houses_total(s); k++) {
        const uint16_t *h;
        uint32_t len;
        struct house_ref ref = house_at(s, in_order(s, k, 0), &h, &len);
        uint32_t in = count_in(h, len, pat);
        if (in > best_len) {
            best = ref;
            best_len = in;
        }
    }
    return best;
}

/* The candidates cell keeps after step st's eliminations. */
static uint32_t kept(uint32_t n, const struct house_cands *c, const struct house_step *st,
                     uint32_t cell)
{
    uint32_t m = c->cand[cell];

    for (uint32_t k = 0; k < st->eliminations_len; k++)
        if (pair_ok(n, &st->eliminations[k]) && st->eliminations[k].cell == cell)
            m &= ~(1u << (st->eliminations[k].value - 1));
    return m;
}

/* Rules 2 to 5: a step that only eliminates (or only names cells). */
static struct house_ref elimination_house(const struct house_set *s, const struct house_cands *c,
                                          const struct house_step *st)
{
    struct cell_bits pat = {{0}}, elim = {{0}};
    uint32_t pat_len = 0, elim_len = 0, outside = 0, held = 0;
    struct house_ref ref;

    for (uint32_t k = 0; k < st->cells_len; k++)
        if (st->cells[k] < s->n * s->n && !has(&pat, st->cells[k])) {
            bits_add(&pat, st->cells[k]);
            held |= c->cand[st->cells[k]];
            pat_len++;
        }
    for (uint32_t k = 0; k < st->eliminations_len; k++) {
        const struct sdk_cell_value *e = &st->eliminations[k];
        if (!pair_ok(s->n, e))
            continue;
        outside |= !has(&pat, e->cell);
        elim_len += !has(&elim, e->cell);
        bits_add(&elim, e->cell);
    }
    if (pat_len && elim_len && !outside) {
        uint32_t keep = 0;
        for (uint32_t i = 0; i < s->n * s->n; i++)
            keep |= has(&pat, i) ? kept(s->n, c, st, i) : 0;
        if (subset_house(s, c, &pat, pat_len, keep, &ref))
            return ref;
    }
    if (pat_len >= 2 && elim_len && bits_count(held) == pat_len &&
        cover_house(s, &pat, pat_len, &elim, elim_len, &ref))
        return ref;
    if (!pat_len)
        return spread_house(s, &elim, elim_len, &pat);
    return spread_house(s, &pat, pat_len, &elim);
}

int house_of_steps(uint32_t n, const struct sdk_rules *rules, const uint8_t *start,
                   const uint8_t *marks, house_step_fn *step_at, const void *ctx, uint32_t len,
                   struct house_ref *out)
{
    struct house_set s;
    struct house_cands c;
    struct house_step st;

    if (!sdk_box_side(n) || (rules && rules->n != n))
        return -EINVAL;
    memset(&s, 0, offsetof(struct house_set, classic));
    s.n = n;
    if (rules)
        set_rules(&s, rules);
    else
        set_classic(&s);
    cands_init(&s, &c, start, marks);
    for (uint32_t i = 0; i < len; i++) {
        step_at(ctx, i, &st);
        if (st.placements_len && pair_ok(n, &st.placements[0]))
            out[i] = single_house(&s, &c, st.placements[0].cell, st.placements[0].value);
        else
            out[i] = elimination_house(&s, &c, &st);
        cands_apply(&s, &c, &st);
    }
    return 0;
}
