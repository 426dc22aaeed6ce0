/* daemon.h -- what sudoku-bench reads about a running sudokud itself.
 *
 * Its memory and CPU time (from /proc, its pid from SO_PEERCRED), and the
 * idle check, which opens K connections and reads the daemon's resident
 * memory with them open.  The runs through the daemon (solve_daemon.c,
 * rate_daemon.c, generate_daemon.c) report with these.
 */
#ifndef SUDOKU_BENCH_DAEMON_H
#define SUDOKU_BENCH_DAEMON_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/bench.h"

/* The runs through the daemon and daemon_idle() return this when the daemon cannot be
 * reached or a connection to it broke (main() exits 3). */
#define DAEMON_UNREACHABLE (-ENOTCONN)

/* Open k connections to the daemon at socket, ping each so the daemon has
 * accepted it, and read the daemon's VmRSS and VmHWM (its pid comes from
 * SO_PEERCRED).  Fills *out.  Returns 0, DAEMON_UNREACHABLE, or another
 * negative errno (e.g. /proc unreadable, too many open files); err says why. */
int daemon_idle(const char *socket, unsigned k, struct bench_idle_result *out, char *err,
                size_t err_size);

/* VmRSS and VmHWM of the daemon at socket in KiB; -1 each when they cannot
 * be read. */
void daemon_memory(const char *socket, long long *rss, long long *hwm);

/* CPU time (user + system, every thread) the daemon at socket has used so
 * far, in *ns (clock-tick resolution).  Returns 0 or a negative errno. */
int daemon_cpu_ns(const char *socket, uint64_t *ns);

#endif /* SUDOKU_BENCH_DAEMON_H */
