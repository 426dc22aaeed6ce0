/* test_logic_tech.c -- each technique of the logic plugin on a hand-made position.
 *
 * Linked with the plugin's sources (not through dlopen), so a row can set
 * candidates directly: every row starts from an empty 9x9 grid (every cell
 * holds every candidate), takes candidates away to build exactly one
 * instance of its pattern, calls one technique and checks that the step
 * places and eliminates exactly what the pattern proves (the full set,
 * in any order).  A second table checks that each technique finds nothing
 * on the empty grid of each size, and that the ladder is the one documented
 * in docs/techniques.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "lg.h"

#define RC(r, c) ((r)*9 + (c))
#define MAX_EXP  32

static struct lg_geom geo9;
static double last_rating; /* the rating of run_row's step */

/* Keep only the candidates in digits (a string such as "12") at (r, c). */
static void keep(struct lg_grid *g, uint32_t r, uint32_t c, const char *digits)
{
    uint32_t m = 0;

    for (const char *d = digits; *d; d++)
        m |= 1u << (*d - '1');
    g->cand[RC(r, c)] = m;
}

/* Take value v from (r, c). */
static void drop(struct lg_grid *g, uint32_t r, uint32_t c, uint32_t v)
{
    g->cand[RC(r, c)] &= ~(1u << (v - 1));
}

/* ------------------------------------------------------------- positions */

/* 7 only at r3c5 (row 2, col 4) within box 2 (box index 1). */
static void pos_hidden_single(struct lg_grid *g)
{
    for (uint32_t r = 0; r < 3; r++)
        for (uint32_t c = 3; c < 6; c++)
            if (!(r == 2 && c == 4))
                drop(g, r, c, 7);
}

/* 7 only at r3c5 in row 3; box 2 keeps 7 in rows 1 and 2. */
static void pos_line_single(struct lg_grid *g)
{
    for (uint32_t c = 0; c < 9; c++)
        if (c != 4)
            drop(g, 2, c, 7);
}

/* Row 1 solved but for r1c9, which must be 9. */
static void pos_full_house(struct lg_grid *g)
{
    for (uint32_t c = 0; c < 8; c++) {
        g->val[RC(0, c)] = (uint8_t)(c + 1);
        g->cand[RC(0, c)] = 0;
    }
    keep(g, 0, 8, "9");
}

/* Box 1 holds 5 only in column 1; box 4 then only in column 1 and r5c2. */
static void pos_direct_pointing(struct lg_grid *g)
{
    for (uint32_t r = 0; r < 3; r++)
        for (uint32_t c = 1; c < 3; c++)
            drop(g, r, c, 5);
    drop(g, 3, 1, 5);
    drop(g, 3, 2, 5);
    drop(g, 4, 2, 5);
    drop(g, 5, 1, 5);
    drop(g, 5, 2, 5);
}

/* Row 1 holds 5 only in box 1; row 2 only at r2c1 and r2c5. */
static void pos_direct_claiming(struct lg_grid *g)
{
    for (uint32_t c = 3; c < 9; c++)
        drop(g, 0, c, 5);
    for (uint32_t c = 1; c < 9; c++)
        if (c != 4)
            drop(g, 1, c, 5);
}

/* Row 1: 1 and 2 only in r1c1, r1c2; 3 only there and at r1c6. */
static void pos_direct_pair(struct lg_grid *g)
{
    for (uint32_t c = 2; c < 9; c++) {
        drop(g, 0, c, 1);
        drop(g, 0, c, 2);
        if (c != 5)
            drop(g, 0, c, 3);
    }
}

/* Row 1: 1, 2 and 3 only in r1c1..r1c3; 4 only there and at r1c8. */
static void pos_direct_triple(struct lg_grid *g)
{
    for (uint32_t c = 3; c < 9; c++) {
        for (uint32_t v = 1; v <= 3; v++)
            drop(g, 0, c, v);
        if (c != 7)
            drop(g, 0, c, 4);
    }
}

static void pos_naked_single(struct lg_grid *g)
{
    keep(g, 4, 4, "4");
}

/* In box 0, 5 only in row 0. */
static void pos_pointing(struct lg_grid *g)
{
    for (uint32_t r = 1; r < 3; r++)
        for (uint32_t c = 0; c < 3; c++)
            drop(g, r, c, 5);
}

