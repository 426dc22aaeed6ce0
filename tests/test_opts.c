/* test_opts.c -- the programs' table-driven command line (util/opts.c).
 *
 * One table of every kind of row drives a table of command lines: each must
 * leave the fields it names set (and only those), stop at the right operand,
 * or fail with exactly one usage error on stderr that names the option as
 * typed.  All cases run in one process, so getopt_long's state must be reset
 * by every opts_parse() call.  The help text is compared whole: columns,
 * continuation lines, a name too long for its column, a section heading.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/opts.h"

/* Every kind of field a row can set. */
struct cfg {
    int flag;        /* -f, --flag */
    const char *str; /* -s, --string */
    unsigned small;  /* -n, --small, 1..1024 */
    uint64_t big;    /* --big, 0..UINT64_MAX */
    size_t size;     /* --size, 64..1 MiB */
    unsigned mode;   /* --mode, octal */
    int calls;       /* -c, --call accepted "ok" */
    int bare;        /* --maybe without a value */
    const char *opt; /* --maybe=V */
};

static int on_call(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct cfg *c = cfg;
    if (strcmp(arg, "ok") != 0) {
        snprintf(err, err_size, "want ok");
        return -EINVAL;
    }
    c->calls++;
    return 0;
}

/* --maybe: the flag; --maybe=V: the value. */
static int on_maybe(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct cfg *c = cfg;
    (void)err;
    (void)err_size;
    if (arg)
        c->opt = arg;
    else
        c->bare = 1;
    return 0;
}

static const struct opts_spec table[] = {
    {"flag", 'f', NULL, "a flag", OPTS_FLAG_AT(struct cfg, flag)},
    {"string", 's', "S", "a string\non two lines", OPTS_STRING_AT(struct cfg, str)},
    {"small", 'n', "N", "a small number", OPTS_NUMBER_AT(struct cfg, small, 1, 1024)},
    OPTS_ALIAS_ROW("small-number"),
    OPTS_SECTION_ROW("Wide ones:"),
    {"big", 0, "N", "any number", OPTS_NUMBER_AT(struct cfg, big, 0, UINT64_MAX)},
    {"size", 0, "BYTES", "a size", OPTS_NUMBER_AT(struct cfg, size, 64, 1 << 20)},
    {"mode", 0, "MODE", "a file mode", OPTS_OCTAL_AT(struct cfg, mode, 0, 0777)},
    {"call", 'c', "X", "handled by on_call", OPTS_CALL_TO(on_call)},
    {"a-name-too-long-for-it", 0, "ARG", "help below", OPTS_STRING_AT(struct cfg, str)},
    {"maybe", 0, "V", "a value or none", OPTS_CALL_TO(on_maybe), .is_arg_optional = 1},
    {"help", 'h', NULL, "show this help", .kind = OPTS_HELP},
    {"version", 'V', NULL, "show the version", .kind = OPTS_VERSION},
};

static const struct opts_prog prog = {
    .name = "tprog",
    .usage = "usage: tprog [options]\n\n",
    .footer = "\nThe end.\n",
    .specs = table,
    .specs_len = sizeof(table) / sizeof(table[0]),
    .help_column = 22,
};

#define ERR_NONE NULL /* no usage error expected */

