/* variants.h -- sudoku-bench's JSON-lines records (variants.c).
 *
 * A record {"puzzle": "...", "rules": {...}} of a puzzle file: its givens
 * and its rules, built and checked by core/rules.h.  Not timed.
 */
#ifndef SUDOKU_BENCH_VARIANTS_H
#define SUDOKU_BENCH_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

struct rules; /* core/rules.h */

/* Read the JSON line text[0..len) into *n and cells (SDK_MAX_CELLS) and
 * *rules (NULL when it has none: classic; else the caller frees it with
 * rules_free).  Returns 0, -EINVAL when the line, its rules or its givens
 * are bad (then *rules is NULL), or -ENOMEM. */
int bench_variant_line(const char *text, size_t len, unsigned *n, uint8_t *cells,
                       struct rules **rules);

#endif /* SUDOKU_BENCH_VARIANTS_H */
