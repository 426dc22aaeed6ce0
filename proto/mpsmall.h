/* mpsmall.h -- unpack a small msgpack object without allocating.
 *
 * A request is a handful of objects (a solve: about a dozen), yet
 * msgpack_unpack() needs a zone, that is a malloc and a free per message.
 * mpsmall builds the same msgpack_object tree in a fixed pool the caller
 * keeps on its stack.  It handles only what requests are made of (nil,
 * booleans, integers, str, bin, arrays, maps); for anything else (floats,
 * ext), for a tree larger than the pool, or for bytes that are not one whole
 * object, it declines and the caller falls back to msgpack_unpack().  What it
 * does build equals what msgpack_unpack() builds: same types, sizes, values
 * and order; str and bin point into the input buffer.
 */
#ifndef SUDOKU_MPSMALL_H
#define SUDOKU_MPSMALL_H

#include <stddef.h>
#include <stdint.h>

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

/* Unpack the single object that is exactly buf[0..len) into *out, its
 * children in *z (z need not be initialised).  Returns 0, or -1 when
 * mpsmall declines (see above): then *out is unspecified.  Thread-safe. */
int mpsmall_unpack(const uint8_t *buf, size_t len, struct mpsmall_zone *z, msgpack_object *out);

#endif /* SUDOKU_MPSMALL_H */