/* A command line (after argv[0]) and what it must give. */
static const struct parse_case {
    const char *comment;
    const char *args[8];
    int want_rc;          /* OPTS_RUN, OPTS_SHOW_* or -EINVAL */
    const char *want_err; /* whole first line on stderr, or ERR_NONE */
    struct cfg want;      /* fields afterwards (from a zeroed cfg) */
    const char *operand;  /* argv[*operands], or NULL for none */
} cases[] = {
    {"nothing", {NULL}, OPTS_RUN, ERR_NONE, {0}, NULL},
    {"every kind, long names",
     {"--flag", "--string", "x", "--small", "1024", "--big", "18446744073709551615", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.flag = 1, .str = "x", .small = 1024, .big = UINT64_MAX},
     NULL},
    {"size, mode and a handler",
     {"--size", "65536", "--mode", "0640", "-c", "ok", "--call=ok", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.size = 65536, .mode = 0640, .calls = 2},
     NULL},
    {"short letters clustered, value attached",
     {"-fn7", "-sval", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.flag = 1, .small = 7, .str = "val"},
     NULL},
    {"--name=value",
     {"--small=9", "--string=", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.small = 9, .str = ""},
     NULL},
    {"a unique prefix is the option (an alias is no second one)",
     {"--sm", "3", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.small = 3},
     NULL},
    {"an alias sets its row's field",
     {"--small-number", "4", "x", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.small = 4},
     "x"},
    {"an alias checks its row's range",
     {"--small-number=0", NULL},
     -EINVAL,
     "tprog: invalid value for --small: '0' (want 1..1024)",
     {0},
     NULL},
    {"operands move behind the options",
     {"a", "-f", "b", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.flag = 1},
     "a"},
    {"-- ends the options", {"--", "-f", NULL}, OPTS_RUN, ERR_NONE, {0}, "-f"},
    {"- is an operand", {"-", "-n", "2", NULL}, OPTS_RUN, ERR_NONE, {.small = 2}, "-"},
    {"the last of a repeated option wins",
     {"-n", "1", "-n", "2", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.small = 2},
     NULL},
    {"an optional argument left out", {"--maybe", NULL}, OPTS_RUN, ERR_NONE, {.bare = 1}, NULL},
    {"an optional argument given with '='",
     {"--maybe=v", "--maybe=", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.opt = ""},
     NULL},
    {"an optional argument never takes the next word",
     {"--may", "v", NULL},
     OPTS_RUN,
     ERR_NONE,
     {.bare = 1},
     "v"},

    {"--help", {"--help", NULL}, OPTS_SHOW_HELP, ERR_NONE, {0}, NULL},
    {"-V", {"-V", NULL}, OPTS_SHOW_VERSION, ERR_NONE, {0}, NULL},
    {"the first of help and version wins",
     {"-V", "x", "-h", NULL},
     OPTS_SHOW_VERSION,
     ERR_NONE,
     {0},
     "x"},
    {"a bad option after --help is still an error",
     {"--help", "--frob", NULL},
     -EINVAL,
     "tprog: unknown option '--frob'",
     {0},
     NULL},

    {"below the range, short",
     {"-n", "0", NULL},
     -EINVAL,
     "tprog: invalid value for -n: '0' (want 1..1024)",
     {0},
     NULL},
    {"above the range, long",
     {"--small", "1025", NULL},
     -EINVAL,
     "tprog: invalid value for --small: '1025' (want 1..1024)",
     {0},
     NULL},
    {"attached to a cluster",
     {"-fn0", NULL},
     -EINVAL,
     "tprog: invalid value for -n: '0' (want 1..1024)",
     {.flag = 1},
     NULL},
    {"--name=bad",
     {"--small=x", NULL},
     -EINVAL,
     "tprog: invalid value for --small: 'x' (want 1..1024)",
     {0},
     NULL},
    {"negative",
     {"--small", "-3", NULL},
     -EINVAL,
     "tprog: invalid value for --small: '-3' (want 1..1024)",
     {0},
     NULL},
    {"a sign",
     {"--small", "+5", NULL},
     -EINVAL,
     "tprog: invalid value for --small: '+5' (want 1..1024)",
     {0},
     NULL},
    {"leading space",
     {"--small", " 5", NULL},
     -EINVAL,
     "tprog: invalid value for --small: ' 5' (want 1..1024)",
     {0},
     NULL},
    {"trailing junk",
     {"--small", "5x", NULL},
     -EINVAL,
     "tprog: invalid value for --small: '5x' (want 1..1024)",
     {0},
     NULL},
    {"empty",
     {"--small", "", NULL},
     -EINVAL,
     "tprog: invalid value for --small: '' (want 1..1024)",
     {0},
     NULL},
    {"hex is not a number here",
     {"--size", "0x100", NULL},
     -EINVAL,
     "tprog: invalid value for --size: '0x100' (want 64..1048576)",
     {0},
     NULL},
    {"one past UINT64_MAX",
     {"--big", "18446744073709551616", NULL},
     -EINVAL,
     "tprog: invalid value for --big: '18446744073709551616' (want a number >= 0)",
     {0},
     NULL},
    {"8 is no octal digit",
     {"--mode", "0680", NULL},
     -EINVAL,
     "tprog: invalid value for --mode: '0680' (want an octal mode 0..0777)",
     {0},
     NULL},
    {"octal above the range",
     {"--mode", "1777", NULL},
     -EINVAL,
     "tprog: invalid value for --mode: '1777' (want an octal mode 0..0777)",
     {0},
     NULL},
    {"a handler refuses",
     {"--call", "bad", NULL},
     -EINVAL,
     "tprog: invalid value for --call: 'bad' (want ok)",
     {0},
     NULL},
    {"a value that looks like an option",
     {"-c", "--flag", NULL},
     -EINVAL,
     "tprog: invalid value for -c: '--flag' (want ok)",
     {0},
     NULL},

    {"missing argument, long",
     {"-f", "--small", NULL},
     -EINVAL,
     "tprog: option '--small' needs an argument",
     {.flag = 1},
     NULL},
    {"missing argument, short",
     {"-n", NULL},
     -EINVAL,
     "tprog: option '-n' needs an argument",
     {0},
     NULL},
    {"missing argument, end of a cluster",
     {"-fn", NULL},
     -EINVAL,
     "tprog: option '-n' needs an argument",
     {.flag = 1},
     NULL},
    {"unknown long option",
     {"--frob", "x", NULL},
     -EINVAL,
     "tprog: unknown option '--frob'",
     {0},
     NULL},
    {"unknown short option", {"-x", NULL}, -EINVAL, "tprog: unknown option '-x'", {0}, NULL},
    {"unknown letter in a cluster",
     {"--flag", "-fx", NULL},
     -EINVAL,
     "tprog: unknown option '-x'",
     {.flag = 1},
     NULL},
    {"ambiguous prefix", {"--s", "1", NULL}, -EINVAL, "tprog: ambiguous option '--s'", {0}, NULL},
    {"argument to a flag",
     {"--flag=1", NULL},
     -EINVAL,
     "tprog: option '--flag' takes no argument",
     {0},
     NULL},
};

