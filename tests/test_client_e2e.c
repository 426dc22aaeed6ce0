/* test_client_e2e.c -- the real sudoku tool and library against the real sudokud.
 *
 * The group setup starts SUDOKU_BIN_DIR/sudokud on a socket in a temporary
 * directory; each test runs the tool (fork/exec, stdout and stderr to files,
 * wait4 for the exit code and max RSS) or calls the library.  Answers are
 * checked by the rules (grid_check_solution against the givens), never by
 * comparing with stored strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/grid.h"
#include "proto/codec.h"
#include "tests/fake_peer.h"
#include "tests/tool_run.h"
#include <msgpack.h>
#include <sudoku/client.h>

#define DATA(name) SUDOKU_TEST_DATA_DIR "/" name

static char tmpdir[64];
static char sock[128];
static pid_t daemon_pid;

static void path_in_tmp(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

/* ------------------------------------------------------------------------ */
/* Running things */

/* Run the tool with argv (NULL-terminated, argv[0] ignored), stdin from
 * in_path (NULL: /dev/null), stdout to tmp/out.txt.  The output is read into r
 * unless it is over TOOL_RUN_OUT_MAX. */
static void run_tool(struct tool_run *r, const char *in_path, const char *const *argv)
{
    tool_run_prog(r, tmpdir, in_path, "sudoku", argv);
}

