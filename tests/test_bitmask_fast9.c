/* test_bitmask_fast9.c -- both builds of the bitmask 9x9 engine agree and are right.
 *
 * fast9.c is compiled twice (baseline x86-64 and AVX2/BMI2)
 * and bm_fast9_solve() picks one at run time, so the dlopen tests in
 * test_plugins.c only ever see the one this CPU selects.  This test links
 * the engine library directly and runs each 9x9 puzzle of golden.txt,
 * forum_hardest_sample.txt and daemon_17clue.txt through every build: the
 * status, the count and the guesses must be the same, and every solution is
 * checked by the rules against the puzzle.  On a CPU without AVX2/BMI2 (or
 * off x86-64) only the baseline build runs.
 */
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "bitmask.h"
#include "core/grid.h"

typedef int (*f9_entry)(struct sdk_job *job);

/* Solves cells with entry at limit 2; checks a found solution by the rules. */
static int run(f9_entry entry, const uint8_t *cells, uint8_t *solution, uint64_t *count,
               uint64_t *guesses)
{
    char err[128] = "";
    struct sdk_job job = {.size = sizeof(job), .n = 9, .cells = cells, .limit = 2};
    int status;

    job.solution = solution;
    status = entry(&job);
    *count = job.count;
    *guesses = job.guesses;
    if (job.count && grid_check_solution(9, cells, solution, err, sizeof(err)) != 0)
        fail_msg("wrong solution: %s", err);
    return status;
}

/* Reads the 81-cell puzzle at the end of line (after the last ':'), 0 if none. */
static int parse(const char *line, uint8_t *cells)
{
    const char *p = strrchr(line, ':');
    p = p ? p + 1 : line;
    if (strcspn(p, "\r\n") != 81)
        return 0;
    for (int i = 0; i < 81; i++) {
        if (p[i] >= '1' && p[i] <= '9')
            cells[i] = (uint8_t)(p[i] - '0');
        else if (p[i] == '.' || p[i] == '0')
            cells[i] = 0;
        else
            return 0;
    }
    return 1;
}

static int have_v3(void)
{
#if defined(BM_FAST9_V3)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

/* Every 9x9 line of one data file through both builds and the dispatcher. */
static void check_file(const char *name)
{
    char path[512], line[1024];
    int puzzles = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", SUDOKU_TEST_DATA_DIR, name);
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        uint8_t cells[81], sol_a[81], sol_b[81];
        uint64_t count_a, count_b, guesses_a, guesses_b;
        if (line[0] == '#' || !parse(line, cells))
            continue;
        puzzles++;
        int a = run(bm_fast9_solve_base, cells, sol_a, &count_a, &guesses_a);
        int b = run(bm_fast9_solve, cells, sol_b, &count_b, &guesses_b);
        assert_int_equal(a, b);
        assert_int_equal(count_a, count_b);
        assert_int_equal(guesses_a, guesses_b);
#if defined(BM_FAST9_V3)
        if (have_v3()) {
            b = run(bm_fast9_solve_v3, cells, sol_b, &count_b, &guesses_b);
            assert_int_equal(a, b);
            assert_int_equal(count_a, count_b);
            assert_int_equal(guesses_a, guesses_b);
        }
#endif
    }
    fclose(f);
    assert_true(puzzles > 0);
}

static void test_golden(void **state)
{
    (void)state;
    check_file("golden.txt");
}

static void test_forum_hardest(void **state)
{
    (void)state;
    check_file("forum_hardest_sample.txt");
}

static void test_17clue(void **state)
{
    (void)state;
    check_file("daemon_17clue.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_forum_hardest),
        cmocka_unit_test(test_17clue),
    };
    if (!have_v3())
        printf("# no AVX2/BMI2 build or CPU: baseline build only\n");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
