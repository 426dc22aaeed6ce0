/* main.c -- sudoku-bench: time solver plugins over puzzle files.
 *
 * main() is the table of contents: parse the options, pick the row of the
 * runner table (runners.c) for the workload (solve; --rate; --generate N)
 * and where it runs (in this process; with --socket, through a running
 * sudokud), load the plugins the row needs, and let the one driver
 * (driver.c) run it.  --idle-connections K instead measures the daemon's
 * memory with K connections open (daemon.c).  Every runner checks every
 * answer.
 *
 * Exit status: 0 when every answer was right, 1 when an answer was wrong or
 * something failed (unreadable file, no plugins, error answers), 2 on a usage
 * error, 3 when the daemon cannot be reached or a connection to it broke.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/daemon.h"
#include "bench/runner.h"
#include "core/host.h"
#include "proto/protocol.h"
#include "util/opts.h"
#include <sudoku/client.h>

#define BENCH_MAX_CONNS    1024    /* --connections at most */
#define BENCH_MAX_IDLE     100000  /* --idle-connections at most */
#define BENCH_MAX_GENERATE 1000000 /* --generate at most */

static int g_verbose; /* read by the log callback; set once before loading */

/* ---------------------------------------------------------------- options */

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

static int on_solver(void *cfg, const char *arg, char *err, size_t err_size)
{
    int rc = split_solvers(cfg, arg);
    if (rc == -ENOMEM)
        snprintf(err, err_size, "out of memory");
    else if (rc < 0)
        snprintf(err, err_size, "want up to %d names separated by commas", BENCH_MAX_SOLVERS);
    return rc;
}

static int on_timeout(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct bench_cfg *c = cfg;
    unsigned long long v;

    if (opts_number(arg, 10, 0, 86400000, &v, err, err_size) < 0)
        return -EINVAL;
    c->run.timeout_ms = (uint32_t)v;
    c->is_timeout_set = 1;
    return 0;
}

static int on_size(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct bench_cfg *c = cfg;
    unsigned long long v;

    if (opts_number(arg, 10, 4, 25, &v, err, err_size) < 0 || !sdk_box_side((uint32_t)v)) {
        snprintf(err, err_size, "want 4, 9, 16 or 25");
        return -EINVAL;
    }
    c->gen.n = (unsigned)v;
    return 0;
}

static int on_symmetry(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct bench_cfg *c = cfg;

    if (gen_symmetry_parse(arg, &c->gen.symmetry) < 0) {
        snprintf(err, err_size, "want none, rotate180, rotate90, mirror, flip or diagonal");
        return -EINVAL;
    }
    return 0;
}

static int on_difficulty(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct bench_cfg *c = cfg;

    if (proto_difficulty_band(arg, strlen(arg), &c->gen.min_rating, &c->gen.max_rating) < 0) {
        snprintf(err, err_size, "want one of %s", PROTO_DIFFICULTIES);
        return -EINVAL;
    }
    c->gen.has_band = 1;
    snprintf(c->gen.band, sizeof(c->gen.band), "%s", arg);
    return 0;
}

/* MIN-MAX, two ratings. */
static int on_rating(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct bench_cfg *c = cfg;
    char *end;
    double lo = strtod(arg, &end), hi;

    if (end == arg || *end != '-') {
        snprintf(err, err_size, "want MIN-MAX, e.g. 3.0-4.5");
        return -EINVAL;
    }
    arg = end + 1;
    hi = strtod(arg, &end);
    if (end == arg || *end || !(lo >= 0 && lo <= hi && hi <= 1000)) {
        snprintf(err, err_size, "want MIN-MAX with 0 <= MIN <= MAX <= 1000");
        return -EINVAL;
    }
    c->gen.has_band = 1;
    c->gen.min_rating = lo;
    c->gen.max_rating = hi;
    snprintf(c->gen.band, sizeof(c->gen.band), "%.1f-%.1f", lo, hi);
    return 0;
}

