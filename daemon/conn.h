/* conn.h -- one client connection: framing, write queue, backpressure.
 *
 * A connection reads bytes into a buffer bounded by --max-message, cuts it
 * into messages with rpc_read() and hands each to its user (dispatch)
 * through the callbacks it was accepted with; it knows nothing else above
 * it.  The user packs answers into conn->out and marks the connection
 * dirty; answers that come later (solve jobs) are announced with
 * conn_defer() and settled with conn_complete().  Reading stops while too
 * many answers are owed or too many response bytes are unsent, and resumes
 * as they drain: a pipelining client is slowed, never failed.
 *
 * Room for an answer is taken before its work is accepted: the user
 * reserves the answer's worst-case size (conn_reserve) against the same
 * bounds as unsent bytes, and gives it back (conn_release) when it packs
 * the answer, whose bytes are then counted as unsent.  A message whose
 * answer does not fit is held: it stays in the buffer, unparsed as far as
 * the connection is concerned, reading stops, and it is handed out again
 * once an answer owed on the connection was packed or written.
 *
 * One place does the deferred work: every connection with something to do
 * (output to write, a completion to resume after, a close to report) sits
 * on its set's ready list, which conn_set_run_ready() drains once per loop
 * iteration (the server's check handle).  So nothing a user calls re-enters
 * a connection's read, and a close reaches the user (on_closed) only from
 * there, never from inside the call that closed it.
 *
 * Lifetime: the handle holds one reference, the ready list one while the
 * connection is on it, and each user of the pointer (a solve job) one, taken
 * with conn_ref() and dropped with conn_unref(); the struct is freed when
 * the handle is closed and the last reference went.  Loop thread only.
 */
#ifndef SUDOKUD_CONN_H
#define SUDOKUD_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>
#include <uv.h>

#include "daemon/list.h"
#include "daemon/log.h"
#include "proto/read.h"

#define CONN_MAX_IN_FLIGHT  128         /* owed answers per connection before reading pauses */
#define CONN_MAX_UNSENT     (1u << 20)  /* unsent response bytes before reading pauses */
#define CONN_MAX_UNSENT_ALL (64u << 20) /* unsent + reserved bytes, all connections: past ... */
#define CONN_SHARE_UNSENT   (16u << 10) /* ... it a connection owing this much stops reading */
#define CONN_MAX_INPUT_ALL  (64u << 20) /* input buffers, all connections: none grows past it */

struct conn;
struct stats;

/* One decoded message of c (req->code may carry an error to answer, with
 * its reason in err). */
typedef void conn_message_fn(void *user, struct conn *c, const struct rpc_request *req,
                             const char *err);
/* Something happened to c (see struct conn_callbacks). */
typedef void conn_event_fn(void *user, struct conn *c);

/* How a connection reaches its user; user is the pointer given to conn_accept. */
struct conn_callbacks {
    conn_message_fn *on_message; /* a complete message, in order */
    conn_event_fn *on_batch_end; /* the messages of one pass are handed out: start their work */
    conn_event_fn *on_closed;    /* once, from conn_set_run_ready, after c stopped taking
                                    answers (closed or draining): drop what is owed; the
                                    last call user gets */
};

