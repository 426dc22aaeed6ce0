/* solve.c -- the solve message, both ends side by side.
 *
 * The daemon's end validates [puzzle, options] into the fixed-size struct
 * rpc_solve_params: every field's type and range is checked before use, and
 * nothing points into the msgpack object afterwards; unknown option keys are
 * ignored (the protocol may grow).  The puzzle and the options solve shares
 * (solver, timeout_ms) are decoded here for explain, rate and generate too.
 * Its answer map is encoded by hand (see "the answer, fast" below).
 *
 * The client's end packs the request from a struct sudoku_client_options
 * and decodes the answer into a struct sudoku_client_result, strict about
 * the types the protocol promises, lenient about extra keys.
 */
#include "proto/solve.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/side.h"
#include "proto/codec.h"
#include "proto/end.h"
#include "proto/mpput.h"
#include "proto/rpc.h"

/* ====================================================== the daemon's end */
#if PROTO_DAEMON_END

/* -------------------------------------------------------------- the puzzle */

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

    if (n == 0)
        return rpc_failf(err, err_size, RPC_BAD_PUZZLE,
                         "%u cells: a puzzle has 16, 81, 256 or 625 cells (4x4, 9x9, 16x16, 25x25)",
                         a->size);
    for (unsigned i = 0; i < a->size; i++) {
        const msgpack_object *c = &a->ptr[i];
        if (c->type != MSGPACK_OBJECT_POSITIVE_INTEGER &&
            c->type != MSGPACK_OBJECT_NEGATIVE_INTEGER)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST, "puzzle array holds a non-integer");
        if (c->type == MSGPACK_OBJECT_NEGATIVE_INTEGER || c->via.u64 > n)
            return rpc_failf(
                err, err_size, RPC_BAD_PUZZLE,
                "value at position %u (row %u, column %u) is out of range 0..%u for %ux%u", i + 1,
                i / n + 1, i % n + 1, n, n, n);
        s->cells[i] = (uint8_t)c->via.u64;
    }
    s->n = n;
    s->form = RPC_FORM_ARRAY;
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
    return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                     "puzzle must be a string or an array of integers");
}

/* ------------------------------------------------------------- the options */

enum rpc_code rpc_decode_uint_option(const msgpack_object *v, const char *name, uint64_t lo,
                                     uint64_t hi, uint64_t *out, char *err, size_t err_size)
{
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER && v->type != MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option %s must be an integer", name);
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER || v->via.u64 < lo || v->via.u64 > hi)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option %s must be in %llu..%llu", name,
                         (unsigned long long)lo, (unsigned long long)hi);
    *out = v->via.u64;
    return RPC_OK;
}

static enum rpc_code decode_limit(const msgpack_object *v, struct rpc_solve_params *s, char *err,
                                  size_t err_size)
{
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER && v->type != MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option limit must be an integer");
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER || v->via.u64 < 1)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option limit must be >= 1");
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
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option timeout_ms must be an integer");
    if (ms < 1)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option timeout_ms must be >= 1");
    s->timeout_ms = ms;
    return RPC_OK;
}

static enum rpc_code decode_solver(const msgpack_object *v, struct rpc_solve_params *s, char *err,
                                   size_t err_size)
{
    if (v->type == MSGPACK_OBJECT_NIL) /* nil is absent: the default solver */
        return RPC_OK;
    if (v->type != MSGPACK_OBJECT_STR)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option solver must be a string");
    rpc_copy_printable(s->solver, sizeof(s->solver), v);
    if (v->via.str.size >= RPC_SOLVER_SIZE || memchr(v->via.str.ptr, '\0', v->via.str.size))
        return rpc_failf(err, err_size, RPC_UNKNOWN_SOLVER, "no solver named \"%s...\"", s->solver);
    return RPC_OK;
}

enum rpc_code rpc_decode_options(const msgpack_object *o, const char *method, int takes_limit,
                                 struct rpc_solve_params *s, char *err, size_t err_size)
{
    if (o->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    if (o->type != MSGPACK_OBJECT_MAP)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "%s options must be a map", method);
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
        case PROTO_K_RULES:
            code = rpc_decode_rules(v, strcmp(method, "generate") == 0, &s->rules, err, err_size);
            break;
        default: /* unknown keys are ignored: the protocol may grow */
            break;
        }
        if (code != RPC_OK)
            return code;
    }
    return RPC_OK;
}

enum rpc_code rpc_decode_solve(const msgpack_object_array *params, struct rpc_solve_params *s,
                               char *err, size_t err_size)
{
    memset(s, 0, sizeof(*s));
    s->limit = 1;
    if (params->size < 1 || params->size > 2)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "solve takes [puzzle] or [puzzle, options]");
    /* Options first: a bad option is a bad request whatever the puzzle. */
    if (params->size == 2) {
        enum rpc_code code = rpc_decode_options(&params->ptr[1], "solve", 1, s, err, err_size);
        if (code != RPC_OK)
            return code;
    }
    return rpc_decode_puzzle(&params->ptr[0], s, err, err_size);
}

