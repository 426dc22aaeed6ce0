/* explain.c -- the explain and rate messages, both ends side by side.
 *
 * The daemon's end validates the params of explain and rate the way solve's
 * are (proto/solve.c decodes the puzzle and the options they share): every
 * field's type and range is checked before use and copied into fixed-size
 * structs, unknown option keys are ignored, and a known key of the wrong
 * type or out of range is a bad_request whose message names the key.  What
 * needs the loaded plugins (the solver, a progress grid against the givens)
 * is left to the method layer.
 *
 * The client's end packs the requests and decodes the answers.  An
 * explanation has as many steps as the daemon sends, so it is the one answer
 * the library allocates: one block holding the struct, the steps, all
 * placement and elimination pairs, all pattern cells and all texts, sized in
 * a first pass over the msgpack object that also checks every type and range
 * (a cell below n*n, a value in 1..n).  The second pass only copies, so the
 * caller gets a whole explanation or none.  The message it comes from is at
 * most SUDOKU_CLIENT_MAX_MESSAGE bytes, which bounds the block (every pair
 * takes at least 3 bytes on the wire and 4 in memory).
 */
#include "proto/explain.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/codec.h"
#include "proto/end.h"
#include "proto/rpc.h"
#include "proto/rules.h"

/* ====================================================== the daemon's end */
#if PROTO_DAEMON_END

static enum rpc_code decode_progress(const msgpack_object *v, struct rpc_explain_params *e,
                                     char *err, size_t err_size)
{
    struct rpc_solve_params grid;
    char why[RPC_ERR_SIZE - 32];

    if (v->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    if (rpc_decode_puzzle(v, &grid, why, sizeof(why)) != RPC_OK)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "option progress: %s", why);
    e->has_progress = 1;
    e->progress_n = grid.n;
    memcpy(e->progress, grid.cells, (size_t)grid.n * grid.n);
    return RPC_OK;
}

/* ------------------------------------------------- the player's pencil marks */

/* "r3c5" of cell i on side n, into buf. */
static const char *cell_name(unsigned n, size_t i, char *buf, size_t size)
{
    snprintf(buf, size, "r%zuc%zu", i / n + 1, i % n + 1);
    return buf;
}

enum rpc_code rpc_decode_marks_str(const char *s, size_t size, unsigned n, uint32_t *marks,
                                   char *err, size_t err_size)
{
    const size_t len = (size_t)n * n * n;
    char where[48];

    if (size != len)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "option candidates: %zu characters, want %zu (%u per cell of a %ux%u "
                         "puzzle) or an array of %u digit lists",
                         size, len, n, n, n, n * n);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        marks[i] = 0;
        for (unsigned d = 1; d <= n; d++) {
            char c = s[i * n + d - 1];
            int k = codec_symbol_value(n, c);
            if (k != 0 && k != (int)d)
                return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                                 "option candidates: %s, digit %u: '%c' is neither '%c' nor '.' "
                                 "or '0'",
                                 cell_name(n, i, where, sizeof(where)), d,
                                 c >= ' ' && c <= '~' ? c : '?',
                                 codec_value_symbol(d, CODEC_BLANK_DOT));
            marks[i] |= k ? 1u << (d - 1) : 0;
        }
    }
    return RPC_OK;
}

/* One cell's list of the array form: distinct digits 1..n. */
static enum rpc_code marks_cell(const msgpack_object *a, unsigned n, size_t i, uint32_t *mark,
                                char *err, size_t err_size)
{
    char where[48];

    cell_name(n, i, where, sizeof(where));
    if (a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size > n)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "option candidates: %s: want a list of at most %u digits", where, n);
    *mark = 0;
    for (uint32_t k = 0; k < a->via.array.size; k++) {
        const msgpack_object *d = &a->via.array.ptr[k];
        if (d->type != MSGPACK_OBJECT_POSITIVE_INTEGER || d->via.u64 < 1 || d->via.u64 > n)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                             "option candidates: %s: want digits 1..%u", where, n);
        if (*mark & (1u << (d->via.u64 - 1)))
            return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                             "option candidates: %s: digit %u twice", where, (unsigned)d->via.u64);
        *mark |= 1u << (d->via.u64 - 1);
    }
    return RPC_OK;
}

