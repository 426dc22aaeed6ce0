/* generate.c -- the generate method for libsudoku-client: one call and pipelined.
 *
 * A generate request is packed, and its answer checked map by map, by the
 * client's end of proto/generate.c: a caller never gets half an answer.
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
        wire_set_error(err, "usage", "count %u is over %u", count, SUDOKU_CLIENT_GENERATE_MAX);
        return -EINVAL;
    }
    int rc = ring_make_room(&b->ring, err);
    if (rc < 0)
        return rc;
    rc = wire_pack_generate(&b->ring.c->wbuf, ring_next_msgid(&b->ring), opts);
    if (rc < 0) {
        wire_set_error(err, "usage", "cannot encode the request");
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
        wire_set_error(&g->err, "io", "out of memory for %zu puzzles", len);
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
        wire_set_error(err, "usage", "cannot start the request: %s", strerror(-rc));
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
