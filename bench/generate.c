/* generate.c -- sudoku-bench --generate: time puzzle generation in process.
 *
 * Puzzle k of the run is gen_one(spec, gen_batch_seed(seed, k)), as a
 * daemon would make it, so a run is reproducible and its puzzles are the
 * ones `count` would give.  The check after each puzzle (rules, solution,
 * uniqueness through the host) is not timed; a puzzle that fails it counts
 * as wrong and makes the bench exit 1.  Per-puzzle wall times are kept (8
 * bytes a puzzle) for the median and the 99th percentile.
 */
#include "bench/generate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "core/grid.h"
#include "core/rater.h"
#include "util/clock.h"
#include "util/json.h"

#define GENBENCH_PROGRESS_NS 250000000u /* redraw progress this often */

static uint64_t cpu_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Returns 1 when gp is a valid unique puzzle with its solution, else 0. */
static int puzzle_ok(const struct host_plugin *p, const struct gen_puzzle *gp)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_job job = {
        .size = sizeof(job), .n = gp->n, .cells = gp->puzzle, .limit = 2, .solution = solution};

    if (grid_check_givens(gp->n, gp->puzzle, NULL, 0) != 0 ||
        grid_check_solution(gp->n, gp->puzzle, gp->solution, NULL, 0) != 0)
        return 0;
    return host_solve(p, &job) == SDK_SOLVED && job.count == 1 &&
           memcmp(solution, gp->solution, (size_t)gp->n * gp->n) == 0;
}

static void progress(const struct genbench_result *r, int done)
{
    fprintf(stderr, "\r%s %ux%u: %llu puzzles", r->solver, r->n, r->n,
            (unsigned long long)r->puzzles);
    if (done)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

/* Make and check puzzle k under the per-puzzle deadline; account for it
 * in r. */
static void run_one(const struct host_plugin *p, const struct gen_spec *spec,
                    const struct genbench_opts *o, uint64_t k, struct genbench_result *r,
                    double *us, uint64_t *givens, uint64_t *solves, uint64_t *attempts)
{
    struct gen_spec s = *spec;
    struct gen_puzzle gp;
    uint64_t t0 = clock_now_ns(), c0 = cpu_now_ns();
    int rc;

    if (o->timeout_ms)
        s.deadline_ns = t0 + (uint64_t)o->timeout_ms * 1000000u;
    rc = gen_one(&s, gen_batch_seed(o->seed, k), &gp);
    uint64_t wall = clock_now_ns() - t0, cpu = cpu_now_ns() - c0;

    if (rc == -ETIMEDOUT && o->timeout_ms) {
        r->timeouts++;
        return;
    }
    if (rc < 0) {
        r->errors++;
        return;
    }
    r->seconds += (double)wall / 1e9;
    r->cpu_seconds += (double)cpu / 1e9;
    us[r->puzzles++] = (double)wall / 1e3;
    *givens += gp.givens;
    *solves += gp.solves;
    *attempts += gp.attempts;
    r->rating_avg += gp.rating;
    if (!puzzle_ok(p, &gp) ||
        (o->has_band && (gp.rating < o->min_rating || gp.rating > o->max_rating)))
        r->wrong++;
}

/* The averages and percentiles once the run is over. */
static void finish(struct genbench_result *r, double *us, uint64_t givens, uint64_t solves,
                   uint64_t attempts)
{
    if (!r->puzzles)
        return;
    r->attempts_avg = (double)attempts / (double)r->puzzles;
    r->rating_avg /= (double)r->puzzles;
    r->puzzles_per_s = r->seconds > 0 ? (double)r->puzzles / r->seconds : 0;
    r->puzzles_per_cpu_s = r->cpu_seconds > 0 ? (double)r->puzzles / r->cpu_seconds : 0;
    r->givens_avg = (double)givens / (double)r->puzzles;
    r->solves_avg = (double)solves / (double)r->puzzles;
    bench_sort(us, r->puzzles);
    r->us_median = bench_percentile(us, r->puzzles, 50);
    r->us_p99 = bench_percentile(us, r->puzzles, 99);
}

static void result_init(const struct host_plugin *p, const struct genbench_opts *o,
                        struct genbench_result *r)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->solver, sizeof(r->solver), "%s", p->desc->name);
    r->n = o->n;
    r->symmetry = gen_symmetry_name(o->symmetry);
    r->is_minimal = o->is_minimal;
    r->seed = o->seed;
    snprintf(r->band, sizeof(r->band), "%s", o->has_band ? o->band : "");
}

