/* test_daemon_marks.c -- explain from a player's pencil marks, over the wire.
 *
 * One daemon (every built plugin) serves the file.  Nothing here trusts its
 * word: the unique solution comes from a `solve` with dlx (limit 2), the
 * marks are built here by replaying the daemon's own steps on candidates
 * of the test's, and every step that comes back is checked against that
 * solution and against the marks it was asked from (it must change one of
 * them).  Malformed marks are bad_request answers naming the cell.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"
#include "proto/codec.h"

static struct dh sd;
static char *medium[24];
static int medium_len;

static int setup(void **state)
{
    (void)state;
    medium_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/norvig_top95.txt", medium, 24);
    if (medium_len < 8)
        return -1;
    return dh_start(&sd, NULL);
}

static int teardown(void **state)
{
    int rc = dh_stop(&sd);
    (void)state;
    dh_cleanup(&sd);
    dh_free_lines(medium, medium_len);
    return rc == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- helpers */

/* The pencil marks of a 9x9 position: bit d-1 of m[cell] when d is marked. */
struct marks {
    uint32_t m[81];
};

/* How a request sends the marks. */
enum marks_form { FORM_NONE, FORM_STRING, FORM_ARRAY };

/* One explain request: the puzzle, and what of progress, marks and steps
 * it sends. */
struct ask {
    const char *puzzle;
    const char *progress;   /* NULL: none */
    const struct marks *mk; /* with form */
    enum marks_form form;   /* FORM_NONE: no candidates */
    uint32_t steps;         /* 0: none */
    const char *raw_key;    /* with raw: a candidates value packed as given */
    void (*raw)(msgpack_packer *pk);
};

static void open_reader(struct dh_reader *r)
{
    int fd = dh_connect(sd.sock);
    assert_true(fd >= 0);
    dh_reader_init(r, fd);
}

static void pack_marks(msgpack_packer *pk, const struct marks *mk, enum marks_form form)
{
    if (form == FORM_STRING) {
        char s[729];
        for (unsigned i = 0; i < 81; i++)
            for (unsigned d = 1; d <= 9; d++)
                s[i * 9 + d - 1] = mk->m[i] >> (d - 1) & 1u ? (char)('0' + d) : '.';
        msgpack_pack_str(pk, sizeof(s));
        msgpack_pack_str_body(pk, s, sizeof(s));
        return;
    }
    msgpack_pack_array(pk, 81);
    for (unsigned i = 0; i < 81; i++) {
        unsigned len = 0;
        for (unsigned d = 1; d <= 9; d++)
            len += mk->m[i] >> (d - 1) & 1u;
        msgpack_pack_array(pk, len);
        for (unsigned d = 1; d <= 9; d++)
            if (mk->m[i] >> (d - 1) & 1u)
                msgpack_pack_uint8(pk, (uint8_t)d);
    }
}

/* [0, msgid, "explain", [puzzle, {...}]] */
static void pack_ask(msgpack_sbuffer *sb, uint32_t msgid, const struct ask *a)
{
    msgpack_packer pk;
    unsigned keys = (a->progress ? 1u : 0u) + (a->form != FORM_NONE ? 1u : 0u) +
                    (a->steps ? 1u : 0u) + (a->raw ? 1u : 0u);

    dh_pack_head(&pk, sb, msgid, "explain", 2);
    dh_pack_str(&pk, a->puzzle);
    msgpack_pack_map(&pk, keys);
    if (a->progress) {
        dh_pack_str(&pk, "progress");
        dh_pack_str(&pk, a->progress);
    }
    if (a->form != FORM_NONE) {
        dh_pack_str(&pk, "candidates");
        pack_marks(&pk, a->mk, a->form);
    }
    if (a->steps) {
        dh_pack_str(&pk, "steps");
        msgpack_pack_uint32(&pk, a->steps);
    }
    if (a->raw) {
        dh_pack_str(&pk, a->raw_key);
        a->raw(&pk);
    }
}

