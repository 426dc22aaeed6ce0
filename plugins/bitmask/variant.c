/* variant.c -- the bitmask plugin's solver for variant rules, every side.
 *
 * Takes a job with sdk_job.rules (include/sudoku/plugin.h: houses, differ
 * pairs, non-consecutive pairs, cages) and leaves the classic engines
 * (fast9.c, generic.c) alone: a classic job never comes here.
 *
 * Representation.  A set of cells is W 64-bit words (W = 1, 2, 4, 10 for
 * sides 4, 9, 16, 25: one instance of the code per side, so every loop
 * over words or digits has a constant bound).  The state of a search level
 * is a frame of words:
 *
 *     pos[0] .. pos[n-1]   per digit, the cells that may still hold it
 *                          (a placed cell stays in its own digit's set only)
 *     open                 the cells not placed yet
 *     dirty[0 .. n-1]      per digit, two words: the houses (bit h) where
 *                          its places changed since the house pass looked
 *     placed[0 .. n-1]     per digit, two words: the houses it is placed in
 *                          (never looked at again for it)
 *     cage[0 .. K-1]       one word per cage of two or more cells:
 *                          bits 0-15 sum left, 16-23 cells left,
 *                          24 dirty (placed in since last looked at),
 *                          32-63 digits placed in it
 *
 * Placing digit d on cell c clears c from every other digit's set and the
 * cell's peers (houses, differ pairs, cage mates: one precomputed set) from
 * d's, and its non-consecutive neighbours from d-1's and d+1's: a few word
 * operations whatever the rule.
 *
 * Propagation to a fixed point, cheapest first: naked singles and empty
 * cells (bit-parallel over the digit sets: "seen once", "seen twice"); the
 * cages (the combinations of a cage's unused digits that its open cells
 * can still hold, filling them with its remaining sum: a digit in none
 * leaves its cells; a digit in every one with one place left in the cage
 * goes there, with none the level fails); then each house where a digit
 * lost places, the extra houses too, in one look: hidden singles (a digit
 * with no place left in a house is a contradiction) and locked
 * candidates (a digit's places in a house, when all of them see a cell,
 * the intersection of their peer sets, leave that cell without it, which
 * covers pointing and claiming between any two houses and the pair rules
 * alike; one look at the digit's places serves both); with cages, when
 * all that is stuck, naked pairs over the peer relation.  Then the
 * search guesses on a cell with the fewest candidates (MRV), ties to the
 * one with the most open peers.
 *
 * Search: iterative over an explicit stack of frames (copying a frame is
 * backtracking's undo), counting solutions up to job->limit, polling the
 * job every V_POLL guesses (every round of propagation from 16x16 up), and
 * stopping with SDK_EXHAUSTED before a guess past job->max_guesses.
 * Memory: up to 9x9 everything lives on the stack (about 45 KiB); larger
 * sides allocate one block per call (at 25x25 with cages about 3 MiB),
 * freed before returning.  No globals.
 */
#include "bitmask.h"

#include <sudoku/plugin_rules.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define V_INLINE static inline __attribute__((always_inline))

#define V_MAX_HOUSES    (3 * SDK_MAX_N + 2 + 16) /* rows, columns, boxes, diagonals, windows */
#define V_MAX_CAGES     (SDK_MAX_CELLS / 2)      /* cages of two cells or more */
#define V_COMBO_N       9u /* sides up to this read cage combinations off a table */
#define V_COMBO_SUMS    (V_COMBO_N * (V_COMBO_N + 1) / 2 + 1) /* sums 0..45 */
#define V_COMBO_KEYS    ((V_COMBO_N + 1) * V_COMBO_SUMS)      /* (size, sum) */
#define V_POLL          4u /* guesses between polls up to 9x9: about 10 us */
#define V_PICK_TRIES(n) ((n) <= 9 ? 32u : (n) * (n)) /* guess candidates weighed at most */
/* Locked candidates look at a digit's places in a house up to a box-line
 * intersection's size (2, 3, 4, 5): larger sets rarely share a peer. */
#define V_LOCKED_MAX(n) ((n) == 4 ? 2u : (n) == 9 ? 3u : (n))
/* Stack words for a 9x9 job: houses, peers, neighbours, cages and frames. */
#define V_SMALL_WORDS ((33 + 81 + 81 + 40 + 81) * 2 + 82 * (9 * 2 + 2 + 4 * 9 + 40) + 8)

/* Where each part of a frame starts (see the top of the file). */
#define V_AT_OPEN(N, W)   ((N) * (W))
#define V_AT_HIDDEN(N, W) ((N) * (W) + (W))
#define V_AT_PLACED(N, W) ((N) * (W) + (W) + 2 * (N))
#define V_AT_CAGES(N, W)  ((N) * (W) + (W) + 4 * (N))

#define V_SUM(x)        ((unsigned)((x)&0xffffu))
#define V_OPEN(x)       ((unsigned)(((x) >> 16) & 0xffu))
#define V_USED(x)       ((uint32_t)((x) >> 32))
#define V_DIRTY         (1ull << 24)
#define V_CAGE(s, o, u) ((uint64_t)(s) | (uint64_t)(o) << 16 | V_DIRTY | (uint64_t)(u) << 32)

/* Outcomes of propagation. */
#define V_FAIL  (-1) /* contradiction */
#define V_GUESS 0    /* stuck: guess */
#define V_FULL  1    /* every cell placed */
#define V_STOP  2    /* the job asked to stop */