/* Run opts_parse() on case c, argv built in argv (room for 10) and stderr
 * captured into err (a C string).  Returns what opts_parse() returned. */
static int parse_captured(const struct parse_case *c, struct cfg *cfg, int *argc, char **argv,
                          int *operands, char *err, size_t err_size)
{
    char path[] = "/tmp/test_opts-XXXXXX";
    int fd = mkstemp(path), saved, rc;
    ssize_t n;

    assert_true(fd >= 0);
    unlink(path);
    *argc = 0;
    argv[(*argc)++] = "tprog";
    for (int i = 0; c->args[i]; i++)
        argv[(*argc)++] = (char *)c->args[i];
    argv[*argc] = NULL;
    fflush(stderr);
    saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
    rc = opts_parse(&prog, *argc, argv, cfg, operands);
    fflush(stderr);
    assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
    close(saved);
    n = pread(fd, err, err_size - 1, 0);
    close(fd);
    err[n > 0 ? n : 0] = '\0';
    return rc;
}

static void check_fields(const struct cfg *got, const struct cfg *want)
{
    assert_int_equal(got->flag, want->flag);
    if (want->str)
        assert_string_equal(got->str, want->str);
    else
        assert_null(got->str);
    assert_int_equal(got->small, want->small);
    assert_true(got->big == want->big);
    assert_int_equal(got->size, want->size);
    assert_int_equal(got->mode, want->mode);
    assert_int_equal(got->calls, want->calls);
    assert_int_equal(got->bare, want->bare);
    if (want->opt)
        assert_string_equal(got->opt, want->opt);
    else
        assert_null(got->opt);
}

