/* test_plugins.c -- every built plugin, through the real dlopen path.
 *
 * Loads every plugin in SUDOKU_BUILD_PLUGIN_DIR with the host (as sudokud
 * does) and runs tests/data/golden.txt through each: the number of
 * solutions must match, every solution is checked by the rules against the
 * puzzle (never compared as a string), and expectations follow what each
 * plugin declares (sizes, SDK_CAP_COUNT).  Then, per plugin: cancellation and
 * deadline stop it within 50 ms on every slow puzzle it is still busy with
 * (FREE_BOUND_NS on the empty 25x25 grid, where sat frees a large formula
 * after the stop; wider bounds under ASan), and four threads solving at once
 * all get right answers.
 *
 * golden.txt lines are limit:expected:flag:puzzle, see its header.  The flag
 * says who must finish an entry.  The real 25x25 puzzles take search without
 * clause learning minutes each, so only the plugins in learners[] run the
 * entries flagged 's', and they must also finish those flagged 'h'.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/grid.h"
#include "core/host.h"
#include "proto/codec.h"
#include "sanitizer.h"

#define GOLDEN_MAX    256        /* entries in golden.txt at most */
#define HARD_MS       250        /* deadline for 'h' and 't' entries, when a timeout is allowed */
#define GUARD_MS      120000     /* deadline for the others: a hang fails, never blocks */
#define RUN_BEFORE_NS 200000000u /* let a solve run this long before stopping it */
#define STOP_TRIES    3          /* a late stop is tried again (scheduling noise) */
#define THREADS       4
#define ROUNDS        3

/* ASan makes free() slow, and sat frees its formula after the stop: its
 * bounds are wider there.  FREE_BOUND_NS is the bound where a plugin may hold
 * a large formula (sat on the empty 25x25: 180,000 clauses; measured 20-90 ms
 * on a loaded 2-core machine, 180-440 ms under ASan).  On the minimal 25x25,
 * sat stops in 1-5 ms, 17-36 ms under ASan. */
#if TEST_ASAN
#define STOP_BOUND_NS 250000000u
#define FREE_BOUND_NS 1000000000u
#else
#define STOP_BOUND_NS 50000000u /* cancel/deadline must act within 50 ms */
#define FREE_BOUND_NS 250000000u
#endif

/* Who must finish a golden entry (its flag). */
enum golden_kind {
    GOLDEN_ALL,     /* '-': every plugin */
    GOLDEN_HARD,    /* 'h': learners; the others get HARD_MS and may time out */
    GOLDEN_TIMEOUT, /* 't': nobody; every plugin gets HARD_MS and may time out */
    GOLDEN_LEARNED  /* 's': learners; the others skip it */
};

/* One golden puzzle. */
struct golden {
    int line;              /* line number in golden.txt */
    uint64_t limit;        /* solutions to ask for */
    long expected;         /* solutions that exist up to limit; -1 = givens break a rule */
    enum golden_kind kind; /* who must finish it */
    size_t learned_index;  /* kind GOLDEN_LEARNED: its rank among those entries */
    unsigned n;            /* side */
    uint8_t cells[SDK_MAX_CELLS];
};

/* Plugins that learn clauses (CDCL).  Named here rather than declared: the
 * ABI has no capability for it, and none is needed outside this test. */
static const char *const learners[] = {"sat"};

static struct golden golden[GOLDEN_MAX];
static size_t golden_len;
static size_t golden_learned_len; /* entries of kind GOLDEN_LEARNED */
static struct host *host;
static atomic_int log_errors;

static void test_log(void *ctx, int level, const char *msg)
{
    (void)ctx;
    if (level <= SDK_LOG_WARNING) {
        atomic_fetch_add(&log_errors, 1);
        print_message("host log: %s\n", msg);
    }
}

/* ---------------------------------------------------------------- golden */

