/* rpc.c -- decode and validate protocol v1 requests, encode responses.
 *
 * The daemon's whole defence against hostile bytes runs through rpc_read().
 * A small plain object (a solve request always is) is built on the stack by
 * mpsmall_unpack(), which allocates nothing and keeps mpscan's size and
 * depth limits; anything else is first bounded by mpscan_object() without
 * allocating, and only then built by msgpack_unpack() in a zone that lives
 * for this call.
 * rpc_decode() never trusts a type: every field is checked before use and
 * copied into the fixed-size struct rpc_request, so nothing points into the
 * zone once rpc_read() returns.
 */
#include "proto/rpc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/side.h"
#include "proto/codec.h"
#include "proto/mpscan.h"
#include "proto/mpsmall.h"

/* ---------------------------------------------------------------- reading */

static enum rpc_code fail(char *err, size_t err_size, enum rpc_code code, const char *msg)
{
    if (err && err_size)
        snprintf(err, err_size, "%s", msg);
    return code;
}

/* A non-negative integer that fits max, else -1. */
static int64_t uint_of(const msgpack_object *o, uint64_t max)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
        return -1;
    return (int64_t)o->via.u64;
}

/* The method a request names; "error" is the daemon's own notification. */
static enum rpc_method method_of(const msgpack_object *name)
{
    enum rpc_method m = proto_method_of(name);
    return m == RPC_M_ERROR ? RPC_M_UNKNOWN : m;
}

static void copy_name(char *out, size_t out_size, const msgpack_object *o)
{
    size_t len = o->via.str.size < out_size - 1 ? o->via.str.size : out_size - 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)o->via.str.ptr[i];
        out[i] = isprint(c) ? (char)c : '?';
    }
    out[len] = '\0';
}

/* The line form, sent as msgpack str or bin (many msgpack libraries send
 * byte strings as bin): the answer is a str either way. */
static enum rpc_code decode_puzzle_string(const char *text, uint32_t len,
                                          struct rpc_solve_params *s, char *err, size_t err_size)
{
    if (codec_parse_line(text, len, &s->n, s->cells, err, err_size) < 0)
        return RPC_BAD_PUZZLE;
    s->form = RPC_FORM_STRING;
    /* One lower-case letter: the answer is in lower case.  Up to 9x9 no
     * letter is a symbol, so none can have been parsed. */
    for (uint32_t i = 0; s->n > 9 && i < len; i++)
        if (text[i] >= 'a' && text[i] <= 'p')
            s->form = RPC_FORM_LOWER;
    return RPC_OK;
}

static enum rpc_code decode_puzzle_array(const msgpack_object *o, struct rpc_solve_params *s,
                                         char *err, size_t err_size)
{
    const msgpack_object_array *a = &o->via.array;
    unsigned n = grid_side_for_cells(a->size);
    char msg[RPC_ERR_SIZE];

    if (n == 0) {
        snprintf(msg, sizeof(msg),
                 "%u cells: a puzzle has 16, 81, 256 or 625 cells (4x4, 9x9, 16x16, 25x25)",
                 a->size);
        return fail(err, err_size, RPC_BAD_PUZZLE, msg);
    }
    for (unsigned i = 0; i < a->size; i++) {
        const msgpack_object *c = &a->ptr[i];
        if (c->type != MSGPACK_OBJECT_POSITIVE_INTEGER &&
            c->type != MSGPACK_OBJECT_NEGATIVE_INTEGER)
            return fail(err, err_size, RPC_BAD_REQUEST, "puzzle array holds a non-integer");
        if (c->type == MSGPACK_OBJECT_NEGATIVE_INTEGER || c->via.u64 > n) {
            snprintf(msg, sizeof(msg),
                     "value at position %u (row %u, column %u) is out of range 0..%u for %ux%u",
                     i + 1, i / n + 1, i % n + 1, n, n, n);
            return fail(err, err_size, RPC_BAD_PUZZLE, msg);
        }
        s->cells[i] = (uint8_t)c->via.u64;
    }
    s->n = n;
    s->form = RPC_FORM_ARRAY;
    return RPC_OK;
}

