/* test_host.c -- the plugin host: what it refuses, what it checks.
 *
 * Runs against tests/badplugins (SUDOKU_BADPLUGIN_DIR), a directory of tiny
 * test plugins built from tests/plugins/tplugin.c that each break one rule of
 * the ABI, plus a good one (tgood, 4x4 only) and a liar that loads and then
 * answers wrongly in the way job->limit chooses.  Log lines are captured so
 * the tests can assert that each refusal names the file and the reason.
 * The strict-modes tests build their own trees of directories, symbolic
 * links and FIFOs under /tmp (itself sticky and world-writable, as a CI
 * clone's parent may be).
 */
#define _GNU_SOURCE /* unshare(), CLONE_NEWNS */

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/grid.h"
#include "core/host.h"
#include "util/clock.h"

#define LOG_LINES_MAX 64

/* Captured log lines. */
struct log_capture {
    pthread_mutex_t lock;
    char lines[LOG_LINES_MAX][512];
    int levels[LOG_LINES_MAX];
    size_t len;
};

static void capture_log(void *ctx, int level, const char *msg)
{
    struct log_capture *c = ctx;

    pthread_mutex_lock(&c->lock);
    if (c->len < LOG_LINES_MAX) {
        snprintf(c->lines[c->len], sizeof(c->lines[0]), "%s", msg);
        c->levels[c->len++] = level;
    }
    pthread_mutex_unlock(&c->lock);
}

/* Number of captured lines containing every one of the given strings. */
static int count_lines(const struct log_capture *c, const char *a, const char *b)
{
    int hits = 0;

    for (size_t i = 0; i < c->len; i++) {
        if (strstr(c->lines[i], a) && (!b || strstr(c->lines[i], b)))
            hits++;
    }
    return hits;
}

static void dump_log(const struct log_capture *c)
{
    for (size_t i = 0; i < c->len; i++)
        print_message("  log[%zu] level %d: %s\n", i, c->levels[i], c->lines[i]);
}

/* Fixture: a host loaded from the bad plugin directory. */
struct fixture {
    struct log_capture log;
    struct host *host;
    int loaded;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));

    if (!f)
        return -1;
    pthread_mutex_init(&f->log.lock, NULL);
    f->host = host_new(capture_log, &f->log);
    if (!f->host)
        return -1;
    f->loaded = host_load_dir(f->host, SUDOKU_BADPLUGIN_DIR);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    host_free(f->host);
    pthread_mutex_destroy(&f->log.lock);
    free(f);
    return 0;
}

/* ---------------------------------------------------------------- loading */

/* Each refused file and the words its one log line must contain. */
static const struct refusal {
    const char *file;
    const char *reason;
} refusals[] = {
    {"/b_dup.so", "duplicate name"},         /* same name as a_good.so */
    {"/c_badabi.so", "wrong ABI major"},     /* abi_major 99 */
    {"/d_nosolve.so", "missing solve"},      /* solve == NULL */
    {"/e_badname.so", "bad or empty name"},  /* "Bad Name" */
    {"/f_nosizes.so", "no grid size"},       /* sizes == 0 */
    {"/g_nullentry.so", "returned NULL"},    /* entry returns NULL */
    {"/h_initfail.so", "init() failed"},     /* init returns -EIO */
    {"/i_small.so", "descriptor too small"}, /* struct_size 8 */
    {"/j_notplugin.so", "not a plugin"},     /* no entry symbol */
    {"/k_garbage.so", "not a plugin"},       /* not ELF at all */
    {"/l_escdesc.so", "bad description"},    /* ESC [ 3 1 m */
    {"/m_crver.so", "bad version"},          /* "1.0\r" */
    {"/n_latin1.so", "bad description"},     /* 0xe9 alone */
    {"/o_c1desc.so", "bad description"},     /* U+0085 */
    {"/p_longver.so", "bad version"},        /* 32 bytes */
    {"/q_nodelete.so", "init() failed"},     /* stays loaded (-z nodelete) */
};

