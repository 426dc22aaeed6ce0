/* sat.c -- the sat solver plugin: singles first, then CaDiCaL on the rest.
 *
 * For the large grids that defeat backtracking (the real 25x25 puzzles take
 * bitmask and dlx more than a minute each): learned clauses are what those
 * puzzles need.  One call:
 *
 *   1. singles.c fills in what the givens force; a grid it fills is answered
 *      at once (count 1: every step was forced), a contradiction is
 *      SDK_UNSOLVABLE;
 *   2. one variable per (open cell, candidate), and for every open cell and
 *      every (unit, value not yet placed) an at-least-one clause and pairwise
 *      at-most-one clauses (a box skips the pairs its row or column already
 *      holds).  Measured on the real 25x25 set, pairwise beat sequential
 *      counters and commander encodings, and propagating first beat handing
 *      the givens over as unit clauses.  A group of more than
 *      SAT_PAIRWISE_MAX literals (rare in real puzzles, the rule in nearly
 *      empty grids) gets a sequential counter instead: pairwise, the empty
 *      25x25 grid is 690,000 clauses and freeing them alone takes 55 ms of
 *      CPU, which a stopped job would spend after the stop;
 *   3. solve; for each solution found below job->limit, add the clause that
 *      blocks it and solve again on the same solver (incremental: the learned
 *      clauses carry over, so proving uniqueness costs less than the search).
 *
 * Variants (sdk_job.rules, every kind at every size): the houses come from
 * the rules' table (boxes or jigsaw regions, diagonals, windows, and the
 * houses windows imply: sdk_rules_with_implied) and are encoded as the
 * units are; a difference pair (anti-knight, anti-king) is one binary
 * clause per shared candidate, a non-consecutive pair one per
 * pair of neighbouring digits; a killer cage is pairwise at-most-one per
 * digit over its open cells, plus its sum: one selector variable per
 * combination of digits its open cells can still hold (at least one
 * selector; a selector rules out the digits outside its combination and
 * needs each of its own somewhere in the cage), or, for a cage of more than
 * SAT_COMBOS_MAX combinations (large cages on 16x16 and 25x25), running
 * sums: a variable per (prefix of the open cells, total reached), forward
 * implications, and no way to end on a total but the sum.  Every extra
 * variable is auxiliary, so the blocking clause (over cell variables only)
 * still blocks exactly one grid and counts stay exact.
 *
 * Stopping: CaDiCaL calls the terminate callback before every decision and
 * inside its inprocessing loops; the callback asks sdk_job_should_stop().
 * lucky=0 turns off the up-front "lucky" phases, which never ask.
 *
 * Memory: CaDiCaL allocates during the search (the rules in plugin.h allow it
 * for a plugin that bounds it and frees it before returning).  The encoding
 * is at most n^3 + 4n^2 (n - 1) variables and 4n^2 groups of at most 121
 * clauses each (1 + 16 * 15 / 2 pairwise, fewer by a counter); learned
 * clauses by a budget of literals learned (SAT_MAX_LEARNED_LITS: every
 * learned clause counts when it is made, so this bounds what the job ever
 * allocated for them, about 160 MB, although CaDiCaL deletes most in its
 * reductions) and the blocking clauses by a budget of literals
 * (SAT_MAX_BLOCK_LITS).  The conflict budget (SAT_MAX_CONFLICTS) bounds the
 * work.  A job that would pass any of them fails cleanly (SDK_FAILED, one
 * log line) instead of growing.  The solver is released before solve()
 * returns.  Measured peak RSS of sudoku-bench: see docs/performance.md.
 *
 * State: one solver instance per call, nothing global, so solve() is
 * reentrant.  CaDiCaL has one global of its own: with CADICAL_API_TRACE (or
 * CADICALAPITRACE) set in the environment it traces the first instance and
 * aborts the process when a second one is created, so init() refuses to load
 * the plugin when either is set (unsetenv() here would race other threads).
 * job->guesses counts conflicts (learned clauses), and a job's budget of
 * guesses (minor 5, sdk_job_max_guesses()) is a budget of conflicts: CaDiCaL
 * is deterministic, so the same job stops at the same place (SDK_EXHAUSTED).
 */
