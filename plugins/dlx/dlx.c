/* dlx.c -- Knuth's Algorithm X with dancing links, for every grid size.
 *
 * Sudoku as exact cover: one option per (cell, value) and four items per
 * option: "the cell is filled", "the row has the value", "the column has the
 * value", "the box has the value".  A solution picks options that cover every
 * item exactly once.
 *
 * Layout, in the style of Knuth's DLX1: links are int indices into one node
 * array, not pointers.  Node 0 is the root, nodes 1..item_len are the item
 * headers, and the options follow from `base` (a multiple of 4), four
 * consecutive nodes each, one per item:
 *
 *     node:  0     1 .. item_len     pad   base   base+4   base+8  ...
 *            root  item headers            opt 0  opt 1    opt 2
 *
 *     x[i].u, x[i].d   up/down links of every node (headers included)
 *     x[i].col         the item header of every node
 *     len[h]           live options of item h, + DLX_COVERED while covered
 *
 * Options are never unlinked horizontally, so their left/right links are
 * implicit: the other nodes of the aligned group of four (DLX1 uses spacer
 * nodes for the same reason).  The items need no left/right list either:
 * instead of walking a linked list of live items to find the smallest (a
 * chain of dependent loads that cost a third of the run time), a covered
 * item carries DLX_COVERED in its size, and the smallest item is the first
 * minimum of the dense byte array len[1..item_len], a loop the compiler
 * vectorises.  A covered item's size is never touched while it is covered
 * (its options are gone from every other item), so the bias is exact.
 *
 * Givens are covered before the search by never creating them: the matrix is
 * built per call with plain loops from the row/column/box masks of the
 * givens, so it holds only the open items and the options that agree with
 * every given.  Set-up cost is then proportional to the open part of the
 * puzzle, which dominates on easy puzzles.  Two clashing givens make the
 * puzzle SDK_UNSOLVABLE before anything is built.
 *
 * The search is iterative with an explicit choice stack (one entry per level,
 * at most n*n levels) and branches on the item with the fewest live options.
 * 9x9 works entirely on the stack (about 43 KB); 16x16 and 25x25 allocate one
 * block per call before the search and free it before returning.  No mutable
 * globals: solve() is reentrant.  job->guesses counts options tried.
 */
#include <sudoku/plugin.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DLX_POLL_MASK 255u /* poll sdk_job_should_stop() every 256 options */
#define DLX_COVERED   64u  /* added to len[] while an item is covered (> SDK_MAX_N) */

/* Sizes of the matrix for side n. */
#define DLX_ITEMS(n)   (4 * (n) * (n))               /* items (columns) */
#define DLX_OPTIONS(n) ((n) * (n) * (n))             /* options (rows) */
#define DLX_BASE(n)    ((DLX_ITEMS(n) + 1 + 3) & ~3) /* first option node */
#define DLX_NODES(n)   (DLX_BASE(n) + 4 * DLX_OPTIONS(n))

/* One node.  The links sit together so that unlinking a node touches one
 * cache line, not three arrays. */
struct dlx_node {
    int u;   /* up link */
    int d;   /* down link */
    int col; /* the item header (a header points to itself) */
};

/* The matrix and the search state of one solve call.  Every pointer points
 * into a struct dlx_mem9 on the caller's stack or into one malloc'd block. */
struct dlx {
    struct dlx_node *x; /* per node: links and item */
    uint8_t *len;       /* per header: live options (+ DLX_COVERED) */
    int *item_of;       /* per item id: its header, 0 when a given covers it */
    int *choice;        /* per level: the option node chosen */
    uint16_t *opt_cell; /* per option: its cell */
    uint8_t *opt_val;   /* per option: its value */
    int base;           /* first option node, a multiple of 4 */
    int item_len;       /* item headers in use */
    int live_len;       /* items not covered yet */
    int opt_len;        /* options in use */
    uint32_t n;         /* side */
};

