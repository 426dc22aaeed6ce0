/* test_client_wire.c -- libsudoku-client's protocol encoding and decoding, on bytes.
 *
 * Requests are compared byte for byte with msgpack written out by hand from
 * the spec (docs/protocol.md); responses are hand-built byte strings fed
 * through mpscan + msgpack_unpack + the wire decoders, as client.c does.
 * Also the socket path rules.  No daemon needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client_impl.h"
#include "proto/mpscan.h"

/* ------------------------------------------------------------------------ */
/* A tiny msgpack writer, independent of msgpack-c, for expected bytes */

struct bytes {
    uint8_t b[1024];
    size_t len;
};

static void put(struct bytes *x, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        x->b[x->len++] = (uint8_t)va_arg(ap, int);
    va_end(ap);
}

static void put_str(struct bytes *x, const char *s)
{
    size_t len = strlen(s);
    assert_true(len < 256);
    if (len < 32)
        put(x, 1, 0xa0 | (int)len);
    else
        put(x, 2, 0xd9, (int)len);
    memcpy(x->b + x->len, s, len);
    x->len += len;
}

/* [1, msgid, nil, {...}] header with a result map of npairs pairs. */
static void put_response_head(struct bytes *x, int msgid, int npairs)
{
    put(x, 4, 0x94, 0x01, msgid, 0xc0);
    put(x, 1, 0x80 | npairs);
}

static void expect_bytes(const struct cbuf *got, const struct bytes *want)
{
    assert_int_equal(got->len, want->len);
    assert_memory_equal(got->data, want->b, want->len);
}

/* ------------------------------------------------------------------------ */
/* Encoding */

static void test_pack_ping(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    struct bytes want = {.len = 0};
    assert_int_equal(wire_pack_call(&b, 7, RPC_M_PING), 0);
    put(&want, 3, 0x94, 0x00, 0x07);
    put_str(&want, "ping");
    put(&want, 1, 0x90);
    expect_bytes(&b, &want);
    cbuf_free(&b);
}

static void test_pack_solve_str(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    struct bytes want = {.len = 0};
    /* msgid 300 needs uint16; no options means params of one element */
    assert_int_equal(wire_pack_solve_str(&b, 300, "1..4..1..1..4..1", 16, NULL), 0);
    put(&want, 4, 0x94, 0x00, 0xcd, 0x01);
    put(&want, 1, 0x2c);
    put_str(&want, "solve");
    put(&want, 1, 0x91);
    put_str(&want, "1..4..1..1..4..1");
    expect_bytes(&b, &want);
    cbuf_free(&b);
}

static void test_pack_solve_options(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    struct bytes want = {.len = 0};
    struct sudoku_client_options o = {.solver = "dlx", .limit = 2, .timeout_ms = 70000};
    assert_int_equal(wire_pack_solve_str(&b, 70000, "1234", 4, &o), 0);
    put(&want, 6, 0x94, 0x00, 0xce, 0x00, 0x01, 0x11);
    put(&want, 1, 0x70);
    put_str(&want, "solve");
    put(&want, 1, 0x92);
    put_str(&want, "1234");
    put(&want, 1, 0x83);
    put_str(&want, "solver");
    put_str(&want, "dlx");
    put_str(&want, "limit");
    put(&want, 1, 0x02);
    put_str(&want, "timeout_ms");
    put(&want, 5, 0xce, 0x00, 0x01, 0x11, 0x70);
    expect_bytes(&b, &want);
    cbuf_free(&b);
}

static void test_pack_solve_cells(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    struct bytes want = {.len = 0};
    const uint8_t cells[16] = {1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 0, 1};
    assert_int_equal(wire_pack_solve_cells(&b, 1, 4, cells, NULL), 0);
    put(&want, 3, 0x94, 0x00, 0x01);
    put_str(&want, "solve");
    put(&want, 4, 0x91, 0xdc, 0x00, 0x10); /* 16 elements: array16 */
    for (int i = 0; i < 16; i++)
        put(&want, 1, cells[i]);
    expect_bytes(&b, &want);
    cbuf_free(&b);
}

static void test_pack_ceiling(void **state)
{
    (void)state;
    /* a buffer at its ceiling refuses the message whole, never half of it */
    struct cbuf b = {.max = 10};
    assert_int_equal(wire_pack_solve_str(&b, 1, "1..4..1..1..4..1", 16, NULL), -E2BIG);
    assert_int_equal(b.len, 0);
    cbuf_free(&b);
}

