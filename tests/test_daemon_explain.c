/* test_daemon_explain.c -- explain, rate and generate over the wire.
 *
 * One daemon (every built plugin, two workers) serves the file.  Nothing
 * here trusts the daemon's word: every step of an explanation is replayed
 * against the unique solution found by a `solve` with dlx (limit 2), and
 * every generated puzzle is judged by dlx too (unique; minimal: each given
 * removed gives a second solution; symmetric; in its band by `rate`).
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

#include "core/grid.h"
#include "daemon_harness.h"
#include "proto/codec.h"
#include "sanitizer.h"

static struct dh sd;
static char *easy[8], *medium[8], *hard[4], *unsolvable[8];
static int easy_len, medium_len, hard_len, unsolvable_len;
/* The forum's hardest the tests explain or rate: SE's nested forcing
 * chains take a second or two each, five to ten under a sanitizer (one
 * then), and longer than a request's deadline under valgrind's memcheck
 * (whose run leaves that code to ASan's). */
static int hard_use;

static int setup(void **state)
{
    static const char *const extra[] = {"-j",       "2",
                                        "--plugin", SUDOKU_EXPLAINPLUGIN_DIR "/xwrong.so",
                                        "--plugin", SUDOKU_EXPLAINPLUGIN_DIR "/xminor0.so",
                                        "--plugin", SUDOKU_EXPLAINPLUGIN_DIR "/xstuck.so",
                                        NULL};
    (void)state;
    easy_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/kaggle_sample.txt", easy, 8);
    medium_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/norvig_top95.txt", medium, 8);
    hard_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/forum_hardest_sample.txt", hard, 4);
    unsolvable_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/invalid.txt", unsolvable, 8);
    if (easy_len < 8 || medium_len < 8 || hard_len < 4 || unsolvable_len < 7)
        return -1;
    hard_use = getenv("SUDOKU_VALGRIND") ? 0 : TEST_SANITIZED ? 1 : 2;
    return dh_start(&sd, extra);
}

static int teardown(void **state)
{
    int rc = dh_stop(&sd);
    (void)state;
    dh_cleanup(&sd);
    dh_free_lines(easy, easy_len);
    dh_free_lines(medium, medium_len);
    dh_free_lines(hard, hard_len);
    dh_free_lines(unsolvable, unsolvable_len);
    return rc == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- helpers */

/* A data line without its comment marker: NULL for "# ..." lines. */
static const char *puzzle_of(const char *line)
{
    return line[0] == '#' ? NULL : line;
}

static void open_reader(struct dh_reader *r)
{
    int fd = dh_connect(sd.sock);
    assert_true(fd >= 0);
    dh_reader_init(r, fd);
}

static void call(struct dh_reader *r, msgpack_sbuffer *sb, uint32_t msgid, msgpack_unpacked *out)
{
    assert_int_equal(dh_call(r, sb, msgid, out), 0);
    msgpack_sbuffer_clear(sb);
}

static void assert_error(const msgpack_object *resp, const char *code)
{
    char buf[64];
    const char *got = dh_error_code(resp, buf, sizeof(buf));
    assert_non_null(got);
    assert_string_equal(got, code);
}

static const char *error_message(const msgpack_object *resp, char *buf, size_t size)
{
    const msgpack_object *e = &resp->via.array.ptr[2];
    const msgpack_object *m = dh_map_get(e, "message");
    assert_non_null(m);
    snprintf(buf, size, "%.*s", (int)m->via.str.size, m->via.str.ptr);
    return buf;
}

static double get_float(const msgpack_object *map, const char *key)
{
    const msgpack_object *v = dh_map_get(map, key);
    assert_non_null(v);
    assert_true(v->type == MSGPACK_OBJECT_FLOAT64 || v->type == MSGPACK_OBJECT_FLOAT32);
    return v->via.f64;
}

static uint64_t get_uint(const msgpack_object *map, const char *key)
{
    const msgpack_object *v = dh_map_get(map, key);
    assert_non_null(v);
    assert_int_equal(v->type, MSGPACK_OBJECT_POSITIVE_INTEGER);
    return v->via.u64;
}

/* [0, msgid, method, [puzzle, {steps?, progress?}]] */
static void pack_explain(msgpack_sbuffer *sb, uint32_t msgid, const char *method,
                         const char *puzzle, uint32_t steps, const char *progress)
{
    msgpack_packer pk;

    dh_pack_head(&pk, sb, msgid, method, 2);
    dh_pack_str(&pk, puzzle);
    msgpack_pack_map(&pk, (steps ? 1u : 0u) + (progress ? 1u : 0u));
    if (steps) {
        dh_pack_str(&pk, "steps");
        msgpack_pack_uint32(&pk, steps);
    }
    if (progress) {
        dh_pack_str(&pk, "progress");
        dh_pack_str(&pk, progress);
    }
}

/* The unique solution of puzzle by dlx (limit 2, count 1), into sol. */
static void unique_solution(struct dh_reader *r, const char *puzzle, uint8_t *sol, unsigned *n)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *res, *s;

    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 900, puzzle, "dlx", 2, 0);
    call(r, &sb, 900, &u);
    res = dh_result(&u.data);
    assert_non_null(res);
    assert_int_equal(dh_check_solved(res, puzzle), 0);
    assert_int_equal(get_uint(res, "count"), 1);
    s = dh_map_get(res, "solution");
    assert_int_equal(codec_parse_line(s->via.str.ptr, s->via.str.size, n, sol, NULL, 0), 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

/* Solutions of puzzle (cells) found by dlx, up to 2. */
static uint64_t count_solutions(struct dh_reader *r, unsigned n, const uint8_t *cells)
{
    char line[SDK_MAX_CELLS + 1];
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint64_t count;

    assert_true(codec_format_line(n, cells, CODEC_BLANK_DOT, line, sizeof(line)) > 0);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 901, line, "dlx", 2, 0);
    call(r, &sb, 901, &u);
    assert_non_null(dh_result(&u.data));
    count = get_uint(dh_result(&u.data), "count");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return count;
}

