/* test_client_batch.c -- the pipelined batch against a scripted fake daemon.
 *
 * A thread plays the daemon on one end of a socketpair: it collects requests
 * and answers each group in reverse order, so the client must reorder.  It
 * records how many requests were ever outstanding at once, which must reach
 * but never exceed the window.  Other scripts drop the connection, send a
 * hostile header or an error notification.  No real daemon needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client_impl.h"
#include "tests/fake_peer.h"

#define SOLUTION4 "1234341221434321"

/* What the fake daemon does. */
enum script {
    SCRIPT_REVERSE,    /* answer every group of pending requests in reverse */
    SCRIPT_DROP_AFTER, /* answer `drop_after` requests, then close */
    SCRIPT_HOSTILE,    /* answer with an array32 of 4 billion elements */
    SCRIPT_NOTIFY      /* send an error notification and close */
};

struct fake {
    int fd;
    enum script script;
    unsigned drop_after;
    unsigned group;       /* answer as soon as this many are pending (0: when quiet) */
    unsigned max_pending; /* most requests read and not yet answered */
    unsigned answered;
    uint32_t pending[SUDOKU_CLIENT_MAX_WINDOW * 2];
    unsigned pending_len;
};

static void answer(struct fake *f, uint32_t msgid)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    fake_peer_pack_solved(&pk, msgid, SOLUTION4);
    fake_peer_send_all(f->fd, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    f->answered++;
}

/* Answer everything pending, last first.  Returns 0 to go on, -1 to stop. */
static int flush_pending(struct fake *f)
{
    while (f->pending_len > 0) {
        if (f->script == SCRIPT_DROP_AFTER && f->answered >= f->drop_after)
            return -1;
        answer(f, f->pending[--f->pending_len]);
    }
    return 0;
}

static int take_request(struct fake *f, const uint8_t *p, size_t len)
{
    msgpack_zone zone;
    msgpack_object o;
    size_t off = 0;
    msgpack_zone_init(&zone, 1024);
    int ok = msgpack_unpack((const char *)p, len, &off, &zone, &o) == MSGPACK_UNPACK_SUCCESS &&
             o.type == MSGPACK_OBJECT_ARRAY && o.via.array.size == 4;
    if (ok)
        f->pending[f->pending_len++] = (uint32_t)o.via.array.ptr[1].via.u64;
    msgpack_zone_destroy(&zone);
    if (f->pending_len > f->max_pending)
        f->max_pending = f->pending_len;
    if (ok && f->group && f->pending_len >= f->group)
        return flush_pending(f);
    return ok ? 0 : -1;
}

static void scripted_misbehaviour(struct fake *f)
{
    if (f->script == SCRIPT_HOSTILE) {
        static const uint8_t hdr[] = {0xdd, 0xff, 0xff, 0xff, 0xf0, 0x01};
        fake_peer_send_all(f->fd, hdr, sizeof(hdr));
    } else {
        static const uint8_t note[] = {0x93, 0x02, 0xa5, 'e',  'r', 'r',  'o', 'r', 0x91, 0x82,
                                       0xa4, 'c',  'o',  'd',  'e', 0xa9, 't', 'o', 'o',  '_',
                                       'l',  'a',  'r',  'g',  'e', 0xa7, 'm', 'e', 's',  's',
                                       'a',  'g',  'e',  0xa3, 'b', 'i',  'g'};
        fake_peer_send_all(f->fd, note, sizeof(note));
    }
}

static int on_request(void *arg, const uint8_t *p, size_t len)
{
    return take_request(arg, p, len);
}

/* a quiet moment means the client waits: answer what we hold */
static int on_quiet(void *arg)
{
    return flush_pending(arg);
}

/* The misbehaving scripts do their deed after the first read. */
static int on_read(void *arg)
{
    struct fake *f = arg;
    if (f->script == SCRIPT_HOSTILE || f->script == SCRIPT_NOTIFY) {
        scripted_misbehaviour(f);
        return -1;
    }
    return 0;
}

static void *fake_main(void *arg)
{
    static const struct fake_peer_ops ops = {on_request, on_quiet, on_read};
    struct fake *f = arg;
    fake_peer_serve(f->fd, &ops, f);
    return NULL;
}

/* Start a fake daemon; returns the client end. */
static struct sudoku_client *start_fake(struct fake *f, pthread_t *th, enum script script)
{
    memset(f, 0, sizeof(*f));
    f->script = script;
    struct sudoku_client *c = fake_peer_client(&f->fd);
    assert_int_equal(pthread_create(th, NULL, fake_main, f), 0);
    return c;
}

/* What the callback saw. */
struct seen {
    uint64_t calls;
    uint64_t solved;
    uint64_t failed;
    int is_out_of_order;
    char last_code[SUDOKU_CLIENT_CODE_SIZE];
};

static void on_result(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_result *res)
{
    struct seen *s = arg;
    if (seq != s->calls || tag != seq * 3)
        s->is_out_of_order = 1;
    s->calls++;
    if (res->status == SUDOKU_CLIENT_SOLVED && strcmp(res->solution, SOLUTION4) == 0)
        s->solved++;
    if (res->status == SUDOKU_CLIENT_FAILED) {
        s->failed++;
        memcpy(s->last_code, res->error.code, sizeof(s->last_code));
    }
}

/* Windows to try, each with enough puzzles to wrap the ring many times. */
static const struct {
    unsigned window;
    unsigned puzzles;
} reorder_cases[] = {
    {1, 50},    /* no pipelining: one at a time */
    {16, 2000}, /* a small window, many wraps */
    {64, 5000}, /* the tool's default */
};

