/* explain.h -- the explain and rate messages, both ends.
 *
 * Both take solve's [puzzle] or [puzzle, options] (proto/solve.h: the
 * puzzle, solver and timeout_ms); explain adds steps, progress,
 * candidates (the player's pencil marks, in either of their two forms) and
 * level (how much of each step the answer gives).  The
 * client (wire_*) packs the requests and decodes the answers into the
 * library's structs, checking every cell and value; the daemon (rpc_*)
 * decodes the requests.  Their answers are packed by the method layer
 * (method/explained.c), which knows what an explanation holds.
 */
#ifndef SUDOKU_PROTO_EXPLAIN_H
#define SUDOKU_PROTO_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>
#include <sudoku/client.h>
#include <sudoku/plugin.h>

#include "proto/protocol.h"
#include "proto/rpc.h"
#include "proto/solve.h"
#include "util/cbuf.h"

/* The rest of a validated explain or rate request; the puzzle and the
 * options they share with solve (solver, timeout_ms) are in the request's
 * solve params (limit unused). */
struct rpc_explain_params {
    uint32_t max_steps;              /* explain: stop after this many steps; 0 = until solved */
    int has_progress;                /* explain: progress holds the player's grid */
    unsigned progress_n;             /* its side: the caller checks it against the puzzle's */
    int has_candidates;              /* explain: candidates holds the player's pencil marks */
    uint32_t level;                  /* explain: how much of each step, 1..4; 0 = not given (4) */
    uint8_t progress[SDK_MAX_CELLS]; /* progress_n^2 cells, 0 = blank */
    /* The pencil marks, n*n cells of the puzzle's side (checked against it
     * here): bit d-1 set when digit d is marked. */
    uint32_t candidates[SDK_MAX_CELLS];
};

/* ------------------------------------------------------ the daemon's end */

/* The params of an explain or a rate (method says which: only explain
 * reads steps, progress, candidates and level) into *s (puzzle, solver,
 * timeout_ms; limit 1) and *e.  Candidates are checked against the
 * puzzle's side; a malformed one is a bad_request naming the cell.
 * Returns RPC_OK or the code, the reason in err. */
enum rpc_code rpc_decode_explain_params(const msgpack_object_array *params, enum rpc_method method,
                                        struct rpc_solve_params *s, struct rpc_explain_params *e,
                                        char *err, size_t err_size);

/* The string form of the candidates option for side n (size bytes of s:
 * per cell its n digits in order, '.' or '0' for a removed one) into
 * marks[0 .. n*n) (bit d-1 when d is marked); sudoku --local reads the
 * tool's --candidates with it.  Returns RPC_OK or RPC_BAD_REQUEST, the
 * reason (naming the cell) in err. */
enum rpc_code rpc_decode_marks_str(const char *s, size_t size, unsigned n, uint32_t *marks,
                                   char *err, size_t err_size);

/* ------------------------------------------------------ the client's end */

/* Append an explain request for a line-form puzzle with the set options
 * (o may be NULL) and rules (NULL: classic).  Returns 0 or a negative
 * errno (nothing appended; -EINVAL: rules wire_rules_check refuses). */
int wire_pack_explain(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                      const struct sudoku_client_explain_opts *o,
                      const struct sudoku_client_rules *rules);

/* Append a rate request for a line-form puzzle; of o (may be NULL) only
 * solver and timeout_ms are sent.  (A rating batch packs its requests with
 * wire_pack_solve_or_rate.)  Returns 0 or a negative errno. */
int wire_pack_rate_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                       const struct sudoku_client_options *o,
                       const struct sudoku_client_rules *rules);

/* Fill res from a rate response.  Returns 0 (res->status set) or -EPROTO
 * (res->error is a "protocol" error). */
int wire_decode_rate(const msgpack_object *error, const msgpack_object *result,
                     struct sudoku_client_rating *res);

/* Decode an explain result for a puzzle of side n, every cell and value
 * checked.  Returns 0 with *out (one allocation: free it with
 * sudoku_client_explanation_free), -EPROTO or -ENOMEM. */
int wire_decode_explain(const msgpack_object *result, unsigned n,
                        struct sudoku_client_explanation **out);

#endif /* SUDOKU_PROTO_EXPLAIN_H */
