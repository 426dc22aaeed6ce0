/* record.c -- the records of a puzzle file, as givens a runner can time.
 *
 * The in-process runners (solve.c solves, rate.c rates) read their files
 * with the tool's reader (proto/input.c) through the one loop here, which
 * turns each record into a grid of givens the same way: an error record, a
 * line that does not parse and givens that break a rule are all the file's
 * errors, never the solver's.  None of this is timed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "core/grid.h"
#include "proto/codec.h"
#include "proto/input.h"

int bench_record_cells(const struct input_record *rec, unsigned *n, uint8_t *cells)
{
    *n = rec->n;
    if (rec->error[0])
        return -EINVAL;
    if (rec->format == INPUT_LINE) {
        if (codec_parse_line(rec->text, rec->len, n, cells, NULL, 0) != 0)
            return -EINVAL;
    } else {
        memcpy(cells, rec->cells, (size_t)*n * *n);
    }
    if (grid_check_givens(*n, cells, NULL, 0) != 0)
        return -EINVAL;
    return 0;
}

int bench_each_puzzle(const char *file, bench_puzzle_fn *fn, void *ctx, uint64_t *puzzles,
                      uint64_t *errors, char *err, size_t err_size)
{
    uint8_t cells[SDK_MAX_CELLS];
    struct input_record rec;
    struct input in;
    unsigned n;
    int rc = input_open(&in, file, INPUT_AUTO), more = 0;
    int is_open = rc == 0;

    while (rc == 0 && (more = input_next(&in, &rec)) > 0) {
        ++*puzzles;
        if (bench_record_cells(&rec, &n, cells) != 0)
            ++*errors;
        else
            rc = fn(ctx, n, cells);
    }
    if (rc == 0 && more < 0)
        rc = more;
    if (rc < 0)
        snprintf(err, err_size, "%s: %s", file, strerror(-rc));
    if (is_open)
        input_close(&in);
    return rc;
}
