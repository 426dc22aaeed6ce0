/* test_codec.c -- the puzzle text formats: line form and judge form.
 *
 * Table-driven: every bad-input class of the issue (wrong count for each
 * size, symbols bad for every size, symbols out of range for one size, judge
 * tokens that are not numbers, negative or too large, empty input), each with
 * the exact message it must produce; then round trips of generated grids of
 * every side through both forms.  Inputs are copied into heap buffers of
 * exactly their length so that AddressSanitizer catches any read past len.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "proto/codec.h"
#include "test_rng.h"

#define SIZES "a puzzle has 16 (4x4), 81 (9x9), 256 (16x16) or 625 (25x25)"

typedef int parse_fn(const char *s, size_t len, unsigned *n, uint8_t *cells, char *err,
                     size_t err_size);

/* Parse exactly len bytes held in a heap buffer of that size.  Returns the
 * parser's result; err gets the message. */
static int parse_exact(parse_fn *parse, const char *s, size_t len, unsigned *n, uint8_t *cells,
                       char *err, size_t err_size)
{
    char *copy = malloc(len ? len : 1);
    int rc;

    assert_non_null(copy);
    memcpy(copy, s, len);
    rc = parse(copy, len, n, cells, err, err_size);
    free(copy);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Line form: bad inputs built as `cells` blanks with `sym` at `pos`.  */

struct line_case {
    size_t cells; /* number of symbols in the input */
    size_t pos;   /* 0-based position of sym, or (size_t)-1 for none */
    char sym;     /* the symbol placed there */
    const char *want;
};

static const struct line_case line_cases[] = {
    /* empty input */
    {0, (size_t)-1, 0, "got 0 cells: " SIZES},
    /* one short and one over for every size */
    {15, (size_t)-1, 0, "got 15 cells: " SIZES},
    {17, (size_t)-1, 0, "got 17 cells: " SIZES},
    {80, (size_t)-1, 0, "got 80 cells: " SIZES},
    {82, (size_t)-1, 0, "got 82 cells: " SIZES},
    {255, (size_t)-1, 0, "got 255 cells: " SIZES},
    {257, (size_t)-1, 0, "got 257 cells: " SIZES},
    {624, (size_t)-1, 0, "got 624 cells: " SIZES},
    {626, (size_t)-1, 0, "got 626 cells: " SIZES},
    /* a huge input is a count error, not a crash */
    {1 << 20, (size_t)-1, 0, "got 1048576 cells: " SIZES},
    /* out of range for 4x4, 9x9, 16x16 and 25x25, upper and lower case */
    {16, 5, '5', "symbol '5' at position 6 (row 2, column 2) is out of range for 4x4 (1-4)"},
    {81, 0, 'A', "symbol 'A' at position 1 (row 1, column 1) is out of range for 9x9 (1-9)"},
    {81, 80, 'a', "symbol 'a' at position 81 (row 9, column 9) is out of range for 9x9 (1-9)"},
    {256, 11, 'H',
     "symbol 'H' at position 12 (row 1, column 12) is out of range for 16x16 (1-9, A-G)"},
    {256, 17, 'p',
     "symbol 'p' at position 18 (row 2, column 2) is out of range for 16x16 (1-9, A-G)"},
    /* 'Q' is past P: bad for every size */
    {625, 624, 'Q',
     "symbol 'Q' at position 625 (row 25, column 25) is not a sudoku symbol ('.' or '0' for a "
     "blank, 1-9 then A-P)"},
    /* 'q' is past p: bad for every size, not merely out of range */
    {625, 3, 'q',
     "symbol 'q' at position 4 (row 1, column 4) is not a sudoku symbol ('.' or '0' for a "
     "blank, 1-9 then A-P)"},
    /* punctuation, a NUL byte and a high byte, with a valid count */
    {81, 9, '#',
     "symbol '#' at position 10 (row 2, column 1) is not a sudoku symbol ('.' or '0' for a blank, "
     "1-9 then A-P)"},
    {81, 40, '\0',
     "symbol byte 0x00 at position 41 (row 5, column 5) is not a sudoku symbol ('.' or '0' for a "
     "blank, 1-9 then A-P)"},
    {16, 0, '\xff',
     "symbol byte 0xff at position 1 (row 1, column 1) is not a sudoku symbol ('.' or '0' for a "
     "blank, 1-9 then A-P)"},
    /* a bad symbol with a wrong count: the symbol is named, by position only */
    {30, 2, ',',
     "symbol ',' at position 3 is not a sudoku symbol ('.' or '0' for a blank, 1-9 then A-P)"},
};

static void test_line_bad(void **state)
{
    uint8_t cells[SDK_MAX_CELLS];
    char err[256];
    unsigned n = 0;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(line_cases) / sizeof(line_cases[0]); i++) {
        const struct line_case *t = &line_cases[i];
        char *s = malloc(t->cells ? t->cells : 1);

        assert_non_null(s);
        memset(s, '.', t->cells);
        if (t->pos != (size_t)-1)
            s[t->pos] = t->sym;
        err[0] = '\0';
        assert_int_equal(parse_exact(codec_parse_line, s, t->cells, &n, cells, err, sizeof(err)),
                         -EINVAL);
        assert_string_equal(err, t->want);
        free(s);
    }
}

