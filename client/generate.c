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
    unsigned count;                        /* puzzles asked for */
    int rc;                                /* 0, or why it failed (err) */
    struct sudoku_client_puzzle *puzzle;   /* a classic batch's answer, owned; or NULL */
    struct sudoku_client_variant *variant; /* a variant batch's answer, owned; or NULL */
    size_t len;                            /* puzzles in it */
    struct sudoku_client_error err;        /* when rc < 0 */
};

struct sudoku_client_genbatch {
    struct ring ring;                      /* the requests in flight; owns the slots */
    sudoku_client_genbatch_cb cb;          /* a classic batch's, called in the order of adds */
    sudoku_client_genbatch_rules_cb rules; /* a variant batch's instead (cb NULL) */
    void *arg;                             /* for cb */
};

static void slot_decode(void *owner, void *slot, const struct wire_msg *m)
{
    const struct sudoku_client_genbatch *b = owner;
    struct gen_slot *s = slot;
    memset(&s->err, 0, sizeof(s->err));
    if (b->rules)
        s->rc = wire_decode_generate_rules(m->error, m->result, s->count, &s->variant, &s->len,
                                           &s->err);
    else
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
    if (b->rules)
        b->rules(b->arg, seq, tag, s->rc < 0 ? NULL : s->variant, s->rc < 0 ? 0 : s->len,
                 s->rc < 0 ? &s->err : NULL);
    else if (s->rc < 0)
        b->cb(b->arg, seq, tag, NULL, 0, &s->err);
    else
        b->cb(b->arg, seq, tag, s->puzzle, s->len, NULL);
    free(s->puzzle);
    free(s->variant);
    s->puzzle = NULL;
    s->variant = NULL;
}

static const struct ring_ops gen_ops = {slot_decode, slot_fail, slot_deliver};

/* A batch of either kind: cb or rules set. */
static int genbatch_new(struct sudoku_client *c, unsigned window, sudoku_client_genbatch_cb cb,
                        sudoku_client_genbatch_rules_cb rules, void *arg,
                        struct sudoku_client_genbatch **out)
{
    *out = NULL;
    if (!c || (!cb && !rules))
        return -EINVAL;
    struct sudoku_client_genbatch *b = calloc(1, sizeof(*b));
    if (!b)
        return -ENOMEM;
    b->cb = cb;
    b->rules = rules;
    b->arg = arg;
    int rc = ring_init(&b->ring, c, window, sizeof(struct gen_slot), 0, &gen_ops, b);
    if (rc < 0) {
        free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int sudoku_client_genbatch_new(struct sudoku_client *c, unsigned window,
                               sudoku_client_genbatch_cb cb, void *arg,
                               struct sudoku_client_genbatch **out)
{
    *out = NULL;
    return cb ? genbatch_new(c, window, cb, NULL, arg, out) : -EINVAL;
}

int sudoku_client_genbatch_new_rules(struct sudoku_client *c, unsigned window,
                                     sudoku_client_genbatch_rules_cb cb, void *arg,
                                     struct sudoku_client_genbatch **out)
{
    *out = NULL;
    return cb ? genbatch_new(c, window, NULL, cb, arg, out) : -EINVAL;
}

void sudoku_client_genbatch_free(struct sudoku_client_genbatch *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->ring.window; i++) {
        struct gen_slot *s = ring_slot_at(&b->ring, i);
        free(s->puzzle);
        free(s->variant);
    }
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
    return sudoku_client_genbatch_add_rules(b, opts, NULL, tag, err);
}

int sudoku_client_genbatch_add_rules(struct sudoku_client_genbatch *b,
                                     const struct sudoku_client_generate_opts *opts,
                                     const struct sudoku_client_rules *rules, uint64_t tag,
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
    rc = wire_pack_generate(&b->ring.c->wbuf, ring_next_msgid(&b->ring), opts, rules);
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

/* Where the one-shot variant call wants its answer. */
struct gen_one_rules {
    struct sudoku_client_variant *variant; /* the slot's block, taken over */
    size_t len;
    struct sudoku_client_error err;
    int rc;
};

/* The bytes of a block of len variants as wire_decode_generate_rules
 * lays it out: the variants, then every cage, their cells, the layouts. */
static size_t variants_size(const struct sudoku_client_variant *v, size_t len)
{
    size_t size = len * sizeof(*v);
    for (size_t i = 0; i < len; i++) {
        const struct sudoku_client_rules *r = &v[i].rules;
        size += r->cages_len * sizeof(*r->cages) + (r->regions ? r->regions_len + 1 : 0);
        for (size_t k = 0; k < r->cages_len; k++)
            size += r->cages[k].cells_len * sizeof(uint16_t);
    }
    return size;
}

/* The slot's block is freed after the callback: copy it whole and move
 * its pointers (which all point inside it) along.  Returns 0 or -ENOMEM. */
static int copy_variants(const struct sudoku_client_variant *v, size_t len,
                         struct sudoku_client_variant **out)
{
    size_t size = variants_size(v, len);
    char *copy = malloc(size);
    const char *from = (const char *)v;

    if (!copy)
        return -ENOMEM;
    memcpy(copy, v, size);
    struct sudoku_client_variant *c = (struct sudoku_client_variant *)copy;
    for (size_t i = 0; i < len; i++) {
        struct sudoku_client_rules *r = &c[i].rules;
        struct sudoku_client_cage *cages = NULL;
        if (r->regions)
            r->regions = copy + (r->regions - from);
        if (r->cages) {
            cages = (struct sudoku_client_cage *)(copy + ((const char *)r->cages - from));
            r->cages = cages;
        }
        for (size_t k = 0; k < r->cages_len; k++)
            cages[k].cells = (const uint16_t *)(copy + ((const char *)cages[k].cells - from));
    }
    *out = c;
    return 0;
}

static void one_rules_cb(void *arg, uint64_t seq, uint64_t tag,
                         const struct sudoku_client_variant *v, size_t len,
                         const struct sudoku_client_error *err)
{
    struct gen_one_rules *g = arg;
    (void)seq;
    (void)tag;
    if (err) {
        g->err = *err;
        g->rc = -EPROTO;
        return;
    }
    if (copy_variants(v, len, &g->variant) < 0) {
        wire_set_error(&g->err, "io", "out of memory for %zu puzzles", len);
        g->rc = -ENOMEM;
        return;
    }
    g->len = len;
}

int sudoku_client_generate_rules(struct sudoku_client *c,
                                 const struct sudoku_client_generate_opts *opts,
                                 const struct sudoku_client_rules *rules,
                                 struct sudoku_client_variant **out, size_t *len,
                                 struct sudoku_client_error *err)
{
    struct gen_one_rules g = {0};
    struct sudoku_client_genbatch *b = NULL;
    int rc;

    *out = NULL;
    *len = 0;
    rc = sudoku_client_genbatch_new_rules(c, 1, one_rules_cb, &g, &b);
    if (rc < 0) {
        wire_set_error(err, "usage", "cannot start the request: %s", strerror(-rc));
        return rc;
    }
    rc = sudoku_client_genbatch_add_rules(b, opts, rules, 0, err);
    if (rc == 0)
        rc = sudoku_client_genbatch_finish(b, err);
    sudoku_client_genbatch_free(b);
    if (rc == 0 && g.rc < 0) {
        rc = g.rc;
        if (err)
            *err = g.err;
    }
    if (rc < 0) {
        free(g.variant);
        return rc;
    }
    *out = g.variant;
    *len = g.len;
    return 0;
}

void sudoku_client_variants_free(struct sudoku_client_variant *v)
{
    free(v);
}
