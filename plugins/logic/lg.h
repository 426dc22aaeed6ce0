/* lg.h -- the logic plugin's internal interface: grid state, steps, techniques.
 *
 * The engine keeps one position (struct lg_grid): a value per solved cell
 * and, per unsolved cell, a bitmask of candidates (bit v-1 for value v;
 * solved cells have mask 0).  The geometry (struct lg_geom) lists the
 * units (rows 0..n-1, columns n..2n-1, boxes 2n..3n-1, then a variant's
 * extra houses) and each cell's row, column and box, and its peers (the
 * cells that cannot share its value).  A variant (variant.c) builds its
 * own geometry from the host's struct sdk_rules: jigsaw regions take the
 * boxes' place, diagonals and windows are extra units, and the pairs that
 * must differ (anti-knight, anti-king, a killer cage's cells) are peers.  A technique looks at the
 * position and, when it applies, fills one struct lg_step (what it places, what it eliminates, the
 * cells that prove it, one sentence) without changing the grid; lg_step_apply() then changes it.
 * Everything lives in caller-owned structs: no globals, no malloc.  Explanations take n <=
 * LG_EXPLAIN_MAX_N (cells fit a 256-bit set).
 */
#ifndef LG_H
#define LG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

#define LG_MAX_N         16           /* the plugin takes 4, 9 and 16 (25: unsupported) */
#define LG_RULES         SDK_RULE_ALL /* the variants explain() takes: all */
#define LG_MAX_CELLS     (LG_MAX_N * LG_MAX_N)
#define LG_EXPLAIN_MAX_N LG_MAX_N
#define LG_MAX_EXTRA     11 /* extra houses: 2 diagonals, up to 9 windows (16x16) */
#define LG_MAX_UNITS     (3 * LG_MAX_N + LG_MAX_EXTRA)
#define LG_STEP_ELIMS    256  /* eliminations one step records at most */
#define LG_STEP_PLACES   8    /* placements one step records at most */
#define LG_STEP_CELLS    64   /* pattern cells one step records at most */
#define LG_TEXT_MAX      512  /* bytes of one step's sentence, NUL included */
#define LG_SET_WORDS     4    /* 64-bit words in a cell set (n <= 16) */
#define LG_STUCK_RATING  10.0 /* rating of a stuck explanation: above all */
#define LG_MAX_PEERS     128  /* peers of one cell: 3n - 2b - 1 classic, < 128 with variants */
#define LG_MAX_NC        4    /* non-consecutive partners of one cell (orthogonal) */

/* A set of cells, bit i = cell i (n <= 16 only). */
struct lg_set {
    uint64_t w[LG_SET_WORDS]; /* 256 bits */
};

/* The shape of an n x n grid: classic (rules NULL, shared by every call)
 * or a variant's (rules set, built for one explain call by variant.c). */
struct lg_geom {
    uint32_t n;                            /* side */
    uint32_t box;                          /* box side */
    uint32_t ncells;                       /* n * n */
    uint32_t nunits;                       /* 3 * n, plus a variant's extra houses */
    uint16_t unit[LG_MAX_UNITS][LG_MAX_N]; /* cells of each unit, in order */
    uint8_t row[LG_MAX_CELLS];             /* row of each cell */
    uint8_t col[LG_MAX_CELLS];             /* column of each cell */
    uint8_t bx[LG_MAX_CELLS];              /* box (jigsaw: region) of each cell */
    struct lg_set peers[256];              /* peers of each cell (n <= 16 only) */
    uint8_t npeers;                        /* classic: peers of every cell (with_peers) */
    uint8_t peer_list[256][LG_MAX_PEERS];  /* the peers of each cell, in order */
    uint8_t npeer[256];                    /* entries of peer_list[cell] (with_peers) */
    /* Variants only (zero, NULL in a classic shape). */
    const struct sdk_rules *rules;        /* the host's rules, valid for the call */
    uint16_t extra[LG_MAX_CELLS];         /* bit k: the cell is in unit 3n + k */
    uint8_t nnc[LG_MAX_CELLS];            /* entries of nc[cell] */
    uint16_t nc[LG_MAX_CELLS][LG_MAX_NC]; /* non-consecutive partners */
    int16_t cage_of[LG_MAX_CELLS];        /* the cell's cage, or -1 */
};

/* One position. */
struct lg_grid {
    uint32_t all;                /* mask of every value: (1 << n) - 1 */
    uint32_t unsolved;           /* cells without a value */
    uint8_t val[LG_MAX_CELLS];   /* 0 = unsolved, else 1..n */
    uint32_t cand[LG_MAX_CELLS]; /* candidates of unsolved cells; 0 when solved */
};

