/* deadline.h -- a min-heap of due times, for the daemon's one deadline timer.
 *
 * Each job handed to the pool sits in the heap by the time it is due (its
 * deadline, or when its worker counts as stuck), and one loop timer is
 * armed for the earliest (dispatch.c).  The heap keeps each due time next
 * to its node's pointer, so that sifting compares keys in one array instead
 * of reading a job (over a kilobyte, most likely out of cache) at every
 * step; a node knows its index, so it leaves the heap in O(log n).  Loop
 * thread only.
 */
#ifndef SUDOKUD_DEADLINE_H
#define SUDOKUD_DEADLINE_H

#include <stddef.h>
#include <stdint.h>

#define DEADLINE_NONE SIZE_MAX /* a node's index when it is in no heap */

/* What a job embeds to sit in a heap. */
struct deadline_node {
    size_t at; /* index in the heap, or DEADLINE_NONE */
};

/* One node in the heap, with its key. */
struct deadline_entry {
    uint64_t due_ns;            /* when the node is due */
    struct deadline_node *node; /* whose */
};

struct deadline_heap {
    struct deadline_entry *v; /* min-heap by due_ns, malloc'd */
    size_t len;               /* entries in v */
    size_t cap;               /* room in v */
};

/* An empty heap; free it with deadline_heap_close(). */
void deadline_heap_init(struct deadline_heap *h);
void deadline_heap_close(struct deadline_heap *h);

/* A node in no heap. */
void deadline_node_init(struct deadline_node *n);

/* Add n, due at due_ns.  Returns 0 or -ENOMEM (not added). */
int deadline_push(struct deadline_heap *h, struct deadline_node *n, uint64_t due_ns);

/* Take n out of h; nothing when it is in no heap. */
void deadline_remove(struct deadline_heap *h, struct deadline_node *n);

/* The earliest node, its due time in *due_ns; NULL when h is empty. */
struct deadline_node *deadline_first(const struct deadline_heap *h, uint64_t *due_ns);

#endif /* SUDOKUD_DEADLINE_H */
