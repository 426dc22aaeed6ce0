/* test_logic.c -- the logic plugin's explanations through the host, and ABI minor 1.
 *
 * Everything goes through the real dlopen path and host_explain(), which
 * replays each step against the unique solution; this test checks the same
 * again on its own (soundness, every step changes something, solved ends at
 * the solution) so a checker bug cannot hide a plugin bug.  Corpora: the
 * golden file, kaggle_sample.txt (solvable by singles), norvig_top95.txt
 * and a sample of forum_hardest_1905_11.txt, all in tests/data/.  The ABI
 * tests load tests/explainplugins (tests/plugins/texplain.c): a plugin built
 * against minor 0, and four explain() liars the host must refuse.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/grid.h"
#include "core/host.h"
#include "sanitizer.h"

#define LOG_LINE            512
#define LINE_MAX_B          1024
#define NAKED_SINGLE_RATING 2.3

static struct host *host;
static const struct host_plugin *logic, *solver;
static char last_log[LOG_LINE]; /* the test is single-threaded */

static void capture_log(void *ctx, int level, const char *msg)
{
    (void)ctx;
    (void)level;
    snprintf(last_log, sizeof(last_log), "%s", msg);
}

/* An explanation with the arrays the daemon gives one (host_explain_arrays,
 * text included), which must never run out. */
struct expl {
    struct sdk_explain job;
    void *arrays;
    uint8_t cells[SDK_MAX_CELLS];
    uint8_t solution[SDK_MAX_CELLS];
    uint8_t grid[SDK_MAX_CELLS];
};

static void expl_init(struct expl *x, uint32_t n, uint32_t max_steps)
{
    memset(&x->job, 0, sizeof(x->job));
    x->arrays = host_explain_arrays(&x->job, n, 1);
    assert_non_null(x->arrays);
    assert_int_equal(x->job.steps_cap, n * n * n);
    assert_int_equal(x->job.placements_cap, n * n);
    assert_int_equal(x->job.eliminations_cap, n * n * n);
    assert_true(x->job.cells_out_cap > 0 && x->job.text_cap > 0);
    x->job.size = sizeof(x->job);
    x->job.n = n;
    x->job.cells = x->cells;
    x->job.max_steps = max_steps;
    x->job.grid = x->grid;
}

static void expl_free(struct expl *x)
{
    free(x->arrays);
}

/* Parse a line-form puzzle into cells; returns n, or 0. */
static uint32_t parse_puzzle(const char *s, uint8_t *cells)
{
    size_t len = strcspn(s, "\r\n:");
    uint32_t n = len == 16 ? 4 : len == 81 ? 9 : len == 256 ? 16 : len == 625 ? 25 : 0;

    for (size_t i = 0; n && i < len; i++) {
        char ch = s[i];
        cells[i] = ch >= '1' && ch <= '9'   ? (uint8_t)(ch - '0')
                   : ch >= 'A' && ch <= 'P' ? (uint8_t)(ch - 'A' + 10)
                                            : 0;
    }
    return n;
}

/* Check every step of x on our own: sound, changes the candidates; a solved
 * explanation ends at the solution. */
