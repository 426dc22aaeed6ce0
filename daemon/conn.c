/* conn.c -- per-connection reading, framing, writing and backpressure.
 *
 * Input: bytes accumulate in c->buf (grown on demand up to --max-message plus
 * one read's worth); rpc_read() cuts complete messages off the front.  A
 * message that is not msgpack or is too large cannot be skipped reliably, so
 * the connection gets an error notification and is closed; nothing else is.
 *
 * Output: responses are packed into c->out and handed to uv_write once per
 * loop iteration, so a burst of answers costs one syscall.  At most one write
 * is in progress; its buffer is owned by the write request until the callback,
 * then kept (c->spare) for the next burst while more answers are on their
 * way, so that a busy connection writes from two buffers in turn instead of
 * growing a new one for every burst.
 *
 * Backpressure: while CONN_MAX_IN_FLIGHT answers are owed or
 * CONN_MAX_UNSENT bytes are unsent or reserved for answers owed, messages
 * stay unparsed in c->buf and reading stops, so the kernel's socket buffer
 * pushes back on the client.  A message whose answer finds no room
 * (conn_reserve) is held the same way: process() leaves it at the front of
 * c->buf and hands it out again on the next resume, which an answer owed on
 * the connection always brings (its completion or its write); a connection
 * owing nothing always has room, so nothing waits forever.
 *
 * Deferred work: a completion, a drained write, queued output and a close
 * only put the connection on set->ready (holding a reference);
 * conn_set_run_ready() does the work from the check handle.  process() is therefore entered only
 * from the connection's own read, a shutdown step or the ready list, never
 * from inside itself, and the user's on_closed never runs inside the call
 * that closed the connection.  Debug builds assert the reference counts.
 */
#define _GNU_SOURCE /* struct ucred */
#include "daemon/conn.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/admit.h"
#include "daemon/log.h"
#include "daemon/stats.h"

#define CONN_BUF_START 4096 /* first input buffer size */
#define CONN_FD_MARGIN 2    /* a connection's descriptor this close to the limit: warn */

#define CONN_SPARE_MAX (256 * 1024) /* largest written buffer kept for reuse */

struct write_req {
    uv_write_t req; /* libuv's */
    struct conn *c; /* whose */
    char *data;     /* owned until the callback */
    size_t size;    /* bytes */
    size_t alloc;   /* data's allocated size */
};

static void resume(struct conn *c);
static void pause_reading(struct conn *c);
static void count_unsent(struct conn *c);
static void count_input(struct conn *c);

void conn_set_init(struct conn_set *set, uv_loop_t *loop, size_t max_message,
                   unsigned max_connections, struct stats *stats)
{
    struct rlimit rl;

    memset(set, 0, sizeof(*set));
    set->loop = loop;
    set->max_message = max_message;
    set->max_connections = max_connections;
    set->own_uid = geteuid();
    set->stats = stats;
    list_init(&set->all);
    list_init(&set->ready);
    log_limit_init(&set->refusals);
    log_limit_init(&set->accept_errors);
    set->fd_limit = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                        ? (uint64_t)rl.rlim_cur
                        : UINT64_MAX;
}

void conn_ref(struct conn *c)
{
    assert(c->refs > 0); /* a freed connection cannot be referenced again */
    c->refs++;
}

void conn_unref(struct conn *c)
{
    assert(c->refs > 0);
    if (--c->refs > 0)
        return;
    /* The handle's reference goes last, in its close callback. */
    assert(c->is_closing && list_empty(&c->link) && list_empty(&c->ready_link));
    assert(c->in_flight == 0 && !c->needs_closed_call && c->reserved == 0);
    msgpack_sbuffer_destroy(&c->out);
    free(c->spare);
    c->spare = NULL;
    c->writing_size = 0;
    count_unsent(c);
    free(c->buf);
    c->buf = NULL;
    c->cap = c->len = 0;
    count_input(c);
    free(c);
}

static void on_handle_closed(uv_handle_t *handle)
{
    conn_unref((struct conn *)handle);
}

