/* test_varsolve.c -- the solver plugins that take variant rules (bitmask, sat, dlx).
 *
 * Each plugin is loaded through the real dlopen path (the host) and called
 * directly with sdk_job.rules built by core/rules from the lines of
 * tests/data/varsolve.txt (format in tests/var_line.h: every rule, alone
 * and combined, at 4x4, 9x9, 16x16 and 25x25, unique, several and no
 * solutions) and tests/data/variants.txt (the shared golden puzzles).  A plugin runs a line only
 * when its declared rules cover the line's kinds; then its count must be
 * the expected one, and every solution it gives is judged by
 * rules_check_solution() (every rule and the givens), never compared as a
 * string.  The expected counts are themselves recounted by rules_count(),
 * core/rules' own backtracker, wherever it finishes within a node budget.
 * Then per plugin: what it declares, that a cancel or a passed deadline
 * stops a variant job, and that malformed rules fail the job (SDK_FAILED)
 * instead of crashing it.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/host.h"
#include "core/rules.h"
#include "sanitizer.h"
#include "test_rng.h"
#include "var_line.h"

#define LINES_MAX      128     /* variant lines in the two data files at most */
#define COUNT_NODES    2000000 /* rules_count's budget per line */
#define COUNT_NODES_16 20000   /* and per 16x16 line */
/* dlx's deadline on a line, which it may time out on: four lines reach it
 * in Release; under a sanitizer (sanitizer.h), where a node costs more,
 * waiting on them is all the extra time buys. */
#define SEARCH_NS (TEST_SANITIZED ? 500000000u : 2000000000u)
#define GUARD_NS  60000000000u /* deadline: a hang fails, never blocks */

/* A loaded line: the parsed text and its built rules. */
struct var_case {
    const char *file; /* its data file's name */
    int line;
    struct var_line v;
    struct rules *rules;
};

static struct var_case cases[LINES_MAX];
static size_t cases_len;
static struct host *host;
static atomic_int log_errors;

static void test_log(void *ctx, int level, const char *msg)
{
    (void)ctx;
    if (level <= SDK_LOG_WARNING) {
        atomic_fetch_add(&log_errors, 1);
        print_message("plugin log: %s\n", msg);
    }
}

static const struct sdk_host sdk_host = {.size = sizeof(struct sdk_host), .log = test_log};

/* ---------------------------------------------------------------- setup */

/* Parse one line of file into cases[] and build its rules.  Returns 0 or -1. */
static int add_case(const char *file, int (*parse)(const char *, struct var_line *),
                    const char *text, int line)
{
    struct var_case *c = &cases[cases_len];
    char err[256] = "";

    if (cases_len == LINES_MAX || parse(text, &c->v) != 0) {
        print_error("%s:%d: bad line\n", file, line);
        return -1;
    }
    if (rules_new(&c->v.desc, &c->rules, err, sizeof(err)) != 0) {
        print_error("%s:%d: rules: %s\n", file, line, err);
        return -1;
    }
    if (!c->rules)
        return 0; /* classic: test_plugins' business */
    c->file = file;
    c->line = line;
    cases_len++;
    return 0;
}

/* Load every puzzle line of tests/data/<file>.  Returns 0 or -1. */
static int load_cases(const char *file, int (*parse)(const char *, struct var_line *))
{
    static char buf[VAR_LINE_MAX];
    char path[512];
    FILE *f;
    int line = 0, rc = 0;

    snprintf(path, sizeof(path), "%s/%s", SUDOKU_TEST_DATA_DIR, file);
    if (!(f = fopen(path, "r")))
        return -1;
    while (rc == 0 && fgets(buf, sizeof(buf), f)) {
        line++;
        if (buf[0] != '#' && buf[0] != '\n')
            rc = add_case(file, parse, buf, line);
    }
    fclose(f);
    return rc;
}

static int group_setup(void **state)
{
    (void)state;
    host = host_new(test_log, NULL);
    if (!host || load_cases("varsolve.txt", var_line_parse) != 0 ||
        load_cases("variants.txt", var_line_parse_golden) != 0)
        return -1;
    return host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) > 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    for (size_t k = 0; k < cases_len; k++)
        rules_free(cases[k].rules);
    host_free(host);
    return 0;
}

/* ---------------------------------------------------------------- helpers */

/* Run plugin p on c with limit and the given stop controls.  Returns the
 * status; *job holds the answer (solution into sol). */
