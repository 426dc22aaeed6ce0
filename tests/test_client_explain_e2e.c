/* test_client_explain_e2e.c -- hint, explain and rate against the real sudokud.
 *
 * The group setup starts the built sudokud with the built plugins
 * (daemon_harness); each test asks through the library, or runs the tool
 * (fork/exec, output to files).  Nothing is compared with stored answers:
 * every puzzle's solution is found independently with a normal solve (and
 * its uniqueness with limit 2), and every step is checked against it -- a
 * placement is the solution's value in a cell still blank, an elimination
 * removes a value the solution does not use -- and a solved explanation
 * must end at the solution.  The tool's lines are compared with what the
 * library says for the same puzzle, one request at a time, so order and
 * formatting are checked without knowing the ratings in advance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/codec.h"
#include "tests/daemon_harness.h"
#include "tests/sanitizer.h"
#include "tests/tool_run.h"
#include <sudoku/client.h>

#define DATA(name)  SUDOKU_TEST_DATA_DIR "/" name
#define MAX_PUZZLES 64

static struct dh daemon_;

/* ------------------------------------------------------------------------ */
/* Puzzles and their solutions */

/* One puzzle with its independently found unique solution. */
struct known {
    char text[SUDOKU_CLIENT_MAX_CELLS + 1]; /* line form */
    unsigned n;
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS];    /* givens */
    uint8_t solution[SUDOKU_CLIENT_MAX_CELLS]; /* the unique solution */
};

static struct sudoku_client *connect_daemon(void)
{
    struct sudoku_client *c = NULL;
    struct sudoku_client_error err;
    assert_int_equal(sudoku_client_connect(daemon_.sock, &c, &err), 0);
    return c;
}

/* Solve text with limit 2: 1 (k filled) when it has exactly one solution. */
static int know(struct sudoku_client *c, const char *text, struct known *k)
{
    struct sudoku_client_options two = {.limit = 2};
    struct sudoku_client_result res;
    size_t len = strlen(text);

    if (len > SUDOKU_CLIENT_MAX_CELLS || codec_parse_line(text, len, &k->n, k->cells, NULL, 0) < 0)
        return 0;
    assert_int_equal(sudoku_client_solve(c, text, len, &two, &res), 0);
    if (res.status != SUDOKU_CLIENT_SOLVED || res.count != 1)
        return 0;
    memcpy(k->text, text, len + 1);
    memcpy(k->solution, res.cells, (size_t)k->n * k->n);
    return 1;
}

/* Up to max unique puzzles of a file of lines (or, golden, of its
 * limit:expected:flag:puzzle rows with expected 1 and flag '-'), sides in
 * sizes (a mask: 4 -> 1, 9 -> 2, 16 -> 4). */
static size_t load(struct sudoku_client *c, const char *path, int is_golden, unsigned sizes,
                   struct known *out, size_t max)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    size_t len = 0;

    assert_non_null(f);
    while (len < max && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *text = line;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (is_golden) {
            char *p = strchr(line, ':');
            if (!p || strncmp(p + 1, "1:-:", 4) != 0)
                continue;
            text = p + 5;
        }
        if (know(c, text, &out[len])) {
            unsigned n = out[len].n;
            len += (n == 4 && (sizes & 1)) || (n == 9 && (sizes & 2)) || (n == 16 && (sizes & 4));
        }
    }
    fclose(f);
    return len;
}

/* Check every step of e on k from the grid `from` (the givens, or the
 * player's progress): placements go into blank cells with the solution's
 * value, eliminations remove values the solution does not use, every step
 * does something.  Leaves in grid the position reached. */
