/* mpput.h -- msgpack bytes by hand, exactly as msgpack-c's packer writes them.
 *
 * For the few messages sent so often that a dozen packer calls of a few
 * bytes each show in a profile (the solve answer, the head of every
 * response): their bytes are put into a buffer on the stack and handed to
 * the packer's writer in one call.  Every encoding is the smallest one, as
 * msgpack_pack_uint64 and msgpack_pack_str choose it; tests/test_rpc.c
 * checks the bytes against msgpack-c.  The caller sizes the buffer: no
 * function here checks room.
 */
#ifndef SUDOKU_PROTO_MPPUT_H
#define SUDOKU_PROTO_MPPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* v as k big-endian bytes; returns the byte after them. */
static inline uint8_t *mpput_be(uint8_t *p, uint64_t v, unsigned k)
{
    for (unsigned i = k; i > 0; i--)
        *p++ = (uint8_t)(v >> (8 * (i - 1)));
    return p;
}

/* msgpack_pack_uint64's encoding of v (1 to 9 bytes). */
static inline uint8_t *mpput_uint(uint8_t *p, uint64_t v)
{
    if (v < 128) {
        *p++ = (uint8_t)v;
        return p;
    }
    if (v < 256) {
        *p++ = 0xcc;
        return mpput_be(p, v, 1);
    }
    if (v < 65536) {
        *p++ = 0xcd;
        return mpput_be(p, v, 2);
    }
    if (v <= UINT32_MAX) {
        *p++ = 0xce;
        return mpput_be(p, v, 4);
    }
    *p++ = 0xcf;
    return mpput_be(p, v, 8);
}

/* msgpack_pack_str's header for len bytes (len < 65536). */
static inline uint8_t *mpput_str_head(uint8_t *p, size_t len)
{
    if (len < 32) {
        *p++ = (uint8_t)(0xa0 | len);
        return p;
    }
    if (len < 256) {
        *p++ = 0xd9;
        return mpput_be(p, len, 1);
    }
    *p++ = 0xda;
    return mpput_be(p, len, 2);
}

/* A str of len bytes (len < 65536): header and body. */
static inline uint8_t *mpput_str(uint8_t *p, const char *s, size_t len)
{
    p = mpput_str_head(p, len);
    memcpy(p, s, len);
    return p + len;
}

#endif /* SUDOKU_PROTO_MPPUT_H */
