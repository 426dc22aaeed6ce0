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
#include "client/local.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "core/host.h"
#include "core/request.h"
#include "proto/clock.h"
#include "proto/codec.h"

struct local {
    struct host *host;
    int is_verbose;
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
    if (!l->host) {
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
    free(l);
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
