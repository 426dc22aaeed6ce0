/* test_sat_budget.c -- the sat plugin fails cleanly at its per-job budgets.
 *
 * sat bounds what one job may allocate (plugins/sat/sat.c): literals in
 * learned clauses, literals in blocking clauses, and conflicts.  The real
 * budgets take minutes to reach, so tests/sat.cmake builds the plugin again
 * with tiny ones, in SUDOKU_SATBUDGET_DIR/learned and .../conflicts.  Each
 * case runs through the host and checks that the job fails (the host says
 * -EIO) with one warning naming the budget, and that the same plugin still
 * answers a job within its budget afterwards.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/grid.h"
#include "core/host.h"
#include "proto/codec.h"

#define GUARD_NS 60000000000u /* deadline: a hang fails, never blocks */

/* Warnings seen, and those that name the expected budget. */
struct log_watch {
    pthread_mutex_t lock;
    const char *want; /* text the plugin's warning must hold */
    int warnings;
    int hits;
};

static void capture_log(void *ctx, int level, const char *msg)
{
    struct log_watch *l = ctx;

    if (level > SDK_LOG_WARNING)
        return;
    pthread_mutex_lock(&l->lock);
    l->warnings++;
    l->hits += l->want && strstr(msg, l->want) != NULL;
    pthread_mutex_unlock(&l->lock);
}

/* One budget case: a plugin build, a puzzle and what must happen. */
struct budget_case {
    const char *dir;    /* under SUDOKU_SATBUDGET_DIR */
    const char *puzzle; /* line form, or a file in tests/data (first line) */
    int from_file;
    uint64_t limit;
    const char *reason; /* in the warning */
};

static const struct budget_case cases[] = {
    /* 25x25.txt line 3 learns about 170,000 literals: over 2000 */
    {"learned", SUDOKU_TEST_DATA_DIR "/25x25_easy.txt", 1, 2, "learned-clause memory budget"},
    /* the empty 4x4 grid has 288 solutions; each blocking clause is 16
     * literals, so a budget of 100 stops the count after 7 */
    {"learned", "................", 0, 1000, "blocking-clause budget"},
    /* 25x25.txt line 3 needs about 5000 conflicts: over 50 */
    {"conflicts", SUDOKU_TEST_DATA_DIR "/25x25_easy.txt", 1, 2, "conflict budget"},
};

static int read_puzzle(const struct budget_case *c, unsigned *n, uint8_t *cells)
{
    char buf[2048];
    FILE *f;
    int rc = -EINVAL;

    if (!c->from_file)
        return codec_parse_line(c->puzzle, strlen(c->puzzle), n, cells, NULL, 0);
    f = fopen(c->puzzle, "r");
    if (!f)
        return -errno;
    if (fgets(buf, sizeof(buf), f))
        rc = codec_parse_line(buf, strlen(buf), n, cells, NULL, 0);
    fclose(f);
    return rc;
}

/* Load the sat build in dir; fails the test when it does not load. */
static struct host *load(const char *dir, struct log_watch *l)
{
    char path[512];
    struct host *h = host_new(capture_log, l);

    assert_non_null(h);
    snprintf(path, sizeof(path), "%s/%s", SUDOKU_SATBUDGET_DIR, dir);
    assert_int_equal(host_load_dir(h, path), 1);
    assert_non_null(host_find(h, "sat"));
    return h;
}

static int solve(const struct host_plugin *p, unsigned n, const uint8_t *cells, uint64_t limit,
                 uint8_t *solution, uint64_t *count)
{
    struct sdk_job job = {.size = sizeof(job),
                          .n = n,
                          .cells = cells,
                          .limit = limit,
                          .deadline_ns = sdk_now_ns() + GUARD_NS,
                          .solution = solution};
    int rc = host_solve(p, &job);

    *count = job.count;
    return rc;
}

static void test_budgets_fail_cleanly(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct log_watch l = {.lock = PTHREAD_MUTEX_INITIALIZER, .want = cases[i].reason};
        struct host *h = load(cases[i].dir, &l);
        const struct host_plugin *p = host_find(h, "sat");
        uint8_t cells[SDK_MAX_CELLS], solution[SDK_MAX_CELLS];
        unsigned n = 0;
        uint64_t count;

        assert_int_equal(read_puzzle(&cases[i], &n, cells), 0);
        print_message("  case %zu (%s): %s\n", i, cases[i].dir, cases[i].reason);
        assert_int_equal(solve(p, n, cells, cases[i].limit, solution, &count), -EIO);
        assert_int_equal(l.hits, 1);
        /* Within budget, the same build still answers (4x4, limit 2). */
        memset(cells, 0, sizeof(cells));
        cells[0] = 1;
        assert_int_equal(solve(p, 4, cells, 2, solution, &count), SDK_SOLVED);
        assert_int_equal(count, 2);
        assert_int_equal(grid_check_solution(4, cells, solution, NULL, 0), 0);
        host_free(h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budgets_fail_cleanly),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
