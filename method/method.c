/* method.c -- the table of methods and the steps every driver takes
 * (method.h).
 *
 * The table is the one place that knows which methods do work; a new
 * method is a file of its own in method/ and a line here.
 */
#include "method/method.h"

#include <errno.h>
#include <stdio.h>

#include "core/rules.h"
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

enum rpc_code method_crash_error(int rc, const char *name, char *msg, size_t msg_size)
{
    if (rc == -ECHILD) {
        snprintf(msg, msg_size, "plugin %s crashed", name);
        return RPC_INTERNAL;
    }
    if (rc == -ENOTRECOVERABLE) {
        snprintf(msg, msg_size, "plugin %s disabled after %d crashes; reload to retry", name,
                 HOST_CRASH_LIMIT);
        return RPC_UNSUPPORTED;
    }
    return RPC_OK;
}

void method_rules_desc(const struct rpc_rules *wire, unsigned n, struct rules_desc *d,
                       struct rules_desc_cage *cages, uint64_t *cells)
{
    uint32_t off = 0;

    for (uint32_t i = 0; i < wire->cages_len; i++) {
        cages[i] = (struct rules_desc_cage){wire->sum[i], off, wire->len[i]};
        off += wire->len[i];
    }
    for (uint32_t i = 0; i < wire->cells_len; i++)
        cells[i] = wire->cells[i];
    *d = (struct rules_desc){
        .n = n,
        .flags = wire->kinds & RULES_FLAGS_BOOL,
        .regions = (wire->kinds & SDK_RULE_REGIONS) ? wire->regions : NULL,
        .regions_len = wire->regions_len,
        .cages = cages,
        .cages_len = wire->cages_len,
        .cage_cells = cells,
        .cage_cells_len = wire->cells_len,
    };
}

enum rpc_code method_rules(const struct rpc_rules *wire, unsigned n, struct rules **out, char *msg,
                           size_t msg_size)
{
    struct rules_desc_cage cages[SDK_MAX_CELLS];
    uint64_t cells[SDK_MAX_CELLS];
    struct rules_desc d;
    int rc;

    method_rules_desc(wire, n, &d, cages, cells);
    rc = rules_new(&d, out, msg, msg_size);
    if (rc == -ENOMEM) {
        snprintf(msg, msg_size, "out of memory building the rules");
        return RPC_INTERNAL;
    }
    return rc < 0 ? RPC_BAD_REQUEST : RPC_OK;
}

int method_plugin_takes(const struct host_plugin *p, unsigned n, uint32_t kinds, int counts)
{
    return (p->desc->sizes & sdk_size_bit(n)) && (sdk_plugin_rules(p->desc, 0) & kinds) == kinds &&
           (!counts || (p->desc->caps & SDK_CAP_COUNT));
}

/* The name of the first rule of kinds that p does not take. */
static const char *first_missing(const struct host_plugin *p, uint32_t kinds)
{
    uint32_t missing = kinds & ~sdk_plugin_rules(p->desc, 0);

    return rules_kind_name(missing & -missing);
}

/* The first rule of kinds no loaded plugin of side n takes, or the first
 * of kinds when each is taken by some plugin (only not all by one). */
static const char *rule_nobody_takes(const struct host *h, unsigned n, uint32_t kinds)
{
    for (uint32_t k = 1; k & SDK_RULE_ALL; k <<= 1) {
        int taken = 0;

        if (!(kinds & k))
            continue;
        for (size_t i = 0; i < host_count(h) && !taken; i++)
            taken = method_plugin_takes(host_plugin_at(h, i), n, k, 0);
        if (!taken)
            return rules_kind_name(k);
    }
    return rules_kind_name(kinds & -kinds);
}

enum rpc_code method_find_rules_solver(const struct host *h, const char *name, unsigned n,
                                       uint32_t kinds, int counts, const struct host_plugin **out,
                                       char *msg, size_t msg_size)
{
    const struct host_plugin *p;

    if (kinds == 0 || name[0]) {
        enum rpc_code code = method_find_solver(h, name, n, out, msg, msg_size);

        if (code != RPC_OK || method_plugin_takes(*out, n, kinds, 0))
            return code;
        snprintf(msg, msg_size, "solver %s does not take the rule %s", (*out)->desc->name,
                 first_missing(*out, kinds));
        return RPC_UNSUPPORTED;
    }
    p = host_default_for(h, (int)n);
    for (size_t i = 0; (!p || !method_plugin_takes(p, n, kinds, counts)) && i < host_count(h); i++)
        p = host_plugin_at(h, i);
    if (p && method_plugin_takes(p, n, kinds, counts)) {
        *out = p;
        return RPC_OK;
    }
    snprintf(msg, msg_size, "no loaded solver takes the rule %s for %ux%u puzzles%s",
             rule_nobody_takes(h, n, kinds), n, n, counts ? " and counts solutions" : "");
    return RPC_UNSUPPORTED;
}