/* The command line, in --help order. */
static const struct opts_spec option_table[] = {
    {"plugin-dir", 'P', "DIR", "load plugins from DIR (default: next to the program)",
     OPTS_STRING_AT(struct bench_cfg, plugin_dir)},
    {"solver", 0, "A,B",
     "solvers to run (default: every loaded plugin; with\n"
     "--socket: the daemon's default solver)",
     OPTS_CALL_TO(on_solver)},
    {"limit", 0, "N", "solutions to look for per puzzle (default 2)",
     OPTS_NUMBER_AT(struct bench_cfg, run.limit, 1, UINT64_MAX)},
    {"timeout-ms", 0, "MS",
     "per-puzzle timeout, 0 = none (default 10000; with\n"
     "--socket: the daemon's default)",
     OPTS_CALL_TO(on_timeout)},
    {"json", 0, NULL, "one JSON object per line per (solver, file)",
     OPTS_FLAG_AT(struct bench_cfg, json)},
    {"verbose", 'v', NULL, "show every plugin loader message",
     OPTS_FLAG_AT(struct bench_cfg, verbose)},
    {"rate", 0, NULL,
     "rate the puzzles (explain without text, every step\n"
     "checked) with each plugin that can explain; with\n"
     "--socket, through the daemon's rate method",
     OPTS_FLAG_AT(struct bench_cfg, rate)},
    {"steps", 0, "N",
     "with --rate: stop each explanation after N steps\n"
     "(1 = a hint), 0 = every step (default); with\n"
     "--socket, one explain request at a time: the round trip",
     OPTS_NUMBER_AT(struct bench_cfg, steps, 0, UINT32_MAX)},
    OPTS_SECTION_ROW("Through the daemon (every answer is checked by the rules):"),
    {"socket", 's', "PATH", "send the puzzles to the sudokud listening on PATH",
     OPTS_STRING_AT(struct bench_cfg, socket)},
    {"connections", 0, "C", "connections at once, one thread each (default 1)",
     OPTS_NUMBER_AT(struct bench_cfg, connections, 1, BENCH_MAX_CONNS)},
    {"depth", 0, "D",
     "requests in flight per connection, 1..4096 (default\n"
     "64; 1 = one at a time, the round-trip latency)",
     OPTS_NUMBER_AT(struct bench_cfg, depth, 1, SUDOKU_CLIENT_MAX_WINDOW)},
    {"repeat", 0, "N",
     "send each file N times over (default 1), for\n"
     "more samples",
     OPTS_NUMBER_AT(struct bench_cfg, repeat, 1, 10000)},
    {"idle-connections", 0, "K",
     "open K connections, ping each, and report the daemon's\n"
     "resident memory (VmRSS, VmHWM); takes no FILE",
     OPTS_NUMBER_AT(struct bench_cfg, idle, 1, BENCH_MAX_IDLE)},
    OPTS_SECTION_ROW("Generating puzzles (in this process, one thread, or with --socket through\n"
                     "the daemon; every puzzle checked):"),
    {"generate", 0, "N",
     "time the generation of N unique puzzles with the\n"
     "counting plugin --solver (default: the default solver)",
     OPTS_NUMBER_AT(struct bench_cfg, gen.count, 1, BENCH_MAX_GENERATE)},
    {"size", 0, "N", "side of the generated puzzles: 4, 9, 16, 25 (default 9)",
     OPTS_CALL_TO(on_size)},
    {"symmetry", 0, "NAME",
     "none (default), rotate180, rotate90, mirror, flip,\n"
     "diagonal",
     OPTS_CALL_TO(on_symmetry)},
    {"seed", 0, "S", "batch seed (default 1)",
     OPTS_NUMBER_AT(struct bench_cfg, gen.seed, 0, UINT64_MAX)},
    {"no-minimal", 0, NULL, "unique but not minimal puzzles",
     OPTS_FLAG_AT(struct bench_cfg, is_no_minimal)},
    {"difficulty", 0, "NAME",
     "only puzzles the logic plugin rates in that band:\n"
     "easy, medium, hard, expert, extreme",
     OPTS_CALL_TO(on_difficulty)},
    {"rating", 0, "MIN-MAX", "only puzzles rated in MIN..MAX", OPTS_CALL_TO(on_rating)},
    {"chunk", 0, "K",
     "with --socket: puzzles a generate request, 1..1000\n"
     "(default 16, as sudoku generate; --depth: requests\n"
     "in flight, default 32)",
     OPTS_NUMBER_AT(struct bench_cfg, chunk, 1, 1000)},
    {"help", 'h', NULL, "show this help and exit", .kind = OPTS_HELP},
    {"version", 'V', NULL, "show the version and exit", .kind = OPTS_VERSION},
};

static const struct opts_prog option_prog = {
    .name = "sudoku-bench",
    .usage = "usage: sudoku-bench [options] FILE...\n"
             "       sudoku-bench --socket PATH [--connections C] [--depth D] [options] FILE...\n"
             "       sudoku-bench --idle-connections K [--socket PATH] [--json]\n"
             "       sudoku-bench --generate N [--size N] [--symmetry NAME] [--solver A,B]\n"
             "       sudoku-bench --generate N --socket PATH [--chunk K] [--depth D] [...]\n"
             "Time solver plugins over puzzle files (one puzzle a line, '#' comments):\n"
             "in this process, on one thread, or through a running sudokud.\n"
             "\n",
    .footer = "\n"
              "Exit status: 0 all answers right, 1 wrong answers or failures, 2 usage,\n"
              "3 the daemon cannot be reached.\n",
    .specs = option_table,
    .specs_len = sizeof(option_table) / sizeof(option_table[0]),
    .help_column = 25,
};

