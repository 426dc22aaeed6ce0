/* ask.c -- sudoku solvers, stats and ping: ask the daemon about itself.
 *
 * Each asks one question over one connection and prints the answer as text
 * or one JSON value; solvers with --local lists the plugins this process
 * loads instead.  The command line is parsed before (options.c); these
 * take no FILE.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tool/command.h"
#include "tool/local.h"
#include "tool/rules.h"
#include "tool/tool.h"
#include "util/json.h"

int tool_ping(struct tool_opts *o)
{
    struct sudoku_client_error err;
    uint64_t rtt = 0;
    struct sudoku_client *cl = tool_connect(o);
    if (!cl)
        return EXIT_UNREACHABLE;
    int rc = sudoku_client_ping(cl, &rtt, &err);
    if (rc < 0)
        fprintf(stderr, "sudoku: ping: %s: %s\n", err.code, err.message);
    else if (o->is_json)
        printf("{\"status\":\"pong\",\"rtt_us\":%llu}\n", (unsigned long long)rtt);
    else
        printf("pong from %s in %llu us\n", sudoku_client_path(cl), (unsigned long long)rtt);
    sudoku_client_free(cl);
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

/* The text listing's default column: the sides a request without --solver
 * goes to it for ("default (25)" for sat), or "default" alone from a daemon
 * that does not say them. */
static void default_text(const struct sudoku_client_solver *s, char *out, size_t size)
{
    char sides[32];

    sizes_text(s->default_sizes, sides, sizeof(sides));
    if (s->default_sizes)
        snprintf(out, size, "default (%s)", sides);
    else
        snprintf(out, size, "%s", s->is_default ? "default" : "");
}

/* -v: a second line under a solver's, the rules it takes ("classic
 * only" for none), and for an explainer those its explain takes. */
static void print_rules_text(const struct sudoku_client_solver *s, const unsigned rules[2])
{
    char names[160];

    tool_rules_flag_names(rules[0], names, sizeof(names));
    printf("%-10s rules: %s", "", rules[0] ? names : "classic only");
    if (s->is_explain) {
        tool_rules_flag_names(rules[1], names, sizeof(names));
        printf("; explain: %s", rules[1] ? names : "classic only");
    }
    putchar('\n');
}

/* One solver: a line (with -v, its rules under it), or a JSON object
 * with every key of the daemon's entry. */
static void print_solver(const struct tool_opts *o, const struct sudoku_client_solver *s,
                         const unsigned rules[2], int first)
{
    char sizes[32], defaults[48];
    sizes_text(s->sizes, sizes, sizeof(sizes));
    if (!o->is_json) {
        default_text(s, defaults, sizeof(defaults));
        printf("%-10s %-8s %-12s %-16s %s\n", s->name, s->version, sizes, defaults, s->description);
        if (o->is_verbose)
            print_rules_text(s, rules);
        return;
    }
    fputs(first ? "{\"name\":" : ",{\"name\":", stdout);
    json_put_string(stdout, s->name);
    fputs(",\"version\":", stdout);
    json_put_string(stdout, s->version);
    fputs(",\"description\":", stdout);
    json_put_string(stdout, s->description);
    sizes_text(s->default_sizes, defaults, sizeof(defaults));
    printf(",\"sizes\":[%s],\"default\":%s,\"default_sizes\":[%s],\"explain\":%s", sizes,
           s->is_default ? "true" : "false", defaults, s->is_explain ? "true" : "false");
    fputs(",\"rules\":", stdout);
    tool_rules_put_flag_json(stdout, rules[0]);
    fputs(",\"explain_rules\":", stdout);
    tool_rules_put_flag_json(stdout, rules[1]);
    putchar('}');
}

/* The list: a line a solver, or one JSON array; rules[i] solver i's
 * solve and explain rules. */
static void print_solvers(const struct tool_opts *o, const struct sudoku_client_solver *list,
                          const unsigned (*rules)[2], size_t len)
{
    if (o->is_json)
        putchar('[');
    for (size_t i = 0; i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++)
        print_solver(o, &list[i], rules[i], i == 0);
    if (o->is_json)
        puts("]");
}

/* sudoku solvers --local: the plugins this process loads. */
static int solvers_local(const struct tool_opts *o)
{
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    unsigned rules[SUDOKU_CLIENT_MAX_SOLVERS][2];
    struct local *l;
    size_t len;

    if (local_open(o->plugin_dir, o->is_verbose, &l) < 0)
        return EXIT_NO_PLUGINS;
    len = local_solvers(l, list, SUDOKU_CLIENT_MAX_SOLVERS);
    for (size_t i = 0; i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++)
        local_solver_rules(l, i, &rules[i][0], &rules[i][1]);
    local_free(l);
    print_solvers(o, list, (const unsigned(*)[2])rules, len);
    return EXIT_ALL_SOLVED;
}

int tool_solvers(struct tool_opts *o)
{
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    unsigned rules[SUDOKU_CLIENT_MAX_SOLVERS][2] = {{0}};
    struct sudoku_client_error err;
    size_t len = 0;
    if (o->is_local)
        return solvers_local(o);
    struct sudoku_client *cl = tool_connect(o);
    if (!cl)
        return EXIT_UNREACHABLE;
    int rc = sudoku_client_solvers(cl, list, SUDOKU_CLIENT_MAX_SOLVERS, &len, &err);
    for (size_t i = 0; rc == 0 && i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++)
        sudoku_client_solver_rules(cl, i, &rules[i][0], &rules[i][1]);
    sudoku_client_free(cl);
    if (rc < 0) {
        fprintf(stderr, "sudoku: solvers: %s: %s\n", err.code, err.message);
        return strcmp(err.code, "closed") == 0 || strcmp(err.code, "io") == 0 ? EXIT_UNREACHABLE
                                                                              : EXIT_SOME_FAILED;
    }
    print_solvers(o, list, (const unsigned(*)[2])rules, len);
    return EXIT_ALL_SOLVED;
}

static void print_stats(const struct tool_opts *o, const struct sudoku_client_stats *st)
{
    const char *fmt = o->is_json ? "{\"uptime_s\":%llu,\"connections\":%llu,\"requests\":%llu,"
                                   "\"errors\":%llu,\"in_flight\":%llu,\"connections_total\":%llu,"
                                   "\"stuck_workers\":%llu,\"solvers\":{"
                                 : "uptime_s     %llu\nconnections  %llu\nrequests     %llu\n"
                                   "errors       %llu\nin_flight    %llu\nconnections_total  %llu\n"
                                   "stuck_workers      %llu\n";
    printf(fmt, (unsigned long long)st->uptime_s, (unsigned long long)st->connections,
           (unsigned long long)st->requests, (unsigned long long)st->errors,
           (unsigned long long)st->in_flight, (unsigned long long)st->connections_total,
           (unsigned long long)st->stuck_workers);
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

int tool_stats(struct tool_opts *o)
{
    struct sudoku_client_stats st;
    struct sudoku_client_error err;
    struct sudoku_client *cl = tool_connect(o);
    if (!cl)
        return EXIT_UNREACHABLE;
    int rc = sudoku_client_stats(cl, &st, &err);
    sudoku_client_free(cl);
    if (rc < 0) {
        fprintf(stderr, "sudoku: stats: %s: %s\n", err.code, err.message);
        return EXIT_SOME_FAILED;
    }
    print_stats(o, &st);
    return EXIT_ALL_SOLVED;
}
