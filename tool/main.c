/* main.c -- the sudoku tool: solve puzzles through sudokud from a shell.
 *
 *   sudoku [options] [FILE...]     solve (run.c)
 *   sudoku solvers | stats | ping  ask the daemon
 *   sudoku hint | explain | rate   human-style steps and ratings (hint.c)
 *   sudoku generate [options]      new puzzles (generate.c)
 *
 * main() is the table of contents: parse the command line, pick the
 * subcommand, return its exit code.  Everything that talks to the daemon
 * goes through libsudoku-client; with --local the plugins run in this
 * process instead (local.c); this file only prints.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/local.h"
#include "tool/tool.h"
#include "util/json.h"
#include "util/opts.h"

#ifndef SUDOKU_VERSION
#define SUDOKU_VERSION "0.0.0"
#endif

/* ------------------------------------------------------------------------ */
/* Help */

static const char usage_head[] =
    "usage: sudoku [options] [FILE...]\n"
    "       sudoku count [options] [FILE...]\n"
    "       sudoku solvers|stats|ping [options]\n"
    "       sudoku hint|explain [options] [FILE]\n"
    "       sudoku rate [options] [FILE...]\n"
    "       sudoku generate [options]   (see: sudoku generate --help)\n"
    "\n"
    "Solve the puzzles in FILEs (or stdin) through the sudokud daemon and print\n"
    "the solutions in input order.\n"
    "\n";

static const char usage_foot[] =
    "\n"
    "Exit status: 0 all solved, 1 some unsolvable or failed, 2 usage error,\n"
    "3 cannot reach the daemon.\n";

static const char usage_solvers[] = "usage: sudoku solvers [-s PATH] [--json]\n"
                                    "List the daemon's solvers: name, version, sizes, default.\n";
static const char usage_stats[] = "usage: sudoku stats [-s PATH] [--json]\n"
                                  "Print the daemon's counters.\n";
static const char usage_ping[] = "usage: sudoku ping [-s PATH] [--json]\n"
                                 "Check that the daemon answers; print the round-trip time.\n";
static const char usage_hint[] =
    "usage: sudoku hint [-s PATH] [--progress FILE] [--steps N] [--solver NAME]\n"
    "                   [--timeout MS] [--format F] [--json] [FILE]\n"
    "Print the next step a person would take on each puzzle, in words (the\n"
    "easiest technique that applies; --steps N: the next N).  --progress FILE\n"
    "holds the player's grid for each puzzle, in order: the hint starts there,\n"
    "and wrong entries are named first.  --json: one object per puzzle.\n";
static const char usage_explain[] =
    "usage: sudoku explain [-s PATH] [--progress FILE] [--steps N] [--solver NAME]\n"
    "                      [--timeout MS] [--format F] [--json] [FILE]\n"
    "Print every step of each puzzle, numbered, then a summary line: status,\n"
    "steps, rating, difficulty and hardest technique (docs/techniques.md).\n"
    "--json: one object per puzzle, the keys of the explain answer.\n";
static const char usage_rate[] =
    "usage: sudoku rate [-s PATH] [--solver NAME] [--timeout MS] [-w N] [--format F]\n"
    "                   [--local [-P DIR]] [--json] [FILE...]\n"
    "Rate each puzzle for a person: one line \"rating difficulty hardest\" a\n"
    "puzzle (e.g. \"2.6 medium locked_candidates_pointing\"), in input order.\n"
    "A puzzle without exactly one solution is an error (not_unique).  With\n"
    "--local, the plugins of this process rate (-P DIR: from DIR).\n";

/* ------------------------------------------------------------------------ */
/* Subcommands */

