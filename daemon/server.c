/* server.c -- listen, accept, signals, watchdog and an orderly shutdown.
 *
 * Socket hygiene: a path longer than sun_path is refused (libuv would cut it
 * silently); PATH.lock is taken first, so a second daemon on the path refuses
 * even when the socket file is gone; an existing socket file is replaced only
 * when nothing answers on it.  The socket is created under a umask that
 * already gives it --socket-mode, then chmod'ed to be sure (sockpath.c).
 * Every PATH_CHECK_MS the path is checked: deleted or replaced by a dead
 * socket, the socket is made again and the listener swapped (logged).  An
 * inherited (socket-activated) listener has no path of ours: no lock, no
 * check, never unlinked; a path we bound is unlinked when the listener
 * closes, and only while it is still the file we made.
 *
 * Shutdown (SIGTERM/SIGINT) keeps one promise: a connection that was
 * accepted gets its requests read and answered.  New clients are not ours:
 * under socket activation they wait in the listen backlog for the next
 * daemon, so the listener is closed at once.
 *   1. grace (cfg.grace_ms): connections are read and served as usual; one
 *      is closed when its client hangs up, or when it has nothing in flight,
 *      unsent or unread and has been quiet (no bytes either way) for
 *      QUIET_MS, counted from its last byte: an idle daemon stops at once,
 *      even with idle clients connected;
 *   2. grace over: no new work starts: queued and running solves are
 *      cancelled and answered `overloaded`, and so is every request read
 *      from now on (reading goes on, so nothing a client sent is left
 *      unanswered in the socket); each connection closes once it owes
 *      nothing, has sent everything and has nothing unread;
 *   3. FORCE_CLOSE_MS later the connections still open (a client that does
 *      not read, or never stops sending) are cut;
 * Every close is orderly (conn_close): the client reads what was written,
 * then end of stream, never ECONNRESET.
 *   4. with no connection and no solve left, the handles close, the loop
 *      ends, and uv_loop_close() proves nothing was left open: exit 0 (a
 *      handle left open is logged by type and makes it exit 1).
 * A running solve is answered when it is cancelled, whether or not its
 * plugin returns; the workers get half a second more (pool_close), and a
 * worker still inside a plugin then is left running: the process ends with
 * _exit() (plugins cannot be unloaded under it), its status as above.  So
 * shutdown takes at most the grace, FORCE_CLOSE_MS for clients that do not
 * read, and that half second.  A second SIGTERM or SIGINT exits at once
 * (status 1).
 *
 * SIGHUP reloads what can change under live traffic: main.c reads the file
 * and command line again (server_reload_fn), and the limits are handed to
 * the modules that read them on the loop thread (the pool's spin is atomic).
 * The socket, its mode and the threads need a restart and say so; a bad
 * file keeps every setting.  systemd hears RELOADING=1, then READY=1.
 *
 * The shutdown steps run from timers and from the check handle, which
 * first drains the connections' ready list; a connection closed in a step
 * reports to dispatch from that list, never inside the step, so the walks
 * here only ever lose the connection in hand.
 */
#include "daemon/server.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/host.h"
#include "daemon/log.h"
#include "daemon/pool.h"
#include "daemon/sdnotify.h"
#include "daemon/sockpath.h"
#include "util/clock.h"

#define FORCE_CLOSE_MS  2000 /* after the grace: how long clients get to read */
#define QUIET_MS        200  /* shutdown: an idle connection is closed after this */
#define QUIET_TICK_MS   25   /* shutdown: how often idle connections are looked for */
#define ACCEPT_RETRY_MS 50   /* out of memory accepting: try again after this */
#define PATH_CHECK_MS   1000 /* how often the socket file is checked (deleted, replaced) */

int server_default_socket(char *out, size_t out_size)
{
    const char *dir = getenv("XDG_RUNTIME_DIR");
    int len;

    if (geteuid() == 0)
        len = snprintf(out, out_size, "/run/sudokud/sudokud.sock");
    else if (dir && *dir)
        len = snprintf(out, out_size, "%s/sudokud.sock", dir);
    else
        return -ENOENT;
    return len < 0 || (size_t)len >= out_size ? -ENAMETOOLONG : 0;
}

