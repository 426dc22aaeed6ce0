/* input.c -- read puzzles for the sudoku tool and the bench, line or grid form.
 *
 * Lines come through a fixed buffer; a line longer than INPUT_LINE_MAX is
 * skipped to its end and reported as a bad record, so a hostile input cannot
 * make the tool grow.  Blank lines and lines starting with '#' separate
 * puzzles in both forms; a UTF-8 byte order mark before the first line is
 * skipped.
 *
 * Grid rows are taken as people write them (row_values): numbers separated
 * by spaces ("5 3 0 0 7 0 0 0 0"), '.' for a blank, '|' between boxes, digits
 * without spaces ("530070000", "53..7....", "530 070 000") for 4x4 and 9x9,
 * and one run of symbols (as the line form spells them) for 16x16 and 25x25.
 * Rule lines made of '-', '+', '=' and '|' (qqwing's readable output) are
 * skipped inside and between grids.
 *
 * qqwing's --csv output reads as the line form: a header line whose first
 * field is "Puzzle" is skipped, and of "PUZZLE,SOLUTION,..." the first
 * field is the puzzle.
 *
 * Detection (INPUT_AUTO), for each puzzle on its own: its first line is a
 * grid row when it holds a side's worth (4, 9, 16, 25) of cells as above; a
 * single run of 16 symbols is a whole 4x4 puzzle in the line form (use
 * --format grid for 16x16 rows without spaces); anything else is the line
 * form.  A line that looks like a grid row among line puzzles, with no grid
 * row of its size after it, is one bad record (a lone row): the next line is
 * read again as a puzzle of its own, so a typo costs one puzzle, not nine.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "proto/codec.h"
#include "proto/input.h"

int input_open(struct input *in, const char *path, enum input_format format)
{
    memset(in, 0, sizeof(*in));
    in->name = path;
    in->format = format;
    in->is_auto = format == INPUT_AUTO;
    if (strcmp(path, "-") == 0) {
        in->f = stdin;
        return 0;
    }
    in->f = fopen(path, "r");
    return in->f ? 0 : -errno;
}

void input_close(struct input *in)
{
    if (in->f && in->f != stdin)
        fclose(in->f);
    in->f = NULL;
}

const char *input_name(const struct input *in)
{
    return strcmp(in->name, "-") == 0 ? "<stdin>" : in->name;
}

/* A byte no text holds: NUL, or a control other than tab, CR, VT and FF. */
static int is_binary_byte(int ch)
{
    return (ch < 0x20 && ch != '\t' && ch != '\r' && ch != '\v' && ch != '\f') || ch == 0x7f;
}

/* Read one line into in->line without its newline.  Every byte is counted,
 * NUL bytes too (they are flagged: no puzzle holds one); bytes beyond
 * INPUT_LINE_MAX are counted and dropped.  A NUL or control byte within
 * the first INPUT_SNIFF bytes marks the input as binary.  Returns 1, 0 at
 * EOF or a negative errno. */
static int read_line(struct input *in)
{
    size_t len = 0, total = 0;
    int ch, has_nul = 0;

    if (in->is_pending) { /* put back by a lone row: already counted */
        in->is_pending = 0;
        return 1;
    }
    while ((ch = getc_unlocked(in->f)) != EOF && ch != '\n') {
        if (in->bytes + total < INPUT_SNIFF && is_binary_byte(ch))
            in->looks_binary = 1;
        total++;
        has_nul |= ch == '\0';
        if (len <= INPUT_LINE_MAX)
            in->line[len++] = (char)ch;
    }
    if (ch == EOF && total == 0)
        return ferror(in->f) ? -EIO : 0;
    in->bytes += total + (ch == '\n');
    in->line_no++;
    in->is_long = total > INPUT_LINE_MAX;
    in->has_nul = has_nul;
    in->line[len] = '\0';
    if (in->line_no == 1 && len >= 3 && memcmp(in->line, "\xef\xbb\xbf", 3) == 0) {
        memmove(in->line, in->line + 3, len - 2); /* the byte order mark goes */
        len -= 3;
    }
    while (len > 0 && isspace((unsigned char)in->line[len - 1]))
        in->line[--len] = '\0';
    in->line_len = len;
    return 1;
}

/* Start of the content of the current line, or NULL when it separates. */
static const char *content(struct input *in)
{
    const char *p = in->line;
    while (isspace((unsigned char)*p))
        p++;
    return (*p == '\0' || *p == '#') && !in->is_long && !in->has_nul ? NULL : p;
}

/* A rule line between rows or boxes: only '-', '+', '=', '|', ':' and
 * spaces, with at least one of '-', '+', '='. */