static void check_steps(const struct known *k, const struct sudoku_client_explanation *e,
                        const uint8_t *from, uint8_t *grid)
{
    size_t cells = (size_t)k->n * k->n;

    memcpy(grid, from, cells);
    assert_int_equal(e->n, k->n);
    for (size_t i = 0; i < e->steps_len; i++) {
        const struct sudoku_client_step *s = &e->steps[i];
        assert_true(s->placements_len + s->eliminations_len > 0);
        assert_true(s->text[0] != '\0');
        for (size_t j = 0; j < s->placements_len; j++) {
            const struct sudoku_client_cell_value *p = &s->placements[j];
            assert_int_equal(grid[p->cell], 0);
            assert_int_equal(p->value, k->solution[p->cell]);
            grid[p->cell] = p->value;
        }
        for (size_t j = 0; j < s->eliminations_len; j++) {
            const struct sudoku_client_cell_value *x = &s->eliminations[j];
            assert_int_not_equal(x->value, k->solution[x->cell]);
        }
        assert_true(s->rating <= e->rating);
    }
    if (e->status == SUDOKU_CLIENT_EXPLAIN_SOLVED)
        assert_memory_equal(grid, k->solution, cells);
}

/* ------------------------------------------------------------------------ */
/* Running the tool */

static void tmp_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", daemon_.dir, name);
}

/* sudoku -s SOCK args... */
static void run_tool(struct tool_run *r, const char *const *args)
{
    const char *head[] = {"sudoku", "-s", daemon_.sock, NULL};
    const char *argv[32];

    tool_run_argv(argv, 32, head, args);
    tool_run_prog(r, daemon_.dir, NULL, "sudoku", argv);
}

/* Write the puzzles' texts (and extra lines, may be NULL) to a file. */
static void write_puzzles(const char *name, const struct known *k, size_t len, char *path,
                          size_t size)
{
    tmp_path(path, size, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < len; i++)
        fprintf(f, "%s\n", k[i].text);
    fclose(f);
}

/* The next line of *p (cut at '\n'), or NULL at the end. */
static char *next_line(char **p)
{
    char *line = *p, *nl;
    if (!line || !*line)
        return NULL;
    nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = line + strlen(line);
    }
    return line;
}

/* ------------------------------------------------------------------------ */
/* Tests */

/* A hint on each golden puzzle (4x4, 9x9, 16x16) is one sound step; the
 * tool prints the same sentences, one line a puzzle, in order. */
static void test_hint_golden_sound(void **state)
{
    static struct known k[MAX_PUZZLES];
    static struct tool_run r;
    static uint8_t grid[SUDOKU_CLIENT_MAX_CELLS];
    struct sudoku_client_explain_opts hint = {.steps = 1};
    struct sudoku_client_error err;
    struct sudoku_client *c = connect_daemon();
    char path[256];
    (void)state;
    size_t len = load(c, DATA("golden.txt"), 1, 1 | 2 | 4, k, MAX_PUZZLES);
    assert_true(len >= 10);
    write_puzzles("hint.txt", k, len, path, sizeof(path));
    const char *args[] = {"hint", path, NULL};
    run_tool(&r, args);
    assert_int_equal(r.status, 0);
    char *out = r.out;
    for (size_t i = 0; i < len; i++) {
        struct sudoku_client_explanation *e = NULL;
        assert_int_equal(sudoku_client_explain(c, k[i].text, strlen(k[i].text), &hint, &e, &err),
                         0);
        assert_int_equal(e->steps_len, 1);
        assert_true(e->status == SUDOKU_CLIENT_EXPLAIN_PARTIAL ||
                    e->status == SUDOKU_CLIENT_EXPLAIN_SOLVED ||
                    e->status == SUDOKU_CLIENT_EXPLAIN_STUCK);
        check_steps(&k[i], e, k[i].cells, grid);
        char *line = next_line(&out);
        if (i > 0) { /* puzzles are separated by a blank line */
            assert_non_null(line);
            assert_string_equal(line, "");
            line = next_line(&out);
        }
        assert_non_null(line);
        assert_string_equal(line, e->steps[0].text);
        sudoku_client_explanation_free(e);
    }
    assert_null(next_line(&out));
    sudoku_client_free(c);
}

/* Puzzles solvable by singles explain to the solution with singles only,
 * rated at most a naked single's 2.3; the tool numbers the same steps and
 * ends with the summary line. */