static int run(const struct host_plugin *p, const struct var_case *c, uint64_t limit,
               const struct sdk_rules *rules, const atomic_int *cancel, uint64_t deadline,
               uint8_t *sol, struct sdk_job *job)
{
    *job = (struct sdk_job){.size = sizeof(*job),
                            .n = c->v.n,
                            .cells = c->v.cells,
                            .limit = limit,
                            .cancel = cancel,
                            .deadline_ns = deadline,
                            .solution = sol,
                            .rules = rules};
    return p->desc->solve(p->state, &sdk_host, job);
}

/* Does p's solve() take every kind of c's rules at c's size? */
static int takes(const struct host_plugin *p, const struct var_case *c)
{
    const uint32_t kinds = rules_sdk(c->rules)->kinds;

    return (p->desc->sizes & sdk_size_bit(c->v.n)) &&
           (sdk_plugin_rules(p->desc, 0) & kinds) == kinds;
}

/* Check plugin p on case c within deadline_ns: the count, and the solution
 * against every rule.  Returns 1 when it finished, 0 when it timed out
 * (allowed only with may_time_out). */
static int check_case(const struct host_plugin *p, const struct var_case *c, uint64_t deadline_ns,
                      int may_time_out)
{
    const struct sdk_rules *r = rules_sdk(c->rules);
    uint8_t sol[SDK_MAX_CELLS];
    struct sdk_job job;
    char err[256] = "";
    const int rc = run(p, c, c->v.limit, r, NULL, sdk_now_ns() + deadline_ns, sol, &job);

    if (rc == SDK_TIMEDOUT && may_time_out)
        return 0;
    if (rc != (c->v.expected ? SDK_SOLVED : SDK_UNSOLVABLE) || job.count != c->v.expected)
        fail_msg("%s, %s:%d (%s): status %d, count %llu, want %llu", p->desc->name, c->file,
                 c->line, c->v.rules_text, rc, (unsigned long long)job.count,
                 (unsigned long long)c->v.expected);
    if (rc == SDK_SOLVED && rules_check_solution(r, c->v.n, c->v.cells, sol, err, sizeof(err)))
        fail_msg("%s, %s:%d: wrong solution: %s", p->desc->name, c->file, c->line, err);
    return 1;
}

/* The named plugin, or NULL (skip) when it was not built. */
static const struct host_plugin *plugin(const char *name)
{
    const struct host_plugin *p = host_find(host, name);

    if (!p)
        print_message("%s not built: skipped\n", name);
    return p;
}

/* ---------------------------------------------------------------- tests */

/* The expected counts, recounted independently by rules_count(). */
static void test_counts_independent(void **state)
{
    size_t checked = 0, checked16 = 0;

    (void)state;
    for (size_t k = 0; k < cases_len; k++) {
        const struct var_case *c = &cases[k];
        uint64_t count = 0;
        if (c->v.n > 16)
            continue; /* beyond a plain backtracker: the plugins must agree */
        /* 16x16 lines get a small budget: the ones a plain backtracker with
         * locked candidates proves at once, or none */
        int rc = rules_count(rules_sdk(c->rules), c->v.n, c->v.cells, c->v.limit,
                             c->v.n > 9 ? COUNT_NODES_16 : COUNT_NODES, NULL, &count);
        if (rc == -E2BIG)
            continue; /* too big for a plain backtracker: the plugins must agree */
        assert_int_equal(rc, 0);
        if (count != c->v.expected)
            fail_msg("%s:%d: rules_count says %llu, the file %llu", c->file, c->line,
                     (unsigned long long)count, (unsigned long long)c->v.expected);
        checked++;
        checked16 += c->v.n == 16;
    }
    print_message("rules_count agrees on %zu of %zu lines, %zu of them 16x16\n", checked, cases_len,
                  checked16);
    assert_true(checked * 2 > cases_len); /* most lines are small enough */
    assert_true(checked16 > 0);           /* locked candidates judged at 16x16 */
}

/* Every line a plugin takes: its count and its solutions.  A plugin that
 * may not finish every line (dlx, which neither learns clauses nor
 * propagates cages) may time out after SEARCH_NS on a line, as in
 * test_plugins on the hard classic puzzles, but must finish most; one
 * with must_finish (bitmask, sat) must finish them all. */
