/* opts.h -- one table-driven command line for sudokud, sudoku and sudoku-bench.
 *
 * Each program describes its options once, in a table of struct opts_spec
 * (long name, short letter, argument, help text, what to do with it);
 * opts_parse() runs getopt_long over that table and opts_help() prints the
 * --help text from the same rows, so a flag and its help cannot drift apart.
 *
 * Conventions every program keeps (the flags are a contract: additions only):
 *   -h, --help      print the help on stdout, exit 0
 *   -V, --version   print "PROGRAM VERSION" on stdout, exit 0
 *   -v, --verbose   say more on stderr
 *   -s, --socket    the daemon's socket
 *   -P, --plugin-dir   where the solver plugins are
 * and letters only one program has so far keep one meaning if another
 * program takes them up: -j (--threads, sudokud), -w (--window, sudoku).
 * A usage error prints "PROGRAM: what is wrong, naming the option" and
 * "Try 'PROGRAM --help'." on stderr; the program then exits 2.
 *
 * Internal to the three programs: built as its own static library
 * (sudoku_opts), never part of libsudoku-client.  Not thread-safe: it uses
 * getopt_long's globals, as main() does.
 */
#ifndef SUDOKU_OPTS_H
#define SUDOKU_OPTS_H

#include <stddef.h>
#include <stdio.h>

#define OPTS_MAX 48 /* rows in one table at most */

/* What opts_parse() returns when the command line is good. */
#define OPTS_RUN          0 /* go on */
#define OPTS_SHOW_HELP    1 /* --help came first: print opts_help(), exit 0 */
#define OPTS_SHOW_VERSION 2 /* --version came first: print the version, exit 0 */

/* An option with a handler of its own: apply arg to cfg.  Returns 0, or a
 * negative errno after writing what was wanted ("want grid, line or auto")
 * into err, which opts_parse() then quotes with the option and arg. */
typedef int opts_fn(void *cfg, const char *arg, char *err, size_t err_size);

enum opts_kind {
    OPTS_FLAG = 1, /* int at offset := 1 */
    OPTS_STRING,   /* const char * at offset := arg (points into argv) */
    OPTS_NUMBER,   /* unsigned integer of size bytes at offset := arg in min..max */
    OPTS_CALL,     /* fn(cfg, arg, ...); arg is NULL when the row takes none */
    OPTS_HELP,     /* --help */
    OPTS_VERSION,  /* --version */
    OPTS_SECTION,  /* not an option: a heading (help) in the help text */
};

/* One row of a program's table.  Write the first four fields in order and
 * the rest with one of the OPTS_* macros below. */
struct opts_spec {
    const char *name;       /* long name without "--" (NULL for a section) */
    int short_name;         /* short letter, or 0 for none */
    const char *arg;        /* its argument in the help ("PATH"); NULL: takes none */
    const char *help;       /* help text; each '\n' starts an indented line */
    enum opts_kind kind;    /* what to do with it */
    size_t offset;          /* FLAG, STRING, NUMBER: the field's offset in cfg */
    size_t size;            /* NUMBER: the field's size, 4 or 8 bytes */
    unsigned long long min; /* NUMBER: smallest accepted value */
    unsigned long long max; /* NUMBER: largest accepted value */
    int base;               /* NUMBER: 10, or 8 for a file mode */
    opts_fn *fn;            /* CALL: the handler */
    int is_alias;           /* another long name for the row before: no help line */
    int is_arg_optional;    /* arg may be left out: given only as "--name=ARG" (no short
                               letter); without it the handler sees NULL */
};

#define OPTS_FIELD(type, member)                                                                   \
    .offset = offsetof(type, member), .size = sizeof(((type *)0)->member)
#define OPTS_FLAG_AT(type, member)   .kind = OPTS_FLAG, OPTS_FIELD(type, member)
#define OPTS_STRING_AT(type, member) .kind = OPTS_STRING, OPTS_FIELD(type, member)
#define OPTS_NUMBER_AT(type, member, lo, hi)                                                       \
    .kind = OPTS_NUMBER, OPTS_FIELD(type, member), .min = (lo), .max = (hi), .base = 10
#define OPTS_OCTAL_AT(type, member, lo, hi)                                                        \
    .kind = OPTS_NUMBER, OPTS_FIELD(type, member), .min = (lo), .max = (hi), .base = 8