/* The rules as cell sets, built once per call. */
struct v_geom {
    unsigned n, cells, w;   /* side, n*n, words of a cell set */
    unsigned houses_len;    /* houses in house */
    unsigned cages_len;     /* cages of two or more cells */
    unsigned stride;        /* words of a frame */
    uint32_t full;          /* every digit */
    uint64_t all[10];       /* every cell */
    const uint64_t *house;  /* houses_len sets */
    uint64_t *peer;         /* per cell: houses, differ pairs, cage mates */
    uint64_t *nc;           /* per cell: non-consecutive neighbours, or NULL */
    uint64_t *cage;         /* cages_len sets */
    uint64_t *house_of;     /* per cell, two words: its houses (bit h) */
    uint64_t houses_all[2]; /* every house */
    /* (a cage word's dirty bit: placed in and not looked at since; a cage
     * with open cells is looked at in every round anyway) */
    int16_t cage_of[SDK_MAX_CELLS]; /* cell -> its cage in cage, or -1 */
    uint16_t cage_sum[V_MAX_CAGES]; /* each cage's sum */
    uint8_t cage_len[V_MAX_CAGES];  /* each cage's cells */
    uint8_t single[SDK_MAX_CELLS];  /* a one-cell cage's digit, 1..n, or 0 */
    /* Up to V_COMBO_N, with cages: every subset of the digits, grouped by
     * (size, sum); those of key k are combo[combo_at[k] .. combo_at[k+1]). */
    uint16_t combo_at[V_COMBO_KEYS + 1];
    uint16_t combo[1u << V_COMBO_N];
};

/* The search: frames and the guess of each level. */
struct v_search {
    struct v_geom g;
    uint64_t *frames;                 /* cells + 1 frames of g.stride words */
    uint32_t left[SDK_MAX_CELLS + 1]; /* digits still to try at each level */
    uint16_t cell[SDK_MAX_CELLS + 1]; /* the cell guessed at each level */
    struct sdk_job *job;
};

/* ------------------------------------------------------------------------ */
/* Checks: the host built the rules, but a bad table must fail, not crash.    */

/* Is rules a table this solver can read for side n?  1 or 0. */
static int v_rules_ok(const struct sdk_rules *r, uint32_t n)
{
    const uint32_t bs = sdk_box_side(n);

    return sdk_rules_head_ok(r, n, SDK_RULE_ALL) &&
           sdk_rules_houses_ok(r, n, 3 * n + 2 + (bs - 1) * (bs - 1), 255) &&
           sdk_rules_pairs_ok(r->differ, r->differ_len, n * n) &&
           sdk_rules_pairs_ok(r->nonconsec, r->nonconsec_len, n * n) && sdk_rules_cages_ok(r, n);
}

/* ------------------------------------------------------------------------ */
/* Geometry.                                                                  */

static inline void v_bit_set(uint64_t *s, unsigned c)
{
    s[c >> 6] |= 1ull << (c & 63);
}

/* Words the geometry and frames of rules need beyond struct v_search. */
static size_t v_words(const struct sdk_rules *r, unsigned w, unsigned houses, unsigned *cages)
{
    const unsigned cells = r->n * r->n;
    unsigned k = 0;

    for (uint32_t i = 0; i < r->cages_len; i++)
        k += r->cages[i].len > 1;
    *cages = k;
    return (size_t)w * (houses + 2 * cells + k) + 2 * (size_t)cells +
           (size_t)(cells + 1) * (r->n * w + w + 4 * r->n + k);
}

/* A digit subset's place in the combination table: its size, then its sum. */
static unsigned v_combo_key(uint32_t m)
{
    unsigned sum = 0;

    for (uint32_t x = m; x; x &= x - 1)
        sum += (unsigned)__builtin_ctz(x) + 1;
    return bm_popcount32(m) * V_COMBO_SUMS + sum;
}

/* The subsets of the n digits by (size, sum) into g's table (n up to
 * V_COMBO_N): a counting sort of the 2^n masks. */
static void v_combo_table(struct v_geom *g, unsigned n)
{
    uint16_t next[V_COMBO_KEYS];

    memset(g->combo_at, 0, sizeof(g->combo_at));
    for (uint32_t m = 0; m < 1u << n; m++)
        g->combo_at[v_combo_key(m) + 1]++;
    for (unsigned k = 0; k < V_COMBO_KEYS; k++)
        g->combo_at[k + 1] = (uint16_t)(g->combo_at[k + 1] + g->combo_at[k]);
    memcpy(next, g->combo_at, sizeof(next));
    for (uint32_t m = 0; m < 1u << n; m++)
        g->combo[next[v_combo_key(m)]++] = (uint16_t)m;
}

/* Lay the geometry of rules out in words (v_words of them, zeroed), the
 * houses given and then the implied ones (implied_len of n cells). */
