/* sechain.h -- what sechain.c's runs share with senest.c (internal).
 *
 * A run (struct se_run) is one assumption's closure in Sudoku Explainer's
 * chaining (sechain.c); its dynamic (+) and nested kinds go on, once plain
 * propagation is done, with SE's "other rules" on the run's grid, which
 * senest.c applies (lg_se_advanced).  Potentials, runs and their parents
 * are described at the top of sechain.c.  Nothing here allocates.
 */
#ifndef SECHAIN_H
#define SECHAIN_H

#include "lg.h"

#define NPOT    (81 * 9 * 2) /* potentials */
#define NCV     (81 * 9)     /* candidates (cell * 9 + v - 1) */
#define CVW     ((NCV + 63) / 64)
#define NONE    0xffffu
#define KIND_X  1u         /* unit links (single digit) */
#define KIND_Y  2u         /* cell links (bivalue cells) */
#define HK_LIST 255u       /* hkind of an advanced potential: its parents are xpar[hmask + 1 ..] */
#define XPAR    (NCV * 24) /* parent lists: a length, a nested hint, the parents */
#define NH_MAX  NCV        /* nested hints with removals in one run */

/* The tables of the 9x9 shape in SE's order: each cell's units (block, row,
 * column) and its place in each. */
struct se_geo {
    uint8_t unit[81][3];  /* block, row, column: our unit numbers */
    uint8_t place[81][3]; /* the cell's index within each */
    uint16_t skip[81][3]; /* places of each unit that the cell's block holds (itself too) */
    const struct lg_geom *geo;
};

#define SEEN_MAX 16 /* nested chains one step counts apart (more are counted again) */

/* The nested chains the walks of one step have counted, by signature:
 * SE counts a nested chain once per step, however many of its chains
 * (runs) meet it, two chains being the same when their content is. */
struct se_seen {
    uint64_t sig[SEEN_MAX];
    uint32_t n;
};

struct se_acc;  /* a walk's collector of rule parents (sechain.c) */
struct se_nest; /* the work space of a run's nested searches (sechain.c) */

/* One assumption's closure (SE's doChaining). */
struct se_run {
    uint16_t cand[81];             /* the run's grid: candidates left */
    uint16_t pos[27][9];           /* places of each value in each unit, in the run's grid */
    uint16_t pos0[27][9];          /* the same in the start grid */
    uint64_t in[(NPOT + 63) / 64]; /* potentials derived (toOn and toOff) */
    uint16_t par[NPOT];            /* first parent, or NONE */
    uint8_t hkind[NPOT];  /* hidden parents: 0 none, 1 the cell's values, 2 + u a unit's places */
    uint16_t hmask[NPOT]; /* which values or places were removed before */
    uint16_t lon[NCV];    /* on potentials in order */
    uint16_t loff[NCV];   /* off potentials in order */
    uint32_t non, noff;   /* entries of lon, loff */
    uint16_t stamp[NPOT]; /* ancestor counts: visited in walk number st */
    uint16_t st;          /* the current walk */
    uint16_t stack[NPOT]; /* the walk's stack */
    int abs_on, abs_off;  /* a contradiction: the two potentials, or -1 */
    bool abs_new_on;      /* which of them is the one not stored (derived last) */
    uint16_t new_par;     /* its first parent */
    uint8_t new_hkind;    /* its hidden parents */
    uint16_t new_hmask;
    uint8_t level;  /* SE's nesting level: 0 plain, 1 dynamic (+), 2-5 nested (kept by run_load) */
    uint32_t nxpar; /* entries of xpar used */
    uint16_t
        xpar[XPAR]; /* advanced potentials' parents: a length, a nested hint or NONE, the list */
    uint32_t nnh;   /* nested hints whose removals joined the run */
    uint32_t nh_cx[NH_MAX];  /* their complexities (SE's getComplexity) */
    uint64_t nh_sig[NH_MAX]; /* their signatures (of their chains' content) */
    struct se_acc *acc;      /* where a walk collects rule parents, or NULL */
    struct se_seen *seen;    /* the nested chains the step counted so far (set whenever the run
                                can hold any: levels 2-5), or NULL */
    struct se_nest *nest;    /* levels 2-5: the nested searches' work space (kept by run_load) */
};

static inline uint32_t pot_cell(uint32_t p)
{
    return p / 18;
}

static inline uint32_t pot_val(uint32_t p)
{
    return p / 2 % 9 + 1;
}

static inline uint32_t pot(uint32_t cell, uint32_t v, uint32_t on)
{
    return (cell * 9 + v - 1) * 2 + on;
}

static inline bool bit_has(const uint64_t *b, uint32_t i)
{
    return b[i >> 6] >> (i & 63) & 1u;
}

static inline void bit_set(uint64_t *b, uint32_t i)
{
    b[i >> 6] |= (uint64_t)1 << (i & 63);
}

static inline void run_add(struct se_run *r, uint32_t p, uint32_t par, uint32_t hkind,
                           uint32_t hmask)
{
    bit_set(r->in, p);
    r->par[p] = (uint16_t)par;
    r->hkind[p] = (uint8_t)hkind;
    r->hmask[p] = (uint16_t)hmask;
    if (p & 1)
        r->lon[r->non++] = (uint16_t)p;
    else
        r->loff[r->noff++] = (uint16_t)p;
}

/* senest.c: SE's "other rules" of a run of level r->level > 0 on the
 * run's grid (every pending potential processed); their removals join the
 * run as off potentials, each with the rule's parents.  Returns how many
 * joined (0: none of the rules applies). */
uint32_t lg_se_advanced(struct se_run *r, const struct se_geo *sg, const struct lg_grid *g);

/* sechain.c: the chaining rules a run of level 2-5 goes on with when the
 * others find nothing (SE's nested forcing chains); the same contract. */
uint32_t lg_se_nested_rules(struct se_run *r, const struct se_geo *sg, const struct lg_grid *g);

#endif /* SECHAIN_H */
