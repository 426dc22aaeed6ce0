/* test_logic_variants.c -- the logic plugin explains variant puzzles, soundly.
 *
 * Linked with the plugin's sources and core/rules (the host's tables and
 * its independent counter).  Two parts:
 *   - every puzzle of tests/data/logic_variants.txt is unique by
 *     rules_count, and its explanation reaches that solution: every step
 *     replayed here on candidates of the test's own (placements are the
 *     solution's, eliminations are not, each step changes something, the
 *     end satisfies every rule);
 *   - one hand-made position per variant technique: the technique is
 *     found, and each candidate it removes is proved impossible by a small
 *     search of the test's own over the rules' tables and the position's
 *     candidates.
 * Bad rules (a kind the plugin does not take, tables that do not fit the
 * job) are refused, never explained.  And the host's replay (core/verify.c)
 * knows the variants: it takes every explanation of the file, and refuses
 * a step that changes nothing under the rules though it would classically.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/host_impl.h"
#include "core/rules.h"
#include "lg.h"

#define LINE_MAX_B 2048
#define MAX_CAGES  256

const struct sdk_plugin *sudoku_plugin_entry(void);

static const struct sdk_plugin *plugin;
static void *plugin_state;

/* ------------------------------------------------------------------ */
/* Rules from a line                                                   */
/* ------------------------------------------------------------------ */

/* A puzzle line: "keys puzzle [regions=...] [cages=sum:c,c;sum:c...]". */
struct vline {
    uint32_t n;
    uint32_t flags;
    char keys[128];
    uint8_t cells[SDK_MAX_CELLS];
    char regions[SDK_MAX_CELLS + 1];
    struct rules_desc_cage cages[MAX_CAGES];
    uint64_t cage_cells[SDK_MAX_CELLS];
    struct rules_desc desc;
};

/* Parse "sum:c,c,...;sum:..." into v's cages.  Returns 0 or -1. */
static int parse_cages(struct vline *v, const char *p)
{
    uint32_t nc = 0, off = 0;

    while (*p > ' ' && nc < MAX_CAGES) {
        char *end;
        v->cages[nc].sum = strtoull(p, &end, 10);
        if (*end != ':')
            return -1;
        v->cages[nc].off = off;
        p = end + 1;
        do {
            if (off == SDK_MAX_CELLS)
                return -1;
            v->cage_cells[off++] = strtoull(p, &end, 10);
            p = *end == ',' ? end + 1 : end;
        } while (end[0] == ',');
        v->cages[nc].len = off - v->cages[nc].off;
        nc++;
        if (*p == ';')
            p++;
    }
    v->desc.cages = v->cages;
    v->desc.cages_len = nc;
    v->desc.cage_cells = v->cage_cells;
    v->desc.cage_cells_len = off;
    return 0;
}

