/* rate.c -- sudoku-bench --rate: rate puzzle files with an explaining plugin.
 *
 * One thread, one puzzle at a time, as solve.c solves them.  Each puzzle is
 * timed twice: through host_explain() (the unique solution found by the
 * default solver, every step replayed and checked: what the daemon's `rate`
 * costs) and through the plugin's explain() alone (the engine's own speed).
 * The step arrays are allocated once per file, sized so that they never run
 * out for a 16x16 grid; no text is asked for.  With a step limit (--steps,
 * 1 = a hint) each explanation stops there, as the daemon's `explain` with
 * `steps` does; a partial explanation counts as solved.
 */
#include "bench/rate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/clock.h"

#define RATE_MAX_N 16

/* The table handed to a plugin timed on its own: its log lines are dropped
 * (host_explain() runs it again with the real one). */
static void quiet_log(void *ctx, int level, const char *msg)
{
    (void)ctx;
    (void)level;
    (void)msg;
}

static const struct sdk_host quiet_host = {.size = sizeof(struct sdk_host), .log = quiet_log};

/* The buffers of one file's run. */
struct rate_bufs {
    struct sdk_explain arrays; /* only its arrays and capacities: for any n */
    void *block;               /* they point into it, owned */
    struct bench_samples us;   /* per-puzzle times through host_explain() */
    double plugin_s;
    double rating_sum, steps_sum;
};

static int bufs_init(struct rate_bufs *b)
{
    memset(b, 0, sizeof(*b));
    b->block = host_explain_arrays(&b->arrays, RATE_MAX_N, 0);
    return b->block ? 0 : -ENOMEM;
}

static void bufs_free(struct rate_bufs *b)
{
    free(b->block);
    bench_samples_free(&b->us);
}

static void job_init(struct sdk_explain *j, struct rate_bufs *b, unsigned n, const uint8_t *cells,
                     uint32_t max_steps)
{
    *j = b->arrays;
    j->size = sizeof(*j);
    j->n = n;
    j->cells = cells;
    j->max_steps = max_steps;
}

/* Rate one parsed puzzle and account for it. */
static int rate_one(const struct host_plugin *p, const struct host_plugin *solver, unsigned n,
                    const uint8_t *cells, struct rate_result *r, struct rate_bufs *b)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_explain j;
    uint64_t t0;
    int rc;

    if (n > RATE_MAX_N || !(sdk_size_bit(n) & p->desc->explain_sizes)) {
        r->errors++;
        return 0;
    }
    job_init(&j, b, n, cells, r->max_steps);
    t0 = clock_now_ns();
    /* The engine alone: its answer is judged by the host_explain() below. */
    (void)p->desc->explain(p->state, &quiet_host, &j);
    b->plugin_s += (double)(clock_now_ns() - t0) / 1e9;
    job_init(&j, b, n, cells, r->max_steps);
    t0 = clock_now_ns();
    rc = host_explain(p, solver, &j, solution);
    t0 = clock_now_ns() - t0;
    r->seconds += (double)t0 / 1e9;
    if (rc == -EDOM || rc == -ENOTUNIQ)
        r->not_unique++;
    else if (rc < 0)
        r->wrong++;
    else if (j.status == SDK_EXPLAIN_STUCK)
        r->stuck++;
    else
        r->solved++;
    if (rc == 0) {
        b->rating_sum += j.rating;
        b->steps_sum += j.steps_len;
    }
    return bench_samples_push(&b->us, (double)t0 / 1e3);
}

/* One file's run: what rate_one() needs besides the puzzle. */
struct rate_run {
    const struct host_plugin *p, *solver;
    struct rate_result *r;
    struct rate_bufs b;
};

/* bench_puzzle_fn: rate it. */
static int rate_puzzle(void *ctx, unsigned n, const uint8_t *cells)
{
    struct rate_run *run = ctx;
    return rate_one(run->p, run->solver, n, cells, run->r, &run->b);
}

