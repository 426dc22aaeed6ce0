/* batch.c -- pipelined solves on one connection, answered in input order.
 *
 * Every added puzzle gets a sequence number seq (0, 1, 2, ...) and the msgid
 * msgid_base + seq (mod 2^32).  Puzzles [head, tail) are in flight or
 * answered-but-not-yet-delivered; tail - head <= window always, so the ring
 * of window slots (slot = seq % window) is the whole reorder buffer:
 *
 *     head                      tail
 *      v                         v
 *   .. [ wait | done | wait | done ] ..    callbacks run from head while done
 *
 * The daemon answers out of order; a slot fills when its answer arrives and
 * the callback runs once every earlier puzzle has been delivered.  Memory is
 * window slots however long the input.  When the connection breaks, every
 * undelivered puzzle is delivered as failed with the connection's error, so
 * each added puzzle gets exactly one callback.
 *
 * A rating batch (sudoku_batch_new_rate) is the same machine with rate
 * requests and struct sudoku_client_rating answers: b->cb or b->rate_cb,
 * whichever is set, says which, and each slot holds one answer of its kind.
 *
 * Requests are not sent one syscall each: an added request waits in the
 * write buffer while the daemon still holds plenty of this batch's requests
 * (should_send), and goes out with the others on the next wait for a slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_impl.h"

#define MAX_PUZZLE_TEXT      4096  /* longer line-form text is refused locally */
#define BATCH_FLUSH_BYTES    16384 /* unsent request bytes that are sent without waiting */
#define BATCH_SPIN_IN_FLIGHT 2     /* spin for answers with at most this many in flight */

/* One puzzle in flight or waiting for its turn to be delivered. */
struct batch_slot {
    uint64_t tag; /* the caller's value */
    int is_done;  /* res (or rate) holds the answer */
    union {
        struct sudoku_client_result res;  /* a solving batch's answer */
        struct sudoku_client_rating rate; /* a rating batch's */
    };
};

struct sudoku_batch {
    struct sudoku_client *c;           /* borrowed */
    unsigned window;                   /* slots, max requests in flight */
    struct sudoku_client_options opts; /* copied; opts.solver points into solver */
    char solver[64];                   /* copy of the solver name */
    sudoku_batch_cb cb;                /* called in input order; NULL: a rating batch */
    sudoku_batch_rate_cb rate_cb;      /* a rating batch's callback */
    void *arg;                         /* for cb */
    uint64_t head;                     /* next seq to deliver */
    uint64_t tail;                     /* next seq to add */
    uint64_t unsent;                   /* of [head, tail): still in c->wbuf (about) */
    uint32_t msgid_base;               /* msgid of seq 0 */
    struct batch_slot *slots;          /* window of them, owned */
};

static struct batch_slot *slot_of(struct sudoku_batch *b, uint64_t seq)
{
    return &b->slots[seq % b->window];
}

static void on_response(void *arg, const struct wire_msg *m)
{
    struct sudoku_batch *b = arg;
    uint64_t seq = b->head + (uint32_t)(m->msgid - (uint32_t)(b->msgid_base + b->head));
    if (seq >= b->tail)
        return; /* not ours: a stale answer from an earlier call */
    struct batch_slot *s = slot_of(b, seq);
    if (s->is_done)
        return; /* a duplicate answer; the first one stands */
    if (b->rate_cb)
        wire_decode_rate(m->error, m->result, &s->rate);
    else
        wire_decode_solve(m->error, m->result, &s->res);
    s->is_done = 1;
}

/* Run the callbacks of every answered puzzle at the front. */
static void deliver_ready(struct sudoku_batch *b)
{
    while (b->head < b->tail && slot_of(b, b->head)->is_done) {
        struct batch_slot *s = slot_of(b, b->head);
        if (b->rate_cb)
            b->rate_cb(b->arg, b->head, s->tag, &s->rate);
        else
            b->cb(b->arg, b->head, s->tag, &s->res);
        s->is_done = 0;
        b->head++;
    }
}