/* Parse one line into v.  Returns 0, or -1 for a comment or blank line. */
static int parse_line(struct vline *v, const char *line)
{
    char puzzle[SDK_MAX_CELLS + 1];
    const char *p;
    size_t len;

    memset(v, 0, sizeof(*v));
    if (line[0] == '#' || line[0] == '\n' || line[0] == '\0')
        return -1;
    assert_int_equal(sscanf(line, "%127s %256s", v->keys, puzzle), 2);
    len = strlen(puzzle);
    v->n = len == 16 ? 4 : len == 81 ? 9 : 16;
    assert_int_equal(len, v->n * v->n);
    for (size_t i = 0; i < len; i++) {
        char ch = puzzle[i];
        v->cells[i] = (uint8_t)(ch == '.' || ch == '0' ? 0 : ch <= '9' ? ch - '0' : ch - 'A' + 10);
    }
    for (char *k = strtok(v->keys, ","); k; k = strtok(NULL, ","))
        v->flags |= rules_kind_from_name(k, strlen(k));
    v->desc.n = v->n;
    v->desc.flags = v->flags & RULES_FLAGS_BOOL;
    p = strstr(line, " regions=");
    if (p) {
        assert_int_equal(sscanf(p + 9, "%256s", v->regions), 1);
        v->desc.regions = v->regions;
        v->desc.regions_len = strlen(v->regions);
    }
    p = strstr(line, " cages=");
    if (p)
        assert_int_equal(parse_cages(v, p + 7), 0);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The test's own replay and search over the rules' tables             */
/* ------------------------------------------------------------------ */

/* What each cell must differ from (houses, differ pairs, cage mates) and
 * must not be next to (non-consecutive pairs), from r's tables. */
struct links {
    uint32_t n;
    uint8_t same[SDK_MAX_CELLS][SDK_MAX_CELLS / 8 + 1]; /* bit: must differ */
    uint8_t near[SDK_MAX_CELLS][SDK_MAX_CELLS / 8 + 1]; /* bit: non-consecutive */
    int cage_of[SDK_MAX_CELLS];
};

static void link_set(uint8_t (*m)[SDK_MAX_CELLS / 8 + 1], uint32_t a, uint32_t b)
{
    m[a][b / 8] |= (uint8_t)(1u << (b % 8));
    m[b][a / 8] |= (uint8_t)(1u << (a % 8));
}

static int link_has(const uint8_t (*m)[SDK_MAX_CELLS / 8 + 1], uint32_t a, uint32_t b)
{
    return (m[a][b / 8] >> (b % 8)) & 1;
}

static void links_build(struct links *l, const struct sdk_rules *r)
{
    const uint32_t n = r->n;

    memset(l, 0, sizeof(*l));
    l->n = n;
    for (uint32_t i = 0; i < n * n; i++)
        l->cage_of[i] = -1;
    for (uint32_t h = 0; h < r->houses_len; h++)
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < a; b++)
                link_set(l->same, r->houses[h * n + a], r->houses[h * n + b]);
    for (uint32_t i = 0; i < r->differ_len; i++)
        link_set(l->same, r->differ[2 * i], r->differ[2 * i + 1]);
    for (uint32_t i = 0; i < r->nonconsec_len; i++)
        link_set(l->near, r->nonconsec[2 * i], r->nonconsec[2 * i + 1]);
    for (uint32_t c = 0; c < r->cages_len; c++)
        for (uint32_t a = 0; a < r->cages[c].len; a++) {
            uint32_t ca = r->cage_cells[r->cages[c].off + a];
            l->cage_of[ca] = (int)c;
            for (uint32_t b = 0; b < a; b++)
                link_set(l->same, ca, r->cage_cells[r->cages[c].off + b]);
        }
}

/* A position of the replay: values, candidates. */
struct pos {
    uint8_t val[SDK_MAX_CELLS];
    uint32_t cand[SDK_MAX_CELLS];
};

/* Place v at cell: v leaves what must differ, v +- 1 the non-consecutive
 * partners (what the plugin does on a placement, no more). */
static void pos_place(struct pos *p, const struct links *l, uint32_t cell, uint32_t v)
{
    const uint32_t bit = 1u << (v - 1);

    p->val[cell] = (uint8_t)v;
    p->cand[cell] = 0;
    for (uint32_t j = 0; j < l->n * l->n; j++) {
        if (link_has(l->same, cell, j))
            p->cand[j] &= ~bit;
        if (link_has(l->near, cell, j))
            p->cand[j] &= ~(bit << 1 | bit >> 1);
    }
}

static void pos_load(struct pos *p, const struct links *l, const uint8_t *cells)
{
    for (uint32_t i = 0; i < l->n * l->n; i++) {
        p->val[i] = 0;
        p->cand[i] = (1u << l->n) - 1;
    }
    for (uint32_t i = 0; i < l->n * l->n; i++)
        if (cells[i])
            pos_place(p, l, i, cells[i]);
}

/* Cage c's sum can still be met by p (its values and candidates)? */
static int cage_ok(const struct sdk_rules *r, const struct pos *p, uint32_t c)
{
    const struct sdk_cage *cg = &r->cages[c];
    uint32_t lo = 0, hi = 0, open = 0;

    for (uint32_t k = 0; k < cg->len; k++) {
        uint32_t cell = r->cage_cells[cg->off + k];
        if (p->val[cell]) {
            lo += p->val[cell];
            hi += p->val[cell];
            continue;
        }
        if (!p->cand[cell])
            return 0;
        lo += (uint32_t)__builtin_ctz(p->cand[cell]) + 1;
        hi += 32u - (uint32_t)__builtin_clz(p->cand[cell]);
        open++;
    }
    return open ? lo <= cg->sum && cg->sum <= hi : lo == cg->sum;
}