/* Every connection of one server, and the ready list. */
struct conn_set {
    uv_loop_t *loop;                /* the one loop */
    size_t max_message;             /* --max-message */
    unsigned max_connections;       /* --max-connections */
    unsigned max_per_uid;           /* --max-connections-per-uid, 0: a quarter of the above */
    uid_t own_uid;                  /* the daemon's: not held to max_per_uid */
    uint64_t message_timeout_ms;    /* --message-timeout, 0 off */
    struct stats *stats;            /* connections, connections_total, errors: counted here */
    struct list all;                /* every open connection (conn.link), newest first */
    struct list ready;              /* connections with deferred work (conn.ready_link) */
    uint64_t next_id;               /* ids for log lines */
    uint64_t activity;              /* bumped per read and per completion (the spin heuristic) */
    struct log_limit refusals;      /* lines about refused requests and connections, all users */
    struct log_limit accept_errors; /* the server's lines about failed accepts */
    size_t unsent_all;              /* unsent response bytes of every connection */
    size_t reserved_all;            /* room reserved for answers, every connection */
    size_t input_all;               /* input buffer bytes (cap) of every connection */
    unsigned starved_len;           /* connections paused for want of input room */
    uint64_t idle_timeout_ms;       /* --idle-timeout, 0 off */
    uv_timer_t idle_timer;          /* closes idle and stuck connections */
    int has_idle_timer;             /* idle_timer initialised */
    uint64_t fd_limit;              /* RLIMIT_NOFILE when the set was made */
};

struct conn {
    uv_pipe_t pipe;                  /* the socket; first, so handle == conn */
    struct conn_set *set;            /* owner */
    const struct conn_callbacks *cb; /* the user's */
    void *user;                      /* handed to every callback */
    struct list link;                /* set->all, while not closing */
    struct list ready_link;          /* set->ready, while it has deferred work */
    unsigned refs;                   /* handle + ready list + users (conn_ref) */
    uint64_t id;                     /* for log lines */
    uint64_t last_active_ms;         /* uv_now() when bytes last came in or went out */
    uint64_t idle_since_ms;          /* uv_now() at accept, last message read, last write done */
    uint64_t message_start_ms;       /* uv_now() when the unfinished message began, 0 none */
    uint64_t paused_ms;              /* uv_now() when reading last paused, 0 while reading */
    pid_t pid;                       /* peer (SO_PEERCRED), -1 unknown */
    uid_t uid;                       /* peer uid */
    uint8_t *buf;                    /* received, not yet parsed */
    size_t len, cap;                 /* bytes in buf, its size */
    msgpack_sbuffer out;             /* responses not yet handed to uv_write */
    char *spare;                     /* a written buffer kept for out, or NULL */
    size_t spare_size;               /* its allocated size */
    size_t writing_size;             /* bytes in the uv_write in progress */
    size_t in_flight;                /* answers owed (conn_defer, not yet conn_complete) */
    size_t unsent_counted;           /* this connection's share of set->unsent_all */
    size_t reserved;                 /* room reserved for answers owed (conn_reserve) */
    size_t input_counted;            /* this connection's share of set->input_all */
    unsigned is_writing : 1;         /* a uv_write is in progress */
    unsigned is_reading : 1;         /* uv_read_start is active */
    unsigned is_closing : 1;         /* uv_close called: send nothing more */
    unsigned is_draining : 1;        /* close once everything is written */
    unsigned is_served : 1;          /* counted in stats.connections */
    unsigned is_eof : 1;             /* peer shut its write side: answer, then close */
    unsigned is_ended : 1;           /* closing or draining: on_closed is due or done */
    unsigned needs_resume : 1;       /* ready: process buffered input, restart reading */
    unsigned needs_closed_call : 1;  /* ready: on_closed not called yet */
    unsigned has_more_input : 1;     /* bytes after the message being handed out (pipelining) */
    unsigned is_starved : 1;         /* reading paused: no input room left (CONN_MAX_INPUT_ALL) */
    unsigned is_held : 1;            /* the message in hand waits for answer room (conn_reserve) */
};

/* An empty set for loop; stats is the server's (it must outlive the set). */
void conn_set_init(struct conn_set *set, uv_loop_t *loop, size_t max_message,
                   unsigned max_connections, struct stats *stats);

/* New limits (a reload): the next message read on any connection is held
 * to max_message (a larger one is answered `too_large`, as always), and
 * the next connection accepted to max_connections and max_per_uid (0: a
 * quarter of max_connections, at least 1); those open stay. */
