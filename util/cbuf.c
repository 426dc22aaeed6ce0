/* cbuf.c -- a growable byte buffer with a ceiling (see cbuf.h).
 *
 * Capacity doubles from 4 KiB up to the buffer's max, never past it, so a
 * buffer holds at most max bytes whatever is appended.
 */
#include "util/cbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cbuf_reserve(struct cbuf *b, size_t extra)
{
    if (extra > b->max || b->len > b->max - extra)
        return -E2BIG;
    if (b->len + extra <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra)
        cap *= 2;
    if (cap > b->max)
        cap = b->max;
    uint8_t *p = realloc(b->data, cap);
    if (!p)
        return -ENOMEM;
    b->data = p;
    b->cap = cap;
    return 0;
}

int cbuf_append(struct cbuf *b, const void *p, size_t len)
{
    int rc = cbuf_reserve(b, len);
    if (rc < 0)
        return rc;
    memcpy(b->data + b->len, p, len);
    b->len += len;
    return 0;
}

void cbuf_consume(struct cbuf *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

void cbuf_free(struct cbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