/* The array form: n*n lists, one per cell in row-major order. */
static enum rpc_code marks_from_array(const msgpack_object_array *a, unsigned n, uint32_t *marks,
                                      char *err, size_t err_size)
{
    enum rpc_code code = RPC_OK;

    if (a->size != n * n)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "option candidates: %u lists, want one per cell (%u)", a->size, n * n);
    for (uint32_t i = 0; i < a->size && code == RPC_OK; i++)
        code = marks_cell(&a->ptr[i], n, i, &marks[i], err, err_size);
    return code;
}

/* The candidates option v (nil: none) for a puzzle of side n into e. */
static enum rpc_code decode_candidates(const msgpack_object *v, unsigned n,
                                       struct rpc_explain_params *e, char *err, size_t err_size)
{
    enum rpc_code code;

    if (!v || v->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    if (v->type == MSGPACK_OBJECT_STR)
        code =
            rpc_decode_marks_str(v->via.str.ptr, v->via.str.size, n, e->candidates, err, err_size);
    else if (v->type == MSGPACK_OBJECT_ARRAY)
        code = marks_from_array(&v->via.array, n, e->candidates, err, err_size);
    else
        code = rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "option candidates: want a string of %u characters or an array of %u "
                         "digit lists",
                         n * n * n, n * n);
    e->has_candidates = code == RPC_OK;
    return code;
}

/* ------------------------------------------------------------- the options */

/* level: 1..4, nil for the default (4). */
static enum rpc_code decode_level(const msgpack_object *v, struct rpc_explain_params *e, char *err,
                                  size_t err_size)
{
    uint64_t level = 0;
    enum rpc_code code;

    if (v->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    code = rpc_decode_uint_option(v, "level", 1, 4, &level, err, err_size);
    e->level = (uint32_t)level;
    return code;
}

/* steps, progress and level; candidates is only found (*cand), to be read
 * once the puzzle's side is known.  rpc_decode_options() judged the map's
 * shape. */
static enum rpc_code explain_options(const msgpack_object *o, struct rpc_explain_params *e,
                                     const msgpack_object **cand, char *err, size_t err_size)
{
    uint64_t steps = 0;
    enum rpc_code code = RPC_OK;

    if (o->type != MSGPACK_OBJECT_MAP)
        return RPC_OK;
    for (uint32_t i = 0; i < o->via.map.size && code == RPC_OK; i++) {
        const msgpack_object *v = &o->via.map.ptr[i].val;
        switch (proto_key_of(&o->via.map.ptr[i].key)) {
        case PROTO_K_STEPS:
            code = rpc_decode_uint_option(v, "steps", 1, UINT32_MAX, &steps, err, err_size);
            e->max_steps = (uint32_t)steps;
            break;
        case PROTO_K_PROGRESS:
            code = decode_progress(v, e, err, err_size);
            break;
        case PROTO_K_CANDIDATES:
            *cand = v;
            break;
        case PROTO_K_LEVEL:
            code = decode_level(v, e, err, err_size);
            break;
        default:
            break;
        }
    }
    return code;
}

enum rpc_code rpc_decode_explain_params(const msgpack_object_array *params, enum rpc_method method,
                                        struct rpc_solve_params *s, struct rpc_explain_params *e,
                                        char *err, size_t err_size)
{
    const char *name = proto_method_name(method);
    const msgpack_object *cand = NULL;
    enum rpc_code code;

    memset(s, 0, sizeof(*s));
    memset(e, 0, offsetof(struct rpc_explain_params, progress));
    s->limit = 1;
    if (params->size < 1 || params->size > 2)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "%s takes [puzzle] or [puzzle, options]",
                         name);
    if (params->size == 2) {
        code = rpc_decode_options(&params->ptr[1], name, 0, s, err, err_size);
        if (code == RPC_OK && method == RPC_M_EXPLAIN)
            code = explain_options(&params->ptr[1], e, &cand, err, err_size);
        if (code != RPC_OK)
            return code;
    }
    code = rpc_decode_puzzle(&params->ptr[0], s, err, err_size);
    return code == RPC_OK ? decode_candidates(cand, s->n, e, err, err_size) : code;
}

