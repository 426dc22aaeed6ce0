/* solve_daemon.c -- solve puzzle files through sudokud, C connections at once.
 *
 * The file is read and parsed up front (parsing is not timed), then split
 * into C contiguous ranges, one per connection.  Each connection runs on its
 * own thread as a libsudoku-client batch with a window of D requests, so at
 * most D requests are in flight on it; the threads start together behind a
 * gate and the clock runs from the gate to the last answer.
 *
 * Latency of a request is taken from the moment it is handed to the client
 * library (after any wait for a free window slot) to the moment the library
 * delivers its answer.  The library delivers answers in the order they were
 * sent, so an answer that overtook an earlier one is counted when the earlier
 * one arrives: the figure is what a client of the batch API sees.  With
 * D = 1 there is nothing to overtake and it is the plain round trip.
 *
 * Every solution is checked with grid_check_solution() against the parsed
 * puzzle, on the connection's thread, inside the timed run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/daemon.h"
#include "bench/solve.h"
#include "core/grid.h"
#include "proto/codec.h"
#include "proto/input.h"
#include "util/clock.h"
#include <sudoku/client.h>

/* ---------------------------------------------------------------- puzzles */

/* One puzzle that parsed: its text and cells, by offset into the set's pools. */
struct puzzle {
    size_t text_off;  /* into set->text */
    size_t text_len;  /* bytes of text, line end stripped */
    size_t cells_off; /* into set->cells, n*n values 0..n */
    unsigned n;       /* side */
    uint64_t line;    /* line number in the file, from 1 */
};

/* Every puzzle of a file, in file order. */
struct puzzle_set {
    char *text; /* line texts back to back, owned */
    size_t text_len, text_cap;
    uint8_t *cells; /* parsed cells back to back, owned */
    size_t cells_len, cells_cap;
    struct puzzle *items; /* owned */
    size_t len, cap;
    uint64_t lineno;     /* lines read, comments too */
    uint64_t lines;      /* puzzle lines read */
    uint64_t bad;        /* lines that do not parse or break a rule (not sent) */
    char first_bad[192]; /* why the first bad line is bad, "" if none */
};

/* Make room for need more elements of size elem in *p.  Returns 0 or -ENOMEM. */
static int grow(void **p, size_t *cap, size_t used, size_t need, size_t elem)
{
    size_t want = *cap ? *cap : 4096;
    void *q;

    while (want - used < need)
        want *= 2;
    if (want == *cap)
        return 0;
    q = realloc(*p, want * elem);
    if (!q)
        return -ENOMEM;
    *p = q;
    *cap = want;
    return 0;
}

static void set_free(struct puzzle_set *s)
{
    free(s->text);
    free(s->cells);
    free(s->items);
    memset(s, 0, sizeof(*s));
}

/* Parse one line (len bytes, no line end) and keep it.  Returns 0 or -ENOMEM. */
static int set_add(struct puzzle_set *s, const char *line, size_t len)
{
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS];
    char why[160];
    unsigned n;
    size_t nn;

    s->lines++;
    if (codec_parse_line(line, len, &n, cells, why, sizeof(why)) != 0 ||
        grid_check_givens(n, cells, why, sizeof(why)) != 0) {
        if (s->bad++ == 0)
            snprintf(s->first_bad, sizeof(s->first_bad), "line %llu: %s",
                     (unsigned long long)s->lineno, why);
        return 0;
    }
    nn = (size_t)n * n;
    if (grow((void **)&s->text, &s->text_cap, s->text_len, len, 1) < 0 ||
        grow((void **)&s->cells, &s->cells_cap, s->cells_len, nn, 1) < 0 ||
        grow((void **)&s->items, &s->cap, s->len, 1, sizeof(*s->items)) < 0)
        return -ENOMEM;
    s->items[s->len++] = (struct puzzle){.text_off = s->text_len,
                                         .text_len = len,
                                         .cells_off = s->cells_len,
                                         .n = n,
                                         .line = s->lineno};
    memcpy(s->text + s->text_len, line, len);
    s->text_len += len;
    memcpy(s->cells + s->cells_len, cells, nn);
    s->cells_len += nn;
    return 0;
}

/* bench_record_fn: keep one record of the reader, a line as it is, a grid
 * as its line form.  A bad record counts as bad.  Returns 0 or -ENOMEM. */
