/* rules.c -- a description of variant rules in, the ABI's tables out.
 *
 * rules_new() checks a struct rules_desc field by field (the layout string
 * of a jigsaw, the cells and sums of a killer's cages) and builds the
 * struct sdk_rules a plugin is handed: the houses (rows, columns, boxes or
 * regions, then the diagonals, then the windows), the pairs of cells that
 * must differ outside any house (anti-knight, anti-king), the orthogonal
 * pairs that must not be consecutive, and the cages.  Every array has a
 * fixed ceiling for the largest side, so one allocation holds them all
 * (about 40 KiB) and nothing a user sends can grow it.
 *
 * The checks of givens and solutions are in rules_check.c, the independent
 * count in rules_count.c; both read only the struct sdk_rules built here.
 */
#include "core/rules.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules_impl.h"

#define MAX_HOUSES    (3 * SDK_MAX_N + 2 + 16) /* rows, columns, boxes, 2 diagonals, 16 windows */
#define MAX_DIFFER    (6 * SDK_MAX_CELLS)      /* knight and diagonal-king moves forward */
#define MAX_NONCONSEC (2 * SDK_MAX_CELLS)      /* right and down neighbours */

struct rules {
    struct sdk_rules pub;                    /* the ABI view: points into the arrays */
    uint16_t houses[MAX_HOUSES * SDK_MAX_N]; /* house h at houses[h * n] */
    uint8_t region[SDK_MAX_CELLS];           /* each cell's box or region */
    uint16_t differ[2 * MAX_DIFFER];         /* pairs (a, b), a < b */
    uint16_t nonconsec[2 * MAX_NONCONSEC];   /* pairs (a, b), a < b */
    struct sdk_cage cages[SDK_MAX_CELLS];    /* at most one cage a cell */
    uint16_t cage_cells[SDK_MAX_CELLS];      /* the cages' cells, cage by cage */
};

static const char *const kind_names[] = {"diagonals", "windows",         "regions", "anti_knight",
                                         "anti_king", "non_consecutive", "cages"};

