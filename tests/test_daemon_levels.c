/* test_daemon_levels.c -- explain's hint levels and the house, over the wire.
 *
 * One daemon (every built plugin) serves the file.  Each level's step maps
 * must carry exactly the keys docs/protocol.md lists, and the graded steps
 * must be the whole steps (level 4) cut down.  The house is checked here
 * against candidates of the test's own, replayed from the whole steps: a
 * placement's cell lies in it and, unless it is the cell's box, the digit
 * has no other candidate place there; an elimination's house holds as
 * many pattern cells as the best house does (all of them when any house
 * does).  A level-2 hint from a player's grid and pencil marks is the game
 * back end's case.  Bad levels are bad_request answers naming the option.
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
static char *puzzles[24];
static int puzzles_len;

static int setup(void **state)
{
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/norvig_top95.txt", puzzles, 24);
    if (puzzles_len < 8)
        return -1;
    return dh_start(&sd, NULL);
}

static int teardown(void **state)
{
    int rc = dh_stop(&sd);
    (void)state;
    dh_cleanup(&sd);
    dh_free_lines(puzzles, puzzles_len);
    return rc == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- asking */

/* One explain request. */
struct ask {
    const char *puzzle;
    const char *progress;            /* NULL: none */
    const char *marks;               /* 729 characters, or NULL */
    uint32_t steps;                  /* 0: none */
    int level;                       /* 0: none; -1: raw */
    void (*raw)(msgpack_packer *pk); /* packs the level's value */
};

static const msgpack_object *ask(struct dh_reader *r, const struct ask *a, msgpack_unpacked *u)
{
    static uint32_t msgid = 1;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    unsigned keys = (a->progress ? 1u : 0u) + (a->marks ? 1u : 0u) + (a->steps ? 1u : 0u) +
                    (a->level ? 1u : 0u);

    msgpack_sbuffer_init(&sb);
    dh_pack_head(&pk, &sb, ++msgid, "explain", 2);
    dh_pack_str(&pk, a->puzzle);
    msgpack_pack_map(&pk, keys);
    if (a->progress) {
        dh_pack_str(&pk, "progress");
        dh_pack_str(&pk, a->progress);
    }
    if (a->marks) {
        dh_pack_str(&pk, "candidates");
        dh_pack_str(&pk, a->marks);
    }
    if (a->steps) {
        dh_pack_str(&pk, "steps");
        msgpack_pack_uint32(&pk, a->steps);
    }
    if (a->level) {
        dh_pack_str(&pk, "level");
        if (a->raw)
            a->raw(&pk);
        else
            msgpack_pack_int(&pk, a->level);
    }
    assert_int_equal(dh_call(r, &sb, msgid, u), 0);
    msgpack_sbuffer_destroy(&sb);
    return &u->data;
}

static const msgpack_object *steps_of(const msgpack_object *resp)
{
    const msgpack_object *res = dh_result(resp), *steps;
    assert_non_null(res);
    steps = dh_map_get(res, "steps");
    assert_non_null(steps);
    assert_int_equal(steps->type, MSGPACK_OBJECT_ARRAY);
    return steps;
}

/* ------------------------------------------------------ the test's grid */

/* A 9x9 position: values and candidates (bit d-1). */
struct pos {
    uint8_t val[81];
    uint32_t cand[81];
};

/* House h of 27: rows 0-8, columns 9-17, boxes 18-26; cell k of it. */
static unsigned house_cell(unsigned h, unsigned k)
{
    if (h < 9)
        return h * 9 + k;
    if (h < 18)
        return k * 9 + (h - 9);
    h -= 18;
    return (h / 3 * 3 + k / 3) * 9 + h % 3 * 3 + k % 3;
}

