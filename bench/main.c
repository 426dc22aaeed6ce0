/* main.c -- sudoku-bench: time solver plugins over puzzle files.
 *
 * main() is the table of contents: parse the options, load the plugins,
 * pick the solvers, run every (solver, file) pair, report.  The work of
 * running puzzles lives in a runner (inproc.c runs them in this process); a
 * runner that goes through sudokud would take the same options and fill the
 * same struct bench_result, and slot in next to run_inproc().
 *
 * Exit status: 0 when every answer was right, 1 when an answer was wrong or
 * something failed (unreadable file, no plugins), 2 on a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/inproc.h"
#include "daemon/host.h"

#define BENCH_MAX_SOLVERS 32 /* --solver names at most */

/* Everything the command line says. */
struct bench_cfg {
    const char *plugin_dir;                 /* --plugin-dir, NULL = default */
    const char *solvers[BENCH_MAX_SOLVERS]; /* --solver, split on ',' */
    size_t solvers_len;                     /* 0 = every loaded plugin */
    char *solver_arg;                       /* owns the strings in solvers */
    struct inproc_opts run;                 /* limit, timeout, progress */
    int json;                               /* --json */
    int verbose;                            /* --verbose: show info log lines */
    char **files;                           /* FILE... (points into argv) */
    int files_len;
};

static int g_verbose; /* read by the log callback; set once before loading */

/* ---------------------------------------------------------------- options */

static void usage(FILE *out)
{
    fprintf(out, "usage: sudoku-bench [options] FILE...\n"
                 "Time solver plugins over puzzle files (one puzzle a line, '#' comments).\n"
                 "\n"
                 "  --plugin-dir DIR   load plugins from DIR (default: next to the program)\n"
                 "  --solver A,B       solvers to run (default: every loaded plugin)\n"
                 "  --limit N          solutions to look for per puzzle (default 2)\n"
                 "  --timeout-ms MS    per-puzzle timeout, 0 = none (default 10000)\n"
                 "  --json             one JSON object per line per (solver, file)\n"
                 "  --verbose          show every plugin loader message\n"
                 "  --help, --version\n");
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    if (*s == '-' || *s == '\0')
        return -EINVAL;
    v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -EINVAL;
    *out = v;
    return 0;
}

