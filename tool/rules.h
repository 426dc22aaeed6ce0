/* rules.h -- the sudoku tool's variant rules: --rules, --regions, JSON lines.
 *
 * A puzzle's rules reach the tool three ways: --rules NAMES and --regions
 * LAYOUT on the command line (the same for every puzzle), or a JSON-lines
 * record {"puzzle": "...", "rules": {...}} with the rules in the wire's
 * shape (docs/protocol.md).  Either way they become a struct tool_rules:
 * a struct sudoku_client_rules (client.h) over storage of its own, which
 * the library's *_rules calls and --local take as they are.  The rules
 * are not judged here beyond their shape: the daemon (or --local, with the
 * daemon's checks) names a bad region or cage.  The answers carry them
 * back out (tool_rules_put_json) and the terminal draws them (vgrid.h).
 */
#ifndef SUDOKU_TOOL_RULES_H
#define SUDOKU_TOOL_RULES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proto/input.h"
#include <sudoku/client.h>

#define TOOL_RULES_NAMES "x, windoku, anti-knight, anti-king, non-consecutive, jigsaw, killer"

/* A puzzle's rules with the storage they point into.  r is all a caller
 * reads; copy with tool_rules_dup, not by assignment. */
struct tool_rules {
    struct sudoku_client_rules r;              /* points into the fields below */
    char regions[SUDOKU_CLIENT_MAX_CELLS + 1]; /* the layout, NUL-terminated */
    struct sudoku_client_cage cages[SUDOKU_CLIENT_MAX_CELLS];
    uint16_t cells[SUDOKU_CLIENT_MAX_CELLS]; /* every cage's cells */
};

/* --rules LIST: comma-separated names (TOOL_RULES_NAMES, or the wire keys:
 * diagonals, windows, anti_knight, ...) into *flags (SUDOKU_CLIENT_RULE_*);
 * jigsaw and killer set SUDOKU_CLIENT_RULE_DRAW_REGIONS and _DRAW_CAGES
 * (the caller decides what they need).  Returns 0, or -EINVAL with
 * "unknown rule "X" (want x, windoku, ...)" in err. */
int tool_rules_names(const char *list, unsigned *flags, char *err, size_t err_size);

/* --regions STRING or @FILE (whitespace dropped, '.'-free) into r's
 * layout, checked to be n*n region symbols for n 4, 9, 16 or 25.
 * Returns 0 or -EINVAL with the reason in err. */
int tool_rules_regions(struct tool_rules *r, const char *arg, char *err, size_t err_size);

/* Judge r's layout (set by tool_rules_regions) as the daemon does
 * (core/rules.h: n regions of n connected cells), so that a bad --regions
 * is one usage error, not one error a puzzle.  Returns 0 or -EINVAL with
 * the daemon's words in err ("regions: region 9 is not connected ..."). */
int tool_rules_check_layout(const struct sudoku_client_rules *r, char *err, size_t err_size);

/* Read a JSON-lines record: its "puzzle" (a string, copied into puzzle,
 * puzzle_size bytes with a NUL) and "rules" (a map in the wire's shape; absent or
 * null: none) into *r.  Returns 0, or -EINVAL with the reason in err
 * ("column 12: expected ':'", "rules: unknown rule \"diagonal\" (...)",
 * "cages: cage 2 must be [sum, [cell, ...]]"). */
int tool_rules_from_json(const char *text, size_t len, char *puzzle, size_t puzzle_size,
                         struct tool_rules *r, char *err, size_t err_size);

/* A copy of rules (NULL: NULL) in one malloc'ed block that free() frees:
 * the struct first, its arrays after it.  NULL when out of memory. */
struct sudoku_client_rules *tool_rules_dup(const struct sudoku_client_rules *rules);

/* Write r as the wire's JSON map (the keys set, "regions", "cages"). */
void tool_rules_put_json(FILE *out, const struct sudoku_client_rules *r);

/* 1 when r asks for any rule (NULL: 0). */
int tool_rules_any(const struct sudoku_client_rules *r);

/* The rule names of r's flags, regions and cages as a person reads them
 * ("x, windoku, jigsaw, killer") into buf.  Returns buf. */
const char *tool_rules_describe(const struct sudoku_client_rules *r, char *buf, size_t size);

/* The names of the rules in flags (SUDOKU_CLIENT_RULE_* bits, DRAW_REGIONS
 * for jigsaw and DRAW_CAGES for killer, as sudoku_client_solver_rules
 * gives them) as a person reads them ("x, windoku, killer"; "" for none)
 * into buf.  Returns buf. */
const char *tool_rules_flag_names(unsigned flags, char *buf, size_t size);

/* Write the same as a JSON array of the wire's keys (["diagonals","cages"]). */
void tool_rules_put_flag_json(FILE *out, unsigned flags);

#endif /* SUDOKU_TOOL_RULES_H */