#define OPTS_CALL_TO(handler) .kind = OPTS_CALL, .fn = (handler)
/* A row that is another long name for the row before it: getopt_long sees
 * one option, so its prefixes stay unambiguous. */
#define OPTS_ALIAS_ROW(long_name)                                                                  \
    {                                                                                              \
        (long_name), 0, NULL, NULL, .is_alias = 1                                                  \
    }
#define OPTS_SECTION_ROW(text)                                                                     \
    {                                                                                              \
        NULL, 0, NULL, (text), .kind = OPTS_SECTION                                                \
    }

/* A program's whole command line. */
struct opts_prog {
    const char *name;              /* program name, for messages */
    const char *usage;             /* help text before the options */
    const char *footer;            /* help text after them, or NULL */
    const struct opts_spec *specs; /* the table */
    size_t specs_len;              /* its rows (at most OPTS_MAX) */
    int help_column;               /* column where each option's help starts */
};

/* Parse argv[1..argc) against p's table into cfg (fields not named keep
 * what the caller put there).  The whole command line is read, so a bad
 * option after --help is still an error.  On return *operands is the index
 * of the first operand (getopt_long moves them behind the options).
 * Returns OPTS_RUN, OPTS_SHOW_HELP or OPTS_SHOW_VERSION (whichever of the
 * two came first), or -EINVAL after printing the first usage error. */
int opts_parse(const struct opts_prog *p, int argc, char **argv, void *cfg, int *operands);

/* The index of the first operand of argv[1..argc) as p's table reads it
 * (what opts_parse() would leave at *operands), without parsing or
 * permuting anything: an option's separate argument is skipped when its row
 * takes one ("-s PATH", "--socket PATH", "--sock PATH"; never for a row whose
 * argument is optional, which comes only after '='), "--" makes the next
 * word an operand, "-" alone is one.  An unknown or ambiguous option counts
 * as taking no argument (opts_parse() will refuse it).  So a program of
 * several commands finds its command word before it knows whose table
 * parses the rest.  Returns argc when there is no operand. */
int opts_first_operand(const struct opts_prog *p, int argc, char *const *argv);

/* Print p's help text on f: usage, one line (or more) per row, footer. */
void opts_help(const struct opts_prog *p, FILE *f);

/* Print "NAME: message" and "Try 'NAME --help'." on stderr, for the checks a
 * program makes after opts_parse().  Returns -EINVAL. */
int opts_usage_error(const struct opts_prog *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse s as an unsigned number in base (10 or 8) within min..max: digits
 * only, no sign or space.  Returns 0, or -EINVAL after writing the range
 * wanted into err ("want 1..1024"), for OPTS_CALL handlers. */
int opts_number(const char *s, int base, unsigned long long min, unsigned long long max,
                unsigned long long *out, char *err, size_t err_size);

/* Read a configuration file of "key = value" lines (blank lines and '#'
 * comments skipped; keys are p's long option names; a flag takes yes, no,
 * true, false, 1, 0 or nothing) into command-line words "--key=value", to be
 * put before the real command line so that it wins.  On success *args holds
 * *len malloc'ed words (free with opts_config_free) and 0 is returned; else
 * a negative errno with "PATH:LINE: what" in err. */
int opts_config_load(const struct opts_prog *p, const char *path, char ***args, int *len, char *err,
                     size_t err_size);

/* Read a configuration file as opts_config_load() does and apply each line
 * to cfg as opts_parse() applies a command-line option, checking every value
 * the way the command line does; then opts_parse() on the real command line
 * makes it win.  STRING fields (and handlers) may point into the words kept
 * in *args: free them with opts_config_free() only once cfg is done with.
 * Returns 0, or a negative errno with "PATH:LINE: what" in err (a bad
 * value: "PATH:LINE: invalid value for 'threads': 'many' (want 1..1024)");
 * cfg may then hold the lines before the bad one. */
int opts_config_apply(const struct opts_prog *p, const char *path, void *cfg, char ***args,
                      int *len, char *err, size_t err_size);

/* Free what opts_config_load() or opts_config_apply() made.  Accepts NULL. */
void opts_config_free(char **args, int len);

#endif /* SUDOKU_OPTS_H */