static int cmd_ping(const struct tool_opts *o)
{
    struct sudoku_client_error err;
    uint64_t rtt = 0;
    struct sudoku_client *c = tool_connect(o);
    if (!c)
        return EXIT_UNREACHABLE;
    int rc = sudoku_client_ping(c, &rtt, &err);
    if (rc < 0)
        fprintf(stderr, "sudoku: ping: %s: %s\n", err.code, err.message);
    else if (o->is_json)
        printf("{\"status\":\"pong\",\"rtt_us\":%llu}\n", (unsigned long long)rtt);
    else
        printf("pong from %s in %llu us\n", sudoku_client_path(c), (unsigned long long)rtt);
    sudoku_client_free(c);
    return rc < 0 ? EXIT_UNREACHABLE : EXIT_ALL_SOLVED;
}

static void sizes_text(unsigned mask, char *out, size_t size)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    size_t len = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < 4 && len < size; k++)
        if (mask & (1u << k))
            len += (size_t)snprintf(out + len, size - len, "%s%u", len ? "," : "", sides[k]);
}

static void print_solver(const struct tool_opts *o, const struct sudoku_client_solver *s, int first)
{
    char sizes[32];
    sizes_text(s->sizes, sizes, sizeof(sizes));
    if (!o->is_json) {
        printf("%-10s %-8s %-12s %-7s %s\n", s->name, s->version, sizes,
               s->is_default ? "default" : "", s->description);
        return;
    }
    fputs(first ? "{\"name\":" : ",{\"name\":", stdout);
    json_put_string(stdout, s->name);
    fputs(",\"version\":", stdout);
    json_put_string(stdout, s->version);
    fputs(",\"description\":", stdout);
    json_put_string(stdout, s->description);
    printf(",\"sizes\":[%s],\"default\":%s}", sizes, s->is_default ? "true" : "false");
}

/* sudoku solvers --local: the plugins this process loads. */
static int cmd_solvers_local(const struct tool_opts *o)
{
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    struct local *l;
    size_t len;

    if (local_open(o->plugin_dir, o->is_verbose, &l) < 0)
        return EXIT_UNREACHABLE;
    len = local_solvers(l, list, SUDOKU_CLIENT_MAX_SOLVERS);
    local_free(l);
    if (o->is_json)
        putchar('[');
    for (size_t i = 0; i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++)
        print_solver(o, &list[i], i == 0);
    if (o->is_json)
        puts("]");
    return EXIT_ALL_SOLVED;
}

static int cmd_solvers(const struct tool_opts *o)
{
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    struct sudoku_client_error err;
    size_t len = 0;
    if (o->is_local)
        return cmd_solvers_local(o);
    struct sudoku_client *c = tool_connect(o);
    if (!c)
        return EXIT_UNREACHABLE;
    int rc = sudoku_client_solvers(c, list, SUDOKU_CLIENT_MAX_SOLVERS, &len, &err);
    sudoku_client_free(c);
    if (rc < 0) {
        fprintf(stderr, "sudoku: solvers: %s: %s\n", err.code, err.message);
        return strcmp(err.code, "closed") == 0 || strcmp(err.code, "io") == 0 ? EXIT_UNREACHABLE
                                                                              : EXIT_SOME_FAILED;
    }
    if (o->is_json)
        putchar('[');
    for (size_t i = 0; i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++)
        print_solver(o, &list[i], i == 0);
    if (o->is_json)
        puts("]");
    return EXIT_ALL_SOLVED;
}