/* Fixed storage for a 9x9 grid, so the 9x9 path never calls malloc. */
struct dlx_mem9 {
    struct dlx_node x[DLX_NODES(9)];
    uint8_t len[DLX_ITEMS(9) + 1];
    int item_of[DLX_ITEMS(9)];
    int choice[9 * 9];
    uint16_t opt_cell[DLX_OPTIONS(9)];
    uint8_t opt_val[DLX_OPTIONS(9)];
};

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* Point s at the 9x9 storage m. */
static void dlx_use_mem9(struct dlx *s, struct dlx_mem9 *m)
{
    s->x = &m->x[0];
    s->len = &m->len[0];
    s->item_of = &m->item_of[0];
    s->choice = &m->choice[0];
    s->opt_cell = &m->opt_cell[0];
    s->opt_val = &m->opt_val[0];
}

/* Allocate one block for side n and point s into it.  Returns the block
 * (the caller frees it) or NULL when out of memory. */
static void *dlx_alloc(struct dlx *s, uint32_t n)
{
    const size_t nodes = (size_t)DLX_NODES(n), items = (size_t)DLX_ITEMS(n);
    const size_t opts = (size_t)DLX_OPTIONS(n), ints = items + (size_t)n * n;
    struct dlx_node *block = malloc(nodes * sizeof(*block) + ints * sizeof(int) +
                                    opts * sizeof(uint16_t) + opts + items + 1);
    if (!block)
        return NULL;
    s->x = block;
    s->item_of = (int *)(block + nodes);
    s->choice = s->item_of + items;
    s->opt_cell = (uint16_t *)(s->choice + (size_t)n * n);
    s->opt_val = (uint8_t *)(s->opt_cell + opts);
    s->len = s->opt_val + opts;
    return block;
}

/* ------------------------------------------------------------------------ */
/* Building the matrix                                                       */
/* ------------------------------------------------------------------------ */

/* Collect the row, column and box masks of the givens (bit v-1 for value v).
 * Returns SDK_SOLVED, SDK_UNSOLVABLE when two givens clash, or SDK_FAILED
 * when a cell is out of range. */
