/* mpscan.h -- bound a msgpack object before anyone allocates for it.
 *
 * msgpack-c 4 reserves memory from the sizes an object declares, so a 5-byte
 * array32 header can ask for gigabytes.  mpscan walks the bytes of one object
 * without allocating and says whether the whole object is present, how long
 * it is, and whether it stays within a byte limit and a nesting limit.  Only
 * an object that mpscan accepted is handed to msgpack_unpack(); since every
 * element takes at least one byte, its declared sizes are then bounded by the
 * bytes actually received.
 */
#ifndef SUDOKU_MPSCAN_H
#define SUDOKU_MPSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MPSCAN_MAX_DEPTH 32 /* deepest nesting mpscan_object accepts */

/* Scan the msgpack object starting at buf[0], with len bytes available.
 * Returns:
 *   > 0        the object is complete and that many bytes long (<= max_size);
 *   0          the object is not complete yet and, so far, within the limits:
 *              read more bytes and scan again;
 *   -E2BIG     the object is (or would be, from its headers) longer than
 *              max_size bytes, or a str/bin/ext declares more than max_size;
 *   -EBADMSG   not msgpack (the reserved byte 0xc1), or nested deeper than
 *              depth_max (at most MPSCAN_MAX_DEPTH).
 * Never reads past buf[len - 1].  Pure function: thread-safe. */
ssize_t mpscan_object(const uint8_t *buf, size_t len, size_t max_size, unsigned depth_max);

#endif /* SUDOKU_MPSCAN_H */