/* Put c on the ready list (once); the list holds a reference. */
static void mark_ready(struct conn *c)
{
    if (!list_empty(&c->ready_link))
        return;
    conn_ref(c);
    list_insert_tail(&c->set->ready, &c->ready_link);
}

/* Keep set->unsent_all the sum of every connection's unsent bytes; call
 * after anything changed c->out.size or c->writing_size. */
static void count_unsent(struct conn *c)
{
    size_t now = c->out.size + c->writing_size;

    c->set->unsent_all = c->set->unsent_all - c->unsent_counted + now;
    c->unsent_counted = now;
}

/* Input room came free: every connection paused for want of it tries again. */
static void wake_starved(struct conn_set *set)
{
    struct list *l;

    if (set->starved_len == 0 || set->input_all >= CONN_MAX_INPUT_ALL)
        return;
    for (l = set->all.next; l != &set->all; l = l->next) {
        struct conn *o = LIST_CONTAINER_OF(l, struct conn, link);
        if (!o->is_starved)
            continue;
        o->is_starved = 0;
        set->starved_len--;
        o->needs_resume = 1;
        mark_ready(o);
    }
}

/* Keep set->input_all the sum of every connection's input buffer size. */
static void count_input(struct conn *c)
{
    int is_less = c->cap < c->input_counted;

    c->set->input_all = c->set->input_all - c->input_counted + c->cap;
    c->input_counted = c->cap;
    if (is_less)
        wake_starved(c->set);
}

static void unstarve(struct conn *c)
{
    if (!c->is_starved)
        return;
    c->is_starved = 0;
    c->set->starved_len--;
}

/* First close or drain: the user hears of it once, from the ready list. */
static void end_user(struct conn *c)
{
    if (c->is_ended)
        return;
    c->is_ended = 1;
    c->needs_closed_call = 1;
    mark_ready(c);
}

/* Shut both directions, then read and drop what the client had sent: a
 * Unix socket closed with bytes unread resets its peer (ECONNRESET, even
 * before it has read the answers it was sent), one closed with none gives
 * it those answers and then end of stream.  Shutting the read side first
 * keeps the client from adding bytes while they are dropped. */
static void shut_quietly(struct conn *c)
{
    char junk[4096];
    uv_os_fd_t fd;

    if (uv_fileno((uv_handle_t *)&c->pipe, &fd) < 0 || shutdown(fd, SHUT_RDWR) < 0)
        return;
    while (read(fd, junk, sizeof(junk)) > 0) /* non-blocking: ends at 0 once drained */
        ;
}

void conn_close(struct conn *c)
{
    if (c->is_closing)
        return;
    shut_quietly(c);
    c->is_closing = 1;
    c->is_reading = 0;
    unstarve(c);
    list_remove(&c->link);
    if (c->is_served)
        c->set->stats->connections--;
    c->is_served = 0;
    end_user(c);
    /* A ready connection stays on the ready list: only on_closed is due. */
    uv_close((uv_handle_t *)&c->pipe, on_handle_closed);
}

int conn_can_send(const struct conn *c)
{
    return !c->is_closing && !c->is_draining;
}

void conn_mark_dirty(struct conn *c)
{
    count_unsent(c);
    if (c->is_closing)
        return;
    mark_ready(c);
}

void conn_defer(struct conn *c)
{
    c->in_flight++;
}

void conn_complete(struct conn *c)
{
    assert(c->in_flight > 0);
    c->in_flight--;
    c->set->activity++;
    if (c->is_closing || c->is_draining)
        return;
    c->needs_resume = 1;
    mark_ready(c);
}

/* Bytes c owes: unsent, and reserved for answers not packed yet. */
static size_t owed_bytes(const struct conn *c)
{
    return c->out.size + c->writing_size + c->reserved;
}

/* Bytes every connection owes. */
static size_t owed_all(const struct conn_set *set)
{
    return set->unsent_all + set->reserved_all;
}

/* Reading pauses: a message held, too much owed or unsent on c, or, past
 * the daemon-wide bound, more than a small share owed on c.  A connection
 * paused here always has a write or a job in progress that resumes it; one
 * that reads its answers goes on while those that do not wait. */