static void test_refusals_logged_rest_load(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(f->loaded, 2);
    assert_int_equal(host_count(f->host), 2);
    assert_string_equal(host_plugin_at(f->host, 0)->desc->name, "tgood");
    assert_string_equal(host_plugin_at(f->host, 1)->desc->name, "liar");
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        /* Exactly one line about the file, and it gives the reason. */
        int about = count_lines(&f->log, refusals[i].file, NULL);
        int with_reason = count_lines(&f->log, refusals[i].file, refusals[i].reason);
        if (about != 1 || with_reason != 1) {
            print_error("%s: %d lines, %d with \"%s\"\n", refusals[i].file, about, with_reason,
                        refusals[i].reason);
            dump_log(&f->log);
        }
        assert_int_equal(about, 1);
        assert_int_equal(with_reason, 1);
    }
}

static void test_plugin_log_is_prefixed(void **state)
{
    struct fixture *f = *state;

    /* init() of both loaded plugins logged through the host table. */
    assert_int_equal(count_lines(&f->log, "tgood: hello from init", NULL), 1);
    assert_int_equal(count_lines(&f->log, "liar: hello from init", NULL), 1);
}

static void test_load_file_results(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/j_notplugin.so"), -ENOEXEC);
    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/k_garbage.so"), -ENOEXEC);
    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/no_such.so"), -ENOENT);
    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/c_badabi.so"), -EPROTO);
    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/d_nosolve.so"), -EPROTO);
    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/a_good.so"), -EEXIST);
    assert_int_equal(host_load_file(f->host, SUDOKU_BADPLUGIN_DIR "/h_initfail.so"), -EIO);
    assert_int_equal(host_count(f->host), 2);
    assert_true(host_load_dir(f->host, SUDOKU_BADPLUGIN_DIR "/missing") < 0);
}

static void test_find_and_default(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *good = host_find(f->host, "tgood");

    assert_non_null(good);
    assert_non_null(strstr(good->path, "a_good.so"));
    assert_null(host_find(f->host, "bitmask"));
    assert_null(host_find(f->host, "Bad Name"));
    assert_null(host_plugin_at(f->host, 2));
    /* No bitmask loaded: the default is the first plugin loaded. */
    assert_ptr_equal(host_default(f->host), good);
    assert_int_equal(host_count(NULL), 0);
    assert_null(host_default(NULL));
    host_free(NULL);
}

/* Per size: sat for 25x25 when the real plugin directory has it, else the
 * plain default; without sat (the bad-plugin fixture) always the default. */
static void test_default_for_size(void **state)
{
    struct fixture *f = *state;
    struct host *real = host_new(NULL, NULL);
    const struct host_plugin *sat, *bitmask;

    assert_ptr_equal(host_default_for(f->host, 25), host_find(f->host, "tgood"));
    assert_ptr_equal(host_default_for(f->host, 9), host_find(f->host, "tgood"));
    assert_null(host_default_for(NULL, 25));
    assert_non_null(real);
    assert_true(host_load_dir(real, SUDOKU_BUILD_PLUGIN_DIR) > 0);
    sat = host_find(real, "sat");
    bitmask = host_find(real, "bitmask");
    assert_non_null(bitmask);
    assert_ptr_equal(host_default_for(real, 4), bitmask);
    assert_ptr_equal(host_default_for(real, 9), bitmask);
    assert_ptr_equal(host_default_for(real, 16), bitmask);
    assert_ptr_equal(host_default_for(real, 25), sat ? sat : bitmask);
    print_message("  25x25 default: %s\n", host_default_for(real, 25)->desc->name);
    host_free(real);
}

static void test_default_plugin_dir(void **state)
{
    char dir[PATH_MAX], *want = realpath(SUDOKU_BUILD_PLUGIN_DIR, NULL);

    (void)state;
    /* tests/ sits next to bin/ in the build tree, so ../lib/... resolves. */
    assert_non_null(want);
    assert_int_equal(host_default_plugin_dir(dir, sizeof(dir)), 0);
    assert_string_equal(dir, want);
    assert_int_equal(host_default_plugin_dir(dir, 4), -ENAMETOOLONG);
    free(want);
}

/* ---------------------------------------------------------------- solving */

