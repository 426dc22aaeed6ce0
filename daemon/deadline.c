/* deadline.c -- a min-heap of due times (deadline.h). */
#include "daemon/deadline.h"

#include <errno.h>
#include <stdlib.h>

#define HEAP_MIN 64 /* first size of a heap */

void deadline_heap_init(struct deadline_heap *h)
{
    h->v = NULL;
    h->len = h->cap = 0;
}

void deadline_heap_close(struct deadline_heap *h)
{
    free(h->v);
    deadline_heap_init(h);
}

void deadline_node_init(struct deadline_node *n)
{
    n->at = DEADLINE_NONE;
}

static void set(struct deadline_heap *h, size_t i, struct deadline_entry e)
{
    h->v[i] = e;
    e.node->at = i;
}

static void sift_up(struct deadline_heap *h, size_t i)
{
    struct deadline_entry e = h->v[i];

    while (i > 0 && h->v[(i - 1) / 2].due_ns > e.due_ns) {
        set(h, i, h->v[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    set(h, i, e);
}

static void sift_down(struct deadline_heap *h, size_t i)
{
    struct deadline_entry e = h->v[i];

    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= h->len)
            break;
        if (k + 1 < h->len && h->v[k + 1].due_ns < h->v[k].due_ns)
            k++;
        if (h->v[k].due_ns >= e.due_ns)
            break;
        set(h, i, h->v[k]);
        i = k;
    }
    set(h, i, e);
}

int deadline_push(struct deadline_heap *h, struct deadline_node *n, uint64_t due_ns)
{
    if (h->len == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : HEAP_MIN;
        struct deadline_entry *v = realloc(h->v, cap * sizeof(*v));
        if (!v)
            return -ENOMEM;
        h->v = v;
        h->cap = cap;
    }
    h->v[h->len] = (struct deadline_entry){due_ns, n};
    sift_up(h, h->len++);
    return 0;
}

void deadline_remove(struct deadline_heap *h, struct deadline_node *n)
{
    size_t i = n->at;
    struct deadline_entry last;

    if (i == DEADLINE_NONE)
        return;
    n->at = DEADLINE_NONE;
    last = h->v[--h->len];
    if (last.node == n)
        return;
    set(h, i, last);
    sift_down(h, i);
    sift_up(h, last.node->at);
}

struct deadline_node *deadline_first(const struct deadline_heap *h, uint64_t *due_ns)
{
    if (h->len == 0)
        return NULL;
    *due_ns = h->v[0].due_ns;
    return h->v[0].node;
}
