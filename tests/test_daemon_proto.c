/* test_daemon_proto.c -- protocol v1 over the wire: every method, every error.
 *
 * One daemon serves the whole file (group setup), started with the liar9 test
 * plugin and a 4 KiB message limit.  Each test opens its own connections.
 * Solutions are checked by the rules and the givens, never as strings.
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

#define MAX_MESSAGE 4096

static struct dh sd;
static char *puzzles[200];
static int puzzles_len;
static char *invalid[16];
static int invalid_len;
static char *big[4];

static int setup(void **state)
{
    static const char *const extra[] = {
        "--plugin", SUDOKU_TEST_PLUGIN, "-j", "2", "--max-message", "4096", NULL};
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_17clue.txt", puzzles, 200);
    invalid_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/invalid.txt", invalid, 16);
    if (puzzles_len < 10 || invalid_len != 7 ||
        dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_16x16.txt", big, 2) != 2)
        return -1;
    return dh_start(&sd, extra);
}

static int teardown(void **state)
{
    int rc = dh_stop(&sd);
    (void)state;
    dh_cleanup(&sd);
    dh_free_lines(puzzles, puzzles_len);
    dh_free_lines(invalid, invalid_len);
    dh_free_lines(big, 2);
    return rc == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- helpers */

static void open_reader(struct dh_reader *r)
{
    int fd = dh_connect(sd.sock);
    assert_true(fd >= 0);
    dh_reader_init(r, fd);
}

/* Send raw bytes as one request and return the response to msgid. */
static void call_raw(struct dh_reader *r, const void *buf, size_t len, uint32_t msgid,
                     msgpack_unpacked *out)
{
    msgpack_sbuffer sb = {.size = len, .data = (char *)buf, .alloc = len};
    assert_int_equal(dh_call(r, &sb, msgid, out), 0);
}

static void call_solve(struct dh_reader *r, uint32_t msgid, const char *puzzle, const char *solver,
                       uint64_t limit, uint64_t timeout_ms, msgpack_unpacked *out)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    dh_pack_solve(&sb, msgid, puzzle, solver, limit, timeout_ms);
    assert_int_equal(dh_call(r, &sb, msgid, out), 0);
    msgpack_sbuffer_destroy(&sb);
}

static void assert_error(const msgpack_object *resp, const char *code)
{
    char buf[64];
    const char *got = dh_error_code(resp, buf, sizeof(buf));
    assert_non_null(got);
    assert_string_equal(got, code);
}

static uint64_t get_uint(const msgpack_object *map, const char *key)
{
    const msgpack_object *v = dh_map_get(map, key);
    assert_non_null(v);
    assert_int_equal(v->type, MSGPACK_OBJECT_POSITIVE_INTEGER);
    return v->via.u64;
}

/* ------------------------------------------------------------ the default */

/* The solver that answered puzzle (no solver named) on sock, checked by the
 * rules.  Writes its name into name. */
static void solve_default(const char *sock, const char *puzzle, char *name, size_t size)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int fd = dh_connect(sock);

    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 21, puzzle, NULL, 2, 120000);
    assert_int_equal(dh_call(&r, &sb, 21, &u), 0);
    const msgpack_object *res = dh_result(&u.data);
    assert_non_null(res);
    assert_int_equal(dh_check_solved(res, puzzle), 0);
    const msgpack_object *solver = dh_map_get(res, "solver");
    assert_non_null(solver);
    snprintf(name, size, "%.*s", (int)solver->via.str.size, solver->via.str.ptr);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* Each side appears in exactly one entry's default_sizes; returns the
 * bit set (bit k for side 4, 9, 16, 25) of the entry named name. */
static unsigned default_sizes_of(const char *sock, const char *name)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    unsigned seen[4] = {0}, mine = 0;
    int fd = dh_connect(sock);

    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 22, "solvers");
    assert_int_equal(dh_call(&r, &sb, 22, &u), 0);
    const msgpack_object *res = dh_result(&u.data);
    assert_non_null(res);
    for (uint32_t i = 0; i < res->via.array.size; i++) {
        const msgpack_object *p = &res->via.array.ptr[i];
        const msgpack_object *ds = dh_map_get(p, "default_sizes");
        assert_non_null(ds);
        assert_int_equal(ds->type, MSGPACK_OBJECT_ARRAY);
        for (uint32_t j = 0; j < ds->via.array.size; j++)
            for (unsigned k = 0; k < 4; k++)
                if (ds->via.array.ptr[j].via.u64 == sides[k]) {
                    seen[k]++;
                    if (dh_str_eq(dh_map_get(p, "name"), name))
                        mine |= 1u << k;
                }
    }
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(seen[k], 1);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    return mine;
}

