/* request.h -- what a solve request may ask of the host, and what its outcome
 * says, in the protocol's codes and words.
 *
 * Shared by the daemon's dispatch and the sudoku tool's offline mode
 * (sudoku --local), so that both refuse the same puzzles with the same
 * messages and report a plugin's result the same way; explain and rate
 * requests too (request_explainer, request_counter and
 * request_explain_outcome).  Nothing here keeps
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

/* The explaining plugin of an explain or rate request on side n: the one
 * named solver, or (solver NULL or "") the first loaded that explains n
 * (host_explainer_for).  Returns RPC_OK with it in *out, or the code to
 * answer with the reason in msg. */
enum rpc_code request_explainer(const struct host *h, const char *solver, unsigned n,
                                const struct host_plugin **out, char *msg, size_t msg_size);

/* A player's progress for an explain request on the n x n puzzle cells:
 * it must have side n (progress_n) and keep every given.  Entries that
 * disagree with the solution are host_explain's to find (-EBADMSG).
 * Returns RPC_OK, or RPC_BAD_REQUEST with the reason in msg. */
enum rpc_code request_check_progress(unsigned n, const uint8_t *cells, unsigned progress_n,
                                     const uint8_t *progress, char *msg, size_t msg_size);

/* The plugin that finds the unique solution an explanation is checked on:
 * the default for side n when it can count, else the first loaded plugin
 * that counts and takes n; NULL when none does. */
const struct host_plugin *request_counter(const struct host *h, unsigned n);

/* What host_explain()'s result rc and job x's status mean on the wire for
 * explaining plugin p: RPC_OK for an answer (solved, partial or stuck; and
 * for -EBADMSG, a progress that disagrees with the solution, whose
 * mistakes the caller names), else the error code with its message in msg.
 * timeout_ms and log_hint as for request_outcome. */
enum rpc_code request_explain_outcome(int rc, const struct sdk_explain *x,
                                      const struct host_plugin *p, uint64_t timeout_ms,
                                      const char *log_hint, char *msg, size_t msg_size);

#endif /* SUDOKU_CORE_REQUEST_H */
