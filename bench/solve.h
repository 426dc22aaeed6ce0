/* solve.h -- time solving puzzle files, in this process or through sudokud.
 *
 * In process (solve.c): puzzles are solved one at a time on the calling
 * thread with host_solve(), which checks every answer; the host (and so the
 * plugins) belongs to the caller.  Through the daemon (solve_daemon.c):
 * puzzles go over C connections at once (one thread each), each a
 * pipelined batch of libsudoku-client with up to D requests in flight, and
 * every answer is checked against its puzzle by the rules.
 */
#ifndef SUDOKU_BENCH_SOLVE_H
#define SUDOKU_BENCH_SOLVE_H

#include <stdint.h>

#include "bench/bench.h"
#include "bench/daemon.h"
#include "core/host.h"

/* How to run each puzzle. */
struct solve_opts {
    uint64_t limit;      /* solutions to look for (>= 1) */
    uint32_t timeout_ms; /* per-puzzle deadline, 0 = none */
    int progress;        /* non-zero: show progress on stderr */
};

/* Run every puzzle of file (line form, '#' and blank lines skipped) through
 * plugin p and fill *out (zeroed first).  Returns 0, or a negative errno when
 * the file cannot be read (the message is in err) or memory runs out. */
int solve_run_file(const struct host_plugin *p, const char *file, const struct solve_opts *o,
                   struct bench_result *out, char *err, size_t err_size);

/* How to run a file through the daemon. */
struct solve_daemon_opts {
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
int solve_daemon_run_file(const struct solve_daemon_opts *o, const char *file,
                          struct bench_daemon_result *out, char *err, size_t err_size);

#endif /* SUDOKU_BENCH_SOLVE_H */
