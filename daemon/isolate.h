/* isolate.h -- plugins in supervised worker processes.
 *
 * A plugin not built with sudokud (by default) runs in worker processes:
 * the daemon re-executes itself with --plugin-worker (daemon/worker.c),
 * the worker loads the one plugin, drops what it does not need (seccomp)
 * and serves jobs through a shared-memory slot, one at a time; a
 * socketpair carries the wake-ups.  The plugin host reaches the workers
 * through its runner (core/host.h, host_set_runner), so every method calls
 * the same host_solve()/host_explain() whichever way a plugin runs, and
 * every answer is checked by the host as before.
 *
 * A worker that dies under a job makes that job's answer `internal`
 * ("plugin NAME crashed", the signal or exit status logged) and is
 * replaced on the next job; HOST_CRASH_LIMIT crashes within
 * HOST_CRASH_WINDOW_S seconds disable the plugin (its requests are
 * answered `unsupported`) until isolate_reenable() (SIGHUP).  A job still
 * running ISOLATE_KILL_MS past its deadline, or past a cancel, gets its
 * worker killed (not counted as a crash) and is answered as timed out or
 * cancelled.  Workers start lazily, at most max_workers per plugin (one
 * per thread that may call in).
 *
 * Thread safety: isolate_new() and isolate_free() on the main thread with
 * no call in flight; the runner from any number of threads;
 * isolate_reenable() from any thread.
 */
#ifndef SUDOKUD_ISOLATE_H
#define SUDOKUD_ISOLATE_H

#include <stddef.h>

#define ISOLATE_KILL_MS   100        /* a job this long past its deadline: worker killed */
#define ISOLATE_SLOT_SIZE (8u << 20) /* shared memory per worker (touched only as used) */
#define ISOLATE_SLOT_HEAD 64         /* bytes before the message: the cancel flag */
#define ISOLATE_WORKER_FD 3          /* the worker's socket; its slot is the next fd */

enum isolate_mode {
    ISOLATE_NONE = 0,        /* every plugin in the daemon's process */
    ISOLATE_THIRD_PARTY = 1, /* plugins not built with sudokud in workers (default) */
    ISOLATE_ALL = 2          /* every plugin in workers */
};

struct host;
struct isolate;

/* The SHA-256 (lowercase hex) of every plugin built with this sudokud,
 * NULL-terminated: generated at build time (cmake/builtin_plugins.cmake). */
extern const char *const sudokud_builtin_plugins[];

/* Parse "all", "third-party" or "none".  Returns 0 or -EINVAL. */
int isolate_parse_mode(const char *text, enum isolate_mode *out);

/* The word for mode. */
const char *isolate_mode_name(enum isolate_mode mode);

/* Is p (a loaded plugin) one of sudokud_builtin_plugins, by its file's
 * SHA-256? */
int isolate_is_builtin(const void *p);

/* Decide for every plugin of h: a plugin that is not built in never runs
 * on the event loop (host_deny_prompt), and the ones mode isolates get
 * the runner.  Logs one line per isolated plugin.  Returns 0 with *out
 * (NULL when nothing is isolated), or -ENOMEM.  Free with isolate_free(). */
int isolate_new(struct host *h, enum isolate_mode mode, unsigned max_workers, struct isolate **out);

/* Plugins disabled after repeated crashes serve again, their crash counts
 * cleared (SIGHUP).  Accepts NULL. */
void isolate_reenable(struct isolate *iso);

/* Kill and reap every idle worker, take the runners back from the host and
 * free iso.  No call may be in flight.  Accepts NULL. */
void isolate_free(struct isolate *iso);

/* The worker process: argv as main() got it, argv[1] "--plugin-worker",
 * argv[2] the socket's number, argv[3] the plugin file.  Returns the exit
 * status (daemon/worker.c). */
int isolate_worker_main(int argc, char **argv);

#endif /* SUDOKUD_ISOLATE_H */