static int set_add_record(void *ctx, const struct input_record *rec)
{
    struct puzzle_set *s = ctx;
    char line[SUDOKU_CLIENT_MAX_CELLS + 1];
    int len;

    s->lineno = rec->line;
    if (rec->error[0]) {
        s->lines++;
        if (s->bad++ == 0)
            snprintf(s->first_bad, sizeof(s->first_bad), "line %llu: %.160s",
                     (unsigned long long)rec->line, rec->error);
        return 0;
    }
    if (rec->format == INPUT_LINE)
        return set_add(s, rec->text, rec->len);
    len = codec_format_line(rec->n, rec->cells, CODEC_BLANK_DOT, line, sizeof(line));
    return set_add(s, line, len < 0 ? 0 : (size_t)len);
}

/* Repeat the puzzles of s times times over (the pools are shared).
 * Returns 0 or -ENOMEM. */
static int set_repeat(struct puzzle_set *s, unsigned times)
{
    size_t len = s->len;

    if (times <= 1 || len == 0)
        return 0;
    if (len > SIZE_MAX / sizeof(*s->items) / times)
        return -ENOMEM;
    if (grow((void **)&s->items, &s->cap, len, len * (times - 1), sizeof(*s->items)) < 0)
        return -ENOMEM;
    for (unsigned t = 1; t < times; t++)
        memcpy(s->items + (size_t)t * len, s->items, len * sizeof(*s->items));
    s->len = len * times;
    s->lines *= times;
    s->bad *= times;
    return 0;
}

/* Load file into s (zeroed first).  Returns 0 or a negative errno with err set. */
static int set_load(struct puzzle_set *s, const char *file, char *err, size_t err_size)
{
    memset(s, 0, sizeof(*s));
    return bench_each_record(file, set_add_record, s, err, err_size);
}

/* ---------------------------------------------------------------- one connection */

/* Holds the connection threads until every one exists, so they start together. */
struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int is_open;
};

/* One connection's share of the run.  Written only by its own thread until joined. */
struct conn_run {
    const struct solve_daemon_opts *o;
    const struct puzzle_set *set;
    struct gate *gate;
    size_t first, last;      /* puzzles [first, last) go over this connection */
    uint64_t *send_ns;       /* per puzzle of the set, shared; this thread writes its range */
    uint64_t *recv_ns;       /* likewise; 0 = not answered */
    struct sudoku_client *c; /* owned by solve_daemon_run_file */
    uint64_t solved, unsolvable, wrong, errors;
    uint64_t end_ns;                      /* when the last answer arrived */
    char solver[SUDOKU_CLIENT_NAME_SIZE]; /* solver named by the first answer */
    char first_error[SUDOKU_CLIENT_MESSAGE_SIZE + SUDOKU_CLIENT_CODE_SIZE + 64]; /* "" if none */
    int rc;                         /* 0 or the connection's negative errno */
    struct sudoku_client_error err; /* why the connection failed */
};

static void note_error(struct conn_run *r, uint64_t tag, const char *what, const char *why)
{
    if (r->first_error[0] == '\0')
        snprintf(r->first_error, sizeof(r->first_error), "line %llu: %s: %s",
                 (unsigned long long)r->set->items[tag].line, what, why);
}

/* sudoku_client_batch_cb: account for one answer; tag is the puzzle's index in the set. */
static void on_answer(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_result *res)
{
    struct conn_run *r = arg;
    const struct puzzle *p = &r->set->items[tag];
    char why[128];

    (void)seq;
    r->recv_ns[tag] = clock_now_ns();
    if (r->solver[0] == '\0' && res->solver[0])
        snprintf(r->solver, sizeof(r->solver), "%s", res->solver);
    if (res->status == SUDOKU_CLIENT_UNSOLVABLE) {
        r->unsolvable++;
    } else if (res->status == SUDOKU_CLIENT_FAILED) {
        r->errors++;
        note_error(r, tag, res->error.code, res->error.message);
    } else if (res->n != p->n) {
        r->wrong++;
        note_error(r, tag, "wrong answer", "solution of another size");
    } else if (grid_check_solution(p->n, r->set->cells + p->cells_off, res->cells, why,
                                   sizeof(why)) != 0) {
        r->wrong++;
        note_error(r, tag, "wrong answer", why);
    } else {
        r->solved++;
    }
}

