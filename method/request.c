/* request.c -- the checks and outcome words of a request (request.h). */
#include "method/request.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "core/grid.h"

enum rpc_code request_check(const struct host *h, unsigned n, const uint8_t *cells,
                            const char *solver, uint64_t limit, const struct host_plugin **out,
                            char *msg, size_t msg_size)
{
    const struct host_plugin *plugin;

    if (grid_check_givens(n, cells, msg, msg_size) < 0)
        return RPC_BAD_PUZZLE;
    plugin = solver[0] ? host_find(h, solver) : host_default_for(h, (int)n);
    if (!plugin) {
        snprintf(msg, msg_size, "no solver named \"%s\" (the solvers method lists them)", solver);
        return RPC_UNKNOWN_SOLVER;
    }
    if (!(plugin->desc->sizes & sdk_size_bit(n))) {
        snprintf(msg, msg_size, "solver %s cannot take %ux%u puzzles", plugin->desc->name, n, n);
        return RPC_UNSUPPORTED;
    }
    if (limit > 1 && !(plugin->desc->caps & SDK_CAP_COUNT)) {
        snprintf(msg, msg_size, "solver %s cannot count solutions (limit > 1)", plugin->desc->name);
        return RPC_UNSUPPORTED;
    }
    *out = plugin;
    return RPC_OK;
}

enum rpc_code request_outcome(int rc, const struct host_plugin *p, unsigned n, uint64_t timeout_ms,
                              const char *log_hint, char *msg, size_t msg_size)
{
    const char *name = p->desc->name;

    switch (rc) {
    case SDK_SOLVED:
    case SDK_UNSOLVABLE:
        return RPC_OK;
    case SDK_TIMEDOUT:
        snprintf(msg, msg_size, "no answer from %s within %" PRIu64 " ms", name, timeout_ms);
        return RPC_TIMEOUT;
    case SDK_CANCELLED:
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    case -ENOTSUP:
        snprintf(msg, msg_size, "solver %s cannot take %ux%u puzzles", name, n, n);
        return RPC_UNSUPPORTED;
    default: /* the host already logged what the plugin did wrong */
        snprintf(msg, msg_size, "solver %s failed or gave a wrong answer (see %s)", name, log_hint);
        return RPC_INTERNAL;
    }
}
