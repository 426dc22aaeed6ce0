/* input.h -- the puzzle-file reader of the sudoku tool and sudoku-bench:
 * line and grid (judge) formats.
 *
 * Reads one input (a file or stdin) as a stream of records, each a puzzle
 * with the number of the line it starts on.  Memory is constant: lines are
 * read into a fixed buffer (an overlong line becomes a failed record, not a
 * bigger buffer).  When the reader asks for it (takes_json), a line that
 * starts with '{' is a JSON-lines record ({"puzzle": ..., "rules": {...}}),
 * whatever the format: its text is handed on whole for the tool to read
 * (tool/rules.h).  Unless forced, each puzzle's form is detected from its
 * first line, so a line puzzle may follow a grid.  Linked into the tools,
 * not into libsudoku-client.
 */
#ifndef SUDOKU_PROTO_INPUT_H
#define SUDOKU_PROTO_INPUT_H

#include <stdint.h>
#include <stdio.h>

#define INPUT_LINE_MAX 8192 /* longest line kept; longer ones are refused */
#define INPUT_SNIFF    4096 /* bytes at the start looked at to tell a binary file */

enum input_format {
    INPUT_AUTO = 0, /* detect each puzzle's form from its first line */
    INPUT_LINE,     /* one puzzle per line */
    INPUT_GRID,     /* n lines of n numbers per puzzle (judge format) */
    INPUT_JSON      /* a record only: one JSON object on one line */
};

/* One puzzle read from the input. */
struct input_record {
    uint64_t line;            /* line number where the puzzle starts (1-based) */
    enum input_format format; /* INPUT_LINE or INPUT_GRID */
    const char *text;         /* line form, JSON: the trimmed line, valid until the next read */
    size_t len;               /* line form, JSON: its length */
    int is_lower;             /* line form: letters were lowercase */
    int is_compact;           /* grid form: rows of one character a cell ("53..7....") */
    unsigned n;               /* grid form: side */
    uint8_t cells[625];       /* grid form: values 0..n */
    char error[256];          /* non-empty: the record is bad, this says why */
};

/* An open input. */
struct input {
    FILE *f;                  /* owned unless it is stdin */
    const char *name;         /* for messages, "-" shown as "<stdin>"; borrowed */
    enum input_format format; /* forced, or (auto) the last record's form */
    int is_auto;              /* opened with INPUT_AUTO: detect every record */
    uint64_t line_no;         /* lines read so far */
    uint64_t bytes;           /* bytes read so far */
    char line[INPUT_LINE_MAX + 2];
    size_t line_len;
    int is_long;      /* the last line was cut: longer than INPUT_LINE_MAX */
    int has_nul;      /* the last line held a NUL byte */
    int is_pending;   /* line holds a line not yet taken: the next read gives it */
    int looks_binary; /* a NUL or control byte within the first INPUT_SNIFF bytes */
    int takes_json;   /* set after input_open: '{' lines are INPUT_JSON records */
};

/* Open path ("-" for stdin) with format (INPUT_AUTO to detect).  Returns 0
 * or a negative errno.  Close with input_close. */
int input_open(struct input *in, const char *path, enum input_format format);

/* Close the file unless it is stdin.  Accepts a zeroed struct. */
void input_close(struct input *in);

/* Read the next record into *r.  Returns 1 for a record (maybe a bad one:
 * r->error set), 0 at the end, or a negative errno on a read error. */
int input_next(struct input *in, struct input_record *r);

/* Human name of the input for messages. */
const char *input_name(const struct input *in);

#endif /* SUDOKU_PROTO_INPUT_H */
