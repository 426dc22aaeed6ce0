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

enum rpc_code request_explainer(const struct host *h, const char *solver, unsigned n,
                                const struct host_plugin **out, char *msg, size_t msg_size)
{
    int named = solver && solver[0];
    const struct host_plugin *p = named ? host_find(h, solver) : host_explainer_for(h, n);

    if (named && !p) {
        snprintf(msg, msg_size, "no solver named \"%s\" (the solvers method lists them)", solver);
        return RPC_UNKNOWN_SOLVER;
    }
    if (!p) {
        snprintf(msg, msg_size, "no loaded solver can explain %ux%u puzzles", n, n);
        return RPC_UNSUPPORTED;
    }
    if (!host_plugin_has_explain(p)) {
        snprintf(msg, msg_size, "solver %s cannot explain (see `explain` in solvers)",
                 p->desc->name);
        return RPC_UNSUPPORTED;
    }
    if (!(p->desc->explain_sizes & sdk_size_bit(n))) {
        snprintf(msg, msg_size, "solver %s cannot explain %ux%u puzzles", p->desc->name, n, n);
        return RPC_UNSUPPORTED;
    }
    *out = p;
    return RPC_OK;
}

enum rpc_code request_check_progress(unsigned n, const uint8_t *cells, unsigned progress_n,
                                     const uint8_t *progress, char *msg, size_t msg_size)
{
    if (progress_n != n) {
        snprintf(msg, msg_size, "progress is %ux%u, the puzzle %ux%u", progress_n, progress_n, n,
                 n);
        return RPC_BAD_REQUEST;
    }
    for (unsigned i = 0; i < n * n; i++)
        if (cells[i] && progress[i] != cells[i]) {
            snprintf(msg, msg_size, "progress changes the given %u at r%uc%u", cells[i], i / n + 1,
                     i % n + 1);
            return RPC_BAD_REQUEST;
        }
    return RPC_OK;
}

static int counts(const struct host_plugin *p, unsigned n)
{
    return p && (p->desc->caps & SDK_CAP_COUNT) && (p->desc->sizes & sdk_size_bit(n));
}

const struct host_plugin *request_counter(const struct host *h, unsigned n)
{
    const struct host_plugin *p = host_default_for(h, (int)n);

    if (counts(p, n))
        return p;
    for (size_t i = 0; i < host_count(h); i++)
        if (counts(host_plugin_at(h, i), n))
            return host_plugin_at(h, i);
    return NULL;
}

/* host_explain() returned rc < 0: which error, in words. */
static enum rpc_code explain_error(int rc, const struct sdk_explain *x, const char *name,
                                   uint64_t timeout_ms, const char *log_hint, char *msg,
                                   size_t msg_size)
{
    switch (rc) {
    case -EBADMSG: /* progress disagrees with the solution: the caller's mistake step */
        return RPC_OK;
    case -EDOM:
        snprintf(msg, msg_size, "no solution");
        return RPC_NOT_UNIQUE;
    case -ENOTUNIQ:
        snprintf(msg, msg_size, "more than one solution");
        return RPC_NOT_UNIQUE;
    case -ECANCELED:
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    case -ETIMEDOUT:
        snprintf(msg, msg_size, "no answer from %s within %" PRIu64 " ms", name, timeout_ms);
        return RPC_TIMEOUT;
    case -ENOTSUP:
        snprintf(msg, msg_size, "solver %s cannot explain %ux%u puzzles", name, x->n, x->n);
        return RPC_UNSUPPORTED;
    default:
        snprintf(msg, msg_size, "solver %s failed or gave an unsound step (see %s)", name,
                 log_hint);
        return RPC_INTERNAL;
    }
}

enum rpc_code request_explain_outcome(int rc, const struct sdk_explain *x,
                                      const struct host_plugin *p, uint64_t timeout_ms,
                                      const char *log_hint, char *msg, size_t msg_size)
{
    const char *name = p->desc->name;

    if (rc < 0)
        return explain_error(rc, x, name, timeout_ms, log_hint, msg, msg_size);
    switch (x->status) {
    case SDK_EXPLAIN_CANCELLED:
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    case SDK_EXPLAIN_TIMEDOUT:
        snprintf(msg, msg_size, "no answer from %s within %" PRIu64 " ms", name, timeout_ms);
        return RPC_TIMEOUT;
    case SDK_EXPLAIN_SOLVED:
    case SDK_EXPLAIN_PARTIAL:
    case SDK_EXPLAIN_STUCK:
        return RPC_OK;
    default: /* out of room, or a position the host found valid called invalid */
        snprintf(msg, msg_size, "solver %s could not explain this puzzle (status %" PRIu32 ")",
                 name, x->status);
        return RPC_INTERNAL;
    }
}
