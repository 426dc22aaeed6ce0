/* test_daemon_bounds.c -- whole-daemon resource bounds against the real sudokud.
 *
 * Each test starts its own daemon: a stderr pipe nobody reads must not stop
 * it (lines are dropped and counted instead), refused requests are logged
 * under a rate limit, and invalid notifications are never answered.
 * Solutions are checked by the rules and the givens, never as strings.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/grid.h"
#include "daemon_harness.h"
#include "proto/codec.h"
#include "sanitizer.h"

#define BATCH        100        /* requests sent before their answers are read */
#define NOREADERS    1000       /* clients that pipeline and never read */
#define NOREAD_SEND  (64 << 10) /* bytes of requests each of them pushes at most */
#define RSS_BOUND_MB 256        /* the daemon's peak RSS with them (issue 12) */
#define RSS_SAN_MB   1024       /* the same under ASan or TSan (shadow memory) */

/* Clients that pipeline GEN_PIPELINE generates of GEN_COUNT 4x4 puzzles
 * (about 119 KB of answer each) and never read (issue 27): the big figure,
 * 1,000 of them, is in docs/reliability.md; the suite runs 100, which
 * overrun the bound without answer-room reservation (1.5 GB).  Under a
 * sanitizer, fewer (its wider bound is no test of the reservation, which
 * the Release run holds): ASan 50, TSan, some 10 times slower, 20. */
#define GEN_NOREADERS (TEST_TSAN ? 20 : TEST_ASAN ? 50 : 100)
#define GEN_PIPELINE  128
#define GEN_COUNT     1000
/* ThreadSanitizer runs the daemon some 10 times slower: fewer clients. */
#define NOREADERS_RUN (TEST_TSAN ? NOREADERS / 4 : NOREADERS)
/* A wait on work the daemon does slowly under a sanitizer or valgrind. */
#define SLOW_MS slow_ms()

static uint64_t slow_ms(void)
{
    return TEST_SANITIZED || getenv("SUDOKU_VALGRIND") ? 6 * DH_TIMEOUT_MS : DH_TIMEOUT_MS;
}

static char *puzzles[200];
static int puzzles_len;
static struct dh d; /* the daemon of the running test */

static int setup(void **state)
{
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_17clue.txt", puzzles, 200);
    return puzzles_len >= 10 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    dh_free_lines(puzzles, puzzles_len);
    return 0;
}

/* After each test, passed or failed: no daemon is left behind. */
static int stop_daemon(void **state)
{
    (void)state;
    dh_cleanup(&d);
    return 0;
}

/* Read the next response on r into *u; returns its msgid. */
static uint32_t read_response(struct dh_reader *r, msgpack_unpacked *u)
{
    uint32_t msgid = 0;

    msgpack_unpacked_init(u);
    assert_int_equal(dh_read(r, u, DH_TIMEOUT_MS), 0);
    assert_true(dh_is_response(&u->data, &msgid));
    return msgid;
}

/* Solve total puzzles in pipelined batches on r; every answer is checked
 * (answers come in any order: each msgid exactly once). */
static void solve_many(struct dh_reader *r, int total)
{
    char seen[BATCH];

    for (int base = 0; base < total; base += BATCH) {
        int n = total - base < BATCH ? total - base : BATCH;
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        for (int i = 0; i < n; i++)
            dh_pack_solve(&sb, (uint32_t)(base + i), puzzles[(base + i) % puzzles_len], NULL, 0, 0);
        assert_int_equal(dh_send(r->fd, sb.data, sb.size), 0);
        msgpack_sbuffer_destroy(&sb);
        memset(seen, 0, sizeof(seen));
        for (int i = 0; i < n; i++) {
            msgpack_unpacked u;
            uint32_t id = read_response(r, &u);
            assert_true(id >= (uint32_t)base && id < (uint32_t)(base + n) && !seen[id - base]);
            seen[id - base] = 1;
            assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[id % puzzles_len]), 0);
            msgpack_unpacked_destroy(&u);
        }
    }
}

