/* gen.c -- the generate method for libsudoku-client: one call and pipelined.
 *
 * A generate request is [0, msgid, "generate", [options]] (no options: []);
 * its answer is an array of 1..count puzzle maps (docs/protocol.md).  Every
 * map is checked before a caller sees it: puzzle and solution parse in the
 * line form with the same side, the solution is complete and keeps every
 * given, and "givens" counts the puzzle's non-blank cells; one bad map makes
 * the whole answer a "protocol" error, so a caller never gets half an answer.
 *
 * The pipelined form (sudoku_client_genbatch) is a reorder ring (ring.h),
 * as batch.c is for solves, so answers come out in the order the requests
 * went in.  A slot owns the decoded array of its answer until its callback
 * has run.  The one-shot call is a batch of window 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_impl.h"
#include "client/ring.h"
#include "proto/codec.h"
#include "proto/protocol.h"
#include "proto/rpc.h"

/* ------------------------------------------------------------------------ */
/* Encoding */

static size_t options_len(const struct sudoku_client_generate_opts *o)
{
    if (!o)
        return 0;
    return (o->size != 0) + (o->count != 0) + (o->has_seed != 0) + (o->symmetry != NULL) +
           (o->is_not_minimal != 0) + (o->difficulty != NULL) + (o->has_min_rating != 0) +
           (o->has_max_rating != 0) + (o->solver != NULL) + (o->timeout_ms != 0);
}

static void pack_options(msgpack_packer *pk, const struct sudoku_client_generate_opts *o)
{
    msgpack_pack_map(pk, options_len(o));
    if (o->size) {
        proto_pack_key(pk, PROTO_K_SIZE);
        msgpack_pack_unsigned_int(pk, o->size);
    }
    if (o->count) {
        proto_pack_key(pk, PROTO_K_COUNT);
        msgpack_pack_unsigned_int(pk, o->count);
    }
    if (o->has_seed) {
        proto_pack_key(pk, PROTO_K_SEED);
        msgpack_pack_uint64(pk, o->seed);
    }
    if (o->symmetry) {
        proto_pack_key(pk, PROTO_K_SYMMETRY);
        rpc_pack_cstr(pk, o->symmetry);
    }
    if (o->is_not_minimal) {
        proto_pack_key(pk, PROTO_K_MINIMAL);
        msgpack_pack_false(pk);
    }
    if (o->difficulty) {
        proto_pack_key(pk, PROTO_K_DIFFICULTY);
        rpc_pack_cstr(pk, o->difficulty);
    }
    if (o->has_min_rating) {
        proto_pack_key(pk, PROTO_K_MIN_RATING);
        msgpack_pack_double(pk, o->min_rating);
    }
    if (o->has_max_rating) {
        proto_pack_key(pk, PROTO_K_MAX_RATING);
        msgpack_pack_double(pk, o->max_rating);
    }
    if (o->solver) {
        proto_pack_key(pk, PROTO_K_SOLVER);
        rpc_pack_cstr(pk, o->solver);
    }
    if (o->timeout_ms) {
        proto_pack_key(pk, PROTO_K_TIMEOUT_MS);
        msgpack_pack_unsigned_int(pk, o->timeout_ms);
    }
}

int wire_pack_generate(struct cbuf *b, uint32_t msgid, const struct sudoku_client_generate_opts *o)
{
    size_t nopts = options_len(o);
    struct wire_packer w;

    wire_begin(&w, b, msgid, RPC_M_GENERATE, nopts ? 1 : 0);
    if (nopts)
        pack_options(&w.pk, o);
    return wire_end(&w);
}

/* ------------------------------------------------------------------------ */
/* Decoding */

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

