/* inproc.c -- the in-process benchmark runner: one thread, one puzzle at a time.
 *
 * Reads a puzzle file with the tool's reader (proto/input.c: line or grid
 * form, fixed buffer, an overlong line is an error record, never a bigger
 * allocation), parses each record, rejects givens that break a rule, and times
 * host_solve() alone: parsing and checking the givens are not counted.  The
 * answer check inside host_solve() is counted, since every answer is checked
 * in production too.  Per-call times are kept (8 bytes a puzzle) for the
 * median and the 99th percentile.
 */
#include "bench/inproc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/input.h"
#include "util/clock.h"

#define INPROC_PROGRESS_NS 250000000u /* redraw progress this often */

/* Solve one parsed puzzle and account for it in r. */
static int solve_one(const struct host_plugin *p, const struct inproc_opts *o, unsigned n,
                     const uint8_t *cells, struct bench_result *r, struct bench_samples *s,
                     uint64_t *guesses)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_job job = {
        .size = sizeof(job), .n = n, .cells = cells, .limit = o->limit, .solution = solution};
    uint64_t t0 = clock_now_ns();
    int rc;

    if (o->timeout_ms)
        job.deadline_ns = t0 + (uint64_t)o->timeout_ms * 1000000u;
    rc = host_solve(p, &job);
    t0 = clock_now_ns() - t0;
    if (rc == -ENOTSUP) {
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

/* Parse one record and run it.  Returns 0 or -ENOMEM. */
static int run_record(const struct host_plugin *p, const struct inproc_opts *o,
                      const struct input_record *rec, struct bench_result *r,
                      struct bench_samples *s, uint64_t *guesses)
{
    uint8_t cells[SDK_MAX_CELLS];
    unsigned n;

    r->puzzles++;
    if (bench_record_cells(rec, &n, cells) != 0) {
        r->errors++;
        return 0;
    }
    return solve_one(p, o, n, cells, r, s, guesses);
}

static void progress(const struct bench_result *r, int done)
{
    fprintf(stderr, "\r%s %s: %llu puzzles", r->solver, r->file, (unsigned long long)r->puzzles);
    if (done)
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static int run_stream(const struct host_plugin *p, struct input *in, const struct inproc_opts *o,
                      struct bench_result *r, struct bench_samples *s, uint64_t *guesses)
{
    struct input_record rec;
    uint64_t next = clock_now_ns() + INPROC_PROGRESS_NS;
    int rc = 0, more;

    while (rc == 0 && (more = input_next(in, &rec)) > 0) {
        rc = run_record(p, o, &rec, r, s, guesses);
        if (o->progress && (r->puzzles & 63) == 0 && clock_now_ns() >= next) {
            progress(r, 0);
            next = clock_now_ns() + INPROC_PROGRESS_NS;
        }
    }
    if (rc == 0 && more < 0)
        rc = more;
    if (o->progress)
        progress(r, 1);
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

int inproc_run_file(const struct host_plugin *p, const char *file, const struct inproc_opts *o,
                    struct bench_result *out, char *err, size_t err_size)
{
    struct bench_samples s = {0};
    struct input in;
    uint64_t guesses = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    snprintf(out->solver, sizeof(out->solver), "%s", p->desc->name);
    out->file = file;
    rc = input_open(&in, file, INPUT_AUTO);
    if (rc < 0) {
        snprintf(err, err_size, "%s: %s", file, strerror(-rc));
        return rc;
    }
    rc = run_stream(p, &in, o, out, &s, &guesses);
    if (rc < 0)
        snprintf(err, err_size, "%s: %s", file, strerror(-rc));
    input_close(&in);
    finish(out, &s, guesses);
    bench_samples_free(&s);
    return rc;
}
