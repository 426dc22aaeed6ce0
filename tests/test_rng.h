/* test_rng.h -- the tests' one pseudo-random generator (xorshift64).
 *
 * The tests that hold a fast path to its slow reference on random inputs
 * (codec, grid, mpscan, mpsmall, rpc) need inputs that are the same on every
 * run, not good randomness: Marsaglia's xorshift64 is enough.  Each test
 * keeps its own state, so one test's draws do not move another's.  The
 * state must not be 0.  Header-only.
 */
#ifndef SUDOKU_TESTS_TEST_RNG_H
#define SUDOKU_TESTS_TEST_RNG_H

#include <stdint.h>

/* Advance *state and return it. */
static inline uint64_t test_rng_next(uint64_t *state)
{
    uint64_t x = *state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

/* A draw in 0..bound-1 (bound > 0). */
static inline unsigned test_rng_below(uint64_t *state, unsigned bound)
{
    return (unsigned)(test_rng_next(state) % bound);
}

#endif /* SUDOKU_TESTS_TEST_RNG_H */
