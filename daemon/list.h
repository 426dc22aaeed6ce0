/* list.h -- an intrusive circular doubly linked list.
 *
 * A struct list is both the head of a list and the link a member embeds.
 * An empty head, and a link on no list, point at themselves, so inserting
 * and removing never test for the ends and list_empty() on a member's link
 * tells whether it is on a list:
 *
 *   head <-> a.link <-> b.link <-> c.link <-> (head)
 *
 * LIST_CONTAINER_OF() goes back from a link to the struct that embeds it.
 * Nothing here allocates or locks: whoever owns a list says who may touch
 * it.  A link must be list_init()ed (or inserted) before list_remove() or
 * list_empty() looks at it.
 */
#ifndef SUDOKUD_LIST_H
#define SUDOKUD_LIST_H

#include <stddef.h>

struct list {
    struct list *prev, *next; /* neighbours; both the list itself when alone */
};

/* The struct of type that embeds the link ptr as member. */
#define LIST_CONTAINER_OF(ptr, type, member)                                                       \
    ((type *)(void *)((char *)(ptr)-offsetof(type, member)))

/* Walk head with pos; the body may list_remove(pos) (only pos). */
#define LIST_FOREACH_SAFE(pos, tmp, head)                                                          \
    for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head);                               \
         (pos) = (tmp), (tmp) = (pos)->next)

/* An empty list, or a link on no list. */
static inline void list_init(struct list *l)
{
    l->prev = l->next = l;
}

/* 1 when head has no member (or the link l is on no list). */
static inline int list_empty(const struct list *l)
{
    return l->next == l;
}

/* Link n in front of at (at the end when at is the head). */
static inline void list_insert_before(struct list *at, struct list *n)
{
    n->next = at;
    n->prev = at->prev;
    at->prev->next = n;
    at->prev = n;
}

/* Append n to head. */
static inline void list_insert_tail(struct list *head, struct list *n)
{
    list_insert_before(head, n);
}

/* Prepend n to head. */
static inline void list_insert_head(struct list *head, struct list *n)
{
    list_insert_before(head->next, n);
}

/* Unlink n from its list; n is left on no list. */
static inline void list_remove(struct list *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    list_init(n);
}

/* Move every member of src, in order, to the end of dst; src is left empty. */
static inline void list_splice_tail(struct list *dst, struct list *src)
{
    if (list_empty(src))
        return;
    src->next->prev = dst->prev;
    dst->prev->next = src->next;
    src->prev->next = dst;
    dst->prev = src->prev;
    list_init(src);
}

#endif /* SUDOKUD_LIST_H */
