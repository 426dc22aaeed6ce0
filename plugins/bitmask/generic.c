/* generic.c -- the bitmask plugin's solver for every side (4x4 up to 25x25).
 *
 * Each state keeps the grid and, for every row, column and box, the set of
 * values already used there (bit v-1).  A blank cell's candidates are the
 * values none of its three units uses.  Propagation repeats two rules to a
 * fixed point: naked singles (a cell with one candidate) and hidden singles
 * (a value with one possible cell in a unit); a blank cell without
 * candidates, or a unit where some missing value has no cell, is a
 * contradiction.  Then the search guesses on the blank cell with the fewest
 * candidates (MRV), ties going to the cell in the fullest units.
 *
 * The search is iterative over an explicit stack of frames, one per guess
 * level, each a full copy of the state: backtracking is dropping a frame, so
 * there is no undo log to get wrong.  Every level fills at least one cell, so
 * n*n + 1 frames always suffice; they are allocated once per call (about
 * 580 KiB for 25x25) and freed before returning.  A job's budget of
 * guesses (sdk_job_max_guesses) stops the search with SDK_EXHAUSTED.  No
 * globals.
 */
#include "bitmask.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define G_POLL 64u /* search nodes between two polls (16x16 and up also poll per round) */
/* A candidate's weight in g_rank: above 3n (75 at 25x25), the most values
 * a cell's row, column and box can hold between them. */
#define G_RANK_CAND 128

/* Where each cell sits, and which cells form each unit.  Unit u: rows are
 * 0..n-1, columns n..2n-1, boxes 2n..3n-1. */
struct g_geom {
    unsigned n;                                 /* side */
    unsigned cells;                             /* n*n */
    uint32_t full;                              /* the n values as bits */
    uint8_t unit_of[3][SDK_MAX_CELLS];          /* cell -> its row, column, box */
    uint16_t members[3 * SDK_MAX_N][SDK_MAX_N]; /* unit -> its n cells */
};

struct g_state {
    uint32_t used[3][SDK_MAX_N]; /* row/column/box -> values placed there */
    uint8_t cell[SDK_MAX_CELLS]; /* 0 blank, else 1..n */
};

struct g_frame {
    struct g_state s; /* the state at this level, propagated */
    uint32_t left;    /* values still to try on cell */
    uint16_t cell;    /* the cell guessed at this level */
};

/* One allocation per call: the geometry, then n*n + 1 frames. */
struct g_work {
    struct g_geom g;
    struct g_frame frames[];
};

/* ------------------------------------------------------------------------ */
/* Geometry and cells.                                                        */

static void g_geom_init(struct g_geom *g, unsigned n)
{
    unsigned bs = sdk_box_side(n);

    g->n = n;
    g->cells = n * n;
    g->full = (1u << n) - 1;
    for (unsigned c = 0; c < g->cells; c++) {
        unsigned r = c / n, k = c % n, b = (r / bs) * bs + k / bs;
        unsigned pos_in_box = (r % bs) * bs + k % bs;
        g->unit_of[0][c] = (uint8_t)r;
        g->unit_of[1][c] = (uint8_t)k;
        g->unit_of[2][c] = (uint8_t)b;
        g->members[r][k] = (uint16_t)c;
        g->members[n + k][r] = (uint16_t)c;
        g->members[2 * n + b][pos_in_box] = (uint16_t)c;
    }
}

static inline uint32_t g_cands(const struct g_geom *g, const struct g_state *s, unsigned c)
{
    return g->full & ~(s->used[0][g->unit_of[0][c]] | s->used[1][g->unit_of[1][c]] |
                       s->used[2][g->unit_of[2][c]]);
}

/* Put value v (1..n) on blank cell c; the caller knows it is a candidate. */
static inline void g_set(const struct g_geom *g, struct g_state *s, unsigned c, unsigned v)
{
    uint32_t bit = 1u << (v - 1);

    s->cell[c] = (uint8_t)v;
    s->used[0][g->unit_of[0][c]] |= bit;
    s->used[1][g->unit_of[1][c]] |= bit;
    s->used[2][g->unit_of[2][c]] |= bit;
}