/* In row 0, 5 only in box 0. */
static void pos_claiming(struct lg_grid *g)
{
    for (uint32_t c = 3; c < 9; c++)
        drop(g, 0, c, 5);
}

static void pos_naked_pair(struct lg_grid *g)
{
    keep(g, 0, 0, "12");
    keep(g, 0, 4, "12");
}

static void pos_naked_triple(struct lg_grid *g)
{
    keep(g, 0, 0, "12");
    keep(g, 0, 3, "23");
    keep(g, 0, 6, "13");
}

static void pos_naked_quad(struct lg_grid *g)
{
    keep(g, 0, 0, "12");
    keep(g, 0, 3, "23");
    keep(g, 0, 6, "34");
    keep(g, 0, 8, "14");
}

/* Values 1..k only at the given columns of row 0. */
static void hidden_row0(struct lg_grid *g, uint32_t k, const uint32_t *cols)
{
    for (uint32_t c = 0; c < 9; c++) {
        int in = 0;
        for (uint32_t i = 0; i < k; i++)
            in |= cols[i] == c;
        for (uint32_t v = 1; !in && v <= k; v++)
            drop(g, 0, c, v);
    }
}

static void pos_hidden_pair(struct lg_grid *g)
{
    static const uint32_t cols[] = {0, 4};
    hidden_row0(g, 2, cols);
}

static void pos_hidden_triple(struct lg_grid *g)
{
    static const uint32_t cols[] = {0, 4, 8};
    hidden_row0(g, 3, cols);
}

static void pos_hidden_quad(struct lg_grid *g)
{
    static const uint32_t cols[] = {0, 3, 5, 8};
    hidden_row0(g, 4, cols);
}

/* Value 1 in rows[i] only at the two columns cols[2i], cols[2i+1]. */
static void fish_rows(struct lg_grid *g, uint32_t k, const uint32_t *rows, const uint32_t *cols)
{
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t c = 0; c < 9; c++)
            if (c != cols[2 * i] && c != cols[2 * i + 1])
                drop(g, rows[i], c, 1);
}

static void pos_x_wing(struct lg_grid *g)
{
    static const uint32_t rows[] = {1, 4}, cols[] = {1, 7, 1, 7};
    fish_rows(g, 2, rows, cols);
}

static void pos_swordfish(struct lg_grid *g)
{
    static const uint32_t rows[] = {0, 3, 6}, cols[] = {0, 3, 3, 6, 0, 6};
    fish_rows(g, 3, rows, cols);
}

static void pos_jellyfish(struct lg_grid *g)
{
    static const uint32_t rows[] = {0, 2, 4, 6}, cols[] = {0, 2, 2, 4, 4, 6, 0, 6};
    fish_rows(g, 4, rows, cols);
}

/* Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}. */
static void pos_xy_wing(struct lg_grid *g)
{
    keep(g, 0, 0, "12");
    keep(g, 0, 4, "13");
    keep(g, 4, 0, "23");
}

/* Pivot r1c1 {1,2,3}, pincers r1c5 {1,3} and r2c2 {2,3}. */
static void pos_xyz_wing(struct lg_grid *g)
{
    keep(g, 0, 0, "123");
    keep(g, 0, 4, "13");
    keep(g, 1, 1, "23");
}

/* A skyscraper: 1 in column 2 only at r2, r8; in column 5 only at r2, r7. */
static void pos_x_chain(struct lg_grid *g)
{
    for (uint32_t r = 0; r < 9; r++) {
        if (r != 1 && r != 7)
            drop(g, r, 1, 1);
        if (r != 1 && r != 6)
            drop(g, r, 4, 1);
    }
}

/* Bivalue cells r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,4} - r5c9 {4,1}. */
static void pos_xy_chain(struct lg_grid *g)
{
    keep(g, 0, 0, "12");
    keep(g, 0, 4, "23");
    keep(g, 4, 4, "34");
    keep(g, 4, 8, "14");
}

/* ---------------------------------------------------------------- table */

struct cv {
    uint16_t cell;
    uint8_t value;
};

/* Fill out[] with every (cell, v) for v in values, cells of unit u except
 * those in skip[]; returns the count. */