/* Make slot s a failed answer with error e, in the batch's kind. */
static void set_failed(const struct sudoku_batch *b, struct batch_slot *s,
                       const struct sudoku_client_error *e)
{
    if (b->rate_cb) {
        memset(&s->rate, 0, sizeof(s->rate));
        s->rate.status = SUDOKU_CLIENT_FAILED;
        s->rate.error = *e;
    } else {
        memset(&s->res, 0, sizeof(s->res));
        s->res.status = SUDOKU_CLIENT_FAILED;
        s->res.error = *e;
    }
}

/* The connection broke: deliver everything left as failed with its error. */
static int fail_all(struct sudoku_batch *b, struct sudoku_client_error *err)
{
    for (uint64_t seq = b->head; seq < b->tail; seq++) {
        struct batch_slot *s = slot_of(b, seq);
        if (!s->is_done) {
            set_failed(b, s, &b->c->fail_error);
            s->is_done = 1;
        }
    }
    deliver_ready(b);
    if (err)
        *err = b->c->fail_error;
    return b->c->failed;
}

/* Pump once and deliver; on a broken connection, fail the rest.  With
 * almost nothing in flight the answer is due within microseconds: spin. */
static int step(struct sudoku_batch *b, int block, struct sudoku_client_error *err)
{
    unsigned spin = b->tail - b->head <= BATCH_SPIN_IN_FLIGHT ? CLIENT_SPIN_US : 0;
    int rc = client__pump(b->c, block, spin);
    if (b->c->wbuf.len == 0)
        b->unsent = 0;
    deliver_ready(b);
    return rc < 0 ? fail_all(b, err) : 0;
}

/* After adding a request: send now, or keep it for a bigger write?  It is
 * kept while the daemon still has plenty of this batch's requests to work
 * on, so a burst of adds costs one send(); the next wait for a slot (or
 * finish) flushes it. */
static int should_send(const struct sudoku_batch *b)
{
    uint64_t pending = b->tail - b->head;
    uint64_t on_wire = pending > b->unsent ? pending - b->unsent : 0;
    return on_wire < (b->window + 3) / 4 || b->c->wbuf.len >= BATCH_FLUSH_BYTES;
}

/* Either kind of batch: cb or rate_cb set. */
static int batch_new(struct sudoku_client *c, unsigned window,
                     const struct sudoku_client_options *opts, sudoku_batch_cb cb,
                     sudoku_batch_rate_cb rate_cb, void *arg, struct sudoku_batch **out)
{
    *out = NULL;
    if (!c || (!cb && !rate_cb) || window == 0 || window > SUDOKU_CLIENT_MAX_WINDOW)
        return -EINVAL;
    if (opts && opts->solver && strlen(opts->solver) >= sizeof(((struct sudoku_batch *)0)->solver))
        return -EINVAL;
    struct sudoku_batch *b = calloc(1, sizeof(*b));
    if (!b)
        return -ENOMEM;
    b->slots = calloc(window, sizeof(*b->slots));
    if (!b->slots) {
        free(b);
        return -ENOMEM;
    }
    b->c = c;
    b->window = window;
    b->cb = cb;
    b->rate_cb = rate_cb;
    b->arg = arg;
    if (opts) {
        b->opts = *opts;
        if (opts->solver) {
            memcpy(b->solver, opts->solver, strlen(opts->solver) + 1);
            b->opts.solver = b->solver;
        }
    }
    b->msgid_base = c->next_msgid;
    c->on_response = on_response;
    c->on_response_arg = b;
    *out = b;
    return 0;
}

int sudoku_batch_new(struct sudoku_client *c, unsigned window,
                     const struct sudoku_client_options *opts, sudoku_batch_cb cb, void *arg,
                     struct sudoku_batch **out)
{
    *out = NULL;
    return cb ? batch_new(c, window, opts, cb, NULL, arg, out) : -EINVAL;
}

int sudoku_batch_new_rate(struct sudoku_client *c, unsigned window,
                          const struct sudoku_client_explain_opts *opts, sudoku_batch_rate_cb cb,
                          void *arg, struct sudoku_batch **out)
{
    struct sudoku_client_options o = {0};

    *out = NULL;
    if (opts) {
        o.solver = opts->solver;
        o.timeout_ms = opts->timeout_ms;
    }
    return cb ? batch_new(c, window, &o, NULL, cb, arg, out) : -EINVAL;
}

