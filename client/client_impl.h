/* client_impl.h -- internals shared by the files of libsudoku-client.
 *
 * Not installed.  wire_* is the msgpack encoding and decoding of protocol v1
 * (pure functions on buffers and msgpack objects, unit-tested on bytes);
 * client__* is the connection machinery of client.c that batch.c drives.
 * Non-static internal functions are hidden from the shared library by the
 * visibility preset; only SUDOKU_CLIENT_API functions are exported.
 */
#ifndef SUDOKU_CLIENT_IMPL_H
#define SUDOKU_CLIENT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include <sudoku/client.h>

#include "proto/protocol.h"
#include "util/cbuf.h"

/* Kinds of incoming message. */
enum wire_kind {
    WIRE_RESPONSE = 1,    /* [1, msgid, error, result] */
    WIRE_NOTIFICATION = 2 /* [2, method, params] */
};

/* One incoming message split into its parts; pointers into the object. */
struct wire_msg {
    enum wire_kind kind;
    uint32_t msgid;               /* responses */
    const msgpack_object *error;  /* responses: nil or the error map */
    const msgpack_object *result; /* responses */
    const msgpack_object *method; /* notifications: a str */
    const msgpack_object *params; /* notifications: an array */
};

/* A request being packed into a cbuf.  The first failed append is kept,
 * so that a request is appended whole or not at all. */
struct wire_packer {
    msgpack_packer pk; /* pack the params with it */
    struct cbuf *buf;  /* borrowed */
    size_t start;      /* buf->len before the request */
    int rc;            /* 0, or the first append's error */
};
/* Start a request [0, msgid, method, <array of nparams>] in b; the caller
 * packs the nparams params with w->pk, then calls wire_end. */
void wire_begin(struct wire_packer *w, struct cbuf *b, uint32_t msgid, enum rpc_method m,
                size_t nparams);
/* Finish the request: on a failed append drop all of it.  Returns 0 or a
 * negative errno. */
int wire_end(struct wire_packer *w);

/* Append [0, msgid, method, []] to b.  Returns 0 or a negative errno. */
int wire_pack_call(struct cbuf *b, uint32_t msgid, enum rpc_method method);
/* Append a solve request with a line-form puzzle and the set options. */
int wire_pack_solve_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                        const struct sudoku_client_options *o);
/* Append a solve request with an array-form puzzle of n*n cells. */
int wire_pack_solve_cells(struct cbuf *b, uint32_t msgid, unsigned n, const uint8_t *cells,
                          const struct sudoku_client_options *o);

/* Split o into *m.  Returns 0 or -EPROTO when o is no response or
 * notification of protocol v1. */
int wire_classify(const msgpack_object *o, struct wire_msg *m);
/* Copy str object o (NULL: -EPROTO) into out, truncating.  Returns 0 or
 * -EPROTO. */
int wire_copy_str(const msgpack_object *o, char *out, size_t out_size);
/* Read the unsigned integer at key of map; a missing key reads as 0 when
 * optional.  Returns 0 or -EPROTO. */
int wire_get_u64(const msgpack_object *map, enum proto_key key, int optional, uint64_t *out);
/* Read an error map {code, message} into err.  Returns 0 or -EPROTO. */
int wire_decode_error(const msgpack_object *o, struct sudoku_client_error *err);
/* Fill res from a solve response's error and result.  Returns 0 (res->status
 * set) or -EPROTO (res->error is a "protocol" error). */
int wire_decode_solve(const msgpack_object *error, const msgpack_object *result,
                      struct sudoku_client_result *res);
/* Read a solvers result.  Returns 0 or -EPROTO. */
int wire_decode_solvers(const msgpack_object *result, struct sudoku_client_solver *out, size_t cap,
                        size_t *len);
/* Read a stats result.  Returns 0 or -EPROTO. */
int wire_decode_stats(const msgpack_object *result, struct sudoku_client_stats *out);

/* explain.c: rate requests for batch.c, and their answers.  Options as for
 * solve (solver, timeout_ms; limit is not sent). */
int wire_pack_rate_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                       const struct sudoku_client_options *o);
int wire_pack_rate_cells(struct cbuf *b, uint32_t msgid, unsigned n, const uint8_t *cells,
                         const struct sudoku_client_options *o);
/* Fill res from a rate response.  Returns 0 (res->status set) or -EPROTO
 * (res->error is a "protocol" error). */
int wire_decode_rate(const msgpack_object *error, const msgpack_object *result,
                     struct sudoku_client_rating *res);

/* Decode an explain result for a puzzle of side n, every cell and value
 * checked.  Returns 0 with *out (free it with
 * sudoku_client_explanation_free), -EPROTO or -ENOMEM. */
int wire_decode_explain(const msgpack_object *result, unsigned n,
                        struct sudoku_client_explanation **out);

/* gen.c: append a generate request to b.  Returns 0 or a negative errno
 * (nothing appended). */
int wire_pack_generate(struct cbuf *b, uint32_t msgid, const struct sudoku_client_generate_opts *o);
/* Decode the answer to a request for count puzzles.  On success *out is a
 * malloc'ed array of *len (1..count).  Returns 0, or -EPROTO with err set
 * (the daemon's error, or a "protocol" error), or -ENOMEM. */
int wire_decode_generate(const msgpack_object *error, const msgpack_object *result, unsigned count,
                         struct sudoku_client_puzzle **out, size_t *len,
                         struct sudoku_client_error *err);

/* Set err (if non-NULL) to code and a printf-style message. */
void client__set_error(struct sudoku_client_error *err, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

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