/* Does every house of r still have a place or a cell for every value? */
static int houses_ok(const struct sdk_rules *r, const struct pos *p)
{
    const uint32_t n = r->n, all = (1u << n) - 1;

    for (uint32_t h = 0; h < r->houses_len; h++) {
        uint32_t seen = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t cell = r->houses[h * n + k];
            seen |= p->val[cell] ? 1u << (p->val[cell] - 1) : p->cand[cell];
        }
        if (seen != all)
            return 0;
    }
    return 1;
}

/* Is there a completion of p under the rules?  A plain search: the open
 * cell with the fewest candidates, forward checking, cage bounds. */
static int completes(const struct sdk_rules *r, const struct links *l, const struct pos *p,
                     uint64_t *budget)
{
    uint32_t best = UINT32_MAX, best_len = 99;

    if ((*budget)-- == 0)
        fail_msg("search budget ran out");
    if (!houses_ok(r, p))
        return 0;
    for (uint32_t i = 0; i < l->n * l->n; i++) {
        if (p->val[i])
            continue;
        uint32_t k = (uint32_t)__builtin_popcount(p->cand[i]);
        if (k == 0)
            return 0;
        if (k < best_len) {
            best = i;
            best_len = k;
        }
    }
    if (best == UINT32_MAX)
        return 1;
    for (uint32_t m = p->cand[best]; m; m &= m - 1) {
        struct pos q = *p;
        pos_place(&q, l, best, (uint32_t)__builtin_ctz(m) + 1);
        if (l->cage_of[best] >= 0 && !cage_ok(r, &q, (uint32_t)l->cage_of[best]))
            continue;
        if (completes(r, l, &q, budget))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Explanations of the puzzle file                                     */
/* ------------------------------------------------------------------ */

/* Buffers for one explanation. */
struct expl {
    struct sdk_explain job;
    struct sdk_step steps[4096];
    struct sdk_cell_value place[SDK_MAX_CELLS];
    struct sdk_cell_value elim[16384];
    uint16_t cells_out[32768];
    char text[1 << 18];
    uint8_t grid[SDK_MAX_CELLS];
};

static void expl_init(struct expl *x, uint32_t n, const uint8_t *cells, const struct sdk_rules *r)
{
    memset(&x->job, 0, sizeof(x->job));
    x->job = (struct sdk_explain){.size = sizeof(x->job),
                                  .n = n,
                                  .cells = cells,
                                  .steps = x->steps,
                                  .placements = x->place,
                                  .eliminations = x->elim,
                                  .cells_out = x->cells_out,
                                  .text = x->text,
                                  .steps_cap = 4096,
                                  .placements_cap = SDK_MAX_CELLS,
                                  .eliminations_cap = 16384,
                                  .cells_out_cap = 32768,
                                  .text_cap = sizeof(x->text),
                                  .grid = x->grid,
                                  .rules = r};
}

/* Replay step i of x on p against solution; count the techniques. */
static void replay_step(const struct expl *x, uint32_t i, struct pos *p, const struct links *l,
                        const uint8_t *solution)
{
    const struct sdk_step *s = &x->steps[i];
    int changed = 0;

    assert_non_null(s->technique);
    assert_true(s->rating >= 1.0 && s->rating < LG_STUCK_RATING);
    assert_true(s->text_len > 0);
    for (uint32_t k = 0; k < s->elim_len; k++) {
        const struct sdk_cell_value *e = &x->elim[s->elim_off + k];
        if (solution[e->cell] == e->value)
            fail_msg("step %u (%s) eliminates the solution's %u at r%uc%u: %s", i + 1, s->technique,
                     e->value, e->cell / l->n + 1, e->cell % l->n + 1, x->text + s->text_off);
        if (!p->val[e->cell] && (p->cand[e->cell] & (1u << (e->value - 1)))) {
            p->cand[e->cell] &= ~(1u << (e->value - 1));
            changed = 1;
        }
    }
    for (uint32_t k = 0; k < s->place_len; k++) {
        const struct sdk_cell_value *q = &x->place[s->place_off + k];
        assert_int_equal(solution[q->cell], q->value);
        if (!p->val[q->cell]) {
            pos_place(p, l, q->cell, q->value);
            changed = 1;
        }
    }
    if (!changed)
        fail_msg("step %u (%s) changes nothing: %s", i + 1, s->technique, x->text + s->text_off);
}

/* host__explain_verify on x, the plugin's answer: 0 or -EIO. */
static int verify_answer(struct expl *x, const uint8_t *solution)
{
    struct host *h = host_new(NULL, NULL);
    struct host_entry e = {.pub = {.desc = plugin}};
    struct sdk_explain pj = x->job;

    assert_non_null(h);
    e.host = h;
    x->job.grid = NULL;
    int rc = host__explain_verify(&e, &x->job, &pj, solution);
    x->job.grid = x->grid;
    host_free(h);
    return rc;
}

/* Steps of each variant rung seen over the file (lg_var_ladder order). */
static uint32_t seen_var[16], seen_lines, seen_nested;

static void count_var(const char *technique)
{
    size_t len = 0;
    const struct lg_rung *rung = lg_var_ladder(&len);

    for (size_t i = 0; i < len && i < 16; i++)
        seen_var[i] += strcmp(rung[i].name, technique) == 0;
}

/* One line: unique, explained to the end, every step sound. */
static void check_line(const struct vline *v)
{
    struct rules *r = NULL;
    char err[256];
    uint8_t solution[SDK_MAX_CELLS];
    uint64_t count = 0;
    static struct expl x;
    static struct links l;
    struct pos p;

    assert_int_equal(rules_new(&v->desc, &r, err, sizeof(err)), 0);
    assert_non_null(r);
    const struct sdk_rules *sr = rules_sdk(r);
    assert_int_equal(rules_check_givens(sr, v->n, v->cells, err, sizeof(err)), 0);
    assert_int_equal(rules_count(sr, v->n, v->cells, 2, 0, solution, &count), 0);
    assert_int_equal(count, 1);
    assert_int_equal(rules_check_solution(sr, v->n, v->cells, solution, err, sizeof(err)), 0);
    expl_init(&x, v->n, v->cells, sr);
    assert_int_equal(plugin->explain(plugin_state, NULL, &x.job), 0);
    assert_int_equal(x.job.status, SDK_EXPLAIN_SOLVED);
    links_build(&l, sr);
    pos_load(&p, &l, v->cells);
    for (uint32_t i = 0; i < x.job.steps_len; i++) {
        replay_step(&x, i, &p, &l, solution);
        count_var(x.steps[i].technique);
        seen_nested += strcmp(x.steps[i].technique, "nested_forcing_chain") == 0;
    }
    assert_memory_equal(p.val, solution, (size_t)v->n * v->n);
    assert_memory_equal(x.grid, solution, (size_t)v->n * v->n);
    assert_int_equal(rules_check_solution(sr, v->n, v->cells, x.grid, err, sizeof(err)), 0);
    assert_int_equal(verify_answer(&x, solution), 0);
    seen_lines++;
    rules_free(r);
}

static void test_file(void **state)
{
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/logic_variants.txt", "r");
    char line[LINE_MAX_B];
    static struct vline v;
    uint32_t kinds = 0;
    size_t len = 0;
    const struct lg_rung *rung = lg_var_ladder(&len);

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        if (parse_line(&v, line) != 0)
            continue;
        check_line(&v);
        kinds |= v.flags;
    }
    fclose(f);
    print_message("%u puzzles, %u nested forcing chain steps\n", seen_lines, seen_nested);
    assert_true(seen_nested > 0); /* the killer that needs them */
    /* Every rule the plugin takes has puzzles, and every variant rung is used. */
    assert_int_equal(kinds & LG_RULES, LG_RULES);
    for (size_t i = 0; i < len && i < 16; i++) {
        print_message("%s: %u steps\n", rung[i].name, seen_var[i]);
        assert_true(seen_var[i] > 0);
    }
}

/* ------------------------------------------------------------------ */
/* One position per technique                                          */
/* ------------------------------------------------------------------ */

/* A hand-made position on the rules of desc. */
struct hand {
    struct rules *r;
    const struct sdk_rules *sr;
    struct lg_geom geo;
    struct lg_grid g;
    struct lg_pos pos;
    struct lg_ctx c;
    struct lg_step s;
    struct links l;
};

static void hand_init(struct hand *h, uint32_t flags, const char *cages)
{
    static struct vline v; /* the cages' storage */
    struct rules_desc d = {.n = 9, .flags = flags};
    char err[256];
    static const uint8_t blank[81];

    if (cages) {
        assert_int_equal(parse_cages(&v, cages), 0);
        d.cages = v.desc.cages;
        d.cages_len = v.desc.cages_len;
        d.cage_cells = v.desc.cage_cells;
        d.cage_cells_len = v.desc.cage_cells_len;
    }
    assert_int_equal(rules_new(&d, &h->r, err, sizeof(err)), 0);
    h->sr = rules_sdk(h->r);
    assert_int_equal(lg_geom_rules(&h->geo, h->sr), 0);
    assert_int_equal(lg_grid_load(&h->g, &h->geo, blank), 0);
    h->pos.valid = false;
    h->c = (struct lg_ctx){.geo = &h->geo, .g = &h->g, .want_text = true, .pos = &h->pos};
    links_build(&h->l, h->sr);
}

/* Keep only the candidates in digits at (r, c) of h. */
static void hand_keep(struct hand *h, uint32_t r, uint32_t c, const char *digits)
{
    uint32_t m = 0;

    for (const char *d = digits; *d; d++)
        m |= 1u << (*d - '1');
    h->g.cand[r * 9 + c] &= m;
    h->pos.valid = false;
}

/* Run technique fn on h: it must find a step with eliminations, each
 * impossible in every completion of h's candidates; the position must
 * still complete. */
static void hand_check(struct hand *h, lg_technique_fn *fn, const char *name, double rating)
{
    struct pos p;
    uint64_t budget = 1000000;

    lg_step_reset(&h->s, name, rating);
    assert_true(fn(&h->c, &h->s));
    print_message("%s\n", h->s.text);
    assert_true(h->s.elim_len > 0);
    for (uint32_t i = 0; i < 81; i++) {
        p.val[i] = h->g.val[i];
        p.cand[i] = h->g.cand[i];
    }
    assert_true(completes(h->sr, &h->l, &p, &budget));
    for (uint32_t k = 0; k < h->s.elim_len; k++) {
        struct pos q = p;
        const uint32_t cell = h->s.elim_cell[k], v = h->s.elim_val[k];
        assert_true(q.cand[cell] & (1u << (v - 1)));
        pos_place(&q, &h->l, cell, v);
        assert_false(completes(h->sr, &h->l, &q, &budget));
    }
}

/* non_consecutive: r5c5 holds only {4,6}, so r5c6 cannot be 5. */
static void test_nc_pair(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, SDK_RULE_NON_CONSECUTIVE, NULL);
    hand_keep(&h, 4, 4, "46");
    hand_check(&h, lg_non_consecutive, "non_consecutive", 2.0);
    for (uint32_t k = 0; k < h.s.elim_len; k++)
        assert_int_equal(h.s.elim_val[k], 5);
    rules_free(h.r);
}

