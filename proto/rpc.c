/* rpc.c -- the envelope of protocol v1: framing, the three arrays, error objects.
 *
 * The daemon's whole defence against hostile bytes starts in
 * rpc_frame_read(): a small plain object (a solve request always is) is
 * built on the stack by mpsmall_unpack(), which allocates nothing and keeps
 * mpscan's size and depth limits; anything else is first bounded by
 * mpscan_object() without allocating, and only then built by
 * msgpack_unpack() in a zone that lives until rpc_frame_close().
 * rpc_decode_envelope() never trusts a type: every element of the array is
 * checked before use.  The daemon's encoders append whole messages to a
 * msgpack_sbuffer or nothing.
 *
 * The client's end packs request arrays into a struct cbuf, a request whole
 * or not at all, and splits what the client read (already bounded by
 * mpscan and unpacked) into its parts.  Decoders are strict about the types
 * the protocol promises and lenient about extra map keys (it may grow).
 */
#include "proto/rpc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proto/end.h"
#include "proto/mpput.h"
#include "proto/mpscan.h"
#include "proto/rules.h"

/* ====================================================== the daemon's end */
#if PROTO_DAEMON_END

/* ----------------------------------------------------------------- reading */

enum rpc_code rpc_failf(char *err, size_t err_size, enum rpc_code code, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return code;
}

ssize_t rpc_frame_read(struct rpc_frame *f, const uint8_t *buf, size_t len, size_t max_size,
                       char *err, size_t err_size)
{
    size_t off = 0;
    ssize_t n = mpsmall_unpack(buf, len, RPC_MAX_DEPTH, &f->small, &f->obj);

    f->is_zoned = 0;
    /* Taken whole and within the limit: what mpscan would say (mpsmall.h). */
    f->is_unpacked = n > 0 && (size_t)n <= max_size;
    if (f->is_unpacked)
        return n;
    n = mpscan_object(buf, len, max_size, RPC_MAX_DEPTH);
    if (n == -E2BIG && err && err_size)
        snprintf(err, err_size, "message larger than the %zu-byte limit", max_size);
    else if (n < 0 && err && err_size)
        snprintf(err, err_size, "not a msgpack object (or nested deeper than %d)", RPC_MAX_DEPTH);
    if (n <= 0)
        return n;
    if (!msgpack_zone_init(&f->zone, 2048))
        return -ENOMEM;
    f->is_zoned = 1;
    f->is_unpacked = msgpack_unpack((const char *)buf, (size_t)n, &off, &f->zone, &f->obj) ==
                     MSGPACK_UNPACK_SUCCESS;
    if (!f->is_unpacked)
        rpc_failf(err, err_size, RPC_BAD_REQUEST, "msgpack object could not be unpacked");
    return n;
}

void rpc_frame_close(struct rpc_frame *f)
{
    if (f->is_zoned)
        msgpack_zone_destroy(&f->zone);
    f->is_zoned = 0;
    f->is_unpacked = 0;
}

/* A non-negative integer that fits max, else -1. */
static int64_t uint_of(const msgpack_object *o, uint64_t max)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
        return -1;
    return (int64_t)o->via.u64;
}

void rpc_copy_printable(char *out, size_t out_size, const msgpack_object *o)
{
    size_t len = o->via.str.size < out_size - 1 ? o->via.str.size : out_size - 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)o->via.str.ptr[i];
        out[i] = isprint(c) ? (char)c : '?';
    }
    out[len] = '\0';
}

/* The name o (a str) gave, for logs, and the method it is: "error" is the
 * daemon's own notification, never a client's. */
static void take_method(struct rpc_envelope *env, const msgpack_object *o)
{
    rpc_copy_printable(env->method_name, sizeof(env->method_name), o);
    env->method = proto_method_of(o);
    if (env->method == RPC_M_ERROR)
        env->method = RPC_M_UNKNOWN;
}

static enum rpc_code take_params(struct rpc_envelope *env, const msgpack_object *o, char *err,
                                 size_t err_size)
{
    if (o->type != MSGPACK_OBJECT_ARRAY)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "params must be an array");
    env->params = &o->via.array;
    return RPC_OK;
}