static void test_good_solve(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *good = host_find(f->host, "tgood");
    uint8_t puzzle[16] = {1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2};
    uint8_t solution[SDK_MAX_CELLS];
    uint8_t big[81] = {0};
    struct sdk_job job = {
        .size = sizeof(job), .n = 4, .cells = puzzle, .limit = 1, .solution = solution};

    assert_int_equal(host_solve(good, &job), SDK_SOLVED);
    assert_int_equal(job.count, 1);
    assert_int_equal(grid_check_solution(4, puzzle, solution, NULL, 0), 0);
    /* The empty 4x4 grid, counted up to a limit the plugin must respect. */
    memset(puzzle, 0, sizeof(puzzle));
    job.limit = 1000;
    assert_int_equal(host_solve(good, &job), SDK_SOLVED);
    assert_int_equal(job.count, 288);
    /* Sizes it did not declare are not run. */
    job.n = 9;
    job.cells = big;
    assert_int_equal(host_solve(good, &job), -ENOTSUP);
    job.n = 4;
    job.limit = 0;
    assert_int_equal(host_solve(good, &job), -EINVAL);
}

/* One lie per row: the liar picks it from job->limit (see tplugin.c). */
static const struct lie {
    uint64_t limit;
    const char *log; /* words in the log line */
} lies[] = {
    {1, "wrong solution"},        /* every cell 1 */
    {2, "found 3 solutions"},     /* count above the limit */
    {3, "bad status 42"},         /* not an sdk_status */
    {4, "status 0 with count 0"}, /* SOLVED without a solution */
    {5, "status 1 with count 1"}, /* UNSOLVABLE with one */
    {6, "failed"},                /* SDK_FAILED */
    {7, "wrong solution"},        /* a valid grid that drops the givens */
    {13, "bad status 5"},         /* SDK_EXHAUSTED with no budget set */
};

static void test_wrong_answers_never_leave(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *liar = host_find(f->host, "liar");
    /* One given that the liar's pattern grid (row 0 = 1 2 3 4) contradicts. */
    uint8_t puzzle[16] = {2};
    uint8_t solution[16];

    assert_non_null(liar);
    for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
        struct sdk_job job = {.size = sizeof(job),
                              .n = 4,
                              .cells = puzzle,
                              .limit = lies[i].limit,
                              .solution = solution};
        uint8_t zero[16] = {0};
        size_t before = f->log.len;
        assert_int_equal(host_solve(liar, &job), -EIO);
        assert_int_equal(job.count, 0);
        assert_memory_equal(solution, zero, sizeof(zero));
        assert_int_equal(f->log.len, before + 1);
        if (!strstr(f->log.lines[before], lies[i].log) || !strstr(f->log.lines[before], "liar"))
            print_error("limit %u: log \"%s\", want \"%s\"\n", (unsigned)lies[i].limit,
                        f->log.lines[before], lies[i].log);
        assert_non_null(strstr(f->log.lines[before], lies[i].log));
        assert_non_null(strstr(f->log.lines[before], "liar"));
    }
}

/* SDK_EXHAUSTED is an answer only to a job with a budget of guesses (ABI
 * minor 5): then the host passes it on, with what was found. */
static void test_exhausted_with_budget(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *liar = host_find(f->host, "liar");
    uint8_t puzzle[16] = {0}, solution[16];
    struct sdk_job job = {.size = sizeof(job),
                          .n = 4,
                          .cells = puzzle,
                          .limit = 13,
                          .solution = solution,
                          .max_guesses = 10};
    size_t before = f->log.len;

    assert_non_null(liar);
    assert_int_equal(host_solve(liar, &job), SDK_EXHAUSTED);
    assert_int_equal(job.count, 0);
    assert_int_equal(f->log.len, before); /* nothing wrong to log */
}

/* Lies that tamper with the job (see tplugin.c): a check that read the job
 * back after the call would pass each of them. */
static const struct tamper {
    uint64_t limit;
    uint32_t n;
    uint8_t given; /* cell 0, or 0 for an empty grid */
    const char *log;
} tampers[] = {
    {9, 4, 2, "wrong solution"},             /* writes the pattern into the givens */
    {10, 4, 2, "wrong solution"},            /* points cells at an empty grid */
    {11, 9, 0, "wrong solution"},            /* sets n to 4 on a 9x9 job */
    {12, 4, 0, "found 50 solutions, limit"}, /* raises limit to 100 */
};

