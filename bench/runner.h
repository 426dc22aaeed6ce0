/* runner.h -- sudoku-bench's runner table: one row per (workload, where).
 *
 * A workload (solve, rate, generate) runs in this process or through a
 * running sudokud.  Each pair is a row of ops that one driver (driver.c)
 * calls: prepare the run once (the workload's), run one item (a puzzle file
 * for a solver, or one generation run: the pair's), collect what the item's
 * result means for the exit status, and report it (a table header, a row,
 * or a JSON line: the result's).  The
 * driver owns everything the runs share: which solvers, which files, the
 * order, the report, the exit status.  The rows are in runners.c; a new
 * workload or a new way to reach the work is a row there.
 */
#ifndef SUDOKU_BENCH_RUNNER_H
#define SUDOKU_BENCH_RUNNER_H

#include <stddef.h>
#include <stdio.h>

#include "bench/bench.h"
#include "bench/generate.h"
#include "bench/rate.h"
#include "bench/solve.h"
#include "core/host.h"

#define BENCH_MAX_SOLVERS 32  /* --solver names at most */
#define BENCH_RESULT_MAX  512 /* bytes of any row's result struct, at most */

/* Everything the command line says. */
struct bench_cfg {
    const char *plugin_dir;                 /* -P, NULL = default */
    const char *solvers[BENCH_MAX_SOLVERS]; /* --solver, split on ',' */
    size_t solvers_len;                     /* 0 = every loaded plugin */
    char *solver_arg;                       /* owns the strings in solvers */
    struct solve_opts run;                  /* limit, timeout, progress */
    const char *socket;                     /* -s: run through sudokud */
    unsigned connections;                   /* --connections (default 1) */
    unsigned depth;                         /* --depth (default 64) */
    unsigned idle;                          /* --idle-connections, 0 = off */
    struct genbench_opts gen;               /* --generate N (count 0 = off), --size, ... */
    int is_no_minimal;                      /* --no-minimal */
    unsigned chunk;                         /* --chunk: puzzles a generate request */
    unsigned repeat;                        /* --repeat (default 1) */
    int is_timeout_set;                     /* --timeout-ms given */
    int json;                               /* --json */
    int rate;                               /* --rate: rate with explain() */
    unsigned steps;                         /* --steps N with --rate (hint: 1), 0 = every step */
    int verbose;                            /* -v: show info log lines */
    char **files;                           /* FILE... (points into argv) */
    int files_len;
};

/* One item of a run: what a row's run op gets. */
struct bench_item {
    const struct bench_cfg *cfg;      /* the command line */
    const struct host *host;          /* the loaded plugins, or NULL */
    const struct host_plugin *plugin; /* in process: the plugin to time */
    const char *solver;               /* through the daemon: --solver, NULL: its default */
    const char *file;                 /* the puzzle file; NULL when the row takes none */
};

/* Where a row's work runs. */
enum bench_where {
    BENCH_IN_PROCESS, /* plugins loaded here, one thread */
    BENCH_DAEMON      /* through the sudokud at --socket */
};

/* Which solvers a row runs, without --solver (with it: those names). */
enum bench_solvers {
    BENCH_EVERY_PLUGIN,   /* every loaded plugin (that the row can run) */
    BENCH_DEFAULT_PLUGIN, /* the host's default plugin */
    BENCH_DAEMON_DEFAULT, /* one run, the daemon's default (solver NULL) */
    BENCH_DAEMON_ONLY     /* one run, the daemon's default, even with --solver */
};

/* What a row needs of the plugins in this process. */
enum bench_host {
    BENCH_HOST_NONE,     /* nothing: they are not loaded */
    BENCH_HOST_OPTIONAL, /* load them if they load (a checker afterwards) */
    BENCH_HOST_REQUIRED  /* no plugin, no run (exit 1); --solver names checked */
};

/* What a workload is wherever it runs. */
struct bench_workload {
    const char *name; /* "solve", "rate", "generate" */
    int has_files;    /* 1: one item per FILE; 0: one item a solver */
    /* Once before any item: defaults and checks on c, with the host (NULL
     * unless loaded).  Returns -1 to go on, else the exit status (said on
     * stderr).  NULL: nothing to prepare. */
    int (*prepare)(struct bench_cfg *c, const struct host *h);
    /* 1 when the workload can run plugin p (BENCH_EVERY_PLUGIN); NULL: any. */
    int (*can_run)(const struct host_plugin *p);
};

/* How a row's result reads: its collect and its report.  A result is the
 * row's own struct (bench_result, rate_result, ...). */
struct bench_report {
    /* 1 when a result makes the exit status 1 (wrong answers, failures). */
    int (*collect)(const void *result);
    /* The table's header (printed once), a row, or one JSON line. */
    void (*header)(FILE *out);
    void (*row)(FILE *out, const void *result);
    void (*json)(FILE *out, const void *result);
};

/* One row: a workload at one place. */
struct bench_runner {
    const struct bench_workload *workload; /* what runs */
    enum bench_where where;                /* where it runs */
    enum bench_solvers solvers;            /* which solvers */
    enum bench_host host;                  /* what it needs loaded */
    /* Run one item into *out (the row's result struct).  Returns 0,
     * DAEMON_UNREACHABLE (the run stops, exit 3), or another negative errno
     * (exit 1); err then says why. */
    int (*run)(const struct bench_item *it, void *out, char *err, size_t err_size);
    const struct bench_report *report; /* how its result reads */
};

/* The rows (runners.c) and how many. */
extern const struct bench_runner bench_runners[];
extern const size_t bench_runners_len;

/* The row of workload at where, or NULL. */
const struct bench_runner *bench_runner_find(const char *workload, enum bench_where where);

/* Run every item of row r as c says, with host h (NULL unless loaded):
 * prepare, then for each solver and each item run, report and collect.
 * Returns the exit status: 0, 1 (a failure or a result collect() refused)
 * or 3 (the daemon unreachable: the run stopped there). */
int bench_drive(const struct bench_runner *r, struct bench_cfg *c, const struct host *h);

#endif /* SUDOKU_BENCH_RUNNER_H */