/* A usage error is its message and the pointer to --help, nothing else. */
static void check_error(const char *err, const char *want)
{
    char whole[512];

    if (!want) {
        assert_string_equal(err, "");
        return;
    }
    snprintf(whole, sizeof(whole), "%s\nTry 'tprog --help'.\n", want);
    assert_string_equal(err, whole);
}

static void test_parse_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct parse_case *c = &cases[i];
        struct cfg cfg = {0};
        char *argv[10], err[512];
        int argc, operands = -1, rc;

        print_message("case: %s\n", c->comment);
        rc = parse_captured(c, &cfg, &argc, argv, &operands, err, sizeof(err));
        assert_int_equal(rc, c->want_rc);
        check_error(err, c->want_err);
        check_fields(&cfg, &c->want);
        if (rc < 0)
            continue;
        if (c->operand) {
            assert_in_range(operands, 1, argc - 1);
            assert_string_equal(argv[operands], c->operand);
        } else {
            assert_int_equal(operands, argc);
        }
    }
}

/* opts_first_operand() finds, before any parsing, the operand opts_parse()
 * would stop at: for every good command line of cases[], and for the words a
 * command word hides behind (values, clusters, prefixes, "--", "-"). */
static void test_first_operand(void **state)
{
    static const struct {
        const char *comment;
        const char *args[6];
        int want; /* index into argv (args start at 1), or -1: none */
    } more[] = {
        {"a value is not the operand", {"-s", "cmd", "x"}, 3},
        {"the long form too", {"--string", "cmd", "x"}, 3},
        {"a unique prefix takes its row's argument", {"--str", "cmd", "x"}, 3},
        {"an ambiguous prefix takes none", {"--s", "cmd", "x"}, 2},
        {"--name=value holds its value", {"--string=v", "cmd"}, 2},
        {"a flag takes none", {"-f", "cmd"}, 2},
        {"a cluster ending in a letter with an argument", {"-fs", "v", "cmd"}, 3},
        {"a cluster holding the argument", {"-fsv", "cmd"}, 2},
        {"an unknown option takes none", {"-x", "cmd"}, 2},
        {"-- makes the next word an operand", {"-f", "--", "-s"}, 3},
        {"- alone is an operand", {"-f", "-", "cmd"}, 2},
        {"no operand", {"-f", "-s", "v"}, -1},
        {"an optional argument is never the next word", {"--maybe", "cmd"}, 2},
        {"nor after a prefix", {"--ma", "cmd"}, 2},
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct parse_case *c = &cases[i];
        char *argv[10] = {"tprog"}, *copy[10];
        struct cfg cfg = {0};
        int argc = 1, operands = -1, first;

        if (c->want_rc < 0)
            continue;
        while (c->args[argc - 1])
            argv[argc] = (char *)c->args[argc - 1], argc++;
        memcpy(copy, argv, sizeof(argv));
        first = opts_first_operand(&prog, argc, argv);
        print_message("case: %s\n", c->comment);
        assert_int_equal(opts_parse(&prog, argc, copy, &cfg, &operands), c->want_rc);
        if (operands == argc)
            assert_int_equal(first, argc);
        else
            assert_string_equal(argv[first], copy[operands]);
    }
    for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
        char *argv[8] = {"tprog"};
        int argc = 1;

        while (more[i].args[argc - 1])
            argv[argc] = (char *)more[i].args[argc - 1], argc++;
        print_message("case: %s\n", more[i].comment);
        assert_int_equal(opts_first_operand(&prog, argc, argv),
                         more[i].want < 0 ? argc : more[i].want);
    }
}