int wire_decode_generate(const msgpack_object *error, const msgpack_object *result, unsigned count,
                         struct sudoku_client_puzzle **out, size_t *len,
                         struct sudoku_client_error *err)
{
    *out = NULL;
    *len = 0;
    if (error->type != MSGPACK_OBJECT_NIL) {
        if (wire_decode_error(error, err) < 0)
            client__set_error(err, "protocol", "malformed error in a generate response");
        return -EPROTO;
    }
    if (result->type != MSGPACK_OBJECT_ARRAY || result->via.array.size == 0 ||
        result->via.array.size > count) {
        client__set_error(err, "protocol",
                          "malformed generate answer from the daemon: not an array of "
                          "1..%u puzzles",
                          count);
        return -EPROTO;
    }
    struct sudoku_client_puzzle *p = malloc(result->via.array.size * sizeof(*p));
    if (!p) {
        client__set_error(err, "io", "out of memory for %u puzzles", result->via.array.size);
        return -ENOMEM;
    }
    for (uint32_t i = 0; i < result->via.array.size; i++) {
        const char *why = decode_puzzle(&result->via.array.ptr[i], &p[i]);
        if (why) {
            client__set_error(err, "protocol",
                              "malformed generate answer from the daemon: puzzle %u: %s", i, why);
            free(p);
            return -EPROTO;
        }
    }
    *out = p;
    *len = result->via.array.size;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Pipelined requests */

/* One request's answer, once it came. */
struct gen_slot {
    unsigned count;                      /* puzzles asked for */
    int rc;                              /* 0, or why it failed (err) */
    struct sudoku_client_puzzle *puzzle; /* the answer, owned; NULL on failure */
    size_t len;                          /* puzzles in it */
    struct sudoku_client_error err;      /* when rc < 0 */
};

struct sudoku_client_genbatch {
    struct ring ring;             /* the requests in flight; owns the slots */
    sudoku_client_genbatch_cb cb; /* called in the order of the adds */
    void *arg;                    /* for cb */
};

static void slot_decode(void *owner, void *slot, const struct wire_msg *m)
{
    struct gen_slot *s = slot;
    (void)owner;
    memset(&s->err, 0, sizeof(s->err));
    s->rc = wire_decode_generate(m->error, m->result, s->count, &s->puzzle, &s->len, &s->err);
}

static void slot_fail(void *owner, void *slot, const struct sudoku_client_error *e)
{
    const struct sudoku_client_genbatch *b = owner;
    struct gen_slot *s = slot;
    s->rc = b->ring.c->failed ? b->ring.c->failed : -EPROTO;
    s->err = *e;
}

static void slot_deliver(void *owner, uint64_t seq, uint64_t tag, void *slot)
{
    const struct sudoku_client_genbatch *b = owner;
    struct gen_slot *s = slot;
    if (s->rc < 0)
        b->cb(b->arg, seq, tag, NULL, 0, &s->err);
    else
        b->cb(b->arg, seq, tag, s->puzzle, s->len, NULL);
    free(s->puzzle);
    s->puzzle = NULL;
}

static const struct ring_ops gen_ops = {slot_decode, slot_fail, slot_deliver};

int sudoku_client_genbatch_new(struct sudoku_client *c, unsigned window,
                               sudoku_client_genbatch_cb cb, void *arg,
                               struct sudoku_client_genbatch **out)
{
    *out = NULL;
    if (!c || !cb)
        return -EINVAL;
    struct sudoku_client_genbatch *b = calloc(1, sizeof(*b));
    if (!b)
        return -ENOMEM;
    b->cb = cb;
    b->arg = arg;
    int rc = ring_init(&b->ring, c, window, sizeof(struct gen_slot), 0, &gen_ops, b);
    if (rc < 0) {
        free(b);
        return rc;
    }
    *out = b;
    return 0;
}

void sudoku_client_genbatch_free(struct sudoku_client_genbatch *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->ring.window; i++)
        free(((struct gen_slot *)ring_slot_at(&b->ring, i))->puzzle);
    ring_fini(&b->ring);
    free(b);
}

size_t sudoku_client_genbatch_pending(const struct sudoku_client_genbatch *b)
{
    return ring_pending(&b->ring);
}

int sudoku_client_genbatch_add(struct sudoku_client_genbatch *b,
                               const struct sudoku_client_generate_opts *opts, uint64_t tag,
                               struct sudoku_client_error *err)
{
    unsigned count = opts && opts->count ? opts->count : 1;

    if (count > SUDOKU_CLIENT_GENERATE_MAX) {
        client__set_error(err, "usage", "count %u is over %u", count, SUDOKU_CLIENT_GENERATE_MAX);
        return -EINVAL;
    }
    int rc = ring_make_room(&b->ring, err);
    if (rc < 0)
        return rc;
    rc = wire_pack_generate(&b->ring.c->wbuf, ring_next_msgid(&b->ring), opts);
    if (rc < 0) {
        client__set_error(err, "usage", "cannot encode the request");
        return -EINVAL;
    }
    struct gen_slot *s = ring_push(&b->ring, tag);
    s->count = count;
    return ring_step(&b->ring, 0, err);
}

int sudoku_client_genbatch_finish(struct sudoku_client_genbatch *b, struct sudoku_client_error *err)
{
    return ring_finish(&b->ring, err);
}

/* ------------------------------------------------------------------------ */
/* One request at a time */

/* Where the one-shot call wants its answer. */
struct gen_one {
    struct sudoku_client_puzzle *puzzle; /* malloc'ed copy, handed to the caller */
    size_t len;
    struct sudoku_client_error err;
    int rc;
};

static void one_cb(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_puzzle *p,
                   size_t len, const struct sudoku_client_error *err)
{
    struct gen_one *g = arg;
    (void)seq;
    (void)tag;
    if (err) {
        g->err = *err;
        g->rc = -EPROTO;
        return;
    }
    g->puzzle = malloc(len * sizeof(*p));
    if (!g->puzzle) {
        client__set_error(&g->err, "io", "out of memory for %zu puzzles", len);
        g->rc = -ENOMEM;
        return;
    }
    memcpy(g->puzzle, p, len * sizeof(*p));
    g->len = len;
}

int sudoku_client_generate(struct sudoku_client *c, const struct sudoku_client_generate_opts *opts,
                           struct sudoku_client_puzzle **out, size_t *len,
                           struct sudoku_client_error *err)
{
    struct gen_one g = {0};
    struct sudoku_client_genbatch *b = NULL;
    int rc;

    *out = NULL;
    *len = 0;
    rc = sudoku_client_genbatch_new(c, 1, one_cb, &g, &b);
    if (rc < 0) {
        client__set_error(err, "usage", "cannot start the request: %s", strerror(-rc));
        return rc;
    }
    rc = sudoku_client_genbatch_add(b, opts, 0, err);
    if (rc == 0)
        rc = sudoku_client_genbatch_finish(b, err);
    sudoku_client_genbatch_free(b);
    if (rc == 0 && g.rc < 0) {
        rc = g.rc;
        if (err)
            *err = g.err;
    }
    if (rc < 0) {
        free(g.puzzle);
        return rc;
    }
    *out = g.puzzle;
    *len = g.len;
    return 0;
}

void sudoku_client_puzzles_free(struct sudoku_client_puzzle *p)
{
    free(p);
}
