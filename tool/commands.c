/* commands.c -- the table of the sudoku tool's subcommands, and its help.
 *
 * One row a subcommand (command.h): its word, its lines of help, its option
 * table and the function that runs it.  The rows on the tool's shared
 * options (tool_prog) run through tool_main() and one of the small
 * adapters below; a row with options of its own (generate) parses them
 * itself.  `sudoku --help` draws its usage lines from the rows, so a new
 * row shows there at once.  Finding the row of a command line is here too:
 * the first named row whose word is the first operand, as the row's own
 * option table reads the command line.
 */
#include <stdio.h>
#include <string.h>

#include "tool/command.h"
#include "tool/tool.h"
#include "util/opts.h"

/* ------------------------------------------------------------------------ */
/* Adapters: a row's parsed options to the runner of its file */

/* sudoku [FILE...] (run.c) */
static int run_solve(struct tool_opts *o)
{
    return tool_solve(o, o->files, o->files_len);
}

/* sudoku count [FILE...]: solve, printing how many solutions (run.c). */
static int run_count(struct tool_opts *o)
{
    o->is_count = 1;
    if (!o->solve.limit)
        o->solve.limit = TOOL_COUNT_CAP;
    return tool_solve(o, o->files, o->files_len);
}

/* sudoku hint [FILE...] (hint.c) */
static int run_hint(struct tool_opts *o)
{
    return tool_explain(o, 1, o->files, o->files_len);
}

/* sudoku explain [FILE...] (hint.c) */
static int run_explain(struct tool_opts *o)
{
    return tool_explain(o, 0, o->files, o->files_len);
}

/* sudoku rate [FILE...] (hint.c): a rating has no steps to limit or start. */
static int run_rate(struct tool_opts *o)
{
    if (o->progress || o->steps) {
        opts_usage_error(&tool_prog, "rate takes no --progress or --steps");
        return EXIT_USAGE;
    }
    if (o->level) {
        opts_usage_error(&tool_prog, "rate takes no --level (a rating grades no hint)");
        return EXIT_USAGE;
    }
    return tool_rate(o, o->files, o->files_len);
}

/* sudoku render [FILE...] (picture.c) */
static int run_render(struct tool_opts *o)
{
    return tool_render(o, o->files, o->files_len);
}

/* ------------------------------------------------------------------------ */
/* The table */

/* The usage and help of the rows that have their own. */
static const char usage_daemon[] = "[-s PATH] [--json]";
static const char usage_steps[] = "[-s PATH] [--progress FILE] [--steps N] [--solver NAME]\n"
                                  "[--timeout MS] [--format F] [--json] [FILE...]\n"
                                  "[--level N] [--marks STRING|@FILE]";
static const char usage_rate[] = "[-s PATH] [--solver NAME] [--timeout MS] [-w N] [--format F]\n"
                                 "[--local [-P DIR]] [--json] [FILE...]";
static const char help_solvers[] =
    "List the daemon's solvers: name, version, sizes, default (-v: and the\n"
    "variant rules each takes).\n";
static const char help_stats[] = "Print the daemon's counters.\n";
static const char help_ping[] = "Check that the daemon answers; print the round-trip time.\n";
static const char help_hint[] =
    "Print the next step a person would take on each puzzle, in words (the\n"
    "easiest technique that applies; --steps N: the next N).  --progress FILE\n"
    "holds the player's grid for each puzzle, in order: the hint starts there,\n"
    "and wrong entries are named first.  --candidates=STRING|@FILE (or --marks\n"
    "STRING|@FILE): the player's pencil marks (@FILE: a line a puzzle).\n"
    "--level 1|2|3: only the technique, and its house (\"naked pair in row 3\"),\n"
    "and its cells.\n"
    "--json: one object per puzzle.\n"
    "--format svg|png|pdf [-o FILE] [--candidates]: draw the grid before the\n"
    "step instead (see: sudoku render --help).\n";
static const char help_explain[] =
    "Print every step of each puzzle, numbered, then a summary line: status,\n"
    "steps, rating, difficulty and hardest technique (docs/techniques.md).\n"
    "--json: one object per puzzle, the keys of the explain answer.\n"
    "--format svg|png|pdf [-o FILE] [--candidates] [--per-page N]: draw the\n"
    "grid before each step instead (see: sudoku render --help).\n";
static const char usage_render[] = "[--format svg|png|pdf] [-o FILE] [--solution [--local]]\n"
                                   "[--candidates] [--per-page N] [--size PX] [FILE...]";
static const char help_render[] =
    "Draw each puzzle as a printable picture: SVG (default, on stdout unless -o),\n"
    "PNG or PDF.  --solution: the solved grid, the givens bold, the rest blue.\n"
    "--candidates: pencil marks.  --per-page N: N grids a page, captioned.\n"
    "Several pages: one PDF, or numbered files FILE-1.png, FILE-2.png, ...\n"
    "hint and explain take --format svg|png|pdf too: the grid before each step.\n";