static uint32_t unit_elims(struct cv *out, uint32_t u, const uint32_t *skip, uint32_t skip_len,
                           uint32_t values)
{
    uint32_t len = 0;

    for (uint32_t k = 0; k < 9; k++) {
        uint32_t cell = geo9.unit[u][k];
        int skipped = 0;
        for (uint32_t i = 0; i < skip_len; i++)
            skipped |= skip[i] == cell;
        for (uint32_t v = 1; !skipped && v <= 9; v++)
            if (values & (1u << (v - 1)))
                out[len++] = (struct cv){(uint16_t)cell, (uint8_t)v};
    }
    return len;
}

/* Run fn on the position; check placements and eliminations equal the
 * expected sets. */
static void run_row(const char *name, lg_technique_fn *fn, void (*setup)(struct lg_grid *g),
                    const struct cv *place, uint32_t place_len, const struct cv *elim,
                    uint32_t elim_len)
{
    static const uint8_t empty[81];
    struct lg_grid g;
    struct lg_step s;
    struct lg_pos pos = {.valid = false};
    const struct lg_ctx c = {.geo = &geo9, .g = &g, .want_text = true, .pos = &pos};

    assert_int_equal(lg_grid_load(&g, &geo9, empty), 0);
    setup(&g);
    lg_step_reset(&s, name, 1.0);
    print_message("%s\n", name);
    assert_true(fn(&c, &s));
    assert_int_equal(s.place_len, place_len);
    assert_int_equal(s.elim_len, elim_len);
    assert_true(s.text_len > 0 && s.cells_len > 0);
    for (uint32_t i = 0; i < place_len; i++) {
        int found = 0;
        for (uint32_t k = 0; k < s.place_len; k++)
            found |= s.place_cell[k] == place[i].cell && s.place_val[k] == place[i].value;
        assert_true(found);
    }
    for (uint32_t i = 0; i < elim_len; i++) {
        int found = 0;
        for (uint32_t k = 0; k < s.elim_len; k++)
            found |= s.elim_cell[k] == elim[i].cell && s.elim_val[k] == elim[i].value;
        assert_true(found);
    }
    last_rating = s.rating;
    assert_true(lg_step_apply(&s, &g, &geo9));
}

static void test_singles(void **state)
{
    const struct cv hs = {RC(2, 4), 7}, ns = {RC(4, 4), 4}, fh = {RC(0, 8), 9};

    (void)state;
    run_row("hidden_single", lg_hidden_single, pos_hidden_single, &hs, 1, NULL, 0);
    assert_true(last_rating == 1.2); /* in a box */
    run_row("hidden_single", lg_hidden_single, pos_line_single, &hs, 1, NULL, 0);
    assert_true(last_rating == 1.5); /* in a row only */
    run_row("hidden_single", lg_hidden_single, pos_full_house, &fh, 1, NULL, 0);
    assert_true(last_rating == 1.0); /* the last open cell of row 1 */
    run_row("naked_single", lg_naked_single, pos_naked_single, &ns, 1, NULL, 0);
}

/* Each direct technique places its single and eliminates nothing, at
 * Sudoku Explainer's rating. */
static void test_direct(void **state)
{
    static const struct cv dp = {RC(4, 1), 5}, dc = {RC(1, 4), 5}, d2 = {RC(0, 5), 3},
                           d3 = {RC(0, 7), 4};

    (void)state;
    run_row("direct_pointing", lg_direct_pointing, pos_direct_pointing, &dp, 1, NULL, 0);
    assert_true(last_rating == 1.7);
    run_row("direct_claiming", lg_direct_claiming, pos_direct_claiming, &dc, 1, NULL, 0);
    assert_true(last_rating == 1.9);
    run_row("direct_hidden_pair", lg_direct_hidden_pair, pos_direct_pair, &d2, 1, NULL, 0);
    assert_true(last_rating == 2.0);
    run_row("direct_hidden_triple", lg_direct_hidden_triple, pos_direct_triple, &d3, 1, NULL, 0);
    assert_true(last_rating == 2.5);
}

static void test_locked(void **state)
{
    struct cv e[MAX_EXP];
    static const uint32_t box0_row0[] = {RC(0, 0), RC(0, 1), RC(0, 2)};
    uint32_t len;

    (void)state;
    len = unit_elims(e, 0, box0_row0, 3, 1u << 4); /* row 0 outside box 0 loses 5 */
    run_row("locked_candidates_pointing", lg_pointing, pos_pointing, NULL, 0, e, len);
    len = unit_elims(e, 18, box0_row0, 3, 1u << 4); /* box 0 outside row 0 loses 5 */
    run_row("locked_candidates_claiming", lg_claiming, pos_claiming, NULL, 0, e, len);
}

