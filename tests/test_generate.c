/* test_generate.c -- the puzzle generator (core/generate.c), checked from outside.
 *
 * Plugins come through the real dlopen path (every plugin in
 * SUDOKU_BUILD_PLUGIN_DIR).  Every generated puzzle is judged without the
 * generator's help and with a different plugin than the one that made it:
 * givens and solution by the rules (core/grid.c), uniqueness by counting
 * with limit 2, minimality by blanking each orbit of givens (orbits worked
 * out here, from the symmetry's definition) and counting again, symmetry by
 * mapping every given.  Then reproducibility (same seed, same bytes; a
 * puzzle's own seed makes it again; a batch split over threads gives the
 * same array), the band filter with a test rating, and stopping: a deadline
 * already past, and a cancel raised in the middle of a batch.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/generate.h"
#include "core/grid.h"
#include "core/host.h"

#define BATCH_LEN 6 /* puzzles in the batch tests */

static struct host *host;
static const struct host_plugin *maker;   /* makes the puzzles: bitmask */
static const struct host_plugin *checker; /* judges them: dlx */

static void test_log(void *ctx, int level, const char *msg)
{
    (void)ctx;
    if (level <= SDK_LOG_WARNING)
        print_message("host log: %s\n", msg);
}

static int group_setup(void **state)
{
    (void)state;
    host = host_new(test_log, NULL);
    if (!host || host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) <= 0)
        return -1;
    maker = host_find(host, "bitmask");
    checker = host_find(host, "dlx");
    return maker && checker ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    host_free(host);
    return 0;
}

/* ---------------------------------------------------------------- judging */

/* Solutions of cells, up to 2, counted by plugin p. */
static uint64_t count2(const struct host_plugin *p, unsigned n, const uint8_t *cells)
{
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_job job = {
        .size = sizeof(job), .n = n, .cells = cells, .limit = 2, .solution = solution};

    int rc = host_solve(p, &job);

    assert_int_equal(rc, job.count ? SDK_SOLVED : SDK_UNSOLVABLE);
    return job.count;
}

/* The images of cell under sym's generators, written here from the
 * definitions in generate.h.  Returns how many (0 for none). */
static unsigned images(unsigned n, enum gen_symmetry sym, unsigned cell, unsigned *out)
{
    unsigned r = cell / n, c = cell % n, m = n - 1;

    switch (sym) {
    case GEN_SYM_ROTATE180:
        out[0] = (m - r) * n + (m - c);
        return 1;
    case GEN_SYM_ROTATE90:
        out[0] = c * n + (m - r);
        return 1;
    case GEN_SYM_MIRROR:
        out[0] = r * n + (m - c);
        return 1;
    case GEN_SYM_FLIP:
        out[0] = (m - r) * n + c;
        return 1;
    case GEN_SYM_DIAGONAL:
        out[0] = c * n + r;
        return 1;
    default:
        return 0;
    }
}

/* The orbit of cell: everything reachable through images(), into mark. */
static void mark_orbit(unsigned n, enum gen_symmetry sym, unsigned cell, uint8_t *mark)
{
    unsigned next[1];

    while (!mark[cell]) {
        mark[cell] = 1;
        if (images(n, sym, cell, next) == 0)
            return;
        cell = next[0];
    }
}

static void check_symmetric(const struct gen_puzzle *gp, enum gen_symmetry sym)
{
    unsigned n = gp->n, img[1];

    for (unsigned cell = 0; cell < n * n; cell++) {
        if (images(n, sym, cell, img))
            assert_int_equal(gp->puzzle[cell] != 0, gp->puzzle[img[0]] != 0);
    }
}

/* Blank each orbit of givens in turn: two solutions every time. */
static void check_minimal(const struct gen_puzzle *gp, enum gen_symmetry sym)
{
    unsigned n = gp->n;
    uint8_t done[SDK_MAX_CELLS] = {0};

    for (unsigned cell = 0; cell < n * n; cell++) {
        uint8_t orbit[SDK_MAX_CELLS] = {0}, cells[SDK_MAX_CELLS];

        if (!gp->puzzle[cell] || done[cell])
            continue;
        mark_orbit(n, sym, cell, orbit);
        memcpy(cells, gp->puzzle, (size_t)n * n);
        for (unsigned i = 0; i < n * n; i++) {
            if (orbit[i]) {
                cells[i] = 0;
                done[i] = 1;
            }
        }
        assert_int_equal(count2(checker, n, cells), 2);
    }
}

