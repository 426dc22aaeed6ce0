/* daemon.h -- run puzzle files through a running sudokud, and measure its footprint.
 *
 * The daemon runner behind `sudoku-bench --socket`: puzzles go over C
 * connections at once (one thread each), each a pipelined batch of
 * libsudoku-client with up to D requests in flight, and every answer is
 * checked against its puzzle by the rules.  The idle check opens K
 * connections and reads the daemon's resident memory from /proc.
 */
#ifndef SUDOKU_BENCH_DAEMON_H
#define SUDOKU_BENCH_DAEMON_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/bench.h"

/* daemon_run_file() and daemon_idle() return this when the daemon cannot be
 * reached or a connection to it broke (main() exits 3). */
#define DAEMON_UNREACHABLE (-ENOTCONN)

/* How to run a file through the daemon. */
struct daemon_opts {
    const char *socket;   /* socket path (NULL: the client library's default rule) */
    const char *solver;   /* solver name, NULL: the daemon's default */
    uint64_t limit;       /* solutions to look for per puzzle (>= 1) */
    uint32_t timeout_ms;  /* per-request timeout, 0: the daemon's default */
    unsigned connections; /* connections at once, >= 1 */
    unsigned depth;       /* requests in flight per connection, 1..4096 */
    unsigned repeat;      /* send the file this many times (>= 1), for more samples */
};

/* Read file (line form, '#' and blank lines skipped), send its puzzles (o->repeat
 * times over, in file order each time) over
 * o->connections connections, check every answer and fill *out (zeroed
 * first).  Returns 0 when every request was answered (the answers may still
 * be wrong or errors: see *out), DAEMON_UNREACHABLE when a connection failed,
 * or another negative errno (file unreadable, no memory); err then says why. */
int daemon_run_file(const struct daemon_opts *o, const char *file, struct bench_daemon_result *out,
                    char *err, size_t err_size);

/* Open k connections to the daemon at socket, ping each so the daemon has
 * accepted it, and read the daemon's VmRSS and VmHWM (its pid comes from
 * SO_PEERCRED).  Fills *out.  Returns 0, DAEMON_UNREACHABLE, or another
 * negative errno (e.g. /proc unreadable, too many open files); err says why. */
int daemon_idle(const char *socket, unsigned k, struct bench_idle_result *out, char *err,
                size_t err_size);

/* CPU time (user + system, every thread) the daemon at socket has used so
 * far, in *ns (clock-tick resolution).  Returns 0 or a negative errno. */
int daemon_cpu_ns(const char *socket, uint64_t *ns);

#endif /* SUDOKU_BENCH_DAEMON_H */
