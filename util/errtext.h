/* errtext.h -- the one way proto/ writes an error message.
 *
 * Error text goes into a buffer the caller supplies (which may be NULL or
 * empty when the caller does not want it), so nothing is allocated on an
 * error path.  Internal to proto/: not part of any installed API.
 */
#ifndef SUDOKU_ERRTEXT_H
#define SUDOKU_ERRTEXT_H

#include <stddef.h>

/* Format the message into err (if err is non-NULL and err_size > 0) and
 * return -EINVAL, so that parsers can write `return errtext_fail(...)`. */
int errtext_fail(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* SUDOKU_ERRTEXT_H */
