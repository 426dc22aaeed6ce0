/* gen_orbit.c -- the cells of a grid in the orbits of a symmetry, in the
 * random order the removal pass visits them.
 *
 * An orbit is blanked or kept as a whole, so the givens keep the asked
 * symmetry: one cell each for none, pairs for rotate180 and the mirrors,
 * up to four for rotate90.  The order is drawn from the removal order's
 * stream.  No state.
 */
#include "core/gen_impl.h"

/* The cells of the orbit of cell under sym, each once, into out.  Returns
 * how many (1..GEN_ORBIT_MAX). */
static unsigned orbit_of(unsigned n, enum gen_symmetry sym, unsigned cell, unsigned *out)
{
    unsigned r = cell / n, c = cell % n, m = n - 1, len = 0, cand[GEN_ORBIT_MAX];
    unsigned cand_len = 1;

    cand[0] = cell;
    switch (sym) {
    case GEN_SYM_ROTATE180:
        cand[cand_len++] = (m - r) * n + (m - c);
        break;
    case GEN_SYM_ROTATE90:
        cand[cand_len++] = c * n + (m - r);
        cand[cand_len++] = (m - r) * n + (m - c);
        cand[cand_len++] = (m - c) * n + r;
        break;
    case GEN_SYM_MIRROR:
        cand[cand_len++] = r * n + (m - c);
        break;
    case GEN_SYM_FLIP:
        cand[cand_len++] = (m - r) * n + c;
        break;
    case GEN_SYM_DIAGONAL:
        cand[cand_len++] = c * n + r;
        break;
    default:
        break;
    }
    for (unsigned i = 0; i < cand_len; i++) {
        unsigned j = 0;

        while (j < len && out[j] != cand[i])
            j++;
        if (j == len)
            out[len++] = cand[i];
    }
    return len;
}

/* Every orbit (listed from its smallest cell), in random order. */
void gen__orbit_list(uint64_t *rng, unsigned n, enum gen_symmetry sym, struct orbits *o)
{
    unsigned reps[SDK_MAX_CELLS], orbit[GEN_ORBIT_MAX], len = 0;

    for (unsigned cell = 0; cell < n * n; cell++) {
        unsigned k = orbit_of(n, sym, cell, orbit), is_rep = 1;

        for (unsigned i = 0; i < k; i++)
            is_rep &= orbit[i] >= cell;
        if (is_rep)
            reps[len++] = cell;
    }
    gen__shuffle(rng, reps, len);
    o->len = len;
    for (unsigned i = 0; i < len; i++) {
        o->cells_len[i] = (uint8_t)orbit_of(n, sym, reps[i], orbit);
        for (unsigned j = 0; j < o->cells_len[i]; j++)
            o->cells[i][j] = (uint16_t)orbit[j];
    }
}
