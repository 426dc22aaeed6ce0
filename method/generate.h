/* generate.h -- the generate method: new puzzles from a decoded request.
 *
 * generate_ops (method.h) makes the puzzles of one request on one thread:
 * the counting plugin (the named one, or the default for the size) proves
 * every puzzle unique, the explaining plugin (when one takes the size)
 * rates it, and puzzle k of a batch comes from gen_batch_seed(seed, k)
 * alone.  So the same options and seed give the same puzzles to the daemon
 * and to the sudoku tool's --local, whatever the load.  The work stops at
 * its deadline with the puzzles finished so far, which the answer then
 * holds (the method's grace gives it the time to send them).
 */
#ifndef SUDOKU_METHOD_GENERATE_H
#define SUDOKU_METHOD_GENERATE_H

#include <stddef.h>

#include "core/generate.h"
#include "method/method.h"

extern const struct method_ops generate_ops;

/* What a generate call made, borrowed from it until method_end. */
struct generated {
    size_t len;           /* made: all asked for, or those done by the deadline */
    int is_rated;         /* 0: no plugin rated them (difficulty "") */
    const char *symmetry; /* of every puzzle's givens */
};

/* The result of a call of generate_ops whose outcome was RPC_OK. */
void generate_result(const struct method_call *call, struct generated *out);

/* Puzzle k (< the result's len, in the batch's order) of that call into
 * *out: n, puzzle, solution, givens, seed and rating (the rest of *out is
 * left as it was). */
void generate_puzzle_at(const struct method_call *call, size_t k, struct gen_puzzle *out);

#endif /* SUDOKU_METHOD_GENERATE_H */