/* [2, method, params]: whatever else follows a 2 is a notification too, an
 * invalid one, so that it is ignored, never answered. */
static enum rpc_code decode_notification(const msgpack_object_array *a, struct rpc_envelope *env,
                                         char *err, size_t err_size)
{
    env->type = RPC_MSG_NOTIFY;
    if (a->size != 3 || a->ptr[1].type != MSGPACK_OBJECT_STR)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "a notification is [2, method, params]");
    take_method(env, &a->ptr[1]);
    if (env->method != RPC_M_CANCEL)
        env->method = RPC_M_UNKNOWN;
    return take_params(env, &a->ptr[2], err, err_size);
}

enum rpc_code rpc_decode_envelope(const msgpack_object *obj, struct rpc_envelope *env, char *err,
                                  size_t err_size)
{
    const msgpack_object_array *a = &obj->via.array;
    int64_t type, id;

    memset(env, 0, sizeof(*env));
    env->type = RPC_MSG_REQUEST;
    if (obj->type == MSGPACK_OBJECT_ARRAY && a->size >= 1 &&
        uint_of(&a->ptr[0], RPC_MSG_NOTIFY) == RPC_MSG_NOTIFY)
        return decode_notification(a, env, err, err_size);
    if (obj->type != MSGPACK_OBJECT_ARRAY || a->size < 3)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "a message is an array");
    type = uint_of(&a->ptr[0], RPC_MSG_NOTIFY);
    id = uint_of(&a->ptr[1], UINT32_MAX);
    env->msgid = id < 0 ? 0 : (uint32_t)id;
    if (type != RPC_MSG_REQUEST || a->size != 4 || id < 0)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "a request is [0, msgid (uint32), method (string), params (array)]");
    if (a->ptr[2].type != MSGPACK_OBJECT_STR)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "method must be a string");
    take_method(env, &a->ptr[2]);
    if (env->method == RPC_M_CANCEL)
        env->method = RPC_M_UNKNOWN; /* cancel is a notification only */
    return take_params(env, &a->ptr[3], err, err_size);
}

/* ----------------------------------------------------------------- writing */

static int pack_error_map(msgpack_packer *pk, enum rpc_code code, const char *message)
{
    if (msgpack_pack_map(pk, 2) < 0 || proto_pack_key(pk, PROTO_K_CODE) < 0 ||
        proto_pack_cstr(pk, proto_code_name(code)) < 0 || proto_pack_key(pk, PROTO_K_MESSAGE) < 0 ||
        proto_pack_cstr(pk, message ? message : proto_code_name(code)) < 0)
        return -ENOMEM;
    return 0;
}

/* The packer every encoder uses: write, or msgpack_sbuffer_write. */
static void init_packer(msgpack_packer *pk, msgpack_sbuffer *sb, msgpack_packer_write write)
{
    msgpack_packer_init(pk, sb, write ? write : msgpack_sbuffer_write);
}

/* A failed encoder leaves nothing behind: sb is cut back to mark. */
static int roll_back(msgpack_sbuffer *sb, size_t mark, int rc)
{
    if (rc < 0 && sb->size > mark)
        sb->size = mark;
    return rc;
}

static int pack_error_with(msgpack_sbuffer *sb, msgpack_packer_write write, uint32_t msgid,
                           enum rpc_code code, const char *message)
{
    msgpack_packer pk;
    size_t mark = sb->size;

    init_packer(&pk, sb, write);
    if (msgpack_pack_array(&pk, 4) < 0 || msgpack_pack_int(&pk, RPC_MSG_RESPONSE) < 0 ||
        msgpack_pack_uint32(&pk, msgid) < 0 || pack_error_map(&pk, code, message) < 0 ||
        msgpack_pack_nil(&pk) < 0)
        return roll_back(sb, mark, -ENOMEM);
    return 0;
}

int rpc_pack_error(msgpack_sbuffer *sb, uint32_t msgid, enum rpc_code code, const char *message)
{
    return pack_error_with(sb, NULL, msgid, code, message);
}