/* Everything a puzzle must be, judged by the rules and by the checker. */
static void check_puzzle(const struct gen_puzzle *gp, unsigned n, enum gen_symmetry sym,
                         int is_minimal)
{
    unsigned givens = 0;

    assert_int_equal(gp->n, n);
    assert_int_equal(grid_check_givens(n, gp->puzzle, NULL, 0), 0);
    assert_int_equal(grid_check_solution(n, gp->puzzle, gp->solution, NULL, 0), 0);
    for (unsigned i = 0; i < n * n; i++)
        givens += gp->puzzle[i] != 0;
    assert_int_equal(gp->givens, givens);
    assert_true(givens < n * n);
    assert_int_equal(count2(checker, n, gp->puzzle), 1);
    check_symmetric(gp, sym);
    if (is_minimal)
        check_minimal(gp, sym);
}

/* ---------------------------------------------------------------- shapes */

/* One row per shape asked for. */
static const struct shape {
    unsigned n;
    enum gen_symmetry sym;
    int is_minimal;
    unsigned count; /* puzzles made and judged */
} shapes[] = {
    {4, GEN_SYM_NONE, 1, 20},     /* the smallest size, many seeds */
    {4, GEN_SYM_ROTATE90, 1, 20}, /* orbits of 4 on an even side */
    {9, GEN_SYM_NONE, 1, 8},      /* the common case */
    {9, GEN_SYM_ROTATE180, 1, 4}, /* pairs and a centre cell */
    {9, GEN_SYM_ROTATE90, 1, 4},  /* orbits of 4 and a centre cell */
    {9, GEN_SYM_MIRROR, 1, 4},    /* left-right */
    {9, GEN_SYM_FLIP, 1, 4},      /* top-bottom */
    {9, GEN_SYM_DIAGONAL, 1, 4},  /* the main diagonal stays single */
    {9, GEN_SYM_NONE, 0, 8},      /* unique, not necessarily minimal */
    {9, GEN_SYM_ROTATE180, 0, 4}, /* the same, symmetric */
    {16, GEN_SYM_ROTATE90, 1, 1}, /* 16x16, the cheaper symmetric case */
    {16, GEN_SYM_NONE, 1, 1},     /* 16x16 minimal, one orbit a cell */
};

static void test_shapes(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        struct gen_spec spec;

        gen_spec_init(&spec, maker);
        spec.n = shapes[s].n;
        spec.symmetry = shapes[s].sym;
        spec.is_minimal = shapes[s].is_minimal;
        for (unsigned k = 0; k < shapes[s].count; k++) {
            struct gen_puzzle gp;

            assert_int_equal(gen_one(&spec, 1000 + k, &gp), 0);
            assert_int_equal(gp.seed, 1000 + k);
            assert_int_equal(gp.attempts, 1);
            check_puzzle(&gp, shapes[s].n, shapes[s].sym, shapes[s].is_minimal);
        }
    }
}

/* Another counting plugin makes puzzles too; bitmask judges them. */
static void test_other_maker(void **state)
{
    struct gen_spec spec;
    struct gen_puzzle gp;
    const struct host_plugin *judge = checker;

    (void)state;
    gen_spec_init(&spec, checker);
    checker = maker;
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(gen_one(&spec, k, &gp), 0);
        check_puzzle(&gp, 9, GEN_SYM_NONE, 1);
    }
    checker = judge;
}

/* A 16x16 seed whose random diagonal boxes send bitmask's completion down a
 * tail of minutes: the completion's budget of guesses (gen_grid.c) draws
 * again, so the puzzle comes (in under a second), judged as every other,
 * and again byte for byte.  A guard deadline turns a regression into a
 * failure, not a hang. */
