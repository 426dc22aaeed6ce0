/* test_client_hint.c -- sudoku hint, explain and rate: the tool's output and exit codes.
 *
 * A fake daemon in a child process answers explain and rate on a socket in
 * a temporary directory, from what each request says: a puzzle with fewer
 * than four givens is not_unique; a rating is the puzzle's number of givens
 * (so the order of the answers can be checked against the input); an
 * explanation has as many steps as asked (three when not limited), each
 * text naming the puzzle and, with --progress, the player's grid.  The tool
 * runs as a child (fork/exec, stdout and stderr to files, wait for its exit
 * code).  The same tool against the real daemon: test_client_explain_e2e.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <msgpack.h>

#include "tests/fake_peer.h"
#include "tests/tool_run.h"

static char tmpdir[64];

static void path_in_tmp(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

/* ------------------------------------------------------------------------ */
/* The fake daemon */

static void pk_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

static const msgpack_object *map_get(const msgpack_object *m, const char *key)
{
    if (!m || m->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < m->via.map.size; i++)
        if (m->via.map.ptr[i].key.type == MSGPACK_OBJECT_STR &&
            m->via.map.ptr[i].key.via.str.size == strlen(key) &&
            memcmp(m->via.map.ptr[i].key.via.str.ptr, key, strlen(key)) == 0)
            return &m->via.map.ptr[i].val;
    return NULL;
}

/* Givens of a puzzle in the str or the array form; its line form in text. */
static unsigned givens(const msgpack_object *p, char *text, size_t size)
{
    unsigned count = 0;
    size_t len = 0;
    if (p->type == MSGPACK_OBJECT_STR) {
        for (uint32_t i = 0; i < p->via.str.size; i++)
            count += p->via.str.ptr[i] != '.' && p->via.str.ptr[i] != '0';
        len = p->via.str.size < size - 1 ? p->via.str.size : size - 1;
        memcpy(text, p->via.str.ptr, len);
    } else if (p->type == MSGPACK_OBJECT_ARRAY) {
        for (uint32_t i = 0; i < p->via.array.size && len < size - 1; i++) {
            count += p->via.array.ptr[i].via.u64 != 0;
            text[len++] =
                p->via.array.ptr[i].via.u64 ? (char)('0' + p->via.array.ptr[i].via.u64) : '.';
        }
    }
    text[len] = '\0';
    return count;
}

static void pack_explanation(msgpack_packer *pk, const char *text, const msgpack_object *opts)
{
    const msgpack_object *steps = map_get(opts, "steps"), *progress = map_get(opts, "progress");
    unsigned n =
        steps && steps->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (unsigned)steps->via.u64 : 3;
    char line[1024], grid[64] = "none";

    if (progress && progress->type == MSGPACK_OBJECT_STR && progress->via.str.size < sizeof(grid))
        snprintf(grid, sizeof(grid), "%.*s", (int)progress->via.str.size, progress->via.str.ptr);
    msgpack_pack_nil(pk);
    msgpack_pack_map(pk, 6);
    pk_str(pk, "status");
    pk_str(pk, n >= 3 ? "solved" : "partial");
    pk_str(pk, "rating");
    msgpack_pack_double(pk, 2.6);
    pk_str(pk, "difficulty");
    pk_str(pk, "medium");
    pk_str(pk, "hardest");
    pk_str(pk, "locked_candidates_pointing");
    pk_str(pk, "solver");
    pk_str(pk, "logic");
    pk_str(pk, "steps");
    msgpack_pack_array(pk, n);
    for (unsigned i = 0; i < n; i++) {
        msgpack_pack_map(pk, 6);
        pk_str(pk, "technique");
        pk_str(pk, "hidden_single");
        pk_str(pk, "rating");
        msgpack_pack_double(pk, 1.5);
        pk_str(pk, "placements");
        msgpack_pack_array(pk, 1);
        msgpack_pack_array(pk, 2);
        msgpack_pack_uint8(pk, (uint8_t)i);
        msgpack_pack_uint8(pk, 1);
        pk_str(pk, "eliminations");
        msgpack_pack_array(pk, 0);
        pk_str(pk, "cells");
        msgpack_pack_array(pk, 1);
        msgpack_pack_uint8(pk, (uint8_t)i);
        pk_str(pk, "text");
        snprintf(line, sizeof(line), "step %u of %s from %s", i + 1, text, grid);
        pk_str(pk, line);
    }
}

