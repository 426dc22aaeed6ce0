/* options.c -- the options most sudoku subcommands share, and their one parse.
 *
 * Solving, count, hint, explain, rate, solvers, stats and ping all read the
 * same table (tool_prog) into struct tool_opts; tool_main() parses it once,
 * makes the checks a row asks for (may it run with --local, how many FILEs
 * it takes), and hands the operands after the row's word to the row.  A
 * subcommand with options of its own (generate) has its own table and
 * parses it itself.  The order of the checks is the tool's contract: a
 * usage error is found before anything is read or connected.  The picture
 * options (picture.h) are here too, for the rows that draw.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/command.h"
#include "tool/tool.h"
#include "util/opts.h"

#ifndef SUDOKU_VERSION
#define SUDOKU_VERSION "0.0.0"
#endif

/* --candidates: a picture's pencil marks; --candidates=STRING|@FILE: the
 * player's pencil marks, the name for --marks (the two spellings
 * are one option: the later wins). */
static int on_candidates(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct tool_opts *o = cfg;

    (void)err;
    (void)err_size;
    if (!arg) {
        o->picture.is_candidates = 1;
        return 0;
    }
    o->marks = arg;
    o->marks_name = "--candidates=STRING";
    return 0;
}

/* --marks STRING|@FILE: the player's pencil marks. */
static int on_marks(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct tool_opts *o = cfg;

    (void)err;
    (void)err_size;
    o->marks = arg;
    o->marks_name = "--marks";
    return 0;
}

/* --output F: how answers are printed, whatever the input. */
static int on_output(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct tool_opts *o = cfg;
    if (strcmp(arg, "grid") == 0 || strcmp(arg, "judge") == 0)
        o->output = TOOL_OUT_GRID;
    else if (strcmp(arg, "line") == 0)
        o->output = TOOL_OUT_LINE;
    else if (strcmp(arg, "readable") == 0)
        o->output = TOOL_OUT_READABLE;
    else if (strcmp(arg, "json") == 0)
        o->is_json = 1;
    else {
        snprintf(err, err_size, "want line, grid, judge, readable or json");
        return -EINVAL;
    }
    return 0;
}

/* --format F: the input's form, and the answers' too (json: answers only). */
static int on_format(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct tool_opts *o = cfg;
    if (strcmp(arg, "grid") == 0 || strcmp(arg, "judge") == 0)
        o->format = INPUT_GRID;
    else if (strcmp(arg, "line") == 0)
        o->format = INPUT_LINE;
    else if (strcmp(arg, "auto") == 0)
        o->format = INPUT_AUTO;
    else if (picture_set_format(&o->picture, arg) == 0)
        return 0; /* a picture of the answers: the input's form is still detected */
    else if (strcmp(arg, "json") != 0) {
        snprintf(err, err_size, "want grid, judge, line, json or auto");
        return -EINVAL;
    }
    return strcmp(arg, "auto") == 0 ? 0 : on_output(cfg, arg, err, err_size);
}

