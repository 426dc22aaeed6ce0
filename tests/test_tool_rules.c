/* test_tool_rules.c -- the sudoku tool on variant rules (issue 28), through
 * the real sudokud and with --local.
 *
 * Every golden puzzle of tests/data/variants.txt goes in as a JSON line
 * ({"puzzle": ..., "rules": {...}}), all of them in one mixed batch; each
 * answer line must carry its puzzle and rules back, and its solution must
 * keep the givens and break no rule (rules_check_solution on the rules the
 * answer carries, built by core/rules), and be the line's known unique
 * solution.  --rules and --regions on line input are checked the same way.
 * Errors: a bad --rules name, a bad layout, a JSON line that is no JSON
 * (with its line number), the daemon's bad_request passed through.  The
 * terminal drawing (--output readable) shows the regions and a legend.
 * sudoku generate --rules jigsaw and killer: the JSON lines it prints go
 * back in as they are and solve, uniquely, to their solution under the
 * rules they carry (read back from the JSON, checked by core/rules).
 * sudoku solvers --json names the rules of each solver, --local as the
 * daemon.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "proto/codec.h"
#include "tests/daemon_harness.h"
#include "tests/tool_run.h"
#include "tests/var_line.h"
#include "util/jsonread.h"

#define GOLDEN     SUDOKU_TEST_DATA_DIR "/variants.txt"
#define MAX_GOLDEN 64
#define JIGSAW9    "111223333111222233114222333144555666444555666444558666777588999777888899777889999"

static struct dh daemon;
static struct tool_run run; /* 2 MiB of output: off the stack */

/* The golden lines, parsed, and their JSON lines in dir/golden.jsonl. */
static struct var_line golden[MAX_GOLDEN];
static char golden_solution[MAX_GOLDEN][SDK_MAX_CELLS + 1];
static size_t golden_len;

/* ------------------------------------------------------------------------ */
/* Inputs */

static void path_in(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", daemon.dir, name);
}