/* Append what fd has within timeout_ms to *buf (grown); 0 at end of file. */
static ssize_t read_some(int fd, char **buf, size_t *len, size_t *cap, int timeout_ms)
{
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    ssize_t n;

    if (poll(&pfd, 1, timeout_ms) <= 0)
        return -ETIMEDOUT;
    if (*cap - *len < 65536) {
        *cap = *cap * 2 + 65536;
        *buf = realloc(*buf, *cap + 1);
        assert_non_null(*buf);
    }
    n = read(fd, *buf + *len, *cap - *len);
    if (n > 0)
        *len += (size_t)n;
    (*buf)[*len] = '\0';
    return n;
}

/* Lines of d's log that contain needle. */
static int log_count(const char *needle)
{
    FILE *f = fopen(d.log, "r");
    char line[2048];
    int n = 0;

    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

/* Wait (generously) until the log has needle: the daemon writes from a thread. */
static int log_wait_for(const char *needle)
{
    uint64_t end = dh_now_ms() + DH_TIMEOUT_MS;

    while (dh_now_ms() < end) {
        if (dh_log_has(&d, needle))
            return 1;
        usleep(20000);
    }
    return 0;
}

/* Send total calls of method, pipelined in batches, and expect each to be
 * answered with the error code. */
static void call_many(struct dh_reader *r, const char *method, int total, const char *code)
{
    for (int base = 0; base < total; base += BATCH) {
        int n = total - base < BATCH ? total - base : BATCH;
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        for (int i = 0; i < n; i++)
            dh_pack_call(&sb, (uint32_t)(base + i), method);
        assert_int_equal(dh_send(r->fd, sb.data, sb.size), 0);
        msgpack_sbuffer_destroy(&sb);
        for (int i = 0; i < n; i++) {
            msgpack_unpacked u;
            char buf[32];
            read_response(r, &u);
            assert_non_null(dh_error_code(&u.data, buf, sizeof(buf)));
            assert_string_equal(buf, code);
            msgpack_unpacked_destroy(&u);
        }
    }
}

/* --------------------------------------------------------------- logging */

/* stderr is a pipe nobody reads: the daemon still answers pings and
 * solves; once the pipe is read, the log says how many lines it dropped. */
static void test_stalled_stderr(void **state)
{
    static const char *const extra[] = {"-v", "-j", "2", NULL};
    struct dh_reader r;
    int p[2];
    char *buf = NULL;
    size_t len = 0, cap = 0;
    uint64_t end;

    (void)state;
    assert_int_equal(pipe(p), 0);
    fcntl(p[1], F_SETPIPE_SZ, 4096); /* the smallest pipe: fills sooner */
    assert_int_equal(dh_init(&d), 0);
    d.stderr_fd = p[1];
    assert_int_equal(dh_spawn(&d, extra), 0);
    close(p[1]);
    assert_int_equal(dh_wait_ready(&d), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    /* -v logs a line per solve: 3,000 of them are far more than the pipe
     * and the daemon's 64 KiB ring hold. */
    solve_many(&r, 3000);
    assert_int_equal(dh_ping(d.sock, DH_TIMEOUT_MS), 0);
    solve_many(&r, BATCH);
    end = dh_now_ms() + DH_TIMEOUT_MS;
    while (!strstr(buf ? buf : "", "dropped ") && dh_now_ms() < end)
        read_some(p[0], &buf, &len, &cap, 100);
    assert_non_null(strstr(buf, "log lines"));
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
    free(buf);
    close(p[0]);
}

/* 2,000 refused requests: each is answered, but the log holds only a few
 * of them and then says how many it suppressed. */
static void test_refusals_rate_limited(void **state)
{
    struct dh_reader r;
    int lines;

    (void)state;
    assert_int_equal(dh_start(&d, NULL), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    call_many(&r, "no_such_method", 2000, "unknown_method");
    usleep(300000); /* the bucket earns a few tokens */
    call_many(&r, "no_such_method", 1, "unknown_method");
    assert_true(log_wait_for("suppressed "));
    lines = log_count("answered unknown_method");
    /* A burst of 20, then 10 a second: far fewer than 2,000 however slow
     * the machine. */
    assert_true(lines >= 20);
    assert_true(lines < 1000);
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
}

/* Invalid notifications are logged and ignored, never answered: the first
 * answer on the connection is the one to the ping sent after them. */
static void test_invalid_notifications_ignored(void **state)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;

    (void)state;
    assert_int_equal(dh_start(&d, NULL), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 1); /* [2] */
    msgpack_pack_int(&pk, 2);
    msgpack_pack_array(&pk, 3); /* [2, 5, []] */
    msgpack_pack_int(&pk, 2);
    msgpack_pack_int(&pk, 5);
    msgpack_pack_array(&pk, 0);
    msgpack_pack_array(&pk, 4); /* [2, "cancel", [1], nil] */
    msgpack_pack_int(&pk, 2);
    dh_pack_str(&pk, "cancel");
    msgpack_pack_array(&pk, 1);
    msgpack_pack_int(&pk, 1);
    msgpack_pack_nil(&pk);
    msgpack_pack_array(&pk, 3); /* [2, "cancel", "x"] */
    msgpack_pack_int(&pk, 2);
    dh_pack_str(&pk, "cancel");
    dh_pack_str(&pk, "x");
    dh_pack_call(&sb, 7, "ping");
    assert_int_equal(dh_send(r.fd, sb.data, sb.size), 0);
    msgpack_sbuffer_destroy(&sb);
    assert_int_equal(read_response(&r, &u), 7);
    assert_true(dh_str_eq(dh_result(&u.data), "pong"));
    msgpack_unpacked_destroy(&u);
    assert_true(log_wait_for("notification - ignored"));
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
}

/* Idle, and stuck mid-message: both closed after --idle-timeout, with a
 * log line; the daemon serves on. */
static void test_idle_timeout(void **state)
{
    static const char *const extra[] = {"--idle-timeout", "1", NULL};
    static const uint8_t half[] = {0x94, 0x00, 0x01, 0xa4, 'p'}; /* [0, 1, "p... */
    struct dh_reader idle, stuck;
    msgpack_unpacked u;

    (void)state;
    assert_int_equal(dh_start(&d, extra), 0);
    dh_reader_init(&idle, dh_connect(d.sock));
    dh_reader_init(&stuck, dh_connect(d.sock));
    assert_true(idle.fd >= 0 && stuck.fd >= 0);
    assert_int_equal(dh_send(stuck.fd, half, sizeof(half)), 0);
    msgpack_unpacked_init(&u);
    assert_int_equal(dh_read(&idle, &u, DH_TIMEOUT_MS), -EPIPE);
    assert_int_equal(dh_read(&stuck, &u, DH_TIMEOUT_MS), -EPIPE);
    msgpack_unpacked_destroy(&u);
    assert_true(log_wait_for("idle, --idle-timeout"));
    assert_true(log_wait_for("stuck mid-message, --idle-timeout"));
    assert_int_equal(dh_ping(d.sock, DH_TIMEOUT_MS), 0);
    dh_reader_close(&idle);
    dh_reader_close(&stuck);
    assert_int_equal(dh_stop(&d), 0);
}

static long proc_status_kib(pid_t pid, const char *key)
{
    char path[64], line[256];
    long v = -1;
    size_t klen = strlen(key);
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':')
            v = atol(line + klen + 1);
    fclose(f);
    return v;
}

/* Push `solvers` requests (large answers) on fd until the daemon stops
 * reading (the socket would block) or NOREAD_SEND bytes went. */
static size_t push_until_blocked(int fd, const msgpack_sbuffer *req)
{
    size_t sent = 0;

    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    while (sent < NOREAD_SEND) {
        ssize_t n = send(fd, req->data, req->size, MSG_NOSIGNAL);
        if (n < 0 && errno == EAGAIN) {
            usleep(2000); /* the daemon may still be reading: one more try */
            if ((n = send(fd, req->data, req->size, MSG_NOSIGNAL)) < 0)
                break;
        }
        assert_true(n > 0);
        sent += (size_t)n;
        if ((size_t)n < req->size)
            break; /* the socket is full mid-message */
    }
    return sent;
}

/* 1,000 clients pipeline requests and never read an answer: the daemon
 * stays under its memory bound and answers a ping from anyone else. */
static void test_many_nonreaders_bounded(void **state)
{
    static const char *const extra[] = {"--max-connections", "1100", "-j", "2", NULL};
    static int fds[NOREADERS];
    struct rlimit rl;
    msgpack_sbuffer req;
    size_t total = 0;
    long start_kib, hwm_kib, bound_mb = TEST_SANITIZED ? RSS_SAN_MB : RSS_BOUND_MB;

    (void)state;
    if (getenv("SUDOKU_VALGRIND"))
        skip(); /* a memory figure under valgrind says nothing; ASan and plain runs hold it */
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < NOREADERS + 64)
        skip();
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    assert_int_equal(dh_start(&d, extra), 0);
    start_kib = proc_status_kib(d.pid, "VmRSS");
    msgpack_sbuffer_init(&req);
    for (int i = 0; i < 64; i++)
        dh_pack_call(&req, (uint32_t)i, "solvers");
    for (int i = 0; i < NOREADERS_RUN; i++) {
        fds[i] = dh_connect(d.sock);
        assert_true(fds[i] >= 0);
        total += push_until_blocked(fds[i], &req);
    }
    msgpack_sbuffer_destroy(&req);
    assert_int_equal(dh_ping(d.sock, SLOW_MS), 0);
    hwm_kib = proc_status_kib(d.pid, "VmHWM");
    printf("bounds: %d non-reading clients pushed %zu KiB; daemon RSS %ld KiB at start, "
           "VmHWM %ld KiB (bound %ld MiB)\n",
           NOREADERS_RUN, total / 1024, start_kib, hwm_kib, bound_mb);
    assert_true(hwm_kib > 0 && hwm_kib < bound_mb * 1024);
    for (int i = 0; i < NOREADERS_RUN; i++)
        close(fds[i]);
    assert_int_equal(dh_ping(d.sock, SLOW_MS), 0);
    assert_int_equal(dh_stop(&d), 0);
}

