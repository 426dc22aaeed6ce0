/* clock.h -- the one monotonic clock of the daemon, the host, the tools and
 * the tests.
 *
 * CLOCK_MONOTONIC in nanoseconds: the same clock as sdk_now_ns() in the
 * plugin ABI (include/sudoku/plugin.h keeps its own copy so that it stays
 * self-contained), so a deadline computed here is the deadline a plugin
 * compares against.  Header-only, so the client library, the daemon and the
 * tests share it without a link dependency.
 */
#ifndef SUDOKU_PROTO_CLOCK_H
#define SUDOKU_PROTO_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds since an arbitrary fixed point; never goes back. */
static inline uint64_t clock_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The same clock in microseconds and in milliseconds. */
static inline uint64_t clock_now_us(void)
{
    return clock_now_ns() / 1000u;
}

static inline uint64_t clock_now_ms(void)
{
    return clock_now_ns() / 1000000u;
}

#endif /* SUDOKU_PROTO_CLOCK_H */