static void test_naked_subsets(void **state)
{
    struct cv e[MAX_EXP];
    static const uint32_t p2[] = {RC(0, 0), RC(0, 4)}, p3[] = {RC(0, 0), RC(0, 3), RC(0, 6)},
                          p4[] = {RC(0, 0), RC(0, 3), RC(0, 6), RC(0, 8)};

    (void)state;
    run_row("naked_pair", lg_naked_pair, pos_naked_pair, NULL, 0, e, unit_elims(e, 0, p2, 2, 0x3));
    run_row("naked_triple", lg_naked_triple, pos_naked_triple, NULL, 0, e,
            unit_elims(e, 0, p3, 3, 0x7));
    run_row("naked_quad", lg_naked_quad, pos_naked_quad, NULL, 0, e, unit_elims(e, 0, p4, 4, 0xf));
}

/* The cells of a hidden subset of values 1..k lose every other value. */
static uint32_t hidden_elims(struct cv *e, const uint32_t *cols, uint32_t k)
{
    uint32_t len = 0;

    for (uint32_t i = 0; i < k; i++)
        for (uint32_t v = k + 1; v <= 9; v++)
            e[len++] = (struct cv){(uint16_t)RC(0, cols[i]), (uint8_t)v};
    return len;
}

static void test_hidden_subsets(void **state)
{
    struct cv e[MAX_EXP];
    static const uint32_t c2[] = {0, 4}, c3[] = {0, 4, 8}, c4[] = {0, 3, 5, 8};

    (void)state;
    run_row("hidden_pair", lg_hidden_pair, pos_hidden_pair, NULL, 0, e, hidden_elims(e, c2, 2));
    run_row("hidden_triple", lg_hidden_triple, pos_hidden_triple, NULL, 0, e,
            hidden_elims(e, c3, 3));
    run_row("hidden_quad", lg_hidden_quad, pos_hidden_quad, NULL, 0, e, hidden_elims(e, c4, 4));
}

/* Value 1 leaves the cover columns outside the base rows. */
static uint32_t fish_elims(struct cv *e, const uint32_t *rows, uint32_t k, const uint32_t *cols)
{
    uint32_t len = 0;

    for (uint32_t r = 0; r < 9; r++) {
        int base = 0;
        for (uint32_t i = 0; i < k; i++)
            base |= rows[i] == r;
        for (uint32_t i = 0; !base && i < k; i++)
            e[len++] = (struct cv){(uint16_t)RC(r, cols[i]), 1};
    }
    return len;
}

static void test_fish(void **state)
{
    struct cv e[MAX_EXP];
    static const uint32_t r2[] = {1, 4}, c2[] = {1, 7}, r3[] = {0, 3, 6}, c3[] = {0, 3, 6},
                          r4[] = {0, 2, 4, 6}, c4[] = {0, 2, 4, 6};

    (void)state;
    run_row("x_wing", lg_x_wing, pos_x_wing, NULL, 0, e, fish_elims(e, r2, 2, c2));
    run_row("swordfish", lg_swordfish, pos_swordfish, NULL, 0, e, fish_elims(e, r3, 3, c3));
    run_row("jellyfish", lg_jellyfish, pos_jellyfish, NULL, 0, e, fish_elims(e, r4, 4, c4));
}

static void test_wings(void **state)
{
    /* XY-wing: only r5c5 sees both pincers.  XYZ-wing: r1c2 and r1c3 see all three. */
    static const struct cv xy[] = {{RC(4, 4), 3}}, xyz[] = {{RC(0, 1), 3}, {RC(0, 2), 3}};

    (void)state;
    run_row("xy_wing", lg_xy_wing, pos_xy_wing, NULL, 0, xy, 1);
    run_row("xyz_wing", lg_xyz_wing, pos_xyz_wing, NULL, 0, xyz, 2);
}

/* Run fn on the position: it finds a step that removes candidates among
 * elim[] only, named name and rated rating (SE's chain rungs pick the
 * easiest of their steps, which may take fewer than the pattern allows). */