static int is_rule(const char *p)
{
    int has_rule = 0;

    for (; *p; p++) {
        if (*p == '-' || *p == '+' || *p == '=')
            has_rule = 1;
        else if (*p != '|' && *p != ':' && !isspace((unsigned char)*p))
            return 0;
    }
    return has_rule;
}

static int is_gap(char c)
{
    return isspace((unsigned char)c) || c == '|';
}

/* The cells of one grid row as people write it (see the top of this file),
 * into vals[0..max).  Returns how many, or -1 when a token is not a cell.
 * A value above the side is kept: the grid parser names it. */
static int row_values(const char *p, unsigned *vals, int max)
{
    int chars = 0, tokens = 0, simple = 1, count = 0;

    for (const char *q = p; *q; q++) {
        if (is_gap(*q))
            continue;
        chars++;
        simple &= isdigit((unsigned char)*q) || *q == '.';
        tokens += q == p || is_gap(q[-1]);
    }
    if (simple && (chars == 4 || chars == 9)) { /* one cell per character */
        for (; *p && count < max; p++)
            if (!is_gap(*p))
                vals[count++] = *p == '.' ? 0 : (unsigned)(*p - '0');
        return count;
    }
    if (tokens == 1 && (chars == 16 || chars == 25)) { /* one run of symbols */
        for (; *p && count < max; p++) {
            int v = is_gap(*p) ? -2 : codec_symbol_value((unsigned)chars, *p);
            if (v == -1)
                return -1;
            if (v >= 0)
                vals[count++] = (unsigned)v;
        }
        return count;
    }
    while (*p && count < max) { /* numbers separated by spaces or '|' */
        while (is_gap(*p))
            p++;
        if (!*p)
            break;
        if (*p == '.' && (!p[1] || is_gap(p[1]))) {
            vals[count++] = 0;
            p++;
            continue;
        }
        unsigned v = 0;
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p) && v < 1000)
            v = v * 10 + (unsigned)(*p++ - '0');
        if (*p && !is_gap(*p))
            return -1;
        vals[count++] = v;
    }
    return count;
}

/* A row of one character a cell, no gaps ("53..7...." or "530070000"). */
static int is_compact_row(const char *p)
{
    size_t len = strlen(p);
    return (len == 4 || len == 9) && strspn(p, "0123456789.") == len;
}

static int is_side(int k)
{
    return k == 4 || k == 9 || k == 16 || k == 25;
}

/* A run of 16 symbols alone is a 4x4 puzzle in the line form, not a row. */
static int is_line_puzzle_16(const char *p)
{
    size_t len = strlen(p);
    return len == 16 && strcspn(p, " \t|") == len;
}

static enum input_format detect(const char *p)
{
    unsigned vals[26];
    int k = row_values(p, vals, 26);
    return is_side(k) && !is_line_puzzle_16(p) ? INPUT_GRID : INPUT_LINE;
}

/* qqwing's CSV header ("Puzzle,Solution,..."): not a puzzle. */
static int is_csv_header(const char *p)
{
    return strncasecmp(p, "puzzle,", 7) == 0 || strcasecmp(p, "puzzle") == 0;
}

static int read_line_record(const char *p, struct input_record *r)
{
    r->format = INPUT_LINE;
    r->text = p;
    r->len = strcspn(p, ","); /* CSV: the first field is the puzzle */
    if (r->len == 0) {
        snprintf(r->error, sizeof(r->error), "no puzzle before the first ','");
        return 1;
    }
    int lower = 0, upper = 0;
    for (size_t i = 0; i < r->len; i++) {
        lower |= islower((unsigned char)p[i]) != 0;
        upper |= isupper((unsigned char)p[i]) != 0;
    }
    r->is_lower = lower && !upper;
    return 1;
}

/* Append vals[0..k) to text as the judge form's numbers.  Returns the new
 * length, or 0 when text is full. */
static size_t put_row(char *text, size_t len, size_t cap, const unsigned *vals, int k)
{
    for (int i = 0; i < k; i++) {
        int w = snprintf(text + len, cap - len, i + 1 < k ? "%u " : "%u\n", vals[i]);
        if (w < 0 || (size_t)w >= cap - len)
            return 0;
        len += (size_t)w;
    }
    return len;
}

/* The next row of a grid (rule lines skipped) into *p.  Returns 1, 0 when the
 * grid ended (end of input or a separating line) or a negative errno. */
static int next_row(struct input *in, const char **p)
{
    for (;;) {
        int rc = read_line(in);
        if (rc <= 0)
            return rc;
        *p = content(in);
        if (!*p)
            return 0;
        if (!is_rule(*p))
            return 1;
    }
}