#endif /* PROTO_DAEMON_END */

/* ====================================================== the client's end */
#if PROTO_CLIENT_END

/* ------------------------------------------------------------ the requests */

int wire_pack_explain(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                      const struct sudoku_client_explain_opts *o,
                      const struct sudoku_client_rules *rules)
{
    struct wire_opts opts = {.len = 0};

    if (wire_rules_check(rules) < 0)
        return -EINVAL;
    if (o && o->solver)
        wire_opt_cstr(&opts, PROTO_K_SOLVER, o->solver);
    if (o && o->steps)
        wire_opt_uint(&opts, PROTO_K_STEPS, o->steps);
    if (o && o->progress)
        wire_opt_str(&opts, PROTO_K_PROGRESS, o->progress, o->progress_len);
    if (o && o->candidates)
        wire_opt_str(&opts, PROTO_K_CANDIDATES, o->candidates, o->candidates_len);
    if (o && o->level)
        wire_opt_uint(&opts, PROTO_K_LEVEL, o->level);
    if (o && o->timeout_ms)
        wire_opt_uint(&opts, PROTO_K_TIMEOUT_MS, o->timeout_ms);
    wire_opt_rules(&opts, rules);
    return wire_pack_puzzle_call(b, msgid, RPC_M_EXPLAIN, puzzle, len, 0, NULL, &opts);
}

int wire_pack_rate_str(struct cbuf *b, uint32_t msgid, const char *puzzle, size_t len,
                       const struct sudoku_client_options *o,
                       const struct sudoku_client_rules *rules)
{
    return wire_pack_solve_or_rate(b, msgid, RPC_M_RATE, puzzle, len, 0, NULL, o, rules);
}

/* ---------------------------------------------------------- reading fields */

/* Copy a str into out (truncating); missing and optional: "". */
static int get_str(const msgpack_object *m, enum proto_key key, int optional, char *out,
                   size_t size)
{
    const msgpack_object *v = proto_map_get(m, key);
    out[0] = '\0';
    if (!v)
        return optional ? 0 : -EPROTO;
    return wire_copy_str(v, out, size);
}

/* A rating: a float, or an integer from a packer that shrinks 10.0 to 10;
 * finite and not negative. */
static int get_rating(const msgpack_object *m, enum proto_key key, double *out)
{
    const msgpack_object *v = proto_map_get(m, key);
    *out = 0;
    if (!v)
        return -EPROTO;
    if (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64)
        *out = v->via.f64;
    else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        *out = (double)v->via.u64;
    else
        return -EPROTO;
    return isfinite(*out) && *out >= 0 ? 0 : -EPROTO;
}

/* A rating the answer may leave out (an older daemon): 0 then. */
static int get_rating_opt(const msgpack_object *m, enum proto_key key, double *out)
{
    *out = 0;
    return proto_map_get(m, key) ? get_rating(m, key, out) : 0;
}

static int get_bool(const msgpack_object *m, enum proto_key key, int *out)
{
    const msgpack_object *v = proto_map_get(m, key);
    if (!v || v->type != MSGPACK_OBJECT_BOOLEAN)
        return -EPROTO;
    *out = v->via.boolean;
    return 0;
}

/* ------------------------------------------------------------ rate answers */

