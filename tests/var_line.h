/* var_line.h -- one variant puzzle line of a test data file, parsed.
 *
 * The variant tests keep golden puzzles one a line:
 *
 *     limit|expected|rules|puzzle
 *
 * limit: solutions to ask for; expected: solutions that exist, up to
 * limit; puzzle: the line form ('.' blank, 1-9 then A-P); rules: comma-
 * separated wire keys, a boolean rule by its name (diagonals, windows,
 * anti_knight, anti_king, non_consecutive), regions=LAYOUT (n*n symbols)
 * and cages=SUM:CELL.CELL...;SUM:CELL... (cells 0-based row-major).  '#'
 * starts a comment line.  var_line_parse() fills a struct rules_desc the
 * caller hands to rules_new(); everything lives in struct var_line.
 * var_line_parse_golden() reads the lines of tests/data/variants.txt
 * (name|rules|puzzle|count|solution, rules apart by spaces, cage cells by
 * commas; see its header) into the same struct, with limit 2.
 */
#ifndef SUDOKU_TEST_VAR_LINE_H
#define SUDOKU_TEST_VAR_LINE_H

#include <stdint.h>

#include <sudoku/plugin.h>

#include "core/rules.h"

#define VAR_LINE_MAX 4096 /* bytes of one line */

/* A parsed line; desc points into it (regions, cages, cage_cells). */
struct var_line {
    uint64_t limit;                              /* solutions to ask for */
    uint64_t expected;                           /* solutions that exist, up to limit */
    unsigned n;                                  /* side */
    uint8_t cells[SDK_MAX_CELLS];                /* givens, 0 = blank */
    struct rules_desc desc;                      /* the rules, for rules_new() */
    char regions[SDK_MAX_CELLS + 1];             /* the layout, when regions= */
    struct rules_desc_cage cages[SDK_MAX_CELLS]; /* the cages, when cages= */
    uint64_t cage_cells[SDK_MAX_CELLS];          /* their cells */
    char rules_text[VAR_LINE_MAX];               /* the rules field, for messages */
};

/* Parse the NUL-terminated line s (no comment, newline allowed) into v.
 * Returns 0 or -EINVAL. */
int var_line_parse(const char *s, struct var_line *v);

/* The same for a line of tests/data/variants.txt. */
int var_line_parse_golden(const char *s, struct var_line *v);

#endif /* SUDOKU_TEST_VAR_LINE_H */
