/* client_impl.h -- internals shared by the files of libsudoku-client.
 *
 * Not installed.  The msgpack encoding and decoding of protocol v1 is the
 * client's end of proto/ (wire_*: pure functions on buffers and msgpack
 * objects, unit-tested on bytes), which this header brings in whole;
 * client__* is the connection machinery of client.c that batch.c and
 * generate.c drive.  Non-static internal functions are hidden from the
 * shared library by the visibility preset; only SUDOKU_CLIENT_API functions
 * are exported.
 */
#ifndef SUDOKU_CLIENT_IMPL_H
#define SUDOKU_CLIENT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include <sudoku/client.h>

#include "proto/admin.h"
#include "proto/explain.h"
#include "proto/generate.h"
#include "proto/protocol.h"
#include "proto/rpc.h"
#include "proto/solve.h"
#include "util/cbuf.h"

/* The old name of wire_set_error (proto/rpc.h), kept for tool/local.c. */
#define client__set_error wire_set_error

/* Called for every response that arrives on a connection. */
typedef void (*client_response_fn)(void *arg, const struct wire_msg *m);

/* The connection.  Requests are encoded into wbuf and flushed by
 * client__pump, which also reads, frames (mpscan) and dispatches answers. */
struct sudoku_client {
    int fd;                                /* non-blocking stream socket, owned */
    char path[108];                        /* socket path, "" for open_fd */
    unsigned io_timeout_ms;                /* 0: wait forever */
    uint32_t next_msgid;                   /* for one-at-a-time calls */
    int failed;                            /* 0, or the negative errno that broke it */
    struct sudoku_client_error fail_error; /* why it broke */
    struct cbuf rbuf;                      /* bytes read, not yet dispatched */
    struct cbuf wbuf;                      /* bytes to write */
    size_t woff;                           /* bytes of wbuf already written */
    msgpack_zone zone;                     /* for one incoming message at a time */
    client_response_fn on_response;        /* who wants the answers */
    void *on_response_arg;
    unsigned last_sync_us; /* round trip of the last synchronous call (0: none yet) */
    /* The last solvers list's rules (sudoku_client_solver_rules): */
    int has_solvers;                                     /* a list was read */
    size_t solvers_len;                                  /* entries the daemon listed */
    unsigned solver_rules[SUDOKU_CLIENT_MAX_SOLVERS][2]; /* each: solve's, explain's */
};

/* How long a caller that expects an answer within microseconds polls
 * before it sleeps in poll() (see client__pump). */
#define CLIENT_SPIN_US 50

/* A synchronous call polls without sleeping for twice as long as the
 * previous one took (an explanation's answer comes a few hundred
 * microseconds after the request, not at once), and at most this. */
#define CLIENT_SPIN_MAX_US 1000

/* Flush, wait (block: up to the I/O timeout, else not at all) and dispatch
 * what arrived.  With block and spin_us, first polls without sleeping for up
 * to spin_us (for answers due at once).  Returns 0 or the connection's
 * negative errno (c->failed). */
int client__pump(struct sudoku_client *c, int block, unsigned spin_us);
/* Called with the response to a client__call, while it is valid. */
typedef void (*client_answer_fn)(void *arg, const struct wire_msg *m);
/* One request at a time: the request for msgid is in c->wbuf (pack_rc 0) or
 * failed to encode (pack_rc < 0: err "usage").  Sends it and pumps until its
 * response came, which goes to fn(arg, m).  Returns 0 once fn ran, else the
 * negative errno with err set (c broken, or pack_rc). */
int client__call(struct sudoku_client *c, int pack_rc, uint32_t msgid, client_answer_fn fn,
                 void *arg, struct sudoku_client_error *err);
/* Mark c broken with rc, code and message (the first failure wins).  Returns rc. */
int client__fail(struct sudoku_client *c, int rc, const char *code, const char *message);

#endif /* SUDOKU_CLIENT_IMPL_H */
