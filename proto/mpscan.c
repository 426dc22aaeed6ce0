/* mpscan.c -- bound a msgpack object before anyone allocates for it.
 *
 * An iterative walker: it reads one header at a time and keeps, for each
 * open array or map, how many elements are still to come (a map of k pairs
 * counts as 2k elements).  Nothing is allocated and the stack is a fixed
 * array of MPSCAN_MAX_DEPTH counts, so a 1000-deep message costs the same as
 * a flat one: it is refused at depth_max.
 *
 * The size bound is checked as soon as a header is read, not when the bytes
 * arrive: every element still to come takes at least one byte, so
 *
 *     end of this header + its payload + its element count + elements pending
 *
 * is a lower bound on the object's length.  When that exceeds max_size the
 * object is refused at once, so an array32 of 4 billion elements or a str32
 * of 2 GiB is refused from its 5-byte header.
 */
#include "proto/mpscan.h"

#include <errno.h>

enum mp_kind {
    MP_SCALAR, /* header only, or header plus a fixed payload counted in hdr */
    MP_BYTES,  /* str, bin, ext: header then a declared number of bytes */
    MP_ARRAY,  /* declared count elements follow */
    MP_MAP,    /* declared count pairs (2 * count elements) follow */
    MP_INVALID /* 0xc1, never used */
};

/* Shape of the formats 0xc0..0xdf (the rest are fix* formats). */
struct mp_format {
    uint8_t hdr;      /* bytes before the payload, length field and ext type included */
    uint8_t len_size; /* bytes of the big-endian length or count after the tag */
    uint8_t kind;     /* enum mp_kind */
};

static const struct mp_format formats[32] = {
    [0x00] = {1, 0, MP_SCALAR},  /* nil */
    [0x01] = {1, 0, MP_INVALID}, /* never used */
    [0x02] = {1, 0, MP_SCALAR},  /* false */
    [0x03] = {1, 0, MP_SCALAR},  /* true */
    [0x04] = {2, 1, MP_BYTES},   /* bin 8 */
    [0x05] = {3, 2, MP_BYTES},   /* bin 16 */
    [0x06] = {5, 4, MP_BYTES},   /* bin 32 */
    [0x07] = {3, 1, MP_BYTES},   /* ext 8: length, type */
    [0x08] = {4, 2, MP_BYTES},   /* ext 16 */
    [0x09] = {6, 4, MP_BYTES},   /* ext 32 */
    [0x0a] = {5, 0, MP_SCALAR},  /* float 32 */
    [0x0b] = {9, 0, MP_SCALAR},  /* float 64 */
    [0x0c] = {2, 0, MP_SCALAR},  /* uint 8 */
    [0x0d] = {3, 0, MP_SCALAR},  /* uint 16 */
    [0x0e] = {5, 0, MP_SCALAR},  /* uint 32 */
    [0x0f] = {9, 0, MP_SCALAR},  /* uint 64 */
    [0x10] = {2, 0, MP_SCALAR},  /* int 8 */
    [0x11] = {3, 0, MP_SCALAR},  /* int 16 */
    [0x12] = {5, 0, MP_SCALAR},  /* int 32 */
    [0x13] = {9, 0, MP_SCALAR},  /* int 64 */
    [0x14] = {3, 0, MP_SCALAR},  /* fixext 1: type, 1 byte */
    [0x15] = {4, 0, MP_SCALAR},  /* fixext 2 */
    [0x16] = {6, 0, MP_SCALAR},  /* fixext 4 */
    [0x17] = {10, 0, MP_SCALAR}, /* fixext 8 */
    [0x18] = {18, 0, MP_SCALAR}, /* fixext 16 */
    [0x19] = {2, 1, MP_BYTES},   /* str 8 */
    [0x1a] = {3, 2, MP_BYTES},   /* str 16 */
    [0x1b] = {5, 4, MP_BYTES},   /* str 32 */
    [0x1c] = {3, 2, MP_ARRAY},   /* array 16 */
    [0x1d] = {5, 4, MP_ARRAY},   /* array 32 */
    [0x1e] = {3, 2, MP_MAP},     /* map 16 */
    [0x1f] = {5, 4, MP_MAP},     /* map 32 */
};

/* One decoded header. */
struct mp_head {
    uint64_t hdr;      /* header bytes */
    uint64_t payload;  /* bytes after the header (str/bin/ext data) */
    uint64_t elements; /* child elements (arrays and maps) */
    int is_container;
    int is_invalid;
};

/* Shape of the header whose tag is b, without its length field. */
static void head_shape(uint8_t b, struct mp_head *h, unsigned *len_size)
{
    *h = (struct mp_head){.hdr = 1};
    *len_size = 0;
    if (b <= 0x7f || b >= 0xe0)
        return; /* positive and negative fixint */
    if (b <= 0x8f) {
        h->elements = 2u * (b & 0x0fu); /* fixmap */
        h->is_container = 1;
    } else if (b <= 0x9f) {
        h->elements = b & 0x0fu; /* fixarray */
        h->is_container = 1;
    } else if (b <= 0xbf) {
        h->payload = b & 0x1fu; /* fixstr */
    } else {
        const struct mp_format *f = &formats[b - 0xc0];

        h->hdr = f->hdr;
        *len_size = f->len_size;
        h->is_container = f->kind == MP_ARRAY || f->kind == MP_MAP;
        h->is_invalid = f->kind == MP_INVALID;
    }
}

/* Fill in the declared size of a str/bin/ext or array/map header at p,
 * whose big-endian length field of len_size bytes follows the tag. */
static void head_sizes(const uint8_t *p, unsigned len_size, struct mp_head *h)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < len_size; i++)
        v = (v << 8) | p[1 + i];
    if (!h->is_container)
        h->payload = v;
    else if (p[0] >= 0xde)
        h->elements = 2 * v; /* map 16/32: keys and values */
    else
        h->elements = v;
}

ssize_t mpscan_object(const uint8_t *buf, size_t len, size_t max_size, unsigned depth_max)
{
    uint64_t remaining[MPSCAN_MAX_DEPTH] = {0};
    uint64_t pos = 0, pending = 0;
    unsigned depth = 0, len_size;
    struct mp_head h;
    int started = 0;

    if (depth_max > MPSCAN_MAX_DEPTH)
        depth_max = MPSCAN_MAX_DEPTH;
    for (;;) {
        while (depth > 0 && remaining[depth - 1] == 0)
            depth--;
        if (depth == 0 && started)
            return (ssize_t)pos;
        started = 1;
        if (depth > 0) {
            remaining[depth - 1]--;
            pending--;
        }
        /* This element and every pending one take at least a byte each. */
        if (pos + 1 + pending > max_size)
            return -E2BIG;
        if (pos >= len)
            return 0;
        head_shape(buf[pos], &h, &len_size);
        if (h.is_invalid)
            return -EBADMSG;
        if (pos + h.hdr + pending > max_size)
            return -E2BIG;
        if (pos + h.hdr > len)
            return 0;
        if (len_size > 0)
            head_sizes(buf + pos, len_size, &h);
        if (h.payload > max_size || h.elements > max_size ||
            pos + h.hdr + h.payload + h.elements + pending > max_size)
            return -E2BIG;
        if (h.is_container) {
            if (depth >= depth_max)
                return -EBADMSG;
            if (h.elements > 0) {
                remaining[depth++] = h.elements;
                pending += h.elements;
            }
        }
        pos += h.hdr + h.payload;
        if (pos > len)
            return 0;
    }
}