/* One step, as a technique found it. */
struct lg_step {
    const char *name;                    /* wire name (static) */
    double rating;                       /* the technique's rating */
    uint32_t place_len;                  /* entries in place_* */
    uint32_t elim_len;                   /* entries in elim_* */
    uint32_t cells_len;                  /* entries in cells */
    uint16_t place_cell[LG_STEP_PLACES]; /* cells solved */
    uint8_t place_val[LG_STEP_PLACES];   /* their values */
    uint16_t elim_cell[LG_STEP_ELIMS];   /* cells losing a candidate */
    uint8_t elim_val[LG_STEP_ELIMS];     /* the candidate lost */
    uint16_t cells[LG_STEP_CELLS];       /* the pattern */
    uint32_t text_len;                   /* bytes in text, NUL excluded */
    char text[LG_TEXT_MAX];              /* one sentence, or "" without want_text */
};

/* Where each value can go in each unit: bit k of m[u][v - 1] says that
 * the k-th cell of unit u (geo->unit order) holds candidate v.  A cache of
 * the position, built on first use (lg_positions); whoever changes the
 * position clears valid. */
struct lg_pos {
    bool valid;                         /* m matches the position */
    uint16_t m[LG_MAX_UNITS][LG_MAX_N]; /* places of each value in each unit */
};

/* The 9x9 branches of the forcing_chain rung's sources, for the dynamic
 * rung on the same position (forcing.c): their closures under singles,
 * which the dynamic rung's branches of the same sources continue from.
 * Whoever changes the position clears len; whoever makes one clears ready. */
#define LG_KEEP 32 /* source branches kept */
struct lg_forcing_keep {
    bool ready;         /* of is defined (cleared once, by the first rung) */
    uint32_t len;       /* entries used */
    uint8_t of[81 * 9]; /* 1 + entry of cell * 9 + v - 1 (checked: e[].key, len) */
    struct lg_b9_kept {
        uint32_t p[9][3];   /* the branch's candidates (struct lg_b9) */
        uint32_t solved[3]; /* its solved cells */
        int rc;             /* lg_b9_deduce's answer */
        uint16_t key;       /* cell * 9 + v - 1 */
    } e[LG_KEEP];
};

/* What a technique works on.  cut_above is set by the ladder only when the
 * answer is SDK_EXPLAIN_ABOVE whether the rung finds a step above it or none
 * at all (every later rung rates more): the rung may then stop a search
 * whose steps would all rate above it, and when it found nothing at or
 * below it after such a stop, report a step with no content whose rating is
 * the least a step it skipped could have (above cut_above). */
struct lg_ctx {
    const struct lg_geom *geo;     /* the shape */
    struct lg_grid *g;             /* the position (techniques only read it) */
    bool want_text;                /* write step->text */
    uint32_t *hs_next;             /* where the hidden-single scan starts, or NULL */
    struct lg_pos *pos;            /* the places cache (required) */
    const struct sdk_explain *job; /* its cancel flag and deadline, or NULL */
    struct lg_forcing_keep *keep;  /* forcing rungs' shared branches, or NULL */
    struct lg_cage_memo **cages;   /* killer cage fillings for the cage and forcing rungs: made
                                      on first use (lg_cage_memo_of), freed by the caller; or
                                      NULL */
    const uint8_t *solution;       /* the unique solution, g agreeing with it, or NULL */
    bool full_house_first;         /* a full house before a box single (the first step) */
    double rated;                  /* the hardest step taken so far (0: none) */
    double cut_above;              /* a rung may stop searching above this rating (0: never) */
};

/* Should a long search give up now (cancel flag or deadline of c->job)?
 * A technique that gives up reports nothing; the ladder then looks again. */
static inline bool lg_should_stop(const struct lg_ctx *c)
{
    return c->job && sdk_explain_should_stop(c->job) != 0;
}

/* A subset search (basic.c, fish.c): choose k of the len masks so that their
 * union has exactly k bits, then let accept() turn the choice into a step. */
