/* test_mpscan.c -- bounding msgpack objects before anyone allocates for them.
 *
 * Every msgpack format is scanned complete and truncated at every byte (each
 * strict prefix must say "need more"), and its length is cross-checked with
 * msgpack-c's own unpacker.  Hostile headers (4 billion elements, 2 GiB
 * strings, 1000-deep nesting, the reserved byte 0xc1) must be refused from
 * the header alone; the size limit is exact to the byte.  Buffers are copied
 * to heap blocks of exactly their length so that ASan sees any overread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "proto/mpscan.h"
#include "test_rng.h"

#define BIG  (1u << 20) /* a max_size nothing in the tables reaches */
#define MAXB 80         /* longest encoding in the tables */
#define MAXS (1u << 24) /* longest buffer any test scans */

/* Scan exactly len bytes of buf from a heap copy of that size.  The ceiling
 * check also tells the compiler that malloc's argument is bounded (without it
 * gcc -O3 warns with -Walloc-size-larger-than on the inlined e->len + 3). */
static ssize_t scan_exact(const uint8_t *buf, size_t len, size_t max_size, unsigned depth)
{
    uint8_t *copy;
    ssize_t rc;

    if (len > MAXS) {
        fail_msg("scan_exact: %zu bytes is over the test ceiling", len);
        return -1;
    }
    copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len > 0)
        memcpy(copy, buf, len);
    rc = mpscan_object(copy, len, max_size, depth);
    free(copy);
    return rc;
}

/* Length msgpack-c finds for the object at buf, or -1 when it does not
 * parse one complete object. */
static long msgpack_c_length(const uint8_t *buf, size_t len)
{
    msgpack_unpacked u;
    size_t off = 0;
    msgpack_unpack_return rc;

    msgpack_unpacked_init(&u);
    rc = msgpack_unpack_next(&u, (const char *)buf, len, &off);
    msgpack_unpacked_destroy(&u);
    return rc == MSGPACK_UNPACK_SUCCESS ? (long)off : -1;
}

/* ------------------------------------------------------------------ */
/* Every format, complete and truncated                                */

struct encoding {
    uint8_t bytes[MAXB];
    size_t len;
};