static void run_some(const char *name, double rating, lg_technique_fn *fn,
                     void (*setup)(struct lg_grid *g), const struct cv *elim, uint32_t elim_len)
{
    static const uint8_t empty[81];
    struct lg_grid g;
    struct lg_step s;
    struct lg_pos pos = {.valid = false};
    const struct lg_ctx c = {.geo = &geo9, .g = &g, .want_text = true, .pos = &pos};

    assert_int_equal(lg_grid_load(&g, &geo9, empty), 0);
    setup(&g);
    lg_step_reset(&s, "none", 0.0);
    assert_true(fn(&c, &s));
    print_message("%s %.1f: %s\n", s.name, s.rating, s.text);
    assert_string_equal(s.name, name);
    assert_true(s.rating > rating - 0.05 && s.rating < rating + 0.05);
    assert_int_equal(s.place_len, 0);
    assert_true(s.elim_len > 0 && s.text_len > 0 && s.cells_len > 0);
    for (uint32_t k = 0; k < s.elim_len; k++) {
        int found = 0;
        for (uint32_t i = 0; i < elim_len; i++)
            found |= s.elim_cell[k] == elim[i].cell && s.elim_val[k] == elim[i].value;
        assert_true(found);
    }
    assert_true(lg_step_apply(&s, &g, &geo9));
}

static void test_chains(void **state)
{
    /* r8c2 or r7c5 is 1: the cells of row 7 in box 6 and of row 8 in box 7. */
    static const struct cv x[] = {{RC(6, 0), 1}, {RC(6, 2), 1}, {RC(7, 3), 1}, {RC(7, 5), 1}};
    /* r1c1 or r5c9 is 1: r1c9 and r5c1 see both. */
    static const struct cv xy[] = {{RC(0, 8), 1}, {RC(4, 0), 1}};
    static const struct cv wing[] = {{RC(4, 4), 3}};

    (void)state;
    /* On 9x9, SE's rung: the X-chain is a forcing X-chain of 6 nodes (6.6,
     * length 4 adds nothing), the XY-chain a forcing chain of both link
     * kinds and 10 nodes (7.0, and 0.1 each for length 8 > 4 and > 6). */
    run_some("x_chain", 6.6, lg_se_chain, pos_x_chain, x, 4);
    run_some("aic", 7.2, lg_se_chain, pos_xy_chain, xy, 2);
    /* The other rungs leave 9x9 to SE's. */
    assert_false(lg_x_chain(&(struct lg_ctx){.geo = &geo9, .g = &(struct lg_grid){0}}, NULL));
    /* Both values of r1c1 make r5c5 lose 3 (here: the XY-wing): SE's
     * dynamic rung finds it as a cell forcing chain of two 4-node chains
     * (8.5, and 0.1 for length 6 > 4); its multiple rung does not take
     * bivalue cells as sources. */
    run_some("dynamic_forcing_chain", 8.6, lg_dynamic_forcing_chain, pos_xy_wing, wing, 1);
}

/* Solutions of the 9x9 grid g (0 blank) by plain backtracking, up to 2,
 * the first kept in sol: an oracle that shares no code with the plugin. */
static int bt_count(uint8_t *g, uint8_t *sol, int found)
{
    int i = 0;

    while (i < 81 && g[i])
        i++;
    if (i == 81) {
        if (!found)
            memcpy(sol, g, 81);
        return found + 1;
    }
    for (uint8_t v = 1; v <= 9 && found < 2; v++) {
        int ok = 1;
        for (int k = 0; k < 9 && ok; k++) {
            const int r = i / 9, c = i % 9, br = r / 3 * 3 + k / 3, bc = c / 3 * 3 + k % 3;
            ok = g[r * 9 + k] != v && g[k * 9 + c] != v && g[br * 9 + bc] != v;
        }
        if (!ok)
            continue;
        g[i] = v;
        found = bt_count(g, sol, found);
        g[i] = 0;
    }
    return found;
}

/* Rung fn on the start position of puzzle (a line of 81): it finds a step
 * named name, rated at least base, that only removes candidates the
 * puzzle's unique solution does not use and only places its values. */
