/* rpc.h -- the server side of wire protocol v1: requests in, responses out.
 *
 * docs/protocol.md is the contract; this module turns it into code that both
 * the daemon and the request-decoder fuzz target run.  Reading is split in two
 * steps so that nothing hostile reaches an allocator: rpc_read() first bounds
 * one msgpack object with mpscan_object() and only then unpacks it, and
 * rpc_decode() validates the unpacked object into a fixed-size struct.  The
 * encoders append complete messages to a msgpack_sbuffer.
 *
 * Nothing here keeps state: every function is thread-safe.
 */
#ifndef SUDOKU_RPC_H
#define SUDOKU_RPC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>
#include <sudoku/plugin.h>

#include "proto/protocol.h"

#define RPC_ERR_SIZE     256 /* room for any error message this module writes */
#define RPC_MAX_DEPTH    16  /* nesting accepted on the wire (a request needs 3) */
#define RPC_SOLVER_SIZE  32  /* a solver name is at most 31 bytes */
#define RPC_MSG_REQUEST  0   /* [0, msgid, method, params] */
#define RPC_MSG_RESPONSE 1   /* [1, msgid, error, result] */
#define RPC_MSG_NOTIFY   2   /* [2, method, params] */

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
};

/* The rest of a validated explain or rate request; the puzzle and the
 * options they share with solve (solver, timeout_ms) are in the request's
 * solve params (limit unused). */
struct rpc_explain_params {
    uint32_t max_steps;              /* explain: stop after this many steps; 0 = until solved */
    int has_progress;                /* explain: progress holds the player's grid */
    unsigned progress_n;             /* its side: the caller checks it against the puzzle's */
    uint8_t progress[SDK_MAX_CELLS]; /* progress_n^2 cells, 0 = blank */
};

#define RPC_GENERATE_MAX 1000 /* puzzles one generate request may ask for */
#define RPC_WORD_SIZE    16   /* room for a symmetry or difficulty name */

/* A validated generate request.  The symmetry name is only bounded here
 * (the generator knows the names); the band is checked: difficulty is one
 * of the protocol's names, or min/max ratings form a range. */
struct rpc_generate_params {
    unsigned n;                    /* side: 4, 9, 16 or 25 */
    uint32_t count;                /* 1..RPC_GENERATE_MAX */
    int has_seed;                  /* else the daemon picks one */
    uint64_t seed;                 /* seed of the first puzzle */
    char symmetry[RPC_WORD_SIZE];  /* as sent, "" = absent (none) */
    int is_minimal;                /* default 1 */
    int has_band;                  /* difficulty, min_rating or max_rating given */
    double min_rating, max_rating; /* the band, inclusive */
    char solver[RPC_SOLVER_SIZE];  /* counting plugin, "" = the default */
    uint64_t timeout_ms;           /* 0 = the daemon's default */
};

/* One decoded message.  When code != RPC_OK the message was not valid and
 * must be answered with that error (requests) or ignored (notifications). */
struct rpc_request {
    int type;                            /* RPC_MSG_REQUEST or RPC_MSG_NOTIFY */
    uint32_t msgid;                      /* requests: the id, 0 when unreadable */
    enum rpc_method method;              /* what was asked */
    char method_name[32];                /* the name as sent (truncated), for logs */
    enum rpc_code code;                  /* RPC_OK or the error to answer */
    struct rpc_solve_params solve;       /* RPC_M_SOLVE, and the puzzle of RPC_M_EXPLAIN, _RATE */
    struct rpc_explain_params explain;   /* RPC_M_EXPLAIN, RPC_M_RATE */
    struct rpc_generate_params generate; /* RPC_M_GENERATE */
    uint32_t cancel_msgid;               /* RPC_M_CANCEL only */
};

/* Read one message from buf[0..len).  Returns:
 *   > 0  bytes consumed; *req is filled (req->code says whether it is valid,
 *        with the reason in err);
 *   0    the message is incomplete: read more and call again;
 *   -E2BIG / -EBADMSG  too large / not msgpack (reason in err): the stream
 *        cannot be resynchronised and must be closed.
 * max_size bounds the message in bytes.  No allocation happens before the
 * object was bounded by mpscan_object(). */