static int start_daemon(void **state)
{
    char log_path[128];
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/sudoku-e2e-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    path_in_tmp(sock, sizeof(sock), "sock");
    path_in_tmp(log_path, sizeof(log_path), "daemon.log");
    daemon_pid = fork();
    if (daemon_pid == 0) {
        tool_run_redirect(log_path, 2, O_WRONLY | O_CREAT | O_TRUNC);
        execl(SUDOKU_BIN_DIR "/sudokud", "sudokud", "-P", SUDOKU_BUILD_PLUGIN_DIR, "-s", sock,
              (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 1000; i++) {
        struct sudoku_client *c = NULL;
        if (sudoku_client_connect(sock, &c, NULL) == 0) {
            sudoku_client_free(c);
            return 0;
        }
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    return -1;
}

static int stop_daemon(void **state)
{
    static const char *const files[] = {"out.txt",   "err.txt",    "daemon.log",
                                        "big.txt",   "small.txt",  "sock",
                                        "fake.sock", "random.bin", "digits.txt"};
    char path[128];
    (void)state;
    kill(daemon_pid, SIGTERM);
    waitpid(daemon_pid, NULL, 0);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        path_in_tmp(path, sizeof(path), files[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Checking answers by the rules */

/* The next puzzle line of f (skipping blanks and '#'), trimmed; 0 at EOF. */
static int next_puzzle_line(FILE *f, char *buf, size_t size)
{
    while (fgets(buf, (int)size, f)) {
        size_t len = strlen(buf);
        while (len > 0 && isspace((unsigned char)buf[len - 1]))
            buf[--len] = '\0';
        if (len > 0 && buf[0] != '#')
            return 1;
    }
    return 0;
}

/* Check that solution (line form) solves puzzle (line form). */
static void check_line_solution(const char *puzzle, const char *solution)
{
    uint8_t p[SDK_MAX_CELLS], s[SDK_MAX_CELLS];
    unsigned pn = 0, sn = 0;
    char err[256];
    assert_int_equal(codec_parse_line(puzzle, strlen(puzzle), &pn, p, err, sizeof(err)), 0);
    assert_int_equal(codec_parse_line(solution, strlen(solution), &sn, s, err, sizeof(err)), 0);
    assert_int_equal(pn, sn);
    if (grid_check_solution(pn, p, s, err, sizeof(err)) != 0)
        fail_msg("%s does not solve %s: %s", solution, puzzle, err);
}

/* Check every stdout line of a line-form run against the input, in order.
 * Returns the number of lines checked. */
static size_t check_line_output(const char *in_path, const char *out_path)
{
    static char want[8192], got[8192];
    FILE *in = fopen(in_path, "r");
    FILE *out = fopen(out_path, "r");
    size_t count = 0;
    assert_non_null(in);
    assert_non_null(out);
    while (next_puzzle_line(in, want, sizeof(want))) {
        assert_true(next_puzzle_line(out, got, sizeof(got)));
        check_line_solution(want, got);
        count++;
    }
    assert_false(next_puzzle_line(out, got, sizeof(got))); /* nothing extra */
    fclose(in);
    fclose(out);
    return count;
}

/* stdout must be n lines of n numbers with single spaces, nothing else. */
static void check_judge_shape(const char *text, unsigned n)
{
    const char *p = text;
    for (unsigned row = 0; row < n; row++) {
        for (unsigned col = 0; col < n; col++) {
            assert_true(isdigit((unsigned char)*p));
            while (isdigit((unsigned char)*p))
                p++;
            assert_int_equal(*p, col + 1 < n ? ' ' : '\n');
            p++;
        }
    }
    assert_int_equal(*p, '\0');
}

/* ------------------------------------------------------------------------ */
/* A minimal JSON reader: validates syntax, collects top-level keys */

struct json {
    const char *p;
    char keys[16][32];
    int keys_len;
    int depth;
};

static int json_value(struct json *j);

static void json_ws(struct json *j)
{
    while (isspace((unsigned char)*j->p))
        j->p++;
}

static int json_string(struct json *j, char *out, size_t size)
{
    size_t len = 0;
    if (*j->p++ != '"')
        return -1;
    while (*j->p && *j->p != '"') {
        if (*j->p == '\\')
            j->p++;
        if ((unsigned char)*j->p < 0x20)
            return -1;
        if (out && len + 1 < size)
            out[len++] = *j->p;
        j->p++;
    }
    if (out)
        out[len] = '\0';
    return *j->p++ == '"' ? 0 : -1;
}

static int json_object(struct json *j)
{
    int top = j->depth++ == 0;
    j->p++;
    json_ws(j);
    while (*j->p != '}') {
        char key[32];
        json_ws(j);
        if (json_string(j, key, sizeof(key)) < 0)
            return -1;
        if (top && j->keys_len < 16)
            memcpy(j->keys[j->keys_len++], key, sizeof(key));
        json_ws(j);
        if (*j->p++ != ':' || json_value(j) < 0)
            return -1;
        json_ws(j);
        if (*j->p == ',')
            j->p++;
        else if (*j->p != '}')
            return -1;
    }
    j->p++;
    j->depth--;
    return 0;
}

static int json_array(struct json *j)
{
    j->p++;
    json_ws(j);
    while (*j->p != ']') {
        if (json_value(j) < 0)
            return -1;
        json_ws(j);
        if (*j->p == ',')
            j->p++;
        else if (*j->p != ']')
            return -1;
    }
    j->p++;
    return 0;
}

static int json_value(struct json *j)
{
    json_ws(j);
    if (*j->p == '{')
        return json_object(j);
    if (*j->p == '[')
        return json_array(j);
    if (*j->p == '"')
        return json_string(j, NULL, 0);
    if (strncmp(j->p, "null", 4) == 0 || strncmp(j->p, "true", 4) == 0) {
        j->p += 4;
        return 0;
    }
    if (strncmp(j->p, "false", 5) == 0) {
        j->p += 5;
        return 0;
    }
    char *end;
    strtod(j->p, &end);
    if (end == j->p)
        return -1;
    j->p = end;
    return 0;
}

/* Parse one line as a JSON object; the keys must be exactly want (any order). */
static void check_json_keys(const char *line, const char *const *want, int want_len)
{
    struct json j = {.p = line};
    assert_int_equal(*line, '{');
    assert_int_equal(json_value(&j), 0);
    json_ws(&j);
    assert_int_equal(*j.p, '\0');
    assert_int_equal(j.keys_len, want_len);
    for (int i = 0; i < want_len; i++) {
        int found = 0;
        for (int k = 0; k < j.keys_len; k++)
            found |= strcmp(j.keys[k], want[i]) == 0;
        if (!found)
            fail_msg("key %s missing in %s", want[i], line);
    }
}

/* ------------------------------------------------------------------------ */
/* Tests: the tool */

static void test_judge_example(void **state)
{
    static struct tool_run r;
    const char *argv[] = {"sudoku", "-s", sock, NULL};
    uint8_t puzzle[SDK_MAX_CELLS], sol[SDK_MAX_CELLS];
    char in[1024], err[256];
    unsigned n = 0, sn = 0;
    (void)state;
    run_tool(&r, DATA("client_judge.txt"), argv);
    assert_int_equal(r.status, 0);
    check_judge_shape(r.out, 9);
    tool_run_slurp(DATA("client_judge.txt"), in, sizeof(in));
    assert_int_equal(codec_parse_judge(in, strlen(in), &n, puzzle, err, sizeof(err)), 0);
    assert_int_equal(codec_parse_judge(r.out, strlen(r.out), &sn, sol, err, sizeof(err)), 0);
    assert_int_equal(sn, 9);
    if (grid_check_solution(n, puzzle, sol, err, sizeof(err)) != 0)
        fail_msg("judge answer is wrong: %s", err);
    assert_string_equal(r.err, "");
}

static void test_line_file_keeps_order(void **state)
{
    static struct tool_run r;
    char out_path[128];
    const char *argv[] = {"sudoku", "-s", sock, DATA("client_lines.txt"), NULL};
    (void)state;
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 0);
    path_in_tmp(out_path, sizeof(out_path), "out.txt");
    assert_true(check_line_output(DATA("client_lines.txt"), out_path) > 100);
}

static void test_mixed_good_and_bad(void **state)
{
    static struct tool_run r;
    const char *argv[] = {"sudoku", "-s", sock, DATA("client_mixed.txt"), NULL};
    static const int bad[] = {3, 5, 7, 9}; /* line numbers of the bad puzzles */
    static const int good[] = {2, 4, 6, 8};
    char needle[64], line[256];
    (void)state;
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    for (size_t i = 0; i < 4; i++) {
        snprintf(needle, sizeof(needle), "client_mixed.txt:%d: ", bad[i]);
        if (!strstr(r.err, needle))
            fail_msg("stderr does not name line %d:\n%s", bad[i], r.err);
        snprintf(needle, sizeof(needle), "client_mixed.txt:%d: ", good[i]);
        assert_null(strstr(r.err, needle));
    }
    assert_non_null(strstr(r.err, ":3: bad_puzzle: ")); /* the daemon's code and message */
    assert_non_null(strstr(r.err, "4 solved, 1 unsolvable, 3 errors")); /* summary */
    /* the good ones are solved, in order */
    FILE *in = fopen(DATA("client_mixed.txt"), "r");
    const char *out = r.out;
    assert_non_null(in);
    for (int ln = 1; fgets(line, sizeof(line), in); ln++) {
        line[strcspn(line, "\n")] = '\0';
        if (ln % 2 || ln > 8)
            continue;
        const char *nl = strchr(out, '\n');
        assert_non_null(nl);
        char got[128];
        snprintf(got, sizeof(got), "%.*s", (int)(nl - out), out);
        check_line_solution(line, got);
        out = nl + 1;
    }
    assert_string_equal(out, "");
    fclose(in);
}

/* A line holding a NUL byte is one bad record with its line number; the
 * lines around it are still solved, in order. */
static void test_nul_byte_line(void **state)
{
    static const char good[] =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    static struct tool_run r;
    char path[] = "/tmp/sudoku-nul-XXXXXX";
    const char *argv[] = {"sudoku", "-s", sock, path, NULL};
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    (void)state;

    assert_non_null(f);
    fprintf(f, "%s\n", good);
    fwrite(good, 1, 40, f);
    fputc('\0', f); /* line 2: a NUL in the middle of a puzzle */
    fprintf(f, "%s\n", good + 41);
    fprintf(f, "%s\n", good);
    assert_int_equal(fclose(f), 0);
    run_tool(&r, NULL, argv);
    unlink(path);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, ":2: "));
    assert_non_null(strstr(r.err, "NUL byte"));
    const char *nl = strchr(r.out, '\n');
    assert_non_null(nl);
    char got[128];
    snprintf(got, sizeof(got), "%.*s", (int)(nl - r.out), r.out);
    check_line_solution(good, got);
    snprintf(got, sizeof(got), "%s", nl + 1);
    got[strcspn(got, "\n")] = '\0';
    check_line_solution(good, got);
}

/* Command lines and the exit code each must give. */
#define SOCK_ARG "@sock" /* stands for the test daemon's socket */

static const struct {
    const char *comment;
    const char *args[6];
    int want;
    const char *want_out; /* on stdout, or NULL */
    const char *want_err; /* on stderr, or NULL */
} exit_cases[] = {
    {"all solved", {"-s", SOCK_ARG, DATA("client_judge.txt")}, 0, NULL, NULL},
    {"ping answers", {"-s", SOCK_ARG, "ping"}, 0, "pong from", NULL},
    {"--local with no plugins: 1, saying where it looked",
     {"--local", "-P", "/nonexistent/plugins", DATA("client_judge.txt")},
     1,
     NULL,
     "no solver plugin loaded from /nonexistent/plugins"},
    {"some bad", {"-s", SOCK_ARG, DATA("client_mixed.txt")}, 1, NULL, NULL},
    {"missing file", {"-s", SOCK_ARG, DATA("no-such-file.txt")}, 1, NULL, NULL},
    {"--limit 0 is no limit",
     {"-s", SOCK_ARG, "--limit", "0"},
     2,
     NULL,
     "sudoku: invalid value for --limit: '0' (want 1..1000000)\nTry 'sudoku --help'.\n"},
    {"unknown format",
     {"-s", SOCK_ARG, "--format", "xml"},
     2,
     NULL,
     "invalid value for --format: 'xml' (want grid, judge, line, json or auto)"},
    {"unknown option", {"--frobnicate"}, 2, NULL, "sudoku: unknown option '--frobnicate'"},
    {"unknown short option", {"-x", "ping"}, 2, NULL, "sudoku: unknown option '-x'"},
    {"missing argument",
     {"ping", "--window"},
     2,
     NULL,
     "sudoku: option '--window' needs an argument"},
    {"bad number, short",
     {"-w", "5000", "ping"},
     2,
     NULL,
     "invalid value for -w: '5000' (want 1..4096)"},
    {"bad number, long", {"--timeout", "1s"}, 2, NULL, "invalid value for --timeout: '1s'"},
    {"--unique conflicts with --limit 3",
     {"--unique", "--limit", "3"},
     2,
     NULL,
     "--unique means --limit 2"},
    {"ping: extra operand",
     {"-s", SOCK_ARG, "ping", "pong"},
     2,
     NULL,
     "too many arguments for ping"},
    {"no daemon there (solve)",
     {"-s", "/nonexistent/sudokud.sock", DATA("client_judge.txt")},
     3,
     NULL,
     NULL},
    {"no daemon there (ping)", {"-s", "/nonexistent/sudokud.sock", "ping"}, 3, NULL, NULL},
    {"help", {"--help"}, 0, "  -V, --version", NULL},
    {"-h", {"-h"}, 0, "usage: sudoku [options] [FILE...]", NULL},
    {"help of a subcommand", {"stats", "-h"}, 0, "usage: sudoku stats", NULL},
    {"version after subcommand", {"stats", "--version"}, 0, "(protocol v1)", NULL},
    {"-V", {"-V"}, 0, "sudoku ", NULL},
};

static void test_exit_codes(void **state)
{
    static struct tool_run r;
    (void)state;
    for (size_t i = 0; i < sizeof(exit_cases) / sizeof(exit_cases[0]); i++) {
        const char *argv[8] = {"sudoku"};
        for (int k = 0; exit_cases[i].args[k]; k++)
            argv[k + 1] = strcmp(exit_cases[i].args[k], SOCK_ARG) ? exit_cases[i].args[k] : sock;
        print_message("case: %s\n", exit_cases[i].comment);
        run_tool(&r, NULL, argv);
        assert_int_equal(r.status, exit_cases[i].want);
        if (exit_cases[i].want_out)
            assert_non_null(strstr(r.out, exit_cases[i].want_out));
        if (exit_cases[i].want_err)
            assert_non_null(strstr(r.err, exit_cases[i].want_err));
        if (exit_cases[i].want == 2) /* a usage error is on stderr only */
            assert_string_equal(r.out, "");
        if (exit_cases[i].want == 3) {
            assert_non_null(strstr(r.err, "/nonexistent/sudokud.sock"));
            assert_non_null(strstr(r.err, "sudokud -s /nonexistent/sudokud.sock"));
        }
    }
}

static void test_json_lines(void **state)
{
    static struct tool_run r;
    static const char *const solved_keys[] = {"line",  "file",   "status",    "solution",
                                              "count", "solver", "elapsed_us"};
    static const char *const error_keys[] = {"line", "file", "status", "code", "message"};
    const char *argv[] = {"sudoku", "--json", "-s", sock, DATA("client_mixed.txt"), NULL};
    (void)state;
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    char *save = NULL;
    int count = 0;
    for (char *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char want_line[32];
        snprintf(want_line, sizeof(want_line), "{\"line\":%d,", count + 2);
        assert_true(strncmp(line, want_line, strlen(want_line)) == 0); /* input order */
        if (strstr(line, "\"status\":\"error\""))
            check_json_keys(line, error_keys, 5);
        else
            check_json_keys(line, solved_keys, 7);
        count++;
    }
    assert_int_equal(count, 8);
    /* grid input: the solution is an array of rows */
    const char *argv2[] = {"sudoku", "--json", "-s", sock, NULL};
    run_tool(&r, DATA("client_judge.txt"), argv2);
    assert_int_equal(r.status, 0);
    r.out[strcspn(r.out, "\n")] = '\0';
    check_json_keys(r.out, solved_keys, 7);
    assert_non_null(strstr(r.out, "\"solution\":[["));
}

/* --json over several files: each object names its file, and line is the
 * puzzle's line in that file. */
static void test_json_names_files(void **state)
{
    static struct tool_run r;
    const char *argv[] = {
        "sudoku", "--json", "-s", sock, DATA("client_judge.txt"), DATA("client_mixed.txt"), NULL};
    char want[256];
    (void)state;
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof(want), ",\"file\":\"%s\"}\n{\"line\":2,", DATA("client_judge.txt"));
    if (strncmp(r.out, "{\"line\":1,", 10) != 0 || !strstr(r.out, want))
        fail_msg("the first object is not line 1 of %s: %s", DATA("client_judge.txt"), r.out);
    snprintf(want, sizeof(want), ",\"file\":\"%s\"}\n{\"line\":3,", DATA("client_mixed.txt"));
    if (!strstr(r.out, want))
        fail_msg("line 2 of %s is not named so: %s", DATA("client_mixed.txt"), r.out);
}

/* How many times needle occurs in hay. */
static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* size bytes from a fixed-seed generator; digits: only '0'..'9' and a
 * newline every 50 bytes or so, else any byte. */
static void write_noise(const char *path, size_t size, int digits)
{
    uint32_t x = 2463534242u;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        if (digits)
            fputc(x % 50 == 0 ? '\n' : '0' + (int)(x % 10), f);
        else
            fputc((int)(x & 0xff), f);
    }
    fclose(f);
}

/* Random bytes or random digits: thousands of bad records, a screenful of
 * errors and a count of the rest; random bytes are called binary at once. */
static void test_noise_errors_bounded(void **state)
{
    static struct tool_run r;
    char path[128];
    const char *argv[] = {"sudoku", "-s", sock, path, NULL};
    (void)state;
    path_in_tmp(path, sizeof(path), "random.bin");
    write_noise(path, 200000, 0);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, "random.bin looks binary") || !strstr(r.err, "more errors (-v shows all)"))
        fail_msg("random bytes: no binary notice or no count:\n%.2000s", r.err);
    assert_true(strstr(r.err, "looks binary") < strstr(r.err, "random.bin:"));
    assert_true(count_lines(r.err) <= 20 + 3);
    path_in_tmp(path, sizeof(path), "digits.txt");
    write_noise(path, 200000, 1);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    assert_null(strstr(r.err, "looks binary"));
    assert_non_null(strstr(r.err, "more errors (-v shows all)"));
    assert_true(count_lines(r.err) <= 20 + 2);
}

