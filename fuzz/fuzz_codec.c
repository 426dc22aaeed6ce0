/* fuzz_codec.c -- fuzz target for the puzzle text codec (proto/codec.c).
 *
 * The same bytes go through both parsers, codec_parse_line and
 * codec_parse_judge.  Whatever a parser accepts must be a well-formed grid
 * (a supported side, every cell 0..n) that formats back and parses again to
 * the same grid, in every format and blank style; whatever it refuses must
 * come with a message.  grid_check_givens and grid_check_solution then run on
 * every accepted grid, and must agree with each other: a complete grid whose
 * givens break no rule is a solution of itself, an incomplete one never is.
 */
#include <errno.h>
#include <string.h>

#include "core/grid.h"
#include "fuzz/fuzz_check.h"
#include "proto/codec.h"

/* After a failed call the message is NUL-terminated and non-empty. */
static void check_err(int rc, const char *err, size_t err_size)
{
    if (rc < 0)
        FUZZ_CHECK(memchr(err, '\0', err_size) != NULL && err[0] != '\0');
}

static void check_cells(unsigned n, const uint8_t *cells)
{
    FUZZ_CHECK(grid_side_ok(n));
    FUZZ_CHECK(grid_side_for_cells((size_t)n * n) == n);
    for (unsigned i = 0; i < n * n; i++)
        FUZZ_CHECK(cells[i] <= n);
}

static void check_same(unsigned n, const uint8_t *cells, unsigned n2, const uint8_t *cells2)
{
    FUZZ_CHECK(n2 == n);
    FUZZ_CHECK(memcmp(cells, cells2, (size_t)n * n) == 0);
}

/* Format both ways, parse again, compare. */
static void check_round_trips(unsigned n, const uint8_t *cells)
{
    static const enum codec_blank blanks[] = {CODEC_BLANK_DOT, CODEC_BLANK_ZERO};
    char text[SDK_MAX_CELLS * 3 + 1];
    uint8_t again[SDK_MAX_CELLS];
    unsigned n2 = 0;
    int len;

    for (size_t b = 0; b < sizeof(blanks) / sizeof(blanks[0]); b++) {
        len = codec_format_line(n, cells, blanks[b], text, sizeof(text));
        FUZZ_CHECK(len == (int)(n * n));
        FUZZ_CHECK(text[len] == '\0');
        FUZZ_CHECK(codec_parse_line(text, (size_t)len, &n2, again, NULL, 0) == 0);
        check_same(n, cells, n2, again);
    }
    len = codec_format_judge(n, cells, text, sizeof(text));
    FUZZ_CHECK(len > 0 && (size_t)len < sizeof(text) && text[len] == '\0');
    FUZZ_CHECK(codec_parse_judge(text, (size_t)len, &n2, again, NULL, 0) == 0);
    check_same(n, cells, n2, again);
    /* Too small a buffer is refused, never overrun. */
    FUZZ_CHECK(codec_format_line(n, cells, CODEC_BLANK_DOT, text, (size_t)n * n) == -ENOSPC);
}

/* The rules checks must agree with each other. */
static void check_rules(unsigned n, const uint8_t *cells)
{
    char err[256];
    int complete = 1;

    memset(err, 'x', sizeof(err));
    int givens = grid_check_givens(n, cells, err, sizeof(err));
    FUZZ_CHECK(givens == 0 || givens == -EINVAL);
    check_err(givens, err, sizeof(err));
    for (unsigned i = 0; i < n * n; i++)
        complete &= cells[i] != 0;
    memset(err, 'x', sizeof(err));
    int solution = grid_check_solution(n, cells, cells, err, sizeof(err));
    FUZZ_CHECK(solution == 0 || solution == -EINVAL);
    check_err(solution, err, sizeof(err));
    FUZZ_CHECK((solution == 0) == (complete && givens == 0));
}

/* Every symbol maps to a value and back. */
static void check_symbols(unsigned n, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size && i < 64; i++) {
        int v = codec_symbol_value(n, (char)data[i]);
        FUZZ_CHECK(v >= -1 && v <= (int)n);
        if (v > 0)
            FUZZ_CHECK(codec_symbol_value(n, codec_value_symbol((unsigned)v, CODEC_BLANK_DOT)) ==
                       v);
    }
}

typedef int parse_fn(const char *s, size_t len, unsigned *n, uint8_t *cells, char *err,
                     size_t err_size);

static void run_parser(parse_fn *parse, const uint8_t *data, size_t size)
{
    uint8_t cells[SDK_MAX_CELLS];
    char err[256];
    unsigned n = 0;

    memset(err, 'x', sizeof(err));
    int rc = parse((const char *)data, size, &n, cells, err, sizeof(err));
    FUZZ_CHECK(rc == 0 || rc == -EINVAL);
    check_err(rc, err, sizeof(err));
    if (rc < 0)
        return;
    check_cells(n, cells);
    check_round_trips(n, cells);
    check_rules(n, cells);
    check_symbols(n, data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_parser(codec_parse_line, data, size);
    run_parser(codec_parse_judge, data, size);
    return 0;
}
