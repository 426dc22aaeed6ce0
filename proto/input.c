/* input.c -- read puzzles for the sudoku tool and the bench, line or grid form.
 *
 * Lines come through a fixed buffer; a line longer than INPUT_LINE_MAX is
 * skipped to its end and reported as a bad record, so a hostile input cannot
 * make the tool grow.  Blank lines and lines starting with '#' separate
 * puzzles in both forms.  Detection: the first puzzle line is a grid row when
 * it holds 2 or more whitespace-separated decimal numbers and their count is
 * a side (4, 9, 16, 25); anything else is the line form.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto/codec.h"
#include "proto/input.h"

int input_open(struct input *in, const char *path, enum input_format format)
{
    memset(in, 0, sizeof(*in));
    in->name = path;
    in->format = format;
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

/* Read one line into in->line without its newline.  Every byte is counted,
 * NUL bytes too (they are flagged: no puzzle holds one); bytes beyond
 * INPUT_LINE_MAX are counted and dropped.  Returns 1, 0 at EOF or a negative
 * errno. */
static int read_line(struct input *in)
{
    size_t len = 0, total = 0;
    int ch, has_nul = 0;

    while ((ch = getc_unlocked(in->f)) != EOF && ch != '\n') {
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

/* How many tokens a grid row has: -1 when one is not a decimal number. */
static int count_numbers(const char *p)
{
    int count = 0;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p && !isspace((unsigned char)*p))
            return -1;
        count++;
    }
    return count;
}

static int is_side(int k)
{
    return k == 4 || k == 9 || k == 16 || k == 25;
}

static void detect(struct input *in, const char *p)
{
    int k = count_numbers(p);
    in->format = k >= 2 && is_side(k) ? INPUT_GRID : INPUT_LINE;
}

static int read_line_record(struct input *in, const char *p, struct input_record *r)
{
    r->format = INPUT_LINE;
    r->text = p;
    r->len = in->line_len - (size_t)(p - in->line);
    int lower = 0, upper = 0;
    for (size_t i = 0; i < r->len; i++) {
        lower |= islower((unsigned char)p[i]) != 0;
        upper |= isupper((unsigned char)p[i]) != 0;
    }
    r->is_lower = lower && !upper;
    return 1;
}

/* Gather the n rows of a grid into text and parse them. */
static int read_grid_record(struct input *in, const char *p, struct input_record *r)
{
    char text[25 * (INPUT_LINE_MAX / 8)];
    int k = count_numbers(p);
    r->format = INPUT_GRID;
    if (k < 0) {
        snprintf(r->error, sizeof(r->error),
                 "not a grid row: expected numbers separated by spaces");
        return 1;
    }
    if (!is_side(k)) {
        snprintf(r->error, sizeof(r->error),
                 "a grid row has 4, 9, 16 or 25 numbers separated by spaces, this one has %d", k);
        return 1;
    }
    size_t len = 0;
    for (int row = 0; row < k; row++) {
        if (row > 0) {
            int rc = read_line(in);
            if (rc < 0)
                return rc;
            if (rc == 0 || !(p = content(in))) {
                snprintf(r->error, sizeof(r->error), "grid has %d rows, %d expected", row, k);
                return 1;
            }
        }
        size_t l = strlen(p);
        if (in->has_nul) {
            snprintf(r->error, sizeof(r->error), "grid row %d holds a NUL byte", row + 1);
            return 1;
        }
        if (in->is_long || len + l + 2 > sizeof(text)) {
            snprintf(r->error, sizeof(r->error), "grid row %d is too long", row + 1);
            return 1;
        }
        memcpy(text + len, p, l);
        len += l;
        text[len++] = '\n';
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
    } while (!(p = content(in)));
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
    if (in->format == INPUT_AUTO)
        detect(in, p);
    return in->format == INPUT_GRID ? read_grid_record(in, p, r) : read_line_record(in, p, r);
}
