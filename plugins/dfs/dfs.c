/* dfs.c -- the classic row-major backtracking solver, kept as the baseline.
 *
 * This is the algorithm the project starts from and every other solver is
 * measured against: visit the blank cells in row-major order, try 1..n in
 * each, keep the first value the row, the column and the box allow, and
 * backtrack when nothing fits.  It deliberately has no heuristics (no
 * most-constrained cell, no propagation), so its search tree is exactly the
 * textbook one: brute_force.txt costs it about 69 million nodes.
 *
 * Each row, column and box keeps the set of values still free in it as a
 * bit mask (bit v-1 for value v), so the values a blank may take are one AND
 * of three words, and trying the next value is taking the lowest bit left.
 * The order of the values tried is still 1..n, so the tree (the guesses, and
 * their order) is the one a scanning program makes; tests/test_dfs_tree.c
 * checks that against a scanning search.
 *
 * What makes each node cheap: the masks of the blank being filled and of the
 * next one are mostly the same words (same row; same box two times in three),
 * so going down carries the row and box masks in registers instead of
 * storing them and loading them back at once (a store-to-load round trip on
 * every node was most of the dependency chain).  The row mask needs no memory
 * at all: in row-major order a row's first blank always sees the row with
 * only its givens (level.row_init).  Column and box masks live in free[]; the
 * box is loaded only when the next blank is in another box (else it loads a
 * slot never written, level.box_load, so the select does not wait on the
 * store just made).  Every level saves the three masks it arrived with, so
 * backing up restores them with plain stores (no read-modify-write chain)
 * and the next sibling value is the saved mask less that one bit.
 *
 * The search is iterative.  Level k is the k-th blank cell (row-major); the
 * grid is written only when a solution is found, from the levels.  All
 * working memory lives on the stack (about 20 KB for 25x25), so solve()
 * never calls malloc.  There is no mutable global state; solve() is
 * reentrant.  The cancel flag and the deadline are polled every
 * DFS_POLL_STEPS sibling values tried after a backtrack (each move is O(1)
 * for every size, at most n*n forward moves and n*n backward moves separate
 * two such tries, so this bounds the time between polls).
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
    /* fixed by dfs_load */
    uint8_t col;       /* index of its column's mask in dfs.free[] */
    uint8_t box;       /* ... of its box's mask */
    uint8_t box_load;  /* box, or DFS_NONE when the previous blank is in the same box */
    uint8_t new_row;   /* 1 when the previous blank is in another row (or there is none) */
    uint32_t row_init; /* its row's free values with no blank of the row filled */
    /* set on every arrival: the masks as they were before this blank's value */
    uint32_t row_at, col_at, box_at;
    uint32_t untried; /* values still to try here (bit v-1) */
    uint32_t tried;   /* the value being tried (one bit) */
};

#define DFS_NONE (2 * SDK_MAX_N) /* a slot of dfs.free[] that is never written */