/* non_consecutive: in row 1, 7 lies only in r1c2 and r1c4, both next to
 * r1c3, so r1c3 is neither 6 nor 8. */
static void test_nc_places(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, SDK_RULE_NON_CONSECUTIVE, NULL);
    for (uint32_t c = 0; c < 9; c++)
        if (c != 1 && c != 3)
            h.g.cand[c] &= ~(1u << 6);
    hand_check(&h, lg_non_consecutive, "non_consecutive", 2.0);
    for (uint32_t k = 0; k < h.s.elim_len; k++) {
        assert_int_equal(h.s.elim_cell[k], 2);
        assert_true(h.s.elim_val[k] == 6 || h.s.elim_val[k] == 8);
    }
    rules_free(h.r);
}

/* Pointing from a diagonal: on the main diagonal, 3 lies only in r1c1 and
 * r2c2 (box 1), so it leaves the rest of box 1. */
static void test_pointing_diagonal(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, SDK_RULE_DIAGONALS, NULL);
    for (uint32_t i = 2; i < 9; i++)
        h.g.cand[i * 10] &= ~(1u << 2);
    hand_check(&h, lg_pointing, "locked_candidates_pointing", 2.6);
    for (uint32_t k = 0; k < h.s.elim_len; k++)
        assert_int_equal(h.geo.bx[h.s.elim_cell[k]], 0);
    rules_free(h.r);
}