static enum rpc_code decode_limit(const msgpack_object *v, struct rpc_solve_params *s, char *err,
                                  size_t err_size)
{
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER && v->type != MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return fail(err, err_size, RPC_BAD_REQUEST, "option limit must be an integer");
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER || v->via.u64 < 1)
        return fail(err, err_size, RPC_BAD_REQUEST, "option limit must be >= 1");
    s->limit = v->via.u64;
    return RPC_OK;
}

/* A count the wire may send as an integer or, as some msgpack libraries
 * (JavaScript's among them) do for any number, as a float with a whole
 * value: 500.0 reads as 500.  A negative value reads as 0, so the caller's
 * range check words the error.  Returns 0, or -EINVAL for any other type
 * or a float with a fraction (or out of range, or NaN). */
static int uint_or_whole_float(const msgpack_object *v, uint64_t *out)
{
    double f;

    switch (v->type) {
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        *out = v->via.u64;
        return 0;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        *out = 0;
        return 0;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        f = v->via.f64;
        if (!(f > -9.0e18 && f < 18446744073709551616.0)) /* NaN too */
            return -EINVAL;
        if (f < 0)
            return (double)(int64_t)f == f ? (*out = 0, 0) : -EINVAL;
        if ((double)(uint64_t)f != f)
            return -EINVAL;
        *out = (uint64_t)f;
        return 0;
    default:
        return -EINVAL;
    }
}

static enum rpc_code decode_timeout(const msgpack_object *v, struct rpc_solve_params *s, char *err,
                                    size_t err_size)
{
    uint64_t ms;

    if (uint_or_whole_float(v, &ms) < 0)
        return fail(err, err_size, RPC_BAD_REQUEST, "option timeout_ms must be an integer");
    if (ms < 1)
        return fail(err, err_size, RPC_BAD_REQUEST, "option timeout_ms must be >= 1");
    s->timeout_ms = ms;
    return RPC_OK;
}

static enum rpc_code decode_solver(const msgpack_object *v, struct rpc_solve_params *s, char *err,
                                   size_t err_size)
{
    if (v->type == MSGPACK_OBJECT_NIL) /* nil is absent: the default solver */
        return RPC_OK;
    if (v->type != MSGPACK_OBJECT_STR)
        return fail(err, err_size, RPC_BAD_REQUEST, "option solver must be a string");
    copy_name(s->solver, sizeof(s->solver), v);
    if (v->via.str.size >= RPC_SOLVER_SIZE || memchr(v->via.str.ptr, '\0', v->via.str.size)) {
        char msg[RPC_ERR_SIZE];
        snprintf(msg, sizeof(msg), "no solver named \"%s...\"", s->solver);
        return fail(err, err_size, RPC_UNKNOWN_SOLVER, msg);
    }
    return RPC_OK;
}

enum rpc_code rpc_decode_options(const msgpack_object *o, const char *method, int takes_limit,
                                 struct rpc_solve_params *s, char *err, size_t err_size)
{
    if (o->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    if (o->type != MSGPACK_OBJECT_MAP) {
        char msg[RPC_ERR_SIZE];
        snprintf(msg, sizeof(msg), "%s options must be a map", method);
        return fail(err, err_size, RPC_BAD_REQUEST, msg);
    }
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *k = &o->via.map.ptr[i].key;
        const msgpack_object *v = &o->via.map.ptr[i].val;
        enum rpc_code code = RPC_OK;
        switch (proto_key_of(k)) {
        case PROTO_K_SOLVER:
            code = decode_solver(v, s, err, err_size);
            break;
        case PROTO_K_LIMIT:
            if (takes_limit)
                code = decode_limit(v, s, err, err_size);
            break;
        case PROTO_K_TIMEOUT_MS:
            code = decode_timeout(v, s, err, err_size);
            break;
        default: /* unknown keys are ignored: the protocol may grow */
            break;
        }
        if (code != RPC_OK)
            return code;
    }
    return RPC_OK;
}