/* No solver named: bitmask for 9x9 and 16x16; sat for real 25x25 puzzles
 * when it is built (skipped without libcadical-dev). */
static void test_default_per_size(void **state)
{
    char name[64], *hard[1];
    (void)state;
    solve_default(sd.sock, puzzles[0], name, sizeof(name));
    assert_string_equal(name, "bitmask");
    solve_default(sd.sock, big[0], name, sizeof(name));
    assert_string_equal(name, "bitmask");
    assert_int_equal(default_sizes_of(sd.sock, "bitmask") & 0x7u, 0x7u); /* 4, 9, 16 */
    if (default_sizes_of(sd.sock, "sat") == 0)
        skip();                                               /* no sat plugin in this build */
    assert_int_equal(default_sizes_of(sd.sock, "sat"), 0x8u); /* 25 only */
    assert_int_equal(dh_load_lines(SUDOKU_TEST_DATA_DIR "/25x25_easy.txt", hard, 1), 1);
    solve_default(sd.sock, hard[0], name, sizeof(name));
    dh_free_lines(hard, 1);
    assert_string_equal(name, "sat");
}

/* sudokud --default-solver NAME: that plugin for every size; an unknown name
 * does not start. */
static void test_default_solver_flag(void **state)
{
    static const char *const dlx[] = {"--default-solver", "dlx", NULL};
    static const char *const nope[] = {"--default-solver", "nope", NULL};
    struct dh d;
    char name[64];
    (void)state;
    assert_int_equal(dh_start(&d, dlx), 0);
    solve_default(d.sock, puzzles[0], name, sizeof(name));
    assert_string_equal(name, "dlx");
    solve_default(d.sock, big[0], name, sizeof(name));
    assert_string_equal(name, "dlx");
    assert_int_equal(default_sizes_of(d.sock, "dlx"), 0xfu);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
    assert_int_equal(dh_init(&d), 0);
    assert_int_equal(dh_spawn(&d, nope), 0);
    assert_int_equal(dh_wait(&d, 10000), 1);
    assert_true(dh_log_has(&d, "--default-solver nope: no plugin of that name loaded"));
    dh_cleanup(&d);
}

/* ---------------------------------------------------------------- methods */

static void test_ping(void **state)
{
    (void)state;
    assert_int_equal(dh_ping(sd.sock, 5000), 0);
}

static void test_version(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *res, *daemon, *proto, *abi;
    char want_abi[16];
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 12, "version");
    assert_int_equal(dh_call(&r, &sb, 12, &u), 0);
    res = dh_result(&u.data);
    assert_non_null(res);
    daemon = dh_map_get(res, "daemon");
    proto = dh_map_get(res, "protocol");
    abi = dh_map_get(res, "abi");
    assert_non_null(daemon);
    assert_int_equal(daemon->type, MSGPACK_OBJECT_STR);
    assert_true(daemon->via.str.size >= 5); /* x.y.z */
    assert_non_null(proto);
    assert_int_equal(proto->type, MSGPACK_OBJECT_POSITIVE_INTEGER);
    assert_int_equal(proto->via.u64, 1);
    snprintf(want_abi, sizeof(want_abi), "%d.%d", SDK_ABI_MAJOR, SDK_ABI_MINOR);
    assert_true(dh_str_eq(abi, want_abi));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

