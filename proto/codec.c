/* codec.c -- puzzle text formats: the one-line form and the judge grid.
 *
 * Both parsers take any bytes (NULs, binary, megabytes of junk) and never
 * read past len.  They work in two passes: the first counts cells, which
 * decides the side n; the second stores them and reports the first bad one
 * by its 1-based cell position and row/column.  When the count fits no side,
 * a symbol that is bad for every side is reported first (it is usually the
 * real mistake, e.g. commas between cells), else the count.
 *
 * What is not here: the rules (grid_check_givens() in core/grid.c) and the wire
 * forms (msgpack strings and arrays, handled by the protocol code).
 */
#include "proto/codec.h"
#include "util/errtext.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/side.h"

#define SIZES_TEXT  "16 (4x4), 81 (9x9), 256 (16x16) or 625 (25x25)"
#define TOKEN_SHOWN 12 /* judge tokens longer than this are cut in messages */

/* Byte classes of the line form, one table lookup per byte on the daemon's
 * hot path: 0 not a symbol, SYM_SPACE whitespace, else the value plus one
 * (1 blank, 2..26 for 1..25). */
#define SYM_SPACE 0x80
#define SYM_DIGITS(base)                                                                           \
    [(base) + 0] = 2, [(base) + 1] = 3, [(base) + 2] = 4, [(base) + 3] = 5, [(base) + 4] = 6,      \
              [(base) + 5] = 7, [(base) + 6] = 8, [(base) + 7] = 9, [(base) + 8] = 10
#define SYM_LETTERS(base)                                                                          \
    [(base) + 0] = 11, [(base) + 1] = 12, [(base) + 2] = 13, [(base) + 3] = 14, [(base) + 4] = 15, \
              [(base) + 5] = 16, [(base) + 6] = 17, [(base) + 7] = 18, [(base) + 8] = 19,          \
              [(base) + 9] = 20, [(base) + 10] = 21, [(base) + 11] = 22, [(base) + 12] = 23,       \
              [(base) + 13] = 24, [(base) + 14] = 25, [(base) + 15] = 26

static const uint8_t symbol_class[256] = {
    [' '] = SYM_SPACE,  ['\t'] = SYM_SPACE, ['\n'] = SYM_SPACE, ['\r'] = SYM_SPACE,
    ['\v'] = SYM_SPACE, ['\f'] = SYM_SPACE, ['.'] = 1,          ['0'] = 1,
    SYM_DIGITS('1'),    SYM_LETTERS('A'),   SYM_LETTERS('a'),
};

static int is_space(char c)
{
    return symbol_class[(unsigned char)c] == SYM_SPACE;
}

/* Value of a symbol regardless of side: 0 blank, 1..25, or -1. */
static int symbol_raw_value(char c)
{
    unsigned k = symbol_class[(unsigned char)c];

    return k == 0 || k == SYM_SPACE ? -1 : (int)k - 1;
}

int codec_symbol_value(unsigned n, char c)
{
    int v;

    if (!grid_side_ok(n))
        return -1;
    v = symbol_raw_value(c);
    if (v < 0 || (unsigned)v > n)
        return -1;
    return v;
}

/* The symbol of each value 1..25 (index 0 is never used). */
static const char value_symbols[] = "?123456789ABCDEFGHIJKLMNOP";

char codec_value_symbol(unsigned v, enum codec_blank blank)
{
    if (v == 0)
        return (char)blank;
    return v <= 25 ? value_symbols[v] : '?';
}

/* The symbols allowed for side n, for messages. */
static const char *symbol_range(unsigned n)
{
    switch (n) {
    case 4:
        return "1-4";
    case 9:
        return "1-9";
    case 16:
        return "1-9, A-G";
    default:
        return "1-9, A-P";
    }
}

/* A symbol as it should appear in a message: 'H' or byte 0x00. */
static void show_symbol(char c, char *out, size_t out_size)
{
    unsigned char u = (unsigned char)c;

    if (u >= 0x21 && u <= 0x7e && u != '\'')
        snprintf(out, out_size, "'%c'", c);
    else
        snprintf(out, out_size, "byte 0x%02x", u);
}

/* " (row R, column C)" for cell index pos of side n, or "" when n is 0. */
static void show_where(unsigned n, size_t pos, char *out, size_t out_size)
{
    if (n == 0)
        out[0] = '\0';
    else
        snprintf(out, out_size, " (row %zu, column %zu)", pos / n + 1, pos % n + 1);
}