/* ------------------------------------------------------------------------ */
/* Decoding */

/* Unpack x the way client.c does and classify it. */
static int decode_msg(const struct bytes *x, msgpack_zone *zone, msgpack_object *o,
                      struct wire_msg *m)
{
    size_t off = 0;
    ssize_t n = mpscan_object(x->b, x->len, 1 << 20, MPSCAN_MAX_DEPTH);
    assert_int_equal(n, (ssize_t)x->len);
    assert_int_equal(msgpack_unpack((const char *)x->b, x->len, &off, zone, o),
                     MSGPACK_UNPACK_SUCCESS);
    return wire_classify(o, m);
}

/* One solve response and what decoding it must give. */
struct solve_case {
    const char *comment;
    void (*build)(struct bytes *x);
    int rc; /* wire_decode_solve result */
    enum sudoku_client_status status;
    const char *code; /* error code when FAILED */
    unsigned n;       /* side when SOLVED */
    uint64_t count;
};

static void build_solved_str(struct bytes *x)
{
    put_response_head(x, 5, 6);
    put_str(x, "status");
    put_str(x, "solved");
    put_str(x, "solution");
    put_str(x, "1234341221434321");
    put_str(x, "count");
    put(x, 1, 0x01);
    put_str(x, "solver");
    put_str(x, "bitmask");
    put_str(x, "elapsed_us");
    put(x, 3, 0xcd, 0x01, 0x00);
    put_str(x, "guesses");
    put(x, 1, 0x00);
}

static void build_solved_array(struct bytes *x)
{
    static const int sol[16] = {1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1};
    put_response_head(x, 5, 3);
    put_str(x, "status");
    put_str(x, "solved");
    put_str(x, "solution");
    put(x, 3, 0xdc, 0x00, 0x10);
    for (int i = 0; i < 16; i++)
        put(x, 1, sol[i]);
    put_str(x, "count");
    put(x, 1, 0x02);
}

static void build_unsolvable(struct bytes *x)
{
    put_response_head(x, 5, 3);
    put_str(x, "status");
    put_str(x, "unsolvable");
    put_str(x, "solution");
    put(x, 1, 0xc0);
    put_str(x, "count");
    put(x, 1, 0x00);
}

static void build_error(struct bytes *x)
{
    put(x, 3, 0x94, 0x01, 0x05);
    put(x, 1, 0x82);
    put_str(x, "code");
    put_str(x, "bad_puzzle");
    put_str(x, "message");
    put_str(x, "row 3 has two 7s (columns 2 and 9)");
    put(x, 1, 0xc0);
}

static void build_bad_status(struct bytes *x)
{
    put_response_head(x, 5, 3);
    put_str(x, "status");
    put_str(x, "maybe");
    put_str(x, "solution");
    put(x, 1, 0xc0);
    put_str(x, "count");
    put(x, 1, 0x00);
}

static void build_short_solution(struct bytes *x)
{
    put_response_head(x, 5, 3);
    put_str(x, "status");
    put_str(x, "solved");
    put_str(x, "solution");
    put_str(x, "12343412214343");
    put_str(x, "count");
    put(x, 1, 0x01);
}

static void build_count_string(struct bytes *x)
{
    put_response_head(x, 5, 3);
    put_str(x, "status");
    put_str(x, "unsolvable");
    put_str(x, "solution");
    put(x, 1, 0xc0);
    put_str(x, "count");
    put_str(x, "0");
}

static const struct solve_case solve_cases[] = {
    /* string in, string out: cells and side come from the text */
    {"solved, string", build_solved_str, 0, SUDOKU_CLIENT_SOLVED, "", 4, 1},
    /* array in, array out: the line form is made from the cells */
    {"solved, array", build_solved_array, 0, SUDOKU_CLIENT_SOLVED, "", 4, 2},
    /* nil solution, count 0 */
    {"unsolvable", build_unsolvable, 0, SUDOKU_CLIENT_UNSOLVABLE, "", 0, 0},
    /* an error map: code and message are kept */
    {"error response", build_error, 0, SUDOKU_CLIENT_FAILED, "bad_puzzle", 0, 0},
    /* a status the protocol does not have */
    {"unknown status", build_bad_status, -EPROTO, SUDOKU_CLIENT_FAILED, "protocol", 0, 0},
    /* 14 cells is no grid */
    {"short solution", build_short_solution, -EPROTO, SUDOKU_CLIENT_FAILED, "protocol", 0, 0},
    /* a known key of the wrong type */
    {"count as string", build_count_string, -EPROTO, SUDOKU_CLIENT_FAILED, "protocol", 0, 0},
};