static int parse_golden_line(char *s, int line, struct golden *g)
{
    char *limit = strtok(s, ":"), *expected = strtok(NULL, ":");
    char *flag = strtok(NULL, ":"), *puzzle = strtok(NULL, "\n");

    if (!limit || !expected || !flag || !puzzle)
        return -EINVAL;
    g->line = line;
    g->limit = strtoull(limit, NULL, 10);
    g->expected = strcmp(expected, "x") == 0 ? -1 : strtol(expected, NULL, 10);
    switch (flag[0] == '\0' || flag[1] != '\0' ? '?' : flag[0]) {
    case '-':
        g->kind = GOLDEN_ALL;
        break;
    case 'h':
        g->kind = GOLDEN_HARD;
        break;
    case 't':
        g->kind = GOLDEN_TIMEOUT;
        break;
    case 's':
        g->kind = GOLDEN_LEARNED;
        g->learned_index = golden_learned_len++;
        break;
    default:
        return -EINVAL;
    }
    return codec_parse_line(puzzle, strlen(puzzle), &g->n, g->cells, NULL, 0);
}

static int load_golden(void)
{
    char buf[2048];
    int line = 0;
    FILE *f = fopen(SUDOKU_TEST_DATA_DIR "/golden.txt", "r");

    if (!f)
        return -errno;
    while (fgets(buf, sizeof(buf), f)) {
        line++;
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        if (golden_len == GOLDEN_MAX || parse_golden_line(buf, line, &golden[golden_len]) != 0) {
            print_error("golden.txt:%d: bad line\n", line);
            fclose(f);
            return -EINVAL;
        }
        golden_len++;
    }
    fclose(f);
    return 0;
}

static int group_setup(void **state)
{
    (void)state;
    host = host_new(test_log, NULL);
    if (!host || load_golden() != 0)
        return -1;
    return host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) > 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    host_free(host);
    return 0;
}

/* Returns 1 when p is one of learners[]. */
static int is_learner(const struct host_plugin *p)
{
    for (size_t k = 0; k < sizeof(learners) / sizeof(learners[0]); k++)
        if (strcmp(p->desc->name, learners[k]) == 0)
            return 1;
    return 0;
}

/* Returns 1 when p may time out on g (after HARD_MS), 0 when it must finish. */
static int may_time_out(const struct host_plugin *p, const struct golden *g)
{
    return g->kind == GOLDEN_TIMEOUT || (g->kind == GOLDEN_HARD && !is_learner(p));
}

/* What plugin p must report for g: the count, capped by limit, and by 1
 * when p does not count. */
static uint64_t expected_count(const struct host_plugin *p, const struct golden *g)
{
    uint64_t want = (uint64_t)g->expected;

    if (want > g->limit)
        want = g->limit;
    if (!(p->desc->caps & SDK_CAP_COUNT) && want > 1)
        want = 1;
    return want;
}

/* Run one golden entry (givens valid, size supported).  Returns 0 when the
 * answer is right, else 1 after printing why. */
static int check_entry(const struct host_plugin *p, const struct golden *g, int quiet)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_job job = {
        .size = sizeof(job), .n = g->n, .cells = g->cells, .limit = g->limit, .solution = solution};
    uint64_t want = expected_count(p, g);
    const int lax = may_time_out(p, g);
    char err[256] = "";
    int rc;

    job.deadline_ns = sdk_now_ns() + (uint64_t)(lax ? HARD_MS : GUARD_MS) * 1000000u;
    rc = host_solve(p, &job);
    if (rc == SDK_TIMEDOUT && lax) {
        if (!quiet)
            print_message("  %s: golden line %d timed out after %d ms (allowed: %s)\n",
                          p->desc->name, g->line, HARD_MS,
                          g->kind == GOLDEN_HARD ? "hard" : "timeout test");
        return 0;
    }
    if (rc != (want ? SDK_SOLVED : SDK_UNSOLVABLE) || job.count != want) {
        print_error("%s: golden line %d: status %d count %llu, want count %llu\n", p->desc->name,
                    g->line, rc, (unsigned long long)job.count, (unsigned long long)want);
        return 1;
    }
    if (want && grid_check_solution(g->n, g->cells, solution, err, sizeof(err)) != 0) {
        print_error("%s: golden line %d: bad solution: %s\n", p->desc->name, g->line, err);
        return 1;
    }
    return 0;
}

/* Contradictory givens: the rules catch them, and the plugin called directly
 * (no host checks in between) says unsolvable rather than crashing. */
