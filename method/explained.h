/* explained.h -- an explanation as the protocol's answer map.
 *
 * host_explain() gives the plugin's steps, each checked; the answer a
 * person gets also needs what the plugin cannot say: a `reveal` step when
 * logic is stuck (one cell of the solution, so a hint always helps) and a
 * `mistake` step when the player's progress disagrees with the solution
 * (docs/protocol.md, explain).  Both the daemon (daemon/explain.c) and the
 * sudoku tool's offline mode (tool/local.c) pack their answers here, so
 * that the two read the same.  Pure functions of their inputs; thread-safe.
 */
#ifndef SUDOKU_CORE_EXPLAINED_H
#define SUDOKU_CORE_EXPLAINED_H

#include <stdint.h>

#include <msgpack.h>

#include "core/host.h"

/* What an explain or rate request produced, all borrowed. */
struct explained {
    const struct sdk_explain *x; /* host_explain's job after it ran */
    int rc;                      /* its result: 0, or -EBADMSG (the mistakes) */
    const uint8_t *solution;     /* the unique solution, n*n cells (x->n) */
    const uint8_t *progress;     /* the player's grid (x->progress), for -EBADMSG */
    const char *solver;          /* the explaining plugin's name */
    uint64_t elapsed_us;         /* time it took */
};

/* The cell a stuck explanation reveals: the blank cell of grid (n*n) with
 * the fewest values left by its row, column and box (a person's likeliest
 * next cell). */
unsigned explained_reveal_cell(unsigned n, const uint8_t *grid);

/* Pack explain's result map {steps, status, rating, difficulty, hardest,
 * solver, elapsed_us}: the plugin's steps, then the reveal when stuck; for
 * rc -EBADMSG only the mistake step.  Returns 0 or -ENOMEM. */
int explained_pack(msgpack_packer *pk, const struct explained *e);

/* Pack rate's result map {rating, difficulty, hardest, steps, logic,
 * solver, elapsed_us}.  Returns 0 or -ENOMEM. */
int explained_pack_rating(msgpack_packer *pk, const struct explained *e);

#endif /* SUDOKU_CORE_EXPLAINED_H */