static void check_steps(const struct expl *x)
{
    const struct sdk_explain *j = &x->job;
    const uint32_t n = j->n, nc = n * n, b = sdk_box_side(n);
    double hardest = 0.0;
    const char *hardest_name = NULL;
    uint8_t val[SDK_MAX_CELLS];
    uint32_t cand[SDK_MAX_CELLS];

    for (uint32_t i = 0; i < nc; i++) {
        val[i] = 0;
        cand[i] = (1u << n) - 1;
    }
    for (uint32_t i = 0; i < nc; i++)
        for (uint32_t k = 0; x->cells[i] && k < nc; k++) {
            uint32_t r = i / n, c = i % n, r2 = k / n, c2 = k % n;
            if (r == r2 || c == c2 || (r / b == r2 / b && c / b == c2 / b))
                cand[k] &= ~(1u << (x->cells[i] - 1));
            val[i] = x->cells[i];
        }
    for (uint32_t s = 0; s < j->steps_len; s++) {
        const struct sdk_step *st = &j->steps[s];
        int changed = 0;
        assert_non_null(st->technique);
        assert_true(st->rating > 0.0);
        for (uint32_t k = 0; k < st->elim_len; k++) {
            const struct sdk_cell_value *cv = &j->eliminations[st->elim_off + k];
            assert_int_not_equal(x->solution[cv->cell], cv->value);
            changed |= !val[cv->cell] && (cand[cv->cell] >> (cv->value - 1)) & 1;
            cand[cv->cell] &= ~(1u << (cv->value - 1));
        }
        for (uint32_t k = 0; k < st->place_len; k++) {
            const struct sdk_cell_value *cv = &j->placements[st->place_off + k];
            assert_int_equal(x->solution[cv->cell], cv->value);
            changed |= !val[cv->cell];
            val[cv->cell] = cv->value;
            for (uint32_t q = 0; q < nc; q++) {
                uint32_t r = cv->cell / n, c = cv->cell % n, r2 = q / n, c2 = q % n;
                if (r == r2 || c == c2 || (r / b == r2 / b && c / b == c2 / b))
                    cand[q] &= ~(1u << (cv->value - 1));
            }
        }
        assert_true(changed);
        if (st->rating > hardest) {
            hardest = st->rating;
            hardest_name = st->technique;
        }
        assert_true(st->text_len > 0);
    }
    if (j->status == SDK_EXPLAIN_SOLVED)
        assert_memory_equal(val, x->solution, nc);
    if (j->status == SDK_EXPLAIN_STUCK)
        assert_true(j->rating == 10.0);
    else if (j->status == SDK_EXPLAIN_ABOVE)
        assert_true(j->rating > j->max_rating && j->rating > hardest);
    else
        assert_true(j->rating == hardest);
    if (hardest_name)
        assert_string_equal(hardest_name, j->hardest);
    assert_memory_equal(val, x->grid, nc);
}

/* Explain one line-form puzzle fully with logic.  Returns host_explain's
 * answer; on 0 the steps have been checked. */
static int explain_line(const char *line, struct expl *x)
{
    uint32_t n = parse_puzzle(line, x->cells);
    int rc;

    assert_true(n != 0);
    expl_init(x, n, 0);
    rc = host_explain(logic, solver, &x->job, x->solution);
    if (rc == 0)
        check_steps(x);
    return rc;
}

/* Mean rating of the puzzles in a data file; every one must explain. */
/* The forum's hardest take a second or more each (SE's nested forcing
 * chains, several times over in the tests that explain a puzzle more than
 * once): those tests read only this many lines of their sample, one under
 * a sanitizer (sanitizer.h). */
#define FORUM_LINES (TEST_SANITIZED ? 1 : 4)

/* Mean rating of the first most puzzles of file (0: all). */
static double mean_rating(const char *file, uint32_t most, double *max, uint32_t *stuck)
{
    char path[512], line[LINE_MAX_B];
    double sum = 0.0;
    uint32_t len = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", SUDOKU_TEST_DATA_DIR, file);
    f = fopen(path, "r");
    assert_non_null(f);
    *max = 0.0;
    *stuck = 0;
    while ((!most || len < most) && fgets(line, sizeof(line), f)) {
        struct expl x;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        assert_int_equal(explain_line(line, &x), 0);
        assert_true(x.job.status == SDK_EXPLAIN_SOLVED || x.job.status == SDK_EXPLAIN_STUCK);
        *stuck += x.job.status == SDK_EXPLAIN_STUCK;
        sum += x.job.rating;
        *max = x.job.rating > *max ? x.job.rating : *max;
        len++;
        expl_free(&x);
    }
    fclose(f);
    assert_true(len > 0);
    return sum / len;
}

/* ---------------------------------------------------------------- tests */

static int setup(void **state)
{
    (void)state;
    host = host_new(capture_log, NULL);
    if (!host || host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) <= 0)
        return -1;
    if (host_load_dir(host, SUDOKU_EXPLAINPLUGIN_DIR) <= 0)
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

/* Every golden puzzle: unique ones explain soundly, the others are refused
 * with the right code, 25x25 is unsupported. */