static int check_contradiction(const struct host_plugin *p, const struct golden *g)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_host api = {.size = sizeof(api), .ctx = NULL, .log = test_log};
    struct sdk_job job = {
        .size = sizeof(job), .n = g->n, .cells = g->cells, .limit = g->limit, .solution = solution};
    char err[256] = "";
    int rc;

    if (grid_check_givens(g->n, g->cells, err, sizeof(err)) == 0 || err[0] == '\0') {
        print_error("golden line %d: grid_check_givens accepted contradictory givens\n", g->line);
        return 1;
    }
    job.deadline_ns = sdk_now_ns() + (uint64_t)GUARD_MS * 1000000u;
    rc = p->desc->solve(p->state, &api, &job);
    if (rc != SDK_UNSOLVABLE || job.count != 0) {
        print_error("%s: golden line %d (%s): status %d count %llu, want unsolvable\n",
                    p->desc->name, g->line, err, rc, (unsigned long long)job.count);
        return 1;
    }
    return 0;
}

static int run_golden(const struct host_plugin *p)
{
    int failures = 0, ran = 0, skipped = 0;

    for (size_t i = 0; i < golden_len; i++) {
        const struct golden *g = &golden[i];
        if (g->kind == GOLDEN_LEARNED && !is_learner(p)) {
            skipped++;
            continue;
        }
        if (!(sdk_size_bit(g->n) & p->desc->sizes)) {
            uint8_t sol[SDK_MAX_CELLS];
            struct sdk_job job = {.size = sizeof(job),
                                  .n = g->n,
                                  .cells = g->cells,
                                  .limit = g->limit,
                                  .solution = sol};
            failures += host_solve(p, &job) != -ENOTSUP;
            continue;
        }
        ran++;
        if (g->expected < 0) {
            failures += check_contradiction(p, g);
            continue;
        }
        if (grid_check_givens(g->n, g->cells, NULL, 0) != 0) {
            print_error("golden line %d: givens rejected but not marked x\n", g->line);
            failures++;
            continue;
        }
        failures += check_entry(p, g, 0);
    }
    print_message("  %s: %d golden puzzles, %d failures (%d skipped: for learners)\n",
                  p->desc->name, ran, failures, skipped);
    return failures;
}

static void test_every_plugin_loads(void **state)
{
    (void)state;
    /* Nothing in the real plugin directory may be refused. */
    assert_int_equal(atomic_load(&log_errors), 0);
    assert_true(host_count(host) >= 1);
    for (size_t i = 0; i < host_count(host); i++) {
        const struct host_plugin *p = host_plugin_at(host, i);
        print_message("  loaded %s %s: %s\n", p->desc->name, p->desc->version,
                      p->desc->description);
    }
}

static void test_golden_every_plugin(void **state)
{
    int failures = 0, learners_len = 0;

    (void)state;
    assert_true(golden_len > 0);
    for (size_t i = 0; i < host_count(host); i++) {
        failures += run_golden(host_plugin_at(host, i));
        learners_len += is_learner(host_plugin_at(host, i));
    }
    if (learners_len == 0)
        print_message("  no learner loaded (sat needs libcadical-dev): %zu entries unrun\n",
                      golden_learned_len);
    assert_int_equal(failures, 0);
}

/* ---------------------------------------------------------- cancellation */

/* A solve running on its own thread. */
struct bg_solve {
    const struct host_plugin *p;
    struct sdk_job job;
    atomic_int cancel;
    atomic_int done;
    uint64_t done_ns;
    int rc;
    uint8_t solution[SDK_MAX_CELLS];
    pthread_t thread;
};

static void *bg_main(void *arg)
{
    struct bg_solve *b = arg;

    b->rc = host_solve(b->p, &b->job);
    b->done_ns = sdk_now_ns();
    atomic_store(&b->done, 1);
    return NULL;
}

/* The slow candidates: the plugin is stopped on every one it is still busy
 * with after RUN_BEFORE_NS.  The minimal 25x25 takes sat seconds (in its
 * first solve); counting the empty 25x25 stops it in a later solve, after
 * many blocking clauses. */