/* The command line, in --help order; sudoku(1) describes each. */
static const struct opts_spec option_table[] = {
    {"socket", 's', "PATH",
     "daemon socket (default: $SUDOKUD_SOCKET, else\n"
     "$XDG_RUNTIME_DIR/sudokud.sock and then\n"
     "/run/sudokud/sudokud.sock; root: the latter)",
     OPTS_STRING_AT(struct tool_opts, socket)},
    {"format", 0, "F",
     "input format: grid (n lines of n numbers, 0 blank),\n"
     "line (one puzzle per line) or auto (default);\n"
     "judge is grid; the answers follow (json: answers only);\n"
     "render, hint, explain: svg, png or pdf draw a picture",
     OPTS_CALL_TO(on_format)},
    {"output", 0, "F",
     "print answers as line, grid (judge), readable (boxed,\n"
     "as qqwing's) or json, whatever the input's form\n"
     "(default: as the input)",
     OPTS_CALL_TO(on_output)},
    {"into", 'o', "FILE",
     "write the answers to FILE, not standard output (a\n"
     "picture: its file; several pages of svg or png:\n"
     "FILE-1, FILE-2, ...)",
     OPTS_STRING_AT(struct tool_opts, out_path)},
    {"rules", 0, "LIST",
     "variant rules of every puzzle, comma-separated: x,\n"
     "windoku, anti-knight, anti-king, non-consecutive,\n"
     "jigsaw (with --regions); killer cages come in JSON\n"
     "lines: {\"puzzle\": ..., \"rules\": {\"cages\": ...}}",
     OPTS_STRING_AT(struct tool_opts, rules_arg)},
    {"regions", 0, "LAYOUT", "jigsaw: n*n region symbols 1-9, A-P (or @FILE)",
     OPTS_STRING_AT(struct tool_opts, regions_arg)},
    {"solver", 0, "NAME", "solver to use (see: sudoku solvers)",
     OPTS_STRING_AT(struct tool_opts, solve.solver)},
    {"limit", 0, "N", "stop after N solutions (default 1)",
     OPTS_NUMBER_AT(struct tool_opts, solve.limit, 1, 1000000)},
    {"unique", 0, NULL, "limit 2, and say whether each puzzle is unique",
     OPTS_FLAG_AT(struct tool_opts, is_unique)},
    {"timeout", 0, "MS", "per-puzzle timeout in milliseconds\n(also --timeout-ms, as sudokud has)",
     OPTS_NUMBER_AT(struct tool_opts, solve.timeout_ms, 1, 86400000)},
    OPTS_ALIAS_ROW("timeout-ms"),
    {"json", 0, NULL, "one JSON object per puzzle on stdout",
     OPTS_FLAG_AT(struct tool_opts, is_json)},
    {"window", 'w', "N", "requests in flight (default 64; 1 on a terminal)",
     OPTS_NUMBER_AT(struct tool_opts, window, 1, SUDOKU_CLIENT_MAX_WINDOW)},
    {"local", 0, NULL, "no daemon: load the plugins in this process\n(also SUDOKU_LOCAL=1)",
     OPTS_FLAG_AT(struct tool_opts, is_local)},
    {"plugin-dir", 'P', "DIR", "with --local: load plugins from DIR\n(default: the installed ones)",
     OPTS_STRING_AT(struct tool_opts, plugin_dir)},
    {"progress", 0, "FILE", "hint, explain: the player's grid for each puzzle",
     OPTS_STRING_AT(struct tool_opts, progress)},
    {"steps", 0, "N", "hint, explain: at most N steps (hint: 1)",
     OPTS_NUMBER_AT(struct tool_opts, steps, 1, 1000000)},
    {"level", 0, "N",
     "hint, explain: how much of each step, 1 the technique,\n"
     "2 and its house, 3 and its cells, 4 all (default)",
     OPTS_NUMBER_AT(struct tool_opts, level, 1, 4)},
    {"marks", 0, "STRING|@FILE",
     "hint, explain: the player's pencil marks, n*n*n\n"
     "characters (each cell's n digits, '.' or '0' for a\n"
     "removed one); @FILE: a line of them a puzzle",
     OPTS_CALL_TO(on_marks)},
    {"solution", 0, NULL, "render: draw the solved grid (the daemon's or --local)",
     OPTS_FLAG_AT(struct tool_opts, is_solution)},
    {"candidates", 0, "STRING|@FILE",
     "render, hint, explain: pencil marks in empty cells;\n"
     "hint, explain --candidates=STRING|@FILE: the\n"
     "player's pencil marks, as --marks",
     OPTS_CALL_TO(on_candidates), .is_arg_optional = 1},
    {"per-page", 0, "N", "render, hint, explain: grids a page (default 1)",
     OPTS_NUMBER_AT(struct tool_opts, picture.per_page, 1, RENDER_MAX_PER_PAGE)},
    {"size", 0, "PX", "render, hint, explain: a grid's side in pixels\n(points in a PDF)",
     OPTS_NUMBER_AT(struct tool_opts, picture.size_px, RENDER_MIN_PX, RENDER_MAX_PX)},
    {"verbose", 'v', NULL, "print a summary line at the end",
     OPTS_FLAG_AT(struct tool_opts, is_verbose)},
    {"quiet", 'q', NULL,
     "no notices, per-puzzle error lines or summary on\n"
     "stderr (the exit status still tells)",
     OPTS_FLAG_AT(struct tool_opts, is_quiet)},
    {"help", 'h', NULL, "this help", .kind = OPTS_HELP},
    {"version", 'V', NULL, "print the version", .kind = OPTS_VERSION},
};

/* The help: the usage lines come from tool_commands[] (tool_command_help),
 * then what it does, the options, and the exit codes. */