static void test_solvers(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *res;
    int defaults = 0, seen_bitmask = 0, seen_liar = 0;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 11, "solvers");
    assert_int_equal(dh_call(&r, &sb, 11, &u), 0);
    res = dh_result(&u.data);
    assert_non_null(res);
    assert_int_equal(res->type, MSGPACK_OBJECT_ARRAY);
    assert_true(res->via.array.size >= 4); /* dfs, bitmask, dlx, liar9 */
    for (uint32_t i = 0; i < res->via.array.size; i++) {
        const msgpack_object *p = &res->via.array.ptr[i];
        const msgpack_object *def = dh_map_get(p, "default");
        const msgpack_object *sizes = dh_map_get(p, "sizes");
        assert_non_null(dh_map_get(p, "version"));
        assert_non_null(dh_map_get(p, "description"));
        assert_non_null(def);
        assert_int_equal(def->type, MSGPACK_OBJECT_BOOLEAN);
        assert_non_null(sizes);
        assert_int_equal(sizes->type, MSGPACK_OBJECT_ARRAY);
        defaults += def->via.boolean;
        if (dh_str_eq(dh_map_get(p, "name"), "bitmask")) {
            seen_bitmask = 1;
            assert_true(def->via.boolean);
            assert_int_equal(sizes->via.array.size, 4);
        }
        if (dh_str_eq(dh_map_get(p, "name"), "liar9")) {
            seen_liar = 1;
            assert_int_equal(sizes->via.array.size, 1);
            assert_int_equal(sizes->via.array.ptr[0].via.u64, 9);
        }
    }
    assert_int_equal(defaults, 1);
    assert_true(seen_bitmask && seen_liar);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

static void test_stats(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *res, *solvers, *bm;
    uint64_t requests, solved;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 1, "stats");
    assert_int_equal(dh_call(&r, &sb, 1, &u), 0);
    res = dh_result(&u.data);
    get_uint(res, "uptime_s");
    assert_true(get_uint(res, "connections") >= 1);
    requests = get_uint(res, "requests");
    get_uint(res, "errors");
    get_uint(res, "in_flight");
    solvers = dh_map_get(res, "solvers");
    bm = dh_map_get(solvers, "bitmask");
    assert_non_null(bm);
    solved = get_uint(bm, "solved");
    get_uint(bm, "unsolvable");
    get_uint(bm, "timeouts");
    get_uint(bm, "errors");
    get_uint(bm, "busy_us");

    call_solve(&r, 2, puzzles[0], NULL, 0, 0, &u);
    assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[0]), 0);
    msgpack_sbuffer_clear(&sb);
    dh_pack_call(&sb, 3, "stats");
    assert_int_equal(dh_call(&r, &sb, 3, &u), 0);
    res = dh_result(&u.data);
    assert_true(get_uint(res, "requests") >= requests + 2);
    assert_true(get_uint(dh_map_get(dh_map_get(res, "solvers"), "bitmask"), "solved") >=
                solved + 1);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* Every solver on a string puzzle: solved, checked by the rules.  dfs is the
 * plain baseline, so every solver gets an easy puzzle: a known solution with
 * every third cell blanked. */