static void pack_rating(msgpack_packer *pk, unsigned count)
{
    msgpack_pack_nil(pk);
    msgpack_pack_map(pk, 5);
    pk_str(pk, "rating");
    msgpack_pack_double(pk, (double)count);
    pk_str(pk, "difficulty");
    pk_str(pk, "easy");
    pk_str(pk, "hardest");
    pk_str(pk, "hidden_single");
    pk_str(pk, "steps");
    msgpack_pack_uint8(pk, 3);
    pk_str(pk, "logic");
    msgpack_pack_true(pk);
}

/* Answer one request [0, msgid, method, params] on fd. */
static void fake_answer(int fd, const msgpack_object *req)
{
    const msgpack_object *a = req->via.array.ptr, *params = &a[3];
    const msgpack_object *opts = params->via.array.size > 1 ? &params->via.array.ptr[1] : NULL;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    char text[700] = "";
    int is_solvers = a[2].via.str.size == 7 && memcmp(a[2].via.str.ptr, "solvers", 7) == 0;
    unsigned count = is_solvers ? 0 : givens(&params->via.array.ptr[0], text, sizeof(text));

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint8(&pk, 1);
    msgpack_pack_uint32(&pk, (uint32_t)a[1].via.u64);
    if (is_solvers) { /* one solver, logic */
        msgpack_pack_nil(&pk);
        msgpack_pack_array(&pk, 1);
        msgpack_pack_map(&pk, 1);
        pk_str(&pk, "name");
        pk_str(&pk, "logic");
    } else if (count < 4) {
        msgpack_pack_map(&pk, 2);
        pk_str(&pk, "code");
        pk_str(&pk, "not_unique");
        pk_str(&pk, "message");
        pk_str(&pk, "more than one solution");
        msgpack_pack_nil(&pk);
    } else if (a[2].via.str.size == 7 && memcmp(a[2].via.str.ptr, "explain", 7) == 0) {
        pack_explanation(&pk, text, opts);
    } else {
        pack_rating(&pk, count);
    }
    if (write(fd, sb.data, sb.size) != (ssize_t)sb.size)
        _exit(1);
    msgpack_sbuffer_destroy(&sb);
}

/* Serve one connection on path in a child; after `answers` answers (< 0:
 * no limit) close it.  Returns the child's pid. */
static pid_t fake_daemon(const char *path, int answers)
{
    int fd = -1;
    pid_t pid = fake_peer_fork_listener(path, &fd);
    if (pid > 0)
        return pid;
    msgpack_unpacker u;
    msgpack_unpacked m;
    msgpack_unpacker_init(&u, 1 << 16);
    msgpack_unpacked_init(&m);
    for (int done = 0; answers < 0 || done < answers;) {
        msgpack_unpacker_reserve_buffer(&u, 4096);
        ssize_t n = read(fd, msgpack_unpacker_buffer(&u), 4096);
        if (n <= 0)
            _exit(0);
        msgpack_unpacker_buffer_consumed(&u, (size_t)n);
        while ((answers < 0 || done < answers) &&
               msgpack_unpacker_next(&u, &m) == MSGPACK_UNPACK_SUCCESS) {
            fake_answer(fd, &m.data);
            done++;
        }
    }
    shutdown(fd, SHUT_WR); /* an end, then read on so that it is not a reset */
    char junk[4096];
    while (read(fd, junk, sizeof(junk)) > 0)
        ;
    _exit(0);
}

/* ------------------------------------------------------------------------ */
/* Running the tool */

/* Run the tool against a fake daemon answering `answers` requests. */
static void run_fake(struct tool_run *r, int answers, const char *const *args)
{
    char sock[128];
    const char *head[] = {"sudoku", "-s", sock, NULL};
    const char *argv[32];

    path_in_tmp(sock, sizeof(sock), "fake.sock");
    tool_run_argv(argv, 32, head, args);
    pid_t fake = fake_daemon(sock, answers);
    tool_run_prog(r, tmpdir, NULL, "sudoku", argv);
    kill(fake, SIGTERM);
    waitpid(fake, NULL, 0);
}