static int split_solvers(struct bench_cfg *c, const char *arg)
{
    char *save = NULL;

    free(c->solver_arg);
    c->solver_arg = strdup(arg);
    if (!c->solver_arg)
        return -ENOMEM;
    c->solvers_len = 0;
    for (char *t = strtok_r(c->solver_arg, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (c->solvers_len == BENCH_MAX_SOLVERS)
            return -E2BIG;
        c->solvers[c->solvers_len++] = t;
    }
    return c->solvers_len ? 0 : -EINVAL;
}

/* One option.  Returns 0, or 2 after printing a usage error. */
static int parse_opt(struct bench_cfg *c, int opt, const char *arg)
{
    uint64_t v;

    switch (opt) {
    case 'd':
        c->plugin_dir = arg;
        return 0;
    case 's':
        if (split_solvers(c, arg) == 0)
            return 0;
        fprintf(stderr, "sudoku-bench: --solver wants names separated by commas: '%s'\n", arg);
        return 2;
    case 'l':
        if (parse_u64(arg, 1, UINT64_MAX, &c->run.limit) == 0)
            return 0;
        fprintf(stderr, "sudoku-bench: --limit wants a number >= 1: '%s'\n", arg);
        return 2;
    case 't':
        if (parse_u64(arg, 0, 86400000, &v) == 0) {
            c->run.timeout_ms = (uint32_t)v;
            return 0;
        }
        fprintf(stderr, "sudoku-bench: --timeout-ms wants 0..86400000: '%s'\n", arg);
        return 2;
    case 'j':
        c->json = 1;
        return 0;
    case 'v':
        c->verbose = 1;
        return 0;
    default:
        fprintf(stderr, "Try 'sudoku-bench --help'.\n");
        return 2;
    }
}

/* Returns -1 to go on, else the exit status (0 after --help/--version). */
static int parse_args(int argc, char **argv, struct bench_cfg *c)
{
    static const struct option opts[] = {{"plugin-dir", required_argument, NULL, 'd'},
                                         {"solver", required_argument, NULL, 's'},
                                         {"limit", required_argument, NULL, 'l'},
                                         {"timeout-ms", required_argument, NULL, 't'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    int opt;

    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (opt == 'h') {
            usage(stdout);
            return 0;
        }
        if (opt == 'V') {
            printf("sudoku-bench %s\n", SUDOKU_VERSION);
            return 0;
        }
        int rc = parse_opt(c, opt, optarg);
        if (rc)
            return rc;
    }
    if (optind >= argc) {
        fprintf(stderr, "sudoku-bench: no puzzle file given\n");
        usage(stderr);
        return 2;
    }
    c->files = argv + optind;
    c->files_len = argc - optind;
    return -1;
}

/* ---------------------------------------------------------------- plugins */

static void log_stderr(void *ctx, int level, const char *msg)
{
    (void)ctx;
    if (level <= SDK_LOG_WARNING || g_verbose)
        fprintf(stderr, "sudoku-bench: %s\n", msg);
}

/* Load the plugins.  Returns the host, or NULL after printing why. */
static struct host *load_plugins(const struct bench_cfg *c)
{
    char dir[4096];
    struct host *h = host_new(log_stderr, NULL);
    int rc;

    if (!h) {
        fprintf(stderr, "sudoku-bench: out of memory\n");
        return NULL;
    }
    if (c->plugin_dir)
        snprintf(dir, sizeof(dir), "%s", c->plugin_dir);
    else if (host_default_plugin_dir(dir, sizeof(dir)) < 0) {
        fprintf(stderr, "sudoku-bench: plugin directory path too long\n");
        goto fail;
    }
    rc = host_load_dir(h, dir);
    if (rc <= 0) {
        fprintf(stderr, "sudoku-bench: no plugin loaded from %s\n", dir);
        goto fail;
    }
    return h;
fail:
    host_free(h);
    return NULL;
}

/* Check that every --solver name is loaded.  Returns 0 or 2. */
static int check_solvers(const struct host *h, const struct bench_cfg *c)
{
    for (size_t i = 0; i < c->solvers_len; i++) {
        if (host_find(h, c->solvers[i]))
            continue;
        fprintf(stderr, "sudoku-bench: no solver named '%s'; loaded:", c->solvers[i]);
        for (size_t k = 0; k < host_count(h); k++)
            fprintf(stderr, " %s", host_plugin_at(h, k)->desc->name);
        fprintf(stderr, "\n");
        return 2;
    }
    return 0;
}

/* Check that every file can be read, so a typo fails once and early.
 * Returns 0 or 1. */
static int check_files(const struct bench_cfg *c)
{
    for (int i = 0; i < c->files_len; i++) {
        if (access(c->files[i], R_OK) != 0) {
            fprintf(stderr, "sudoku-bench: %s: %s\n", c->files[i], strerror(errno));
            return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- running */

static void report(const struct bench_cfg *c, const struct bench_result *r, int *header_done)
{
    if (c->json) {
        bench_report_json(stdout, r);
    } else {
        if (!*header_done)
            bench_report_table_header(stdout);
        *header_done = 1;
        bench_report_table_row(stdout, r);
    }
    fflush(stdout);
}

/* Run one solver over every file.  Returns 0 or 1. */
static int run_solver(const struct bench_cfg *c, const struct host_plugin *p, int *header_done)
{
    struct bench_result r;
    char err[512];
    int status = 0;

    for (int i = 0; i < c->files_len; i++) {
        if (inproc_run_file(p, c->files[i], &c->run, &r, err, sizeof(err)) < 0) {
            fprintf(stderr, "sudoku-bench: %s\n", err);
            status = 1;
            continue;
        }
        report(c, &r, header_done);
        if (r.wrong)
            status = 1;
    }
    return status;
}

static int run_inproc(const struct bench_cfg *c, const struct host *h)
{
    size_t len = c->solvers_len ? c->solvers_len : host_count(h);
    int header_done = 0;
    int status = 0;

    for (size_t i = 0; i < len; i++) {
        const struct host_plugin *p =
            c->solvers_len ? host_find(h, c->solvers[i]) : host_plugin_at(h, i);
        if (run_solver(c, p, &header_done))
            status = 1;
    }
    return status;
}

int main(int argc, char **argv)
{
    struct bench_cfg cfg = {.run = {.limit = 2, .timeout_ms = 10000}};
    struct host *h = NULL;
    int status;

    status = parse_args(argc, argv, &cfg);
    if (status >= 0)
        goto done;
    g_verbose = cfg.verbose;
    cfg.run.progress = isatty(STDERR_FILENO);
    status = check_files(&cfg);
    if (status)
        goto done;
    status = 1;
    h = load_plugins(&cfg);
    if (!h)
        goto done;
    status = check_solvers(h, &cfg);
    if (status)
        goto done;
    status = run_inproc(&cfg, h);
done:
    host_free(h);
    free(cfg.solver_arg);
    return status;
}