static void test_job_tampering_caught(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *liar = host_find(f->host, "liar");
    uint8_t puzzle[81], before[81], solution[81], zero[81] = {0};

    assert_non_null(liar);
    for (size_t i = 0; i < sizeof(tampers) / sizeof(tampers[0]); i++) {
        const struct tamper *t = &tampers[i];
        struct sdk_job job = {.size = sizeof(job),
                              .n = t->n,
                              .cells = puzzle,
                              .limit = t->limit,
                              .solution = solution};
        size_t log_before = f->log.len;
        memset(puzzle, 0, sizeof(puzzle));
        puzzle[0] = t->given;
        memcpy(before, puzzle, sizeof(puzzle));
        assert_int_equal(host_solve(liar, &job), -EIO);
        /* The caller's job and givens are as they were; nothing leaked out. */
        assert_int_equal(job.n, t->n);
        assert_ptr_equal(job.cells, puzzle);
        assert_int_equal(job.limit, t->limit);
        assert_memory_equal(puzzle, before, sizeof(puzzle));
        assert_int_equal(job.count, 0);
        assert_memory_equal(solution, zero, (size_t)t->n * t->n);
        assert_int_equal(f->log.len, log_before + 1);
        if (!strstr(f->log.lines[log_before], t->log))
            print_error("limit %u: log \"%s\", want \"%s\"\n", (unsigned)t->limit,
                        f->log.lines[log_before], t->log);
        assert_non_null(strstr(f->log.lines[log_before], t->log));
        assert_non_null(strstr(f->log.lines[log_before], "liar"));
    }
}

static void test_honest_unsolvable_passes(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *liar = host_find(f->host, "liar");
    uint8_t puzzle[16] = {0}, solution[16];
    struct sdk_job job = {
        .size = sizeof(job), .n = 4, .cells = puzzle, .limit = 8, .solution = solution};

    assert_int_equal(host_solve(liar, &job), SDK_UNSOLVABLE);
    assert_int_equal(count_lines(&f->log, "liar: nothing to say", NULL), 1);
}

/* ------------------------------------------------------ threads and cancel */

/* One thread's calls to host_solve on the empty 4x4 grid. */
struct caller {
    pthread_t thread;
    const struct host_plugin *plugin;
    int calls;         /* how many */
    uint64_t limit;    /* job.limit */
    atomic_int cancel; /* job.cancel */
    int solved;        /* out: calls that returned SDK_SOLVED */
    int last;          /* out: the last result */
};

static void *caller_run(void *arg)
{
    struct caller *c = arg;
    uint8_t puzzle[16] = {0}, solution[16];

    for (int i = 0; i < c->calls; i++) {
        struct sdk_job job = {.size = sizeof(job),
                              .n = 4,
                              .cells = puzzle,
                              .limit = c->limit,
                              .cancel = &c->cancel,
                              .solution = solution};
        c->last = host_solve(c->plugin, &job);
        if (c->last == SDK_SOLVED && grid_check_solution(4, puzzle, solution, NULL, 0) == 0)
            c->solved++;
    }
    return NULL;
}

/* Load one plugin of tests/threadplugins into f's host. */
static const struct host_plugin *load_thread_plugin(struct fixture *f, const char *name)
{
    char path[512];

    snprintf(path, sizeof(path), "%s/%s.so", SUDOKU_THREADPLUGIN_DIR, name);
    assert_int_equal(host_load_file(f->host, path), 0);
    return host_find(f->host, name);
}

/* "serial" does not declare SDK_CAP_REENTRANT and fails whenever it sees a
 * second call of itself running: four threads at once must never cause one. */
static void test_not_reentrant_is_serialised(void **state)
{
    struct fixture *f = *state;
    struct caller c[4];

    memset(c, 0, sizeof(c));
    c[0].plugin = load_thread_plugin(f, "serial");
    c[0].calls = 20;
    c[0].limit = 1;
    for (int i = 1; i < 4; i++)
        c[i] = c[0];
    assert_non_null(strstr(f->log.lines[f->log.len - 1], "one call at a time"));
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&c[i].thread, NULL, caller_run, &c[i]), 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(c[i].thread, NULL);
        assert_int_equal(c[i].solved, 20);
    }
}

