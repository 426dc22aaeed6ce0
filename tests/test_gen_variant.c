/* test_gen_variant.c -- the generator under variant rules, judged from outside.
 *
 * Each row makes puzzles of one rule set (every rule alone at 9x9, a
 * combination, 4x4 jigsaw and killer) with the sat plugin as counter and
 * judges them with core/rules.h, which shares no code with the generator's
 * counter: the rules rebuilt from the puzzle's own layout and cages (so a
 * drawn layout must be n connected regions of n cells and the drawn cages
 * valid, or rules_new refuses them), the solution keeping every rule and
 * given, and exactly one solution by rules_count.  Then the same seed must
 * give the same bytes.  16x16 windoku and jigsaw run with bitmask, whose
 * heavy tail there the generator's budgets of guesses cut.  Under a
 * sanitizer (sanitizer.h) each row makes one puzzle, from seed 1, and the
 * same-bytes check, a property of the code and not of memory, is left to
 * the Release build.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/generate.h"
#include "core/host.h"
#include "core/rules.h"
#include "sanitizer.h"

#define SEEDS  (TEST_SANITIZED ? 1 : 2) /* seeds per row: 1, 2, ... */
#define REPEAT (!TEST_SANITIZED)        /* generate again: the same bytes? */

static struct host *host;
static const struct host_plugin *counter;

static int group_setup(void **state)
{
    (void)state;
    host = host_new(NULL, NULL);
    if (!host || host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) <= 0)
        return -1;
    counter = host_find(host, "sat");
    return counter ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    host_free(host);
    return 0;
}

struct row {
    const char *what;
    unsigned n;
    uint32_t flags; /* boolean rules */
    uint32_t draw;  /* drawn layout, cages */
};

static const struct row rows[] = {
    {"X", 9, SDK_RULE_DIAGONALS, 0},
    {"windoku", 9, SDK_RULE_WINDOWS, 0},
    {"anti-king", 9, SDK_RULE_ANTI_KING, 0},
    {"non-consecutive", 9, SDK_RULE_NON_CONSECUTIVE, 0},
    {"jigsaw", 9, 0, SDK_RULE_REGIONS},
    {"killer 4x4", 4, 0, SDK_RULE_CAGES},
    {"jigsaw 4x4", 4, 0, SDK_RULE_REGIONS},
    {"X killer 4x4", 4, SDK_RULE_DIAGONALS, SDK_RULE_CAGES},
    {"X windoku", 9, SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS, 0},
};

/* The rules of p rebuilt from its own layout and cage numbers. */
static struct rules *rebuild(const struct row *w, const struct gen_puzzle *p)
{
    struct rules_desc_cage cages[SDK_MAX_CELLS];
    uint64_t cells[SDK_MAX_CELLS];
    struct rules_desc d = {.n = w->n, .flags = w->flags};
    struct rules *r = NULL;
    uint32_t len = 0, off = 0;
    char err[200] = "";

    for (unsigned c = 0; c < w->n * w->n; c++)
        len = p->cage[c] > len ? p->cage[c] : len;
    for (uint32_t k = 0; k < len; k++) {
        cages[k] = (struct rules_desc_cage){.off = off};
        for (unsigned c = 0; c < w->n * w->n; c++) {
            if (p->cage[c] == k + 1) {
                cells[off++] = c;
                cages[k].len++;
                cages[k].sum += p->solution[c];
            }
        }
    }
    if (w->draw & SDK_RULE_REGIONS) {
        d.regions = p->regions;
        d.regions_len = (size_t)w->n * w->n;
    }
    d.cages = cages;
    d.cages_len = len;
    d.cage_cells = cells;
    d.cage_cells_len = off;
    if (rules_new(&d, &r, err, sizeof(err)) < 0)
        fail_msg("%s: rules of the puzzle refused: %s", "rebuild", err);
    return r;
}

/* Drawn cages without givens keep no cage of one cell that could join a
 * touching cage (distinct digits, GEN_CAGE_MAX cells at most together) and
 * stay unique, by the referee's count. */
