/* test_rules.c -- the variant rules (core/rules): built, validated, checked, counted.
 *
 * The golden puzzles of tests/data/variants.txt drive most of it: each
 * line's rules are built, its givens accepted, its solutions counted by
 * rules_count (limit 2) and every solution found or given checked against
 * every rule by rules_check_solution; a solution broken one way must then
 * be refused.  Tables drive the rest: every malformed description must be
 * refused with a message naming the rule and the cell; every rule broken
 * in the givens must be named; the built tables must hold the houses and
 * pairs the ABI promises, checked cell by cell against the geometry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sudoku/plugin_rules.h>

#include "core/rules.h"
#include "core/rules_impl.h"

#define MAX_CAGES 700

/* One parsed line of variants.txt, and the storage its description points into. */
struct golden {
    char name[64];
    char regions[SDK_MAX_CELLS + 1];
    struct rules_desc_cage cages[MAX_CAGES];
    uint64_t cage_cells[SDK_MAX_CELLS * 2];
    struct rules_desc desc;
    uint8_t puzzle[SDK_MAX_CELLS];
    uint8_t solution[SDK_MAX_CELLS];
    int has_solution;
    unsigned count;
};

static uint8_t symbol_value(char c)
{
    if (c >= '1' && c <= '9')
        return (uint8_t)(c - '0');
    if (c >= 'A' && c <= 'P')
        return (uint8_t)(c - 'A' + 10);
    return 0;
}

static unsigned side_of(size_t cells)
{
    for (unsigned n = 4; n <= 25; n++)
        if (n * n == cells)
            return n;
    return 0;
}

/* "sum:c,c,c;sum:c,c" into g's cages. */
static void parse_cages(struct golden *g, char *s)
{
    uint32_t cells = 0;

    for (char *part = strtok(s, ";"); part; part = strtok(NULL, ";")) {
        char *colon = strchr(part, ':');
        struct rules_desc_cage *c = &g->cages[g->desc.cages_len++];

        assert_non_null(colon);
        c->sum = strtoull(part, NULL, 10);
        c->off = cells;
        for (char *p = colon + 1; *p;) {
            g->cage_cells[cells++] = strtoull(p, &p, 10);
            c->len++;
            if (*p == ',')
                p++;
        }
    }
    g->desc.cage_cells = g->cage_cells;
    g->desc.cage_cells_len = cells;
    g->desc.cages = g->cages;
}