static void v_geom_init(struct v_geom *g, const struct sdk_rules *r, const uint16_t *implied,
                        unsigned implied_len, unsigned w, unsigned cages, uint64_t *words)
{
    const unsigned n = r->n, cells = n * n, houses = r->houses_len + implied_len;
    uint64_t *house = words;

    g->n = n;
    g->cells = cells;
    g->w = w;
    g->houses_len = houses;
    g->cages_len = cages;
    g->stride = n * w + w + 4 * n + cages;
    g->full = n == 32 ? ~0u : (1u << n) - 1;
    memset(g->all, 0, sizeof(g->all));
    for (unsigned c = 0; c < cells; c++)
        v_bit_set(g->all, c);
    g->house = house;
    g->peer = house + (size_t)w * houses;
    g->nc = g->peer + (size_t)w * cells;
    g->cage = g->nc + (size_t)w * cells;
    g->house_of = g->cage + (size_t)w * cages;
    g->houses_all[0] = g->houses_all[1] = 0;
    for (unsigned h = 0; h < houses; h++) {
        const uint16_t *hc =
            h < r->houses_len ? r->houses + h * n : implied + (h - r->houses_len) * n;
        v_bit_set(g->houses_all, h);
        for (unsigned j = 0; j < n; j++) {
            v_bit_set(g->house_of + 2 * (size_t)hc[j], h);
            v_bit_set(house + (size_t)h * w, hc[j]);
        }
    }
    for (unsigned h = 0; h < houses; h++) {
        const uint16_t *hc =
            h < r->houses_len ? r->houses + h * n : implied + (h - r->houses_len) * n;
        for (unsigned j = 0; j < n; j++)
            for (unsigned k = 0; k < w; k++)
                g->peer[(size_t)hc[j] * w + k] |= house[(size_t)h * w + k];
    }
    for (uint32_t i = 0; i < r->differ_len; i++) {
        v_bit_set(g->peer + (size_t)r->differ[2 * i] * w, r->differ[2 * i + 1]);
        v_bit_set(g->peer + (size_t)r->differ[2 * i + 1] * w, r->differ[2 * i]);
    }
    for (uint32_t i = 0; i < r->nonconsec_len; i++) {
        v_bit_set(g->nc + (size_t)r->nonconsec[2 * i] * w, r->nonconsec[2 * i + 1]);
        v_bit_set(g->nc + (size_t)r->nonconsec[2 * i + 1] * w, r->nonconsec[2 * i]);
    }
    if (r->nonconsec_len == 0)
        g->nc = NULL;
    memset(g->cage_of, 0xff, sizeof(g->cage_of[0]) * cells);
    memset(g->single, 0, sizeof(g->single[0]) * cells);
    for (uint32_t i = 0, k = 0; i < r->cages_len; i++) {
        const struct sdk_cage *cg = &r->cages[i];
        const uint16_t *cc = r->cage_cells + cg->off;
        if (cg->len == 1) {
            g->single[cc[0]] = (uint8_t)(cg->sum > n ? n + 1 : cg->sum);
            continue;
        }
        g->cage_sum[k] = (uint16_t)cg->sum;
        g->cage_len[k] = (uint8_t)cg->len;
        for (uint32_t j = 0; j < cg->len; j++) {
            g->cage_of[cc[j]] = (int16_t)k;
            v_bit_set(g->cage + (size_t)k * w, cc[j]);
        }
        for (uint32_t j = 0; j < cg->len; j++)
            for (unsigned x = 0; x < w; x++)
                g->peer[(size_t)cc[j] * w + x] |= g->cage[(size_t)k * w + x];
        k++;
    }
    for (unsigned c = 0; c < cells; c++)
        g->peer[(size_t)c * w + (c >> 6)] &= ~(1ull << (c & 63));
    if (cages && n <= V_COMBO_N)
        v_combo_table(g, n);
}

/* ------------------------------------------------------------------------ */
/* Cage combinations.                                                         */

/* The digits of the combinations found so far: their union and the digits
 * in every one. */
struct v_combo {
    uint32_t uni, inter, avail;
};

/* The sum of the k lowest (is_high 0) or highest digits of avail, or -1
 * when avail has fewer than k. */
static int v_extreme(uint32_t avail, unsigned k, int is_high)
{
    int sum = 0;

    for (; k; k--) {
        if (!avail)
            return -1;
        unsigned d =
            is_high ? 31u - (unsigned)__builtin_clz(avail) : (unsigned)__builtin_ctz(avail);
        sum += (int)d + 1;
        avail &= ~(1u << d);
    }
    return sum;
}

/* Choose k more digits of avail adding up to sum beside chosen; stops
 * early once no further combination can change the answer. */
static void v_combo_walk(struct v_combo *o, uint32_t avail, unsigned k, int sum, uint32_t chosen)
{
    if (o->uni == o->avail && o->inter == 0)
        return;
    if (k == 0) {
        if (sum == 0) {
            o->uni |= chosen;
            o->inter &= chosen;
        }
        return;
    }
    const int lo = v_extreme(avail, k, 0);
    if (lo < 0 || sum < lo || sum > v_extreme(avail, k, 1))
        return;
    const uint32_t high = 1u << (31 - __builtin_clz(avail));
    v_combo_walk(o, avail & ~high, k - 1, sum - (31 - __builtin_clz(avail)) - 1, chosen | high);
    v_combo_walk(o, avail & ~high, k, sum, chosen);
}

/* The union and the common digits of the k-digit subsets of avail adding
 * up to sum (both 0 when there is none): read off g's table up to
 * V_COMBO_N, walked above it. */
static struct v_combo v_combos(const struct v_geom *g, uint32_t avail, unsigned k, unsigned sum)
{
    struct v_combo o = {.uni = 0, .inter = ~0u, .avail = avail};

    if (g->n > V_COMBO_N) {
        v_combo_walk(&o, avail, k, (int)sum, 0);
    } else if (k <= V_COMBO_N && sum < V_COMBO_SUMS) {
        const unsigned key = k * V_COMBO_SUMS + sum;
        for (unsigned i = g->combo_at[key]; i < g->combo_at[key + 1]; i++) {
            const uint32_t m = g->combo[i];
            if (m & ~avail)
                continue;
            o.uni |= m;
            o.inter &= m;
        }
    }
    if (!o.uni)
        o.inter = 0;
    return o;
}

/* ------------------------------------------------------------------------ */
/* Placing and propagating: N and W are constants in every instance.          */

/* Digit d lost the places in set gone (W words): the houses of those
 * cells that do not hold d yet must look at it again. */