static void write_file(const char *name, const char *text)
{
    char path[300];
    FILE *f;

    path_in(path, sizeof(path), name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* v's rules as the wire's JSON map. */
static void put_rules_json(FILE *f, const struct var_line *v)
{
    const char *sep = "";

    fputc('{', f);
    for (uint32_t bit = 1; bit; bit <<= 1) {
        if ((v->desc.flags & bit) && rules_kind_name(bit)) {
            fprintf(f, "%s\"%s\":true", sep, rules_kind_name(bit));
            sep = ",";
        }
    }
    if (v->desc.regions) {
        fprintf(f, "%s\"regions\":\"%.*s\"", sep, (int)v->desc.regions_len, v->desc.regions);
        sep = ",";
    }
    if (v->desc.cages_len) {
        fprintf(f, "%s\"cages\":[", sep);
        for (uint32_t i = 0; i < v->desc.cages_len; i++) {
            const struct rules_desc_cage *c = &v->desc.cages[i];
            fprintf(f, "%s[%llu,[", i ? "," : "", (unsigned long long)c->sum);
            for (uint32_t k = 0; k < c->len; k++)
                fprintf(f, k ? ",%llu" : "%llu",
                        (unsigned long long)v->desc.cage_cells[c->off + k]);
            fputs("]]", f);
        }
        fputc(']', f);
    }
    fputc('}', f);
}

/* Read variants.txt into golden[] and write every 9x9 and 4x4 one as a
 * JSON line into golden.jsonl. */
static void load_golden(void)
{
    char line[VAR_LINE_MAX], path[300];
    FILE *in = fopen(GOLDEN, "r"), *out;

    assert_non_null(in);
    path_in(path, sizeof(path), "golden.jsonl");
    out = fopen(path, "w");
    assert_non_null(out);
    golden_len = 0;
    while (fgets(line, sizeof(line), in) && golden_len < MAX_GOLDEN) {
        struct var_line *v = &golden[golden_len];
        char puzzle[SDK_MAX_CELLS + 1];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        assert_int_equal(var_line_parse_golden(line, v), 0);
        if (v->expected != 1)
            continue;
        /* the solution is the last field of the golden line */
        snprintf(golden_solution[golden_len], sizeof(golden_solution[0]), "%s",
                 strrchr(line, '|') + 1);
        golden_solution[golden_len][strcspn(golden_solution[golden_len], "\n")] = '\0';
        codec_format_line(v->n, v->cells, CODEC_BLANK_DOT, puzzle, sizeof(puzzle));
        fprintf(out, "{\"puzzle\":\"%s\",\"rules\":", puzzle);
        put_rules_json(out, v);
        fputs("}\n", out);
        golden_len++;
    }
    fclose(in);
    fclose(out);
    assert_true(golden_len >= 10);
}

static int setup(void **state)
{
    (void)state;
    if (dh_start(&daemon, NULL) < 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dh_stop(&daemon);
    dh_cleanup(&daemon);
    return 0;
}

/* Run the tool: args (NULL-terminated) after "sudoku -s SOCK" (or
 * "--local -P DIR"), stdin from the file name in dir (NULL: none). */
static void run_tool(int is_local, const char *in_name, const char *const *args)
{
    const char *head_d[] = {"sudoku", "-s", daemon.sock, NULL};
    const char *head_l[] = {"sudoku", "--local", "-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
    const char *argv[64];
    char in[300];

    tool_run_argv(argv, 64, is_local ? head_l : head_d, args);
    if (in_name)
        path_in(in, sizeof(in), in_name);
    tool_run_prog(&run, daemon.dir, in_name ? in : NULL, "sudoku", argv);
}

/* ------------------------------------------------------------------------ */
/* Checking answers */

/* The string member key of JSON object text into out ("" when absent). */
static void json_str(const char *text, const struct json_token *tok, const char *key, char *out,
                     size_t size)
{
    long at = json_member(text, tok, 0, key);
    out[0] = '\0';
    if (at >= 0 && tok[at].type == JSON_STRING)
        assert_true(json_string_copy(text, &tok[at], out, size) >= 0);
}

/* One answer line: it carries the golden line's rules as they were sent,
 * and its solution keeps the givens, breaks no rule (core/rules on the
 * golden line's rules) and is the known unique one. */
static void check_answer_line(const char *line, size_t k)
{
    static struct json_token tok[4096];
    const struct var_line *v = &golden[k];
    char err[256], solution[SDK_MAX_CELLS + 1], status[32], rules_text[8192];
    uint8_t sol[SDK_MAX_CELLS];
    unsigned n = 0;
    struct rules *r = NULL;
    FILE *f;

    assert_true(json_parse(line, strlen(line), tok, 4096, err, sizeof(err)) > 0);
    json_str(line, tok, "status", status, sizeof(status));
    if (strcmp(status, "solved") != 0)
        fail_msg("golden %zu: %s", k, line);
    json_str(line, tok, "solution", solution, sizeof(solution));
    assert_int_equal(codec_parse_line(solution, strlen(solution), &n, sol, err, sizeof(err)), 0);
    assert_int_equal(n, v->n);
    /* the rules it carries are the ones sent, byte for byte */
    f = fmemopen(rules_text, sizeof(rules_text), "w");
    assert_non_null(f);
    fputs("\"rules\":", f);
    put_rules_json(f, v);
    fclose(f);
    if (!strstr(line, rules_text))
        fail_msg("golden %zu: %s does not carry %s", k, line, rules_text);
    assert_int_equal(rules_new(&v->desc, &r, err, sizeof(err)), 0);
    if (rules_check_solution(rules_sdk(r), n, v->cells, sol, err, sizeof(err)) != 0)
        fail_msg("golden %zu: %s breaks a rule: %s", k, solution, err);
    rules_free(r);
    assert_string_equal(solution, golden_solution[k]); /* unique: the known one */
}

/* Every line of out is the answer to golden line k, in order. */
static void check_golden_output(const char *out)
{
    const char *p = out;
    size_t k = 0;

    while (*p) {
        const char *end = strchr(p, '\n');
        char line[8192];
        assert_non_null(end);
        assert_true((size_t)(end - p) < sizeof(line));
        memcpy(line, p, (size_t)(end - p));
        line[end - p] = '\0';
        assert_true(k < golden_len);
        check_answer_line(line, k++);
        p = end + 1;
    }
    assert_int_equal(k, golden_len);
}

/* A line-form solution (the whole of out) under rules_text (a golden
 * style rules field) for puzzle. */
static void check_line_answer(const char *out, const char *rules_field, const char *puzzle)
{
    char line[VAR_LINE_MAX];
    struct var_line v;
    struct rules *r = NULL;
    uint8_t sol[SDK_MAX_CELLS];
    unsigned n = 0;
    char err[256];

    snprintf(line, sizeof(line), "t|%s|%s|1|-", rules_field, puzzle);
    assert_int_equal(var_line_parse_golden(line, &v), 0);
    assert_int_equal(codec_parse_line(out, strcspn(out, "\n"), &n, sol, err, sizeof(err)), 0);
    assert_int_equal(n, v.n);
    assert_int_equal(rules_new(&v.desc, &r, err, sizeof(err)), 0);
    if (rules_check_solution(rules_sdk(r), n, v.cells, sol, err, sizeof(err)) != 0)
        fail_msg("%s breaks a rule: %s", out, err);
    rules_free(r);
}

/* The rules object tok[at] of text in the golden form ("diagonals
 * regions=... cages=17:0,1;9:2"), into out (size bytes). */
static void golden_rules_of(const char *text, const struct json_token *tok, long at, char *out,
                            size_t size)
{
    uint32_t k = (uint32_t)at + 1;
    FILE *f = fmemopen(out, size, "w");

    assert_non_null(f);
    assert_int_equal(tok[at].type, JSON_OBJECT);
    for (uint32_t m = 0; m < tok[at].size; m++, k = tok[k + 1].next) {
        const struct json_token *key = &tok[k], *v = &tok[k + 1];
        if (json_string_is(text, key, "regions")) {
            assert_int_equal(v->type, JSON_STRING);
            fprintf(f, "regions=%.*s ", (int)v->len, text + v->start);
        } else if (json_string_is(text, key, "cages")) {
            assert_int_equal(v->type, JSON_ARRAY);
            fputs("cages=", f);
            for (uint32_t c = k + 2, i = 0; i < v->size; i++, c = tok[c].next) {
                const struct json_token *cells = &tok[tok[c + 1].next];
                assert_true(tok[c].type == JSON_ARRAY && tok[c].size == 2);
                assert_int_equal(cells->type, JSON_ARRAY);
                fprintf(f, "%s%.*s:", i ? ";" : "", (int)tok[c + 1].len, text + tok[c + 1].start);
                for (uint32_t j = 0; j < cells->size; j++)
                    fprintf(f, j ? ",%.*s" : "%.*s", (int)cells[1 + j].len,
                            text + cells[1 + j].start);
            }
            fputc(' ', f);
        } else {
            assert_int_equal(v->type, JSON_TRUE); /* a boolean rule */
            fprintf(f, "%.*s ", (int)key->len, text + key->start);
        }
    }
    fclose(f);
}

/* What one JSON line of generate (or of its answer) says. */
struct gen_line {
    char puzzle[SDK_MAX_CELLS + 1], solution[SDK_MAX_CELLS + 1];
    char rules[VAR_LINE_MAX]; /* golden form */
    uint64_t givens, count;   /* givens: generate's; count: a solve's (--unique) */
    int is_unique;            /* a solve's "unique" */
    double rating;            /* generate's or rate's "rating", -1 when absent */
    char difficulty[16];      /* generate's or rate's "difficulty" */
};

/* Parse line (NUL-terminated, no newline) into *g; the solution must keep
 * the givens and break none of the rules the line carries. */
static void read_gen_line(const char *line, struct gen_line *g)
{
    static struct json_token tok[8192];
    char err[256];
    long at;

    memset(g, 0, sizeof(*g));
    if (json_parse(line, strlen(line), tok, 8192, err, sizeof(err)) <= 0)
        fail_msg("%s: %s", err, line);
    json_str(line, tok, "puzzle", g->puzzle, sizeof(g->puzzle));
    json_str(line, tok, "solution", g->solution, sizeof(g->solution));
    at = json_member(line, tok, 0, "rules");
    assert_true(at > 0);
    golden_rules_of(line, tok, at, g->rules, sizeof(g->rules));
    at = json_member(line, tok, 0, "givens");
    if (at > 0)
        assert_int_equal(json_uint(line, &tok[at], 1000, &g->givens), 0);
    at = json_member(line, tok, 0, "count");
    if (at > 0)
        assert_int_equal(json_uint(line, &tok[at], 1000, &g->count), 0);
    at = json_member(line, tok, 0, "unique");
    g->is_unique = at > 0 && tok[at].type == JSON_TRUE;
    at = json_member(line, tok, 0, "rating");
    g->rating = at > 0 && tok[at].type == JSON_NUMBER ? strtod(line + tok[at].start, NULL) : -1;
    json_str(line, tok, "difficulty", g->difficulty, sizeof(g->difficulty));
    check_line_answer(g->solution, g->rules, g->puzzle);
}

/* The lines of out into lines[0..cap); returns how many. */
static size_t read_gen_lines(const char *out, struct gen_line *lines, size_t cap)
{
    size_t k = 0;

    for (const char *p = out; *p; k++) {
        const char *end = strchr(p, '\n');
        static char line[VAR_LINE_MAX * 2];
        assert_non_null(end);
        assert_true(k < cap && (size_t)(end - p) < sizeof(line));
        memcpy(line, p, (size_t)(end - p));
        line[end - p] = '\0';
        read_gen_line(line, &lines[k]);
        p = end + 1;
    }
    return k;
}

/* ------------------------------------------------------------------------ */
/* Tests */

/* Every golden puzzle in one mixed batch of JSON lines, daemon and --local. */
static void test_json_lines_golden(void **state)
{
    (void)state;
    load_golden();
    for (int local = 0; local < 2; local++) {
        run_tool(local, "golden.jsonl", (const char *const[]){NULL});
        if (run.status != 0)
            fail_msg("local %d: exit %d: %s", local, run.status, run.err);
        check_golden_output(run.out);
    }
}

/* --rules and --regions on line input, and --json carrying them. */
static void test_rules_option(void **state)
{
    static const struct {
        const char *args[5]; /* after the socket */
        const char *rules;   /* the golden form of the same rules */
        const char *puzzle;
    } cases[] = {
        /* X-sudoku by the players' name */
        {{"--rules", "x", NULL},
         "diagonals",
         "......9...413.27............2.....7............9..134..5.17.......8.549...8......"},
        /* two rules at once, the wire's names too */
        {{"--rules", "anti_knight,anti-king", NULL},
         "anti_knight anti_king",
         "6...........8........94................1......2..........5.7....................."},
        /* jigsaw: --regions names the layout */
        {{"--rules", "jigsaw", "--regions", JIGSAW9, NULL},
         "regions=" JIGSAW9,
         ".12..7...7...9......5..1..3.3..8...7....4..8......96..1...3...........4.42..6...."},
        /* --regions alone is a jigsaw, with X on top */
        {{"--regions", JIGSAW9, "--rules", "x", NULL},
         "diagonals regions=" JIGSAW9,
         ".......76........2...........81..........734.9..........12....3...7...98........."},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int local = 0; local < 2; local++) {
            write_file("one.txt", cases[i].puzzle);
            run_tool(local, "one.txt", cases[i].args);
            if (run.status != 0)
                fail_msg("case %zu local %d: exit %d: %s", i, local, run.status, run.err);
            check_line_answer(run.out, cases[i].rules, cases[i].puzzle);
        }
    }
}

/* The answer's JSON names the rules it was solved under. */
static void test_json_output_has_rules(void **state)
{
    (void)state;
    write_file("one.txt",
               "......9...413.27............2.....7............9..134..5.17.......8.549...8......");
    run_tool(0, "one.txt", (const char *const[]){"--rules", "x", "--json", NULL});
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "\"rules\":{\"diagonals\":true}"));
}

/* What is wrong is said, with the line for a JSON line. */
static void test_errors(void **state)
{
    static const struct {
        const char *args[6]; /* after the socket */
        const char *input;   /* written to bad.txt, the input */
        int status;          /* exit status */
        const char *words;   /* on stderr */
    } cases[] = {
        /* a rule name that is none */
        {{"--rules", "x,bogus", NULL}, "", 2, "--rules: unknown rule \"bogus\""},
        /* jigsaw without its layout */
        {{"--rules", "jigsaw", NULL}, "", 2, "--rules jigsaw needs --regions"},
        /* killer's cages come with each puzzle */
        {{"--rules", "killer", NULL}, "", 2, "--rules killer: the cages come with each puzzle"},
        /* a layout one short */
        {{"--regions", "1", NULL}, "", 2, "--regions: 1 symbols"},
        /* a layout in pieces: the daemon's words, found before any puzzle */
        {{"--regions",
          "911223333111222233114222333144555666444555666444558666777588999777888899777889991",
          NULL},
         "",
         2,
         "is not connected"},
        /* a JSON line that is no JSON: its line number and column */
        {{NULL}, "\n{\"puzzle\": \"1234\" \"rules\"}\n", 1, ":2: bad_request: column 19"},
        /* an unknown rule in a JSON line: the daemon's words */
        {{NULL},
         "{\"puzzle\":\"1...........1...\",\"rules\":{\"diagonal\":true}}\n",
         1,
         ":1: bad_request: rules: unknown rule \"diagonal\""},
        /* a cell in two cages: the daemon's bad_request, passed on */
        {{NULL},
         "{\"puzzle\":\"..........................................................................."
         "......\","
         "\"rules\":{\"cages\":[[3,[0,1]],[10,[1,2]]]}}\n",
         1,
         ":1: bad_request: cages: cell r1c2 is in cages 1 and 2"},
        /* rules no 4x4 grid obeys (2413 and 3142 are the only rows) */
        {{"generate", "--size", "4", "--rules", "non-consecutive", NULL},
         "",
         1,
         "unsupported: no 4x4 grid under these rules was found"},
        /* symmetry for killer cages with no givens: nothing to place */
        {{"generate", "--rules", "killer", "--symmetry", "rotate180", NULL},
         "",
         1,
         "unsupported: symmetry rotate180: drawn killer cages have no givens"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int local = 0; local < 2; local++) {
            write_file("bad.txt", cases[i].input);
            run_tool(local, "bad.txt", cases[i].args);
            if (run.status != cases[i].status || !strstr(run.err, cases[i].words))
                fail_msg("case %zu local %d: exit %d, stderr %s", i, local, run.status, run.err);
        }
    }
}

#define GEN_MAX 8 /* puzzles a generate test reads */

static struct gen_line made[GEN_MAX], solved[GEN_MAX];

/* generate --rules NAME (daemon and --local) prints JSON lines whose
 * puzzles keep their solution's givens under the rules they carry; those
 * lines, fed back as JSON-lines input, solve uniquely to the same solution
 * under the same rules. */
static void test_generated_rules_solve(void **state)
{
    static const char *const names[] = {"jigsaw", "killer"};
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        for (int local = 0; local < 2; local++) {
            size_t len;
            run_tool(local, NULL,
                     (const char *const[]){"generate", "-n", "3", "--seed", "28", "--rules",
                                           names[i], "--json", NULL});
            if (run.status != 0)
                fail_msg("%s local %d: exit %d: %s", names[i], local, run.status, run.err);
            len = read_gen_lines(run.out, made, GEN_MAX);
            assert_int_equal(len, 3);
            write_file("made.jsonl", run.out);
            run_tool(local, "made.jsonl", (const char *const[]){"--unique", "--json", NULL});
            if (run.status != 0)
                fail_msg("%s local %d: exit %d: %s", names[i], local, run.status, run.err);
            assert_int_equal(read_gen_lines(run.out, solved, GEN_MAX), len);
            for (size_t k = 0; k < len; k++) {
                assert_non_null(strstr(made[k].rules, i ? "cages=" : "regions="));
                assert_string_equal(solved[k].rules, made[k].rules);
                assert_string_equal(solved[k].puzzle, made[k].puzzle);
                assert_true(solved[k].is_unique && solved[k].count == 1);
                assert_string_equal(solved[k].solution, made[k].solution);
            }
        }
    }
}