static void test_decode_solve_table(void **state)
{
    (void)state;
    msgpack_zone zone;
    assert_true(msgpack_zone_init(&zone, 1024));
    for (size_t i = 0; i < sizeof(solve_cases) / sizeof(solve_cases[0]); i++) {
        const struct solve_case *c = &solve_cases[i];
        struct bytes x = {.len = 0};
        msgpack_object o;
        struct wire_msg m;
        struct sudoku_client_result res;
        print_message("case: %s\n", c->comment);
        c->build(&x);
        assert_int_equal(decode_msg(&x, &zone, &o, &m), 0);
        assert_int_equal(m.kind, WIRE_RESPONSE);
        assert_int_equal(m.msgid, 5);
        assert_int_equal(wire_decode_solve(m.error, m.result, &res), c->rc);
        assert_int_equal(res.status, c->status);
        assert_string_equal(res.error.code, c->code);
        assert_int_equal(res.n, c->n);
        assert_int_equal(res.count, c->count);
        if (c->status == SUDOKU_CLIENT_SOLVED) {
            assert_string_equal(res.solution, "1234341221434321");
            assert_int_equal(res.cells[4], 3);
        }
        if (c->status == SUDOKU_CLIENT_FAILED && c->rc == 0)
            assert_string_equal(res.error.message, "row 3 has two 7s (columns 2 and 9)");
        msgpack_zone_clear(&zone);
    }
    msgpack_zone_destroy(&zone);
}

static void test_decode_solved_fields(void **state)
{
    (void)state;
    msgpack_zone zone;
    struct bytes x = {.len = 0};
    msgpack_object o;
    struct wire_msg m;
    struct sudoku_client_result res;
    assert_true(msgpack_zone_init(&zone, 1024));
    build_solved_str(&x);
    assert_int_equal(decode_msg(&x, &zone, &o, &m), 0);
    assert_int_equal(wire_decode_solve(m.error, m.result, &res), 0);
    assert_string_equal(res.solver, "bitmask");
    assert_int_equal(res.elapsed_us, 256);
    msgpack_zone_destroy(&zone);
}

static void test_classify(void **state)
{
    (void)state;
    msgpack_zone zone;
    msgpack_object o;
    struct wire_msg m;
    assert_true(msgpack_zone_init(&zone, 1024));
    /* the daemon's error notification */
    struct bytes note = {.len = 0};
    put(&note, 1, 0x93);
    put(&note, 1, 0x02);
    put_str(&note, "error");
    put(&note, 2, 0x91, 0x82);
    put_str(&note, "code");
    put_str(&note, "too_large");
    put_str(&note, "message");
    put_str(&note, "message over 65536 bytes");
    assert_int_equal(decode_msg(&note, &zone, &o, &m), 0);
    assert_int_equal(m.kind, WIRE_NOTIFICATION);
    struct sudoku_client_error e;
    assert_int_equal(wire_decode_error(&m.params->via.array.ptr[0], &e), 0);
    assert_string_equal(e.code, "too_large");
    /* a request is not something a client accepts */
    struct bytes req = {.len = 0};
    put(&req, 3, 0x94, 0x00, 0x01);
    put_str(&req, "ping");
    put(&req, 1, 0x90);
    assert_int_equal(decode_msg(&req, &zone, &o, &m), -EPROTO);
    /* msgid over 32 bits */
    struct bytes big = {.len = 0};
    put(&big, 9, 0x94, 0x01, 0xcf, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00);
    put(&big, 4, 0x00, 0x00, 0xc0, 0xc0);
    assert_int_equal(decode_msg(&big, &zone, &o, &m), -EPROTO);
    msgpack_zone_destroy(&zone);
}

