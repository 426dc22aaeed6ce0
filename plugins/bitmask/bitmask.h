/* bitmask.h -- internal interface between the bitmask plugin's entry and its solvers.
 *
 * The plugin has three engines behind one descriptor: a band-oriented solver
 * specialised for classic 9x9 (fast9.c, no heap at all), a generic
 * candidate-mask solver for classic puzzles of every side (generic.c, one
 * allocation per call) and a solver for variant rules of every side
 * (variant.c, per-digit cell sets).  All take a job
 * the entry has already validated (supported n, non-NULL buffers, cells in
 * 0..n, limit >= 1), fill job->solution with the first solution, job->count
 * and job->guesses, and return an enum sdk_status.  All are reentrant: all
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

/* Solve a validated job whose rules are set (sdk_job.rules, any side) with
 * the variant solver (variant.c); a rules table it cannot read fails the
 * job (SDK_FAILED).  9x9 and smaller never allocate; larger sides allocate
 * once per call and free it before returning (SDK_FAILED when that fails). */
int bm_variant_solve(struct sdk_job *job);

#endif /* SUDOKU_BITMASK_H */