static void gate_wait(struct gate *g)
{
    pthread_mutex_lock(&g->mu);
    while (!g->is_open)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

static void gate_open(struct gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->is_open = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Send this connection's range through one batch. */
static int conn_send_all(struct conn_run *r, struct sudoku_client_batch *b)
{
    const struct puzzle_set *s = r->set;
    int rc = 0;

    for (size_t i = r->first; rc == 0 && i < r->last; i++) {
        const struct puzzle *p = &s->items[i];
        /* A full window makes the add wait for an answer first; the request
         * leaves only then, so its clock starts after the add returns. */
        int is_full = sudoku_client_batch_pending(b) >= r->o->depth;
        r->send_ns[i] = clock_now_ns();
        rc = sudoku_client_batch_add(b, s->text + p->text_off, p->text_len, i, &r->err);
        if (is_full && r->recv_ns[i] == 0)
            r->send_ns[i] = clock_now_ns();
    }
    return rc ? rc : sudoku_client_batch_finish(b, &r->err);
}

static void *conn_main(void *arg)
{
    struct conn_run *r = arg;
    struct sudoku_client_options opts = {
        .solver = r->o->solver, .limit = (unsigned)r->o->limit, .timeout_ms = r->o->timeout_ms};
    struct sudoku_client_batch *b = NULL;

    gate_wait(r->gate);
    r->rc = sudoku_client_batch_new(r->c, r->o->depth, &opts, on_answer, r, &b);
    if (r->rc < 0)
        snprintf(r->err.message, sizeof(r->err.message), "cannot start a batch: %s",
                 strerror(-r->rc));
    else
        r->rc = conn_send_all(r, b);
    r->end_ns = clock_now_ns();
    sudoku_client_batch_free(b);
    return NULL;
}

/* ---------------------------------------------------------------- the run */

/* Percentiles of every answered request.  Returns 0 or -ENOMEM. */
static int latencies(const struct puzzle_set *s, const uint64_t *send_ns, const uint64_t *recv_ns,
                     struct bench_daemon_result *out)
{
    double *us = malloc((s->len ? s->len : 1) * sizeof(*us));
    size_t len = 0;

    if (!us)
        return -ENOMEM;
    for (size_t i = 0; i < s->len; i++)
        if (recv_ns[i])
            us[len++] = (double)(recv_ns[i] - send_ns[i]) / 1e3;
    bench_sort(us, len);
    out->us_p50 = bench_percentile(us, len, 50.0);
    out->us_p99 = bench_percentile(us, len, 99.0);
    out->us_max = len ? us[len - 1] : 0.0;
    free(us);
    return 0;
}

/* Add up the connections' counts into out; print each one's first error. */
static int collect(const struct solve_daemon_opts *o, struct conn_run *runs, uint64_t t0,
                   struct bench_daemon_result *out, char *err, size_t err_size)
{
    uint64_t end = t0;
    int rc = 0;

    for (unsigned k = 0; k < o->connections; k++) {
        struct conn_run *r = &runs[k];
        out->requests += r->solved + r->unsolvable + r->wrong + r->errors;
        out->solved += r->solved;
        out->unsolvable += r->unsolvable;
        out->wrong += r->wrong;
        out->errors += r->errors;
        if (r->end_ns > end)
            end = r->end_ns;
        if (out->solver[0] == '\0' && r->solver[0])
            snprintf(out->solver, sizeof(out->solver), "%s", r->solver);
        if (r->first_error[0])
            fprintf(stderr, "sudoku-bench: %s: %s (first of %llu on connection %u)\n", out->file,
                    r->first_error, (unsigned long long)(r->errors + r->wrong), k + 1);
        if (r->rc < 0 && rc == 0) {
            rc = DAEMON_UNREACHABLE;
            snprintf(err, err_size, "connection %u failed: %s", k + 1, r->err.message);
        }
    }
    out->seconds = (double)(end - t0) / 1e9;
    out->requests_per_s = out->seconds > 0 ? (double)out->requests / out->seconds : 0.0;
    return rc;
}

/* Start one thread per connection, open the gate, wait for them all.
 * Returns 0 or a negative errno (no thread could be started). */
static int run_threads(const struct solve_daemon_opts *o, struct conn_run *runs, uint64_t *t0)
{
    struct gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    pthread_t *tids = calloc(o->connections, sizeof(*tids));
    unsigned started = 0;
    int rc = 0;

    if (!tids)
        return -ENOMEM;
    for (; started < o->connections; started++) {
        runs[started].gate = &gate;
        rc = -pthread_create(&tids[started], NULL, conn_main, &runs[started]);
        if (rc < 0)
            break;
    }
    *t0 = clock_now_ns();
    gate_open(&gate);
    for (unsigned k = 0; k < started; k++)
        pthread_join(tids[k], NULL);
    free(tids);
    return rc;
}

/* Connect every connection.  Returns 0 or DAEMON_UNREACHABLE with err set. */
static int connect_all(const struct solve_daemon_opts *o, struct conn_run *runs, char *err,
                       size_t err_size)
{
    struct sudoku_client_error cerr;

    for (unsigned k = 0; k < o->connections; k++) {
        if (sudoku_client_connect(o->socket, &runs[k].c, &cerr) < 0) {
            snprintf(err, err_size, "%s (is sudokud running?)", cerr.message);
            return DAEMON_UNREACHABLE;
        }
    }
    return 0;
}

/* Split the set over the connections and run them.  Returns as solve_daemon_run_file. */
static int run_set(const struct solve_daemon_opts *o, const struct puzzle_set *s,
                   struct bench_daemon_result *out, char *err, size_t err_size)
{
    uint64_t *send_ns = calloc(s->len + 1, sizeof(*send_ns));
    uint64_t *recv_ns = calloc(s->len + 1, sizeof(*recv_ns));
    struct conn_run *runs = calloc(o->connections, sizeof(*runs));
    uint64_t t0 = 0;
    int rc = -ENOMEM;

    if (!send_ns || !recv_ns || !runs)
        goto fail;
    for (unsigned k = 0; k < o->connections; k++)
        runs[k] = (struct conn_run){.o = o,
                                    .set = s,
                                    .first = s->len * k / o->connections,
                                    .last = s->len * (k + 1) / o->connections,
                                    .send_ns = send_ns,
                                    .recv_ns = recv_ns};
    rc = connect_all(o, runs, err, err_size);
    if (rc < 0)
        goto fail;
    rc = run_threads(o, runs, &t0);
    if (rc < 0) {
        snprintf(err, err_size, "cannot start a thread: %s", strerror(-rc));
        goto fail;
    }
    rc = collect(o, runs, t0, out, err, err_size);
    if (rc == 0 && latencies(s, send_ns, recv_ns, out) < 0) {
        rc = -ENOMEM;
        snprintf(err, err_size, "out of memory");
    }
fail:
    if (rc == -ENOMEM && !err[0])
        snprintf(err, err_size, "out of memory");
    for (unsigned k = 0; runs && k < o->connections; k++)
        sudoku_client_free(runs[k].c);
    free(runs);
    free(send_ns);
    free(recv_ns);
    return rc;
}

int solve_daemon_run_file(const struct solve_daemon_opts *o, const char *file,
                          struct bench_daemon_result *out, char *err, size_t err_size)
{
    struct puzzle_set set;
    int rc;

    memset(out, 0, sizeof(*out));
    err[0] = '\0';
    out->file = file;
    out->connections = o->connections;
    out->depth = o->depth;
    out->daemon_rss_kib = out->daemon_hwm_kib = -1;
    if (o->solver)
        snprintf(out->solver, sizeof(out->solver), "%s", o->solver);
    rc = set_load(&set, file, err, err_size);
    if (rc == 0 && set_repeat(&set, o->repeat) < 0) {
        rc = -ENOMEM;
        snprintf(err, err_size, "%s: out of memory for %u repeats", file, o->repeat);
    }
    if (rc == 0) {
        out->puzzles = set.lines;
        if (set.bad)
            fprintf(stderr, "sudoku-bench: %s: %llu lines not sent, the first at %s\n", file,
                    (unsigned long long)set.bad, set.first_bad);
        rc = run_set(o, &set, out, err, err_size);
        /* Lines that never left are errors too, so they show in the counts. */
        out->errors += set.bad;
    }
    if (rc == 0)
        daemon_memory(o->socket, &out->daemon_rss_kib, &out->daemon_hwm_kib);
    set_free(&set);
    return rc;
}
