/* request.h -- what a solve request may ask of the host, and what its outcome
 * says, in the protocol's codes and words.
 *
 * Shared by the daemon's dispatch and the sudoku tool's offline mode
 * (sudoku --local), so that both refuse the same puzzles with the same
 * messages and report a plugin's result the same way.  Nothing here keeps
 * state; both functions are thread-safe.
 */
#ifndef SUDOKU_CORE_REQUEST_H
#define SUDOKU_CORE_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "core/host.h"
#include "proto/protocol.h"

/* Check a parsed solve request against the rules and the loaded plugins:
 * the givens (grid_check_givens), the solver (solver "" = the default for
 * the size, host_default_for), its
 * sizes and, for limit > 1, its ability to count.  Returns RPC_OK with the
 * plugin in *out, or the code to answer with the reason in msg. */
enum rpc_code request_check(const struct host *h, unsigned n, const uint8_t *cells,
                            const char *solver, uint64_t limit, const struct host_plugin **out,
                            char *msg, size_t msg_size);

/* What host_solve()'s result rc for plugin p on an n x n puzzle means on the
 * wire: RPC_OK for SDK_SOLVED and SDK_UNSOLVABLE (an answer), else the error
 * code with its message in msg.  timeout_ms is the deadline the request had;
 * log_hint names where the host's log lines went ("the daemon log"). */
enum rpc_code request_outcome(int rc, const struct host_plugin *p, unsigned n, uint64_t timeout_ms,
                              const char *log_hint, char *msg, size_t msg_size);

#endif /* SUDOKU_CORE_REQUEST_H */
