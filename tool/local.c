/* local.c -- solve in this process, answering as sudokud would (local.h).
 *
 * Each puzzle goes through the steps of the daemon's dispatch: parse
 * (codec), check the request (request_check: givens, solver, size, limit),
 * host_solve() with a deadline, then request_outcome() for the words of a
 * failure.  The answer is filled into a struct sudoku_client_result the way
 * the client library fills it from a daemon's response, so the tool prints
 * both the same.  Rating follows daemon/explain.c the same way: host_explain()
 * without text, with the same choice of explaining and counting plugins and
 * the same words for every outcome.
 */
#include "tool/local.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_impl.h"
#include "core/grid.h"
#include "core/host.h"
#include "method/explained.h"
#include "method/generate.h"
#include "method/method.h"
#include "method/request.h"
#include "proto/codec.h"
#include "util/clock.h"

struct local {
    struct host *host;
    int is_verbose;
    struct method_env env;    /* what every call borrows: the host, no log */
    struct method_call *call; /* the one call in progress, reused */
};

static void local_log(void *ctx, int level, const char *msg)
{
    const struct local *l = ctx;

    if (level <= SDK_LOG_ERR || l->is_verbose)
        fprintf(stderr, "sudoku: %s\n", msg);
}

int local_open(const char *dir, int verbose, struct local **out)
{
    char def[4096];
    struct local *l = calloc(1, sizeof(*l));
    int rc;

    *out = NULL;
    if (!l)
        return -ENOMEM;
    l->is_verbose = verbose;
    l->host = host_new(local_log, l);
    l->call = calloc(1, sizeof(*l->call));
    l->env = (struct method_env){.host = l->host, .log_hint = "the messages above"};
    if (!l->host || !l->call) {
        host_free(l->host);
        free(l->call);
        free(l);
        return -ENOMEM;
    }
    if (!dir && host_default_plugin_dir(def, sizeof(def)) == 0)
        dir = def;
    rc = dir ? host_load_dir(l->host, dir) : -ENOENT;
    if (rc < 0 || host_count(l->host) == 0) {
        fprintf(stderr, "sudoku: --local: no solver plugin loaded from %s%s%s\n",
                dir ? dir : "(no plugin directory)", rc < 0 ? ": " : "",
                rc < 0 ? strerror(-rc) : "");
        local_free(l);
        return rc < 0 ? rc : -ENOENT;
    }
    *out = l;
    return 0;
}

void local_free(struct local *l)
{
    if (!l)
        return;
    host_free(l->host);
    free(l->call);
    free(l);
}

/* The daemon's steps on one thread: validate req, run it until its
 * timeout (LOCAL_TIMEOUT_MS when it asks none), and say what came of it.
 * Returns RPC_OK with l->call holding the answer (the caller reads it and
 * ends the call with method_end), or the code with its message in msg;
 * when validate refused, there is no call to end (method_end does
 * nothing). */
static enum rpc_code local_call(struct local *l, const struct rpc_request *req, char *msg,
                                size_t msg_size)
{
    struct method_call *call = l->call;
    enum rpc_code code = method_start(call, &l->env, req, msg, msg_size);

    if (code != RPC_OK)
        return code;
    if (!call->timeout_ms)
        call->timeout_ms = LOCAL_TIMEOUT_MS;
    method_run(call, NULL, clock_now_ns() + call->timeout_ms * 1000000u);
    return call->ops->outcome(call, msg, msg_size);
}

static void fail(struct sudoku_client_result *res, enum rpc_code code, const char *msg)
{
    res->status = SUDOKU_CLIENT_FAILED;
    snprintf(res->error.code, sizeof(res->error.code), "%s", proto_code_name(code));
    snprintf(res->error.message, sizeof(res->error.message), "%s", msg);
}

/* Run the checked request and fill res from what the plugin said. */
static void run(const struct host_plugin *p, unsigned n, const uint8_t *cells, uint64_t limit,
                uint64_t timeout_ms, struct sudoku_client_result *res)
{
    uint8_t solution[SDK_MAX_CELLS];
    char msg[256];
    uint64_t t0 = clock_now_ns();
    struct sdk_job job = {.size = sizeof(job),
                          .n = n,
                          .cells = cells,
                          .limit = limit,
                          .deadline_ns = t0 + timeout_ms * 1000000u,
                          .solution = solution};
    int rc = host_solve(p, &job);
    enum rpc_code code =
        request_outcome(rc, p, n, timeout_ms, "the messages above", msg, sizeof(msg));

    snprintf(res->solver, sizeof(res->solver), "%s", p->desc->name);
    res->elapsed_us = (clock_now_ns() - t0) / 1000u;
    res->guesses = job.guesses;
    if (code != RPC_OK) {
        fail(res, code, msg);
        return;
    }
    res->count = job.count;
    if (rc != SDK_SOLVED) {
        res->status = SUDOKU_CLIENT_UNSOLVABLE;
        return;
    }
    res->status = SUDOKU_CLIENT_SOLVED;
    res->n = n;
    memcpy(res->cells, solution, (size_t)n * n);
    codec_format_line(n, solution, CODEC_BLANK_DOT, res->solution, sizeof(res->solution));
}