/* Whitespace anywhere, '0' and '.' blanks, lower case letters. */
static void test_line_spacing_and_case(void **state)
{
    static const char spaced[] = "\n 1 2 . 4\t\r\n"
                                 "3 0 1 2\v\f"
                                 "  2 1 4 3  \n"
                                 "4 3 2 1\n\n";
    uint8_t cells[SDK_MAX_CELLS], upper[SDK_MAX_CELLS];
    char line[626], err[256];
    unsigned n = 0;
    size_t i;

    (void)state;
    assert_int_equal(
        parse_exact(codec_parse_line, spaced, strlen(spaced), &n, cells, err, sizeof(err)), 0);
    assert_int_equal(n, 4);
    assert_int_equal(cells[0], 1);
    assert_int_equal(cells[2], 0);
    assert_int_equal(cells[5], 0);
    assert_int_equal(cells[15], 1);
    /* 25x25 in lower case parses like upper case */
    for (i = 0; i < 625; i++)
        line[i] = codec_value_symbol((unsigned)(i % 26), CODEC_BLANK_DOT);
    assert_int_equal(parse_exact(codec_parse_line, line, 625, &n, upper, err, sizeof(err)), 0);
    for (i = 0; i < 625; i++)
        if (line[i] >= 'A' && line[i] <= 'P')
            line[i] = (char)(line[i] - 'A' + 'a');
    assert_int_equal(parse_exact(codec_parse_line, line, 625, &n, cells, err, sizeof(err)), 0);
    assert_int_equal(n, 25);
    assert_memory_equal(cells, upper, 625);
    for (i = 0; i < 625; i++)
        assert_int_equal(cells[i], i % 26);
}

/* Arguments: NULL pointers and a NULL error buffer. */
static void test_line_args(void **state)
{
    uint8_t cells[SDK_MAX_CELLS];
    unsigned n;

    (void)state;
    /* NULL input with zero length is the empty puzzle */
    assert_int_equal(codec_parse_line(NULL, 0, &n, cells, NULL, 0), -EINVAL);
    /* no room for the result */
    assert_int_equal(codec_parse_line("1234341221434321", 16, &n, NULL, NULL, 0), -EINVAL);
    assert_int_equal(codec_parse_judge("1 2", 3, NULL, cells, NULL, 0), -EINVAL);
    /* a valid puzzle with no error buffer */
    assert_int_equal(codec_parse_line("1234341221434321", 16, &n, cells, NULL, 0), 0);
    assert_int_equal(n, 4);
}

/* ------------------------------------------------------------------ */
/* Judge form                                                          */

struct judge_case {
    size_t count;    /* number of tokens; all "0" but one */
    size_t pos;      /* 0-based index of the odd token, or (size_t)-1 */
    const char *tok; /* the odd token */
    const char *want;
};