/* Ask a on r; the response stays in *u (the caller destroys it). */
static const msgpack_object *ask(struct dh_reader *r, const struct ask *a, msgpack_unpacked *u)
{
    static uint32_t msgid = 1;
    msgpack_sbuffer sb;

    msgpack_sbuffer_init(&sb);
    pack_ask(&sb, ++msgid, a);
    assert_int_equal(dh_call(r, &sb, msgid, u), 0);
    msgpack_sbuffer_destroy(&sb);
    return &u->data;
}

/* The unique solution of puzzle by dlx (limit 2, count 1), into sol. */
static void unique_solution(struct dh_reader *r, const char *puzzle, uint8_t *sol)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *res, *s;
    unsigned n;

    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 1, puzzle, "dlx", 2, 0);
    assert_int_equal(dh_call(r, &sb, 1, &u), 0);
    res = dh_result(&u.data);
    assert_non_null(res);
    assert_int_equal(dh_map_get(res, "count")->via.u64, 1);
    s = dh_map_get(res, "solution");
    assert_int_equal(codec_parse_line(s->via.str.ptr, s->via.str.size, &n, sol, NULL, 0), 0);
    assert_int_equal(n, 9);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

static int sees(unsigned a, unsigned b)
{
    return a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
}

/* The marks of grid with nothing crossed out: what its filled cells allow. */
static void marks_of(const uint8_t *grid, struct marks *mk)
{
    for (unsigned i = 0; i < 81; i++) {
        mk->m[i] = grid[i] ? 0 : 0x1ff;
        for (unsigned j = 0; j < 81 && !grid[i]; j++)
            if (grid[j] && sees(i, j))
                mk->m[i] &= ~(1u << (grid[j] - 1));
    }
}

/* [cell, value] pair k of a step's array key. */
static void pair_at(const msgpack_object *step, const char *key, uint32_t k, unsigned *cell,
                    unsigned *v)
{
    const msgpack_object *p = dh_map_get(step, key)->via.array.ptr[k].via.array.ptr;
    *cell = (unsigned)p[0].via.u64;
    *v = (unsigned)p[1].via.u64;
}

static uint32_t pairs_len(const msgpack_object *step, const char *key)
{
    const msgpack_object *a = dh_map_get(step, key);
    assert_non_null(a);
    assert_int_equal(a->type, MSGPACK_OBJECT_ARRAY);
    return a->via.array.size;
}

/* Step st asked from (grid, mk) is sound against sol and changes the marks:
 * every placement is the solution's value in a blank cell, every
 * elimination a value the solution does not use, and at least one of them
 * was still open in the marks.  Applies it to grid and mk. */
static void check_and_apply(const msgpack_object *st, const uint8_t *sol, uint8_t *grid,
                            struct marks *mk)
{
    unsigned cell, v, changed = 0;

    for (uint32_t k = 0; k < pairs_len(st, "eliminations"); k++) {
        pair_at(st, "eliminations", k, &cell, &v);
        assert_true(cell < 81 && v >= 1 && v <= 9);
        assert_int_not_equal(v, sol[cell]);
        changed += mk->m[cell] >> (v - 1) & 1u;
        mk->m[cell] &= ~(1u << (v - 1));
    }
    for (uint32_t k = 0; k < pairs_len(st, "placements"); k++) {
        pair_at(st, "placements", k, &cell, &v);
        assert_true(cell < 81);
        assert_int_equal(v, sol[cell]);
        assert_int_equal(grid[cell], 0);
        changed++;
        grid[cell] = (uint8_t)v;
        mk->m[cell] = 0;
        for (unsigned j = 0; j < 81; j++)
            if (sees(cell, j))
                mk->m[j] &= ~(1u << (v - 1));
    }
    assert_true(changed > 0);
}

/* The only step of a steps-1 answer. */
static const msgpack_object *only_step(const msgpack_object *resp)
{
    const msgpack_object *res = dh_result(resp), *steps;
    assert_non_null(res);
    steps = dh_map_get(res, "steps");
    assert_non_null(steps);
    assert_int_equal(steps->via.array.size, 1);
    return &steps->via.array.ptr[0];
}