static void parse_rules(struct golden *g, char *rules)
{
    char *save = NULL;

    for (char *t = strtok_r(rules, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (strncmp(t, "regions=", 8) == 0) {
            snprintf(g->regions, sizeof(g->regions), "%s", t + 8);
            g->desc.regions = g->regions;
            g->desc.regions_len = strlen(g->regions);
        } else if (strncmp(t, "cages=", 6) == 0) {
            parse_cages(g, t + 6);
        } else if (strcmp(t, "classic") != 0) {
            uint32_t k = rules_kind_from_name(t, strlen(t));

            assert_true(k & RULES_FLAGS_BOOL);
            g->desc.flags |= k;
        }
    }
}

/* Parse one data line into g; returns 0, or -1 for a comment or blank line. */
static int parse_golden(char *line, struct golden *g)
{
    char *f[5] = {NULL};
    int k = 0;

    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0')
        return -1;
    memset(g, 0, sizeof(*g));
    for (char *p = line; k < 5; k++) {
        f[k] = p;
        p = strchr(p, '|');
        if (p)
            *p++ = '\0';
        else
            break;
    }
    assert_int_equal(k, 4);
    snprintf(g->name, sizeof(g->name), "%.63s", f[0]);
    g->desc.n = side_of(strlen(f[2]));
    assert_int_not_equal(g->desc.n, 0);
    for (unsigned i = 0; i < g->desc.n * g->desc.n; i++)
        g->puzzle[i] = symbol_value(f[2][i]);
    g->count = (unsigned)atoi(f[3]);
    g->has_solution = strcmp(f[4], "-") != 0;
    for (unsigned i = 0; g->has_solution && i < g->desc.n * g->desc.n; i++)
        g->solution[i] = symbol_value(f[4][i]);
    parse_rules(g, f[1]);
    return 0;
}

/* A broken copy of a valid solution must be refused: two cells of row 0 swapped. */
static void assert_broken_refused(const struct sdk_rules *r, unsigned n, const uint8_t *sol)
{
    uint8_t bad[SDK_MAX_CELLS];
    char err[256] = "";

    memcpy(bad, sol, n * n);
    bad[0] = sol[1];
    bad[1] = sol[0];
    assert_int_equal(rules_check_solution(r, n, NULL, bad, err, sizeof(err)), -EINVAL);
    assert_true(err[0] != '\0');
}

/* Do the len houses of n cells at cells each hold every digit of grid? */
static int holds_every_digit(uint32_t n, const uint16_t *cells, uint32_t len, const uint8_t *grid)
{
    for (uint32_t h = 0; h < len; h++) {
        uint32_t seen = 0;
        for (uint32_t k = 0; k < n; k++)
            seen |= 1u << (grid[cells[h * n + k]] - 1);
        if (seen != (n == 32 ? ~0u : (1u << n) - 1))
            return 0;
    }
    return 1;
}

static void check_golden(struct golden *g)
{
    const unsigned n = g->desc.n;
    struct rules *rules = NULL;
    const struct sdk_rules *r;
    uint8_t found[SDK_MAX_CELLS];
    uint64_t count = 99;
    char err[256] = "";

    if (rules_new(&g->desc, &rules, err, sizeof(err)) != 0)
        fail_msg("%s: %s", g->name, err);
    r = rules_sdk(rules);
    assert_int_equal(rules_check_givens(r, n, g->puzzle, err, sizeof(err)), 0);
    assert_int_equal(rules_count(r, n, g->puzzle, 2, 0, found, &count), 0);
    if (count != g->count)
        fail_msg("%s: counted %llu, want %u", g->name, (unsigned long long)count, g->count);
    if (count > 0 && rules_check_solution(r, n, g->puzzle, found, err, sizeof(err)) != 0)
        fail_msg("%s: found solution refused: %s", g->name, err);
    if (g->has_solution) {
        if (rules_check_solution(r, n, g->puzzle, g->solution, err, sizeof(err)) != 0)
            fail_msg("%s: golden solution refused: %s", g->name, err);
        assert_memory_equal(found, g->solution, n * n);
        assert_broken_refused(r, n, g->solution);
    }
    if (g->has_solution && (g->desc.flags & SDK_RULE_WINDOWS)) { /* test_windows_implied */
        uint16_t implied[RULES_MAX_IMPLIED * SDK_MAX_N];
        uint32_t len = rules__windows_implied(n, implied);
        assert_true(holds_every_digit(n, implied, len, g->solution));
    }
    rules_free(rules);
}

static void test_golden(void **state)
{
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/variants.txt", "r");
    static struct golden g;
    char line[8192];
    uint32_t kinds = 0;
    int lines = 0;

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        if (parse_golden(line, &g) < 0)
            continue;
        check_golden(&g);
        kinds |= g.desc.flags | (g.desc.regions ? SDK_RULE_REGIONS : 0) |
                 (g.desc.cages_len ? SDK_RULE_CAGES : 0);
        lines++;
    }
    fclose(f);
    assert_true(lines >= 20);
    assert_int_equal(kinds, SDK_RULE_ALL); /* every rule has a golden puzzle */
}

/* ------------------------------------------------------------------ */
/* Malformed descriptions.                                             */

#define BOXES9 "111222333111222333111222333444555666444555666444555666777888999777888999777888999"

struct bad_case {
    const char *regions; /* or NULL */
    const char *cages;   /* "sum:c,c;..." or NULL */
    unsigned n;          /* side */
    const char *want;    /* exact message */
};