struct slow {
    const char *what;
    unsigned n;
    uint64_t limit;
    uint64_t bound_ns; /* the plugin must return this soon after the stop */
    uint8_t cells[SDK_MAX_CELLS];
};

static int read_first_puzzle(const char *path, struct slow *s)
{
    char buf[2048];
    FILE *f = fopen(path, "r");
    int rc = -EINVAL;

    if (!f)
        return -errno;
    while (fgets(buf, sizeof(buf), f)) {
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        rc = codec_parse_line(buf, strlen(buf), &s->n, s->cells, NULL, 0);
        break;
    }
    fclose(f);
    return rc;
}

static size_t slow_candidates(struct slow *s)
{
    size_t len = 0;

    s[len] =
        (struct slow){.what = "brute_force.txt, limit 2", .limit = 2, .bound_ns = STOP_BOUND_NS};
    len += read_first_puzzle(SUDOKU_TEST_DATA_DIR "/brute_force.txt", &s[len]) == 0;
    s[len] = (struct slow){
        .what = "minimal 25x25 (25x25_hard.txt), limit 2", .limit = 2, .bound_ns = STOP_BOUND_NS};
    len += read_first_puzzle(SUDOKU_TEST_DATA_DIR "/25x25_hard.txt", &s[len]) == 0;
    /* Counting the solutions of the empty 25x25 grid never ends.  sat holds
     * its largest formula here and frees it after the stop: FREE_BOUND_NS. */
    s[len] = (struct slow){
        .what = "empty 25x25, counting", .n = 25, .limit = UINT64_MAX, .bound_ns = FREE_BOUND_NS};
    len++;
    return len;
}

/* Start a solve of s on p; with_deadline sets it RUN_BEFORE_NS from now. */
static void bg_start(struct bg_solve *b, const struct host_plugin *p, const struct slow *s,
                     int with_deadline)
{
    memset(b, 0, sizeof(*b));
    b->p = p;
    b->job = (struct sdk_job){.size = sizeof(b->job),
                              .n = s->n,
                              .cells = s->cells,
                              .limit = s->limit,
                              .cancel = &b->cancel,
                              .solution = b->solution};
    if (with_deadline)
        b->job.deadline_ns = sdk_now_ns() + RUN_BEFORE_NS;
    assert_int_equal(pthread_create(&b->thread, NULL, bg_main, b), 0);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

    nanosleep(&ts, NULL);
}

/* Start p on s, stop it by cancel flag or by deadline, and wait.  Returns
 * the plugin's status; *late is how long after the stop it returned. */
static int stop_once(struct bg_solve *b, const struct host_plugin *p, const struct slow *s,
                     int by_deadline, uint64_t *late)
{
    uint64_t asked;

    bg_start(b, p, s, by_deadline);
    sleep_ms(RUN_BEFORE_NS / 1000000u - 5);
    if (atomic_load(&b->done) == 0 && !by_deadline) {
        asked = sdk_now_ns();
        atomic_store(&b->cancel, 1);
    } else {
        asked = b->job.deadline_ns;
    }
    pthread_join(b->thread, NULL);
    *late = b->done_ns > asked ? b->done_ns - asked : 0;
    return b->rc;
}

/* Stop p on every slow candidate it is still working on, by cancel flag or
 * by deadline.  A late stop is tried again, up to STOP_TRIES in all: on a
 * loaded machine the solving thread may simply not be scheduled for a while
 * (measured: 130 ms at load 9 on 2 cores), while a plugin that does not poll
 * is late every time.  Returns how many candidates it was stopped on (0: it
 * finished them all before it could be stopped). */