/* ------------------------------------------------------------------ */
/* Line form                                                          */

/* Report symbol c, the cell at 0-based position pos, as bad for side n (0
 * when the side is not known yet). */
static int line_bad_symbol(unsigned n, char c, size_t pos, char *err, size_t err_size)
{
    char sym[16], where[64];

    show_symbol(c, sym, sizeof(sym));
    show_where(n, pos, where, sizeof(where));
    if (symbol_raw_value(c) < 0)
        return errtext_fail(err, err_size,
                            "symbol %s at position %zu%s is not a sudoku symbol"
                            " ('.' or '0' for a blank, 1-9 then A-P)",
                            sym, pos + 1, where);
    return errtext_fail(err, err_size, "symbol %s at position %zu%s is out of range for %ux%u (%s)",
                        sym, pos + 1, where, n, n, symbol_range(n));
}

/* Pass 1: count the cells and find the first symbol bad for every side. */
static size_t line_count(const char *s, size_t len, size_t *bad_pos, char *bad_sym)
{
    size_t i, count = 0;

    *bad_pos = (size_t)-1;
    for (i = 0; i < len; i++) {
        if (is_space(s[i]))
            continue;
        if (*bad_pos == (size_t)-1 && symbol_raw_value(s[i]) < 0) {
            *bad_pos = count;
            *bad_sym = s[i];
        }
        count++;
    }
    return count;
}

/* The common case in one pass: every byte a symbol or whitespace, a valid
 * cell count, every value within the side.  Returns the side, or 0 when the
 * input needs the careful path (which also finds the error to report). */
/* Eight bytes at a time (SWAR): each byte of a uint64_t is handled on its
 * own, no carry or borrow ever crossing into the next, so the byte order of
 * the machine does not matter. */
#define ONES  0x0101010101010101u
#define HIGHS 0x8080808080808080u
#define LOW7  0x7f7f7f7f7f7f7f7fu

/* High bit of each byte of x set where that byte is >= lo; x's bytes must
 * all be below 0x80. */
static uint64_t bytes_ge(uint64_t x, unsigned lo)
{
    return (x + (0x80u - lo) * ONES) & HIGHS;
}

/* High bit of each byte of x set where that byte is zero. */
static uint64_t bytes_zero(uint64_t x)
{
    return ~(((x & LOW7) + LOW7) | x) & HIGHS;
}

/* Bytes 0xff where mask (high bits, as above) is set, else 0. */
static uint64_t bytes_mask(uint64_t mask)
{
    return (mask >> 7) * 0xffu;
}

/* Eight symbols of a line for a side up to 9: '.' and '0' to '0' + side.
 * Returns 1 and their values in *values, or 0 for anything else. */
static int line_word(uint64_t w, unsigned side, uint64_t *values)
{
    uint64_t dot, digit, dots;

    if (w & HIGHS)
        return 0;
    dot = bytes_zero(w ^ ('.' * ONES));
    digit = bytes_ge(w, '0') & ~bytes_ge(w, '0' + side + 1);
    if ((dot | digit) != HIGHS)
        return 0;
    dots = bytes_mask(dot);
    *values = ((w & ~dots) | ('0' * ONES & dots)) - '0' * ONES;
    return 1;
}

/* A line of exactly 16 or 81 symbols, no whitespace, eight at a time.
 * Returns 1 with cells filled, or 0 (cells partly written). */
static int line_small(const char *s, size_t len, unsigned side, uint8_t *cells)
{
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64_t w, v;
        memcpy(&w, s + i, 8);
        if (!line_word(w, side, &v))
            return 0;
        memcpy(cells + i, &v, 8);
    }
    for (; i < len; i++) {
        unsigned v = (uint8_t)(symbol_class[(unsigned char)s[i]] - 1);
        if (v > side)
            return 0;
        cells[i] = (uint8_t)v;
    }
    return 1;
}

