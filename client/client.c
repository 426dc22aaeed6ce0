/* client.c -- one connection to sudokud and the one-request-at-a-time calls.
 *
 * The socket is non-blocking and driven by poll(): client__pump() writes what
 * it can of the pending requests, reads what has arrived, cuts it into whole
 * msgpack objects with mpscan_object() (which bounds every declared size
 * before msgpack_unpack() may allocate for it) and hands each response to
 * whoever registered on_response: a synchronous call below, or a batch.
 * Reading while writing means a pipelining caller can never deadlock against
 * a daemon that stops reading until its answers are taken.  A caller that
 * expects its answer within microseconds (one request at a time) polls the
 * socket without sleeping for CLIENT_SPIN_US first: on a virtual machine,
 * sleeping and being woken costs more than the whole round trip.
 *
 * A connection that breaks (I/O error, daemon closed it, protocol violation,
 * "error" notification) stays broken: c->failed keeps the first reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client/client_impl.h"
#include "proto/mpscan.h"
#include "proto/mpsmall.h"
#include "proto/protocol.h"
#include "util/clock.h"

#define READ_CHUNK 65536u /* bytes asked of one recv() */

/* ------------------------------------------------------------------------ */
/* Socket path and connecting */

int sudoku_client_socket_path(const char *explicit_path, char *out, size_t out_size)
{
    const char *env = getenv("SUDOKUD_SOCKET");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;
    if (explicit_path && *explicit_path)
        n = snprintf(out, out_size, "%s", explicit_path);
    else if (env && *env)
        n = snprintf(out, out_size, "%s", env);
    else if (geteuid() == 0)
        n = snprintf(out, out_size, "%s", SUDOKU_CLIENT_SYSTEM_SOCKET);
    else if (xdg && *xdg)
        n = snprintf(out, out_size, "%s/sudokud.sock", xdg);
    else
        return -ENOENT;
    if (n < 0 || (size_t)n >= out_size || (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path))
        return -ENAMETOOLONG;
    return 0;
}

static struct sudoku_client *client_new(int fd)
{
    struct sudoku_client *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->fd = fd;
    c->next_msgid = 1;
    c->rbuf.max = SUDOKU_CLIENT_MAX_MESSAGE + READ_CHUNK;
    c->wbuf.max = (size_t)64 << 20;
    if (!msgpack_zone_init(&c->zone, 4096)) {
        free(c);
        return NULL;
    }
    return c;
}

int sudoku_client_open_fd(int fd, struct sudoku_client **out)
{
    *out = NULL;
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        int rc = -errno;
        close(fd);
        return rc;
    }
    struct sudoku_client *c = client_new(fd);
    if (!c) {
        close(fd);
        return -ENOMEM;
    }
    *out = c;
    return 0;
}

static int connect_path(const char *path, int *fd_out)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    memcpy(sa.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        int rc = -errno;
        close(fd);
        return rc;
    }
    *fd_out = fd;
    return 0;
}

/* Permission denied on path because of what (the socket or its
 * directory, with st): when its group has the access need asks (0060 on
 * the socket, 0010 on the directory) and is not root's, join that group
 * (docs/systemd.md); else only its owner and root get in, and joining any
 * group would not help. */
static void advise_access(const char *path, const char *what, const struct stat *st, mode_t need,
                          char *out, size_t out_size)
{
    const char *kind = strcmp(what, path) == 0 ? "the socket" : "its directory";
    struct group *g = st->st_gid != 0 ? getgrgid(st->st_gid) : NULL;
    struct passwd *pw = getpwuid(st->st_uid);
    char owner[64];

    if (pw)
        snprintf(owner, sizeof(owner), "%s", pw->pw_name);
    else
        snprintf(owner, sizeof(owner), "uid %ld", (long)st->st_uid);
    if (st->st_gid != 0 && (st->st_mode & need) == need) {
        if (g)
            snprintf(out, out_size,
                     "permission denied on %s: you are not in group %s (usermod -aG)", path,
                     g->gr_name);
        else
            snprintf(out, out_size, "permission denied on %s: you are not in group %ld", path,
                     (long)st->st_gid);
        return;
    }
    /* A long path may cut the end: the start says what matters. */
    if (snprintf(out, out_size, "permission denied on %s: %s (mode %04o) lets in only %s%s", path,
                 kind, (unsigned)(st->st_mode & 07777), owner, st->st_uid ? " and root" : "") < 0)
        out[0] = '\0';
}