/* An empty file is said; one error is "1 error", with no rate of failures. */
static void test_counts_said_right(void **state)
{
    static struct tool_run r;
    char path[128];
    const char *argv[] = {"sudoku", "-s", sock, path, NULL};
    FILE *f;
    (void)state;
    path_in_tmp(path, sizeof(path), "small.txt");
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 0); /* nothing failed: 0, as sudoku(1) says */
    assert_non_null(strstr(r.err, "no puzzles in "));
    assert_non_null(strstr(r.err, path));
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("12345\n", f);
    fclose(f);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, " 1 error in ") || strstr(r.err, "errors") || strstr(r.err, "puzzles/s"))
        fail_msg("summary of one bad puzzle: %s", r.err);
    assert_null(strstr(r.err, "no puzzles in "));
}

/* --unique: a puzzle with two solutions fails (exit 1) and --json says
 * unique false; a unique one exits 0 with unique true. */
static void test_unique_not_unique(void **state)
{
    static struct tool_run r;
    char path[128];
    const char *argv[] = {"sudoku", "-s", sock, "--unique", path, NULL};
    const char *json[] = {"sudoku", "-s", sock, "--unique", "--json", path, NULL};
    const char *one[] = {"sudoku", "-s", sock, "--unique", "--json", DATA("client_judge.txt"),
                         NULL};
    FILE *f;
    (void)state;
    path_in_tmp(path, sizeof(path), "small.txt");
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("1...............\n", f); /* one given of sixteen: many solutions */
    fclose(f);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, " multiple"));
    assert_non_null(strstr(r.err, "1 not unique"));
    run_tool(&r, NULL, json);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"unique\":false"));
    run_tool(&r, NULL, one);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"unique\":true"));
}

