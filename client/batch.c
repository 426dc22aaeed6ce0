/* batch.c -- pipelined solves on one connection, answered in input order.
 *
 * A batch is a reorder ring (ring.h) of solve requests and
 * struct sudoku_client_result answers: every added puzzle gets exactly one
 * callback, in the order of the adds, whatever order the daemon answers in
 * and whether or not the connection breaks.  Memory is window slots however
 * long the input.
 *
 * A rating batch (sudoku_client_batch_new_rate) is the same machine with
 * rate requests and struct sudoku_client_rating answers: a batch's kind
 * (struct batch_kind, one per kind) is the ring's table of what a slot does
 * and the method its requests call, and each slot holds one answer of its
 * kind.  The first spellings of the calls (sudoku_batch_*) are aliases of
 * the same functions, at the end.
 *
 * Requests are not sent one syscall each: an added request waits in the
 * write buffer while the daemon still holds plenty of this batch's requests
 * (ring_should_send), and goes out with the others on the next wait for a
 * slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_impl.h"
#include "client/ring.h"

#define MAX_PUZZLE_TEXT      4096 /* longer line-form text is refused locally */
#define BATCH_SPIN_IN_FLIGHT 2    /* spin for answers with at most this many in flight */

/* One puzzle's answer, of the batch's kind. */
union batch_slot {
    struct sudoku_client_result res;  /* a solving batch's answer */
    struct sudoku_client_rating rate; /* a rating batch's */
};

/* The caller's callback, of the batch's kind. */
union batch_cb {
    sudoku_client_batch_cb solve;     /* a solving batch's */
    sudoku_client_batch_rate_cb rate; /* a rating batch's */
};

/* What a batch's kind does: how its slots take answers (the ring's table)
 * and which method its requests call. */
struct batch_kind {
    struct ring_ops ops;    /* decode, fail and deliver a slot of this kind */
    enum rpc_method method; /* RPC_M_SOLVE or RPC_M_RATE */
};

struct sudoku_client_batch {
    struct ring ring;                  /* the requests in flight; owns the slots */
    const struct batch_kind *kind;     /* solving or rating, static */
    struct sudoku_client_options opts; /* copied; opts.solver points into solver */
    char solver[64];                   /* copy of the solver name */
    union batch_cb cb;                 /* called in input order, of the kind */
    void *arg;                         /* for cb */
};

/* ----------------------------------------------------------------- solving */

static void solve_decode(void *owner, void *slot, const struct wire_msg *m)
{
    union batch_slot *s = slot;
    (void)owner;
    wire_decode_solve(m->error, m->result, &s->res);
}

static void solve_fail(void *owner, void *slot, const struct sudoku_client_error *e)
{
    union batch_slot *s = slot;
    (void)owner;
    memset(&s->res, 0, sizeof(s->res));
    s->res.status = SUDOKU_CLIENT_FAILED;
    s->res.error = *e;
}

static void solve_deliver(void *owner, uint64_t seq, uint64_t tag, void *slot)
{
    const struct sudoku_client_batch *b = owner;
    union batch_slot *s = slot;
    b->cb.solve(b->arg, seq, tag, &s->res);
}

static const struct batch_kind solve_kind = {{solve_decode, solve_fail, solve_deliver},
                                             RPC_M_SOLVE};

/* ------------------------------------------------------------------ rating */

static void rate_decode(void *owner, void *slot, const struct wire_msg *m)
{
    union batch_slot *s = slot;
    (void)owner;
    wire_decode_rate(m->error, m->result, &s->rate);
}

static void rate_fail(void *owner, void *slot, const struct sudoku_client_error *e)
{
    union batch_slot *s = slot;
    (void)owner;
    memset(&s->rate, 0, sizeof(s->rate));
    s->rate.status = SUDOKU_CLIENT_FAILED;
    s->rate.error = *e;
}