static const struct bad_case bad_cases[] = {
    /* a layout one symbol short */
    {BOXES9 "", NULL, 16, "regions: expected 256 symbols, got 81"},
    /* a symbol that is no region of a 9x9 */
    {"A11222333111222333111222333444555666444555666444555666777888999777888999777888999", NULL, 9,
     "regions: symbol 'A' at r1c1 is not a region (1-9)"},
    /* a symbol that is nothing at all */
    {"111222333111222333111222333444555666444555666444555666777888999777888999777888*99", NULL, 9,
     "regions: symbol '*' at r9c7 is not a region (1-9)"},
    /* region 1 takes a cell of region 2: ten cells */
    {"111122333111222333111222333444555666444555666444555666777888999777888999777888999", NULL, 9,
     "regions: region 1 has more than 9 cells (the 10th at r3c3)"},
    /* regions 1 and 9 swap a corner: both cut in two */
    {"911222333111222333111222333444555666444555666444555666777888999777888999777888991", NULL, 9,
     "regions: region 9 is not connected (r7c7 is cut off from r1c1)"},
    /* 4x4: region 1's r2c4 touches it only by a corner */
    {"1122122143343434", NULL, 4, "regions: region 1 is not connected (r2c4 is cut off from r1c1)"},
    /* a cage cell past the grid */
    {NULL, "3:0,81", 9, "cages: cage 1 has cell 81, out of range (0-80)"},
    /* a cell in two cages */
    {NULL, "3:0,1;10:2,11;7:11,12", 9, "cages: cell r2c3 is in cages 2 and 3"},
    /* a cage naming a cell twice */
    {NULL, "4:5,5", 9, "cages: cage 1 lists r1c6 twice"},
    /* sum too big for two cells */
    {NULL, "18:0,1", 9, "cages: cage 1 (from r1c1) sums to 18, impossible for 2 cells (3-17)"},
    /* sum too small for three cells */
    {NULL, "3:0,1;5:2,3,4", 9,
     "cages: cage 2 (from r1c3) sums to 5, impossible for 3 cells (6-24)"},
    /* a single cell above the side */
    {NULL, "5:3", 4, "cages: cage 1 (from r1c4) sums to 5, impossible for 1 cell (1-4)"},
    /* an empty cage */
    {NULL, "3:0,1;0:", 9, "cages: cage 2 has no cell"},
    /* more cells than digits */
    {NULL, "15:0,1,2,3,4", 4, "cages: cage 1 has 5 cells, more than 4 (from r1c1)"},
    /* a side that does not exist */
    {NULL, "3:0,1", 7, "unsupported side 7: a grid is 4x4, 9x9, 16x16 or 25x25"},
};

static void test_bad_desc(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
        static struct golden g;
        char cages[256];
        struct rules *r = (struct rules *)&g; /* must be reset to NULL */
        char err[256] = "";

        memset(&g, 0, sizeof(g));
        g.desc.n = bad_cases[i].n;
        if (bad_cases[i].regions) {
            g.desc.regions = bad_cases[i].regions;
            g.desc.regions_len = strlen(bad_cases[i].regions);
        }
        if (bad_cases[i].cages) {
            snprintf(cages, sizeof(cages), "%s", bad_cases[i].cages);
            parse_cages(&g, cages);
        }
        assert_int_equal(rules_new(&g.desc, &r, err, sizeof(err)), -EINVAL);
        assert_null(r);
        assert_string_equal(err, bad_cases[i].want);
    }
}

/* Flags outside the boolean rules are a caller's mistake, refused too. */
static void test_bad_flags(void **state)
{
    struct rules_desc d = {.n = 9, .flags = SDK_RULE_CAGES};
    struct rules *r = NULL;
    char err[128];

    (void)state;
    assert_int_equal(rules_new(&d, &r, err, sizeof(err)), -EINVAL);
    assert_null(r);
    d.flags = 0; /* nothing at all: classic, no tables */
    assert_int_equal(rules_new(&d, &r, err, sizeof(err)), 0);
    assert_null(r);
    assert_null(rules_sdk(r));
    rules_free(NULL);
}

/* ------------------------------------------------------------------ */
/* Givens that break one rule each.                                    */

struct givens_case {
    uint32_t flags;
    const char *cages;
    unsigned cell[2], value[2]; /* two givens (value 0: unused) */
    const char *want;
};

