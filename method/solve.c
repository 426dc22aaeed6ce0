/* solve.c -- the solve method (solve.h). */
#include "method/solve.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/grid.h"
#include "core/rules.h"

/* One solve's work, in the call itself. */
struct solve_work {
    unsigned n;                      /* side */
    enum rpc_form form;              /* answer in the question's form */
    uint64_t limit;                  /* solutions wanted */
    int rc;                          /* host_solve's result (run writes) */
    uint64_t count;                  /* solutions found (run writes) */
    uint64_t guesses;                /* the plugin's work, every run added (run writes) */
    struct rules *rules;             /* the puzzle's rules, or NULL: classic (owned) */
    uint8_t cells[SDK_MAX_CELLS];    /* puzzle */
    uint8_t solution[SDK_MAX_CELLS]; /* solution (run writes) */
};

static_assert(sizeof(struct solve_work) <= METHOD_WORK_SIZE, "solve's work fits in the call");

/* The solver (the named one, or the default for the size, or the first
 * that takes the rules), which must count when limit > 1. */
static enum rpc_code find_solver(const struct host *h, const struct rpc_solve_params *s,
                                 uint32_t kinds, const struct host_plugin **out, char *msg,
                                 size_t msg_size)
{
    enum rpc_code code =
        method_find_rules_solver(h, s->solver, s->n, kinds, s->limit > 1, out, msg, msg_size);

    if (code == RPC_OK && s->limit > 1 && !((*out)->desc->caps & SDK_CAP_COUNT)) {
        snprintf(msg, msg_size, "solver %s cannot count solutions (limit > 1)", (*out)->desc->name);
        return RPC_UNSUPPORTED;
    }
    return code;
}

/* The cell arrays are most of the work: only the puzzle's n*n cells are
 * written here, the solution by the plugin. */
static enum rpc_code solve_validate(struct method_call *call, const struct rpc_request *req,
                                    char *msg, size_t msg_size)
{
    const struct rpc_solve_params *s = &req->solve;
    struct solve_work *w = METHOD_WORK(call, struct solve_work);
    const struct host_plugin *plugin = NULL;
    struct rules *rules = NULL;
    const struct sdk_rules *r;
    enum rpc_code code;

    code = method_rules(&s->rules, s->n, &rules, msg, msg_size);
    if (code != RPC_OK)
        return code;
    r = rules_sdk(rules);
    if (rules_check_givens(r, s->n, s->cells, msg, msg_size) < 0) {
        code = RPC_BAD_PUZZLE;
        goto fail;
    }
    code = find_solver(call->env->host, s, r ? r->kinds : 0, &plugin, msg, msg_size);
    if (code != RPC_OK)
        goto fail;
    w->rules = rules;
    call->plugin = plugin;
    call->timeout_ms = s->timeout_ms;
    w->n = s->n;
    w->form = s->form;
    w->limit = s->limit;
    w->rc = 0;
    w->count = 0;
    w->guesses = 0;
    memcpy(w->cells, s->cells, (size_t)s->n * s->n);
    return RPC_OK;
fail:
    rules_free(rules);
    return code;
}

static void solve_destroy(struct method_call *call)
{
    struct solve_work *w = METHOD_WORK(call, struct solve_work);

    rules_free(w->rules);
    w->rules = NULL;
}

static int solve_is_prompt(const struct method_call *call)
{
    return METHOD_CWORK(call, struct solve_work)->n <= 9 &&
           (call->plugin->desc->caps & SDK_CAP_PROMPT);
}

static void solve_run(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns)
{
    struct solve_work *w = METHOD_WORK(call, struct solve_work);
    struct sdk_job sj = {
        .size = sizeof(sj),
        .n = w->n,
        .cells = w->cells,
        .limit = w->limit,
        .cancel = cancel,
        .deadline_ns = deadline_ns,
        .solution = w->solution,
        .rules = rules_sdk(w->rules),
    };

    w->rc = host_solve(call->plugin, &sj);
    w->count = sj.count;
    w->guesses += sj.guesses;
}

/* Stopped by the budget: only a timeout is unfinished. */
static int solve_rearm(struct method_call *call)
{
    struct solve_work *w = METHOD_WORK(call, struct solve_work);

    if (w->rc != SDK_TIMEDOUT)
        return 0;
    w->rc = 0;
    return 1;
}

/* RPC_OK for SDK_SOLVED and SDK_UNSOLVABLE (an answer). */
static enum rpc_code solve_outcome(const struct method_call *call, char *msg, size_t msg_size)
{
    const struct solve_work *w = METHOD_CWORK(call, struct solve_work);
    const char *name = call->plugin->desc->name;

    switch (w->rc) {
    case SDK_SOLVED:
    case SDK_UNSOLVABLE:
        return RPC_OK;
    case SDK_TIMEDOUT:
        snprintf(msg, msg_size, "no answer from %s within %" PRIu64 " ms", name, call->timeout_ms);
        return RPC_TIMEOUT;
    case SDK_CANCELLED:
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    case -ENOTSUP:
        snprintf(msg, msg_size, "solver %s cannot take %ux%u puzzles", name, w->n, w->n);
        return RPC_UNSUPPORTED;
    default: /* the host already logged what the plugin did wrong */
        snprintf(msg, msg_size, "solver %s failed or gave a wrong answer (see %s)", name,
                 call->env->log_hint);
        return RPC_INTERNAL;
    }
}

static int solve_is_unsolvable(const struct method_call *call)
{
    return METHOD_CWORK(call, struct solve_work)->rc == SDK_UNSOLVABLE;
}

void solve_result(const struct method_call *call, struct rpc_solve_result *out)
{
    const struct solve_work *w = METHOD_CWORK(call, struct solve_work);

    *out = (struct rpc_solve_result){
        .solved = w->rc == SDK_SOLVED,
        .n = w->n,
        .form = w->form,
        .solution = w->rc == SDK_SOLVED ? w->solution : NULL,
        .count = w->count,
        .solver = call->plugin->desc->name,
        .elapsed_us = call->elapsed_us,
        .guesses = w->guesses,
    };
}

/* The answer map, encoded by hand (proto/rpc.c); arg is the call. */
static int solve_pack(msgpack_packer *pk, const void *arg)
{
    struct rpc_solve_result r;

    solve_result(arg, &r);
    return rpc_pack_solve_map(pk, &r);
}

/* The solution (a string, or an array of small integers: n*n bytes and a
 * header either way), the solver's name and four numbers, with their
 * keys. */
static size_t solve_answer_size(const struct rpc_request *req)
{
    return (size_t)req->solve.n * req->solve.n + 256;
}

const struct method_ops solve_ops = {
    .name = "solve",
    .validate = solve_validate,
    .is_prompt = solve_is_prompt,
    .run = solve_run,
    .rearm = solve_rearm,
    .outcome = solve_outcome,
    .is_unsolvable = solve_is_unsolvable,
    .pack = solve_pack,
    .destroy = solve_destroy,
    .answer_size = solve_answer_size,
};