static int is_full(const struct conn *c)
{
    size_t owed = owed_bytes(c);

    if (c->is_held || c->in_flight >= CONN_MAX_IN_FLIGHT || owed >= CONN_MAX_UNSENT)
        return 1;
    return owed >= CONN_SHARE_UNSENT && owed_all(c->set) >= CONN_MAX_UNSENT_ALL;
}

int conn_reserve(struct conn *c, size_t size)
{
    size_t owed = owed_bytes(c);
    int fits = owed + size <= CONN_MAX_UNSENT &&
               (owed + size <= CONN_SHARE_UNSENT || owed_all(c->set) + size <= CONN_MAX_UNSENT_ALL);

    if (owed > 0 && !fits) {
        c->is_held = 1;
        return -EAGAIN;
    }
    c->reserved += size;
    c->set->reserved_all += size;
    return 0;
}

void conn_release(struct conn *c, size_t size)
{
    assert(c->reserved >= size && c->set->reserved_all >= size);
    c->reserved -= size;
    c->set->reserved_all -= size;
}

/* Keep a written buffer for the next batch of answers while more are on
 * their way (answers owed, or some already packed); an idle connection
 * keeps none. */
static void keep_or_free(struct conn *c, struct write_req *w)
{
    if (!c->is_closing && !c->spare && w->alloc <= CONN_SPARE_MAX &&
        (c->in_flight > 0 || c->out.size > 0)) {
        c->spare = w->data;
        c->spare_size = w->alloc;
    } else {
        free(w->data);
    }
}

static void on_written(uv_write_t *req, int status)
{
    struct write_req *w = (struct write_req *)req;
    struct conn *c = w->c;

    keep_or_free(c, w);
    free(w);
    c->is_writing = 0;
    c->writing_size = 0;
    count_unsent(c);
    if (c->is_closing)
        return;
    c->last_active_ms = c->idle_since_ms = uv_now(c->set->loop);
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
    /* Write the rest, and read again if unsent bytes had paused reading. */
    c->needs_resume = 1;
    mark_ready(c);
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
    w->alloc = c->out.alloc;
    w->data = msgpack_sbuffer_release(&c->out);
    if (c->spare) { /* the next answers go into the last written buffer */
        c->out.data = c->spare;
        c->out.alloc = c->spare_size;
        c->spare = NULL;
    }
    buf = uv_buf_init(w->data, (unsigned)w->size);
    rc = uv_write(&w->req, (uv_stream_t *)&c->pipe, &buf, 1, on_written);
    if (rc < 0) {
        free(w->data);
        free(w);
        count_unsent(c);
        conn_close(c);
        return;
    }
    c->is_writing = 1;
    c->writing_size = w->size;
    count_unsent(c);
}

/* The deferred work of one ready connection, in the order that keeps the
 * user's view simple: the close first (drop what is owed), then what was
 * waiting on a completion or a write, then the write. */
static void run_one(struct conn *c)
{
    if (c->needs_closed_call) {
        c->needs_closed_call = 0;
        c->cb->on_closed(c->user, c);
    }
    if (c->needs_resume) {
        c->needs_resume = 0;
        resume(c);
    }
    flush_one(c);
}

void conn_set_run_ready(struct conn_set *set)
{
    /* run_one may put c back (an answer finished while processing): it is
     * then run again before this returns. */
    while (!list_empty(&set->ready)) {
        struct conn *c = LIST_CONTAINER_OF(set->ready.next, struct conn, ready_link);
        list_remove(&c->ready_link);
        run_one(c);
        conn_unref(c);
    }
}

int conn_set_has_ready(const struct conn_set *set)
{
    return !list_empty(&set->ready);
}

void conn_drain_close(struct conn *c)
{
    if (c->is_closing || c->is_draining)
        return;
    c->is_draining = 1;
    if (c->is_reading)
        uv_read_stop((uv_stream_t *)&c->pipe);
    c->is_reading = 0;
    end_user(c);
    if (c->out.size == 0 && !c->is_writing)
        conn_close(c);
}

