/* test_daemon_isolate.c -- sudokud with plugins that crash, lie and spin.
 *
 * The plugins of tests/plugins/crash9.c each fail on every solve in their
 * own way; being third-party, they run in worker processes by default.
 * Each test starts its own daemon and checks what the isolation promises:
 *
 *   crashes      segv, exit(7), abort() and a 64 KiB overrun each answer
 *                `internal` ("plugin NAME crashed", or the wrong answer
 *                refused), while another connection's pipelined bitmask
 *                solves all arrive, each checked against the rules; then
 *                ping answers, the socket file is still there, and SIGTERM
 *                ends the daemon promptly and cleanly
 *   escapes      plugins that open a socket, exec /bin/sh, open a file for
 *                writing and fork are refused by the worker's seccomp
 *                filter: each answers `internal` (exec: its worker killed by
 *                SIGSYS, "crashed"), none leaves its marker file, a thread
 *                still starts, another connection's solves all arrive; with
 *                --isolate none (the control) the write and the socket do
 *                leave their files
 *   liar         liar9's wrong answers never leave, isolated too
 *   disable      five crashes in a minute: `unsupported` ("disabled after
 *                5 crashes; reload to retry"); SIGHUP: it runs again
 *   spin_prompt  a plugin that claims SDK_CAP_PROMPT and spins: ping still
 *                answers, its solve is answered `timeout` and its worker
 *                killed; with --isolate none it still never runs on the
 *                loop (ping answers) and SIGTERM still ends the daemon
 *   flag         --isolate takes all, third-party and none only; with all,
 *                every built-in plugin runs in workers, answers checked
 *   explain      explain through --isolate all answers exactly as in
 *                process (same steps, same rating)
 *
 * Bounds on time only separate "answered" from "never" (two busy cores,
 * sanitizer builds).
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
#include <sys/stat.h>
#include <unistd.h>

#include "daemon_harness.h"

#define PLUGIN(name) SUDOKU_TEST_PLUGIN_DIR "/" name ".so"
#define BOUND_MS     10000 /* "answered", as opposed to "never" */
#define PIPELINED    64    /* bitmask solves in flight on the other connection */

static char *puzzles[PIPELINED];
static int puzzles_len;
static struct dh sd; /* this test's daemon */

static int setup(void **state)
{
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_17clue.txt", puzzles, PIPELINED);
    return puzzles_len == PIPELINED ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    dh_free_lines(puzzles, puzzles_len);
    return 0;
}

static int stop_daemon(void **state)
{
    (void)state;
    dh_cleanup(&sd);
    return 0;
}

static void send_solve(int fd, uint32_t msgid, const char *puzzle, const char *solver,
                       uint64_t timeout_ms)
{
    msgpack_sbuffer sb;

    msgpack_sbuffer_init(&sb);
    dh_pack_solve(&sb, msgid, puzzle, solver, 0, timeout_ms);
    assert_int_equal(dh_send(fd, sb.data, sb.size), 0);
    msgpack_sbuffer_destroy(&sb);
}

/* Read until the response to msgid into *u (destroy it). */
static void read_response(struct dh_reader *r, uint32_t msgid, msgpack_unpacked *u)
{
    uint32_t id = 0;

    for (;;) {
        assert_int_equal(dh_read(r, u, BOUND_MS), 0);
        if (dh_is_response(&u->data, &id) && id == msgid)
            return;
    }
}

/* The error response u must be code, its message holding text (NULL: any). */
static void check_error(const msgpack_unpacked *u, const char *code, const char *text)
{
    const msgpack_object *m;
    char buf[32], msg[256];

    assert_non_null(dh_error_code(&u->data, buf, sizeof(buf)));
    assert_string_equal(buf, code);
    m = dh_map_get(&u->data.via.array.ptr[2], "message");
    assert_non_null(m);
    snprintf(msg, sizeof(msg), "%.*s", (int)m->via.str.size, m->via.str.ptr);
    if (text && !strstr(msg, text))
        fail_msg("message \"%s\" lacks \"%s\"", msg, text);
}