static void write_file(const char *name, const char *text, char *path, size_t size)
{
    path_in_tmp(path, size, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* Four 4x4 puzzles in the line form, with 6, 7, 1 (not unique) and 5 givens. */
#define LINES4                                                                                     \
    "1..4..1..1..4..1\n"                                                                           \
    "12.4..1..1..4.3.\n"                                                                           \
    "1...............\n"                                                                           \
    "1..4..1..1..4...\n"

/* ------------------------------------------------------------------------ */
/* Tests */

static void test_hint_prints_the_step(void **state)
{
    static struct tool_run r;
    char in[128];
    (void)state;
    write_file("one.txt", "1..4..1..1..4..1\n", in, sizeof(in));
    const char *args[] = {"hint", in, NULL};
    run_fake(&r, -1, args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "step 1 of 1..4..1..1..4..1 from none\n"); /* steps 1 was asked */
    assert_string_equal(r.err, "");
    /* --steps 2: two lines; --progress: sent along */
    char grid[128];
    write_file("grid.txt", "12.4..1..1..4..1\n", grid, sizeof(grid));
    const char *args2[] = {"hint", "--steps", "2", "--progress", grid, in, NULL};
    run_fake(&r, -1, args2);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "step 1 of 1..4..1..1..4..1 from 12.4..1..1..4..1\n"
                               "step 2 of 1..4..1..1..4..1 from 12.4..1..1..4..1\n");
}

static void test_explain_numbers_steps(void **state)
{
    static struct tool_run r;
    char in[128];
    (void)state;
    /* a judge grid: sent in the line form */
    write_file("grid4.txt", "1 0 0 4\n0 0 1 0\n0 1 0 0\n4 0 0 1\n", in, sizeof(in));
    const char *args[] = {"explain", in, NULL};
    run_fake(&r, -1, args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "1. step 1 of 1..4..1..1..4..1 from none\n"
                               "2. step 2 of 1..4..1..1..4..1 from none\n"
                               "3. step 3 of 1..4..1..1..4..1 from none\n"
                               "solved: 3 steps, rating 2.6, difficulty medium, hardest "
                               "locked_candidates_pointing\n");
}

/* Several puzzles: not_unique on stderr with file and line, the others
 * answered, exit 1; --json keeps one object per puzzle. */
static void test_explain_not_unique(void **state)
{
    static struct tool_run r;
    char in[128];
    (void)state;
    write_file("four.txt", LINES4, in, sizeof(in));
    const char *args[] = {"hint", in, NULL};
    run_fake(&r, -1, args);
    assert_int_equal(r.status, 1);
    assert_int_equal(count_of(r.out, "\n"), 3 + 2); /* three hints, a blank line between */
    assert_int_equal(count_of(r.out, "\n\n"), 2);
    assert_int_equal(count_of(r.err, "four.txt:3: not_unique: more than one solution\n"), 1);
    const char *json[] = {"explain", "--json", in, NULL};
    run_fake(&r, -1, json);
    assert_int_equal(r.status, 1);
    assert_int_equal(count_of(r.out, "\n"), 4);
    assert_int_equal(count_of(r.out, "{\"line\":"), 4);
    assert_int_equal(count_of(r.out, "\"status\":\"not_unique\",\"code\":\"not_unique\""), 1);
    assert_int_equal(count_of(r.out, "\"steps\":[{\"technique\":\"hidden_single\",\"rating\":1.5,"
                                     "\"placements\":[[0,1]],\"eliminations\":[],\"cells\":[0],"
                                     "\"text\":"),
                     3);
    assert_int_equal(count_of(r.out, "\"rating\":2.6,\"difficulty\":\"medium\""), 3);
}

/* Ratings come back in input order over several files. */
static void test_rate_order(void **state)
{
    static struct tool_run r;
    char a[128], b[128], want[1024];
    (void)state;
    write_file("a.txt", LINES4, a, sizeof(a));
    write_file("b.txt", "1..4..1..1..4...\n1..4..1..1..4..1\n", b, sizeof(b));
    const char *args[] = {"rate", "-w", "3", a, b, NULL};
    run_fake(&r, -1, args);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "6.0 easy hidden_single\n"
                               "7.0 easy hidden_single\n"
                               "5.0 easy hidden_single\n"
                               "5.0 easy hidden_single\n"
                               "6.0 easy hidden_single\n");
    assert_int_equal(count_of(r.err, "a.txt:3: not_unique"), 1);
    const char *json[] = {"rate", "--json", b, NULL};
    run_fake(&r, -1, json);
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof(want),
             "{\"line\":1,\"rating\":5,\"difficulty\":\"easy\",\"hardest\":"
             "\"hidden_single\",\"steps\":3,\"logic\":true,\"solver\":\"\","
             "\"elapsed_us\":0,\"file\":\"%s\"}\n"
             "{\"line\":2,\"rating\":6,\"difficulty\":\"easy\",\"hardest\":"
             "\"hidden_single\",\"steps\":3,\"logic\":true,\"solver\":\"\","
             "\"elapsed_us\":0,\"file\":\"%s\"}\n",
             b, b);
    assert_string_equal(r.out, want);
}

