/* test_dfs_tree.c -- the dfs plugin keeps the classic search tree.
 *
 * dfs is the project's baseline: blanks in row-major order, values 1..n in
 * each, a value kept when no other cell of its row, column or box holds it,
 * the first solution the one reported.  The plugin checks values with bit
 * masks; this test holds it to the tree of the plain program that checks by
 * scanning the grid, written here (ref_search) as a judge would write it.
 *
 * "Guess" is what dfs reports in job->guesses: one for every value placed in
 * a blank cell (forced or not).  For every row of the table, through the
 * real dlopen path, the plugin must report the same number of guesses, the
 * same solution count and the same first solution as the reference search.
 * Puzzles are copied from tests/data/golden.txt (sizes 4, 9, 16 and 25;
 * unique, several solutions, none), each small enough for the scanning
 * search to finish in well under a second.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/grid.h"
#include "core/host.h"
#include "proto/codec.h"

/* ------------------------------------------------------------------ */
/* The reference: the classic scanning backtracker                     */

struct ref {
    unsigned n, box;             /* side, box side */
    uint8_t grid[SDK_MAX_CELLS]; /* the puzzle, filled in as it goes */
    uint64_t limit;              /* stop at this many solutions */
    uint64_t count;              /* solutions found */
    uint64_t guesses;            /* values placed in blank cells */
    uint8_t first[SDK_MAX_CELLS];
};

/* Whether v may go at cell (r, c): no cell of its row, column or box has it. */
static bool ref_fits(const struct ref *s, unsigned r, unsigned c, uint8_t v)
{
    unsigned r0 = r - r % s->box, c0 = c - c % s->box;

    for (unsigned i = 0; i < s->n; i++)
        if (s->grid[r * s->n + i] == v || s->grid[i * s->n + c] == v)
            return false;
    for (unsigned i = r0; i < r0 + s->box; i++)
        for (unsigned j = c0; j < c0 + s->box; j++)
            if (s->grid[i * s->n + j] == v)
                return false;
    return true;
}

/* Fill the blanks from cell index `from` on, in row-major order, trying
 * 1..n in each.  Returns true once the limit is reached. */