/* The daemon's in_flight counter, asked on r. */
static uint64_t stats_in_flight(struct dh_reader *r, uint32_t msgid)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    const msgpack_object *v;
    uint64_t in_flight;

    msgpack_sbuffer_init(&sb);
    dh_pack_call(&sb, msgid, "stats");
    msgpack_unpacked_init(&u);
    assert_int_equal(dh_call(r, &sb, msgid, &u), 0);
    msgpack_sbuffer_destroy(&sb);
    v = dh_map_get(dh_result(&u.data), "in_flight");
    assert_non_null(v);
    assert_int_equal(v->type, MSGPACK_OBJECT_POSITIVE_INTEGER);
    in_flight = v->via.u64;
    msgpack_unpacked_destroy(&u);
    return in_flight;
}

/* Many clients each pipeline 128 large generates and never read: the work
 * accepted is only what has room for its answer, so the daemon settles
 * (nothing in flight) under its memory bound and answers a ping meanwhile.
 * Without the reservation every generate runs and its answer piles up. */
static void test_generate_nonreaders_bounded(void **state)
{
    static const char *const extra[] = {"--max-connections", "1100", "-j", "2", NULL};
    static int fds[GEN_NOREADERS];
    long hwm_kib = 0, bound_mb = TEST_SANITIZED ? RSS_SAN_MB : RSS_BOUND_MB;
    uint64_t in_flight = 1, end, t0;
    struct dh_reader r;
    msgpack_sbuffer req;
    uint32_t msgid = 0;

    (void)state;
    if (getenv("SUDOKU_VALGRIND"))
        skip(); /* as test_many_nonreaders_bounded */
    assert_int_equal(dh_start(&d, extra), 0);
    msgpack_sbuffer_init(&req);
    for (uint32_t i = 0; i < GEN_PIPELINE; i++)
        dh_pack_generate(&req, i, 4, GEN_COUNT);
    for (int i = 0; i < GEN_NOREADERS; i++) {
        fds[i] = dh_connect(d.sock);
        assert_true(fds[i] >= 0);
        assert_int_equal(dh_send(fds[i], req.data, req.size), 0);
    }
    msgpack_sbuffer_destroy(&req);
    t0 = dh_now_ms();
    assert_int_equal(dh_ping(d.sock, SLOW_MS), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    /* Settled: every accepted generate answered, the rest held unread. */
    end = t0 + 6 * SLOW_MS;
    while (in_flight > 0 && hwm_kib < bound_mb * 1024 && dh_now_ms() < end) {
        usleep(100000);
        in_flight = stats_in_flight(&r, ++msgid);
        hwm_kib = proc_status_kib(d.pid, "VmHWM");
    }
    printf("bounds: %d clients x %d generate {size 4, count %d} unread: settled in %llu ms, "
           "VmHWM %ld KiB (bound %ld MiB)\n",
           GEN_NOREADERS, GEN_PIPELINE, GEN_COUNT, (unsigned long long)(dh_now_ms() - t0), hwm_kib,
           bound_mb);
    assert_true(hwm_kib > 0 && hwm_kib < bound_mb * 1024);
    assert_int_equal(in_flight, 0);
    assert_int_equal(dh_ping(d.sock, SLOW_MS), 0);
    for (int i = 0; i < GEN_NOREADERS; i++)
        close(fds[i]);
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
}

/* A generated puzzle map: its solution keeps the puzzle's givens and obeys
 * the rules.  Returns 0 or -EINVAL. */
static int check_generated(const msgpack_object *map)
{
    const msgpack_object *p = dh_map_get(map, "puzzle"), *s = dh_map_get(map, "solution");
    uint8_t pc[SDK_MAX_CELLS], sc[SDK_MAX_CELLS];
    unsigned n = 0, m = 0;
    char err[256];

    if (!p || !s || p->type != MSGPACK_OBJECT_STR || s->type != MSGPACK_OBJECT_STR ||
        codec_parse_line(p->via.str.ptr, p->via.str.size, &n, pc, NULL, 0) < 0 ||
        codec_parse_line(s->via.str.ptr, s->via.str.size, &m, sc, NULL, 0) < 0 || m != n)
        return -EINVAL;
    return grid_check_solution(n, pc, sc, err, sizeof(err)) < 0 ? -EINVAL : 0;
}

/* A client that pipelines more generates than its answer room holds, and
 * reads: every one is answered, each with its puzzles (the held requests
 * come back as the answers drain). */
static void test_generate_held_then_answered(void **state)
{
    enum { CALLS = 24, COUNT = 1000 };
    struct dh_reader r;
    msgpack_sbuffer req;
    char seen[CALLS] = {0};

    (void)state;
    assert_int_equal(dh_start(&d, NULL), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    msgpack_sbuffer_init(&req);
    for (uint32_t i = 0; i < CALLS; i++)
        dh_pack_generate(&req, i, 4, COUNT);
    assert_int_equal(dh_send(r.fd, req.data, req.size), 0);
    msgpack_sbuffer_destroy(&req);
    for (int i = 0; i < CALLS; i++) {
        msgpack_unpacked u;
        uint32_t id = read_response(&r, &u);
        const msgpack_object *res = dh_result(&u.data);
        assert_true(id < CALLS && !seen[id]);
        seen[id] = 1;
        assert_non_null(res);
        assert_int_equal(res->type, MSGPACK_OBJECT_ARRAY);
        assert_int_equal(res->via.array.size, COUNT);
        for (int k = 0; k < COUNT; k++)
            assert_int_equal(check_generated(&res->via.array.ptr[k]), 0);
        msgpack_unpacked_destroy(&u);
    }
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
}

/* Issue 27's flood, twice over: two connections each pipeline 128
 * generate {size 16, count 1000} (each runs to its 30 s timeout, one
 * puzzle every second or so), enough to keep both workers busy for
 * minutes.  Another client's 9x9 solve is answered, solved, while the
 * flood still runs: the pool serves connections in turn and a generate
 * yields between two puzzles.  (Before: it waited behind the flood and
 * was answered `timeout`.) */
static void test_flood_leaves_room(void **state)
{
    static const char *const extra[] = {"-j", "2", NULL};
    struct dh_reader flood[2], r;
    msgpack_sbuffer req;
    msgpack_unpacked u;
    uint64_t end;

    (void)state;
    assert_int_equal(dh_start(&d, extra), 0);
    msgpack_sbuffer_init(&req);
    for (uint32_t i = 0; i < GEN_PIPELINE; i++)
        dh_pack_generate(&req, i, 16, GEN_COUNT);
    for (int i = 0; i < 2; i++) {
        dh_reader_init(&flood[i], dh_connect(d.sock));
        assert_true(flood[i].fd >= 0);
        assert_int_equal(dh_send(flood[i].fd, req.data, req.size), 0);
    }
    msgpack_sbuffer_destroy(&req);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(r.fd >= 0);
    end = dh_now_ms() + SLOW_MS;
    while (stats_in_flight(&r, 1) < 2 && dh_now_ms() < end)
        usleep(10000); /* both workers on the flood */
    msgpack_sbuffer_init(&req);
    dh_pack_solve(&req, 2, puzzles[0], NULL, 0, SLOW_MS);
    msgpack_unpacked_init(&u);
    /* It waits for at most one 16x16 puzzle of each worker's generate: under
     * a sanitizer on a loaded host that can take longer than DH_TIMEOUT_MS. */
    assert_int_equal(dh_call_within(&r, &req, 2, &u, SLOW_MS), 0);
    msgpack_sbuffer_destroy(&req);
    assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[0]), 0);
    msgpack_unpacked_destroy(&u);
    assert_true(stats_in_flight(&r, 3) >= 2); /* the flood goes on */
    for (int i = 0; i < 2; i++)
        dh_reader_close(&flood[i]);
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
}