/* --givens: killer puzzles keep givens (none without it: cages only),
 * each line's givens count is its puzzle's, and each puzzle is unique
 * under its cages; --givens without killer is a usage error. */
static void test_killer_givens(void **state)
{
    (void)state;
    for (int local = 0; local < 2; local++) {
        for (int givens = 0; givens < 2; givens++) {
            size_t len, with_givens;
            run_tool(local, NULL,
                     (const char *const[]){"generate", "-n", "3", "--seed", "6", "--rules",
                                           "killer", "--json", givens ? "--givens" : NULL, NULL});
            if (run.status != 0)
                fail_msg("givens %d local %d: exit %d: %s", givens, local, run.status, run.err);
            len = read_gen_lines(run.out, made, GEN_MAX);
            assert_int_equal(len, 3);
            write_file("made.jsonl", run.out);
            run_tool(local, "made.jsonl", (const char *const[]){"--unique", "--json", NULL});
            assert_int_equal(run.status, 0);
            assert_int_equal(read_gen_lines(run.out, solved, GEN_MAX), len);
            with_givens = 0;
            for (size_t k = 0; k < len; k++) {
                size_t cells = strlen(made[k].puzzle);
                size_t blanks = 0;
                for (size_t c = 0; c < cells; c++)
                    blanks += made[k].puzzle[c] == '.';
                assert_int_equal(made[k].givens, cells - blanks);
                with_givens += made[k].givens > 0;
                assert_true(solved[k].is_unique && solved[k].count == 1);
                assert_string_equal(solved[k].solution, made[k].solution);
            }
            /* a puzzle whose cages alone are unique may be dug bare even
             * with --givens; with this seed all three keep givens */
            assert_int_equal(with_givens, givens ? 3 : 0);
        }
        run_tool(local, NULL, (const char *const[]){"generate", "--rules", "x", "--givens", NULL});
        assert_int_equal(run.status, 2);
        assert_non_null(strstr(run.err, "--givens: only with --rules killer"));
    }
}