void local_solve(struct local *l, const char *text, size_t len, unsigned n, const uint8_t *cells,
                 const struct sudoku_client_options *opts, struct sudoku_client_result *res)
{
    uint8_t parsed[SDK_MAX_CELLS];
    const struct host_plugin *p = NULL;
    char msg[256];
    uint64_t limit = opts && opts->limit ? opts->limit : 1;
    uint64_t timeout = opts && opts->timeout_ms ? opts->timeout_ms : LOCAL_TIMEOUT_MS;
    enum rpc_code code;

    memset(res, 0, sizeof(*res));
    if (text) {
        if (codec_parse_line(text, len, &n, parsed, msg, sizeof(msg)) < 0) {
            fail(res, RPC_BAD_PUZZLE, msg);
            return;
        }
        cells = parsed;
    }
    code = request_check(l->host, n, cells, opts && opts->solver ? opts->solver : "", limit, &p,
                         msg, sizeof(msg));
    if (code != RPC_OK) {
        fail(res, code, msg);
        return;
    }
    run(p, n, cells, limit, timeout, res);
}

size_t local_solvers(const struct local *l, struct sudoku_client_solver *out, size_t cap)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    const struct host_plugin *def = host_default(l->host);
    size_t len = host_count(l->host);

    for (size_t i = 0; i < len && i < cap; i++) {
        const struct host_plugin *p = host_plugin_at(l->host, i);
        struct sudoku_client_solver *s = &out[i];
        memset(s, 0, sizeof(*s));
        snprintf(s->name, sizeof(s->name), "%s", p->desc->name);
        snprintf(s->version, sizeof(s->version), "%s", p->desc->version ? p->desc->version : "");
        snprintf(s->description, sizeof(s->description), "%s",
                 p->desc->description ? p->desc->description : "");
        for (unsigned k = 0; k < 4; k++)
            if (p->desc->sizes & sdk_size_bit(sides[k]))
                s->sizes |= 1u << k;
        s->is_default = p == def;
    }
    return len;
}

/* ------------------------------------------------------------------------ */
/* Rating */

static void rate_fail(struct sudoku_client_rating *res, enum rpc_code code, const char *msg)
{
    res->status = code == RPC_NOT_UNIQUE ? SUDOKU_CLIENT_NOT_UNIQUE : SUDOKU_CLIENT_FAILED;
    snprintf(res->error.code, sizeof(res->error.code), "%s", proto_code_name(code));
    snprintf(res->error.message, sizeof(res->error.message), "%s", msg);
}

/* Run the explaining plugin p without text and fill res. */
static void rate_run(const struct host *h, const struct host_plugin *p, unsigned n,
                     const uint8_t *cells, uint64_t timeout_ms, struct sudoku_client_rating *res)
{
    uint8_t solution[SDK_MAX_CELLS];
    const struct host_plugin *solver = request_counter(h, n);
    uint64_t t0 = clock_now_ns();
    char msg[256];
    struct sdk_explain x = {0};
    void *arrays = host_explain_arrays(&x, n, 0);
    enum rpc_code code;

    x.size = sizeof(x);
    x.n = n;
    x.cells = cells;
    x.deadline_ns = t0 + timeout_ms * 1000000u;
    if (!arrays) {
        rate_fail(res, RPC_OVERLOADED, "out of memory: try again later");
        return;
    }
    if (!solver) {
        snprintf(msg, sizeof(msg), "no loaded solver can count %ux%u solutions", n, n);
        rate_fail(res, RPC_UNSUPPORTED, msg);
        goto done;
    }
    code = request_explain_outcome(host_explain(p, solver, &x, solution), &x, p, timeout_ms,
                                   "the messages above", msg, sizeof(msg));
    if (code != RPC_OK) {
        rate_fail(res, code, msg);
        goto done;
    }
    res->status = SUDOKU_CLIENT_SOLVED;
    res->rating = x.rating;
    snprintf(res->difficulty, sizeof(res->difficulty), "%s", proto_difficulty_of(x.rating));
    snprintf(res->hardest, sizeof(res->hardest), "%s", x.hardest ? x.hardest : "");
    res->steps = x.steps_len;
    res->is_logic = x.status != SDK_EXPLAIN_STUCK;
    snprintf(res->solver, sizeof(res->solver), "%s", p->desc->name);
    res->elapsed_us = (clock_now_ns() - t0) / 1000u;
done:
    free(arrays);
}