static void test_golden(void **state)
{
    char line[LINE_MAX_B * 2];
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/golden.txt", "r");
    uint32_t explained = 0, by_size[17] = {0};

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        char *p = line, *limit, *expected, *puzzle;
        struct expl x;
        if (line[0] == '#' || !strchr(line, ':'))
            continue;
        limit = strsep(&p, ":");
        expected = strsep(&p, ":");
        strsep(&p, ":");
        puzzle = p;
        if (!puzzle || expected[0] == 'x')
            continue;
        int rc = explain_line(puzzle, &x);
        if (x.job.n == 25)
            assert_int_equal(rc, -ENOTSUP);
        else if (strcmp(expected, "0") == 0)
            assert_int_equal(rc, -EDOM);
        else if (strcmp(expected, "1") == 0 && strcmp(limit, "1") == 0)
            assert_true(rc == 0 || rc == -ENOTUNIQ); /* only the first was asked for */
        else if (strcmp(expected, "1") == 0) {
            assert_int_equal(rc, 0);
            explained++;
            by_size[x.job.n]++;
        } else
            assert_int_equal(rc, -ENOTUNIQ);
        expl_free(&x);
    }
    fclose(f);
    assert_true(explained >= 10);
    assert_true(by_size[4] > 0 && by_size[9] > 0 && by_size[16] > 0);
}

/* Singles-only puzzles rate at most the naked single; ratings rise from
 * kaggle to norvig to the forum's hardest. */
static void test_corpus_ratings(void **state)
{
    double kmax, nmax, fmax;
    uint32_t kstuck, nstuck, fstuck;
    double k = mean_rating("kaggle_sample.txt", 0, &kmax, &kstuck);
    double n = mean_rating("norvig_top95.txt", 0, &nmax, &nstuck);
    double fh = mean_rating("forum_hardest_sample.txt", FORUM_LINES, &fmax, &fstuck);

    (void)state;
    print_message("mean rating: kaggle %.2f, norvig %.2f (stuck %u), forum %.2f (stuck %u)\n", k, n,
                  nstuck, fh, fstuck);
    assert_true(kmax <= NAKED_SINGLE_RATING);
    assert_int_equal(kstuck, 0);
    assert_true(k < n);
    assert_true(n < fh);
    assert_int_equal(fstuck, 0); /* SE's nested forcing chains see them through */
    assert_true(fh > 10.0);
}

/* Explain line with the rating ceiling c and compare with full, the same
 * puzzle explained without one: at or below the ceiling nothing changes;
 * above it the plugin stops with SDK_EXPLAIN_ABOVE, a rating above c and no
 * higher than the full one, after a prefix of the full path.  Returns 1
 * when it stopped above. */
static int check_ceiling(const char *line, const struct expl *full, double c)
{
    struct expl x;
    int above;

    assert_true(parse_puzzle(line, x.cells) != 0);
    expl_init(&x, full->job.n, 0);
    x.job.max_rating = c;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    check_steps(&x);
    above = full->job.rating > c;
    if (above) {
        assert_int_equal(x.job.status, SDK_EXPLAIN_ABOVE);
        assert_true(x.job.rating > c && x.job.rating <= full->job.rating);
        assert_true(x.job.steps_len <= full->job.steps_len);
    } else {
        assert_int_equal(x.job.status, full->job.status);
        assert_true(x.job.rating == full->job.rating);
        assert_int_equal(x.job.steps_len, full->job.steps_len);
    }
    for (uint32_t s = 0; s < x.job.steps_len; s++)
        assert_string_equal(x.job.steps[s].technique, full->job.steps[s].technique);
    expl_free(&x);
    return above;
}

/* Every puzzle of the three corpora that logic explains, fully explained
 * and checked into full, handed to each(line, full, arg). */
static void for_each_explained(void (*each)(const char *line, const struct expl *full, void *arg),
                               void *arg)
{
    static const char *files[] = {"norvig_top95.txt", "forum_hardest_sample.txt", "golden.txt"};
    static const uint32_t most[] = {0, FORUM_LINES, 0};
    char path[512], line[LINE_MAX_B];

    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        snprintf(path, sizeof(path), "%s/%s", SUDOKU_TEST_DATA_DIR, files[f]);
        FILE *in = fopen(path, "r");
        uint32_t read = 0;
        assert_non_null(in);
        while ((!most[f] || read++ < most[f]) && fgets(line, sizeof(line), in)) {
            struct expl full;
            uint32_t n = parse_puzzle(line, full.cells);
            if (line[0] == '#' || (n != 4 && n != 9 && n != 16) || explain_line(line, &full) != 0)
                continue;
            each(line, &full, arg);
            expl_free(&full);
        }
        fclose(in);
    }
}

