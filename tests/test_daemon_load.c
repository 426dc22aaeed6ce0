/* test_daemon_load.c -- sudokud under load: pipelining, many connections,
 * clients that vanish, SIGTERM while busy or with a connection open, and a
 * shutdown that leaves no libuv handle open.
 *
 * Each test starts its own daemon (-j 2) so that one test's leftovers cannot
 * hide another's failure.  Every answer is matched by msgid and every
 * solution is checked by the rules and the givens.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon_harness.h"

#define PIPELINED  5000 /* requests on one connection */
#define CLIENTS    50   /* concurrent connections */
#define PER_CLIENT 40   /* requests each */

static char *puzzles[200];
static int puzzles_len;

static const char *const two_workers[] = {"-j", "2", NULL};
static const char *const two_verbose[] = {"-j", "2", "-v", NULL}; /* logs pauses */

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

/* A writer thread pushes a prepared buffer while the test thread reads, so
 * backpressure (the daemon pausing its reads) cannot deadlock the test. */
struct writer {
    pthread_t tid;
    int fd;
    msgpack_sbuffer sb;
    int rc;
};

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    w->rc = dh_send(w->fd, w->sb.data, w->sb.size);
    return NULL;
}

/* Pipelining: msgid 0 is a dfs count that cannot end (DH_ENDLESS), with a 400 ms timeout; the rest
 * are quick.  With two workers the quick answers overtake it, so answers are
 * out of order by construction; each is matched by msgid and checked. */
static void test_pipelining(void **state)
{
    struct dh d;
    struct writer w;
    struct dh_reader r;
    msgpack_unpacked u;
    unsigned char *seen = calloc(PIPELINED, 1);
    int got = 0, first = -1;
    (void)state;

    assert_int_equal(dh_start(&d, two_verbose), 0);
    w.fd = dh_connect(d.sock);
    assert_true(w.fd >= 0);
    msgpack_sbuffer_init(&w.sb);
    dh_pack_solve(&w.sb, 0, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 400);
    for (uint32_t i = 1; i < PIPELINED; i++)
        dh_pack_solve(&w.sb, i, puzzles[i % puzzles_len], NULL, 0, 0);
    assert_int_equal(pthread_create(&w.tid, NULL, writer_main, &w), 0);
    dh_reader_init(&r, w.fd);
    msgpack_unpacked_init(&u);
    while (got < PIPELINED) {
        uint32_t id;
        char code[32];
        assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
        assert_true(dh_is_response(&u.data, &id));
        assert_true(id < PIPELINED);
        assert_false(seen[id]);
        seen[id] = 1;
        if (first < 0)
            first = (int)id;
        if (id == 0) {
            const char *err = dh_error_code(&u.data, code, sizeof(code));
            assert_non_null(err);
            assert_string_equal(err, "timeout");
        } else {
            assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[id % puzzles_len]), 0);
        }
        got++;
    }
    assert_int_not_equal(first, 0);                               /* out of order */
    assert_true(dh_log_has(&d, "reading paused (128 in flight")); /* backpressure */
    pthread_join(w.tid, NULL);
    assert_int_equal(w.rc, 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&w.sb);
    dh_reader_close(&r);
    free(seen);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

struct client {
    pthread_t tid;
    const char *sock;
    int index;
    int ok;
};

static void *client_main(void *arg)
{
    struct client *c = arg;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int fd = dh_connect(c->sock), answered = 0;

    if (fd < 0)
        return NULL;
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (uint32_t i = 0; i < PER_CLIENT; i++)
        dh_pack_solve(&sb, i, puzzles[(c->index * PER_CLIENT + (int)i) % puzzles_len], NULL, 0, 0);
    if (dh_send(fd, sb.data, sb.size) == 0) {
        while (answered < PER_CLIENT && dh_read(&r, &u, DH_TIMEOUT_MS) == 0) {
            uint32_t id;
            const char *p;
            if (!dh_is_response(&u.data, &id) || id >= PER_CLIENT)
                break;
            p = puzzles[(c->index * PER_CLIENT + (int)id) % puzzles_len];
            if (dh_check_solved(dh_result(&u.data), p) != 0)
                break;
            answered++;
        }
    }
    c->ok = answered == PER_CLIENT;
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    return NULL;
}