static void test_help_text(void **state)
{
    static const char want[] = "usage: tprog [options]\n"
                               "\n"
                               "  -f, --flag          a flag\n"
                               "  -s, --string S      a string\n"
                               "                      on two lines\n"
                               "  -n, --small N       a small number\n"
                               "\n"
                               "Wide ones:\n"
                               "      --big N         any number\n"
                               "      --size BYTES    a size\n"
                               "      --mode MODE     a file mode\n"
                               "  -c, --call X        handled by on_call\n"
                               "      --a-name-too-long-for-it ARG\n"
                               "                      help below\n"
                               "      --maybe[=V]     a value or none\n"
                               "  -h, --help          show this help\n"
                               "  -V, --version       show the version\n"
                               "\n"
                               "The end.\n";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    (void)state;

    assert_non_null(f);
    opts_help(&prog, f);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(buf, want);
    free(buf);
}

/* A configuration file and what opts_config_apply() must make of it. */
static const struct config_case {
    const char *comment;
    const char *text;     /* the file */
    int want_rc;          /* 0 or -EINVAL */
    const char *want_err; /* err after "PATH:", or NULL */
    struct cfg want;      /* fields afterwards (from a zeroed cfg) */
} config_cases[] = {
    {"every kind of row, comments and blanks",
     "# c\n\nflag = yes\nstring = s x\nsmall=7\nsize = 128\nmode = 0640\ncall = ok\n",
     0,
     NULL,
     {.flag = 1, .str = "s x", .small = 7, .size = 128, .mode = 0640, .calls = 1}},
    {"a flag set to no sets nothing", "flag = no\n", 0, NULL, {0}},
    {"an optional argument left out, then given",
     "maybe\nmaybe = v w\n",
     0,
     NULL,
     {.bare = 1, .opt = "v w"}},
    {"a bad number names its line and the range",
     "small = 3\n\nsmall = many\n",
     -EINVAL,
     "3: invalid value for 'small': 'many' (want 1..1024)",
     {.small = 3}},
    {"a bad octal mode",
     "mode = 0999\n",
     -EINVAL,
     "1: invalid value for 'mode': '0999' (want an octal mode 0..0777)",
     {0}},
    {"a handler's refusal",
     "# one\ncall = no\n",
     -EINVAL,
     "2: invalid value for 'call': 'no' (want ok)",
     {0}},
    {"an unknown key", "nope = 1\n", -EINVAL, "1: unknown option 'nope'", {0}},
    {"a flag that is not yes or no",
     "flag = maybe\n",
     -EINVAL,
     "1: option 'flag' is yes or no, not 'maybe'",
     {0}},
};

/* opts_config_apply(): values checked as on the command line, errors as
 * PATH:LINE: what. */
static void test_config_apply(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(config_cases) / sizeof(config_cases[0]); i++) {
        const struct config_case *c = &config_cases[i];
        char path[] = "/tmp/test_opts-XXXXXX", err[512] = "", want[600];
        struct cfg cfg = {0};
        char **args = NULL;
        int len = -1, rc, fd = mkstemp(path);

        print_message("case: %s\n", c->comment);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, c->text, strlen(c->text)), (ssize_t)strlen(c->text));
        close(fd);
        rc = opts_config_apply(&prog, path, &cfg, &args, &len, err, sizeof(err));
        unlink(path);
        assert_int_equal(rc, c->want_rc);
        check_fields(&cfg, &c->want);
        if (c->want_err) {
            snprintf(want, sizeof(want), "%s:%s", path, c->want_err);
            assert_string_equal(err, want);
            assert_null(args);
            assert_int_equal(len, 0);
        }
        opts_config_free(args, len);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_cases),
        cmocka_unit_test(test_help_text),
        cmocka_unit_test(test_first_operand),
        cmocka_unit_test(test_config_apply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
