/* driver.c -- the one loop of sudoku-bench: every solver, every item, one report.
 *
 * Whatever the row (runner.h), a run goes the same way: prepare once; for
 * each solver (the --solver names, or what the row runs without them) and
 * each item (each FILE, or one run when the row takes none), run the item,
 * print a failure on stderr or the result (the table's header before its
 * first row, or one JSON line), and fold the result into the exit status.
 * A daemon that cannot be reached stops everything: exit 3.
 */
#include <stddef.h>
#include <stdio.h>

#include "bench/daemon.h"
#include "bench/runner.h"

/* One drive: the row, what it runs with, how it went. */
struct drive {
    const struct bench_runner *r;
    const struct bench_cfg *c;
    int is_header_done; /* the table's header is out */
    int status;         /* 0, 1 or 3 so far */
};

/* How many solvers the row runs: the --solver names, else its own choice. */
static size_t solvers_len(const struct drive *d, const struct host *h)
{
    if (d->r->solvers == BENCH_DAEMON_ONLY)
        return 1;
    if (d->c->solvers_len)
        return d->c->solvers_len;
    return d->r->solvers == BENCH_EVERY_PLUGIN ? host_count(h) : 1;
}

/* Fill solver i of the row into it.  Returns 0 when the row cannot run it. */
static int pick_solver(const struct drive *d, size_t i, struct bench_item *it)
{
    const struct bench_cfg *c = d->c;

    if (d->r->where == BENCH_DAEMON) {
        it->solver = d->r->solvers == BENCH_DAEMON_ONLY || !c->solvers_len ? NULL : c->solvers[i];
        return 1;
    }
    if (c->solvers_len)
        it->plugin = host_find(it->host, c->solvers[i]);
    else if (d->r->solvers == BENCH_EVERY_PLUGIN)
        it->plugin = host_plugin_at(it->host, i);
    else
        it->plugin = host_default(it->host);
    return !d->r->workload->can_run || d->r->workload->can_run(it->plugin);
}

static void report(struct drive *d, const void *result)
{
    const struct bench_report *rep = d->r->report;

    if (d->c->json) {
        rep->json(stdout, result);
    } else {
        if (!d->is_header_done)
            rep->header(stdout);
        d->is_header_done = 1;
        rep->row(stdout, result);
    }
    fflush(stdout);
}

/* Run one item and fold its result into d->status. */
static void run_item(struct drive *d, const struct bench_item *it)
{
    _Alignas(max_align_t) unsigned char result[BENCH_RESULT_MAX];
    char err[512];
    int rc = d->r->run(it, result, err, sizeof(err));

    if (rc < 0) {
        fprintf(stderr, "sudoku-bench: %s\n", err);
        rc = rc == DAEMON_UNREACHABLE ? 3 : 1;
    } else {
        report(d, result);
        rc = d->r->report->collect(result);
    }
    d->status = rc > d->status ? rc : d->status;
}

int bench_drive(const struct bench_runner *r, struct bench_cfg *c, const struct host *h)
{
    struct drive d = {.r = r, .c = c};
    const struct bench_workload *w = r->workload;
    int rc = w->prepare ? w->prepare(c, h) : -1;
    size_t len = solvers_len(&d, h);

    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < len && d.status != 3; i++) {
        struct bench_item it = {.cfg = c, .host = h};
        if (!pick_solver(&d, i, &it))
            continue;
        if (!w->has_files)
            run_item(&d, &it);
        for (int f = 0; w->has_files && f < c->files_len && d.status != 3; f++) {
            it.file = c->files[f];
            run_item(&d, &it);
        }
    }
    return d.status;
}