/* Replay one step onto grid: every placement is the solution's value (and
 * fills a blank), every elimination removes a value the solution does not
 * use.  Returns the number of placements and eliminations. */
static unsigned replay_step(const msgpack_object *step, unsigned n, const uint8_t *sol,
                            uint8_t *grid)
{
    const msgpack_object *pl = dh_map_get(step, "placements");
    const msgpack_object *el = dh_map_get(step, "eliminations");
    const msgpack_object *cells = dh_map_get(step, "cells");
    const msgpack_object *text = dh_map_get(step, "text");

    assert_non_null(pl);
    assert_non_null(el);
    assert_non_null(cells);
    assert_non_null(text);
    assert_true(text->via.str.size > 0);
    for (uint32_t i = 0; i < pl->via.array.size; i++) {
        const msgpack_object *p = pl->via.array.ptr[i].via.array.ptr;
        unsigned cell = (unsigned)p[0].via.u64, value = (unsigned)p[1].via.u64;
        assert_true(cell < n * n);
        assert_int_equal(value, sol[cell]);
        assert_int_equal(grid[cell], 0);
        grid[cell] = (uint8_t)value;
    }
    for (uint32_t i = 0; i < el->via.array.size; i++) {
        const msgpack_object *p = el->via.array.ptr[i].via.array.ptr;
        unsigned cell = (unsigned)p[0].via.u64, value = (unsigned)p[1].via.u64;
        assert_true(cell < n * n && value >= 1 && value <= n);
        assert_int_not_equal(value, sol[cell]);
    }
    for (uint32_t i = 0; i < cells->via.array.size; i++)
        assert_true(cells->via.array.ptr[i].via.u64 < n * n);
    return pl->via.array.size + el->via.array.size;
}

/* Replay a whole explanation of puzzle; returns the hardest step rating.
 * A solved one must end at the solution, a stuck one with a reveal. */