int genbench_run(const struct host_plugin *p, const struct genbench_opts *o,
                 struct genbench_result *out, char *err, size_t err_size)
{
    struct gen_spec spec;
    struct gen_rater *rater = NULL;
    uint64_t givens = 0, solves = 0, attempts = 0, next = clock_now_ns() + GENBENCH_PROGRESS_NS;
    double *us;

    result_init(p, o, out);
    gen_spec_init(&spec, p);
    spec.n = o->n;
    spec.symmetry = o->symmetry;
    spec.is_minimal = o->is_minimal;
    if (!(p->desc->caps & SDK_CAP_COUNT) || !(p->desc->sizes & sdk_size_bit(o->n))) {
        snprintf(err, err_size, "%s cannot count %ux%u puzzles", p->desc->name, o->n, o->n);
        return -EINVAL;
    }
    if (o->has_band && gen_rater_new(o->rater, p, o->n, &rater) < 0) {
        snprintf(err, err_size, "%s cannot rate %ux%u puzzles with %s",
                 o->rater ? o->rater->desc->name : "no plugin", o->n, o->n, p->desc->name);
        return -EINVAL;
    }
    if (rater)
        gen_rater_attach(rater, &spec, o->min_rating, o->max_rating);
    us = malloc(o->count * sizeof(*us));
    if (!us) {
        gen_rater_free(rater);
        snprintf(err, err_size, "out of memory");
        return -ENOMEM;
    }
    for (uint64_t k = 0; k < o->count; k++) {
        run_one(p, &spec, o, k, out, us, &givens, &solves, &attempts);
        if (o->progress && clock_now_ns() >= next) {
            progress(out, 0);
            next = clock_now_ns() + GENBENCH_PROGRESS_NS;
        }
    }
    if (o->progress)
        progress(out, 1);
    finish(out, us, givens, solves, attempts);
    free(us);
    gen_rater_free(rater);
    return 0;
}

void genbench_report_header(FILE *out)
{
    fprintf(out, "%-10s %5s %-9s %7s %8s %5s %6s %10s %12s %10s %10s %7s %7s %-9s %8s %6s\n",
            "solver", "size", "symmetry", "minimal", "puzzles", "wrong", "errors", "puzzles/s",
            "puzzles/cpu_s", "median_us", "p99_us", "givens", "solves", "band", "attempts",
            "rating");
}

void genbench_report_row(FILE *out, const void *result)
{
    const struct genbench_result *r = result;
    fprintf(out,
            "%-10s %5u %-9s %7s %8llu %5llu %6llu %10.1f %12.1f %10.1f %10.1f %7.2f %7.2f %-9s "
            "%8.2f %6.2f%s\n",
            r->solver, r->n, r->symmetry, r->is_minimal ? "yes" : "no",
            (unsigned long long)r->puzzles, (unsigned long long)r->wrong,
            (unsigned long long)r->errors, r->puzzles_per_s, r->puzzles_per_cpu_s, r->us_median,
            r->us_p99, r->givens_avg, r->solves_avg, r->band[0] ? r->band : "-", r->attempts_avg,
            r->rating_avg, r->timeouts ? " (timeouts)" : "");
}

void genbench_report_json(FILE *out, const void *result)
{
    const struct genbench_result *r = result;
    fputs("{\"generate\":true,\"solver\":", out);
    json_put_string(out, r->solver);
    fprintf(out, ",\"size\":%u,\"symmetry\":", r->n);
    json_put_string(out, r->symmetry);
    fprintf(out,
            ",\"minimal\":%s,\"seed\":%llu,\"puzzles\":%llu,\"wrong\":%llu,\"errors\":%llu"
            ",\"timeouts\":%llu,\"seconds\":%.6f,\"cpu_seconds\":%.6f,\"puzzles_per_s\":%.1f"
            ",\"puzzles_per_cpu_s\":%.1f,\"us_median\":%.2f,\"us_p99\":%.2f"
            ",\"givens_avg\":%.2f,\"solves_avg\":%.2f,\"attempts_avg\":%.2f,\"rating_avg\":%.3f"
            ",\"band\":\"%s\"}\n",
            r->is_minimal ? "true" : "false", (unsigned long long)r->seed,
            (unsigned long long)r->puzzles, (unsigned long long)r->wrong,
            (unsigned long long)r->errors, (unsigned long long)r->timeouts, r->seconds,
            r->cpu_seconds, r->puzzles_per_s, r->puzzles_per_cpu_s, r->us_median, r->us_p99,
            r->givens_avg, r->solves_avg, r->attempts_avg, r->rating_avg, r->band);
}
