/* wire.c -- protocol v1 messages as msgpack bytes, for the client side.
 *
 * Encoding appends requests to a struct cbuf through a msgpack_packer;
 * decoding reads msgpack objects that client.c has already bounded with
 * mpscan_object() and unpacked.  Nothing here does I/O, so the tests can feed
 * it hand-written bytes.  Decoders are strict about the types the protocol
 * promises and lenient about extra map keys (the protocol may grow).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "client/client_impl.h"
#include "proto/codec.h"
#include "proto/protocol.h"
#include "proto/rpc.h"

void client__set_error(struct sudoku_client_error *err, const char *code, const char *fmt, ...)
{
    if (!err)
        return;
    snprintf(err->code, sizeof(err->code), "%s", code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------ */
/* Encoding */

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
    msgpack_pack_uint8(&w->pk, 0);
    msgpack_pack_uint32(&w->pk, msgid);
    rpc_pack_cstr(&w->pk, proto_method_name(m));
    msgpack_pack_array(&w->pk, nparams);
}

int wire_end(struct wire_packer *w)
{
    if (w->rc < 0)
        w->buf->len = w->start;
    return w->rc;
}

static size_t options_len(const struct sudoku_client_options *o)
{
    if (!o)
        return 0;
    return (o->solver != NULL) + (o->limit != 0) + (o->timeout_ms != 0);
}

static void pack_options(msgpack_packer *pk, const struct sudoku_client_options *o)
{
    msgpack_pack_map(pk, options_len(o));
    if (o->solver) {
        proto_pack_key(pk, PROTO_K_SOLVER);
        rpc_pack_cstr(pk, o->solver);
    }
    if (o->limit) {
        proto_pack_key(pk, PROTO_K_LIMIT);
        msgpack_pack_unsigned_int(pk, o->limit);
    }
    if (o->timeout_ms) {
        proto_pack_key(pk, PROTO_K_TIMEOUT_MS);
        msgpack_pack_unsigned_int(pk, o->timeout_ms);
    }
}

int wire_pack_call(struct cbuf *b, uint32_t msgid, enum rpc_method method)
{
    struct wire_packer w;

    wire_begin(&w, b, msgid, method, 0);
    return wire_end(&w);
}

int wire_pack_solve_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                        const struct sudoku_client_options *o)
{
    struct wire_packer w;

    wire_begin(&w, b, msgid, RPC_M_SOLVE, options_len(o) ? 2 : 1);
    msgpack_pack_str(&w.pk, len);
    msgpack_pack_str_body(&w.pk, puzzle, len);
    if (options_len(o))
        pack_options(&w.pk, o);
    return wire_end(&w);
}

int wire_pack_solve_cells(struct cbuf *b, uint32_t msgid, unsigned n, const uint8_t *cells,
                          const struct sudoku_client_options *o)
{
    struct wire_packer w;

    if (n == 0 || n > 25)
        return -EINVAL;
    wire_begin(&w, b, msgid, RPC_M_SOLVE, options_len(o) ? 2 : 1);
    msgpack_pack_array(&w.pk, (size_t)n * n);
    for (size_t i = 0; i < (size_t)n * n; i++)
        msgpack_pack_uint8(&w.pk, cells[i]);
    if (options_len(o))
        pack_options(&w.pk, o);
    return wire_end(&w);
}

/* ------------------------------------------------------------------------ */
/* Decoding helpers */

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

/* ------------------------------------------------------------------------ */
/* Decoding */