static void assert_cages_minimal(const struct row *w, const struct gen_puzzle *p)
{
    static struct gen_puzzle m;
    unsigned n = w->n;

    for (unsigned x = 0; x < n * n; x++) {
        for (unsigned dir = 0; dir < 2; dir++) {
            unsigned y = dir ? x + n : x + 1, size = 0, size_a = 0, size_b = 0;
            uint16_t a = p->cage[x], b;
            uint32_t used = 0;
            struct rules *r;
            uint64_t count = 0;

            if (dir ? x / n + 1 >= n : x % n + 1 >= n)
                continue;
            b = p->cage[y];
            for (unsigned c = 0; c < n * n && a != b; c++) {
                if (p->cage[c] != a && p->cage[c] != b)
                    continue;
                size += (used >> p->solution[c] & 1) ? GEN_CAGE_MAX + 1 : 1;
                size_a += p->cage[c] == a;
                size_b += p->cage[c] == b;
                used |= 1u << p->solution[c];
            }
            if (a == b || size > GEN_CAGE_MAX || (size_a > 1 && size_b > 1))
                continue;
            m = *p;
            for (unsigned c = 0; c < n * n; c++)
                m.cage[c] = m.cage[c] == b ? a : m.cage[c];
            for (unsigned c = 0; c < n * n; c++)
                m.cage[c] = (uint16_t)(m.cage[c] - (m.cage[c] > b)); /* ids stay 1..len */
            r = rebuild(w, &m);
            assert_int_equal(rules_count(rules_sdk(r), n, m.puzzle, 2, 0, NULL, &count), 0);
            if (count != 2)
                fail_msg("%s: cages %u and %u (cells %u, %u) merge and stay unique", w->what,
                         (unsigned)a, (unsigned)b, x, y);
            rules_free(r);
        }
    }
}

static void test_rules_rows(void **state)
{
    static struct gen_puzzle p, q;

    (void)state;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *w = &rows[i];
        struct rules_desc fixed = {.n = w->n, .flags = w->flags};
        struct gen_spec spec;

        gen_spec_init(&spec, counter);
        spec.n = w->n;
        spec.rules = &fixed;
        spec.draw = w->draw;
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            struct rules *r;
            uint64_t count = 0;
            char err[200] = "";

            assert_int_equal(gen_one(&spec, seed, &p), 0);
            r = rebuild(w, &p);
            assert_non_null(r);
            assert_int_equal(
                rules_check_solution(rules_sdk(r), w->n, p.puzzle, p.solution, err, sizeof(err)),
                0);
            assert_int_equal(rules_count(rules_sdk(r), w->n, p.puzzle, 2, 0, NULL, &count), 0);
            assert_int_equal(count, 1);
            if (w->draw & SDK_RULE_CAGES) {
                assert_int_equal(p.givens, 0);
                for (unsigned c = 0; c < w->n * w->n; c++)
                    assert_true(p.cage[c] > 0); /* every cell in a cage */
                assert_cages_minimal(w, &p);
            }
            if (w->draw & SDK_RULE_REGIONS) {
                unsigned b = w->n == 4 ? 2 : 3, is_boxes = 1;

                for (unsigned c = 0; c < w->n * w->n; c++)
                    is_boxes &= p.regions[c] == (char)('1' + c / w->n / b * b + c % w->n / b);
                assert_false(is_boxes); /* a drawn layout is never the boxes */
            }
            rules_free(r);
            if (!REPEAT)
                continue;
            assert_int_equal(gen_one(&spec, seed, &q), 0);
            assert_memory_equal(&p, &q, sizeof(p)); /* same seed, same bytes */
        }
    }
}

/* 16x16 windoku and jigsaw with bitmask counting, and windoku with dlx:
 * their searches have a heavy tail there, which the generator's budgets of
 * guesses cut (a grid's fill starts again, an unproved removal stays), so
 * a puzzle comes in seconds and is still unique by the referee, keeps
 * every rule and comes again byte for byte from its seed.  (Seed 1 with
 * dlx: its first 32 fills all spend the budget, and a spent budget is no
 * proof that no grid exists, so more starts follow.) */