#include "sat.h"

#include <ccadical.h>

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAT_SAT   10 /* ccadical_solve(): satisfiable */
#define SAT_UNSAT 20 /* ccadical_solve(): unsatisfiable */

/* Per-job budgets; tests build the plugin with small ones (-D). */
#ifndef SAT_MAX_CONFLICTS
#define SAT_MAX_CONFLICTS 20000000u /* work: real 25x25 puzzles need under 1/50 */
#endif
#ifndef SAT_MAX_LEARNED_LITS
#define SAT_MAX_LEARNED_LITS 32000000u /* ~160 MB with headers; real 25x25s learn < 1/4 */
#endif
#ifndef SAT_MAX_BLOCK_LITS
#define SAT_MAX_BLOCK_LITS 4000000u /* blocking-clause literals (~16 MB) */
#endif
#define SAT_PAIRWISE_MAX 16 /* longer at-most-one groups use a counter */
#define SAT_SUM_MAX      (SDK_MAX_N * (SDK_MAX_N + 1) / 2) /* a cage's largest sum */

/* One solve call. */
struct sat_run {
    struct sdk_job *job;
    const struct sdk_host *host;
    const struct sat_grid *grid;
    CCaDiCaL *solver;
    int32_t *var;                    /* per cell * n + value - 1: its variable, 0 = none */
    int32_t next_var;                /* the next unused variable (auxiliaries) */
    int stop;                        /* SDK_CANCELLED / SDK_TIMEDOUT once the callback saw it */
    uint64_t conflicts;              /* learned clauses, as the learn callback saw them */
    uint64_t learned_lits;           /* their literals */
    uint64_t block_lits;             /* literals in blocking clauses so far */
    uint64_t budget;                 /* the job's budget of guesses (conflicts), 0 none */
    int lits[SDK_MAX_N * SDK_MAX_N]; /* scratch: one clause */
};

/* CaDiCaL options, set before the first clause.  Measured on the real 25x25
 * set (see docs/performance.md); lucky=0 also keeps the stop latency low.
 * elim=0 (no bounded variable elimination: the formula is already small
 * after propagation) and locked candidates together cut the conflicts on
 * the 16 puzzles by 12% and the CPU time by 10%. */
static const struct {
    const char *name;
    int val;
} sat_options[] = {
    {"quiet", 1},          {"stabilizeonly", 1}, {"elimreleff", 10},
    {"subsumereleff", 60}, {"lucky", 0},         {"elim", 0},
};

/* ------------------------------------------------------------------------ */
/* Callbacks                                                                 */
/* ------------------------------------------------------------------------ */

/* CaDiCaL's terminate callback: non-zero stops the search, when the job
 * must stop or has learned its budget of literals. */
static int sat_terminate(void *arg)
{
    struct sat_run *r = arg;

    if (r->stop == 0)
        r->stop = sdk_job_should_stop(r->job);
    return r->stop != 0 || r->learned_lits > SAT_MAX_LEARNED_LITS;
}

/* CaDiCaL's learn callback: one call per learned clause, one per conflict. */
static void sat_learn(void *arg, int *clause)
{
    struct sat_run *r = arg;

    r->conflicts++;
    while (*clause++)
        r->learned_lits++;
}