static const struct givens_case givens_cases[] = {
    /* two 5s on the main diagonal, in different boxes */
    {SDK_RULE_DIAGONALS,
     NULL,
     {0, 40},
     {5, 5},
     "diagonals: the main diagonal has two 5s (r1c1 and r5c5)"},
    /* two 3s on the anti-diagonal */
    {SDK_RULE_DIAGONALS,
     NULL,
     {8, 72},
     {3, 3},
     "diagonals: the anti-diagonal has two 3s (r1c9 and r9c1)"},
    /* window 1 spans rows and columns 2-4 */
    {SDK_RULE_WINDOWS, NULL, {10, 30}, {4, 4}, "windows: window 1 has two 4s (r2c2 and r4c4)"},
    /* window 4 is the bottom right one, rows and columns 6-8 */
    {SDK_RULE_WINDOWS, NULL, {50, 70}, {9, 9}, "windows: window 4 has two 9s (r6c6 and r8c8)"},
    /* a knight's move apart */
    {SDK_RULE_ANTI_KNIGHT, NULL, {20, 31}, {7, 7}, "anti_knight: r3c3 and r4c5 both hold 7"},
    /* touching diagonally, across boxes */
    {SDK_RULE_ANTI_KING, NULL, {2, 12}, {1, 1}, "anti_king: r1c3 and r2c4 both hold 1"},
    /* orthogonal neighbours 4 and 5 */
    {SDK_RULE_NON_CONSECUTIVE,
     NULL,
     {30, 39},
     {5, 4},
     "non_consecutive: r4c4 and r5c4 hold 5 and 4, consecutive"},
    /* two 2s in one cage, in different rows, columns and boxes */
    {0, "10:2,3,12", {2, 12}, {2, 2}, "cages: cage 1 has two 2s (r1c3 and r2c4)"},
    /* the givens already pass the cage's sum */
    {0,
     "3:0;6:1,2,3",
     {1, 2},
     {4, 5},
     "cages: cage 2 (from r1c2) adds up to 9 already, more than 6"},
    /* a full cage that misses its sum */
    {0, "7:0,1", {0, 1}, {1, 2}, "cages: cage 1 (from r1c1) adds up to 3, not 7"},
    /* a plain row repeat under variant rules */
    {SDK_RULE_ANTI_KING, NULL, {0, 8}, {6, 6}, "row 1 has two 6s (r1c1 and r1c9)"},
};

static void test_givens(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(givens_cases) / sizeof(givens_cases[0]); i++) {
        const struct givens_case *c = &givens_cases[i];
        static struct golden g;
        char cages[128], err[256] = "";
        uint8_t cells[81] = {0};
        struct rules *r = NULL;
        uint64_t count = 9;

        memset(&g, 0, sizeof(g));
        g.desc.n = 9;
        g.desc.flags = c->flags;
        if (c->cages) {
            snprintf(cages, sizeof(cages), "%s", c->cages);
            parse_cages(&g, cages);
        }
        assert_int_equal(rules_new(&g.desc, &r, err, sizeof(err)), 0);
        assert_int_equal(rules_check_givens(rules_sdk(r), 9, cells, err, sizeof(err)), 0);
        cells[c->cell[0]] = (uint8_t)c->value[0];
        cells[c->cell[1]] = (uint8_t)c->value[1];
        assert_int_equal(rules_check_givens(rules_sdk(r), 9, cells, err, sizeof(err)), -EINVAL);
        assert_string_equal(err, c->want);
        /* the counter agrees: no solution */
        assert_int_equal(rules_count(rules_sdk(r), 9, cells, 2, 0, NULL, &count), 0);
        assert_int_equal(count, 0);
        rules_free(r);
    }
}

/* ------------------------------------------------------------------ */
/* The tables, against the geometry.                                   */