static void test_heavy_fill(void **state)
{
    struct gen_spec spec;
    static struct gen_puzzle gp, again;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.n = 16;
    spec.is_minimal = 0;
    spec.deadline_ns = sdk_now_ns() + 60000000000ull;
    assert_int_equal(gen_one(&spec, 5307919188781541395ull, &gp), 0);
    check_puzzle(&gp, 16, GEN_SYM_NONE, 0);
    assert_int_equal(gen_one(&spec, 5307919188781541395ull, &again), 0);
    assert_memory_equal(&gp, &again, sizeof(gp));
}

/* bitmask's search at 16x16 keeps a budget of guesses (ABI minor 5): a
 * count to 2 on the empty grid stops with SDK_EXHAUSTED after 10 guesses,
 * and a job sized before the field (no budget) finishes it, each answer
 * checked by host_solve(). */
static void test_bitmask_budget_16(void **state)
{
    static uint8_t cells[256], sol[256];
    struct sdk_job job = {.size = sizeof(job),
                          .n = 16,
                          .cells = cells,
                          .limit = 2,
                          .solution = sol,
                          .max_guesses = 10};

    (void)state;
    assert_int_equal(host_solve(maker, &job), SDK_EXHAUSTED);
    assert_true(job.guesses <= 10);
    job = (struct sdk_job){.size = (uint32_t)offsetof(struct sdk_job, max_guesses),
                           .n = 16,
                           .cells = cells,
                           .limit = 2,
                           .solution = sol};
    assert_int_equal(host_solve(maker, &job), SDK_SOLVED);
    assert_int_equal(job.count, 2);
}

/* ---------------------------------------------------------------- seeds */

static void test_same_seed_same_bytes(void **state)
{
    struct gen_spec spec;
    struct gen_puzzle a, b;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.symmetry = GEN_SYM_ROTATE180;
    memset(&a, 0xa5, sizeof(a));
    memset(&b, 0x5a, sizeof(b));
    assert_int_equal(gen_one(&spec, 77, &a), 0);
    assert_int_equal(gen_one(&spec, 77, &b), 0);
    assert_memory_equal(&a, &b, sizeof(a)); /* every byte, padding and unused cells too */
}

static void test_different_seeds_differ(void **state)
{
    struct gen_spec spec;
    static struct gen_puzzle gp[8];

    (void)state;
    gen_spec_init(&spec, maker);
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(gen_one(&spec, k * 0x100000001ull, &gp[k]), 0);
    for (unsigned i = 0; i < 8; i++) {
        for (unsigned j = i + 1; j < 8; j++) {
            assert_true(memcmp(gp[i].puzzle, gp[j].puzzle, 81) != 0);
            assert_true(memcmp(gp[i].solution, gp[j].solution, 81) != 0);
        }
    }
}

static void test_batch_seeds(void **state)
{
    (void)state;
    assert_int_equal(gen_batch_seed(42, 0), 42);
    assert_int_equal(gen_batch_seed(0, 0), 0);
    for (uint64_t i = 1; i < 200; i++) {
        assert_true(gen_batch_seed(42, i) != 42);
        assert_true(gen_batch_seed(42, i) != gen_batch_seed(42, i - 1));
        assert_true(gen_batch_seed(42, i) != gen_batch_seed(43, i));
    }
}

/* Each puzzle of a batch carries a seed that makes it again alone. */
static void test_own_seed_regenerates(void **state)
{
    struct gen_spec spec;
    static struct gen_puzzle batch[BATCH_LEN];
    size_t done = 99;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.symmetry = GEN_SYM_MIRROR;
    assert_int_equal(gen_batch(&spec, 5150, 0, BATCH_LEN, batch, &done), 0);
    assert_int_equal(done, BATCH_LEN);
    assert_int_equal(batch[0].seed, 5150);
    for (unsigned i = 0; i < BATCH_LEN; i++) {
        struct gen_puzzle again;

        assert_int_equal(batch[i].seed, gen_batch_seed(5150, i));
        assert_int_equal(gen_one(&spec, batch[i].seed, &again), 0);
        assert_memory_equal(again.puzzle, batch[i].puzzle, 81);
        assert_memory_equal(again.solution, batch[i].solution, 81);
        check_puzzle(&batch[i], 9, GEN_SYM_MIRROR, 1);
    }
}