enum rpc_code rpc_decode_puzzle(const msgpack_object *o, struct rpc_solve_params *s, char *err,
                                size_t err_size)
{
    if (o->type == MSGPACK_OBJECT_STR)
        return decode_puzzle_string(o->via.str.ptr, o->via.str.size, s, err, err_size);
    if (o->type == MSGPACK_OBJECT_BIN)
        return decode_puzzle_string(o->via.bin.ptr, o->via.bin.size, s, err, err_size);
    if (o->type == MSGPACK_OBJECT_ARRAY)
        return decode_puzzle_array(o, s, err, err_size);
    return fail(err, err_size, RPC_BAD_REQUEST, "puzzle must be a string or an array of integers");
}

static enum rpc_code decode_solve(const msgpack_object_array *params, struct rpc_solve_params *s,
                                  char *err, size_t err_size)
{
    memset(s, 0, sizeof(*s));
    s->limit = 1;
    if (params->size < 1 || params->size > 2)
        return fail(err, err_size, RPC_BAD_REQUEST, "solve takes [puzzle] or [puzzle, options]");
    /* Options first: a bad option is a bad request whatever the puzzle. */
    if (params->size == 2) {
        enum rpc_code code = rpc_decode_options(&params->ptr[1], "solve", 1, s, err, err_size);
        if (code != RPC_OK)
            return code;
    }
    return rpc_decode_puzzle(&params->ptr[0], s, err, err_size);
}

static enum rpc_code decode_params(const msgpack_object *params, struct rpc_request *req, char *err,
                                   size_t err_size)
{
    const msgpack_object_array *a = &params->via.array;
    char msg[RPC_ERR_SIZE];

    if (params->type != MSGPACK_OBJECT_ARRAY)
        return fail(err, err_size, RPC_BAD_REQUEST, "params must be an array");
    switch (req->method) {
    case RPC_M_SOLVE:
        return decode_solve(a, &req->solve, err, err_size);
    case RPC_M_EXPLAIN:
    case RPC_M_RATE:
        return rpc_decode_explain(a, req, err, err_size);
    case RPC_M_GENERATE:
        return rpc_decode_generate(a, &req->generate, err, err_size);
    case RPC_M_CANCEL: {
        int64_t id = a->size == 1 ? uint_of(&a->ptr[0], UINT32_MAX) : -1;
        if (id < 0)
            return fail(err, err_size, RPC_BAD_REQUEST, "cancel takes [msgid]");
        req->cancel_msgid = (uint32_t)id;
        return RPC_OK;
    }
    case RPC_M_UNKNOWN:
        snprintf(msg, sizeof(msg), "no method named \"%s\"", req->method_name);
        return fail(err, err_size, RPC_UNKNOWN_METHOD, msg);
    default:
        if (a->size != 0) {
            snprintf(msg, sizeof(msg), "%s takes no parameters", req->method_name);
            return fail(err, err_size, RPC_BAD_REQUEST, msg);
        }
        return RPC_OK;
    }
}

/* [2, method, params]: whatever else follows a 2 is a notification too, an
 * invalid one, so that it is ignored, never answered. */
static enum rpc_code decode_notification(const msgpack_object_array *a, struct rpc_request *req,
                                         char *err, size_t err_size)
{
    req->type = RPC_MSG_NOTIFY;
    if (a->size != 3 || a->ptr[1].type != MSGPACK_OBJECT_STR)
        return req->code =
                   fail(err, err_size, RPC_BAD_REQUEST, "a notification is [2, method, params]");
    copy_name(req->method_name, sizeof(req->method_name), &a->ptr[1]);
    req->method = method_of(&a->ptr[1]);
    if (req->method != RPC_M_CANCEL && req->method != RPC_M_UNKNOWN)
        req->method = RPC_M_UNKNOWN;
    return req->code = decode_params(&a->ptr[2], req, err, err_size);
}