static void run_lines(const char *name, uint32_t want_rules, int must_finish)
{
    const struct host_plugin *p = plugin(name);
    size_t ran = 0, finished = 0;

    if (!p)
        skip();
    assert_int_equal(sdk_plugin_rules(p->desc, 0), want_rules);
    for (size_t k = 0; k < cases_len; k++) {
        if (!takes(p, &cases[k]))
            continue;
        finished +=
            (size_t)check_case(p, &cases[k], must_finish ? GUARD_NS : SEARCH_NS, !must_finish);
        ran++;
    }
    print_message("%s: %zu of %zu lines, %zu finished\n", name, ran, cases_len, finished);
    assert_true(ran > 0);
    assert_true(finished * 4 >= ran * 3);
    assert_int_equal(atomic_load(&log_errors), 0);
}

static void test_bitmask_lines(void **state)
{
    (void)state;
    run_lines("bitmask", SDK_RULE_ALL, 1);
}

static void test_sat_lines(void **state)
{
    (void)state;
    run_lines("sat", SDK_RULE_ALL, 1);
}

/* dlx takes the house rules and the pair rules, not killer cages. */
static void test_dlx_lines(void **state)
{
    (void)state;
    run_lines("dlx", SDK_RULE_ALL & ~(uint32_t)SDK_RULE_CAGES, 0);
}

/* The first case p takes with several solutions at side n. */
static const struct var_case *open_case(const struct host_plugin *p, unsigned n)
{
    for (size_t k = 0; k < cases_len; k++)
        if (cases[k].v.n == n && cases[k].v.expected > 1 && takes(p, &cases[k]))
            return &cases[k];
    return NULL;
}

/* A variant job stops on a cancel request and on a passed deadline. */
static void stop_checks(const char *name)
{
    const struct host_plugin *p = plugin(name);
    const struct var_case *c;
    atomic_int cancel = 1;
    uint8_t sol[SDK_MAX_CELLS];
    struct sdk_job job;

    if (!p)
        skip();
    c = open_case(p, 16);
    assert_non_null(c);
    /* a count far above what exists: only the stop can end it early */
    assert_int_equal(run(p, c, UINT64_MAX, rules_sdk(c->rules), &cancel, 0, sol, &job),
                     SDK_CANCELLED);
    assert_int_equal(run(p, c, UINT64_MAX, rules_sdk(c->rules), NULL, 1, sol, &job), SDK_TIMEDOUT);
}

static void test_bitmask_stops(void **state)
{
    (void)state;
    stop_checks("bitmask");
}

/* Run p on c with limit, a budget of guesses and a job of size bytes. */
static int run_budget(const struct host_plugin *p, const struct var_case *c, uint64_t limit,
                      uint64_t budget, size_t size, uint8_t *sol, struct sdk_job *job)
{
    *job = (struct sdk_job){.size = (uint32_t)size,
                            .n = c->v.n,
                            .cells = c->v.cells,
                            .limit = limit,
                            .solution = sol,
                            .rules = rules_sdk(c->rules),
                            .max_guesses = budget};
    return p->desc->solve(p->state, &sdk_host, job);
}

/* A budget of guesses (minor 5) of 50 on an open 16x16 case of plugin
 * name (counting to limit), twice: both stop with SDK_EXHAUSTED at the same
 * place, with the same work, finds and first solution.  On an open 9x9
 * case, a budget of 1 stops a count to 2, which a job whose size ends
 * before the field (a host built before minor 5: no budget) finishes (the
 * 16x16 case takes dlx seconds to finish).  *first: the first stop. */
static void open_budget_checks(const char *name, uint64_t limit, struct sdk_job *first)
{
    const struct host_plugin *p = plugin(name);
    const size_t old = offsetof(struct sdk_job, max_guesses);
    const struct var_case *c;
    uint8_t sol[SDK_MAX_CELLS], again[SDK_MAX_CELLS];
    struct sdk_job job;

    if (!p)
        skip();
    c = open_case(p, 16);
    assert_non_null(c);
    assert_int_equal(run_budget(p, c, limit, 50, sizeof(job), sol, first), SDK_EXHAUSTED);
    assert_int_equal(run_budget(p, c, limit, 50, sizeof(job), again, &job), SDK_EXHAUSTED);
    assert_int_equal(job.guesses, first->guesses);
    assert_int_equal(job.count, first->count); /* the same stop, the same finds */
    if (job.count)
        assert_memory_equal(again, sol, (size_t)c->v.n * c->v.n);
    c = open_case(p, 9);
    assert_non_null(c);
    assert_int_equal(run_budget(p, c, 2, 1, sizeof(job), sol, &job), SDK_EXHAUSTED);
    assert_int_equal(run_budget(p, c, 2, 1, old, sol, &job), SDK_SOLVED);
    assert_int_equal(job.count, 2);
}