struct lg_subset {
    const struct lg_ctx *c;      /* the position */
    struct lg_step *s;           /* the step being built */
    uint32_t unit;               /* the unit searched (subsets), or the value (fish) */
    uint32_t k;                  /* size wanted: 2, 3 or 4 */
    uint32_t len;                /* entries in mask and item */
    uint32_t mask[LG_MAX_N];     /* what each item covers */
    uint16_t item[LG_MAX_N];     /* the items: cells, values or lines */
    uint8_t geo_index[LG_MAX_N]; /* naked subsets: each item's place in the unit */
    uint32_t idx[4];             /* out: the chosen items, indices into item */
    /* Build the step for the choice in idx whose union is uni; true = done. */
    bool (*accept)(struct lg_subset *q, uint32_t uni);
};

/* A technique: returns true after filling *s with a step that changes the
 * candidates, false when it finds none. */
typedef bool lg_technique_fn(const struct lg_ctx *c, struct lg_step *s);

/* grid.c: shape, position, changes. */
int lg_geom_init(struct lg_geom *geo, uint32_t n, bool with_peers);
int lg_grid_load(struct lg_grid *g, const struct lg_geom *geo, const uint8_t *cells);
void lg_grid_place(struct lg_grid *g, const struct lg_geom *geo, uint32_t cell, uint32_t v);
bool lg_grid_is_broken(const struct lg_grid *g, const struct lg_geom *geo);
int lg_grid_propagate(struct lg_grid *g, const struct lg_geom *geo);
void lg_step_reset(struct lg_step *s, const char *name, double rating);
void lg_step_place(struct lg_step *s, uint32_t cell, uint32_t v);
void lg_step_elim(struct lg_step *s, uint32_t cell, uint32_t v);
void lg_step_cell(struct lg_step *s, uint32_t cell);
void lg_step_elim_mask(struct lg_step *s, const struct lg_grid *g, uint32_t cell, uint32_t mask);
bool lg_step_apply(struct lg_step *s, struct lg_grid *g, const struct lg_geom *geo);
bool lg_sees(const struct lg_geom *geo, uint32_t a, uint32_t b);
const struct lg_pos *lg_positions(const struct lg_ctx *c);

/* direct.c: hidden singles (1.0, 1.2, 1.5) and SE's direct techniques. */
bool lg_hidden_single(const struct lg_ctx *c, struct lg_step *s);
bool lg_direct_pointing(const struct lg_ctx *c, struct lg_step *s);
bool lg_direct_claiming(const struct lg_ctx *c, struct lg_step *s);
bool lg_direct_hidden_pair(const struct lg_ctx *c, struct lg_step *s);
bool lg_direct_hidden_triple(const struct lg_ctx *c, struct lg_step *s);

/* basic.c: the naked single, locked candidates, naked and hidden subsets. */
bool lg_naked_single(const struct lg_ctx *c, struct lg_step *s);
bool lg_pointing(const struct lg_ctx *c, struct lg_step *s);
bool lg_claiming(const struct lg_ctx *c, struct lg_step *s);
bool lg_naked_pair(const struct lg_ctx *c, struct lg_step *s);
bool lg_naked_triple(const struct lg_ctx *c, struct lg_step *s);
bool lg_naked_quad(const struct lg_ctx *c, struct lg_step *s);
bool lg_hidden_pair(const struct lg_ctx *c, struct lg_step *s);
bool lg_hidden_triple(const struct lg_ctx *c, struct lg_step *s);
bool lg_hidden_quad(const struct lg_ctx *c, struct lg_step *s);

bool lg_subset_find(struct lg_subset *q);

/* fish.c: fish and wings. */
bool lg_x_wing(const struct lg_ctx *c, struct lg_step *s);
bool lg_swordfish(const struct lg_ctx *c, struct lg_step *s);
bool lg_jellyfish(const struct lg_ctx *c, struct lg_step *s);
bool lg_xy_wing(const struct lg_ctx *c, struct lg_step *s);
bool lg_xyz_wing(const struct lg_ctx *c, struct lg_step *s);

/* unique.c: uniqueness steps (9x9, a puzzle known to be unique only). */
bool lg_unique_loop(const struct lg_ctx *c, struct lg_step *s);
bool lg_bug(const struct lg_ctx *c, struct lg_step *s);

/* aligned.c: aligned pair and triple exclusion (sides up to 9). */
bool lg_aligned_pair_exclusion(const struct lg_ctx *c, struct lg_step *s);
bool lg_aligned_triple_exclusion(const struct lg_ctx *c, struct lg_step *s);

/* chains.c: X-chains, XY-chains, AICs. */
bool lg_x_chain(const struct lg_ctx *c, struct lg_step *s);
bool lg_xy_chain(const struct lg_ctx *c, struct lg_step *s);
bool lg_aic(const struct lg_ctx *c, struct lg_step *s);

