/* generate.c -- the generate message, both ends side by side.
 *
 * A generate request is [0, msgid, "generate", [options]] (no options: []);
 * its answer is an array of 1..count puzzle maps (docs/protocol.md).  The
 * daemon's end validates the options as solve's are: every field's type and
 * range checked before use, unknown keys ignored, a known key of the wrong
 * type or out of range a bad_request naming the key; the symmetry name is
 * only bounded (the generator knows the names, the method layer checks).
 * The answer is packed by the method layer (method/genreq.c).
 *
 * The client's end packs the options that are set and checks every map of
 * the answer before a caller sees it: puzzle and solution parse in the line
 * form with the same side, the solution is complete and keeps every given,
 * and "givens" counts the puzzle's non-blank cells; one bad map makes the
 * whole answer a "protocol" error, so a caller never gets half an answer.
 */
#include "proto/generate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/codec.h"
#include "proto/end.h"
#include "proto/rpc.h"
#include "proto/rules.h"

/* ====================================================== the daemon's end */
#if PROTO_DAEMON_END

/* A rating: any number from 0 up (integers too: 4 is 4.0). */
static enum rpc_code rating_option(const msgpack_object *v, const char *name, double *out,
                                   char *err, size_t err_size)
{
    if (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64)
        *out = v->via.f64;
    else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        *out = (double)v->via.u64;
    else
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option %s must be a number", name);
    if (!(*out >= 0.0 && *out <= 1000.0)) /* NaN fails too */
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option %s must be in 0..1000", name);
    return RPC_OK;
}

/* A short name (symmetry, difficulty) into out. */
static enum rpc_code word_option(const msgpack_object *v, const char *name, char *out,
                                 size_t out_size, char *err, size_t err_size)
{
    if (v->type != MSGPACK_OBJECT_STR)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option %s must be a string", name);
    if (v->via.str.size >= out_size || memchr(v->via.str.ptr, '\0', v->via.str.size))
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option %s: no such name", name);
    memcpy(out, v->via.str.ptr, v->via.str.size);
    out[v->via.str.size] = '\0';
    return RPC_OK;
}

/* One option of the map, by its key k; min_rating and max_rating go to *lo
 * and *hi until generate_band() judges them with difficulty. */
static enum rpc_code generate_option(enum proto_key k, const msgpack_object *v,
                                     struct rpc_generate_params *g, double *lo, double *hi,
                                     char *err, size_t err_size)
{
    uint64_t u = 0;
    enum rpc_code code = RPC_OK;

    switch (k) {
    case PROTO_K_SIZE:
        code = rpc_decode_uint_option(v, "size", 4, 25, &u, err, err_size);
        if (code == RPC_OK && u != 4 && u != 9 && u != 16 && u != 25)
            code = rpc_failf(err, err_size, RPC_BAD_REQUEST, "option size must be 4, 9, 16 or 25");
        g->n = (unsigned)u;
        return code;
    case PROTO_K_COUNT:
        code = rpc_decode_uint_option(v, "count", 1, RPC_GENERATE_MAX, &u, err, err_size);
        g->count = (uint32_t)u;
        return code;
    case PROTO_K_SEED:
        g->has_seed = 1;
        return rpc_decode_uint_option(v, "seed", 0, UINT64_MAX, &g->seed, err, err_size);
    case PROTO_K_SYMMETRY:
        return word_option(v, "symmetry", g->symmetry, sizeof(g->symmetry), err, err_size);
    case PROTO_K_MINIMAL:
        if (v->type != MSGPACK_OBJECT_BOOLEAN)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option minimal must be a boolean");
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
            return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                             "give difficulty or min_rating/max_rating, not both");
        code = word_option(d, "difficulty", name, sizeof(name), err, err_size);
        if (code == RPC_OK &&
            proto_difficulty_band(name, strlen(name), &g->min_rating, &g->max_rating) < 0)
            code = RPC_BAD_REQUEST;
        if (code != RPC_OK)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option difficulty must be one of %s",
                             PROTO_DIFFICULTIES);
        g->has_band = 1;
        return RPC_OK;
    }
    if (!has_range)
        return RPC_OK;
    g->has_band = 1;
    g->min_rating = lo >= 0.0 ? lo : 0.0;
    g->max_rating = hi >= 0.0 ? hi : 1000.0;
    if (g->min_rating > g->max_rating)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option min_rating is above max_rating");
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
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "generate takes [] or [options]");
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
    g->rules = common.rules;
    return code;
}

#endif /* PROTO_DAEMON_END */

/* ====================================================== the client's end */
#if PROTO_CLIENT_END

/* ------------------------------------------------------------- the request */