static void test_decode_solvers_stats(void **state)
{
    (void)state;
    msgpack_zone zone;
    msgpack_object o;
    struct wire_msg m;
    struct sudoku_client_solver list[2];
    size_t len = 0;
    assert_true(msgpack_zone_init(&zone, 1024));
    struct bytes x = {.len = 0};
    put(&x, 5, 0x94, 0x01, 0x02, 0xc0, 0x91); /* one solver */
    put(&x, 1, 0x85);
    put_str(&x, "name");
    put_str(&x, "dlx");
    put_str(&x, "version");
    put_str(&x, "1.0");
    put_str(&x, "description");
    put_str(&x, "dancing links");
    put_str(&x, "sizes");
    put(&x, 3, 0x92, 0x09, 0x10);
    put_str(&x, "default");
    put(&x, 1, 0xc3);
    assert_int_equal(decode_msg(&x, &zone, &o, &m), 0);
    assert_int_equal(wire_decode_solvers(m.result, list, 2, &len), 0);
    assert_int_equal(len, 1);
    assert_string_equal(list[0].name, "dlx");
    assert_int_equal(list[0].sizes, 2u | 4u);
    assert_int_equal(list[0].is_default, 1);
    /* no rules listed (an older daemon): classic only */
    assert_int_equal(wire_decode_solver_rules(&m.result->via.array.ptr[0], PROTO_K_RULES), 0);
    /* rules by wire key; a name not known is passed over, a list that is
     * no array is none */
    struct bytes r = {.len = 0};
    put(&r, 5, 0x94, 0x01, 0x02, 0xc0, 0x91);
    put(&r, 1, 0x82);
    put_str(&r, "rules");
    put(&r, 1, 0x93);
    put_str(&r, "cages");
    put_str(&r, "spiral");
    put_str(&r, "diagonals");
    put_str(&r, "explain_rules");
    put(&r, 1, 0x07);
    assert_int_equal(decode_msg(&r, &zone, &o, &m), 0);
    assert_int_equal(wire_decode_solver_rules(&m.result->via.array.ptr[0], PROTO_K_RULES),
                     SUDOKU_CLIENT_RULE_DRAW_CAGES | SUDOKU_CLIENT_RULE_DIAGONALS);
    assert_int_equal(wire_decode_solver_rules(&m.result->via.array.ptr[0], PROTO_K_EXPLAIN_RULES),
                     0);
    /* stats: counters and one solver entry */
    struct bytes s = {.len = 0};
    struct sudoku_client_stats st;
    put_response_head(&s, 3, 3);
    put_str(&s, "requests");
    put(&s, 1, 0x2a);
    put_str(&s, "in_flight");
    put(&s, 1, 0x03);
    put_str(&s, "solvers");
    put(&s, 1, 0x81);
    put_str(&s, "bitmask");
    put(&s, 1, 0x81);
    put_str(&s, "solved");
    put(&s, 1, 0x29);
    assert_int_equal(decode_msg(&s, &zone, &o, &m), 0);
    assert_int_equal(wire_decode_stats(m.result, &st), 0);
    assert_int_equal(st.requests, 42);
    assert_int_equal(st.in_flight, 3);
    assert_int_equal(st.solvers_len, 1);
    assert_string_equal(st.solvers[0].name, "bitmask");
    assert_int_equal(st.solvers[0].solved, 41);
    msgpack_zone_destroy(&zone);
}

/* ------------------------------------------------------------------------ */
/* Socket path rules */

static void test_socket_path(void **state)
{
    (void)state;
    char out[108];
    char longp[200];
    setenv("SUDOKUD_SOCKET", "/env/sock", 1);
    assert_int_equal(sudoku_client_socket_path("/explicit/sock", out, sizeof(out)), 0);
    assert_string_equal(out, "/explicit/sock");
    assert_int_equal(sudoku_client_socket_path(NULL, out, sizeof(out)), 0);
    assert_string_equal(out, "/env/sock");
    unsetenv("SUDOKUD_SOCKET");
    setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
    assert_int_equal(sudoku_client_socket_path(NULL, out, sizeof(out)), 0);
    assert_string_equal(out, geteuid() == 0 ? "/run/sudokud/sudokud.sock"
                                            : "/run/user/1000/sudokud.sock");
    memset(longp, 'x', sizeof(longp) - 1);
    longp[0] = '/';
    longp[sizeof(longp) - 1] = '\0';
    assert_int_equal(sudoku_client_socket_path(longp, out, sizeof(out)), -ENAMETOOLONG);
}