static void test_concurrent_connections(void **state)
{
    struct dh d;
    struct client clients[CLIENTS];
    (void)state;

    assert_int_equal(dh_start(&d, two_workers), 0);
    for (int i = 0; i < CLIENTS; i++) {
        clients[i] = (struct client){.sock = d.sock, .index = i};
        assert_int_equal(pthread_create(&clients[i].tid, NULL, client_main, &clients[i]), 0);
    }
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(clients[i].tid, NULL);
        assert_true(clients[i].ok);
    }
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

static uint64_t stats_in_flight(const char *sock)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *v;
    uint64_t n = UINT64_MAX;
    int fd = dh_connect(sock);

    if (fd < 0)
        return n;
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 1, "stats");
    if (dh_call(&r, &sb, 1, &u) == 0 && (v = dh_map_get(dh_result(&u.data), "in_flight")) != NULL)
        n = v->via.u64;
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    return n;
}

/* Clients that send long solves (and a queue behind them) and vanish: their
 * work is dropped or cancelled and the daemon keeps serving. */
static void test_vanishing_clients(void **state)
{
    struct dh d;
    msgpack_sbuffer sb;
    uint64_t end;
    (void)state;

    assert_int_equal(dh_start(&d, two_workers), 0);
    msgpack_sbuffer_init(&sb);
    for (uint32_t i = 0; i < 10; i++)
        dh_pack_solve(&sb, i, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    for (int k = 0; k < 4; k++) {
        int fd = dh_connect(d.sock);
        assert_true(fd >= 0);
        assert_int_equal(dh_send(fd, sb.data, sb.size), 0);
        usleep(20000);
        close(fd);
    }
    /* A half-sent request, then gone. */
    {
        int fd = dh_connect(d.sock);
        assert_true(fd >= 0);
        assert_int_equal(dh_send(fd, sb.data, sb.size / 2 + 3), 0);
        close(fd);
    }
    assert_int_equal(dh_ping(d.sock, 5000), 0);
    end = dh_now_ms() + 10000;
    while (stats_in_flight(d.sock) != 0 && dh_now_ms() < end)
        usleep(10000);
    assert_int_equal(stats_in_flight(d.sock), 0);
    msgpack_sbuffer_destroy(&sb);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

/* SIGTERM with long solves running and quick ones queued: every answer that
 * arrives is well-formed, the daemon exits 0 and removes its socket. */
static void test_sigterm_under_load(void **state)
{
    struct dh d;
    struct dh_reader r[4];
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    struct stat st;
    (void)state;

    assert_int_equal(dh_start(&d, two_workers), 0);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_solve(&sb, 0, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    for (uint32_t i = 1; i < 100; i++)
        dh_pack_solve(&sb, i, puzzles[i % puzzles_len], NULL, 0, 0);
    for (int k = 0; k < 4; k++) {
        int fd = dh_connect(d.sock);
        assert_true(fd >= 0);
        dh_reader_init(&r[k], fd);
        assert_int_equal(dh_send(fd, sb.data, sb.size), 0);
    }
    usleep(50000);
    kill(d.pid, SIGTERM);
    for (int k = 0; k < 4; k++) {
        int rc;
        uint32_t id;
        while ((rc = dh_read(&r[k], &u, DH_TIMEOUT_MS)) == 0) {
            char code[32];
            assert_true(dh_is_response(&u.data, &id));
            if (dh_result(&u.data) == NULL)
                assert_non_null(dh_error_code(&u.data, code, sizeof(code)));
        }
        assert_int_equal(rc, -EPIPE); /* closed by the daemon, not timed out */
        dh_reader_close(&r[k]);
    }
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    assert_int_equal(stat(d.sock, &st), -1);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_cleanup(&d);
}

/* Wait until the daemon's log says it has handled SIGTERM/SIGINT. */
static int wait_stopping(const struct dh *d)
{
    uint64_t end = dh_now_ms() + DH_TIMEOUT_MS;

    while (!dh_log_has(d, "shutting down")) {
        if (dh_now_ms() > end)
            return -ETIMEDOUT;
        usleep(1000);
    }
    return 0;
}

/* SIGTERM keeps the promise made to a connection already accepted: requests
 * sent on it after the signal (a ping, a solve) are read and answered; then
 * the daemon itself closes the quiet connection and exits 0.  The ping
 * before the signal proves the connection was accepted, not still waiting
 * in the listen backlog. */
static void test_sigterm_serves_open_connection(void **state)
{
    struct dh d;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    struct stat st;
    (void)state;

    assert_int_equal(dh_start(&d, two_workers), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 1, "ping");
    assert_int_equal(dh_call(&r, &sb, 1, &u), 0);
    assert_true(dh_str_eq(dh_result(&u.data), "pong"));

    assert_int_equal(kill(d.pid, SIGTERM), 0);
    assert_int_equal(wait_stopping(&d), 0);
    msgpack_sbuffer_clear(&sb);
    dh_pack_call(&sb, 2, "ping");
    assert_int_equal(dh_call(&r, &sb, 2, &u), 0);
    assert_true(dh_str_eq(dh_result(&u.data), "pong"));
    msgpack_sbuffer_clear(&sb);
    dh_pack_solve(&sb, 3, puzzles[0], NULL, 0, 0);
    assert_int_equal(dh_call(&r, &sb, 3, &u), 0);
    assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[0]), 0);

    /* Quiet now: the daemon hangs up (end of stream, not a timeout). */
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), -EPIPE);
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    assert_int_equal(stat(d.sock, &st), -1);
    dh_reader_close(&r);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_cleanup(&d);
}

