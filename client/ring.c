/* ring.c -- the reorder buffer under every pipelined client call.
 *
 * See ring.h for the picture.  The daemon answers out of order; a slot
 * fills when its answer arrives (ops->decode) and is delivered
 * (ops->deliver) once every earlier request has been.  Memory is window
 * slots however long the input.  When the connection breaks, every
 * undelivered request is made failed (ops->fail) with the connection's
 * error and delivered, so each added request gets exactly one delivery.
 *
 * Requests are not sent one syscall each when the owner asks so
 * (ring_should_send): an added request waits in the write buffer while the
 * daemon still holds plenty of this ring's requests, and goes out with the
 * others on the next wait for a slot.
 */
#include <errno.h>
#include <stdlib.h>

#include "client/ring.h"

#define RING_FLUSH_BYTES 16384 /* unsent request bytes that are sent without waiting */

static struct ring_hdr *hdr_of(struct ring *r, uint64_t seq)
{
    return &r->hdr[seq % r->window];
}

static void *slot_of(struct ring *r, uint64_t seq)
{
    return r->slots + (size_t)(seq % r->window) * r->slot_size;
}

static void on_response(void *arg, const struct wire_msg *m)
{
    struct ring *r = arg;
    uint64_t seq = r->head + (uint32_t)(m->msgid - (uint32_t)(r->msgid_base + r->head));
    if (seq >= r->tail)
        return; /* not ours: a stale answer from an earlier call */
    struct ring_hdr *h = hdr_of(r, seq);
    if (h->is_done)
        return; /* a duplicate answer; the first one stands */
    r->ops->decode(r->owner, slot_of(r, seq), m);
    h->is_done = 1;
}

/* Deliver every answered request at the front. */
static void deliver_ready(struct ring *r)
{
    while (r->head < r->tail && hdr_of(r, r->head)->is_done) {
        struct ring_hdr *h = hdr_of(r, r->head);
        r->ops->deliver(r->owner, r->head, h->tag, slot_of(r, r->head));
        h->is_done = 0;
        r->head++;
    }
}

/* The connection broke: deliver everything left as failed with its error. */
static int fail_all(struct ring *r, struct sudoku_client_error *err)
{
    for (uint64_t seq = r->head; seq < r->tail; seq++) {
        struct ring_hdr *h = hdr_of(r, seq);
        if (!h->is_done) {
            r->ops->fail(r->owner, slot_of(r, seq), &r->c->fail_error);
            h->is_done = 1;
        }
    }
    deliver_ready(r);
    if (err)
        *err = r->c->fail_error;
    return r->c->failed;
}

int ring_init(struct ring *r, struct sudoku_client *c, unsigned window, size_t slot_size,
              unsigned spin_in_flight, const struct ring_ops *ops, void *owner)
{
    *r = (struct ring){0};
    if (window == 0 || window > SUDOKU_CLIENT_MAX_WINDOW)
        return -EINVAL;
    r->hdr = calloc(window, sizeof(*r->hdr));
    r->slots = calloc(window, slot_size);
    if (!r->hdr || !r->slots) {
        free(r->hdr);
        free(r->slots);
        *r = (struct ring){0};
        return -ENOMEM;
    }
    r->c = c;
    r->ops = ops;
    r->owner = owner;
    r->window = window;
    r->slot_size = slot_size;
    r->spin_in_flight = spin_in_flight;
    r->msgid_base = c->next_msgid;
    c->on_response = on_response;
    c->on_response_arg = r;
    return 0;
}

void ring_fini(struct ring *r)
{
    if (!r->c)
        return;
    if (r->c->on_response_arg == r) {
        r->c->on_response = NULL;
        r->c->on_response_arg = NULL;
    }
    r->c->next_msgid = r->msgid_base + (uint32_t)r->tail;
    free(r->hdr);
    free(r->slots);
    *r = (struct ring){0};
}

void *ring_slot_at(struct ring *r, unsigned i)
{
    return r->slots + (size_t)i * r->slot_size;
}

uint32_t ring_next_msgid(const struct ring *r)
{
    return r->msgid_base + (uint32_t)r->tail;
}

size_t ring_pending(const struct ring *r)
{
    return (size_t)(r->tail - r->head);
}

int ring_step(struct ring *r, int block, struct sudoku_client_error *err)
{
    /* With almost nothing in flight the answer is due within microseconds. */
    uint64_t pending = r->tail - r->head;
    unsigned spin = r->spin_in_flight && pending <= r->spin_in_flight ? CLIENT_SPIN_US : 0;
    int rc = client__pump(r->c, block, spin);
    if (r->c->wbuf.len == 0)
        r->unsent = 0;
    deliver_ready(r);
    return rc < 0 ? fail_all(r, err) : 0;
}

int ring_make_room(struct ring *r, struct sudoku_client_error *err)
{
    if (r->c->failed)
        return fail_all(r, err);
    while (r->tail - r->head >= r->window) {
        int rc = ring_step(r, 1, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

void *ring_push(struct ring *r, uint64_t tag)
{
    struct ring_hdr *h = hdr_of(r, r->tail);
    void *slot = slot_of(r, r->tail);
    h->tag = tag;
    h->is_done = 0;
    r->tail++;
    r->unsent++;
    return slot;
}

void ring_push_failed(struct ring *r, uint64_t tag, const struct sudoku_client_error *e)
{
    struct ring_hdr *h = hdr_of(r, r->tail);
    r->ops->fail(r->owner, slot_of(r, r->tail), e);
    h->tag = tag;
    h->is_done = 1;
    r->tail++;
    deliver_ready(r);
}

int ring_should_send(const struct ring *r)
{
    uint64_t pending = r->tail - r->head;
    uint64_t on_wire = pending > r->unsent ? pending - r->unsent : 0;
    return on_wire < (r->window + 3) / 4 || r->c->wbuf.len >= RING_FLUSH_BYTES;
}

int ring_finish(struct ring *r, struct sudoku_client_error *err)
{
    if (r->c->failed)
        return fail_all(r, err);
    while (r->head < r->tail) {
        int rc = ring_step(r, 1, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}