/* bitmask counts its guesses in job->guesses and stops at the budget. */
static void test_bitmask_budget(void **state)
{
    struct sdk_job job;

    (void)state;
    open_budget_checks("bitmask", UINT64_MAX, &job);
    assert_int_equal(job.guesses, 50);
}

/* dlx's budget counts its guesses, the options tried on an item that had
 * two or more, not the forced ones it also counts in job->guesses: the
 * stop comes after 50 of them, having tried more options than that.  (A
 * limit, so that a dlx ignoring the budget answers SDK_SOLVED.) */
static void test_dlx_budget(void **state)
{
    struct sdk_job job;

    (void)state;
    open_budget_checks("dlx", 1000, &job);
    assert_true(job.guesses > 50);
}

/* sat's budget of guesses is one of conflicts: on a case that takes it
 * some (the first of at least 4 conflicts), half of them stops the job with
 * SDK_EXHAUSTED within the budget, at the same place every time; a job
 * sized before minor 5 has no budget and proves the case as before. */
static void test_sat_budget(void **state)
{
    const struct host_plugin *p = plugin("sat");
    const size_t old = offsetof(struct sdk_job, max_guesses);
    const struct var_case *c = NULL;
    uint8_t sol[SDK_MAX_CELLS], again[SDK_MAX_CELLS];
    struct sdk_job job, job2;
    uint64_t need = 0;

    (void)state;
    if (!p)
        skip();
    for (size_t k = 0; k < cases_len && !c; k++) {
        if (cases[k].v.expected != 1 || !takes(p, &cases[k]))
            continue;
        assert_int_equal(run_budget(p, &cases[k], 2, 0, sizeof(job), sol, &job), SDK_SOLVED);
        if (job.guesses >= 4) {
            c = &cases[k];
            need = job.guesses;
        }
    }
    assert_non_null(c); /* varsolve.txt has such cases */
    assert_int_equal(run_budget(p, c, 2, need / 2, sizeof(job), sol, &job), SDK_EXHAUSTED);
    assert_true(job.guesses <= need / 2);
    assert_int_equal(run_budget(p, c, 2, need / 2, sizeof(job), again, &job2), SDK_EXHAUSTED);
    assert_int_equal(job2.guesses, job.guesses); /* the same stop, the same finds */
    assert_int_equal(job2.count, job.count);
    if (job.count)
        assert_memory_equal(again, sol, (size_t)c->v.n * c->v.n);
    assert_int_equal(run_budget(p, c, 2, 1, old, sol, &job), SDK_SOLVED);
    assert_int_equal(job.count, 1);
    assert_int_equal(atomic_load(&log_errors), 0); /* a spent budget is no failure */
}

static void test_sat_stops(void **state)
{
    (void)state;
    stop_checks("sat");
}

static void test_dlx_stops(void **state)
{
    (void)state;
    stop_checks("dlx");
}

/* One way to break a good rules table, and what it breaks. */
struct breakage {
    const char *what;
    void (*apply)(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages);
};

static void bad_kind(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    (void)cages;
    r->kinds |= 0x80u;
}

static void bad_side(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    (void)cages;
    r->n = 4;
}

static void bad_houses(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    (void)cages;
    r->houses_len = 3 * r->n - 1;
}

static void bad_pair_order(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)cages;
    pairs[0] = pairs[1];
    r->differ = pairs;
    r->differ_len = 1;
}

static void bad_pair_cell(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)cages;
    pairs[1] = (uint16_t)(r->n * r->n);
    r->nonconsec = pairs;
    r->nonconsec_len = 1;
}

static void bad_cage_len(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    cages[0].len = 0;
    r->cages = cages;
}

static void bad_cage_off(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    cages[0].off = r->cage_cells_len;
    r->cages = cages;
}

static void bad_cage_sum(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    cages[0].sum = r->n * (r->n + 1) / 2 + 1;
    r->cages = cages;
}

static void bad_cage_twice(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    cages[1] = cages[0];
    r->cages = cages;
}

static void bad_size(struct sdk_rules *r, uint16_t *pairs, struct sdk_cage *cages)
{
    (void)pairs;
    (void)cages;
    r->size = offsetof(struct sdk_rules, cages);
}