/* A 9x9 branch position on bitboards (branch9.c): p[v - 1][b] holds the
 * cells of band b (rows 3b..3b+2, bit 9 * row + column within the band)
 * that have candidate v or are solved with it; solved[b] the solved ones. */
struct lg_b9 {
    uint32_t p[9][3];       /* cells of each value, by band */
    uint32_t solved[3];     /* solved cells, by band */
    uint32_t hs_seen[9][3]; /* p when its hidden singles were last looked for */
    uint32_t lk_seen[9][3]; /* p when its locked candidates were last looked for */
};

/* branch9.c: singles and locked candidates on a 9x9 branch. */
void lg_b9_load(struct lg_b9 *b, const struct lg_grid *g);
void lg_b9_place(struct lg_b9 *b, uint32_t cell, uint32_t v);
void lg_b9_seen(struct lg_b9 *b);
int lg_b9_deduce(struct lg_b9 *b, bool dynamic);

/* The candidates of cell in b (a solved cell: its value's bit). */
static inline uint32_t lg_b9_cand(const struct lg_b9 *b, uint32_t cell)
{
    const uint32_t w = cell / 27, k = cell % 27;
    uint32_t m = 0;

    for (uint32_t v = 0; v < 9; v++)
        m |= (b->p[v][w] >> k & 1u) << v;
    return m;
}

/* Is cell solved in b? */
static inline bool lg_b9_solved(const struct lg_b9 *b, uint32_t cell)
{
    return b->solved[cell / 27] >> (cell % 27) & 1u;
}

/* forcing.c: forcing chains. */
bool lg_forcing_chain(const struct lg_ctx *c, struct lg_step *s);
bool lg_dynamic_forcing_chain(const struct lg_ctx *c, struct lg_step *s);
bool lg_forcing_branches(const struct lg_ctx *c, struct lg_step *s, bool dynamic);
int lg_forcing_branch(const struct lg_ctx *c, bool dynamic, bool generic, uint32_t cell, uint32_t v,
                      uint16_t *m, uint8_t *done);

/* sechain.c: Sudoku Explainer's chaining rungs, rated as SE rates them
 * (a classic 9x9 grid only: lg_se_applies). */
