/* test_generate_e2e.c -- sudoku generate and its library calls against the real sudokud.
 *
 * The group setup starts two daemons on temporary sockets, one with
 * --threads 2 and one with --threads 1.  Each test runs the built tool
 * (fork/exec, stdout and stderr to files) or calls the library, and checks
 * every puzzle independently of the generator: the rules and the solution
 * locally, uniqueness by the dlx plugin through `solve` with limit 2 (the
 * daemons' default counting plugin is bitmask), minimality by blanking each
 * given (each orbit, with a symmetry) and asking dlx again (two solutions or
 * more), the symmetry by mapping every given, the band by `rate`.  Nothing
 * is compared with stored answers; runs are compared with each other (same
 * seed twice, -n 1 with a puzzle's own seed, threads 1 against 2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/generate.h"
#include "core/grid.h"
#include "proto/codec.h"
#include "tests/daemon_harness.h"
#include "tests/tool_run.h"
#include <sudoku/client.h>

static struct dh d2;    /* --threads 2 */
static struct dh d1;    /* --threads 1 */
static char tmpdir[64]; /* the tools' stdout and stderr */

/* ------------------------------------------------------------------------ */
/* Running the tool */

/* Run SUDOKU_BIN_DIR/prog with argv (NULL-terminated; argv[0] is the name). */
static void run_prog(struct tool_run *r, const char *prog, const char *const *argv)
{
    tool_run_prog(r, tmpdir, NULL, prog, argv);
}

/* sudoku generate -s SOCK ARGS... (at most 16 args, NULL-terminated). */
static void generate(struct tool_run *r, const char *sock, const char *const *args)
{
    const char *head[] = {"sudoku", "generate", "-s", sock, NULL};
    const char *argv[24];
    tool_run_argv(argv, 24, head, args);
    run_prog(r, "sudoku", argv);
}

static struct tool_run *new_run(void)
{
    struct tool_run *r = malloc(sizeof(*r));
    assert_non_null(r);
    return r;
}

/* ------------------------------------------------------------------------ */
/* Checking puzzles */

/* One printed puzzle, parsed. */
struct gp {
    unsigned n;
    uint8_t puzzle[SDK_MAX_CELLS];
    uint8_t solution[SDK_MAX_CELLS];
};

/* Parse "PUZZLE SOLUTION" lines (--solution) into out[0..max).  Returns the count. */
static size_t parse_lines(const char *text, struct gp *out, size_t max)
{
    size_t len = 0;
    const char *p = text;
    while (*p && len < max) {
        const char *nl = strchr(p, '\n');
        const char *sp = strchr(p, ' ');
        assert_non_null(nl);
        assert_true(sp && sp < nl);
        unsigned n2 = 0;
        assert_int_equal(
            codec_parse_line(p, (size_t)(sp - p), &out[len].n, out[len].puzzle, NULL, 0), 0);
        assert_int_equal(
            codec_parse_line(sp + 1, (size_t)(nl - sp - 1), &n2, out[len].solution, NULL, 0), 0);
        assert_int_equal(n2, out[len].n);
        len++;
        p = nl + 1;
    }
    return len;
}

/* What the counting callback saw. */
struct counts {
    uint64_t *count; /* per tag */
    uint64_t failed;
};

static void on_count(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_result *res)
{
    struct counts *c = arg;
    (void)seq;
    if (res->status == SUDOKU_CLIENT_FAILED)
        c->failed++;
    c->count[tag] = res->status == SUDOKU_CLIENT_SOLVED ? res->count : 0;
}

/* Count the solutions (limit 2, dlx) of grids[0..len) of side n: one
 * pipelined batch. */