static const char help_rate[] =
    "Rate each puzzle for a person: one line \"rating difficulty hardest\" a\n"
    "puzzle (e.g. \"2.6 medium locked_candidates_pointing\"), in input order.\n"
    "A puzzle without exactly one solution is an error (not_unique).  With\n"
    "--local, the plugins of this process rate (-P DIR: from DIR).\n";

#define FILES    "[options] [FILE...]"
#define ANY      TOOL_CMD_ANY
#define LOCAL    TOOL_CMD_LOCAL
#define DRAW     (TOOL_CMD_LOCAL | TOOL_CMD_DRAW) /* --local too, and pictures */
#define MARKS    (DRAW | TOOL_CMD_MARKS)          /* ... and the player's pencil marks */
#define OPTS(fn) &tool_prog, tool_main, (fn)      /* on the shared options: tool_main, then fn */

const struct tool_command tool_commands[] = {
    /* name, aliases, synopsis, usage, help, FILEs, flags, options, main, run */
    {NULL, NULL, FILES, NULL, NULL, ANY, LOCAL, OPTS(run_solve)},
    {"count", NULL, FILES, NULL, NULL, ANY, LOCAL, OPTS(run_count)},
    {"solvers", NULL, "[options]", usage_daemon, help_solvers, 0, LOCAL, OPTS(tool_solvers)},
    {"stats", NULL, "[options]", usage_daemon, help_stats, 0, 0, OPTS(tool_stats)},
    {"ping", NULL, "[options]", usage_daemon, help_ping, 0, 0, OPTS(tool_ping)},
    {"hint", NULL, FILES, usage_steps, help_hint, ANY, MARKS, OPTS(run_hint)},
    {"explain", NULL, FILES, usage_steps, help_explain, ANY, MARKS, OPTS(run_explain)},
    {"rate", NULL, FILES, usage_rate, help_rate, ANY, LOCAL, OPTS(run_rate)},
    {"generate", NULL, "[options]", NULL, NULL, 0, LOCAL, &tool_generate_prog, tool_generate, NULL},
    {"render", NULL, FILES, usage_render, help_render, ANY, DRAW | TOOL_CMD_PICTURE,
     OPTS(run_render)},
};

const size_t tool_commands_len = sizeof(tool_commands) / sizeof(tool_commands[0]);

/* ------------------------------------------------------------------------ */
/* Finding a row */

static int is_named(const struct tool_command *c, const char *word)
{
    if (strcmp(c->name, word) == 0)
        return 1;
    for (const char *const *a = c->aliases; a && *a; a++)
        if (strcmp(*a, word) == 0)
            return 1;
    return 0;
}

const struct tool_command *tool_command_find(int argc, char *const *argv)
{
    const struct tool_command *none = NULL;

    for (size_t i = 0; i < tool_commands_len; i++) {
        const struct tool_command *c = &tool_commands[i];
        int at;
        if (!c->name) {
            none = none ? none : c;
            continue;
        }
        at = opts_first_operand(c->prog, argc, argv);
        if (at < argc && is_named(c, argv[at]))
            return c;
    }
    return none;
}

/* ------------------------------------------------------------------------ */
/* Help */

/* 1 when row b shares row a's line in the usage: named, same options. */
static int is_same_line(const struct tool_command *a, const struct tool_command *b)
{
    return a->name && b->name && a->prog == b->prog && strcmp(a->synopsis, b->synopsis) == 0;
}

/* "usage: sudoku" and each row's synopsis, rows next to each other with
 * the same one on one line ("solvers|stats|ping"); a row with options of
 * its own points to its help. */
static void put_usage_lines(FILE *f)
{
    for (size_t i = 0; i < tool_commands_len; i++) {
        const struct tool_command *c = &tool_commands[i];
        fputs(i ? "       sudoku" : "usage: sudoku", f);
        if (c->name)
            fprintf(f, " %s", c->name);
        while (i + 1 < tool_commands_len && is_same_line(c, &tool_commands[i + 1]))
            fprintf(f, "|%s", tool_commands[++i].name);
        fprintf(f, " %s", c->synopsis);
        if (c->prog != &tool_prog)
            fprintf(f, "   (see: sudoku %s --help)", c->name);
        fputc('\n', f);
    }
}

void tool_command_help(const struct tool_command *c)
{
    int indent = (int)strlen("usage: sudoku ") + (c->name ? (int)strlen(c->name) + 1 : 0);
    const char *nl;

    if (!c->usage) {
        if (c->prog == &tool_prog)
            put_usage_lines(stdout);
        opts_help(c->prog, stdout);
        return;
    }
    printf("usage: sudoku %s ", c->name);
    for (const char *u = c->usage; u; u = nl ? nl + 1 : NULL) {
        nl = strchr(u, '\n');
        printf("%*s%.*s\n", u == c->usage ? 0 : indent, "", nl ? (int)(nl - u) : (int)strlen(u), u);
    }
    fputs(c->help, stdout);
}