static int dlx_masks(uint32_t n, const uint8_t *cells, uint32_t *rows, uint32_t *cols,
                     uint32_t *boxes)
{
    const uint32_t bs = sdk_box_side(n);
    memset(rows, 0, n * sizeof(*rows));
    memset(cols, 0, n * sizeof(*cols));
    memset(boxes, 0, n * sizeof(*boxes));
    for (uint32_t i = 0; i < n * n; i++) {
        if (cells[i] == 0)
            continue;
        if (cells[i] > n)
            return SDK_FAILED;
        const uint32_t r = i / n, c = i % n, b = (r / bs) * bs + c / bs;
        const uint32_t bit = 1u << (cells[i] - 1);
        if ((rows[r] | cols[c] | boxes[b]) & bit)
            return SDK_UNSOLVABLE;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    return SDK_SOLVED;
}

/* Mark as open every item id the givens leave uncovered (item_of[id] = 1,
 * else 0); headers are numbered later. */
static void dlx_mark_items(struct dlx *s, const uint8_t *cells, const uint32_t *rows,
                           const uint32_t *cols, const uint32_t *boxes)
{
    const uint32_t n = s->n, nn = n * n;
    for (uint32_t i = 0; i < nn; i++)
        s->item_of[i] = cells[i] == 0;
    for (uint32_t u = 0; u < n; u++) {
        for (uint32_t v = 0; v < n; v++) {
            s->item_of[nn + u * n + v] = !(rows[u] >> v & 1);
            s->item_of[2 * nn + u * n + v] = !(cols[u] >> v & 1);
            s->item_of[3 * nn + u * n + v] = !(boxes[u] >> v & 1);
        }
    }
}

/* Create an empty header for every open item, numbered in item id order. */
static void dlx_make_headers(struct dlx *s)
{
    int h = 0;
    for (uint32_t id = 0; id < DLX_ITEMS(s->n); id++) {
        if (!s->item_of[id])
            continue;
        h++;
        s->item_of[id] = h;
        s->x[h].u = s->x[h].d = s->x[h].col = h;
        s->len[h] = 0;
    }
    s->len[0] = UINT8_MAX; /* the root is never chosen */
    s->item_len = s->live_len = h;
    s->base = (h + 1 + 3) & ~3;
}

/* Append option (cell, value v 0-based) as four nodes at the bottom of their
 * items.  ids[] are the item ids of the cell and of value 0 in its row, column
 * and box; value v adds v to the last three. */
static void dlx_add_option(struct dlx *s, uint32_t cell, const uint32_t ids[4], uint32_t v)
{
    const int opt = s->opt_len++;
    const int x0 = s->base + 4 * opt;

    s->opt_cell[opt] = (uint16_t)cell;
    s->opt_val[opt] = (uint8_t)(v + 1);
    for (int k = 0; k < 4; k++) {
        const int h = s->item_of[ids[k] + (k ? v : 0)];
        struct dlx_node *x = s->x + x0 + k, *head = s->x + h;
        x->col = h;
        x->u = head->u;
        x->d = h;
        s->x[head->u].d = x0 + k;
        head->u = x0 + k;
        s->len[h]++;
    }
}

/* Build the matrix of the open part of the puzzle.  Returns SDK_SOLVED,
 * SDK_UNSOLVABLE when givens clash, SDK_FAILED on a value out of range. */
static int dlx_build(struct dlx *s, const uint8_t *cells)
{
    uint32_t rows[SDK_MAX_N], cols[SDK_MAX_N], boxes[SDK_MAX_N];
    const uint32_t n = s->n, bs = sdk_box_side(n);

    int rc = dlx_masks(n, cells, rows, cols, boxes);
    if (rc != SDK_SOLVED)
        return rc;
    dlx_mark_items(s, cells, rows, cols, boxes);
    dlx_make_headers(s);
    s->opt_len = 0;
    for (uint32_t i = 0; i < n * n; i++) {
        if (cells[i])
            continue;
        const uint32_t r = i / n, c = i % n, b = (r / bs) * bs + c / bs;
        const uint32_t used = rows[r] | cols[c] | boxes[b];
        const uint32_t ids[4] = {i, n * n + r * n, 2 * n * n + c * n, 3 * n * n + b * n};
        for (uint32_t v = 0; v < n; v++)
            if (!(used >> v & 1))
                dlx_add_option(s, i, ids, v);
    }
    return SDK_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* Dancing links                                                             */
/* ------------------------------------------------------------------------ */

/* The k-th neighbour (1..3) of option node x, going right. */
static inline int dlx_next(int x, int k)
{
    return (x & ~3) | ((x + k) & 3);
}

/* Cover item c: mark it covered and unlink every option that uses it from
 * the other items. */
static inline void dlx_cover(struct dlx *s, int c)
{
    struct dlx_node *x = s->x;
    uint8_t *len = s->len;

    len[c] += DLX_COVERED;
    s->live_len--;
    for (int i = x[c].d; i != c; i = x[i].d) {
        for (int k = 1; k < 4; k++) {
            const struct dlx_node *j = x + dlx_next(i, k);
            x[j->d].u = j->u;
            x[j->u].d = j->d;
            len[j->col]--;
        }
    }
}

/* Undo dlx_cover(s, c), in exactly the reverse order. */
static inline void dlx_uncover(struct dlx *s, int c)
{
    struct dlx_node *x = s->x;
    uint8_t *len = s->len;

    for (int i = x[c].u; i != c; i = x[i].u) {
        for (int k = 3; k > 0; k--) {
            const int j = dlx_next(i, k);
            len[x[j].col]++;
            x[x[j].d].u = j;
            x[x[j].u].d = j;
        }
    }
    len[c] -= DLX_COVERED;
    s->live_len++;
}

/* Cover the other three items of option node o (its own item is covered). */
static inline void dlx_select(struct dlx *s, int o)
{
    for (int k = 1; k < 4; k++)
        dlx_cover(s, s->x[dlx_next(o, k)].col);
}

/* Undo dlx_select(s, o). */
static inline void dlx_unselect(struct dlx *s, int o)
{
    for (int k = 3; k > 0; k--)
        dlx_uncover(s, s->x[dlx_next(o, k)].col);
}

/* The live item with the fewest options, the first such in header order.
 * Needs live_len > 0.  Two passes over the byte array: the minimum (which
 * vectorises), then its first position (memchr). */
static inline int dlx_choose(const struct dlx *s)
{
    const uint8_t *len = s->len + 1;
    const size_t items = (size_t)s->item_len;
    uint8_t least = UINT8_MAX;

    for (size_t i = 0; i < items; i++)
        least = len[i] < least ? len[i] : least;
    const uint8_t *at = memchr(len, least, items);
    return (int)(at - s->len);
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* Write the givens plus the options chosen on levels 0..level-1 into out. */
static void dlx_record(const struct dlx *s, const uint8_t *cells, int level, uint8_t *out)
{
    memcpy(out, cells, (size_t)s->n * s->n);
    for (int i = 0; i < level; i++) {
        const int opt = (s->choice[i] - s->base) >> 2;
        out[s->opt_cell[opt]] = s->opt_val[opt];
    }
}

/* Go one step forward from a fresh level: record a solution, or cover the
 * smallest item.  Returns its first option node, or -1 to backtrack. */
static inline int dlx_descend(struct dlx *s, struct sdk_job *job, int level)
{
    if (s->live_len == 0) {
        if (job->count++ == 0)
            dlx_record(s, job->cells, level, job->solution);
        return -1;
    }
    const int c = dlx_choose(s);
    if (s->len[c] == 0)
        return -1;
    dlx_cover(s, c);
    return s->x[c].d;
}

/* Run Algorithm X.  Returns 0 when the search is exhausted or the limit is
 * reached, else SDK_CANCELLED / SDK_TIMEDOUT.  Either way job->count and
 * job->guesses are up to date. */
static int dlx_search(struct dlx *s, struct sdk_job *job)
{
    uint64_t guesses = 0;
    int level = 0, o = dlx_descend(s, job, 0), rc = 0;

    for (;;) {
        if (o < 0) { /* backtrack: next option of the level above */
            if (level == 0 || job->count >= job->limit)
                break;
            o = s->choice[--level];
            dlx_unselect(s, o);
            o = s->x[o].d;
        }
        if (o < s->base) { /* back at the header: every option failed */
            dlx_uncover(s, o);
            o = -1;
            continue;
        }
        s->choice[level++] = o;
        dlx_select(s, o);
        if ((++guesses & DLX_POLL_MASK) == 0 && (rc = sdk_job_should_stop(job)) != 0)
            break;
        o = dlx_descend(s, job, level);
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
static int dlx_run(struct dlx *s, struct sdk_job *job)
{
    int rc = dlx_build(s, job->cells);
    if (rc != SDK_SOLVED)
        return rc;
    rc = sdk_job_should_stop(job);
    if (rc == 0)
        rc = dlx_search(s, job);
    if (rc != 0)
        return rc;
    return job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

/* The plugin's solve(): see include/sudoku/plugin.h for the contract. */
static int dlx_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    struct dlx s;
    (void)state;
    (void)host;

    if (!dlx_job_ok(job))
        return SDK_FAILED;
    job->count = 0;
    job->guesses = 0;
    s.n = job->n;
    if (job->n == 9) {
        struct dlx_mem9 mem;
        dlx_use_mem9(&s, &mem);
        return dlx_run(&s, job);
    }
    void *block = dlx_alloc(&s, job->n);
    if (!block)
        return SDK_FAILED;
    int rc = dlx_run(&s, job);
    free(block);
    return rc;
}

static const struct sdk_plugin dlx_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "dlx",
    .version = "1.0.0",
    .description = "Knuth's Algorithm X with dancing links, smallest item first",
    .sizes = SDK_SIZE_ALL,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL | SDK_CAP_PROMPT,
    .init = NULL,
    .fini = NULL,
    .solve = dlx_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

/* The one exported symbol: returns the constant descriptor above. */
SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &dlx_plugin;
}