V_INLINE void v_touch(const struct v_geom *g, uint64_t *f, unsigned d, const uint64_t *gone,
                      const unsigned N, const unsigned W)
{
    uint64_t *hid = f + V_AT_HIDDEN(N, W);
    const uint64_t *placed = f + V_AT_PLACED(N, W);
    uint64_t h0 = 0, h1 = 0;

    for (unsigned k = 0; k < W; k++)
        for (uint64_t x = gone[k]; x; x &= x - 1) {
            const uint64_t *in = g->house_of + 2 * (size_t)(k * 64 + (unsigned)__builtin_ctzll(x));
            h0 |= in[0];
            h1 |= in[1];
        }
    h0 &= ~placed[2 * d];
    h1 &= ~placed[2 * d + 1];
    hid[2 * d] |= h0;
    hid[2 * d + 1] |= h1;
}

/* Put digit d (0-based) on cell c of frame f; c holds d as a candidate.
 * Returns 0, or V_FAIL when the digit overflows its cage's sum. */
V_INLINE int v_place(const struct v_geom *g, uint64_t *f, unsigned c, unsigned d, const unsigned N,
                     const unsigned W)
{
    const uint64_t *peer = g->peer + (size_t)c * W;
    const unsigned wi = c >> 6;
    const uint64_t cb = 1ull << (c & 63);
    uint64_t *pos = f, *open = f + N * W;

    uint64_t *hid = f + V_AT_HIDDEN(N, W);
    uint64_t *placed = f + V_AT_PLACED(N, W);
    const uint64_t *in = g->house_of + 2 * (size_t)c;

    uint64_t gone[W];

    placed[2 * d] |= in[0];
    placed[2 * d + 1] |= in[1];
    hid[2 * d] &= ~in[0]; /* d is settled in c's houses: nothing to look at */
    hid[2 * d + 1] &= ~in[1];
    for (unsigned k = 0; k < W; k++) {
        gone[k] = pos[d * W + k] & peer[k];
        pos[d * W + k] &= ~peer[k];
    }
    for (unsigned e = 0; e < N; e++) {
        /* only the digits c could hold lost a place in its houses */
        const uint64_t had = 0 - ((pos[e * W + wi] & cb) != 0);
        const uint64_t in0 = in[0] & ~placed[2 * e] & had, in1 = in[1] & ~placed[2 * e + 1] & had;
        pos[e * W + wi] &= ~cb;
        hid[2 * e] |= in0;
        hid[2 * e + 1] |= in1;
    }
    pos[d * W + wi] |= cb;
    open[wi] &= ~cb;
    v_touch(g, f, d, gone, N, W);
    if (g->nc) {
        const uint64_t *nc = g->nc + (size_t)c * W;
        for (unsigned e = d ? d - 1 : d + 1; e <= d + 1 && e < N; e += 2) {
            for (unsigned k = 0; k < W; k++) {
                gone[k] = pos[e * W + k] & nc[k];
                pos[e * W + k] &= ~nc[k];
            }
            v_touch(g, f, e, gone, N, W);
        }
    }
    const int cage = g->cage_of[c];
    if (cage >= 0) {
        uint64_t *x = f + V_AT_CAGES(N, W) + cage;
        const unsigned sum = V_SUM(*x);
        if (d + 1 > sum)
            return V_FAIL;
        *x = V_CAGE(sum - d - 1, V_OPEN(*x) - 1, V_USED(*x) | (1u << d));
    }
    return 0;
}

/* The digit (0-based) that cell c may still hold when it has exactly
 * one, N when none (a contradiction). */
V_INLINE unsigned v_digit_of(const uint64_t *pos, unsigned c, const unsigned N, const unsigned W)
{
    const unsigned wi = c >> 6;
    const uint64_t cb = 1ull << (c & 63);

    for (unsigned d = 0; d < N; d++)
        if (pos[d * W + wi] & cb)
            return d;
    return N;
}

/* Naked singles over all cells at once.  Returns the number placed or V_FAIL. */
V_INLINE int v_naked(const struct v_geom *g, uint64_t *f, const unsigned N, const unsigned W)
{
    uint64_t ones[W], twos[W];
    const uint64_t *open = f + N * W;
    int placed = 0;

    for (unsigned k = 0; k < W; k++) {
        ones[k] = 0;
        twos[k] = 0;
    }
    for (unsigned d = 0; d < N; d++)
        for (unsigned k = 0; k < W; k++) {
            twos[k] |= ones[k] & f[d * W + k];
            ones[k] |= f[d * W + k];
        }
    for (unsigned k = 0; k < W; k++)
        if (g->all[k] & ~ones[k])
            return V_FAIL;
    for (unsigned k = 0; k < W; k++) {
        uint64_t s = ones[k] & ~twos[k] & open[k];
        for (; s; s &= s - 1) {
            const unsigned c = k * 64 + (unsigned)__builtin_ctzll(s);
            const unsigned d = v_digit_of(f, c, N, W);
            if (d == N || v_place(g, f, c, d, N, W))
                return V_FAIL;
            placed++;
        }
    }
    return placed;
}

/* The first cell of a non-empty set s. */
V_INLINE unsigned v_first(const uint64_t *s, const unsigned W)
{
    unsigned k = 0;

    while (k + 1 < W && !s[k])
        k++;
    return k * 64 + (unsigned)__builtin_ctzll(s[k]);
}

/* Place digit d in the one open cell of mask when that is all it has
 * left there.  Returns 1 placed, 0 nothing, V_FAIL none left.  Branch-free
 * up to the answer: this runs for most (digit, house) pairs of a round. */