/* "meet" declares SDK_CAP_REENTRANT and solves only when a second call of
 * itself runs at the same time: the host must not serialise it. */
static void test_reentrant_runs_in_parallel(void **state)
{
    struct fixture *f = *state;
    struct caller c[2];

    memset(c, 0, sizeof(c));
    c[0].plugin = load_thread_plugin(f, "meet");
    c[0].calls = 1;
    c[0].limit = 1;
    c[1] = c[0];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&c[i].thread, NULL, caller_run, &c[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(c[i].thread, NULL);
        assert_int_equal(c[i].solved, 1);
    }
}

/* Waiting for a serialised plugin ends with the job: while "serial" holds
 * its lock (limit 3: until cancelled), another job times out at its
 * deadline instead of queueing behind it. */
static void test_lock_wait_ends_with_job(void **state)
{
    struct fixture *f = *state;
    struct caller holder;
    uint8_t puzzle[16] = {0}, solution[16];
    struct sdk_job job = {.size = sizeof(job), .n = 4, .cells = puzzle, .limit = 1};

    memset(&holder, 0, sizeof(holder));
    holder.plugin = load_thread_plugin(f, "serial");
    holder.calls = 1;
    holder.limit = 3;
    assert_int_equal(pthread_create(&holder.thread, NULL, caller_run, &holder), 0);
    for (;;) {
        pthread_mutex_lock(&f->log.lock);
        int held = count_lines(&f->log, "serial: holding", NULL);
        pthread_mutex_unlock(&f->log.lock);
        if (held)
            break;
        usleep(1000);
    }
    job.solution = solution;
    job.deadline_ns = sdk_now_ns() + 20000000u;
    assert_int_equal(host_solve(holder.plugin, &job), SDK_TIMEDOUT);
    assert_int_equal(job.count, 0);
    atomic_store(&holder.cancel, 1);
    pthread_join(holder.thread, NULL);
    assert_int_equal(holder.last, SDK_CANCELLED);
}

/* A job already cancelled or past its deadline is not started: the liar
 * (limit 1: a wrong answer) is never asked. */
static void test_stopped_job_not_started(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *liar = host_find(f->host, "liar");
    uint8_t puzzle[16] = {0}, solution[16];
    atomic_int cancel = 1;
    struct sdk_job job = {.size = sizeof(job),
                          .n = 4,
                          .cells = puzzle,
                          .limit = 1,
                          .cancel = &cancel,
                          .solution = solution};
    size_t before = f->log.len;

    assert_int_equal(host_solve(liar, &job), SDK_CANCELLED);
    assert_int_equal(job.count, 0);
    job.cancel = NULL;
    job.deadline_ns = 1; /* long past */
    assert_int_equal(host_solve(liar, &job), SDK_TIMEDOUT);
    assert_int_equal(f->log.len, before);
}

/* "late" declares SDK_CAP_CANCEL and returns 150 ms past its deadline: the
 * broken promise is logged, once however often it happens. */
static void test_late_return_logged_once(void **state)
{
    struct fixture *f = *state;
    const struct host_plugin *late = load_thread_plugin(f, "late");
    uint8_t puzzle[16] = {0}, solution[16];

    for (int i = 0; i < 2; i++) {
        struct sdk_job job = {.size = sizeof(job),
                              .n = 4,
                              .cells = puzzle,
                              .limit = 1,
                              .deadline_ns = sdk_now_ns() + 1000000u,
                              .solution = solution};
        assert_int_equal(host_solve(late, &job), SDK_TIMEDOUT);
    }
    assert_int_equal(count_lines(&f->log, "late: returned more than", "SDK_CAP_CANCEL"), 1);
}

/* ------------------------------------------------------------ strict modes */