int rpc_pack_error_note(msgpack_sbuffer *sb, enum rpc_code code, const char *message)
{
    msgpack_packer pk;
    size_t mark = sb->size;

    init_packer(&pk, sb, NULL);
    if (msgpack_pack_array(&pk, 3) < 0 || msgpack_pack_int(&pk, RPC_MSG_NOTIFY) < 0 ||
        proto_pack_cstr(&pk, proto_method_name(RPC_M_ERROR)) < 0 ||
        msgpack_pack_array(&pk, 1) < 0 || pack_error_map(&pk, code, message) < 0)
        return roll_back(sb, mark, -ENOMEM);
    return 0;
}

/* Bytes as msgpack-c's packer writes them (mpput.h), in one write: every
 * answer starts so. */
int rpc_pack_result_head(msgpack_packer *pk, uint32_t msgid)
{
    uint8_t buf[8], *p = buf;

    *p++ = 0x94; /* fixarray of 4 */
    *p++ = RPC_MSG_RESPONSE;
    p = mpput_uint(p, msgid);
    *p++ = 0xc0; /* nil: no error */
    return pk->callback(pk->data, (const char *)buf, (size_t)(p - buf)) < 0 ? -ENOMEM : 0;
}

int rpc_pack_answer(msgpack_sbuffer *sb, msgpack_packer_write write, uint32_t msgid,
                    rpc_result_fn *fn, const void *arg)
{
    msgpack_packer pk;
    size_t mark = sb->size;

    init_packer(&pk, sb, write);
    if (rpc_pack_result_head(&pk, msgid) == 0 && fn(&pk, arg) == 0)
        return 0;
    roll_back(sb, mark, -ENOMEM);
    if (pack_error_with(sb, write, msgid, RPC_INTERNAL, "out of memory packing the answer") < 0)
        return -ENOBUFS;
    return -ENOMEM;
}

#endif /* PROTO_DAEMON_END */

/* ====================================================== the client's end */
#if PROTO_CLIENT_END