V_INLINE int v_hidden_in(const struct v_geom *g, uint64_t *f, unsigned d, const uint64_t *mask,
                         const unsigned N, const unsigned W)
{
    uint64_t t[W], one = 0, two = 0, live = 0;
    const uint64_t *open = f + N * W;

    for (unsigned k = 0; k < W; k++) {
        t[k] = f[d * W + k] & mask[k];
        two |= (t[k] & (t[k] - 1)) | (uint64_t)((one != 0) & (t[k] != 0));
        one |= t[k];
        live |= t[k] & open[k];
    }
    if (!one)
        return V_FAIL;
    if (two || !live)
        return 0;
    return v_place(g, f, v_first(t, W), d, N, W) ? V_FAIL : 1;
}

/* Digit d in house mask, hidden singles and locked candidates at once.
 * The open cells t of mask that may hold d, when d is not placed there
 * yet, are where it must go: none is a contradiction, one is a hidden
 * single, and a cell that sees every cell of t (their peers'
 * intersection: houses, differ pairs, cage mates alike) cannot hold d,
 * which covers pointing and claiming between any two houses and the pair
 * rules alike.  Returns 1 when it placed or removed, 0 nothing, V_FAIL. */
V_INLINE int v_house_in(const struct v_geom *g, uint64_t *f, unsigned d, const uint64_t *mask,
                        const unsigned N, const unsigned W)
{
    uint64_t t[W], sees[W], any = 0, closed = 0, hit = 0;
    const uint64_t *open = f + N * W;
    unsigned cells = 0, at[V_LOCKED_MAX(N)];

    for (unsigned k = 0; k < W; k++) {
        t[k] = f[d * W + k] & mask[k];
        any |= t[k];
        closed |= t[k] & ~open[k];
        sees[k] = f[d * W + k];
    }
    if (!any)
        return V_FAIL;
    if (closed)
        return 0; /* placed in mask */
    if (N <= 9) { /* up to 9x9, counted without a branch a place */
        unsigned places = 0;
        for (unsigned k = 0; k < W; k++)
            places += bm_popcount64(t[k]);
        if (places > V_LOCKED_MAX(N))
            return 0;
    }
    for (unsigned k = 0; k < W; k++)
        for (uint64_t s = t[k]; s; s &= s - 1) {
            if (cells == V_LOCKED_MAX(N))
                return 0; /* too many places to share a peer */
            at[cells++] = k * 64 + (unsigned)__builtin_ctzll(s);
        }
    if (cells == 1)
        return v_place(g, f, at[0], d, N, W) ? V_FAIL : 1;
    for (unsigned j = 0; j < cells; j++) {
        const uint64_t *peer = g->peer + (size_t)at[j] * W;
        any = 0;
        for (unsigned x = 0; x < W; x++) {
            sees[x] &= peer[x];
            any |= sees[x];
        }
        if (!any)
            return 0;
    }
    for (unsigned k = 0; k < W; k++) {
        hit |= sees[k];
        f[d * W + k] &= ~sees[k];
    }
    if (hit)
        v_touch(g, f, d, sees, N, W);
    return hit != 0;
}

/* The digits (bit d) that may still go in an open cell of frame f: a
 * digit not in it is placed in every house.  Once a round. */
V_INLINE uint32_t v_live(const uint64_t *f, const unsigned N, const unsigned W)
{
    const uint64_t *open = f + N * W;
    uint32_t live = 0;

    for (unsigned d = 0; d < N; d++) {
        uint64_t any = 0;
        for (unsigned k = 0; k < W; k++)
            any |= f[d * W + k] & open[k];
        live |= (uint32_t)(any != 0) << d;
    }
    return live;
}

/* Hidden singles and locked candidates in every house where a digit of
 * live (v_live) lost places since the last look.  Returns the number of
 * placements and removals, or V_FAIL. */
V_INLINE int v_houses(const struct v_geom *g, uint64_t *f, uint32_t live, const unsigned N,
                      const unsigned W)
{
    int placed = 0;

    uint64_t *hid = f + V_AT_HIDDEN(N, W);

    for (unsigned d = 0; d < N; d++) {
        if (!((live >> d) & 1)) {
            hid[2 * d] = hid[2 * d + 1] = 0;
            continue; /* every d placed: each house has it */
        }
        for (unsigned k = 0; k < 2; k++)
            while (hid[2 * d + k]) {
                const unsigned h = k * 64 + (unsigned)__builtin_ctzll(hid[2 * d + k]);
                hid[2 * d + k] &= hid[2 * d + k] - 1;
                const int r = v_house_in(g, f, d, g->house + (size_t)h * W, N, W);
                if (r < 0)
                    return V_FAIL;
                placed += r;
            }
    }
    return placed;
}

/* Look at one cage: its combinations are those of its unused digits that
 * its open cells can still hold.  Returns placements, plus one when it
 * removed a candidate, or V_FAIL. */
