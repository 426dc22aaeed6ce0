/* test_marshal.c -- core/marshal.c: jobs and answers through flat bytes.
 *
 *   solve_round      a solve job with variant rules arrives whole, and the
 *                    answer comes back whole
 *   explain_round    an explain job (progress, solution, candidates, rules,
 *                    capacities) arrives whole; its answer's steps, arrays
 *                    and out fields come back, technique names interned
 *   truncated        every prefix of every message is refused
 *   hostile          out-of-range cells, lengths past a bound, a wrong
 *                    magic, answers longer than the caller's arrays: all
 *                    refused; random corruption never reads or writes out
 *                    of bounds (ASan) and is refused or read within bounds
 *   sha256           core/sha256.c against FIPS 180-4's vectors
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "core/marshal.h"
#include "core/sha256.h"

#define BUF_SIZE (8u << 20)

static const char puzzle[] =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

static uint8_t *buf;              /* the "slot" */
static struct marshal_job mj;     /* what the worker gets */
static struct marshal_explain mx; /* likewise */
static uint16_t houses[29 * 9];   /* a rules table: rows, columns, boxes, diagonals */
static uint8_t region[81];        /* boxes */
static struct sdk_cage cages[1] = {{.sum = 10, .off = 0, .len = 3}};
static uint16_t cage_cells[3] = {0, 1, 2};
static uint16_t differ[4] = {0, 11, 3, 22};
static struct sdk_rules rules;

static int setup(void **state)
{
    (void)state;
    buf = malloc(BUF_SIZE);
    for (unsigned h = 0; h < 29; h++)
        for (unsigned i = 0; i < 9; i++)
            houses[h * 9 + i] = (uint16_t)((h * 7 + i * 9) % 81);
    for (unsigned c = 0; c < 81; c++)
        region[c] = (uint8_t)((c / 27) * 3 + (c % 9) / 3);
    rules = (struct sdk_rules){.size = sizeof(rules),
                               .kinds = SDK_RULE_DIAGONALS | SDK_RULE_CAGES | SDK_RULE_ANTI_KING,
                               .n = 9,
                               .houses_len = 29,
                               .houses = houses,
                               .region = region,
                               .differ = differ,
                               .differ_len = 2,
                               .cages = cages,
                               .cages_len = 1,
                               .cage_cells = cage_cells,
                               .cage_cells_len = 3};
    return buf ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    marshal_explain_close(&mx);
    free(buf);
    return 0;
}

static void cells_of(const char *text, uint8_t *cells)
{
    for (int i = 0; i < 81; i++)
        cells[i] = text[i] == '.' ? 0 : (uint8_t)(text[i] - '0');
}

/* A solve job for puzzle with the rules, and its bytes in buf. */
static long put_job(struct sdk_job *job, uint8_t *cells, uint8_t *solution)
{
    cells_of(puzzle, cells);
    *job = (struct sdk_job){.size = sizeof(*job),
                            .n = 9,
                            .cells = cells,
                            .limit = 2,
                            .deadline_ns = 123456789,
                            .solution = solution,
                            .rules = &rules,
                            .max_guesses = 4321};
    return marshal_put_job(buf, BUF_SIZE, job);
}