static void count_solutions(unsigned n, const uint8_t *grids, size_t len, uint64_t *count)
{
    struct sudoku_client *c = NULL;
    struct sudoku_batch *b = NULL;
    struct sudoku_client_error err;
    struct sudoku_client_options o = {.solver = "dlx", .limit = 2};
    struct counts cs = {count, 0};
    assert_int_equal(sudoku_client_connect(d2.sock, &c, &err), 0);
    assert_int_equal(sudoku_batch_new(c, 64, &o, on_count, &cs, &b), 0);
    for (size_t i = 0; i < len; i++)
        assert_int_equal(sudoku_batch_add_cells(b, n, grids + i * n * n, i, &err), 0);
    assert_int_equal(sudoku_batch_finish(b, &err), 0);
    assert_int_equal(cs.failed, 0);
    sudoku_batch_free(b);
    sudoku_client_free(c);
}

/* The cell (r, c) is mapped to by sym, as the daemon's orbits. */
static unsigned image(unsigned n, const char *sym, unsigned cell)
{
    unsigned r = cell / n, c = cell % n;
    if (!strcmp(sym, "rotate180"))
        return (n - 1 - r) * n + (n - 1 - c);
    if (!strcmp(sym, "rotate90"))
        return c * n + (n - 1 - r);
    if (!strcmp(sym, "mirror"))
        return r * n + (n - 1 - c);
    if (!strcmp(sym, "flip"))
        return (n - 1 - r) * n + c;
    if (!strcmp(sym, "diagonal"))
        return c * n + r;
    return cell;
}

/* The grid with the orbit of cell under sym blanked. */
static void blank_orbit(unsigned n, const char *sym, const uint8_t *in, unsigned cell, uint8_t *out)
{
    memcpy(out, in, (size_t)n * n);
    for (unsigned k = 0, x = cell; k < 4; k++, x = image(n, sym, x))
        out[x] = 0;
}

/* Check every puzzle: rules, solution, symmetric under sym, unique (dlx),
 * and with is_minimal every orbit needed. */
static void check_puzzles(const struct gp *p, size_t len, const char *sym, int is_minimal)
{
    unsigned n = p[0].n;
    size_t cells = (size_t)n * n, total = len;
    for (size_t i = 0; i < len; i++) {
        assert_int_equal(p[i].n, n);
        assert_int_equal(grid_check_givens(n, p[i].puzzle, NULL, 0), 0);
        assert_int_equal(grid_check_solution(n, p[i].puzzle, p[i].solution, NULL, 0), 0);
        for (unsigned x = 0; x < cells; x++)
            if ((p[i].puzzle[x] != 0) != (p[i].puzzle[image(n, sym, x)] != 0))
                fail_msg("puzzle %zu: cell %u and its %s image differ", i, x, sym);
        for (unsigned x = 0; is_minimal && x < cells; x++)
            total += p[i].puzzle[x] != 0;
    }
    uint8_t *grids = malloc(total * cells);
    uint64_t *count = calloc(total, sizeof(*count));
    assert_true(grids && count);
    size_t g = 0;
    for (size_t i = 0; i < len; i++)
        memcpy(grids + g++ * cells, p[i].puzzle, cells);
    for (size_t i = 0; is_minimal && i < len; i++)
        for (unsigned x = 0; x < cells; x++)
            if (p[i].puzzle[x])
                blank_orbit(n, sym, p[i].puzzle, x, grids + g++ * cells);
    count_solutions(n, grids, g, count);
    for (size_t i = 0; i < len; i++)
        if (count[i] != 1)
            fail_msg("puzzle %zu has %llu solutions (dlx, limit 2)", i,
                     (unsigned long long)count[i]);
    for (size_t k = len; k < g; k++)
        if (count[k] < 2)
            fail_msg("not minimal: removing given (or orbit) %zu keeps it unique", k - len);
    free(grids);
    free(count);
}

/* Generate with args (which must include --solution) and check. */
static void generate_and_check(const char *const *args, size_t want, const char *sym,
                               int is_minimal)
{
    struct tool_run *r = new_run();
    struct gp *p = calloc(want + 1, sizeof(*p));
    assert_non_null(p);
    generate(r, d2.sock, args);
    if (r->status != 0)
        fail_msg("exit %d: %s", r->status, r->err);
    assert_int_equal(parse_lines(r->out, p, want + 1), want);
    check_puzzles(p, want, sym, is_minimal);
    free(p);
    free(r);
}

/* ------------------------------------------------------------------------ */
/* Tests */