enum rpc_code rpc_decode(const msgpack_object *obj, struct rpc_request *req, char *err,
                         size_t err_size)
{
    const msgpack_object_array *a = &obj->via.array;
    int64_t type, id;

    memset(req, 0, sizeof(*req));
    req->type = RPC_MSG_REQUEST;
    if (obj->type == MSGPACK_OBJECT_ARRAY && a->size >= 1 &&
        uint_of(&a->ptr[0], RPC_MSG_NOTIFY) == RPC_MSG_NOTIFY)
        return decode_notification(a, req, err, err_size);
    if (obj->type != MSGPACK_OBJECT_ARRAY || a->size < 3)
        return req->code = fail(err, err_size, RPC_BAD_REQUEST, "a message is an array");
    type = uint_of(&a->ptr[0], RPC_MSG_NOTIFY);
    id = uint_of(&a->ptr[1], UINT32_MAX);
    req->msgid = id < 0 ? 0 : (uint32_t)id;
    if (type != RPC_MSG_REQUEST || a->size != 4 || id < 0)
        return req->code =
                   fail(err, err_size, RPC_BAD_REQUEST,
                        "a request is [0, msgid (uint32), method (string), params (array)]");
    if (a->ptr[2].type != MSGPACK_OBJECT_STR)
        return req->code = fail(err, err_size, RPC_BAD_REQUEST, "method must be a string");
    copy_name(req->method_name, sizeof(req->method_name), &a->ptr[2]);
    req->method = method_of(&a->ptr[2]);
    if (req->method == RPC_M_CANCEL)
        req->method = RPC_M_UNKNOWN; /* cancel is a notification only */
    return req->code = decode_params(&a->ptr[3], req, err, err_size);
}

ssize_t rpc_read(const uint8_t *buf, size_t len, size_t max_size, struct rpc_request *req,
                 char *err, size_t err_size)
{
    struct mpsmall_zone small;
    msgpack_zone zone;
    msgpack_object obj;
    size_t off = 0;
    ssize_t n = mpsmall_unpack(buf, len, RPC_MAX_DEPTH, &small, &obj);

    /* Taken whole and within the limit: what mpscan would say (mpsmall.h). */
    if (n > 0 && (size_t)n <= max_size) {
        rpc_decode(&obj, req, err, err_size);
        return n;
    }
    n = mpscan_object(buf, len, max_size, RPC_MAX_DEPTH);

    if (n == -E2BIG && err && err_size)
        snprintf(err, err_size, "message larger than the %zu-byte limit", max_size);
    else if (n < 0 && err && err_size)
        snprintf(err, err_size, "not a msgpack object (or nested deeper than %d)", RPC_MAX_DEPTH);
    if (n <= 0)
        return n;
    if (!msgpack_zone_init(&zone, 2048))
        return -ENOMEM;
    if (msgpack_unpack((const char *)buf, (size_t)n, &off, &zone, &obj) == MSGPACK_UNPACK_SUCCESS)
        rpc_decode(&obj, req, err, err_size);
    else {
        memset(req, 0, sizeof(*req));
        req->code = fail(err, err_size, RPC_BAD_REQUEST, "msgpack object could not be unpacked");
    }
    msgpack_zone_destroy(&zone);
    return n;
}

/* --------------------------------------------------------------- writing */

int rpc_pack_cstr(msgpack_packer *pk, const char *s)
{
    size_t len = strlen(s);
    if (msgpack_pack_str(pk, len) < 0 || msgpack_pack_str_body(pk, s, len) < 0)
        return -ENOMEM;
    return 0;
}

static int pack_error_map(msgpack_packer *pk, enum rpc_code code, const char *message)
{
    if (msgpack_pack_map(pk, 2) < 0 || proto_pack_key(pk, PROTO_K_CODE) < 0 ||
        rpc_pack_cstr(pk, proto_code_name(code)) < 0 || proto_pack_key(pk, PROTO_K_MESSAGE) < 0 ||
        rpc_pack_cstr(pk, message ? message : proto_code_name(code)) < 0)
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
        rpc_pack_cstr(&pk, proto_method_name(RPC_M_ERROR)) < 0 || msgpack_pack_array(&pk, 1) < 0 ||
        pack_error_map(&pk, code, message) < 0)
        return roll_back(sb, mark, -ENOMEM);
    return 0;
}