static const char about[] = "\nSolve the puzzles in FILEs (or stdin) through the sudokud daemon "
                            "and print\nthe solutions in input order.\n\n";
static const char exit_codes[] = "\nExit status: 0 all solved, 1 some unsolvable or failed, 2 "
                                 "usage error,\n3 cannot reach the daemon.\n";

const struct opts_prog tool_prog = {
    .name = "sudoku",
    .usage = about,
    .footer = exit_codes,
    .specs = option_table,
    .specs_len = sizeof(option_table) / sizeof(option_table[0]),
    .help_column = 22,
};

/* --unique is --limit 2; any other limit with it is a usage error. */
static int check_unique(void *cfg)
{
    struct tool_opts *o = cfg;
    if (o->is_unique) {
        if (o->solve.limit && o->solve.limit != 2)
            return opts_usage_error(&tool_prog, "--unique means --limit 2");
        o->solve.limit = 2;
    }
    return 0;
}

int tool_parse(const struct tool_command *c, int argc, char **argv, void *cfg,
               int (*check)(void *cfg), int *operands)
{
    int action = opts_parse(c->prog, argc, argv, cfg, operands);

    if (action < 0 || (check && check(cfg) < 0))
        return EXIT_USAGE;
    if (action == OPTS_SHOW_HELP) {
        tool_command_help(c);
        return 0;
    }
    if (action == OPTS_SHOW_VERSION) {
        printf("sudoku %s (protocol v1)\n", SUDOKU_VERSION);
        return 0;
    }
    if (c->name && *operands < argc)
        (*operands)++; /* the word: getopt_long left it the first operand */
    return -1;
}

/* What row c allows of o and of nfiles operands.  Returns 0 or EXIT_USAGE
 * (said on stderr). */
static int check_row(const struct tool_command *c, const struct tool_opts *o, int nfiles)
{
    if (c->name && o->is_local && !(c->flags & TOOL_CMD_LOCAL)) {
        opts_usage_error(&tool_prog, "%s asks the daemon: not with --local", c->name);
        return EXIT_USAGE;
    }
    if (c->max_files == TOOL_CMD_ANY || nfiles <= c->max_files)
        return 0;
    if (c->max_files == 1)
        opts_usage_error(&tool_prog, "%s takes one FILE (puzzles one after another in it)",
                         c->name);
    else
        opts_usage_error(&tool_prog, "too many arguments for %s", c->name);
    return EXIT_USAGE;
}

/* The picture options belong to the rows that draw (TOOL_CMD_DRAW), and
 * --solution to those that draw puzzles (TOOL_CMD_PICTURE: render, svg
 * unless --format says otherwise); with a picture, -o names its file.
 * Returns 0 or EXIT_USAGE (said on stderr). */
static int check_picture(const struct tool_command *c, struct tool_opts *o)
{
    struct picture_opts *p = &o->picture;
    char err[256];

    if (c->flags & TOOL_CMD_PICTURE)
        p->is_on = 1;
    p->out = p->is_on ? o->out_path : NULL; /* -o: the picture's file, the text on stdout */
    if (!(c->flags & TOOL_CMD_DRAW) &&
        (p->is_on || p->is_candidates || p->per_page || p->size_px)) {
        opts_usage_error(&tool_prog, "pictures (--format svg|png|pdf, --candidates, --per-page, "
                                     "--size) are for render, hint and explain");
        return EXIT_USAGE;
    }
    if (o->is_solution && !(c->flags & TOOL_CMD_PICTURE)) {
        opts_usage_error(&tool_prog, "--solution is for render");
        return EXIT_USAGE;
    }
    if (p->is_on && picture_check(p, err, sizeof(err)) < 0) {
        opts_usage_error(&tool_prog, "%s", err);
        return EXIT_USAGE;
    }
    return 0;
}

/* 1 when word reads as pencil marks rather than a FILE: "@FILE", or n*n*n
 * marks for a size the tool reads (4, 9, 16, 25). */
static int is_marks_word(const char *word)
{
    size_t len = strlen(word);

    if (word[0] == '@')
        return 1;
    if (len != 64 && len != 729 && len != 4096 && len != 15625)
        return 0;
    return strspn(word, ".0123456789ABCDEFGHIJKLMNOPabcdefghijklmnop") == len;
}