/* An easy 9x9 puzzle: puzzles[0]'s solution (solved by the daemon, checked)
 * with every ninth cell blank, so singles alone finish it. */
static void easy_puzzle(struct dh_reader *r, char *out, size_t size)
{
    msgpack_sbuffer req;
    msgpack_unpacked u;
    const msgpack_object *sol;

    assert_true(size > 81);
    msgpack_sbuffer_init(&req);
    dh_pack_solve(&req, 1, puzzles[0], NULL, 0, 0);
    msgpack_unpacked_init(&u);
    assert_int_equal(dh_call_within(&r[0], &req, 1, &u, SLOW_MS), 0);
    assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[0]), 0);
    sol = dh_map_get(dh_result(&u.data), "solution");
    memcpy(out, sol->via.str.ptr, 81);
    out[81] = '\0';
    for (int i = 0; i < 81; i += 9)
        out[i + i / 9 % 9] = '.';
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&req);
}

/* The only worker runs another connection's endless search (timeout half
 * of SLOW_MS: 10 s, a minute under a sanitizer, where the solves below can
 * take longer than 10 s on a busy machine): a client asking one easy 9x9
 * solve at a time is answered on the loop while that search still runs,
 * not after its worker comes free (before: only with every worker idle, so
 * it waited the whole timeout).  Not under valgrind: there an easy solve
 * can take longer than the fast path's most (--inline-us 1000) on a loaded
 * machine, and then goes, as it should, to the busy worker. */