static uint8_t *put_uint(uint8_t *p, uint64_t v);

/* Bytes as msgpack-c's packer writes them (see the solve answer below),
 * in one write. */
int rpc_pack_result_head(msgpack_packer *pk, uint32_t msgid)
{
    uint8_t buf[8], *p = buf;

    *p++ = 0x94; /* fixarray of 4 */
    *p++ = RPC_MSG_RESPONSE;
    p = put_uint(p, msgid);
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

static int pack_pong(msgpack_packer *pk, const void *arg)
{
    (void)arg;
    return proto_pack_key(pk, PROTO_K_PONG) < 0 ? -ENOMEM : 0;
}

int rpc_pack_pong(msgpack_sbuffer *sb, uint32_t msgid)
{
    return rpc_pack_answer(sb, NULL, msgid, pack_pong, NULL);
}

/* ------------------------------------------------- the solve answer, fast
 *
 * The answer to a solve is the one message the daemon sends by the
 * hundred thousand a second, so its map is encoded by hand into a buffer on
 * the stack and handed to the packer's writer in one call, instead of a
 * dozen packer calls of a few bytes each.  The bytes are exactly those
 * msgpack-c's packer produces (smallest encodings, str8 included); a solver
 * name too long for the buffer takes the packer's road instead. */

#define SOLVE_NAME_MAX 255 /* longest solver name encoded by hand (str8) */
#define SOLVE_MAP_MAX  (2 * SDK_MAX_CELLS + SOLVE_NAME_MAX + 128)

static uint8_t *put_be(uint8_t *p, uint64_t v, unsigned k)
{
    for (unsigned i = k; i > 0; i--)
        *p++ = (uint8_t)(v >> (8 * (i - 1)));
    return p;
}

/* msgpack_pack_uint64's encoding of v. */
static uint8_t *put_uint(uint8_t *p, uint64_t v)
{
    if (v < 128) {
        *p++ = (uint8_t)v;
        return p;
    }
    if (v < 256) {
        *p++ = 0xcc;
        return put_be(p, v, 1);
    }
    if (v < 65536) {
        *p++ = 0xcd;
        return put_be(p, v, 2);
    }
    if (v <= UINT32_MAX) {
        *p++ = 0xce;
        return put_be(p, v, 4);
    }
    *p++ = 0xcf;
    return put_be(p, v, 8);
}

/* msgpack_pack_str's header for len bytes (len < 65536). */
static uint8_t *put_str_head(uint8_t *p, size_t len)
{
    if (len < 32) {
        *p++ = (uint8_t)(0xa0 | len);
        return p;
    }
    if (len < 256) {
        *p++ = 0xd9;
        return put_be(p, len, 1);
    }
    *p++ = 0xda;
    return put_be(p, len, 2);
}

static uint8_t *put_str(uint8_t *p, const char *s, size_t len)
{
    p = put_str_head(p, len);
    memcpy(p, s, len);
    return p + len;
}

/* The map's constant parts: a fixmap of 6, then keys as fixstr (octal
 * escapes: 0246 is fixstr of 6), the key names of protocol.c; test_rpc
 * checks the bytes against msgpack-c's packer. */
static const char solve_head_solved[] = "\206\246status\246solved\250solution";
static const char solve_head_unsolvable[] = "\206\246status\252unsolvable\250solution";
static const char solve_key_count[] = "\245count";
static const char solve_key_solver[] = "\246solver";
static const char solve_key_elapsed[] = "\252elapsed_us";
static const char solve_key_guesses[] = "\247guesses";
#define PUT_LITERAL(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* The solution: nil, an array of integers, or the line form. */
static uint8_t *put_solution(uint8_t *p, const struct rpc_solve_result *r)
{
    unsigned cells = r->n * r->n;

    if (!r->solution) {
        *p++ = 0xc0;
        return p;
    }
    if (r->form == RPC_FORM_ARRAY) {
        *p++ = 0xdc; /* 16 cells and more: array 16 */
        p = put_be(p, cells, 2);
        for (unsigned i = 0; i < cells; i++)
            p = put_uint(p, r->solution[i]);
        return p;
    }
    p = put_str_head(p, cells);
    codec_format_line(r->n, r->solution, CODEC_BLANK_DOT, (char *)p, cells + 1);
    if (r->form == RPC_FORM_LOWER)
        for (unsigned i = 0; i < cells; i++)
            p[i] = (uint8_t)tolower(p[i]);
    return p + cells;
}

/* The map by the packer, for what the fast road does not take. */
static int pack_solution(msgpack_packer *pk, const struct rpc_solve_result *r)
{
    unsigned cells = r->n * r->n;
    char line[SDK_MAX_CELLS + 1];

    if (!r->solution)
        return msgpack_pack_nil(pk) < 0 ? -ENOMEM : 0;
    if (r->form == RPC_FORM_ARRAY) {
        if (msgpack_pack_array(pk, cells) < 0)
            return -ENOMEM;
        for (unsigned i = 0; i < cells; i++)
            if (msgpack_pack_uint8(pk, r->solution[i]) < 0)
                return -ENOMEM;
        return 0;
    }
    if (codec_format_line(r->n, r->solution, CODEC_BLANK_DOT, line, sizeof(line)) < 0)
        return -EINVAL;
    if (r->form == RPC_FORM_LOWER)
        for (unsigned i = 0; i < cells; i++)
            line[i] = (char)tolower((unsigned char)line[i]);
    if (msgpack_pack_str(pk, cells) < 0 || msgpack_pack_str_body(pk, line, cells) < 0)
        return -ENOMEM;
    return 0;
}

static int pack_solve_map_slow(msgpack_packer *pk, const struct rpc_solve_result *r)
{
    if (msgpack_pack_map(pk, 6) < 0 || proto_pack_key(pk, PROTO_K_STATUS) < 0 ||
        proto_pack_key(pk, r->solved ? PROTO_K_SOLVED : PROTO_K_UNSOLVABLE) < 0 ||
        proto_pack_key(pk, PROTO_K_SOLUTION) < 0 || pack_solution(pk, r) < 0 ||
        proto_pack_key(pk, PROTO_K_COUNT) < 0 || msgpack_pack_uint64(pk, r->count) < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, r->solver) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, r->elapsed_us) < 0 ||
        proto_pack_key(pk, PROTO_K_GUESSES) < 0 || msgpack_pack_uint64(pk, r->guesses) < 0)
        return -ENOMEM;
    return 0;
}