/* Claiming seen through anti-knight: in row 1, 5 lies only in r1c1 and
 * r1c5; r2c3 shares box 1 with the first and is a knight's move from the
 * second, so it loses 5. */
static void test_claiming_knight(void **state)
{
    static struct hand h;
    int knight = 0;

    (void)state;
    hand_init(&h, SDK_RULE_ANTI_KNIGHT, NULL);
    for (uint32_t c = 0; c < 9; c++)
        if (c != 0 && c != 4)
            h.g.cand[c] &= ~(1u << 4);
    hand_check(&h, lg_claiming, "locked_candidates_claiming", 2.8);
    for (uint32_t k = 0; k < h.s.elim_len; k++)
        knight |= h.s.elim_cell[k] == 1 * 9 + 2;
    assert_true(knight);
    rules_free(h.r);
}

/* cage_combination: the cage r1c1,r1c2 adds up to 3, so both hold 1 or 2. */
static void test_cage_combination(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, 0, "3:0,1");
    hand_check(&h, lg_cage_combination, "cage_combination", 1.8);
    assert_int_equal(h.s.elim_len, 14);
    for (uint32_t k = 0; k < h.s.elim_len; k++)
        assert_true(h.s.elim_cell[k] <= 1 && h.s.elim_val[k] >= 3);
    rules_free(h.r);
}

