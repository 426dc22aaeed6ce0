/* read.c -- the daemon's reader: bytes to struct rpc_request.
 *
 * The one place that knows every method a client may call: the envelope
 * (rpc.c) frames the message and checks its array, then the params go to
 * the decoder of the method they belong to.  Adding a method is a line in
 * decode_params() and its decoder in its own file.  What the params may
 * hold beyond their shape (a solver that exists, givens that keep the
 * rules) is the method layer's to judge.
 */
#include "proto/read.h"

#include <string.h>

static enum rpc_code decode_params(const msgpack_object_array *a, struct rpc_request *req,
                                   char *err, size_t err_size)
{
    switch (req->method) {
    case RPC_M_SOLVE:
        return rpc_decode_solve(a, &req->solve, err, err_size);
    case RPC_M_EXPLAIN:
    case RPC_M_RATE:
        return rpc_decode_explain(a, req, err, err_size);
    case RPC_M_GENERATE:
        return rpc_decode_generate(a, &req->generate, err, err_size);
    case RPC_M_CANCEL:
        return rpc_decode_cancel(a, &req->cancel_msgid, err, err_size);
    case RPC_M_UNKNOWN:
        return rpc_failf(err, err_size, RPC_UNKNOWN_METHOD, "no method named \"%s\"",
                         req->method_name);
    default:
        return rpc_decode_no_params(a, req->method_name, err, err_size);
    }
}

enum rpc_code rpc_decode_explain(const msgpack_object_array *params, struct rpc_request *req,
                                 char *err, size_t err_size)
{
    return rpc_decode_explain_params(params, req->method, &req->solve, &req->explain, err,
                                     err_size);
}

enum rpc_code rpc_decode(const msgpack_object *obj, struct rpc_request *req, char *err,
                         size_t err_size)
{
    struct rpc_envelope env;
    enum rpc_code code = rpc_decode_envelope(obj, &env, err, err_size);

    memset(req, 0, sizeof(*req));
    req->type = env.type;
    req->msgid = env.msgid;
    req->method = env.method;
    memcpy(req->method_name, env.method_name, sizeof(req->method_name));
    if (code == RPC_OK)
        code = decode_params(env.params, req, err, err_size);
    return req->code = code;
}

ssize_t rpc_read(const uint8_t *buf, size_t len, size_t max_size, struct rpc_request *req,
                 char *err, size_t err_size)
{
    struct rpc_frame f;
    ssize_t n = rpc_frame_read(&f, buf, len, max_size, err, err_size);

    if (n > 0 && f.is_unpacked) {
        rpc_decode(&f.obj, req, err, err_size);
    } else if (n > 0) {
        memset(req, 0, sizeof(*req));
        req->code = RPC_BAD_REQUEST; /* the reason is in err */
    }
    rpc_frame_close(&f);
    return n;
}