void sudoku_batch_free(struct sudoku_batch *b)
{
    if (!b)
        return;
    if (b->c->on_response_arg == b) {
        b->c->on_response = NULL;
        b->c->on_response_arg = NULL;
    }
    b->c->next_msgid = b->msgid_base + (uint32_t)b->tail;
    free(b->slots);
    free(b);
}

size_t sudoku_batch_pending(const struct sudoku_batch *b)
{
    return (size_t)(b->tail - b->head);
}

/* Wait until a slot is free.  Returns 0 or the connection's error. */
static int make_room(struct sudoku_batch *b, struct sudoku_client_error *err)
{
    if (b->c->failed)
        return fail_all(b, err);
    while (b->tail - b->head >= b->window) {
        int rc = step(b, 1, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The request for b->tail is in wbuf (pack_rc 0) or failed to encode. */
static int commit(struct sudoku_batch *b, int pack_rc, uint64_t tag,
                  struct sudoku_client_error *err)
{
    if (pack_rc < 0) {
        client__set_error(err, "usage", "cannot encode the puzzle");
        return pack_rc;
    }
    struct batch_slot *s = slot_of(b, b->tail);
    s->tag = tag;
    s->is_done = 0;
    b->tail++;
    b->unsent++;
    /* Queued, so it gets its callback whatever happens next; a connection
     * broken by this send is reported by the next add or finish, after
     * fail_all() has delivered this puzzle too. */
    if (should_send(b))
        step(b, 0, NULL);
    return 0;
}

/* A puzzle refused without asking the daemon still answers in order. */
static int add_local_failure(struct sudoku_batch *b, uint64_t tag, const char *code,
                             const char *message)
{
    struct batch_slot *s = slot_of(b, b->tail);
    struct sudoku_client_error e;
    client__set_error(&e, code, "%s", message);
    set_failed(b, s, &e);
    s->tag = tag;
    s->is_done = 1;
    b->tail++;
    deliver_ready(b);
    return 0;
}

int sudoku_batch_add(struct sudoku_batch *b, const char *puzzle, size_t len, uint64_t tag,
                     struct sudoku_client_error *err)
{
    int rc = make_room(b, err);
    if (rc < 0)
        return rc;
    if (len > MAX_PUZZLE_TEXT)
        return add_local_failure(b, tag, "bad_puzzle",
                                 "puzzle text too long: a puzzle has "
                                 "16, 81, 256 or 625 cells");
    uint32_t msgid = b->msgid_base + (uint32_t)b->tail;
    int pack_rc = b->rate_cb ? wire_pack_rate_str(&b->c->wbuf, msgid, puzzle, len, &b->opts)
                             : wire_pack_solve_str(&b->c->wbuf, msgid, puzzle, len, &b->opts);
    return commit(b, pack_rc, tag, err);
}

int sudoku_batch_add_cells(struct sudoku_batch *b, unsigned n, const uint8_t *cells, uint64_t tag,
                           struct sudoku_client_error *err)
{
    int rc = make_room(b, err);
    if (rc < 0)
        return rc;
    if (n != 4 && n != 9 && n != 16 && n != 25)
        return add_local_failure(b, tag, "bad_puzzle", "a grid has 4, 9, 16 or 25 rows");
    uint32_t msgid = b->msgid_base + (uint32_t)b->tail;
    int pack_rc = b->rate_cb ? wire_pack_rate_cells(&b->c->wbuf, msgid, n, cells, &b->opts)
                             : wire_pack_solve_cells(&b->c->wbuf, msgid, n, cells, &b->opts);
    return commit(b, pack_rc, tag, err);
}

int sudoku_batch_add_failed(struct sudoku_batch *b, uint64_t tag, const char *code,
                            const char *message, struct sudoku_client_error *err)
{
    int rc = make_room(b, err);
    return rc < 0 ? rc : add_local_failure(b, tag, code, message);
}

int sudoku_batch_finish(struct sudoku_batch *b, struct sudoku_client_error *err)
{
    if (b->c->failed)
        return fail_all(b, err);
    while (b->head < b->tail) {
        int rc = step(b, 1, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}
