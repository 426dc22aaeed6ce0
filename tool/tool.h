/* tool.h -- what the sudoku tool's subcommands share: options, exit codes, runners.
 *
 * options.c parses the command line into struct tool_opts for the row of
 * the subcommand (command.h); run.c streams puzzles from the inputs through
 * a pipelined batch; hint.c runs hint, explain and rate; picture.c draws
 * (render).  Exit codes are the tool's contract (sudoku(1)).
 */
#ifndef SUDOKU_TOOL_H
#define SUDOKU_TOOL_H

#include "proto/input.h"
#include "tool/picture.h"
#include "tool/rules.h"
#include <sudoku/client.h>

#define EXIT_ALL_SOLVED  0 /* every puzzle solved */
#define EXIT_SOME_FAILED 1 /* some puzzle unsolvable or failed */
#define EXIT_USAGE       2 /* bad command line */
#define EXIT_UNREACHABLE 3 /* cannot reach the daemon (or lost it) */
/* --local found no plugin to answer with: nothing could be solved, as when
 * an input cannot be read (1), not a daemon out of reach (3). */
#define EXIT_NO_PLUGINS EXIT_SOME_FAILED

/* With --timeout T, the tool gives up on a daemon silent for T plus this. */
#define TOOL_TIMEOUT_MARGIN_MS 2000u
#define TOOL_WINDOW            64    /* default requests in flight */
#define TOOL_COUNT_CAP         1000u /* sudoku count counts this far unless --limit */
#define TOOL_ERRORS_SHOWN      20u   /* error lines before "... and N more" (not with -v) */

/* How answers are printed (--output, or --format for both sides). */
enum tool_output {
    TOOL_OUT_AS_INPUT = 0, /* each answer in its puzzle's form */
    TOOL_OUT_LINE,         /* one line per answer */
    TOOL_OUT_GRID,         /* n lines of n numbers (the judge form) */
    TOOL_OUT_READABLE      /* boxed rows with '|' and rule lines, as qqwing prints */
};

/* Everything the command line chose. */
struct tool_opts {
    const char *socket;                      /* -s, NULL: default rules */
    enum input_format format;                /* --format */
    enum tool_output output;                 /* --output (or --format) */
    struct sudoku_client_options solve;      /* --solver, --limit, --timeout */
    int is_unique;                           /* --unique */
    int is_count;                            /* sudoku count: print the number of solutions */
    const char *progress;                    /* hint, explain --progress: the players' grids */
    unsigned steps;                          /* hint, explain --steps, 0: default */
    unsigned level;                          /* hint, explain --level 1..4, 0: default (4) */
    const char *marks;                       /* hint, explain --marks STRING|@FILE (or
                                                --candidates=...), or NULL */
    const char *marks_name;                  /* how it was given, for messages */
    int is_json;                             /* --json */
    int is_verbose;                          /* -v */
    unsigned window;                         /* -w, 0: default */
    int is_local;                            /* --local or SUDOKU_LOCAL=1: no daemon */
    const char *plugin_dir;                  /* -P, for --local; NULL: the installed one */
    int can_local;                           /* the subcommand runs with --local too */
    const char *out_path;                    /* -o FILE: answers there, not on stdout */
    int is_quiet;                            /* -q: no notices, error lines or summary */
    char **files;                            /* the operands after the subcommand's word */
    int files_len;                           /* how many */
    struct picture_opts picture;             /* --format svg|png|pdf, --size, ...; out: -o's
                                                file when there is a picture */
    int is_solution;                         /* render --solution: draw the solved grid */
    const char *rules_arg;                   /* --rules LIST, as given */
    const char *regions_arg;                 /* --regions STRING|@FILE, as given */
    const struct sudoku_client_rules *rules; /* from both, NULL: classic (JSON lines: theirs) */
};

/* Connect as the options say; on failure print why and how to start the
 * daemon (and, when no socket was named and the subcommand can, that
 * --local needs none) and return NULL. */
struct sudoku_client *tool_connect(const struct tool_opts *o);

/* Solve every puzzle of files[0..nfiles) ("-" is stdin) and print the
 * answers.  Returns an exit code. */
int tool_solve(const struct tool_opts *o, char **files, int nfiles);

/* Add one input record to batch b with tag and rules (NULL: classic): a
 * record the reader refused as a local failure (tool_record_error,
 * answered in order), a grid as cells, a line (or JSON line) as its text.
 * Returns as sudoku_client_batch_add. */
int tool_batch_add(struct sudoku_client_batch *b, uint64_t tag, const struct input_record *rec,
                   const struct sudoku_client_rules *rules, struct sudoku_client_error *err);

/* The error a record the reader refused gets, as the daemon would give it:
 * code bad_puzzle (a JSON line that cannot be read: bad_request), rec's
 * reason (may be empty) as the message. */
void tool_record_error(const struct input_record *rec, struct sudoku_client_error *e);

/* The rules of record rec: a JSON-lines record is read (tool_rules_from_json),
 * its text becomes its puzzle's in the line form (valid until the next
 * call; the format stays INPUT_JSON) and its rules are its own; a bad one
 * gets rec->error.  Any other record
 * takes the command line's (o->rules).  Returns the rules (NULL: classic),
 * valid until the next call.  Not reentrant. */
const struct sudoku_client_rules *tool_record_rules(struct input_record *rec,
                                                    const struct tool_opts *o);

/* Build o->rules from --rules and --regions (options.c).  Returns 0 or
 * EXIT_USAGE (said). */
int tool_rules_setup(struct tool_opts *o);

struct local;

/* With --solver, ask the daemon c (or the local host l) once whether it has
 * that solver, so a typo is one error, not one per puzzle.  Returns 0,
 * EXIT_USAGE or EXIT_UNREACHABLE (printed). */
int tool_check_solver(struct sudoku_client *c, struct local *l, const struct tool_opts *o);

/* sudoku hint (is_hint) or explain: the steps of every puzzle of
 * files[0..nfiles), one request at a time.  Returns an exit code. */
int tool_explain(const struct tool_opts *o, int is_hint, char **files, int nfiles);

/* sudoku rate: one line a puzzle, in input order, through a rating batch.
 * Returns an exit code. */
int tool_rate(const struct tool_opts *o, char **files, int nfiles);
/* sudoku render: a picture of every puzzle of files[0..nfiles), as
 * o->picture asks (picture.c).  Returns an exit code. */
int tool_render(const struct tool_opts *o, char **files, int nfiles);

#endif /* SUDOKU_TOOL_H */