static void test_solve_round(void **state)
{
    uint8_t cells[81], solution[81];
    struct sdk_job job;
    long len = put_job(&job, cells, solution);
    int status = -1;

    (void)state;
    assert_true(len > 0);
    assert_int_equal(marshal_kind(buf, (size_t)len), MARSHAL_SOLVE);
    assert_int_equal(marshal_get_job(buf, (size_t)len, &mj), 0);
    assert_int_equal(mj.job.n, 9);
    assert_int_equal(mj.job.limit, 2);
    assert_int_equal(mj.job.deadline_ns, 123456789);
    assert_int_equal(sdk_job_max_guesses(&mj.job), 4321); /* minor 5 crosses too */
    assert_null(mj.job.cancel);
    assert_memory_equal(mj.job.cells, cells, 81);
    assert_non_null(mj.job.rules);
    assert_int_equal(mj.job.rules->kinds, rules.kinds);
    assert_int_equal(mj.job.rules->houses_len, 29);
    assert_memory_equal(mj.job.rules->houses, houses, sizeof(houses));
    assert_memory_equal(mj.job.rules->region, region, 81);
    assert_int_equal(mj.job.rules->differ_len, 2);
    assert_memory_equal(mj.job.rules->differ, differ, sizeof(differ));
    assert_int_equal(mj.job.rules->cages_len, 1);
    assert_int_equal(mj.job.rules->cages[0].sum, 10);
    assert_memory_equal(mj.job.rules->cage_cells, cage_cells, sizeof(cage_cells));
    /* The answer: the worker writes, the host reads into its own job. */
    for (int i = 0; i < 81; i++)
        mj.solution[i] = (uint8_t)(i % 9 + 1);
    mj.job.count = 1;
    mj.job.guesses = 77;
    len = marshal_put_solved(buf, BUF_SIZE, SDK_SOLVED, &mj.job);
    assert_true(len > 0);
    assert_int_equal(marshal_get_solved(buf, (size_t)len, &job, &status), 0);
    assert_int_equal(status, SDK_SOLVED);
    assert_int_equal(job.count, 1);
    assert_int_equal(job.guesses, 77);
    assert_memory_equal(solution, mj.solution, 81);
    /* Classic: no rules travel as none. */
    job.rules = NULL;
    len = marshal_put_job(buf, BUF_SIZE, &job);
    assert_int_equal(marshal_get_job(buf, (size_t)len, &mj), 0);
    assert_null(mj.job.rules);
}

/* The intern table of this test: names are stored in one array. */
static char names[8][MARSHAL_TECH_MAX + 1];
static int names_len;

static const char *intern(void *ctx, const char *name)
{
    (void)ctx;
    for (int i = 0; i < names_len; i++)
        if (strcmp(names[i], name) == 0)
            return names[i];
    if (names_len == 8 || strcmp(name, "refused") == 0)
        return NULL;
    strcpy(names[names_len], name);
    return names[names_len++];
}

/* The worker's answer to its explain job: two steps with every array. */
static void fake_answer(struct sdk_explain *w)
{
    static const char text[] = "first\0second";

    w->steps[0] = (struct sdk_step){
        .technique = "hidden_single", .rating = 1.5, .place_len = 1, .cells_len = 2, .text_len = 5};
    w->steps[1] = (struct sdk_step){.technique = "naked_pair",
                                    .rating = 3.0,
                                    .place_off = 1,
                                    .elim_len = 2,
                                    .cells_off = 2,
                                    .text_off = 6,
                                    .text_len = 6};
    w->placements[0] = (struct sdk_cell_value){.cell = 1, .value = 2};
    w->eliminations[0] = (struct sdk_cell_value){.cell = 5, .value = 3};
    w->eliminations[1] = (struct sdk_cell_value){.cell = 6, .value = 4};
    w->cells_out[0] = 10;
    w->cells_out[1] = 11;
    memcpy(w->text, text, sizeof(text));
    w->status = SDK_EXPLAIN_STUCK;
    w->steps_len = 2;
    w->placements_len = 1;
    w->eliminations_len = 2;
    w->cells_out_len = 2;
    w->text_len = sizeof(text);
    w->rating = 3.0;
    w->hardest = "naked_pair";
    w->ep = 1.5;
    w->ed = 1.2;
    memset(w->grid, 9, 81);
}

/* An explain job of the host with arrays (caller frees *block). */
static long put_explain(struct sdk_explain *job, void **block, uint8_t *cells, uint8_t *grid)
{
    static uint8_t cand[729];

    cells_of(puzzle, cells);
    memset(cand, 1, sizeof(cand));
    *job = (struct sdk_explain){.size = sizeof(*job),
                                .n = 9,
                                .cells = cells,
                                .max_steps = 5,
                                .deadline_ns = 42,
                                .max_rating = 7.5,
                                .solution = cells,
                                .candidates = cand,
                                .rules = &rules,
                                .grid = grid};
    *block = host_explain_arrays(job, 9, 1);
    assert_non_null(*block);
    return marshal_put_explain(buf, BUF_SIZE, job);
}