static void test_explain_singles_solved(void **state)
{
    static struct known k[20];
    static struct tool_run r;
    static uint8_t grid[SUDOKU_CLIENT_MAX_CELLS];
    struct sudoku_client_error err;
    struct sudoku_client *c = connect_daemon();
    char path[256];
    (void)state;
    size_t len = load(c, DATA("kaggle_sample.txt"), 0, 2, k, 20);
    assert_int_equal(len, 20);
    for (size_t i = 0; i < len; i++) {
        struct sudoku_client_explanation *e = NULL;
        assert_int_equal(sudoku_client_explain(c, k[i].text, 81, NULL, &e, &err), 0);
        assert_int_equal(e->status, SUDOKU_CLIENT_EXPLAIN_SOLVED);
        check_steps(&k[i], e, k[i].cells, grid);
        for (size_t j = 0; j < e->steps_len; j++)
            assert_true(strcmp(e->steps[j].technique, "hidden_single") == 0 ||
                        strcmp(e->steps[j].technique, "naked_single") == 0);
        assert_true(e->rating <= 2.3);
        if (i == 0) {
            write_puzzles("one.txt", k, 1, path, sizeof(path));
            const char *args[] = {"explain", path, NULL};
            run_tool(&r, args);
            assert_int_equal(r.status, 0);
            char *out = r.out, *line, want[512];
            for (size_t j = 0; j < e->steps_len; j++) {
                snprintf(want, sizeof(want), "%zu. %s", j + 1, e->steps[j].text);
                line = next_line(&out);
                assert_non_null(line);
                assert_string_equal(line, want);
            }
            snprintf(want, sizeof(want),
                     "solved: %zu steps, rating %.1f, difficulty %s, hardest %s", e->steps_len,
                     e->rating, e->difficulty, e->hardest);
            line = next_line(&out);
            assert_non_null(line);
            assert_string_equal(line, want);
            assert_null(next_line(&out));
        }
        sudoku_client_explanation_free(e);
    }
    sudoku_client_free(c);
}

/* How many of the forum's hardest a test reads: SE's nested forcing chains
 * take a second or two each, minutes under valgrind's memcheck (whose run
 * of the daemon leaves that code to the ASan run).  Under a sanitizer
 * (sanitizer.h) one at most: test_explain_hard_sound walks that path, and
 * the tests that compare --local with the daemon's bytes take none there,
 * since the bytes do not depend on the build. */
static size_t forum_lines(size_t want)
{
    return getenv("SUDOKU_VALGRIND") ? 0 : TEST_SANITIZED && want > 1 ? 1 : want;
}

/* forum_lines() for a test comparing --local with the daemon. */
static size_t forum_lines_same(size_t want)
{
    return TEST_SANITIZED ? 0 : forum_lines(want);
}

/* Hard puzzles: every step still sound; a stuck explanation ends with a
 * reveal of one solution cell, rated 10.0. */
static void test_explain_hard_sound(void **state)
{
    static struct known k[8];
    static uint8_t grid[SUDOKU_CLIENT_MAX_CELLS];
    struct sudoku_client_error err;
    struct sudoku_client *c = connect_daemon();
    (void)state;
    size_t len = load(c, DATA("forum_hardest_sample.txt"), 0, 2, k, forum_lines(2));
    len += load(c, DATA("norvig_top95.txt"), 0, 2, k + len, 4);
    assert_true(len >= 4);
    for (size_t i = 0; i < len; i++) {
        struct sudoku_client_explanation *e = NULL;
        assert_int_equal(sudoku_client_explain(c, k[i].text, 81, NULL, &e, &err), 0);
        check_steps(&k[i], e, k[i].cells, grid);
        if (e->status == SUDOKU_CLIENT_EXPLAIN_STUCK) {
            const struct sudoku_client_step *last = &e->steps[e->steps_len - 1];
            assert_string_equal(last->technique, "reveal");
            assert_int_equal(last->placements_len, 1);
            assert_true(e->rating == 10.0);
        } else {
            assert_int_equal(e->status, SUDOKU_CLIENT_EXPLAIN_SOLVED);
        }
        sudoku_client_explanation_free(e);
    }
    sudoku_client_free(c);
}