int wire_classify(const msgpack_object *o, struct wire_msg *m)
{
    memset(m, 0, sizeof(*m));
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 3)
        return -EPROTO;
    const msgpack_object *a = o->via.array.ptr;
    if (a[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return -EPROTO;
    if (a[0].via.u64 == 1 && o->via.array.size == 4) {
        if (a[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER || a[1].via.u64 > UINT32_MAX)
            return -EPROTO;
        m->kind = WIRE_RESPONSE;
        m->msgid = (uint32_t)a[1].via.u64;
        m->error = &a[2];
        m->result = &a[3];
        return 0;
    }
    if (a[0].via.u64 == 2 && o->via.array.size == 3 && a[1].type == MSGPACK_OBJECT_STR &&
        a[2].type == MSGPACK_OBJECT_ARRAY) {
        m->kind = WIRE_NOTIFICATION;
        m->method = &a[1];
        m->params = &a[2];
        return 0;
    }
    return -EPROTO;
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

/* Fill res->solution and res->cells from the solution object (str or array). */
/* The common case, 81 digits 1-9 (a solved 9x9 in line form), without the
 * general parser: cells and text come straight from the bytes.  Returns 1
 * when it applied. */
static int decode_digits9(const msgpack_object *s, struct sudoku_client_result *res)
{
    const char *p = s->via.str.ptr;

    if (s->via.str.size != 81)
        return 0;
    for (unsigned i = 0; i < 81; i++) {
        unsigned v = (unsigned)(unsigned char)p[i] - '0';
        if (v - 1u > 8u)
            return 0;
        res->cells[i] = (uint8_t)v;
    }
    res->n = 9;
    memcpy(res->solution, p, 81);
    res->solution[81] = '\0';
    return 1;
}

static int decode_solution(const msgpack_object *s, struct sudoku_client_result *res)
{
    if (s->type == MSGPACK_OBJECT_STR && decode_digits9(s, res))
        return 0;
    if (s->type == MSGPACK_OBJECT_STR) {
        if (s->via.str.size > SUDOKU_CLIENT_MAX_CELLS)
            return -EPROTO;
        if (codec_parse_line(s->via.str.ptr, s->via.str.size, &res->n, res->cells, NULL, 0) < 0)
            return -EPROTO;
    } else if (s->type == MSGPACK_OBJECT_ARRAY) {
        uint32_t len = s->via.array.size;
        unsigned n = 0;
        while (n * n < len && n < 26)
            n++;
        if (n * n != len || (n != 4 && n != 9 && n != 16 && n != 25))
            return -EPROTO;
        for (uint32_t i = 0; i < len; i++) {
            const msgpack_object *v = &s->via.array.ptr[i];
            if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > n)
                return -EPROTO;
            res->cells[i] = (uint8_t)v->via.u64;
        }
        res->n = n;
    } else {
        return -EPROTO;
    }
    return codec_format_line(res->n, res->cells, CODEC_BLANK_DOT, res->solution,
                             sizeof(res->solution)) < 0
               ? -EPROTO
               : 0;
}

/* The values of a solve result map, found in one pass over its keys (the
 * first of duplicate keys wins, as with map_get). */
struct result_fields {
    const msgpack_object *status, *solution, *solver, *count, *elapsed_us, *guesses;
};

static void take_field(const msgpack_object **slot, const msgpack_object *val)
{
    if (!*slot)
        *slot = val;
}

static void find_result_fields(const msgpack_object *r, struct result_fields *f)
{
    memset(f, 0, sizeof(*f));
    for (uint32_t i = 0; i < r->via.map.size; i++) {
        const msgpack_object *k = &r->via.map.ptr[i].key;
        const msgpack_object *v = &r->via.map.ptr[i].val;
        if (k->type != MSGPACK_OBJECT_STR)
            continue;
        if (proto_is(k, PROTO_K_STATUS))
            take_field(&f->status, v);
        else if (proto_is(k, PROTO_K_SOLUTION))
            take_field(&f->solution, v);
        else if (proto_is(k, PROTO_K_SOLVER))
            take_field(&f->solver, v);
        else if (proto_is(k, PROTO_K_COUNT))
            take_field(&f->count, v);
        else if (proto_is(k, PROTO_K_ELAPSED_US))
            take_field(&f->elapsed_us, v);
        else if (proto_is(k, PROTO_K_GUESSES))
            take_field(&f->guesses, v);
    }
}

/* An unsigned integer field; a missing one reads as 0 when optional. */
static int field_u64(const msgpack_object *v, int optional, uint64_t *out)
{
    *out = 0;
    if (!v)
        return optional ? 0 : -EPROTO;
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return -EPROTO;
    *out = v->via.u64;
    return 0;
}

static int decode_result_map(const msgpack_object *r, struct sudoku_client_result *res)
{
    struct result_fields f;

    if (r->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    find_result_fields(r, &f);
    if (!f.status || !f.solution)
        return -EPROTO;
    if (proto_is(f.status, PROTO_K_SOLVED)) {
        res->status = SUDOKU_CLIENT_SOLVED;
        if (decode_solution(f.solution, res) < 0)
            return -EPROTO;
    } else if (proto_is(f.status, PROTO_K_UNSOLVABLE)) {
        res->status = SUDOKU_CLIENT_UNSOLVABLE;
    } else {
        return -EPROTO;
    }
    if (f.solver && wire_copy_str(f.solver, res->solver, sizeof(res->solver)) < 0)
        return -EPROTO;
    if (field_u64(f.count, 0, &res->count) < 0 ||
        field_u64(f.elapsed_us, 1, &res->elapsed_us) < 0 ||
        field_u64(f.guesses, 1, &res->guesses) < 0)
        return -EPROTO;
    return 0;
}

int wire_decode_solve(const msgpack_object *error, const msgpack_object *result,
                      struct sudoku_client_result *res)
{
    memset(res, 0, offsetof(struct sudoku_client_result, error));
    memset(&res->error, 0, sizeof(res->error));
    int rc = 0;
    if (error->type != MSGPACK_OBJECT_NIL) {
        res->status = SUDOKU_CLIENT_FAILED;
        rc = wire_decode_error(error, &res->error);
    } else {
        rc = decode_result_map(result, res);
    }
    if (rc < 0) {
        memset(res, 0, offsetof(struct sudoku_client_result, error));
        res->status = SUDOKU_CLIENT_FAILED;
        client__set_error(&res->error, "protocol", "malformed solve response from the daemon");
    }
    return rc;
}

static unsigned sizes_mask(const msgpack_object *sizes)
{
    unsigned mask = 0;
    if (!sizes || sizes->type != MSGPACK_OBJECT_ARRAY)
        return 0;
    for (uint32_t i = 0; i < sizes->via.array.size; i++) {
        const msgpack_object *v = &sizes->via.array.ptr[i];
        if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
            continue;
        static const uint64_t sides[] = {4, 9, 16, 25};
        for (unsigned k = 0; k < 4; k++)
            if (v->via.u64 == sides[k])
                mask |= 1u << k;
    }
    return mask;
}

int wire_decode_solvers(const msgpack_object *result, struct sudoku_client_solver *out, size_t cap,
                        size_t *len)
{
    if (result->type != MSGPACK_OBJECT_ARRAY)
        return -EPROTO;
    *len = result->via.array.size;
    for (size_t i = 0; i < *len && i < cap; i++) {
        const msgpack_object *m = &result->via.array.ptr[i];
        struct sudoku_client_solver *s = &out[i];
        memset(s, 0, sizeof(*s));
        if (wire_copy_str(proto_map_get(m, PROTO_K_NAME), s->name, sizeof(s->name)) < 0)
            return -EPROTO;
        wire_copy_str(proto_map_get(m, PROTO_K_VERSION), s->version, sizeof(s->version));
        wire_copy_str(proto_map_get(m, PROTO_K_DESCRIPTION), s->description,
                      sizeof(s->description));
        s->sizes = sizes_mask(proto_map_get(m, PROTO_K_SIZES));
        const msgpack_object *d = proto_map_get(m, PROTO_K_DEFAULT);
        s->is_default = d && d->type == MSGPACK_OBJECT_BOOLEAN && d->via.boolean;
    }
    return 0;
}

static int decode_solver_stats(const msgpack_object *solvers, struct sudoku_client_stats *out)
{
    if (!solvers)
        return 0;
    if (solvers->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    for (uint32_t i = 0; i < solvers->via.map.size && i < SUDOKU_CLIENT_MAX_SOLVERS; i++) {
        const msgpack_object_kv *kv = &solvers->via.map.ptr[i];
        struct sudoku_client_solver_stats *s = &out->solvers[out->solvers_len];
        if (wire_copy_str(&kv->key, s->name, sizeof(s->name)) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_SOLVED, 1, &s->solved) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_UNSOLVABLE, 1, &s->unsolvable) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_TIMEOUTS, 1, &s->timeouts) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_ERRORS, 1, &s->errors) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_BUSY_US, 1, &s->busy_us) < 0)
            return -EPROTO;
        out->solvers_len++;
    }
    return 0;
}

int wire_decode_stats(const msgpack_object *result, struct sudoku_client_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (result->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    if (wire_get_u64(result, PROTO_K_UPTIME_S, 1, &out->uptime_s) < 0 ||
        wire_get_u64(result, PROTO_K_CONNECTIONS, 1, &out->connections) < 0 ||
        wire_get_u64(result, PROTO_K_REQUESTS, 1, &out->requests) < 0 ||
        wire_get_u64(result, PROTO_K_ERRORS, 1, &out->errors) < 0 ||
        wire_get_u64(result, PROTO_K_IN_FLIGHT, 1, &out->in_flight) < 0)
        return -EPROTO;
    return decode_solver_stats(proto_map_get(result, PROTO_K_SOLVERS), out);
}