/* ---------------------------------------------------------------- socket */

/* Take the lock beside the socket, then bind it (sockpath.c). */
static int bind_path(struct server *s)
{
    const char *path = s->cfg.socket_path;
    size_t max = sizeof(((struct sockaddr_un *)0)->sun_path) - 1;
    char err[SERVER_ERR_SIZE];
    int rc;

    if (strlen(path) > max) {
        log_msg(SDK_LOG_ERR,
                "socket path is %zu bytes, longer than the %zu a Unix socket allows: %s",
                strlen(path), max, path);
        return -ENAMETOOLONG;
    }
    rc = sockpath_lock(&s->sockpath, path, err, sizeof(err));
    if (rc == 0)
        rc = sockpath_bind(&s->sockpath, path, s->cfg.socket_mode, SOMAXCONN, err, sizeof(err));
    if (rc < 0)
        log_msg(SDK_LOG_ERR, "%s", err);
    return rc;
}

static int accept_one(struct server *s)
{
    return dispatch_accept(&s->dispatch, &s->conns, (uv_stream_t *)s->listener);
}

/* libuv stops watching the listener while the fd it accepted is not taken
 * with uv_accept() (one per connection callback), so a connection we had no
 * memory for is taken later, not dropped: ACCEPT_RETRY_MS is the back-off. */
static void on_accept_retry(uv_timer_t *t)
{
    struct server *s = t->data;

    if (!s->is_accept_pending || !s->is_listening)
        return;
    if (accept_one(s) == 0)
        s->is_accept_pending = 0;
    else
        uv_timer_start(&s->accept_retry, on_accept_retry, ACCEPT_RETRY_MS, 0);
}

static void on_connection(uv_stream_t *listener, int status)
{
    struct server *s = listener->data;

    if (status < 0) {
        /* EMFILE, ENFILE, ENOMEM: this connection waits in the backlog;
         * those already served go on. */
        log_limited(&s->conns.accept_errors, SDK_LOG_WARNING, "accept: %s", uv_strerror(status));
        return;
    }
    if (accept_one(s) < 0) {
        log_limited(&s->conns.accept_errors, SDK_LOG_ERR,
                    "out of memory accepting a connection: retrying in %d ms", ACCEPT_RETRY_MS);
        s->is_accept_pending = 1;
        uv_timer_start(&s->accept_retry, on_accept_retry, ACCEPT_RETRY_MS, 0);
    }
}

static void free_handle(uv_handle_t *h)
{
    free(h);
}

/* Serve the listening socket fd (taken: closed on failure too).  Returns 0
 * or a libuv error. */
static int start_listener(struct server *s, int fd)
{
    uv_pipe_t *p = malloc(sizeof(*p));
    int rc;

    if (!p) {
        close(fd);
        return UV_ENOMEM;
    }
    rc = uv_pipe_init(s->loop, p, 0);
    if (rc < 0) {
        free(p);
        close(fd);
        return rc;
    }
    p->data = s;
    rc = uv_pipe_open(p, fd);
    if (rc < 0)
        close(fd); /* not taken: uv_close below closes no descriptor */
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)p, SOMAXCONN, on_connection);
    if (rc < 0) {
        uv_close((uv_handle_t *)p, free_handle);
        return rc;
    }
    s->listener = p;
    s->is_listening = 1;
    return 0;
}

/* Swap the listener for one on fd, bound at the path just now.  Clients
 * already accepted are not touched; connections still in the old socket's
 * backlog are cut (nobody could reach that socket by its path any more). */
static void replace_listener(struct server *s, int fd, const char *what)
{
    uv_pipe_t *old = s->listener;
    int rc = start_listener(s, fd);

    if (rc < 0) {
        /* Retried at the next check: the file is not ours without a listener. */
        sockpath_unlink(&s->sockpath, s->cfg.socket_path);
        log_msg(SDK_LOG_ERR, "socket %s was %s: cannot listen again: %s", s->cfg.socket_path, what,
                uv_strerror(rc));
        return;
    }
    uv_close((uv_handle_t *)old, free_handle);
    log_msg(LOG_LVL_NOTICE, "socket %s was %s: re-created it", s->cfg.socket_path, what);
}