/* A range [first, first+len) of a batch, for a thread. */
struct part {
    const struct gen_spec *spec;
    uint64_t first;
    size_t len;
    struct gen_puzzle *out;
    int rc;
};

static void *run_part(void *arg)
{
    struct part *p = arg;

    p->rc = gen_batch(p->spec, 99, p->first, p->len, p->out, NULL);
    return NULL;
}

/* Two threads at once, each on half the batch, fill what one thread does. */
static void test_batch_split_over_threads(void **state)
{
    struct gen_spec spec;
    static struct gen_puzzle one[BATCH_LEN], two[BATCH_LEN];
    struct part parts[2];
    pthread_t t[2];

    (void)state;
    gen_spec_init(&spec, maker);
    assert_int_equal(gen_batch(&spec, 99, 0, BATCH_LEN, one, NULL), 0);
    for (unsigned i = 0; i < 2; i++) {
        parts[i] =
            (struct part){&spec, i * (BATCH_LEN / 2), BATCH_LEN / 2, two + i * (BATCH_LEN / 2), -1};
        assert_int_equal(pthread_create(&t[i], NULL, run_part, &parts[i]), 0);
    }
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(parts[i].rc, 0);
    }
    for (unsigned i = 0; i < BATCH_LEN; i++) {
        assert_memory_equal(one[i].puzzle, two[i].puzzle, 81);
        assert_int_equal(one[i].seed, two[i].seed);
    }
}

/* ---------------------------------------------------------------- bands */

/* The test rating: the number of givens (fewer = harder), and a call count. */
struct rater {
    unsigned calls;
    unsigned cancel_after; /* raise cancel after this many calls; 0 = never */
    atomic_int *cancel;
    int fail; /* return this instead of rating, when non-zero */
};

static int rate_givens(void *ctx, const struct gen_rate_job *job, double *rating)
{
    struct rater *r = ctx;
    unsigned givens = 0;

    r->calls++;
    if (r->fail)
        return r->fail;
    for (unsigned i = 0; i < job->n * job->n; i++)
        givens += job->puzzle[i] != 0;
    *rating = givens;
    if (r->cancel_after && r->calls == r->cancel_after)
        atomic_store(r->cancel, 1);
    return 0;
}

static void test_band_respected(void **state)
{
    struct rater r = {0};
    struct gen_spec spec;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.rate = rate_givens;
    spec.rate_ctx = &r;
    spec.min_rating = 22;
    spec.max_rating = 23;
    for (unsigned k = 0; k < 4; k++) {
        struct gen_puzzle gp, again;
        unsigned before = r.calls;

        assert_int_equal(gen_one(&spec, 300 + k, &gp), 0);
        assert_true(gp.givens >= 22 && gp.givens <= 23);
        assert_true(gp.rating == (double)gp.givens);
        assert_int_equal(r.calls - before, gp.attempts);
        assert_int_equal(gp.above + gp.below, gp.attempts - 1); /* the refused ones */
        check_puzzle(&gp, 9, GEN_SYM_NONE, 1);
        /* Its own seed lands in the band at the first attempt. */
        assert_int_equal(gen_one(&spec, gp.seed, &again), 0);
        assert_int_equal(again.attempts, 1);
        assert_memory_equal(again.puzzle, gp.puzzle, 81);
    }
}

/* With several removal orders a grid, each candidate's own seed makes it
 * again at the first attempt (the order in its low bits, wrapping from 15
 * to 0), and a puzzle found on the first grid has the grid of the seed
 * with its low bits clear, which the plain generator makes without a band. */