static void print_stats(const struct tool_opts *o, const struct sudoku_client_stats *st)
{
    const char *fmt = o->is_json ? "{\"uptime_s\":%llu,\"connections\":%llu,\"requests\":%llu,"
                                   "\"errors\":%llu,\"in_flight\":%llu,\"solvers\":{"
                                 : "uptime_s     %llu\nconnections  %llu\nrequests     %llu\n"
                                   "errors       %llu\nin_flight    %llu\n";
    printf(fmt, (unsigned long long)st->uptime_s, (unsigned long long)st->connections,
           (unsigned long long)st->requests, (unsigned long long)st->errors,
           (unsigned long long)st->in_flight);
    for (size_t i = 0; i < st->solvers_len; i++) {
        const struct sudoku_client_solver_stats *s = &st->solvers[i];
        if (o->is_json) {
            fputs(i ? "," : "", stdout);
            json_put_string(stdout, s->name);
        } else {
            printf("solver %s:", s->name);
        }
        printf(o->is_json ? ":{\"solved\":%llu,\"unsolvable\":%llu,\"timeouts\":%llu,"
                            "\"errors\":%llu,\"busy_us\":%llu}"
                          : " solved %llu, unsolvable %llu, timeouts %llu, errors %llu, "
                            "busy_us %llu\n",
               (unsigned long long)s->solved, (unsigned long long)s->unsolvable,
               (unsigned long long)s->timeouts, (unsigned long long)s->errors,
               (unsigned long long)s->busy_us);
    }
    if (o->is_json)
        puts("}}");
}

static int cmd_stats(const struct tool_opts *o)
{
    struct sudoku_client_stats st;
    struct sudoku_client_error err;
    struct sudoku_client *c = tool_connect(o);
    if (!c)
        return EXIT_UNREACHABLE;
    int rc = sudoku_client_stats(c, &st, &err);
    sudoku_client_free(c);
    if (rc < 0) {
        fprintf(stderr, "sudoku: stats: %s: %s\n", err.code, err.message);
        return EXIT_SOME_FAILED;
    }
    print_stats(o, &st);
    return EXIT_ALL_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* Command line */

/* --output F: how answers are printed, whatever the input. */
static int on_output(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct tool_opts *o = cfg;
    if (strcmp(arg, "grid") == 0 || strcmp(arg, "judge") == 0)
        o->output = TOOL_OUT_GRID;
    else if (strcmp(arg, "line") == 0)
        o->output = TOOL_OUT_LINE;
    else if (strcmp(arg, "json") == 0)
        o->is_json = 1;
    else {
        snprintf(err, err_size, "want line, grid, judge or json");
        return -EINVAL;
    }
    return 0;
}

/* --format F: the input's form, and the answers' too (json: answers only). */
static int on_format(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct tool_opts *o = cfg;
    if (strcmp(arg, "grid") == 0 || strcmp(arg, "judge") == 0)
        o->format = INPUT_GRID;
    else if (strcmp(arg, "line") == 0)
        o->format = INPUT_LINE;
    else if (strcmp(arg, "auto") == 0)
        o->format = INPUT_AUTO;
    else if (strcmp(arg, "json") != 0) {
        snprintf(err, err_size, "want grid, judge, line, json or auto");
        return -EINVAL;
    }
    return strcmp(arg, "auto") == 0 ? 0 : on_output(cfg, arg, err, err_size);
}

/* The command line, in --help order; sudoku(1) describes each. */
static const struct opts_spec option_table[] = {
    {"socket", 's', "PATH",
     "daemon socket (default: $SUDOKUD_SOCKET, else\n"
     "$XDG_RUNTIME_DIR/sudokud.sock and then\n"
     "/run/sudokud/sudokud.sock; root: the latter)",
     OPTS_STRING_AT(struct tool_opts, socket)},
    {"format", 0, "F",
     "input format: grid (n lines of n numbers, 0 blank),\n"
     "line (one puzzle per line) or auto (default);\n"
     "judge is grid; the answers follow (json: answers only)",
     OPTS_CALL_TO(on_format)},
    {"output", 0, "F",
     "print answers as line, grid (judge) or json,\n"
     "whatever the input's form (default: as the input)",
     OPTS_CALL_TO(on_output)},
    {"solver", 0, "NAME", "solver to use (see: sudoku solvers)",
     OPTS_STRING_AT(struct tool_opts, solve.solver)},
    {"limit", 0, "N", "stop after N solutions (default 1)",
     OPTS_NUMBER_AT(struct tool_opts, solve.limit, 1, 1000000)},
    {"unique", 0, NULL, "limit 2, and say whether each puzzle is unique",
     OPTS_FLAG_AT(struct tool_opts, is_unique)},
    {"timeout", 0, "MS", "per-puzzle timeout in milliseconds",
     OPTS_NUMBER_AT(struct tool_opts, solve.timeout_ms, 1, 86400000)},
    {"json", 0, NULL, "one JSON object per puzzle on stdout",
     OPTS_FLAG_AT(struct tool_opts, is_json)},
    {"window", 'w', "N", "requests in flight (default 64; 1 on a terminal)",
     OPTS_NUMBER_AT(struct tool_opts, window, 1, SUDOKU_CLIENT_MAX_WINDOW)},
    {"local", 0, NULL, "no daemon: load the plugins in this process\n(also SUDOKU_LOCAL=1)",
     OPTS_FLAG_AT(struct tool_opts, is_local)},
    {"plugin-dir", 'P', "DIR", "with --local: load plugins from DIR\n(default: the installed ones)",
     OPTS_STRING_AT(struct tool_opts, plugin_dir)},
    {"progress", 0, "FILE", "hint, explain: the player's grid for each puzzle",
     OPTS_STRING_AT(struct tool_opts, progress)},
    {"steps", 0, "N", "hint, explain: at most N steps (hint: 1)",
     OPTS_NUMBER_AT(struct tool_opts, steps, 1, 1000000)},
    {"verbose", 'v', NULL, "print a summary line at the end",
     OPTS_FLAG_AT(struct tool_opts, is_verbose)},
    {"help", 'h', NULL, "this help", .kind = OPTS_HELP},
    {"version", 'V', NULL, "print the version", .kind = OPTS_VERSION},
};

static const struct opts_prog option_prog = {
    .name = "sudoku",
    .usage = usage_head,
    .footer = usage_foot,
    .specs = option_table,
    .specs_len = sizeof(option_table) / sizeof(option_table[0]),
    .help_column = 22,
};

/* Parse argv into o; *operands is the first operand.  Returns OPTS_RUN,
 * OPTS_SHOW_HELP, OPTS_SHOW_VERSION or -EINVAL. */
static int parse_args(int argc, char **argv, struct tool_opts *o, int *operands)
{
    int action = opts_parse(&option_prog, argc, argv, o, operands);
    if (action < 0)
        return action;
    if (o->is_unique) {
        if (o->solve.limit && o->solve.limit != 2)
            return opts_usage_error(&option_prog, "--unique means --limit 2");
        o->solve.limit = 2;
    }
    return action;
}

/* The subcommand named by the operand argv[first], or NULL to solve files. */
static const char *subcommand(int argc, char **argv, int first)
{
    static const char *const names[] = {"solvers", "stats",   "ping", "count",
                                        "hint",    "explain", "rate"};
    if (first >= argc)
        return NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(argv[first], names[i]) == 0)
            return names[i];
    return NULL;
}

