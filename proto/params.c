/* params.c -- decode the params of explain, rate and generate.
 *
 * The methods that came after solve, validated the way rpc.c validates
 * solve: every field's type and range is checked before use and copied into
 * the fixed-size struct rpc_request, nothing points into the msgpack zone
 * afterwards, unknown option keys are ignored (the protocol may grow), and a
 * known key of the wrong type or out of range is a bad_request whose message
 * names the key.  What needs the loaded plugins or the generator's tables
 * (the solver, the symmetry name, a progress grid against the givens) is
 * left to the daemon.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "proto/rpc.h"

static enum rpc_code bad(char *err, size_t err_size, const char *msg)
{
    if (err && err_size)
        snprintf(err, err_size, "%s", msg);
    return RPC_BAD_REQUEST;
}

/* bad() with a formatted message. */
__attribute__((format(printf, 3, 4))) static enum rpc_code badf(char *err, size_t err_size,
                                                                const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return RPC_BAD_REQUEST;
}

/* An integer option in lo..hi into *out; name for the message. */
static enum rpc_code uint_option(const msgpack_object *v, const char *name, uint64_t lo,
                                 uint64_t hi, uint64_t *out, char *err, size_t err_size)
{

    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER && v->type != MSGPACK_OBJECT_NEGATIVE_INTEGER) {
        return badf(err, err_size, "option %s must be an integer", name);
    }
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER || v->via.u64 < lo || v->via.u64 > hi) {
        return badf(err, err_size, "option %s must be in %llu..%llu", name, (unsigned long long)lo,
                    (unsigned long long)hi);
    }
    *out = v->via.u64;
    return RPC_OK;
}

/* A rating: any number from 0 up (integers too: 4 is 4.0). */
static enum rpc_code rating_option(const msgpack_object *v, const char *name, double *out,
                                   char *err, size_t err_size)
{

    if (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64)
        *out = v->via.f64;
    else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        *out = (double)v->via.u64;
    else {
        return badf(err, err_size, "option %s must be a number", name);
    }
    if (!(*out >= 0.0 && *out <= 1000.0)) { /* NaN fails too */
        return badf(err, err_size, "option %s must be in 0..1000", name);
    }
    return RPC_OK;
}

/* A short name (symmetry, difficulty) into out. */
static enum rpc_code word_option(const msgpack_object *v, const char *name, char *out,
                                 size_t out_size, char *err, size_t err_size)
{

    if (v->type != MSGPACK_OBJECT_STR) {
        return badf(err, err_size, "option %s must be a string", name);
    }
    if (v->via.str.size >= out_size || memchr(v->via.str.ptr, '\0', v->via.str.size)) {
        return badf(err, err_size, "option %s: no such name", name);
    }
    memcpy(out, v->via.str.ptr, v->via.str.size);
    out[v->via.str.size] = '\0';
    return RPC_OK;
}

/* ---------------------------------------------------------------- explain */

