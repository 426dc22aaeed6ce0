/* server.h -- the daemon's one event loop: listener, signals, shutdown.
 *
 * struct server ties the modules together and is the top of the call
 * graph: server -> dispatch -> conn -> libuv, each reaching the one above
 * only through callbacks it was given (and the server's check handle, which
 * drains the connections' ready list).  Everything in it belongs to the
 * loop thread.
 */
#ifndef SUDOKUD_SERVER_H
#define SUDOKUD_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "daemon/conn.h"
#include "daemon/dispatch.h"
#include "daemon/sockpath.h"
#include "daemon/stats.h"

#define SERVER_PATH_SIZE 4096 /* room for a socket path before checking sun_path */
#define SERVER_ERR_SIZE  (SERVER_PATH_SIZE + 256) /* room for a message naming a path */

struct server_config;

/* SIGHUP: read the settings again, as at start, into *cfg.  Returns 0, or
 * a negative errno after logging why (the server then keeps its own). */
typedef int server_reload_fn(void *ctx, struct server_config *cfg);

/* Settings from the configuration file and the command line (main.c fills
 * it).  A reload changes the limits; the socket, its mode and the threads
 * stay as they were at start. */
struct server_config {
    char socket_path[SERVER_PATH_SIZE]; /* where to bind (unused when listen_fd >= 0) */
    int listen_fd;                      /* inherited listener (socket activation), else -1 */
    unsigned threads;                   /* worker threads (>= 1) */
    uint64_t timeout_ms;                /* default per-request timeout and ceiling */
    size_t max_message;                 /* largest accepted message, bytes */
    unsigned max_connections;           /* open connections served at once */
    unsigned socket_mode;               /* permission bits of the socket file */
    size_t max_queue;                   /* solves waiting for a worker, all connections */
    unsigned grace_ms;                  /* SIGTERM: running solves get this long */
    unsigned spin_us;                   /* an idle worker spins this long before sleeping */
    unsigned inline_us;                 /* budget of a solve tried on the loop thread, 0 none */
    unsigned idle_timeout_s;            /* close connections without traffic this long, 0 off */
    unsigned max_per_uid;               /* connections per peer uid, 0: max_connections / 4 */
    unsigned message_timeout_ms;        /* a message begun must end within it, 0 off */
    server_reload_fn *reload;           /* SIGHUP reads the settings again, or NULL */
    void *reload_ctx;                   /* handed to reload */
};

struct pool;
struct host;

struct server {
    struct server_config cfg;      /* settings: main's at start, then each reload's */
    uv_loop_t *loop;               /* the one loop */
    struct host *host;             /* loaded plugins, owned by main */
    struct pool *pool;             /* solve workers */
    struct stats stats;            /* counters for the stats method */
    uv_pipe_t *listener;           /* listening socket (freed in its close callback) */
    struct sockpath sockpath;      /* the lock and the socket file we bound */
    uv_timer_t path_check;         /* re-creates the socket file when it goes */
    char path_err[512];            /* the last re-create failure logged (cut), "" none */
    uv_signal_t sig_term, sig_int; /* shutdown triggers (twice: exit at once) */
    uv_signal_t sig_hup;           /* reload the settings */
    uv_timer_t watchdog;           /* WATCHDOG=1 pings (when asked for) */
    uv_timer_t grace;              /* shutdown: grace, then cancel, then force */
    uv_timer_t quiet;              /* shutdown: closes connections gone quiet */
    uv_timer_t accept_retry;       /* out of memory accepting: try again later */
    uv_check_t flusher;            /* runs the connections' ready list each iteration */
    uv_idle_t spinner;             /* active: the loop polls without sleeping */
    struct conn_set conns;         /* every open connection, the ready list */
    struct dispatch dispatch;      /* protocol v1, solve jobs */
    uint64_t seen_activity;        /* conns.activity at the last check */
    uint64_t spin_until_ns;        /* keep the loop polling until then */
    uint64_t stop_ms;              /* uv_now() when SIGTERM/SIGINT was handled */
    int is_listening;              /* listener open */
    int is_accept_pending;         /* libuv holds an accepted fd we could not take */
    int is_activated;              /* listener inherited from systemd: never unlink */
    int is_stopping;               /* SIGTERM/SIGINT seen */
    int stop_phase;                /* 0 grace, 1 cancelled, 2 forcing close */
    int is_closed;                 /* handles closed, loop ending */
    int has_stuck;                 /* workers left in plugins: end with _exit() */
};

/* Set up the listener, signals and workers, run the loop until shutdown.
 * Returns the process exit status: 0 after a clean SIGTERM/SIGINT, with
 * every handle closed (uv_loop_close() succeeded; -v logs "loop closed
 * clean"); 1 when the daemon could not start or a handle was left open
 * (each is logged by type).  With workers still stuck in a plugin at the end
 * it does not return: it ends the process with _exit() and that status.
 * A second SIGTERM/SIGINT during shutdown ends it at once with _exit(1).
 * SIGHUP calls cfg->reload and applies the limits it returns (timeout-ms,
 * max-message, max-connections, max-connections-per-uid, max-queue,
 * grace-ms, inline-us, spin-us, idle-timeout, message-timeout), logging each change and each
 * setting that needs a restart (socket, socket-mode, threads). */
int server_run(const struct server_config *cfg, struct host *host);

/* Block SIGTERM, SIGINT and SIGHUP in the calling thread and in every
 * thread or process it starts from now on; call it before the slow startup
 * work (loading plugins).  server_run() unblocks them once it serves, so a
 * stop asked for during startup is an orderly shutdown with status 0, not a
 * death by signal.  Plugin workers clear the mask they inherit. */
void server_hold_signals(void);

/* Resolve the default socket path (root: /run/sudokud/sudokud.sock, else
 * $XDG_RUNTIME_DIR/sudokud.sock).  Returns 0 or -ENOENT (no runtime dir) /
 * -ENAMETOOLONG. */
int server_default_socket(char *out, size_t out_size);

#endif /* SUDOKUD_SERVER_H */