/* Broken input: tell the client why in a notification, then hang up. */
static void fail_stream(struct conn *c, enum rpc_code code, const char *message)
{
    log_limited(&c->set->refusals, LOG_LVL_NOTICE, "conn %llu (pid %ld uid %ld): closing: %s: %s",
                (unsigned long long)c->id, (long)c->pid, (long)c->uid, proto_code_name(code),
                message);
    c->set->stats->errors++;
    c->len = 0;
    /* Out of memory: the note is left out whole (answers before it go). */
    (void)rpc_pack_error_note(&c->out, code, message);
    count_unsent(c);
    conn_drain_close(c);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    struct conn *c = (struct conn *)handle;
    size_t limit = c->set->max_message + 65536;
    size_t want = c->cap ? c->cap : CONN_BUF_START;
    uint8_t *p;

    (void)suggested;
    while (want - c->len < 4096 && want < limit)
        want = want * 2 < limit ? want * 2 : limit;
    /* Past the daemon-wide input bound no buffer grows beyond its first
     * size; with no room left at all, on_read gets UV_ENOBUFS and pauses. */
    if (want > c->cap && want > CONN_BUF_START &&
        c->set->input_all - c->cap + want > CONN_MAX_INPUT_ALL)
        want = c->cap ? c->cap : CONN_BUF_START;
    if (want != c->cap && (p = realloc(c->buf, want)) != NULL) {
        c->buf = p;
        c->cap = want;
        count_input(c);
    }
    *buf = uv_buf_init((char *)c->buf + c->len, (unsigned)(c->cap - c->len));
}

/* The buffer ends in an unfinished message: its deadline (--message-timeout)
 * counts from the first time it was seen so. */
static void note_partial(struct conn *c)
{
    if (c->message_start_ms == 0)
        c->message_start_ms = uv_now(c->set->loop) | 1; /* never 0: 0 is "none" */
}

static void process(struct conn *c)
{
    struct rpc_request req;
    char err[RPC_ERR_SIZE];
    size_t off = 0;

    c->is_held = 0; /* a held message is handed out again */
    while (!c->is_closing && !c->is_draining && !is_full(c) && off < c->len) {
        ssize_t n =
            rpc_read(c->buf + off, c->len - off, c->set->max_message, &req, err, sizeof(err));
        if (n == 0) {
            note_partial(c);
            break;
        }
        if (n < 0) {
            c->cb->on_batch_end(c->user, c);
            fail_stream(c, n == -E2BIG ? RPC_TOO_LARGE : RPC_BAD_REQUEST, err);
            return;
        }
        c->message_start_ms = 0; /* complete: no deadline, and no longer idle */
        c->idle_since_ms = uv_now(c->set->loop);
        c->has_more_input = off + (size_t)n < c->len;
        c->cb->on_message(c->user, c, &req, err);
        if (c->is_held)
            break; /* it stays at the front of buf (conn_reserve) */
        off += (size_t)n;
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
        count_input(c);
    }
    c->cb->on_batch_end(c->user, c); /* e.g. the workers start on what this pass queued */
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
        resume(c);
        return;
    }
    if (nread == UV_ENOBUFS) {
        /* No input room (CONN_MAX_INPUT_ALL): wait until some comes free. */
        pause_reading(c);
        if (!c->is_starved)
            c->set->starved_len++;
        c->is_starved = 1;
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
        c->last_active_ms = uv_now(c->set->loop);
        c->set->activity++;
    }
    if (c->len >= c->cap && c->cap >= c->set->max_message + 65536) {
        fail_stream(c, RPC_TOO_LARGE, "message larger than the size limit");
        return;
    }
    resume(c);
}

/* Backpressure (answers owed and unread, or no input room) stops reading;
 * the time it lasts is the daemon's, not the client's, so the unfinished
 * message's --message-timeout clock does not run through it. */
static void pause_reading(struct conn *c)
{
    uv_read_stop((uv_stream_t *)&c->pipe);
    c->is_reading = 0;
    c->paused_ms = uv_now(c->set->loop) | 1; /* never 0: 0 is "reading" */
}

/* Reading again: the message clock moves on by the part of the pause that
 * fell after the message began. */
