/* main.c -- the sudoku tool: solve puzzles through sudokud from a shell.
 *
 *   sudoku [options] [FILE...]     solve (run.c)
 *   sudoku count [FILE...]         count the solutions (run.c)
 *   sudoku solvers | stats | ping  ask the daemon (ask.c)
 *   sudoku hint | explain | rate   human-style steps and ratings (hint.c)
 *   sudoku generate [options]      new puzzles (generate.c)
 *
 * main() is the table of contents: find the subcommand's row in the table
 * (commands.c) and let it parse its options and run.  Everything that
 * talks to the daemon goes through libsudoku-client; with --local the
 * plugins run in this process instead (local.c).
 */
#include "tool/command.h"

int main(int argc, char **argv)
{
    const struct tool_command *c = tool_command_find(argc, argv);

    return c->main(c, argc, argv);
}
