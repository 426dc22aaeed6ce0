/* test_rpc.c -- the daemon side of the wire (proto/rpc.c): what is a
 * notification, and encoders that never leave part of a message.
 *
 * Messages are built with msgpack-c and read back through rpc_read(), the
 * function the daemon runs.  The encoders are driven through a write
 * callback that fails after a byte budget, every budget from 0 to the whole
 * message, standing in for an allocation failure at each point.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto/mpscan.h"
#include "proto/read.h"
#include "test_rng.h"

/* ---------------------------------------------------------- notifications */

enum shape { EMPTY, INT, STR, ARR_EMPTY, ARR_ONE }; /* what pack_shape() packs */

static void pack_shape(msgpack_packer *pk, enum shape s, const char *str)
{
    switch (s) {
    case EMPTY:
        break;
    case INT:
        msgpack_pack_uint32(pk, 5);
        break;
    case STR:
        msgpack_pack_str(pk, strlen(str));
        msgpack_pack_str_body(pk, str, strlen(str));
        break;
    case ARR_EMPTY:
        msgpack_pack_array(pk, 0);
        break;
    case ARR_ONE:
        msgpack_pack_array(pk, 1);
        msgpack_pack_uint32(pk, 7);
        break;
    }
}

/* One message: an array of type, then up to three more elements. */
struct msg_row {
    unsigned type;         /* element 0 */
    unsigned len;          /* array length */
    enum shape e1, e2, e3; /* the elements after it */
    const char *name;      /* string for STR elements */
    int want_type;         /* RPC_MSG_REQUEST or RPC_MSG_NOTIFY */
    enum rpc_code want;    /* code */
};

