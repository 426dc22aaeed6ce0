/* rate.h -- sudoku-bench --rate: time rating puzzles, in process or through sudokud.
 *
 * In process (rate.c), rating is explain() without text: every step is
 * still recorded and checked by host_explain() against the unique solution
 * (found with the host's default solver), as a daemon would do for the
 * `rate` method.  Through the daemon (rate_daemon.c), every puzzle of a
 * file is read up front (not timed), then sent over one connection with
 * libsudoku-client: without steps, as a rating batch with a window of
 * requests in flight (throughput); with steps (a hint is steps 1), one
 * explain at a time, so the latency of each is its plain round trip (p50,
 * p99).  Every answer is checked: a rating must have a difficulty that
 * matches it, an explanation's placements must keep the grid legal.
 */
#ifndef SUDOKU_BENCH_RATE_H
#define SUDOKU_BENCH_RATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/host.h"

/* The figures for one explaining plugin over one file. */
struct rate_result {
    char solver[32];      /* plugin name */
    const char *file;     /* puzzle file, as given on the command line */
    uint64_t puzzles;     /* puzzle lines read */
    uint64_t solved;      /* rated all the way by logic */
    uint64_t stuck;       /* logic got stuck (rated above every technique) */
    uint64_t not_unique;  /* no solution, or more than one */
    uint64_t errors;      /* lines that do not parse, sizes not explained */
    uint64_t wrong;       /* answers host_explain() refused (-EIO) */
    double seconds;       /* time inside host_explain(), summed */
    double puzzles_per_s; /* host_explain() calls per second */
    double plugin_per_s;  /* explain() alone (no solver, no checks) per second */
    double us_p50;        /* median microseconds per host_explain() */
    double us_p99;        /* 99th percentile */
    double mean_rating;   /* over the puzzles rated */
    double mean_steps;    /* steps per puzzle rated */
    uint32_t max_steps;   /* steps asked for per puzzle, 0 = all (1 = a hint) */
};

/* Rate every puzzle of file with p (solver finds the solutions) into *out.
 * Returns 0, or a negative errno with the message in err. */
int rate_run_file(const struct host_plugin *p, const struct host_plugin *solver, const char *file,
                  struct rate_result *out, char *err, size_t err_size);

/* The same, each explanation stopped after max_steps steps (0 = none; 1 =
 * what a hint costs).  The step counts and the p50/p99 are then those of
 * the shortened explanations; "stuck" counts puzzles stuck within them. */
int rate_run_steps(const struct host_plugin *p, const struct host_plugin *solver, const char *file,
                   uint32_t max_steps, struct rate_result *out, char *err, size_t err_size);

/* Print the table header, a row, or r as one JSON line. */
void rate_report_header(FILE *out);
void rate_report_row(FILE *out, const void *result);  /* a struct rate_result */
void rate_report_json(FILE *out, const void *result); /* a struct rate_result */

/* The figures for one file rated (or explained) through the daemon. */
struct rate_daemon_result {
    char file[64];     /* base name */
    unsigned steps;    /* 0: rate; else explain with at most this many steps */
    uint64_t puzzles;  /* read */
    uint64_t answered; /* rated or explained */
    uint64_t stuck;    /* logic got stuck (rate: logic false; explain: status stuck) */
    uint64_t refused;  /* not_unique, bad_puzzle, ... */
    uint64_t wrong;    /* failed the check */
    double seconds;    /* wall, first send to last answer */
    double per_s;      /* answered / seconds */
    double p50_us;     /* explain: round trip, median */
    double p99_us;     /* explain: 99th percentile */
    double rating_avg; /* mean rating of the answered */
};

/* Run file through the daemon at socket.  Returns 0, or a negative errno
 * with the reason in err: the file's (unreadable), -ENOMEM, or -ENOTCONN
 * when the daemon could not be reached or the connection broke. */
int rate_daemon_run_file(const char *socket, const char *file, unsigned steps, unsigned window,
                         struct rate_daemon_result *out, char *err, size_t err_size);

void rate_daemon_report_header(FILE *out);
void rate_daemon_report_row(FILE *out, const void *result);  /* a struct rate_daemon_result */
void rate_daemon_report_json(FILE *out, const void *result); /* a struct rate_daemon_result */

#endif /* SUDOKU_BENCH_RATE_H */