/* max_rating (ABI minor 2), the band generator's ceiling, on real puzzles
 * of every band. */
/* Tally of test_ceiling. */
struct ceiling_tally {
    uint32_t above, within;
};

static void ceiling_each(const char *line, const struct expl *full, void *arg)
{
    /* The bands' tops, and ceilings that cut SE's chain rungs' searches
     * (lg_ctx.cut_above): 6.6 and 7.0 the first rung's, 8.0 the multiple
     * forcing chains', 8.7 the dynamic ones'. */
    static const double ceilings[] = {2.3, 2.8, 3.4, 4.2, 5.4, 6.6, 7.0, 8.0, 8.7};
    struct ceiling_tally *t = arg;

    for (size_t k = 0; k < sizeof(ceilings) / sizeof(ceilings[0]); k++) {
        int a = check_ceiling(line, full, ceilings[k]);
        t->above += (uint32_t)a;
        t->within += (uint32_t)!a;
    }
}

static void test_ceiling(void **state)
{
    struct ceiling_tally t = {0, 0};

    (void)state;
    for_each_explained(ceiling_each, &t);
    print_message("ceiling: %u stopped above, %u within\n", t.above, t.within);
    assert_true(t.above >= 100 && t.within >= 100);
}

/* Can cell i of givens (side n) hold v: no peer is given v? */
static int is_candidate(const uint8_t *givens, uint32_t n, uint32_t i, uint32_t v)
{
    const uint32_t b = sdk_box_side(n), r = i / n, c = i % n;

    for (uint32_t k = 0; k < n * n; k++) {
        const uint32_t r2 = k / n, c2 = k % n;
        if (givens[k] == v && (r == r2 || c == c2 || (r / b == r2 / b && c / b == c2 / b)))
            return 0;
    }
    return 1;
}

/* Explain x's puzzle with logic's own explain() (no host: no checks, no
 * copies), handing it solution (NULL: none, as an ABI minor-2 host). */
static void explain_direct(struct expl *x, uint32_t n, const uint8_t *solution)
{
    expl_init(x, n, 0);
    x->job.solution = solution;
    assert_int_equal(logic->desc->explain(logic->state, NULL, &x->job), 0);
}

/* a and b took the same steps, to the byte. */
static void assert_same_steps(const struct expl *a, const struct expl *b)
{
    const struct sdk_explain *p = &a->job, *q = &b->job;

    assert_int_equal(p->status, q->status);
    assert_int_equal(p->steps_len, q->steps_len);
    assert_int_equal(p->placements_len, q->placements_len);
    assert_int_equal(p->eliminations_len, q->eliminations_len);
    assert_int_equal(p->text_len, q->text_len);
    for (uint32_t s = 0; s < p->steps_len; s++)
        assert_string_equal(p->steps[s].technique, q->steps[s].technique);
    assert_memory_equal(p->placements, q->placements, p->placements_len * sizeof(p->placements[0]));
    assert_memory_equal(p->eliminations, q->eliminations,
                        p->eliminations_len * sizeof(p->eliminations[0]));
    assert_memory_equal(p->text, q->text, p->text_len);
    assert_memory_equal(a->grid, b->grid, p->n * p->n);
}

/* The solution a minor-3 host hands over (sdk_explain.solution) changes no
 * step but by saying the puzzle is unique: the same explanation with it as
 * without it, on real puzzles, unless it takes a uniqueness step (unique
 * rectangle or loop, BUG), which only a puzzle known to be unique allows;
 * without the solution there is none.  A wrong one (one open cell's value
 * swapped for another of its candidates, so that it still fits the
 * position) may cost steps but never makes an unsound one: those steps are
 * checked against the true solution. */
/* Tally of test_solution_hint. */
struct hint_tally {
    uint32_t puzzles, lies, unique;
};

/* The steps of x that assume a unique solution. */
static uint32_t uniqueness_steps(const struct expl *x)
{
    static const char *const names[] = {"unique_rectangle", "unique_loop", "bug"};
    uint32_t len = 0;

    for (uint32_t s = 0; s < x->job.steps_len; s++)
        for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
            len += !strcmp(x->job.steps[s].technique, names[k]);
    return len;
}