V_INLINE int v_cage_one(const struct v_geom *g, uint64_t *f, unsigned cage, const unsigned N,
                        const unsigned W)
{
    uint64_t *x = f + V_AT_CAGES(N, W) + cage, strip[W], changed = 0;
    const uint64_t *open = f + N * W, *cells = g->cage + (size_t)cage * W;
    const unsigned left = V_OPEN(*x), sum = V_SUM(*x);
    uint32_t can = 0;
    int placed = 0;

    *x &= ~V_DIRTY;
    if (left == 0)
        return sum ? V_FAIL : 0;
    for (unsigned k = 0; k < W; k++)
        strip[k] = cells[k] & open[k];
    for (unsigned d = 0; d < N; d++) {
        uint64_t any = 0;
        for (unsigned k = 0; k < W; k++)
            any |= f[d * W + k] & strip[k];
        can |= (uint32_t)(any != 0) << d;
    }
    const struct v_combo o = v_combos(g, can & ~V_USED(*x), left, sum);
    if (!o.uni)
        return V_FAIL;
    for (uint32_t m = can & ~o.uni; m; m &= m - 1) {
        const unsigned d = (unsigned)__builtin_ctz(m);
        uint64_t hit = 0, gone[W];
        for (unsigned k = 0; k < W; k++) {
            gone[k] = f[d * W + k] & strip[k];
            hit |= gone[k];
            f[d * W + k] &= ~strip[k];
        }
        if (hit)
            v_touch(g, f, d, gone, N, W);
        changed |= hit;
    }
    for (uint32_t m = o.inter; m; m &= m - 1) {
        const int r = v_hidden_in(g, f, (unsigned)__builtin_ctz(m), cells, N, W);
        if (r < 0)
            return V_FAIL;
        placed += r;
    }
    return placed + (changed != 0);
}

/* Every cage with open cells: placements plus removals, or V_FAIL. */
V_INLINE int v_cages(const struct v_geom *g, uint64_t *f, const unsigned N, const unsigned W)
{
    uint64_t *cg = f + V_AT_CAGES(N, W);
    int done = 0;

    for (unsigned k = 0; k < g->cages_len; k++) {
        if (!V_OPEN(cg[k]) && !(cg[k] & V_DIRTY))
            continue;
        const int r = v_cage_one(g, f, k, N, W);
        if (r < 0)
            return V_FAIL;
        done += r;
    }
    return done;
}

/* The cells of p (W words) may hold only a and b: each two of them that
 * see each other strike a and b from every cell that sees both.  Returns
 * 1 when that removed a candidate, else 0. */
V_INLINE int v_pair_of(const struct v_geom *g, uint64_t *f, unsigned a, unsigned b,
                       const uint64_t *p, const unsigned N, const unsigned W)
{
    uint64_t hit = 0;

    for (unsigned k = 0; k < W; k++)
        for (uint64_t xs = p[k]; xs; xs &= xs - 1) {
            const unsigned x = k * 64 + (unsigned)__builtin_ctzll(xs);
            const uint64_t *px = g->peer + (size_t)x * W;
            for (unsigned j = k; j < W; j++)
                for (uint64_t ys = p[j] & px[j] & (j == k ? xs & (xs - 1) : ~0ull); ys;
                     ys &= ys - 1) {
                    const unsigned y = j * 64 + (unsigned)__builtin_ctzll(ys);
                    const uint64_t *py = g->peer + (size_t)y * W;
                    uint64_t ga[W], gb[W], any = 0;
                    for (unsigned i = 0; i < W; i++) {
                        const uint64_t both = px[i] & py[i];
                        ga[i] = f[a * W + i] & both;
                        gb[i] = f[b * W + i] & both;
                        f[a * W + i] &= ~both;
                        f[b * W + i] &= ~both;
                        any |= ga[i] | gb[i];
                    }
                    if (any) {
                        v_touch(g, f, a, ga, N, W);
                        v_touch(g, f, b, gb, N, W);
                    }
                    hit |= any;
                }
        }
    return hit != 0;
}

/* Naked pairs over the peer relation: two open cells that see each other
 * and may hold only a and b take both digits between them, so a cell that
 * sees both (their peers' intersection: houses, differ pairs, cage mates)
 * holds neither.  Looked at only when everything else is stuck, and
 * only with cages (see v_propagate).  Returns
 * 1 when it removed a candidate, else 0. */
V_INLINE int v_pairs(const struct v_geom *g, uint64_t *f, uint32_t live, const unsigned N,
                     const unsigned W)
{
    uint64_t ones[W], twos[W], biv[W], any = 0;
    const uint64_t *open = f + N * W;
    int changed = 0;

    for (unsigned k = 0; k < W; k++)
        ones[k] = twos[k] = biv[k] = 0;
    for (unsigned d = 0; d < N; d++)
        for (unsigned k = 0; k < W; k++) {
            const uint64_t x = f[d * W + k] & open[k];
            biv[k] |= twos[k] & x; /* three or more, for now */
            twos[k] |= ones[k] & x;
            ones[k] |= x;
        }
    for (unsigned k = 0; k < W; k++) {
        biv[k] = twos[k] & ~biv[k];
        any |= biv[k];
    }
    if (!any)
        return 0;
    for (uint32_t la = live; la; la &= la - 1) {
        const unsigned a = (unsigned)__builtin_ctz(la);
        for (uint32_t lb = la & (la - 1); lb; lb &= lb - 1) {
            const unsigned b = (unsigned)__builtin_ctz(lb);
            uint64_t p[W], one = 0, two = 0;
            for (unsigned k = 0; k < W; k++) {
                p[k] = biv[k] & f[a * W + k] & f[b * W + k];
                two |= (p[k] & (p[k] - 1)) | (uint64_t)((one != 0) & (p[k] != 0));
                one |= p[k];
            }
            if (two) /* two cells or more hold just a and b */
                changed |= v_pair_of(g, f, a, b, p, N, W);
        }
    }
    return changed;
}

/* Are there open cells left? */
V_INLINE int v_has_open(const uint64_t *f, const unsigned N, const unsigned W)
{
    uint64_t any = 0;

    for (unsigned k = 0; k < W; k++)
        any |= f[N * W + k];
    return any != 0;
}

