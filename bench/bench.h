/* bench.h -- what one benchmark run measures, and how it is reported.
 *
 * Shared by every way sudoku-bench can run puzzles (in process today, through
 * a daemon later): a runner fills a struct bench_result per (solver, file) and
 * bench_report_*() prints it.  Only struct bench_samples allocates (its
 * array of latencies, which grows); nothing else here does.
 */
#ifndef SUDOKU_BENCH_H
#define SUDOKU_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct input_record; /* proto/input.h */

/* The figures for one solver over one file. */
struct bench_result {
    char solver[32];           /* plugin name */
    const char *file;          /* puzzle file, as given on the command line */
    uint64_t puzzles;          /* puzzle lines read (comments, blank lines skipped) */
    uint64_t solved;           /* at least one checked solution */
    uint64_t unsolvable;       /* proved to have no solution */
    uint64_t errors;           /* lines that do not parse or whose givens break a rule */
    uint64_t wrong;            /* answers the host rejected (bad solution, count, failure) */
    uint64_t timeouts;         /* hit the per-puzzle timeout */
    uint64_t unsupported;      /* grid size the solver does not take */
    double seconds;            /* time spent inside the solver, summed */
    double puzzles_per_s;      /* solver calls per second of solver time */
    double us_median;          /* median microseconds per solver call */
    double us_p99;             /* 99th percentile microseconds per solver call */
    double guesses_per_puzzle; /* mean work count reported by the plugin */
};

/* The figures for one solver over one file, sent through sudokud. */
struct bench_daemon_result {
    char solver[32];          /* --solver name, else the solver the daemon reported */
    const char *file;         /* puzzle file, as given on the command line */
    unsigned connections;     /* connections used at once */
    unsigned depth;           /* requests in flight per connection, at most */
    uint64_t puzzles;         /* puzzle lines read (comments, blank lines skipped) */
    uint64_t requests;        /* solve requests answered (or lost with the connection) */
    uint64_t solved;          /* answered with a solution that passed the rules */
    uint64_t unsolvable;      /* answered "unsolvable" */
    uint64_t wrong;           /* answered with a solution that broke the rules */
    uint64_t errors;          /* error answers, lost requests and lines that do not parse */
    double seconds;           /* wall time from the first send to the last answer */
    double requests_per_s;    /* requests / seconds */
    double us_p50;            /* median microseconds from send to answer */
    double us_p99;            /* 99th percentile microseconds from send to answer */
    double us_max;            /* slowest request */
    long long daemon_rss_kib; /* daemon VmRSS after the run, -1 when unknown */
    long long daemon_hwm_kib; /* daemon VmHWM after the run, -1 when unknown */
};

/* The daemon's footprint with idle connections open. */
struct bench_idle_result {
    unsigned connections;          /* idle connections held open */
    long long daemon_pid;          /* from SO_PEERCRED */
    long long daemon_rss_base_kib; /* VmRSS before opening them */
    long long daemon_rss_kib;      /* VmRSS with all of them open */
    long long daemon_hwm_kib;      /* VmHWM with all of them open */
};

/* Start a JSON line on out: head (`{"mode":"rate",` or `{`), then
 * "solver":SOLVER,"file":FILE, both escaped (report.c). */
void bench_json_start(FILE *out, const char *head, const char *solver, const char *file);

/* Print the table header (once) and one row per result. */
void bench_report_table_header(FILE *out);
void bench_report_table_row(FILE *out, const void *result); /* a struct bench_result */

/* Print r as one JSON object on one line. */
void bench_report_json(FILE *out, const void *result); /* a struct bench_result */

/* The same for daemon runs: table header, row, JSON line. */
void bench_report_daemon_header(FILE *out);
void bench_report_daemon_row(FILE *out, const void *result);  /* a struct bench_daemon_result */
void bench_report_daemon_json(FILE *out, const void *result); /* a struct bench_daemon_result */

/* Per-call latencies in microseconds, growable: zero it to start, push,
 * then bench_samples_free.  us is owned by the struct. */
struct bench_samples {
    double *us; /* the samples, owned */
    size_t len; /* samples in us */
    size_t cap; /* room in us */
};

/* Append us to s.  Returns 0 or -ENOMEM (s unchanged). */
int bench_samples_push(struct bench_samples *s, double us);

/* Free s's array (s may be zeroed or already freed) and zero s. */
void bench_samples_free(struct bench_samples *s);

/* Sort len latency samples ascending, ready for bench_percentile(). */
void bench_sort(double *v, size_t len);

/* Nearest-rank percentile (0 < pct <= 100) of len sorted values; 0 when len is 0. */
double bench_percentile(const double *sorted, size_t len, double pct);

/* 1 when a puzzle file's line is blank or a '#' comment, else 0. */
int bench_is_skipped(const char *line);

/* The givens of rec (line or grid form) in cells (SDK_MAX_CELLS of them),
 * its side in *n.  Returns 0, or -EINVAL when rec is an error record, its
 * line does not parse or its givens break a rule (record.c). */
int bench_record_cells(const struct input_record *rec, unsigned *n, uint8_t *cells);

/* What to do with one record of a file (ctx is the caller's).  Returns 0,
 * or a negative errno that stops the file. */
typedef int bench_record_fn(void *ctx, const struct input_record *rec);

/* Read file (any form proto/input.c reads) and call fn with each record, in
 * order.  Returns 0, or a negative errno (the file unreadable, or fn's) with
 * "FILE: why" in err (record.c). */
int bench_each_record(const char *file, bench_record_fn *fn, void *ctx, char *err, size_t err_size);

/* What to do with the givens of one puzzle of a file (ctx is the caller's).
 * Returns 0, or a negative errno that stops the file. */
typedef int bench_puzzle_fn(void *ctx, unsigned n, const uint8_t *cells);

/* Read file (any form proto/input.c reads) and call fn with the givens of
 * each record, in order; a record that is not a good puzzle
 * (bench_record_cells) adds one to *errors instead.  Every record adds one
 * to *puzzles.  Returns 0, or a negative errno (the file unreadable, or
 * fn's) with "FILE: why" in err (record.c). */
int bench_each_puzzle(const char *file, bench_puzzle_fn *fn, void *ctx, uint64_t *puzzles,
                      uint64_t *errors, char *err, size_t err_size);

/* bench_puzzle_fn with the puzzle's rules: NULL for classic, else owned
 * by the caller for the call (struct sdk_rules, include/sudoku/plugin.h). */
struct sdk_rules;
typedef int bench_rules_fn(void *ctx, unsigned n, const uint8_t *cells,
                           const struct sdk_rules *rules);

/* bench_each_puzzle for a runner that takes rules: a JSON-lines record
 * ({"puzzle": ..., "rules": {...}}, bench/variants.h) comes with its
 * rules, other records with NULL.  (bench_each_puzzle counts a JSON line
 * as an error.) */
int bench_each_puzzle_rules(const char *file, bench_rules_fn *fn, void *ctx, uint64_t *puzzles,
                            uint64_t *errors, char *err, size_t err_size);

/* Print the idle-connections figures as text or as one JSON line. */
void bench_report_idle(FILE *out, const struct bench_idle_result *r, int json);

#endif /* SUDOKU_BENCH_H */