static void test_explain_round(void **state)
{
    uint8_t cells[81], grid[81];
    struct sdk_explain job;
    void *block;
    long len = put_explain(&job, &block, cells, grid);
    int rc = -1;

    (void)state;
    assert_true(len > 0);
    assert_int_equal(marshal_kind(buf, (size_t)len), MARSHAL_EXPLAIN);
    assert_int_equal(marshal_get_explain(buf, (size_t)len, &mx), 0);
    assert_int_equal(mx.job.max_steps, 5);
    assert_int_equal(mx.job.deadline_ns, 42);
    assert_true(mx.job.max_rating == 7.5);
    assert_null(mx.job.progress);
    assert_memory_equal(mx.job.solution, cells, 81);
    assert_non_null(mx.job.candidates);
    assert_int_equal(mx.job.rules->cages_len, 1);
    assert_int_equal(mx.job.steps_cap, job.steps_cap);
    assert_int_equal(mx.job.text_cap, job.text_cap);
    assert_int_equal(mx.job.cells_out_cap, job.cells_out_cap);
    assert_non_null(mx.job.grid);
    fake_answer(&mx.job);
    len = marshal_put_explained(buf, BUF_SIZE, 0, &mx.job);
    assert_true(len > 0);
    assert_int_equal(marshal_get_explained(buf, (size_t)len, &job, &rc, intern, NULL), 0);
    assert_int_equal(rc, 0);
    assert_int_equal(job.status, SDK_EXPLAIN_STUCK);
    assert_int_equal(job.steps_len, 2);
    assert_string_equal(job.steps[0].technique, "hidden_single");
    assert_ptr_equal(job.hardest, job.steps[1].technique); /* interned: one pointer */
    assert_true(job.steps[1].rating == 3.0 && job.rating == 3.0 && job.ep == 1.5);
    assert_int_equal(job.steps[1].elim_len, 2);
    assert_int_equal(job.eliminations[1].cell, 6);
    assert_int_equal(job.cells_out[1], 11);
    assert_string_equal(job.text + 6, "second");
    assert_int_equal(grid[80], 9);
    free(block);
}

/* Every prefix of the message in buf of len bytes is refused by get. */
static void all_prefixes_refused(long len, int (*get)(size_t len))
{
    for (long k = 0; k < len; k++)
        assert_int_equal(get((size_t)k), -EBADMSG);
}

static int get_job_n(size_t len)
{
    return marshal_get_job(buf, len, &mj);
}

static int get_explain_n(size_t len)
{
    return marshal_get_explain(buf, len, &mx);
}

static struct sdk_explain *truncated_job; /* the host job get_explained_n reads into */

static int get_explained_n(size_t len)
{
    int rc;

    return marshal_get_explained(buf, len, truncated_job, &rc, intern, NULL);
}

static void test_truncated(void **state)
{
    uint8_t cells[81], solution[81], grid[81];
    struct sdk_explain job;
    struct sdk_job sj;
    void *block;
    long len;
    int status;

    (void)state;
    all_prefixes_refused(put_job(&sj, cells, solution), get_job_n);
    mj.job = sj;
    len = marshal_put_solved(buf, BUF_SIZE, SDK_SOLVED, &sj);
    for (long k = 0; k < len; k++)
        assert_int_equal(marshal_get_solved(buf, (size_t)k, &sj, &status), -EBADMSG);
    len = put_explain(&job, &block, cells, grid);
    all_prefixes_refused(len, get_explain_n);
    assert_int_equal(marshal_get_explain(buf, (size_t)len, &mx), 0);
    fake_answer(&mx.job);
    truncated_job = &job;
    all_prefixes_refused(marshal_put_explained(buf, BUF_SIZE, 0, &mx.job), get_explained_n);
    /* Too small a buffer to put into: -ENOSPC, never an overrun. */
    assert_int_equal(marshal_put_job(buf, 20, &sj), -ENOSPC);
    assert_int_equal(marshal_put_explained(buf, 100, 0, &mx.job), -ENOSPC);
    free(block);
}