static unsigned line_fast(const char *s, size_t len, uint8_t *cells)
{
    size_t i, pos = 0;
    unsigned top = 0, side = grid_side_for_cells(len);

    if (side != 0 && side <= 9 && line_small(s, len, side, cells))
        return side;
    if (side != 0) {
        /* No whitespace (the usual line): a non-symbol's class minus one is
         * 0xff, a space's 0x7f, both above any side. */
        for (i = 0; i < len; i++) {
            unsigned v = (uint8_t)(symbol_class[(unsigned char)s[i]] - 1);
            cells[i] = (uint8_t)v;
            top = v > top ? v : top;
        }
        if (top <= side)
            return side;
        top = 0;
    }
    for (i = 0; i < len; i++) {
        unsigned k = symbol_class[(unsigned char)s[i]];
        if (k == SYM_SPACE)
            continue;
        if (k == 0 || pos == SDK_MAX_CELLS)
            return 0;
        cells[pos++] = (uint8_t)(k - 1);
        top = k > top ? k : top;
    }
    side = grid_side_for_cells(pos);
    return side != 0 && top <= side + 1 ? side : 0;
}

int codec_parse_line(const char *s, size_t len, unsigned *n, uint8_t *cells, char *err,
                     size_t err_size)
{
    size_t i, count, pos = 0, bad_pos;
    char bad_sym = 0;
    unsigned side;
    int v;

    if ((s == NULL && len > 0) || n == NULL || cells == NULL)
        return errtext_fail(err, err_size, "no puzzle");
    side = line_fast(s, len, cells);
    if (side != 0) {
        *n = side;
        return 0;
    }
    count = line_count(s, len, &bad_pos, &bad_sym);
    side = grid_side_for_cells(count);
    if (side == 0 && bad_pos != (size_t)-1)
        return line_bad_symbol(0, bad_sym, bad_pos, err, err_size);
    if (side == 0)
        return errtext_fail(err, err_size, "got %zu cells: a puzzle has " SIZES_TEXT, count);
    for (i = 0; i < len; i++) {
        if (is_space(s[i]))
            continue;
        v = codec_symbol_value(side, s[i]);
        if (v < 0)
            return line_bad_symbol(side, s[i], pos, err, err_size);
        cells[pos++] = (uint8_t)v;
    }
    *n = side;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Judge form                                                         */

/* One whitespace-separated token: where it is and what it says. */
struct token {
    const char *text;
    size_t len;
    unsigned value; /* saturates at 1000: anything above n is out of range */
    int is_number;  /* only decimal digits */
};

/* Read the token starting at s[*i] (not whitespace) and move *i past it. */
static void judge_token(const char *s, size_t len, size_t *i, struct token *t)
{
    t->text = s + *i;
    t->len = 0;
    t->value = 0;
    t->is_number = 1;
    while (*i < len && !is_space(s[*i])) {
        char c = s[*i];

        if (c >= '0' && c <= '9') {
            if (t->value < 1000)
                t->value = t->value * 10 + (unsigned)(c - '0');
        } else {
            t->is_number = 0;
        }
        t->len++;
        (*i)++;
    }
}

/* A token as it should appear in a message: printable ASCII kept, anything
 * else as '?', cut after TOKEN_SHOWN characters. */
static void show_token(const char *text, size_t len, char *out, size_t out_size)
{
    size_t i, k = 0;

    for (i = 0; i < len && i < TOKEN_SHOWN && k + 4 < out_size; i++) {
        unsigned char u = (unsigned char)text[i];

        out[k++] = (u >= 0x20 && u <= 0x7e) ? (char)u : '?';
    }
    if (len > TOKEN_SHOWN && k + 4 < out_size) {
        out[k++] = '.';
        out[k++] = '.';
        out[k++] = '.';
    }
    out[k] = '\0';
}

/* 1 when the token is '-' followed by one or more digits. */
static int token_is_negative(const struct token *t)
{
    size_t i;

    if (t->len < 2 || t->text[0] != '-')
        return 0;
    for (i = 1; i < t->len; i++) {
        if (t->text[i] < '0' || t->text[i] > '9')
            return 0;
    }
    return 1;
}

static int judge_bad_token(unsigned n, const struct token *t, size_t pos, char *err,
                           size_t err_size)
{
    char text[TOKEN_SHOWN + 8], where[64];

    show_token(t->text, t->len, text, sizeof(text));
    show_where(n, pos, where, sizeof(where));
    if (token_is_negative(t))
        return errtext_fail(err, err_size,
                            "number '%s' at position %zu%s is negative: use 0 for a blank", text,
                            pos + 1, where);
    if (t->is_number == 0)
        return errtext_fail(err, err_size, "'%s' at position %zu%s is not a decimal number", text,
                            pos + 1, where);
    return errtext_fail(err, err_size,
                        "number %s at position %zu%s is out of range for %ux%u (0-%u)", text,
                        pos + 1, where, n, n, n);
}

/* Pass 1: count the tokens and find the first one that is not a number. */
static size_t judge_count(const char *s, size_t len, size_t *bad_pos, struct token *bad)
{
    size_t i = 0, count = 0;
    struct token t;

    *bad_pos = (size_t)-1;
    while (i < len) {
        if (is_space(s[i])) {
            i++;
            continue;
        }
        judge_token(s, len, &i, &t);
        if (*bad_pos == (size_t)-1 && !t.is_number) {
            *bad_pos = count;
            *bad = t;
        }
        count++;
    }
    return count;
}

int codec_parse_judge(const char *s, size_t len, unsigned *n, uint8_t *cells, char *err,
                      size_t err_size)
{
    size_t i = 0, count, pos = 0, bad_pos;
    struct token t, bad = {0};
    unsigned side;

    if ((s == NULL && len > 0) || n == NULL || cells == NULL)
        return errtext_fail(err, err_size, "no puzzle");
    count = judge_count(s, len, &bad_pos, &bad);
    side = grid_side_for_cells(count);
    if (side == 0 && bad_pos != (size_t)-1)
        return judge_bad_token(0, &bad, bad_pos, err, err_size);
    if (side == 0)
        return errtext_fail(err, err_size, "got %zu numbers: a puzzle has " SIZES_TEXT, count);
    while (i < len) {
        if (is_space(s[i])) {
            i++;
            continue;
        }
        judge_token(s, len, &i, &t);
        if (!t.is_number || t.value > side)
            return judge_bad_token(side, &t, pos, err, err_size);
        cells[pos++] = (uint8_t)t.value;
    }
    *n = side;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Formatting                                                         */

/* Eight cells of values up to 9 as digits, blanks as blank.  Returns 1,
 * or 0 (nothing written) when a value is above 9. */
static int format_word(const uint8_t *cells, char blank, char *out)
{
    uint64_t w, blanks;

    memcpy(&w, cells, 8);
    if (((((w & LOW7) + (0x7fu - 9) * ONES) | w) & HIGHS) != 0)
        return 0;
    blanks = bytes_mask(bytes_zero(w));
    w = ((w + '0' * ONES) & ~blanks) | ((uint64_t)(unsigned char)blank * ONES & blanks);
    memcpy(out, &w, 8);
    return 1;
}

int codec_format_line(unsigned n, const uint8_t *cells, enum codec_blank blank, char *out,
                      size_t out_size)
{
    unsigned i;

    if (!grid_side_ok(n) || cells == NULL || out == NULL)
        return -EINVAL;
    if (out_size < (size_t)n * n + 1)
        return -ENOSPC;
    /* No call per cell: eight digits at a time, else a table look-up and a
     * select. */
    if (blank == CODEC_BLANK_DOT || blank == CODEC_BLANK_ZERO) {
        const char *t =
            blank == CODEC_BLANK_DOT ? ".123456789ABCDEFGHIJKLMNOP" : "0123456789ABCDEFGHIJKLMNOP";
        for (i = 0; i + 8 <= n * n && format_word(cells + i, (char)blank, out + i); i += 8)
            ;
        for (; i < n * n; i++) {
            unsigned v = cells[i];
            out[i] = v <= 25 ? t[v] : '?';
        }
    } else {
        for (i = 0; i < n * n; i++)
            out[i] = codec_value_symbol(cells[i], blank);
    }
    out[n * n] = '\0';
    return (int)(n * n);
}

/* Append v (0..255) and a separator at out[*k], if it fits before the NUL. */
static int put_number(unsigned v, char sep, char *out, size_t out_size, size_t *k)
{
    char tmp[4];
    int w = snprintf(tmp, sizeof(tmp), "%u", v);

    if (*k + (size_t)w + 1 >= out_size)
        return -ENOSPC;
    for (int j = 0; j < w; j++)
        out[(*k)++] = tmp[j];
    out[(*k)++] = sep;
    return 0;
}

int codec_format_judge(unsigned n, const uint8_t *cells, char *out, size_t out_size)
{
    size_t k = 0;
    unsigned i;

    if (!grid_side_ok(n) || cells == NULL || out == NULL)
        return -EINVAL;
    for (i = 0; i < n * n; i++) {
        if (put_number(cells[i], i % n == n - 1 ? '\n' : ' ', out, out_size, &k) < 0)
            return -ENOSPC;
    }
    out[k] = '\0';
    return (int)k;
}