/* The k-th line of `rate --json` output: its rating and difficulty. */
static void rate_line(const char *out, size_t k, double *rating, char *difficulty, size_t size)
{
    static struct json_token tok[64];
    char line[1024], err[256];
    const char *p = out, *end;
    long at;

    for (size_t i = 0; i < k; i++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    end = strchr(p, '\n');
    assert_non_null(end);
    assert_true((size_t)(end - p) < sizeof(line));
    memcpy(line, p, (size_t)(end - p));
    line[end - p] = '\0';
    if (json_parse(line, strlen(line), tok, 64, err, sizeof(err)) <= 0)
        fail_msg("%s: %s", err, line);
    at = json_member(line, tok, 0, "rating");
    assert_true(at > 0 && tok[at].type == JSON_NUMBER);
    *rating = strtod(line + tok[at].start, NULL);
    json_str(line, tok, "difficulty", difficulty, size);
}

/* generate --rules killer --difficulty easy|medium (daemon and --local):
 * cages and no givens, each puzzle rated inside its band by the generator
 * and again by `rate` on the lines fed back as they are, and unique under
 * the cages it carries.  (Merging every cage of one cell drives a killer
 * past both bands: the generator stops merging at the band's top.) */
static void test_killer_bands(void **state)
{
    static const struct {
        const char *name;
        double lo, hi; /* techniques.md: (lo, hi] */
    } bands[] = {{"easy", 0.0, 2.3}, {"medium", 2.3, 3.4}};
    (void)state;
    for (size_t b = 0; b < sizeof(bands) / sizeof(bands[0]); b++) {
        for (int local = 0; local < 2; local++) {
            size_t len;
            run_tool(local, NULL,
                     (const char *const[]){"generate", "-n", "3", "--seed", "11", "--rules",
                                           "killer", "--difficulty", bands[b].name, "--json",
                                           NULL});
            if (run.status != 0)
                fail_msg("%s local %d: exit %d: %s", bands[b].name, local, run.status, run.err);
            len = read_gen_lines(run.out, made, GEN_MAX);
            assert_int_equal(len, 3);
            write_file("made.jsonl", run.out);
            run_tool(local, "made.jsonl", (const char *const[]){"rate", "--json", NULL});
            assert_int_equal(run.status, 0);
            for (size_t k = 0; k < len; k++) {
                char difficulty[16];
                double rating;
                rate_line(run.out, k, &rating, difficulty, sizeof(difficulty));
                assert_int_equal(made[k].givens, 0);
                assert_non_null(strstr(made[k].rules, "cages="));
                assert_string_equal(made[k].difficulty, bands[b].name);
                assert_string_equal(difficulty, bands[b].name);
                assert_true(rating > bands[b].lo && rating <= bands[b].hi);
                assert_true(rating == made[k].rating);
            }
            run_tool(local, "made.jsonl", (const char *const[]){"--unique", "--json", NULL});
            assert_int_equal(run.status, 0);
            assert_int_equal(read_gen_lines(run.out, solved, GEN_MAX), len);
            for (size_t k = 0; k < len; k++) {
                assert_true(solved[k].is_unique && solved[k].count == 1);
                assert_string_equal(solved[k].solution, made[k].solution);
            }
        }
    }
}

/* sudoku solvers --json lists each solver's rules and explain_rules, and
 * --local lists the same as the daemon, byte for byte. */
static void test_solvers_rules(void **state)
{
    static char daemon_out[8192];
    (void)state;
    run_tool(0, NULL, (const char *const[]){"solvers", "--json", NULL});
    assert_int_equal(run.status, 0);
    assert_true(strlen(run.out) < sizeof(daemon_out));
    memcpy(daemon_out, run.out, strlen(run.out) + 1);
    assert_non_null(strstr(daemon_out, "\"name\":\"dfs\""));
    assert_non_null(strstr(strstr(daemon_out, "\"name\":\"dfs\""), "\"rules\":[],"));
    assert_non_null(strstr(daemon_out, "\"explain_rules\":[\"diagonals\",\"windows\","));
    run_tool(1, NULL, (const char *const[]){"solvers", "--json", NULL});
    assert_int_equal(run.status, 0);
    assert_string_equal(run.out, daemon_out);
}

/* --output readable draws the layout and names every cage's sum. */
static void test_readable_drawing(void **state)
{
    (void)state;
    write_file("k.jsonl",
               "{\"puzzle\":\"1...............\",\"rules\":{\"regions\":\"1122112233443344\","
               "\"cages\":[[3,[0,1]],[7,[14,15]]]}}\n");
    run_tool(0, "k.jsonl", (const char *const[]){"--output", "readable", NULL});
    if (run.status != 0)
        fail_msg("exit %d: %s", run.status, run.err);
    assert_non_null(strstr(run.out, "rules: jigsaw, killer"));
    assert_non_null(strstr(run.out, "a=3 b=7"));
    assert_non_null(strstr(run.out, " a1 ")); /* r1c1's given, in cage a */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines_golden),     cmocka_unit_test(test_rules_option),
        cmocka_unit_test(test_json_output_has_rules), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_readable_drawing),      cmocka_unit_test(test_generated_rules_solve),
        cmocka_unit_test(test_killer_givens),         cmocka_unit_test(test_killer_bands),
        cmocka_unit_test(test_solvers_rules),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