/* 9x9 and 4x4, unique and minimal; --no-minimal still unique. */
static void test_unique_minimal(void **state)
{
    (void)state;
    generate_and_check((const char *const[]){"-n", "40", "--seed", "11", "--solution", NULL}, 40,
                       "none", 1);
    generate_and_check(
        (const char *const[]){"-n", "20", "--size", "4", "--seed", "3", "--solution", NULL}, 20,
        "none", 1);
    generate_and_check((const char *const[]){"-n", "10", "--no-minimal", "--solution", NULL}, 10,
                       "none", 0);
}

/* Every symmetry: givens symmetric, and no orbit can go. */
static void test_symmetries(void **state)
{
    static const char *const syms[] = {"rotate180", "rotate90", "mirror", "flip", "diagonal"};
    (void)state;
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
        generate_and_check((const char *const[]){"-n", "6", "--symmetry", syms[i], "--seed", "5",
                                                 "--solution", NULL},
                           6, syms[i], 1);
}

/* 16x16: unique.  Minimal 16x16 puzzles take about a second each
 * (docs/performance.md), so these are not minimal. */
static void test_16x16(void **state)
{
    (void)state;
    generate_and_check((const char *const[]){"-n", "3", "--size", "16", "--seed", "2",
                                             "--no-minimal", "--solution", NULL},
                       3, "none", 0);
}

/* Same seed: same bytes, on either daemon; another seed: other puzzles;
 * a shorter run is a prefix (across a chunk boundary). */
static void test_reproducible(void **state)
{
    (void)state;
    struct tool_run *a = new_run(), *b = new_run();
    const char *const args[] = {"-n", "40", "--seed", "123456789", "--json", NULL};
    generate(a, d2.sock, args);
    assert_int_equal(a->status, 0);
    generate(b, d2.sock, args);
    assert_int_equal(b->status, 0);
    assert_string_equal(a->out, b->out);
    generate(b, d1.sock, args);
    assert_int_equal(b->status, 0);
    assert_string_equal(a->out, b->out);
    generate(b, d2.sock, (const char *const[]){"-n", "20", "--seed", "123456789", "--json", NULL});
    assert_int_equal(b->status, 0);
    assert_true(strlen(b->out) > 0 && strncmp(a->out, b->out, strlen(b->out)) == 0);
    generate(b, d2.sock, (const char *const[]){"-n", "40", "--seed", "123456788", "--json", NULL});
    assert_int_equal(b->status, 0);
    assert_string_not_equal(a->out, b->out);
    /* The tool's options may also come before the word generate. */
    run_prog(b, "sudoku",
             (const char *const[]){"sudoku", "-s", d2.sock, "--json", "generate", "-n", "40",
                                   "--seed", "123456789", NULL});
    assert_int_equal(b->status, 0);
    assert_string_equal(a->out, b->out);
    free(a);
    free(b);
}

/* sudoku generate --local ARGS... (the built plugins). */
static void generate_local(struct tool_run *r, const char *const *args)
{
    const char *head[] = {"sudoku", "generate", "--local", "-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
    const char *argv[24];
    tool_run_argv(argv, 24, head, args);
    run_prog(r, "sudoku", argv);
}

/* --local makes what the daemon makes: the same bytes for the same seed
 * (a band, a symmetry, 4x4; chunks of 16 and a last short one), the same
 * errors and exit codes; the puzzles are judged as the daemon's are. */
static void test_local_matches_daemon(void **state)
{
    static const char *const sets[][12] = {
        {"-n", "40", "--seed", "7", "--json", NULL},
        {"-n", "18", "--seed", "9", "--difficulty", "medium", "--symmetry", "rotate180",
         "--solution", NULL},
        {"-n", "5", "--seed", "1", "--size", "4", "--json", NULL},
        {"-n", "2", "--solver", "nosuch", NULL},
        {"-n", "2", "--size", "25", "--difficulty", "easy", NULL},
        {"-n", "1", "--size", "16", "--difficulty", "hard", NULL},
    };
    static const int want_status[] = {0, 0, 0, 1, 1, 1};
    struct tool_run *a = new_run(), *b = new_run();
    (void)state;
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        generate(a, d2.sock, sets[i]);
        generate_local(b, sets[i]);
        assert_int_equal(a->status, want_status[i]);
        assert_int_equal(b->status, a->status);
        assert_string_equal(b->out, a->out);
        assert_string_equal(b->err, a->err);
    }
    /* The 16x16 band below extreme was refused at once, saying why. */
    assert_non_null(strstr(a->err, "unsupported: every generated 16x16 puzzle rates extreme"));
    generate_and_check((const char *const[]){"--local", "-P", SUDOKU_BUILD_PLUGIN_DIR, "-n", "20",
                                             "--symmetry", "mirror", "--solution", NULL},
                       20, "mirror", 1);
    free(a);
    free(b);
}

