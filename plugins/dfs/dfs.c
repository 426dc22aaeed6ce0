/* dfs.c -- the classic row-major backtracking solver, kept as the baseline.
 *
 * This is the algorithm the project starts from and every other solver is
 * measured against: visit the blank cells in row-major order, try 1..n in
 * each, check the row, the column and the box by scanning the grid, and
 * backtrack when nothing fits.  It deliberately has no heuristics (no
 * candidate sets, no most-constrained cell, no propagation), so it is slow in
 * the well-known way: brute_force.txt costs it about 69 million nodes.
 *
 * The search is iterative: blank[k] is the k-th blank cell and the grid itself
 * holds the value currently tried there, so the "stack" is the pair
 * (blank[], k).  All working memory lives on the stack (a few KB even for
 * 25x25), so solve() never calls malloc.  There is no mutable global state;
 * solve() is reentrant.  The cancel flag and the deadline are polled after
 * every DFS_POLL_TRIES values checked (a bound on time for every size, which
 * a count of placed values is not: on 25x25 one placement may check 25).
 *
 * job->guesses counts nodes: every value placed in a cell.
 */
#include <sudoku/plugin.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DFS_POLL_TRIES 1024u /* poll sdk_job_should_stop() after this many values checked */

/* The working state of one solve call. */
struct dfs {
    uint32_t n;                    /* side */
    uint32_t box;                  /* box side */
    uint8_t grid[SDK_MAX_CELLS];   /* givens plus the values being tried */
    uint16_t blank[SDK_MAX_CELLS]; /* blank cells, row-major */
    uint32_t blank_len;            /* entries in blank[] */
};

/* ------------------------------------------------------------------------ */
/* Rule checks by scanning                                                    */
/* ------------------------------------------------------------------------ */

/* Returns true when value v can go at cell (r, c): no other cell of the row,
 * the column or the box holds v.  The cell itself is skipped, so this also
 * checks a given against the others. */
static bool dfs_fits(const struct dfs *s, uint32_t r, uint32_t c, uint8_t v)
{
    const uint32_t n = s->n;
    const uint8_t *row = s->grid + (size_t)r * n;
    for (uint32_t i = 0; i < n; i++)
        if (i != c && row[i] == v)
            return false;
    for (uint32_t i = 0; i < n; i++)
        if (i != r && s->grid[(size_t)i * n + c] == v)
            return false;
    const uint32_t r0 = r - r % s->box, c0 = c - c % s->box;
    for (uint32_t i = r0; i < r0 + s->box; i++) {
        const uint8_t *brow = s->grid + (size_t)i * n;
        for (uint32_t j = c0; j < c0 + s->box; j++)
            if ((i != r || j != c) && brow[j] == v)
                return false;
    }
    return true;
}

/* The same check for a blank cell during the search: nothing to skip, so
 * the scans are straight loops. */
static inline bool dfs_fits_blank(const struct dfs *s, uint32_t r, uint32_t c, uint8_t v)
{
    const uint32_t n = s->n, bs = s->box;
    const uint8_t *row = s->grid + (size_t)r * n, *column = s->grid + c;
    for (uint32_t i = 0; i < n; i++)
        if (row[i] == v || column[(size_t)i * n] == v)
            return false;
    const uint8_t *box = s->grid + (size_t)(r - r % bs) * n + (c - c % bs);
    for (uint32_t i = 0; i < bs; i++, box += n)
        for (uint32_t j = 0; j < bs; j++)
            if (box[j] == v)
                return false;
    return true;
}

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

/* Copy the puzzle into s and list its blanks.  Returns SDK_SOLVED when the
 * givens are consistent, SDK_UNSOLVABLE when two givens clash, SDK_FAILED
 * when a cell holds a value above n. */
static int dfs_load(struct dfs *s, const struct sdk_job *job)
{
    s->n = job->n;
    s->box = sdk_box_side(job->n);
    s->blank_len = 0;
    memcpy(s->grid, job->cells, (size_t)s->n * s->n);
    for (uint32_t i = 0; i < s->n * s->n; i++) {
        if (s->grid[i] > s->n)
            return SDK_FAILED;
        if (s->grid[i] == 0)
            s->blank[s->blank_len++] = (uint16_t)i;
    }
    for (uint32_t i = 0; i < s->n * s->n; i++)
        if (s->grid[i] && !dfs_fits(s, i / s->n, i % s->n, s->grid[i]))
            return SDK_UNSOLVABLE;
    return SDK_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* Run the backtracking search.  Returns 0 when the search space is exhausted
 * or the limit was reached, else SDK_CANCELLED / SDK_TIMEDOUT. */
static int dfs_search(struct dfs *s, struct sdk_job *job)
{
    const uint32_t n = s->n;
    uint64_t nodes = 0;
    uint32_t tries = 0; /* values checked since the last poll */
    int64_t k = 0;

    while (k >= 0) {
        if ((uint64_t)k == s->blank_len) {
            if (job->count++ == 0)
                memcpy(job->solution, s->grid, (size_t)n * n);
            if (job->count >= job->limit)
                break;
            k--; /* resume with the next value in the last blank */
            continue;
        }
        const uint16_t cell = s->blank[k];
        const uint32_t r = cell / n, c = cell % n;
        const uint8_t last = s->grid[cell];
        uint8_t v = (uint8_t)(last + 1);
        s->grid[cell] = 0;
        while (v <= n && !dfs_fits_blank(s, r, c, v))
            v++;
        tries += (uint32_t)(v - last);
        if (tries >= DFS_POLL_TRIES) {
            tries = 0;
            int stop = sdk_job_should_stop(job);
            if (stop) {
                job->guesses = nodes;
                return stop;
            }
        }
        if (v > n) {
            k--; /* nothing fits: back up, this cell is blank again */
            continue;
        }
        s->grid[cell] = v;
        k++;
        nodes++;
    }
    job->guesses = nodes;
    return 0;
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
    .version = "1.0.0",
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