/* sudoku hint|explain [FILE] and sudoku rate [FILE...]. */
static int run_steps(const struct tool_opts *o, const char *cmd, int nfiles, char **files)
{
    static char *stdin_only[] = {"-"};
    int is_rate = strcmp(cmd, "rate") == 0;

    if (!is_rate && nfiles > 1) {
        opts_usage_error(&option_prog, "%s takes one FILE (puzzles one after another in it)", cmd);
        return EXIT_USAGE;
    }
    if (is_rate && (o->progress || o->steps)) {
        opts_usage_error(&option_prog, "rate takes no --progress or --steps");
        return EXIT_USAGE;
    }
    if (nfiles == 0) {
        files = stdin_only;
        nfiles = 1;
    }
    return is_rate ? tool_rate(o, files, nfiles)
                   : tool_explain(o, strcmp(cmd, "hint") == 0, files, nfiles);
}

static void print_help(const char *cmd)
{
    if (cmd && strcmp(cmd, "count") == 0)
        cmd = NULL; /* count takes the solve options */
    if (!cmd)
        opts_help(&option_prog, stdout);
    else if (strcmp(cmd, "hint") == 0 || strcmp(cmd, "explain") == 0 || strcmp(cmd, "rate") == 0)
        fputs(strcmp(cmd, "hint") == 0      ? usage_hint
              : strcmp(cmd, "explain") == 0 ? usage_explain
                                            : usage_rate,
              stdout);
    else
        fputs(strcmp(cmd, "solvers") == 0 ? usage_solvers
              : strcmp(cmd, "stats") == 0 ? usage_stats
                                          : usage_ping,
              stdout);
}