static int same_pairs(const msgpack_object *a, const msgpack_object *b, const char *key)
{
    const msgpack_object *x = dh_map_get(a, key), *y = dh_map_get(b, key);
    if (x->via.array.size != y->via.array.size)
        return 0;
    for (uint32_t k = 0; k < x->via.array.size; k++) {
        unsigned c1, v1, c2, v2;
        pair_at(a, key, k, &c1, &v1);
        pair_at(b, key, k, &c2, &v2);
        if (c1 != c2 || v1 != v2)
            return 0;
    }
    return 1;
}

/* Do two steps name the same technique, placements and eliminations? */
static int same_step(const msgpack_object *a, const msgpack_object *b)
{
    const msgpack_object *x = dh_map_get(a, "technique"), *y = dh_map_get(b, "technique");
    return x && y && x->via.str.size == y->via.str.size &&
           memcmp(x->via.str.ptr, y->via.str.ptr, x->via.str.size) == 0 &&
           same_pairs(a, b, "placements") && same_pairs(a, b, "eliminations");
}

/* A position of a medium puzzle where the next step only eliminates: the
 * player's grid and marks after the daemon's own steps before it (each
 * checked), and that step (kept in *u).  Returns 0, or -1 when the puzzle
 * has none in its first 40 steps. */
static int elimination_position(struct dh_reader *r, const char *puzzle, const uint8_t *sol,
                                uint8_t *grid, struct marks *mk, msgpack_unpacked *u,
                                const msgpack_object **step)
{
    unsigned n;
    char progress[82];

    assert_int_equal(codec_parse_line(puzzle, strlen(puzzle), &n, grid, NULL, 0), 0);
    marks_of(grid, mk);
    for (int k = 0; k < 40; k++) {
        assert_true(codec_format_line(9, grid, CODEC_BLANK_DOT, progress, sizeof(progress)) > 0);
        struct ask a = {
            .puzzle = puzzle, .progress = progress, .mk = mk, .form = FORM_STRING, .steps = 1};
        const msgpack_object *st = only_step(ask(r, &a, u));
        if (dh_str_eq(dh_map_get(st, "technique"), "reveal"))
            return -1;
        if (pairs_len(st, "placements") == 0) {
            *step = st;
            return 0;
        }
        check_and_apply(st, sol, grid, mk);
        msgpack_unpacked_destroy(u);
        msgpack_unpacked_init(u);
    }
    return -1;
}

/* ---------------------------------------------------------------- tests */

/* Marks that already show the next step: it is skipped, and the step the
 * daemon gives instead changes the marks and is sound; the same marks as
 * an array of digit lists give the same step. */
static void test_marks_skip_shown_step(void **state)
{
    struct dh_reader r;
    int found = 0;
    (void)state;

    open_reader(&r);
    for (int p = 0; p < medium_len && !found; p++) {
        uint8_t sol[81], grid[81];
        struct marks mk, shown;
        msgpack_unpacked u, v, w;
        const msgpack_object *step;
        char progress[82];

        if (medium[p][0] == '#')
            continue;
        unique_solution(&r, medium[p], sol);
        msgpack_unpacked_init(&u);
        if (elimination_position(&r, medium[p], sol, grid, &mk, &u, &step) != 0) {
            msgpack_unpacked_destroy(&u);
            continue;
        }
        found = 1;
        /* The player has crossed out what that step removes. */
        shown = mk;
        for (uint32_t k = 0; k < pairs_len(step, "eliminations"); k++) {
            unsigned cell, val;
            pair_at(step, "eliminations", k, &cell, &val);
            shown.m[cell] &= ~(1u << (val - 1));
        }
        assert_true(codec_format_line(9, grid, CODEC_BLANK_DOT, progress, sizeof(progress)) > 0);
        struct ask a = {.puzzle = medium[p],
                        .progress = progress,
                        .mk = &shown,
                        .form = FORM_STRING,
                        .steps = 1};
        msgpack_unpacked_init(&v);
        const msgpack_object *next = only_step(ask(&r, &a, &v));
        assert_false(dh_str_eq(dh_map_get(next, "technique"), "reveal"));
        assert_false(dh_str_eq(dh_map_get(next, "technique"), "mistake"));
        assert_false(same_step(next, step));
        struct marks after = shown;
        uint8_t g2[81];
        memcpy(g2, grid, sizeof(g2));
        check_and_apply(next, sol, g2, &after); /* changes a mark still open */
        /* The array form says the same. */
        a.form = FORM_ARRAY;
        msgpack_unpacked_init(&w);
        const msgpack_object *again = only_step(ask(&r, &a, &w));
        assert_true(same_step(again, next));
        msgpack_unpacked_destroy(&w);
        msgpack_unpacked_destroy(&v);
        msgpack_unpacked_destroy(&u);
    }
    assert_true(found);
    dh_reader_close(&r);
}