/* The response to msgid must be the error code whose message holds text
 * (NULL: any message). */
static void expect_error(struct dh_reader *r, uint32_t msgid, const char *code, const char *text)
{
    msgpack_unpacked u;

    msgpack_unpacked_init(&u);
    read_response(r, msgid, &u);
    check_error(&u, code, text);
    msgpack_unpacked_destroy(&u);
}

/* Solve with solver on a fresh connection: the error code and text. */
static void expect_solve_error(const char *solver, const char *code, const char *text)
{
    struct dh_reader r;
    int fd = dh_connect(sd.sock);

    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    send_solve(fd, 1, puzzles[0], solver, 0);
    expect_error(&r, 1, code, text);
    dh_reader_close(&r);
}

/* Every answer to msgids 1..len on r is a correct solution of puzzles[]. */
static void expect_solved(struct dh_reader *r, int len)
{
    msgpack_unpacked u;
    uint32_t id = 0;
    int got = 0;

    msgpack_unpacked_init(&u);
    while (got < len) {
        assert_int_equal(dh_read(r, &u, BOUND_MS), 0);
        if (!dh_is_response(&u.data, &id))
            continue;
        assert_true(id >= 1 && id <= (uint32_t)len);
        assert_non_null(dh_result(&u.data));
        assert_int_equal(dh_check_solved(dh_result(&u.data), puzzles[id - 1]), 0);
        got++;
    }
    msgpack_unpacked_destroy(&u);
}

/* Start sd with the extra arguments (NULL-terminated, at most 14). */
static void start(const char *const *extra)
{
    assert_int_equal(dh_start(&sd, extra), 0);
}

/* SIGTERM must end the daemon cleanly, within the bound. */
static void expect_clean_stop(void)
{
    uint64_t t0 = dh_now_ms();

    assert_int_equal(dh_stop(&sd), 0);
    assert_true(dh_now_ms() - t0 < BOUND_MS);
}

/* The escape plugins' marker directory, made by setup_markers(). */
static char marker_dir[] = "/tmp/sudokud-crash9.XXXXXX";

/* An empty marker directory, named in SUDOKU_CRASH9_DIR for the daemon's
 * children (tests/plugins/crash9.c). */
static void setup_markers(void)
{
    assert_non_null(mkdtemp(marker_dir));
    assert_int_equal(setenv("SUDOKU_CRASH9_DIR", marker_dir, 1), 0);
}

/* Does plugin name's marker file exist? */
static int has_marker(const char *name)
{
    char path[sizeof(marker_dir) + 64];

    snprintf(path, sizeof(path), "%s/%s", marker_dir, name);
    return access(path, F_OK) == 0;
}

static void remove_markers(void)
{
    static const char *const names[] = {"crash_socket", "crash_exec", "crash_write", "crash_fork"};
    char path[sizeof(marker_dir) + 64];

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", marker_dir, names[i]);
        unlink(path);
    }
    rmdir(marker_dir);
    unsetenv("SUDOKU_CRASH9_DIR");
}

/* ------------------------------------------------------------------ tests */

