/* solve.c -- time solving in this process: one thread, one puzzle at a time.
 *
 * Reads a puzzle file with the tool's reader (proto/input.c: line or grid
 * form, or JSON lines with variant rules (bench/variants.h), fixed buffer,
 * an overlong line is an error record, never a bigger allocation), parses
 * each record, rejects givens that break a rule, and times
 * host_solve() alone: parsing and checking the givens are not counted.  The
 * answer check inside host_solve() is counted, since every answer is checked
 * in production too.  Per-call times are kept (8 bytes a puzzle) for the
 * median and the 99th percentile.
 */
#include "bench/solve.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

#define SOLVE_PROGRESS_NS 250000000u /* redraw progress this often */

/* Solve one parsed puzzle and account for it in r. */
static int solve_one(const struct host_plugin *p, const struct solve_opts *o, unsigned n,
                     const uint8_t *cells, const struct sdk_rules *rules, struct bench_result *r,
                     struct bench_samples *s, uint64_t *guesses)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_job job = {.size = sizeof(job),
                          .n = n,
                          .cells = cells,
                          .limit = o->limit,
                          .solution = solution,
                          .rules = rules};
    uint64_t t0 = clock_now_ns();
    int rc;

    if (o->timeout_ms)
        job.deadline_ns = t0 + (uint64_t)o->timeout_ms * 1000000u;
    rc = host_solve(p, &job);
    t0 = clock_now_ns() - t0;
    if (rc == -ENOTSUP) { /* the size, or a rule the plugin does not take */
        r->unsupported++;
        return 0;
    }
    r->seconds += (double)t0 / 1e9;
    *guesses += job.guesses;
    if (rc == SDK_SOLVED)
        r->solved++;
    else if (rc == SDK_UNSOLVABLE)
        r->unsolvable++;
    else if (rc == SDK_TIMEDOUT || rc == SDK_CANCELLED)
        r->timeouts++;
    else
        r->wrong++;
    return bench_samples_push(s, (double)t0 / 1e3);
}

static void progress(const struct bench_result *r, int done)
{
    fprintf(stderr, "\r%s %s: %llu puzzles", r->solver, r->file, (unsigned long long)r->puzzles);
    if (done)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

/* One file's run: what solve_one() needs besides the puzzle. */
struct solve_run {
    const struct host_plugin *p;
    const struct solve_opts *o;
    struct bench_result *r;
    struct bench_samples s;
    uint64_t guesses;
    uint64_t next_ns; /* when progress is drawn next */
};

/* bench_rules_fn: solve it, and draw progress now and then. */
static int run_puzzle(void *ctx, unsigned n, const uint8_t *cells, const struct sdk_rules *rules)
{
    struct solve_run *run = ctx;
    int rc = solve_one(run->p, run->o, n, cells, rules, run->r, &run->s, &run->guesses);

    if (run->o->progress && (run->r->puzzles & 63) == 0 && clock_now_ns() >= run->next_ns) {
        progress(run->r, 0);
        run->next_ns = clock_now_ns() + SOLVE_PROGRESS_NS;
    }
    return rc;
}

static void finish(struct bench_result *r, struct bench_samples *s, uint64_t guesses)
{
    bench_sort(s->us, s->len);
    r->us_median = bench_percentile(s->us, s->len, 50.0);
    r->us_p99 = bench_percentile(s->us, s->len, 99.0);
    r->puzzles_per_s = r->seconds > 0 ? (double)s->len / r->seconds : 0.0;
    r->guesses_per_puzzle = s->len ? (double)guesses / (double)s->len : 0.0;
}

int solve_run_file(const struct host_plugin *p, const char *file, const struct solve_opts *o,
                   struct bench_result *out, char *err, size_t err_size)
{
    struct solve_run run = {
        .p = p, .o = o, .r = out, .next_ns = clock_now_ns() + SOLVE_PROGRESS_NS};
    int rc;

    memset(out, 0, sizeof(*out));
    snprintf(out->solver, sizeof(out->solver), "%s", p->desc->name);
    out->file = file;
    rc =
        bench_each_puzzle_rules(file, run_puzzle, &run, &out->puzzles, &out->errors, err, err_size);
    if (o->progress)
        progress(out, 1);
    finish(out, &run.s, run.guesses);
    bench_samples_free(&run.s);
    return rc;
}