static unsigned house_number(const msgpack_object *house)
{
    const msgpack_object *type = dh_map_get(house, "type"), *index = dh_map_get(house, "index");
    assert_non_null(type);
    assert_non_null(index);
    assert_true(index->via.u64 < 9);
    if (dh_str_eq(type, "row"))
        return (unsigned)index->via.u64;
    if (dh_str_eq(type, "column"))
        return 9 + (unsigned)index->via.u64;
    assert_true(dh_str_eq(type, "box"));
    return 18 + (unsigned)index->via.u64;
}

static int in_house(unsigned h, unsigned cell)
{
    for (unsigned k = 0; k < 9; k++)
        if (house_cell(h, k) == cell)
            return 1;
    return 0;
}

static void place(struct pos *p, unsigned cell, unsigned v)
{
    p->val[cell] = (uint8_t)v;
    p->cand[cell] = 0;
    for (unsigned h = 0; h < 27; h++)
        if (in_house(h, cell))
            for (unsigned k = 0; k < 9; k++)
                p->cand[house_cell(h, k)] &= ~(1u << (v - 1));
}

static void pos_init(struct pos *p, const uint8_t *grid)
{
    for (unsigned i = 0; i < 81; i++) {
        p->val[i] = 0;
        p->cand[i] = 0x1ff;
    }
    for (unsigned i = 0; i < 81; i++)
        if (grid[i])
            place(p, i, grid[i]);
}

static const msgpack_object *pair(const msgpack_object *step, const char *key, uint32_t k)
{
    return dh_map_get(step, key)->via.array.ptr[k].via.array.ptr;
}

static uint32_t len_of(const msgpack_object *step, const char *key)
{
    const msgpack_object *a = dh_map_get(step, key);
    return a ? a->via.array.size : 0;
}

/* How many of the step's pattern cells (each once: a chain may pass a
 * cell twice) lie in house h. */
static unsigned pattern_in(const msgpack_object *step, unsigned h)
{
    const msgpack_object *cells = dh_map_get(step, "cells");
    unsigned k = 0;
    uint8_t seen[81] = {0};
    for (uint32_t i = 0; i < cells->via.array.size; i++) {
        unsigned c = (unsigned)cells->via.array.ptr[i].via.u64;
        assert_true(c < 81);
        k += !seen[c] && in_house(h, c);
        seen[c] = 1;
    }
    return k;
}

/* The house h a level-2 step names for the whole step st at position p. */
static void check_house(const struct pos *p, const msgpack_object *st, unsigned h)
{
    if (len_of(st, "placements")) {
        const msgpack_object *pv = pair(st, "placements", 0);
        unsigned cell = (unsigned)pv[0].via.u64, bit = 1u << (pv[1].via.u64 - 1), others = 0;
        assert_true(in_house(h, cell));
        for (unsigned k = 0; k < 9; k++)
            others += house_cell(h, k) != cell && (p->cand[house_cell(h, k)] & bit);
        /* a hidden single there, or the cell's own box (a naked single) */
        assert_true(others == 0 || (h >= 18 && h - 18 == cell / 27 * 3 + cell % 9 / 3));
        return;
    }
    unsigned best = 0;
    for (unsigned g = 0; g < 27; g++)
        best = pattern_in(st, g) > best ? pattern_in(st, g) : best;
    assert_true(best > 0);
    assert_int_equal(pattern_in(st, h), best);
}

static void apply(struct pos *p, const msgpack_object *st)
{
    for (uint32_t k = 0; k < len_of(st, "eliminations"); k++) {
        const msgpack_object *e = pair(st, "eliminations", k);
        p->cand[e[0].via.u64] &= ~(1u << (e[1].via.u64 - 1));
    }
    for (uint32_t k = 0; k < len_of(st, "placements"); k++) {
        const msgpack_object *pv = pair(st, "placements", k);
        if (!p->val[pv[0].via.u64])
            place(p, (unsigned)pv[0].via.u64, (unsigned)pv[1].via.u64);
    }
}