static void restart_clock(struct conn *c)
{
    uint64_t now = uv_now(c->set->loop);

    if (c->message_start_ms != 0 && c->paused_ms != 0) {
        uint64_t since = c->paused_ms > c->message_start_ms ? c->paused_ms : c->message_start_ms;
        if (now > since)
            c->message_start_ms += now - since;
    }
    c->paused_ms = 0;
}

/* Process what is buffered, then pause or restart reading. */
static void resume(struct conn *c)
{
    if (c->is_closing || c->is_draining)
        return;
    process(c);
    if (c->is_closing || c->is_draining)
        return;
    if (c->is_eof) {
        if (c->in_flight == 0 && !is_full(c))
            conn_drain_close(c);
        return;
    }
    if (is_full(c) && c->is_reading) {
        log_msg(SDK_LOG_DEBUG, "conn %llu: reading paused (%zu in flight, %zu bytes unsent)",
                (unsigned long long)c->id, c->in_flight, c->out.size + c->writing_size);
        pause_reading(c);
    } else if (!is_full(c) && !c->is_reading && !c->is_starved) {
        if (uv_read_start((uv_stream_t *)&c->pipe, on_alloc, on_read) == 0) {
            c->is_reading = 1;
            restart_clock(c);
        }
    }
}

int conn_is_idle(const struct conn *c)
{
    return c->in_flight == 0 && !c->needs_resume && !c->is_writing && c->out.size == 0;
}

void conn_set_close_all(struct conn_set *set)
{
    struct list *l, *tmp;

    LIST_FOREACH_SAFE(l, tmp, &set->all)
    {
        conn_close(LIST_CONTAINER_OF(l, struct conn, link));
    }
}

/* A message begun and not finished within --message-timeout while the
 * daemon was reading (not paused by backpressure): a client dribbling
 * bytes to hold its slot.  It hears why (`timeout`) before the close. */
static int is_message_late(const struct conn *c, uint64_t now)
{
    uint64_t limit = c->set->message_timeout_ms;

    return limit > 0 && c->message_start_ms != 0 && c->is_reading && !c->is_draining &&
           !c->is_closing && now - c->message_start_ms >= limit;
}

static void close_late(struct conn *c)
{
    char msg[96];

    snprintf(msg, sizeof(msg), "message not complete within %llu ms (--message-timeout)",
             (unsigned long long)c->set->message_timeout_ms);
    fail_stream(c, RPC_TIMEOUT, msg);
}

/* Idle or stuck: nothing owed to it, and no byte in or out for the
 * timeout (a client that stopped mid-message or stopped reading); or a
 * message that has taken too long to arrive. */
static void on_idle_timer(uv_timer_t *t)
{
    struct conn_set *set = t->data;
    uint64_t now = uv_now(set->loop);
    struct list *l, *tmp;

    LIST_FOREACH_SAFE(l, tmp, &set->all)
    {
        struct conn *c = LIST_CONTAINER_OF(l, struct conn, link);
        if (is_message_late(c, now)) {
            close_late(c);
            continue;
        }
        if (set->idle_timeout_ms == 0 || c->is_closing || c->in_flight > 0 ||
            now - c->last_active_ms < set->idle_timeout_ms)
            continue;
        log_limited(&set->refusals, LOG_LVL_NOTICE,
                    "conn %llu (pid %ld uid %ld): closing: no traffic for %llu s (%s, "
                    "--idle-timeout)",
                    (unsigned long long)c->id, (long)c->pid, (long)c->uid,
                    (unsigned long long)((now - c->last_active_ms) / 1000),
                    c->is_writing ? "not reading its answers"
                    : c->len > 0  ? "stuck mid-message"
                                  : "idle");
        conn_close(c);
    }
}

void conn_set_limits(struct conn_set *set, size_t max_message, unsigned max_connections,
                     unsigned max_per_uid)
{
    set->max_message = max_message;
    set->max_connections = max_connections;
    set->max_per_uid = max_per_uid;
}

/* A quarter of timeout_ms (at least 1 ms): a connection is closed at most
 * a quarter late; UINT64_MAX when the timeout is off. */
static uint64_t tick_of(uint64_t timeout_ms)
{
    if (timeout_ms == 0)
        return UINT64_MAX;
    return timeout_ms / 4 ? timeout_ms / 4 : 1;
}