/* Every PATH_CHECK_MS: is the socket file still ours?  Deleted, or replaced
 * by a socket nobody listens on, it is made again; anything else there is
 * left alone, and each new reason is logged once. */
static void on_path_check(uv_timer_t *t)
{
    struct server *s = t->data;
    char err[SERVER_ERR_SIZE];
    int rc, fd;

    if (!s->is_listening || s->is_accept_pending)
        return; /* an accepted fd pending on the old listener would be lost */
    rc = sockpath_check(&s->sockpath, s->cfg.socket_path);
    if (rc == 1) {
        s->path_err[0] = '\0';
        return;
    }
    fd = sockpath_bind(&s->sockpath, s->cfg.socket_path, s->cfg.socket_mode, SOMAXCONN, err,
                       sizeof(err));
    if (fd >= 0) {
        s->path_err[0] = '\0';
        replace_listener(s, fd, rc == 0 ? "deleted" : "replaced");
        return;
    }
    if (strncmp(err, s->path_err, sizeof(s->path_err) - 1) != 0) {
        log_msg(SDK_LOG_ERR, "socket %s is gone or not ours: %s", s->cfg.socket_path, err);
        snprintf(s->path_err, sizeof(s->path_err), "%.511s", err);
    }
}

static int open_listener(struct server *s)
{
    int fd = s->cfg.listen_fd;
    int rc;

    if (fd < 0) {
        fd = bind_path(s); /* logs its own failures */
        if (fd < 0)
            return fd;
    }
    rc = start_listener(s, fd);
    if (rc < 0)
        log_msg(SDK_LOG_ERR, "cannot listen: %s", uv_strerror(rc));
    else if (!s->is_activated)
        uv_timer_start(&s->path_check, on_path_check, PATH_CHECK_MS, PATH_CHECK_MS);
    return rc;
}

/* -------------------------------------------------------------- shutdown */

static void close_listener(struct server *s)
{
    if (!s->is_listening)
        return;
    s->is_listening = 0;
    uv_timer_stop(&s->path_check);
    /* uv_close() closes the fd at once: from now on the kernel queues new
     * connections for whoever else holds the socket (systemd, the next
     * daemon) instead of us.  The path is removed first, and only when it
     * is still our socket file; then the lock goes, so that a successor may
     * start while we finish the answers we owe.  An inherited socket has
     * neither. */
    sockpath_unlink(&s->sockpath, s->cfg.socket_path);
    sockpath_unlock(&s->sockpath);
    uv_close((uv_handle_t *)s->listener, free_handle);
    s->listener = NULL;
}