/* The options o sets, in the order they have always gone on the wire. */
static void gather_options(struct wire_opts *w, const struct sudoku_client_generate_opts *o,
                           const struct sudoku_client_rules *rules)
{
    w->len = 0;
    wire_opt_rules(w, rules);
    if (!o)
        return;
    if (o->size)
        wire_opt_uint(w, PROTO_K_SIZE, o->size);
    if (o->count)
        wire_opt_uint(w, PROTO_K_COUNT, o->count);
    if (o->has_seed)
        wire_opt_uint(w, PROTO_K_SEED, o->seed);
    if (o->symmetry)
        wire_opt_cstr(w, PROTO_K_SYMMETRY, o->symmetry);
    if (o->is_not_minimal)
        wire_opt_bool(w, PROTO_K_MINIMAL, 0);
    if (o->difficulty)
        wire_opt_cstr(w, PROTO_K_DIFFICULTY, o->difficulty);
    if (o->has_min_rating)
        wire_opt_double(w, PROTO_K_MIN_RATING, o->min_rating);
    if (o->has_max_rating)
        wire_opt_double(w, PROTO_K_MAX_RATING, o->max_rating);
    if (o->solver)
        wire_opt_cstr(w, PROTO_K_SOLVER, o->solver);
    if (o->timeout_ms)
        wire_opt_uint(w, PROTO_K_TIMEOUT_MS, o->timeout_ms);
}

int wire_pack_generate(struct cbuf *b, uint32_t msgid, const struct sudoku_client_generate_opts *o,
                       const struct sudoku_client_rules *rules)
{
    struct wire_opts opts;
    struct wire_packer w;

    if (wire_rules_check(rules) < 0)
        return -EINVAL;
    gather_options(&opts, o, rules);
    wire_begin(&w, b, msgid, RPC_M_GENERATE, opts.len ? 1 : 0);
    if (opts.len)
        wire_pack_opts(&w.pk, &opts);
    return wire_end(&w);
}

/* -------------------------------------------------------------- the answer */

/* Copy an optional str (absent: "").  Returns 0 or -EPROTO. */
static int copy_word(const msgpack_object *o, char *out, size_t size)
{
    out[0] = '\0';
    if (!o)
        return 0;
    if (o->type != MSGPACK_OBJECT_STR || o->via.str.size >= size)
        return -EPROTO;
    memcpy(out, o->via.str.ptr, o->via.str.size);
    out[o->via.str.size] = '\0';
    return 0;
}

/* Parse a line-form grid of exactly n*n symbols into cells.  Returns 0 or -EPROTO. */
static int parse_grid(const msgpack_object *o, unsigned *n, uint8_t *cells)
{
    if (!o || o->type != MSGPACK_OBJECT_STR || o->via.str.size > SUDOKU_CLIENT_MAX_CELLS)
        return -EPROTO;
    if (codec_parse_line(o->via.str.ptr, o->via.str.size, n, cells, NULL, 0) < 0 ||
        o->via.str.size != (size_t)*n * *n)
        return -EPROTO;
    return 0;
}

/* The puzzle and its solution: same side, solution complete and keeping
 * every given, givens matching.  Returns NULL or what is wrong. */
static const char *decode_grids(const msgpack_object *m, struct sudoku_client_puzzle *p)
{
    uint8_t given[SUDOKU_CLIENT_MAX_CELLS], sol[SUDOKU_CLIENT_MAX_CELLS];
    const msgpack_object *g = proto_map_get(m, PROTO_K_GIVENS);
    unsigned n2 = 0, count = 0;

    if (parse_grid(proto_map_get(m, PROTO_K_PUZZLE), &p->n, given) < 0)
        return "no puzzle in the line form";
    if (parse_grid(proto_map_get(m, PROTO_K_SOLUTION), &n2, sol) < 0 || n2 != p->n)
        return "no solution of the puzzle's size";
    for (unsigned i = 0; i < p->n * p->n; i++) {
        if (sol[i] == 0)
            return "the solution has blanks";
        if (given[i] && given[i] != sol[i])
            return "the solution changes a given";
        count += given[i] != 0;
    }
    if (!g || g->type != MSGPACK_OBJECT_POSITIVE_INTEGER || g->via.u64 != count)
        return "givens does not count the puzzle's givens";
    p->givens = count;
    codec_format_line(p->n, given, CODEC_BLANK_DOT, p->puzzle, sizeof(p->puzzle));
    codec_format_line(p->n, sol, CODEC_BLANK_DOT, p->solution, sizeof(p->solution));
    return NULL;
}