static int is_knight(unsigned n, unsigned a, unsigned b)
{
    int dr = abs((int)(a / n) - (int)(b / n)), dc = abs((int)(a % n) - (int)(b % n));

    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

static int is_king_diagonal(unsigned n, unsigned a, unsigned b)
{
    return abs((int)(a / n) - (int)(b / n)) == 1 && abs((int)(a % n) - (int)(b % n)) == 1;
}

/* In how many houses of r do a and b both lie? */
static int houses_shared(const struct sdk_rules *r, unsigned a, unsigned b)
{
    int shared = 0;

    for (uint32_t h = 0; h < r->houses_len; h++) {
        int in_a = 0, in_b = 0;

        for (uint32_t k = 0; k < r->n; k++) {
            in_a |= r->houses[h * r->n + k] == a;
            in_b |= r->houses[h * r->n + k] == b;
        }
        shared += in_a && in_b;
    }
    return shared;
}

static int pair_listed(const uint16_t *pairs, uint32_t len, unsigned a, unsigned b)
{
    for (uint32_t i = 0; i < len; i++)
        if (pairs[2 * i] == a && pairs[2 * i + 1] == b)
            return 1;
    return 0;
}

static void assert_houses_sane(const struct sdk_rules *r)
{
    for (uint32_t h = 0; h < r->houses_len; h++) {
        uint32_t seen = 0;

        for (uint32_t k = 0; k < r->n; k++) {
            assert_true(r->houses[h * r->n + k] < r->n * r->n);
            if (k > 0) /* ascending */
                assert_true(r->houses[h * r->n + k] > r->houses[h * r->n + k - 1]);
            if (h >= 2 * r->n && h < 3 * r->n) /* boxes or regions agree with region[] */
                assert_int_equal(r->region[r->houses[h * r->n + k]], h - 2 * r->n);
            seen |= 1u << k;
        }
        assert_int_equal(seen, (1u << r->n) - 1);
    }
}

struct table_case {
    unsigned n;
    uint32_t flags;
    uint32_t houses_len; /* 3n, + 2 diagonals, + (b-1)^2 windows */
};

static const struct table_case table_cases[] = {
    {9, SDK_RULE_DIAGONALS, 29},
    {9, SDK_RULE_WINDOWS, 31},
    {4, SDK_RULE_WINDOWS | SDK_RULE_DIAGONALS, 15},
    {16, SDK_RULE_WINDOWS, 57},
    {9, SDK_RULE_ANTI_KNIGHT | SDK_RULE_ANTI_KING | SDK_RULE_NON_CONSECUTIVE, 27},
    {9, SDK_RULE_ANTI_KING | SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS, 33},
    {25, SDK_RULE_ANTI_KNIGHT | SDK_RULE_NON_CONSECUTIVE, 75},
};

static void assert_pairs(const struct sdk_rules *r, uint32_t flags)
{
    const unsigned n = r->n;

    for (unsigned a = 0; a < n * n; a++)
        for (unsigned b = a + 1; b < n * n; b++) {
            int differ = ((flags & SDK_RULE_ANTI_KNIGHT) && is_knight(n, a, b)) ||
                         ((flags & SDK_RULE_ANTI_KING) && is_king_diagonal(n, a, b));
            int adjacent = (b == a + 1 && b % n != 0) || b == a + n;

            if (differ && houses_shared(r, a, b) == 0)
                assert_true(pair_listed(r->differ, r->differ_len, a, b));
            else if (n <= 9)
                assert_false(pair_listed(r->differ, r->differ_len, a, b));
            if (flags & SDK_RULE_NON_CONSECUTIVE)
                assert_int_equal(pair_listed(r->nonconsec, r->nonconsec_len, a, b), adjacent);
        }
}

static void test_tables(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(table_cases) / sizeof(table_cases[0]); i++) {
        const struct table_case *c = &table_cases[i];
        struct rules_desc d = {.n = c->n, .flags = c->flags};
        struct rules *rules = NULL;
        const struct sdk_rules *r;

        assert_int_equal(rules_new(&d, &rules, NULL, 0), 0);
        r = rules_sdk(rules);
        assert_int_equal(r->size, sizeof(struct sdk_rules));
        assert_int_equal(r->kinds, c->flags);
        assert_int_equal(r->n, c->n);
        assert_int_equal(r->houses_len, c->houses_len);
        assert_houses_sane(r);
        if (c->n <= 16)
            assert_pairs(r, c->flags);
        if (!(c->flags & SDK_RULE_NON_CONSECUTIVE))
            assert_int_equal(r->nonconsec_len, 0);
        rules_free(rules);
    }
}