static void test_sixteen(void **state)
{
    static const struct row sixteen[] = {
        {"windoku 16x16", 16, SDK_RULE_WINDOWS, 0},
        {"jigsaw 16x16", 16, 0, SDK_RULE_REGIONS},
        {"windoku 16x16 by dlx", 16, SDK_RULE_WINDOWS, 0},
    };
    static const char *const counters[] = {"bitmask", "bitmask", "dlx"};
    static const uint64_t seeds[] = {2, 2, 1};
    static struct gen_puzzle p, q;

    (void)state;
    for (size_t i = 0; i < sizeof(sixteen) / sizeof(sixteen[0]); i++) {
        const struct host_plugin *counter_i = host_find(host, counters[i]);
        const struct row *w = &sixteen[i];
        struct rules_desc fixed = {.n = w->n, .flags = w->flags};
        struct gen_spec spec;
        uint64_t count = 0;
        struct rules *r;
        char err[200] = "";

        assert_non_null(counter_i);
        gen_spec_init(&spec, counter_i);
        spec.n = w->n;
        spec.rules = &fixed;
        spec.draw = w->draw;
        assert_int_equal(gen_one(&spec, seeds[i], &p), 0);
        r = rebuild(w, &p);
        assert_int_equal(
            rules_check_solution(rules_sdk(r), w->n, p.puzzle, p.solution, err, sizeof(err)), 0);
        assert_int_equal(rules_count(rules_sdk(r), w->n, p.puzzle, 2, 0, NULL, &count), 0);
        assert_int_equal(count, 1);
        rules_free(r);
        if (!REPEAT)
            continue;
        assert_int_equal(gen_one(&spec, seeds[i], &q), 0);
        assert_memory_equal(&p, &q, sizeof(p)); /* same seed, same bytes */
    }
}

/* Drawn killer cages with givens (givens: true): every puzzle keeps some
 * givens, even where the cages alone would be unique (which seed 1's first
 * 30 hold twice), and is unique by the referee's count. */
static void test_killer_keeps_givens(void **state)
{
    static const struct row w = {"killer with givens", 9, 0, SDK_RULE_CAGES};
    static struct gen_puzzle p[30];
    const struct host_plugin *bitmask = host_find(host, "bitmask");
    struct rules_desc fixed = {.n = 9};
    struct gen_spec spec;
    size_t done = 0;

    (void)state;
    assert_non_null(bitmask);
    gen_spec_init(&spec, bitmask);
    spec.rules = &fixed;
    spec.draw = SDK_RULE_CAGES;
    spec.is_caged_givens = 1;
    assert_int_equal(gen_batch(&spec, 1, 0, 30, p, &done), 0);
    assert_int_equal(done, 30);
    for (size_t i = 0; i < 30; i++) {
        struct rules *r = rebuild(&w, &p[i]);
        uint64_t count = 0;
        char err[200] = "";

        if (p[i].givens == 0)
            fail_msg("puzzle %zu (seed %llu) has no givens", i, (unsigned long long)p[i].seed);
        assert_int_equal(
            rules_check_solution(rules_sdk(r), 9, p[i].puzzle, p[i].solution, err, sizeof(err)), 0);
        assert_int_equal(rules_count(rules_sdk(r), 9, p[i].puzzle, 2, 0, NULL, &count), 0);
        assert_int_equal(count, 1);
        rules_free(r);
    }
}

/* Non-consecutive at 4x4 has no grid (a row is 2413 or 3142, and no two
 * such rows can stack): the generator says -EDOM, and the referee agrees
 * that the empty grid has no solution. */
static void test_no_grid(void **state)
{
    static struct gen_puzzle p;
    static const uint8_t empty[16];
    struct rules_desc fixed = {.n = 4, .flags = SDK_RULE_NON_CONSECUTIVE};
    struct rules *r = NULL;
    struct gen_spec spec;
    uint64_t count = 1;
    char err[200] = "";

    (void)state;
    gen_spec_init(&spec, counter);
    spec.n = 4;
    spec.rules = &fixed;
    assert_int_equal(gen_one(&spec, 1, &p), -EDOM);
    assert_int_equal(rules_new(&fixed, &r, err, sizeof(err)), 0);
    assert_int_equal(rules_count(rules_sdk(r), 4, empty, 1, 0, NULL, &count), 0);
    assert_int_equal(count, 0);
    rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_rows), cmocka_unit_test(test_sixteen),
        cmocka_unit_test(test_killer_keeps_givens), cmocka_unit_test(test_no_grid)};

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