/* Fill s from the givens.  Returns 0, or -1 when two givens clash. */
static int g_load(const struct g_geom *g, struct g_state *s, const uint8_t *cells)
{
    memset(s, 0, sizeof(*s));
    for (unsigned c = 0; c < g->cells; c++) {
        unsigned v = cells[c];
        if (!v)
            continue;
        if (!(g_cands(g, s, c) & (1u << (v - 1))))
            return -1;
        g_set(g, s, c, v);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Propagation.                                                               */

/* The blank cell to guess on (see g_rank), found by the last naked pass. */
struct g_pick {
    unsigned blanks; /* blank cells left */
    unsigned cell;   /* the one with the fewest candidates */
    uint32_t mask;   /* its candidates */
};

/* Guess order for blank cell c with pop candidates, lower first: fewest
 * candidates, ties to the cell whose row, column and box are fullest (on
 * the 16x16 set this halves the guesses of plain MRV). */
static inline int g_rank(const struct g_geom *g, const struct g_state *s, unsigned c, int pop)
{
    int filled = (int)(bm_popcount32(s->used[0][g->unit_of[0][c]]) +
                       bm_popcount32(s->used[1][g->unit_of[1][c]]) +
                       bm_popcount32(s->used[2][g->unit_of[2][c]]));
    return pop * G_RANK_CAND - filled;
}

/* One pass of naked singles.  Returns the number placed, or -1. */
static int g_naked(const struct g_geom *g, struct g_state *s, struct g_pick *p)
{
    int placed = 0, best = INT_MAX;

    p->blanks = 0;
    for (unsigned c = 0; c < g->cells; c++) {
        if (s->cell[c])
            continue;
        uint32_t m = g_cands(g, s, c);
        if (!m)
            return -1;
        if (!(m & (m - 1))) {
            g_set(g, s, c, (unsigned)__builtin_ctz(m) + 1);
            placed++;
            continue;
        }
        p->blanks++;
        /* filled is at most 3n < G_RANK_CAND: a cell with more
         * candidates than the best so far cannot rank before it */
        const int pop = (int)bm_popcount32(m);
        if (pop * G_RANK_CAND - 3 * (int)g->n >= best)
            continue;
        int k = g_rank(g, s, c, pop);
        if (k < best) {
            best = k;
            p->cell = c;
            p->mask = m;
        }
    }
    return placed;
}

/* Hidden singles in unit u.  Returns the number placed, or -1. */
static int g_hidden_unit(const struct g_geom *g, struct g_state *s, unsigned u)
{
    const uint16_t *cells = g->members[u];
    uint32_t ones = 0, twos = 0, hidden;
    int placed = 0;

    for (unsigned j = 0; j < g->n; j++) {
        if (s->cell[cells[j]])
            continue;
        uint32_t m = g_cands(g, s, cells[j]);
        twos |= ones & m;
        ones |= m;
    }
    if ((ones | s->used[u / g->n][u % g->n]) != g->full)
        return -1;
    for (hidden = ones & ~twos; hidden; hidden &= hidden - 1) {
        uint32_t bit = hidden & -hidden;
        unsigned j = 0;
        while (j < g->n && (s->cell[cells[j]] || !(g_cands(g, s, cells[j]) & bit)))
            j++;
        if (j == g->n)
            return -1;
        g_set(g, s, cells[j], (unsigned)__builtin_ctz(bit) + 1);
        placed++;
    }
    return placed;
}

static int g_hidden(const struct g_geom *g, struct g_state *s)
{
    int placed = 0;

    for (unsigned u = 0; u < 3 * g->n; u++) {
        int r = g_hidden_unit(g, s, u);
        if (r < 0)
            return -1;
        placed += r;
    }
    return placed;
}

/* Results of g_propagate. */
#define G_FAIL  (-1) /* contradiction */
#define G_GUESS 0    /* stuck: guess on p->cell, values p->mask */
#define G_FULL  1    /* the grid is full */
#define G_STOP  2    /* the job asked to stop */

/* Propagate to a fixed point.  On big grids one propagation can take
 * milliseconds, so when poll is set the job is polled on every round. */
static int g_propagate(const struct g_geom *g, struct g_state *s, struct g_pick *p,
                       const struct sdk_job *poll)
{
    for (;;) {
        if (poll && sdk_job_should_stop(poll))
            return G_STOP;
        int r = g_naked(g, s, p);
        if (r < 0)
            return G_FAIL;
        if (r > 0)
            continue;
        if (p->blanks == 0)
            return G_FULL;
        r = g_hidden(g, s);
        if (r < 0)
            return G_FAIL;
        if (r == 0)
            return G_GUESS;
    }
}

/* ------------------------------------------------------------------------ */
/* Search.                                                                    */

/* Depth-first search from w->frames[0].s.  Returns 0 when the search ended
 * (exhausted or limit reached), else SDK_CANCELLED / SDK_TIMEDOUT, or
 * SDK_EXHAUSTED when the job's budget of guesses was spent first. */
static int g_search(struct g_work *w, struct sdk_job *job)
{
    const struct g_geom *g = &w->g;
    const struct sdk_job *round_poll = g->n >= 16 ? job : NULL;
    const uint64_t budget = sdk_job_max_guesses(job);
    int depth = 0;
    unsigned poll = G_POLL;

    for (;;) {
        struct g_frame *f = &w->frames[depth];
        struct g_pick p = {0};
        int r = g_propagate(g, &f->s, &p, round_poll);

        if (r == G_STOP)
            return sdk_job_should_stop(job);
        f->left = 0;
        if (r == G_FULL && job->count++ == 0)
            memcpy(job->solution, f->s.cell, g->cells);
        if (job->count >= job->limit)
            return 0;
        if (r == G_GUESS) {
            f->left = p.mask;
            f->cell = (uint16_t)p.cell;
        }
        while (depth >= 0 && !w->frames[depth].left)
            depth--;
        if (depth < 0)
            return 0;
        if (--poll == 0) {
            poll = G_POLL;
            if ((r = sdk_job_should_stop(job)) != 0)
                return r;
        }
        if (budget && job->guesses >= budget)
            return SDK_EXHAUSTED;
        f = &w->frames[depth];
        uint32_t bit = f->left & -f->left;
        f->left &= ~bit;
        w->frames[depth + 1].s = f->s;
        g_set(g, &w->frames[depth + 1].s, f->cell, (unsigned)__builtin_ctz(bit) + 1);
        job->guesses++;
        depth++;
    }
}

int bm_generic_solve(struct sdk_job *job)
{
    size_t frames = (size_t)job->n * job->n + 1;
    struct g_work *w = malloc(sizeof(*w) + frames * sizeof(struct g_frame));
    int status;

    job->count = 0;
    job->guesses = 0;
    if (!w)
        return SDK_FAILED;
    if (!sdk_box_side(job->n)) { /* the entry validated n; never taken */
        status = SDK_FAILED;
        goto out;
    }
    g_geom_init(&w->g, job->n);
    if (g_load(&w->g, &w->frames[0].s, job->cells)) {
        status = SDK_UNSOLVABLE;
        goto out;
    }
    status = g_search(w, job);
    if (status == 0)
        status = job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
out:
    free(w);
    return status;
}