static const struct breakage breakages[] = {
    {"an unknown kind", bad_kind},           /* kinds beyond SDK_RULE_ALL */
    {"the wrong side", bad_side},            /* rules for 4x4 on a 9x9 job */
    {"too few houses", bad_houses},          /* not even rows, columns, boxes */
    {"a pair a >= b", bad_pair_order},       /* differ (a, a) */
    {"a pair out of range", bad_pair_cell},  /* nonconsec cell n*n */
    {"an empty cage", bad_cage_len},         /* len 0 */
    {"a cage past its cells", bad_cage_off}, /* off at the end */
    {"a cage sum too high", bad_cage_sum},   /* above 1 + ... + n */
    {"a cell in two cages", bad_cage_twice}, /* the same cage twice */
    {"a short struct", bad_size},            /* size before the cages */
};

/* The 9x9 case with cages and the most kinds: the table every breakage
 * starts from. */
static const struct var_case *killer_case(void)
{
    const struct var_case *best = NULL;

    for (size_t k = 0; k < cases_len; k++) {
        const struct sdk_rules *r = rules_sdk(cases[k].rules);
        if (cases[k].v.n == 9 && r->cages_len > 1 && r->differ_len == 0 &&
            (!best ||
             __builtin_popcount(r->kinds) > __builtin_popcount(rules_sdk(best->rules)->kinds)))
            best = &cases[k];
    }
    return best;
}

/* Malformed rules fail the job, never crash it. */
static void bad_rules_checks(const char *name)
{
    const struct host_plugin *p = plugin(name);
    const struct var_case *c = killer_case();
    uint16_t pairs[2] = {10, 20};
    struct sdk_cage cages[SDK_MAX_CELLS];
    uint8_t sol[SDK_MAX_CELLS];
    struct sdk_job job;

    if (!p)
        skip();
    assert_non_null(c);
    for (size_t k = 0; k < sizeof(breakages) / sizeof(breakages[0]); k++) {
        struct sdk_rules r = *rules_sdk(c->rules);
        memcpy(cages, r.cages, sizeof(*cages) * r.cages_len);
        breakages[k].apply(&r, pairs, cages);
        if (run(p, c, 2, &r, NULL, sdk_now_ns() + GUARD_NS, sol, &job) != SDK_FAILED)
            fail_msg("%s: %s was not refused", name, breakages[k].what);
    }
}

static void test_bitmask_bad_rules(void **state)
{
    (void)state;
    bad_rules_checks("bitmask");
}

static void test_sat_bad_rules(void **state)
{
    (void)state;
    bad_rules_checks("sat");
}

static void test_dlx_bad_rules(void **state)
{
    (void)state;
    bad_rules_checks("dlx");
}

/* ------------------------------------------------- the band solver's rules */

#define BAND_PUZZLES 60 /* random puzzles per mix of rules */

/* Run bitmask on cells under r with limit.  Returns the status. */
static int band_run(const struct host_plugin *p, const struct sdk_rules *r, const uint8_t *cells,
                    uint64_t limit, uint64_t budget, uint8_t *sol, struct sdk_job *job)
{
    *job = (struct sdk_job){.size = sizeof(*job),
                            .n = 9,
                            .cells = cells,
                            .limit = limit,
                            .deadline_ns = sdk_now_ns() + GUARD_NS,
                            .solution = sol,
                            .rules = r,
                            .max_guesses = budget};
    return p->desc->solve(p->state, &sdk_host, job);
}

/* A full grid under r: bitmask completes three random givens until one
 * set has a completion (1000 tries at most), which rules_check_solution()
 * then judges. */
static void band_grid(const struct host_plugin *p, const struct sdk_rules *r, uint64_t *rng,
                      uint8_t *grid)
{
    uint8_t cells[81];
    struct sdk_job job;
    char err[256] = "";

    for (int tries = 0;; tries++) {
        assert_true(tries < 1000);
        memset(cells, 0, sizeof(cells));
        for (int k = 0; k < 3; k++)
            cells[test_rng_below(rng, 81)] = (uint8_t)(1 + test_rng_below(rng, 9));
        if (band_run(p, r, cells, 1, 0, grid, &job) == SDK_SOLVED)
            break;
    }
    if (rules_check_solution(r, 9, cells, grid, err, sizeof(err)))
        fail_msg("kinds %#x: bad grid: %s", r->kinds, err);
}

/* One random puzzle under r: some cells of grid, and now and then a given
 * that is not the grid's (a puzzle with other solutions, or none).
 * bitmask's count up to 2 must be rules_count's, its solution keep every
 * rule; seen[] counts the puzzles compared, by their count.  Returns 1 when
 * rules_count finished (the counts were compared). */