static int decode_rating_map(const msgpack_object *r, struct sudoku_client_rating *res)
{
    if (r->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    if (get_rating(r, PROTO_K_RATING, &res->rating) < 0 ||
        get_str(r, PROTO_K_DIFFICULTY, 0, res->difficulty, sizeof(res->difficulty)) < 0 ||
        get_str(r, PROTO_K_HARDEST, 0, res->hardest, sizeof(res->hardest)) < 0 ||
        get_rating_opt(r, PROTO_K_EP, &res->ep) < 0 ||
        get_rating_opt(r, PROTO_K_ED, &res->ed) < 0 ||
        wire_get_u64(r, PROTO_K_STEPS, 0, &res->steps) < 0 ||
        get_bool(r, PROTO_K_LOGIC, &res->is_logic) < 0 ||
        get_str(r, PROTO_K_SOLVER, 1, res->solver, sizeof(res->solver)) < 0 ||
        wire_get_u64(r, PROTO_K_ELAPSED_US, 1, &res->elapsed_us) < 0)
        return -EPROTO;
    return 0;
}

int wire_decode_rate(const msgpack_object *error, const msgpack_object *result,
                     struct sudoku_client_rating *res)
{
    int rc;

    memset(res, 0, sizeof(*res));
    if (error->type != MSGPACK_OBJECT_NIL) {
        rc = wire_decode_error(error, &res->error);
        res->status = strcmp(res->error.code, proto_code_name(RPC_NOT_UNIQUE)) == 0
                          ? SUDOKU_CLIENT_NOT_UNIQUE
                          : SUDOKU_CLIENT_FAILED;
    } else {
        rc = decode_rating_map(result, res);
        res->status = SUDOKU_CLIENT_SOLVED;
    }
    if (rc < 0) {
        memset(res, 0, sizeof(*res));
        res->status = SUDOKU_CLIENT_FAILED;
        wire_set_error(&res->error, "protocol", "malformed rate response from the daemon");
    }
    return rc;
}

/* ----------------- explain answers: pass 1 checks and sizes, pass 2 copies */

/* What an explanation needs, counted over all its steps. */
struct explain_size {
    size_t steps, pairs, cells, text;
};

/* An array of [cell, value] pairs for side n.  Adds its length to *count. */
static int check_pairs(const msgpack_object *a, unsigned n, size_t *count)
{
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return -EPROTO;
    for (uint32_t i = 0; i < a->via.array.size; i++) {
        const msgpack_object *p = &a->via.array.ptr[i];
        if (p->type != MSGPACK_OBJECT_ARRAY || p->via.array.size != 2)
            return -EPROTO;
        const msgpack_object *cell = &p->via.array.ptr[0], *value = &p->via.array.ptr[1];
        if (cell->type != MSGPACK_OBJECT_POSITIVE_INTEGER || cell->via.u64 >= (uint64_t)n * n ||
            value->type != MSGPACK_OBJECT_POSITIVE_INTEGER || value->via.u64 < 1 ||
            value->via.u64 > n)
            return -EPROTO;
    }
    *count += a->via.array.size;
    return 0;
}

static int check_cells(const msgpack_object *a, unsigned n, size_t *count)
{
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return -EPROTO;
    for (uint32_t i = 0; i < a->via.array.size; i++) {
        const msgpack_object *c = &a->via.array.ptr[i];
        if (c->type != MSGPACK_OBJECT_POSITIVE_INTEGER || c->via.u64 >= (uint64_t)n * n)
            return -EPROTO;
    }
    *count += a->via.array.size;
    return 0;
}

/* A graded step (level below 4) leaves out placements, eliminations,
 * cells or text: absent reads as empty. */
static int check_pairs_opt(const msgpack_object *a, unsigned n, size_t *count)
{
    return a ? check_pairs(a, n, count) : 0;
}

/* The house of a graded step: {"type": str, "index": uint}, or absent. */
static int check_house(const msgpack_object *h)
{
    const msgpack_object *type, *index;

    if (!h)
        return 0;
    type = proto_map_get(h, PROTO_K_TYPE);
    index = proto_map_get(h, PROTO_K_INDEX);
    if (h->type != MSGPACK_OBJECT_MAP || !type || type->type != MSGPACK_OBJECT_STR ||
        type->via.str.size >= SUDOKU_CLIENT_WORD_SIZE || !index ||
        index->type != MSGPACK_OBJECT_POSITIVE_INTEGER || index->via.u64 > SUDOKU_CLIENT_MAX_CELLS)
        return -EPROTO;
    return 0;
}

static int check_step(const msgpack_object *s, unsigned n, struct explain_size *z)
{
    const msgpack_object *technique = proto_map_get(s, PROTO_K_TECHNIQUE),
                         *text = proto_map_get(s, PROTO_K_TEXT),
                         *cells = proto_map_get(s, PROTO_K_CELLS);
    double rating;

    if (s->type != MSGPACK_OBJECT_MAP || !technique || technique->type != MSGPACK_OBJECT_STR ||
        (text && text->type != MSGPACK_OBJECT_STR) || get_rating(s, PROTO_K_RATING, &rating) < 0 ||
        check_pairs_opt(proto_map_get(s, PROTO_K_PLACEMENTS), n, &z->pairs) < 0 ||
        check_pairs_opt(proto_map_get(s, PROTO_K_ELIMINATIONS), n, &z->pairs) < 0 ||
        check_pairs_opt(proto_map_get(s, PROTO_K_RESTORE), n, &z->pairs) < 0 ||
        (cells && check_cells(cells, n, &z->cells) < 0) ||
        check_house(proto_map_get(s, PROTO_K_HOUSE)) < 0)
        return -EPROTO;
    z->text += (text ? text->via.str.size : 0) + 1;
    return 0;
}

static int decode_status(const msgpack_object *v, enum sudoku_client_explain_status *out)
{
    if (!v)
        return -EPROTO;
    if (proto_is(v, PROTO_K_SOLVED))
        *out = SUDOKU_CLIENT_EXPLAIN_SOLVED;
    else if (proto_is(v, PROTO_K_PARTIAL))
        *out = SUDOKU_CLIENT_EXPLAIN_PARTIAL;
    else if (proto_is(v, PROTO_K_STUCK))
        *out = SUDOKU_CLIENT_EXPLAIN_STUCK;
    else
        return -EPROTO;
    return 0;
}

/* The summary fields, into the caller's struct. */
static int check_summary(const msgpack_object *r, struct sudoku_client_explanation *e)
{
    if (decode_status(proto_map_get(r, PROTO_K_STATUS), &e->status) < 0 ||
        get_rating(r, PROTO_K_RATING, &e->rating) < 0 ||
        get_str(r, PROTO_K_DIFFICULTY, 0, e->difficulty, sizeof(e->difficulty)) < 0 ||
        get_str(r, PROTO_K_HARDEST, 1, e->hardest, sizeof(e->hardest)) < 0 ||
        get_rating_opt(r, PROTO_K_EP, &e->ep) < 0 || get_rating_opt(r, PROTO_K_ED, &e->ed) < 0 ||
        get_str(r, PROTO_K_SOLVER, 1, e->solver, sizeof(e->solver)) < 0 ||
        wire_get_u64(r, PROTO_K_ELAPSED_US, 1, &e->elapsed_us) < 0)
        return -EPROTO;
    return 0;
}

/* Where pass 2 writes: cursors into the block. */
struct explain_fill {
    struct sudoku_client_cell_value *pairs;
    uint16_t *cells;
    char *text;
};

/* Pairs of the array a (NULL: none, *len 0) into the block. */
static const struct sudoku_client_cell_value *fill_pairs(const msgpack_object *a,
                                                         struct explain_fill *f, size_t *len)
{
    const struct sudoku_client_cell_value *first = f->pairs;
    for (uint32_t i = 0; a && i < a->via.array.size; i++, f->pairs++) {
        const msgpack_object *p = a->via.array.ptr[i].via.array.ptr;
        f->pairs->cell = (uint16_t)p[0].via.u64;
        f->pairs->value = (uint8_t)p[1].via.u64;
    }
    *len = a ? a->via.array.size : 0;
    return first;
}

/* The house pass 1 checked, into out (none: "" and 0). */
static void fill_house(const msgpack_object *h, struct sudoku_client_step *out)
{
    const msgpack_object *type = h ? proto_map_get(h, PROTO_K_TYPE) : NULL;

    out->house_type[0] = '\0';
    out->house_index = 0;
    if (!type)
        return;
    memcpy(out->house_type, type->via.str.ptr, type->via.str.size);
    out->house_type[type->via.str.size] = '\0';
    out->house_index = (unsigned)proto_map_get(h, PROTO_K_INDEX)->via.u64;
}

static void fill_step(const msgpack_object *s, struct sudoku_client_step *out,
                      struct explain_fill *f)
{
    const msgpack_object *cells = proto_map_get(s, PROTO_K_CELLS),
                         *text = proto_map_get(s, PROTO_K_TEXT),
                         *restore = proto_map_get(s, PROTO_K_RESTORE);

    get_str(s, PROTO_K_TECHNIQUE, 0, out->technique, sizeof(out->technique));
    get_rating(s, PROTO_K_RATING, &out->rating);
    out->placements = fill_pairs(proto_map_get(s, PROTO_K_PLACEMENTS), f, &out->placements_len);
    out->eliminations =
        fill_pairs(proto_map_get(s, PROTO_K_ELIMINATIONS), f, &out->eliminations_len);
    if (restore)
        out->restore = fill_pairs(restore, f, &out->restore_len);
    out->cells = f->cells;
    out->cells_len = cells ? cells->via.array.size : 0;
    for (uint32_t i = 0; i < out->cells_len; i++)
        *f->cells++ = (uint16_t)cells->via.array.ptr[i].via.u64;
    out->text = f->text;
    if (text)
        memcpy(f->text, text->via.str.ptr, text->via.str.size);
    f->text[text ? text->via.str.size : 0] = '\0';
    f->text += (text ? text->via.str.size : 0) + 1;
    fill_house(proto_map_get(s, PROTO_K_HOUSE), out);
}

/* One allocation: the explanation, then its steps (aligned by the flexible
 * array), then pairs, cells and text, each needing no more alignment than
 * what precedes it. */
struct explain_block {
    struct sudoku_client_explanation e;
    struct sudoku_client_step steps[];
};

static struct explain_block *alloc_block(const struct explain_size *z)
{
    size_t size = sizeof(struct explain_block) + z->steps * sizeof(struct sudoku_client_step) +
                  z->pairs * sizeof(struct sudoku_client_cell_value) + z->cells * sizeof(uint16_t) +
                  z->text;
    return calloc(1, size);
}

int wire_decode_explain(const msgpack_object *r, unsigned n, struct sudoku_client_explanation **out)
{
    struct sudoku_client_explanation head = {.n = n};
    struct explain_size z = {0};
    const msgpack_object *steps = proto_map_get(r, PROTO_K_STEPS);

    *out = NULL;
    if (r->type != MSGPACK_OBJECT_MAP || !steps || steps->type != MSGPACK_OBJECT_ARRAY ||
        check_summary(r, &head) < 0)
        return -EPROTO;
    z.steps = steps->via.array.size;
    for (uint32_t i = 0; i < steps->via.array.size; i++)
        if (check_step(&steps->via.array.ptr[i], n, &z) < 0)
            return -EPROTO;
    struct explain_block *b = alloc_block(&z);
    if (!b)
        return -ENOMEM;
    struct explain_fill f;
    f.pairs = (struct sudoku_client_cell_value *)(b->steps + z.steps);
    f.cells = (uint16_t *)(f.pairs + z.pairs);
    f.text = (char *)(f.cells + z.cells);
    b->e = head;
    b->e.steps = b->steps;
    b->e.steps_len = z.steps;
    for (uint32_t i = 0; i < steps->via.array.size; i++)
        fill_step(&steps->via.array.ptr[i], &b->steps[i], &f);
    *out = &b->e;
    return 0;
}

#endif /* PROTO_CLIENT_END */
