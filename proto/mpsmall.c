/* mpsmall.c -- unpack a small msgpack object without allocating.
 *
 * A recursive descent over one object, bounded by MPSMALL_DEPTH, that never
 * reads past its end pointer.  Types follow msgpack-c 4 exactly: every
 * non-negative integer, whatever its encoding (int8..int64 included), is
 * MSGPACK_OBJECT_POSITIVE_INTEGER; only a value below zero is
 * MSGPACK_OBJECT_NEGATIVE_INTEGER.  Formats outside the subset return -1 so
 * that msgpack_unpack() decides about them, never this file.
 */
#include "proto/mpsmall.h"

struct cursor {
    const uint8_t *p;   /* next byte */
    const uint8_t *end; /* one past the last */
    unsigned depth_max; /* containers this deep are declined */
};

/* The next k bytes as a big-endian number, or -1 when fewer are left. */
static int take_be(struct cursor *cur, unsigned k, uint64_t *v)
{
    uint64_t x = 0;

    if ((size_t)(cur->end - cur->p) < k)
        return -1;
    for (unsigned i = 0; i < k; i++)
        x = (x << 8) | cur->p[i];
    cur->p += k;
    *v = x;
    return 0;
}

static void set_int(msgpack_object *o, int64_t v)
{
    if (v >= 0) {
        o->type = MSGPACK_OBJECT_POSITIVE_INTEGER;
        o->via.u64 = (uint64_t)v;
    } else {
        o->type = MSGPACK_OBJECT_NEGATIVE_INTEGER;
        o->via.i64 = v;
    }
}

/* A signed integer of k bytes (1, 2, 4, 8). */
static int take_int(struct cursor *cur, unsigned k, msgpack_object *o)
{
    uint64_t v;

    if (take_be(cur, k, &v) < 0)
        return -1;
    if (k == 1)
        set_int(o, (int8_t)v);
    else if (k == 2)
        set_int(o, (int16_t)v);
    else if (k == 4)
        set_int(o, (int32_t)v);
    else
        set_int(o, (int64_t)v);
    return 0;
}

/* A str or bin body of size bytes. */
static int take_bytes(struct cursor *cur, msgpack_object_type type, uint64_t size,
                      msgpack_object *o)
{
    if ((uint64_t)(cur->end - cur->p) < size)
        return -1;
    o->type = type;
    if (type == MSGPACK_OBJECT_BIN) {
        o->via.bin.size = (uint32_t)size;
        o->via.bin.ptr = (const char *)cur->p;
    } else {
        o->via.str.size = (uint32_t)size;
        o->via.str.ptr = (const char *)cur->p;
    }
    cur->p += size;
    return 0;
}

static int unpack_at(struct cursor *cur, struct mpsmall_zone *z, unsigned depth, msgpack_object *o);

static int take_array(struct cursor *cur, struct mpsmall_zone *z, unsigned depth, uint64_t n,
                      msgpack_object *o)
{
    msgpack_object *kids = z->objects + z->objects_used;

    if (depth >= cur->depth_max || n > MPSMALL_OBJECTS - z->objects_used)
        return -1;
    z->objects_used += (unsigned)n;
    o->type = MSGPACK_OBJECT_ARRAY;
    o->via.array.size = (uint32_t)n;
    o->via.array.ptr = kids;
    for (uint64_t i = 0; i < n; i++)
        if (unpack_at(cur, z, depth + 1, &kids[i]) < 0)
            return -1;
    return 0;
}

static int take_map(struct cursor *cur, struct mpsmall_zone *z, unsigned depth, uint64_t n,
                    msgpack_object *o)
{
    msgpack_object_kv *kv = z->pairs + z->pairs_used;

    if (depth >= cur->depth_max || n > MPSMALL_PAIRS - z->pairs_used)
        return -1;
    z->pairs_used += (unsigned)n;
    o->type = MSGPACK_OBJECT_MAP;
    o->via.map.size = (uint32_t)n;
    o->via.map.ptr = kv;
    for (uint64_t i = 0; i < n; i++)
        if (unpack_at(cur, z, depth + 1, &kv[i].key) < 0 ||
            unpack_at(cur, z, depth + 1, &kv[i].val) < 0)
            return -1;
    return 0;
}

