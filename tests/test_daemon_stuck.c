/* test_daemon_stuck.c -- sudokud with a plugin that never returns.
 *
 * spin9 (tests/plugins/spin9.c) ignores its cancel flag and its deadline and
 * spins.  Each test starts its own daemon with it in process (--plugin,
 * --isolate none) and checks that
 * the daemon keeps every promise all the same:
 *
 *   timeout    a solve with timeout_ms is answered `timeout` (the plugin
 *              never returned), also with the inline fast path on
 *   cancel     a `cancel` notification answers `cancelled` at once
 *   ping       ping answers on another connection while the plugin spins
 *   stuck      stats counts the stuck worker (stuck_workers >= 1), and with
 *              one worker, other clients' bitmask solves are still answered
 *              (the stuck thread was replaced)
 *   sigterm    SIGTERM with a stuck worker exits, within a generous bound
 *   twice      a second SIGTERM during the grace exits at once
 *   sighup     SIGHUP is logged and ignored
 *
 * Bounds on time are generous (CI has two busy cores, sanitizer builds are
 * slow): each only separates "answered" from "never".  The measured times
 * are printed for the figures in docs/reliability.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon_harness.h"

#define SPIN_PLUGIN SUDOKU_SPIN_PLUGIN
#define BOUND_MS    10000 /* "answered", as opposed to "never" */

static char *puzzles[8];
static int puzzles_len;
static struct dh sd; /* this test's daemon */

static int setup(void **state)
{
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_17clue.txt", puzzles, 8);
    return puzzles_len == 8 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    dh_free_lines(puzzles, puzzles_len);
    return 0;
}

/* Also after a failed assertion: no daemon (or spinning thread) outlives its
 * test. */
static int stop_daemon(void **state)
{
    (void)state;
    dh_cleanup(&sd);
    return 0;
}

/* Start a daemon with spin9 and the extra arguments (at most 8).  spin9
 * runs in the daemon's own process (--isolate none), on a worker thread
 * it never gives back: what this file tests.  In a worker process it is
 * killed at its deadline instead (test_daemon_isolate). */
static void start(struct dh *d, const char *const *extra)
{
    const char *argv[16] = {"--plugin", SPIN_PLUGIN, "--isolate", "none"};
    size_t n = 4;

    for (size_t i = 0; extra && extra[i] && n < 15; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    assert_int_equal(dh_start(d, argv), 0);
}

static void send_solve(int fd, uint32_t msgid, const char *solver, uint64_t timeout_ms)
{
    msgpack_sbuffer sb;

    msgpack_sbuffer_init(&sb);
    dh_pack_solve(&sb, msgid, puzzles[0], solver, 0, timeout_ms);
    assert_int_equal(dh_send(fd, sb.data, sb.size), 0);
    msgpack_sbuffer_destroy(&sb);
}

/* Read until the response to msgid; assert its error code. */
static void expect_error(struct dh_reader *r, uint32_t msgid, const char *code, int timeout_ms)
{
    msgpack_unpacked u;
    uint32_t id = 0;
    char buf[32];
    const char *got;

    msgpack_unpacked_init(&u);
    for (;;) {
        assert_int_equal(dh_read(r, &u, timeout_ms), 0);
        if (dh_is_response(&u.data, &id) && id == msgid)
            break;
    }
    got = dh_error_code(&u.data, buf, sizeof(buf));
    assert_non_null(got);
    assert_string_equal(got, code);
    msgpack_unpacked_destroy(&u);
}

static uint64_t stats_uint(const char *sock, const char *key)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *v;
    uint64_t value = 0;
    int fd = dh_connect(sock);

    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 1, "stats");
    assert_int_equal(dh_call(&r, &sb, 1, &u), 0);
    v = dh_map_get(dh_result(&u.data), key);
    assert_non_null(v);
    assert_int_equal(v->type, MSGPACK_OBJECT_POSITIVE_INTEGER);
    value = v->via.u64;
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    return value;
}

/* Wait until stats shows a stuck worker; returns the ms it took. */
static uint64_t wait_stuck(const char *sock)
{
    uint64_t t0 = dh_now_ms();

    while (stats_uint(sock, "stuck_workers") == 0) {
        assert_true(dh_now_ms() - t0 < BOUND_MS);
        usleep(20000);
    }
    return dh_now_ms() - t0;
}

/* The plugin never returns: the host answers `timeout` itself.  The inline
 * fast path is on, with its largest budget, and every worker idle, so this
 * also checks that spin9 (no SDK_CAP_PROMPT) is never tried on the loop
 * (else no answer, and no ping, would ever come). */
static void test_timeout(void **state)
{
    struct dh_reader r;
    uint64_t t0, took;

    (void)state;
    start(&sd, (const char *const[]){"-j", "2", "--inline-us", "1000", NULL});
    dh_reader_init(&r, dh_connect(sd.sock));
    t0 = dh_now_ms();
    send_solve(r.fd, 7, "spin9", 300);
    expect_error(&r, 7, "timeout", BOUND_MS);
    took = dh_now_ms() - t0;
    print_message("timeout_ms 300 answered `timeout` after %llu ms\n", (unsigned long long)took);
    assert_true(took >= 250);
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    dh_reader_close(&r);
}

/* cancel answers `cancelled` at once, though the plugin never looks at it. */
static void test_cancel(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    uint64_t t0;

    (void)state;
    start(&sd, (const char *const[]){"-j", "2", NULL});
    dh_reader_init(&r, dh_connect(sd.sock));
    send_solve(r.fd, 3, "spin9", 60000);
    usleep(200000); /* let a worker take it */
    msgpack_sbuffer_init(&sb);
    dh_pack_cancel(&sb, 3);
    t0 = dh_now_ms();
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    expect_error(&r, 3, "cancelled", BOUND_MS);
    print_message("cancel answered after %llu ms\n", (unsigned long long)(dh_now_ms() - t0));
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
}