/* Propagate frame f to a fixed point.  Returns V_FAIL, V_GUESS, V_FULL or
 * V_STOP (poll: the job, polled every round, asked to stop). */
V_INLINE int v_propagate(const struct v_geom *g, uint64_t *f, const struct sdk_job *poll,
                         const unsigned N, const unsigned W)
{
    for (;;) {
        if (poll && sdk_job_should_stop(poll))
            return V_STOP;
        int r = v_naked(g, f, N, W);
        if (r < 0)
            return V_FAIL;
        if (r > 0)
            continue;
        if (!v_has_open(f, N, W))
            return V_FULL;
        if (g->cages_len) {
            r = v_cages(g, f, N, W);
            if (r < 0)
                return V_FAIL;
            if (r > 0)
                continue;
        }
        const uint32_t live = v_live(f, N, W);
        r = v_houses(g, f, live, N, W);
        if (r < 0)
            return V_FAIL;
        /* naked pairs pay only with cages: on the 9x9 X and anti-knight
         * benchmarks they save 12% of the guesses and cost 6-13% of the time */
        if (r == 0 && !(g->cages_len && v_pairs(g, f, live, N, W)))
            return V_GUESS;
    }
}

/* Open peers of cell c in frame f: the more, the more its guess decides. */
V_INLINE unsigned v_open_peers(const struct v_geom *g, const uint64_t *f, unsigned c,
                               const unsigned N, const unsigned W)
{
    const uint64_t *peer = g->peer + (size_t)c * W, *open = f + N * W;
    unsigned k = 0;

    for (unsigned x = 0; x < W; x++)
        k += bm_popcount64(peer[x] & open[x]);
    return k;
}

/* Of the cells in the non-empty set s (W words), the one with the most
 * open peers, looking at V_PICK_TRIES of them at most (on the 9x9
 * benchmark this halves the guesses of the fewest open peers on X-sudoku;
 * there 32 find the same cells as all, while on a 16x16 anti-knight X
 * puzzle of tests/data/varsolve.txt looking at all cuts guesses 677 -> 127). */
V_INLINE unsigned v_pick_in(const struct v_geom *g, const uint64_t *f, const uint64_t *s,
                            const unsigned N, const unsigned W)
{
    unsigned best = v_first(s, W), best_peers = 0, tries = 0;

    for (unsigned k = 0; k < W && tries < V_PICK_TRIES(N); k++)
        for (uint64_t x = s[k]; x && tries < V_PICK_TRIES(N); x &= x - 1, tries++) {
            const unsigned c = k * 64 + (unsigned)__builtin_ctzll(x);
            const unsigned p = v_open_peers(g, f, c, N, W);
            if (p > best_peers) {
                best = c;
                best_peers = p;
            }
        }
    return best;
}

/* The open cells of f with the fewest candidates, into s (W words). */
V_INLINE void v_fewest(const uint64_t *f, uint64_t *s, const unsigned N, const unsigned W)
{
    uint64_t ones[W], twos[W], threes[W], any = 0;
    const uint64_t *open = f + N * W;
    unsigned best_pop = N + 1;

    for (unsigned k = 0; k < W; k++) {
        ones[k] = 0;
        twos[k] = 0;
        threes[k] = 0;
    }
    for (unsigned d = 0; d < N; d++)
        for (unsigned k = 0; k < W; k++) {
            const uint64_t x = f[d * W + k] & open[k];
            threes[k] |= twos[k] & x;
            twos[k] |= ones[k] & x;
            ones[k] |= x;
        }
    for (unsigned k = 0; k < W; k++) {
        s[k] = twos[k] & ~threes[k];
        any |= s[k];
    }
    if (any)
        return;
    for (unsigned k = 0; k < W; k++)
        for (uint64_t x = open[k]; x; x &= x - 1) {
            const unsigned c = (unsigned)__builtin_ctzll(x);
            unsigned pop = 0;
            for (unsigned d = 0; d < N; d++)
                pop += (unsigned)((f[d * W + k] >> c) & 1);
            if (pop < best_pop) {
                best_pop = pop;
                for (unsigned j = 0; j < W; j++)
                    s[j] = 0;
            }
            if (pop == best_pop)
                s[k] |= 1ull << c;
        }
}

/* The cell to guess on: of those with the fewest candidates (MRV), the
 * one with the most open peers.  Sets *mask to its candidates. */
V_INLINE unsigned v_pick(const struct v_geom *g, const uint64_t *f, uint32_t *mask,
                         const unsigned N, const unsigned W)
{
    uint64_t s[W];
    unsigned best;

    v_fewest(f, s, N, W);
    best = v_pick_in(g, f, s, N, W);
    *mask = 0;
    for (unsigned d = 0; d < N; d++)
        if ((f[d * W + (best >> 6)] >> (best & 63)) & 1)
            *mask |= 1u << d;
    return best;
}

/* Write the placed frame f as the job's solution. */
static void v_write(const struct v_geom *g, const uint64_t *f, uint8_t *out)
{
    for (unsigned d = 0; d < g->n; d++)
        for (unsigned k = 0; k < g->w; k++)
            for (uint64_t s = f[d * g->w + k]; s; s &= s - 1)
                out[k * 64 + (unsigned)__builtin_ctzll(s)] = (uint8_t)(d + 1);
}