static const struct encoding encodings[] = {
    {{0x00}, 1},                                /* positive fixint 0 */
    {{0x7f}, 1},                                /* positive fixint 127 */
    {{0xe0}, 1},                                /* negative fixint -32 */
    {{0xff}, 1},                                /* negative fixint -1 */
    {{0xc0}, 1},                                /* nil */
    {{0xc2}, 1},                                /* false */
    {{0xc3}, 1},                                /* true */
    {{0xca, 0x3f, 0x80, 0, 0}, 5},              /* float32 1.0 */
    {{0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, 9},  /* float64 1.0 */
    {{0xcc, 0xff}, 2},                          /* uint8 */
    {{0xcd, 0xff, 0xff}, 3},                    /* uint16 */
    {{0xce, 0xff, 0xff, 0xff, 0xff}, 5},        /* uint32 */
    {{0xcf, 1, 2, 3, 4, 5, 6, 7, 8}, 9},        /* uint64 */
    {{0xd0, 0x80}, 2},                          /* int8 */
    {{0xd1, 0x80, 0x00}, 3},                    /* int16 */
    {{0xd2, 0x80, 0, 0, 0}, 5},                 /* int32 */
    {{0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}, 9},     /* int64 */
    {{0xa0}, 1},                                /* fixstr "" */
    {{0xa3, 'a', 'b', 'c'}, 4},                 /* fixstr "abc" */
    {{0xd9, 2, 'h', 'i'}, 4},                   /* str8 */
    {{0xda, 0, 3, 'a', 'b', 'c'}, 6},           /* str16 */
    {{0xdb, 0, 0, 0, 2, 'o', 'k'}, 7},          /* str32 */
    {{0xc4, 2, 0xde, 0xad}, 4},                 /* bin8 */
    {{0xc5, 0, 1, 0xc1}, 4},                    /* bin16: 0xc1 as data is fine */
    {{0xc6, 0, 0, 0, 1, 0x00}, 6},              /* bin32 */
    {{0xd4, 1, 0xaa}, 3},                       /* fixext1 */
    {{0xd5, 1, 0xaa, 0xbb}, 4},                 /* fixext2 */
    {{0xd6, 1, 1, 2, 3, 4}, 6},                 /* fixext4 */
    {{0xd7, 0xff, 1, 2, 3, 4, 5, 6, 7, 8}, 10}, /* fixext8 (timestamp) */
    {{0xd8, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 18}, /* fixext16 */
    {{0xc7, 2, 5, 0xaa, 0xbb}, 5},                                          /* ext8 */
    {{0xc8, 0, 1, 5, 0xaa}, 5},                                             /* ext16 */
    {{0xc9, 0, 0, 0, 1, 5, 0xaa}, 7},                                       /* ext32 */
    {{0x90}, 1},                                                            /* fixarray [] */
    {{0x93, 1, 0xc0, 0xa1, 'x'}, 5},     /* fixarray [1, nil, "x"] */
    {{0xdc, 0, 2, 0xc2, 0xc3}, 5},       /* array16 [false, true] */
    {{0xdd, 0, 0, 0, 1, 0x05}, 6},       /* array32 [5] */
    {{0x80}, 1},                         /* fixmap {} */
    {{0x81, 0xa1, 'k', 0x01}, 4},        /* fixmap {"k": 1} */
    {{0xde, 0, 1, 0x01, 0x90}, 5},       /* map16 {1: []} */
    {{0xdf, 0, 0, 0, 1, 0xc0, 0x80}, 7}, /* map32 {nil: {}} */
    /* nested: [[[]], {"a": [1, {"b": nil}]}, 2] */
    {{0x93, 0x91, 0x90, 0x81, 0xa1, 'a', 0x92, 0x01, 0x81, 0xa1, 'b', 0xc0, 0x02}, 13},
    /* a request: [0, 7, "ping", []] */
    {{0x94, 0x00, 0x07, 0xa4, 'p', 'i', 'n', 'g', 0x90}, 9},
};

#define N_ENCODINGS (sizeof(encodings) / sizeof(encodings[0]))

static void test_every_type_complete(void **state)
{
    uint8_t buf[MAXB + 3];

    (void)state;
    for (size_t i = 0; i < N_ENCODINGS; i++) {
        const struct encoding *e = &encodings[i];

        assert_int_equal(scan_exact(e->bytes, e->len, BIG, MPSCAN_MAX_DEPTH), (ssize_t)e->len);
        /* msgpack-c agrees on the length */
        assert_int_equal(msgpack_c_length(e->bytes, e->len), (long)e->len);
        /* bytes after the object are not part of it */
        memcpy(buf, e->bytes, e->len);
        memcpy(buf + e->len, "\x91\x01\xc1", 3);
        assert_int_equal(scan_exact(buf, e->len + 3, BIG, MPSCAN_MAX_DEPTH), (ssize_t)e->len);
        /* exactly at max_size is accepted, one byte under is not */
        assert_int_equal(scan_exact(e->bytes, e->len, e->len, MPSCAN_MAX_DEPTH), (ssize_t)e->len);
        assert_int_equal(scan_exact(e->bytes, e->len, e->len - 1, MPSCAN_MAX_DEPTH), -E2BIG);
    }
}

static void test_every_type_truncated(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ENCODINGS; i++) {
        const struct encoding *e = &encodings[i];

        /* every strict prefix, the empty one included, needs more */
        for (size_t cut = 0; cut < e->len; cut++)
            assert_int_equal(scan_exact(e->bytes, cut, BIG, MPSCAN_MAX_DEPTH), 0);
    }
}

/* ------------------------------------------------------------------ */
/* Hostile headers                                                     */

struct hostile_case {
    uint8_t bytes[8];
    size_t len;
    ssize_t want;
};

static const struct hostile_case hostile_cases[] = {
    {{0xdd, 0xee, 0x6b, 0x28, 0x00}, 5, -E2BIG},       /* array32 of 4e9 elements */
    {{0xdd, 0xff, 0xff, 0xff, 0xff}, 5, -E2BIG},       /* array32 of 2^32 - 1 */
    {{0xdf, 0xff, 0xff, 0xff, 0xff}, 5, -E2BIG},       /* map32 of 2^32 - 1 pairs */
    {{0xdf, 0x00, 0x00, 0x80, 0x00}, 5, -E2BIG},       /* map32 of 32768 pairs: 65536 elements */
    {{0xdb, 0x80, 0x00, 0x00, 0x00}, 5, -E2BIG},       /* str32 of 2 GiB */
    {{0xc6, 0x80, 0x00, 0x00, 0x00}, 5, -E2BIG},       /* bin32 of 2 GiB */
    {{0xc9, 0xff, 0xff, 0xff, 0xff, 0x01}, 6, -E2BIG}, /* ext32 of 4 GiB */
    {{0xda, 0xff, 0xff}, 3, -E2BIG},                   /* str16 of 64 KiB - 1 */
    {{0xdc, 0xff, 0xff}, 3, -E2BIG},                   /* array16 of 65535 elements */
    {{0x91, 0x91, 0xdb, 0x80, 0, 0, 0}, 7, -E2BIG},    /* 2 GiB string two levels down */
    {{0xc1}, 1, -EBADMSG},                             /* the reserved byte */
    {{0x92, 0x01, 0xc1}, 3, -EBADMSG},                 /* reserved byte inside an array */
    {{0x81, 0xc1, 0x01}, 3, -EBADMSG},                 /* reserved byte as a map key */
    {{0xdd, 0x00}, 2, 0},                              /* array32 header not complete yet */
    {{0xdd, 0x00, 0x00, 0xff, 0xf0}, 5, 0},            /* 65520 elements fit 64 KiB: need more */
};

static void test_hostile_headers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(hostile_cases) / sizeof(hostile_cases[0]); i++) {
        const struct hostile_case *t = &hostile_cases[i];

        assert_int_equal(scan_exact(t->bytes, t->len, 65536, MPSCAN_MAX_DEPTH), t->want);
    }
}

