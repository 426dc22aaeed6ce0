/* test_mpsmall.c -- the stack unpacker against msgpack-c's own.
 *
 * Random objects are encoded byte by byte with every encoding a format has
 * (a 3 as fixint, uint8..uint64 and int8..int64; short strings as str8 and
 * str16 too), floats, ext and the reserved byte mixed in.  Whatever
 * mpsmall_unpack() accepts must be exactly the tree msgpack_unpack() builds;
 * plain trees that fit the pool must be accepted, with the length and depth
 * verdict mpscan_object() gives; every strict prefix must be declined.  Buffers are copied to
 * heap blocks of exactly their length so that ASan sees any overread.
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
#include "proto/mpsmall.h"
#include "test_rng.h"

#define BUF_MAX 8192

struct out {
    uint8_t b[BUF_MAX];
    size_t len;
    int is_plain; /* only formats mpsmall takes */
    unsigned objects, pairs;
    unsigned depth; /* deepest container level + 1 */
};

static uint64_t rng = 0x2545f4914f6cdd1du;

static unsigned rnd(unsigned bound)
{
    return test_rng_below(&rng, bound);
}

static void put(struct out *o, uint8_t byte)
{
    if (o->len < BUF_MAX)
        o->b[o->len++] = byte;
}

static void put_be(struct out *o, uint64_t v, unsigned k)
{
    for (unsigned i = k; i > 0; i--)
        put(o, (uint8_t)(v >> (8 * (i - 1))));
}

/* An integer in a random one of the encodings that can hold it. */
static void gen_int(struct out *o)
{
    static const int64_t values[] = {0,      1,      3,         127,       128,      255,  256,
                                     65535,  65536,  -1,        -32,       -33,      -128, -129,
                                     -32768, -32769, INT32_MIN, INT32_MAX, INT64_MIN};
    int64_t v = values[rnd(sizeof(values) / sizeof(values[0]))];
    unsigned k = 1u << rnd(4); /* 1, 2, 4, 8 bytes */

    if (v >= 0 && v <= 127 && rnd(2)) {
        put(o, (uint8_t)v);
    } else if (v >= -32 && v < 0 && rnd(2)) {
        put(o, (uint8_t)(int8_t)v);
    } else if (v >= 0 && rnd(2)) { /* uint k */
        if (k < 8 && (uint64_t)v >> (8 * k))
            k = 8;
        put(o, (uint8_t)(0xcc + (k == 1 ? 0 : k == 2 ? 1 : k == 4 ? 2 : 3)));
        put_be(o, (uint64_t)v, k);
    } else { /* int k: a value that fits */
        int fits = k == 8 || (v >= -(INT64_C(1) << (8 * k - 1)) && v < (INT64_C(1) << (8 * k - 1)));
        if (!fits)
            k = 8;
        put(o, (uint8_t)(0xd0 + (k == 1 ? 0 : k == 2 ? 1 : k == 4 ? 2 : 3)));
        put_be(o, (uint64_t)v, k);
    }
}

/* A str or bin of random length, in a random encoding that holds it. */
static void gen_bytes(struct out *o, int is_bin)
{
    unsigned len = rnd(4) == 0 ? rnd(300) : rnd(12), k = 1u << rnd(3);

    if (len > 255 && k == 1)
        k = 2;
    if (!is_bin && len < 32 && rnd(2))
        put(o, (uint8_t)(0xa0 + len));
    else {
        put(o, (uint8_t)((is_bin ? 0xc4 : 0xd9) + (k == 1 ? 0 : k == 2 ? 1 : 2)));
        put_be(o, len, k);
    }
    for (unsigned i = 0; i < len; i++)
        put(o, (uint8_t)("abc.123\0\xff"[rnd(9)]));
}

/* Something mpsmall leaves to msgpack-c: a float, an ext. */
static void gen_other(struct out *o)
{
    unsigned pick = rnd(3);

    o->is_plain = 0;
    if (pick == 0) {
        put(o, 0xca);
        put_be(o, 0x3fc00000u, 4);
    } else if (pick == 1) {
        put(o, 0xcb);
        put_be(o, 0x3ff8000000000000u, 8);
    } else {
        put(o, 0xd4); /* fixext 1 */
        put(o, 1);
        put(o, 42);
    }
}