/* A dynamic forcing chain's branch reads the cage sums: with the cage
 * r1c1,r1c2 adding up to 5 and r1c2 holding only {3,4}, r1c1 = 3 leaves
 * r1c2 nothing (the static branch, singles alone, places 4 there and
 * stands, the cage adding up to 7), and r1c1 = 1 makes r1c2 a 4. */
static void test_dynamic_branch_cages(void **state)
{
    static struct hand h;
    uint16_t m[LG_MAX_CELLS];
    uint8_t done[LG_MAX_CELLS];

    (void)state;
    hand_init(&h, 0, "5:0,1");
    hand_keep(&h, 0, 1, "34");
    assert_int_equal(lg_forcing_branch(&h.c, false, true, 0, 3, m, done), 0);
    assert_true(done[1] && m[1] == 1u << 3);
    assert_int_equal(lg_forcing_branch(&h.c, true, true, 0, 3, m, done), -1);
    assert_int_equal(lg_forcing_branch(&h.c, true, true, 0, 1, m, done), 0);
    assert_true(done[1] && m[1] == 1u << 3);
    rules_free(h.r);
}

/* A dynamic branch that solves every cell still checks its cages, and
 * ends: a grid with r1c1 and r1c2 open (cage adding up to 9 + 8), r1c1 = 9
 * solves it and stands; under a cage adding up to 16 it breaks. */
static void test_dynamic_branch_solves(void **state)
{
    static const char grid[] = "987654321246173985351928746128537694634892157"
                               "795461832519286473472319568863745219";
    static struct hand h;
    uint8_t cells[81];
    uint16_t m[LG_MAX_CELLS];
    uint8_t done[LG_MAX_CELLS];

    (void)state;
    for (uint32_t i = 0; i < 81; i++)
        cells[i] = (uint8_t)(i < 2 ? 0 : grid[i] - '0');
    for (int wrong = 0; wrong < 2; wrong++) {
        hand_init(&h, 0, wrong ? "16:0,1" : "17:0,1");
        assert_int_equal(lg_grid_load(&h.g, &h.geo, cells), 0);
        assert_int_equal(lg_forcing_branch(&h.c, true, true, 0, 9, m, done), wrong ? -1 : 0);
        if (!wrong)
            for (uint32_t i = 0; i < 81; i++)
                assert_true(done[i] && m[i] == 1u << (grid[i] - '1'));
        rules_free(h.r);
    }
}

/* A memo of cage fillings answers as the search does, on its first look at
 * a cage's candidates and on every look after (random candidates, drawn
 * again so that looks repeat; cages of 2 to 6 cells, and one of 7 that the
 * memo does not keep). */
