/* errtext.c -- error messages into caller buffers (see errtext.h). */
#include "util/errtext.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int errtext_fail(char *err, size_t err_size, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}
