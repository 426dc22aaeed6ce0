/* record.c -- the records of a puzzle file, as givens a runner can time.
 *
 * Every runner reads its files with the tool's reader (proto/input.c)
 * through the one loop here.  The in-process runners (solve.c solves,
 * rate.c rates) take each record as a grid of givens, made the same way:
 * an error record, a line that does not parse and givens that break a rule
 * are all the file's errors, never the solver's.  The runs through the
 * daemon keep the records' text to send.  None of this is timed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/variants.h"
#include "core/grid.h"
#include "core/rules.h"
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

int bench_each_record(const char *file, bench_record_fn *fn, void *ctx, char *err, size_t err_size)
{
    struct input_record rec;
    struct input in;
    int rc = input_open(&in, file, INPUT_AUTO), more = 0;
    int is_open = rc == 0;

    in.takes_json = 1; /* a '{' line is a JSON-lines record: the runner decides */
    while (rc == 0 && (more = input_next(&in, &rec)) > 0)
        rc = fn(ctx, &rec);
    if (rc == 0 && more < 0)
        rc = more;
    if (rc < 0)
        snprintf(err, err_size, "%s: %s", file, strerror(-rc));
    if (is_open)
        input_close(&in);
    return rc;
}

/* bench_each_puzzle()'s state around bench_each_record(). */
struct each_puzzle {
    bench_puzzle_fn *fn;
    bench_rules_fn *rules_fn; /* or NULL: a JSON line is an error */
    void *ctx;
    uint64_t *puzzles, *errors;
};

/* A JSON-lines record: its givens and rules to e->rules_fn. */
static int on_json(struct each_puzzle *e, const struct input_record *rec)
{
    uint8_t cells[SDK_MAX_CELLS];
    struct rules *rules = NULL;
    unsigned n;
    int rc;

    if (!e->rules_fn || rec->error[0]) {
        ++*e->errors;
        return 0;
    }
    rc = bench_variant_line(rec->text, rec->len, &n, cells, &rules);
    if (rc == -EINVAL)
        ++*e->errors;
    if (rc < 0)
        return rc == -EINVAL ? 0 : rc;
    rc = e->rules_fn(e->ctx, n, cells, rules_sdk(rules));
    rules_free(rules);
    return rc;
}

static int on_record(void *ctx, const struct input_record *rec)
{
    struct each_puzzle *e = ctx;
    uint8_t cells[SDK_MAX_CELLS];
    unsigned n;

    ++*e->puzzles;
    if (rec->format == INPUT_JSON)
        return on_json(e, rec);
    if (bench_record_cells(rec, &n, cells) != 0) {
        ++*e->errors;
        return 0;
    }
    return e->rules_fn ? e->rules_fn(e->ctx, n, cells, NULL) : e->fn(e->ctx, n, cells);
}

int bench_each_puzzle(const char *file, bench_puzzle_fn *fn, void *ctx, uint64_t *puzzles,
                      uint64_t *errors, char *err, size_t err_size)
{
    struct each_puzzle e = {fn, NULL, ctx, puzzles, errors};

    return bench_each_record(file, on_record, &e, err, err_size);
}

int bench_each_puzzle_rules(const char *file, bench_rules_fn *fn, void *ctx, uint64_t *puzzles,
                            uint64_t *errors, char *err, size_t err_size)
{
    struct each_puzzle e = {NULL, fn, ctx, puzzles, errors};

    return bench_each_record(file, on_record, &e, err, err_size);
}