int rpc_pack_solve_map(msgpack_packer *pk, const void *arg)
{
    const struct rpc_solve_result *r = arg;
    uint8_t buf[SOLVE_MAP_MAX], *p = buf;
    size_t name_len = strlen(r->solver);

    if (!grid_side_ok(r->n) || name_len > SOLVE_NAME_MAX)
        return pack_solve_map_slow(pk, r);
    p = r->solved ? PUT_LITERAL(p, solve_head_solved) : PUT_LITERAL(p, solve_head_unsolvable);
    p = put_solution(p, r);
    p = PUT_LITERAL(p, solve_key_count);
    p = put_uint(p, r->count);
    p = PUT_LITERAL(p, solve_key_solver);
    p = put_str(p, r->solver, name_len);
    p = PUT_LITERAL(p, solve_key_elapsed);
    p = put_uint(p, r->elapsed_us);
    p = PUT_LITERAL(p, solve_key_guesses);
    p = put_uint(p, r->guesses);
    return pk->callback(pk->data, (const char *)buf, (size_t)(p - buf)) < 0 ? -ENOMEM : 0;
}

int rpc_pack_solve_result(msgpack_sbuffer *sb, uint32_t msgid, const struct rpc_solve_result *r)
{
    return rpc_pack_answer(sb, NULL, msgid, rpc_pack_solve_map, r);
}
