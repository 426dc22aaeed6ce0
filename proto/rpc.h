/* rpc.h -- the envelope of wire protocol v1, both ends side by side.
 *
 * docs/protocol.md is the contract.  Every message travels in one of three
 * arrays, and this module is what both ends do with them, apart from what a
 * method puts inside (proto/solve.h, explain.h, generate.h, admin.h):
 *
 *     [0, msgid, method, params]    request: the client packs, the daemon reads
 *     [1, msgid, error, result]     response: the daemon packs, the client reads
 *     [2, method, params]           notification: cancel (client), error (daemon)
 *
 * and the error object {"code": ..., "message": ...} inside the last two.
 * The daemon's end (rpc_*) frames one message from hostile bytes without
 * allocating before it is bounded, checks the request array and packs
 * responses that are whole or absent; the client's end (wire_*) packs
 * request arrays into a struct cbuf and splits what it reads into its parts.
 * proto/read.h puts the daemon's reader together.
 *
 * Nothing here keeps state: every function is thread-safe.
 */
#ifndef SUDOKU_RPC_H
#define SUDOKU_RPC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>
#include <sudoku/client.h>

#include "proto/mpsmall.h"
#include "proto/protocol.h"
#include "util/cbuf.h"

#define RPC_ERR_SIZE     256 /* room for any error message this module writes */
#define RPC_MAX_DEPTH    16  /* nesting accepted on the wire (a request needs 3) */
#define RPC_NAME_SIZE    32  /* room for a method name as sent, for logs */
#define RPC_MSG_REQUEST  0   /* [0, msgid, method, params] */
#define RPC_MSG_RESPONSE 1   /* [1, msgid, error, result] */
#define RPC_MSG_NOTIFY   2   /* [2, method, params] */

/* The daemon's name for proto_pack_cstr (daemon/ and method/ pack with it). */
static inline int rpc_pack_cstr(msgpack_packer *pk, const char *s)
{
    return proto_pack_cstr(pk, s);
}

/* ------------------------------------------------------ the daemon's end */

/* One message framed: bounded, then unpacked.  Lives on the caller's stack. */
struct rpc_frame {
    msgpack_object obj;        /* the message, while is_unpacked and until closed */
    int is_unpacked;           /* obj holds it (else msgpack-c refused the bytes) */
    int is_zoned;              /* zone was initialised: close destroys it */
    struct mpsmall_zone small; /* holds a small plain message: no allocation */
    msgpack_zone zone;         /* holds any other */
};

/* Frame the message at the start of buf[0..len) into *f.  Returns:
 *   > 0  its length in bytes; f->is_unpacked says whether f->obj holds it
 *        (else the bytes were bounded but msgpack-c refused them: a bad
 *        request, the reason in err);
 *   0    the message is incomplete: read more and call again;
 *   -E2BIG / -EBADMSG  too large / not msgpack or nested deeper than
 *        RPC_MAX_DEPTH (reason in err): the stream cannot be resynchronised;
 *   -ENOMEM.
 * max_size bounds the message in bytes.  A small plain object is built on
 * the stack by mpsmall_unpack(); anything else is bounded by mpscan_object()
 * before msgpack_unpack() allocates for it.  Call rpc_frame_close(f) after,
 * whatever this returned. */
ssize_t rpc_frame_read(struct rpc_frame *f, const uint8_t *buf, size_t len, size_t max_size,
                       char *err, size_t err_size);
/* Free what framing allocated; f->obj is invalid from then on. */
void rpc_frame_close(struct rpc_frame *f);

/* A request or notification whose array was checked, params not yet read. */
struct rpc_envelope {
    int type;                           /* RPC_MSG_REQUEST or RPC_MSG_NOTIFY */
    uint32_t msgid;                     /* requests: the id, 0 when unreadable */
    enum rpc_method method;             /* what was asked, RPC_M_UNKNOWN for none */
    char method_name[RPC_NAME_SIZE];    /* the name as sent (truncated, printable) */
    const msgpack_object_array *params; /* points into the object */
};

/* Check the array of message obj into *env: a request is [0, msgid (uint32),
 * method (str), params (array)]; whatever starts with 2 is a notification
 * [2, method, params], and only "cancel" is one a client may send (any other
 * name is RPC_M_UNKNOWN, as is "cancel" sent as a request and "error").
 * Returns RPC_OK with env->params set, or the code with the reason in err
 * (env->type and, when readable, msgid and method are set all the same). */
enum rpc_code rpc_decode_envelope(const msgpack_object *obj, struct rpc_envelope *env, char *err,
                                  size_t err_size);

/* Write the printf-style reason into err (when err is non-NULL and
 * err_size > 0) and return code: every decoder's way to refuse. */
