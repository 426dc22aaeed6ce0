/* conn.c -- per-connection reading, framing, writing and backpressure.
 *
 * Input: bytes accumulate in c->buf (grown on demand up to --max-message plus
 * one read's worth); rpc_read() cuts complete messages off the front.  A
 * message that is not msgpack or is too large cannot be skipped reliably, so
 * the connection gets an error notification and is closed; nothing else is.
 *
 * Output: responses are packed into c->out and handed to uv_write once per
 * loop iteration, so a burst of answers costs one syscall.  At most one write
 * is in progress; its buffer is owned by the write request until the callback.
 *
 * Backpressure: while CONN_MAX_IN_FLIGHT solves are pending or
 * CONN_MAX_UNSENT bytes are unsent, messages stay unparsed in c->buf and
 * reading stops, so the kernel's socket buffer pushes back on the client.
 */
#define _GNU_SOURCE /* struct ucred */
#include "daemon/conn.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "daemon/dispatch.h"
#include "daemon/log.h"
#include "daemon/pool.h"
#include "daemon/server.h"

#define CONN_BUF_START 4096 /* first input buffer size */

struct write_req {
    uv_write_t req; /* libuv's */
    struct conn *c; /* whose */
    char *data;     /* owned until the callback */
    size_t size;    /* bytes */
};

static void on_closed(uv_handle_t *handle)
{
    conn_unref((struct conn *)handle);
}

void conn_unref(struct conn *c)
{
    if (--c->refs > 0)
        return;
    msgpack_sbuffer_destroy(&c->out);
    free(c->buf);
    free(c);
}

static void unlink_conn(struct conn *c)
{
    struct server *s = c->srv;

    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
    if (c->is_served)
        s->stats.connections--;
    c->is_served = 0;
}

void conn_close(struct conn *c)
{
    if (c->is_closing)
        return;
    c->is_closing = 1;
    c->is_reading = 0;
    dispatch_drop_jobs(c);
    unlink_conn(c);
    /* A dirty connection stays on the dirty list; the flusher skips it. */
    uv_close((uv_handle_t *)&c->pipe, on_closed);
    server_check_stop(c->srv);
}

int conn_can_send(const struct conn *c)
{
    return !c->is_closing;
}

void conn_mark_dirty(struct conn *c)
{
    if (c->is_dirty || c->is_closing)
        return;
    c->is_dirty = 1;
    c->refs++; /* the dirty list holds a reference */
    c->dirty_next = c->srv->dirty;
    c->srv->dirty = c;
}

static int is_full(const struct conn *c)
{
    return c->in_flight >= CONN_MAX_IN_FLIGHT || c->out.size + c->writing_size >= CONN_MAX_UNSENT;
}

static void on_written(uv_write_t *req, int status)
{
    struct write_req *w = (struct write_req *)req;
    struct conn *c = w->c;

    free(w->data);
    free(w);
    c->is_writing = 0;
    c->writing_size = 0;
    if (c->is_closing)
        return;
    c->last_active_ms = uv_now(c->srv->loop);
    if (status < 0) {
        log_msg(SDK_LOG_DEBUG, "conn %llu: write failed: %s", (unsigned long long)c->id,
                uv_strerror(status));
        conn_close(c);
        return;
    }
    if (c->out.size == 0 && c->is_draining) {
        conn_close(c);
        return;
    }
    if (c->out.size > 0)
        conn_mark_dirty(c);
    conn_resume(c);
}

static void flush_one(struct conn *c)
{
    struct write_req *w;
    uv_buf_t buf;
    int rc;

    if (c->is_closing || c->is_writing || c->out.size == 0)
        return;
    w = malloc(sizeof(*w));
    if (!w) {
        conn_close(c);
        return;
    }
    w->c = c;
    w->size = c->out.size;
    w->data = msgpack_sbuffer_release(&c->out);
    buf = uv_buf_init(w->data, (unsigned)w->size);
    rc = uv_write(&w->req, (uv_stream_t *)&c->pipe, &buf, 1, on_written);
    if (rc < 0) {
        free(w->data);
        free(w);
        conn_close(c);
        return;
    }
    c->is_writing = 1;
    c->writing_size = w->size;
}