static void solution_hint_each(const char *line, const struct expl *full, void *arg)
{
    struct hint_tally *t = arg;
    const uint32_t n = full->job.n;
    struct expl with, without;
    uint8_t fake[SDK_MAX_CELLS];

    (void)line;
    memcpy(with.cells, full->cells, sizeof(full->cells));
    memcpy(without.cells, full->cells, sizeof(full->cells));
    explain_direct(&with, n, full->solution);
    explain_direct(&without, n, NULL);
    assert_int_equal(uniqueness_steps(&without), 0);
    if (uniqueness_steps(&with))
        t->unique++;
    else
        assert_same_steps(&with, &without);
    assert_same_steps(&with, full);
    t->puzzles++;
    expl_free(&with);
    expl_free(&without);
    /* The lie: the first open cell with another candidate. */
    memcpy(fake, full->solution, sizeof(fake));
    for (uint32_t i = 0; i < n * n && !memcmp(fake, full->solution, n * n); i++)
        for (uint32_t v = 1; !full->cells[i] && v <= n; v++)
            if (v != fake[i] && is_candidate(full->cells, n, i, v)) {
                fake[i] = (uint8_t)v;
                break;
            }
    memcpy(with.cells, full->cells, sizeof(full->cells));
    explain_direct(&with, n, fake);
    memcpy(with.solution, full->solution, sizeof(full->solution));
    check_steps(&with);
    t->lies += memcmp(fake, full->solution, n * n) != 0;
    expl_free(&with);
}

static void test_solution_hint(void **state)
{
    struct hint_tally t = {0, 0, 0};

    (void)state;
    for_each_explained(solution_hint_each, &t);
    print_message("solution hint: %u puzzles, %u with uniqueness steps, %u lies sound\n", t.puzzles,
                  t.unique, t.lies);
    assert_true(t.puzzles >= 95 && t.lies >= 95 && t.unique < t.puzzles);
}

/* steps: 1 stops after one step, as a hint. */
static void test_partial(void **state)
{
    struct expl x;
    uint32_t n = parse_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2."
                              "....1.4......",
                              x.cells);

    (void)state;
    assert_int_equal(n, 9);
    expl_init(&x, n, 1);
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    assert_int_equal(x.job.status, SDK_EXPLAIN_PARTIAL);
    assert_int_equal(x.job.steps_len, 1);
    assert_non_null(x.job.hardest);
    check_steps(&x);
    expl_free(&x);
}

/* progress: steps start from the player's grid; a wrong entry is refused. */
static void test_progress(void **state)
{
    const char *puz = "52...6.........7.13...........4..8..6......5...........418.........3..2..."
                      "87.....";
    uint8_t progress[SDK_MAX_CELLS];
    struct expl x;
    uint32_t n = parse_puzzle(puz, x.cells), filled = 0;

    (void)state;
    expl_init(&x, n, 0);
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    memcpy(progress, x.cells, 81);
    for (uint32_t i = 0; i < 81 && filled < 10; i++)
        if (!progress[i]) {
            progress[i] = x.solution[i];
            filled++;
        }
    x.job.progress = progress;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    for (uint32_t s = 0; s < x.job.steps_len; s++)
        for (uint32_t k = 0; k < x.job.steps[s].place_len; k++)
            assert_int_equal(progress[x.job.placements[x.job.steps[s].place_off + k].cell], 0);
    for (uint32_t i = 0; i < 81; i++)
        if (!x.cells[i]) {
            progress[i] = (uint8_t)(x.solution[i] % 9 + 1);
            break;
        }
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), -EBADMSG);
    expl_free(&x);
}

/* A plugin built against ABI 1.0 loads and solves but cannot explain. */
static void test_abi_minor0(void **state)
{
    const struct host_plugin *p = host_find(host, "minor0");
    uint8_t sol[16];
    struct expl x;
    struct sdk_job job = {.size = sizeof(job), .n = 4, .limit = 2, .solution = sol};

    (void)state;
    assert_non_null(p);
    assert_int_equal(p->desc->abi_minor, 0);
    assert_false(host_plugin_has_explain(p));
    assert_true(host_plugin_has_explain(logic));
    assert_int_equal(parse_puzzle("......12.1.3.32.", x.cells), 4);
    job.cells = x.cells;
    assert_int_equal(host_solve(p, &job), SDK_SOLVED);
    assert_int_equal(job.count, 1);
    expl_init(&x, 4, 0);
    assert_int_equal(host_explain(p, solver, &x.job, x.solution), -ENOTSUP);
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    check_steps(&x);
    expl_free(&x);
}