/* Fill frame 0 from the one-cell cages and the givens.  Returns 0 or V_FAIL. */
V_INLINE int v_load(struct v_search *s, const unsigned N, const unsigned W)
{
    const struct v_geom *g = &s->g;
    uint64_t *f = s->frames;

    for (unsigned d = 0; d < N; d++)
        memcpy(f + d * W, g->all, W * sizeof(uint64_t));
    memcpy(f + N * W, g->all, W * sizeof(uint64_t));
    for (unsigned k = 0; k < g->cages_len; k++)
        f[V_AT_CAGES(N, W) + k] = V_CAGE(g->cage_sum[k], g->cage_len[k], 0);
    memset(f + V_AT_PLACED(N, W), 0, 2 * N * sizeof(uint64_t));
    for (unsigned d = 0; d < N; d++) {
        uint64_t *hid = f + V_AT_HIDDEN(N, W);
        hid[2 * d] = g->houses_all[0];
        hid[2 * d + 1] = g->houses_all[1];
    }
    for (unsigned c = 0; c < g->cells; c++)
        if (g->single[c])
            for (unsigned d = 0; d < N; d++)
                if (d + 1 != g->single[c])
                    f[d * W + (c >> 6)] &= ~(1ull << (c & 63));
    for (unsigned c = 0; c < g->cells; c++) {
        const unsigned v = s->job->cells[c];
        if (!v)
            continue;
        if (!((f[(v - 1) * W + (c >> 6)] >> (c & 63)) & 1) || v_place(g, f, c, v - 1, N, W))
            return V_FAIL;
    }
    return 0;
}

/* Depth-first search from frame 0.  Returns 0 when it ended (exhausted or
 * the limit reached), else SDK_CANCELLED, SDK_TIMEDOUT or SDK_EXHAUSTED
 * (the job's budget of guesses spent first). */
V_INLINE int v_search(struct v_search *s, const unsigned N, const unsigned W)
{
    const struct v_geom *g = &s->g;
    struct sdk_job *job = s->job;
    const struct sdk_job *round_poll = N >= 16 ? job : NULL;
    unsigned poll = N >= 16 ? 1 : V_POLL;
    const uint64_t budget = sdk_job_max_guesses(job);
    int depth = 0;

    for (;;) {
        uint64_t *f = s->frames + (size_t)depth * g->stride;
        int r = v_propagate(g, f, round_poll, N, W);

        if (r == V_STOP)
            return sdk_job_should_stop(job);
        s->left[depth] = 0;
        if (r == V_FULL && job->count++ == 0)
            v_write(g, f, job->solution);
        if (job->count >= job->limit)
            return 0;
        if (r == V_GUESS)
            s->cell[depth] = (uint16_t)v_pick(g, f, &s->left[depth], N, W);
        for (;;) {
            while (depth >= 0 && !s->left[depth])
                depth--;
            if (depth < 0)
                return 0;
            if (--poll == 0) {
                poll = N >= 16 ? 1 : V_POLL;
                if ((r = sdk_job_should_stop(job)) != 0)
                    return r;
            }
            const unsigned d = (unsigned)__builtin_ctz(s->left[depth]);
            uint64_t *from = s->frames + (size_t)depth * g->stride;
            if (budget && job->guesses >= budget)
                return SDK_EXHAUSTED;
            s->left[depth] &= s->left[depth] - 1;
            job->guesses++;
            memcpy(from + g->stride, from, g->stride * sizeof(uint64_t));
            if (v_place(g, from + g->stride, s->cell[depth], d, N, W) == 0)
                break;
        }
        depth++;
    }
}

/* One instance of load and search for side N, W words a cell set. */
V_INLINE int v_run(struct v_search *s, const unsigned N, const unsigned W)
{
    if (v_load(s, N, W))
        return SDK_UNSOLVABLE;
    const int rc = v_search(s, N, W);
    if (rc)
        return rc;
    return s->job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

static int v_run4(struct v_search *s)
{
    return v_run(s, 4, 1);
}

static int v_run9(struct v_search *s)
{
    return v_run(s, 9, 2);
}

static int v_run16(struct v_search *s)
{
    return v_run(s, 16, 4);
}

static int v_run25(struct v_search *s)
{
    return v_run(s, 25, 10);
}

/* ------------------------------------------------------------------------ */
/* Entry.                                                                     */

/* Words of a cell set for side n. */
static unsigned v_width(unsigned n)
{
    return (n * n + 63) / 64;
}

int bm_variant_solve(struct sdk_job *job)
{
    const struct sdk_rules *r = job->rules;
    const unsigned n = job->n, w = v_width(n);
    uint64_t small[V_SMALL_WORDS];
    uint16_t implied[SDK_MAX_IMPLIED * SDK_MAX_N];
    struct v_search search, *s = &search;
    uint64_t *words;
    unsigned cages, implied_len;
    size_t need;
    int status;

    job->count = 0;
    job->guesses = 0;
    if (!v_rules_ok(r, n))
        return SDK_FAILED;
    implied_len = (r->kinds & SDK_RULE_WINDOWS) ? sdk_windows_implied(n, implied) : 0;
    need = v_words(r, w, r->houses_len + implied_len, &cages);
    words = need > V_SMALL_WORDS ? malloc(need * sizeof(uint64_t)) : small;
    if (!words)
        return SDK_FAILED;
    memset(words, 0,
           ((size_t)w * (r->houses_len + implied_len + 2 * n * n + cages) + 2 * (size_t)n * n) *
               sizeof(uint64_t));
    v_geom_init(&s->g, r, implied, implied_len, w, cages, words);
    s->frames = s->g.house_of + 2 * (size_t)n * n;
    s->job = job;
    switch (n) {
    case 4:
        status = v_run4(s);
        break;
    case 9:
        status = v_run9(s);
        break;
    case 16:
        status = v_run16(s);
        break;
    default:
        status = v_run25(s);
        break;
    }
    if (words != small)
        free(words);
    return status;
}