static void check_nested(const char *puzzle, lg_technique_fn *fn, const char *name, double base)
{
    uint8_t cells[81], sol[81];
    struct lg_grid g;
    struct lg_step s;
    struct lg_pos pos = {.valid = false};
    const struct lg_ctx c = {.geo = &geo9, .g = &g, .want_text = true, .pos = &pos};

    for (int i = 0; i < 81; i++)
        cells[i] = puzzle[i] >= '1' && puzzle[i] <= '9' ? (uint8_t)(puzzle[i] - '0') : 0;
    assert_int_equal(bt_count(cells, sol, 0), 1);
    assert_int_equal(lg_grid_load(&g, &geo9, cells), 0);
    lg_step_reset(&s, "none", 0.0);
    assert_true(fn(&c, &s));
    print_message("%s %.1f: %s\n", s.name, s.rating, s.text);
    assert_string_equal(s.name, name);
    assert_true(s.rating >= base - 1e-9 && s.rating < 20.0);
    assert_true(s.place_len + s.elim_len > 0 && s.cells_len > 0 && s.text_len > 0);
    for (uint32_t k = 0; k < s.elim_len; k++) {
        assert_true(g.cand[s.elim_cell[k]] >> (s.elim_val[k] - 1) & 1u);
        assert_int_not_equal(s.elim_val[k], sol[s.elim_cell[k]]);
    }
    for (uint32_t k = 0; k < s.place_len; k++)
        assert_int_equal(s.place_val[k], sol[s.place_cell[k]]);
}

/* SE's nested forcing chains, each level called on its own.  Levels 2 and
 * 3 are met on the paths of the forum's hardest (test_se_ratings, against
 * SE's ratings); here every level on a kaggle puzzle's start position
 * (cheap: its runs seldom stall), and level 3 and 4 on a forum puzzle's,
 * which level 2 does not move (its runs' nested searches do the work). */
static void test_nested(void **state)
{
    static const char kaggle[] =
        "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
    static const char forum[] =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

    (void)state;
    check_nested(kaggle, lg_se_nested_fc, "nested_forcing_chain", 9.5);
    check_nested(kaggle, lg_se_nested_multiple, "nested_multiple_forcing_chain", 10.0);
    check_nested(kaggle, lg_se_nested_dynamic, "nested_dynamic_forcing_chain", 10.5);
    check_nested(kaggle, lg_se_nested_twice, "nested_dynamic_forcing_chain_plus", 11.0);
    check_nested(forum, lg_se_nested_multiple, "nested_multiple_forcing_chain", 10.0);
    check_nested(forum, lg_se_nested_dynamic, "nested_dynamic_forcing_chain", 10.5);
}

/* On the empty grid (every candidate everywhere) nothing applies. */
static void test_nothing_on_empty(void **state)
{
    size_t len = 0;
    const struct lg_rung *ladder = lg_ladder(&len);
    static const uint8_t empty[256];
    static struct lg_geom geo;
    struct lg_grid g;
    struct lg_step s;

    (void)state;
    for (uint32_t n = 4; n <= 16; n = n == 4 ? 9 : 16 + (n == 16)) {
        assert_int_equal(lg_geom_init(&geo, n, true), 0);
        assert_int_equal(lg_grid_load(&g, &geo, empty), 0);
        struct lg_pos pos = {.valid = false};
        const struct lg_ctx c = {.geo = &geo, .g = &g, .want_text = true, .pos = &pos};
        for (size_t i = 0; i < len; i++) {
            /* SE's nested forcing chains search the grid again inside each
             * of thousands of assumptions: on a grid of 729 candidates that
             * is hours, not a test (test_se_ratings runs them where needed). */
            if (n == 9 && !strncmp(ladder[i].name, "nested_", 7))
                continue;
            lg_step_reset(&s, ladder[i].name, ladder[i].rating);
            assert_false(ladder[i].fn(&c, &s));
        }
    }
}

/* Singles and locked candidates: the rungs close_easy() uses. */
static bool is_easy_rung(const char *name)
{
    static const char *const easy[] = {"hidden_single", "naked_single",
                                       "locked_candidates_pointing", "locked_candidates_claiming"};

    for (size_t i = 0; i < sizeof(easy) / sizeof(easy[0]); i++)
        if (!strcmp(name, easy[i]))
            return true;
    return false;
}

/* Bring g to the closure of the singles and locked candidates, as the
 * ladder leaves a position before forcing chains. */
static void close_easy(struct lg_grid *g)
{
    size_t len = 0;
    const struct lg_rung *ladder = lg_ladder(&len);
    struct lg_step s;
    bool again = true;

    while (again) {
        struct lg_pos pos = {.valid = false};
        const struct lg_ctx c = {.geo = &geo9, .g = g, .pos = &pos};
        again = false;
        for (size_t i = 0; i < len && !again; i++) {
            if (!is_easy_rung(ladder[i].name))
                continue;
            lg_step_reset(&s, ladder[i].name, ladder[i].rating);
            again = ladder[i].fn(&c, &s) && lg_step_apply(&s, g, &geo9);
        }
    }
}