/* Why connecting to path failed, in words an admin can act on: a missing
 * socket, a group to join or whose socket it is, or a stale socket file. */
static void explain_connect(const char *path, int rc, char *out, size_t out_size)
{
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    struct stat st;
    char *slash;

    if (rc == -ENOENT) {
        snprintf(out, out_size, "no socket at %s: is sudokud running?", path);
        return;
    }
    if (rc == -ECONNREFUSED) {
        snprintf(out, out_size, "nothing listens on %s (a stale socket): is sudokud running?",
                 path);
        return;
    }
    if (rc != -EACCES && rc != -EPERM) {
        snprintf(out, out_size, "cannot connect to %s: %s", path, strerror(-rc));
        return;
    }
    /* The socket, else (when its directory cannot be searched) the
     * directory: what its owner and mode let in says what to do. */
    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    if (stat(path, &st) == 0)
        advise_access(path, path, &st, 0060, out, out_size);
    else if (stat(dir, &st) == 0)
        advise_access(path, dir, &st, 0010, out, out_size);
    else
        snprintf(out, out_size, "permission denied on %s", path);
}

/* Where to look when no path is given and SUDOKUD_SOCKET is unset: the user's
 * own daemon first, then the system one.  Returns how many it filled. */
static int default_candidates(char out[][sizeof(((struct sockaddr_un *)0)->sun_path)])
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n = 0;

    if (geteuid() != 0 && xdg && *xdg &&
        (size_t)snprintf(out[n], sizeof(out[n]), "%s/sudokud.sock", xdg) < sizeof(out[n]))
        n++;
    snprintf(out[n++], sizeof(out[0]), "%s", SUDOKU_CLIENT_SYSTEM_SOCKET);
    return n;
}

int sudoku_client_connect(const char *path, struct sudoku_client **out,
                          struct sudoku_client_error *err)
{
    char cand[2][sizeof(((struct sockaddr_un *)0)->sun_path)];
    const char *env = getenv("SUDOKUD_SOCKET");
    char why[2][SUDOKU_CLIENT_MESSAGE_SIZE / 2];
    const char *resolved = NULL;
    int fd = -1, n = 1, rc = -ENOENT;

    *out = NULL;
    if ((path && *path) || (env && *env)) {
        rc = sudoku_client_socket_path(path, cand[0], sizeof(cand[0]));
        if (rc < 0) {
            wire_set_error(err, "connect", "socket path too long (at most %zu bytes)",
                           sizeof(cand[0]) - 1);
            return rc;
        }
    } else {
        n = default_candidates(cand);
    }
    for (int i = 0; i < n && !resolved; i++) {
        rc = connect_path(cand[i], &fd);
        if (rc == 0)
            resolved = cand[i];
        else
            explain_connect(cand[i], rc, why[i], sizeof(why[i]));
    }
    if (!resolved) {
        if (n == 1)
            wire_set_error(err, "connect", "%s", why[0]);
        else
            wire_set_error(err, "connect", "%s; %s", why[0], why[1]);
        return rc;
    }
    rc = sudoku_client_open_fd(fd, out);
    if (rc < 0) {
        wire_set_error(err, "connect", "cannot set up the connection: %s", strerror(-rc));
        return rc;
    }
    snprintf((*out)->path, sizeof((*out)->path), "%s", resolved);
    return 0;
}

void sudoku_client_free(struct sudoku_client *c)
{
    if (!c)
        return;
    close(c->fd);
    cbuf_free(&c->rbuf);
    cbuf_free(&c->wbuf);
    msgpack_zone_destroy(&c->zone);
    free(c);
}

const char *sudoku_client_path(const struct sudoku_client *c)
{
    return c->path;
}

void sudoku_client_set_io_timeout(struct sudoku_client *c, unsigned ms)
{
    c->io_timeout_ms = ms;
}

int sudoku_client_broken(const struct sudoku_client *c, struct sudoku_client_error *why)
{
    if (c->failed && why)
        *why = c->fail_error;
    return c->failed;
}