static const struct judge_case judge_cases[] = {
    /* empty input */
    {0, (size_t)-1, NULL, "got 0 numbers: " SIZES},
    /* wrong counts, one per size */
    {15, (size_t)-1, NULL, "got 15 numbers: " SIZES},
    {80, (size_t)-1, NULL, "got 80 numbers: " SIZES},
    {257, (size_t)-1, NULL, "got 257 numbers: " SIZES},
    {626, (size_t)-1, NULL, "got 626 numbers: " SIZES},
    /* too large for each size */
    {16, 3, "5", "number 5 at position 4 (row 1, column 4) is out of range for 4x4 (0-4)"},
    {81, 10, "10", "number 10 at position 11 (row 2, column 2) is out of range for 9x9 (0-9)"},
    {256, 255, "17",
     "number 17 at position 256 (row 16, column 16) is out of range for 16x16 (0-16)"},
    {625, 0, "26", "number 26 at position 1 (row 1, column 1) is out of range for 25x25 (0-25)"},
    /* a number that overflows any integer type */
    {81, 1, "99999999999999999999999",
     "number 999999999999... at position 2 (row 1, column 2) is out of range for 9x9 (0-9)"},
    /* 2^32 must not wrap around to 0 (a blank) */
    {81, 2, "4294967296",
     "number 4294967296 at position 3 (row 1, column 3) is out of range for 9x9 (0-9)"},
    /* leading zeros are still decimal */
    {16, 0, "0004", NULL},
    /* negative numbers */
    {81, 4, "-1", "number '-1' at position 5 (row 1, column 5) is negative: use 0 for a blank"},
    /* not numbers: a letter, a dot, a decimal fraction, a sign alone, a hex number */
    {81, 0, "x", "'x' at position 1 (row 1, column 1) is not a decimal number"},
    {81, 0, ".", "'.' at position 1 (row 1, column 1) is not a decimal number"},
    {81, 0, "1.5", "'1.5' at position 1 (row 1, column 1) is not a decimal number"},
    {16, 0, "-", "'-' at position 1 (row 1, column 1) is not a decimal number"},
    {16, 15, "0x1", "'0x1' at position 16 (row 4, column 4) is not a decimal number"},
    /* binary junk, shown as '?' */
    {16, 2, "\x01\xfe",
     "'?"
     "?' at position 3 (row 1, column 3) is not a decimal number"},
    /* not a number with a wrong count: named by position only */
    {3, 1, "abc", "'abc' at position 2 is not a decimal number"},
};

/* Build "0 0 ... tok ... 0\n" as a heap string; the caller frees it. */
static char *judge_input(const struct judge_case *t, size_t *len)
{
    size_t tok_len = t->tok ? strlen(t->tok) : 0, cap = t->count * 2 + tok_len + 1, k = 0;
    char *s = malloc(cap);

    assert_non_null(s);
    for (size_t i = 0; i < t->count; i++) {
        if (i == t->pos) {
            memcpy(s + k, t->tok, tok_len);
            k += tok_len;
        } else {
            s[k++] = '0';
        }
        s[k++] = (i + 1) % 9 == 0 ? '\n' : ' ';
    }
    *len = k;
    return s;
}