static void gen(struct out *o, unsigned depth);

/* An array or map of n, in a random encoding that holds it. */
static void gen_container(struct out *o, unsigned depth, int is_map)
{
    unsigned n = rnd(5) == 0 ? rnd(40) : rnd(5), k = rnd(2) ? 2 : 4;

    if (depth + 1 > o->depth)
        o->depth = depth + 1;
    if (n < 16 && rnd(2))
        put(o, (uint8_t)((is_map ? 0x80 : 0x90) + n));
    else {
        put(o, (uint8_t)(is_map ? (k == 2 ? 0xde : 0xdf) : (k == 2 ? 0xdc : 0xdd)));
        put_be(o, n, k);
    }
    if (is_map)
        o->pairs += n;
    else
        o->objects += n;
    for (unsigned i = 0; i < (is_map ? 2 * n : n); i++)
        gen(o, depth + 1);
}

static void gen(struct out *o, unsigned depth)
{
    unsigned pick = rnd(depth < 4 ? 10 : depth < 18 && rnd(8) == 0 ? 10 : 7);

    if (pick == 0) {
        static const uint8_t tags[] = {0xc0, 0xc2, 0xc3, 0xc0,
                                       0xc2, 0xc3, 0xc1}; /* 0xc1: invalid */
        uint8_t tag = tags[rnd(sizeof(tags))];
        if (tag == 0xc1)
            o->is_plain = 0;
        put(o, tag);
    } else if (pick <= 2)
        gen_int(o);
    else if (pick <= 4)
        gen_bytes(o, pick == 4);
    else if (pick == 5 && rnd(8) == 0)
        gen_other(o);
    else if (pick == 5)
        gen_int(o);
    else if (pick == 6)
        gen_bytes(o, 0);
    else
        gen_container(o, depth, pick == 9);
}

/* Deep equality of two unpacked trees. */
static int same(const msgpack_object *a, const msgpack_object *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case MSGPACK_OBJECT_NIL:
        return 1;
    case MSGPACK_OBJECT_BOOLEAN:
        return a->via.boolean == b->via.boolean;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return a->via.u64 == b->via.u64;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return a->via.i64 == b->via.i64;
    case MSGPACK_OBJECT_STR:
        return a->via.str.size == b->via.str.size &&
               (a->via.str.size == 0 || /* msgpack-c may leave ptr NULL then */
                memcmp(a->via.str.ptr, b->via.str.ptr, a->via.str.size) == 0);
    case MSGPACK_OBJECT_BIN:
        return a->via.bin.size == b->via.bin.size &&
               (a->via.bin.size == 0 ||
                memcmp(a->via.bin.ptr, b->via.bin.ptr, a->via.bin.size) == 0);
    case MSGPACK_OBJECT_ARRAY:
        if (a->via.array.size != b->via.array.size)
            return 0;
        for (uint32_t i = 0; i < a->via.array.size; i++)
            if (!same(&a->via.array.ptr[i], &b->via.array.ptr[i]))
                return 0;
        return 1;
    case MSGPACK_OBJECT_MAP:
        if (a->via.map.size != b->via.map.size)
            return 0;
        for (uint32_t i = 0; i < a->via.map.size; i++)
            if (!same(&a->via.map.ptr[i].key, &b->via.map.ptr[i].key) ||
                !same(&a->via.map.ptr[i].val, &b->via.map.ptr[i].val))
                return 0;
        return 1;
    default:
        return 0; /* mpsmall builds no other type */
    }
}

/* mpsmall on len bytes, from a heap copy of exactly that size, with
 * depth_max 16.  What it takes is checked against msgpack_unpack() (the
 * same tree) and mpscan_object() (the same length, the depth check
 * passed).  Returns what mpsmall_unpack() returned. */
