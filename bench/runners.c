/* runners.c -- the rows of sudoku-bench's runner table (runner.h).
 *
 * Each row joins a workload to where it runs: the ops below turn the
 * driver's item (a solver and a file) into the call of that workload's
 * runner (solve.c, solve_daemon.c, rate.c, rate_daemon.c, generate.c,
 * generate_daemon.c), say which results fail the run, and name its report.
 * Nothing here loops, times or prints: the driver (driver.c) does that once
 * for every row.
 */
#include <string.h>

#include "bench/daemon.h"
#include "bench/generate.h"
#include "bench/rate.h"
#include "bench/runner.h"
#include "bench/solve.h"
#include "core/host.h"

/* ---------------------------------------------------------------- solve */

static int solve_run(const struct bench_item *it, void *out, char *err, size_t err_size)
{
    return solve_run_file(it->plugin, it->file, &it->cfg->run, out, err, err_size);
}

static int solve_collect(const void *result)
{
    const struct bench_result *r = result;
    return r->wrong || r->errors;
}

static int solve_daemon_run(const struct bench_item *it, void *out, char *err, size_t err_size)
{
    const struct bench_cfg *c = it->cfg;
    struct solve_daemon_opts o = {.socket = c->socket,
                                  .solver = it->solver,
                                  .limit = c->run.limit,
                                  .timeout_ms = c->is_timeout_set ? c->run.timeout_ms : 0,
                                  .connections = c->connections ? c->connections : 1,
                                  .depth = c->depth ? c->depth : 64,
                                  .repeat = c->repeat ? c->repeat : 1};
    return solve_daemon_run_file(&o, it->file, out, err, err_size);
}

static int solve_daemon_collect(const void *result)
{
    const struct bench_daemon_result *r = result;
    return r->wrong || r->errors;
}

/* ---------------------------------------------------------------- rate */

static int rate_run(const struct bench_item *it, void *out, char *err, size_t err_size)
{
    return rate_run_steps(it->plugin, host_default(it->host), it->file, it->cfg->steps, out, err,
                          err_size);
}

static int rate_collect(const void *result)
{
    const struct rate_result *r = result;
    return r->wrong != 0;
}

static int rate_daemon_run(const struct bench_item *it, void *out, char *err, size_t err_size)
{
    const struct bench_cfg *c = it->cfg;
    return rate_daemon_run_file(c->socket, it->file, c->steps, c->depth ? c->depth : 64, out, err,
                                err_size);
}

static int rate_daemon_collect(const void *result)
{
    const struct rate_daemon_result *r = result;
    return r->wrong != 0 || r->refused != 0;
}

/* ---------------------------------------------------------------- generate */

/* The defaults of --generate; in process, a band needs a plugin that rates. */
static int generate_prepare(struct bench_cfg *c, const struct host *h)
{
    c->gen.n = c->gen.n ? c->gen.n : 9;
    c->gen.is_minimal = !c->is_no_minimal;
    c->gen.timeout_ms = c->is_timeout_set ? c->run.timeout_ms : 0;
    c->gen.progress = c->run.progress;
    if (c->socket || !c->gen.has_band)
        return -1;
    c->gen.rater = host_explainer_for(h, c->gen.n);
    if (c->gen.rater)
        return -1;
    fprintf(stderr, "sudoku-bench: a band needs a plugin that rates %ux%u puzzles (logic)\n",
            c->gen.n, c->gen.n);
    return 1;
}

static int generate_run(const struct bench_item *it, void *out, char *err, size_t err_size)
{
    return genbench_run(it->plugin, &it->cfg->gen, out, err, err_size);
}

/* Through the daemon; the plugins here, when they loaded, check uniqueness. */
static int generate_daemon_run(const struct bench_item *it, void *out, char *err, size_t err_size)
{
    const struct bench_cfg *c = it->cfg;
    struct genbench_daemon_opts d = {.socket = c->socket,
                                     .solver = it->solver,
                                     .chunk = c->chunk ? c->chunk : 16,
                                     .depth = c->depth ? c->depth : 32};
    return genbench_run_daemon(&c->gen, &d, it->host ? host_default(it->host) : NULL, out, err,
                               err_size);
}

static int generate_collect(const void *result)
{
    const struct genbench_result *r = result;
    return r->wrong || r->errors || !r->puzzles;
}

/* ---------------------------------------------------------------- the table */

/* The driver keeps one item's result in BENCH_RESULT_MAX bytes. */
_Static_assert(sizeof(struct bench_result) <= BENCH_RESULT_MAX, "solve result");
_Static_assert(sizeof(struct bench_daemon_result) <= BENCH_RESULT_MAX, "solve_daemon result");
_Static_assert(sizeof(struct rate_result) <= BENCH_RESULT_MAX, "rate result");
_Static_assert(sizeof(struct rate_daemon_result) <= BENCH_RESULT_MAX, "rate_daemon result");
_Static_assert(sizeof(struct genbench_result) <= BENCH_RESULT_MAX, "generate result");

static const struct bench_workload solve = {"solve", 1, NULL, NULL};
static const struct bench_workload rate = {"rate", 1, NULL, host_plugin_has_explain};
static const struct bench_workload generate = {"generate", 0, generate_prepare, NULL};

static const struct bench_report solve_report = {solve_collect, bench_report_table_header,
                                                 bench_report_table_row, bench_report_json};
static const struct bench_report solve_daemon_report = {
    solve_daemon_collect, bench_report_daemon_header, bench_report_daemon_row,
    bench_report_daemon_json};
static const struct bench_report rate_report = {rate_collect, rate_report_header, rate_report_row,
                                                rate_report_json};
static const struct bench_report rate_daemon_report = {
    rate_daemon_collect, rate_daemon_report_header, rate_daemon_report_row,
    rate_daemon_report_json};
static const struct bench_report generate_report = {generate_collect, genbench_report_header,
                                                    genbench_report_row, genbench_report_json};

const struct bench_runner bench_runners[] = {
    {&solve, BENCH_IN_PROCESS, BENCH_EVERY_PLUGIN, BENCH_HOST_REQUIRED, solve_run, &solve_report},
    {&solve, BENCH_DAEMON, BENCH_DAEMON_DEFAULT, BENCH_HOST_NONE, solve_daemon_run,
     &solve_daemon_report},
    {&rate, BENCH_IN_PROCESS, BENCH_EVERY_PLUGIN, BENCH_HOST_REQUIRED, rate_run, &rate_report},
    {&rate, BENCH_DAEMON, BENCH_DAEMON_ONLY, BENCH_HOST_NONE, rate_daemon_run, &rate_daemon_report},
    {&generate, BENCH_IN_PROCESS, BENCH_DEFAULT_PLUGIN, BENCH_HOST_REQUIRED, generate_run,
     &generate_report},
    {&generate, BENCH_DAEMON, BENCH_DAEMON_DEFAULT, BENCH_HOST_OPTIONAL, generate_daemon_run,
     &generate_report},
};

const size_t bench_runners_len = sizeof(bench_runners) / sizeof(bench_runners[0]);

const struct bench_runner *bench_runner_find(const char *workload, enum bench_where where)
{
    for (size_t i = 0; i < bench_runners_len; i++)
        if (bench_runners[i].where == where &&
            strcmp(bench_runners[i].workload->name, workload) == 0)
            return &bench_runners[i];
    return NULL;
}