/* The host refuses each kind of lie, with a log line saying which. */
static void test_liars(void **state)
{
    static const struct {
        const char *plugin; /* from texplain.c */
        const char *why;    /* in the log line */
    } rows[] = {
        {"xwrong", "differs from the solution"}, /* a wrong placement */
        {"xnochange", "changes no candidate"},   /* a step that does nothing */
        {"xshort", "steps stop short"},          /* solved without steps */
        {"xrating", "explain rating"},           /* rated below its own step */
        {"xabove", "bad status"},                /* above a ceiling nobody set */
    };

    (void)state;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct host_plugin *p = host_find(host, rows[i].plugin);
        struct expl x;
        assert_non_null(p);
        assert_int_equal(parse_puzzle("......12.1.3.32.", x.cells), 4);
        expl_init(&x, 4, 0);
        last_log[0] = '\0';
        assert_int_equal(host_explain(p, solver, &x.job, x.solution), -EIO);
        assert_non_null(strstr(last_log, rows[i].why));
        expl_free(&x);
    }
}

/* Bad jobs: missing arrays, wrong sizes, a puzzle without a unique solution. */
static void test_bad_jobs(void **state)
{
    struct expl x;

    (void)state;
    assert_int_equal(parse_puzzle("......12.1.3.32.", x.cells), 4);
    expl_init(&x, 4, 0);
    assert_int_equal(host_explain(logic, solver, NULL, x.solution), -EINVAL);
    assert_int_equal(host_explain(logic, solver, &x.job, NULL), -EINVAL);
    struct sdk_step *steps = x.job.steps;
    x.job.steps = NULL;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), -EINVAL);
    x.job.steps = steps;
    x.job.n = 5;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), -EINVAL);
    x.job.n = 4;
    memset(x.cells, 0, 16);
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), -ENOTUNIQ);
    expl_free(&x);
}

/* Arrays too small: the steps that fit stand, status says no space. */
static void test_nospace(void **state)
{
    struct expl x;
    uint32_t n = parse_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2."
                              "....1.4......",
                              x.cells);

    (void)state;
    expl_init(&x, n, 0);
    x.job.steps_cap = 3;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    assert_int_equal(x.job.status, SDK_EXPLAIN_NOSPACE);
    assert_int_equal(x.job.steps_len, 3);
    check_steps(&x);
    x.job.steps_cap = 1000;
    x.job.text_cap = 10;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), 0);
    assert_int_equal(x.job.status, SDK_EXPLAIN_NOSPACE);
    assert_int_equal(x.job.steps_len, 0);
    expl_free(&x);
}

/* Cancelled or past its deadline: refused before, or stopped inside. */
static void test_stop(void **state)
{
    atomic_int cancel = 1;
    struct expl x;
    uint32_t n = parse_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2."
                              "....1.4......",
                              x.cells);

    (void)state;
    expl_init(&x, n, 0);
    x.job.deadline_ns = 1;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), -ETIMEDOUT);
    x.job.deadline_ns = 0;
    x.job.cancel = &cancel;
    assert_int_equal(host_explain(logic, solver, &x.job, x.solution), -ECANCELED);
    /* The plugin itself looks at the flag before every step. */
    assert_int_equal(logic->desc->explain(logic->state, NULL, &x.job), 0);
    assert_int_equal(x.job.status, SDK_EXPLAIN_CANCELLED);
    assert_int_equal(x.job.steps_len, 0);
    expl_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),        cmocka_unit_test(test_corpus_ratings),
        cmocka_unit_test(test_partial),       cmocka_unit_test(test_progress),
        cmocka_unit_test(test_abi_minor0),    cmocka_unit_test(test_liars),
        cmocka_unit_test(test_bad_jobs),      cmocka_unit_test(test_nospace),
        cmocka_unit_test(test_stop),          cmocka_unit_test(test_ceiling),
        cmocka_unit_test(test_solution_hint),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