/* From the player's grid: right entries are kept (the hint is sound and
 * goes into a cell still blank there), a wrong one is named first. */
static void test_progress(void **state)
{
    static struct known k[1];
    static struct tool_run r;
    static uint8_t progress[SUDOKU_CLIENT_MAX_CELLS], grid[SUDOKU_CLIENT_MAX_CELLS];
    char text[SUDOKU_CLIENT_MAX_CELLS + 1], path[256], puzzle[256];
    struct sudoku_client_explanation *e = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = connect_daemon();
    (void)state;
    assert_int_equal(load(c, DATA("kaggle_sample.txt"), 0, 2, k, 1), 1);
    /* fill the first ten blanks rightly */
    memcpy(progress, k[0].cells, 81);
    unsigned filled = 0, wrong = 81;
    for (unsigned i = 0; i < 81 && filled < 10; i++)
        if (!progress[i]) {
            progress[i] = k[0].solution[i];
            filled++;
        }
    codec_format_line(9, progress, CODEC_BLANK_DOT, text, sizeof(text));
    struct sudoku_client_explain_opts o = {.steps = 1, .progress = text, .progress_len = 81};
    assert_int_equal(sudoku_client_explain(c, k[0].text, 81, &o, &e, &err), 0);
    assert_int_equal(e->steps_len, 1);
    check_steps(&k[0], e, progress, grid);
    sudoku_client_explanation_free(e);
    /* then one wrong entry in the next blank */
    for (unsigned i = 0; i < 81 && wrong == 81; i++)
        if (!progress[i])
            wrong = i;
    progress[wrong] = (uint8_t)(k[0].solution[wrong] % 9 + 1);
    codec_format_line(9, progress, CODEC_BLANK_DOT, text, sizeof(text));
    assert_int_equal(sudoku_client_explain(c, k[0].text, 81, &o, &e, &err), 0);
    assert_int_equal(e->steps_len, 1);
    assert_string_equal(e->steps[0].technique, "mistake");
    assert_int_equal(e->steps[0].cells_len, 1);
    assert_int_equal(e->steps[0].cells[0], wrong);
    assert_int_equal(e->steps[0].placements_len, 0); /* docs/protocol.md: it only names them */
    assert_int_equal(e->steps[0].eliminations_len, 0);
    assert_int_equal(e->status, SUDOKU_CLIENT_EXPLAIN_PARTIAL);
    assert_string_equal(e->hardest, "mistake");
    /* the tool, with the grid in a file */
    write_puzzles("puzzle.txt", k, 1, puzzle, sizeof(puzzle));
    tmp_path(path, sizeof(path), "progress.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", text);
    fclose(f);
    const char *args[] = {"hint", "--progress", path, puzzle, NULL};
    run_tool(&r, args);
    assert_int_equal(r.status, 0);
    char want[512];
    snprintf(want, sizeof(want), "%s\n", e->steps[0].text);
    assert_string_equal(r.out, want);
    assert_true(strncmp(r.out, "mistake", 7) == 0);
    sudoku_client_explanation_free(e);
    sudoku_client_free(c);
}

/* A puzzle without exactly one solution: not_unique from the library, and
 * from the tool a line on stderr and exit 1, the other puzzles rated. */