static void test_crashes(void **state)
{
    static const char *const ways[] = {"crash_segv", "crash_exit", "crash_abort", "crash_overrun"};
    const char *argv[] = {"-j",       "2",
                          "--plugin", PLUGIN("crash_segv"),
                          "--plugin", PLUGIN("crash_exit"),
                          "--plugin", PLUGIN("crash_abort"),
                          "--plugin", PLUGIN("crash_overrun"),
                          NULL};
    struct dh_reader a, b;
    struct stat st;
    int fa, fb;

    (void)state;
    start(argv);
    fa = dh_connect(sd.sock);
    fb = dh_connect(sd.sock);
    assert_true(fa >= 0 && fb >= 0);
    dh_reader_init(&a, fa);
    dh_reader_init(&b, fb);
    for (int k = 0; k < 4; k++)
        send_solve(fb, (uint32_t)k + 1, puzzles[k], ways[k], 0);
    for (int i = 0; i < PIPELINED; i++)
        send_solve(fa, (uint32_t)i + 1, puzzles[i], "bitmask", 0);
    for (int k = 0; k < 4; k++) { /* in any order */
        msgpack_unpacked u;
        uint32_t id = 0;
        msgpack_unpacked_init(&u);
        assert_int_equal(dh_read(&b, &u, BOUND_MS), 0);
        assert_true(dh_is_response(&u.data, &id) && id >= 1 && id <= 4);
        /* the overrun may crash its worker or give a wrong answer */
        check_error(&u, "internal", id < 4 ? "crashed" : NULL);
        msgpack_unpacked_destroy(&u);
    }
    expect_solved(&a, PIPELINED);
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    assert_int_equal(stat(sd.sock, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    dh_reader_close(&a);
    dh_reader_close(&b);
    expect_clean_stop();
    assert_true(dh_log_has(&sd, "plugin crash_segv crashed under a job"));
    /* A sanitizer build's worker reports the bad store and exits instead
     * (TSan's report goes to its log_path file, which the worker's filter
     * will not let it open: only the first line reaches stderr) */
    assert_true(dh_log_has(&sd, "signal 11") || dh_log_has(&sd, "store to null pointer") ||
                dh_log_has(&sd, "AddressSanitizer: SEGV") ||
                dh_log_has(&sd, "ThreadSanitizer:DEADLYSIGNAL"));
    assert_true(dh_log_has(&sd, "exit status 7"));
    assert_true(dh_log_has(&sd, "signal 6"));
}

/* msgids 1..len on r answer `internal`, in any order; those of the ways
 * listed in crashed[] (by index, 1 or 0) as "crashed", the others as a
 * failed solve. */
static void expect_internal(struct dh_reader *r, int len, const int *crashed)
{
    for (int k = 0; k < len; k++) {
        msgpack_unpacked u;
        uint32_t id = 0;
        msgpack_unpacked_init(&u);
        assert_int_equal(dh_read(r, &u, BOUND_MS), 0);
        assert_true(dh_is_response(&u.data, &id) && id >= 1 && id <= (uint32_t)len);
        check_error(&u, "internal", crashed[id - 1] ? "crashed" : "failed or gave a wrong answer");
        msgpack_unpacked_destroy(&u);
    }
}

static void test_escapes(void **state)
{
    static const char *const ways[] = {"crash_socket", "crash_exec", "crash_write", "crash_fork"};
    static const int crashed[] = {0, 1, 0, 0}; /* exec kills; the rest fail with EPERM */
    const char *argv[] = {"-j",       "2",
                          "--plugin", PLUGIN("crash_socket"),
                          "--plugin", PLUGIN("crash_exec"),
                          "--plugin", PLUGIN("crash_write"),
                          "--plugin", PLUGIN("crash_fork"),
                          "--plugin", PLUGIN("crash_thread"),
                          NULL};
    const char *none[] = {
        "--isolate", "none", "--plugin", PLUGIN("crash_write"), "--plugin", PLUGIN("crash_socket"),
        NULL};
    struct dh_reader a, b;
    int fa, fb;

    (void)state;
    setup_markers();
    start(argv);
    assert_true(dh_log_has(&sd, "plugin workers: seccomp filter"));
    fa = dh_connect(sd.sock);
    fb = dh_connect(sd.sock);
    assert_true(fa >= 0 && fb >= 0);
    dh_reader_init(&a, fa);
    dh_reader_init(&b, fb);
    for (int k = 0; k < 4; k++)
        send_solve(fb, (uint32_t)k + 1, puzzles[k], ways[k], 0);
    for (int i = 0; i < PIPELINED; i++)
        send_solve(fa, (uint32_t)i + 1, puzzles[i], "bitmask", 0);
    expect_internal(&b, 4, crashed);
    expect_solved(&a, PIPELINED);
    for (int k = 0; k < 4; k++)
        if (has_marker(ways[k]))
            fail_msg("%s got out of its worker: %s/%s exists", ways[k], marker_dir, ways[k]);
    /* threads are allowed: the plugin says so with SDK_TIMEDOUT */
    expect_solve_error("crash_thread", "timeout", NULL);
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    dh_reader_close(&a);
    dh_reader_close(&b);
    expect_clean_stop();
    assert_true(dh_log_has(&sd, "plugin crash_exec crashed under a job"));
    assert_true(dh_log_has(&sd, "signal 31"));
    dh_cleanup(&sd);

    /* the control: in the daemon's process the same plugins do get out */
    start(none);
    expect_solve_error("crash_write", "internal", NULL);
    expect_solve_error("crash_socket", "internal", NULL);
    assert_true(has_marker("crash_write"));
    assert_true(has_marker("crash_socket"));
    expect_clean_stop();
    remove_markers();
}

static void test_liar(void **state)
{
    const char *argv[] = {"--plugin", SUDOKU_TEST_PLUGIN, "--isolate", "third-party", NULL};

    (void)state;
    start(argv);
    assert_true(dh_log_has(&sd, "plugin liar9 runs in worker processes"));
    expect_solve_error("liar9", "internal", "failed or gave a wrong answer");
    expect_clean_stop();
}

static void test_disable(void **state)
{
    const char *argv[] = {"--plugin", PLUGIN("crash_segv"), NULL};

    (void)state;
    start(argv);
    for (int i = 0; i < 5; i++)
        expect_solve_error("crash_segv", "internal", "plugin crash_segv crashed");
    expect_solve_error("crash_segv", "unsupported",
                       "plugin crash_segv disabled after 5 crashes; reload to retry");
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    assert_int_equal(kill(sd.pid, SIGHUP), 0);
    assert_true(dh_log_has(&sd, "plugin crash_segv enabled again"));
    expect_solve_error("crash_segv", "internal", "plugin crash_segv crashed");
    expect_clean_stop();
}

/* spin_prompt's solve runs while ping answers; it times out. */
static void spin_while_ping(void)
{
    struct dh_reader r;
    int fd = dh_connect(sd.sock);

    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    send_solve(fd, 1, puzzles[0], "spin_prompt", 300);
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    expect_error(&r, 1, "timeout", NULL);
    dh_reader_close(&r);
}

static void test_spin_prompt(void **state)
{
    const char *argv[] = {"--plugin", PLUGIN("spin_prompt"), NULL};
    const char *none[] = {"--plugin", PLUGIN("spin_prompt"), "--isolate", "none", NULL};
    struct dh_reader r;
    int fd;

    (void)state;
    start(argv);
    spin_while_ping();
    assert_true(dh_log_has(&sd, "plugin spin_prompt: worker"));
    assert_true(dh_log_has(&sd, "killed, still running 100 ms past its deadline"));
    fd = dh_connect(sd.sock); /* the daemon serves on */
    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    send_solve(fd, 1, puzzles[0], "bitmask", 0);
    expect_solved(&r, 1);
    dh_reader_close(&r);
    expect_clean_stop();
    dh_cleanup(&sd);

    start(none); /* in process: still never on the loop */
    spin_while_ping();
    fd = dh_connect(sd.sock);
    assert_true(fd >= 0);
    send_solve(fd, 2, puzzles[1], "spin_prompt", 0); /* no deadline of its own */
    assert_int_equal(dh_ping(sd.sock, BOUND_MS), 0);
    close(fd);
    assert_true(dh_stop(&sd) >= 0); /* ends, though a thread is lost in the plugin */
}

static void test_flag(void **state)
{
    const char *bad[] = {"--isolate", "some", NULL};
    const char *all[] = {"--isolate", "all", NULL};
    struct dh_reader r;
    int fd;

    (void)state;
    assert_int_equal(dh_init(&sd), 0);
    assert_int_equal(dh_spawn(&sd, bad), 0);
    assert_int_equal(dh_wait(&sd, BOUND_MS), 2);
    assert_true(dh_log_has(&sd, "want all, third-party or none"));
    dh_cleanup(&sd);

    start(all);
    assert_true(dh_log_has(&sd, "plugin bitmask runs in worker processes (isolate all)"));
    fd = dh_connect(sd.sock);
    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    for (int i = 0; i < PIPELINED; i++)
        send_solve(fd, (uint32_t)i + 1, puzzles[i], i % 2 ? "dlx" : NULL, 0);
    expect_solved(&r, PIPELINED);
    dh_reader_close(&r);
    expect_clean_stop();
}

/* The explain answer's steps and rating for puzzle, from a daemon started
 * with isolate mode; *u holds them (destroy it). */
static const msgpack_object *explain_with(const char *mode, const char *puzzle, msgpack_unpacked *u)
{
    const char *argv[] = {"--isolate", mode, NULL};
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    const msgpack_object *res;
    int fd;

    dh_cleanup(&sd);
    start(argv);
    fd = dh_connect(sd.sock);
    assert_true(fd >= 0);
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    dh_pack_head(&pk, &sb, 1, "explain", 1);
    dh_pack_str(&pk, puzzle);
    assert_int_equal(dh_send(fd, sb.data, sb.size), 0);
    msgpack_sbuffer_destroy(&sb);
    read_response(&r, 1, u);
    res = dh_result(&u->data);
    assert_non_null(res);
    dh_reader_close(&r);
    expect_clean_stop();
    return res;
}

static void test_explain(void **state)
{
    static const char *const keys[] = {"status", "steps", "rating", "hardest", "difficulty"};
    msgpack_unpacked a, b;
    const msgpack_object *ra, *rb;

    (void)state;
    msgpack_unpacked_init(&a);
    msgpack_unpacked_init(&b);
    ra = explain_with("all", puzzles[3], &a);
    rb = explain_with("none", puzzles[3], &b);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const msgpack_object *va = dh_map_get(ra, keys[i]), *vb = dh_map_get(rb, keys[i]);
        assert_non_null(va);
        assert_non_null(vb);
        assert_true(msgpack_object_equal(*va, *vb));
    }
    assert_true(dh_map_get(ra, "steps")->via.array.size > 0);
    msgpack_unpacked_destroy(&a);
    msgpack_unpacked_destroy(&b);
}

/* The crash plugins fault on purpose.  Under ThreadSanitizer a fault in a
 * worker would be reported to scripts/tsan.sh's log directory, and any
 * report there fails the run: let the daemons started here die of the signal
 * as a production build does (the daemon's log says which signal). */
static void let_faults_be_signals(void)
{
    static const char quiet[] = "handle_segv=0 handle_sigbus=0 handle_sigfpe=0 handle_sigill=0";
    const char *old = getenv("TSAN_OPTIONS");
    char buf[1024];

    if (!old)
        return;
    snprintf(buf, sizeof(buf), "%s %s", old, quiet);
    setenv("TSAN_OPTIONS", buf, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_crashes, stop_daemon),     /* others unharmed */
        cmocka_unit_test_teardown(test_escapes, stop_daemon),     /* seccomp */
        cmocka_unit_test_teardown(test_liar, stop_daemon),        /* lies refused */
        cmocka_unit_test_teardown(test_disable, stop_daemon),     /* 5 crashes, reload */
        cmocka_unit_test_teardown(test_spin_prompt, stop_daemon), /* false PROMPT */
        cmocka_unit_test_teardown(test_flag, stop_daemon),        /* --isolate */
        cmocka_unit_test_teardown(test_explain, stop_daemon),     /* same steps */
    };

    let_faults_be_signals();
    return cmocka_run_group_tests(tests, setup, teardown);
}
