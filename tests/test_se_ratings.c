/* test_se_ratings.c -- `rate` against Sudoku Explainer's ratings (tests/data/se_ratings.txt).
 *
 * Each line of the golden file is a puzzle with the ratings Sudoku
 * Explainer 1.2.1.3 gave it (the header says how they were made).  The
 * logic plugin explains each one through the real dlopen path and
 * host_explain(), which replays every step against the unique solution;
 * the ratings must be SE's ER, EP and ED exactly.  The same pass checks that the
 * techniques SE rates below the naked single (hidden singles by where they
 * are found, the direct techniques) occur on this path, each as SE makes
 * it: one placement, no elimination.  (Direct claiming, 1.9, never comes
 * first on these puzzles: test_logic_tech has it on a hand-made position.)
 * A second starts from the positions of tests/data/se_steps.txt (values and
 * pencil marks), where SE's first step is a unique rectangle or loop, a
 * BUG, an aligned exclusion or a dynamic forcing chain (+): the first step
 * must be SE's, removing the same candidates at the same rating.  The
 * forum's hardest lines need SE's nested forcing chains (levels 2 and 3).
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
#include "sanitizer.h"

#define LINE_MAX_B 256
#define NAMES      8 /* direct techniques counted */
/* Under a sanitizer (sanitizer.h) one line in SAMPLE is explained, and of
 * the forum's hardest (ER 10 and up) the first: every technique's path is
 * walked for memory errors, while Release checks every line's ratings. */
#define SAMPLE (TEST_SANITIZED ? 4u : 1u)

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

/* Call fn on every golden line (a sample under a sanitizer: SAMPLE) with
 * its explanation. */
static void each_line(void (*fn)(const char *line, const struct se_line *l,
                                 const struct sdk_explain *x, void *arg),
                      void *arg)
{
    char line[LINE_MAX_B];
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/se_ratings.txt", "r");
    uint32_t lines = 0, seen = 0, forum = 0;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        struct se_line l;
        struct sdk_explain x;
        uint8_t solution[81];
        if (!parse_line(line, &l))
            continue;
        const bool is_forum = l.er >= 10.0;
        const bool is_out = is_forum ? forum > 0 && SAMPLE > 1 : seen % SAMPLE != 0;
        seen += !is_forum;
        if (is_out)
            continue;
        forum += is_forum;
        void *arrays = explain(&l, &x, solution);
        fn(line, &l, &x, arg);
        free(arrays);
        lines++;
    }
    fclose(f);
    assert_true(lines >= 300 / SAMPLE);
}

/* What test_er_ep_ed counts. */
struct er_count {
    uint32_t bad;       /* lines whose ratings differ from SE's */
    uint32_t nested[2]; /* steps of SE's nested forcing chains, levels 2 and 3 */
};

/* ER, the rating of the hardest step, EP, the hardest up to the first
 * placement, and ED, the first step's, as SE rates them. */
static void check_er(const char *line, const struct se_line *l, const struct sdk_explain *x,
                     void *arg)
{
    struct er_count *c = arg;
    uint32_t *bad = &c->bad;

    for (uint32_t i = 0; i < x->steps_len; i++) {
        c->nested[0] += !strcmp(x->steps[i].technique, "nested_forcing_chain");
        c->nested[1] += !strcmp(x->steps[i].technique, "nested_multiple_forcing_chain");
    }
    if (x->status == SDK_EXPLAIN_SOLVED && fabs(x->rating - l->er) < 1e-9 &&
        fabs(x->ep - l->ep) < 1e-9 && fabs(x->ed - l->ed) < 1e-9)
        return;
    print_message("ER/EP/ED %.1f/%.1f/%.1f (%s), SE %.1f/%.1f/%.1f: %s", x->rating, x->ep, x->ed,
                  x->hardest ? x->hardest : "-", l->er, l->ep, l->ed, line);
    (*bad)++;
}

/* The direct steps counted. */
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

/* Both counts of one line. */
struct line_count {
    struct er_count er;
    struct direct_count direct;
};

static void check_line(const char *line, const struct se_line *l, const struct sdk_explain *x,
                       void *arg)
{
    struct line_count *c = arg;

    check_er(line, l, x, &c->er);
    count_direct(line, l, x, &c->direct);
}

/* One pass over the golden file (a forum line takes a second to explain):
 * ER, EP and ED as SE's, and the direct steps on the way. */
static void test_er_ep_ed(void **state)
{
    struct line_count c = {
        .direct.name = {"hidden_single", "hidden_single", "hidden_single", "direct_pointing",
                        "direct_hidden_pair", "direct_hidden_triple"},
        .direct.rating = {1.0, 1.2, 1.5, 1.7, 2.0, 2.5},
    };

    (void)state;
    each_line(check_line, &c);
    print_message("nested forcing chains on the path: %u of level 2, %u of level 3\n",
                  c.er.nested[0], c.er.nested[1]);
    assert_int_equal(c.er.bad, 0);
    /* the forum's hardest lines take both levels on their way (each step
     * replayed against the solution by host_explain) */
    assert_true(c.er.nested[0] > 0 && c.er.nested[1] > 0);
    for (int k = 0; k < NAMES && c.direct.name[k]; k++) {
        print_message("%s %.1f: %u steps\n", c.direct.name[k], c.direct.rating[k],
                      c.direct.seen[k]);
        assert_true(c.direct.seen[k] > 0);
    }
}

