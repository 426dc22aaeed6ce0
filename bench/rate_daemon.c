/* rate_daemon.c -- rate and hint through a running sudokud (rate.h). */
#include "bench/rate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "core/grid.h"
#include "proto/codec.h"
#include "proto/input.h"
#include "proto/protocol.h"
#include "util/clock.h"
#include "util/json.h"
#include <sudoku/client.h>

/* The puzzles of a file, each in line form with '.' blanks. */
struct lines {
    char (*v)[SUDOKU_CLIENT_MAX_CELLS + 1];
    size_t len, cap;
};

/* bench_record_fn: keep a record's puzzle as a line (a bad record, none). */
static int lines_add(void *ctx, const struct input_record *rec)
{
    struct lines *l = ctx;

    if (rec->error[0])
        return 0;
    if (l->len == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        void *v = realloc(l->v, cap * sizeof(*l->v));
        if (!v)
            return -ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    if (rec->format == INPUT_LINE) {
        if (rec->len >= sizeof(l->v[0]))
            return 0;
        memcpy(l->v[l->len], rec->text, rec->len);
        l->v[l->len][rec->len] = '\0';
    } else if (codec_format_line(rec->n, rec->cells, CODEC_BLANK_DOT, l->v[l->len],
                                 sizeof(l->v[0])) < 0)
        return 0;
    l->len++;
    return 0;
}

/* Load file into l (zeroed first; freed again on failure).  Returns 0 or a
 * negative errno with err set. */
static int lines_load(struct lines *l, const char *file, char *err, size_t err_size)
{
    int rc;

    memset(l, 0, sizeof(*l));
    rc = bench_each_record(file, lines_add, l, err, err_size);
    if (rc < 0) {
        free(l->v);
        l->v = NULL;
    }
    return rc;
}

/* ---------------------------------------------------------------- rate */

static void on_rating(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_rating *res)
{
    struct rate_daemon_result *r = arg;

    (void)seq;
    (void)tag;
    if (res->status != SUDOKU_CLIENT_SOLVED) {
        r->refused++;
        return;
    }
    r->answered++;
    r->rating_avg += res->rating;
    r->stuck += !res->is_logic;
    if (strcmp(res->difficulty, proto_difficulty_of(res->rating)) != 0)
        r->wrong++;
}

static int run_rate(struct sudoku_client *c, const struct lines *l, unsigned window,
                    struct rate_daemon_result *r, struct sudoku_client_error *e)
{
    struct sudoku_client_batch *b = NULL;
    int rc = sudoku_client_batch_new_rate(c, window, NULL, on_rating, r, &b);

    for (size_t i = 0; rc == 0 && i < l->len; i++)
        rc = sudoku_client_batch_add(b, l->v[i], strlen(l->v[i]), i, e);
    if (rc == 0)
        rc = sudoku_client_batch_finish(b, e);
    sudoku_client_batch_free(b);
    return rc;
}

/* ---------------------------------------------------------------- hints */

/* The placements keep puzzle's grid legal (the daemon checked them against
 * the solution; this checks what arrived).  Returns 1 or 0. */
static int explanation_ok(const char *puzzle, const struct sudoku_client_explanation *x)
{
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS];
    unsigned n;

    if (codec_parse_line(puzzle, strlen(puzzle), &n, cells, NULL, 0) < 0 || x->n != n ||
        x->steps_len == 0)
        return 0;
    for (size_t s = 0; s < x->steps_len; s++)
        for (size_t k = 0; k < x->steps[s].placements_len; k++) {
            const struct sudoku_client_cell_value *cv = &x->steps[s].placements[k];
            if (cells[cv->cell])
                return 0;
            cells[cv->cell] = cv->value;
        }
    return grid_check_givens(n, cells, NULL, 0) == 0;
}

static int run_hints(struct sudoku_client *c, const struct lines *l, unsigned steps,
                     struct rate_daemon_result *r, double *us, struct sudoku_client_error *e)
{
    struct sudoku_client_explain_opts o = {.steps = steps};