/* Every branch of position g, with and without locked candidates: the
 * 9x9 bitboard engine and the generic one agree on whether it breaks the
 * grid and on every candidate left.  Counts branches that broke and stood. */
static void engines_agree(struct lg_grid *g, uint32_t *broke, uint32_t *stood)
{
    struct lg_pos pos = {.valid = false};
    const struct lg_ctx c = {.geo = &geo9, .g = g, .pos = &pos};
    uint16_t m[2][81];
    uint8_t done[2][81];

    for (uint32_t i = 0; i < 81; i++)
        for (uint32_t cm = g->cand[i]; cm; cm &= cm - 1)
            for (int dyn = 0; dyn < 2; dyn++) {
                uint32_t v = lg_lowest(cm) + 1;
                int a = lg_forcing_branch(&c, dyn, true, i, v, m[0], done[0]);
                int b = lg_forcing_branch(&c, dyn, false, i, v, m[1], done[1]);
                assert_int_equal(a, b);
                if (a != 0) {
                    ++*broke;
                    continue;
                }
                ++*stood;
                assert_memory_equal(m[0], m[1], sizeof(m[0]));
                assert_memory_equal(done[0], done[1], sizeof(done[0]));
            }
}

/* Run engines_agree on every stride-th puzzle of a file, as given and as
 * the easy rungs leave it (every branch of a puzzle takes a while under the
 * sanitizers).  Returns the puzzles run. */
static uint32_t engines_file(const char *path, uint32_t stride, uint32_t *broke, uint32_t *stood)
{
    uint32_t line_no = 0;
    FILE *f = fopen(path, "r");
    char line[256];
    uint32_t puzzles = 0;
    uint8_t cells[81];
    struct lg_grid g;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        if (strlen(line) < 81 || line[0] == '#' || line_no++ % stride != 0)
            continue;
        for (uint32_t i = 0; i < 81; i++)
            cells[i] = line[i] >= '1' && line[i] <= '9' ? (uint8_t)(line[i] - '0') : 0;
        assert_int_equal(lg_grid_load(&g, &geo9, cells), 0);
        engines_agree(&g, broke, stood);
        close_easy(&g);
        engines_agree(&g, broke, stood);
        puzzles++;
    }
    fclose(f);
    return puzzles;
}

/* The forcing branches on 9x9 bitboards (branch9.c) against the generic
 * engine, on every fourth puzzle of the forum's hardest (where no branch
 * breaks: they are stuck) and of Norvig's top 95 (where many do). */
static void test_forcing_engines(void **state)
{
    uint32_t broke = 0, stood = 0, puzzles;

    (void)state;
    puzzles = engines_file(SUDOKU_TEST_DATA_DIR "/forum_hardest_sample.txt", 4, &broke, &stood);
    puzzles += engines_file(SUDOKU_TEST_DATA_DIR "/norvig_top95.txt", 4, &broke, &stood);
    print_message("%u puzzles, %u branches broke, %u stood\n", puzzles, broke, stood);
    assert_true(puzzles >= 30 && broke > 1000 && stood > 1000);
}

/* Are two steps the same (what they change, their pattern, their text)? */
static void assert_same_step(const struct lg_step *a, const struct lg_step *b)
{
    assert_int_equal(a->place_len, b->place_len);
    assert_int_equal(a->elim_len, b->elim_len);
    assert_int_equal(a->cells_len, b->cells_len);
    assert_memory_equal(a->place_cell, b->place_cell, a->place_len * sizeof(a->place_cell[0]));
    assert_memory_equal(a->place_val, b->place_val, a->place_len);
    assert_memory_equal(a->elim_cell, b->elim_cell, a->elim_len * sizeof(a->elim_cell[0]));
    assert_memory_equal(a->elim_val, b->elim_val, a->elim_len);
    assert_memory_equal(a->cells, b->cells, a->cells_len * sizeof(a->cells[0]));
    assert_string_equal(a->text, b->text);
}