/* Copy the value of "key": in a JSON line (number or string, unquoted). */
static void json_field(const char *line, const char *key, char *out, size_t size)
{
    char pat[32];
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    const char *p = strstr(line, pat);
    assert_non_null(p);
    p += strlen(pat);
    if (*p == '"')
        p++;
    size_t n = strcspn(p, "\",}");
    assert_true(n < size);
    memcpy(out, p, n);
    out[n] = '\0';
}

/* Ask the two-worker daemon for n puzzles from seed with the option pair
 * (opt, val); each line whose index is in pick[0..picks) must come back
 * from its own seed with -n 1 and the same option, on the one-worker
 * daemon. */
static void check_own_seeds(const char *opt, const char *val, int n, const char *seed,
                            const int *pick, size_t picks)
{
    struct tool_run *a = new_run(), *b = new_run();
    char count[16];
    snprintf(count, sizeof(count), "%d", n);
    generate(a, d2.sock,
             (const char *const[]){"-n", count, "--seed", seed, opt, val, "--json", NULL});
    assert_int_equal(a->status, 0);
    const char *line = a->out;
    for (int i = 0; i < n; i++) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        for (size_t k = 0; k < picks; k++) {
            if (pick[k] != i)
                continue;
            char own[32], puzzle[700], again[700];
            json_field(line, "seed", own, sizeof(own));
            json_field(line, "puzzle", puzzle, sizeof(puzzle));
            generate(b, d1.sock, (const char *const[]){"--seed", own, opt, val, "--json", NULL});
            assert_int_equal(b->status, 0);
            json_field(b->out, "puzzle", again, sizeof(again));
            assert_string_equal(puzzle, again);
        }
        line = nl + 1;
    }
    free(a);
    free(b);
}

/* A puzzle's own seed with -n 1 (and the same options) makes it again. */
static void test_own_seed(void **state)
{
    static const int pick[] = {0, 7, 19};

    (void)state;
    check_own_seeds("--symmetry", "mirror", 20, "77", pick, sizeof(pick) / sizeof(pick[0]));
}

/* In a band too (several removal orders a grid): each puzzle's own seed
 * with -n 1 and the same band makes it again. */
static void test_own_seed_band(void **state)
{
    static const int pick[] = {0, 1, 2, 3, 4, 5};

    (void)state;
    check_own_seeds("--difficulty", "medium", 6, "78", pick, sizeof(pick) / sizeof(pick[0]));
}

/* qqwing's level names: simple is easy, intermediate is medium; the same
 * seed makes the same bytes as our name for the band. */
static void test_qqwing_levels(void **state)
{
    static const char *const pairs[][2] = {{"simple", "easy"}, {"intermediate", "medium"}};
    struct tool_run *a = new_run(), *b = new_run();
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        const char *alias[] = {"-n",           "3",         "--seed", "11", "--json",
                               "--difficulty", pairs[i][0], NULL};
        const char *band[] = {"-n",           "3",         "--seed", "11", "--json",
                              "--difficulty", pairs[i][1], NULL};
        char want[64];
        generate(a, d2.sock, alias);
        generate(b, d2.sock, band);
        assert_int_equal(a->status, 0);
        assert_string_equal(a->out, b->out);
        snprintf(want, sizeof(want), "\"difficulty\":\"%s\"", pairs[i][1]);
        assert_non_null(strstr(a->out, want));
    }
    free(a);
    free(b);
}