/* The formats 0xc0..0xdf that mpsmall takes; -1 for the others. */
static int unpack_tagged(struct cursor *cur, struct mpsmall_zone *z, unsigned depth, uint8_t tag,
                         msgpack_object *o)
{
    static const uint8_t len_size[4] = {1, 2, 4, 8};
    uint64_t v;

    if (tag == 0xc0 || tag == 0xc2 || tag == 0xc3) {
        o->type = tag == 0xc0 ? MSGPACK_OBJECT_NIL : MSGPACK_OBJECT_BOOLEAN;
        o->via.boolean = tag == 0xc3;
        return 0;
    }
    if (tag >= 0xd0 && tag <= 0xd3) /* int 8..64 */
        return take_int(cur, len_size[tag - 0xd0], o);
    if (tag >= 0xcc && tag <= 0xcf) { /* uint 8..64 */
        if (take_be(cur, len_size[tag - 0xcc], &v) < 0)
            return -1;
        o->type = MSGPACK_OBJECT_POSITIVE_INTEGER;
        o->via.u64 = v;
        return 0;
    }
    if (tag >= 0xc4 && tag <= 0xc6) /* bin 8, 16, 32 */
        return take_be(cur, len_size[tag - 0xc4], &v) < 0
                   ? -1
                   : take_bytes(cur, MSGPACK_OBJECT_BIN, v, o);
    if (tag >= 0xd9 && tag <= 0xdb) /* str 8, 16, 32 */
        return take_be(cur, len_size[tag - 0xd9], &v) < 0
                   ? -1
                   : take_bytes(cur, MSGPACK_OBJECT_STR, v, o);
    if (tag == 0xdc || tag == 0xdd) /* array 16, 32 */
        return take_be(cur, tag == 0xdc ? 2 : 4, &v) < 0 ? -1 : take_array(cur, z, depth, v, o);
    if (tag == 0xde || tag == 0xdf) /* map 16, 32 */
        return take_be(cur, tag == 0xde ? 2 : 4, &v) < 0 ? -1 : take_map(cur, z, depth, v, o);
    return -1; /* 0xc1, float, ext */
}

static int unpack_at(struct cursor *cur, struct mpsmall_zone *z, unsigned depth, msgpack_object *o)
{
    uint8_t tag;

    if (cur->p >= cur->end)
        return -1;
    tag = *cur->p++;
    if (tag <= 0x7f) {
        o->type = MSGPACK_OBJECT_POSITIVE_INTEGER;
        o->via.u64 = tag;
        return 0;
    }
    if (tag >= 0xe0) {
        set_int(o, (int8_t)tag);
        return 0;
    }
    if (tag <= 0x8f)
        return take_map(cur, z, depth, tag & 0x0fu, o);
    if (tag <= 0x9f)
        return take_array(cur, z, depth, tag & 0x0fu, o);
    if (tag <= 0xbf)
        return take_bytes(cur, MSGPACK_OBJECT_STR, tag & 0x1fu, o);
    return unpack_tagged(cur, z, depth, tag, o);
}

ssize_t mpsmall_unpack(const uint8_t *buf, size_t len, unsigned depth_max, struct mpsmall_zone *z,
                       msgpack_object *out)
{
    struct cursor cur = {buf, buf + len, depth_max < MPSMALL_DEPTH ? depth_max : MPSMALL_DEPTH};

    z->objects_used = 0;
    z->pairs_used = 0;
    if (unpack_at(&cur, z, 0, out) < 0)
        return -1;
    return cur.p - buf;
}
