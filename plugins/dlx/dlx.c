/* dlx.c -- Knuth's Algorithm X with dancing links, for every grid size.
 *
 * Sudoku as exact cover: one option per (cell, value) and four items per
 * option: "the cell is filled", "the row has the value", "the column has the
 * value", "the box has the value".  A solution picks options that cover every
 * item exactly once.
 *
 * Layout, in the style of Knuth's DLX1: links are indices into one node
 * array, not pointers, and 16 bits wide (a 25x25 matrix has 65,000 nodes),
 * so a node is 8 bytes and an option's four nodes one aligned 32-byte block.
 * The first nodes are the headers of the open items, numbered in item id
 * order; the options follow from DLX_ITEMS(n), four consecutive nodes each,
 * one per item:
 *
 *     node:  0 .. open-1       (unused)   DLX_ITEMS(n)   +4      +8   ...
 *            item headers                 opt 0          opt 1   opt 2
 *
 *     x[i].u, x[i].d   up/down links of every node (headers included)
 *     x[i].col         the item header of every node
 *     x[h].id          a header's item id, from which a solution is read
 *     len[h]           live options of item h, + DLX_COVERED while covered
 *
 * Options are never unlinked horizontally, so their left/right links are
 * implicit: the other nodes of the aligned group of four (DLX1 uses spacer
 * nodes for the same reason).  The items need no left/right list either:
 * instead of walking a linked list of live items to find the smallest (a
 * chain of dependent loads that cost a third of the run time), a covered
 * item carries DLX_COVERED in its size, and the smallest item is the first
 * minimum of the dense byte array len[], padded to whole 16-byte blocks, a
 * loop the compiler vectorises.  A covered item's size is never touched
 * while it is covered (its options are gone from every other item), so the
 * bias is exact.  Each level fills one cell, so a solution is found when the
 * level reaches the number of blanks: no count of live items is kept.
 *
 * Givens are covered before the search by never creating them: the matrix is
 * built per call, in two passes over the grid (the givens' masks, then the
 * options that agree with every given), so it holds only the open items and
 * their options.  Set-up cost is then proportional to the open part of the
 * puzzle, which dominates on easy puzzles.  Two clashing givens make the
 * puzzle SDK_UNSOLVABLE before anything is built.
 *
 * Everything below dlx_run() is inlined into two callers: dlx_run9(), with n
 * a constant 9 (fixed loop bounds, no division) and the matrix on the stack
 * (about 27 KB), and dlx_run_any() for the other sides, with one block
 * allocated per call and freed before returning.  The search is iterative
 * with an explicit choice stack (one entry per level, at most n*n levels)
 * and branches on the item with the fewest live options.  No mutable
 * globals: solve() is reentrant.  job->guesses counts options tried.
 *
 * A job with variant rules (every kind but killer cages, DLX_RULES) goes to
 * the general matrix of rules.c instead: houses as primary items, pair
 * rules as secondary ones.
 */
#include "dlx_rules.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DLX_POLL_MASK 255u      /* poll sdk_job_should_stop() every 256 options */
#define DLX_COVERED   64u       /* added to len[] while an item is covered (> SDK_MAX_N) */
#define DLX_NO_ITEM   UINT8_MAX /* len[] of the padding after the items: never the least */

/* Sizes of the matrix for side n. */
#define DLX_ITEMS(n)   (4 * (n) * (n))   /* items (columns), a multiple of 4 */
#define DLX_OPTIONS(n) ((n) * (n) * (n)) /* options (rows) */
#define DLX_NODES(n)   (DLX_ITEMS(n) + 4 * DLX_OPTIONS(n))
#define DLX_LENS(n)    ((DLX_ITEMS(n) + 15) & ~15) /* len[] padded to 16-byte blocks */

/* Inlined into each caller, so that the 9x9 copy has n constant. */
#define DLX_INLINE static inline __attribute__((always_inline))

/* One node, 8 bytes: an option's four nodes are one aligned 32-byte block. */
struct dlx_node {
    uint16_t u;   /* up link */
    uint16_t d;   /* down link */
    uint16_t col; /* the item header (a header points to itself) */
    uint16_t id;  /* a header's item id (see below); unused in an option */
};

_Static_assert(DLX_NODES(SDK_MAX_N) <= UINT16_MAX, "node indices must fit in 16 bits");

/* The matrix and the search state of one solve call.  Every pointer points
 * into a struct dlx_mem9 on the caller's stack or into one malloc'd block. */