/* Options that only make sense together, and the operands from index
 * first on.  Returns -1 to go on, else 2. */
static int check_args(int argc, int first, struct bench_cfg *c)
{
    if (c->gen.count) {
        if (first < argc || c->idle || c->rate || c->connections || c->repeat) {
            opts_usage_error(&option_prog, "--generate takes no FILE, --idle-connections, "
                                           "--rate, --connections or --repeat");
            return 2;
        }
        if (!c->socket && (c->chunk || c->depth)) {
            opts_usage_error(&option_prog, "--chunk and --depth need --socket");
            return 2;
        }
        return -1;
    }
    if (c->gen.n || c->is_no_minimal || c->gen.has_band || c->chunk) {
        opts_usage_error(
            &option_prog,
            "--size, --no-minimal, --difficulty, --rating and --chunk need --generate");
        return 2;
    }
    if (c->idle) {
        if (first < argc) {
            opts_usage_error(&option_prog, "--idle-connections takes no FILE");
            return 2;
        }
        return -1;
    }
    if (first >= argc) {
        fprintf(stderr, "sudoku-bench: no puzzle file given\n");
        opts_help(&option_prog, stderr);
        return 2;
    }
    if (c->steps && !c->rate) {
        opts_usage_error(&option_prog, "--steps needs --rate");
        return 2;
    }
    if (c->rate && c->socket && (c->connections || c->repeat)) {
        opts_usage_error(&option_prog, "--rate through the daemon takes one connection");
        return 2;
    }
    if (c->rate && c->socket && c->steps && c->depth) {
        opts_usage_error(&option_prog, "--steps sends one request at a time: no --depth");
        return 2;
    }
    if (!c->socket && (c->connections || c->depth || c->repeat)) {
        opts_usage_error(&option_prog, "--connections, --depth and --repeat need --socket");
        return 2;
    }
    if (c->socket && c->run.limit > UINT32_MAX) {
        opts_usage_error(&option_prog, "--limit through the daemon is at most %u", UINT32_MAX);
        return 2;
    }
    return -1;
}

/* Returns -1 to go on, else the exit status (0 after --help/--version). */
static int parse_args(int argc, char **argv, struct bench_cfg *c)
{
    int first = argc;
    int rc = opts_parse(&option_prog, argc, argv, c, &first);

    if (rc < 0)
        return 2;
    if (rc == OPTS_SHOW_HELP) {
        opts_help(&option_prog, stdout);
        return 0;
    }
    if (rc == OPTS_SHOW_VERSION) {
        printf("sudoku-bench %s\n", SUDOKU_VERSION);
        return 0;
    }
    rc = check_args(argc, first, c);
    if (rc >= 0)
        return rc;
    c->files = argv + first;
    c->files_len = argc - first;
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

static int run_idle(const struct bench_cfg *c)
{
    struct bench_idle_result r;
    char err[512];
    int rc = daemon_idle(c->socket, c->idle, &r, err, sizeof(err));

    if (rc < 0) {
        fprintf(stderr, "sudoku-bench: %s\n", err);
        return rc == DAEMON_UNREACHABLE ? 3 : 1;
    }
    bench_report_idle(stdout, &r, c->json);
    return 0;
}

/* The row for what c asks: the workload, in process or through the daemon. */
static const struct bench_runner *pick_runner(const struct bench_cfg *c)
{
    const char *workload = c->rate ? "rate" : c->gen.count ? "generate" : "solve";

    return bench_runner_find(workload, c->socket ? BENCH_DAEMON : BENCH_IN_PROCESS);
}

int main(int argc, char **argv)
{
    struct bench_cfg cfg = {.run = {.limit = 2, .timeout_ms = 10000}, .gen = {.seed = 1}};
    const struct bench_runner *r;
    struct host *h = NULL;
    int status;

    status = parse_args(argc, argv, &cfg);
    if (status >= 0)
        goto done;
    g_verbose = cfg.verbose;
    cfg.run.progress = isatty(STDERR_FILENO);
    if (cfg.idle) {
        status = run_idle(&cfg);
        goto done;
    }
    r = pick_runner(&cfg);
    status = r->workload->has_files ? check_files(&cfg) : 0;
    if (status)
        goto done;
    status = 1;
    if (r->host != BENCH_HOST_NONE)
        h = load_plugins(&cfg);
    if (!h && r->host == BENCH_HOST_REQUIRED)
        goto done;
    status = r->host == BENCH_HOST_REQUIRED ? check_solvers(h, &cfg) : 0;
    if (status == 0)
        status = bench_drive(r, &cfg, h);
done:
    host_free(h);
    free(cfg.solver_arg);
    return status;
}