static bool ref_search(struct ref *s, unsigned from)
{
    unsigned cell = from;

    while (cell < s->n * s->n && s->grid[cell] != 0)
        cell++;
    if (cell == s->n * s->n) {
        if (s->count++ == 0)
            memcpy(s->first, s->grid, (size_t)s->n * s->n);
        return s->count >= s->limit;
    }
    for (uint8_t v = 1; v <= s->n; v++) {
        if (!ref_fits(s, cell / s->n, cell % s->n, v))
            continue;
        s->grid[cell] = v;
        s->guesses++;
        if (ref_search(s, cell + 1))
            return true;
    }
    s->grid[cell] = 0;
    return false;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

struct tree_case {
    uint64_t limit;
    const char *puzzle; /* line form */
};

static const struct tree_case cases[] = {
    /* 4x4 empty grid, limit 1000: the whole tree (288 solutions) */
    {1000, "................"},
    /* 4x4 empty grid, limit 1: stops at the first leaf */
    {1, "................"},
    /* 4x4 unsolvable: row 1 needs a 3 where box 2 already has one */
    {2, "12....3........."},
    /* kaggle_sample.txt line 1 as given */
    {2, "004300209005009001070060043006002087190007400050083000600000105003508690042910300"},
    /* 17_clue.txt line 2 with givens added from its solution */
    {2, "143657982........1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7....."},
    /* forum_hardest_1905_11.txt line 1 with givens added, uniqueness and first only */
    {2, "9817526..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"},
    {1, "9817526..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"},
    /* serg_multisolution.txt line 1: several solutions, limit 2 and 1000 */
    {2, "8.........95.......76.........426798...571243...893165......916....3.487....1.532"},
    {1000, "8.........95.......76.........426798...571243...893165......916....3.487....1.532"},
    /* 9x9 unsolvable: row 1 needs an 8 where box 3 already has one */
    {2, "1234567........8................................................................."},
    /* 16x16.txt line 2 with givens added from its solution */
    {2, "2DG15C9BEF73846AA87BF62GD41CE35963CF41ED8A59BG725.49.7.3.B6..FD..9..G...C......4G..46"
        "....9F.3.B..C5.1...BE.86..G.B.....E2G...D....3...596.....1.F..C2.76...B.E3..1.8.4D..."
        ".7F..5E......F...D..9..AB..FG.1.3.C8....2.....F.......8F...BC..62.97..1.6.A..59.C.GB2."},
    /* 25x25 from a shuffled pattern grid less 200 cells, unique */
    {2, "..A.1DO8I35BE...PFHNK..92.MJ92G.A71DO8I.5BE6....HN5BE64.PFHNK..9.GLA7.DO.I3DO..35.E..."
        "P..NKMJ.2G...1..FHNK.J..GL.71..8I35B...O.I.5.E64CPFHNKMJ9.GLA7.DL.7....I35BE..CP.H.KM"
        "J..GBE.4CPFHNK..9.G.A7.DO.I..MJ92G..71..8I35BE64.PFH.KP.HNK....GLA71D.8I35.E.4CI.5.E6"
        "4CPF.NK..92..A71.O.64CPFHNK...2GLA7.DO8I3.BE.1.O8I....64..F..KMJ92GL.HN.M..2.LA7..O.."
        "..BE.4..F.2G.A71DO.I35BE..CPF.NK.J1D.8I.5BE.4.PF.NKM..2.L.7...A7.D.8I35B.64CPFHNK.J.4"
        "CPFHNKM.92G..71.O8I35BE6.K..9..LA71.O8I3.BE6..P.H.5BE64CPFH.K.J9...A..D.8I.92G.A7.DO."
        "I35BE64C..HN.M8I35BE64CPFHNK..9.G....D..64CP.HNK.J9.GLA..DO.I35BFHNKMJ92..A71DO8.35BE"
        "64.PA71.O8I.5B.64C.F.NK.J92GL"},
};

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static struct host *host;

static void test_log(void *ctx, int level, const char *msg)
{
    (void)ctx;
    print_message("host log (%d): %s\n", level, msg);
}

static int group_setup(void **state)
{
    (void)state;
    host = host_new(test_log, NULL);
    if (!host || host_load_file(host, SUDOKU_BUILD_PLUGIN_DIR "/dfs.so") != 0)
        return -1;
    return host_find(host, "dfs") ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    host_free(host);
    return 0;
}

/* Run row i through the plugin and the reference; they must agree. */
static void check_case(size_t i)
{
    const struct host_plugin *p = host_find(host, "dfs");
    static struct ref ref; /* static: 1.3 KB, kept off the cmocka stack */
    uint8_t cells[SDK_MAX_CELLS], solution[SDK_MAX_CELLS];
    unsigned n = 0;

    assert_int_equal(codec_parse_line(cases[i].puzzle, strlen(cases[i].puzzle), &n, cells, NULL, 0),
                     0);
    memset(&ref, 0, sizeof(ref));
    ref.n = n;
    ref.box = sdk_box_side(n);
    ref.limit = cases[i].limit;
    memcpy(ref.grid, cells, (size_t)n * n);
    ref_search(&ref, 0);

    struct sdk_job job = {
        .size = sizeof(job), .n = n, .cells = cells, .limit = cases[i].limit, .solution = solution};
    int rc = host_solve(p, &job);
    print_message("  case %zu: %ux%u limit %llu: %llu solutions, %llu guesses\n", i, n, n,
                  (unsigned long long)cases[i].limit, (unsigned long long)ref.count,
                  (unsigned long long)ref.guesses);
    assert_int_equal(rc, ref.count ? SDK_SOLVED : SDK_UNSOLVABLE);
    assert_int_equal(job.count, ref.count);
    assert_int_equal(job.guesses, ref.guesses);
    if (ref.count) {
        char err[256] = "";
        assert_int_equal(grid_check_solution(n, cells, solution, err, sizeof(err)), 0);
        assert_memory_equal(solution, ref.first, (size_t)n * n);
    }
}

/* Every row: the same guesses, solutions and first solution. */
static void test_same_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_case(i);
}

/* The reference itself is the classic search: on the empty 4x4 grid it
 * visits every one of the 288 grids, and a full grid needs no guess. */
static void test_reference_sane(void **state)
{
    static struct ref ref;

    (void)state;
    memset(&ref, 0, sizeof(ref));
    ref.n = 4;
    ref.box = 2;
    ref.limit = 1000;
    ref_search(&ref, 0);
    assert_int_equal(ref.count, 288);
    assert_true(ref.guesses > 288);
    memcpy(ref.grid, ref.first, 16);
    ref.count = ref.guesses = 0;
    ref_search(&ref, 0);
    assert_int_equal(ref.count, 1);
    assert_int_equal(ref.guesses, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_sane),
        cmocka_unit_test(test_same_tree),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
