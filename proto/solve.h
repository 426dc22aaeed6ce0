/* solve.h -- the solve message, both ends: [puzzle, options] and its answer.
 *
 * The client (wire_*) packs a solve request in the line form or as an array
 * of cells and decodes the answer into a struct sudoku_client_result; the
 * daemon (rpc_*) decodes the request into a struct rpc_solve_params and
 * packs the answer map.  The puzzle and the options that every later
 * method shares with solve (solver, timeout_ms) are decoded here for them
 * too.  docs/protocol.md is the contract; the names are protocol.h's.
 */
#ifndef SUDOKU_PROTO_SOLVE_H
#define SUDOKU_PROTO_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>
#include <sudoku/client.h>
#include <sudoku/plugin.h>

#include "proto/protocol.h"
#include "proto/rpc.h"
#include "proto/rules.h"
#include "util/cbuf.h"

#define RPC_SOLVER_SIZE 32 /* a solver name is at most 31 bytes */

/* How the puzzle came in, so the solution goes out the same way. */
enum rpc_form {
    RPC_FORM_STRING = 0, /* string, letters upper case */
    RPC_FORM_LOWER,      /* string that used lower-case letters */
    RPC_FORM_ARRAY       /* array of integers */
};

/* A validated solve request. */
struct rpc_solve_params {
    unsigned n;                   /* side: 4, 9, 16 or 25 */
    uint8_t cells[SDK_MAX_CELLS]; /* n*n cells, 0 = blank */
    enum rpc_form form;           /* form of the puzzle */
    char solver[RPC_SOLVER_SIZE]; /* requested solver, "" = default */
    uint64_t limit;               /* >= 1 */
    uint64_t timeout_ms;          /* 0 = the daemon's default */
    struct rpc_rules rules;       /* the rules option; all zero: classic */
};

/* What a finished solve sends back. */
struct rpc_solve_result {
    int solved;              /* 1 "solved", 0 "unsolvable" */
    unsigned n;              /* side */
    enum rpc_form form;      /* form of the answer */
    const uint8_t *solution; /* n*n cells, or NULL when unsolvable */
    uint64_t count;          /* solutions found */
    const char *solver;      /* plugin name */
    uint64_t elapsed_us;     /* solve time */
    uint64_t guesses;        /* plugin's work count */
};

/* ------------------------------------------------------ the daemon's end */

/* The params of a solve, [puzzle] or [puzzle, options], into *s (limit 1
 * unless given).  Options are judged first: a bad option is a bad request
 * whatever the puzzle.  Returns RPC_OK or the code, the reason in err. */
enum rpc_code rpc_decode_solve(const msgpack_object_array *params, struct rpc_solve_params *s,
                               char *err, size_t err_size);

/* Decode a puzzle (str, bin or array, as solve takes it) into s's n, cells
 * and form.  Returns RPC_OK or the code, the reason in err. */
enum rpc_code rpc_decode_puzzle(const msgpack_object *o, struct rpc_solve_params *s, char *err,
                                size_t err_size);

/* Decode the options solve shares with the later methods (solver,
 * timeout_ms, rules, and limit when takes_limit) from map or nil o into s;
 * other keys are left alone (method "generate" lets rules draw regions
 * and cages: proto/rules.h).  method names the request in messages. */
enum rpc_code rpc_decode_options(const msgpack_object *o, const char *method, int takes_limit,
                                 struct rpc_solve_params *s, char *err, size_t err_size);

/* An integer option in lo..hi into *out; a bad_request naming the key
 * (name) otherwise, the reason in err.  For the later methods' options. */
enum rpc_code rpc_decode_uint_option(const msgpack_object *v, const char *name, uint64_t lo,
                                     uint64_t hi, uint64_t *out, char *err, size_t err_size);

/* An rpc_result_fn: the solve result map, arg a const struct rpc_solve_result *.
 * Encoded by hand into one write (the daemon sends it by the hundred
 * thousand a second), byte for byte what msgpack-c's packer would write. */
int rpc_pack_solve_map(msgpack_packer *pk, const void *arg);

/* [1, msgid, nil, {status, solution, count, solver, elapsed_us, guesses}];
 * returns as rpc_pack_answer. */
int rpc_pack_solve_result(msgpack_sbuffer *sb, uint32_t msgid, const struct rpc_solve_result *r);

/* ------------------------------------------------------ the client's end */

/* Append [0, msgid, m, [puzzle] or [puzzle, options]], as solve, explain
 * and rate are sent: the puzzle in the line form (cells NULL: len bytes of
 * puzzle) or as n*n cells (n 1..25, else -EINVAL); the options map when
 * opts has any.  Returns 0 or a negative errno (nothing appended). */
int wire_pack_puzzle_call(struct cbuf *b, uint32_t msgid, enum rpc_method m, const char *puzzle,
                          size_t len, unsigned n, const uint8_t *cells,
                          const struct wire_opts *opts);
/* The same with the options of a struct sudoku_client_options (o may be
 * NULL): solver, timeout_ms, and limit when m is solve (a rating batch
 * sends rate requests with it), and the rules map when rules (may be NULL)
 * asks for any (-EINVAL when wire_rules_check refuses them). */
int wire_pack_solve_or_rate(struct cbuf *b, uint32_t msgid, enum rpc_method m, const char *puzzle,
                            size_t len, unsigned n, const uint8_t *cells,
                            const struct sudoku_client_options *o,
                            const struct sudoku_client_rules *rules);
/* Append a solve request with a line-form puzzle and the set options (o
 * may be NULL).  Returns 0 or a negative errno (nothing appended). */
int wire_pack_solve_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                        const struct sudoku_client_options *o);
/* Append a solve request with an array-form puzzle of n*n cells. */
int wire_pack_solve_cells(struct cbuf *b, uint32_t msgid, unsigned n, const uint8_t *cells,
                          const struct sudoku_client_options *o);
/* Fill res from a solve response's error and result.  Returns 0 (res->status
 * set) or -EPROTO (res->error is a "protocol" error). */
int wire_decode_solve(const msgpack_object *error, const msgpack_object *result,
                      struct sudoku_client_result *res);

#endif /* SUDOKU_PROTO_SOLVE_H */
