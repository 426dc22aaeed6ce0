/* rated.h -- rate and hint through a running sudokud.
 *
 * The daemon half of `sudoku-bench --rate`: every puzzle of a file is read
 * up front (not timed), then sent over one connection with libsudoku-client.
 * Without steps, as a rating batch with a window of requests in flight
 * (throughput); with steps (a hint is steps 1), one explain at a time, so the
 * latency of each is its plain round trip (p50, p99).  Every answer is
 * checked: a rating must have a difficulty that matches it, an explanation's
 * placements must keep the grid legal.
 */
#ifndef SUDOKU_BENCH_RATED_H
#define SUDOKU_BENCH_RATED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rated_result {
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
int rated_run_file(const char *socket, const char *file, unsigned steps, unsigned window,
                   struct rated_result *out, char *err, size_t err_size);

void rated_report_header(FILE *out);
void rated_report_row(FILE *out, const struct rated_result *r);
void rated_report_json(FILE *out, const struct rated_result *r);

#endif /* SUDOKU_BENCH_RATED_H */