/* ping keeps answering while the plugin spins on a worker. */
static void test_ping_while_spinning(void **state)
{
    struct dh_reader r;
    uint64_t worst = 0, total = 0;

    (void)state;
    start(&sd, (const char *const[]){"-j", "2", NULL});
    dh_reader_init(&r, dh_connect(sd.sock));
    send_solve(r.fd, 1, "spin9", 60000);
    usleep(100000);
    for (int i = 0; i < 20; i++) {
        uint64_t t0 = dh_now_ms(), took;
        assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
        took = dh_now_ms() - t0;
        total += took;
        worst = took > worst ? took : worst;
    }
    print_message("ping while spin9 spins: 20 pings, mean %llu ms, worst %llu ms (each a new "
                  "connection)\n",
                  (unsigned long long)(total / 20), (unsigned long long)worst);
    dh_reader_close(&r);
}

/* One worker: spin9 takes it and is timed out, then written off; stats
 * counts it and bitmask solves from another client are still answered. */
static void test_stuck_replaced(void **state)
{
    struct dh_reader r, other;
    msgpack_sbuffer sb;
    msgpack_unpacked u;

    (void)state;
    /* No fast path: the bitmask solves must need a worker. */
    start(&sd, (const char *const[]){"-j", "1", "--inline-us", "0", NULL});
    dh_reader_init(&r, dh_connect(sd.sock));
    send_solve(r.fd, 1, "spin9", 100);
    expect_error(&r, 1, "timeout", BOUND_MS);
    print_message("stuck_workers >= 1 after %llu ms more\n",
                  (unsigned long long)wait_stuck(sd.sock));
    assert_true(dh_log_has(&sd, "spin9 ignores its deadline"));
    dh_reader_init(&other, dh_connect(sd.sock));
    msgpack_sbuffer_init(&sb);
    for (uint32_t i = 0; i < 8; i++) {
        msgpack_sbuffer_clear(&sb);
        dh_pack_solve(&sb, 10 + i, puzzles[i], "bitmask", 0, 0);
        msgpack_unpacked_init(&u);
        assert_int_equal(dh_call(&other, &sb, 10 + i, &u), 0);
        assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[i]), 0);
        msgpack_unpacked_destroy(&u);
    }
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&other);
    dh_reader_close(&r);
}

/* SIGTERM with a stuck worker: the daemon exits, clean, within grace and
 * a margin (the bound here only tells exiting from hanging). */
static void test_sigterm_stuck(void **state)
{
    struct dh_reader r;
    uint64_t t0;
    int rc;

    (void)state;
    start(&sd, (const char *const[]){"-j", "1", "--grace-ms", "500", NULL});
    dh_reader_init(&r, dh_connect(sd.sock));
    send_solve(r.fd, 1, "spin9", 100);
    expect_error(&r, 1, "timeout", BOUND_MS);
    wait_stuck(sd.sock);
    send_solve(r.fd, 2, "spin9", 60000); /* running, not yet stuck, at SIGTERM */
    usleep(100000);
    t0 = dh_now_ms();
    assert_int_equal(kill(sd.pid, SIGTERM), 0);
    expect_error(&r, 2, "overloaded", BOUND_MS); /* at the end of the grace */
    rc = dh_wait(&sd, BOUND_MS);
    print_message("SIGTERM to exit with stuck workers, --grace-ms 500: %llu ms\n",
                  (unsigned long long)(dh_now_ms() - t0));
    assert_int_equal(rc, 0);
    assert_true(dh_log_has(&sd, "exiting with workers still stuck"));
    dh_reader_close(&r);
}

/* A second SIGTERM during a long grace exits at once. */
static void test_second_sigterm(void **state)
{
    struct dh_reader r;
    uint64_t t0;
    int rc;

    (void)state;
    start(&sd, (const char *const[]){"-j", "1", "--grace-ms", "120000", NULL});
    dh_reader_init(&r, dh_connect(sd.sock));
    send_solve(r.fd, 1, "spin9", 60000);
    usleep(100000);
    assert_int_equal(kill(sd.pid, SIGTERM), 0);
    usleep(200000); /* the first one is handled: a 120 s grace has begun */
    t0 = dh_now_ms();
    assert_int_equal(kill(sd.pid, SIGTERM), 0);
    rc = dh_wait(&sd, BOUND_MS);
    print_message("second SIGTERM to exit: %llu ms\n", (unsigned long long)(dh_now_ms() - t0));
    assert_int_equal(rc, 1);
    assert_true(dh_log_has(&sd, "SIGTERM again"));
    dh_reader_close(&r);
}

/* SIGHUP is not fatal: the settings are read again (the command line
 * alone here), and the daemon goes on serving. */
static void test_sighup(void **state)
{

    (void)state;
    start(&sd, NULL);
    assert_int_equal(kill(sd.pid, SIGHUP), 0);
    usleep(100000);
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    assert_true(dh_log_has(&sd, "SIGHUP: reloading the settings"));
    assert_true(dh_log_has(&sd, "notice: reloaded"));
    assert_int_equal(dh_stop(&sd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_timeout, stop_daemon),
        cmocka_unit_test_teardown(test_cancel, stop_daemon),
        cmocka_unit_test_teardown(test_ping_while_spinning, stop_daemon),
        cmocka_unit_test_teardown(test_stuck_replaced, stop_daemon),
        cmocka_unit_test_teardown(test_sigterm_stuck, stop_daemon),
        cmocka_unit_test_teardown(test_second_sigterm, stop_daemon),
        cmocka_unit_test_teardown(test_sighup, stop_daemon),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