/* Every key of the daemon's solvers and stats answers comes through the
 * library and the tool (the rules each solver takes through
 * sudoku_client_solver_rules), and the text listing says which sides each
 * solver is the default for, and with -v the rules. */
static void test_solvers_stats_every_key(void **state)
{
    static struct tool_run r;
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    struct sudoku_client_stats st;
    struct sudoku_client_error err;
    struct sudoku_client *c = NULL;
    unsigned defaults = 0;
    size_t len = 0, explainers = 0;
    (void)state;
    unsigned rules = 0, explain_rules = 0;
    assert_int_equal(sudoku_client_connect(sock, &c, &err), 0);
    assert_int_equal(sudoku_client_solver_rules(c, 0, &rules, NULL), -ENOENT); /* no list yet */
    assert_int_equal(sudoku_client_solvers(c, list, SUDOKU_CLIENT_MAX_SOLVERS, &len, &err), 0);
    for (size_t i = 0; i < len; i++) {
        assert_int_equal(defaults & list[i].default_sizes, 0); /* each side in one list */
        defaults |= list[i].default_sizes;
        explainers += list[i].is_explain;
        /* the rules of each entry: bitmask and sat take all seven, dfs none;
         * an explainer's explain takes them all (logic) */
        assert_int_equal(sudoku_client_solver_rules(c, i, &rules, &explain_rules), 0);
        if (strcmp(list[i].name, "bitmask") == 0 || strcmp(list[i].name, "sat") == 0)
            assert_int_equal(rules, 0x7fu);
        if (strcmp(list[i].name, "dfs") == 0)
            assert_int_equal(rules, 0);
        assert_int_equal(explain_rules, list[i].is_explain ? 0x7fu : 0);
    }
    assert_int_equal(sudoku_client_solver_rules(c, len, &rules, NULL), -ERANGE);
    assert_int_equal(defaults, 0xf); /* 4, 9, 16 and 25 each have a default */
    assert_true(explainers >= 1);    /* logic */
    assert_int_equal(sudoku_client_stats(c, &st, &err), 0);
    assert_true(st.connections_total >= 1);
    sudoku_client_free(c);
    const char *json[] = {"sudoku", "-s", sock, "solvers", "--json", NULL};
    run_tool(&r, NULL, json);
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "\"default_sizes\":["), len);
    assert_int_equal(count_of(r.out, "\"explain\":true"), explainers);
    assert_int_equal(count_of(r.out, "\"explain_rules\":["), len);
    assert_non_null(strstr(r.out, "\"name\":\"bitmask\""));
    assert_non_null(strstr(strstr(r.out, "\"name\":\"bitmask\""),
                           "\"rules\":[\"diagonals\",\"windows\",\"anti_knight\",\"anti_king\","
                           "\"non_consecutive\",\"regions\",\"cages\"]"));
    const char *verbose[] = {"sudoku", "-s", sock, "solvers", "-v", NULL};
    run_tool(&r, NULL, verbose); /* -v: each solver's rules on a line under it */
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "\n"), 2 * len);
    assert_int_equal(count_of(r.out, " rules: "), len);
    assert_non_null(strstr(r.out, "rules: classic only; explain: x, windoku,"));
    const char *text[] = {"sudoku", "-s", sock, "solvers", NULL};
    run_tool(&r, NULL, text);
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "\n"), len); /* unchanged: a line a solver */
    assert_null(strstr(r.out, "rules:"));
    for (size_t i = 0; i < len; i++) {
        const char *line = strstr(r.out, list[i].name);
        assert_non_null(line);
        if (list[i].default_sizes) /* "default (25)" on sat's line, not only bitmask's */
            assert_true(strstr(line, "default (") < strchr(line, '\n'));
    }
    const char *stats[] = {"sudoku", "-s", sock, "stats", "--json", NULL};
    run_tool(&r, NULL, stats);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"connections_total\":"));
    assert_non_null(strstr(r.out, "\"stuck_workers\":0"));
}

