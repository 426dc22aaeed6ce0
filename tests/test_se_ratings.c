/* test_se_ratings.c -- `rate` against Sudoku Explainer's ratings (tests/data/se_ratings.txt).
 *
 * Each line of the golden file is a puzzle with the ratings Sudoku
 * Explainer 1.2.1.3 gave it (the header says how they were made).  The
 * logic plugin explains each one through the real dlopen path and
 * host_explain(), which replays every step against the unique solution;
 * the rating must be SE's ER exactly.  A second test checks that the
 * techniques SE rates below the naked single (hidden singles by where they
 * are found, the direct techniques) occur on this path, each as SE makes
 * it: one placement, no elimination.  (Direct claiming, 1.9, never comes
 * first on these puzzles: test_logic_tech has it on a hand-made position.)
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/host.h"

#define LINE_MAX_B 256
#define NAMES      8 /* techniques counted by test_direct_steps */

static struct host *host;
static const struct host_plugin *logic, *solver;

/* One golden line. */
struct se_line {
    uint8_t cells[81]; /* the puzzle, 0 for a blank */
    double er, ep, ed; /* SE's ratings */
};

/* Parse "PUZZLE ER EP ED"; false for a comment or a blank line. */
static bool parse_line(const char *line, struct se_line *l)
{
    char p[LINE_MAX_B];

    if (line[0] == '#' || sscanf(line, "%255s %lf %lf %lf", p, &l->er, &l->ep, &l->ed) != 4)
        return false;
    assert_int_equal(strlen(p), 81);
    for (int i = 0; i < 81; i++)
        l->cells[i] = p[i] >= '1' && p[i] <= '9' ? (uint8_t)(p[i] - '0') : 0;
    return true;
}

/* Explain l fully into x (arrays from host_explain_arrays; caller frees). */
static void *explain(const struct se_line *l, struct sdk_explain *x, uint8_t *solution)
{
    void *arrays;

    memset(x, 0, sizeof(*x));
    arrays = host_explain_arrays(x, 9, 1);
    assert_non_null(arrays);
    x->size = sizeof(*x);
    x->n = 9;
    x->cells = l->cells;
    assert_int_equal(host_explain(logic, solver, x, solution), 0);
    return arrays;
}

/* Call fn on every golden line with its explanation. */
static void each_line(void (*fn)(const char *line, const struct se_line *l,
                                 const struct sdk_explain *x, void *arg),
                      void *arg)
{
    char line[LINE_MAX_B];
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/se_ratings.txt", "r");
    uint32_t lines = 0;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        struct se_line l;
        struct sdk_explain x;
        uint8_t solution[81];
        if (!parse_line(line, &l))
            continue;
        void *arrays = explain(&l, &x, solution);
        fn(line, &l, &x, arg);
        free(arrays);
        lines++;
    }
    fclose(f);
    assert_true(lines >= 300);
}

/* ER: the rating of the hardest step, as SE rates it. */
static void check_er(const char *line, const struct se_line *l, const struct sdk_explain *x,
                     void *arg)
{
    uint32_t *bad = arg;

    if (x->status == SDK_EXPLAIN_SOLVED && fabs(x->rating - l->er) < 1e-9)
        return;
    print_message("ER %.1f (%s), SE %.1f: %s", x->rating, x->hardest ? x->hardest : "-", l->er,
                  line);
    (*bad)++;
}

static void test_er(void **state)
{
    uint32_t bad = 0;

    (void)state;
    each_line(check_er, &bad);
    assert_int_equal(bad, 0);
}

/* What test_direct_steps counts. */
struct direct_count {
    const char *name[NAMES]; /* technique */
    double rating[NAMES];    /* its rating there */
    uint32_t seen[NAMES];    /* steps of it */
};

/* Count the steps of each technique in c; a direct step or a single places
 * one cell and eliminates nothing. */
static void count_direct(const char *line, const struct se_line *l, const struct sdk_explain *x,
                         void *arg)
{
    struct direct_count *c = arg;

    (void)line;
    (void)l;
    for (uint32_t i = 0; i < x->steps_len; i++) {
        const struct sdk_step *s = &x->steps[i];
        for (int k = 0; k < NAMES && c->name[k]; k++) {
            if (strcmp(s->technique, c->name[k]) || fabs(s->rating - c->rating[k]) > 1e-9)
                continue;
            assert_int_equal(s->place_len, 1);
            assert_int_equal(s->elim_len, 0);
            c->seen[k]++;
        }
    }
}

static void test_direct_steps(void **state)
{
    struct direct_count c = {
        .name = {"hidden_single", "hidden_single", "hidden_single", "direct_pointing",
                 "direct_hidden_pair", "direct_hidden_triple"},
        .rating = {1.0, 1.2, 1.5, 1.7, 2.0, 2.5},
    };

    (void)state;
    each_line(count_direct, &c);
    for (int k = 0; k < NAMES && c.name[k]; k++) {
        print_message("%s %.1f: %u steps\n", c.name[k], c.rating[k], c.seen[k]);
        assert_true(c.seen[k] > 0);
    }
}

static int setup(void **state)
{
    (void)state;
    host = host_new(NULL, NULL);
    if (!host || host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) <= 0)
        return -1;
    logic = host_find(host, "logic");
    solver = host_find(host, "bitmask");
    return logic && solver ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    host_free(host);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_er),
        cmocka_unit_test(test_direct_steps),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