int rules__fail(char *err, size_t err_size, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

const char *rules_kind_name(uint32_t kind)
{
    for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
        if (kind == 1u << i)
            return kind_names[i];
    return NULL;
}

uint32_t rules_kind_from_name(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
        if (strlen(kind_names[i]) == len && memcmp(kind_names[i], name, len) == 0)
            return 1u << i;
    return 0;
}

char rules__symbol(uint32_t k)
{
    return (char)(k < 9 ? '1' + k : 'A' + (k - 9));
}

/* The region number of a layout symbol ('1'-'9', 'A'-'P', 'a'-'p'), or -1. */
static int symbol_value(char c)
{
    if (c >= '1' && c <= '9')
        return c - '1';
    if (c >= 'A' && c <= 'P')
        return c - 'A' + 9;
    if (c >= 'a' && c <= 'p')
        return c - 'a' + 9;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Regions: the layout string of a jigsaw, or the boxes.               */

static void boxes_fill(uint32_t n, uint8_t *region)
{
    const uint32_t b = sdk_box_side(n);

    for (uint32_t i = 0; i < n * n; i++)
        region[i] = (uint8_t)(i / n / b * b + i % n / b);
}

/* Each symbol names a region below n. */
static int regions_read(uint32_t n, const struct rules_desc *d, uint8_t *region, char *err,
                        size_t err_size)
{
    if (d->regions_len != (size_t)n * n)
        return rules__fail(err, err_size, "regions: expected %u symbols, got %zu", n * n,
                           d->regions_len);
    for (uint32_t i = 0; i < n * n; i++) {
        int k = symbol_value(d->regions[i]);

        if (k < 0 || (uint32_t)k >= n)
            return rules__fail(err, err_size,
                               "regions: symbol '%c' at r%uc%u is not a region (1-%c)",
                               d->regions[i] >= 0x20 && d->regions[i] < 0x7f ? d->regions[i] : '?',
                               i / n + 1, i % n + 1, rules__symbol(n - 1));
        region[i] = (uint8_t)k;
    }
    return 0;
}

/* Every region holds exactly n cells; names the cell that is one too many. */
static int regions_sized(uint32_t n, const uint8_t *region, char *err, size_t err_size)
{
    uint32_t seen[SDK_MAX_N] = {0};

    for (uint32_t i = 0; i < n * n; i++) {
        if (++seen[region[i]] > n)
            return rules__fail(err, err_size,
                               "regions: region %c has more than %u cells (the %uth at r%uc%u)",
                               rules__symbol(region[i]), n, n + 1, i / n + 1, i % n + 1);
    }
    return 0;
}

/* Flood the region of cell first; the cells reached are marked in reached. */
static void region_flood(uint32_t n, const uint8_t *region, uint32_t first, uint8_t *reached)
{
    uint16_t stack[SDK_MAX_CELLS];
    uint32_t top = 0;

    reached[first] = 1;
    stack[top++] = (uint16_t)first;
    while (top > 0) {
        const uint32_t c = stack[--top], r = c / n, col = c % n;
        const uint32_t next[4] = {r > 0 ? c - n : c, r + 1 < n ? c + n : c, col > 0 ? c - 1 : c,
                                  col + 1 < n ? c + 1 : c};

        for (int j = 0; j < 4; j++) {
            if (!reached[next[j]] && region[next[j]] == region[c]) {
                reached[next[j]] = 1;
                stack[top++] = (uint16_t)next[j];
            }
        }
    }
}

/* Every region is orthogonally connected: each is flooded from its first
 * cell, and the first cell left dry is named. */
static int regions_connected(uint32_t n, const uint8_t *region, char *err, size_t err_size)
{
    uint8_t reached[SDK_MAX_CELLS] = {0};
    uint32_t first[SDK_MAX_N];
    uint32_t done = 0;

    for (uint32_t i = 0; i < n * n; i++) {
        if (done & (1u << region[i]))
            continue;
        done |= 1u << region[i];
        first[region[i]] = i;
        region_flood(n, region, i, reached);
    }
    for (uint32_t i = 0; i < n * n; i++) {
        if (!reached[i]) {
            const uint32_t f = first[region[i]];

            return rules__fail(
                err, err_size,
                "regions: region %c is not connected (r%uc%u is cut off from r%uc%u)",
                rules__symbol(region[i]), i / n + 1, i % n + 1, f / n + 1, f % n + 1);
        }
    }
    return 0;
}

static int regions_build(struct rules *r, const struct rules_desc *d, char *err, size_t err_size)
{
    const uint32_t n = d->n;
    int rc;

    if (d->regions == NULL) {
        boxes_fill(n, r->region);
        return 0;
    }
    rc = regions_read(n, d, r->region, err, err_size);
    if (rc == 0)
        rc = regions_sized(n, r->region, err, err_size);
    if (rc == 0)
        rc = regions_connected(n, r->region, err, err_size);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Houses.                                                             */

static void houses_build(struct rules *r, uint32_t n, uint32_t kinds)
{
    const uint32_t b = sdk_box_side(n);
    uint16_t *h = r->houses;
    uint32_t fill[SDK_MAX_N] = {0};

    for (uint32_t i = 0; i < n * n; i++)
        h[i] = (uint16_t)i; /* rows */
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t k = 0; k < n; k++)
            h[n * n + c * n + k] = (uint16_t)(k * n + c);
    for (uint32_t i = 0; i < n * n; i++) /* boxes or regions, ascending by construction */
        h[2 * n * n + r->region[i] * n + fill[r->region[i]]++] = (uint16_t)i;
    h += 3 * n * n;
    if (kinds & SDK_RULE_DIAGONALS) {
        for (uint32_t k = 0; k < n; k++) {
            h[k] = (uint16_t)(k * n + k);
            h[n + k] = (uint16_t)(k * n + n - 1 - k);
        }
        h += 2 * n;
    }
    if (kinds & SDK_RULE_WINDOWS) {
        for (uint32_t wr = 0; wr + 1 < b; wr++)
            for (uint32_t wc = 0; wc + 1 < b; wc++, h += n)
                for (uint32_t k = 0; k < n; k++)
                    h[k] = (uint16_t)((1 + wr * (b + 1) + k / b) * n + 1 + wc * (b + 1) + k % b);
    }
    r->pub.houses_len = (uint32_t)((h - r->houses) / n);
}

/* The window holding cell, or -1 (windows start at 1 and repeat every b+1). */
static int window_of(uint32_t n, uint32_t cell)
{
    const uint32_t b = sdk_box_side(n), row = cell / n, col = cell % n;

    if (row % (b + 1) == 0 || col % (b + 1) == 0)
        return -1;
    return (int)((row / (b + 1)) * (b - 1) + col / (b + 1));
}

/* A line's part when the lines are split by the windows: 0 for the gap
 * lines 0, b+1, 2(b+1), ..., else 1 + the window row (column) it crosses. */
static uint32_t window_part(uint32_t b, uint32_t line)
{
    return line % (b + 1) == 0 ? 0 : 1 + line / (b + 1);
}

/* Windoku's implied houses.  Split the rows and the columns each into the
 * gap lines G and the windows' lines W_1 .. W_{b-1} (window_part), b parts
 * of b lines.  W_j x W_k are the windows; the 2b - 1 other blocks hold every
 * digit too: the b columns of W_k hold each digit b times, b - 1 of them in
 * the windows W_j x W_k, so G x W_k holds it once (and W_k x G, the same
 * way); the rows G hold each digit b times, b - 1 in the G x W_k, so G x G
 * holds it once.  The referee counts with them: they never change a count
 * and make a 25x25 windoku tractable.  Block (0, 0) first, then (0, k),
 * then (k, 0), each cell in row-major order. */
uint32_t rules__windows_implied(uint32_t n, uint16_t *cells)
{
    const uint32_t b = sdk_box_side(n);
    uint32_t len[RULES_MAX_IMPLIED] = {0};

    for (uint32_t cell = 0; cell < n * n; cell++) {
        const uint32_t pr = window_part(b, cell / n), pc = window_part(b, cell % n);
        uint32_t h;
        if (pr && pc)
            continue; /* a window */
        h = pr == 0 ? pc : b - 1 + pr;
        cells[h * n + len[h]++] = (uint16_t)cell;
    }
    return 2 * b - 1;
}

int rules__share_house(const struct sdk_rules *r, uint32_t a, uint32_t c)
{
    const uint32_t n = r->n;

    if (a / n == c / n || a % n == c % n || r->region[a] == r->region[c])
        return 1;
    if (r->kinds & SDK_RULE_DIAGONALS) {
        if (a / n == a % n && c / n == c % n)
            return 1;
        if (a / n + a % n == n - 1 && c / n + c % n == n - 1)
            return 1;
    }
    if (r->kinds & SDK_RULE_WINDOWS) {
        int w = window_of(n, a);

        if (w >= 0 && w == window_of(n, c))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Pairs: differ (anti-knight, anti-king) and non-consecutive.          */

static void differ_build(struct rules *r, uint32_t n, uint32_t kinds)
{
    /* Forward moves only (b > a), in ascending order of b for each a. */
    static const struct {
        int dr, dc;
        uint32_t kind;
    } moves[] = {
        {1, -2, SDK_RULE_ANTI_KNIGHT}, {1, -1, SDK_RULE_ANTI_KING},   {1, 1, SDK_RULE_ANTI_KING},
        {1, 2, SDK_RULE_ANTI_KNIGHT},  {2, -1, SDK_RULE_ANTI_KNIGHT}, {2, 1, SDK_RULE_ANTI_KNIGHT},
    };
    uint32_t len = 0;

    for (uint32_t a = 0; a < n * n; a++) {
        for (size_t m = 0; m < sizeof(moves) / sizeof(moves[0]); m++) {
            const int row = (int)(a / n) + moves[m].dr, col = (int)(a % n) + moves[m].dc;
            uint32_t c;

            if (!(kinds & moves[m].kind) || row >= (int)n || col < 0 || col >= (int)n)
                continue;
            c = (uint32_t)row * n + (uint32_t)col;
            if (rules__share_house(&r->pub, a, c))
                continue;
            r->differ[2 * len] = (uint16_t)a;
            r->differ[2 * len + 1] = (uint16_t)c;
            len++;
        }
    }
    r->pub.differ_len = len;
}

static void nonconsec_build(struct rules *r, uint32_t n)
{
    uint32_t len = 0;

    for (uint32_t a = 0; a < n * n; a++) {
        if (a % n + 1 < n) {
            r->nonconsec[2 * len] = (uint16_t)a;
            r->nonconsec[2 * len + 1] = (uint16_t)(a + 1);
            len++;
        }
        if (a / n + 1 < n) {
            r->nonconsec[2 * len] = (uint16_t)a;
            r->nonconsec[2 * len + 1] = (uint16_t)(a + n);
            len++;
        }
    }
    r->pub.nonconsec_len = len;
}

/* ------------------------------------------------------------------ */
/* Cages.                                                              */

/* One cage's size and sum; i is its 0-based number (messages say i+1). */
static int cage_shape_ok(uint32_t n, const struct rules_desc_cage *c, uint32_t i, uint32_t first,
                         char *err, size_t err_size)
{
    uint64_t lo, hi;

    if (c->len == 0)
        return rules__fail(err, err_size, "cages: cage %u has no cell", i + 1);
    if (c->len > n)
        return rules__fail(err, err_size, "cages: cage %u has %u cells, more than %u (from r%uc%u)",
                           i + 1, c->len, n, first / n + 1, first % n + 1);
    lo = (uint64_t)c->len * (c->len + 1) / 2;
    hi = (uint64_t)c->len * (2 * n - c->len + 1) / 2;
    if (c->sum < lo || c->sum > hi)
        return rules__fail(err, err_size,
                           "cages: cage %u (from r%uc%u) sums to %llu, impossible for %u cell%s "
                           "(%llu-%llu)",
                           i + 1, first / n + 1, first % n + 1, (unsigned long long)c->sum, c->len,
                           c->len == 1 ? "" : "s", (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

/* The cells of cage i: in range, each in one cage only.  owner[] holds
 * 1 + the cage of each cell seen so far. */
static int cage_cells_ok(const struct rules_desc *d, uint32_t i, uint16_t *owner, char *err,
                         size_t err_size)
{
    const uint32_t n = d->n;
    const struct rules_desc_cage *c = &d->cages[i];

    for (uint32_t k = 0; k < c->len; k++) {
        const uint64_t cell = d->cage_cells[c->off + k];

        if (cell >= (uint64_t)n * n)
            return rules__fail(err, err_size, "cages: cage %u has cell %llu, out of range (0-%u)",
                               i + 1, (unsigned long long)cell, n * n - 1);
        if (owner[cell] == i + 1)
            return rules__fail(err, err_size, "cages: cage %u lists r%uc%u twice", i + 1,
                               (uint32_t)cell / n + 1, (uint32_t)cell % n + 1);
        if (owner[cell] != 0)
            return rules__fail(err, err_size, "cages: cell r%uc%u is in cages %u and %u",
                               (uint32_t)cell / n + 1, (uint32_t)cell % n + 1, owner[cell], i + 1);
        owner[cell] = (uint16_t)(i + 1);
    }
    return 0;
}

static int cages_build(struct rules *r, const struct rules_desc *d, char *err, size_t err_size)
{
    const uint32_t n = d->n;
    uint16_t owner[SDK_MAX_CELLS] = {0};
    uint32_t len = 0;

    if (d->cages_len > n * n)
        return rules__fail(err, err_size, "cages: %u cages, more than the %u cells", d->cages_len,
                           n * n);
    for (uint32_t i = 0; i < d->cages_len; i++) {
        const struct rules_desc_cage *c = &d->cages[i];
        int rc;

        if (c->off > d->cage_cells_len || c->len > d->cage_cells_len - c->off)
            return rules__fail(err, err_size, "cages: cage %u runs past its cell list", i + 1);
        rc = cage_cells_ok(d, i, owner, err, err_size);
        if (rc == 0)
            rc =
                cage_shape_ok(n, c, i, c->len ? (uint32_t)d->cage_cells[c->off] : 0, err, err_size);
        if (rc < 0)
            return rc;
        r->cages[i] = (struct sdk_cage){(uint32_t)c->sum, len, c->len, 0};
        for (uint32_t k = 0; k < c->len; k++)
            r->cage_cells[len++] = (uint16_t)d->cage_cells[c->off + k];
    }
    r->pub.cages_len = d->cages_len;
    r->pub.cage_cells_len = len;
    return 0;
}

/* ------------------------------------------------------------------ */

int rules_new(const struct rules_desc *desc, struct rules **out, char *err, size_t err_size)
{
    struct rules *r = NULL;
    uint32_t kinds;
    int rc;

    *out = NULL;
    if (sdk_box_side(desc->n) == 0)
        return rules__fail(err, err_size, "unsupported side %u: a grid is 4x4, 9x9, 16x16 or 25x25",
                           desc->n);
    if (desc->flags & ~RULES_FLAGS_BOOL)
        return rules__fail(err, err_size, "rules: unknown rule flags 0x%x",
                           desc->flags & ~RULES_FLAGS_BOOL);
    kinds = desc->flags | (desc->regions ? SDK_RULE_REGIONS : 0) |
            (desc->cages_len ? SDK_RULE_CAGES : 0);
    if (kinds == 0)
        return 0;
    r = calloc(1, sizeof(*r));
    if (r == NULL)
        return -ENOMEM;
    r->pub = (struct sdk_rules){.size = sizeof(struct sdk_rules),
                                .kinds = kinds,
                                .n = desc->n,
                                .houses = r->houses,
                                .region = r->region,
                                .differ = r->differ,
                                .nonconsec = r->nonconsec,
                                .cages = r->cages,
                                .cage_cells = r->cage_cells};
    rc = regions_build(r, desc, err, err_size);
    if (rc == 0)
        rc = cages_build(r, desc, err, err_size);
    if (rc < 0)
        goto fail;
    houses_build(r, desc->n, kinds);
    differ_build(r, desc->n, kinds);
    if (kinds & SDK_RULE_NON_CONSECUTIVE)
        nonconsec_build(r, desc->n);
    *out = r;
    return 0;
fail:
    free(r);
    return rc;
}

struct rules *rules__new_classic(uint32_t n)
{
    struct rules *r = calloc(1, sizeof(*r));

    if (r == NULL)
        return NULL;
    r->pub = (struct sdk_rules){.size = sizeof(struct sdk_rules),
                                .n = n,
                                .houses = r->houses,
                                .region = r->region,
                                .differ = r->differ,
                                .nonconsec = r->nonconsec,
                                .cages = r->cages,
                                .cage_cells = r->cage_cells};
    boxes_fill(n, r->region);
    houses_build(r, n, 0);
    return r;
}

void rules_free(struct rules *r)
{
    free(r);
}

const struct sdk_rules *rules_sdk(const struct rules *r)
{
    return r ? &r->pub : NULL;
}

int rules_regions_string(const struct sdk_rules *r, char *buf, size_t buf_size)
{
    const uint32_t n = r->n;

    if (buf_size < (size_t)n * n + 1)
        return -ENOSPC;
    for (uint32_t i = 0; i < n * n; i++)
        buf[i] = rules__symbol(r->region[i]);
    buf[n * n] = '\0';
    return 0;
}
