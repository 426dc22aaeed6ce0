/* bitmask.h -- internal interface between the bitmask plugin's entry and its two solvers.
 *
 * The plugin has two engines behind one descriptor: a band-oriented solver
 * specialised for 9x9 (fast9.c, no heap at all) and a generic candidate-mask
 * solver for every side (generic.c, one allocation per call).  Both take a job
 * the entry has already validated (supported n, non-NULL buffers, cells in
 * 0..n, limit >= 1), fill job->solution with the first solution, job->count
 * and job->guesses, and return an enum sdk_status.  Both are reentrant: all
 * state lives on the caller's stack or in memory owned by the call.
 *
 * Nothing here is exported from the shared object (hidden visibility).
 */
#ifndef SUDOKU_BITMASK_H
#define SUDOKU_BITMASK_H

#include <sudoku/plugin.h>

/* Solve a validated 9x9 job with the band solver.  Never allocates. */
int bm_fast9_solve(struct sdk_job *job);

/* Solve a validated job of any supported side with the generic solver.
 * Allocates its search stack once and frees it before returning; returns
 * SDK_FAILED when that allocation fails. */
int bm_generic_solve(struct sdk_job *job);

#endif /* SUDOKU_BITMASK_H */