static const struct msg_row msg_rows[] = {
    /* the valid notification: cancel 7 */
    {2, 3, STR, ARR_ONE, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_OK},
    /* [2]: too short, still a notification, never answered */
    {2, 1, EMPTY, EMPTY, EMPTY, "", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel"]: no params */
    {2, 2, STR, EMPTY, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, 5, []]: method not a string */
    {2, 3, INT, ARR_EMPTY, EMPTY, "", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel", [7], 5]: one element too many */
    {2, 4, STR, ARR_ONE, INT, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel", "x"]: params not an array */
    {2, 3, STR, STR, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel", []]: cancel takes [msgid] */
    {2, 3, STR, ARR_EMPTY, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "ping", []]: not a notification method */
    {2, 3, STR, ARR_EMPTY, EMPTY, "ping", RPC_MSG_NOTIFY, RPC_UNKNOWN_METHOD},
    /* [0, 5, "ping", []]: a request, for contrast */
    {0, 4, INT, STR, ARR_EMPTY, "ping", RPC_MSG_REQUEST, RPC_OK},
    /* [3, 5, "ping"]: neither: a bad request, answered */
    {3, 3, INT, STR, EMPTY, "ping", RPC_MSG_REQUEST, RPC_BAD_REQUEST},
};

static void test_notification_shapes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(msg_rows) / sizeof(msg_rows[0]); i++) {
        const struct msg_row *row = &msg_rows[i];
        msgpack_sbuffer sb;
        msgpack_packer pk;
        struct rpc_request req;
        char err[RPC_ERR_SIZE];
        ssize_t n;

        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, row->len);
        msgpack_pack_uint32(&pk, row->type);
        pack_shape(&pk, row->e1, row->name);
        pack_shape(&pk, row->e2, row->name);
        pack_shape(&pk, row->e3, row->name);
        n = rpc_read((const uint8_t *)sb.data, sb.size, 4096, &req, err, sizeof(err));
        assert_int_equal(n, (ssize_t)sb.size);
        assert_int_equal(req.type, row->want_type);
        assert_int_equal(req.code, row->want);
        if (row->want == RPC_OK && row->want_type == RPC_MSG_NOTIFY)
            assert_int_equal(req.cancel_msgid, 7);
        msgpack_sbuffer_destroy(&sb);
    }
}

/* --------------------------------------------------------------- packing */

static size_t budget;    /* bytes failing_write lets through before it fails */
static int is_permanent; /* 1: fails ever after; 0: fails once (a passing shortage) */
static int has_failed;   /* it has failed since budget was set */

/* msgpack_sbuffer_write until budget is spent, then failure. */
static int failing_write(void *data, const char *buf, size_t len)
{
    if ((len > budget && (is_permanent || !has_failed)) || (is_permanent && has_failed)) {
        has_failed = 1;
        return -1;
    }
    budget = len > budget ? 0 : budget - len;
    return msgpack_sbuffer_write(data, buf, len);
}

/* sb[from..) holds exactly one msgpack object, unpacked into *u. */
static void one_object(const msgpack_sbuffer *sb, size_t from, msgpack_unpacked *u)
{
    size_t off = 0;

    msgpack_unpacked_init(u);
    assert_int_equal(msgpack_unpack_next(u, sb->data + from, sb->size - from, &off),
                     MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(off, sb->size - from);
}

/* An error response [1, msgid, {"code": code, ...}, nil]. */
static void assert_error_response(const msgpack_object *o, uint32_t msgid, const char *code)
{
    const msgpack_object *m;

    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(o->via.array.size, 4);
    assert_int_equal(o->via.array.ptr[0].via.u64, RPC_MSG_RESPONSE);
    assert_int_equal(o->via.array.ptr[1].via.u64, msgid);
    m = &o->via.array.ptr[2];
    assert_int_equal(m->type, MSGPACK_OBJECT_MAP);
    assert_int_equal(m->via.map.ptr[0].val.type, MSGPACK_OBJECT_STR);
    assert_int_equal(m->via.map.ptr[0].val.via.str.size, strlen(code));
    assert_memory_equal(m->via.map.ptr[0].val.via.str.ptr, code, strlen(code));
    assert_int_equal(o->via.array.ptr[3].type, MSGPACK_OBJECT_NIL);
}

/* At every byte where packing can fail, the buffer keeps what it held and
 * gains the whole answer, the whole `internal` error, or nothing. */
static void check_answer_never_partial(int mode)
{
    static const uint8_t solution[16] = {1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1};
    const struct rpc_solve_result r = {.solved = 1,
                                       .n = 4,
                                       .form = RPC_FORM_STRING,
                                       .solution = solution,
                                       .count = 1,
                                       .solver = "bitmask",
                                       .elapsed_us = 12,
                                       .guesses = 3};
    msgpack_sbuffer whole;
    int seen[3] = {0, 0, 0}; /* answers, internals, nothings */

    msgpack_sbuffer_init(&whole);
    assert_int_equal(rpc_pack_solve_result(&whole, 9, &r), 0);
    for (size_t b = 0;; b++) {
        msgpack_sbuffer sb;
        is_permanent = mode;
        has_failed = 0;
        size_t prefix;
        int rc;

        msgpack_sbuffer_init(&sb);
        assert_int_equal(rpc_pack_pong(&sb, 1), 0); /* an answer already queued */
        prefix = sb.size;
        budget = b;
        rc = rpc_pack_answer(&sb, failing_write, 9, rpc_pack_solve_map, &r);
        if (rc == 0) {
            assert_int_equal(sb.size - prefix, whole.size);
            assert_memory_equal(sb.data + prefix, whole.data, whole.size);
            seen[0]++;
        } else if (rc == -ENOMEM) {
            msgpack_unpacked u;
            one_object(&sb, prefix, &u);
            assert_error_response(&u.data, 9, "internal");
            msgpack_unpacked_destroy(&u);
            seen[1]++;
        } else {
            assert_int_equal(rc, -ENOBUFS);
            assert_int_equal(sb.size, prefix);
            seen[2]++;
        }
        msgpack_sbuffer_destroy(&sb);
        if (rc == 0 || b > 2 * whole.size)
            break;
    }
    /* A passing shortage is answered `internal`; a lasting one leaves nothing. */
    assert_true(seen[0] == 1 && (mode ? seen[1] == 0 && seen[2] > 0 : seen[1] > 0 && seen[2] == 0));
    msgpack_sbuffer_destroy(&whole);
}

static void test_answer_never_partial(void **state)
{
    (void)state;
    check_answer_never_partial(0);
    check_answer_never_partial(1);
}

/* --------------------------------------------- the solve map, byte exact */

/* The solve map as msgpack-c's packer writes it: what rpc_pack_solve_map
 * must produce byte for byte. */
static void reference_solve_map(msgpack_packer *pk, const struct rpc_solve_result *r)
{
    static const char symbols[] = ".123456789ABCDEFGHIJKLMNOP";
    unsigned cells = r->n * r->n;
    char line[SDK_MAX_CELLS];

    msgpack_pack_map(pk, 6);
    msgpack_pack_str_with_body(pk, "status", 6);
    if (r->solved)
        msgpack_pack_str_with_body(pk, "solved", 6);
    else
        msgpack_pack_str_with_body(pk, "unsolvable", 10);
    msgpack_pack_str_with_body(pk, "solution", 8);
    if (!r->solution) {
        msgpack_pack_nil(pk);
    } else if (r->form == RPC_FORM_ARRAY) {
        msgpack_pack_array(pk, cells);
        for (unsigned i = 0; i < cells; i++)
            msgpack_pack_uint8(pk, r->solution[i]);
    } else {
        for (unsigned i = 0; i < cells; i++) {
            char c = symbols[r->solution[i]];
            line[i] = r->form == RPC_FORM_LOWER && c >= 'A' ? (char)(c - 'A' + 'a') : c;
        }
        msgpack_pack_str_with_body(pk, line, cells);
    }
    msgpack_pack_str_with_body(pk, "count", 5);
    msgpack_pack_uint64(pk, r->count);
    msgpack_pack_str_with_body(pk, "solver", 6);
    msgpack_pack_str_with_body(pk, r->solver, strlen(r->solver));
    msgpack_pack_str_with_body(pk, "elapsed_us", 10);
    msgpack_pack_uint64(pk, r->elapsed_us);
    msgpack_pack_str_with_body(pk, "guesses", 7);
    msgpack_pack_uint64(pk, r->guesses);
}

/* Every side and form, solved or not, numbers at each encoding's edges,
 * solver names at each string encoding's edges. */
static void test_solve_map_bytes(void **state)
{
    static const uint64_t numbers[] = {
        0, 1, 127, 128, 255, 256, 65535, 65536, UINT32_MAX, (uint64_t)UINT32_MAX + 1, UINT64_MAX};
    static const unsigned sides[] = {4, 9, 16, 25}, name_lens[] = {0, 7, 31, 32, 255, 256, 300};
    static char name[301];
    uint8_t sol[SDK_MAX_CELLS];
    unsigned t = 0;

    (void)state;
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned i = 0; i < sides[s] * sides[s]; i++)
            sol[i] = (uint8_t)(i * 7 % sides[s] + 1);
        for (unsigned form = RPC_FORM_STRING; form <= RPC_FORM_ARRAY; form++) {
            for (unsigned k = 0; k < 7 * 11; k++, t++) {
                struct rpc_solve_result r = {
                    .solved = k % 3 != 0,
                    .n = sides[s],
                    .form = (enum rpc_form)form,
                    .solution = k % 3 != 0 ? sol : NULL,
                    .count = numbers[k % 11],
                    .solver = name,
                    .elapsed_us = numbers[(k + 3) % 11],
                    .guesses = numbers[(k + 7) % 11],
                };
                msgpack_sbuffer got, want;
                msgpack_packer pk;

                memset(name, 'a' + (int)(t % 26), name_lens[k / 11]);
                name[name_lens[k / 11]] = '\0';
                msgpack_sbuffer_init(&got);
                msgpack_sbuffer_init(&want);
                assert_int_equal(rpc_pack_solve_result(&got, (uint32_t)numbers[k % 9], &r), 0);
                msgpack_packer_init(&pk, &want, msgpack_sbuffer_write);
                msgpack_pack_array(&pk, 4);
                msgpack_pack_int(&pk, 1);
                msgpack_pack_uint32(&pk, (uint32_t)numbers[k % 9]);
                msgpack_pack_nil(&pk);
                reference_solve_map(&pk, &r);
                assert_int_equal(got.size, want.size);
                assert_memory_equal(got.data, want.data, want.size);
                msgpack_sbuffer_destroy(&got);
                msgpack_sbuffer_destroy(&want);
            }
        }
    }
}