static enum rpc_code decode_progress(const msgpack_object *v, struct rpc_explain_params *e,
                                     char *err, size_t err_size)
{
    struct rpc_solve_params grid;
    char why[RPC_ERR_SIZE - 32];
    enum rpc_code code;

    if (v->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    code = rpc_decode_puzzle(v, &grid, why, sizeof(why));
    if (code != RPC_OK) {
        return badf(err, err_size, "option progress: %s", why);
    }
    e->has_progress = 1;
    e->progress_n = grid.n;
    memcpy(e->progress, grid.cells, (size_t)grid.n * grid.n);
    return RPC_OK;
}

static enum rpc_code explain_options(const msgpack_object *o, int is_explain,
                                     struct rpc_explain_params *e, char *err, size_t err_size)
{
    uint64_t steps;
    enum rpc_code code = RPC_OK;

    if (o->type != MSGPACK_OBJECT_MAP || !is_explain)
        return RPC_OK; /* rpc_decode_options() judged the shape */
    for (uint32_t i = 0; i < o->via.map.size && code == RPC_OK; i++) {
        const msgpack_object *v = &o->via.map.ptr[i].val;
        switch (proto_key_of(&o->via.map.ptr[i].key)) {
        case PROTO_K_STEPS:
            code = uint_option(v, "steps", 1, UINT32_MAX, &steps, err, err_size);
            e->max_steps = (uint32_t)steps;
            break;
        case PROTO_K_PROGRESS:
            code = decode_progress(v, e, err, err_size);
            break;
        default:
            break;
        }
    }
    return code;
}

enum rpc_code rpc_decode_explain(const msgpack_object_array *params, struct rpc_request *req,
                                 char *err, size_t err_size)
{
    const char *name = proto_method_name(req->method);
    int is_explain = req->method == RPC_M_EXPLAIN;

    memset(&req->solve, 0, sizeof(req->solve));
    memset(&req->explain, 0, offsetof(struct rpc_explain_params, progress));
    req->solve.limit = 1;
    if (params->size < 1 || params->size > 2) {
        return badf(err, err_size, "%s takes [puzzle] or [puzzle, options]", name);
    }
    if (params->size == 2) {
        enum rpc_code code =
            rpc_decode_options(&params->ptr[1], name, 0, &req->solve, err, err_size);
        if (code == RPC_OK)
            code = explain_options(&params->ptr[1], is_explain, &req->explain, err, err_size);
        if (code != RPC_OK)
            return code;
    }
    return rpc_decode_puzzle(&params->ptr[0], &req->solve, err, err_size);
}

/* --------------------------------------------------------------- generate */

static enum rpc_code generate_option(enum proto_key k, const msgpack_object *v,
                                     struct rpc_generate_params *g, double *lo, double *hi,
                                     char *err, size_t err_size)
{
    uint64_t u;
    enum rpc_code code = RPC_OK;

    switch (k) {
    case PROTO_K_SIZE:
        code = uint_option(v, "size", 4, 25, &u, err, err_size);
        if (code == RPC_OK && u != 4 && u != 9 && u != 16 && u != 25)
            code = bad(err, err_size, "option size must be 4, 9, 16 or 25");
        g->n = (unsigned)u;
        return code;
    case PROTO_K_COUNT:
        code = uint_option(v, "count", 1, RPC_GENERATE_MAX, &u, err, err_size);
        g->count = (uint32_t)u;
        return code;
    case PROTO_K_SEED:
        g->has_seed = 1;
        return uint_option(v, "seed", 0, UINT64_MAX, &g->seed, err, err_size);
    case PROTO_K_SYMMETRY:
        return word_option(v, "symmetry", g->symmetry, sizeof(g->symmetry), err, err_size);
    case PROTO_K_MINIMAL:
        if (v->type != MSGPACK_OBJECT_BOOLEAN)
            return bad(err, err_size, "option minimal must be a boolean");
        g->is_minimal = v->via.boolean;
        return RPC_OK;
    case PROTO_K_MIN_RATING:
        return rating_option(v, "min_rating", lo, err, err_size);
    case PROTO_K_MAX_RATING:
        return rating_option(v, "max_rating", hi, err, err_size);
    default:
        return RPC_OK;
    }
}

/* difficulty, or min_rating and/or max_rating, into g's band. */
static enum rpc_code generate_band(const msgpack_object *o, struct rpc_generate_params *g,
                                   double lo, double hi, char *err, size_t err_size)
{
    const msgpack_object *d = proto_map_get(o, PROTO_K_DIFFICULTY);
    int has_range = lo >= 0.0 || hi >= 0.0;

    if (d && d->type != MSGPACK_OBJECT_NIL) {
        char name[RPC_WORD_SIZE];
        enum rpc_code code;
        if (has_range)
            return bad(err, err_size, "give difficulty or min_rating/max_rating, not both");
        code = word_option(d, "difficulty", name, sizeof(name), err, err_size);
        if (code == RPC_OK &&
            proto_difficulty_band(name, strlen(name), &g->min_rating, &g->max_rating) < 0)
            code = RPC_BAD_REQUEST;
        if (code != RPC_OK) {
            return badf(err, err_size, "option difficulty must be one of %s", PROTO_DIFFICULTIES);
        }
        g->has_band = 1;
        return RPC_OK;
    }
    if (!has_range)
        return RPC_OK;
    g->has_band = 1;
    g->min_rating = lo >= 0.0 ? lo : 0.0;
    g->max_rating = hi >= 0.0 ? hi : 1000.0;
    if (g->min_rating > g->max_rating)
        return bad(err, err_size, "option min_rating is above max_rating");
    return RPC_OK;
}

enum rpc_code rpc_decode_generate(const msgpack_object_array *params, struct rpc_generate_params *g,
                                  char *err, size_t err_size)
{
    const msgpack_object *o = params->size == 1 ? &params->ptr[0] : NULL;
    struct rpc_solve_params common;
    double lo = -1.0, hi = -1.0;
    enum rpc_code code;

    memset(g, 0, sizeof(*g));
    g->n = 9;
    g->count = 1;
    g->is_minimal = 1;
    if (params->size > 1)
        return bad(err, err_size, "generate takes [] or [options]");
    if (!o || o->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    memset(&common, 0, sizeof(common));
    code = rpc_decode_options(o, "generate", 0, &common, err, err_size);
    for (uint32_t i = 0; code == RPC_OK && i < o->via.map.size; i++)
        code = generate_option(proto_key_of(&o->via.map.ptr[i].key), &o->via.map.ptr[i].val, g, &lo,
                               &hi, err, err_size);
    if (code == RPC_OK)
        code = generate_band(o, g, lo, hi, err, err_size);
    memcpy(g->solver, common.solver, sizeof(g->solver));
    g->timeout_ms = common.timeout_ms;
    return code;
}
