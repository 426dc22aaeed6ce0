/* command.h -- the sudoku tool's subcommands: one row of a table each.
 *
 * main() walks tool_commands[]: the row whose word is the first operand of
 * the command line, as that row's own option table reads it, runs; the row
 * without a word (solve the FILEs) runs when none matches.  A row names its
 * options table (most share the tool's, tool_prog), the function that parses
 * and runs it, and its help; `sudoku --help` draws its usage lines from the
 * rows.  A new subcommand is one row here and its function.
 */
#ifndef SUDOKU_TOOL_COMMAND_H
#define SUDOKU_TOOL_COMMAND_H

#include "tool/tool.h"
#include "util/opts.h"

struct tool_command;

/* Parse argv, the whole command line (a named row's word is its first
 * operand), and run.  Returns an exit code. */
typedef int tool_main_fn(const struct tool_command *c, int argc, char **argv);

/* Run with the tool's options parsed into o, the operands after the word in
 * o->files (stdin, "-", when the row takes files and none was given).
 * Returns an exit code. */
typedef int tool_run_fn(struct tool_opts *o);

#define TOOL_CMD_LOCAL   1u   /* runs with --local too (else: it asks the daemon) */
#define TOOL_CMD_DRAW    2u   /* takes the picture options (--format svg|png|pdf, -o, ...) */
#define TOOL_CMD_PICTURE 4u   /* always draws (render): svg by default, --solution */
#define TOOL_CMD_MARKS   8u   /* explains from the player's pencil marks (--marks) */
#define TOOL_CMD_ANY     (-1) /* max_files: any number of FILEs */

/* One subcommand. */
struct tool_command {
    const char *name;             /* the word after sudoku; NULL: none (solve the FILEs) */
    const char *const *aliases;   /* other words for it, NULL-terminated; NULL: none */
    const char *synopsis;         /* its line in `sudoku --help`, after the word */
    const char *usage;            /* `sudoku NAME --help`: after "usage: sudoku NAME " */
    const char *help;             /* ... then this; usage NULL: its option table's help */
    int max_files;                /* FILE operands after the word, or TOOL_CMD_ANY */
    unsigned flags;               /* TOOL_CMD_* */
    const struct opts_prog *prog; /* its option table */
    tool_main_fn *main;           /* parses and runs: tool_main for tool_prog's rows */
    tool_run_fn *run;             /* what tool_main runs after parsing (else NULL) */
};

/* The table, in `sudoku --help` order, and its length. */
extern const struct tool_command tool_commands[];
extern const size_t tool_commands_len;

/* The options most commands share (options.c), and its usage lines drawn
 * from tool_commands[]. */
extern const struct opts_prog tool_prog;

/* Parse argv with c's option table into cfg, then check(cfg) when given
 * (a usage error it found comes before --help), answer --help (c's help)
 * and --version, and step over c's word.  *operands: the index of the
 * first operand after the word.  Returns -1 to go on, else the exit code. */
int tool_parse(const struct tool_command *c, int argc, char **argv, void *cfg,
               int (*check)(void *cfg), int *operands);

/* tool_main_fn of the rows on tool_prog: parse into struct tool_opts, check
 * what the row allows (--local, how many FILEs), then c->run. */
int tool_main(const struct tool_command *c, int argc, char **argv);

/* The row that runs argv: the first named row whose word (or alias) is the
 * first operand as its own option table reads it, else the row without a
 * word. */
const struct tool_command *tool_command_find(int argc, char *const *argv);

/* Print c's help on stdout: "usage: sudoku NAME ..." and its text, or, with
 * no usage, its option table's help (tool_prog's after the usage lines of
 * every row). */
void tool_command_help(const struct tool_command *c);

/* The rows' functions, each in the file of its subcommand. */
int tool_ping(struct tool_opts *o);
int tool_solvers(struct tool_opts *o);
int tool_stats(struct tool_opts *o);
int tool_generate(const struct tool_command *c, int argc, char **argv);
extern const struct opts_prog tool_generate_prog; /* generate's own options */

#endif /* SUDOKU_TOOL_COMMAND_H */