/* ------------------------------------------ rpc_read against the old road */

/* rpc_read as it was before mpsmall: mpscan_object() bounds the object,
 * msgpack_unpack() builds it, rpc_decode() judges it. */
static ssize_t reference_read(const uint8_t *buf, size_t len, size_t max_size,
                              struct rpc_request *req, char *err, size_t err_size)
{
    msgpack_zone zone;
    msgpack_object obj;
    size_t off = 0;
    ssize_t n = mpscan_object(buf, len, max_size, RPC_MAX_DEPTH);

    if (n == -E2BIG)
        snprintf(err, err_size, "message larger than the %zu-byte limit", max_size);
    else if (n < 0)
        snprintf(err, err_size, "not a msgpack object (or nested deeper than %d)", RPC_MAX_DEPTH);
    if (n <= 0)
        return n;
    assert_true(msgpack_zone_init(&zone, 2048));
    if (msgpack_unpack((const char *)buf, (size_t)n, &off, &zone, &obj) == MSGPACK_UNPACK_SUCCESS)
        rpc_decode(&obj, req, err, err_size);
    else {
        memset(req, 0, sizeof(*req));
        req->code = RPC_BAD_REQUEST;
        snprintf(err, err_size, "%s", "msgpack object could not be unpacked");
    }
    msgpack_zone_destroy(&zone);
    return n;
}

