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

#include <stdint.h>

#include <sudoku/plugin.h>

/* Bits set in x.  Written out (SWAR): baseline x86-64 has no popcount
 * instruction, so __builtin_popcount is a call into libgcc, which took a
 * third of a 16x16 generation's time in the generic engine. */
static inline unsigned bm_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (unsigned)((x * 0x0101010101010101u) >> 56);
}

/* Bits set in x, 32 bits (see bm_popcount64). */
static inline unsigned bm_popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* The rules the band solver takes at 9x9: extra houses on square boxes.
 * Regions and cages break its band layout.  The pair rules it could take,
 * but measured there (bench/data/variants) it was no faster than variant.c
 * on anti-knight and anti-king, and its faster non-consecutive solves made
 * the generator's puzzles sparser and their ratings slower
 * (docs/performance.md). */
#define BM_FAST9_RULES (SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS)

/* Solve a validated 9x9 job with the band solver, under rules (NULL:
 * classic; else only BM_FAST9_RULES), stopping with SDK_EXHAUSTED past the
 * job's budget of guesses.  Never allocates; SDK_FAILED when the rules
 * table is not one it takes. */
int bm_fast9_solve(struct sdk_job *job, const struct sdk_rules *rules);

/* Does the band solver take a 9x9 job under rules? */
static inline int bm_fast9_takes(const struct sdk_rules *rules)
{
    return !(rules->kinds & ~BM_FAST9_RULES);
}

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