static void test_busy_workers_leave_prompt_solve(void **state)
{
    static const char *const extra[] = {"-j",           "1",      "--inline-us", "1000",
                                        "--timeout-ms", "120000", NULL};
    struct dh_reader busy, r;
    msgpack_sbuffer req;
    msgpack_unpacked u;
    char easy[128];
    struct pollfd pfd;
    uint64_t t0, end;

    (void)state;
    if (getenv("SUDOKU_VALGRIND"))
        skip();
    assert_int_equal(dh_start(&d, extra), 0);
    dh_reader_init(&busy, dh_connect(d.sock));
    dh_reader_init(&r, dh_connect(d.sock));
    assert_true(busy.fd >= 0 && r.fd >= 0);
    easy_puzzle(&r, easy, sizeof(easy));
    msgpack_sbuffer_init(&req);
    dh_pack_solve(&req, 7, DH_ENDLESS, "bitmask", DH_ENDLESS_LIMIT, SLOW_MS / 2);
    assert_int_equal(dh_send(busy.fd, req.data, req.size), 0);
    t0 = dh_now_ms();
    end = t0 + SLOW_MS;
    while (stats_in_flight(&r, 2) < 1 && dh_now_ms() < end)
        usleep(10000); /* the worker is on it */
    usleep(200000);    /* past its inline attempt and its hand-off */
    for (uint32_t i = 0; i < 5; i++) {
        msgpack_sbuffer_clear(&req);
        dh_pack_solve(&req, 10 + i, easy, "bitmask", 0, 0);
        msgpack_unpacked_init(&u);
        assert_int_equal(dh_call_within(&r, &req, 10 + i, &u, SLOW_MS), 0);
        assert_int_equal(dh_check_solved(dh_result(&u.data), easy), 0);
        msgpack_unpacked_destroy(&u);
    }
    pfd = (struct pollfd){.fd = busy.fd, .events = POLLIN};
    if (poll(&pfd, 1, 0) != 0) { /* the search must still be running */
        char code[64] = "";
        msgpack_unpacked_init(&u);
        int rc = dh_read(&busy, &u, 0);
        if (rc == 0)
            dh_error_code(&u.data, code, sizeof(code));
        fail_msg("the search answered after %llu ms: read %d, error \"%s\"",
                 (unsigned long long)(dh_now_ms() - t0), rc, code);
    }
    assert_int_equal(stats_in_flight(&r, 3), 1);
    msgpack_sbuffer_destroy(&req);
    dh_reader_close(&busy);
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
}