/* Start a daemon with args, connect r to it and solve 20 puzzles on that
 * connection, one at a time, each answer checked; sb and u are
 * initialised here and left for the caller (who destroys them). */
static void start_after_work(struct dh *d, const char *const *args, struct dh_reader *r,
                             msgpack_sbuffer *sb, msgpack_unpacked *u)
{
    assert_int_equal(dh_start(d, args), 0);
    dh_reader_init(r, dh_connect(d->sock));
    assert_true(r->fd >= 0);
    msgpack_sbuffer_init(sb);
    msgpack_unpacked_init(u);
    for (uint32_t i = 1; i <= 20; i++) {
        msgpack_sbuffer_clear(sb);
        dh_pack_solve(sb, i, puzzles[i % puzzles_len], NULL, 0, 0);
        assert_int_equal(dh_call(r, sb, i, u), 0);
        assert_int_equal(dh_check_solved(dh_result(&u->data), puzzles[i % puzzles_len]), 0);
    }
}

/* SIGTERM with a solve in flight on an open connection, answered requests
 * before it, and a client that vanished with its own long solve running and
 * half a request unsent: the solve in flight is answered `overloaded` once
 * the grace is over, the daemon closes the connection, exits 0 and (-v)
 * reports that uv_loop_close() found every handle closed. */