const char *sudoku_client_status_name(enum sudoku_client_status status)
{
    switch (status) {
    case SUDOKU_CLIENT_SOLVED:
        return proto_key(PROTO_K_SOLVED);
    case SUDOKU_CLIENT_UNSOLVABLE:
        return proto_key(PROTO_K_UNSOLVABLE);
    case SUDOKU_CLIENT_NOT_UNIQUE:
        return proto_code_name(RPC_NOT_UNIQUE);
    default:
        return "error";
    }
}

/* ------------------------------------------------------------------------ */
/* Pumping bytes */

int client__fail(struct sudoku_client *c, int rc, const char *code, const char *message)
{
    if (!c->failed) {
        c->failed = rc;
        wire_set_error(&c->fail_error, code, "%s", message);
    }
    return c->failed;
}

/* The daemon's "error" notification: it is about to close the connection. */
static int on_notification(struct sudoku_client *c, const struct wire_msg *m)
{
    struct sudoku_client_error e;
    const msgpack_object *p = m->params;
    if (proto_method_of(m->method) != RPC_M_ERROR)
        return 0; /* other notifications carry nothing we need */
    if (p->via.array.size < 1 || wire_decode_error(&p->via.array.ptr[0], &e) < 0)
        return client__fail(c, -EPROTO, "protocol", "malformed error notification");
    char msg[SUDOKU_CLIENT_MESSAGE_SIZE];
    snprintf(msg, sizeof(msg), "daemon closed the connection: %.200s", e.message);
    return client__fail(c, -EPROTO, e.code, msg);
}

/* Hand one decoded message to its handler. */
static int handle_object(struct sudoku_client *c, const msgpack_object *o)
{
    struct wire_msg m;

    if (wire_classify(o, &m) < 0)
        return client__fail(c, -EPROTO, "protocol",
                            "the daemon sent a message that is not "
                            "protocol v1");
    if (m.kind == WIRE_NOTIFICATION)
        return on_notification(c, &m);
    if (c->on_response)
        c->on_response(c->on_response_arg, &m);
    return 0;
}

/* The general path: one complete object of len bytes, unpacked in the
 * connection's zone, which is cleared after its handler returns. */
static int dispatch_one(struct sudoku_client *c, const uint8_t *p, size_t len)
{
    msgpack_object o;
    size_t off = 0;
    int rc;

    if (msgpack_unpack((const char *)p, len, &off, &c->zone, &o) != MSGPACK_UNPACK_SUCCESS)
        rc = client__fail(c, -EPROTO, "protocol",
                          "the daemon sent a message that is not "
                          "protocol v1");
    else
        rc = handle_object(c, &o);
    msgpack_zone_clear(&c->zone);
    return rc;
}

/* Dispatch the object at p[0..avail): a small plain one (a solve answer) is
 * built on the stack by mpsmall without a zone; anything else is bounded by
 * mpscan first.  Returns its length, 0 when it is not complete yet, or a
 * negative errno after failing the connection. */
static ssize_t dispatch_next(struct sudoku_client *c, const uint8_t *p, size_t avail, int *rc)
{
    struct mpsmall_zone small;
    msgpack_object o;
    ssize_t n = mpsmall_unpack(p, avail, MPSCAN_MAX_DEPTH, &small, &o);

    if (n > 0 && (size_t)n <= SUDOKU_CLIENT_MAX_MESSAGE) {
        *rc = handle_object(c, &o);
        return n;
    }
    n = mpscan_object(p, avail, SUDOKU_CLIENT_MAX_MESSAGE, MPSCAN_MAX_DEPTH);
    if (n < 0)
        return client__fail(c, -EPROTO, "protocol",
                            n == -E2BIG ? "the daemon sent a message over the size limit"
                                        : "the daemon sent bytes that are not msgpack");
    if (n > 0)
        *rc = dispatch_one(c, p, (size_t)n);
    return n;
}

/* Dispatch every complete object in rbuf. */
static int dispatch_all(struct sudoku_client *c)
{
    size_t off = 0;
    int rc = 0;
    while (off < c->rbuf.len && !c->failed) {
        ssize_t n = dispatch_next(c, c->rbuf.data + off, c->rbuf.len - off, &rc);
        if (n <= 0) {
            if (n < 0)
                rc = (int)n;
            break;
        }
        off += (size_t)n;
    }
    cbuf_consume(&c->rbuf, off);
    return rc ? rc : c->failed;
}