void conn_set_limits(struct conn_set *set, size_t max_message, unsigned max_connections,
                     unsigned max_per_uid);

/* Close connections that have owed nothing and moved no byte either way
 * for idle_timeout_ms (idle, stuck mid-message, or not reading what they
 * were sent), and connections whose message, once begun, is not complete
 * within message_timeout_ms (while the daemon is reading it: a client
 * sending a byte at a time), each with a log line; 0 turns either off.
 * Called again (a reload), the new timeouts replace the old.  Returns 0 or
 * a libuv error.  conn_set_close() stops it. */
int conn_set_watch_idle(struct conn_set *set, uint64_t idle_timeout_ms,
                        uint64_t message_timeout_ms);

/* Close the set's own handles (the idle timer): at shutdown, with the rest. */
void conn_set_close(struct conn_set *set);

/* Take the connection libuv has accepted on listener (call once per
 * connection callback: libuv stops watching the listener until the fd is
 * taken) and serve it with cb and user, or refuse it politely (over
 * --max-connections-per-uid, or over --max-connections with no connection
 * to evict: see admit.h) with an `overloaded` error notification and a log
 * line naming the peer.  Returns 0 (user now gets on_closed once, refused or
 * not), or -ENOMEM when nothing was taken: the connection stays pending in
 * libuv, user is not referenced, and the caller should try again later. */
int conn_accept(struct conn_set *set, uv_stream_t *listener, const struct conn_callbacks *cb,
                void *user);

/* Do the deferred work of every ready connection: report closes, resume
 * after completions and drained writes, write what is queued (the server's
 * check handle, once per loop iteration). */
void conn_set_run_ready(struct conn_set *set);

/* 1 when some connection still has deferred work. */
int conn_set_has_ready(const struct conn_set *set);

/* Close every connection now (queued output is lost). */
void conn_set_close_all(struct conn_set *set);

/* Keep c's memory while a pointer to it is held; every conn_ref() needs
 * one conn_unref(). */
void conn_ref(struct conn *c);

/* Drop a reference; frees c after its handle closed and the last one went. */
void conn_unref(struct conn *c);

/* Room for one more response?  0 once the connection is closing or draining. */
int conn_can_send(const struct conn *c);

/* After packing into c->out: schedule the write for this loop iteration. */
void conn_mark_dirty(struct conn *c);

/* The answer to the message being handed out will come later: counts
 * against CONN_MAX_IN_FLIGHT until the matching conn_complete(). */
void conn_defer(struct conn *c);

/* From on_message: room for an answer of size bytes, before its work is
 * accepted.  Returns 0 (reserved: conn_release it when the answer is
 * packed or dropped), or -EAGAIN when it does not fit: the message is held
 * (on_message must return without doing anything with it) and handed out
 * again after an answer owed on c was packed or written.  It fits when c
 * owes nothing (reserved or unsent), or when c's owed bytes with size stay
 * within CONN_MAX_UNSENT and, past CONN_MAX_UNSENT_ALL for all
 * connections, within CONN_SHARE_UNSENT. */
int conn_reserve(struct conn *c, size_t size);

/* Give back size bytes of c's reservation (the answer was packed, or will
 * never be). */
void conn_release(struct conn *c, size_t size);

/* A deferred answer is settled (packed, or dropped because c is closing):
 * c processes what is buffered and reads again from conn_set_run_ready. */
void conn_complete(struct conn *c);

/* Nothing owed, nothing unsent, no resume pending: closing c now would lose
 * no answer. */
int conn_is_idle(const struct conn *c);

/* Stop reading, send what is queued, then close (shutdown; broken input). */
void conn_drain_close(struct conn *c);

/* Close now: output lost; the user hears of it through on_closed.  The
 * client reads what was already written, then end of stream, never a reset
 * (what it sent and was not read is dropped first). */
void conn_close(struct conn *c);

#endif /* SUDOKUD_CONN_H */