/* The working state of one solve call. */
struct dfs {
    uint32_t n;                            /* side */
    uint32_t blank_len;                    /* entries in level[] */
    uint32_t row_free[SDK_MAX_N];          /* values not in row r among the givens */
    uint32_t free[2 * SDK_MAX_N + 1];      /* values not yet in column c, box n+b; then DFS_NONE */
    uint16_t cell[SDK_MAX_CELLS];          /* level k's row-major index */
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
        s->row_free[i] = s->free[i] = s->free[n + i] = all;
    s->free[DFS_NONE] = 0;
    memcpy(s->grid, job->cells, (size_t)n * n);
    for (uint32_t i = 0; i < n * n; i++) {
        const uint32_t r = i / n, c = i % n, b = n + (r / bs) * bs + c / bs;
        const uint8_t v = s->grid[i];
        if (v > n)
            return SDK_FAILED;
        if (v == 0) {
            s->cell[s->blank_len] = (uint16_t)i;
            s->level[s->blank_len++] = (struct dfs_level){.col = (uint8_t)c, .box = (uint8_t)b};
            continue;
        }
        const uint32_t bit = 1u << (v - 1);
        if (!(s->row_free[r] & s->free[c] & s->free[b] & bit))
            return SDK_UNSOLVABLE; /* v is already in this row, column or box */
        s->row_free[r] &= ~bit;
        s->free[c] &= ~bit;
        s->free[b] &= ~bit;
    }
    for (uint32_t k = 0; k < s->blank_len; k++) {
        struct dfs_level *l = &s->level[k];
        const uint32_t r = s->cell[k] / n;
        l->row_init = s->row_free[r];
        l->new_row = k == 0 || r != s->cell[k - 1] / n;
        l->box_load = (k > 0 && l->box == l[-1].box) ? DFS_NONE : l->box;
    }
    return SDK_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* Record a complete grid: the givens plus every level's value.  Returns
 * true when the limit is reached. */
static bool dfs_found(struct dfs *s, struct sdk_job *job)
{
    if (job->count++ == 0) {
        for (uint32_t k = 0; k < s->blank_len; k++)
            s->grid[s->cell[k]] = (uint8_t)(__builtin_ctz(s->level[k].tried) + 1);
        memcpy(job->solution, s->grid, (size_t)s->n * s->n);
    }
    return job->count >= job->limit;
}

/* Enter level k+1 after level k took value bit, leaving row and box its
 * row and box masks: carried over when it shares them, else fresh. */
static inline void dfs_next_masks(const struct dfs_level *next, const uint32_t *f, uint32_t *row,
                                  uint32_t *box)
{
    const uint32_t loaded = f[next->box_load]; /* never the slot just stored */
    *row = next->new_row ? next->row_init : *row;
    *box = next->box_load != DFS_NONE ? loaded : *box;
}

/* Give level l the smallest value of c (not empty), its column and box
 * masks having been col_at and box_at on arrival; the rest of c stays to
 * try.  Returns the value's bit. */
static inline uint32_t dfs_take(struct dfs_level *l, uint32_t *f, uint32_t c, uint32_t col_at,
                                uint32_t box_at)
{
    const uint32_t bit = c & (0u - c);

    l->untried = c ^ bit;
    l->tried = bit;
    f[l->col] = col_at ^ bit;
    f[l->box] = box_at ^ bit;
    return bit;
}

/* Run the backtracking search.  Going down fills blanks while some value
 * fits; at a dead end (or a solution) it backs up to the deepest blank with
 * a value left, restoring the masks each level saved, and tries that value.
 * Returns 0 when the search space is exhausted or the limit was reached,
 * else SDK_CANCELLED / SDK_TIMEDOUT. */
static int dfs_search(struct dfs *s, struct sdk_job *job)
{
    const uint32_t len = s->blank_len;
    struct dfs_level *const lv = s->level;
    uint32_t *const f = s->free;
    uint64_t nodes = 0;
    uint32_t steps = DFS_POLL_STEPS; /* sibling tries left before the next poll */
    uint32_t k = 0;                  /* blanks holding a value */
    uint32_t row = 0, box = 0;       /* level k's row and box masks on arrival */
    int rc = 0;

    if (len == 0)
        goto leaf;
    row = lv[0].row_init;
    box = f[lv[0].box];
down:
    for (;;) {
        struct dfs_level *l = &lv[k];
        const uint32_t col = f[l->col];
        const uint32_t c = row & col & box;
        if (!c)
            goto up;
        l->row_at = row;
        l->col_at = col;
        l->box_at = box;
        const uint32_t bit = dfs_take(l, f, c, col, box);
        nodes++;
        if (++k == len)
            goto leaf;
        row ^= bit;
        box ^= bit;
        dfs_next_masks(l + 1, f, &row, &box);
    }
leaf:
    if (dfs_found(s, job))
        goto out;
up:
    for (;;) {
        if (k == 0)
            goto out;
        struct dfs_level *l = &lv[--k];
        const uint32_t c = l->untried;
        if (!c) {
            f[l->col] = l->col_at;
            f[l->box] = l->box_at;
            continue;
        }
        const uint32_t bit = dfs_take(l, f, c, l->col_at, l->box_at);
        nodes++;
        if (--steps == 0) {
            steps = DFS_POLL_STEPS;
            rc = sdk_job_should_stop(job);
            if (rc)
                goto out;
        }
        if (++k == len)
            goto leaf;
        row = l->row_at ^ bit;
        box = l->box_at ^ bit;
        dfs_next_masks(l + 1, f, &row, &box);
        goto down;
    }
out:
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
    .version = "1.2.0",
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