/* One puzzle map into *p.  Returns NULL or what is wrong. */
static const char *decode_puzzle(const msgpack_object *m, struct sudoku_client_puzzle *p)
{
    const msgpack_object *seed, *rating;
    const char *why;

    memset(p, 0, sizeof(*p));
    if (m->type != MSGPACK_OBJECT_MAP)
        return "not a map";
    why = decode_grids(m, p);
    if (why)
        return why;
    seed = proto_map_get(m, PROTO_K_SEED);
    if (!seed || seed->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return "no seed";
    p->seed = seed->via.u64;
    rating = proto_map_get(m, PROTO_K_RATING);
    if (rating && rating->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        p->rating = (double)rating->via.u64;
    else if (rating &&
             (rating->type == MSGPACK_OBJECT_FLOAT64 || rating->type == MSGPACK_OBJECT_FLOAT32))
        p->rating = rating->via.f64;
    else if (rating)
        return "rating is not a number";
    if (copy_word(proto_map_get(m, PROTO_K_DIFFICULTY), p->difficulty, sizeof(p->difficulty)) < 0 ||
        copy_word(proto_map_get(m, PROTO_K_SYMMETRY), p->symmetry, sizeof(p->symmetry)) < 0)
        return "difficulty or symmetry is not a short string";
    return NULL;
}

/* The common start of both decoders: an error answer, or an array of
 * 1..count.  Returns 0 or -EPROTO with err set. */
static int check_answer(const msgpack_object *error, const msgpack_object *result, unsigned count,
                        struct sudoku_client_error *err)
{
    if (error->type != MSGPACK_OBJECT_NIL) {
        if (wire_decode_error(error, err) < 0)
            wire_set_error(err, "protocol", "malformed error in a generate response");
        return -EPROTO;
    }
    if (result->type != MSGPACK_OBJECT_ARRAY || result->via.array.size == 0 ||
        result->via.array.size > count) {
        wire_set_error(err, "protocol",
                       "malformed generate answer from the daemon: not an array of "
                       "1..%u puzzles",
                       count);
        return -EPROTO;
    }
    return 0;
}

static int bad_puzzle(struct sudoku_client_error *err, uint32_t i, const char *why)
{
    wire_set_error(err, "protocol", "malformed generate answer from the daemon: puzzle %u: %s", i,
                   why);
    return -EPROTO;
}

int wire_decode_generate(const msgpack_object *error, const msgpack_object *result, unsigned count,
                         struct sudoku_client_puzzle **out, size_t *len,
                         struct sudoku_client_error *err)
{
    *out = NULL;
    *len = 0;
    if (check_answer(error, result, count, err) < 0)
        return -EPROTO;
    struct sudoku_client_puzzle *p = malloc(result->via.array.size * sizeof(*p));
    if (!p) {
        wire_set_error(err, "io", "out of memory for %u puzzles", result->via.array.size);
        return -ENOMEM;
    }
    for (uint32_t i = 0; i < result->via.array.size; i++) {
        const char *why = decode_puzzle(&result->via.array.ptr[i], &p[i]);
        if (why) {
            free(p);
            return bad_puzzle(err, i, why);
        }
    }
    *out = p;
    *len = result->via.array.size;
    return 0;
}

/* What the rules of every puzzle of a (checked) answer need.  Returns 0
 * or -EPROTO with err set. */
static int measure_rules(const msgpack_object *result, struct wire_rules_size *z,
                         struct sudoku_client_error *err)
{
    for (uint32_t i = 0; i < result->via.array.size; i++) {
        const msgpack_object *m = &result->via.array.ptr[i];
        if (m->type == MSGPACK_OBJECT_MAP &&
            wire_rules_measure(proto_map_get(m, PROTO_K_RULES), z) < 0)
            return bad_puzzle(err, i, "rules is not a rules map");
    }
    return 0;
}

int wire_decode_generate_rules(const msgpack_object *error, const msgpack_object *result,
                               unsigned count, struct sudoku_client_variant **out, size_t *len,
                               struct sudoku_client_error *err)
{
    struct wire_rules_size z = {0, 0, 0};
    struct wire_rules_fill f;
    struct sudoku_client_variant *v;
    uint32_t k;

    *out = NULL;
    *len = 0;
    if (check_answer(error, result, count, err) < 0 || measure_rules(result, &z, err) < 0)
        return -EPROTO;
    k = result->via.array.size;
    /* One block: the variants, then the cages, their cells, the layouts. */
    v = malloc(k * sizeof(*v) + z.cages * sizeof(*f.cages) + z.cells * sizeof(*f.cells) +
               z.regions);
    if (!v) {
        wire_set_error(err, "io", "out of memory for %u puzzles", k);
        return -ENOMEM;
    }
    f.cages = (struct sudoku_client_cage *)(v + k);
    f.cells = (uint16_t *)(f.cages + z.cages);
    f.regions = (char *)(f.cells + z.cells);
    for (uint32_t i = 0; i < k; i++) {
        const msgpack_object *m = &result->via.array.ptr[i];
        const char *why = decode_puzzle(m, &v[i].puzzle);
        if (why) {
            free(v);
            return bad_puzzle(err, i, why);
        }
        wire_rules_decode(proto_map_get(m, PROTO_K_RULES), &v[i].rules, &f);
    }
    *out = v;
    *len = k;
    return 0;
}

#endif /* PROTO_CLIENT_END */