struct dlx {
    struct dlx_node *x; /* per node: links and item */
    uint8_t *len;       /* per header: live options (+ DLX_COVERED), then padding */
    uint16_t *choice;   /* per level: the option node chosen */
    uint16_t *item_of;  /* per item id: its header (set-up only) */
    int open_len;       /* open cells: the levels of a solution */
    int lens_len;       /* len[] scanned: headers rounded up to 16 */
};

/* Fixed storage for a 9x9 grid, so the 9x9 path never calls malloc. */
struct dlx_mem9 {
    struct dlx_node x[DLX_NODES(9)];
    uint8_t len[DLX_LENS(9)];
    uint16_t choice[9 * 9];
    uint16_t item_of[DLX_ITEMS(9)];
};

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* Point s at the 9x9 storage m. */
static void dlx_use_mem9(struct dlx *s, struct dlx_mem9 *m)
{
    s->x = &m->x[0];
    s->len = &m->len[0];
    s->choice = &m->choice[0];
    s->item_of = &m->item_of[0];
}

/* Allocate one block for side n and point s into it.  Returns the block
 * (the caller frees it) or NULL when out of memory. */
static void *dlx_alloc(struct dlx *s, uint32_t n)
{
    const size_t nodes = (size_t)DLX_NODES(n), levels = (size_t)n * n;
    struct dlx_node *block =
        malloc(nodes * sizeof(*block) + (levels + DLX_ITEMS(n)) * sizeof(uint16_t) + DLX_LENS(n));
    if (!block)
        return NULL;
    s->x = block;
    s->choice = (uint16_t *)(block + nodes);
    s->item_of = s->choice + levels;
    s->len = (uint8_t *)(s->item_of + DLX_ITEMS(n));
    return block;
}

/* ------------------------------------------------------------------------ */
/* Building the matrix                                                       */
/* ------------------------------------------------------------------------ */

/* Item ids, each its header's node: cell i is item i, value v (0-based) of
 * row, column and box u is item (1, 2, 3) * n*n + u*n + v. */

/* Collect the row, column and box masks of the givens (bit v-1 for value v)
 * and mark the four items of every given covered.  Returns SDK_SOLVED,
 * SDK_UNSOLVABLE when two givens clash, or SDK_FAILED when a cell is out of
 * range; s->open_len is the number of blanks. */
DLX_INLINE int dlx_givens(struct dlx *s, const uint8_t *cells, uint32_t n, uint32_t *rows,
                          uint32_t *cols, uint32_t *boxes)
{
    const uint32_t nn = n * n, bs = sdk_box_side(n);
    int open = 0;

    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t c = 0; c < n; c++) {
            const uint32_t i = r * n + c, v = cells[i], b = (r / bs) * bs + c / bs;
            if (v == 0) {
                open++;
                continue;
            }
            if (v > n)
                return SDK_FAILED;
            const uint32_t bit = 1u << (v - 1);
            if ((rows[r] | cols[c] | boxes[b]) & bit)
                return SDK_UNSOLVABLE;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
            s->item_of[i] = s->item_of[nn + r * n + v - 1] = 0;
            s->item_of[2 * nn + c * n + v - 1] = s->item_of[3 * nn + b * n + v - 1] = 0;
        }
    }
    s->open_len = open;
    return SDK_SOLVED;
}

/* Append option (cell, value v 0-based) as the four nodes from x0 at the
 * bottom of their items.  ids[] are the item ids of the cell and of value 0
 * in its row, column and box; value v adds v to the last three. */
DLX_INLINE void dlx_add_option(struct dlx *s, uint32_t x0, const uint32_t ids[4], uint32_t v)
{
    struct dlx_node *x = s->x;

    for (uint32_t k = 0; k < 4; k++) {
        const uint32_t h = s->item_of[ids[k] + (k ? v : 0)], last = x[h].u;
        x[x0 + k] = (struct dlx_node){.u = (uint16_t)last, .d = (uint16_t)h, .col = (uint16_t)h};
        x[last].d = (uint16_t)(x0 + k);
        x[h].u = (uint16_t)(x0 + k);
        s->len[h]++;
    }
}

/* Number the open items' headers in item id order, compactly, and pad len[]
 * to whole 16-byte blocks.  Each id's header is written, the next open id
 * overwriting it when the id is covered: no branch per item. */
DLX_INLINE void dlx_make_headers(struct dlx *s, uint32_t n)
{
    uint32_t h = 0;

    for (uint32_t id = 0; id < DLX_ITEMS(n); id++) {
        const uint32_t is_open = s->item_of[id];
        s->x[h] = (struct dlx_node){
            .u = (uint16_t)h, .d = (uint16_t)h, .col = (uint16_t)h, .id = (uint16_t)id};
        s->len[h] = 0;
        s->item_of[id] = (uint16_t)h;
        h += is_open;
    }
    s->lens_len = (int)((h + 15) & ~15u);
    memset(s->len + h, DLX_NO_ITEM, (size_t)s->lens_len - h);
}

