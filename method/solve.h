/* solve.h -- the solve method: a puzzle's solution(s) from a plugin.
 *
 * solve_ops (method.h) checks a decoded solve request against the rules
 * and the loaded plugins (the givens, the solver named or the default for
 * the size, its sizes and, for limit > 1, its ability to count), then runs
 * host_solve(), whose answer is checked against the givens and the rules
 * before it counts.  Its work lives in the call itself (puzzle and
 * solution), so that the daemon's stream of solves allocates nothing, and
 * it may run on the daemon's loop (is_prompt) when its plugin declares
 * SDK_CAP_PROMPT and the puzzle is 9x9 or smaller.  The daemon packs the
 * answer with proto/rpc.c's hand-encoded solve map; the sudoku tool's
 * --local reads the same struct rpc_solve_result (solve_result).
 */
#ifndef SUDOKU_METHOD_SOLVE_H
#define SUDOKU_METHOD_SOLVE_H

#include "method/method.h"
#include "proto/read.h"

extern const struct method_ops solve_ops;

/* The answer of a call of solve_ops whose outcome was RPC_OK, borrowed
 * from it until method_end.  solver, elapsed_us and guesses are set
 * whatever the outcome. */
void solve_result(const struct method_call *call, struct rpc_solve_result *out);

#endif /* SUDOKU_METHOD_SOLVE_H */
