/* main.c -- the sudoku tool: solve puzzles through sudokud from a shell.
 *
 *   sudoku [options] [FILE...]     solve (run.c)
 *   sudoku solvers | stats | ping  ask the daemon
 *
 * main() is the table of contents: parse the command line, pick the
 * subcommand, return its exit code.  Everything that talks to the daemon
 * goes through libsudoku-client; this file only prints.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/tool.h"
#include "proto/json.h"

#ifndef SUDOKU_VERSION
#define SUDOKU_VERSION "0.0.0"
#endif

/* ------------------------------------------------------------------------ */
/* Help */

static const char usage_solve[] =
    "usage: sudoku [options] [FILE...]\n"
    "       sudoku solvers|stats|ping [options]\n"
    "\n"
    "Solve the puzzles in FILEs (or stdin) through the sudokud daemon and print\n"
    "the solutions in input order.\n"
    "\n"
    "  -s, --socket PATH   daemon socket (default: $SUDOKUD_SOCKET, else\n"
    "                      /run/sudokud/sudokud.sock for root, else\n"
    "                      $XDG_RUNTIME_DIR/sudokud.sock)\n"
    "      --format F      input format: grid (n lines of n numbers, 0 blank),\n"
    "                      line (one puzzle per line) or auto (default)\n"
    "      --solver NAME   solver to use (see: sudoku solvers)\n"
    "      --limit N       stop after N solutions (default 1)\n"
    "      --unique        limit 2, and say whether each puzzle is unique\n"
    "      --timeout MS    per-puzzle timeout in milliseconds\n"
    "      --json          one JSON object per puzzle on stdout\n"
    "  -w, --window N      requests in flight (default 64; 1 on a terminal)\n"
    "  -v, --verbose       print a summary line at the end\n"
    "  -h, --help          this help\n"
    "  -V, --version       print the version\n"
    "\n"
    "Exit status: 0 all solved, 1 some unsolvable or failed, 2 usage error,\n"
    "3 cannot reach the daemon.\n";

static const char usage_solvers[] = "usage: sudoku solvers [-s PATH] [--json]\n"
                                    "List the daemon's solvers: name, version, sizes, default.\n";
static const char usage_stats[] = "usage: sudoku stats [-s PATH] [--json]\n"
                                  "Print the daemon's counters.\n";
static const char usage_ping[] = "usage: sudoku ping [-s PATH] [--json]\n"
                                 "Check that the daemon answers; print the round-trip time.\n";

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

static int cmd_solvers(const struct tool_opts *o)
{
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    struct sudoku_client_error err;
    size_t len = 0;
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

enum { OPT_FORMAT = 256, OPT_SOLVER, OPT_LIMIT, OPT_UNIQUE, OPT_TIMEOUT, OPT_JSON };

static const struct option long_options[] = {{"socket", required_argument, NULL, 's'},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"solver", required_argument, NULL, OPT_SOLVER},
                                             {"limit", required_argument, NULL, OPT_LIMIT},
                                             {"unique", no_argument, NULL, OPT_UNIQUE},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"window", required_argument, NULL, 'w'},
                                             {"verbose", no_argument, NULL, 'v'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, 'V'},
                                             {NULL, 0, NULL, 0}};

/* Parse a positive number up to max.  Returns 0 or -EINVAL. */
static int parse_uint(const char *s, unsigned long max, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v == 0 || v > max || s[0] == '-')
        return -EINVAL;
    *out = (unsigned)v;
    return 0;
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "sudoku: %s%s%s\nTry 'sudoku --help'.\n", what, arg ? ": " : "",
            arg ? arg : "");
    return -EINVAL;
}

static int parse_format(const char *s, enum input_format *out)
{
    if (strcmp(s, "grid") == 0)
        *out = INPUT_GRID;
    else if (strcmp(s, "line") == 0)
        *out = INPUT_LINE;
    else if (strcmp(s, "auto") == 0)
        *out = INPUT_AUTO;
    else
        return usage_error("--format takes grid, line or auto", s);
    return 0;
}

/* Apply one option.  Returns 0, 1 for --help, 2 for --version, or -EINVAL. */
static int apply_option(int ch, const char *arg, struct tool_opts *o)
{
    switch (ch) {
    case 's':
        o->socket = arg;
        return 0;
    case OPT_FORMAT:
        return parse_format(arg, &o->format);
    case OPT_SOLVER:
        o->solve.solver = arg;
        return 0;
    case OPT_LIMIT:
        return parse_uint(arg, 1000000, &o->solve.limit) ? usage_error("bad --limit", arg) : 0;
    case OPT_UNIQUE:
        o->is_unique = 1;
        return 0;
    case OPT_TIMEOUT:
        return parse_uint(arg, 86400000, &o->solve.timeout_ms) ? usage_error("bad --timeout", arg)
                                                               : 0;
    case OPT_JSON:
        o->is_json = 1;
        return 0;
    case 'w':
        return parse_uint(arg, SUDOKU_CLIENT_MAX_WINDOW, &o->window)
                   ? usage_error("bad --window", arg)
                   : 0;
    case 'v':
        o->is_verbose = 1;
        return 0;
    case 'h':
        return 1;
    case 'V':
        return 2;
    default:
        return usage_error("unknown option", NULL);
    }
}

/* Parse argv into o.  Returns 0, 1 (--help), 2 (--version) or -EINVAL. */
static int parse_args(int argc, char **argv, struct tool_opts *o)
{
    int ch, action = 0;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "s:w:vhV", long_options, NULL)) != -1) {
        if (ch == '?' || ch == ':')
            return usage_error(optopt ? "bad or incomplete option" : "unknown option",
                               argv[optind - 1]);
        int rc = apply_option(ch, optarg, o);
        if (rc < 0)
            return rc;
        action = rc > action ? rc : action;
    }
    if (o->is_unique) {
        if (o->solve.limit && o->solve.limit != 2)
            return usage_error("--unique means --limit 2", NULL);
        o->solve.limit = 2;
    }
    return action;
}

/* The subcommand named by the first operand, or NULL to solve files. */
static const char *subcommand(int argc, char **argv)
{
    static const char *const names[] = {"solvers", "stats", "ping"};
    if (optind >= argc)
        return NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(argv[optind], names[i]) == 0)
            return names[i];
    return NULL;
}

static const char *help_for(const char *cmd)
{
    if (!cmd)
        return usage_solve;
    return strcmp(cmd, "solvers") == 0 ? usage_solvers
           : strcmp(cmd, "stats") == 0 ? usage_stats
                                       : usage_ping;
}

int main(int argc, char **argv)
{
    struct tool_opts o = {.format = INPUT_AUTO};
    int action = parse_args(argc, argv, &o);
    if (action < 0)
        return EXIT_USAGE;
    const char *cmd = subcommand(argc, argv);
    if (action == 1) {
        fputs(help_for(cmd), stdout);
        return 0;
    }
    if (action == 2) {
        printf("sudoku %s (protocol v1)\n", SUDOKU_VERSION);
        return 0;
    }
    if (cmd && optind + 1 < argc) {
        usage_error("too many arguments for", cmd);
        return EXIT_USAGE;
    }
    if (!cmd) {
        static char *stdin_only[] = {"-"};
        return optind < argc ? tool_solve(&o, argv + optind, argc - optind)
                             : tool_solve(&o, stdin_only, 1);
    }
    if (strcmp(cmd, "ping") == 0)
        return cmd_ping(&o);
    return strcmp(cmd, "solvers") == 0 ? cmd_solvers(&o) : cmd_stats(&o);
}
