/* test_tool_commands.c -- the sudoku tool's subcommand table (tool/commands.c).
 *
 * No daemon: each command line below is run with the built `sudoku`, and
 * its exit code and output show which row ran.  A subcommand's word is found
 * behind options and their values, never in a value or after a FILE; the
 * rows' help is drawn from the table; a row with its own options (generate)
 * reads the whole command line with them, so the same run comes out whether
 * the options stand before or after its word.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tool_run.h"

#define NO_SOCK "/nonexistent/sudokud.sock"
#define PLUGINS SUDOKU_BUILD_PLUGIN_DIR

static char tmpdir[64];

/* A command line and what it must give. */
static const struct {
    const char *comment;
    const char *args[9];
    int want;             /* exit code */
    const char *want_out; /* the start of stdout, or NULL */
    const char *want_err; /* in stderr, or NULL */
} cases[] = {
    {"the usage lines, one per row, rows of one synopsis on one line",
     {"--help"},
     0,
     "usage: sudoku [options] [FILE...]\n"
     "       sudoku count [options] [FILE...]\n"
     "       sudoku solvers|stats|ping [options]\n"
     "       sudoku hint|explain|rate [options] [FILE...]\n"
     "       sudoku generate [options]   (see: sudoku generate --help)\n"
     "       sudoku render [options] [FILE...]\n"
     "\nSolve the puzzles",
     NULL},
    {"a row's own help",
     {"ping", "-h"},
     0,
     "usage: sudoku ping [-s PATH] [--json]\n"
     "Check that the daemon answers; print the round-trip time.\n",
     NULL},
    {"a row's usage on two lines, the second under the first",
     {"hint", "--help"},
     0,
     "usage: sudoku hint [-s PATH] [--progress FILE] [--steps N] [--solver NAME]\n"
     "                   [--timeout MS] [--format F] [--json] [FILE...]\n"
     "                   [--level N] [--marks STRING|@FILE]\n"
     "Print the next step",
     NULL},
    {"count takes the solve options' help", {"count", "-h"}, 0, "usage: sudoku [options]", NULL},
    {"the word behind an option's value, not the value",
     {"--local", "--solver", "ping", "ping"},
     2,
     NULL,
     "sudoku: ping asks the daemon: not with --local"},
    {"the word behind a short option's value",
     {"-s", NO_SOCK, "-w", "4", "stats"},
     3,
     NULL,
     NO_SOCK},
    {"the word after --", {"--local", "--", "stats"}, 2, NULL, "stats asks the daemon"},
    {"a word after a FILE is a FILE",
     {"--local", "-P", PLUGINS, "/nonexistent/puzzles", "ping"},
     1,
     NULL,
     "cannot open /nonexistent/puzzles"},
    {"hint takes many FILEs, as rate does: each is read",
     {"--local", "-P", PLUGINS, "hint", "/nonexistent/a", "/nonexistent/b"},
     1,
     NULL,
     "cannot open /nonexistent/b"},
    {"--level is 1..4",
     {"--local", "hint", "--level", "5"},
     2,
     NULL,
     "invalid value for --level: '5'"},
    {"--level is a number",
     {"--local", "explain", "--level=two"},
     2,
     NULL,
     "invalid value for --level: 'two'"},
    {"rate grades no steps",
     {"--local", "rate", "--level", "2"},
     2,
     NULL,
     "rate takes no --level (a rating grades no hint)"},
    {"rate reads no pencil marks",
     {"--local", "rate", "--marks", "@x"},
     2,
     NULL,
     "--marks is for hint and explain (the player's pencil marks)"},
    {"--marks @FILE must open",
     {"--local", "-P", PLUGINS, "hint", "--marks", "@/nonexistent/marks"},
     2,
     NULL,
     "cannot open /nonexistent/marks"},
    {"rate reads no pencil marks by their other name",
     {"--local", "rate", "--candidates=@x"},
     2,
     NULL,
     "--candidates=STRING is for hint and explain (the player's pencil marks)"},
    {"solving reads no pencil marks",
     {"--local", "--marks", "@x"},
     2,
     NULL,
     "--marks is for hint and explain (the player's pencil marks)"},
    {"render draws no player's marks",
     {"--local", "render", "--candidates=@x"},
     2,
     NULL,
     "--candidates=STRING is for hint and explain (the player's pencil marks)"},
    {"--candidates=@FILE is --marks @FILE",
     {"--local", "-P", PLUGINS, "hint", "--candidates=@/nonexistent/marks"},
     2,
     NULL,
     "cannot open /nonexistent/marks"},
    {"--candidates @FILE too, when no picture is drawn",
     {"--local", "-P", PLUGINS, "explain", "--candidates", "@/nonexistent/marks"},
     2,
     NULL,
     "cannot open /nonexistent/marks"},
    {"--timeout-ms is --timeout",
     {"--timeout-ms", "0", "ping"},
     2,
     NULL,
     "invalid value for --timeout: '0'"},
    {"generate's --timeout-ms too",
     {"generate", "--timeout-ms=x"},
     2,
     NULL,
     "invalid value for --timeout: 'x'"},
    {"generate behind options",
     {"-s", NO_SOCK, "-v", "generate", "-h"},
     0,
     "usage: sudoku generate",
     NULL},
    {"generate reads every option with its own table",
     {"-s", NO_SOCK, "generate", "--limit", "2"},
     2,
     NULL,
     "sudoku generate: unknown option '--limit'"},
    {"generate takes no operand",
     {"--json", "generate", "extra"},
     2,
     NULL,
     "unexpected argument 'extra'"},
};

static void test_cases(void **state)
{
    static struct tool_run r;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        static const char *const head[] = {"sudoku", NULL};
        const char *argv[10];
        tool_run_argv(argv, sizeof(argv) / sizeof(argv[0]), head, cases[i].args);
        print_message("case: %s\n", cases[i].comment);
        tool_run_prog(&r, tmpdir, NULL, "sudoku", argv);
        assert_int_equal(r.status, cases[i].want);
        if (cases[i].want_out)
            assert_memory_equal(r.out, cases[i].want_out, strlen(cases[i].want_out));
        if (cases[i].want_err)
            assert_non_null(strstr(r.err, cases[i].want_err));
    }
}

/* generate --local: its options before the word or after it, the same bytes. */
static void test_generate_either_side(void **state)
{
    static struct tool_run before, after;
    const char *const a[] = {"sudoku", "--local",  "-P", PLUGINS, "--seed",
                             "7",      "generate", "-n", "3",     NULL};
    const char *const b[] = {"sudoku", "generate", "-n", "3",     "--seed",
                             "7",      "--local",  "-P", PLUGINS, NULL};
    (void)state;

    tool_run_prog(&before, tmpdir, NULL, "sudoku", a);
    tool_run_prog(&after, tmpdir, NULL, "sudoku", b);
    assert_int_equal(before.status, 0);
    assert_int_equal(after.status, 0);
    assert_int_equal(strlen(before.out), 3 * 82);
    assert_string_equal(before.out, after.out);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_tool_commands-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char path[128];
    (void)state;
    snprintf(path, sizeof(path), "%s/out.txt", tmpdir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/err.txt", tmpdir);
    unlink(path);
    return rmdir(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_generate_either_side),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