/* One forcing rung on g, with the keep of ctx k (or none), into s. */
static bool forcing_rung(struct lg_grid *g, struct lg_forcing_keep *k, bool dynamic,
                         struct lg_step *s)
{
    struct lg_pos pos = {.valid = false};
    const struct lg_ctx c = {.geo = &geo9, .g = g, .want_text = true, .pos = &pos, .keep = k};

    lg_step_reset(s, dynamic ? "dynamic_forcing_chain" : "forcing_chain", dynamic ? 8.5 : 8.0);
    return lg_forcing_branches(&c, s, dynamic); /* the engine itself, as on other sizes */
}

/* Up to 6 positions of each puzzle of a file (the easy rungs' closure, then
 * after each dynamic step): the dynamic rung that continues the static
 * rung's kept branches finds the step it finds from scratch.  Returns how
 * many of those runs had kept branches to continue. */
static uint32_t keep_file(const char *path, uint32_t *runs)
{
    static struct lg_forcing_keep k;
    FILE *f = fopen(path, "r");
    char line[256];
    uint8_t cells[81];
    struct lg_grid g;
    struct lg_step a, b, t;
    uint32_t kept = 0;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        if (strlen(line) < 81 || line[0] == '#')
            continue;
        for (uint32_t i = 0; i < 81; i++)
            cells[i] = line[i] >= '1' && line[i] <= '9' ? (uint8_t)(line[i] - '0') : 0;
        assert_int_equal(lg_grid_load(&g, &geo9, cells), 0);
        for (int n = 0; n < 6 && g.unsolved; n++) {
            close_easy(&g);
            bool fa = forcing_rung(&g, NULL, true, &a);
            forcing_rung(&g, &k, false, &t);
            kept += k.len > 0;
            bool fb = forcing_rung(&g, &k, true, &b);
            ++*runs;
            assert_int_equal(fa, fb);
            if (!fa)
                break;
            assert_same_step(&a, &b);
            assert_true(lg_step_apply(&a, &g, &geo9));
        }
    }
    fclose(f);
    return kept;
}

/* The dynamic forcing rung continuing the static rung's branches (struct
 * lg_forcing_keep) takes the same steps as without them. */
static void test_forcing_keep(void **state)
{
    uint32_t runs = 0, kept;

    (void)state;
    kept = keep_file(SUDOKU_TEST_DATA_DIR "/forum_hardest_sample.txt", &runs);
    kept += keep_file(SUDOKU_TEST_DATA_DIR "/norvig_top95.txt", &runs);
    print_message("%u dynamic rungs, %u with kept branches\n", runs, kept);
    assert_true(runs > 200 && kept > 100);
}

/* The ladder: ratings rise, names are snake_case, and docs/techniques.md
 * lists every name with its rating, the least its steps rate first (the
 * names are a wire contract). */
static void test_ladder_documented(void **state)
{
    char *doc = NULL;
    size_t len = 0, cap = 0, got;
    FILE *f = fopen(SUDOKU_DOCS_DIR "/techniques.md", "r");
    const struct lg_rung *ladder = lg_ladder(&len);
    char buf[4096], row[128];

    (void)state;
    assert_non_null(f);
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
        doc = realloc(doc, cap + got + 1);
        assert_non_null(doc);
        memcpy(doc + cap, buf, got);
        cap += got;
        doc[cap] = '\0';
    }
    fclose(f);
    assert_true(len >= 20);
    for (size_t i = 0; i < len; i++) {
        if (i) /* SE tries aligned triples, then Nishio chains, both at 7.5 */
            assert_true(ladder[i].rating >= ladder[i - 1].rating);
        for (const char *p = ladder[i].name; *p; p++)
            assert_true((*p >= 'a' && *p <= 'z') || *p == '_');
        snprintf(row, sizeof(row), "| `%s` | %.1f", ladder[i].name, ladder[i].rating);
        print_message("%s\n", row);
        assert_non_null(strstr(doc, row));
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_singles),
        cmocka_unit_test(test_direct),
        cmocka_unit_test(test_locked),
        cmocka_unit_test(test_naked_subsets),
        cmocka_unit_test(test_hidden_subsets),
        cmocka_unit_test(test_fish),
        cmocka_unit_test(test_wings),
        cmocka_unit_test(test_chains),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_forcing_engines),
        cmocka_unit_test(test_forcing_keep),
        cmocka_unit_test(test_nothing_on_empty),
        cmocka_unit_test(test_ladder_documented),
    };
    if (lg_geom_init(&geo9, 9, true) != 0)
        return 1;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