/* Copy src to dst with mode 0644.  Returns 0 or -1. */
static int copy_file(const char *src, const char *dst)
{
    char buf[65536];
    size_t got;
    int rc = 0;
    FILE *in = fopen(src, "rb");
    FILE *out = fopen(dst, "wb");

    if (!in || !out) {
        rc = -1;
        goto done;
    }
    while ((got = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (fwrite(buf, 1, got, out) != got)
            rc = -1;
    }
done:
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    return rc == 0 ? chmod(dst, 0644) : rc;
}

/* Like sshd's StrictModes: a plugin file or directory that others than its
 * owner can write to is refused with a log line saying why; fixed modes load. */
static void test_strict_modes(void **state)
{
    struct fixture *f = *state;
    char dir[] = "/tmp/sudoku-host-XXXXXX";
    char file[64];
    struct host *h;

    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/good.so", dir);
    assert_int_equal(copy_file(SUDOKU_BADPLUGIN_DIR "/a_good.so", file), 0);
    assert_int_equal(chmod(dir, 0755), 0);

    /* A group-writable plugin file. */
    f->log.len = 0;
    h = host_new(capture_log, &f->log);
    assert_non_null(h);
    assert_int_equal(chmod(file, 0664), 0);
    assert_int_equal(host_load_file(h, file), -EPERM);
    assert_int_equal(count_lines(&f->log, file, "writable by its group"), 1);
    assert_int_equal(host_count(h), 0);

    /* A world-writable plugin directory: nothing in it is even looked at. */
    assert_int_equal(chmod(file, 0644), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    assert_int_equal(host_load_dir(h, dir), -EPERM);
    assert_int_equal(count_lines(&f->log, "plugin directory", "writable by others"), 1);
    assert_int_equal(host_count(h), 0);

    /* Both fixed: the plugin loads. */
    assert_int_equal(chmod(dir, 0755), 0);
    assert_int_equal(host_load_dir(h, dir), 1);
    assert_int_equal(host_count(h), 1);
    host_free(h);

    assert_int_equal(unlink(file), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* The host's clock is the plugins' clock: deadlines mean the same to both. */
static void test_clock_is_the_abi_clock(void **state)
{
    (void)state;
    for (int i = 0; i < 1000; i++) {
        uint64_t a = sdk_now_ns(), b = clock_now_ns(), c = sdk_now_ns();
        assert_true(a <= b && b <= c);
    }
}

/* A tree of directories under /tmp for one test: root (0755) holds
 * whatever the test makes; tree_path() names an entry in it. */
struct tree {
    char root[32];
    char path[128];
};

static void tree_new(struct tree *t)
{
    snprintf(t->root, sizeof(t->root), "/tmp/sudoku-trust-XXXXXX");
    assert_non_null(mkdtemp(t->root));
    assert_int_equal(chmod(t->root, 0755), 0);
}

static const char *tree_path(struct tree *t, const char *rel)
{
    snprintf(t->path, sizeof(t->path), "%s/%s", t->root, rel);
    return t->path;
}

static void tree_mkdir(struct tree *t, const char *rel, mode_t mode)
{
    assert_int_equal(mkdir(tree_path(t, rel), 0700), 0);
    assert_int_equal(chmod(t->path, mode), 0); /* not cut by the umask */
}

/* A copy of the good test plugin at rel, mode 0644. */
static void tree_plugin(struct tree *t, const char *rel)
{
    assert_int_equal(copy_file(SUDOKU_BADPLUGIN_DIR "/a_good.so", tree_path(t, rel)), 0);
}

static void tree_free(struct tree *t)
{
    char cmd[64];

    snprintf(cmd, sizeof(cmd), "rm -rf %s", t->root);
    assert_int_equal(system(cmd), 0);
}

/* How many plugins host_load_dir() loads from dir with a fresh host, its
 * log lines going to c (cleared first). */
static int load_dir_count(struct log_capture *c, const char *dir)
{
    struct host *h = host_new(capture_log, c);
    int rc;

    assert_non_null(h);
    c->len = 0;
    rc = host_load_dir(h, dir);
    host_free(h);
    return rc;
}

/* A symbolic link in a safe plugin directory that points into a directory
 * others can write to: the file it reaches is judged where it really is,
 * and the directory holding it may not be writable even when sticky. */
static void test_symlink_into_writable_dir(void **state)
{
    struct fixture *f = *state;
    struct tree t;
    char target[128];

    tree_new(&t);
    tree_mkdir(&t, "safe", 0755);
    tree_mkdir(&t, "open", 0777);
    tree_plugin(&t, "open/good.so");
    snprintf(target, sizeof(target), "%s", tree_path(&t, "open/good.so"));
    assert_int_equal(symlink(target, tree_path(&t, "safe/good.so")), 0);

    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "safe")), 0);
    assert_int_equal(count_lines(&f->log, "safe/good.so refused", "open is writable by others"), 1);
    assert_int_equal(chmod(tree_path(&t, "open"), 01777), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "safe")), 0);
    assert_int_equal(count_lines(&f->log, "safe/good.so refused", "(mode 1777)"), 1);
    /* Fixed: the link is followed and the plugin loads. */
    assert_int_equal(chmod(tree_path(&t, "open"), 0755), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "safe")), 1);
    tree_free(&t);
}