static int stop_all(const struct host_plugin *p, int by_deadline)
{
    static struct slow s[3];
    size_t len = slow_candidates(s);
    struct bg_solve *b = calloc(1, sizeof(*b));
    uint64_t late = 0;
    int stopped = 0, rc = 0;

    assert_non_null(b);
    for (size_t i = 0; i < len; i++) {
        if (!(sdk_size_bit(s[i].n) & p->desc->sizes))
            continue;
        for (int t = 0; t < STOP_TRIES && (t == 0 || late > s[i].bound_ns); t++) {
            rc = stop_once(b, p, &s[i], by_deadline, &late);
            if (rc == SDK_SOLVED || rc == SDK_UNSOLVABLE)
                break;
            print_message("  %s on %s: stopped %.2f ms after the %s\n", p->desc->name, s[i].what,
                          (double)late / 1e6, by_deadline ? "deadline" : "cancel flag");
            assert_int_equal(rc, by_deadline ? SDK_TIMEDOUT : SDK_CANCELLED);
        }
        if (rc == SDK_SOLVED || rc == SDK_UNSOLVABLE) {
            print_message("  %s finished %s before it could be stopped\n", p->desc->name,
                          s[i].what);
            continue;
        }
        assert_true(late <= s[i].bound_ns);
        stopped++;
    }
    free(b);
    return stopped;
}

static void run_stop_test(int by_deadline)
{
    for (size_t i = 0; i < host_count(host); i++) {
        const struct host_plugin *p = host_plugin_at(host, i);
        if (!(p->desc->caps & SDK_CAP_CANCEL)) {
            print_message("  %s: skipped, does not declare SDK_CAP_CANCEL\n", p->desc->name);
            continue;
        }
        if (!stop_all(p, by_deadline))
            print_message("  %s: skipped, finished every slow puzzle\n", p->desc->name);
    }
}

static void test_cancel_within_50ms(void **state)
{
    (void)state;
    run_stop_test(0);
}

static void test_deadline_within_50ms(void **state)
{
    (void)state;
    run_stop_test(1);
}

/* ------------------------------------------------------------ concurrency */

struct worker {
    const struct host_plugin *p;
    size_t id;     /* 0..THREADS-1 */
    size_t offset; /* first golden entry it solves */
    int learns;    /* p is one of learners[] */
    int failures;
    int solved;
    pthread_t thread;
};

/* Returns 1 when w solves g in this round.  A learner takes the 'h' entries
 * every round, and each 's' entry once, on one thread (they take seconds):
 * the real 25x25 puzzles run while the other threads solve 16x16 ones. */
static int worker_takes(const struct worker *w, const struct golden *g, int round)
{
    if (g->expected < 0 || !(sdk_size_bit(g->n) & w->p->desc->sizes))
        return 0;
    switch (g->kind) {
    case GOLDEN_ALL:
        return 1;
    case GOLDEN_HARD:
        return w->learns;
    case GOLDEN_LEARNED:
        return w->learns && round == 0 && g->learned_index % THREADS == w->id;
    default:
        return 0;
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;

    for (int round = 0; round < ROUNDS; round++) {
        for (size_t k = 0; k < golden_len; k++) {
            const struct golden *g = &golden[(k + w->offset) % golden_len];
            if (!worker_takes(w, g, round))
                continue;
            w->failures += check_entry(w->p, g, 1);
            w->solved++;
        }
    }
    return NULL;
}

static void test_four_threads_at_once(void **state)
{
    struct worker w[THREADS];

    (void)state;
    for (size_t i = 0; i < host_count(host); i++) {
        const struct host_plugin *p = host_plugin_at(host, i);
        int failures = 0, solved = 0;
        if (!(p->desc->caps & SDK_CAP_REENTRANT)) {
            print_message("  %s: skipped, does not declare SDK_CAP_REENTRANT\n", p->desc->name);
            continue;
        }
        for (int t = 0; t < THREADS; t++) {
            w[t] = (struct worker){.p = p,
                                   .id = (size_t)t,
                                   .offset = (size_t)t * golden_len / THREADS,
                                   .learns = is_learner(p)};
            assert_int_equal(pthread_create(&w[t].thread, NULL, worker_main, &w[t]), 0);
        }
        for (int t = 0; t < THREADS; t++) {
            pthread_join(w[t].thread, NULL);
            failures += w[t].failures;
            solved += w[t].solved;
        }
        print_message("  %s: %d solves on %d threads, %d failures\n", p->desc->name, solved,
                      THREADS, failures);
        assert_true(solved > 0);
        assert_int_equal(failures, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_plugin_loads),   cmocka_unit_test(test_golden_every_plugin),
        cmocka_unit_test(test_cancel_within_50ms),   cmocka_unit_test(test_deadline_within_50ms),
        cmocka_unit_test(test_four_threads_at_once),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