int conn_set_watch_idle(struct conn_set *set, uint64_t idle_timeout_ms, uint64_t message_timeout_ms)
{
    uint64_t tick = tick_of(idle_timeout_ms);

    if (tick_of(message_timeout_ms) < tick)
        tick = tick_of(message_timeout_ms);
    set->idle_timeout_ms = idle_timeout_ms;
    set->message_timeout_ms = message_timeout_ms;
    if (set->has_idle_timer)
        uv_timer_stop(&set->idle_timer); /* a reload: the new tick replaces the old */
    if (tick == UINT64_MAX)
        return 0;
    if (!set->has_idle_timer) {
        int rc = uv_timer_init(set->loop, &set->idle_timer);
        if (rc < 0)
            return rc;
        set->has_idle_timer = 1;
        set->idle_timer.data = set;
        uv_unref((uv_handle_t *)&set->idle_timer); /* never keeps the loop alive */
    }
    return uv_timer_start(&set->idle_timer, on_idle_timer, tick, tick);
}

void conn_set_close(struct conn_set *set)
{
    if (set->has_idle_timer && !uv_is_closing((uv_handle_t *)&set->idle_timer))
        uv_close((uv_handle_t *)&set->idle_timer, NULL);
}

static void read_peer(struct conn *c)
{
    struct ucred cred;
    socklen_t len = sizeof(cred);
    uv_os_fd_t fd;

    c->pid = -1;
    c->uid = (uid_t)-1;
    if (uv_fileno((uv_handle_t *)&c->pipe, &fd) < 0)
        return;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
        c->pid = cred.pid;
        c->uid = cred.uid;
    }
    /* Descriptors are handed out lowest first: this one is among the last.
     * libuv closes the connections it cannot take (EMFILE) without telling
     * us, so this is where the admin hears of it. */
    if ((uint64_t)fd + CONN_FD_MARGIN >= c->set->fd_limit)
        log_limited(&c->set->accept_errors, SDK_LOG_WARNING,
                    "out of file descriptors (descriptor %d of %llu): new connections are "
                    "closed unanswered until some close (raise LimitNOFILE=)",
                    (int)fd, (unsigned long long)c->set->fd_limit);
}

static void refuse(struct conn *c, const char *reason)
{
    log_limited(&c->set->refusals, SDK_LOG_WARNING, "refused connection from pid %ld uid %ld: %s",
                (long)c->pid, (long)c->uid, reason);
    (void)rpc_pack_error_note(&c->out, RPC_OVERLOADED, reason); /* or nothing, whole */
    count_unsent(c);
    conn_drain_close(c);
}

int conn_accept(struct conn_set *set, uv_stream_t *listener, const struct conn_callbacks *cb,
                void *user)
{
    struct conn *c = calloc(1, sizeof(*c));
    char why[128];

    if (!c || uv_pipe_init(set->loop, &c->pipe, 0) < 0) {
        free(c);
        return -ENOMEM;
    }
    c->set = set;
    c->cb = cb;
    c->user = user;
    c->refs = 1;
    c->id = ++set->next_id;
    c->last_active_ms = c->idle_since_ms = uv_now(set->loop);
    msgpack_sbuffer_init(&c->out);
    list_init(&c->ready_link);
    list_insert_head(&set->all, &c->link);
    if (uv_accept(listener, (uv_stream_t *)&c->pipe) < 0) {
        conn_close(c);
        return 0;
    }
    read_peer(c);
    /* Once accepted, a connection is served even while stopping (the
     * listener is closed then, so this is only a connection libuv had
     * pending): the shutdown promise covers every accepted connection. */
    if (admit_take_slot(set, c, why, sizeof(why)) < 0) {
        refuse(c, why);
        return 0;
    }
    c->is_served = 1;
    set->stats->connections++;
    set->stats->connections_total++;
    log_msg(SDK_LOG_DEBUG, "conn %llu: pid %ld uid %ld connected", (unsigned long long)c->id,
            (long)c->pid, (long)c->uid);
    resume(c);
    return 0;
}