/* The other way round: a symbolic link that others could replace, in a
 * directory they can write to, pointing at a safe plugin or plugin
 * directory.  In a sticky directory it is trusted when root or the running
 * user owns it (others cannot replace it). */
static void test_link_in_writable_dir(void **state)
{
    struct fixture *f = *state;
    char target[128], link[128], link_dir[128];
    struct host *h;
    struct tree t;

    tree_new(&t);
    tree_mkdir(&t, "safe", 0755);
    tree_mkdir(&t, "open", 0777);
    tree_plugin(&t, "safe/good.so");
    snprintf(link, sizeof(link), "%s", tree_path(&t, "open/link.so"));
    snprintf(link_dir, sizeof(link_dir), "%s", tree_path(&t, "open/plugins"));
    snprintf(target, sizeof(target), "%s", tree_path(&t, "safe/good.so"));
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(symlink(tree_path(&t, "safe"), link_dir), 0);

    h = host_new(capture_log, &f->log);
    assert_non_null(h);
    f->log.len = 0;
    assert_int_equal(host_load_file(h, link), -EPERM);
    assert_int_equal(count_lines(&f->log, "link.so refused", "open is writable by others"), 1);
    assert_int_equal(load_dir_count(&f->log, link_dir), -EPERM);
    assert_int_equal(count_lines(&f->log, "plugin directory", "open is writable by others"), 1);
    assert_int_equal(chmod(tree_path(&t, "open"), 01777), 0);
    assert_int_equal(load_dir_count(&f->log, link_dir), 1);
    if (geteuid() == 0) {
        assert_int_equal(lchown(link, 12345, (gid_t)-1), 0);
        f->log.len = 0;
        assert_int_equal(host_load_file(h, link), -EPERM);
        assert_int_equal(count_lines(&f->log, "link.so is owned by uid 12345", NULL), 1);
        assert_int_equal(lchown(link, 0, (gid_t)-1), 0);
    }
    assert_int_equal(host_load_file(h, link), 0);
    host_free(h);
    tree_free(&t);
}

/* A directory above the plugin directory that others can write to lets
 * them rename the plugin directory away and put their own in its place:
 * refused, unless it is sticky (as /tmp is, where a clone's build tree may
 * sit), and the plugin directory itself is never let off. */
static void test_writable_parent_dir(void **state)
{
    struct fixture *f = *state;
    struct tree t;

    tree_new(&t);
    tree_mkdir(&t, "mid", 0777);
    tree_mkdir(&t, "mid/plugins", 0755);
    tree_plugin(&t, "mid/plugins/good.so");

    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), -EPERM);
    assert_int_equal(count_lines(&f->log, "plugin directory", "mid is writable by others"), 1);
    assert_int_equal(chmod(tree_path(&t, "mid"), 0775), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), -EPERM);
    assert_int_equal(count_lines(&f->log, "plugin directory", "mid is writable by its group"), 1);
    /* Sticky above, as /tmp: others cannot rename what they do not own. */
    assert_int_equal(chmod(tree_path(&t, "mid"), 01777), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), 1);
    /* ... but a sticky plugin directory lets them add files of their own. */
    assert_int_equal(chmod(tree_path(&t, "mid"), 0755), 0);
    assert_int_equal(chmod(tree_path(&t, "mid/plugins"), 01777), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), -EPERM);
    assert_int_equal(count_lines(&f->log, "plugin directory", "(mode 1777)"), 1);
    assert_int_equal(chmod(tree_path(&t, "mid/plugins"), 0755), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), 1);
    tree_free(&t);
}