/* ------------------------------------------------------------------------ */
/* Variant rules */

/* A solve with rules: the booleans in their order, regions, cages. */
static void test_pack_rules(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    struct bytes want = {.len = 0};
    const uint16_t cage_cells[2] = {0, 300};
    const struct sudoku_client_cage cage = {3, 2, cage_cells};
    const struct sudoku_client_rules r = {
        SUDOKU_CLIENT_RULE_DIAGONALS | SUDOKU_CLIENT_RULE_NON_CONSECUTIVE, "1122", 4, &cage, 1};
    assert_int_equal(wire_pack_solve_or_rate(&b, 1, RPC_M_SOLVE, "1234", 4, 0, NULL, NULL, &r), 0);
    put(&want, 3, 0x94, 0x00, 0x01);
    put_str(&want, "solve");
    put(&want, 1, 0x92);
    put_str(&want, "1234");
    put(&want, 1, 0x81);
    put_str(&want, "rules");
    put(&want, 1, 0x84);
    put_str(&want, "diagonals");
    put(&want, 1, 0xc3);
    put_str(&want, "non_consecutive");
    put(&want, 1, 0xc3);
    put_str(&want, "regions");
    put_str(&want, "1122");
    put_str(&want, "cages");
    put(&want, 6, 0x91, 0x92, 0x03, 0x92, 0x00, 0xcd); /* [[3, [0, 300]]] */
    put(&want, 2, 0x01, 0x2c);
    expect_bytes(&b, &want);
    cbuf_free(&b);
}

/* Rules with nothing in them send no rules key; draw flags send true, and
 * so does GIVENS (generate's givens: true). */
static void test_pack_rules_empty_and_draw(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    struct bytes want = {.len = 0};
    const struct sudoku_client_rules none = {0, NULL, 0, NULL, 0};
    const struct sudoku_client_rules draw = {SUDOKU_CLIENT_RULE_DRAW_CAGES, NULL, 0, NULL, 0};
    const struct sudoku_client_rules givens = {
        SUDOKU_CLIENT_RULE_DRAW_CAGES | SUDOKU_CLIENT_RULE_GIVENS, NULL, 0, NULL, 0};
    assert_int_equal(wire_pack_solve_or_rate(&b, 1, RPC_M_SOLVE, "1234", 4, 0, NULL, NULL, &none),
                     0);
    put(&want, 3, 0x94, 0x00, 0x01);
    put_str(&want, "solve");
    put(&want, 1, 0x91);
    put_str(&want, "1234");
    expect_bytes(&b, &want);
    b.len = 0;
    want.len = 0;
    assert_int_equal(wire_pack_generate(&b, 2, NULL, &draw), 0);
    put(&want, 3, 0x94, 0x00, 0x02);
    put_str(&want, "generate");
    put(&want, 2, 0x91, 0x81);
    put_str(&want, "rules");
    put(&want, 1, 0x81);
    put_str(&want, "cages");
    put(&want, 1, 0xc3);
    expect_bytes(&b, &want);
    b.len = 0;
    want.len = 0;
    assert_int_equal(wire_pack_generate(&b, 3, NULL, &givens), 0);
    put(&want, 3, 0x94, 0x00, 0x03);
    put_str(&want, "generate");
    put(&want, 2, 0x91, 0x81);
    put_str(&want, "rules");
    put(&want, 1, 0x82);
    put_str(&want, "cages");
    put(&want, 1, 0xc3);
    put_str(&want, "givens");
    put(&want, 1, 0xc3);
    expect_bytes(&b, &want);
    cbuf_free(&b);
}

/* Rules that cannot be encoded are refused before a byte is written. */
static void test_pack_rules_refused(void **state)
{
    (void)state;
    struct cbuf b = {.max = 4096};
    uint16_t cells[SUDOKU_CLIENT_MAX_CELLS + 1] = {0};
    const struct sudoku_client_cage big = {1, SUDOKU_CLIENT_MAX_CELLS + 1, cells};
    const struct sudoku_client_rules bad[] = {
        {0x100, NULL, 0, NULL, 0},                      /* an unknown flag */
        {0, NULL, 4, NULL, 0},                          /* a length without its layout */
        {0, NULL, 0, NULL, 1},                          /* cages counted, none given */
        {0, NULL, 0, &big, 1},                          /* more cells than 25x25 has */
        {0, "1", SUDOKU_CLIENT_MAX_CELLS + 1, NULL, 0}, /* a layout over 625 */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(
            wire_pack_solve_or_rate(&b, 1, RPC_M_SOLVE, "1234", 4, 0, NULL, NULL, &bad[i]),
            -EINVAL);
        assert_int_equal(b.len, 0);
    }
    cbuf_free(&b);
}