static void close_handle(uv_handle_t *h)
{
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

static void close_all(struct server *s)
{
    s->is_closed = 1;
    close_listener(s);
    close_handle((uv_handle_t *)&s->sig_term);
    close_handle((uv_handle_t *)&s->sig_int);
    close_handle((uv_handle_t *)&s->sig_hup);
    close_handle((uv_handle_t *)&s->watchdog);
    close_handle((uv_handle_t *)&s->grace);
    close_handle((uv_handle_t *)&s->quiet);
    close_handle((uv_handle_t *)&s->accept_retry);
    close_handle((uv_handle_t *)&s->path_check);
    close_handle((uv_handle_t *)&s->flusher);
    close_handle((uv_handle_t *)&s->spinner);
    conn_set_close(&s->conns);
    if (pool_close(s->pool) < 0)
        s->has_stuck = 1;
    s->pool = NULL;
    s->dispatch.pool = NULL;
    dispatch_close(&s->dispatch);
}

/* 1 when the kernel holds bytes c's client sent that libuv has not read
 * yet (they are read, and answered, before c may close). */
static int has_unread(const struct conn *c)
{
    uv_os_fd_t fd;
    int n = 0;

    if (uv_fileno((const uv_handle_t *)&c->pipe, &fd) < 0 || ioctl(fd, FIONREAD, &n) < 0)
        return 0;
    return n > 0;
}

/* Stopping: is c done?  Never while it has a solve in flight, an answer
 * unsent, a message being processed or bytes not yet read; after the grace
 * period as soon as that holds; during it once c has been quiet for
 * QUIET_MS, counted from its last byte: a connection that was already
 * quiet when the signal came is done at once (it is no likelier to speak
 * in the next QUIET_MS than at any other time), and one in mid-conversation
 * gets the rest of QUIET_MS for its next request. */
static int is_done(const struct server *s, const struct conn *c, uint64_t now)
{
    if (c->is_draining || c->is_closing || !conn_is_idle(c) || has_unread(c))
        return 0;
    return s->stop_phase > 0 || now - c->last_active_ms >= QUIET_MS;
}

/* Stopping: close the connections that are done; once none is left, none
 * has a close still to report and no solve is in flight, close every
 * handle so that the loop ends. */
static void check_stop(struct server *s)
{
    struct list *l, *tmp;
    uint64_t now;

    if (!s->is_stopping || s->is_closed)
        return;
    now = uv_now(s->loop);
    LIST_FOREACH_SAFE(l, tmp, &s->conns.all)
    {
        struct conn *c = LIST_CONTAINER_OF(l, struct conn, link);
        if (is_done(s, c, now))
            conn_drain_close(c);
    }
    if (list_empty(&s->conns.all) && !conn_set_has_ready(&s->conns) && s->stats.in_flight == 0) {
        log_msg(SDK_LOG_INFO, "stopped");
        close_all(s);
    }
}

static void on_quiet(uv_timer_t *t)
{
    check_stop(t->data);
}

/* Grace over: start nothing new and cancel what runs.  Connections go on
 * reading, so that every request a client sent before its connection
 * closes is answered (new work `overloaded`) and none is left unread. */
static void end_grace(struct server *s)
{
    s->stop_phase = 1;
    if (s->stats.in_flight > 0)
        log_msg(SDK_LOG_INFO, "grace period over: cancelling %llu solves",
                (unsigned long long)s->stats.in_flight);
    s->dispatch.is_stopping = 1;
    dispatch_stop(&s->dispatch, 1);
}

static void on_grace(uv_timer_t *t)
{
    struct server *s = t->data;

    if (s->stop_phase == 0) {
        end_grace(s);
        uv_timer_start(&s->grace, on_grace, FORCE_CLOSE_MS, 0);
    } else {
        s->stop_phase = 2;
        conn_set_close_all(&s->conns);
    }
    check_stop(s);
}

static void begin_stop(struct server *s, const char *why)
{
    if (s->is_stopping)
        return;
    /* A connection libuv accepted and we could not take yet is ours too. */
    if (s->is_accept_pending && s->is_listening && accept_one(s) < 0)
        log_msg(SDK_LOG_ERR, "out of memory: dropping an accepted connection");
    s->is_accept_pending = 0;
    uv_timer_stop(&s->accept_retry);
    s->is_stopping = 1;
    uv_update_time(s->loop);
    s->stop_ms = uv_now(s->loop);
    log_msg(SDK_LOG_INFO, "%s: shutting down (%llu connections, %llu solves in flight)", why,
            (unsigned long long)s->stats.connections, (unsigned long long)s->stats.in_flight);
    sdn_notify("STOPPING=1");
    sdn_notify("STATUS=shutting down");
    close_listener(s);
    uv_timer_stop(&s->watchdog);
    uv_timer_start(&s->grace, on_grace, s->cfg.grace_ms, 0);
    uv_timer_start(&s->quiet, on_quiet, QUIET_TICK_MS, QUIET_TICK_MS);
    check_stop(s);
}

/* --------------------------------------------------------------- reload */

/* One reloadable limit: log "NAME: OLD -> NEW" when it changed; returns
 * the new value. */
static uint64_t changed(const char *name, uint64_t old, uint64_t now)
{
    if (old != now)
        log_msg(LOG_LVL_NOTICE, "%s: %llu -> %llu", name, (unsigned long long)old,
                (unsigned long long)now);
    return now;
}

/* A setting a reload cannot change under live traffic. */
static void needs_restart(const char *name, int is_changed, const char *now)
{
    if (is_changed)
        log_msg(SDK_LOG_WARNING, "%s: changed to %s: restart to apply (kept as it was)", name, now);
}

/* The limits of n that a reload may change, into the modules that read
 * them; what only a restart changes is logged and kept. */
static void apply_config(struct server *s, const struct server_config *n)
{
    struct server_config *c = &s->cfg;
    char text[32];

    c->timeout_ms = changed("timeout-ms", c->timeout_ms, n->timeout_ms);
    c->max_message = changed("max-message", c->max_message, n->max_message);
    c->max_connections = changed("max-connections", c->max_connections, n->max_connections);
    c->max_queue = changed("max-queue", c->max_queue, n->max_queue);
    c->grace_ms = changed("grace-ms", c->grace_ms, n->grace_ms);
    c->inline_us = changed("inline-us", c->inline_us, n->inline_us);
    c->spin_us = changed("spin-us", c->spin_us, n->spin_us);
    c->idle_timeout_s = changed("idle-timeout", c->idle_timeout_s, n->idle_timeout_s);
    c->max_per_uid = changed("max-connections-per-uid", c->max_per_uid, n->max_per_uid);
    c->message_timeout_ms =
        changed("message-timeout", c->message_timeout_ms, n->message_timeout_ms);
    s->dispatch.timeout_ms = c->timeout_ms;
    s->dispatch.max_queue = c->max_queue;
    s->dispatch.inline_us = c->inline_us;
    conn_set_limits(&s->conns, c->max_message, c->max_connections, c->max_per_uid);
    if (conn_set_watch_idle(&s->conns, (uint64_t)c->idle_timeout_s * 1000u, c->message_timeout_ms) <
        0)
        log_msg(SDK_LOG_ERR, "idle-timeout: cannot start its timer");
    pool_set_limits(s->pool, c->max_queue, c->spin_us);
    needs_restart("socket", !s->is_activated && strcmp(c->socket_path, n->socket_path) != 0,
                  n->socket_path);
    snprintf(text, sizeof(text), "%04o", n->socket_mode);
    needs_restart("socket-mode", !s->is_activated && c->socket_mode != n->socket_mode, text);
    snprintf(text, sizeof(text), "%u", n->threads);
    needs_restart("threads", c->threads != n->threads, text);
}

/* SIGHUP: read the settings again and apply what can change now.  A bad
 * file keeps them all (reload logged FILE:LINE). */
static void reload(struct server *s)
{
    struct server_config n;
    char note[64];

    if (!s->cfg.reload) {
        log_msg(LOG_LVL_NOTICE, "SIGHUP ignored: nothing to reload from");
        return;
    }
    /* systemd (Type=notify, ExecReload=) waits for READY=1 after this. */
    snprintf(note, sizeof(note), "RELOADING=1\nMONOTONIC_USEC=%llu",
             (unsigned long long)(clock_now_ns() / 1000u));
    sdn_notify(note);
    log_msg(LOG_LVL_NOTICE, "SIGHUP: reloading the settings");
    if (s->cfg.reload(s->cfg.reload_ctx, &n) == 0) {
        apply_config(s, &n);
        log_msg(LOG_LVL_NOTICE, "reloaded");
    }
    sdn_notify("READY=1");
}

static void on_signal(uv_signal_t *h, int signum)
{
    struct server *s = h->data;
    const char *name = signum == SIGTERM ? "SIGTERM" : signum == SIGINT ? "SIGINT" : "SIGHUP";

    if (signum == SIGHUP) {
        if (s->is_stopping)
            log_msg(LOG_LVL_NOTICE, "SIGHUP ignored: shutting down");
        else
            reload(s);
        return;
    }
    if (s->is_stopping) {
        /* The admin does not want to wait: no cleanup can be trusted to be
         * quick (a worker may be stuck in a plugin), so none is done. */
        log_msg(SDK_LOG_WARNING, "%s again: exiting at once", name);
        log_close(); /* _exit runs no atexit: write the queued lines (1 s at most) */
        _exit(1);
    }
    begin_stop(s, name);
}

/* ----------------------------------------------------------------- setup */

static void on_spin(uv_idle_t *h)
{
    /* Being active is its job (libuv does not sleep in poll then); yielding
     * lets a thread that shares this CPU (the client, a worker) run. */
    (void)h;
    sched_yield();
}

/* After an iteration that did work, poll without sleeping for as long as
 * the pool says (pool_loop_spin_ns): a client doing one request at a time
 * sends its next one within microseconds, a worker's answer is due about as
 * long after its job started as the last job took, and waking a sleeping
 * vCPU costs more than either wait.  With every worker busy it does not
 * spin: the loop would take CPU a solve needs. */
static void update_spin(struct server *s)
{
    uint64_t now, ns;

    if (s->cfg.spin_us == 0 || s->is_closed)
        return;
    now = clock_now_ns();
    if (s->conns.activity != s->seen_activity && (ns = pool_loop_spin_ns(s->pool)) > 0) {
        s->seen_activity = s->conns.activity;
        s->spin_until_ns = now + ns;
        if (!uv_is_active((uv_handle_t *)&s->spinner))
            uv_idle_start(&s->spinner, on_spin);
    } else if (now >= s->spin_until_ns && uv_is_active((uv_handle_t *)&s->spinner)) {
        uv_idle_stop(&s->spinner);
    }
}

/* Once per iteration, after the I/O callbacks: the connections' deferred
 * work (closes reported, reading resumed after completions, answers
 * written), then the shutdown's next step, last since it may close all. */
static void on_check(uv_check_t *h)
{
    struct server *s = h->data;

    conn_set_run_ready(&s->conns);
    if (s->pool)
        pool_flush(s->pool);
    s->dispatch.inline_spent_ns = 0;
    update_spin(s);
    check_stop(s);
    /* Closes made by the step just taken are reported now, not after the
     * loop next sleeps; each connection closes once, so this ends. */
    while (!s->is_closed && conn_set_has_ready(&s->conns)) {
        conn_set_run_ready(&s->conns);
        check_stop(s);
    }
}

static void on_watchdog(uv_timer_t *t)
{
    (void)t;
    sdn_notify("WATCHDOG=1");
}

static int init_handles(struct server *s)
{
    uint64_t wd = sdn_watchdog_usec();

    s->sig_term.data = s->sig_int.data = s->sig_hup.data = s->flusher.data = s->grace.data = s;
    s->watchdog.data = s->quiet.data = s->accept_retry.data = s->path_check.data = s;
    if (uv_signal_init(s->loop, &s->sig_term) < 0 || uv_signal_init(s->loop, &s->sig_int) < 0 ||
        uv_signal_init(s->loop, &s->sig_hup) < 0 || uv_check_init(s->loop, &s->flusher) < 0 ||
        uv_timer_init(s->loop, &s->grace) < 0 || uv_timer_init(s->loop, &s->watchdog) < 0 ||
        uv_timer_init(s->loop, &s->quiet) < 0 || uv_timer_init(s->loop, &s->accept_retry) < 0 ||
        uv_timer_init(s->loop, &s->path_check) < 0 || uv_idle_init(s->loop, &s->spinner) < 0)
        return -ENOMEM;
    uv_unref((uv_handle_t *)&s->path_check);
    uv_unref((uv_handle_t *)&s->spinner);
    uv_signal_start(&s->sig_term, on_signal, SIGTERM);
    uv_signal_start(&s->sig_int, on_signal, SIGINT);
    uv_signal_start(&s->sig_hup, on_signal, SIGHUP);
    uv_unref((uv_handle_t *)&s->sig_hup);
    uv_check_start(&s->flusher, on_check);
    uv_unref((uv_handle_t *)&s->flusher);
    if (wd > 0)
        uv_timer_start(&s->watchdog, on_watchdog, wd / 2000 ? wd / 2000 : 1,
                       wd / 2000 ? wd / 2000 : 1);
    return 0;
}

static void announce(struct server *s)
{
    char status[SERVER_PATH_SIZE + 128];
    const char *where = s->is_activated ? "an inherited socket" : s->cfg.socket_path;

    snprintf(status, sizeof(status), "STATUS=serving on %s: %zu solvers, %u workers", where,
             host_count(s->host), s->cfg.threads);
    log_msg(SDK_LOG_INFO, "%s", status + 7);
    sdn_notify("READY=1");
    sdn_notify(status);
}

static void log_open_handle(uv_handle_t *h, void *arg)
{
    const char *type = uv_handle_type_name(uv_handle_get_type(h));

    (void)arg;
    log_msg(SDK_LOG_ERR, "still open: %s handle%s%s", type ? type : "unknown",
            uv_is_active(h) ? ", active" : "", uv_is_closing(h) ? ", closing" : "");
}

/* Every handle was closed on the way out: prove it.  Returns 0, or the
 * uv_loop_close() error after logging every handle left open. */
static int close_loop(uv_loop_t *loop)
{
    int rc = uv_loop_close(loop);

    if (rc == 0) {
        log_msg(SDK_LOG_DEBUG, "loop closed clean");
        return 0;
    }
    log_msg(SDK_LOG_ERR, "event loop not closed: %s", uv_strerror(rc));
    uv_walk(loop, log_open_handle, NULL);
    return rc;
}

static void held_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

void server_hold_signals(void)
{
    sigset_t set;

    held_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void release_signals(void)
{
    sigset_t set;

    held_set(&set);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int server_run(const struct server_config *cfg, struct host *host)
{
    struct server s = {.cfg = *cfg,
                       .host = host,
                       .is_activated = cfg->listen_fd >= 0,
                       .sockpath = {.lock_fd = -1}};
    uv_loop_t loop;
    int rc;

    if (uv_loop_init(&loop) < 0)
        return 1;
    s.loop = &loop;
    conn_set_init(&s.conns, &loop, cfg->max_message, cfg->max_connections, &s.stats);
    conn_set_limits(&s.conns, cfg->max_message, cfg->max_connections, cfg->max_per_uid);
    if (dispatch_init(&s.dispatch, &loop, host, NULL, &s.stats) < 0)
        return 1;
    s.dispatch.timeout_ms = cfg->timeout_ms;
    s.dispatch.max_queue = cfg->max_queue;
    s.dispatch.inline_us = cfg->inline_us;
    rc = stats_init(&s.stats, host);
    if (rc == 0)
        rc = init_handles(&s);
    if (rc == 0)
        rc = conn_set_watch_idle(&s.conns, (uint64_t)cfg->idle_timeout_s * 1000u,
                                 cfg->message_timeout_ms);
    if (rc == 0)
        rc = open_listener(&s);
    if (rc == 0) {
        rc = pool_new(&loop, cfg->threads, cfg->max_queue, cfg->spin_us, &s.pool);
        if (rc < 0)
            log_msg(SDK_LOG_ERR, "cannot start workers: %s", strerror(-rc));
        s.dispatch.pool = s.pool;
    }
    if (rc == 0) {
        announce(&s);
        release_signals(); /* one held since startup is handled on the loop now */
        uv_run(&loop, UV_RUN_DEFAULT);
    } else {
        close_all(&s);
    }
    /* close_all() closed every handle: the loop ends once their callbacks ran. */
    uv_run(&loop, UV_RUN_DEFAULT);
    if (close_loop(&loop) < 0)
        rc = -EBUSY;
    stats_close(&s.stats);
    sockpath_unlink(&s.sockpath, s.cfg.socket_path); /* when the listener never opened */
    sockpath_unlock(&s.sockpath);
    if (s.has_stuck) {
        /* Returning would unload plugins that a written-off thread is
         * still running. */
        log_msg(SDK_LOG_WARNING, "exiting with workers still stuck in a plugin");
        log_close(); /* _exit runs no atexit: write the queued lines (1 s at most) */
        _exit(rc == 0 ? 0 : 1);
    }
    return rc == 0 ? 0 : 1;
}
