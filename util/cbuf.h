/* cbuf.h -- a growable byte buffer with a ceiling.
 *
 * The client's read and write buffers, and what the client's end of the
 * wire (proto/) packs requests into.  A buffer is made with its maximum
 * size, so that nothing a peer sends can grow it without bound (curl's
 * dynbuf is the model).  Zero-initialise it with .max set; no other setup.
 * Not thread-safe: a buffer belongs to one connection.
 */
#ifndef SUDOKU_UTIL_CBUF_H
#define SUDOKU_UTIL_CBUF_H

#include <stddef.h>
#include <stdint.h>

struct cbuf {
    uint8_t *data; /* owned, malloc'd */
    size_t len;    /* bytes in use */
    size_t cap;    /* bytes allocated */
    size_t max;    /* cap never exceeds this */
};

/* Make room for extra more bytes.  Returns 0, -ENOMEM or -E2BIG. */
int cbuf_reserve(struct cbuf *b, size_t extra);
/* Append len bytes.  Returns 0, -ENOMEM or -E2BIG. */
int cbuf_append(struct cbuf *b, const void *p, size_t len);
/* Drop the first n bytes, moving the rest to the front. */
void cbuf_consume(struct cbuf *b, size_t n);
/* Free the storage; the struct may be reused after cbuf_reserve. */
void cbuf_free(struct cbuf *b);

#endif /* SUDOKU_UTIL_CBUF_H */