/* The keys of map m are exactly those of want (NULL-terminated). */
static void keys_are(const msgpack_object *m, const char *const *want)
{
    unsigned n = 0;
    assert_int_equal(m->type, MSGPACK_OBJECT_MAP);
    for (; want[n]; n++)
        assert_non_null(dh_map_get(m, want[n]));
    assert_int_equal(m->via.map.size, n);
}

/* ---------------------------------------------------------------- tests */

static const char *const keys1[] = {"technique", "rating", NULL};
static const char *const keys2[] = {"technique", "rating", "house", NULL};
static const char *const keys3[] = {"technique", "rating", "house", "cells", NULL};
static const char *const keys4[] = {"technique", "rating", "placements", "eliminations",
                                    "cells",     "text",   NULL};

static int same_str(const msgpack_object *a, const msgpack_object *b)
{
    return a->via.str.size == b->via.str.size &&
           memcmp(a->via.str.ptr, b->via.str.ptr, a->via.str.size) == 0;
}

/* Each level of a whole explanation: the graded steps are the whole ones
 * cut to their level's keys, and every house is right on the test's own
 * candidates. */
static void test_levels_keys_and_house(void **state)
{
    struct dh_reader r;
    int fd = dh_connect(sd.sock);
    unsigned houses = 0, eliminations = 0;
    (void)state;
    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    for (int i = 0; i < 8; i++) {
        msgpack_unpacked u[4];
        const msgpack_object *s[4];
        uint8_t grid[81];
        unsigned n;
        struct pos p;
        for (int lv = 0; lv < 4; lv++) {
            struct ask a = {.puzzle = puzzles[i], .level = lv + 1};
            msgpack_unpacked_init(&u[lv]);
            s[lv] = steps_of(ask(&r, &a, &u[lv]));
        }
        assert_int_equal(codec_parse_line(puzzles[i], strlen(puzzles[i]), &n, grid, NULL, 0), 0);
        pos_init(&p, grid);
        for (uint32_t k = 0; k < s[3]->via.array.size; k++) {
            const msgpack_object *whole = &s[3]->via.array.ptr[k];
            keys_are(whole, keys4);
            for (int lv = 0; lv < 3; lv++) {
                const msgpack_object *g = &s[lv]->via.array.ptr[k];
                assert_int_equal(s[lv]->via.array.size, s[3]->via.array.size);
                keys_are(g, lv == 0 ? keys1 : lv == 1 ? keys2 : keys3);
                assert_true(same_str(dh_map_get(g, "technique"), dh_map_get(whole, "technique")));
            }
            const msgpack_object *c3 = dh_map_get(&s[2]->via.array.ptr[k], "cells"),
                                 *c4 = dh_map_get(whole, "cells");
            assert_int_equal(c3->via.array.size, c4->via.array.size);
            for (uint32_t j = 0; j < c3->via.array.size; j++)
                assert_int_equal(c3->via.array.ptr[j].via.u64, c4->via.array.ptr[j].via.u64);
            unsigned h = house_number(dh_map_get(&s[1]->via.array.ptr[k], "house"));
            assert_int_equal(h, house_number(dh_map_get(&s[2]->via.array.ptr[k], "house")));
            check_house(&p, whole, h);
            houses++;
            eliminations += len_of(whole, "placements") == 0;
            apply(&p, whole);
        }
        for (int lv = 0; lv < 4; lv++)
            msgpack_unpacked_destroy(&u[lv]);
    }
    assert_true(houses > 100);
    assert_true(eliminations > 10); /* the elimination rules were exercised */
    dh_reader_close(&r);
}

/* The game back end's case: a level-2 hint from the player's grid and
 * pencil marks is the level-4 hint cut down, its house right on those
 * marks; the first hint of every puzzle is asked this way after the
 * player has crossed out what the first steps eliminate. */
