/* ring.h -- the reorder buffer under every pipelined client call.
 *
 * Not installed.  A solving or rating batch (batch.c) and a generate batch
 * (generate.c) all send requests on one connection, get the answers in any
 * order and must hand them to their caller in the order of the adds.  The
 * ring is that machine, written once: sequence numbers, msgids, a window of
 * slots, delivery from the head, and "every add gets exactly one callback"
 * when the connection breaks.  What a slot holds and how an answer is read
 * into it is the owner's, through struct ring_ops.
 *
 * Every added request gets a sequence number seq (0, 1, 2, ...) and the
 * msgid msgid_base + seq (mod 2^32).  Requests [head, tail) are in flight or
 * answered but not yet delivered; tail - head <= window always, so slot
 * seq % window is the whole reorder buffer:
 *
 *     head                      tail
 *      v                         v
 *   .. [ wait | done | wait | done ] ..    deliveries run from head while done
 */
#ifndef SUDOKU_CLIENT_RING_H
#define SUDOKU_CLIENT_RING_H

#include <stddef.h>
#include <stdint.h>

#include "client/client_impl.h"

/* What the owner does with its slots.  Each runs on the caller's thread,
 * from inside a ring_* call. */
struct ring_ops {
    /* The answer m for slot arrived; it is valid only during the call. */
    void (*decode)(void *owner, void *slot, const struct wire_msg *m);
    /* Make slot a failed answer with error e (a broken connection, or a
     * request refused before it was sent). */
    void (*fail)(void *owner, void *slot, const struct sudoku_client_error *e);
    /* Hand the answer in slot, for request seq added with tag, to the
     * caller; the slot is reused afterwards, so release what it owns. */
    void (*deliver)(void *owner, uint64_t seq, uint64_t tag, void *slot);
};

/* Per slot, what the ring itself needs. */
struct ring_hdr {
    uint64_t tag; /* the caller's value */
    int is_done;  /* the slot holds its answer */
};

/* Embedded in its owner; every field is the ring's. */
struct ring {
    struct sudoku_client *c;    /* borrowed */
    const struct ring_ops *ops; /* borrowed, static */
    void *owner;                /* for ops */
    unsigned window;            /* slots, max requests in flight */
    size_t slot_size;           /* bytes of one owner slot */
    unsigned spin_in_flight;    /* spin for answers with at most this many in flight */
    uint64_t head;              /* next seq to deliver */
    uint64_t tail;              /* next seq to add */
    uint64_t unsent;            /* of [head, tail): still in c->wbuf (about) */
    uint32_t msgid_base;        /* msgid of seq 0 */
    struct ring_hdr *hdr;       /* window of them, owned */
    unsigned char *slots;       /* window * slot_size bytes, zeroed, owned */
};

/* Set r up on c and take over c's answers.  spin_in_flight: with at most
 * that many requests in flight, a wait spins first (0: never).  Returns 0,
 * -EINVAL (window 0 or over SUDOKU_CLIENT_MAX_WINDOW) or -ENOMEM. */
int ring_init(struct ring *r, struct sudoku_client *c, unsigned window, size_t slot_size,
              unsigned spin_in_flight, const struct ring_ops *ops, void *owner);
/* Give c's answers back and free the slots (release what they own first,
 * through ring_slot_at).  The next one-shot call on c uses fresh msgids.
 * A zeroed ring is a no-op. */
void ring_fini(struct ring *r);

/* Slot i of the window (0 <= i < window), for releasing at the end. */
void *ring_slot_at(struct ring *r, unsigned i);
/* The msgid of the request that the next ring_push will add. */
uint32_t ring_next_msgid(const struct ring *r);
/* Requests added and not yet delivered. */
size_t ring_pending(const struct ring *r);

/* Wait until a slot is free.  Returns 0, or the connection's negative
 * errno after every request left was delivered as failed (err set). */
int ring_make_room(struct ring *r, struct sudoku_client_error *err);
/* The request for ring_next_msgid() is in c->wbuf: give it the next slot,
 * with tag.  Call ring_make_room first.  Returns the owner's slot. */
void *ring_push(struct ring *r, uint64_t tag);
/* Add a request that fails without being sent (error e), in order.  Call
 * ring_make_room first. */
void ring_push_failed(struct ring *r, uint64_t tag, const struct sudoku_client_error *e);
/* Send what waits and read what came: block waits up to the I/O timeout,
 * else not at all; then deliver.  Returns 0, or the connection's negative
 * errno after everything left was delivered as failed (err set). */
int ring_step(struct ring *r, int block, struct sudoku_client_error *err);
/* Send now, or keep the added requests for one bigger write?  True while
 * the daemon holds few of this ring's requests, or much is waiting. */
int ring_should_send(const struct ring *r);
/* Wait until every request was delivered.  Returns 0 or as ring_step. */
int ring_finish(struct ring *r, struct sudoku_client_error *err);

#endif /* SUDOKU_CLIENT_RING_H */