/* Nesting: 1000 levels are refused, depth_max levels accepted, one more not. */
static void test_deep_nesting(void **state)
{
    uint8_t buf[1001];
    unsigned d;

    (void)state;
    memset(buf, 0x91, 1000); /* [[[[...]]]] */
    buf[1000] = 0x90;
    assert_int_equal(scan_exact(buf, 1001, BIG, MPSCAN_MAX_DEPTH), -EBADMSG);
    /* the same as maps: {1: {1: ...}} */
    for (size_t i = 0; i < 1000; i += 2) {
        buf[i] = 0x81;
        buf[i + 1] = 0x01;
    }
    assert_int_equal(scan_exact(buf, 1001, BIG, MPSCAN_MAX_DEPTH), -EBADMSG);
    /* refused as soon as the level too deep is seen, not when complete */
    memset(buf, 0x91, 40);
    assert_int_equal(scan_exact(buf, 40, BIG, MPSCAN_MAX_DEPTH), -EBADMSG);
    for (d = 1; d <= MPSCAN_MAX_DEPTH; d++) {
        /* d arrays deep: [[...[1]...]] */
        memset(buf, 0x91, d);
        buf[d] = 0x01;
        assert_int_equal(scan_exact(buf, d + 1, BIG, d), (ssize_t)d + 1);
        assert_int_equal(scan_exact(buf, d + 1, BIG, d - 1), -EBADMSG);
    }
    /* depth_max above MPSCAN_MAX_DEPTH is capped */
    memset(buf, 0x91, MPSCAN_MAX_DEPTH + 1);
    buf[MPSCAN_MAX_DEPTH + 1] = 0x01;
    assert_int_equal(scan_exact(buf, MPSCAN_MAX_DEPTH + 2, BIG, 1000), -EBADMSG);
    /* depth 0: scalars only; an empty array is still a container */
    assert_int_equal(scan_exact((const uint8_t *)"\x05", 1, BIG, 0), 1);
    assert_int_equal(scan_exact((const uint8_t *)"\x90", 1, BIG, 0), -EBADMSG);
}

/* ------------------------------------------------------------------ */
/* The size limit, exact to the byte                                   */

/* Fill buf with [str, str, ...]: an array16 of count str8s of slen bytes. */
static size_t make_array_of_strings(uint8_t *buf, unsigned count, unsigned slen)
{
    size_t k = 0;

    buf[k++] = 0xdc;
    buf[k++] = (uint8_t)(count >> 8);
    buf[k++] = (uint8_t)count;
    for (unsigned i = 0; i < count; i++) {
        buf[k++] = 0xd9;
        buf[k++] = (uint8_t)slen;
        memset(buf + k, 'x', slen);
        k += slen;
    }
    return k;
}