/* Find the first occurrence of the 4 bytes of v in buf[0..len). */
static size_t find_u32(long len, uint32_t v)
{
    for (long k = 0; k + 4 <= len; k++)
        if (memcmp(buf + k, &v, 4) == 0)
            return (size_t)k;
    fail_msg("value %u not in the message", v);
    return 0;
}

static void test_hostile(void **state)
{
    uint8_t cells[81], solution[81], grid[81], *copy = malloc(BUF_SIZE);
    struct sdk_explain job;
    struct sdk_job sj;
    void *block;
    long len = put_job(&sj, cells, solution);
    uint32_t big = 0x7fffffff;
    size_t at;
    int rc;

    (void)state;
    assert_non_null(copy);
    buf[0] ^= 1; /* magic */
    assert_int_equal(marshal_get_job(buf, (size_t)len, &mj), -EBADMSG);
    assert_int_equal(marshal_kind(buf, (size_t)len), 0);
    buf[0] ^= 1;
    at = find_u32(len, 81); /* the cells' length */
    memcpy(buf + at, &big, 4);
    assert_int_equal(marshal_get_job(buf, (size_t)len, &mj), -EBADMSG);
    put_job(&sj, cells, solution);
    buf[at + 4] = 10; /* a cell above n */
    assert_int_equal(marshal_get_job(buf, (size_t)len, &mj), -EBADMSG);
    put_job(&sj, cells, solution);
    memcpy(copy, buf, (size_t)len);
    srand(7);
    for (int round = 0; round < 20000; round++) { /* random bytes: refused or in bounds */
        memcpy(buf, copy, (size_t)len);
        for (int k = 0; k < 1 + round % 4; k++)
            buf[8 + (size_t)rand() % ((size_t)len - 8)] = (uint8_t)rand();
        if (marshal_get_job(buf, (size_t)len, &mj) == 0)
            assert_true(mj.job.n == 9 && mj.job.limit > 0);
    }
    /* An answer with more placements than the host's array holds. */
    len = put_explain(&job, &block, cells, grid);
    assert_int_equal(marshal_get_explain(buf, (size_t)len, &mx), 0);
    fake_answer(&mx.job);
    mx.job.steps[0].technique = "refused";
    len = marshal_put_explained(buf, BUF_SIZE, 0, &mx.job);
    assert_int_equal(marshal_get_explained(buf, (size_t)len, &job, &rc, intern, NULL), 0);
    assert_null(job.steps[0].technique); /* refused by the table: verify.c refuses the step */
    job.placements_cap = 0;
    assert_int_equal(marshal_get_explained(buf, (size_t)len, &job, &rc, intern, NULL), -EBADMSG);
    free(block);
    free(copy);
}

static void test_sha256(void **state)
{
    static const struct {
        const char *in;
        const char *hex;
    } cases[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    uint8_t d[SHA256_SIZE];
    char hex[SHA256_HEX];
    struct sha256 s;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sha256_init(&s);
        for (const char *p = cases[i].in; *p; p++) /* a byte at a time: blocks straddled */
            sha256_update(&s, p, 1);
        sha256_final(&s, d);
        sha256_hex(d, hex);
        assert_string_equal(hex, cases[i].hex);
    }
    memset(buf, 'a', 1000000); /* FIPS 180-4: a million 'a' */
    sha256_init(&s);
    sha256_update(&s, buf, 1000000);
    sha256_final(&s, d);
    sha256_hex(d, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_round),   /* rules and answer whole */
        cmocka_unit_test(test_explain_round), /* arrays, names interned */
        cmocka_unit_test(test_truncated),     /* every prefix refused */
        cmocka_unit_test(test_hostile),       /* ranges, bounds, noise */
        cmocka_unit_test(test_sha256),        /* FIPS vectors */
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
