/* method.c -- the table of methods and the steps every driver takes
 * (method.h).
 *
 * The table is the one place that knows which methods do work; a new
 * method is a file of its own in method/ and a line here.
 */
#include "method/method.h"

#include <stdio.h>

#include "method/explain.h"
#include "method/generate.h"
#include "method/rate.h"
#include "method/solve.h"
#include "util/clock.h"

const struct method_ops *method_of(enum rpc_method m)
{
    switch (m) {
    case RPC_M_SOLVE:
        return &solve_ops;
    case RPC_M_EXPLAIN:
        return &explain_ops;
    case RPC_M_RATE:
        return &rate_ops;
    case RPC_M_GENERATE:
        return &generate_ops;
    default:
        return NULL;
    }
}

/* The response array around a map, or an error response with its message. */
#define METHOD_ENVELOPE_SIZE (RPC_ERR_SIZE + 64)

size_t method_answer_size(const struct rpc_request *req)
{
    const struct method_ops *ops = method_of(req->method);

    return METHOD_ENVELOPE_SIZE + (ops && ops->answer_size ? ops->answer_size(req) : 0);
}

enum rpc_code method_start(struct method_call *call, const struct method_env *env,
                           const struct rpc_request *req, char *msg, size_t msg_size)
{
    const struct method_ops *ops = method_of(req->method);
    enum rpc_code code;

    call->ops = NULL;
    call->env = env;
    call->plugin = NULL;
    call->timeout_ms = 0;
    call->elapsed_us = 0;
    if (!ops) { /* a driver's mistake: answered as the wire would */
        snprintf(msg, msg_size, "no method named \"%s\"", proto_method_name(req->method));
        return RPC_UNKNOWN_METHOD;
    }
    call->ops = ops;
    code = ops->validate(call, req, msg, msg_size);
    if (code != RPC_OK)
        call->ops = NULL; /* nothing kept: method_end has nothing to do */
    return code;
}

uint64_t method_run(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns)
{
    uint64_t t0 = clock_now_ns(), took;

    call->ops->run(call, cancel, deadline_ns);
    took = (clock_now_ns() - t0) / 1000u;
    call->elapsed_us += took;
    return took;
}

void method_end(struct method_call *call)
{
    if (call->ops && call->ops->destroy)
        call->ops->destroy(call);
    call->ops = NULL;
}

enum rpc_code method_find_solver(const struct host *h, const char *name, unsigned n,
                                 const struct host_plugin **out, char *msg, size_t msg_size)
{
    const struct host_plugin *p = name[0] ? host_find(h, name) : host_default_for(h, (int)n);

    if (!p) {
        snprintf(msg, msg_size, "no solver named \"%s\" (the solvers method lists them)", name);
        return RPC_UNKNOWN_SOLVER;
    }
    if (!(p->desc->sizes & sdk_size_bit(n))) {
        snprintf(msg, msg_size, "solver %s cannot take %ux%u puzzles", p->desc->name, n, n);
        return RPC_UNSUPPORTED;
    }
    *out = p;
    return RPC_OK;
}