static void test_judge_bad(void **state)
{
    uint8_t cells[SDK_MAX_CELLS];
    char err[256];
    unsigned n = 0;
    size_t i, len;

    (void)state;
    for (i = 0; i < sizeof(judge_cases) / sizeof(judge_cases[0]); i++) {
        const struct judge_case *t = &judge_cases[i];
        char *s = judge_input(t, &len);

        err[0] = '\0';
        int rc = parse_exact(codec_parse_judge, s, len, &n, cells, err, sizeof(err));
        if (t->want == NULL) {
            assert_int_equal(rc, 0);
            assert_int_equal(cells[t->pos], 4);
        } else {
            assert_int_equal(rc, -EINVAL);
            assert_string_equal(err, t->want);
        }
        free(s);
    }
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */

static unsigned box_of(unsigned n)
{
    return n == 4 ? 2 : n == 9 ? 3 : n == 16 ? 4 : 5;
}

/* A valid puzzle of side n: a shifted-rows solution with some cells blank. */
static void make_puzzle(unsigned n, uint8_t *cells)
{
    unsigned b = box_of(n), r, c;

    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            cells[r * n + c] =
                (r * 7 + c * 3) % 5 == 0 ? 0 : (uint8_t)((b * (r % b) + r / b + c) % n + 1);
}

static void test_round_trips(void **state)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    uint8_t grid[SDK_MAX_CELLS], back[SDK_MAX_CELLS];
    char text[SDK_MAX_CELLS * 3 + 1], err[256];
    unsigned n;
    int len;

    (void)state;
    for (size_t i = 0; i < 4; i++) {
        unsigned side = sides[i];

        make_puzzle(side, grid);
        assert_int_equal(grid_check_givens(side, grid, err, sizeof(err)), 0);
        /* line form with '.' blanks */
        len = codec_format_line(side, grid, CODEC_BLANK_DOT, text, sizeof(text));
        assert_int_equal(len, side * side);
        assert_int_equal(strlen(text), (size_t)len);
        assert_null(strchr(text, '0'));
        assert_int_equal(
            parse_exact(codec_parse_line, text, (size_t)len, &n, back, err, sizeof(err)), 0);
        assert_int_equal(n, side);
        assert_memory_equal(back, grid, side * side);
        /* line form with '0' blanks */
        len = codec_format_line(side, grid, CODEC_BLANK_ZERO, text, sizeof(text));
        assert_null(strchr(text, '.'));
        assert_int_equal(
            parse_exact(codec_parse_line, text, (size_t)len, &n, back, err, sizeof(err)), 0);
        assert_memory_equal(back, grid, side * side);
        /* judge form: n lines */
        len = codec_format_judge(side, grid, text, sizeof(text));
        assert_true(len > 0);
        assert_int_equal(strlen(text), (size_t)len);
        assert_int_equal(text[len - 1], '\n');
        assert_int_equal(
            parse_exact(codec_parse_judge, text, (size_t)len, &n, back, err, sizeof(err)), 0);
        assert_int_equal(n, side);
        assert_memory_equal(back, grid, side * side);
    }
}

/* The line form of every byte value, blank symbol both ways, is the
 * symbol codec_value_symbol() names for it ('?' above 25). */
static void test_format_every_value(void **state)
{
    static const enum codec_blank blanks[] = {CODEC_BLANK_DOT, CODEC_BLANK_ZERO};
    uint8_t cells[256];
    char text[256 + 1];

    (void)state;
    for (unsigned b = 0; b < 2; b++) {
        for (unsigned start = 0; start < 256; start += 16) {
            for (unsigned i = 0; i < 16; i++)
                cells[i] = (uint8_t)(start + i);
            assert_int_equal(codec_format_line(4, cells, blanks[b], text, sizeof(text)), 16);
            for (unsigned i = 0; i < 16; i++)
                assert_int_equal(text[i], codec_value_symbol(cells[i], blanks[b]));
            assert_int_equal(text[16], '\0');
        }
    }
    assert_int_equal(codec_value_symbol(0, CODEC_BLANK_DOT), '.');
    assert_int_equal(codec_value_symbol(10, CODEC_BLANK_DOT), 'A');
    assert_int_equal(codec_value_symbol(26, CODEC_BLANK_DOT), '?');
}

/* The line parser against the definition: whitespace skipped, then 16,
 * 81, 256 or 625 symbols each within the side.  Returns 0 and fills
 * cells, or -EINVAL. */
static int reference_parse_line(const char *s, size_t len, unsigned *n, uint8_t *cells)
{
    size_t count = 0, pos = 0;
    unsigned side;

    for (size_t i = 0; i < len; i++)
        count += strchr(" \t\n\r\v\f", s[i]) == NULL || s[i] == '\0';
    side = count == 16 ? 4 : count == 81 ? 9 : count == 256 ? 16 : count == 625 ? 25 : 0;
    if (side == 0)
        return -EINVAL;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\0' && strchr(" \t\n\r\v\f", s[i]) != NULL)
            continue;
        int v = codec_symbol_value(side, s[i]);
        if (v < 0)
            return -EINVAL;
        cells[pos++] = (uint8_t)v;
    }
    *n = side;
    return 0;
}

static uint64_t line_rng = 88172645463325252u;

static unsigned line_rnd(unsigned bound)
{
    return test_rng_below(&line_rng, bound);
}

/* Random lines of every side: symbols in and out of range (upper and lower
 * case), a stray space or junk byte, a cell too many or too few. */