static double replay(const msgpack_object *res, const char *puzzle, const uint8_t *sol)
{
    const msgpack_object *steps = dh_map_get(res, "steps");
    uint8_t grid[SDK_MAX_CELLS];
    unsigned n;
    double hardest = 0.0;

    assert_int_equal(codec_parse_line(puzzle, strlen(puzzle), &n, grid, NULL, 0), 0);
    assert_non_null(steps);
    for (uint32_t i = 0; i < steps->via.array.size; i++) {
        const msgpack_object *st = &steps->via.array.ptr[i];
        double rating = get_float(st, "rating");
        assert_true(replay_step(st, n, sol, grid) > 0);
        if (!dh_str_eq(dh_map_get(st, "technique"), "reveal") && rating > hardest)
            hardest = rating;
    }
    if (dh_str_eq(dh_map_get(res, "status"), "solved"))
        assert_memory_equal(grid, sol, (size_t)n * n);
    if (dh_str_eq(dh_map_get(res, "status"), "stuck")) {
        const msgpack_object *last = &steps->via.array.ptr[steps->via.array.size - 1];
        assert_true(dh_str_eq(dh_map_get(last, "technique"), "reveal"));
        assert_int_equal(dh_map_get(last, "placements")->via.array.size, 1);
    }
    return hardest;
}

/* ---------------------------------------------------------------- explain */

/* Every step of every explanation is sound; solved ones end at the
 * solution; the rating is the hardest step's. */