/* Out of descriptors: the daemon warned at start, logs the failed accepts
 * (under the rate limit) and serves on once descriptors come free. */
static void test_emfile_keeps_serving(void **state)
{
    static const char *const extra[] = {"-j", "1", NULL};
    int fds[64];

    (void)state;
    if (getenv("SUDOKU_VALGRIND"))
        skip(); /* valgrind takes descriptors of its own out of a limit this low */
    assert_int_equal(dh_init(&d), 0);
    d.nofile = 32;
    assert_int_equal(dh_spawn(&d, extra), 0);
    assert_int_equal(dh_wait_ready(&d), 0);
    assert_true(dh_log_has(&d, "does not fit the open-file limit 32"));
    for (int i = 0; i < 64; i++) {
        fds[i] = dh_connect(d.sock); /* the backlog takes them all */
        assert_true(fds[i] >= 0);
    }
    assert_true(dh_log_has(&d, "out of file descriptors"));
    for (int i = 0; i < 64; i++)
        close(fds[i]);
    /* The daemon sheds what it accepts while still out of descriptors (it
     * has yet to see the hang-ups of the ones above): a ping may be shed
     * once or twice before one is served. */
    uint64_t until = dh_now_ms() + DH_TIMEOUT_MS;
    int rc;
    while ((rc = dh_ping(d.sock, DH_TIMEOUT_MS)) != 0 && dh_now_ms() < until)
        usleep(50000);
    assert_int_equal(rc, 0);
    assert_int_equal(dh_stop(&d), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_stalled_stderr, stop_daemon),
        cmocka_unit_test_teardown(test_refusals_rate_limited, stop_daemon),
        cmocka_unit_test_teardown(test_invalid_notifications_ignored, stop_daemon),
        cmocka_unit_test_teardown(test_idle_timeout, stop_daemon),
        cmocka_unit_test_teardown(test_emfile_keeps_serving, stop_daemon),
        cmocka_unit_test_teardown(test_many_nonreaders_bounded, stop_daemon),
        cmocka_unit_test_teardown(test_generate_held_then_answered, stop_daemon),
        cmocka_unit_test_teardown(test_generate_nonreaders_bounded, stop_daemon),
        cmocka_unit_test_teardown(test_flood_leaves_room, stop_daemon),
        cmocka_unit_test_teardown(test_busy_workers_leave_prompt_solve, stop_daemon),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
