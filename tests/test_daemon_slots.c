/* test_daemon_slots.c -- connection slots and an orderly SIGTERM, against the real daemon.
 *
 * SIGTERM under load: every request a client pipelined gets exactly one
 * answer (a checked solution or `overloaded`), and the client then reads an
 * orderly end of stream, never ECONNRESET.  The reads here tell EOF from a
 * reset, which the harness's dh_read() does not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon_harness.h"

#define PIPELINED 300 /* requests sent at once before SIGTERM */

static char *puzzles[200];
static int puzzles_len;
static const char endless[] = DH_ENDLESS; /* by address: which requests are endless */

static int setup(void **state)
{
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_17clue.txt", puzzles, 200);
    return puzzles_len < 100 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    dh_free_lines(puzzles, puzzles_len);
    return 0;
}

/* Next object from r into *out within timeout_ms.  Returns 0, -EPIPE at an
 * orderly end of stream, -ECONNRESET (or another -errno) when recv failed,
 * -ETIMEDOUT, or -EBADMSG. */
static int read_obj(struct dh_reader *r, msgpack_unpacked *out, int timeout_ms)
{
    uint64_t end = dh_now_ms() + (uint64_t)timeout_ms;

    for (;;) {
        msgpack_unpack_return ret = msgpack_unpacker_next(&r->up, out);
        struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
        uint64_t now = dh_now_ms();
        ssize_t n;

        if (ret == MSGPACK_UNPACK_SUCCESS)
            return 0;
        if (ret < 0)
            return -EBADMSG;
        if (now >= end)
            return -ETIMEDOUT;
        if (poll(&pfd, 1, (int)(end - now)) <= 0)
            continue;
        if (!msgpack_unpacker_reserve_buffer(&r->up, 65536))
            return -ENOMEM;
        n = recv(r->fd, msgpack_unpacker_buffer(&r->up), 65536, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return -EPIPE;
        msgpack_unpacker_buffer_consumed(&r->up, (size_t)n);
    }
}

/* One response: a solution checked against its puzzle, `timeout` for an
 * endless search, or `overloaded` for either.  Counts it in seen[msgid - 1]. */
static void check_answer(const msgpack_object *o, const char *const *asked, int *seen)
{
    const msgpack_object *result;
    uint32_t id = 0;
    char code[32];

    assert_true(dh_is_response(o, &id));
    assert_in_range(id, 1, PIPELINED);
    result = dh_result(o);
    if (result) {
        assert_int_equal(dh_check_solved(result, asked[id - 1]), 0);
    } else {
        assert_non_null(dh_error_code(o, code, sizeof(code)));
        if (strcmp(code, "overloaded") != 0) {
            assert_string_equal(code, "timeout");
            assert_ptr_equal(asked[id - 1], endless);
        }
    }
    seen[id - 1]++;
}

/* 1 when o is the error `overloaded`. */
static int is_overloaded(const msgpack_object *o)
{
    char code[32];

    return dh_result(o) == NULL && dh_error_code(o, code, sizeof(code)) &&
           strcmp(code, "overloaded") == 0;
}

/* SIGTERM while a client has PIPELINED requests sent and most not read yet
 * (one worker, a grace of 100 ms, every fourth an endless search with a
 * deadline of 5 s, so that most wait when the grace ends): every request
 * is answered once (solved, `timeout` for the endless ones, or `overloaded`)
 * and the stream then ends in EOF.
 * Before, reading stopped at the end of the grace and the daemon closed
 * with requests unread in its socket: those got no answer and the client
 * ECONNRESET. */
static void test_sigterm_answers_every_request(void **state)
{
    static const char *const args[] = {"-j", "1", "--grace-ms", "100", NULL};
    const char *asked[PIPELINED];
    int seen[PIPELINED] = {0};
    struct dh d;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int rc, answered = 0, refused = 0;
    (void)state;

    assert_int_equal(dh_start(&d, args), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (uint32_t i = 1; i <= PIPELINED; i++) {
        /* Every fourth a search that only its deadline ends: that is
         * what keeps the rest waiting; the others are real puzzles. */
        int is_long = i % 4 == 0;
        asked[i - 1] = is_long ? endless : puzzles[i % puzzles_len];
        dh_pack_solve(&sb, i, asked[i - 1], is_long ? "dfs" : NULL, is_long ? DH_ENDLESS_LIMIT : 0,
                      is_long ? 5000 : 0);
    }
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    assert_int_equal(read_obj(&r, &u, DH_TIMEOUT_MS), 0); /* it is at work */
    check_answer(&u.data, asked, seen);
    answered = 1;
    refused = is_overloaded(&u.data);
    assert_int_equal(kill(d.pid, SIGTERM), 0);
    while ((rc = read_obj(&r, &u, DH_TIMEOUT_MS)) == 0) {
        answered++;
        check_answer(&u.data, asked, seen);
        refused += is_overloaded(&u.data);
    }
    assert_int_equal(rc, -EPIPE); /* end of stream, not -ECONNRESET nor a timeout */
    for (int i = 0; i < PIPELINED; i++)
        assert_int_equal(seen[i], 1);
    assert_int_equal(answered, PIPELINED);
    assert_true(refused > 0); /* the grace did end with work left */
    print_message("%d answered, %d of them overloaded\n", answered, refused);
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    dh_reader_close(&r);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_cleanup(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigterm_answers_every_request),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, setup, teardown);
}
