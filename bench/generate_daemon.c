/* generate_daemon.c -- sudoku-bench --generate N --socket PATH: generation through sudokud.
 *
 * The same puzzles the in-process runner times (generate.c), asked of a
 * running daemon the way `sudoku generate --seed S` asks: requests of
 * `chunk` puzzles, request j seeded gen_batch_seed(S, j * chunk), `depth` of
 * them in flight on one connection (libsudoku-client's genbatch), so the
 * daemon's workers share the work.  The clock runs from the first request to
 * the last answer; the CPU figure is the daemon's (all its threads, from
 * /proc), the work a puzzle costs wherever it ran.  Per-puzzle times are a
 * request's latency divided by its puzzles.
 *
 * The answers' grids are kept (2 n*n bytes a puzzle) and checked after the
 * clock stops: givens against the rules, the solution against the givens,
 * and, with a checker plugin, uniqueness (limit 2) in this process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/daemon.h"
#include "bench/generate.h"
#include "core/grid.h"
#include "proto/codec.h"
#include "util/clock.h"
#include <sudoku/client.h>

/* The state of one run, shared with the batch callback. */
struct gd_run {
    const struct genbench_opts *o;
    struct genbench_result *r;
    size_t cells;          /* n*n */
    uint8_t *grids;        /* per puzzle: puzzle then solution, n*n bytes each */
    uint64_t kept;         /* puzzles in grids */
    uint64_t *send_ns;     /* per request */
    double *us;            /* per request: microseconds per puzzle */
    uint64_t answered;     /* requests answered */
    uint64_t givens;       /* summed */
    char first_error[320]; /* the first error answer, "" if none */
};

static void on_chunk(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_puzzle *p,
                     size_t len, const struct sudoku_client_error *err)
{
    struct gd_run *g = arg;
    uint64_t now = clock_now_ns();

    if (err) {
        if (strcmp(err->code, "timeout") == 0)
            g->r->timeouts += tag;
        else
            g->r->errors += tag;
        if (!g->first_error[0])
            snprintf(g->first_error, sizeof(g->first_error), "%s: %s", err->code, err->message);
        return;
    }
    g->us[g->answered++] = (double)(now - g->send_ns[seq]) / 1e3 / (double)len;
    g->r->timeouts += tag - len;
    for (size_t i = 0; i < len; i++) {
        uint8_t *dst = g->grids + g->kept * 2 * g->cells;
        unsigned n = 0;
        if (p[i].n != g->o->n ||
            codec_parse_line(p[i].puzzle, strlen(p[i].puzzle), &n, dst, NULL, 0) < 0 ||
            codec_parse_line(p[i].solution, strlen(p[i].solution), &n, dst + g->cells, NULL, 0) <
                0) {
            g->r->wrong++;
            continue;
        }
        g->givens += p[i].givens;
        g->kept++;
    }
}

/* Returns 1 when the kept puzzle at grid is valid and (with a checker) unique. */
static int grids_ok(const struct host_plugin *checker, unsigned n, const uint8_t *grid)
{
    uint8_t solution[SDK_MAX_CELLS];
    const uint8_t *want = grid + (size_t)n * n;
    struct sdk_job job = {
        .size = sizeof(job), .n = n, .cells = grid, .limit = 2, .solution = solution};

    if (grid_check_givens(n, grid, NULL, 0) != 0 ||
        grid_check_solution(n, grid, want, NULL, 0) != 0)
        return 0;
    if (!checker)
        return 1;
    return host_solve(checker, &job) == SDK_SOLVED && job.count == 1 &&
           memcmp(solution, want, (size_t)n * n) == 0;
}

/* Send every request; the clock covers the first add to the last answer. */
static int send_all(struct gd_run *g, const struct genbench_daemon_opts *d,
                    struct sudoku_client_genbatch *b, struct sudoku_client_error *err)
{
    struct sudoku_client_generate_opts q = {.size = g->o->n,
                                            .has_seed = 1,
                                            .symmetry = gen_symmetry_name(g->o->symmetry),
                                            .is_not_minimal = !g->o->is_minimal,
                                            .solver = d->solver,
                                            .timeout_ms = g->o->timeout_ms};
    uint64_t j = 0;