/* Marks with every candidate the givens allow explain as no marks do: the
 * same steps, in the same order. */
static void test_marks_full_as_none(void **state)
{
    struct dh_reader r;
    uint8_t grid[81];
    unsigned n;
    struct marks mk;
    msgpack_unpacked u, v;
    const char *puzzle = medium[0][0] == '#' ? medium[1] : medium[0];
    (void)state;

    open_reader(&r);
    assert_int_equal(codec_parse_line(puzzle, strlen(puzzle), &n, grid, NULL, 0), 0);
    marks_of(grid, &mk);
    struct ask plain = {.puzzle = puzzle, .steps = 30};
    struct ask marked = {.puzzle = puzzle, .mk = &mk, .form = FORM_ARRAY, .steps = 30};
    msgpack_unpacked_init(&u);
    msgpack_unpacked_init(&v);
    const msgpack_object *a = dh_map_get(dh_result(ask(&r, &plain, &u)), "steps");
    const msgpack_object *b = dh_map_get(dh_result(ask(&r, &marked, &v)), "steps");
    assert_int_equal(a->via.array.size, 30);
    assert_int_equal(b->via.array.size, 30);
    for (uint32_t k = 0; k < 30; k++)
        assert_true(same_step(&a->via.array.ptr[k], &b->via.array.ptr[k]));
    msgpack_unpacked_destroy(&u);
    msgpack_unpacked_destroy(&v);
    dh_reader_close(&r);
}

/* Marks that crossed out the solution's value of two cells: the answer is
 * one `mistake` step naming both cells, with a restore of each digit. */
static void test_marks_mistake(void **state)
{
    struct dh_reader r;
    uint8_t grid[81], sol[81];
    unsigned n, wrong[2] = {0, 0}, len = 0;
    struct marks mk;
    msgpack_unpacked u;
    const char *puzzle = medium[0][0] == '#' ? medium[1] : medium[0];
    char where[16];
    (void)state;

    open_reader(&r);
    unique_solution(&r, puzzle, sol);
    assert_int_equal(codec_parse_line(puzzle, strlen(puzzle), &n, grid, NULL, 0), 0);
    marks_of(grid, &mk);
    for (unsigned i = 80; i > 0 && len < 2; i--) /* the last two blanks */
        if (!grid[i])
            wrong[len++] = i;
    assert_int_equal(len, 2);
    for (unsigned k = 0; k < 2; k++)
        mk.m[wrong[k]] &= ~(1u << (sol[wrong[k]] - 1));
    struct ask a = {.puzzle = puzzle, .mk = &mk, .form = FORM_STRING};
    msgpack_unpacked_init(&u);
    const msgpack_object *res = dh_result(ask(&r, &a, &u));
    const msgpack_object *st = only_step(&u.data);
    assert_true(dh_str_eq(dh_map_get(res, "status"), "partial"));
    assert_true(dh_str_eq(dh_map_get(st, "technique"), "mistake"));
    assert_int_equal(pairs_len(st, "placements"), 0);
    assert_int_equal(pairs_len(st, "eliminations"), 0);
    assert_int_equal(pairs_len(st, "restore"), 2);
    for (unsigned k = 0; k < 2; k++) { /* in cell order: wrong[1] < wrong[0] */
        unsigned cell, v, want = wrong[1 - k];
        pair_at(st, "restore", k, &cell, &v);
        assert_int_equal(cell, want);
        assert_int_equal(v, sol[want]);
        assert_int_equal(dh_map_get(st, "cells")->via.array.ptr[k].via.u64, want);
        snprintf(where, sizeof(where), "r%uc%u", want / 9 + 1, want % 9 + 1);
        const msgpack_object *text = dh_map_get(st, "text");
        assert_non_null(memmem(text->via.str.ptr, text->via.str.size, where, strlen(where)));
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* ------------------------------------------- malformed marks: bad_request */

static void raw_short(msgpack_packer *pk)
{
    dh_pack_str(pk, "123456789");
}

/* 729 symbols, r1c2's third one a '4'. */
static void raw_bad_symbol(msgpack_packer *pk)
{
    char s[730];
    for (unsigned i = 0; i < 729; i++)
        s[i] = (char)('1' + i % 9);
    s[9 + 2] = '4';
    s[729] = '\0';
    dh_pack_str(pk, s);
}

/* 81 lists, r1c6's holding a 10. */
static void raw_bad_digit(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 81);
    for (unsigned i = 0; i < 81; i++) {
        msgpack_pack_array(pk, 1);
        msgpack_pack_uint8(pk, i == 5 ? 10 : 1);
    }
}

/* 81 lists, r2c1's naming 3 twice. */
static void raw_twice(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 81);
    for (unsigned i = 0; i < 81; i++) {
        msgpack_pack_array(pk, i == 9 ? 2 : 0);
        if (i == 9) {
            msgpack_pack_uint8(pk, 3);
            msgpack_pack_uint8(pk, 3);
        }
    }
}