/* `sudoku [options] generate [options]`: generate has its own parser, so
 * the options before the word move behind it.  Returns the index of the
 * word "generate" when only options (and their values) come before it,
 * else 0. */
static int generate_at(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "generate") == 0)
            return i;
        if (argv[i][0] != '-')
            return 0;
        /* -s PATH, --socket PATH ...: the next word is the value. */
        if ((argv[i][1] != '-' && argv[i][2] == '\0') ||
            (argv[i][1] == '-' && !strchr(argv[i], '=')))
            if (i + 1 < argc && strcmp(argv[i + 1], "generate") != 0 && argv[i + 1][0] != '-')
                i++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct tool_opts o = {.format = INPUT_AUTO};
    int first = argc;
    int gen = generate_at(argc, argv);
    if (gen) {
        char *args[256];
        int len = 0;
        if (argc > (int)(sizeof(args) / sizeof(args[0]))) {
            opts_usage_error(&option_prog, "too many arguments");
            return EXIT_USAGE;
        }
        args[len++] = argv[gen];
        for (int i = 1; i < argc; i++)
            if (i != gen)
                args[len++] = argv[i];
        return tool_generate(len, args);
    }
    int action = parse_args(argc, argv, &o, &first);
    if (action < 0)
        return EXIT_USAGE;
    const char *cmd = subcommand(argc, argv, first);
    if (action == OPTS_SHOW_HELP) {
        print_help(cmd);
        return 0;
    }
    if (action == OPTS_SHOW_VERSION) {
        printf("sudoku %s (protocol v1)\n", SUDOKU_VERSION);
        return 0;
    }
    const char *env_local = getenv("SUDOKU_LOCAL");
    if (env_local && strcmp(env_local, "1") == 0)
        o.is_local = 1;
    if (cmd && strcmp(cmd, "count") == 0) {
        static char *stdin_only[] = {"-"};
        o.is_count = 1;
        if (!o.solve.limit)
            o.solve.limit = TOOL_COUNT_CAP;
        return first + 1 < argc ? tool_solve(&o, argv + first + 1, argc - first - 1)
                                : tool_solve(&o, stdin_only, 1);
    }
    if (cmd && o.is_local && strcmp(cmd, "solvers") != 0 && strcmp(cmd, "rate") != 0 &&
        strcmp(cmd, "hint") != 0 && strcmp(cmd, "explain") != 0) {
        opts_usage_error(&option_prog, "%s asks the daemon: not with --local", cmd);
        return EXIT_USAGE;
    }
    if (cmd &&
        (strcmp(cmd, "hint") == 0 || strcmp(cmd, "explain") == 0 || strcmp(cmd, "rate") == 0))
        return run_steps(&o, cmd, argc - first - 1, argv + first + 1);
    if (cmd && first + 1 < argc) {
        opts_usage_error(&option_prog, "too many arguments for %s", cmd);
        return EXIT_USAGE;
    }
    if (!cmd) {
        static char *stdin_only[] = {"-"};
        return first < argc ? tool_solve(&o, argv + first, argc - first)
                            : tool_solve(&o, stdin_only, 1);
    }
    if (strcmp(cmd, "ping") == 0)
        return cmd_ping(&o);
    return strcmp(cmd, "solvers") == 0 ? cmd_solvers(&o) : cmd_stats(&o);
}