static void finish(struct rate_result *r, struct rate_bufs *b)
{
    const double rated = (double)(r->solved + r->stuck);

    bench_sort(b->us.us, b->us.len);
    r->us_p50 = bench_percentile(b->us.us, b->us.len, 50.0);
    r->us_p99 = bench_percentile(b->us.us, b->us.len, 99.0);
    r->puzzles_per_s = r->seconds > 0 ? (double)b->us.len / r->seconds : 0.0;
    r->plugin_per_s = b->plugin_s > 0 ? (double)b->us.len / b->plugin_s : 0.0;
    r->mean_rating = rated > 0 ? b->rating_sum / rated : 0.0;
    r->mean_steps = rated > 0 ? b->steps_sum / rated : 0.0;
}

int rate_run_file(const struct host_plugin *p, const struct host_plugin *solver, const char *file,
                  struct rate_result *out, char *err, size_t err_size)
{
    return rate_run_steps(p, solver, file, 0, out, err, err_size);
}

int rate_run_steps(const struct host_plugin *p, const struct host_plugin *solver, const char *file,
                   uint32_t max_steps, struct rate_result *out, char *err, size_t err_size)
{
    struct rate_run run = {.p = p, .solver = solver, .r = out};
    int rc;

    memset(out, 0, sizeof(*out));
    snprintf(out->solver, sizeof(out->solver), "%s", p->desc->name);
    out->file = file;
    out->max_steps = max_steps;
    rc = bufs_init(&run.b);
    if (rc < 0)
        snprintf(err, err_size, "%s: %s", file, strerror(-rc));
    else
        rc = bench_each_puzzle(file, rate_puzzle, &run, &out->puzzles, &out->errors, err, err_size);
    finish(out, &run.b);
    bufs_free(&run.b);
    return rc;
}

void rate_report_header(FILE *out)
{
    fprintf(out, "%-8s %-28s %8s %7s %6s %5s %10s %10s %8s %8s %6s %6s\n", "solver", "file",
            "puzzles", "solved", "stuck", "bad", "rated/s", "engine/s", "p50_us", "p99_us",
            "rating", "steps");
}

void rate_report_row(FILE *out, const void *result)
{
    const struct rate_result *r = result;
    const char *slash = strrchr(r->file, '/');

    fprintf(out, "%-8s %-28.28s %8llu %7llu %6llu %5llu %10.0f %10.0f %8.1f %8.1f %6.2f %6.1f\n",
            r->solver, slash ? slash + 1 : r->file, (unsigned long long)r->puzzles,
            (unsigned long long)r->solved, (unsigned long long)r->stuck,
            (unsigned long long)(r->errors + r->wrong + r->not_unique), r->puzzles_per_s,
            r->plugin_per_s, r->us_p50, r->us_p99, r->mean_rating, r->mean_steps);
}

void rate_report_json(FILE *out, const void *result)
{
    const struct rate_result *r = result;
    bench_json_start(out, "{\"mode\":\"rate\",", r->solver, r->file);
    fprintf(out,
            ",\"puzzles\":%llu,\"solved\":%llu,\"stuck\":%llu,\"not_unique\":%llu"
            ",\"errors\":%llu,\"wrong\":%llu,\"seconds\":%.6f,\"puzzles_per_s\":%.1f"
            ",\"engine_per_s\":%.1f,\"us_p50\":%.2f,\"us_p99\":%.2f,\"mean_rating\":%.3f"
            ",\"mean_steps\":%.2f,\"max_steps\":%u}\n",
            (unsigned long long)r->puzzles, (unsigned long long)r->solved,
            (unsigned long long)r->stuck, (unsigned long long)r->not_unique,
            (unsigned long long)r->errors, (unsigned long long)r->wrong, r->seconds,
            r->puzzles_per_s, r->plugin_per_s, r->us_p50, r->us_p99, r->mean_rating, r->mean_steps,
            r->max_steps);
}