/* 80 lists. */
static void raw_few_lists(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 80);
    for (unsigned i = 0; i < 80; i++)
        msgpack_pack_array(pk, 0);
}

/* 81 entries, r9c9's a string. */
static void raw_not_list(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 81);
    for (unsigned i = 0; i < 80; i++)
        msgpack_pack_array(pk, 0);
    dh_pack_str(pk, "12");
}

static void raw_int(msgpack_packer *pk)
{
    msgpack_pack_uint32(pk, 7);
}

static void test_marks_malformed(void **state)
{
    static const struct {
        void (*raw)(msgpack_packer *pk);
        const char *says; /* in the message */
    } cases[] = {
        {raw_short, "9 characters, want 729"}, /* the length */
        {raw_bad_symbol, "r1c2, digit 3"},     /* a digit in another's place */
        {raw_bad_digit, "r1c6"},               /* out of range */
        {raw_twice, "r2c1: digit 3 twice"},    /* repeated */
        {raw_few_lists, "80 lists"},           /* one per cell */
        {raw_not_list, "r9c9"},                /* not a list */
        {raw_int, "want a string"},            /* neither form */
    };
    struct dh_reader r;
    const char *puzzle = medium[0][0] == '#' ? medium[1] : medium[0];
    (void)state;

    open_reader(&r);
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        msgpack_unpacked u;
        char code[64];
        struct ask a = {.puzzle = puzzle, .raw_key = "candidates", .raw = cases[k].raw};
        msgpack_unpacked_init(&u);
        const msgpack_object *resp = ask(&r, &a, &u);
        assert_string_equal(dh_error_code(resp, code, sizeof(code)), "bad_request");
        const msgpack_object *m = dh_map_get(&resp->via.array.ptr[2], "message");
        assert_non_null(m);
        assert_non_null(memmem(m->via.str.ptr, m->via.str.size, "candidates", 10));
        if (!memmem(m->via.str.ptr, m->via.str.size, cases[k].says, strlen(cases[k].says)))
            fail_msg("case %zu: \"%.*s\" does not say \"%s\"", k, (int)m->via.str.size,
                     m->via.str.ptr, cases[k].says);
        msgpack_unpacked_destroy(&u);
    }
    assert_int_equal(dh_ping(sd.sock, DH_TIMEOUT_MS), 0); /* still serving */
    dh_reader_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks_skip_shown_step),
        cmocka_unit_test(test_marks_full_as_none),
        cmocka_unit_test(test_marks_mistake),
        cmocka_unit_test(test_marks_malformed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