bool lg_se_applies(const struct lg_ctx *c);
bool lg_se_chain(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_nishio(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_multiple(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_dynamic(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_dynamic_plus(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_nested_fc(const struct lg_ctx *c, struct lg_step *s);
bool lg_nested_forcing_chain(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_nested_multiple(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_nested_dynamic(const struct lg_ctx *c, struct lg_step *s);
bool lg_se_nested_twice(const struct lg_ctx *c, struct lg_step *s);
bool lg_dynamic_forcing_chain_plus(const struct lg_ctx *c, struct lg_step *s);
bool lg_nested_forcing_chain_last(const struct lg_ctx *c, struct lg_step *s);

/* text.c: sentences in r1c1 notation. */
void lg_text(const struct lg_ctx *c, struct lg_step *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *lg_cell_name(const struct lg_geom *geo, uint32_t cell, char *buf, size_t size);
const char *lg_unit_name(const struct lg_geom *geo, uint32_t unit, char *buf, size_t size);
const char *lg_values_name(uint32_t mask, char *buf, size_t size);
const char *lg_cells_name(const struct lg_geom *geo, const uint16_t *cells, uint32_t len, char *buf,
                          size_t size);

/* variant.c: a variant's shape and its techniques (none apply to a
 * classic shape: each returns false at once). */
int lg_geom_rules(struct lg_geom *geo, const struct sdk_rules *rules);
int lg_var_geom_new(const struct sdk_explain *job, struct lg_geom **out);
void lg_var_geom_free(struct lg_geom *geo);
void lg_var_place(struct lg_grid *g, const struct lg_geom *geo, uint32_t cell, uint32_t v);
void lg_var_positions(const struct lg_ctx *c, struct lg_pos *p);
bool lg_var_pointing(const struct lg_ctx *c, struct lg_step *s);
bool lg_var_claiming(const struct lg_ctx *c, struct lg_step *s);
const char *lg_var_unit_name(const struct lg_geom *geo, uint32_t unit, char *buf, size_t size);
bool lg_non_consecutive(const struct lg_ctx *c, struct lg_step *s);

/* killer.c: the cage sums' rungs (none apply without cages). */
bool lg_cage_combination(const struct lg_ctx *c, struct lg_step *s);
bool lg_cage_locked(const struct lg_ctx *c, struct lg_step *s);
bool lg_rule_of_45(const struct lg_ctx *c, struct lg_step *s);
/* The values some filling of cage k of geo's rules gives each of its cells
 * (in the order of the cage's cells) into poss, from each cell's
 * candidates m (a solved cell: its value's bit alone), as cage_combination
 * reads them; forcing.c's dynamic branches use it.  memo (or NULL) keeps
 * the answers for cages of up to LG_CAGE_MEMO_LEN cells, for a search that
 * asks again and again (the forcing chains' branches; the cage rungs from
 * one step to the next).  Returns false when the cage has no filling left. */
#define LG_CAGE_MEMO_LEN   6     /* cells of a cage a memo keeps */
#define LG_CAGE_MEMO_SLOTS 16384 /* answers a memo keeps (about 450 KB) */
struct lg_cage_memo;
bool lg_cage_poss(const struct lg_geom *geo, struct lg_cage_memo *memo, uint32_t k,
                  const uint16_t *m, uint32_t *poss);
/* A memo of no answers; the caller frees it with free().  NULL: no memory. */
struct lg_cage_memo *lg_cage_memo_new(void);
/* c's memo (*c->cages), made on first use; NULL without cages, without a
 * place for it (c->cages NULL) or without memory: look without it. */
struct lg_cage_memo *lg_cage_memo_of(const struct lg_ctx *c);

/* plugin.c: the shared shapes (built once by init, read-only afterwards). */
const struct lg_geom *lg_state_geom(const void *state, uint32_t n);

/* solve.c: search with singles, for solve() and the host's fallback. */
int lg_solve(void *state, const struct sdk_host *host, struct sdk_job *job);

/* One rung of the ladder (explain.c). */
struct lg_rung {
    const char *name;    /* wire name, a contract (docs/techniques.md) */
    double rating;       /* fixed rating */
    lg_technique_fn *fn; /* the search */
};

/* marks.c: cut g's candidates down to job's pencil marks, when it has
 * some (returns true then). */
bool lg_grid_marks(struct lg_grid *g, const struct lg_geom *geo, const struct sdk_explain *job);

/* explain.c: the ladder, easiest first (len rungs), and explain(). */
const struct lg_rung *lg_ladder(size_t *len);
int lg_explain(void *state, const struct sdk_host *host, struct sdk_explain *job);

/* variant.c: the rungs that only a variant's rules feed (killer, non-
 * consecutive), easiest first (len rungs); explain.c merges them into the
 * ladder by rating. */
const struct lg_rung *lg_var_ladder(size_t *len);

/* Bit helpers. */
/* Bits set in m.  Written out: without -mpopcnt the builtin is a library
 * call, and this is the engine's most frequent operation. */
static inline uint32_t lg_popcount(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Is cell in unit u (rows 0..n-1, columns n..2n-1, boxes 2n..3n-1, a
 * variant's extra houses from 3n)? */
static inline bool lg_in_unit(const struct lg_geom *geo, uint32_t u, uint32_t cell)
{
    const uint32_t n = geo->n;

    if (u < n)
        return geo->row[cell] == u;
    if (u < 2 * n)
        return geo->col[cell] == u - n;
    if (u < 3 * n)
        return geo->bx[cell] == u - 2 * n;
    return (geo->extra[cell] >> (u - 3 * n)) & 1u;
}

static inline uint32_t lg_lowest(uint32_t m)
{
    return (uint32_t)__builtin_ctz(m);
}

static inline bool lg_set_has(const struct lg_set *s, uint32_t i)
{
    return (s->w[i >> 6] >> (i & 63)) & 1u;
}

static inline void lg_set_and(struct lg_set *out, const struct lg_set *a, const struct lg_set *b)
{
    for (int i = 0; i < LG_SET_WORDS; i++)
        out->w[i] = a->w[i] & b->w[i];
}

/* Next member of s at or after i, or -1. */
static inline int lg_set_next(const struct lg_set *s, uint32_t i)
{
    for (uint32_t w = i >> 6; w < LG_SET_WORDS; w++) {
        uint64_t m = s->w[w];
        if (w == i >> 6)
            m &= ~(uint64_t)0 << (i & 63);
        if (m)
            return (int)(w * 64 + (uint32_t)__builtin_ctzll(m));
    }
    return -1;
}

static inline void lg_set_add(struct lg_set *s, uint32_t i)
{
    s->w[i >> 6] |= (uint64_t)1 << (i & 63);
}

#endif /* LG_H */
