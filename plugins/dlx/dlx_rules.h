/* dlx_rules.h -- the dlx plugin's variant path (rules.c), called by dlx.c.
 *
 * The classic 9x9 path in dlx.c is tuned for four items an option; a
 * variant's options vary in length (a cell's houses, its difference and
 * non-consecutive pairs), so they get a general matrix of their own here.
 */
#ifndef SUDOKU_DLX_RULES_H
#define SUDOKU_DLX_RULES_H

#include <sudoku/plugin.h>

/* The rule kinds the variant path takes: every house rule and every pair
 * rule; not killer cages (a sum is no exact cover). */
#define DLX_RULES                                                                                  \
    (SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS | SDK_RULE_REGIONS | SDK_RULE_ANTI_KNIGHT |             \
     SDK_RULE_ANTI_KING | SDK_RULE_NON_CONSECUTIVE)

/* Solve job (already checked by dlx.c: side, buffers, limit) under rules,
 * which must have only DLX_RULES kinds (else SDK_FAILED, as for a table
 * that is out of range).  Allocates its matrix once and frees it before
 * returning.  Returns an enum sdk_status; fills solution, count, guesses. */
int dlx_rules_solve(struct sdk_job *job, const struct sdk_rules *rules);

#endif /* SUDOKU_DLX_RULES_H */