void conn_flush_dirty(struct server *s)
{
    struct conn *c;

    while ((c = s->dirty) != NULL) {
        s->dirty = c->dirty_next;
        c->dirty_next = NULL;
        c->is_dirty = 0;
        flush_one(c);
        conn_unref(c);
    }
}

void conn_drain_close(struct conn *c)
{
    if (c->is_closing || c->is_draining)
        return;
    c->is_draining = 1;
    if (c->is_reading)
        uv_read_stop((uv_stream_t *)&c->pipe);
    c->is_reading = 0;
    dispatch_drop_jobs(c);
    if (c->out.size == 0 && !c->is_writing)
        conn_close(c);
    else
        conn_mark_dirty(c);
}

/* Broken input: tell the client why in a notification, then hang up. */
static void fail_stream(struct conn *c, enum rpc_code code, const char *message)
{
    log_msg(LOG_LVL_NOTICE, "conn %llu (pid %ld uid %ld): closing: %s: %s",
            (unsigned long long)c->id, (long)c->pid, (long)c->uid, rpc_code_name(code), message);
    c->srv->stats.errors++;
    c->len = 0;
    if (rpc_pack_error_note(&c->out, code, message) < 0)
        msgpack_sbuffer_clear(&c->out);
    conn_drain_close(c);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    struct conn *c = (struct conn *)handle;
    size_t limit = c->srv->cfg->max_message + 65536;
    size_t want = c->cap ? c->cap : CONN_BUF_START;
    uint8_t *p;

    (void)suggested;
    while (want - c->len < 4096 && want < limit)
        want = want * 2 < limit ? want * 2 : limit;
    if (want != c->cap && (p = realloc(c->buf, want)) != NULL) {
        c->buf = p;
        c->cap = want;
    }
    *buf = uv_buf_init((char *)c->buf + c->len, (unsigned)(c->cap - c->len));
}

static void process(struct conn *c)
{
    struct rpc_request req;
    char err[RPC_ERR_SIZE];
    size_t off = 0;

    if (c->is_processing)
        return; /* a job finished synchronously inside dispatch: the loop below goes on */
    c->is_processing = 1;
    while (!c->is_closing && !c->is_draining && !is_full(c) && off < c->len) {
        ssize_t n =
            rpc_read(c->buf + off, c->len - off, c->srv->cfg->max_message, &req, err, sizeof(err));
        if (n == 0)
            break;
        if (n < 0) {
            c->is_processing = 0;
            pool_flush(c->srv->pool);
            fail_stream(c, n == -E2BIG ? RPC_TOO_LARGE : RPC_BAD_REQUEST, err);
            return;
        }
        off += (size_t)n;
        c->has_more_input = off < c->len;
        dispatch_message(c, &req, err);
    }
    if (off > 0 && !c->is_closing && !c->is_draining) {
        memmove(c->buf, c->buf + off, c->len - off);
        c->len -= off;
    }
    if (c->len == 0 && c->cap > 4 * CONN_BUF_START) {
        /* A big message has gone: idle connections keep no big buffers. */
        free(c->buf);
        c->buf = NULL;
        c->cap = 0;
    }
    c->is_processing = 0;
    pool_flush(c->srv->pool); /* the workers start on what this batch queued */
}

/* After EOF: did the peer close completely (POLLHUP), or only shut its
 * write side (shutdown(SHUT_WR), still reading answers)? */
