/* codec.h -- puzzle text formats: the one-line form and the judge grid.
 *
 * Line form: n*n symbols, '.' or '0' for a blank, '1'-'9' then 'A'-'P' (either
 * case) for 10..25; whitespace anywhere is ignored.  Judge form: n lines of n
 * whitespace-separated decimal numbers, 0 = blank.  Both parse into the grid
 * representation of grid.h and format back.  Parsing checks shape and symbols
 * only; grid_check_givens() checks the rules.  Nothing here allocates.
 */
#ifndef SUDOKU_CODEC_H
#define SUDOKU_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

/* Symbol style for formatting a line. */
enum codec_blank {
    CODEC_BLANK_DOT = '.', /* blanks print as '.' */
    CODEC_BLANK_ZERO = '0' /* blanks print as '0' */
};

/* Parse the line form from s[0..len).  On success stores the side in *n, the
 * cells in cells (room for SDK_MAX_CELLS) and returns 0.  On error returns
 * -EINVAL with a precise message in err (if non-NULL):
 *   "81 cells expected for 9x9 ... got 80: a puzzle has 16, 81, 256 or 625 cells"
 *   "symbol 'H' at position 12 (row 1, column 12) is out of range for 16x16". */
int codec_parse_line(const char *s, size_t len, unsigned *n, uint8_t *cells, char *err,
                     size_t err_size);

/* Parse the judge form: whitespace-separated decimal numbers, 0 = blank, n*n
 * of them for a supported n.  Same results and errors as codec_parse_line. */
int codec_parse_judge(const char *s, size_t len, unsigned *n, uint8_t *cells, char *err,
                      size_t err_size);

/* Format cells as a line of n*n symbols plus a terminating NUL into out.
 * out_size must be at least n*n + 1.  Returns the length written (n*n) or
 * -ENOSPC.  blank chooses the symbol for 0. */
int codec_format_line(unsigned n, const uint8_t *cells, enum codec_blank blank, char *out,
                      size_t out_size);

/* Format cells in judge form: n lines, numbers separated by one space, each
 * line ending in '\n', NUL-terminated.  Returns the length written or -ENOSPC
 * (at most n*n*3 + 1 bytes are needed). */
int codec_format_judge(unsigned n, const uint8_t *cells, char *out, size_t out_size);

/* Value of one line-form symbol for side n: 0 for '.'/'0', 1..n for a value,
 * -1 when the symbol is not valid for n. */
int codec_symbol_value(unsigned n, char c);

/* The line-form symbol for value v (0..25); blank for 0. */
char codec_value_symbol(unsigned v, enum codec_blank blank);

#endif /* SUDOKU_CODEC_H */