static int band_puzzle(const struct host_plugin *p, const struct sdk_rules *r, uint64_t *rng,
                       const uint8_t *grid, unsigned seen[3])
{
    uint8_t cells[81], sol[81];
    const unsigned keep = 12 + test_rng_below(rng, 24);
    struct sdk_job job;
    uint64_t count = 0;
    char err[256] = "";

    for (int c = 0; c < 81; c++)
        cells[c] = test_rng_below(rng, 81) < keep ? grid[c] : 0;
    if (test_rng_below(rng, 3) == 0)
        cells[test_rng_below(rng, 81)] = (uint8_t)(1 + test_rng_below(rng, 9));
    const int rc = band_run(p, r, cells, 2, 0, sol, &job);
    if (rc != (job.count ? SDK_SOLVED : SDK_UNSOLVABLE))
        fail_msg("kinds %#x: status %d with count %llu", r->kinds, rc,
                 (unsigned long long)job.count);
    if (job.count && rules_check_solution(r, 9, cells, sol, err, sizeof(err)))
        fail_msg("kinds %#x: wrong solution: %s", r->kinds, err);
    if (rules_count(r, 9, cells, 2, COUNT_NODES, NULL, &count) != 0)
        return 0;
    seen[count]++;
    if (count != job.count)
        fail_msg("kinds %#x: bitmask counts %llu, rules_count %llu", r->kinds,
                 (unsigned long long)job.count, (unsigned long long)count);
    return 1;
}

/* bitmask solves 9x9 X and windoku puzzles, and X-windoku, with its band
 * solver (fast9.c), which reads those rules its own way: on random puzzles
 * of each mix its counts are rules_count's and its solutions keep every
 * rule; a budget of one guess stops an open count; and a malformed table
 * fails the job. */
static void test_bitmask_band_rules(void **state)
{
    static const uint32_t mixes[] = {
        SDK_RULE_DIAGONALS,
        SDK_RULE_WINDOWS,
        SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS,
    };
    const struct host_plugin *p = plugin("bitmask");
    uint64_t rng = 0x5eed0f9u;
    const uint8_t empty[81] = {0};
    uint8_t grid[81];
    struct sdk_job job;
    unsigned compared = 0, seen[3] = {0};

    (void)state;
    if (!p)
        skip();
    for (size_t m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++) {
        const struct rules_desc desc = {.n = 9, .flags = mixes[m]};
        struct rules *rules = NULL;
        char err[256] = "";
        assert_int_equal(rules_new(&desc, &rules, err, sizeof(err)), 0);
        const struct sdk_rules *r = rules_sdk(rules);
        band_grid(p, r, &rng, grid);
        for (int k = 0; k < BAND_PUZZLES; k++)
            compared += (unsigned)band_puzzle(p, r, &rng, grid, seen);
        assert_int_equal(band_run(p, r, empty, 2, 1, grid, &job), SDK_EXHAUSTED);
        struct sdk_rules bad = *r;
        bad.houses_len = 26; /* not even rows, columns and boxes */
        assert_int_equal(band_run(p, &bad, empty, 2, 0, grid, &job), SDK_FAILED);
        bad = *r;
        bad.n = 4;
        assert_int_equal(band_run(p, &bad, empty, 2, 0, grid, &job), SDK_FAILED);
        rules_free(rules);
    }
    print_message("band solver: %u of %zu puzzles compared with rules_count (%u with no "
                  "solution, %u unique, %u with more)\n",
                  compared, sizeof(mixes) / sizeof(mixes[0]) * BAND_PUZZLES, seen[0], seen[1],
                  seen[2]);
    assert_true(seen[0] && seen[1] && seen[2]);
    assert_true(compared * 4 >= sizeof(mixes) / sizeof(mixes[0]) * BAND_PUZZLES * 3);
    assert_int_equal(atomic_load(&log_errors), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_independent), cmocka_unit_test(test_bitmask_lines),
        cmocka_unit_test(test_bitmask_stops),      cmocka_unit_test(test_bitmask_budget),
        cmocka_unit_test(test_bitmask_bad_rules),  cmocka_unit_test(test_sat_lines),
        cmocka_unit_test(test_sat_stops),          cmocka_unit_test(test_sat_budget),
        cmocka_unit_test(test_dlx_budget),         cmocka_unit_test(test_sat_bad_rules),
        cmocka_unit_test(test_dlx_lines),          cmocka_unit_test(test_dlx_stops),
        cmocka_unit_test(test_dlx_bad_rules),      cmocka_unit_test(test_bitmask_band_rules),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