void wire_set_error(struct sudoku_client_error *err, const char *code, const char *fmt, ...)
{
    if (!err)
        return;
    snprintf(err->code, sizeof(err->code), "%s", code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
}

/* ----------------------------------------------------------------- writing */

static int packer_write(void *data, const char *buf, size_t len)
{
    struct wire_packer *w = data;
    int rc = w->rc ? w->rc : cbuf_append(w->buf, buf, len);
    if (rc < 0)
        w->rc = rc;
    return rc < 0 ? -1 : 0;
}

void wire_begin(struct wire_packer *w, struct cbuf *b, uint32_t msgid, enum rpc_method m,
                size_t nparams)
{
    w->buf = b;
    w->start = b->len;
    w->rc = 0;
    msgpack_packer_init(&w->pk, w, packer_write);
    msgpack_pack_array(&w->pk, 4);
    msgpack_pack_uint8(&w->pk, RPC_MSG_REQUEST);
    msgpack_pack_uint32(&w->pk, msgid);
    proto_pack_cstr(&w->pk, proto_method_name(m));
    msgpack_pack_array(&w->pk, nparams);
}

int wire_end(struct wire_packer *w)
{
    if (w->rc < 0)
        w->buf->len = w->start;
    return w->rc;
}

static struct wire_opt *opt_add(struct wire_opts *w, enum proto_key k, int type)
{
    struct wire_opt *o = &w->opt[w->len < WIRE_OPTS_MAX ? w->len++ : WIRE_OPTS_MAX - 1];
    o->key = k;
    o->type = type;
    return o;
}

void wire_opt_uint(struct wire_opts *w, enum proto_key k, uint64_t v)
{
    opt_add(w, k, WIRE_UINT)->u = v;
}

void wire_opt_bool(struct wire_opts *w, enum proto_key k, int v)
{
    opt_add(w, k, WIRE_BOOL)->u = v != 0;
}

void wire_opt_str(struct wire_opts *w, enum proto_key k, const char *s, size_t len)
{
    struct wire_opt *o = opt_add(w, k, WIRE_STR);
    o->s = s;
    o->len = len;
}

void wire_opt_cstr(struct wire_opts *w, enum proto_key k, const char *s)
{
    wire_opt_str(w, k, s, strlen(s));
}

void wire_opt_double(struct wire_opts *w, enum proto_key k, double v)
{
    opt_add(w, k, WIRE_DOUBLE)->f = v;
}

void wire_opt_rules(struct wire_opts *w, const struct sudoku_client_rules *r)
{
    if (!wire_rules_is_empty(r))
        opt_add(w, PROTO_K_RULES, WIRE_RULES)->rules = r;
}

static void pack_opt_value(msgpack_packer *pk, const struct wire_opt *o)
{
    switch (o->type) {
    case WIRE_RULES:
        wire_pack_rules(pk, o->rules);
        break;
    case WIRE_UINT:
        msgpack_pack_uint64(pk, o->u);
        break;
    case WIRE_BOOL:
        if (o->u)
            msgpack_pack_true(pk);
        else
            msgpack_pack_false(pk);
        break;
    case WIRE_DOUBLE:
        msgpack_pack_double(pk, o->f);
        break;
    default:
        msgpack_pack_str(pk, o->len);
        msgpack_pack_str_body(pk, o->s, o->len);
        break;
    }
}

void wire_pack_opts(msgpack_packer *pk, const struct wire_opts *w)
{
    msgpack_pack_map(pk, w->len);
    for (unsigned i = 0; i < w->len; i++) {
        proto_pack_key(pk, w->opt[i].key);
        pack_opt_value(pk, &w->opt[i]);
    }
}

/* ----------------------------------------------------------------- reading */

int wire_classify(const msgpack_object *o, struct wire_msg *m)
{
    memset(m, 0, sizeof(*m));
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 3)
        return -EPROTO;
    const msgpack_object *a = o->via.array.ptr;
    if (a[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return -EPROTO;
    if (a[0].via.u64 == RPC_MSG_RESPONSE && o->via.array.size == 4) {
        if (a[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER || a[1].via.u64 > UINT32_MAX)
            return -EPROTO;
        m->kind = WIRE_RESPONSE;
        m->msgid = (uint32_t)a[1].via.u64;
        m->error = &a[2];
        m->result = &a[3];
        return 0;
    }
    if (a[0].via.u64 == RPC_MSG_NOTIFY && o->via.array.size == 3 &&
        a[1].type == MSGPACK_OBJECT_STR && a[2].type == MSGPACK_OBJECT_ARRAY) {
        m->kind = WIRE_NOTIFICATION;
        m->method = &a[1];
        m->params = &a[2];
        return 0;
    }
    return -EPROTO;
}

int wire_copy_str(const msgpack_object *o, char *out, size_t out_size)
{
    if (!o || o->type != MSGPACK_OBJECT_STR)
        return -EPROTO;
    size_t len = o->via.str.size < out_size - 1 ? o->via.str.size : out_size - 1;
    memcpy(out, o->via.str.ptr, len);
    out[len] = '\0';
    return 0;
}

int wire_get_u64(const msgpack_object *map, enum proto_key key, int optional, uint64_t *out)
{
    const msgpack_object *v = proto_map_get(map, key);
    *out = 0;
    if (!v)
        return optional ? 0 : -EPROTO;
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return -EPROTO;
    *out = v->via.u64;
    return 0;
}

int wire_decode_error(const msgpack_object *o, struct sudoku_client_error *err)
{
    memset(err, 0, sizeof(*err));
    if (wire_copy_str(proto_map_get(o, PROTO_K_CODE), err->code, sizeof(err->code)) < 0)
        return -EPROTO;
    if (wire_copy_str(proto_map_get(o, PROTO_K_MESSAGE), err->message, sizeof(err->message)) < 0)
        snprintf(err->message, sizeof(err->message), "%s", err->code);
    return 0;
}

#endif /* PROTO_CLIENT_END */