/* --------------------------------------------------------- the answer, fast
 *
 * The answer to a solve is the one message the daemon sends by the
 * hundred thousand a second, so its map is encoded by hand into a buffer on
 * the stack and handed to the packer's writer in one call, instead of a
 * dozen packer calls of a few bytes each.  The bytes are exactly those
 * msgpack-c's packer produces (smallest encodings, str8 included); a solver
 * name too long for the buffer takes the packer's road instead. */

#define SOLVE_NAME_MAX 255 /* longest solver name encoded by hand (str8) */
#define SOLVE_MAP_MAX  (2 * SDK_MAX_CELLS + SOLVE_NAME_MAX + 128)

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
        p = mpput_be(p, cells, 2);
        for (unsigned i = 0; i < cells; i++)
            p = mpput_uint(p, r->solution[i]);
        return p;
    }
    p = mpput_str_head(p, cells);
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
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || proto_pack_cstr(pk, r->solver) < 0 ||
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
    p = mpput_uint(p, r->count);
    p = PUT_LITERAL(p, solve_key_solver);
    p = mpput_str(p, r->solver, name_len);
    p = PUT_LITERAL(p, solve_key_elapsed);
    p = mpput_uint(p, r->elapsed_us);
    p = PUT_LITERAL(p, solve_key_guesses);
    p = mpput_uint(p, r->guesses);
    return pk->callback(pk->data, (const char *)buf, (size_t)(p - buf)) < 0 ? -ENOMEM : 0;
}

int rpc_pack_solve_result(msgpack_sbuffer *sb, uint32_t msgid, const struct rpc_solve_result *r)
{
    return rpc_pack_answer(sb, NULL, msgid, rpc_pack_solve_map, r);
}

#endif /* PROTO_DAEMON_END */

/* ====================================================== the client's end */
#if PROTO_CLIENT_END

/* ------------------------------------------------------------- the request */

int wire_pack_puzzle_call(struct cbuf *b, uint32_t msgid, enum rpc_method m, const char *puzzle,
                          size_t len, unsigned n, const uint8_t *cells,
                          const struct wire_opts *opts)
{
    struct wire_packer w;

    if (cells && (n == 0 || n > 25))
        return -EINVAL;
    wire_begin(&w, b, msgid, m, opts->len ? 2 : 1);
    if (cells) {
        msgpack_pack_array(&w.pk, (size_t)n * n);
        for (size_t i = 0; i < (size_t)n * n; i++)
            msgpack_pack_uint8(&w.pk, cells[i]);
    } else {
        msgpack_pack_str(&w.pk, len);
        msgpack_pack_str_body(&w.pk, puzzle, len);
    }
    if (opts->len)
        wire_pack_opts(&w.pk, opts);
    return wire_end(&w);
}

/* The options o sets, in their order on the wire: solver, limit (solve
 * only: rate takes none), timeout_ms. */
static void gather_options(struct wire_opts *w, enum rpc_method m,
                           const struct sudoku_client_options *o,
                           const struct sudoku_client_rules *rules)
{
    w->len = 0;
    if (o && o->solver)
        wire_opt_cstr(w, PROTO_K_SOLVER, o->solver);
    if (o && o->limit && m == RPC_M_SOLVE)
        wire_opt_uint(w, PROTO_K_LIMIT, o->limit);
    if (o && o->timeout_ms)
        wire_opt_uint(w, PROTO_K_TIMEOUT_MS, o->timeout_ms);
    wire_opt_rules(w, rules);
}

int wire_pack_solve_or_rate(struct cbuf *b, uint32_t msgid, enum rpc_method m, const char *puzzle,
                            size_t len, unsigned n, const uint8_t *cells,
                            const struct sudoku_client_options *o,
                            const struct sudoku_client_rules *rules)
{
    struct wire_opts opts;

    if (wire_rules_check(rules) < 0)
        return -EINVAL;
    gather_options(&opts, m, o, rules);
    return wire_pack_puzzle_call(b, msgid, m, puzzle, len, n, cells, &opts);
}

int wire_pack_solve_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                        const struct sudoku_client_options *o)
{
    return wire_pack_solve_or_rate(b, msgid, RPC_M_SOLVE, puzzle, len, 0, NULL, o, NULL);
}

int wire_pack_solve_cells(struct cbuf *b, uint32_t msgid, unsigned n, const uint8_t *cells,
                          const struct sudoku_client_options *o)
{
    return cells ? wire_pack_solve_or_rate(b, msgid, RPC_M_SOLVE, NULL, 0, n, cells, o, NULL)
                 : -EINVAL;
}

/* -------------------------------------------------------------- the answer */

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

/* Fill res->solution and res->cells from the solution object (str or array). */
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
        wire_set_error(&res->error, "protocol", "malformed solve response from the daemon");
    }
    return rc;
}

#endif /* PROTO_CLIENT_END */
