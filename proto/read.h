/* read.h -- the daemon's reader: one message from bytes to a validated request.
 *
 * rpc_read() is what the daemon's connection code runs on every message it
 * receives, and the request-decoder fuzz target runs it too.  It puts the
 * pieces of proto/ together: the envelope frames the bytes and checks the
 * array (proto/rpc.h), and each method's own file decodes its params
 * (proto/solve.h, explain.h, generate.h, admin.h) into one fixed-size
 * struct rpc_request, so that nothing points into msgpack memory once it
 * returns.  This header brings in every message's header: a daemon file
 * needs no other of proto/'s wire headers.
 *
 * Nothing here keeps state: every function is thread-safe.
 */
#ifndef SUDOKU_PROTO_READ_H
#define SUDOKU_PROTO_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>

#include "proto/admin.h"
#include "proto/explain.h"
#include "proto/generate.h"
#include "proto/protocol.h"
#include "proto/rpc.h"
#include "proto/solve.h"

/* One decoded message.  When code != RPC_OK the message was not valid and
 * must be answered with that error (requests) or ignored (notifications). */
struct rpc_request {
    int type;                            /* RPC_MSG_REQUEST or RPC_MSG_NOTIFY */
    uint32_t msgid;                      /* requests: the id, 0 when unreadable */
    enum rpc_method method;              /* what was asked */
    char method_name[RPC_NAME_SIZE];     /* the name as sent (truncated), for logs */
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
 *        cannot be resynchronised and must be closed;
 *   -ENOMEM.
 * max_size bounds the message in bytes.  No allocation happens before the
 * object was bounded by mpscan_object() (rpc_frame_read). */
ssize_t rpc_read(const uint8_t *buf, size_t len, size_t max_size, struct rpc_request *req,
                 char *err, size_t err_size);

/* Validate an unpacked object.  Fills *req and returns req->code; the reason
 * for an error goes into err. */
enum rpc_code rpc_decode(const msgpack_object *obj, struct rpc_request *req, char *err,
                         size_t err_size);

/* The params of an explain or a rate into req->solve and req->explain
 * (rpc_decode_explain_params with req->method).  Returns req->code's value,
 * the reason in err. */
enum rpc_code rpc_decode_explain(const msgpack_object_array *params, struct rpc_request *req,
                                 char *err, size_t err_size);

#endif /* SUDOKU_PROTO_READ_H */