/* qqwing's --compact grids are answered in that form, a blank line between
 * them; its --csv lines are answered as lines. */
static void test_qqwing_forms(void **state)
{
    static struct tool_run r;
    char path[128], rows[2][10][16];
    const char *argv[] = {"sudoku", "-s", sock, path, NULL};
    static const char compact[] = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n"
                                  "7...2...6\n.6....28.\n...419..5\n....8..79\n";
    FILE *f;
    (void)state;
    path_in_tmp(path, sizeof(path), "small.txt");
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n%s", compact, compact);
    fclose(f);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 0);
    const char *p = r.out;
    for (int g = 0; g < 2; g++) {
        for (int row = 0; row < 9; row++) {
            size_t len = strcspn(p, "\n");
            assert_int_equal(len, 9); /* "534678912": a digit a cell, no spaces */
            memcpy(rows[g][row], p, 9);
            rows[g][row][9] = '\0';
            p += len + 1;
        }
        if (g == 0) {
            assert_int_equal(*p, '\n'); /* the blank line between */
            p++;
        }
    }
    assert_int_equal(*p, '\0');
    char puzzle[82] = "", sol[82] = "";
    for (int row = 0; row < 9; row++) {
        memcpy(puzzle + row * 9, compact + row * 10, 9);
        memcpy(sol + row * 9, rows[1][row], 9);
    }
    check_line_solution(puzzle, sol);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "Puzzle,Solution,Difficulty\n%s,,Easy\n", puzzle);
    fclose(f);
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 0);
    r.out[strcspn(r.out, "\n")] = '\0';
    check_line_solution(puzzle, r.out);
}

/* --output readable boxes each answer as qqwing does, and reads back as a
 * grid; -o FILE writes the answers there; -q keeps stderr empty while the
 * exit status still says something failed. */
static void test_readable_into_quiet(void **state)
{
    static struct tool_run r;
    static char text[8192];
    char path[128];
    uint8_t cells[SDK_MAX_CELLS], sol[SDK_MAX_CELLS];
    unsigned n = 0, sn = 0;
    (void)state;
    path_in_tmp(path, sizeof(path), "small.txt");
    const char *readable[] = {
        "sudoku", "-s", sock, "--output", "readable", "-o", path, DATA("client_judge.txt"), NULL};
    run_tool(&r, NULL, readable);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, ""); /* it went to the file */
    tool_run_slurp(path, text, sizeof(text));
    assert_non_null(strstr(text, " | "));
    assert_non_null(strstr(text, "-------|-------|-------\n"));
    /* the boxed answer reads back as a solved grid of the same puzzle */
    const char *back[] = {"sudoku", "-s", sock, "--output", "line", path, NULL};
    run_tool(&r, NULL, back);
    assert_int_equal(r.status, 0);
    tool_run_slurp(DATA("client_judge.txt"), text, sizeof(text));
    assert_int_equal(codec_parse_judge(text, strlen(text), &n, cells, NULL, 0), 0);
    r.out[strcspn(r.out, "\n")] = '\0';
    assert_int_equal(codec_parse_line(r.out, strlen(r.out), &sn, sol, NULL, 0), 0);
    assert_int_equal(sn, n);
    assert_int_equal(grid_check_solution(n, cells, sol, text, sizeof(text)), 0);
    /* -q: a bad puzzle fails silently, but fails */
    const char *quiet[] = {"sudoku", "-q", "-s", sock, DATA("client_mixed.txt"), NULL};
    run_tool(&r, NULL, quiet);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "");
    assert_true(strlen(r.out) > 0);
}

/* Write count puzzle lines, cycling through the 9x9 lines of client_lines.txt. */
static void make_batch(const char *path, size_t count)
{
    static char lines[256][128];
    char buf[1024];
    size_t n = 0;
    FILE *in = fopen(DATA("client_lines.txt"), "r");
    FILE *out = fopen(path, "w");
    assert_non_null(in);
    assert_non_null(out);
    while (n < 256 && next_puzzle_line(in, buf, sizeof(buf)))
        if (strlen(buf) == 81)
            memcpy(lines[n++], buf, 82); /* 81 symbols and the NUL */
    assert_true(n > 50);
    for (size_t i = 0; n > 0 && i < count; i++)
        fprintf(out, "%s\n", lines[i % n]);
    fclose(in);
    fclose(out);
}