/* Bad option values: exit 2, the message naming what is allowed; nothing
 * sent (the socket does not exist). */
static void test_bad_options(void **state)
{
    static const struct {
        const char *args[8];
        const char *want; /* in stderr */
    } cases[] = {
        {{"--size", "7"}, "want 4, 9, 16 or 25"},
        {{"--difficulty", "tricky"}, "want easy, medium, hard, expert or extreme"},
        {{"--symmetry", "spiral"}, "want none, rotate180, rotate90, mirror, flip or diagonal"},
        {{"--rating", "5-3"}, "MIN <= MAX"},
        {{"--rating", "x"}, "want MIN-MAX"},
        {{"--rating", "-"}, "want MIN-MAX"},
        {{"--difficulty", "easy", "--rating", "1-2"}, "one or the other"},
        {{"-n", "0"}, "want 1..1000000000"},
        {{"--count", "ten"}, "want 1..1000000000"},
        {{"--seed", "-1"}, "--seed"},
        {{"--seed", "18446744073709551616"}, "--seed"},
        {{"extra"}, "unexpected argument"},
        {{"--frobnicate"}, "frobnicate"},
    };
    (void)state;
    struct tool_run *r = new_run();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        generate(r, "/nonexistent/sock", cases[i].args);
        if (r->status != 2 || !strstr(r->err, cases[i].want))
            fail_msg("case %zu: exit %d, want 2 and \"%s\" in: %s", i, r->status, cases[i].want,
                     r->err);
        assert_string_equal(r->out, "");
    }
    /* -h prints the help and exits 0 */
    generate(r, "/nonexistent/sock", (const char *const[]){"-h", NULL});
    assert_int_equal(r->status, 0);
    assert_non_null(strstr(r->out, "--symmetry"));
    /* a good command line and no daemon: exit 3 */
    generate(r, "/nonexistent/sock", (const char *const[]){"-n", "3", NULL});
    assert_int_equal(r->status, 3);
    assert_non_null(strstr(r->err, "/nonexistent/sock"));
    free(r);
}

/* The library: puzzle k of a request seeded S has seed gen_batch_seed(S, k),
 * and count 1 with that seed makes it again; the daemon's errors come back
 * with their codes. */
static void test_library(void **state)
{
    (void)state;
    struct sudoku_client *c = NULL;
    struct sudoku_client_error err;
    struct sudoku_client_puzzle *p = NULL, *q = NULL;
    size_t len = 0, qlen = 0;
    assert_int_equal(sudoku_client_connect(d2.sock, &c, &err), 0);
    struct sudoku_client_generate_opts o = {
        .size = 4, .count = 6, .seed = 99, .has_seed = 1, .symmetry = "rotate90"};
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), 0);
    assert_int_equal(len, 6);
    for (size_t k = 0; k < len; k++) {
        assert_int_equal(p[k].n, 4);
        assert_true(p[k].seed == gen_batch_seed(99, k));
        assert_string_equal(p[k].symmetry, "rotate90");
    }
    o.count = 1;
    o.seed = p[4].seed;
    assert_int_equal(sudoku_client_generate(c, &o, &q, &qlen, &err), 0);
    assert_int_equal(qlen, 1);
    assert_string_equal(q[0].puzzle, p[4].puzzle);
    assert_string_equal(q[0].solution, p[4].solution);
    sudoku_client_puzzles_free(q);
    sudoku_client_puzzles_free(p);
    /* errors: each answered with its code, the connection still good */
    static const struct {
        struct sudoku_client_generate_opts o;
        const char *code, *in_message;
    } bad[] = {
        {{.symmetry = "spiral"}, "bad_request", "rotate180"},
        {{.difficulty = "tricky"}, "bad_request", "expert"},
        {{.size = 7}, "bad_request", ""},
        {{.difficulty = "easy", .has_min_rating = 1, .min_rating = 1.0}, "bad_request", ""},
        {{.solver = "nosuch"}, "unknown_solver", ""},
        {{.size = 25, .difficulty = "easy"}, "unsupported", ""},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        p = (void *)&o;
        int rc = sudoku_client_generate(c, &bad[i].o, &p, &len, &err);
        if (rc != -EPROTO || strcmp(err.code, bad[i].code) ||
            !strstr(err.message, bad[i].in_message))
            fail_msg("case %zu: rc %d, %s: %s", i, rc, err.code, err.message);
        assert_null(p);
    }
    o.count = SUDOKU_CLIENT_GENERATE_MAX + 1;
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), -EINVAL);
    assert_int_equal(sudoku_client_broken(c, NULL), 0);
    sudoku_client_free(c);
}