static ssize_t small_exact(const uint8_t *buf, size_t len, struct mpsmall_zone *z,
                           msgpack_object *obj)
{
    uint8_t *copy = malloc(len ? len : 1);
    ssize_t rc;

    assert_non_null(copy);
    memcpy(copy, buf, len);
    rc = mpsmall_unpack(copy, len, 16, z, obj);
    /* the tree points into the buffer: compare before it goes */
    if (rc > 0) {
        msgpack_zone zone;
        msgpack_object ref;
        size_t off = 0;
        assert_true((size_t)rc <= len);
        assert_int_equal(mpscan_object(copy, len, len, 16), rc);
        assert_true(msgpack_zone_init(&zone, 2048));
        assert_int_equal(msgpack_unpack((const char *)copy, (size_t)rc, &off, &zone, &ref),
                         MSGPACK_UNPACK_SUCCESS);
        assert_int_equal(off, (size_t)rc);
        assert_true(same(obj, &ref));
        msgpack_zone_destroy(&zone);
    } else {
        assert_int_equal(rc, -1);
    }
    free(copy);
    return rc;
}

static void test_random_objects(void **state)
{
    static struct out o;
    struct mpsmall_zone z;
    msgpack_object obj;
    unsigned accepted = 0, plain_fits = 0;

    (void)state;
    for (unsigned t = 0; t < 20000; t++) {
        memset(&o, 0, sizeof(o));
        o.is_plain = 1;
        gen(&o, 0);
        if (o.len >= BUF_MAX - 1)
            continue;
        ssize_t rc = small_exact(o.b, o.len, &z, &obj);
        int fits = o.objects <= MPSMALL_OBJECTS && o.pairs <= MPSMALL_PAIRS && o.depth <= 16;
        if (o.is_plain && fits) {
            assert_int_equal(rc, o.len); /* what requests are made of is taken */
            plain_fits++;
        }
        accepted += rc > 0;
        /* a byte more: the same object; any strict prefix: not complete */
        o.b[o.len] = 0xc0;
        assert_int_equal(small_exact(o.b, o.len + 1, &z, &obj), rc);
        for (size_t k = 0; k < o.len; k += 1 + o.len / 16)
            assert_int_equal(small_exact(o.b, k, &z, &obj), -1);
    }
    /* both ways were exercised many times */
    assert_true(plain_fits > 5000);
    assert_true(accepted < 20000 - 1000);
}

/* A solve request as the clients send it is taken; 16x16 as an array (256
 * elements) is too big for the pool and declined. */
static void test_requests(void **state)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    struct mpsmall_zone z;
    msgpack_object obj;

    (void)state;
    for (unsigned cells = 81; cells <= 256; cells += 175) {
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, 4);
        msgpack_pack_int(&pk, 0);
        msgpack_pack_uint32(&pk, 7);
        msgpack_pack_str_with_body(&pk, "solve", 5);
        msgpack_pack_array(&pk, 2);
        msgpack_pack_array(&pk, cells);
        for (unsigned i = 0; i < cells; i++)
            msgpack_pack_uint8(&pk, (uint8_t)(i % 10));
        msgpack_pack_map(&pk, 1);
        msgpack_pack_str_with_body(&pk, "limit", 5);
        msgpack_pack_uint32(&pk, 2);
        assert_int_equal(small_exact((const uint8_t *)sb.data, sb.size, &z, &obj),
                         cells == 81 ? (ssize_t)sb.size : -1);
        msgpack_sbuffer_destroy(&sb);
    }
}

/* Nesting: k arrays one in another, a nil in the innermost; with
 * depth_max 16, 16 levels are taken and 17 are declined, as mpscan says. */
static void test_depth(void **state)
{
    uint8_t buf[40];
    struct mpsmall_zone z;
    msgpack_object obj;

    (void)state;
    for (unsigned k = 1; k <= 20; k++) {
        memset(buf, 0x91, k); /* fixarray of 1 */
        buf[k] = 0xc0;
        ssize_t want = k <= 16 ? (ssize_t)k + 1 : -1;
        assert_int_equal(small_exact(buf, k + 1, &z, &obj), want);
        assert_int_equal(mpscan_object(buf, k + 1, 1000, 16), k <= 16 ? want : -EBADMSG);
        buf[k - 1] = 0x90; /* the innermost empty: the same verdicts */
        assert_int_equal(small_exact(buf, k, &z, &obj), k <= 16 ? (ssize_t)k : -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_objects),
        cmocka_unit_test(test_requests),
        cmocka_unit_test(test_depth),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