static void test_solve_string_every_solver(void **state)
{
    static const char *const solvers[] = {NULL, "bitmask", "dlx", "dfs"};
    struct dh_reader r;
    msgpack_unpacked u;
    const msgpack_object *res;
    char easy[82];
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    call_solve(&r, 100, puzzles[1], NULL, 0, 0, &u);
    res = dh_result(&u.data);
    assert_int_equal(dh_check_solved(res, puzzles[1]), 0);
    memcpy(easy, dh_map_get(res, "solution")->via.str.ptr, 81);
    easy[81] = '\0';
    for (int k = 0; k < 81; k += 3)
        easy[k] = '.';
    for (size_t i = 0; i < 4; i++) {
        call_solve(&r, (uint32_t)i, easy, solvers[i], 0, 0, &u);
        res = dh_result(&u.data);
        assert_non_null(res);
        assert_int_equal(dh_check_solved(res, easy), 0);
        assert_int_equal(get_uint(res, "count"), 1);
        assert_true(dh_str_eq(dh_map_get(res, "solver"), solvers[i] ? solvers[i] : "bitmask"));
        get_uint(res, "elapsed_us");
        get_uint(res, "guesses");
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* 16x16 in lower case comes back in lower case. */
static void test_solve_16x16_lower(void **state)
{
    struct dh_reader r;
    msgpack_unpacked u;
    char lower[300];
    const msgpack_object *sol;
    (void)state;

    snprintf(lower, sizeof(lower), "%s", big[0]);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'G')
            *p = (char)(*p - 'A' + 'a');
    open_reader(&r);
    msgpack_unpacked_init(&u);
    call_solve(&r, 5, lower, NULL, 0, 0, &u);
    assert_int_equal(dh_check_solved(dh_result(&u.data), lower), 0);
    sol = dh_map_get(dh_result(&u.data), "solution");
    assert_null(memchr(sol->via.str.ptr, 'A', sol->via.str.size));
    assert_non_null(memchr(sol->via.str.ptr, 'a', sol->via.str.size));
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* A puzzle sent as msgpack bin reads as a string; {"solver": nil} is the
 * default; a puzzle mixing cases gets its answer in lower case. */
static void test_bin_nil_and_mixed_case(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    char mixed[300];
    const msgpack_object *res, *sol;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint8(&pk, 0);
    msgpack_pack_uint32(&pk, 31);
    dh_pack_str(&pk, "solve");
    msgpack_pack_array(&pk, 2);
    msgpack_pack_bin(&pk, strlen(puzzles[0]));
    msgpack_pack_bin_body(&pk, puzzles[0], strlen(puzzles[0]));
    msgpack_pack_map(&pk, 1);
    dh_pack_str(&pk, "solver");
    msgpack_pack_nil(&pk);
    msgpack_unpacked_init(&u);
    assert_int_equal(dh_call(&r, &sb, 31, &u), 0);
    res = dh_result(&u.data);
    assert_non_null(res);
    assert_int_equal(dh_check_solved(res, puzzles[0]), 0);
    assert_true(dh_str_eq(dh_map_get(res, "solver"), "bitmask"));
    msgpack_unpacked_destroy(&u);

    snprintf(mixed, sizeof(mixed), "%s", big[0]);
    for (char *p = mixed; *p; p++) /* every other letter to lower case */
        if (*p >= 'A' && *p <= 'G' && (p - mixed) % 2)
            *p = (char)(*p - 'A' + 'a');
    msgpack_unpacked_init(&u);
    call_solve(&r, 32, mixed, NULL, 0, 0, &u);
    assert_int_equal(dh_check_solved(dh_result(&u.data), mixed), 0);
    sol = dh_map_get(dh_result(&u.data), "solution");
    for (uint32_t i = 0; i < sol->via.str.size; i++)
        assert_false(sol->via.str.ptr[i] >= 'A' && sol->via.str.ptr[i] <= 'P');
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* Array in, array out; the empty 4x4 grid has many solutions (limit 2). */
static void test_solve_array_and_limit(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    const msgpack_object *res, *sol;
    uint8_t puzzle[16] = {0}, cells[16];
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_int(&pk, 0);
    msgpack_pack_int(&pk, 9);
    dh_pack_str(&pk, "solve");
    msgpack_pack_array(&pk, 2);
    msgpack_pack_array(&pk, 16);
    for (int i = 0; i < 16; i++)
        msgpack_pack_int(&pk, 0);
    msgpack_pack_map(&pk, 2);
    dh_pack_str(&pk, "limit");
    msgpack_pack_int(&pk, 2);
    dh_pack_str(&pk, "unknown_key_is_ignored");
    msgpack_pack_true(&pk);
    assert_int_equal(dh_call(&r, &sb, 9, &u), 0);
    res = dh_result(&u.data);
    assert_non_null(res);
    assert_true(dh_str_eq(dh_map_get(res, "status"), "solved"));
    assert_int_equal(get_uint(res, "count"), 2);
    sol = dh_map_get(res, "solution");
    assert_int_equal(sol->type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(sol->via.array.size, 16);
    for (int i = 0; i < 16; i++)
        cells[i] = (uint8_t)sol->via.array.ptr[i].via.u64;
    assert_int_equal(grid_check_solution(4, puzzle, cells, NULL, 0), 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* invalid.txt lines 4..7 break no rule but have no solution. */
static void test_unsolvable(void **state)
{
    struct dh_reader r;
    msgpack_unpacked u;
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    for (int i = 3; i < 7; i++) {
        const msgpack_object *res;
        call_solve(&r, (uint32_t)i, invalid[i], NULL, 0, 0, &u);
        res = dh_result(&u.data);
        assert_non_null(res);
        assert_true(dh_str_eq(dh_map_get(res, "status"), "unsolvable"));
        assert_int_equal(dh_map_get(res, "solution")->type, MSGPACK_OBJECT_NIL);
        assert_int_equal(get_uint(res, "count"), 0);
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* ----------------------------------------------------------------- errors */

/* Raw requests that must be refused, one row each: hex bytes, msgid the
 * answer must carry, expected code. */
static const struct {
    const char *hex;
    uint32_t msgid;
    const char *code;
} bad_rows[] = {
    /* [0, 1, "solve", "x"]: params not an array */
    {"940001a5736f6c7665a178", 1, "bad_request"},
    /* [0, 2, "solve", []]: missing puzzle */
    {"940002a5736f6c766590", 2, "bad_request"},
    /* [0, 3, "solve", [7]]: puzzle neither string nor array */
    {"940003a5736f6c76659107", 3, "bad_request"},
    /* [0, 4, "solve", ["1234", {"limit": 0}]]: limit < 1 */
    {"940004a5736f6c766592a431323334 81a56c696d697400", 4, "bad_request"},
    /* [0, 5, "solve", ["1234", {"limit": "x"}]]: limit of the wrong type */
    {"940005a5736f6c766592a431323334 81a56c696d6974a178", 5, "bad_request"},
    /* [0, 6, "solve", ["1234", {"timeout_ms": -1}]] */
    {"940006a5736f6c766592a431323334 81aa74696d656f75745f6d73ff", 6, "bad_request"},
    /* [0, 7, "solve", ["1234", {"solver": 5}]] */
    {"940007a5736f6c766592a431323334 81a6736f6c76657205", 7, "bad_request"},
    /* [0, 8, "solve", ["1234", 5]]: options not a map */
    {"940008a5736f6c766592a43132333405", 8, "bad_request"},
    /* [0, "x", "ping", []]: unreadable msgid answers as 0 */
    {"9400a178a470696e6790", 0, "bad_request"},
    /* [0, 9, "ping"]: too short */
    {"930009a470696e67", 9, "bad_request"},
    /* {"a": 1}: not an array at all */
    {"81a16101", 0, "bad_request"},
    /* 42 */
    {"2a", 0, "bad_request"},
    /* [0, 10, "ping", [1]]: ping takes no parameters */
    {"94000aa470696e679101", 10, "bad_request"},
    /* [0, 11, "frobnicate", []] */
    {"94000baa66726f626e696361746590", 11, "unknown_method"},
    /* [0, 12, "cancel", [1]]: cancel is a notification only */
    {"94000ca663616e63656c9101", 12, "unknown_method"},
    /* [0, 13, "solve", ["123"]]: three cells */
    {"94000da5736f6c766591a3313233", 13, "bad_puzzle"},
    /* [0, 14, "solve", ["1235"]]: well, four cells but '5' > 4 */
    {"94000ea5736f6c766591a431323335", 14, "bad_puzzle"},
    /* [0, 15, "solve", [[1,1,0,...]]]: 4x4 with a row duplicate */
    {"94000fa5736f6c766591dc0010010100000000000000000000000000000000", 15, "bad_puzzle"},
    /* [0, 16, "solve", [[5, 0 x15]]]: value out of range */
    {"940010a5736f6c766591dc0010050000000000000000000000000000000000", 16, "bad_puzzle"},
    /* [0, 17, "solve", ["....", {"solver": "nosuch"}]]: the bad puzzle is reported */
    {"940011a5736f6c766592a42e2e2e2e81a6736f6c766572a66e6f73756368", 17, "bad_puzzle"},
};

static size_t from_hex(const char *hex, uint8_t *out, size_t out_size)
{
    size_t n = 0;
    unsigned v;
    while (*hex && n < out_size) {
        if (*hex == ' ') {
            hex++;
            continue;
        }
        if (sscanf(hex, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

static void test_bad_requests(void **state)
{
    struct dh_reader r;
    msgpack_unpacked u;
    uint8_t buf[256];
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    for (size_t i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
        size_t len = from_hex(bad_rows[i].hex, buf, sizeof(buf));
        print_message("row %zu: %s\n", i, bad_rows[i].hex);
        call_raw(&r, buf, len, bad_rows[i].msgid, &u);
        assert_error(&u.data, bad_rows[i].code);
    }
    /* The connection survived all of that. */
    call_solve(&r, 99, puzzles[0], NULL, 0, 0, &u);
    assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[0]), 0);
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* Givens that break a rule: the message names where. */
static void test_bad_puzzle_messages(void **state)
{
    static const char *const where[] = {"box", "column", "row"};
    struct dh_reader r;
    msgpack_unpacked u;
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    for (int i = 0; i < 3; i++) {
        const msgpack_object *msg;
        char text[256];
        call_solve(&r, (uint32_t)i, invalid[i], NULL, 0, 0, &u);
        assert_error(&u.data, "bad_puzzle");
        msg = dh_map_get(&u.data.via.array.ptr[2], "message");
        snprintf(text, sizeof(text), "%.*s", (int)msg->via.str.size, msg->via.str.ptr);
        print_message("%s\n", text);
        assert_non_null(strstr(text, where[i]));
    }
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

static void test_solver_errors(void **state)
{
    struct dh_reader r;
    msgpack_unpacked u;
    (void)state;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    call_solve(&r, 1, puzzles[0], "nosuch", 0, 0, &u);
    assert_error(&u.data, "unknown_solver");
    call_solve(&r, 2, "1...............", "liar9", 0, 0, &u);
    assert_error(&u.data, "unsupported");
    call_solve(&r, 3, puzzles[0], "liar9", 2, 0, &u);
    assert_error(&u.data, "unsupported"); /* liar9 cannot count */
    call_solve(&r, 4, puzzles[0], "liar9", 0, 0, &u);
    assert_error(&u.data, "internal");
    assert_true(dh_log_has(&sd, "liar9"));
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
}

/* A dfs count that cannot end times out; meanwhile another connection is served. */
static void test_timeout(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint64_t t0;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 1, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 300);
    t0 = dh_now_ms();
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    assert_int_equal(dh_ping(sd.sock, 5000), 0);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_error(&u.data, "timeout");
    assert_true(dh_now_ms() - t0 >= 250);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* cancel stops running solves and queued ones (three dfs solves on two
 * workers: the third waits); each is answered `cancelled`, promptly, while
 * other connections are served. */
static void test_cancel(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint64_t t0;
    uint32_t id;
    int seen[3] = {0};
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (uint32_t i = 0; i < 3; i++)
        dh_pack_solve(&sb, 77 + i, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    assert_int_equal(dh_ping(sd.sock, 5000), 0);
    assert_int_equal(dh_ping(sd.sock, 5000), 0);
    msgpack_sbuffer_clear(&sb);
    dh_pack_cancel(&sb, 12345); /* unknown ids are ignored */
    dh_pack_cancel(&sb, 79);    /* queued */
    t0 = dh_now_ms();
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_true(dh_is_response(&u.data, &id));
    assert_int_equal(id, 79);
    assert_error(&u.data, "cancelled");
    msgpack_sbuffer_clear(&sb);
    dh_pack_cancel(&sb, 77); /* running */
    dh_pack_cancel(&sb, 78); /* running */
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
        assert_true(dh_is_response(&u.data, &id));
        assert_true(id == 77 || id == 78);
        assert_false(seen[id - 77]);
        seen[id - 77] = 1;
        assert_error(&u.data, "cancelled");
    }
    assert_true(dh_now_ms() - t0 < 5000); /* generous: plugins stop within 10 ms */
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* ---------------------------------------------------------- broken streams */

/* Send bytes, expect [2, "error", [{"code": code}]] and then end of stream. */
static void expect_note_and_close(const uint8_t *buf, size_t len, const char *code)
{
    struct dh_reader r;
    msgpack_unpacked u;
    const msgpack_object *o, *err;

    open_reader(&r);
    msgpack_unpacked_init(&u);
    dh_send(r.fd, buf, len); /* may fail with EPIPE once the daemon hung up */
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    o = &u.data;
    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(o->via.array.size, 3);
    assert_int_equal(o->via.array.ptr[0].via.u64, 2);
    assert_true(dh_str_eq(&o->via.array.ptr[1], "error"));
    assert_int_equal(o->via.array.ptr[2].type, MSGPACK_OBJECT_ARRAY);
    err = &o->via.array.ptr[2].via.array.ptr[0];
    assert_true(dh_str_eq(dh_map_get(err, "code"), code));
    assert_int_equal(dh_map_get(err, "message")->type, MSGPACK_OBJECT_STR);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), -EPIPE);
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
    /* Nothing else is affected. */
    assert_int_equal(dh_ping(sd.sock, 5000), 0);
}

static void test_hostile_headers(void **state)
{
    static const uint8_t array32[] = {0xdd, 0xff, 0xff, 0xff, 0xff}; /* 4e9 elements */
    static const uint8_t str32[] = {0xdb, 0x80, 0x00, 0x00, 0x00};   /* 2 GiB string */
    static const uint8_t map32[] = {0x94, 0x00, 0x01, 0xa4, 'p',  'i', 'n',
                                    'g',  0xdf, 0xff, 0xff, 0xff, 0xff}; /* nested map32 */
    static const uint8_t bin32[] = {0xc6, 0x7f, 0xff, 0xff, 0xff};
    (void)state;

    expect_note_and_close(array32, sizeof(array32), "too_large");
    expect_note_and_close(str32, sizeof(str32), "too_large");
    expect_note_and_close(map32, sizeof(map32), "too_large");
    expect_note_and_close(bin32, sizeof(bin32), "too_large");
}

static void test_deep_nesting(void **state)
{
    uint8_t *deep = malloc(10000);
    (void)state;
    memset(deep, 0x91, 10000); /* [[[[... 10,000 deep */
    expect_note_and_close(deep, 10000, "bad_request");
    free(deep);
}

static void test_garbage(void **state)
{
    static const uint8_t reserved[] = {0xc1, 0x00, 0x01};
    uint8_t noise[512];
    (void)state;

    expect_note_and_close(reserved, sizeof(reserved), "bad_request");
    /* A burst of noise: one note, one close, however much follows. */
    for (size_t i = 0; i < sizeof(noise); i++)
        noise[i] = (uint8_t)(0xc1 ^ (i & 0x10));
    expect_note_and_close(noise, sizeof(noise), "bad_request");
}

static void test_oversize(void **state)
{
    size_t len = MAX_MESSAGE + 100;
    uint8_t *msg = malloc(len + 16);
    msgpack_sbuffer sb;
    (void)state;

    /* A complete, honest message that is simply too big: [0,1,"ping",[str]] */
    msgpack_sbuffer_init(&sb);
    {
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, 4);
        msgpack_pack_int(&pk, 0);
        msgpack_pack_int(&pk, 1);
        dh_pack_str(&pk, "ping");
        msgpack_pack_array(&pk, 1);
        msgpack_pack_str(&pk, len);
        memset(msg, 'x', len);
        msgpack_pack_str_body(&pk, msg, len);
    }
    expect_note_and_close((const uint8_t *)sb.data, sb.size, "too_large");
    msgpack_sbuffer_destroy(&sb);
    free(msg);
}

/* A message split into single bytes still works (framing). */
static void test_byte_by_byte(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint32_t id;
    (void)state;

    open_reader(&r);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 5, puzzles[2], NULL, 0, 0);
    for (size_t i = 0; i < sb.size; i++) {
        assert_int_equal(dh_send(r.fd, sb.data + i, 1), 0);
        usleep(200);
    }
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_true(dh_is_response(&u.data, &id));
    assert_int_equal(id, 5);
    assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[2]), 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ping),
        cmocka_unit_test(test_solvers),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_solve_string_every_solver),
        cmocka_unit_test(test_solve_16x16_lower),
        cmocka_unit_test(test_solve_array_and_limit),
        cmocka_unit_test(test_unsolvable),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_bad_puzzle_messages),
        cmocka_unit_test(test_solver_errors),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_hostile_headers),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_oversize),
        cmocka_unit_test(test_byte_by_byte),
        cmocka_unit_test(test_default_per_size),
        cmocka_unit_test(test_bin_nil_and_mixed_case),
        cmocka_unit_test(test_default_solver_flag),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