/* Build the matrix of the open part of the puzzle.  Returns SDK_SOLVED,
 * SDK_UNSOLVABLE when givens clash, SDK_FAILED on a value out of range. */
DLX_INLINE int dlx_build(struct dlx *s, const uint8_t *cells, uint32_t n)
{
    uint32_t rows[SDK_MAX_N] = {0}, cols[SDK_MAX_N] = {0}, boxes[SDK_MAX_N] = {0};
    const uint32_t nn = n * n, bs = sdk_box_side(n), full = (1u << n) - 1;

    for (uint32_t id = 0; id < DLX_ITEMS(n); id++)
        s->item_of[id] = 1;
    int rc = dlx_givens(s, cells, n, rows, cols, boxes);
    if (rc != SDK_SOLVED)
        return rc;
    dlx_make_headers(s, n);

    uint32_t x0 = DLX_ITEMS(n);
    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t c = 0; c < n; c++) {
            const uint32_t i = r * n + c, b = (r / bs) * bs + c / bs;
            if (cells[i])
                continue;
            const uint32_t ids[4] = {i, nn + r * n, 2 * nn + c * n, 3 * nn + b * n};
            for (uint32_t m = ~(rows[r] | cols[c] | boxes[b]) & full; m; m &= m - 1) {
                dlx_add_option(s, x0, ids, (uint32_t)__builtin_ctz(m));
                x0 += 4;
            }
        }
    }
    return SDK_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* Dancing links                                                             */
/* ------------------------------------------------------------------------ */

/* The k-th neighbour (1..3) of option node x, going right. */
DLX_INLINE uint32_t dlx_next(uint32_t x, uint32_t k)
{
    return (x & ~3u) | ((x + k) & 3u);
}

/* Cover item c: mark it covered and unlink every option that uses it from
 * the other items. */
DLX_INLINE void dlx_cover(struct dlx_node *x, uint8_t *len, uint32_t c)
{
    len[c] += DLX_COVERED;
    for (uint32_t i = x[c].d; i != c; i = x[i].d) {
        for (uint32_t k = 1; k < 4; k++) {
            const struct dlx_node j = x[dlx_next(i, k)];
            x[j.d].u = j.u;
            x[j.u].d = j.d;
            len[j.col]--;
        }
    }
}

/* Undo dlx_cover(x, len, c), in exactly the reverse order. */
DLX_INLINE void dlx_uncover(struct dlx_node *x, uint8_t *len, uint32_t c)
{
    for (uint32_t i = x[c].u; i != c; i = x[i].u) {
        for (uint32_t k = 3; k > 0; k--) {
            const uint32_t j = dlx_next(i, k);
            len[x[j].col]++;
            x[x[j].d].u = (uint16_t)j;
            x[x[j].u].d = (uint16_t)j;
        }
    }
    len[c] -= DLX_COVERED;
}

/* Cover the other three items of option node o (its own item is covered). */
DLX_INLINE void dlx_select(struct dlx_node *x, uint8_t *len, uint32_t o)
{
    for (uint32_t k = 1; k < 4; k++)
        dlx_cover(x, len, x[dlx_next(o, k)].col);
}

/* Undo dlx_select(x, len, o). */
DLX_INLINE void dlx_unselect(struct dlx_node *x, uint8_t *len, uint32_t o)
{
    for (uint32_t k = 3; k > 0; k--)
        dlx_uncover(x, len, x[dlx_next(o, k)].col);
}

/* The live item with the fewest options, the first such in header order.
 * Needs a live item.  Two passes over the byte array: the minimum (which
 * vectorises), then its first position (memchr). */
DLX_INLINE uint32_t dlx_choose(const uint8_t *len, int lens_len)
{
    uint8_t least = UINT8_MAX;

    for (int i = 0; i < lens_len; i++)
        least = len[i] < least ? len[i] : least;
    return (uint32_t)((const uint8_t *)memchr(len, least, (size_t)lens_len) - len);
}
/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* Write the givens plus the options chosen on levels 0..level-1 into out.
 * An option's cell is its first node's item, its value that of the second
 * (row n*n + r*n + v). */
DLX_INLINE void dlx_record(const struct dlx *s, const uint8_t *cells, int level, uint32_t n,
                           uint8_t *out)
{
    memcpy(out, cells, (size_t)n * n);
    for (int i = 0; i < level; i++) {
        const struct dlx_node *o = s->x + (s->choice[i] & ~3u);
        out[s->x[o[0].col].id] = (uint8_t)((s->x[o[1].col].id - n * n) % n + 1);
    }
}