static void test_reorder_and_window(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(reorder_cases) / sizeof(reorder_cases[0]); i++) {
        struct fake f;
        pthread_t th;
        struct seen s = {0};
        struct sudoku_batch *b = NULL;
        struct sudoku_client *c = start_fake(&f, &th, SCRIPT_REVERSE);
        unsigned w = reorder_cases[i].window;
        f.group = w;
        assert_int_equal(sudoku_batch_new(c, w, NULL, on_result, &s, &b), 0);
        for (unsigned k = 0; k < reorder_cases[i].puzzles; k++)
            assert_int_equal(
                sudoku_batch_add(b, "1..4..1..1..4..1", 16, (uint64_t)(uint64_t)k * 3, NULL), 0);
        assert_int_equal(sudoku_batch_finish(b, NULL), 0);
        assert_int_equal(sudoku_batch_pending(b), 0);
        sudoku_batch_free(b);
        sudoku_client_free(c);
        pthread_join(th, NULL);
        assert_int_equal(s.calls, reorder_cases[i].puzzles);
        assert_int_equal(s.solved, reorder_cases[i].puzzles);
        assert_false(s.is_out_of_order);
        assert_true(f.max_pending <= w);
        assert_int_equal(f.max_pending, w); /* the window was really used */
    }
}

static void test_local_failure_keeps_order(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct seen s = {0};
    struct sudoku_batch *b = NULL;
    struct sudoku_client *c = start_fake(&f, &th, SCRIPT_REVERSE);
    char longtext[5000];
    memset(longtext, '.', sizeof(longtext));
    assert_int_equal(sudoku_batch_new(c, 8, NULL, on_result, &s, &b), 0);
    for (unsigned k = 0; k < 30; k++) {
        int rc = k == 7
                     ? sudoku_batch_add_failed(b, (uint64_t)k * 3, "bad_puzzle", "unreadable", NULL)
                 : k == 11 ? sudoku_batch_add(b, longtext, sizeof(longtext), (uint64_t)k * 3, NULL)
                           : sudoku_batch_add(b, "1..4..1..1..4..1", 16, (uint64_t)k * 3, NULL);
        assert_int_equal(rc, 0);
    }
    assert_int_equal(sudoku_batch_finish(b, NULL), 0);
    sudoku_batch_free(b);
    sudoku_client_free(c);
    pthread_join(th, NULL);
    assert_int_equal(s.calls, 30);
    assert_int_equal(s.failed, 2);
    assert_false(s.is_out_of_order);
    assert_string_equal(s.last_code, "bad_puzzle");
}

static void test_drop_fails_rest_once(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct seen s = {0};
    struct sudoku_batch *b = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, &th, SCRIPT_DROP_AFTER);
    f.drop_after = 10;
    assert_int_equal(sudoku_batch_new(c, 4, NULL, on_result, &s, &b), 0);
    uint64_t added = 0;
    int rc = 0;
    while (added < 1000 && (rc = sudoku_batch_add(b, SOLUTION4, 16, added * 3, &err)) == 0)
        added++;
    if (rc == 0)
        rc = sudoku_batch_finish(b, &err);
    assert_true(rc < 0);
    assert_string_equal(err.code, "closed");
    assert_int_equal(s.calls, added); /* every added puzzle answered exactly once */
    assert_int_equal(s.solved, 10);
    assert_int_equal(s.failed, added - 10);
    assert_false(s.is_out_of_order);
    sudoku_batch_free(b);
    sudoku_client_free(c);
    pthread_join(th, NULL);
}

static void test_hostile_header(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, &th, SCRIPT_HOSTILE);
    /* array32 of ~4 billion: refused by size before anything allocates */
    assert_true(sudoku_client_ping(c, NULL, &err) < 0);
    assert_string_equal(err.code, "protocol");
    sudoku_client_free(c);
    pthread_join(th, NULL);
}

static void test_error_notification(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_client_error err;
    struct sudoku_client_result res;
    struct sudoku_client *c = start_fake(&f, &th, SCRIPT_NOTIFY);
    assert_true(sudoku_client_solve(c, SOLUTION4, 16, NULL, &res) < 0);
    assert_int_equal(res.status, SUDOKU_CLIENT_FAILED);
    assert_string_equal(res.error.code, "too_large");
    /* the connection stays broken with the first reason */
    assert_true(sudoku_client_ping(c, NULL, &err) < 0);
    assert_string_equal(err.code, "too_large");
    sudoku_client_free(c);
    pthread_join(th, NULL);
}

static void test_batch_bad_args(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_batch *b = NULL;
    struct seen s = {0};
    struct sudoku_client *c = start_fake(&f, &th, SCRIPT_REVERSE);
    assert_int_equal(sudoku_batch_new(c, 0, NULL, on_result, &s, &b), -EINVAL);
    assert_int_equal(sudoku_batch_new(c, SUDOKU_CLIENT_MAX_WINDOW + 1, NULL, on_result, &s, &b),
                     -EINVAL);
    assert_int_equal(sudoku_batch_new(c, 4, NULL, NULL, &s, &b), -EINVAL);
    assert_null(b);
    sudoku_client_free(c);
    pthread_join(th, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reorder_and_window),
        cmocka_unit_test(test_local_failure_keeps_order),
        cmocka_unit_test(test_drop_fails_rest_once),
        cmocka_unit_test(test_hostile_header),
        cmocka_unit_test(test_error_notification),
        cmocka_unit_test(test_batch_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