/* ------------------------------------------------------------------------ */
/* SE's uniqueness and aligned exclusion steps (tests/data/se_steps.txt)      */
/* ------------------------------------------------------------------------ */

/* One line of se_steps.txt: a position and SE's first step from it. */
struct se_step {
    uint8_t cells[81];                  /* the givens */
    uint8_t progress[81];               /* the values placed (givens included) */
    uint8_t marks[81 * 9];              /* candidates: marks[cell * 9 + d - 1] != 0 */
    char technique[32];                 /* the step's technique */
    double rating;                      /* its rating */
    uint32_t elim_len;                  /* entries in elim */
    struct sdk_cell_value elim[81 * 9]; /* what it removes */
};

/* 81 characters of digits and '.' into cells. */
static void parse_grid(const char *text, uint8_t *cells)
{
    assert_int_equal(strlen(text), 81);
    for (int i = 0; i < 81; i++)
        cells[i] = text[i] >= '1' && text[i] <= '9' ? (uint8_t)(text[i] - '0') : 0;
}

/* "r1c2:9,r5c5:3" into st->elim. */
static void parse_elims(char *text, struct se_step *st)
{
    unsigned r, c, d;

    st->elim_len = 0;
    for (char *tok = strtok(text, ","); tok; tok = strtok(NULL, ",")) {
        assert_int_equal(sscanf(tok, "r%uc%u:%u", &r, &c, &d), 3);
        assert_true(r >= 1 && r <= 9 && c >= 1 && c <= 9 && d >= 1 && d <= 9);
        st->elim[st->elim_len++] =
            (struct sdk_cell_value){.cell = (uint16_t)((r - 1) * 9 + c - 1), .value = (uint8_t)d};
    }
    assert_true(st->elim_len > 0);
}

/* Parse a line of se_steps.txt; false for a comment. */
static bool parse_step(const char *line, struct se_step *st)
{
    char g[96], p[96], m[768], e[1024];

    if (line[0] == '#')
        return false;
    assert_int_equal(
        sscanf(line, "%95s %95s %767s %31s %lf %1023s", g, p, m, st->technique, &st->rating, e), 6);
    parse_grid(g, st->cells);
    parse_grid(p, st->progress);
    assert_int_equal(strlen(m), 81 * 9);
    for (int i = 0; i < 81 * 9; i++)
        st->marks[i] = m[i] != '.';
    parse_elims(e, st);
    return true;
}

/* Does step s of x remove exactly what st says? */
static void assert_same_elims(const struct sdk_explain *x, const struct sdk_step *s,
                              const struct se_step *st)
{
    assert_int_equal(s->elim_len, st->elim_len);
    for (uint32_t i = 0; i < st->elim_len; i++) {
        bool found = false;
        for (uint32_t k = 0; k < s->elim_len; k++) {
            const struct sdk_cell_value *v = &x->eliminations[s->elim_off + k];
            found |= v->cell == st->elim[i].cell && v->value == st->elim[i].value;
        }
        assert_true(found);
    }
}

/* The first step from st's position (the host checks it against the unique
 * solution, as every step): SE's technique, rating and eliminations. */
static void check_step(const struct se_step *st)
{
    struct sdk_explain x;
    uint8_t solution[81];
    void *arrays;

    memset(&x, 0, sizeof(x));
    arrays = host_explain_arrays(&x, 9, 1);
    assert_non_null(arrays);
    x.size = sizeof(x);
    x.n = 9;
    x.cells = st->cells;
    x.progress = st->progress;
    x.candidates = st->marks;
    x.max_steps = 1;
    assert_int_equal(host_explain(logic, solver, &x, solution), 0);
    assert_int_equal(x.steps_len, 1);
    const struct sdk_step *s = &x.steps[0];
    print_message("%s %.1f: %.*s\n", s->technique, s->rating, (int)s->text_len,
                  x.text + s->text_off);
    assert_string_equal(s->technique, st->technique);
    assert_true(fabs(s->rating - st->rating) < 1e-9);
    assert_int_equal(s->place_len, 0);
    assert_same_elims(&x, s, st);
    free(arrays);
}

/* Every step of se_steps.txt, and every new rung among them. */
static void test_se_steps(void **state)
{
    static const char *const names[] = {"unique_rectangle",
                                        "unique_loop",
                                        "bug",
                                        "aligned_pair_exclusion",
                                        "aligned_triple_exclusion",
                                        "dynamic_forcing_chain_plus"};
    static struct se_step st;
    uint32_t seen[6] = {0}, lines = 0;
    char line[2048];
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/se_steps.txt", "r");

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        if (!parse_step(line, &st))
            continue;
        check_step(&st);
        for (int k = 0; k < 6; k++)
            seen[k] += !strcmp(st.technique, names[k]);
        lines++;
    }
    fclose(f);
    for (int k = 0; k < 6; k++)
        assert_true(seen[k] > 0);
    assert_true(lines >= 10);
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
        cmocka_unit_test(test_er_ep_ed),
        cmocka_unit_test(test_se_steps),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
