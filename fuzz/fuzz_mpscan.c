/* fuzz_mpscan.c -- fuzz target for the msgpack bounder (proto/mpscan.c).
 *
 * The first three bytes choose the limits (a byte limit up to 64 KiB and a
 * depth limit up to MPSCAN_MAX_DEPTH); the rest is the stream.  mpscan is the
 * only thing between hostile bytes and msgpack-c's allocator, so whatever it
 * accepts must be exactly one object that msgpack-c unpacks with the same
 * length, within both limits; a shorter prefix of an accepted object must be
 * "incomplete", and a longer buffer must not change the answer.  msgpack-c is
 * only ever called on accepted objects (calling it on the raw input is the
 * very hazard mpscan exists for).
 */
#include <errno.h>
#include <string.h>

#include <msgpack.h>

#include "fuzz/fuzz_check.h"
#include "proto/mpscan.h"

/* Deepest nesting in an unpacked object (a scalar is 0, [] is 1). */
static unsigned depth_of(const msgpack_object *o)
{
    unsigned d = 0;

    if (o->type == MSGPACK_OBJECT_ARRAY) {
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            unsigned e = depth_of(&o->via.array.ptr[i]);
            d = e > d ? e : d;
        }
        return d + 1;
    }
    if (o->type == MSGPACK_OBJECT_MAP) {
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            unsigned k = depth_of(&o->via.map.ptr[i].key);
            unsigned v = depth_of(&o->via.map.ptr[i].val);
            d = k > d ? k : d;
            d = v > d ? v : d;
        }
        return d + 1;
    }
    return 0;
}

static void check_accepted(const uint8_t *buf, size_t len, size_t n, size_t max, unsigned depth)
{
    msgpack_unpacked up;
    size_t off = 0;

    msgpack_unpacked_init(&up);
    msgpack_unpack_return ret = msgpack_unpack_next(&up, (const char *)buf, n, &off);
    FUZZ_CHECK(ret == MSGPACK_UNPACK_SUCCESS);
    FUZZ_CHECK(off == n);
    FUZZ_CHECK(depth_of(&up.data) <= depth);
    msgpack_unpacked_destroy(&up);
    /* The answer depends on the object's bytes only. */
    FUZZ_CHECK(mpscan_object(buf, n, max, depth) == (ssize_t)n);
    FUZZ_CHECK(mpscan_object(buf, n - 1, max, depth) == 0);
    (void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t max = ((size_t)data[0] << 8 | data[1]) + 1;
    unsigned depth = data[2] % (MPSCAN_MAX_DEPTH + 1);
    const uint8_t *buf = data + 3;
    size_t len = size - 3;

    ssize_t n = mpscan_object(buf, len, max, depth);
    FUZZ_CHECK(n == 0 || n == -E2BIG || n == -EBADMSG || n > 0);
    if (n > 0) {
        FUZZ_CHECK((size_t)n <= len);
        FUZZ_CHECK((size_t)n <= max);
        check_accepted(buf, len, (size_t)n, max, depth);
    }
    /* A tighter limit can only refuse more, never accept something new. */
    if (n > 1)
        FUZZ_CHECK(mpscan_object(buf, len, (size_t)n - 1, depth) == -E2BIG);
    return 0;
}