/* A jigsaw's regions come back as the layout string; boxes for the rest. */
static void test_regions_string(void **state)
{
    static const char jig[] = "1112122233343444";
    struct rules_desc d = {.n = 4, .regions = jig, .regions_len = 16};
    struct rules *r = NULL;
    char buf[32];

    (void)state;
    assert_int_equal(rules_new(&d, &r, NULL, 0), 0);
    assert_int_equal(rules_sdk(r)->kinds, SDK_RULE_REGIONS);
    assert_int_equal(rules_regions_string(rules_sdk(r), buf, sizeof(buf)), 0);
    assert_string_equal(buf, jig);
    assert_int_equal(rules_regions_string(rules_sdk(r), buf, 16), -ENOSPC);
    rules_free(r);
    d = (struct rules_desc){.n = 4, .flags = SDK_RULE_ANTI_KING};
    assert_int_equal(rules_new(&d, &r, NULL, 0), 0);
    assert_int_equal(rules_regions_string(rules_sdk(r), buf, sizeof(buf)), 0);
    assert_string_equal(buf, "1122112233443344");
    rules_free(r);
}

static void test_names(void **state)
{
    (void)state;
    for (uint32_t k = 1; k & SDK_RULE_ALL; k <<= 1) {
        const char *name = rules_kind_name(k);

        assert_non_null(name);
        assert_int_equal(rules_kind_from_name(name, strlen(name)), k);
    }
    assert_string_equal(rules_kind_name(SDK_RULE_NON_CONSECUTIVE), "non_consecutive");
    assert_null(rules_kind_name(SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS));
    assert_null(rules_kind_name(0));
    assert_int_equal(rules_kind_from_name("diagonal", 8), 0);
    assert_int_equal(rules_kind_from_name("cagesx", 6), 0);
}

/* The counter's bound, and classic grids through the NULL rules. */
static void test_count_edges(void **state)
{
    uint8_t cells[81] = {0}, sol[81];
    uint64_t count = 9;

    (void)state;
    assert_int_equal(rules_count(NULL, 9, cells, 2, 5, NULL, &count), -E2BIG);
    assert_int_equal(rules_count(NULL, 9, cells, 2, 0, sol, &count), 0);
    assert_int_equal(count, 2);
    assert_int_equal(rules_check_solution(NULL, 9, cells, sol, NULL, 0), 0);
    /* a cancel flag or a deadline stops a long count (every 256 nodes) */
    {
        sdk_atomic_int stop = 1;
        struct rules_bounds b = {.cancel = &stop};

        assert_int_equal(rules_count_bounded(NULL, 9, cells, UINT64_MAX, &b, NULL, &count),
                         -ECANCELED);
        b = (struct rules_bounds){.deadline_ns = sdk_now_ns()};
        assert_int_equal(rules_count_bounded(NULL, 9, cells, UINT64_MAX, &b, NULL, &count),
                         -ETIMEDOUT);
        assert_true(count > 0 && count < UINT64_MAX); /* it had found some */
        b = (struct rules_bounds){.deadline_ns = sdk_now_ns() + 60 * 1000000000ull};
        assert_int_equal(rules_count_bounded(NULL, 4, cells, 1000, &b, NULL, &count), 0);
        assert_int_equal(count, 288); /* every 4x4 grid */
    }
    /* a grid of another side than the rules were built for: no solution */
    {
        struct rules_desc d = {.n = 4, .flags = SDK_RULE_DIAGONALS};
        struct rules *r = NULL;
        char err[128];

        assert_int_equal(rules_new(&d, &r, NULL, 0), 0);
        assert_int_equal(rules_check_givens(rules_sdk(r), 9, cells, err, sizeof(err)), -EINVAL);
        assert_string_equal(err, "rules: built for side 4, the grid has side 9");
        assert_int_equal(rules_count(rules_sdk(r), 9, cells, 2, 0, NULL, &count), 0);
        assert_int_equal(count, 0);
        rules_free(r);
    }
}

/* A windoku solution of side 16, made by bitmask before it knew of the
 * implied houses (generate --rules windoku --size 16 --seed 1). */
