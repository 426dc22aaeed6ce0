/* dfs.c -- the classic row-major backtracking solver, kept as the baseline.
 *
 * This is the algorithm the project starts from and every other solver is
 * measured against: visit the blank cells in row-major order, try 1..n in
 * each, keep the first value the row, the column and the box allow, and
 * backtrack when nothing fits.  It deliberately has no heuristics (no
 * most-constrained cell, no propagation), so its search tree is exactly the
 * textbook one: brute_force.txt costs it about 69 million nodes.
 *
 * What makes it fast for what it is: each row, column and box keeps the set
 * of values still free in it as a bit mask (bit v-1 for value v), so the
 * values a blank may take are one AND of three words, and trying the next
 * value is taking the lowest bit left.  The order of the values tried is
 * still 1..n, so the tree (the guesses, and their order) is the one a
 * scanning program makes; tests/test_dfs_tree.c checks that against a
 * scanning search.
 *
 * The search is iterative.  Level k is the k-th blank cell (row-major);
 * level[k] holds its row, column and box, the value tried there and the
 * values not tried yet; the grid is written only when a solution is found,
 * from the levels.  All working memory
 * lives on the stack (about 7 KB for 25x25), so solve() never calls malloc.
 * There is no mutable global state; solve() is reentrant.  The cancel flag
 * and the deadline are polled every DFS_POLL_STEPS backtracks (each move is
 * O(1) for every size and at most n*n forward moves separate two backtracks,
 * so this bounds the time between polls).
 *
 * job->guesses counts nodes: every value placed in a blank cell.
 */
#include <sudoku/plugin.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DFS_POLL_STEPS 16384u /* poll sdk_job_should_stop() after this many backtracks */

/* One blank cell, in search order. */
struct dfs_level {
    uint16_t cell; /* row-major index */
    uint8_t row;   /* its row, column and box */
    uint8_t col;
    uint8_t box;
    uint32_t untried; /* values still to try here (bit v-1), set on arrival */
    uint32_t tried;   /* the value being tried (one bit) */
};

/* The working state of one solve call. */
struct dfs {
    uint32_t n;                            /* side */
    uint32_t blank_len;                    /* entries in level[] */
    uint32_t row_free[SDK_MAX_N];          /* values not yet in row r */
    uint32_t col_free[SDK_MAX_N];          /* ... column c */
    uint32_t box_free[SDK_MAX_N];          /* ... box b */
    uint8_t grid[SDK_MAX_CELLS];           /* givens; blanks filled in on a solution */
    struct dfs_level level[SDK_MAX_CELLS]; /* blank cells, row-major */
};

/* ------------------------------------------------------------------------ */
/* Setup                                                                     */
/* ------------------------------------------------------------------------ */

/* Returns true when the job is well formed enough to read. */
static bool dfs_job_ok(const struct sdk_job *job)
{
    if (job->size < offsetof(struct sdk_job, guesses) + sizeof(job->guesses))
        return false;
    return sdk_box_side(job->n) != 0 && job->cells && job->solution && job->limit >= 1;
}

/* Copy the puzzle into s, take the givens out of the free masks and list the
 * blanks.  Returns SDK_SOLVED when the givens are consistent, SDK_UNSOLVABLE
 * when two givens clash, SDK_FAILED when a cell holds a value above n. */