static void test_max_size(void **state)
{
    static uint8_t buf[70000];
    size_t len, cut;
    ssize_t rc;

    (void)state;
    /* a str16 message of exactly 1000 bytes: at the limit and one over */
    buf[0] = 0xda;
    buf[1] = (uint8_t)(997 >> 8);
    buf[2] = (uint8_t)(997 & 0xff);
    memset(buf + 3, 'a', 997);
    assert_int_equal(scan_exact(buf, 1000, 1000, MPSCAN_MAX_DEPTH), 1000);
    assert_int_equal(scan_exact(buf, 1000, 999, MPSCAN_MAX_DEPTH), -E2BIG);
    /* refused from the header alone, before the body arrives */
    assert_int_equal(scan_exact(buf, 3, 999, MPSCAN_MAX_DEPTH), -E2BIG);
    assert_int_equal(scan_exact(buf, 3, 1000, MPSCAN_MAX_DEPTH), 0);

    /* an array whose size only shows element by element: 100 strings of 100 */
    len = make_array_of_strings(buf, 100, 100);
    assert_int_equal(len, 3 + 100 * 102);
    assert_int_equal(scan_exact(buf, len, len, MPSCAN_MAX_DEPTH), (ssize_t)len);
    assert_int_equal(scan_exact(buf, len, len - 1, MPSCAN_MAX_DEPTH), -E2BIG);
    /* every prefix is either "need more" or "too big", never complete; and
     * once too big it stays too big as bytes arrive */
    int seen_too_big = 0;
    for (cut = 0; cut < len; cut++) {
        rc = scan_exact(buf, cut, len - 1, MPSCAN_MAX_DEPTH);
        assert_true(rc == 0 || rc == -E2BIG);
        if (seen_too_big)
            assert_int_equal(rc, -E2BIG);
        seen_too_big = rc == -E2BIG;
    }
    assert_true(seen_too_big);
    /* the last string's header is where it shows: 2 bytes before its body */
    assert_int_equal(scan_exact(buf, len - 100, len - 1, MPSCAN_MAX_DEPTH), -E2BIG);
    assert_int_equal(scan_exact(buf, len - 101, len - 1, MPSCAN_MAX_DEPTH), 0);

    /* an array of fixints exactly at the limit and one over */
    len = make_array_of_strings(buf, 0, 0);
    buf[1] = (uint8_t)(65533 >> 8);
    buf[2] = (uint8_t)(65533 & 0xff);
    memset(buf + 3, 0x01, 65533);
    assert_int_equal(scan_exact(buf, 65536, 65536, MPSCAN_MAX_DEPTH), 65536);
    assert_int_equal(scan_exact(buf, 65536, 65535, MPSCAN_MAX_DEPTH), -E2BIG);
    assert_int_equal(scan_exact(buf, 3, 65535, MPSCAN_MAX_DEPTH), -E2BIG);
    /* max_size 0 takes nothing */
    assert_int_equal(scan_exact(buf, 0, 0, MPSCAN_MAX_DEPTH), -E2BIG);
}

/* ------------------------------------------------------------------ */
/* What msgpack-c's packer writes                                      */