/* Log one line through the host, when it gave us a way to. */
static void sat_log(const struct sdk_host *h, int level, const char *msg)
{
    if (h && h->size >= offsetof(struct sdk_host, log) + sizeof(h->log) && h->log)
        h->log(h->ctx, level, msg);
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                  */
/* ------------------------------------------------------------------------ */

/* Number the variables: one per (open cell, candidate), from 1. */
static void sat_number(struct sat_run *r)
{
    const struct sat_grid *g = r->grid;
    const uint32_t n = g->n;
    int32_t next = 1;

    for (uint32_t i = 0; i < n * n; i++)
        for (uint32_t v = 0; v < n; v++)
            r->var[i * n + v] = (g->cand[i] >> v & 1) ? next++ : 0;
    r->next_var = next;
}

/* Add the clause lits[0..len-1] to the solver. */
static void sat_add(CCaDiCaL *s, const int *lits, uint32_t len)
{
    for (uint32_t k = 0; k < len; k++)
        ccadical_add(s, lits[k]);
    ccadical_add(s, 0);
}

/* Add the binary clause (a | b). */
static void sat_add2(CCaDiCaL *s, int a, int b)
{
    ccadical_add(s, a);
    ccadical_add(s, b);
    ccadical_add(s, 0);
}

/* At most one of lits[0..len-1] (len >= 2), by a sequential counter: the
 * auxiliary s_k means "one of lits[0..k] is true".  3 len - 4 clauses and
 * len - 1 new variables, where pairwise takes len (len - 1) / 2 clauses. */
static void sat_at_most_one_seq(struct sat_run *r, const int *lits, uint32_t len)
{
    const int32_t s0 = r->next_var;

    r->next_var += (int32_t)(len - 1);
    sat_add2(r->solver, -lits[0], s0);
    for (uint32_t k = 1; k + 1 < len; k++) {
        const int32_t s = s0 + (int32_t)k;
        sat_add2(r->solver, -lits[k], s);
        sat_add2(r->solver, -(s - 1), s);
        sat_add2(r->solver, -lits[k], -(s - 1));
    }
    sat_add2(r->solver, -lits[len - 1], -(s0 + (int32_t)len - 2));
}

/* At most one of the len literals in r->lits (at cells cells[]): pairwise
 * up to SAT_PAIRWISE_MAX literals, else by a sequential counter.  Pairwise
 * with skip_lines leaves out pairs of cells in one row or one column: the
 * row and column units already hold them. */
static void sat_at_most_one(struct sat_run *r, const uint16_t *cells, uint32_t len, int skip_lines)
{
    const uint32_t n = r->grid->n;

    if (len > SAT_PAIRWISE_MAX) {
        sat_at_most_one_seq(r, r->lits, len);
        return;
    }
    for (uint32_t a = 0; a < len; a++) {
        for (uint32_t b = a + 1; b < len; b++) {
            if (skip_lines && (cells[a] / n == cells[b] / n || cells[a] % n == cells[b] % n))
                continue;
            sat_add2(r->solver, -r->lits[a], -r->lits[b]);
        }
    }
}

/* Exactly one of the len literals in r->lits (at cells cells[]): their
 * clause, and at most one as sat_at_most_one() encodes it. */
static void sat_exactly_one(struct sat_run *r, const uint16_t *cells, uint32_t len, int skip_lines)
{
    sat_add(r->solver, r->lits, len);
    sat_at_most_one(r, cells, len, skip_lines);
}

/* Every open cell holds exactly one of its candidates. */
static void sat_encode_cells(struct sat_run *r)
{
    const struct sat_grid *g = r->grid;
    const uint32_t n = g->n;
    uint16_t cells[SDK_MAX_N];

    for (uint32_t i = 0; i < n * n; i++) {
        uint32_t len = 0;
        if (g->cell[i])
            continue;
        for (uint32_t v = 0; v < n; v++) {
            if (r->var[i * n + v]) {
                cells[len] = (uint16_t)i;
                r->lits[len++] = r->var[i * n + v];
            }
        }
        sat_exactly_one(r, cells, len, 0);
    }
}

/* Every value not yet placed in a unit goes in exactly one of its cells.
 * Returns 0, or the stop status when the job must stop. */
static int sat_encode_units(struct sat_run *r)
{
    const struct sat_grid *g = r->grid;
    const uint32_t n = g->n;
    uint16_t cells[SDK_MAX_N];

    for (uint32_t u = 0; u < g->units_len; u++) {
        for (uint32_t v = 0; v < n; v++) {
            uint32_t len = 0;
            if (g->placed[u] >> v & 1)
                continue;
            for (uint32_t j = 0; j < n; j++) {
                const uint16_t c = g->unit_cell[u][j];
                if (r->var[c * n + v]) {
                    cells[len] = c;
                    r->lits[len++] = r->var[c * n + v];
                }
            }
            sat_exactly_one(r, cells, len, u >= 2 * n);
        }
        int rc = sdk_job_should_stop(r->job);
        if (rc)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Variants: pairs and cages                                                 */
/* ------------------------------------------------------------------------ */

/* (not a | not b) when both variables exist. */
static void sat_forbid(struct sat_run *r, int32_t a, int32_t b)
{
    if (a && b)
        sat_add2(r->solver, -a, -b);
}

/* Difference pairs: never the same digit; non-consecutive pairs: never two
 * digits one apart. */
static void sat_encode_pairs(struct sat_run *r)
{
    const struct sdk_rules *rules = r->grid->rules;
    const uint32_t n = r->grid->n;

    for (uint32_t k = 0; k < rules->differ_len; k++) {
        const int32_t *a = r->var + rules->differ[2 * k] * n,
                      *b = r->var + rules->differ[2 * k + 1] * n;
        for (uint32_t v = 0; v < n; v++)
            sat_forbid(r, a[v], b[v]);
    }
    for (uint32_t k = 0; k < rules->nonconsec_len; k++) {
        const int32_t *a = r->var + rules->nonconsec[2 * k] * n,
                      *b = r->var + rules->nonconsec[2 * k + 1] * n;
        for (uint32_t v = 0; v + 1 < n; v++) {
            sat_forbid(r, a[v], b[v + 1]);
            sat_forbid(r, a[v + 1], b[v]);
        }
    }
}

/* Do cells a and b share a house (whose clauses already keep them apart)? */
static int sat_share_unit(const struct sat_grid *g, uint16_t a, uint16_t b)
{
    for (uint32_t i = 0; i < g->cell_units_len[a]; i++)
        for (uint32_t j = 0; j < g->cell_units_len[b]; j++)
            if (g->cell_unit[a][i] == g->cell_unit[b][j])
                return 1;
    return 0;
}

/* The open cells of a cage hold distinct digits: at most one per digit,
 * pairwise, leaving out the pairs a house already keeps apart. */
static void sat_cage_distinct(struct sat_run *r, const uint16_t *open, uint32_t k)
{
    const uint32_t n = r->grid->n;

    for (uint32_t a = 0; a < k; a++)
        for (uint32_t b = a + 1; b < k; b++)
            if (!sat_share_unit(r->grid, open[a], open[b]))
                for (uint32_t v = 0; v < n; v++)
                    sat_forbid(r, r->var[open[a] * n + v], r->var[open[b] * n + v]);
}

/* The cage's open cells hold one of the m digit sets in combos: a selector
 * per set, at least one selector; a selector forbids every digit outside
 * its set in every open cell and needs each of its digits in some cell. */
static void sat_cage_by_combos(struct sat_run *r, const uint16_t *open, uint32_t k,
                               const uint32_t *combos, uint32_t m)
{
    const uint32_t n = r->grid->n;
    const int32_t y0 = r->next_var;
    int lits[SDK_MAX_N + 1];

    r->next_var += (int32_t)m;
    for (uint32_t c = 0; c < m; c++)
        r->lits[c] = y0 + (int32_t)c;
    sat_add(r->solver, r->lits, m);
    for (uint32_t c = 0; c < m; c++) {
        const int32_t y = y0 + (int32_t)c;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t len = 0;
            lits[len++] = -y;
            for (uint32_t j = 0; j < k; j++) {
                const int32_t x = r->var[open[j] * n + v];
                if (x && (combos[c] >> v & 1))
                    lits[len++] = x;
                else if (x)
                    sat_add2(r->solver, -y, -x);
            }
            if (combos[c] >> v & 1)
                sat_add(r->solver, lits, len);
        }
    }
}

/* The cage's k open cells add up to sum, by running sums: p(j, t) says the
 * first j + 1 open cells may add up to t; the first cell's digit d implies
 * p(0, d), p(j - 1, t) and digit d in cell j imply p(j, t + d), and a step
 * that can no longer end on sum (k - j - 1 distinct digits left to add) is
 * forbidden, as is any last step that misses it. */
static void sat_cage_by_sums(struct sat_run *r, const uint16_t *open, uint32_t k, int32_t sum)
{
    const int32_t n = (int32_t)r->grid->n;
    int32_t prev[SAT_SUM_MAX + 1] = {0}, cur[SAT_SUM_MAX + 1];

    prev[0] = -1; /* the empty prefix: a total of 0 for sure */
    for (uint32_t j = 0; j < k; j++) {
        const int32_t rest = (int32_t)(k - j - 1), lo = rest * (rest + 1) / 2,
                      hi = rest * n - rest * (rest - 1) / 2;
        memset(cur, 0, sizeof(cur));
        for (int32_t t = 0; t <= sum; t++) {
            for (int32_t d = 1; prev[t] && d <= n; d++) {
                const int32_t x = r->var[open[j] * (uint32_t)n + (uint32_t)d - 1], to = t + d;
                int lits[3], len = 0;
                if (!x)
                    continue;
                if (prev[t] > 0)
                    lits[len++] = -prev[t];
                lits[len++] = -x;
                if (to + lo > sum || to + hi < sum || (rest == 0 && to != sum)) {
                    sat_add(r->solver, lits, (uint32_t)len);
                    continue;
                }
                if (rest == 0)
                    continue;
                if (!cur[to])
                    cur[to] = r->next_var++;
                lits[len++] = cur[to];
                sat_add(r->solver, lits, (uint32_t)len);
            }
        }
        memcpy(prev, cur, sizeof(prev));
    }
}

/* Cage k: its open cells, what they must add up to, and which digits they
 * may still take.  Returns the number of open cells (written to open). */
static uint32_t sat_cage_open(const struct sat_run *r, uint32_t k, uint16_t *open, int32_t *sum,
                              uint32_t *avail)
{
    const struct sat_grid *g = r->grid;
    const struct sdk_cage *c = &g->rules->cages[k];
    uint32_t len = 0;

    *sum = (int32_t)c->sum;
    *avail = g->full;
    for (uint32_t j = 0; j < c->len; j++) {
        const uint16_t cell = g->rules->cage_cells[c->off + j];
        if (g->cell[cell]) {
            *sum -= g->cell[cell];
            *avail &= ~(1u << (g->cell[cell] - 1));
        } else {
            open[len++] = cell;
        }
    }
    return len;
}

/* Every cage: distinct digits, and its sum by combinations or by running
 * sums.  Returns 0, or the stop status when the job must stop. */
static int sat_encode_cages(struct sat_run *r)
{
    const struct sdk_rules *rules = r->grid->rules;
    uint32_t combos[SAT_COMBOS_MAX];
    uint16_t open[SDK_MAX_N];

    for (uint32_t k = 0; k < rules->cages_len; k++) {
        int32_t sum;
        uint32_t avail, len = sat_cage_open(r, k, open, &sum, &avail), m;
        if (len == 0)
            continue; /* singles checked its sum */
        sat_cage_distinct(r, open, len);
        m = sat_cage_combos(avail, len, sum, combos, SAT_COMBOS_MAX);
        if (m == 0)
            ccadical_add(r->solver, 0); /* the empty clause: no way */
        else if (m <= SAT_COMBOS_MAX)
            sat_cage_by_combos(r, open, len, combos, m);
        else
            sat_cage_by_sums(r, open, len, sum);
        int rc = sdk_job_should_stop(r->job);
        if (rc)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Solving                                                                   */
/* ------------------------------------------------------------------------ */

/* Write the model into out (givens and singles included) and, in r->lits,
 * the clause that blocks it.  Returns the clause's length. */
static uint32_t sat_read_model(struct sat_run *r, uint8_t *out)
{
    const struct sat_grid *g = r->grid;
    const uint32_t n = g->n;
    uint32_t len = 0;

    for (uint32_t i = 0; i < n * n; i++) {
        out[i] = g->cell[i];
        for (uint32_t v = 0; !g->cell[i] && v < n; v++) {
            const int32_t x = r->var[i * n + v];
            if (x && ccadical_val(r->solver, x) > 0) {
                out[i] = (uint8_t)(v + 1);
                r->lits[len++] = -x;
                break;
            }
        }
    }
    return len;
}

/* One incremental solve under what is left of the conflict budget, or of
 * the job's budget of guesses when that is smaller.  Returns SAT_SAT,
 * SAT_UNSAT, or an enum sdk_status when the search stopped (SDK_EXHAUSTED:
 * the job's budget spent, the answer still open). */
static int sat_solve_once(struct sat_run *r)
{
    const int by_budget = r->budget && r->budget < SAT_MAX_CONFLICTS;
    const uint64_t cap = by_budget ? r->budget : SAT_MAX_CONFLICTS;
    const uint64_t left = cap > r->conflicts ? cap - r->conflicts : 0;
    int res;

    if (left == 0 && by_budget)
        return SDK_EXHAUSTED;
    ccadical_limit(r->solver, "conflicts", left > INT_MAX ? INT_MAX : (int)left);
    res = ccadical_solve(r->solver);
    if (res == SAT_SAT || res == SAT_UNSAT)
        return res;
    if (r->stop)
        return r->stop;
    if (by_budget && r->learned_lits <= SAT_MAX_LEARNED_LITS)
        return SDK_EXHAUSTED; /* the job's own bound: no failure, nothing to log */
    sat_log(r->host, SDK_LOG_WARNING,
            r->learned_lits > SAT_MAX_LEARNED_LITS
                ? "sat: learned-clause memory budget exhausted, job failed"
                : "sat: conflict budget exhausted, job failed");
    return SDK_FAILED;
}

/* Solve, block, solve again until the limit or no more solutions. */
static int sat_search(struct sat_run *r)
{
    struct sdk_job *job = r->job;
    uint8_t scratch[SDK_MAX_CELLS] = {0}; /* later solutions: read, then dropped */

    for (;;) {
        int res = sat_solve_once(r);
        if (res == SAT_UNSAT)
            return job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
        if (res != SAT_SAT)
            return res;
        uint32_t len = sat_read_model(r, job->count ? scratch : job->solution);
        if (++job->count >= job->limit)
            return SDK_SOLVED;
        if ((r->block_lits += len) > SAT_MAX_BLOCK_LITS) {
            sat_log(r->host, SDK_LOG_WARNING,
                    "sat: blocking-clause budget exhausted while counting, job failed");
            return SDK_FAILED;
        }
        sat_add(r->solver, r->lits, len);
    }
}

/* Set up the solver for the open part of g and search.  Returns an enum
 * sdk_status. */
static int sat_run_solver(struct sat_run *r)
{
    int rc;

    r->solver = ccadical_init();
    if (!r->solver)
        return SDK_FAILED;
    for (size_t k = 0; k < sizeof(sat_options) / sizeof(sat_options[0]); k++)
        ccadical_set_option(r->solver, sat_options[k].name, sat_options[k].val);
    ccadical_set_terminate(r->solver, r, sat_terminate);
    ccadical_set_learn(r->solver, r, INT_MAX, sat_learn);
    sat_number(r);
    sat_encode_cells(r);
    rc = sat_encode_units(r);
    if (rc == 0 && r->grid->rules) {
        sat_encode_pairs(r);
        rc = sat_encode_cages(r);
    }
    if (rc == 0)
        rc = sat_search(r);
    ccadical_release(r->solver);
    r->solver = NULL;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Plugin entry                                                              */
/* ------------------------------------------------------------------------ */

/* Returns 1 when the job is well formed: supported side, buffers present, a
 * positive limit and every cell in 0..n. */
static int sat_job_ok(const struct sdk_job *job)
{
    if (!job || job->size < offsetof(struct sdk_job, guesses) + sizeof(job->guesses))
        return 0;
    if (!sdk_box_side(job->n) || !job->cells || !job->solution || job->limit == 0)
        return 0;
    for (uint32_t c = 0; c < job->n * job->n; c++)
        if (job->cells[c] > job->n)
            return 0;
    return 1;
}

/* The job's rules: NULL for classic (or a host before minor 4), else
 * *rules when they are well formed; SDK_FAILED when they are not. */
static int sat_job_rules(const struct sdk_job *job, const struct sdk_rules **rules)
{
    *rules = NULL;
    if (job->size < offsetof(struct sdk_job, rules) + sizeof(job->rules) || !job->rules)
        return 0;
    if (!sat_rules_ok(job->rules, job->n))
        return SDK_FAILED;
    *rules = job->rules;
    return 0;
}

/* Propagate, then hand what is left to CaDiCaL.  Returns an enum sdk_status. */
static int sat_solve_grid(const struct sdk_host *host, struct sdk_job *job, struct sat_grid *grid)
{
    struct sat_run *r;
    int rc;

    if (grid->open_len == 0) {
        memcpy(job->solution, grid->cell, (size_t)job->n * job->n);
        job->count = 1;
        return SDK_SOLVED;
    }
    rc = sdk_job_should_stop(job);
    if (rc)
        return rc;
    r = calloc(1, sizeof(*r) + sizeof(int32_t) * job->n * job->n * job->n);
    if (!r)
        return SDK_FAILED;
    *r = (struct sat_run){.job = job,
                          .host = host,
                          .grid = grid,
                          .var = (int32_t *)(r + 1),
                          .budget = sdk_job_max_guesses(job)};
    rc = sat_run_solver(r);
    job->guesses = r->conflicts;
    free(r);
    return rc;
}

static int sat_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    const struct sdk_rules *rules;
    struct sdk_rules aug;
    struct sat_links *links = NULL;
    struct sat_grid grid;
    uint16_t *houses = NULL;
    int rc;

    (void)state;
    if (!sat_job_ok(job) || sat_job_rules(job, &rules) != 0)
        return SDK_FAILED;
    job->count = 0;
    job->guesses = 0;
    if (rules && (rules->kinds & SDK_RULE_WINDOWS)) { /* their clauses from the start */
        houses = malloc(((size_t)rules->houses_len + SDK_MAX_IMPLIED) * job->n * sizeof(uint16_t));
        if (!houses)
            return SDK_FAILED;
        rules = sdk_rules_with_implied(rules, job->n, &aug, houses);
    }
    if (rules && !(links = sat_links_new(rules))) {
        free(houses);
        return SDK_FAILED;
    }
    rc = sat_grid_init(&grid, job->n, job->cells, rules, links);
    if (rc == 0)
        rc = sat_solve_grid(host, job, &grid);
    free(links);
    free(houses);
    return rc;
}

/* Refuse to load when CaDiCaL would trace API calls: see the top of file. */
static int sat_init(const struct sdk_host *host, void **state)
{
    *state = NULL;
    if (getenv("CADICAL_API_TRACE") || getenv("CADICALAPITRACE")) {
        sat_log(host, SDK_LOG_ERR,
                "sat: CADICAL_API_TRACE is set: CaDiCaL would abort on a second solver, "
                "so the sat plugin refuses to load");
        return -ENOTSUP;
    }
    return 0;
}

static const struct sdk_plugin sat_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "sat",
    .version = "1.1.0",
    .description = "singles, then the CaDiCaL SAT solver on the rest (large grids, every rule)",
    .sizes = SDK_SIZE_ALL,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL,
    .init = sat_init,
    .fini = NULL,
    .solve = sat_solve,
    .explain = NULL,
    .explain_sizes = 0,
    .rules = SDK_RULE_ALL,
    .explain_rules = 0,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

/* The one exported symbol.  Returns a constant descriptor owned by the plugin. */
SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &sat_plugin;
}
