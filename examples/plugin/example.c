/* example.c -- a minimal third-party solver plugin for sudokud.
 *
 * Shows everything a plugin needs and nothing more: one exported entry
 * function returning a constant descriptor, a reentrant solve() with no
 * globals and no malloc, the limit honoured, and the cancel flag and deadline
 * polled.  The search is plain backtracking that always branches on the empty
 * cell with the fewest candidates; candidates are bit sets per row, column and
 * box.  Built out of tree against the installed SDK (see CMakeLists.txt).
 */
#include <stdint.h>
#include <string.h>

#include <sudoku/plugin.h>

#define STOP_POLL_MASK 1023u /* check cancel/deadline every 1024 nodes */

/* The search state, on the stack of solve(): nothing survives the call. */
struct search {
    struct sdk_job *job;
    uint32_t n, box;
    uint8_t grid[SDK_MAX_CELLS];
    uint32_t row[SDK_MAX_N], col[SDK_MAX_N], blk[SDK_MAX_N]; /* bit v-1: v used */
    uint64_t nodes;
    int stop; /* SDK_CANCELLED / SDK_TIMEDOUT once asked to stop, else 0 */
};

static uint32_t box_of(const struct search *s, uint32_t r, uint32_t c)
{
    return (r / s->box) * s->box + c / s->box;
}

static void place(struct search *s, uint32_t i, uint32_t v)
{
    uint32_t r = i / s->n, c = i % s->n, bit = 1u << (v - 1);

    s->grid[i] = (uint8_t)v;
    s->row[r] |= bit;
    s->col[c] |= bit;
    s->blk[box_of(s, r, c)] |= bit;
}

static void unplace(struct search *s, uint32_t i)
{
    uint32_t r = i / s->n, c = i % s->n, bit = 1u << (s->grid[i] - 1);

    s->grid[i] = 0;
    s->row[r] &= ~bit;
    s->col[c] &= ~bit;
    s->blk[box_of(s, r, c)] &= ~bit;
}

static uint32_t candidates(const struct search *s, uint32_t i)
{
    uint32_t r = i / s->n, c = i % s->n, all = (1u << s->n) - 1;

    return all & ~(s->row[r] | s->col[c] | s->blk[box_of(s, r, c)]);
}

/* The empty cell with the fewest candidates, or n*n when the grid is full. */
static uint32_t pick_cell(const struct search *s, uint32_t *cand)
{
    uint32_t best = s->n * s->n, best_len = 99;

    for (uint32_t i = 0; i < s->n * s->n; i++) {
        if (s->grid[i] != 0)
            continue;
        uint32_t m = candidates(s, i), len = (uint32_t)__builtin_popcount(m);
        if (len < best_len) {
            best = i;
            best_len = len;
            *cand = m;
            if (len <= 1)
                break;
        }
    }
    return best;
}

/* Depth-first search; returns non-zero when the search must end (limit
 * reached or asked to stop). */
static int backtrack(struct search *s)
{
    uint32_t cand = 0, i;

    if ((++s->nodes & STOP_POLL_MASK) == 0 && (s->stop = sdk_job_should_stop(s->job)) != 0)
        return 1;
    i = pick_cell(s, &cand);
    if (i == s->n * s->n) {
        if (s->job->count++ == 0)
            memcpy(s->job->solution, s->grid, (size_t)s->n * s->n);
        return s->job->count >= s->job->limit;
    }
    while (cand != 0) {
        uint32_t v = (uint32_t)__builtin_ctz(cand) + 1;
        cand &= cand - 1;
        s->job->guesses++;
        place(s, i, v);
        int done = backtrack(s);
        unplace(s, i);
        if (done)
            return 1;
    }
    return 0;
}

static int example_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    struct search s;

    (void)state;
    (void)host;
    memset(&s, 0, sizeof(s));
    s.job = job;
    s.n = job->n;
    s.box = sdk_box_side(job->n);
    if (s.box == 0 || job->limit == 0)
        return SDK_FAILED;
    job->count = 0;
    job->guesses = 0;
    for (uint32_t i = 0; i < s.n * s.n; i++) {
        if (job->cells[i] != 0)
            place(&s, i, job->cells[i]); /* the host has checked the givens */
    }
    backtrack(&s);
    if (s.stop != 0)
        return s.stop;
    return job->count > 0 ? SDK_SOLVED : SDK_UNSOLVABLE;
}

static const struct sdk_plugin example_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "example",
    .version = "1.0",
    .description = "example third-party plugin: backtracking, fewest candidates first",
    .sizes = SDK_SIZE_4 | SDK_SIZE_9 | SDK_SIZE_16,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL,
    .solve = example_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &example_plugin;
}