/* One recv into rbuf, then dispatch.  Returns 1 when bytes came, 0 when
 * none were waiting, or the connection's negative errno. */
static int read_some(struct sudoku_client *c)
{
    if (cbuf_reserve(&c->rbuf, READ_CHUNK) < 0)
        return client__fail(c, -ENOMEM, "io", "out of memory for the read buffer");
    ssize_t n = recv(c->fd, c->rbuf.data + c->rbuf.len, READ_CHUNK, MSG_DONTWAIT);
    if (n == 0)
        return client__fail(c, -ECONNRESET, "closed", "the daemon closed the connection");
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return 0;
        return client__fail(c, -errno, "io", strerror(errno));
    }
    c->rbuf.len += (size_t)n;
    int rc = dispatch_all(c);
    return rc < 0 ? rc : 1;
}

static int do_read(struct sudoku_client *c)
{
    int rc = read_some(c);
    return rc < 0 ? rc : 0;
}

/* Waiting for an answer that is due within microseconds: poll the socket
 * without sleeping for up to spin_us, because putting the thread to sleep
 * and waking it costs more than that on a virtual machine.  Returns 1 when
 * bytes came, 0 when the time ran out, or the negative errno. */
static int spin_read(struct sudoku_client *c, unsigned spin_us)
{
    uint64_t end = clock_now_us() + spin_us;

    do {
        int rc = read_some(c);
        if (rc != 0)
            return rc;
        sched_yield(); /* let the daemon run if it shares this CPU */
    } while (clock_now_us() < end);
    return 0;
}

static int do_write(struct sudoku_client *c)
{
    while (c->woff < c->wbuf.len) {
        ssize_t n = send(c->fd, c->wbuf.data + c->woff, c->wbuf.len - c->woff, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                return 0;
            if (errno == EPIPE || errno == ECONNRESET) {
                int rc = -errno;
                /* It may have said why before it closed (an error
                 * notification such as overloaded): read that first. */
                while (!c->failed && read_some(c) > 0)
                    ;
                return client__fail(c, rc, "closed", "the daemon closed the connection");
            }
            return client__fail(c, -errno, "io", strerror(errno));
        }
        c->woff += (size_t)n;
    }
    c->wbuf.len = c->woff = 0;
    return 0;
}