static void test_level2_from_marks(void **state)
{
    struct dh_reader r;
    int fd = dh_connect(sd.sock);
    unsigned asked = 0;
    (void)state;
    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    for (int i = 0; i < 8; i++) {
        uint8_t grid[81];
        unsigned n;
        struct pos p;
        msgpack_unpacked u;
        char progress[82], marks[730];
        assert_int_equal(codec_parse_line(puzzles[i], strlen(puzzles[i]), &n, grid, NULL, 0), 0);
        pos_init(&p, grid);
        /* the player follows the first 12 whole steps */
        msgpack_unpacked_init(&u);
        struct ask first = {.puzzle = puzzles[i], .steps = 12};
        const msgpack_object *s = steps_of(ask(&r, &first, &u));
        for (uint32_t k = 0; k < s->via.array.size; k++)
            apply(&p, &s->via.array.ptr[k]);
        msgpack_unpacked_destroy(&u);
        assert_true(codec_format_line(9, p.val, CODEC_BLANK_DOT, progress, sizeof(progress)) > 0);
        for (unsigned c = 0; c < 81; c++)
            for (unsigned d = 0; d < 9; d++)
                marks[c * 9 + d] = p.cand[c] >> d & 1u ? (char)('1' + d) : '.';
        marks[729] = '\0';
        msgpack_unpacked u2, u4;
        msgpack_unpacked_init(&u2);
        msgpack_unpacked_init(&u4);
        struct ask a2 = {
            .puzzle = puzzles[i], .progress = progress, .marks = marks, .steps = 1, .level = 2};
        struct ask a4 = a2;
        a4.level = 0;
        const msgpack_object *g = steps_of(ask(&r, &a2, &u2)), *w = steps_of(ask(&r, &a4, &u4));
        if (g->via.array.size == 1) {
            assert_int_equal(w->via.array.size, 1);
            keys_are(&g->via.array.ptr[0], keys2);
            assert_true(same_str(dh_map_get(&g->via.array.ptr[0], "technique"),
                                 dh_map_get(&w->via.array.ptr[0], "technique")));
            check_house(&p, &w->via.array.ptr[0],
                        house_number(dh_map_get(&g->via.array.ptr[0], "house")));
            asked++;
        }
        msgpack_unpacked_destroy(&u2);
        msgpack_unpacked_destroy(&u4);
    }
    assert_true(asked >= 6);
    dh_reader_close(&r);
}

static void raw_zero(msgpack_packer *pk)
{
    msgpack_pack_int(pk, 0);
}

static void raw_five(msgpack_packer *pk)
{
    msgpack_pack_int(pk, 5);
}

static void raw_string(msgpack_packer *pk)
{
    dh_pack_str(pk, "2");
}

static void raw_negative(msgpack_packer *pk)
{
    msgpack_pack_int(pk, -1);
}

/* A level outside 1..4, or not an integer, is a bad_request naming it. */
static void test_level_bad(void **state)
{
    static void (*const bad[])(msgpack_packer *) = {raw_zero, raw_five, raw_string, raw_negative};
    struct dh_reader r;
    int fd = dh_connect(sd.sock);
    (void)state;
    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        msgpack_unpacked u;
        char code[64];
        msgpack_unpacked_init(&u);
        struct ask a = {.puzzle = puzzles[0], .level = -1, .raw = bad[i]};
        const msgpack_object *resp = ask(&r, &a, &u);
        assert_string_equal(dh_error_code(resp, code, sizeof(code)), "bad_request");
        const msgpack_object *err = &resp->via.array.ptr[2];
        const msgpack_object *msg = dh_map_get(err, "message");
        assert_non_null(msg);
        assert_non_null(memmem(msg->via.str.ptr, msg->via.str.size, "level", 5));
        msgpack_unpacked_destroy(&u);
    }
    dh_reader_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_keys_and_house),
        cmocka_unit_test(test_level2_from_marks),
        cmocka_unit_test(test_level_bad),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
