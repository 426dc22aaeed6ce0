/* bench.h -- what one benchmark run measures, and how it is reported.
 *
 * Shared by every way sudoku-bench can run puzzles (in process today, through
 * a daemon later): a runner fills a struct bench_result per (solver, file) and
 * bench_report_*() prints it.  Nothing here allocates.
 */
#ifndef SUDOKU_BENCH_H
#define SUDOKU_BENCH_H

#include <stdint.h>
#include <stdio.h>

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

/* Print the table header (once) and one row per result. */
void bench_report_table_header(FILE *out);
void bench_report_table_row(FILE *out, const struct bench_result *r);

/* Print r as one JSON object on one line. */
void bench_report_json(FILE *out, const struct bench_result *r);

#endif /* SUDOKU_BENCH_H */
