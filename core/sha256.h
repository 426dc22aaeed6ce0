/* sha256.h -- SHA-256 (FIPS 180-4), for naming a plugin file by its bytes.
 *
 * The daemon tells the plugins built with it from the others by the
 * SHA-256 of the file it loaded (recorded at build time), never by name.
 * One-shot and streaming forms; no allocation, no state outside the
 * caller's context.  Thread-safe.
 */
#ifndef SUDOKU_SHA256_H
#define SUDOKU_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32 /* bytes of a digest */
#define SHA256_HEX  65 /* bytes of its lowercase hex form with the NUL */

/* A digest in progress. */
struct sha256 {
    uint32_t h[8];     /* chaining state */
    uint64_t len;      /* bytes hashed so far */
    uint8_t block[64]; /* the partial block */
    size_t block_len;  /* bytes in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_SIZE]);

/* Hash the whole file open on fd from offset 0 (pread: the file offset is
 * left alone).  Returns 0 or a negative errno from reading. */
int sha256_fd(int fd, uint8_t out[SHA256_SIZE]);

/* out = the lowercase hex form of d, NUL-terminated. */
void sha256_hex(const uint8_t d[SHA256_SIZE], char out[SHA256_HEX]);

#endif /* SUDOKU_SHA256_H */