static int peer_is_gone(struct conn *c)
{
    struct pollfd pfd = {.events = POLLOUT};
    uv_os_fd_t fd;

    if (uv_fileno((uv_handle_t *)&c->pipe, &fd) < 0)
        return 1;
    pfd.fd = fd;
    return poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLERR));
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    struct conn *c = (struct conn *)stream;

    (void)buf;
    if (nread == UV_EOF && !peer_is_gone(c)) {
        /* Half-close: what was sent is still owed its answers. */
        c->is_eof = 1;
        uv_read_stop(stream);
        c->is_reading = 0;
        conn_resume(c);
        return;
    }
    if (nread < 0) {
        if (nread != UV_EOF)
            log_msg(SDK_LOG_DEBUG, "conn %llu: read: %s", (unsigned long long)c->id,
                    uv_strerror((int)nread));
        conn_close(c);
        return;
    }
    c->len += (size_t)nread;
    if (nread > 0) {
        c->last_active_ms = uv_now(c->srv->loop);
        c->srv->activity++;
    }
    if (c->len >= c->cap && c->cap >= c->srv->cfg->max_message + 65536) {
        fail_stream(c, RPC_TOO_LARGE, "message larger than the size limit");
        return;
    }
    conn_resume(c);
}

void conn_resume(struct conn *c)
{
    if (c->is_closing || c->is_draining)
        return;
    process(c);
    if (c->is_closing || c->is_draining)
        return;
    if (c->is_eof) {
        if (c->in_flight == 0 && !c->is_processing && !is_full(c))
            conn_drain_close(c);
        return;
    }
    if (is_full(c) && c->is_reading) {
        log_msg(SDK_LOG_DEBUG, "conn %llu: reading paused (%zu in flight, %zu bytes unsent)",
                (unsigned long long)c->id, c->in_flight, c->out.size + c->writing_size);
        uv_read_stop((uv_stream_t *)&c->pipe);
        c->is_reading = 0;
    } else if (!is_full(c) && !c->is_reading && c->srv->stop_phase == 0) {
        if (uv_read_start((uv_stream_t *)&c->pipe, on_alloc, on_read) == 0)
            c->is_reading = 1;
    }
}

int conn_is_idle(const struct conn *c)
{
    return c->in_flight == 0 && !c->is_processing && !c->is_writing && c->out.size == 0;
}

void conn_end_input(struct conn *c)
{
    if (c->is_closing || c->is_draining)
        return;
    if (c->is_reading)
        uv_read_stop((uv_stream_t *)&c->pipe);
    c->is_reading = 0;
    conn_resume(c); /* stop_phase > 0: processes, does not read again */
}

static void read_peer(struct conn *c)
{
    struct ucred cred;
    socklen_t len = sizeof(cred);
    uv_os_fd_t fd;

    c->pid = -1;
    c->uid = (uid_t)-1;
    if (uv_fileno((uv_handle_t *)&c->pipe, &fd) == 0 &&
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
        c->pid = cred.pid;
        c->uid = cred.uid;
    }
}

static void refuse(struct conn *c, const char *reason)
{
    log_msg(SDK_LOG_WARNING, "refused connection from pid %ld uid %ld: %s", (long)c->pid,
            (long)c->uid, reason);
    if (rpc_pack_error_note(&c->out, RPC_OVERLOADED, reason) < 0)
        msgpack_sbuffer_clear(&c->out);
    conn_drain_close(c);
}

int conn_accept(struct server *s)
{
    struct conn *c = calloc(1, sizeof(*c));

    if (!c || uv_pipe_init(s->loop, &c->pipe, 0) < 0) {
        free(c);
        return -ENOMEM;
    }
    c->srv = s;
    c->refs = 1;
    c->id = ++s->next_conn_id;
    c->last_active_ms = uv_now(s->loop);
    msgpack_sbuffer_init(&c->out);
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    if (uv_accept((uv_stream_t *)&s->listener, (uv_stream_t *)&c->pipe) < 0) {
        conn_close(c);
        return 0;
    }
    read_peer(c);
    /* Once accepted, a connection is served even while stopping (the
     * listener is closed then, so this is only a connection libuv had
     * pending): the shutdown promise covers every accepted connection. */
    if (s->stats.connections >= s->cfg->max_connections) {
        refuse(c, "too many connections (--max-connections)");
        return 0;
    }
    c->is_served = 1;
    s->stats.connections++;
    s->stats.connections_total++;
    log_msg(SDK_LOG_DEBUG, "conn %llu: pid %ld uid %ld connected", (unsigned long long)c->id,
            (long)c->pid, (long)c->uid);
    conn_resume(c);
    return 0;
}
