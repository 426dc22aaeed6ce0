/* gen_rng.c -- the generator's one random stream: splitmix64.
 *
 * Every random choice of a puzzle comes from one 64-bit state started at
 * its seed (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), so a seed makes the same puzzle on any
 * thread.  The number of draws each helper takes is part of what a seed
 * means: changing it changes every puzzle.  No global state.
 */
#include "core/gen_impl.h"

/* splitmix64's output function: a bijection on 64 bits that mixes well. */
uint64_t gen__mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* splitmix64: add the golden gamma, mix. */
static uint64_t rng_next(uint64_t *state)
{
    *state += GEN_GOLDEN;
    return gen__mix64(*state);
}

/* Uniform in [0, bound) by multiply-shift (Lemire 2019) without the
 * rejection step: the bias for bound <= 625 is below 2^-54, far under
 * anything a puzzle could show, and the stream stays one draw a call. */
unsigned gen__rng_below(uint64_t *state, unsigned bound)
{
    return (unsigned)(((unsigned __int128)rng_next(state) * bound) >> 64);
}

/* Fisher-Yates shuffle of a[0..len-1]. */
void gen__shuffle(uint64_t *state, unsigned *a, unsigned len)
{
    for (unsigned i = len; i > 1; i--) {
        unsigned j = gen__rng_below(state, i), t = a[i - 1];

        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* a[i] = i, shuffled. */
void gen__permutation(uint64_t *state, unsigned *a, unsigned len)
{
    for (unsigned i = 0; i < len; i++)
        a[i] = i;
    gen__shuffle(state, a, len);
}

uint64_t gen_batch_seed(uint64_t seed, uint64_t k)
{
    return k == 0 ? seed : gen__mix64(seed ^ gen__mix64(k * GEN_GOLDEN));
}
