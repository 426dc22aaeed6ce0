/* test_list.c -- daemon/list.h, the daemon's one linked list.
 *
 * Each operation is checked by walking the list both ways against the order
 * it should hold, so a broken prev link fails as surely as a broken next.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "daemon/list.h"

struct item {
    int value;        /* what the walks compare */
    struct list link; /* not first, so LIST_CONTAINER_OF must subtract */
};

/* Assert head holds exactly want[0..len) in order, forwards and backwards. */
static void assert_order(const struct list *head, const int *want, int len)
{
    const struct list *l;
    int i = 0;

    for (l = head->next; l != head; l = l->next, i++) {
        assert_true(i < len);
        assert_int_equal(LIST_CONTAINER_OF(l, struct item, link)->value, want[i]);
        assert_ptr_equal(l->next->prev, l);
    }
    assert_int_equal(i, len);
    for (l = head->prev; l != head; l = l->prev)
        assert_int_equal(LIST_CONTAINER_OF(l, struct item, link)->value, want[--i]);
    assert_int_equal(i, 0);
    assert_int_equal(list_empty(head), len == 0);
}

static void test_insert_and_remove(void **state)
{
    struct list head;
    struct item it[4] = {{.value = 0}, {.value = 1}, {.value = 2}, {.value = 3}};
    (void)state;

    list_init(&head);
    assert_order(&head, NULL, 0);
    list_insert_tail(&head, &it[1].link);
    list_insert_tail(&head, &it[2].link);
    list_insert_head(&head, &it[0].link);
    list_insert_tail(&head, &it[3].link);
    assert_order(&head, (const int[]){0, 1, 2, 3}, 4);
    list_remove(&it[2].link); /* middle */
    assert_true(list_empty(&it[2].link));
    assert_order(&head, (const int[]){0, 1, 3}, 3);
    list_remove(&it[0].link); /* first */
    list_remove(&it[3].link); /* last */
    assert_order(&head, (const int[]){1}, 1);
    assert_false(list_empty(&it[1].link));
    list_remove(&it[1].link);
    assert_order(&head, NULL, 0);
}

static void test_splice_tail(void **state)
{
    struct list a, b;
    struct item it[5] = {{.value = 0}, {.value = 1}, {.value = 2}, {.value = 3}, {.value = 4}};
    (void)state;

    list_init(&a);
    list_init(&b);
    list_splice_tail(&a, &b); /* empty into empty */
    assert_order(&a, NULL, 0);
    list_insert_tail(&b, &it[0].link);
    list_insert_tail(&b, &it[1].link);
    list_splice_tail(&a, &b); /* into empty */
    assert_order(&a, (const int[]){0, 1}, 2);
    assert_order(&b, NULL, 0);
    for (int i = 2; i < 5; i++)
        list_insert_tail(&b, &it[i].link);
    list_splice_tail(&a, &b); /* onto a non-empty list */
    assert_order(&a, (const int[]){0, 1, 2, 3, 4}, 5);
    assert_order(&b, NULL, 0);
    list_splice_tail(&a, &b); /* nothing to move */
    assert_order(&a, (const int[]){0, 1, 2, 3, 4}, 5);
}

/* The walk survives removing the member in hand, wherever it is. */
static void test_foreach_safe_remove(void **state)
{
    struct list head, *l, *tmp;
    struct item it[6];
    int seen = 0;
    (void)state;

    list_init(&head);
    for (int i = 0; i < 6; i++) {
        it[i].value = i;
        list_insert_tail(&head, &it[i].link);
    }
    LIST_FOREACH_SAFE(l, tmp, &head)
    {
        struct item *x = LIST_CONTAINER_OF(l, struct item, link);
        assert_int_equal(x->value, seen++);
        if (x->value % 2 == 0 || x->value == 5)
            list_remove(l);
    }
    assert_int_equal(seen, 6);
    assert_order(&head, (const int[]){1, 3}, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_and_remove),   /* both ends and the middle */
        cmocka_unit_test(test_splice_tail),         /* empty and non-empty both sides */
        cmocka_unit_test(test_foreach_safe_remove), /* removal during the walk */
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