/* A daemon gone mid-run: what came is printed, one line says so, exit 3. */
static void test_lost_daemon(void **state)
{
    static struct tool_run r;
    char in[128];
    (void)state;
    write_file("four.txt", LINES4, in, sizeof(in));
    const char *rate[] = {"rate", "-w", "1", in, NULL};
    run_fake(&r, 2, rate);
    assert_int_equal(r.status, 3);
    assert_int_equal(count_of(r.out, "\n"), 2);
    assert_int_equal(count_of(r.err, "lost the daemon"), 1);
    assert_int_equal(count_of(r.err, "\n"), 1);
    const char *explain[] = {"explain", in, NULL};
    run_fake(&r, 1, explain);
    assert_int_equal(r.status, 3);
    assert_int_equal(count_of(r.err, "lost the daemon"), 1);
}

/* Usage errors are exit 2 before anything is asked; -h is each one's help. */
static void test_usage(void **state)
{
    static struct tool_run r;
    (void)state;
    const char *two_files[] = {"hint", "/nonexistent/x", "/nonexistent/y", NULL};
    run_fake(&r, -1, two_files); /* no usage error: hint takes many FILEs, each is tried */
    assert_int_equal(r.status, 1);
    assert_int_equal(count_of(r.err, "cannot open /nonexistent/"), 2);
    const char *rate_steps[] = {"rate", "--steps", "2", NULL};
    run_fake(&r, -1, rate_steps);
    assert_int_equal(r.status, 2);
    /* --local without plugins: exit 1 (nothing to answer with; no daemon
     * was out of reach), and why: where it looked, what to do */
    const char *local[] = {"explain", "--local", "-P", "/nonexistent/dir", NULL};
    run_fake(&r, -1, local);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "name their directory with -P DIR"));
    assert_non_null(strstr(r.err, "no solver plugin loaded from /nonexistent/dir"));
    const char *no_progress[] = {"hint", "--progress", "/nonexistent/grid", NULL};
    run_fake(&r, -1, no_progress);
    assert_int_equal(r.status, 2);
    /* a --solver the daemon lacks: one error naming what it has */
    char in[128];
    write_file("four.txt", LINES4, in, sizeof(in));
    static const char *const subs[] = {"hint", "rate"};
    for (size_t i = 0; i < 2; i++) {
        const char *nosuch[] = {subs[i], "--solver", "nosuch", in, NULL};
        run_fake(&r, -1, nosuch);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_int_equal(count_of(r.err, "no solver named \"nosuch\" (it has: logic)"), 1);
        const char *logic[] = {subs[i], "--solver", "logic", in, NULL};
        run_fake(&r, -1, logic);
        assert_int_equal(r.status, 1); /* the third puzzle is not unique */
    }
    static const char *const cmds[] = {"hint", "explain", "rate"};
    for (size_t i = 0; i < 3; i++) {
        const char *help[] = {cmds[i], "-h", NULL};
        char want[64];
        run_fake(&r, -1, help);
        assert_int_equal(r.status, 0);
        snprintf(want, sizeof(want), "usage: sudoku %s ", cmds[i]);
        assert_non_null(strstr(r.out, want));
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/sudoku-hint-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    static const char *const files[] = {"out.txt",   "err.txt",  "fake.sock", "one.txt", "grid.txt",
                                        "grid4.txt", "four.txt", "a.txt",     "b.txt"};
    char path[128];
    (void)state;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        path_in_tmp(path, sizeof(path), files[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    return 0;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_prints_the_step), cmocka_unit_test(test_explain_numbers_steps),
        cmocka_unit_test(test_explain_not_unique),   cmocka_unit_test(test_rate_order),
        cmocka_unit_test(test_lost_daemon),          cmocka_unit_test(test_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