static int dfs_load(struct dfs *s, const struct sdk_job *job)
{
    const uint32_t n = job->n, bs = sdk_box_side(n), all = (uint32_t)((1ull << n) - 1);

    s->n = n;
    s->blank_len = 0;
    for (uint32_t i = 0; i < n; i++)
        s->row_free[i] = s->col_free[i] = s->box_free[i] = all;
    memcpy(s->grid, job->cells, (size_t)n * n);
    for (uint32_t i = 0; i < n * n; i++) {
        const uint32_t r = i / n, c = i % n, b = (r / bs) * bs + c / bs;
        const uint8_t v = s->grid[i];
        if (v > n)
            return SDK_FAILED;
        if (v == 0) {
            s->level[s->blank_len++] = (struct dfs_level){
                .cell = (uint16_t)i, .row = (uint8_t)r, .col = (uint8_t)c, .box = (uint8_t)b};
            continue;
        }
        const uint32_t bit = 1u << (v - 1);
        if (!(s->row_free[r] & s->col_free[c] & s->box_free[b] & bit))
            return SDK_UNSOLVABLE; /* v is already in this row, column or box */
        s->row_free[r] &= ~bit;
        s->col_free[c] &= ~bit;
        s->box_free[b] &= ~bit;
    }
    return SDK_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* Flip value bit in the free masks of l's row, column and box: takes it out
 * when placing, puts it back when undoing. */
static inline void dfs_flip(struct dfs *s, const struct dfs_level *l, uint32_t bit)
{
    s->row_free[l->row] ^= bit;
    s->col_free[l->col] ^= bit;
    s->box_free[l->box] ^= bit;
}

/* Try the smallest value left in l->untried (which must not be empty). */
static inline void dfs_try_next(struct dfs *s, struct dfs_level *l)
{
    const uint32_t bit = l->untried & (0u - l->untried);

    l->untried ^= bit;
    l->tried = bit;
    dfs_flip(s, l, bit);
}

/* Back up from *k blanks holding a value to the deepest one with a value
 * left to try, undoing the values on the way; *k becomes its index.  Returns
 * false when there is none: the search space is exhausted. */
static inline bool dfs_back(struct dfs *s, uint32_t *k)
{
    uint32_t i = *k;

    do {
        if (i == 0)
            return false;
        i--;
        dfs_flip(s, &s->level[i], s->level[i].tried);
    } while (!s->level[i].untried);
    *k = i;
    return true;
}

/* Record a complete grid: the givens plus every level's value.  Returns
 * true when the limit is reached. */
static bool dfs_found(struct dfs *s, struct sdk_job *job)
{
    if (job->count++ == 0) {
        for (uint32_t k = 0; k < s->blank_len; k++)
            s->grid[s->level[k].cell] = (uint8_t)(__builtin_ctz(s->level[k].tried) + 1);
        memcpy(job->solution, s->grid, (size_t)s->n * s->n);
    }
    return job->count >= job->limit;
}

/* Run the backtracking search.  Each turn of the outer loop goes down while
 * some value fits, records a solution if it reached the bottom, then backs
 * up to the deepest blank with a value left and tries it.  Returns 0 when
 * the search space is exhausted or the limit was reached, else
 * SDK_CANCELLED / SDK_TIMEDOUT. */
static int dfs_search(struct dfs *s, struct sdk_job *job)
{
    const uint32_t len = s->blank_len;
    uint64_t nodes = 0;
    uint32_t steps = 0; /* levels backed out of since the last poll */
    uint32_t k = 0;     /* blanks holding a value */
    int rc = 0;

    for (;;) {
        for (; k < len; k++, nodes++) {
            struct dfs_level *l = &s->level[k];
            l->untried = s->row_free[l->row] & s->col_free[l->col] & s->box_free[l->box];
            if (!l->untried)
                break;
            dfs_try_next(s, l);
        }
        if (k == len && dfs_found(s, job))
            break;
        if (!dfs_back(s, &k))
            break;
        dfs_try_next(s, &s->level[k]);
        k++;
        nodes++;
        if (++steps == DFS_POLL_STEPS) {
            steps = 0;
            rc = sdk_job_should_stop(job);
            if (rc)
                break;
        }
    }
    job->guesses = nodes;
    return rc;
}

/* The plugin's solve(): see include/sudoku/plugin.h for the contract. */
static int dfs_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    struct dfs s;
    (void)state;
    (void)host;

    if (!dfs_job_ok(job))
        return SDK_FAILED;
    job->count = 0;
    job->guesses = 0;
    int rc = dfs_load(&s, job);
    if (rc != SDK_SOLVED)
        return rc;
    rc = sdk_job_should_stop(job);
    if (rc == 0)
        rc = dfs_search(&s, job);
    if (rc != 0)
        return rc;
    return job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

static const struct sdk_plugin dfs_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "dfs",
    .version = "1.1.0",
    .description = "plain row-major backtracking, no heuristics (the baseline)",
    .sizes = SDK_SIZE_ALL,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL,
    .init = NULL,
    .fini = NULL,
    .solve = dfs_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

/* The one exported symbol: returns the constant descriptor above. */
SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &dfs_plugin;
}