/* "sudoku hint --candidates STRING" (a space, not '='): getopt gave the
 * flag and left STRING an operand.  A hint or explain that draws no picture
 * has no use for the flag, so an operand shaped like pencil marks is its
 * argument, as the user meant.  Takes it out of argv[*first..argc). */
static void take_spaced_marks(const struct tool_command *c, struct tool_opts *o, int argc,
                              char **argv, int *first)
{
    if (!(c->flags & TOOL_CMD_MARKS) || !o->picture.is_candidates || o->picture.is_on || o->marks)
        return;
    for (int i = *first; i < argc; i++) {
        if (!is_marks_word(argv[i]))
            continue;
        o->marks = argv[i];
        o->marks_name = "--candidates=STRING";
        o->picture.is_candidates = 0;
        memmove(argv + *first + 1, argv + *first, (size_t)(i - *first) * sizeof(*argv));
        (*first)++;
        return;
    }
}

/* The player's pencil marks (--marks, --candidates=) are for the rows that
 * explain from them (TOOL_CMD_MARKS).  Returns 0 or EXIT_USAGE (said on
 * stderr). */
static int check_marks(const struct tool_command *c, const struct tool_opts *o)
{
    if (!o->marks || (c->flags & TOOL_CMD_MARKS))
        return 0;
    opts_usage_error(&tool_prog, "%s is for hint and explain (the player's pencil marks)",
                     o->marks_name);
    return EXIT_USAGE;
}

int tool_rules_setup(struct tool_opts *o)
{
    static struct tool_rules cli; /* o->rules points here */
    char err[256];
    unsigned flags = 0;

    memset(&cli.r, 0, sizeof(cli.r));
    if (o->rules_arg && tool_rules_names(o->rules_arg, &flags, err, sizeof(err)) < 0) {
        opts_usage_error(&tool_prog, "--rules: %s", err);
        return EXIT_USAGE;
    }
    if (flags & SUDOKU_CLIENT_RULE_DRAW_CAGES) {
        opts_usage_error(&tool_prog,
                         "--rules killer: the cages come with each puzzle, in JSON lines "
                         "({\"puzzle\": ..., \"rules\": {\"cages\": [[sum, [cell, "
                         "...]], ...]}})");
        return EXIT_USAGE;
    }
    if ((flags & SUDOKU_CLIENT_RULE_DRAW_REGIONS) && !o->regions_arg) {
        opts_usage_error(&tool_prog, "--rules jigsaw needs --regions LAYOUT (or @FILE)");
        return EXIT_USAGE;
    }
    cli.r.flags = flags & ~(SUDOKU_CLIENT_RULE_DRAW_REGIONS | SUDOKU_CLIENT_RULE_DRAW_CAGES);
    if (o->regions_arg && (tool_rules_regions(&cli, o->regions_arg, err, sizeof(err)) < 0 ||
                           tool_rules_check_layout(&cli.r, err, sizeof(err)) < 0)) {
        opts_usage_error(&tool_prog, "--regions: %s", err);
        return EXIT_USAGE;
    }
    o->rules = tool_rules_any(&cli.r) ? &cli.r : NULL;
    return 0;
}

int tool_main(const struct tool_command *c, int argc, char **argv)
{
    static char *stdin_only[] = {"-"};
    struct tool_opts o = {.format = INPUT_AUTO};
    const char *env_local = getenv("SUDOKU_LOCAL");
    int first = argc;
    int rc = tool_parse(c, argc, argv, &o, check_unique, &first);

    if (rc >= 0)
        return rc;
    if (env_local && strcmp(env_local, "1") == 0)
        o.is_local = 1;
    if (check_row(c, &o, argc - first) || check_picture(c, &o))
        return EXIT_USAGE;
    take_spaced_marks(c, &o, argc, argv, &first); /* hint and explain take any FILEs */
    if (check_marks(c, &o) || tool_rules_setup(&o))
        return EXIT_USAGE;
    o.can_local = (c->flags & TOOL_CMD_LOCAL) != 0;
    if (o.out_path && !o.picture.is_on && !freopen(o.out_path, "w", stdout)) {
        fprintf(stderr, "sudoku: cannot write %s: %s\n", o.out_path, strerror(errno));
        return EXIT_SOME_FAILED;
    }
    o.files = argv + first;
    o.files_len = argc - first;
    if (o.files_len == 0 && c->max_files != 0) {
        o.files = stdin_only;
        o.files_len = 1;
    }
    return c->run(&o);
}