/* A generate answer's rules come back in one block, as sent. */
static void test_decode_generate_rules(void **state)
{
    (void)state;
    const char *puzzle = "1.3.3.1.2.4.4.2.", *solution = "1234341221434321";
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    struct sudoku_client_variant *v = NULL;
    struct sudoku_client_error err;
    size_t len = 0;

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 2);
    for (int i = 0; i < 2; i++) {
        msgpack_pack_map(&pk, i == 0 ? 5 : 4);
        msgpack_pack_str_with_body(&pk, "puzzle", 6);
        msgpack_pack_str_with_body(&pk, puzzle, 16);
        msgpack_pack_str_with_body(&pk, "solution", 8);
        msgpack_pack_str_with_body(&pk, solution, 16);
        msgpack_pack_str_with_body(&pk, "givens", 6);
        msgpack_pack_uint8(&pk, 8);
        msgpack_pack_str_with_body(&pk, "seed", 4);
        msgpack_pack_uint8(&pk, (uint8_t)(7 + i));
        if (i == 0) { /* the second is classic: no rules key */
            msgpack_pack_str_with_body(&pk, "rules", 5);
            msgpack_pack_map(&pk, 3);
            msgpack_pack_str_with_body(&pk, "windows", 7);
            msgpack_pack_true(&pk);
            msgpack_pack_str_with_body(&pk, "regions", 7);
            msgpack_pack_str_with_body(&pk, "1122112233443344", 16);
            msgpack_pack_str_with_body(&pk, "cages", 5);
            msgpack_pack_array(&pk, 2);
            msgpack_pack_array(&pk, 2);
            msgpack_pack_uint8(&pk, 4);
            msgpack_pack_array(&pk, 2);
            msgpack_pack_uint8(&pk, 0);
            msgpack_pack_uint8(&pk, 4);
            msgpack_pack_array(&pk, 2);
            msgpack_pack_uint8(&pk, 2);
            msgpack_pack_array(&pk, 1);
            msgpack_pack_uint8(&pk, 15);
        }
    }
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    msgpack_object nil = {.type = MSGPACK_OBJECT_NIL};
    assert_int_equal(wire_decode_generate_rules(&nil, &u.data, 2, &v, &len, &err), 0);
    assert_int_equal(len, 2);
    assert_string_equal(v[0].puzzle.puzzle, puzzle);
    assert_int_equal(v[0].rules.flags, SUDOKU_CLIENT_RULE_WINDOWS);
    assert_int_equal(v[0].rules.regions_len, 16);
    assert_memory_equal(v[0].rules.regions, "1122112233443344", 16);
    assert_int_equal(v[0].rules.cages_len, 2);
    assert_int_equal(v[0].rules.cages[0].sum, 4);
    assert_int_equal(v[0].rules.cages[0].cells_len, 2);
    assert_int_equal(v[0].rules.cages[0].cells[1], 4);
    assert_int_equal(v[0].rules.cages[1].cells[0], 15);
    assert_int_equal(v[1].puzzle.seed, 8);
    assert_int_equal(v[1].rules.flags, 0);
    assert_null(v[1].rules.regions);
    assert_int_equal(v[1].rules.cages_len, 0);
    sudoku_client_variants_free(v);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_ping),
        cmocka_unit_test(test_pack_solve_str),
        cmocka_unit_test(test_pack_solve_options),
        cmocka_unit_test(test_pack_solve_cells),
        cmocka_unit_test(test_pack_ceiling),
        cmocka_unit_test(test_decode_solve_table),
        cmocka_unit_test(test_decode_solved_fields),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_decode_solvers_stats),
        cmocka_unit_test(test_socket_path),
        cmocka_unit_test(test_pack_rules),
        cmocka_unit_test(test_pack_rules_empty_and_draw),
        cmocka_unit_test(test_pack_rules_refused),
        cmocka_unit_test(test_decode_generate_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