    for (size_t i = 0; i < l->len; i++) {
        struct sudoku_client_explanation *x = NULL;
        uint64_t t0 = clock_now_ns();
        int rc = sudoku_client_explain(c, l->v[i], strlen(l->v[i]), &o, &x, e);
        us[i] = (double)(clock_now_ns() - t0) / 1e3;
        if (rc == -EREMOTEIO) {
            r->refused++;
            continue;
        }
        if (rc < 0)
            return rc;
        r->answered++;
        r->rating_avg += x->rating;
        r->stuck += x->status == SUDOKU_CLIENT_EXPLAIN_STUCK;
        r->wrong += !explanation_ok(l->v[i], x);
        sudoku_client_explanation_free(x);
    }
    return 0;
}

/* ---------------------------------------------------------------- runner */

static void result_init(struct rate_daemon_result *r, const char *file, unsigned steps)
{
    const char *base = strrchr(file, '/');

    memset(r, 0, sizeof(*r));
    snprintf(r->file, sizeof(r->file), "%s", base ? base + 1 : file);
    r->steps = steps;
}

int rate_daemon_run_file(const char *socket, const char *file, unsigned steps, unsigned window,
                         struct rate_daemon_result *out, char *err, size_t err_size)
{
    struct sudoku_client_error e = {{0}, {0}};
    struct sudoku_client *c = NULL;
    struct lines l;
    double *us = NULL;
    uint64_t t0;
    int rc;

    result_init(out, file, steps);
    rc = lines_load(&l, file, err, err_size);
    if (rc < 0)
        return rc;
    out->puzzles = l.len;
    rc = sudoku_client_connect(socket, &c, &e);
    if (rc == 0 && steps && !(us = malloc((l.len ? l.len : 1) * sizeof(*us))))
        rc = -ENOMEM;
    t0 = clock_now_ns();
    if (rc == 0)
        rc = steps ? run_hints(c, &l, steps, out, us, &e) : run_rate(c, &l, window, out, &e);
    out->seconds = (double)(clock_now_ns() - t0) / 1e9;
    if (rc < 0) {
        snprintf(err, err_size, "%s: %s: %s", file, e.code[0] ? e.code : "error",
                 e.message[0] ? e.message : strerror(-rc));
        rc = rc == -ENOMEM ? rc : -ENOTCONN; /* the daemon, not the file */
    }
    out->per_s = out->seconds > 0 ? (double)out->answered / out->seconds : 0;
    if (out->answered)
        out->rating_avg /= (double)out->answered;
    if (rc == 0 && us && l.len) {
        bench_sort(us, l.len);
        out->p50_us = bench_percentile(us, l.len, 50);
        out->p99_us = bench_percentile(us, l.len, 99);
    }
    free(us);
    free(l.v);
    sudoku_client_free(c);
    return rc;
}

void rate_daemon_report_header(FILE *out)
{
    fprintf(out, "%-8s %-26s %5s %8s %8s %6s %7s %5s %10s %9s %9s %6s\n", "method", "file", "steps",
            "puzzles", "answered", "stuck", "refused", "wrong", "per_s", "p50_us", "p99_us",
            "rating");
}

void rate_daemon_report_row(FILE *out, const void *result)
{
    const struct rate_daemon_result *r = result;
    fprintf(out, "%-8s %-26s %5u %8llu %8llu %6llu %7llu %5llu %10.1f %9.1f %9.1f %6.2f\n",
            r->steps ? "explain" : "rate", r->file, r->steps, (unsigned long long)r->puzzles,
            (unsigned long long)r->answered, (unsigned long long)r->stuck,
            (unsigned long long)r->refused, (unsigned long long)r->wrong, r->per_s, r->p50_us,
            r->p99_us, r->rating_avg);
}

void rate_daemon_report_json(FILE *out, const void *result)
{
    const struct rate_daemon_result *r = result;
    fputs("{\"daemon\":true,\"method\":", out);
    json_put_string(out, r->steps ? "explain" : "rate");
    fputs(",\"file\":", out);
    json_put_string(out, r->file);
    fprintf(out,
            ",\"steps\":%u,\"puzzles\":%llu,\"answered\":%llu,\"stuck\":%llu,\"refused\":%llu"
            ",\"wrong\":%llu,\"seconds\":%.6f,\"per_s\":%.1f,\"us_p50\":%.2f,\"us_p99\":%.2f"
            ",\"rating_avg\":%.3f}\n",
            r->steps, (unsigned long long)r->puzzles, (unsigned long long)r->answered,
            (unsigned long long)r->stuck, (unsigned long long)r->refused,
            (unsigned long long)r->wrong, r->seconds, r->per_s, r->p50_us, r->p99_us,
            r->rating_avg);
}