static void test_parse_line_random(void **state)
{
    static const unsigned counts[] = {16, 81, 256, 625};
    static const char pool[] = ".0123456789ABCDEFGPQZabcdefgpqz \t\n,-/:\x80\xff";
    static char line[700];
    uint8_t got[SDK_MAX_CELLS], want[SDK_MAX_CELLS];
    unsigned ok = 0, bad = 0;

    (void)state;
    for (unsigned t = 0; t < 20000; t++) {
        unsigned cells = counts[t % 4], top = t % 4 == 0 ? 5 : t % 4 == 1 ? 10 : 17;
        size_t len = cells + (t % 5 == 0 ? line_rnd(3) : 0) - (t % 7 == 0);
        unsigned gn = 0, wn = 0;

        if (t % 4 == 3)
            top = 26;
        for (size_t i = 0; i < len; i++) /* in range for the side: '.', 1.. */
            line[i] = ".123456789ABCDEFGHIJKLMNOP"[line_rnd(top)];
        for (unsigned k = t % 3; k > 0; k--) /* a few strays */
            line[line_rnd((unsigned)len)] = pool[line_rnd(sizeof(pool) - 1)];
        int wrc = reference_parse_line(line, len, &wn, want);
        int grc = codec_parse_line(line, len, &gn, got, NULL, 0);
        assert_int_equal(grc, wrc);
        if (wrc == 0) {
            assert_int_equal(gn, wn);
            assert_memory_equal(got, want, (size_t)wn * wn);
        }
        ok += wrc == 0;
        bad += wrc != 0;
    }
    /* both outcomes were exercised many times */
    assert_true(ok > 3000);
    assert_true(bad > 3000);
}

/* Random grids of every side whose values are mostly digits, some blank,
 * some above 9 or far out of range: each symbol is codec_value_symbol()'s. */
static void test_format_random(void **state)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    static const uint8_t odd[] = {0, 10, 9, 1, 25, 26, 127, 128, 255};
    uint8_t cells[SDK_MAX_CELLS];
    char text[SDK_MAX_CELLS + 1];

    (void)state;
    for (unsigned t = 0; t < 4000; t++) {
        unsigned n = sides[t % 4];
        enum codec_blank blank = t % 3 ? CODEC_BLANK_DOT : CODEC_BLANK_ZERO;
        for (unsigned i = 0; i < n * n; i++)
            cells[i] = line_rnd(40) == 0 ? odd[line_rnd(sizeof(odd))] : (uint8_t)line_rnd(10);
        assert_int_equal(codec_format_line(n, cells, blank, text, sizeof(text)), (int)(n * n));
        for (unsigned i = 0; i < n * n; i++)
            assert_int_equal(text[i], codec_value_symbol(cells[i], blank));
        assert_int_equal(text[n * n], '\0');
    }
}

static void test_format_limits(void **state)
{
    uint8_t grid[SDK_MAX_CELLS];
    char text[SDK_MAX_CELLS * 3 + 1];
    size_t lines = 0;
    int len;

    (void)state;
    make_puzzle(9, grid);
    /* line: exactly n*n + 1 fits, one less does not */
    assert_int_equal(codec_format_line(9, grid, CODEC_BLANK_DOT, text, 82), 81);
    assert_int_equal(codec_format_line(9, grid, CODEC_BLANK_DOT, text, 81), -ENOSPC);
    /* unsupported side */
    assert_int_equal(codec_format_line(8, grid, CODEC_BLANK_DOT, text, sizeof(text)), -EINVAL);
    assert_int_equal(codec_format_judge(8, grid, text, sizeof(text)), -EINVAL);
    /* judge: the exact length fits, one byte less does not */
    len = codec_format_judge(9, grid, text, sizeof(text));
    assert_true(len > 0);
    assert_int_equal(codec_format_judge(9, grid, text, (size_t)len + 1), len);
    assert_int_equal(codec_format_judge(9, grid, text, (size_t)len), -ENOSPC);
    assert_int_equal(codec_format_judge(9, grid, text, 0), -ENOSPC);
    /* judge: n lines; the documented bound n*n*3 + 1 holds for 25x25 */
    len = codec_format_judge(9, grid, text, sizeof(text));
    for (int i = 0; i < len; i++)
        lines += text[i] == '\n';
    assert_int_equal(lines, 9);
    for (size_t i = 0; i < 625; i++)
        grid[i] = 25;
    assert_true(codec_format_judge(25, grid, text, 25 * 25 * 3 + 1) > 0);
}