ssize_t rpc_read(const uint8_t *buf, size_t len, size_t max_size, struct rpc_request *req,
                 char *err, size_t err_size);

/* Validate an unpacked object.  Fills *req and returns req->code; the reason
 * for an error goes into err. */
enum rpc_code rpc_decode(const msgpack_object *obj, struct rpc_request *req, char *err,
                         size_t err_size);

/* Decode a puzzle (str, bin or array, as solve takes it) into s's n, cells
 * and form.  Returns RPC_OK or the code, the reason in err. */
enum rpc_code rpc_decode_puzzle(const msgpack_object *o, struct rpc_solve_params *s, char *err,
                                size_t err_size);

/* Decode the options solve shares with the later methods (solver,
 * timeout_ms, and limit when takes_limit) from map or nil o into s; other
 * keys are left alone.  method names the request in messages. */
enum rpc_code rpc_decode_options(const msgpack_object *o, const char *method, int takes_limit,
                                 struct rpc_solve_params *s, char *err, size_t err_size);

/* The params of explain, rate and generate (proto/params.c): the methods
 * that came after solve.  Return req->code's value, the reason in err. */
enum rpc_code rpc_decode_explain(const msgpack_object_array *params, struct rpc_request *req,
                                 char *err, size_t err_size);
enum rpc_code rpc_decode_generate(const msgpack_object_array *params, struct rpc_generate_params *g,
                                  char *err, size_t err_size);

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

/* The encoders below append one complete message to sb, or nothing: on
 * failure sb is cut back to its size before the call.  They return 0, or
 * -ENOMEM (nothing appended) unless said otherwise. */

/* [1, msgid, {"code": ..., "message": ...}, nil] */
int rpc_pack_error(msgpack_sbuffer *sb, uint32_t msgid, enum rpc_code code, const char *message);

/* [2, "error", [{"code": ..., "message": ...}]] */
int rpc_pack_error_note(msgpack_sbuffer *sb, enum rpc_code code, const char *message);

/* Packs one result object with pk, arg being what the caller passed along.
 * Returns 0 or a negative errno (a partial object is cut away after). */
typedef int rpc_result_fn(msgpack_packer *pk, const void *arg);

/* [1, msgid, nil, result], fn packing result, through write (NULL for
 * msgpack_sbuffer_write; tests pass one that fails).  Never leaves part of
 * a message: when packing fails sb is cut back and the error response
 * `internal` is packed instead.  Returns 0 (the answer), -ENOMEM (`internal`
 * instead) or -ENOBUFS (nothing appended: not even the error fitted). */
int rpc_pack_answer(msgpack_sbuffer *sb, msgpack_packer_write write, uint32_t msgid,
                    rpc_result_fn *fn, const void *arg);

/* [1, msgid, nil, "pong"]; returns as rpc_pack_answer. */
int rpc_pack_pong(msgpack_sbuffer *sb, uint32_t msgid);

/* An rpc_result_fn: the solve result map, arg a const struct rpc_solve_result *. */
int rpc_pack_solve_map(msgpack_packer *pk, const void *arg);

/* [1, msgid, nil, {status, solution, count, solver, elapsed_us, guesses}];
 * returns as rpc_pack_answer. */
int rpc_pack_solve_result(msgpack_sbuffer *sb, uint32_t msgid, const struct rpc_solve_result *r);

/* Start a success response: packs "[1, msgid, nil," and leaves the result to
 * the caller, who packs exactly one object with pk.  Does not roll back:
 * prefer rpc_pack_answer. */
int rpc_pack_result_head(msgpack_packer *pk, uint32_t msgid);

/* Pack a NUL-terminated string. */
int rpc_pack_cstr(msgpack_packer *pk, const char *s);

#endif /* SUDOKU_RPC_H */