static void pack_every_type(msgpack_packer *pk)
{
    static const char body[300] = "0123456789";

    msgpack_pack_array(pk, 24);
    msgpack_pack_nil(pk);
    msgpack_pack_true(pk);
    msgpack_pack_false(pk);
    msgpack_pack_int8(pk, -100);
    msgpack_pack_int16(pk, -30000);
    msgpack_pack_int32(pk, -2000000000);
    msgpack_pack_int64(pk, INT64_MIN);
    msgpack_pack_uint8(pk, 200);
    msgpack_pack_uint16(pk, 60000);
    msgpack_pack_uint32(pk, 4000000000u);
    msgpack_pack_uint64(pk, UINT64_MAX);
    msgpack_pack_float(pk, 1.5f);
    msgpack_pack_double(pk, -2.25);
    msgpack_pack_str_with_body(pk, body, 5);   /* fixstr */
    msgpack_pack_str_with_body(pk, body, 200); /* str8 */
    msgpack_pack_str_with_body(pk, body, 300); /* str16 */
    msgpack_pack_bin_with_body(pk, body, 3);
    msgpack_pack_bin_with_body(pk, body, 300);
    msgpack_pack_ext_with_body(pk, body, 1, 7);  /* fixext1 */
    msgpack_pack_ext_with_body(pk, body, 16, 7); /* fixext16 */
    msgpack_pack_ext_with_body(pk, body, 5, 7);  /* ext8 */
    msgpack_pack_ext_with_body(pk, body, 300, 7);
    /* a map16 of 20 pairs */
    msgpack_pack_map(pk, 20);
    for (int i = 0; i < 20; i++) {
        msgpack_pack_int(pk, i);
        msgpack_pack_array(pk, 0);
    }
    /* an array16 of 40 small ints */
    msgpack_pack_array(pk, 40);
    for (int i = 0; i < 40; i++)
        msgpack_pack_int(pk, i);
}

/* A solve request as a client would send it. */
static void pack_request(msgpack_packer *pk)
{
    static const char puzzle[] = "..9.7...5..21..9..1...28....7...5..1..851.....5....3.......3..68"
                                 "........21.....87";

    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_uint32(pk, 123456);
    msgpack_pack_str_with_body(pk, "solve", 5);
    msgpack_pack_array(pk, 2);
    msgpack_pack_str_with_body(pk, puzzle, sizeof(puzzle) - 1);
    msgpack_pack_map(pk, 2);
    msgpack_pack_str_with_body(pk, "solver", 6);
    msgpack_pack_str_with_body(pk, "bitmask", 7);
    msgpack_pack_str_with_body(pk, "limit", 5);
    msgpack_pack_int(pk, 2);
}

static void check_packed(void (*pack)(msgpack_packer *))
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    size_t first;

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    pack(&pk);
    first = sb.size;
    /* a second object right behind, as on the wire */
    pack(&pk);
    assert_int_equal(scan_exact((const uint8_t *)sb.data, first, 65536, MPSCAN_MAX_DEPTH),
                     (ssize_t)first);
    assert_int_equal(scan_exact((const uint8_t *)sb.data, sb.size, 65536, MPSCAN_MAX_DEPTH),
                     (ssize_t)first);
    assert_int_equal(
        scan_exact((const uint8_t *)sb.data + first, sb.size - first, 65536, MPSCAN_MAX_DEPTH),
        (ssize_t)(sb.size - first));
    for (size_t cut = 0; cut < first; cut++)
        assert_int_equal(scan_exact((const uint8_t *)sb.data, cut, 65536, MPSCAN_MAX_DEPTH), 0);
    assert_int_equal(scan_exact((const uint8_t *)sb.data, first, first - 1, MPSCAN_MAX_DEPTH),
                     -E2BIG);
    msgpack_sbuffer_destroy(&sb);
}

static void test_msgpack_c_packer(void **state)
{
    (void)state;
    check_packed(pack_every_type);
    check_packed(pack_request);
}

/* Random bytes: whatever mpscan accepts, msgpack-c parses to the same length. */
static void test_random_bytes_agree(void **state)
{
    uint8_t buf[48];
    uint64_t x = 0x9e3779b97f4a7c15u;
    unsigned accepted = 0;
    ssize_t rc;

    (void)state;
    for (int round = 0; round < 200000; round++) {
        for (size_t i = 0; i < sizeof(buf); i++) {
            test_rng_next(&x);
            /* favour small headers so that many buffers hold whole objects */
            buf[i] = (uint8_t)((x & 3) ? (x >> 8) % 0xa0 : (x >> 8));
        }
        rc = scan_exact(buf, sizeof(buf), 64, 16);
        assert_true(rc == 0 || rc == -E2BIG || rc == -EBADMSG || (rc > 0 && rc <= 48));
        if (rc > 0) {
            accepted++;
            assert_int_equal(msgpack_c_length(buf, sizeof(buf)), rc);
        }
    }
    assert_true(accepted > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type_complete),
        cmocka_unit_test(test_every_type_truncated),
        cmocka_unit_test(test_hostile_headers),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_max_size),
        cmocka_unit_test(test_msgpack_c_packer),
        cmocka_unit_test(test_random_bytes_agree),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
