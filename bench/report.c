/* report.c -- print benchmark results as a table or as JSON lines.
 *
 * One JSON object per line per (solver, file), so the output can be read by
 * line-oriented tools and by a JSON parser alike.  The file name is the only
 * free text and is escaped.  Also the small pieces both runners (in process
 * and through the daemon) share: collecting and sorting latency samples,
 * percentiles, and which lines of a puzzle file to skip.
 */
#include "bench/bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

void bench_json_start(FILE *out, const char *head, const char *solver, const char *file)
{
    fputs(head, out);
    fputs("\"solver\":", out);
    json_put_string(out, solver);
    fputs(",\"file\":", out);
    json_put_string(out, file);
}

void bench_report_json(FILE *out, const void *result)
{
    const struct bench_result *r = result;
    bench_json_start(out, "{", r->solver, r->file);
    fprintf(out,
            ",\"puzzles\":%llu,\"solved\":%llu,\"unsolvable\":%llu,\"errors\":%llu"
            ",\"wrong\":%llu,\"timeouts\":%llu,\"unsupported\":%llu,\"seconds\":%.6f"
            ",\"puzzles_per_s\":%.1f,\"us_median\":%.2f,\"us_p99\":%.2f"
            ",\"guesses_per_puzzle\":%.2f}\n",
            (unsigned long long)r->puzzles, (unsigned long long)r->solved,
            (unsigned long long)r->unsolvable, (unsigned long long)r->errors,
            (unsigned long long)r->wrong, (unsigned long long)r->timeouts,
            (unsigned long long)r->unsupported, r->seconds, r->puzzles_per_s, r->us_median,
            r->us_p99, r->guesses_per_puzzle);
}

void bench_report_table_header(FILE *out)
{
    fprintf(out, "%-10s %-28s %8s %8s %7s %6s %5s %8s %11s %10s %10s %12s\n", "solver", "file",
            "puzzles", "solved", "unsolv", "errors", "wrong", "timeouts", "puzzles/s", "median_us",
            "p99_us", "guesses/puz");
}

/* The file's base name, cut to its last 28 characters to keep the table aligned. */
static const char *short_name(const char *s)
{
    const char *base = strrchr(s, '/');
    size_t len;

    s = base ? base + 1 : s;
    len = strlen(s);
    return len > 28 ? s + len - 28 : s;
}

void bench_report_table_row(FILE *out, const void *result)
{
    const struct bench_result *r = result;
    fprintf(out, "%-10s %-28s %8llu %8llu %7llu %6llu %5llu %8llu %11.1f %10.1f %10.1f %12.1f\n",
            r->solver, short_name(r->file), (unsigned long long)r->puzzles,
            (unsigned long long)r->solved, (unsigned long long)r->unsolvable,
            (unsigned long long)r->errors, (unsigned long long)r->wrong,
            (unsigned long long)r->timeouts, r->puzzles_per_s, r->us_median, r->us_p99,
            r->guesses_per_puzzle);
}

/* ---------------------------------------------------------------- daemon runs */

void bench_report_daemon_json(FILE *out, const void *result)
{
    const struct bench_daemon_result *r = result;
    bench_json_start(out, "{\"mode\":\"daemon\",", r->solver, r->file);
    fprintf(out,
            ",\"connections\":%u,\"depth\":%u,\"puzzles\":%llu,\"requests\":%llu"
            ",\"solved\":%llu,\"unsolvable\":%llu,\"wrong\":%llu,\"errors\":%llu"
            ",\"seconds\":%.6f,\"requests_per_s\":%.1f,\"us_p50\":%.2f,\"us_p99\":%.2f"
            ",\"us_max\":%.2f,\"daemon_rss_kib\":%lld,\"daemon_hwm_kib\":%lld}\n",
            r->connections, r->depth, (unsigned long long)r->puzzles,
            (unsigned long long)r->requests, (unsigned long long)r->solved,
            (unsigned long long)r->unsolvable, (unsigned long long)r->wrong,
            (unsigned long long)r->errors, r->seconds, r->requests_per_s, r->us_p50, r->us_p99,
            r->us_max, r->daemon_rss_kib, r->daemon_hwm_kib);
}

void bench_report_daemon_header(FILE *out)
{
    fprintf(out, "%-10s %-28s %5s %5s %8s %8s %5s %6s %11s %9s %9s %9s\n", "solver", "file",
            "conns", "depth", "requests", "solved", "wrong", "errors", "requests/s", "p50_us",
            "p99_us", "rss_kib");
}

void bench_report_daemon_row(FILE *out, const void *result)
{
    const struct bench_daemon_result *r = result;
    fprintf(out, "%-10s %-28s %5u %5u %8llu %8llu %5llu %6llu %11.1f %9.1f %9.1f %9lld\n",
            r->solver, short_name(r->file), r->connections, r->depth,
            (unsigned long long)r->requests, (unsigned long long)r->solved,
            (unsigned long long)r->wrong, (unsigned long long)r->errors, r->requests_per_s,
            r->us_p50, r->us_p99, r->daemon_rss_kib);
}

void bench_report_idle(FILE *out, const struct bench_idle_result *r, int json)
{
    if (json) {
        fprintf(out,
                "{\"mode\":\"idle\",\"connections\":%u,\"daemon_pid\":%lld"
                ",\"daemon_rss_base_kib\":%lld,\"daemon_rss_kib\":%lld,\"daemon_hwm_kib\":%lld}\n",
                r->connections, r->daemon_pid, r->daemon_rss_base_kib, r->daemon_rss_kib,
                r->daemon_hwm_kib);
        return;
    }
    fprintf(out,
            "daemon pid %lld: VmRSS %lld KiB with %u idle connections open "
            "(%lld KiB before), VmHWM %lld KiB\n",
            r->daemon_pid, r->daemon_rss_kib, r->connections, r->daemon_rss_base_kib,
            r->daemon_hwm_kib);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int bench_samples_push(struct bench_samples *s, double us)
{
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        double *p = realloc(s->us, cap * sizeof(*p));
        if (!p)
            return -ENOMEM;
        s->us = p;
        s->cap = cap;
    }
    s->us[s->len++] = us;
    return 0;
}

void bench_samples_free(struct bench_samples *s)
{
    free(s->us);
    *s = (struct bench_samples){0};
}

void bench_sort(double *v, size_t len)
{
    if (len > 1)
        qsort(v, len, sizeof(*v), cmp_double);
}

double bench_percentile(const double *sorted, size_t len, double pct)
{
    size_t rank;

    if (len == 0)
        return 0.0;
    rank = (size_t)(pct / 100.0 * (double)len + 0.999999);
    if (rank < 1)
        rank = 1;
    if (rank > len)
        rank = len;
    return sorted[rank - 1];
}

int bench_is_skipped(const char *line)
{
    line += strspn(line, " \t\r\n");
    return *line == '\0' || *line == '#';
}