/* Owners other than root and the running user, above or at the file.  Only
 * root can give a file away, so this runs only as root (as in CI). */
static void test_foreign_owner(void **state)
{
    struct fixture *f = *state;
    struct tree t;

    if (geteuid() != 0)
        skip();
    tree_new(&t);
    tree_mkdir(&t, "mid", 0755);
    tree_mkdir(&t, "mid/plugins", 0755);
    tree_plugin(&t, "mid/plugins/good.so");
    assert_int_equal(chown(tree_path(&t, "mid"), 12345, (gid_t)-1), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), -EPERM);
    assert_int_equal(count_lines(&f->log, "mid is owned by uid 12345", "not by root or uid 0"), 1);
    assert_int_equal(chown(tree_path(&t, "mid"), 0, (gid_t)-1), 0);
    assert_int_equal(chown(tree_path(&t, "mid/plugins/good.so"), 12345, (gid_t)-1), 0);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "mid/plugins")), 0);
    assert_int_equal(count_lines(&f->log, "good.so is owned by uid 12345", NULL), 1);
    tree_free(&t);
}

/* A FIFO named *.so would block dlopen() (and start-up) for ever; it and a
 * directory named *.so are skipped with a log line, the rest load.  The
 * alarm only turns a hang into a failure; nothing here is timed. */
static void test_not_regular_skipped(void **state)
{
    struct fixture *f = *state;
    struct host *h;
    struct tree t;

    tree_new(&t);
    tree_mkdir(&t, "plugins", 0755);
    tree_plugin(&t, "plugins/good.so");
    assert_int_equal(mkfifo(tree_path(&t, "plugins/fifo.so"), 0644), 0);
    assert_int_equal(chmod(t.path, 0644), 0);
    tree_mkdir(&t, "plugins/dir.so", 0755);
    alarm(60);
    assert_int_equal(load_dir_count(&f->log, tree_path(&t, "plugins")), 1);
    assert_int_equal(count_lines(&f->log, "fifo.so refused", "is a FIFO, not a regular file"), 1);
    assert_int_equal(count_lines(&f->log, "dir.so refused", "directory, not a regular file"), 1);
    h = host_new(capture_log, &f->log);
    assert_non_null(h);
    assert_int_equal(host_load_file(h, tree_path(&t, "plugins/fifo.so")), -ENOEXEC);
    host_free(h);
    alarm(0);
    tree_free(&t);
}

/* Without /proc the checked descriptor cannot be loaded: refused with a
 * line that says so.  Needs a private mount namespace (root, and a
 * container that allows it); skipped otherwise. */
static void test_no_proc_refused(void **state)
{
    struct fixture *f = *state;
    int status;
    pid_t pid;

    (void)f;
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct log_capture c = {.lock = PTHREAD_MUTEX_INITIALIZER};
        struct host *h;
        int rc;
        if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
            umount2("/proc", MNT_DETACH) < 0)
            _exit(77);
        h = host_new(capture_log, &c);
        rc = h ? host_load_file(h, SUDOKU_BADPLUGIN_DIR "/a_good.so") : -ENOMEM;
        host_free(h);
        if (rc != -ENOSYS)
            _exit(1);
        _exit(count_lines(&c, "a_good.so refused", "is /proc mounted?") == 1 ? 0 : 2);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77)
        skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_refusals_logged_rest_load, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plugin_log_is_prefixed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_file_results, setup, teardown),
        cmocka_unit_test_setup_teardown(test_find_and_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_for_size, setup, teardown),
        cmocka_unit_test(test_default_plugin_dir),
        cmocka_unit_test(test_clock_is_the_abi_clock),
        cmocka_unit_test_setup_teardown(test_good_solve, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong_answers_never_leave, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exhausted_with_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_job_tampering_caught, setup, teardown),
        cmocka_unit_test_setup_teardown(test_honest_unsolvable_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_reentrant_is_serialised, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reentrant_runs_in_parallel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lock_wait_ends_with_job, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stopped_job_not_started, setup, teardown),
        cmocka_unit_test_setup_teardown(test_late_return_logged_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strict_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_into_writable_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_link_in_writable_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writable_parent_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_foreign_owner, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_regular_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_proc_refused, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