enum rpc_code rpc_failf(char *err, size_t err_size, enum rpc_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copy str o into out (out_size > 0), truncated, every byte that is not
 * printable as '?': a name from the wire, safe to log. */
void rpc_copy_printable(char *out, size_t out_size, const msgpack_object *o);

/* The encoders below append one complete message to sb, or nothing: on
 * failure sb is cut back to its size before the call.  They return 0, or
 * -ENOMEM (nothing appended) unless said otherwise. */

/* [1, msgid, {"code": ..., "message": ...}, nil] */
int rpc_pack_error(msgpack_sbuffer *sb, uint32_t msgid, enum rpc_code code, const char *message);

/* [2, "error", [{"code": ..., "message": ...}]] */
int rpc_pack_error_note(msgpack_sbuffer *sb, enum rpc_code code, const char *message);

/* Packs one result object with pk, arg being what the caller passed along.
 * Returns 0 or a negative errno (a partial object is cut away after). */
typedef int rpc_result_fn(msgpack_packer *pk, const void *arg);

/* [1, msgid, nil, result], fn packing result, through write (NULL for
 * msgpack_sbuffer_write; tests pass one that fails).  Never leaves part of
 * a message: when packing fails sb is cut back and the error response
 * `internal` is packed instead.  Returns 0 (the answer), -ENOMEM (`internal`
 * instead) or -ENOBUFS (nothing appended: not even the error fitted). */
int rpc_pack_answer(msgpack_sbuffer *sb, msgpack_packer_write write, uint32_t msgid,
                    rpc_result_fn *fn, const void *arg);

/* Start a success response: packs "[1, msgid, nil," and leaves the result to
 * the caller, who packs exactly one object with pk.  Does not roll back:
 * prefer rpc_pack_answer. */
int rpc_pack_result_head(msgpack_packer *pk, uint32_t msgid);

/* ------------------------------------------------------ the client's end */

/* The options map of one request, gathered before it is packed: only the
 * keys the caller set, in the order they were added. */
#define WIRE_OPTS_MAX 12 /* keys one request sets at most (generate: 11) */

struct sudoku_client_rules;

struct wire_opt {
    enum proto_key key;                                                    /* the key */
    enum { WIRE_UINT, WIRE_BOOL, WIRE_STR, WIRE_DOUBLE, WIRE_RULES } type; /* the value's */
    uint64_t u;                              /* WIRE_UINT; WIRE_BOOL 0 or 1 */
    double f;                                /* WIRE_DOUBLE */
    const char *s;                           /* WIRE_STR, borrowed */
    size_t len;                              /* bytes of s */
    const struct sudoku_client_rules *rules; /* WIRE_RULES, borrowed (proto/rules.h) */
};

struct wire_opts {
    unsigned len; /* entries in use */
    struct wire_opt opt[WIRE_OPTS_MAX];
};

/* Add key k with an unsigned integer, a boolean, a string (len bytes of s,
 * borrowed until packed) or a double; each appends one entry (at most
 * WIRE_OPTS_MAX). */
void wire_opt_uint(struct wire_opts *w, enum proto_key k, uint64_t v);
void wire_opt_bool(struct wire_opts *w, enum proto_key k, int v);
void wire_opt_str(struct wire_opts *w, enum proto_key k, const char *s, size_t len);
void wire_opt_cstr(struct wire_opts *w, enum proto_key k, const char *s); /* NUL-terminated */
void wire_opt_double(struct wire_opts *w, enum proto_key k, double v);
/* Add the rules map (key rules) when r asks for any rule; r is borrowed
 * until packed and must have passed wire_rules_check. */
void wire_opt_rules(struct wire_opts *w, const struct sudoku_client_rules *r);
/* Pack w as a map: its length, then each key and value as msgpack-c
 * packs them (smallest integer encodings). */
void wire_pack_opts(msgpack_packer *pk, const struct wire_opts *w);

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

/* Split o into *m.  Returns 0 or -EPROTO when o is no response or
 * notification of protocol v1. */
int wire_classify(const msgpack_object *o, struct wire_msg *m);
/* Read an error map {code, message} into err.  Returns 0 or -EPROTO. */
int wire_decode_error(const msgpack_object *o, struct sudoku_client_error *err);

/* Copy str object o (NULL: -EPROTO) into out, truncating.  Returns 0 or
 * -EPROTO. */
int wire_copy_str(const msgpack_object *o, char *out, size_t out_size);
/* Read the unsigned integer at key of map; a missing key reads as 0 when
 * optional.  Returns 0 or -EPROTO. */
int wire_get_u64(const msgpack_object *map, enum proto_key key, int optional, uint64_t *out);

/* Set err (if non-NULL) to code and a printf-style message. */
void wire_set_error(struct sudoku_client_error *err, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* SUDOKU_RPC_H */