/* rate puzzle through the daemon; returns its rating and difficulty. */
static double rate(const char *puzzle, char *difficulty, size_t size)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked res;
    struct dh_reader rd;
    char code[64];
    int fd = dh_connect(d2.sock);
    assert_true(fd >= 0);
    dh_reader_init(&rd, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint8(&pk, 0);
    msgpack_pack_uint32(&pk, 1);
    dh_pack_str(&pk, "rate");
    msgpack_pack_array(&pk, 1);
    dh_pack_str(&pk, puzzle);
    msgpack_unpacked_init(&res);
    assert_int_equal(dh_call(&rd, &sb, 1, &res), 0);
    if (dh_error_code(&res.data, code, sizeof(code)))
        fail_msg("rate: %s", code);
    const msgpack_object *r = dh_result(&res.data);
    const msgpack_object *v = dh_map_get(r, "rating");
    const msgpack_object *dn = dh_map_get(r, "difficulty");
    assert_true(v && v->type == MSGPACK_OBJECT_FLOAT64);
    assert_true(dn && dn->type == MSGPACK_OBJECT_STR && dn->via.str.size < size);
    memcpy(difficulty, dn->via.str.ptr, dn->via.str.size);
    difficulty[dn->via.str.size] = '\0';
    double rating = v->via.f64;
    msgpack_unpacked_destroy(&res);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&rd);
    return rating;
}

/* Each JSON line's puzzle is unique, rated by `rate` as the line says, in
 * [lo, hi] and (when want is set) of difficulty want. */
static void check_band(const char *out, size_t want_len, double lo, double hi, const char *want)
{
    struct gp *p = calloc(want_len, sizeof(*p));
    size_t len = 0;
    assert_non_null(p);
    for (const char *line = out; *line; line = strchr(line, '\n') + 1) {
        char puzzle[700], sol[700], rating[40], diff[32], rated_diff[32];
        assert_true(len < want_len);
        json_field(line, "puzzle", puzzle, sizeof(puzzle));
        json_field(line, "solution", sol, sizeof(sol));
        json_field(line, "rating", rating, sizeof(rating));
        json_field(line, "difficulty", diff, sizeof(diff));
        double r = rate(puzzle, rated_diff, sizeof(rated_diff));
        if (r != strtod(rating, NULL) || r < lo || r > hi || strcmp(diff, rated_diff) ||
            (want && strcmp(diff, want)))
            fail_msg("line %zu: rating %s (%s), rate says %g (%s), band %g..%g %s", len, rating,
                     diff, r, rated_diff, lo, hi, want ? want : "");
        unsigned n2;
        assert_int_equal(
            codec_parse_line(puzzle, strlen(puzzle), &p[len].n, p[len].puzzle, NULL, 0), 0);
        assert_int_equal(codec_parse_line(sol, strlen(sol), &n2, p[len].solution, NULL, 0), 0);
        len++;
    }
    assert_int_equal(len, want_len);
    check_puzzles(p, len, "none", 1);
    free(p);
}