static void test_sigterm_closes_loop(void **state)
{
    static const char *const args[] = {"-j", "2", "-v", "--grace-ms", "200", NULL};
    struct dh d;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint64_t end;
    uint32_t id;
    char code[32];
    int gone;
    (void)state;

    start_after_work(&d, args, &r, &sb, &u);
    gone = dh_connect(d.sock);
    assert_true(gone >= 0);
    msgpack_sbuffer_clear(&sb);
    dh_pack_solve(&sb, 1, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    dh_pack_solve(&sb, 2, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    assert_int_equal(dh_send(gone, sb.data, sb.size - 7), 0); /* 1 complete, 2 cut short */
    msgpack_sbuffer_clear(&sb);
    dh_pack_solve(&sb, 100, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    end = dh_now_ms() + DH_TIMEOUT_MS;
    while (stats_in_flight(d.sock) != 2 && dh_now_ms() < end)
        usleep(1000);
    assert_int_equal(stats_in_flight(d.sock), 2); /* both long solves taken */
    close(gone);
    assert_int_equal(kill(d.pid, SIGTERM), 0);

    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_true(dh_is_response(&u.data, &id));
    assert_int_equal(id, 100);
    assert_string_equal(dh_error_code(&u.data, code, sizeof(code)), "overloaded");
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), -EPIPE); /* closed by the daemon */
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    assert_true(dh_log_has(&d, "loop closed clean"));
    assert_false(dh_log_has(&d, "still open"));
    dh_reader_close(&r);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_cleanup(&d);
}

/* An idle daemon stops at once on SIGTERM, even after work and with an
 * idle client still connected (it waited out a quiet period of 200 ms
 * counted from the signal); a busy one still gives its running solve the
 * whole grace before answering it `overloaded`. */
/* A SIGTERM that arrives while the daemon is still starting is an orderly
 * stop (status 0, "shutting down" logged), not a death by signal: the
 * daemon holds the signal until it serves.  The start is held still by a
 * configuration file that is a FIFO: our open() for writing returns once
 * the daemon opened it to read (it is then inside main), the signal is sent
 * while it waits for the file's contents, and only then does it get them. */
static void test_sigterm_during_startup_is_orderly(void **state)
{
    static const char conf[] = "threads = 2\n";
    char fifo[300];
    const char *args[] = {"--config", fifo, NULL};
    struct dh d;
    int fd;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    snprintf(fifo, sizeof(fifo), "%s/sudokud.conf", d.dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(dh_spawn(&d, args), 0);
    fd = open(fifo, O_WRONLY); /* blocks until the daemon reads the file */
    assert_true(fd >= 0);
    assert_int_equal(kill(d.pid, SIGTERM), 0);
    usleep(50000); /* a signal not held would have ended it by now */
    assert_int_equal(write(fd, conf, sizeof(conf) - 1), (ssize_t)sizeof(conf) - 1);
    close(fd);
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    assert_true(dh_log_has(&d, "SIGTERM: shutting down"));
    unlink(fifo);
    dh_cleanup(&d);
}

static void test_sigterm_idle_is_prompt(void **state)
{
    /* Idle: the stop does not wait out a long grace (a bound far above any
     * scheduling delay, far below the grace); busy: a solve gets the grace. */
    static const char *const idle_args[] = {"-j", "2", "--grace-ms", "8000", NULL};
    static const char *const args[] = {"-j", "2", "--grace-ms", "600", NULL};
    struct dh d;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint64_t t0, end;
    char code[32];
    (void)state;

    start_after_work(&d, idle_args, &r, &sb, &u);
    usleep(300000); /* the client has gone idle; its connection stays open */
    t0 = dh_now_ms();
    assert_int_equal(kill(d.pid, SIGTERM), 0);
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    print_message("idle stop: %llu ms\n", (unsigned long long)(dh_now_ms() - t0));
    assert_in_range(dh_now_ms() - t0, 0, 3999);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), -EPIPE);
    dh_reader_close(&r);
    dh_cleanup(&d);

    assert_int_equal(dh_start(&d, args), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_clear(&sb);
    dh_pack_solve(&sb, 7, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    end = dh_now_ms() + DH_TIMEOUT_MS;
    while (stats_in_flight(d.sock) != 1 && dh_now_ms() < end)
        usleep(1000);
    assert_int_equal(stats_in_flight(d.sock), 1);
    usleep(300000); /* busy, but no byte moves: the solve's grace is what counts */
    t0 = dh_now_ms();
    assert_int_equal(kill(d.pid, SIGTERM), 0);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_string_equal(dh_error_code(&u.data, code, sizeof(code)), "overloaded");
    assert_true(dh_now_ms() - t0 >= 550); /* the grace, give or take a timer tick */
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    dh_reader_close(&r);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_cleanup(&d);
}

/* A client that sends its requests and shuts its write side (half-close)
 * still gets every answer, then end of stream. */
static void test_half_close(void **state)
{
    struct dh d;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int got = 0;
    uint32_t id;
    (void)state;

    assert_int_equal(dh_start(&d, two_workers), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    for (uint32_t i = 0; i < 300; i++)
        dh_pack_solve(&sb, i, puzzles[i % puzzles_len], NULL, 0, 0);
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    assert_int_equal(shutdown(r.fd, SHUT_WR), 0);
    while (dh_read(&r, &u, DH_TIMEOUT_MS) == 0) {
        assert_true(dh_is_response(&u.data, &id));
        assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[id % puzzles_len]), 0);
        got++;
    }
    assert_int_equal(got, 300);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

/* A client that pipelines far more answer bytes than the daemon buffers
 * (CONN_MAX_UNSENT) and does not read for a while is paused, not failed:
 * meanwhile others are served, and afterwards it gets every answer. */
static void test_slow_reader(void **state)
{
    enum { CALLS = 8000 };
    struct dh d;
    struct writer w;
    struct dh_reader r;
    msgpack_unpacked u;
    unsigned char *seen = calloc(CALLS, 1);
    int got = 0;
    uint32_t id;
    (void)state;

    assert_int_equal(dh_start(&d, two_verbose), 0);
    w.fd = dh_connect(d.sock);
    assert_true(w.fd >= 0);
    msgpack_sbuffer_init(&w.sb);
    for (uint32_t i = 0; i < CALLS; i++)
        dh_pack_call(&w.sb, i, "solvers"); /* ~13 bytes in, several hundred out */
    assert_int_equal(pthread_create(&w.tid, NULL, writer_main, &w), 0);
    /* Not reading: the daemon must pause this connection... */
    for (int i = 0; i < 1000 && !dh_log_has(&d, "bytes unsent)"); i++)
        usleep(10000);
    assert_true(dh_log_has(&d, "bytes unsent)"));
    /* ...and keep serving the others. */
    assert_int_equal(dh_ping(d.sock, 5000), 0);
    dh_reader_init(&r, w.fd);
    msgpack_unpacked_init(&u);
    while (got < CALLS && dh_read(&r, &u, DH_TIMEOUT_MS) == 0) {
        assert_true(dh_is_response(&u.data, &id));
        assert_true(id < CALLS && !seen[id]);
        assert_non_null(dh_result(&u.data));
        seen[id] = 1;
        got++;
    }
    assert_int_equal(got, CALLS);
    pthread_join(w.tid, NULL);
    assert_int_equal(w.rc, 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&w.sb);
    dh_reader_close(&r);
    free(seen);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

/* A full solve queue answers `overloaded` at once: one worker, a queue of
 * one, three long solves. */
static void test_queue_full(void **state)
{
    static const char *const tiny[] = {"-j", "1", "--max-queue", "1", NULL};
    struct dh d;
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint32_t id;
    char code[32];
    (void)state;

    assert_int_equal(dh_start(&d, tiny), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    /* 1 runs (or waits, if the worker is slow to take it), so at least 3 finds
     * the queue of one full. */
    for (uint32_t i = 1; i <= 3; i++)
        dh_pack_solve(&sb, i, DH_ENDLESS, "dfs", DH_ENDLESS_LIMIT, 60000);
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_true(dh_is_response(&u.data, &id));
    assert_true(id == 2 || id == 3);
    assert_string_equal(dh_error_code(&u.data, code, sizeof(code)), "overloaded");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r); /* vanishing drops the queued one, cancels the running one */
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipelining),                     /* 5,000 on one connection */
        cmocka_unit_test(test_concurrent_connections),         /* 50 clients at once */
        cmocka_unit_test(test_vanishing_clients),              /* work dropped, daemon fine */
        cmocka_unit_test(test_half_close),                     /* shutdown(SHUT_WR) clients */
        cmocka_unit_test(test_slow_reader),                    /* backpressure on output */
        cmocka_unit_test(test_queue_full),                     /* overloaded */
        cmocka_unit_test(test_sigterm_under_load),             /* clean exit, socket gone */
        cmocka_unit_test(test_sigterm_serves_open_connection), /* accepted = answered */
        cmocka_unit_test(test_sigterm_closes_loop),            /* every handle closed */
        cmocka_unit_test(test_sigterm_idle_is_prompt),         /* idle: at once; busy: grace */
        cmocka_unit_test(test_sigterm_during_startup_is_orderly),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, setup, teardown);
}