void local_rate(struct local *l, const char *text, size_t len, unsigned n, const uint8_t *cells,
                const struct sudoku_client_options *opts, struct sudoku_client_rating *res)
{
    uint8_t parsed[SDK_MAX_CELLS];
    const struct host_plugin *p = NULL;
    char msg[256];
    uint64_t timeout = opts && opts->timeout_ms ? opts->timeout_ms : LOCAL_TIMEOUT_MS;
    enum rpc_code code;

    memset(res, 0, sizeof(*res));
    if (text && codec_parse_line(text, len, &n, parsed, msg, sizeof(msg)) < 0) {
        rate_fail(res, RPC_BAD_PUZZLE, msg);
        return;
    }
    if (text)
        cells = parsed;
    if (grid_check_givens(n, cells, msg, sizeof(msg)) < 0) {
        rate_fail(res, RPC_BAD_PUZZLE, msg);
        return;
    }
    code = request_explainer(l->host, opts ? opts->solver : NULL, n, &p, msg, sizeof(msg));
    if (code != RPC_OK) {
        rate_fail(res, code, msg);
        return;
    }
    rate_run(l->host, p, n, cells, timeout, res);
}

/* ------------------------------------------------------------------------ */
/* Explaining */

/* A refusal, worded as the daemon's error answer would be. */
static int refuse(struct sudoku_client_error *err, enum rpc_code code, const char *msg)
{
    client__set_error(err, proto_code_name(code), "%s", msg);
    return -EREMOTEIO;
}

/* The checks the daemon makes before it explains, in its order. */
static enum rpc_code explain_check(struct local *l, const char *text, size_t len,
                                   const struct sudoku_client_explain_opts *eo,
                                   struct sdk_explain *x, uint8_t *cells, uint8_t *progress,
                                   const struct host_plugin **p, char *msg, size_t msg_size)
{
    unsigned n = 0, pn = 0;
    char why[200];
    enum rpc_code code;

    if (eo && eo->progress &&
        codec_parse_line(eo->progress, eo->progress_len, &pn, progress, why, sizeof(why)) < 0) {
        snprintf(msg, msg_size, "option progress: %s", why);
        return RPC_BAD_REQUEST; /* the daemon reads the options first */
    }
    if (codec_parse_line(text, len, &n, cells, msg, msg_size) < 0)
        return RPC_BAD_PUZZLE;
    if (grid_check_givens(n, cells, msg, msg_size) < 0)
        return RPC_BAD_PUZZLE;
    code = request_explainer(l->host, eo ? eo->solver : NULL, n, p, msg, msg_size);
    if (code == RPC_OK && pn)
        code = request_check_progress(n, cells, pn, progress, msg, msg_size);
    x->n = n;
    x->cells = cells;
    x->progress = pn ? progress : NULL;
    return code;
}

/* Pack e as the daemon would and read it back as its client would. */
static int explanation_of(const struct explained *e, struct sudoku_client_explanation **out)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    int rc = -ENOMEM;

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_unpacked_init(&u);
    if (explained_pack(&pk, e) < 0)
        goto done;
    rc = -EPROTO;
    if (msgpack_unpack_next(&u, sb.data, sb.size, NULL) != MSGPACK_UNPACK_SUCCESS)
        goto done;
    rc = wire_decode_explain(&u.data, e->x->n, out);
done:
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return rc;
}

int local_explain(struct local *l, const char *text, size_t len,
                  const struct sudoku_client_explain_opts *eo,
                  struct sudoku_client_explanation **out, struct sudoku_client_error *err)
{
    uint8_t cells[SDK_MAX_CELLS], progress[SDK_MAX_CELLS], solution[SDK_MAX_CELLS],
        grid[SDK_MAX_CELLS];
    uint64_t timeout = eo && eo->timeout_ms ? eo->timeout_ms : LOCAL_TIMEOUT_MS;
    const struct host_plugin *p = NULL, *solver;
    struct sdk_explain x = {0};
    void *arrays = NULL;
    char msg[256];
    int rc;