/* --difficulty and --rating: every puzzle in its band, as `rate` says. */
static void test_bands(void **state)
{
    (void)state;
    struct tool_run *r = new_run();
    generate(
        r, d2.sock,
        (const char *const[]){"-n", "4", "--difficulty", "easy", "--seed", "8", "--json", NULL});
    if (r->status != 0)
        fail_msg("exit %d: %s", r->status, r->err);
    check_band(r->out, 4, 0.0, 2.3, "easy");
    generate(
        r, d2.sock,
        (const char *const[]){"-n", "3", "--rating", "2.4-3.4", "--seed", "8", "--json", NULL});
    if (r->status != 0)
        fail_msg("exit %d: %s", r->status, r->err);
    check_band(r->out, 3, 2.4, 3.4, NULL);
    free(r);
}

/* The daemon's refusals: printed with their code, exit 1, nothing on stdout. */
static void test_daemon_errors(void **state)
{
    static const struct {
        const char *args[10];
        const char *want, *also; /* also: NULL or a second string the error holds */
    } cases[] = {
        {{"--solver", "nosuch"}, "unknown_solver", NULL},
        {{"--size", "25", "--difficulty", "easy"}, "unsupported", NULL},
        /* a timeout with minimal puzzles asked for says what finishes sooner */
        {{"--size", "16", "-n", "16", "--timeout", "1"}, "timeout", "--no-minimal"},
        /* minimal anti-knight puzzles rate above easy (none of the first
         * 4,000 from seed 1): the error says so and what makes easier ones */
        {{"--rules", "anti-knight", "--difficulty", "easy", "--seed", "1", "--timeout", "3000"},
         "candidates rated",
         "--no-minimal"},
    };
    (void)state;
    struct tool_run *r = new_run();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        generate(r, d2.sock, cases[i].args);
        if (r->status != 1 || !strstr(r->err, cases[i].want) ||
            (cases[i].also && !strstr(r->err, cases[i].also)) ||
            !strstr(r->err, "sudoku: generate: "))
            fail_msg("case %zu: exit %d, want 1 and %s in: %s", i, r->status, cases[i].want,
                     r->err);
    }
    free(r);
}

/* sudoku-bench --generate through the daemon: every puzzle right. */
static void test_bench(void **state)
{
    (void)state;
    struct tool_run *r = new_run();
    const char *const argv[] = {"sudoku-bench",
                                "--generate",
                                "40",
                                "--socket",
                                d2.sock,
                                "--json",
                                "--chunk",
                                "7",
                                "--depth",
                                "3",
                                "-P",
                                SUDOKU_BUILD_PLUGIN_DIR,
                                NULL};
    run_prog(r, "sudoku-bench", argv);
    if (r->status != 0)
        fail_msg("exit %d: %s", r->status, r->err);
    assert_non_null(strstr(r->out, "\"puzzles\":40,\"wrong\":0,\"errors\":0"));
    free(r);
}

static int start_daemons(void **state)
{
    static const char *const two[] = {"--threads", "2", NULL};
    static const char *const one[] = {"--threads", "1", NULL};
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/sudoku-gen-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    return dh_start(&d2, two) < 0 || dh_start(&d1, one) < 0 ? -1 : 0;
}

static int stop_daemons(void **state)
{
    char path[128];
    (void)state;
    dh_stop(&d2);
    dh_stop(&d1);
    dh_cleanup(&d2);
    dh_cleanup(&d1);
    snprintf(path, sizeof(path), "%s/out.txt", tmpdir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/err.txt", tmpdir);
    unlink(path);
    rmdir(tmpdir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_options),   cmocka_unit_test(test_unique_minimal),
        cmocka_unit_test(test_symmetries),    cmocka_unit_test(test_16x16),
        cmocka_unit_test(test_reproducible),  cmocka_unit_test(test_own_seed),
        cmocka_unit_test(test_own_seed_band), /* several orders a grid */
        cmocka_unit_test(test_library),       cmocka_unit_test(test_bands),
        cmocka_unit_test(test_qqwing_levels), cmocka_unit_test(test_daemon_errors),
        cmocka_unit_test(test_bench),         cmocka_unit_test(test_local_matches_daemon),
    };
    if (getenv("GEN_TEST_FILTER"))
        cmocka_set_test_filter(getenv("GEN_TEST_FILTER"));
    return cmocka_run_group_tests(tests, start_daemons, stop_daemons);
}