static uint64_t read_rng = 0x853c49e6748fea9bu;

static unsigned read_rnd(unsigned bound)
{
    return test_rng_below(&read_rng, bound);
}

/* A solve (or another method) request with random options. */
static void pack_random_request(msgpack_packer *pk)
{
    static const char *methods[] = {"solve", "solve", "solve", "ping", "stats", "rate", "cancel"};
    static const char *keys[] = {"solver", "limit", "timeout_ms", "other"};
    const char *m = methods[read_rnd(7)];
    unsigned opts = read_rnd(4);
    char line[82];

    for (unsigned i = 0; i < 81; i++)
        line[i] = ".123456789"[read_rnd(10)];
    msgpack_pack_array(pk, read_rnd(10) == 0 ? 3 : 4);
    msgpack_pack_int(pk, read_rnd(8) == 0 ? 2 : 0);
    msgpack_pack_uint32(pk, read_rnd(70000));
    msgpack_pack_str_with_body(pk, m, strlen(m));
    msgpack_pack_array(pk, opts ? 2 : 1);
    if (read_rnd(6) == 0) {
        msgpack_pack_array(pk, 16);
        for (unsigned i = 0; i < 16; i++)
            msgpack_pack_int(pk, (int)read_rnd(6) - 1);
    } else
        msgpack_pack_str_with_body(pk, line, 81);
    if (opts == 0)
        return;
    msgpack_pack_map(pk, opts - 1);
    for (unsigned k = 0; k + 1 < opts; k++) {
        const char *key = keys[read_rnd(4)];
        msgpack_pack_str_with_body(pk, key, strlen(key));
        if (read_rnd(3) == 0)
            msgpack_pack_str_with_body(pk, "bitmask", 7);
        else if (read_rnd(4) == 0)
            msgpack_pack_double(pk, 2.5);
        else
            msgpack_pack_int64(pk, (int64_t)read_rnd(5) - 1);
    }
}

/* Requests, with bytes flipped, cut short or followed by another, read
 * under limits around their size: the same verdict, request and message. */