static void test_not_unique(void **state)
{
    static struct known k[2];
    static struct tool_run r;
    struct sudoku_client_rating rating;
    struct sudoku_client_options two = {.limit = 2};
    struct sudoku_client_result res;
    struct sudoku_client_explanation *e = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = connect_daemon();
    char path[256], multi[82];
    (void)state;
    assert_int_equal(load(c, DATA("kaggle_sample.txt"), 0, 2, k, 2), 2);
    /* the first puzzle less givens until it has two solutions */
    memcpy(multi, k[0].text, 82);
    for (unsigned i = 0; i < 81; i++) {
        if (multi[i] == '.' || multi[i] == '0')
            continue;
        multi[i] = '.';
        assert_int_equal(sudoku_client_solve(c, multi, 81, &two, &res), 0);
        if (res.count == 2)
            break;
    }
    assert_int_equal(res.count, 2);
    assert_int_equal(sudoku_client_rate(c, multi, 81, NULL, &rating), 0);
    assert_int_equal(rating.status, SUDOKU_CLIENT_NOT_UNIQUE);
    assert_string_equal(rating.error.code, "not_unique");
    assert_non_null(strstr(rating.error.message, "more than one solution"));
    assert_int_equal(sudoku_client_explain(c, multi, 81, NULL, &e, &err), -EREMOTEIO);
    assert_null(e);
    assert_string_equal(err.code, "not_unique");
    /* no solution at all: two givens that clash through their solution */
    char none[82];
    memcpy(none, k[0].text, 82);
    for (unsigned i = 0; i < 81; i++)
        if (none[i] == '.' || none[i] == '0') {
            none[i] = (char)('0' + k[0].solution[i] % 9 + 1); /* wrong, breaks no rule */
            assert_int_equal(sudoku_client_solve(c, none, 81, &two, &res), 0);
            if (res.status == SUDOKU_CLIENT_UNSOLVABLE)
                break;
            none[i] = '0';
        }
    assert_int_equal(res.status, SUDOKU_CLIENT_UNSOLVABLE);
    assert_int_equal(sudoku_client_rate(c, none, 81, NULL, &rating), 0);
    assert_int_equal(rating.status, SUDOKU_CLIENT_NOT_UNIQUE);
    assert_non_null(strstr(rating.error.message, "no solution"));
    /* the tool: unique, multi, unique */
    tmp_path(path, sizeof(path), "multi.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n%s\n%s\n", k[0].text, multi, k[1].text);
    fclose(f);
    const char *args[] = {"rate", path, NULL};
    run_tool(&r, args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "multi.txt:2: not_unique: more than one solution"));
    char *out = r.out;
    assert_non_null(next_line(&out));
    assert_non_null(next_line(&out));
    assert_null(next_line(&out));
    sudoku_client_free(c);
}

/* sudoku rate over puzzles of every kind keeps the input order: each line
 * is what the library says for that puzzle alone. */
static void test_rate_order(void **state)
{
    static struct known k[36];
    static struct tool_run r;
    struct sudoku_client *c = connect_daemon();
    char path[256];
    size_t len = 0;
    (void)state;
    /* interleave easy and hard, so answers come back out of order */
    static struct known easy[12], mid[12], hard[12];
    size_t ne = load(c, DATA("kaggle_sample.txt"), 0, 2, easy, 12);
    size_t nm = load(c, DATA("norvig_top95.txt"), 0, 2, mid, 12);
    size_t nh = load(c, DATA("forum_hardest_sample.txt"), 0, 2, hard, forum_lines(2));
    for (size_t i = 0; i < 12; i++) {
        if (i < nh)
            k[len++] = hard[i];
        if (i < ne)
            k[len++] = easy[i];
        if (i < nm)
            k[len++] = mid[i];
    }
    assert_true(len >= 24);
    write_puzzles("rate.txt", k, len, path, sizeof(path));
    const char *args[] = {"rate", "-w", "8", path, NULL};
    run_tool(&r, args);
    assert_int_equal(r.status, 0);
    char *out = r.out;
    for (size_t i = 0; i < len; i++) {
        struct sudoku_client_rating rating;
        char want[256];
        assert_int_equal(sudoku_client_rate(c, k[i].text, 81, NULL, &rating), 0);
        assert_int_equal(rating.status, SUDOKU_CLIENT_SOLVED);
        assert_true(rating.is_logic || rating.rating == 10.0);
        snprintf(want, sizeof(want), "%.1f %s %s", rating.rating, rating.difficulty,
                 rating.hardest[0] ? rating.hardest
                 : rating.is_logic ? "none"
                                   : "stuck");
        char *line = next_line(&out);
        assert_non_null(line);
        assert_string_equal(line, want);
    }
    assert_null(next_line(&out));
    /* --json: one object a puzzle, line numbers in order */
    const char *json[] = {"rate", "--json", path, NULL};
    run_tool(&r, json);
    assert_int_equal(r.status, 0);
    out = r.out;
    for (size_t i = 0; i < len; i++) {
        char want[64];
        char *line = next_line(&out);
        assert_non_null(line);
        snprintf(want, sizeof(want), "{\"line\":%zu,\"rating\":", i + 1);
        assert_true(strncmp(line, want, strlen(want)) == 0);
        assert_non_null(strstr(line, "\"logic\":"));
    }
    sudoku_client_free(c);
}