static void test_explain_sound(void **state)
{
    const char *sets[] = {easy[0], easy[1], medium[0], medium[1], medium[2], hard[0], hard[1]};
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]) - 2 + (size_t)hard_use; k++) {
        const char *puzzle = puzzle_of(sets[k]);
        uint8_t sol[SDK_MAX_CELLS];
        unsigned n;
        if (!puzzle)
            continue;
        unique_solution(&r, puzzle, sol, &n);
        pack_explain(&sb, (uint32_t)k + 1, "explain", puzzle, 0, NULL);
        call(&r, &sb, (uint32_t)k + 1, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_non_null(res);
        double hardest = replay(res, puzzle, sol);
        if (!dh_str_eq(dh_map_get(res, "status"), "stuck"))
            assert_true(get_float(res, "rating") == hardest);
        assert_true(dh_str_eq(dh_map_get(res, "status"), "solved") ||
                    dh_str_eq(dh_map_get(res, "status"), "stuck"));
        assert_non_null(dh_map_get(res, "difficulty"));
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* steps: 1 is a hint: one sound step, status partial (or solved). */
static void test_hint(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint8_t sol[SDK_MAX_CELLS];
    unsigned n;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (int k = 0; k < 4; k++) {
        const char *puzzle = puzzle_of(medium[k]);
        if (!puzzle)
            continue;
        unique_solution(&r, puzzle, sol, &n);
        pack_explain(&sb, 10, "explain", puzzle, 1, NULL);
        call(&r, &sb, 10, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_non_null(res);
        assert_int_equal(dh_map_get(res, "steps")->via.array.size, 1);
        assert_true(dh_str_eq(dh_map_get(res, "status"), "partial"));
        replay(res, puzzle, sol);
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* The forum's hardest: explained to the end (SE's nested forcing chains),
 * every step sound, rated above 10 as Sudoku Explainer rates them. */
static void test_hardest_explained(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint8_t sol[SDK_MAX_CELLS];
    unsigned n;
    (void)state;

    if (getenv("SUDOKU_VALGRIND"))
        skip(); /* minutes of chain search under memcheck; the ASan run has it */
    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (int k = 0; k < hard_use; k++) {
        const char *puzzle = puzzle_of(hard[k]);
        if (!puzzle)
            continue;
        unique_solution(&r, puzzle, sol, &n);
        pack_explain(&sb, 11, "explain", puzzle, 0, NULL);
        call(&r, &sb, 11, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_non_null(res);
        replay(res, puzzle, sol);
        assert_true(dh_str_eq(dh_map_get(res, "status"), "solved"));
        assert_true(get_float(res, "rating") > 10.0);
        assert_true(dh_str_eq(dh_map_get(res, "difficulty"), "extreme"));
        const msgpack_object *hardest = dh_map_get(res, "hardest");
        assert_non_null(hardest);
        assert_true(hardest->via.str.size > 7 && !memcmp(hardest->via.str.ptr, "nested_", 7));
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* A stuck explanation ends with a reveal of the solution's value, rated
 * 10.0: xstuck (tests/plugins/texplain.c) knows no technique at all. */
static void test_stuck_reveals(void **state)
{
    static const char *const puzzles[] = {"......12.1.3.32.", "1.....3..4....2.",
                                          ".2..3..1....4.3."};
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    msgpack_packer pk;
    uint8_t sol[SDK_MAX_CELLS];
    unsigned n;
    int stuck = 0;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (size_t k = 0; k < sizeof(puzzles) / sizeof(puzzles[0]); k++) {
        unique_solution(&r, puzzles[k], sol, &n);
        dh_pack_head(&pk, &sb, 12, "explain", 2);
        dh_pack_str(&pk, puzzles[k]);
        msgpack_pack_map(&pk, 1);
        dh_pack_str(&pk, "solver");
        dh_pack_str(&pk, "xstuck");
        call(&r, &sb, 12, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_non_null(res);
        replay(res, puzzles[k], sol);
        assert_true(dh_str_eq(dh_map_get(res, "status"), "stuck"));
        const msgpack_object *steps = dh_map_get(res, "steps");
        assert_int_equal(steps->via.array.size, 1);
        assert_true(dh_str_eq(dh_map_get(&steps->via.array.ptr[0], "technique"), "reveal"));
        assert_true(get_float(res, "rating") >= 10.0);
        assert_true(dh_str_eq(dh_map_get(res, "difficulty"), "extreme"));
        stuck++;
    }
    assert_int_equal(stuck, 3);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* A player's wrong entry comes back as one mistake step naming it; a
 * progress that changes a given, or has another size, is refused. */
static void test_progress(void **state)
{
    const char *puzzle = puzzle_of(medium[0]);
    char progress[SDK_MAX_CELLS + 1], msg[256];
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint8_t sol[SDK_MAX_CELLS], cells[SDK_MAX_CELLS];
    unsigned n, blank = 0, given = 0;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    unique_solution(&r, puzzle, sol, &n);
    assert_int_equal(codec_parse_line(puzzle, strlen(puzzle), &n, cells, NULL, 0), 0);
    while (cells[blank])
        blank++;
    while (!cells[given])
        given++;

    /* Right entries: the steps go on from there and stay sound. */
    cells[blank] = sol[blank];
    codec_format_line(n, cells, CODEC_BLANK_DOT, progress, sizeof(progress));
    pack_explain(&sb, 20, "explain", puzzle, 0, progress);
    call(&r, &sb, 20, &u);
    assert_non_null(dh_result(&u.data));
    replay(dh_result(&u.data), progress, sol);

    /* A wrong entry. */
    cells[blank] = (uint8_t)(sol[blank] % n + 1);
    codec_format_line(n, cells, CODEC_BLANK_DOT, progress, sizeof(progress));
    pack_explain(&sb, 21, "explain", puzzle, 0, progress);
    call(&r, &sb, 21, &u);
    const msgpack_object *res = dh_result(&u.data);
    assert_non_null(res);
    const msgpack_object *steps = dh_map_get(res, "steps");
    assert_int_equal(steps->via.array.size, 1);
    assert_true(dh_str_eq(dh_map_get(&steps->via.array.ptr[0], "technique"), "mistake"));
    const msgpack_object *wrong = dh_map_get(&steps->via.array.ptr[0], "cells");
    assert_int_equal(wrong->via.array.size, 1);
    assert_int_equal(wrong->via.array.ptr[0].via.u64, blank);
    assert_true(dh_str_eq(dh_map_get(res, "status"), "partial"));

    /* A changed given. */
    cells[blank] = 0;
    cells[given] = (uint8_t)(cells[given] % n + 1);
    codec_format_line(n, cells, CODEC_BLANK_DOT, progress, sizeof(progress));
    pack_explain(&sb, 22, "explain", puzzle, 0, progress);
    call(&r, &sb, 22, &u);
    assert_error(&u.data, "bad_request");
    assert_non_null(strstr(error_message(&u.data, msg, sizeof(msg)), "given"));

    /* Another size. */
    pack_explain(&sb, 23, "explain", puzzle, 0, "1234341221434321");
    call(&r, &sb, 23, &u);
    assert_error(&u.data, "bad_request");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* ------------------------------------------------------------------- rate */

static double rate_one(struct dh_reader *r, const char *puzzle, int *logic)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    double rating;

    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    pack_explain(&sb, 30, "rate", puzzle, 0, NULL);
    call(r, &sb, 30, &u);
    const msgpack_object *res = dh_result(&u.data);
    assert_non_null(res);
    rating = get_float(res, "rating");
    *logic = dh_map_get(res, "logic")->via.boolean;
    if (*logic) /* stuck at the start takes no step */
        assert_true(get_uint(res, "steps") > 0);
    assert_non_null(dh_map_get(res, "hardest"));
    assert_non_null(dh_map_get(res, "difficulty"));
    /* Sudoku Explainer's diamond (the first step) <= pearl <= the rating */
    if (*logic) {
        double ep = get_float(res, "ep"), ed = get_float(res, "ed");
        assert_true(ed > 0.0 && ed <= ep && ep <= rating);
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return rating;
}

/* Singles-only puzzles rate at most a naked single; the mean rises from
 * kaggle to norvig to the forum's hardest. */
static void test_rate_orders(void **state)
{
    struct dh_reader r;
    double sum[3] = {0}, rating;
    int len[3] = {0}, logic;
    (void)state;

    open_reader(&r);
    for (int k = 0; k < 8; k++) {
        if (puzzle_of(easy[k])) {
            rating = rate_one(&r, easy[k], &logic);
            assert_true(rating <= 2.3 && logic);
            sum[0] += rating;
            len[0]++;
        }
        if (puzzle_of(medium[k])) {
            sum[1] += rate_one(&r, medium[k], &logic);
            len[1]++;
        }
    }
    for (int k = 0; k < hard_use; k++)
        if (puzzle_of(hard[k])) {
            sum[2] += rate_one(&r, hard[k], &logic);
            len[2]++;
        }
    assert_true(sum[0] / len[0] < sum[1] / len[1]);
    assert_true(!hard_use || sum[1] / len[1] < sum[2] / len[2]);
    dh_reader_close(&r);
}

/* No solution, or many: not_unique, saying which; 25x25: unsupported. */
static void test_not_unique(void **state)
{
    char blank[82], msg[256], big[626];
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    (void)state;

    memset(blank, '.', 81);
    blank[81] = '\0';
    memset(big, '.', 625);
    big[625] = '\0';
    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    pack_explain(&sb, 40, "rate", blank, 0, NULL);
    call(&r, &sb, 40, &u);
    assert_error(&u.data, "not_unique");
    assert_string_equal(error_message(&u.data, msg, sizeof(msg)), "more than one solution");
    for (int i = 3; i < 7; i++) { /* invalid.txt: lines 4-7 have no solution */
        pack_explain(&sb, 41, "explain", unsolvable[i], 0, NULL);
        call(&r, &sb, 41, &u);
        assert_error(&u.data, "not_unique");
        assert_string_equal(error_message(&u.data, msg, sizeof(msg)), "no solution");
    }
    pack_explain(&sb, 42, "explain", big, 1, NULL);
    call(&r, &sb, 42, &u);
    assert_error(&u.data, "unsupported");
    pack_explain(&sb, 43, "explain", unsolvable[0], 0, NULL); /* conflicting givens */
    call(&r, &sb, 43, &u);
    assert_error(&u.data, "bad_puzzle");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* solvers says who explains. */
static void test_solvers_explain(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int logic = 0;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 50, "solvers");
    call(&r, &sb, 50, &u);
    const msgpack_object *res = dh_result(&u.data);
    assert_non_null(res);
    for (uint32_t i = 0; i < res->via.array.size; i++) {
        const msgpack_object *p = &res->via.array.ptr[i];
        const msgpack_object *x = dh_map_get(p, "explain");
        assert_non_null(x);
        assert_int_equal(x->type, MSGPACK_OBJECT_BOOLEAN);
        if (dh_str_eq(dh_map_get(p, "name"), "logic"))
            logic = x->via.boolean;
        if (dh_str_eq(dh_map_get(p, "name"), "bitmask"))
            assert_false(x->via.boolean);
    }
    assert_true(logic);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* A plugin whose step is unsound gets `internal`, never an answer, and the
 * daemon serves on; a minor-0 plugin cannot explain.  Named explicitly:
 * the default explainer for 4x4 stays logic, loaded first. */
static void test_lying_explainer(void **state)
{
    const char *puzzle = "1.34.41.21.34.21";
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    msgpack_packer pk;
    uint8_t sol[SDK_MAX_CELLS];
    unsigned n;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    unique_solution(&r, puzzle, sol, &n);
    static const char *const who[] = {"xwrong", "minor0", "bitmask", "nosuch"};
    static const char *const want[] = {"internal", "unsupported", "unsupported", "unknown_solver"};
    for (int k = 0; k < 4; k++) {
        dh_pack_head(&pk, &sb, 100, "explain", 2);
        dh_pack_str(&pk, puzzle);
        msgpack_pack_map(&pk, 1);
        dh_pack_str(&pk, "solver");
        dh_pack_str(&pk, who[k]);
        call(&r, &sb, 100, &u);
        assert_error(&u.data, want[k]);
    }
    pack_explain(&sb, 101, "explain", puzzle, 0, NULL); /* the default: logic */
    call(&r, &sb, 101, &u);
    assert_non_null(dh_result(&u.data));
    assert_true(dh_str_eq(dh_map_get(dh_result(&u.data), "solver"), "logic"));
    replay(dh_result(&u.data), puzzle, sol);
    assert_true(dh_log_has(&sd, "xwrong"));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* --------------------------------------------------------------- generate */

struct gen_ask {
    unsigned size, count;
    uint64_t seed;
    const char *symmetry, *difficulty;
    uint64_t timeout_ms;
};

static void pack_generate(msgpack_sbuffer *sb, uint32_t msgid, const struct gen_ask *a)
{
    msgpack_packer pk;
    unsigned keys = (a->size != 0) + (a->count != 0) + 1 + (a->symmetry != NULL) +
                    (a->difficulty != NULL) + (a->timeout_ms != 0);
    dh_pack_head(&pk, sb, msgid, "generate", 1);
    msgpack_pack_map(&pk, keys);
    dh_pack_str(&pk, "seed");
    msgpack_pack_uint64(&pk, a->seed);
    if (a->size) {
        dh_pack_str(&pk, "size");
        msgpack_pack_uint32(&pk, a->size);
    }
    if (a->count) {
        dh_pack_str(&pk, "count");
        msgpack_pack_uint32(&pk, a->count);
    }
    if (a->symmetry) {
        dh_pack_str(&pk, "symmetry");
        dh_pack_str(&pk, a->symmetry);
    }
    if (a->difficulty) {
        dh_pack_str(&pk, "difficulty");
        dh_pack_str(&pk, a->difficulty);
    }
    if (a->timeout_ms) {
        dh_pack_str(&pk, "timeout_ms");
        msgpack_pack_uint64(&pk, a->timeout_ms);
    }
}

/* The puzzle string of a generated entry, decoded. */
static void entry_cells(const msgpack_object *e, const char *key, unsigned *n, uint8_t *cells)
{
    const msgpack_object *s = dh_map_get(e, key);
    assert_non_null(s);
    assert_int_equal(codec_parse_line(s->via.str.ptr, s->via.str.size, n, cells, NULL, 0), 0);
}

#define MINIMAL    1 /* judge(): each given removed gives a second solution */
#define MINIMAL180 2 /* judge(): each rotate180 orbit removed does */

/* Judge one generated puzzle with dlx: unique, its solution, minimal as
 * check_minimal says (0: not checked). */
static void judge(struct dh_reader *r, const msgpack_object *e, int check_minimal)
{
    uint8_t puz[SDK_MAX_CELLS], sol[SDK_MAX_CELLS];
    unsigned n, m, givens = 0;

    entry_cells(e, "puzzle", &n, puz);
    entry_cells(e, "solution", &m, sol);
    assert_int_equal(n, m);
    assert_int_equal(grid_check_solution(n, puz, sol, NULL, 0), 0);
    assert_int_equal(count_solutions(r, n, puz), 1);
    for (unsigned i = 0; i < n * n; i++)
        givens += puz[i] != 0;
    assert_int_equal(get_uint(e, "givens"), givens);
    for (unsigned i = 0; check_minimal && i < n * n; i++) {
        unsigned j = check_minimal == MINIMAL180 ? n * n - 1 - i : i;
        uint8_t v = puz[i], w = puz[j];
        if (!v)
            continue;
        puz[i] = puz[j] = 0;
        assert_int_equal(count_solutions(r, n, puz), 2);
        puz[i] = v;
        puz[j] = w;
    }
}

static void generate(struct dh_reader *r, uint32_t msgid, const struct gen_ask *a,
                     msgpack_unpacked *u)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    pack_generate(&sb, msgid, a);
    call(r, &sb, msgid, u);
    msgpack_sbuffer_destroy(&sb);
}

/* Unique and minimal; the same seed gives the same bytes; each puzzle's
 * own seed makes it again. */
static void test_generate_judged(void **state)
{
    struct gen_ask a = {.count = 4, .seed = 7};
    struct dh_reader r;
    msgpack_unpacked u, v;
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    msgpack_unpacked_init(&v);
    generate(&r, 60, &a, &u);
    const msgpack_object *res = dh_result(&u.data);
    assert_non_null(res);
    assert_int_equal(res->via.array.size, 4);
    for (uint32_t i = 0; i < 4; i++) {
        const msgpack_object *e = &res->via.array.ptr[i];
        judge(&r, e, MINIMAL);
        assert_true(dh_str_eq(dh_map_get(e, "symmetry"), "none"));
        /* Its own seed, count 1: the same puzzle. */
        struct gen_ask one = {.count = 1, .seed = get_uint(e, "seed")};
        generate(&r, 61, &one, &v);
        assert_non_null(dh_result(&v.data));
        assert_true(
            msgpack_object_equal(*dh_map_get(e, "puzzle"),
                                 *dh_map_get(&dh_result(&v.data)->via.array.ptr[0], "puzzle")));
    }
    generate(&r, 62, &a, &v); /* the same seed again */
    assert_true(msgpack_object_equal(*res, *dh_result(&v.data)));
    a.seed = 8;
    generate(&r, 63, &a, &v);
    assert_false(msgpack_object_equal(*res, *dh_result(&v.data)));
    msgpack_unpacked_destroy(&u);
    msgpack_unpacked_destroy(&v);
    dh_reader_close(&r);
}

/* Symmetric as asked, unique, and minimal orbit by orbit (16x16: not
 * judged for minimality, which costs seconds), for 4x4, 9x9 and 16x16. */
static void test_generate_symmetry_sizes(void **state)
{
    struct gen_ask a = {.count = 2, .seed = 3, .symmetry = "rotate180"};
    static const unsigned sizes[] = {4, 9, 16};
    struct dh_reader r;
    msgpack_unpacked u;
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    for (size_t k = 0; k < 3; k++) {
        a.size = sizes[k];
        a.count = sizes[k] == 16 ? 1 : 2;
        generate(&r, 70, &a, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_non_null(res);
        for (uint32_t i = 0; i < res->via.array.size; i++) {
            const msgpack_object *e = &res->via.array.ptr[i];
            uint8_t puz[SDK_MAX_CELLS];
            unsigned n;
            judge(&r, e, sizes[k] != 16 ? MINIMAL180 : 0);
            entry_cells(e, "puzzle", &n, puz);
            assert_int_equal(n, sizes[k]);
            for (unsigned c = 0; c < n * n; c++)
                assert_int_equal(puz[c] != 0, puz[n * n - 1 - c] != 0);
            assert_true(dh_str_eq(dh_map_get(e, "symmetry"), "rotate180"));
        }
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* A band: every puzzle's rating, by `rate`, lies in it. */
static void test_generate_band(void **state)
{
    static const char *const bands[] = {"easy", "medium"};
    static const double lo[] = {0.0, 2.31}, hi[] = {2.3, 3.4};
    struct dh_reader r;
    msgpack_unpacked u;
    int logic;
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    for (int b = 0; b < 2; b++) {
        struct gen_ask a = {.count = 2, .seed = 11, .difficulty = bands[b]};
        generate(&r, 80, &a, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_non_null(res);
        for (uint32_t i = 0; i < res->via.array.size; i++) {
            const msgpack_object *e = &res->via.array.ptr[i];
            const msgpack_object *p = dh_map_get(e, "puzzle");
            char line[82];
            snprintf(line, sizeof(line), "%.*s", (int)p->via.str.size, p->via.str.ptr);
            double rating = rate_one(&r, line, &logic);
            assert_true(rating >= lo[b] && rating <= hi[b]);
            assert_true(get_float(e, "rating") == rating);
            assert_true(dh_str_eq(dh_map_get(e, "difficulty"), bands[b]));
        }
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* Bad options: bad_request, naming the allowed values. */
static void test_generate_bad_options(void **state)
{
    /* [0, msgid, "generate", [{key: value}]] as hex after the msgid byte. */
    static const struct {
        const char *hex;
        const char *needle;
    } rows[] = {
        {"91 81 a5636f756e74 00", "count"},                       /* count 0 */
        {"91 81 a5636f756e74 cd03e9", "count"},                   /* count 1001 */
        {"91 81 a473697a65 05", "size"},                          /* size 5 */
        {"91 81 a873796d6d65747279 a6737069726174", "rotate180"}, /* symmetry "spirat" */
        {"91 81 aa646966666963756c7479 a3626164", "expert"},      /* difficulty "bad" */
        {"91 81 a76d696e696d616c a3796573", "minimal"},           /* minimal "yes" */
        {"91 81 a473656564 ff", "seed"},                          /* seed -1 */
        {"91 82 aa646966666963756c7479 a465617379 aa6d696e5f726174696e67 01", "not both"},
        {"91 82 aa6d696e5f726174696e67 05 aa6d61785f726174696e67 01", "above"},
        {"92 80 80", "generate takes"}, /* two params */
    };
    struct dh_reader r;
    msgpack_unpacked u;
    char msg[256];
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        uint8_t buf[128] = {0x94, 0x00, 0x5a, 0xa8, 'g', 'e', 'n', 'e', 'r', 'a', 't', 'e'};
        size_t len = 12;
        unsigned v;
        for (const char *h = rows[k].hex; *h;) {
            if (*h == ' ') {
                h++;
                continue;
            }
            assert_int_equal(sscanf(h, "%2x", &v), 1);
            buf[len++] = (uint8_t)v;
            h += 2;
        }
        msgpack_sbuffer sb = {.size = len, .data = (char *)buf, .alloc = len};
        assert_int_equal(dh_call(&r, &sb, 0x5a, &u), 0);
        assert_error(&u.data, "bad_request");
        if (!strstr(error_message(&u.data, msg, sizeof(msg)), rows[k].needle))
            fail_msg("row %zu: \"%s\" does not name %s", k, msg, rows[k].needle);
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* A deadline gives the puzzles so far, or timeout; a cancel stops it. */
static void test_generate_deadline_cancel(void **state)
{
    struct gen_ask a = {.size = 16, .count = 1000, .seed = 5, .timeout_ms = 300};
    struct dh_reader r;
    msgpack_unpacked u;
    msgpack_sbuffer sb;
    char code[64];
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    generate(&r, 90, &a, &u);
    if (dh_error_code(&u.data, code, sizeof(code)))
        assert_string_equal(code, "timeout");
    else {
        const msgpack_object *res = dh_result(&u.data);
        assert_true(res->via.array.size >= 1 && res->via.array.size < 1000);
        judge(&r, &res->via.array.ptr[0], 0);
    }
    msgpack_sbuffer_init(&sb);
    a.timeout_ms = 60000;
    pack_generate(&sb, 91, &a);
    dh_pack_cancel(&sb, 91);
    call(&r, &sb, 91, &u);
    assert_error(&u.data, "cancelled");
    msgpack_sbuffer_destroy(&sb);
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explain_sound),
        cmocka_unit_test(test_hint),
        cmocka_unit_test(test_stuck_reveals),
        cmocka_unit_test(test_hardest_explained),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_rate_orders),
        cmocka_unit_test(test_not_unique),
        cmocka_unit_test(test_solvers_explain),
        cmocka_unit_test(test_lying_explainer),
        cmocka_unit_test(test_generate_judged),
        cmocka_unit_test(test_generate_symmetry_sizes),
        cmocka_unit_test(test_generate_band),
        cmocka_unit_test(test_generate_bad_options),
        cmocka_unit_test(test_generate_deadline_cancel),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