static void test_read_matches_reference(void **state)
{
    (void)state;
    for (unsigned t = 0; t < 20000; t++) {
        msgpack_sbuffer sb;
        msgpack_packer pk;
        struct rpc_request got, want;
        char gerr[RPC_ERR_SIZE] = "", werr[RPC_ERR_SIZE] = "";

        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        pack_random_request(&pk);
        if (read_rnd(4) == 0)
            pack_random_request(&pk);
        for (unsigned k = read_rnd(3); k > 0; k--)
            sb.data[read_rnd((unsigned)sb.size)] = (char)read_rnd(256);
        size_t len = read_rnd(5) == 0 ? read_rnd((unsigned)sb.size + 1) : sb.size;
        size_t max = read_rnd(4) == 0 ? 60 + read_rnd(80) : 4096;
        memset(&got, 0x5a, sizeof(got));
        memset(&want, 0x5a, sizeof(want));
        ssize_t gn = rpc_read((const uint8_t *)sb.data, len, max, &got, gerr, sizeof(gerr));
        ssize_t wn = reference_read((const uint8_t *)sb.data, len, max, &want, werr, sizeof(werr));
        assert_int_equal(gn, wn);
        assert_string_equal(gerr, werr);
        assert_memory_equal(&got, &want, sizeof(got));
        msgpack_sbuffer_destroy(&sb);
    }
}

/* timeout_ms: an integer, or a float whose value is whole (JavaScript's
 * msgpack sends every number as one). */
static const struct timeout_row {
    int kind;      /* 0: uint, 1: negative int, 2: float64, 3: float32, 4: str */
    double value;  /* the value sent */
    int ok;        /* 1: decodes */
    uint64_t want; /* timeout_ms when ok */
} timeout_rows[] = {
    {0, 500, 1, 500},             /* the plain form */
    {2, 500.0, 1, 500},           /* whole float64 */
    {3, 250.0, 1, 250},           /* whole float32 */
    {2, 1e12, 1, 1000000000000u}, /* large, still whole */
    {2, 500.5, 0, 0},             /* a fraction */
    {2, 0.0, 0, 0},               /* below 1 */
    {2, -3.0, 0, 0},              /* negative */
    {1, -3, 0, 0},                /* negative integer */
    {2, 1e30, 0, 0},              /* beyond 64 bits */
    {4, 0, 0, 0},                 /* not a number */
};

static void test_timeout_forms(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(timeout_rows) / sizeof(timeout_rows[0]); i++) {
        const struct timeout_row *r = &timeout_rows[i];
        msgpack_sbuffer sb;
        msgpack_packer pk;
        struct rpc_request req;
        char err[RPC_ERR_SIZE] = "";

        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, 4);
        msgpack_pack_uint8(&pk, 0);
        msgpack_pack_uint8(&pk, 7);
        msgpack_pack_str_with_body(&pk, "solve", 5);
        msgpack_pack_array(&pk, 2);
        msgpack_pack_str_with_body(&pk, "1234341221434321", 16);
        msgpack_pack_map(&pk, 1);
        msgpack_pack_str_with_body(&pk, "timeout_ms", 10);
        if (r->kind == 0)
            msgpack_pack_uint64(&pk, (uint64_t)r->value);
        else if (r->kind == 1)
            msgpack_pack_int64(&pk, (int64_t)r->value);
        else if (r->kind == 2)
            msgpack_pack_double(&pk, r->value);
        else if (r->kind == 3)
            msgpack_pack_float(&pk, (float)r->value);
        else
            msgpack_pack_str_with_body(&pk, "500", 3);
        assert_int_equal(rpc_read((const uint8_t *)sb.data, sb.size, 4096, &req, err, sizeof(err)),
                         (ssize_t)sb.size);
        if (r->ok) {
            assert_int_equal(req.code, RPC_OK);
            assert_int_equal(req.solve.timeout_ms, r->want);
        } else {
            assert_int_equal(req.code, RPC_BAD_REQUEST);
            assert_non_null(strstr(err, "timeout_ms"));
        }
        msgpack_sbuffer_destroy(&sb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notification_shapes), cmocka_unit_test(test_answer_never_partial),
        cmocka_unit_test(test_solve_map_bytes),     cmocka_unit_test(test_read_matches_reference),
        cmocka_unit_test(test_timeout_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