/* Go one step forward from a fresh level: record a solution, or cover the
 * smallest item.  Returns its first option node, or -1 to backtrack. */
DLX_INLINE int dlx_descend(struct dlx *s, struct sdk_job *job, int level, uint32_t n)
{
    if (level == s->open_len) {
        if (job->count++ == 0)
            dlx_record(s, job->cells, level, n, job->solution);
        return -1;
    }
    const uint32_t c = dlx_choose(s->len, s->lens_len);
    if (s->len[c] == 0)
        return -1;
    dlx_cover(s->x, s->len, c);
    return s->x[c].d;
}

/* Run Algorithm X.  Returns 0 when the search is exhausted or the limit is
 * reached, else SDK_CANCELLED / SDK_TIMEDOUT.  Either way job->count and
 * job->guesses are up to date. */
DLX_INLINE int dlx_search(struct dlx *s, struct sdk_job *job, uint32_t n)
{
    struct dlx_node *x = s->x;
    uint8_t *len = s->len;
    uint64_t guesses = 0;
    int level = 0, o = dlx_descend(s, job, 0, n), rc = 0;

    for (;;) {
        if (o < 0) { /* backtrack: next option of the level above */
            if (level == 0 || job->count >= job->limit)
                break;
            o = s->choice[--level];
            dlx_unselect(x, len, (uint32_t)o);
            o = x[o].d;
        }
        if (o < (int)DLX_ITEMS(n)) { /* back at the header: every option failed */
            dlx_uncover(x, len, (uint32_t)o);
            o = -1;
            continue;
        }
        s->choice[level++] = (uint16_t)o;
        dlx_select(x, len, (uint32_t)o);
        if ((++guesses & DLX_POLL_MASK) == 0 && (rc = sdk_job_should_stop(job)) != 0)
            break;
        o = dlx_descend(s, job, level, n);
    }
    job->guesses = guesses;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Plugin entry                                                              */
/* ------------------------------------------------------------------------ */

/* Returns true when the job is well formed enough to read. */
static bool dlx_job_ok(const struct sdk_job *job)
{
    if (job->size < offsetof(struct sdk_job, guesses) + sizeof(job->guesses))
        return false;
    return sdk_box_side(job->n) != 0 && job->cells && job->solution && job->limit >= 1;
}

/* Build the matrix in s and search it.  Returns an enum sdk_status. */
DLX_INLINE int dlx_run(struct dlx *s, struct sdk_job *job, uint32_t n)
{
    int rc = dlx_build(s, job->cells, n);
    if (rc != SDK_SOLVED)
        return rc;
    rc = sdk_job_should_stop(job);
    if (rc == 0)
        rc = dlx_search(s, job, n);
    if (rc != 0)
        return rc;
    return job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

/* dlx_run() for 9x9, with n constant and the matrix on the stack. */
static int dlx_run9(struct sdk_job *job)
{
    struct dlx_mem9 mem;
    struct dlx s;

    dlx_use_mem9(&s, &mem);
    return dlx_run(&s, job, 9);
}

/* dlx_run() for the other sides, with the matrix in one malloc'd block. */
static int dlx_run_any(struct sdk_job *job)
{
    struct dlx s;
    void *block = dlx_alloc(&s, job->n);

    if (!block)
        return SDK_FAILED;
    int rc = dlx_run(&s, job, job->n);
    free(block);
    return rc;
}

/* The plugin's solve(): see include/sudoku/plugin.h for the contract. */
static int dlx_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    (void)state;
    (void)host;

    if (!dlx_job_ok(job))
        return SDK_FAILED;
    job->count = 0;
    job->guesses = 0;
    if (job->size >= offsetof(struct sdk_job, rules) + sizeof(job->rules) && job->rules)
        return dlx_rules_solve(job, job->rules);
    return job->n == 9 ? dlx_run9(job) : dlx_run_any(job);
}

static const struct sdk_plugin dlx_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "dlx",
    .version = "1.1.0",
    .description = "Knuth's Algorithm X with dancing links, smallest item first; houses and "
                   "pair rules",
    .sizes = SDK_SIZE_ALL,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL | SDK_CAP_PROMPT,
    .init = NULL,
    .fini = NULL,
    .solve = dlx_solve,
    .explain = NULL,
    .explain_sizes = 0,
    .rules = DLX_RULES,
    .explain_rules = 0,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

/* The one exported symbol: returns the constant descriptor above. */
SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &dlx_plugin;
}