/* sudoku rate --local answers as the daemon does: the same lines, the
 * same errors, the same exit code (puzzles of every kind, one not unique,
 * one unreadable, a judge grid). */
static void test_rate_local_matches_daemon(void **state)
{
    static struct known k[12];
    static struct tool_run daemon_run, local_run;
    struct sudoku_client *c = connect_daemon();
    char path[256];
    (void)state;
    size_t len = load(c, DATA("kaggle_sample.txt"), 0, 2, k, 4);
    len += load(c, DATA("norvig_top95.txt"), 0, 2, k + len, 4);
    len += load(c, DATA("forum_hardest_sample.txt"), 0, 2, k + len, forum_lines_same(1));
    sudoku_client_free(c);
    tmp_path(path, sizeof(path), "local.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < len; i++)
        fprintf(f, "%s\n%s", k[i].text, i == 3 ? "1...............\n12345\n" : "");
    fclose(f);
    const char *args[] = {"rate", path, NULL};
    const char *local[] = {"rate", "--local", "-P", SUDOKU_BUILD_PLUGIN_DIR, path, NULL};
    run_tool(&daemon_run, args);
    run_tool(&local_run, local);
    assert_int_equal(daemon_run.status, 1);
    assert_int_equal(local_run.status, daemon_run.status);
    assert_string_equal(local_run.out, daemon_run.out);
    assert_string_equal(local_run.err, daemon_run.err);
    assert_non_null(strstr(local_run.err, "local.txt:5: not_unique"));
    const char *grid[] = {
        "rate", "--local", "-P", SUDOKU_BUILD_PLUGIN_DIR, DATA("client_judge.txt"), NULL};
    const char *grid_d[] = {"rate", DATA("client_judge.txt"), NULL};
    run_tool(&daemon_run, grid_d);
    run_tool(&local_run, grid);
    assert_int_equal(local_run.status, 0);
    assert_string_equal(local_run.out, daemon_run.out);
}

/* Drop every "elapsed_us":N from a JSON output: the one field that may
 * differ between two runs of the same explanation. */
static void drop_elapsed(char *s)
{
    static const char key[] = "\"elapsed_us\":";
    char *p;
    while ((p = strstr(s, key)) != NULL) {
        char *end = p + strlen(key);
        while (*end >= '0' && *end <= '9')
            end++;
        if (*end == ',')
            end++;
        memmove(p, end, strlen(end) + 1);
    }
}

/* Run args through the daemon and again with --local; both must give the
 * same exit code, lines and errors. */
static void same_local(const char *const *args, size_t argc, int want_status)
{
    static struct tool_run daemon_run, local_run;
    const char *local[16] = {0};
    assert_true(argc + 3 < 16);
    local[0] = args[0];
    local[1] = "--local";
    local[2] = "-P";
    local[3] = SUDOKU_BUILD_PLUGIN_DIR;
    for (size_t i = 1; i < argc; i++)
        local[i + 3] = args[i];
    run_tool(&daemon_run, args);
    run_tool(&local_run, local);
    assert_int_equal(daemon_run.status, want_status);
    assert_int_equal(local_run.status, daemon_run.status);
    drop_elapsed(daemon_run.out);
    drop_elapsed(local_run.out);
    assert_string_equal(local_run.out, daemon_run.out);
    assert_string_equal(local_run.err, daemon_run.err);
}

/* sudoku hint and explain --local answer as the daemon does: every step,
 * the reveal of a stuck puzzle, a player's mistakes, the errors of a puzzle
 * that is not unique and of one that does not parse, the exit code. */
static void test_explain_local_matches_daemon(void **state)
{
    static struct known k[12];
    static uint8_t progress[SUDOKU_CLIENT_MAX_CELLS];
    char path[256], ppath[256], text[SUDOKU_CLIENT_MAX_CELLS + 1];
    struct sudoku_client *c = connect_daemon();
    (void)state;
    size_t len = load(c, DATA("kaggle_sample.txt"), 0, 2, k, 3);
    len += load(c, DATA("norvig_top95.txt"), 0, 2, k + len, 3);
    len += load(c, DATA("forum_hardest_sample.txt"), 0, 2, k + len, forum_lines_same(1));
    sudoku_client_free(c);
    tmp_path(path, sizeof(path), "local.txt");
    tmp_path(ppath, sizeof(ppath), "progress.txt");
    FILE *f = fopen(path, "w"), *pf = fopen(ppath, "w");
    assert_non_null(f);
    assert_non_null(pf);
    for (size_t i = 0; i < len; i++) {
        fprintf(f, "%s\n%s", k[i].text, i == 1 ? "1...............\n12345\n" : "");
        /* every other player has one wrong entry in the first blank */
        memcpy(progress, k[i].cells, 81);
        for (unsigned j = 0; i % 2 && j < 81; j++)
            if (!progress[j]) {
                progress[j] = (uint8_t)(k[i].solution[j] % 9 + 1);
                break;
            }
        codec_format_line(9, progress, CODEC_BLANK_DOT, text, sizeof(text));
        fprintf(pf, "%s\n%s", text, i == 1 ? "1...............\n12345\n" : "");
    }
    fclose(f);
    fclose(pf);
    const char *explain[] = {"explain", path, NULL};
    same_local(explain, 2, 1);
    const char *json[] = {"explain", "--json", path, NULL};
    same_local(json, 3, 1);
    const char *hint[] = {"hint", "--json", "--progress", ppath, path, NULL};
    same_local(hint, 5, 1);
    const char *steps[] = {"hint", "--steps", "3", path, NULL};
    same_local(steps, 4, 1);
    const char *graded[] = {"hint", "--level", "2", "--steps", "4", path, NULL};
    same_local(graded, 6, 1);
    const char *graded_json[] = {"explain", "--level", "3", "--json", path, NULL};
    same_local(graded_json, 5, 1);
}

/* The pencil marks of k's givens with nothing crossed out, as the
 * 729-character string (a player who marked every candidate). */
static void full_marks(const struct known *k, char *out)
{
    for (unsigned i = 0; i < 81; i++)
        for (unsigned d = 1; d <= 9; d++) {
            int open = !k->cells[i];
            for (unsigned j = 0; j < 81 && open; j++) {
                int sees = i / 9 == j / 9 || i % 9 == j % 9 ||
                           (i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3);
                open = !(sees && k->cells[j] == d);
            }
            out[i * 9 + d - 1] = open ? (char)('0' + d) : '.';
        }
    out[729] = '\0';
}

/* sudoku hint --level 2 --marks @FILE: each puzzle's line is the library's
 * level-2 answer from the same marks, in words ("hidden single in box 4"),
 * and its technique the whole hint's.  The spelling, --candidates,
 * gives the same lines, with '=' or a space; and --candidates STRING, the
 * marks themselves, the first puzzle's line.  The marks file opens with a
 * comment and a blank line, which are skipped. */
static void test_hint_level_marks(void **state)
{
    static struct known k[4];
    static struct tool_run run;
    char path[256], mpath[256], opath[256], marks[730], first[730], want[4096] = "";
    struct sudoku_client *c = connect_daemon();
    size_t len = load(c, DATA("norvig_top95.txt"), 0, 2, k, 4), used = 0;
    (void)state;
    assert_int_equal(len, 4);
    write_puzzles("puzzle.txt", k, len, path, sizeof(path));
    tmp_path(mpath, sizeof(mpath), "marks.txt");
    FILE *f = fopen(mpath, "w");
    assert_non_null(f);
    fprintf(f, "# the players' pencil marks, one line a puzzle\n\n"); /* skipped */
    for (size_t i = 0; i < len; i++) {
        struct sudoku_client_explain_opts eo = {
            .steps = 1, .level = 2, .candidates = marks, .candidates_len = 729};
        struct sudoku_client_explain_opts whole = eo;
        struct sudoku_client_explanation *e = NULL, *w = NULL;
        struct sudoku_client_error err;
        full_marks(&k[i], marks);
        fprintf(f, "%s\n", marks);
        if (i == 0)
            memcpy(first, marks, sizeof(first));
        whole.level = 0;
        assert_int_equal(sudoku_client_explain(c, k[i].text, 81, &eo, &e, &err), 0);
        assert_int_equal(sudoku_client_explain(c, k[i].text, 81, &whole, &w, &err), 0);
        assert_int_equal(e->steps_len, 1);
        assert_string_equal(e->steps[0].technique, w->steps[0].technique);
        assert_true(e->steps[0].house_type[0] != '\0');
        assert_int_equal(e->steps[0].placements_len + e->steps[0].eliminations_len, 0);
        assert_string_equal(e->steps[0].text, "");
        used += (size_t)snprintf(want + used, sizeof(want) - used, "%s", i ? "\n" : "");
        for (const char *t = e->steps[0].technique; *t; t++)
            want[used++] = *t == '_' ? ' ' : *t;
        used += (size_t)snprintf(want + used, sizeof(want) - used, " in %s %u\n",
                                 e->steps[0].house_type, e->steps[0].house_index + 1);
        sudoku_client_explanation_free(e);
        sudoku_client_explanation_free(w);
    }
    fclose(f);
    sudoku_client_free(c);
    char at[300];
    snprintf(at, sizeof(at), "@%s", mpath);
    char at_eq[320];
    snprintf(at_eq, sizeof(at_eq), "--candidates=%s", at);
    const char *const spellings[][8] = {
        {"hint", "--level", "2", "--marks", at, path, NULL},
        {"hint", "--level", "2", at_eq, path, NULL},
        {"hint", path, "--level", "2", "--candidates", at, NULL},
    };
    for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
        run_tool(&run, spellings[i]);
        assert_int_equal(run.status, 0);
        assert_string_equal(run.out, want);
    }
    write_puzzles("one.txt", k, 1, opath, sizeof(opath));
    const char *one[] = {"hint", "--level", "2", "--candidates", first, opath, NULL};
    run_tool(&run, one);
    assert_int_equal(run.status, 0);
    strchr(want, '\n')[1] = '\0'; /* the first puzzle's line */
    assert_string_equal(run.out, want);
    unlink(mpath);
}

static int setup(void **state)
{
    (void)state;
    return dh_start(&daemon_, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    static const char *const files[] = {"out.txt",   "err.txt",      "hint.txt",
                                        "one.txt",   "puzzle.txt",   "rate.txt",
                                        "multi.txt", "progress.txt", "local.txt"};
    char path[256];
    (void)state;
    dh_stop(&daemon_);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        tmp_path(path, sizeof(path), files[i]);
        unlink(path);
    }
    dh_cleanup(&daemon_);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_golden_sound),
        cmocka_unit_test(test_explain_singles_solved),
        cmocka_unit_test(test_explain_hard_sound),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_not_unique),
        cmocka_unit_test(test_rate_order),
        cmocka_unit_test(test_rate_local_matches_daemon),
        cmocka_unit_test(test_explain_local_matches_daemon),
        cmocka_unit_test(test_hint_level_marks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