static void test_band_orders(void **state)
{
    static const uint64_t seeds[] = {0x1234567full, 300, 0xfffffffffffffff2ull};
    struct rater r = {0};
    struct gen_spec spec, plain;

    (void)state;
    gen_spec_init(&spec, maker);
    gen_spec_init(&plain, maker);
    spec.symmetry = plain.symmetry = GEN_SYM_ROTATE180;
    spec.rate = rate_givens;
    spec.rate_ctx = &r;
    spec.min_rating = 24;
    spec.max_rating = 26;
    spec.orders = GEN_MAX_ORDERS;
    for (unsigned k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
        struct gen_puzzle gp, again, grid;
        unsigned before = r.calls;

        assert_int_equal(gen_one(&spec, seeds[k], &gp), 0);
        assert_true(gp.givens >= 24 && gp.givens <= 26);
        assert_int_equal(r.calls - before, gp.attempts);
        check_puzzle(&gp, 9, GEN_SYM_ROTATE180, 1);
        assert_int_equal(gen_one(&spec, gp.seed, &again), 0);
        assert_int_equal(again.attempts, 1);
        assert_int_equal(again.seed, gp.seed);
        assert_memory_equal(again.puzzle, gp.puzzle, 81);
        assert_memory_equal(again.solution, gp.solution, 81);
        if (gp.attempts <= GEN_MAX_ORDERS) {
            assert_true((gp.seed & ~15ull) == (seeds[k] & ~15ull));
            assert_true((gp.seed & 15) == ((seeds[k] + gp.attempts - 1) & 15));
            assert_int_equal(gen_one(&plain, seeds[k] & ~15ull, &grid), 0);
            assert_memory_equal(grid.solution, gp.solution, 81);
        }
    }
}

/* The rating callback sees orders candidates of each grid in turn: the
 * same solution, different puzzles; then a new grid. */
struct seen {
    unsigned len;
    uint8_t puzzle[8][81], solution[8][81];
};

static int rate_record(void *ctx, const struct gen_rate_job *job, double *rating)
{
    struct seen *s = ctx;

    if (s->len < 8) {
        memcpy(s->puzzle[s->len], job->puzzle, 81);
        memcpy(s->solution[s->len], job->solution, 81);
        s->len++;
    }
    *rating = 0;
    return 0;
}

static void test_band_orders_share_grid(void **state)
{
    (void)state;
    for (unsigned orders = 1; orders <= 4; orders *= 4) {
        struct seen s = {0};
        struct gen_spec spec;
        struct gen_puzzle gp;

        gen_spec_init(&spec, maker);
        spec.rate = rate_record;
        spec.rate_ctx = &s;
        spec.min_rating = spec.max_rating = 1; /* never */
        spec.max_attempts = 8;
        spec.orders = orders;
        assert_int_equal(gen_one(&spec, 64, &gp), -ERANGE);
        assert_int_equal(s.len, 8);
        for (unsigned i = 0; i < 8; i++) {
            for (unsigned j = i + 1; j < 8; j++) {
                int is_same_grid = i / orders == j / orders;

                assert_true(memcmp(s.puzzle[i], s.puzzle[j], 81) != 0);
                assert_int_equal(memcmp(s.solution[i], s.solution[j], 81) == 0, is_same_grid);
            }
        }
    }
}

static void test_band_out_of_reach(void **state)
{
    struct rater r = {0};
    struct gen_spec spec;
    struct gen_puzzle gp;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.rate = rate_givens;
    spec.rate_ctx = &r;
    spec.min_rating = 70;
    spec.max_rating = 80;
    spec.max_attempts = 5;
    assert_int_equal(gen_one(&spec, 1, &gp), -ERANGE);
    assert_int_equal(r.calls, 5);
    /* what the band refused is told, for the error's message */
    assert_int_equal(gp.below, 5);
    assert_int_equal(gp.above, 0);
    spec.min_rating = 0;
    spec.max_rating = 5; /* no unique 9x9 puzzle has 5 givens */
    assert_int_equal(gen_one(&spec, 1, &gp), -ERANGE);
    assert_int_equal(gp.above, 5);
    assert_int_equal(gp.below, 0);
    r.fail = -EIO;
    assert_int_equal(gen_one(&spec, 1, &gp), -EIO);
}

/* ---------------------------------------------------------------- stopping */

static void test_deadline_passed(void **state)
{
    struct gen_spec spec;
    static struct gen_puzzle out[2];
    size_t done = 99;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.deadline_ns = sdk_now_ns() - 1;
    assert_int_equal(gen_one(&spec, 1, &out[0]), -ETIMEDOUT);
    assert_int_equal(gen_batch(&spec, 1, 0, 2, out, &done), -ETIMEDOUT);
    assert_int_equal(done, 0);
}