static const char windoku16[] =
    "A761E43C2DG98FB583EG52F6AC4B917D5B497AGD381F2CE6F2DC891BE576AG43EFA61B2479C3D85G9D38A"
    "65GB4F2E7C11C2B3E79DG584A6F4G75FDC81A6E392B7914D8E26F3C5BGAGE8A6C435B97FD1225BF97A18E"
    "DG643CD6C3GFB542A17E8961974GDFC385B2AE3AFDB58EG124C697C85E216A97BDG3F4B4G2C397F6EA15D8";

/* The bits of the len houses' cells, each house a sorted set. */
static void house_sets(uint32_t n, const uint16_t *cells, uint32_t len, uint64_t (*sets)[10])
{
    memset(sets, 0, sizeof(uint64_t) * 10 * len);
    for (uint32_t h = 0; h < len; h++)
        for (uint32_t k = 0; k < n; k++)
            sets[h][cells[h * n + k] / 64] |= 1ull << (cells[h * n + k] % 64);
}

/* Windoku's implied houses, the referee's (core/rules.c) and the SDK's
 * (plugin_rules.h): 2b - 1 houses that with the windows cover every cell
 * once, the same sets both ways, each holding every digit of windoku
 * solutions made without them (the goldens, windoku16); and the referee,
 * which counts with them, fills an empty windoku grid up to 9x9 with a
 * grid every rule passes. */
static void test_windows_implied(void **state)
{
    static const uint32_t sides[] = {4, 9, 16, 25};
    uint16_t core[RULES_MAX_IMPLIED * 25], sdk[SDK_MAX_IMPLIED * 25];
    uint64_t a[RULES_MAX_IMPLIED][10], b[SDK_MAX_IMPLIED][10];
    uint8_t grid[SDK_MAX_CELLS], empty[SDK_MAX_CELLS] = {0};

    (void)state;
    for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
        const uint32_t n = sides[i], bs = sdk_box_side(n), len = rules__windows_implied(n, core);
        struct rules_desc d = {.n = n, .flags = SDK_RULE_WINDOWS};
        struct rules *rules = NULL;
        const struct sdk_rules *r;
        uint8_t cover[SDK_MAX_CELLS] = {0};
        uint64_t count = 0;

        assert_int_equal(len, 2 * bs - 1);
        assert_int_equal(sdk_windows_implied(n, sdk), len);
        house_sets(n, core, len, a);
        house_sets(n, sdk, len, b);
        for (uint32_t h = 0; h < len; h++) {
            uint32_t found = 0;
            for (uint32_t k = 0; k < len; k++)
                found += memcmp(a[h], b[k], sizeof(a[h])) == 0;
            assert_int_equal(found, 1);
        }
        assert_int_equal(rules_new(&d, &rules, NULL, 0), 0);
        r = rules_sdk(rules);
        for (uint32_t k = 3 * n * n; k < r->houses_len * n; k++) /* the windows */
            cover[r->houses[k]]++;
        for (uint32_t k = 0; k < len * n; k++)
            cover[core[k]]++;
        for (uint32_t c = 0; c < n * n; c++)
            assert_int_equal(cover[c], 1);
        if (n <= 9) { /* the referee is plain: an empty 16x16 takes it minutes */
            assert_int_equal(rules_count(r, n, empty, 1, 0, grid, &count), 0);
            assert_int_equal(count, 1);
            assert_int_equal(rules_check_solution(r, n, empty, grid, NULL, 0), 0);
        }
        if (n == 16) {
            for (uint32_t c = 0; c < n * n; c++)
                grid[c] = symbol_value(windoku16[c]);
            assert_int_equal(rules_check_solution(r, n, empty, grid, NULL, 0), 0);
            assert_true(holds_every_digit(n, core, len, grid));
        }
        rules_free(rules);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),          cmocka_unit_test(test_bad_desc),
        cmocka_unit_test(test_bad_flags),       cmocka_unit_test(test_givens),
        cmocka_unit_test(test_tables),          cmocka_unit_test(test_regions_string),
        cmocka_unit_test(test_names),           cmocka_unit_test(test_count_edges),
        cmocka_unit_test(test_windows_implied),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