    *out = NULL;
    enum rpc_code code = explain_check(l, text, len, eo, &x, cells, progress, &p, msg, sizeof(msg));
    if (code != RPC_OK)
        return refuse(err, code, msg);
    solver = request_counter(l->host, x.n);
    if (!solver) {
        snprintf(msg, sizeof(msg), "no loaded solver can count %ux%u solutions", x.n, x.n);
        return refuse(err, RPC_UNSUPPORTED, msg);
    }
    arrays = host_explain_arrays(&x, x.n, 1);
    if (!arrays) {
        client__set_error(err, "io", "out of memory for the explanation");
        return -ENOMEM;
    }
    uint64_t t0 = clock_now_ns();
    x.size = sizeof(x);
    x.max_steps = eo ? eo->steps : 0;
    x.grid = grid;
    x.deadline_ns = t0 + timeout * 1000000u;
    rc = host_explain(p, solver, &x, solution);
    code = request_explain_outcome(rc, &x, p, timeout, "the messages above", msg, sizeof(msg));
    if (code != RPC_OK) {
        rc = refuse(err, code, msg);
        goto done;
    }
    struct explained e = {.x = &x,
                          .rc = rc,
                          .solution = solution,
                          .progress = progress,
                          .solver = p->desc->name,
                          .elapsed_us = (clock_now_ns() - t0) / 1000u};
    rc = explanation_of(&e, out);
    if (rc < 0)
        client__set_error(err, "io", "cannot build the explanation: %s", strerror(-rc));
done:
    free(arrays);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Generating */

/* Decode opts as the daemon decodes a generate request: pack it as the
 * client library sends it and read it back with proto/'s decoder. */
static enum rpc_code generate_params(const struct sudoku_client_generate_opts *opts,
                                     struct rpc_generate_params *g, char *msg, size_t msg_size)
{
    struct cbuf b = {.max = 1u << 16};
    msgpack_unpacked u;
    enum rpc_code code = RPC_BAD_REQUEST;

    msgpack_unpacked_init(&u);
    snprintf(msg, msg_size, "cannot encode the request");
    if (wire_pack_generate(&b, 0, opts) == 0 &&
        msgpack_unpack_next(&u, (const char *)b.data, b.len, NULL) == MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_ARRAY && u.data.via.array.size == 4 &&
        u.data.via.array.ptr[3].type == MSGPACK_OBJECT_ARRAY)
        code = rpc_decode_generate(&u.data.via.array.ptr[3].via.array, g, msg, msg_size);
    msgpack_unpacked_destroy(&u);
    cbuf_free(&b);
    return code;
}

/* The puzzles of a generate call, as the client library gives them.
 * Returns 0 with *out (free it with sudoku_client_puzzles_free) or
 * -ENOMEM. */
static int puzzles_of(const struct method_call *call, struct sudoku_client_puzzle **out,
                      size_t *len, struct sudoku_client_error *err)
{
    struct generated g;
    struct sudoku_client_puzzle *p;

    generate_result(call, &g);
    p = calloc(g.len, sizeof(*p));
    if (!p) {
        client__set_error(err, "io", "out of memory for the puzzles");
        return -ENOMEM;
    }
    for (size_t i = 0; i < g.len; i++) {
        const struct gen_puzzle *gp = &g.puzzles[i];
        p[i].n = gp->n;
        codec_format_line(gp->n, gp->puzzle, CODEC_BLANK_DOT, p[i].puzzle, sizeof(p[i].puzzle));
        codec_format_line(gp->n, gp->solution, CODEC_BLANK_DOT, p[i].solution,
                          sizeof(p[i].solution));
        p[i].givens = gp->givens;
        p[i].seed = gp->seed;
        p[i].rating = gp->rating;
        snprintf(p[i].difficulty, sizeof(p[i].difficulty), "%s",
                 g.is_rated ? proto_difficulty_of(gp->rating) : "");
        snprintf(p[i].symmetry, sizeof(p[i].symmetry), "%s", g.symmetry);
    }
    *out = p;
    *len = g.len;
    return 0;
}

int local_generate(struct local *l, const struct sudoku_client_generate_opts *opts,
                   struct sudoku_client_puzzle **out, size_t *len, struct sudoku_client_error *err)
{
    struct rpc_request req = {.method = RPC_M_GENERATE};
    char msg[256];
    enum rpc_code code = generate_params(opts, &req.generate, msg, sizeof(msg));
    int rc;

    *out = NULL;
    *len = 0;
    if (code == RPC_OK)
        code = local_call(l, &req, msg, sizeof(msg));
    if (code != RPC_OK) {
        client__set_error(err, proto_code_name(code), "%s", msg);
        rc = -EPROTO;
    } else {
        rc = puzzles_of(l->call, out, len, err);
    }
    method_end(l->call);
    return rc;
}