    if (g->o->has_band) { /* by rating: a named band is exactly its range */
        q.min_rating = g->o->min_rating;
        q.max_rating = g->o->max_rating;
        q.has_min_rating = q.has_max_rating = 1;
    }
    for (uint64_t k = 0; k < g->o->count; k += q.count, j++) {
        uint64_t left = g->o->count - k;
        q.count = left < d->chunk ? (unsigned)left : d->chunk;
        q.seed = gen_batch_seed(g->o->seed, k);
        int is_full = sudoku_client_genbatch_pending(b) >= d->depth;
        g->send_ns[j] = clock_now_ns();
        int rc = sudoku_client_genbatch_add(b, &q, q.count, err);
        if (rc < 0)
            return rc;
        if (is_full) /* it left only after an answer made room */
            g->send_ns[j] = clock_now_ns();
    }
    return sudoku_client_genbatch_finish(b, err);
}

/* Connect, time the run, fill r->seconds and r->cpu_seconds.  Returns 0,
 * DAEMON_UNREACHABLE or another negative errno (err says why). */
static int timed_run(struct gd_run *g, const struct genbench_daemon_opts *d, char *err,
                     size_t err_size)
{
    struct sudoku_client_error e;
    struct sudoku_client_genbatch *b = NULL;
    struct sudoku_client *c = NULL;
    uint64_t cpu0 = 0, cpu1 = 0, t0;
    int has_cpu, rc;

    if (sudoku_client_connect(d->socket, &c, &e) < 0) {
        snprintf(err, err_size, "%s", e.message);
        return DAEMON_UNREACHABLE;
    }
    rc = sudoku_client_genbatch_new(c, d->depth, on_chunk, g, &b);
    if (rc < 0) {
        snprintf(err, err_size, "cannot start a batch: %s", strerror(-rc));
        sudoku_client_free(c);
        return rc;
    }
    has_cpu = daemon_cpu_ns(d->socket, &cpu0) == 0;
    t0 = clock_now_ns();
    rc = send_all(g, d, b, &e);
    g->r->seconds = (double)(clock_now_ns() - t0) / 1e9;
    if (has_cpu && daemon_cpu_ns(d->socket, &cpu1) == 0)
        g->r->cpu_seconds = (double)(cpu1 - cpu0) / 1e9;
    sudoku_client_genbatch_free(b);
    sudoku_client_free(c);
    if (rc < 0) {
        snprintf(err, err_size, "lost the daemon: %s", e.message);
        return DAEMON_UNREACHABLE;
    }
    return 0;
}

static void gd_free(struct gd_run *g)
{
    free(g->grids);
    free(g->send_ns);
    free(g->us);
}

int genbench_run_daemon(const struct genbench_opts *o, const struct genbench_daemon_opts *d,
                        const struct host_plugin *checker, struct genbench_result *out, char *err,
                        size_t err_size)
{
    struct gd_run g = {.o = o, .r = out, .cells = (size_t)o->n * o->n};
    uint64_t requests = (o->count + d->chunk - 1) / d->chunk;
    int rc;

    memset(out, 0, sizeof(*out));
    snprintf(out->solver, sizeof(out->solver), "%s", d->solver ? d->solver : "daemon");
    out->n = o->n;
    out->symmetry = gen_symmetry_name(o->symmetry);
    out->is_minimal = o->is_minimal;
    out->seed = o->seed;
    g.grids = malloc(o->count * 2 * g.cells);
    g.send_ns = calloc(requests, sizeof(*g.send_ns));
    g.us = calloc(requests, sizeof(*g.us));
    if (!g.grids || !g.send_ns || !g.us) {
        gd_free(&g);
        snprintf(err, err_size, "out of memory");
        return -ENOMEM;
    }
    rc = timed_run(&g, d, err, err_size);
    if (rc == 0) {
        for (uint64_t i = 0; i < g.kept; i++)
            out->wrong += !grids_ok(checker, o->n, g.grids + i * 2 * g.cells);
        out->puzzles = g.kept;
        out->puzzles_per_s = out->seconds > 0 ? (double)g.kept / out->seconds : 0;
        out->puzzles_per_cpu_s = out->cpu_seconds > 0 ? (double)g.kept / out->cpu_seconds : 0;
        out->givens_avg = g.kept ? (double)g.givens / (double)g.kept : 0;
        bench_sort(g.us, g.answered);
        out->us_median = bench_percentile(g.us, g.answered, 50);
        out->us_p99 = bench_percentile(g.us, g.answered, 99);
        if (g.first_error[0])
            fprintf(stderr, "sudoku-bench: generate: %s\n", g.first_error);
    }
    gd_free(&g);
    return rc;
}