/* After a bad row: pass over the rest of its grid (at most rows more rows,
 * ending early at a separating line), so the next record starts at the next
 * grid, not in the middle of this one. */
static void skip_rows(struct input *in, int rows)
{
    const char *p;

    while (rows-- > 0 && next_row(in, &p) > 0)
        ;
}

/* Auto detection among line puzzles: the row after a grid's first is no row
 * of its size (it is a puzzle of its own).  Make the first a bad record of
 * its own and leave the current line for the next read.  Returns 1. */
static int lone_row(struct input *in, struct input_record *r, int k)
{
    in->is_pending = 1;
    in->format = INPUT_LINE;
    r->format = INPUT_LINE;
    snprintf(r->error, sizeof(r->error),
             "a lone grid row of %d cells: a line puzzle has 16, 81, 256 or 625", k);
    return 1;
}

/* Gather the n rows of a grid, as people write them, and parse them.
 * was_line: the previous record was a line puzzle (auto detection). */
static int read_grid_record(struct input *in, const char *p, struct input_record *r, int was_line)
{
    char text[25 * 25 * 4 + 1];
    unsigned vals[26];
    size_t len = 0;
    int k = row_values(p, vals, 26);

    r->format = INPUT_GRID;
    r->is_compact = is_compact_row(p);
    if (k < 0) {
        snprintf(r->error, sizeof(r->error),
                 "not a grid row: expected numbers separated by spaces");
        return 1;
    }
    if (!is_side(k)) {
        snprintf(r->error, sizeof(r->error),
                 "a grid row has 4, 9, 16 or 25 numbers, this one has %d", k);
        return 1;
    }
    for (int row = 0; row < k; row++) {
        int got = k;
        if (row > 0) {
            int rc = next_row(in, &p);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                snprintf(r->error, sizeof(r->error), "grid has %d rows, %d expected", row, k);
                return 1;
            }
            if (in->has_nul || in->is_long) {
                r->line = in->line_no;
                snprintf(r->error, sizeof(r->error), "row %d %s", row + 1,
                         in->has_nul ? "holds a NUL byte" : "is too long");
                return 1;
            }
            got = row_values(p, vals, 26);
            r->is_compact &= is_compact_row(p);
            if (got != k && row == 1 && was_line)
                return lone_row(in, r, k);
        }
        if (got != k) {
            r->line = in->line_no; /* reported at the row's own line */
            skip_rows(in, k - row - 1);
            if (got < 0)
                snprintf(r->error, sizeof(r->error), "row %d is not a grid row", row + 1);
            else
                snprintf(r->error, sizeof(r->error), "row %d has %d numbers, %d expected", row + 1,
                         got, k);
            return 1;
        }
        len = put_row(text, len, sizeof(text), vals, k);
        if (len == 0) {
            snprintf(r->error, sizeof(r->error), "grid row %d is too long", row + 1);
            return 1;
        }
    }
    if (codec_parse_judge(text, len, &r->n, r->cells, r->error, sizeof(r->error)) < 0 &&
        !r->error[0])
        snprintf(r->error, sizeof(r->error), "not a valid grid");
    return 1;
}

int input_next(struct input *in, struct input_record *r)
{
    const char *p = NULL;
    do {
        int rc = read_line(in);
        if (rc <= 0)
            return rc;
    } while (!(p = content(in)) ||
             ((is_rule(p) || is_csv_header(p)) && !in->is_long && !in->has_nul));
    memset(r, 0, offsetof(struct input_record, cells));
    r->error[0] = '\0';
    r->line = in->line_no;
    if (in->is_long) {
        r->format = in->format == INPUT_GRID ? INPUT_GRID : INPUT_LINE;
        snprintf(r->error, sizeof(r->error), "line longer than %d bytes", INPUT_LINE_MAX);
        return 1;
    }
    if (in->has_nul) {
        r->format = in->format == INPUT_GRID ? INPUT_GRID : INPUT_LINE;
        snprintf(r->error, sizeof(r->error), "line holds a NUL byte");
        return 1;
    }
    if (*p == '{' &&
        in->takes_json) { /* JSON lines: read by the tool; the form of the next is unchanged */
        r->format = INPUT_JSON;
        r->text = p;
        r->len = strlen(p);
        return 1;
    }
    int was_line = in->format == INPUT_LINE;
    if (in->is_auto)
        in->format = detect(p);
    return in->format == INPUT_GRID ? read_grid_record(in, p, r, in->is_auto && was_line)
                                    : read_line_record(p, r);
}