struct symbol_case {
    unsigned n;
    char c;
    int want;
};

static const struct symbol_case symbol_cases[] = {
    {4, '.', 0},   /* blank */
    {4, '0', 0},   /* blank */
    {4, '4', 4},   /* largest of 4x4 */
    {4, '5', -1},  /* one past */
    {9, '9', 9},   /* largest of 9x9 */
    {9, 'A', -1},  /* letters are not 9x9 */
    {16, 'g', 16}, /* lower case G */
    {16, 'H', -1}, /* one past G */
    {25, 'P', 25}, /* largest of 25x25 */
    {25, 'Q', -1}, /* past P */
    {25, 'q', -1}, /* past p */
    {25, '@', -1}, /* just before A */
    {25, '`', -1}, /* just before a */
    {25, ' ', -1}, /* whitespace is not a symbol */
    {7, '1', -1},  /* unsupported side */
};

static void test_symbols(void **state)
{
    size_t i;
    unsigned v;

    (void)state;
    for (i = 0; i < sizeof(symbol_cases) / sizeof(symbol_cases[0]); i++)
        assert_int_equal(codec_symbol_value(symbol_cases[i].n, symbol_cases[i].c),
                         symbol_cases[i].want);
    /* value -> symbol -> value for every value */
    for (v = 1; v <= 25; v++)
        assert_int_equal(codec_symbol_value(25, codec_value_symbol(v, CODEC_BLANK_DOT)), (int)v);
    assert_int_equal(codec_value_symbol(0, CODEC_BLANK_ZERO), '0');
    assert_int_equal(codec_value_symbol(0, CODEC_BLANK_DOT), '.');
}

/* ------------------------------------------------------------------ */
/* Real puzzles, when the shared data sets are present                 */

struct shared_file {
    const char *name;
    unsigned n;
    enum codec_blank blank;
};

static const struct shared_file shared_files[] = {
    {"16x16.txt", 16, CODEC_BLANK_DOT},         /* letters A-G */
    {"25x25.txt", 25, CODEC_BLANK_DOT},         /* letters A-P */
    {"kaggle_sample.txt", 9, CODEC_BLANK_ZERO}, /* '0' for a blank */
    {"norvig_top95.txt", 9, CODEC_BLANK_DOT},   /* '.' for a blank */
};

/* Every line parses with the expected side, breaks no rule, and formats
 * back to itself.  Skipped from a clone without ../shared. */
static void test_shared_data(void **state)
{
    char path[512], line[1024], text[SDK_MAX_CELLS + 1], err[256];
    uint8_t cells[SDK_MAX_CELLS];
    size_t files = 0, lines = 0;
    unsigned n;

    (void)state;
    for (size_t i = 0; i < sizeof(shared_files) / sizeof(shared_files[0]); i++) {
        const struct shared_file *sf = &shared_files[i];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", SUDOKU_SHARED_DATA_DIR, sf->name);
        f = fopen(path, "r");
        if (f == NULL)
            continue;
        files++;
        while (fgets(line, sizeof(line), f) != NULL) {
            line[strcspn(line, "\n")] = '\0';
            assert_int_equal(codec_parse_line(line, strlen(line), &n, cells, err, sizeof(err)), 0);
            assert_int_equal(n, sf->n);
            assert_int_equal(grid_check_givens(n, cells, err, sizeof(err)), 0);
            assert_int_equal(codec_format_line(n, cells, sf->blank, text, sizeof(text)),
                             (int)(n * n));
            assert_string_equal(text, line);
            lines++;
        }
        fclose(f);
    }
    if (files == 0)
        skip();
    assert_true(lines > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_bad),           cmocka_unit_test(test_line_spacing_and_case),
        cmocka_unit_test(test_line_args),          cmocka_unit_test(test_judge_bad),
        cmocka_unit_test(test_round_trips),        cmocka_unit_test(test_format_limits),
        cmocka_unit_test(test_format_every_value), cmocka_unit_test(test_parse_line_random),
        cmocka_unit_test(test_format_random),      cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_shared_data),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
