/* generate.c -- unique, minimal, symmetric puzzles from one seed: the
 * generator's public face (generate.h).
 *
 * Three steps, all driven by one splitmix64 stream started at the seed
 * (gen_rng.c), each in a room of its own (gen_impl.h lists them):
 *
 *   1. full grid (gen_grid.c): random diagonal boxes, completed by the
 *      counting plugin, shuffled by permutations that keep a grid valid;
 *   2. orbits (gen_orbit.c): the cells fall into the orbits of the asked
 *      symmetry, listed in random order;
 *   3. removal (gen_dig.c): for each orbit in that order, blank it if the
 *      puzzle with it blank still has exactly one solution; run as group
 *      tests that witnesses (gen_witness.c) keep short.
 *
 * With a band, the band search (gen_band.c) rates each candidate and moves
 * along a chain of seeds until one fits.  Here: the spec and its checks,
 * the symmetry names, and gen_one() and gen_batch() on top of the chain.
 */
#include <errno.h>
#include <string.h>

#include "core/gen_impl.h"

static const char *const sym_names[GEN_SYM_COUNT] = {
    "none", "rotate180", "rotate90", "mirror", "flip", "diagonal",
};

void gen_spec_init(struct gen_spec *spec, const struct host_plugin *counter)
{
    memset(spec, 0, sizeof(*spec));
    spec->n = 9;
    spec->symmetry = GEN_SYM_NONE;
    spec->is_minimal = 1;
    spec->counter = counter;
    spec->max_attempts = GEN_DEFAULT_ATTEMPTS;
    spec->orders = GEN_DEFAULT_ORDERS;
}

const char *gen_symmetry_name(enum gen_symmetry s)
{
    return (unsigned)s < GEN_SYM_COUNT ? sym_names[s] : "?";
}

int gen_symmetry_parse(const char *name, enum gen_symmetry *out)
{
    for (unsigned i = 0; name && out && i < GEN_SYM_COUNT; i++) {
        if (strcmp(name, sym_names[i]) == 0) {
            *out = (enum gen_symmetry)i;
            return 0;
        }
    }
    return -EINVAL;
}

/* Can gen_one() work from spec (generate.h says what it must hold)?
 * Returns 0 or -EINVAL. */
static int check_spec(const struct gen_spec *spec)
{
    if (!spec || !sdk_box_side(spec->n) || (unsigned)spec->symmetry >= GEN_SYM_COUNT)
        return -EINVAL;
    if (!spec->counter || !(spec->counter->desc->caps & SDK_CAP_COUNT) ||
        !(spec->counter->desc->sizes & sdk_size_bit(spec->n)))
        return -EINVAL;
    if ((spec->draw & ~(SDK_RULE_REGIONS | SDK_RULE_CAGES)) ||
        (spec->rules && spec->rules->n != spec->n) ||
        (spec->draw & SDK_RULE_REGIONS && spec->rules && spec->rules->regions) ||
        (spec->draw & SDK_RULE_CAGES && spec->rules && spec->rules->cages_len))
        return -EINVAL;
    if (spec->rate && (!(spec->min_rating <= spec->max_rating) || spec->max_attempts == 0 ||
                       spec->orders > GEN_MAX_ORDERS))
        return -EINVAL;
    return 0;
}

int gen_one(const struct gen_spec *spec, uint64_t seed, struct gen_puzzle *out)
{
    int rc = check_spec(spec);

    if (rc < 0)
        return rc;
    if (!out)
        return -EINVAL;
    memset(out, 0, sizeof(*out)); /* every byte defined: results compare with memcmp */
    /* A variant's grid serves one removal order: its drawn cages are split
     * by the pass, so a grid is not kept for the next. */
    return gen__chain(spec, seed,
                      spec->rate && spec->orders > 1 && !gen__is_variant(spec) ? spec->orders : 1,
                      out);
}

int gen_batch(const struct gen_spec *spec, uint64_t seed, uint64_t first, size_t len,
              struct gen_puzzle *out, size_t *done)
{
    size_t i = 0;
    int rc = check_spec(spec);

    if (done)
        *done = 0;
    if (rc < 0 || (len && !out))
        return rc < 0 ? rc : -EINVAL;
    for (; i < len; i++) {
        rc = gen_one(spec, gen_batch_seed(seed, first + i), &out[i]);
        if (rc < 0)
            break;
    }
    if (done)
        *done = i;
    return rc;
}