static void test_cage_memo(void **state)
{
    static struct hand h;
    struct lg_cage_memo *memo = lg_cage_memo_new();
    uint16_t m[81];
    uint32_t a[LG_MAX_N], b[LG_MAX_N], x = 12345, fills = 0;

    (void)state;
    assert_non_null(memo);
    hand_init(&h, 0,
              "3:0,1;15:2,3,4;20:9,10,11,12;25:18,19,20,21,22;30:27,28,29,30,31,32;"
              "33:36,37,38,39,40,41,42");
    for (uint32_t round = 0; round < 4000; round++) {
        x = (round % 2000) * 2654435761u + 7; /* rounds 2000.. repeat rounds 0.. */
        for (uint32_t i = 0; i < 81; i++) {
            x = x * 1103515245u + 12345u;
            m[i] = (uint16_t)(((x >> 8) & 0x1ff) | 1u << ((x >> 20) % 9));
        }
        for (uint32_t k = 0; k < h.sr->cages_len; k++) {
            const uint32_t len = h.sr->cages[k].len;
            const bool ok = lg_cage_poss(&h.geo, NULL, k, m, a);
            assert_int_equal(lg_cage_poss(&h.geo, memo, k, m, b), ok);
            fills += ok;
            for (uint32_t i = 0; ok && i < len; i++)
                assert_int_equal(a[i], b[i]);
        }
    }
    print_message("%u looks with a filling\n", fills);
    assert_true(fills > 100); /* the draw makes fillings, not only failures */
    free(memo);
    rules_free(h.r);
}

/* cage_locked_candidates: the cage r1c1,r1c2,r2c1 adds up to 6, so it holds
 * 1 (and 2 and 3); 1 leaves the rest of box 1, which sees all its cells. */
static void test_cage_locked(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, 0, "6:0,1,9");
    hand_keep(&h, 0, 0, "123"); /* as cage_combination leaves them */
    hand_keep(&h, 0, 1, "123");
    hand_keep(&h, 1, 0, "123");
    hand_check(&h, lg_cage_locked, "cage_locked_candidates", 2.7);
    for (uint32_t k = 0; k < h.s.elim_len; k++) {
        assert_int_equal(h.geo.bx[h.s.elim_cell[k]], 0);
        assert_int_equal(h.s.elim_val[k], 1);
    }
    rules_free(h.r);
}

/* rule_of_45, innies: in row 1 the cages r1c1-r1c8 add up to 36, so r1c9
 * is 9. */
static void test_rule_of_45_innies(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, 0, "3:0,1;7:2,3;11:4,5;15:6,7");
    hand_check(&h, lg_rule_of_45, "rule_of_45", 2.9);
    assert_int_equal(h.s.elim_len, 8);
    for (uint32_t k = 0; k < h.s.elim_len; k++)
        assert_int_equal(h.s.elim_cell[k], 8);
    rules_free(h.r);
}

/* rule_of_45, outies: row 1's cages inside add up to 21, so r1c7-r1c9 add
 * up to 24 (already {7,8,9}); the cages crossing the row add up to 30, so
 * the cells they put in row 2, r2c7 and r2c9, add up to 6: neither is 3 or
 * above 5. */
static void test_rule_of_45_outies(void **state)
{
    static struct hand h;

    (void)state;
    hand_init(&h, 0, "3:0,1;7:2,3;11:4,5;18:6,7,15;12:8,17");
    for (uint32_t c = 6; c < 9; c++)
        hand_keep(&h, 0, c, "789");
    hand_check(&h, lg_rule_of_45, "rule_of_45", 2.9);
    assert_true(strstr(h.s.text, "outside") != NULL);
    for (uint32_t k = 0; k < h.s.elim_len; k++)
        assert_true(h.s.elim_cell[k] == 15 || h.s.elim_cell[k] == 17);
    rules_free(h.r);
}

/* The host's replay places under the rules: on X-sudoku, r1c1's given 2
 * takes 2 from r8c8 (the main diagonal), so a step removing it there
 * changes nothing and is refused; classically it would be a change. */
static void test_verify_knows_rules(void **state)
{
    static struct vline v;
    static struct expl x;
    struct rules *r = NULL;
    uint8_t solution[SDK_MAX_CELLS];
    uint64_t count = 0;
    char err[256];

    (void)state;
    assert_int_equal(parse_line(&v, "diagonals "
                                    "23..5..8....18........6.1..1..94..6......24.9....."
                                    "1.....4...8.............5......"),
                     0);
    assert_int_equal(rules_new(&v.desc, &r, err, sizeof(err)), 0);
    assert_int_equal(rules_count(rules_sdk(r), 9, v.cells, 2, 0, solution, &count), 0);
    assert_int_equal(count, 1);
    assert_int_equal(v.cells[0], 2);
    assert_int_not_equal(solution[70], 2);
    expl_init(&x, 9, v.cells, rules_sdk(r));
    x.job.steps_len = 1;
    x.job.eliminations_len = 1;
    x.steps[0] = (struct sdk_step){.technique = "hidden_single", .rating = 1.5, .elim_len = 1};
    x.elim[0] = (struct sdk_cell_value){.cell = 70, .value = 2};
    x.job.status = SDK_EXPLAIN_PARTIAL;
    x.job.max_steps = 1;
    x.job.rating = 1.5;
    assert_int_equal(verify_answer(&x, solution), -EIO);
    x.job.rules = NULL; /* the same step on classic rules is a change */
    assert_int_equal(verify_answer(&x, solution), 0);
    rules_free(r);
}

