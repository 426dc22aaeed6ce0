/* json.h -- the one JSON string writer of the command-line tools.
 *
 * sudoku --json and sudoku-bench --json print strings that come from files
 * and from the daemon (file names, solver names, error messages), so every
 * one goes through the same escaping.  Internal: not an installed API.
 */
#ifndef SUDOKU_JSON_H
#define SUDOKU_JSON_H

#include <stdio.h>

/* Write s to out as a JSON string literal: quoted, with '"' and '\\'
 * escaped and control characters as \u00XX.  Bytes >= 0x80 pass through
 * unchanged (UTF-8 in, UTF-8 out). */
void json_put_string(FILE *out, const char *s);

#endif /* SUDOKU_JSON_H */