int client__pump(struct sudoku_client *c, int block, unsigned spin_us)
{
    if (c->failed)
        return c->failed;
    if (do_write(c) < 0)
        return c->failed;
    if (block && spin_us && c->woff == c->wbuf.len) {
        int rc = spin_read(c, spin_us);
        if (rc != 0)
            return rc < 0 ? rc : 0;
    }
    struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
    if (c->woff < c->wbuf.len)
        pfd.events |= POLLOUT;
    int timeout = !block ? 0 : c->io_timeout_ms ? (int)c->io_timeout_ms : -1;
    int n = poll(&pfd, 1, timeout);
    if (n < 0)
        return errno == EINTR ? 0 : client__fail(c, -errno, "io", strerror(errno));
    if (n == 0)
        return block ? client__fail(c, -ETIMEDOUT, "io_timeout",
                                    "no answer from the daemon "
                                    "within the I/O timeout")
                     : 0;
    if ((pfd.revents & POLLOUT) && do_write(c) < 0)
        return c->failed;
    if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
        return do_read(c);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* One request at a time */

/* What a synchronous call waits for. */
struct sync_wait {
    uint32_t msgid;
    int done;
    void (*decode)(struct sync_wait *w, const struct wire_msg *m);
    void *out;
    struct sudoku_client_error *err;
    int rc;
};

static void sync_on_response(void *arg, const struct wire_msg *m)
{
    struct sync_wait *w = arg;
    if (m->msgid != w->msgid || w->done)
        return; /* a stale answer, e.g. of a batch freed early */
    w->done = 1;
    w->decode(w, m);
}

/* How long a synchronous call polls before it sleeps: twice the previous
 * call's round trip (the slow ones of a kind take about that), within
 * [CLIENT_SPIN_US, CLIENT_SPIN_MAX_US]. */
static unsigned sync_spin_us(const struct sudoku_client *c)
{
    unsigned us = 2 * c->last_sync_us;

    if (us < CLIENT_SPIN_US)
        return CLIENT_SPIN_US;
    return us < CLIENT_SPIN_MAX_US ? us : CLIENT_SPIN_MAX_US;
}

/* Send what is in wbuf and pump until the answer to w->msgid came. */
static int sync_call(struct sudoku_client *c, struct sync_wait *w)
{
    uint64_t start = clock_now_us();
    unsigned spin_us = sync_spin_us(c);

    c->on_response = sync_on_response;
    c->on_response_arg = w;
    while (!w->done && client__pump(c, 1, spin_us) == 0)
        ;
    c->on_response = NULL;
    uint64_t took = clock_now_us() - start;
    c->last_sync_us = took < CLIENT_SPIN_MAX_US ? (unsigned)took : CLIENT_SPIN_MAX_US;
    if (!w->done) {
        if (w->err)
            *w->err = c->fail_error;
        return c->failed;
    }
    return w->rc;
}

/* Fail early when c is broken or packing failed. */
static int sync_start(struct sudoku_client *c, int pack_rc, struct sudoku_client_error *err)
{
    if (c->failed) {
        if (err)
            *err = c->fail_error;
        return c->failed;
    }
    if (pack_rc < 0)
        wire_set_error(err, "usage", "cannot encode the request: %s", strerror(-pack_rc));
    return pack_rc;
}

/* Common part of every non-solve decoder: an error map becomes rc/err. */
static int sync_error(struct sync_wait *w, const struct wire_msg *m)
{
    if (m->error->type == MSGPACK_OBJECT_NIL)
        return 0;
    struct sudoku_client_error e;
    if (wire_decode_error(m->error, &e) < 0)
        wire_set_error(&e, "protocol", "malformed error in a response");
    if (w->err)
        *w->err = e;
    w->rc = -EPROTO;
    return -1;
}

static void decode_ping(struct sync_wait *w, const struct wire_msg *m)
{
    if (sync_error(w, m) < 0)
        return;
    if (wire_decode_pong(m->result) < 0) {
        w->rc = -EPROTO;
        wire_set_error(w->err, "protocol", "ping was not answered with \"pong\"");
    }
}

int sudoku_client_ping(struct sudoku_client *c, uint64_t *rtt_us, struct sudoku_client_error *err)
{
    struct sync_wait w = {.msgid = c->next_msgid++, .decode = decode_ping, .err = err};
    uint64_t t0 = clock_now_us();
    int rc = sync_start(c, wire_pack_call(&c->wbuf, w.msgid, RPC_M_PING), err);
    if (rc == 0)
        rc = sync_call(c, &w);
    if (rc == 0 && rtt_us)
        *rtt_us = clock_now_us() - t0;
    return rc;
}

static void decode_solve(struct sync_wait *w, const struct wire_msg *m)
{
    w->rc = wire_decode_solve(m->error, m->result, w->out) < 0 ? -EPROTO : 0;
}

static int solve_finish(struct sudoku_client *c, struct sync_wait *w, int rc,
                        struct sudoku_client_result *res)
{
    if (rc == 0)
        rc = sync_call(c, w);
    if (rc < 0 && !w->done) {
        struct sudoku_client_error e = c->failed ? c->fail_error : res->error;
        memset(res, 0, sizeof(*res));
        res->status = SUDOKU_CLIENT_FAILED;
        res->error = e;
    }
    return rc;
}

int sudoku_client_solve(struct sudoku_client *c, const char *puzzle, size_t len,
                        const struct sudoku_client_options *opts, struct sudoku_client_result *res)
{
    struct sync_wait w = {.msgid = c->next_msgid++, .decode = decode_solve, .out = res};
    memset(&res->error, 0, sizeof(res->error));
    int rc = sync_start(c, wire_pack_solve_str(&c->wbuf, w.msgid, puzzle, len, opts), &res->error);
    return solve_finish(c, &w, rc, res);
}

int sudoku_client_solve_rules(struct sudoku_client *c, const char *puzzle, size_t len,
                              const struct sudoku_client_options *opts,
                              const struct sudoku_client_rules *rules,
                              struct sudoku_client_result *res)
{
    struct sync_wait w = {.msgid = c->next_msgid++, .decode = decode_solve, .out = res};
    int pack_rc =
        wire_pack_solve_or_rate(&c->wbuf, w.msgid, RPC_M_SOLVE, puzzle, len, 0, NULL, opts, rules);

    memset(&res->error, 0, sizeof(res->error));
    return solve_finish(c, &w, sync_start(c, pack_rc, &res->error), res);
}

int sudoku_client_solve_cells(struct sudoku_client *c, unsigned n, const uint8_t *cells,
                              const struct sudoku_client_options *opts,
                              struct sudoku_client_result *res)
{
    struct sync_wait w = {.msgid = c->next_msgid++, .decode = decode_solve, .out = res};
    memset(&res->error, 0, sizeof(res->error));
    int rc = sync_start(c, wire_pack_solve_cells(&c->wbuf, w.msgid, n, cells, opts), &res->error);
    return solve_finish(c, &w, rc, res);
}

/* Where sudoku_client_solvers wants its list; c keeps the rules. */
struct solvers_out {
    struct sudoku_client *c;
    struct sudoku_client_solver *out;
    size_t cap;
    size_t *len;
};

/* Keep each listed solver's rules for sudoku_client_solver_rules. */
static void keep_solver_rules(struct sudoku_client *c, const msgpack_object *list)
{
    c->solvers_len = list->via.array.size;
    for (size_t i = 0; i < c->solvers_len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++) {
        const msgpack_object *e = &list->via.array.ptr[i];
        c->solver_rules[i][0] = wire_decode_solver_rules(e, PROTO_K_RULES);
        c->solver_rules[i][1] = wire_decode_solver_rules(e, PROTO_K_EXPLAIN_RULES);
    }
    c->has_solvers = 1;
}

static void decode_solvers(struct sync_wait *w, const struct wire_msg *m)
{
    struct solvers_out *so = w->out;
    if (sync_error(w, m) < 0)
        return;
    if (wire_decode_solvers(m->result, so->out, so->cap, so->len) < 0) {
        w->rc = -EPROTO;
        wire_set_error(w->err, "protocol", "malformed solvers list");
        return;
    }
    keep_solver_rules(so->c, m->result);
}

int sudoku_client_solver_rules(const struct sudoku_client *c, size_t i, unsigned *rules,
                               unsigned *explain_rules)
{
    if (!c->has_solvers)
        return -ENOENT;
    if (i >= c->solvers_len || i >= SUDOKU_CLIENT_MAX_SOLVERS)
        return -ERANGE;
    if (rules)
        *rules = c->solver_rules[i][0];
    if (explain_rules)
        *explain_rules = c->solver_rules[i][1];
    return 0;
}

int sudoku_client_solvers(struct sudoku_client *c, struct sudoku_client_solver *out, size_t cap,
                          size_t *len, struct sudoku_client_error *err)
{
    struct solvers_out so = {c, out, cap, len};
    struct sync_wait w = {
        .msgid = c->next_msgid++, .decode = decode_solvers, .out = &so, .err = err};
    *len = 0;
    int rc = sync_start(c, wire_pack_call(&c->wbuf, w.msgid, RPC_M_SOLVERS), err);
    return rc ? rc : sync_call(c, &w);
}

static void decode_stats(struct sync_wait *w, const struct wire_msg *m)
{
    if (sync_error(w, m) < 0)
        return;
    if (wire_decode_stats(m->result, w->out) < 0) {
        w->rc = -EPROTO;
        wire_set_error(w->err, "protocol", "malformed stats map");
    }
}

int sudoku_client_stats(struct sudoku_client *c, struct sudoku_client_stats *out,
                        struct sudoku_client_error *err)
{
    struct sync_wait w = {.msgid = c->next_msgid++, .decode = decode_stats, .out = out, .err = err};
    int rc = sync_start(c, wire_pack_call(&c->wbuf, w.msgid, RPC_M_STATS), err);
    return rc ? rc : sync_call(c, &w);
}

/* Where client__call hands the response. */
struct call_out {
    client_answer_fn fn;
    void *arg;
};

static void decode_call(struct sync_wait *w, const struct wire_msg *m)
{
    struct call_out *co = w->out;
    co->fn(co->arg, m);
}

int client__call(struct sudoku_client *c, int pack_rc, uint32_t msgid, client_answer_fn fn,
                 void *arg, struct sudoku_client_error *err)
{
    struct call_out co = {fn, arg};
    struct sync_wait w = {.msgid = msgid, .decode = decode_call, .out = &co, .err = err};
    int rc = sync_start(c, pack_rc, err);
    return rc ? rc : sync_call(c, &w);
}