/* A cancel raised after three puzzles keeps those three. */
static void test_cancel_mid_batch(void **state)
{
    atomic_int cancel = 0;
    struct rater r = {.cancel_after = 3, .cancel = &cancel};
    struct gen_spec spec;
    static struct gen_puzzle out[BATCH_LEN];
    size_t done = 99;

    (void)state;
    gen_spec_init(&spec, maker);
    spec.rate = rate_givens;
    spec.rate_ctx = &r;
    spec.min_rating = 0;
    spec.max_rating = 81;
    spec.cancel = &cancel;
    assert_int_equal(gen_batch(&spec, 8, 0, BATCH_LEN, out, &done), -ECANCELED);
    assert_int_equal(done, 3);
    for (unsigned i = 0; i < 3; i++)
        check_puzzle(&out[i], 9, GEN_SYM_NONE, 1);
    assert_int_equal(gen_one(&spec, 8, &out[0]), -ECANCELED);
}

/* ---------------------------------------------------------------- misuse */

static void test_bad_spec(void **state)
{
    static const struct sdk_plugin no_count = {.name = "nocount", .sizes = SDK_SIZE_ALL};
    static const struct sdk_plugin only4 = {
        .name = "only4", .sizes = SDK_SIZE_4, .caps = SDK_CAP_COUNT};
    const struct host_plugin fake_no_count = {.desc = &no_count};
    const struct host_plugin fake_only4 = {.desc = &only4};
    struct gen_spec spec;
    struct gen_puzzle gp;

    (void)state;
    gen_spec_init(&spec, maker);
    assert_int_equal(gen_one(NULL, 1, &gp), -EINVAL);
    assert_int_equal(gen_one(&spec, 1, NULL), -EINVAL);
    spec.n = 5;
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
    spec.n = 9;
    spec.symmetry = GEN_SYM_COUNT;
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
    spec.symmetry = GEN_SYM_NONE;
    spec.counter = NULL;
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
    spec.counter = &fake_no_count;
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
    spec.counter = &fake_only4;
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
    spec.counter = maker;
    spec.rate = rate_givens;
    spec.min_rating = 2;
    spec.max_rating = 1;
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
    assert_int_equal(gen_batch(&spec, 1, 0, 1, NULL, NULL), -EINVAL);
    spec.max_rating = 2;
    spec.orders = GEN_MAX_ORDERS + 1; /* more orders than the seed's low bits hold */
    assert_int_equal(gen_one(&spec, 1, &gp), -EINVAL);
}

static void test_symmetry_names(void **state)
{
    enum gen_symmetry s = GEN_SYM_NONE;

    (void)state;
    for (unsigned i = 0; i < GEN_SYM_COUNT; i++) {
        assert_int_equal(gen_symmetry_parse(gen_symmetry_name((enum gen_symmetry)i), &s), 0);
        assert_int_equal(s, i);
    }
    assert_string_equal(gen_symmetry_name(GEN_SYM_ROTATE180), "rotate180");
    assert_string_equal(gen_symmetry_name(GEN_SYM_COUNT), "?");
    assert_int_equal(gen_symmetry_parse("rotate", &s), -EINVAL);
    assert_int_equal(gen_symmetry_parse("", &s), -EINVAL);
    assert_int_equal(gen_symmetry_parse(NULL, &s), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_other_maker),
        cmocka_unit_test(test_heavy_fill),
        cmocka_unit_test(test_bitmask_budget_16),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_different_seeds_differ),
        cmocka_unit_test(test_batch_seeds),
        cmocka_unit_test(test_own_seed_regenerates),
        cmocka_unit_test(test_batch_split_over_threads),
        cmocka_unit_test(test_band_respected),
        cmocka_unit_test(test_band_orders),
        cmocka_unit_test(test_band_orders_share_grid),
        cmocka_unit_test(test_band_out_of_reach),
        cmocka_unit_test(test_deadline_passed),
        cmocka_unit_test(test_cancel_mid_batch),
        cmocka_unit_test(test_bad_spec),
        cmocka_unit_test(test_symmetry_names),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