static void test_big_batch_bounded_memory(void **state)
{
    static struct tool_run small, big;
    char big_path[128], small_path[128], out_path[128];
    (void)state;
    path_in_tmp(big_path, sizeof(big_path), "big.txt");
    path_in_tmp(small_path, sizeof(small_path), "small.txt");
    path_in_tmp(out_path, sizeof(out_path), "out.txt");
    make_batch(small_path, 10000);
    make_batch(big_path, 100000);
    const char *argv_small[] = {"sudoku", "-s", sock, small_path, NULL};
    const char *argv_big[] = {"sudoku", "-s", sock, big_path, NULL};
    run_tool(&small, NULL, argv_small);
    assert_int_equal(small.status, 0);
    run_tool(&big, NULL, argv_big);
    assert_int_equal(big.status, 0);
    assert_int_equal(check_line_output(big_path, out_path), 100000);
    print_message("max RSS: 10,000 puzzles %ld KiB, 100,000 puzzles %ld KiB\n", small.maxrss_kb,
                  big.maxrss_kb);
    assert_true(big.maxrss_kb < 64L * 1024);
    /* 90,000 more puzzles are 7.4 MB more input and output: holding either
     * would show; a constant-memory client grows by nothing like that */
    assert_true(big.maxrss_kb < small.maxrss_kb + 3L * 1024);
}

/* ------------------------------------------------------------------------ */
/* Tests: the library */

static void test_library_calls(void **state)
{
    struct sudoku_client *c = NULL;
    struct sudoku_client_error err;
    struct sudoku_client_result res;
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    struct sudoku_client_stats st;
    const char *p4 = "1..4..1..1..4..1";
    size_t len = 0;
    uint64_t rtt = 0;
    int has_default = 0;
    (void)state;
    assert_int_equal(sudoku_client_connect(sock, &c, &err), 0);
    assert_int_equal(sudoku_client_ping(c, &rtt, &err), 0);
    assert_int_equal(sudoku_client_solve(c, p4, strlen(p4), NULL, &res), 0);
    assert_int_equal(res.status, SUDOKU_CLIENT_SOLVED);
    check_line_solution(p4, res.solution);
    /* few givens, limit 2: at least two solutions */
    struct sudoku_client_options two = {.limit = 2};
    assert_int_equal(sudoku_client_solve(c, "1...............", 16, &two, &res), 0);
    assert_int_equal(res.count, 2);
    /* array form in, array form out */
    uint8_t cells[16] = {1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 0, 1};
    assert_int_equal(sudoku_client_solve_cells(c, 4, cells, NULL, &res), 0);
    assert_int_equal(res.status, SUDOKU_CLIENT_SOLVED);
    assert_int_equal(grid_check_solution(4, cells, res.cells, NULL, 0), 0);
    /* a daemon error is an answer, not a broken connection */
    struct sudoku_client_options bad = {.solver = "no-such-solver"};
    assert_int_equal(sudoku_client_solve(c, p4, strlen(p4), &bad, &res), 0);
    assert_int_equal(res.status, SUDOKU_CLIENT_FAILED);
    assert_string_equal(res.error.code, "unknown_solver");
    assert_int_equal(sudoku_client_solvers(c, list, SUDOKU_CLIENT_MAX_SOLVERS, &len, &err), 0);
    assert_true(len >= 1);
    for (size_t i = 0; i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++)
        has_default += list[i].is_default;
    assert_int_equal(has_default, 1);
    assert_int_equal(sudoku_client_stats(c, &st, &err), 0);
    assert_true(st.requests >= 6);
    sudoku_client_free(c);
}

/* ------------------------------------------------------------------------ */
/* Tests: the tool against a fake daemon that stops answering */

/* A solved 9x9 grid: the fake's answer to anything (the tool prints it). */
#define FAKE_SOLUTION                                                                              \
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

static void fake_answer(int fd, uint32_t msgid)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    fake_peer_pack_solved(&pk, msgid, FAKE_SOLUTION);
    if (write(fd, sb.data, sb.size) != (ssize_t)sb.size)
        _exit(1);
    msgpack_sbuffer_destroy(&sb);
}

/* The fake daemon, in a child: accept one connection on path, answer the
 * first `answers` solve requests, then close (answers < 0: never answer,
 * read until the client goes).  Returns its pid. */
/* Answer msgid with the error a stopping daemon gives. */
static void fake_refuse(int fd, uint32_t msgid)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    fake_peer_reply_head(&pk, msgid);
    msgpack_pack_map(&pk, 2);
    msgpack_pack_str_with_body(&pk, "code", 4);
    msgpack_pack_str_with_body(&pk, "overloaded", 10);
    msgpack_pack_str_with_body(&pk, "message", 7);
    msgpack_pack_str_with_body(&pk, "sudokud is shutting down", 24);
    msgpack_pack_nil(&pk);
    if (write(fd, sb.data, sb.size) != (ssize_t)sb.size)
        _exit(1);
    msgpack_sbuffer_destroy(&sb);
}

static pid_t fake_daemon_ex(const char *path, int answers, int refuse_rest);

static pid_t fake_daemon(const char *path, int answers)
{
    return fake_daemon_ex(path, answers, 0);
}

/* As fake_daemon; with refuse_rest, every request after the first answers
 * is refused `overloaded` (a daemon shutting down) until the client goes. */
static pid_t fake_daemon_ex(const char *path, int answers, int refuse_rest)
{
    int fd = -1;
    pid_t pid = fake_peer_fork_listener(path, &fd);
    if (pid > 0)
        return pid;
    msgpack_unpacker u;
    msgpack_unpacked m;
    msgpack_unpacker_init(&u, 1 << 16);
    msgpack_unpacked_init(&m);
    for (int done = 0; answers < 0 || done < answers || refuse_rest;) {
        msgpack_unpacker_reserve_buffer(&u, 4096);
        ssize_t n = read(fd, msgpack_unpacker_buffer(&u), 4096);
        if (n <= 0)
            _exit(0);
        msgpack_unpacker_buffer_consumed(&u, (size_t)n);
        while (answers >= 0 && (done < answers || refuse_rest) &&
               msgpack_unpacker_next(&u, &m) == MSGPACK_UNPACK_SUCCESS) {
            const msgpack_object *a = m.data.via.array.ptr;
            if (done < answers)
                fake_answer(fd, (uint32_t)a[1].via.u64);
            else
                fake_refuse(fd, (uint32_t)a[1].via.u64);
            done++;
        }
    }
    _exit(0); /* closes the connection with requests unanswered */
}

