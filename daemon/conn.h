/* conn.h -- one client connection: framing, write queue, backpressure.
 *
 * A connection reads bytes into a buffer bounded by --max-message, cuts it
 * into messages with rpc_read() and hands each to dispatch.  Responses are
 * packed into conn->out and written once per loop iteration (server's check
 * handle), one uv_write at a time.  Reading stops while too many solves are in
 * flight or too many response bytes are unsent, and resumes as they drain:
 * a pipelining client is slowed, never failed.
 *
 * Lifetime: the handle holds one reference and every solve job one more; the
 * struct is freed when the handle is closed and the last job came back, so a
 * worker never finishes into freed memory.  Loop thread only.
 */
#ifndef SUDOKUD_CONN_H
#define SUDOKUD_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>
#include <uv.h>

#include "proto/rpc.h"

#define CONN_MAX_IN_FLIGHT 128        /* solves per connection before reading pauses */
#define CONN_MAX_UNSENT    (1u << 20) /* unsent response bytes before reading pauses */

struct server;
struct solve_job;

struct conn {
    uv_pipe_t pipe;               /* the socket; first, so handle == conn */
    struct server *srv;           /* owner */
    struct conn *prev, *next;     /* server->conns */
    struct conn *dirty_next;      /* server->dirty */
    unsigned refs;                /* handle + jobs in flight */
    uint64_t id;                  /* for log lines */
    uint64_t last_active_ms;      /* uv_now() when bytes last came in or went out */
    uint64_t inline_off_until_ms; /* no solves on the loop before this uv_now() (dispatch) */
    pid_t pid;                    /* peer (SO_PEERCRED), -1 unknown */
    uid_t uid;                    /* peer uid */
    uint8_t *buf;                 /* received, not yet parsed */
    size_t len, cap;              /* bytes in buf, its size */
    msgpack_sbuffer out;          /* responses not yet handed to uv_write */
    size_t writing_size;          /* bytes in the uv_write in progress */
    struct solve_job *jobs;       /* solves in flight (dispatch's list) */
    size_t in_flight;             /* length of jobs */
    unsigned is_dirty : 1;        /* on server->dirty */
    unsigned is_writing : 1;      /* a uv_write is in progress */
    unsigned is_reading : 1;      /* uv_read_start is active */
    unsigned is_closing : 1;      /* uv_close called: send nothing more */
    unsigned is_draining : 1;     /* close once everything is written */
    unsigned is_served : 1;       /* counted in stats.connections */
    unsigned is_processing : 1;   /* inside process(): no re-entry */
    unsigned is_eof : 1;          /* peer shut its write side: answer, then close */
    unsigned has_more_input : 1;  /* bytes after the message being dispatched (pipelining) */
};

/* Take the connection libuv has accepted on the server's listener (call once
 * per connection callback: libuv stops watching the listener until the fd is
 * taken) and serve it, or refuse it politely (over --max-connections) with an
 * `overloaded` error notification and a log line naming the peer.  Returns 0,
 * or -ENOMEM when nothing was taken: the connection stays pending in libuv
 * and the caller should try again later. */
int conn_accept(struct server *s);

/* Room for one more response?  0 once the connection is closing. */
int conn_can_send(const struct conn *c);

/* After packing into c->out: schedule the write for this loop iteration. */
void conn_mark_dirty(struct conn *c);

/* Write what every dirty connection has queued (the server's check handle). */
void conn_flush_dirty(struct server *s);

/* A job finished or a write drained: process buffered input, resume reading
 * (not after the shutdown grace period). */
void conn_resume(struct conn *c);

/* Nothing in flight, nothing unsent, no message being processed: closing c
 * now would lose no answer. */
int conn_is_idle(const struct conn *c);

/* Shutdown grace over: read no more bytes, but answer the complete messages
 * already buffered. */
void conn_end_input(struct conn *c);

/* Stop reading, send what is queued, then close (shutdown; broken input). */
void conn_drain_close(struct conn *c);

/* Close now: queued solves dropped, running ones cancelled, output lost. */
void conn_close(struct conn *c);

/* Drop a job's reference; frees c after its handle closed and the last job came back. */
void conn_unref(struct conn *c);

#endif /* SUDOKUD_CONN_H */