static void rate_deliver(void *owner, uint64_t seq, uint64_t tag, void *slot)
{
    const struct sudoku_client_batch *b = owner;
    union batch_slot *s = slot;
    b->cb.rate(b->arg, seq, tag, &s->rate);
}

static const struct batch_kind rate_kind = {{rate_decode, rate_fail, rate_deliver}, RPC_M_RATE};

/* --------------------------------------------------------------- the batch */

/* A batch of either kind, cb of that kind. */
static int batch_new(struct sudoku_client *c, unsigned window,
                     const struct sudoku_client_options *opts, const struct batch_kind *kind,
                     union batch_cb cb, void *arg, struct sudoku_client_batch **out)
{
    *out = NULL;
    if (!c)
        return -EINVAL;
    if (opts && opts->solver &&
        strlen(opts->solver) >= sizeof(((struct sudoku_client_batch *)0)->solver))
        return -EINVAL;
    struct sudoku_client_batch *b = calloc(1, sizeof(*b));
    if (!b)
        return -ENOMEM;
    b->kind = kind;
    b->cb = cb;
    b->arg = arg;
    if (opts) {
        b->opts = *opts;
        if (opts->solver) {
            memcpy(b->solver, opts->solver, strlen(opts->solver) + 1);
            b->opts.solver = b->solver;
        }
    }
    int rc = ring_init(&b->ring, c, window, sizeof(union batch_slot), BATCH_SPIN_IN_FLIGHT,
                       &kind->ops, b);
    if (rc < 0) {
        free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int sudoku_client_batch_new(struct sudoku_client *c, unsigned window,
                            const struct sudoku_client_options *opts, sudoku_client_batch_cb cb,
                            void *arg, struct sudoku_client_batch **out)
{
    union batch_cb u = {.solve = cb};

    *out = NULL;
    return cb ? batch_new(c, window, opts, &solve_kind, u, arg, out) : -EINVAL;
}

int sudoku_client_batch_new_rate(struct sudoku_client *c, unsigned window,
                                 const struct sudoku_client_explain_opts *opts,
                                 sudoku_client_batch_rate_cb cb, void *arg,
                                 struct sudoku_client_batch **out)
{
    struct sudoku_client_options o = {0};
    union batch_cb u = {.rate = cb};

    *out = NULL;
    if (opts) {
        o.solver = opts->solver;
        o.timeout_ms = opts->timeout_ms;
    }
    return cb ? batch_new(c, window, &o, &rate_kind, u, arg, out) : -EINVAL;
}

void sudoku_client_batch_free(struct sudoku_client_batch *b)
{
    if (!b)
        return;
    ring_fini(&b->ring);
    free(b);
}

size_t sudoku_client_batch_pending(const struct sudoku_client_batch *b)
{
    return ring_pending(&b->ring);
}

/* The request for the next slot is in wbuf (pack_rc 0) or failed to encode. */
static int commit(struct sudoku_client_batch *b, int pack_rc, uint64_t tag,
                  struct sudoku_client_error *err)
{
    if (pack_rc < 0) {
        wire_set_error(err, "usage", "cannot encode the puzzle");
        return pack_rc;
    }
    ring_push(&b->ring, tag);
    /* Queued, so it gets its callback whatever happens next; a connection
     * broken by this send is reported by the next add or finish, after
     * every undelivered puzzle, this one too, was delivered as failed. */
    if (ring_should_send(&b->ring))
        ring_step(&b->ring, 0, NULL);
    return 0;
}

/* A puzzle refused without asking the daemon still answers in order. */
static int add_local_failure(struct sudoku_client_batch *b, uint64_t tag, const char *code,
                             const char *message)
{
    struct sudoku_client_error e;
    wire_set_error(&e, code, "%s", message);
    ring_push_failed(&b->ring, tag, &e);
    return 0;
}

/* Rules that cannot go on the wire fail their puzzle, in its place. */
#define BAD_RULES "rules that cannot be sent: an unknown flag, or more cells than 25x25 has"

int sudoku_client_batch_add_rules(struct sudoku_client_batch *b, const char *puzzle, size_t len,
                                  const struct sudoku_client_rules *rules, uint64_t tag,
                                  struct sudoku_client_error *err)
{
    int rc = ring_make_room(&b->ring, err);
    if (rc < 0)
        return rc;
    if (len > MAX_PUZZLE_TEXT)
        return add_local_failure(b, tag, "bad_puzzle",
                                 "puzzle text too long: a puzzle has "
                                 "16, 81, 256 or 625 cells");
    if (wire_rules_check(rules) < 0)
        return add_local_failure(b, tag, "usage", BAD_RULES);
    struct cbuf *w = &b->ring.c->wbuf;
    uint32_t msgid = ring_next_msgid(&b->ring);
    int pack_rc =
        wire_pack_solve_or_rate(w, msgid, b->kind->method, puzzle, len, 0, NULL, &b->opts, rules);
    return commit(b, pack_rc, tag, err);
}

int sudoku_client_batch_add(struct sudoku_client_batch *b, const char *puzzle, size_t len,
                            uint64_t tag, struct sudoku_client_error *err)
{
    return sudoku_client_batch_add_rules(b, puzzle, len, NULL, tag, err);
}

int sudoku_client_batch_add_cells_rules(struct sudoku_client_batch *b, unsigned n,
                                        const uint8_t *cells,
                                        const struct sudoku_client_rules *rules, uint64_t tag,
                                        struct sudoku_client_error *err)
{
    int rc = ring_make_room(&b->ring, err);
    if (rc < 0)
        return rc;
    if (n != 4 && n != 9 && n != 16 && n != 25)
        return add_local_failure(b, tag, "bad_puzzle", "a grid has 4, 9, 16 or 25 rows");
    if (wire_rules_check(rules) < 0)
        return add_local_failure(b, tag, "usage", BAD_RULES);
    struct cbuf *w = &b->ring.c->wbuf;
    uint32_t msgid = ring_next_msgid(&b->ring);
    int pack_rc =
        wire_pack_solve_or_rate(w, msgid, b->kind->method, NULL, 0, n, cells, &b->opts, rules);
    return commit(b, pack_rc, tag, err);
}

int sudoku_client_batch_add_cells(struct sudoku_client_batch *b, unsigned n, const uint8_t *cells,
                                  uint64_t tag, struct sudoku_client_error *err)
{
    return sudoku_client_batch_add_cells_rules(b, n, cells, NULL, tag, err);
}

int sudoku_client_batch_add_failed(struct sudoku_client_batch *b, uint64_t tag, const char *code,
                                   const char *message, struct sudoku_client_error *err)
{
    int rc = ring_make_room(&b->ring, err);
    return rc < 0 ? rc : add_local_failure(b, tag, code, message);
}

int sudoku_client_batch_finish(struct sudoku_client_batch *b, struct sudoku_client_error *err)
{
    return ring_finish(&b->ring, err);
}

/* ----------------------------------------------------- the first spellings */

/* The same function under its first name (client.h): one symbol, two names. */
#define BATCH_ALIAS(old, primary) extern __typeof__(primary) old __attribute__((alias(#primary)))

BATCH_ALIAS(sudoku_batch_new, sudoku_client_batch_new);
BATCH_ALIAS(sudoku_batch_new_rate, sudoku_client_batch_new_rate);
BATCH_ALIAS(sudoku_batch_add, sudoku_client_batch_add);
BATCH_ALIAS(sudoku_batch_add_cells, sudoku_client_batch_add_cells);
BATCH_ALIAS(sudoku_batch_add_failed, sudoku_client_batch_add_failed);
BATCH_ALIAS(sudoku_batch_finish, sudoku_client_batch_finish);
BATCH_ALIAS(sudoku_batch_pending, sudoku_client_batch_pending);
BATCH_ALIAS(sudoku_batch_free, sudoku_client_batch_free);