/* Lines of text holding needle. */
static int count_lines_with(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* A daemon lost mid-batch: the answers that came are printed, the rest are
 * counted once in the summary, not reported one line per puzzle. */
static void test_daemon_lost_mid_batch(void **state)
{
    static struct tool_run r;
    char fake_sock[128], batch[128];
    (void)state;
    path_in_tmp(fake_sock, sizeof(fake_sock), "fake.sock");
    path_in_tmp(batch, sizeof(batch), "small.txt");
    make_batch(batch, 50);
    pid_t pid = fake_daemon(fake_sock, 5);
    const char *argv[] = {"sudoku", "-s", fake_sock, batch, NULL};
    run_tool(&r, NULL, argv);
    waitpid(pid, NULL, 0);
    assert_int_equal(r.status, 3);
    assert_int_equal(count_lines_with(r.out, FAKE_SOLUTION), 5);
    assert_int_equal(count_lines_with(r.err, "lost the daemon"), 1);
    assert_non_null(strstr(r.err, "45 got no answer"));
    assert_int_equal(count_lines_with(r.err, "\n"), 2); /* the loss and the summary */
}

/* A daemon shutting down mid-batch refuses the rest `overloaded`: one line
 * says so, and the summary counts them. */
static void test_daemon_stopping_mid_batch(void **state)
{
    static struct tool_run r;
    char fake_sock[128], batch[128];
    (void)state;
    path_in_tmp(fake_sock, sizeof(fake_sock), "fake.sock");
    path_in_tmp(batch, sizeof(batch), "small.txt");
    make_batch(batch, 50);
    pid_t pid = fake_daemon_ex(fake_sock, 5, 1);
    const char *argv[] = {"sudoku", "-s", fake_sock, batch, NULL};
    run_tool(&r, NULL, argv);
    waitpid(pid, NULL, 0);
    assert_int_equal(r.status, 1);
    assert_int_equal(count_lines_with(r.out, FAKE_SOLUTION), 5);
    assert_int_equal(count_lines_with(r.err, "overloaded: sudokud is shutting down"), 1);
    assert_non_null(strstr(r.err, "(45 refused: overloaded)"));
    assert_int_equal(count_lines_with(r.err, "\n"), 2); /* the first refusal and the summary */
}

/* With --timeout, a daemon that accepts and never answers makes the tool
 * give up after the timeout and a margin instead of waiting forever. */
static void test_silent_daemon_times_out(void **state)
{
    static struct tool_run r;
    char fake_sock[128];
    (void)state;
    path_in_tmp(fake_sock, sizeof(fake_sock), "fake.sock");
    pid_t pid = fake_daemon(fake_sock, -1);
    const char *argv[] = {"sudoku", "-s", fake_sock, "--timeout", "100", DATA("client_lines.txt"),
                          NULL};
    run_tool(&r, NULL, argv);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    assert_int_equal(r.status, 3);
    assert_int_equal(count_lines_with(r.err, "lost the daemon"), 1);
    assert_non_null(strstr(r.err, "got no answer"));
}

/* An unknown --solver is one error before any puzzle is sent, exit 2. */
static void test_unknown_solver_once(void **state)
{
    static struct tool_run r;
    static char long_name[200];
    (void)state;
    memset(long_name, 'x', sizeof(long_name) - 1);
    const char *names[] = {"no-such-solver", long_name};
    for (size_t i = 0; i < 2; i++) {
        const char *argv[] = {"sudoku", "-s", sock, "--solver", names[i], DATA("client_lines.txt"),
                              NULL};
        run_tool(&r, NULL, argv);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_int_equal(count_lines_with(r.err, "\n"), 1);
        assert_non_null(strstr(r.err, "no solver named"));
    }
}

/* ------------------------------------------------------------------------ */
/* Tests: --local answers as the daemon does */

/* Drop what differs between two honest runs: times and rates. */
static void strip_times(char *s)
{
    static const char *const keys[] = {"\"elapsed_us\":", " in "};
    for (size_t k = 0; k < 2; k++) {
        for (char *p = s; (p = strstr(p, keys[k])) != NULL;) {
            char *q = p + strlen(keys[k]);
            if (k == 1 && !isdigit((unsigned char)*q))
                break;
            while (*q && *q != '\n' && (k == 1 || (*q != ',' && *q != '}')))
                q++;
            memmove(p + strlen(keys[k]), q, strlen(q) + 1);
            p += strlen(keys[k]);
        }
    }
}

/* The same files, through the daemon and with --local: same output, same
 * messages, same exit status (timings aside).  SUDOKU_LOCAL=1 is --local. */
static void test_local_matches_daemon(void **state)
{
    static struct tool_run d, l;
    static const char *const files[] = {DATA("client_mixed.txt"), DATA("client_judge.txt"),
                                        DATA("client_lines.txt"), DATA("invalid.txt")};
    static const char *const modes[][3] = {
        {NULL}, {"--unique", NULL}, {"--json", NULL}, {"--solver", "dlx", NULL}};
    (void)state;
    for (size_t f = 0; f < 4; f++) {
        for (size_t m = 0; m < 4; m++) {
            const char *argv_d[8] = {"sudoku", "-s", sock}, *argv_l[8] = {"sudoku", "--local"};
            size_t nd = 3, nl = 2;
            for (size_t k = 0; modes[m][k]; k++) {
                argv_d[nd++] = modes[m][k];
                argv_l[nl++] = modes[m][k];
            }
            argv_d[nd] = files[f];
            argv_l[nl] = files[f];
            print_message("case: %s %s\n", files[f], modes[m][0] ? modes[m][0] : "");
            run_tool(&d, NULL, argv_d);
            if (m == 3)
                setenv("SUDOKU_LOCAL", "1", 1); /* the variable instead of the flag */
            run_tool(&l, NULL, m == 3 ? argv_d : argv_l);
            unsetenv("SUDOKU_LOCAL");
            strip_times(d.out);
            strip_times(l.out);
            strip_times(d.err);
            strip_times(l.err);
            assert_int_equal(l.status, d.status);
            assert_string_equal(l.out, d.out);
            assert_string_equal(l.err, d.err);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Tests: counting */

/* Solutions of a 4x4 grid (0 blank) by plain enumeration: the reference the
 * tool's counts are checked against. */
static unsigned long count4(uint8_t *g, int at)
{
    unsigned long total = 0;
    if (at == 16)
        return 1;
    if (g[at])
        return count4(g, at + 1);
    for (uint8_t v = 1; v <= 4; v++) {
        int ok = 1, r = at / 4, c = at % 4, br = r / 2 * 2, bc = c / 2 * 2;
        for (int k = 0; k < 4 && ok; k++)
            ok = g[r * 4 + k] != v && g[k * 4 + c] != v && g[(br + k / 2) * 4 + bc + k % 2] != v;
        if (ok) {
            g[at] = v;
            total += count4(g, at + 1);
            g[at] = 0;
        }
    }
    return total;
}

/* sudoku count prints each puzzle's number of solutions ("N+" at the cap);
 * --limit N shows the count beside each solution. */
static void test_count(void **state)
{
    static struct tool_run r;
    static const char *const puzzles4[] = {"................", "1...............",
                                           "12..............", "1234............"};
    char path[128], want[256] = "", line[32];
    FILE *f;
    (void)state;
    path_in_tmp(path, sizeof(path), "small.txt");
    f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < 4; i++) {
        uint8_t g[16];
        unsigned n;
        fprintf(f, "%s\n", puzzles4[i]);
        assert_int_equal(codec_parse_line(puzzles4[i], 16, &n, g, NULL, 0), 0);
        snprintf(line, sizeof(line), "%lu\n", count4(g, 0));
        strcat(want, line);
    }
    fclose(f);
    const char *argv[] = {"sudoku", "-s", sock, "count", path, NULL};
    run_tool(&r, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    const char *capped[] = {"sudoku", "-s", sock, "count", "--limit", "10", path, NULL};
    run_tool(&r, NULL, capped);
    assert_string_equal(r.out, "10+\n10+\n10+\n10+\n");
    const char *shown[] = {"sudoku", "-s", sock, "--limit", "3", DATA("client_judge.txt"), NULL};
    run_tool(&r, NULL, shown);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\ncount: 1\n"));
}

/* --output prints every answer in the form asked, whatever the input's:
 * line-form puzzles as judge grids, a judge grid as one line; each answer is
 * checked by the rules against its puzzle. */
static void test_output_formats(void **state)
{
    static struct tool_run r;
    char line[1024], *p;
    FILE *f;
    (void)state;
    const char *to_grid[] = {"sudoku", "-s", sock, "--output", "grid", DATA("client_lines.txt"),
                             NULL};
    run_tool(&r, NULL, to_grid);
    assert_int_equal(r.status, 0);
    f = fopen(DATA("client_lines.txt"), "r");
    assert_non_null(f);
    p = r.out;
    for (int k = 0; next_puzzle_line(f, line, sizeof(line)); k++) {
        uint8_t cells[SDK_MAX_CELLS];
        unsigned n = 0;
        char sol[SDK_MAX_CELLS + 1], grid[SDK_MAX_CELLS * 3 + 1];
        size_t len = 0;
        if (k > 0) { /* a blank line between grids */
            assert_int_equal(*p, '\n');
            p++;
        }
        assert_int_equal(codec_parse_line(line, strlen(line), &n, cells, NULL, 0), 0);
        for (unsigned row = 0; row < n; row++) { /* this answer's n lines */
            char *nl = strchr(p, '\n');
            assert_non_null(nl);
            memcpy(grid + len, p, (size_t)(nl - p) + 1);
            len += (size_t)(nl - p) + 1;
            p = nl + 1;
        }
        grid[len] = '\0';
        check_judge_shape(grid, n);
        assert_int_equal(codec_parse_judge(grid, len, &n, cells, NULL, 0), 0);
        assert_true(codec_format_line(n, cells, CODEC_BLANK_DOT, sol, sizeof(sol)) > 0);
        check_line_solution(line, sol);
    }
    fclose(f);
    assert_int_equal(*p, '\0');

    const char *to_line[] = {"sudoku", "-s", sock, "--output", "line", DATA("client_judge.txt"),
                             NULL};
    run_tool(&r, NULL, to_line);
    assert_int_equal(r.status, 0);
    char puzzle[SDK_MAX_CELLS + 1];
    uint8_t given[SDK_MAX_CELLS];
    unsigned n = 0;
    tool_run_slurp(DATA("client_judge.txt"), line, sizeof(line));
    assert_int_equal(codec_parse_judge(line, strlen(line), &n, given, NULL, 0), 0);
    assert_true(codec_format_line(n, given, CODEC_BLANK_DOT, puzzle, sizeof(puzzle)) > 0);
    r.out[strcspn(r.out, "\n")] = '\0';
    check_line_solution(puzzle, r.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge_example),
        cmocka_unit_test(test_line_file_keeps_order),
        cmocka_unit_test(test_mixed_good_and_bad),
        cmocka_unit_test(test_nul_byte_line),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_json_names_files),
        cmocka_unit_test(test_noise_errors_bounded),
        cmocka_unit_test(test_counts_said_right),
        cmocka_unit_test(test_unique_not_unique),
        cmocka_unit_test(test_solvers_stats_every_key),
        cmocka_unit_test(test_qqwing_forms),
        cmocka_unit_test(test_readable_into_quiet),
        cmocka_unit_test(test_library_calls),
        cmocka_unit_test(test_big_batch_bounded_memory),
        cmocka_unit_test(test_daemon_lost_mid_batch),
        cmocka_unit_test(test_daemon_stopping_mid_batch),
        cmocka_unit_test(test_silent_daemon_times_out),
        cmocka_unit_test(test_unknown_solver_once),
        cmocka_unit_test(test_local_matches_daemon),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_output_formats),
    };
    return cmocka_run_group_tests(tests, start_daemon, stop_daemon);
}
