/* mpsmall.h -- unpack a small msgpack object without allocating.
 *
 * A request is a handful of objects (a solve: about a dozen), yet
 * msgpack_unpack() needs a zone, that is a malloc and a free per message.
 * mpsmall builds the same msgpack_object tree in a fixed pool the caller
 * keeps on its stack.  It handles only what requests are made of (nil,
 * booleans, integers, str, bin, arrays, maps); for anything else (floats,
 * ext), for a tree larger than the pool, or for an object not complete yet,
 * it declines and the caller falls back to msgpack_unpack().  What it
 * does build equals what msgpack_unpack() builds: same types, sizes, values
 * and order; str and bin point into the input buffer.
 */
#ifndef SUDOKU_MPSMALL_H
#define SUDOKU_MPSMALL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>

#define MPSMALL_OBJECTS 96 /* array elements the pool holds */
#define MPSMALL_PAIRS   16 /* map pairs the pool holds */
#define MPSMALL_DEPTH   32 /* deepest nesting it unpacks */

/* The pool: what the objects of one unpacked tree live in.  Valid while
 * the zone and the input buffer are. */
struct mpsmall_zone {
    msgpack_object objects[MPSMALL_OBJECTS]; /* array elements */
    msgpack_object_kv pairs[MPSMALL_PAIRS];  /* map pairs */
    unsigned objects_used;                   /* taken from objects */
    unsigned pairs_used;                     /* taken from pairs */
};

/* Unpack the object at the start of buf[0..len) into *out, its children
 * in *z (z need not be initialised); containers nested depth_max deep or
 * more are declined (the top level is depth 0; at most MPSMALL_DEPTH).
 * Returns the object's length in bytes, or -1 when mpsmall declines (see
 * above; also when the object is not complete): then *out is unspecified.
 * An object it takes has the length mpscan_object() finds for it and
 * passes that function's depth check for the same depth_max.
 * Thread-safe. */
ssize_t mpsmall_unpack(const uint8_t *buf, size_t len, unsigned depth_max, struct mpsmall_zone *z,
                       msgpack_object *out);

#endif /* SUDOKU_MPSMALL_H */
