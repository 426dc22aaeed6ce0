/* generate.h -- time puzzle generation (core/generate.h) in this process,
 * or through a running sudokud (generate_daemon.c).
 *
 * The --generate runner of sudoku-bench: puzzles k = 0 .. count-1 of the
 * batch that starts at the seed, one at a time on the calling thread, with
 * one counting plugin.  Only gen_one() is timed, by the wall clock and by
 * the thread's CPU clock (the machine may be shared); afterwards, untimed,
 * every puzzle is checked: givens against the rules, the solution against
 * the givens, uniqueness by the plugin (limit 2) through the host.
 */
#ifndef SUDOKU_BENCH_GENERATE_H
#define SUDOKU_BENCH_GENERATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/generate.h"
#include "core/host.h"

/* What to generate. */
struct genbench_opts {
    uint64_t count;                  /* puzzles (>= 1) */
    unsigned n;                      /* side: 4, 9, 16 or 25 */
    enum gen_symmetry symmetry;      /* orbit shape of the givens */
    int is_minimal;                  /* 1: minimal puzzles */
    uint64_t seed;                   /* batch seed */
    uint32_t timeout_ms;             /* per-puzzle deadline, 0 = none */
    int progress;                    /* non-zero: show progress on stderr */
    const struct host_plugin *rater; /* with has_band: the explaining plugin */
    int has_band;                    /* only puzzles rated in [min_rating, max_rating] */
    double min_rating, max_rating;   /* the band, inclusive */
    char band[24];                   /* its name for the report ("medium", "3.0-4.0") */
};

/* The figures for one counting plugin. */
struct genbench_result {
    char solver[32];          /* plugin name */
    unsigned n;               /* side */
    const char *symmetry;     /* symmetry name (static) */
    int is_minimal;           /* minimal asked */
    uint64_t seed;            /* batch seed */
    uint64_t puzzles;         /* finished */
    uint64_t wrong;           /* failed the check afterwards */
    uint64_t errors;          /* gen_one() failed (not counting the deadline) */
    uint64_t timeouts;        /* puzzles that hit the per-puzzle deadline */
    double seconds;           /* wall time inside gen_one(), summed */
    double cpu_seconds;       /* thread CPU time inside gen_one(), summed */
    double puzzles_per_s;     /* puzzles / seconds */
    double puzzles_per_cpu_s; /* puzzles / cpu_seconds */
    double us_median;         /* median wall microseconds per puzzle */
    double us_p99;            /* 99th percentile */
    double givens_avg;        /* mean givens per puzzle */
    double solves_avg;        /* mean plugin calls per puzzle */
    char band[24];            /* "" without a band */
    double attempts_avg;      /* full grids made per puzzle to land in the band */
    double rating_avg;        /* mean rating (with a band) */
};

/* Generate o->count puzzles with counting plugin p and fill *out (zeroed
 * first).  Returns 0, or a negative errno with a message in err: -EINVAL
 * when p cannot count or does not take o->n, -ENOMEM. */
int genbench_run(const struct host_plugin *p, const struct genbench_opts *o,
                 struct genbench_result *out, char *err, size_t err_size);

/* How to ask a running daemon (genbench_run_daemon). */
struct genbench_daemon_opts {
    const char *socket; /* socket path (NULL: the client library's default rule) */
    const char *solver; /* counting plugin, NULL: the daemon's default */
    unsigned chunk;     /* puzzles a request, 1..1000 */
    unsigned depth;     /* requests in flight, 1..4096 */
};

/* Ask the daemon at d->socket for puzzles k = 0 .. o->count-1 in requests
 * of d->chunk (request j seeded gen_batch_seed(o->seed, j * d->chunk), as
 * `sudoku generate --seed` does), d->depth in flight, and fill *out (zeroed
 * first): wall time of the whole run, the daemon's CPU time, per-puzzle
 * times from the requests' latencies; solves_avg is 0 (not on the wire).
 * Afterwards every puzzle is checked by the rules and, when checker is
 * non-NULL, for uniqueness with it.  Returns 0 (error answers are counted
 * in out), DAEMON_UNREACHABLE (bench/daemon.h) when the daemon cannot be
 * reached or the connection broke, or -ENOMEM; err then says why. */
int genbench_run_daemon(const struct genbench_opts *o, const struct genbench_daemon_opts *d,
                        const struct host_plugin *checker, struct genbench_result *out, char *err,
                        size_t err_size);

/* Print the table header (once), one row per result, or one JSON line. */
void genbench_report_header(FILE *out);
void genbench_report_row(FILE *out, const void *result);  /* a struct genbench_result */
void genbench_report_json(FILE *out, const void *result); /* a struct genbench_result */

#endif /* SUDOKU_BENCH_GENERATE_H */