/* ------------------------------------------------------------------ */
/* Bad rules                                                           */
/* ------------------------------------------------------------------ */

/* A kind the plugin does not take is -ENOTSUP; rules of another side, or
 * a house that is not what its place says, -EINVAL; nothing is explained. */
static void test_bad_rules(void **state)
{
    struct rules_desc d = {.n = 4, .flags = SDK_RULE_DIAGONALS};
    struct rules *r = NULL;
    char err[256];
    static uint8_t cells[81];
    static struct expl x;
    struct sdk_rules bad;

    (void)state;
    assert_int_equal(rules_new(&d, &r, err, sizeof(err)), 0);
    expl_init(&x, 9, cells, rules_sdk(r));
    assert_int_equal(plugin->explain(plugin_state, NULL, &x.job), -EINVAL); /* 4x4 rules, 9x9 */
    bad = *rules_sdk(r);
    expl_init(&x, 4, cells, &bad);
    bad.houses_len = 3 * 4; /* the diagonals missing */
    assert_int_equal(plugin->explain(plugin_state, NULL, &x.job), -EINVAL);
    bad = *rules_sdk(r);
    bad.kinds |= 1u << 7; /* a kind no minor has */
    assert_int_equal(plugin->explain(plugin_state, NULL, &x.job), -ENOTSUP);
    bad = *rules_sdk(r);
    bad.differ_len = 1; /* a pair with no table */
    bad.differ = NULL;
    assert_int_equal(plugin->explain(plugin_state, NULL, &x.job), -EINVAL);
    expl_init(&x, 4, cells, rules_sdk(r));
    assert_int_equal(plugin->explain(plugin_state, NULL, &x.job), 0); /* the tables as built */
    rules_free(r);
}

/* The variant rungs: names snake_case, ratings rising, documented. */
static void test_var_ladder_documented(void **state)
{
    size_t len = 0;
    const struct lg_rung *rung = lg_var_ladder(&len);
    FILE *f = fopen(SUDOKU_DOCS_DIR "/techniques.md", "r");
    static char doc[1 << 16];
    char row[128];

    (void)state;
    assert_non_null(f);
    doc[fread(doc, 1, sizeof(doc) - 1, f)] = '\0';
    fclose(f);
    assert_true(len >= 1);
    for (size_t i = 0; i < len; i++) {
        if (i)
            assert_true(rung[i].rating > rung[i - 1].rating);
        for (const char *p = rung[i].name; *p; p++)
            assert_true((*p >= 'a' && *p <= 'z') || *p == '_' || (*p >= '0' && *p <= '9'));
        snprintf(row, sizeof(row), "| `%s` | %.1f |", rung[i].name, rung[i].rating);
        assert_non_null(strstr(doc, row));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_nc_pair),
        cmocka_unit_test(test_nc_places),
        cmocka_unit_test(test_pointing_diagonal),
        cmocka_unit_test(test_claiming_knight),
        cmocka_unit_test(test_cage_combination),
        cmocka_unit_test(test_dynamic_branch_cages),
        cmocka_unit_test(test_dynamic_branch_solves),
        cmocka_unit_test(test_cage_memo),
        cmocka_unit_test(test_cage_locked),
        cmocka_unit_test(test_rule_of_45_innies),
        cmocka_unit_test(test_rule_of_45_outies),
        cmocka_unit_test(test_verify_knows_rules),
        cmocka_unit_test(test_bad_rules),
        cmocka_unit_test(test_var_ladder_documented),
    };
    plugin = sudoku_plugin_entry();
    if (plugin->init(NULL, &plugin_state) != 0)
        return 1;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    plugin->fini(plugin_state);
    return rc;
}
